/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-cli.h"
#include "seismo-importer.h"

/* The recording in progress, for the signal handler (which only sets the stop flag). */
static SeismoRecordControl *active_control;

static void
on_stop_signal (int signum)
{
  if (active_control != NULL)
    g_atomic_int_set (&active_control->stop, 1);
}

typedef struct {
  SeismoRecordControl *ctl;
  gboolean             tty;
  gint64               start;
} Progress;

static void
on_progress (gpointer user_data)
{
  Progress *p = user_data;
  double elapsed = (g_get_monotonic_time () - p->start) / 1e6;

  if (!p->tty)
    return;
  fprintf (stderr, "\rRecording: %.1f s, %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " lost\033[K",
           elapsed, (guint64) __atomic_load_n (&p->ctl->events, __ATOMIC_RELAXED),
           (guint64) __atomic_load_n (&p->ctl->lost, __ATOMIC_RELAXED));
}

static int
list_backends (void)
{
  guint n;
  const SeismoBackend *const *backends = seismo_backends_get (&n);

  if (n == 0)
    g_print ("No backend was built into this seismo-cli.\n");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *why = NULL;
      gboolean ok = backends[i]->available (&why);

      g_print ("%-8s %-9s %s%s%s\n", backends[i]->name, ok ? "available" : "unavailable",
               backends[i]->description, ok ? "" : ": ", ok ? "" : (why ? why : "unknown reason"));
    }
  if (!seismo_backend_lookup ("ebpf"))
    g_print ("%-8s %-9s %s\n", "ebpf", "unavailable", "built without eBPF support (clang/bpftool missing at build time)");
  return SEISMO_EXIT_OK;
}

static int
list_events (const SeismoBackend *backend)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) events = NULL;

  if (backend->list_events == NULL)
    {
      g_printerr ("seismo-cli record: the %s backend has no event list\n", backend->name);
      return SEISMO_EXIT_FAILED;
    }
  if (!(events = backend->list_events (&error)))
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  for (guint i = 0; i < events->len; i++)
    g_print ("%s\n", (const char *) g_ptr_array_index (events, i));
  return SEISMO_EXIT_OK;
}

/* Splits "a,b" and repeated options into one list. */
static char **
split_list (char **values)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; values && values[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (values[i], ",", -1);

      for (guint k = 0; parts[k]; k++)
        if (*g_strstrip (parts[k]))
          g_strv_builder_add (b, parts[k]);
    }
  return g_strv_builder_end (b);
}

gboolean
seismo_cli_record_into (const SeismoBackend       *backend,
                        const SeismoRecordOptions *options,
                        SeismoTraceBuilder        *builder,
                        SeismoRecordControl       *ctl,
                        GError                   **error)
{
  struct sigaction sa = { 0 }, old_int, old_term, old_hup;
  gboolean ok;

  active_control = ctl;
  sa.sa_handler = on_stop_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  sigaction (SIGHUP, &sa, &old_hup);

  {
    g_autofree char *cmdline = options->argv ? g_strjoinv (" ", options->argv) : NULL;
    char host[256] = "";

    seismo_trace_builder_set_metadata (builder, SEISMO_META_BACKEND, backend->name);
    if (cmdline)
      seismo_trace_builder_set_metadata (builder, SEISMO_META_COMMAND, cmdline);
    if (gethostname (host, sizeof host - 1) == 0)
      seismo_trace_builder_set_metadata (builder, SEISMO_META_HOST, host);
  }
  ok = backend->record (options, builder, ctl, error);

  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  sigaction (SIGHUP, &old_hup, NULL);
  active_control = NULL;
  return ok;
}

int
seismo_cli_record (int    argc,
                   char **argv)
{
  g_autofree char *backend_name = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) events = NULL;
  g_auto(GStrv) probes = NULL;
  g_auto(GStrv) command = NULL;
  gboolean system_wide = FALSE, children = FALSE, aggregate = FALSE, list_b = FALSE, list_e = FALSE;
  gboolean keep_running = FALSE;
  gint pid = 0, buffer_kb = 0;
  double duration = 0;
  GOptionEntry entries[] = {
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend_name, "Backend: ftrace, ptrace or ebpf", "NAME" },
    { "events", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &events,
      "ftrace: events (sched:*, irq:irq_handler_*); ptrace/ebpf: syscalls (openat,read or %file)", "LIST" },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &system_wide, "Record the whole system", NULL },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, "Record a running process", "PID" },
    { "children", 0, 0, G_OPTION_ARG_NONE, &children, "With -p: follow its children too", NULL },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after this many seconds", "S" },
    { "buffer-kb", 0, 0, G_OPTION_ARG_INT, &buffer_kb, "Per-CPU buffer (ftrace) or ring (ebpf) size", "KB" },
    { "probe", 0, 0, G_OPTION_ARG_STRING_ARRAY, &probes,
      "ebpf: kprobe:FUNC, kretprobe:FUNC, uprobe:BIN:SYM, uretprobe:BIN:SYM, usdt:BIN:PROVIDER:NAME", "SPEC" },
    { "aggregate", 0, 0, G_OPTION_ARG_NONE, &aggregate, "ebpf: in-kernel histograms only", NULL },
    { "keep-running", 0, 0, G_OPTION_ARG_NONE, &keep_running, "Leave a launched command running when stopped early", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace here (.seismo)", "FILE" },
    { "list-backends", 0, 0, G_OPTION_ARG_NONE, &list_b, "Say which backends can run here", NULL },
    { "list-events", 0, 0, G_OPTION_ARG_NONE, &list_e, "List what the backend can record", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &command, NULL, "[-- CMD ARGS…]" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- record a trace");
  g_autoptr(GError) error = NULL;
  const SeismoBackend *backend;
  g_autofree char *why = NULL;
  g_auto(GStrv) event_list = NULL;
  g_auto(GStrv) probe_list = NULL;
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { .exit_status = -1 };
  Progress progress = { &ctl, isatty (STDERR_FILENO), g_get_monotonic_time () };
  SeismoTraceBuilder *builder;
  g_autoptr(SeismoTrace) trace = NULL;
  gboolean ok;
  struct stat st;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_strict_posix (context, FALSE);
  {
    g_autoptr(GError) perr = NULL;

    if (!g_option_context_parse (context, &argc, &argv, &perr))
      {
        g_printerr ("seismo-cli record: %s\n", perr->message);
        return SEISMO_EXIT_USAGE;
      }
  }
  if (list_b)
    return list_backends ();
  if (backend_name == NULL)
    {
      g_printerr ("seismo-cli record: choose a backend with -b (see --list-backends)\n");
      return SEISMO_EXIT_USAGE;
    }
  if (!(backend = seismo_backend_lookup (backend_name)))
    {
      g_printerr ("seismo-cli record: no backend named '%s' in this build (see --list-backends)\n", backend_name);
      return SEISMO_EXIT_USAGE;
    }
  if (list_e)
    return list_events (backend);

  if (output == NULL)
    {
      g_printerr ("seismo-cli record: say where to write the trace with -o FILE\n");
      return SEISMO_EXIT_USAGE;
    }
  if ((system_wide ? 1 : 0) + (pid > 0 ? 1 : 0) + (command && command[0] ? 1 : 0) > 1)
    {
      g_printerr ("seismo-cli record: -a, -p PID and -- CMD exclude each other\n");
      return SEISMO_EXIT_USAGE;
    }
  if (!system_wide && pid <= 0 && !(command && command[0]))
    {
      g_printerr ("seismo-cli record: say what to record: -a, -p PID or -- CMD ARGS…\n");
      return SEISMO_EXIT_USAGE;
    }
  if (children && pid <= 0)
    {
      g_printerr ("seismo-cli record: --children goes with -p PID\n");
      return SEISMO_EXIT_USAGE;
    }
  if (duration < 0 || buffer_kb < 0)
    {
      g_printerr ("seismo-cli record: --duration and --buffer-kb must not be negative\n");
      return SEISMO_EXIT_USAGE;
    }
  if (stat (output, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_printerr ("seismo-cli record: %s is a folder; -o takes a file name\n", output);
      return SEISMO_EXIT_USAGE;
    }
  if (!backend->available (&why))
    {
      g_printerr ("seismo-cli record: the %s backend cannot run here: %s\n", backend->name,
                  why ? why : "unknown reason");
      return SEISMO_EXIT_FAILED;
    }

  event_list = split_list (events);
  probe_list = split_list (probes);
  if (strcmp (backend->name, "ftrace") == 0)
    options.events = event_list[0] ? event_list : NULL;
  else
    options.syscalls = event_list[0] ? event_list : NULL;
  options.probes = probe_list[0] ? probe_list : NULL;
  options.system_wide = system_wide;
  options.pid = pid;
  options.children = children;
  options.argv = command && command[0] ? command : NULL;
  options.duration_s = duration;
  options.buffer_kb = buffer_kb;
  options.aggregate = aggregate;
  options.kill_on_stop = !keep_running;

  ctl.progress = on_progress;
  ctl.user_data = &progress;
  builder = seismo_trace_builder_new ();
  ok = seismo_cli_record_into (backend, &options, builder, &ctl, &error);
  if (progress.tty)
    fprintf (stderr, "\r\033[K");

  if (!ok)
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      seismo_trace_builder_free (builder);
      return SEISMO_EXIT_FAILED;
    }

  trace = seismo_trace_builder_finish (builder);
  if (!seismo_trace_save (trace, output, &error))
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  {
    struct stat out_st = { 0 };

    stat (output, &out_st);
    g_printerr ("Recorded %" G_GSIZE_FORMAT " events (%" G_GUINT64_FORMAT " lost) in %.2f s to %s (%.1f KiB)\n",
                seismo_trace_get_n_events (trace), seismo_trace_get_n_lost_events (trace),
                (g_get_monotonic_time () - progress.start) / 1e6, output, out_st.st_size / 1024.0);
  }

  /* A launched command's exit status becomes ours, as with strace. */
  if (ctl.exit_status >= 0)
    {
      if (WIFEXITED (ctl.exit_status))
        return WEXITSTATUS (ctl.exit_status);
      if (WIFSIGNALED (ctl.exit_status))
        return 128 + WTERMSIG (ctl.exit_status);
    }
  return SEISMO_EXIT_OK;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-error.h"
#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-file.h"
#include "seismo-importer.h"
#include "seismo-output.h"
#include "seismo-recorder.h"
#include "seismo-user.h"

#include <glib/gstdio.h>

/* Set when the user stopped the recording (a signal, or the GUI closing our stdin): the trace is
 * then what they asked for, and its saving decides the exit status, not the killed command. */
static volatile gint stop_requested;

typedef struct {
  SeismoRecordControl *ctl;
  gboolean             tty;
  gint64               start;
  /* Streaming: what is recorded so far goes to OUTPUT.partial, so a viewer (the GUI) can show
   * it live. */
  SeismoFileWriter    *writer;
  SeismoOutput        *output;
  SeismoTraceBuilder  *builder;
  GError              *flush_error;
  gboolean             live;        /* OUTPUT.live is kept while the recording is small */
  gint64               last_live;   /* when it was last written */
} Progress;

/*
 * The streamed file holds whole chunks of 65536 events only, so a slow recording (one program
 * under ptrace) would show nothing live for a long time. While the recording is small, a complete
 * snapshot of it is also written to OUTPUT.live (cheap at that size); past the limit the streamed
 * file lags by at most a chunk, a small part of what it holds, and OUTPUT.live goes away.
 */
#define SEISMO_LIVE_SNAPSHOT_MAX  (4 * 65536)
#define SEISMO_LIVE_INTERVAL_US   (G_USEC_PER_SEC / 2)

static void
write_live_snapshot (Progress *p)
{
  g_autoptr(SeismoTrace) snapshot = NULL;

  if (!p->live)
    return;
  if (__atomic_load_n (&p->ctl->events, __ATOMIC_RELAXED) <= SEISMO_LIVE_SNAPSHOT_MAX)
    snapshot = seismo_trace_builder_snapshot (p->builder);
  if (snapshot == NULL || seismo_trace_get_n_events (snapshot) > SEISMO_LIVE_SNAPSHOT_MAX)
    {
      seismo_output_remove_live (p->output);
      p->live = FALSE;
      return;
    }
  /* A snapshot that cannot be written only costs the live view. */
  seismo_output_write_live (p->output, snapshot, NULL);
}

static void
on_progress (gpointer user_data)
{
  Progress *p = user_data;
  double elapsed = (g_get_monotonic_time () - p->start) / 1e6;

  /* Everything recorded so far goes to OUTPUT.partial, the incomplete last chunk provisionally:
   * a crash loses only what came after this report. */
  if (p->writer != NULL && p->flush_error == NULL
      && !seismo_file_writer_flush_all (p->writer, p->builder, &p->flush_error))
    g_atomic_int_set (&p->ctl->stop, 1);   /* a full disk: stop rather than lose silently */
  /* The snapshot (a whole sorted copy) is for a viewer's eyes: twice a second is plenty. */
  if (p->writer != NULL && p->flush_error == NULL &&
      g_get_monotonic_time () - p->last_live >= SEISMO_LIVE_INTERVAL_US)
    {
      p->last_live = g_get_monotonic_time ();
      write_live_snapshot (p);
    }
  if (!p->tty)
    return;
  fprintf (stderr, _("\rRecording: %.1f s, %" PRIu64 " events, %" PRIu64 " lost\033[K"),
           elapsed, (guint64) __atomic_load_n (&p->ctl->events, __ATOMIC_RELAXED),
           (guint64) __atomic_load_n (&p->ctl->lost, __ATOMIC_RELAXED));
}

/* The GUI cannot signal a recorder that pkexec runs as root; it closes our stdin instead. */
static gpointer
watch_stdin (gpointer user_data)
{
  SeismoRecordControl *ctl = user_data;
  char buf[256];
  ssize_t n;

  while ((n = read (STDIN_FILENO, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    ;
  g_atomic_int_set (&stop_requested, 1);
  g_atomic_int_set (&ctl->stop, 1);
  return NULL;
}

/*
 * `--stacks` takes an optional argument, and GOption only knows `--stacks=KIND` for that. The
 * spelling `--stacks KIND` is joined into that form here, and only for the three kinds and only
 * before `--`, so that the command after `--` is never taken for one.
 */
static void
join_stacks_argument (int    *argc,
                      char ***argv)
{
  char **args = *argv;

  for (int i = 1; i < *argc && !g_str_equal (args[i], "--"); i++)
    {
      if (!g_str_equal (args[i], "--stacks") || i + 1 >= *argc)
        continue;
      if (!g_str_equal (args[i + 1], "user") && !g_str_equal (args[i + 1], "kernel") &&
          !g_str_equal (args[i + 1], "both"))
        continue;
      g_autofree char *joined = g_strconcat ("--stacks=", args[i + 1], NULL);

      /* Interned: argv lives as long as we do, and option parsing may drop it from argv. */
      args[i] = (char *) g_intern_string (joined);
      memmove (&args[i + 1], &args[i + 2], (*argc - i - 2 + 1) * sizeof (char *));
      (*argc)--;
    }
}

static gboolean
on_stacks_option (const char  *option_name,
                  const char  *value,
                  gpointer     data,
                  GError     **error)
{
  char **spelling = data;

  g_free (*spelling);
  *spelling = g_strdup (value != NULL ? value : "");
  return TRUE;
}

static int
list_backends (void)
{
  guint n;
  const SeismoBackend *const *backends = seismo_backends_get (&n);

  if (n == 0)
    g_print (_("No backend was built into this seismo-cli.\n"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *why = NULL;
      gboolean ok = backends[i]->available (&why);

      /* "available"/"unavailable" stay as they are: scripts read this column. */
      g_print ("%-8s %-9s %s%s%s\n", backends[i]->name, ok ? "available" : "unavailable",
               _(backends[i]->description), ok ? "" : ": ",
               ok ? "" : (why ? why : _("unknown reason")));
    }
  for (const char *const *name = seismo_backends_get_unbuilt (); *name != NULL; name++)
    g_print ("%-8s %-9s %s\n", *name, "unavailable", _("not built into this seismo-cli"));
  return SEISMO_EXIT_OK;
}

static int
list_events (const SeismoBackend *backend)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) events = NULL;

  if (backend->list_events == NULL)
    {
      g_printerr (_("seismo-cli record: the %s backend has no event list\n"), backend->name);
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

gboolean
seismo_cli_record_into (const SeismoBackend       *backend,
                        const SeismoRecordOptions *options,
                        SeismoTraceBuilder        *builder,
                        SeismoRecordControl       *ctl,
                        GError                   **error)
{
  gboolean ok;

  /* A signal only sets the stop flag, which the recorder's control loop watches. */
  seismo_recorder_catch_signals (ctl, &stop_requested);
  ok = seismo_recorder_record (backend, options, builder, ctl, error);
  seismo_recorder_uncatch_signals ();
  return ok;
}

/* The names of the backends that can do what caps says, "ptrace/ebpf", for the help. */
static char *
backends_with (SeismoBackendCaps caps)
{
  const SeismoBackend *const *backends = seismo_backends_get (NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; backends[i] != NULL; i++)
    if (seismo_backend_can (backends[i], caps))
      g_ptr_array_add (names, (gpointer) backends[i]->name);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("/", (char **) names->pdata);
}

/* What --stacks alone means, per backend: "user for ptrace and ebpf, kernel for ftrace". */
static char *
default_stacks_help (void)
{
  const SeismoBackend *const *backends = seismo_backends_get (NULL);
  static const SeismoStackMode modes[] = { SEISMO_STACK_USER, SEISMO_STACK_KERNEL, SEISMO_STACK_BOTH };
  g_autoptr(GString) help = g_string_new (NULL);

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new ();
      g_autofree char *head = NULL;

      for (guint i = 0; backends[i] != NULL; i++)
        if (backends[i]->stacks != SEISMO_STACK_NONE && backends[i]->default_stacks == modes[m])
          g_ptr_array_add (names, (gpointer) backends[i]->name);
      if (names->len == 0)
        continue;
      if (help->len > 0)
        g_string_append (help, ", ");
      g_string_append_printf (help, "%s ", seismo_stack_mode_to_string (modes[m]));
      if (names->len == 1)
        {
          /* TRANSLATORS: "for ftrace" in "--stacks alone: kernel for ftrace" */
          g_string_append_printf (help, _("for %s"), (const char *) g_ptr_array_index (names, 0));
          continue;
        }
      {
        const char *last = g_ptr_array_steal_index (names, names->len - 1);

        g_ptr_array_add (names, NULL);
        head = g_strjoinv (", ", (char **) names->pdata);
        /* TRANSLATORS: "for ptrace and ebpf" in "--stacks alone: user for ptrace and ebpf" */
        g_string_append_printf (help, _("for %s and %s"), head, last);
      }
    }
  return g_string_free (g_steal_pointer (&help), FALSE);
}

int
seismo_cli_record (int    argc,
                   char **argv)
{
  g_autofree char *backend_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *stacks = NULL;   /* NULL: no --stacks; "": --stacks alone */
  g_auto(GStrv) events = NULL;
  g_auto(GStrv) probes = NULL;
  g_auto(GStrv) command = NULL;
  gboolean system_wide = FALSE, children = FALSE, aggregate = FALSE, list_b = FALSE, list_e = FALSE;
  gboolean keep_running = FALSE, stop_on_eof = FALSE;
  gint pid = 0, buffer_kb = 0;
  double duration = 0;
  /* The help says which backends each option is for, from their capabilities. */
  g_autofree char *all_names = backends_with (0);
  g_autofree char *event_names = backends_with (SEISMO_BACKEND_CAP_EVENTS);
  g_autofree char *syscall_names = backends_with (SEISMO_BACKEND_CAP_SYSCALL_FILTER);
  g_autofree char *buffer_names = backends_with (SEISMO_BACKEND_CAP_BUFFER_SIZE);
  g_autofree char *probe_names = backends_with (SEISMO_BACKEND_CAP_PROBES);
  g_autofree char *aggregate_names = backends_with (SEISMO_BACKEND_CAP_AGGREGATE);
  g_autofree char *stacks_defaults = default_stacks_help ();
  g_autofree char *backend_help = g_strdup_printf (_("Backend: %s"), all_names);
  g_autofree char *events_help =
    g_strdup_printf (_("%s: events (sched:*, irq:irq_handler_*); %s: syscalls (openat,read or %%file)"),
                     event_names, syscall_names);
  g_autofree char *buffer_help =
    g_strdup_printf (_("%s: per-CPU buffer or ring buffer size"), buffer_names);
  g_autofree char *probe_help =
    g_strdup_printf (_("%s: kprobe:FUNC, kretprobe:FUNC, uprobe:BIN:SYM, uretprobe:BIN:SYM, "
                       "usdt:BIN:PROVIDER:NAME"), probe_names);
  g_autofree char *aggregate_help = g_strdup_printf (_("%s: in-kernel histograms only"),
                                                     aggregate_names);
  g_autofree char *stacks_help =
    g_strdup_printf (_("Record call stacks: user, kernel or both (alone: %s)"), stacks_defaults);
  GOptionEntry entries[] = {
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend_name, backend_help, "NAME" },
    { "events", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &events, events_help, "LIST" },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &system_wide, _("Record the whole system"), NULL },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, _("Record a running process"), "PID" },
    { "children", 0, 0, G_OPTION_ARG_NONE, &children, _("With -p: follow its children too"), NULL },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, _("Stop after this many seconds"), "S" },
    { "buffer-kb", 0, 0, G_OPTION_ARG_INT, &buffer_kb, buffer_help, "KB" },
    { "probe", 0, 0, G_OPTION_ARG_STRING_ARRAY, &probes, probe_help, "SPEC" },
    { "aggregate", 0, 0, G_OPTION_ARG_NONE, &aggregate, aggregate_help, NULL },
    { "stacks", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, on_stacks_option,
      stacks_help, "[KIND]" },
    { "keep-running", 0, 0, G_OPTION_ARG_NONE, &keep_running,
      _("Leave a launched command running when stopped early"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, _("Write the trace here (.seismo)"), "FILE" },
    { "stop-on-stdin-close", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &stop_on_eof,
      _("Stop when standard input closes (how the GUI stops a recorder it may not signal)"), NULL },
    { "list-backends", 0, 0, G_OPTION_ARG_NONE, &list_b, _("Say which backends can run here"), NULL },
    { "list-events", 0, 0, G_OPTION_ARG_NONE, &list_e, _("List what the backend can record"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &command, NULL, _("[-- CMD ARGS…]") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("- record a trace"));
  g_autoptr(GError) error = NULL;
  const SeismoBackend *backend;
  g_autofree char *why = NULL;
  g_auto(GStrv) event_list = NULL;
  g_auto(GStrv) probe_list = NULL;
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { .exit_status = -1 };
  Progress progress = { &ctl, isatty (STDERR_FILENO), g_get_monotonic_time () };
  SeismoTraceBuilder *builder;
  g_autoptr(SeismoOutput) out = NULL;
  g_autoptr(SeismoFileWriter) writer = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  int partial_fd = -1;
  gboolean ok;

  {
    /* The callback's data is the group's user_data: a group of our own carries &stacks. */
    GOptionGroup *main_group = g_option_group_new (NULL, NULL, NULL, &stacks, NULL);

    g_option_group_add_entries (main_group, entries);
    g_option_context_set_main_group (context, main_group);
  }
  g_option_context_set_strict_posix (context, FALSE);
  g_option_context_set_description (context, _(
    "Exit status:\n"
    "  0      the trace was saved: the recording ended (-a, -p), was stopped (SIGINT, SIGTERM,\n"
    "         --duration) or the launched command exited with 0\n"
    "  N      the launched command ended by itself with status N (128+S when killed by signal S),\n"
    "         as with strace; the trace was saved\n"
    "  1      recording or saving failed (the message says why; on a full disk the events\n"
    "         written so far are kept in OUTPUT.partial), or another recorder writes to OUTPUT\n"
    "  2      bad usage, or OUTPUT exists and is not a regular file\n"
    "\n"
    "Under pkexec every file is made by, and belongs to, the user who asked (see\n"
    "docs/security.md)."));
  join_stacks_argument (&argc, &argv);
  if (!seismo_cli_parse_options (context, &argc, &argv, "seismo-cli record"))
    return SEISMO_EXIT_USAGE;
  if (list_b)
    return list_backends ();
  if (backend_name == NULL)
    {
      g_printerr (_("seismo-cli record: choose a backend with -b (see --list-backends)\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (!(backend = seismo_backend_lookup (backend_name)))
    {
      g_printerr (_("seismo-cli record: no backend named '%s' in this build (see --list-backends)\n"),
                  backend_name);
      return SEISMO_EXIT_USAGE;
    }
  if (list_e)
    return list_events (backend);

  if (output == NULL)
    {
      g_printerr (_("seismo-cli record: say where to write the trace with -o FILE\n"));
      return SEISMO_EXIT_USAGE;
    }
  if ((system_wide ? 1 : 0) + (pid > 0 ? 1 : 0) + (command && command[0] ? 1 : 0) > 1)
    {
      g_printerr (_("seismo-cli record: -a, -p PID and -- CMD exclude each other\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (!system_wide && pid <= 0 && !(command && command[0]))
    {
      g_printerr (_("seismo-cli record: say what to record: -a, -p PID or -- CMD ARGS…\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (children && pid <= 0)
    {
      g_printerr (_("seismo-cli record: --children goes with -p PID\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (duration < 0 || buffer_kb < 0)
    {
      g_printerr (_("seismo-cli record: --duration and --buffer-kb must not be negative\n"));
      return SEISMO_EXIT_USAGE;
    }
  event_list = seismo_cli_split_list (events);
  probe_list = seismo_cli_split_list (probes);
  /* -e is what the backend selects by: tracepoints, or syscalls. */
  if (seismo_backend_can (backend, SEISMO_BACKEND_CAP_EVENTS))
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
  /* Before any file is made: an option the backend cannot honour is bad usage. */
  if (!seismo_recorder_check_options (backend, &options, &error))
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      return SEISMO_EXIT_USAGE;
    }

  if (!backend->available (&why))
    {
      g_printerr (_("seismo-cli record: the %s backend cannot run here: %s\n"), backend->name,
                  why ? why : _("unknown reason"));
      return SEISMO_EXIT_FAILED;
    }
  /* Before anything starts: a kind of stack the backend cannot capture is bad usage. */
  if (stacks != NULL &&
      (!seismo_backend_parse_stacks (backend, stacks, &options.stacks, &error) ||
       !seismo_backend_check_stacks (backend, options.stacks, &error)))
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      return SEISMO_EXIT_USAGE;
    }
  if (!seismo_recorder_check_target (pid, &error))
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }

  /* Written as it records (OUTPUT.partial, renamed to OUTPUT at the end), so a viewer can follow;
   * every name in the output's folder is handled as the user the recording is for. */
  if ((out = seismo_output_new (output, &error)) == NULL ||
      (partial_fd = seismo_output_open_partial (out, &error)) < 0 ||
      (writer = seismo_file_writer_new_for_fd (partial_fd, seismo_output_get_partial_path (out),
                                               &error)) == NULL)
    {
      gboolean usage = g_error_matches (error, SEISMO_OUTPUT_ERROR, SEISMO_OUTPUT_ERROR_NOT_REGULAR);

      g_printerr ("seismo-cli record: %s\n", error->message);
      if (out != NULL && partial_fd >= 0)
        seismo_output_discard (out);
      return usage ? SEISMO_EXIT_USAGE : SEISMO_EXIT_FAILED;
    }
  builder = seismo_trace_builder_new ();
  /* Every backend reports progress from the thread that fills the builder. */
  progress.writer = writer;
  progress.output = out;
  progress.builder = builder;
  progress.live = TRUE;
  if (stop_on_eof)
    g_thread_unref (g_thread_new ("seismo-stdin", watch_stdin, &ctl));
  ctl.progress = on_progress;
  ctl.user_data = &progress;
  ok = seismo_cli_record_into (backend, &options, builder, &ctl, &error);
  if (progress.tty)
    fprintf (stderr, "\r\033[K");
  seismo_output_remove_live (out);
  if (progress.flush_error != NULL)
    {
      /* A full disk: what was written up to the last complete record is kept, as a valid file. */
      g_autoptr(GError) salvage_error = NULL;
      guint64 kept = 0;

      g_printerr ("seismo-cli record: %s\n", progress.flush_error->message);
      if (!ok)
        g_printerr ("seismo-cli record: %s\n", error->message);
      if (seismo_file_writer_salvage (writer, &kept, &salvage_error))
        g_printerr (_("seismo-cli record: the %" PRIu64 " events written before that are kept "
                      "in %s (a valid trace file); %s was left as it was\n"),
                    kept, seismo_output_get_partial_path (out), output);
      else
        g_printerr ("seismo-cli record: %s\n", salvage_error->message);
      g_clear_error (&progress.flush_error);
      seismo_trace_builder_free (builder);
      return SEISMO_EXIT_FAILED;
    }

  if (!ok || !seismo_file_writer_finish (writer, builder, &error) ||
      !seismo_output_commit (out, &error))
    {
      g_printerr ("seismo-cli record: %s\n", error->message);
      seismo_output_discard (out);
      seismo_trace_builder_free (builder);
      /* Options that cannot work (an unknown syscall, -a with ptrace) are bad usage. */
      if (g_error_matches (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION))
        return SEISMO_EXIT_USAGE;
      return SEISMO_EXIT_FAILED;
    }
  trace = seismo_trace_builder_finish (builder);
  {
    struct stat out_st = { 0 };

    stat (output, &out_st);
    g_printerr (_("Recorded %" PRIu64 " events (%" PRIu64 " lost) in %.2f s to %s (%.1f KiB)\n"),
                (guint64) seismo_trace_get_n_events (trace),
                (guint64) seismo_trace_get_n_lost_events (trace),
                (g_get_monotonic_time () - progress.start) / 1e6, output, out_st.st_size / 1024.0);
  }

  /* A launched command's exit status becomes ours, as with strace; but a recording the user
   * stopped, and saved, succeeded, whatever stopping did to the command. */
  if (ctl.exit_status >= 0 && WIFSIGNALED (ctl.exit_status) && duration > 0 &&
      (WTERMSIG (ctl.exit_status) == SIGKILL || WTERMSIG (ctl.exit_status) == SIGTERM) &&
      g_get_monotonic_time () - progress.start >= (gint64) (duration * G_USEC_PER_SEC))
    return SEISMO_EXIT_OK;   /* --duration ended it: the recording went as asked */
  if (ctl.exit_status >= 0 && !g_atomic_int_get (&stop_requested))
    {
      if (WIFEXITED (ctl.exit_status))
        return WEXITSTATUS (ctl.exit_status);
      if (WIFSIGNALED (ctl.exit_status))
        return 128 + WTERMSIG (ctl.exit_status);
    }
  return SEISMO_EXIT_OK;
}

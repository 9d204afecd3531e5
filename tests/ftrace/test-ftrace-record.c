/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * Real recordings with the ftrace backend (root and tracefs; skipped with the backend's reason
 * otherwise): a workload with a known number of write and getpid calls, launched or attached to,
 * must show exactly those syscalls; the private instance must be gone afterwards, also when the
 * recorder is stopped by SIGTERM; a recorder killed with SIGKILL leaves a readable file of what
 * it streamed and its guard removes its instance, or, the guard killed too, the next run does.
 */

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-recorder.h"
#include "seismo-error.h"
#include "seismo-ftrace-private.h"
#include "seismo-importer.h"
#include "seismo-test-util.h"
#include "seismo-varint.h"

#define INSTANCES "/sys/kernel/tracing/instances"

static const SeismoBackend *ftrace;

static gboolean
ready (void)
{
  g_autofree char *why = NULL;

  if (ftrace == NULL || !ftrace->available (&why))
    {
      g_autofree char *msg = g_strdup_printf ("ftrace cannot record here: %s",
                                              why ? why : "backend not built");

      g_test_skip (msg);
      return FALSE;
    }
  return TRUE;
}

/*
 * Whether the instance named entry is tracing with its pid filter in place. A new instance starts
 * with tracing on: the recorder turns it off, then sets events and set_event_pid, then turns it
 * on, so only both together say it is ready.
 */
static gboolean
tracing_with_pid_filter (const char *entry)
{
  g_autofree char *path = g_build_filename (INSTANCES, entry, "tracing_on", NULL);
  g_autofree char *pids_path = g_build_filename (INSTANCES, entry, "set_event_pid", NULL);
  g_autofree char *on = NULL;
  g_autofree char *pids = NULL;

  return g_file_get_contents (pids_path, &pids, NULL, NULL) && g_ascii_isdigit (pids[0]) &&
         g_file_get_contents (path, &on, NULL, NULL) && on[0] == '1';
}

/* Whether an instance of the process pid (seismo-<pid> or seismo-<pid>-<n>) exists that passes
 * (any, when passes is NULL). */
static gboolean
find_instance (pid_t pid,
               gboolean (*passes) (const char *entry))
{
  g_autoptr(GDir) dir = g_dir_open (INSTANCES, 0, NULL);
  g_autofree char *name = g_strdup_printf ("seismo-%d", (int) pid);
  g_autofree char *prefix = g_strdup_printf ("seismo-%d-", (int) pid);
  const char *entry;

  while (dir && (entry = g_dir_read_name (dir)))
    if ((g_str_equal (entry, name) || g_str_has_prefix (entry, prefix))
        && (passes == NULL || passes (entry)))
      return TRUE;
  return FALSE;
}

static gboolean
instance_of (pid_t pid)
{
  return find_instance (pid, NULL);
}

static gboolean
instance_tracing (pid_t pid)
{
  return find_instance (pid, tracing_with_pid_filter);
}

typedef struct {
  guint64 writes;     /* write(77, …) */
  guint64 getpids;
  guint64 other;
} Counts;

/* Counts the workload's syscalls from the model's syscall spans. */
static Counts
count_syscalls (SeismoTrace *trace)
{
  Counts c = { 0 };
  gsize n;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n);

  for (gsize i = 0; i < n; i++)
    {
      const char *name = seismo_trace_get_syscall_name (trace, spans[i].syscall);
      SeismoTaskId task = seismo_trace_get_tasks (trace)[spans[i].enter];
      const char *comm = seismo_trace_task_comm_at (trace, task,
                                                    seismo_trace_event_time (trace, spans[i].enter));
      SeismoValue v;

      if (g_strcmp0 (comm, "seismo-ftrace-w") != 0)
        continue;
      if (g_strcmp0 (name, "getpid") == 0 || g_strcmp0 (name, "write") == 0)
        g_assert_cmpuint (spans[i].exit, !=, SEISMO_NO_EVENT);
      if (g_strcmp0 (name, "getpid") == 0)
        c.getpids++;
      else if (g_strcmp0 (name, "write") == 0)
        {
          guint64 fd = 0;

          /* raw_syscalls: args[0]; syscalls:sys_enter_write: fd. */
          if (seismo_trace_event_field_by_name (trace, spans[i].enter, "args", &v))
            g_assert_nonnull (seismo_varint_get (v.data, v.data + v.len, &fd));
          else if (seismo_trace_event_field_by_name (trace, spans[i].enter, "fd", &v))
            fd = v.type == SEISMO_FIELD_INT ? (guint64) v.i : v.u;
          if (fd == 77)
            c.writes++;
        }
      else
        c.other++;
    }
  return c;
}

static SeismoTrace *
record (SeismoRecordOptions *options,
        SeismoRecordControl *ctl,
        GError             **error)
{
  SeismoTraceBuilder *builder = seismo_trace_builder_new ();

  if (!seismo_recorder_record (ftrace, options, builder, ctl, error))
    {
      seismo_trace_builder_free (builder);
      return NULL;
    }
  return seismo_trace_builder_finish (builder);
}

static void
test_list_events (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) events = NULL;
  gboolean saw_switch = FALSE, saw_enter = FALSE;

  if (!ready ())
    return;
  events = ftrace->list_events (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (events->len, >, 10);
  for (guint i = 0; i < events->len; i++)
    {
      const char *line = g_ptr_array_index (events, i);

      saw_switch |= g_str_has_prefix (line, "sched:sched_switch  prev_comm:string prev_pid:int");
      saw_enter |= g_str_equal (line, "raw_syscalls:sys_enter  id:uint(syscall) args:uint[](hex)");
    }
  g_assert_true (saw_switch);
  g_assert_true (saw_enter);
}

static void
test_resolve (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tps = NULL;
  const char *const one[] = { "sched:sched_switch", "sched/sched_switch", NULL };
  const char *const glob[] = { "irq:irq_handler_*", NULL };
  const char *const bad[] = { "sched:sched_switch", "nosuchsystem:*", NULL };

  if (!ready ())
    return;
  tps = seismo_ftrace_resolve_events (one, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tps->len, ==, 1);
  g_clear_pointer (&tps, g_ptr_array_unref);

  tps = seismo_ftrace_resolve_events (glob, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tps->len, ==, 2);
  g_clear_pointer (&tps, g_ptr_array_unref);

  tps = seismo_ftrace_resolve_events (bad, &error);
  g_assert_null (tps);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
  g_assert_nonnull (strstr (error->message, "nosuchsystem:*"));
}

static void
run_command_test (char **events,
                  guint  writes,
                  guint  getpids)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autofree char *w = g_strdup_printf ("%u", writes);
  g_autofree char *g = g_strdup_printf ("%u", getpids);
  char *argv[] = { (char *) SEISMO_FTRACE_WORKLOAD, "--writes", w, "--getpids", g, NULL };
  SeismoRecordOptions options = { .events = events, .argv = argv, .kill_on_stop = TRUE };
  SeismoRecordControl ctl = { 0 };
  Counts c;

  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ctl.exit_status, ==, 0);
  g_assert_false (instance_of (getpid ()));

  c = count_syscalls (trace);
  g_test_message ("%u writes, %u getpids: model has %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
                  " (%" G_GUINT64_FORMAT " other syscalls), %" G_GUINT64_FORMAT " lost",
                  writes, getpids, c.writes, c.getpids, c.other,
                  seismo_trace_get_n_lost_events (trace));
  g_assert_cmpuint (seismo_trace_get_n_lost_events (trace), ==, 0);
  g_assert_cmpuint (c.writes, ==, writes);
  g_assert_cmpuint (c.getpids, ==, getpids);
  g_assert_cmpuint (ctl.events, ==, seismo_trace_get_n_events (trace));
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_SOURCE), ==, "ftrace");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_CLOCK), ==, "mono");
}

static void
test_command_raw_syscalls (void)
{
  char *events[] = { "raw_syscalls:*", "sched:*", NULL };

  if (!ready ())
    return;
  run_command_test (events, 2000, 1500);
}

static void
test_command_syscall_events (void)
{
  char *events[] = { "syscalls:sys_enter_write", "syscalls:sys_exit_write",
                     "syscalls:sys_enter_getpid", "syscalls:sys_exit_getpid",
                     "sched:sched_process_exec", NULL };

  if (!ready ())
    return;
  run_command_test (events, 700, 300);
}

static void
test_command_default_events (void)
{
  if (!ready ())
    return;
  run_command_test (NULL, 100, 100);
}

/*
 * A one-page buffer cannot keep up with 100000 writes (200000 records): the kernel overwrites, and
 * every record must be either in the model or counted as lost, on the CPU it was lost on, at a time
 * within the recording.
 */
static void
test_command_lost (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  char *argv[] = { (char *) SEISMO_FTRACE_WORKLOAD, "--writes", "100000", NULL };
  char *events[] = { "raw_syscalls:*", NULL };
  SeismoRecordOptions options = { .events = events, .argv = argv, .buffer_kb = 4 };
  SeismoRecordControl ctl = { 0 };
  const SeismoLostEvents *lost;
  guint n_lost;
  guint64 sum = 0, start = G_MAXUINT64, end = 0;
  guint64 n_events;
  gint64 t0 = g_get_monotonic_time ();

  if (!ready ())
    return;
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ctl.exit_status, ==, 0);
  g_assert_false (instance_of (getpid ()));

  n_events = seismo_trace_get_n_events (trace);
  g_assert_cmpuint (n_events, >, 0);
  start = seismo_trace_event_time (trace, 0);
  end = seismo_trace_event_time (trace, n_events - 1);
  lost = seismo_trace_get_lost_events (trace, &n_lost);
  for (guint i = 0; i < n_lost; i++)
    {
      g_assert_cmpint (lost[i].cpu, >=, 0);
      g_assert_cmpint (lost[i].cpu, <, (gint) seismo_trace_get_n_cpus (trace));
      g_assert_cmpuint (lost[i].count, >, 0);
      /* No later than the end of the recording (the kernel's final counts are dated then). */
      g_assert_cmpuint (lost[i].time_ns, >=, start);
      g_assert_cmpuint (lost[i].time_ns, <=, end + (g_get_monotonic_time () - t0) * 1000);
      sum += lost[i].count;
    }
  g_test_message ("%" G_GUINT64_FORMAT " events recorded, %" G_GUINT64_FORMAT " lost in %u "
                  "entries", n_events, sum, n_lost);
  g_assert_cmpuint (sum, ==, seismo_trace_get_n_lost_events (trace));
  g_assert_cmpuint (sum, ==, ctl.lost);
  g_assert_cmpuint (sum, >, 0);
  /* 100000 writes are 200000 records, plus the process's start and exit. */
  g_assert_cmpuint (n_events + sum, >=, 200000);
  g_assert_cmpuint (n_events + sum, <, 200000 + 1000);
}

static void
test_command_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  char *argv[] = { "/nonexistent/seismo-no-such-program", NULL };
  SeismoRecordOptions options = { .argv = argv };
  SeismoRecordControl ctl = { 0 };

  if (!ready ())
    return;
  trace = record (&options, &ctl, &error);
  g_assert_null (trace);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "seismo-no-such-program"));
  g_assert_false (instance_of (getpid ()));
}

typedef struct {
  SeismoRecordOptions  options;
  SeismoRecordControl  ctl;
  SeismoTrace         *trace;
  GError              *error;
} Job;

static gpointer
record_thread (gpointer data)
{
  Job *job = data;

  job->trace = record (&job->options, &job->ctl, &job->error);
  return NULL;
}

static gboolean
wait_for (gboolean (*cond) (pid_t),
          pid_t      pid,
          gboolean   want,
          guint      ms)
{
  for (guint i = 0; i < ms / 10; i++)
    {
      if (cond (pid) == want)
        return TRUE;
      g_usleep (10000);
    }
  return cond (pid) == want;
}

static void
test_attach_pid (void)
{
  g_autoptr(GError) error = NULL;
  /* --exec: a child (fork, then exec of /bin/true) that --children must follow. */
  char *argv[] = { (char *) SEISMO_FTRACE_WORKLOAD, "--wait-stdin", "--writes", "1234",
                   "--getpids", "321", "--exec", NULL };
  char *events[] = { "raw_syscalls:*", "sched:sched_process_exec", NULL };
  GPid pid;
  int in_fd, status;
  Job job = { .options = { .events = events, .children = TRUE } };
  GThread *thread;
  Counts c;

  if (!ready ())
    return;
  g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                            &in_fd, NULL, NULL, &error);
  g_assert_no_error (error);
  job.options.pid = pid;
  thread = g_thread_new ("record", record_thread, &job);

  /* Release the workload once the recorder's instance is there and tracing. */
  g_assert_true (wait_for (instance_tracing, getpid (), TRUE, 60000));
  g_assert_cmpint (write (in_fd, "g", 1), ==, 1);
  close (in_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  /* The recorder stops by itself once the process is gone. */
  g_thread_join (thread);
  g_assert_no_error (job.error);
  g_assert_false (instance_of (getpid ()));
  c = count_syscalls (job.trace);
  g_assert_cmpuint (c.writes, ==, 1234);
  g_assert_cmpuint (c.getpids, ==, 321);
  g_assert_cmpuint (seismo_trace_get_n_lost_events (job.trace), ==, 0);
  /* The child forked after recording began: its syscalls are there, under its own tid. */
  {
    const SeismoEventType *exec = seismo_trace_find_event_type (job.trace,
                                                                "sched:sched_process_exec");
    gboolean child_seen = FALSE;

    g_assert_nonnull (exec);
    for (gsize i = 0; i < seismo_trace_get_n_events (job.trace) && !child_seen; i++)
      {
        const SeismoTask *task = seismo_trace_event_task (job.trace, i);

        child_seen = task->tid != pid &&
                     g_str_equal (seismo_trace_get_string (job.trace, task->comm), "true") &&
                     seismo_trace_event_type (job.trace, i) == exec;
      }
    g_assert_true (child_seen);
  }
  g_clear_object (&job.trace);
}

static void
test_system_wide_duration (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  char *events[] = { "sched:sched_switch", "sched:sched_wakeup", NULL };
  SeismoRecordOptions options = { .events = events, .system_wide = TRUE, .duration_s = 0.3 };
  SeismoRecordControl ctl = { 0 };
  gint64 start = g_get_monotonic_time ();

  if (!ready ())
    return;
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 300000);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), >, 0);
  g_assert_nonnull (seismo_trace_find_event_type (trace, "sched:sched_switch"));
  g_assert_false (instance_of (getpid ()));
}

/*
 * Fields the kernel prints as functions (%ps) are recorded as the functions' names, looked up in
 * /proc/kallsyms; where the kernel hides its addresses from us they stay addresses.
 */
static void
test_kernel_functions (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *kallsyms = NULL;
  g_auto(GStrv) lines = NULL;
  char *events[] = { "timer:hrtimer_expire_entry", NULL };
  SeismoRecordOptions options = { .events = events, .system_wide = TRUE, .duration_s = 0.5 };
  SeismoRecordControl ctl = { 0 };
  const SeismoEventType *type;
  gboolean visible = FALSE;
  int idx;
  gsize n = 0;

  if (!ready ())
    return;
  g_assert_true (g_file_get_contents ("/proc/kallsyms", &kallsyms, NULL, NULL));
  lines = g_strsplit (kallsyms, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit_set (lines[i], " \t", 4);

      if (g_strv_length (parts) >= 3)
        {
          visible |= g_ascii_strtoull (parts[0], NULL, 16) != 0;
          g_hash_table_add (names, g_strdup (parts[2]));
        }
    }

  /* Hrtimers expire all the time (the tick, sleeps): half a second has some. */
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  type = seismo_trace_find_event_type (trace, "timer:hrtimer_expire_entry");
  g_assert_nonnull (type);
  idx = seismo_event_type_find_field (type, "function");
  g_assert_cmpint (idx, >=, 0);
  if (!visible)
    {
      g_test_message ("/proc/kallsyms hides addresses here: functions stay addresses");
      g_assert_cmpint (type->fields[idx].type, ==, SEISMO_FIELD_POINTER);
      return;
    }
  g_assert_cmpint (type->fields[idx].type, ==, SEISMO_FIELD_STRING);
  for (SeismoEventId e = 0; e < seismo_trace_get_n_events (trace); e++)
    {
      SeismoValue v;

      if (seismo_trace_event_type (trace, e) != type)
        continue;
      g_assert_true (seismo_trace_event_field (trace, e, idx, &v));
      if (!g_hash_table_contains (names, v.str))
        g_error ("event %u: function \"%s\" is not a kernel symbol", (guint) e, v.str);
      n++;
    }
  g_test_message ("%" G_GSIZE_FORMAT " hrtimer expiries, every function named", n);
  g_assert_cmpuint (n, >, 0);
}

static gboolean
process_gone (pid_t pid)
{
  return kill (pid, 0) < 0 && errno == ESRCH;
}

static void
own_group (gpointer data)
{
  setpgid (0, 0);
}

/* Processes a failing test leaves must not run on (nor hold its output open). */
static void
die_with_test (gpointer data)
{
  if (data != NULL)
    setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static gboolean
file_exists (const char *path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/*
 * Starts `seismo-cli record` on a workload that makes its 10 writes, says so through a file, then
 * sleeps; returns once those writes are made and the recorder's instance exists. The CLI leads its
 * own process group, so the whole of it can be killed (output not inherited: a left-over workload
 * must not hold the test's stdout).
 */
static GPid
start_cli (const char *out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *ready = g_strconcat (out, ".ready", NULL);
  const char *cli = g_getenv ("SEISMO_CLI");
  const char *argv[] = { cli, "record", "-b", "ftrace", "-e", "raw_syscalls:*", "-o", out, "--",
                         SEISMO_FTRACE_WORKLOAD, "--writes", "10", "--ready", ready,
                         "--sleep", "30", NULL };
  GPid pid;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_assert_nonnull (cli);
  g_unlink (ready);
  g_spawn_async (NULL, (char **) argv, NULL,
                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                 own_group, NULL, &pid, &error);
  g_assert_no_error (error);
  /* Generous: on a loaded machine starting the workload can take seconds. */
  while (!file_exists (ready) && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  g_assert_true (file_exists (ready));
  g_assert_true (instance_of (pid));
  return pid;
}

static void
test_cli_sigterm (void)
{
  g_autofree char *out = seismo_test_temp_path ("sigterm.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  GPid pid;
  int status;

  if (!ready ())
    return;
  pid = start_cli (out);
  kill (pid, SIGTERM);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  /* It left by its own exit (not killed by the signal), its instance destroyed. */
  g_assert_true (WIFEXITED (status));
  g_assert_false (instance_of (pid));
  kill (-pid, SIGKILL);

  /* Stopped cleanly: what was recorded is saved (the workload was killed on the way out). */
  trace = seismo_trace_open (out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_syscalls (trace).writes, ==, 10);
}

/* Writes to fd 77 by task tid, from the model's syscall spans. */
static guint64
count_writes_of (SeismoTrace *trace,
                 gint32       tid)
{
  gsize n;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n);
  guint64 writes = 0;

  for (gsize i = 0; i < n; i++)
    {
      SeismoTaskId task = seismo_trace_get_tasks (trace)[spans[i].enter];
      SeismoValue v;
      guint64 fd = 0;

      if (seismo_trace_get_task (trace, task)->tid != tid ||
          g_strcmp0 (seismo_trace_get_syscall_name (trace, spans[i].syscall), "write") != 0)
        continue;
      if (seismo_trace_event_field_by_name (trace, spans[i].enter, "args", &v))
        g_assert_nonnull (seismo_varint_get (v.data, v.data + v.len, &fd));
      if (fd == 77)
        writes++;
    }
  return writes;
}

/* Writes of tid in the file a recorder streams to; 0 while it cannot be read yet. */
static guint64
streamed_writes (const char *partial,
                 gint32      tid)
{
  g_autoptr(SeismoTrace) trace = NULL;

  if (!file_exists (partial) ||
      !(trace = seismo_trace_open (partial, NULL, NULL, NULL, NULL)))
    return 0;
  return count_writes_of (trace, tid);
}

/*
 * A recorder killed with SIGKILL in the middle of a steady stream of syscalls: the file it streams
 * to must already hold what happened more than about a second before (it converts its backlog of
 * raw pages at least that often, not only when things calm down, which here they never do), and
 * its guard process removes the instance it could not.
 */
static void
test_cli_sigkill (void)
{
  g_autofree char *out = seismo_test_temp_path ("sigkill.seismo");
  g_autofree char *partial = g_strconcat (out, ".partial", NULL);
  g_autofree char *ready_file = g_strconcat (out, ".ready", NULL);
  g_autofree char *wpid = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  const char *cli = g_getenv ("SEISMO_CLI");
  /* ~40,000 writes a second at most: 200 records in each 1 ms pause's time, 80,000 records/s. */
  const char *wargv[] = { SEISMO_FTRACE_WORKLOAD, "--wait-stdin", "--writes", "100000000",
                          "--pace", "40", "--ready", ready_file, "--ready-after", "20000", NULL };
  const guint64 before_ready = 20000;
  GPid workload, pid;
  int workload_in, status;
  gint64 deadline;
  guint64 seen = 0, after_kill;

  if (!ready ())
    return;
  g_assert_nonnull (cli);
  g_unlink (ready_file);
  g_unlink (partial);
  g_spawn_async_with_pipes (NULL, (char **) wargv, NULL,
                            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                            G_SPAWN_STDERR_TO_DEV_NULL, die_with_test, NULL,
                            &workload, &workload_in, NULL, NULL, &error);
  g_assert_no_error (error);
  wpid = g_strdup_printf ("%d", (int) workload);
  {
    const char *argv[] = { cli, "record", "-b", "ftrace", "-e", "raw_syscalls:*", "-p", wpid,
                           "-o", out, NULL };

    g_spawn_async (NULL, (char **) argv, NULL,
                   G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                   G_SPAWN_STDERR_TO_DEV_NULL, die_with_test, GINT_TO_POINTER (1), &pid,
                   &error);
    g_assert_no_error (error);
  }
  g_assert_true (wait_for (instance_tracing, pid, TRUE, 60000));
  g_assert_cmpint (write (workload_in, "g", 1), ==, 1);

  /* Generous bounds: a loaded machine may run the workload and the recorder slowly. */
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!file_exists (ready_file) && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  g_assert_true (file_exists (ready_file));
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((seen = streamed_writes (partial, workload)) < before_ready &&
         g_get_monotonic_time () < deadline)
    g_usleep (200000);
  g_test_message ("%" G_GUINT64_FORMAT " writes streamed while the workload kept writing", seen);
  /* Still busy: the recorder had no calm moment to convert in. */
  g_assert_false (process_gone (workload));
  g_assert_cmpuint (seen, >=, before_ready);

  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  kill (workload, SIGKILL);
  g_assert_cmpint (waitpid (workload, &status, 0), ==, workload);
  close (workload_in);

  /* The guard removes the instance (it may wait for the dead recorder's descriptors to close). */
  g_assert_true (wait_for (instance_of, pid, FALSE, 20000));
  kill (-pid, SIGKILL);

  /* What the killed recorder had streamed stays readable, no less than seen before the kill. */
  trace = seismo_trace_open (partial, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (seismo_trace_get_metadata (trace, "load_warning"));
  after_kill = count_writes_of (trace, workload);
  g_test_message ("%" G_GUINT64_FORMAT " writes in the killed recorder's file", after_kill);
  g_assert_cmpuint (after_kill, >=, seen);
  g_assert_false (file_exists (out));
}

static void
test_stale_instance (void)
{
  g_autofree char *out = seismo_test_temp_path ("killed.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  char *events[] = { "sched:sched_switch", NULL };
  SeismoRecordOptions options = { .events = events, .system_wide = TRUE, .duration_s = 0.05 };
  SeismoRecordControl ctl = { 0 };
  GPid pid;
  int status;

  if (!ready ())
    return;
  pid = start_cli (out);
  /*
   * SIGKILL leaves no chance to clean up, and killing the whole process group takes the
   * instance's guard process with it: the instance stays behind...
   */
  kill (-pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (wait_for (process_gone, pid, TRUE, 2000));
  /* Unless a recorder running elsewhere on the machine got to it first. */
  if (!instance_of (pid))
    g_test_message ("another recorder already removed seismo-%d", (int) pid);

  /* ...until the next recording, which removes instances of dead recorders first. */
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_false (instance_of (pid));
  g_assert_false (instance_of (getpid ()));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  seismo_backends_init ();
  ftrace = seismo_backend_lookup ("ftrace");

  g_test_add_func ("/ftrace/list-events", test_list_events);
  g_test_add_func ("/ftrace/resolve-events", test_resolve);
  g_test_add_func ("/ftrace/command/raw-syscalls", test_command_raw_syscalls);
  g_test_add_func ("/ftrace/command/syscall-events", test_command_syscall_events);
  g_test_add_func ("/ftrace/command/default-events", test_command_default_events);
  g_test_add_func ("/ftrace/command/lost-events", test_command_lost);
  g_test_add_func ("/ftrace/command/missing", test_command_missing);
  g_test_add_func ("/ftrace/attach-pid", test_attach_pid);
  g_test_add_func ("/ftrace/system-wide-duration", test_system_wide_duration);
  g_test_add_func ("/ftrace/kernel-functions", test_kernel_functions);
  g_test_add_func ("/ftrace/cli-sigterm", test_cli_sigterm);
  g_test_add_func ("/ftrace/cli-sigkill", test_cli_sigkill);
  g_test_add_func ("/ftrace/stale-instance", test_stale_instance);
  return g_test_run ();
}

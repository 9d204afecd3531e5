/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test-ptrace"

/*
 * Real recordings with the ptrace backend of seismo-ptrace-child, whose syscalls are known: the
 * decoded arguments, errno names, process events, the syscall filter (with and without the
 * seccomp prefilter), attaching and detaching, and stopping.
 */

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <grp.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-recorder.h"
#include "seismo-error.h"
#include "seismo-syscalls.h"
#include "seismo-test-util.h"
#include "seismo-trace-builder.h"

/* Known to seismo-ptrace-child.c. */
#define SEQ_WRITES        3
#define SEQ_MISSING_PATH  "/nonexistent/seismo-ptrace-test"
#define SEQ_EXIT_CODE     3
#define REEXEC_MISSING_PATH "/nonexistent/seismo-after-exec"

static const SeismoBackend *backend;

static gboolean
can_trace (void)
{
  g_autofree char *why = NULL;

  if (backend == NULL)
    {
      g_test_skip ("the ptrace backend is not in this build");
      return FALSE;
    }
  if (!backend->available (&why))
    {
      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

static SeismoTrace *
record (const SeismoRecordOptions *options,
        SeismoRecordControl       *ctl,
        GError                   **error)
{
  SeismoTraceBuilder *builder = seismo_trace_builder_new ();

  if (!seismo_recorder_record (backend, options, builder, ctl, error))
    {
      seismo_trace_builder_free (builder);
      return NULL;
    }
  return seismo_trace_builder_finish (builder);
}

static SeismoTrace *
record_child (const char          *mode,
              const char          *arg,
              const char *const   *syscalls,
              gboolean             kill_on_stop,
              SeismoRecordControl *ctl)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) mode, (char *) arg, NULL };
  SeismoRecordOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;

  options.argv = argv;
  options.syscalls = (char **) syscalls;
  options.kill_on_stop = kill_on_stop;
  trace = record (&options, ctl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* Events of one type (and of one tid unless 0), in time order. */
static GArray *
find_events (SeismoTrace *trace,
             const char  *full_name,
             gint32       tid)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));
  gsize n = seismo_trace_get_n_events (trace);

  for (SeismoEventId e = 0; e < n; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, e);

      if (g_str_equal (type->full_name, full_name)
          && (tid == 0 || seismo_trace_event_task (trace, e)->tid == tid))
        g_array_append_val (found, e);
    }
  return found;
}

/* The exit event paired with an enter event by the data layer. */
static SeismoEventId
exit_of (SeismoTrace  *trace,
         SeismoEventId enter)
{
  gsize n;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n);

  for (gsize i = 0; i < n; i++)
    if (spans[i].enter == enter)
      return spans[i].exit;
  g_assert_not_reached ();
}

/* The pid of the process that exec'd into the child with this mode. */
static gint32
child_pid (SeismoTrace *trace,
           const char  *mode)
{
  g_autoptr(GArray) execs = find_events (trace, "sched:sched_process_exec", 0);
  g_autofree char *needle = g_strdup_printf ("\"%s\"", mode);

  for (guint i = 0; i < execs->len; i++)
    {
      SeismoEventId e = g_array_index (execs, SeismoEventId, i);

      if (strstr (seismo_test_field_str (trace, e, "argv"), needle))
        return (gint32) seismo_test_field_int (trace, e, "pid");
    }
  g_assert_not_reached ();
}

static void
test_sequence (void)
{
  SeismoRecordControl ctl = { 0 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) opens = NULL;
  g_autoptr(GArray) writes = NULL;
  g_autoptr(GArray) forks = NULL;
  g_autoptr(GArray) signals = NULL;
  g_autoptr(GArray) kills = NULL;
  gint32 pid, child = -1;
  SeismoEventId fork_event;
  gint64 null_fd = -1;
  gboolean saw_missing = FALSE, saw_usr1 = FALSE, child_exec = FALSE, child_exit = FALSE;
  gboolean main_exit = FALSE;

  if (!can_trace ())
    return;
  trace = record_child ("sequence", NULL, NULL, TRUE, &ctl);
  g_assert_true (WIFEXITED (ctl.exit_status));
  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, SEQ_EXIT_CODE);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_SOURCE), ==, "ptrace");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_CLOCK), ==, "mono");
  pid = child_pid (trace, "sequence");

  /* open("/dev/null") and the failing open of a known path. */
  opens = find_events (trace, "syscalls:sys_enter_openat", pid);
  for (guint i = 0; i < opens->len; i++)
    {
      SeismoEventId e = g_array_index (opens, SeismoEventId, i);
      const char *filename = seismo_test_field_str (trace, e, "filename");
      SeismoEventId x = exit_of (trace, e);

      g_assert_cmpuint (x, !=, SEISMO_NO_EVENT);
      if (g_str_equal (filename, "/dev/null"))
        null_fd = seismo_test_field_int (trace, x, "ret");
      if (g_str_equal (filename, SEQ_MISSING_PATH))
        {
          g_autofree char *text = seismo_trace_event_format (trace, x);

          g_assert_cmpint (seismo_test_field_int (trace, e, "dfd"), ==, -100);
          g_assert_cmpint (seismo_test_field_int (trace, e, "flags"), ==, 0);
          g_assert_cmpint (seismo_test_field_int (trace, x, "ret"), ==, -ENOENT);
          g_assert_cmpstr (seismo_errno_name ((int) -seismo_test_field_int (trace, x, "ret")), ==,
                           "ENOENT");
          g_assert_nonnull (strstr (text, "ENOENT"));
          saw_missing = TRUE;
        }
    }
  g_assert_true (saw_missing);
  g_assert_cmpint (null_fd, >=, 0);

  /* The writes, their data (escaped as strace does) and what they returned. */
  writes = find_events (trace, "syscalls:sys_enter_write", pid);
  g_assert_cmpuint (writes->len, ==, SEQ_WRITES + 1);
  for (guint i = 0; i < writes->len; i++)
    {
      SeismoEventId e = g_array_index (writes, SeismoEventId, i);
      g_autofree char *want = i < SEQ_WRITES ? g_strdup_printf ("seismo-%u\\n", i)
                                             : g_strnfill (32, 'x');
      gint64 count = i < SEQ_WRITES ? 9 : 100;

      if (i == SEQ_WRITES)
        {
          char *cut = g_strconcat (want, SEISMO_FIELD_FLAG_TRUNCATED_MARKER, NULL);

          g_free (want);
          want = cut;
        }
      g_assert_cmpint (seismo_test_field_int (trace, e, "fd"), ==, null_fd);
      g_assert_cmpstr (seismo_test_field_str (trace, e, "buf"), ==, want);
      g_assert_cmpint (seismo_test_field_int (trace, e, "count"), ==, count);
      g_assert_cmpint (seismo_test_field_int (trace, exit_of (trace, e), "ret"), ==, count);
    }

  /* The fork, its child's exec of true, the child's exit. */
  forks = find_events (trace, "sched:sched_process_fork", pid);
  g_assert_cmpuint (forks->len, ==, 1);
  fork_event = g_array_index (forks, SeismoEventId, 0);
  child = (gint32) seismo_test_field_int (trace, fork_event, "child_pid");
  g_assert_cmpint (seismo_test_field_int (trace, fork_event, "parent_pid"), ==, pid);
  {
    g_autoptr(GArray) execs = find_events (trace, "sched:sched_process_exec", child);
    g_autoptr(GArray) exits = find_events (trace, "sched:sched_process_exit", child);
    g_autoptr(GArray) enters = find_events (trace, "syscalls:sys_enter_execve", child);
    const SeismoTask *task = seismo_trace_event_task (trace,
                                                      g_array_index (enters, SeismoEventId, 0));

    g_assert_cmpuint (execs->len, ==, 1);
    g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (execs, SeismoEventId, 0),
                                            "filename"), ==, "/bin/true");
    g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (execs, SeismoEventId, 0), "argv"),
                     ==, "[\"true\"]");
    child_exec = TRUE;
    g_assert_cmpuint (exits->len, ==, 1);
    g_assert_cmpint (seismo_test_field_int (trace, g_array_index (exits, SeismoEventId, 0),
                                            "exit_code"), ==, 0);
    child_exit = TRUE;
    g_assert_cmpint (task->pid, ==, child);
    g_assert_cmpint (task->ppid, ==, pid);
    g_assert_cmpstr (seismo_trace_get_string (trace, task->comm), ==, "true");
  }
  g_assert_true (child_exec && child_exit);

  /* kill(getpid(), SIGUSR1), then its delivery. */
  kills = find_events (trace, "syscalls:sys_enter_kill", pid);
  g_assert_cmpuint (kills->len, ==, 1);
  g_assert_cmpint (seismo_test_field_int (trace, g_array_index (kills, SeismoEventId, 0), "pid"),
                   ==, pid);
  g_assert_cmpint (seismo_test_field_int (trace, g_array_index (kills, SeismoEventId, 0), "sig"),
                   ==, SIGUSR1);
  signals = find_events (trace, "signal:signal_deliver", pid);
  for (guint i = 0; i < signals->len; i++)
    saw_usr1 |= seismo_test_field_int (trace, g_array_index (signals, SeismoEventId, i),
                                       "sig") == SIGUSR1;
  g_assert_true (saw_usr1);

  {
    g_autoptr(GArray) exits = find_events (trace, "sched:sched_process_exit", pid);

    g_assert_cmpuint (exits->len, ==, 1);
    g_assert_cmpint (seismo_test_field_int (trace, g_array_index (exits, SeismoEventId, 0),
                                            "exit_code"), ==, SEQ_EXIT_CODE);
    main_exit = TRUE;
  }
  g_assert_true (main_exit);
}

/* The event's text as seismo-cli report prints it contains want. */
static void
assert_formatted (SeismoTrace  *trace,
                  SeismoEventId event,
                  const char   *want)
{
  g_autofree char *text = seismo_trace_event_format (trace, event);

  if (strstr (text, want) == NULL)
    g_error ("\"%s\" lacks \"%s\"", text, want);
}

/* The one event of a type in the child's process. */
static SeismoEventId
only_event (SeismoTrace *trace,
            const char  *full_name,
            gint32       pid)
{
  g_autoptr(GArray) found = find_events (trace, full_name, pid);

  g_assert_cmpuint (found->len, ==, 1);
  return g_array_index (found, SeismoEventId, 0);
}

/* Constants decoded by name (socket, fcntl, ioctl, mmap), and a path cut at 4096 bytes. */
static void
test_decode (void)
{
  SeismoRecordControl ctl = { 0 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) opens = NULL;
  g_autoptr(GArray) mmaps = NULL;
  gboolean saw_long = FALSE, saw_mmap = FALSE;
  gint32 pid;

  if (!can_trace ())
    return;
  trace = record_child ("decode", NULL, NULL, TRUE, &ctl);
  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 0);
  pid = child_pid (trace, "decode");

  assert_formatted (trace, only_event (trace, "syscalls:sys_enter_socket", pid),
                    "family=AF_INET type=SOCK_DGRAM|SOCK_CLOEXEC protocol=0");
  assert_formatted (trace, only_event (trace, "syscalls:sys_enter_fcntl", pid), "cmd=F_GETFL");
  assert_formatted (trace, only_event (trace, "syscalls:sys_enter_ioctl", pid), "cmd=FIONREAD");

  mmaps = find_events (trace, "syscalls:sys_enter_mmap", pid);
  for (guint i = 0; i < mmaps->len; i++)
    {
      SeismoEventId e = g_array_index (mmaps, SeismoEventId, i);
      g_autofree char *text = seismo_trace_event_format (trace, e);

      saw_mmap |= seismo_test_field_int (trace, e, "len") == 4096
                  && strstr (text, "prot=PROT_READ flags=MAP_PRIVATE|MAP_ANONYMOUS fd=-1") != NULL;
    }
  g_assert_true (saw_mmap);

  opens = find_events (trace, "syscalls:sys_enter_openat", pid);
  for (guint i = 0; i < opens->len; i++)
    {
      SeismoEventId e = g_array_index (opens, SeismoEventId, i);
      const char *filename = seismo_test_field_str (trace, e, "filename");

      if (!g_str_has_prefix (filename, "/aaaa"))
        continue;
      /* The first 4096 bytes, then the marker that says there was more. */
      g_assert_true (g_str_has_suffix (filename, SEISMO_FIELD_FLAG_TRUNCATED_MARKER));
      g_assert_cmpuint (strlen (filename), ==, 4096 + strlen (SEISMO_FIELD_FLAG_TRUNCATED_MARKER));
      g_assert_cmpint (seismo_test_field_int (trace, exit_of (trace, e), "ret"), ==, -ENAMETOOLONG);
      saw_long = TRUE;
    }
  g_assert_true (saw_long);
}

/*
 * Strings read from a process before and after it execs: the memory of the new image, not of
 * the old one (a tracer that caches anything per address space must drop it at the exec).
 */
static void
test_exec_memory (void)
{
  SeismoRecordControl ctl = { 0 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) writes = NULL;
  g_autoptr(GArray) opens = NULL;
  gboolean saw_missing = FALSE;
  gint32 pid;

  if (!can_trace ())
    return;
  trace = record_child ("reexec", NULL, NULL, TRUE, &ctl);
  g_assert_true (WIFEXITED (ctl.exit_status));
  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 0);
  pid = child_pid (trace, "reexec");
  g_assert_cmpint (child_pid (trace, "reexec-after"), ==, pid);

  writes = find_events (trace, "syscalls:sys_enter_write", pid);
  g_assert_cmpuint (writes->len, ==, 2);
  g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (writes, SeismoEventId, 0), "buf"),
                   ==, "before exec\\n");
  g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (writes, SeismoEventId, 1), "buf"),
                   ==, "after exec\\n");

  opens = find_events (trace, "syscalls:sys_enter_openat", pid);
  for (guint i = 0; i < opens->len; i++)
    {
      SeismoEventId e = g_array_index (opens, SeismoEventId, i);

      if (g_str_equal (seismo_test_field_str (trace, e, "filename"), REEXEC_MISSING_PATH))
        {
          g_assert_cmpint (seismo_test_field_int (trace, exit_of (trace, e), "ret"), ==, -ENOENT);
          saw_missing = TRUE;
        }
    }
  g_assert_true (saw_missing);
}

/*
 * Runs the i386 program untraced. A kernel without 32-bit emulation (IA32_EMULATION off, booted
 * with ia32_emulation=off, or a hypervisor that disables it) refuses to exec it with ENOEXEC:
 * then there is no i386 process to trace and the test is skipped, saying so.
 */
static gboolean
kernel_runs_i386 (void)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD32, NULL };
  pid_t pid;
  int err, status = -1;

  /* posix_spawn() reports exec's errno; GLib's spawn would retry the file as a shell script. */
  err = posix_spawn (&pid, SEISMO_PTRACE_CHILD32, NULL, NULL, argv, environ);
  if (err == ENOEXEC)
    {
      g_autofree char *why = g_strdup_printf ("this kernel runs no i386 programs, its 32-bit "
                                              "emulation is off (exec of %s: %s)",
                                              SEISMO_PTRACE_CHILD32, g_strerror (err));

      g_test_skip (why);
      return FALSE;
    }
  g_assert_cmpint (err, ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  /* It runs: then it must run as written, to exit_group (3). */
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  return TRUE;
}

/* An i386 program: compat syscall numbers and 32-bit registers. */
static void
test_i386 (void)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD32, NULL };
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) opens = NULL;
  g_autoptr(GArray) writes = NULL;
  SeismoEventId missing;

  if (!can_trace ())
    return;
  if (!*SEISMO_PTRACE_CHILD32)
    {
      g_test_skip ("the compiler cannot build i386 programs (-m32)");
      return;
    }
  options.argv = argv;
  options.kill_on_stop = TRUE;
  if (!kernel_runs_i386 ())
    {
      /* Then the recorder must say why it cannot run it. */
      g_assert_null (record (&options, &ctl, &error));
      g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, SEISMO_PTRACE_CHILD32));
      g_assert_nonnull (strstr (error->message, "32-bit emulation is off"));
      return;
    }
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 3);

  /* i386 has open(2) where x86_64 programs use openat(2). */
  opens = find_events (trace, "syscalls:sys_enter_open", 0);
  g_assert_cmpuint (opens->len, ==, 2);
  g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (opens, SeismoEventId, 0),
                                          "filename"), ==, "/dev/null");
  g_assert_cmpint (seismo_test_field_int (trace, g_array_index (opens, SeismoEventId, 0), "flags"),
                   ==, 1);
  missing = g_array_index (opens, SeismoEventId, 1);
  g_assert_cmpstr (seismo_test_field_str (trace, missing, "filename"), ==,
                   "/nonexistent/seismo-i386");
  g_assert_cmpint (seismo_test_field_int (trace, exit_of (trace, missing), "ret"), ==, -ENOENT);
  writes = find_events (trace, "syscalls:sys_enter_write", 0);
  g_assert_cmpuint (writes->len, ==, 1);
  g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (writes, SeismoEventId, 0), "buf"),
                   ==, "i386\\n");
  g_assert_cmpint (seismo_test_field_int (trace, g_array_index (writes, SeismoEventId, 0), "count"),
                   ==, 5);
}

/* -e openat,%process: with the prefilter (killed on stop) or filtering in the tracer. */
static void
check_filtered (gboolean prefilter)
{
  static const char *const filter[] = { "openat", "%process", NULL };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(SeismoTrace) trace = record_child ("sequence", NULL, filter, prefilter, &ctl);
  gint32 pid = child_pid (trace, "sequence");
  g_autoptr(GArray) writes = find_events (trace, "syscalls:sys_enter_write", 0);
  g_autoptr(GArray) opens = find_events (trace, "syscalls:sys_enter_openat", pid);
  g_autoptr(GArray) forks = find_events (trace, "sched:sched_process_fork", pid);
  g_autoptr(GArray) kills = find_events (trace, "syscalls:sys_enter_kill", pid);
  g_autoptr(GArray) closes = find_events (trace, "syscalls:sys_enter_close", 0);

  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, SEQ_EXIT_CODE);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, "seccomp_prefilter"), ==,
                   prefilter ? "yes" : "no");
  g_assert_cmpuint (writes->len, ==, 0);
  g_assert_cmpuint (closes->len, ==, 0);
  g_assert_cmpuint (opens->len, >=, 2);
  g_assert_cmpuint (forks->len, ==, 1);
  g_assert_cmpuint (kills->len, ==, 1);
}

static void
test_filter (gconstpointer prefilter)
{
  if (can_trace ())
    check_filtered (GPOINTER_TO_INT (prefilter));
}

/* With the prefilter, syscalls left out do not stop the tracee at all. */
static void
test_filter_no_stops (void)
{
  static const char *const no_write[] = { "!write", NULL };
  static const char *const only_openat[] = { "openat", NULL };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(SeismoTrace) filtered = NULL;
  g_autoptr(SeismoTrace) negated = NULL;
  g_autoptr(SeismoTrace) unfiltered = NULL;

  if (!can_trace ())
    return;
  filtered = record_child ("writes", "20000", only_openat, TRUE, &ctl);
  g_assert_cmpuint (seismo_test_metadata_u64 (filtered, "ptrace_stops"), <, 200);
  negated = record_child ("writes", "20000", no_write, TRUE, &ctl);
  g_assert_cmpuint (seismo_test_metadata_u64 (negated, "ptrace_stops"), <, 1000);
  {
    g_autoptr(GArray) writes = find_events (negated, "syscalls:sys_enter_write", 0);
    g_autoptr(GArray) opens = find_events (negated, "syscalls:sys_enter_openat", 0);

    g_assert_cmpuint (writes->len, ==, 0);
    g_assert_cmpuint (opens->len, >, 0);
  }
  unfiltered = record_child ("writes", "20000", NULL, TRUE, &ctl);
  g_assert_cmpuint (seismo_test_metadata_u64 (unfiltered, "ptrace_stops"), >=, 40000);
  {
    g_autoptr(GArray) writes = find_events (unfiltered, "syscalls:sys_enter_write", 0);

    g_assert_cmpuint (writes->len, ==, 20000);
  }
}

static void
test_bad_options (void)
{
  static const char *const unknown[] = { "openat", "nosuchsyscall", NULL };
  static const char *const bad_class[] = { "%nosuchclass", NULL };
  char *missing[] = { (char *) "/nonexistent/seismo-command", NULL };
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;

  if (!can_trace ())
    return;
  options.argv = missing;
  trace = record (&options, &ctl, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "/nonexistent/seismo-command"));
  g_clear_error (&error);

  {
    char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sequence", NULL };

    options.argv = argv;
    options.syscalls = (char **) unknown;
    trace = record (&options, &ctl, &error);
    g_assert_null (trace);
    g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
    g_assert_nonnull (strstr (error->message, "nosuchsyscall"));
    g_clear_error (&error);

    options.syscalls = (char **) bad_class;
    trace = record (&options, &ctl, &error);
    g_assert_null (trace);
    g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
    g_clear_error (&error);
  }

  /* A file that is executable but no program: exec's reason, naming the file. */
  {
    g_autofree char *dir = g_dir_make_tmp ("seismo-test-ptrace-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "not-a-program", NULL);
    char *argv[] = { path, NULL };

    g_assert_true (g_file_set_contents (path, "\001\002 no program\n", -1, NULL));
    g_assert_cmpint (g_chmod (path, 0755), ==, 0);
    options.argv = argv;
    options.syscalls = NULL;
    trace = record (&options, &ctl, &error);
    g_assert_null (trace);
    g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, path));
    g_assert_nonnull (strstr (error->message, g_strerror (ENOEXEC)));
    g_clear_error (&error);
    g_unlink (path);
    g_rmdir (dir);
  }

  /* Both a command and a pid. */
  {
    char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sequence", NULL };

    options.syscalls = NULL;
    options.argv = argv;
    options.pid = getpid ();
    trace = record (&options, &ctl, &error);
    g_assert_null (trace);
    g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
  }
}

static void
test_threads (void)
{
  SeismoRecordControl ctl = { 0 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) forks = NULL;
  gint32 pid;

  if (!can_trace ())
    return;
  trace = record_child ("threads", NULL, NULL, TRUE, &ctl);
  pid = child_pid (trace, "threads");
  forks = find_events (trace, "sched:sched_process_fork", pid);
  g_assert_cmpuint (forks->len, ==, 2);
  for (guint i = 0; i < forks->len; i++)
    {
      gint32 tid = (gint32) seismo_test_field_int (trace, g_array_index (forks, SeismoEventId, i),
                                                   "child_pid");
      g_autoptr(GArray) writes = find_events (trace, "syscalls:sys_enter_write", tid);
      g_autoptr(GArray) exits = find_events (trace, "sched:sched_process_exit", tid);
      const SeismoTask *task = seismo_trace_event_task (trace,
                                                        g_array_index (writes, SeismoEventId, 0));

      g_assert_cmpint (tid, !=, pid);
      g_assert_cmpuint (writes->len, ==, 5);
      g_assert_cmpuint (exits->len, ==, 1);
      /* A thread of the process, not a process of its own. */
      g_assert_cmpint (task->pid, ==, pid);
    }
}

/* "State:" and "TracerPid:" of /proc/PID/status. */
static void
proc_status (GPid    pid,
             char   *state,
             gint64 *tracer)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *text = NULL;
  const char *p;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull ((p = strstr (text, "\nState:")));
  *state = *(p + strspn (p + 7, " \t") + 7);
  g_assert_nonnull ((p = strstr (text, "\nTracerPid:")));
  *tracer = g_ascii_strtoll (p + strlen ("\nTracerPid:"), NULL, 10);
}

/*
 * TRUE when the sleeper writes want more heartbeat bytes, after what it wrote before this call.
 * Waits up to 10 s: a loaded machine may run it late, but a stopped sleeper never writes.
 */
static gboolean
heartbeats (int   fd,
            gsize want)
{
  char buf[256];
  gsize total = 0;
  gint64 end;
  GPollFD pfd = { fd, G_IO_IN, 0 };

  /* What is in the pipe was written earlier (maybe while traced): not proof of running now. */
  while (g_poll (&pfd, 1, 0) > 0 && read (fd, buf, sizeof buf) > 0)
    ;
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (total < want && g_get_monotonic_time () < end)
    {
      gssize n;

      if (g_poll (&pfd, 1, 20) <= 0)
        continue;
      if ((n = read (fd, buf, sizeof buf)) <= 0)
        break;
      total += (gsize) n;
    }
  return total >= want;
}

static GPid
spawn_sleeper (int *err_fd)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sleeper", NULL };
  g_autoptr(GError) error = NULL;
  GPid pid;
  char buf[8];

  g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &pid, NULL, NULL, err_fd, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (*err_fd, buf, 6), ==, 6);
  return pid;
}

static void
stop_sleeper (GPid pid)
{
  int status;

  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
}

static void
test_attach_detach (void)
{
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) writes = NULL;
  int err_fd;
  GPid pid;
  char state;
  gint64 tracer;

  if (!can_trace ())
    return;
  pid = spawn_sleeper (&err_fd);
  options.pid = pid;
  options.duration_s = 1.0;
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ctl.exit_status, ==, -1);
  writes = find_events (trace, "syscalls:sys_enter_write", pid);
  g_assert_cmpuint (writes->len, >=, 1);
  g_assert_cmpstr (seismo_test_field_str (trace, g_array_index (writes, SeismoEventId, 0), "buf"),
                   ==, ".");
  g_assert_cmpint (g_ascii_strtoll (seismo_trace_get_metadata (trace, "attached_pid"), NULL, 10),
                   ==, pid);

  /* Detached: no tracer, not stopped, still beating. */
  proc_status (pid, &state, &tracer);
  g_assert_cmpint (tracer, ==, 0);
  g_assert_true (state == 'S' || state == 'R');
  g_assert_true (heartbeats (err_fd, 6));
  proc_status (pid, &state, &tracer);
  g_assert_cmpint (tracer, ==, 0);
  g_assert_true (state == 'S' || state == 'R');
  stop_sleeper (pid);
  close (err_fd);
}

/* Attaching seizes every thread of the process; detaching lets them all go. */
static void
test_attach_threads (void)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "thread-sleeper", NULL };
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) writes = NULL;
  g_autoptr(GHashTable) writers = g_hash_table_new (NULL, NULL);
  g_autoptr(GDir) tasks = NULL;
  g_autofree char *task_dir = NULL;
  const char *name;
  int err_fd;
  GPid pid;
  char buf[8];

  if (!can_trace ())
    return;
  g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &pid, NULL, NULL, &err_fd, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (err_fd, buf, 6), ==, 6);
  options.pid = pid;
  options.duration_s = 1.0;
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);

  writes = find_events (trace, "syscalls:sys_enter_write", 0);
  for (guint i = 0; i < writes->len; i++)
    {
      const SeismoTask *task = seismo_trace_event_task (trace,
                                                        g_array_index (writes, SeismoEventId, i));

      g_assert_cmpint (task->pid, ==, pid);
      g_hash_table_add (writers, GINT_TO_POINTER (task->tid));
    }
  /* Both threads were seen writing. */
  g_assert_cmpuint (g_hash_table_size (writers), ==, 2);

  /* And both run on, untraced. */
  task_dir = g_strdup_printf ("/proc/%d/task", pid);
  tasks = g_dir_open (task_dir, 0, NULL);
  g_assert_nonnull (tasks);
  while ((name = g_dir_read_name (tasks)))
    {
      char state;
      gint64 tracer;

      proc_status (atoi (name), &state, &tracer);
      g_assert_cmpint (tracer, ==, 0);
      g_assert_true (state == 'S' || state == 'R');
    }
  g_assert_true (heartbeats (err_fd, 6));
  stop_sleeper (pid);
  close (err_fd);
}

/* --children: a shell's sleeper child is traced and detached too. */
static void
test_attach_children (void)
{
  g_autofree char *script = g_strdup_printf ("%s sleeper; true", SEISMO_PTRACE_CHILD);
  char *argv[] = { (char *) "/bin/sh", (char *) "-c", script, NULL };
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) writes = NULL;
  gint32 sleeper = -1;
  int err_fd, status;
  GPid shell;
  char buf[8], state;
  gint64 tracer;

  if (!can_trace ())
    return;
  g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &shell, NULL, NULL, &err_fd, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (err_fd, buf, 6), ==, 6);
  options.pid = shell;
  options.children = TRUE;
  options.duration_s = 1.0;
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);

  writes = find_events (trace, "syscalls:sys_enter_write", 0);
  g_assert_cmpuint (writes->len, >=, 1);
  sleeper = seismo_trace_event_task (trace, g_array_index (writes, SeismoEventId, 0))->tid;
  g_assert_cmpint (sleeper, !=, shell);
  {
    /* The shell itself is traced too: it sits in wait4. */
    g_autoptr(GArray) shell_waits = find_events (trace, "syscalls:sys_enter_wait4", shell);

    g_assert_cmpuint (shell_waits->len, ==, 1);
  }
  proc_status (sleeper, &state, &tracer);
  g_assert_cmpint (tracer, ==, 0);
  g_assert_true (state == 'S' || state == 'R');
  proc_status (shell, &state, &tracer);
  g_assert_cmpint (tracer, ==, 0);
  g_assert_true (heartbeats (err_fd, 4));
  kill (sleeper, SIGKILL);
  g_assert_cmpint (waitpid (shell, &status, 0), ==, shell);
  close (err_fd);
}

/* The sleeper, running as another user (nobody) than this root test. */
#define OTHER_UID 65534

static GPid
spawn_sleeper_as (uid_t  uid,
                  int   *err_fd)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sleeper", NULL };
  int fds[2];
  pid_t pid;
  char buf[8];

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      gid_t gid = (gid_t) uid;

      dup2 (fds[1], STDERR_FILENO);
      close (fds[0]);
      close (fds[1]);
      if (setgroups (1, &gid) != 0 || setresgid (gid, gid, gid) != 0
          || setresuid (uid, uid, uid) != 0)
        _exit (126);
      execv (argv[0], argv);
      _exit (127);
    }
  close (fds[1]);
  *err_fd = fds[0];
  g_assert_cmpint (read (*err_fd, buf, 6), ==, 6);
  return pid;
}

/*
 * Under pkexec (PKEXEC_UID set, running as root) the recorder acts for that user: it refuses to
 * attach to a process the user could not trace, attaches to the user's own, and runs a command
 * as the user, not as root.
 */
static void
test_pkexec_user (void)
{
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *uid_text = g_strdup_printf ("%d", OTHER_UID);
  SeismoTrace *trace;
  int err_fd;
  GPid pid;
  char state;
  gint64 tracer;

  if (!can_trace ())
    return;
  if (geteuid () != 0)
    {
      g_test_skip ("acting for another user (PKEXEC_UID) needs root");
      return;
    }

  /* root's process: refused, and left alone. */
  pid = spawn_sleeper (&err_fd);
  g_setenv ("PKEXEC_UID", uid_text, TRUE);
  options.pid = pid;
  options.duration_s = 1.0;
  trace = record (&options, &ctl, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_PERMISSION);
  g_assert_nonnull (strstr (error->message, "PKEXEC_UID"));
  g_clear_error (&error);
  proc_status (pid, &state, &tracer);
  g_assert_cmpint (tracer, ==, 0);
  stop_sleeper (pid);
  close (err_fd);

  /* The user's own process: traced, then detached. */
  pid = spawn_sleeper_as (OTHER_UID, &err_fd);
  options.pid = pid;
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GArray) writes = find_events (trace, "syscalls:sys_enter_write", pid);

    g_assert_cmpuint (writes->len, >=, 1);
  }
  g_clear_object (&trace);
  proc_status (pid, &state, &tracer);
  g_assert_cmpint (tracer, ==, 0);
  g_assert_true (heartbeats (err_fd, 4));
  stop_sleeper (pid);
  close (err_fd);

  /* A command runs as the user: its exit status says whether it was. */
  {
    g_autofree char *script = g_strdup_printf ("test \"$(id -u)\" = %d", OTHER_UID);
    char *argv[] = { (char *) "/bin/sh", (char *) "-c", script, NULL };
    SeismoRecordOptions launch = { .argv = argv, .kill_on_stop = TRUE };

    trace = record (&launch, &ctl, &error);
    g_assert_no_error (error);
    g_assert_true (WIFEXITED (ctl.exit_status));
    g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 0);
    g_clear_object (&trace);
  }
  g_unsetenv ("PKEXEC_UID");
}

/* Waits until tid has a tracer (or none, when traced is FALSE); FALSE after 10 s. */
static gboolean
wait_traced (GPid     tid,
             gboolean traced)
{
  for (guint i = 0; i < 1000; i++)
    {
      char state;
      gint64 tracer;

      proc_status (tid, &state, &tracer);
      if ((tracer != 0) == traced)
        return TRUE;
      g_usleep (10 * 1000);
    }
  return FALSE;
}

/* A recorder in a child process of its own, with no time limit: attached or launching. */
static GPid
fork_recorder (GPid attach_to)
{
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sleeper", NULL };
      SeismoRecordOptions options = { 0 };
      SeismoRecordControl ctl = { 0 };
      SeismoTraceBuilder *builder = seismo_trace_builder_new ();
      int null_fd = open ("/dev/null", O_WRONLY);

      dup2 (null_fd, STDERR_FILENO);
      if (attach_to > 0)
        options.pid = attach_to;
      else
        options.argv = argv;
      options.kill_on_stop = TRUE;
      seismo_recorder_record (backend, &options, builder, &ctl, NULL);
      _exit (0);
    }
  return pid;
}

/* The pid of the child of parent (the recorder's launched sleeper); waits up to 10 s. */
static GPid
child_of (GPid parent)
{
  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
      const char *name;

      while ((name = g_dir_read_name (dir)))
        {
          g_autofree char *path = g_strdup_printf ("/proc/%s/stat", name);
          g_autofree char *text = NULL;
          const char *close_paren;
          int ppid;

          if (!g_ascii_isdigit (*name) || !g_file_get_contents (path, &text, NULL, NULL)
              || !(close_paren = strrchr (text, ')')))
            continue;
          if (sscanf (close_paren + 2, "%*c %d", &ppid) == 1 && ppid == parent
              && strstr (text, "(seismo-ptrace-c"))
            return atoi (name);
        }
      g_usleep (10 * 1000);
    }
  g_assert_not_reached ();
}

/*
 * The tracer dying (SIGKILL: no chance to clean up) never leaves a tracee stopped: an attached
 * process runs on untraced, a launched one dies with it (PTRACE_O_EXITKILL).
 */
static void
test_tracer_dies (void)
{
  GPid sleeper, recorder;
  int err_fd, status;
  char state;
  gint64 tracer;

  if (!can_trace ())
    return;

  sleeper = spawn_sleeper (&err_fd);
  recorder = fork_recorder (sleeper);
  g_assert_true (wait_traced (sleeper, TRUE));
  /* Let it stop a few times, so the kill may well find it in a ptrace stop. */
  g_assert_true (heartbeats (err_fd, 1));
  kill (recorder, SIGKILL);
  g_assert_cmpint (waitpid (recorder, &status, 0), ==, recorder);
  g_assert_true (wait_traced (sleeper, FALSE));
  g_assert_true (heartbeats (err_fd, 6));
  proc_status (sleeper, &state, &tracer);
  g_assert_true (state == 'S' || state == 'R');
  stop_sleeper (sleeper);
  close (err_fd);

  recorder = fork_recorder (0);
  sleeper = child_of (recorder);
  g_assert_true (wait_traced (sleeper, TRUE));
  kill (recorder, SIGKILL);
  g_assert_cmpint (waitpid (recorder, &status, 0), ==, recorder);
  /* Killed with its tracer, then reaped by init: its /proc entry goes. */
  for (guint i = 0; i < 1000 && kill (sleeper, 0) == 0; i++)
    g_usleep (10 * 1000);
  g_assert_cmpint (kill (sleeper, 0), !=, 0);
}

typedef struct {
  SeismoRecordControl *ctl;
  gint64               set_at;
} StopLater;

static gpointer
stop_later (gpointer data)
{
  StopLater *s = data;

  g_usleep (300 * 1000);
  s->set_at = g_get_monotonic_time ();
  g_atomic_int_set (&s->ctl->stop, 1);
  return NULL;
}

/* The sleeper, launched, stopped from another thread: killed or left running untraced. */
static void
test_stop (gconstpointer kill_at_stop)
{
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sleeper", NULL };
  gboolean kill_on_stop = GPOINTER_TO_INT (kill_at_stop);
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  StopLater later = { &ctl, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  GThread *thread;
  gint64 returned;
  int saved_stderr, null_fd;

  if (!can_trace ())
    return;
  /* Its heartbeat is noise in the test log. */
  saved_stderr = dup (STDERR_FILENO);
  null_fd = g_open ("/dev/null", O_WRONLY, 0);
  dup2 (null_fd, STDERR_FILENO);
  options.argv = argv;
  options.kill_on_stop = kill_on_stop;
  thread = g_thread_new ("stop-later", stop_later, &later);
  trace = record (&options, &ctl, &error);
  returned = g_get_monotonic_time ();
  dup2 (saved_stderr, STDERR_FILENO);
  close (saved_stderr);
  close (null_fd);
  g_thread_join (thread);
  g_assert_no_error (error);

  /* Noticed soon: the watcher checks every 40 ms; the rest is slack for a loaded machine. */
  g_assert_cmpint (returned - later.set_at, <, 2 * G_USEC_PER_SEC);
  if (kill_on_stop)
    {
      g_assert_true (WIFSIGNALED (ctl.exit_status));
      g_assert_cmpint (WTERMSIG (ctl.exit_status), ==, SIGKILL);
    }
  else
    {
      gint32 pid = child_pid (trace, "sleeper");
      char state;
      gint64 tracer;

      g_assert_cmpint (ctl.exit_status, ==, -1);
      g_usleep (50 * 1000);
      proc_status (pid, &state, &tracer);
      g_assert_cmpint (tracer, ==, 0);
      g_assert_true (state == 'S' || state == 'R');
      stop_sleeper (pid);
    }
}

static void
test_duration (void)
{
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  gint64 start;
  int err_fd;
  GPid pid;

  if (!can_trace ())
    return;
  pid = spawn_sleeper (&err_fd);
  options.pid = pid;
  options.duration_s = 0.2;
  start = g_get_monotonic_time ();
  trace = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 200 * 1000);
  /* Not much longer either (slack for a loaded machine). */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  stop_sleeper (pid);
  close (err_fd);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  seismo_backends_init ();
  backend = seismo_backend_lookup ("ptrace");

  g_test_add_func ("/ptrace/sequence", test_sequence);
  g_test_add_data_func ("/ptrace/filter-prefilter", GINT_TO_POINTER (TRUE), test_filter);
  g_test_add_data_func ("/ptrace/filter-tracer", GINT_TO_POINTER (FALSE), test_filter);
  g_test_add_func ("/ptrace/filter-no-stops", test_filter_no_stops);
  g_test_add_func ("/ptrace/bad-options", test_bad_options);
  g_test_add_func ("/ptrace/threads", test_threads);
  g_test_add_func ("/ptrace/decode", test_decode);
  g_test_add_func ("/ptrace/exec-memory", test_exec_memory);
  g_test_add_func ("/ptrace/i386", test_i386);
  g_test_add_func ("/ptrace/attach-detach", test_attach_detach);
  g_test_add_func ("/ptrace/attach-threads", test_attach_threads);
  g_test_add_func ("/ptrace/attach-children", test_attach_children);
  g_test_add_func ("/ptrace/pkexec-user", test_pkexec_user);
  g_test_add_func ("/ptrace/tracer-dies", test_tracer_dies);
  g_test_add_data_func ("/ptrace/stop-kill", GINT_TO_POINTER (TRUE), test_stop);
  g_test_add_data_func ("/ptrace/stop-keep-running", GINT_TO_POINTER (FALSE), test_stop);
  g_test_add_func ("/ptrace/duration", test_duration);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SeismoRecorder with a backend made here: what the driver does for every backend (the order of
 * the ops, the command held until start() is done, its exit status, --duration, kill-on-stop,
 * --keep-running, refusals by capability) without any tracing facility, so without root.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "seismo-backend.h"
#include "seismo-error.h"
#include "seismo-recorder.h"

/* What the ops saw: the state dies with the recording, so they write here. */
static struct {
  GString  *calls;          /* "prepare start poll… stop finish free" */
  GPid      target;
  gboolean  had_command;
  gboolean  held_at_start;  /* the target had not run its command yet when start() ran */
  gboolean  fail_start;
} seen;

typedef struct {
  guint polls;
} FakeState;

static void
note (const char *call)
{
  /* Polls are many: one word for all of them. */
  if (g_str_equal (call, "poll") && g_str_has_suffix (seen.calls->str, "poll "))
    return;
  g_string_append_printf (seen.calls, "%s ", call);
}

static gboolean
fake_prepare (SeismoRecorder *recorder,
              gpointer        state,
              GError        **error)
{
  note ("prepare");
  /* No command exists yet. */
  g_assert_cmpint (seismo_recorder_get_target_pid (recorder), ==,
                   MAX (seismo_recorder_get_options (recorder)->pid, 0));
  return TRUE;
}

static gboolean
fake_start (SeismoRecorder *recorder,
            gpointer        state,
            GError        **error)
{
  note ("start");
  seen.target = seismo_recorder_get_target_pid (recorder);
  seen.had_command = seismo_recorder_has_command (recorder);
  if (seen.had_command)
    {
      /* Held before its exec: still a copy of this test program. */
      g_autofree char *exe = g_strdup_printf ("/proc/%d/exe", (int) seen.target);
      g_autofree char *target_exe = g_file_read_link (exe, NULL);
      g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);

      seen.held_at_start = target_exe != NULL && g_strcmp0 (target_exe, self_exe) == 0;
    }
  if (seen.fail_start)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, "start failed on purpose");
      return FALSE;
    }
  return TRUE;
}

static gboolean
fake_poll (SeismoRecorder *recorder,
           gpointer        state)
{
  FakeState *s = state;

  note ("poll");
  s->polls++;
  return TRUE;
}

static void
fake_stop (SeismoRecorder *recorder,
           gpointer        state)
{
  note ("stop");
}

static gboolean
fake_finish (SeismoRecorder *recorder,
             gpointer        state,
             GError        **error)
{
  note ("finish");
  return TRUE;
}

static void
fake_free (SeismoRecorder *recorder,
           gpointer        state)
{
  note ("free");
}

static gboolean
fake_available (char **why)
{
  return TRUE;
}

static const SeismoBackendOps fake_ops = {
  .state_size = sizeof (FakeState),
  .poll_us = 5000,
  .prepare = fake_prepare,
  .start = fake_start,
  .poll = fake_poll,
  .stop = fake_stop,
  .finish = fake_finish,
  .free = fake_free,
};

/* A command and a process, not the whole system. */
static const SeismoBackend fake_backend = {
  .name = "fake",
  .display_name = "Fake",
  .description = "a backend of the test",
  .caps = SEISMO_BACKEND_CAP_COMMAND | SEISMO_BACKEND_CAP_ATTACH,
  .available = fake_available,
  .ops = &fake_ops,
};

static SeismoTraceBuilder *
record (SeismoRecordOptions *options,
        SeismoRecordControl *ctl,
        GError             **error)
{
  SeismoTraceBuilder *builder = seismo_trace_builder_new ();

  g_string_truncate (seen.calls, 0);
  seen.target = 0;
  seen.had_command = seen.held_at_start = FALSE;
  ctl->exit_status = -1;
  if (!seismo_recorder_record (&fake_backend, options, builder, ctl, error))
    {
      seismo_trace_builder_free (builder);
      return NULL;
    }
  return builder;
}

static void
test_command_exit (void)
{
  char *argv[] = { "sh", "-c", "exit 3", NULL };
  SeismoRecordOptions options = { .argv = argv, .kill_on_stop = TRUE };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  SeismoTraceBuilder *builder;
  g_autoptr(SeismoTrace) trace = NULL;

  builder = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (builder);
  g_assert_cmpstr (seen.calls->str, ==, "prepare start poll stop finish free ");
  g_assert_true (seen.had_command);
  g_assert_cmpint (seen.target, >, 0);
  g_assert_true (seen.held_at_start);
  /* The command's own exit ended the recording, and its status is the recording's. */
  g_assert_true (WIFEXITED (ctl.exit_status));
  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 3);
  g_assert_cmpint (kill (seen.target, 0), ==, -1);

  trace = seismo_trace_builder_finish (builder);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_BACKEND), ==, "fake");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_SOURCE), ==, "fake");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_COMMAND), ==, "sh -c exit 3");
  g_assert_nonnull (seismo_trace_get_metadata (trace, SEISMO_META_KERNEL));
}

static void
test_duration_kills (void)
{
  char *argv[] = { "sleep", "30", NULL };
  SeismoRecordOptions options = { .argv = argv, .duration_s = 0.2, .kill_on_stop = TRUE };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  SeismoTraceBuilder *builder;

  builder = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (builder);
  seismo_trace_builder_free (builder);
  /* Stopped early: the command was ended, with SIGTERM, and reaped. */
  g_assert_true (WIFSIGNALED (ctl.exit_status));
  g_assert_cmpint (WTERMSIG (ctl.exit_status), ==, SIGTERM);
  g_assert_cmpint (kill (seen.target, 0), ==, -1);
}

static void
test_stop_keep_running (void)
{
  char *argv[] = { "sleep", "30", NULL };
  SeismoRecordOptions options = { .argv = argv, .kill_on_stop = FALSE };
  SeismoRecordControl ctl = { .stop = 0 };
  g_autoptr(GError) error = NULL;
  SeismoTraceBuilder *builder;
  int status;

  /* Stopped as soon as it runs: the flag is already set, so the command is never released. */
  ctl.stop = 1;
  builder = record (&options, &ctl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (builder);
  seismo_trace_builder_free (builder);
  g_assert_true (WIFEXITED (ctl.exit_status));
  g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 127);

  /* Stopped by the duration with --keep-running: the command runs on, ours to end. */
  ctl.stop = 0;
  options.duration_s = 0.1;
  builder = record (&options, &ctl, &error);
  g_assert_no_error (error);
  seismo_trace_builder_free (builder);
  g_assert_cmpint (ctl.exit_status, ==, -1);
  g_assert_cmpint (kill (seen.target, 0), ==, 0);
  kill (seen.target, SIGKILL);
  g_assert_cmpint (waitpid (seen.target, &status, 0), ==, seen.target);
}

static void
test_start_fails (void)
{
  g_autofree char *dir = g_dir_make_tmp ("seismo-recorder-XXXXXX", NULL);
  g_autofree char *mark = g_build_filename (dir, "ran", NULL);
  char *argv[] = { "touch", mark, NULL };
  SeismoRecordOptions options = { .argv = argv, .kill_on_stop = TRUE };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;

  seen.fail_start = TRUE;
  g_assert_null (record (&options, &ctl, &error));
  seen.fail_start = FALSE;
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED);
  /* Undone, and the held command dropped without running. */
  g_assert_cmpstr (seen.calls->str, ==, "prepare start stop free ");
  g_assert_false (g_file_test (mark, G_FILE_TEST_EXISTS));
  g_assert_cmpint (kill (seen.target, 0), ==, -1);
  g_rmdir (dir);
}

static void
test_refused_by_capability (void)
{
  char *argv[] = { "true", NULL };
  SeismoRecordOptions options = { .system_wide = TRUE };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  char *probes[] = { "kprobe:x", NULL };

  g_assert_null (record (&options, &ctl, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
  g_assert_nonnull (strstr (error->message, "The fake backend cannot record the whole system"));
  g_assert_cmpstr (seen.calls->str, ==, "");
  g_clear_error (&error);

  options = (SeismoRecordOptions) { .argv = argv, .probes = probes };
  g_assert_null (record (&options, &ctl, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
  g_assert_cmpstr (seen.calls->str, ==, "");
  g_clear_error (&error);

  options = (SeismoRecordOptions) { 0 };
  g_assert_null (record (&options, &ctl, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
}

static void
test_attach (void)
{
  SeismoRecordOptions options = { .duration_s = 0.05 };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  SeismoTraceBuilder *builder;
  GPid child = fork ();

  if (child == 0)
    {
      pause ();
      _exit (0);
    }
  options.pid = child;
  builder = record (&options, &ctl, &error);
  g_assert_no_error (error);
  seismo_trace_builder_free (builder);
  /* -p: the process is the target, nobody launched anything, and it is left alone. */
  g_assert_cmpint (seen.target, ==, child);
  g_assert_false (seen.had_command);
  g_assert_cmpint (ctl.exit_status, ==, -1);
  g_assert_cmpint (kill (child, 0), ==, 0);
  kill (child, SIGKILL);
  waitpid (child, NULL, 0);

  /* A process that is gone is refused before anything starts. */
  options.pid = child;
  g_assert_null (record (&options, &ctl, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (seen.calls->str, ==, "");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_unsetenv ("PKEXEC_UID");
  seen.calls = g_string_new (NULL);
  g_test_add_func ("/recorder/command-exit", test_command_exit);
  g_test_add_func ("/recorder/duration-kills", test_duration_kills);
  g_test_add_func ("/recorder/stop-keep-running", test_stop_keep_running);
  g_test_add_func ("/recorder/start-fails", test_start_fails);
  g_test_add_func ("/recorder/refused-by-capability", test_refused_by_capability);
  g_test_add_func ("/recorder/attach", test_attach);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Recording from the window through pkexec, the way it runs for a user who is not root, with
 * tests/app/fake-pkexec standing in for pkexec (no polkit daemon here) and the real seismo-cli
 * recording ptrace on a shell loop:
 *   - no pkexec installed: a dialog says why recording cannot start;
 *   - pkexec refuses (password dialog cancelled): its message in "The recording failed";
 *   - pkexec agrees: the recorder gets an absolute program path, --stop-on-stdin-close and the
 *     output path; the timeline follows the recording live; Stop works although the process
 *     the window started ignores its signal (closing the recorder's stdin stops it); the
 *     recorder checks that the user may write the output folder and, as root, gives the trace
 *     to PKEXEC_UID (here "nobody").
 * Usage: test-app-pkexec --fake-pkexec PATH --real-cli PATH (meson passes both).
 */

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"
#include "seismo-window-private.h"

static char *dir;
static char *fake_pkexec;
static char *real_cli;

static const char *const loop_args[] = {
  "record", "-b", "ptrace", "--", "sh", "-c",
  "while :; do cat /proc/self/stat > /dev/null; sleep 0.05; done", NULL
};

static void
set_path (const char *bin)
{
  g_setenv ("PATH", bin, TRUE);
}

/* A new window records the shell loop through the pkexec found on PATH = bin. */
static SeismoWindow *
record_in_new_window (SeismoApplication *app,
                      const char        *bin)
{
  SeismoWindow *window = seismo_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  set_path (bin);
  _seismo_window_start_recording_full (window, loop_args, TRUE);
  return window;
}

/* The window says why it did not record, and is back on its start page. */
static void
check_failure_dialog (SeismoWindow *window,
                      const char   *heading,
                      const char   *reason)
{
  AdwMessageDialog *dialog;

  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_has_dialog, window, 20000));
  dialog = seismo_app_test_find_dialog (GTK_WINDOW (window));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), reason));
  g_assert_null (seismo_window_get_trace (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "empty");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
check_no_pkexec (SeismoApplication *app,
                 const char        *empty_bin)
{
  SeismoWindow *window = record_in_new_window (app, empty_bin);

  g_assert_false (_seismo_window_is_recording (window));
  check_failure_dialog (window, "Cannot record", "pkexec");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
check_refused (SeismoApplication *app,
               const char        *fake_bin)
{
  SeismoWindow *window;

  g_setenv ("SEISMO_FAKE_PKEXEC_DENY", "1", TRUE);
  window = record_in_new_window (app, fake_bin);
  g_assert_true (_seismo_window_is_recording (window));
  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_recording_over, window, 60000));
  g_unsetenv ("SEISMO_FAKE_PKEXEC_DENY");
  check_failure_dialog (window, "The recording failed", "Not authorized");
  g_assert_false (g_file_test (window->record_path, G_FILE_TEST_EXISTS));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
check_recording (SeismoApplication *app,
                 const char        *fake_bin,
                 const char        *log,
                 const struct passwd *nobody)
{
  SeismoWindow *window = record_in_new_window (app, fake_bin);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *live = NULL;
  g_autofree char *partial = NULL;
  struct stat st;
  gsize live_events;
  guint n;

  g_assert_true (_seismo_window_is_recording (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "recording");

  /* Live, then Stop through stdin: the stand-in ignores the window's SIGINT. */
  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_recording_live, window, 60000));

  /* What the window asked pkexec to run (written before the recorder started). */
  g_assert_true (g_file_get_contents (log, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 12);
  g_assert_true (g_path_is_absolute (lines[1]));
  g_assert_cmpstr (lines[1], ==, real_cli);
  g_assert_cmpstr (lines[2], ==, "record");
  g_assert_true (g_strv_contains ((const char * const *) lines, "--stop-on-stdin-close"));
  for (guint i = 0; i + 1 < n; i++)
    if (g_str_equal (lines[i], "-o"))
      g_assert_cmpstr (lines[i + 1], ==, window->record_path);
  /* The launched command comes last, after "--". */
  g_assert_cmpstr (lines[n - 5], ==, "--");
  g_assert_cmpstr (lines[n - 4], ==, "sh");

  g_assert_true (seismo_app_test_wait_growth (window, 60000));
  live_events = seismo_trace_get_n_events (seismo_window_get_trace (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-recording", NULL);
  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_recording_over, window, 60000));
  g_assert_null (seismo_app_test_find_dialog (GTK_WINDOW (window)));
  g_assert_nonnull (seismo_window_get_trace (window));
  g_assert_cmpuint (seismo_trace_get_n_events (seismo_window_get_trace (window)), >=, live_events);
  g_assert_cmpstr (seismo_trace_get_metadata (seismo_window_get_trace (window), SEISMO_META_BACKEND),
                   ==, "ptrace");
  g_assert_true (window->unsaved);

  /* Committed, the side files gone, and the trace belongs to whom pkexec said asked for it. */
  live = g_strconcat (window->record_path, ".live", NULL);
  partial = g_strconcat (window->record_path, ".partial", NULL);
  g_assert_false (g_file_test (live, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (partial, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_stat (window->record_path, &st), ==, 0);
  if (nobody != NULL)
    g_assert_cmpuint (st.st_uid, ==, nobody->pw_uid);
  else
    g_assert_cmpuint (st.st_uid, ==, getuid ());
  g_unlink (window->record_path);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
run_checks (SeismoApplication *app)
{
  g_autofree char *empty_bin = g_build_filename (dir, "empty-bin", NULL);
  g_autofree char *fake_bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *link = g_build_filename (fake_bin, "pkexec", NULL);
  g_autofree char *log = g_build_filename (dir, "pkexec-args", NULL);
  g_autofree char *path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path_with_fake = NULL;
  const struct passwd *nobody = NULL;

  g_assert_cmpint (g_mkdir (empty_bin, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (fake_bin, 0755), ==, 0);
  g_assert_cmpint (symlink (fake_pkexec, link), ==, 0);
  /* The recorder's own `sh` and the like are found on a clean PATH; ours comes first. */
  path_with_fake = g_strconcat (fake_bin, ":", path, NULL);
  g_setenv ("SEISMO_RECORDER", real_cli, TRUE);
  g_setenv ("SEISMO_FAKE_PKEXEC_LOG", log, TRUE);
  if (geteuid () == 0 && (nobody = getpwnam ("nobody")) != NULL)
    {
      g_autofree char *uid = g_strdup_printf ("%u", (unsigned) nobody->pw_uid);
      g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "seismo", NULL);

      /* As root, pkexec on behalf of "nobody": the recorder refuses to write where that user
       * could not, so the output folder is theirs, reachable through ours. */
      g_setenv ("SEISMO_FAKE_PKEXEC_UID", uid, TRUE);
      g_assert_cmpint (g_chmod (dir, 0711), ==, 0);
      g_assert_cmpint (g_mkdir_with_parents (cache, 0700), ==, 0);
      g_assert_cmpint (g_chmod (g_get_user_cache_dir (), 0755), ==, 0);
      g_assert_cmpint (chown (cache, nobody->pw_uid, (gid_t) -1), ==, 0);
    }

  check_no_pkexec (app, empty_bin);
  check_refused (app, path_with_fake);
  check_recording (app, path_with_fake, log, nobody);
  set_path (path);
}

static void
test_pkexec (void)
{
  seismo_app_test_run (NULL, 0, run_checks);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cache = NULL;
  g_autofree char *data_home = NULL;
  int ret;

  /* Our two options out of the way of GTest's. */
  {
    int kept = 1;

    for (int i = 1; i < argc; i++)
      {
        if (i + 1 < argc && g_str_equal (argv[i], "--fake-pkexec"))
          fake_pkexec = argv[++i];
        else if (i + 1 < argc && g_str_equal (argv[i], "--real-cli"))
          real_cli = argv[++i];
        else
          argv[kept++] = argv[i];
      }
    argc = kept;
    argv[argc] = NULL;
  }
  dir = g_dir_make_tmp ("seismo-test-app-pkexec-XXXXXX", NULL);
  /* Recordings go to this test's folder; set before GLib reads it. */
  cache = g_build_filename (dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  /* The recording it opens goes to this test's recent files, not the user's. */
  data_home = g_build_filename (dir, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_test_init (&argc, &argv, NULL);
  if (fake_pkexec == NULL || real_cli == NULL)
    {
      g_printerr ("usage: %s --fake-pkexec PATH --real-cli PATH\n", g_get_prgname ());
      seismo_gui_test_remove_dir (dir);
      return 1;
    }
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_test_skip ("no display: run under xvfb-run");
      seismo_gui_test_remove_dir (dir);
      return 77;
    }
  g_test_add_func ("/app-pkexec/record", test_pkexec);
  ret = g_test_run ();
  seismo_gui_test_remove_dir (dir);
  return ret;
}

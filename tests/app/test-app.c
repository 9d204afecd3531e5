/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The real application under Xvfb: open a file given on the command line, zoom, select in the
 * timeline and in the list (they follow each other), search, save, a second window, the record
 * dialog's command line, the shortcuts window. Run with G_DEBUG=fatal-criticals: any critical
 * fails the test.
 */

#include <unistd.h>

#include <glib/gstdio.h>

#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-record-dialog.h"
#include "seismo-window-private.h"

static char *dir;
static char *trace_path;
static char *real_cli;   /* --real-cli PATH: also record live with the real seismo-cli */


static gboolean
window_has_trace (gpointer data)
{
  return seismo_window_get_trace (data) != NULL;
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

static gboolean
search_done (gpointer data)
{
  SeismoWindow *window = data;

  return window->search_cancellable == NULL;
}

static gboolean
two_windows_loaded (gpointer data)
{
  GList *windows = gtk_application_get_windows (data);
  guint loaded = 0;

  for (GList *l = windows; l; l = l->next)
    loaded += SEISMO_IS_WINDOW (l->data) && seismo_window_get_trace (l->data) != NULL;
  return loaded == 2;
}

static gboolean search_changed;

static void
on_search_changed (gboolean *flag)
{
  *flag = TRUE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

static GtkSingleSelection *
list_selection (SeismoWindow *window)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (window->event_list));

  /* SeismoEventList > GtkScrolledWindow > GtkColumnView */
  child = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (child));
  return GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (child)));
}

static void
check_window (SeismoApplication *app,
              SeismoWindow      *window)
{
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  SeismoTimelineRenderer *r;
  SeismoTrace *trace;
  double fit;
  guint e;

  g_assert_true (seismo_gui_test_wait_for (window_has_trace, window, 20000));
  trace = seismo_window_get_trace (window);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), >, 1000);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "trace");
  seismo_gui_test_spin (300);   /* a few frames drawn */

  /* Zoom with the window's actions, then fit again. */
  r = seismo_timeline_get_renderer (timeline);
  g_assert_nonnull (r);
  fit = seismo_timeline_renderer_get_ns_per_px (r);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), <, fit * 0.9);
  seismo_gui_test_spin (100);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-out", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-fit", NULL);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), ==, fit);

  /* Timeline → list and details. */
  e = (guint) seismo_trace_get_n_events (trace) / 2;
  seismo_timeline_set_selected_event (timeline, e);
  g_assert_cmpuint (seismo_event_list_get_selected_event (window->event_list), ==, e);
  g_assert_cmpuint (gtk_single_selection_get_selected (list_selection (window)), ==, e);
  g_assert_cmpuint (seismo_event_details_get_event (window->details), ==, e);
  /* The selected event came into view. */
  {
    double x = seismo_timeline_renderer_ns_to_x (r, seismo_trace_event_time (trace, e));

    g_assert_cmpfloat (x, >=, SEISMO_TIMELINE_LABEL_WIDTH);
    g_assert_cmpfloat (x, <=, gtk_widget_get_width (GTK_WIDGET (timeline)));
  }
  seismo_gui_test_spin (100);

  /* List → timeline. */
  gtk_single_selection_set_selected (list_selection (window), 7);
  g_assert_cmpuint (seismo_event_list_get_selected_event (window->event_list), ==, 7);
  g_assert_cmpuint (seismo_timeline_get_selected_event (timeline), ==, 7);
  g_assert_cmpuint (seismo_event_details_get_event (window->details), ==, 7);

  /* Markers from the widget API show up in the status line. */
  seismo_timeline_set_marker (timeline, 0, seismo_trace_get_start_ns (trace) + 1000);
  seismo_timeline_set_marker (timeline, 1, seismo_trace_get_start_ns (trace) + 3000);
  g_assert_nonnull (strstr (gtk_label_get_text (window->markers_label), "B − A 2.000 µs"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-range", NULL);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), <, fit / 10);
  seismo_timeline_clear_markers (timeline);

  /* Search: the next event about "write" after the selection. */
  search_changed = FALSE;
  g_signal_connect_swapped (window->search_entry, "search-changed", G_CALLBACK (on_search_changed),
                            &search_changed);
  gtk_editable_set_text (GTK_EDITABLE (window->search_entry), "write");
  /* The entry says "search-changed" a moment after the text changed, which abandons a search. */
  g_assert_true (seismo_gui_test_wait_for (flag_is_set, &search_changed, 20000));
  g_signal_handlers_disconnect_by_func (window->search_entry, on_search_changed, &search_changed);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.find-next", NULL);
  g_assert_true (seismo_gui_test_wait_for (search_done, window, 20000));
  e = seismo_timeline_get_selected_event (timeline);
  g_assert_cmpuint (e, >, 7);
  {
    g_autofree char *info = seismo_trace_event_format (trace, e);

    g_assert_nonnull (strcasestr (info, "write"));
    /* The first one: the search runs in stretches on several threads, and the earliest wins. */
    for (guint k = 8; k < e; k++)
      {
        g_autofree char *before = seismo_trace_event_format (trace, k);
        const SeismoTask *task = seismo_trace_event_task (trace, k);

        g_assert_null (strcasestr (before, "write"));
        g_assert_null (strcasestr (seismo_trace_event_type (trace, k)->full_name, "write"));
        g_assert_true (task == NULL
                       || strcasestr (seismo_trace_get_string (trace, task->comm), "write") == NULL);
      }
  }
  seismo_gui_test_spin (100);

  /* Save As: the copy opens with the same events. */
  {
    g_autofree char *copy = g_build_filename (dir, "copy.seismo", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (copy);
    g_autoptr(SeismoTrace) again = NULL;
    g_autoptr(GError) error = NULL;

    _seismo_window_save_to (window, file);
    g_assert_true (seismo_gui_test_wait_for (file_exists, copy, 20000));
    seismo_gui_test_spin (200);
    again = seismo_trace_open (copy, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (seismo_trace_get_n_events (again), ==, seismo_trace_get_n_events (trace));
  }
}

static void
check_record_dialog (SeismoWindow *window)
{
  GSettings *settings = seismo_application_get_settings (SEISMO_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));
  GtkWindow *dialog;
  g_auto(GStrv) args = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (settings);
  g_settings_set_string (settings, "record-backend", "ptrace");
  g_settings_set_string (settings, "record-target", "command");
  g_settings_set_string (settings, "record-command", "true --flag 'two words'");
  g_settings_set_double (settings, "record-duration", 2.5);
  dialog = seismo_record_dialog_new (window);
  gtk_window_present (dialog);
  seismo_gui_test_spin (200);
  args = seismo_record_dialog_get_args (SEISMO_RECORD_DIALOG (dialog), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args[0], ==, "record");
  g_assert_cmpstr (args[1], ==, "-b");
  g_assert_cmpstr (args[2], ==, "ptrace");
  {
    guint n = g_strv_length (args);

    g_assert_cmpstr (args[n - 4], ==, "--");
    g_assert_cmpstr (args[n - 3], ==, "true");
    g_assert_cmpstr (args[n - 1], ==, "two words");
    g_assert_true (g_strv_contains ((const char * const *) args, "--duration"));
    g_assert_true (g_strv_contains ((const char * const *) args, "2.5"));
  }
  gtk_window_close (dialog);

  /* A target without what it needs is refused with a reason. */
  g_settings_set_string (settings, "record-command", "");
  dialog = seismo_record_dialog_new (window);
  g_clear_pointer (&args, g_strfreev);
  args = seismo_record_dialog_get_args (SEISMO_RECORD_DIALOG (dialog), &error);
  g_assert_null (args);
  g_assert_nonnull (error);
  gtk_window_close (dialog);
}

/* With args NULL the window runs tests/app's stand-in seismo-cli, which streams a synthetic trace
 * until stopped; else $SEISMO_RECORDER (the real seismo-cli) with those arguments. */
static void
check_recording (SeismoApplication  *app,
                 const char * const *real_args)
{
  const char *fake_args[] = { "record", "-b", "ptrace", "-a", NULL };
  const char * const *args = real_args != NULL ? real_args : fake_args;
  SeismoWindow *window;
  gsize live_events;

  if (geteuid () != 0)
    {
      g_test_message ("not root: recording would ask pkexec for a password; not tested");
      return;
    }
  g_test_message ("recording with %s", real_args != NULL ? "the real seismo-cli" : "the stand-in");
  window = seismo_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  seismo_window_start_recording (window, args);
  g_assert_true (_seismo_window_is_recording (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "recording");
  g_assert_false (seismo_window_is_empty (window));

  /* Live: the timeline shows the partial file and follows it as it grows. */
  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_recording_live, window, 60000));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "trace");
  g_assert_cmpuint (seismo_trace_get_n_events (seismo_window_get_trace (window)), >, 0);
  g_assert_true (seismo_app_test_wait_growth (window, 60000));
  g_assert_true (_seismo_window_is_recording (window));
  live_events = seismo_trace_get_n_events (seismo_window_get_trace (window));

  /* Stop: the recorder commits, the whole recording shows, ready to be saved. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop-recording", NULL);
  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_recording_over, window, 60000));
  g_assert_nonnull (seismo_window_get_trace (window));
  g_assert_cmpuint (seismo_trace_get_n_events (seismo_window_get_trace (window)), >=, live_events);
  g_assert_true (window->unsaved);
  g_assert_true (g_file_test (window->record_path, G_FILE_TEST_EXISTS));
  if (real_args != NULL)
    {
      g_autofree char *live = g_strconcat (window->record_path, ".live", NULL);
      g_autofree char *partial = g_strconcat (window->record_path, ".partial", NULL);
      SeismoTrace *trace = seismo_window_get_trace (window);

      /* A real recording of the shell loop: its syscalls are there, the side files are gone. */
      g_assert_false (g_file_test (live, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test (partial, G_FILE_TEST_EXISTS));
      g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_BACKEND), ==, "ptrace");
    }
  g_unlink (window->record_path);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The shortcuts window is built when first asked for, not with each window (2.5 MB of heap
 * that GtkApplication builds for every window when it finds gtk/help-overlay.ui), and opens with
 * the shortcut GTK gives it. */
static void
check_help_overlay (SeismoApplication *app,
                    SeismoWindow      *window)
{
  GtkApplicationWindow *app_window = GTK_APPLICATION_WINDOW (window);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                "win.show-help-overlay");
  GtkShortcutsWindow *overlay;
  GLogLevelFlags fatal;

  g_assert_cmpstr (accels[0], ==, "<Control>question");
  g_assert_null (gtk_application_window_get_help_overlay (app_window));

  /* Shown, the window is measured, and GTK 4.8 warns about the page buttons (1, 2) of a
   * GtkShortcutsSection with two pages: the theme's negative margins give their labels a negative
   * minimum width. GTK's own, wherever the window is built, and GTK logs it the structured way,
   * which g_test_expect_message() does not see: warnings are not fatal while it shows. */
  fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
  overlay = gtk_application_window_get_help_overlay (app_window);
  g_assert_nonnull (overlay);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (overlay)) == GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (overlay));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overlay)));

  /* Closing hides it; asked again, the same one shows. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
  g_assert_true (gtk_application_window_get_help_overlay (app_window) == overlay);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_window_close (GTK_WINDOW (overlay));
  g_log_set_always_fatal (fatal);
}

static void
run_checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);

  check_help_overlay (app, window);
  check_window (app, window);
  check_record_dialog (window);
  check_recording (app, NULL);
  if (real_cli != NULL && geteuid () == 0)
    {
      /* Live for real: seismo-cli record with ptrace on a loop that runs until Stop. */
      const char *args[] = {
        "record", "-b", "ptrace", "--", "sh", "-c",
        "while :; do cat /proc/self/stat > /dev/null; sleep 0.05; done", NULL
      };

      g_setenv ("SEISMO_RECORDER", real_cli, TRUE);
      check_recording (app, args);
      g_unsetenv ("SEISMO_RECORDER");
    }

  /* Another file opens in a window of its own; a new window starts empty, with the samples. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (trace_path);
    SeismoWindow *empty;

    seismo_application_open_files (app, &file, 1);
    g_assert_true (seismo_gui_test_wait_for (two_windows_loaded, app, 20000));
    gtk_widget_activate_action (GTK_WIDGET (window), "app.new-window", NULL);
    empty = gtk_application_get_windows (GTK_APPLICATION (app))->data;
    g_assert_true (seismo_window_is_empty (empty));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (empty->samples_group)));
    seismo_gui_test_spin (200);
  }
}

static void
test_app (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (30000);
  g_autoptr(GError) error = NULL;
  g_autofree char *sample = NULL;

  g_assert_true (seismo_trace_save (trace, trace_path, &error));
  g_assert_no_error (error);
  sample = g_build_filename (dir, "sample-busy.seismo", NULL);
  g_assert_true (seismo_trace_save (trace, sample, &error));
  g_setenv ("SEISMO_SAMPLES_DIR", dir, TRUE);
  seismo_app_test_run (&trace_path, 1, run_checks);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  if (argc >= 3 && g_str_equal (argv[argc - 2], "--real-cli"))
    {
      real_cli = argv[argc - 1];
      argc -= 2;
      argv[argc] = NULL;
    }
  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  dir = g_dir_make_tmp ("seismo-test-app-XXXXXX", NULL);
  trace_path = g_build_filename (dir, "busy.seismo", NULL);
  g_test_add_func ("/app/open-zoom-select-save", test_app);
  ret = g_test_run ();
  seismo_gui_test_remove_dir (dir);
  return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Opening files in the real application under Xvfb, the ways a person does: dropping files on a
 * window (the window's own GtkDropTarget handler, given the GdkFileList a file manager's drag
 * carries), a file that is not a trace (an error dialog naming it), recent files
 * (GtkRecentManager, the start page's "Recent" rows, reopening from there), and the command line,
 * whose files are read from launch on.
 */

#include <glib/gstdio.h>

#include "seismo-app-test-util.h"
#include "seismo-function-calls.h"
#include "seismo-timeline-data-private.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-window-private.h"

static char *dir;

static gboolean
window_has_trace (gpointer data)
{
  return seismo_window_get_trace (data) != NULL;
}

static guint
count_loaded_windows (GtkApplication *app)
{
  guint loaded = 0;

  for (GList *l = gtk_application_get_windows (app); l; l = l->next)
    loaded += SEISMO_IS_WINDOW (l->data) && seismo_window_get_trace (l->data) != NULL;
  return loaded;
}

static gboolean
three_windows_loaded (gpointer data)
{
  return count_loaded_windows (data) == 3;
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

/* What GTK hands the "drop" handler when files are dropped: a GdkFileList. */
static gboolean
drop_files (SeismoWindow *window,
            GFile       **files,
            guint         n_files)
{
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (window));
  g_auto(GValue) value = G_VALUE_INIT;
  GSList *list = NULL;
  gboolean accepted = FALSE;

  g_assert_nonnull (target);
  /* It takes files, and copies them (the file stays where it was). */
  g_assert_true (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (target),
                                                    GDK_TYPE_FILE_LIST));
  g_assert_cmpint (gtk_drop_target_get_actions (target), ==, GDK_ACTION_COPY);
  for (guint i = n_files; i > 0; i--)
    list = g_slist_prepend (list, files[i - 1]);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (list));
  g_slist_free (list);
  g_signal_emit_by_name (target, "drop", &value, 20.0, 20.0, &accepted);
  return accepted;
}

static gboolean
window_settled (gpointer data)
{
  SeismoWindow *window = data;

  return window->load_cancellable == NULL;
}

/* The first descendant of widget whose type is named type_name, or a button labelled label. */
static GtkWidget *
find_descendant (GtkWidget  *widget,
                 const char *type_name,
                 const char *label)
{
  if (type_name != NULL && g_str_equal (G_OBJECT_TYPE_NAME (widget), type_name))
    return widget;
  if (label != NULL && GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_descendant (c, type_name, label);

      if (found)
        return found;
    }
  return NULL;
}

/*
 * A text trace with a line the reader cannot read: it opens, and a toast says what was not read;
 * its Details button lists the kind, the count and the first such line.
 */
static void
check_skipped (SeismoWindow *window)
{
  g_autofree char *partly = g_build_filename (dir, "partly.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (partly);
  GtkWidget *toast, *button;
  AdwMessageDialog *dialog;
  const char *body;

  seismo_window_open_file (window, file);
  g_assert_true (seismo_gui_test_wait_for (window_has_trace, window, 30000));
  g_assert_true (seismo_gui_test_wait_for (window_settled, window, 30000));
  seismo_gui_test_spin (200);
  toast = find_descendant (GTK_WIDGET (window->toast_overlay), "AdwToastWidget", NULL);
  g_assert_nonnull (toast);
  button = find_descendant (toast, NULL, "_Details");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==,
                   "win.skipped-details");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.skipped-details", NULL);
  g_assert_true (seismo_gui_test_wait_for (seismo_app_test_has_dialog, window, 30000));
  dialog = seismo_app_test_find_dialog (GTK_WINDOW (window));
  body = adw_message_dialog_get_body (dialog);
  g_assert_nonnull (strstr (body, "1 lines that are not ftrace text"));
  g_assert_nonnull (strstr (body, "line 4: this line is not a trace line"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
check_drop (GtkApplication *app,
            SeismoWindow   *window)
{
  g_autofree char *a = g_build_filename (dir, "a.seismo", NULL);
  g_autofree char *b = g_build_filename (dir, "b.seismo", NULL);
  g_autofree char *c = g_build_filename (dir, "c.seismo", NULL);
  g_autofree char *junk = g_build_filename (dir, "notes.txt", NULL);
  GFile *files[2];
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  g_autoptr(GFile) fc = g_file_new_for_path (c);
  g_autoptr(GFile) fjunk = g_file_new_for_path (junk);
  AdwMessageDialog *dialog;
  g_autofree char *base_a = NULL;

  /* Nothing to open: the drop is refused. */
  g_assert_false (drop_files (window, NULL, 0));
  g_assert_true (seismo_window_is_empty (window));

  /* Two files on the empty window: the first opens here, the second in a window of its own. */
  files[0] = fa;
  files[1] = fb;
  g_assert_true (drop_files (window, files, 2));
  g_assert_true (seismo_gui_test_wait_for (window_has_trace, window, 30000));
  base_a = g_file_get_basename (window->file);
  g_assert_cmpstr (base_a, ==, "a.seismo");
  g_assert_cmpuint (seismo_trace_get_n_events (seismo_window_get_trace (window)), ==, 3000);

  /* One file on a window that shows a trace: it keeps its trace, the file gets a new window. */
  files[0] = fc;
  g_assert_true (drop_files (window, files, 1));
  g_assert_true (seismo_gui_test_wait_for (three_windows_loaded, app, 30000));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (app)), ==, 3);
  g_assert_true (g_file_equal (window->file, fa));
  {
    gboolean seen_b = FALSE, seen_c = FALSE;

    for (GList *l = gtk_application_get_windows (app); l; l = l->next)
      {
        SeismoWindow *w = l->data;

        seen_b |= w->file != NULL && g_file_equal (w->file, fb);
        seen_c |= w->file != NULL && g_file_equal (w->file, fc);
        if (w->file != NULL && g_file_equal (w->file, fc))
          g_assert_cmpuint (seismo_trace_get_n_events (seismo_window_get_trace (w)), ==, 9000);
      }
    g_assert_true (seen_b);
    g_assert_true (seen_c);
  }

  /* A file that is no trace, dropped on a fresh window: an error dialog that names it, and the
   * window goes back to its start page. */
  {
    SeismoWindow *fresh = seismo_window_new (SEISMO_APPLICATION (app));
    g_autofree char *heading = NULL;

    gtk_window_present (GTK_WINDOW (fresh));
    files[0] = fjunk;
    g_assert_true (drop_files (fresh, files, 1));
    g_assert_true (seismo_gui_test_wait_for (seismo_app_test_has_dialog, fresh, 30000));
    g_assert_true (seismo_gui_test_wait_for (window_settled, fresh, 30000));
    dialog = seismo_app_test_find_dialog (GTK_WINDOW (fresh));
    heading = g_strdup (adw_message_dialog_get_heading (dialog));
    g_assert_nonnull (strstr (heading, "notes.txt"));
    g_assert_cmpstr (adw_message_dialog_get_body (dialog), !=, "");
    g_assert_null (seismo_window_get_trace (fresh));
    g_assert_cmpstr (gtk_stack_get_visible_child_name (fresh->stack), ==, "empty");
    gtk_window_destroy (GTK_WINDOW (dialog));
    gtk_window_destroy (GTK_WINDOW (fresh));
  }

  {
    SeismoWindow *fresh = seismo_window_new (SEISMO_APPLICATION (app));

    gtk_window_present (GTK_WINDOW (fresh));
    check_skipped (fresh);
    gtk_window_destroy (GTK_WINDOW (fresh));
  }
}

static gboolean
shows_trace_page (gpointer data)
{
  SeismoWindow *window = data;

  return g_strcmp0 (gtk_stack_get_visible_child_name (window->stack), "trace") == 0 &&
         !gtk_stack_get_transition_running (window->stack);
}

static void
hide_banners (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_REVEALER (c))
        gtk_revealer_set_reveal_child (GTK_REVEALER (c), FALSE);
      hide_banners (c);
    }
}

/*
 * The real function_graph file (../shared, when it is there): its calls are drawn as
 * nested lanes under their task, the idle task included; with SEISMO_SCREENSHOT_DIR the window is
 * saved as funcgraph.png (docs/screenshots/ comes from this).
 */
static void
check_funcgraph (GtkApplication *app)
{
  const char *src = g_getenv ("SEISMO_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : ".", "..", "shared", "samples", "realworld",
                                            "ftrace-funcgraph-pengdonglin137.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SeismoWindow *window;
  SeismoTimelineData *data;
  gsize n_calls;
  const SeismoFunctionCall *calls;
  guint with_calls = 0, max_levels = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_message ("%s is absent: its function-graph view is not checked", path);
      return;
    }
  window = seismo_window_new (SEISMO_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  hide_banners (GTK_WIDGET (window));
  gtk_window_present (GTK_WINDOW (window));
  seismo_window_open_file (window, file);
  g_assert_true (seismo_gui_test_wait_for (window_has_trace, window, 30000));
  g_assert_true (seismo_gui_test_wait_for (window_settled, window, 30000));
  g_assert_true (seismo_gui_test_wait_for (shows_trace_page, window, 30000));

  data = seismo_timeline_get_data (seismo_window_get_timeline (window));
  g_assert_nonnull (data);
  calls = seismo_trace_get_function_calls (seismo_window_get_trace (window), &n_calls);
  g_assert_cmpuint (n_calls, ==, 210);
  for (guint t = 0; t < data->n_tasks; t++)
    {
      with_calls += data->tasks[t].n_call_levels > 0;
      max_levels = MAX (max_levels, data->tasks[t].n_call_levels);
    }
  /* bash before the context switch, the idle task after it. */
  g_assert_cmpuint (with_calls, ==, 2);
  g_assert_cmpuint (max_levels, >=, 10);

  /* A call with a long duration selected: the details pane shows its fields. */
  for (gsize i = 0; i < n_calls; i++)
    if (g_str_equal (seismo_trace_get_string (seismo_window_get_trace (window), calls[i].func),
                     "tick_nohz_stop_tick"))
      {
        seismo_timeline_set_selected_event (seismo_window_get_timeline (window), calls[i].exit);
        break;
      }
  if (g_getenv ("SEISMO_SCREENSHOT_DIR"))
    {
      seismo_gui_test_spin (1500);
      seismo_app_test_save_png (GTK_WIDGET (window), g_getenv ("SEISMO_SCREENSHOT_DIR"),
                                "funcgraph.png");
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The start page's rows in its "Recent" group, in order. */
static GPtrArray *
recent_rows (SeismoWindow *window)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (guint i = 0; i < window->empty_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (window->empty_rows, i);

      if (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP) == GTK_WIDGET (window->recent_group))
        g_ptr_array_add (rows, row);
    }
  return rows;
}

static gboolean
recent_file_written (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && strstr (contents, "c.seismo") != NULL;
}

static void
check_recent (GtkApplication *app)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  g_autofree char *c = g_build_filename (dir, "c.seismo", NULL);
  g_autofree char *never = g_build_filename (dir, "never-opened.seismo", NULL);
  g_autofree char *xbel = g_build_filename (dir, "data", "recently-used.xbel", NULL);
  g_autoptr(GFile) fc = g_file_new_for_path (c);
  g_autofree char *uri_c = g_file_get_uri (fc);
  g_autoptr(GtkRecentInfo) info = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  SeismoWindow *window;
  gboolean found_c = FALSE;

  /* Each file opened above is a recent file of Seismo's, saved where the desktop keeps them. */
  info = gtk_recent_manager_lookup_item (manager, uri_c, NULL);
  g_assert_nonnull (info);
  g_assert_true (gtk_recent_info_has_application (info, "Seismo"));
  {
    g_autofree char *a = g_build_filename (dir, "a.seismo", NULL);
    g_autofree char *uri_a = g_filename_to_uri (a, NULL, NULL);

    g_assert_true (gtk_recent_manager_has_item (manager, uri_a));
  }
  {
    g_autofree char *uri_never = g_filename_to_uri (never, NULL, NULL);

    g_assert_false (gtk_recent_manager_has_item (manager, uri_never));
  }
  g_assert_true (seismo_gui_test_wait_for (recent_file_written, xbel, 30000));

  /* The file that failed to open is not one. */
  {
    g_autofree char *junk = g_build_filename (dir, "notes.txt", NULL);
    g_autofree char *uri_junk = g_filename_to_uri (junk, NULL, NULL);

    g_assert_false (gtk_recent_manager_has_item (manager, uri_junk));
  }

  /* A new window's start page lists them; activating the row reopens the file there. */
  window = seismo_window_new (SEISMO_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  seismo_gui_test_spin (200);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->recent_group)));
  rows = recent_rows (window);
  /* a, b, c and the text trace opened by check_skipped. */
  g_assert_cmpuint (rows->len, ==, 4);
  for (guint i = 0; i < rows->len; i++)
    {
      AdwPreferencesRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, dir);
      if (g_str_equal (adw_preferences_row_get_title (row), "c.seismo"))
        {
          found_c = TRUE;
          g_signal_emit_by_name (row, "activate");
        }
    }
  g_assert_true (found_c);
  g_assert_true (seismo_gui_test_wait_for (window_has_trace, window, 30000));
  g_assert_true (g_file_equal (window->file, fc));
  g_assert_cmpuint (seismo_trace_get_n_events (seismo_window_get_trace (window)), ==, 9000);
  gtk_window_destroy (GTK_WINDOW (window));

  /* A recent file that is gone is not offered. */
  g_assert_cmpint (g_unlink (c), ==, 0);
  window = seismo_window_new (SEISMO_APPLICATION (app));
  seismo_gui_test_spin (100);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = recent_rows (window);
  g_assert_cmpuint (rows->len, ==, 3);
  for (guint i = 0; i < rows->len; i++)
    g_assert_cmpstr (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), !=, "c.seismo");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
run_checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);

  g_assert_true (seismo_window_is_empty (window));
  /* A fresh user: no recent files yet. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->recent_group)));
  check_drop (GTK_APPLICATION (app), window);
  check_recent (GTK_APPLICATION (app));
  check_funcgraph (GTK_APPLICATION (app));
}

static void
save_trace (const char *name,
            guint       n_events)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (n_events);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (seismo_trace_save (trace, path, &error));
  g_assert_no_error (error);
}

/* The command line: a trace.dat (its reader is a backend's) and a file that is not a trace, read
 * from launch (seismo-window-read.h) and shown by the windows that open them. */
static char *command_line_dat;

/* This run's windows: the one showing the trace.dat, and the one whose dialog names notes.txt. */
static gboolean
find_command_line_windows (GtkApplication *app,
                           SeismoWindow  **dat_window,
                           SeismoWindow  **junk_window)
{
  *dat_window = *junk_window = NULL;
  for (GList *l = gtk_application_get_windows (app); l; l = l->next)
    {
      AdwMessageDialog *dialog;

      if (!SEISMO_IS_WINDOW (l->data))
        continue;
      if (seismo_window_get_trace (l->data) != NULL && SEISMO_WINDOW (l->data)->file != NULL)
        {
          g_autofree char *name = g_file_get_basename (SEISMO_WINDOW (l->data)->file);

          if (g_str_equal (name, "ftrace-small-v7.dat"))
            *dat_window = l->data;
        }
      else if ((dialog = seismo_app_test_find_dialog (l->data)) != NULL
               && strstr (adw_message_dialog_get_heading (dialog), "notes.txt") != NULL)
        *junk_window = l->data;
    }
  return *dat_window != NULL && *junk_window != NULL;
}

static gboolean
command_line_opened (gpointer data)
{
  SeismoWindow *dat_window, *junk_window;

  return find_command_line_windows (data, &dat_window, &junk_window);
}

static void
check_command_line (SeismoApplication *app)
{
  g_autoptr(SeismoTrace) expected = NULL;
  g_autoptr(GError) error = NULL;
  SeismoWindow *dat_window, *junk_window;
  SeismoTrace *trace;

  g_assert_true (seismo_gui_test_wait_for (command_line_opened, app, 20000));
  expected = seismo_trace_open (command_line_dat, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (find_command_line_windows (GTK_APPLICATION (app), &dat_window, &junk_window));
  g_assert_true (dat_window != junk_window);
  trace = seismo_window_get_trace (dat_window);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, seismo_trace_get_n_events (expected));
  g_assert_cmpuint (seismo_trace_get_n_events (trace), >, 0);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, "format"), ==, "trace.dat");
  g_assert_null (seismo_window_get_trace (junk_window));
  gtk_window_destroy (GTK_WINDOW (seismo_app_test_find_dialog (GTK_WINDOW (junk_window))));
}

static void
test_command_line (void)
{
  g_autofree char *junk = g_build_filename (dir, "notes.txt", NULL);
  char *files[2];

  command_line_dat = g_test_build_filename (G_TEST_DIST, "data", "ftrace-small-v7.dat", NULL);
  files[0] = command_line_dat;
  files[1] = junk;
  g_assert_true (g_file_set_contents (junk, "shopping list: milk, eggs\n", -1, NULL));
  seismo_app_test_run (files, G_N_ELEMENTS (files), check_command_line);
  g_clear_pointer (&command_line_dat, g_free);
}

static void
test_open (void)
{
  g_autofree char *junk = g_build_filename (dir, "notes.txt", NULL);

  save_trace ("a.seismo", 3000);
  save_trace ("b.seismo", 6000);
  save_trace ("c.seismo", 9000);
  g_assert_true (g_file_set_contents (junk, "shopping list: milk, eggs\n", -1, NULL));
  {
    g_autofree char *partly = g_build_filename (dir, "partly.txt", NULL);

    g_assert_true (g_file_set_contents (partly,
      "# tracer: nop\n"
      "    bash-1  [000] ..... 1.000001: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
      "    bash-1  [000] ..... 1.000002: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n"
      "this line is not a trace line\n"
      "    bash-1  [000] ..... 1.000003: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n",
      -1, NULL));
  }
  seismo_app_test_run (NULL, 0, run_checks);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data_home = NULL;
  int ret;

  dir = g_dir_make_tmp ("seismo-test-app-open-XXXXXX", NULL);
  /* Recent files go to this test's own folder, not the user's; set before GLib reads it. */
  data_home = g_build_filename (dir, "data", NULL);
  g_mkdir (data_home, 0700);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  /* No bundled samples on the start page: only what this test puts there. */
  g_setenv ("SEISMO_SAMPLES_DIR", data_home, TRUE);
  if (!seismo_gui_test_init (&argc, &argv))
    {
      seismo_gui_test_remove_dir (dir);
      return 77;
    }
  g_test_add_func ("/app-open/drop-and-recent", test_open);
  g_test_add_func ("/app-open/command-line", test_command_line);
  ret = g_test_run ();
  seismo_gui_test_remove_dir (dir);
  return ret;
}

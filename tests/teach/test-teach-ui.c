/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Teaching in the real window, under Xvfb: every lesson opens its sample and every step applies
 * (markers, selection, zoom as the step resolves against the trace), "Explain this" follows the
 * selection, presenter mode with its keys, and the observer-effect dialog reading
 * compare-overhead's JSON. Run with G_DEBUG=fatal-criticals: any critical fails the test.
 *
 * With SEISMO_TEACH_SHOTS=DIR it also saves lesson.png, presenter.png and overhead.png there
 * (docs/screenshots/); with SEISMO_TEACH_MEASURE=1 the dialog runs a real measurement.
 */

#include "seismo-test-paths.h"
#include <math.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "seismo-overhead-dialog.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"
#include "seismo-window-teach.h"
#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"



/* Saves what a window shows, as GTK draws it, when screenshots were asked for. */
static void
shoot (GtkWidget  *window,
       const char *name)
{
  const char *dir = g_getenv ("SEISMO_TEACH_SHOTS");

  if (dir == NULL)
    return;
  seismo_gui_test_spin (400);
  seismo_app_test_save_png (window, dir, name);
}

typedef struct {
  SeismoWindow *window;
  const char   *sample;
} SampleWait;

static gboolean
sample_shown (gpointer data)
{
  SampleWait *w = data;
  g_autofree char *base = NULL;

  if (w->window->trace == NULL || w->window->file == NULL || w->window->load_cancellable != NULL)
    return FALSE;
  base = g_file_get_basename (w->window->file);
  return g_str_equal (base, w->sample)
         && g_strcmp0 (gtk_stack_get_visible_child_name (w->window->stack), "trace") == 0;
}

static gboolean
step_done (gpointer data)
{
  return !_seismo_window_lesson_is_pending (data);
}

/* The timeline shows what the step resolves to. */
typedef struct {
  SeismoWindow *window;
  guint         event;
  const char   *filter;
} StepWait;

static gboolean
step_applied (gpointer data)
{
  StepWait *w = data;

  return seismo_timeline_get_selected_event (seismo_window_get_timeline (w->window)) == w->event
         && (w->filter == NULL || g_str_equal (seismo_window_get_filter (w->window), w->filter));
}

static void
check_step (SeismoWindow       *window,
            const SeismoLesson *lesson,
            guint               step)
{
  SeismoLessonView *view = _seismo_window_get_lesson_view (window);
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (timeline);
  g_autoptr(GError) error = NULL;
  SeismoLessonTargets t;
  guint64 marker;

  g_assert_true (seismo_gui_test_wait_for (step_done, window, 10000));
  g_assert_null (seismo_lesson_view_get_problem (view));
  g_assert_cmpuint (seismo_lesson_view_get_step (view), ==, step);
  g_assert_true (seismo_lesson_step_resolve (lesson, step, window->trace, &t, &error));
  g_assert_no_error (error);
  for (guint m = 0; m < 2; m++)
    {
      g_assert_cmpint (seismo_timeline_renderer_get_marker (r, m, &marker), ==, t.has_marker[m]);
      if (t.has_marker[m])
        g_assert_cmpuint (marker, ==, t.marker_ns[m]);
    }
  /* A step's filter runs on a worker; its event is selected (again) when the result is in. */
  {
    StepWait w = { window, t.select, lesson->steps[step].filter };

    seismo_gui_test_wait_for (step_applied, &w, 10000);
    seismo_gui_test_spin (20);
  }
  g_assert_cmpuint (seismo_timeline_get_selected_event (timeline), ==, t.select);
  /* The list shows it too (every step's Select matches its own filter). */
  g_assert_cmpuint (seismo_event_list_get_selected_event (window->event_list), ==, t.select);
  if (lesson->steps[step].filter != NULL)
    g_assert_cmpstr (seismo_window_get_filter (window), ==, lesson->steps[step].filter);
  if (t.select != SEISMO_NO_EVENT)
    {
      g_auto(GStrv) titles = seismo_explain_view_dup_titles (_seismo_window_get_explain_view (window));

      /* Explain this follows the selection. */
      g_assert_cmpuint (g_strv_length (titles), >, 0);
    }
  if (t.zoom_all)
    g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), ==,
                       seismo_timeline_renderer_get_fit_ns_per_px (r));
  else if (t.has_zoom)
    {
      double start = seismo_timeline_renderer_x_to_ns (r, SEISMO_TIMELINE_LABEL_WIDTH);
      double end = seismo_timeline_renderer_x_to_ns (r, SEISMO_TIMELINE_LABEL_WIDTH
                                                        + seismo_timeline_renderer_get_area_width (r));
      double slack = (double) (t.zoom_end_ns - t.zoom_start_ns) * 0.02 + 2 * seismo_timeline_renderer_get_ns_per_px (r);

      double want_start = MAX ((double) t.zoom_start_ns, (double) seismo_trace_get_start_ns (window->trace));
      double want_end = MIN ((double) t.zoom_end_ns, (double) seismo_trace_get_end_ns (window->trace));

      /* The range is in view and fills it (the view may be clamped at the trace's edges). */
      g_assert_cmpfloat (start, <=, want_start + slack);
      g_assert_cmpfloat (end, >=, want_end - slack);
      g_assert_cmpfloat (end - start, <=, 1.5 * (double) (t.zoom_end_ns - t.zoom_start_ns) + slack);
    }
  /* The markers show in the status line. */
  g_assert_cmpint (t.has_marker[0] || t.has_marker[1], ==,
                   seismo_timeline_get_markers_text (timeline)[0] != '\0');
}

/* Whether a label under w reads text. */
static gboolean
has_label (GtkWidget  *w,
           const char *text)
{
  if (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_label (c, text))
      return TRUE;
  return FALSE;
}

static void
check_lessons (SeismoWindow *window)
{
  g_autoptr(GPtrArray) lessons = seismo_lesson_load_all ();
  SeismoLessonView *view = _seismo_window_get_lesson_view (window);

  g_assert_cmpuint (lessons->len, >=, 4);
  for (guint i = 0; i < lessons->len; i++)
    {
      const SeismoLesson *lesson = lessons->pdata[i];
      SampleWait w = { window, lesson->sample };

      g_test_message ("lesson %s", lesson->id);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.open-lesson", "s", lesson->id);
      g_assert_true (seismo_gui_test_wait_for (sample_shown, &w, 30000));
      seismo_gui_test_spin (50);
      for (guint s = 0; s < lesson->n_steps; s++)
        {
          if (s > 0)
            gtk_widget_activate_action (GTK_WIDGET (window), "win.lesson-next", NULL);
          seismo_gui_test_spin (30);
          check_step (window, seismo_lesson_view_get_lesson (view), s);
          if (g_str_equal (lesson->id, "file-copy") && s == 3)
            {
              GtkWidget *explain = GTK_WIDGET (_seismo_window_get_explain_view (window));
              g_auto(GStrv) titles = seismo_explain_view_dup_titles (SEISMO_EXPLAIN_VIEW (explain));

              /* Hidden, the Explain page is not built for each selection... */
              g_assert_false (has_label (explain, titles[0]));
              /* ...and F1 shows it beside Details, built for the selected event. */
              gtk_widget_activate_action (GTK_WIDGET (window), "win.explain", NULL);
              g_assert_cmpstr (seismo_window_get_pane (window), ==, "explain");
              seismo_gui_test_spin (10);
              g_assert_true (has_label (explain, titles[0]));
              shoot (GTK_WIDGET (window), "lesson.png");
              seismo_window_show_pane (window, "details");
            }
        }
      /* Previous goes back and applies again. */
      gtk_widget_activate_action (GTK_WIDGET (window), "win.lesson-previous", NULL);
      check_step (window, seismo_lesson_view_get_lesson (view), lesson->n_steps - 2);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.lesson-next", NULL);
      /* Next on the last step finishes. */
      gtk_widget_activate_action (GTK_WIDGET (window), "win.lesson-next", NULL);
      g_assert_null (seismo_lesson_view_get_lesson (view));
    }
}

/* The fixed width of the event list's Time column. */
static int
time_column_width (SeismoWindow *window)
{
  GtkWidget *w = GTK_WIDGET (window->event_list);
  g_autoptr(GtkColumnViewColumn) column = NULL;

  while (w != NULL && !GTK_IS_COLUMN_VIEW (w))
    w = gtk_widget_get_first_child (w);
  g_assert_nonnull (w);
  column = g_list_model_get_item (gtk_column_view_get_columns (GTK_COLUMN_VIEW (w)), 1);
  g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, "Time (s)");
  return gtk_column_view_column_get_fixed_width (column);
}

static void
check_presenter (SeismoWindow *window)
{
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  SeismoTimelineRenderer *r;
  SeismoLessonView *view = _seismo_window_get_lesson_view (window);
  const SeismoTaskId *tasks;
  guint first, next;
  double start, npp;
  int time_width;

  /* The pipe ping-pong, at its wakeup step: markers and a selection to see. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-lesson", "s", "pipe-pingpong");
  {
    SampleWait w = { window, "pipe-pingpong.seismo" };

    g_assert_true (seismo_gui_test_wait_for (sample_shown, &w, 30000));
  }
  gtk_widget_activate_action (GTK_WIDGET (window), "win.lesson-next", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.lesson-next", NULL);
  g_assert_cmpuint (seismo_lesson_view_get_step (view), ==, 2);
  g_assert_true (seismo_gui_test_wait_for (step_done, window, 10000));
  seismo_gui_test_spin (200);
  r = seismo_timeline_get_renderer (timeline);
  time_width = time_column_width (window);

  {
    double before_start = seismo_timeline_renderer_get_view_start (r);
    double before_span = seismo_timeline_renderer_get_ns_per_px (r) * seismo_timeline_renderer_get_area_width (r);

    gtk_widget_activate_action (GTK_WIDGET (window), "win.presenter", NULL);
    g_assert_true (_seismo_window_get_presenter (window));
    g_assert_true (seismo_timeline_get_presenter (timeline));
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "presenter"));
    /* The same time range stays in view, drawn 1.5 times larger. */
    g_assert_cmpfloat (fabs (seismo_timeline_renderer_get_view_start (r) - before_start), <, 1);
    g_assert_cmpfloat (fabs (seismo_timeline_renderer_get_ns_per_px (r) * seismo_timeline_renderer_get_area_width (r)
                             - before_span), <, before_span * 0.01 + 2 * seismo_timeline_renderer_get_ns_per_px (r));
  }
  seismo_gui_test_spin (300);
  /* Once laid out again, the renderer works in view pixels: widget pixels / 1.5. */
  g_assert_cmpint (abs (seismo_timeline_renderer_get_area_width (r)
                        - (int) (gtk_widget_get_width (GTK_WIDGET (timeline)) / 1.5 - SEISMO_TIMELINE_LABEL_WIDTH)), <=, 2);
  /* The list's columns grow with its 15 pt font, so that its times are not cut short. */
  g_assert_cmpint (time_column_width (window), >, time_width * 5 / 4);
  /* The picture without the presenter-mode toast (it goes after 5 s). */
  if (g_getenv ("SEISMO_TEACH_SHOTS") != NULL)
    seismo_gui_test_spin (5600);
  shoot (GTK_WIDGET (window), "presenter.png");

  /* . and , step through the selected task's events. */
  tasks = seismo_trace_get_tasks (window->trace);
  first = seismo_timeline_get_selected_event (timeline);
  g_assert_cmpuint (first, !=, SEISMO_NO_EVENT);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-task-event", NULL);
  next = seismo_timeline_get_selected_event (timeline);
  g_assert_cmpuint (next, >, first);
  g_assert_cmpuint (tasks[next], ==, tasks[first]);
  for (guint e = first + 1; e < next; e++)
    g_assert_cmpuint (tasks[e], !=, tasks[first]);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-task-event", NULL);
  g_assert_cmpuint (seismo_timeline_get_selected_event (timeline), ==, first);

  /* WASD: W zooms in, S out, D pans right, A back. */
  npp = seismo_timeline_renderer_get_ns_per_px (r);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), <, npp);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-out", NULL);
  start = seismo_timeline_renderer_get_view_start (r);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pan", "d", 0.1);
  g_assert_cmpfloat (seismo_timeline_renderer_get_view_start (r), >, start);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pan", "d", -0.1);
  g_assert_cmpfloat (fabs (seismo_timeline_renderer_get_view_start (r) - start), <, 1);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.presenter", NULL);
  g_assert_false (seismo_timeline_get_presenter (timeline));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "presenter"));
  seismo_gui_test_spin (50);
  g_assert_cmpint (abs (time_column_width (window) - time_width), <=, 1);
  seismo_lesson_view_close (view);
}

static gboolean
dialog_idle (gpointer data)
{
  return !seismo_overhead_dialog_get_busy (data);
}

static void
check_overhead (SeismoWindow *window)
{
  static const char json[] =
    "{\"command\":[\"dd\",\"if=/dev/zero\",\"of=/dev/null\",\"bs=512\",\"count=20000\"],"
    "\"runs\":3,\"output_hidden\":true,\"results\":["
    "{\"name\":\"bare\",\"available\":true,\"ok\":true,\"wall_ns\":[9000000],"
    "\"wall_ns_median\":9000000,\"slowdown\":1.0,\"events\":0,\"lost_events\":0},"
    "{\"name\":\"ptrace\",\"available\":true,\"ok\":true,\"wall_ns\":[400000000],"
    "\"wall_ns_median\":400000000,\"slowdown\":44.4,\"events\":80012,\"lost_events\":0},"
    "{\"name\":\"ftrace\",\"available\":false,\"reason\":\"needs root\"},"
    "{\"name\":\"ebpf\",\"available\":true,\"ok\":false,\"error\":\"could not load\"}]}";
  g_autoptr(GError) error = NULL;
  SeismoOverheadDialog *dialog;
  GList *toplevels;
  guint n, measured;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.observer-effect", NULL);
  seismo_gui_test_spin (200);
  dialog = NULL;
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (SEISMO_IS_OVERHEAD_DIALOG (l->data))
      dialog = l->data;
  g_list_free (toplevels);
  g_assert_nonnull (dialog);

  g_assert_false (seismo_overhead_dialog_show_json (dialog, "not json", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (seismo_overhead_dialog_show_json (dialog, "{\"runs\":1}", &error));
  g_clear_error (&error);
  g_assert_true (seismo_overhead_dialog_show_json (dialog, json, &error));
  g_assert_no_error (error);
  n = seismo_overhead_dialog_get_n_rows (dialog, &measured);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (measured, ==, 2);
  seismo_gui_test_spin (100);

  if (g_getenv ("SEISMO_TEACH_MEASURE") != NULL)
    {
      /* A real run of seismo-cli compare-overhead ($SEISMO_CLI) in its own process. */
      seismo_overhead_dialog_run (dialog);
      g_assert_true (seismo_overhead_dialog_get_busy (dialog));
      g_assert_true (seismo_gui_test_wait_for (dialog_idle, dialog, 110000));
      n = seismo_overhead_dialog_get_n_rows (dialog, &measured);
      g_assert_cmpuint (n, ==, 4);
      g_assert_cmpuint (measured, >=, 2);
    }
  shoot (GTK_WIDGET (dialog), "overhead.png");
  gtk_window_close (GTK_WINDOW (dialog));
  seismo_gui_test_spin (100);
}

static void
run_checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);

  /* Screenshot size; the window is already shown, so ask for it as a minimum. */
  gtk_widget_set_size_request (GTK_WIDGET (window), 1580, 960);
  seismo_gui_test_spin (300);
  check_lessons (window);
  check_presenter (window);
  check_overhead (window);
}

static void
test_teach (void)
{
  seismo_app_test_run (NULL, 0, run_checks);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *samples = g_build_filename (SEISMO_SOURCE_DIR, "app", "resources", "samples", NULL);
  g_autofree char *lessons = g_build_filename (SEISMO_BUILD_DIR, "app", "resources", "lessons", NULL);
  g_autofree char *probe = g_build_filename (samples, "hello-syscalls.seismo", NULL);

  g_setenv ("SEISMO_SAMPLES_DIR", samples, TRUE);
  g_setenv ("SEISMO_LESSONS_DIR", lessons, TRUE);
  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  if (!g_file_test (probe, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the sample traces are not recorded yet (tools/samples/record-samples.sh)");
      return 77;
    }
  gtk_init ();
  /* No transitions: every check (and screenshot) sees the finished state. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/teach/lessons-presenter-overhead", test_teach);
  return g_test_run ();
}

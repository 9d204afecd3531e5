/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * "Why was this slow?" in the application, on the bundled pipe ping-pong sample (eBPF): selecting
 * an event focuses its task (its wakeups get arrows), win.why-slow opens the dialog over the
 * selected syscall, fills the critical path table from a worker thread and highlights it on the
 * timeline; closing the dialog removes the highlight. With SEISMO_SCREENSHOT_DIR set, the window
 * and the dialog are saved there as why-slow-timeline.png and why-slow.png.
 */

#include <string.h>

#include "seismo-app-test-util.h"
#include "seismo-critical-path.h"
#include "seismo-gui-test-util.h"
#include "seismo-stats-view.h"
#include "seismo-window-analysis.h"
#include "seismo-thread-states.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-runnable-latency.h"
#include "seismo-wait-dialog.h"
#include "seismo-window-private.h"

static gboolean
has_trace (gpointer w)
{
  return seismo_window_get_trace (w) != NULL;
}

/* Screenshots for the docs without the banners (the tests run as root). */
static void
hide_banners (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_REVEALER (child))
        gtk_revealer_set_reveal_child (GTK_REVEALER (child), FALSE);
      hide_banners (child);
    }
}

static SeismoWaitDialog *
find_wait_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* owned by GTK */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (SEISMO_IS_WAIT_DIALOG (w))
        return SEISMO_WAIT_DIALOG (w);
    }
  return NULL;
}

static gboolean
path_ready (gpointer data)
{
  SeismoWaitDialog *dialog = find_wait_dialog ();

  return dialog != NULL && seismo_wait_dialog_get_n_segments (dialog) > 0;
}

static gboolean
stats_idle (gpointer stats)
{
  return !seismo_stats_view_get_busy (stats);
}

/* The statistics pane's task table has each task's time runnable, sleeping and in D, as the data
 * layer counts it. */
static void
check_stats (SeismoWindow *window,
             SeismoTrace  *trace,
             SeismoTaskId  task)
{
  SeismoStatsView *stats = seismo_window_get_stats_view (window);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  g_autofree char *prefix = g_strdup_printf ("%s %d,",
                                             seismo_trace_get_string (trace, seismo_trace_get_task (trace, task)->comm),
                                             seismo_trace_get_task (trace, task)->tid);
  guint64 totals[SEISMO_STATE_N];
  int runnable = -1, sleeping = -1, p99 = -1;
  gboolean found = FALSE;
  g_autoptr(SeismoLatencyHistogram) latency = NULL;
  SeismoLatencySummary summary;

  g_assert_true (seismo_gui_test_wait_for (stats_idle, stats, 60000));
  csv = seismo_stats_view_to_csv (stats, SEISMO_STATS_TABLE_TASK);
  lines = g_strsplit (csv, "\n", -1);
  header = g_strsplit (lines[0], ",", -1);
  for (int c = 0; header[c] != NULL; c++)
    {
      if (strstr (header[c], "runnable_ns") || g_str_has_prefix (header[c], "Runnable"))
        runnable = c;
      if (strstr (header[c], "sleeping_ns") || g_str_has_prefix (header[c], "Sleeping"))
        sleeping = c;
      if (strcmp (header[c], "runnable_latency_p99_ns") == 0)
        p99 = c;
    }
  g_test_message ("stats header: %s", lines[0]);
  g_assert_cmpint (runnable, >, 0);
  g_assert_cmpint (sleeping, >, 0);
  g_assert_cmpint (p99, >, 0);
  seismo_trace_task_state_totals (trace, task, 0, G_MAXUINT64, totals);
  latency = seismo_runnable_latency_histogram (trace, task, 0, G_MAXUINT64);
  seismo_latency_histogram_get_summary (latency, &summary);
  g_assert_cmpuint (summary.count, >, 0);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);

      if (cells[0] == NULL || !g_str_has_prefix (lines[i], prefix))
        continue;
      found = TRUE;
      g_assert_cmpuint (g_ascii_strtoull (cells[sleeping], NULL, 10), ==, totals[SEISMO_STATE_SLEEPING]);
      g_assert_cmpuint (g_ascii_strtoull (cells[runnable], NULL, 10), ==, totals[SEISMO_STATE_RUNNABLE]);
      g_assert_cmpuint (g_ascii_strtoull (cells[p99], NULL, 10), ==, summary.p99);
    }
  g_assert_true (found);
}

static gboolean
no_dialog (gpointer data)
{
  return find_wait_dialog () == NULL;
}

/* A blocking syscall enter of the task that slept most: the ping-pong's read. */
static SeismoEventId
slept_syscall (SeismoTrace  *trace,
               SeismoTaskId *task)
{
  guint64 best = 0;
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  SeismoEventId found = SEISMO_NO_EVENT;

  for (gsize i = 0; i < n_spans; i++)
    {
      SeismoTaskId t = seismo_trace_get_tasks (trace)[spans[i].enter];
      guint64 a = seismo_trace_event_time (trace, spans[i].enter), b;
      gsize k;

      if (spans[i].exit == SEISMO_NO_EVENT || seismo_trace_get_task (trace, t)->tid <= 0)
        continue;
      b = seismo_trace_event_time (trace, spans[i].exit);
      k = seismo_trace_task_state_find (trace, t, a + (b - a) / 2);
      if (k == G_MAXSIZE || b - a <= best)
        continue;
      {
        gsize n;
        const SeismoStateSpan *states = seismo_trace_get_task_states (trace, t, &n);

        if (states[k].state != SEISMO_STATE_SLEEPING)
          continue;
      }
      best = b - a;
      found = spans[i].enter;
      *task = t;
    }
  return found;
}

static void
checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  const char *shots = g_getenv ("SEISMO_SCREENSHOT_DIR");
  SeismoTimelineRenderer *r;
  SeismoTrace *trace;
  SeismoWaitDialog *dialog;
  SeismoTaskId task = SEISMO_NO_TASK;
  SeismoEventId ev;

  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 960);
  hide_banners (GTK_WIDGET (window));
  g_assert_true (seismo_gui_test_wait_for (has_trace, window, 60000));
  trace = seismo_window_get_trace (window);
  g_assert_true (seismo_trace_has_states (trace));
  r = seismo_timeline_get_renderer (timeline);
  {
    SeismoTaskId busiest = SEISMO_NO_TASK;

    (void) slept_syscall (trace, &busiest);
    check_stats (window, trace, busiest);
  }

  ev = slept_syscall (trace, &task);
  g_assert_cmpuint (ev, !=, SEISMO_NO_EVENT);
  seismo_timeline_set_selected_event (timeline, ev);
  g_assert_cmpuint (seismo_timeline_renderer_get_focus_task (r), ==, task);
  {
    /* Around the selected read, zoomed in so that the arrows show. */
    guint64 t = seismo_trace_event_time (trace, ev) - seismo_trace_get_start_ns (trace);

    seismo_timeline_renderer_set_view (r, (double) t - 200000, 800000.0 / 1300);
  }

  /* Hovering the task row in the middle of the read says it sleeps there, in read(). */
  {
    const SeismoSyscallSpan *span = seismo_timeline_data_find_span (seismo_timeline_get_data (timeline), ev);
    guint64 mid = (seismo_trace_event_time (trace, span->enter) + seismo_trace_event_time (trace, span->exit)) / 2;
    double y, h;
    g_autofree char *text = NULL;

    seismo_gui_test_spin (200);
    g_assert_true (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_TASK, task }, &y, &h));
    seismo_timeline_renderer_set_view (r, (double) (mid - seismo_trace_get_start_ns (trace)) - 200000,
                                       800000.0 / 1300);
    text = seismo_timeline_renderer_describe_at (r, seismo_timeline_renderer_ns_to_x (r, mid), y + h / 2);
    g_test_message ("tooltip: %s", text);
    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "Sleeping for"));
    g_assert_nonnull (strstr (text, "in read()"));
  }

  gtk_widget_activate_action (GTK_WIDGET (window), "win.why-slow", NULL);
  g_assert_true (seismo_gui_test_wait_for (path_ready, NULL, 60000));
  dialog = find_wait_dialog ();
  g_assert_nonnull (r->critical_path);
  g_assert_cmpuint (r->critical_path->len, ==, seismo_wait_dialog_get_n_segments (dialog));
  /* The read ended with a wakeup and a wait for the CPU: its runnable latency has a bar. */
  g_assert_cmpuint (seismo_wait_dialog_get_n_latency_bars (dialog), >, 0);
  /* The path of a read in a ping-pong leaves the task: its partner wrote. */
  {
    gboolean other = FALSE;

    for (guint i = 0; i < r->critical_path->len; i++)
      other |= g_array_index (r->critical_path, SeismoPathSegment, i).task != task;
    g_assert_true (other);
  }
  if (shots != NULL)
    {
      seismo_gui_test_spin (600);
      seismo_app_test_save_png (GTK_WIDGET (window), shots, "why-slow-timeline.png");
      seismo_app_test_save_png (GTK_WIDGET (dialog), shots, "why-slow.png");
    }
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (seismo_gui_test_wait_for (no_dialog, NULL, 10000));
  g_assert_null (r->critical_path);

  /* Nothing selected: the action says what to do instead of opening anything. */
  seismo_timeline_set_selected_event (timeline, SEISMO_NO_EVENT);
  g_assert_cmpuint (seismo_timeline_renderer_get_focus_task (r), ==, SEISMO_NO_TASK);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.why-slow", NULL);
  seismo_gui_test_spin (100);
  g_assert_null (find_wait_dialog ());
}

static void
test_app_wait (void)
{
  g_autofree char *sample = g_build_filename (g_getenv ("SEISMO_SOURCE_DIR"), "app", "resources",
                                              "samples", "pipe-pingpong.seismo", NULL);
  char *files[] = { sample };

  seismo_app_test_run (files, 1, checks);
}

int
main (int    argc,
      char **argv)
{
  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/app/why-slow", test_app_wait);
  return g_test_run ();
}

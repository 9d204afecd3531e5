/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The application under Xvfb with a filter applied: the list narrows to the matches, the panes
 * follow the filter and the markers, quick filters combine with the filter in force, and the
 * histogram pane's bucket click filters. With SEISMO_SCREENSHOT_DIR set, the window is saved as
 * filter.png, histogram.png and stats.png there (docs/screenshots/ come from this).
 */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"

static char *dir;
static char *trace_path;

/* A moment first: work the last step started may not have said it is busy yet. */
/* What the list shows now: a new filter result is a new model. */
static SeismoEventListModel *
listed (SeismoWindow *window)
{
  return seismo_event_list_get_model (window->event_list);
}

static void
wait_for (SeismoGuiTestCondition cond,
          gpointer               data)
{
  seismo_gui_test_spin (20);
  g_assert_true (seismo_gui_test_wait_for (cond, data, 60000));
}

static gboolean
has_trace (gpointer w)
{
  return seismo_window_get_trace (w) != NULL;
}

static gboolean
all_idle (gpointer w)
{
  return !seismo_filter_bar_get_busy (seismo_window_get_filter_bar (w))
         && !seismo_stats_view_get_busy (seismo_window_get_stats_view (w))
         && !seismo_histogram_view_get_busy (seismo_window_get_histogram_view (w));
}

/* Screenshots for the docs: a roomier window, without banners (the tests run as root). */
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

static GtkWidget *
find_entry (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_ENTRY (child))
        return child;
      if ((found = find_entry (child)) != NULL)
        return found;
    }
  return NULL;
}

/* The first column view in a widget tree: the stats pane's visible table is the first page. */
static GtkWidget *
find_column_view (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_COLUMN_VIEW (child) && gtk_widget_get_mapped (child))
        return child;
      if ((found = find_column_view (child)) != NULL)
        return found;
    }
  return NULL;
}

/* The completion popover is a child of the bar. */
static GtkWidget *
find_popover (GtkWidget *bar)
{
  for (GtkWidget *child = gtk_widget_get_first_child (bar); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      return child;
  return NULL;
}

static gboolean
completion_shown (gpointer bar)
{
  GtkWidget *popover = find_popover (bar);

  return popover != NULL && gtk_widget_get_visible (popover);
}

static gboolean
rate_idle (gpointer r)
{
  return !seismo_rate_view_get_busy (r);
}

static void
screenshot (SeismoWindow *window,
            const char   *name)
{
  const char *out = g_getenv ("SEISMO_SCREENSHOT_DIR");

  if (out == NULL)
    return;
  seismo_gui_test_spin (500);
  seismo_app_test_save_png (GTK_WIDGET (window), out, name);
}

/* Events the expression matches, by the data layer alone. */
static gsize
brute_count (SeismoTrace *trace,
             const char  *expression)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, expression, &error);
  gsize n = 0;

  g_assert_no_error (error);
  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    n += seismo_filter_match (filter, (SeismoEventId) i);
  return n;
}

static void
check_window (SeismoWindow *window)
{
  SeismoFilterBar *bar = seismo_window_get_filter_bar (window);
  SeismoStatsView *stats = seismo_window_get_stats_view (window);
  SeismoHistogramView *hist = seismo_window_get_histogram_view (window);
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  SeismoTrace *trace;
  g_autofree char *expected = NULL;
  const SeismoEventType *type;
  gsize n;

  if (g_getenv ("SEISMO_SCREENSHOT_DIR") != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), 1500, 960);
      hide_banners (GTK_WIDGET (window));
    }
  wait_for (has_trace, window);
  trace = seismo_window_get_trace (window);
  n = seismo_trace_get_n_events (trace);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (listed (window))), ==, n);
  wait_for (all_idle, window);

  /* A filter narrows the list; the panes follow. */
  g_assert_true (seismo_window_apply_filter (window, "cpu == 1 && comm ~ \"task-1*\""));
  wait_for (all_idle, window);
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==,
                    brute_count (trace, "cpu == 1 && comm ~ \"task-1*\""));
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), >, 0);
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), <, n);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (listed (window))), ==,
                    seismo_filter_bar_get_n_matched (bar));
  {
    g_autofree char *csv = seismo_stats_view_to_csv (stats, SEISMO_STATS_TABLE_CPU);

    const char *cpu0 = strstr (csv, "\nCPU 0,");

    /* Only CPU 1's events are counted: CPU 0, if listed (for its runs), has none. */
    g_assert_nonnull (strstr (csv, "\nCPU 1,"));
    g_assert_true (cpu0 == NULL || g_str_has_prefix (strchr (cpu0 + 1, '\n') - 2, ",0"));
  }
  /* The rate strip counts the matches (the view shows the whole trace). */
  {
    SeismoRateView *rate = seismo_window_get_rate_view (window);
    const guint32 *counts;
    guint n_cols;
    guint64 sum = 0;

    seismo_gui_test_spin (100);
    wait_for (rate_idle, rate);
    counts = seismo_rate_view_get_counts (rate, &n_cols);
    g_assert_nonnull (counts);
    for (guint i = 0; i < n_cols * (SEISMO_RATE_CATEGORIES + 1); i++)
      sum += counts[i];
    g_assert_cmpuint (sum, ==, seismo_filter_bar_get_n_matched (bar));
  }
  seismo_filter_bar_set_dim (bar, TRUE);
  screenshot (window, "filter.png");

  /* An invalid filter is refused; the one in force stays. */
  g_assert_false (seismo_window_apply_filter (window, "cpu == 1 && pdi == 3"));
  g_assert_cmpstr (seismo_window_get_filter (window), ==, "cpu == 1 && comm ~ \"task-1*\"");
  screenshot (window, "filter-error.png");
  /* Typing "cpu == 1 && co": completions for the word at the cursor. */
  {
    GtkWidget *entry = find_entry (GTK_WIDGET (bar));

    g_assert_nonnull (entry);
    gtk_widget_grab_focus (entry);
    gtk_editable_set_text (GTK_EDITABLE (entry), "cpu == 1 && co");
    gtk_editable_set_position (GTK_EDITABLE (entry), -1);
    wait_for (completion_shown, bar);
    screenshot (window, "filter-complete.png");
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  }

  /* Quick filter on the selected event: hide its type, on top of the filter in force. */
  {
    SeismoEventId e = seismo_match_set_get_nth (seismo_filter_bar_get_matches (bar), 0);

    type = seismo_trace_get_event_type (trace, seismo_trace_get_types (trace)[e]);
    seismo_timeline_set_selected_event (timeline, e);
    gtk_widget_activate_action (GTK_WIDGET (window), "win.filter-hide-event", NULL);
    expected = g_strdup_printf ("(cpu == 1 && comm ~ \"task-1*\") && !(event == %s:%s)",
                                type->system, type->name);
    wait_for (all_idle, window);
    g_assert_cmpstr (seismo_window_get_filter (window), ==, expected);
    g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, brute_count (trace, expected));
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (listed (window))), ==,
                      seismo_filter_bar_get_n_matched (bar));
  }

  /* "Only this CPU" from a clear filter. */
  g_assert_true (seismo_window_apply_filter (window, ""));
  wait_for (all_idle, window);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (listed (window))), ==, n);
  for (SeismoEventId e = 0; e < n; e++)
    if (seismo_trace_event_cpu (trace, e) == 2)
      {
        seismo_timeline_set_selected_event (timeline, e);
        break;
      }
  gtk_widget_activate_action (GTK_WIDGET (window), "win.filter-only-cpu", NULL);
  wait_for (all_idle, window);
  g_assert_cmpstr (seismo_window_get_filter (window), ==, "cpu == 2");
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, brute_count (trace, "cpu == 2"));
  g_assert_true (seismo_window_apply_filter (window, ""));

  /* Markers A and B: the panes count what lies between them. */
  {
    guint64 t0 = seismo_trace_get_start_ns (trace), t1 = seismo_trace_get_end_ns (trace);
    guint64 a = t0 + (t1 - t0) / 4, b = t0 + (t1 - t0) / 2;
    g_autofree char *csv = NULL;
    g_auto(GStrv) lines = NULL;
    guint64 sum = 0, inside = 0;

    seismo_timeline_set_marker (timeline, 0, a);
    seismo_timeline_set_marker (timeline, 1, b);
    wait_for (all_idle, window);
    csv = seismo_stats_view_to_csv (stats, SEISMO_STATS_TABLE_EVENT);
    lines = g_strsplit (csv, "\n", -1);
    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);

        sum += g_ascii_strtoull (f[1], NULL, 10);
      }
    for (gsize i = 0; i < n; i++)
      inside += seismo_trace_event_time (trace, i) >= a && seismo_trace_event_time (trace, i) <= b;
    g_assert_cmpuint (sum, ==, inside);
    g_assert_cmpuint (sum, <, n);
    seismo_timeline_clear_markers (timeline);
    wait_for (all_idle, window);
  }

  /* The rate strip lines up with the timeline, also when the view starts before the trace. */
  {
    SeismoRateView *rate = seismo_window_get_rate_view (window);
    SeismoTimelineRenderer *r = seismo_timeline_get_renderer (timeline);
    const guint32 *counts;
    guint n_cols, col = 0;
    double x;

    seismo_timeline_renderer_set_view (r, -0.05 * (seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace)),
                                       seismo_timeline_renderer_get_ns_per_px (r));
    gtk_widget_queue_draw (GTK_WIDGET (timeline));
    seismo_gui_test_spin (100);
    wait_for (rate_idle, rate);
    counts = seismo_rate_view_get_counts (rate, &n_cols);
    while (col < n_cols)
      {
        guint64 total = 0;

        for (guint k = 0; k <= SEISMO_RATE_CATEGORIES; k++)
          total += counts[col * (SEISMO_RATE_CATEGORIES + 1) + k];
        if (total > 0)
          break;
        col++;
      }
    x = seismo_timeline_renderer_ns_to_x (r, seismo_trace_event_time (trace, 0)) - SEISMO_TIMELINE_LABEL_WIDTH;
    g_test_message ("first event: timeline x %.1f, rate column %u", x, col);
    g_assert_cmpfloat (fabs (col - x), <=, 1.5);
  }

  /* The histogram pane: a click on a bucket filters to its syscalls. */
  seismo_window_show_pane (window, "histogram");
  g_assert_cmpstr (seismo_window_get_pane (window), ==, "histogram");
  wait_for (all_idle, window);
  screenshot (window, "histogram.png");
  {
    SeismoLatencyHistogram *h = seismo_histogram_view_get_histogram (hist);
    SeismoLatencyBucket bucket = { 0 };
    guint i;

    g_assert_nonnull (h);
    for (i = 0; i < seismo_latency_histogram_get_n_buckets (h); i++)
      {
        seismo_latency_histogram_get_bucket (h, i, &bucket);
        if (bucket.count > 0)
          break;
      }
    g_signal_emit_by_name (hist, "bucket-activated", i);
    wait_for (all_idle, window);
    g_assert_true (g_str_has_prefix (seismo_window_get_filter (window), "duration >= "));
    g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, 2 * bucket.count);
  }
  g_assert_true (seismo_window_apply_filter (window, "comm ~ \"task-1*\""));
  wait_for (all_idle, window);
  seismo_window_show_pane (window, "stats");
  seismo_stats_view_set_table (stats, SEISMO_STATS_TABLE_SYSCALL);
  wait_for (all_idle, window);
  screenshot (window, "stats.png");

  /* Double-clicking (activating) a row of the statistics filters to it. */
  {
    GtkWidget *view = find_column_view (GTK_WIDGET (stats));
    g_autofree char *expected_filter = NULL;

    g_assert_nonnull (view);
    expected_filter = g_strdup (seismo_stats_view_row_filter (stats, SEISMO_STATS_TABLE_SYSCALL, 0));
    g_assert_true (g_str_has_prefix (expected_filter, "syscall == "));
    g_signal_emit_by_name (view, "activate", 0);
    wait_for (all_idle, window);
    g_assert_cmpstr (seismo_window_get_filter (window), ==, expected_filter);
    g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, brute_count (trace, expected_filter));
  }
}

static void
run_checks (SeismoApplication *app)
{
  check_window (seismo_app_test_only_window (app));
}

static void
test_app_filter (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (60000);
  g_autoptr(GError) error = NULL;

  g_assert_true (seismo_trace_save (trace, trace_path, &error));
  g_assert_no_error (error);
  g_setenv ("SEISMO_SAMPLES_DIR", dir, TRUE);
  seismo_app_test_run (&trace_path, 1, run_checks);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  dir = g_dir_make_tmp ("seismo-test-app-filter-XXXXXX", NULL);
  /* The filter history goes here, not into the user's state folder. */
  g_setenv ("XDG_STATE_HOME", dir, TRUE);
  trace_path = g_build_filename (dir, "busy.seismo", NULL);
  g_test_add_func ("/app/filter-panes", test_app_filter);
  ret = g_test_run ();
  seismo_gui_test_remove_dir (dir);
  return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analysis widgets on their own, under Xvfb: the statistics tables (figures, sorting, CSV,
 * the picture), the latency histogram (counts, bucket filters, linear buckets, the picture), the
 * rate strip's picture, the filter bar (worker evaluation against brute force, errors,
 * history, masks) and the bar and event list bound to one SeismoView (filter as you type, the
 * list following the result and keeping the selected event by id). Pictures are drawn on image surfaces and their pixels checked.
 */

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "seismo-text-cell.h"
#include "seismo-event-list.h"
#include "seismo-file.h"
#include "seismo-file-summary.h"
#include "seismo-filter-bar.h"
#include "seismo-gui-test-util.h"
#include "seismo-histogram-view.h"
#include "seismo-rate-view.h"
#include "seismo-stats-view.h"
#include "seismo-timeline.h"
#include "seismo-timeline-renderer.h"
#include "seismo-widgets.h"

static char *state_dir;

typedef gboolean (*Busy) (gpointer self);

static void
wait_idle (gpointer self,
           Busy     busy)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  /* A frame or two first, so that a worker started by the call under test is seen as busy. */
  for (guint i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);
  while (busy (self))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (500);
    }
}

static gboolean stats_busy (gpointer s) { return seismo_stats_view_get_busy (s); }
static gboolean hist_busy (gpointer s) { return seismo_histogram_view_get_busy (s); }
static gboolean bar_busy (gpointer s) { return seismo_filter_bar_get_busy (s); }

/* Pixels darker than mid-gray in a rectangle of an RGB24 surface. */
static guint
dark_pixels (cairo_surface_t *surface,
             int              x0,
             int              y0,
             int              x1,
             int              y1)
{
  const guint8 *data;
  int stride;
  guint n = 0;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        guint32 p = *(const guint32 *) (data + y * stride + x * 4);
        guint lum = (((p >> 16) & 0xff) + ((p >> 8) & 0xff) + (p & 0xff)) / 3;

        n += lum < 128;
      }
  return n;
}

static guint32
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  cairo_surface_flush (surface);
  return *(const guint32 *) (cairo_image_surface_get_data (surface)
                             + y * cairo_image_surface_get_stride (surface) + x * 4) & 0xffffff;
}

/* The CSV line whose first field is name; NULL when none. */
static char *
csv_line (const char *csv,
          const char *name)
{
  g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autofree char *prefix = g_strconcat (name, ",", NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);
  return NULL;
}

static guint64 *
filter_mask (SeismoTrace *trace,
             const char  *expression,
             gsize       *n_matched)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, expression, &error);

  g_assert_no_error (error);
  return seismo_filter_run (filter, n_matched, NULL);
}

static void
test_stats (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_small_trace ();
  SeismoStatsView *view = SEISMO_STATS_VIEW (g_object_ref_sink (seismo_stats_view_new ()));
  g_autofree char *csv = NULL;
  g_autofree char *line = NULL;
  g_autofree guint64 *mask = NULL;
  g_autoptr(GBytes) mask_bytes = NULL;
  GListModel *rows;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint full_dark, empty_dark;
  gsize n_matched;
  guint64 sum = 0;

  seismo_stats_view_set_trace (view, trace);
  wait_idle (view, stats_busy);

  /* Per syscall, like strace -c: write failed with EAGAIN; read is 1000 of 2100 ns. */
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_SYSCALL);
  g_assert_true (g_str_has_prefix (csv, "syscall,percent_time,total_ns,avg_ns,max_ns,calls,errors\n"));
  line = csv_line (csv, "read");
  g_assert_cmpstr (line, ==, "read,47.619,1000,1000,1000,1,0");
  g_clear_pointer (&line, g_free);
  line = csv_line (csv, "write");
  g_assert_cmpstr (line, ==, "write,47.619,1000,1000,1000,1,1");
  g_clear_pointer (&line, g_free);
  line = csv_line (csv, "getpid");
  g_assert_cmpstr (line, ==, "getpid,4.762,100,100,100,1,0");
  g_clear_pointer (&line, g_free);
  g_clear_pointer (&csv, g_free);

  /* Rows give filters; sorting by name ascending puts alpha first. */
  rows = seismo_stats_view_get_rows (view, SEISMO_STATS_TABLE_TASK);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 3);
  seismo_stats_view_sort_by (view, SEISMO_STATS_TABLE_TASK, 0, GTK_SORT_ASCENDING);
  g_assert_cmpstr (seismo_stats_view_row_filter (view, SEISMO_STATS_TABLE_TASK, 0), ==, "tid == 100");
  seismo_stats_view_sort_by (view, SEISMO_STATS_TABLE_TASK, 0, GTK_SORT_DESCENDING);
  g_assert_cmpstr (seismo_stats_view_row_filter (view, SEISMO_STATS_TABLE_TASK, 0), !=, "tid == 100");

  /* Event counts add up to the trace. */
  rows = seismo_stats_view_get_rows (view, SEISMO_STATS_TABLE_EVENT);
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_EVENT);
  {
    g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);

    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);

        sum += g_ascii_strtoull (f[1], NULL, 10);
      }
  }
  g_assert_cmpuint (sum, ==, seismo_trace_get_n_events (trace));
  g_clear_pointer (&csv, g_free);

  /* The picture has its rows… */
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 640, 300);
  cr = cairo_create (surface);
  seismo_stats_view_render (view, SEISMO_STATS_TABLE_SYSCALL, cr, 640, 300, FALSE);
  full_dark = dark_pixels (surface, 0, 60, 640, 300);

  /* …and a filter on CPU 1 leaves read (on CPU 0) out. */
  mask = filter_mask (trace, "cpu == 1", &n_matched);
  mask_bytes = g_bytes_new_take (g_steal_pointer (&mask),
                                 seismo_filter_mask_words (seismo_trace_get_n_events (trace)) * 8);
  seismo_stats_view_set_selection (view, 0, G_MAXUINT64, mask_bytes);
  wait_idle (view, stats_busy);
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_SYSCALL);
  line = csv_line (csv, "read");
  g_assert_null (line);
  line = csv_line (csv, "write");
  g_assert_nonnull (line);
  g_clear_pointer (&csv, g_free);

  /* No trace, no rows: the picture's row area goes blank. */
  seismo_stats_view_set_trace (view, NULL);
  wait_idle (view, stats_busy);
  seismo_stats_view_render (view, SEISMO_STATS_TABLE_SYSCALL, cr, 640, 300, FALSE);
  empty_dark = dark_pixels (surface, 0, 60, 640, 300);
  g_test_message ("stats picture: %u dark pixels with rows, %u without", full_dark, empty_dark);
  g_assert_cmpuint (full_dark, >, 200);
  g_assert_cmpuint (empty_dark, <, full_dark / 10);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_object_unref (view);
}

static gboolean
is_bar_blue (guint32 p)
{
  int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

  return b > 180 && r < 120 && g > 100 && g < 170;
}

static void
test_histogram (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (20000);
  SeismoHistogramView *view = SEISMO_HISTOGRAM_VIEW (g_object_ref_sink (seismo_histogram_view_new ()));
  g_autoptr(GArray) samples = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, NULL, -1);
  SeismoLatencyHistogram *h;
  SeismoLatencySummary s;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint checked = 0;
  int first = -1;

  seismo_histogram_view_set_trace (view, trace);
  wait_idle (view, hist_busy);
  h = seismo_histogram_view_get_histogram (view);
  g_assert_nonnull (h);
  g_assert_cmpint (seismo_latency_histogram_get_scale (h), ==, SEISMO_HISTOGRAM_LOG2);
  seismo_latency_histogram_get_summary (h, &s);
  g_assert_cmpuint (s.count, ==, samples->len);
  g_assert_cmpuint (s.count, >, 100);

  /* Every non-empty bucket has a bar where a click finds it. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 420);
  cr = cairo_create (surface);
  seismo_histogram_view_render (view, cr, 600, 420, FALSE);
  for (int y = 0; y < 420; y++)
    {
      int b = seismo_histogram_view_bucket_at (view, 600, 420, 130, y);
      SeismoLatencyBucket bucket;

      if (b < 0)
        continue;
      if (first < 0)
        first = b;
      seismo_latency_histogram_get_bucket (h, (guint) b, &bucket);
      if (bucket.count > 0 && seismo_histogram_view_bucket_at (view, 600, 420, 130, y - 2) == b
          && seismo_histogram_view_bucket_at (view, 600, 420, 130, y + 2) == b)
        {
          g_assert_true (is_bar_blue (pixel (surface, 123, y)));
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 0);
  g_assert_cmpint (first, >=, 0);

  /* A bucket's filter keeps the enter and exit of exactly its syscalls. */
  {
    SeismoLatencyBucket bucket;
    g_autofree char *expression = seismo_histogram_view_bucket_filter (view, (guint) first);
    g_autofree guint64 *mask = NULL;
    gsize n_matched = 0;

    seismo_latency_histogram_get_bucket (h, (guint) first, &bucket);
    g_assert_nonnull (expression);
    g_test_message ("bucket %d: %s", first, expression);
    mask = filter_mask (trace, expression, &n_matched);
    g_assert_cmpuint (n_matched, ==, 2 * bucket.count);
  }

  /* Linear buckets: same samples, other edges. */
  seismo_histogram_view_set_scale (view, SEISMO_HISTOGRAM_LINEAR);
  wait_idle (view, hist_busy);
  h = seismo_histogram_view_get_histogram (view);
  g_assert_cmpint (seismo_latency_histogram_get_scale (h), ==, SEISMO_HISTOGRAM_LINEAR);
  seismo_latency_histogram_get_summary (h, &s);
  g_assert_cmpuint (s.count, ==, samples->len);
  {
    g_autofree char *csv = seismo_histogram_view_to_csv (view);
    g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
    guint64 total = 0;

    g_assert_nonnull (strstr (csv, "lower_ns,upper_ns,count\n"));
    for (guint i = 3; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);

        total += g_ascii_strtoull (f[2], NULL, 10);
      }
    g_assert_cmpuint (total, ==, samples->len);
  }

  /* Wakeup latency and time on CPU count what the data layer collects. */
  {
    g_autoptr(GArray) wakeups = seismo_latency_collect (trace, SEISMO_LATENCY_WAKEUP, NULL, -1);

    seismo_histogram_view_set_measure (view, SEISMO_HISTOGRAM_OF_WAKEUP, -1, 0, 0);
    wait_idle (view, hist_busy);
    seismo_latency_histogram_get_summary (seismo_histogram_view_get_histogram (view), &s);
    g_assert_cmpuint (s.count, ==, wakeups->len);
  }
  /* A bucket's mask holds both ends of its samples. */
  seismo_histogram_view_set_measure (view, SEISMO_HISTOGRAM_OF_RUNTIME, -1, 0, 0);
  wait_idle (view, hist_busy);
  h = seismo_histogram_view_get_histogram (view);
  seismo_latency_histogram_get_summary (h, &s);
  {
    g_autoptr(GArray) runs = seismo_latency_collect (trace, SEISMO_LATENCY_RUNTIME, NULL, -1);

    g_assert_cmpuint (s.count, ==, runs->len);
  }
  g_assert_cmpuint (s.count, >, 0);
  for (guint i = 0; i < seismo_latency_histogram_get_n_buckets (h); i++)
    {
      SeismoLatencyBucket bucket;
      g_autofree char *label = NULL;
      g_autoptr(GBytes) mask = NULL;
      const guint64 *words;
      gsize n_words, bits = 0;

      seismo_latency_histogram_get_bucket (h, i, &bucket);
      if (bucket.count == 0)
        continue;
      g_assert_null (seismo_histogram_view_bucket_filter (view, i));
      mask = seismo_histogram_view_bucket_mask (view, i, &label);
      words = g_bytes_get_data (mask, &n_words);
      for (gsize w = 0; w < n_words / 8; w++)
        bits += (gsize) __builtin_popcountll (words[w]);
      g_assert_cmpuint (bits, >=, bucket.count);
      g_assert_cmpuint (bits, <=, 2 * bucket.count);
      g_assert_nonnull (strstr (label, "Time on CPU"));
      break;
    }

  /* Gap sys_enter → sys_exit on the same task: one per finished syscall at most. */
  {
    const SeismoEventType *en = seismo_trace_find_event_type (trace, "raw_syscalls:sys_enter");
    const SeismoEventType *ex = seismo_trace_find_event_type (trace, "raw_syscalls:sys_exit");

    g_assert_nonnull (en);
    g_assert_nonnull (ex);
    seismo_histogram_view_set_measure (view, SEISMO_HISTOGRAM_OF_GAP, -1, en->id, ex->id);
    wait_idle (view, hist_busy);
    seismo_latency_histogram_get_summary (seismo_histogram_view_get_histogram (view), &s);
    g_assert_cmpuint (s.count, >, 0);
    g_assert_cmpuint (s.count, <=, samples->len + 64);
  }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_object_unref (view);
}

/* How many of the strip's category colors cover more than a few pixels of its bar area. */
static guint
bar_colors (cairo_surface_t *surface,
            int              width,
            int              height)
{
  static const guint32 palette[] = { 0x3584e4, 0xe66100, 0x2ec27e, 0x9141ac, 0xe5a50a, 0xc01c28 };
  guint hits[G_N_ELEMENTS (palette)] = { 0 };
  guint n = 0;

  for (int y = 20; y < height - 2; y++)
    for (int x = SEISMO_TIMELINE_LABEL_WIDTH; x < width; x++)
      {
        guint32 p = pixel (surface, x, y);
        guint best = 0;
        int best_d = G_MAXINT;

        for (guint k = 0; k < G_N_ELEMENTS (palette); k++)
          {
            int dr = (int) ((p >> 16) & 0xff) - (int) ((palette[k] >> 16) & 0xff);
            int dg = (int) ((p >> 8) & 0xff) - (int) ((palette[k] >> 8) & 0xff);
            int db = (int) (p & 0xff) - (int) (palette[k] & 0xff);
            int d = dr * dr + dg * dg + db * db;

            if (d < best_d)
              best_d = d, best = k;
          }
        /* Bars are drawn at 90 % over white: close to the palette color, not exactly it. */
        if (best_d < 40 * 40)
          hits[best]++;
      }
  for (guint k = 0; k < G_N_ELEMENTS (palette); k++)
    n += hits[k] > 20;
  return n;
}

static void
test_rate (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (20000);
  gsize n = seismo_trace_get_n_events (trace);
  guint64 t0 = seismo_trace_get_start_ns (trace);
  double ns_per_px = (double) (seismo_trace_get_end_ns (trace) - t0 + 1) / 600;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 60);
  cairo_t *cr = cairo_create (surface);
  g_autofree guint64 *one = NULL;
  g_autoptr(GBytes) one_bytes = NULL;
  g_autoptr(GBytes) none = g_bytes_new_take (g_new0 (guint64, seismo_filter_mask_words (n)),
                                             seismo_filter_mask_words (n) * 8);
  gsize n_matched;
  guint all_colors, one_colors, no_colors;

  seismo_rate_view_render (trace, NULL, SEISMO_RATE_BY_TYPE, t0, ns_per_px, cr, 800, 60);
  all_colors = bar_colors (surface, 800, 60);
  one = filter_mask (trace, "sched:sched_switch", &n_matched);
  g_assert_cmpuint (n_matched, >, 0);
  one_bytes = g_bytes_new_take (g_steal_pointer (&one), seismo_filter_mask_words (n) * 8);
  seismo_rate_view_render (trace, one_bytes, SEISMO_RATE_BY_TYPE, t0, ns_per_px, cr, 800, 60);
  one_colors = bar_colors (surface, 800, 60);
  seismo_rate_view_render (trace, none, SEISMO_RATE_BY_TASK, t0, ns_per_px, cr, 800, 60);
  no_colors = bar_colors (surface, 800, 60);
  g_test_message ("rate strip colors: all %u, one type %u, none %u", all_colors, one_colors, no_colors);
  g_assert_cmpuint (all_colors, >=, 3);
  g_assert_cmpuint (one_colors, ==, 1);
  g_assert_cmpuint (no_colors, ==, 0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* A trace larger than memory: the strip counts the whole trace, its summary where no events are
 * read, its events where they are. */
/* The sum of a CSV column (events: the Events column of a table), and the number of rows. */
static guint64
csv_column_sum (const char *csv,
                guint       column,
                guint      *n_rows)
{
  g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
  guint64 sum = 0;

  *n_rows = 0;
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;

      if (lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (fields), >, column);
      sum += g_ascii_strtoull (fields[column], NULL, 10);
      (*n_rows)++;
    }
  return sum;
}

/* trace saved at path and opened as a trace larger than memory: its summary, and a window of
 * 65,536 of its events around the middle (less than half of them). */
static SeismoTrace *
open_as_larger_than_memory (SeismoTrace        *trace,
                            const char         *path,
                            SeismoFileSummary **summary)
{
  guint64 t0 = seismo_trace_get_start_ns (trace), t1 = seismo_trace_get_end_ns (trace);
  g_autoptr(GError) error = NULL;
  SeismoTrace *window_trace;

  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_no_error (error);
  *summary = seismo_file_summary_open (path, &error);
  g_assert_no_error (error);
  window_trace = seismo_file_summary_load_window (*summary, t0 + (t1 - t0) / 2, t0 + (t1 - t0) / 2 + 1,
                                                  65536, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (window_trace), <, seismo_trace_get_n_events (trace) / 2);
  return window_trace;
}

/* A trace larger than memory (its loaded window and the file's summary): the whole trace's
 * statistics are the summary's (the full trace's), not the window's; a range beyond the window
 * counts the summary's chunks; a filter counts the loaded events. */
static void
test_stats_summary (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (400000);
  g_autofree char *path = g_build_filename (state_dir, "stats-summary.seismo", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFileSummary) summary = NULL;
  g_autoptr(SeismoTrace) window_trace = NULL;
  SeismoStatsView *view = SEISMO_STATS_VIEW (g_object_ref_sink (seismo_stats_view_new ()));
  guint64 t0 = seismo_trace_get_start_ns (trace), t1 = seismo_trace_get_end_ns (trace);
  guint64 n = seismo_trace_get_n_events (trace), a, b, expected = 0;
  g_autoptr(GArray) types = seismo_stats_by_type (trace, NULL);
  g_autoptr(GArray) tasks = seismo_stats_by_task (trace, NULL);
  g_autoptr(GArray) syscalls = seismo_stats_by_syscall (trace, NULL);
  g_autofree guint64 *range_counts = NULL;
  g_autofree char *csv = NULL;
  guint n_rows, n_types = 0, n_calls = 0;
  guint64 calls = 0;

  window_trace = open_as_larger_than_memory (trace, path, &summary);

  seismo_stats_view_set_summary (view, summary);
  seismo_stats_view_set_trace (view, window_trace);

  /* Whole trace: every event of the file, by type, CPU and task; every syscall. */
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_EVENT);
  g_assert_cmpuint (csv_column_sum (csv, 1, &n_rows), ==, n);
  for (guint i = 0; i < types->len; i++)
    n_types += g_array_index (types, SeismoTypeStats, i).count > 0;
  g_assert_cmpuint (n_rows, ==, n_types);
  g_clear_pointer (&csv, g_free);
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_CPU);
  g_assert_cmpuint (csv_column_sum (csv, 4, &n_rows), ==, n);
  g_clear_pointer (&csv, g_free);
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_TASK);
  g_assert_cmpuint (csv_column_sum (csv, 9, &n_rows), ==, n);
  g_assert_cmpuint (n_rows, ==, tasks->len);
  g_clear_pointer (&csv, g_free);
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_SYSCALL);
  for (guint i = 0; i < syscalls->len; i++)
    {
      calls += g_array_index (syscalls, SeismoSyscallStats, i).calls;
      n_calls += g_array_index (syscalls, SeismoSyscallStats, i).calls > 0
                 || g_array_index (syscalls, SeismoSyscallStats, i).unfinished > 0;
    }
  g_assert_cmpuint (csv_column_sum (csv, 5, &n_rows), ==, calls);
  g_assert_cmpuint (n_rows, ==, n_calls);
  g_assert_cmpuint (calls, >, 0);
  g_clear_pointer (&csv, g_free);

  /* Another window read (the view moved on): still the whole trace's figures. */
  {
    g_autoptr(SeismoTrace) later = seismo_file_summary_load_window (summary, t1 - (t1 - t0) / 10, t1, 65536,
                                                                    NULL, &error);

    g_assert_no_error (error);
    seismo_stats_view_set_trace (view, later);
    csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_EVENT);
    g_assert_cmpuint (csv_column_sum (csv, 1, &n_rows), ==, n);
    g_clear_pointer (&csv, g_free);
    seismo_stats_view_set_trace (view, window_trace);
  }

  /* A range before the loaded window: the summary's event type counts over its chunks. */
  a = t0 + (t1 - t0) / 10;
  b = t0 + (t1 - t0) / 5;
  g_assert_cmpuint (b, <, seismo_trace_get_times (window_trace)[0]);
  seismo_stats_view_set_selection (view, a, b, NULL);
  range_counts = seismo_file_summary_range_type_counts (summary, a, b, NULL);
  for (guint i = 0; i < seismo_trace_get_n_event_types (trace); i++)
    expected += range_counts[i];
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_EVENT);
  g_assert_cmpuint (csv_column_sum (csv, 1, &n_rows), ==, expected);
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, n / 2);
  g_clear_pointer (&csv, g_free);
  /* Syscalls from the summary's totals by chunk (format 1.3), not the window's events. */
  {
    g_autoptr(GArray) range_syscalls = seismo_file_summary_range_stats_by_syscall (summary, a, b);
    guint64 range_calls = 0;

    g_assert_nonnull (range_syscalls);
    for (guint i = 0; i < range_syscalls->len; i++)
      range_calls += g_array_index (range_syscalls, SeismoSyscallStats, i).calls;
    csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_SYSCALL);
    g_assert_cmpuint (csv_column_sum (csv, 5, &n_rows), ==, range_calls);
    g_assert_cmpuint (n_rows, ==, range_syscalls->len);
    g_assert_cmpuint (range_calls, >, 0);
    g_clear_pointer (&csv, g_free);
  }
  /* Every CPU, from the level-of-detail buckets. */
  csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_CPU);
  g_assert_cmpuint (csv_column_sum (csv, 4, &n_rows), >, 0);
  g_assert_cmpuint (n_rows, ==, seismo_trace_get_n_cpus (trace));
  g_clear_pointer (&csv, g_free);

  /* A filter runs over the loaded events: those it keeps are counted. */
  {
    gsize n_matched;
    g_autofree guint64 *mask = filter_mask (window_trace, "cpu == 0", &n_matched);
    g_autoptr(GBytes) bytes = g_bytes_new (mask, seismo_filter_mask_words (seismo_trace_get_n_events (window_trace))
                                                 * sizeof (guint64));

    seismo_stats_view_set_selection (view, 0, G_MAXUINT64, bytes);
    csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_EVENT);
    g_assert_cmpuint (csv_column_sum (csv, 1, &n_rows), ==, n_matched);
    g_assert_cmpuint (n_matched, >, 0);
    g_clear_pointer (&csv, g_free);
  }

  /* A range inside the loaded window: its events, exactly. */
  {
    const guint64 *times = seismo_trace_get_times (window_trace);
    guint64 w0 = times[0], w1 = times[seismo_trace_get_n_events (window_trace) - 1];
    SeismoSelection sel = { w0 + (w1 - w0) / 4, w0 + (w1 - w0) / 2, NULL };
    g_autoptr(GArray) full = seismo_stats_by_type (trace, &sel);

    expected = 0;
    for (guint i = 0; i < full->len; i++)
      expected += g_array_index (full, SeismoTypeStats, i).count;
    seismo_stats_view_set_selection (view, sel.start_ns, sel.end_ns, NULL);
    csv = seismo_stats_view_to_csv (view, SEISMO_STATS_TABLE_EVENT);
    g_assert_cmpuint (csv_column_sum (csv, 1, &n_rows), ==, expected);
    g_clear_pointer (&csv, g_free);
  }

  seismo_stats_view_set_summary (view, NULL);
  seismo_stats_view_set_trace (view, NULL);
  g_object_unref (view);
  g_unlink (path);
}

static void
test_rate_summary (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (400000);
  g_autofree char *path = g_build_filename (state_dir, "rate-summary.seismo", NULL);
  g_autoptr(SeismoFileSummary) summary = NULL;
  g_autoptr(SeismoTrace) window_trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  SeismoTimeline *timeline = SEISMO_TIMELINE (seismo_timeline_new ());
  SeismoRateView *rate = SEISMO_RATE_VIEW (seismo_rate_view_new ());
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  const guint32 *counts = NULL;
  guint n_cols = 0;
  guint64 sum = 0, n = seismo_trace_get_n_events (trace);

  window_trace = open_as_larger_than_memory (trace, path, &summary);
  data = seismo_timeline_data_new_for_window (window_trace, summary, NULL);
  gtk_widget_set_size_request (GTK_WIDGET (timeline), 800, 300);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (rate));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (timeline));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  seismo_timeline_set_data (timeline, data);
  seismo_rate_view_set_timeline (rate, timeline);
  for (guint i = 0; i < 200 && (counts == NULL || seismo_rate_view_get_busy (rate)); i++)
    {
      seismo_gui_test_spin (20);
      gtk_widget_queue_draw (GTK_WIDGET (timeline));
      counts = seismo_rate_view_get_counts (rate, &n_cols);
    }
  g_assert_nonnull (counts);
  for (gsize i = 0; i < (gsize) n_cols * (SEISMO_RATE_CATEGORIES + 1); i++)
    sum += counts[i];
  /* Every event of the whole trace, read or not (a column at the window's edge counts either its
   * events or the summary's share: within a percent). */
  g_test_message ("rate strip of a summary: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events", sum, n);
  g_assert_cmpuint (sum, >, n - n / 100);
  g_assert_cmpuint (sum, <, n + n / 100);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
history_starts_with_cpu1 (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && g_str_has_prefix (contents, "cpu == 1\n");
}

static void
test_filter_bar (void)
{
  /* SEISMO_TEST_FILTER_EVENTS=10000000 measures the main loop's longest stall on a big trace. */
  const char *env = g_getenv ("SEISMO_TEST_FILTER_EVENTS");
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (env != NULL ? (guint) atoi (env) : 1500000);
  SeismoFilterBar *bar = SEISMO_FILTER_BAR (g_object_ref_sink (seismo_filter_bar_new ()));
  GtkWidget *window = gtk_window_new ();
  gsize n = seismo_trace_get_n_events (trace), expected = 0;
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  const guint64 *mask;
  g_autoptr(GBytes) match_ids = NULL;
  const guint32 *ids;
  gsize size;
  g_autofree char *history = g_build_filename (state_dir, "seismo", "filter-history", NULL);
  g_autofree char *contents = NULL;
  guint iterations = 0;
  gint64 last, longest = 0, started;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (bar));
  gtk_window_present (GTK_WINDOW (window));
  seismo_filter_bar_set_trace (bar, trace);
  g_assert_null (seismo_filter_bar_get_mask (bar));

  /* Evaluation runs on a worker: apply returns at once and the main loop keeps running. */
  started = last = g_get_monotonic_time ();
  g_assert_true (seismo_filter_bar_apply (bar, "cpu == 1"));
  g_assert_true (seismo_filter_bar_get_busy (bar));
  while (seismo_filter_bar_get_busy (bar))
    {
      gint64 now;

      g_main_context_iteration (NULL, FALSE);
      now = g_get_monotonic_time ();
      longest = MAX (longest, now - last);
      last = now;
      g_usleep (200);
      iterations++;
    }
  g_test_message ("filtering %zu events took %.1f ms; %u main loop iterations meanwhile, the longest "
                  "%.1f ms (apply and compile included)", n, (last - started) / 1e3, iterations,
                  longest / 1e3);
  g_assert_cmpuint (iterations, >, 1);

  for (gsize i = 0; i < n; i++)
    expected += cpus[i] == 1;
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, expected);
  mask = g_bytes_get_data (seismo_filter_bar_get_mask (bar), NULL);
  match_ids = seismo_match_set_to_ids (seismo_filter_bar_get_matches (bar));
  ids = g_bytes_get_data (match_ids, &size);
  g_assert_cmpuint (size / 4, ==, expected);
  for (gsize i = 0, k = 0; i < n; i++)
    {
      gboolean bit = (mask[i / 64] >> (i % 64)) & 1;

      g_assert_cmpint (bit, ==, cpus[i] == 1);
      if (bit)
        g_assert_cmpuint (ids[k++], ==, i);
    }
  g_assert_cmpstr (seismo_filter_bar_get_applied (bar), ==, "cpu == 1");

  /* A bad expression is refused and the result in force stays. */
  g_assert_false (seismo_filter_bar_apply (bar, "pdi == 3"));
  g_assert_false (seismo_filter_bar_get_busy (bar));
  g_assert_cmpstr (seismo_filter_bar_get_applied (bar), ==, "cpu == 1");

  /* History: newest first, in the state folder (written off the main thread). */
  g_assert_cmpstr (seismo_filter_bar_get_history (bar)[0], ==, "cpu == 1");
  g_assert_true (seismo_gui_test_wait_for (history_starts_with_cpu1, history, 5000));
  g_assert_true (g_file_get_contents (history, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "cpu == 1\n"));
  /* Its menu, made when it opens, newest first. */
  {
    GtkWidget *button = find_descendant (GTK_WIDGET (bar), GTK_TYPE_MENU_BUTTON);
    GMenuModel *menu;
    g_autofree char *label = NULL;

    g_assert_nonnull (button);
    gtk_menu_button_popup (GTK_MENU_BUTTON (button));
    menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));
    g_assert_nonnull (menu);
    g_assert_cmpint (g_menu_model_get_n_items (menu), >=, 1);
    g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
    g_assert_cmpstr (label, ==, "cpu == 1");
    gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  }

  /* A mask from elsewhere. */
  {
    guint64 *words = g_new0 (guint64, seismo_filter_mask_words (n));
    g_autoptr(GBytes) bytes = NULL;

    words[0] = 0x5;
    bytes = g_bytes_new_take (words, seismo_filter_mask_words (n) * 8);
    seismo_filter_bar_apply_mask (bar, bytes, "two events");
    g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, 2);
    g_assert_cmpstr (seismo_filter_bar_get_applied (bar), ==, "two events");
  }

  /* Clearing shows everything again. */
  seismo_filter_bar_clear (bar);
  g_assert_null (seismo_filter_bar_get_mask (bar));
  wait_idle (bar, bar_busy);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (bar);
}

static GtkWidget *
find_child (GtkWidget *widget,
            GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_child (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean view_busy (gpointer v) { return seismo_view_get_filter_busy (v); }

static void
test_view_binding (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (200000);
  g_autoptr(SeismoView) view = seismo_view_new ();
  SeismoFilterBar *bar = SEISMO_FILTER_BAR (seismo_filter_bar_new ());
  SeismoEventList *list = SEISMO_EVENT_LIST (seismo_event_list_new ());
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkEntry *entry;
  gsize n = seismo_trace_get_n_events (trace), n_cpu1 = 0;
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  SeismoEventId picked = SEISMO_NO_EVENT;
  guint results = 0;

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (bar));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (list));
  gtk_widget_set_size_request (GTK_WIDGET (list), 600, 300);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  seismo_filter_bar_set_view (bar, view);
  seismo_event_list_set_trace (list, trace);
  seismo_event_list_set_view (list, view);
  g_signal_connect_swapped (view, "result-changed", G_CALLBACK (g_atomic_int_inc), &results);
  seismo_view_set_trace (view, trace);
  /* A trace and no filter: nothing to apply, no result to announce. */
  g_assert_cmpuint (results, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (seismo_event_list_get_model (list))), ==, n);

  /* Typing applies after a pause, without Enter; an incomplete expression is not applied. */
  entry = GTK_ENTRY (find_child (GTK_WIDGET (bar), GTK_TYPE_ENTRY));
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "cpu ==");
  seismo_gui_test_spin (400);
  g_assert_cmpstr (seismo_view_get_filter_text (view), ==, "");
  gtk_editable_set_text (GTK_EDITABLE (entry), "cpu == 1");
  g_assert_cmpstr (seismo_view_get_filter_text (view), ==, "");
  seismo_gui_test_spin (400);
  g_assert_cmpstr (seismo_view_get_filter_text (view), ==, "cpu == 1");
  wait_idle (view, view_busy);
  for (gsize i = 0; i < n; i++)
    if (cpus[i] == 1)
      {
        n_cpu1++;
        if (picked == SEISMO_NO_EVENT && i > 1000)
          picked = (SeismoEventId) i;
      }
  g_assert_cmpuint (seismo_view_get_n_matched (view), ==, n_cpu1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (seismo_event_list_get_model (list))), ==, n_cpu1);

  /* The selection is the view's: set there, the list selects it; it survives clearing. */
  seismo_view_set_selected_event (view, picked);
  g_assert_cmpuint (seismo_event_list_get_selected_event (list), ==, picked);
  results = 0;
  seismo_filter_bar_clear (bar);
  seismo_filter_bar_clear (bar);
  g_assert_cmpuint (results, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (seismo_event_list_get_model (list))), ==, n);
  g_assert_cmpuint (seismo_event_list_get_selected_event (list), ==, picked);
  g_assert_cmpuint (seismo_view_get_selected_event (view), ==, picked);
  {
    GtkSelectionModel *selection =
      gtk_column_view_get_model (GTK_COLUMN_VIEW (find_child (GTK_WIDGET (list), GTK_TYPE_COLUMN_VIEW)));

    g_assert_true (gtk_selection_model_is_selected (selection, picked));
  }

  /* The text set in the view shows in the bar's entry. */
  g_assert_true (seismo_view_set_filter_text (view, "cpu == 0", NULL));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "cpu == 0");
  wait_idle (view, view_busy);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether node, or a node inside it, draws text. */
static gboolean
node_has_text (GskRenderNode *node)
{
  if (node == NULL)
    return FALSE;
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      return TRUE;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        if (node_has_text (gsk_container_node_get_child (node, i)))
          return TRUE;
      return FALSE;
    case GSK_CLIP_NODE:
      return node_has_text (gsk_clip_node_get_child (node));
    case GSK_TRANSFORM_NODE:
      return node_has_text (gsk_transform_node_get_child (node));
    default:
      return FALSE;
    }
}

static GskRenderNode *
cell_node (GtkWidget *cell)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (cell);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (cell), gtk_widget_get_height (cell));
  return gtk_snapshot_free_to_node (snapshot);
}

/* The list's cells: one line of the owner's font whatever the text, the text drawn, and what
 * they show readable back (the tests below find rows by it). */
static void
test_text_cell (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *number = seismo_text_cell_new (box, 1.0f, TRUE);
  GtkWidget *words = seismo_text_cell_new (box, 0.0f, FALSE);
  int h_number, h_words, h_empty;

  gtk_widget_set_size_request (window, 200, -1);
  gtk_box_append (GTK_BOX (box), number);
  gtk_box_append (GTK_BOX (box), words);
  gtk_window_set_child (GTK_WINDOW (window), box);
  seismo_text_cell_set_text (SEISMO_TEXT_CELL (number), "0.000012345");
  seismo_text_cell_set_text (SEISMO_TEXT_CELL (words),
                              "NR openat (ffffff9c, 7ffd12345678, 80000, 0, 0, 0) and on past the cell");
  gtk_window_present (GTK_WINDOW (window));
  while (gtk_widget_get_height (words) == 0)
    seismo_gui_test_spin (20);

  g_assert_cmpstr (seismo_text_cell_get_text (SEISMO_TEXT_CELL (number)), ==, "0.000012345");
  gtk_widget_measure (number, GTK_ORIENTATION_VERTICAL, -1, &h_number, NULL, NULL, NULL);
  gtk_widget_measure (words, GTK_ORIENTATION_VERTICAL, -1, &h_words, NULL, NULL, NULL);
  g_assert_cmpint (h_number, >, 4);
  g_assert_cmpint (h_number, ==, h_words);
  {
    g_autoptr(GskRenderNode) a = cell_node (number);
    g_autoptr(GskRenderNode) b = cell_node (words);

    g_assert_true (node_has_text (a));
    g_assert_true (node_has_text (b));
  }
  /* Empty: no text drawn, and the same height (rows never change height with their text). */
  seismo_text_cell_set_text (SEISMO_TEXT_CELL (words), "");
  gtk_widget_measure (words, GTK_ORIENTATION_VERTICAL, -1, &h_empty, NULL, NULL, NULL);
  g_assert_cmpint (h_empty, ==, h_words);
  {
    g_autoptr(GskRenderNode) c = cell_node (words);

    g_assert_false (node_has_text (c));
  }

  /* Sized by its text when asked (the statistics tables): the text's width in the owner's font,
   * measured again for a new text; numbers are never cut, words can be. */
  {
    int min, nat, min2, nat2, w_text;
    g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (box, "write");

    pango_layout_get_pixel_size (layout, &w_text, NULL);
    gtk_widget_measure (number, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
    g_assert_cmpint (nat, ==, 0);
    seismo_text_cell_set_fit_text (SEISMO_TEXT_CELL (number), TRUE);
    seismo_text_cell_set_fit_text (SEISMO_TEXT_CELL (words), TRUE);
    seismo_text_cell_set_text (SEISMO_TEXT_CELL (words), "write");
    gtk_widget_measure (number, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
    g_assert_cmpint (nat, >, 20);
    g_assert_cmpint (min, ==, nat);
    seismo_text_cell_set_text (SEISMO_TEXT_CELL (number), "0.000012345678");
    gtk_widget_measure (number, GTK_ORIENTATION_HORIZONTAL, -1, &min2, &nat2, NULL, NULL);
    g_assert_cmpint (nat2, >, nat);
    gtk_widget_measure (words, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
    g_assert_cmpint (nat, ==, w_text);
    g_assert_cmpint (min, ==, 0);
    gtk_widget_measure (words, GTK_ORIENTATION_VERTICAL, -1, &h_empty, NULL, NULL, NULL);
    g_assert_cmpint (h_empty, ==, h_words);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
collect_labels (GtkWidget *widget,
                GPtrArray *labels)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if ((GTK_IS_LABEL (child) || SEISMO_IS_TEXT_CELL (child))
          && gtk_widget_get_ancestor (child, GTK_TYPE_LIST_VIEW) != NULL)
        g_ptr_array_add (labels, child);
      collect_labels (child, labels);
    }
}

static GtkWidget *
label_showing (GPtrArray  *labels,
               const char *text)
{
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (GTK_IS_LABEL (labels->pdata[i]) ? gtk_label_get_text (labels->pdata[i])
                                                   : seismo_text_cell_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];
  return NULL;
}

/* A new list of events (a filter applied or cleared) keeps the list's row widgets, shows the new
 * events in them, and keeps the selected row where it was on screen: GTK 4.8 would remake every
 * row for a new model, and search every added row of a whole-list change. */
static void
test_event_list_keeps_rows (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (200000);
  SeismoEventList *list = SEISMO_EVENT_LIST (seismo_event_list_new ());
  GtkWidget *window = gtk_window_new ();
  g_autoptr(GPtrArray) before = g_ptr_array_new ();
  g_autoptr(GPtrArray) after = g_ptr_array_new ();
  g_autoptr(GArray) even = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));
  g_autoptr(SeismoMatchSet) matches = NULL;
  GtkWidget *selected_label;
  graphene_point_t at_before, at_after;
  guint kept = 0;

  gtk_widget_set_size_request (GTK_WIDGET (list), 600, 300);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (list));
  gtk_window_present (GTK_WINDOW (window));
  seismo_event_list_set_trace (list, trace);
  seismo_gui_test_spin (200);
  seismo_event_list_set_selected_event (list, 100000);
  /* Until the list has laid the selected row out. */
  for (guint i = 0; i < 100; i++)
    {
      g_ptr_array_set_size (before, 0);
      collect_labels (GTK_WIDGET (list), before);
      /* Shown, and laid out inside the list (GTK lays a scrolled-to row out a frame later). */
      if ((selected_label = label_showing (before, "100000")) != NULL &&
          gtk_widget_compute_point (selected_label, GTK_WIDGET (list), &GRAPHENE_POINT_INIT (0, 0), &at_before) &&
          at_before.y > 0 && at_before.y < 100 && gtk_widget_get_child_visible (gtk_widget_get_parent (selected_label)))
        break;
      seismo_gui_test_spin (50);
    }
  g_ptr_array_set_size (before, 0);
  seismo_gui_test_spin (100);
  collect_labels (GTK_WIDGET (list), before);
  g_assert_cmpuint (before->len, >, 7 * 5);
  selected_label = label_showing (before, "100000");
  g_assert_nonnull (selected_label);
  g_assert_true (gtk_widget_compute_point (selected_label, GTK_WIDGET (list), &GRAPHENE_POINT_INIT (0, 0), &at_before));
  for (guint i = 0; i < before->len; i++)
    g_object_add_weak_pointer (before->pdata[i], &before->pdata[i]);

  for (SeismoEventId e = 0; e < seismo_trace_get_n_events (trace); e += 2)
    g_array_append_val (even, e);
  matches = seismo_match_set_new_from_ids ((const SeismoEventId *) even->data, even->len,
                                           seismo_trace_get_n_events (trace));
  seismo_event_list_set_subset (list, matches);
  seismo_gui_test_spin (300);

  /* The same widgets, now showing even events only; the selected one in its place. */
  for (guint i = 0; i < before->len; i++)
    if (before->pdata[i] != NULL)
      {
        kept++;
        g_object_remove_weak_pointer (before->pdata[i], &before->pdata[i]);
      }
  g_assert_cmpuint (kept, >=, before->len * 9 / 10);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (seismo_event_list_get_model (list))), ==, even->len);
  g_assert_cmpuint (seismo_event_list_get_selected_event (list), ==, 100000);
  collect_labels (GTK_WIDGET (list), after);
  g_assert_null (label_showing (after, "100001"));
  g_assert_null (label_showing (after, "99999"));
  g_assert_nonnull (label_showing (after, "100002"));
  selected_label = label_showing (after, "100000");
  g_assert_nonnull (selected_label);
  g_assert_true (gtk_widget_compute_point (selected_label, GTK_WIDGET (list), &GRAPHENE_POINT_INIT (0, 0), &at_after));
  g_assert_cmpfloat_with_epsilon (at_after.y, at_before.y, 6.0);
  {
    GtkSelectionModel *selection =
      gtk_column_view_get_model (GTK_COLUMN_VIEW (find_child (GTK_WIDGET (list), GTK_TYPE_COLUMN_VIEW)));

    g_assert_true (gtk_selection_model_is_selected (selection, 50000));
  }

  /* Back to every event: the selected event is where it was, the odd ones are back. */
  seismo_event_list_set_subset (list, NULL);
  seismo_gui_test_spin (300);
  g_ptr_array_set_size (after, 0);
  collect_labels (GTK_WIDGET (list), after);
  g_assert_nonnull (label_showing (after, "100001"));
  selected_label = label_showing (after, "100000");
  g_assert_nonnull (selected_label);
  g_assert_true (gtk_widget_compute_point (selected_label, GTK_WIDGET (list), &GRAPHENE_POINT_INIT (0, 0), &at_after));
  g_assert_cmpfloat_with_epsilon (at_after.y, at_before.y, 6.0);
  g_assert_cmpuint (seismo_event_list_get_selected_event (list), ==, 100000);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The view's visible span drives the timeline: set there (a lesson, a session), the timeline
 * zooms to it; zoomed here, the view has the new span. And the panes follow the view's span and
 * filter without anyone pushing them. */
static void
test_view_drives_zoom (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (20000);
  g_autoptr(SeismoTimelineData) data = seismo_timeline_data_new (trace, NULL);
  g_autoptr(SeismoView) view = seismo_view_new ();
  SeismoTimeline *timeline = SEISMO_TIMELINE (seismo_timeline_new ());
  GtkWidget *window = gtk_window_new ();
  SeismoTimelineRenderer *r;
  guint64 t0 = seismo_trace_get_start_ns (trace), span = seismo_trace_get_end_ns (trace) - t0;
  guint64 start, end;
  double shown;

  gtk_widget_set_size_request (GTK_WIDGET (timeline), 800, 300);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (timeline));
  gtk_window_present (GTK_WINDOW (window));
  seismo_timeline_set_data (timeline, data);
  seismo_timeline_set_view (timeline, view);
  seismo_view_set_trace (view, trace);
  seismo_gui_test_spin (300);
  r = seismo_timeline_get_renderer (timeline);
  g_assert_nonnull (r);

  seismo_view_set_visible_span (view, t0 + span / 4, t0 + span / 2);
  seismo_gui_test_spin (100);
  shown = seismo_timeline_renderer_get_ns_per_px (r) * seismo_timeline_renderer_get_area_width (r);
  g_assert_cmpfloat (fabs (seismo_timeline_renderer_get_view_start (r) - span / 4.0), <=,
                     seismo_timeline_renderer_get_ns_per_px (r));
  g_assert_cmpfloat (fabs (shown - span / 4.0), <=, 2 * seismo_timeline_renderer_get_ns_per_px (r));

  /* Zoomed in the timeline: the view follows. */
  seismo_timeline_zoom_fit (timeline);
  seismo_gui_test_spin (100);
  seismo_view_get_visible_span (view, &start, &end);
  g_assert_cmpuint (start, <=, t0 + 1);
  g_assert_cmpuint (end, >=, t0 + span - span / 100);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_panes_follow_view (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (20000);
  g_autoptr(SeismoView) view = seismo_view_new ();
  SeismoStatsView *stats = SEISMO_STATS_VIEW (seismo_stats_view_new ());
  GtkWidget *window = gtk_window_new ();
  guint64 t0 = seismo_trace_get_start_ns (trace), span = seismo_trace_get_end_ns (trace) - t0;
  gsize n_in = 0, sum = 0;
  g_autofree char *csv = NULL;
  const guint64 *times = seismo_trace_get_times (trace);

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (stats));
  gtk_window_present (GTK_WINDOW (window));
  seismo_stats_view_set_view (stats, view);
  seismo_view_set_trace (view, trace);
  seismo_view_set_range (view, t0 + span / 4, t0 + span / 2);
  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    n_in += times[i] >= t0 + span / 4 && times[i] <= t0 + span / 2;
  seismo_gui_test_spin (50);
  wait_idle (stats, stats_busy);
  /* The Event table's counts add up to the events in the view's range. */
  csv = seismo_stats_view_to_csv (stats, SEISMO_STATS_TABLE_EVENT);
  {
    g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);

    for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);

        sum += g_ascii_strtoull (f[1], NULL, 10);
      }
  }
  g_assert_cmpuint (n_in, >, 0);
  g_assert_cmpuint (n_in, <, seismo_trace_get_n_events (trace));
  g_assert_cmpuint (sum, ==, n_in);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  state_dir = g_dir_make_tmp ("seismo-test-analysis-XXXXXX", NULL);
  /* The filter history goes here, not into the user's state folder. */
  g_setenv ("XDG_STATE_HOME", state_dir, TRUE);
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: run under xvfb-run");
      return 77;
    }
  seismo_widgets_init ();
  g_test_add_func ("/analysis/stats", test_stats);
  g_test_add_func ("/analysis/histogram", test_histogram);
  g_test_add_func ("/analysis/rate", test_rate);
  g_test_add_func ("/analysis/filter-bar", test_filter_bar);
  g_test_add_func ("/analysis/rate-summary", test_rate_summary);
  g_test_add_func ("/analysis/stats-summary", test_stats_summary);
  g_test_add_func ("/analysis/view-binding", test_view_binding);
  g_test_add_func ("/analysis/text-cell", test_text_cell);
  g_test_add_func ("/analysis/event-list-keeps-rows", test_event_list_keeps_rows);
  g_test_add_func ("/analysis/view-drives-zoom", test_view_drives_zoom);
  g_test_add_func ("/analysis/panes-follow-view", test_panes_follow_view);
  ret = g_test_run ();
  {
    g_autofree char *history = g_build_filename (state_dir, "seismo", "filter-history", NULL);
    g_autofree char *folder = g_build_filename (state_dir, "seismo", NULL);

    g_unlink (history);
    g_rmdir (folder);
    g_rmdir (state_dir);
  }
  return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where the filter overlay marks each row (seismo-filter-marks.c): for generated traces with
 * bursts, long gaps and events at the same time, and for several sets of matches, the marks of
 * every CPU and task row at many views (the whole trace down to the deepest zoom) must equal a
 * brute-force computation over a copy of the row's matches, with blocks of 2 to 128 matches (so
 * that rows span many pages of blocks), and every match in view must lie under a mark.
 */

#include <math.h>

#include "seismo-filter-marks-private.h"
#include "seismo-timeline-data.h"
#include "seismo-timeline-renderer.h"
#include "seismo-trace-builder.h"

#define WIDTH    1400
#define N_CPUS   6
#define N_TIDS   50

/* n events of one type over N_CPUS CPUs and N_TIDS tasks: tasks run in stretches on a CPU, time
 * goes by in bursts (several events at the same time, a few ns apart) and long gaps. */
static SeismoTrace *
make_trace (guint   n,
            guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  gint32 current[N_CPUS] = { 0 };
  guint64 t = 5000000;
  guint type;

  seismo_trace_builder_set_n_cpus (b, N_CPUS);
  type = seismo_trace_builder_add_event_type (b, "test", "tick", NULL, 0, "");
  for (gint32 k = 0; k < N_TIDS; k++)
    seismo_trace_builder_task (b, 100 + k);
  for (guint i = 0; i < n; i++)
    {
      guint cpu = g_rand_int_range (rand, 0, N_CPUS);
      guint r = g_rand_int_range (rand, 0, 1000);

      if (current[cpu] == 0 || g_rand_int_range (rand, 0, 40) == 0)
        current[cpu] = 100 + g_rand_int_range (rand, 0, N_TIDS);
      if (r < 300)
        ;                                       /* the same time as the last event */
      else if (r < 900)
        t += g_rand_int_range (rand, 1, 60);
      else if (r < 998)
        t += g_rand_int_range (rand, 60, 20000);
      else
        t += g_rand_int_range (rand, 1000000, 50000000);
      seismo_trace_builder_begin_event (b, t, cpu, current[cpu], type);
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (b);
}

typedef enum {
  MATCH_ALL,
  MATCH_CPU,
  MATCH_TASK,
  MATCH_SPARSE,
  MATCH_HALF,
  MATCH_NONE,
  N_MATCH_SETS
} MatchSet;

static GBytes *
make_matches (SeismoTrace *trace,
              MatchSet     set)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11 + set);
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  SeismoTaskId task = seismo_trace_find_task (trace, 117, seismo_trace_get_start_ns (trace));
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize len;

  g_assert_cmpuint (task, !=, SEISMO_NO_TASK);
  for (guint32 id = 0; id < seismo_trace_get_n_events (trace); id++)
    {
      gboolean take = set == MATCH_ALL
                      || (set == MATCH_CPU && cpus[id] == 2)
                      || (set == MATCH_TASK && tasks[id] == task)
                      || (set == MATCH_SPARSE && g_rand_int_range (rand, 0, 100) < 2)
                      || (set == MATCH_HALF && g_rand_boolean (rand));

      if (take)
        g_array_append_val (ids, id);
    }
  len = ids->len * sizeof (guint32);
  return g_bytes_new_take (g_array_free (ids, FALSE), len);
}

/* The matches as the view holds them: a set over the trace's events (the index reads it by
 * position; the brute force reads the ids). */
static SeismoMatchSet *
set_of (SeismoTrace *trace,
        GBytes      *matches)
{
  gsize size = 0;
  const guint32 *ids = g_bytes_get_data (matches, &size);

  return seismo_match_set_new_from_ids (ids, size / sizeof (guint32),
                                        seismo_trace_get_n_events (trace));
}

/* The marks as the overlay drew them from a copy of each row's matches: from the time at x0, the
 * row's first match at or after it is a mark at its column; the next search starts at the time
 * of the column after next (and after that match). Linear scans: nothing shared with the index. */
static GArray *
brute_marks (GArray                 *times,
             SeismoTimelineRenderer *r,
             double                  x0,
             double                  x1)
{
  GArray *xs = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 from;
  guint j = 0;

  from = (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x0), 0);
  for (;;)
    {
      double x, left;

      while (j < times->len && g_array_index (times, guint64, j) < from)
        j++;
      if (j == times->len)
        break;
      x = seismo_timeline_renderer_ns_to_x (r, g_array_index (times, guint64, j));
      if (x >= x1)
        break;
      left = floor (x);
      g_array_append_val (xs, left);
      from = MAX ((guint64) MAX (seismo_timeline_renderer_x_to_ns (r, left + 2), 0),
                  g_array_index (times, guint64, j) + 1);
    }
  return xs;
}

/* What the marks are for, independently of how they are found: each lies at the column of a
 * match of the row, and each match of the row in view lies under a mark or just after it (a
 * 2-px mark covers its column and the next; a third for a time rounded down to a whole ns). */
static void
check_cover (GArray                 *times,
             SeismoTimelineRenderer *r,
             double                  x0,
             double                  x1,
             GArray                 *xs)
{
  guint64 from = (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x0), 0);
  g_autofree gboolean *hit = g_new0 (gboolean, xs->len + 1);
  guint k = 0;

  for (guint i = 0; i < times->len; i++)
    {
      guint64 t = g_array_index (times, guint64, i);
      double x, column;

      if (t < from)
        continue;
      x = seismo_timeline_renderer_ns_to_x (r, t);
      if (x >= x1)
        break;
      column = floor (x);
      while (k + 1 < xs->len && g_array_index (xs, double, k + 1) <= column)
        k++;
      g_assert_cmpuint (xs->len, >, 0);
      g_assert_cmpfloat (column, >=, g_array_index (xs, double, k));
      g_assert_cmpfloat (column, <=, g_array_index (xs, double, k) + 2);
      hit[k] |= column == g_array_index (xs, double, k);
    }
  for (guint m = 0; m < xs->len; m++)
    g_assert_true (hit[m]);
}

/* Each row's matching times, in order: a copy of the row's matches, as the overlay once kept. */
static GPtrArray *
row_times (SeismoTrace *trace,
           GBytes      *matches)
{
  gsize n;
  const guint32 *ids = g_bytes_get_data (matches, &n);
  const guint64 *ts = seismo_trace_get_times (trace);
  guint n_cpus = seismo_trace_get_n_cpus (trace);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint k = 0; k < n_cpus + seismo_trace_get_n_tasks (trace); k++)
    g_ptr_array_add (rows, g_array_new (FALSE, FALSE, sizeof (guint64)));
  for (gsize i = 0; i < n / sizeof (guint32); i++)
    {
      guint cpu = seismo_trace_get_cpus (trace)[ids[i]];
      SeismoTaskId task = seismo_trace_get_tasks (trace)[ids[i]];

      if (cpu < n_cpus)
        g_array_append_val (g_ptr_array_index (rows, cpu), ts[ids[i]]);
      if (task < seismo_trace_get_n_tasks (trace))
        g_array_append_val (g_ptr_array_index (rows, n_cpus + task), ts[ids[i]]);
    }
  return rows;
}

static guint
check_view (SeismoTrace             *trace,
            GPtrArray               *times,
            const SeismoFilterMarks *marks,
            SeismoTimelineRenderer  *r)
{
  double x0 = SEISMO_TIMELINE_LABEL_WIDTH, x1 = WIDTH;
  guint n_cpus = seismo_trace_get_n_cpus (trace);
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_marks = 0;

  for (guint k = 0; k < times->len; k++)
    {
      gboolean is_task = k >= n_cpus;
      guint row = is_task ? k - n_cpus : k;
      g_autoptr(GArray) want = brute_marks (g_ptr_array_index (times, k), r, x0, x1);

      g_array_set_size (xs, 0);
      _seismo_filter_marks_row (marks, r, is_task, row, x0, x1, xs);
      if (xs->len != want->len
          || (xs->len > 0 && memcmp (xs->data, want->data, xs->len * sizeof (double)) != 0))
        {
          guint m = 0;

          while (m < MIN (xs->len, want->len)
                 && g_array_index (xs, double, m) == g_array_index (want, double, m))
            m++;
          g_error ("%s row %u at %.3f ns/px from %.1f ns: %u marks, want %u; first difference at "
                   "mark %u: %.0f, want %.0f", is_task ? "task" : "CPU", row,
                   seismo_timeline_renderer_get_ns_per_px (r),
                   seismo_timeline_renderer_get_view_start (r),
                   xs->len, want->len, m, m < xs->len ? g_array_index (xs, double, m) : -1,
                   m < want->len ? g_array_index (want, double, m) : -1);
        }
      check_cover (g_ptr_array_index (times, k), r, x0, x1, xs);
      n_marks += xs->len;
    }
  return n_marks;
}

static void
test_marks_brute_force (void)
{
  static const guint block_bits[] = { 1, 2, 4, 7 };
  static const double zooms[] = { 1, 3.7, 64, 2000, 1e5, 1e9 };
  static const double places[] = { 0.0, 0.31, 0.5, 0.97 };
  /* 1 bit: 2 matches a block, 65 536 blocks a page: all matches make more than two pages. */
  g_autoptr(SeismoTrace) trace = make_trace (300000, 3);
  g_autoptr(SeismoTimelineData) data = seismo_timeline_data_new (trace, NULL);
  g_autoptr(SeismoTimelineRenderer) r = seismo_timeline_renderer_new (data);
  guint n_marks = 0, n_views = 0;

  seismo_timeline_renderer_set_size (r, WIDTH, 600);
  for (MatchSet set = 0; set < N_MATCH_SETS; set++)
    {
      g_autoptr(GBytes) matches = make_matches (trace, set);
      g_autoptr(SeismoMatchSet) match_set = set_of (trace, matches);
      g_autoptr(GPtrArray) times = row_times (trace, matches);

      for (guint b = 0; b < G_N_ELEMENTS (block_bits); b++)
        {
          SeismoFilterMarks *marks = _seismo_filter_marks_build (trace, match_set, block_bits[b],
                                                                 NULL);

          g_assert_nonnull (marks);
          for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
            for (guint p = 0; p < G_N_ELEMENTS (places); p++)
              {
                double npp = seismo_timeline_renderer_get_fit_ns_per_px (r) / zooms[z];
                double start = seismo_timeline_renderer_get_duration (r) * places[p];

                seismo_timeline_renderer_set_view (r, start, npp);
                n_marks += check_view (trace, times, marks, r);
                n_views++;
              }
          _seismo_filter_marks_free (marks);
        }
    }
  g_test_message ("%u marks over %u views", n_marks, n_views);
  /* The views hold marks at all (the comparisons are not over empty rows only). */
  g_assert_cmpuint (n_marks, >, 10000);
}

/* The pass in parts on several threads builds the index the single pass builds, for parts of
 * every size down to one block, and its marks pass the brute-force check. */
static void
test_marks_parts (void)
{
  static const guint block_bits[] = { 1, 4, 7 };
  static const guint n_parts[] = { 2, 3, 7 };
  g_autoptr(SeismoTrace) trace = make_trace (100000, 11);
  g_autoptr(SeismoTimelineData) data = seismo_timeline_data_new (trace, NULL);
  g_autoptr(SeismoTimelineRenderer) r = seismo_timeline_renderer_new (data);
  gsize saved_min = _seismo_filter_marks_parallel_min;
  guint n_compared = 0;

  seismo_timeline_renderer_set_size (r, WIDTH, 600);
  for (MatchSet set = 0; set < N_MATCH_SETS; set++)
    {
      g_autoptr(GBytes) matches = make_matches (trace, set);
      g_autoptr(SeismoMatchSet) match_set = set_of (trace, matches);
      g_autoptr(GPtrArray) times = row_times (trace, matches);

      for (guint b = 0; b < G_N_ELEMENTS (block_bits); b++)
        {
          SeismoFilterMarks *one;

          _seismo_filter_marks_parallel_min = G_MAXSIZE;
          one = _seismo_filter_marks_build (trace, match_set, block_bits[b], NULL);
          for (guint p = 0; p < G_N_ELEMENTS (n_parts); p++)
            {
              SeismoFilterMarks *parts;

              _seismo_filter_marks_parallel_min = 1;
              _seismo_filter_marks_n_parts = n_parts[p];
              parts = _seismo_filter_marks_build (trace, match_set, block_bits[b], NULL);
              g_assert_true (_seismo_filter_marks_equal (one, parts));
              seismo_timeline_renderer_set_view (r, seismo_timeline_renderer_get_duration (r) * 0.4,
                                                 seismo_timeline_renderer_get_fit_ns_per_px (r) / 300);
              check_view (trace, times, parts, r);
              _seismo_filter_marks_free (parts);
              n_compared++;
            }
          _seismo_filter_marks_free (one);
        }
    }
  _seismo_filter_marks_parallel_min = saved_min;
  _seismo_filter_marks_n_parts = 0;
  g_assert_cmpuint (n_compared, ==, N_MATCH_SETS * G_N_ELEMENTS (block_bits) * G_N_ELEMENTS (n_parts));
}

/* The deepest zoom (0.01 ns a pixel) where a column after next still rounds down to the mark's
 * own match: one mark per time, and the search goes on. */
static void
test_marks_deepest_zoom (void)
{
  g_autoptr(SeismoTrace) trace = make_trace (2000, 5);
  g_autoptr(SeismoTimelineData) data = seismo_timeline_data_new (trace, NULL);
  g_autoptr(SeismoTimelineRenderer) r = seismo_timeline_renderer_new (data);
  g_autoptr(GBytes) matches = make_matches (trace, MATCH_ALL);
  g_autoptr(SeismoMatchSet) match_set = set_of (trace, matches);
  g_autoptr(GPtrArray) times = row_times (trace, matches);
  SeismoFilterMarks *marks = _seismo_filter_marks_build (trace, match_set, 0, NULL);
  const guint64 *ts = seismo_trace_get_times (trace);
  guint n_marks = 0;

  seismo_timeline_renderer_set_size (r, WIDTH, 600);
  /* Some 0.01 ns/px views starting 2 ns before an event: it is in view. */
  for (guint32 id = 0; id < seismo_trace_get_n_events (trace); id += 97)
    {
      double start = (double) (ts[id] - seismo_trace_get_start_ns (trace)) - 2;

      seismo_timeline_renderer_set_view (r, start, 0.01);
      g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), <, 0.02);
      n_marks += check_view (trace, times, marks, r);
    }
  g_assert_cmpuint (n_marks, >, 0);
  _seismo_filter_marks_free (marks);
}

static void
test_marks_cancel (void)
{
  g_autoptr(SeismoTrace) trace = make_trace (1000, 9);
  g_autoptr(GBytes) matches = make_matches (trace, MATCH_ALL);
  g_autoptr(SeismoMatchSet) match_set = set_of (trace, matches);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  SeismoFilterMarks *marks;

  g_cancellable_cancel (cancellable);
  g_assert_null (_seismo_filter_marks_build (trace, match_set, 0, cancellable));
  /* Smaller than a copy of each match's id for its CPU row and its task row. */
  marks = _seismo_filter_marks_build (trace, match_set, 0, NULL);
  g_assert_cmpuint (_seismo_filter_marks_get_size (marks), <, g_bytes_get_size (matches) * 2);
  _seismo_filter_marks_free (marks);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/filter-marks/brute-force", test_marks_brute_force);
  g_test_add_func ("/filter-marks/parts", test_marks_parts);
  g_test_add_func ("/filter-marks/deepest-zoom", test_marks_deepest_zoom);
  g_test_add_func ("/filter-marks/cancel", test_marks_cancel);
  return g_test_run ();
}

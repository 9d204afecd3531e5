/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <math.h>
#include <string.h>

#include "seismo-compare.h"
#include "seismo-test-util.h"

static const SeismoCompareRow *
find_row (SeismoComparison *cmp,
          const char       *name)
{
  for (guint i = 0; i < cmp->rows->len; i++)
    if (strcmp (g_array_index (cmp->rows, SeismoCompareRow, i).name, name) == 0)
      return &g_array_index (cmp->rows, SeismoCompareRow, i);
  return NULL;
}

/* The proof: a trace compared with itself shows no differences. */
static void
test_self (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (30000, 9);
  g_autoptr(SeismoComparison) cmp = seismo_compare_traces (trace, NULL, trace, NULL);
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  guint64 calls = 0;
  guint with_calls = 0;

  for (guint i = 0; i < stats->len; i++)
    with_calls += g_array_index (stats, SeismoSyscallStats, i).calls > 0;
  g_assert_cmpuint (cmp->rows->len, ==, with_calls);
  g_assert_cmpuint (cmp->rows->len, >, 5);
  g_assert_false (seismo_comparison_differs (cmp));
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      const SeismoCompareRow *row = &g_array_index (cmp->rows, SeismoCompareRow, i);

      g_assert_true (row->in_a && row->in_b);
      g_assert_false (seismo_compare_row_differs (row));
      for (SeismoCompareMetric m = 0; m < SEISMO_COMPARE_N_METRICS; m++)
        {
          g_assert_cmpint (seismo_compare_row_diff (row, m), ==, 0);
          g_assert_cmpfloat (seismo_compare_row_relative (row, m), ==, 0.0);
        }
      calls += row->a[SEISMO_COMPARE_CALLS];
    }
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_CALLS], ==, calls);
  g_assert_cmpuint (cmp->info_a.events, ==, seismo_trace_get_n_events (trace));
  g_assert_cmpuint (cmp->info_a.syscalls, ==, calls);
  g_assert_cmpmem (&cmp->info_a, sizeof cmp->info_a, &cmp->info_b, sizeof cmp->info_b);

  /* A copy of the trace (another object, same events) is no different either. */
  {
    g_autoptr(SeismoTrace) twin = seismo_test_make_trace (30000, 9);
    g_autoptr(SeismoComparison) cmp2 = seismo_compare_traces (trace, NULL, twin, NULL);

    g_assert_false (seismo_comparison_differs (cmp2));
  }
}

/* Two different traces: the figures are each side's own statistics. */
static void
test_different (void)
{
  g_autoptr(SeismoTrace) a = seismo_test_make_trace (20000, 1);
  g_autoptr(SeismoTrace) b = seismo_test_make_trace (40000, 2);
  g_autoptr(SeismoComparison) cmp = seismo_compare_traces (a, NULL, b, NULL);
  g_autoptr(GArray) stats_a = seismo_stats_by_syscall (a, NULL);
  g_autoptr(GArray) stats_b = seismo_stats_by_syscall (b, NULL);

  g_assert_true (seismo_comparison_differs (cmp));
  for (guint side = 0; side < 2; side++)
    {
      GArray *stats = side ? stats_b : stats_a;

      for (guint i = 0; i < stats->len; i++)
        {
          const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
          const SeismoCompareRow *row = find_row (cmp, st->name);
          const guint64 *v;

          if (st->calls == 0)
            continue;
          g_assert_nonnull (row);
          v = side ? row->b : row->a;
          g_assert_cmpuint (v[SEISMO_COMPARE_CALLS], ==, st->calls);
          g_assert_cmpuint (v[SEISMO_COMPARE_ERRORS], ==, st->errors);
          g_assert_cmpuint (v[SEISMO_COMPARE_P50_NS], ==, st->p50_ns);
          g_assert_cmpuint (v[SEISMO_COMPARE_P99_NS], ==, st->p99_ns);
          g_assert_cmpuint (v[SEISMO_COMPARE_AVG_NS], ==, st->avg_ns);
        }
    }
  /* Sorted by the change in total time, largest first. */
  for (guint i = 1; i < cmp->rows->len; i++)
    {
      const SeismoCompareRow *p = &g_array_index (cmp->rows, SeismoCompareRow, i - 1);
      const SeismoCompareRow *r = &g_array_index (cmp->rows, SeismoCompareRow, i);

      g_assert_cmpuint (ABS (seismo_compare_row_diff (p, SEISMO_COMPARE_TOTAL_NS)), >=,
                        ABS (seismo_compare_row_diff (r, SEISMO_COMPARE_TOTAL_NS)));
    }
  {
    const SeismoCompareRow *row = &g_array_index (cmp->rows, SeismoCompareRow, 0);
    gint64 d = seismo_compare_row_diff (row, SEISMO_COMPARE_CALLS);
    double rel = seismo_compare_row_relative (row, SEISMO_COMPARE_CALLS);

    g_assert_cmpint (d, ==, (gint64) row->b[SEISMO_COMPARE_CALLS]
                            - (gint64) row->a[SEISMO_COMPARE_CALLS]);
    if (row->a[SEISMO_COMPARE_CALLS])
      g_assert_cmpfloat_with_epsilon (rel, (double) d / row->a[SEISMO_COMPARE_CALLS], 1e-12);
  }
}

/* A selection on one side: half the time, fewer calls; a syscall only B makes. */
static void
test_selection_and_missing (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 4);
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace);
  SeismoSelection empty = { end + 1, G_MAXUINT64, NULL };
  SeismoSelection half = { start, start + (end - start) / 2, NULL };
  g_autoptr(SeismoComparison) cmp = seismo_compare_traces (trace, &half, trace, NULL);
  g_autoptr(SeismoComparison) none = seismo_compare_traces (trace, &empty, trace, NULL);

  g_assert_true (seismo_comparison_differs (cmp));
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_CALLS], <, cmp->total.b[SEISMO_COMPARE_CALLS]);
  g_assert_cmpuint (cmp->info_a.duration_ns, ==, (end - start) / 2);
  g_assert_cmpuint (cmp->info_a.events, <, cmp->info_b.events);

  /* Nothing selected in A: every row is B's alone. */
  g_assert_cmpuint (none->rows->len, >, 0);
  for (guint i = 0; i < none->rows->len; i++)
    {
      const SeismoCompareRow *row = &g_array_index (none->rows, SeismoCompareRow, i);

      g_assert_false (row->in_a);
      g_assert_true (row->in_b);
      g_assert_true (seismo_compare_row_differs (row));
      g_assert_true (isinf (seismo_compare_row_relative (row, SEISMO_COMPARE_CALLS)));
    }
  g_assert_cmpuint (none->info_a.events, ==, 0);
  g_assert_cmpstr (seismo_compare_metric_name (SEISMO_COMPARE_P90_NS), ==, "p90_ns");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/self", test_self);
  g_test_add_func ("/compare/different", test_different);
  g_test_add_func ("/compare/selection-and-missing", test_selection_and_missing);
  return g_test_run ();
}

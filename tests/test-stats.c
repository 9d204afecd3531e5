/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "seismo-compare.h"
#include "seismo-filter.h"
#include "seismo-histogram.h"
#include "seismo-stats.h"
#include "seismo-test-util.h"
#include "seismo-timing.h"
#include "seismo-tracepoints.h"

static void
test_syscalls_brute (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 5);
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  guint64 calls = 0, errors = 0, unfinished = 0, sum_calls = 0, sum_errors = 0, sum_unf = 0;

  for (gsize k = 0; k < n_spans; k++)
    {
      gint64 ret;

      if (spans[k].exit == SEISMO_NO_EVENT)
        unfinished++;
      else
        {
          calls++;
          if (seismo_trace_syscall_span_ret (trace, &spans[k], &ret) && ret < 0)
            errors++;
        }
    }
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);

      sum_calls += st->calls;
      sum_errors += st->errors;
      sum_unf += st->unfinished;
      if (st->calls)
        {
          g_assert_cmpuint (st->min_ns, <=, st->p50_ns);
          g_assert_cmpuint (st->p50_ns, <=, st->p90_ns);
          g_assert_cmpuint (st->p90_ns, <=, st->p99_ns);
          g_assert_cmpuint (st->p99_ns, <=, st->max_ns);
          g_assert_cmpuint (st->avg_ns, ==, st->total_ns / st->calls);
        }
      if (i)
        g_assert_cmpuint (g_array_index (stats, SeismoSyscallStats, i - 1).total_ns, >=, st->total_ns);
    }
  g_assert_cmpuint (calls, >, 0);
  g_assert_cmpuint (errors, >, 0);
  g_assert_cmpuint (sum_calls, ==, calls);
  g_assert_cmpuint (sum_errors, ==, errors);
  g_assert_cmpuint (sum_unf, ==, unfinished);
}

/* A trace with enough spans for the two-thread passes: every row the figures of its syscall's
 * own samples, with a selection too. */
static void
test_syscalls_halves (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (1500000, 25);
  g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, "cpu == 1", NULL);
  g_autofree guint64 *mask = seismo_filter_run (f, NULL, NULL);
  const guint64 *ts = seismo_trace_get_times (trace);
  gsize n = seismo_trace_get_n_events (trace), n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  SeismoSelection sel = { ts[n / 5], ts[n - n / 5], mask };

  g_assert_cmpuint (n_spans, >=, 262144);
  for (guint round = 0; round < 2; round++)
    {
      const SeismoSelection *s = round ? &sel : NULL;
      g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, s);

      g_assert_cmpuint (stats->len, >, 1);
      for (guint i = 0; i < stats->len; i++)
        {
          const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
          int idx = -1;
          g_autoptr(GArray) one = NULL;
          g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_log2 ();
          SeismoLatencySummary sum;
          guint64 errors = 0, unfinished = 0;

          for (guint k = 0; k < seismo_trace_get_n_syscall_names (trace); k++)
            if (strcmp (seismo_trace_get_syscall_name (trace, k), st->name) == 0)
              idx = (int) k;
          g_assert_cmpint (idx, >=, 0);
          one = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, s, idx);
          seismo_latency_histogram_add_samples (h, one);
          seismo_latency_histogram_get_summary (h, &sum);
          for (gsize k = 0; k < n_spans; k++)
            {
              gint64 ret;

              if (spans[k].syscall != idx || !seismo_selection_has (s, spans[k].enter, ts[spans[k].enter]))
                continue;
              if (spans[k].exit == SEISMO_NO_EVENT)
                unfinished++;
              else if (seismo_trace_syscall_span_ret (trace, &spans[k], &ret) && ret < 0 && ret >= -4095)
                errors++;
            }
          g_assert_cmpuint (st->calls, ==, sum.count);
          g_assert_cmpuint (st->total_ns, ==, sum.sum);
          g_assert_cmpuint (st->min_ns, ==, sum.min);
          g_assert_cmpuint (st->max_ns, ==, sum.max);
          g_assert_cmpuint (st->p50_ns, ==, sum.p50);
          g_assert_cmpuint (st->p90_ns, ==, sum.p90);
          g_assert_cmpuint (st->p99_ns, ==, sum.p99);
          g_assert_cmpuint (st->errors, ==, errors);
          g_assert_cmpuint (st->unfinished, ==, unfinished);
        }
    }
}

static void
test_selection (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 6);
  gsize n = seismo_trace_get_n_events (trace);
  g_autofree guint64 *mask = g_new0 (guint64, (n + 63) / 64);
  SeismoSelection sel = { 0, G_MAXUINT64, mask };
  g_autoptr(GArray) all = NULL, half = NULL, cpus = NULL;
  guint64 total_all = 0, total_half = 0, busy = 0;

  for (gsize i = 0; i < n; i += 2)
    mask[i / 64] |= G_GUINT64_CONSTANT (1) << (i % 64);
  all = seismo_stats_by_type (trace, NULL);
  half = seismo_stats_by_type (trace, &sel);
  for (guint i = 0; i < all->len; i++)
    total_all += g_array_index (all, SeismoTypeStats, i).count;
  for (guint i = 0; i < half->len; i++)
    total_half += g_array_index (half, SeismoTypeStats, i).count;
  g_assert_cmpuint (total_all, ==, n);
  g_assert_cmpuint (total_half, ==, (n + 1) / 2);

  cpus = seismo_stats_by_cpu (trace, NULL);
  g_assert_cmpuint (cpus->len, ==, seismo_trace_get_n_cpus (trace));
  for (guint c = 0; c < cpus->len; c++)
    {
      busy = g_array_index (cpus, SeismoCpuStats, c).busy_ns;
      g_assert_cmpuint (busy, <=, seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace));
    }
}

static void
test_percentile (void)
{
  const guint64 v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

  g_assert_cmpuint (seismo_stats_percentile (v, 10, 0.5), ==, 5);
  g_assert_cmpuint (seismo_stats_percentile (v, 10, 0.9), ==, 9);
  g_assert_cmpuint (seismo_stats_percentile (v, 10, 0.99), ==, 10);
  g_assert_cmpuint (seismo_stats_percentile (v, 10, 0.0), ==, 1);
  g_assert_cmpuint (seismo_stats_percentile (v, 0, 0.5), ==, 0);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* Selection gives what sorting gives, on few distinct values, sorted and reversed input, and in
 * any order of the fractions asked. */
static void
test_percentiles_select (void)
{
  static const double qs[] = { 0.0, 0.01, 0.5, 0.9, 0.99, 1.0 };
  static const double unordered[] = { 0.99, 0.5, 0.9, 0.01 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 200; round++)
    {
      /* Small inputs are selected in place, large ones through bins. */
      gsize n = round < 20 ? round
                : round % 3 == 0 ? (gsize) g_rand_int_range (rand, 9000, 60000)
                : (gsize) g_rand_int_range (rand, 1, 5000);
      guint kind = round % 5;
      g_autofree guint64 *v = g_new (guint64, MAX (n, 1));
      g_autofree guint64 *sorted = g_new (guint64, MAX (n, 1));
      guint64 got[G_N_ELEMENTS (qs)], got2[G_N_ELEMENTS (unordered)];

      for (gsize i = 0; i < n; i++)
        v[i] = kind == 0 ? (guint64) g_rand_int_range (rand, 0, 4)      /* repeats */
               : kind == 1 ? i                                                 /* sorted */
               : kind == 2 ? n - i                                             /* reversed */
               : kind == 3 ? (guint64) 1000 + g_rand_int_range (rand, 0, 3000) /* durations */
               : ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);      /* wide */
      memcpy (sorted, v, n * sizeof *v);
      qsort (sorted, n, sizeof *sorted, compare_u64);
      seismo_stats_percentiles_select (v, n, qs, G_N_ELEMENTS (qs), got);
      for (guint q = 0; q < G_N_ELEMENTS (qs); q++)
        g_assert_cmpuint (got[q], ==, seismo_stats_percentile (sorted, n, qs[q]));
      seismo_stats_percentiles_select (v, n, unordered, G_N_ELEMENTS (unordered), got2);
      for (guint q = 0; q < G_N_ELEMENTS (unordered); q++)
        g_assert_cmpuint (got2[q], ==, seismo_stats_percentile (sorted, n, unordered[q]));
    }
}

/* Every row of seismo_stats_by_syscall() against the sorted durations of its selected spans,
 * and the all-syscalls row of a comparison (which walks the spans itself) against all of them. */
static void
check_against_sort (SeismoTrace           *trace,
                    const SeismoSelection *sel,
                    gsize                  expect_rows)
{
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, sel);
  g_autoptr(GArray) basic = seismo_stats_by_syscall_figures (trace, sel, SEISMO_STATS_FIGURES_BASIC);
  SeismoComparison *cmp = seismo_compare_traces (trace, sel, trace, sel);
  gboolean timed = seismo_trace_has_durations (trace);
  const guint64 *ts = seismo_trace_get_times (trace);
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  g_autoptr(GArray) durs = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (guint64));
  const guint64 *d;

  g_assert_cmpuint (stats->len, ==, expect_rows);
  for (guint i = 0; i < stats->len; i++)
    {
      const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
      guint64 total = 0;

      g_array_set_size (durs, 0);
      for (gsize k = 0; k < n_spans; k++)
        if (g_str_equal (seismo_trace_get_syscall_name (trace, spans[k].syscall), st->name)
            && spans[k].exit != SEISMO_NO_EVENT
            && seismo_selection_has (sel, spans[k].enter, ts[spans[k].enter]))
          {
            guint64 dur = timed ? ts[spans[k].exit] - ts[spans[k].enter] : 0;

            g_array_append_val (durs, dur);
            total += dur;
          }
      g_array_append_vals (all, durs->data, durs->len);
      g_array_sort (durs, compare_u64);
      d = (const guint64 *) durs->data;
      g_assert_cmpuint (st->calls, ==, durs->len);
      g_assert_cmpuint (st->calls, >, 0);
      g_assert_cmpuint (st->total_ns, ==, total);
      g_assert_cmpuint (st->min_ns, ==, d[0]);
      g_assert_cmpuint (st->max_ns, ==, d[durs->len - 1]);
      g_assert_cmpuint (st->p50_ns, ==, timed ? seismo_stats_percentile (d, durs->len, 0.50) : 0);
      g_assert_cmpuint (st->p90_ns, ==, timed ? seismo_stats_percentile (d, durs->len, 0.90) : 0);
      g_assert_cmpuint (st->p99_ns, ==, timed ? seismo_stats_percentile (d, durs->len, 0.99) : 0);
      g_assert_cmpuint (st->unknown != 0, ==, !timed);

      /* Without percentiles: the same row, in the same place, flagged for what it left out. */
      {
        const SeismoSyscallStats *b = &g_array_index (basic, SeismoSyscallStats, i);

        g_assert_cmpstr (b->name, ==, st->name);
        g_assert_cmpuint (b->p50_ns + b->p90_ns + b->p99_ns, ==, 0);
        g_assert_cmpuint (b->unknown, ==, timed ? SEISMO_STATS_UNKNOWN_PERCENTILES : st->unknown);
        g_assert_cmpuint (b->calls, ==, st->calls);
        g_assert_cmpuint (b->errors, ==, st->errors);
        g_assert_cmpuint (b->unfinished, ==, st->unfinished);
        g_assert_cmpuint (b->total_ns, ==, st->total_ns);
        g_assert_cmpuint (b->min_ns, ==, st->min_ns);
        g_assert_cmpuint (b->max_ns, ==, st->max_ns);
        g_assert_cmpuint (b->avg_ns, ==, st->avg_ns);
      }
    }
  g_assert_cmpuint (basic->len, ==, stats->len);

  g_array_sort (all, compare_u64);
  d = (const guint64 *) all->data;
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_CALLS], ==, all->len);
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_MAX_NS], ==, d[all->len - 1]);
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_P50_NS], ==,
                    seismo_stats_percentile (d, all->len, 0.50));
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_P90_NS], ==,
                    seismo_stats_percentile (d, all->len, 0.90));
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_P99_NS], ==,
                    seismo_stats_percentile (d, all->len, 0.99));
  g_assert_cmpuint (cmp->total.b[SEISMO_COMPARE_P99_NS], ==, cmp->total.a[SEISMO_COMPARE_P99_NS]);
  seismo_comparison_free (cmp);
}

/* Every other event or so in the middle of the trace, so that some spans are selected. */
static guint64 *
make_mask (SeismoTrace     *trace,
           SeismoSelection *sel)
{
  const guint64 *ts = seismo_trace_get_times (trace);
  gsize n = seismo_trace_get_n_events (trace);
  guint64 *mask = g_new0 (guint64, (n + 63) / 64);

  for (gsize i = 0; i < n; i += 1 + i % 3)
    mask[i / 64] |= G_GUINT64_CONSTANT (1) << (i % 64);
  *sel = (SeismoSelection) { ts[n / 10], ts[n - n / 10], mask };
  return mask;
}

/* The percentiles are exact whatever the distribution: each syscall of a case has its own, and
 * every figure must be the one sorting its durations gives, timed or not, with a selection or
 * not. Case 0 has enough spans for both halves; case 1 durations up to the largest a 64-bit
 * clock holds (a task each); case 2 only bin edges. */
static void
test_syscalls_distributions (void)
{
  enum { ALL_EQUAL, ALL_ZERO, SINGLE, EDGES, FEW_VALUES, ONE_BIN, WIDE, N_KINDS };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261203);

  for (guint round = 0; round < 7; round++)
    {
      gsize n = round == 0 ? 300000 : round == 1 ? 400 : 3000 + g_rand_int_range (rand, 0, 6000);
      guint n_tasks = round == 1 ? 400 : 64;
      g_autofree guint64 *durs = g_new (guint64, n);
      g_autofree guint64 *nrs = g_new (guint64, n);
      gboolean seen[N_KINDS] = { FALSE };
      guint rows = 0;

      for (gsize j = 0; j < n; j++)
        {
          guint kind = g_rand_int_range (rand, 0, N_KINDS);

          if (kind == SINGLE && j != n / 2)
            kind = EDGES;
          /* In the two-thread case: a syscall of the first half only (and SINGLE of the second
           * only), and WIDE twice as often in the second half, so that where each half keeps its
           * durations matters. */
          if (round == 0 && kind == FEW_VALUES && j >= n / 2)
            kind = WIDE;
          if (round == 0 && kind == ALL_EQUAL && j < n / 4)
            kind = ONE_BIN;
          nrs[j] = kind;
          durs[j] = kind == ALL_EQUAL ? 123457
                    : kind == ALL_ZERO ? 0
                    : kind == SINGLE ? 987654321
                    : kind == EDGES ? seismo_test_edge_duration (rand, 40)
                    : kind == FEW_VALUES ? (guint64) g_rand_int_range (rand, 0, 3) * 4096
                    : kind == ONE_BIN ? (g_rand_int_range (rand, 0, 100) == 0
                                         ? (guint64) g_rand_int_range (rand, 0, 1 << 30)
                                         : 1024 + (guint64) g_rand_int_range (rand, 0, 64))
                    : (guint64) g_rand_int (rand) >> g_rand_int_range (rand, 0, 32);
          if (round == 1)
            {
              /* From 2^63 to the largest the clock allows, that one repeated. */
              guint64 below = ((guint64) g_rand_int (rand) << 31) >> g_rand_int_range (rand, 0, 40);

              nrs[j] = WIDE;
              durs[j] = G_MAXUINT64 - 2000000 - (j % 13 == 0 ? 0 : below);
            }
          else if (round == 2)
            durs[j] = seismo_test_edge_duration (rand, 52);
          if (!seen[nrs[j]])
            rows++;
          seen[nrs[j]] = TRUE;
        }

      for (guint timed = 0; timed < 2; timed++)
        {
          g_autoptr(SeismoTrace) trace = seismo_test_make_span_trace (durs, nrs, n, n_tasks, timed);
          g_autoptr(GArray) some = NULL;
          g_autofree guint64 *mask = NULL;
          SeismoSelection sel;
          gsize n_spans;

          /* The inputs are what they are meant to be: both halves, the largest durations. */
          seismo_trace_get_syscall_spans (trace, &n_spans);
          g_assert_cmpuint (n_spans, ==, n);
          if (round == 0)
            g_assert_cmpuint (n, >=, 262144);
          if (round == 1 && timed)
            g_assert_cmpuint (seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace),
                              >=, G_MAXUINT64 - 2001000);
          check_against_sort (trace, NULL, rows);
          mask = make_mask (trace, &sel);
          some = seismo_stats_by_syscall (trace, &sel);
          g_assert_cmpuint (some->len, >, 0);
          check_against_sort (trace, &sel, some->len);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/syscalls-brute", test_syscalls_brute);
  g_test_add_func ("/stats/syscalls-halves", test_syscalls_halves);
  g_test_add_func ("/stats/selection", test_selection);
  g_test_add_func ("/stats/percentile", test_percentile);
  g_test_add_func ("/stats/percentiles-select", test_percentiles_select);
  g_test_add_func ("/stats/syscalls-distributions", test_syscalls_distributions);
  return g_test_run ();
}

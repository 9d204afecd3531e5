/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <string.h>

#include "seismo-filter.h"
#include "seismo-histogram.h"
#include "seismo-percentile-private.h"
#include "seismo-test-util.h"

/* Latency histograms: bucket edges of both scales, exact summaries, the bpftrace-style text and
 * the latencies collected from a trace against the spans and intervals they come from. */

static void
check_bucket_holds (SeismoLatencyHistogram *h,
                    guint64                 v)
{
  SeismoLatencyBucket b;

  seismo_latency_histogram_get_bucket (h, seismo_latency_histogram_bucket_of (h, v), &b);
  g_assert_cmpuint (b.lower, <=, v);
  g_assert_true (v < b.upper || b.upper == G_MAXUINT64);
}

typedef struct {
  guint64     value;
  guint       index;
  const char *label;
} BucketCase;

/* Each value falls in the bucket of that index, with that label, whose edges hold it. */
static void
check_buckets (SeismoLatencyHistogram *h,
               const BucketCase       *cases,
               gsize                   n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      guint idx = seismo_latency_histogram_bucket_of (h, cases[i].value);
      g_autofree char *label = seismo_latency_histogram_bucket_label (h, idx, FALSE);

      g_assert_cmpuint (idx, ==, cases[i].index);
      g_assert_cmpstr (label, ==, cases[i].label);
      check_bucket_holds (h, cases[i].value);
    }
}

static void
test_log2_edges (void)
{
  static const BucketCase cases[] = {
    { 0, 0, "[0]" }, { 1, 1, "[1]" }, { 2, 2, "[2, 4)" }, { 3, 2, "[2, 4)" }, { 4, 3, "[4, 8)" },
    { 7, 3, "[4, 8)" }, { 8, 4, "[8, 16)" }, { 511, 9, "[256, 512)" }, { 512, 10, "[512, 1K)" },
    { 1023, 10, "[512, 1K)" }, { 1024, 11, "[1K, 2K)" }, { 4096, 13, "[4K, 8K)" },
    { 8191, 13, "[4K, 8K)" }, { 1 << 20, 21, "[1M, 2M)" },
    { G_GUINT64_CONSTANT (1) << 30, 31, "[1G, 2G)" },
    { G_GUINT64_CONSTANT (1) << 63, 64, "[8E, 16E)" }, { G_MAXUINT64, 64, "[8E, 16E)" },
  };
  g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_log2 ();

  g_assert_cmpuint (seismo_latency_histogram_get_n_buckets (h), ==, 65);
  g_assert_cmpint (seismo_latency_histogram_get_scale (h), ==, SEISMO_HISTOGRAM_LOG2);
  check_buckets (h, cases, G_N_ELEMENTS (cases));
  /* Consecutive buckets tile the number line. */
  for (guint i = 0; i + 1 < 65; i++)
    {
      SeismoLatencyBucket a, b;

      seismo_latency_histogram_get_bucket (h, i, &a);
      seismo_latency_histogram_get_bucket (h, i + 1, &b);
      g_assert_cmpuint (a.upper, ==, b.lower);
    }
}

static void
test_linear_edges (void)
{
  g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_linear (0, 100, 10);
  g_autoptr(SeismoLatencyHistogram) odd = seismo_latency_histogram_new_linear (5, 50, 10);
  g_autoptr(SeismoLatencyHistogram) us = seismo_latency_histogram_new_linear (0, 100000, 10000);
  static const BucketCase cases[] = {
    { 0, 1, "[0, 10)" }, { 9, 1, "[0, 10)" }, { 10, 2, "[10, 20)" }, { 99, 10, "[90, 100)" },
    { 100, 11, "[100, ...)" }, { 1000000000, 11, "[100, ...)" },
  }, odd_cases[] = {
    { 0, 0, "(..., 5)" }, { 4, 0, "(..., 5)" }, { 5, 1, "[5, 15)" }, { 14, 1, "[5, 15)" },
    { 15, 2, "[15, 25)" }, { 54, 5, "[45, 55)" }, { 55, 6, "[55, ...)" },
  };

  g_assert_cmpuint (seismo_latency_histogram_get_n_buckets (h), ==, 12);
  check_buckets (h, cases, G_N_ELEMENTS (cases));
  g_assert_cmpuint (seismo_latency_histogram_get_n_buckets (odd), ==, 7);
  check_buckets (odd, odd_cases, G_N_ELEMENTS (odd_cases));
  {
    g_autofree char *l1 = seismo_latency_histogram_bucket_label (us, 2, TRUE);
    g_autofree char *l0 = seismo_latency_histogram_bucket_label (us, 1, TRUE);
    g_autofree char *top = seismo_latency_histogram_bucket_label (us, 11, TRUE);

    g_assert_cmpstr (l0, ==, "[0, 10us)");
    g_assert_cmpstr (l1, ==, "[10us, 20us)");
    g_assert_cmpstr (top, ==, "[100us, ...)");
  }
}

static void
test_summary_and_format (void)
{
  g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_log2 ();
  g_autoptr(SeismoLatencyHistogram) empty = seismo_latency_histogram_new_log2 ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  SeismoLatencySummary s;
  guint full = 0;

  /* 100 down to 1, so the summary cannot rely on insertion order. */
  for (guint64 v = 100; v >= 1; v--)
    seismo_latency_histogram_add (h, v);
  seismo_latency_histogram_get_summary (h, &s);
  g_assert_cmpuint (s.count, ==, 100);
  g_assert_cmpuint (s.min, ==, 1);
  g_assert_cmpuint (s.max, ==, 100);
  g_assert_cmpuint (s.sum, ==, 5050);
  g_assert_cmpuint (s.avg, ==, 50);
  g_assert_cmpuint (s.p50, ==, 50);
  g_assert_cmpuint (s.p90, ==, 90);
  g_assert_cmpuint (s.p99, ==, 99);

  seismo_latency_histogram_format (h, FALSE, out);
  lines = g_strsplit (out->str, "\n", -1);
  /* [1] .. [64, 128): 7 buckets, then the empty string after the last newline. */
  g_assert_cmpuint (g_strv_length (lines), ==, 8);
  g_assert_true (g_str_has_prefix (lines[0], "[1] "));
  g_assert_true (g_str_has_prefix (lines[6], "[64, 128) "));
  for (guint i = 0; i < 7; i++)
    {
      const char *bar = strchr (lines[i], '|');
      guint ats = 0;

      g_assert_nonnull (bar);
      g_assert_cmpuint (strlen (bar), ==, 54);
      g_assert_true (g_str_has_suffix (lines[i], "|"));
      for (const char *c = bar; *c; c++)
        ats += *c == '@';
      full += ats == 52;
    }
  /* [64, 128) holds 64..100, the most: its bar is the full width; [32, 64) gets 32 * 52 / 37. */
  g_assert_cmpuint (full, ==, 1);
  g_assert_nonnull (strstr (lines[6], "37 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|"));
  g_assert_nonnull (strstr (lines[5], "[32, 64) "));
  g_assert_nonnull (strstr (lines[5],
                            "32 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@        |"));

  g_string_truncate (out, 0);
  seismo_latency_histogram_format (empty, FALSE, out);
  g_assert_cmpuint (out->len, ==, 0);
  seismo_latency_histogram_get_summary (empty, &s);
  g_assert_cmpuint (s.count, ==, 0);
  g_assert_cmpuint (s.max, ==, 0);
}

static void
test_collect_syscalls (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 21);
  g_autoptr(GArray) all = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, NULL, -1);
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  const guint64 *ts = seismo_trace_get_times (trace);
  guint64 calls = 0;

  for (guint i = 0; i < stats->len; i++)
    calls += g_array_index (stats, SeismoSyscallStats, i).calls;
  g_assert_cmpuint (all->len, ==, calls);
  g_assert_cmpuint (all->len, >, 100);
  for (guint i = 0; i < all->len; i++)
    {
      SeismoLatencySample *s = &g_array_index (all, SeismoLatencySample, i);

      g_assert_cmpuint (s->value, ==, ts[s->end] - ts[s->start]);
      if (i)
        g_assert_cmpuint (g_array_index (all, SeismoLatencySample, i - 1).start, <, s->start);
    }

  /* One syscall: the same figures as the stats' row for it. */
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
      int idx = -1;
      g_autoptr(GArray) one = NULL;
      g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_log2 ();
      SeismoLatencySummary sum;

      for (guint k = 0; k < seismo_trace_get_n_syscall_names (trace); k++)
        if (strcmp (seismo_trace_get_syscall_name (trace, k), st->name) == 0)
          idx = (int) k;
      g_assert_cmpint (idx, >=, 0);
      one = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, NULL, idx);
      seismo_latency_histogram_add_samples (h, one);
      seismo_latency_histogram_get_summary (h, &sum);
      g_assert_cmpuint (sum.count, ==, st->calls);
      g_assert_cmpuint (sum.sum, ==, st->total_ns);
      g_assert_cmpuint (sum.min, ==, st->min_ns);
      g_assert_cmpuint (sum.max, ==, st->max_ns);
      g_assert_cmpuint (sum.p50, ==, st->p50_ns);
      g_assert_cmpuint (sum.p99, ==, st->p99_ns);
    }

  /* A selection taken by the enter event: a filter on the CPU. */
  {
    g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, "cpu == 2", NULL);
    g_autofree guint64 *mask = seismo_filter_run (f, NULL, NULL);
    SeismoSelection sel = { 0, G_MAXUINT64, mask };
    g_autoptr(GArray) some = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, &sel, -1);
    guint expected = 0;

    for (guint i = 0; i < all->len; i++)
      expected += seismo_trace_event_cpu (trace,
                                          g_array_index (all, SeismoLatencySample, i).start) == 2;
    g_assert_cmpuint (some->len, ==, expected);
    g_assert_cmpuint (some->len, <, all->len);
  }
}

/* Durations added straight from the spans, on two threads for a large trace, make the
 * histogram the samples make: the same buckets and figures, with a selection or one syscall. */
static void
test_add_syscalls (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (1500000, 24);
  g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, "cpu == 1", NULL);
  g_autofree guint64 *mask = seismo_filter_run (f, NULL, NULL);
  const guint64 *ts = seismo_trace_get_times (trace);
  gsize n = seismo_trace_get_n_events (trace);
  SeismoSelection sel = { ts[n / 5], ts[n - n / 5], mask };
  gsize n_spans;

  seismo_trace_get_syscall_spans (trace, &n_spans);
  g_assert_cmpuint (n_spans, >=, 262144);   /* the two-thread pass */
  for (guint round = 0; round < 3; round++)
    {
      const SeismoSelection *s = round == 1 ? &sel : NULL;
      int syscall = round == 2 ? 0 : -1;
      g_autoptr(GArray) samples = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, s, syscall);
      g_autoptr(SeismoLatencyHistogram) a = seismo_latency_histogram_new_log2 ();
      g_autoptr(SeismoLatencyHistogram) b = seismo_latency_histogram_new_log2 ();
      SeismoLatencySummary sa, sb;

      seismo_latency_histogram_add_samples (a, samples);
      seismo_latency_histogram_add_syscalls (b, trace, s, syscall);
      for (guint i = 0; i < seismo_latency_histogram_get_n_buckets (a); i++)
        {
          SeismoLatencyBucket ba, bb;

          seismo_latency_histogram_get_bucket (a, i, &ba);
          seismo_latency_histogram_get_bucket (b, i, &bb);
          g_assert_cmpuint (ba.count, ==, bb.count);
        }
      seismo_latency_histogram_get_summary (a, &sa);
      seismo_latency_histogram_get_summary (b, &sb);
      g_assert_cmpuint (sa.count, >, 0);
      g_assert_cmpmem (&sa, sizeof sa, &sb, sizeof sb);
    }
}

/* a and b have the same buckets and the same summary. */
static void
check_same_histogram (SeismoLatencyHistogram *a,
                      SeismoLatencyHistogram *b)
{
  SeismoLatencySummary sa, sb;

  g_assert_cmpint (seismo_latency_histogram_get_scale (a), ==, seismo_latency_histogram_get_scale (b));
  g_assert_cmpuint (seismo_latency_histogram_get_n_buckets (a), ==,
                    seismo_latency_histogram_get_n_buckets (b));
  for (guint i = 0; i < seismo_latency_histogram_get_n_buckets (a); i++)
    {
      SeismoLatencyBucket ba, bb;

      seismo_latency_histogram_get_bucket (a, i, &ba);
      seismo_latency_histogram_get_bucket (b, i, &bb);
      g_assert_cmpmem (&ba, sizeof ba, &bb, sizeof bb);
    }
  seismo_latency_histogram_get_summary (a, &sa);
  seismo_latency_histogram_get_summary (b, &sb);
  g_assert_cmpmem (&sa, sizeof sa, &sb, sizeof sb);
}

/* Histograms made from the spans without their values against those of the values, log2 and
 * linear, for all syscalls and each one, with and without a selection. Returns how many of the
 * histograms compared had values. */
static guint
check_from_syscalls (SeismoTrace *trace)
{
  g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, "cpu != 2", NULL);
  g_autofree guint64 *mask = seismo_filter_run (f, NULL, NULL);
  const guint64 *ts = seismo_trace_get_times (trace);
  gsize n = seismo_trace_get_n_events (trace);
  SeismoSelection sel = { ts[n / 7], ts[n - n / 9], mask };
  guint with_values = 0;

  for (guint round = 0; round < 2; round++)
    for (int syscall = -1; syscall < (int) seismo_trace_get_n_syscall_names (trace); syscall++)
      {
        const SeismoSelection *s = round == 1 ? &sel : NULL;
        g_autoptr(GArray) samples = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, s, syscall);
        g_autoptr(SeismoLatencyHistogram) a = seismo_latency_histogram_new_log2 ();
        g_autoptr(SeismoLatencyHistogram) b = seismo_latency_histogram_new_syscalls (trace, s, syscall);
        g_autoptr(SeismoLatencyHistogram) la = NULL;
        g_autoptr(SeismoLatencyHistogram) lb = NULL;
        SeismoLatencySummary sum;
        guint64 step, top;

        seismo_latency_histogram_add_samples (a, samples);
        check_same_histogram (a, b);
        seismo_latency_histogram_get_summary (a, &sum);
        g_assert_cmpuint (sum.count, ==, samples->len);
        with_values += sum.count > 0;
        /* Linear buckets up to p99, as the pane makes them; at least two when all are equal. */
        step = MAX ((sum.p99 - sum.min) / 40, 1);
        top = sum.min + MAX ((sum.p99 - sum.min) / step, 2) * step;
        la = seismo_latency_histogram_new_linear_from (a, sum.min, top, step);
        lb = seismo_latency_histogram_new_linear_from_syscalls (b, sum.min, top, step, trace, s, syscall);
        check_same_histogram (la, lb);
      }
  return with_values;
}

/* Histograms of a trace's syscalls made without keeping their durations give what those of
 * the durations give, on awkward distributions: all equal, zeros, the largest durations, ties
 * on bin edges, few values, one crowded bin; on both halves of a large trace. Rounds: 0 a mix
 * per syscall on both halves, 1 the largest durations, 2 bin edges, 3 all equal, 4 zeros, 5 ties
 * on the edges of a few bins. */
static void
test_from_syscalls (void)
{
  enum { ALL_EQUAL, ALL_ZERO, EDGES, FEW_VALUES, ONE_BIN, WIDE, N_KINDS };
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);

  for (guint round = 0; round < 6; round++)
    {
      gsize n = round == 0 ? 320000 : round == 1 ? 400 : 3000 + g_rand_int_range (rand, 0, 4000);
      guint edge_bin = seismo_percentile_coarse_bin (4096) + g_rand_int_range (rand, 0, 32);
      guint n_tasks = round == 1 ? 400 : 48;
      g_autofree guint64 *durs = g_new (guint64, n);
      g_autofree guint64 *nrs = g_new (guint64, n);
      g_autoptr(SeismoTrace) trace = NULL;
      g_autoptr(SeismoTrace) untimed = NULL;
      g_autoptr(SeismoLatencyHistogram) none = NULL;
      SeismoLatencySummary sum;
      gsize n_spans;

      for (gsize j = 0; j < n; j++)
        {
          guint kind = g_rand_int_range (rand, 0, N_KINDS);

          /* Each half its own mix, so that where each half keeps its values matters. */
          if (round == 0 && kind == FEW_VALUES && j >= n / 2)
            kind = WIDE;
          nrs[j] = kind;
          durs[j] = kind == ALL_EQUAL ? 123457
                    : kind == ALL_ZERO ? 0
                    : kind == EDGES ? seismo_test_edge_duration (rand, 40)
                    : kind == FEW_VALUES ? (guint64) g_rand_int_range (rand, 0, 3) * 4096
                    : kind == ONE_BIN ? 1024 + (guint64) g_rand_int_range (rand, 0, 64)
                    : (guint64) g_rand_int (rand) >> g_rand_int_range (rand, 0, 32);
          if (round == 1)
            /* Up to the largest a 64-bit clock holds. */
            durs[j] = G_MAXUINT64 - 2000000
                      - (j % 13 == 0 ? 0 : ((guint64) g_rand_int (rand) << 31) >> g_rand_int_range (rand, 0, 40));
          else if (round == 2)
            durs[j] = seismo_test_edge_duration (rand, 52);
          else if (round == 3)
            durs[j] = 777;
          else if (round == 4)
            durs[j] = 0;
          else if (round == 5)
            {
              /* Crowded on the edges of a few bins: each value the first of its bin or the
               * last of the bin before. */
              guint64 v = seismo_percentile_coarse_lower (edge_bin + g_rand_int_range (rand, 0, 6));

              durs[j] = v - g_rand_int_range (rand, 0, 2);
            }
        }
      trace = seismo_test_make_span_trace (durs, nrs, n, n_tasks, TRUE);
      seismo_trace_get_syscall_spans (trace, &n_spans);
      g_assert_cmpuint (n_spans, ==, n);
      if (round == 0)
        g_assert_cmpuint (n_spans, >=, 262144);   /* the passes on two threads */
      g_assert_cmpuint (check_from_syscalls (trace), >=, round == 0 ? 12 : 2);

      /* A trace without durations has none to count, as it has no samples. */
      untimed = seismo_test_make_span_trace (durs, nrs, MIN (n, 1000), n_tasks, FALSE);
      none = seismo_latency_histogram_new_syscalls (untimed, NULL, -1);
      seismo_latency_histogram_get_summary (none, &sum);
      g_assert_cmpuint (sum.count, ==, 0);
      check_from_syscalls (untimed);
    }
}

/* A histogram without values refuses what would need them. */
static void
test_from_syscalls_refuses (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (5000, 3);
  g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_syscalls (trace, NULL, -1);
  g_autoptr(GArray) samples = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, NULL, -1);
  SeismoLatencySummary before, after;

  seismo_latency_histogram_get_summary (h, &before);
  g_assert_cmpuint (before.count, >, 0);
  g_test_expect_message ("seismo-histogram", G_LOG_LEVEL_CRITICAL, "*values != NULL*");
  seismo_latency_histogram_add (h, 5);
  g_test_expect_message ("seismo-histogram", G_LOG_LEVEL_CRITICAL, "*values != NULL*");
  seismo_latency_histogram_add_samples (h, samples);
  g_test_expect_message ("seismo-histogram", G_LOG_LEVEL_CRITICAL, "*values != NULL*");
  seismo_latency_histogram_add_syscalls (h, trace, NULL, -1);
  g_test_expect_message ("seismo-histogram", G_LOG_LEVEL_CRITICAL, "*values != NULL*");
  g_assert_null (seismo_latency_histogram_new_linear_from (h, 0, 100, 10));
  g_test_assert_expected_messages ();
  seismo_latency_histogram_get_summary (h, &after);
  g_assert_cmpmem (&before, sizeof before, &after, sizeof after);
}

/* The smallest value of each coarse bin is in that bin, the one below it in the bin before. */
static void
test_coarse_lower (void)
{
  for (guint b = 0; b < SEISMO_PERCENTILE_COARSE_BINS; b++)
    {
      guint64 v = seismo_percentile_coarse_lower (b);

      g_assert_cmpuint (seismo_percentile_coarse_bin (v), ==, b);
      if (b > 0)
        g_assert_cmpuint (seismo_percentile_coarse_bin (v - 1), ==, b - 1);
    }
  g_assert_cmpuint (seismo_percentile_coarse_bin (G_MAXUINT64), ==, SEISMO_PERCENTILE_COARSE_BINS - 1);
}

static void
test_collect_intervals (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 22);
  const SeismoIntervalKind kinds[] = {
    SEISMO_INTERVAL_WAKEUP, SEISMO_INTERVAL_RUN, SEISMO_INTERVAL_IRQ,
  };
  const SeismoLatencyKind lkinds[] = {
    SEISMO_LATENCY_WAKEUP, SEISMO_LATENCY_RUNTIME, SEISMO_LATENCY_IRQ,
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      gsize n;
      const SeismoInterval *iv = seismo_trace_get_intervals (trace, kinds[k], &n);
      g_autoptr(GArray) samples = seismo_latency_collect (trace, lkinds[k], NULL, -1);
      guint expected = 0;
      guint64 sum = 0, sum_expected = 0;

      for (gsize i = 0; i < n; i++)
        if (iv[i].start != SEISMO_NO_EVENT && iv[i].end != SEISMO_NO_EVENT)
          {
            expected++;
            sum_expected += seismo_trace_interval_end_ns (trace, &iv[i]) -
                            seismo_trace_interval_start_ns (trace, &iv[i]);
          }
      g_assert_cmpuint (samples->len, ==, expected);
      g_assert_cmpuint (samples->len, >, 0);
      for (guint i = 0; i < samples->len; i++)
        {
          sum += g_array_index (samples, SeismoLatencySample, i).value;
          if (i)
            g_assert_cmpuint (g_array_index (samples, SeismoLatencySample, i - 1).start, <=,
                              g_array_index (samples, SeismoLatencySample, i).start);
        }
      g_assert_cmpuint (sum, ==, sum_expected);
    }
  {
    SeismoLatencyKind k;

    g_assert_true (seismo_latency_kind_from_string ("wakeup-latency", &k));
    g_assert_cmpint (k, ==, SEISMO_LATENCY_WAKEUP);
    g_assert_cmpstr (seismo_latency_kind_to_string (SEISMO_LATENCY_RUNTIME), ==, "runtime");
    g_assert_false (seismo_latency_kind_from_string ("nope", &k));
  }
}

static void
test_gaps_and_mask (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 23);
  g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, "sched_switch", NULL);
  gsize n = seismo_trace_get_n_events (trace), matched;
  g_autofree guint64 *sw = seismo_filter_run (f, &matched, NULL);
  g_autoptr(GArray) gaps = seismo_latency_collect_gaps (trace, sw, sw, SEISMO_GAP_SAME_CPU, NULL);
  const guint64 *ts = seismo_trace_get_times (trace);
  g_autofree gint64 *last = g_new (gint64, seismo_trace_get_n_cpus (trace));
  guint expected = 0, k = 0;

  /* Consecutive switches on each CPU, brute force. */
  for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
    last[c] = -1;
  for (gsize i = 0; i < n; i++)
    if ((sw[i / 64] >> (i % 64)) & 1)
      {
        guint c = seismo_trace_event_cpu (trace, i);

        if (last[c] >= 0)
          {
            SeismoLatencySample *s;

            g_assert_cmpuint (k, <, gaps->len);
            s = &g_array_index (gaps, SeismoLatencySample, k++);
            g_assert_cmpuint (s->start, ==, (guint64) last[c]);
            g_assert_cmpuint (s->end, ==, i);
            g_assert_cmpuint (s->value, ==, ts[i] - ts[last[c]]);
            expected++;
          }
        last[c] = i;
      }
  g_assert_cmpuint (gaps->len, ==, expected);
  g_assert_cmpuint (expected + seismo_trace_get_n_cpus (trace), >=, matched);

  /* A bucket click: both ends of the samples in the bucket, nothing else. */
  {
    g_autofree guint64 *mask = seismo_latency_samples_mask (trace, gaps, 1024, 2048);
    guint64 want = 0, got = 0;
    g_autofree guint8 *ends = g_new0 (guint8, n);

    for (guint i = 0; i < gaps->len; i++)
      {
        SeismoLatencySample *s = &g_array_index (gaps, SeismoLatencySample, i);

        if (s->value >= 1024 && s->value < 2048)
          ends[s->start] = ends[s->end] = 1;
      }
    for (gsize i = 0; i < n; i++)
      {
        want += ends[i];
        got += (mask[i / 64] >> (i % 64)) & 1;
        g_assert_cmpint ((mask[i / 64] >> (i % 64)) & 1, ==, ends[i]);
      }
    g_assert_cmpuint (got, ==, want);
    g_assert_cmpuint (got, >, 0);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/histogram/log2-edges", test_log2_edges);
  g_test_add_func ("/histogram/linear-edges", test_linear_edges);
  g_test_add_func ("/histogram/summary-and-format", test_summary_and_format);
  g_test_add_func ("/histogram/collect-syscalls", test_collect_syscalls);
  g_test_add_func ("/histogram/add-syscalls", test_add_syscalls);
  g_test_add_func ("/histogram/from-syscalls", test_from_syscalls);
  g_test_add_func ("/histogram/from-syscalls-refuses", test_from_syscalls_refuses);
  g_test_add_func ("/histogram/coarse-lower", test_coarse_lower);
  g_test_add_func ("/histogram/collect-intervals", test_collect_intervals);
  g_test_add_func ("/histogram/gaps-and-mask", test_gaps_and_mask);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <math.h>
#include <stdlib.h>

#include "seismo-file-private.h"
#include "seismo-percentile-private.h"
#include "seismo-stats.h"
#include "seismo-timing.h"
#include "seismo-work-priority.h"

guint64
seismo_stats_percentile (const guint64 *sorted,
                         gsize          n,
                         double         q)
{
  gsize rank;

  if (n == 0)
    return 0;
  rank = (gsize) ceil (q * (double) n);
  rank = CLAMP (rank, 1, n);
  return sorted[rank - 1];
}

static inline void
swap_u64 (guint64 *a,
          guint64 *b)
{
  guint64 t = *a;

  *a = *b;
  *b = t;
}

/* The k-th smallest of v[lo, hi) put at v[k], smaller ones before it, larger after: quickselect
 * with a three-way partition, since durations repeat a lot (an untimed trace's are all 0), and a
 * median of three pseudo-random pivots so sorted input is no worse case. */
static void
select_kth (guint64 *v,
            gsize    lo,
            gsize    hi,
            gsize    k)
{
  guint32 seed = 2463534242u;

  while (hi - lo > 1)
    {
      gsize n = hi - lo, lt = lo, gt = hi, i = lo;
      guint64 a, b, c, pivot;

      seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5;
      a = v[lo + seed % n];
      seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5;
      b = v[lo + seed % n];
      seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5;
      c = v[lo + seed % n];
      pivot = MAX (MIN (a, b), MIN (MAX (a, b), c));
      /* [lo, lt) < pivot, [lt, i) == pivot, [gt, hi) > pivot */
      while (i < gt)
        {
          if (v[i] < pivot)
            swap_u64 (&v[i++], &v[lt++]);
          else if (v[i] > pivot)
            swap_u64 (&v[i], &v[--gt]);
          else
            i++;
        }
      if (k < lt)
        hi = lt;
      else if (k >= gt)
        lo = gt;
      else
        return;
    }
}

/* Below this many values, selecting in place costs less than counting bins. */
#define FINE_MIN_VALUES 8192

static gsize
nearest_rank (gsize  n,
              double q)
{
  gsize rank = (gsize) ceil (q * (double) n);

  return CLAMP (rank, 1, n);
}

void
seismo_stats_percentiles_select (guint64      *values,
                                 gsize         n,
                                 const double *qs,
                                 guint         n_qs,
                                 guint64      *out)
{
  g_autofree gsize *counts = NULL;

  g_return_if_fail (n == 0 || values != NULL);
  if (n == 0)
    {
      for (guint i = 0; i < n_qs; i++)
        out[i] = 0;
      return;
    }
  if (n < FINE_MIN_VALUES)
    {
      gsize lo = 0;

      for (guint i = 0; i < n_qs; i++)
        {
          gsize k = nearest_rank (n, qs[i]) - 1;

          /* Everything before the previous rank is no larger than it: an ascending rank is
           * looked for after it only. */
          select_kth (values, k >= lo ? lo : 0, n, k);
          lo = k;
          out[i] = values[k];
        }
      return;
    }

  /* Count the values per bin, then select among the values of the bin each rank falls in. */
  counts = g_new0 (gsize, SEISMO_PERCENTILE_BINS);
  for (gsize i = 0; i < n; i++)
    counts[seismo_percentile_bin (values[i])]++;
  _seismo_percentiles_from_bins (values, n, counts, qs, n_qs, out);
}

void
_seismo_percentiles_from_bins (const guint64 *values,
                               gsize          n,
                               const gsize   *counts,
                               const double  *qs,
                               guint          n_qs,
                               guint64       *out)
{
  g_autofree guint *bins = g_new (guint, MAX (n_qs, 1));
  g_autofree guint *which = g_new (guint, MAX (n_qs, 1));
  g_autofree gsize *ks = g_new (gsize, MAX (n_qs, 1));
  g_autofree GArray **in_bin = g_new (GArray *, MAX (n_qs, 1));
  guint n_bins = 0;

  if (n == 0)
    {
      for (guint i = 0; i < n_qs; i++)
        out[i] = 0;
      return;
    }
  for (guint i = 0; i < n_qs; i++)
    {
      gsize below = 0;
      guint bin = 0, b;

      ks[i] = nearest_rank (n, qs[i]) - 1;
      while (below + counts[bin] <= ks[i])
        below += counts[bin++];
      ks[i] -= below;
      for (b = 0; b < n_bins && bins[b] != bin; b++)
        ;
      if (b == n_bins)
        {
          bins[n_bins] = bin;
          in_bin[n_bins++] = g_array_sized_new (FALSE, FALSE, sizeof (guint64), counts[bin]);
        }
      which[i] = b;
    }
  for (gsize i = 0; i < n; i++)
    {
      guint bin = seismo_percentile_bin (values[i]);

      for (guint b = 0; b < n_bins; b++)
        if (bins[b] == bin)
          g_array_append_val (in_bin[b], values[i]);
    }
  for (guint i = 0; i < n_qs; i++)
    {
      GArray *a = in_bin[which[i]];

      select_kth ((guint64 *) a->data, 0, a->len, ks[i]);
      out[i] = g_array_index (a, guint64, ks[i]);
    }
  for (guint b = 0; b < n_bins; b++)
    g_array_unref (in_bin[b]);
}

static inline gsize
count_in (const gsize *counts,
          guint        bin)
{
  return counts != NULL ? counts[bin] : 0;
}

void
_seismo_percentile_find_ranks (SeismoPercentileRanks *r,
                               gsize                  n,
                               const gsize           *c0,
                               const gsize           *c1,
                               const double          *qs,
                               guint                  n_qs,
                               gsize                 *next0,
                               gsize                 *next1,
                               gsize                 *total)
{
  g_assert (n > 0 && n_qs <= SEISMO_PERCENTILE_MAX_RANKS);

  r->n_bins = 0;
  for (guint q = 0; q < n_qs; q++)
    {
      gsize k = nearest_rank (n, qs[q]) - 1, below = 0;
      guint bin = 0, b;

      while (below + count_in (c0, bin) + count_in (c1, bin) <= k)
        {
          below += count_in (c0, bin) + count_in (c1, bin);
          bin++;
        }
      for (b = 0; b < r->n_bins && r->bins[b] != bin; b++)
        ;
      if (b == r->n_bins)
        {
          r->bins[b] = bin;
          r->lower[b] = seismo_percentile_coarse_lower (bin);
          r->width[b] = bin + 1 < SEISMO_PERCENTILE_COARSE_BINS
                        ? seismo_percentile_coarse_lower (bin + 1) - 1 - r->lower[b]
                        : G_MAXUINT64 - r->lower[b];
          r->start[b] = *total;
          r->len[b] = count_in (c0, bin) + count_in (c1, bin);
          next0[b] = *total;
          if (next1 != NULL)
            next1[b] = *total + count_in (c0, bin);
          *total += r->len[b];
          r->n_bins++;
        }
      r->which[q] = b;
      r->rank[q] = k - below;
    }
}

void
_seismo_percentile_select_ranks (const SeismoPercentileRanks *r,
                                 guint64                     *kept,
                                 guint                        n_qs,
                                 guint64                     *out)
{
  for (guint q = 0; q < n_qs; q++)
    {
      guint64 *in_bin = kept + r->start[r->which[q]];

      select_kth (in_bin, 0, r->len[r->which[q]], r->rank[q]);
      out[q] = in_bin[r->rank[q]];
    }
}

static int
compare_syscall_stats (gconstpointer a,
                       gconstpointer b)
{
  const SeismoSyscallStats *x = a, *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->calls != y->calls)
    return x->calls > y->calls ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/* The rows of a summary table stored with the trace; NULL when it has none. */
static GArray *
stats_from_summary (SeismoTrace *trace)
{
  guint n;
  const SeismoHistogram *hist = seismo_trace_get_histograms (trace, &n);
  g_autoptr(GHashTable) rows = g_hash_table_new (g_str_hash, g_str_equal);   /* name → index */
  GArray *result = NULL;

  for (guint pass = 0; pass < 2; pass++)
    for (guint h = 0; h < n; h++)
      {
        const SeismoHistogram *hg = &hist[h];
        SeismoSyscallStats *st;
        gpointer index;

        /* Calls first: they make the rows the other figures fill. */
        if ((pass == 0) != g_str_equal (hg->name, SEISMO_HISTOGRAM_SUMMARY_CALLS))
          continue;
        if (pass == 0)
          {
            SeismoSyscallStats row = { 0 };

            if (result == NULL)
              result = g_array_new (FALSE, TRUE, sizeof (SeismoSyscallStats));
            row.name = hg->key;
            row.calls = hg->total_count;
            row.unknown = SEISMO_STATS_UNKNOWN_TIME | SEISMO_STATS_UNKNOWN_DISTRIBUTION;
            g_hash_table_insert (rows, hg->key, GUINT_TO_POINTER (result->len));
            g_array_append_val (result, row);
            continue;
          }
        if (!g_hash_table_lookup_extended (rows, hg->key, NULL, &index))
          continue;
        st = &g_array_index (result, SeismoSyscallStats, GPOINTER_TO_UINT (index));
        if (g_str_equal (hg->name, SEISMO_HISTOGRAM_SUMMARY_ERRORS))
          st->errors = hg->total_count;
        else if (g_str_equal (hg->name, SEISMO_HISTOGRAM_SUMMARY_TIME))
          {
            st->total_ns = hg->sum;
            st->avg_ns = st->calls ? st->total_ns / st->calls : 0;
            st->unknown &= ~SEISMO_STATS_UNKNOWN_TIME;
          }
      }
  return result;
}

/* The percentiles without every duration in memory (seismo-percentile-private.h): a
 * trace-sized array of durations was the Statistics pane's memory peak. */
static const double syscall_qs[] = { 0.50, 0.90, 0.99 };
#define N_QS G_N_ELEMENTS (syscall_qs)
G_STATIC_ASSERT (N_QS <= SEISMO_PERCENTILE_MAX_RANKS);

/* One half of the spans of seismo_stats_by_syscall(): its figures and bin counts per syscall
 * (pass 1), then the durations of the target bins kept from next[] on (pass 2). The halves only
 * read the trace. */
typedef struct {
  SeismoTrace             *trace;
  const SeismoSyscallSpan *spans;
  gsize                    first;         /* of spans in the trace's spans */
  gsize                    n_spans;
  const guint64           *failed;        /* seismo_trace_get_failed_spans() */
  const guint64           *ts;
  const SeismoSelection   *selection;
  gboolean                 timed;
  SeismoSyscallStats      *acc;
  gsize                  **counts;      /* pass 1, for percentiles: per syscall, coarse bins or NULL */
  const SeismoPercentileRanks *ranks;   /* pass 2 */
  gsize                   *next;        /* pass 2: N_QS per syscall, places in kept */
  guint64                 *kept;        /* pass 2 */
} SyscallHalf;

static void
syscall_half_count (guint    i,
                    guint    worker,
                    gpointer data)
{
  SyscallHalf *h = &((SyscallHalf *) data)[i];

  for (gsize s = 0; s < h->n_spans; s++)
    {
      if (G_UNLIKELY ((s & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      const SeismoSyscallSpan *span = &h->spans[s];
      SeismoSyscallStats *st = &h->acc[span->syscall];
      gsize index = h->first + s;
      guint64 dur;

      if (!seismo_selection_has (h->selection, span->enter, h->ts[span->enter]))
        continue;
      if (span->exit == SEISMO_NO_EVENT)
        {
          st->unfinished++;
          continue;
        }
      /* Without measured durations the gap between enter and exit is line order, not time. */
      dur = h->timed ? h->ts[span->exit] - h->ts[span->enter] : 0;
      if (st->calls == 0 || dur < st->min_ns)
        st->min_ns = dur;
      st->calls++;
      st->total_ns += dur;
      st->max_ns = MAX (st->max_ns, dur);
      if ((h->failed[index >> 6] >> (index & 63)) & 1)
        st->errors++;
      if (h->counts != NULL)
        {
          gsize *counts = h->counts[span->syscall];

          if (G_UNLIKELY (counts == NULL))
            counts = h->counts[span->syscall] = g_new0 (gsize, SEISMO_PERCENTILE_COARSE_BINS);
          counts[seismo_percentile_coarse_bin (dur)]++;
        }
    }
}

static void
syscall_half_keep (guint    i,
                   guint    worker,
                   gpointer data)
{
  SyscallHalf *h = &((SyscallHalf *) data)[i];

  for (gsize s = 0; s < h->n_spans; s++)
    {
      if (G_UNLIKELY ((s & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      const SeismoSyscallSpan *span = &h->spans[s];

      if (span->exit == SEISMO_NO_EVENT || !seismo_selection_has (h->selection, span->enter, h->ts[span->enter]))
        continue;
      seismo_percentile_keep (&h->ranks[span->syscall], h->next + span->syscall * N_QS, h->kept,
                              h->ts[span->exit] - h->ts[span->enter]);
    }
}

/* Runs func over both halves, the second on another thread when it has any spans. */
static void
run_halves (SeismoParallelFunc func,
            SyscallHalf       *halves)
{
  _seismo_file_parallel_for (halves[1].n_spans > 0 ? 2 : 1, 2, func, halves);
}

/* Below this many spans a second thread costs more than it saves. */
#define SYSCALL_SPLIT 262144

GArray *
seismo_stats_by_syscall (SeismoTrace           *trace,
                         const SeismoSelection *selection)
{
  return seismo_stats_by_syscall_figures (trace, selection, SEISMO_STATS_FIGURES_ALL);
}

GArray *
seismo_stats_by_syscall_figures (SeismoTrace           *trace,
                                 const SeismoSelection *selection,
                                 SeismoStatsFigures     figures)
{
  guint n_names;
  gsize n_spans, first_half;
  const SeismoSyscallSpan *spans;
  const guint64 *ts;
  g_autofree SeismoSyscallStats *acc = NULL;
  g_autofree SeismoSyscallStats *acc2 = NULL;
  g_autofree gsize **counts = NULL;
  g_autofree gsize **counts2 = NULL;
  g_autofree SeismoPercentileRanks *ranks = NULL;
  g_autofree guint64 *kept = NULL;
  SyscallHalf halves[2];
  const guint64 *failed;
  GArray *result;
  gboolean timed, percentiles;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);

  selection = seismo_selection_or_null (selection);
  n_names = seismo_trace_get_n_syscall_names (trace);
  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  ts = seismo_trace_get_times (trace);
  if (n_spans == 0 && (result = stats_from_summary (trace)) != NULL)
    {
      g_array_sort (result, compare_syscall_stats);
      return result;
    }
  timed = seismo_trace_has_durations (trace);
  /* Half the cost of the table: the bins of pass 1 and all of pass 2. */
  percentiles = timed && (figures & SEISMO_STATS_FIGURES_PERCENTILES);
  acc = g_new0 (SeismoSyscallStats, MAX (n_names, 1));
  acc2 = g_new0 (SeismoSyscallStats, MAX (n_names, 1));
  if (percentiles)
    {
      counts = g_new0 (gsize *, MAX (n_names, 1));
      counts2 = g_new0 (gsize *, MAX (n_names, 1));
    }

  /* The whole-trace pass on both cores, each half counting into its own rows, merged after:
   * what opening the Statistics pane waits for. */
  first_half = n_spans >= SYSCALL_SPLIT ? n_spans / 2 : n_spans;
  /* Errors from the trace's failed-call bits: decoding each return value was most of the cost. */
  failed = seismo_trace_get_failed_spans (trace);
  halves[0] = (SyscallHalf) { trace, spans, 0, first_half, failed, ts, selection, timed, acc,
                              counts };
  halves[1] = (SyscallHalf) { trace, spans + first_half, first_half, n_spans - first_half, failed, ts,
                              selection, timed, acc2, counts2 };
  run_halves (syscall_half_count, halves);
  for (guint i = 0; i < n_names; i++)
    {
      SeismoSyscallStats *a = &acc[i];
      const SeismoSyscallStats *b = &acc2[i];

      if (b->calls > 0)
        {
          a->min_ns = a->calls == 0 ? b->min_ns : MIN (a->min_ns, b->min_ns);
          a->max_ns = MAX (a->max_ns, b->max_ns);
        }
      a->calls += b->calls;
      a->errors += b->errors;
      a->unfinished += b->unfinished;
      a->total_ns += b->total_ns;
    }

  /* Only the durations of the bins the ranks fall in, each half placing its own after the first
   * half's: counted first, so that they are allocated once. */
  if (percentiles)
    {
      gsize total = 0;
      g_autofree gsize *next = g_new0 (gsize, MAX (n_names, 1) * N_QS);
      g_autofree gsize *next2 = g_new0 (gsize, MAX (n_names, 1) * N_QS);

      ranks = g_new0 (SeismoPercentileRanks, MAX (n_names, 1));
      for (guint i = 0; i < n_names; i++)
        {
          if (acc[i].calls > 0)
            _seismo_percentile_find_ranks (&ranks[i], acc[i].calls, counts[i], counts2[i],
                                           syscall_qs, N_QS, next + i * N_QS, next2 + i * N_QS,
                                           &total);
          g_free (counts[i]);
          g_free (counts2[i]);
        }
      kept = g_new (guint64, MAX (total, 1));
      halves[0].ranks = ranks;
      halves[0].next = next;
      halves[0].kept = kept;
      halves[1].ranks = ranks;
      halves[1].next = next2;
      halves[1].kept = kept;
      run_halves (syscall_half_keep, halves);
    }

  result = g_array_new (FALSE, TRUE, sizeof (SeismoSyscallStats));
  for (guint i = 0; i < n_names; i++)
    {
      SeismoSyscallStats *st = &acc[i];

      if (st->calls == 0 && st->unfinished == 0)
        continue;
      st->name = seismo_trace_get_syscall_name (trace, i);
      if (!timed)
        st->unknown = SEISMO_STATS_UNKNOWN_TIME | SEISMO_STATS_UNKNOWN_DISTRIBUTION;
      else if (st->calls > 0)
        {
          st->avg_ns = st->total_ns / st->calls;
          if (percentiles)
            {
              guint64 p[N_QS];

              _seismo_percentile_select_ranks (&ranks[i], kept, N_QS, p);
              st->p50_ns = p[0];
              st->p90_ns = p[1];
              st->p99_ns = p[2];
            }
          else
            st->unknown = SEISMO_STATS_UNKNOWN_PERCENTILES;
        }
      g_array_append_val (result, *st);
    }
  g_array_sort (result, compare_syscall_stats);
  return result;
}

/* Time of [start, end] that lies inside the selection's window. */
static guint64
clip_ns (const SeismoSelection *sel,
         guint64                start,
         guint64                end)
{
  if (sel != NULL)
    {
      start = MAX (start, sel->start_ns);
      end = MIN (end, sel->end_ns);
    }
  return end > start ? end - start : 0;
}

static int
compare_task_stats (gconstpointer a,
                    gconstpointer b)
{
  const SeismoTaskStats *x = a, *y = b;

  if (x->cpu_ns != y->cpu_ns)
    return x->cpu_ns > y->cpu_ns ? -1 : 1;
  if (x->events != y->events)
    return x->events > y->events ? -1 : 1;
  return x->task < y->task ? -1 : x->task > y->task;
}

GArray *
seismo_stats_by_task (SeismoTrace           *trace,
                      const SeismoSelection *selection)
{
  guint n_tasks = seismo_trace_get_n_tasks (trace);
  gsize n_events = seismo_trace_get_n_events (trace), n;
  const guint64 *ts = seismo_trace_get_times (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  g_autofree SeismoTaskStats *acc = g_new0 (SeismoTaskStats, MAX (n_tasks, 1));
  const SeismoInterval *iv;
  const SeismoSyscallSpan *spans;
  GArray *result;

  selection = seismo_selection_or_null (selection);
  for (gsize i = 0; i < n_events; i++)
    if (seismo_selection_has (selection, (SeismoEventId) i, ts[i]))
      acc[tasks[i]].events++;

  iv = seismo_trace_get_intervals (trace, SEISMO_INTERVAL_RUN, &n);
  for (gsize k = 0; k < n; k++)
    {
      guint64 start = seismo_trace_interval_start_ns (trace, &iv[k]);
      guint64 end = seismo_trace_interval_end_ns (trace, &iv[k]);

      if (iv[k].task >= n_tasks)
        continue;
      if (selection && selection->mask && iv[k].end != SEISMO_NO_EVENT &&
          !seismo_selection_has (selection, iv[k].end, end))
        continue;
      acc[iv[k].task].cpu_ns += clip_ns (selection, start, end);
      if (iv[k].end != SEISMO_NO_EVENT && seismo_selection_has (selection, iv[k].end, end))
        acc[iv[k].task].switches++;
    }

  iv = seismo_trace_get_intervals (trace, SEISMO_INTERVAL_WAKEUP, &n);
  for (gsize k = 0; k < n; k++)
    if (iv[k].task < n_tasks && iv[k].start != SEISMO_NO_EVENT &&
        seismo_selection_has (selection, iv[k].start, ts[iv[k].start]))
      acc[iv[k].task].wakeups++;

  spans = seismo_trace_get_syscall_spans (trace, &n);
  for (gsize k = 0; k < n; k++)
    if (seismo_selection_has (selection, spans[k].enter, ts[spans[k].enter]))
      acc[tasks[spans[k].enter]].syscalls++;

  result = g_array_new (FALSE, TRUE, sizeof (SeismoTaskStats));
  for (guint t = 0; t < n_tasks; t++)
    {
      acc[t].task = t;
      if (acc[t].events || acc[t].cpu_ns || acc[t].wakeups)
        g_array_append_val (result, acc[t]);
    }
  g_array_sort (result, compare_task_stats);
  return result;
}

GArray *
seismo_stats_by_cpu (SeismoTrace           *trace,
                     const SeismoSelection *selection)
{
  guint n_cpus = seismo_trace_get_n_cpus (trace);
  gsize n_events = seismo_trace_get_n_events (trace);
  const guint64 *ts = seismo_trace_get_times (trace);
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SeismoCpuStats));

  selection = seismo_selection_or_null (selection);
  g_array_set_size (result, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    {
      SeismoCpuStats *st = &g_array_index (result, SeismoCpuStats, c);
      gsize n;
      const SeismoInterval *runs = seismo_trace_get_cpu_runs (trace, c, &n);

      st->cpu = c;
      for (gsize k = 0; k < n; k++)
        {
          guint64 end = seismo_trace_interval_end_ns (trace, &runs[k]);

          st->busy_ns += clip_ns (selection, seismo_trace_interval_start_ns (trace, &runs[k]), end);
          if (runs[k].end != SEISMO_NO_EVENT && seismo_selection_has (selection, runs[k].end, end))
            st->switches++;
        }
    }
  for (gsize i = 0; i < n_events; i++)
    if (cpus[i] < n_cpus && seismo_selection_has (selection, (SeismoEventId) i, ts[i]))
      g_array_index (result, SeismoCpuStats, cpus[i]).events++;
  return result;
}

static int
compare_type_stats (gconstpointer a,
                    gconstpointer b)
{
  const SeismoTypeStats *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->type_id < y->type_id ? -1 : x->type_id > y->type_id;
}

GArray *
seismo_stats_by_type (SeismoTrace           *trace,
                      const SeismoSelection *selection)
{
  guint n_types = seismo_trace_get_n_event_types (trace);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SeismoTypeStats));

  selection = seismo_selection_or_null (selection);
  if (selection == NULL)
    {
      const guint64 *counts = seismo_trace_get_type_counts (trace);

      for (guint t = 0; t < n_types; t++)
        if (counts[t])
          {
            SeismoTypeStats st = { t, counts[t] };

            g_array_append_val (result, st);
          }
    }
  else
    {
      g_autofree guint64 *counts = g_new0 (guint64, MAX (n_types, 1));
      gsize n_events = seismo_trace_get_n_events (trace);
      const guint64 *ts = seismo_trace_get_times (trace);
      const guint16 *types = seismo_trace_get_types (trace);

      for (gsize i = 0; i < n_events; i++)
        if (seismo_selection_has (selection, (SeismoEventId) i, ts[i]))
          counts[types[i]]++;
      for (guint t = 0; t < n_types; t++)
        if (counts[t])
          {
            SeismoTypeStats st = { t, counts[t] };

            g_array_append_val (result, st);
          }
    }
  g_array_sort (result, compare_type_stats);
  return result;
}

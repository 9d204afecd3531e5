/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-compare"

#include <math.h>
#include <string.h>

#include "seismo-compare.h"
#include "seismo-percentile-private.h"
#include "seismo-timing.h"

static const char *const metric_names[SEISMO_COMPARE_N_METRICS] = {
  [SEISMO_COMPARE_CALLS] = "calls",
  [SEISMO_COMPARE_ERRORS] = "errors",
  [SEISMO_COMPARE_TOTAL_NS] = "total_ns",
  [SEISMO_COMPARE_AVG_NS] = "avg_ns",
  [SEISMO_COMPARE_P50_NS] = "p50_ns",
  [SEISMO_COMPARE_P90_NS] = "p90_ns",
  [SEISMO_COMPARE_P99_NS] = "p99_ns",
  [SEISMO_COMPARE_MAX_NS] = "max_ns",
};

const char *
seismo_compare_metric_name (SeismoCompareMetric metric)
{
  g_return_val_if_fail (metric < SEISMO_COMPARE_N_METRICS, NULL);
  return metric_names[metric];
}

gboolean
seismo_compare_metric_is_time (SeismoCompareMetric metric)
{
  return metric != SEISMO_COMPARE_CALLS && metric != SEISMO_COMPARE_ERRORS;
}

static void
fill (guint64                  *out,
      const SeismoSyscallStats *st)
{
  out[SEISMO_COMPARE_CALLS] = st->calls;
  out[SEISMO_COMPARE_ERRORS] = st->errors;
  out[SEISMO_COMPARE_TOTAL_NS] = st->total_ns;
  out[SEISMO_COMPARE_AVG_NS] = st->avg_ns;
  out[SEISMO_COMPARE_P50_NS] = st->p50_ns;
  out[SEISMO_COMPARE_P90_NS] = st->p90_ns;
  out[SEISMO_COMPARE_P99_NS] = st->p99_ns;
  out[SEISMO_COMPARE_MAX_NS] = st->max_ns;
}

/* The all-syscalls figures of one side, and its whole-trace info. This walks the spans itself
 * with the same rules as seismo_stats_by_syscall(), twice: the percentiles keep only the
 * durations near their ranks (seismo-percentile-private.h), not every one. */
static void
summarize (SeismoTrace            *trace,
           const SeismoSelection  *selection,
           guint64                *out,
           SeismoCompareTraceInfo *info)
{
  static const double qs[] = { 0.50, 0.90, 0.99 };
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  const guint64 *ts = seismo_trace_get_times (trace);
  g_autofree gsize *counts = g_new0 (gsize, SEISMO_PERCENTILE_COARSE_BINS);
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace);
  SeismoSyscallStats st = { 0 };
  gboolean timed = seismo_trace_has_durations (trace);

  for (gsize s = 0; s < n_spans; s++)
    {
      guint64 dur;

      if (spans[s].exit == SEISMO_NO_EVENT
          || !seismo_selection_has (selection, spans[s].enter, ts[spans[s].enter]))
        continue;
      dur = timed ? ts[spans[s].exit] - ts[spans[s].enter] : 0;
      st.calls++;
      st.total_ns += dur;
      st.max_ns = MAX (st.max_ns, dur);
      if (seismo_trace_syscall_span_failed (trace, s))
        st.errors++;
      counts[seismo_percentile_coarse_bin (dur)]++;
    }
  if (st.calls > 0)
    {
      SeismoPercentileRanks ranks;
      gsize next[G_N_ELEMENTS (qs)], total = 0;
      g_autofree guint64 *kept = NULL;
      guint64 p[G_N_ELEMENTS (qs)];

      _seismo_percentile_find_ranks (&ranks, st.calls, counts, NULL, qs, G_N_ELEMENTS (qs), next,
                                     NULL, &total);
      kept = g_new (guint64, total);
      for (gsize s = 0; s < n_spans; s++)
        if (spans[s].exit != SEISMO_NO_EVENT
            && seismo_selection_has (selection, spans[s].enter, ts[spans[s].enter]))
          seismo_percentile_keep (&ranks, next, kept,
                                  timed ? ts[spans[s].exit] - ts[spans[s].enter] : 0);
      _seismo_percentile_select_ranks (&ranks, kept, G_N_ELEMENTS (qs), p);
      st.avg_ns = st.total_ns / st.calls;
      st.p50_ns = p[0];
      st.p90_ns = p[1];
      st.p99_ns = p[2];
    }
  fill (out, &st);

  if (selection != NULL)
    {
      start = MAX (start, selection->start_ns);
      end = MIN (end, selection->end_ns);
    }
  info->events = 0;
  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    info->events += seismo_selection_has (selection, i, ts[i]);
  info->duration_ns = end > start ? end - start : 0;
  info->syscalls = st.calls;
  info->lost_events = seismo_trace_get_n_lost_events (trace);
  info->tasks = seismo_trace_get_n_tasks (trace);
  info->cpus = seismo_trace_get_n_cpus (trace);
  info->timestamps = seismo_trace_has_timestamps (trace);
  info->durations = timed;
}

static void
clear_row (gpointer data)
{
  g_free (((SeismoCompareRow *) data)->name);
}

static guint64
abs_diff (const SeismoCompareRow *row,
          SeismoCompareMetric     m)
{
  return row->a[m] > row->b[m] ? row->a[m] - row->b[m] : row->b[m] - row->a[m];
}

static int
compare_rows (gconstpointer pa,
              gconstpointer pb)
{
  const SeismoCompareRow *x = pa, *y = pb;
  guint64 dx = abs_diff (x, SEISMO_COMPARE_TOTAL_NS), dy = abs_diff (y, SEISMO_COMPARE_TOTAL_NS);

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return strcmp (x->name, y->name);
}

SeismoComparison *
seismo_compare_traces (SeismoTrace           *a,
                       const SeismoSelection *selection_a,
                       SeismoTrace           *b,
                       const SeismoSelection *selection_b)
{
  g_autoptr(GArray) stats_a = NULL;
  g_autoptr(GArray) stats_b = NULL;
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  SeismoComparison *self;

  g_return_val_if_fail (SEISMO_IS_TRACE (a), NULL);
  g_return_val_if_fail (SEISMO_IS_TRACE (b), NULL);

  stats_a = seismo_stats_by_syscall (a, selection_a);
  stats_b = seismo_stats_by_syscall (b, selection_b);

  self = g_new0 (SeismoComparison, 1);
  self->rows = g_array_new (FALSE, TRUE, sizeof (SeismoCompareRow));
  g_array_set_clear_func (self->rows, clear_row);

  /* Row indices, not row pointers, in the table: the array moves as it grows. */
  for (guint side = 0; side < 2; side++)
    {
      GArray *stats = side == 0 ? stats_a : stats_b;

      for (guint i = 0; i < stats->len; i++)
        {
          const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
          gpointer index;
          SeismoCompareRow *row;

          /* Calls that never returned are no calls (strace -c's rule). */
          if (st->calls == 0)
            continue;
          if (!g_hash_table_lookup_extended (by_name, st->name, NULL, &index))
            {
              SeismoCompareRow fresh = { 0 };

              fresh.name = g_strdup (st->name);
              g_array_append_val (self->rows, fresh);
              index = GUINT_TO_POINTER (self->rows->len - 1);
              g_hash_table_insert (by_name, (gpointer) g_array_index (self->rows, SeismoCompareRow,
                                                                      self->rows->len - 1).name,
                                   index);
            }
          row = &g_array_index (self->rows, SeismoCompareRow, GPOINTER_TO_UINT (index));
          if (side == 0)
            {
              row->in_a = TRUE;
              fill (row->a, st);
            }
          else
            {
              row->in_b = TRUE;
              fill (row->b, st);
            }
        }
    }
  g_array_sort (self->rows, compare_rows);

  self->total.name = g_strdup ("total");
  summarize (a, selection_a, self->total.a, &self->info_a);
  summarize (b, selection_b, self->total.b, &self->info_b);
  self->total.in_a = self->total.a[SEISMO_COMPARE_CALLS] > 0;
  self->total.in_b = self->total.b[SEISMO_COMPARE_CALLS] > 0;
  /* Line order against time is no comparison: only counts then. */
  self->total.time_unknown = !self->info_a.durations || !self->info_b.durations;
  for (guint i = 0; i < self->rows->len; i++)
    g_array_index (self->rows, SeismoCompareRow, i).time_unknown = self->total.time_unknown;
  return self;
}

void
seismo_comparison_free (SeismoComparison *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rows);
  g_free (self->total.name);
  g_free (self);
}

gint64
seismo_compare_row_diff (const SeismoCompareRow *row,
                         SeismoCompareMetric     metric)
{
  g_return_val_if_fail (row != NULL && metric < SEISMO_COMPARE_N_METRICS, 0);
  return (gint64) (row->b[metric] - row->a[metric]);
}

double
seismo_compare_row_relative (const SeismoCompareRow *row,
                             SeismoCompareMetric     metric)
{
  g_return_val_if_fail (row != NULL && metric < SEISMO_COMPARE_N_METRICS, 0);

  if (row->a[metric] == 0)
    return row->b[metric] == 0 ? 0.0 : INFINITY;
  return ((double) row->b[metric] - (double) row->a[metric]) / (double) row->a[metric];
}

gboolean
seismo_compare_row_differs (const SeismoCompareRow *row)
{
  g_return_val_if_fail (row != NULL, FALSE);
  if (row->in_a != row->in_b)
    return TRUE;
  for (SeismoCompareMetric m = 0; m < SEISMO_COMPARE_N_METRICS; m++)
    if (row->a[m] != row->b[m] && !(row->time_unknown && seismo_compare_metric_is_time (m)))
      return TRUE;
  return FALSE;
}

gboolean
seismo_comparison_differs (const SeismoComparison *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (seismo_compare_row_differs (&self->total))
    return TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    if (seismo_compare_row_differs (&g_array_index (self->rows, SeismoCompareRow, i)))
      return TRUE;
  return FALSE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * What part of a trace statistics look at: a time window and, optionally, a bit per event
 * (bit i of mask[i / 64]) from a filter. NULL means the whole trace.
 */
typedef struct {
  guint64        start_ns;   /* inclusive */
  guint64        end_ns;     /* inclusive; G_MAXUINT64 for no bound */
  const guint64 *mask;       /* NULL: every event */
} SeismoSelection;

static inline gboolean
seismo_selection_has (const SeismoSelection *sel,
                      SeismoEventId          event,
                      guint64                time_ns)
{
  if (sel == NULL)
    return TRUE;
  if (time_ns < sel->start_ns || time_ns > sel->end_ns)
    return FALSE;
  return sel->mask == NULL || (sel->mask[event >> 6] >> (event & 63)) & 1;
}

/* NULL for a selection of everything (no window, no mask), which statistics then read without
 * looking at each event's time. */
static inline const SeismoSelection *
seismo_selection_or_null (const SeismoSelection *sel)
{
  return sel != NULL && sel->start_ns == 0 && sel->end_ns == G_MAXUINT64 && sel->mask == NULL
         ? NULL : sel;
}

/* Figures of a SeismoSyscallStats row that were never measured: shown as "—" (JSON null), and
 * left 0 in the struct. */
typedef enum {
  SEISMO_STATS_UNKNOWN_TIME         = 1 << 0,   /* total_ns, avg_ns (and percent of time) */
  SEISMO_STATS_UNKNOWN_DISTRIBUTION = 1 << 1,   /* min_ns, max_ns, p50_ns, p90_ns, p99_ns */
  SEISMO_STATS_UNKNOWN_PERCENTILES  = 1 << 2,   /* p50_ns, p90_ns, p99_ns: not asked for */
} SeismoStatsUnknown;

/* The figures of a syscall's row worked out beyond its counts, times, min and max. */
typedef enum {
  SEISMO_STATS_FIGURES_BASIC       = 0,
  SEISMO_STATS_FIGURES_PERCENTILES = 1 << 0,   /* p50, p90, p99: a second pass over the calls */
  SEISMO_STATS_FIGURES_ALL         = SEISMO_STATS_FIGURES_PERCENTILES,
} SeismoStatsFigures;

/*
 * A summary table that came with the trace instead of (or besides) its calls, such as strace -c's:
 * one recorder histogram per figure with the syscall as key and no buckets. total_count holds the
 * figure (calls, errors) or, for the time, the calls, with sum the nanoseconds.
 */
#define SEISMO_HISTOGRAM_SUMMARY_CALLS   "summary_calls"
#define SEISMO_HISTOGRAM_SUMMARY_ERRORS  "summary_errors"
#define SEISMO_HISTOGRAM_SUMMARY_TIME    "summary_time"

/* Like strace -c: a syscall that never returned (exit_group, trace end) is not a call. */
typedef struct {
  const char *name;         /* owned by the trace */
  guint64     calls;
  guint64     errors;       /* returns in [-4095, -1] */
  guint64     unfinished;
  guint64     total_ns;
  guint64     min_ns;
  guint64     max_ns;
  guint64     avg_ns;
  guint64     p50_ns;
  guint64     p90_ns;
  guint64     p99_ns;
  guint32     unknown;      /* SeismoStatsUnknown: figures not measured (untimed trace, table) */
} SeismoSyscallStats;

typedef struct {
  SeismoTaskId task;
  guint64      events;
  guint64      cpu_ns;      /* time on CPU from RUN intervals */
  guint64      switches;    /* times it was switched out */
  guint64      wakeups;
  guint64      syscalls;
} SeismoTaskStats;

typedef struct {
  guint   cpu;
  guint64 events;
  guint64 busy_ns;
  guint64 switches;
} SeismoCpuStats;

typedef struct {
  guint   type_id;
  guint64 count;
} SeismoTypeStats;

/* Each returns a new GArray of the struct, sorted by the main figure, largest first.
 * seismo_stats_by_syscall() of a trace without syscall events but with a summary table
 * (SEISMO_HISTOGRAM_SUMMARY_*) returns the table's rows, whatever the selection; of a trace
 * without measured durations (seismo_trace_has_durations()) it counts calls and errors only. */
GArray *seismo_stats_by_syscall (SeismoTrace           *trace,
                                 const SeismoSelection *selection);
/* The same, working out only the figures asked for: the others are 0 and flagged unknown. */
GArray *seismo_stats_by_syscall_figures (SeismoTrace           *trace,
                                         const SeismoSelection *selection,
                                         SeismoStatsFigures     figures);
GArray *seismo_stats_by_task    (SeismoTrace           *trace,
                                 const SeismoSelection *selection);
GArray *seismo_stats_by_cpu     (SeismoTrace           *trace,
                                 const SeismoSelection *selection);
GArray *seismo_stats_by_type    (SeismoTrace           *trace,
                                 const SeismoSelection *selection);

/* The value at fraction q (0..1) of sorted values, nearest rank. */
guint64 seismo_stats_percentile (const guint64 *sorted,
                                 gsize          n,
                                 double         q);
/* What seismo_stats_percentile() of the sorted values gives for each fraction of qs (ascending),
 * without sorting them: a selection in O(n), which reorders values. */
void    seismo_stats_percentiles_select (guint64       *values,
                                         gsize          n,
                                         const double  *qs,
                                         guint          n_qs,
                                         guint64       *out);

G_END_DECLS

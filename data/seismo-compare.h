/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-stats.h"

G_BEGIN_DECLS

/*
 * Comparing two traces (A, the baseline, and B): per-syscall counts and latency figures side by
 * side, from seismo_stats_by_syscall() on each, and the same figures over all syscalls together.
 */

typedef enum {
  SEISMO_COMPARE_CALLS = 0,
  SEISMO_COMPARE_ERRORS,
  SEISMO_COMPARE_TOTAL_NS,
  SEISMO_COMPARE_AVG_NS,
  SEISMO_COMPARE_P50_NS,
  SEISMO_COMPARE_P90_NS,
  SEISMO_COMPARE_P99_NS,
  SEISMO_COMPARE_MAX_NS,
  SEISMO_COMPARE_N_METRICS
} SeismoCompareMetric;

typedef struct {
  char    *name;                          /* syscall name; "total" for the all-syscalls row */
  gboolean in_a;                          /* A has finished calls of it */
  gboolean in_b;
  guint64  a[SEISMO_COMPARE_N_METRICS];   /* 0 when absent from that trace */
  guint64  b[SEISMO_COMPARE_N_METRICS];
  gboolean time_unknown;                  /* a side measured no durations (seismo-timing.h):
                                           * the _ns metrics are 0 there, shown as unknown and
                                           * left out of the differences */
} SeismoCompareRow;

/* Whole-trace figures of one side. */
typedef struct {
  guint64 events;
  guint64 duration_ns;
  guint64 syscalls;        /* finished syscall spans in the selection */
  guint64 lost_events;
  guint   tasks;
  guint   cpus;
  gboolean timestamps;     /* seismo_trace_has_timestamps(): duration_ns means something */
  gboolean durations;      /* seismo_trace_has_durations(): the _ns metrics were measured */
} SeismoCompareTraceInfo;

typedef struct {
  GArray                *rows;    /* SeismoCompareRow for each syscall either side made */
  SeismoCompareRow       total;   /* all syscalls together */
  SeismoCompareTraceInfo info_a;
  SeismoCompareTraceInfo info_b;
} SeismoComparison;

/* "calls", "errors", "total_ns", "avg_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns". */
const char       *seismo_compare_metric_name    (SeismoCompareMetric      metric);

/*
 * Compares the syscalls of a and b (selections may be NULL for whole traces). Rows are sorted by
 * the size of the change in total time, largest first, then by name. Caller frees.
 */
SeismoComparison *seismo_compare_traces         (SeismoTrace             *a,
                                                 const SeismoSelection   *selection_a,
                                                 SeismoTrace             *b,
                                                 const SeismoSelection   *selection_b);
void              seismo_comparison_free        (SeismoComparison        *self);

/* TRUE for the metrics made of time (total_ns … max_ns). */
gboolean          seismo_compare_metric_is_time (SeismoCompareMetric      metric);
/* B - A. */
gint64            seismo_compare_row_diff       (const SeismoCompareRow  *row,
                                                 SeismoCompareMetric      metric);
/* (B - A) / A: 0.25 is 25 % more; 0 when both are 0; +infinity when only B is non-zero. */
double            seismo_compare_row_relative   (const SeismoCompareRow  *row,
                                                 SeismoCompareMetric      metric);
/* TRUE when any figure differs or the syscall is missing from one side. */
gboolean          seismo_compare_row_differs    (const SeismoCompareRow  *row);
/* TRUE when any row or the whole-trace syscall figures differ. */
gboolean          seismo_comparison_differs     (const SeismoComparison  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoComparison, seismo_comparison_free)

G_END_DECLS

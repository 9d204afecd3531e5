/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-stats.h"

G_BEGIN_DECLS

/*
 * Latency histograms, as bpftrace draws them: hist() with power-of-two buckets and lhist() with
 * linear ones. The histogram keeps every value too (except those made from a trace's syscall
 * spans, seismo_latency_histogram_new_syscalls()), so count, min, avg, percentiles and max are
 * exact, not estimated from the buckets.
 *
 *   g_autoptr(GArray) samples = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, &sel, -1);
 *   g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_log2 ();
 *   seismo_latency_histogram_add_samples (h, samples);
 *   seismo_latency_histogram_format (h, FALSE, out);
 */

typedef enum {
  SEISMO_HISTOGRAM_LOG2,     /* [0], [1], [2, 4), [4, 8) … [2^63, 2^64): 65 buckets */
  SEISMO_HISTOGRAM_LINEAR,   /* (…, min), [min, min + step) … [top, …) */
} SeismoHistogramScale;

typedef struct _SeismoLatencyHistogram SeismoLatencyHistogram;

/* A bucket holds values v with lower <= v < upper. upper == G_MAXUINT64 means no upper bound. */
typedef struct {
  guint64 lower;
  guint64 upper;
  guint64 count;
} SeismoLatencyBucket;

/* Figures over every value added; all 0 when there are none. Percentiles are nearest-rank, as
 * seismo_stats_percentile() computes them. */
typedef struct {
  guint64 count;
  guint64 min;
  guint64 max;
  guint64 sum;    /* saturates at G_MAXUINT64 */
  guint64 avg;
  guint64 p50;
  guint64 p90;
  guint64 p99;
} SeismoLatencySummary;

SeismoLatencyHistogram *seismo_latency_histogram_new_log2    (void);
/* Linear buckets of width step from min; values below min go to an underflow bucket (index 0),
 * values at or above the first bucket edge >= max to an overflow bucket (the last index).
 * step > 0 and max > min. */
SeismoLatencyHistogram *seismo_latency_histogram_new_linear  (guint64                 min,
                                                              guint64                 max,
                                                              guint64                 step);
/* The values of other in linear buckets (as seismo_latency_histogram_new_linear()); its figures
 * are other's, computed once. */
SeismoLatencyHistogram *seismo_latency_histogram_new_linear_from (SeismoLatencyHistogram *other,
                                                              guint64                 min,
                                                              guint64                 max,
                                                              guint64                 step);
void                    seismo_latency_histogram_free        (SeismoLatencyHistogram *self);

SeismoHistogramScale    seismo_latency_histogram_get_scale   (SeismoLatencyHistogram *self);
void                    seismo_latency_histogram_add         (SeismoLatencyHistogram *self,
                                                              guint64                 value);
/* Adds the value of each SeismoLatencySample. */
void                    seismo_latency_histogram_add_samples (SeismoLatencyHistogram *self,
                                                              GArray                 *samples);
guint                   seismo_latency_histogram_get_n_buckets (SeismoLatencyHistogram *self);
void                    seismo_latency_histogram_get_bucket  (SeismoLatencyHistogram *self,
                                                              guint                   index,
                                                              SeismoLatencyBucket    *bucket);
/* The index of the bucket value falls in. */
guint                   seismo_latency_histogram_bucket_of   (SeismoLatencyHistogram *self,
                                                              guint64                 value);
void                    seismo_latency_histogram_get_summary (SeismoLatencyHistogram *self,
                                                              SeismoLatencySummary   *summary);
/* The bucket's label as bpftrace prints it: "[0]", "[4K, 8K)", "[10, 20)", "[100, ...)"; with
 * time_units, linear edges in ns read "[10us, 20us)". Caller frees. */
char                   *seismo_latency_histogram_bucket_label (SeismoLatencyHistogram *self,
                                                              guint                   index,
                                                              gboolean                time_units);
/* Appends one line per bucket from the first to the last non-empty one:
 * "[4K, 8K)             123 |@@@@@@@@                                            |". */
void                    seismo_latency_histogram_format      (SeismoLatencyHistogram *self,
                                                              gboolean                time_units,
                                                              GString                *out);

/* What a latency is measured between; see seismo_latency_collect(). */
typedef enum {
  SEISMO_LATENCY_SYSCALL = 0,   /* syscall enter → exit (finished spans); taken by the enter */
  SEISMO_LATENCY_WAKEUP,        /* wakeup (or waking) → switch-in; taken by the wakeup */
  SEISMO_LATENCY_RUNTIME,       /* switch-in → switch-out on one CPU; taken by the switch-out */
  SEISMO_LATENCY_IRQ,           /* irq handler entry → exit; taken by the entry */
  SEISMO_LATENCY_SOFTIRQ,       /* softirq entry → exit; taken by the entry */
  SEISMO_LATENCY_N
} SeismoLatencyKind;

/* "syscall-latency", "wakeup-latency", "runtime", "irq-latency", "softirq-latency". */
const char *seismo_latency_kind_to_string   (SeismoLatencyKind  kind);
gboolean    seismo_latency_kind_from_string (const char        *name,
                                             SeismoLatencyKind *kind);

typedef struct {
  guint64       value;   /* ns */
  SeismoEventId start;
  SeismoEventId end;
} SeismoLatencySample;

/* FALSE when the trace did not measure this kind of latency (seismo-timing.h: a log without
 * durations or timestamps); gaps need timestamps (SEISMO_LATENCY_N stands for them). Callers
 * say so instead of showing an empty histogram. */
gboolean    seismo_latency_kind_measured    (SeismoTrace           *trace,
                                             SeismoLatencyKind      kind);
/* The latencies of one kind whose taking event (see SeismoLatencyKind) is in the selection (NULL:
 * all). Intervals cut by the trace's start or end are left out; none when the kind was not
 * measured (seismo_latency_kind_measured()). syscall restricts
 * SEISMO_LATENCY_SYSCALL to one index of seismo_trace_get_syscall_name(); -1 for all.
 * Returns a new GArray of SeismoLatencySample in start order; caller owns it. */
GArray     *seismo_latency_collect          (SeismoTrace           *trace,
                                             SeismoLatencyKind      kind,
                                             const SeismoSelection *selection,
                                             int                    syscall);

/* Where gaps between two chosen events are looked for. */
typedef enum {
  SEISMO_GAP_SAME_TASK,
  SEISMO_GAP_SAME_CPU,
  SEISMO_GAP_ANY,
} SeismoGapScope;

/* Gaps from an event of from_mask to the next event of to_mask in the same scope, in time order
 * (none in a trace without timestamps).
 * An open gap keeps its first start (like a wakeup before a waking); an event in both masks ends
 * the open gap and starts the next, so from == to gives the time between consecutive events.
 * Gaps are taken by their start event (selection may be NULL). Returns a new GArray of
 * SeismoLatencySample; caller owns it. */
GArray     *seismo_latency_collect_gaps     (SeismoTrace           *trace,
                                             const guint64         *from_mask,
                                             const guint64         *to_mask,
                                             SeismoGapScope         scope,
                                             const SeismoSelection *selection);

/* Adds the values of seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, selection, syscall)
 * without making the samples: what a histogram of millions of syscalls needs, in one pass over
 * the spans (on two threads when there are many). */
void        seismo_latency_histogram_add_syscalls (SeismoLatencyHistogram *self,
                                                   SeismoTrace            *trace,
                                                   const SeismoSelection  *selection,
                                                   int                     syscall);

/*
 * The histogram of those same durations (log2 buckets) without keeping them: its summary is
 * computed as it is made, in a second pass over the spans that keeps only the few values the
 * percentiles are selected among (seismo-percentile-private.h); both passes on two threads when
 * there are many spans. What the Histogram pane shows of millions of syscalls, without an array
 * of all of them (39 MB on 5M spans) for as long as it shows them.
 *
 * A histogram made so (or by seismo_latency_histogram_new_linear_from_syscalls()) has no values:
 * seismo_latency_histogram_add(), _add_samples(), _add_syscalls() and _new_linear_from() refuse
 * it (g_return_if_fail); its buckets and summary are those a histogram of the values has.
 */
SeismoLatencyHistogram *seismo_latency_histogram_new_syscalls (SeismoTrace           *trace,
                                                               const SeismoSelection *selection,
                                                               int                    syscall);
/* As seismo_latency_histogram_new_linear_from (log2, ...) with log2 made by
 * seismo_latency_histogram_new_syscalls (trace, selection, syscall): the buckets counted in one
 * more pass over the spans, the figures log2's. */
SeismoLatencyHistogram *seismo_latency_histogram_new_linear_from_syscalls (SeismoLatencyHistogram *log2,
                                                                           guint64                 min,
                                                                           guint64                 max,
                                                                           guint64                 step,
                                                                           SeismoTrace            *trace,
                                                                           const SeismoSelection  *selection,
                                                                           int                     syscall);

/* A mask (seismo_filter_mask_words() words, bit i = event i) of both ends of the samples whose
 * value is in [lower, upper): what a click on a bucket filters to. Caller frees with g_free(). */
guint64    *seismo_latency_samples_mask     (SeismoTrace           *trace,
                                             GArray                *samples,
                                             guint64                lower,
                                             guint64                upper);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoLatencyHistogram, seismo_latency_histogram_free)

G_END_DECLS

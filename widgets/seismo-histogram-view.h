/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

#include "seismo-histogram.h"
#include "seismo-view.h"

G_BEGIN_DECLS

/*
 * SeismoHistogramView: a latency histogram of the current filter and time range, bpftrace-style:
 * one bar per bucket (log2 or linear), with count, min, avg, p50, p90, p99 and max. What is
 * measured: syscall duration (all or one syscall), wakeup-to-run latency, time on CPU per run,
 * or the gap between two chosen event types. Computed on a worker thread; drawn with Cairo by
 * seismo_histogram_view_render(), which exports use too. Clicking a bucket emits
 * ::bucket-activated with its index.
 */
#define SEISMO_TYPE_HISTOGRAM_VIEW (seismo_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoHistogramView, seismo_histogram_view, SEISMO, HISTOGRAM_VIEW, GtkWidget)

typedef enum {
  SEISMO_HISTOGRAM_OF_SYSCALL,   /* syscall enter → exit */
  SEISMO_HISTOGRAM_OF_WAKEUP,    /* wakeup → switch-in */
  SEISMO_HISTOGRAM_OF_RUNTIME,   /* switch-in → switch-out */
  SEISMO_HISTOGRAM_OF_GAP,       /* an event of type A → the next of type B on the same task */
  SEISMO_HISTOGRAM_OF_N
} SeismoHistogramOf;

GtkWidget           *seismo_histogram_view_new            (void);
void                 seismo_histogram_view_set_trace      (SeismoHistogramView *self,
                                                           SeismoTrace         *trace);
/* As seismo_stats_view_set_selection(): absolute inclusive times, mask NULL for all. */
void                 seismo_histogram_view_set_selection  (SeismoHistogramView *self,
                                                           guint64              start_ns,
                                                           guint64              end_ns,
                                                           GBytes              *mask);
/* What is measured. syscall: an index of seismo_trace_get_syscall_name(), -1 for all. gap_from
 * and gap_to: event type ids, for SEISMO_HISTOGRAM_OF_GAP. */
void                 seismo_histogram_view_set_measure    (SeismoHistogramView *self,
                                                           SeismoHistogramOf    of,
                                                           int                  syscall,
                                                           guint                gap_from,
                                                           guint                gap_to);
void                 seismo_histogram_view_set_scale      (SeismoHistogramView *self,
                                                           SeismoHistogramScale scale);
void                 seismo_histogram_view_set_large      (SeismoHistogramView *self,
                                                           gboolean             large);
gboolean             seismo_histogram_view_get_busy       (SeismoHistogramView *self);

/* The histogram shown; NULL before the first result. Borrowed. */
SeismoLatencyHistogram *seismo_histogram_view_get_histogram (SeismoHistogramView *self);
/* The bucket drawn at (x, y) of a width × height rendering; -1 when none. */
int                  seismo_histogram_view_bucket_at      (SeismoHistogramView *self,
                                                           int                  width,
                                                           int                  height,
                                                           double               x,
                                                           double               y);
/* A filter expression for a bucket when the language can say it (syscall durations), else
 * NULL. Caller frees. */
char                *seismo_histogram_view_bucket_filter  (SeismoHistogramView *self,
                                                           guint                bucket);
/* The events at both ends of the bucket's samples, as a mask of seismo_filter_mask_words()
 * words; label (caller frees) describes it. Caller owns the bytes. */
GBytes              *seismo_histogram_view_bucket_mask    (SeismoHistogramView *self,
                                                           guint                bucket,
                                                           char               **label);

/* For exports. Draws title, figures and bars on cr in a width × height area (white
 * background). large: projector-sized fonts. */
void                 seismo_histogram_view_render         (SeismoHistogramView *self,
                                                           cairo_t             *cr,
                                                           int                  width,
                                                           int                  height,
                                                           gboolean             large);
/* One line per bucket: "lower_ns,upper_ns,count" after a header and a line of figures.
 * Caller owns the string. */
char                *seismo_histogram_view_to_csv         (SeismoHistogramView *self);

/* Follows view: its trace, and what it counts (range, markers, filter); NULL stops. */
void seismo_histogram_view_set_view (SeismoHistogramView *self,
                                     SeismoView *view);

G_END_DECLS

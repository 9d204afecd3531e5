/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-histogram.h"

G_BEGIN_DECLS

/*
 * A small bar chart of one latency histogram (a task's runnable latency in the "Why was this slow?"
 * dialog): one bar per bucket from the first to the last non-empty one, its count above it, the
 * bucket's lower edge below. Drawn from a copy of the buckets; the histogram can be freed after.
 */
#define SEISMO_TYPE_LATENCY_BARS (seismo_latency_bars_get_type ())
G_DECLARE_FINAL_TYPE (SeismoLatencyBars, seismo_latency_bars, SEISMO, LATENCY_BARS, GtkWidget)

GtkWidget *seismo_latency_bars_new           (void);
/* NULL clears it. */
void       seismo_latency_bars_set_histogram (SeismoLatencyBars      *self,
                                              SeismoLatencyHistogram *histogram);
guint      seismo_latency_bars_get_n_bars    (SeismoLatencyBars      *self);
/* The chart on any cairo context (tests, export), in a width × height box at the origin; fg is
 * the text color. */
void       seismo_latency_bars_draw          (SeismoLatencyBars      *self,
                                              cairo_t                *cr,
                                              double                  width,
                                              double                  height,
                                              const GdkRGBA          *fg);

G_END_DECLS

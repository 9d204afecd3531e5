/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

#include "seismo-timeline.h"

G_BEGIN_DECLS

/*
 * SeismoRateView: a strip of event rate over time, one stacked bar per pixel column, colored by
 * event type or by task (the six biggest, the rest gray). Placed under the timeline's ruler with
 * the same label column, it follows the timeline's view: panning and zooming the timeline
 * recomputes the counts for the new range on a worker thread. Counts only events of the mask.
 */
#define SEISMO_TYPE_RATE_VIEW (seismo_rate_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoRateView, seismo_rate_view, SEISMO, RATE_VIEW, GtkWidget)

typedef enum {
  SEISMO_RATE_BY_TYPE,
  SEISMO_RATE_BY_TASK,
} SeismoRateStack;

#define SEISMO_RATE_CATEGORIES 6

GtkWidget *seismo_rate_view_new          (void);
/* The timeline whose view is followed (borrowed; NULL: none). Its data gives the trace. */
void       seismo_rate_view_set_timeline (SeismoRateView *self,
                                          SeismoTimeline *timeline);
/* Counts only events whose bit is set (NULL: all). */
void       seismo_rate_view_set_mask     (SeismoRateView *self,
                                          GBytes         *mask);
void       seismo_rate_view_set_stack    (SeismoRateView *self,
                                          SeismoRateStack stack);
gboolean   seismo_rate_view_get_busy     (SeismoRateView *self);
/* Counts per pixel column of the last result: n_columns × (SEISMO_RATE_CATEGORIES + 1), the
 * last category being "other". Borrowed; NULL before a result. */
const guint32 *seismo_rate_view_get_counts (SeismoRateView *self,
                                          guint          *n_columns);

/* Computes counts for a view synchronously and draws them in width × height (label column of
 * SEISMO_TIMELINE_LABEL_WIDTH included): for tests and exports. */
void       seismo_rate_view_render       (SeismoTrace    *trace,
                                          GBytes         *mask,
                                          SeismoRateStack stack,
                                          guint64         start_ns,
                                          double          ns_per_px,
                                          cairo_t        *cr,
                                          int             width,
                                          int             height);

/* Counts the events the view's filter keeps; NULL stops following. */
void       seismo_rate_view_set_view     (SeismoRateView *self,
                                          SeismoView     *view);

G_END_DECLS

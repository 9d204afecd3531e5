/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-match-set.h"
#include "seismo-timeline.h"

G_BEGIN_DECLS

/*
 * SeismoFilterOverlay: drawn over the timeline (in a GtkOverlay, not taking input) while a filter
 * is applied: a veil over the rows that dims (or, in hide mode, nearly hides) what the timeline
 * draws, and a mark on each CPU, process and task row at the pixel columns where a matching event
 * of that row lies. Its cost is bounded by pixels: per row and mark a few binary searches, in the
 * matches and in a small index of where each row's matches are (seismo-filter-marks-private.h),
 * built on a worker thread when the filter changes.
 */
#define SEISMO_TYPE_FILTER_OVERLAY (seismo_filter_overlay_get_type ())
G_DECLARE_FINAL_TYPE (SeismoFilterOverlay, seismo_filter_overlay, SEISMO, FILTER_OVERLAY, GtkWidget)

GtkWidget *seismo_filter_overlay_new         (SeismoTimeline      *timeline);
/* matches: a set of events of trace, held (NULL: no filter, nothing drawn). dim: dim rather than
 * hide the events that do not match. */
void       seismo_filter_overlay_set_filter  (SeismoFilterOverlay *self,
                                              SeismoTrace         *trace,
                                              SeismoMatchSet      *matches,
                                              gboolean             dim);
gboolean   seismo_filter_overlay_get_busy    (SeismoFilterOverlay *self);
/* Bytes the overlay's index of the matches holds (0 while it is built), for benchmarks. */
gsize      seismo_filter_overlay_get_index_size (SeismoFilterOverlay *self);

/* Shows the view's filter result (and follows its dim setting); NULL stops. */
void seismo_filter_overlay_set_view (SeismoFilterOverlay *self,
                                     SeismoView          *view);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-filter-bar.h"
#include "seismo-flame-graph-view.h"
#include "seismo-histogram-view.h"
#include "seismo-rate-view.h"
#include "seismo-stats-view.h"
#include "seismo-window.h"

G_BEGIN_DECLS

/*
 * The window's analysis parts: the filter bar above the timeline, the event-rate strip under
 * it, and the Details | Histogram | Statistics panes. What other parts of the app call:
 *
 *   seismo_window_apply_filter (win, "comm == bash");      lessons: apply a filter
 *   seismo_window_show_pane (win, "histogram");            "details", "histogram", "stats"
 *   seismo_histogram_view_render (seismo_window_get_histogram_view (win), cr, w, h, large);
 *   seismo_histogram_view_to_csv (…);                      exports
 *   seismo_stats_view_render (seismo_window_get_stats_view (win), table, cr, w, h, large);
 *   seismo_stats_view_to_csv (…, seismo_stats_view_get_table (…));
 */

/* Applies expression as if typed in the filter bar and Enter pressed ("" clears). FALSE when it
 * does not compile for the trace shown (the bar then shows the error) or there is no trace. */
gboolean             seismo_window_apply_filter         (SeismoWindow *self,
                                                         const char   *expression);
/* The expression whose result is shown ("" when none): it changes when an evaluation started
 * by seismo_window_apply_filter() has finished. */
const char          *seismo_window_get_filter           (SeismoWindow *self);
/* Shows one of the bottom-right panes: "details", "histogram", "stats" or "flamegraph". */
void                 seismo_window_show_pane            (SeismoWindow *self,
                                                         const char   *name);
const char          *seismo_window_get_pane             (SeismoWindow *self);
/* Borrowed. */
SeismoFilterBar     *seismo_window_get_filter_bar       (SeismoWindow *self);
SeismoHistogramView *seismo_window_get_histogram_view   (SeismoWindow *self);
SeismoStatsView     *seismo_window_get_stats_view       (SeismoWindow *self);
SeismoRateView      *seismo_window_get_rate_view        (SeismoWindow *self);
SeismoFlameGraphView *seismo_window_get_flame_graph_view (SeismoWindow *self);
/* Keeps the events whose call stack contains a frame named as frame is (narrowing the filter in
 * force): applies 'stack == "NAME"', as a frame's filter button in the details pane and the flame
 * graph's menu do. */
void                 seismo_window_filter_stack_frame   (SeismoWindow *self,
                                                         SeismoFrameId frame);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-flame-graph-trace.h"
#include "seismo-view.h"

G_BEGIN_DECLS

/*
 * SeismoFlameGraphView: the flame graph pane. Shows the call stacks of the current filter result
 * and time range (or, off-CPU, where tasks slept), weighed by event count or time, as a flame or
 * icicle graph; search highlights frames and says what share of the weight goes through them;
 * a click zooms into a frame (a breadcrumb leads back), hovering tells a frame's details. The
 * graph is built on a worker thread, and only while the pane is shown.
 *
 * Emits ::frame-filter-requested with a frame id when the user asks for the events whose stack
 * contains that frame (its context menu).
 */
#define SEISMO_TYPE_FLAME_GRAPH_VIEW (seismo_flame_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoFlameGraphView, seismo_flame_graph_view, SEISMO, FLAME_GRAPH_VIEW, GtkWidget)

GtkWidget         *seismo_flame_graph_view_new           (void);
void               seismo_flame_graph_view_set_trace     (SeismoFlameGraphView *self,
                                                          SeismoTrace          *trace);
/* As seismo_stats_view_set_selection(): times in [start_ns, end_ns], mask NULL for all. */
void               seismo_flame_graph_view_set_selection (SeismoFlameGraphView *self,
                                                          guint64               start_ns,
                                                          guint64               end_ns,
                                                          GBytes               *mask);
/* TRUE while the graph is being built, or waits for the pane to be shown to be built. */
gboolean           seismo_flame_graph_view_get_busy      (SeismoFlameGraphView *self);
/* The graph shown, NULL when there is none. Borrowed; replaced when the selection changes. */
SeismoFlameGraph  *seismo_flame_graph_view_get_graph     (SeismoFlameGraphView *self);
void               seismo_flame_graph_view_set_source    (SeismoFlameGraphView *self,
                                                          SeismoFlameSource     source);
SeismoFlameSource  seismo_flame_graph_view_get_source    (SeismoFlameGraphView *self);
void               seismo_flame_graph_view_set_weight    (SeismoFlameGraphView *self,
                                                          SeismoFlameWeight     weight);
SeismoFlameWeight  seismo_flame_graph_view_get_weight    (SeismoFlameGraphView *self);
void               seismo_flame_graph_view_set_icicle    (SeismoFlameGraphView *self,
                                                          gboolean              icicle);
void               seismo_flame_graph_view_set_search    (SeismoFlameGraphView *self,
                                                          const char           *text);
/* Zooms into a node of the graph shown (SEISMO_FLAME_ROOT: back to everything). */
void               seismo_flame_graph_view_zoom          (SeismoFlameGraphView *self,
                                                          guint                 node);
/* What the status line under the toolbar says (the search share), for tests. Borrowed. */
const char        *seismo_flame_graph_view_get_match_text (SeismoFlameGraphView *self);

/* Follows view: its trace, and what it counts (range, markers, filter); NULL stops. */
void seismo_flame_graph_view_set_view (SeismoFlameGraphView *self,
                                       SeismoView *view);

G_END_DECLS

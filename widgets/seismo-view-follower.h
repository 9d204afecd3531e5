/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-view.h"

G_BEGIN_DECLS

/*
 * How a pane follows a SeismoView (its set_view()): the view's trace, and what the pane counts —
 * the view's span (range, else the markers' span, else everything) and the mask of the filter in
 * force. The pane gives two callbacks (usually its own set_trace() and set_selection(), cast) and
 * keeps the follower in its instance; the window only hands it the view and brokers nothing.
 */
typedef struct _SeismoViewFollower SeismoViewFollower;

/* The view's trace changed (the pane keeps what it was given when it stops following). */
typedef void (*SeismoViewTraceFunc) (gpointer     pane,
                                     SeismoTrace *trace);
/* What the pane counts changed: times in [start_ns, end_ns], mask NULL for every event. */
typedef void (*SeismoViewSpanFunc)  (gpointer     pane,
                                     guint64      start_ns,
                                     guint64      end_ns,
                                     GBytes      *mask);

struct _SeismoViewFollower
{
  SeismoView          *view;   /* owned */
  SeismoTrace         *trace;  /* owned: the trace the pane was last given */
  gpointer             pane;   /* not owned: the follower lives in it */
  SeismoViewTraceFunc  on_trace;
  SeismoViewSpanFunc   on_span;
};

void seismo_view_follower_init (SeismoViewFollower  *self,
                                gpointer             pane,
                                SeismoViewTraceFunc  on_trace,
                                SeismoViewSpanFunc   on_span);
/* Follows view (NULL: none); TRUE when it changed. The callbacks run at once for the new view. */
gboolean seismo_view_follower_set_view (SeismoViewFollower *self,
                                        SeismoView         *view);
/* Stops following (dispose). */
void seismo_view_follower_clear (SeismoViewFollower *self);

G_END_DECLS

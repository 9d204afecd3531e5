/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include "seismo-view-follower.h"

void
seismo_view_follower_init (SeismoViewFollower  *self,
                           gpointer             pane,
                           SeismoViewTraceFunc  on_trace,
                           SeismoViewSpanFunc   on_span)
{
  self->view = NULL;
  self->trace = NULL;
  self->pane = pane;
  self->on_trace = on_trace;
  self->on_span = on_span;
}

static void trace_changed (SeismoViewFollower *self);

static void
span_changed (SeismoViewFollower *self)
{
  guint64 start, end;

  /* The view announces a new trace's first result before its trace (notifications are held
   * while it changes): the pane takes the trace first, never a mask of another trace. */
  if (seismo_view_get_trace (self->view) != self->trace)
    {
      trace_changed (self);
      return;
    }
  if (self->on_span == NULL || self->trace == NULL)
    return;
  seismo_view_get_count_span (self->view, &start, &end);
  self->on_span (self->pane, start, end, seismo_view_get_mask (self->view));
}

static void
trace_changed (SeismoViewFollower *self)
{
  if (seismo_view_get_trace (self->view) != self->trace)
    {
      g_set_object (&self->trace, seismo_view_get_trace (self->view));
      if (self->on_trace != NULL)
        self->on_trace (self->pane, self->trace);
    }
  span_changed (self);
}

gboolean
seismo_view_follower_set_view (SeismoViewFollower *self,
                               SeismoView         *view)
{
  static const SeismoViewHandler handlers[] = {
    { "notify::trace", G_CALLBACK (trace_changed) },
    /* A filter's result, the markers or the range: what the pane counts. */
    { "result-changed", G_CALLBACK (span_changed) },
    { "markers-changed", G_CALLBACK (span_changed) },
  };

  g_return_val_if_fail (view == NULL || SEISMO_IS_VIEW (view), FALSE);

  if (view == self->view)
    return FALSE;
  seismo_view_follower_clear (self);
  seismo_view_connect (&self->view, view, self, handlers, G_N_ELEMENTS (handlers));
  if (view == NULL)
    return TRUE;
  if (seismo_view_get_trace (view) != NULL)
    trace_changed (self);
  return TRUE;
}

void
seismo_view_follower_clear (SeismoViewFollower *self)
{
  if (self->view == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
  g_clear_object (&self->trace);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>

#include "seismo-timeline-private.h"
#include "seismo-timeline-view-rows.h"

/*
 * The timeline and its SeismoView: what the user changes here (markers, range, selection, rows,
 * visible span) is written to the view, and what is set in the view elsewhere (a lesson, a
 * session, a note) is shown here. syncing_view keeps the two directions from echoing.
 */

/* The view follows what the user did here: markers, range (unset without timing). */
void
_seismo_timeline_push_markers (SeismoTimeline *self)
{
  SeismoTimelineRenderer *r = self->renderer;
  guint64 t, start, end;

  if (self->view == NULL || self->syncing_view)
    return;
  self->syncing_view = TRUE;
  for (guint m = 0; m < 2; m++)
    if (r != NULL && seismo_timeline_renderer_get_marker (r, m, &t))
      seismo_view_set_marker (self->view, m, t);
    else
      seismo_view_clear_marker (self->view, m);
  if (r != NULL && seismo_timeline_renderer_get_range (r, &start, &end))
    seismo_view_set_range (self->view, start, end);
  else
    seismo_view_clear_range (self->view);
  self->syncing_view = FALSE;
}

/* Rows hidden or pinned here, and the notes shown, are the view's too. */
void
_seismo_timeline_push_rows (SeismoTimeline *self)
{
  if (self->view == NULL || self->renderer == NULL || self->syncing_view)
    return;
  self->syncing_view = TRUE;
  seismo_timeline_renderer_rows_to_view (self->renderer, self->view);
  seismo_timeline_renderer_notes_to_view (self->renderer, self->view);
  self->syncing_view = FALSE;
}

/* Markers or range set in the view elsewhere (a lesson, a session): shown here. */
static void
on_view_markers (SeismoTimeline *self)
{
  SeismoTimelineRenderer *r = self->renderer;
  guint64 t, start, end;

  if (self->syncing_view || r == NULL)
    return;
  self->syncing_view = TRUE;
  for (guint m = 0; m < 2; m++)
    if (seismo_view_get_marker (self->view, m, &t))
      seismo_timeline_renderer_set_marker (r, m, t);
    else
      seismo_timeline_renderer_clear_marker (r, m);
  if (seismo_view_get_range (self->view, &start, &end))
    seismo_timeline_renderer_set_range (r, start, end);
  else
    seismo_timeline_renderer_clear_range (r);
  self->syncing_view = FALSE;
  _seismo_timeline_update_markers_text (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_view_rows (SeismoTimeline *self)
{
  if (self->syncing_view || self->renderer == NULL)
    return;
  self->syncing_view = TRUE;
  seismo_timeline_renderer_rows_from_view (self->renderer, self->view);
  self->syncing_view = FALSE;
  _seismo_timeline_view_changed (self);
}

static void
on_view_notes (SeismoTimeline *self)
{
  if (self->syncing_view || self->renderer == NULL)
    return;
  self->syncing_view = TRUE;
  seismo_timeline_renderer_notes_from_view (self->renderer, self->view);
  self->syncing_view = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A visible span set in the view elsewhere (a lesson, a session, a test, another widget): the
 * timeline zooms to it. Its own span, written back by _seismo_timeline_view_changed(), differs
 * from it by rounding only and is left alone. */
static void
on_view_span (SeismoTimeline *self)
{
  SeismoTimelineRenderer *r = self->renderer;
  SeismoTrace *trace;
  guint64 start, end;
  double now_start, now_end, ns_per_px;

  if (self->syncing_view || r == NULL || seismo_timeline_renderer_get_area_width (r) <= 0)
    return;
  seismo_view_get_visible_span (self->view, &start, &end);
  if (end <= start)
    return;
  trace = seismo_timeline_data_get_trace (seismo_timeline_renderer_get_data (r));
  ns_per_px = seismo_timeline_renderer_get_ns_per_px (r);
  now_start = (double) seismo_trace_get_start_ns (trace) + MAX (seismo_timeline_renderer_get_view_start (r), 0);
  now_end = now_start + ns_per_px * seismo_timeline_renderer_get_area_width (r);
  if (fabs ((double) start - now_start) <= ns_per_px && fabs ((double) end - now_end) <= ns_per_px)
    return;
  self->syncing_view = TRUE;
  seismo_timeline_renderer_zoom_to (r, start, end);
  self->syncing_view = FALSE;
  _seismo_timeline_view_changed (self);
}

static void
on_view_selected (SeismoTimeline *self)
{
  seismo_timeline_set_selected_event (self, seismo_view_get_selected_event (self->view));
}

void
seismo_timeline_set_view (SeismoTimeline *self,
                          SeismoView     *view)
{
  static const SeismoViewHandler handlers[] = {
    { "markers-changed", G_CALLBACK (on_view_markers) },
    { "notify::selected-event", G_CALLBACK (on_view_selected) },
    { "rows-changed", G_CALLBACK (on_view_rows) },
    { "notes-changed", G_CALLBACK (on_view_notes) },
    /* Both ends change together (one notification each, held until both are set). */
    { "notify::visible-end", G_CALLBACK (on_view_span) },
  };

  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  g_return_if_fail (view == NULL || SEISMO_IS_VIEW (view));

  if (!seismo_view_connect (&self->view, view, self, handlers, G_N_ELEMENTS (handlers)) || view == NULL)
    return;
  /* What the timeline shows now is what the view holds from here on. */
  _seismo_timeline_push_markers (self);
  _seismo_timeline_push_rows (self);
  seismo_view_set_selected_event (view, self->selected);
}

SeismoView *
seismo_timeline_get_view (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), NULL);
  return self->view;
}

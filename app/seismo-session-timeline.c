/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-session"

#include "seismo-session-timeline.h"
#include "seismo-timeline-notes.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-timeline-view-rows.h"

/* A session names rows as a view does (seismo-session-view.c relies on it too). */
G_STATIC_ASSERT ((int) SEISMO_VIEW_ROW_TASK == (int) SEISMO_SESSION_ROW_TASK);
G_STATIC_ASSERT (sizeof (SeismoViewRow) == sizeof (SeismoSessionRow));

void
seismo_session_apply_to_renderer (const SeismoSession    *session,
                                  SeismoTimelineRenderer *r,
                                  gboolean                with_view)
{
  g_autofree SeismoTimelineNote *notes = NULL;

  g_return_if_fail (session != NULL && r != NULL);

  seismo_timeline_renderer_set_rows (r, (const SeismoViewRow *) session->hidden_rows->data,
                                     session->hidden_rows->len,
                                     (const SeismoViewRow *) session->pinned_rows->data,
                                     session->pinned_rows->len);

  for (guint m = 0; m < 2; m++)
    if (session->has_marker[m])
      seismo_timeline_renderer_set_marker (r, m, session->marker_ns[m]);
    else
      seismo_timeline_renderer_clear_marker (r, m);
  if (session->has_range)
    seismo_timeline_renderer_set_range (r, session->range_start_ns, session->range_end_ns);
  else
    seismo_timeline_renderer_clear_range (r);
  seismo_timeline_renderer_set_selected_event (r, session->selected_event >= 0
                                                  && (guint64) session->selected_event < r->data->n_events
                                                  ? (SeismoEventId) session->selected_event
                                                  : SEISMO_NO_EVENT);
  notes = g_new0 (SeismoTimelineNote, MAX (session->notes->len, 1));
  for (guint i = 0; i < session->notes->len; i++)
    {
      const SeismoSessionNote *n = &g_array_index (session->notes, SeismoSessionNote, i);

      notes[i] = (SeismoTimelineNote) { n->time_ns, n->text };
    }
  seismo_timeline_renderer_set_notes (r, notes, session->notes->len);
  if (with_view && session->has_view && session->view_end_ns > session->view_start_ns)
    seismo_timeline_renderer_zoom_to (r, session->view_start_ns, session->view_end_ns);
}

void
seismo_session_update_from_renderer (SeismoSession          *session,
                                     SeismoTimelineRenderer *r)
{
  const SeismoTimelineNote *notes;
  guint n_notes;
  guint64 start, end;

  g_return_if_fail (session != NULL && r != NULL);

  session->has_view = TRUE;
  session->view_start_ns = (guint64) MAX (0.0, seismo_timeline_renderer_x_to_ns (r, SEISMO_TIMELINE_LABEL_WIDTH));
  session->view_end_ns = (guint64) MAX (0.0, seismo_timeline_renderer_x_to_ns (r, r->width));
  for (guint m = 0; m < 2; m++)
    session->has_marker[m] = seismo_timeline_renderer_get_marker (r, m, &session->marker_ns[m]);
  session->has_range = seismo_timeline_renderer_get_range (r, &start, &end);
  session->range_start_ns = session->has_range ? start : 0;
  session->range_end_ns = session->has_range ? end : 0;
  session->selected_event = r->selected != SEISMO_NO_EVENT ? (gint64) r->selected : -1;

  seismo_timeline_renderer_get_rows (r, session->hidden_rows, session->pinned_rows);

  g_array_set_size (session->notes, 0);
  notes = seismo_timeline_renderer_get_notes (r, &n_notes);
  for (guint i = 0; i < n_notes; i++)
    seismo_session_add_note (session, notes[i].time_ns, notes[i].text);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include "seismo-session-view.h"

void
seismo_session_apply_to_view (const SeismoSession *session,
                              SeismoView          *view)
{
  SeismoTrace *trace;

  g_return_if_fail (session != NULL && SEISMO_IS_VIEW (view));

  trace = seismo_view_get_trace (view);
  for (guint m = 0; m < 2; m++)
    if (session->has_marker[m])
      seismo_view_set_marker (view, m, session->marker_ns[m]);
    else
      seismo_view_clear_marker (view, m);
  if (session->has_range)
    seismo_view_set_range (view, session->range_start_ns, session->range_end_ns);
  else
    seismo_view_clear_range (view);
  if (session->selected_event >= 0 && trace != NULL
      && (guint64) session->selected_event < seismo_trace_get_n_events (trace))
    seismo_view_set_selected_event (view, (guint) session->selected_event);
  if (session->filter != NULL)
    seismo_view_set_filter_text (view, session->filter, NULL);
  {
    g_autofree SeismoViewNote *notes = g_new0 (SeismoViewNote, MAX (session->notes->len, 1));

    /* The kinds are the same list in the same order. */
    G_STATIC_ASSERT ((int) SEISMO_VIEW_ROW_TASK == (int) SEISMO_SESSION_ROW_TASK);
    G_STATIC_ASSERT (sizeof (SeismoViewRow) == sizeof (SeismoSessionRow));
    seismo_view_set_rows (view, (const SeismoViewRow *) session->hidden_rows->data, session->hidden_rows->len,
                          (const SeismoViewRow *) session->pinned_rows->data, session->pinned_rows->len);
    for (guint i = 0; i < session->notes->len; i++)
      {
        const SeismoSessionNote *n = &g_array_index (session->notes, SeismoSessionNote, i);

        notes[i] = (SeismoViewNote) { n->time_ns, n->text };
      }
    seismo_view_set_notes (view, notes, session->notes->len);
  }
  /* Panes are listed in the order they were opened: the last one is shown. */
  if (session->panes->len > 0)
    seismo_view_set_pane (view, g_ptr_array_index (session->panes, session->panes->len - 1));
}

void
seismo_session_update_from_view (SeismoSession *session,
                                 SeismoView    *view)
{
  guint64 start = 0, end = 0;
  guint event;
  const char *filter;

  g_return_if_fail (session != NULL && SEISMO_IS_VIEW (view));

  for (guint m = 0; m < 2; m++)
    session->has_marker[m] = seismo_view_get_marker (view, m, &session->marker_ns[m]);
  session->has_range = seismo_view_get_range (view, &start, &end);
  session->range_start_ns = session->has_range ? start : 0;
  session->range_end_ns = session->has_range ? end : 0;
  event = seismo_view_get_selected_event (view);
  session->selected_event = event != SEISMO_NO_EVENT ? (gint64) event : -1;
  /* The expression asked for (a histogram bucket's set has none to save). */
  filter = seismo_view_get_filter_text (view);
  g_clear_pointer (&session->filter, g_free);
  if (*filter != '\0')
    session->filter = g_strdup (filter);
  g_ptr_array_set_size (session->panes, 0);
  g_ptr_array_add (session->panes, g_strdup (seismo_view_get_pane (view)));
  {
    const SeismoViewRow *rows;
    const SeismoViewNote *notes;
    guint n;

    rows = seismo_view_get_hidden_rows (view, &n);
    g_array_set_size (session->hidden_rows, 0);
    g_array_append_vals (session->hidden_rows, rows, n);
    rows = seismo_view_get_pinned_rows (view, &n);
    g_array_set_size (session->pinned_rows, 0);
    g_array_append_vals (session->pinned_rows, rows, n);
    notes = seismo_view_get_notes (view, &n);
    g_array_set_size (session->notes, 0);
    for (guint i = 0; i < n; i++)
      seismo_session_add_note (session, notes[i].time_ns, notes[i].text);
  }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-session"

#include "seismo-session-timeline.h"
#include "seismo-timeline-notes.h"
#include "seismo-timeline-renderer-private.h"

static gboolean
row_to_key (SeismoTimelineRenderer *r,
            const SeismoSessionRow *row,
            SeismoRowKey           *key)
{
  const SeismoTimelineData *d = r->data;

  switch (row->kind)
    {
    case SEISMO_SESSION_ROW_CPUS:
      *key = (SeismoRowKey) { SEISMO_ROW_CPU_GROUP, 0 };
      return d->n_cpus > 0;
    case SEISMO_SESSION_ROW_CPU:
      *key = (SeismoRowKey) { SEISMO_ROW_CPU, (guint) row->id };
      return row->id >= 0 && row->id < d->n_cpus;
    case SEISMO_SESSION_ROW_PROCESS:
      for (guint p = 0; p < d->n_processes; p++)
        if (d->processes[p].pid == row->id)
          {
            *key = (SeismoRowKey) { SEISMO_ROW_PROCESS, p };
            return TRUE;
          }
      return FALSE;
    case SEISMO_SESSION_ROW_TASK:
      for (guint t = 0; t < d->n_tasks; t++)
        if (d->tasks[t].process != G_MAXUINT && seismo_trace_get_task (d->trace, t)->tid == row->id)
          {
            *key = (SeismoRowKey) { SEISMO_ROW_TASK, t };
            return TRUE;
          }
      return FALSE;
    default:
      return FALSE;
    }
}

static SeismoSessionRow
key_to_row (SeismoTimelineRenderer *r,
            SeismoRowKey            key)
{
  switch (key.kind)
    {
    case SEISMO_ROW_CPU:
      return (SeismoSessionRow) { SEISMO_SESSION_ROW_CPU, key.id };
    case SEISMO_ROW_PROCESS:
      return (SeismoSessionRow) { SEISMO_SESSION_ROW_PROCESS, r->data->processes[key.id].pid };
    case SEISMO_ROW_TASK:
      return (SeismoSessionRow) { SEISMO_SESSION_ROW_TASK, seismo_trace_get_task (r->data->trace, key.id)->tid };
    case SEISMO_ROW_CPU_GROUP:
    default:
      return (SeismoSessionRow) { SEISMO_SESSION_ROW_CPUS, 0 };
    }
}

void
seismo_session_apply_to_renderer (const SeismoSession    *session,
                                  SeismoTimelineRenderer *r,
                                  gboolean                with_view)
{
  g_autofree SeismoTimelineNote *notes = NULL;
  SeismoRowKey key;

  g_return_if_fail (session != NULL && r != NULL);

  seismo_timeline_renderer_show_all_rows (r);
  for (guint i = 0; i < session->hidden_rows->len; i++)
    if (row_to_key (r, &g_array_index (session->hidden_rows, SeismoSessionRow, i), &key))
      seismo_timeline_renderer_hide_row (r, key);
  for (guint i = 0; i < r->pinned_keys->len;)
    {
      guint before = r->pinned_keys->len;

      seismo_timeline_renderer_set_pinned (r, g_array_index (r->pinned_keys, SeismoRowKey, i), FALSE);
      if (r->pinned_keys->len == before)
        i++;
    }
  for (guint i = 0; i < session->pinned_rows->len; i++)
    if (row_to_key (r, &g_array_index (session->pinned_rows, SeismoSessionRow, i), &key))
      seismo_timeline_renderer_set_pinned (r, key, TRUE);

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

static void
add_flagged (SeismoSession          *session,
             SeismoTimelineRenderer *r,
             SeismoRowKey            key,
             guint8                  flags)
{
  if (flags & ROW_FLAG_HIDDEN)
    {
      SeismoSessionRow row = key_to_row (r, key);

      g_array_append_val (session->hidden_rows, row);
    }
}

void
seismo_session_update_from_renderer (SeismoSession          *session,
                                     SeismoTimelineRenderer *r)
{
  const SeismoTimelineData *d;
  const SeismoTimelineNote *notes;
  guint n_notes;
  guint64 start, end;

  g_return_if_fail (session != NULL && r != NULL);
  d = r->data;

  session->has_view = TRUE;
  session->view_start_ns = (guint64) MAX (0.0, seismo_timeline_renderer_x_to_ns (r, SEISMO_TIMELINE_LABEL_WIDTH));
  session->view_end_ns = (guint64) MAX (0.0, seismo_timeline_renderer_x_to_ns (r, r->width));
  for (guint m = 0; m < 2; m++)
    session->has_marker[m] = seismo_timeline_renderer_get_marker (r, m, &session->marker_ns[m]);
  session->has_range = seismo_timeline_renderer_get_range (r, &start, &end);
  session->range_start_ns = session->has_range ? start : 0;
  session->range_end_ns = session->has_range ? end : 0;
  session->selected_event = r->selected != SEISMO_NO_EVENT ? (gint64) r->selected : -1;

  g_array_set_size (session->hidden_rows, 0);
  add_flagged (session, r, (SeismoRowKey) { SEISMO_ROW_CPU_GROUP, 0 }, r->cpu_group_flags);
  for (guint c = 0; c < d->n_cpus; c++)
    add_flagged (session, r, (SeismoRowKey) { SEISMO_ROW_CPU, c }, r->cpu_flags[c]);
  for (guint p = 0; p < d->n_processes; p++)
    add_flagged (session, r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, r->proc_flags[p]);
  for (guint t = 0; t < d->n_tasks; t++)
    if (d->tasks[t].process != G_MAXUINT)
      add_flagged (session, r, (SeismoRowKey) { SEISMO_ROW_TASK, t }, r->task_flags[t]);
  g_array_set_size (session->pinned_rows, 0);
  for (guint k = 0; k < r->pinned_keys->len; k++)
    {
      SeismoSessionRow row = key_to_row (r, g_array_index (r->pinned_keys, SeismoRowKey, k));

      g_array_append_val (session->pinned_rows, row);
    }

  g_array_set_size (session->notes, 0);
  notes = seismo_timeline_renderer_get_notes (r, &n_notes);
  for (guint i = 0; i < n_notes; i++)
    seismo_session_add_note (session, notes[i].time_ns, notes[i].text);
}

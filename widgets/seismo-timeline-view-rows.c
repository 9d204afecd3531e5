/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include "seismo-timeline-notes.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-timeline-view-rows.h"

static gboolean
row_to_key (SeismoTimelineRenderer *r,
            const SeismoViewRow    *row,
            SeismoRowKey           *key)
{
  const SeismoTimelineData *d = r->data;

  switch (row->kind)
    {
    case SEISMO_VIEW_ROW_CPUS:
      *key = (SeismoRowKey) { SEISMO_ROW_CPU_GROUP, 0 };
      return d->n_cpus > 0;
    case SEISMO_VIEW_ROW_CPU:
      *key = (SeismoRowKey) { SEISMO_ROW_CPU, (guint) row->id };
      return row->id >= 0 && row->id < d->n_cpus;
    case SEISMO_VIEW_ROW_PROCESS:
      for (guint p = 0; p < d->n_processes; p++)
        if (d->processes[p].pid == row->id)
          {
            *key = (SeismoRowKey) { SEISMO_ROW_PROCESS, p };
            return TRUE;
          }
      return FALSE;
    case SEISMO_VIEW_ROW_TASK:
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

static SeismoViewRow
key_to_row (SeismoTimelineRenderer *r,
            SeismoRowKey            key)
{
  switch (key.kind)
    {
    case SEISMO_ROW_CPU:
      return (SeismoViewRow) { SEISMO_VIEW_ROW_CPU, key.id };
    case SEISMO_ROW_PROCESS:
      return (SeismoViewRow) { SEISMO_VIEW_ROW_PROCESS, r->data->processes[key.id].pid };
    case SEISMO_ROW_TASK:
      return (SeismoViewRow) { SEISMO_VIEW_ROW_TASK, seismo_trace_get_task (r->data->trace, key.id)->tid };
    case SEISMO_ROW_CPU_GROUP:
    default:
      return (SeismoViewRow) { SEISMO_VIEW_ROW_CPUS, 0 };
    }
}

static void
add_hidden (GArray                 *rows,
            SeismoTimelineRenderer *r,
            SeismoRowKey            key,
            guint8                  flags)
{
  if (flags & ROW_FLAG_HIDDEN)
    {
      SeismoViewRow row = key_to_row (r, key);

      g_array_append_val (rows, row);
    }
}

void
seismo_timeline_renderer_get_rows (SeismoTimelineRenderer *r,
                                   GArray                 *hidden,
                                   GArray                 *pinned)
{
  const SeismoTimelineData *d;

  g_return_if_fail (r != NULL && hidden != NULL && pinned != NULL);

  d = r->data;
  g_array_set_size (hidden, 0);
  g_array_set_size (pinned, 0);
  add_hidden (hidden, r, (SeismoRowKey) { SEISMO_ROW_CPU_GROUP, 0 }, r->cpu_group_flags);
  for (guint c = 0; c < d->n_cpus; c++)
    add_hidden (hidden, r, (SeismoRowKey) { SEISMO_ROW_CPU, c }, r->cpu_flags[c]);
  for (guint p = 0; p < d->n_processes; p++)
    add_hidden (hidden, r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, r->proc_flags[p]);
  for (guint t = 0; t < d->n_tasks; t++)
    if (d->tasks[t].process != G_MAXUINT)
      add_hidden (hidden, r, (SeismoRowKey) { SEISMO_ROW_TASK, t }, r->task_flags[t]);
  for (guint k = 0; k < r->pinned_keys->len; k++)
    {
      SeismoViewRow row = key_to_row (r, g_array_index (r->pinned_keys, SeismoRowKey, k));

      g_array_append_val (pinned, row);
    }
}

void
seismo_timeline_renderer_set_rows (SeismoTimelineRenderer *r,
                                   const SeismoViewRow    *hidden,
                                   guint                   n_hidden,
                                   const SeismoViewRow    *pinned,
                                   guint                   n_pinned)
{
  SeismoRowKey key;

  g_return_if_fail (r != NULL);

  seismo_timeline_renderer_show_all_rows (r);
  for (guint i = 0; i < n_hidden; i++)
    if (row_to_key (r, &hidden[i], &key))
      seismo_timeline_renderer_hide_row (r, key);
  /* Unpinning reorders the pinned keys: start over after each one that went. */
  for (guint i = 0; i < r->pinned_keys->len;)
    {
      guint before = r->pinned_keys->len;

      seismo_timeline_renderer_set_pinned (r, g_array_index (r->pinned_keys, SeismoRowKey, i), FALSE);
      if (r->pinned_keys->len == before)
        i++;
    }
  for (guint i = 0; i < n_pinned; i++)
    if (row_to_key (r, &pinned[i], &key))
      seismo_timeline_renderer_set_pinned (r, key, TRUE);
}

void
seismo_timeline_renderer_rows_to_view (SeismoTimelineRenderer *r,
                                       SeismoView             *view)
{
  g_autoptr(GArray) hidden = g_array_new (FALSE, FALSE, sizeof (SeismoViewRow));
  g_autoptr(GArray) pinned = g_array_new (FALSE, FALSE, sizeof (SeismoViewRow));

  g_return_if_fail (r != NULL && SEISMO_IS_VIEW (view));

  seismo_timeline_renderer_get_rows (r, hidden, pinned);
  seismo_view_set_rows (view, (SeismoViewRow *) hidden->data, hidden->len,
                        (SeismoViewRow *) pinned->data, pinned->len);
}

void
seismo_timeline_renderer_rows_from_view (SeismoTimelineRenderer *r,
                                         SeismoView             *view)
{
  const SeismoViewRow *hidden, *pinned;
  guint n_hidden, n_pinned;

  g_return_if_fail (r != NULL && SEISMO_IS_VIEW (view));

  hidden = seismo_view_get_hidden_rows (view, &n_hidden);
  pinned = seismo_view_get_pinned_rows (view, &n_pinned);
  seismo_timeline_renderer_set_rows (r, hidden, n_hidden, pinned, n_pinned);
}

void
seismo_timeline_renderer_notes_to_view (SeismoTimelineRenderer *r,
                                        SeismoView             *view)
{
  const SeismoTimelineNote *notes;
  g_autofree SeismoViewNote *copy = NULL;
  guint n = 0;

  g_return_if_fail (r != NULL && SEISMO_IS_VIEW (view));

  notes = seismo_timeline_renderer_get_notes (r, &n);
  copy = g_new0 (SeismoViewNote, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    copy[i] = (SeismoViewNote) { notes[i].time_ns, notes[i].text };
  seismo_view_set_notes (view, copy, n);
}

void
seismo_timeline_renderer_notes_from_view (SeismoTimelineRenderer *r,
                                          SeismoView             *view)
{
  const SeismoViewNote *notes;
  g_autofree SeismoTimelineNote *copy = NULL;
  guint n = 0;

  g_return_if_fail (r != NULL && SEISMO_IS_VIEW (view));

  notes = seismo_view_get_notes (view, &n);
  copy = g_new0 (SeismoTimelineNote, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    copy[i] = (SeismoTimelineNote) { notes[i].time_ns, notes[i].text };
  seismo_timeline_renderer_set_notes (r, copy, n);
}

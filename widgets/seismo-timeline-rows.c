/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "seismo-thread-states.h"
#include "seismo-timeline-renderer-private.h"

/* Above this many tasks, multi-threaded processes start collapsed. */
#define EXPAND_ALL_MAX_TASKS 48
/* How far from the pointer an event still counts as under it. */
#define HIT_SLOP_PX 4

static guint8 *
row_flags (SeismoTimelineRenderer *self,
           SeismoRowKey            key)
{
  switch (key.kind)
    {
    case SEISMO_ROW_CPU_GROUP:
      return &self->cpu_group_flags;
    case SEISMO_ROW_CPU:
      return key.id < self->data->n_cpus ? &self->cpu_flags[key.id] : NULL;
    case SEISMO_ROW_PROCESS:
      return key.id < self->data->n_processes ? &self->proc_flags[key.id] : NULL;
    case SEISMO_ROW_TASK:
      return key.id < self->data->n_tasks ? &self->task_flags[key.id] : NULL;
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      return NULL;
    }
}

static gboolean
key_equal (SeismoRowKey a,
           SeismoRowKey b)
{
  return a.kind == b.kind && a.id == b.id;
}

void
_seismo_timeline_renderer_init_rows (SeismoTimelineRenderer *self,
                                     SeismoTimelineRenderer *previous)
{
  const SeismoTimelineData *d = self->data;
  guint n_shown = 0;

  self->cpu_flags = g_new0 (guint8, MAX (d->n_cpus, 1));
  self->proc_flags = g_new0 (guint8, MAX (d->n_processes, 1));
  self->task_flags = g_new0 (guint8, MAX (d->n_tasks, 1));
  self->cpu_order = g_new (guint, MAX (d->n_cpus, 1));
  for (guint c = 0; c < d->n_cpus; c++)
    self->cpu_order[c] = c;
  self->proc_order = g_new (guint, MAX (d->n_processes, 1));
  self->task_order_off = g_new0 (gsize, d->n_processes + 1);
  for (guint p = 0; p < d->n_processes; p++)
    {
      self->proc_order[p] = p;
      self->task_order_off[p + 1] = self->task_order_off[p] + d->processes[p].n_tasks;
      n_shown += d->processes[p].n_tasks;
    }
  self->task_order = g_new (SeismoTaskId, MAX (n_shown, 1));
  for (guint p = 0; p < d->n_processes; p++)
    memcpy (self->task_order + self->task_order_off[p], d->processes[p].tasks,
            sizeof (SeismoTaskId) * d->processes[p].n_tasks);
  self->task_width = g_new (gint16, MAX (d->n_tasks, 1));
  memset (self->task_width, 0xff, sizeof (gint16) * MAX (d->n_tasks, 1));
  self->rows = g_array_new (FALSE, FALSE, sizeof (SeismoTimelineRow));
  self->pinned_rows = g_array_new (FALSE, FALSE, sizeof (SeismoTimelineRow));
  self->pinned_keys = g_array_new (FALSE, FALSE, sizeof (SeismoRowKey));
  self->rows_dirty = TRUE;

  if (previous == NULL)
    {
      if (n_shown > EXPAND_ALL_MAX_TASKS)
        for (guint p = 0; p < d->n_processes; p++)
          if (d->processes[p].n_tasks > 1)
            self->proc_flags[p] |= ROW_FLAG_COLLAPSED;
      return;
    }

  /* A grown trace: carry row states over by CPU number, pid and tid. */
  {
    const SeismoTimelineData *od = previous->data;
    g_autoptr(GHashTable) pids = g_hash_table_new (NULL, NULL);
    g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
    SeismoTrace *ot = od->trace;

    self->cpu_group_flags = previous->cpu_group_flags;
    for (guint c = 0; c < MIN (d->n_cpus, od->n_cpus); c++)
      self->cpu_flags[c] = previous->cpu_flags[c];
    for (guint p = 0; p < od->n_processes; p++)
      g_hash_table_insert (pids, GINT_TO_POINTER (od->processes[p].pid), GUINT_TO_POINTER (p + 1));
    for (guint t = 0; t < od->n_tasks; t++)
      if (od->tasks[t].process != G_MAXUINT)
        g_hash_table_insert (tids, GINT_TO_POINTER (seismo_trace_get_task (ot, t)->tid),
                             GUINT_TO_POINTER (t + 1));
    for (guint p = 0; p < d->n_processes; p++)
      {
        guint op = GPOINTER_TO_UINT (g_hash_table_lookup (pids, GINT_TO_POINTER (d->processes[p].pid)));

        if (op > 0)
          self->proc_flags[p] = previous->proc_flags[op - 1];
        else if (n_shown > EXPAND_ALL_MAX_TASKS && d->processes[p].n_tasks > 1)
          self->proc_flags[p] |= ROW_FLAG_COLLAPSED;
      }
    for (guint t = 0; t < d->n_tasks; t++)
      {
        guint ot_id;

        if (d->tasks[t].process == G_MAXUINT)
          continue;
        ot_id = GPOINTER_TO_UINT (g_hash_table_lookup (tids,
                                  GINT_TO_POINTER (seismo_trace_get_task (d->trace, t)->tid)));
        if (ot_id > 0)
          self->task_flags[t] = previous->task_flags[ot_id - 1];
      }
    /* Pins are re-applied from the old pin list, in its order. */
    for (guint c = 0; c < d->n_cpus; c++)
      self->cpu_flags[c] &= ~ROW_FLAG_PINNED;
    for (guint p = 0; p < d->n_processes; p++)
      self->proc_flags[p] &= ~ROW_FLAG_PINNED;
    for (guint t = 0; t < d->n_tasks; t++)
      self->task_flags[t] &= ~ROW_FLAG_PINNED;
    for (guint k = 0; k < previous->pinned_keys->len; k++)
      {
        SeismoRowKey key = g_array_index (previous->pinned_keys, SeismoRowKey, k);
        guint8 *flags;

        if (key.kind == SEISMO_ROW_PROCESS)
          {
            guint np = G_MAXUINT;

            for (guint p = 0; p < d->n_processes && np == G_MAXUINT; p++)
              if (d->processes[p].pid == od->processes[key.id].pid)
                np = p;
            key.id = np;
          }
        else if (key.kind == SEISMO_ROW_TASK)
          {
            gint32 tid = seismo_trace_get_task (ot, key.id)->tid;
            guint nt = G_MAXUINT;

            for (guint t = d->n_tasks; t-- > 0 && nt == G_MAXUINT;)
              if (d->tasks[t].process != G_MAXUINT && seismo_trace_get_task (d->trace, t)->tid == tid)
                nt = t;
            key.id = nt;
          }
        flags = row_flags (self, key);
        if (flags != NULL && !(*flags & ROW_FLAG_PINNED))
          {
            *flags |= ROW_FLAG_PINNED;
            g_array_append_val (self->pinned_keys, key);
          }
      }
    self->scroll_y = previous->scroll_y;
  }
}

void
_seismo_timeline_renderer_clear_rows (SeismoTimelineRenderer *self)
{
  g_clear_pointer (&self->cpu_flags, g_free);
  g_clear_pointer (&self->proc_flags, g_free);
  g_clear_pointer (&self->task_flags, g_free);
  g_clear_pointer (&self->cpu_order, g_free);
  g_clear_pointer (&self->proc_order, g_free);
  g_clear_pointer (&self->task_order, g_free);
  g_clear_pointer (&self->task_order_off, g_free);
  g_clear_pointer (&self->syscall_width, g_free);
  g_clear_pointer (&self->task_width, g_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->pinned_rows, g_array_unref);
  g_clear_pointer (&self->pinned_keys, g_array_unref);
}

static int
row_height (SeismoRowKind kind)
{
  switch (kind)
    {
    case SEISMO_ROW_CPU_GROUP:
      return ROW_HEIGHT_GROUP;
    case SEISMO_ROW_CPU:
      return ROW_HEIGHT_CPU;
    case SEISMO_ROW_PROCESS:
      return ROW_HEIGHT_PROC;
    case SEISMO_ROW_TASK:
      return ROW_HEIGHT_TASK;
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      return 0;
    }
}

static void
add_row (SeismoTimelineRenderer *self,
         GArray                 *rows,
         int                    *y,
         SeismoRowKind           kind,
         guint                   id,
         guint8                  depth,
         gboolean                pinned)
{
  SeismoTimelineRow row = { kind, id, *y, row_height (kind), depth, pinned };

  /* A task with function_graph calls grows a lane per nesting level under its syscalls. */
  if (kind == SEISMO_ROW_TASK && self->data != NULL && id < self->data->n_tasks)
    row.height += (int) self->data->tasks[id].n_call_levels * ROW_HEIGHT_CALL;

  g_array_append_val (rows, row);
  *y += row.height;
}

static void
add_process_tasks (SeismoTimelineRenderer *self,
                   GArray                 *rows,
                   int                    *y,
                   guint                   p,
                   gboolean                pinned)
{
  for (gsize k = self->task_order_off[p]; k < self->task_order_off[p + 1]; k++)
    {
      SeismoTaskId t = self->task_order[k];

      if (self->task_flags[t] & (ROW_FLAG_HIDDEN | ROW_FLAG_PINNED))
        continue;
      add_row (self, rows, y, SEISMO_ROW_TASK, t, 1, pinned);
    }
}

void
_seismo_timeline_renderer_layout_rows (SeismoTimelineRenderer *self)
{
  const SeismoTimelineData *d = self->data;
  int y = 0;

  if (!self->rows_dirty)
    return;
  self->rows_dirty = FALSE;
  self->base_serial++;
  g_array_set_size (self->rows, 0);
  g_array_set_size (self->pinned_rows, 0);

  for (guint k = 0; k < self->pinned_keys->len; k++)
    {
      SeismoRowKey key = g_array_index (self->pinned_keys, SeismoRowKey, k);
      guint8 *flags = row_flags (self, key);

      if (flags == NULL || (*flags & ROW_FLAG_HIDDEN))
        continue;
      add_row (self, self->pinned_rows, &y, key.kind, key.id, 0, TRUE);
      if (key.kind == SEISMO_ROW_PROCESS && !(*flags & ROW_FLAG_COLLAPSED))
        add_process_tasks (self, self->pinned_rows, &y, key.id, TRUE);
    }
  /* Pinned rows never take more than half of the view. */
  self->pinned_height = MIN (y, (self->height - SEISMO_TIMELINE_RULER_HEIGHT) / 2);
  if (self->pinned_rows->len > 0)
    self->pinned_height += 2;

  y = 0;
  if (d->n_cpus > 0 && !(self->cpu_group_flags & ROW_FLAG_HIDDEN))
    {
      add_row (self, self->rows, &y, SEISMO_ROW_CPU_GROUP, 0, 0, FALSE);
      if (!(self->cpu_group_flags & ROW_FLAG_COLLAPSED))
        for (guint k = 0; k < d->n_cpus; k++)
          {
            guint c = self->cpu_order[k];

            if (!(self->cpu_flags[c] & (ROW_FLAG_HIDDEN | ROW_FLAG_PINNED)))
              add_row (self, self->rows, &y, SEISMO_ROW_CPU, c, 1, FALSE);
          }
    }
  for (guint k = 0; k < d->n_processes; k++)
    {
      guint p = self->proc_order[k];
      const SeismoTimelineProcess *proc = &d->processes[p];

      if (proc->n_tasks == 1)
        {
          /* A single-threaded process is one row. */
          if (!(self->task_flags[proc->tasks[0]] & (ROW_FLAG_HIDDEN | ROW_FLAG_PINNED)))
            add_row (self, self->rows, &y, SEISMO_ROW_TASK, proc->tasks[0], 0, FALSE);
          continue;
        }
      if (self->proc_flags[p] & (ROW_FLAG_HIDDEN | ROW_FLAG_PINNED))
        continue;
      add_row (self, self->rows, &y, SEISMO_ROW_PROCESS, p, 0, FALSE);
      if (!(self->proc_flags[p] & ROW_FLAG_COLLAPSED))
        add_process_tasks (self, self->rows, &y, p, FALSE);
    }
  self->rows_height = y;
  self->scroll_y = CLAMP (self->scroll_y, 0,
                          MAX (0, self->rows_height - seismo_timeline_renderer_get_rows_viewport (self)));
}

int
_seismo_timeline_renderer_rows_top (SeismoTimelineRenderer *self)
{
  _seismo_timeline_renderer_layout_rows (self);
  return SEISMO_TIMELINE_RULER_HEIGHT + self->pinned_height;
}

int
seismo_timeline_renderer_get_rows_height (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  _seismo_timeline_renderer_layout_rows (self);
  return self->rows_height;
}

int
seismo_timeline_renderer_get_rows_viewport (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return MAX (self->height - _seismo_timeline_renderer_rows_top (self), 1);
}

static gboolean
task_is_alone (SeismoTimelineRenderer *self,
               SeismoTaskId            task)
{
  guint p = self->data->tasks[task].process;

  return p != G_MAXUINT && self->data->processes[p].n_tasks == 1;
}

const char *
_seismo_timeline_row_label (SeismoTimelineRenderer  *self,
                            const SeismoTimelineRow *row,
                            char                    *buf,
                            gsize                    size)
{
  SeismoTrace *trace = self->data->trace;

  switch (row->kind)
    {
    case SEISMO_ROW_CPU_GROUP:
      g_snprintf (buf, size, _("CPUs"));
      break;
    case SEISMO_ROW_CPU:
      g_snprintf (buf, size, _("CPU %u"), row->id);
      break;
    case SEISMO_ROW_PROCESS:
      {
        const SeismoTimelineProcess *proc = &self->data->processes[row->id];
        const SeismoTask *task = seismo_trace_get_task (trace, proc->main_task);

        g_snprintf (buf, size, g_dngettext (GETTEXT_PACKAGE, "%s [%d] · %u thread",
                                            "%s [%d] · %u threads", proc->n_tasks),
                    seismo_trace_get_string (trace, task->comm), proc->pid, proc->n_tasks);
      }
      break;
    case SEISMO_ROW_TASK:
      {
        const SeismoTask *task = seismo_trace_get_task (trace, row->id);

        if (task_is_alone (self, row->id))
          g_snprintf (buf, size, "%s [%d]", seismo_trace_get_string (trace, task->comm),
                      task->pid > 0 ? task->pid : task->tid);
        else
          g_snprintf (buf, size, "%s %d", seismo_trace_get_string (trace, task->comm), task->tid);
      }
      break;
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      buf[0] = '\0';
      break;
    }
  return buf;
}

static const SeismoTimelineRow *
find_row (GArray *rows,
          double  y)
{
  guint lo = 0, hi = rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SeismoTimelineRow *row = &g_array_index (rows, SeismoTimelineRow, mid);

      if (y < row->y)
        hi = mid;
      else if (y >= row->y + row->height)
        lo = mid + 1;
      else
        return row;
    }
  return NULL;
}

gboolean
seismo_timeline_renderer_hit (SeismoTimelineRenderer *self,
                              double                  x,
                              double                  y,
                              SeismoTimelineHit      *hit)
{
  const SeismoTimelineRow *row = NULL;
  int top;
  double base = 0;

  g_return_val_if_fail (self != NULL && hit != NULL, FALSE);
  memset (hit, 0, sizeof *hit);
  hit->in_labels = x < SEISMO_TIMELINE_LABEL_WIDTH;
  if (y < 0 || y >= self->height || x < 0 || x >= self->width)
    return FALSE;
  if (y < SEISMO_TIMELINE_RULER_HEIGHT)
    {
      hit->row.kind = SEISMO_ROW_RULER;
      hit->row_height = SEISMO_TIMELINE_RULER_HEIGHT;
      return TRUE;
    }
  top = _seismo_timeline_renderer_rows_top (self);
  if (y < top)
    {
      row = find_row (self->pinned_rows, y - SEISMO_TIMELINE_RULER_HEIGHT);
      base = SEISMO_TIMELINE_RULER_HEIGHT;
    }
  else
    {
      row = find_row (self->rows, y - top + self->scroll_y);
      base = top - self->scroll_y;
    }
  if (row == NULL)
    return FALSE;
  hit->row.kind = row->kind;
  hit->row.id = row->id;
  hit->row_y = base + row->y;
  hit->row_height = row->height;
  if (hit->in_labels && (row->kind == SEISMO_ROW_CPU_GROUP || row->kind == SEISMO_ROW_PROCESS))
    {
      double indent = 8 + 14 * row->depth;

      hit->on_expander = x >= indent - 4 && x < indent + 14;
    }
  return TRUE;
}

gboolean
seismo_timeline_renderer_row_y (SeismoTimelineRenderer *self,
                                SeismoRowKey            key,
                                double                 *y,
                                double                 *height)
{
  int top;

  g_return_val_if_fail (self != NULL, FALSE);
  top = _seismo_timeline_renderer_rows_top (self);
  for (guint i = 0; i < self->pinned_rows->len; i++)
    {
      const SeismoTimelineRow *row = &g_array_index (self->pinned_rows, SeismoTimelineRow, i);

      if (row->kind == key.kind && row->id == key.id)
        {
          *y = SEISMO_TIMELINE_RULER_HEIGHT + row->y;
          *height = row->height;
          return TRUE;
        }
    }
  for (guint i = 0; i < self->rows->len; i++)
    {
      const SeismoTimelineRow *row = &g_array_index (self->rows, SeismoTimelineRow, i);

      if (row->kind == key.kind && row->id == key.id)
        {
          *y = top + row->y - self->scroll_y;
          *height = row->height;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
seismo_timeline_renderer_reveal_task (SeismoTimelineRenderer *self,
                                      SeismoTaskId            task)
{
  double y, h;
  int top, viewport;
  guint p;

  g_return_val_if_fail (self != NULL, FALSE);
  if (task >= self->data->n_tasks || (p = self->data->tasks[task].process) == G_MAXUINT)
    return FALSE;
  /* A collapsed process opens to show the task. */
  if (self->proc_flags[p] & ROW_FLAG_COLLAPSED)
    seismo_timeline_renderer_set_collapsed (self, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, FALSE);
  if (!seismo_timeline_renderer_row_y (self, (SeismoRowKey) { SEISMO_ROW_TASK, task }, &y, &h))
    return FALSE;
  top = _seismo_timeline_renderer_rows_top (self);
  viewport = seismo_timeline_renderer_get_rows_viewport (self);
  if (y < SEISMO_TIMELINE_RULER_HEIGHT + self->pinned_height - 1)
    return TRUE;  /* pinned */
  if (y < top)
    seismo_timeline_renderer_set_scroll_y (self, self->scroll_y - (top - y));
  else if (y + h > top + viewport)
    seismo_timeline_renderer_set_scroll_y (self, self->scroll_y + (y + h - top - viewport) + h);
  return TRUE;
}

gboolean
seismo_timeline_renderer_get_collapsed (SeismoTimelineRenderer *self,
                                        SeismoRowKey            key)
{
  guint8 *flags;

  g_return_val_if_fail (self != NULL, FALSE);
  flags = row_flags (self, key);
  return flags != NULL && (*flags & ROW_FLAG_COLLAPSED);
}

void
seismo_timeline_renderer_set_collapsed (SeismoTimelineRenderer *self,
                                        SeismoRowKey            key,
                                        gboolean                collapsed)
{
  guint8 *flags;

  g_return_if_fail (self != NULL);
  if (key.kind != SEISMO_ROW_CPU_GROUP && key.kind != SEISMO_ROW_PROCESS)
    return;
  if ((flags = row_flags (self, key)) == NULL)
    return;
  if (collapsed)
    *flags |= ROW_FLAG_COLLAPSED;
  else
    *flags &= ~ROW_FLAG_COLLAPSED;
  self->rows_dirty = TRUE;
}

gboolean
seismo_timeline_renderer_get_pinned (SeismoTimelineRenderer *self,
                                     SeismoRowKey            key)
{
  guint8 *flags;

  g_return_val_if_fail (self != NULL, FALSE);
  flags = row_flags (self, key);
  return flags != NULL && (*flags & ROW_FLAG_PINNED);
}

void
seismo_timeline_renderer_set_pinned (SeismoTimelineRenderer *self,
                                     SeismoRowKey            key,
                                     gboolean                pinned)
{
  guint8 *flags;

  g_return_if_fail (self != NULL);
  if (key.kind == SEISMO_ROW_CPU_GROUP || (flags = row_flags (self, key)) == NULL)
    return;
  if (!!(*flags & ROW_FLAG_PINNED) == !!pinned)
    return;
  if (pinned)
    {
      *flags |= ROW_FLAG_PINNED;
      g_array_append_val (self->pinned_keys, key);
    }
  else
    {
      *flags &= ~ROW_FLAG_PINNED;
      for (guint k = 0; k < self->pinned_keys->len; k++)
        if (key_equal (g_array_index (self->pinned_keys, SeismoRowKey, k), key))
          {
            g_array_remove_index (self->pinned_keys, k);
            break;
          }
    }
  self->rows_dirty = TRUE;
}

void
seismo_timeline_renderer_hide_row (SeismoTimelineRenderer *self,
                                   SeismoRowKey            key)
{
  guint8 *flags;

  g_return_if_fail (self != NULL);
  if ((flags = row_flags (self, key)) == NULL)
    return;
  *flags |= ROW_FLAG_HIDDEN;
  self->rows_dirty = TRUE;
}

guint
seismo_timeline_renderer_get_n_hidden (SeismoTimelineRenderer *self)
{
  const SeismoTimelineData *d;
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  d = self->data;
  n = !!(self->cpu_group_flags & ROW_FLAG_HIDDEN);
  for (guint c = 0; c < d->n_cpus; c++)
    n += !!(self->cpu_flags[c] & ROW_FLAG_HIDDEN);
  for (guint p = 0; p < d->n_processes; p++)
    n += !!(self->proc_flags[p] & ROW_FLAG_HIDDEN);
  for (guint t = 0; t < d->n_tasks; t++)
    n += !!(self->task_flags[t] & ROW_FLAG_HIDDEN);
  return n;
}

void
seismo_timeline_renderer_show_all_rows (SeismoTimelineRenderer *self)
{
  const SeismoTimelineData *d;

  g_return_if_fail (self != NULL);
  d = self->data;
  self->cpu_group_flags &= ~ROW_FLAG_HIDDEN;
  for (guint c = 0; c < d->n_cpus; c++)
    self->cpu_flags[c] &= ~ROW_FLAG_HIDDEN;
  for (guint p = 0; p < d->n_processes; p++)
    self->proc_flags[p] &= ~ROW_FLAG_HIDDEN;
  for (guint t = 0; t < d->n_tasks; t++)
    self->task_flags[t] &= ~ROW_FLAG_HIDDEN;
  self->rows_dirty = TRUE;
}

static void
move_in (guint *order,
         gsize  n,
         guint  value,
         int    delta)
{
  for (gsize k = 0; k < n; k++)
    if (order[k] == value)
      {
        gssize to = (gssize) k + delta;

        if (to >= 0 && (gsize) to < n)
          {
            order[k] = order[to];
            order[to] = value;
          }
        return;
      }
}

void
seismo_timeline_renderer_move_row (SeismoTimelineRenderer *self,
                                   SeismoRowKey            key,
                                   int                     delta)
{
  const SeismoTimelineData *d;

  g_return_if_fail (self != NULL);
  d = self->data;
  switch (key.kind)
    {
    case SEISMO_ROW_CPU:
      move_in (self->cpu_order, d->n_cpus, key.id, delta);
      break;
    case SEISMO_ROW_PROCESS:
      move_in (self->proc_order, d->n_processes, key.id, delta);
      break;
    case SEISMO_ROW_TASK:
      {
        guint p = key.id < d->n_tasks ? d->tasks[key.id].process : G_MAXUINT;

        if (p == G_MAXUINT)
          return;
        if (d->processes[p].n_tasks == 1)
          move_in (self->proc_order, d->n_processes, p, delta);
        else
          move_in (self->task_order + self->task_order_off[p],
                   self->task_order_off[p + 1] - self->task_order_off[p], key.id, delta);
      }
      break;
    case SEISMO_ROW_CPU_GROUP:
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      return;
    }
  self->rows_dirty = TRUE;
}

/* Hit queries */

/*
 * The events of a row near a time are found by a scan of the trace's own columns over the few
 * pixels around the pointer, not through per-CPU and per-task event indexes: those cost 4 bytes
 * an event each (80 MB for 10M events) for one lookup per click or tooltip, while the events
 * within a few pixels are few at any zoom (a few thousand when all of 10M are on screen).
 */
typedef struct {
  const guint16      *cpus;
  const SeismoTaskId *tasks;
  const SeismoTimelineData *d;
  SeismoRowKey        key;
} RowEvents;

static void
row_events_init (RowEvents                *re,
                 const SeismoTimelineData *d,
                 SeismoRowKey              key)
{
  re->cpus = seismo_trace_get_cpus (d->trace);
  re->tasks = seismo_trace_get_tasks (d->trace);
  re->d = d;
  re->key = key;
}

static inline gboolean
row_has_event (const RowEvents *re,
               SeismoEventId    e)
{
  SeismoTaskId task;

  switch (re->key.kind)
    {
    case SEISMO_ROW_CPU:
      return re->cpus[e] == re->key.id;
    case SEISMO_ROW_TASK:
      return re->tasks[e] == re->key.id;
    case SEISMO_ROW_PROCESS:
      task = re->tasks[e];
      return task < re->d->n_tasks && re->d->tasks[task].process == re->key.id;
    case SEISMO_ROW_CPU_GROUP:
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      return FALSE;
    }
}

static SeismoEventId
nearest_on_row (SeismoTimelineRenderer *self,
                SeismoRowKey            key,
                guint64                 t,
                double                  slop_ns)
{
  const SeismoTimelineData *d = self->data;
  double best_dist = slop_ns;
  SeismoEventId best = SEISMO_NO_EVENT, before = SEISMO_NO_EVENT, after = SEISMO_NO_EVENT;
  guint64 slop = (guint64) ceil (MAX (slop_ns, 0));
  SeismoEventId e, last;
  RowEvents re;

  if (key.kind != SEISMO_ROW_CPU && key.kind != SEISMO_ROW_TASK && key.kind != SEISMO_ROW_PROCESS)
    return SEISMO_NO_EVENT;
  row_events_init (&re, d, key);
  /* The row's last event before t and its first at or after t, as a per-row index would have
   * them side by side. */
  e = seismo_trace_find_time (d->trace, t > slop ? t - slop : 0);
  last = seismo_trace_find_time (d->trace, t);
  for (; e < last; e++)
    if (row_has_event (&re, e))
      before = e;
  last = seismo_trace_find_time (d->trace, t + slop + 1);
  for (; e < last; e++)
    if (row_has_event (&re, e))
      {
        after = e;
        break;
      }
  if (before != SEISMO_NO_EVENT && fabs ((double) d->ts[before] - (double) t) < best_dist)
    {
      best_dist = fabs ((double) d->ts[before] - (double) t);
      best = before;
    }
  if (after != SEISMO_NO_EVENT && fabs ((double) d->ts[after] - (double) t) < best_dist)
    best = after;
  return best;
}

/* The item of s covering t, or n. */
static gsize
item_at (const SeismoTimelineData *d,
         const SeismoSeq          *s,
         guint64                   t)
{
  gsize i = _seismo_seq_first_ending_after (d, s, t, 0);

  if (i < s->n && _seismo_seq_start (d, s, i) <= t)
    return i;
  return s->n;
}

SeismoEventId
seismo_timeline_renderer_event_at (SeismoTimelineRenderer *self,
                                   double                  x,
                                   double                  y)
{
  const SeismoTimelineData *d;
  SeismoTimelineHit hit;
  SeismoEventId e;
  guint64 t;

  g_return_val_if_fail (self != NULL, SEISMO_NO_EVENT);
  d = self->data;
  if (!seismo_timeline_renderer_hit (self, x, y, &hit) || hit.in_labels)
    return SEISMO_NO_EVENT;
  t = _seismo_timeline_x_to_abs (self, x);

  /* In a task's function-call lanes: the call under the pointer (its exit event, which carries
   * the duration and the return value). */
  if (hit.row.kind == SEISMO_ROW_TASK && y - hit.row_y >= ROW_HEIGHT_TASK)
    {
      const SeismoTimelineTask *tt = &d->tasks[hit.row.id];
      guint level = (guint) ((y - hit.row_y - ROW_HEIGHT_TASK) / ROW_HEIGHT_CALL);

      if (level < tt->n_call_levels)
        {
          const SeismoSeq *s = &tt->calls[level];
          gsize i = item_at (d, s, t);

          return i < s->n ? s->calls[i].exit : SEISMO_NO_EVENT;
        }
    }
  e = nearest_on_row (self, hit.row, t, HIT_SLOP_PX * self->ns_per_px);
  if (e != SEISMO_NO_EVENT)
    return e;

  /* Inside a long box: the event that began it. */
  if (hit.row.kind == SEISMO_ROW_TASK)
    {
      const SeismoSeq *s = &d->tasks[hit.row.id].spans;
      gsize i = item_at (d, s, t);

      if (i < s->n)
        return d->spans[_seismo_seq_span (s, i)].enter;
      s = &d->tasks[hit.row.id].runs;
      i = item_at (d, s, t);
      if (i < s->n)
        return s->intervals[s->idx[i]].start;
    }
  else if (hit.row.kind == SEISMO_ROW_CPU)
    {
      const SeismoSeq *s = &d->cpu_runs[hit.row.id];
      gsize i = item_at (d, s, t);

      if (i < s->n)
        return s->intervals[i].start;
    }
  return SEISMO_NO_EVENT;
}

static void
describe_event (SeismoTimelineRenderer *self,
                SeismoEventId           e,
                GString                *out)
{
  SeismoTrace *trace = self->data->trace;
  const SeismoEventType *type = seismo_trace_event_type (trace, e);
  const SeismoTask *task = seismo_trace_event_task (trace, e);
  g_autofree char *time = seismo_format_time ((double) (self->data->ts[e] - self->data->start_ns), 1);

  g_string_append_printf (out, "\n%s  CPU %u  %s-%d  %s: ", time, seismo_trace_event_cpu (trace, e),
                          task != NULL ? seismo_trace_get_string (trace, task->comm) : "?",
                          task != NULL ? task->tid : -1, type->full_name);
  seismo_trace_event_format_into (trace, e, out);
}

static void
describe_task (SeismoTimelineRenderer *self,
               SeismoTaskId            task_id,
               GString                *out)
{
  SeismoTrace *trace = self->data->trace;
  const SeismoTask *task = seismo_trace_get_task (trace, task_id);

  g_string_append_printf (out, _("%s, thread %d of process %d"),
                          seismo_trace_get_string (trace, task->comm), task->tid, task->pid);
}

char *
seismo_timeline_renderer_describe_at (SeismoTimelineRenderer *self,
                                      double                  x,
                                      double                  y)
{
  const SeismoTimelineData *d;
  SeismoTrace *trace;
  SeismoTimelineHit hit;
  g_autoptr(GString) out = g_string_new (NULL);
  guint64 t;
  double slop;
  gsize i;

  g_return_val_if_fail (self != NULL, NULL);
  d = self->data;
  trace = d->trace;
  if (!seismo_timeline_renderer_hit (self, x, y, &hit) || hit.row.kind == SEISMO_ROW_RULER)
    return NULL;
  if (hit.in_labels)
    {
      char buf[256];
      SeismoTimelineRow row = { hit.row.kind, hit.row.id };

      g_string_append (out, _seismo_timeline_row_label (self, &row, buf, sizeof buf));
      if (hit.row.kind == SEISMO_ROW_TASK)
        {
          g_string_append_c (out, '\n');
          describe_task (self, hit.row.id, out);
        }
      g_string_append (out, _("\nRight-click for pin, hide and order"));
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  t = _seismo_timeline_x_to_abs (self, x);
  slop = HIT_SLOP_PX * self->ns_per_px;
  switch (hit.row.kind)
    {
    case SEISMO_ROW_CPU:
      {
        const SeismoSeq *s = &d->cpu_runs[hit.row.id];

        if ((i = item_at (d, s, t)) < s->n)
          {
            g_autofree char *dur = seismo_format_duration ((double) (_seismo_seq_end (d, s, i)
                                                           - _seismo_seq_start (d, s, i)));

            describe_task (self, s->intervals[i].task, out);
            g_string_append_printf (out, _("\nRan %s on CPU %u"), dur, hit.row.id);
          }
        else
          g_string_append_printf (out, _("CPU %u idle"), hit.row.id);
        s = &d->cpu_irqs[hit.row.id];
        if ((i = item_at (d, s, t)) < s->n)
          {
            g_autofree char *dur = seismo_format_duration ((double) (_seismo_seq_end (d, s, i)
                                                           - _seismo_seq_start (d, s, i)));
            guint32 key = s->intervals[i].key;

            if (key & SEISMO_TIMELINE_SOFTIRQ_BIT)
              g_string_append_printf (out, _("\nSoftirq %u for %s"), key & ~SEISMO_TIMELINE_SOFTIRQ_BIT, dur);
            else
              g_string_append_printf (out, _("\nIRQ %u for %s"), key, dur);
          }
      }
      break;
    case SEISMO_ROW_TASK:
      {
        const SeismoTimelineTask *tt = &d->tasks[hit.row.id];

        describe_task (self, hit.row.id, out);
        if ((i = item_at (d, &tt->spans, t)) < tt->spans.n)
          {
            const SeismoSyscallSpan *span = &d->spans[_seismo_seq_span (&tt->spans, i)];
            g_autofree char *dur = seismo_format_duration ((double) (_seismo_seq_end (d, &tt->spans, i)
                                                           - _seismo_seq_start (d, &tt->spans, i)));
            gint64 ret;

            g_string_append_printf (out, "\n%s()", seismo_trace_get_syscall_name (trace, span->syscall));
            if (seismo_trace_syscall_span_ret (trace, span, &ret))
              {
                g_autofree char *value = g_strdup_printf ("%" G_GINT64_FORMAT, ret);

                /* TRANSLATORS: "read() returned 12 after 3.2 µs" */
                g_string_append_printf (out, _(" returned %s after %s"), value, dur);
              }
            else
              g_string_append_printf (out, _(" did not return (%s seen)"), dur);
          }
        if (seismo_trace_has_states (trace))
          _seismo_timeline_renderer_describe_state (self, hit.row.id, t, out);
        else if ((i = item_at (d, &tt->runs, t)) < tt->runs.n)
          g_string_append_printf (out, _("\nRunning on CPU %u"),
                                  tt->runs.intervals[tt->runs.idx[i]].key);
        if (!seismo_trace_has_states (trace) && (i = item_at (d, &tt->wakeups, t)) < tt->wakeups.n)
          {
            g_autofree char *dur = seismo_format_duration ((double) (_seismo_seq_end (d, &tt->wakeups, i)
                                                           - _seismo_seq_start (d, &tt->wakeups, i)));

            g_string_append_printf (out, _("\nWoken up, waited %s to run"), dur);
          }
      }
      break;
    case SEISMO_ROW_PROCESS:
      {
        const SeismoTimelineProcess *proc = &d->processes[hit.row.id];

        g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Process %d, %u thread",
                                                  "Process %d, %u threads", proc->n_tasks),
                                proc->pid, proc->n_tasks);
      }
      break;
    case SEISMO_ROW_CPU_GROUP:
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      break;
    }

  /* Lost events near the pointer. */
  for (guint k = 0; k < d->n_lost; k++)
    if (fabs ((double) d->lost[k].time_ns - (double) t) <= slop
        && ((hit.row.kind == SEISMO_ROW_CPU && d->lost[k].cpu == (int) hit.row.id)
            || (hit.row.kind == SEISMO_ROW_CPU_GROUP && d->lost[k].cpu < 0)))
      {
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, d->lost[k].count);

        g_string_append_printf (out, _("\n%s events lost here"), count);
      }

  /* The events under the pointer, a few at most. */
  if (hit.row.kind == SEISMO_ROW_CPU || hit.row.kind == SEISMO_ROW_TASK)
    {
      gsize shown = 0;
      RowEvents re;

      row_events_init (&re, d, (SeismoRowKey) { hit.row.kind, hit.row.id });
      for (SeismoEventId k = seismo_trace_find_time (trace, t > slop ? t - (guint64) slop : 0);
           k < d->n_events && (double) d->ts[k] <= (double) t + slop; k++)
        {
          if (!row_has_event (&re, k))
            continue;
          if (shown++ == 4)
            {
              g_string_append (out, "\n…");
              break;
            }
          describe_event (self, k, out);
        }
    }
  if (out->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>

#include "seismo-timeline-renderer-private.h"

/*
 * A trace larger than memory (seismo_timeline_data_new_for_window()): outside the loaded events a
 * row is drawn from the file summary's level-of-detail cells, read per frame at the resolution of
 * the screen, so the whole trace is on screen at any zoom without reading one event. A cell is a
 * bar as tall as the share of its time the CPU (or task) was busy, in the color of the task that
 * ran longest there. Where the summary is coarser than the pixels, the row says "not loaded"
 * with a dim band until the window loads those events.
 */

#define LOD_CELL_PX 2
#define LOD_MAX_CELLS 4096
/* A process row sums at most this many of its threads' rows. */
#define LOD_MAX_THREADS 16

static gboolean
fill_cells (SeismoFileSummary       *summary,
            const SeismoTimelineData *d,
            const SeismoTimelineRow *row,
            guint64                  start_ns,
            guint64                  end_ns,
            guint                    n_cells,
            SeismoLodCell           *cells)
{
  switch (row->kind)
    {
    case SEISMO_ROW_CPU:
      return seismo_file_summary_cpu_row (summary, row->id, start_ns, end_ns, n_cells, cells);
    case SEISMO_ROW_TASK:
      return seismo_file_summary_task_row (summary, row->id, start_ns, end_ns, n_cells, cells);
    case SEISMO_ROW_PROCESS:
      {
        const SeismoTimelineProcess *p = &d->processes[row->id];
        g_autofree SeismoLodCell *more = g_new (SeismoLodCell, n_cells);

        if (!seismo_file_summary_task_row (summary, p->tasks[0], start_ns, end_ns, n_cells, cells))
          return FALSE;
        for (guint t = 1; t < MIN (p->n_tasks, LOD_MAX_THREADS); t++)
          {
            if (!seismo_file_summary_task_row (summary, p->tasks[t], start_ns, end_ns, n_cells, more))
              return FALSE;
            for (guint i = 0; i < n_cells; i++)
              {
                cells[i].events += more[i].events;
                cells[i].busy_ns += more[i].busy_ns;
              }
          }
        return TRUE;
      }
    case SEISMO_ROW_CPU_GROUP:
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      return FALSE;
    }
}

static void
draw_segment (SeismoTimelineRenderer  *self,
              const SeismoTimelineRow *row,
              double                   x0,
              double                   x1,
              double                   y,
              double                   h)
{
  const SeismoTimelineData *d = self->data;
  guint n_cells = (guint) CLAMP ((x1 - x0) / LOD_CELL_PX, 1, LOD_MAX_CELLS);
  double cell_w = (x1 - x0) / n_cells;
  guint64 start_ns = _seismo_timeline_x_to_abs (self, x0);
  guint64 end_ns = _seismo_timeline_x_to_abs (self, x1);
  g_autofree SeismoLodCell *cells = NULL;
  guint task_color = C_TASK;

  if (end_ns <= start_ns || x1 - x0 < 1)
    return;
  if (row->kind == SEISMO_ROW_TASK)
    task_color = C_TASK + d->tasks[row->id].color;
  else if (row->kind == SEISMO_ROW_PROCESS)
    task_color = C_TASK + d->tasks[d->processes[row->id].main_task].color;

  cells = g_new0 (SeismoLodCell, n_cells);
  /* Task buckets are coarser than CPU ones: wider cells where the summary has fewer. */
  while (!fill_cells (d->summary, d, row, start_ns, end_ns, n_cells, cells))
    {
      if (n_cells < 2)
        {
          /* Finer than the summary: the window loads these events (SeismoTimeline::load-window). */
          _seismo_timeline_renderer_emit_rect (self, C_GROUP_BG, x0, y, x1 - x0, h);
          return;
        }
      n_cells /= 2;
      cell_w = (x1 - x0) / n_cells;
    }
  for (guint i = 0; i < n_cells; i++)
    {
      const SeismoLodCell *c = &cells[i];
      double span = (double) MAX (c->end_ns - c->start_ns, 1);
      double share = MIN ((double) c->busy_ns / span, 1.0);
      double bar;
      guint color;

      if (c->events == 0 && c->busy_ns == 0)
        continue;
      /* A task's share of a wide cell is small, and any activity is worth seeing: the square root
       * keeps short bursts visible, and busy cells still stand taller. Quantized, so that
       * neighbouring cells of one height merge into one rectangle. */
      bar = row->kind == SEISMO_ROW_CPU ? MAX (round (share * h), 2)
                                        : CLAMP (round (sqrt (share) * h), round (h / 3), h);
      if (row->kind == SEISMO_ROW_CPU)
        color = c->task != SEISMO_NO_TASK && c->task < d->n_tasks
                ? C_TASK + d->tasks[c->task].color : C_SYSCALL_DENSE;
      else
        color = task_color;
      _seismo_timeline_renderer_emit_rect (self, color, x0 + i * cell_w, y + h - bar, cell_w, bar);
    }
}

void
_seismo_timeline_renderer_draw_lod (SeismoTimelineRenderer  *self,
                                    const SeismoTimelineRow *row,
                                    double                   y,
                                    double                   h)
{
  const SeismoTimelineData *d = self->data;
  double left = SEISMO_TIMELINE_LABEL_WIDTH, right = self->width;
  double loaded_x0, loaded_x1;

  if (d->summary == NULL)
    return;
  loaded_x0 = CLAMP (_seismo_timeline_abs_to_x (self, d->loaded_start_ns), left, right);
  loaded_x1 = CLAMP (_seismo_timeline_abs_to_x (self, d->loaded_end_ns), left, right);
  draw_segment (self, row, left, loaded_x0, y, h);
  draw_segment (self, row, loaded_x1, right, y, h);
}

gboolean
seismo_timeline_renderer_view_loaded (SeismoTimelineRenderer *self)
{
  const SeismoTimelineData *d = self->data;
  guint64 a, b;

  if (d->summary == NULL)
    return TRUE;
  a = _seismo_timeline_x_to_abs (self, SEISMO_TIMELINE_LABEL_WIDTH);
  b = _seismo_timeline_x_to_abs (self, self->width);
  /* The ends of the trace hold no events: a view reaching past them is still loaded. */
  a = MAX (a, d->start_ns);
  b = MIN (b, d->end_ns);
  return (a >= d->loaded_start_ns || d->loaded_start_ns <= d->start_ns)
         && (b <= d->loaded_end_ns || d->loaded_end_ns >= d->end_ns);
}

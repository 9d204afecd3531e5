/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "seismo-critical-path.h"
#include "seismo-thread-states.h"
#include "seismo-timeline-renderer-private.h"

/*
 * Thread states on the task rows, the wakeups of the focused task as arrows, and the critical path
 * as a band across the task rows.
 *
 * State colors come from the Okabe–Ito palette, which stays apart for the common color-vision
 * deficiencies and on a washed-out projector: running bluish green, runnable orange, D blue,
 * stopped reddish purple. Sleeping is a thin gray line rather than a box, so it also differs by
 * shape; unknown is left empty: the eye reads "nothing known" there, as it should.
 */

static const guint state_colors[SEISMO_STATE_N] = {
  [SEISMO_STATE_UNKNOWN]         = G_MAXUINT,
  [SEISMO_STATE_RUNNING]         = C_STATE_RUNNING,
  [SEISMO_STATE_RUNNABLE]        = C_STATE_RUNNABLE,
  [SEISMO_STATE_SLEEPING]        = C_STATE_SLEEPING,
  [SEISMO_STATE_UNINTERRUPTIBLE] = C_STATE_D,
  [SEISMO_STATE_STOPPED]         = C_STATE_STOPPED,
  [SEISMO_STATE_DEAD]            = C_STATE_DEAD,
};

void
_seismo_timeline_renderer_state_palette (SeismoTimelineRenderer *self)
{
  SeismoColor *p = self->palette;
  gboolean dark = self->dark;
  static const struct {
    guint   color;
    guint32 rgb;
  } fixed[] = {
    { C_STATE_RUNNING, 0x009e73 },
    { C_STATE_RUNNABLE, 0xe69f00 },
    { C_STATE_D, 0x0072b2 },
    { C_STATE_STOPPED, 0xcc79a7 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    {
      p[fixed[i].color].red = ((fixed[i].rgb >> 16) & 0xff) / 255.f;
      p[fixed[i].color].green = ((fixed[i].rgb >> 8) & 0xff) / 255.f;
      p[fixed[i].color].blue = (fixed[i].rgb & 0xff) / 255.f;
      p[fixed[i].color].alpha = 1;
    }
  /* On dark backgrounds the blue of D needs lifting to be seen. */
  if (dark)
    p[C_STATE_D] = (SeismoColor) { 0.34f, 0.71f, 0.91f, 1 };
  p[C_STATE_SLEEPING] = dark ? (SeismoColor) { 0.6f, 0.6f, 0.6f, 1 } : (SeismoColor) { 0.55f, 0.55f, 0.55f, 1 };
  p[C_STATE_DEAD] = dark ? (SeismoColor) { 1, 1, 1, 0.25f } : (SeismoColor) { 0, 0, 0, 0.25f };
  p[C_PATH] = dark ? (SeismoColor) { 1, 0.35f, 0.75f, 0.30f } : (SeismoColor) { 0.80f, 0.0f, 0.45f, 0.22f };
  p[C_PATH_EDGE] = dark ? (SeismoColor) { 1, 0.45f, 0.8f, 1 } : (SeismoColor) { 0.75f, 0.0f, 0.42f, 1 };
  p[C_ARROW] = dark ? (SeismoColor) { 1, 1, 1, 0.9f } : (SeismoColor) { 0.1f, 0.1f, 0.1f, 0.9f };
}

static void
state_rect (SeismoTimelineRenderer *self,
            guint8                  state,
            double                  x,
            double                  w,
            double                  y,
            double                  h)
{
  guint color = state < SEISMO_STATE_N ? state_colors[state] : G_MAXUINT;

  if (color == G_MAXUINT)
    return;
  if (state == SEISMO_STATE_SLEEPING || state == SEISMO_STATE_DEAD)
    {
      /* A thin line in the middle: waiting, not using anything. */
      _seismo_timeline_renderer_emit_rect (self, color, x, y + floor (h / 2) - 1, w, 2);
      return;
    }
  _seismo_timeline_renderer_emit_rect (self, color, x, y, w, h);
}

/* Per pixel column: a state that covers the column is drawn as a box to its end; a column holding
 * several changes shows the state at its middle. A frame costs a search per column at most. */
void
_seismo_timeline_renderer_draw_states (SeismoTimelineRenderer *self,
                                       SeismoTaskId            task,
                                       double                  y,
                                       double                  h)
{
  SeismoTrace *trace = self->data->trace;
  const int x0 = SEISMO_TIMELINE_LABEL_WIDTH, x1 = self->width;
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, task, &n);
  const guint64 *ts = seismo_trace_get_times (trace);
  guint64 trace_end = seismo_trace_get_end_ns (trace);
  int x = x0;

  if (n == 0)
    return;
  while (x < x1)
    {
      guint64 ta = _seismo_timeline_x_to_abs (self, x);
      guint64 tb = _seismo_timeline_x_to_abs (self, x + 1);
      gsize i = seismo_trace_task_state_find (trace, task, ta);
      guint64 end;

      if (ta >= trace_end)
        break;
      if (i == G_MAXSIZE)
        {
          double xs = _seismo_timeline_abs_to_x (self, ts[spans[0].start]);

          if (xs >= x1)
            break;
          x = MAX (x + 1, (int) floor (xs));
          continue;
        }
      end = i + 1 < n ? ts[spans[i + 1].start] : trace_end;
      if (end >= tb)
        {
          double xe = MIN (ceil (_seismo_timeline_abs_to_x (self, end)), x1);
          int next = MAX (x + 1, (int) floor (xe));

          state_rect (self, spans[i].state, x, next - x, y, h);
          x = next;
          continue;
        }
      i = seismo_trace_task_state_find (trace, task, ta + (tb - ta) / 2);
      if (i != G_MAXSIZE)
        state_rect (self, spans[i].state, x, 1, y, h);
      x++;
    }
}

typedef struct {
  SeismoTimelineRenderer *self;
  GHashTable             *rows;   /* task + 1 → row middle y + 1 (0: not shown) */
} RowCache;

static gboolean
task_row (RowCache     *cache,
          SeismoTaskId  task,
          double       *y,
          double       *h)
{
  gpointer hit;
  double ry = 0, rh = 0;

  if (task == SEISMO_NO_TASK)
    return FALSE;
  if (g_hash_table_lookup_extended (cache->rows, GUINT_TO_POINTER (task + 1), NULL, &hit))
    {
      double *v = hit;

      if (v == NULL)
        return FALSE;
      *y = v[0];
      *h = v[1];
      return TRUE;
    }
  if (!seismo_timeline_renderer_row_y (cache->self, (SeismoRowKey) { SEISMO_ROW_TASK, task }, &ry, &rh))
    {
      g_hash_table_insert (cache->rows, GUINT_TO_POINTER (task + 1), NULL);
      return FALSE;
    }
  {
    double *v = g_new (double, 2);

    v[0] = ry;
    v[1] = rh;
    g_hash_table_insert (cache->rows, GUINT_TO_POINTER (task + 1), v);
  }
  *y = ry;
  *h = rh;
  return TRUE;
}

static void
arrow_head (cairo_t *cr,
            double   x,
            double   y,
            double   dx,
            double   dy)
{
  double len = sqrt (dx * dx + dy * dy);
  double ux, uy;

  if (len <= 0)
    return;
  ux = dx / len;
  uy = dy / len;
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - 6 * ux + 3.5 * uy, y - 6 * uy - 3.5 * ux);
  cairo_line_to (cr, x - 6 * ux - 3.5 * uy, y - 6 * uy + 3.5 * ux);
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* Up to this many wakeups of the focused task in view get arrows; more would be a smear. */
#define MAX_ARROWS 400

static void
draw_wakeup_arrows (SeismoTimelineRenderer *self,
                    cairo_t                *cr,
                    RowCache               *cache)
{
  SeismoTrace *trace = self->data->trace;
  SeismoTaskId task = self->focus_task;
  const guint64 *ts = seismo_trace_get_times (trace);
  guint64 t0 = _seismo_timeline_x_to_abs (self, SEISMO_TIMELINE_LABEL_WIDTH);
  guint64 t1 = _seismo_timeline_x_to_abs (self, self->width);
  double ty, th;
  gsize n, i, first, count = 0;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, task, &n);
  const SeismoColor *c = &self->palette[C_ARROW];

  if (n == 0 || !task_row (cache, task, &ty, &th))
    return;
  first = seismo_trace_task_state_find (trace, task, t0);
  first = first == G_MAXSIZE ? 0 : first;
  for (i = first; i < n && ts[spans[i].start] <= t1; i++)
    count += (spans[i].flags & SEISMO_STATE_FLAG_WOKEN) != 0;
  if (count > MAX_ARROWS)
    return;

  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
  cairo_set_line_width (cr, 1.5);
  for (i = first; i < n && ts[spans[i].start] <= t1; i++)
    {
      double xw, xr, wy, wh, lane = ty + 5;
      SeismoTaskId waker;

      if (!(spans[i].flags & SEISMO_STATE_FLAG_WOKEN))
        continue;
      xw = _seismo_timeline_abs_to_x (self, ts[spans[i].start]);
      xr = _seismo_timeline_abs_to_x (self, i + 1 < n ? ts[spans[i + 1].start]
                                                      : seismo_trace_get_end_ns (trace));
      /* Waker → wakeup: from the waker's row (or a stub from above when it is not shown, or the
       * wakeup came from an interrupt, whatever task it interrupted). */
      if (seismo_trace_task_state_wake_source (trace, task, i, &waker) == SEISMO_WAKER_TASK &&
          waker != task && task_row (cache, waker, &wy, &wh))
        {
          double from = wy + wh / 2, to = from < lane ? ty + 1 : ty + th - 1;

          cairo_move_to (cr, xw, from);
          cairo_line_to (cr, xw, to);
          cairo_stroke (cr);
          arrow_head (cr, xw, to, 0, to - from);
          cairo_arc (cr, xw, from, 2.5, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      else
        {
          cairo_move_to (cr, xw, ty - 6);
          cairo_line_to (cr, xw, ty + 1);
          cairo_stroke (cr);
          arrow_head (cr, xw, ty + 1, 0, 1);
        }
      /* Wakeup → ran: along the state lane. */
      if (xr - xw >= 8)
        {
          cairo_move_to (cr, xw, lane);
          cairo_line_to (cr, xr, lane);
          cairo_stroke (cr);
          arrow_head (cr, xr, lane, 1, 0);
        }
    }
}

static void
draw_path (SeismoTimelineRenderer *self,
           cairo_t                *cr,
           RowCache               *cache)
{
  const SeismoColor *band = &self->palette[C_PATH];
  const SeismoColor *edge = &self->palette[C_PATH_EDGE];
  guint64 t0 = _seismo_timeline_x_to_abs (self, SEISMO_TIMELINE_LABEL_WIDTH);
  guint64 t1 = _seismo_timeline_x_to_abs (self, self->width);
  double last_y = -1;

  for (guint i = 0; i < self->critical_path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (self->critical_path, SeismoPathSegment, i);
      double y, h, xa, xb;

      if (seg->end_ns < t0 || seg->start_ns > t1)
        {
          last_y = -1;
          continue;
        }
      /* An interrupt waited for is the CPU's, not the task's it happened to interrupt: on the CPU
       * row when it is shown. */
      if (!((seg->state == SEISMO_PATH_IRQ || seg->state == SEISMO_PATH_SOFTIRQ) &&
            seismo_timeline_renderer_row_y (self, (SeismoRowKey) { SEISMO_ROW_CPU, seg->cpu }, &y, &h)) &&
          !task_row (cache, seg->task, &y, &h))
        {
          last_y = -1;
          continue;
        }
      xa = MAX (_seismo_timeline_abs_to_x (self, seg->start_ns), SEISMO_TIMELINE_LABEL_WIDTH - 2);
      xb = MIN (_seismo_timeline_abs_to_x (self, seg->end_ns), self->width + 2);
      xb = MAX (xb, xa + 1);
      cairo_set_source_rgba (cr, band->red, band->green, band->blue, band->alpha);
      cairo_rectangle (cr, xa, y, xb - xa, h - 1);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, edge->red, edge->green, edge->blue, edge->alpha);
      cairo_set_line_width (cr, 2.5);
      cairo_move_to (cr, xa, y + h - 2);
      cairo_line_to (cr, xb, y + h - 2);
      cairo_stroke (cr);
      /* The hand-over from one task to the next (a wakeup), as a vertical step. */
      if (last_y >= 0 && last_y != y)
        {
          cairo_move_to (cr, xa, last_y + h - 2);
          cairo_line_to (cr, xa, y + h - 2);
          cairo_stroke (cr);
        }
      last_y = y;
    }
}

void
_seismo_timeline_renderer_draw_wait_chain (SeismoTimelineRenderer *self,
                                           const SeismoCanvas     *canvas,
                                           gpointer                canvas_data)
{
  RowCache cache = { self, NULL };
  cairo_t *cr;

  if (self->focus_task == SEISMO_NO_TASK && self->critical_path == NULL)
    return;
  cache.rows = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  canvas->push_clip (canvas_data, SEISMO_TIMELINE_LABEL_WIDTH, SEISMO_TIMELINE_RULER_HEIGHT,
                     self->width - SEISMO_TIMELINE_LABEL_WIDTH, self->height - SEISMO_TIMELINE_RULER_HEIGHT);
  cr = canvas->begin_cairo (canvas_data, SEISMO_TIMELINE_LABEL_WIDTH, SEISMO_TIMELINE_RULER_HEIGHT,
                            self->width - SEISMO_TIMELINE_LABEL_WIDTH,
                            self->height - SEISMO_TIMELINE_RULER_HEIGHT);
  if (self->critical_path != NULL)
    draw_path (self, cr, &cache);
  if (self->focus_task != SEISMO_NO_TASK)
    draw_wakeup_arrows (self, cr, &cache);
  canvas->end_cairo (canvas_data, cr);
  canvas->pop_clip (canvas_data);
  g_hash_table_unref (cache.rows);
}

/* The hover text of a task row: its state at t, for how long, and why. */
void
_seismo_timeline_renderer_describe_state (SeismoTimelineRenderer *self,
                                          SeismoTaskId            task,
                                          guint64                 t,
                                          GString                *out)
{
  SeismoTrace *trace = self->data->trace;
  gsize n, i = seismo_trace_task_state_find (trace, task, t);
  const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, task, &n);
  const SeismoStateSpan *span;
  g_autofree char *dur = NULL;
  guint syscall;
  guint64 caller;

  if (i == G_MAXSIZE)
    {
      g_string_append (out, _("\nState unknown: not seen yet"));
      return;
    }
  span = &spans[i];
  dur = seismo_format_duration ((double) (seismo_trace_task_state_end_ns (trace, task, i) -
                                          seismo_trace_task_state_start_ns (trace, task, i)));
  switch ((SeismoThreadState) span->state)
    {
    case SEISMO_STATE_RUNNING:
      g_string_append_printf (out, _("\nRunning on CPU %u for %s"), span->cpu, dur);
      break;
    case SEISMO_STATE_RUNNABLE:
      if (span->flags & SEISMO_STATE_FLAG_WOKEN)
        {
          SeismoTaskId waker;
          SeismoWakerKind source = seismo_trace_task_state_wake_source (trace, task, i, &waker);
          const SeismoTask *w = seismo_trace_get_task (trace, waker);

          if (source == SEISMO_WAKER_IRQ || source == SEISMO_WAKER_SOFTIRQ)
            g_string_append_printf (out, _("\nRunnable for %s: woken by an interrupt, waiting for a CPU"), dur);
          else if (w != NULL)
            g_string_append_printf (out, _("\nRunnable for %s: woken by %s-%d, waiting for a CPU"), dur,
                                    seismo_trace_get_string (trace, w->comm), w->tid);
          else
            g_string_append_printf (out, _("\nRunnable for %s: woken, waiting for a CPU"), dur);
        }
      else
        g_string_append_printf (out, _("\nRunnable for %s: preempted, waiting for a CPU"), dur);
      break;
    case SEISMO_STATE_SLEEPING:
    case SEISMO_STATE_UNINTERRUPTIBLE:
      g_string_append_printf (out, span->state == SEISMO_STATE_SLEEPING ? _("\nSleeping for %s")
                                                                         : _("\nUninterruptible (D) for %s"),
                              dur);
      if (seismo_trace_task_state_syscall (trace, task, i, &syscall))
        g_string_append_printf (out, _(" in %s()"), seismo_trace_get_syscall_name (trace, syscall));
      if (seismo_trace_task_state_blocked_caller (trace, task, i, &caller))
        g_string_append_printf (out, _(", blocked at 0x%" PRIx64), (uint64_t) caller);
      break;
    case SEISMO_STATE_STOPPED:
      g_string_append_printf (out, _("\nStopped for %s"), dur);
      break;
    case SEISMO_STATE_DEAD:
      g_string_append (out, _("\nExited"));
      break;
    case SEISMO_STATE_UNKNOWN:
    case SEISMO_STATE_N:
    default:
      g_string_append (out, span->flags & SEISMO_STATE_FLAG_LOST ? _("\nState unknown: events were lost")
                                                                 : _("\nState unknown"));
      break;
    }
}

/**
 * seismo_timeline_renderer_set_focus_task:
 * @task: the task whose wakeups get arrows, or SEISMO_NO_TASK
 */
void
seismo_timeline_renderer_set_focus_task (SeismoTimelineRenderer *self,
                                         SeismoTaskId            task)
{
  g_return_if_fail (self != NULL);
  self->focus_task = task < self->data->n_tasks ? task : SEISMO_NO_TASK;
}

SeismoTaskId
seismo_timeline_renderer_get_focus_task (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, SEISMO_NO_TASK);
  return self->focus_task;
}

/**
 * seismo_timeline_renderer_set_critical_path:
 * @path: (nullable): SeismoPathSegment array to highlight; the renderer takes a reference
 */
void
seismo_timeline_renderer_set_critical_path (SeismoTimelineRenderer *self,
                                            GArray                 *path)
{
  g_return_if_fail (self != NULL);
  if (path != NULL)
    g_array_ref (path);
  g_clear_pointer (&self->critical_path, g_array_unref);
  self->critical_path = path;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>
#include <string.h>

#include "seismo-filter-overlay.h"

/* Matching events grouped per CPU and per task, each group in time order (CSR layout). */
typedef struct {
  guint     n_cpus;
  guint     n_tasks;
  gsize    *cpu_off;    /* n_cpus + 1 */
  guint32  *cpu_ids;
  gsize    *task_off;   /* n_tasks + 1 */
  guint32  *task_ids;
} RowIndex;

static void
row_index_free (RowIndex *ix)
{
  if (ix == NULL)
    return;
  g_free (ix->cpu_off);
  g_free (ix->cpu_ids);
  g_free (ix->task_off);
  g_free (ix->task_ids);
  g_free (ix);
}

static RowIndex *
row_index_build (SeismoTrace  *trace,
                 GBytes       *matches,
                 GCancellable *cancellable)
{
  gsize n_bytes;
  const guint32 *ids = g_bytes_get_data (matches, &n_bytes);
  gsize n = n_bytes / sizeof (guint32);
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  RowIndex *ix = g_new0 (RowIndex, 1);
  g_autofree gsize *cpu_fill = NULL;
  g_autofree gsize *task_fill = NULL;

  ix->n_cpus = seismo_trace_get_n_cpus (trace);
  ix->n_tasks = seismo_trace_get_n_tasks (trace);
  ix->cpu_off = g_new0 (gsize, ix->n_cpus + 1);
  ix->task_off = g_new0 (gsize, ix->n_tasks + 1);
  for (gsize i = 0; i < n; i++)
    {
      if (cpus[ids[i]] < ix->n_cpus)
        ix->cpu_off[cpus[ids[i]] + 1]++;
      if (tasks[ids[i]] < ix->n_tasks)
        ix->task_off[tasks[ids[i]] + 1]++;
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      row_index_free (ix);
      return NULL;
    }
  for (guint c = 0; c < ix->n_cpus; c++)
    ix->cpu_off[c + 1] += ix->cpu_off[c];
  for (guint t = 0; t < ix->n_tasks; t++)
    ix->task_off[t + 1] += ix->task_off[t];
  ix->cpu_ids = g_new (guint32, MAX (ix->cpu_off[ix->n_cpus], 1));
  ix->task_ids = g_new (guint32, MAX (ix->task_off[ix->n_tasks], 1));
  cpu_fill = g_memdup2 (ix->cpu_off, sizeof (gsize) * (ix->n_cpus + 1));
  task_fill = g_memdup2 (ix->task_off, sizeof (gsize) * (ix->n_tasks + 1));
  /* ids ascend, so each group comes out in time order. */
  for (gsize i = 0; i < n; i++)
    {
      if (cpus[ids[i]] < ix->n_cpus)
        ix->cpu_ids[cpu_fill[cpus[ids[i]]]++] = ids[i];
      if (tasks[ids[i]] < ix->n_tasks)
        ix->task_ids[task_fill[tasks[ids[i]]]++] = ids[i];
    }
  return ix;
}

struct _SeismoFilterOverlay
{
  GtkWidget       parent_instance;

  /* borrowed */
  SeismoTimeline *timeline;

  /* owned */
  SeismoView     *view;           /* followed: its matches shaded, dimmed or hidden */
  SeismoTrace    *trace;
  RowIndex       *index;
  GCancellable   *cancellable;
  GdkFrameClock  *clock;          /* while realized: frames are followed, never requested */
  gulong          before_paint_id;
  gulong          after_paint_id;

  gboolean        active;
  gboolean        dim;
  /* What the last frame was drawn for; a change of any redraws. */
  double          drawn[6];
};

G_DEFINE_FINAL_TYPE (SeismoFilterOverlay, seismo_filter_overlay, GTK_TYPE_WIDGET)

/* The first of ids[0..n) with a time >= t. */
static gsize
lower_bound (const guint64 *ts,
             const guint32 *ids,
             gsize          n,
             guint64        t)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ts[ids[mid]] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
mark_row (GtkSnapshot            *snapshot,
          SeismoTimelineRenderer *r,
          const guint64          *ts,
          const guint32          *ids,
          gsize                   n,
          double                  y,
          double                  h,
          double                  x0,
          double                  x1,
          const GdkRGBA          *color)
{
  gsize i;

  if (n == 0)
    return;
  i = lower_bound (ts, ids, n, (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x0), 0));
  while (i < n)
    {
      double x = seismo_timeline_renderer_ns_to_x (r, ts[ids[i]]);
      double next;

      if (x >= x1)
        break;
      gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (floor (x), y + 2, 2, MAX (h - 4, 1)));
      /* Skip to the next pixel column: one search per column, whatever the event count. */
      next = seismo_timeline_renderer_x_to_ns (r, floor (x) + 2);
      i = lower_bound (ts, ids, n, (guint64) MAX (next, 0));
    }
}

static void
seismo_filter_overlay_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (widget);
  SeismoTimelineRenderer *r;
  SeismoTimelineData *data;
  GtkStyleContext *style;
  const SeismoTimelineProcess *procs;
  const guint64 *ts;
  guint n_procs;
  double ox = 0, oy = 0, tw, th, x0, x1, top, scale = 1;
  GdkRGBA bg = { 1, 1, 1, 1 };
  /* Orange marks read on both the light and the dark timeline and differ from its blues. */
  GdkRGBA accent = { 0.90, 0.38, 0.0, 1 };

  if (!self->active || self->index == NULL || self->timeline == NULL)
    return;
  r = seismo_timeline_get_renderer (self->timeline);
  data = seismo_timeline_get_data (self->timeline);
  if (r == NULL || data == NULL || seismo_timeline_data_get_trace (data) != self->trace)
    return;
  gtk_widget_translate_coordinates (GTK_WIDGET (self->timeline), widget, 0, 0, &ox, &oy);
  tw = gtk_widget_get_width (GTK_WIDGET (self->timeline));
  th = gtk_widget_get_height (GTK_WIDGET (self->timeline));
  /* In presenter mode the timeline draws its renderer's pixels scaled up. */
  if (seismo_timeline_renderer_get_area_width (r) > 0)
    scale = tw / (double) (seismo_timeline_renderer_get_area_width (r) + SEISMO_TIMELINE_LABEL_WIDTH);
  tw /= scale;
  th /= scale;
  x0 = SEISMO_TIMELINE_LABEL_WIDTH;
  x1 = tw;
  top = SEISMO_TIMELINE_RULER_HEIGHT;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  style = gtk_widget_get_style_context (widget);
  gtk_style_context_lookup_color (style, "view_bg_color", &bg);
  G_GNUC_END_IGNORE_DEPRECATIONS

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (ox, oy));
  gtk_snapshot_scale (snapshot, scale, scale);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (x0, top, MAX (x1 - x0, 0), MAX (th - top, 0)));
  bg.alpha = self->dim ? 0.6 : 0.93;
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (x0, top, x1 - x0, th - top));

  ts = seismo_trace_get_times (self->trace);
  for (guint c = 0; c < self->index->n_cpus; c++)
    {
      double y, h;

      if (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_CPU, c }, &y, &h) && y + h > top && y < th)
        mark_row (snapshot, r, ts, self->index->cpu_ids + self->index->cpu_off[c],
                  self->index->cpu_off[c + 1] - self->index->cpu_off[c], y, h, x0, x1, &accent);
    }
  procs = seismo_timeline_data_get_processes (data, &n_procs);
  for (guint p = 0; p < n_procs; p++)
    {
      double y, h;

      if (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, &y, &h) && y + h > top && y < th)
        for (guint k = 0; k < procs[p].n_tasks; k++)
          {
            SeismoTaskId t = procs[p].tasks[k];

            mark_row (snapshot, r, ts, self->index->task_ids + self->index->task_off[t],
                      self->index->task_off[t + 1] - self->index->task_off[t], y, h, x0, x1, &accent);
          }
      for (guint k = 0; k < procs[p].n_tasks; k++)
        {
          SeismoTaskId t = procs[p].tasks[k];

          if (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_TASK, t }, &y, &h) && y + h > top && y < th)
            mark_row (snapshot, r, ts, self->index->task_ids + self->index->task_off[t],
                      self->index->task_off[t + 1] - self->index->task_off[t], y, h, x0, x1, &accent);
        }
    }
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_restore (snapshot);

  self->drawn[0] = seismo_timeline_renderer_get_view_start (r);
  self->drawn[1] = seismo_timeline_renderer_get_ns_per_px (r);
  self->drawn[2] = seismo_timeline_renderer_get_scroll_y (r);
  self->drawn[3] = tw;
  self->drawn[4] = th;
  self->drawn[5] = seismo_timeline_renderer_get_rows_height (r);
}

/* The timeline redraws itself on pans, zooms and row changes; follow it without hooking into
 * it: around each frame the window paints anyway, compare what the last frame was drawn for and
 * redraw when it changed. It never asks for a frame itself, so an unchanged window stays idle.
 * Before the paint: an input event's pan shows in the same frame; after it: a new size from the
 * layout phase is picked up at once. */
static void
follow_timeline (GdkFrameClock       *clock,
                 SeismoFilterOverlay *self)
{
  SeismoTimelineRenderer *r;
  double now[6];

  if (!self->active || self->timeline == NULL
      || (r = seismo_timeline_get_renderer (self->timeline)) == NULL)
    return;
  now[0] = seismo_timeline_renderer_get_view_start (r);
  now[1] = seismo_timeline_renderer_get_ns_per_px (r);
  now[2] = seismo_timeline_renderer_get_scroll_y (r);
  now[3] = gtk_widget_get_width (GTK_WIDGET (self->timeline));
  now[4] = gtk_widget_get_height (GTK_WIDGET (self->timeline));
  now[5] = seismo_timeline_renderer_get_rows_height (r);
  if (memcmp (now, self->drawn, sizeof now) != 0)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
seismo_filter_overlay_realize (GtkWidget *widget)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (widget);

  GTK_WIDGET_CLASS (seismo_filter_overlay_parent_class)->realize (widget);
  self->clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  self->before_paint_id = g_signal_connect (self->clock, "before-paint", G_CALLBACK (follow_timeline), self);
  self->after_paint_id = g_signal_connect (self->clock, "after-paint", G_CALLBACK (follow_timeline), self);
}

static void
seismo_filter_overlay_unrealize (GtkWidget *widget)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (widget);

  if (self->clock != NULL)
    {
      g_clear_signal_handler (&self->before_paint_id, self->clock);
      g_clear_signal_handler (&self->after_paint_id, self->clock);
      g_clear_object (&self->clock);
    }
  GTK_WIDGET_CLASS (seismo_filter_overlay_parent_class)->unrealize (widget);
}

static void
index_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SeismoTrace *trace = g_object_get_data (G_OBJECT (task), "trace");
  RowIndex *ix = row_index_build (trace, task_data, cancellable);

  if (ix == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, ix, (GDestroyNotify) row_index_free);
}

static void
index_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (source);
  RowIndex *ix = g_task_propagate_pointer (G_TASK (result), NULL);

  if (ix == NULL)
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      row_index_free (ix);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->index, row_index_free);
  self->index = ix;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
seismo_filter_overlay_dispose (GObject *object)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (object);

  seismo_filter_overlay_set_view (self, NULL);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->index, row_index_free);
  self->timeline = NULL;
  G_OBJECT_CLASS (seismo_filter_overlay_parent_class)->dispose (object);
}

enum {
  PROP_0,
  PROP_TIMELINE,
  N_PROPS
};

static void
seismo_filter_overlay_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_filter_overlay_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      /* Borrowed: the timeline it lies over outlives it (a sibling in the same overlay). */
      self->timeline = g_value_get_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_filter_overlay_class_init (SeismoFilterOverlayClass *klass)
{
  G_OBJECT_CLASS (klass)->get_property = seismo_filter_overlay_get_property;
  G_OBJECT_CLASS (klass)->set_property = seismo_filter_overlay_set_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), PROP_TIMELINE,
                                   g_param_spec_object ("timeline", NULL, NULL, SEISMO_TYPE_TIMELINE,
                                                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  G_OBJECT_CLASS (klass)->dispose = seismo_filter_overlay_dispose;
  GTK_WIDGET_CLASS (klass)->snapshot = seismo_filter_overlay_snapshot;
  GTK_WIDGET_CLASS (klass)->realize = seismo_filter_overlay_realize;
  GTK_WIDGET_CLASS (klass)->unrealize = seismo_filter_overlay_unrealize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "seismofilteroverlay");
}

static void
seismo_filter_overlay_init (SeismoFilterOverlay *self)
{
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
}

GtkWidget *
seismo_filter_overlay_new (SeismoTimeline *timeline)
{
  SeismoFilterOverlay *self;

  g_return_val_if_fail (SEISMO_IS_TIMELINE (timeline), NULL);
  self = g_object_new (SEISMO_TYPE_FILTER_OVERLAY, "timeline", timeline, NULL);
  return GTK_WIDGET (self);
}

void
seismo_filter_overlay_set_filter (SeismoFilterOverlay *self,
                                  SeismoTrace         *trace,
                                  GBytes              *matches,
                                  gboolean             dim)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEISMO_IS_FILTER_OVERLAY (self));

  self->dim = dim;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->active = trace != NULL && matches != NULL;
  if (trace != self->trace || !self->active)
    g_clear_pointer (&self->index, row_index_free);
  g_set_object (&self->trace, trace);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (!self->active)
    return;
  g_clear_pointer (&self->index, row_index_free);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, index_done, NULL);
  g_task_set_source_tag (task, seismo_filter_overlay_set_filter);
  g_object_set_data_full (G_OBJECT (task), "trace", g_object_ref (trace), g_object_unref);
  g_task_set_task_data (task, g_bytes_ref (matches), (GDestroyNotify) g_bytes_unref);
  g_task_run_in_thread (task, index_thread);
}

gboolean
seismo_filter_overlay_get_busy (SeismoFilterOverlay *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_OVERLAY (self), FALSE);
  return self->cancellable != NULL;
}

static void
on_view_result (SeismoFilterOverlay *self)
{
  seismo_filter_overlay_set_filter (self, seismo_view_get_trace (self->view),
                                    seismo_view_get_matches (self->view),
                                    seismo_view_get_dim (self->view));
}

static void
on_view_dim (SeismoFilterOverlay *self)
{
  /* The same matches, drawn otherwise: no new index. */
  if (self->dim == seismo_view_get_dim (self->view))
    return;
  self->dim = seismo_view_get_dim (self->view);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * seismo_filter_overlay_set_view:
 * @view: (nullable): the view whose filter result the overlay shows
 */
void
seismo_filter_overlay_set_view (SeismoFilterOverlay *self,
                                SeismoView          *view)
{
  static const SeismoViewHandler handlers[] = {
    { "result-changed", G_CALLBACK (on_view_result) },
    { "notify::dim", G_CALLBACK (on_view_dim) },
  };

  g_return_if_fail (SEISMO_IS_FILTER_OVERLAY (self));
  g_return_if_fail (view == NULL || SEISMO_IS_VIEW (view));

  if (!seismo_view_connect (&self->view, view, self, handlers, G_N_ELEMENTS (handlers)) || view == NULL)
    return;
  on_view_result (self);
}

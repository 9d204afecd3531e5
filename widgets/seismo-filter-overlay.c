/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <string.h>

#include "seismo-filter-marks-private.h"
#include "seismo-filter-overlay-private.h"
#include "seismo-work-priority.h"

struct _SeismoFilterOverlay
{
  GtkWidget       parent_instance;

  /* borrowed */
  SeismoTimeline *timeline;

  /* owned */
  SeismoView     *view;           /* followed: its matches shaded, dimmed or hidden */
  SeismoTrace    *trace;
  SeismoFilterMarks *index;       /* where each row's matches are, in the view's matches */
  GArray         *xs;             /* double: the marks of one row, reused from row to row */
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

/* One row's marks, from the overlay's index. */
static void
index_row_marks (gpointer                data,
                 SeismoTimelineRenderer *r,
                 gboolean                is_task,
                 guint                   row,
                 double                  x0,
                 double                  x1,
                 GArray                 *xs)
{
  _seismo_filter_marks_row (data, r, is_task, row, x0, x1, xs);
}

static void
mark_row (GtkSnapshot            *snapshot,
          SeismoRowMarksFunc      row_marks,
          gpointer                data,
          GArray                 *xs,
          SeismoTimelineRenderer *r,
          gboolean                is_task,
          guint                   row,
          double                  y,
          double                  h,
          double                  x0,
          double                  x1,
          const GdkRGBA          *color)
{
  g_array_set_size (xs, 0);
  row_marks (data, r, is_task, row, x0, x1, xs);
  for (guint i = 0; i < xs->len; i++)
    {
      double x = g_array_index (xs, double, i);

      gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y + 2, 2, MAX (h - 4, 1)));
    }
}

gboolean
_seismo_filter_overlay_draw (GtkWidget          *widget,
                             GtkSnapshot        *snapshot,
                             SeismoTimeline     *timeline,
                             SeismoTrace        *trace,
                             double              veil_alpha,
                             SeismoRowMarksFunc  row_marks,
                             gpointer            data,
                             GArray             *xs,
                             double             *width,
                             double             *height)
{
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (timeline);
  SeismoTimelineData *tdata = seismo_timeline_get_data (timeline);
  GtkStyleContext *style;
  const SeismoTimelineProcess *procs;
  guint n_procs;
  double ox = 0, oy = 0, tw, th, x0, x1, top, scale = 1;
  GdkRGBA bg = { 1, 1, 1, 1 };
  /* Orange marks read on both the light and the dark timeline and differ from its blues. */
  GdkRGBA accent = { 0.90, 0.38, 0.0, 1 };

  if (r == NULL || tdata == NULL || seismo_timeline_data_get_trace (tdata) != trace)
    return FALSE;
  gtk_widget_translate_coordinates (GTK_WIDGET (timeline), widget, 0, 0, &ox, &oy);
  tw = gtk_widget_get_width (GTK_WIDGET (timeline));
  th = gtk_widget_get_height (GTK_WIDGET (timeline));
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
  bg.alpha = veil_alpha;
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (x0, top, x1 - x0, th - top));

  for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
    {
      double y, h;

      if (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_CPU, c }, &y, &h) && y + h > top && y < th)
        mark_row (snapshot, row_marks, data, xs, r, FALSE, c, y, h, x0, x1, &accent);
    }
  procs = seismo_timeline_data_get_processes (tdata, &n_procs);
  for (guint p = 0; p < n_procs; p++)
    {
      double y, h;

      if (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, &y, &h) && y + h > top && y < th)
        for (guint k = 0; k < procs[p].n_tasks; k++)
          mark_row (snapshot, row_marks, data, xs, r, TRUE, procs[p].tasks[k], y, h, x0, x1, &accent);
      for (guint k = 0; k < procs[p].n_tasks; k++)
        {
          SeismoTaskId t = procs[p].tasks[k];

          if (seismo_timeline_renderer_row_y (r, (SeismoRowKey) { SEISMO_ROW_TASK, t }, &y, &h) && y + h > top && y < th)
            mark_row (snapshot, row_marks, data, xs, r, TRUE, t, y, h, x0, x1, &accent);
        }
    }
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_restore (snapshot);
  *width = tw;
  *height = th;
  return TRUE;
}

static void
seismo_filter_overlay_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (widget);
  SeismoTimelineRenderer *r;
  double tw, th;

  if (!self->active || self->index == NULL || self->timeline == NULL)
    return;
  if (!_seismo_filter_overlay_draw (widget, snapshot, self->timeline, self->trace, self->dim ? 0.6 : 0.93,
                                    index_row_marks, self->index, self->xs, &tw, &th))
    return;
  r = seismo_timeline_get_renderer (self->timeline);
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
  SeismoFilterMarks *ix;

  seismo_work_priority_enter ();
  ix = _seismo_filter_marks_build (trace, task_data, 0, cancellable);

  if (ix == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, ix, (GDestroyNotify) _seismo_filter_marks_free);
}

static void
index_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SeismoFilterOverlay *self = SEISMO_FILTER_OVERLAY (source);
  SeismoFilterMarks *ix = g_task_propagate_pointer (G_TASK (result), NULL);

  if (ix == NULL)
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      _seismo_filter_marks_free (ix);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->index, _seismo_filter_marks_free);
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
  g_clear_pointer (&self->index, _seismo_filter_marks_free);
  g_clear_pointer (&self->xs, g_array_unref);
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
  self->xs = g_array_new (FALSE, FALSE, sizeof (double));
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
                                  SeismoMatchSet      *matches,
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
    g_clear_pointer (&self->index, _seismo_filter_marks_free);
  g_set_object (&self->trace, trace);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (!self->active)
    return;
  g_clear_pointer (&self->index, _seismo_filter_marks_free);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, index_done, NULL);
  g_task_set_source_tag (task, seismo_filter_overlay_set_filter);
  g_object_set_data_full (G_OBJECT (task), "trace", g_object_ref (trace), g_object_unref);
  g_task_set_task_data (task, seismo_match_set_ref (matches),
                        (GDestroyNotify) seismo_match_set_unref);
  g_task_run_in_thread (task, index_thread);
}

gboolean
seismo_filter_overlay_get_busy (SeismoFilterOverlay *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_OVERLAY (self), FALSE);
  return self->cancellable != NULL;
}

gsize
seismo_filter_overlay_get_index_size (SeismoFilterOverlay *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_OVERLAY (self), 0);
  return self->index != NULL ? _seismo_filter_marks_get_size (self->index) : 0;
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

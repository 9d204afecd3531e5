/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "seismo-timeline-private.h"
#include "seismo-timing.h"

/* A GtkSnapshot canvas draws SeismoColor as GdkRGBA. */
G_STATIC_ASSERT (sizeof (SeismoColor) == sizeof (GdkRGBA));

#define ZOOM_STEP     1.5
#define DRAG_SLOP_PX  4
/* Presenter mode draws everything this much larger: fonts, rows, labels (see snapshot). */
#define PRESENTER_SCALE 1.5


enum {
  PROP_0,
  PROP_SELECTED_EVENT,
  PROP_MARKERS_TEXT,
  PROP_HAS_RANGE,
  PROP_PRESENTER,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_LOAD_WINDOW,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (SeismoTimeline, seismo_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

/* Canvas: snapshot nodes */

static void
snapshot_fill_rects (gpointer           data,
                     const SeismoColor *color,
                     const double      *r,
                     guint              n)
{
  GtkSnapshot *snapshot = data;
  GdkRGBA rgba = { color->red, color->green, color->blue, color->alpha };

  for (guint i = 0; i < n; i++)
    gtk_snapshot_append_color (snapshot, &rgba,
                               &GRAPHENE_RECT_INIT (r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]));
}

static void
snapshot_text (gpointer           data,
               double             x,
               double             y,
               PangoLayout       *layout,
               const SeismoColor *color)
{
  GtkSnapshot *snapshot = data;
  GdkRGBA rgba = { color->red, color->green, color->blue, color->alpha };

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, &rgba);
  gtk_snapshot_restore (snapshot);
}

static cairo_t *
snapshot_begin_cairo (gpointer data,
                      double   x,
                      double   y,
                      double   width,
                      double   height)
{
  return gtk_snapshot_append_cairo (data, &GRAPHENE_RECT_INIT (x, y, width, height));
}

static void
snapshot_end_cairo (gpointer data,
                    cairo_t *cr)
{
  cairo_destroy (cr);
}

static void
snapshot_push_clip (gpointer data,
                    double   x,
                    double   y,
                    double   width,
                    double   height)
{
  gtk_snapshot_push_clip (data, &GRAPHENE_RECT_INIT (x, y, width, height));
}

static void
snapshot_pop_clip (gpointer data)
{
  gtk_snapshot_pop (data);
}

static const SeismoCanvas snapshot_canvas = {
  snapshot_fill_rects,
  snapshot_text,
  snapshot_begin_cairo,
  snapshot_end_cairo,
  snapshot_push_clip,
  snapshot_pop_clip,
};

/* State */

void
_seismo_timeline_update_markers_text (SeismoTimeline *self)
{
  g_autoptr(GString) s = g_string_new (NULL);
  SeismoTimelineRenderer *r = self->renderer;
  guint64 a = 0, b = 0, start, end;
  gboolean has_a, has_b, has_range;
  double t0;

  if (r == NULL)
    {
      has_a = has_b = has_range = FALSE;
      t0 = 0;
    }
  else
    {
      has_a = seismo_timeline_renderer_get_marker (r, 0, &a);
      has_b = seismo_timeline_renderer_get_marker (r, 1, &b);
      has_range = seismo_timeline_renderer_get_range (r, &start, &end);
      t0 = (double) seismo_trace_get_start_ns (seismo_timeline_data_get_trace (seismo_timeline_renderer_get_data (r)));
    }
  if ((has_a || has_b || has_range) && r != NULL
      && !seismo_trace_has_timestamps (seismo_timeline_data_get_trace (seismo_timeline_renderer_get_data (r))))
    {
      /* Markers in a log without clocks (seismo-timing.h) mark places, not times. */
      g_string_append (s, _("Markers set · no timing in this trace"));
      has_a = has_b = has_range = FALSE;
    }
  if (has_a)
    {
      g_autofree char *t = seismo_format_time ((double) a - t0, 1);

      g_string_append_printf (s, _("A %s"), t);
    }
  if (has_b)
    {
      g_autofree char *t = seismo_format_time ((double) b - t0, 1);

      if (s->len > 0)
        g_string_append (s, "  ·  ");
      g_string_append_printf (s, _("B %s"), t);
    }
  if (has_a && has_b)
    {
      g_autofree char *d = seismo_format_duration ((double) b - (double) a);

      g_string_append (s, "  ·  ");
      g_string_append_printf (s, _("B − A %s"), d);
    }
  if (has_range)
    {
      g_autofree char *ts = seismo_format_time ((double) start - t0, 1);
      g_autofree char *d = seismo_format_duration ((double) (end - start));

      if (s->len > 0)
        g_string_append (s, "  ·  ");
      g_string_append_printf (s, _("Range %s from %s"), d, ts);
    }
  if (g_strcmp0 (s->str, self->markers_text) != 0)
    {
      g_free (self->markers_text);
      self->markers_text = g_string_free (g_steal_pointer (&s), FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MARKERS_TEXT]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_RANGE]);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.zoom-range",
                                 has_range || (has_a && has_b));
  _seismo_timeline_push_markers (self);
}

static void
configure_adjustments (SeismoTimeline *self)
{
  SeismoTimelineRenderer *r = self->renderer;

  if (self->updating_adjustments)
    return;
  self->updating_adjustments = TRUE;
  if (self->hadjustment != NULL)
    {
      if (r != NULL)
        {
          double npp = seismo_timeline_renderer_get_ns_per_px (r);
          double page = seismo_timeline_renderer_get_area_width (r);
          double upper = MAX (seismo_timeline_renderer_get_duration (r) * 1.02 / npp, page);
          double value = CLAMP (seismo_timeline_renderer_get_view_start (r) / npp, 0, upper - page);

          gtk_adjustment_configure (self->hadjustment, value, 0, upper, page * 0.1, page * 0.9, page);
        }
      else
        gtk_adjustment_configure (self->hadjustment, 0, 0, 0, 0, 0, 0);
    }
  if (self->vadjustment != NULL)
    {
      if (r != NULL)
        {
          double page = seismo_timeline_renderer_get_rows_viewport (r);
          double upper = MAX (seismo_timeline_renderer_get_rows_height (r), page);

          gtk_adjustment_configure (self->vadjustment, seismo_timeline_renderer_get_scroll_y (r), 0,
                                    upper, 30, page * 0.9, page);
        }
      else
        gtk_adjustment_configure (self->vadjustment, 0, 0, 0, 0, 0, 0);
    }
  self->updating_adjustments = FALSE;
}

/* Quiet time after a zoom or pan before the events of the view are asked for: a drag or a run
 * of wheel steps asks once, at its end. */
#define LOAD_WINDOW_DELAY_MS 250

static gboolean
load_window_timeout (gpointer user_data)
{
  SeismoTimeline *self = user_data;
  int width = gtk_widget_get_width (GTK_WIDGET (self)) / self->scale;

  self->load_window_source = 0;
  if (self->renderer != NULL && !seismo_timeline_renderer_view_loaded (self->renderer))
    g_signal_emit (self, signals[SIGNAL_LOAD_WINDOW], 0,
                   (guint64) MAX (seismo_timeline_renderer_x_to_ns (self->renderer,
                                                                    SEISMO_TIMELINE_LABEL_WIDTH), 0),
                   (guint64) MAX (seismo_timeline_renderer_x_to_ns (self->renderer, width), 0));
  return G_SOURCE_REMOVE;
}

static void
check_view_loaded (SeismoTimeline *self)
{
  if (self->renderer == NULL
      || seismo_timeline_data_get_summary (seismo_timeline_renderer_get_data (self->renderer)) == NULL)
    return;
  g_clear_handle_id (&self->load_window_source, g_source_remove);
  if (!seismo_timeline_renderer_view_loaded (self->renderer))
    self->load_window_source = g_timeout_add (LOAD_WINDOW_DELAY_MS, load_window_timeout, self);
}

/* Call after anything changed the view: adjustments follow, a frame is queued. */
void
_seismo_timeline_view_changed (SeismoTimeline *self)
{
  SeismoTimelineRenderer *r = self->renderer;

  if (self->view != NULL && r != NULL)
    {
      SeismoTrace *trace = seismo_timeline_data_get_trace (seismo_timeline_renderer_get_data (r));
      double start = (double) seismo_trace_get_start_ns (trace) + MAX (seismo_timeline_renderer_get_view_start (r), 0);
      double end = start + seismo_timeline_renderer_get_ns_per_px (r) * seismo_timeline_renderer_get_area_width (r);

      seismo_view_set_visible_span (self->view, (guint64) start, (guint64) end);
    }
  configure_adjustments (self);
  check_view_loaded (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
hadjustment_value_changed (SeismoTimeline *self,
                           GtkAdjustment  *adj)
{
  if (self->updating_adjustments || self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_view (self->renderer,
                                     gtk_adjustment_get_value (adj)
                                     * seismo_timeline_renderer_get_ns_per_px (self->renderer),
                                     seismo_timeline_renderer_get_ns_per_px (self->renderer));
  check_view_loaded (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
vadjustment_value_changed (SeismoTimeline *self,
                           GtkAdjustment  *adj)
{
  if (self->updating_adjustments || self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_scroll_y (self->renderer, gtk_adjustment_get_value (adj));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (SeismoTimeline  *self,
                GtkAdjustment  **slot,
                GtkAdjustment   *adj,
                GCallback        callback)
{
  if (adj == *slot)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }
  if (adj == NULL)
    adj = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adj);
  g_signal_connect_swapped (adj, "value-changed", callback, self);
  configure_adjustments (self);
}

static gboolean
is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  /* The foreground is light exactly when the style is dark. */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

/* Presenter mode: the same frame, scaled up, with more contrast, and markers and the selection
 * drawn again thick enough to see from the back of a room. */
static void
snapshot_presenter (SeismoTimeline *self,
                    GtkSnapshot    *snapshot)
{
  SeismoTimelineRenderer *r = self->renderer;
  SeismoTrace *trace = seismo_timeline_data_get_trace (seismo_timeline_renderer_get_data (r));
  double width = gtk_widget_get_width (GTK_WIDGET (self)) / self->scale;
  double height = gtk_widget_get_height (GTK_WIDGET (self)) / self->scale;
  const double contrast = 1.3;
  graphene_matrix_t matrix;
  graphene_vec4_t offset;
  static const GdkRGBA marker_colors[2] = { { 0.11, 0.44, 0.85, 1 }, { 0.75, 0.11, 0.16, 1 } };
  GdkRGBA fg;
  guint64 t;

  /* Colors move away from mid-grey: (c - 0.5) * contrast + 0.5. */
  graphene_matrix_init_scale (&matrix, contrast, contrast, contrast);
  graphene_vec4_init (&offset, 0.5 * (1 - contrast), 0.5 * (1 - contrast), 0.5 * (1 - contrast), 0);
  gtk_snapshot_push_color_matrix (snapshot, &matrix, &offset);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_scale (snapshot, self->scale, self->scale);
  seismo_timeline_renderer_draw (r, &snapshot_canvas, snapshot);
  for (guint m = 0; m < 2; m++)
    if (seismo_timeline_renderer_get_marker (r, m, &t))
      {
        double x = seismo_timeline_renderer_ns_to_x (r, t);

        if (x >= SEISMO_TIMELINE_LABEL_WIDTH && x < width)
          gtk_snapshot_append_color (snapshot, &marker_colors[m],
                                     &GRAPHENE_RECT_INIT (x - 1.5, SEISMO_TIMELINE_RULER_HEIGHT, 3,
                                                          height - SEISMO_TIMELINE_RULER_HEIGHT));
      }
  if (self->selected != SEISMO_NO_EVENT && self->selected < seismo_trace_get_n_events (trace))
    {
      double x = seismo_timeline_renderer_ns_to_x (r, seismo_trace_event_time (trace, self->selected));

      gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
      if (x >= SEISMO_TIMELINE_LABEL_WIDTH && x < width)
        {
          cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x - 10, 0, 20, height));

          gdk_cairo_set_source_rgba (cr, &fg);
          cairo_rectangle (cr, x - 1.25, SEISMO_TIMELINE_RULER_HEIGHT, 2.5, height);
          cairo_move_to (cr, x - 9, SEISMO_TIMELINE_RULER_HEIGHT - 12);
          cairo_line_to (cr, x + 9, SEISMO_TIMELINE_RULER_HEIGHT - 12);
          cairo_line_to (cr, x, SEISMO_TIMELINE_RULER_HEIGHT);
          cairo_close_path (cr);
          cairo_fill (cr);
          cairo_destroy (cr);
        }
    }
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

/* The frame as one image, drawn by the renderer's Cairo canvas (whole-pixel rectangles written
 * straight into the pixels). As tens of thousands of color nodes instead, every later frame of
 * the window (a blinking cursor, a spinner) would have GSK walk all of them again, and a Cairo
 * GSK renderer draw each one; an image is one paint, clipped to what changed.
 *
 * The image is the base layer only, and its node is kept for as long as the renderer's base key
 * holds; the overlays go in a node of their own, as large as what they draw. A selection or a
 * marker then redraws only the overlays, and as GSK sees the same base node as before, the frame
 * repaints only the overlays' old and new places, not the whole timeline. */
static void
snapshot_image (SeismoTimeline *self,
                GtkSnapshot    *snapshot)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  SeismoTimelineBaseKey key;
  cairo_surface_t *surface;
  cairo_rectangle_t extents;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  seismo_timeline_renderer_get_base_key (self->renderer, &key);
  if (self->base_node == NULL || !seismo_timeline_base_key_equal (&key, &self->base_key))
    {
      g_clear_pointer (&self->base_node, gsk_render_node_unref);
      /* An image first: GTK 4.8's Cairo node records what is drawn into it, so drawn straight
       * there the base would miss the direct pixel writes and be replayed at every render. */
      surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
      cr = cairo_create (surface);
      seismo_timeline_renderer_draw_base_cairo (self->renderer, cr);
      cairo_destroy (cr);
      self->base_node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
      cr = gsk_cairo_node_get_draw_context (self->base_node);
      cairo_set_source_surface (cr, surface, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      self->base_key = key;
    }
  gtk_snapshot_append_node (snapshot, self->base_node);

  /* The overlays are a few lines and marks: recorded once to find the extents of their ink, then
   * drawn again into a node that size (a recording painted into the node's own would be
   * rasterized whole at every render). */
  extents = (cairo_rectangle_t) { 0, 0, width, height };
  surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &extents);
  cr = cairo_create (surface);
  seismo_timeline_renderer_draw_overlays_cairo (self->renderer, cr);
  cairo_destroy (cr);
  cairo_recording_surface_ink_extents (surface, &extents.x, &extents.y, &extents.width, &extents.height);
  cairo_surface_destroy (surface);
  if (extents.width > 0 && extents.height > 0)
    {
      double x0 = floor (extents.x), y0 = floor (extents.y);

      cr = gtk_snapshot_append_cairo (snapshot,
                                      &GRAPHENE_RECT_INIT (x0, y0, ceil (extents.x + extents.width) - x0,
                                                           ceil (extents.y + extents.height) - y0));
      seismo_timeline_renderer_draw_overlays_cairo (self->renderer, cr);
      cairo_destroy (cr);
    }
}

/* GtkWidget */

static void
seismo_timeline_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  SeismoTimeline *self = SEISMO_TIMELINE (widget);

  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_dark (self->renderer, is_dark (widget));
  seismo_timeline_renderer_set_pango_context (self->renderer, gtk_widget_get_pango_context (widget));
  if (self->presenter)
    {
      snapshot_presenter (self, snapshot);
      return;
    }
  if (gtk_widget_get_scale_factor (widget) == 1)
    {
      snapshot_image (self, snapshot);
      return;
    }
  seismo_timeline_renderer_draw (self->renderer, &snapshot_canvas, snapshot);
}

static void
seismo_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  SeismoTimeline *self = SEISMO_TIMELINE (widget);

  if (self->renderer != NULL)
    seismo_timeline_renderer_set_size (self->renderer, width / self->scale, height / self->scale);
  configure_adjustments (self);
  if (self->row_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->row_menu));
}

static void
seismo_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = SEISMO_TIMELINE_LABEL_WIDTH + 100;
      *natural = SEISMO_TIMELINE_LABEL_WIDTH + 800;
    }
  else
    {
      *minimum = SEISMO_TIMELINE_RULER_HEIGHT + 60;
      *natural = SEISMO_TIMELINE_RULER_HEIGHT + 400;
    }
}

/* Input */

static void
zoom_at (SeismoTimeline *self,
         double          factor,
         double          x)
{
  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_zoom (self->renderer, factor, x);
  _seismo_timeline_view_changed (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SeismoTimeline           *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  /* Ctrl+wheel zooms around the pointer; the rest scrolls (the scrolled window does it). */
  if ((state & GDK_CONTROL_MASK) == 0 || self->renderer == NULL)
    return FALSE;
  zoom_at (self, pow (ZOOM_STEP, dy), self->pointer_x);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SeismoTimeline           *self)
{
  self->pointer_x = x / self->scale;
  self->pointer_y = y / self->scale;
  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_hover_y (self->renderer, self->pointer_y);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          SeismoTimeline           *self)
{
  self->pointer_x = SEISMO_TIMELINE_LABEL_WIDTH;
  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_hover_y (self->renderer, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
select_event (SeismoTimeline *self,
              SeismoEventId   event)
{
  if (event == self->selected)
    return;
  self->selected = event;
  if (self->renderer != NULL)
    seismo_timeline_renderer_set_selected_event (self->renderer, event);
  if (self->view != NULL)
    seismo_view_set_selected_event (self->view, event);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
popup_row_menu (SeismoTimeline          *self,
                const SeismoTimelineHit *hit,
                double                   x,
                double                   y)
{
  gboolean pinnable = hit->row.kind == SEISMO_ROW_CPU || hit->row.kind == SEISMO_ROW_PROCESS
                      || hit->row.kind == SEISMO_ROW_TASK;
  gboolean movable = pinnable;
  gboolean collapsible = hit->row.kind == SEISMO_ROW_CPU_GROUP || hit->row.kind == SEISMO_ROW_PROCESS;
  GtkWidget *widget = GTK_WIDGET (self);

  self->menu_row = hit->row;
  gtk_widget_action_set_enabled (widget, "row.toggle-pin", pinnable);
  gtk_widget_action_set_enabled (widget, "row.move-up", movable);
  gtk_widget_action_set_enabled (widget, "row.move-down", movable);
  gtk_widget_action_set_enabled (widget, "row.toggle-collapsed", collapsible);
  gtk_widget_action_set_enabled (widget, "row.show-all",
                                 seismo_timeline_renderer_get_n_hidden (self->renderer) > 0);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_menu));
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  SeismoTimeline  *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  SeismoTimelineHit hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->dragging = FALSE;
  if (self->renderer == NULL
      || !seismo_timeline_renderer_hit (self->renderer, x / self->scale, y / self->scale, &hit))
    return;
  if (button == GDK_BUTTON_SECONDARY && hit.row.kind != SEISMO_ROW_RULER)
    {
      popup_row_menu (self, &hit, x, y);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (button == GDK_BUTTON_PRIMARY && hit.in_labels
      && (hit.on_expander || n_press == 2)
      && (hit.row.kind == SEISMO_ROW_CPU_GROUP || hit.row.kind == SEISMO_ROW_PROCESS))
    {
      seismo_timeline_renderer_set_collapsed (self->renderer, hit.row,
                                              !seismo_timeline_renderer_get_collapsed (self->renderer, hit.row));
      _seismo_timeline_view_changed (self);
    }
}

static void
on_click_released (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   SeismoTimeline  *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint64 t;

  x /= self->scale;
  y /= self->scale;
  if (self->renderer == NULL || self->dragging || button != GDK_BUTTON_PRIMARY
      || x < SEISMO_TIMELINE_LABEL_WIDTH)
    return;
  t = (guint64) MAX (seismo_timeline_renderer_x_to_ns (self->renderer, x), 0);
  /* Click: marker A and the event under the pointer; Shift+click: marker B. */
  seismo_timeline_renderer_set_marker (self->renderer, (state & GDK_SHIFT_MASK) ? 1 : 0, t);
  if (!(state & GDK_SHIFT_MASK) && y >= SEISMO_TIMELINE_RULER_HEIGHT)
    {
      SeismoEventId e = seismo_timeline_renderer_event_at (self->renderer, x, y);

      if (e != SEISMO_NO_EVENT)
        select_event (self, e);
    }
  _seismo_timeline_update_markers_text (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SeismoTimeline *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  x /= self->scale;
  y /= self->scale;
  self->dragging = FALSE;
  self->drag_start_x = x;
  self->drag_on_ruler = y < SEISMO_TIMELINE_RULER_HEIGHT || button == GDK_BUTTON_MIDDLE;
  if (self->renderer == NULL || (x < SEISMO_TIMELINE_LABEL_WIDTH && !self->drag_on_ruler))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_start_view = seismo_timeline_renderer_get_view_start (self->renderer);
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SeismoTimeline *self)
{
  SeismoTimelineRenderer *r = self->renderer;

  if (r == NULL)
    return;
  dx /= self->scale;
  if (!self->dragging && fabs (dx) < DRAG_SLOP_PX)
    return;
  self->dragging = TRUE;
  if (self->drag_on_ruler)
    {
      /* Dragging the ruler (or with the middle button) pans. */
      seismo_timeline_renderer_set_view (r, self->drag_start_view - dx * seismo_timeline_renderer_get_ns_per_px (r),
                                         seismo_timeline_renderer_get_ns_per_px (r));
      _seismo_timeline_view_changed (self);
      return;
    }
  {
    double xa = MAX (self->drag_start_x, SEISMO_TIMELINE_LABEL_WIDTH);
    double xb = MAX (self->drag_start_x + dx, SEISMO_TIMELINE_LABEL_WIDTH);

    seismo_timeline_renderer_set_range (r, (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, xa), 0),
                                        (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, xb), 0));
    _seismo_timeline_update_markers_text (self);
    gtk_widget_queue_draw (GTK_WIDGET (self));
  }
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SeismoTimeline *self)
{
  /* The click gesture sees the release after this; keep the flag until the next press. */
}

static gboolean
on_query_tooltip (GtkWidget      *widget,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  SeismoTimeline *self)
{
  g_autofree char *text = NULL;

  if (self->renderer == NULL || keyboard || self->dragging)
    return FALSE;
  text = seismo_timeline_renderer_describe_at (self->renderer, x / self->scale, y / self->scale);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  /* A one-pixel area: moving asks again, so the tooltip follows the pointer. */
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { x, y, 1, 1 });
  return TRUE;
}

/* Actions */

static void
action_zoom (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  SeismoTimeline *self = SEISMO_TIMELINE (widget);

  if (g_str_equal (name, "timeline.zoom-in"))
    seismo_timeline_zoom_in (self);
  else if (g_str_equal (name, "timeline.zoom-out"))
    seismo_timeline_zoom_out (self);
  else if (g_str_equal (name, "timeline.zoom-fit"))
    seismo_timeline_zoom_fit (self);
  else if (g_str_equal (name, "timeline.zoom-range"))
    seismo_timeline_zoom_range (self);
}

static void
action_pan (GtkWidget  *widget,
            const char *name,
            GVariant   *param)
{
  SeismoTimeline *self = SEISMO_TIMELINE (widget);
  SeismoTimelineRenderer *r = self->renderer;
  double w;

  if (r == NULL)
    return;
  w = seismo_timeline_renderer_get_area_width (r) * seismo_timeline_renderer_get_ns_per_px (r);
  seismo_timeline_renderer_set_view (r, seismo_timeline_renderer_get_view_start (r)
                                        + g_variant_get_double (param) * w,
                                     seismo_timeline_renderer_get_ns_per_px (r));
  _seismo_timeline_view_changed (self);
}

static void
action_scroll_rows (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  SeismoTimeline *self = SEISMO_TIMELINE (widget);

  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_scroll_y (self->renderer,
                                         seismo_timeline_renderer_get_scroll_y (self->renderer)
                                         + g_variant_get_int32 (param));
  _seismo_timeline_view_changed (self);
}

static void
action_clear_markers (GtkWidget  *widget,
                      const char *name,
                      GVariant   *param)
{
  seismo_timeline_clear_markers (SEISMO_TIMELINE (widget));
}

static void
action_row (GtkWidget  *widget,
            const char *name,
            GVariant   *param)
{
  SeismoTimeline *self = SEISMO_TIMELINE (widget);
  SeismoTimelineRenderer *r = self->renderer;
  SeismoRowKey key = self->menu_row;

  if (r == NULL)
    return;
  if (g_str_equal (name, "row.toggle-pin"))
    seismo_timeline_renderer_set_pinned (r, key, !seismo_timeline_renderer_get_pinned (r, key));
  else if (g_str_equal (name, "row.hide"))
    seismo_timeline_renderer_hide_row (r, key);
  else if (g_str_equal (name, "row.move-up"))
    seismo_timeline_renderer_move_row (r, key, -1);
  else if (g_str_equal (name, "row.move-down"))
    seismo_timeline_renderer_move_row (r, key, +1);
  else if (g_str_equal (name, "row.toggle-collapsed"))
    seismo_timeline_renderer_set_collapsed (r, key, !seismo_timeline_renderer_get_collapsed (r, key));
  else if (g_str_equal (name, "row.show-all"))
    seismo_timeline_renderer_show_all_rows (r);
  _seismo_timeline_push_rows (self);
  _seismo_timeline_view_changed (self);
}

/* GObject */

static void
seismo_timeline_dispose (GObject *object)
{
  SeismoTimeline *self = SEISMO_TIMELINE (object);

  seismo_timeline_set_view (self, NULL);
  g_clear_pointer (&self->row_menu, gtk_widget_unparent);
  g_clear_handle_id (&self->load_window_source, g_source_remove);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_value_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_value_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->renderer, seismo_timeline_renderer_free);
  g_clear_pointer (&self->base_node, gsk_render_node_unref);
  g_clear_pointer (&self->markers_text, g_free);
  G_OBJECT_CLASS (seismo_timeline_parent_class)->dispose (object);
}

static void
seismo_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SeismoTimeline *self = SEISMO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_EVENT:
      g_value_set_uint (value, self->selected);
      break;
    case PROP_MARKERS_TEXT:
      g_value_set_string (value, seismo_timeline_get_markers_text (self));
      break;
    case PROP_HAS_RANGE:
      g_value_set_boolean (value, seismo_timeline_get_has_range (self));
      break;
    case PROP_PRESENTER:
      g_value_set_boolean (value, self->presenter);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SeismoTimeline *self = SEISMO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_EVENT:
      seismo_timeline_set_selected_event (self, g_value_get_uint (value));
      break;
    case PROP_PRESENTER:
      seismo_timeline_set_presenter (self, g_value_get_boolean (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                      G_CALLBACK (hadjustment_value_changed));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                      G_CALLBACK (vadjustment_value_changed));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_timeline_class_init (SeismoTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_timeline_dispose;

  /**
   * SeismoTimeline::load-window:
   * @start_ns: where the view starts (trace time)
   * @end_ns: where it ends
   *
   * The view of a trace larger than memory rests outside its loaded events: whoever loaded them
   * may load this window's (and set new data; the view stays where it is).
   */
  signals[SIGNAL_LOAD_WINDOW] = g_signal_new ("load-window", G_TYPE_FROM_CLASS (klass),
                                              G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                              G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_UINT64);
  object_class->get_property = seismo_timeline_get_property;
  object_class->set_property = seismo_timeline_set_property;

  widget_class->snapshot = seismo_timeline_snapshot;
  widget_class->size_allocate = seismo_timeline_size_allocate;
  widget_class->measure = seismo_timeline_measure;

  properties[PROP_SELECTED_EVENT] =
    g_param_spec_uint ("selected-event", NULL, NULL, 0, G_MAXUINT, SEISMO_NO_EVENT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MARKERS_TEXT] =
    g_param_spec_string ("markers-text", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_RANGE] =
    g_param_spec_boolean ("has-range", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SeismoTimeline:presenter:
   *
   * Presenter mode: larger text and rows, more contrast, thick markers and selection.
   */
  properties[PROP_PRESENTER] =
    g_param_spec_boolean ("presenter", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-range", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.pan", "d", action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-rows", "i", action_scroll_rows);
  gtk_widget_class_install_action (widget_class, "timeline.clear-markers", NULL, action_clear_markers);
  gtk_widget_class_install_action (widget_class, "row.toggle-pin", NULL, action_row);
  gtk_widget_class_install_action (widget_class, "row.hide", NULL, action_row);
  gtk_widget_class_install_action (widget_class, "row.move-up", NULL, action_row);
  gtk_widget_class_install_action (widget_class, "row.move-down", NULL, action_row);
  gtk_widget_class_install_action (widget_class, "row.toggle-collapsed", NULL, action_row);
  gtk_widget_class_install_action (widget_class, "row.show-all", NULL, action_row);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, 0, "timeline.zoom-range", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "timeline.pan", "d", -0.9);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "timeline.pan", "d", 0.9);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.scroll-rows", "i", -30);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.scroll-rows", "i", 30);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-markers", NULL);

  gtk_widget_class_set_css_name (widget_class, "seismo-timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
seismo_timeline_init (SeismoTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;
  g_autoptr(GtkBuilder) builder = NULL;

  self->selected = SEISMO_NO_EVENT;
  self->scale = 1;
  self->markers_text = g_strdup ("");
  self->pointer_x = SEISMO_TIMELINE_LABEL_WIDTH;
  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_click_pressed), self);
  g_signal_connect (gesture, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  builder = gtk_builder_new_from_resource ("/io/github/seismo/widgets/seismo-timeline-menu.ui");
  self->row_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (gtk_builder_get_object (builder, "row_menu")));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->row_menu), FALSE);
  gtk_widget_set_halign (self->row_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->row_menu, widget);

  gtk_widget_action_set_enabled (widget, "timeline.zoom-range", FALSE);
}

/**
 * seismo_timeline_new:
 *
 * Returns: (transfer floating): a new, empty timeline
 */
GtkWidget *
seismo_timeline_new (void)
{
  return g_object_new (SEISMO_TYPE_TIMELINE, NULL);
}

void
seismo_timeline_set_data (SeismoTimeline     *self,
                          SeismoTimelineData *data)
{
  int width, height;

  g_return_if_fail (SEISMO_IS_TIMELINE (self));

  if (data != NULL && self->renderer != NULL
      && seismo_timeline_renderer_get_data (self->renderer) == data)
    return;
  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (data == NULL)
    g_clear_pointer (&self->renderer, seismo_timeline_renderer_free);
  else if (self->renderer != NULL)
    seismo_timeline_renderer_set_data (self->renderer, data);
  else
    {
      self->renderer = seismo_timeline_renderer_new (data);
      if (width > 0 && height > 0)
        seismo_timeline_renderer_set_size (self->renderer, width / self->scale, height / self->scale);
      seismo_timeline_renderer_fit_all (self->renderer);
    }
  if (self->renderer != NULL && self->selected != SEISMO_NO_EVENT)
    seismo_timeline_renderer_set_selected_event (self->renderer, self->selected);
  if (self->renderer == NULL)
    select_event (self, SEISMO_NO_EVENT);
  _seismo_timeline_update_markers_text (self);
  _seismo_timeline_push_rows (self);
  _seismo_timeline_view_changed (self);
}

SeismoTimelineData *
seismo_timeline_get_data (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), NULL);
  return self->renderer != NULL ? seismo_timeline_renderer_get_data (self->renderer) : NULL;
}

SeismoTimelineRenderer *
seismo_timeline_get_renderer (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), NULL);
  return self->renderer;
}

guint
seismo_timeline_get_selected_event (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), SEISMO_NO_EVENT);
  return self->selected;
}

void
seismo_timeline_set_selected_event (SeismoTimeline *self,
                                    guint           event)
{
  SeismoTrace *trace;

  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  if (event == self->selected)
    return;
  if (self->renderer != NULL && event != SEISMO_NO_EVENT)
    {
      trace = seismo_timeline_data_get_trace (seismo_timeline_renderer_get_data (self->renderer));
      if (event < seismo_trace_get_n_events (trace))
        {
          const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);

          seismo_timeline_renderer_reveal_time (self->renderer, seismo_trace_event_time (trace, event));
          seismo_timeline_renderer_reveal_task (self->renderer, tasks[event]);
          configure_adjustments (self);
        }
    }
  select_event (self, event);
}

const char *
seismo_timeline_get_markers_text (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), NULL);
  return self->markers_text;
}

gboolean
seismo_timeline_get_has_range (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), FALSE);
  return self->renderer != NULL && seismo_timeline_renderer_get_range (self->renderer, NULL, NULL);
}

static double
zoom_anchor (SeismoTimeline *self)
{
  /* Around the pointer when it is over the timeline, else around the middle. */
  if (self->pointer_x > SEISMO_TIMELINE_LABEL_WIDTH
      && gtk_widget_contains (GTK_WIDGET (self), self->pointer_x * self->scale,
                              self->pointer_y * self->scale))
    return self->pointer_x;
  return SEISMO_TIMELINE_LABEL_WIDTH
         + seismo_timeline_renderer_get_area_width (self->renderer) / 2.0;
}

void
seismo_timeline_zoom_in (SeismoTimeline *self)
{
  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  if (self->renderer != NULL)
    zoom_at (self, 1 / ZOOM_STEP, zoom_anchor (self));
}

void
seismo_timeline_zoom_out (SeismoTimeline *self)
{
  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  if (self->renderer != NULL)
    zoom_at (self, ZOOM_STEP, zoom_anchor (self));
}

void
seismo_timeline_zoom_fit (SeismoTimeline *self)
{
  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_fit_all (self->renderer);
  _seismo_timeline_view_changed (self);
}

void
seismo_timeline_zoom_range (SeismoTimeline *self)
{
  guint64 a, b;

  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  if (self->renderer == NULL)
    return;
  if (seismo_timeline_renderer_get_range (self->renderer, &a, &b))
    seismo_timeline_renderer_zoom_to (self->renderer, a, b);
  else if (seismo_timeline_renderer_get_marker (self->renderer, 0, &a)
           && seismo_timeline_renderer_get_marker (self->renderer, 1, &b))
    seismo_timeline_renderer_zoom_to (self->renderer, a, b);
  else
    return;
  _seismo_timeline_view_changed (self);
}

void
seismo_timeline_set_marker (SeismoTimeline *self,
                            guint           which,
                            guint64         time_ns)
{
  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  g_return_if_fail (which < 2);
  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_set_marker (self->renderer, which, time_ns);
  _seismo_timeline_update_markers_text (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
seismo_timeline_clear_markers (SeismoTimeline *self)
{
  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  if (self->renderer == NULL)
    return;
  seismo_timeline_renderer_clear_marker (self->renderer, 0);
  seismo_timeline_renderer_clear_marker (self->renderer, 1);
  seismo_timeline_renderer_clear_range (self->renderer);
  _seismo_timeline_update_markers_text (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
seismo_timeline_get_presenter (SeismoTimeline *self)
{
  g_return_val_if_fail (SEISMO_IS_TIMELINE (self), FALSE);
  return self->presenter;
}

void
seismo_timeline_set_presenter (SeismoTimeline *self,
                               gboolean        presenter)
{
  double view_start = 0, ns_per_px = 0;

  g_return_if_fail (SEISMO_IS_TIMELINE (self));
  presenter = !!presenter;
  if (presenter == self->presenter)
    return;
  if (self->renderer != NULL)
    {
      view_start = seismo_timeline_renderer_get_view_start (self->renderer);
      ns_per_px = seismo_timeline_renderer_get_ns_per_px (self->renderer);
    }
  self->presenter = presenter;
  self->scale = presenter ? PRESENTER_SCALE : 1;
  if (self->renderer != NULL)
    {
      /* The same time range stays in view: fewer view pixels, so more ns per pixel. */
      double old_width = seismo_timeline_renderer_get_area_width (self->renderer);

      seismo_timeline_renderer_set_size (self->renderer, gtk_widget_get_width (GTK_WIDGET (self)) / self->scale,
                                         gtk_widget_get_height (GTK_WIDGET (self)) / self->scale);
      if (old_width > 0 && seismo_timeline_renderer_get_area_width (self->renderer) > 0)
        seismo_timeline_renderer_set_view (self->renderer, view_start,
                                           ns_per_px * old_width
                                           / seismo_timeline_renderer_get_area_width (self->renderer));
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESENTER]);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _seismo_timeline_view_changed (self);
}

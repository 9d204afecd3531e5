/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <glib/gi18n.h>

#include "seismo-flame-graph-view.h"
#include "seismo-view-follower.h"
#include "seismo-pane-range-private.h"
#include "seismo-timeline-renderer.h"
#include "seismo-work-priority.h"

/* 64 MB of ARGB: a 4K screen's worth, twice. */
#define MAX_PICTURE_PIXELS (16 * 1024 * 1024)

struct _SeismoFlameGraphView
{
  GtkWidget          parent_instance;
  SeismoViewFollower      follower;   /* the view it shows, when it follows one */

  /* template widgets */
  GtkToggleButton   *events_button;
  GtkToggleButton   *off_cpu_button;
  GtkToggleButton   *count_button;
  GtkToggleButton   *time_button;
  GtkToggleButton   *icicle_button;
  GtkSpinner        *spinner;
  GtkSearchEntry    *search_entry;
  GtkLabel          *match_label;
  GtkBox            *breadcrumb;
  GtkLabel          *scope_label;
  GtkStack          *stack;
  GtkLabel          *empty_label;
  GtkScrolledWindow *scroller;
  GtkDrawingArea    *area;
  GMenuModel        *frame_menu;

  /* owned */
  GtkWidget         *menu;          /* popover, parented to area */
  SeismoTrace       *trace;
  SeismoPaneRange    range;
  SeismoFlameGraph  *graph;
  GCancellable      *cancellable;
  GPtrArray         *zoom_path;     /* names from the root's child to the zoomed node */
  gsize              n_events;      /* merged into the graph */

  SeismoFlameSource  source;
  SeismoFlameWeight  weight;
  gboolean           icicle;
  gboolean           dirty;         /* the selection changed while the pane was hidden */
  gboolean           stick_bottom;  /* flame: show the root row when the graph is taller */
  guint              menu_node;
  guint              scroll_idle;
  guint              hover;
  double             pointer_x, pointer_y;
  /* The graph drawn without the hover outline, at the size, scale and style it was drawn for:
   * hovering only paints it and an outline. */
  cairo_surface_t   *picture;
  int                picture_width, picture_height, picture_scale;
  gboolean           picture_dark;
};

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  FRAME_FILTER_REQUESTED,
  UPDATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SeismoFlameGraphView, seismo_flame_graph_view, GTK_TYPE_WIDGET)

static gboolean
widget_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return fg.red + fg.green + fg.blue > 1.5;
}

/* Status */

/* The graph, its view (zoom, search, orientation) or its style changed: draw it again. */
static void
redraw (SeismoFlameGraphView *self)
{
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
update_match (SeismoFlameGraphView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *label = NULL;

  if (self->graph != NULL && text[0] != '\0')
    {
      double share = seismo_flame_graph_set_search (self->graph, text);

      label = share > 0 ? g_strdup_printf (_("%.1f %% matched"), 100.0 * share) : g_strdup (_("No match"));
    }
  else if (self->graph != NULL)
    seismo_flame_graph_set_search (self->graph, NULL);
  gtk_label_set_text (self->match_label, label != NULL ? label : "");
  redraw (self);
}

static void
update_scope (SeismoFlameGraphView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *range = NULL;
  guint64 t0, first, last;

  if (self->trace == NULL)
    {
      gtk_label_set_text (self->scope_label, "");
      return;
    }
  t0 = seismo_trace_get_start_ns (self->trace);
  first = MAX (self->range.start_ns, t0);
  last = MIN (self->range.end_ns, seismo_trace_get_end_ns (self->trace));
  if (first <= t0 && last >= seismo_trace_get_end_ns (self->trace))
    range = g_strdup (_("Whole trace"));
  else
    {
      g_autofree char *a = seismo_format_time ((double) (first - t0), 1e3);
      g_autofree char *b = seismo_format_time ((double) (last - t0), 1e3);

      range = g_strdup_printf ("%s … %s", a, b);
    }
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s%s · %'zu event with a stack", "%s%s · %'zu events with a stack",
                                       (gulong) MIN (self->n_events, G_MAXULONG)),
                          range, self->range.mask != NULL ? _(" · filtered events only") : "",
                          self->n_events);
  gtk_label_set_text (self->scope_label, text);
}

static void
on_crumb_clicked (GtkButton            *button,
                  SeismoFlameGraphView *self)
{
  seismo_flame_graph_view_zoom (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "node")));
}

/* all › main › read_config: each a button back to that frame. */
static void
update_breadcrumb (SeismoFlameGraphView *self)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumb))) != NULL)
    gtk_box_remove (self->breadcrumb, child);
  if (self->graph == NULL)
    {
      gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->breadcrumb), GTK_TYPE_SCROLLED_WINDOW),
                              FALSE);
      return;
    }
  for (guint n = seismo_flame_graph_get_zoom (self->graph); n != SEISMO_FLAME_NO_NODE;
       n = seismo_flame_graph_get_node (self->graph, n)->parent)
    g_array_prepend_val (path, n);
  for (guint i = 0; i < path->len; i++)
    {
      guint node = g_array_index (path, guint, i);
      GtkWidget *button = gtk_button_new_with_label (seismo_flame_graph_get_node (self->graph, node)->name);
      GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));

      if (i > 0)
        gtk_box_append (self->breadcrumb, gtk_label_new ("›"));
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, seismo_flame_graph_get_node (self->graph, node)->name);
      gtk_widget_set_sensitive (button, i + 1 < path->len);
      g_object_set_data (G_OBJECT (button), "node", GUINT_TO_POINTER (node));
      g_signal_connect (button, "clicked", G_CALLBACK (on_crumb_clicked), self);
      gtk_box_append (self->breadcrumb, button);
    }
  /* Only "all": nothing to go back to, so no row for it. */
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->breadcrumb), GTK_TYPE_SCROLLED_WINDOW),
                          path->len > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-out", path->len > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.reset-zoom", path->len > 1);
}

static void
update_size (SeismoFlameGraphView *self)
{
  if (self->graph == NULL)
    return;
  /* Rows beyond the visible height scroll; the width always fits. */
  gtk_drawing_area_set_content_height (self->area, (int) seismo_flame_graph_get_content_height (self->graph));
  self->stick_bottom = !self->icicle;
  redraw (self);
}

static gboolean
scroll_to_root (gpointer data)
{
  SeismoFlameGraphView *self = data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);

  self->scroll_idle = 0;
  if (self->stick_bottom)
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                          - gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

static void
on_vadjustment_changed (GtkAdjustment        *adjustment,
                        SeismoFlameGraphView *self)
{
  /* A flame graph grows upward from its root: start at the bottom of a tall one. After the
   * viewport has finished configuring the adjustment, which puts the old value back. */
  if (self->stick_bottom && self->scroll_idle == 0)
    self->scroll_idle = g_idle_add (scroll_to_root, self);
}

static void
show_empty (SeismoFlameGraphView *self,
            const char           *text)
{
  gtk_label_set_text (self->empty_label, text);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* Computing on a worker */

typedef struct {
  SeismoTrace      *trace;
  SeismoPaneRange   range;
  SeismoFlameSource source;
  SeismoFlameWeight weight;
  gsize             n_events;
} FlameJob;

static void
flame_job_free (FlameJob *job)
{
  g_clear_object (&job->trace);
  seismo_pane_range_reset (&job->range);
  g_free (job);
}

static void
flame_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  FlameJob *job = task_data;
  SeismoSelection sel = seismo_pane_range_selection (&job->range);
  SeismoFlameGraph *graph;

  seismo_work_priority_enter ();

  graph = seismo_flame_graph_new_for_trace (job->trace, &sel, job->source, job->weight, &job->n_events,
                                            cancellable);
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_clear_pointer (&graph, seismo_flame_graph_free);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  /* NULL (nothing to draw) is a result too. */
  g_task_return_pointer (task, graph, (GDestroyNotify) seismo_flame_graph_free);
}

/* The zoomed path by names, so a rebuilt graph (a new filter) stays zoomed where it was. */
static void
remember_zoom (SeismoFlameGraphView *self)
{
  /* No graph (one is being built): keep what was remembered from the last one. */
  if (self->graph == NULL)
    return;
  g_ptr_array_set_size (self->zoom_path, 0);
  for (guint n = seismo_flame_graph_get_zoom (self->graph); n != SEISMO_FLAME_ROOT;
       n = seismo_flame_graph_get_node (self->graph, n)->parent)
    g_ptr_array_insert (self->zoom_path, 0, g_strdup (seismo_flame_graph_get_node (self->graph, n)->name));
}

static void
restore_zoom (SeismoFlameGraphView *self)
{
  guint node = SEISMO_FLAME_ROOT;

  for (guint i = 0; i < self->zoom_path->len; i++)
    {
      guint child = seismo_flame_graph_find_child (self->graph, node, g_ptr_array_index (self->zoom_path, i));

      if (child == SEISMO_FLAME_NO_NODE)
        break;
      node = child;
    }
  seismo_flame_graph_set_zoom (self->graph, node);
}

static void
flame_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SeismoFlameGraphView *self = SEISMO_FLAME_GRAPH_VIEW (source);
  FlameJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  SeismoFlameGraph *graph = g_task_propagate_pointer (G_TASK (result), &error);

  if (error != NULL || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&graph, seismo_flame_graph_free);
      return;
    }
  g_clear_object (&self->cancellable);
  gtk_spinner_stop (self->spinner);
  g_clear_pointer (&self->graph, seismo_flame_graph_free);
  self->graph = graph;
  self->hover = SEISMO_FLAME_NO_NODE;
  self->n_events = job->n_events;
  self->menu_node = SEISMO_FLAME_NO_NODE;
  if (self->graph != NULL)
    {
      seismo_flame_graph_set_icicle (self->graph, self->icicle);
      restore_zoom (self);
      gtk_stack_set_visible_child_name (self->stack, "graph");
    }
  else if (!seismo_trace_has_stacks (self->trace))
    show_empty (self, _("This trace has no call stacks. Record with “seismo-cli record --stacks” "
                        "(or import strace -k output, or ftrace with the stacktrace option) to see "
                        "which code made the events."));
  else if (job->source == SEISMO_FLAME_SOURCE_OFF_CPU)
    show_empty (self, _("No task was switched out with a call stack in this range and filter. "
                        "Off-CPU graphs need sched_switch events recorded with stacks."));
  else if (job->weight == SEISMO_FLAME_WEIGHT_TIME)
    show_empty (self, _("The events with stacks here have no duration to weigh by: choose Count."));
  else
    show_empty (self, _("No event in this range and filter has a call stack."));
  update_size (self);
  update_match (self);
  update_breadcrumb (self);
  update_scope (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  g_signal_emit (self, signals[UPDATED], 0);
}

static void
recompute (SeismoFlameGraphView *self)
{
  g_autoptr(GTask) task = NULL;
  FlameJob *job;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->trace == NULL)
    {
      remember_zoom (self);
      g_clear_pointer (&self->graph, seismo_flame_graph_free);
      self->n_events = 0;
      gtk_spinner_stop (self->spinner);
      show_empty (self, _("Open a trace to see which code made its events"));
      update_breadcrumb (self);
      update_scope (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
      return;
    }
  /* Building a graph nobody looks at would take a core from the rest: wait to be shown. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }
  self->dirty = FALSE;
  remember_zoom (self);
  self->cancellable = g_cancellable_new ();
  job = g_new0 (FlameJob, 1);
  job->trace = g_object_ref (self->trace);
  job->source = self->source;
  job->weight = self->weight;
  seismo_pane_range_set (&job->range, self->range.start_ns, self->range.end_ns, self->range.mask);
  task = g_task_new (self, self->cancellable, flame_done, NULL);
  g_task_set_source_tag (task, recompute);
  g_task_set_task_data (task, job, (GDestroyNotify) flame_job_free);
  g_task_run_in_thread (task, flame_thread);
  gtk_spinner_start (self->spinner);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Drawing and input */

static void
draw_area (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        data)
{
  SeismoFlameGraphView *self = data;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  gboolean dark = widget_is_dark (GTK_WIDGET (area));

  if (self->graph == NULL)
    return;
  seismo_flame_graph_set_size (self->graph, width, height);
  seismo_flame_graph_set_dark (self->graph, dark);
  if (self->picture != NULL && (self->picture_width != width || self->picture_height != height
                                || self->picture_scale != scale || self->picture_dark != dark))
    g_clear_pointer (&self->picture, cairo_surface_destroy);
  /* A graph thousands of frames deep is taller than a picture worth keeping: draw it each time. */
  if (self->picture == NULL && (gint64) width * height * scale * scale > MAX_PICTURE_PIXELS)
    {
      seismo_flame_graph_set_hover (self->graph, self->hover);
      seismo_flame_graph_draw (self->graph, cr);
      return;
    }
  if (self->picture == NULL)
    {
      cairo_t *pcr;

      self->picture = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
      cairo_surface_set_device_scale (self->picture, scale, scale);
      self->picture_width = width;
      self->picture_height = height;
      self->picture_scale = scale;
      self->picture_dark = dark;
      pcr = cairo_create (self->picture);
      seismo_flame_graph_set_hover (self->graph, SEISMO_FLAME_NO_NODE);
      seismo_flame_graph_draw (self->graph, pcr);
      cairo_destroy (pcr);
    }
  cairo_set_source_surface (cr, self->picture, 0, 0);
  cairo_paint (cr);
  seismo_flame_graph_set_hover (self->graph, self->hover);
  seismo_flame_graph_draw_hover (self->graph, cr);
}

static guint
node_at (SeismoFlameGraphView *self,
         double                x,
         double                y)
{
  if (self->graph == NULL)
    return SEISMO_FLAME_NO_NODE;
  seismo_flame_graph_set_size (self->graph, gtk_widget_get_width (GTK_WIDGET (self->area)),
                               gtk_widget_get_height (GTK_WIDGET (self->area)));
  return seismo_flame_graph_node_at (self->graph, x, y);
}

static gboolean
on_query_tooltip (SeismoFlameGraphView *self,
                  int                   x,
                  int                   y,
                  gboolean              keyboard,
                  GtkTooltip           *tooltip)
{
  guint node = node_at (self, x, y);
  g_autofree char *markup = NULL;

  if (node == SEISMO_FLAME_NO_NODE)
    return FALSE;
  markup = seismo_flame_graph_describe_node (self->graph, node);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           SeismoFlameGraphView     *self)
{
  guint node;

  /* GTK repeats the last position after a redraw: only a real move takes the outline from the
   * frame the keyboard walked to. */
  if (self->graph == NULL || (x == self->pointer_x && y == self->pointer_y))
    return;
  self->pointer_x = x;
  self->pointer_y = y;
  node = node_at (self, x, y);
  if (node == self->hover)
    return;
  self->hover = node;
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
on_leave (GtkEventControllerMotion *motion,
          SeismoFlameGraphView     *self)
{
  self->pointer_x = self->pointer_y = -1;
  if (self->graph == NULL || self->hover == SEISMO_FLAME_NO_NODE)
    return;
  self->hover = SEISMO_FLAME_NO_NODE;
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
update_menu_actions (SeismoFlameGraphView *self)
{
  const SeismoFlameNode *node = self->graph != NULL && self->menu_node != SEISMO_FLAME_NO_NODE
                                ? seismo_flame_graph_get_node (self->graph, self->menu_node) : NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.zoom-frame", node != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flame.filter-frame",
                                 node != NULL && self->menu_node != SEISMO_FLAME_ROOT);
}

static void
on_click (GtkGestureClick      *gesture,
          int                   n_press,
          double                x,
          double                y,
          SeismoFlameGraphView *self)
{
  guint node = node_at (self, x, y);
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (self->area));
  if (node == SEISMO_FLAME_NO_NODE)
    return;
  if (button == GDK_BUTTON_SECONDARY)
    {
      self->menu_node = node;
      update_menu_actions (self);
      gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->menu));
      return;
    }
  if (button == GDK_BUTTON_PRIMARY && n_press == 1)
    seismo_flame_graph_view_zoom (self, node);
}

/* Keyboard: the arrows walk the frames (up and down the call path as drawn, left and right
 * among siblings), Enter zooms, Menu or Shift+F10 opens the frame's menu; the frame walked to is
 * outlined and described under the toolbar. */
static void
keyboard_to (SeismoFlameGraphView *self,
             guint                 node)
{
  g_autofree char *markup = NULL;
  g_autofree char *text = NULL;

  if (node == SEISMO_FLAME_NO_NODE)
    return;
  self->hover = node;
  markup = seismo_flame_graph_describe_node (self->graph, node);
  if (pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    {
      g_strdelimit (text, "\n", ' ');
      gtk_label_set_text (self->scope_label, text);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static guint
previous_sibling (SeismoFlameGraph *graph,
                  guint             node)
{
  guint parent = seismo_flame_graph_get_node (graph, node)->parent;
  guint prev = SEISMO_FLAME_NO_NODE;

  if (parent == SEISMO_FLAME_NO_NODE)
    return SEISMO_FLAME_NO_NODE;
  for (guint c = seismo_flame_graph_first_child (graph, parent); c != node && c != SEISMO_FLAME_NO_NODE;
       c = seismo_flame_graph_next_sibling (graph, c))
    prev = c;
  return prev;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                SeismoFlameGraphView  *self)
{
  guint node;
  double x, y, w, h;
  gboolean toward_leaves;

  if (self->graph == NULL)
    return FALSE;
  node = self->hover != SEISMO_FLAME_NO_NODE ? self->hover : seismo_flame_graph_get_zoom (self->graph);
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_Down:
      toward_leaves = (keyval == GDK_KEY_Up) != self->icicle;
      if (self->hover == SEISMO_FLAME_NO_NODE)
        keyboard_to (self, node);
      else if (toward_leaves)
        keyboard_to (self, seismo_flame_graph_first_child (self->graph, node));
      else
        keyboard_to (self, seismo_flame_graph_get_node (self->graph, node)->parent);
      return TRUE;
    case GDK_KEY_Left:
      keyboard_to (self, self->hover == SEISMO_FLAME_NO_NODE ? node : previous_sibling (self->graph, node));
      return TRUE;
    case GDK_KEY_Right:
      keyboard_to (self, self->hover == SEISMO_FLAME_NO_NODE ? node
                                                             : seismo_flame_graph_next_sibling (self->graph, node));
      return TRUE;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      seismo_flame_graph_view_zoom (self, node);
      return TRUE;
    case GDK_KEY_F10:
      if (!(state & GDK_SHIFT_MASK))
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case GDK_KEY_Menu:
      if (!seismo_flame_graph_node_rect (self->graph, node, &x, &y, &w, &h))
        return TRUE;
      self->menu_node = node;
      update_menu_actions (self);
      gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int) x, (int) y, (int) MAX (w, 1), (int) h });
      gtk_popover_popup (GTK_POPOVER (self->menu));
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_map (SeismoFlameGraphView *self)
{
  if (self->dirty)
    recompute (self);
}

/* Template callbacks */

static void
on_source_toggled (SeismoFlameGraphView *self,
                   GtkToggleButton      *button)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  seismo_flame_graph_view_set_source (self, button == self->off_cpu_button ? SEISMO_FLAME_SOURCE_OFF_CPU
                                                                          : SEISMO_FLAME_SOURCE_EVENTS);
}

static void
on_weight_toggled (SeismoFlameGraphView *self,
                   GtkToggleButton      *button)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  seismo_flame_graph_view_set_weight (self, button == self->time_button ? SEISMO_FLAME_WEIGHT_TIME
                                                                       : SEISMO_FLAME_WEIGHT_COUNT);
}

static void
on_icicle_toggled (SeismoFlameGraphView *self,
                   GtkToggleButton      *button)
{
  seismo_flame_graph_view_set_icicle (self, gtk_toggle_button_get_active (button));
}

static void
on_search_changed (SeismoFlameGraphView *self)
{
  update_match (self);
}

/* Actions */

static void
action_zoom_frame (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  SeismoFlameGraphView *self = SEISMO_FLAME_GRAPH_VIEW (widget);

  if (self->menu_node != SEISMO_FLAME_NO_NODE)
    seismo_flame_graph_view_zoom (self, self->menu_node);
}

static void
action_zoom_out (GtkWidget  *widget,
                 const char *name,
                 GVariant   *param)
{
  SeismoFlameGraphView *self = SEISMO_FLAME_GRAPH_VIEW (widget);
  guint zoom;

  if (self->graph == NULL || (zoom = seismo_flame_graph_get_zoom (self->graph)) == SEISMO_FLAME_ROOT)
    return;
  seismo_flame_graph_view_zoom (self, seismo_flame_graph_get_node (self->graph, zoom)->parent);
}

static void
action_reset_zoom (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  seismo_flame_graph_view_zoom (SEISMO_FLAME_GRAPH_VIEW (widget), SEISMO_FLAME_ROOT);
}

static void
action_filter_frame (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  SeismoFlameGraphView *self = SEISMO_FLAME_GRAPH_VIEW (widget);
  const SeismoFlameNode *node;

  if (self->graph == NULL || self->menu_node == SEISMO_FLAME_NO_NODE || self->menu_node == SEISMO_FLAME_ROOT)
    return;
  node = seismo_flame_graph_get_node (self->graph, self->menu_node);
  g_signal_emit (self, signals[FRAME_FILTER_REQUESTED], 0, node->frame);
}

/* GObject */

static void
seismo_flame_graph_view_dispose (GObject *object)
{
  SeismoFlameGraphView *self = SEISMO_FLAME_GRAPH_VIEW (object);

  seismo_view_follower_clear (&self->follower);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_FLAME_GRAPH_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->graph, seismo_flame_graph_free);
  g_clear_pointer (&self->zoom_path, g_ptr_array_unref);
  seismo_pane_range_reset (&self->range);
  G_OBJECT_CLASS (seismo_flame_graph_view_parent_class)->dispose (object);
}
static void
seismo_flame_graph_view_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, seismo_flame_graph_view_get_busy (SEISMO_FLAME_GRAPH_VIEW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_flame_graph_view_class_init (SeismoFlameGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_flame_graph_view_dispose;
  object_class->get_property = seismo_flame_graph_view_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SeismoFlameGraphView::frame-filter-requested:
   * @frame: the trace's frame id
   *
   * The user asked for the events whose stack contains this frame.
   */
  signals[FRAME_FILTER_REQUESTED] =
    g_signal_new ("frame-filter-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* A new graph (or none) is shown. */
  signals[UPDATED] =
    g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/seismo/widgets/seismo-flame-graph-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, events_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, off_cpu_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, count_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, time_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, icicle_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, spinner);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, match_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, breadcrumb);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, scope_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, stack);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, scroller);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, area);
  gtk_widget_class_bind_template_child (widget_class, SeismoFlameGraphView, frame_menu);
  gtk_widget_class_bind_template_callback (widget_class, on_source_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_weight_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_icicle_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_query_tooltip);

  gtk_widget_class_install_action (widget_class, "flame.zoom-frame", NULL, action_zoom_frame);
  gtk_widget_class_install_action (widget_class, "flame.zoom-out", NULL, action_zoom_out);
  gtk_widget_class_install_action (widget_class, "flame.reset-zoom", NULL, action_reset_zoom);
  gtk_widget_class_install_action (widget_class, "flame.filter-frame", NULL, action_filter_frame);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "flame.reset-zoom", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismoflamegraphview");
}

static void
seismo_flame_graph_view_init (SeismoFlameGraphView *self)
{
  GtkEventController *motion, *key;
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->zoom_path = g_ptr_array_new_with_free_func (g_free);
  self->menu_node = SEISMO_FLAME_NO_NODE;
  self->hover = SEISMO_FLAME_NO_NODE;
  self->pointer_x = self->pointer_y = -1;
  seismo_pane_range_reset (&self->range);
  gtk_drawing_area_set_draw_func (self->area, draw_area, self, NULL);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), motion);
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (click));
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), key);

  self->menu = gtk_popover_menu_new_from_model (self->frame_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self->area));

  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->scroller), "changed",
                           G_CALLBACK (on_vadjustment_changed), self, 0);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  show_empty (self, _("Open a trace to see which code made its events"));
  update_breadcrumb (self);
  update_menu_actions (self);
  /* Following a view: its trace and span reach the pane as if set through its own API. */
  seismo_view_follower_init (&self->follower, self, (SeismoViewTraceFunc) seismo_flame_graph_view_set_trace,
                             (SeismoViewSpanFunc) seismo_flame_graph_view_set_selection);
}

/* Public API */

GtkWidget *
seismo_flame_graph_view_new (void)
{
  return g_object_new (SEISMO_TYPE_FLAME_GRAPH_VIEW, NULL);
}

void
seismo_flame_graph_view_set_trace (SeismoFlameGraphView *self,
                                   SeismoTrace          *trace)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  if (!g_set_object (&self->trace, trace))
    return;
  seismo_pane_range_reset (&self->range);
  /* A live recording is the same trace grown: stay zoomed where the user was. */
  remember_zoom (self);
  g_clear_pointer (&self->graph, seismo_flame_graph_free);
  recompute (self);
}

void
seismo_flame_graph_view_set_selection (SeismoFlameGraphView *self,
                                       guint64               start_ns,
                                       guint64               end_ns,
                                       GBytes               *mask)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));
  g_return_if_fail (start_ns <= end_ns);

  seismo_pane_range_set (&self->range, start_ns, end_ns, mask);
  recompute (self);
}

gboolean
seismo_flame_graph_view_get_busy (SeismoFlameGraphView *self)
{
  g_return_val_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self), FALSE);
  return self->cancellable != NULL || self->dirty;
}

SeismoFlameGraph *
seismo_flame_graph_view_get_graph (SeismoFlameGraphView *self)
{
  g_return_val_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self), NULL);
  return self->graph;
}

void
seismo_flame_graph_view_set_source (SeismoFlameGraphView *self,
                                    SeismoFlameSource     source)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));

  if (self->source == source)
    return;
  self->source = source;
  gtk_toggle_button_set_active (source == SEISMO_FLAME_SOURCE_OFF_CPU ? self->off_cpu_button
                                                                      : self->events_button, TRUE);
  /* Off the CPU, time is what matters: a count of switches says little. */
  if (source == SEISMO_FLAME_SOURCE_OFF_CPU && self->weight != SEISMO_FLAME_WEIGHT_TIME)
    {
      self->weight = SEISMO_FLAME_WEIGHT_TIME;
      gtk_toggle_button_set_active (self->time_button, TRUE);
    }
  g_ptr_array_set_size (self->zoom_path, 0);
  recompute (self);
}

SeismoFlameSource
seismo_flame_graph_view_get_source (SeismoFlameGraphView *self)
{
  g_return_val_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self), SEISMO_FLAME_SOURCE_EVENTS);
  return self->source;
}

void
seismo_flame_graph_view_set_weight (SeismoFlameGraphView *self,
                                    SeismoFlameWeight     weight)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));

  if (self->weight == weight)
    return;
  self->weight = weight;
  gtk_toggle_button_set_active (weight == SEISMO_FLAME_WEIGHT_TIME ? self->time_button : self->count_button, TRUE);
  recompute (self);
}

SeismoFlameWeight
seismo_flame_graph_view_get_weight (SeismoFlameGraphView *self)
{
  g_return_val_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self), SEISMO_FLAME_WEIGHT_COUNT);
  return self->weight;
}

void
seismo_flame_graph_view_set_icicle (SeismoFlameGraphView *self,
                                    gboolean              icicle)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));

  icicle = !!icicle;
  if (self->icicle == icicle)
    return;
  self->icicle = icicle;
  gtk_toggle_button_set_active (self->icicle_button, icicle);
  if (self->graph != NULL)
    seismo_flame_graph_set_icicle (self->graph, icicle);
  update_size (self);
  if (icicle)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
  else
    on_vadjustment_changed (gtk_scrolled_window_get_vadjustment (self->scroller), self);
}

void
seismo_flame_graph_view_set_search (SeismoFlameGraphView *self,
                                    const char           *text)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  /* Now, not after the entry's delay: callers (lessons, tests) read the share right away. */
  update_match (self);
}

void
seismo_flame_graph_view_zoom (SeismoFlameGraphView *self,
                              guint                 node)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));

  if (self->graph == NULL)
    return;
  seismo_flame_graph_set_zoom (self->graph, node);
  remember_zoom (self);
  update_match (self);
  update_breadcrumb (self);
  redraw (self);
}

const char *
seismo_flame_graph_view_get_match_text (SeismoFlameGraphView *self)
{
  g_return_val_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self), "");
  return gtk_label_get_text (self->match_label);
}

/**
 * seismo_flame_graph_view_set_view:
 * @view: (nullable): the view to follow: its trace, and its span and filter in force
 */
void
seismo_flame_graph_view_set_view (SeismoFlameGraphView *self,
                                   SeismoView *view)
{
  g_return_if_fail (SEISMO_IS_FLAME_GRAPH_VIEW (self));
  seismo_view_follower_set_view (&self->follower, view);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-filter-overlay.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"

/*
 * The filter bar, the rate strip and the analysis panes (all in the window's template) bound
 * to the window's view, the quick filters and the pane actions.
 */
struct _SeismoWindowAnalysis
{
  /* borrowed: template widgets of the window */
  SeismoFilterBar     *filter_bar;
  SeismoRateView      *rate_view;
  GtkWidget           *overlay;
  GtkStack            *panes;
  SeismoHistogramView *histogram;
  SeismoStatsView     *stats;
  SeismoFlameGraphView *flame;

  /* owned */
  GtkWidget           *list_menu;   /* parented to the event list; unparented in dispose */

  SeismoTrace         *trace;       /* the trace the panes were last given */

  /* What a quick filter of a context menu applies to. */
  SeismoTaskId         menu_task;
  gint32               menu_pid;
  gint                 menu_cpu;
  gint                 menu_type;
};

static SeismoTrace *
shown_trace (SeismoWindow *self)
{
  return seismo_window_get_trace (self);
}

static void
on_filter_requested (SeismoWindow *self,
                     const char   *expression)
{
  seismo_window_apply_filter (self, expression);
}

static void
on_bucket_activated (SeismoWindow        *self,
                     guint                bucket,
                     SeismoHistogramView *view)
{
  g_autofree char *expression = seismo_histogram_view_bucket_filter (view, bucket);
  g_autofree char *label = NULL;
  g_autoptr(GBytes) mask = NULL;

  if (self->analysis == NULL)   /* signals may still come while the window is torn down */
    return;
  if (expression != NULL)
    {
      seismo_window_apply_filter (self, expression);
      return;
    }
  /* Wakeup, runtime and gap samples have no field in the filter language: filter by set. */
  mask = seismo_histogram_view_bucket_mask (view, bucket, &label);
  seismo_filter_bar_apply_mask (self->analysis->filter_bar, mask, label);
}

/* Quick filters */

static char *
combine (SeismoWindow *self,
         const char   *condition)
{
  const char *current = seismo_view_get_mask (self->view) != NULL
                        ? seismo_window_get_filter (self) : "";
  g_autoptr(SeismoFilter) check = NULL;

  /* Narrow the filter in force, when it is an expression (not a histogram bucket). */
  if (current[0] != '\0' && shown_trace (self) != NULL
      && (check = seismo_filter_compile (shown_trace (self), current, NULL)) != NULL)
    return g_strdup_printf ("(%s) && %s", current, condition);
  return g_strdup (condition);
}

static void
set_menu_context (SeismoWindow  *self,
                  SeismoEventId  event)
{
  SeismoWindowAnalysis *an = self->analysis;
  SeismoTrace *trace = shown_trace (self);

  an->menu_task = SEISMO_NO_TASK;
  an->menu_pid = -1;
  an->menu_cpu = -1;
  an->menu_type = -1;
  if (trace != NULL && event != SEISMO_NO_EVENT && event < seismo_trace_get_n_events (trace))
    {
      an->menu_task = seismo_trace_get_tasks (trace)[event];
      an->menu_cpu = (gint) seismo_trace_event_cpu (trace, event);
      an->menu_type = seismo_trace_get_types (trace)[event];
    }
}

static void
update_quick_actions (SeismoWindow *self)
{
  SeismoWindowAnalysis *an = self->analysis;
  GtkWidget *w = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (w, "win.filter-only-task", an->menu_task != SEISMO_NO_TASK || an->menu_pid >= 0);
  gtk_widget_action_set_enabled (w, "win.filter-only-cpu", an->menu_cpu >= 0);
  gtk_widget_action_set_enabled (w, "win.filter-hide-event", an->menu_type >= 0);
}

/* Without a right click, quick filters act on the selected event (keyboard users, lessons). */
static void
on_selection_changed (SeismoWindow *self)
{
  guint event = seismo_view_get_selected_event (self->view);

  if (self->analysis == NULL)   /* signals may still come while the window is torn down */
    return;
  set_menu_context (self, event);
  update_quick_actions (self);
}

static void
on_timeline_secondary (GtkGestureClick *gesture,
                       int              n_press,
                       double           x,
                       double           y,
                       SeismoWindow    *self)
{
  SeismoWindowAnalysis *an = self->analysis;
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (self->timeline);
  SeismoTimelineData *data = seismo_timeline_get_data (self->timeline);
  SeismoTimelineHit hit;
  double scale = 1;
  SeismoEventId event;

  if (self->analysis == NULL)   /* signals may still come while the window is torn down */
    return;
  /* Capture phase, never claimed: the timeline's own menu still opens; this only notes what the
   * click was on, for the quick filters in that menu. */
  if (r == NULL || data == NULL)
    return;
  if (seismo_timeline_renderer_get_area_width (r) > 0)
    scale = gtk_widget_get_width (GTK_WIDGET (self->timeline))
            / (double) (seismo_timeline_renderer_get_area_width (r) + SEISMO_TIMELINE_LABEL_WIDTH);
  x /= scale;
  y /= scale;
  event = seismo_timeline_renderer_event_at (r, x, y);
  if (event == SEISMO_NO_EVENT)
    event = seismo_timeline_get_selected_event (self->timeline);
  set_menu_context (self, event);
  if (seismo_timeline_renderer_hit (r, x, y, &hit))
    {
      if (hit.row.kind == SEISMO_ROW_CPU)
        an->menu_cpu = (gint) hit.row.id;
      else if (hit.row.kind == SEISMO_ROW_TASK)
        an->menu_task = hit.row.id;
      else if (hit.row.kind == SEISMO_ROW_PROCESS)
        {
          guint n_procs;
          const SeismoTimelineProcess *procs = seismo_timeline_data_get_processes (data, &n_procs);

          if (hit.row.id < n_procs)
            {
              an->menu_pid = procs[hit.row.id].pid;
              an->menu_task = SEISMO_NO_TASK;
            }
        }
    }
  update_quick_actions (self);
}

static void
on_list_secondary (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   SeismoWindow    *self)
{
  SeismoWindowAnalysis *an = self->analysis;

  if (self->analysis == NULL)   /* signals may still come while the window is torn down */
    return;
  /* The list's rows are not public, so the menu acts on the selected row. */
  set_menu_context (self, seismo_event_list_get_selected_event (self->event_list));
  update_quick_actions (self);
  if (an->menu_type < 0)
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (an->list_menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (an->list_menu));
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
action_quick_filter (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  SeismoWindowAnalysis *an = self->analysis;
  SeismoTrace *trace = shown_trace (self);
  g_autofree char *condition = NULL;
  g_autofree char *expression = NULL;

  if (trace == NULL)
    return;
  if (g_str_equal (name, "win.filter-only-task"))
    {
      if (an->menu_pid >= 0)
        condition = g_strdup_printf ("pid == %d", an->menu_pid);
      else if (an->menu_task != SEISMO_NO_TASK)
        condition = g_strdup_printf ("tid == %d", seismo_trace_get_task (trace, an->menu_task)->tid);
    }
  else if (g_str_equal (name, "win.filter-only-cpu") && an->menu_cpu >= 0)
    condition = g_strdup_printf ("cpu == %d", an->menu_cpu);
  else if (g_str_equal (name, "win.filter-hide-event") && an->menu_type >= 0)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, (guint) an->menu_type);

      condition = g_strdup_printf ("!(event == %s:%s)", type->system, type->name);
    }
  if (condition == NULL)
    return;
  expression = combine (self, condition);
  seismo_window_apply_filter (self, expression);
}

static void
action_filter_clear (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  seismo_filter_bar_clear (SEISMO_WINDOW (widget)->analysis->filter_bar);
}

static void
action_focus_filter (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  seismo_filter_bar_focus (SEISMO_WINDOW (widget)->analysis->filter_bar);
}

static void
on_frame_filter_requested (SeismoWindow *self,
                           guint         frame)
{
  seismo_window_filter_stack_frame (self, frame);
}

static void
action_filter_stack_frame (GtkWidget  *widget,
                           const char *name,
                           GVariant   *param)
{
  seismo_window_filter_stack_frame (SEISMO_WINDOW (widget), g_variant_get_uint32 (param));
}

static void
action_show_pane (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  seismo_window_show_pane (SEISMO_WINDOW (widget), g_variant_get_string (param, NULL));
}

/* The pane shown: the view's, when the stack has it (a session of a newer version may name
 * one it does not). */
static void
on_view_pane (SeismoWindow *self)
{
  const char *name = seismo_view_get_pane (self->view);

  if (self->analysis != NULL && gtk_stack_get_child_by_name (self->analysis->panes, name) != NULL)
    gtk_stack_set_visible_child_name (self->analysis->panes, name);
}

static void
on_stack_pane (SeismoWindow *self,
               GParamSpec   *pspec,
               GtkStack     *panes)
{
  if (gtk_stack_get_visible_child_name (panes) != NULL)
    seismo_view_set_pane (self->view, gtk_stack_get_visible_child_name (panes));
}

/* Setup */

static GMenuModel *
quick_filter_menu (void)
{
  GMenu *menu = g_menu_new ();

  g_menu_append (menu, _("Only This _Task"), "win.filter-only-task");
  g_menu_append (menu, _("Only This _CPU"), "win.filter-only-cpu");
  g_menu_append (menu, _("_Hide This Event Type"), "win.filter-hide-event");
  g_menu_append (menu, _("C_lear Filter"), "win.filter-clear");
  return G_MENU_MODEL (menu);
}

void
_seismo_window_init_analysis (SeismoWindow *self)
{
  SeismoWindowAnalysis *an = g_new0 (SeismoWindowAnalysis, 1);
  GtkGesture *click;
  g_autoptr(GMenuModel) menu = quick_filter_menu ();

  self->analysis = an;
  an->menu_task = SEISMO_NO_TASK;
  an->menu_pid = an->menu_cpu = an->menu_type = -1;
  an->filter_bar = self->filter_bar;
  an->rate_view = self->rate_view;
  an->overlay = GTK_WIDGET (self->filter_overlay);
  an->panes = self->panes;
  an->histogram = self->histogram;
  an->stats = self->stats;
  an->flame = self->flame;

  seismo_rate_view_set_timeline (an->rate_view, self->timeline);
  /* The open pane is view state (sessions, lessons); the stack shows it. */
  g_signal_connect_swapped (self->view, "notify::pane", G_CALLBACK (on_view_pane), self);
  g_signal_connect_swapped (an->panes, "notify::visible-child-name", G_CALLBACK (on_stack_pane), self);
  on_view_pane (self);
  /* Each follows the view itself: its trace, its filter's result, its markers and range. */
  seismo_filter_bar_set_view (an->filter_bar, self->view);
  seismo_filter_overlay_set_view (SEISMO_FILTER_OVERLAY (an->overlay), self->view);
  seismo_rate_view_set_view (an->rate_view, self->view);
  seismo_histogram_view_set_view (an->histogram, self->view);
  seismo_stats_view_set_view (an->stats, self->view);
  seismo_flame_graph_view_set_view (an->flame, self->view);
  g_signal_connect_swapped (an->stats, "filter-requested", G_CALLBACK (on_filter_requested), self);
  g_signal_connect_swapped (an->histogram, "bucket-activated", G_CALLBACK (on_bucket_activated), self);
  g_signal_connect_swapped (self->view, "notify::selected-event", G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (an->flame, "frame-filter-requested", G_CALLBACK (on_frame_filter_requested), self);

  /* Quick filters: noted from a right click on the timeline (its row menu has the items), and a
   * menu of their own on the list. */
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_timeline_secondary), self);
  gtk_widget_add_controller (GTK_WIDGET (self->timeline), GTK_EVENT_CONTROLLER (click));

  an->list_menu = gtk_popover_menu_new_from_model (menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (an->list_menu), FALSE);
  gtk_widget_set_halign (an->list_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (an->list_menu, GTK_WIDGET (self->event_list));
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_list_secondary), self);
  gtk_widget_add_controller (GTK_WIDGET (self->event_list), GTK_EVENT_CONTROLLER (click));
  update_quick_actions (self);
}

void
_seismo_window_class_init_analysis (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.filter-only-task", NULL, action_quick_filter);
  gtk_widget_class_install_action (widget_class, "win.filter-only-cpu", NULL, action_quick_filter);
  gtk_widget_class_install_action (widget_class, "win.filter-hide-event", NULL, action_quick_filter);
  gtk_widget_class_install_action (widget_class, "win.filter-clear", NULL, action_filter_clear);
  gtk_widget_class_install_action (widget_class, "win.focus-filter", NULL, action_focus_filter);
  gtk_widget_class_install_action (widget_class, "win.show-pane", "s", action_show_pane);
  gtk_widget_class_install_action (widget_class, "win.filter-stack-frame", "u", action_filter_stack_frame);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.focus-filter", NULL);
}

void
_seismo_window_analysis_set_trace (SeismoWindow *self)
{
  SeismoWindowAnalysis *an = self->analysis;
  SeismoTrace *trace = shown_trace (self);

  if (an == NULL)
    return;
  /* A trace larger than memory: the statistics of the whole trace, and of a range beyond the
   * events read, come from its summary. Before the trace, which recomputes. */
  seismo_stats_view_set_summary (an->stats, self->data != NULL ? seismo_timeline_data_get_summary (self->data)
                                                               : NULL);
  /* A new trace (also a live recording that grew) is filtered again with the same expression:
   * the view does that (also for a text asked for before its trace arrived, by a lesson). */
  if (trace == an->trace)
    return;
  g_set_object (&an->trace, trace);
  seismo_view_set_trace (self->view, trace);
}

void
_seismo_window_dispose_analysis (SeismoWindow *self)
{
  SeismoWindowAnalysis *an = self->analysis;

  if (an == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->view, self);
  g_signal_handlers_disconnect_by_data (an->panes, self);
  g_clear_pointer (&an->list_menu, gtk_widget_unparent);
  g_clear_object (&an->trace);
  g_clear_pointer (&self->analysis, g_free);
}

/* Public API */

gboolean
seismo_window_apply_filter (SeismoWindow *self,
                            const char   *expression)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (expression != NULL, FALSE);

  if (self->analysis == NULL || shown_trace (self) == NULL)
    return FALSE;
  if (expression[0] == '\0')
    {
      seismo_filter_bar_clear (self->analysis->filter_bar);
      return TRUE;
    }
  return seismo_filter_bar_apply (self->analysis->filter_bar, expression);
}

const char *
seismo_window_get_filter (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), "");
  return self->analysis != NULL ? seismo_filter_bar_get_applied (self->analysis->filter_bar) : "";
}

void
seismo_window_show_pane (SeismoWindow *self,
                         const char   *name)
{
  g_return_if_fail (SEISMO_IS_WINDOW (self));
  g_return_if_fail (name != NULL);

  if (self->analysis != NULL && gtk_stack_get_child_by_name (self->analysis->panes, name) != NULL)
    seismo_view_set_pane (self->view, name);
}

const char *
seismo_window_get_pane (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->analysis != NULL ? gtk_stack_get_visible_child_name (self->analysis->panes) : NULL;
}

SeismoFilterBar *
seismo_window_get_filter_bar (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->analysis != NULL ? self->analysis->filter_bar : NULL;
}

SeismoHistogramView *
seismo_window_get_histogram_view (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->analysis != NULL ? self->analysis->histogram : NULL;
}

SeismoStatsView *
seismo_window_get_stats_view (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->analysis != NULL ? self->analysis->stats : NULL;
}

SeismoRateView *
seismo_window_get_rate_view (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->analysis != NULL ? self->analysis->rate_view : NULL;
}

SeismoFlameGraphView *
seismo_window_get_flame_graph_view (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->analysis != NULL ? self->analysis->flame : NULL;
}

/* "stack == \"name\"": quoted always, since frame names may hold spaces, brackets or '+'. */
static char *
stack_condition (const char *name)
{
  GString *out = g_string_new ("stack == \"");

  for (const char *c = name; *c != '\0'; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

void
seismo_window_filter_stack_frame (SeismoWindow  *self,
                                  SeismoFrameId  frame)
{
  SeismoTrace *trace;
  g_autofree char *name = NULL;
  g_autofree char *condition = NULL;
  g_autofree char *expression = NULL;

  g_return_if_fail (SEISMO_IS_WINDOW (self));

  trace = shown_trace (self);
  if (self->analysis == NULL || trace == NULL || frame >= seismo_trace_get_n_frames (trace))
    return;
  /* By name, as flame graphs merge frames: every frame of that function. */
  name = seismo_frame_display_name (seismo_trace_get_frame (trace, frame));
  condition = stack_condition (name);
  expression = combine (self, condition);
  seismo_window_apply_filter (self, expression);
}

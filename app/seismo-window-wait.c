/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-thread-states.h"
#include "seismo-wait-dialog.h"
#include "seismo-window-private.h"

/*
 * "Why was this slow?" (win.why-slow), from the timeline's context menu and the details pane: for
 * the selected event's task, over the selected range, else the selected syscall, else what is in
 * view.
 */

static void
action_why_slow (GtkWidget  *widget,
                 const char *name,
                 GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  SeismoTrace *trace = seismo_window_get_trace (self);
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (self->timeline);
  SeismoTimelineData *data = seismo_timeline_get_data (self->timeline);
  SeismoEventId event = seismo_timeline_get_selected_event (self->timeline);
  const SeismoSyscallSpan *span;
  const SeismoTask *t;
  SeismoTaskId task;
  guint64 from, to, a, b;

  if (trace == NULL || r == NULL || data == NULL)
    return;
  task = seismo_timeline_renderer_get_focus_task (r);
  t = seismo_trace_get_task (trace, task);
  if (t == NULL || t->tid <= 0)
    {
      _seismo_window_toast (self, _("Select an event of the task to explain first"));
      return;
    }
  if (seismo_timeline_renderer_get_range (r, &a, &b))
    {
      from = MIN (a, b);
      to = MAX (a, b);
    }
  else if (event != SEISMO_NO_EVENT && (span = seismo_timeline_data_find_span (data, event)) != NULL)
    {
      from = seismo_trace_event_time (trace, span->enter);
      to = seismo_timeline_data_span_end_ns (data, span);
    }
  else
    {
      double x0 = SEISMO_TIMELINE_LABEL_WIDTH;
      double x1 = x0 + seismo_timeline_renderer_get_area_width (r);

      from = (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x0), 0);
      to = (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x1), 0);
    }
  if (to <= from)
    to = from + 1;
  seismo_wait_dialog_new (GTK_WINDOW (self), self->timeline, trace, task, from, to);
}

void
_seismo_window_class_init_wait (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.why-slow", NULL, action_why_slow);
}

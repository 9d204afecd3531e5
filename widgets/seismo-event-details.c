/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <glib/gi18n-lib.h>

#include "seismo-event-details.h"
#include "seismo-stack-view.h"
#include "seismo-timeline-renderer.h"
#include "seismo-timing.h"

struct _SeismoEventDetails
{
  GtkWidget           parent_instance;

  /* template widgets */
  GtkStack           *stack;
  GtkLabel           *title;
  GtkLabel           *subtitle;
  GtkGrid            *fields;
  GtkWidget          *syscall_box;
  GtkLabel           *syscall_label;
  GtkButton          *other_half;
  SeismoStackView    *stack_view;

  /* owned */
  SeismoTimelineData *data;

  SeismoEventId       event;
  SeismoEventId       other;
};

enum {
  EVENT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SeismoEventDetails, seismo_event_details, GTK_TYPE_WIDGET)

static void
on_other_half_clicked (SeismoEventDetails *self)
{
  if (self->other != SEISMO_NO_EVENT)
    g_signal_emit (self, signals[EVENT_ACTIVATED], 0, self->other);
}

static void
seismo_event_details_dispose (GObject *object)
{
  SeismoEventDetails *self = SEISMO_EVENT_DETAILS (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_EVENT_DETAILS);
  g_clear_pointer (&self->data, seismo_timeline_data_unref);
  G_OBJECT_CLASS (seismo_event_details_parent_class)->dispose (object);
}

static void
seismo_event_details_class_init (SeismoEventDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_event_details_dispose;

  /**
   * SeismoEventDetails::event-activated:
   * @event: the event to go to
   */
  signals[EVENT_ACTIVATED] = g_signal_new ("event-activated", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, G_TYPE_UINT);

  g_type_ensure (SEISMO_TYPE_STACK_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/seismo/widgets/seismo-event-details.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, stack);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, title);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, subtitle);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, fields);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, syscall_box);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, syscall_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, other_half);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventDetails, stack_view);
  gtk_widget_class_bind_template_callback (widget_class, on_other_half_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismo-event-details");
}

static void
seismo_event_details_init (SeismoEventDetails *self)
{
  self->event = SEISMO_NO_EVENT;
  self->other = SEISMO_NO_EVENT;
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * seismo_event_details_new:
 *
 * Returns: (transfer floating): a details pane showing no event
 */
GtkWidget *
seismo_event_details_new (void)
{
  return g_object_new (SEISMO_TYPE_EVENT_DETAILS, NULL);
}

void
seismo_event_details_set_data (SeismoEventDetails *self,
                               SeismoTimelineData *data)
{
  g_return_if_fail (SEISMO_IS_EVENT_DETAILS (self));
  if (data == self->data)
    return;
  g_clear_pointer (&self->data, seismo_timeline_data_unref);
  if (data != NULL)
    self->data = seismo_timeline_data_ref (data);
  self->event = G_MAXUINT - 1;
  seismo_event_details_set_event (self, SEISMO_NO_EVENT);
}

static void
add_field (SeismoEventDetails *self,
           int                 row,
           const char         *name,
           const char         *value)
{
  GtkWidget *n = gtk_label_new (name);
  GtkWidget *v = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (n), 1);
  gtk_label_set_yalign (GTK_LABEL (n), 0);
  gtk_widget_add_css_class (n, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (v, TRUE);
  gtk_grid_attach (self->fields, n, 0, row, 1, 1);
  gtk_grid_attach (self->fields, v, 1, row, 1, 1);
}

static void
clear_fields (SeismoEventDetails *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->fields))) != NULL)
    gtk_grid_remove (self->fields, child);
}

/* The user-space stack strace -k printed under a call: a ptrace:user_stack event of the same task
 * at the same time, right after the call's last event. Appended to text when there is one. */
static void
append_stack (SeismoTrace *trace,
              SeismoEventId call,
              GString      *text)
{
  gsize n = seismo_trace_get_n_events (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  const guint64 *ts = seismo_trace_get_times (trace);

  /* Other tasks' events at the same time may come between: look a little way only. */
  for (SeismoEventId e = call + 1; e < n && e <= call + 16 && ts[e] == ts[call]; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, e);
      SeismoValue frames;

      if (tasks[e] != tasks[call])
        continue;
      if (g_str_equal (type->full_name, "ptrace:user_stack")
          && seismo_trace_event_field_by_name (trace, e, "frames", &frames)
          && frames.type == SEISMO_FIELD_STRING)
        /* TRANSLATORS: followed by the frames strace -k printed, one a line */
        g_string_append_printf (text, _("\nStack (strace -k):\n%s"), frames.str);
      return;
    }
}

static void
show_syscall (SeismoEventDetails *self,
              SeismoTrace        *trace)
{
  const SeismoSyscallSpan *span = seismo_timeline_data_find_span (self->data, self->event);
  g_autoptr(GString) text = g_string_new (NULL);
  gint64 ret;

  self->other = SEISMO_NO_EVENT;
  if (span == NULL)
    {
      gtk_widget_set_visible (self->syscall_box, FALSE);
      return;
    }
  {
    /* A log without durations (seismo-timing.h) keeps only the order: say so, not "1 µs". */
    g_autofree char *dur = seismo_trace_has_durations (trace)
                           ? seismo_format_duration ((double) (seismo_timeline_data_span_end_ns (self->data, span)
                                                               - seismo_trace_event_time (trace, span->enter)))
                           : g_strdup (_("an unknown time (no timing in this trace)"));

    g_string_append_printf (text, "%s()", seismo_trace_get_syscall_name (trace, span->syscall));
    if (seismo_trace_syscall_span_ret (trace, span, &ret))
      {
        g_autoptr(GString) value = g_string_new (NULL);
        const SeismoEventType *type = seismo_trace_event_type (trace, span->exit);
        int field = seismo_event_type_find_field (type, "ret");
        SeismoValue v;

        if (field >= 0 && seismo_trace_event_field (trace, span->exit, field, &v))
          seismo_trace_format_value (trace, &type->fields[field], &v, value);
        else
          g_string_append_printf (value, "%" G_GINT64_FORMAT, ret);
        /* TRANSLATORS: "read() returned 12 after 3.2 µs" */
        g_string_append_printf (text, _(" returned %s after %s"), value->str, dur);
      }
    else
      g_string_append_printf (text, _(" did not return within the trace (%s seen)"), dur);
  }
  append_stack (trace, span->exit != SEISMO_NO_EVENT ? span->exit : span->enter, text);
  gtk_label_set_text (self->syscall_label, text->str);
  if (self->event == span->enter && span->exit != SEISMO_NO_EVENT)
    {
      self->other = span->exit;
      gtk_button_set_label (self->other_half, _("Go to _Exit"));
    }
  else if (self->event == span->exit)
    {
      self->other = span->enter;
      gtk_button_set_label (self->other_half, _("Go to _Enter"));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->other_half), self->other != SEISMO_NO_EVENT);
  gtk_widget_set_visible (self->syscall_box, TRUE);
}

/* The event's call stack; for a syscall half without one, the other half's (ptrace unwinds at
 * entry, an ftrace stack may follow either). */
static SeismoStackId
event_stack (SeismoEventDetails *self,
             SeismoTrace        *trace)
{
  SeismoStackId stack = seismo_trace_event_stack (trace, self->event);
  const SeismoSyscallSpan *span;

  if (stack != SEISMO_NO_STACK)
    return stack;
  span = seismo_timeline_data_find_span (self->data, self->event);
  if (span == NULL)
    return SEISMO_NO_STACK;
  if (span->enter != self->event && span->enter != SEISMO_NO_EVENT)
    stack = seismo_trace_event_stack (trace, span->enter);
  if (stack == SEISMO_NO_STACK && span->exit != self->event && span->exit != SEISMO_NO_EVENT)
    stack = seismo_trace_event_stack (trace, span->exit);
  return stack;
}

void
seismo_event_details_set_event (SeismoEventDetails *self,
                                guint               event)
{
  SeismoTrace *trace;
  const SeismoEventType *type;
  const SeismoTask *task;
  g_autofree SeismoValue *values = NULL;
  g_autofree char *time = NULL;
  g_autofree char *subtitle = NULL;
  guint n;
  int row = 0;

  g_return_if_fail (SEISMO_IS_EVENT_DETAILS (self));
  if (event == self->event)
    return;
  self->event = event;
  clear_fields (self);
  trace = self->data != NULL ? seismo_timeline_data_get_trace (self->data) : NULL;
  if (trace == NULL || event >= seismo_trace_get_n_events (trace))
    {
      self->event = SEISMO_NO_EVENT;
      seismo_stack_view_set_stack (self->stack_view, NULL, SEISMO_NO_STACK);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "event");

  type = seismo_trace_event_type (trace, event);
  task = seismo_trace_event_task (trace, event);
  if (seismo_trace_has_timestamps (trace))
    time = seismo_format_time ((double) (seismo_trace_event_time (trace, event)
                                         - seismo_trace_get_start_ns (trace)), 1);
  else
    time = g_strdup (_("no timestamp"));
  gtk_label_set_text (self->title, type->full_name);
  subtitle = g_strdup_printf (_("Event %u · %s · CPU %u · %s, thread %d of process %d"), event, time,
                              seismo_trace_event_cpu (trace, event),
                              task != NULL ? seismo_trace_task_comm_at (trace, seismo_trace_get_tasks (trace)[event],
                                                                        seismo_trace_event_time (trace, event))
                                           : "?",
                              task != NULL ? task->tid : -1, task != NULL ? task->pid : -1);
  gtk_label_set_text (self->subtitle, subtitle);

  values = g_new0 (SeismoValue, MAX (type->n_fields, 1));
  n = seismo_trace_event_fields (trace, event, values, type->n_fields);
  for (guint i = 0; i < n; i++)
    {
      const SeismoField *field = &type->fields[i];
      g_autoptr(GString) value = g_string_new (NULL);
      gboolean stack = values[i].type == SEISMO_FIELD_STRING &&
                       (g_str_equal (field->name, "stack") || g_str_equal (field->name, "user_stack"));

      /* Stack traces (ftrace's <stack trace> blocks): one frame a line, and only when the event
       * has one. */
      if (stack)
        {
          if (values[i].len == 0)
            continue;
          add_field (self, row, field->name, values[i].str);
          gtk_widget_add_css_class (gtk_grid_get_child_at (self->fields, 1, row), "monospace");
          row++;
          continue;
        }
      seismo_trace_format_value (trace, field, &values[i], value);
      /* Symbolic names also show the number they stand for. */
      if ((field->display == SEISMO_DISPLAY_SYMBOL || field->display == SEISMO_DISPLAY_FLAGS
           || field->display == SEISMO_DISPLAY_SIGNAL || field->display == SEISMO_DISPLAY_SYSCALL
           || field->display == SEISMO_DISPLAY_SCHED_STATE)
          && (values[i].type == SEISMO_FIELD_UINT || values[i].type == SEISMO_FIELD_INT))
        {
          if (values[i].type == SEISMO_FIELD_INT)
            g_string_append_printf (value, "  (%" G_GINT64_FORMAT ")", values[i].i);
          else
            g_string_append_printf (value, "  (0x%" G_GINT64_MODIFIER "x)", values[i].u);
        }
      add_field (self, row++, field->name, value->str);
    }
  if (n == 0)
    add_field (self, row++, "", _("No fields"));
  show_syscall (self, trace);
  seismo_stack_view_set_stack (self->stack_view, trace, event_stack (self, trace));
}

guint
seismo_event_details_get_event (SeismoEventDetails *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_DETAILS (self), SEISMO_NO_EVENT);
  return self->event;
}

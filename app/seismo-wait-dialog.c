/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-critical-path.h"
#include "seismo-latency-bars.h"
#include "seismo-runnable-latency.h"
#include "seismo-timeline-renderer.h"
#include "seismo-wait-dialog.h"
#include "seismo-wait-summary.h"

/* One row of the critical path table: the texts its columns show. */
#define SEISMO_TYPE_WAIT_SEGMENT (seismo_wait_segment_get_type ())
G_DECLARE_FINAL_TYPE (SeismoWaitSegment, seismo_wait_segment, SEISMO, WAIT_SEGMENT, GObject)

struct _SeismoWaitSegment
{
  GObject parent_instance;
  char   *text[6];
};

enum {
  SEG_PROP_0,
  SEG_PROP_INDEX,
  SEG_PROP_TASK,
  SEG_PROP_STATE,
  SEG_PROP_START,
  SEG_PROP_DURATION,
  SEG_PROP_SHARE,
  SEG_N_PROPS
};

G_DEFINE_FINAL_TYPE (SeismoWaitSegment, seismo_wait_segment, G_TYPE_OBJECT)

static void
seismo_wait_segment_finalize (GObject *object)
{
  SeismoWaitSegment *self = SEISMO_WAIT_SEGMENT (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->text); i++)
    g_free (self->text[i]);
  G_OBJECT_CLASS (seismo_wait_segment_parent_class)->finalize (object);
}

static void
seismo_wait_segment_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SeismoWaitSegment *self = SEISMO_WAIT_SEGMENT (object);

  if (prop_id >= SEG_PROP_INDEX && prop_id < SEG_N_PROPS)
    g_value_set_string (value, self->text[prop_id - SEG_PROP_INDEX]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
seismo_wait_segment_class_init (SeismoWaitSegmentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const names[] = { "index", "task", "state", "start", "duration", "share" };

  object_class->finalize = seismo_wait_segment_finalize;
  object_class->get_property = seismo_wait_segment_get_property;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_object_class_install_property (object_class, SEG_PROP_INDEX + i,
                                     g_param_spec_string (names[i], NULL, NULL, NULL,
                                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
seismo_wait_segment_init (SeismoWaitSegment *self)
{
}

struct _SeismoWaitDialog
{
  AdwWindow       parent_instance;

  /* template widgets */
  GtkLabel       *heading;
  GtkLabel       *states_label;
  GtkLabel       *wakers_label;
  GtkLabel       *syscalls_label;
  GtkLabel       *runnable_label;
  GtkLabel       *latency_label;
  SeismoLatencyBars *latency_bars;
  GtkSpinner     *spinner;
  GtkLabel       *path_status;
  GtkColumnView  *path_view;

  /* owned */
  SeismoTrace    *trace;
  SeismoTimeline *timeline;   /* weak pointer: the window may close first */
  GCancellable   *cancellable;
  GListStore     *segments;
  SeismoTaskId    task;
  guint64         from_ns;
  guint64         to_ns;
};

G_DEFINE_FINAL_TYPE (SeismoWaitDialog, seismo_wait_dialog, ADW_TYPE_WINDOW)

static char *
task_name (SeismoTrace  *trace,
           SeismoTaskId  task,
           guint64       time_ns)
{
  const SeismoTask *t = seismo_trace_get_task (trace, task);

  if (t == NULL)
    return g_strdup (_("(none)"));
  return g_strdup_printf ("%s [%d]", seismo_trace_task_comm_at (trace, task, time_ns), t->tid);
}

static char *
share (guint64 ns,
       guint64 total)
{
  return g_strdup_printf ("%.1f %%", total > 0 ? 100.0 * ns / total : 0.0);
}

/* One "name  duration  share" line per entry, in a monospace block. */
static void
add_line (GString    *out,
          const char *name,
          guint64     ns,
          guint64     total,
          const char *extra)
{
  g_autofree char *d = seismo_format_duration (ns);
  g_autofree char *escaped = g_markup_escape_text (name, -1);

  g_string_append_printf (out, "<tt>%12s %6.1f%%</tt>  %s%s%s\n", d, total ? 100.0 * ns / total : 0.0,
                          escaped, extra ? "  " : "", extra ? extra : "");
}

/* Each wait for a CPU that began and ended in the interval, as a histogram. */
static void
show_latency (SeismoWaitDialog *self)
{
  g_autoptr(SeismoLatencyHistogram) h = seismo_runnable_latency_histogram (self->trace, self->task,
                                                                           self->from_ns, self->to_ns);
  SeismoLatencySummary sum;

  seismo_latency_histogram_get_summary (h, &sum);
  if (sum.count == 0)
    {
      gtk_label_set_text (self->latency_label, _("No wait for a CPU began and ended in the interval."));
      seismo_latency_bars_set_histogram (self->latency_bars, NULL);
    }
  else
    {
      g_autofree char *p50 = seismo_format_duration (sum.p50);
      g_autofree char *p99 = seismo_format_duration (sum.p99);
      g_autofree char *max = seismo_format_duration (sum.max);
      g_autofree char *text = NULL;

      /* Translators: runnable latency: %s are durations. */
      text = g_strdup_printf (ngettext ("%u wait from ready to running: median %s, 99th percentile %s, longest %s",
                                        "%u waits from ready to running: median %s, 99th percentile %s, longest %s",
                                        (gulong) MIN (sum.count, G_MAXUINT)),
                              (guint) MIN (sum.count, G_MAXUINT), p50, p99, max);
      gtk_label_set_text (self->latency_label, text);
      seismo_latency_bars_set_histogram (self->latency_bars, h);
    }
}

static void
show_summary (SeismoWaitDialog *self)
{
  g_autoptr(SeismoWaitSummary) s = seismo_wait_summary_compute (self->trace, self->task, self->from_ns,
                                                                self->to_ns);
  guint64 total = s->end_ns - s->start_ns;
  g_autoptr(GString) states = g_string_new (NULL);
  g_autoptr(GString) wakers = g_string_new (NULL);
  g_autoptr(GString) syscalls = g_string_new (NULL);
  g_autoptr(GString) runnable = g_string_new (NULL);
  g_autofree char *name = task_name (self->trace, self->task, s->start_ns);
  g_autofree char *duration = seismo_format_duration (total);
  g_autofree char *start = seismo_format_time (s->start_ns - seismo_trace_get_start_ns (self->trace), 1000);
  g_autofree char *heading = g_strdup_printf (_("%s over %s from %s"), name, duration, start);
  static const struct {
    SeismoThreadState state;
    const char       *label;
  } rows[] = {
    { SEISMO_STATE_RUNNING, N_("Running (on a CPU)") },
    { SEISMO_STATE_RUNNABLE, N_("Runnable (waiting for a CPU)") },
    { SEISMO_STATE_SLEEPING, N_("Sleeping (waiting for something)") },
    { SEISMO_STATE_UNINTERRUPTIBLE, N_("Uninterruptible, D (usually I/O)") },
    { SEISMO_STATE_STOPPED, N_("Stopped") },
    { SEISMO_STATE_DEAD, N_("Exited") },
    { SEISMO_STATE_UNKNOWN, N_("Unknown (not in the trace)") },
  };

  gtk_label_set_text (self->heading, heading);
  if (!seismo_trace_has_states (self->trace))
    g_string_append (states, _("This trace has no scheduler events (sched_switch): states are unknown. "
                               "Record with ftrace and <tt>sched:*</tt>, or with eBPF.\n"));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (s->totals[rows[i].state] > 0 || rows[i].state <= SEISMO_STATE_UNINTERRUPTIBLE)
      add_line (states, _(rows[i].label), s->totals[rows[i].state], total, NULL);

  for (guint i = 0; i < MIN (s->wakers->len, 8); i++)
    {
      const SeismoWaitWaker *w = &g_array_index (s->wakers, SeismoWaitWaker, i);
      g_autofree char *who = NULL;
      g_autofree char *count = g_strdup_printf (ngettext ("%u wakeup", "%u wakeups", w->count), w->count);

      switch (w->kind)
        {
        case SEISMO_WAKER_TASK:
          who = task_name (self->trace, w->task, s->start_ns);
          break;
        case SEISMO_WAKER_IRQ:
          who = g_strdup (_("a hardware interrupt"));
          break;
        case SEISMO_WAKER_SOFTIRQ:
          who = g_strdup (_("a softirq (timer, network, block I/O)"));
          break;
        case SEISMO_WAKER_NONE:
        default:
          who = g_strdup (_("not recorded (still waiting, or its waker was not traced)"));
          break;
        }
      add_line (wakers, who, w->ns, total, w->count ? count : NULL);
    }
  if (s->wakers->len == 0)
    g_string_append (wakers, _("It did not wait."));

  for (guint i = 0; i < MIN (s->syscalls->len, 8); i++)
    {
      const SeismoWaitSyscall *sc = &g_array_index (s->syscalls, SeismoWaitSyscall, i);
      const char *sname = sc->syscall == G_MAXUINT ? _("outside a syscall (or not recorded)")
                                                   : seismo_trace_get_syscall_name (self->trace, sc->syscall);

      add_line (syscalls, sname ? sname : "?", sc->ns, total, NULL);
    }
  if (s->syscalls->len == 0)
    g_string_append (syscalls, _("It did not wait."));

  for (guint i = 0; i < s->runnable->len; i++)
    {
      const SeismoWaitRunnable *r = &g_array_index (s->runnable, SeismoWaitRunnable, i);
      g_autofree char *at = seismo_format_time (r->start_ns - seismo_trace_get_start_ns (self->trace), 1000);
      g_autofree char *what = g_strdup_printf (r->preempted ? _("preempted at %s") : _("woken at %s"), at);
      g_autofree char *cpu = r->cpu != SEISMO_STATE_NO_CPU ? g_strdup_printf (_("CPU %u"), r->cpu) : NULL;

      add_line (runnable, what, r->duration_ns, total, cpu);
    }
  if (s->runnable->len == 0)
    g_string_append (runnable, _("It never waited for a CPU."));

  gtk_label_set_markup (self->states_label, g_strchomp (states->str));
  gtk_label_set_markup (self->wakers_label, g_strchomp (wakers->str));
  gtk_label_set_markup (self->syscalls_label, g_strchomp (syscalls->str));
  gtk_label_set_markup (self->runnable_label, g_strchomp (runnable->str));
  show_latency (self);
}

static SeismoTimelineRenderer *
renderer (SeismoWaitDialog *self)
{
  return self->timeline != NULL ? seismo_timeline_get_renderer (self->timeline) : NULL;
}

static void
path_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(SeismoWaitDialog) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) path = seismo_critical_path_compute_finish (result, &error);
  guint64 total = self->to_ns - self->from_ns;
  guint64 t0 = seismo_trace_get_start_ns (self->trace);
  g_autofree char *status = NULL;

  if (self->segments == NULL)   /* closed meanwhile */
    return;
  if (path == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_spinner_stop (self->spinner);
          gtk_label_set_text (self->path_status, error->message);
        }
      return;
    }
  gtk_spinner_stop (self->spinner);
  for (guint i = 0; i < path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);
      SeismoWaitSegment *row = g_object_new (SEISMO_TYPE_WAIT_SEGMENT, NULL);
      guint64 d = seg->end_ns - seg->start_ns;

      row->text[0] = g_strdup_printf ("%u", i + 1);
      if (seg->state == SEISMO_PATH_IRQ || seg->state == SEISMO_PATH_SOFTIRQ)
        {
          /* The interrupt, not the task it came in on, is what the path waited for. */
          g_autofree char *in = task_name (self->trace, seg->task, seg->start_ns);

          row->text[1] = g_strdup_printf (seg->state == SEISMO_PATH_IRQ ? _("an interrupt (in %s)")
                                                                         : _("a softirq (in %s)"), in);
        }
      else
        row->text[1] = task_name (self->trace, seg->task, seg->start_ns);
      row->text[2] = seg->cpu != SEISMO_STATE_NO_CPU
                     ? g_strdup_printf ("%s (CPU %u)", seismo_path_state_to_string (seg->state), seg->cpu)
                     : g_strdup (seismo_path_state_to_string (seg->state));
      row->text[3] = seismo_format_time (seg->start_ns - t0, 1000);
      row->text[4] = seismo_format_duration (d);
      row->text[5] = share (d, total);
      g_list_store_append (self->segments, row);
      g_object_unref (row);
    }
  status = g_strdup_printf (ngettext ("%u segment, highlighted on the timeline",
                                      "%u segments, highlighted on the timeline", path->len), path->len);
  gtk_label_set_text (self->path_status, status);
  if (renderer (self) != NULL)
    {
      seismo_timeline_renderer_set_critical_path (renderer (self), path);
      gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
    }
}

static void
seismo_wait_dialog_dispose (GObject *object)
{
  SeismoWaitDialog *self = SEISMO_WAIT_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* The highlight belongs to the open dialog. */
  if (renderer (self) != NULL)
    {
      seismo_timeline_renderer_set_critical_path (renderer (self), NULL);
      gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
    }
  if (self->timeline != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->timeline), (gpointer *) &self->timeline);
  self->timeline = NULL;
  g_clear_object (&self->trace);
  g_clear_object (&self->segments);
  G_OBJECT_CLASS (seismo_wait_dialog_parent_class)->dispose (object);
}

static void
seismo_wait_dialog_class_init (SeismoWaitDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_wait_dialog_dispose;
  g_type_ensure (SEISMO_TYPE_WAIT_SEGMENT);
  g_type_ensure (SEISMO_TYPE_LATENCY_BARS);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/seismo/Seismo/seismo-wait-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, heading);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, states_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, wakers_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, syscalls_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, runnable_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, latency_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, latency_bars);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, path_status);
  gtk_widget_class_bind_template_child (widget_class, SeismoWaitDialog, path_view);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
seismo_wait_dialog_init (SeismoWaitDialog *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->segments = g_list_store_new (SEISMO_TYPE_WAIT_SEGMENT);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->segments)));
  gtk_column_view_set_model (self->path_view, GTK_SELECTION_MODEL (selection));
}

/**
 * seismo_wait_dialog_new:
 * @timeline: (nullable): where to highlight the critical path
 *
 * Returns: (transfer none): the dialog, shown; it destroys itself when closed.
 */
SeismoWaitDialog *
seismo_wait_dialog_new (GtkWindow      *parent,
                        SeismoTimeline *timeline,
                        SeismoTrace    *trace,
                        SeismoTaskId    task,
                        guint64         from_ns,
                        guint64         to_ns)
{
  SeismoWaitDialog *self;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (task < seismo_trace_get_n_tasks (trace), NULL);

  self = g_object_new (SEISMO_TYPE_WAIT_DIALOG, "transient-for", parent, NULL);
  self->trace = g_object_ref (trace);
  self->task = task;
  self->from_ns = CLAMP (from_ns, seismo_trace_get_start_ns (trace), seismo_trace_get_end_ns (trace));
  self->to_ns = CLAMP (to_ns, self->from_ns, seismo_trace_get_end_ns (trace));
  if (timeline != NULL)
    {
      self->timeline = timeline;
      g_object_add_weak_pointer (G_OBJECT (timeline), (gpointer *) &self->timeline);
    }
  show_summary (self);

  /* The path of a long interval may take a while: off the main thread. */
  self->cancellable = g_cancellable_new ();
  gtk_spinner_start (self->spinner);
  gtk_label_set_text (self->path_status, _("Following the wakeups…"));
  seismo_critical_path_compute_async (trace, task, self->from_ns, self->to_ns, self->cancellable,
                                      path_done, g_object_ref (self));
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

guint
seismo_wait_dialog_get_n_segments (SeismoWaitDialog *self)
{
  g_return_val_if_fail (SEISMO_IS_WAIT_DIALOG (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->segments));
}

guint
seismo_wait_dialog_get_n_latency_bars (SeismoWaitDialog *self)
{
  g_return_val_if_fail (SEISMO_IS_WAIT_DIALOG (self), 0);
  return seismo_latency_bars_get_n_bars (self->latency_bars);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "seismo-filter.h"
#include "seismo-histogram-view.h"
#include "seismo-view-follower.h"
#include "seismo-timeline-renderer.h"
#include "seismo-cairo-private.h"
#include "seismo-pane-range-private.h"
#include "seismo-pane-spinner-private.h"
#include "seismo-timing.h"
#include "seismo-work-priority.h"

/* Linear buckets aim at about this many between the smallest value and p99. */
#define LINEAR_BUCKETS 20

struct _SeismoHistogramView
{
  GtkWidget               parent_instance;
  SeismoViewFollower      follower;   /* the view it shows, when it follows one */

  /* child widgets */
  GtkDropDown            *of_dropdown;
  GtkDropDown            *syscall_dropdown;
  GtkDropDown            *from_dropdown;
  GtkDropDown            *to_dropdown;
  GtkDropDown            *scale_dropdown;
  GtkToggleButton        *large_button;
  GtkSpinner             *spinner;
  GtkWidget              *area;

  /* owned */
  SeismoTrace            *trace;
  SeismoPaneRange         range;
  GCancellable           *cancellable;
  SeismoLatencyHistogram *histogram;   /* the result shown */
  GArray                 *samples;     /* SeismoLatencySample of the result */
  char                   *title;       /* of the result */
  guint                  *type_ids;    /* dropdown position → event type, for the gap choosers */
  guint                   n_type_ids;

  SeismoHistogramOf       of;
  int                     syscall;
  guint                   gap_from;
  guint                   gap_to;
  SeismoHistogramScale    scale;
  gboolean                large;
  gboolean                syncing;     /* setting dropdowns from code */
  gboolean                pending;     /* the range changed while hidden: compute when shown */
  SeismoPaneSpinner       busy;        /* shows spinner after a delay */

  /* What the histogram shown was computed from, to keep it when asked for the same again. */
  SeismoPaneRange         shown_range;
  SeismoHistogramOf       shown_of;
  int                     shown_syscall;
  guint                   shown_gap_from;
  guint                   shown_gap_to;
  SeismoHistogramScale    shown_scale;
};

enum {
  BUCKET_ACTIVATED,
  UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SeismoHistogramView, seismo_histogram_view, GTK_TYPE_WIDGET)

static const char *const of_titles[SEISMO_HISTOGRAM_OF_N] = {
  N_("Syscall duration"), N_("Wakeup latency"), N_("Time on CPU per run"), N_("Gap between events"),
};

/* Does the trace hold what this histogram measures? A log without timing (seismo-timing.h) has
 * no latencies: the view says so rather than "no samples". */
static gboolean
measured (SeismoHistogramView *self)
{
  if (self->trace == NULL)
    return TRUE;
  switch (self->of)
    {
    case SEISMO_HISTOGRAM_OF_SYSCALL:
      return seismo_latency_kind_measured (self->trace, SEISMO_LATENCY_SYSCALL);
    case SEISMO_HISTOGRAM_OF_WAKEUP:
    case SEISMO_HISTOGRAM_OF_RUNTIME:
    case SEISMO_HISTOGRAM_OF_GAP:
    default:
      return seismo_trace_has_timestamps (self->trace);
    }
}

/* Computing on a worker */

typedef struct {
  SeismoTrace            *trace;
  SeismoPaneRange         range;
  SeismoHistogramOf       of;
  int                     syscall;
  guint                   gap_from;
  guint                   gap_to;
  SeismoHistogramScale    scale;
  SeismoLatencyHistogram *histogram;
  GArray                 *samples;
  char                   *title;
} HistJob;

static void
hist_job_free (HistJob *job)
{
  g_clear_object (&job->trace);
  seismo_pane_range_reset (&job->range);
  g_clear_pointer (&job->histogram, seismo_latency_histogram_free);
  g_clear_pointer (&job->samples, g_array_unref);
  g_free (job->title);
  g_free (job);
}

/* The smallest 1, 2 or 5 × 10^k that is >= x. */
static guint64
nice_step (double x)
{
  double p = pow (10, floor (log10 (MAX (x, 1))));

  for (guint i = 0; i < 4; i++)
    {
      static const double m[] = { 1, 2, 5, 10 };

      if (m[i] * p >= x)
        return MAX ((guint64) (m[i] * p), 1);
    }
  return (guint64) (10 * p);
}

static char *
type_full_name (SeismoTrace *trace,
                guint        type_id)
{
  const SeismoEventType *type = seismo_trace_get_event_type (trace, type_id);

  return type != NULL ? g_strdup_printf ("%s:%s", type->system, type->name) : g_strdup ("?");
}

static void
hist_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  HistJob *job = task_data;
  SeismoSelection sel = seismo_pane_range_selection (&job->range);
  g_autoptr(SeismoLatencyHistogram) log2 = NULL;
  SeismoLatencySummary summary;

  seismo_work_priority_enter ();

  switch (job->of)
    {
    case SEISMO_HISTOGRAM_OF_SYSCALL:
      /* Millions of syscalls: counted from the spans, their durations neither kept as samples
       * (a bucket is filtered to by expression, seismo_histogram_view_bucket_filter()) nor in
       * the histogram, which the pane keeps for as long as it shows it. */
      log2 = seismo_latency_histogram_new_syscalls (job->trace, &sel, job->syscall);
      job->title = job->syscall >= 0
                   ? g_strdup_printf (_("Syscall duration: %s"),
                                      seismo_trace_get_syscall_name (job->trace, (guint) job->syscall))
                   : g_strdup (_("Syscall duration: all syscalls"));
      break;
    case SEISMO_HISTOGRAM_OF_WAKEUP:
      job->samples = seismo_latency_collect (job->trace, SEISMO_LATENCY_WAKEUP, &sel, -1);
      job->title = g_strdup (_("Wakeup latency (wakeup → running)"));
      break;
    case SEISMO_HISTOGRAM_OF_RUNTIME:
      job->samples = seismo_latency_collect (job->trace, SEISMO_LATENCY_RUNTIME, &sel, -1);
      job->title = g_strdup (_("Time on CPU per run"));
      break;
    case SEISMO_HISTOGRAM_OF_GAP:
    default:
      {
        gsize n = seismo_trace_get_n_events (job->trace);
        const guint16 *types = seismo_trace_get_types (job->trace);
        g_autofree guint64 *from = g_new0 (guint64, MAX (seismo_filter_mask_words (n), 1));
        g_autofree guint64 *to = g_new0 (guint64, MAX (seismo_filter_mask_words (n), 1));
        g_autofree char *a = type_full_name (job->trace, job->gap_from);
        g_autofree char *b = type_full_name (job->trace, job->gap_to);

        for (gsize i = 0; i < n; i++)
          {
            from[i >> 6] |= (guint64) (types[i] == job->gap_from) << (i & 63);
            to[i >> 6] |= (guint64) (types[i] == job->gap_to) << (i & 63);
          }
        job->samples = seismo_latency_collect_gaps (job->trace, from, to, SEISMO_GAP_SAME_TASK, &sel);
        job->title = g_strdup_printf (_("Gap %s → %s (same task)"), a, b);
      }
      break;
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }

  if (job->samples != NULL)
    {
      log2 = seismo_latency_histogram_new_log2 ();
      seismo_latency_histogram_add_samples (log2, job->samples);
    }
  if (job->scale == SEISMO_HISTOGRAM_LOG2)
    {
      job->histogram = g_steal_pointer (&log2);
      /* The figures of millions of values: computed here, not at the first draw. */
      seismo_latency_histogram_get_summary (job->histogram, &summary);
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* Linear buckets from the smallest value to p99, so one outlier does not squeeze the rest
   * into a single bar; the overflow bucket holds the tail. */
  seismo_latency_histogram_get_summary (log2, &summary);
  {
    guint64 step = nice_step ((double) (summary.p99 - summary.min) / LINEAR_BUCKETS);
    guint64 low = summary.min / step * step;
    guint64 n = MAX ((summary.p99 - low) / step + 1, 1);

    if (job->of == SEISMO_HISTOGRAM_OF_SYSCALL)
      job->histogram = seismo_latency_histogram_new_linear_from_syscalls (log2, low, low + n * step, step,
                                                                          job->trace, &sel, job->syscall);
    else
      job->histogram = seismo_latency_histogram_new_linear_from (log2, low, low + n * step, step);
  }
  g_task_return_boolean (task, TRUE);
}

static void update_area_height (SeismoHistogramView *self);

/* Whether the histogram shown is what the current range and controls ask for. */
static gboolean
result_is_current (SeismoHistogramView *self)
{
  return self->histogram != NULL
         && seismo_pane_range_equal (&self->shown_range, self->range.start_ns, self->range.end_ns,
                                     self->range.mask)
         && self->shown_of == self->of && self->shown_syscall == self->syscall
         && self->shown_gap_from == self->gap_from && self->shown_gap_to == self->gap_to
         && self->shown_scale == self->scale;
}

static void
take_result (SeismoHistogramView *self,
             HistJob             *job)
{
  g_clear_pointer (&self->histogram, seismo_latency_histogram_free);
  g_clear_pointer (&self->samples, g_array_unref);
  g_free (self->title);
  self->histogram = g_steal_pointer (&job->histogram);
  self->samples = g_steal_pointer (&job->samples);
  self->title = g_steal_pointer (&job->title);
  seismo_pane_range_set (&self->shown_range, job->range.start_ns, job->range.end_ns, job->range.mask);
  self->shown_of = job->of;
  self->shown_syscall = job->syscall;
  self->shown_gap_from = job->gap_from;
  self->shown_gap_to = job->gap_to;
  self->shown_scale = job->scale;
  seismo_pane_spinner_stop (&self->busy);
  update_area_height (self);
  gtk_widget_queue_draw (self->area);
  g_signal_emit (self, signals[UPDATED], 0);
}

static void
hist_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  SeismoHistogramView *self = SEISMO_HISTOGRAM_VIEW (source);
  HistJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  take_result (self, job);
}

static GTask *
new_job (SeismoHistogramView *self,
         GCancellable        *cancellable,
         GAsyncReadyCallback  done)
{
  GTask *task = g_task_new (self, cancellable, done, NULL);
  HistJob *job = g_new0 (HistJob, 1);

  job->trace = g_object_ref (self->trace);
  seismo_pane_range_set (&job->range, self->range.start_ns, self->range.end_ns, self->range.mask);
  job->of = self->of;
  job->syscall = self->syscall;
  job->gap_from = self->gap_from;
  job->gap_to = self->gap_to;
  job->scale = self->scale;
  g_task_set_source_tag (task, new_job);
  g_task_set_task_data (task, job, (GDestroyNotify) hist_job_free);
  return task;
}

/* A hidden pane computes nothing: it is marked pending and computes when shown (map), or at
 * once when asked for its figures (an export, a test). */
static void
recompute (SeismoHistogramView *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->pending = FALSE;
  if (self->trace == NULL)
    {
      g_clear_pointer (&self->histogram, seismo_latency_histogram_free);
      g_clear_pointer (&self->samples, g_array_unref);
      seismo_pane_spinner_stop (&self->busy);
      gtk_widget_queue_draw (self->area);
      return;
    }
  /* Back to what is shown (a filter undone while the pane was hidden, the same markers or
   * controls again): it still holds. */
  if (result_is_current (self))
    {
      seismo_pane_spinner_stop (&self->busy);
      return;
    }
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->pending = TRUE;
      return;
    }
  self->cancellable = g_cancellable_new ();
  task = new_job (self, self->cancellable, hist_done);
  g_task_run_in_thread (task, hist_thread);
  seismo_pane_spinner_start (&self->busy);
}

/* The figures of the current range, computed now if the pane was hidden when it changed or its
 * worker is not done: for exports and tests. Pointer and click handlers (bucket_at, the bucket's
 * filter) keep to the histogram on screen and never wait. */
static void
flush_pending (SeismoHistogramView *self)
{
  g_autoptr(GTask) task = NULL;

  if ((!self->pending && self->cancellable == NULL) || self->trace == NULL)
    return;
  /* A worker still counting is overtaken: its result would be the same. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->pending = FALSE;
  task = new_job (self, NULL, NULL);
  g_task_run_in_thread_sync (task, hist_thread);
  if (g_task_propagate_boolean (task, NULL))
    take_result (self, g_task_get_task_data (task));
}

static void
seismo_histogram_view_map (GtkWidget *widget)
{
  SeismoHistogramView *self = SEISMO_HISTOGRAM_VIEW (widget);

  GTK_WIDGET_CLASS (seismo_histogram_view_parent_class)->map (widget);
  if (self->pending)
    recompute (self);
}

/* Drawing */

typedef struct {
  double   pad;
  double   line_h;      /* a line of text */
  double   rows_top;
  double   row_h;
  double   label_w;
  double   bar_x;
  double   bar_w;
  guint    first;       /* buckets drawn: [first, last] */
  guint    last;
  gboolean empty;
} Geometry;

static void
layout_geometry (SeismoHistogramView *self,
                 int                  width,
                 int                  height,
                 gboolean             large,
                 Geometry            *g)
{
  guint n = self->histogram != NULL ? seismo_latency_histogram_get_n_buckets (self->histogram) : 0;
  double font_px = large ? 22 : 12;
  guint rows;

  memset (g, 0, sizeof *g);
  g->pad = large ? 16 : 8;
  g->line_h = font_px * 1.45;
  g->rows_top = g->pad + g->line_h * 3.6;
  g->first = G_MAXUINT;
  for (guint i = 0; i < n; i++)
    {
      SeismoLatencyBucket b;

      seismo_latency_histogram_get_bucket (self->histogram, i, &b);
      if (b.count > 0)
        {
          g->first = MIN (g->first, i);
          g->last = i;
        }
    }
  g->empty = g->first == G_MAXUINT;
  if (g->empty)
    return;
  rows = g->last - g->first + 1;
  g->row_h = CLAMP ((height - g->rows_top - g->pad) / rows, 4, g->line_h * 1.3);
  g->label_w = font_px * 9.5;
  g->bar_x = g->pad + g->label_w;
  g->bar_w = MAX (width - g->bar_x - g->pad - font_px * 6, 10);
}

/* Tall enough for one readable line per bucket; the pane scrolls when that is more than it has. */
static void
update_area_height (SeismoHistogramView *self)
{
  Geometry g;

  int height, old_height;

  layout_geometry (self, 400, 0, self->large, &g);
  height = g.empty ? 120 : (int) (g.rows_top + (g.last - g.first + 1) * g.line_h * 1.1 + g.pad);
  /* A new size request relayouts the whole window: only when it changes. */
  gtk_widget_get_size_request (self->area, NULL, &old_height);
  if (height != old_height)
    gtk_widget_set_size_request (self->area, 200, height);
}


static void
render_full (SeismoHistogramView *self,
             cairo_t             *cr,
             int                  width,
             int                  height,
             gboolean             large,
             gboolean             dark,
             gboolean             background)
{
  guint32 fg = dark ? 0xffffff : 0x241f31;
  guint32 bar = dark ? 0x62a0ea : 0x3584e4;
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (large ? "Sans 16" : "Sans 9");
  Geometry g;
  SeismoLatencySummary s;
  guint64 max_count = 1;

  cairo_save (cr);
  if (background)
    {
      seismo_cairo_set_rgb (cr, dark ? 0x1e1e1e : 0xffffff, 1);
      cairo_paint (cr);
    }
  layout_geometry (self, width, height, large, &g);
  pango_layout_set_font_description (layout, font);

  /* Title and figures */
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, self->title != NULL ? self->title : _(of_titles[self->of]), -1);
  seismo_cairo_set_rgb (cr, fg, 1);
  cairo_move_to (cr, g.pad, g.pad);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_set_weight (font, PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);

  if (self->histogram == NULL || g.empty)
    {
      pango_layout_set_text (layout, self->histogram == NULL ? _("Computing…")
                             : !measured (self)
                             ? _("No timing in this trace: its latencies were never measured")
                             : _("No samples in the current filter and time range"), -1);
      seismo_cairo_set_rgb (cr, fg, 0.6);
      cairo_move_to (cr, g.pad, g.pad + g.line_h * 1.2);
      pango_cairo_show_layout (cr, layout);
      goto done;
    }

  seismo_latency_histogram_get_summary (self->histogram, &s);
  {
    g_autofree char *min = seismo_format_duration ((double) s.min);
    g_autofree char *avg = seismo_format_duration ((double) s.avg);
    g_autofree char *p50 = seismo_format_duration ((double) s.p50);
    g_autofree char *p90 = seismo_format_duration ((double) s.p90);
    g_autofree char *p99 = seismo_format_duration ((double) s.p99);
    g_autofree char *max = seismo_format_duration ((double) s.max);
    g_autofree char *text = g_strdup_printf (_("count %'" PRIu64 "   min %s   avg %s   max %s\n"
                                               "p50 %s   p90 %s   p99 %s"),
                                             s.count, min, avg, max, p50, p90, p99);

    pango_layout_set_text (layout, text, -1);
    seismo_cairo_set_rgb (cr, fg, 0.75);
    cairo_move_to (cr, g.pad, g.pad + g.line_h * 1.2);
    pango_cairo_show_layout (cr, layout);
  }

  for (guint i = g.first; i <= g.last; i++)
    {
      SeismoLatencyBucket b;

      seismo_latency_histogram_get_bucket (self->histogram, i, &b);
      max_count = MAX (max_count, b.count);
    }
  for (guint i = g.first; i <= g.last; i++)
    {
      SeismoLatencyBucket b;
      double y = g.rows_top + (i - g.first) * g.row_h;
      double w;
      int tw, th;
      g_autofree char *label = seismo_latency_histogram_bucket_label (self->histogram, i, TRUE);
      g_autofree char *count = NULL;

      if (y + g.row_h > height)
        break;
      seismo_latency_histogram_get_bucket (self->histogram, i, &b);
      w = b.count > 0 ? MAX (1, g.bar_w * (double) b.count / (double) max_count) : 0;
      seismo_cairo_set_rgb (cr, bar, 0.85);
      cairo_rectangle (cr, g.bar_x, y + 1, w, MAX (g.row_h - 2, 1));
      cairo_fill (cr);
      if (g.row_h < g.line_h * 0.8)
        continue;
      /* Bucket label right-aligned before the bar, count after it. */
      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      seismo_cairo_set_rgb (cr, fg, 0.85);
      cairo_move_to (cr, g.bar_x - 6 - tw, y + (g.row_h - th) / 2);
      pango_cairo_show_layout (cr, layout);
      count = g_strdup_printf ("%'" PRIu64, b.count);
      pango_layout_set_text (layout, count, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_move_to (cr, g.bar_x + w + 6, y + (g.row_h - th) / 2);
      pango_cairo_show_layout (cr, layout);
    }

done:
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_restore (cr);
}

static gboolean
widget_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return fg.red + fg.green + fg.blue > 1.5;
}

static void
draw_area (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        data)
{
  SeismoHistogramView *self = data;

  render_full (self, cr, width, height, self->large, widget_is_dark (GTK_WIDGET (area)), FALSE);
}

static void
on_area_pressed (GtkGestureClick     *gesture,
                 int                  n_press,
                 double               x,
                 double               y,
                 SeismoHistogramView *self)
{
  int bucket = seismo_histogram_view_bucket_at (self, gtk_widget_get_width (self->area),
                                                gtk_widget_get_height (self->area), x, y);

  if (bucket >= 0)
    g_signal_emit (self, signals[BUCKET_ACTIVATED], 0, (guint) bucket);
}

static gboolean
on_area_tooltip (GtkWidget           *widget,
                 int                  x,
                 int                  y,
                 gboolean             keyboard,
                 GtkTooltip          *tooltip,
                 SeismoHistogramView *self)
{
  int bucket = seismo_histogram_view_bucket_at (self, gtk_widget_get_width (widget),
                                                gtk_widget_get_height (widget), x, y);
  g_autofree char *label = NULL;
  g_autofree char *text = NULL;
  SeismoLatencyBucket b;

  if (bucket < 0)
    return FALSE;
  seismo_latency_histogram_get_bucket (self->histogram, (guint) bucket, &b);
  label = seismo_latency_histogram_bucket_label (self->histogram, (guint) bucket, TRUE);
  text = g_strdup_printf (_("%s: %'" PRIu64 " samples. Click to filter to them."), label, b.count);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Controls */

static void
on_controls_changed (SeismoHistogramView *self)
{
  guint of, sys, from, to;

  if (self->syncing || self->trace == NULL)
    return;
  of = gtk_drop_down_get_selected (self->of_dropdown);
  sys = gtk_drop_down_get_selected (self->syscall_dropdown);
  from = gtk_drop_down_get_selected (self->from_dropdown);
  to = gtk_drop_down_get_selected (self->to_dropdown);
  self->scale = gtk_drop_down_get_selected (self->scale_dropdown) == 1 ? SEISMO_HISTOGRAM_LINEAR
                                                                      : SEISMO_HISTOGRAM_LOG2;
  self->large = gtk_toggle_button_get_active (self->large_button);
  self->of = MIN (of, SEISMO_HISTOGRAM_OF_N - 1);
  self->syscall = sys == 0 || sys == GTK_INVALID_LIST_POSITION ? -1 : (int) sys - 1;
  if (self->type_ids != NULL && from != GTK_INVALID_LIST_POSITION)
    self->gap_from = self->type_ids[from];
  if (self->type_ids != NULL && to != GTK_INVALID_LIST_POSITION)
    self->gap_to = self->type_ids[to];
  gtk_widget_set_visible (GTK_WIDGET (self->syscall_dropdown), self->of == SEISMO_HISTOGRAM_OF_SYSCALL);
  gtk_widget_set_visible (GTK_WIDGET (self->from_dropdown), self->of == SEISMO_HISTOGRAM_OF_GAP);
  gtk_widget_set_visible (GTK_WIDGET (self->to_dropdown), self->of == SEISMO_HISTOGRAM_OF_GAP);
  recompute (self);
}

static void
on_large_toggled (SeismoHistogramView *self)
{
  self->large = gtk_toggle_button_get_active (self->large_button);
  update_area_height (self);
  gtk_widget_queue_draw (self->area);
}

static GtkDropDown *
add_dropdown (GtkWidget          *box,
              const char *const  *items,
              const char         *tooltip,
              SeismoHistogramView *self)
{
  GtkWidget *dropdown = gtk_drop_down_new_from_strings (items);

  gtk_widget_set_tooltip_text (dropdown, tooltip);
  g_signal_connect_swapped (dropdown, "notify::selected", G_CALLBACK (on_controls_changed), self);
  gtk_box_append (GTK_BOX (box), dropdown);
  return GTK_DROP_DOWN (dropdown);
}

static void
fill_choices (SeismoHistogramView *self)
{
  g_autoptr(GtkStringList) syscalls = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) types = gtk_string_list_new (NULL);
  guint n_types = self->trace != NULL ? seismo_trace_get_n_event_types (self->trace) : 0;
  const guint64 *counts = self->trace != NULL ? seismo_trace_get_type_counts (self->trace) : NULL;
  guint n = 0, pick_from = 0, pick_to = 0;

  gtk_string_list_append (syscalls, _("All syscalls"));
  for (guint i = 0; self->trace != NULL && i < seismo_trace_get_n_syscall_names (self->trace); i++)
    gtk_string_list_append (syscalls, seismo_trace_get_syscall_name (self->trace, i));

  g_free (self->type_ids);
  self->type_ids = g_new0 (guint, MAX (n_types, 1));
  for (guint t = 0; t < n_types; t++)
    {
      g_autofree char *name = NULL;

      if (counts[t] == 0)
        continue;
      name = type_full_name (self->trace, t);
      gtk_string_list_append (types, name);
      /* A meaningful pair to start with: wakeup → switch when the trace has them. */
      if (g_str_has_suffix (name, ":sched_wakeup"))
        pick_from = n;
      if (g_str_has_suffix (name, ":sched_switch"))
        pick_to = n;
      self->type_ids[n++] = t;
    }
  self->n_type_ids = n;
  self->syncing = TRUE;
  gtk_drop_down_set_model (self->syscall_dropdown, G_LIST_MODEL (syscalls));
  gtk_drop_down_set_model (self->from_dropdown, G_LIST_MODEL (types));
  gtk_drop_down_set_model (self->to_dropdown, G_LIST_MODEL (types));
  gtk_drop_down_set_selected (self->syscall_dropdown, 0);
  gtk_drop_down_set_selected (self->from_dropdown, pick_from);
  gtk_drop_down_set_selected (self->to_dropdown, pick_to);
  self->syscall = -1;
  self->gap_from = n > 0 ? self->type_ids[pick_from] : 0;
  self->gap_to = n > 0 ? self->type_ids[pick_to] : 0;
  self->syncing = FALSE;
}

/* GObject */

static void
seismo_histogram_view_dispose (GObject *object)
{
  SeismoHistogramView *self = SEISMO_HISTOGRAM_VIEW (object);
  GtkWidget *child;

  seismo_view_follower_clear (&self->follower);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->cancellable);
  seismo_pane_spinner_clear (&self->busy);
  g_clear_object (&self->trace);
  seismo_pane_range_reset (&self->range);
  seismo_pane_range_reset (&self->shown_range);
  g_clear_pointer (&self->histogram, seismo_latency_histogram_free);
  g_clear_pointer (&self->samples, g_array_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->type_ids, g_free);
  G_OBJECT_CLASS (seismo_histogram_view_parent_class)->dispose (object);
}

static void
seismo_histogram_view_class_init (SeismoHistogramViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_histogram_view_dispose;

  /**
   * SeismoHistogramView::bucket-activated:
   * @bucket: the bucket's index in seismo_histogram_view_get_histogram()
   */
  signals[BUCKET_ACTIVATED] = g_signal_new ("bucket-activated", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_UINT);
  /* A new histogram is shown. */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  widget_class->map = seismo_histogram_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismohistogramview");
}

static void
seismo_histogram_view_init (SeismoHistogramView *self)
{
  static const char *const of_items[] = {
    N_("Syscall duration"), N_("Wakeup latency"), N_("Time on CPU"), N_("Gap A → B"), NULL
  };
  static const char *const scale_items[] = { N_("Log2"), N_("Linear"), NULL };
  const char *of_shown[G_N_ELEMENTS (of_items)];
  const char *scale_shown[G_N_ELEMENTS (scale_items)];
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *flow, *scroller;
  GtkGesture *click;

  for (guint i = 0; i < G_N_ELEMENTS (of_items); i++)
    of_shown[i] = of_items[i] != NULL ? _(of_items[i]) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (scale_items); i++)
    scale_shown[i] = scale_items[i] != NULL ? _(scale_items[i]) : NULL;

  seismo_pane_range_reset (&self->range);
  seismo_pane_range_reset (&self->shown_range);
  self->syscall = -1;
  self->scale = SEISMO_HISTOGRAM_LOG2;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  flow = controls;
  gtk_widget_set_margin_start (controls, 6);
  gtk_widget_set_margin_end (controls, 6);
  gtk_widget_set_margin_top (controls, 4);
  gtk_widget_set_margin_bottom (controls, 4);
  self->of_dropdown = add_dropdown (flow, of_shown, _("What to measure"), self);
  self->syscall_dropdown = add_dropdown (flow, (const char *const[]) { _("All syscalls"), NULL },
                                         _("Which syscall"), self);
  gtk_drop_down_set_enable_search (self->syscall_dropdown, TRUE);
  self->from_dropdown = add_dropdown (flow, (const char *const[]) { "", NULL },
                                      _("Gap from an event of this type…"), self);
  self->to_dropdown = add_dropdown (flow, (const char *const[]) { "", NULL },
                                    _("…to the next event of this type on the same task"), self);
  gtk_widget_set_visible (GTK_WIDGET (self->from_dropdown), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->to_dropdown), FALSE);
  self->scale_dropdown = add_dropdown (flow, scale_shown, _("Power-of-two or linear buckets"), self);
  self->large_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new ());
  gtk_button_set_icon_name (GTK_BUTTON (self->large_button), "zoom-in-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->large_button), _("Large text, for a projector"));
  g_signal_connect_swapped (self->large_button, "toggled", G_CALLBACK (on_large_toggled), self);
  gtk_box_append (GTK_BOX (flow), GTK_WIDGET (self->large_button));
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  self->busy.spinner = self->spinner;
  gtk_box_append (GTK_BOX (flow), GTK_WIDGET (self->spinner));
  gtk_widget_set_parent (controls, GTK_WIDGET (self));

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_size_request (self->area, 200, 120);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_area, self, NULL);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_area_pressed), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (click));
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_area_tooltip), self);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->area);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));
  /* Following a view: its trace and span reach the pane as if set through its own API. */
  seismo_view_follower_init (&self->follower, self, (SeismoViewTraceFunc) seismo_histogram_view_set_trace,
                             (SeismoViewSpanFunc) seismo_histogram_view_set_selection);
}

/* Public API */

GtkWidget *
seismo_histogram_view_new (void)
{
  return g_object_new (SEISMO_TYPE_HISTOGRAM_VIEW, NULL);
}

void
seismo_histogram_view_set_trace (SeismoHistogramView *self,
                                 SeismoTrace         *trace)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  seismo_pane_range_reset (&self->range);
  g_clear_pointer (&self->histogram, seismo_latency_histogram_free);
  g_clear_pointer (&self->samples, g_array_unref);
  fill_choices (self);
  recompute (self);
}

void
seismo_histogram_view_set_selection (SeismoHistogramView *self,
                                     guint64              start_ns,
                                     guint64              end_ns,
                                     GBytes              *mask)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (start_ns <= end_ns);

  if (seismo_pane_range_equal (&self->range, start_ns, end_ns, mask))
    return;
  seismo_pane_range_set (&self->range, start_ns, end_ns, mask);
  recompute (self);
}

void
seismo_histogram_view_set_measure (SeismoHistogramView *self,
                                   SeismoHistogramOf    of,
                                   int                  syscall,
                                   guint                gap_from,
                                   guint                gap_to)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (of < SEISMO_HISTOGRAM_OF_N);

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->of_dropdown, of);
  gtk_drop_down_set_selected (self->syscall_dropdown, syscall < 0 ? 0 : (guint) syscall + 1);
  if (self->type_ids != NULL && self->trace != NULL)
    for (guint i = 0; i < self->n_type_ids; i++)
      {
        if (self->type_ids[i] == gap_from)
          gtk_drop_down_set_selected (self->from_dropdown, i);
        if (self->type_ids[i] == gap_to)
          gtk_drop_down_set_selected (self->to_dropdown, i);
      }
  self->syncing = FALSE;
  on_controls_changed (self);
  /* The dropdowns only know types the trace has; what was asked wins. */
  self->syscall = syscall;
  self->gap_from = gap_from;
  self->gap_to = gap_to;
  recompute (self);
}

void
seismo_histogram_view_set_scale (SeismoHistogramView *self,
                                 SeismoHistogramScale scale)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  gtk_drop_down_set_selected (self->scale_dropdown, scale == SEISMO_HISTOGRAM_LINEAR ? 1 : 0);
}

void
seismo_histogram_view_set_large (SeismoHistogramView *self,
                                 gboolean             large)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  gtk_toggle_button_set_active (self->large_button, large);
}

gboolean
seismo_histogram_view_get_busy (SeismoHistogramView *self)
{
  g_return_val_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self), FALSE);
  return self->cancellable != NULL;
}

SeismoLatencyHistogram *
seismo_histogram_view_get_histogram (SeismoHistogramView *self)
{
  g_return_val_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self), NULL);
  flush_pending (self);
  return self->histogram;
}

int
seismo_histogram_view_bucket_at (SeismoHistogramView *self,
                                 int                  width,
                                 int                  height,
                                 double               x,
                                 double               y)
{
  Geometry g;
  double row;

  g_return_val_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self), -1);
  if (self->histogram == NULL)
    return -1;
  layout_geometry (self, width, height, self->large, &g);
  if (g.empty || y < g.rows_top || x < g.pad)
    return -1;
  row = floor ((y - g.rows_top) / g.row_h);
  if (row > g.last - g.first)
    return -1;
  return (int) (g.first + (guint) row);
}

char *
seismo_histogram_view_bucket_filter (SeismoHistogramView *self,
                                     guint                bucket)
{
  SeismoLatencyBucket b;
  GString *out;

  g_return_val_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self), NULL);
  if (self->histogram == NULL || self->of != SEISMO_HISTOGRAM_OF_SYSCALL
      || bucket >= seismo_latency_histogram_get_n_buckets (self->histogram))
    return NULL;
  seismo_latency_histogram_get_bucket (self->histogram, bucket, &b);
  out = g_string_new (NULL);
  if (self->syscall >= 0)
    g_string_append_printf (out, "syscall == %s && ",
                            seismo_trace_get_syscall_name (self->trace, (guint) self->syscall));
  g_string_append_printf (out, "duration >= %" PRIu64, b.lower);
  if (b.upper != G_MAXUINT64)
    g_string_append_printf (out, " && duration < %" PRIu64, b.upper);
  return g_string_free (out, FALSE);
}

GBytes *
seismo_histogram_view_bucket_mask (SeismoHistogramView *self,
                                   guint                bucket,
                                   char               **label)
{
  SeismoLatencyBucket b;
  guint64 *mask;
  gsize words;
  g_autofree char *range = NULL;

  g_return_val_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self), NULL);
  g_return_val_if_fail (self->histogram != NULL, NULL);
  g_return_val_if_fail (bucket < seismo_latency_histogram_get_n_buckets (self->histogram), NULL);

  seismo_latency_histogram_get_bucket (self->histogram, bucket, &b);
  if (self->samples == NULL)
    {
      /* Syscall durations are not kept as samples (see hist_thread): taken again for this
       * rare request. */
      SeismoSelection sel = seismo_pane_range_selection (&self->shown_range);

      self->samples = seismo_latency_collect (self->trace, SEISMO_LATENCY_SYSCALL, &sel, self->shown_syscall);
    }
  mask = seismo_latency_samples_mask (self->trace, self->samples, b.lower, b.upper);
  words = seismo_filter_mask_words (seismo_trace_get_n_events (self->trace));
  range = seismo_latency_histogram_bucket_label (self->histogram, bucket, TRUE);
  if (label != NULL)
    *label = g_strdup_printf ("%s %s", self->title != NULL ? self->title : "", range);
  return g_bytes_new_take (mask, words * sizeof (guint64));
}

void
seismo_histogram_view_render (SeismoHistogramView *self,
                              cairo_t             *cr,
                              int                  width,
                              int                  height,
                              gboolean             large)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (cr != NULL);
  flush_pending (self);
  render_full (self, cr, width, height, large, FALSE, TRUE);
}

char *
seismo_histogram_view_to_csv (SeismoHistogramView *self)
{
  GString *out;
  SeismoLatencySummary s;

  g_return_val_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self), NULL);
  flush_pending (self);

  out = g_string_new ("# ");
  g_string_append (out, self->title != NULL ? self->title : "");
  g_string_append_c (out, '\n');
  if (self->histogram == NULL)
    return g_string_free (out, FALSE);
  seismo_latency_histogram_get_summary (self->histogram, &s);
  g_string_append_printf (out, "# count=%" PRIu64 " min_ns=%" PRIu64
                          " avg_ns=%" PRIu64 " p50_ns=%" PRIu64
                          " p90_ns=%" PRIu64 " p99_ns=%" PRIu64
                          " max_ns=%" PRIu64 "\n",
                          s.count, s.min, s.avg, s.p50, s.p90, s.p99, s.max);
  g_string_append (out, "lower_ns,upper_ns,count\n");
  for (guint i = 0; i < seismo_latency_histogram_get_n_buckets (self->histogram); i++)
    {
      SeismoLatencyBucket b;

      seismo_latency_histogram_get_bucket (self->histogram, i, &b);
      if (b.count == 0)
        continue;
      g_string_append_printf (out, "%" PRIu64 ",", b.lower);
      if (b.upper != G_MAXUINT64)
        g_string_append_printf (out, "%" PRIu64, b.upper);
      g_string_append_printf (out, ",%" PRIu64 "\n", b.count);
    }
  return g_string_free (out, FALSE);
}

/**
 * seismo_histogram_view_set_view:
 * @view: (nullable): the view to follow: its trace, and its span and filter in force
 */
void
seismo_histogram_view_set_view (SeismoHistogramView *self,
                                 SeismoView *view)
{
  g_return_if_fail (SEISMO_IS_HISTOGRAM_VIEW (self));
  seismo_view_follower_set_view (&self->follower, view);
}

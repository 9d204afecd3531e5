/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "seismo-compare-view.h"
#include "seismo-filter-run.h"
#include "seismo-filter.h"
#include "seismo-histogram.h"
#include "seismo-work-priority.h"

struct _SeismoCompareView
{
  GtkWidget               parent_instance;

  /* template widgets */
  GtkWidget              *toolbar;
  GtkEntry               *align_entry;
  GtkLabel               *align_status;
  GtkLabel               *label_a;
  GtkLabel               *label_b;
  GtkScrolledWindow      *scroll_a;
  GtkScrolledWindow      *scroll_b;
  SeismoTimeline         *timeline_a;
  SeismoTimeline         *timeline_b;
  GtkLabel               *summary;
  GtkListBox             *rows_box;
  GtkLabel               *histogram_title;
  GtkDrawingArea         *histogram;

  /* owned */
  SeismoTrace            *trace[2];
  SeismoTimelineData     *data[2];
  char                   *name[2];
  SeismoComparison       *comparison;
  SeismoLatencyHistogram *hist[2];

  double                  align[2];     /* ns from each trace's start that line up */
  double                  last_start[2];  /* the view each side was last given by the sync */
  double                  last_npp[2];
  guint                   n_differences;
  guint                   sync_source;
  GCancellable           *align_cancellable;  /* an alignment being searched on a worker */
  guint                   sync_from;
  GtkSizeGroup           *columns[9];   /* the table's columns line up whatever the fonts */
};

G_DEFINE_FINAL_TYPE (SeismoCompareView, seismo_compare_view, GTK_TYPE_WIDGET)

static const double side_rgb[2][3] = {
  { 0x1c / 255.0, 0x71 / 255.0, 0xd8 / 255.0 },   /* A: blue */
  { 0xe6 / 255.0, 0x61 / 255.0, 0x00 / 255.0 },   /* B: orange */
};

static SeismoTimeline *
timeline_of (SeismoCompareView *self,
             guint              which)
{
  return which == 0 ? self->timeline_a : self->timeline_b;
}

/* Zoom and pan in step */

void
seismo_compare_view_sync (SeismoCompareView *self,
                          guint              from)
{
  SeismoTimelineRenderer *src, *dst;
  guint to = !from;
  double start;

  g_return_if_fail (SEISMO_IS_COMPARE_VIEW (self));
  g_return_if_fail (from < 2);
  src = seismo_timeline_get_renderer (timeline_of (self, from));
  dst = seismo_timeline_get_renderer (timeline_of (self, to));
  if (src == NULL || dst == NULL)
    return;
  /* The same time after the alignment point is at the same x in both. */
  start = seismo_timeline_renderer_get_view_start (src) - self->align[from] + self->align[to];
  seismo_timeline_renderer_set_view (dst, start, seismo_timeline_renderer_get_ns_per_px (src));
  /* A shorter trace cannot zoom out as far: then both take its widest scale, so that a pixel is
   * the same time in both. */
  if (seismo_timeline_renderer_get_ns_per_px (dst) < seismo_timeline_renderer_get_ns_per_px (src) * (1 - 1e-9))
    {
      seismo_timeline_renderer_set_view (src, seismo_timeline_renderer_get_view_start (src),
                                         seismo_timeline_renderer_get_ns_per_px (dst));
      gtk_widget_queue_resize (GTK_WIDGET (timeline_of (self, from)));
      gtk_widget_queue_draw (GTK_WIDGET (timeline_of (self, from)));
    }
  /* What the other side got (clamped to its trace): its own adjustment change is then no news. */
  self->last_start[to] = seismo_timeline_renderer_get_view_start (dst);
  self->last_npp[to] = seismo_timeline_renderer_get_ns_per_px (dst);
  self->last_start[from] = seismo_timeline_renderer_get_view_start (src);
  self->last_npp[from] = seismo_timeline_renderer_get_ns_per_px (src);
  gtk_widget_queue_resize (GTK_WIDGET (timeline_of (self, to)));
  gtk_widget_queue_draw (GTK_WIDGET (timeline_of (self, to)));
}

static gboolean
sync_idle (gpointer user_data)
{
  SeismoCompareView *self = user_data;

  self->sync_source = 0;
  seismo_compare_view_sync (self, self->sync_from);
  return G_SOURCE_REMOVE;
}

static void
view_moved (SeismoCompareView *self,
            guint              which)
{
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (timeline_of (self, which));

  if (r == NULL)
    return;
  /* Only a change the user made travels across; the echo of a sync does not. */
  if (fabs (seismo_timeline_renderer_get_view_start (r) - self->last_start[which]) < 1e-3
      && fabs (seismo_timeline_renderer_get_ns_per_px (r) - self->last_npp[which]) < 1e-9 * self->last_npp[which])
    return;
  /* Adjustments change while the timelines are allocated: resizing the other one must wait
   * until that is over, but not until after the frame is drawn. */
  self->sync_from = which;
  if (self->sync_source == 0)
    self->sync_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, sync_idle, self, NULL);
}

static void
on_adjustment_a (SeismoCompareView *self)
{
  view_moved (self, 0);
}

static void
on_adjustment_b (SeismoCompareView *self)
{
  view_moved (self, 1);
}

/* Alignment */

/* The time of the first event that matches, from the trace's start. Runs on any thread. */
static gboolean
first_match (SeismoTrace  *trace,
             const char   *expression,
             double       *rel_ns,
             GCancellable *cancellable,
             GError      **error)
{
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, expression, error);
  SeismoEventId event;

  if (filter == NULL)
    return FALSE;
  /* The same evaluation as the window's view, stopping at the first match. */
  event = seismo_filter_find_first (filter, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (event != SEISMO_NO_EVENT)
    {
      *rel_ns = (double) (seismo_trace_get_times (trace)[event] - seismo_trace_get_start_ns (trace));
      return TRUE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no event matches"));
  return FALSE;
}

static gboolean
find_alignment (SeismoTrace * const *trace,
                char * const        *name,
                const char          *expression,
                double              *at,
                GCancellable        *cancellable,
                GError             **error)
{
  at[0] = at[1] = 0;
  if (expression != NULL && *expression != '\0')
    for (guint k = 0; k < 2; k++)
      {
        g_autoptr(GError) local = NULL;

        if (!first_match (trace[k], expression, &at[k], cancellable, &local))
          {
            g_set_error (error, local->domain, local->code, "%s: %s", name[k], local->message);
            return FALSE;
          }
      }
  return TRUE;
}

gboolean
seismo_compare_view_align (SeismoCompareView *self,
                           const char        *expression,
                           GError           **error)
{
  double at[2] = { 0, 0 };

  g_return_val_if_fail (SEISMO_IS_COMPARE_VIEW (self), FALSE);
  if (!find_alignment (self->trace, self->name, expression, at, NULL, error))
    return FALSE;
  self->align[0] = at[0];
  self->align[1] = at[1];
  seismo_compare_view_sync (self, 0);
  return TRUE;
}

typedef struct {
  SeismoTrace *trace[2];
  char        *name[2];
  char        *expression;
  double       at[2];
} AlignJob;

static void
align_job_free (AlignJob *job)
{
  for (guint k = 0; k < 2; k++)
    {
      g_clear_object (&job->trace[k]);
      g_free (job->name[k]);
    }
  g_free (job->expression);
  g_free (job);
}

static void
align_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  AlignJob *job = task_data;
  GError *error = NULL;

  seismo_work_priority_enter ();

  if (!find_alignment (job->trace, job->name, job->expression, job->at, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
show_alignment (SeismoCompareView *self,
                const char        *expression,
                const GError      *error)
{
  if (error != NULL)
    {
      gtk_label_set_text (self->align_status, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->align_status), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->align_status), "error");
  if (*expression == '\0')
    gtk_label_set_text (self->align_status, _("Aligned at their starts"));
  else
    {
      g_autofree char *a = seismo_format_time (self->align[0], 1000);
      g_autofree char *b = seismo_format_time (self->align[1], 1000);
      g_autofree char *status = g_strdup_printf (_("A at %s, B at %s"), a, b);

      gtk_label_set_text (self->align_status, status);
    }
}

static void
align_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SeismoCompareView *self = SEISMO_COMPARE_VIEW (source);
  AlignJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* a newer alignment replaced this one, or the view went */
  g_clear_object (&self->align_cancellable);
  if (error == NULL)
    {
      self->align[0] = job->at[0];
      self->align[1] = job->at[1];
      seismo_compare_view_sync (self, 0);
    }
  show_alignment (self, job->expression, error);
}

/* Searching both traces can take a while on big ones: on a worker, as the window filters. */
static void
on_align_activate (SeismoCompareView *self)
{
  g_autoptr(GTask) task = NULL;
  AlignJob *job;

  if (self->trace[0] == NULL || self->trace[1] == NULL)
    return;
  if (self->align_cancellable != NULL)
    g_cancellable_cancel (self->align_cancellable);
  g_clear_object (&self->align_cancellable);
  self->align_cancellable = g_cancellable_new ();
  job = g_new0 (AlignJob, 1);
  for (guint k = 0; k < 2; k++)
    {
      job->trace[k] = g_object_ref (self->trace[k]);
      job->name[k] = g_strdup (self->name[k]);
    }
  job->expression = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->align_entry)));
  task = g_task_new (self, self->align_cancellable, align_done, NULL);
  g_task_set_source_tag (task, on_align_activate);
  g_task_set_task_data (task, job, (GDestroyNotify) align_job_free);
  g_task_run_in_thread (task, align_thread);
  gtk_widget_remove_css_class (GTK_WIDGET (self->align_status), "error");
  gtk_label_set_text (self->align_status, _("Searching…"));
}

/* The comparison table */

enum { COL_NAME, COL_CALLS, COL_P50 = COL_CALLS + 2, COL_P90 = COL_P50 + 2, COL_P99 = COL_P90 + 2, N_COLS = COL_P99 + 2 };

static GtkWidget *
cell (GtkWidget    *box,
      GtkSizeGroup *column,
      const char   *text,
      int           chars,
      const char   *css)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_width_chars (GTK_LABEL (label), chars);
  gtk_label_set_max_width_chars (GTK_LABEL (label), chars);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), chars > 12 ? 0 : 1);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  gtk_size_group_add_widget (column, label);
  gtk_box_append (GTK_BOX (box), label);
  return label;
}

/* How B's figure reads against A's: slower is an error color, faster a success color. */
static const char *
diff_class (guint64  a,
            guint64  b,
            gboolean latency)
{
  if (a == b)
    return NULL;
  if (!latency)
    return "accent";
  if ((double) b > (double) a * 1.1)
    return "error";
  if ((double) b * 1.1 < (double) a)
    return "success";
  return "warning";
}

static void
add_pair (SeismoCompareView      *self,
          GtkWidget              *box,
          guint                   col,
          const SeismoCompareRow *row,
          SeismoCompareMetric     metric,
          gboolean                latency)
{
  /* A side without measured durations (seismo-timing.h) has no latencies to show or compare. */
  gboolean known_a = !latency || self->comparison == NULL || self->comparison->info_a.durations;
  gboolean known_b = !latency || self->comparison == NULL || self->comparison->info_b.durations;
  g_autofree char *a = latency ? seismo_format_duration ((double) row->a[metric])
                               : g_strdup_printf ("%" G_GUINT64_FORMAT, row->a[metric]);
  g_autofree char *b = latency ? seismo_format_duration ((double) row->b[metric])
                               : g_strdup_printf ("%" G_GUINT64_FORMAT, row->b[metric]);

  cell (box, self->columns[col], row->in_a && known_a ? a : "—", 9, NULL);
  /* A syscall only one side made is news, not a slowdown. */
  cell (box, self->columns[col + 1], row->in_b && known_b ? b : "—", 9,
        !row->in_a || !row->in_b ? "accent"
        : !known_a || !known_b ? NULL : diff_class (row->a[metric], row->b[metric], latency));
}

static GtkWidget *
table_row (SeismoCompareView      *self,
           const SeismoCompareRow *row,
           int                     index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *list_row = gtk_list_box_row_new ();
  gboolean differs = seismo_compare_row_differs (row);
  g_autofree char *name = NULL;

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  if (!row->in_a || !row->in_b)
    name = g_strdup_printf (!row->in_a ? _("%s (only in B)") : _("%s (only in A)"), row->name);
  cell (box, self->columns[COL_NAME], name != NULL ? name : index < 0 ? _("all syscalls") : row->name, 22,
        differs ? "heading" : NULL);
  add_pair (self, box, COL_CALLS, row, SEISMO_COMPARE_CALLS, FALSE);
  add_pair (self, box, COL_P50, row, SEISMO_COMPARE_P50_NS, TRUE);
  add_pair (self, box, COL_P90, row, SEISMO_COMPARE_P90_NS, TRUE);
  add_pair (self, box, COL_P99, row, SEISMO_COMPARE_P99_NS, TRUE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (list_row), box);
  g_object_set_data (G_OBJECT (list_row), "row-index", GINT_TO_POINTER (index));
  gtk_widget_set_name (list_row, index < 0 ? "total" : row->name);
  if (differs)
    gtk_widget_add_css_class (list_row, "compare-differs");
  return list_row;
}

static GtkWidget *
header_row (SeismoCompareView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *row = gtk_list_box_row_new ();
  static const char *const heads[] = {
    N_("Calls A"), N_("Calls B"), N_("p50 A"), N_("p50 B"), N_("p90 A"), N_("p90 B"), N_("p99 A"), N_("p99 B"),
  };

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  cell (box, self->columns[COL_NAME], _("Syscall"), 22, "heading");
  for (guint i = 0; i < G_N_ELEMENTS (heads); i++)
    cell (box, self->columns[COL_CALLS + i], _(heads[i]), 9, "heading");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  return row;
}

static int
syscall_index (SeismoTrace *trace,
               const char  *name)
{
  for (guint i = 0; i < seismo_trace_get_n_syscall_names (trace); i++)
    if (g_strcmp0 (seismo_trace_get_syscall_name (trace, i), name) == 0)
      return (int) i;
  return -2;
}

static void
select_histograms (SeismoCompareView *self,
                   const char        *name)
{
  g_autofree char *title = NULL;

  for (guint k = 0; k < 2; k++)
    {
      int index = name == NULL ? -1 : syscall_index (self->trace[k], name);
      g_autoptr(GArray) samples = NULL;

      g_clear_pointer (&self->hist[k], seismo_latency_histogram_free);
      self->hist[k] = seismo_latency_histogram_new_log2 ();
      if (index == -2)
        continue;
      samples = seismo_latency_collect (self->trace[k], SEISMO_LATENCY_SYSCALL, NULL, index);
      seismo_latency_histogram_add_samples (self->hist[k], samples);
    }
  title = name == NULL ? g_strdup (_("Latency of all syscalls in ns, A over B"))
                       : g_strdup_printf (_("Latency of %s() in ns, A over B"), name);
  gtk_label_set_text (self->histogram_title, title);
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram));
}

static void
on_row_selected (SeismoCompareView *self,
                 GtkListBoxRow     *row)
{
  int index;

  if (row == NULL || self->comparison == NULL)
    return;
  index = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "row-index"));
  select_histograms (self, index < 0 ? NULL
                                     : g_array_index (self->comparison->rows, SeismoCompareRow, index).name);
}

gboolean
seismo_compare_view_select_syscall (SeismoCompareView *self,
                                    const char        *name)
{
  GtkWidget *child;

  g_return_val_if_fail (SEISMO_IS_COMPARE_VIEW (self), FALSE);
  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->rows_box)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child) && gtk_list_box_row_get_selectable (GTK_LIST_BOX_ROW (child))
        && g_strcmp0 (gtk_widget_get_name (child), name) == 0)
      {
        gtk_list_box_select_row (self->rows_box, GTK_LIST_BOX_ROW (child));
        return TRUE;
      }
  return FALSE;
}

static void
fill_table (SeismoCompareView *self)
{
  const SeismoComparison *c = self->comparison;
  g_autofree char *summary = NULL;
  GtkWidget *total;

  gtk_list_box_append (self->rows_box, header_row (self));
  total = table_row (self, &c->total, -1);
  gtk_list_box_append (self->rows_box, total);
  self->n_differences = seismo_compare_row_differs (&c->total);
  for (guint i = 0; i < c->rows->len; i++)
    {
      const SeismoCompareRow *row = &g_array_index (c->rows, SeismoCompareRow, i);

      self->n_differences += seismo_compare_row_differs (row);
      gtk_list_box_append (self->rows_box, table_row (self, row, (int) i));
    }
  if (self->n_differences == 0)
    summary = g_strdup (_("No differences: every syscall has the same count and latencies in A and B."));
  else
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u row differs (bold). B's latencies in red are over 10 %% slower "
                                            "than A's, in green over 10 %% faster.",
                                            "%u rows differ (bold). B's latencies in red are over 10 %% slower "
                                            "than A's, in green over 10 %% faster.", self->n_differences),
                               self->n_differences);
  gtk_label_set_text (self->summary, summary);
  gtk_list_box_select_row (self->rows_box, GTK_LIST_BOX_ROW (total));
}

/* Overlaid histograms */

static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  SeismoCompareView *self = user_data;
  guint first = G_MAXUINT, last = 0, n;
  double max_share = 0, total[2] = { 0, 0 };
  const double left = 48, bottom = 70, top = 52, right = 12;
  double plot_w = width - left - right, plot_h = height - top - bottom, bw;
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  GdkRGBA fg;

  if (self->hist[0] == NULL || self->hist[1] == NULL || plot_w < 40 || plot_h < 40)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  n = seismo_latency_histogram_get_n_buckets (self->hist[0]);
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < n; i++)
      {
        SeismoLatencyBucket b;

        seismo_latency_histogram_get_bucket (self->hist[k], i, &b);
        total[k] += b.count;
        if (b.count > 0)
          {
            first = MIN (first, i);
            last = MAX (last, i);
          }
      }
  if (first == G_MAXUINT)
    {
      pango_layout_set_text (layout, _("No finished calls in either trace"), -1);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      cairo_move_to (cr, left, top + plot_h / 2);
      pango_cairo_show_layout (cr, layout);
      return;
    }
  for (guint k = 0; k < 2; k++)
    for (guint i = first; i <= last; i++)
      {
        SeismoLatencyBucket b;

        seismo_latency_histogram_get_bucket (self->hist[k], i, &b);
        if (total[k] > 0)
          max_share = MAX (max_share, b.count / total[k]);
      }
  bw = plot_w / (last - first + 1);

  /* Axes and the 0 / max labels of the share. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.3);
  cairo_rectangle (cr, left, top + plot_h, plot_w, 1);
  cairo_rectangle (cr, left - 1, top, 1, plot_h);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
  {
    /* Shares of each trace's calls: traces of different lengths compare. */
    g_autofree char *max_text = g_strdup_printf ("%.0f %%", max_share * 100);

    pango_layout_set_text (layout, max_text, -1);
    cairo_move_to (cr, 4, top);
    pango_cairo_show_layout (cr, layout);
    pango_layout_set_text (layout, "0", -1);
    cairo_move_to (cr, left - 16, top + plot_h - 10);
    pango_cairo_show_layout (cr, layout);
  }

  /* Both on the same buckets, translucent, so overlap shows as a blend. */
  for (guint k = 0; k < 2; k++)
    {
      cairo_set_source_rgba (cr, side_rgb[k][0], side_rgb[k][1], side_rgb[k][2], 0.55);
      for (guint i = first; i <= last; i++)
        {
          SeismoLatencyBucket b;
          double h;

          seismo_latency_histogram_get_bucket (self->hist[k], i, &b);
          if (b.count == 0 || total[k] == 0)
            continue;
          h = MAX (1, plot_h * (b.count / total[k]) / max_share);
          cairo_rectangle (cr, left + (i - first) * bw + 1, top + plot_h - h, MAX (bw - 2, 1), h);
        }
      cairo_fill (cr);
    }

  /* Bucket labels, rotated, as many as fit. */
  {
    guint every = (guint) ceil (16.0 / MAX (bw, 1));

    cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
    for (guint i = first; i <= last; i += MAX (every, 1))
      {
        g_autofree char *label = seismo_latency_histogram_bucket_label (self->hist[0], i, TRUE);

        pango_layout_set_text (layout, label, -1);
        cairo_save (cr);
        /* Slanted down and right from under its bar, so long labels never overlap. */
        cairo_translate (cr, left + (i - first) * bw + bw / 2 - 4, top + plot_h + 4);
        cairo_rotate (cr, G_PI / 4);
        cairo_move_to (cr, 0, 0);
        pango_cairo_show_layout (cr, layout);
        cairo_restore (cr);
      }
  }

  /* Legend, one line per trace, above the plot. */
  for (guint k = 0; k < 2; k++)
    {
      double x = left, y = 6 + k * 20;
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s  %s · %.0f call",
                                                            "%s  %s · %.0f calls", (gulong) total[k]),
                                               k == 0 ? "A" : "B", self->name[k], total[k]);

      cairo_set_source_rgba (cr, side_rgb[k][0], side_rgb[k][1], side_rgb[k][2], 0.8);
      cairo_rectangle (cr, x, y + 3, 12, 12);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.85);
      pango_layout_set_text (layout, text, -1);
      pango_layout_set_width (layout, (int) ((plot_w - 40) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
      cairo_move_to (cr, x + 18, y);
      pango_cairo_show_layout (cr, layout);
      pango_layout_set_width (layout, -1);
    }
}

/* Object */

static void
seismo_compare_view_dispose (GObject *object)
{
  SeismoCompareView *self = SEISMO_COMPARE_VIEW (object);

  GtkWidget *child;

  g_clear_handle_id (&self->sync_source, g_source_remove);
  if (self->align_cancellable != NULL)
    g_cancellable_cancel (self->align_cancellable);
  g_clear_object (&self->align_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_COMPARE_VIEW);
  /* Children the template does not name are still ours to unparent. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  for (guint k = 0; k < 2; k++)
    {
      g_clear_object (&self->trace[k]);
      g_clear_pointer (&self->data[k], seismo_timeline_data_unref);
      g_clear_pointer (&self->name[k], g_free);
      g_clear_pointer (&self->hist[k], seismo_latency_histogram_free);
    }
  g_clear_pointer (&self->comparison, seismo_comparison_free);
  for (guint i = 0; i < N_COLS; i++)
    g_clear_object (&self->columns[i]);
  G_OBJECT_CLASS (seismo_compare_view_parent_class)->dispose (object);
}

static void
seismo_compare_view_class_init (SeismoCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_compare_view_dispose;
  g_type_ensure (SEISMO_TYPE_TIMELINE);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/seismo/Seismo/seismo-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, align_entry);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, align_status);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, label_a);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, label_b);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, scroll_a);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, scroll_b);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, timeline_a);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, timeline_b);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, summary);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, rows_box);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, histogram_title);
  gtk_widget_class_bind_template_child (widget_class, SeismoCompareView, histogram);
  gtk_widget_class_bind_template_callback (widget_class, on_align_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_set_css_name (widget_class, "comparison");
}

static void
seismo_compare_view_init (SeismoCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_drawing_area_set_draw_func (self->histogram, draw_histogram, self, NULL);
  G_STATIC_ASSERT (G_N_ELEMENTS (self->columns) == N_COLS);
  for (guint i = 0; i < N_COLS; i++)
    self->columns[i] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  g_signal_connect_swapped (gtk_scrolled_window_get_hadjustment (self->scroll_a), "value-changed",
                            G_CALLBACK (on_adjustment_a), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_hadjustment (self->scroll_a), "changed",
                            G_CALLBACK (on_adjustment_a), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_hadjustment (self->scroll_b), "value-changed",
                            G_CALLBACK (on_adjustment_b), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_hadjustment (self->scroll_b), "changed",
                            G_CALLBACK (on_adjustment_b), self);
}

/**
 * seismo_compare_view_new:
 *
 * Returns: (transfer floating): a view comparing trace_a (the baseline) with trace_b; it keeps
 *   references on both traces and data
 */
GtkWidget *
seismo_compare_view_new (SeismoTrace        *trace_a,
                         SeismoTimelineData *data_a,
                         const char         *name_a,
                         SeismoTrace        *trace_b,
                         SeismoTimelineData *data_b,
                         const char         *name_b)
{
  SeismoCompareView *self;
  SeismoTrace *traces[2] = { trace_a, trace_b };
  SeismoTimelineData *datas[2] = { data_a, data_b };
  const char *names[2] = { name_a, name_b };

  g_return_val_if_fail (SEISMO_IS_TRACE (trace_a) && SEISMO_IS_TRACE (trace_b), NULL);
  g_return_val_if_fail (data_a != NULL && data_b != NULL, NULL);

  self = g_object_new (SEISMO_TYPE_COMPARE_VIEW, NULL);
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *label = NULL;

      self->trace[k] = g_object_ref (traces[k]);
      self->data[k] = seismo_timeline_data_ref (datas[k]);
      self->name[k] = g_strdup (names[k] != NULL ? names[k] : "");
      label = g_strdup_printf ("%s  %s", k == 0 ? "A" : "B", self->name[k]);
      gtk_label_set_text (k == 0 ? self->label_a : self->label_b, label);
      seismo_timeline_set_data (timeline_of (self, k), datas[k]);
    }
  self->comparison = seismo_compare_traces (trace_a, NULL, trace_b, NULL);
  fill_table (self);
  return GTK_WIDGET (self);
}

SeismoTimeline *
seismo_compare_view_get_timeline (SeismoCompareView *self,
                                  guint              which)
{
  g_return_val_if_fail (SEISMO_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (which < 2, NULL);
  return timeline_of (self, which);
}

const SeismoComparison *
seismo_compare_view_get_comparison (SeismoCompareView *self)
{
  g_return_val_if_fail (SEISMO_IS_COMPARE_VIEW (self), NULL);
  return self->comparison;
}

guint
seismo_compare_view_get_n_differences (SeismoCompareView *self)
{
  g_return_val_if_fail (SEISMO_IS_COMPARE_VIEW (self), 0);
  return self->n_differences;
}

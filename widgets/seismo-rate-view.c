/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "seismo-file-summary.h"
#include "seismo-filter.h"
#include "seismo-rate-view.h"
#include "seismo-view-follower.h"
#include "seismo-timing.h"
#include "seismo-cairo-private.h"
#include "seismo-work-priority.h"

#define K SEISMO_RATE_CATEGORIES

/* What the counts are split by: category of each type id or task id, and the names. */
typedef struct {
  guint8 *map;          /* id → 0..K (K: other) */
  gsize   n_ids;
  char   *names[K + 1];
} Categories;

static void
categories_clear (Categories *c)
{
  g_clear_pointer (&c->map, g_free);
  for (guint i = 0; i <= K; i++)
    g_clear_pointer (&c->names[i], g_free);
}

typedef struct {
  gsize   id;
  guint64 count;
} IdCount;

static int
compare_count_desc (gconstpointer a,
                    gconstpointer b)
{
  const IdCount *x = a, *y = b;

  return x->count > y->count ? -1 : x->count < y->count;
}

static void
categories_build (Categories      *c,
                  SeismoTrace     *trace,
                  SeismoRateStack  stack)
{
  g_autofree IdCount *ids = NULL;

  categories_clear (c);
  if (stack == SEISMO_RATE_BY_TYPE)
    {
      const guint64 *counts = seismo_trace_get_type_counts (trace);

      c->n_ids = seismo_trace_get_n_event_types (trace);
      ids = g_new0 (IdCount, MAX (c->n_ids, 1));
      for (gsize i = 0; i < c->n_ids; i++)
        ids[i] = (IdCount) { i, counts[i] };
    }
  else
    {
      const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
      gsize n_events = seismo_trace_get_n_events (trace);

      /* Counted here: a per-task event index would cost 4 bytes an event for these counts. */
      c->n_ids = seismo_trace_get_n_tasks (trace);
      ids = g_new0 (IdCount, MAX (c->n_ids, 1));
      for (gsize i = 0; i < c->n_ids; i++)
        ids[i].id = i;
      for (gsize e = 0; e < n_events; e++)
        if (tasks[e] < c->n_ids)
          ids[tasks[e]].count++;
    }
  c->map = g_new (guint8, MAX (c->n_ids, 1));
  memset (c->map, K, MAX (c->n_ids, 1));
  qsort (ids, c->n_ids, sizeof (IdCount), compare_count_desc);
  for (guint k = 0; k < K && k < c->n_ids && ids[k].count > 0; k++)
    {
      c->map[ids[k].id] = (guint8) k;
      if (stack == SEISMO_RATE_BY_TYPE)
        c->names[k] = g_strdup (seismo_trace_get_event_type (trace, (guint) ids[k].id)->name);
      else
        {
          const SeismoTask *t = seismo_trace_get_task (trace, (SeismoTaskId) ids[k].id);
          const char *comm = seismo_trace_get_string (trace, t->comm);

          c->names[k] = g_strdup_printf ("%s %d", comm != NULL ? comm : "?", t->tid);
        }
    }
  c->names[K] = g_strdup (_("other"));
}

/* The column of a time, as the counts have it; may be negative or past the last. */
static inline double
column_of (guint64 t,
           double  start_ns,
           double  ns_per_px)
{
  return floor (((double) t - start_ns) / ns_per_px);
}

/* The first event of [lo, hi) whose column is > col: the columns grow with time, so one binary
 * search per column finds where it ends, and its events are counted without reading their times. */
static SeismoEventId
column_end (const guint64 *ts,
            SeismoEventId  lo,
            SeismoEventId  hi,
            double         col,
            double         start_ns,
            double         ns_per_px)
{
  while (lo < hi)
    {
      SeismoEventId mid = lo + (hi - lo) / 2;

      if (column_of (ts[mid], start_ns, ns_per_px) <= col)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Counts events of mask in n_cols columns of ns_per_px from start_ns, by category. Returns
 * NULL when cancelled. */
static guint32 *
compute_counts (SeismoTrace      *trace,
                const guint64    *mask,
                const Categories *c,
                SeismoRateStack   stack,
                double            start_ns,
                double            ns_per_px,
                guint             n_cols,
                GCancellable     *cancellable)
{
  const guint64 *ts = seismo_trace_get_times (trace);
  const guint16 *types = seismo_trace_get_types (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  /* start_ns may be negative: a view that begins before the trace's clock does. */
  double end_ns = start_ns + ns_per_px * n_cols;
  SeismoEventId first = seismo_trace_find_time (trace, (guint64) MAX (start_ns, 0));
  SeismoEventId last = end_ns <= 0 ? first : seismo_trace_find_time (trace, (guint64) end_ns);
  g_autofree guint32 *counts = g_new0 (guint32, (gsize) MAX (n_cols, 1) * (K + 1));
  g_autofree guint8 *map = g_new (guint8, c->n_ids + 1);
  SeismoEventId i = first;

  /* Ids past the categories count as "other", without a test per event. */
  if (c->n_ids > 0)
    memcpy (map, c->map, c->n_ids);
  map[c->n_ids] = K;
  /* Events before the first column (rounding at its edge) are not counted. */
  i = column_end (ts, i, last, -1, start_ns, ns_per_px);
  for (guint col = 0; col < n_cols && i < last; col++)
    {
      SeismoEventId end = column_end (ts, i, last, col, start_ns, ns_per_px);
      guint32 *out = counts + (gsize) col * (K + 1);

      seismo_work_priority_pause_point ();
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      /* Each event adds its mask bit: a branch on it is a coin toss for a filter such as
       * cpu == 0, mispredicted at every other event. */
      if (mask == NULL && stack == SEISMO_RATE_BY_TYPE)
        for (; i < end; i++)
          out[map[MIN ((gsize) types[i], c->n_ids)]]++;
      else if (mask == NULL)
        for (; i < end; i++)
          out[map[MIN ((gsize) tasks[i], c->n_ids)]]++;
      else if (stack == SEISMO_RATE_BY_TYPE)
        for (; i < end; i++)
          out[map[MIN ((gsize) types[i], c->n_ids)]] += (mask[i >> 6] >> (i & 63)) & 1;
      else
        for (; i < end; i++)
          out[map[MIN ((gsize) tasks[i], c->n_ids)]] += (mask[i >> 6] >> (i & 63)) & 1;
    }
  return g_steal_pointer (&counts);
}

/* GNOME palette; the last is "other". */
static const guint32 palette[K + 1] = {
  0x3584e4, 0xe66100, 0x2ec27e, 0x9141ac, 0xe5a50a, 0xc01c28, 0x9a9996,
};


/* The pixels of cr's target when the bars can be written into them: an ARGB32 image drawn at
 * whole pixels, without a clip, and clear where the bars go (no background painted). NULL: draw
 * them with Cairo. */
static guint8 *
bar_pixels (cairo_t *cr,
            int     *stride)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_matrix_t m;
  double dx, dy;
  cairo_rectangle_list_t *clips;
  gboolean unclipped;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE
      || cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32)
    return NULL;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_offset (target, &dx, &dy);
  if (m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || m.x0 != 0 || m.y0 != 0 || dx != 0 || dy != 0)
    return NULL;
  clips = cairo_copy_clip_rectangle_list (cr);
  unclipped = clips->status == CAIRO_STATUS_SUCCESS && clips->num_rectangles == 1
              && clips->rectangles[0].x <= 0 && clips->rectangles[0].y <= 0
              && clips->rectangles[0].x + clips->rectangles[0].width >= cairo_image_surface_get_width (target)
              && clips->rectangles[0].y + clips->rectangles[0].height >= cairo_image_surface_get_height (target);
  cairo_rectangle_list_destroy (clips);
  if (!unclipped)
    return NULL;
  cairo_surface_flush (target);
  *stride = cairo_image_surface_get_stride (target);
  return cairo_image_surface_get_data (target);
}

static void
draw_counts (cairo_t          *cr,
             int               width,
             int               height,
             const guint32    *counts,
             guint             n_cols,
             const Categories *c,
             double            ns_per_px,
             gboolean          timed,
             gboolean          dark,
             gboolean          background)
{
  guint32 fg = dark ? 0xffffff : 0x241f31;
  guint64 peak = 1;
  double x0 = SEISMO_TIMELINE_LABEL_WIDTH;
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 7.5");
  g_autofree char *title = NULL;
  double ly;
  guint8 *pixels;
  int stride = 0;

  cairo_save (cr);
  if (background)
    {
      seismo_cairo_set_rgb (cr, dark ? 0x1e1e1e : 0xffffff, 1);
      cairo_paint (cr);
    }
  /* Nothing counted yet (a trace whose timeline is still being prepared): no figures. */
  if (counts == NULL)
    {
      cairo_restore (cr);
      g_object_unref (layout);
      pango_font_description_free (font);
      return;
    }
  for (guint col = 0; counts != NULL && col < n_cols; col++)
    {
      guint64 total = 0;

      for (guint k = 0; k <= K; k++)
        total += counts[col * (K + 1) + k];
      peak = MAX (peak, total);
    }

  /* Bars: one per pixel column, categories stacked from the bottom, on whole pixels and without
   * antialiasing: cairo then fills them as boxes. Thousands of subpixel rectangles took ~25 ms
   * of a frame to rasterize. A category with events keeps at least a pixel, so that a rare one
   * still shows next to a busy one. On an image at whole pixels the bars are written straight
   * into it, as Cairo would: a path of thousands of boxes still cost ~10 ms a frame. */
  pixels = background ? NULL : bar_pixels (cr, &stride);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (guint k = 0; counts != NULL && k <= K; k++)
    {
      guint32 value = seismo_cairo_rgb_pixel (palette[k], 0.9);

      seismo_cairo_set_rgb (cr, palette[k], 0.9);
      for (guint col = 0; col < n_cols && x0 + col < width; col++)
        {
          const guint32 *column = counts + (gsize) col * (K + 1);
          double unit = (height - 4) / (double) peak;
          int bottom = height - 2;
          int top;

          if (column[k] == 0)
            continue;
          for (guint j = 0; j < k; j++)
            if (column[j] > 0)
              bottom -= MAX ((int) lround (column[j] * unit), 1);
          top = bottom - MAX ((int) lround (column[k] * unit), 1);
          if (bottom <= 2)
            continue;
          if (pixels != NULL)
            for (int y = MAX (top, 2); y < bottom; y++)
              *(guint32 *) (pixels + (gsize) y * stride + 4 * ((gsize) x0 + col)) = value;
          else
            cairo_rectangle (cr, x0 + col, MAX (top, 2), 1, bottom - MAX (top, 2));
        }
      if (pixels == NULL)
        cairo_fill (cr);
    }
  if (pixels != NULL)
    cairo_surface_mark_dirty (cairo_get_target (cr));
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
  seismo_cairo_set_rgb (cr, fg, 0.15);
  cairo_rectangle (cr, 0, height - 1, width, 1);
  cairo_fill (cr);

  /* The label column: what is counted, the peak, and a legend. */
  pango_layout_set_font_description (layout, font);
  {
    double w = ns_per_px;
    g_autofree char *per = w >= 1e6 ? g_strdup_printf ("%.3g ms", w / 1e6)
                           : w >= 1e3 ? g_strdup_printf ("%.3g µs", w / 1e3)
                           : g_strdup_printf ("%.3g ns", w);

    /* TRANSLATORS: "Events per 1.5 ms · peak 1,234" */
    if (timed)
      title = g_strdup_printf (_("Events per %s · peak %'" PRIu64), per, (uint64_t) peak);
    else
      /* A log without clocks (seismo-timing.h): columns are stretches of its order. */
      title = g_strdup_printf (_("Events per column (no timing) · peak %'" PRIu64),
                               (uint64_t) peak);
  }
  pango_layout_set_width (layout, (SEISMO_TIMELINE_LABEL_WIDTH - 8) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_text (layout, title, -1);
  seismo_cairo_set_rgb (cr, fg, 0.8);
  cairo_move_to (cr, 6, 2);
  pango_cairo_show_layout (cr, layout);
  ly = 14;
  pango_layout_set_width (layout, (SEISMO_TIMELINE_LABEL_WIDTH / 2 - 14) * PANGO_SCALE);
  for (guint k = 0, shown = 0; k <= K && c != NULL; k++)
    {
      double lx = 6 + (shown % 2) * (SEISMO_TIMELINE_LABEL_WIDTH / 2);

      if (c->names[k] == NULL || ly + 10 > height)
        continue;
      shown++;
      seismo_cairo_set_rgb (cr, palette[k], 1);
      cairo_rectangle (cr, lx, ly + 3, 7, 7);
      cairo_fill (cr);
      seismo_cairo_set_rgb (cr, fg, 0.75);
      pango_layout_set_text (layout, c->names[k], -1);
      cairo_move_to (cr, lx + 10, ly);
      pango_cairo_show_layout (cr, layout);
      if (shown % 2 == 0)
        ly += 11;
    }
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_restore (cr);
}

struct _SeismoRateView
{
  GtkWidget       parent_instance;
  SeismoViewFollower follower;    /* the view whose filter it counts, when it follows one */

  /* borrowed */
  SeismoTimeline *timeline;

  /* owned */
  SeismoTrace    *trace;
  GBytes         *mask;
  Categories      categories;
  GCancellable   *cancellable;
  guint32        *counts;
  guint           n_cols;
  GdkFrameClock  *clock;          /* while realized: frames are followed, never requested */
  gulong          before_paint_id;
  gulong          after_paint_id;

  SeismoRateStack stack;
  double          scale;
  double          drawn_scale;
  /* The view the counts are for, and the one asked for last. */
  double          shown_start;
  double          shown_ns_per_px;
  double          want_start;
  double          want_ns_per_px;
  guint           want_cols;
  gboolean        dirty;
};

G_DEFINE_FINAL_TYPE (SeismoRateView, seismo_rate_view, GTK_TYPE_WIDGET)

typedef struct {
  SeismoTrace     *trace;
  SeismoFileSummary *summary;    /* a trace larger than memory: trace holds a window of it */
  GBytes          *mask;
  Categories       categories;   /* a copy of the map: the view may rebuild its own meanwhile */
  SeismoRateStack  stack;
  double           start_ns;
  double           ns_per_px;
  guint            n_cols;
  guint32         *counts;
} RateJob;

static void
rate_job_free (RateJob *job)
{
  g_clear_object (&job->trace);
  g_clear_pointer (&job->summary, seismo_file_summary_free);
  g_clear_pointer (&job->mask, g_bytes_unref);
  categories_clear (&job->categories);
  g_free (job->counts);
  g_free (job);
}

/* A trace larger than memory: the columns outside the window of events read are counted from
 * the summary's level-of-detail rows (all CPUs), as "other" (the summary has no types there);
 * those inside keep their events' counts by category. Without a filter only: the summary
 * cannot tell which events a filter keeps. */
static void
add_summary_counts (RateJob *job)
{
  gsize n = seismo_trace_get_n_events (job->trace);
  const guint64 *ts = seismo_trace_get_times (job->trace);
  double first = n > 0 ? (double) ts[0] : G_MAXDOUBLE, last = n > 0 ? (double) ts[n - 1] : -1;
  double start = MAX (job->start_ns, 0), end = job->start_ns + job->ns_per_px * job->n_cols;
  g_autofree SeismoLodCell *cells = NULL;
  g_autofree guint64 *sum = NULL;

  if (job->n_cols == 0 || end <= start)
    return;
  cells = g_new (SeismoLodCell, job->n_cols);
  sum = g_new0 (guint64, job->n_cols);
  for (guint cpu = 0; cpu < seismo_file_summary_get_n_cpus (job->summary); cpu++)
    {
      seismo_file_summary_cpu_row (job->summary, cpu, (guint64) job->start_ns, (guint64) end,
                                   job->n_cols, cells);
      for (guint col = 0; col < job->n_cols; col++)
        sum[col] += cells[col].events;
    }
  for (guint col = 0; col < job->n_cols; col++)
    {
      double c0 = job->start_ns + job->ns_per_px * col, c1 = c0 + job->ns_per_px;

      if (c0 >= first && c1 <= last)
        continue;   /* read: its events say more than the summary */
      memset (job->counts + (gsize) col * (K + 1), 0, sizeof (guint32) * (K + 1));
      job->counts[(gsize) col * (K + 1) + K] = (guint32) MIN (sum[col], G_MAXUINT32);
    }
}

static void
rate_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  RateJob *job = task_data;

  seismo_work_priority_enter ();

  job->counts = compute_counts (job->trace, job->mask != NULL ? g_bytes_get_data (job->mask, NULL) : NULL,
                                &job->categories, job->stack, job->start_ns, job->ns_per_px,
                                job->n_cols, cancellable);
  if (job->counts != NULL && job->summary != NULL && job->mask == NULL)
    add_summary_counts (job);
  if (job->counts == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_boolean (task, TRUE);
}

static void
rate_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  SeismoRateView *self = SEISMO_RATE_VIEW (source);
  RateJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL)
      || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  g_free (self->counts);
  self->counts = g_steal_pointer (&job->counts);
  self->n_cols = job->n_cols;
  self->shown_start = job->start_ns;
  self->shown_ns_per_px = job->ns_per_px;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
start_compute (SeismoRateView *self)
{
  g_autoptr(GTask) task = NULL;
  RateJob *job;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->dirty = FALSE;
  if (self->trace == NULL || self->want_cols == 0 || self->want_ns_per_px <= 0)
    return;
  self->cancellable = g_cancellable_new ();
  job = g_new0 (RateJob, 1);
  job->trace = g_object_ref (self->trace);
  if (self->timeline != NULL && seismo_timeline_get_data (self->timeline) != NULL
      && seismo_timeline_data_get_summary (seismo_timeline_get_data (self->timeline)) != NULL)
    job->summary = seismo_file_summary_ref (seismo_timeline_data_get_summary (seismo_timeline_get_data (self->timeline)));
  job->mask = self->mask != NULL ? g_bytes_ref (self->mask) : NULL;
  job->categories.n_ids = self->categories.n_ids;
  job->categories.map = g_memdup2 (self->categories.map, MAX (self->categories.n_ids, 1));
  job->stack = self->stack;
  job->start_ns = self->want_start;
  job->ns_per_px = self->want_ns_per_px;
  job->n_cols = self->want_cols;
  task = g_task_new (self, self->cancellable, rate_done, NULL);
  g_task_set_source_tag (task, start_compute);
  g_task_set_task_data (task, job, (GDestroyNotify) rate_job_free);
  g_task_run_in_thread (task, rate_thread);
}

/* Runs around each frame the window paints anyway (the timeline redraws on a pan or zoom):
 * notices a changed timeline view and asks for new counts. It never asks for a frame itself, so
 * an unchanged window stays idle. A worker per frame at most; a newer view cancels the one
 * being counted. Before the paint: an input event's pan shows in the same frame; after it: a
 * new size from the layout phase is picked up at once. */
static void
follow_timeline (SeismoRateView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  SeismoTimelineData *tdata;
  SeismoTimelineRenderer *r;
  SeismoTrace *trace;
  double start;
  double scale;
  guint cols;

  if (self->timeline == NULL)
    return;
  tdata = seismo_timeline_get_data (self->timeline);
  trace = tdata != NULL ? seismo_timeline_data_get_trace (tdata) : NULL;
  if (trace != self->trace)
    {
      if (self->cancellable != NULL)
        g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      g_set_object (&self->trace, trace);
      g_clear_pointer (&self->counts, g_free);
      categories_clear (&self->categories);
      if (trace != NULL)
        categories_build (&self->categories, trace, self->stack);
      self->dirty = TRUE;
      gtk_widget_queue_draw (widget);
    }
  if (trace == NULL)
    return;
  r = seismo_timeline_get_renderer (self->timeline);
  if (r == NULL)
    return;
  /* The view may start before the trace (zoomed out around its start). */
  start = (double) seismo_trace_get_start_ns (trace) + seismo_timeline_renderer_get_view_start (r);
  scale = seismo_timeline_renderer_get_ns_per_px (r);
  cols = (guint) MAX (seismo_timeline_renderer_get_area_width (r), 0);
  /* In presenter mode the timeline draws its renderer's pixels scaled up; so does this strip. */
  self->scale = cols > 0 ? gtk_widget_get_width (GTK_WIDGET (self->timeline))
                           / (double) (cols + SEISMO_TIMELINE_LABEL_WIDTH) : 1;
  if (self->scale != self->drawn_scale)
    gtk_widget_queue_draw (widget);
  if (start != self->want_start || scale != self->want_ns_per_px || cols != self->want_cols)
    {
      self->want_start = start;
      self->want_ns_per_px = scale;
      self->want_cols = cols;
      self->dirty = TRUE;
    }
  if (self->dirty)
    start_compute (self);
}

static void
on_frame (GdkFrameClock  *clock,
          SeismoRateView *self)
{
  follow_timeline (self);
}

static void
seismo_rate_view_realize (GtkWidget *widget)
{
  SeismoRateView *self = SEISMO_RATE_VIEW (widget);

  GTK_WIDGET_CLASS (seismo_rate_view_parent_class)->realize (widget);
  self->clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  self->before_paint_id = g_signal_connect (self->clock, "before-paint", G_CALLBACK (on_frame), self);
  self->after_paint_id = g_signal_connect (self->clock, "after-paint", G_CALLBACK (on_frame), self);
  gtk_widget_queue_draw (widget);
}

static void
seismo_rate_view_unrealize (GtkWidget *widget)
{
  SeismoRateView *self = SEISMO_RATE_VIEW (widget);

  if (self->clock != NULL)
    {
      g_clear_signal_handler (&self->before_paint_id, self->clock);
      g_clear_signal_handler (&self->after_paint_id, self->clock);
      g_clear_object (&self->clock);
    }
  GTK_WIDGET_CLASS (seismo_rate_view_parent_class)->unrealize (widget);
}

static void
seismo_rate_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SeismoRateView *self = SEISMO_RATE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_surface_t *image = NULL;
  cairo_t *cr;
  GdkRGBA fg;

  if (width <= 0 || height <= 0)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  /* Drawn into an image, which the frame then copies in one piece: drawn straight into the
   * snapshot, its thousands of bars were recorded and replayed by every frame that repainted
   * the strip (some 30 ms a frame with GTK 4.8's cairo renderer, several frames when a filter
   * or the view changes). At other scales the bars stay vectors, sharp on the denser pixels. */
  if (gtk_widget_get_scale_factor (widget) == 1)
    {
      image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cr = cairo_create (image);
    }
  else
    cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  self->drawn_scale = self->scale;
  if (self->scale > 0 && self->scale != 1)
    {
      cairo_scale (cr, self->scale, 1);
      width = (int) (width / self->scale);
    }
  /* While new counts are computed, the old ones stay, shifted to where their times now are. */
  if (self->counts != NULL && self->shown_ns_per_px == self->want_ns_per_px)
    cairo_translate (cr, (self->shown_start - self->want_start) / self->want_ns_per_px, 0);
  draw_counts (cr, width, height, self->counts, self->n_cols, &self->categories,
               self->want_ns_per_px, self->trace == NULL || seismo_trace_has_timestamps (self->trace),
               fg.red + fg.green + fg.blue > 1.5, FALSE);
  cairo_destroy (cr);
  if (image != NULL)
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                     gtk_widget_get_height (widget)));
      cairo_set_source_surface (cr, image, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (image);
    }
}

static void
seismo_rate_view_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? SEISMO_TIMELINE_LABEL_WIDTH + 50 : 56;
}

static gboolean
on_query_tooltip (GtkWidget      *widget,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  SeismoRateView *self)
{
  guint col;
  g_autoptr(GString) text = NULL;

  if (x < SEISMO_TIMELINE_LABEL_WIDTH * (self->scale > 0 ? self->scale : 1))
    {
      gtk_tooltip_set_text (tooltip, self->stack == SEISMO_RATE_BY_TYPE
                                     ? _("Stacked by event type. Click to stack by task.")
                                     : _("Stacked by task. Click to stack by event type."));
      return TRUE;
    }
  if (self->counts == NULL || self->shown_ns_per_px != self->want_ns_per_px)
    return FALSE;
  col = (guint) (x / (self->scale > 0 ? self->scale : 1) - SEISMO_TIMELINE_LABEL_WIDTH);
  if (col >= self->n_cols)
    return FALSE;
  text = g_string_new (NULL);
  for (guint k = 0; k <= K; k++)
    if (self->counts[col * (K + 1) + k] > 0 && self->categories.names[k] != NULL)
      g_string_append_printf (text, "%s%s: %u", text->len ? "\n" : "", self->categories.names[k],
                              self->counts[col * (K + 1) + k]);
  if (text->len == 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* A click on the label column switches between stacking by event type and by task. */
static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            SeismoRateView  *self)
{
  if (x / (self->scale > 0 ? self->scale : 1) >= SEISMO_TIMELINE_LABEL_WIDTH)
    return;
  seismo_rate_view_set_stack (self, self->stack == SEISMO_RATE_BY_TYPE ? SEISMO_RATE_BY_TASK
                                                                       : SEISMO_RATE_BY_TYPE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
seismo_rate_view_dispose (GObject *object)
{
  SeismoRateView *self = SEISMO_RATE_VIEW (object);

  seismo_view_follower_clear (&self->follower);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->mask, g_bytes_unref);
  g_clear_pointer (&self->counts, g_free);
  categories_clear (&self->categories);
  self->timeline = NULL;
  G_OBJECT_CLASS (seismo_rate_view_parent_class)->dispose (object);
}

/* Following a view (seismo-view-follower.h): the strip spans the whole trace (the timeline
 * gives it), so only the filter's mask is taken. */
static void
follow_span (gpointer  view,
             guint64   start_ns,
             guint64   end_ns,
             GBytes   *mask)
{
  seismo_rate_view_set_mask (view, mask);
}

static void
seismo_rate_view_class_init (SeismoRateViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_rate_view_dispose;
  widget_class->snapshot = seismo_rate_view_snapshot;
  widget_class->measure = seismo_rate_view_measure;
  widget_class->realize = seismo_rate_view_realize;
  widget_class->unrealize = seismo_rate_view_unrealize;
  gtk_widget_class_set_css_name (widget_class, "seismorateview");
}

static void
seismo_rate_view_init (SeismoRateView *self)
{
  self->scale = self->drawn_scale = 1;
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  seismo_view_follower_init (&self->follower, self, NULL, follow_span);
}

GtkWidget *
seismo_rate_view_new (void)
{
  return g_object_new (SEISMO_TYPE_RATE_VIEW, NULL);
}

void
seismo_rate_view_set_timeline (SeismoRateView *self,
                               SeismoTimeline *timeline)
{
  g_return_if_fail (SEISMO_IS_RATE_VIEW (self));
  g_return_if_fail (timeline == NULL || SEISMO_IS_TIMELINE (timeline));
  self->timeline = timeline;
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));   /* the next frame follows it */
}

void
seismo_rate_view_set_mask (SeismoRateView *self,
                           GBytes         *mask)
{
  g_return_if_fail (SEISMO_IS_RATE_VIEW (self));

  if (mask == self->mask || (mask != NULL && self->mask != NULL && g_bytes_equal (mask, self->mask)))
    return;   /* the same events: the counts stand */
  if (mask != NULL)
    g_bytes_ref (mask);
  g_clear_pointer (&self->mask, g_bytes_unref);
  self->mask = mask;
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
seismo_rate_view_set_stack (SeismoRateView *self,
                            SeismoRateStack stack)
{
  g_return_if_fail (SEISMO_IS_RATE_VIEW (self));

  if (stack == self->stack)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->stack = stack;
  if (self->trace != NULL)
    categories_build (&self->categories, self->trace, stack);
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
seismo_rate_view_get_busy (SeismoRateView *self)
{
  g_return_val_if_fail (SEISMO_IS_RATE_VIEW (self), FALSE);
  return self->cancellable != NULL || self->dirty;
}

const guint32 *
seismo_rate_view_get_counts (SeismoRateView *self,
                             guint          *n_columns)
{
  g_return_val_if_fail (SEISMO_IS_RATE_VIEW (self), NULL);
  if (n_columns != NULL)
    *n_columns = self->n_cols;
  return self->counts;
}

void
seismo_rate_view_render (SeismoTrace    *trace,
                         GBytes         *mask,
                         SeismoRateStack stack,
                         guint64         start_ns,
                         double          ns_per_px,
                         cairo_t        *cr,
                         int             width,
                         int             height)
{
  Categories c = { 0 };
  g_autofree guint32 *counts = NULL;
  guint n_cols = (guint) MAX (width - SEISMO_TIMELINE_LABEL_WIDTH, 0);

  g_return_if_fail (SEISMO_IS_TRACE (trace));
  g_return_if_fail (ns_per_px > 0);

  categories_build (&c, trace, stack);
  counts = compute_counts (trace, mask != NULL ? g_bytes_get_data (mask, NULL) : NULL, &c, stack,
                           (double) start_ns, ns_per_px, n_cols, NULL);
  draw_counts (cr, width, height, counts, n_cols, &c, ns_per_px,
               seismo_trace_has_timestamps (trace), FALSE, TRUE);
  categories_clear (&c);
}

/**
 * seismo_rate_view_set_view:
 * @view: (nullable): the view whose filter in force the strip counts
 */
void
seismo_rate_view_set_view (SeismoRateView *self,
                           SeismoView     *view)
{
  g_return_if_fail (SEISMO_IS_RATE_VIEW (self));
  seismo_view_follower_set_view (&self->follower, view);
}

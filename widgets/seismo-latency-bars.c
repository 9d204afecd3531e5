/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"


#include <pango/pangocairo.h>

#include "seismo-latency-bars.h"

#define MIN_BAR_WIDTH 22
#define MAX_BAR_WIDTH 48
#define LABEL_ROOM 16

typedef struct {
  char    *label;   /* the lower edge: "16us" */
  guint64  count;
} Bar;

struct _SeismoLatencyBars
{
  GtkWidget  parent_instance;

  /* owned */
  GArray    *bars;   /* Bar */
};

G_DEFINE_FINAL_TYPE (SeismoLatencyBars, seismo_latency_bars, GTK_TYPE_WIDGET)

static void
bar_clear (gpointer data)
{
  g_free (((Bar *) data)->label);
}

/* A bucket's lower edge, short: log2 edges are powers of two, 2048 ns reads "2µs". */
static char *
short_duration (guint64 ns)
{
  if (ns < 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.0fµs", ns / 1e3);
  if (ns < 1000000000)
    return g_strdup_printf ("%.0fms", ns / 1e6);
  return g_strdup_printf ("%.0fs", ns / 1e9);
}

void
seismo_latency_bars_set_histogram (SeismoLatencyBars      *self,
                                   SeismoLatencyHistogram *histogram)
{
  guint n, first, last = 0;

  g_return_if_fail (SEISMO_IS_LATENCY_BARS (self));

  g_array_set_size (self->bars, 0);
  if (histogram != NULL)
    {
      n = seismo_latency_histogram_get_n_buckets (histogram);
      first = n;
      for (guint i = 0; i < n; i++)
        {
          SeismoLatencyBucket b;

          seismo_latency_histogram_get_bucket (histogram, i, &b);
          if (b.count > 0)
            {
              first = MIN (first, i);
              last = i;
            }
        }
      for (guint i = first; i <= last && first < n; i++)
        {
          SeismoLatencyBucket b;
          Bar bar;

          seismo_latency_histogram_get_bucket (histogram, i, &b);
          bar.label = short_duration (b.lower);
          bar.count = b.count;
          g_array_append_val (self->bars, bar);
        }
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
seismo_latency_bars_get_n_bars (SeismoLatencyBars *self)
{
  g_return_val_if_fail (SEISMO_IS_LATENCY_BARS (self), 0);
  return self->bars->len;
}

static void
text (cairo_t     *cr,
      PangoLayout *layout,
      const char  *str,
      double       cx,
      double       y)
{
  int w, h;

  pango_layout_set_text (layout, str, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, cx - w / 2.0, y);
  pango_cairo_show_layout (cr, layout);
}

void
seismo_latency_bars_draw (SeismoLatencyBars *self,
                          cairo_t           *cr,
                          double             width,
                          double             height,
                          const GdkRGBA     *fg)
{
  g_autoptr(PangoLayout) layout = NULL;
  PangoFontDescription *font;
  guint64 top = 0;
  double slot, plot;

  g_return_if_fail (SEISMO_IS_LATENCY_BARS (self));

  if (self->bars->len == 0 || width <= 0 || height <= 2 * LABEL_ROOM)
    return;
  for (guint i = 0; i < self->bars->len; i++)
    top = MAX (top, g_array_index (self->bars, Bar, i).count);
  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 7");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);

  slot = MIN (width / self->bars->len, MAX_BAR_WIDTH);
  plot = height - 2 * LABEL_ROOM;
  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      double h = top > 0 ? plot * (double) bar->count / (double) top : 0;
      double x = i * slot, cx = x + slot / 2;
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, bar->count);

      /* The runnable orange of the state lanes (Okabe–Ito), readable for colour-blind viewers. */
      cairo_set_source_rgb (cr, 0xe6 / 255.0, 0x9f / 255.0, 0);
      cairo_rectangle (cr, x + 2, LABEL_ROOM + plot - h, MAX (slot - 4, 1), h);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, fg);
      if (bar->count > 0)
        text (cr, layout, count, cx, LABEL_ROOM + plot - h - LABEL_ROOM + 2);
      /* Every other edge when they are crowded. */
      if (slot >= 34 || i % 2 == 0)
        text (cr, layout, bar->label, cx, LABEL_ROOM + plot + 2);
    }
  gdk_cairo_set_source_rgba (cr, fg);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, LABEL_ROOM + plot + 0.5);
  cairo_line_to (cr, slot * self->bars->len, LABEL_ROOM + plot + 0.5);
  cairo_stroke (cr);
}

static void
seismo_latency_bars_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  SeismoLatencyBars *self = SEISMO_LATENCY_BARS (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  if (self->bars->len == 0)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  seismo_latency_bars_draw (self, cr, width, height, &fg);
  cairo_destroy (cr);
}

static void
seismo_latency_bars_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  SeismoLatencyBars *self = SEISMO_LATENCY_BARS (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = self->bars->len * MIN_BAR_WIDTH / 2;
      *natural = self->bars->len * MAX_BAR_WIDTH;
    }
  else
    *minimum = *natural = self->bars->len > 0 ? 110 : 0;
}

static void
seismo_latency_bars_finalize (GObject *object)
{
  SeismoLatencyBars *self = SEISMO_LATENCY_BARS (object);

  g_array_unref (self->bars);
  G_OBJECT_CLASS (seismo_latency_bars_parent_class)->finalize (object);
}

static void
seismo_latency_bars_class_init (SeismoLatencyBarsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = seismo_latency_bars_finalize;
  widget_class->snapshot = seismo_latency_bars_snapshot;
  widget_class->measure = seismo_latency_bars_measure;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
seismo_latency_bars_init (SeismoLatencyBars *self)
{
  self->bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  g_array_set_clear_func (self->bars, bar_clear);
}

GtkWidget *
seismo_latency_bars_new (void)
{
  return g_object_new (SEISMO_TYPE_LATENCY_BARS, NULL);
}

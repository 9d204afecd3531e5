/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "seismo-thread-states.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-timing.h"

/* The deepest zoom: a pixel is a hundredth of a nanosecond, so single events spread out. */
#define MIN_NS_PER_PX 0.01

static void
hsv_to_color (double       h,
              double       s,
              double       v,
              SeismoColor *c)
{
  double r, g, b;

  h = fmod (h, 1.0) * 6.0;
  {
    int i = (int) floor (h);
    double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));

    switch (i)
      {
      case 0: r = v; g = t; b = p; break;
      case 1: r = q; g = v; b = p; break;
      case 2: r = p; g = v; b = t; break;
      case 3: r = p; g = q; b = v; break;
      case 4: r = t; g = p; b = v; break;
      default: r = v; g = p; b = q; break;
      }
  }
  c->red = (float) r;
  c->green = (float) g;
  c->blue = (float) b;
  c->alpha = 1.0f;
}

static void
set_rgba (SeismoColor *c,
          guint32      rgb,
          double       alpha)
{
  c->red = ((rgb >> 16) & 0xff) / 255.0f;
  c->green = ((rgb >> 8) & 0xff) / 255.0f;
  c->blue = (rgb & 0xff) / 255.0f;
  c->alpha = (float) alpha;
}

static void
build_palette (SeismoTimelineRenderer *self)
{
  SeismoColor *p = self->palette;
  gboolean dark = self->dark;

  for (guint i = 0; i < SEISMO_TIMELINE_N_TASK_COLORS; i++)
    {
      /* Neighbouring indices get distant hues. */
      double hue = ((i * 7) % SEISMO_TIMELINE_N_TASK_COLORS) / (double) SEISMO_TIMELINE_N_TASK_COLORS;

      hsv_to_color (hue, dark ? 0.55 : 0.55, dark ? 0.72 : 0.88, &p[C_TASK + i]);
      hsv_to_color (hue, dark ? 0.45 : 0.28, dark ? 0.48 : 0.97, &p[C_SYSCALL + i]);
    }
  if (dark)
    {
      set_rgba (&p[C_BG], 0x1e1e1e, 1);
      set_rgba (&p[C_LABEL_BG], 0x2a2a2a, 1);
      set_rgba (&p[C_RULER_BG], 0x303030, 1);
      set_rgba (&p[C_GROUP_BG], 0x2a2a2a, 1);
      set_rgba (&p[C_HOVER], 0xffffff, 0.06);
      set_rgba (&p[C_SEPARATOR], 0xffffff, 0.10);
      set_rgba (&p[C_GRID], 0xffffff, 0.07);
      set_rgba (&p[C_TEXT], 0xffffff, 0.92);
      set_rgba (&p[C_TEXT_DIM], 0xffffff, 0.55);
      set_rgba (&p[C_TEXT_ON_BOX], 0xffffff, 0.95);
      set_rgba (&p[C_TICK], 0xdeddda, 0.85);
      set_rgba (&p[C_SELECTED], 0xffffff, 0.9);
      set_rgba (&p[C_SYSCALL_ERROR], 0xa51d2d, 1);
      set_rgba (&p[C_SYSCALL_DENSE], 0x5e5c64, 1);
    }
  else
    {
      set_rgba (&p[C_BG], 0xffffff, 1);
      set_rgba (&p[C_LABEL_BG], 0xf6f5f4, 1);
      set_rgba (&p[C_RULER_BG], 0xebebeb, 1);
      set_rgba (&p[C_GROUP_BG], 0xf0efee, 1);
      set_rgba (&p[C_HOVER], 0x000000, 0.05);
      set_rgba (&p[C_SEPARATOR], 0x000000, 0.10);
      set_rgba (&p[C_GRID], 0x000000, 0.06);
      set_rgba (&p[C_TEXT], 0x000000, 0.85);
      set_rgba (&p[C_TEXT_DIM], 0x000000, 0.50);
      set_rgba (&p[C_TEXT_ON_BOX], 0x000000, 0.85);
      set_rgba (&p[C_TICK], 0x3d3846, 0.85);
      set_rgba (&p[C_SELECTED], 0x000000, 0.85);
      set_rgba (&p[C_SYSCALL_ERROR], 0xf66151, 1);
      set_rgba (&p[C_SYSCALL_DENSE], 0xc0bfbc, 1);
    }
  set_rgba (&p[C_WAKEUP], 0xe66100, 0.9);
  set_rgba (&p[C_IRQ], 0xc64600, 1);
  set_rgba (&p[C_SOFTIRQ], 0x9141ac, 1);
  set_rgba (&p[C_LOST], 0xe01b24, 1);
  set_rgba (&p[C_MARKER_A], 0x1c71d8, 1);
  set_rgba (&p[C_MARKER_B], 0xc01c28, 1);
  set_rgba (&p[C_RANGE], 0x3584e4, dark ? 0.22 : 0.15);
  set_rgba (&p[C_RANGE_EDGE], 0x3584e4, 0.8);
  set_rgba (&p[C_PIN], 0x3584e4, 1);
  set_rgba (&p[C_ON_ACCENT], 0xffffff, 1);
  _seismo_timeline_renderer_state_palette (self);
}

/**
 * seismo_timeline_renderer_new:
 * @data: prepared timeline data
 *
 * Returns: (transfer full): a renderer showing the whole trace; free with
 *   seismo_timeline_renderer_free().
 */
SeismoTimelineRenderer *
seismo_timeline_renderer_new (SeismoTimelineData *data)
{
  SeismoTimelineRenderer *self;

  g_return_val_if_fail (data != NULL, NULL);

  static guint64 next_id = 1;

  self = g_new0 (SeismoTimelineRenderer, 1);
  /* Renderers are made on the main thread only. */
  self->id = next_id++;
  self->data = seismo_timeline_data_ref (data);
  for (guint c = 0; c < C_N; c++)
    self->buckets[c] = g_array_new (FALSE, FALSE, sizeof (double));
  self->texts = g_array_new (FALSE, FALSE, sizeof (SeismoTextItem));
  self->strings = g_string_chunk_new (4096);
  self->font = pango_font_description_from_string ("Sans 9");
  self->small_font = pango_font_description_from_string ("Sans 8");
  self->width = 800;
  self->height = 400;
  self->selected = SEISMO_NO_EVENT;
  self->focus_task = SEISMO_NO_TASK;
  self->hover_y = -1;
  build_palette (self);
  _seismo_timeline_renderer_init_rows (self, NULL);
  seismo_timeline_renderer_fit_all (self);
  return self;
}

void
seismo_timeline_renderer_free (SeismoTimelineRenderer *self)
{
  if (self == NULL)
    return;
  _seismo_timeline_renderer_clear_rows (self);
  for (guint c = 0; c < C_N; c++)
    g_array_unref (self->buckets[c]);
  g_array_unref (self->texts);
  g_string_chunk_free (self->strings);
  g_clear_object (&self->layout);
  g_clear_object (&self->pango);
  pango_font_description_free (self->font);
  pango_font_description_free (self->small_font);
  g_clear_pointer (&self->data, seismo_timeline_data_unref);
  g_clear_pointer (&self->notes, g_array_unref);
  g_clear_pointer (&self->critical_path, g_array_unref);
  g_clear_pointer (&self->func_width, g_hash_table_unref);
  g_free (self);
}

SeismoTimelineData *
seismo_timeline_renderer_get_data (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->data;
}

void
seismo_timeline_renderer_set_data (SeismoTimelineRenderer *self,
                                   SeismoTimelineData     *data)
{
  SeismoTimelineRenderer old;
  gboolean was_fit;

  g_return_if_fail (self != NULL && data != NULL);
  if (data == self->data)
    return;
  /* A view showing all of a recording keeps showing all of it as it grows. */
  was_fit = self->ns_per_px >= seismo_timeline_renderer_get_fit_ns_per_px (self) * 0.999;

  /* Keep the row states of the old data to carry them over by pid and tid. */
  old = *self;
  self->cpu_flags = NULL;
  self->proc_flags = NULL;
  self->task_flags = NULL;
  self->cpu_order = NULL;
  self->proc_order = NULL;
  self->task_order = NULL;
  self->task_order_off = NULL;
  self->syscall_width = NULL;
  self->task_width = NULL;
  if (self->func_width != NULL)
    g_hash_table_remove_all (self->func_width);
  self->rows = NULL;
  self->pinned_rows = NULL;
  self->pinned_keys = NULL;
  self->data = seismo_timeline_data_ref (data);
  self->base_serial++;
  _seismo_timeline_renderer_init_rows (self, &old);
  _seismo_timeline_renderer_clear_rows (&old);
  seismo_timeline_data_unref (old.data);
  if (was_fit)
    seismo_timeline_renderer_fit_all (self);
  else
    seismo_timeline_renderer_set_view (self, self->view_start, self->ns_per_px);
}

void
seismo_timeline_renderer_set_size (SeismoTimelineRenderer *self,
                                   int                     width,
                                   int                     height)
{
  gboolean was_fit;

  g_return_if_fail (self != NULL);
  width = MAX (width, SEISMO_TIMELINE_LABEL_WIDTH + 1);
  height = MAX (height, SEISMO_TIMELINE_RULER_HEIGHT + 1);
  if (width == self->width && height == self->height)
    return;
  was_fit = self->ns_per_px >= seismo_timeline_renderer_get_fit_ns_per_px (self) * 0.999;
  self->width = width;
  self->height = height;
  self->rows_dirty = TRUE;
  if (was_fit)
    seismo_timeline_renderer_fit_all (self);
  else
    seismo_timeline_renderer_set_view (self, self->view_start, self->ns_per_px);
}

void
seismo_timeline_renderer_set_dark (SeismoTimelineRenderer *self,
                                   gboolean                dark)
{
  g_return_if_fail (self != NULL);
  dark = !!dark;
  if (dark == self->dark)
    return;
  self->dark = dark;
  build_palette (self);
}

void
seismo_timeline_renderer_set_pango_context (SeismoTimelineRenderer *self,
                                            PangoContext           *context)
{
  g_return_if_fail (self != NULL);
  if (context == self->pango)
    return;
  g_set_object (&self->pango, context);
  g_clear_object (&self->layout);
  /* Widths were measured with the old fonts. */
  if (self->syscall_width != NULL)
    memset (self->syscall_width, 0xff,
            sizeof (gint16) * seismo_trace_get_n_syscall_names (self->data->trace));
  if (self->task_width != NULL)
    memset (self->task_width, 0xff, sizeof (gint16) * self->data->n_tasks);
  if (self->func_width != NULL)
    g_hash_table_remove_all (self->func_width);
}

PangoLayout *
_seismo_timeline_renderer_layout (SeismoTimelineRenderer *self,
                                  const char             *text,
                                  gboolean                small)
{
  if (self->layout == NULL)
    {
      if (self->pango == NULL)
        self->pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      self->layout = pango_layout_new (self->pango);
    }
  pango_layout_set_font_description (self->layout, small ? self->small_font : self->font);
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text (self->layout, text, -1);
  return self->layout;
}

static int
text_width (SeismoTimelineRenderer *self,
            const char             *text,
            gboolean                small)
{
  int w;

  pango_layout_get_pixel_size (_seismo_timeline_renderer_layout (self, text, small), &w, NULL);
  return w;
}

/* View */

double
seismo_timeline_renderer_get_duration (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return MAX ((double) (self->data->end_ns - self->data->start_ns), 1.0);
}

int
seismo_timeline_renderer_get_area_width (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 1);
  return MAX (self->width - SEISMO_TIMELINE_LABEL_WIDTH, 1);
}

double
seismo_timeline_renderer_get_fit_ns_per_px (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 1);
  /* A little room after the last event so it is not on the edge. */
  return MAX (seismo_timeline_renderer_get_duration (self) * 1.02
              / seismo_timeline_renderer_get_area_width (self), MIN_NS_PER_PX);
}

void
seismo_timeline_renderer_set_view (SeismoTimelineRenderer *self,
                                   double                  start_ns,
                                   double                  ns_per_px)
{
  double fit, span, duration;

  g_return_if_fail (self != NULL);
  fit = seismo_timeline_renderer_get_fit_ns_per_px (self);
  duration = seismo_timeline_renderer_get_duration (self);
  if (!isfinite (ns_per_px) || ns_per_px <= 0)
    ns_per_px = fit;
  ns_per_px = CLAMP (ns_per_px, MIN_NS_PER_PX, fit);
  span = ns_per_px * seismo_timeline_renderer_get_area_width (self);
  if (!isfinite (start_ns))
    start_ns = 0;
  start_ns = CLAMP (start_ns, MIN (0, duration - span), MAX (0, duration * 1.02 - span));
  self->view_start = start_ns;
  self->ns_per_px = ns_per_px;
}

double
seismo_timeline_renderer_get_view_start (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->view_start;
}

double
seismo_timeline_renderer_get_ns_per_px (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 1);
  return self->ns_per_px;
}

void
seismo_timeline_renderer_fit_all (SeismoTimelineRenderer *self)
{
  g_return_if_fail (self != NULL);
  seismo_timeline_renderer_set_view (self, 0, seismo_timeline_renderer_get_fit_ns_per_px (self));
}

void
seismo_timeline_renderer_zoom (SeismoTimelineRenderer *self,
                               double                  factor,
                               double                  x)
{
  double anchor, npp;

  g_return_if_fail (self != NULL);
  g_return_if_fail (factor > 0);
  x = CLAMP (x, SEISMO_TIMELINE_LABEL_WIDTH, self->width);
  anchor = self->view_start + (x - SEISMO_TIMELINE_LABEL_WIDTH) * self->ns_per_px;
  npp = CLAMP (self->ns_per_px * factor, MIN_NS_PER_PX,
               seismo_timeline_renderer_get_fit_ns_per_px (self));
  seismo_timeline_renderer_set_view (self, anchor - (x - SEISMO_TIMELINE_LABEL_WIDTH) * npp, npp);
}

void
seismo_timeline_renderer_zoom_to (SeismoTimelineRenderer *self,
                                  guint64                 start_ns,
                                  guint64                 end_ns)
{
  double a, b;

  g_return_if_fail (self != NULL);
  if (end_ns < start_ns)
    {
      guint64 tmp = start_ns;

      start_ns = end_ns;
      end_ns = tmp;
    }
  a = (double) start_ns - (double) self->data->start_ns;
  b = (double) end_ns - (double) self->data->start_ns;
  if (b - a < MIN_NS_PER_PX)
    b = a + MIN_NS_PER_PX * seismo_timeline_renderer_get_area_width (self);
  seismo_timeline_renderer_set_view (self, a, (b - a) / seismo_timeline_renderer_get_area_width (self));
}

void
seismo_timeline_renderer_reveal_time (SeismoTimelineRenderer *self,
                                      guint64                 time_ns)
{
  double x;
  int w;

  g_return_if_fail (self != NULL);
  x = _seismo_timeline_abs_to_x (self, time_ns);
  w = seismo_timeline_renderer_get_area_width (self);
  if (x >= SEISMO_TIMELINE_LABEL_WIDTH + 8 && x <= self->width - 8)
    return;
  seismo_timeline_renderer_set_view (self,
                                     (double) time_ns - (double) self->data->start_ns
                                     - self->ns_per_px * w / 2, self->ns_per_px);
}

double
seismo_timeline_renderer_x_to_ns (SeismoTimelineRenderer *self,
                                  double                  x)
{
  g_return_val_if_fail (self != NULL, 0);
  return (double) self->data->start_ns + self->view_start
         + (x - SEISMO_TIMELINE_LABEL_WIDTH) * self->ns_per_px;
}

double
seismo_timeline_renderer_ns_to_x (SeismoTimelineRenderer *self,
                                  guint64                 time_ns)
{
  g_return_val_if_fail (self != NULL, 0);
  return _seismo_timeline_abs_to_x (self, time_ns);
}

void
seismo_timeline_renderer_set_scroll_y (SeismoTimelineRenderer *self,
                                       double                  y)
{
  g_return_if_fail (self != NULL);
  _seismo_timeline_renderer_layout_rows (self);
  y = MIN (y, seismo_timeline_renderer_get_rows_height (self)
              - seismo_timeline_renderer_get_rows_viewport (self));
  self->scroll_y = MAX (y, 0);
}

double
seismo_timeline_renderer_get_scroll_y (SeismoTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->scroll_y;
}

/* Markers, range, selection */

void
seismo_timeline_renderer_set_marker (SeismoTimelineRenderer *self,
                                     guint                   which,
                                     guint64                 time_ns)
{
  g_return_if_fail (self != NULL && which < 2);
  self->has_marker[which] = TRUE;
  self->marker[which] = time_ns;
}

void
seismo_timeline_renderer_clear_marker (SeismoTimelineRenderer *self,
                                       guint                   which)
{
  g_return_if_fail (self != NULL && which < 2);
  self->has_marker[which] = FALSE;
}

gboolean
seismo_timeline_renderer_get_marker (SeismoTimelineRenderer *self,
                                     guint                   which,
                                     guint64                *time_ns)
{
  g_return_val_if_fail (self != NULL && which < 2, FALSE);
  if (self->has_marker[which] && time_ns != NULL)
    *time_ns = self->marker[which];
  return self->has_marker[which];
}

void
seismo_timeline_renderer_set_range (SeismoTimelineRenderer *self,
                                    guint64                 start_ns,
                                    guint64                 end_ns)
{
  g_return_if_fail (self != NULL);
  self->has_range = TRUE;
  self->range[0] = MIN (start_ns, end_ns);
  self->range[1] = MAX (start_ns, end_ns);
}

void
seismo_timeline_renderer_clear_range (SeismoTimelineRenderer *self)
{
  g_return_if_fail (self != NULL);
  self->has_range = FALSE;
}

gboolean
seismo_timeline_renderer_get_range (SeismoTimelineRenderer *self,
                                    guint64                *start_ns,
                                    guint64                *end_ns)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (self->has_range)
    {
      if (start_ns != NULL)
        *start_ns = self->range[0];
      if (end_ns != NULL)
        *end_ns = self->range[1];
    }
  return self->has_range;
}

void
seismo_timeline_renderer_set_selected_event (SeismoTimelineRenderer *self,
                                             SeismoEventId           event)
{
  g_return_if_fail (self != NULL);
  self->selected = event < self->data->n_events ? event : SEISMO_NO_EVENT;
  /* The selected event's task is the one whose wakeups are drawn. */
  self->focus_task = self->selected != SEISMO_NO_EVENT ? seismo_trace_get_tasks (self->data->trace)[event]
                                                       : SEISMO_NO_TASK;
}

void
seismo_timeline_renderer_set_hover_y (SeismoTimelineRenderer *self,
                                      double                  y)
{
  g_return_if_fail (self != NULL);
  self->hover_y = y;
}

/* Formatting */

char *
seismo_format_duration (double ns)
{
  double a = fabs (ns);

  if (a < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (a < 1e6)
    return g_strdup_printf ("%.*f µs", a < 1e4 ? 3 : a < 1e5 ? 2 : 1, ns / 1e3);
  if (a < 1e9)
    return g_strdup_printf ("%.*f ms", a < 1e7 ? 3 : a < 1e8 ? 2 : 1, ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

char *
seismo_format_time (double ns,
                    double resolution_ns)
{
  int decimals;

  /* Seconds with as many decimals as the resolution needs; short units for short times. */
  if (fabs (ns) < 1e3 && resolution_ns < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (fabs (ns) < 1e6 && resolution_ns < 1e6)
    {
      decimals = resolution_ns >= 1e3 ? 0 : (int) CLAMP (ceil (-log10 (resolution_ns / 1e3)), 0, 3);
      return g_strdup_printf ("%.*f µs", decimals, ns / 1e3);
    }
  if (fabs (ns) < 1e9 && resolution_ns < 1e9)
    {
      decimals = resolution_ns >= 1e6 ? 0 : (int) CLAMP (ceil (-log10 (resolution_ns / 1e6)), 0, 6);
      return g_strdup_printf ("%.*f ms", decimals, ns / 1e6);
    }
  decimals = resolution_ns >= 1e9 ? 0 : (int) CLAMP (ceil (-log10 (resolution_ns / 1e9)), 0, 9);
  return g_strdup_printf ("%.*f s", decimals, ns / 1e9);
}

/* Drawing */

static void emit_rect (SeismoTimelineRenderer *self, guint color, double x, double y, double w, double h);

void
_seismo_timeline_renderer_emit_rect (SeismoTimelineRenderer *self,
                                     guint                   color,
                                     double                  x,
                                     double                  y,
                                     double                  w,
                                     double                  h)
{
  emit_rect (self, color, x, y, w, h);
}

static void
emit_rect (SeismoTimelineRenderer *self,
           guint                   color,
           double                  x,
           double                  y,
           double                  w,
           double                  h)
{
  GArray *b = self->buckets[color];

  if (w <= 0 || h <= 0)
    return;
  /* Adjacent columns of the same summary become one rectangle. */
  if (b->len > 0)
    {
      double *last = &g_array_index (b, double, b->len - 4);

      if (last[1] == y && last[3] == h && last[0] <= x && last[0] + last[2] >= x)
        {
          last[2] = MAX (last[0] + last[2], x + w) - last[0];
          return;
        }
    }
  {
    double r[4] = { x, y, w, h };

    g_array_append_vals (b, r, 4);
  }
}

static void
emit_text (SeismoTimelineRenderer *self,
           double                  x,
           double                  y,
           double                  max_width,
           const char             *text,
           guint                   color,
           gboolean                small)
{
  SeismoTextItem item = { x, y, max_width, g_string_chunk_insert (self->strings, text), color, small };

  g_array_append_val (self->texts, item);
}

static void
flush (SeismoTimelineRenderer *self,
       const SeismoCanvas     *canvas,
       gpointer                canvas_data)
{
  for (guint c = 0; c < C_N; c++)
    {
      GArray *b = self->buckets[c];

      if (b->len > 0)
        canvas->fill_rects (canvas_data, &self->palette[c], (const double *) b->data, b->len / 4);
      g_array_set_size (b, 0);
    }
  for (guint i = 0; i < self->texts->len; i++)
    {
      const SeismoTextItem *item = &g_array_index (self->texts, SeismoTextItem, i);
      PangoLayout *layout = _seismo_timeline_renderer_layout (self, item->text, item->small);

      if (item->max_width > 0)
        {
          pango_layout_set_width (layout, (int) (item->max_width * PANGO_SCALE));
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
        }
      canvas->text (canvas_data, item->x, item->y, layout, &self->palette[item->color]);
    }
  g_array_set_size (self->texts, 0);
}

/* The color of an item drawn as a box, when it is not the plain hue (a failed syscall). */
typedef gboolean     (*ItemAlertFunc) (SeismoTimelineRenderer *self,
                                       const SeismoSeq        *s,
                                       gsize                   i);
typedef const char * (*ItemLabelFunc) (SeismoTimelineRenderer *self,
                                       const SeismoSeq        *s,
                                       gsize                   i,
                                       int                    *width);

/*
 * Draws a sequence of intervals on one lane. Per pixel column, two galloping searches in the
 * contiguous start times say which items begin inside it. Two or more make a one-pixel summary in
 * the color of the middle one. One item (or one reaching in from the left) is drawn as a box, with
 * its label when it fits, and the walk jumps to the column where it ends. Empty stretches are
 * skipped to the next item's column. So a frame costs at most a few searches per column and row,
 * whatever the number of events; only items drawn as boxes are looked up in the trace.
 */
static void
draw_intervals (SeismoTimelineRenderer *self,
                const SeismoSeq        *s,
                double                  y,
                double                  h,
                guint                   base_color,
                guint                   dense_color,
                ItemAlertFunc           alert_of,
                ItemLabelFunc           label_of,
                double                  label_y)
{
  const SeismoTimelineData *d = self->data;
  const int x0 = SEISMO_TIMELINE_LABEL_WIDTH, x1 = self->width;
  gsize a = 0, last_box = G_MAXSIZE;
  guint64 last_end = 0;
  int x = x0;

  if (s->n == 0)
    return;
  while (x < x1)
    {
      guint64 ta = _seismo_timeline_x_to_abs (self, x);
      guint64 tb = _seismo_timeline_x_to_abs (self, x + 1);
      gsize b, i;

      a = _seismo_seq_lower_bound (d, s, ta, a);
      b = _seismo_seq_lower_bound (d, s, tb, a);
      if (b >= a + 2)
        {
          emit_rect (self, dense_color != G_MAXUINT ? dense_color
                                                    : base_color + _seismo_seq_hue (d, s, a + (b - a) / 2),
                     x, y, 1, h);
          x++;
          a = b;
          continue;
        }

      /* Does the item before reach into this column? */
      i = a;
      if (a > 0)
        {
          guint64 end = a - 1 == last_box ? last_end : _seismo_seq_end (d, s, a - 1);

          if (end > ta)
            i = a - 1;
        }
      if (i == b)
        {
          double xs;

          if (b >= s->n || (xs = _seismo_timeline_abs_to_x (self, _seismo_seq_start_at (d, s, b))) >= x1)
            break;
          x = MAX (x + 1, (int) floor (xs));
          continue;
        }
      if (b - i >= 2)
        {
          emit_rect (self, dense_color != G_MAXUINT ? dense_color
                                                    : base_color + _seismo_seq_hue (d, s, i + (b - i) / 2),
                     x, y, 1, h);
          x++;
          a = b;
          continue;
        }

      /* One item: a box from its start to its end. */
      {
        guint64 ei = i == last_box ? last_end : _seismo_seq_end (d, s, i);
        double xa = MAX (_seismo_timeline_abs_to_x (self, _seismo_seq_start_at (d, s, i)), x0);
        double xb = MIN (_seismo_timeline_abs_to_x (self, ei), x1);
        double left = floor (xa), right = MAX (ceil (xb), left + 1);

        if (i != last_box)
          {
            guint color = alert_of != NULL && alert_of (self, s, i) ? C_SYSCALL_ERROR
                                                                    : base_color + _seismo_seq_hue (d, s, i);

            emit_rect (self, color, left, y, right - left, h);
            if (label_of != NULL && right - left >= 24)
              {
                int w = 0;
                const char *label = label_of (self, s, i, &w);

                if (label != NULL && w + 6 <= right - left)
                  emit_text (self, left + 3, label_y, right - left - 6, label, C_TEXT_ON_BOX, TRUE);
              }
          }
        last_box = i;
        last_end = ei;
        x = MAX (x + 1, (int) floor (xb));
        a = b;
      }
    }
}

/* Instant events: one tick per column that holds any. */
static void
draw_instants (SeismoTimelineRenderer *self,
               const SeismoSeq        *s,
               double                  y,
               double                  h,
               guint                   color)
{
  const SeismoTimelineData *d = self->data;
  const int x0 = SEISMO_TIMELINE_LABEL_WIDTH, x1 = self->width;
  gsize a;
  int x = x0;

  a = _seismo_seq_lower_bound (d, s, _seismo_timeline_x_to_abs (self, x0), 0);
  while (a < s->n)
    {
      double xs = _seismo_timeline_abs_to_x (self, _seismo_seq_start_at (d, s, a));
      int col;

      if (xs >= x1)
        break;
      col = MAX (x, (int) floor (xs));
      emit_rect (self, color, col, y, 1, h);
      x = col + 1;
      a = _seismo_seq_lower_bound (d, s, _seismo_timeline_x_to_abs (self, x), a + 1);
    }
}

static const char *
run_label (SeismoTimelineRenderer *self,
           const SeismoSeq        *s,
           gsize                   i,
           int                    *width)
{
  SeismoTaskId task = s->intervals[i].task;
  const char *comm;

  if (task >= self->data->n_tasks)
    return NULL;
  comm = seismo_trace_get_string (self->data->trace, seismo_trace_get_task (self->data->trace, task)->comm);
  if (self->task_width[task] < 0)
    self->task_width[task] = (gint16) MIN (text_width (self, comm, TRUE), G_MAXINT16);
  *width = self->task_width[task];
  return comm;
}

static gboolean
span_failed (SeismoTimelineRenderer *self,
             const SeismoSeq        *s,
             gsize                   i)
{
  return _seismo_seq_alert (self->data, s, i);
}

static const char *
span_label (SeismoTimelineRenderer *self,
            const SeismoSeq        *s,
            gsize                   i,
            int                    *width)
{
  guint nr = self->data->spans[_seismo_seq_span (s, i)].syscall;
  const char *name = seismo_trace_get_syscall_name (self->data->trace, nr);

  if (name == NULL)
    return NULL;
  if (nr >= seismo_trace_get_n_syscall_names (self->data->trace))
    return NULL;
  if (self->syscall_width[nr] < 0)
    self->syscall_width[nr] = (gint16) MIN (text_width (self, name, TRUE), G_MAXINT16);
  *width = self->syscall_width[nr];
  return name;
}

static const char *
call_label (SeismoTimelineRenderer *self,
            const SeismoSeq        *s,
            gsize                   i,
            int                    *width)
{
  SeismoStringId func = s->calls[i].func;
  const char *name = seismo_trace_get_string (self->data->trace, func);
  gpointer cached;

  if (func == 0 || name == NULL)
    return NULL;
  if (self->func_width == NULL)
    self->func_width = g_hash_table_new (NULL, NULL);
  if (!g_hash_table_lookup_extended (self->func_width, GUINT_TO_POINTER (func), NULL, &cached))
    {
      cached = GINT_TO_POINTER (text_width (self, name, TRUE));
      g_hash_table_insert (self->func_width, GUINT_TO_POINTER (func), cached);
    }
  *width = GPOINTER_TO_INT (cached);
  return name;
}

static void
draw_lost (SeismoTimelineRenderer *self,
           int                     cpu,
           double                  y,
           double                  h)
{
  const SeismoTimelineData *d = self->data;
  guint64 t0 = _seismo_timeline_x_to_abs (self, SEISMO_TIMELINE_LABEL_WIDTH);
  guint lo = 0, hi = d->n_lost;
  int last = -1;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (d->lost[mid].time_ns < t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint k = lo; k < d->n_lost; k++)
    {
      double x = _seismo_timeline_abs_to_x (self, d->lost[k].time_ns);

      if (x >= self->width)
        break;
      if (d->lost[k].cpu != cpu || (int) x == last)
        continue;
      last = (int) x;
      emit_rect (self, C_LOST, floor (x) - 1, y, 3, h);
    }
}

static double
small_text_top (SeismoTimelineRenderer *self,
                double                  y,
                double                  h)
{
  int th;

  pango_layout_get_pixel_size (_seismo_timeline_renderer_layout (self, "Ag", TRUE), NULL, &th);
  return y + floor ((h - th) / 2);
}

static void
draw_row_content (SeismoTimelineRenderer  *self,
                  const SeismoTimelineRow *row,
                  double                   y,
                  double                   text_dy)
{
  const SeismoTimelineData *d = self->data;

  switch (row->kind)
    {
    case SEISMO_ROW_CPU:
      _seismo_timeline_renderer_draw_lod (self, row, y + 2, 17);
      draw_intervals (self, &d->cpu_runs[row->id], y + 2, 17, C_TASK, G_MAXUINT, NULL, run_label,
                      y + 2 + text_dy);
      draw_intervals (self, &d->cpu_irqs[row->id], y + 20, 3, C_IRQ, G_MAXUINT, NULL, NULL, 0);
      draw_lost (self, (int) row->id, y, row->height);
      break;
    case SEISMO_ROW_TASK:
      {
        const SeismoTimelineTask *tt = &d->tasks[row->id];

        _seismo_timeline_renderer_draw_lod (self, row, y + 2, 22);
        if (seismo_trace_has_states (d->trace))
          {
            /* The state lane on top, the syscalls as a second lane below it. */
            _seismo_timeline_renderer_draw_states (self, row->id, y + 2, 7);
            draw_intervals (self, &tt->spans, y + 10, 14, C_SYSCALL, C_SYSCALL_DENSE, span_failed,
                            span_label, y + 9 + text_dy);
          }
        else
          {
            draw_intervals (self, &tt->wakeups, y + 3, 2, C_WAKEUP, G_MAXUINT, NULL, NULL, 0);
            draw_intervals (self, &tt->runs, y + 2, 4, C_TASK, G_MAXUINT, NULL, NULL, 0);
            /* Many syscalls in a pixel are one gray: a column of hues would say nothing. */
            draw_intervals (self, &tt->spans, y + 8, 16, C_SYSCALL, C_SYSCALL_DENSE, span_failed,
                            span_label, y + 8 + text_dy);
          }
        draw_instants (self, &tt->instants, y + 25, 4, C_TICK);
        /* function_graph calls: one lane per nesting level, the outermost first. */
        for (guint l = 0; l < tt->n_call_levels; l++)
          {
            double ly = y + ROW_HEIGHT_TASK + l * ROW_HEIGHT_CALL;

            draw_intervals (self, &tt->calls[l], ly, ROW_HEIGHT_CALL - 1, C_SYSCALL, C_SYSCALL_DENSE,
                            NULL, call_label, small_text_top (self, ly, ROW_HEIGHT_CALL - 1));
          }
      }
      break;
    case SEISMO_ROW_PROCESS:
      _seismo_timeline_renderer_draw_lod (self, row, y + 7, 10);
      draw_intervals (self, &d->process_activity[row->id], y + 7, 10, C_TASK, G_MAXUINT, NULL, NULL, 0);
      break;
    case SEISMO_ROW_CPU_GROUP:
      draw_lost (self, -1, y, row->height);
      break;
    case SEISMO_ROW_RULER:
    case SEISMO_ROW_NONE:
    default:
      break;
    }
}

static void
draw_row_frame (SeismoTimelineRenderer  *self,
                const SeismoTimelineRow *row,
                double                   y)
{
  char buf[256];
  const char *label = _seismo_timeline_row_label (self, row, buf, sizeof buf);
  double indent = 8 + 14 * row->depth;
  gboolean group = row->kind == SEISMO_ROW_CPU_GROUP || row->kind == SEISMO_ROW_PROCESS;

  if (group)
    emit_rect (self, C_GROUP_BG, 0, y, self->width, row->height);
  if (self->hover_y >= y && self->hover_y < y + row->height)
    emit_rect (self, C_HOVER, 0, y, self->width, row->height);
  emit_rect (self, C_SEPARATOR, 0, y + row->height - 1, self->width, 1);
  if (row->pinned)
    emit_rect (self, C_PIN, 0, y, 3, row->height - 1);

  if (group)
    emit_text (self, indent, small_text_top (self, y, row->height),
               0, seismo_timeline_renderer_get_collapsed (self, (SeismoRowKey) { row->kind, row->id })
               ? "▸" : "▾", C_TEXT_DIM, TRUE);
  indent += 14;
  if (row->kind == SEISMO_ROW_TASK || row->kind == SEISMO_ROW_PROCESS)
    {
      SeismoTaskId task = row->kind == SEISMO_ROW_TASK ? row->id
                                                       : self->data->processes[row->id].main_task;

      emit_rect (self, C_TASK + self->data->tasks[task].color, indent, y + row->height / 2 - 4, 8, 8);
      indent += 12;
    }
  emit_text (self, indent, small_text_top (self, y, row->height) - 1,
             SEISMO_TIMELINE_LABEL_WIDTH - indent - 6, label,
             row->kind == SEISMO_ROW_CPU_GROUP ? C_TEXT_DIM : C_TEXT, FALSE);
}

static void
draw_rows (SeismoTimelineRenderer *self,
           const SeismoCanvas     *canvas,
           gpointer                canvas_data,
           GArray                 *rows,
           double                  top,
           double                  bottom,
           double                  offset)
{
  guint first = 0, lo = 0, hi = rows->len;
  double text_dy = small_text_top (self, 0, 16);

  /* The first row reaching into view. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const SeismoTimelineRow *row = &g_array_index (rows, SeismoTimelineRow, mid);

      if (top + row->y - offset + row->height <= top)
        lo = mid + 1;
      else
        hi = mid;
    }
  first = lo;

  canvas->push_clip (canvas_data, 0, top, self->width, bottom - top);
  for (guint i = first; i < rows->len; i++)
    {
      const SeismoTimelineRow *row = &g_array_index (rows, SeismoTimelineRow, i);
      double y = top + row->y - offset;

      if (y >= bottom)
        break;
      draw_row_frame (self, row, y);
    }
  flush (self, canvas, canvas_data);
  canvas->push_clip (canvas_data, SEISMO_TIMELINE_LABEL_WIDTH, top,
                     self->width - SEISMO_TIMELINE_LABEL_WIDTH, bottom - top);
  for (guint i = first; i < rows->len; i++)
    {
      const SeismoTimelineRow *row = &g_array_index (rows, SeismoTimelineRow, i);
      double y = top + row->y - offset;

      if (y >= bottom)
        break;
      draw_row_content (self, row, y, text_dy);
    }
  flush (self, canvas, canvas_data);
  canvas->pop_clip (canvas_data);
  canvas->pop_clip (canvas_data);
}

static double
nice_step (double min_ns)
{
  double p = pow (10, floor (log10 (MAX (min_ns, 1e-3))));

  for (guint k = 0; k < 3; k++)
    {
      static const double mult[] = { 1, 2, 5 };

      if (mult[k] * p >= min_ns)
        return mult[k] * p;
    }
  return 10 * p;
}

static void
draw_grid (SeismoTimelineRenderer *self,
           double                  step)
{
  double first = ceil (self->view_start / step) * step;

  for (double t = first;; t += step)
    {
      double x = SEISMO_TIMELINE_LABEL_WIDTH + floor ((t - self->view_start) / self->ns_per_px);

      if (x >= self->width)
        break;
      emit_rect (self, C_GRID, x, SEISMO_TIMELINE_RULER_HEIGHT, 1,
                 self->height - SEISMO_TIMELINE_RULER_HEIGHT);
    }
}

static void
draw_ruler (SeismoTimelineRenderer *self,
            double                  step)
{
  const double h = SEISMO_TIMELINE_RULER_HEIGHT;
  double minor = step / (fmod (step / pow (10, floor (log10 (step))), 2.0) == 0 ? 4 : 5);
  double first = floor (self->view_start / minor) * minor;
  int label_y = (int) small_text_top (self, 2, 16);
  /* A log without clocks (seismo-timing.h) is drawn in its order: no times on the ruler. */
  gboolean timed = self->data->trace == NULL || seismo_trace_has_timestamps (self->data->trace);

  emit_rect (self, C_RULER_BG, 0, 0, self->width, h);
  emit_rect (self, C_SEPARATOR, 0, h - 1, self->width, 1);
  for (double t = first;; t += minor)
    {
      double x = SEISMO_TIMELINE_LABEL_WIDTH + floor ((t - self->view_start) / self->ns_per_px);
      gboolean major = fabs (remainder (t, step)) < minor / 2;

      if (x >= self->width)
        break;
      if (x < SEISMO_TIMELINE_LABEL_WIDTH)
        continue;
      emit_rect (self, C_TEXT_DIM, x, major ? h - 12 : h - 5, 1, major ? 11 : 4);
      if (major && timed)
        {
          g_autofree char *label = seismo_format_time (round (t / minor) * minor, step);

          emit_text (self, x + 4, label_y, 0, label, C_TEXT_DIM, TRUE);
        }
    }

  /* The label column of the ruler tells the marker delta and the range. */
  emit_rect (self, C_RULER_BG, 0, 0, SEISMO_TIMELINE_LABEL_WIDTH, h - 1);
  emit_rect (self, C_SEPARATOR, SEISMO_TIMELINE_LABEL_WIDTH - 1, 0, 1, h);
  {
    g_autofree char *line1 = NULL;
    g_autofree char *line2 = NULL;

    if (self->has_marker[0] && self->has_marker[1])
      {
        g_autofree char *delta = seismo_format_duration ((double) self->marker[1]
                                                         - (double) self->marker[0]);

        /* TRANSLATORS: the time between markers A and B */
        line1 = g_strdup_printf (_("B − A: %s"), delta);
      }
    else if (self->has_marker[0])
      {
        g_autofree char *t = seismo_format_time ((double) self->marker[0] - (double) self->data->start_ns, 1);

        line1 = g_strdup_printf (_("A: %s"), t);
      }
    if (self->has_range)
      {
        g_autofree char *len = seismo_format_duration ((double) (self->range[1] - self->range[0]));

        line2 = g_strdup_printf (_("Range: %s"), len);
      }
    if (!timed)
      {
        g_clear_pointer (&line1, g_free);
        g_clear_pointer (&line2, g_free);
        line1 = g_strdup (_("No timing"));
        line2 = g_strdup (_("in the order of the log"));
      }
    if (line1 != NULL)
      emit_text (self, 8, 2, SEISMO_TIMELINE_LABEL_WIDTH - 12, line1, C_TEXT, TRUE);
    if (line2 != NULL)
      emit_text (self, 8, 18, SEISMO_TIMELINE_LABEL_WIDTH - 12, line2, C_TEXT_DIM, TRUE);
  }
}

static void
draw_overlays (SeismoTimelineRenderer *self,
               const SeismoCanvas     *canvas,
               gpointer                canvas_data)
{
  const double top = SEISMO_TIMELINE_RULER_HEIGHT;
  const double x0 = SEISMO_TIMELINE_LABEL_WIDTH;

  canvas->push_clip (canvas_data, x0, 0, self->width - x0, self->height);
  if (self->has_range)
    {
      double a = floor (_seismo_timeline_abs_to_x (self, self->range[0]));
      double b = MAX (ceil (_seismo_timeline_abs_to_x (self, self->range[1])), a + 1);

      a = MAX (a, x0 - 1);
      b = MIN (b, self->width + 1);
      if (b > a)
        {
          emit_rect (self, C_RANGE, a, 0, b - a, self->height);
          emit_rect (self, C_RANGE_EDGE, a, 0, 1, self->height);
          emit_rect (self, C_RANGE_EDGE, b - 1, 0, 1, self->height);
        }
    }
  for (guint m = 0; m < 2; m++)
    {
      double x;
      guint color = m == 0 ? C_MARKER_A : C_MARKER_B;

      if (!self->has_marker[m])
        continue;
      x = floor (_seismo_timeline_abs_to_x (self, self->marker[m]));
      if (x < x0 - 16 || x >= self->width)
        continue;
      emit_rect (self, color, x, top - 14, 1, self->height - top + 14);
      emit_rect (self, color, x, top - 16, 13, 13);
      emit_text (self, x + 3, top - 17, 0, m == 0 ? "A" : "B", C_ON_ACCENT, TRUE);
    }
  flush (self, canvas, canvas_data);
  _seismo_timeline_renderer_draw_wait_chain (self, canvas, canvas_data);
  _seismo_timeline_renderer_draw_notes (self, canvas, canvas_data);

  if (self->selected != SEISMO_NO_EVENT)
    {
      double x = floor (_seismo_timeline_abs_to_x (self, self->data->ts[self->selected])) + 0.5;

      if (x >= x0 && x < self->width)
        {
          cairo_t *cr = canvas->begin_cairo (canvas_data, x - 6, 0, 12, self->height);
          const SeismoColor *c = &self->palette[C_SELECTED];
          static const double dash[] = { 4, 3 };

          cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
          cairo_set_line_width (cr, 1);
          cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
          cairo_move_to (cr, x, top);
          cairo_line_to (cr, x, self->height);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          cairo_move_to (cr, x - 5, top - 6);
          cairo_line_to (cr, x + 5, top - 6);
          cairo_line_to (cr, x, top);
          cairo_close_path (cr);
          cairo_fill (cr);
          canvas->end_cairo (canvas_data, cr);
        }
    }
  canvas->pop_clip (canvas_data);
}

/* The base layer: background and grid, the scrolled rows, the pinned rows, the ruler. */
static void
draw_base (SeismoTimelineRenderer *self,
           const SeismoCanvas     *canvas,
           gpointer                canvas_data)
{
  double step, rows_top;

  _seismo_timeline_renderer_layout_rows (self);
  g_string_chunk_clear (self->strings);
  if (self->syscall_width == NULL)
    {
      guint n = seismo_trace_get_n_syscall_names (self->data->trace);

      self->syscall_width = g_new (gint16, MAX (n, 1));
      memset (self->syscall_width, 0xff, sizeof (gint16) * MAX (n, 1));
    }
  step = nice_step (110 * self->ns_per_px);
  rows_top = _seismo_timeline_renderer_rows_top (self);

  emit_rect (self, C_BG, 0, 0, self->width, self->height);
  emit_rect (self, C_LABEL_BG, 0, 0, SEISMO_TIMELINE_LABEL_WIDTH, self->height);
  draw_grid (self, step);
  emit_rect (self, C_SEPARATOR, SEISMO_TIMELINE_LABEL_WIDTH - 1, 0, 1, self->height);
  flush (self, canvas, canvas_data);

  draw_rows (self, canvas, canvas_data, self->rows, rows_top, self->height, self->scroll_y);
  if (self->pinned_rows->len > 0)
    {
      draw_rows (self, canvas, canvas_data, self->pinned_rows, SEISMO_TIMELINE_RULER_HEIGHT,
                 rows_top, 0);
      emit_rect (self, C_SEPARATOR, 0, rows_top - 2, self->width, 2);
    }
  emit_rect (self, C_SEPARATOR, SEISMO_TIMELINE_LABEL_WIDTH - 1, 0, 1, self->height);
  draw_ruler (self, step);
  flush (self, canvas, canvas_data);
}

/**
 * seismo_timeline_renderer_draw:
 * @canvas: where rectangles, text and paths go
 * @canvas_data: passed to the canvas functions
 *
 * Draws one frame: background and grid, the scrolled rows, the pinned rows, the ruler, then the
 * range, markers and selected event on top.
 */
void
seismo_timeline_renderer_draw (SeismoTimelineRenderer *self,
                               const SeismoCanvas     *canvas,
                               gpointer                canvas_data)
{
  g_return_if_fail (self != NULL && canvas != NULL);

  draw_base (self, canvas, canvas_data);
  draw_overlays (self, canvas, canvas_data);
}

/* Which of rows, drawn from top and scrolled by offset as draw_rows() draws them, is lit under
 * the pointer: its index, or -1. */
static int
hovered_row (SeismoTimelineRenderer *self,
             GArray                 *rows,
             double                  top,
             double                  offset)
{
  guint lo = 0, hi = rows->len;
  const SeismoTimelineRow *row;
  double y;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      row = &g_array_index (rows, SeismoTimelineRow, mid);
      if (top + row->y - offset + row->height <= self->hover_y)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == rows->len)
    return -1;
  row = &g_array_index (rows, SeismoTimelineRow, lo);
  y = top + row->y - offset;
  return self->hover_y >= y && self->hover_y < y + row->height ? (int) lo : -1;
}

/**
 * seismo_timeline_renderer_get_base_key:
 *
 * Fills key with what the base layer is drawn from; two equal keys draw the same base.
 */
void
seismo_timeline_renderer_get_base_key (SeismoTimelineRenderer *self,
                                       SeismoTimelineBaseKey  *key)
{
  g_return_if_fail (self != NULL && key != NULL);

  /* Rows laid out now count: their layout bumps the serial. */
  _seismo_timeline_renderer_layout_rows (self);
  memset (key, 0, sizeof *key);
  key->renderer = self->id;
  key->serial = self->base_serial;
  key->pango_serial = self->pango != NULL ? pango_context_get_serial (self->pango) : 0;
  key->width = self->width;
  key->height = self->height;
  key->dark = self->dark;
  key->view_start = self->view_start;
  key->ns_per_px = self->ns_per_px;
  key->scroll_y = self->scroll_y;
  /* The row under the pointer is lit: a pointer moving within a row keeps the base. */
  key->hover_row = hovered_row (self, self->rows, _seismo_timeline_renderer_rows_top (self), self->scroll_y);
  key->hover_pinned = hovered_row (self, self->pinned_rows, SEISMO_TIMELINE_RULER_HEIGHT, 0);
  /* The ruler's label column tells the markers' delta and the range. */
  for (guint m = 0; m < 2; m++)
    {
      key->has_marker[m] = self->has_marker[m];
      key->marker[m] = self->has_marker[m] ? self->marker[m] : 0;
    }
  key->has_range = self->has_range;
  key->range[0] = self->has_range ? self->range[0] : 0;
  key->range[1] = self->has_range ? self->range[1] : 0;
}

gboolean
seismo_timeline_base_key_equal (const SeismoTimelineBaseKey *a,
                                const SeismoTimelineBaseKey *b)
{
  return a->renderer == b->renderer && a->serial == b->serial && a->pango_serial == b->pango_serial
         && a->width == b->width && a->height == b->height && a->dark == b->dark
         && a->view_start == b->view_start && a->ns_per_px == b->ns_per_px
         && a->scroll_y == b->scroll_y && a->hover_row == b->hover_row
         && a->hover_pinned == b->hover_pinned
         && a->has_marker[0] == b->has_marker[0] && a->has_marker[1] == b->has_marker[1]
         && a->marker[0] == b->marker[0] && a->marker[1] == b->marker[1]
         && a->has_range == b->has_range && a->range[0] == b->range[0] && a->range[1] == b->range[1];
}

/*
 * The Cairo canvas. On an image surface with an integer translation, opaque rectangles are
 * written straight into the pixels: a zoomed-out frame is tens of thousands of one-pixel columns,
 * and Cairo's per-rectangle cost would then be most of the frame. Everything else goes through
 * Cairo. The canvas keeps its own clip stack for the direct writes.
 */
#define MAX_CLIPS 8

typedef struct {
  cairo_t *cr;
  guint8  *pixels;     /* NULL: draw everything with Cairo */
  int      stride;
  int      dx;
  int      dy;
  int      n_clips;
  int      clips[MAX_CLIPS][4];   /* x0, y0, x1, y1 in surface pixels */
} CairoCanvas;

static void
cairo_fill_rects (gpointer           data,
                  const SeismoColor *color,
                  const double      *r,
                  guint              n)
{
  CairoCanvas *c = data;
  cairo_t *cr = c->cr;

  if (c->pixels != NULL && color->alpha >= 1.0f)
    {
      const int *clip = c->clips[c->n_clips - 1];
      /* Rounded as Cairo rounds a source color (16 bits, then the top 8), so these pixels are
       * the ones Cairo, and GSK's Cairo renderer in the window, would have drawn. */
      guint32 value = 0xff000000u | ((((guint32) (color->red * 65535.0 + 0.5)) >> 8) << 16)
                      | ((((guint32) (color->green * 65535.0 + 0.5)) >> 8) << 8)
                      | (((guint32) (color->blue * 65535.0 + 0.5)) >> 8);

      cairo_surface_flush (cairo_get_target (cr));
      for (guint i = 0; i < n; i++)
        {
          /* Rectangles are on whole pixels (the renderer floors them). */
          int x0 = MAX ((int) floor (r[4 * i]) + c->dx, clip[0]);
          int y0 = MAX ((int) floor (r[4 * i + 1]) + c->dy, clip[1]);
          int x1 = MIN ((int) ceil (r[4 * i] + r[4 * i + 2]) + c->dx, clip[2]);
          int y1 = MIN ((int) ceil (r[4 * i + 1] + r[4 * i + 3]) + c->dy, clip[3]);

          for (int y = y0; y < y1; y++)
            {
              guint32 *row = (guint32 *) (c->pixels + (gsize) y * c->stride);

              for (int x = x0; x < x1; x++)
                row[x] = value;
            }
        }
      cairo_surface_mark_dirty (cairo_get_target (cr));
      return;
    }
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
  for (guint i = 0; i < n; i++)
    {
      cairo_rectangle (cr, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
      /* Translucent rectangles that overlap blend once each, as the window's color nodes do;
       * one path would cover their union once. */
      if (color->alpha < 1.0f)
        cairo_fill (cr);
    }
  cairo_fill (cr);
}

static void
cairo_text (gpointer           data,
            double             x,
            double             y,
            PangoLayout       *layout,
            const SeismoColor *color)
{
  cairo_t *cr = ((CairoCanvas *) data)->cr;

  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static cairo_t *
cairo_begin (gpointer data,
             double   x,
             double   y,
             double   width,
             double   height)
{
  cairo_t *cr = ((CairoCanvas *) data)->cr;

  cairo_save (cr);
  return cr;
}

static void
cairo_end (gpointer data,
           cairo_t *cr)
{
  cairo_restore (cr);
}

static void
cairo_push_clip (gpointer data,
                 double   x,
                 double   y,
                 double   width,
                 double   height)
{
  CairoCanvas *c = data;

  cairo_save (c->cr);
  cairo_rectangle (c->cr, x, y, width, height);
  cairo_clip (c->cr);
  if (c->pixels != NULL)
    {
      int *parent = c->clips[c->n_clips - 1];
      int *clip;

      /* Deeper than the renderer ever goes: draw the rest with Cairo. */
      if (c->n_clips == MAX_CLIPS)
        {
          c->pixels = NULL;
          return;
        }
      clip = c->clips[c->n_clips++];
      clip[0] = MAX (parent[0], (int) floor (x) + c->dx);
      clip[1] = MAX (parent[1], (int) floor (y) + c->dy);
      clip[2] = MIN (parent[2], (int) ceil (x + width) + c->dx);
      clip[3] = MIN (parent[3], (int) ceil (y + height) + c->dy);
    }
}

static void
cairo_pop_clip (gpointer data)
{
  CairoCanvas *c = data;

  cairo_restore (c->cr);
  if (c->pixels != NULL && c->n_clips > 1)
    c->n_clips--;
}

static const SeismoCanvas cairo_canvas = {
  cairo_fill_rects,
  cairo_text,
  cairo_begin,
  cairo_end,
  cairo_push_clip,
  cairo_pop_clip,
};

/* Direct pixel writes are safe on a 32-bit image surface under an integer translation, with a
 * clip that is one rectangle. */
static void
cairo_canvas_init (CairoCanvas *c,
                   cairo_t     *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_matrix_t m;
  cairo_rectangle_list_t *clips;
  double dx, dy;

  memset (c, 0, sizeof *c);
  c->cr = cr;
  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE
      || (cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32
          && cairo_image_surface_get_format (target) != CAIRO_FORMAT_RGB24))
    return;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_offset (target, &dx, &dy);
  if (m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || m.x0 + dx != floor (m.x0 + dx)
      || m.y0 + dy != floor (m.y0 + dy))
    return;
  clips = cairo_copy_clip_rectangle_list (cr);
  if (clips->status != CAIRO_STATUS_SUCCESS || clips->num_rectangles > 1)
    {
      cairo_rectangle_list_destroy (clips);
      return;
    }
  c->dx = (int) (m.x0 + dx);
  c->dy = (int) (m.y0 + dy);
  c->clips[0][0] = 0;
  c->clips[0][1] = 0;
  c->clips[0][2] = cairo_image_surface_get_width (target);
  c->clips[0][3] = cairo_image_surface_get_height (target);
  if (clips->num_rectangles == 1)
    {
      /* The clip list is in user space. */
      const cairo_rectangle_t *r = &clips->rectangles[0];

      c->clips[0][0] = MAX (0, (int) ceil (r->x) + c->dx);
      c->clips[0][1] = MAX (0, (int) ceil (r->y) + c->dy);
      c->clips[0][2] = MIN (c->clips[0][2], (int) floor (r->x + r->width) + c->dx);
      c->clips[0][3] = MIN (c->clips[0][3], (int) floor (r->y + r->height) + c->dy);
    }
  cairo_rectangle_list_destroy (clips);
  c->n_clips = 1;
  cairo_surface_flush (target);
  c->pixels = cairo_image_surface_get_data (target);
  c->stride = cairo_image_surface_get_stride (target);
}

typedef void (*DrawLayers) (SeismoTimelineRenderer *self,
                            const SeismoCanvas     *canvas,
                            gpointer                canvas_data);

/* Layers drawn with the Cairo canvas, without antialiasing (whole-pixel boxes). */
static void
draw_with_cairo (SeismoTimelineRenderer *self,
                 cairo_t                *cr,
                 DrawLayers              draw_layers)
{
  CairoCanvas canvas;

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_canvas_init (&canvas, cr);
  draw_layers (self, &cairo_canvas, &canvas);
  cairo_restore (cr);
}

/**
 * seismo_timeline_renderer_draw_cairo:
 * @cr: a Cairo context whose origin is the timeline's top left corner
 *
 * Draws the frame with Cairo, e.g. onto an image surface.
 */
void
seismo_timeline_renderer_draw_cairo (SeismoTimelineRenderer *self,
                                     cairo_t                *cr)
{
  g_return_if_fail (self != NULL && cr != NULL);
  draw_with_cairo (self, cr, seismo_timeline_renderer_draw);
}

/* The base layer alone (see SeismoTimelineBaseKey). */
void
seismo_timeline_renderer_draw_base_cairo (SeismoTimelineRenderer *self,
                                          cairo_t                *cr)
{
  g_return_if_fail (self != NULL && cr != NULL);
  draw_with_cairo (self, cr, draw_base);
}

/* The overlays alone, over a base drawn before. */
void
seismo_timeline_renderer_draw_overlays_cairo (SeismoTimelineRenderer *self,
                                              cairo_t                *cr)
{
  g_return_if_fail (self != NULL && cr != NULL);
  _seismo_timeline_renderer_layout_rows (self);
  g_string_chunk_clear (self->strings);
  draw_with_cairo (self, cr, draw_overlays);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib.h>

/* Sets a 0xRRGGBB color with alpha as the source: the panes keep their palettes as packed RGB. */
static inline void
seismo_cairo_set_rgb (cairo_t *cr,
                      guint32  rgb,
                      double   alpha)
{
  cairo_set_source_rgba (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                         (rgb & 0xff) / 255.0, alpha);
}

/* The ARGB32 pixel Cairo writes for seismo_cairo_set_rgb (cr, rgb, alpha) filled over a clear
 * pixel: its 16-bit premultiplied channels, rounded (cairo-color.c), of which pixman keeps the
 * top 8. test-timeline-render checks every channel value at several alphas. */
static inline guint32
seismo_cairo_rgb_pixel (guint32 rgb,
                        double  alpha)
{
  guint32 a = (guint32) (alpha * 65535.0 + 0.5) >> 8;
  guint32 r = (guint32) (((rgb >> 16) & 0xff) / 255.0 * alpha * 65535.0 + 0.5) >> 8;
  guint32 g = (guint32) (((rgb >> 8) & 0xff) / 255.0 * alpha * 65535.0 + 0.5) >> 8;
  guint32 b = (guint32) ((rgb & 0xff) / 255.0 * alpha * 65535.0 + 0.5) >> 8;

  return a << 24 | r << 16 | g << 8 | b;
}

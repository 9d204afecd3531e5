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

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "seismo-timeline-export.h"
#include "seismo-window.h"

G_BEGIN_DECLS

/*
 * The Export dialog (window menu → Export Figure…): the timeline (current view, selected range or
 * whole trace, chosen rows, title, legend) as PNG, SVG or PDF at a chosen size and scale; or the
 * histogram or statistics pane as PNG, SVG or CSV. The timeline is drawn by the window's own
 * renderer code (seismo-timeline-export.h), so a PNG of the current view at the window's size
 * is the window's drawing, pixel for pixel.
 */

#define SEISMO_TYPE_EXPORT_DIALOG (seismo_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SeismoExportDialog, seismo_export_dialog, SEISMO, EXPORT_DIALOG, AdwWindow)

typedef enum {
  SEISMO_EXPORT_SPAN_VIEW,    /* what the timeline shows */
  SEISMO_EXPORT_SPAN_RANGE,   /* the selected range (the view when there is none) */
  SEISMO_EXPORT_SPAN_WHOLE,   /* the whole trace */
} SeismoExportSpan;

typedef enum {
  SEISMO_EXPORT_CONTENT_TIMELINE,
  SEISMO_EXPORT_CONTENT_HISTOGRAM,
  SEISMO_EXPORT_CONTENT_STATS,
  SEISMO_EXPORT_CONTENT_FLAME_GRAPH,
} SeismoExportContent;

GtkWidget *seismo_export_dialog_new       (SeismoWindow                      *window);

/*
 * What Export does, without the dialog. rows: a row specification
 * (seismo_timeline_export_select_rows()) or NULL/"" for the rows as shown. options->width 0
 * takes the timeline's width; height 0 makes room for every row. Errors name path.
 */
gboolean   seismo_export_timeline_figure  (SeismoTimeline                    *timeline,
                                           SeismoExportSpan                   span,
                                           const char                        *rows,
                                           const SeismoTimelineExportOptions *options,
                                           const char                        *path,
                                           GError                           **error);
/* A pane of the window (HISTOGRAM or STATS) as PNG, SVG or (csv TRUE) CSV; width × height in
 * pixels (points for SVG), scale for PNG. FLAME_GRAPH: the graph as shown (zoom, search) as PNG,
 * SVG or PDF, width wide and as tall as its rows. */
gboolean   seismo_export_pane             (SeismoWindow                      *window,
                                           SeismoExportContent                content,
                                           SeismoImageFormat                  format,
                                           gboolean                           csv,
                                           int                                width,
                                           int                                height,
                                           double                             scale,
                                           const char                        *path,
                                           GError                           **error);

G_END_DECLS

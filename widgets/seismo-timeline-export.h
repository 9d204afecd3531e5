/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-timeline-notes.h"
#include "seismo-timeline-renderer.h"

G_BEGIN_DECLS

/*
 * The timeline as a figure for a slide or a paper: SVG, PDF or PNG, drawn by the same renderer as
 * the window (seismo_timeline_renderer_draw_cairo() on a Cairo surface), with an optional title
 * above and a legend of the task colors and symbols below. Used by the export dialog and
 * `seismo-cli render`. GTK-free: it only needs Cairo and Pango.
 */

#define SEISMO_TIMELINE_EXPORT_ERROR (seismo_timeline_export_error_quark ())

typedef enum {
  SEISMO_TIMELINE_EXPORT_ERROR_FORMAT,   /* an unknown file extension */
  SEISMO_TIMELINE_EXPORT_ERROR_ROWS,     /* a row specification that is wrong or selects nothing */
  SEISMO_TIMELINE_EXPORT_ERROR_SIZE,     /* a size or scale out of range */
  SEISMO_TIMELINE_EXPORT_ERROR_CAIRO,    /* Cairo could not draw or write */
} SeismoTimelineExportError;

typedef enum {
  SEISMO_IMAGE_FORMAT_PNG,
  SEISMO_IMAGE_FORMAT_SVG,
  SEISMO_IMAGE_FORMAT_PDF,
} SeismoImageFormat;

/* Limits that keep a PNG within what Cairo can allocate. */
#define SEISMO_TIMELINE_EXPORT_MIN_WIDTH  (SEISMO_TIMELINE_LABEL_WIDTH + 100)
#define SEISMO_TIMELINE_EXPORT_MAX_SIZE   16000
#define SEISMO_TIMELINE_EXPORT_MAX_SCALE  8.0

typedef struct {
  SeismoImageFormat format;
  int               width;     /* of the figure in CSS pixels (SVG/PDF: points) */
  int               height;    /* of the timeline part; 0: every shown row */
  double            scale;     /* PNG pixels per CSS pixel; SVG/PDF: a zoom of the page */
  const char       *title;     /* NULL: none */
  gboolean          legend;
} SeismoTimelineExportOptions;

GQuark   seismo_timeline_export_error_quark  (void);

/* From the extension of path (.png, .svg, .pdf, any case). */
gboolean seismo_image_format_from_path       (const char                        *path,
                                              SeismoImageFormat                 *format,
                                              GError                           **error);
const char *seismo_image_format_extension    (SeismoImageFormat                  format);

/*
 * Makes dst show what src shows: the same time range (kept when the widths differ), markers,
 * range, selected event, notes, dark style and row states (hidden, pinned, collapsed, order).
 * Both must draw the same SeismoTimelineData.
 */
void     seismo_timeline_export_copy_view    (SeismoTimelineRenderer            *dst,
                                              SeismoTimelineRenderer            *src);

/*
 * Shows only the rows that spec selects: a comma-separated list of
 *   all             every row (the default view)
 *   cpus            the CPU group and all CPUs
 *   cpuN, cpu:N     CPU N
 *   tasks           every process and task
 *   task:TID        the task with that thread id
 *   pid:PID         the process with that pid, all its threads
 *   comm:GLOB       tasks whose command name matches GLOB (* and ?)
 * An unknown term, or one that selects no row of this trace, is an error and leaves the rows as
 * they were.
 */
gboolean seismo_timeline_export_select_rows  (SeismoTimelineRenderer            *renderer,
                                              const char                        *spec,
                                              GError                           **error);

/*
 * Sizes the renderer for the figure (options->width; height from the options or the rows) and
 * returns the figure's size in CSS pixels, title and legend included. Call before drawing.
 */
void     seismo_timeline_export_layout       (SeismoTimelineRenderer            *renderer,
                                              const SeismoTimelineExportOptions *options,
                                              int                               *width,
                                              int                               *height);
/* Draws the figure laid out by seismo_timeline_export_layout() at cr's origin (CSS pixels). */
void     seismo_timeline_export_draw         (SeismoTimelineRenderer            *renderer,
                                              const SeismoTimelineExportOptions *options,
                                              cairo_t                           *cr);
/* Lays out, draws and writes the figure to path atomically. */
gboolean seismo_timeline_export_to_file      (SeismoTimelineRenderer            *renderer,
                                              const SeismoTimelineExportOptions *options,
                                              const char                        *path,
                                              GError                           **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-filter-overlay.h"

G_BEGIN_DECLS

/* Appends to xs (double) the left edge of each 2-px mark of a CPU row (is_task FALSE) or a task
 * row in the pixel range [x0, x1) of r's view, left to right (as _seismo_filter_marks_row()). */
typedef void (*SeismoRowMarksFunc) (gpointer                data,
                                    SeismoTimelineRenderer *r,
                                    gboolean                is_task,
                                    guint                   row,
                                    double                  x0,
                                    double                  x1,
                                    GArray                 *xs);

/* What the overlay draws, in widget's coordinates, over timeline showing trace: a veil of
 * veil_alpha over the rows, and on each CPU, process (its tasks') and task row shown the marks
 * row_marks gives (xs: a GArray of double to reuse). The benchmark draws through it with another
 * index. FALSE, drawing nothing, when the timeline shows no data of trace; else the timeline's
 * size as drawn in width and height. */
gboolean _seismo_filter_overlay_draw (GtkWidget          *widget,
                                      GtkSnapshot        *snapshot,
                                      SeismoTimeline     *timeline,
                                      SeismoTrace        *trace,
                                      double              veil_alpha,
                                      SeismoRowMarksFunc  row_marks,
                                      gpointer            data,
                                      GArray             *xs,
                                      double             *width,
                                      double             *height);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-timeline-renderer.h"
#include "seismo-view.h"

G_BEGIN_DECLS

/* Between a renderer's hidden and pinned rows and notes and a view's, which name rows by ids that
 * outlive the renderer (CPU number, pid, tid). Rows of the view this trace does not have are
 * left out. */
/* The hidden and pinned rows (SeismoViewRow, pinned in pin order) into the arrays, and back. */
void seismo_timeline_renderer_get_rows        (SeismoTimelineRenderer *renderer,
                                               GArray                 *hidden,
                                               GArray                 *pinned);
void seismo_timeline_renderer_set_rows        (SeismoTimelineRenderer *renderer,
                                               const SeismoViewRow    *hidden,
                                               guint                   n_hidden,
                                               const SeismoViewRow    *pinned,
                                               guint                   n_pinned);
void seismo_timeline_renderer_rows_to_view    (SeismoTimelineRenderer *renderer,
                                               SeismoView             *view);
void seismo_timeline_renderer_rows_from_view  (SeismoTimelineRenderer *renderer,
                                               SeismoView             *view);
void seismo_timeline_renderer_notes_to_view   (SeismoTimelineRenderer *renderer,
                                               SeismoView             *view);
void seismo_timeline_renderer_notes_from_view (SeismoTimelineRenderer *renderer,
                                               SeismoView             *view);

G_END_DECLS

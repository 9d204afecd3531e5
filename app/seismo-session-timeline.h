/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-session.h"
#include "seismo-timeline-renderer.h"

G_BEGIN_DECLS

/* Between a session and a timeline renderer: zoom range, markers, range, rows, selected event
 * and notes. (Filter text and panes belong to the window.) */

/* Applies what fits this trace: rows that no longer exist and out-of-range events are skipped.
 * with_view FALSE leaves the visible range alone. */
void seismo_session_apply_to_renderer   (const SeismoSession    *session,
                                         SeismoTimelineRenderer *renderer,
                                         gboolean                with_view);
/* Replaces the session's view, markers, range, rows, selected event and notes with the
 * renderer's. */
void seismo_session_update_from_renderer (SeismoSession         *session,
                                          SeismoTimelineRenderer *renderer);

G_END_DECLS

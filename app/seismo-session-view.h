/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-session.h"
#include "seismo-view.h"

G_BEGIN_DECLS

/* Between a session and a view: filter text, markers, range, selected event, hidden and pinned
 * rows, notes and the open pane. (The zoom is the timeline renderer's:
 * seismo-session-timeline.h.) */

/* Applies what fits the view's trace: an event past its end is not selected; a filter that does
 * not compile is left out. */
void seismo_session_apply_to_view    (const SeismoSession *session,
                                      SeismoView          *view);
/* Replaces the session's filter, markers, range, selected event, rows, notes and panes with the
 * view's. */
void seismo_session_update_from_view (SeismoSession       *session,
                                      SeismoView          *view);

G_END_DECLS

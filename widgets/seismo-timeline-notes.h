/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-timeline-renderer.h"

G_BEGIN_DECLS

/*
 * Notes attached to times (a session's annotations): the renderer draws each as a flag at the top
 * of the rows with its text and a dashed line down through them, in the window and in exports.
 */
typedef struct {
  guint64  time_ns;   /* absolute, like markers */
  char    *text;
} SeismoTimelineNote;

/* Replaces the notes with copies of notes[0..n_notes). */
void                      seismo_timeline_renderer_set_notes (SeismoTimelineRenderer   *self,
                                                              const SeismoTimelineNote *notes,
                                                              guint                     n_notes);
/* Borrowed; NULL when there are none. */
const SeismoTimelineNote *seismo_timeline_renderer_get_notes (SeismoTimelineRenderer   *self,
                                                              guint                    *n_notes);

G_END_DECLS

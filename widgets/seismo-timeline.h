/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-timeline-renderer.h"
#include "seismo-view.h"

G_BEGIN_DECLS

#define SEISMO_TYPE_TIMELINE (seismo_timeline_get_type ())
G_DECLARE_FINAL_TYPE (SeismoTimeline, seismo_timeline, SEISMO, TIMELINE, GtkWidget)

GtkWidget              *seismo_timeline_new                (void);
/* Shows prepared data (NULL: nothing). The view is kept when the data is of the same trace
 * recording grown further. */
void                    seismo_timeline_set_data           (SeismoTimeline     *self,
                                                            SeismoTimelineData *data);
/* Borrowed; NULL when nothing is shown. */
SeismoTimelineData     *seismo_timeline_get_data           (SeismoTimeline     *self);
SeismoTimelineRenderer *seismo_timeline_get_renderer       (SeismoTimeline     *self);
/* The view the timeline writes its markers, range, selection and visible span to, and follows
 * when they are set there; NULL: none. */
SeismoView             *seismo_timeline_get_view           (SeismoTimeline     *self);
void                    seismo_timeline_set_view           (SeismoTimeline     *self,
                                                            SeismoView         *view);

/* SEISMO_NO_EVENT when none. Selecting brings the event's time and row into view. */
guint                   seismo_timeline_get_selected_event (SeismoTimeline     *self);
void                    seismo_timeline_set_selected_event (SeismoTimeline     *self,
                                                            guint               event);
/* "A +1.2 s · B +1.5 s · B − A 300 ms": the markers and range, for a status line. */
const char             *seismo_timeline_get_markers_text   (SeismoTimeline     *self);
gboolean                seismo_timeline_get_has_range      (SeismoTimeline     *self);

void                    seismo_timeline_zoom_in            (SeismoTimeline     *self);
void                    seismo_timeline_zoom_out           (SeismoTimeline     *self);
void                    seismo_timeline_zoom_fit           (SeismoTimeline     *self);
void                    seismo_timeline_zoom_range         (SeismoTimeline     *self);
void                    seismo_timeline_set_marker         (SeismoTimeline     *self,
                                                            guint               which,
                                                            guint64             time_ns);
void                    seismo_timeline_clear_markers      (SeismoTimeline     *self);
/* Presenter mode: larger, higher contrast, thick markers and selection. */
gboolean                seismo_timeline_get_presenter      (SeismoTimeline     *self);
void                    seismo_timeline_set_presenter      (SeismoTimeline     *self,
                                                            gboolean            presenter);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-timeline-data.h"

G_BEGIN_DECLS

/*
 * SeismoEventDetails: every field of one event with symbolic names, and for a syscall its other
 * half and duration. Emits ::event-activated when the user asks to go to a related event.
 */
#define SEISMO_TYPE_EVENT_DETAILS (seismo_event_details_get_type ())
G_DECLARE_FINAL_TYPE (SeismoEventDetails, seismo_event_details, SEISMO, EVENT_DETAILS, GtkWidget)

GtkWidget *seismo_event_details_new       (void);
void       seismo_event_details_set_data  (SeismoEventDetails *self,
                                           SeismoTimelineData *data);
void       seismo_event_details_set_event (SeismoEventDetails *self,
                                           guint               event);
guint      seismo_event_details_get_event (SeismoEventDetails *self);

G_END_DECLS

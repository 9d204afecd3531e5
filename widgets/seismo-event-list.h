/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-event-list-model.h"
#include "seismo-view.h"

G_BEGIN_DECLS

#define SEISMO_TYPE_EVENT_LIST (seismo_event_list_get_type ())
G_DECLARE_FINAL_TYPE (SeismoEventList, seismo_event_list, SEISMO, EVENT_LIST, GtkWidget)

GtkWidget            *seismo_event_list_new                (void);
/* Follows view: lists its filter result (the first matches while it is evaluated) and selects
 * its selected event, and writes the user's selection to it. NULL: follows nothing. */
SeismoView           *seismo_event_list_get_view           (SeismoEventList *self);
void                  seismo_event_list_set_view           (SeismoEventList *self,
                                                            SeismoView      *view);
/* Lists every event of trace (NULL: nothing). */
void                  seismo_event_list_set_trace          (SeismoEventList *self,
                                                            SeismoTrace     *trace);
/* Lists only these events (a set over the trace's events, as SeismoFilterBar's matches; held, not
 * copied); NULL lists them all. The selected event stays selected (by id) when it is listed.
 * Unchanged content is a no-op. */
void                  seismo_event_list_set_subset         (SeismoEventList *self,
                                                            SeismoMatchSet  *matches);
/* Borrowed; NULL without a trace. A new subset is a new model: fetch it again after one. */
SeismoEventListModel *seismo_event_list_get_model          (SeismoEventList *self);
/* SEISMO_NO_EVENT when none. Selecting scrolls the row into view. */
guint                 seismo_event_list_get_selected_event (SeismoEventList *self);
void                  seismo_event_list_set_selected_event (SeismoEventList *self,
                                                            guint            event);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-match-set.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoEventItem: one row of the event list, made in get_item() only for the rows on screen.
 * Its properties format the event's columns when read.
 */
#define SEISMO_TYPE_EVENT_ITEM (seismo_event_item_get_type ())
G_DECLARE_FINAL_TYPE (SeismoEventItem, seismo_event_item, SEISMO, EVENT_ITEM, GObject)

/* Borrowed. */
SeismoTrace   *seismo_event_item_get_trace (SeismoEventItem *self);
SeismoEventId  seismo_event_item_get_event (SeismoEventItem *self);
/* Where its model lists it now; G_MAXUINT when it does not any more. */
guint          seismo_event_item_get_position (SeismoEventItem *self);

/*
 * SeismoEventListModel: a GListModel of a trace's events in time order (or of a given subset),
 * holding no object per event.
 */
#define SEISMO_TYPE_EVENT_LIST_MODEL (seismo_event_list_model_get_type ())
G_DECLARE_FINAL_TYPE (SeismoEventListModel, seismo_event_list_model, SEISMO, EVENT_LIST_MODEL, GObject)

SeismoEventListModel *seismo_event_list_model_new           (SeismoTrace          *trace);
/* Shows only these events (ascending ids, made into a set); NULL shows all again. */
void                  seismo_event_list_model_set_subset    (SeismoEventListModel *self,
                                                             const SeismoEventId  *events,
                                                             gsize                 n_events);
/* The same, sharing a set of the trace's events by reference: row k is its k-th member. */
void                  seismo_event_list_model_set_subset_set (SeismoEventListModel *self,
                                                              SeismoMatchSet       *subset);
void                  seismo_event_list_model_replace_subset (SeismoEventListModel *self,
                                                              SeismoMatchSet       *subset,
                                                              guint                 anchor_from,
                                                              guint                 anchor_to);
/* Borrowed. */
SeismoTrace          *seismo_event_list_model_get_trace     (SeismoEventListModel *self);
SeismoEventId         seismo_event_list_model_get_event     (SeismoEventListModel *self,
                                                             guint                 position);
/* The position showing event, or the nearest following one; G_MAXUINT when there is none. */
guint                 seismo_event_list_model_find_event    (SeismoEventListModel *self,
                                                             SeismoEventId         event);

/* Where event is in subset (NULL: every event of a trace of n_events): its position, or the next
 * listed one's; the size of the subset when none follows. */
gsize                 seismo_event_list_subset_position     (SeismoMatchSet       *subset,
                                                             gsize                 n_events,
                                                             SeismoEventId         event);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-filter.h"
#include "seismo-match-set.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoView: what the user is looking at in one window, as notifying properties that widgets
 * bind to and sessions save: the trace; the filter text, evaluated on a worker (cancelled when
 * the text changes again; ::partial-result brings the first matches while the rest is
 * evaluated) and its result; the selected event (by id); markers A and B and the selected time
 * range; the visible span; hidden and pinned rows; notes; the open pane. Setting a value equal to the current one changes
 * nothing and notifies nobody.
 *
 * Times are absolute ns; a marker or range that is unset reads as -1.
 */
#define SEISMO_TYPE_VIEW (seismo_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoView, seismo_view, SEISMO, VIEW, GObject)

SeismoView   *seismo_view_new                (void);

/* Borrowed; NULL when none. A new trace (also a live recording that grew) is filtered again
 * with the filter text in force. */
SeismoTrace  *seismo_view_get_trace          (SeismoView    *self);
void          seismo_view_set_trace          (SeismoView    *self,
                                              SeismoTrace   *trace);

/* The expression in force or being evaluated; "" when none. */
const char   *seismo_view_get_filter_text    (SeismoView    *self);
/* Compiles text and evaluates it on a worker. An invalid expression returns FALSE with error
 * (SEISMO_FILTER_ERROR, with its column) and keeps the filter in force. Without a trace the
 * text is kept and evaluated when one comes. "" clears the filter. */
gboolean      seismo_view_set_filter_text    (SeismoView    *self,
                                              const char    *text,
                                              GError       **error);
/* A set of events computed elsewhere (a histogram bucket): mask holds
 * seismo_filter_mask_words (n_events) words; label describes it. Clears the filter text. */
void          seismo_view_set_filter_mask    (SeismoView    *self,
                                              GBytes        *mask,
                                              const char    *label);
/* Stops a running evaluation; the result in force stays. */
void          seismo_view_cancel_filter      (SeismoView    *self);
/* TRUE while a filter is being evaluated; progress in [0, 1] then. */
gboolean      seismo_view_get_filter_busy    (SeismoView    *self);
double        seismo_view_get_filter_progress (SeismoView   *self);

/* The result in force. Borrowed; NULL when no filter is applied (every event shown). */
GBytes       *seismo_view_get_mask           (SeismoView    *self);
/* The matching events, a set over the mask (no array of ids: 4 bytes a match). Borrowed; NULL
 * when no filter is applied. */
SeismoMatchSet *seismo_view_get_matches      (SeismoView    *self);
gsize         seismo_view_get_n_matched      (SeismoView    *self);
/* The expression (or mask label) of the result in force; "" when none. */
const char   *seismo_view_get_applied        (SeismoView    *self);
/* Dim non-matching events instead of hiding them. */
gboolean      seismo_view_get_dim            (SeismoView    *self);
void          seismo_view_set_dim            (SeismoView    *self,
                                              gboolean       dim);

/* SEISMO_NO_EVENT when none. */
guint         seismo_view_get_selected_event (SeismoView    *self);
void          seismo_view_set_selected_event (SeismoView    *self,
                                              guint          event);

/* which: 0 for A, 1 for B. */
gboolean      seismo_view_get_marker         (SeismoView    *self,
                                              guint          which,
                                              guint64       *time_ns);
void          seismo_view_set_marker         (SeismoView    *self,
                                              guint          which,
                                              guint64        time_ns);
void          seismo_view_clear_marker       (SeismoView    *self,
                                              guint          which);
gboolean      seismo_view_get_range          (SeismoView    *self,
                                              guint64       *start_ns,
                                              guint64       *end_ns);
void          seismo_view_set_range          (SeismoView    *self,
                                              guint64        start_ns,
                                              guint64        end_ns);
void          seismo_view_clear_range        (SeismoView    *self);
/* The span statistics count: the range, else the span between markers A and B, else
 * [0, G_MAXUINT64]. */
void          seismo_view_get_count_span     (SeismoView    *self,
                                              guint64       *start_ns,
                                              guint64       *end_ns);

/* The visible time span, as the timeline last showed it (absolute ns). */
void          seismo_view_get_visible_span   (SeismoView    *self,
                                              guint64       *start_ns,
                                              guint64       *end_ns);
void          seismo_view_set_visible_span   (SeismoView    *self,
                                              guint64        start_ns,
                                              guint64        end_ns);

/* Timeline rows by ids that outlive a reload (a live trace that grew, a session). */
typedef enum {
  SEISMO_VIEW_ROW_CPUS,      /* the CPU group */
  SEISMO_VIEW_ROW_CPU,       /* id: CPU number */
  SEISMO_VIEW_ROW_PROCESS,   /* id: pid */
  SEISMO_VIEW_ROW_TASK,      /* id: tid */
} SeismoViewRowKind;

typedef struct {
  SeismoViewRowKind kind;
  gint64            id;
} SeismoViewRow;

typedef struct {
  guint64  time_ns;          /* absolute, like markers */
  char    *text;
} SeismoViewNote;

/* Hidden rows, and pinned rows in pin order. Borrowed; NULL when there are none. */
const SeismoViewRow  *seismo_view_get_hidden_rows (SeismoView          *self,
                                                   guint               *n_rows);
const SeismoViewRow  *seismo_view_get_pinned_rows (SeismoView          *self,
                                                   guint               *n_rows);
/* Replaces both (copied); ::rows-changed when they differ. */
void                  seismo_view_set_rows        (SeismoView          *self,
                                                   const SeismoViewRow *hidden,
                                                   guint                n_hidden,
                                                   const SeismoViewRow *pinned,
                                                   guint                n_pinned);
/* Notes attached to times, in the order given. Borrowed; NULL when there are none. */
const SeismoViewNote *seismo_view_get_notes       (SeismoView          *self,
                                                   guint               *n_notes);
/* Replaces the notes with copies; ::notes-changed when they differ. */
void                  seismo_view_set_notes       (SeismoView          *self,
                                                   const SeismoViewNote *notes,
                                                   guint                n_notes);

/* A widget that follows a view connects these (swapped: the handler gets the widget first). */
typedef struct {
  const char *signal;
  GCallback   handler;
} SeismoViewHandler;

/* Points *slot (a widget's own reference) at view: the old view's handlers for instance are
 * disconnected and its reference dropped, then handlers are connected to view, swapped to
 * instance. FALSE, doing nothing, when *slot is view already; TRUE otherwise, also for NULL. */
gboolean      seismo_view_connect            (SeismoView              **slot,
                                              SeismoView               *view,
                                              gpointer                  instance,
                                              const SeismoViewHandler  *handlers,
                                              guint                     n_handlers);

/* The analysis pane shown ("details", "histogram", "stats", …). */
const char   *seismo_view_get_pane           (SeismoView    *self);
void          seismo_view_set_pane           (SeismoView    *self,
                                              const char    *pane);

G_END_DECLS

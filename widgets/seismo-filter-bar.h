/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-filter.h"
#include "seismo-view.h"

G_BEGIN_DECLS

/*
 * SeismoFilterBar: the filter entry above the timeline. It highlights the expression as it is
 * typed, marks the column of an error with a message, completes field names, event names and
 * values seen in the trace, keeps a history (Up/Down, and the history menu) in
 * $XDG_STATE_HOME/seismo/filter-history. It edits a SeismoView's filter text (applied as it is
 * typed, after a short pause, and on Enter) and shows the view's progress and result; the view
 * evaluates. ::applied is emitted when the view's result changed.
 */
#define SEISMO_TYPE_FILTER_BAR (seismo_filter_bar_get_type ())
G_DECLARE_FINAL_TYPE (SeismoFilterBar, seismo_filter_bar, SEISMO, FILTER_BAR, GtkWidget)

GtkWidget  *seismo_filter_bar_new            (void);
/* The view whose filter the bar edits; a bar has a view of its own until given one. */
SeismoView *seismo_filter_bar_get_view       (SeismoFilterBar *self);
void        seismo_filter_bar_set_view       (SeismoFilterBar *self,
                                              SeismoView      *view);
/* Sets the view's trace (NULL: none); the view filters it again with its filter text. */
void        seismo_filter_bar_set_trace      (SeismoFilterBar *self,
                                              SeismoTrace     *trace);
/* Sets the text and applies it as Enter does. An invalid expression shows its error and keeps
 * the previous result; returns FALSE then. */
gboolean    seismo_filter_bar_apply          (SeismoFilterBar *self,
                                              const char      *expression);
/* Applies a set of events computed elsewhere (a histogram bucket). mask holds
 * seismo_filter_mask_words (n_events) words; label describes it in the bar. */
void        seismo_filter_bar_apply_mask     (SeismoFilterBar *self,
                                              GBytes          *mask,
                                              const char      *label);
void        seismo_filter_bar_clear          (SeismoFilterBar *self);
/* Borrowed; NULL when no filter is applied (every event shown). */
GBytes     *seismo_filter_bar_get_mask       (SeismoFilterBar *self);
/* The matching events (borrowed); NULL when no filter is applied. */
SeismoMatchSet *seismo_filter_bar_get_matches (SeismoFilterBar *self);
gsize       seismo_filter_bar_get_n_matched  (SeismoFilterBar *self);
/* The expression (or mask label) applied; "" when none. */
const char *seismo_filter_bar_get_applied    (SeismoFilterBar *self);
/* The expression last applied, also while it is still being evaluated; "" when none. */
const char *seismo_filter_bar_get_requested  (SeismoFilterBar *self);
/* Dim non-matching events instead of hiding them. */
gboolean    seismo_filter_bar_get_dim        (SeismoFilterBar *self);
void        seismo_filter_bar_set_dim        (SeismoFilterBar *self,
                                              gboolean         dim);
/* TRUE while a filter is being evaluated. */
gboolean    seismo_filter_bar_get_busy       (SeismoFilterBar *self);
/* Newest first; borrowed. */
const char *const *seismo_filter_bar_get_history (SeismoFilterBar *self);
/* Grabs the keyboard focus into the entry. */
void        seismo_filter_bar_focus          (SeismoFilterBar *self);

G_END_DECLS

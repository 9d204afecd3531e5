/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoExplainView: "Explain this" for the selected event. It shows what seismo-explain knows
 * about the event (the syscall or tracepoint, its arguments or fields, the errno of a failed
 * return, the scheduler state letters), each with a link to its man page.
 */
#define SEISMO_TYPE_EXPLAIN_VIEW (seismo_explain_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoExplainView, seismo_explain_view, SEISMO, EXPLAIN_VIEW, GtkWidget)

GtkWidget *seismo_explain_view_new       (void);
/* Explains one event of trace (SEISMO_NO_EVENT or a NULL trace: nothing). */
void       seismo_explain_view_set_event (SeismoExplainView *self,
                                          SeismoTrace       *trace,
                                          guint              event);
/* The titles of the event's explanations ("openat(2)", "ENOENT (2)"), shown or, while the view is
 * hidden, to be shown; for tests. Caller owns. */
GStrv      seismo_explain_view_dup_titles (SeismoExplainView *self);

G_END_DECLS

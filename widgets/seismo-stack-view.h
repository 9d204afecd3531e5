/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-stacks.h"

G_BEGIN_DECLS

/*
 * SeismoStackView: the call stack of one event, innermost frame first, as the details pane shows
 * it: function, file:line and module, kernel and user frames told apart, inlined calls marked.
 * Each frame has a button that activates "win.filter-stack-frame" with the frame id ("u"): the
 * window then keeps the events whose stack contains that frame. Hidden when the event has none.
 */
#define SEISMO_TYPE_STACK_VIEW (seismo_stack_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoStackView, seismo_stack_view, SEISMO, STACK_VIEW, GtkWidget)

GtkWidget    *seismo_stack_view_new       (void);
/* Shows the stack of event (SEISMO_NO_STACK hides the view). trace is referenced. */
void          seismo_stack_view_set_stack (SeismoStackView *self,
                                           SeismoTrace     *trace,
                                           SeismoStackId    stack);
SeismoStackId seismo_stack_view_get_stack (SeismoStackView *self);
/* The frame rows shown, for tests: a GtkListBox. */
GtkWidget    *seismo_stack_view_get_list  (SeismoStackView *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-explain-view.h"
#include "seismo-lesson-view.h"
#include "seismo-window.h"

G_BEGIN_DECLS

/* Teaching in the window (seismo-window-teach.c): lessons, explain this, the observer-effect
 * dialog, presenter mode. The window calls these from class_init, init and dispose. */
void               _seismo_window_class_init_teach (GtkWidgetClass *widget_class);
void               _seismo_window_init_teach       (SeismoWindow   *self);
void               _seismo_window_dispose_teach    (SeismoWindow   *self);

void               _seismo_window_set_presenter    (SeismoWindow   *self,
                                                    gboolean        presenter);
gboolean           _seismo_window_get_presenter    (SeismoWindow   *self);
/* TRUE while a lesson step waits to be applied (its sample loading, the panel sliding out). */
gboolean           _seismo_window_lesson_is_pending (SeismoWindow  *self);
/* Borrowed; for tests. */
SeismoLessonView  *_seismo_window_get_lesson_view  (SeismoWindow   *self);
SeismoExplainView *_seismo_window_get_explain_view (SeismoWindow   *self);

G_END_DECLS

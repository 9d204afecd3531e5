/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-lesson.h"

G_BEGIN_DECLS

/*
 * SeismoLessonView: the Lessons side panel. It lists the lessons, then shows one step at a time
 * (title, text, the filter it uses, a question whose answer is revealed on demand) with Previous
 * and Next. It only shows: ::step-activated tells the window to apply the step's actions.
 */
#define SEISMO_TYPE_LESSON_VIEW (seismo_lesson_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoLessonView, seismo_lesson_view, SEISMO, LESSON_VIEW, GtkWidget)

GtkWidget          *seismo_lesson_view_new          (void);
/* The lessons to list (a GPtrArray of SeismoLesson; a reference is taken). */
void                seismo_lesson_view_set_lessons  (SeismoLessonView *self,
                                                     GPtrArray        *lessons);
/* Shows a step of the lesson with this id and emits ::step-activated. FALSE when no lesson has
 * this id or the step is out of range. */
gboolean            seismo_lesson_view_open         (SeismoLessonView *self,
                                                     const char       *id,
                                                     guint             step);
/* Back to the list. */
void                seismo_lesson_view_close        (SeismoLessonView *self);
/* Borrowed; NULL when the list is shown. */
const SeismoLesson *seismo_lesson_view_get_lesson   (SeismoLessonView *self);
guint               seismo_lesson_view_get_step     (SeismoLessonView *self);
gboolean            seismo_lesson_view_next         (SeismoLessonView *self);
gboolean            seismo_lesson_view_previous     (SeismoLessonView *self);
/* A message under the step when its actions could not be applied; NULL hides it. */
void                seismo_lesson_view_set_problem  (SeismoLessonView *self,
                                                     const char       *message);
/* The message shown, or NULL. Borrowed. */
const char         *seismo_lesson_view_get_problem  (SeismoLessonView *self);

G_END_DECLS

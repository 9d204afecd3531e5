/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-lesson.h"

G_BEGIN_DECLS

/* seismo_lesson_step_resolve() that also says which key failed ("Filter", "MarkerA"...), for
 * seismo_lesson_check()'s line numbers. */
gboolean _seismo_lesson_step_resolve (const SeismoLesson   *self,
                                      guint                 step,
                                      SeismoTrace          *trace,
                                      SeismoLessonTargets  *targets,
                                      const char          **failed_key,
                                      GError              **error);

G_END_DECLS

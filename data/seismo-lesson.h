/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * Lessons: a short guided text that goes with one sample trace. Each lesson is a key file
 * (app/resources/lessons/NAME.lesson.desktop.in, merged with the translations into NAME.lesson
 * at build time, so texts come back through g_key_file_get_locale_string()):
 *
 *   [Lesson]
 *   Title=Hello, syscalls            translatable
 *   Summary=…                        translatable
 *   Sample=hello-syscalls.seismo     the trace: beside the lesson first, else a bundled sample
 *   Order=1                          place in the list
 *
 *   [Step 1]                         steps are [Step N], N = 1, 2, 3… without gaps
 *   Title=…  Text=…  Question=…  Answer=…    translatable; only Text is required
 *   Zoom=all | EXPR                  the whole trace, or the time the matching events cover
 *   ZoomCount=N                      …only the first N matches of EXPR
 *   Filter=EXPR                      filter the window's views ("" clears the filter)
 *   MarkerA=EXPR  MarkerB=EXPR       markers at the first match (B: the first at or after A)
 *   Select=EXPR                      select the first match (at or after marker A when set)
 *
 * EXPR is the filter language (docs/filter-language.md), resolved against the trace when the
 * step is shown: the lessons stay right when a sample is recorded again.
 */

typedef struct {
  char  *title;        /* NULL when none */
  char  *text;         /* never NULL */
  char  *question;     /* NULL when none */
  char  *answer;       /* NULL when none */
  char  *zoom;         /* "all", an expression, or NULL (leave the view) */
  guint  zoom_count;   /* 0: every match */
  char  *filter;       /* NULL: leave the filter; "": clear it */
  char  *marker_a;     /* expressions, NULL when the step sets no marker */
  char  *marker_b;
  char  *select;
} SeismoLessonStep;

typedef struct {
  char              *id;        /* the file name without ".lesson" */
  char              *path;
  char              *title;
  char              *summary;   /* NULL when none */
  char              *sample;    /* "hello-syscalls.seismo" */
  int                order;
  SeismoLessonStep  *steps;
  guint              n_steps;
} SeismoLesson;

/* Where a step's actions land in a trace: absolute times, event ids. */
typedef struct {
  gboolean       zoom_all;
  gboolean       has_zoom;      /* zoom_start_ns .. zoom_end_ns */
  guint64        zoom_start_ns;
  guint64        zoom_end_ns;
  gboolean       has_marker[2];
  guint64        marker_ns[2];
  SeismoEventId  select;        /* SEISMO_NO_EVENT when the step selects nothing */
  const char    *filter;        /* borrowed from the step; NULL: leave the filter */
} SeismoLessonTargets;

#define SEISMO_TYPE_LESSON (seismo_lesson_get_type ())
GType         seismo_lesson_get_type      (void) G_GNUC_CONST;

/* Reads one lesson file. Returns a new lesson, or NULL with error naming the file and what is
 * wrong (a missing key, a step without text, a gap in the step numbers). */
SeismoLesson *seismo_lesson_new_from_file (const char             *path,
                                           GError                **error);
SeismoLesson *seismo_lesson_copy          (const SeismoLesson     *self);
void          seismo_lesson_free          (SeismoLesson           *self);

/* Every *.lesson of a folder, by Order then id. Files that do not parse are skipped with a
 * warning. Returns a new GPtrArray owning its lessons (empty when the folder is missing). */
GPtrArray    *seismo_lesson_load_dir      (const char             *dir);

/* The folders lessons are read from, first first: $SEISMO_LESSONS_DIR alone when it is set
 * (`meson devenv` and the tests set it), else $XDG_DATA_HOME/seismo/lessons, DIR/seismo/lessons
 * for each of $XDG_DATA_DIRS, and PKGDATADIR/lessons. Free with g_strfreev(). */
char        **seismo_lesson_get_dirs      (void);

/* The lessons of every folder of seismo_lesson_get_dirs(), by Order then id; of lessons with the
 * same file name, the one of the first folder (a teacher's copy hides the installed one). */
GPtrArray    *seismo_lesson_load_all      (void);

/* The lesson's sample trace: Sample= relative to the lesson's folder first (a lesson can bring
 * its own trace), then its file name in samples_dir (may be NULL). NULL when neither exists. */
char         *seismo_lesson_find_sample   (const SeismoLesson     *self,
                                           const char             *samples_dir);

/* Checks a lesson file as its author writes it: each problem as "FILE:LINE: what is wrong"
 * (syntax, unknown groups and keys, missing keys, step numbering, numbers), then, when trace is
 * given, each step's expressions resolved against it. Returns the problems (empty: none). */
GPtrArray    *seismo_lesson_check         (const char             *path,
                                           SeismoTrace            *trace);

/* Resolves a step's expressions against a trace. FALSE with error (step number, key, expression
 * and why) when an expression does not compile or matches nothing. */
gboolean      seismo_lesson_step_resolve  (const SeismoLesson     *self,
                                           guint                   step,
                                           SeismoTrace            *trace,
                                           SeismoLessonTargets    *targets,
                                           GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoLesson, seismo_lesson_free)

G_END_DECLS

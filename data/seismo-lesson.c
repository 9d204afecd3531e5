/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-error.h"
#include "seismo-filter.h"
#include "seismo-lesson.h"
#include "seismo-lesson-private.h"

#define LESSON_GROUP "Lesson"
#define LESSON_SUFFIX ".lesson"

G_DEFINE_BOXED_TYPE (SeismoLesson, seismo_lesson, seismo_lesson_copy, seismo_lesson_free)

static void
step_clear (SeismoLessonStep *step)
{
  g_free (step->title);
  g_free (step->text);
  g_free (step->question);
  g_free (step->answer);
  g_free (step->zoom);
  g_free (step->filter);
  g_free (step->marker_a);
  g_free (step->marker_b);
  g_free (step->select);
}

void
seismo_lesson_free (SeismoLesson *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_steps; i++)
    step_clear (&self->steps[i]);
  g_free (self->steps);
  g_free (self->id);
  g_free (self->path);
  g_free (self->title);
  g_free (self->summary);
  g_free (self->sample);
  g_free (self);
}

SeismoLesson *
seismo_lesson_copy (const SeismoLesson *self)
{
  SeismoLesson *copy;

  g_return_val_if_fail (self != NULL, NULL);
  copy = g_new0 (SeismoLesson, 1);
  copy->id = g_strdup (self->id);
  copy->path = g_strdup (self->path);
  copy->title = g_strdup (self->title);
  copy->summary = g_strdup (self->summary);
  copy->sample = g_strdup (self->sample);
  copy->order = self->order;
  copy->n_steps = self->n_steps;
  copy->steps = g_new0 (SeismoLessonStep, MAX (self->n_steps, 1));
  for (guint i = 0; i < self->n_steps; i++)
    {
      const SeismoLessonStep *s = &self->steps[i];
      SeismoLessonStep *d = &copy->steps[i];

      d->title = g_strdup (s->title);
      d->text = g_strdup (s->text);
      d->question = g_strdup (s->question);
      d->answer = g_strdup (s->answer);
      d->zoom = g_strdup (s->zoom);
      d->zoom_count = s->zoom_count;
      d->filter = g_strdup (s->filter);
      d->marker_a = g_strdup (s->marker_a);
      d->marker_b = g_strdup (s->marker_b);
      d->select = g_strdup (s->select);
    }
  return copy;
}

/* A translated string that may be missing; "" counts as missing. */
static char *
get_text (GKeyFile   *kf,
          const char *group,
          const char *key)
{
  char *s = g_key_file_get_locale_string (kf, group, key, NULL, NULL);

  if (s != NULL && *g_strstrip (s) == '\0')
    g_clear_pointer (&s, g_free);
  return s;
}

/* A plain string that may be missing; unlike get_text(), "" is kept (Filter= clears). */
static char *
get_plain (GKeyFile   *kf,
           const char *group,
           const char *key)
{
  char *s = g_key_file_get_string (kf, group, key, NULL);

  return s != NULL ? g_strstrip (s) : NULL;
}

static const char *const step_keys[] = {
  "Title", "Text", "Question", "Answer", "Zoom", "ZoomCount", "Filter", "MarkerA", "MarkerB",
  "Select", NULL
};

static gboolean
is_step_key (const char *key)
{
  g_autofree char *base = g_strdup (key);
  char *bracket = strchr (base, '[');

  /* Title[de] is the German Title. */
  if (bracket != NULL)
    *bracket = '\0';
  return g_strv_contains (step_keys, base);
}

static gboolean
read_step (GKeyFile          *kf,
           const char        *group,
           SeismoLessonStep  *step,
           GError           **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (kf, group, NULL, NULL);

  /* A misspelt key would silently do nothing: say so instead. */
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    if (!is_step_key (keys[i]))
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("[%s]: unknown key “%s”"), group,
                     keys[i]);
        return FALSE;
      }
  step->title = get_text (kf, group, "Title");
  step->text = get_text (kf, group, "Text");
  step->question = get_text (kf, group, "Question");
  step->answer = get_text (kf, group, "Answer");
  step->zoom = get_plain (kf, group, "Zoom");
  step->filter = get_plain (kf, group, "Filter");
  step->marker_a = get_plain (kf, group, "MarkerA");
  step->marker_b = get_plain (kf, group, "MarkerB");
  step->select = get_plain (kf, group, "Select");
  if (g_key_file_has_key (kf, group, "ZoomCount", NULL))
    {
      g_autoptr(GError) local = NULL;
      int n = g_key_file_get_integer (kf, group, "ZoomCount", &local);

      if (local != NULL || n < 1)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("[%s]: ZoomCount must be a number of 1 or more"), group);
          return FALSE;
        }
      step->zoom_count = n;
    }
  if (step->text == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("[%s]: the step has no Text"), group);
      return FALSE;
    }
  if (step->zoom != NULL && step->zoom[0] == '\0')
    g_clear_pointer (&step->zoom, g_free);
  return TRUE;
}

SeismoLesson *
seismo_lesson_new_from_file (const char  *path,
                             GError     **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(SeismoLesson) lesson = NULL;
  g_auto(GStrv) groups = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *base = NULL;
  g_autofree char *contents = NULL;
  const char *bad = NULL;
  gsize length = 0;
  guint n_steps = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, "%s: %s", path, local->message);
      return NULL;
    }
  /* GKeyFile lets group names through unchecked: refuse what is not text before any of it can
   * reach a message. */
  if (!g_utf8_validate (contents, (gssize) length, &bad))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("%s: byte %zu is not UTF-8 text"), path, (gsize) (bad - contents));
      return NULL;
    }
  if (!g_key_file_load_from_data (kf, contents, length, G_KEY_FILE_NONE, &local))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, "%s: %s", path, local->message);
      return NULL;
    }
  lesson = g_new0 (SeismoLesson, 1);
  base = g_path_get_basename (path);
  if (g_str_has_suffix (base, LESSON_SUFFIX))
    base[strlen (base) - strlen (LESSON_SUFFIX)] = '\0';
  lesson->id = g_steal_pointer (&base);
  lesson->path = g_strdup (path);
  lesson->title = get_text (kf, LESSON_GROUP, "Title");
  lesson->summary = get_text (kf, LESSON_GROUP, "Summary");
  lesson->sample = get_plain (kf, LESSON_GROUP, "Sample");
  lesson->order = g_key_file_get_integer (kf, LESSON_GROUP, "Order", NULL);
  if (lesson->title == NULL || lesson->sample == NULL || lesson->sample[0] == '\0')
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                   _("%s: [Lesson] needs a Title and a Sample"), path);
      return NULL;
    }

  /* Steps are numbered from 1 without gaps; any other group is a mistake worth reporting. */
  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      guint64 n;

      if (g_str_equal (groups[i], LESSON_GROUP))
        continue;
      if (!g_str_has_prefix (groups[i], "Step ")
          || !g_ascii_string_to_unsigned (groups[i] + 5, 10, 1, 1000, &n, NULL))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("%s: unknown group [%s]"), path,
                       groups[i]);
          return NULL;
        }
      n_steps++;
    }
  if (n_steps == 0)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("%s: the lesson has no [Step 1]"), path);
      return NULL;
    }
  lesson->steps = g_new0 (SeismoLessonStep, n_steps);
  for (guint i = 0; i < n_steps; i++)
    {
      g_autofree char *group = g_strdup_printf ("Step %u", i + 1);

      if (!g_key_file_has_group (kf, group))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("%s: [%s] is missing (steps are numbered 1, 2, 3… without gaps)"), path, group);
          return NULL;
        }
      lesson->n_steps = i + 1;
      if (!read_step (kf, group, &lesson->steps[i], &local))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, "%s: %s", path, local->message);
          return NULL;
        }
    }
  return g_steal_pointer (&lesson);
}

static int
compare_lessons (gconstpointer a,
                 gconstpointer b)
{
  const SeismoLesson *x = *(SeismoLesson *const *) a;
  const SeismoLesson *y = *(SeismoLesson *const *) b;

  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  return strcmp (x->id, y->id);
}

GPtrArray *
seismo_lesson_load_dir (const char *dir)
{
  GPtrArray *lessons = g_ptr_array_new_with_free_func ((GDestroyNotify) seismo_lesson_free);
  g_autoptr(GDir) d = NULL;
  const char *name;

  g_return_val_if_fail (dir != NULL, lessons);
  if ((d = g_dir_open (dir, 0, NULL)) == NULL)
    return lessons;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(GError) error = NULL;
      SeismoLesson *lesson;

      if (!g_str_has_suffix (name, LESSON_SUFFIX))
        continue;
      path = g_build_filename (dir, name, NULL);
      if ((lesson = seismo_lesson_new_from_file (path, &error)) == NULL)
        g_warning ("Skipping a lesson: %s", error->message);
      else
        g_ptr_array_add (lessons, lesson);
    }
  g_ptr_array_sort (lessons, compare_lessons);
  return lessons;
}

char **
seismo_lesson_get_dirs (void)
{
  const char *env = g_getenv ("SEISMO_LESSONS_DIR");
  const char *const *system = g_get_system_data_dirs ();
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);

  if (env != NULL && env[0] != '\0')
    {
      g_strv_builder_add (b, env);
      return g_strv_builder_end (b);
    }
  g_ptr_array_add (seen, g_build_filename (g_get_user_data_dir (), "seismo", "lessons", NULL));
  for (guint i = 0; system[i] != NULL; i++)
    g_ptr_array_add (seen, g_build_filename (system[i], "seismo", "lessons", NULL));
  /* The installed lessons also when the prefix is not in $XDG_DATA_DIRS (/opt/seismo). */
  g_ptr_array_add (seen, g_build_filename (PKGDATADIR, "lessons", NULL));
  for (guint i = 0; i < seen->len; i++)
    {
      gboolean dup = FALSE;

      for (guint k = 0; k < i && !dup; k++)
        dup = g_str_equal (seen->pdata[k], seen->pdata[i]);
      if (!dup)
        g_strv_builder_add (b, seen->pdata[i]);
    }
  return g_strv_builder_end (b);
}

GPtrArray *
seismo_lesson_load_all (void)
{
  g_auto(GStrv) dirs = seismo_lesson_get_dirs ();
  GPtrArray *lessons = g_ptr_array_new_with_free_func ((GDestroyNotify) seismo_lesson_free);
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  /* The first folder that has a lesson of a given name wins: a teacher's copy in
   * $XDG_DATA_HOME replaces the installed one. */
  for (guint d = 0; dirs[d] != NULL; d++)
    {
      g_autoptr(GPtrArray) found = seismo_lesson_load_dir (dirs[d]);

      for (guint i = 0; i < found->len; i++)
        {
          SeismoLesson *lesson = found->pdata[i];

          if (g_hash_table_contains (ids, lesson->id))
            continue;
          found->pdata[i] = NULL;
          g_ptr_array_add (lessons, lesson);
          g_hash_table_add (ids, lesson->id);
        }
    }
  g_ptr_array_sort (lessons, compare_lessons);
  return lessons;
}

char *
seismo_lesson_find_sample (const SeismoLesson *self,
                           const char         *samples_dir)
{
  g_autofree char *lesson_dir = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (g_path_is_absolute (self->sample))
    return g_file_test (self->sample, G_FILE_TEST_IS_REGULAR | G_FILE_TEST_IS_DIR)
           ? g_strdup (self->sample) : NULL;
  /* Beside the lesson first: a teacher ships a lesson and its trace together. */
  lesson_dir = g_path_get_dirname (self->path);
  beside = g_build_filename (lesson_dir, self->sample, NULL);
  if (g_file_test (beside, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&beside);
  base = g_path_get_basename (self->sample);
  if (samples_dir != NULL)
    {
      g_autofree char *installed = g_build_filename (samples_dir, base, NULL);

      if (g_file_test (installed, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&installed);
    }
  return NULL;
}

/* Resolving */

typedef struct {
  guint64 *mask;
  gsize    n_words;
} Matches;

static gboolean
run_expression (SeismoTrace  *trace,
                const char   *expression,
                Matches      *out,
                GError      **error)
{
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, expression, error);
  gsize n_matched = 0;

  if (filter == NULL)
    return FALSE;
  out->mask = seismo_filter_run (filter, &n_matched, NULL);
  out->n_words = seismo_filter_mask_words (seismo_trace_get_n_events (trace));
  if (n_matched == 0)
    {
      g_clear_pointer (&out->mask, g_free);
      g_set_error_literal (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT, _("no event matches"));
      return FALSE;
    }
  return TRUE;
}

/* The first match at or after event `from`; n_events when none. */
static SeismoEventId
next_match (const Matches *m,
            SeismoEventId  from,
            SeismoEventId  n_events)
{
  for (SeismoEventId e = from; e < n_events; )
    {
      guint64 word = m->mask[e / 64] >> (e % 64);

      if (word != 0)
        return MIN (e + (SeismoEventId) __builtin_ctzll (word), n_events);
      e = (e / 64 + 1) * 64;
    }
  return n_events;
}

static SeismoEventId
first_match (SeismoTrace  *trace,
             const char   *expression,
             guint64       from_ns,
             GError      **error)
{
  Matches m = { 0 };
  SeismoEventId n = seismo_trace_get_n_events (trace);
  SeismoEventId e;

  if (!run_expression (trace, expression, &m, error))
    return SEISMO_NO_EVENT;
  e = next_match (&m, seismo_trace_find_time (trace, from_ns), n);
  g_free (m.mask);
  if (e >= n)
    {
      g_set_error_literal (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                           _("no event matches after marker A"));
      return SEISMO_NO_EVENT;
    }
  return e;
}

static gboolean
resolve_zoom (SeismoTrace            *trace,
              const SeismoLessonStep *step,
              SeismoLessonTargets    *t,
              GError                **error)
{
  SeismoEventId n = seismo_trace_get_n_events (trace);
  Matches m = { 0 };
  SeismoEventId e, last = SEISMO_NO_EVENT;
  guint64 start, end, margin;
  guint count = 0;

  if (g_str_equal (step->zoom, "all"))
    {
      t->zoom_all = TRUE;
      return TRUE;
    }
  if (!run_expression (trace, step->zoom, &m, error))
    return FALSE;
  e = next_match (&m, 0, n);
  start = seismo_trace_event_time (trace, e);
  for (; e < n && (step->zoom_count == 0 || count < step->zoom_count); e = next_match (&m, e + 1, n))
    {
      last = e;
      count++;
    }
  g_free (m.mask);
  end = seismo_trace_event_time (trace, last);
  /* Some room on both sides, so the first and last matches are not on the edges. */
  margin = MAX ((end - start) / 10, 20000);
  t->has_zoom = TRUE;
  t->zoom_start_ns = start > margin ? start - margin : 0;
  t->zoom_end_ns = end + margin;
  return TRUE;
}

gboolean
seismo_lesson_step_resolve (const SeismoLesson   *self,
                            guint                 step,
                            SeismoTrace          *trace,
                            SeismoLessonTargets  *targets,
                            GError              **error)
{
  return _seismo_lesson_step_resolve (self, step, trace, targets, NULL, error);
}

gboolean
_seismo_lesson_step_resolve (const SeismoLesson   *self,
                             guint                 step,
                             SeismoTrace          *trace,
                             SeismoLessonTargets  *targets,
                             const char          **failed_key,
                             GError              **error)
{
  const SeismoLessonStep *s;
  g_autoptr(GError) local = NULL;
  const char *key = NULL, *expression = NULL;
  guint64 from_ns;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (step < self->n_steps, FALSE);
  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (targets != NULL, FALSE);

  s = &self->steps[step];
  memset (targets, 0, sizeof *targets);
  targets->select = SEISMO_NO_EVENT;
  targets->filter = s->filter;
  from_ns = seismo_trace_get_start_ns (trace);

  if (s->filter != NULL && s->filter[0] != '\0')
    {
      g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, s->filter, &local);

      if (filter == NULL)
        {
          key = "Filter", expression = s->filter;
          goto failed;
        }
    }
  if (s->zoom != NULL && !resolve_zoom (trace, s, targets, &local))
    {
      key = "Zoom", expression = s->zoom;
      goto failed;
    }
  if (s->marker_a != NULL)
    {
      SeismoEventId e = first_match (trace, s->marker_a, from_ns, &local);

      if (e == SEISMO_NO_EVENT)
        {
          key = "MarkerA", expression = s->marker_a;
          goto failed;
        }
      targets->has_marker[0] = TRUE;
      targets->marker_ns[0] = from_ns = seismo_trace_event_time (trace, e);
    }
  if (s->marker_b != NULL)
    {
      SeismoEventId e = first_match (trace, s->marker_b, from_ns, &local);

      if (e == SEISMO_NO_EVENT)
        {
          key = "MarkerB", expression = s->marker_b;
          goto failed;
        }
      targets->has_marker[1] = TRUE;
      targets->marker_ns[1] = seismo_trace_event_time (trace, e);
    }
  if (s->select != NULL)
    {
      targets->select = first_match (trace, s->select, from_ns, &local);
      if (targets->select == SEISMO_NO_EVENT)
        {
          key = "Select", expression = s->select;
          goto failed;
        }
    }
  return TRUE;

failed:
  if (failed_key != NULL)
    *failed_key = key;
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
               _("%s, step %u: %s=%s: %s"), self->path, step + 1, key, expression, local->message);
  return FALSE;
}

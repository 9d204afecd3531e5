/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

/*
 * Checking a lesson as its author writes it (`seismo-cli lesson check`): GKeyFile says what is
 * wrong but not where, so the file is read line by line here first, each problem reported with
 * its line, and only a file without problems is then loaded the way the app loads it and its
 * steps resolved against the sample.
 */

#include <string.h>

#include "seismo-lesson.h"
#include "seismo-lesson-private.h"

static const char *const lesson_keys[] = { "Title", "Summary", "Sample", "Order", NULL };
static const char *const step_keys[] = {
  "Title", "Text", "Question", "Answer", "Zoom", "ZoomCount", "Filter", "MarkerA", "MarkerB",
  "Select", NULL
};

typedef struct {
  const char *path;
  GPtrArray  *problems;
  GHashTable *lines;     /* "group" and "group\x1fkey" → line number */
  guint       lesson_line;
  guint       last_line;
} Check;

static void G_GNUC_PRINTF (3, 4)
problem (Check      *c,
         guint       line,
         const char *format,
         ...)
{
  va_list args;
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (c->problems, g_strdup_printf ("%s:%u: %s", c->path, line, text));
}

static guint
line_of (Check      *c,
         const char *group,
         const char *key)
{
  g_autofree char *k = key ? g_strdup_printf ("%s\x1f%s", group, key) : g_strdup (group);
  guint line = GPOINTER_TO_UINT (g_hash_table_lookup (c->lines, k));

  if (line == 0 && key != NULL)
    line = GPOINTER_TO_UINT (g_hash_table_lookup (c->lines, group));
  return line ? line : 1;
}

/* "Step 3" → 3; 0 when the group is not a step. */
static guint
step_number (const char *group)
{
  guint64 n;

  if (!g_str_has_prefix (group, "Step ")
      || !g_ascii_string_to_unsigned (group + 5, 10, 1, 1000, &n, NULL))
    return 0;
  return (guint) n;
}

/* Reads the lines: syntax, groups, keys, duplicates. Records where each group and key is. */
static void
scan_lines (Check      *c,
            const char *contents)
{
  g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);
  g_autofree char *group = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint no = i + 1;
      char *line = g_strstrip (lines[i]);
      char *eq;

      if (line[0] == '\0' || line[0] == '#')
        continue;
      c->last_line = no;
      if (line[0] == '[')
        {
          char *end = strchr (line, ']');

          if (end == NULL || end[1] != '\0')
            {
              problem (c, no, _("a group line is “[Name]”, alone on its line"));
              continue;
            }
          g_free (group);
          group = g_strndup (line + 1, end - line - 1);
          if (g_hash_table_contains (c->lines, group))
            problem (c, no, _("[%s] appears a second time (first on line %u)"), group,
                     GPOINTER_TO_UINT (g_hash_table_lookup (c->lines, group)));
          else
            g_hash_table_insert (c->lines, g_strdup (group), GUINT_TO_POINTER (no));
          if (g_str_equal (group, "Lesson"))
            c->lesson_line = no;
          else if (step_number (group) == 0)
            problem (c, no, _("unknown group [%s]: a lesson has [Lesson] and [Step 1], [Step 2]…"),
                     group);
          continue;
        }
      if ((eq = strchr (line, '=')) == NULL)
        {
          problem (c, no, "expected “Key=value”, a [Group] or a # comment");
          continue;
        }
      if (group == NULL)
        {
          problem (c, no, _("“%.*s” comes before any group: start with [Lesson]"), (int) (eq - line),
                   line);
          continue;
        }
      {
        g_autofree char *key = g_strstrip (g_strndup (line, eq - line));
        g_autofree char *base = g_strdup (key);
        char *bracket = strchr (base, '[');
        const char *const *known = g_str_equal (group, "Lesson") ? lesson_keys : step_keys;
        g_autofree char *id = g_strdup_printf ("%s\x1f%s", group, key);

        /* Title[de] is the German Title. */
        if (bracket != NULL)
          *bracket = '\0';
        if (!g_str_equal (group, "Lesson") && step_number (group) == 0)
          continue;
        if (!g_strv_contains (known, base))
          {
            g_autofree char *list = g_strjoinv (", ", (char **) known);

            problem (c, no, _("unknown key “%s” in [%s] (it takes %s)"), base, group, list);
          }
        else if (g_hash_table_contains (c->lines, id))
          problem (c, no, _("%s appears a second time in [%s] (first on line %u)"), key, group,
                   GPOINTER_TO_UINT (g_hash_table_lookup (c->lines, id)));
        else
          g_hash_table_insert (c->lines, g_steal_pointer (&id), GUINT_TO_POINTER (no));
      }
    }
}

/* What the keys say: required keys, step numbering, numbers. */
static void
check_keys (Check    *c,
            GKeyFile *kf)
{
  g_auto(GStrv) groups = g_key_file_get_groups (kf, NULL);
  guint max_step = 0;

  if (c->lesson_line == 0)
    problem (c, 1, _("the lesson has no [Lesson] group (with Title and Sample)"));
  else
    {
      for (guint k = 0; k < 2; k++)
        {
          const char *key = k == 0 ? "Title" : "Sample";
          g_autofree char *value = g_key_file_get_string (kf, "Lesson", key, NULL);

          if (value == NULL || *g_strstrip (value) == '\0')
            problem (c, c->lesson_line, "[Lesson] needs %s=", key);
        }
      if (g_key_file_has_key (kf, "Lesson", "Order", NULL))
        {
          g_autoptr(GError) error = NULL;

          g_key_file_get_integer (kf, "Lesson", "Order", &error);
          if (error != NULL)
            problem (c, line_of (c, "Lesson", "Order"), _("Order takes a whole number"));
        }
    }
  for (guint i = 0; groups[i] != NULL; i++)
    {
      guint n = step_number (groups[i]);
      g_autofree char *text = NULL;

      if (n == 0)
        continue;
      max_step = MAX (max_step, n);
      text = g_key_file_get_string (kf, groups[i], "Text", NULL);
      if (text == NULL || *g_strstrip (text) == '\0')
        problem (c, line_of (c, groups[i], NULL), _("[%s] has no Text="), groups[i]);
      if (g_key_file_has_key (kf, groups[i], "ZoomCount", NULL))
        {
          g_autoptr(GError) error = NULL;
          int count = g_key_file_get_integer (kf, groups[i], "ZoomCount", &error);

          if (error != NULL || count < 1)
            problem (c, line_of (c, groups[i], "ZoomCount"), _("ZoomCount takes a number of 1 or more"));
        }
    }
  if (max_step == 0)
    problem (c, MAX (c->last_line, 1), _("the lesson has no steps: add [Step 1] with a Text="));
  for (guint n = 1; n < max_step; n++)
    {
      g_autofree char *group = g_strdup_printf ("Step %u", n);

      if (!g_key_file_has_group (kf, group))
        {
          g_autofree char *next = g_strdup_printf ("Step %u", n + 1);

          for (guint k = n + 1; !g_key_file_has_group (kf, next); k++)
            {
              g_free (next);
              next = g_strdup_printf ("Step %u", k + 1);
            }
          problem (c, line_of (c, next, NULL), _("[%s] is missing: steps are numbered 1, 2, 3… "
                     "without gaps"), group);
        }
    }
}

GPtrArray *
seismo_lesson_check (const char  *path,
                     SeismoTrace *trace)
{
  g_autoptr(GHashTable) lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoLesson) lesson = NULL;
  g_autofree char *contents = NULL;
  Check c = { path, g_ptr_array_new_with_free_func (g_free), lines, 0, 0 };
  const char *bad = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (trace == NULL || SEISMO_IS_TRACE (trace), NULL);

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      g_ptr_array_add (c.problems, g_strdup_printf ("%s: %s", path, error->message));
      return c.problems;
    }
  if (!g_utf8_validate (contents, (gssize) length, &bad))
    {
      guint line = 1;

      for (const char *p = contents; p < bad; p++)
        line += *p == '\n';
      problem (&c, line, _("byte %zu is not UTF-8 text"), (gsize) (bad - contents));
      return c.problems;
    }
  scan_lines (&c, contents);
  /* The keys are checked too when the lines are readable: every mistake in one go. */
  if (!g_key_file_load_from_data (kf, contents, length, G_KEY_FILE_NONE, &error))
    {
      if (c.problems->len == 0)
        problem (&c, 1, "%s", error->message);
      return c.problems;
    }
  check_keys (&c, kf);
  if (c.problems->len > 0)
    return c.problems;

  /* What the app would say, should a rule above have missed something. */
  if (!(lesson = seismo_lesson_new_from_file (path, &error)))
    {
      g_ptr_array_add (c.problems, g_strdup (error->message));
      return c.problems;
    }
  for (guint s = 0; trace != NULL && s < lesson->n_steps; s++)
    {
      g_autoptr(GError) local = NULL;
      g_autofree char *group = g_strdup_printf ("Step %u", s + 1);
      SeismoLessonTargets targets;
      const char *key = NULL;

      if (!_seismo_lesson_step_resolve (lesson, s, trace, &targets, &key, &local))
        {
          /* The message starts with the path and step, which the line now says. */
          const char *why = strstr (local->message, ": ");

          problem (&c, line_of (&c, group, key), "[%s] %s", group,
                   why && g_str_has_prefix (local->message, path) ? why + 2 : local->message);
        }
    }
  return c.problems;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

/*
 * Lines the ftrace text importer could not read, counted by kind with the first of each as an
 * example (seismo-skipped.h carries them with the trace). A file where they outnumber the lines
 * that were read is refused: showing the little that could be read as if it were the trace
 * would mislead.
 */

#include <string.h>

#include "seismo-ftrace-text-private.h"
#include "seismo-skipped.h"

#define EXAMPLE_CHARS 160

typedef struct {
  const char *kind;      /* static */
  guint64     count;
  guint64     first_line;
  char       *example;   /* "line 5: …" */
} FtraceSkipped;

static void
ftrace_skipped_free (gpointer data)
{
  FtraceSkipped *s = data;

  g_free (s->example);
  g_free (s);
}

const char *
ftt_classify_unreadable (Parser     *self,
                         const char *first,
                         const char *end)
{
  const char *p = first;

  /* "3)" or "  123.456 |   3)": a function_graph line whose columns did not read. */
  while (p < end && (IS (*p, C_DIGIT) || *p == '.' || *p == '|' || IS (*p, C_SPACE)))
    p++;
  if (p > first && p < end && *p == ')')
    return "function_graph lines in an unknown layout";
  if (memchr (first, '[', end - first) != NULL && memchr (first, ':', end - first) != NULL)
    return "event lines in an unknown layout";
  return "lines that are not ftrace text";
}

void
ftt_note_unreadable (Parser     *self,
                     const char *line,
                     const char *end,
                     const char *kind)
{
  FtraceSkipped *s;

  if (self->n_skipped++ == 0)
    self->first_skipped = self->line_no;
  if (self->skipped == NULL)
    self->skipped = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, ftrace_skipped_free);
  s = g_hash_table_lookup (self->skipped, kind);
  if (s == NULL)
    {
      gsize len = MIN ((gsize) (end - line), EXAMPLE_CHARS);
      g_autofree char *text = g_utf8_make_valid (line, len);

      s = g_new0 (FtraceSkipped, 1);
      s->kind = kind;
      s->first_line = self->line_no;
      s->example = g_strdup_printf ("line %" G_GUINT64_FORMAT ": %s%s", self->line_no,
                                    g_strstrip (text), (gsize) (end - line) > len ? "…" : "");
      g_hash_table_insert (self->skipped, (gpointer) kind, s);
    }
  s->count++;
}

static int
by_first_line (gconstpointer a,
               gconstpointer b)
{
  const FtraceSkipped *x = *(FtraceSkipped **) a, *y = *(FtraceSkipped **) b;

  return x->first_line < y->first_line ? -1 : x->first_line > y->first_line;
}

static int
by_count (gconstpointer a,
          gconstpointer b)
{
  const FtraceSkipped *x = *(FtraceSkipped **) a, *y = *(FtraceSkipped **) b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return by_first_line (a, b);
}

static GPtrArray *
sorted (Parser       *self,
        GCompareFunc  compare)
{
  GPtrArray *all = g_ptr_array_new ();
  GHashTableIter it;
  gpointer value;

  if (self->skipped)
    {
      g_hash_table_iter_init (&it, self->skipped);
      while (g_hash_table_iter_next (&it, NULL, &value))
        g_ptr_array_add (all, value);
    }
  g_ptr_array_sort (all, compare);
  return all;
}

void
ftt_skipped_finish (Parser *self)
{
  g_autoptr(GPtrArray) all = sorted (self, by_first_line);

  for (guint i = 0; i < all->len; i++)
    {
      FtraceSkipped *s = g_ptr_array_index (all, i);

      seismo_trace_builder_note_skipped (self->builder, s->kind, s->count, s->example);
    }
}

char *
ftt_skipped_refusal (Parser *self)
{
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GString) kinds = NULL;
  FtraceSkipped *first = NULL;
  guint64 n_read = self->n_events + self->n_read_lines;

  if (self->n_skipped == 0 || self->n_skipped <= n_read)
    return NULL;
  all = sorted (self, by_count);
  kinds = g_string_new (NULL);
  for (guint i = 0; i < all->len; i++)
    {
      FtraceSkipped *s = g_ptr_array_index (all, i);

      if (i)
        g_string_append (kinds, i + 1 == all->len ? " and " : ", ");
      g_string_append_printf (kinds, "%" G_GUINT64_FORMAT " %s", s->count, s->kind);
      if (first == NULL || s->first_line < first->first_line)
        first = s;
    }
  return g_strdup_printf ("“%s” is not ftrace text Seismo can read: %" G_GUINT64_FORMAT " of %"
                          G_GUINT64_FORMAT " lines could not be read (%s); the first is %s",
                          self->path, self->n_skipped, self->n_skipped + n_read,
                          kinds->str, first ? first->example : "");
}

void
ftt_skipped_free (Parser *self)
{
  g_clear_pointer (&self->skipped, g_hash_table_unref);
}

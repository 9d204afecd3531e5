/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * strace -c's table (alone in the file with -c -o, after the calls with -C):
 *
 *   % time     seconds  usecs/call     calls    errors syscall
 *   ------ ----------- ----------- --------- --------- ----------------
 *    70.46    0.001987         496         4         2 wait4
 *   ...
 *   ------ ----------- ----------- --------- --------- ----------------
 *   100.00    0.002820           7       360        58 total
 *
 * -U picks and orders the columns ("syscall calls errors seconds shortest longest ..."), and a
 * blank cell (no errors) leaves a row one word short, so columns are found by their names in the
 * header and their place under the dashes, not by counting words. The rows become the trace's
 * summary histograms (SEISMO_HISTOGRAM_SUMMARY_*), which `stats --by syscall` shows when the
 * file has no calls of its own.
 */

#include <stdlib.h>

#include "seismo-stats.h"
#include "seismo-strace-private.h"

typedef enum {
  COL_OTHER = 0,
  COL_NAME,
  COL_CALLS,
  COL_ERRORS,
  COL_SECONDS,
} ColumnKind;

typedef struct {
  ColumnKind kind;
  gsize      start;   /* the dashes under it: [start, end) */
  gsize      end;
} StraceSummaryColumn;

typedef struct {
  guint64  calls;
  guint64  errors;
  guint64  ns;
  gboolean timed;
} StraceSummaryRow;

/* Header words (strace's own spelling, -U's too) and what they hold. */
static const struct {
  const char *word;
  ColumnKind  kind;
} column_names[] = {
  { "syscall", COL_NAME },
  { "calls", COL_CALLS },
  { "errors", COL_ERRORS },
  { "seconds", COL_SECONDS },
  { "%", COL_OTHER },          /* "% time": two words, one column */
  { "usecs/call", COL_OTHER },
  { "shortest", COL_OTHER },
  { "longest", COL_OTHER },
};

/* Personality banners strace prints above each table ("System call usage summary for 32 bit
 * mode:"). */
static const char personality_banner[] = "System call usage summary for ";

static gboolean
is_header (const char *line)
{
  return g_str_has_prefix (line, "% time")
         || (g_str_has_prefix (line, "syscall ") && strstr (line, " calls") != NULL);
}

void
strace_summary_init (StraceImport *im)
{
  im->summary_columns = g_array_new (FALSE, FALSE, sizeof (StraceSummaryColumn));
  im->summary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
strace_summary_clear (StraceImport *im)
{
  g_clear_pointer (&im->summary_columns, g_array_unref);
  g_clear_pointer (&im->summary, g_hash_table_unref);
}

gboolean
strace_summary_head (const char *head,
                     gsize       len)
{
  const char *nl = memchr (head, '\n', len);
  g_autofree char *first = g_strndup (head, nl ? (gsize) (nl - head) : len);
  const char *dashes;

  if (g_str_has_prefix (first, personality_banner) && nl)
    return strace_summary_head (nl + 1, len - (gsize) (nl + 1 - head));
  if (!is_header (first) || nl == NULL)
    return FALSE;
  dashes = nl + 1;
  return (gsize) (dashes - head) + 6 <= len && memcmp (dashes, "------", 6) == 0;
}

/* The columns of the dash line under the header; FALSE when the words and dashes disagree. */
static gboolean
read_columns (StraceImport *im,
              const char   *dashes,
              gsize         len)
{
  g_auto(GStrv) words = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint k = 0;

  g_array_set_size (im->summary_columns, 0);
  for (gsize i = 0; i < len;)
    {
      StraceSummaryColumn col = { COL_OTHER, i, i };

      if (dashes[i] != '-')
        {
          if (dashes[i] != ' ')
            return FALSE;
          i++;
          continue;
        }
      while (i < len && dashes[i] == '-')
        i++;
      col.end = i;
      g_array_append_val (im->summary_columns, col);
    }

  words = g_strsplit (im->summary_header, " ", -1);
  for (guint w = 0; words[w]; w++)
    if (*words[w] && !g_str_equal (words[w], "time"))
      g_ptr_array_add (names, words[w]);
  if (names->len != im->summary_columns->len)
    return FALSE;
  for (k = 0; k < names->len; k++)
    for (guint n = 0; n < G_N_ELEMENTS (column_names); n++)
      if (g_str_equal (g_ptr_array_index (names, k), column_names[n].word))
        g_array_index (im->summary_columns, StraceSummaryColumn, k).kind = column_names[n].kind;
  return TRUE;
}

/* Seconds as strace prints them ("0.001987") in ns, without going through a double. */
static guint64
seconds_to_ns (const char *s)
{
  guint64 ns = g_ascii_strtoull (s, NULL, 10) * G_GUINT64_CONSTANT (1000000000);
  const char *dot = strchr (s, '.');
  guint64 frac = 0;
  guint i;

  if (dot == NULL)
    return ns;
  for (i = 0, dot++; i < 9 && g_ascii_isdigit (dot[i]); i++)
    frac = frac * 10 + (guint64) (dot[i] - '0');
  for (; i < 9; i++)
    frac *= 10;
  return ns + frac;
}

/* One row: each word goes to the column under whose dashes it stands; a name longer than its
 * column pushes the columns after it right. FALSE when it is not a row of this table. */
static gboolean
read_row (StraceImport *im,
          const char   *line,
          gsize         len,
          gboolean     *total)
{
  StraceSummaryRow row = { 0 };
  g_autofree char *name = NULL;
  gsize shift = 0;
  guint col = 0;

  *total = FALSE;
  for (gsize i = 0; i < len;)
    {
      gsize start, end;
      const StraceSummaryColumn *c;
      g_autofree char *word = NULL;

      if (line[i] == ' ')
        {
          i++;
          continue;
        }
      start = i;
      while (i < len && line[i] != ' ')
        i++;
      end = i;
      /* The first column whose dashes the word overlaps (blank cells are passed over). */
      while (col < im->summary_columns->len)
        {
          c = &g_array_index (im->summary_columns, StraceSummaryColumn, col);
          if (start < c->end + shift)
            break;
          col++;
        }
      if (col >= im->summary_columns->len)
        return FALSE;
      c = &g_array_index (im->summary_columns, StraceSummaryColumn, col);
      if (end > c->end + shift && c->kind == COL_NAME)
        shift = end - c->end;
      word = g_strndup (line + start, end - start);
      switch (c->kind)
        {
        case COL_NAME:
          g_free (name);
          name = g_steal_pointer (&word);
          break;
        case COL_CALLS:
        case COL_ERRORS:
          {
            guint64 v;

            if (!strace_parse_number (word, strlen (word), &v))
              return FALSE;
            if (c->kind == COL_CALLS)
              row.calls = v;
            else
              row.errors = v;
          }
          break;
        case COL_SECONDS:
          if (!g_ascii_isdigit (word[0]))
            return FALSE;
          row.ns = seconds_to_ns (word);
          row.timed = TRUE;
          break;
        case COL_OTHER:
        default:
          break;
        }
      col++;
    }
  if (name == NULL)
    return FALSE;
  if (g_str_equal (name, "total"))
    *total = TRUE;
  else
    {
      StraceSummaryRow *sum = g_hash_table_lookup (im->summary, name);

      strace_arch_call (&im->arch, name, -1);
      /* Tables of several personalities (64 and 32 bit) add up. */
      if (sum == NULL)
        {
          sum = g_new0 (StraceSummaryRow, 1);
          sum->timed = TRUE;
          g_hash_table_insert (im->summary, g_steal_pointer (&name), sum);
        }
      sum->calls += row.calls;
      sum->errors += row.errors;
      sum->ns += row.ns;
      sum->timed &= row.timed;
    }
  return TRUE;
}

gboolean
strace_summary_line (StraceImport *im,
                     const char   *line,
                     gsize         len)
{
  gboolean total;

  if (!im->in_summary)
    {
      if (g_str_has_prefix (line, personality_banner))
        {
          im->summary_lines++;
          return TRUE;
        }
      if (!is_header (line))
        return FALSE;
      im->in_summary = TRUE;
      g_strlcpy (im->summary_header, line, sizeof im->summary_header);
      g_array_set_size (im->summary_columns, 0);
      im->summary_lines++;
      return TRUE;
    }
  /* The dashes under the header, and again above "total". */
  if (len > 0 && line[0] == '-')
    {
      if (im->summary_columns->len == 0 && !read_columns (im, line, len))
        {
          im->in_summary = FALSE;
          return FALSE;
        }
      im->summary_lines++;
      return TRUE;
    }
  /* A table cut short (no "total"): the trace goes on, and a syscall line has parentheses. */
  if (im->summary_columns->len == 0 || memchr (line, '(', len) != NULL
      || !read_row (im, line, len, &total))
    {
      im->in_summary = FALSE;
      return FALSE;
    }
  im->summary_lines++;
  if (total)
    im->in_summary = FALSE;
  return TRUE;
}

guint
strace_summary_store (StraceImport *im)
{
  GHashTableIter iter;
  gpointer key, value;
  guint n = 0;

  g_hash_table_iter_init (&iter, im->summary);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      StraceSummaryRow *row = value;
      SeismoHistogram h = { .name = SEISMO_HISTOGRAM_SUMMARY_CALLS, .key = key, .unit = "calls",
                            .total_count = row->calls, .sum = row->calls };

      seismo_trace_builder_add_histogram (im->builder, &h);
      h.name = SEISMO_HISTOGRAM_SUMMARY_ERRORS;
      h.unit = "errors";
      h.total_count = h.sum = row->errors;
      seismo_trace_builder_add_histogram (im->builder, &h);
      if (row->timed)
        {
          h.name = SEISMO_HISTOGRAM_SUMMARY_TIME;
          h.unit = "ns";
          h.total_count = row->calls;
          h.sum = row->ns;
          seismo_trace_builder_add_histogram (im->builder, &h);
        }
      n++;
    }
  return n;
}

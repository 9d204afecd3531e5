/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-skipped.h"
#include "seismo-trace-builder-private.h"

static const char *
builder_meta (SeismoTraceBuilder *builder,
              const char         *key)
{
  for (guint i = 0; i < builder->meta_keys->len; i++)
    if (strcmp (g_ptr_array_index (builder->meta_keys, i), key) == 0)
      return g_ptr_array_index (builder->meta_values, i);
  return NULL;
}

guint64
seismo_trace_builder_get_skipped (SeismoTraceBuilder *builder,
                                  const char         *kind)
{
  g_autofree char *key = NULL;
  const char *value;

  g_return_val_if_fail (builder != NULL, 0);
  g_return_val_if_fail (kind != NULL, 0);

  key = g_strconcat (SEISMO_META_SKIPPED_PREFIX, kind, NULL);
  value = builder_meta (builder, key);
  return value ? g_ascii_strtoull (value, NULL, 10) : 0;
}

void
seismo_trace_builder_note_skipped (SeismoTraceBuilder *builder,
                                   const char         *kind,
                                   guint64             n,
                                   const char         *example)
{
  g_autofree char *key = NULL;
  g_autofree char *count = NULL;
  guint64 before;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (kind != NULL && *kind != '\0');

  if (n == 0)
    return;
  before = seismo_trace_builder_get_skipped (builder, kind);
  key = g_strconcat (SEISMO_META_SKIPPED_PREFIX, kind, NULL);
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, before + n);
  seismo_trace_builder_set_metadata (builder, key, count);
  if (before == 0 && example != NULL)
    {
      g_autofree char *example_key = g_strconcat (SEISMO_META_SKIPPED_EXAMPLE_PREFIX, kind, NULL);
      /* A whole line is enough to recognise it; a runaway one must not bloat the metadata. */
      g_autofree char *shown = g_utf8_make_valid (example, MIN (strlen (example), 200));

      seismo_trace_builder_set_metadata (builder, example_key, shown);
    }
}

static int
compare_skipped (gconstpointer a,
                 gconstpointer b)
{
  const SeismoSkipped *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->kind, y->kind);
}

GArray *
seismo_trace_get_skipped (SeismoTrace *trace)
{
  const char *const *keys;
  GArray *out;
  gsize prefix = strlen (SEISMO_META_SKIPPED_PREFIX);

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);

  out = g_array_new (FALSE, FALSE, sizeof (SeismoSkipped));
  keys = seismo_trace_get_metadata_keys (trace);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      SeismoSkipped s;
      g_autofree char *example_key = NULL;

      if (strncmp (keys[i], SEISMO_META_SKIPPED_PREFIX, prefix) != 0 || keys[i][prefix] == '\0')
        continue;
      s.kind = keys[i] + prefix;
      s.count = g_ascii_strtoull (seismo_trace_get_metadata (trace, keys[i]), NULL, 10);
      if (s.count == 0)
        continue;
      example_key = g_strconcat (SEISMO_META_SKIPPED_EXAMPLE_PREFIX, s.kind, NULL);
      s.example = seismo_trace_get_metadata (trace, example_key);
      g_array_append_val (out, s);
    }
  g_array_sort (out, compare_skipped);
  return out;
}

guint64
seismo_trace_get_n_skipped (SeismoTrace *trace)
{
  g_autoptr(GArray) skipped = seismo_trace_get_skipped (trace);
  guint64 n = 0;

  for (guint i = 0; i < skipped->len; i++)
    n += g_array_index (skipped, SeismoSkipped, i).count;
  return n;
}

char *
seismo_trace_describe_skipped (SeismoTrace *trace)
{
  g_autoptr(GArray) skipped = seismo_trace_get_skipped (trace);
  GString *s;

  if (skipped->len == 0)
    return NULL;
  s = g_string_new (NULL);
  for (guint i = 0; i < skipped->len; i++)
    {
      const SeismoSkipped *k = &g_array_index (skipped, SeismoSkipped, i);

      if (i > 0)
        g_string_append (s, i + 1 == skipped->len ? " and " : ", ");
      g_string_append_printf (s, "%" G_GUINT64_FORMAT " %s", k->count, k->kind);
    }
  g_string_append (s, " could not be read");
  return g_string_free (s, FALSE);
}

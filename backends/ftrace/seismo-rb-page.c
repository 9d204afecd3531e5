/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <stdlib.h>

#include "seismo-rb-page.h"

/* Finds "field: <type> <name>;\toffset:N;\tsize:M;" in a header_page format. */
static gboolean
header_field (char      **lines,
              const char *name,
              guint      *offset,
              guint      *size)
{
  for (guint i = 0; lines[i]; i++)
    {
      const char *semi = strchr (lines[i], ';');
      const char *o, *s;
      g_autofree char *decl = NULL;
      gsize n;

      if (!strstr (lines[i], "field:") || semi == NULL)
        continue;
      decl = g_strndup (lines[i], semi - lines[i]);
      n = strlen (decl);
      if (n <= strlen (name) || !g_str_has_suffix (decl, name) ||
          !g_ascii_isspace (decl[n - strlen (name) - 1]))
        continue;
      o = strstr (semi, "offset:");
      s = strstr (semi, "size:");
      if (!o || !s)
        return FALSE;
      *offset = strtoul (o + 7, NULL, 10);
      *size = strtoul (s + 5, NULL, 10);
      return TRUE;
    }
  return FALSE;
}

gboolean
seismo_rb_layout_parse (SeismoRbLayout *layout,
                        const char     *header_page,
                        gsize           len,
                        gboolean        big_endian)
{
  g_autofree char *copy = g_strndup (header_page, len);
  g_auto(GStrv) lines = g_strsplit (copy, "\n", -1);
  guint off, size;

  layout->big_endian = big_endian;
  layout->swap = big_endian != (G_BYTE_ORDER == G_BIG_ENDIAN);
  if (!header_field (lines, "commit", &off, &size) || (size != 4 && size != 8) || off != 8)
    return FALSE;
  layout->commit_size = size;
  if (!header_field (lines, "data", &off, &size) || off < 8 + layout->commit_size || off > 64)
    return FALSE;
  layout->data_offset = off;
  return TRUE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "seismo-varint.h"

G_BEGIN_DECLS

/* Reading a decoded record's varints without ever passing its end: the .seismo reader and the
 * summary reader both walk their tables with it. */
typedef struct {
  const guint8 *start;
  const guint8 *p;
  const guint8 *end;
} Cursor;

static inline gboolean
cur_varint (Cursor  *c,
            guint64 *v)
{
  const guint8 *next = seismo_varint_get (c->p, c->end, v);

  if (next == NULL)
    return FALSE;
  c->p = next;
  return TRUE;
}

static inline gboolean
cur_u32 (Cursor  *c,
         guint32 *v)
{
  guint64 x;

  if (!cur_varint (c, &x) || x > G_MAXUINT32)
    return FALSE;
  *v = (guint32) x;
  return TRUE;
}

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* LEB128 unsigned varints: at most 10 bytes for a 64-bit value. */
#define SEISMO_VARINT_MAX 10

static inline guint8 *
seismo_varint_put (guint8  *out,
                   guint64  value)
{
  while (value >= 0x80)
    {
      *out++ = (guint8) (value | 0x80);
      value >>= 7;
    }
  *out++ = (guint8) value;
  return out;
}

/* Decodes one varint from [p, end). Returns the position after it, or NULL when cut or too long. */
static inline const guint8 *
seismo_varint_get (const guint8 *p,
                   const guint8 *end,
                   guint64      *value)
{
  guint64 v = 0;
  guint shift = 0;

  while (p < end)
    {
      guint8 b = *p++;

      if (shift == 63 && b > 1)
        return NULL;
      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          *value = v;
          return p;
        }
      shift += 7;
      if (shift > 63)
        return NULL;
    }
  return NULL;
}

static inline guint64
seismo_zigzag_encode (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

static inline gint64
seismo_zigzag_decode (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

G_END_DECLS

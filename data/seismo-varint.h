/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

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

#define SEISMO_VARINT_R7_(x) x, x, x, x, x, x, x
#define SEISMO_VARINT_CONT_(len) (G_GUINT64_CONSTANT (0x8080808080808080) >> (8 * (9 - (len))))

/*
 * The same bytes as seismo_varint_put(), without its byte-at-a-time loop, whose exit mispredicts
 * on values of mixed widths (syscall arguments: small numbers next to 47-bit pointers). A value
 * of 2 to 8 bytes has its 7-bit groups spread into bytes with three shift-and-mask steps, its
 * continuation bits and length looked up by its leading zeros, and is stored 8 bytes at once: out
 * MUST have SEISMO_VARINT_MAX bytes of room whatever the value (the bytes past the returned end
 * are zeros, for the next write to cover). One byte, the most common, is stored alone; 9 and 10
 * take the loop.
 */
static inline guint8 *
seismo_varint_put_wide (guint8  *out,
                        guint64  value)
{
  /* By leading zero bits: 0 is 64 bits, 10 bytes; then 7 counts a byte, down to 63 (1 bit). */
  static const guint8 len_by_clz[64] = {
    10, SEISMO_VARINT_R7_ (9), SEISMO_VARINT_R7_ (8), SEISMO_VARINT_R7_ (7),
    SEISMO_VARINT_R7_ (6), SEISMO_VARINT_R7_ (5), SEISMO_VARINT_R7_ (4), SEISMO_VARINT_R7_ (3),
    SEISMO_VARINT_R7_ (2), SEISMO_VARINT_R7_ (1)
  };
  /* The high bit of every byte but the last (only 2 to 8 bytes are read). */
  static const guint64 cont_by_clz[64] = {
    0, SEISMO_VARINT_R7_ (0), SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (8)),
    SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (7)), SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (6)),
    SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (5)), SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (4)),
    SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (3)), SEISMO_VARINT_R7_ (SEISMO_VARINT_CONT_ (2)),
    SEISMO_VARINT_R7_ (0)
  };
  guint64 x = value;
  guint clz;

  if (value < 0x80)
    {
      *out = (guint8) value;
      return out + 1;
    }
  if (G_UNLIKELY (value >> 56))
    return seismo_varint_put (out, value);
  clz = (guint) __builtin_clzll (value);
  x = (x & G_GUINT64_CONSTANT (0x000000000fffffff)) |
      ((x & G_GUINT64_CONSTANT (0x00fffffff0000000)) << 4);
  x = (x & G_GUINT64_CONSTANT (0x00003fff00003fff)) |
      ((x & G_GUINT64_CONSTANT (0x0fffc0000fffc000)) << 2);
  x = (x & G_GUINT64_CONSTANT (0x007f007f007f007f)) |
      ((x & G_GUINT64_CONSTANT (0x3f803f803f803f80)) << 1);
  x = GUINT64_TO_LE (x | cont_by_clz[clz]);
  memcpy (out, &x, 8);
  return out + len_by_clz[clz];
}

#undef SEISMO_VARINT_R7_
#undef SEISMO_VARINT_CONT_

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

/* The value of a varint of len (1 to 8) bytes, w its bytes loaded little-endian: its 7-bit
 * groups gathered with three shift-and-mask steps. */
static inline guint64
seismo_varint_gather_ (guint64 w,
                       guint   len)
{
  guint64 x = w & (G_MAXUINT64 >> (64 - 8 * len)) & G_GUINT64_CONSTANT (0x7f7f7f7f7f7f7f7f);

  x = (x & G_GUINT64_CONSTANT (0x007f007f007f007f)) |
      ((x & G_GUINT64_CONSTANT (0x7f007f007f007f00)) >> 1);
  x = (x & G_GUINT64_CONSTANT (0x00003fff00003fff)) |
      ((x & G_GUINT64_CONSTANT (0x3fff00003fff0000)) >> 2);
  x = (x & G_GUINT64_CONSTANT (0x000000000fffffff)) |
      ((x & G_GUINT64_CONSTANT (0x0fffffff00000000)) >> 4);
  return x;
}

/* The 8 bytes at p, little-endian, into *w; returns their stop bits, the clear high bit of each
 * byte that ends a value (0: the value at p is longer than 8 bytes). The caller ensures 8 bytes
 * can be read. */
static inline guint64
seismo_varint_load8_ (const guint8 *p,
                      guint64      *w)
{
  memcpy (w, p, 8);
  *w = GUINT64_FROM_LE (*w);
  return ~*w & G_GUINT64_CONSTANT (0x8080808080808080);
}

/* The length in bytes of the value at p, from seismo_varint_load8_()'s non-zero stop bits. */
static inline guint
seismo_varint_stop_len_ (guint64 stop)
{
  return ((guint) __builtin_ctzll (stop) >> 3) + 1;
}

/*
 * seismo_varint_get_wide() (below) for a reader that only cares about large values (the Find bar,
 * for a needle of many digits): a value of k bytes is below 2^(7k) however it was written, so one of
 * fewer than min_len bytes, below 2^(7 (min_len - 1)), is passed by its last byte without
 * gathering its bits, and reads as 0. min_len 1 reads every value.
 */
static inline const guint8 *
seismo_varint_get_long (const guint8 *p,
                        const guint8 *end,
                        const guint8 *readable,
                        guint         min_len,
                        guint64      *value)
{
  const guint8 *after;
  guint64 w, stop;
  guint len;

  if (G_UNLIKELY (p >= end))
    return NULL;
  if (G_LIKELY (*p < 0x80))
    {
      *value = min_len > 1 ? 0 : *p;
      return p + 1;
    }
  if (G_UNLIKELY (readable - p < 8))
    goto slow;
  stop = seismo_varint_load8_ (p, &w);
  if (G_UNLIKELY (stop == 0))
    goto slow;
  len = seismo_varint_stop_len_ (stop);
  if (G_UNLIKELY ((gsize) (end - p) < len))
    return NULL;
  *value = len < min_len ? 0 : seismo_varint_gather_ (w, len);
  return p + len;

slow:
  after = seismo_varint_get (p, end, value);
  if (after != NULL && after - p < (gssize) min_len)
    *value = 0;
  return after;
}

/*
 * The same as seismo_varint_get() for readers of many values (the Find bar reads every field of
 * every event): a value's bytes are loaded 8 at once when [p, readable) has them, its last byte
 * found by its clear high bit and its 7-bit groups gathered with three shift-and-mask steps, so
 * values of mixed widths cost no mispredicted loop exit. readable (at least end) bounds what may
 * be loaded; end bounds the value, as for seismo_varint_get().
 */
static inline const guint8 *
seismo_varint_get_wide (const guint8 *p,
                        const guint8 *end,
                        const guint8 *readable,
                        guint64      *value)
{
  /* Every value is long enough: inlined, the tests of length fold away. */
  return seismo_varint_get_long (p, end, readable, 1, value);
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

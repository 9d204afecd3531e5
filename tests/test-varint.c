/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "seismo-varint.h"

static void
test_round_trip (void)
{
  static const guint64 values[] = { 0, 1, 127, 128, 255, 300, 16383, 16384, G_MAXUINT32,
                                    (guint64) G_MAXUINT32 + 1, G_MAXUINT64 - 1, G_MAXUINT64 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      guint8 buf[SEISMO_VARINT_MAX];
      guint8 *end = seismo_varint_put (buf, values[i]);
      guint64 v = 0;

      g_assert_cmpint (end - buf, <=, SEISMO_VARINT_MAX);
      g_assert_true (seismo_varint_get (buf, end, &v) == end);
      g_assert_cmpuint (v, ==, values[i]);
      /* Every cut of the encoding is detected. */
      for (guint8 *cut = buf; cut < end; cut++)
        g_assert_null (seismo_varint_get (buf, cut, &v));
    }
}

/* LEB128 as the format defines it, one byte at a time: what seismo_varint_put_wide() must match. */
static gsize
reference_put (guint8  *out,
               guint64  value)
{
  gsize n = 0;

  do
    {
      out[n] = value & 0x7f;
      value >>= 7;
      if (value)
        out[n] |= 0x80;
      n++;
    }
  while (value);
  return n;
}

/* Every width boundary, the fallback's edges, and random values of every width. */
static GArray *
wide_values (void)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 v;

  v = 0, g_array_append_val (values, v);
  v = 127, g_array_append_val (values, v);
  v = 128, g_array_append_val (values, v);
  for (guint k = 1; k < 64; k++)
    {
      v = (G_GUINT64_CONSTANT (1) << k) - 1, g_array_append_val (values, v);
      v = G_GUINT64_CONSTANT (1) << k, g_array_append_val (values, v);
      v = (G_GUINT64_CONSTANT (1) << k) + 1, g_array_append_val (values, v);
    }
  v = G_GUINT64_CONSTANT (0x00ffffffffffffff), g_array_append_val (values, v);
  v = G_GUINT64_CONSTANT (0x0100000000000000), g_array_append_val (values, v);
  v = G_GUINT64_CONSTANT (0x8000000000000000), g_array_append_val (values, v);
  v = G_GUINT64_CONSTANT (0x7fffffffffffffff), g_array_append_val (values, v);
  v = G_MAXUINT64, g_array_append_val (values, v);
  v = G_GUINT64_CONSTANT (0x00007fff71a85390), g_array_append_val (values, v);
  v = G_GUINT64_CONSTANT (0xffffffffffffff9c), g_array_append_val (values, v);
  for (guint i = 0; i < 20000; i++)
    {
      guint bits = g_test_rand_int_range (1, 65);

      v = ((guint64) g_test_rand_int () << 32) | (guint32) g_test_rand_int ();
      if (bits < 64)
        v &= (G_GUINT64_CONSTANT (1) << bits) - 1;
      g_array_append_val (values, v);
    }
  return values;
}

static void
test_put_wide (void)
{
  g_autoptr(GArray) values = wide_values ();

  for (guint i = 0; i < values->len; i++)
    {
      guint64 value = g_array_index (values, guint64, i);
      guint8 want[SEISMO_VARINT_MAX];
      /* Guard bytes past the room the encoder may use. */
      guint8 got[SEISMO_VARINT_MAX + 4];
      gsize want_len = reference_put (want, value);
      guint8 *end;
      guint64 back = 0;

      memset (got, 0xa5, sizeof got);
      end = seismo_varint_put_wide (got, value);
      if ((gsize) (end - got) != want_len || memcmp (got, want, want_len) != 0)
        g_error ("0x%" G_GINT64_MODIFIER "x: %" G_GSIZE_FORMAT " bytes, want %" G_GSIZE_FORMAT,
                 value, (gsize) (end - got), want_len);
      for (guint k = SEISMO_VARINT_MAX; k < sizeof got; k++)
        g_assert_cmphex (got[k], ==, 0xa5);
      /* What the old encoder wrote, and what every reader decodes. */
      g_assert_true (seismo_varint_put (want, value) == want + want_len);
      g_assert_true (seismo_varint_get (got, end, &back) == end);
      g_assert_cmphex (back, ==, value);
    }
}

/* As the builder writes them: back to back, each store covering the bytes past the last one. */
static void
test_put_wide_stream (void)
{
  g_autoptr(GArray) values = wide_values ();
  g_autofree guint8 *want = g_malloc (values->len * SEISMO_VARINT_MAX);
  g_autofree guint8 *got = g_malloc (values->len * SEISMO_VARINT_MAX + SEISMO_VARINT_MAX);
  gsize want_len = 0;
  guint8 *end = got;

  /* Shuffled widths, as syscall arguments come. */
  for (guint i = values->len; i > 1; i--)
    {
      guint j = g_test_rand_int_range (0, i);
      guint64 tmp = g_array_index (values, guint64, i - 1);

      g_array_index (values, guint64, i - 1) = g_array_index (values, guint64, j);
      g_array_index (values, guint64, j) = tmp;
    }
  for (guint i = 0; i < values->len; i++)
    {
      want_len += reference_put (want + want_len, g_array_index (values, guint64, i));
      end = seismo_varint_put_wide (end, g_array_index (values, guint64, i));
    }
  g_assert_cmpuint (end - got, ==, want_len);
  g_assert_cmpmem (got, want_len, want, want_len);
}

/* The wide decoder reads what the byte-at-a-time one reads: values back to back, every cut of
 * the stream (end inside a value, with readable bytes past it), and bytes that are no varint. */
static void
test_get_wide (void)
{
  g_autoptr(GArray) values = wide_values ();
  g_autofree guint8 *buf = g_malloc (values->len * SEISMO_VARINT_MAX + 16);
  const guint8 *readable;
  guint8 *end = buf;
  guint8 junk[24];

  for (guint i = 0; i < values->len; i++)
    end = seismo_varint_put (end, g_array_index (values, guint64, i));
  memset (end, 0xff, 16);
  readable = end + 16;
  for (const guint8 *p = buf, *q = buf; p < end;)
    {
      guint64 want = 0, got = 1;

      p = seismo_varint_get (p, end, &want);
      q = seismo_varint_get_wide (q, end, readable, &got);
      g_assert_nonnull (p);
      g_assert_true (p == q);
      g_assert_cmphex (got, ==, want);
    }
  /* Cut short: the value's end lies past end, though bytes past it can be read. */
  for (guint i = 0; i < 2000; i++)
    {
      gsize at = (gsize) g_test_rand_int_range (0, (gint) (end - buf));
      gsize cut = (gsize) g_test_rand_int_range (0, SEISMO_VARINT_MAX + 1);
      const guint8 *cut_end = MIN (buf + at + cut, end);
      guint64 want = 0, got = 0;
      const guint8 *p = seismo_varint_get (buf + at, cut_end, &want);
      const guint8 *q = seismo_varint_get_wide (buf + at, cut_end, readable, &got);

      g_assert_true (p == q);
      if (p != NULL)
        g_assert_cmphex (got, ==, want);
    }
  /* Ten bytes whose last holds the 64th bit: 1, 0 (not the shortest form, still read), 2 (no). */
  for (guint last = 0; last <= 2; last++)
    {
      guint8 ten[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, (guint8) last };
      guint64 want = 0, got = 0;
      const guint8 *p = seismo_varint_get (ten, ten + 10, &want);

      g_assert_true (seismo_varint_get_wide (ten, ten + 10, ten + sizeof ten, &got) == p);
      g_assert_true ((p == NULL) == (last == 2));
      if (p != NULL)
        g_assert_cmphex (got, ==, want);
    }
  /* Nothing to read, and runs of continuation bytes longer than a value may be. */
  g_assert_null (seismo_varint_get_wide (buf, buf, readable, &(guint64) { 0 }));
  memset (junk, 0xff, sizeof junk);
  for (guint len = 0; len <= sizeof junk; len++)
    g_assert_true (seismo_varint_get_wide (junk, junk + len, junk + sizeof junk, &(guint64) { 0 }) ==
                   seismo_varint_get (junk, junk + len, &(guint64) { 0 }));
}

/* seismo_varint_get_long() passes what seismo_varint_get() reads, and gives each value of at least
 * min_len bytes exactly, 0 for a shorter one: at every width boundary (2^(7k) - 1 is k bytes, 2^(7k)
 * is k + 1), for every min_len, with 8 bytes readable past each value and with none (the end of a
 * buffer), and cut short. */
static void
test_get_long (void)
{
  g_autoptr(GArray) values = wide_values ();
  g_autofree guint8 *buf = g_malloc (values->len * SEISMO_VARINT_MAX + 16);
  guint8 *end = buf;

  for (guint k = 1; k <= 9; k++)
    {
      guint64 v = (G_GUINT64_CONSTANT (1) << (7 * k)) - 1;

      g_array_append_val (values, v);
      v++;
      g_array_append_val (values, v);
    }
  for (guint i = 0; i < values->len; i++)
    end = seismo_varint_put (end, g_array_index (values, guint64, i));
  memset (end, 0xff, 16);
  for (guint min_len = 1; min_len <= SEISMO_VARINT_MAX + 1; min_len++)
    for (guint tail = 0; tail <= 1; tail++)
      {
        /* With no tail, the last values have fewer than 8 readable bytes past their start. */
        const guint8 *readable = tail ? end + 16 : end;

        for (const guint8 *p = buf, *q = buf; p < end;)
          {
            const guint8 *start = p;
            guint64 want = 0, got = 1;

            p = seismo_varint_get (p, end, &want);
            q = seismo_varint_get_long (q, end, readable, min_len, &got);
            g_assert_nonnull (p);
            g_assert_true (p == q);
            if ((guint) (p - start) < min_len)
              g_assert_cmphex (got, ==, 0);
            else
              g_assert_cmphex (got, ==, want);
          }
      }
  for (guint i = 0; i < 2000; i++)
    {
      gsize at = (gsize) g_test_rand_int_range (0, (gint) (end - buf));
      gsize cut = (gsize) g_test_rand_int_range (0, SEISMO_VARINT_MAX + 1);
      guint min_len = g_test_rand_int_range (1, SEISMO_VARINT_MAX + 2);
      const guint8 *cut_end = MIN (buf + at + cut, end);
      guint64 want = 0, got = 0;
      const guint8 *p = seismo_varint_get (buf + at, cut_end, &want);

      g_assert_true (seismo_varint_get_long (buf + at, cut_end, end + 16, min_len, &got) == p);
    }
}

static void
test_overlong (void)
{
  guint8 buf[11];
  guint64 v;

  memset (buf, 0xff, sizeof buf);
  g_assert_null (seismo_varint_get (buf, buf + sizeof buf, &v));
  buf[9] = 0x02; /* a 65th bit */
  g_assert_null (seismo_varint_get (buf, buf + 10, &v));
}

static void
test_zigzag (void)
{
  static const gint64 values[] = { 0, -1, 1, -2, G_MAXINT64, G_MININT64, -4095, 123456789 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_assert_cmpint (seismo_zigzag_decode (seismo_zigzag_encode (values[i])), ==, values[i]);
  g_assert_cmpuint (seismo_zigzag_encode (-1), ==, 1);
  g_assert_cmpuint (seismo_zigzag_encode (1), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/varint/round-trip", test_round_trip);
  g_test_add_func ("/varint/put-wide", test_put_wide);
  g_test_add_func ("/varint/put-wide-stream", test_put_wide_stream);
  g_test_add_func ("/varint/get-wide", test_get_wide);
  g_test_add_func ("/varint/get-long", test_get_long);
  g_test_add_func ("/varint/overlong", test_overlong);
  g_test_add_func ("/varint/zigzag", test_zigzag);
  return g_test_run ();
}

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
  g_test_add_func ("/varint/overlong", test_overlong);
  g_test_add_func ("/varint/zigzag", test_zigzag);
  return g_test_run ();
}

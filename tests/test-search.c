/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "seismo-search.h"
#include "seismo-test-util.h"

/*
 * seismo_trace_search() against the search it replaces: an event matches when its type name, its
 * task's comm or its formatted text contains the needle, ignoring case. Every match is walked in
 * order, forward and backward, with wrap, over the shared test trace and a trace of awkward
 * formats (fields side by side, unknown braces, hidden fields, values outside the name tables).
 */

static gboolean
reference_matches (SeismoTrace   *trace,
                   SeismoEventId  e,
                   const char    *needle,
                   GString       *buf)
{
  const SeismoTask *task = seismo_trace_event_task (trace, e);

  if (strcasestr (seismo_trace_event_type (trace, e)->full_name, needle) != NULL)
    return TRUE;
  if (task != NULL && strcasestr (seismo_trace_get_string (trace, task->comm), needle) != NULL)
    return TRUE;
  g_string_truncate (buf, 0);
  seismo_trace_event_format_into (trace, e, buf);
  return strcasestr (buf->str, needle) != NULL;
}

/* The event k steps from `from` (k = 1..n), as the search orders them. */
static SeismoEventId
step (gsize         n,
      SeismoEventId from,
      gsize         k,
      gboolean      backward)
{
  return (SeismoEventId) (backward ? (from + n - k) % n : (from + k) % n);
}

static SeismoEventId
expected_from (const gboolean *match,
               gsize           n,
               SeismoEventId   from,
               gboolean        backward)
{
  for (gsize k = 1; k <= n; k++)
    if (match[step (n, from, k, backward)])
      return step (n, from, k, backward);
  return SEISMO_NO_EVENT;
}

static void
check_needle (SeismoTrace *trace,
              const char  *needle,
              GRand       *rand)
{
  gsize n = seismo_trace_get_n_events (trace);
  g_autofree gboolean *match = g_new0 (gboolean, n);
  g_autoptr(GString) buf = g_string_new (NULL);
  gsize n_matches = 0;

  for (gsize e = 0; e < n; e++)
    n_matches += match[e] = reference_matches (trace, (SeismoEventId) e, needle, buf);

  for (int backward = 0; backward < 2; backward++)
    {
      SeismoSearchFlags flags = backward ? SEISMO_SEARCH_BACKWARD : 0;
      SeismoEventId from = (SeismoEventId) g_rand_int_range (rand, 0, (gint32) n);
      /* Match after match: every match in order, and nothing between them. */
      gsize walks = MIN (n_matches + 1, 120);

      for (gsize w = 0; w < walks; w++)
        {
          g_autoptr(GError) error = NULL;
          gboolean wrapped = FALSE;
          SeismoEventId want = expected_from (match, n, from, backward);
          SeismoEventId got = seismo_trace_search (trace, needle, from, flags, NULL, &wrapped, &error);

          g_assert_no_error (error);
          if (got != want)
            {
              g_autofree char *text = NULL;
              SeismoEventId e = want != SEISMO_NO_EVENT && (got == SEISMO_NO_EVENT || match[got]) ? want : got;

              text = seismo_trace_event_format (trace, e);
              g_error ("needle \"%s\" %s from %u: got %d, want %d (wrongly judged: event %u: %s: %s)", needle,
                       backward ? "backward" : "forward", from, (int) got, (int) want, e,
                       seismo_trace_event_type (trace, e)->full_name, text);
            }
          if (got == SEISMO_NO_EVENT)
            break;
          g_assert_cmpint (wrapped, ==, backward ? got >= from : got <= from);
          from = got;
        }
      /* And from a few places at random. */
      for (guint r = 0; r < 4; r++)
        {
          from = (SeismoEventId) g_rand_int_range (rand, 0, (gint32) n);
          g_assert_cmpint (seismo_trace_search (trace, needle, from, flags, NULL, NULL, NULL), ==,
                           expected_from (match, n, from, backward));
        }
    }
}

static const char *const fixed_needles[] = {
  "", "zzzz", "zzzz-no-such-thing", "sched_switch", "SCHED", "raw_syscalls:sys_exit", "sys_",
  "irq", "blob", "==>", ":", "[", "] ", " [", "NR ", "NR 0 ", "= -1", "= 2", "-1", "1", "12", "007",
  "0x", "0X1", "x1", "7f", "ff", "(", ", ", ", 1", ")", "(0", "write", "READ", "openat", "futex",
  "ENOENT", "No such", "EAGAIN (", "AT_FDCWD", "SIGKILL", "SIGSEGV", "R+", "D", "S ==> ",
  "kworker", "worker", "comm=", "pid=", "prio=1", "target_cpu=", "ret=", "name=", "irq=1",
  "data=", "where=0x", "flags=", "kind=", "delta=-", "label=", "hidden-secret", "{", "}",
  "{prev_pid}", "undecl", "abc", "deadbeef", "=", " ", "a", "e", "-", "alpha", "ALPHA|beta", "|0x",
  "faraway", "S|", "|D", "R+", "+",
};

static void
check_needles (SeismoTrace *trace,
               guint32      seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GString) buf = g_string_new (NULL);
  gsize n = seismo_trace_get_n_events (trace);

  for (guint i = 0; i < G_N_ELEMENTS (fixed_needles); i++)
    check_needle (trace, fixed_needles[i], rand);
  /* Pieces of shown text, across literal pieces and fields as often as not. */
  for (guint i = 0; i < 80; i++)
    {
      SeismoEventId e = (SeismoEventId) g_rand_int_range (rand, 0, (gint32) n);
      g_autofree char *needle = NULL;
      gsize start, len;

      g_string_truncate (buf, 0);
      seismo_trace_event_format_into (trace, e, buf);
      if (buf->len == 0)
        continue;
      start = g_rand_int_range (rand, 0, (gint32) buf->len);
      len = g_rand_int_range (rand, 1, 9);
      needle = g_strndup (buf->str + start, MIN (len, buf->len - start));
      check_needle (trace, needle, rand);
    }
}

static void
test_search_common_trace (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (1500, 5);

  check_needles (trace, 1);
}

/* Formats the field search must take apart: fields side by side, braces naming no field, a field
 * the format does not show, and table fields holding values beyond the tables. */
static SeismoTrace *
make_awkward_trace (void)
{
  static const SeismoSymbol kinds[] = { { 1, "alpha" }, { 2, "beta" }, { 100000, "faraway" } };
  static const SeismoSymbol states[] = { { 0, "R" }, { 1, "S" }, { 2, "D" } };
  const SeismoFieldInfo pair[] = {
    { "left", SEISMO_FIELD_STRING, 0, 0 },
    { "right", SEISMO_FIELD_STRING, 0, 0 },
    { "num", SEISMO_FIELD_UINT, 4, 0 },
    { "hidden", SEISMO_FIELD_STRING, 0, 0 },
  };
  const SeismoFieldInfo tables[] = {
    { "nr", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
    { "err", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO },
    { "fd", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_FD },
    { "sig", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SIGNAL },
    { "kind", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYMBOL, kinds, G_N_ELEMENTS (kinds) },
    { "state", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SCHED_STATE, states, G_N_ELEMENTS (states) },
    { "mask", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_FLAGS, kinds, G_N_ELEMENTS (kinds) },
    { "ptr", SEISMO_FIELD_POINTER, 8, 0 },
    { "words", SEISMO_FIELD_UINT_ARRAY, 8, 0 },
    { "hexwords", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
    { "neg", SEISMO_FIELD_INT, 8, 0 },
  };
  const char *words[] = { "", "abc", "cab", "undecl", "hidden-secret", "x1", "12", "Write" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint t_pair, t_tables, t_plain;

  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  t_pair = seismo_trace_builder_add_event_type (b, "test", "pair", pair, G_N_ELEMENTS (pair),
                                                "{left}{right}{num}{undecl}<{left}>");
  t_tables = seismo_trace_builder_add_event_type (b, "test", "tables", tables, G_N_ELEMENTS (tables),
                                                  "{nr}{err} fd {fd}|{sig}|{kind}{state}{mask}{ptr}{words}{hexwords}{neg}");
  t_plain = seismo_trace_builder_add_event_type (b, "test", "plain", tables, G_N_ELEMENTS (tables), NULL);
  for (guint i = 0; i < 1500; i++)
    {
      gint32 tid = 100 + (gint32) (i % 7);
      guint r = g_rand_int_range (rand, 0, 3);

      seismo_trace_builder_set_task_comm (b, tid, i % 7 == 3 ? "Writer" : "quiet", 0);
      if (r == 0)
        {
          seismo_trace_builder_begin_event (b, 1000 + i, i % 2, tid, t_pair);
          seismo_trace_builder_push_string (b, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
          seismo_trace_builder_push_string (b, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
          seismo_trace_builder_push_uint (b, g_rand_int_range (rand, 0, 200));
          seismo_trace_builder_push_string (b, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
        }
      else
        {
          static const gint64 big[] = { 0, 1, 9, 2, 100000, -1, -2, -11, -100, -4095, -4096, -5000,
                                        4095, 4096, 9000, 0x40000000, 0x7fffffffffffLL, G_MININT64 };
          guint64 w[4] = { g_rand_int (rand), (guint64) big[g_rand_int_range (rand, 0, G_N_ELEMENTS (big))], 12,
                           ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand) };

          seismo_trace_builder_begin_event (b, 1000 + i, i % 2, tid, r == 1 ? t_tables : t_plain);
          for (guint f = 0; f < G_N_ELEMENTS (tables); f++)
            {
              gint64 v = big[g_rand_int_range (rand, 0, G_N_ELEMENTS (big))];

              if (tables[f].type == SEISMO_FIELD_UINT_ARRAY)
                seismo_trace_builder_push_uint_array (b, w, g_rand_int_range (rand, 0, 5));
              else if (tables[f].type == SEISMO_FIELD_INT)
                seismo_trace_builder_push_int (b, v);
              else
                seismo_trace_builder_push_uint (b, (guint64) (g_rand_boolean (rand) ? v : g_rand_int_range (rand, 0, 400)));
            }
        }
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (b);
}

static void
test_search_awkward_trace (void)
{
  g_autoptr(SeismoTrace) trace = make_awkward_trace ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);

  check_needles (trace, 2);
  check_needle (trace, "abcabc", rand);
  check_needle (trace, "12<", rand);
  check_needle (trace, "undecl}<", rand);
  /* Hex digits, which are compared as nibbles: windows at either end of a value, leading zeros,
   * the 16-digit limit. */
  {
    static const char *const hex[] = { "7fffffffffff", "fffffffffff", "ffffffffffffffff", "8000000000000000",
                                       "80000000000000000", "00000000", "0000", "00", "000c", "0c",
                                       "c0", "7fff", "40000000", "4000", "f0", "0f", "1f", "9c" };

    for (guint i = 0; i < G_N_ELEMENTS (hex); i++)
      check_needle (trace, hex[i], rand);
    /* And pieces of shown hex numbers, 2 to 16 digits long. */
    for (guint i = 0, found = 0; i < 4000 && found < 60; i++)
      {
        SeismoEventId e = (SeismoEventId) g_rand_int_range (rand, 0, (gint32) seismo_trace_get_n_events (trace));
        g_autofree char *text = seismo_trace_event_format (trace, e);
        gsize len = strlen (text), start, n;
        g_autofree char *needle = NULL;

        if (len < 2)
          continue;
        start = g_rand_int_range (rand, 0, (gint32) len - 1);
        n = MIN ((gsize) g_rand_int_range (rand, 2, 17), len - start);
        needle = g_strndup (text + start, n);
        if (n < 2 || strspn (needle, "0123456789abcdef") != n)
          continue;
        check_needle (trace, needle, rand);
        found++;
      }
  }
  {
    /* Longer than the boundary analysis takes: looked for in the text. */
    g_autofree char *long_needle = g_strnfill (300, 'a');

    check_needle (trace, long_needle, rand);
  }
}

/* A value of `bits` bits (1 to 64) at random, its top bit set. */
static guint64
random_bits (GRand *rand,
             guint  bits)
{
  guint64 v = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);

  if (bits < 64)
    v &= (G_GUINT64_CONSTANT (1) << bits) - 1;
  return v | (G_GUINT64_CONSTANT (1) << (bits - 1));
}

/* Arrays of numbers as syscall arguments come, shown in hex and in decimal, with a field after
 * them: values at every varint width boundary (2^(7k) - 1 has k bytes, 2^(7k) has k + 1), of
 * every bit length, and, at the end of the payloads, an array whose loads would run past them. */
static SeismoTrace *
make_words_trace (guint n_events)
{
  const SeismoFieldInfo fields[] = {
    { "nr", SEISMO_FIELD_UINT, 8, 0 },
    { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
    { "tail", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
  };
  const SeismoFieldInfo decimal[] = {
    { "args", SEISMO_FIELD_UINT_ARRAY, 8, 0 },
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint t_hex, t_dec;

  t_hex = seismo_trace_builder_add_event_type (b, "test", "words", fields, G_N_ELEMENTS (fields),
                                               "NR {nr} ({args}) {tail}");
  t_dec = seismo_trace_builder_add_event_type (b, "test", "decimal", decimal, G_N_ELEMENTS (decimal),
                                               "[{args}]");
  seismo_trace_builder_set_task_comm (b, 100, "quiet", 0);
  for (guint i = 0; i < n_events; i++)
    {
      guint64 args[8];
      guint n = g_rand_int_range (rand, 0, G_N_ELEMENTS (args) + 1);
      /* The last event is a hex one, its array too near the payloads' end to be loaded 8 bytes
       * a value. */
      gboolean dec = i % 5 == 4 && i + 1 < n_events;

      if (i + 1 == n_events)
        n = 2;
      for (guint k = 0; k < n; k++)
        {
          guint r = g_rand_int_range (rand, 0, 4);
          guint width = g_rand_int_range (rand, 1, 10);

          if (r == 0)
            args[k] = (G_GUINT64_CONSTANT (1) << (7 * width)) - g_rand_int_range (rand, 0, 2);
          else if (r == 1)
            args[k] = g_rand_int_range (rand, 0, 300);
          else
            args[k] = random_bits (rand, g_rand_int_range (rand, 1, 65));
        }
      if (i + 1 == n_events)
        {
          args[0] = G_GUINT64_CONSTANT (0x7ffe4435cdf0);
          args[1] = 1;
        }
      /* Marks near both ends, and just past a payload block boundary and just before one, each
       * the first the search meets after crossing it (forward, then backward). */
      if (i == 1 || i + 2 == n_events || i == 65536 || i == 2 * 65536 - 1)
        {
          n = MAX (n, 2);
          args[n - 1] = G_GUINT64_CONSTANT (0x987654321987);
        }
      seismo_trace_builder_begin_event (b, 1000 + i, 0, 100, dec ? t_dec : t_hex);
      if (!dec)
        seismo_trace_builder_push_uint (b, g_rand_int_range (rand, 0, 400));
      seismo_trace_builder_push_uint_array (b, args, n);
      if (!dec)
        seismo_trace_builder_push_uint (b, g_rand_int_range (rand, 0, 0x10000));
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (b);
}

/* Hex needles of 2 to 16 digits in array elements, which are compared with the values as stored:
 * whole values at the width boundaries, windows at either end of a value, needles starting with
 * 0 (decoded instead), and the last event's array, whose loads would pass the payloads' end. */
static void
test_search_hex_elements (void)
{
  g_autoptr(SeismoTrace) trace = make_words_trace (1500);
  g_autoptr(GRand) rand = g_rand_new_with_seed (6);
  gsize n = seismo_trace_get_n_events (trace);

  for (guint k = 1; k <= 9; k++)
    {
      guint64 edge = G_GUINT64_CONSTANT (1) << (7 * k);
      g_autofree char *below = g_strdup_printf ("%" G_GINT64_MODIFIER "x", edge - 1);
      g_autofree char *at = g_strdup_printf ("%" G_GINT64_MODIFIER "x", edge);
      g_autofree char *below_dec = g_strdup_printf ("%" G_GUINT64_FORMAT, edge - 1);

      check_needle (trace, below, rand);
      check_needle (trace, at, rand);
      check_needle (trace, below_dec, rand);
    }
  {
    static const char *const fixed[] = { "7ffe4435cdf0", "ffe4435cdf0", "7ffe4435cdf", "cdf0", "7f",
                                         "ffffffffffffffff", "fffffffffffffff", "8000000000000000",
                                         "ffffffffffffff", "100000000000000", "0f", "00", "0000000",
                                         "0ffffffffffffff", "987654321987", "1", "f" };

    for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
      check_needle (trace, fixed[i], rand);
  }
  /* A needle at every window of the widest values it fits in: the first 12 digits of values of
   * 14 (8 bytes stored: the needle's third window). */
  for (gsize e = 0, found = 0; e < n && found < 4; e++)
    {
      g_autofree char *text = seismo_trace_event_format (trace, (SeismoEventId) e);
      const char *open = strchr (text, '(');

      for (const char *c = open != NULL ? open + 1 : text + strlen (text); *c != '\0' && found < 4; )
        {
          gsize run = strspn (c, "0123456789abcdef");

          if (run == 14)
            {
              g_autofree char *needle = g_strndup (c, 12);

              check_needle (trace, needle, rand);
              found++;
            }
          c += MAX (run, 1);
        }
    }
  /* Pieces of the shown values, every length from 2 to 16. */
  for (guint len = 2; len <= 16; len++)
    for (guint found = 0, tries = 0; found < 6 && tries < 2000; tries++)
      {
        SeismoEventId e = (SeismoEventId) g_rand_int_range (rand, 0, (gint32) n);
        g_autofree char *text = seismo_trace_event_format (trace, e);
        const char *open = strchr (text, '(');
        gsize start, run = 0;
        g_autofree char *needle = NULL;

        if (open == NULL)
          continue;
        start = g_rand_int_range (rand, (gint32) (open - text) + 1, (gint32) strlen (text));
        while (g_ascii_isxdigit (text[start + run]))
          run++;
        if (run < len)
          continue;
        needle = g_strndup (text + start + g_rand_int_range (rand, 0, (gint32) (run - len + 1)), len);
        check_needle (trace, needle, rand);
        found++;
      }
}

/* Events are read a payload block (SEISMO_BLOCK_EVENTS) at a time: matches on either side of
 * the block boundaries and at both ends, found forward and backward, with wrap. */
static void
test_search_blocks (void)
{
  g_autoptr(SeismoTrace) trace = make_words_trace (2 * 65536 + 700);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  check_needle (trace, "987654321987", rand);
  check_needle (trace, "7ffe4435cdf0", rand);
  check_needle (trace, "987654321988", rand);
}

static void
test_search_cancelled (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (3000, 5);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_cmpuint (seismo_trace_search (trace, "zzzz", 0, 0, cancellable, NULL, &error), ==, SEISMO_NO_EVENT);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/search/common-trace", test_search_common_trace);
  g_test_add_func ("/search/awkward-trace", test_search_awkward_trace);
  g_test_add_func ("/search/hex-elements", test_search_hex_elements);
  g_test_add_func ("/search/blocks", test_search_blocks);
  g_test_add_func ("/search/cancelled", test_search_cancelled);
  return g_test_run ();
}

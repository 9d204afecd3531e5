/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include "seismo-tep-guard.h"

/*
 * The trial parser of event formats (backends/ftrace/seismo-tep-guard.c), against the
 * libtraceevent 1.7 crashes the trace-dat fuzz target found. Each of the damaged formats below
 * kills a process that gives it to tep_parse_event() directly.
 */

#define COMMON \
  "format:\n" \
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
  "\n" \
  "\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n" \
  "\n"

static const char good[] =
  "name: softirq_raise\nID: 221\n" COMMON
  "print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, { 0, \"HI\" }, "
  "{ 1, \"TIMER\" })\n";

/* From the fuzzer: "REC->vec, {" became "REC->vectr{", a field that does not exist, as the
 * first argument of __print_symbolic(). */
static const char unknown_symbolic_field[] =
  "name: softirq_entry\nID: 223\n" COMMON
  "print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vectr{ 0, \"HI\" }, "
  "{ 1, \"TIMER\" })\n";

static const char unknown_flags_field[] =
  "name: softirq_exit\nID: 222\n" COMMON
  "print fmt: \"%s\", __print_flags(REC->nope, \"|\", { 1, \"A\" })\n";

/* Names __print_symbolic() with no REC-> argument: harmless itself, but it leaves libtraceevent's
 * static "next field is symbolic" flag set for whatever format is parsed next. */
static const char leaves_flag_set[] =
  "name: irq_handler_exit\nID: 224\n" COMMON
  "print fmt: \"%s\", __print_symbolic(1, { 0, \"a\" })\n";

/* Harmless with the flag cleared; a NULL write with it still set. */
static const char unknown_plain_field[] =
  "name: irq_handler_entry\nID: 225\n" COMMON
  "print fmt: \"irq=%d\", REC->irq4\n";

static gboolean
parse (SeismoTepGuard *guard,
       const char     *text)
{
  enum tep_errno result;

  return seismo_tep_guard_parse (guard, text, strlen (text), "irq", &result);
}

static void
test_good (void)
{
  struct tep_handle *tep = tep_alloc ();
  SeismoTepGuard *guard = seismo_tep_guard_new (tep, "good.dat");
  struct tep_event *event;

  g_assert_true (parse (guard, good));
  event = tep_find_event (tep, 221);
  g_assert_nonnull (event);
  g_assert_cmpstr (event->name, ==, "softirq_raise");
  g_assert_nonnull (tep_find_field (event, "vec"));
  seismo_tep_guard_free (guard);
  tep_free (tep);
}

static void
test_crashing (void)
{
  struct tep_handle *tep = tep_alloc ();
  SeismoTepGuard *guard = seismo_tep_guard_new (tep, "damaged.dat");

  g_test_expect_message ("seismo-ftrace", G_LOG_LEVEL_WARNING,
                         "damaged.dat: skipped the format of event irq:softirq_entry (id 223): "
                         "libtraceevent could not parse it (it crashed: *");
  g_assert_false (parse (guard, unknown_symbolic_field));
  g_test_assert_expected_messages ();
  g_assert_null (tep_find_event (tep, 223));

  g_test_expect_message ("seismo-ftrace", G_LOG_LEVEL_WARNING,
                         "damaged.dat: skipped the format of event irq:softirq_exit (id 222)*");
  g_assert_false (parse (guard, unknown_flags_field));
  g_test_assert_expected_messages ();

  /* A new trial process takes over after each crash. */
  g_assert_true (parse (guard, good));
  g_assert_nonnull (tep_find_event (tep, 221));
  seismo_tep_guard_free (guard);
  tep_free (tep);
}

/* The flag one format leaves set must not turn the next one (of any file) into a crash. */
static void
test_flag_left_set (void)
{
  struct tep_handle *tep = tep_alloc ();
  struct tep_handle *other = tep_alloc ();
  SeismoTepGuard *guard = seismo_tep_guard_new (tep, "a.dat");
  SeismoTepGuard *other_guard = seismo_tep_guard_new (other, "b.dat");

  g_assert_true (parse (guard, leaves_flag_set));
  g_assert_true (parse (guard, unknown_plain_field));
  g_assert_nonnull (tep_find_event (tep, 225));
  g_assert_true (parse (guard, leaves_flag_set));
  g_assert_true (parse (other_guard, unknown_plain_field));
  seismo_tep_guard_free (other_guard);
  seismo_tep_guard_free (guard);
  tep_free (other);
  tep_free (tep);
}

/* The same format again (another file of the same machine, a reopened file) needs no trial. */
static void
test_known (void)
{
  struct tep_handle *tep = tep_alloc ();
  SeismoTepGuard *guard = seismo_tep_guard_new (tep, "again.dat");

  g_assert_true (parse (guard, good));
  g_assert_nonnull (tep_find_event (tep, 221));
  g_test_expect_message ("seismo-ftrace", G_LOG_LEVEL_WARNING,
                         "again.dat: skipped the format of event irq:softirq_entry (id 223): "
                         "libtraceevent could not parse it (it crashed: *");
  g_assert_false (parse (guard, unknown_symbolic_field));
  g_test_assert_expected_messages ();
  seismo_tep_guard_free (guard);
  tep_free (tep);
}

/* A hostile file gets a bounded number of trial processes, and none is left behind. */
static void
test_many_crashes (void)
{
  struct tep_handle *tep = tep_alloc ();
  SeismoTepGuard *guard = seismo_tep_guard_new (tep, "hostile.dat");
  g_autofree char *new_good = g_strdup_printf ("name: other\nID: 999\n" COMMON
                                               "print fmt: \"vec=%%u\", REC->vec\n");
  guint refused = 0;

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *text = g_strdup_printf ("name: bad%u\nID: %u\n" COMMON
                                               "print fmt: \"%%s\", __print_symbolic(REC->nope%u, "
                                               "{ 0, \"a\" })\n", i, 300 + i, i);

      g_test_expect_message ("seismo-ftrace", G_LOG_LEVEL_WARNING, "hostile.dat: skipped*");
      refused += !parse (guard, text);
    }
  g_test_assert_expected_messages ();
  g_assert_cmpuint (refused, ==, 40);
  /* Past 32 crashes the file is taken as hostile: a format not seen before is not tried. */
  g_test_expect_message ("seismo-ftrace", G_LOG_LEVEL_WARNING,
                         "hostile.dat: skipped*32 formats of this file crashed*");
  g_assert_false (parse (guard, new_good));
  g_test_assert_expected_messages ();
  seismo_tep_guard_free (guard);
  tep_free (tep);
  g_assert_cmpint (waitpid (-1, NULL, WNOHANG), ==, -1);
  g_assert_cmpint (errno, ==, ECHILD);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tep-guard/good", test_good);
  g_test_add_func ("/tep-guard/crashing", test_crashing);
  g_test_add_func ("/tep-guard/flag-left-set", test_flag_left_set);
  g_test_add_func ("/tep-guard/known", test_known);
  g_test_add_func ("/tep-guard/many-crashes", test_many_crashes);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Function calls derived from function_graph text: what the timeline's nested boxes are drawn
 * from. */
#include <string.h>

#include "seismo-function-calls.h"
#include "seismo-importer.h"
#include "seismo-trace.h"

static SeismoTrace *
load (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace = seismo_trace_open (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static const SeismoFunctionCall *
find_call (SeismoTrace              *trace,
           const SeismoFunctionCall *calls,
           gsize                     n,
           const char               *func)
{
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (seismo_trace_get_string (trace, calls[i].func), func))
      return &calls[i];
  return NULL;
}

/* Plain function_graph: no times, so each CPU's calls are laid end to end from durations. */
static void
test_plain (void)
{
  g_autoptr(SeismoTrace) trace = load ("ftrace-funcgraph-plain.txt");
  gsize n;
  const SeismoFunctionCall *calls = seismo_trace_get_function_calls (trace, &n);
  const SeismoFunctionCall *sys_open, *getname, *leaf;

  g_assert_cmpuint (n, ==, 9);
  sys_open = find_call (trace, calls, n, "sys_open");
  getname = find_call (trace, calls, n, "getname");
  leaf = find_call (trace, calls, n, "schedule_tail");
  g_assert_nonnull (sys_open);
  g_assert_nonnull (getname);
  g_assert_nonnull (leaf);
  g_assert_cmpuint (sys_open->end_ns - sys_open->start_ns, ==, 110000);
  g_assert_cmpuint (sys_open->level, ==, 0);
  g_assert_cmpuint (getname->level, ==, 2);
  g_assert_cmpuint (getname->end_ns - getname->start_ns, ==, 7876);
  /* Nested inside its caller, and on its own task (CPU 1's) at level 0. */
  g_assert_cmpuint (getname->start_ns, >=, sys_open->start_ns);
  g_assert_cmpuint (getname->end_ns, <=, sys_open->end_ns);
  g_assert_cmpuint (leaf->task, !=, sys_open->task);
  g_assert_cmpuint (leaf->level, ==, 0);

  /* Sorted by task, level, start; one level of one task never overlaps. */
  for (gsize i = 1; i < n; i++)
    {
      const SeismoFunctionCall *a = &calls[i - 1], *b = &calls[i];

      g_assert_true (a->task < b->task || (a->task == b->task && a->level <= b->level));
      if (a->task == b->task && a->level == b->level)
        g_assert_cmpuint (a->end_ns, <=, b->start_ns);
    }
}

/* With funcgraph-abstime the times are the file's; the file starts inside deep calls and the
 * levels start at 0 anyway. */
static void
test_abstime (void)
{
  g_autoptr(SeismoTrace) trace = load ("ftrace-funcgraph-abstime-proc.txt");
  gsize n;
  const SeismoFunctionCall *calls = seismo_trace_get_function_calls (trace, &n);
  const SeismoFunctionCall *open = find_call (trace, calls, n, "do_sys_open");
  const SeismoFunctionCall *irq = find_call (trace, calls, n, "do_IRQ");

  g_assert_cmpuint (n, ==, 5);
  g_assert_nonnull (open);
  g_assert_nonnull (irq);
  g_assert_cmpuint (open->end_ns, ==, G_GUINT64_CONSTANT (2403375480000));
  g_assert_cmpuint (open->start_ns, ==, G_GUINT64_CONSTANT (2403375480000) - 106100);
  g_assert_cmpuint (irq->end_ns, ==, G_GUINT64_CONSTANT (2403375391000));
  g_assert_cmpuint (irq->level, ==, 1);
  g_assert_cmpstr (seismo_trace_task_comm_at (trace, irq->task, irq->end_ns), ==, "bash");
}

/* A trace without function_graph has no calls (and pays nothing for them). */
static void
test_none (void)
{
  g_autoptr(SeismoTrace) trace = load ("ftrace-function-symoffset.txt");
  gsize n = 1;

  seismo_trace_get_function_calls (trace, &n);
  g_assert_cmpuint (n, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/function-calls/plain", test_plain);
  g_test_add_func ("/function-calls/abstime", test_abstime);
  g_test_add_func ("/function-calls/none", test_none);
  return g_test_run ();
}

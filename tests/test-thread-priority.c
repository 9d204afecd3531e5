/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib.h>

#include "seismo-thread-priority.h"

/*
 * A thread put in the background runs below the others (a window's read, seismo-window-read.h):
 * it alone, the threads it starts, and the threads of an exclusive pool it makes, which a trace
 * reader's workers are (seismo-tracedat.c). The thread that asked is left as it was.
 */

typedef struct {
  int before;
  int after;
  int child;
  int pool_item;
} Niceness;

static gpointer
child_thread (gpointer data)
{
  return GINT_TO_POINTER (seismo_thread_get_nice ());
}

static void
pool_item (gpointer item,
           gpointer data)
{
  Niceness *n = data;

  g_atomic_int_set (&n->pool_item, seismo_thread_get_nice ());
}

static gpointer
background_thread (gpointer data)
{
  Niceness *n = data;
  GThread *child;
  GThreadPool *pool;

  n->before = seismo_thread_get_nice ();
  seismo_thread_set_background ();
  n->after = seismo_thread_get_nice ();
  child = g_thread_new ("child", child_thread, NULL);
  n->child = GPOINTER_TO_INT (g_thread_join (child));
  pool = g_thread_pool_new (pool_item, n, 1, TRUE, NULL);
  g_thread_pool_push (pool, GINT_TO_POINTER (1), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
  return NULL;
}

static void
test_background (void)
{
  Niceness n = { 0, 0, 0, -100 };
  int main_before = seismo_thread_get_nice ();

#ifndef __linux__
  g_test_skip ("threads have no priority of their own here");
  return;
#endif
  if (main_before + 1 > 19)
    {
      g_test_skip ("already at the lowest priority");
      return;
    }
  g_thread_join (g_thread_new ("background", background_thread, &n));
  g_assert_cmpint (n.before, ==, main_before);
  g_assert_cmpint (n.after, ==, MIN (main_before + SEISMO_BACKGROUND_NICE, 19));
  g_assert_cmpint (n.child, ==, n.after);
  g_assert_cmpint (n.pool_item, ==, n.after);
  g_assert_cmpint (seismo_thread_get_nice (), ==, main_before);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thread-priority/background", test_background);
  return g_test_run ();
}

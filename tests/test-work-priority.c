/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seismo-file-private.h"
#include "seismo-work-priority.h"

/* The nice value of the calling thread (Linux: per thread, by its id). */
static int
thread_nice (void)
{
  int nice;

  errno = 0;
  nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  g_assert_true (nice != -1 || errno == 0);
  return nice;
}

static gpointer
enter_and_report (gpointer data)
{
  seismo_work_priority_enter ();
  /* Twice: the second call must not lower it again. */
  seismo_work_priority_enter ();
  return GINT_TO_POINTER (thread_nice () + 100);
}

static int
nice_of_a_work_thread (void)
{
  GThread *t = g_thread_new ("test-work", enter_and_report, NULL);

  return GPOINTER_TO_INT (g_thread_join (t)) - 100;
}

typedef struct {
  gint  nice[64];
  pid_t tid[64];
} Seen;

static void
record_worker (guint    i,
               guint    worker,
               gpointer data)
{
  Seen *seen = data;

  g_usleep (2000);  /* so that every worker takes some items */
  seen->nice[i] = thread_nice ();
  seen->tid[i] = (pid_t) syscall (SYS_gettid);
}

static gpointer
parallel_from_a_thread (gpointer data)
{
  _seismo_file_parallel_for (64, 4, record_worker, data);
  return NULL;
}

static void
test_work_priority (void)
{
  int base = thread_nice ();
  pid_t main_tid = (pid_t) syscall (SYS_gettid);
  Seen seen = { 0 };
  GThread *t;
  int target;

  if (base >= 19)
    {
      g_test_skip ("this process already runs at the lowest priority (nice 19)");
      return;
    }
  target = MIN (base + 5, 19);

  /* Until a process asks for it (as seismo-cli never does), work threads keep their priority. */
  g_assert_cmpint (nice_of_a_work_thread (), ==, base);

  seismo_work_priority_yield_to_main_thread (5);
  g_assert_cmpint (nice_of_a_work_thread (), ==, target);
  /* The main thread keeps its own, also when it runs a share of a parallel loop. */
  seismo_work_priority_enter ();
  g_assert_cmpint (thread_nice (), ==, base);
  _seismo_file_parallel_for (64, 4, record_worker, &seen);
  for (guint i = 0; i < 64; i++)
    g_assert_cmpint (seen.nice[i], ==, seen.tid[i] == main_tid ? base : target);

  /* A loop started by a work thread runs behind the main thread on every thread. */
  t = g_thread_new ("test-parallel", parallel_from_a_thread, &seen);
  g_thread_join (t);
  for (guint i = 0; i < 64; i++)
    {
      g_assert_cmpint (seen.tid[i], !=, main_tid);
      g_assert_cmpint (seen.nice[i], ==, target);
    }
  g_assert_cmpint (thread_nice (), ==, base);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/work-priority/main-thread-first", test_work_priority);
  return g_test_run ();
}

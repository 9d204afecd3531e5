/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seismo-work-priority.h"

#define N_WORKERS 4
#define MAX_STEPS 200000

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

static void
spin_us (gint64 us)
{
  gint64 end = g_get_monotonic_time () + us;

  while (g_get_monotonic_time () < end)
    ;
}

typedef struct {
  gint     stop;
  gint     n_steps;
  gint64  *steps;        /* the time of each step */
  int      nice;
} Worker;

/* A work thread: a step of work (0.1 ms) after each pause point, until told to stop. */
static gpointer
work (gpointer data)
{
  Worker *w = data;

  seismo_work_priority_enter ();
  w->nice = thread_nice ();
  while (!g_atomic_int_get (&w->stop) && w->n_steps < MAX_STEPS)
    {
      seismo_work_priority_pause_point ();
      spin_us (100);
      w->steps[w->n_steps++] = g_get_monotonic_time ();
    }
  return NULL;
}

static guint
steps_between (const Worker *w,
               gint64        from,
               gint64        to)
{
  guint n = 0;

  for (gint i = 0; i < w->n_steps; i++)
    n += w->steps[i] > from && w->steps[i] <= to;
  return n;
}

typedef struct {
  GMainLoop *loop;
  Worker     workers[N_WORKERS];
  GThread   *threads[N_WORKERS];
  gint64     busy_from, busy_to, resumed_to;
  gint64     join_us;
} Run;

static gboolean
stop_workers (gpointer data)
{
  Run *run = data;

  run->resumed_to = g_get_monotonic_time ();
  for (guint i = 0; i < N_WORKERS; i++)
    g_atomic_int_set (&run->workers[i].stop, 1);
  for (guint i = 0; i < N_WORKERS; i++)
    g_thread_join (run->threads[i]);
  g_main_loop_quit (run->loop);
  return G_SOURCE_REMOVE;
}

/* A frame of 150 ms of the main thread's own work. */
static gboolean
long_frame (gpointer data)
{
  Run *run = data;

  run->busy_from = g_get_monotonic_time ();
  spin_us (150000);
  run->busy_to = g_get_monotonic_time ();
  g_timeout_add (60, stop_workers, run);
  return G_SOURCE_REMOVE;
}

static void
start_workers (Run *run)
{
  for (guint i = 0; i < N_WORKERS; i++)
    {
      run->workers[i] = (Worker) { 0, 0, g_new0 (gint64, MAX_STEPS), 0 };
      run->threads[i] = g_thread_new ("test-work", work, &run->workers[i]);
    }
}

static gboolean
start (gpointer data)
{
  Run *run = data;

  start_workers (run);
  g_timeout_add (30, long_frame, run);
  return G_SOURCE_REMOVE;
}

static void
free_run (Run *run)
{
  for (guint i = 0; i < N_WORKERS; i++)
    g_free (run->workers[i].steps);
  g_main_loop_unref (run->loop);
}

/* The main thread, in one busy iteration, waits for work threads (as a join does). */
static gboolean
join_in_a_frame (gpointer data)
{
  Run *run = data;
  gint64 t0 = g_get_monotonic_time ();

  start_workers (run);
  spin_us (20000);  /* past the grace: the workers are asked to wait */
  for (guint i = 0; i < N_WORKERS; i++)
    g_atomic_int_set (&run->workers[i].stop, 1);
  for (guint i = 0; i < N_WORKERS; i++)
    g_thread_join (run->threads[i]);
  run->join_us = g_get_monotonic_time () - t0 - 20000;
  g_main_loop_quit (run->loop);
  return G_SOURCE_REMOVE;
}

static void
test_work_priority (void)
{
  int base = thread_nice ();
  Run run = { 0 };
  guint going_on = 0;

  /* Until a process asks for it (as seismo-cli never does), nothing waits, even beside a main
   * thread that never polls. */
  run.loop = g_main_loop_new (NULL, FALSE);
  start_workers (&run);
  spin_us (50000);
  for (guint i = 0; i < N_WORKERS; i++)
    g_atomic_int_set (&run.workers[i].stop, 1);
  for (guint i = 0; i < N_WORKERS; i++)
    {
      g_thread_join (run.threads[i]);
      g_assert_cmpint (run.workers[i].n_steps, >, 20);
      g_assert_cmpint (run.workers[i].nice, ==, base);
    }
  free_run (&run);

  seismo_work_priority_yield_to_main_thread ();
  _seismo_work_priority_set_slots (1);

  /* A long frame: one work thread (one slot) goes on, the others wait until the main thread
   * polls again. */
  run = (Run) { g_main_loop_new (NULL, FALSE) };
  g_idle_add (start, &run);
  g_main_loop_run (run.loop);
  for (guint i = 0; i < N_WORKERS; i++)
    {
      Worker *w = &run.workers[i];

      g_test_message ("worker %u: %u steps in the frame, %u after it", i,
                      steps_between (w, run.busy_from + 10000, run.busy_to),
                      steps_between (w, run.busy_to, run.resumed_to));
      going_on += steps_between (w, run.busy_from + 10000, run.busy_to) > 5;
      /* After the frame, every one goes on. */
      g_assert_cmpuint (steps_between (w, run.busy_to, run.resumed_to), >, 5);
      /* Priority is not how it is done: a raised nice value would yield to every program. */
      g_assert_cmpint (w->nice, ==, base);
    }
  g_assert_cmpuint (going_on, ==, 1);
  g_assert_cmpint (thread_nice (), ==, base);
  free_run (&run);

  /* The main thread waiting for the work threads in its iteration is not a frame: they go on. */
  run = (Run) { g_main_loop_new (NULL, FALSE) };
  g_idle_add (join_in_a_frame, &run);
  g_main_loop_run (run.loop);
  g_test_message ("joined in %.1f ms", run.join_us / 1e3);
  g_assert_cmpint (run.join_us, <, 500000);
  free_run (&run);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/work-priority/main-thread-first", test_work_priority);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * The critical path on traces written by hand: a task blocked on a lock held by a task that sleeps
 * on a timer interrupt (the path goes through the holder to the interrupt), a sleep no wakeup
 * ended, unknown before the first state, a long pipe ping-pong (no recursion limit, segments tile
 * the interval), the worker-thread variant and the errors.
 */

#include "seismo-critical-path.h"
#include "seismo-error.h"
#include "seismo-sched-test-util.h"
#include "seismo-test-util.h"
#include "seismo-wait-summary.h"

#define NR_FUTEX 202
#define NR_NANOSLEEP 35

typedef struct {
  gint            tid;      /* 0: the idle task (interrupted by the irq) */
  SeismoPathState state;
  guint64         start;
  guint64         end;
} Expect;

static void
assert_tiles (SeismoTrace *trace,
              GArray      *path,
              guint64      from,
              guint64      to)
{
  guint64 t = from;

  g_assert_cmpuint (path->len, >, 0);
  for (guint i = 0; i < path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);

      g_assert_cmpuint (seg->start_ns, ==, t);
      g_assert_cmpuint (seg->end_ns, >, seg->start_ns);
      g_assert_cmpuint (seg->state, <, SEISMO_PATH_N);
      t = seg->end_ns;
    }
  g_assert_cmpuint (t, ==, to);
}

static void
assert_path (SeismoTrace  *trace,
             GArray       *path,
             const Expect *expect,
             guint         n)
{
  for (guint i = 0; i < MIN (path->len, n); i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);
      const SeismoTask *task = seismo_trace_get_task (trace, seg->task);

      g_test_message ("segment %u: tid %d %s %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, i,
                      task ? task->tid : -1, seismo_path_state_to_string (seg->state),
                      seg->start_ns, seg->end_ns);
      g_assert_nonnull (task);
      g_assert_cmpint (task->tid, ==, expect[i].tid);
      g_assert_cmpstr (seismo_path_state_to_string (seg->state), ==,
                       seismo_path_state_to_string (expect[i].state));
      g_assert_cmpuint (seg->start_ns, ==, expect[i].start);
      g_assert_cmpuint (seg->end_ns, ==, expect[i].end);
    }
  g_assert_cmpuint (path->len, ==, n);
}

/* A waits for a lock B holds while B sleeps 500 ns on a timer; the timer interrupt wakes B, B lets
 * go of the lock and wakes A. */
static SeismoTrace *
make_lock_trace (void)
{
  Gen g;

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 1, 0, 0, B);
  sys (&g, TRUE, 100, 0, A, NR_FUTEX);
  sw (&g, 100, 0, A, 1, 0);                 /* A blocks on the lock */
  sys (&g, TRUE, 110, 1, B, NR_NANOSLEEP);
  sw (&g, 110, 1, B, 1, 0);                 /* B sleeps, holding it */
  irq (&g, TRUE, 590, 1, 0);
  wake (&g, g.waking, 600, 1, 0, B, 1);     /* the timer interrupt wakes B */
  irq (&g, FALSE, 605, 1, 0);
  sw (&g, 610, 1, 0, 0, B);
  sys (&g, FALSE, 611, 1, B, NR_NANOSLEEP);
  wake (&g, g.waking, 650, 1, B, A, 0);     /* B unlocks: A is woken */
  sys (&g, TRUE, 655, 1, B, NR_FUTEX);
  sw (&g, 660, 0, 0, 0, A);
  sys (&g, FALSE, 661, 0, A, NR_FUTEX);
  sys (&g, TRUE, 700, 0, A, NR_FUTEX);
  return seismo_trace_builder_finish (g.b);
}

static void
test_lock_holder (void)
{
  g_autoptr(SeismoTrace) trace = make_lock_trace ();
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  const Expect expect[] = {
    { A, SEISMO_PATH_RUNNING, 50, 100 },
    { B, SEISMO_PATH_RUNNING, 100, 110 },
    { 0, SEISMO_PATH_IRQ, 110, 600 },
    { B, SEISMO_PATH_RUNNABLE, 600, 610 },
    { B, SEISMO_PATH_RUNNING, 610, 650 },
    { A, SEISMO_PATH_RUNNABLE, 650, 660 },
    { A, SEISMO_PATH_RUNNING, 660, 700 },
  };

  path = seismo_critical_path_compute (trace, sched_test_task (trace, A), 50, 700, NULL, &error);
  g_assert_no_error (error);
  assert_path (trace, path, expect, G_N_ELEMENTS (expect));
  assert_tiles (trace, path, 50, 700);
  g_assert_cmpuint (g_array_index (path, SeismoPathSegment, 0).depth, ==, 0);
  g_assert_cmpuint (g_array_index (path, SeismoPathSegment, 1).depth, ==, 1);
  g_assert_cmpuint (g_array_index (path, SeismoPathSegment, 0).cpu, ==, 0);
  g_assert_cmpuint (g_array_index (path, SeismoPathSegment, 4).cpu, ==, 1);
}

/* Over B alone: its sleep ends in the interrupt; an interval ending mid-sleep stays a sleep; before
 * B's first state the path is unknown. */
static void
test_edges (void)
{
  g_autoptr(SeismoTrace) trace = make_lock_trace ();
  g_autoptr(GArray) mid = NULL;
  g_autoptr(GArray) early = NULL;
  g_autoptr(GError) error = NULL;
  const Expect expect_mid[] = {
    { A, SEISMO_PATH_RUNNING, 50, 100 },
    { A, SEISMO_PATH_SLEEPING, 100, 300 },
  };
  const Expect expect_early[] = {
    { B, SEISMO_PATH_UNKNOWN, 10, 20 },
    { B, SEISMO_PATH_RUNNING, 20, 30 },
  };

  mid = seismo_critical_path_compute (trace, sched_test_task (trace, A), 50, 300, NULL, &error);
  g_assert_no_error (error);
  assert_path (trace, mid, expect_mid, G_N_ELEMENTS (expect_mid));
  early = seismo_critical_path_compute (trace, sched_test_task (trace, B), 0, 30, NULL, &error);
  g_assert_no_error (error);
  assert_path (trace, early, expect_early, G_N_ELEMENTS (expect_early));
}

/* Two tasks passing a byte 20000 times: each sleeps until the other wakes it. The path of A over
 * the whole trace alternates between the two and covers it exactly. */
static void
test_ping_pong (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  guint64 t = 10, running[2] = { 0, 0 };

  gen_init (&g);
  sw (&g, t, 0, 0, 0, A);
  sw (&g, t, 1, 0, 0, B);
  sw (&g, t + 5, 1, B, 1, 0);
  for (guint i = 0; i < 20000; i++)
    {
      gint me = i % 2 ? B : A, other = i % 2 ? A : B;
      guint cpu = i % 2, other_cpu = 1 - cpu;

      wake (&g, g.waking, t + 50, cpu, me, other, other_cpu);
      sw (&g, t + 60, cpu, me, 1, 0);
      sw (&g, t + 70, other_cpu, 0, 0, other);
      t += 70;
    }
  trace = seismo_trace_builder_finish (g.b);
  path = seismo_critical_path_compute (trace, sched_test_task (trace, A), seismo_trace_get_start_ns (trace),
                                       seismo_trace_get_end_ns (trace), NULL, &error);
  g_assert_no_error (error);
  assert_tiles (trace, path, seismo_trace_get_start_ns (trace), seismo_trace_get_end_ns (trace));
  for (guint i = 0; i < path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);
      gint tid = seismo_trace_get_task (trace, seg->task)->tid;

      g_assert_cmpint (seg->state, !=, SEISMO_PATH_SLEEPING);
      if (seg->state == SEISMO_PATH_RUNNING)
        running[tid == B] += seg->end_ns - seg->start_ns;
    }
  /* Each runs 50 ns of every 70, the other 20 are the wakeup latency. */
  g_assert_cmpuint (running[0], >=, 10000 * 50);
  g_assert_cmpuint (running[1], >=, 10000 * 50 - 100);
}

/* A recorder following only A and B records C's wakeup of A (C was interrupted by the timer) but not
 * C's switches: C's state is stale (runnable), so C is not put on the path: A's sleep stays. */
static void
test_stale_waker (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  const Expect expect[] = {
    { A, SEISMO_PATH_RUNNING, 10, 100 },
    { A, SEISMO_PATH_SLEEPING, 100, 400 },
    { A, SEISMO_PATH_RUNNABLE, 400, 450 },
    { A, SEISMO_PATH_RUNNING, 450, 500 },
  };

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 1, C, 0x100, B);              /* C preempted by B: recorded because of B */
  sw (&g, 100, 0, A, 1, 0);
  sw (&g, 150, 1, B, 1, 0);                 /* the switch back to C is not recorded */
  wake (&g, g.waking, 400, 1, C, A, 0);
  sw (&g, 450, 0, 0, 0, A);
  sys (&g, TRUE, 500, 0, A, NR_FUTEX);
  trace = seismo_trace_builder_finish (g.b);
  path = seismo_critical_path_compute (trace, sched_test_task (trace, A), 0, 500, NULL, &error);
  g_assert_no_error (error);
  assert_path (trace, path, expect, G_N_ELEMENTS (expect));
}

/* The same recording, but C makes a syscall before it wakes A (as a waker in a system call does):
 * the event puts C on CPU 1 although its switch-in is missing, so C is the known waker and A's
 * sleep is C's states: stale Runnable until its event, then Running up to the wakeup. */
static void
test_waker_switch_in_missing (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  const Expect expect[] = {
    { A, SEISMO_PATH_RUNNING, 10, 100 },
    { C, SEISMO_PATH_RUNNABLE, 100, 390 },
    { C, SEISMO_PATH_RUNNING, 390, 400 },
    { A, SEISMO_PATH_RUNNABLE, 400, 450 },
    { A, SEISMO_PATH_RUNNING, 450, 500 },
  };

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 1, C, 0x100, B);
  sw (&g, 100, 0, A, 1, 0);
  sw (&g, 150, 1, B, 1, 0);                 /* the switch back to C is not recorded */
  sys (&g, TRUE, 390, 1, C, NR_FUTEX);      /* but C's own event is */
  wake (&g, g.waking, 400, 1, C, A, 0);
  sw (&g, 450, 0, 0, 0, A);
  sys (&g, TRUE, 500, 0, A, NR_FUTEX);
  trace = seismo_trace_builder_finish (g.b);
  path = seismo_critical_path_compute (trace, sched_test_task (trace, A), 0, 500, NULL, &error);
  g_assert_no_error (error);
  assert_path (trace, path, expect, G_N_ELEMENTS (expect));
}

/* The summary of A over the lock trace: 90 ns running, 10 runnable, 550 asleep in futex: all of it
 * ended by B. */
static void
test_wait_summary (void)
{
  g_autoptr(SeismoTrace) trace = make_lock_trace ();
  g_autoptr(SeismoWaitSummary) s = seismo_wait_summary_compute (trace, sched_test_task (trace, A), 50, 700);
  const SeismoWaitWaker *w;
  const SeismoWaitSyscall *sc;
  guint64 sum = 0;

  for (guint k = 0; k < SEISMO_STATE_N; k++)
    sum += s->totals[k];
  g_assert_cmpuint (sum, ==, 650);
  g_assert_cmpuint (s->totals[SEISMO_STATE_SLEEPING], ==, 550);
  g_assert_cmpuint (s->totals[SEISMO_STATE_RUNNABLE], ==, 10);
  g_assert_cmpuint (s->wakers->len, ==, 1);
  w = &g_array_index (s->wakers, SeismoWaitWaker, 0);
  g_assert_cmpint (w->kind, ==, SEISMO_WAKER_TASK);
  g_assert_cmpuint (w->task, ==, sched_test_task (trace, B));
  g_assert_cmpuint (w->ns, ==, 550);
  g_assert_cmpuint (w->count, ==, 1);
  g_assert_cmpuint (s->syscalls->len, ==, 1);
  sc = &g_array_index (s->syscalls, SeismoWaitSyscall, 0);
  g_assert_cmpstr (seismo_trace_get_syscall_name (trace, sc->syscall), ==, "futex");
  g_assert_cmpuint (s->runnable->len, ==, 1);
  g_assert_cmpuint (g_array_index (s->runnable, SeismoWaitRunnable, 0).duration_ns, ==, 10);
  g_assert_false (g_array_index (s->runnable, SeismoWaitRunnable, 0).preempted);
}

static void
async_done (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  GArray **out = data;
  g_autoptr(GError) error = NULL;

  *out = seismo_critical_path_compute_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async_and_errors (void)
{
  g_autoptr(SeismoTrace) trace = make_lock_trace ();
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  GArray *bad;

  seismo_critical_path_compute_async (trace, sched_test_task (trace, A), 0, G_MAXUINT64, NULL,
                                      async_done, &path);
  while (path == NULL)
    g_main_context_iteration (NULL, TRUE);
  assert_tiles (trace, path, seismo_trace_get_start_ns (trace), seismo_trace_get_end_ns (trace));

  bad = seismo_critical_path_compute (trace, 999, 0, 100, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = seismo_critical_path_compute (trace, sched_test_task (trace, A), 300, 300, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/critical-path/lock-holder", test_lock_holder);
  g_test_add_func ("/critical-path/edges", test_edges);
  g_test_add_func ("/critical-path/ping-pong", test_ping_pong);
  g_test_add_func ("/critical-path/stale-waker", test_stale_waker);
  g_test_add_func ("/critical-path/waker-switch-in-missing", test_waker_switch_in_missing);
  g_test_add_func ("/critical-path/wait-summary", test_wait_summary);
  g_test_add_func ("/critical-path/async-and-errors", test_async_and_errors);
  return g_test_run ();
}

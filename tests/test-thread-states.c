/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * Thread states derived at load, on small traces written event by event so that every state is
 * known by hand: sleep and wakeup with the waker and the syscall, preemption, migration, lost
 * events (unknown across the gap, never guessed), missing wakeups, a task that never switches,
 * the idle task, idle kernel threads and exits, wakeups from interrupts.
 */

#include "seismo-runnable-latency.h"
#include "seismo-sched-test-util.h"
#include "seismo-test-util.h"
#include "seismo-thread-states.h"

typedef struct {
  guint64           start;
  SeismoThreadState state;
  guint             cpu;
  guint             flags;  /* must be set */
} Expect;

#define NO_CPU SEISMO_STATE_NO_CPU

static void
assert_states (SeismoTrace  *trace,
               gint          tid,
               const Expect *expect,
               gsize         n_expect)
{
  SeismoTaskId t = sched_test_task (trace, tid);
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, t, &n);

  for (gsize i = 0; i < MIN (n, n_expect); i++)
    {
      g_test_message ("task %d state %zu: %s at %" G_GUINT64_FORMAT " cpu %u flags %x", tid, i,
                      seismo_thread_state_to_string (spans[i].state),
                      seismo_trace_task_state_start_ns (trace, t, i), spans[i].cpu, spans[i].flags);
      g_assert_cmpuint (seismo_trace_task_state_start_ns (trace, t, i), ==, expect[i].start);
      g_assert_cmpstr (seismo_thread_state_to_string (spans[i].state), ==,
                       seismo_thread_state_to_string (expect[i].state));
      g_assert_cmpuint (spans[i].cpu, ==, expect[i].cpu);
      g_assert_cmpuint (spans[i].flags & expect[i].flags, ==, expect[i].flags);
    }
  g_assert_cmpuint (n, ==, n_expect);
}

static void
assert_totals_add_up (SeismoTrace *trace,
                      guint64      from,
                      guint64      to)
{
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      guint64 totals[SEISMO_STATE_N], sum = 0;

      seismo_trace_task_state_totals (trace, t, from, to, totals);
      for (guint s = 0; s < SEISMO_STATE_N; s++)
        sum += totals[s];
      g_assert_cmpuint (sum, ==, MIN (to, seismo_trace_get_end_ns (trace)) -
                                 MAX (from, seismo_trace_get_start_ns (trace)));
    }
}

/* Sleep in read, woken by B on another CPU, preempted, then migrated to B's CPU. */
static void
test_sleep_wake_preempt_migrate (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  SeismoTaskId a;
  guint64 totals[SEISMO_STATE_N];
  guint syscall;
  const Expect expect_a[] = {
    { 10, SEISMO_STATE_RUNNING, 0, 0 },
    { 30, SEISMO_STATE_SLEEPING, NO_CPU, 0 },
    { 50, SEISMO_STATE_RUNNABLE, 0, SEISMO_STATE_FLAG_WOKEN },
    { 60, SEISMO_STATE_RUNNING, 0, 0 },
    { 80, SEISMO_STATE_RUNNABLE, 0, SEISMO_STATE_FLAG_PREEMPTED },
    { 90, SEISMO_STATE_RUNNING, 1, 0 },
  };
  const Expect expect_b[] = {
    { 15, SEISMO_STATE_RUNNING, 1, 0 },
    { 90, SEISMO_STATE_RUNNABLE, 1, SEISMO_STATE_FLAG_PREEMPTED },
  };
  const Expect expect_c[] = {
    { 80, SEISMO_STATE_RUNNING, 0, 0 },
    { 100, SEISMO_STATE_UNINTERRUPTIBLE, NO_CPU, 0 },
  };

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sys (&g, TRUE, 20, 0, A, NR_READ);
  sw (&g, 30, 0, A, 1, 0);
  sw (&g, 15, 1, 0, 0, B);
  wake (&g, g.waking, 50, 1, B, A, 0);
  wake (&g, g.wakeup, 55, 1, B, A, 0);
  sw (&g, 60, 0, 0, 0, A);
  sys (&g, FALSE, 70, 0, A, NR_READ);
  sw (&g, 80, 0, A, 0, C);
  sw (&g, 90, 1, B, 0x100, A);
  sw (&g, 100, 0, C, 2, 0);
  sys (&g, TRUE, 110, 1, A, NR_READ);
  trace = seismo_trace_builder_finish (g.b);

  g_assert_true (seismo_trace_has_states (trace));
  assert_states (trace, A, expect_a, G_N_ELEMENTS (expect_a));
  assert_states (trace, B, expect_b, G_N_ELEMENTS (expect_b));
  assert_states (trace, C, expect_c, G_N_ELEMENTS (expect_c));

  a = sched_test_task (trace, A);
  g_assert_cmpuint (seismo_trace_task_state_waker (trace, a, 2), ==, sched_test_task (trace, B));
  g_assert_cmpuint (seismo_trace_task_state_waker (trace, a, 4), ==, SEISMO_NO_TASK);
  g_assert_true (seismo_trace_task_state_syscall (trace, a, 1, &syscall));
  g_assert_cmpstr (seismo_trace_get_syscall_name (trace, syscall), ==, "read");
  g_assert_cmpuint (seismo_trace_task_state_find (trace, a, 5), ==, G_MAXSIZE);
  g_assert_cmpuint (seismo_trace_task_state_find (trace, a, 50), ==, 2);
  g_assert_cmpuint (seismo_trace_task_state_find (trace, a, 59), ==, 2);
  g_assert_cmpuint (seismo_trace_task_state_end_ns (trace, a, 5), ==, 110);

  seismo_trace_task_state_totals (trace, a, 0, G_MAXUINT64, totals);
  g_assert_cmpuint (totals[SEISMO_STATE_RUNNING], ==, 20 + 20 + 20);
  g_assert_cmpuint (totals[SEISMO_STATE_SLEEPING], ==, 20);
  g_assert_cmpuint (totals[SEISMO_STATE_RUNNABLE], ==, 10 + 10);
  g_assert_cmpuint (totals[SEISMO_STATE_UNKNOWN], ==, 0);
  /* C: unknown before its first switch-in. */
  seismo_trace_task_state_totals (trace, sched_test_task (trace, C), 40, 105, totals);
  g_assert_cmpuint (totals[SEISMO_STATE_UNKNOWN], ==, 40);
  g_assert_cmpuint (totals[SEISMO_STATE_RUNNING], ==, 20);
  g_assert_cmpuint (totals[SEISMO_STATE_UNINTERRUPTIBLE], ==, 5);
  assert_totals_add_up (trace, 0, G_MAXUINT64);
  assert_totals_add_up (trace, 33, 77);

  /* Runnable latencies: woken at 50, ran at 60; preempted at 80, ran at 90. B, runnable until the
   * trace ends, measured none; an interval takes the waits that begin and end in it. */
  {
    g_autoptr(GArray) all = seismo_runnable_latency_collect (trace, a, 0, G_MAXUINT64);
    g_autoptr(GArray) late = seismo_runnable_latency_collect (trace, a, 55, G_MAXUINT64);
    g_autoptr(GArray) early = seismo_runnable_latency_collect (trace, a, 0, 85);
    g_autoptr(GArray) none = seismo_runnable_latency_collect (trace, sched_test_task (trace, B), 0,
                                                              G_MAXUINT64);
    g_autoptr(SeismoLatencyHistogram) h = seismo_runnable_latency_histogram (trace, a, 0, G_MAXUINT64);
    SeismoLatencySummary summary;
    SeismoLatencyBucket bucket;

    g_assert_cmpuint (all->len, ==, 2);
    g_assert_cmpuint (g_array_index (all, SeismoLatencySample, 0).value, ==, 10);
    g_assert_cmpuint (seismo_trace_event_time (trace, g_array_index (all, SeismoLatencySample, 0).start), ==, 50);
    g_assert_cmpuint (seismo_trace_event_time (trace, g_array_index (all, SeismoLatencySample, 1).end), ==, 90);
    g_assert_cmpuint (late->len, ==, 1);
    g_assert_cmpuint (seismo_trace_event_time (trace, g_array_index (late, SeismoLatencySample, 0).start), ==, 80);
    g_assert_cmpuint (early->len, ==, 1);
    g_assert_cmpuint (seismo_trace_event_time (trace, g_array_index (early, SeismoLatencySample, 0).start), ==, 50);
    g_assert_cmpuint (none->len, ==, 0);
    seismo_latency_histogram_get_summary (h, &summary);
    g_assert_cmpuint (summary.count, ==, 2);
    g_assert_cmpuint (summary.max, ==, 10);
    seismo_latency_histogram_get_bucket (h, seismo_latency_histogram_bucket_of (h, 10), &bucket);
    g_assert_cmpuint (bucket.count, ==, 2);
  }
}

/* Lost events on CPU 1 after t=40: tasks known before then become Unknown from the gap until they
 * are seen again; a task switched in after the gap keeps its state. */
static void
test_lost_events (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  const Expect expect_a[] = {
    { 10, SEISMO_STATE_RUNNING, 0, 0 },
    { 20, SEISMO_STATE_SLEEPING, NO_CPU, 0 },
    { 50, SEISMO_STATE_UNKNOWN, NO_CPU, SEISMO_STATE_FLAG_LOST },
    { 90, SEISMO_STATE_RUNNING, 0, 0 },
  };
  const Expect expect_b[] = {
    { 30, SEISMO_STATE_RUNNING, 1, 0 },
    { 50, SEISMO_STATE_UNKNOWN, NO_CPU, SEISMO_STATE_FLAG_LOST },
    { 80, SEISMO_STATE_RUNNING, 1, SEISMO_STATE_FLAG_SEEN },
  };
  const Expect expect_c[] = {
    { 60, SEISMO_STATE_RUNNING, 0, 0 },
    { 90, SEISMO_STATE_RUNNABLE, 0, SEISMO_STATE_FLAG_PREEMPTED },
  };
  guint64 totals[SEISMO_STATE_N];

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 0, A, 1, 0);
  sw (&g, 30, 1, 0, 0, B);
  sys (&g, TRUE, 40, 1, B, NR_READ);
  sys (&g, FALSE, 50, 0, 0, NR_READ);     /* the idle task's event on CPU 0: the gap starts after */
  sw (&g, 60, 0, 0, 0, C);                /* after the gap began: newer evidence */
  seismo_trace_builder_add_lost_events (g.b, 1, 70, 1000);
  sys (&g, FALSE, 80, 1, B, NR_READ);     /* B seen again on CPU 1 */
  sw (&g, 90, 0, C, 0, A);
  sys (&g, TRUE, 100, 0, A, NR_READ);
  trace = seismo_trace_builder_finish (g.b);

  assert_states (trace, A, expect_a, G_N_ELEMENTS (expect_a));
  assert_states (trace, B, expect_b, G_N_ELEMENTS (expect_b));
  assert_states (trace, C, expect_c, G_N_ELEMENTS (expect_c));
  seismo_trace_task_state_totals (trace, sched_test_task (trace, A), 0, G_MAXUINT64, totals);
  g_assert_cmpuint (totals[SEISMO_STATE_UNKNOWN], ==, 40);
  assert_totals_add_up (trace, 0, G_MAXUINT64);
}

/* A recorder that follows some tasks can miss the switch that puts a followed task back on a CPU
 * (from a task it does not follow): the task's own event says it runs there, whether the states had
 * it Runnable or asleep, on that CPU or another. The one the states had on the CPU leaves then. */
static void
test_switch_in_missing (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  const Expect expect_a[] = {
    { 10, SEISMO_STATE_RUNNING, 0, 0 },
    { 20, SEISMO_STATE_RUNNABLE, 0, SEISMO_STATE_FLAG_PREEMPTED },
    { 40, SEISMO_STATE_RUNNING, 0, SEISMO_STATE_FLAG_SEEN },
    { 60, SEISMO_STATE_SLEEPING, NO_CPU, 0 },
    { 70, SEISMO_STATE_RUNNING, 1, SEISMO_STATE_FLAG_SEEN },
  };
  const Expect expect_b[] = {
    { 20, SEISMO_STATE_RUNNING, 0, 0 },
    { 40, SEISMO_STATE_UNKNOWN, NO_CPU, 0 },
  };

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 0, A, 0x100, B);            /* A preempted by B; B's switch back to A is missing */
  sys (&g, TRUE, 40, 0, A, NR_READ);
  sys (&g, FALSE, 50, 0, A, NR_READ);     /* already Running there: no change */
  sw (&g, 60, 0, A, 1, 0);
  sys (&g, TRUE, 70, 1, A, NR_READ);      /* asleep, no wakeup or switch recorded, runs on CPU 1 */
  trace = seismo_trace_builder_finish (g.b);

  assert_states (trace, A, expect_a, G_N_ELEMENTS (expect_a));
  assert_states (trace, B, expect_b, G_N_ELEMENTS (expect_b));
  assert_totals_add_up (trace, 0, G_MAXUINT64);
}

/* No wakeup recorded: sleeping until it runs, never a guessed Runnable. A task that never switches
 * is Running from its first event. The idle task has no states; an idle kernel thread sleeps (I); a
 * task that exits is Dead and stays dead. */
static void
test_edges (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  gsize n;
  const Expect expect_a[] = {
    { 10, SEISMO_STATE_RUNNING, 0, 0 },
    { 20, SEISMO_STATE_SLEEPING, NO_CPU, 0 },
    { 40, SEISMO_STATE_RUNNING, 0, 0 },
    { 60, SEISMO_STATE_DEAD, NO_CPU, 0 },
  };
  const Expect expect_b[] = {
    { 5, SEISMO_STATE_RUNNING, 2, SEISMO_STATE_FLAG_SEEN },
  };
  const Expect expect_k[] = {
    { 20, SEISMO_STATE_RUNNING, 0, 0 },
    { 30, SEISMO_STATE_SLEEPING, NO_CPU, SEISMO_STATE_FLAG_IDLE },
  };

  gen_init (&g);
  sys (&g, TRUE, 5, 2, B, NR_READ);       /* B never switches: it only makes syscalls on CPU 2 */
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 0, A, 1, K);
  sw (&g, 30, 0, K, 0x80, 0);
  sys (&g, FALSE, 35, 2, B, NR_READ);
  sw (&g, 40, 0, 0, 0, A);
  sw (&g, 60, 0, A, 0x10, 0);
  wake (&g, g.wakeup, 70, 1, 0, A, 0);   /* a stray wakeup of the dead task changes nothing */
  sys (&g, TRUE, 80, 2, B, NR_READ);
  trace = seismo_trace_builder_finish (g.b);

  assert_states (trace, A, expect_a, G_N_ELEMENTS (expect_a));
  assert_states (trace, B, expect_b, G_N_ELEMENTS (expect_b));
  assert_states (trace, K, expect_k, G_N_ELEMENTS (expect_k));
  seismo_trace_get_task_states (trace, sched_test_task (trace, 0), &n);
  g_assert_cmpuint (n, ==, 0);
  assert_totals_add_up (trace, 0, G_MAXUINT64);
}

/* A wakeup inside an interrupt handler is flagged so; sched_blocked_reason names where D blocked;
 * a new task's first wakeup is Runnable from Unknown. */
static void
test_irq_wakeup_and_blocked_reason (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  guint64 caller = 0;
  guint syscall;
  const Expect expect_a[] = {
    { 10, SEISMO_STATE_RUNNING, 0, 0 },
    { 20, SEISMO_STATE_UNINTERRUPTIBLE, NO_CPU, 0 },
    { 50, SEISMO_STATE_RUNNABLE, 0, SEISMO_STATE_FLAG_WOKEN | SEISMO_STATE_FLAG_IN_IRQ },
    { 70, SEISMO_STATE_RUNNING, 0, 0 },
  };
  const Expect expect_c[] = {
    { 55, SEISMO_STATE_RUNNABLE, 1, SEISMO_STATE_FLAG_WOKEN | SEISMO_STATE_FLAG_NEW },
  };

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sys (&g, TRUE, 15, 0, A, NR_FSYNC);
  sw (&g, 20, 0, A, 2, 0);
  sw (&g, 30, 1, 0, 0, B);
  irq (&g, TRUE, 45, 1, B);
  wake (&g, g.waking, 50, 1, B, A, 0);
  seismo_trace_builder_begin_event (g.b, 51, 1, B, g.blocked);
  seismo_trace_builder_push_int (g.b, A);
  seismo_trace_builder_push_uint (g.b, 0xffffffff81234567);
  seismo_trace_builder_push_uint (g.b, 1);
  seismo_trace_builder_end_event (g.b);
  irq (&g, FALSE, 52, 1, B);
  wake (&g, g.wakeup_new, 55, 1, B, C, 1);
  sw (&g, 70, 0, 0, 0, A);
  trace = seismo_trace_builder_finish (g.b);

  assert_states (trace, A, expect_a, G_N_ELEMENTS (expect_a));
  assert_states (trace, C, expect_c, G_N_ELEMENTS (expect_c));
  g_assert_true (seismo_trace_task_state_blocked_caller (trace, sched_test_task (trace, A), 1, &caller));
  g_assert_cmphex (caller, ==, 0xffffffff81234567);
  g_assert_false (seismo_trace_task_state_blocked_caller (trace, sched_test_task (trace, A), 3, &caller));
  g_assert_true (seismo_trace_task_state_syscall (trace, sched_test_task (trace, A), 1, &syscall));
  g_assert_cmpstr (seismo_trace_get_syscall_name (trace, syscall), ==, "fsync");
  /* The waker is B (in an interrupt on its CPU). */
  g_assert_cmpuint (seismo_trace_task_state_waker (trace, sched_test_task (trace, A), 2), ==, sched_test_task (trace, B));
}

/* No sched_switch at all (a ptrace recording): no states, all unknown. */
static void
test_no_scheduler (void)
{
  Gen g;
  g_autoptr(SeismoTrace) trace = NULL;
  guint64 totals[SEISMO_STATE_N];
  gsize n;

  gen_init (&g);
  sys (&g, TRUE, 10, 0, A, NR_READ);
  sys (&g, FALSE, 30, 0, A, NR_READ);
  trace = seismo_trace_builder_finish (g.b);
  g_assert_false (seismo_trace_has_states (trace));
  g_assert_null (seismo_trace_get_task_states (trace, sched_test_task (trace, A), &n));
  g_assert_cmpuint (n, ==, 0);
  seismo_trace_task_state_totals (trace, sched_test_task (trace, A), 0, 100, totals);
  g_assert_cmpuint (totals[SEISMO_STATE_UNKNOWN], ==, 20);
}

/* The generated test trace (many tasks, 4 CPUs, lost events): states are in time order per task,
 * and the totals add up over any window. */
static void
test_generated_trace (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (50000, 3);
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace);
  gsize any = 0;

  g_assert_true (seismo_trace_has_states (trace));
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      gsize n;
      const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, t, &n);

      any += n;
      for (gsize i = 0; i < n; i++)
        {
          g_assert_cmpuint (spans[i].state, <, SEISMO_STATE_N);
          if (i > 0)
            g_assert_cmpuint (spans[i - 1].start, <, spans[i].start);
          if (spans[i].state == SEISMO_STATE_RUNNING)
            g_assert_cmpuint (spans[i].cpu, <, seismo_trace_get_n_cpus (trace));
        }
    }
  g_assert_cmpuint (any, >, 1000);
  assert_totals_add_up (trace, start, end);
  assert_totals_add_up (trace, start + (end - start) / 3, end - (end - start) / 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thread-states/sleep-wake-preempt-migrate", test_sleep_wake_preempt_migrate);
  g_test_add_func ("/thread-states/lost-events", test_lost_events);
  g_test_add_func ("/thread-states/switch-in-missing", test_switch_in_missing);
  g_test_add_func ("/thread-states/edges", test_edges);
  g_test_add_func ("/thread-states/irq-wakeup-blocked-reason", test_irq_wakeup_and_blocked_reason);
  g_test_add_func ("/thread-states/no-scheduler", test_no_scheduler);
  g_test_add_func ("/thread-states/generated", test_generated_trace);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * Who woke a sleeper, when the wakeup ran in an interrupt: A sleeps in nanosleep on CPU 0 while C
 * runs on CPU 1; the timer wakes A from CPU 1, in whatever context the generated trace says. A
 * wakeup in an interrupt or softirq is charged to it (state irq/softirq on the critical path, with
 * C only as the task it interrupted), never to C, which happened to be running there.
 */

#include "seismo-critical-path.h"
#include "seismo-sched-test-util.h"
#include "seismo-test-util.h"
#include "seismo-wait-summary.h"

#define NR_NANOSLEEP 35
#define NR_FUTEX 202
#define TIMER_SOFTIRQ 1
#define NET_RX_SOFTIRQ 3
#define HRTIMER_SOFTIRQ 8

typedef void (*Wrap) (Gen *g);

/* The wakeup of A at 600 on CPU 1, wrapped in contexts opened from 590 and closed after. */
static void
wake_plain (Gen *g)
{
  wake (g, g->waking, 600, 1, C, A, 0);
}

static void
wake_in_hrtimer (Gen *g)
{
  ctx (g, g->hrtimer_in, 590, 1, C, 0xffff1000);
  wake (g, g->waking, 600, 1, C, A, 0);
  ctx (g, g->hrtimer_out, 602, 1, C, 0xffff1000);
}

static void
wake_in_apic_hrtimer (Gen *g)
{
  ctx (g, g->apic_in, 588, 1, C, 236);
  ctx (g, g->hrtimer_in, 590, 1, C, 0xffff1000);
  wake (g, g->waking, 600, 1, C, A, 0);
  ctx (g, g->hrtimer_out, 602, 1, C, 0xffff1000);
  ctx (g, g->apic_out, 604, 1, C, 236);
}

static void
wake_in_timer_softirq (Gen *g)
{
  ctx (g, g->soft_in, 590, 1, C, TIMER_SOFTIRQ);
  ctx (g, g->timer_in, 592, 1, C, 0xffff2000);
  wake (g, g->waking, 600, 1, C, A, 0);
  ctx (g, g->timer_out, 602, 1, C, 0xffff2000);
  ctx (g, g->soft_out, 604, 1, C, TIMER_SOFTIRQ);
}

/* A soft hrtimer runs in HRTIMER_SOFTIRQ: the softirq woke A. */
static void
wake_in_soft_hrtimer (Gen *g)
{
  ctx (g, g->soft_in, 590, 1, C, HRTIMER_SOFTIRQ);
  ctx (g, g->hrtimer_in, 592, 1, C, 0xffff1000);
  wake (g, g->waking, 600, 1, C, A, 0);
  ctx (g, g->hrtimer_out, 602, 1, C, 0xffff1000);
  ctx (g, g->soft_out, 604, 1, C, HRTIMER_SOFTIRQ);
}

/* A hard hrtimer interrupting the network softirq (the timer interrupt itself not recorded): the
 * interrupt woke A, not the softirq. */
static void
wake_in_hrtimer_over_softirq (Gen *g)
{
  ctx (g, g->soft_in, 590, 1, C, NET_RX_SOFTIRQ);
  ctx (g, g->hrtimer_in, 592, 1, C, 0xffff1000);
  wake (g, g->waking, 600, 1, C, A, 0);
  ctx (g, g->hrtimer_out, 602, 1, C, 0xffff1000);
  ctx (g, g->soft_out, 604, 1, C, NET_RX_SOFTIRQ);
}

/* After the inner handler's exit the outer one is still running: its wakeup is the irq's. */
static void
wake_in_nested_irq (Gen *g)
{
  irq (g, TRUE, 590, 1, C);
  irq (g, TRUE, 592, 1, C);
  irq (g, FALSE, 595, 1, C);
  wake (g, g->waking, 600, 1, C, A, 0);
  irq (g, FALSE, 602, 1, C);
}

/* An interrupt during a softirq, then the softirq goes on and wakes A. */
static void
wake_in_softirq_after_irq (Gen *g)
{
  ctx (g, g->soft_in, 590, 1, C, TIMER_SOFTIRQ);
  irq (g, TRUE, 592, 1, C);
  irq (g, FALSE, 595, 1, C);
  wake (g, g->waking, 600, 1, C, A, 0);
  ctx (g, g->soft_out, 604, 1, C, TIMER_SOFTIRQ);
}

/* An interrupt whose exit was lost: the switch at 580 closes it, so C's own wakeup at 600 is C's. */
static void
wake_after_lost_irq_exit (Gen *g)
{
  irq (g, TRUE, 570, 1, C);
  sw (g, 580, 1, C, 0, C);
  wake (g, g->waking, 600, 1, C, A, 0);
}

/* The idle task does not wake anyone except from an interrupt: CPU 1 idle, no context recorded. */
static void
wake_from_idle (Gen *g)
{
  sw (g, 400, 1, C, 1, 0);
  wake (g, g->waking, 600, 1, 0, A, 0);
  sw (g, 650, 1, 0, 0, C);
}

/* A in nanosleep or futex from 100, woken at 600 on CPU 1 where C runs; A runs from 610, and its
 * syscall returns sleep_ret. */
static SeismoTrace *
make_trace (Wrap     wrap,
            guint64  sleep_nr,
            gint64   sleep_ret,
            gboolean other_irq)
{
  Gen g;

  gen_init (&g);
  sw (&g, 10, 0, 0, 0, A);
  sw (&g, 20, 1, 0, 0, C);
  if (other_irq)
    {
      /* Elsewhere and earlier: the trace records interrupts, so it can say where wakeups ran. */
      irq (&g, TRUE, 30, 1, C);
      irq (&g, FALSE, 31, 1, C);
    }
  sys (&g, TRUE, 100, 0, A, sleep_nr);
  sw (&g, 100, 0, A, 1, 0);
  sys (&g, TRUE, 300, 1, C, NR_FUTEX);
  wrap (&g);
  sw (&g, 610, 0, 0, 0, A);
  sys_ret (&g, 611, 0, A, sleep_nr, sleep_ret);
  sys (&g, TRUE, 700, 0, A, NR_FUTEX);
  sys (&g, TRUE, 700, 1, C, NR_FUTEX);
  return seismo_trace_builder_finish (g.b);
}

static void
check_ret (Wrap             wrap,
           guint64          sleep_nr,
           gint64           sleep_ret,
           gboolean         other_irq,
           SeismoPathState  expect,
           SeismoWakerKind  expect_waker)
{
  g_autoptr(SeismoTrace) trace = make_trace (wrap, sleep_nr, sleep_ret, other_irq);
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoWaitSummary) summary = NULL;
  const SeismoPathSegment *wait;
  const SeismoWaitWaker *w;
  SeismoTaskId a = sched_test_task (trace, A), c = sched_test_task (trace, C);

  path = seismo_critical_path_compute (trace, a, 50, 700, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);

      g_test_message ("segment %u: tid %d %s %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, i,
                      seismo_trace_get_task (trace, seg->task)->tid,
                      seismo_path_state_to_string (seg->state), seg->start_ns, seg->end_ns);
    }
  g_assert_cmpuint (path->len, >=, 3);
  g_assert_cmpuint (g_array_index (path, SeismoPathSegment, 0).end_ns, ==, 100);
  /* What A's sleep from 100 to the wakeup at 600 comes down to. */
  wait = &g_array_index (path, SeismoPathSegment, 1);
  g_assert_cmpuint (wait->start_ns, ==, 100);
  g_assert_cmpstr (seismo_path_state_to_string (wait->state), ==, seismo_path_state_to_string (expect));
  if (expect == SEISMO_PATH_IRQ || expect == SEISMO_PATH_SOFTIRQ)
    {
      g_assert_cmpuint (wait->end_ns, ==, 600);
      g_assert_cmpuint (wait->cpu, ==, 1);
      g_assert_cmpint (seismo_trace_get_task (trace, wait->task)->tid, ==, wrap == wake_from_idle ? 0 : C);
      g_assert_cmpuint (wait->depth, ==, 0);
    }
  else
    g_assert_cmpuint (wait->task, ==, c);

  summary = seismo_wait_summary_compute (trace, a, 50, 700);
  g_assert_cmpuint (summary->wakers->len, ==, 1);
  w = &g_array_index (summary->wakers, SeismoWaitWaker, 0);
  g_assert_cmpint (w->kind, ==, expect_waker);
  g_assert_cmpuint (w->task, ==, expect_waker == SEISMO_WAKER_TASK ? c : SEISMO_NO_TASK);
}

#define check(wrap, nr, other_irq, expect, expect_waker) \
  check_ret (wrap, nr, 0, other_irq, expect, expect_waker)

static void
test_hrtimer (void)
{
  check (wake_in_hrtimer, NR_NANOSLEEP, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
  check (wake_in_hrtimer, NR_FUTEX, TRUE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
  check (wake_in_apic_hrtimer, NR_FUTEX, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
}

static void
test_softirq (void)
{
  check (wake_in_timer_softirq, NR_FUTEX, FALSE, SEISMO_PATH_SOFTIRQ, SEISMO_WAKER_SOFTIRQ);
  check (wake_in_soft_hrtimer, NR_FUTEX, FALSE, SEISMO_PATH_SOFTIRQ, SEISMO_WAKER_SOFTIRQ);
  check (wake_in_hrtimer_over_softirq, NR_FUTEX, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
  check (wake_in_softirq_after_irq, NR_FUTEX, FALSE, SEISMO_PATH_SOFTIRQ, SEISMO_WAKER_SOFTIRQ);
}

static void
test_nested_irq (void)
{
  check (wake_in_nested_irq, NR_FUTEX, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
}

/* No context around the wakeup: C woke A, and the path goes through C, running until then. */
static void
test_task_waker (void)
{
  check (wake_plain, NR_FUTEX, FALSE, SEISMO_PATH_RUNNING, SEISMO_WAKER_TASK);
  check (wake_after_lost_irq_exit, NR_FUTEX, TRUE, SEISMO_PATH_RUNNING, SEISMO_WAKER_TASK);
  /* A nanosleep that a signal cut short (EINTR): the task that sent it woke A. */
  check_ret (wake_plain, NR_NANOSLEEP, -4, TRUE, SEISMO_PATH_RUNNING, SEISMO_WAKER_TASK);
  check_ret (wake_plain, NR_NANOSLEEP, -4, FALSE, SEISMO_PATH_RUNNING, SEISMO_WAKER_TASK);
}

static void
test_idle_waker (void)
{
  check (wake_from_idle, NR_FUTEX, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
}

/* No context recorded at the wakeup (the eBPF backend records no interrupts; ftrace's default set
 * has no timer events and the local timer interrupt no irq_handler event): a nanosleep that
 * returned 0 ended on its timer, whatever task the timer interrupted. */
static void
test_timed_sleep_without_context (void)
{
  check (wake_plain, NR_NANOSLEEP, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
  check (wake_plain, NR_NANOSLEEP, TRUE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
  /* A futex wait that timed out, too; one that a wake ended (0) was C's. */
  check_ret (wake_plain, NR_FUTEX, -110, FALSE, SEISMO_PATH_IRQ, SEISMO_WAKER_IRQ);
  check_ret (wake_plain, NR_FUTEX, 0, FALSE, SEISMO_PATH_RUNNING, SEISMO_WAKER_TASK);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wake-context/hrtimer", test_hrtimer);
  g_test_add_func ("/wake-context/softirq", test_softirq);
  g_test_add_func ("/wake-context/nested-irq", test_nested_irq);
  g_test_add_func ("/wake-context/task-waker", test_task_waker);
  g_test_add_func ("/wake-context/idle-waker", test_idle_waker);
  g_test_add_func ("/wake-context/timed-sleep-without-context", test_timed_sleep_without_context);
  return g_test_run ();
}

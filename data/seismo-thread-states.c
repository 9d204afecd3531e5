/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-big-array.h"
#include "seismo-thread-states-private.h"

/*
 * The thread-state machine. The scheduler pass of the derive feeds it in time order; each change of
 * a task's state appends a span (8 bytes once sorted, about two per context switch and one per
 * wakeup). Spans are appended in start order for all tasks at once and sorted by task at the end
 * with a counting sort, which keeps each task's spans in time order.
 *
 * What the rules rest on:
 * - sched_switch's prev_state says why prev left: 0 or the preempted bit (R, R+) means it still
 *   wants the CPU; S, D, T/t, X/Z, I are the kernel's TASK_REPORT bits.
 * - A wakeup makes a waiting task Runnable; sched_waking comes first, in the waker's context, so the
 *   first of the pair begins the state and names the waker.
 * - Any event a task makes on a CPU says it was on that CPU then: a task whose state is unknown
 *   (before its first switch, or after lost events), or Runnable or asleep because the switch that
 *   put it there is not in the trace, becomes Running there. This is what gives a task that never
 *   switches during the trace its state, and a waker its Running state when it wakes someone.
 * - Lost events may hide any change: every task with a known state becomes Unknown from the last
 *   event before the gap on that CPU, unless it was seen since, until it is seen again.
 */

/* The kernel's TASK_REPORT bits of prev_state (since 4.14: S D T t X Z P I, then the preempted
 * bit). Bits are tested in this order: the first that is set decides. */
static const struct {
  guint32           bits;
  SeismoThreadState state;
  guint8            flags;
} prev_states[] = {
  { 0x30, SEISMO_STATE_DEAD,            0 },                        /* X, Z */
  { 0x02, SEISMO_STATE_UNINTERRUPTIBLE, 0 },                        /* D */
  { 0x01, SEISMO_STATE_SLEEPING,        0 },                        /* S */
  { 0x80, SEISMO_STATE_SLEEPING,        SEISMO_STATE_FLAG_IDLE },   /* I */
  { 0x0c, SEISMO_STATE_STOPPED,         0 },                        /* T, t */
  { 0x40, SEISMO_STATE_SLEEPING,        0 },                        /* P: parked kthread */
};

#define PREV_STATE_PREEMPTED 0x100

static void
known_add (SeismoStatesBuilder *b,
           SeismoTaskId         task)
{
  if (b->known_pos[task] != G_MAXUINT32)
    return;
  b->known_pos[task] = b->n_known;
  b->known[b->n_known++] = task;
}

static void
known_remove (SeismoStatesBuilder *b,
              SeismoTaskId         task)
{
  guint pos = b->known_pos[task];
  SeismoTaskId last;

  if (pos == G_MAXUINT32)
    return;
  last = b->known[--b->n_known];
  b->known[pos] = last;
  b->known_pos[last] = pos;
  b->known_pos[task] = G_MAXUINT32;
}

/* The task enters state at event ev. The same state on the same CPU is no change; a second change
 * at the same event replaces the first (the zero-length state would only be noise). */
static void
set_state (SeismoStatesBuilder *b,
           SeismoTaskId         task,
           SeismoEventId        ev,
           SeismoThreadState    state,
           guint                cpu,
           guint8               flags)
{
  guint32 cur = b->cur_span[task];
  SeismoStateSpan span = { ev, (guint16) MIN (cpu, SEISMO_STATE_NO_CPU), (guint8) state, flags };

  g_assert (b->cur[task] != SEISMO_STATES_SKIP);
  if (cur != G_MAXUINT32)
    {
      SeismoStateSpan *old = &b->spans[cur].span;

      if (old->state == state && old->cpu == span.cpu)
        return;
      if (old->start == ev)
        {
          *old = span;
          goto done;
        }
    }
  if (b->n_spans == b->cap_spans)
    {
      b->cap_spans *= 2;
      b->spans = g_realloc_n (b->spans, b->cap_spans, sizeof (SeismoStateBuild));
    }
  b->cur_span[task] = (guint32) b->n_spans;
  b->spans[b->n_spans++] = (SeismoStateBuild) { span, task };

done:
  b->cur[task] = (guint8) state;
  if (state == SEISMO_STATE_UNKNOWN || state == SEISMO_STATE_DEAD)
    known_remove (b, task);
  else
    known_add (b, task);
}

static gboolean
task_ok (SeismoStatesBuilder *b,
         SeismoTaskId         task)
{
  return task < b->trace->n_tasks && b->cur[task] != SEISMO_STATES_SKIP;
}

static int
compare_lost (gconstpointer a,
              gconstpointer b)
{
  const SeismoLostEvents *x = a, *y = b;

  return (x->time_ns > y->time_ns) - (x->time_ns < y->time_ns);
}

static void
next_lost (SeismoStatesBuilder *b)
{
  b->next_lost_event = SEISMO_NO_EVENT;
  if (b->next_lost < b->n_lost)
    {
      SeismoEventId ev = seismo_trace_find_time (b->trace, b->lost[b->next_lost].time_ns);

      b->next_lost_event = ev < b->trace->n_events ? ev : SEISMO_NO_EVENT;
    }
}

SeismoStatesBuilder *
_seismo_states_builder_new (SeismoTrace *trace,
                            guint        n_cpus,
                            gsize        n_switches,
                            gsize        n_wakeups)
{
  SeismoStatesBuilder *b;
  guint n_tasks = trace->n_tasks;

  if (n_switches == 0)
    return NULL;
  b = g_new0 (SeismoStatesBuilder, 1);
  b->trace = trace;
  b->n_cpus = n_cpus;
  b->cur = g_new0 (guint8, MAX (n_tasks, 1));
  b->cur_span = g_new (guint32, MAX (n_tasks, 1));
  b->known = g_new (SeismoTaskId, MAX (n_tasks, 1));
  b->known_pos = g_new (guint32, MAX (n_tasks, 1));
  for (guint t = 0; t < n_tasks; t++)
    {
      b->cur_span[t] = G_MAXUINT32;
      b->known_pos[t] = G_MAXUINT32;
      if (trace->tasks[t].tid <= 0)
        b->cur[t] = SEISMO_STATES_SKIP;
    }
  /* About two states per switch and one per wakeup; lost events may need more (grown then). */
  b->cap_spans = 2 * n_switches + n_wakeups / 2 + n_tasks + 64;
  /* Fresh memory costs more than filling it (page faults): huge pages, as for the other derived
   * arrays. */
  b->spans = _seismo_big_array_new (SeismoStateBuild, b->cap_spans);
  b->cpu_task = g_new (SeismoTaskId, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    b->cpu_task[c] = SEISMO_NO_TASK;
  b->n_lost = trace->n_lost;
  if (b->n_lost > 0)
    {
      b->lost = g_memdup2 (trace->lost, b->n_lost * sizeof (SeismoLostEvents));
      qsort (b->lost, b->n_lost, sizeof *b->lost, compare_lost);
    }
  next_lost (b);
  return b;
}

void
_seismo_states_seen (SeismoStatesBuilder *b,
                     SeismoEventId        ev,
                     SeismoTaskId         task,
                     guint                cpu)
{
  SeismoTaskId other = b->cpu_task[cpu];

  /* Whoever the states had on this CPU is not there any more: when it left is unknown. */
  if (other != task && other != SEISMO_NO_TASK && b->cur[other] == SEISMO_STATE_RUNNING &&
      b->spans[b->cur_span[other]].span.cpu == cpu)
    set_state (b, other, ev, SEISMO_STATE_UNKNOWN, SEISMO_STATE_NO_CPU, 0);
  set_state (b, task, ev, SEISMO_STATE_RUNNING, cpu, SEISMO_STATE_FLAG_SEEN);
  b->cpu_task[cpu] = task;
}

void
_seismo_states_lost (SeismoStatesBuilder *b,
                     SeismoEventId        ev)
{
  SeismoTrace *trace = b->trace;

  while (b->next_lost < b->n_lost && b->lost[b->next_lost].time_ns <= trace->ts[ev])
    {
      const SeismoLostEvents *lost = &b->lost[b->next_lost++];
      SeismoEventId gap = ev;

      /* The events went missing after the last one the CPU delivered. */
      if (lost->cpu >= 0)
        for (SeismoEventId j = ev; j > 0 && ev - j < 65536; j--)
          if (trace->cpu[j - 1] == (guint) lost->cpu)
            {
              gap = j;
              break;
            }

      for (guint k = b->n_known; k > 0; k--)
        {
          SeismoTaskId task = b->known[k - 1];

          /* A state that began after the gap began is newer evidence: it stays. */
          if (b->spans[b->cur_span[task]].span.start < gap)
            set_state (b, task, gap, SEISMO_STATE_UNKNOWN, SEISMO_STATE_NO_CPU,
                       SEISMO_STATE_FLAG_LOST);
        }
      for (guint c = 0; c < b->n_cpus; c++)
        if (b->cpu_task[c] != SEISMO_NO_TASK && b->cur[b->cpu_task[c]] == SEISMO_STATE_UNKNOWN)
          b->cpu_task[c] = SEISMO_NO_TASK;
    }
  next_lost (b);
}

void
_seismo_states_switch (SeismoStatesBuilder *b,
                       SeismoEventId        ev,
                       guint                cpu,
                       SeismoTaskId         prev,
                       gint64               prev_state,
                       SeismoTaskId         next)
{
  SeismoTaskId other = b->cpu_task[cpu];

  /* The task the states had here was switched out in events we do not have. */
  if (other != SEISMO_NO_TASK && other != prev && b->cur[other] == SEISMO_STATE_RUNNING &&
      b->spans[b->cur_span[other]].span.cpu == cpu)
    set_state (b, other, ev, SEISMO_STATE_UNKNOWN, SEISMO_STATE_NO_CPU, 0);

  if (task_ok (b, prev))
    {
      SeismoThreadState state = SEISMO_STATE_UNKNOWN;
      guint8 flags = 0;
      guint scpu = SEISMO_STATE_NO_CPU;

      if (prev_state >= 0 && ((prev_state & PREV_STATE_PREEMPTED) || (prev_state & 0xff) == 0))
        {
          state = SEISMO_STATE_RUNNABLE;
          flags = SEISMO_STATE_FLAG_PREEMPTED;
          scpu = cpu;
        }
      else if (prev_state >= 0)
        for (guint i = 0; i < G_N_ELEMENTS (prev_states); i++)
          if (prev_state & prev_states[i].bits)
            {
              state = prev_states[i].state;
              flags = prev_states[i].flags;
              break;
            }
      set_state (b, prev, ev, state, scpu, flags);
    }
  if (task_ok (b, next))
    set_state (b, next, ev, SEISMO_STATE_RUNNING, cpu, 0);
  b->cpu_task[cpu] = task_ok (b, next) ? next : SEISMO_NO_TASK;
}

void
_seismo_states_wakeup (SeismoStatesBuilder *b,
                       SeismoEventId        ev,
                       SeismoTaskId         task,
                       gint64               target_cpu,
                       guint8               flags)
{
  guint cpu = target_cpu >= 0 && target_cpu < b->n_cpus ? (guint) target_cpu : SEISMO_STATE_NO_CPU;

  if (!task_ok (b, task))
    return;
  switch ((SeismoThreadState) b->cur[task])
    {
    case SEISMO_STATE_SLEEPING:
    case SEISMO_STATE_UNINTERRUPTIBLE:
    case SEISMO_STATE_STOPPED:
    case SEISMO_STATE_UNKNOWN:
      set_state (b, task, ev, SEISMO_STATE_RUNNABLE, cpu, flags | SEISMO_STATE_FLAG_WOKEN);
      break;
    case SEISMO_STATE_RUNNABLE:
      /* sched_wakeup after sched_waking, or a migration before it runs: the CPU it waits for. */
      if (cpu != SEISMO_STATE_NO_CPU)
        b->spans[b->cur_span[task]].span.cpu = (guint16) cpu;
      break;
    case SEISMO_STATE_RUNNING:
    case SEISMO_STATE_DEAD:
    case SEISMO_STATE_N:
    default:
      break;
    }
}

void
_seismo_states_builder_finish (SeismoStatesBuilder *b)
{
  SeismoTrace *trace = b->trace;
  guint n_tasks = trace->n_tasks;
  gsize *off = g_new0 (gsize, n_tasks + 1);
  g_autofree gsize *fill = g_new (gsize, MAX (n_tasks, 1));
  SeismoStateSpan *out;

  for (gsize i = 0; i < b->n_spans; i++)
    off[b->spans[i].task + 1]++;
  for (guint t = 0; t < n_tasks; t++)
    {
      off[t + 1] += off[t];
      fill[t] = off[t];
    }
  out = _seismo_big_array_new (SeismoStateSpan, MAX (b->n_spans, 1));
  for (gsize i = 0; i < b->n_spans; i++)
    out[fill[b->spans[i].task]++] = b->spans[i].span;

  g_free (trace->state_spans);
  g_free (trace->state_off);
  trace->state_spans = out;
  trace->n_state_spans = b->n_spans;
  trace->state_off = off;

  g_free (b->cur);
  g_free (b->cur_span);
  g_free (b->spans);
  g_free (b->known);
  g_free (b->known_pos);
  g_free (b->cpu_task);
  g_free (b->lost);
  g_free (b);
}

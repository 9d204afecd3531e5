/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-wait-summary.h"

#define MAX_RUNNABLE 10

static int
compare_wakers (gconstpointer a,
                gconstpointer b)
{
  const SeismoWaitWaker *x = a, *y = b;

  return (x->ns < y->ns) - (x->ns > y->ns);
}

static int
compare_syscalls (gconstpointer a,
                  gconstpointer b)
{
  const SeismoWaitSyscall *x = a, *y = b;

  return (x->ns < y->ns) - (x->ns > y->ns);
}

static int
compare_runnable (gconstpointer a,
                  gconstpointer b)
{
  const SeismoWaitRunnable *x = a, *y = b;

  if (x->duration_ns != y->duration_ns)
    return (x->duration_ns < y->duration_ns) - (x->duration_ns > y->duration_ns);
  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static void
add_waker (GArray          *wakers,
           SeismoWakerKind  kind,
           SeismoTaskId     task,
           guint64          ns,
           gboolean         woken)
{
  for (guint i = 0; i < wakers->len; i++)
    {
      SeismoWaitWaker *w = &g_array_index (wakers, SeismoWaitWaker, i);

      if (w->kind == kind && w->task == task)
        {
          w->ns += ns;
          w->count += woken;
          return;
        }
    }
  g_array_append_val (wakers, ((SeismoWaitWaker) { kind, task, ns, woken }));
}

static void
add_syscall (GArray  *syscalls,
             guint    syscall,
             guint64  ns)
{
  for (guint i = 0; i < syscalls->len; i++)
    {
      SeismoWaitSyscall *s = &g_array_index (syscalls, SeismoWaitSyscall, i);

      if (s->syscall == syscall)
        {
          s->ns += ns;
          return;
        }
    }
  g_array_append_val (syscalls, ((SeismoWaitSyscall) { syscall, ns }));
}

SeismoWaitSummary *
seismo_wait_summary_compute (SeismoTrace  *trace,
                             SeismoTaskId  task,
                             guint64       from_ns,
                             guint64       to_ns)
{
  SeismoWaitSummary *s;
  guint64 start, end;
  gsize n, i;
  const SeismoStateSpan *spans;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (task < seismo_trace_get_n_tasks (trace), NULL);

  start = seismo_trace_get_start_ns (trace);
  end = seismo_trace_get_end_ns (trace);
  s = g_new0 (SeismoWaitSummary, 1);
  s->task = task;
  s->start_ns = CLAMP (from_ns, start, end);
  s->end_ns = CLAMP (to_ns, s->start_ns, end);
  s->wakers = g_array_new (FALSE, FALSE, sizeof (SeismoWaitWaker));
  s->syscalls = g_array_new (FALSE, FALSE, sizeof (SeismoWaitSyscall));
  s->runnable = g_array_new (FALSE, FALSE, sizeof (SeismoWaitRunnable));
  seismo_trace_task_state_totals (trace, task, s->start_ns, s->end_ns, s->totals);

  spans = seismo_trace_get_task_states (trace, task, &n);
  i = seismo_trace_task_state_find (trace, task, s->start_ns);
  for (i = i == G_MAXSIZE ? 0 : i; i < n; i++)
    {
      guint64 a = seismo_trace_task_state_start_ns (trace, task, i);
      guint64 b = seismo_trace_task_state_end_ns (trace, task, i);
      guint64 d;

      if (a >= s->end_ns)
        break;
      a = MAX (a, s->start_ns);
      b = MIN (b, s->end_ns);
      if (b <= a)
        continue;
      d = b - a;
      if (spans[i].state == SEISMO_STATE_SLEEPING || spans[i].state == SEISMO_STATE_UNINTERRUPTIBLE)
        {
          guint syscall;
          SeismoWakerKind kind = SEISMO_WAKER_NONE;
          SeismoTaskId waker = SEISMO_NO_TASK;
          gboolean woken = FALSE;

          if (!seismo_trace_task_state_syscall (trace, task, i, &syscall))
            syscall = G_MAXUINT;
          add_syscall (s->syscalls, syscall, d);
          if (i + 1 < n && (spans[i + 1].flags & SEISMO_STATE_FLAG_WOKEN) &&
              seismo_trace_task_state_start_ns (trace, task, i + 1) <= s->end_ns)
            {
              woken = TRUE;
              kind = seismo_trace_task_state_wake_source (trace, task, i + 1, &waker);
            }
          add_waker (s->wakers, kind, kind == SEISMO_WAKER_TASK ? waker : SEISMO_NO_TASK, d, woken);
        }
      else if (spans[i].state == SEISMO_STATE_RUNNABLE)
        {
          SeismoWaitRunnable r = { a, d, spans[i].cpu, (spans[i].flags & SEISMO_STATE_FLAG_PREEMPTED) != 0 };

          g_array_append_val (s->runnable, r);
        }
    }
  g_array_sort (s->wakers, compare_wakers);
  g_array_sort (s->syscalls, compare_syscalls);
  g_array_sort (s->runnable, compare_runnable);
  if (s->runnable->len > MAX_RUNNABLE)
    g_array_set_size (s->runnable, MAX_RUNNABLE);
  return s;
}

void
seismo_wait_summary_free (SeismoWaitSummary *summary)
{
  if (summary == NULL)
    return;
  g_array_unref (summary->wakers);
  g_array_unref (summary->syscalls);
  g_array_unref (summary->runnable);
  g_free (summary);
}

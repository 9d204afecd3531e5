/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <errno.h>
#include <string.h>

#include "seismo-thread-states-private.h"

/* Questions about the states derived at load: what held when, for how long, and why. */

static const struct {
  const char *name;
  const char *letter;
} state_names[SEISMO_STATE_N] = {
  [SEISMO_STATE_UNKNOWN]         = { "unknown",         "?" },
  [SEISMO_STATE_RUNNING]         = { "running",         "R" },
  [SEISMO_STATE_RUNNABLE]        = { "runnable",        "R" },
  [SEISMO_STATE_SLEEPING]        = { "sleeping",        "S" },
  [SEISMO_STATE_UNINTERRUPTIBLE] = { "uninterruptible", "D" },
  [SEISMO_STATE_STOPPED]         = { "stopped",         "T" },
  [SEISMO_STATE_DEAD]            = { "dead",            "X" },
};

const char *
seismo_thread_state_to_string (SeismoThreadState state)
{
  return state < SEISMO_STATE_N ? state_names[state].name : "unknown";
}

const char *
seismo_thread_state_letter (SeismoThreadState state)
{
  return state < SEISMO_STATE_N ? state_names[state].letter : "?";
}

gboolean
seismo_trace_has_states (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  return self->state_off != NULL;
}

const SeismoStateSpan *
seismo_trace_get_task_states (SeismoTrace  *self,
                              SeismoTaskId  task,
                              gsize        *n_states)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (n_states != NULL, NULL);

  if (self->state_off == NULL || task >= self->n_tasks)
    {
      *n_states = 0;
      return NULL;
    }
  *n_states = self->state_off[task + 1] - self->state_off[task];
  return self->state_spans + self->state_off[task];
}

guint64
seismo_trace_task_state_start_ns (SeismoTrace  *self,
                                  SeismoTaskId  task,
                                  gsize         index)
{
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);

  g_return_val_if_fail (index < n, 0);
  return self->ts[spans[index].start];
}

guint64
seismo_trace_task_state_end_ns (SeismoTrace  *self,
                                SeismoTaskId  task,
                                gsize         index)
{
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);

  g_return_val_if_fail (index < n, 0);
  if (index + 1 < n)
    return self->ts[spans[index + 1].start];
  return seismo_trace_get_end_ns (self);
}

gsize
seismo_trace_task_state_find (SeismoTrace  *self,
                              SeismoTaskId  task,
                              guint64       time_ns)
{
  gsize n, lo = 0, hi;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);

  /* The last state that began at or before time_ns. */
  hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->ts[spans[mid].start] <= time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo == 0 ? G_MAXSIZE : lo - 1;
}

void
seismo_trace_task_state_totals (SeismoTrace  *self,
                                SeismoTaskId  task,
                                guint64       from_ns,
                                guint64       to_ns,
                                guint64      *totals)
{
  guint64 start = seismo_trace_get_start_ns (self);
  guint64 end = seismo_trace_get_end_ns (self);
  gsize n, i;
  const SeismoStateSpan *spans;
  guint64 t;

  g_return_if_fail (SEISMO_IS_TRACE (self));
  g_return_if_fail (totals != NULL);

  memset (totals, 0, SEISMO_STATE_N * sizeof *totals);
  from_ns = CLAMP (from_ns, start, end);
  to_ns = CLAMP (to_ns, from_ns, end);
  spans = seismo_trace_get_task_states (self, task, &n);
  i = seismo_trace_task_state_find (self, task, from_ns);
  t = from_ns;
  if (i == G_MAXSIZE)
    {
      /* Unknown until the first state. */
      guint64 first = n > 0 ? MIN (self->ts[spans[0].start], to_ns) : to_ns;

      totals[SEISMO_STATE_UNKNOWN] += first - t;
      t = first;
      i = 0;
    }
  for (; i < n && t < to_ns; i++)
    {
      guint64 stop = MIN (i + 1 < n ? self->ts[spans[i + 1].start] : end, to_ns);

      if (stop > t)
        {
          totals[spans[i].state < SEISMO_STATE_N ? spans[i].state : SEISMO_STATE_UNKNOWN] += stop - t;
          t = stop;
        }
    }
  if (t < to_ns)
    totals[SEISMO_STATE_UNKNOWN] += to_ns - t;
}

SeismoTaskId
seismo_trace_task_state_waker (SeismoTrace  *self,
                               SeismoTaskId  task,
                               gsize         index)
{
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);
  SeismoTaskId waker;

  g_return_val_if_fail (index < n, SEISMO_NO_TASK);
  if (!(spans[index].flags & SEISMO_STATE_FLAG_WOKEN))
    return SEISMO_NO_TASK;
  waker = self->task[spans[index].start];
  if (waker >= self->n_tasks || self->tasks[waker].tid <= 0)
    return SEISMO_NO_TASK;
  return waker;
}

/* Index into the sorted id array of the first id >= ev. */
static gsize
lower_bound (const SeismoEventId *ids,
             gsize                n,
             SeismoEventId        ev)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ids[mid] < ev)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The syscall span entered at ev; NULL when none. */
static const SeismoSyscallSpan *
syscall_of_enter (SeismoTrace             *self,
                  SeismoEventId            ev,
                  const SeismoSyscallSpan *sc,
                  gsize                    n_spans)
{
  gsize lo = 0, hi = n_spans;

  /* Spans are in enter order. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (sc[mid].enter < ev)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo == n_spans || sc[lo].enter != ev ? NULL : &sc[lo];
}

/* state_syscall_span() through the task's event index: its latest enter up to the switch sw,
 * unless an exit came after (at most 256 of its events back). */
static const SeismoSyscallSpan *
state_syscall_span_indexed (SeismoTrace             *self,
                            SeismoTaskId             task,
                            SeismoEventId            sw,
                            const SeismoSyscallSpan *sc,
                            gsize                    n_spans)
{
  gsize n_events;
  const SeismoEventId *events = seismo_trace_get_task_events (self, task, &n_events);
  gsize k = lower_bound (events, n_events, sw + 1);

  for (gsize steps = 0; k > 0 && steps < 256; k--, steps++)
    {
      const SeismoEventType *type = seismo_trace_event_type (self, events[k - 1]);

      if (type->kind == SEISMO_KIND_SYSCALL_EXIT)
        return NULL;
      if (type->kind == SEISMO_KIND_SYSCALL_ENTER)
        return syscall_of_enter (self, events[k - 1], sc, n_spans);
    }
  return NULL;
}

/* The syscall span the task was in when it entered the state at index; NULL when none. */
static const SeismoSyscallSpan *
state_syscall_span (SeismoTrace  *self,
                    SeismoTaskId  task,
                    gsize         index)
{
  gsize n, n_spans, k;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);
  const SeismoTaskId *tasks;
  const SeismoSyscallSpan *sc;

  sc = seismo_trace_get_syscall_spans (self, &n_spans);
  if (n_spans == 0)
    return NULL;
  /* The switch that put it to sleep is the task's own event; the syscall it is in is its latest
   * enter before that, unless an exit came after. Walked back over the trace's own columns,
   * not the task's event index: that costs 4 bytes an event (42 MiB for 10M) to build, and a
   * selected event's wait chain asks this on the main thread. */
  tasks = seismo_trace_get_tasks (self);
  k = (gsize) spans[index].start + 1;
  for (gsize steps = 0, scanned = 0; k > 0 && steps < 256; k--)
    {
      SeismoEventId ev = (SeismoEventId) (k - 1);
      const SeismoEventType *type;

      /* Other tasks' events between for long: the index finds the task's own faster. */
      if (++scanned > (1u << 20))
        return state_syscall_span_indexed (self, task, spans[index].start, sc, n_spans);
      if (tasks[ev] != task)
        continue;
      steps++;
      type = seismo_trace_event_type (self, ev);
      if (type->kind == SEISMO_KIND_SYSCALL_EXIT)
        return NULL;
      if (type->kind == SEISMO_KIND_SYSCALL_ENTER)
        return syscall_of_enter (self, ev, sc, n_spans);
    }
  return NULL;
}

gboolean
seismo_trace_task_state_syscall (SeismoTrace  *self,
                                 SeismoTaskId  task,
                                 gsize         index,
                                 guint        *syscall)
{
  gsize n;
  const SeismoSyscallSpan *sc;

  seismo_trace_get_task_states (self, task, &n);
  g_return_val_if_fail (index < n, FALSE);
  g_return_val_if_fail (syscall != NULL, FALSE);

  if ((sc = state_syscall_span (self, task, index)) == NULL)
    return FALSE;
  *syscall = sc->syscall;
  return TRUE;
}

/* What a syscall returns when its timeout, and nothing else, ended its wait. */
static const struct {
  const char *name;
  gint64      ret;
} timeouts[] = {
  { "nanosleep", 0 },
  { "clock_nanosleep", 0 },
  { "poll", 0 },
  { "ppoll", 0 },
  { "select", 0 },
  { "pselect6", 0 },
  { "epoll_wait", 0 },
  { "epoll_pwait", 0 },
  { "epoll_pwait2", 0 },
  { "futex", -ETIMEDOUT },
  { "rt_sigtimedwait", -EAGAIN },
  { "semtimedop", -EAGAIN },
  { "mq_timedreceive", -ETIMEDOUT },
  { "mq_timedsend", -ETIMEDOUT },
};

static gboolean
timed_out (const char *syscall,
           gint64      ret)
{
  if (syscall == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (timeouts); i++)
    if (ret == timeouts[i].ret && strcmp (syscall, timeouts[i].name) == 0)
      return TRUE;
  return FALSE;
}

SeismoWakerKind
seismo_trace_task_state_wake_source (SeismoTrace  *self,
                                     SeismoTaskId  task,
                                     gsize         index,
                                     SeismoTaskId *waker)
{
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);
  SeismoTaskId by;
  const SeismoSyscallSpan *sc;
  gint64 ret;

  if (waker != NULL)
    *waker = SEISMO_NO_TASK;
  g_return_val_if_fail (index < n, SEISMO_WAKER_NONE);
  if (!(spans[index].flags & SEISMO_STATE_FLAG_WOKEN))
    return SEISMO_WAKER_NONE;
  if (spans[index].flags & SEISMO_STATE_FLAG_IN_IRQ)
    return SEISMO_WAKER_IRQ;
  if (spans[index].flags & SEISMO_STATE_FLAG_IN_SOFTIRQ)
    return SEISMO_WAKER_SOFTIRQ;
  by = self->task[spans[index].start];
  if (by < self->n_tasks && self->tasks[by].tid == 0)
    return SEISMO_WAKER_IRQ;
  /* A sleep whose syscall returned what only its timeout returns ended on its timer, in the timer
   * interrupt, whatever task that interrupted (a signal would have made it return EINTR, a ready
   * file descriptor a count). Most recordings do not say where the wakeup ran: the local timer
   * interrupt has no irq_handler event, timer events are not in the default set, and a recorder
   * following some tasks drops those on the others. */
  if (index > 0 && (sc = state_syscall_span (self, task, index - 1)) != NULL &&
      seismo_trace_syscall_span_ret (self, sc, &ret) &&
      timed_out (seismo_trace_get_syscall_name (self, sc->syscall), ret))
    return SEISMO_WAKER_IRQ;
  by = seismo_trace_task_state_waker (self, task, index);
  if (by == SEISMO_NO_TASK)
    return SEISMO_WAKER_NONE;
  if (waker != NULL)
    *waker = by;
  return SEISMO_WAKER_TASK;
}

gboolean
seismo_trace_task_state_blocked_caller (SeismoTrace  *self,
                                        SeismoTaskId  task,
                                        gsize         index,
                                        guint64      *caller)
{
  gsize n;
  const SeismoStateSpan *spans = seismo_trace_get_task_states (self, task, &n);
  const SeismoEventType *type;
  SeismoEventId wake;
  gint tid;

  g_return_val_if_fail (index < n, FALSE);
  g_return_val_if_fail (caller != NULL, FALSE);

  type = seismo_trace_find_event_type (self, "sched:sched_blocked_reason");
  if (type == NULL || spans[index].state != SEISMO_STATE_UNINTERRUPTIBLE || index + 1 >= n ||
      !(spans[index + 1].flags & SEISMO_STATE_FLAG_WOKEN))
    return FALSE;
  /* The kernel reports it while enqueueing the woken task: just after sched_waking. */
  wake = spans[index + 1].start;
  tid = self->tasks[task].tid;
  for (SeismoEventId ev = wake; ev < self->n_events && ev - wake < 512; ev++)
    {
      SeismoValue pid, value;

      if (self->type[ev] != type->id)
        continue;
      if (seismo_trace_event_field_by_name (self, ev, "pid", &pid) && pid.i == tid &&
          seismo_trace_event_field_by_name (self, ev, "caller", &value))
        {
          *caller = value.u;
          return TRUE;
        }
    }
  return FALSE;
}

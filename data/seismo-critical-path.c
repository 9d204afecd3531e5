/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-critical-path.h"
#include "seismo-error.h"
#include "seismo-trace-private.h"
#include "seismo-work-priority.h"

/*
 * The walk goes backward in time from the end of the interval, over the task's states:
 * - Running and Runnable are on the path as they are: the task itself was the one to wait for.
 * - Sleeping or D ended by a wakeup means the task waited for its waker. The waker's own states
 *   over the same stretch (from when the task blocked to when it was woken) replace the sleep, and
 *   the walk of the waker may in turn meet a sleep and go to its waker. A wakeup from an interrupt
 *   handler ends the chain there: the device (irq) or softirq was what the chain waited for.
 * - A sleep with no wakeup in the trace (it had not ended yet, or the wakeup was not recorded), a
 *   sleep whose waker the trace does not have running just before the wakeup, Unknown and Dead
 *   stay as they are: nothing is guessed.
 *
 * Each step of the walk covers an earlier stretch than the one before, so the segments come out
 * backward in time, tile the interval, and the walk ends. A stack of frames (task, stretch still to
 * cover) replaces recursion: chains of wakeups (a pipe ping-pong) can be as long as the trace.
 */

typedef struct {
  SeismoTaskId task;
  guint64      lo;
  guint64      hi;       /* the frame covers [lo, hi) and shrinks from the top */
  gsize        next;     /* the state holding just before hi; G_MAXSIZE: look it up */
  guint        depth;
} Frame;

static const char *const path_state_names[SEISMO_PATH_N] = {
  [SEISMO_PATH_RUNNING]         = "running",
  [SEISMO_PATH_RUNNABLE]        = "runnable",
  [SEISMO_PATH_SLEEPING]        = "sleeping",
  [SEISMO_PATH_UNINTERRUPTIBLE] = "uninterruptible",
  [SEISMO_PATH_IRQ]             = "irq",
  [SEISMO_PATH_SOFTIRQ]         = "softirq",
  [SEISMO_PATH_UNKNOWN]         = "unknown",
};

const char *
seismo_path_state_to_string (SeismoPathState state)
{
  return state < SEISMO_PATH_N ? path_state_names[state] : "unknown";
}

/* Segments are appended backward in time; one that continues the previous one joins it. */
static void
emit (GArray          *out,
      SeismoTaskId     task,
      SeismoPathState  state,
      guint            cpu,
      guint            depth,
      guint64          start,
      guint64          end)
{
  SeismoPathSegment seg = { start, end, task, (guint16) MIN (cpu, SEISMO_STATE_NO_CPU), state,
                            (guint8) MIN (depth, 255) };

  if (out->len > 0)
    {
      SeismoPathSegment *last = &g_array_index (out, SeismoPathSegment, out->len - 1);

      if (last->task == task && last->state == state && last->cpu == seg.cpu &&
          last->start_ns == end)
        {
          last->start_ns = start;
          return;
        }
    }
  g_array_append_val (out, seg);
}

static SeismoPathState
path_state_of (SeismoThreadState state)
{
  switch (state)
    {
    case SEISMO_STATE_RUNNING:
      return SEISMO_PATH_RUNNING;
    case SEISMO_STATE_RUNNABLE:
      return SEISMO_PATH_RUNNABLE;
    case SEISMO_STATE_SLEEPING:
    case SEISMO_STATE_STOPPED:
      return SEISMO_PATH_SLEEPING;
    case SEISMO_STATE_UNINTERRUPTIBLE:
      return SEISMO_PATH_UNINTERRUPTIBLE;
    case SEISMO_STATE_UNKNOWN:
    case SEISMO_STATE_DEAD:
    case SEISMO_STATE_N:
    default:
      return SEISMO_PATH_UNKNOWN;
    }
}

/* Whether the trace has the waker running when it woke the task, as a waker must be. A recorder
 * that follows only some tasks still records their wakeups by others (often a task an interrupt
 * came in on) without the switches of those others: their states are stale, and following them
 * would put a task on the path that only happened to be interrupted. */
static gboolean
waker_known (SeismoTrace  *trace,
             SeismoTaskId  waker,
             guint64       wake_ns)
{
  gsize n, i = seismo_trace_task_state_find (trace, waker, wake_ns - 1);
  const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, waker, &n);

  return i != G_MAXSIZE && spans[i].state == SEISMO_STATE_RUNNING;
}

GArray *
seismo_critical_path_compute (SeismoTrace   *trace,
                              SeismoTaskId   task,
                              guint64        from_ns,
                              guint64        to_ns,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(GArray) out = NULL;
  g_autoptr(GArray) stack = NULL;
  guint64 start, end;
  guint steps = 0;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (task >= seismo_trace_get_n_tasks (trace))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("no task %u in the trace (it has %u)"), task, seismo_trace_get_n_tasks (trace));
      return NULL;
    }
  start = seismo_trace_get_start_ns (trace);
  end = seismo_trace_get_end_ns (trace);
  from_ns = CLAMP (from_ns, start, end);
  to_ns = CLAMP (to_ns, start, end);
  if (to_ns <= from_ns)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   "the interval is empty once clamped to the trace (%" G_GUINT64_FORMAT
                   " to %" G_GUINT64_FORMAT " ns)", from_ns - start, to_ns - start);
      return NULL;
    }

  out = g_array_new (FALSE, FALSE, sizeof (SeismoPathSegment));
  stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_array_append_val (stack, ((Frame) { task, from_ns, to_ns, G_MAXSIZE, 0 }));

  while (stack->len > 0)
    {
      Frame *f = &g_array_index (stack, Frame, stack->len - 1);
      gsize n, i;
      const SeismoStateSpan *spans;
      const SeismoStateSpan *span;
      guint64 s_start, s_end;
      SeismoPathState state;

      if ((++steps & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (f->hi <= f->lo)
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      spans = seismo_trace_get_task_states (trace, f->task, &n);
      i = f->next != G_MAXSIZE ? f->next : seismo_trace_task_state_find (trace, f->task, f->hi - 1);
      if (i == G_MAXSIZE || i >= n)
        {
          emit (out, f->task, SEISMO_PATH_UNKNOWN, SEISMO_STATE_NO_CPU, f->depth, f->lo, f->hi);
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      span = &spans[i];
      s_start = MAX (trace->ts[span->start], f->lo);
      s_end = i + 1 < n ? trace->ts[spans[i + 1].start] : end;
      state = path_state_of (span->state);
      /* The next step looks at the state before this one, unless this one is all before lo. */
      f->next = i > 0 ? i - 1 : G_MAXSIZE;

      if ((state == SEISMO_PATH_SLEEPING || state == SEISMO_PATH_UNINTERRUPTIBLE) && s_end == f->hi &&
          i + 1 < n && (spans[i + 1].flags & SEISMO_STATE_FLAG_WOKEN))
        {
          const SeismoStateSpan *woken = &spans[i + 1];
          SeismoTaskId waker;
          SeismoWakerKind source = seismo_trace_task_state_wake_source (trace, f->task, i + 1, &waker);
          guint64 hi = f->hi;
          guint depth = f->depth + 1;

          if (source == SEISMO_WAKER_IRQ || source == SEISMO_WAKER_SOFTIRQ)
            emit (out, trace->task[woken->start],
                  source == SEISMO_WAKER_IRQ ? SEISMO_PATH_IRQ : SEISMO_PATH_SOFTIRQ,
                  trace->cpu[woken->start], f->depth, s_start, hi);
          else if (source == SEISMO_WAKER_TASK && waker != f->task && waker_known (trace, waker, hi))
            {
              /* f is invalid once the stack grows. */
              f->hi = s_start;
              g_array_append_val (stack, ((Frame) { waker, s_start, hi, G_MAXSIZE, depth }));
              continue;
            }
          else
            emit (out, f->task, state, SEISMO_STATE_NO_CPU, f->depth, s_start, hi);
        }
      else
        emit (out, f->task, state, state == SEISMO_PATH_RUNNING ? span->cpu : SEISMO_STATE_NO_CPU,
              f->depth, s_start, f->hi);
      f->hi = s_start;
      if (f->hi <= f->lo)
        f->next = G_MAXSIZE;
    }

  /* Backward in time → forward. */
  for (guint a = 0, b = out->len; a + 1 < b; a++, b--)
    {
      SeismoPathSegment tmp = g_array_index (out, SeismoPathSegment, a);

      g_array_index (out, SeismoPathSegment, a) = g_array_index (out, SeismoPathSegment, b - 1);
      g_array_index (out, SeismoPathSegment, b - 1) = tmp;
    }
  return g_steal_pointer (&out);
}

typedef struct {
  SeismoTrace  *trace;
  SeismoTaskId  task;
  guint64       from_ns;
  guint64       to_ns;
} Job;

static void
job_free (Job *job)
{
  g_object_unref (job->trace);
  g_free (job);
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  GArray *path;

  seismo_work_priority_enter ();
  path = seismo_critical_path_compute (job->trace, job->task, job->from_ns, job->to_ns,
                                       cancellable, &error);

  if (path == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, path, (GDestroyNotify) g_array_unref);
}

void
seismo_critical_path_compute_async (SeismoTrace         *trace,
                                    SeismoTaskId         task,
                                    guint64              from_ns,
                                    guint64              to_ns,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) gtask = NULL;
  Job *job;

  g_return_if_fail (SEISMO_IS_TRACE (trace));

  job = g_new0 (Job, 1);
  job->trace = g_object_ref (trace);
  job->task = task;
  job->from_ns = from_ns;
  job->to_ns = to_ns;
  gtask = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (gtask, seismo_critical_path_compute_async);
  g_task_set_task_data (gtask, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (gtask, compute_thread);
}

GArray *
seismo_critical_path_compute_finish (GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * Thread states: per task, what it was doing at every moment, derived from the scheduler events at
 * load (sched_switch's prev_state, sched_waking/wakeup, lost events). A state holds from its start
 * event until the next state of the same task, or the end of the trace. Before a task's first state
 * (and after lost events, until the task is seen again) its state is Unknown: never guessed.
 *
 * A trace without sched_switch events (ptrace, strace) has no states: everything is Unknown.
 */
typedef enum {
  SEISMO_STATE_UNKNOWN = 0,
  SEISMO_STATE_RUNNING,          /* on a CPU */
  SEISMO_STATE_RUNNABLE,         /* wants a CPU: woken and not yet running, or preempted */
  SEISMO_STATE_SLEEPING,         /* S (and I: an idle kernel thread): waiting for something */
  SEISMO_STATE_UNINTERRUPTIBLE,  /* D: waiting, usually for I/O, signals held off */
  SEISMO_STATE_STOPPED,          /* T, t: stopped by a signal or a debugger */
  SEISMO_STATE_DEAD,             /* X, Z: exited */
  SEISMO_STATE_N
} SeismoThreadState;

/* Flags of a state span. */
enum {
  SEISMO_STATE_FLAG_PREEMPTED   = 1 << 0,  /* Runnable: switched out while still runnable (R+) */
  SEISMO_STATE_FLAG_WOKEN       = 1 << 1,  /* Runnable: began at a wakeup; its event's task woke it */
  SEISMO_STATE_FLAG_IN_IRQ      = 1 << 2,  /* the wakeup came from a hard interrupt handler */
  SEISMO_STATE_FLAG_IN_SOFTIRQ  = 1 << 3,  /* the wakeup came from a softirq */
  SEISMO_STATE_FLAG_IDLE        = 1 << 4,  /* Sleeping: an idle kernel thread (I) */
  SEISMO_STATE_FLAG_LOST        = 1 << 5,  /* Unknown: the recorder lost events here */
  SEISMO_STATE_FLAG_NEW         = 1 << 6,  /* Runnable: a new task's first wakeup (wakeup_new) */
  SEISMO_STATE_FLAG_SEEN        = 1 << 7,  /* Running: known from the task's own event, not a switch */
};

#define SEISMO_STATE_NO_CPU G_MAXUINT16

/* One state of one task; 8 bytes. */
typedef struct {
  SeismoEventId start;  /* the event at which the task entered this state */
  guint16       cpu;    /* Running: its CPU; Runnable: the CPU it waits for; else SEISMO_STATE_NO_CPU */
  guint8        state;  /* SeismoThreadState */
  guint8        flags;
} SeismoStateSpan;

/* "running", "runnable", "sleeping", "uninterruptible", "stopped", "dead", "unknown". */
const char            *seismo_thread_state_to_string    (SeismoThreadState  state);
/* The ps letter: R, R (runnable), S, D, T, X, ?; static. */
const char            *seismo_thread_state_letter       (SeismoThreadState  state);

/* The task's states in time order; the array lives as long as the trace. */
const SeismoStateSpan *seismo_trace_get_task_states     (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         gsize              *n_states);
/* Whether the trace has scheduler events to derive states from. */
gboolean               seismo_trace_has_states          (SeismoTrace        *self);
guint64                seismo_trace_task_state_start_ns (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         gsize               index);
/* The next state's start, or the end of the trace. */
guint64                seismo_trace_task_state_end_ns   (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         gsize               index);
/* Index of the state holding at time_ns; G_MAXSIZE before the first (Unknown). */
gsize                  seismo_trace_task_state_find     (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         guint64             time_ns);
/* Nanoseconds in each state over [from_ns, to_ns), clamped to the trace: totals[SEISMO_STATE_N]
 * add up to the clamped interval. */
void                   seismo_trace_task_state_totals   (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         guint64             from_ns,
                                                         guint64             to_ns,
                                                         guint64            *totals);
/* Runnable after a wakeup: the task whose wakeup event began it (SEISMO_NO_TASK when the waker was
 * the idle task, or the state did not begin at a wakeup). */
SeismoTaskId           seismo_trace_task_state_waker    (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         gsize               index);
typedef enum {
  SEISMO_WAKER_TASK = 0,
  SEISMO_WAKER_IRQ,
  SEISMO_WAKER_SOFTIRQ,
  SEISMO_WAKER_NONE,     /* the wait had not ended, or its wakeup was not recorded */
} SeismoWakerKind;

/* What ended the wait before the state at index (a Runnable that began at a wakeup): the interrupt
 * or softirq the wakeup ran in, even when it interrupted a task (the task is not the waker then);
 * a wakeup made by the idle task, which only wakes from interrupts; the timer (IRQ) of a sleep whose
 * syscall returned what only its timeout returns (nanosleep 0, poll 0, futex -ETIMEDOUT...); else
 * the waker task (*waker, may be NULL). NONE when the
 * state did not begin at a wakeup, or the trace does not have its waker. */
SeismoWakerKind        seismo_trace_task_state_wake_source (SeismoTrace  *self,
                                                         SeismoTaskId        task,
                                                         gsize               index,
                                                         SeismoTaskId       *waker);
/* Sleeping or Uninterruptible: the syscall the task was in when it went to sleep (an index for
 * seismo_trace_get_syscall_name()); FALSE when the trace has no syscall events for it. */
gboolean               seismo_trace_task_state_syscall  (SeismoTrace        *self,
                                                         SeismoTaskId        task,
                                                         gsize               index,
                                                         guint              *syscall);
/* Uninterruptible: the kernel function it blocked in, from sched:sched_blocked_reason when the
 * trace recorded it (its caller field); FALSE otherwise. */
gboolean               seismo_trace_task_state_blocked_caller (SeismoTrace  *self,
                                                         SeismoTaskId        task,
                                                         gsize               index,
                                                         guint64            *caller);

G_END_DECLS

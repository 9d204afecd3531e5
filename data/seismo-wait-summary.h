/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-thread-states.h"

G_BEGIN_DECLS

/*
 * "Why was this slow?": where one task's time went over an interval. Time in each state; the
 * waiting (sleeping and D) split by the syscall it happened in and by what ended it (a waker task,
 * an interrupt, or nothing recorded); the longest waits for a CPU.
 */

typedef struct {
  SeismoWakerKind kind;
  SeismoTaskId    task;   /* TASK: the waker */
  guint64         ns;     /* time waiting that this waker ended */
  guint           count;  /* wakeups */
} SeismoWaitWaker;

typedef struct {
  guint    syscall;       /* index for seismo_trace_get_syscall_name(); G_MAXUINT: outside a syscall */
  guint64  ns;            /* sleeping + D inside it */
} SeismoWaitSyscall;

typedef struct {
  guint64  start_ns;
  guint64  duration_ns;
  guint16  cpu;           /* the CPU it waited for, or SEISMO_STATE_NO_CPU */
  gboolean preempted;     /* preempted, else woken and waiting to run */
} SeismoWaitRunnable;

typedef struct {
  SeismoTaskId task;
  guint64      start_ns;
  guint64      end_ns;
  guint64      totals[SEISMO_STATE_N];
  GArray      *wakers;     /* SeismoWaitWaker, most time first */
  GArray      *syscalls;   /* SeismoWaitSyscall, most time first */
  GArray      *runnable;   /* SeismoWaitRunnable, the longest first, at most 10 */
} SeismoWaitSummary;

/* Caller frees with seismo_wait_summary_free(). The interval is clamped to the trace. */
SeismoWaitSummary *seismo_wait_summary_compute (SeismoTrace       *trace,
                                                SeismoTaskId       task,
                                                guint64            from_ns,
                                                guint64            to_ns);
void               seismo_wait_summary_free    (SeismoWaitSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoWaitSummary, seismo_wait_summary_free)

G_END_DECLS

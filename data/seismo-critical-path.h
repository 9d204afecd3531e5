/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-thread-states.h"

G_BEGIN_DECLS

/*
 * The critical path of a task over an interval: what it was waiting for at every moment, followed
 * back through wakeups (the task, then the task that woke it while it slept, then what that one
 * waited for...), with interrupts as sources. The idea is Trace Compass's critical path analysis
 * (Giraldeau and Dagenais, "Wait analysis of distributed systems using kernel tracing", 2016): the
 * segments tile the interval, each naming the one task the whole wait came down to then.
 */
typedef enum {
  SEISMO_PATH_RUNNING = 0,
  SEISMO_PATH_RUNNABLE,         /* waiting for a CPU */
  SEISMO_PATH_SLEEPING,         /* waiting, and nothing in the trace says for whom */
  SEISMO_PATH_UNINTERRUPTIBLE,  /* waiting in D, nothing in the trace says for whom */
  SEISMO_PATH_IRQ,              /* waiting for a device: a hard interrupt woke the chain */
  SEISMO_PATH_SOFTIRQ,          /* a softirq (timer, network, block completion) woke it */
  SEISMO_PATH_UNKNOWN,          /* no state known (before the trace knows it, lost events) */
  SEISMO_PATH_N
} SeismoPathState;

typedef struct {
  guint64       start_ns;
  guint64       end_ns;
  SeismoTaskId  task;       /* the task on the path; IRQ/SOFTIRQ: the task the handler interrupted */
  guint16       cpu;        /* RUNNING: the CPU; else SEISMO_STATE_NO_CPU */
  guint8        state;      /* SeismoPathState */
  guint8        depth;      /* how many wakeups away from the task asked about (capped at 255) */
} SeismoPathSegment;

/* "running", "runnable", "sleeping", "uninterruptible", "irq", "softirq", "unknown". */
const char *seismo_path_state_to_string          (SeismoPathState      state);

/* The segments, in time order, tiling [from_ns, to_ns) clamped to the trace. NULL with error when
 * the task does not exist, the interval is empty, or cancelled. Caller owns the array. */
GArray     *seismo_critical_path_compute         (SeismoTrace         *trace,
                                                  SeismoTaskId         task,
                                                  guint64              from_ns,
                                                  guint64              to_ns,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
/* The same in a worker thread (the trace is only read). */
void        seismo_critical_path_compute_async   (SeismoTrace         *trace,
                                                  SeismoTaskId         task,
                                                  guint64              from_ns,
                                                  guint64              to_ns,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
GArray     *seismo_critical_path_compute_finish  (GAsyncResult        *result,
                                                  GError             **error);

G_END_DECLS

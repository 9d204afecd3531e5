/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-histogram.h"
#include "seismo-thread-states.h"

G_BEGIN_DECLS

/*
 * Runnable latency: each time a task was ready to run (woken, or preempted while still runnable),
 * how long it waited until it ran on a CPU: the length of each of its Runnable states that ended
 * with Running. A Runnable cut by the interval, the trace's end, lost events or the task's death
 * measures nothing and is left out.
 */

/* The task's runnable latencies whose wait began in [from_ns, to_ns), in time order: a new GArray
 * of SeismoLatencySample (start: the wakeup or the switch that preempted it; end: the switch that
 * put it on a CPU). Empty when the trace has no states. */
GArray                 *seismo_runnable_latency_collect   (SeismoTrace  *trace,
                                                           SeismoTaskId  task,
                                                           guint64       from_ns,
                                                           guint64       to_ns);
/* A log2 histogram of them (the scale of seismo-cli hist); caller frees. */
SeismoLatencyHistogram *seismo_runnable_latency_histogram (SeismoTrace  *trace,
                                                           SeismoTaskId  task,
                                                           guint64       from_ns,
                                                           guint64       to_ns);

G_END_DECLS

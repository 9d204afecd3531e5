/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-file-summary.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoTimelineData: what the timeline draws from, prepared once per trace (on a worker thread:
 * it only reads the trace). Every row source (a CPU's runs, a task's runs, syscall spans, instant
 * events, wakeup latencies, a process's combined activity) is a time-sorted sequence with a
 * sampled copy of its start times, so a pixel column is found with a search that touches a few
 * cache lines whatever the zoom. Immutable once built; reference counted; thread-safe to read.
 */
typedef struct _SeismoTimelineData SeismoTimelineData;

/* A process: the tasks sharing a pid, main thread first. */
typedef struct {
  gint32         pid;        /* the tid of a lone task when the pid is unknown */
  SeismoTaskId   main_task;
  guint          n_tasks;
  SeismoTaskId  *tasks;
} SeismoTimelineProcess;

SeismoTimelineData          *seismo_timeline_data_new             (SeismoTrace         *trace,
                                                                   GCancellable        *cancellable);
SeismoTimelineData          *seismo_timeline_data_ref             (SeismoTimelineData  *self);
void                         seismo_timeline_data_unref           (SeismoTimelineData  *self);
/* Borrowed. */
SeismoTrace                 *seismo_timeline_data_get_trace       (SeismoTimelineData  *self);

/* CPUs that have scheduler runs (0 when the trace has no sched_switch). */
guint                        seismo_timeline_data_get_n_cpus      (SeismoTimelineData  *self);
/* Processes with at least one shown task, ordered by pid. Borrowed. */
const SeismoTimelineProcess *seismo_timeline_data_get_processes   (SeismoTimelineData  *self,
                                                                   guint               *n_processes);
/* Index into the processes of a task; G_MAXUINT for tasks not shown (idle). */
guint                        seismo_timeline_data_task_process    (SeismoTimelineData  *self,
                                                                   SeismoTaskId         task);
/* The syscall span that event opens or closes, or NULL. Borrowed from the trace. */
const SeismoSyscallSpan     *seismo_timeline_data_find_span       (SeismoTimelineData  *self,
                                                                   SeismoEventId        event);
/* The span of task running at time_ns, or NULL. */
const SeismoSyscallSpan     *seismo_timeline_data_span_at         (SeismoTimelineData  *self,
                                                                   SeismoTaskId         task,
                                                                   guint64              time_ns);
/* End of a span: its exit, else where the task went on without it. */
guint64                      seismo_timeline_data_span_end_ns     (SeismoTimelineData  *self,
                                                                   const SeismoSyscallSpan *span);

/*
 * A trace too large to load is shown as one window of its events (trace: perhaps none) over its
 * file's summary (seismo-file-summary.h): the timeline then spans the whole trace, has a row for
 * each of its CPUs and tasks, and draws the level-of-detail cells of the summary wherever the
 * loaded events do not reach. The data keeps a reference to the summary.
 */
SeismoTimelineData          *seismo_timeline_data_new_for_window  (SeismoTrace         *trace,
                                                                   SeismoFileSummary   *summary,
                                                                   GCancellable        *cancellable);
/* Borrowed; NULL when the whole trace is loaded. */
SeismoFileSummary           *seismo_timeline_data_get_summary     (SeismoTimelineData  *self);
/* The time the loaded events cover (the whole trace when there is no summary). */
void                         seismo_timeline_data_get_loaded_span (SeismoTimelineData  *self,
                                                                   guint64             *start_ns,
                                                                   guint64             *end_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoTimelineData, seismo_timeline_data_unref)

G_END_DECLS

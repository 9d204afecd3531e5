/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A .seismo file opened without loading its events (docs/file-format.md, "Summaries and level of
 * detail"): the tables (event types, tasks, strings, metadata) and the SUMMARY record a writer
 * left, which is enough to describe the trace, give its statistics and draw a zoomed-out timeline
 * of it, in memory bounded by the number of chunks and tasks rather than events. The events of a
 * time window are read on demand (seismo_file_summary_load_window()) into an ordinary SeismoTrace,
 * so everything that works on a trace works on the window.
 *
 * This is how a trace larger than memory is opened; a normal one is loaded whole with
 * seismo_file_load().
 */

#include "seismo-stats.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

typedef struct _SeismoFileSummary SeismoFileSummary;

/* One cell of a zoomed-out timeline row: what happened in [start_ns, end_ns). */
typedef struct {
  guint64      start_ns;
  guint64      end_ns;
  guint64      events;
  guint64      busy_ns;     /* time a task (not idle) ran: on the CPU, or this task anywhere */
  SeismoTaskId task;        /* CPU rows: the task that ran longest; SEISMO_NO_TASK when none */
} SeismoLodCell;

/* Cheap look at a file (its trailer and index only, a few reads): TRUE when it is a finished
 * .seismo whose index lists a summary, with its event count. Nothing is checked beyond that;
 * seismo_file_summary_open() checks everything. */
gboolean           seismo_file_summary_probe            (const char          *path,
                                                         guint64             *n_events);

/* The middle max_events (whole chunks) of a .seismo file, without reading its summary or any other
 * chunk: what a window shows of a trace too large to load. Its "load_warning" says which part it
 * is. A file without an index is read whole. */
SeismoTrace       *seismo_file_load_part                (const char          *path,
                                                         guint64              max_events,
                                                         GCancellable        *cancellable,
                                                         GError             **error);

/* TRUE when path is a .seismo with a summary and too large to load comfortably: its events would
 * take more than a quarter of the machine's memory at 42 bytes each, or it holds at least
 * $SEISMO_SUMMARY_MIN_EVENTS events when that is set. Such a trace is opened by its summary. */
gboolean           seismo_file_summary_too_large        (const char          *path);

/* Opens path's tables and summary. A file without a summary (older, unfinished, or written out of
 * time order) is an error SEISMO_ERROR_UNSUPPORTED: load it with seismo_file_load(). */
SeismoFileSummary *seismo_file_summary_open             (const char          *path,
                                                         GError             **error);
/* A summary is shared between the window's timeline and the thread loading the next window of
 * events: ref adds an owner, free drops one. Everything but load_window() only reads it. */
SeismoFileSummary *seismo_file_summary_ref              (SeismoFileSummary   *self);
void               seismo_file_summary_free             (SeismoFileSummary   *self);

/* The trace's tables with no events (borrowed): event types, tasks, comms, metadata, CPUs. */
SeismoTrace       *seismo_file_summary_get_tables       (SeismoFileSummary   *self);
guint64            seismo_file_summary_get_n_events     (SeismoFileSummary   *self);
guint64            seismo_file_summary_get_start_ns     (SeismoFileSummary   *self);
guint64            seismo_file_summary_get_end_ns       (SeismoFileSummary   *self);
guint              seismo_file_summary_get_n_cpus       (SeismoFileSummary   *self);
guint              seismo_file_summary_get_n_chunks     (SeismoFileSummary   *self);
/* Syscall spans (calls plus unfinished), as seismo_trace_get_syscall_spans() counts them. */
guint64            seismo_file_summary_get_n_syscalls   (SeismoFileSummary   *self);

/* Whole-trace statistics, as seismo_stats_by_*() (NULL selection) give them for the loaded trace:
 * the same values, except syscall percentiles, read from a log-linear histogram (within ~6%).
 * New GArrays, sorted the same way; syscall names belong to the summary. */
GArray            *seismo_file_summary_stats_by_type    (SeismoFileSummary   *self);
GArray            *seismo_file_summary_stats_by_cpu     (SeismoFileSummary   *self);
GArray            *seismo_file_summary_stats_by_task    (SeismoFileSummary   *self);
GArray            *seismo_file_summary_stats_by_syscall (SeismoFileSummary   *self);
/* Event counts per type over the chunks that overlap [start_ns, end_ns] (chunk granularity:
 * 65536 events). Returns a new array of n_event_types guint64. */
guint64           *seismo_file_summary_range_type_counts (SeismoFileSummary  *self,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint64             *n_events);

/* Syscall statistics of the spans that ended in the chunks overlapping [start_ns, end_ns] (chunk
 * granularity, as range_type_counts()): calls, errors, total, average and maximum; minimum,
 * percentiles and unfinished spans are not known (0). Sorted as stats_by_syscall(); names belong
 * to the summary. NULL when the file does not have its syscalls by chunk (written before format
 * 1.3): has_range_syscalls() says so beforehand. */
gboolean           seismo_file_summary_has_range_syscalls (SeismoFileSummary *self);
GArray            *seismo_file_summary_range_stats_by_syscall (SeismoFileSummary *self,
                                                             guint64            start_ns,
                                                             guint64            end_ns);

/* Fills n_cells cells dividing [start_ns, end_ns) evenly from the level-of-detail buckets (each
 * bucket's part in the span is shared among the cells it overlaps in proportion, in whole counts;
 * a bucket inside the span adds exactly its count). Cost: O(n_cells + buckets at the level used), never
 * the events. Returns FALSE when the buckets are coarser than the cells (load the window's events
 * instead). */
gboolean           seismo_file_summary_cpu_row          (SeismoFileSummary   *self,
                                                         guint                cpu,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint                n_cells,
                                                         SeismoLodCell       *cells);
gboolean           seismo_file_summary_task_row         (SeismoFileSummary   *self,
                                                         SeismoTaskId         task,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint                n_cells,
                                                         SeismoLodCell       *cells);

/* Each task's events and time on a CPU in [start_ns, end_ns), as one cell of
 * seismo_file_summary_task_row() over the span gives them, for tasks [0, n_tasks) at once (events
 * and busy_ns hold n_tasks each). Cost: the task buckets in the span. */
void               seismo_file_summary_range_task_totals (SeismoFileSummary  *self,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint                n_tasks,
                                                         guint64             *events,
                                                         guint64             *busy_ns);

/* The chunks whose events overlap [start_ns, end_ns]: [*first, *first + *count). */
void               seismo_file_summary_find_chunks      (SeismoFileSummary   *self,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint               *first,
                                                         guint               *count);
/* How many events the chunks overlapping [start_ns, end_ns] hold: what loading that window reads. */
guint64            seismo_file_summary_count_window     (SeismoFileSummary   *self,
                                                         guint64              start_ns,
                                                         guint64              end_ns);
/* Reads the events of the chunks overlapping [start_ns, end_ns] (at most max_events of them, the
 * window's middle ones when there are more) into a new trace with the whole trace's tables,
 * decompressing the chunks on all cores. Its metadata "load_warning" says which part of the trace
 * it is. The last window read is kept: asking for the same chunks again returns it (a new
 * reference). */
SeismoTrace       *seismo_file_summary_load_window      (SeismoFileSummary   *self,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint64              max_events,
                                                         GCancellable        *cancellable,
                                                         GError             **error);

/* Like load_window(), but fills max_events with the chunks around [start_ns, end_ns] as evenly
 * before as after it (all on one side at an end of the trace): what a view of a trace larger than
 * memory loads so that panning on finds events loaded. */
SeismoTrace       *seismo_file_summary_load_around      (SeismoFileSummary   *self,
                                                         guint64              start_ns,
                                                         guint64              end_ns,
                                                         guint64              max_events,
                                                         GCancellable        *cancellable,
                                                         GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoFileSummary, seismo_file_summary_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-event-type.h"
#include "seismo-syscalls.h"
#include "seismo-types.h"

G_BEGIN_DECLS

#define SEISMO_TYPE_TRACE (seismo_trace_get_type ())
G_DECLARE_FINAL_TYPE (SeismoTrace, seismo_trace, SEISMO, TRACE, GObject)

/* A task: one thread's lifetime. The comm is the last one it had; see seismo_trace_task_comm_at(). */
typedef struct {
  gint32         tid;
  gint32         pid;         /* thread group id; -1 when unknown */
  gint32         ppid;        /* -1 when unknown */
  SeismoStringId comm;
  guint64        first_ns;    /* first event of or about it */
  guint64        last_ns;
} SeismoTask;

/* A comm change (exec, prctl, task_rename), sorted by time. A renamed task's first change, at its
 * first_ns, holds the comm it started with. */
typedef struct {
  SeismoTaskId   task;
  SeismoStringId comm;
  guint64        time_ns;
} SeismoCommChange;

/* Events lost by the recorder on one CPU (cpu -1: unknown CPU). */
typedef struct {
  gint32  cpu;
  guint64 time_ns;
  guint64 count;
} SeismoLostEvents;

/* A histogram computed by the recorder (e.g. eBPF --aggregate), stored with the trace. */
typedef struct {
  char    *name;        /* "syscall_latency", "syscall_count" */
  char    *key;         /* "read", "comm=bash"; "" for none */
  char    *unit;        /* "ns", "calls" */
  guint    n_buckets;
  guint64 *lower;       /* inclusive lower bound of each bucket */
  guint64 *counts;
  guint64  total_count;
  guint64  sum;
} SeismoHistogram;

/* A syscall span: an enter matched with its exit on the same task. */
typedef struct {
  SeismoEventId enter;
  SeismoEventId exit;     /* SEISMO_NO_EVENT when unfinished (trace ended, task died) */
  guint16       syscall;  /* index into seismo_trace_get_syscall_name() */
} SeismoSyscallSpan;

/* Kinds of derived intervals. */
typedef enum {
  SEISMO_INTERVAL_RUN = 0,     /* a task on a CPU: switch-in .. switch-out */
  SEISMO_INTERVAL_WAKEUP,      /* wakeup (or waking) .. switch-in: the latency to run */
  SEISMO_INTERVAL_IRQ,         /* irq_handler_entry .. exit */
  SEISMO_INTERVAL_SOFTIRQ,     /* softirq_entry .. exit */
  SEISMO_INTERVAL_N
} SeismoIntervalKind;

/* A derived interval between two events. start or end may be SEISMO_NO_EVENT (trace edge). */
typedef struct {
  SeismoEventId start;
  SeismoEventId end;
  SeismoTaskId  task;     /* RUN, WAKEUP: the task; IRQ/SOFTIRQ: the interrupted task */
  guint32       key;      /* RUN/WAKEUP: cpu; IRQ: irq number; SOFTIRQ: vector */
} SeismoInterval;

/* Metadata keys every source sets when it knows them. */
#define SEISMO_META_SOURCE      "source"      /* "ftrace", "ptrace", "ebpf", "trace.dat", "strace", "synthetic" */
#define SEISMO_META_BACKEND     "backend"
#define SEISMO_META_HOST        "host"
#define SEISMO_META_KERNEL      "kernel"
#define SEISMO_META_CLOCK       "clock"       /* "boot", "mono", "local", "realtime" */
#define SEISMO_META_START_WALL  "start_wall_ns"
#define SEISMO_META_COMMAND     "command"
#define SEISMO_META_ARCH        "arch"        /* "x86_64", "arm", ... (seismo-syscalls.h); absent: unknown */
#define SEISMO_META_ORIGINAL    "original_file"
/* "asm-generic": the return values hold asm-generic's errno numbers whatever the arch (a text
 * importer that read errno names, strace's "ENOENT", before it knew the arch); absent: the
 * arch's own numbers (what the kernel returned). */
#define SEISMO_META_ERRNO_NUMBERS "errno_numbers"

/* Counts */
gsize                   seismo_trace_get_n_events        (SeismoTrace        *self);
guint                   seismo_trace_get_n_cpus          (SeismoTrace        *self);
guint                   seismo_trace_get_n_tasks         (SeismoTrace        *self);
guint                   seismo_trace_get_n_event_types   (SeismoTrace        *self);
guint64                 seismo_trace_get_start_ns        (SeismoTrace        *self);
guint64                 seismo_trace_get_end_ns          (SeismoTrace        *self);

/* Columns: direct access for hot loops; the arrays live as long as the trace. */
const guint64          *seismo_trace_get_times           (SeismoTrace        *self);
const guint16          *seismo_trace_get_cpus            (SeismoTrace        *self);
const guint16          *seismo_trace_get_types           (SeismoTrace        *self);
const SeismoTaskId     *seismo_trace_get_tasks           (SeismoTrace        *self);

/* One event */
guint64                 seismo_trace_event_time          (SeismoTrace        *self,
                                                          SeismoEventId       event);
guint                   seismo_trace_event_cpu           (SeismoTrace        *self,
                                                          SeismoEventId       event);
const SeismoEventType  *seismo_trace_event_type          (SeismoTrace        *self,
                                                          SeismoEventId       event);
const SeismoTask       *seismo_trace_event_task          (SeismoTrace        *self,
                                                          SeismoEventId       event);
const guint8           *seismo_trace_event_payload       (SeismoTrace        *self,
                                                          SeismoEventId       event,
                                                          gsize              *len);
gboolean                seismo_trace_event_field         (SeismoTrace        *self,
                                                          SeismoEventId       event,
                                                          guint               field,
                                                          SeismoValue        *value);
gboolean                seismo_trace_event_field_by_name (SeismoTrace        *self,
                                                          SeismoEventId       event,
                                                          const char         *name,
                                                          SeismoValue        *value);
/* All fields decoded at once; values must hold n_fields of the event's type. */
guint                   seismo_trace_event_fields        (SeismoTrace        *self,
                                                          SeismoEventId       event,
                                                          SeismoValue        *values,
                                                          guint               n_values);
/* Renders the fields with the type's print format and symbolic names. Caller owns the string. */
char                   *seismo_trace_event_format        (SeismoTrace        *self,
                                                          SeismoEventId       event);
void                    seismo_trace_event_format_into   (SeismoTrace        *self,
                                                          SeismoEventId       event,
                                                          GString            *out);
void                    seismo_trace_format_value        (SeismoTrace        *self,
                                                          const SeismoField  *field,
                                                          const SeismoValue  *value,
                                                          GString            *out);

/* Tables */
const SeismoEventType  *seismo_trace_get_event_type      (SeismoTrace        *self,
                                                          guint               type_id);
const SeismoEventType  *seismo_trace_find_event_type     (SeismoTrace        *self,
                                                          const char         *full_name);
const SeismoTask       *seismo_trace_get_task            (SeismoTrace        *self,
                                                          SeismoTaskId        task);
/* The task with this tid alive at time_ns (or the nearest one). */
SeismoTaskId            seismo_trace_find_task           (SeismoTrace        *self,
                                                          gint32              tid,
                                                          guint64             time_ns);
const char             *seismo_trace_task_comm_at        (SeismoTrace        *self,
                                                          SeismoTaskId        task,
                                                          guint64             time_ns);
const SeismoCommChange *seismo_trace_get_comm_changes    (SeismoTrace        *self,
                                                          guint              *n_changes);
const char             *seismo_trace_get_string          (SeismoTrace        *self,
                                                          SeismoStringId      id);
guint                   seismo_trace_get_n_strings       (SeismoTrace        *self);
const SeismoLostEvents *seismo_trace_get_lost_events     (SeismoTrace        *self,
                                                          guint              *n_lost);
guint64                 seismo_trace_get_n_lost_events   (SeismoTrace        *self);
const SeismoHistogram  *seismo_trace_get_histograms      (SeismoTrace        *self,
                                                          guint              *n_histograms);
/* Metadata: NULL-terminated key list in insertion order; values owned by the trace. */
const char             *seismo_trace_get_metadata        (SeismoTrace        *self,
                                                          const char         *key);
/* The ABI whose errno numbers the trace's return values are (seismo_errno_name_for_arch()). */
SeismoArch              seismo_trace_get_errno_arch      (SeismoTrace        *self);
const char *const      *seismo_trace_get_metadata_keys   (SeismoTrace        *self);
/*
 * Names the architecture whose syscall table names the trace's syscall numbers (`--arch`),
 * over what the file said or what was detected: sets metadata.arch and derives the syscall spans
 * again. Call it before any query. FALSE (error set) when arch names no known architecture.
 */
gboolean                seismo_trace_set_arch            (SeismoTrace        *self,
                                                          const char         *arch,
                                                          GError            **error);

/* Queries */
/* First event with time >= time_ns; n_events when none. */
SeismoEventId           seismo_trace_find_time           (SeismoTrace        *self,
                                                          guint64             time_ns);
/* Events on one CPU / of one task, in time order. The arrays live as long as the trace. */
const SeismoEventId    *seismo_trace_get_cpu_events      (SeismoTrace        *self,
                                                          guint               cpu,
                                                          gsize              *n_events);
const SeismoEventId    *seismo_trace_get_task_events     (SeismoTrace        *self,
                                                          SeismoTaskId        task,
                                                          gsize              *n_events);
/* First index into an index array (cpu or task events) whose event time is >= time_ns. */
gsize                   seismo_trace_index_find_time     (SeismoTrace        *self,
                                                          const SeismoEventId *index,
                                                          gsize               n_index,
                                                          guint64             time_ns);
/* Event counts per type id; array of n_event_types. */
const guint64          *seismo_trace_get_type_counts     (SeismoTrace        *self);

/* Derived intervals, computed once after load. */
const SeismoSyscallSpan *seismo_trace_get_syscall_spans  (SeismoTrace        *self,
                                                          gsize              *n_spans);
const char             *seismo_trace_get_syscall_name    (SeismoTrace        *self,
                                                          guint               syscall);
guint                   seismo_trace_get_n_syscall_names (SeismoTrace        *self);
/* Return value of a span (from its exit event); FALSE when unfinished. */
gboolean                seismo_trace_syscall_span_ret    (SeismoTrace        *self,
                                                          const SeismoSyscallSpan *span,
                                                          gint64             *ret);
/* A bit per syscall span, in seismo_trace_get_syscall_spans() order: the call returned an error
 * (-4095..-1). Found on first use on every core, then kept with the trace; thread-safe. */
const guint64          *seismo_trace_get_failed_spans    (SeismoTrace        *self);
/* Whether span (an index into the syscall spans) returned an error. */
gboolean                seismo_trace_syscall_span_failed (SeismoTrace        *self,
                                                          gsize               span);
/* Intervals of one kind sorted by start time (RUN: by cpu, then time; see _get_cpu_runs). */
const SeismoInterval   *seismo_trace_get_intervals       (SeismoTrace        *self,
                                                          SeismoIntervalKind  kind,
                                                          gsize              *n_intervals);
/* RUN intervals of one CPU, sorted by time. */
const SeismoInterval   *seismo_trace_get_cpu_runs        (SeismoTrace        *self,
                                                          guint               cpu,
                                                          gsize              *n_runs);
guint64                 seismo_trace_interval_start_ns   (SeismoTrace        *self,
                                                          const SeismoInterval *interval);
guint64                 seismo_trace_interval_end_ns     (SeismoTrace        *self,
                                                          const SeismoInterval *interval);

/* Resident bytes of the model (columns, payload, tables, indexes, derived). */
gsize                   seismo_trace_get_memory_size     (SeismoTrace        *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The layout of SeismoTrace, for the data layer's own readers and writers (the .seismo file format,
 * the builder). Everything here is owned by the trace and freed in finalize with g_free().
 */

#include "seismo-thread-states.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/* Payload offsets are 32-bit within blocks of this many events; block_base gives each block's start. */
#define SEISMO_BLOCK_SHIFT  16
#define SEISMO_BLOCK_EVENTS (1u << SEISMO_BLOCK_SHIFT)
/* One event's payload never exceeds this (bytes fields are cut), so a block fits 32-bit offsets. */
#define SEISMO_MAX_PAYLOAD  65535u

struct _SeismoTrace
{
  GObject            parent_instance;

  /* A window of a larger trace (seismo-file-summary.h) spans the whole trace's time: its clock
   * starts where the whole trace's does, so times read the same in every window. */
  gboolean           has_span;
  guint64            span_start_ns;
  guint64            span_end_ns;

  /* Event columns, sorted by time (stable). */
  gsize              n_events;
  guint64           *ts;
  guint16           *cpu;
  guint16           *type;
  SeismoTaskId      *task;
  guint32           *payload_off;   /* relative to block_base[i >> SEISMO_BLOCK_SHIFT] */
  guint64           *block_base;    /* n_blocks + 1 entries; the last is payload_len */
  gsize              n_blocks;
  guint8            *payload;
  gsize              payload_len;

  GPtrArray         *event_types;   /* SeismoEventType*, index = type id */
  GHashTable        *type_by_name;  /* full_name → SeismoEventType* (borrowed) */

  SeismoTask        *tasks;
  guint              n_tasks;
  SeismoCommChange  *comm_changes;
  guint              n_comm_changes;

  char              *strings;       /* NUL-terminated strings back to back; id 0 is "" */
  gsize              strings_len;
  guint32           *string_off;
  guint              n_strings;

  SeismoLostEvents  *lost;
  guint              n_lost;
  SeismoHistogram   *histograms;
  guint              n_histograms;

  GPtrArray         *meta_keys;     /* char*, NULL-terminated */
  GPtrArray         *meta_values;   /* char* */

  guint              n_cpus;
  gboolean           known_sorted;

  /* Stacks (seismo-stacks.c): both NULL when the trace has none. stack_of has n_events entries
   * and moves with the events in _seismo_trace_sort(). */
  struct _SeismoStackTable *stacks;
  guint32           *stack_of;  /* a reader found the events in time order: no sort needed */

  /* Derived by _seismo_trace_derive(). A reader that counted while decoding sets type_counts and
   * cpu_switches (n_cpus entries: sched_switch events per CPU) before; derive then frees
   * cpu_switches instead of counting. */
  guint64           *type_counts;
  gsize             *cpu_switches;
  guint64            n_lost_events;
  SeismoSyscallSpan *spans;
  gsize              n_spans;
  GPtrArray         *syscall_names; /* char* */
  SeismoInterval    *intervals[SEISMO_INTERVAL_N];
  gsize              n_intervals[SEISMO_INTERVAL_N];
  gsize             *cpu_run_off;   /* n_cpus + 1: RUN intervals of cpu c are [off[c], off[c+1]) */
  SeismoStateSpan   *state_spans;   /* thread states, task by task, each in time order */
  gsize              n_state_spans;
  gsize             *state_off;     /* n_tasks + 1 when the trace has states, else NULL */

  /* Built on first use, under index_lock. */
  GMutex             index_lock;
  SeismoEventId     *cpu_index;
  gsize             *cpu_index_off; /* n_cpus + 1 */
  SeismoEventId     *task_index;
  gsize             *task_index_off;/* n_tasks + 1 */
  GHashTable        *tid_tasks;     /* tid → first SeismoTaskId + 1; chains in tid_next */
  SeismoTaskId      *tid_next;
  gpointer           calls;         /* SeismoFunctionCall[n_calls] (seismo-function-calls.c), built on first use */
  /* A bit per syscall span: it failed (seismo-syscall-failures.c), built on first use. */
  GMutex             failed_lock;
  guint64           *span_failed;
  gsize              n_calls;
  gint               calls_built;
};

/* TRUE (the default): _seismo_trace_derive() derives thread states. Benchmarks turn it off to
 * measure what the states cost. */
extern gboolean  _seismo_derive_thread_states;
/* Ranges the syscall pass pairs at once (0: by the number of workers); for tests. */
extern guint     _seismo_derive_syscall_ranges;

SeismoTrace     *_seismo_trace_new              (void);
/* Allocates the event columns for n_events (payload and block_base are separate). */
void             _seismo_trace_alloc_events     (SeismoTrace           *self,
                                                 gsize                  n_events);
SeismoEventType *_seismo_event_type_new         (guint                  id,
                                                 const char            *system,
                                                 const char            *name,
                                                 const SeismoFieldInfo *fields,
                                                 guint                  n_fields,
                                                 const char            *print_fmt);
void             _seismo_event_type_free        (SeismoEventType       *type);
/* Appends a copy to the trace's type table; the type's id must equal the table length. */
void             _seismo_trace_add_event_type   (SeismoTrace           *self,
                                                 SeismoEventType       *type);
void             _seismo_trace_set_span         (SeismoTrace           *self,
                                                 guint64                start_ns,
                                                 guint64                end_ns);
void             _seismo_trace_set_metadata     (SeismoTrace           *self,
                                                 const char            *key,
                                                 const char            *value);
/* Sorts events by time if they are not already (stable, payload moved along). */
void             _seismo_trace_sort             (SeismoTrace           *self);
/* Computes counts, CPUs, time span and derived intervals. Call once all tables are set. */
void             _seismo_trace_derive           (SeismoTrace           *self);
/* Checks what a reader filled in (string ids, task ids, type ids, payload offsets). ids_checked:
 * the reader already checked every event's type and task id and built its payload offsets from
 * lengths, so the pass over the events can be skipped. */
gboolean         _seismo_trace_validate         (SeismoTrace           *self,
                                                 gboolean               ids_checked,
                                                 GError               **error);
void             _seismo_histogram_copy         (SeismoHistogram       *dst,
                                                 const SeismoHistogram *src);
void             _seismo_histogram_clear        (SeismoHistogram       *h);

static inline const guint8 *
_seismo_trace_payload (SeismoTrace *self,
                       gsize        i,
                       gsize       *len)
{
  gsize b = i >> SEISMO_BLOCK_SHIFT;
  guint64 base = self->block_base[b];
  guint64 start = base + self->payload_off[i];
  guint64 end;

  if ((i + 1) < self->n_events && ((i + 1) >> SEISMO_BLOCK_SHIFT) == b)
    end = base + self->payload_off[i + 1];
  else
    end = self->block_base[b + 1];
  *len = end - start;
  return self->payload + start;
}

G_END_DECLS

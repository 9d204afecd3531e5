/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The builder's layout, for streaming writers that flush what was appended so far. */

#include "seismo-stacks-private.h"
#include "seismo-trace-builder.h"
#include "seismo-trace-private.h"

G_BEGIN_DECLS

#define SEISMO_BUILDER_TASK_CACHE 256

/* An event type whose fields are all numbers, the last one maybe a uint array: the whole event is
 * encoded at once (seismo_trace_builder_add_event). */
typedef struct {
  guint8  numeric;     /* FALSE: another type; the pushes do it */
  guint8  n_numbers;   /* the number fields, before the array */
  guint8  array;       /* a uint array comes last */
  guint16 is_int;      /* bit k: number k is an INT (zigzag) */
} SeismoNumericShape;

/* Up to this many number fields have a shape; types with more take the pushes. */
#define SEISMO_NUMERIC_SHAPE_MAX 16

struct _SeismoTraceBuilder
{
  /* Event columns, in append order (not yet sorted). */
  gsize             n_events;
  gsize             capacity;
  guint64          *ts;
  guint16          *cpu;
  guint16          *type;
  SeismoTaskId     *task;
  guint32          *payload_off;  /* relative to block_base->data[i >> SEISMO_BLOCK_SHIFT] */
  GArray           *block_base;   /* guint64 */
  guint8           *payload;
  gsize             payload_len;
  gsize             payload_cap;
  gboolean          sorted;       /* every event so far came at or after the previous one */
  /* Blocks a streaming writer wrote and released (_seismo_trace_builder_release()): column index
   * i holds event released_blocks * SEISMO_BLOCK_EVENTS + i. */
  gsize             released_blocks;
  /* With reserved room: a thread faults in the columns' and payload's next pages ahead of the
   * appends (NULL: none), up to these marks. */
  GThreadPool      *prefault;
  gsize             prefault_events;
  gsize             prefault_payload;

  /* The event being appended. */
  gboolean          in_event;
  guint             cur_field;
  gsize             cur_start;    /* payload_len when the event began */
  const SeismoEventType *cur_type;

  GPtrArray        *event_types;  /* SeismoEventType* */
  /* Per type, for seismo_trace_builder_add_event(): SeismoNumericShape. */
  GArray           *numeric_shapes;
  GHashTable       *type_by_name; /* full_name → id + 1 */

  GHashTable       *string_ids;   /* interned string (key in strings) → id */
  GByteArray       *strings;
  GArray           *string_off;   /* guint32 */

  GArray           *tasks;        /* SeismoTask */
  GHashTable       *tid_task;     /* tid → task id + 1 (the live task with that tid) */
  /* tid_task's recent answers, direct-mapped by tid: every event asks, a few tasks make most. */
  struct {
    gint32          tid;
    SeismoTaskId    task;         /* SEISMO_NO_TASK: empty */
  }                 task_cache[SEISMO_BUILDER_TASK_CACHE];
  GByteArray       *task_exited;  /* per task flags: exited (0x1), renamed (0x2) */
  GArray           *comm_changes; /* SeismoCommChange */

  GArray           *lost;         /* SeismoLostEvents */
  GArray           *histograms;   /* SeismoHistogram */
  GPtrArray        *meta_keys;
  GPtrArray        *meta_values;
  guint             n_cpus;

  /* Stacks (seismo-stacks.c): NULL until the first event with a stack. stack_of is a column like
   * the others (capacity entries), 0 for events without a stack. */
  SeismoStackTable *stacks;
  SeismoStackId    *stack_of;
  GArray           *cur_kernel;   /* SeismoFrameId: the event being built's kernel frames */
  GArray           *cur_user;     /* SeismoFrameId: its user frames */
  /* Raw addresses not interned yet: a stack seen before is found whole (raw_cache) without
   * looking up each frame. */
  GArray           *raw_kernel;   /* guint64 */
  GArray           *raw_user;     /* guint64 */
  gint32            raw_pid;
  struct _SeismoRawStackSlot *raw_cache;
};

/* seismo-stacks.c: the builder's stack hooks. */
void _seismo_trace_builder_end_stack   (SeismoTraceBuilder *self);
void _seismo_trace_builder_free_stacks (SeismoTraceBuilder *self);
/* Moves (steal) or copies the stack tables and column into the trace; before the trace's sort. */
void _seismo_trace_builder_stacks_to_trace (SeismoTraceBuilder *self,
                                            SeismoTrace        *trace,
                                            gboolean            steal);

/* Drops the first n_blocks complete blocks of events (already written to a file) from the columns
 * and the payload, so a builder that streams to a file holds at most the blocks not yet written.
 * The tables (strings, tasks, types) stay. A builder that released events cannot be finished. */
void _seismo_trace_builder_release (SeismoTraceBuilder *self,
                                    gsize               n_blocks);

G_END_DECLS

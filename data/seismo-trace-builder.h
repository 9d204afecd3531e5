/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoTraceBuilder: what backends and importers append events to, from one thread at a time.
 * Events may arrive in any order (per-CPU streams); seismo_trace_builder_finish() sorts them by
 * time (stable), computes the derived intervals and returns an immutable SeismoTrace.
 *
 * Appending one event:
 *   seismo_trace_builder_begin_event (b, ts, cpu, tid, type);
 *   seismo_trace_builder_push_uint (b, ...);  ... one push per schema field, in schema order
 *   seismo_trace_builder_end_event (b);
 */
typedef struct _SeismoTraceBuilder SeismoTraceBuilder;

SeismoTraceBuilder *seismo_trace_builder_new              (void);
void                seismo_trace_builder_free             (SeismoTraceBuilder    *self);

/*
 * Makes room for n_events events and payload_bytes of payload at once, so that appending up to that
 * many copies nothing and touches no memory twice: a reader that knows a bound says so (unwritten
 * room is only address space). Beyond it the builder grows as usual; without the room, nothing.
 */
void                seismo_trace_builder_reserve          (SeismoTraceBuilder    *self,
                                                           gsize                  n_events,
                                                           gsize                  payload_bytes);

/* Registers an event type (or returns the existing one with that system:name). */
guint               seismo_trace_builder_add_event_type   (SeismoTraceBuilder    *self,
                                                           const char            *system,
                                                           const char            *name,
                                                           const SeismoFieldInfo *fields,
                                                           guint                  n_fields,
                                                           const char            *print_fmt);
/* -1 when absent. */
int                 seismo_trace_builder_find_event_type  (SeismoTraceBuilder    *self,
                                                           const char            *full_name);
const SeismoEventType *seismo_trace_builder_get_event_type (SeismoTraceBuilder   *self,
                                                           guint                  type_id);
guint               seismo_trace_builder_get_n_event_types (SeismoTraceBuilder   *self);

SeismoStringId      seismo_trace_builder_intern           (SeismoTraceBuilder    *self,
                                                           const char            *str);
SeismoStringId      seismo_trace_builder_intern_len       (SeismoTraceBuilder    *self,
                                                           const char            *str,
                                                           gsize                  len);

/* Tasks. The builder maps a tid to its current task, created on first use. */
SeismoTaskId        seismo_trace_builder_task             (SeismoTraceBuilder    *self,
                                                           gint32                 tid);
void                seismo_trace_builder_set_task_pid     (SeismoTraceBuilder    *self,
                                                           gint32                 tid,
                                                           gint32                 pid);
void                seismo_trace_builder_set_task_ppid    (SeismoTraceBuilder    *self,
                                                           gint32                 tid,
                                                           gint32                 ppid);
/* Sets the comm; a change after the task's first comm is recorded at time_ns. */
void                seismo_trace_builder_set_task_comm    (SeismoTraceBuilder    *self,
                                                           gint32                 tid,
                                                           const char            *comm,
                                                           guint64                time_ns);
/* A new thread or process with this tid begins (fork/clone): a previous task with the same tid
 * (an exited one) keeps its events. Returns the new task. */
SeismoTaskId        seismo_trace_builder_task_new         (SeismoTraceBuilder    *self,
                                                           gint32                 tid,
                                                           guint64                time_ns);
void                seismo_trace_builder_task_exited      (SeismoTraceBuilder    *self,
                                                           gint32                 tid,
                                                           guint64                time_ns);

void                seismo_trace_builder_begin_event      (SeismoTraceBuilder    *self,
                                                           guint64                time_ns,
                                                           guint                  cpu,
                                                           gint32                 tid,
                                                           guint                  type_id);
void                seismo_trace_builder_push_int         (SeismoTraceBuilder    *self,
                                                           gint64                 value);
void                seismo_trace_builder_push_uint        (SeismoTraceBuilder    *self,
                                                           guint64                value);
/* n numeric fields at once, as n push_int / push_uint calls would (an int field takes its value
 * as a gint64). */
void                seismo_trace_builder_push_numbers     (SeismoTraceBuilder    *self,
                                                           const guint64         *values,
                                                           guint                  n_values);
void                seismo_trace_builder_push_string      (SeismoTraceBuilder    *self,
                                                           const char            *str);
void                seismo_trace_builder_push_string_len  (SeismoTraceBuilder    *self,
                                                           const char            *str,
                                                           gsize                  len);
void                seismo_trace_builder_push_string_id   (SeismoTraceBuilder    *self,
                                                           SeismoStringId         id);
void                seismo_trace_builder_push_bytes       (SeismoTraceBuilder    *self,
                                                           const guint8          *data,
                                                           gsize                  len);
void                seismo_trace_builder_push_uint_array  (SeismoTraceBuilder    *self,
                                                           const guint64         *values,
                                                           gsize                  n_values);
/* Pushes a decoded value of the field's type (used by converters). */
void                seismo_trace_builder_push_value       (SeismoTraceBuilder    *self,
                                                           const SeismoValue     *value);
void                seismo_trace_builder_end_event        (SeismoTraceBuilder    *self);
/* A whole event of numbers (raw syscalls): values fill the type's fields in order, as
 * push_numbers would, and a uint array field last takes all the values left. The same event as
 * begin_event, the pushes and end_event, with one look at the schema instead of one a field. */
void                seismo_trace_builder_add_event        (SeismoTraceBuilder    *self,
                                                           guint64                time_ns,
                                                           guint                  cpu,
                                                           gint32                 tid,
                                                           guint                  type_id,
                                                           const guint64         *values,
                                                           guint                  n_values);

gsize               seismo_trace_builder_get_n_events     (SeismoTraceBuilder    *self);

void                seismo_trace_builder_add_lost_events  (SeismoTraceBuilder    *self,
                                                           int                    cpu,
                                                           guint64                time_ns,
                                                           guint64                count);
void                seismo_trace_builder_set_metadata     (SeismoTraceBuilder    *self,
                                                           const char            *key,
                                                           const char            *value);
/* Copies the histogram. */
void                seismo_trace_builder_add_histogram    (SeismoTraceBuilder    *self,
                                                           const SeismoHistogram *histogram);
/*
 * Replaces the symbol table of a field of a registered type (copied), for a reader that learns
 * what its values mean only after it registered the type (ftrace text's prev_state letters).
 * FALSE when the type has no such field.
 */
gboolean            seismo_trace_builder_set_field_symbols (SeismoTraceBuilder   *self,
                                                            guint                 type_id,
                                                            const char           *field,
                                                            const SeismoSymbol   *symbols,
                                                            guint                 n_symbols);
/* CPUs that existed even if they recorded nothing. */
void                seismo_trace_builder_set_n_cpus       (SeismoTraceBuilder    *self,
                                                           guint                  n_cpus);

/* A copy of everything appended so far, finished into a trace (for live views). */
SeismoTrace        *seismo_trace_builder_snapshot         (SeismoTraceBuilder    *self);
/* Consumes the builder. Returns a new trace; caller owns it. */
SeismoTrace        *seismo_trace_builder_finish           (SeismoTraceBuilder    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoTraceBuilder, seismo_trace_builder_free)

G_END_DECLS

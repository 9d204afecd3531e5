/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <event-parse.h>

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * SeismoTepConverter turns ftrace ring-buffer records (as found in trace_pipe_raw pages and
 * trace.dat files) into SeismoTraceBuilder events. Event formats come from a libtraceevent
 * tep_handle; every field of every format becomes a payload field (common_* fields become the
 * event's cpu/tid/time instead). Types are registered in the builder the first time an event of
 * that format is seen.
 *
 * Tasks: common_pid is the tid; comms come from sched_switch / sched_wakeup / fork / exec /
 * task_rename as they happen, then from saved cmdlines for tasks that no event named; thread
 * group ids from exec (a task that execs leads its group) and from tables the caller knows
 * (seismo_tep_converter_set_task_ids()).
 *
 * Records must be pushed in time order for comm changes to be attributed to the right time.
 * Not thread-safe: one thread pushes.
 */
typedef struct _SeismoTepConverter SeismoTepConverter;

/* Borrows tep and builder; both must outlive the converter. */
SeismoTepConverter *seismo_tep_converter_new            (struct tep_handle  *tep,
                                                         SeismoTraceBuilder *builder);
void                seismo_tep_converter_free           (SeismoTepConverter *self);

/*
 * Where formats come from when tep does not have them yet (trace.dat files parse formats on
 * demand). Without one, tep_find_event().
 */
typedef struct tep_event *(*SeismoTepEventLookup) (gpointer data,
                                                    int      id);
void                seismo_tep_converter_set_lookup     (SeismoTepConverter  *self,
                                                         SeismoTepEventLookup lookup,
                                                         gpointer             data);

/* Parses a saved_cmdlines table ("pid comm" per line): comms for tasks no event names. */
void                seismo_tep_converter_add_cmdlines   (SeismoTepConverter *self,
                                                         const char         *text,
                                                         gsize               len);
/* One task's comm for when no event names it (a /proc snapshot); the first one given stays. */
void                seismo_tep_converter_add_cmdline    (SeismoTepConverter *self,
                                                         gint32              tid,
                                                         const char         *comm);
/* Thread group and parent ids known from elsewhere (/proc); -1 leaves one unknown. */
void                seismo_tep_converter_set_task_ids   (SeismoTepConverter *self,
                                                         gint32              tid,
                                                         gint32              tgid,
                                                         gint32              ppid);

/*
 * Converts one record: data points at the event (common_type first), size is its length.
 * Returns FALSE (and counts it) when the record is too short or of an unknown format.
 */
gboolean            seismo_tep_converter_push           (SeismoTepConverter *self,
                                                         guint64             ts,
                                                         guint               cpu,
                                                         const guint8       *data,
                                                         guint               size);

/*
 * The kernel's symbol table (/proc/kallsyms text, NUL-terminated): from then on, fields the
 * kernel prints as functions (%ps, %pS) become string fields holding the functions' names, as
 * trace-cmd report shows them. Without it they stay addresses. Parsed into the tep handle; a
 * table of zero addresses (no right to see them) is ignored.
 */
void                seismo_tep_converter_set_kallsyms   (SeismoTepConverter *self,
                                                         const char         *text);
/* Whether the event has fields the kernel prints as functions (worth the symbol table). */
gboolean            seismo_tep_event_has_function_fields (struct tep_event  *event);

/* Applies the cmdlines and task ids to the tasks seen. Call once, before finishing the builder. */
void                seismo_tep_converter_finish         (SeismoTepConverter *self);

guint64             seismo_tep_converter_get_n_skipped  (SeismoTepConverter *self);
/* Of them, the records of every event id without a usable format; *first_id: the lowest. */
guint64             seismo_tep_converter_get_n_unknown  (SeismoTepConverter *self,
                                                         guint              *first_id);
/* Of them, the records of event id skipped because it has no usable format. */
guint64             seismo_tep_converter_get_n_skipped_of (SeismoTepConverter *self,
                                                           guint               id);

/*
 * The schema Seismo gives a format: fields (names are the kernel's; strings borrowed from event
 * or from the returned arrays) and a print format. Used by the converter and by list_events.
 * fields: GArray of SeismoFieldInfo; symbols: GPtrArray owning symbol tables referenced by fields.
 */
void                seismo_tep_event_schema             (struct tep_event   *event,
                                                         GArray             *fields,
                                                         GPtrArray          *symbols,
                                                         char              **print_fmt);
/* "system:name  field:type field:type…" for listings. Caller owns the string. */
char               *seismo_tep_event_describe           (struct tep_event   *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoTepConverter, seismo_tep_converter_free)

G_END_DECLS

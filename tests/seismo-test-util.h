/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * A deterministic trace for tests: n_events over 4 CPUs and 24 tasks with sched_switch,
 * sched_wakeup, raw_syscalls enter/exit, irq entry/exit and a type holding every field type
 * (bytes, pointer, flags, symbols, uint array); per-CPU streams appended out of order; comm
 * changes, lost events, a histogram and metadata.
 */
SeismoTrace        *seismo_test_make_trace   (guint64  n_events,
                                              guint32  seed);
/* The same events, left in a builder (not finished). */
SeismoTraceBuilder *seismo_test_make_builder (guint64  n_events,
                                              guint32  seed);
/* The same events with stacks (kernel + user) on syscall enters and sched_switches, kallsyms,
 * mappings with a build-id: seismo-stacks.h's test trace. */
SeismoTrace        *seismo_test_make_stack_trace   (guint64  n_events,
                                                    guint32  seed);
SeismoTraceBuilder *seismo_test_make_stack_builder (guint64  n_events,
                                                    guint32  seed);
/* A trace of one span per duration: span j calls syscall nrs[j] and lasts durs[j], spread over
 * n_tasks tasks that each make their calls one after the other (on 4 CPUs). Untimed traces say
 * so in their metadata, as an strace without -T would. */
SeismoTrace        *seismo_test_make_span_trace (const guint64 *durs,
                                                 const guint64 *nrs,
                                                 gsize          n,
                                                 guint          n_tasks,
                                                 gboolean       timed);
/* A duration at or next to an edge of the percentile bins (16 per power of two, up to 2^max_e)
 * or of a power of two, where an off-by-one in the bins would show; or a small one. */
guint64             seismo_test_edge_duration   (GRand         *rand,
                                                 guint          max_e);

/* A path in a fresh temporary folder removed at exit. Caller frees. */
char               *seismo_test_temp_path    (const char *name);

/* A .seismo file that must load (the test fails otherwise). Caller owns the trace. */
SeismoTrace        *seismo_test_load_file    (const char *path);

/* Metadata key, which must be there, as a number. */
guint64             seismo_test_metadata_u64 (SeismoTrace *trace,
                                              const char  *key);

/* The value of event's field name; the test fails, naming the event, when it has none. The
 * value's strings and bytes are borrowed from trace. */
SeismoValue         seismo_test_field        (SeismoTrace   *trace,
                                              SeismoEventId  event,
                                              const char    *name);
/* An integer field, signed or not, as a gint64. */
gint64              seismo_test_field_int    (SeismoTrace   *trace,
                                              SeismoEventId  event,
                                              const char    *name);
/* A string field (the test fails if it is of another type). Borrowed from trace. */
const char         *seismo_test_field_str    (SeismoTrace   *trace,
                                              SeismoEventId  event,
                                              const char    *name);

/*
 * A loader's progress reports, for seismo_test_progress() as its SeismoProgressFunc: each
 * fraction must not go back nor pass 1; calls counts them, last keeps the latest, and
 * cancel_at_first (when set) is cancelled at the first report.
 */
typedef struct {
  guint         calls;
  double        last;
  GCancellable *cancel_at_first;
} SeismoTestProgress;

void                seismo_test_progress     (double      fraction,
                                              gpointer    progress);

G_END_DECLS

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
/* A path in a fresh temporary folder removed at exit. Caller frees. */
char               *seismo_test_temp_path    (const char *name);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * A deterministic synthetic kernel trace for benchmarks: a scheduler simulation over n_cpus CPUs
 * and n_tasks threads (grouped into processes) producing sched_switch, sched_waking, sched_wakeup
 * and raw_syscalls sys_enter/sys_exit in the proportions a busy desktop shows, in time order.
 * The same seed always yields the same events.
 */
typedef struct {
  guint   n_cpus;     /* 8 */
  guint   n_tasks;    /* 2000 */
  guint32 seed;       /* 1 */
} SeismoSynthOptions;

#define SEISMO_SYNTH_DEFAULTS ((SeismoSynthOptions) { 8, 2000, 1 })

typedef struct _SeismoSynth SeismoSynth;

/* A simulation appending to builder (NULL: only runs it, to time it alone); run it in steps to
 * stream its events out (seismo-gen). The builder is borrowed. */
SeismoSynth *seismo_synth_new      (SeismoTraceBuilder       *builder,
                                    const SeismoSynthOptions *options);
/* Appends exactly n_events more, in time order. */
void         seismo_synth_run      (SeismoSynth              *self,
                                    guint64                   n_events);
/* No event made later is earlier than this. */
guint64      seismo_synth_get_time (SeismoSynth              *self);
void         seismo_synth_free     (SeismoSynth              *self);

/* Appends n_events to builder (NULL: only runs the simulation, to time it alone). */
void seismo_synth_generate (SeismoTraceBuilder       *builder,
                            guint64                   n_events,
                            const SeismoSynthOptions *options);

G_END_DECLS

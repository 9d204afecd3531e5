/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-backend.h"

G_BEGIN_DECLS

/*
 * When a backend calls SeismoRecordControl.progress. seismo-cli appends the builder's newly
 * complete chunks (65536 events) to OUTPUT.partial from that call, so what a SIGKILL loses is the
 * incomplete chunk plus whatever was recorded since the last call. The promise (every backend,
 * docs/reliability.md): the kept data ends at most one chunk or 0.3 s before the kill, whichever
 * is smaller. So a report is due as soon as a chunk completes, and otherwise every 0.2 s: each
 * report also writes the incomplete last chunk provisionally, so a slow recording (ptrace: a
 * chunk can take seconds) loses at most that long.
 *
 * Only the time-driven reports are spaced by their cost (at most 1/SHARE of the time): a report
 * that writes chunks costs what compressing them costs, which a later report would pay just the
 * same, so spacing those out only lets the file fall behind (it did: the eBPF backend's reports
 * took ~20 ms at 3 M events/s and were pushed a second or more apart).
 */
typedef struct {
  guint64 next_ns;   /* CLOCK_MONOTONIC: a report is due then even without a new chunk */
  gsize   chunks;    /* complete chunks in the builder at the last report */
} SeismoProgressPacer;

void     seismo_progress_pacer_init   (SeismoProgressPacer       *self,
                                       guint64                    now_ns);
/* Cheap enough to ask after every event. */
gboolean seismo_progress_pacer_due    (const SeismoProgressPacer *self,
                                       SeismoTraceBuilder        *builder,
                                       guint64                    now_ns);
/* Calls ctl->progress (when set) from the thread that fills builder; returns the time after it. */
guint64  seismo_progress_pacer_report (SeismoProgressPacer       *self,
                                       SeismoRecordControl       *ctl,
                                       SeismoTraceBuilder        *builder,
                                       guint64                    now_ns);

G_END_DECLS

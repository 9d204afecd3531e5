/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * How much of a trace's time was measured. Every event has a timestamp, but a log written
 * without clocks (strace without -t/-tt/-ttt/-r/-T) only gives the order of its lines: its
 * importer keeps that order in the timestamps and says so here, and every figure made of time
 * (spans, rates, latencies, histograms) is then shown as unknown ("—", JSON null), never as the
 * line numbers dressed up as microseconds.
 *
 * The metadata key SEISMO_META_TIMING holds one of the values below; a trace without it was
 * measured throughout (every recorder, trace.dat, ftrace text).
 */
#define SEISMO_META_TIMING             "timing"
/* Neither when events happened nor how long calls took: timestamps are the line order. */
#define SEISMO_TIMING_NONE             "none"
/* When each line was written (strace -t/-tt/-ttt/-r), not how long calls took (no -T). */
#define SEISMO_TIMING_TIMESTAMPS_ONLY  "timestamps"
/* How long calls took (strace -T), not when they happened. */
#define SEISMO_TIMING_DURATIONS_ONLY   "durations"

/* TRUE when timestamps are times: spans, rates and gaps between events mean something. */
gboolean seismo_trace_has_timestamps (SeismoTrace *trace);
/* TRUE when syscall spans' durations were measured (exit time - enter time is a latency). */
gboolean seismo_trace_has_durations  (SeismoTrace *trace);

G_END_DECLS

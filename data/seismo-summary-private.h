/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The SUMMARY record of a .seismo file (docs/file-format.md, "Summaries and level of detail"):
 * what a writer learns while the events stream past, so that a reader can describe and draw a
 * trace larger than memory without reading its events. SeismoSummaryBuilder computes it from the
 * chunks in the order they are written; seismo-file-summary.c reads it back.
 */

#include "seismo-event-type.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/* Events per level-0 time bucket of the CPU rows; 64 per chunk. */
#define SEISMO_SUMMARY_BUCKET_EVENTS      1024u
/* Events per time bucket of the task rows (4 chunks): ~3800 buckets for 10^9 events. */
#define SEISMO_SUMMARY_TASK_BUCKET_EVENTS (4u * 65536u)
/* Tasks listed per chunk, busiest (most events) first. */
#define SEISMO_SUMMARY_TOP_TASKS          8u
/* Log-linear syscall duration histogram: exact below 16 ns, then 8 buckets per power of two
 * (a bucket is at most 1/8 of its lower bound wide, so a percentile read from it is within ~6%). */
#define SEISMO_SUMMARY_HIST_BUCKETS       504u

typedef struct _SeismoSummaryBuilder SeismoSummaryBuilder;

SeismoSummaryBuilder *_seismo_summary_builder_new       (void);
void                  _seismo_summary_builder_free      (SeismoSummaryBuilder  *self);
/* Feeds one chunk's events, in file order. types: SeismoEventType* by id; tasks: the task table
 * as it stands (it only grows); arch names the syscall numbers. Returns FALSE (and stops
 * summarizing for good) once the events are not in time order: durations streamed out of order
 * would be wrong, so such a file gets no summary. */
gboolean              _seismo_summary_builder_add_chunk (SeismoSummaryBuilder  *self,
                                                         GPtrArray             *types,
                                                         const SeismoTask      *tasks,
                                                         guint                  n_tasks,
                                                         const char            *arch,
                                                         const guint64         *ts,
                                                         const guint16         *cpu,
                                                         const guint16         *type,
                                                         const SeismoTaskId    *task,
                                                         const guint32         *payload_off,
                                                         const guint8          *payload,
                                                         gsize                  payload_len,
                                                         guint32                n);
gboolean              _seismo_summary_builder_is_valid  (SeismoSummaryBuilder  *self);
/* Ends the summary: info is filled (little-endian, ready to write), *raw receives the data part
 * (uncompressed); the same for the CHUNK_SYSCALLS record that goes with it. */
void                  _seismo_summary_builder_finish    (SeismoSummaryBuilder  *self,
                                                         guint                  n_tasks,
                                                         gpointer               info,
                                                         GByteArray           **raw,
                                                         gpointer               chunk_syscalls_info,
                                                         GByteArray           **chunk_syscalls);

/* Bucket index of a duration in the log-linear histogram, and a bucket's bounds [lower, upper). */
static inline guint
_seismo_summary_hist_bucket (guint64 d)
{
  guint e;

  if (d < 16)
    return (guint) d;
  e = 63 - (guint) __builtin_clzll (d);
  return 16 + (e - 4) * 8 + (guint) ((d >> (e - 3)) & 7);
}

static inline guint64
_seismo_summary_hist_lower (guint b)
{
  guint e, m;

  if (b < 16)
    return b;
  e = (b - 16) / 8 + 4;
  m = (b - 16) % 8;
  return ((guint64) 8 + m) << (e - 3);
}

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The layout of SeismoTimelineData, for the renderer's hot loops. */

#include "seismo-timeline-data.h"

G_BEGIN_DECLS

/* Every 2^SHIFT-th start time of a sequence is copied into its contiguous samples array. */
#define SEISMO_SEQ_SAMPLE_SHIFT 4

typedef enum {
  SEISMO_SEQ_INTERVALS,     /* SeismoInterval items (a CPU's runs, its IRQs) */
  SEISMO_SEQ_INTERVAL_IDX,  /* indices into an interval array (a task's runs, wakeups) */
  SEISMO_SEQ_SPAN_IDX,      /* indices into the trace's syscall spans */
  SEISMO_SEQ_EVENTS,        /* event ids: instants, start == end */
  SEISMO_SEQ_PAIRS,         /* start, end pairs of ns (a process's combined activity) */
} SeismoSeqKind;

/* A time-sorted sequence of non-overlapping items. */
typedef struct {
  SeismoSeqKind         kind;
  gsize                 n;
  const SeismoInterval *intervals;
  const guint32        *idx;
  const guint64        *pairs;
  guint64              *samples;     /* owned */
  gsize                 n_samples;
  guint64               last_ns;     /* SPAN_IDX: where an unfinished last span ends */
} SeismoSeq;

typedef struct {
  SeismoSeq runs;
  SeismoSeq spans;
  SeismoSeq instants;
  SeismoSeq wakeups;
  guint     process;     /* G_MAXUINT: not shown */
  guint     color;       /* palette index */
} SeismoTimelineTask;

struct _SeismoTimelineData
{
  gatomicrefcount          ref_count;
  SeismoTrace             *trace;

  /* Borrowed from the trace. */
  const guint64           *ts;
  gsize                    n_events;
  guint64                  start_ns;
  guint64                  end_ns;
  const SeismoSyscallSpan *spans;
  gsize                    n_spans;
  const SeismoInterval    *runs;
  const SeismoInterval    *wakeups;

  /* Owned. */
  guint                    n_cpus;
  SeismoSeq               *cpu_runs;
  SeismoSeq               *cpu_irqs;
  SeismoInterval          *irqs;          /* IRQs then softirqs (key | SOFTIRQ_BIT) by cpu, time */
  guint                    n_tasks;
  SeismoTimelineTask      *tasks;
  guint32                 *store;         /* the per-task index arrays, back to back */
  SeismoTimelineProcess   *processes;
  guint                    n_processes;
  SeismoSeq               *process_activity;
  guint64                 *pairs;         /* the processes' activity pairs */
  SeismoTaskId            *process_tasks;
  SeismoLostEvents        *lost;          /* sorted by time */
  guint                    n_lost;
};

#define SEISMO_TIMELINE_SOFTIRQ_BIT 0x80000000u
#define SEISMO_TIMELINE_N_TASK_COLORS 24

static inline guint64
_seismo_seq_event_time (const SeismoTimelineData *d,
                        SeismoEventId             event,
                        guint64                   fallback)
{
  return event == SEISMO_NO_EVENT || event >= d->n_events ? fallback : d->ts[event];
}

static inline guint64
_seismo_seq_start (const SeismoTimelineData *d,
                   const SeismoSeq          *s,
                   gsize                     i)
{
  switch (s->kind)
    {
    case SEISMO_SEQ_INTERVALS:
      return _seismo_seq_event_time (d, s->intervals[i].start, d->start_ns);
    case SEISMO_SEQ_INTERVAL_IDX:
      return _seismo_seq_event_time (d, s->intervals[s->idx[i]].start, d->start_ns);
    case SEISMO_SEQ_SPAN_IDX:
      return d->ts[d->spans[s->idx[i]].enter];
    case SEISMO_SEQ_EVENTS:
      return d->ts[s->idx[i]];
    case SEISMO_SEQ_PAIRS:
    default:
      return s->pairs[2 * i];
    }
}

static inline guint64
_seismo_seq_end (const SeismoTimelineData *d,
                 const SeismoSeq          *s,
                 gsize                     i)
{
  switch (s->kind)
    {
    case SEISMO_SEQ_INTERVALS:
      return _seismo_seq_event_time (d, s->intervals[i].end, d->end_ns);
    case SEISMO_SEQ_INTERVAL_IDX:
      return _seismo_seq_event_time (d, s->intervals[s->idx[i]].end, d->end_ns);
    case SEISMO_SEQ_SPAN_IDX:
      {
        SeismoEventId exit = d->spans[s->idx[i]].exit;

        if (exit != SEISMO_NO_EVENT && exit < d->n_events)
          return d->ts[exit];
        /* Unfinished: it lasted until the task did something else. */
        return i + 1 < s->n ? _seismo_seq_start (d, s, i + 1)
                            : MAX (s->last_ns, _seismo_seq_start (d, s, i));
      }
    case SEISMO_SEQ_EVENTS:
      return d->ts[s->idx[i]];
    case SEISMO_SEQ_PAIRS:
    default:
      return s->pairs[2 * i + 1];
    }
}

/*
 * The first item at or after `from` whose start is >= t. Callers walk forward in time, so a few
 * items are probed in place first; farther targets go through the contiguous samples, then a
 * binary search inside one block of 2^SHIFT items.
 */
static inline gsize
_seismo_seq_lower_bound (const SeismoTimelineData *d,
                         const SeismoSeq          *s,
                         guint64                   t,
                         gsize                     from)
{
  gsize lo, hi;

  for (guint k = 0; k < 4 && from < s->n; k++, from++)
    if (_seismo_seq_start (d, s, from) >= t)
      return from;
  if (from >= s->n)
    return s->n;

  lo = from >> SEISMO_SEQ_SAMPLE_SHIFT;
  hi = s->n_samples;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (s->samples[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  hi = lo < s->n_samples ? lo << SEISMO_SEQ_SAMPLE_SHIFT : s->n;
  lo = lo > 0 ? ((lo - 1) << SEISMO_SEQ_SAMPLE_SHIFT) + 1 : 0;
  lo = MAX (lo, from);
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (_seismo_seq_start (d, s, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first item that ends after t (items do not overlap, so ends are sorted too). */
static inline gsize
_seismo_seq_first_ending_after (const SeismoTimelineData *d,
                                const SeismoSeq          *s,
                                guint64                   t,
                                gsize                     from)
{
  gsize i = _seismo_seq_lower_bound (d, s, t + 1, from);

  if (i > from && _seismo_seq_end (d, s, i - 1) > t)
    return i - 1;
  return i;
}

G_END_DECLS

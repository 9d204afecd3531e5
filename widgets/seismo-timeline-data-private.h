/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The layout of SeismoTimelineData, for the renderer's hot loops. */

#include "seismo-function-calls.h"
#include "seismo-timeline-data.h"

G_BEGIN_DECLS

typedef enum {
  SEISMO_SEQ_INTERVALS,     /* SeismoInterval items (a CPU's runs, its IRQs) */
  SEISMO_SEQ_INTERVAL_IDX,  /* indices into an interval array (a task's runs, wakeups) */
  SEISMO_SEQ_SPAN_IDX,      /* indices into the trace's syscall spans */
  SEISMO_SEQ_EVENTS,        /* event ids: instants, start == end */
  SEISMO_SEQ_PAIRS,         /* start, end pairs of ns (a process's combined activity) */
  SEISMO_SEQ_CALLS,         /* SeismoFunctionCall items (one nesting level of a task's calls) */
} SeismoSeqKind;

/* Items whose start times share their high 32 bits (about 4.3 s of time). */
typedef struct {
  guint32 hi;      /* start >> 32 */
  guint32 first;   /* the first item of the run */
} SeismoSeqSegment;

/*
 * A time-sorted sequence of non-overlapping items. The start times are copied into one contiguous
 * array: every search of a frame runs there, in a few cache lines, and only the items actually
 * drawn as boxes are looked up through the trace. They are kept as their low 32 bits, with the
 * few places where the high bits change (every ~4.3 s) in a side table: 4 bytes an item instead
 * of 8, for the same searches. Durations that fit 16 bits are kept too (longer ones are looked
 * up through the trace).
 *
 * Syscall spans, the most numerous items (5M in a 10M-event trace), keep less: the start of
 * every SEISMO_SEQ_SPAN_STRIDE-th span only (`coarse`, half a byte a span instead of 4), and
 * their ends not at all. A search gallops over the coarse starts and ends in one stride of spans
 * read through the trace (a few lookups), and a frame reads only the ends of the boxes it draws.
 * Which of the trace's spans an item is takes 2 bytes, not 4: each stride's first span, and every
 * item's distance from it, whose high bits are kept apart for the few strides that need them
 * (see _seismo_seq_span()).
 */
#define SEISMO_SEQ_SPAN_STRIDE 16

typedef struct {
  SeismoSeqKind         kind;
  gsize                 n;
  const SeismoInterval *intervals;
  const guint32        *idx;         /* NULL for SPAN_IDX: see _seismo_seq_span() */
  const guint32        *idx_base;    /* SPAN_IDX: the span of each stride's first item */
  const guint16        *idx_off;     /* SPAN_IDX: each item's distance from it, low 16 bits */
  const guint32        *idx_high_at; /* SPAN_IDX: each stride's high bits in idx_high, or G_MAXUINT32 */
  const guint16        *idx_high;    /* SPAN_IDX: the data's */
  const guint64        *pairs;
  const SeismoFunctionCall *calls;
  guint32              *starts;      /* n start times, low 32 bits; owned; NULL: SPAN_IDX */
  SeismoSeqSegment     *segments;    /* n_segments (at least 1 when n > 0); owned; NULL: SPAN_IDX */
  guint                 n_segments;
  guint16              *durations;   /* n durations in ns, G_MAXUINT16: longer; owned; NULL: none */
  const guint64        *coarse;      /* SPAN_IDX: the start of every SPAN_STRIDE-th item (the data's) */
  guint8               *hues;        /* n color indices (task or function hue); owned; NULL: */
  guint8                hue;         /* ... every item has this one (syscalls: by their number) */
  guint64               last_ns;     /* SPAN_IDX: where an unfinished last span ends */
} SeismoSeq;

typedef struct {
  SeismoSeq runs;
  SeismoSeq spans;
  SeismoSeq instants;
  SeismoSeq wakeups;
  SeismoSeq *calls;      /* function_graph calls, one sequence per nesting level */
  guint     n_call_levels;
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
  const SeismoTaskId      *event_tasks;   /* the task of each event */

  /* Owned. */
  guint                    n_cpus;
  SeismoSeq               *cpu_runs;
  SeismoSeq               *cpu_irqs;
  SeismoInterval          *irqs;          /* IRQs then softirqs (key | SOFTIRQ_BIT) by cpu, time */
  guint                    n_tasks;
  SeismoTimelineTask      *tasks;
  guint32                 *store;         /* the per-task index arrays, back to back */
  guint64                 *span_coarse;   /* the tasks' coarse syscall start times, back to back */
  guint32                 *span_base;     /* the spans their strides start at */
  guint32                 *span_high_at;  /* per stride: where its high bits are */
  guint16                 *span_off;      /* the tasks' spans, as distances from those */
  guint16                 *span_high;     /* the distances' high bits, 16 per stride that has any */
  SeismoTimelineProcess   *processes;
  guint                    n_processes;
  SeismoSeq               *process_activity;
  guint64                 *pairs;         /* the processes' activity pairs */
  SeismoTaskId            *process_tasks;
  const guint64           *span_failed;   /* the trace's: a bit per syscall span, it returned an error */
  SeismoLostEvents        *lost;          /* sorted by time */
  guint                    n_lost;

  /* A trace larger than memory: its summary, and the span its loaded events cover (start_ns and
   * end_ns are then the whole trace's). */
  SeismoFileSummary       *summary;
  guint64                  loaded_start_ns;
  guint64                  loaded_end_ns;
};

#define SEISMO_TIMELINE_SOFTIRQ_BIT 0x80000000u
/* Hues of task and syscall colors; the renderer's palette has this many of each. */
#define SEISMO_TIMELINE_N_TASK_COLORS 24
/* Nesting levels of function calls a task row draws; deeper calls are left to the event list. */
#define SEISMO_TIMELINE_MAX_CALL_LEVELS 24

/* In a hue byte: the item is drawn in the alert color. A syscall that failed is known when the
 * data is prepared (span_failed), so a frame never decodes a payload to color a box. */
#define SEISMO_TIMELINE_HUE_ALERT 0x80u

/* Item i of a SPAN_IDX sequence: its index in the trace's spans. */
static inline guint32
_seismo_seq_span (const SeismoSeq *s,
                  gsize            i)
{
  gsize stride = i / SEISMO_SEQ_SPAN_STRIDE;
  guint32 span = s->idx_base[stride] + s->idx_off[i];

  if (G_UNLIKELY (s->idx_high_at[stride] != G_MAXUINT32))
    span += (guint32) s->idx_high[s->idx_high_at[stride] + i % SEISMO_SEQ_SPAN_STRIDE] << 16;
  return span;
}

/* A syscall's hue: the same syscall has the same color wherever it is. */
static inline guint
_seismo_timeline_syscall_hue (guint syscall)
{
  return (syscall * 7u + 3u) % SEISMO_TIMELINE_N_TASK_COLORS;
}

static inline guint
_seismo_seq_hue (const SeismoTimelineData *d,
                 const SeismoSeq          *s,
                 gsize                     i)
{
  if (s->hues != NULL)
    return s->hues[i] & ~SEISMO_TIMELINE_HUE_ALERT;
  /* Syscalls keep no hue of their own: their span says it (and they are only drawn in their hue
   * as boxes; many in a pixel are one gray). */
  if (s->kind == SEISMO_SEQ_SPAN_IDX)
    return _seismo_timeline_syscall_hue (d->spans[_seismo_seq_span (s, i)].syscall);
  return s->hue;
}

static inline gboolean
_seismo_seq_alert (const SeismoTimelineData *d,
                   const SeismoSeq          *s,
                   gsize                     i)
{
  if (s->hues != NULL)
    return (s->hues[i] & SEISMO_TIMELINE_HUE_ALERT) != 0;
  if (s->kind == SEISMO_SEQ_SPAN_IDX && d->span_failed != NULL)
    {
      guint32 span = _seismo_seq_span (s, i);

      return (d->span_failed[span >> 6] >> (span & 63)) & 1;
    }
  return FALSE;
}

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
      return d->ts[d->spans[_seismo_seq_span (s, i)].enter];
    case SEISMO_SEQ_EVENTS:
      return d->ts[s->idx[i]];
    case SEISMO_SEQ_CALLS:
      return s->calls[i].start_ns;
    case SEISMO_SEQ_PAIRS:
    default:
      return s->pairs[2 * i];
    }
}

/* The end of an item looked up through the trace (see _seismo_seq_end()). */
static inline guint64
_seismo_seq_end_slow (const SeismoTimelineData *d,
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
        SeismoEventId exit = d->spans[_seismo_seq_span (s, i)].exit;

        if (exit != SEISMO_NO_EVENT && exit < d->n_events)
          return d->ts[exit];
        /* Unfinished: it lasted until the task did something else. */
        return i + 1 < s->n ? _seismo_seq_start (d, s, i + 1)
                            : MAX (s->last_ns, _seismo_seq_start (d, s, i));
      }
    case SEISMO_SEQ_EVENTS:
      return d->ts[s->idx[i]];
    case SEISMO_SEQ_CALLS:
      return s->calls[i].end_ns;
    case SEISMO_SEQ_PAIRS:
    default:
      return s->pairs[2 * i + 1];
    }
}

/* The segment holding item i. */
static inline guint
_seismo_seq_segment_of (const SeismoSeq *s,
                        gsize            i)
{
  guint lo = 0, hi = s->n_segments;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (s->segments[mid].first <= i)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The start of item i, from the copied start times (syscall spans: through the trace). */
static inline guint64
_seismo_seq_start_at (const SeismoTimelineData *d,
                      const SeismoSeq          *s,
                      gsize                     i)
{
  guint k;

  if (s->kind == SEISMO_SEQ_SPAN_IDX)
    return _seismo_seq_start (d, s, i);
  k = s->n_segments == 1 ? 0 : _seismo_seq_segment_of (s, i);
  return ((guint64) s->segments[k].hi << 32) | s->starts[i];
}

static inline guint64
_seismo_seq_end (const SeismoTimelineData *d,
                 const SeismoSeq          *s,
                 gsize                     i)
{
  if (s->durations != NULL && s->durations[i] != G_MAXUINT16)
    return _seismo_seq_start_at (d, s, i) + s->durations[i];
  return _seismo_seq_end_slow (d, s, i);
}

/* The first item of [from, to) whose start is >= t (to when none), every item before `from` being
 * lower. Galloping: callers walk forward in time. One body for the two widths of starts kept: the
 * low 32 bits of every item's, and the whole of every stride's first (syscall spans). */
#define SEISMO_SEQ_DEFINE_GALLOP(name, type)                                                        \
  static inline gsize                                                                               \
  name (const type *starts,                                                                         \
        type        t,                                                                              \
        gsize       from,                                                                           \
        gsize       to)                                                                             \
  {                                                                                                 \
    gsize step = 1, hi;                                                                             \
                                                                                                    \
    if (from >= to || starts[from] >= t)                                                            \
      return from;                                                                                  \
    while (from + step < to && starts[from + step] < t)                                             \
      {                                                                                             \
        from += step;                                                                               \
        step <<= 1;                                                                                 \
      }                                                                                             \
    hi = MIN (from + step, to);                                                                     \
    from++;                                                                                         \
    while (from < hi)                                                                               \
      {                                                                                             \
        gsize mid = from + (hi - from) / 2;                                                         \
                                                                                                    \
        if (starts[mid] < t)                                                                        \
          from = mid + 1;                                                                           \
        else                                                                                        \
          hi = mid;                                                                                 \
      }                                                                                             \
    return from;                                                                                    \
  }

SEISMO_SEQ_DEFINE_GALLOP (_seismo_seq_gallop, guint32)
SEISMO_SEQ_DEFINE_GALLOP (_seismo_seq_gallop64, guint64)

/* _seismo_seq_lower_bound() of syscall spans: the stride of spans that holds the answer comes
 * from the coarse starts, then a binary search within it reads starts through the trace. */
static inline gsize
_seismo_seq_span_lower_bound (const SeismoTimelineData *d,
                              const SeismoSeq          *s,
                              guint64                   t,
                              gsize                     from)
{
  gsize j, lo, hi;

  if (from >= s->n || _seismo_seq_start_at (d, s, from) >= t)
    return from;
  /* Every item up to `from` starts before t: so does the first of from's stride, and the answer
   * lies after it, at most at the first item of the first later stride that starts at t or after. */
  j = _seismo_seq_gallop64 (s->coarse, t, from / SEISMO_SEQ_SPAN_STRIDE + 1,
                            (s->n + SEISMO_SEQ_SPAN_STRIDE - 1) / SEISMO_SEQ_SPAN_STRIDE);
  lo = MAX (from + 1, (j - 1) * SEISMO_SEQ_SPAN_STRIDE + 1);
  hi = MIN (j * SEISMO_SEQ_SPAN_STRIDE, s->n);
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (_seismo_seq_start_at (d, s, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first item at or after `from` whose start is >= t (n when none); every item before `from`
 * must start before t. Callers walk forward in time, so it gallops from `from`. */
static inline gsize
_seismo_seq_lower_bound (const SeismoTimelineData *d,
                         const SeismoSeq          *s,
                         guint64                   t,
                         gsize                     from)
{
  guint32 t_hi = (guint32) (t >> 32);
  guint k, lo = 0, hi;
  gsize first, end;

  if (s->kind == SEISMO_SEQ_SPAN_IDX)
    return _seismo_seq_span_lower_bound (d, s, t, from);
  if (from >= s->n)
    return from;
  /* The first segment whose high bits are >= t's. */
  if (s->n_segments == 1)
    k = s->segments[0].hi >= t_hi ? 0 : 1;
  else
    {
      hi = s->n_segments;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (s->segments[mid].hi < t_hi)
            lo = mid + 1;
          else
            hi = mid;
        }
      k = lo;
    }
  if (k == s->n_segments)
    return s->n;
  first = s->segments[k].first;
  if (s->segments[k].hi > t_hi)
    return MAX (from, first);
  end = k + 1 < s->n_segments ? s->segments[k + 1].first : s->n;
  if (from >= end)
    return from;
  return _seismo_seq_gallop (s->starts, (guint32) t, MAX (from, first), end);
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

/* Building the data (seismo-timeline-data.c, seismo-timeline-data-build.c). */
void     _seismo_seq_init             (SeismoTimelineData *d,
                                       SeismoSeq          *s,
                                       SeismoSeqKind       kind,
                                       gsize               n);
void     _seismo_seq_build_starts     (SeismoTimelineData *d,
                                       SeismoSeq          *s);
void     _seismo_seq_build_hues       (SeismoTimelineData *d,
                                       SeismoSeq          *s,
                                       gboolean            irqs);
void     _seismo_seq_ensure_sorted    (SeismoTimelineData *d,
                                       SeismoSeq          *s,
                                       guint32            *idx);
void     _seismo_timeline_build_cpus  (SeismoTimelineData *d);
/* The tasks' rows: spans apart (build_spans), the rest (build_tasks); the two touch different
 * parts of d and may run at once. */
void     _seismo_timeline_build_spans (SeismoTimelineData *d);
gboolean _seismo_timeline_build_tasks (SeismoTimelineData *d,
                                       guint32            *task_events,
                                       GCancellable       *cancellable);


G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <string.h>

#include "seismo-timeline-data-private.h"

static void
seq_init (SeismoTimelineData *d,
          SeismoSeq          *s,
          SeismoSeqKind       kind,
          gsize               n)
{
  s->kind = kind;
  s->n = n;
}

static void
seq_build_starts (SeismoTimelineData *d,
                  SeismoSeq          *s)
{
  GArray *segments = g_array_new (FALSE, FALSE, sizeof (SeismoSeqSegment));
  guint64 start = 0;

  s->starts = g_new (guint32, MAX (s->n, 1));
  for (gsize i = 0; i < s->n; i++)
    {
      SeismoSeqSegment seg;

      start = _seismo_seq_start (d, s, i);
      seg.hi = (guint32) (start >> 32);
      seg.first = (guint32) i;
      if (segments->len == 0
          || g_array_index (segments, SeismoSeqSegment, segments->len - 1).hi != seg.hi)
        g_array_append_val (segments, seg);
      s->starts[i] = (guint32) start;
    }
  if (segments->len == 0)
    {
      SeismoSeqSegment seg = { 0, 0 };

      g_array_append_val (segments, seg);
    }
  s->n_segments = segments->len;
  s->segments = (SeismoSeqSegment *) g_array_free (segments, FALSE);
  if (s->kind == SEISMO_SEQ_EVENTS)
    return;
  s->durations = g_new (guint16, MAX (s->n, 1));
  for (gsize i = 0; i < s->n; i++)
    {
      guint64 end = _seismo_seq_end_slow (d, s, i);

      start = _seismo_seq_start_at (s, i);
      s->durations[i] = end < start ? 0 : (guint16) MIN (end - start, G_MAXUINT16);
    }
}

/* Colors of items whose color varies: a CPU's runs (by task), function calls (by function), IRQs
 * (hard or soft). Kept contiguous so that a summary of many items reads no item. Syscalls keep
 * none: their summary is one gray, and a box's hue comes from its span. */
G_STATIC_ASSERT (SEISMO_TIMELINE_N_TASK_COLORS <= SEISMO_TIMELINE_HUE_ALERT);

static void
seq_build_hues (SeismoTimelineData *d,
                SeismoSeq          *s,
                gboolean            irqs)
{
  s->hues = g_new (guint8, MAX (s->n, 1));
  for (gsize i = 0; i < s->n; i++)
    {
      switch (s->kind)
        {
        case SEISMO_SEQ_INTERVALS:
          if (irqs)
            s->hues[i] = (s->intervals[i].key & SEISMO_TIMELINE_SOFTIRQ_BIT) ? 1 : 0;
          else
            s->hues[i] = s->intervals[i].task < d->n_tasks ? d->tasks[s->intervals[i].task].color : 0;
          break;
        case SEISMO_SEQ_CALLS:
          /* By function: the same function has the same color wherever it is called. */
          s->hues[i] = (s->calls[i].func * 7u + 5u) % SEISMO_TIMELINE_N_TASK_COLORS;
          break;
        case SEISMO_SEQ_INTERVAL_IDX:
        case SEISMO_SEQ_SPAN_IDX:
        case SEISMO_SEQ_EVENTS:
        case SEISMO_SEQ_PAIRS:
        default:
          s->hues[i] = s->hue;
          break;
        }
    }
}

static void
seq_clear (SeismoSeq *s)
{
  if (!s->shared)
    {
      g_clear_pointer (&s->starts, g_free);
      g_clear_pointer (&s->durations, g_free);
    }
  g_clear_pointer (&s->segments, g_free);
  g_clear_pointer (&s->hues, g_free);
}

/* An owned sequence must stay sorted by start for the searches to hold; derived data from damaged
 * inputs might not be, so the order is checked once and repaired by a stable sort. */
typedef struct {
  SeismoTimelineData *d;
  SeismoSeq          *s;
} SortCtx;

static int
compare_idx_by_start (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  SortCtx *ctx = user_data;
  SeismoSeq one = *ctx->s;
  guint64 ta, tb;

  one.n = 1;
  one.idx = a;
  ta = _seismo_seq_start (ctx->d, &one, 0);
  one.idx = b;
  tb = _seismo_seq_start (ctx->d, &one, 0);
  return ta < tb ? -1 : ta > tb;
}

static void
seq_ensure_sorted (SeismoTimelineData *d,
                   SeismoSeq          *s,
                   guint32            *idx)
{
  SortCtx ctx = { d, s };

  for (gsize i = 1; i < s->n; i++)
    if (_seismo_seq_start (d, s, i) < _seismo_seq_start (d, s, i - 1))
      {
        g_qsort_with_data (idx, (gint) s->n, sizeof (guint32), compare_idx_by_start, &ctx);
        return;
      }
}

static int
compare_pairs (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const guint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int
compare_lost (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SeismoLostEvents *x = a, *y = b;

  return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

static int
compare_processes (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const SeismoTimelineProcess *x = a, *y = b;

  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int
compare_tasks (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  SeismoTrace *trace = user_data;
  const SeismoTask *x = seismo_trace_get_task (trace, *(const SeismoTaskId *) a);
  const SeismoTask *y = seismo_trace_get_task (trace, *(const SeismoTaskId *) b);
  gboolean xm = x->tid == x->pid, ym = y->tid == y->pid;

  if (xm != ym)
    return xm ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static guint
color_for_id (gint32 id)
{
  guint32 h = (guint32) id * 2654435761u;

  return (h >> 16) % SEISMO_TIMELINE_N_TASK_COLORS;
}

/* Splits items (given in time order by `order`, or 0..n-1) into one index list per task, keeping
 * the time order (a stable counting sort). Returns the next free slot of the store. */
static guint32 *
group_by_task (SeismoTimelineData *d,
               guint32            *store,
               gsize               n,
               const guint32      *order,
               SeismoTaskId      (*task_of) (SeismoTimelineData *, guint32),
               gsize               seq_offset,
               SeismoSeqKind       kind,
               const SeismoInterval *base)
{
  gsize *count = g_new0 (gsize, d->n_tasks + 1);
  gsize *pos = g_new (gsize, d->n_tasks + 1);
  gsize off = 0;

  for (gsize i = 0; i < n; i++)
    {
      guint32 item = order != NULL ? order[i] : (guint32) i;
      SeismoTaskId t = task_of (d, item);

      if (t < d->n_tasks)
        count[t]++;
    }
  for (guint t = 0; t < d->n_tasks; t++)
    {
      SeismoSeq *s = (SeismoSeq *) ((guint8 *) &d->tasks[t] + seq_offset);

      seq_init (d, s, kind, count[t]);
      s->idx = store + off;
      s->intervals = base;
      pos[t] = off;
      off += count[t];
    }
  for (gsize i = 0; i < n; i++)
    {
      guint32 item = order != NULL ? order[i] : (guint32) i;
      SeismoTaskId t = task_of (d, item);

      if (t < d->n_tasks)
        store[pos[t]++] = item;
    }
  g_free (count);
  g_free (pos);
  return store + off;
}

static SeismoTaskId
run_task (SeismoTimelineData *d,
          guint32             item)
{
  return d->runs[item].task;
}

static SeismoTaskId
wakeup_task (SeismoTimelineData *d,
             guint32             item)
{
  return d->wakeups[item].task;
}

static SeismoTaskId
span_task (SeismoTimelineData *d,
           guint32             item)
{
  return d->event_tasks[d->spans[item].enter];
}

static SeismoTaskId
event_task (SeismoTimelineData *d,
            guint32             item)
{
  return d->event_tasks[item];
}

/* Which syscalls failed (their box is drawn in the alert color): a payload decoded per syscall,
 * the costliest part of the preparation. A thread of its own starts on it at once; the preparing
 * thread joins in when the rest is done. They take chunks in turn, a multiple of 64 spans each so
 * that no two write the same word. */
#define FAILED_CHUNK 65536
G_STATIC_ASSERT (FAILED_CHUNK % 64 == 0);

typedef struct {
  SeismoTimelineData *d;
  guint64            *failed;
  gint                next_chunk;
} FailedJob;

static gpointer
find_failed_spans (gpointer user_data)
{
  FailedJob *job = user_data;
  const SeismoTimelineData *d = job->d;

  for (;;)
    {
      gsize first = (gsize) g_atomic_int_add (&job->next_chunk, 1) * FAILED_CHUNK;

      if (first >= d->n_spans)
        break;
      for (gsize i = first; i < MIN (first + FAILED_CHUNK, d->n_spans); i++)
        {
          gint64 ret;

          if (seismo_trace_syscall_span_ret (d->trace, &d->spans[i], &ret) && ret < 0 && ret > -4096)
            job->failed[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
        }
    }
  return NULL;
}

/*
 * The syscall spans of each task, with their start times and durations, in one pass over the
 * trace's spans in their order (by time): reading the events' times in order, not task by task
 * across the whole trace, keeps the reads in cache (a task's spans are spread over all of it).
 * An unfinished span's end is left to _seismo_seq_end_slow(). Returns the next free slot of the
 * store.
 */
typedef struct {
  guint32          task;
  SeismoSeqSegment seg;
} TaskSegment;

static guint32 *
group_spans (SeismoTimelineData *d,
             guint32            *store)
{
  gsize n = d->n_spans;
  g_autofree gsize *off = g_new0 (gsize, d->n_tasks + 1);
  g_autofree gsize *pos = g_new (gsize, d->n_tasks + 1);
  g_autofree guint32 *last_hi = g_new0 (guint32, d->n_tasks + 1);
  g_autofree guint *n_segs = g_new0 (guint, d->n_tasks + 1);
  g_autoptr(GArray) segs = g_array_new (FALSE, FALSE, sizeof (TaskSegment));
  gsize total = 0;

  for (gsize i = 0; i < n; i++)
    {
      SeismoTaskId t = span_task (d, (guint32) i);

      if (t < d->n_tasks)
        off[t + 1]++;
    }
  for (guint t = 0; t < d->n_tasks; t++)
    off[t + 1] += off[t];
  total = off[d->n_tasks];
  d->span_starts = g_new (guint32, MAX (total, 1));
  d->span_durations = g_new (guint16, MAX (total, 1));
  memcpy (pos, off, sizeof (gsize) * (d->n_tasks + 1));
  for (gsize i = 0; i < n; i++)
    {
      const SeismoSyscallSpan *span = &d->spans[i];
      SeismoTaskId t = d->event_tasks[span->enter];
      guint64 start, end;
      gsize p;

      if (t >= d->n_tasks)
        continue;
      p = pos[t]++;
      store[p] = (guint32) i;
      start = d->ts[span->enter];
      if (p == off[t] || (guint32) (start >> 32) != last_hi[t])
        {
          TaskSegment ts = { t, { (guint32) (start >> 32), (guint32) (p - off[t]) } };

          g_array_append_val (segs, ts);
          n_segs[t]++;
          last_hi[t] = ts.seg.hi;
        }
      d->span_starts[p] = (guint32) start;
      if (span->exit != SEISMO_NO_EVENT && span->exit < d->n_events)
        {
          end = d->ts[span->exit];
          d->span_durations[p] = end < start ? 0 : (guint16) MIN (end - start, G_MAXUINT16);
        }
      else
        d->span_durations[p] = G_MAXUINT16;
    }
  for (guint t = 0; t < d->n_tasks; t++)
    {
      SeismoSeq *s = &d->tasks[t].spans;

      seq_init (d, s, SEISMO_SEQ_SPAN_IDX, off[t + 1] - off[t]);
      s->idx = store + off[t];
      s->starts = d->span_starts + off[t];
      s->durations = d->span_durations + off[t];
      s->shared = TRUE;
      s->n_segments = MAX (n_segs[t], 1);
      s->segments = g_new0 (SeismoSeqSegment, s->n_segments);
      n_segs[t] = 0;   /* now: how many are filled */
    }
  for (guint k = 0; k < segs->len; k++)
    {
      const TaskSegment *ts = &g_array_index (segs, TaskSegment, k);

      d->tasks[ts->task].spans.segments[n_segs[ts->task]++] = ts->seg;
    }
  return store + total;
}

static gboolean
kind_is_instant (SeismoEventKind kind)
{
  switch (kind)
    {
    case SEISMO_KIND_SYSCALL_ENTER:
    case SEISMO_KIND_SYSCALL_EXIT:
    case SEISMO_KIND_SCHED_SWITCH:
    case SEISMO_KIND_IRQ_ENTRY:
    case SEISMO_KIND_IRQ_EXIT:
    case SEISMO_KIND_SOFTIRQ_ENTRY:
    case SEISMO_KIND_SOFTIRQ_EXIT:
      return FALSE;
    case SEISMO_KIND_GENERIC:
    case SEISMO_KIND_SCHED_WAKEUP:
    case SEISMO_KIND_SCHED_WAKING:
    case SEISMO_KIND_PROCESS_FORK:
    case SEISMO_KIND_PROCESS_EXEC:
    case SEISMO_KIND_PROCESS_EXIT:
    case SEISMO_KIND_SIGNAL:
    case SEISMO_KIND_TASK_RENAME:
    case SEISMO_KIND_N:
    default:
      return TRUE;
    }
}

/* RUN intervals come grouped by CPU; the per-task lists need them in global time order. Walking
 * the events once in order and taking each CPU's next run when its starting switch goes by gives
 * that order without a sort. */
static guint32 *
runs_in_time_order (SeismoTimelineData *d,
                    gsize               n_runs)
{
  guint32 *order = g_new (guint32, MAX (n_runs, 1));
  guint n_trace_cpus = seismo_trace_get_n_cpus (d->trace);
  gsize *cursor = g_new0 (gsize, MAX (n_trace_cpus, 1));
  gsize *limit = g_new0 (gsize, MAX (n_trace_cpus, 1));
  const guint16 *cpus = seismo_trace_get_cpus (d->trace);
  gsize n = 0;

  for (guint c = 0; c < n_trace_cpus; c++)
    {
      gsize n_cpu_runs;
      const SeismoInterval *r = seismo_trace_get_cpu_runs (d->trace, c, &n_cpu_runs);

      cursor[c] = n_cpu_runs > 0 ? (gsize) (r - d->runs) : 0;
      limit[c] = cursor[c] + n_cpu_runs;
      /* Runs that began before the trace come first. */
      while (cursor[c] < limit[c] && d->runs[cursor[c]].start == SEISMO_NO_EVENT)
        order[n++] = (guint32) cursor[c]++;
    }
  for (gsize e = 0; e < d->n_events && n < n_runs; e++)
    {
      guint c = cpus[e];

      if (c < n_trace_cpus && cursor[c] < limit[c] && d->runs[cursor[c]].start == e)
        order[n++] = (guint32) cursor[c]++;
    }
  /* Anything the walk missed (a run not starting at an event of its CPU) goes last, then is
   * sorted into place per task by seq_ensure_sorted(). */
  for (guint c = 0; c < n_trace_cpus; c++)
    while (cursor[c] < limit[c] && n < n_runs)
      order[n++] = (guint32) cursor[c]++;
  g_free (cursor);
  g_free (limit);
  return order;
}

static void
build_cpus (SeismoTimelineData *d)
{
  gsize n_irq, n_softirq, n_all;
  const SeismoInterval *irq = seismo_trace_get_intervals (d->trace, SEISMO_INTERVAL_IRQ, &n_irq);
  const SeismoInterval *soft = seismo_trace_get_intervals (d->trace, SEISMO_INTERVAL_SOFTIRQ,
                                                            &n_softirq);
  guint n_trace_cpus = seismo_trace_get_n_cpus (d->trace);
  const guint16 *cpus = seismo_trace_get_cpus (d->trace);
  gsize *count, *pos;
  guint last_busy = 0;
  gboolean any = FALSE;

  for (guint c = 0; c < n_trace_cpus; c++)
    {
      gsize n;

      seismo_trace_get_cpu_runs (d->trace, c, &n);
      if (n > 0)
        {
          last_busy = c + 1;
          any = TRUE;
        }
    }
  d->n_cpus = any ? last_busy : 0;
  /* A window of a larger trace has rows for every CPU of the whole, drawn from its summary where
   * the window has no events. */
  if (d->summary != NULL)
    d->n_cpus = MAX (d->n_cpus, seismo_file_summary_get_n_cpus (d->summary));
  d->cpu_runs = g_new0 (SeismoSeq, MAX (d->n_cpus, 1));
  d->cpu_irqs = g_new0 (SeismoSeq, MAX (d->n_cpus, 1));
  for (guint c = 0; c < d->n_cpus; c++)
    {
      gsize n;
      const SeismoInterval *r = seismo_trace_get_cpu_runs (d->trace, c, &n);

      seq_init (d, &d->cpu_runs[c], SEISMO_SEQ_INTERVALS, n);
      d->cpu_runs[c].intervals = r;
      seq_build_starts (d, &d->cpu_runs[c]);
      seq_build_hues (d, &d->cpu_runs[c], FALSE);
    }

  /* IRQs and softirqs of each CPU in one list; both inputs are sorted by start, so a merge keeps
   * each CPU's list in time order. */
  n_all = n_irq + n_softirq;
  d->irqs = g_new (SeismoInterval, MAX (n_all, 1));
  count = g_new0 (gsize, d->n_cpus + 1);
  pos = g_new0 (gsize, d->n_cpus + 1);
  for (gsize i = 0; i < n_irq; i++)
    if (irq[i].start < d->n_events && cpus[irq[i].start] < d->n_cpus)
      count[cpus[irq[i].start]]++;
  for (gsize i = 0; i < n_softirq; i++)
    if (soft[i].start < d->n_events && cpus[soft[i].start] < d->n_cpus)
      count[cpus[soft[i].start]]++;
  for (guint c = 0, off = 0; c < d->n_cpus; c++)
    {
      pos[c] = off;
      seq_init (d, &d->cpu_irqs[c], SEISMO_SEQ_INTERVALS, count[c]);
      d->cpu_irqs[c].intervals = d->irqs + off;
      off += count[c];
    }
  for (gsize i = 0, j = 0; i < n_irq || j < n_softirq;)
    {
      SeismoInterval iv;
      guint c;

      if (j >= n_softirq || (i < n_irq && irq[i].start <= soft[j].start))
        iv = irq[i++];
      else
        {
          iv = soft[j++];
          iv.key |= SEISMO_TIMELINE_SOFTIRQ_BIT;
        }
      if (iv.start >= d->n_events || (c = cpus[iv.start]) >= d->n_cpus)
        continue;
      d->irqs[pos[c]++] = iv;
    }
  for (guint c = 0; c < d->n_cpus; c++)
    {
      seq_build_starts (d, &d->cpu_irqs[c]);
      seq_build_hues (d, &d->cpu_irqs[c], TRUE);
    }
  g_free (count);
  g_free (pos);
}

/* Function calls (function_graph): the trace sorts them by task, level and time, so each level
 * of a task is a contiguous, non-overlapping slice. */
static void
build_calls (SeismoTimelineData *d)
{
  gsize n_calls, i = 0;
  const SeismoFunctionCall *calls = seismo_trace_get_function_calls (d->trace, &n_calls);

  while (i < n_calls)
    {
      SeismoTaskId task = calls[i].task;
      gsize end = i;
      SeismoTimelineTask *tt;

      while (end < n_calls && calls[end].task == task)
        end++;
      if (task >= d->n_tasks)
        {
          i = end;
          continue;
        }
      tt = &d->tasks[task];
      tt->n_call_levels = MIN ((guint) calls[end - 1].level + 1, SEISMO_TIMELINE_MAX_CALL_LEVELS);
      tt->calls = g_new0 (SeismoSeq, tt->n_call_levels);
      while (i < end)
        {
          guint level = calls[i].level;
          gsize k = i;

          while (k < end && calls[k].level == level)
            k++;
          if (level < tt->n_call_levels)
            {
              SeismoSeq *s = &tt->calls[level];

              seq_init (d, s, SEISMO_SEQ_CALLS, k - i);
              s->calls = calls + i;
              seq_build_starts (d, s);
              seq_build_hues (d, s, FALSE);
            }
          i = k;
        }
    }
}

typedef struct {
  SeismoTimelineData *d;
  guint               start;
  guint               end;
  GCancellable       *cancellable;
} TaskRange;

static gsize
task_weight (SeismoTimelineData *d,
             guint               t)
{
  return d->tasks[t].runs.n + d->tasks[t].wakeups.n + d->tasks[t].instants.n + 1;
}

static gpointer
build_task_range (gpointer user_data)
{
  TaskRange *range = user_data;
  SeismoTimelineData *d = range->d;

  for (guint t = range->start; t < range->end; t++)
    {
      SeismoTimelineTask *tt = &d->tasks[t];
      const SeismoTask *task = seismo_trace_get_task (d->trace, t);

      tt->spans.last_ns = task->last_ns;
      seq_ensure_sorted (d, &tt->runs, (guint32 *) tt->runs.idx);
      seq_ensure_sorted (d, &tt->wakeups, (guint32 *) tt->wakeups.idx);
      seq_build_starts (d, &tt->runs);
      seq_build_starts (d, &tt->wakeups);
      seq_build_starts (d, &tt->instants);
      tt->runs.hue = tt->color;
      tt->process = G_MAXUINT;
      if ((t & 1023) == 0 && g_cancellable_is_cancelled (range->cancellable))
        break;
    }
  return NULL;
}

static gboolean
build_tasks (SeismoTimelineData *d,
             guint32            *task_events,
             GCancellable       *cancellable)
{
  const SeismoTaskId *event_tasks = seismo_trace_get_tasks (d->trace);
  gsize n_runs, n_wakeups, n_instants = 0;
  const guint16 *types = seismo_trace_get_types (d->trace);
  guint n_types = seismo_trace_get_n_event_types (d->trace);
  g_autofree gboolean *instant_type = g_new0 (gboolean, MAX (n_types, 1));
  g_autofree guint32 *run_order = NULL;
  g_autofree guint32 *instants = NULL;
  guint32 *next;

  d->runs = seismo_trace_get_intervals (d->trace, SEISMO_INTERVAL_RUN, &n_runs);
  d->wakeups = seismo_trace_get_intervals (d->trace, SEISMO_INTERVAL_WAKEUP, &n_wakeups);

  for (guint t = 0; t < n_types; t++)
    instant_type[t] = kind_is_instant (seismo_trace_get_event_type (d->trace, t)->kind);
  /* Events per task too: whether a task gets a row (a per-task event index would cost 4 bytes
   * an event for these counts). */
  for (gsize e = 0; e < d->n_events; e++)
    {
      SeismoTaskId t = event_tasks[e];

      n_instants += instant_type[types[e]];
      if (t < d->n_tasks)
        task_events[t]++;
    }
  instants = g_new (guint32, MAX (n_instants, 1));
  for (gsize e = 0, k = 0; e < d->n_events; e++)
    if (instant_type[types[e]])
      instants[k++] = (guint32) e;

  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  run_order = runs_in_time_order (d, n_runs);
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;

  d->store = g_new (guint32, MAX (n_runs + n_wakeups + d->n_spans + n_instants, 1));
  next = group_by_task (d, d->store, n_runs, run_order, run_task,
                        G_STRUCT_OFFSET (SeismoTimelineTask, runs),
                        SEISMO_SEQ_INTERVAL_IDX, d->runs);
  next = group_by_task (d, next, n_wakeups, NULL, wakeup_task,
                        G_STRUCT_OFFSET (SeismoTimelineTask, wakeups),
                        SEISMO_SEQ_INTERVAL_IDX, d->wakeups);
  next = group_spans (d, next);
  group_by_task (d, next, n_instants, instants, event_task,
                 G_STRUCT_OFFSET (SeismoTimelineTask, instants),
                 SEISMO_SEQ_EVENTS, NULL);

  build_calls (d);
  {
    /* The tasks' own sequences, on two threads: the tasks are split where half of their items
     * are (each task's sequences are its own; the main thread is idle while a trace loads). */
    TaskRange second = { d, 0, d->n_tasks, cancellable };
    TaskRange first = { d, 0, 0, cancellable };
    gsize total = 0, sum = 0;
    GThread *thread;

    for (guint t = 0; t < d->n_tasks; t++)
      total += task_weight (d, t);
    while (first.end < d->n_tasks && sum < total / 2)
      sum += task_weight (d, first.end++);
    second.start = first.end;
    thread = g_thread_new ("seismo-timeline", build_task_range, &second);
    build_task_range (&first);
    g_thread_join (thread);
  }
  return !g_cancellable_is_cancelled (cancellable);
}

static void
build_activity (SeismoTimelineData *d,
                guint               p,
                GArray             *pairs,
                gsize              *offsets)
{
  SeismoTimelineProcess *proc = &d->processes[p];
  gboolean use_runs = FALSE;
  gsize first = pairs->len / 2;
  gsize out;

  for (guint k = 0; k < proc->n_tasks; k++)
    use_runs |= d->tasks[proc->tasks[k]].runs.n > 0;
  for (guint k = 0; k < proc->n_tasks; k++)
    {
      const SeismoSeq *s = use_runs ? &d->tasks[proc->tasks[k]].runs
                                    : &d->tasks[proc->tasks[k]].spans;

      for (gsize i = 0; i < s->n; i++)
        {
          guint64 pair[2] = { _seismo_seq_start_at (s, i), _seismo_seq_end (d, s, i) };

          g_array_append_vals (pairs, pair, 2);
        }
    }
  if (proc->n_tasks > 1)
    g_qsort_with_data ((guint64 *) pairs->data + 2 * first, (gint) (pairs->len / 2 - first),
                       2 * sizeof (guint64), compare_pairs, NULL);
  /* Merge what overlaps (threads running at once on several CPUs). */
  out = first;
  for (gsize i = first; i < pairs->len / 2; i++)
    {
      guint64 *cur = &g_array_index (pairs, guint64, 2 * i);
      guint64 *last = &g_array_index (pairs, guint64, 2 * (out - 1));

      if (out > first && cur[0] <= last[1])
        last[1] = MAX (last[1], cur[1]);
      else
        {
          guint64 *dst = &g_array_index (pairs, guint64, 2 * out);

          dst[0] = cur[0];
          dst[1] = cur[1];
          out++;
        }
    }
  g_array_set_size (pairs, 2 * out);
  offsets[p] = first;
  offsets[p + 1] = out;
}

static void
build_processes (SeismoTimelineData *d,
                 const guint32      *task_events)
{
  g_autoptr(GHashTable) by_pid = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) procs = g_array_new (FALSE, TRUE, sizeof (SeismoTimelineProcess));
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree gsize *fill = NULL;
  g_autofree gsize *offsets = NULL;
  guint n_shown = 0;

  for (guint t = 0; t < d->n_tasks; t++)
    {
      const SeismoTask *task = seismo_trace_get_task (d->trace, t);
      SeismoTimelineTask *tt = &d->tasks[t];
      gsize n_task_events = task_events[t];
      gint32 pid;
      gpointer found;

      /* The idle task is what CPUs do when nothing runs: left blank, not a row, unless the trace
       * shows the kernel functions it calls (function_graph). */
      if (task->tid == 0 && tt->n_call_levels == 0)
        continue;
      /* In a window of a larger trace, every task of the whole has a row. */
      if (n_task_events == 0 && tt->runs.n == 0 && tt->wakeups.n == 0 && d->summary == NULL)
        continue;
      pid = task->pid > 0 ? task->pid : task->tid;
      if (!g_hash_table_lookup_extended (by_pid, GINT_TO_POINTER (pid), NULL, &found))
        {
          SeismoTimelineProcess proc = { .pid = pid, .main_task = t };

          found = GUINT_TO_POINTER (procs->len);
          g_array_append_val (procs, proc);
          g_hash_table_insert (by_pid, GINT_TO_POINTER (pid), found);
        }
      g_array_index (procs, SeismoTimelineProcess, GPOINTER_TO_UINT (found)).n_tasks++;
      tt->process = GPOINTER_TO_UINT (found);
      n_shown++;
    }

  /* Give each process its slice of the task list, then sort processes by pid. */
  d->process_tasks = g_new (SeismoTaskId, MAX (n_shown, 1));
  fill = g_new0 (gsize, procs->len + 1);
  for (guint p = 0, off = 0; p < procs->len; p++)
    {
      SeismoTimelineProcess *proc = &g_array_index (procs, SeismoTimelineProcess, p);

      proc->tasks = d->process_tasks + off;
      fill[p] = 0;
      off += proc->n_tasks;
    }
  for (guint t = 0; t < d->n_tasks; t++)
    if (d->tasks[t].process != G_MAXUINT)
      {
        SeismoTimelineProcess *proc = &g_array_index (procs, SeismoTimelineProcess,
                                                      d->tasks[t].process);

        proc->tasks[fill[d->tasks[t].process]++] = t;
      }
  for (guint p = 0; p < procs->len; p++)
    {
      SeismoTimelineProcess *proc = &g_array_index (procs, SeismoTimelineProcess, p);

      g_qsort_with_data (proc->tasks, (gint) proc->n_tasks, sizeof (SeismoTaskId), compare_tasks,
                         d->trace);
      proc->main_task = proc->tasks[0];
    }
  g_qsort_with_data (procs->data, (gint) procs->len, sizeof (SeismoTimelineProcess),
                     compare_processes, NULL);

  d->n_processes = procs->len;
  d->processes = (SeismoTimelineProcess *) g_array_free (g_steal_pointer (&procs), FALSE);
  for (guint p = 0; p < d->n_processes; p++)
    for (guint k = 0; k < d->processes[p].n_tasks; k++)
      d->tasks[d->processes[p].tasks[k]].process = p;

  offsets = g_new0 (gsize, d->n_processes + 1);
  for (guint p = 0; p < d->n_processes; p++)
    build_activity (d, p, pairs, offsets);
  d->pairs = (guint64 *) g_array_free (g_steal_pointer (&pairs), FALSE);
  d->process_activity = g_new0 (SeismoSeq, MAX (d->n_processes, 1));
  for (guint p = 0; p < d->n_processes; p++)
    {
      SeismoSeq *s = &d->process_activity[p];

      seq_init (d, s, SEISMO_SEQ_PAIRS, offsets[p + 1] - offsets[p]);
      s->pairs = d->pairs + 2 * offsets[p];
      s->hue = d->tasks[d->processes[p].main_task].color;
      seq_build_starts (d, s);
    }
}

/**
 * seismo_timeline_data_new:
 * @trace: the trace to draw
 * @cancellable: (nullable): stops the preparation
 *
 * Prepares the per-row sequences. Costs one pass over the events plus the derived intervals;
 * meant for a worker thread.
 *
 * Returns: (transfer full) (nullable): new data, or NULL when cancelled.
 */
SeismoTimelineData *
seismo_timeline_data_new (SeismoTrace  *trace,
                          GCancellable *cancellable)
{
  return seismo_timeline_data_new_for_window (trace, NULL, cancellable);
}

SeismoTimelineData *
seismo_timeline_data_new_for_window (SeismoTrace       *trace,
                                     SeismoFileSummary *summary,
                                     GCancellable      *cancellable)
{
  g_autoptr(SeismoTimelineData) d = NULL;
  g_autofree guint32 *task_events = NULL;
  FailedJob job = { 0 };
  GThread *failed;
  gboolean ok;
  guint n_lost = 0;
  const SeismoLostEvents *lost;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);

  d = g_new0 (SeismoTimelineData, 1);
  g_atomic_ref_count_init (&d->ref_count);
  d->trace = g_object_ref (trace);
  if (summary != NULL)
    d->summary = seismo_file_summary_ref (summary);
  d->ts = seismo_trace_get_times (trace);
  d->n_events = seismo_trace_get_n_events (trace);
  d->start_ns = seismo_trace_get_start_ns (trace);
  d->end_ns = MAX (seismo_trace_get_end_ns (trace), d->start_ns);
  /* A window of a larger trace spans all of its time; its events, only a part. */
  d->loaded_start_ns = d->n_events > 0 ? d->ts[0] : d->start_ns;
  d->loaded_end_ns = d->n_events > 0 ? d->ts[d->n_events - 1] : d->start_ns;
  if (summary != NULL)
    {
      d->start_ns = MIN (d->start_ns, seismo_file_summary_get_start_ns (summary));
      d->end_ns = MAX (d->end_ns, seismo_file_summary_get_end_ns (summary));
    }
  d->n_tasks = seismo_trace_get_n_tasks (trace);
  d->tasks = g_new0 (SeismoTimelineTask, MAX (d->n_tasks, 1));
  for (guint t = 0; t < d->n_tasks; t++)
    d->tasks[t].color = color_for_id (seismo_trace_get_task (trace, t)->tid);

  lost = seismo_trace_get_lost_events (trace, &n_lost);
  d->n_lost = n_lost;
  d->lost = g_memdup2 (lost, sizeof (SeismoLostEvents) * n_lost);
  g_qsort_with_data (d->lost, (gint) d->n_lost, sizeof (SeismoLostEvents), compare_lost, NULL);

  d->event_tasks = seismo_trace_get_tasks (trace);
  d->spans = seismo_trace_get_syscall_spans (trace, &d->n_spans);
  job.d = d;
  job.failed = g_new0 (guint64, d->n_spans / 64 + 1);
  failed = g_thread_new ("seismo-timeline", find_failed_spans, &job);

  build_cpus (d);
  task_events = g_new0 (guint32, MAX (d->n_tasks, 1));
  ok = build_tasks (d, task_events, cancellable);
  if (ok)
    build_processes (d, task_events);
  if (ok)
    find_failed_spans (&job);
  else   /* cancelled: the helper takes no more chunks */
    g_atomic_int_set (&job.next_chunk, (gint) (d->n_spans / FAILED_CHUNK + 1));
  g_thread_join (failed);
  d->span_failed = job.failed;
  if (!ok || g_cancellable_is_cancelled (cancellable))
    return NULL;
  return g_steal_pointer (&d);
}

SeismoTimelineData *
seismo_timeline_data_ref (SeismoTimelineData *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
seismo_timeline_data_unref (SeismoTimelineData *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->summary, seismo_file_summary_free);
  for (guint c = 0; c < self->n_cpus; c++)
    {
      seq_clear (&self->cpu_runs[c]);
      seq_clear (&self->cpu_irqs[c]);
    }
  for (guint t = 0; t < self->n_tasks; t++)
    {
      seq_clear (&self->tasks[t].runs);
      seq_clear (&self->tasks[t].spans);
      seq_clear (&self->tasks[t].instants);
      seq_clear (&self->tasks[t].wakeups);
      for (guint l = 0; l < self->tasks[t].n_call_levels; l++)
        seq_clear (&self->tasks[t].calls[l]);
      g_free (self->tasks[t].calls);
    }
  for (guint p = 0; p < self->n_processes; p++)
    seq_clear (&self->process_activity[p]);
  g_free (self->cpu_runs);
  g_free (self->cpu_irqs);
  g_free (self->irqs);
  g_free (self->tasks);
  g_free (self->store);
  g_free (self->span_starts);
  g_free (self->span_durations);
  g_free (self->processes);
  g_free (self->process_activity);
  g_free (self->pairs);
  g_free (self->process_tasks);
  g_free (self->lost);
  g_free (self->span_failed);
  g_clear_object (&self->trace);
  g_free (self);
}

SeismoTrace *
seismo_timeline_data_get_trace (SeismoTimelineData *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->trace;
}

guint
seismo_timeline_data_get_n_cpus (SeismoTimelineData *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_cpus;
}

const SeismoTimelineProcess *
seismo_timeline_data_get_processes (SeismoTimelineData *self,
                                    guint              *n_processes)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_processes != NULL)
    *n_processes = self->n_processes;
  return self->processes;
}

guint
seismo_timeline_data_task_process (SeismoTimelineData *self,
                                   SeismoTaskId        task)
{
  g_return_val_if_fail (self != NULL, G_MAXUINT);
  return task < self->n_tasks ? self->tasks[task].process : G_MAXUINT;
}

const SeismoSyscallSpan *
seismo_timeline_data_span_at (SeismoTimelineData *self,
                              SeismoTaskId        task,
                              guint64             time_ns)
{
  const SeismoSeq *s;
  gsize i;

  g_return_val_if_fail (self != NULL, NULL);
  if (task >= self->n_tasks)
    return NULL;
  s = &self->tasks[task].spans;
  i = _seismo_seq_first_ending_after (self, s, time_ns, 0);
  if (i < s->n && _seismo_seq_start (self, s, i) <= time_ns)
    return &self->spans[s->idx[i]];
  return NULL;
}

const SeismoSyscallSpan *
seismo_timeline_data_find_span (SeismoTimelineData *self,
                                SeismoEventId       event)
{
  const SeismoTaskId *tasks;
  const SeismoSeq *s;
  gsize i;

  g_return_val_if_fail (self != NULL, NULL);
  if (event >= self->n_events)
    return NULL;
  tasks = seismo_trace_get_tasks (self->trace);
  if (tasks[event] >= self->n_tasks)
    return NULL;
  s = &self->tasks[tasks[event]].spans;
  /* The span opened at or before the event's time; the enter of the next span may share the
   * exit's timestamp, so look at the last few that start no later. */
  i = _seismo_seq_lower_bound (self, s, self->ts[event] + 1, 0);
  for (guint k = 0; k < 4 && i > 0; k++, i--)
    {
      const SeismoSyscallSpan *span = &self->spans[s->idx[i - 1]];

      if (span->enter == event || span->exit == event)
        return span;
    }
  return NULL;
}

guint64
seismo_timeline_data_span_end_ns (SeismoTimelineData      *self,
                                  const SeismoSyscallSpan *span)
{
  const SeismoTaskId *tasks;
  const SeismoSeq *s;
  gsize i;

  g_return_val_if_fail (self != NULL && span != NULL, 0);
  if (span->exit != SEISMO_NO_EVENT && span->exit < self->n_events)
    return self->ts[span->exit];
  tasks = seismo_trace_get_tasks (self->trace);
  s = &self->tasks[tasks[span->enter]].spans;
  i = _seismo_seq_lower_bound (self, s, self->ts[span->enter], 0);
  while (i < s->n && &self->spans[s->idx[i]] != span)
    i++;
  return i < s->n ? _seismo_seq_end (self, s, i) : self->ts[span->enter];
}

SeismoFileSummary *
seismo_timeline_data_get_summary (SeismoTimelineData *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->summary;
}

void
seismo_timeline_data_get_loaded_span (SeismoTimelineData *self,
                                      guint64            *start_ns,
                                      guint64            *end_ns)
{
  g_return_if_fail (self != NULL);
  if (start_ns != NULL)
    *start_ns = self->loaded_start_ns;
  if (end_ns != NULL)
    *end_ns = self->loaded_end_ns;
}

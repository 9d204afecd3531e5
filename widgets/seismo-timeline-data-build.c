/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

/* The timeline data's per-CPU and per-task sequences, built from the trace (see
 * seismo_timeline_data_new_for_window()). */

#include <string.h>

#include "seismo-timeline-data-private.h"
#include "seismo-work-priority.h"

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

      _seismo_seq_init (d, s, kind, count[t]);
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

/*
 * The syscall spans of each task, with every SEISMO_SEQ_SPAN_STRIDE-th one's start time, in one
 * pass over the trace's spans in their order (by time): reading the events' times in order, not
 * task by task across the whole trace, keeps the reads in cache (a task's spans are spread over
 * all of it). Other starts and every end are read through the trace when a frame needs them: a
 * search reads a few within one stride, a frame the ends of the boxes it draws. Which span an
 * item is takes 2 bytes: its distance from its stride's first span. The few strides that lie
 * across more than 65536 of the trace's spans (a task that slept while others made syscalls:
 * 3% of them in a 5M-syscall trace) keep the distances' high bits apart, 16 at a time. Per
 * syscall, that is ~3 bytes instead of the 10 of full copies of indices, starts and ends (50 MB
 * for 5M).
 */
void
_seismo_timeline_build_spans (SeismoTimelineData *d)
{
  gsize n = d->n_spans;
  guint n_tasks = d->n_tasks;
  g_autofree gsize *count = g_new0 (gsize, n_tasks + 1);
  g_autofree gsize *item_off = g_new0 (gsize, n_tasks + 1);
  g_autofree gsize *stride_off = g_new0 (gsize, n_tasks + 1);
  g_autoptr(GArray) high = g_array_new (FALSE, TRUE, sizeof (guint16));

  for (gsize i = 0; i < n; i++)
    {
      SeismoTaskId t = span_task (d, (guint32) i);

      if (t < n_tasks)
        count[t]++;
    }
  for (guint t = 0; t < n_tasks; t++)
    {
      item_off[t + 1] = item_off[t] + count[t];
      stride_off[t + 1] = stride_off[t]
                          + (count[t] + SEISMO_SEQ_SPAN_STRIDE - 1) / SEISMO_SEQ_SPAN_STRIDE;
      count[t] = 0;   /* now: how many are filled */
    }
  d->span_coarse = g_new (guint64, MAX (stride_off[n_tasks], 1));
  d->span_base = g_new (guint32, MAX (stride_off[n_tasks], 1));
  d->span_high_at = g_new (guint32, MAX (stride_off[n_tasks], 1));
  d->span_off = g_new (guint16, MAX (item_off[n_tasks], 1));
  for (gsize i = 0; i < n; i++)
    {
      SeismoTaskId t = span_task (d, (guint32) i);
      gsize k, stride, dist;

      if (t >= n_tasks)
        continue;
      k = count[t]++;
      stride = stride_off[t] + k / SEISMO_SEQ_SPAN_STRIDE;
      if (k % SEISMO_SEQ_SPAN_STRIDE == 0)
        {
          d->span_coarse[stride] = d->ts[d->spans[i].enter];
          d->span_base[stride] = (guint32) i;
          d->span_high_at[stride] = G_MAXUINT32;
        }
      dist = i - d->span_base[stride];
      /* The stride's high bits start out zero (g_array_set_size clears): those of its items
       * before this one. */
      if (dist > G_MAXUINT16 && d->span_high_at[stride] == G_MAXUINT32)
        {
          d->span_high_at[stride] = high->len;
          g_array_set_size (high, high->len + SEISMO_SEQ_SPAN_STRIDE);
        }
      if (d->span_high_at[stride] != G_MAXUINT32)
        g_array_index (high, guint16, d->span_high_at[stride] + k % SEISMO_SEQ_SPAN_STRIDE) =
          (guint16) (dist >> 16);
      d->span_off[item_off[t] + k] = (guint16) dist;
    }
  d->span_high = (guint16 *) g_array_free (g_steal_pointer (&high), FALSE);
  for (guint t = 0; t < n_tasks; t++)
    {
      SeismoSeq *s = &d->tasks[t].spans;

      _seismo_seq_init (d, s, SEISMO_SEQ_SPAN_IDX, count[t]);
      s->last_ns = seismo_trace_get_task (d->trace, t)->last_ns;
      s->coarse = d->span_coarse + stride_off[t];
      s->idx_base = d->span_base + stride_off[t];
      s->idx_high_at = d->span_high_at + stride_off[t];
      s->idx_off = d->span_off + item_off[t];
      s->idx_high = d->span_high;
    }
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

void
_seismo_timeline_build_cpus (SeismoTimelineData *d)
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

      _seismo_seq_init (d, &d->cpu_runs[c], SEISMO_SEQ_INTERVALS, n);
      d->cpu_runs[c].intervals = r;
      _seismo_seq_build_starts (d, &d->cpu_runs[c]);
      _seismo_seq_build_hues (d, &d->cpu_runs[c], FALSE);
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
      _seismo_seq_init (d, &d->cpu_irqs[c], SEISMO_SEQ_INTERVALS, count[c]);
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
      _seismo_seq_build_starts (d, &d->cpu_irqs[c]);
      _seismo_seq_build_hues (d, &d->cpu_irqs[c], TRUE);
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

              _seismo_seq_init (d, s, SEISMO_SEQ_CALLS, k - i);
              s->calls = calls + i;
              _seismo_seq_build_starts (d, s);
              _seismo_seq_build_hues (d, s, FALSE);
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

  seismo_work_priority_enter ();

  for (guint t = range->start; t < range->end; t++)
    {
      SeismoTimelineTask *tt = &d->tasks[t];

      _seismo_seq_ensure_sorted (d, &tt->runs, (guint32 *) tt->runs.idx);
      _seismo_seq_ensure_sorted (d, &tt->wakeups, (guint32 *) tt->wakeups.idx);
      _seismo_seq_build_starts (d, &tt->runs);
      _seismo_seq_build_starts (d, &tt->wakeups);
      _seismo_seq_build_starts (d, &tt->instants);
      tt->runs.hue = tt->color;
      tt->process = G_MAXUINT;
      if ((t & 63) == 0)
        seismo_work_priority_pause_point ();
      if ((t & 1023) == 0 && g_cancellable_is_cancelled (range->cancellable))
        break;
    }
  return NULL;
}

gboolean
_seismo_timeline_build_tasks (SeismoTimelineData *d,
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

  d->store = g_new (guint32, MAX (n_runs + n_wakeups + n_instants, 1));
  next = group_by_task (d, d->store, n_runs, run_order, run_task,
                        G_STRUCT_OFFSET (SeismoTimelineTask, runs),
                        SEISMO_SEQ_INTERVAL_IDX, d->runs);
  next = group_by_task (d, next, n_wakeups, NULL, wakeup_task,
                        G_STRUCT_OFFSET (SeismoTimelineTask, wakeups),
                        SEISMO_SEQ_INTERVAL_IDX, d->wakeups);
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

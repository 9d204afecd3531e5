/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <string.h>

#include "seismo-timeline-data-private.h"
#include "seismo-work-priority.h"

void
_seismo_seq_init (SeismoTimelineData *d,
          SeismoSeq          *s,
          SeismoSeqKind       kind,
          gsize               n)
{
  s->kind = kind;
  s->n = n;
}

void
_seismo_seq_build_starts (SeismoTimelineData *d,
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

      start = _seismo_seq_start_at (d, s, i);
      s->durations[i] = end < start ? 0 : (guint16) MIN (end - start, G_MAXUINT16);
    }
}

/* Colors of items whose color varies: a CPU's runs (by task), function calls (by function), IRQs
 * (hard or soft). Kept contiguous so that a summary of many items reads no item. Syscalls keep
 * none: their summary is one gray, and a box's hue comes from its span. */
G_STATIC_ASSERT (SEISMO_TIMELINE_N_TASK_COLORS <= SEISMO_TIMELINE_HUE_ALERT);

void
_seismo_seq_build_hues (SeismoTimelineData *d,
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
  g_clear_pointer (&s->starts, g_free);
  g_clear_pointer (&s->durations, g_free);
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

void
_seismo_seq_ensure_sorted (SeismoTimelineData *d,
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
          guint64 pair[2] = { _seismo_seq_start_at (d, s, i), _seismo_seq_end (d, s, i) };

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

      _seismo_seq_init (d, s, SEISMO_SEQ_PAIRS, offsets[p + 1] - offsets[p]);
      s->pairs = d->pairs + 2 * offsets[p];
      s->hue = d->tasks[d->processes[p].main_task].color;
      _seismo_seq_build_starts (d, s);
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

static gpointer
build_spans (gpointer d)
{
  seismo_work_priority_enter ();

  _seismo_timeline_build_spans (d);
  return NULL;
}

SeismoTimelineData *
seismo_timeline_data_new_for_window (SeismoTrace       *trace,
                                     SeismoFileSummary *summary,
                                     GCancellable      *cancellable)
{
  g_autoptr(SeismoTimelineData) d = NULL;
  g_autofree guint32 *task_events = NULL;
  GThread *spans;
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
  /* Which calls failed: the derive found it. */
  d->span_failed = seismo_trace_get_failed_spans (trace);
  /* The tasks' syscall spans (a big trace's most items) on a thread of their own, meanwhile the
   * other rows here. */
  spans = g_thread_new ("seismo-timeline", build_spans, d);
  _seismo_timeline_build_cpus (d);
  task_events = g_new0 (guint32, MAX (d->n_tasks, 1));
  ok = _seismo_timeline_build_tasks (d, task_events, cancellable);
  g_thread_join (spans);
  if (ok)
    build_processes (d, task_events);
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
  g_free (self->span_coarse);
  g_free (self->span_base);
  g_free (self->span_high_at);
  g_free (self->span_off);
  g_free (self->span_high);
  g_free (self->processes);
  g_free (self->process_activity);
  g_free (self->pairs);
  g_free (self->process_tasks);
  g_free (self->lost);
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
    return &self->spans[_seismo_seq_span (s, i)];
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
      const SeismoSyscallSpan *span = &self->spans[_seismo_seq_span (s, i - 1)];

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
  while (i < s->n && &self->spans[_seismo_seq_span (s, i)] != span)
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

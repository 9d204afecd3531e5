/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-file"

#include <string.h>

#include "seismo-file-summary-private.h"
#include "seismo-trace-private.h"

/*
 * What a view of a trace larger than memory asks of its summary: the chunks of a time range and
 * their type counts, timeline rows from the level-of-detail pyramid (cost in buckets, never events),
 * and the events of a window read from its chunks.
 */

void
seismo_file_summary_find_chunks (SeismoFileSummary *self,
                                 guint64            start_ns,
                                 guint64            end_ns,
                                 guint             *first,
                                 guint             *count)
{
  const SeismoIndexEntry *e;
  guint n, lo = 0, hi;

  g_return_if_fail (self != NULL);
  e = (const SeismoIndexEntry *) (gpointer) self->chunks->data;
  n = self->chunks->len;
  /* The file is in time order (it has a summary), so both bounds are monotonic. */
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (e[mid].max_ts < start_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  *first = lo;
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (e[mid].min_ts <= end_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  *count = lo - *first;
}

guint64 *
seismo_file_summary_range_type_counts (SeismoFileSummary *self,
                                       guint64            start_ns,
                                       guint64            end_ns,
                                       guint64           *n_events)
{
  guint64 *counts;
  guint first, count;
  guint64 total = 0;

  g_return_val_if_fail (self != NULL, NULL);
  counts = g_new0 (guint64, MAX (self->info.n_types, 1));
  seismo_file_summary_find_chunks (self, start_ns, end_ns, &first, &count);
  for (guint k = first; k < first + count; k++)
    for (guint32 j = self->chunk_type_off[k]; j < self->chunk_type_off[k + 1]; j++)
      {
        counts[self->chunk_type_id[j]] += self->chunk_type_count[j];
        total += self->chunk_type_count[j];
      }
  if (n_events != NULL)
    *n_events = total;
  return counts;
}

/* ---- level of detail ---- */

static guint
first_at_or_after (const guint64 *start,
                   guint          n,
                   guint64        t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (start[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
init_cells (SeismoLodCell *cells,
            guint          n_cells,
            guint64        start_ns,
            guint64        end_ns)
{
  for (guint i = 0; i < n_cells; i++)
    {
      cells[i] = (SeismoLodCell) { 0 };
      cells[i].start_ns = start_ns + (guint64) ((double) (end_ns - start_ns) * i / n_cells);
      cells[i].end_ns = start_ns + (guint64) ((double) (end_ns - start_ns) * (i + 1) / n_cells);
      cells[i].task = SEISMO_NO_TASK;
    }
}

static inline guint
cell_of (guint64 t,
         guint64 start_ns,
         guint64 end_ns,
         guint   n_cells)
{
  guint i = (guint) ((double) (t - start_ns) * n_cells / (double) (end_ns - start_ns));

  return MIN (i, n_cells - 1);
}

/* The share of a bucket's count up to time t, rounded: shares of adjacent stretches taken as
 * differences of it add up to the whole count exactly. */
static inline guint64
share_until (guint64 count,
             guint64 b_start,
             guint64 b_end,
             guint64 t)
{
  if (t <= b_start)
    return 0;
  if (t >= b_end)
    return count;
  return (guint64) ((double) count * (double) (t - b_start) / (double) (b_end - b_start) + 0.5);
}

/* Adds the part of a bucket covering [b_start, b_end) that falls in [start_ns, end_ns) to the
 * cells it overlaps, in proportion to the overlap, in whole counts (a bucket inside the span adds
 * exactly its count). Counting a bucket in the one cell where it starts drew a comb where cells
 * hold one or two buckets in turn, and a spike at the span's end. The cell's task is the one whose
 * share of busy time there is largest (best holds that share per cell). */
static void
spread_bucket (SeismoLodCell *cells,
               guint          n_cells,
               guint64        start_ns,
               guint64        end_ns,
               guint64        b_start,
               guint64        b_end,
               guint64        events,
               guint64        busy_ns,
               SeismoTaskId   task,
               guint64       *best)
{
  guint64 from = MAX (b_start, start_ns), to;
  guint i0, i1;

  b_end = MAX (b_end, b_start + 1);
  to = MIN (b_end, end_ns);
  if (to <= from)
    return;
  i0 = cell_of (from, start_ns, end_ns, n_cells);
  i1 = cell_of (to - 1, start_ns, end_ns, n_cells);
  for (guint i = i0; i <= i1; i++)
    {
      guint64 a = MAX (from, cells[i].start_ns), b = i == i1 ? to : MIN (to, cells[i].end_ns);
      guint64 e = share_until (events, b_start, b_end, b) - share_until (events, b_start, b_end, a);
      guint64 busy = share_until (busy_ns, b_start, b_end, b) - share_until (busy_ns, b_start, b_end, a);

      cells[i].events += e;
      cells[i].busy_ns += busy;
      if (task != SEISMO_NO_TASK && busy > 0 && busy > best[i])
        {
          best[i] = busy;
          cells[i].task = task;
        }
    }
}

gboolean
seismo_file_summary_cpu_row (SeismoFileSummary *self,
                             guint              cpu,
                             guint64            start_ns,
                             guint64            end_ns,
                             guint              n_cells,
                             SeismoLodCell     *cells)
{
  const Level *l0, *level;
  guint first0, last0, lv, first, last;
  g_autofree guint64 *best = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_cells > 0 && end_ns > start_ns, FALSE);

  init_cells (cells, n_cells, start_ns, end_ns);
  if (cpu >= self->n_cpus || self->levels->len == 0)
    return TRUE;
  l0 = g_ptr_array_index (self->levels, 0);
  first0 = first_at_or_after (l0->start, l0->n, start_ns);
  last0 = first_at_or_after (l0->start, l0->n, end_ns);
  /* The finest level that still has at most about two buckets per cell. */
  for (lv = 0; lv + 1 < self->levels->len && ((last0 - first0) >> lv) > 2 * n_cells; lv++)
    ;
  level = g_ptr_array_index (self->levels, lv);
  first = first_at_or_after (level->start, level->n, start_ns);
  last = first_at_or_after (level->start, level->n, end_ns);
  /* The bucket before may reach into the span: its share there counts. */
  if (first > 0)
    first--;
  best = g_new0 (guint64, n_cells);
  for (guint b = first; b < last; b++)
    {
      const Cell *cell = &level->cells[(gsize) b * self->n_cpus + cpu];
      guint64 b_end = b + 1 < level->n ? level->start[b + 1] : end_ns;

      spread_bucket (cells, n_cells, start_ns, end_ns, level->start[b], b_end, cell->events,
                     cell->busy_ns, cell->task, best);
    }
  /* Fewer level-0 buckets than cells: the summary is too coarse here, the events are needed. */
  return last0 - first0 >= n_cells;
}

gboolean
seismo_file_summary_task_row (SeismoFileSummary *self,
                              SeismoTaskId       task,
                              guint64            start_ns,
                              guint64            end_ns,
                              guint              n_cells,
                              SeismoLodCell     *cells)
{
  guint first_b, last_b, lo, hi;
  g_autofree guint64 *best = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_cells > 0 && end_ns > start_ns, FALSE);

  init_cells (cells, n_cells, start_ns, end_ns);
  if (task >= self->info.n_tasks)
    return TRUE;
  first_b = first_at_or_after (self->tb_start, self->info.n_task_buckets, start_ns);
  last_b = first_at_or_after (self->tb_start, self->info.n_task_buckets, end_ns);
  if (first_b > 0)
    first_b--;   /* the bucket before may reach into the span */
  lo = self->task_off[task];
  hi = self->task_off[task + 1];
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->task_entries[mid].bucket < first_b)
        lo = mid + 1;
      else
        hi = mid;
    }
  best = g_new0 (guint64, n_cells);
  for (guint j = lo; j < self->task_off[task + 1] && self->task_entries[j].bucket < last_b; j++)
    {
      const TaskEntry *e = &self->task_entries[j];

      spread_bucket (cells, n_cells, start_ns, end_ns, self->tb_start[e->bucket],
                     self->tb_start[e->bucket + 1], e->events, e->busy_ns, SEISMO_NO_TASK, best);
    }
  for (guint i = 0; i < n_cells; i++)
    if (cells[i].events > 0 || cells[i].busy_ns > 0)
      cells[i].task = task;
  return last_b - first_b >= n_cells;
}

void
seismo_file_summary_range_task_totals (SeismoFileSummary *self,
                                       guint64            start_ns,
                                       guint64            end_ns,
                                       guint              n_tasks,
                                       guint64           *events,
                                       guint64           *busy_ns)
{
  guint first_b, last_b;

  g_return_if_fail (self != NULL);
  g_return_if_fail (end_ns > start_ns);

  memset (events, 0, sizeof (guint64) * n_tasks);
  memset (busy_ns, 0, sizeof (guint64) * n_tasks);
  first_b = first_at_or_after (self->tb_start, self->info.n_task_buckets, start_ns);
  last_b = first_at_or_after (self->tb_start, self->info.n_task_buckets, end_ns);
  if (first_b > 0)
    first_b--;   /* the bucket before may reach into the span */
  for (guint task = 0; task < MIN (n_tasks, self->info.n_tasks); task++)
    {
      guint lo = self->task_off[task], hi = self->task_off[task + 1];

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (self->task_entries[mid].bucket < first_b)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint j = lo; j < self->task_off[task + 1] && self->task_entries[j].bucket < last_b; j++)
        {
          const TaskEntry *e = &self->task_entries[j];
          guint64 b_start = self->tb_start[e->bucket], b_end = MAX (self->tb_start[e->bucket + 1], b_start + 1);
          guint64 from = MAX (b_start, start_ns), to = MIN (b_end, end_ns);

          if (to <= from)
            continue;
          /* Inside the span: exactly its count; at an edge: its share, as the rows spread it. */
          if (from == b_start && to == b_end)
            {
              events[task] += e->events;
              busy_ns[task] += e->busy_ns;
              continue;
            }
          events[task] += share_until (e->events, b_start, b_end, to) - share_until (e->events, b_start, b_end, from);
          busy_ns[task] += share_until (e->busy_ns, b_start, b_end, to)
                           - share_until (e->busy_ns, b_start, b_end, from);
        }
    }
}

/* ---- events of a window ---- */

guint64
seismo_file_summary_count_window (SeismoFileSummary *self,
                                  guint64            start_ns,
                                  guint64            end_ns)
{
  guint first, count;
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);
  seismo_file_summary_find_chunks (self, start_ns, end_ns, &first, &count);
  for (guint i = first; i < first + count; i++)
    n += g_array_index (self->chunks, SeismoIndexEntry, i).n_events;
  return n;
}

static SeismoTrace *
load_chunks (SeismoFileSummary *self,
             guint              first,
             guint              count,
             GCancellable      *cancellable,
             GError           **error)
{
  SeismoTrace *trace;

  g_mutex_lock (&self->window_lock);
  if (self->window != NULL && first == self->win_first && count == self->win_count)
    {
      trace = g_object_ref (self->window);
      g_mutex_unlock (&self->window_lock);
      return trace;
    }
  g_mutex_unlock (&self->window_lock);
  trace = _seismo_file_read_part (self->path, first, count, cancellable, NULL, error);
  if (trace == NULL)
    return NULL;
  if (count < self->info.n_chunks)
    {
      g_autofree char *warning = NULL;
      guint64 n = seismo_trace_get_n_events (trace);

      warning = g_strdup_printf ("This trace has %'" G_GUINT64_FORMAT " events, more than memory "
                                 "holds: %'" G_GUINT64_FORMAT " of them are shown, from event %'"
                                 G_GUINT64_FORMAT " (its statistics cover the whole trace: "
                                 "seismo-cli stats)", self->info.n_events, n,
                                 (guint64) first * SEISMO_BLOCK_EVENTS);
      _seismo_trace_set_metadata (trace, SEISMO_META_LOAD_WARNING, warning);
      _seismo_trace_set_span (trace, self->info.start_ns, self->info.end_ns);
    }
  g_mutex_lock (&self->window_lock);
  g_clear_object (&self->window);
  self->window = g_object_ref (trace);
  self->win_first = first;
  self->win_count = count;
  g_mutex_unlock (&self->window_lock);
  return trace;
}

SeismoTrace *
seismo_file_summary_load_window (SeismoFileSummary *self,
                                 guint64            start_ns,
                                 guint64            end_ns,
                                 guint64            max_events,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  guint first, count, max_chunks;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  seismo_file_summary_find_chunks (self, start_ns, end_ns, &first, &count);
  max_chunks = (guint) MAX (max_events / SEISMO_BLOCK_EVENTS, 1);
  if (count > max_chunks)
    {
      first += (count - max_chunks) / 2;
      count = max_chunks;
    }
  return load_chunks (self, first, count, cancellable, error);
}

SeismoTrace *
seismo_file_summary_load_around (SeismoFileSummary *self,
                                 guint64            start_ns,
                                 guint64            end_ns,
                                 guint64            max_events,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  guint first, count, max_chunks, n_chunks;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_chunks = self->info.n_chunks;
  seismo_file_summary_find_chunks (self, start_ns, end_ns, &first, &count);
  max_chunks = (guint) MIN (MAX (max_events / SEISMO_BLOCK_EVENTS, 1), n_chunks);
  if (count >= max_chunks)
    {
      first += (count - max_chunks) / 2;
      count = max_chunks;
    }
  else
    {
      /* As many neighbours before as after; at an end of the trace, all on the other side. */
      guint extra = max_chunks - count, before = MIN (extra / 2, first);

      if (first + count + (extra - before) > n_chunks)
        before = MIN (extra - (n_chunks - first - count), first);
      first -= before;
      count = MIN (max_chunks, n_chunks - first);
    }
  return load_chunks (self, first, count, cancellable, error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <string.h>

#include <glib/gstdio.h>

#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-file-summary.h"
#include "seismo-stats.h"
#include "seismo-summary-private.h"
#include "seismo-test-util.h"
#include "test-file-common.h"

/*
 * The SUMMARY record (file format 1.1) read back by SeismoFileSummary agrees with what the loaded
 * trace computes from its events: the statistics exactly (syscall percentiles within their
 * histogram bucket), the level-of-detail rows add up to the totals, and a window of chunks loads
 * the same events the whole trace holds there.
 */

static char *
save_test_trace (SeismoTrace *trace,
                 const char  *name)
{
  char *path = seismo_test_temp_path (name);
  g_autoptr(GError) error = NULL;

  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_no_error (error);
  return path;
}

/* The index entry k places from the end of a whole file's index (1: the last). */
static SeismoIndexEntry
index_entry_from_end (const char *bytes,
                      gsize       len,
                      guint       k)
{
  SeismoFileTrailer t;
  SeismoIndexEntry e;
  guint n_entries;

  memcpy (&t, bytes + len - sizeof t, sizeof t);
  _seismo_trailer_swap (&t);
  memcpy (&n_entries, bytes + t.index_offset + 40 + 8, sizeof n_entries);
  n_entries = GUINT32_FROM_LE (n_entries);
  g_assert_cmpuint (n_entries, >=, k);
  memcpy (&e, bytes + t.index_offset + 40 + 40 + (gsize) (n_entries - k) * sizeof e, sizeof e);
  _seismo_index_entry_swap (&e);
  return e;
}

static void
test_stats_match (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (5 * 65536 + 777, 21);
  g_autofree char *path = save_test_trace (trace, "stats.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFileSummary) s = seismo_file_summary_open (path, &error);
  g_autoptr(GArray) ta = NULL, tb = NULL, ca = NULL, cb = NULL, ka = NULL, kb = NULL;
  g_autoptr(GArray) sa = NULL, sb = NULL;
  gsize n_spans;

  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_assert_cmpuint (seismo_file_summary_get_n_events (s), ==, seismo_trace_get_n_events (trace));
  g_assert_cmpuint (seismo_file_summary_get_start_ns (s), ==, seismo_trace_get_start_ns (trace));
  g_assert_cmpuint (seismo_file_summary_get_end_ns (s), ==, seismo_trace_get_end_ns (trace));
  g_assert_cmpuint (seismo_file_summary_get_n_cpus (s), ==, seismo_trace_get_n_cpus (trace));
  g_assert_cmpuint (seismo_file_summary_get_n_chunks (s), ==, 6);
  seismo_trace_get_syscall_spans (trace, &n_spans);
  g_assert_cmpuint (seismo_file_summary_get_n_syscalls (s), ==, n_spans);
  /* The tables come whole, without events. */
  g_assert_cmpuint (seismo_trace_get_n_events (seismo_file_summary_get_tables (s)), ==, 0);
  g_assert_cmpuint (seismo_trace_get_n_tasks (seismo_file_summary_get_tables (s)), ==,
                    seismo_trace_get_n_tasks (trace));

  ta = seismo_stats_by_type (trace, NULL);
  tb = seismo_file_summary_stats_by_type (s);
  g_assert_cmpmem (ta->data, ta->len * sizeof (SeismoTypeStats),
                   tb->data, tb->len * sizeof (SeismoTypeStats));

  ca = seismo_stats_by_cpu (trace, NULL);
  cb = seismo_file_summary_stats_by_cpu (s);
  g_assert_cmpmem (ca->data, ca->len * sizeof (SeismoCpuStats),
                   cb->data, cb->len * sizeof (SeismoCpuStats));

  ka = seismo_stats_by_task (trace, NULL);
  kb = seismo_file_summary_stats_by_task (s);
  g_assert_cmpuint (ka->len, ==, kb->len);
  g_assert_cmpuint (ka->len, >, 10);
  g_assert_cmpmem (ka->data, ka->len * sizeof (SeismoTaskStats),
                   kb->data, kb->len * sizeof (SeismoTaskStats));

  sa = seismo_stats_by_syscall (trace, NULL);
  sb = seismo_file_summary_stats_by_syscall (s);
  g_assert_cmpuint (sa->len, ==, sb->len);
  g_assert_cmpuint (sa->len, >, 2);
  for (guint i = 0; i < sa->len; i++)
    {
      SeismoSyscallStats *x = &g_array_index (sa, SeismoSyscallStats, i);
      SeismoSyscallStats *y = &g_array_index (sb, SeismoSyscallStats, i);
      guint64 p[3][2] = { { x->p50_ns, y->p50_ns }, { x->p90_ns, y->p90_ns },
                          { x->p99_ns, y->p99_ns } };

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->calls, ==, y->calls);
      g_assert_cmpuint (x->errors, ==, y->errors);
      g_assert_cmpuint (x->unfinished, ==, y->unfinished);
      g_assert_cmpuint (x->total_ns, ==, y->total_ns);
      g_assert_cmpuint (x->min_ns, ==, y->min_ns);
      g_assert_cmpuint (x->max_ns, ==, y->max_ns);
      g_assert_cmpuint (x->avg_ns, ==, y->avg_ns);
      /* A percentile from the histogram lies in the exact value's bucket. */
      for (guint k = 0; k < 3; k++)
        g_assert_cmpuint (_seismo_summary_hist_bucket (p[k][0]), ==,
                          _seismo_summary_hist_bucket (p[k][1]));
    }
}

/* Rows from the level-of-detail buckets add up to the totals, at any number of cells, and what
 * each cell counts happened in that cell's time (checked against the events). */
static void
test_lod_rows (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (3 * 65536, 22);
  g_autofree char *path = save_test_trace (trace, "lod.seismo");
  g_autoptr(SeismoFileSummary) s = seismo_file_summary_open (path, NULL);
  g_autoptr(GArray) cpus = seismo_stats_by_cpu (trace, NULL);
  g_autoptr(GArray) tasks = seismo_stats_by_task (trace, NULL);
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace) + 1;
  const guint n_cells_list[] = { 1, 7, 100, 2000 };

  g_assert_nonnull (s);
  for (guint k = 0; k < G_N_ELEMENTS (n_cells_list); k++)
    {
      guint n_cells = n_cells_list[k];
      g_autofree SeismoLodCell *cells = g_new (SeismoLodCell, n_cells);

      for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
        {
          SeismoCpuStats *st = &g_array_index (cpus, SeismoCpuStats, c);
          guint64 events = 0, busy = 0;
          gboolean fine = seismo_file_summary_cpu_row (s, c, start, end, n_cells, cells);

          /* 196608 events are 192 buckets of 1024: finer than 100 cells, not than 2000. */
          g_assert_true (fine == (n_cells <= 192));
          for (guint i = 0; i < n_cells; i++)
            {
              events += cells[i].events;
              busy += cells[i].busy_ns;
              g_assert_true (cells[i].task == SEISMO_NO_TASK ||
                             cells[i].task < seismo_trace_get_n_tasks (trace));
              g_assert_true (i == 0 || cells[i].start_ns == cells[i - 1].end_ns);
            }
          g_assert_cmpuint (cells[0].start_ns, ==, start);
          g_assert_cmpuint (cells[n_cells - 1].end_ns, ==, end);
          g_assert_cmpuint (events, ==, st->events);
          g_assert_cmpuint (busy, ==, st->busy_ns);
        }
      for (guint i = 0; i < tasks->len; i++)
        {
          SeismoTaskStats *st = &g_array_index (tasks, SeismoTaskStats, i);
          guint64 events = 0, busy = 0;

          seismo_file_summary_task_row (s, st->task, start, end, n_cells, cells);
          for (guint j = 0; j < n_cells; j++)
            {
              events += cells[j].events;
              busy += cells[j].busy_ns;
            }
          g_assert_cmpuint (events, ==, st->events);
          g_assert_cmpuint (busy, ==, st->cpu_ns);
        }
    }

  /* No comb where cells hold one or two buckets in turn (192 buckets in 100 cells): a bucket is
   * shared among the cells it overlaps, so an even stretch of events draws even. */
  {
    guint n_cells = 100;
    g_autofree SeismoLodCell *cells = g_new (SeismoLodCell, n_cells);
    g_autofree guint64 *exact = g_new0 (guint64, n_cells);
    const guint64 *ts = seismo_trace_get_times (trace);
    const guint16 *cpu = seismo_trace_get_cpus (trace);
    guint64 worst = 0, total = 0;

    /* The whole trace, then its middle third: no cell short at a start, none heaped at an end. */
    for (guint part = 0; part < 2; part++)
      {
        guint64 a = part == 0 ? start : start + (end - start) / 3;
        guint64 b = part == 0 ? end : start + 2 * (end - start) / 3;

        worst = total = 0;
        memset (exact, 0, sizeof (guint64) * n_cells);
        seismo_file_summary_cpu_row (s, 0, a, b, n_cells, cells);
        for (gsize e = 0; e < seismo_trace_get_n_events (trace); e++)
          if (cpu[e] == 0 && ts[e] >= a && ts[e] < b)
            exact[MIN ((guint) ((double) (ts[e] - a) * n_cells / (double) (b - a)), n_cells - 1)]++;
        for (guint i = 0; i < n_cells; i++)
          {
            worst = MAX (worst, cells[i].events > exact[i] ? cells[i].events - exact[i] : exact[i] - cells[i].events);
            total += exact[i];
          }
        /* Off by less than half a cell's events (a bucket is 1024 events of all CPUs). */
        g_test_message ("worst cell off by %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " per cell",
                        worst, total / n_cells);
        g_assert_cmpuint (worst, <, total / n_cells / 2);
      }
  }

  /* A CPU cell's events are the events of that CPU from the start of the first bucket in it. */
  {
    guint n_cells = 50;
    g_autofree SeismoLodCell *cells = g_new (SeismoLodCell, n_cells);
    const guint64 *ts = seismo_trace_get_times (trace);
    const guint16 *cpu = seismo_trace_get_cpus (trace);
    guint64 total = 0;

    seismo_file_summary_cpu_row (s, 1, start, end, n_cells, cells);
    for (guint i = 0; i < n_cells; i++)
      total += cells[i].events;
    for (gsize e = 0; e < seismo_trace_get_n_events (trace); e++)
      total -= cpu[e] == 1 && ts[e] >= start;
    g_assert_cmpuint (total, ==, 0);
  }
}

/* A window of chunks loads the events the whole trace has there, with the whole trace's tables. */
/* The events and time of every task over a span at once are those of one cell of its row. */
static void
test_range_task_totals (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (3 * 65536, 23);
  g_autofree char *path = save_test_trace (trace, "task-totals.seismo");
  g_autoptr(SeismoFileSummary) s = seismo_file_summary_open (path, NULL);
  guint64 t0 = seismo_trace_get_start_ns (trace), t1 = seismo_trace_get_end_ns (trace) + 1;
  guint n_tasks = seismo_trace_get_n_tasks (trace);
  g_autofree guint64 *events = g_new (guint64, n_tasks);
  g_autofree guint64 *busy = g_new (guint64, n_tasks);
  const guint64 spans[][2] = { { t0, t1 }, { t0 + (t1 - t0) / 7, t0 + (t1 - t0) / 3 } };
  guint64 total = 0;

  g_assert_nonnull (s);
  for (guint k = 0; k < G_N_ELEMENTS (spans); k++)
    {
      seismo_file_summary_range_task_totals (s, spans[k][0], spans[k][1], n_tasks, events, busy);
      for (guint t = 0; t < n_tasks; t++)
        {
          SeismoLodCell cell;

          seismo_file_summary_task_row (s, t, spans[k][0], spans[k][1], 1, &cell);
          g_assert_cmpuint (events[t], ==, cell.events);
          g_assert_cmpuint (busy[t], ==, cell.busy_ns);
          if (k == 0)
            total += events[t];
        }
    }
  g_assert_cmpuint (total, ==, seismo_trace_get_n_events (trace));
}

/* The syscalls of a range (CHUNK_SYSCALLS, format 1.3): over the whole trace the summary's own,
 * over part of it those of the spans whose exit is in the chunks the range overlaps. */
static void
test_range_syscalls (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (5 * 65536 + 777, 21);
  g_autofree char *path = save_test_trace (trace, "range-syscalls.seismo");
  g_autoptr(SeismoFileSummary) s = seismo_file_summary_open (path, NULL);
  guint64 t0 = seismo_trace_get_start_ns (trace), t1 = seismo_trace_get_end_ns (trace);
  const guint64 *ts = seismo_trace_get_times (trace);
  g_autoptr(GArray) whole = NULL, all = NULL, part = NULL;
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) total = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  const SeismoSyscallSpan *spans;
  gsize n_spans;
  guint first, count;
  guint64 lo, hi, n_part = 0;

  g_assert_nonnull (s);
  g_assert_true (seismo_file_summary_has_range_syscalls (s));
  whole = seismo_file_summary_stats_by_syscall (s);
  all = seismo_file_summary_range_stats_by_syscall (s, t0, t1);
  g_assert_cmpuint (all->len, ==, whole->len);
  g_assert_cmpuint (whole->len, >, 3);
  for (guint i = 0; i < whole->len; i++)
    {
      const SeismoSyscallStats *w = &g_array_index (whole, SeismoSyscallStats, i);
      const SeismoSyscallStats *a = &g_array_index (all, SeismoSyscallStats, i);

      g_assert_cmpstr (a->name, ==, w->name);
      g_assert_cmpuint (a->calls, ==, w->calls);
      g_assert_cmpuint (a->errors, ==, w->errors);
      g_assert_cmpuint (a->total_ns, ==, w->total_ns);
      g_assert_cmpuint (a->max_ns, ==, w->max_ns);
      g_assert_cmpuint (a->avg_ns, ==, w->avg_ns);
    }

  /* A part: the spans that ended in its chunks, counted from the events. */
  seismo_file_summary_find_chunks (s, t0 + (t1 - t0) / 3, t0 + (t1 - t0) / 2, &first, &count);
  g_assert_cmpuint (count, >=, 1);
  g_assert_cmpuint (first + count, <, 6);
  lo = (guint64) first * 65536;
  hi = (guint64) (first + count) * 65536;
  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  for (gsize i = 0; i < n_spans; i++)
    if (spans[i].exit != SEISMO_NO_EVENT && spans[i].exit >= lo && spans[i].exit < hi)
      {
        const char *name = seismo_trace_get_syscall_name (trace, spans[i].syscall);
        guint64 *sum = g_hash_table_lookup (total, name);

        g_hash_table_insert (calls, (gpointer) name,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (calls, name)) + 1));
        if (sum == NULL)
          g_hash_table_insert (total, (gpointer) name, sum = g_new0 (guint64, 1));
        *sum += ts[spans[i].exit] - ts[spans[i].enter];
        n_part++;
      }
  part = seismo_file_summary_range_stats_by_syscall (s, t0 + (t1 - t0) / 3, t0 + (t1 - t0) / 2);
  g_assert_cmpuint (part->len, ==, g_hash_table_size (calls));
  for (guint i = 0; i < part->len; i++)
    {
      const SeismoSyscallStats *p = &g_array_index (part, SeismoSyscallStats, i);

      g_assert_cmpuint (p->calls, ==, GPOINTER_TO_UINT (g_hash_table_lookup (calls, p->name)));
      g_assert_cmpuint (p->total_ns, ==, *(guint64 *) g_hash_table_lookup (total, p->name));
      g_assert_cmpuint (p->errors, <=, p->calls);
      g_assert_cmpuint (p->max_ns, <=, p->total_ns);
      g_assert_cmpuint (p->max_ns * p->calls, >=, p->total_ns);
      n_part -= p->calls;
    }
  g_assert_cmpuint (n_part, ==, 0);
}

/* A damaged CHUNK_SYSCALLS record: a load warns; the summary opens without the syscalls of a
 * range. */
static void
test_damaged_range_syscalls (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (70000, 25);
  g_autofree char *path = save_test_trace (trace, "damaged-syscalls.seismo");
  g_autofree char *bytes = NULL;
  gsize len;
  SeismoIndexEntry e;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  g_autoptr(SeismoFileSummary) s = NULL;

  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  /* Just before the summary: the index's second last entry. */
  e = index_entry_from_end (bytes, len, 2);
  g_assert_cmpuint (e.kind, ==, SEISMO_RECORD_CHUNK_SYSCALLS);
  bytes[e.offset + e.size - 3] ^= 0x40;
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));

  loaded = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, 70000);
  g_assert_nonnull (strstr (seismo_trace_get_metadata (loaded, SEISMO_META_LOAD_WARNING),
                            "chunk syscalls"));
  s = seismo_file_summary_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_assert_false (seismo_file_summary_has_range_syscalls (s));
  g_assert_null (seismo_file_summary_range_stats_by_syscall (s, 0, G_MAXUINT64));
  g_assert_cmpuint (seismo_file_summary_get_n_syscalls (s), >, 0);
}

static void
test_window (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (6 * 65536 + 5, 23);
  g_autofree char *path = save_test_trace (trace, "window.seismo");
  g_autoptr(SeismoFileSummary) s = seismo_file_summary_open (path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) window = NULL;
  g_autoptr(SeismoTrace) again = NULL;
  const guint64 *ts = seismo_trace_get_times (trace);
  guint64 a = ts[2 * 65536 + 10], b = ts[3 * 65536 + 100];
  guint first, count;
  guint64 range_events;
  g_autofree guint64 *counts = NULL;

  g_assert_nonnull (s);
  seismo_file_summary_find_chunks (s, a, b, &first, &count);
  g_assert_cmpuint (first, ==, 2);
  g_assert_cmpuint (count, ==, 2);
  window = seismo_file_summary_load_window (s, a, b, G_MAXUINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (window), ==, 2 * 65536);
  g_assert_cmpuint (seismo_trace_get_n_tasks (window), ==, seismo_trace_get_n_tasks (trace));
  for (gsize i = 0; i < 2 * 65536; i += 37)
    {
      g_autofree char *x = seismo_trace_event_format (trace, (SeismoEventId) (2 * 65536 + i));
      g_autofree char *y = seismo_trace_event_format (window, (SeismoEventId) i);

      g_assert_cmpuint (seismo_trace_get_times (window)[i], ==, ts[2 * 65536 + i]);
      g_assert_cmpstr (x, ==, y);
    }
  /* The same window again is the one kept. */
  again = seismo_file_summary_load_window (s, a, b, G_MAXUINT64, NULL, NULL);
  g_assert_true (again == window);

  /* At most max_events: the middle chunks of the window. */
  {
    g_autoptr(SeismoTrace) small = seismo_file_summary_load_window (s, ts[0], ts[6 * 65536], 65536,
                                                                    NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (seismo_trace_get_n_events (small), ==, 65536);
    g_assert_cmpuint (seismo_trace_get_times (small)[0], ==, ts[3 * 65536]);
  }

  /* The middle part, without the summary: what the window shows of a trace too large to load. */
  {
    g_autoptr(SeismoTrace) part = seismo_file_load_part (path, 2 * 65536, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (seismo_trace_get_n_events (part), ==, 2 * 65536);
    /* 7 chunks: the middle two are 2 and 3. */
    g_assert_cmpuint (seismo_trace_get_times (part)[0], ==, ts[2 * 65536]);
    g_assert_nonnull (strstr (seismo_trace_get_metadata (part, SEISMO_META_LOAD_WARNING),
                              "of them are shown, from event 131072"));
  }

  /* Range counts by chunk. */
  counts = seismo_file_summary_range_type_counts (s, a, b, &range_events);
  g_assert_cmpuint (range_events, ==, 2 * 65536);
  {
    guint64 sum = 0;

    for (guint t = 0; t < seismo_trace_get_n_event_types (trace); t++)
      sum += counts[t];
    g_assert_cmpuint (sum, ==, range_events);
  }
}

/* Events out of time order get no summary, and such a file (like a 1.0 file) is refused by the
 * summary reader with a clear error, while it loads as always. */
static void
test_no_summary (void)
{
  g_autofree char *path = seismo_test_temp_path ("unsorted.seismo");
  g_autoptr(SeismoTraceBuilder) b = seismo_test_make_builder (100000, 24);
  g_autoptr(SeismoFileWriter) writer = seismo_file_writer_new (path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFileSummary) s = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  g_autofree char *old = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "fuzz", "corpus",
                                           "seismo-file", "generated-300.seismo", NULL);

  g_assert_true (seismo_file_writer_commit (writer, b, NULL));
  s = seismo_file_summary_open (path, &error);
  g_assert_null (s);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "unsorted.seismo"));
  loaded = seismo_test_load_file (path);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, 100000);

  /* A file from before the summary (1.0). */
  g_clear_error (&error);
  s = seismo_file_summary_open (old, &error);
  g_assert_null (s);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED);
}

/* Damage in the summary: a load warns and keeps every event; the summary reader refuses. */
static void
test_damaged_summary (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (70000, 25);
  g_autofree char *path = save_test_trace (trace, "damaged.seismo");
  g_autoptr(SeismoFileSummary) ok = seismo_file_summary_open (path, NULL);
  g_autofree char *bytes = NULL;
  gsize len, off;
  SeismoIndexEntry e;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  g_autoptr(SeismoFileSummary) s = NULL;

  g_assert_nonnull (ok);
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  /* The summary is the last record before the index: the last index entry. */
  e = index_entry_from_end (bytes, len, 1);
  g_assert_cmpuint (e.kind, ==, SEISMO_RECORD_SUMMARY);
  off = e.offset + e.size - 3;
  bytes[off] ^= 0x40;
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));

  loaded = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, 70000);
  g_assert_nonnull (strstr (seismo_trace_get_metadata (loaded, SEISMO_META_LOAD_WARNING),
                            "summary"));
  s = seismo_file_summary_open (path, &error);
  g_assert_null (s);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/file/summary/stats-match", test_stats_match);
  g_test_add_func ("/file/summary/lod-rows", test_lod_rows);
  g_test_add_func ("/file/summary/range-task-totals", test_range_task_totals);
  g_test_add_func ("/file/summary/range-syscalls", test_range_syscalls);
  g_test_add_func ("/file/summary/range-syscalls-damaged", test_damaged_range_syscalls);
  g_test_add_func ("/file/summary/window", test_window);
  g_test_add_func ("/file/summary/none", test_no_summary);
  g_test_add_func ("/file/summary/damaged", test_damaged_summary);
  return g_test_run ();
}

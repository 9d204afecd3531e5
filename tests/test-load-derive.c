/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * The fast load path: a loaded trace takes its event counts from the chunk decoders and derives its
 * intervals in parallel; a finished builder counts and derives on its own. Both must give the same
 * trace, with one thread or several, and ids the tables lack must still be refused.
 */

#include <glib/gstdio.h>

#include "seismo-big-array.h"
#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-test-util.h"
#include "seismo-thread-states.h"
#include "seismo-trace-private.h"

static void
assert_same_derived (SeismoTrace *a,
                     SeismoTrace *b)
{
  const SeismoSyscallSpan *sa, *sb;
  gsize na, nb;
  guint n_types = seismo_trace_get_n_event_types (a);

  g_assert_cmpuint (seismo_trace_get_n_events (a), ==, seismo_trace_get_n_events (b));
  g_assert_cmpuint (n_types, ==, seismo_trace_get_n_event_types (b));
  g_assert_cmpmem (seismo_trace_get_type_counts (a), n_types * sizeof (guint64),
                   seismo_trace_get_type_counts (b), n_types * sizeof (guint64));

  g_assert_cmpuint (seismo_trace_get_n_syscall_names (a), ==, seismo_trace_get_n_syscall_names (b));
  for (guint s = 0; s < seismo_trace_get_n_syscall_names (a); s++)
    g_assert_cmpstr (seismo_trace_get_syscall_name (a, s), ==, seismo_trace_get_syscall_name (b, s));

  sa = seismo_trace_get_syscall_spans (a, &na);
  sb = seismo_trace_get_syscall_spans (b, &nb);
  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpuint (na, >, 0);
  for (gsize i = 0; i < na; i++)
    {
      gint64 ret;
      /* Which failed, as the derive found it, against the span's return value read anew. */
      gboolean failed = seismo_trace_syscall_span_ret (a, &sa[i], &ret) && ret < 0 && ret >= -4095;

      g_assert_cmpuint (sa[i].enter, ==, sb[i].enter);
      g_assert_cmpuint (sa[i].exit, ==, sb[i].exit);
      g_assert_cmpuint (sa[i].syscall, ==, sb[i].syscall);
      g_assert_cmpint (seismo_trace_syscall_span_failed (a, i), ==, failed);
      g_assert_cmpint (seismo_trace_syscall_span_failed (b, i), ==, failed);
    }

  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    {
      const SeismoInterval *ia = seismo_trace_get_intervals (a, k, &na);
      const SeismoInterval *ib = seismo_trace_get_intervals (b, k, &nb);

      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpmem (ia, na * sizeof *ia, ib, nb * sizeof *ib);
      /* Every kind is sorted by start (runs: within each CPU). */
      for (gsize i = 1; k != SEISMO_INTERVAL_RUN && i < na; i++)
        g_assert_cmpuint (ia[i - 1].start, <, ia[i].start);
    }
  /* Thread states too, task by task. */
  g_assert_cmpint (seismo_trace_has_states (a), ==, seismo_trace_has_states (b));
  for (guint t = 0; t < seismo_trace_get_n_tasks (a); t++)
    {
      const SeismoStateSpan *xa = seismo_trace_get_task_states (a, t, &na);
      const SeismoStateSpan *xb = seismo_trace_get_task_states (b, t, &nb);

      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpmem (xa, na * sizeof *xa, xb, nb * sizeof *xb);
    }
  for (guint c = 0; c < seismo_trace_get_n_cpus (a); c++)
    {
      const SeismoInterval *ra = seismo_trace_get_cpu_runs (a, c, &na);
      const SeismoInterval *rb = seismo_trace_get_cpu_runs (b, c, &nb);

      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpmem (ra, na * sizeof *ra, rb, nb * sizeof *rb);
      for (gsize i = 0; i < na; i++)
        {
          g_assert_cmpuint (ra[i].key, ==, c);
          if (i > 0)
            g_assert_cmpuint (ra[i - 1].end, <=, ra[i].start);
        }
    }
}

/* Big enough for the parallel passes and several chunks. */
static void
test_load_equals_build (void)
{
  g_autoptr(SeismoTrace) built = seismo_test_make_trace (300000, 11);
  g_autofree char *path = seismo_test_temp_path ("derive.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  g_autoptr(SeismoTrace) one = NULL;
  gsize n;

  g_assert_true (seismo_file_save (built, path, &error));
  g_assert_no_error (error);
  loaded = seismo_test_load_file (path);
  assert_same_derived (built, loaded);

  g_setenv ("SEISMO_THREADS", "1", TRUE);
  one = seismo_test_load_file (path);
  g_unsetenv ("SEISMO_THREADS");
  assert_same_derived (built, one);

  /* The test trace has every kind the derivation knows but softirqs. */
  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    if (k != SEISMO_INTERVAL_SOFTIRQ)
      {
        seismo_trace_get_intervals (loaded, k, &n);
        g_assert_cmpuint (n, >, 0);
      }
}

/* A recorder streams events as appended (per-CPU streams out of order): the reader must notice and
 * the sort put them in order before the derivation, with the decoders' counts still right. */
static void
test_streamed_unsorted (void)
{
  SeismoTraceBuilder *builder = seismo_test_make_builder (200000, 5);
  g_autofree char *path = seismo_test_temp_path ("streamed.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) built = NULL;
  g_autoptr(SeismoTrace) raw = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  SeismoFileWriter *writer = seismo_file_writer_new (path, &error);

  g_assert_no_error (error);
  g_assert_true (seismo_file_writer_commit (writer, builder, &error));
  g_assert_no_error (error);
  seismo_file_writer_free (writer);
  built = seismo_trace_builder_finish (builder);

  raw = _seismo_file_read (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (raw->known_sorted);
  loaded = seismo_test_load_file (path);
  assert_same_derived (built, loaded);
  g_assert_cmpmem (seismo_trace_get_times (built), 200000 * sizeof (guint64),
                   seismo_trace_get_times (loaded), 200000 * sizeof (guint64));
}

/* Ids outside the tables, in a chunk whose checksum is right, are refused by the validation even
 * though the decoders now check them. */
static void
test_bad_ids (gconstpointer data)
{
  gboolean bad_type = GPOINTER_TO_INT (data);
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (70000, 3);
  g_autofree char *path = seismo_test_temp_path ("bad-ids.seismo");
  g_autoptr(GError) error = NULL;
  SeismoTrace *loaded;

  if (bad_type)
    trace->type[69000] = (guint16) trace->event_types->len;
  else
    trace->task[12] = trace->n_tasks + 5;
  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_no_error (error);

  loaded = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, bad_type ? "unknown type" : "unknown task"));
}

/* Syscalls as a damaged or cut trace has them: enters without exits, exits without enters,
 * exits of another syscall, numbers no table names, raw and per-syscall event types, every
 * task's calls spread over the trace. distinct_nrs: every raw call a number of its own. */
static SeismoTrace *
make_syscall_mess (guint32  seed,
                   guint    n_events,
                   gboolean distinct_nrs)
{
  static const gint64 nrs[] = { 0, 1, 2, 3, 60, 231, 9999, -1, 202, 7 };
  /* Errors are -4095..-1. */
  static const gint64 rets[] = { 0, 3, -1, -2, -4095, -4096, G_MININT64 };
  const SeismoFieldInfo raw_enter[] = { { "id", SEISMO_FIELD_INT, 8, 0 } };
  const SeismoFieldInfo raw_exit[] = { { "id", SEISMO_FIELD_INT, 8, 0 }, { "ret", SEISMO_FIELD_INT, 8, 0 } };
  const SeismoFieldInfo named[] = { { "ret", SEISMO_FIELD_INT, 8, 0 } };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  gint64 last_nr[40] = { 0 };
  guint enter, exit_, open_enter, open_exit, tick;

  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_n_cpus (b, 2);
  enter = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", raw_enter, 1, NULL);
  exit_ = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_exit", raw_exit, 2, NULL);
  open_enter = seismo_trace_builder_add_event_type (b, "syscalls", "sys_enter_openat", named, 1, NULL);
  open_exit = seismo_trace_builder_add_event_type (b, "syscalls", "sys_exit_openat", named, 1, NULL);
  tick = seismo_trace_builder_add_event_type (b, "test", "tick", named, 1, NULL);
  for (guint i = 0; i < n_events; i++)
    {
      guint t = g_rand_int_range (rand, 0, G_N_ELEMENTS (last_nr));
      guint op = g_rand_int_range (rand, 0, 100);
      gint64 nr = distinct_nrs ? 100000 + i : nrs[g_rand_int_range (rand, 0, G_N_ELEMENTS (nrs))];
      guint type = op < 44 ? enter : op < 88 ? exit_ : op < 92 ? open_enter : op < 96 ? open_exit : tick;

      seismo_trace_builder_begin_event (b, 1000 + i, t % 2, 100 + (gint32) t, type);
      if (type == enter)
        seismo_trace_builder_push_int (b, last_nr[t] = nr);
      else if (type == exit_)
        {
          /* Mostly the call open on the task; now and then another. */
          seismo_trace_builder_push_int (b, g_rand_int_range (rand, 0, 8) == 0 ? nr : last_nr[t]);
          seismo_trace_builder_push_int (b, rets[g_rand_int_range (rand, 0, G_N_ELEMENTS (rets))]);
        }
      else
        seismo_trace_builder_push_int (b, rets[g_rand_int_range (rand, 0, G_N_ELEMENTS (rets))]);
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (b);
}

/* The syscall pass in ranges gives one pass's spans and names: any number of ranges, down to an
 * event each, and more names in a range than a span's index holds. */
static void
test_syscall_ranges (void)
{
  const guint ranges[] = { 2, 3, 4, 7, 16, 3001 };

  for (guint32 seed = 1; seed <= 4; seed++)
    {
      g_autoptr(SeismoTrace) one = NULL;

      gsize n_spans, n_failed = 0;

      _seismo_derive_syscall_ranges = 1;
      one = make_syscall_mess (seed, 3000, FALSE);
      seismo_trace_get_syscall_spans (one, &n_spans);
      for (gsize i = 0; i < n_spans; i++)
        n_failed += seismo_trace_syscall_span_failed (one, i);
      g_assert_cmpuint (n_failed, >, 0);
      g_assert_cmpuint (n_failed, <, n_spans);
      for (guint k = 0; k < G_N_ELEMENTS (ranges); k++)
        {
          g_autoptr(SeismoTrace) split = NULL;

          _seismo_derive_syscall_ranges = ranges[k];
          split = make_syscall_mess (seed, 3000, FALSE);
          assert_same_derived (one, split);
        }
    }
  {
    g_autoptr(SeismoTrace) one = NULL;
    g_autoptr(SeismoTrace) split = NULL;

    _seismo_derive_syscall_ranges = 1;
    one = make_syscall_mess (9, 160000, TRUE);
    g_assert_cmpuint (seismo_trace_get_n_syscall_names (one), >, G_MAXUINT16);
    _seismo_derive_syscall_ranges = 2;
    split = make_syscall_mess (9, 160000, TRUE);
    assert_same_derived (one, split);
  }
  _seismo_derive_syscall_ranges = 0;
}

static void
test_big_array (void)
{
  const gsize sizes[] = { 0, 1, 4096, (2u << 20) - 1, 5u << 20, 67u << 20, (64u << 20) + 3 };
  gpointer p;

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      guint8 *mem = _seismo_big_array_alloc (sizes[i], 1);

      g_assert_nonnull (mem);
      if (sizes[i] >= (4u << 20))
        g_assert_cmpuint ((guintptr) mem % (2u << 20), ==, 0);
      memset (mem, 0xa5, sizes[i]);
      if (sizes[i] > 0)
        g_assert_cmpuint (mem[sizes[i] - 1], ==, 0xa5);
      /* Ordinary malloc memory: it shrinks, grows and frees as such. */
      mem = g_realloc (mem, MAX (sizes[i] / 2, 1));
      g_free (mem);
    }
  p = _seismo_big_array_try_alloc (G_MAXSIZE / 2, 4);
  g_assert_null (p);
  p = _seismo_big_array_new (guint64, 1000000);
  g_assert_nonnull (p);
  g_free (p);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/load-derive/load-equals-build", test_load_equals_build);
  g_test_add_func ("/load-derive/streamed-unsorted", test_streamed_unsorted);
  g_test_add_data_func ("/load-derive/bad-type-id", GINT_TO_POINTER (TRUE), test_bad_ids);
  g_test_add_data_func ("/load-derive/bad-task-id", GINT_TO_POINTER (FALSE), test_bad_ids);
  g_test_add_func ("/load-derive/big-array", test_big_array);
  g_test_add_func ("/load-derive/syscall-ranges", test_syscall_ranges);
  return g_test_run ();
}

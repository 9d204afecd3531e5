/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "seismo-test-util.h"

static SeismoTrace *trace;

static void
test_find_time (void)
{
  gsize n = seismo_trace_get_n_events (trace);
  const guint64 *ts = seismo_trace_get_times (trace);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  g_assert_cmpuint (seismo_trace_find_time (trace, 0), ==, 0);
  g_assert_cmpuint (seismo_trace_find_time (trace, G_MAXUINT64), ==, n);
  for (guint k = 0; k < 2000; k++)
    {
      guint64 t = ts[0] + g_rand_int_range (rand, -10, (gint32) MIN (ts[n - 1] - ts[0] + 10, G_MAXINT32));
      gsize brute = 0;

      while (brute < n && ts[brute] < t)
        brute++;
      g_assert_cmpuint (seismo_trace_find_time (trace, t), ==, brute);
    }
}

static void
test_indexes (void)
{
  gsize n = seismo_trace_get_n_events (trace), total = 0;
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  const guint64 *ts = seismo_trace_get_times (trace);

  for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
    {
      gsize m, j = 0;
      const SeismoEventId *idx = seismo_trace_get_cpu_events (trace, c, &m);

      for (gsize i = 0; i < n; i++)
        if (cpus[i] == c)
          {
            g_assert_cmpuint (j, <, m);
            g_assert_cmpuint (idx[j++], ==, i);
          }
      g_assert_cmpuint (j, ==, m);
      total += m;
      if (m > 10)
        {
          guint64 t = ts[idx[m / 2]];
          gsize pos = seismo_trace_index_find_time (trace, idx, m, t);

          g_assert_cmpuint (ts[idx[pos]], ==, t);
          g_assert_true (pos == 0 || ts[idx[pos - 1]] < t);
        }
    }
  g_assert_cmpuint (total, ==, n);

  total = 0;
  for (SeismoTaskId t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      gsize m, j = 0;
      const SeismoEventId *idx = seismo_trace_get_task_events (trace, t, &m);

      for (gsize i = 0; i < n; i++)
        if (tasks[i] == t)
          g_assert_cmpuint (idx[j++], ==, i);
      g_assert_cmpuint (j, ==, m);
      total += m;
    }
  g_assert_cmpuint (total, ==, n);
}

static void
test_type_counts (void)
{
  gsize n = seismo_trace_get_n_events (trace);
  guint n_types = seismo_trace_get_n_event_types (trace);
  g_autofree guint64 *brute = g_new0 (guint64, n_types);

  for (gsize i = 0; i < n; i++)
    brute[seismo_trace_get_types (trace)[i]]++;
  g_assert_cmpmem (brute, n_types * 8, seismo_trace_get_type_counts (trace), n_types * 8);
}

/* Pair enters and exits per task the slow way and compare. */
static void
test_spans_brute (void)
{
  gsize n = seismo_trace_get_n_events (trace), n_spans, s = 0;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  g_autoptr(GArray) expect = g_array_new (FALSE, FALSE, sizeof (SeismoSyscallSpan));
  g_autofree SeismoEventId *open = g_new (SeismoEventId, seismo_trace_get_n_tasks (trace));

  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    open[t] = SEISMO_NO_EVENT;
  for (gsize i = 0; i < n; i++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, i);
      SeismoTaskId t = seismo_trace_get_tasks (trace)[i];

      if (type->kind == SEISMO_KIND_SYSCALL_ENTER)
        {
          if (open[t] != SEISMO_NO_EVENT)
            {
              SeismoSyscallSpan sp = { open[t], SEISMO_NO_EVENT, 0 };
              g_array_append_val (expect, sp);
            }
          open[t] = i;
        }
      else if (type->kind == SEISMO_KIND_SYSCALL_EXIT && open[t] != SEISMO_NO_EVENT)
        {
          SeismoValue a, b;
          SeismoSyscallSpan sp = { open[t], (SeismoEventId) i, 0 };

          g_assert_true (seismo_trace_event_field_by_name (trace, open[t], "id", &a));
          g_assert_true (seismo_trace_event_field_by_name (trace, i, "id", &b));
          if (a.u != b.u)
            sp.exit = SEISMO_NO_EVENT;
          g_array_append_val (expect, sp);
          open[t] = SEISMO_NO_EVENT;
        }
    }
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    if (open[t] != SEISMO_NO_EVENT)
      {
        SeismoSyscallSpan sp = { open[t], SEISMO_NO_EVENT, 0 };
        g_array_append_val (expect, sp);
      }
  g_assert_cmpuint (expect->len, ==, n_spans);
  g_assert_cmpuint (n_spans, >, 100);
  for (gsize k = 0; k < n_spans; k++)
    {
      /* Sorted by enter; compare as sets by walking both in enter order. */
      for (s = 0; s < expect->len; s++)
        if (g_array_index (expect, SeismoSyscallSpan, s).enter == spans[k].enter)
          break;
      g_assert_cmpuint (s, <, expect->len);
      g_assert_cmpuint (g_array_index (expect, SeismoSyscallSpan, s).exit, ==, spans[k].exit);
      if (k)
        g_assert_cmpuint (spans[k - 1].enter, <, spans[k].enter);
    }
}

/* Runs on one CPU never overlap and each begins where a switch put its task on. */
static void
test_runs (void)
{
  for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
    {
      gsize n;
      const SeismoInterval *runs = seismo_trace_get_cpu_runs (trace, c, &n);

      g_assert_cmpuint (n, >, 0);
      for (gsize k = 0; k < n; k++)
        {
          SeismoValue v;

          g_assert_cmpuint (runs[k].key, ==, c);
          g_assert_cmpuint (seismo_trace_interval_start_ns (trace, &runs[k]), <=,
                            seismo_trace_interval_end_ns (trace, &runs[k]));
          if (k)
            g_assert_cmpuint (seismo_trace_interval_end_ns (trace, &runs[k - 1]), <=,
                              seismo_trace_interval_start_ns (trace, &runs[k]));
          if (runs[k].start != SEISMO_NO_EVENT)
            {
              g_assert_true (seismo_trace_event_field_by_name (trace, runs[k].start, "next_pid", &v));
              g_assert_cmpint (v.i, ==, seismo_trace_get_task (trace, runs[k].task)->tid);
              g_assert_cmpuint (seismo_trace_event_cpu (trace, runs[k].start), ==, c);
            }
        }
    }
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  trace = seismo_test_make_trace (30000, 11);
  g_test_add_func ("/queries/find-time", test_find_time);
  g_test_add_func ("/queries/indexes", test_indexes);
  g_test_add_func ("/queries/type-counts", test_type_counts);
  g_test_add_func ("/queries/spans-brute", test_spans_brute);
  g_test_add_func ("/queries/runs", test_runs);
  ret = g_test_run ();
  g_object_unref (trace);
  return ret;
}

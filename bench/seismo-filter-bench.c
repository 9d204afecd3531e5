/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-filter-bench [--runs R] [N]: filter throughput over a synthetic trace of N events
 * (default 10 million; bench/seismo-synth.c). For each expression: the compile time, the first
 * run (which also prepares string tables and syscall spans), then R runs on one thread and R runs
 * on the automatic thread count, alternated so both see the same machine load; medians.
 */

#include <locale.h>
#include <stdlib.h>

#include "seismo-filter.h"
#include "seismo-synth.h"

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds for one run of filter over the whole trace with n_threads (0: automatic). */
static double
time_run (SeismoFilter *filter,
          guint64      *mask,
          guint         n_threads,
          gsize        *matched)
{
  gsize n = seismo_trace_get_n_events (seismo_filter_get_trace (filter));
  gint64 t0 = g_get_monotonic_time ();

  if (!seismo_filter_run_range (filter, 0, (SeismoEventId) n, n_threads, mask, matched, NULL))
    g_error ("the run was cancelled");
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  guint64 n_events = 10000000;
  guint runs = 5;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autofree guint64 *mask = NULL;
  g_autofree char *pid_expr = NULL;
  g_autofree char *comm_expr = NULL;
  SeismoSynthOptions options = SEISMO_SYNTH_DEFAULTS;
  SeismoTraceBuilder *builder;
  const SeismoTask *task;
  guint auto_threads = CLAMP (g_get_num_processors (), 1, 8);
  double simple_rate = 0.0;
  gint64 t0;
  gsize n;

  setlocale (LC_ALL, "");
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--runs") && i + 1 < argc)
        {
          guint64 r = g_ascii_strtoull (argv[++i], NULL, 10);

          runs = (guint) CLAMP (r, 1, 1000);
        }
      else if (g_ascii_isdigit (argv[i][0]))
        {
          guint64 v = g_ascii_strtoull (argv[i], NULL, 10);

          n_events = MAX (v, 1);
        }
      else
        {
          g_printerr ("Usage: %s [--runs R] [N]\n", argv[0]);
          return 2;
        }
    }

  t0 = g_get_monotonic_time ();
  builder = seismo_trace_builder_new ();
  seismo_synth_generate (builder, n_events, &options);
  trace = seismo_trace_builder_finish (builder);
  n = seismo_trace_get_n_events (trace);
  mask = g_new0 (guint64, seismo_filter_mask_words (n));
  /* A pid and a comm that exist, from the middle of the trace. */
  task = seismo_trace_event_task (trace, (SeismoEventId) (n / 2));
  pid_expr = g_strdup_printf ("pid == %d", task->pid);
  comm_expr = g_strdup_printf ("comm == \"%s\"", seismo_trace_get_string (trace, task->comm));
  g_print ("trace: %" G_GSIZE_FORMAT " events, %u CPUs, %u tasks, built in %.1f s; %u processors, "
           "%u runs per figure (median)\n\n", n, seismo_trace_get_n_cpus (trace),
           seismo_trace_get_n_tasks (trace), (g_get_monotonic_time () - t0) / 1e6,
           g_get_num_processors (), runs);

  {
    const char *exprs[] = {
      "cpu == 1", pid_expr, "tid != 0", "sched:*", "event == sched_switch", comm_expr,
      "time > 100ms && time < 200ms", "prev_state == S", "next_comm ~ \"kworker*\"",
      "duration > 10us", "syscall == read && cpu < 4", "errno == EAGAIN",
      "(cpu == 1 || cpu == 2) && !sched:*",
    };
    g_autofree double *one = g_new (double, runs);
    g_autofree double *many = g_new (double, runs);

    g_print ("%-38s %10s %9s %9s %11s %9s %11s\n", "expression", "matched", "compile", "first",
             "1 thread", "", "auto");
    g_print ("%-38s %10s %9s %9s %11s %9s %11s\n", "", "", "µs", "ms", "ms  Mev/s", "",
             "ms  Mev/s");
    for (guint e = 0; e < G_N_ELEMENTS (exprs); e++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(SeismoFilter) filter = NULL;
        gsize matched = 0;
        double compile_s, first_s, m1, mn;

        t0 = g_get_monotonic_time ();
        filter = seismo_filter_compile (trace, exprs[e], &error);
        compile_s = (g_get_monotonic_time () - t0) / 1e6;
        if (filter == NULL)
          g_error ("'%s': %s", exprs[e], error->message);
        first_s = time_run (filter, mask, 0, &matched);
        for (guint r = 0; r < runs; r++)
          {
            one[r] = time_run (filter, mask, 1, &matched);
            many[r] = time_run (filter, mask, 0, &matched);
          }
        m1 = median (one, runs);
        mn = median (many, runs);
        g_print ("%-38s %10" G_GSIZE_FORMAT " %9.0f %9.1f %6.1f %5.0f %9s %5.1f %5.0f\n", exprs[e],
                 matched, compile_s * 1e6, first_s * 1e3, m1 * 1e3, n / m1 / 1e6, "", mn * 1e3,
                 n / mn / 1e6);
        if (e == 0)
          simple_rate = n / mn / 1e6;
      }
  }
  g_print ("\nsimple comparison (cpu == 1) on %u threads: %.0f million events/s (target >= 50)\n",
           MIN (auto_threads, (guint) MAX (n / (1u << 18), 1)), simple_rate);
  return simple_rate >= 50.0 ? 0 : 1;
}

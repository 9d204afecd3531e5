/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-pane-bench FILE [RUNS]: what the Histogram and Statistics panes compute when opened on
 * the whole trace, the worker's part (the GUI benchmark, bench/gui-interact-bench.py, times the
 * whole interaction): each pane's computation run to its end (the same path an export takes),
 * wall and CPU time, best of RUNS. Needs a display (run under xvfb-run).
 * With --csv DIR, also writes each figure the panes show as their CSV exports (hist-*.csv,
 * stats-*.csv), to compare two versions' numbers.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <gtk/gtk.h>

#include "seismo-backend.h"
#include "seismo-histogram-view.h"
#include "seismo-importer.h"
#include "seismo-runnable-latency.h"
#include "seismo-stats.h"
#include "seismo-thread-states.h"
#include "seismo-stats-view.h"
#include "seismo-trace.h"
#include "seismo-widgets.h"

static double
cpu_now (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  static const char *phases[] = { "histogram: syscall durations, log2", "histogram: linear",
                                  "histogram: wakeup latency", "statistics: every table" };
  double best_wall[4] = { 1e9, 1e9, 1e9, 1e9 }, best_cpu[4] = { 1e9, 1e9, 1e9, 1e9 };
  int runs = argc > 2 && g_ascii_isdigit (argv[2][0]) ? atoi (argv[2]) : 3;
  const char *csv_dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;

  if (argc < 2)
    {
      fprintf (stderr, "usage: seismo-pane-bench FILE [RUNS]\n");
      return 2;
    }
  for (int i = 2; i + 1 < argc; i++)
    if (g_str_equal (argv[i], "--csv"))
      csv_dir = argv[i + 1];
  gtk_init ();
  seismo_widgets_init ();
  seismo_backends_init ();
  if (!(trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error)))
    {
      fprintf (stderr, "seismo-pane-bench: %s\n", error->message);
      return 1;
    }
  for (int r = 0; r < runs; r++)
    {
      GtkWidget *histogram = g_object_ref_sink (seismo_histogram_view_new ());
      GtkWidget *stats = g_object_ref_sink (seismo_stats_view_new ());
      double wall[5], cpu[5];

      wall[0] = g_get_monotonic_time () / 1e6, cpu[0] = cpu_now ();
      seismo_histogram_view_set_trace (SEISMO_HISTOGRAM_VIEW (histogram), trace);
      seismo_histogram_view_get_histogram (SEISMO_HISTOGRAM_VIEW (histogram));
      wall[1] = g_get_monotonic_time () / 1e6, cpu[1] = cpu_now ();
      seismo_histogram_view_set_scale (SEISMO_HISTOGRAM_VIEW (histogram), SEISMO_HISTOGRAM_LINEAR);
      seismo_histogram_view_get_histogram (SEISMO_HISTOGRAM_VIEW (histogram));
      wall[2] = g_get_monotonic_time () / 1e6, cpu[2] = cpu_now ();
      seismo_histogram_view_set_measure (SEISMO_HISTOGRAM_VIEW (histogram), SEISMO_HISTOGRAM_OF_WAKEUP, -1, 0, 0);
      seismo_histogram_view_get_histogram (SEISMO_HISTOGRAM_VIEW (histogram));
      wall[3] = g_get_monotonic_time () / 1e6, cpu[3] = cpu_now ();
      seismo_stats_view_set_trace (SEISMO_STATS_VIEW (stats), trace);
      for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
        seismo_stats_view_get_rows (SEISMO_STATS_VIEW (stats), t);
      wall[4] = g_get_monotonic_time () / 1e6, cpu[4] = cpu_now ();
      for (int p = 0; p < 4; p++)
        {
          best_wall[p] = MIN (best_wall[p], wall[p + 1] - wall[p]);
          best_cpu[p] = MIN (best_cpu[p], cpu[p + 1] - cpu[p]);
        }
      if (csv_dir != NULL && r == 0)
        {
          static const char *const tables[] = { "syscall", "task", "cpu", "event" };
          static const struct { SeismoHistogramOf of; SeismoHistogramScale scale; const char *name; } hists[] = {
            { SEISMO_HISTOGRAM_OF_SYSCALL, SEISMO_HISTOGRAM_LOG2, "syscall-log2" },
            { SEISMO_HISTOGRAM_OF_SYSCALL, SEISMO_HISTOGRAM_LINEAR, "syscall-linear" },
            { SEISMO_HISTOGRAM_OF_WAKEUP, SEISMO_HISTOGRAM_LOG2, "wakeup-log2" },
            { SEISMO_HISTOGRAM_OF_WAKEUP, SEISMO_HISTOGRAM_LINEAR, "wakeup-linear" },
            { SEISMO_HISTOGRAM_OF_RUNTIME, SEISMO_HISTOGRAM_LOG2, "runtime-log2" },
          };

          g_mkdir_with_parents (csv_dir, 0755);
          for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
            {
              g_autofree char *csv = seismo_stats_view_to_csv (SEISMO_STATS_VIEW (stats), t);
              g_autofree char *name = g_strdup_printf ("%s/stats-%s.csv", csv_dir, tables[t]);

              g_file_set_contents (name, csv, -1, NULL);
            }
          for (guint h = 0; h < G_N_ELEMENTS (hists); h++)
            {
              g_autofree char *csv = NULL;
              g_autofree char *name = g_strdup_printf ("%s/hist-%s.csv", csv_dir, hists[h].name);

              seismo_histogram_view_set_measure (SEISMO_HISTOGRAM_VIEW (histogram), hists[h].of, -1, 0, 0);
              seismo_histogram_view_set_scale (SEISMO_HISTOGRAM_VIEW (histogram), hists[h].scale);
              csv = seismo_histogram_view_to_csv (SEISMO_HISTOGRAM_VIEW (histogram));
              g_file_set_contents (name, csv, -1, NULL);
            }
        }
      g_object_unref (histogram);
      g_object_unref (stats);
    }
  /* The statistics pane's parts, one at a time, on one thread. */
  {
    static const char *const parts[] = { "  by syscall", "  by task", "  by cpu", "  by type", "  task states + runnable p99" };
    double part_cpu[G_N_ELEMENTS (parts)];
    SeismoSelection all = { 0, G_MAXUINT64, NULL };

    for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
      {
        double c0 = cpu_now ();

        if (k == 0)
          g_array_unref (seismo_stats_by_syscall (trace, &all));
        else if (k == 1)
          g_array_unref (seismo_stats_by_task (trace, &all));
        else if (k == 2)
          g_array_unref (seismo_stats_by_cpu (trace, &all));
        else if (k == 3)
          g_array_unref (seismo_stats_by_type (trace, &all));
        else
          for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
            {
              guint64 states[SEISMO_STATE_N];
              guint64 t0 = seismo_trace_get_start_ns (trace), t1 = seismo_trace_get_end_ns (trace);
              SeismoLatencyHistogram *h = seismo_runnable_latency_histogram (trace, t, t0, t1);
              SeismoLatencySummary sum;

              seismo_trace_task_state_totals (trace, t, t0, t1, states);
              seismo_latency_histogram_get_summary (h, &sum);
              seismo_latency_histogram_free (h);
            }
        part_cpu[k] = cpu_now () - c0;
      }
    printf ("%s: %" G_GSIZE_FORMAT " events, best of %d\n", argv[1], seismo_trace_get_n_events (trace), runs);
    for (int p = 0; p < 4; p++)
      printf ("  %-36s %7.3f s wall %7.3f s CPU\n", phases[p], best_wall[p], best_cpu[p]);
    for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
      printf ("  %-36s                %7.3f s CPU\n", parts[k], part_cpu[k]);
  }
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-summary-bench FILE.seismo [WIDTH]: what a view of a trace larger than memory costs at the
 * data layer, on a file with a summary (bench/seismo-gen writes one): opening it by its summary,
 * the whole-trace statistics, timeline rows of WIDTH cells (default 2000) for every CPU and the 32
 * busiest tasks at zoom levels from the whole trace down to ~1 ms, a zoomed-in view's events loaded
 * from its chunks, a pan step, and range statistics. Prints each time and the peak RSS.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "seismo-file-summary.h"

static double
ms_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e3;
}

static double
peak_rss_mib (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

/* Rows of one view: every CPU and the busiest tasks; TRUE when the summary sufficed for all. */
static gboolean
draw_rows (SeismoFileSummary *s,
           GArray            *busiest,
           guint64            start,
           guint64            end,
           guint              width,
           SeismoLodCell     *cells)
{
  gboolean fine = TRUE;

  for (guint c = 0; c < seismo_file_summary_get_n_cpus (s); c++)
    fine &= seismo_file_summary_cpu_row (s, c, start, end, width, cells);
  for (guint i = 0; i < busiest->len && i < 32; i++)
    seismo_file_summary_task_row (s, g_array_index (busiest, SeismoTaskStats, i).task, start, end,
                                  width, cells);
  return fine;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFileSummary) s = NULL;
  g_autoptr(GArray) types = NULL, cpus = NULL, tasks = NULL, syscalls = NULL;
  g_autofree SeismoLodCell *cells = NULL;
  guint width = argc > 2 ? (guint) atoi (argv[2]) : 2000;
  guint64 start, end, span;
  gint64 t0;

  if (argc < 2 || width == 0)
    {
      g_printerr ("Usage: %s FILE.seismo [WIDTH]\n", argv[0]);
      return EXIT_FAILURE;
    }

  t0 = g_get_monotonic_time ();
  if (!(s = seismo_file_summary_open (argv[1], &error)))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return EXIT_FAILURE;
    }
  g_print ("open by summary:     %8.1f ms  (%" G_GUINT64_FORMAT " events, %u chunks, peak RSS %.0f MiB)\n",
           ms_since (t0), seismo_file_summary_get_n_events (s), seismo_file_summary_get_n_chunks (s),
           peak_rss_mib ());

  t0 = g_get_monotonic_time ();
  types = seismo_file_summary_stats_by_type (s);
  cpus = seismo_file_summary_stats_by_cpu (s);
  tasks = seismo_file_summary_stats_by_task (s);
  syscalls = seismo_file_summary_stats_by_syscall (s);
  g_print ("whole-trace stats:   %8.1f ms  (%u types, %u CPUs, %u tasks, %u syscalls)\n",
           ms_since (t0), types->len, cpus->len, tasks->len, syscalls->len);

  start = seismo_file_summary_get_start_ns (s);
  end = seismo_file_summary_get_end_ns (s) + 1;
  span = end - start;
  cells = g_new (SeismoLodCell, width);
  for (guint64 div = 1; span / div >= 1000000; div *= 10)
    {
      guint64 mid = start + span / 2, half = span / div / 2;
      gboolean fine;

      t0 = g_get_monotonic_time ();
      fine = draw_rows (s, tasks, mid - half, mid + half, width, cells);
      g_print ("rows at 1/%-10" G_GUINT64_FORMAT " %8.2f ms  (%.3f s visible, %s)\n", div,
               ms_since (t0), 2 * half / 1e9, fine ? "from the summary" : "summary too coarse: events needed");
      if (!fine)
        {
          g_autoptr(SeismoTrace) window = NULL;
          g_autoptr(SeismoTrace) panned = NULL;

          t0 = g_get_monotonic_time ();
          window = seismo_file_summary_load_window (s, mid - half, mid + half, 8u << 20, NULL, &error);
          if (window == NULL)
            {
              g_printerr ("%s: %s\n", argv[0], error->message);
              return EXIT_FAILURE;
            }
          g_print ("  load its chunks:   %8.1f ms  (%" G_GSIZE_FORMAT " events, peak RSS %.0f MiB)\n",
                   ms_since (t0), seismo_trace_get_n_events (window), peak_rss_mib ());
          t0 = g_get_monotonic_time ();
          panned = seismo_file_summary_load_window (s, mid + half, mid + 3 * half, 8u << 20, NULL,
                                                    &error);
          if (panned == NULL)
            {
              g_printerr ("%s: %s\n", argv[0], error->message);
              return EXIT_FAILURE;
            }
          g_print ("  pan one view:      %8.1f ms  (%" G_GSIZE_FORMAT " events)\n", ms_since (t0),
                   seismo_trace_get_n_events (panned));
          break;
        }
    }

  {
    guint64 n;
    g_autofree guint64 *counts = NULL;

    t0 = g_get_monotonic_time ();
    counts = seismo_file_summary_range_type_counts (s, start + span / 3, start + span / 2, &n);
    g_print ("range stats (1/6):   %8.2f ms  (%" G_GUINT64_FORMAT " events by type)\n", ms_since (t0), n);
  }
  g_print ("peak RSS:            %8.0f MiB\n", peak_rss_mib ());
  return EXIT_SUCCESS;
}

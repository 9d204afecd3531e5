/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-open-bench FILE [RUNS]: the window's load thread, phase by phase, without a display
 * (app/seismo-window.c, load_thread): reading the file (seismo_trace_open), the per-CPU and
 * per-task indexes, and the timeline data the first frame draws. Prints each phase's wall and
 * CPU time (best of RUNS) and the peak resident memory, so that a slow launch can be pinned to
 * the phase that is slow, which the GUI benchmark (bench/gui-interact-bench.py) cannot tell.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "seismo-backend.h"
#include "seismo-importer.h"
#include "seismo-timeline-data.h"
#include "seismo-trace.h"

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
  static const char *phases[] = { "read (seismo_trace_open)", "indexes (per CPU, per task)",
                                  "timeline data", "total" };
  double best_wall[4] = { 1e9, 1e9, 1e9, 1e9 }, best_cpu[4] = { 1e9, 1e9, 1e9, 1e9 };
  int runs = argc > 2 ? atoi (argv[2]) : 3;
  gsize n_events = 0;
  struct rusage ru;

  if (argc < 2)
    {
      fprintf (stderr, "usage: seismo-open-bench FILE [RUNS]\n");
      return 2;
    }
  seismo_backends_init ();
  for (int r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoTrace) trace = NULL;
      g_autoptr(SeismoTimelineData) data = NULL;
      double wall[5], cpu[5];
      gsize n;

      wall[0] = g_get_monotonic_time () / 1e6, cpu[0] = cpu_now ();
      if (!(trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error)))
        {
          fprintf (stderr, "seismo-open-bench: %s\n", error->message);
          return 1;
        }
      wall[1] = g_get_monotonic_time () / 1e6, cpu[1] = cpu_now ();
      seismo_trace_get_cpu_events (trace, 0, &n);
      seismo_trace_find_task (trace, 0, 0);
      wall[2] = g_get_monotonic_time () / 1e6, cpu[2] = cpu_now ();
      data = seismo_timeline_data_new_for_window (trace, NULL, NULL);
      wall[3] = g_get_monotonic_time () / 1e6, cpu[3] = cpu_now ();
      n_events = seismo_trace_get_n_events (trace);
      for (int p = 0; p < 3; p++)
        {
          best_wall[p] = MIN (best_wall[p], wall[p + 1] - wall[p]);
          best_cpu[p] = MIN (best_cpu[p], cpu[p + 1] - cpu[p]);
        }
      best_wall[3] = MIN (best_wall[3], wall[3] - wall[0]);
      best_cpu[3] = MIN (best_cpu[3], cpu[3] - cpu[0]);
    }
  getrusage (RUSAGE_SELF, &ru);
  printf ("%s: %" G_GSIZE_FORMAT " events, best of %d\n", argv[1], n_events, runs);
  for (int p = 0; p < 4; p++)
    printf ("  %-30s %7.3f s wall %7.3f s CPU\n", phases[p], best_wall[p], best_cpu[p]);
  printf ("  peak RSS %.0f MiB\n", ru.ru_maxrss / 1024.0);
  return 0;
}

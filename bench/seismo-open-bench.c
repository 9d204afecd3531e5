/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-open-bench FILE [RUNS]: the window's load thread, phase by phase, without a display
 * (app/seismo-window-read.c, seismo_window_read): reading the file (seismo_trace_open), the
 * indexes it builds, and the timeline data the first frame draws. Prints each phase's wall and CPU time (best of
 * RUNS), the resident memory after it (last run) and the peak so far, so that a slow or large
 * launch can be pinned to the phase that is, which the GUI benchmark
 * (bench/gui-interact-bench.py) cannot tell.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* VmRSS and VmHWM in MiB: what each phase keeps, and the highest it went. */
static void
read_rss (double *rss,
          double *hwm)
{
  g_autofree char *status = NULL;
  const char *p;

  *rss = *hwm = 0;
  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return;
  if ((p = strstr (status, "VmRSS:")) != NULL)
    *rss = g_ascii_strtod (p + 6, NULL) / 1024;
  if ((p = strstr (status, "VmHWM:")) != NULL)
    *hwm = g_ascii_strtod (p + 6, NULL) / 1024;
}

int
main (int   argc,
      char *argv[])
{
  static const char *phases[] = { "read (seismo_trace_open)", "indexes (tid to task)",
                                  "timeline data", "total" };
  double best_wall[4] = { 1e9, 1e9, 1e9, 1e9 }, best_cpu[4] = { 1e9, 1e9, 1e9, 1e9 };
  double rss[4] = { 0 }, hwm[4] = { 0 };
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

      wall[0] = g_get_monotonic_time () / 1e6, cpu[0] = cpu_now ();
      if (!(trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error)))
        {
          fprintf (stderr, "seismo-open-bench: %s\n", error->message);
          return 1;
        }
      wall[1] = g_get_monotonic_time () / 1e6, cpu[1] = cpu_now ();
      read_rss (&rss[0], &hwm[0]);
      seismo_trace_find_task (trace, 0, 0);
      wall[2] = g_get_monotonic_time () / 1e6, cpu[2] = cpu_now ();
      read_rss (&rss[1], &hwm[1]);
      data = seismo_timeline_data_new_for_window (trace, NULL, NULL);
      wall[3] = g_get_monotonic_time () / 1e6, cpu[3] = cpu_now ();
      read_rss (&rss[2], &hwm[2]);
      rss[3] = rss[2], hwm[3] = hwm[2];
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
    printf ("  %-30s %7.3f s wall %7.3f s CPU   RSS after %4.0f MiB, peak so far %4.0f MiB\n",
            phases[p], best_wall[p], best_cpu[p], rss[p], hwm[p]);
  printf ("  peak RSS %.0f MiB\n", ru.ru_maxrss / 1024.0);
  return 0;
}

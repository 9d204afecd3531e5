/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-derive-bench FILE [RUNS]: what deriving a loaded trace's intervals costs (the step after
 * reading, before the window can show it), with the syscall pass in one range against in ranges
 * on every worker (the default), alternating, RUNS times each (default 7): wall and CPU time of
 * each run, then the best and median of each way. The derive allocates its spans anew each run,
 * so fresh memory is in the figures, as it is in a load.
 *
 *   build/bench/seismo-derive-bench /work/big/big-v6.dat 9
 */

#include <stdlib.h>

#include "seismo-bench-util.h"
#include "seismo-backend.h"
#include "seismo-importer.h"
#include "seismo-trace-private.h"

static void
print_way (const char *what,
           double     *wall,
           double     *cpu,
           guint       runs)
{
  qsort (wall, runs, sizeof *wall, seismo_bench_compare_doubles);
  qsort (cpu, runs, sizeof *cpu, seismo_bench_compare_doubles);
  g_print ("%-28s best %.3f s, median %.3f s wall; median %.3f s CPU\n", what, wall[0], wall[runs / 2],
           cpu[runs / 2]);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  guint runs = argc > 2 ? (guint) CLAMP (atoi (argv[2]), 1, 1000) : 7;
  g_autofree double *wall[2] = { g_new (double, runs), g_new (double, runs) };
  g_autofree double *cpu[2] = { g_new (double, runs), g_new (double, runs) };
  const char *ways[2] = { "syscalls in one range", "syscalls in ranges" };

  if (argc < 2)
    {
      g_printerr ("Usage: %s FILE [RUNS]\n", argv[0]);
      return 2;
    }
  seismo_backends_init ();
  trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("%s: %" G_GSIZE_FORMAT " events, %" G_GSIZE_FORMAT " syscall spans, %u processors\n", argv[1],
           seismo_trace_get_n_events (trace), trace->n_spans, g_get_num_processors ());
  for (guint r = 0; r < runs; r++)
    for (guint w = 0; w < 2; w++)
      {
        gint64 t0;
        double c0;

        _seismo_derive_syscall_ranges = w == 0 ? 1 : 0;
        t0 = g_get_monotonic_time ();
        c0 = seismo_bench_process_cpu_s ();
        _seismo_trace_derive (trace);
        wall[w][r] = (g_get_monotonic_time () - t0) / 1e6;
        cpu[w][r] = seismo_bench_process_cpu_s () - c0;
        g_print ("  run %u, %-22s %.3f s wall, %.3f s CPU\n", r + 1, ways[w], wall[w][r], cpu[w][r]);
      }
  for (guint w = 0; w < 2; w++)
    print_way (ways[w], wall[w], cpu[w], runs);
  return 0;
}

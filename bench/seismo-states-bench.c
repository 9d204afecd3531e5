/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-states-bench [--runs R] [N | FILE]: what thread states and the critical path cost, over a
 * synthetic trace of N events (default 10M, the seismo-gen trace) or a trace file in any format
 * seismo opens (a trace.dat is imported as the app does):
 * - load time with and without thread states (loads alternate, medians of R; CPU time of all
 *   threads beside wall time, since the machine may be shared), and the states' resident bytes per
 *   event;
 * - the derive alone, one thread, with and without states (CPU time, alternating, medians of R);
 * - the critical path over the whole trace of the task with the most states (median of R), and the
 *   slowest path of all tasks';
 * - the same path off the main thread (seismo_critical_path_compute_async, as the GUI runs it):
 *   time to the result and the longest the main loop went without running meanwhile;
 * - runnable-latency histograms of every task over the whole trace (the statistics pane's column).
 *
 *   build/bench/seismo-states-bench --runs 3 /work/big/big-v6.dat
 */

#include <glib/gstdio.h>
#include <stdlib.h>
#include <time.h>

#include "seismo-bench-util.h"
#include "seismo-critical-path.h"
#include "seismo-backend.h"
#include "seismo-file.h"
#include "seismo-importer.h"
#include "seismo-runnable-latency.h"
#include "seismo-synth.h"
#include "seismo-trace-private.h"

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, seismo_bench_compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct {
  GMainLoop *loop;
  GArray    *path;
  gint64     last_tick;
  gint64     max_gap;   /* µs between two main-loop ticks */
  guint      ticks;
} AsyncRun;

static gboolean
tick (gpointer data)
{
  AsyncRun *run = data;
  gint64 now = g_get_monotonic_time ();

  run->max_gap = MAX (run->max_gap, now - run->last_tick);
  run->last_tick = now;
  run->ticks++;
  return G_SOURCE_CONTINUE;
}

static void
async_done (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  AsyncRun *run = data;
  g_autoptr(GError) error = NULL;

  run->path = seismo_critical_path_compute_finish (result, &error);
  g_assert_no_error (error);
  g_main_loop_quit (run->loop);
}

static SeismoTrace *
load (const char *path,
      double     *wall,
      double     *cpu)
{
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = seismo_bench_process_cpu_s ();
  SeismoTrace *trace = seismo_trace_open (path, NULL, NULL, NULL, &error);

  *wall = (g_get_monotonic_time () - t0) / 1e6;
  *cpu = seismo_bench_process_cpu_s () - c0;
  if (trace == NULL)
    {
      g_printerr ("seismo-states-bench: %s\n", error->message);
      exit (EXIT_FAILURE);
    }
  return trace;
}

int
main (int   argc,
      char *argv[])
{
  gint runs = 5;
  GOptionEntry entries[] = {
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Timed repetitions (default 5)", "R" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[N | FILE]");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autofree double *wall_on = NULL, *wall_off = NULL, *cpu_on = NULL, *cpu_off = NULL;
  g_autofree double *path_ms = NULL, *path_cpu = NULL;
  gsize state_bytes, most = 0;
  SeismoTaskId busiest = 0;
  guint n_segments = 0, worst_segments = 0;
  g_autofree double *derive_on = NULL, *derive_off = NULL;
  double worst_ms = 0;
  SeismoTaskId worst = 0;
  double async_ms = 0, async_stall_ms = 0, latency_ms = 0;
  guint async_ticks = 0;
  guint64 n_latencies = 0;

  seismo_backends_init ();
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || runs < 1)
    {
      g_printerr ("seismo-states-bench: %s\n", error ? error->message : "--runs takes 1 or more");
      return EXIT_FAILURE;
    }
  if (argc > 1 && g_file_test (argv[1], G_FILE_TEST_EXISTS))
    path = g_strdup (argv[1]);
  else
    {
      guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 10000000;
      SeismoTraceBuilder *b = seismo_trace_builder_new ();
      g_autoptr(SeismoTrace) made = NULL;
      SeismoSynthOptions options = SEISMO_SYNTH_DEFAULTS;

      seismo_synth_generate (b, n, &options);
      made = seismo_trace_builder_finish (b);
      dir = g_dir_make_tmp ("seismo-states-bench-XXXXXX", &error);
      g_assert_no_error (error);
      path = g_build_filename (dir, "synth.seismo", NULL);
      if (!seismo_file_save (made, path, &error))
        {
          g_printerr ("seismo-states-bench: %s\n", error->message);
          return EXIT_FAILURE;
        }
    }

  wall_on = g_new (double, runs);
  wall_off = g_new (double, runs);
  cpu_on = g_new (double, runs);
  cpu_off = g_new (double, runs);
  /* Alternating, each load with no other trace alive, starting with either on odd and even runs:
   * what one leaves behind (freed memory to reuse, caches) favours neither. */
  for (gint r = 0; r < runs; r++)
    for (gint k = 0; k < 2; k++)
      {
        gboolean on = (k + r) % 2 == 0;

        g_clear_object (&trace);
        _seismo_derive_thread_states = on;
        trace = load (path, on ? &wall_on[r] : &wall_off[r], on ? &cpu_on[r] : &cpu_off[r]);
      }
  if (!_seismo_derive_thread_states)
    {
      _seismo_derive_thread_states = TRUE;
      g_clear_object (&trace);
      trace = load (path, &wall_on[0], &cpu_on[0]);
    }

  g_assert (trace != NULL);
  state_bytes = trace->n_state_spans * sizeof (SeismoStateSpan) +
                (trace->state_off ? (trace->n_tasks + 1) * sizeof (gsize) : 0);
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      gsize n;

      seismo_trace_get_task_states (trace, t, &n);
      if (n > most)
        {
          most = n;
          busiest = t;
        }
    }

  derive_on = g_new (double, runs);
  derive_off = g_new (double, runs);
  path_ms = g_new (double, runs);
  path_cpu = g_new (double, runs);
  for (gint r = 0; r < runs; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = seismo_bench_thread_cpu_ms ();
      g_autoptr(GArray) path_segments = seismo_critical_path_compute (trace, busiest, 0, G_MAXUINT64,
                                                                      NULL, &error);

      path_ms[r] = (g_get_monotonic_time () - t0) / 1e3;
      path_cpu[r] = seismo_bench_thread_cpu_ms () - c0;
      g_assert_no_error (error);
      n_segments = path_segments->len;
    }

  {
    AsyncRun run = { g_main_loop_new (NULL, FALSE), NULL, 0, 0, 0 };
    guint source = g_timeout_add (1, tick, &run);
    gint64 t0 = g_get_monotonic_time ();

    run.last_tick = t0;
    seismo_critical_path_compute_async (trace, busiest, 0, G_MAXUINT64, NULL, async_done, &run);
    g_main_loop_run (run.loop);
    async_ms = (g_get_monotonic_time () - t0) / 1e3;
    tick (&run);
    async_stall_ms = run.max_gap / 1e3;
    async_ticks = run.ticks - 1;
    g_source_remove (source);
    g_main_loop_unref (run.loop);
    g_array_unref (run.path);
  }

  {
    gint64 t0 = g_get_monotonic_time ();

    for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
      {
        g_autoptr(SeismoLatencyHistogram) h = seismo_runnable_latency_histogram (trace, t, 0, G_MAXUINT64);
        SeismoLatencySummary sum;

        seismo_latency_histogram_get_summary (h, &sum);
        n_latencies += sum.count;
      }
    latency_ms = (g_get_monotonic_time () - t0) / 1e3;
  }

  g_setenv ("SEISMO_THREADS", "1", TRUE);
  for (gint r = 0; r < runs; r++)
    {
      double c0;

      _seismo_derive_thread_states = FALSE;
      c0 = seismo_bench_process_cpu_s ();
      _seismo_trace_derive (trace);
      derive_off[r] = seismo_bench_process_cpu_s () - c0;
      _seismo_derive_thread_states = TRUE;
      c0 = seismo_bench_process_cpu_s ();
      _seismo_trace_derive (trace);
      derive_on[r] = seismo_bench_process_cpu_s () - c0;
    }
  g_unsetenv ("SEISMO_THREADS");

  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      double c0 = seismo_bench_thread_cpu_ms ();
      g_autoptr(GArray) segments = seismo_critical_path_compute (trace, t, 0, G_MAXUINT64, NULL, NULL);
      double took = seismo_bench_thread_cpu_ms () - c0;

      if (segments != NULL && took > worst_ms)
        {
          worst_ms = took;
          worst = t;
          worst_segments = segments->len;
        }
    }

  g_print ("== %s: %zu events, %u tasks, %u CPUs ==\n", dir ? "synthetic" : path,
           seismo_trace_get_n_events (trace), seismo_trace_get_n_tasks (trace),
           seismo_trace_get_n_cpus (trace));
  g_print ("states   %zu spans, %.2f bytes/event resident\n", trace->n_state_spans,
           (double) state_bytes / MAX (seismo_trace_get_n_events (trace), 1));
  g_print ("load     without states %.3f s wall, %.3f s CPU; with states %.3f s wall, %.3f s CPU "
           "(%+.1f%% wall, %+.1f%% CPU)\n",
           median (wall_off, runs), median (cpu_off, runs), median (wall_on, runs),
           median (cpu_on, runs),
           100.0 * (median (wall_on, runs) / median (wall_off, runs) - 1),
           100.0 * (median (cpu_on, runs) / median (cpu_off, runs) - 1));
  g_print ("critical path of tid %d (%zu states) over the whole trace: %.1f ms wall, %.1f ms CPU, "
           "%u segments\n", seismo_trace_get_task (trace, busiest)->tid, most,
           median (path_ms, runs), median (path_cpu, runs), n_segments);
  g_print ("critical path of tid %d off the main thread: result after %.1f ms wall; meanwhile the main "
           "loop ran a 1 ms timer %u times, at most %.1f ms apart\n",
           seismo_trace_get_task (trace, busiest)->tid, async_ms, async_ticks, async_stall_ms);
  g_print ("runnable latency of every task over the whole trace: %" G_GUINT64_FORMAT " waits, %.1f ms\n",
           n_latencies, latency_ms);
  g_print ("derive   one thread: without states %.3f s CPU, with states %.3f s CPU (%+.1f%%)\n",
           median (derive_off, runs), median (derive_on, runs),
           100.0 * (median (derive_on, runs) / median (derive_off, runs) - 1));
  /* On a shared machine whole loads vary more than the states cost; the derive alone, on one thread,
   * measures that cost with less noise: its extra CPU time against a whole load's. */
  g_print ("states' share of the load: %.3f s CPU of derive on one thread against %.3f s CPU per load "
           "(%+.1f%%)\n", median (derive_on, runs) - median (derive_off, runs), median (cpu_off, runs),
           100.0 * (median (derive_on, runs) - median (derive_off, runs)) / median (cpu_off, runs));
  g_print ("critical path of every task over the whole trace: slowest %.1f ms CPU (tid %d, %u segments)\n",
           worst_ms, seismo_trace_get_task (trace, worst)->tid, worst_segments);
  {
    g_autofree char *loadavg = NULL;

    g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL);
    g_print ("(medians of %d runs; load average %s)\n", runs, loadavg ? g_strchomp (loadavg) : "?");
  }
  if (dir != NULL)
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  return EXIT_SUCCESS;
}

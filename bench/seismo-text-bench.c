/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * seismo-text-bench [LINES] [RUNS] [DIR]
 *
 * ftrace text import rate. Writes three files of LINES lines each (default 2000000) to DIR
 * (default $TMPDIR), loads each RUNS times (default 3) with seismo_trace_open() and prints the
 * median: MB/s and lines/s, wall and CPU time.
 *   events.txt          tracefs `trace` text: sched_switch, sched_waking, raw_syscalls, irq
 *   funcgraph-abs.txt   function_graph with funcgraph-abstime and funcgraph-proc
 *   funcgraph.txt       function_graph, default options (no times: durations only)
 * The files are removed at the end unless SEISMO_BENCH_KEEP=1 (to time another build's
 * `seismo-cli info` on the same files).
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "seismo-bench-util.h"
#include "seismo-importer.h"
#include "seismo-trace.h"

static const char *const comms[] = { "bash", "kworker/0:1", "gcc", "cc1", "Xorg", "sshd" };
static const char *const funcs[] = {
  "do_sys_open", "getname", "kmem_cache_alloc", "__might_sleep", "strncpy_from_user",
  "might_fault", "vfs_read", "rw_verify_area", "seq_read_iter", "_raw_spin_lock",
  "_raw_spin_unlock_irqrestore", "rcu_read_lock_held", "fput", "dput", "mutex_lock",
};

static void
write_events (FILE   *f,
              guint64 lines)
{
  guint64 ts = G_GUINT64_CONSTANT (1000000000000);

  fputs ("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:4\n#\n"
         "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
         "#              | |         |   |||||     |         |\n", f);
  for (guint64 i = 0; i < lines; i++)
    {
      guint cpu = i % 4;
      int pid = 1000 + (int) (i % 97);
      const char *comm = comms[pid % G_N_ELEMENTS (comms)];

      ts += 1000 + i % 777;
      switch (i % 8)
        {
        case 0:
          fprintf (f, "%16s-%-7d [%03u] d..2. %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                   ": sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> "
                   "next_comm=%s next_pid=%d next_prio=120\n", comm, pid, cpu, ts / 1000000000,
                   ts / 1000 % 1000000, comm, pid, comms[(pid + 1) % G_N_ELEMENTS (comms)], pid + 1);
          break;
        case 1:
          fprintf (f, "%16s-%-7d [%03u] d..3. %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                   ": sched_waking: comm=%s pid=%d prio=120 target_cpu=%03u\n", comm, pid, cpu,
                   ts / 1000000000, ts / 1000 % 1000000, comm, pid + 3, (cpu + 1) % 4);
          break;
        case 2:
          fprintf (f, "%16s-%-7d [%03u] d.h1. %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                   ": irq_handler_entry: irq=16 name=eth0\n", comm, pid, cpu, ts / 1000000000,
                   ts / 1000 % 1000000);
          break;
        case 3:
          fprintf (f, "%16s-%-7d [%03u] d.h1. %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                   ": irq_handler_exit: irq=16 ret=handled\n", comm, pid, cpu, ts / 1000000000,
                   ts / 1000 % 1000000);
          break;
        case 4:
        case 6:
          fprintf (f, "%16s-%-7d [%03u] ..... %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                   ": sys_enter: NR %u (3, 7ffd1a2b3c40, 2000, 0, 0, 0)\n", comm, pid, cpu,
                   ts / 1000000000, ts / 1000 % 1000000, (guint) (i % 300));
          break;
        default:
          fprintf (f, "%16s-%-7d [%03u] ..... %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                   ": sys_exit: NR %u = 8192\n", comm, pid, cpu, ts / 1000000000,
                   ts / 1000 % 1000000, (guint) ((i - 1) % 300));
          break;
        }
    }
}

/* Nested calls: a walk that goes down to depth 8 and back, leaves at the bottom. */
static void
write_funcgraph (FILE     *f,
                 guint64   lines,
                 gboolean  abstime)
{
  guint64 ts = G_GUINT64_CONSTANT (2000000000000);
  int depth = 0, stack[16];
  GRand *rand = g_rand_new_with_seed (42);

  fputs (abstime ? "# tracer: function_graph\n#\n#     TIME        CPU  TASK/PID         DURATION"
                   "                  FUNCTION CALLS\n"
                 : "# tracer: function_graph\n#\n# CPU  DURATION                  FUNCTION CALLS\n",
         f);
  for (guint64 i = 0; i < lines; i++)
    {
      guint cpu = (guint) (i / 5000) % 4;
      int r = g_rand_int_range (rand, 0, 3);
      char prefix[96];

      ts += 150 + (guint64) g_rand_int_range (rand, 0, 400);
      if (abstime)
        g_snprintf (prefix, sizeof prefix, " %6" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT
                    " |   %u)    %s-%d    |", ts / 1000000000, ts / 1000 % 1000000, cpu,
                    comms[cpu], 1000 + (int) cpu);
      else
        g_snprintf (prefix, sizeof prefix, " %u)", cpu);
      if ((r == 0 && depth < 8) || depth == 0)
        {
          int fn = g_rand_int_range (rand, 0, G_N_ELEMENTS (funcs));

          stack[depth] = fn;
          fprintf (f, "%s               |  %*s%s() {\n", prefix, depth * 2, "", funcs[fn]);
          depth++;
        }
      else if (r == 1)
        fprintf (f, "%s   0.%03d us    |  %*s%s();\n", prefix, g_rand_int_range (rand, 50, 999),
                 depth * 2, "", funcs[g_rand_int_range (rand, 0, G_N_ELEMENTS (funcs))]);
      else
        {
          depth--;
          fprintf (f, "%s   %d.%03d us    |  %*s} /* %s */\n", prefix,
                   g_rand_int_range (rand, 1, 9), g_rand_int_range (rand, 0, 999), depth * 2, "",
                   funcs[stack[depth]]);
        }
    }
  g_rand_free (rand);
}

static void
bench_file (const char *path,
            guint64     lines,
            guint       runs)
{
  g_autoptr(GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (double));
  GStatBuf st;
  gsize n_events = 0;

  g_stat (path, &st);
  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoTrace) trace = NULL;
      gint64 t0 = g_get_monotonic_time ();
      double c0 = seismo_bench_thread_cpu_ms ();
      double wall, cpu;

      trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
      if (trace == NULL)
        g_error ("%s: %s", path, error->message);
      wall = (g_get_monotonic_time () - t0) / 1e6;
      cpu = (seismo_bench_thread_cpu_ms () - c0) / 1e3;
      n_events = seismo_trace_get_n_events (trace);
      g_array_append_val (walls, wall);
      g_array_append_val (cpus, cpu);
    }
  g_array_sort (walls, seismo_bench_compare_doubles);
  g_array_sort (cpus, seismo_bench_compare_doubles);
  {
    double wall = g_array_index (walls, double, runs / 2);
    double cpu = g_array_index (cpus, double, runs / 2);
    double mb = st.st_size / 1e6;

    printf ("%-18s %9" G_GUINT64_FORMAT " %8.1f %9" G_GSIZE_FORMAT " %8.3f %8.3f %8.1f %8.2f\n",
            g_path_get_basename (path), lines, mb, n_events, wall, cpu, mb / cpu, lines / cpu / 1e6);
  }
}

int
main (int    argc,
      char **argv)
{
  guint64 lines = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 2000000;
  guint runs = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 3;
  const char *dir = argc > 3 ? argv[3] : g_get_tmp_dir ();
  const char *names[] = { "events.txt", "funcgraph-abs.txt", "funcgraph.txt" };
  gboolean keep = g_strcmp0 (g_getenv ("SEISMO_BENCH_KEEP"), "1") == 0;

  runs = MAX (runs, 1);
  printf ("ftrace text import, %u runs each, medians (MB/s and Mlines/s of CPU time)\n", runs);
  printf ("%-18s %9s %8s %9s %8s %8s %8s %8s\n", "file", "lines", "MB", "events", "wall s",
          "CPU s", "MB/s", "Ml/s");
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = g_build_filename (dir, names[k], NULL);
      FILE *f = fopen (path, "w");

      if (f == NULL)
        g_error ("could not write %s", path);
      if (k == 0)
        write_events (f, lines);
      else
        write_funcgraph (f, lines, k == 1);
      fclose (f);
      bench_file (path, lines, runs);
      if (!keep)
        g_unlink (path);
    }
  return 0;
}

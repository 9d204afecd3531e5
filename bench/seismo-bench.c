/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-bench [--runs R] [--dir DIR] [N...]: data layer figures for synthetic traces of N events
 * (default 1M and 10M): builder throughput, resident bytes per event, .seismo size, write and
 * load rates. Timed steps are repeated R times (default 5) and the median is printed; loads with
 * one thread and with all run alternately, so both see the same machine load.
 */

#include <glib/gstdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-synth.h"
#include "seismo-trace-private.h"

static gsize
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  g_auto(GStrv) fields = NULL;

  /* Freed blocks glibc still holds would count as resident: give them back first. */
  malloc_trim (0);
  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    return 0;
  fields = g_strsplit (statm, " ", 3);
  if (fields[0] == NULL || fields[1] == NULL)
    return 0;
  return (gsize) g_ascii_strtoull (fields[1], NULL, 10) * (gsize) sysconf (_SC_PAGESIZE);
}

static char *
load_average (void)
{
  static char text[64];
  g_autofree char *contents = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &contents, NULL, NULL))
    return "unknown";
  g_strlcpy (text, contents, sizeof text);
  g_strchomp (text);
  return text;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* CPU time of all the process's threads: on a shared machine wall time says little, CPU time says
 * how much work a step is. */
static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct {
  double wall;
  double cpu;
} Timing;

typedef struct {
  double t0;
  double c0;
} Clock;

static Clock
clock_start (void)
{
  return (Clock) { now_s (), cpu_s () };
}

static Timing
clock_stop (Clock c)
{
  return (Timing) { now_s () - c.t0, cpu_s () - c.c0 };
}

static void
die (const char *what,
     GError     *error)
{
  g_printerr ("seismo-bench: %s: %s\n", what, error->message);
  exit (EXIT_FAILURE);
}

static void
set_threads (const char *threads)
{
  if (threads != NULL)
    g_setenv ("SEISMO_THREADS", threads, TRUE);
  else
    g_unsetenv ("SEISMO_THREADS");
}

static Timing
time_load (const char *path,
           const char *threads)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;
  Clock c;
  Timing t;

  set_threads (threads);
  c = clock_start ();
  trace = seismo_file_load (path, NULL, NULL, NULL, &error);
  t = clock_stop (c);
  if (trace == NULL)
    die ("load", error);
  g_object_unref (trace);
  return t;
}

/* The format's part of a load (read, decompress, validate) and the model's (sort, derive). */
static void
time_read (const char *path,
           Timing     *read,
           Timing     *derive)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;
  Clock c;

  set_threads (NULL);
  c = clock_start ();
  trace = _seismo_file_read (path, NULL, NULL, NULL, &error);
  *read = clock_stop (c);
  if (trace == NULL)
    die ("read", error);
  c = clock_start ();
  _seismo_trace_sort (trace);
  _seismo_trace_derive (trace);
  *derive = clock_stop (c);
  g_object_unref (trace);
}

typedef struct {
  double *wall;
  double *cpu;
  guint   n;
} Samples;

static Samples *
samples_new (guint runs)
{
  Samples *s = g_new0 (Samples, 1);

  s->wall = g_new (double, runs);
  s->cpu = g_new (double, runs);
  return s;
}

static void
samples_add (Samples *s,
             Timing   t)
{
  s->wall[s->n] = t.wall;
  s->cpu[s->n] = t.cpu;
  s->n++;
}

static Timing
samples_median (Samples *s)
{
  return (Timing) { median (s->wall, s->n), median (s->cpu, s->n) };
}

static void
samples_free (Samples *s)
{
  g_free (s->wall);
  g_free (s->cpu);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Samples, samples_free)

static void
bench (guint64     n,
       guint       runs,
       const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "seismo-bench.seismo", NULL);
  g_autofree char *stream_path = g_build_filename (dir, "seismo-bench-stream.seismo", NULL);
  g_autoptr(Samples) save = samples_new (runs);
  g_autoptr(Samples) loadn = samples_new (runs);
  g_autoptr(Samples) load1 = samples_new (runs);
  g_autoptr(Samples) read = samples_new (runs);
  g_autoptr(Samples) derive = samples_new (runs);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFileWriter) writer = NULL;
  SeismoSynthOptions options = SEISMO_SYNTH_DEFAULTS;
  SeismoTraceBuilder *builder;
  SeismoTrace *trace;
  gsize rss0, rss1, rss2, rss3, model;
  Timing gen, append, finish, stream, t;
  Clock c;
  struct stat st;
  guint n_threads = _seismo_file_n_workers ();

  g_print ("== %" G_GUINT64_FORMAT " events (%u CPUs, %u tasks, seed %u; %u threads) ==\n", n,
           options.n_cpus, options.n_tasks, options.seed, n_threads);

  c = clock_start ();
  seismo_synth_generate (NULL, n, &options);
  gen = clock_stop (c);

  rss0 = resident_bytes ();
  c = clock_start ();
  builder = seismo_trace_builder_new ();
  seismo_synth_generate (builder, n, &options);
  append = clock_stop (c);

  /* The whole recording through the streaming writer: what a recorder's flushes and commit cost. */
  c = clock_start ();
  writer = seismo_file_writer_new (stream_path, &error);
  if (writer == NULL || !seismo_file_writer_commit (writer, builder, &error))
    die ("stream", error);
  stream = clock_stop (c);
  g_clear_pointer (&writer, seismo_file_writer_free);

  c = clock_start ();
  trace = seismo_trace_builder_finish (builder);
  finish = clock_stop (c);
  rss1 = resident_bytes ();
  model = seismo_trace_get_memory_size (trace);
  n = seismo_trace_get_n_events (trace);

  for (guint r = 0; r < runs; r++)
    {
      c = clock_start ();
      if (!seismo_file_save (trace, path, &error))
        die ("save", error);
      samples_add (save, clock_stop (c));
    }
  if (g_stat (path, &st) < 0)
    g_error ("stat %s failed", path);
  g_object_unref (trace);

  /* A loaded trace's arrays are allocated differently (huge pages): count its memory too. */
  rss2 = resident_bytes ();
  trace = seismo_file_load (path, NULL, NULL, NULL, &error);
  if (trace == NULL)
    die ("load", error);
  rss3 = resident_bytes ();
  g_object_unref (trace);

  /* Alternated, so that every variant sees the same share of a busy machine. */
  for (guint r = 0; r < runs; r++)
    {
      Timing rt, dt;

      samples_add (loadn, time_load (path, NULL));
      samples_add (load1, time_load (path, "1"));
      time_read (path, &rt, &dt);
      samples_add (read, rt);
      samples_add (derive, dt);
    }
  set_threads (NULL);

#define RATE(t) (n / (t) / 1e6)
  g_print ("build    %.2f M events/s through the builder: append %.2f s wall (generator alone "
           "%.2f s), finish (sort + derive) %.2f s; CPU %.2f s\n",
           RATE (append.wall + finish.wall), append.wall, gen.wall, finish.wall,
           append.cpu + finish.cpu);
  g_print ("         append alone (builder minus generator): %.2f M events/s CPU\n",
           RATE (MAX (append.cpu - gen.cpu, 1e-9)));
  g_print ("memory   %.1f bytes/event model (seismo_trace_get_memory_size), %.1f bytes/event "
           "RSS delta built, %.1f loaded\n", (double) model / n, ((double) rss1 - (double) rss0) / n,
           ((double) rss3 - (double) rss2) / n);
  g_print ("file     %.2f bytes/event (%.1f MB)\n", (double) st.st_size / n, st.st_size / 1e6);
  t = samples_median (save);
  g_print ("write    save %.2f M events/s (%.3f s wall, %.3f s CPU)\n", RATE (t.wall), t.wall,
           t.cpu);
  g_print ("         streaming writer (flush + commit) %.2f M events/s (%.3f s wall, %.3f s CPU)\n",
           RATE (stream.wall), stream.wall, stream.cpu);
  t = samples_median (loadn);
  g_print ("load     %.2f M events/s with %u threads (%.3f s wall, %.3f s CPU)\n", RATE (t.wall),
           n_threads, t.wall, t.cpu);
  t = samples_median (load1);
  g_print ("         %.2f M events/s with 1 thread (%.3f s wall, %.3f s CPU)\n", RATE (t.wall),
           t.wall, t.cpu);
  t = samples_median (read);
  g_print ("  format: read + decompress + validate %.2f M events/s (%.3f s wall, %.3f s CPU)\n",
           RATE (t.wall), t.wall, t.cpu);
  t = samples_median (derive);
  g_print ("  model:  sort + derive %.2f M events/s (%.3f s wall, %.3f s CPU)\n", RATE (t.wall),
           t.wall, t.cpu);
  g_print ("(medians of %u runs; file in the page cache; load average %s)\n", runs,
           load_average ());
#undef RATE

  g_unlink (path);
  g_unlink (stream_path);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_strdup (g_get_tmp_dir ());
  guint runs = 5;
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--runs") && i + 1 < argc)
        {
          runs = (guint) g_ascii_strtoull (argv[++i], NULL, 10);
          runs = MAX (runs, 1);
        }
      else if (g_str_equal (argv[i], "--dir") && i + 1 < argc)
        {
          g_free (dir);
          dir = g_strdup (argv[++i]);
        }
      else
        {
          guint64 n = g_ascii_strtoull (argv[i], NULL, 10);

          if (n == 0 || n >= G_MAXUINT32 - 1)
            {
              g_printerr ("Usage: %s [--runs R] [--dir DIR] [N...]\n", argv[0]);
              return EXIT_FAILURE;
            }
          g_array_append_val (sizes, n);
        }
    }
  if (sizes->len == 0)
    {
      guint64 defaults[] = { 1000000, 10000000 };

      g_array_append_vals (sizes, defaults, G_N_ELEMENTS (defaults));
    }

  for (guint i = 0; i < sizes->len; i++)
    bench (g_array_index (sizes, guint64, i), runs, dir);
  g_array_unref (sizes);
  return EXIT_SUCCESS;
}

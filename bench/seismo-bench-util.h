/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <time.h>

#include <glib.h>

/* Frame timings of the GUI benchmarks (seismo-render-bench, seismo-list-bench). */

/* The calling thread's CPU time in ms: on a shared machine wall time also counts the waits for
 * a core, this only the work. */
static inline double
seismo_bench_thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The whole process's CPU time in seconds, every thread's: work a shared machine's waits leave out. */
static inline double
seismo_bench_process_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* For qsort() and g_array_sort() of doubles. */
static inline int
seismo_bench_compare_doubles (gconstpointer a,
                              gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-rate-bench FILE [RUNS] [EXPR…]: what the rate strip above the timeline costs for the
 * whole trace at 1900 pixels, as seismo_rate_view_render() computes and draws it (the worker's
 * counting is most of it): CPU ms of the calling thread, best and median of RUNS (default 9),
 * with no filter and with each filter expression (default "cpu == 0", about half the events at
 * random, and "syscall == read"). Needs no display.
 */

#include <stdio.h>
#include <stdlib.h>

#include "seismo-backend.h"
#include "seismo-bench-filter.h"
#include "seismo-bench-util.h"
#include "seismo-importer.h"
#include "seismo-rate-view.h"
#include "seismo-timeline-renderer.h"

static void
run (SeismoTrace *trace,
     const char  *what,
     GBytes      *mask,
     int          runs)
{
  const int width = 1900, height = 40;
  double ns_per_px = (double) MAX (seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace), 1)
                     / (width - SEISMO_TIMELINE_LABEL_WIDTH);
  g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

  for (int r = 0; r < runs; r++)
    {
      cairo_t *cr = cairo_create (surface);
      double t0 = seismo_bench_thread_cpu_ms (), took;

      seismo_rate_view_render (trace, mask, SEISMO_RATE_BY_TYPE, seismo_trace_get_start_ns (trace),
                               ns_per_px, cr, width, height);
      took = seismo_bench_thread_cpu_ms () - t0;
      g_array_append_val (ms, took);
      cairo_destroy (cr);
    }
  cairo_surface_destroy (surface);
  g_array_sort (ms, seismo_bench_compare_doubles);
  printf ("  %-28s best %7.1f ms   median %7.1f ms CPU\n", what,
          g_array_index (ms, double, 0), g_array_index (ms, double, ms->len / 2));
}

int
main (int   argc,
      char *argv[])
{
  static const char *defaults[] = { "cpu == 0", "syscall == read" };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  int runs = argc > 2 && g_ascii_isdigit (argv[2][0]) ? atoi (argv[2]) : 9;
  int first_expr = argc > 2 && g_ascii_isdigit (argv[2][0]) ? 3 : 2;

  if (argc < 2)
    {
      fprintf (stderr, "usage: seismo-rate-bench FILE [RUNS] [EXPR…]\n");
      return 2;
    }
  seismo_backends_init ();
  trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  printf ("%s: %" G_GUINT64_FORMAT " events; the rate strip of the whole trace, 1900 px\n", argv[1],
          (guint64) seismo_trace_get_n_events (trace));
  run (trace, "no filter", NULL, runs);
  for (int i = first_expr; i < argc || (first_expr >= argc && i - first_expr < (int) G_N_ELEMENTS (defaults)); i++)
    {
      const char *expression = i < argc ? argv[i] : defaults[i - first_expr];
      g_autoptr(GBytes) mask = NULL;
      g_autoptr(SeismoMatchSet) matches = seismo_bench_filter (trace, expression, &mask);

      run (trace, expression, mask, runs);
    }
  return 0;
}

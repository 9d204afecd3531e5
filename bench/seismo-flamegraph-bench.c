/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * seismo-flamegraph-bench [N_EVENTS]: what the Flame Graph pane costs on a synthetic trace with a
 * stack per event (default 1M events, 5000 distinct stacks 8 to 40 frames deep over 600
 * functions): building the graph (the pane's worker), a frame at 1920 × 1000, a search and a
 * hit test. Prints figures in
 * CPU time of this thread, so a shared, loaded machine still gives comparable ones.
 */
#include <stdlib.h>
#include <time.h>

#include "seismo-flame-graph-trace.h"
#include "seismo-stack-tree.h"
#include "seismo-trace-builder.h"

static const SeismoFieldInfo fields[] = { { "x", SEISMO_FIELD_UINT, 8, 0 } };

/* Microseconds of CPU time this thread has used. */
static gint64
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static SeismoTrace *
make_trace (guint n_events)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type = seismo_trace_builder_add_event_type (b, "bench", "ev", fields, 1, NULL);
  GRand *rand = g_rand_new_with_seed (42);
  char *names[600];
  SeismoFrame *stacks[5000];
  guint depths[5000];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    names[i] = g_strdup_printf ("function_%03u", i);
  /* Stacks share their outer frames, as real ones do: each extends an earlier one. */
  for (guint s = 0; s < G_N_ELEMENTS (stacks); s++)
    {
      guint depth = g_rand_int_range (rand, 8, 41);
      guint base = s > 0 ? g_rand_int_range (rand, 0, s) : 0;

      stacks[s] = g_new0 (SeismoFrame, depth);
      depths[s] = depth;
      for (guint d = 0; d < depth; d++)
        {
          /* Outermost last: copy the base's outer part, then new inner frames. */
          guint from_outer = depth - 1 - d;
          SeismoFrame *f = &stacks[s][d];

          if (s > 0 && from_outer < depths[base] / 2)
            *f = stacks[base][depths[base] - 1 - from_outer];
          else
            {
              f->function = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
              f->module = "/usr/bin/bench";
              f->pid = 1;
              f->space = d < 3 ? SEISMO_FRAME_KERNEL : SEISMO_FRAME_USER;
            }
        }
    }
  for (guint i = 0; i < n_events; i++)
    {
      guint s = g_rand_int_range (rand, 0, G_N_ELEMENTS (stacks));

      seismo_trace_builder_begin_event (b, 1000 + (guint64) i * 100, i % 2, 100 + i % 4, type);
      seismo_trace_builder_push_uint (b, i);
      seismo_trace_builder_set_stack_frames (b, stacks[s], depths[s]);
      seismo_trace_builder_end_event (b);
    }
  g_rand_free (rand);
  return seismo_trace_builder_finish (b);
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 1000000;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoFlameGraph) graph = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 t;
  gsize n_events;
  double share;
  guint hits = 0;

  t = cpu_now ();
  trace = make_trace (n);
  g_print ("trace: %u events with stacks, %u distinct stacks, %u frames (%.0f ms to build)\n", n,
           seismo_trace_get_n_stacks (trace) - 1, seismo_trace_get_n_frames (trace),
           (cpu_now () - t) / 1e3);

  t = cpu_now ();
  seismo_stack_tree_free (seismo_stack_tree_new (trace, NULL, 0, SEISMO_STACK_WEIGHT_COUNT));
  g_print ("stack tree alone (data layer, worker): %.0f ms\n", (cpu_now () - t) / 1e3);

  t = cpu_now ();
  graph = seismo_flame_graph_new_for_trace (trace, NULL, SEISMO_FLAME_SOURCE_EVENTS, SEISMO_FLAME_WEIGHT_COUNT,
                                            &n_events, NULL);
  g_print ("graph (worker): %.0f ms, %u nodes, %u rows\n", (cpu_now () - t) / 1e3,
           seismo_flame_graph_get_n_nodes (graph), seismo_flame_graph_get_depth (graph));

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1000);
  cr = cairo_create (surface);
  seismo_flame_graph_set_size (graph, 1920, 1000);
  seismo_flame_graph_draw (graph, cr);   /* warm up fonts */
  t = cpu_now ();
  for (guint i = 0; i < 10; i++)
    seismo_flame_graph_draw (graph, cr);
  g_print ("frame at 1920 x 1000 (main thread): %.1f ms\n", (cpu_now () - t) / 10e3);

  t = cpu_now ();
  share = seismo_flame_graph_set_search (graph, "function_07");
  g_print ("search (main thread): %.1f ms, %.1f %% matched\n", (cpu_now () - t) / 1e3, 100 * share);

  t = cpu_now ();
  for (guint x = 0; x < 1920; x++)
    hits += seismo_flame_graph_node_at (graph, x, 1000 - 5.5 * SEISMO_FLAME_ROW_HEIGHT) != SEISMO_FLAME_NO_NODE;
  g_print ("hit test (main thread): %.2f us each (%u of 1920 columns on a frame)\n",
           (cpu_now () - t) / 1920.0, hits);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}

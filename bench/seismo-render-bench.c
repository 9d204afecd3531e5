/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-render-bench [N_EVENTS|FILE] [WIDTH] [HEIGHT] [collapsed|expanded]: builds a synthetic
 * scheduler + syscall trace of N events (default 10M) with the builder API, or opens FILE (e.g.
 * one written by `seismo-gen 10000000 FILE`), prepares the timeline data, then renders timeline
 * frames onto a Cairo image surface at several zoom levels and prints the median ms per frame.
 * The frame cost must not grow with the number of events in view.
 */

#include <math.h>
#include <stdlib.h>

#include "seismo-tracepoints.h"
#include "seismo-bench-util.h"
#include "seismo-importer.h"
#include "seismo-timeline-renderer.h"
#include "seismo-trace-builder.h"

#define N_CPUS        8
#define TASKS_PER_CPU 25
#define THREADS       5

typedef struct {
  SeismoTraceBuilder *b;
  guint               t_switch;
  guint               t_wakeup;
  guint               t_enter;
  guint               t_exit;
  SeismoStringId      comm[N_CPUS * TASKS_PER_CPU];
} Gen;

static gint32
task_tid (guint task)
{
  return 1000 + (gint32) task;
}

static gint32
task_pid (guint task)
{
  return 1000 + (gint32) (task / THREADS * THREADS);
}

static void
add_types (Gen *g)
{

  /* The well-known tracepoints' fields from the catalogue, with trace-cmd's plugin formats. */
  const SeismoTracepoint *sw = seismo_tracepoint_lookup ("sched", "sched_switch");
  const SeismoTracepoint *wk = seismo_tracepoint_lookup ("sched", "sched_wakeup");
  const SeismoTracepoint *en = seismo_tracepoint_lookup ("raw_syscalls", "sys_enter");
  const SeismoTracepoint *ex = seismo_tracepoint_lookup ("raw_syscalls", "sys_exit");

  g->t_switch = seismo_trace_builder_add_event_type (g->b, "sched", "sched_switch", sw->fields, sw->n_fields,
                                                     "{prev_comm}:{prev_pid} [{prev_prio}] {prev_state} ==> {next_comm}:{next_pid} [{next_prio}]");
  g->t_wakeup = seismo_trace_builder_add_event_type (g->b, "sched", "sched_wakeup", wk->fields, wk->n_fields,
                                                     "{comm}:{pid} [{prio}] CPU:{target_cpu}");
  g->t_enter = seismo_trace_builder_add_event_type (g->b, "raw_syscalls", "sys_enter", en->fields, en->n_fields,
                                                    "NR {id} {args}");
  g->t_exit = seismo_trace_builder_add_event_type (g->b, "raw_syscalls", "sys_exit", ex->fields, ex->n_fields,
                                                   "NR {id} = {ret}");
}

/* Each CPU runs its own pool of tasks in turn; a running task makes syscalls. */
static SeismoTrace *
generate (guint64 n_events)
{
  static const guint syscalls[] = { 0, 1, 3, 7, 232, 257, 202, 9 };
  Gen g = { seismo_trace_builder_new () };
  GRand *rand = g_rand_new_with_seed (42);
  guint64 per_cpu = n_events / N_CPUS;

  add_types (&g);
  seismo_trace_builder_set_metadata (g.b, SEISMO_META_SOURCE, "synthetic");
  seismo_trace_builder_set_metadata (g.b, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_n_cpus (g.b, N_CPUS);
  for (guint t = 0; t < N_CPUS * TASKS_PER_CPU; t++)
    {
      g_autofree char *comm = g_strdup_printf ("worker-%u", t / THREADS);

      seismo_trace_builder_task (g.b, task_tid (t));
      seismo_trace_builder_set_task_pid (g.b, task_tid (t), task_pid (t));
      seismo_trace_builder_set_task_comm (g.b, task_tid (t), comm, 0);
      g.comm[t] = seismo_trace_builder_intern (g.b, comm);
    }

  for (guint c = 0; c < N_CPUS; c++)
    {
      guint64 t = 1000000000ull;
      guint64 emitted = 0;
      guint cur = c;   /* tasks c, c + N_CPUS, ... belong to this CPU */

      while (emitted < per_cpu)
        {
          guint next = c + N_CPUS * g_rand_int_range (rand, 0, TASKS_PER_CPU);
          guint n_sys = g_rand_int_range (rand, 1, 8);

          /* The current task wakes the next one, then switches to it. */
          seismo_trace_builder_begin_event (g.b, t, c, task_tid (cur), g.t_wakeup);
          seismo_trace_builder_push_string_id (g.b, g.comm[next]);
          seismo_trace_builder_push_int (g.b, task_tid (next));
          seismo_trace_builder_push_int (g.b, 120);
          seismo_trace_builder_push_int (g.b, c);
          seismo_trace_builder_end_event (g.b);
          t += g_rand_int_range (rand, 500, 5000);
          seismo_trace_builder_begin_event (g.b, t, c, task_tid (cur), g.t_switch);
          seismo_trace_builder_push_string_id (g.b, g.comm[cur]);
          seismo_trace_builder_push_int (g.b, task_tid (cur));
          seismo_trace_builder_push_int (g.b, 120);
          seismo_trace_builder_push_uint (g.b, 1);
          seismo_trace_builder_push_string_id (g.b, g.comm[next]);
          seismo_trace_builder_push_int (g.b, task_tid (next));
          seismo_trace_builder_push_int (g.b, 120);
          seismo_trace_builder_end_event (g.b);
          emitted += 2;
          cur = next;
          for (guint k = 0; k < n_sys && emitted < per_cpu; k++)
            {
              guint nr = syscalls[g_rand_int_range (rand, 0, G_N_ELEMENTS (syscalls))];
              guint64 args[6] = { 3, 0x7ffd0000 + k, 4096, 0, 0, 0 };
              gint64 ret = g_rand_int_range (rand, 0, 10) == 0 ? -11 : g_rand_int_range (rand, 0, 4096);

              t += g_rand_int_range (rand, 200, 3000);
              seismo_trace_builder_begin_event (g.b, t, c, task_tid (cur), g.t_enter);
              seismo_trace_builder_push_uint (g.b, nr);
              seismo_trace_builder_push_uint_array (g.b, args, 6);
              seismo_trace_builder_end_event (g.b);
              t += g_rand_int_range (rand, 300, 20000);
              seismo_trace_builder_begin_event (g.b, t, c, task_tid (cur), g.t_exit);
              seismo_trace_builder_push_uint (g.b, nr);
              seismo_trace_builder_push_int (g.b, ret);
              seismo_trace_builder_end_event (g.b);
              emitted += 2;
            }
          t += g_rand_int_range (rand, 100, 2000);
        }
    }
  g_rand_free (rand);
  return seismo_trace_builder_finish (g.b);
}

/* A canvas that draws nothing: with SEISMO_BENCH_NULL_CANVAS=1, frames measure the walk over the
 * data alone, without rasterization. */
static guint null_rects;

static void
null_fill (gpointer data, const SeismoColor *color, const double *r, guint n)
{
  null_rects += n;
}

static void
null_text (gpointer data, double x, double y, PangoLayout *layout, const SeismoColor *color)
{
}

static cairo_t *
null_begin (gpointer data, double x, double y, double w, double h)
{
  return data;
}

static void
null_end (gpointer data, cairo_t *cr)
{
}

static void
null_push (gpointer data, double x, double y, double w, double h)
{
}

static void
null_pop (gpointer data)
{
}

static const SeismoCanvas null_canvas = { null_fill, null_text, null_begin, null_end, null_push, null_pop };

/* Median wall and CPU time of a frame. The machine may be shared: CPU time is the steadier. */
static void
frame_ms (SeismoTimelineRenderer *r,
          cairo_t                *cr,
          guint                   n_frames,
          double                 *wall,
          double                 *cpu)
{
  g_autofree double *walls = g_new (double, n_frames);
  g_autofree double *cpus = g_new (double, n_frames);

  for (guint f = 0; f < n_frames; f++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = seismo_bench_thread_cpu_ms ();

      if (g_getenv ("SEISMO_BENCH_NULL_CANVAS") != NULL)
        seismo_timeline_renderer_draw (r, &null_canvas, cr);
      else
        seismo_timeline_renderer_draw_cairo (r, cr);
      cairo_surface_flush (cairo_get_target (cr));
      cpus[f] = seismo_bench_thread_cpu_ms () - c0;
      walls[f] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  qsort (walls, n_frames, sizeof (double), seismo_bench_compare_doubles);
  qsort (cpus, n_frames, sizeof (double), seismo_bench_compare_doubles);
  *wall = walls[n_frames / 2];
  *cpu = cpus[n_frames / 2];
}

int
main (int    argc,
      char **argv)
{
  const char *file = argc > 1 && !g_ascii_isdigit (argv[1][0]) ? argv[1] : NULL;
  guint64 n_events = argc > 1 && file == NULL ? g_ascii_strtoull (argv[1], NULL, 10) : 10000000;
  int width = argc > 2 ? atoi (argv[2]) : 1920;
  int height = argc > 3 ? atoi (argv[3]) : 1080;
  const char *only = argc > 4 ? argv[4] : NULL;
  static const double zooms[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  g_autoptr(SeismoTimelineRenderer) r = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 t0;
  double duration;

  t0 = g_get_monotonic_time ();
  if (file != NULL)
    {
      g_autoptr(GError) error = NULL;

      if ((trace = seismo_trace_open (file, NULL, NULL, NULL, &error)) == NULL)
        {
          g_printerr ("seismo-render-bench: %s\n", error->message);
          return 1;
        }
    }
  else
    trace = generate (n_events);
  g_print ("%s", file != NULL ? "opened" : "built");
  g_print (" %" G_GSIZE_FORMAT " events (%u tasks, %u CPUs) in %.2f s\n",
           seismo_trace_get_n_events (trace), seismo_trace_get_n_tasks (trace),
           seismo_trace_get_n_cpus (trace), (g_get_monotonic_time () - t0) / 1e6);
  t0 = g_get_monotonic_time ();
  data = seismo_timeline_data_new (trace, NULL);
  g_print ("timeline data prepared in %.2f s\n", (g_get_monotonic_time () - t0) / 1e6);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  r = seismo_timeline_renderer_new (data);
  seismo_timeline_renderer_set_size (r, width, height);
  duration = seismo_timeline_renderer_get_duration (r);

  g_print ("%d x %d px, median of 15 frames each\n", width, height);
  for (guint expanded = 0; expanded < 2; expanded++)
    {
      guint n_proc;

      if (only != NULL && !g_str_equal (only, expanded ? "expanded" : "collapsed"))
        continue;
      seismo_timeline_data_get_processes (data, &n_proc);
      for (guint p = 0; p < n_proc; p++)
        seismo_timeline_renderer_set_collapsed (r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, !expanded);
      g_print ("%s:\n", expanded ? "processes expanded (task rows)" : "processes collapsed");
      for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
        {
          double npp = seismo_timeline_renderer_get_fit_ns_per_px (r) / zooms[z];
          double visible = npp * seismo_timeline_renderer_get_area_width (r);
          guint64 a = seismo_trace_get_start_ns (trace) + (guint64) (duration / 3);
          gsize n_in_view = seismo_trace_find_time (trace, a + (guint64) visible) - seismo_trace_find_time (trace, a);

          double wall, cpu;

          seismo_timeline_renderer_set_view (r, duration / 3, npp);
          frame_ms (r, cr, 2, &wall, &cpu);  /* warm up */
          null_rects = 0;
          frame_ms (r, cr, 15, &wall, &cpu);
          g_print ("  zoom %8.0fx  %10.0f ns/px  %9" G_GSIZE_FORMAT " events in view"
                   "  %7.2f ms/frame (CPU %.2f ms)", zooms[z], npp, n_in_view, wall, cpu);
          if (null_rects > 0)
            g_print ("  %u rectangles", null_rects / 15);
          g_print ("\n");
        }
    }
  if (g_getenv ("SEISMO_BENCH_PNG") != NULL)
    {
      seismo_timeline_renderer_set_view (r, duration / 3, seismo_timeline_renderer_get_fit_ns_per_px (r) / 1000);
      seismo_timeline_renderer_draw_cairo (r, cr);
      cairo_surface_write_to_png (surface, g_getenv ("SEISMO_BENCH_PNG"));
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}

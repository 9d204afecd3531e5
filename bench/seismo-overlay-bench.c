/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-overlay-bench FILE [--runs N] [EXPR…]: the timeline's filter overlay (SeismoFilterOverlay)
 * over the trace in FILE, in a 1920×1200 window with the timeline under it, as the window shows
 * it. For each filter expression (default: "cpu == 0", a task's "tid == 1223", every event): the
 * matches, the time the overlay's worker takes to index them, the bytes that index holds, and the
 * cost of one snapshot of the overlay (best and median of N, default 15, main thread CPU ms) at
 * the whole trace and zoomed in 16, 256, 4096 and 65536 times around its middle; each beside the
 * same for the overlay's former index (a copy of the matching ids per row), whose marks must be
 * the same. Needs a display: run it under `xvfb-run -a -s "-screen 0 1920x1200x24"` with
 * GSK_RENDERER=cairo.
 */

#include <stdio.h>
#include <stdlib.h>

#include "seismo-backend.h"
#include "seismo-bench-filter.h"
#include "seismo-bench-util.h"
#include "seismo-filter-marks-private.h"
#include "seismo-filter-overlay-private.h"
#include "seismo-importer.h"
#include "seismo-match-set-private.h"
#include "seismo-timeline.h"
#include "seismo-widgets.h"

static void
wait_idle (SeismoFilterOverlay *overlay)
{
  while (seismo_filter_overlay_get_busy (overlay))
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

/* The overlay as it was before its index shrank (Seismo ≤ b689520): a copy of every matching id
 * per CPU row and per task row, 8 bytes a match, and one binary search in a row's copy per mark.
 * Drawn here as its snapshot did, in the same process as the widget's, to compare the two frame
 * costs under the same load (a shared machine's timings vary from run to run) and the marks. */
typedef struct {
  guint     n_cpus;
  guint     n_tasks;
  gsize    *cpu_off;
  guint32  *cpu_ids;
  gsize    *task_off;
  guint32  *task_ids;
} RefIndex;

static void
ref_index_free (RefIndex *ix)
{
  g_free (ix->cpu_off);
  g_free (ix->cpu_ids);
  g_free (ix->task_off);
  g_free (ix->task_ids);
  g_free (ix);
}

static RefIndex *
ref_index_build (SeismoTrace *trace,
                 GBytes      *matches)
{
  gsize n_bytes;
  const guint32 *ids = g_bytes_get_data (matches, &n_bytes);
  gsize n = n_bytes / sizeof (guint32);
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  RefIndex *ix = g_new0 (RefIndex, 1);
  g_autofree gsize *cpu_fill = NULL;
  g_autofree gsize *task_fill = NULL;

  ix->n_cpus = seismo_trace_get_n_cpus (trace);
  ix->n_tasks = seismo_trace_get_n_tasks (trace);
  ix->cpu_off = g_new0 (gsize, ix->n_cpus + 1);
  ix->task_off = g_new0 (gsize, ix->n_tasks + 1);
  for (gsize i = 0; i < n; i++)
    {
      if (cpus[ids[i]] < ix->n_cpus)
        ix->cpu_off[cpus[ids[i]] + 1]++;
      if (tasks[ids[i]] < ix->n_tasks)
        ix->task_off[tasks[ids[i]] + 1]++;
    }
  for (guint c = 0; c < ix->n_cpus; c++)
    ix->cpu_off[c + 1] += ix->cpu_off[c];
  for (guint t = 0; t < ix->n_tasks; t++)
    ix->task_off[t + 1] += ix->task_off[t];
  ix->cpu_ids = g_new (guint32, MAX (ix->cpu_off[ix->n_cpus], 1));
  ix->task_ids = g_new (guint32, MAX (ix->task_off[ix->n_tasks], 1));
  cpu_fill = g_memdup2 (ix->cpu_off, sizeof (gsize) * (ix->n_cpus + 1));
  task_fill = g_memdup2 (ix->task_off, sizeof (gsize) * (ix->n_tasks + 1));
  for (gsize i = 0; i < n; i++)
    {
      if (cpus[ids[i]] < ix->n_cpus)
        ix->cpu_ids[cpu_fill[cpus[ids[i]]]++] = ids[i];
      if (tasks[ids[i]] < ix->n_tasks)
        ix->task_ids[task_fill[tasks[ids[i]]]++] = ids[i];
    }
  return ix;
}

static gsize
ref_index_size (const RefIndex *ix)
{
  return sizeof *ix + sizeof (gsize) * (ix->n_cpus + 1 + ix->n_tasks + 1)
         + sizeof (guint32) * (MAX (ix->cpu_off[ix->n_cpus], 1) + MAX (ix->task_off[ix->n_tasks], 1));
}

static gsize
ref_lower_bound (const guint64 *ts,
                 const guint32 *ids,
                 gsize          n,
                 guint64        t)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ts[ids[mid]] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The marks of a row from its copy of the matches: a binary search per mark. */
static void
ref_row_marks (const guint64          *ts,
               const guint32          *ids,
               gsize                   n,
               SeismoTimelineRenderer *r,
               double                  x0,
               double                  x1,
               GArray                 *xs)
{
  gsize i;

  if (n == 0)
    return;
  i = ref_lower_bound (ts, ids, n, (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x0), 0));
  while (i < n)
    {
      double x = floor (seismo_timeline_renderer_ns_to_x (r, ts[ids[i]]));
      double next;

      if (x >= x1)
        break;
      g_array_append_val (xs, x);
      next = seismo_timeline_renderer_x_to_ns (r, x + 2);
      i = ref_lower_bound (ts, ids, n, (guint64) MAX (next, 0));
    }
}

typedef struct {
  SeismoTimeline *timeline;
  SeismoTrace    *trace;
  RefIndex       *index;
} Ref;

static void
ref_index_row_marks (gpointer                data,
                     SeismoTimelineRenderer *r,
                     gboolean                is_task,
                     guint                   row,
                     double                  x0,
                     double                  x1,
                     GArray                 *xs)
{
  Ref *ref = data;
  const RefIndex *ix = ref->index;
  const guint32 *ids = is_task ? ix->task_ids : ix->cpu_ids;
  const gsize *off = is_task ? ix->task_off : ix->cpu_off;

  ref_row_marks (seismo_trace_get_times (ref->trace), ids + off[row], off[row + 1] - off[row], r, x0, x1, xs);
}

/* The overlay's drawing, with the former index. */
static void
ref_snapshot (GtkWidget   *widget,
              GtkSnapshot *snapshot,
              gpointer     user_data)
{
  Ref *ref = user_data;
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  double tw, th;

  _seismo_filter_overlay_draw (widget, snapshot, ref->timeline, ref->trace, 0.6, ref_index_row_marks,
                               ref, xs, &tw, &th);
}

static void
widget_snapshot (GtkWidget   *widget,
                 GtkSnapshot *snapshot,
                 gpointer     user_data)
{
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
}

/* The marks a snapshot holds: how many color nodes, and a checksum of their rectangles (the same
 * checksum before and after a change of the index shows the same marks drawn). */
static void
walk_marks (GskRenderNode *node,
            guint         *n_marks,
            guint64       *sum)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        walk_marks (gsk_container_node_get_child (node, i), n_marks, sum);
      break;
    case GSK_TRANSFORM_NODE:
      walk_marks (gsk_transform_node_get_child (node), n_marks, sum);
      break;
    case GSK_CLIP_NODE:
      walk_marks (gsk_clip_node_get_child (node), n_marks, sum);
      break;
    case GSK_COLOR_NODE:
      {
        graphene_rect_t b;

        gsk_render_node_get_bounds (node, &b);
        *n_marks += 1;
        *sum = *sum * 1000003 + (guint64) (b.origin.x * 4) * 7919 + (guint64) (b.origin.y * 4) * 31
               + (guint64) (b.size.width * 4) * 131 + (guint64) (b.size.height * 4);
      }
      break;
    default:
      break;
    }
}

/* One snapshot of the overlay, as GTK asks for it when the window paints (or the old one's). */
static double
snapshot_ms (GtkWidget  *overlay,
             void      (*draw) (GtkWidget *, GtkSnapshot *, gpointer),
             gpointer    draw_data,
             guint      *n_marks,
             guint64    *sum)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  double t0 = seismo_bench_thread_cpu_ms (), t1;

  draw (overlay, snapshot, draw_data);
  node = gtk_snapshot_free_to_node (snapshot);
  t1 = seismo_bench_thread_cpu_ms ();
  *n_marks = 0;
  *sum = 0;
  if (node != NULL)
    walk_marks (node, n_marks, sum);
  g_clear_pointer (&node, gsk_render_node_unref);
  return t1 - t0;
}

int
main (int   argc,
      char *argv[])
{
  static const char *defaults[] = { "cpu == 0", "tid == 1223", "cpu < 1000" };
  static const double zooms[] = { 1, 16, 256, 4096, 65536 };
  guint runs = 15;
  const char *const *exprs;
  guint n_exprs;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  SeismoTimelineRenderer *r;
  GtkWidget *window, *box, *timeline, *overlay;

  if (argc < 2)
    {
      fprintf (stderr, "usage: seismo-overlay-bench FILE [--runs N] [EXPR…]\n");
      return 2;
    }
  if (argc > 3 && g_str_equal (argv[2], "--runs"))
    {
      runs = MAX (atoi (argv[3]), 1);
      argv[3] = argv[1];
      argv += 2;
      argc -= 2;
    }
  exprs = argc > 2 ? (const char *const *) argv + 2 : defaults;
  n_exprs = argc > 2 ? (guint) argc - 2 : G_N_ELEMENTS (defaults);
  gtk_init ();
  seismo_widgets_init ();
  seismo_backends_init ();
  if (!(trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error)))
    {
      fprintf (stderr, "seismo-overlay-bench: %s\n", error->message);
      return 1;
    }
  data = seismo_timeline_data_new (trace, NULL);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1920, 1200);
  box = gtk_overlay_new ();
  timeline = seismo_timeline_new ();
  gtk_widget_set_hexpand (timeline, TRUE);
  gtk_widget_set_vexpand (timeline, TRUE);
  gtk_overlay_set_child (GTK_OVERLAY (box), timeline);
  overlay = seismo_filter_overlay_new (SEISMO_TIMELINE (timeline));
  gtk_overlay_add_overlay (GTK_OVERLAY (box), overlay);
  gtk_window_set_child (GTK_WINDOW (window), box);
  seismo_timeline_set_data (SEISMO_TIMELINE (timeline), data);
  gtk_window_present (GTK_WINDOW (window));
  r = seismo_timeline_get_renderer (SEISMO_TIMELINE (timeline));
  while (r == NULL || seismo_timeline_renderer_get_area_width (r) <= 0
         || gtk_widget_get_width (overlay) <= 0)
    {
      g_main_context_iteration (NULL, TRUE);
      r = seismo_timeline_get_renderer (SEISMO_TIMELINE (timeline));
    }
  printf ("%s: %zu events, timeline %d × %d px\n", argv[1], seismo_trace_get_n_events (trace),
          gtk_widget_get_width (timeline), gtk_widget_get_height (timeline));

  printf ("index: the overlay's; old: a copy of the matching ids per row, as before (b689520)\n"
          "snapshot: main thread CPU ms, best / median of %u, the two interleaved\n", runs);
  for (guint e = 0; e < n_exprs; e++)
    {
      g_autoptr(SeismoMatchSet) matches = seismo_bench_filter (trace, exprs[e], NULL);
      /* The old index is built from ids, as it was. */
      g_autoptr(GBytes) ids = seismo_match_set_to_ids (matches);
      gsize n_matches = seismo_match_set_get_size (matches);
      gsize n_events = seismo_match_set_get_n_events (matches);
      gsize set_size = g_bytes_get_size (seismo_match_set_get_mask (matches))
                       + _seismo_match_set_directory_len (n_events) * sizeof (guint32);
      gint64 t0 = g_get_monotonic_time ();
      Ref ref = { SEISMO_TIMELINE (timeline), trace, NULL };
      gsize size;
      double build_ms;

      seismo_filter_overlay_set_filter (SEISMO_FILTER_OVERLAY (overlay), trace, matches, TRUE);
      wait_idle (SEISMO_FILTER_OVERLAY (overlay));
      size = seismo_filter_overlay_get_index_size (SEISMO_FILTER_OVERLAY (overlay));
      /* The worker's part alone, as the old index's build below is timed. */
      t0 = g_get_monotonic_time ();
      _seismo_filter_marks_free (_seismo_filter_marks_build (trace, matches, 0, NULL));
      build_ms = (g_get_monotonic_time () - t0) / 1e3;
      t0 = g_get_monotonic_time ();
      ref.index = ref_index_build (trace, ids);
      printf ("\n%s: %zu matches (the view's set: %.2f MiB; as ids: %.2f MiB)\n"
              "  index %10zu bytes (%6.2f MiB), built in %4.0f ms\n"
              "  old   %10zu bytes (%6.2f MiB), built in %4.0f ms; index/old = 1/%.1f\n",
              exprs[e], n_matches, set_size / 1048576.0, n_matches * 4 / 1048576.0,
              size, size / 1048576.0, build_ms,
              ref_index_size (ref.index), ref_index_size (ref.index) / 1048576.0,
              (g_get_monotonic_time () - t0) / 1e3,
              ref_index_size (ref.index) / (double) MAX (size, 1));
      for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
        {
          double fit = seismo_timeline_renderer_get_fit_ns_per_px (r);
          double npp = fit / zooms[z];
          double span = npp * seismo_timeline_renderer_get_area_width (r);
          g_autofree double *ms = g_new (double, runs);
          g_autofree double *ref_ms = g_new (double, runs);
          guint n_marks = 0, ref_n_marks = 0;
          guint64 sum = 0, ref_sum = 0;

          seismo_timeline_renderer_set_view (r, seismo_timeline_renderer_get_duration (r) / 2 - span / 2,
                                             npp);
          for (guint i = 0; i < runs; i++)
            {
              ms[i] = snapshot_ms (overlay, widget_snapshot, NULL, &n_marks, &sum);
              ref_ms[i] = snapshot_ms (overlay, ref_snapshot, &ref, &ref_n_marks, &ref_sum);
            }
          qsort (ms, runs, sizeof (double), seismo_bench_compare_doubles);
          qsort (ref_ms, runs, sizeof (double), seismo_bench_compare_doubles);
          printf ("  zoom ×%-6g (%10.1f ns/px): snapshot %5.2f / %5.2f ms, old %5.2f / %5.2f ms; "
                  "%u rectangles, %s\n",
                  zooms[z], npp, ms[0], ms[runs / 2], ref_ms[0], ref_ms[runs / 2], n_marks,
                  n_marks == ref_n_marks && sum == ref_sum ? "the same as old"
                                                           : "DIFFERENT FROM OLD");
        }
      ref_index_free (ref.index);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-list-bench FILE [WIDTH HEIGHT] [FRAMES]: the event list (SeismoEventList, the widget the
 * window shows) in a window of its own, over the trace in FILE (e.g. `seismo-gen 10000000 FILE`).
 * Needs a display: run it under `xvfb-run -a -s "-screen 0 1920x1200x24"` with GSK_RENDERER=cairo
 * for the software path the tests use.
 *
 * It prints the time from handing the trace to the list to the first painted frame, then scrolls
 * the list from a tick callback, once per frame, in three ways:
 *   wheel  3 rows a frame (a smooth wheel or touchpad scroll), from the middle of the trace;
 *   page   a page a frame (a fling: every visible row is new every frame);
 *   jump   a random position anywhere in the trace every frame (dragging the scroll bar).
 * For each: the frame's work (GdkFrameClock "before-paint" to "after-paint": update, layout and
 * paint, which includes making the visible rows' items and labels) as median / p95 / max, in
 * the main thread's CPU time and in wall time (which on a loaded machine waits for a core), and
 * how many frame intervals exceeded 1.5 × 16.7 ms (frames a 60 Hz display would have dropped).
 * The resident memory before and after shows that scrolling makes nothing per event.
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "seismo-bench-util.h"
#include "seismo-event-list.h"
#include "seismo-importer.h"
#include "seismo-widgets.h"

typedef enum {
  MODE_WHEEL,
  MODE_PAGE,
  MODE_JUMP,
  N_MODES
} Mode;

static const char *const mode_names[N_MODES] = { "wheel", "page", "jump" };

typedef struct {
  GtkAdjustment *adj;
  GRand         *rand;
  Mode           mode;
  guint          frames_wanted;
  double         row_height;

  gint64         frame_start;     /* "before-paint" of the frame in progress, µs */
  double         frame_cpu_start; /* the main thread's CPU time then, ms */
  gint64         last_start;      /* that of the last scrolled frame */
  gboolean       scrolled;        /* the tick of this frame moved the list */
  GArray        *work_ms;         /* double: before-paint → after-paint */
  GArray        *cpu_ms;          /* double: the main thread's CPU time in that span */
  GArray        *interval_ms;     /* double: before-paint → next before-paint */
  guint          painted;         /* after-paint count, for the first-paint wait */
  gboolean       done;
} Bench;

static double
resident_mib (void)
{
  g_autofree char *statm = NULL;
  unsigned long size = 0, resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL)
      || sscanf (statm, "%lu %lu", &size, &resident) != 2)
    return 0;
  return resident * (double) sysconf (_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static void
on_before_paint (GdkFrameClock *clock,
                 Bench         *b)
{
  b->frame_start = g_get_monotonic_time ();
  b->frame_cpu_start = seismo_bench_thread_cpu_ms ();
}

static void
on_after_paint (GdkFrameClock *clock,
                Bench         *b)
{
  b->painted++;
  if (b->scrolled)
    {
      double work = (g_get_monotonic_time () - b->frame_start) / 1000.0;

      double cpu = seismo_bench_thread_cpu_ms () - b->frame_cpu_start;

      g_array_append_val (b->work_ms, work);
      g_array_append_val (b->cpu_ms, cpu);
      if (b->last_start != 0)
        {
          double interval = (b->frame_start - b->last_start) / 1000.0;

          g_array_append_val (b->interval_ms, interval);
        }
      b->last_start = b->frame_start;
      b->scrolled = FALSE;
    }
}

/* The "update" phase: one scroll step a frame, laid out and painted in the same frame. */
static gboolean
tick (GtkWidget     *widget,
      GdkFrameClock *clock,
      gpointer       user_data)
{
  Bench *b = user_data;
  double value = gtk_adjustment_get_value (b->adj);
  double page = gtk_adjustment_get_page_size (b->adj);
  double top = gtk_adjustment_get_upper (b->adj) - page;

  if (b->work_ms->len >= b->frames_wanted)
    {
      b->done = TRUE;
      return G_SOURCE_REMOVE;
    }
  switch (b->mode)
    {
    case MODE_WHEEL:
      value += 3 * b->row_height;
      break;
    case MODE_PAGE:
      value += page;
      break;
    case MODE_JUMP:
    default:
      value = g_rand_double_range (b->rand, 0, top);
      break;
    }
  if (value > top)
    value = top / 2;
  gtk_adjustment_set_value (b->adj, value);
  b->scrolled = TRUE;
  return G_SOURCE_CONTINUE;
}

static double
percentile (GArray *sorted,
            double  p)
{
  guint i = (guint) (p * (sorted->len - 1) + 0.5);

  return sorted->len > 0 ? g_array_index (sorted, double, i) : 0;
}

static void
spin_until (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
spin_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_true, &done);
  spin_until (&done);
}

static void
wait_painted (Bench *b,
              guint  n)
{
  guint target = b->painted + n;

  while (b->painted < target)
    g_main_context_iteration (NULL, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  GtkWidget *window, *list, *scroller;
  GdkFrameClock *clock;
  Bench b = { 0 };
  int width = 1600, height = 1000;
  gint64 t0;
  double load_s, first_paint_ms, first_paint_cpu, cpu0, rss_before;
  guint n_rows;

  if (argc != 2 && argc != 4 && argc != 5)
    {
      g_printerr ("Usage: %s FILE [WIDTH HEIGHT] [FRAMES]\n", argv[0]);
      return EXIT_FAILURE;
    }
  if (argc >= 4)
    {
      width = atoi (argv[2]);
      height = atoi (argv[3]);
    }
  b.frames_wanted = argc == 5 ? (guint) atoi (argv[4]) : 300;
  if (width < 200 || height < 200 || b.frames_wanted < 10)
    {
      g_printerr ("%s: WIDTH and HEIGHT ≥ 200, FRAMES ≥ 10\n", argv[0]);
      return EXIT_FAILURE;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("%s: no display (run it under xvfb-run)\n", argv[0]);
      return EXIT_FAILURE;
    }
  seismo_widgets_init ();

  t0 = g_get_monotonic_time ();
  if ((trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error)) == NULL)
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return EXIT_FAILURE;
    }
  load_s = (g_get_monotonic_time () - t0) / 1e6;
  g_print ("%s: %'zu events, opened in %.2f s\n", argv[1], seismo_trace_get_n_events (trace), load_s);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  list = seismo_event_list_new ();
  gtk_window_set_child (GTK_WINDOW (window), list);
  gtk_window_present (GTK_WINDOW (window));
  clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "before-paint", G_CALLBACK (on_before_paint), &b);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &b);
  wait_painted (&b, 1);
  spin_ms (300);

  /* First paint: the frame after the trace is handed over. */
  t0 = g_get_monotonic_time ();
  cpu0 = seismo_bench_thread_cpu_ms ();
  seismo_event_list_set_trace (SEISMO_EVENT_LIST (list), trace);
  gtk_widget_queue_draw (list);
  wait_painted (&b, 1);
  first_paint_ms = (g_get_monotonic_time () - t0) / 1000.0;
  first_paint_cpu = seismo_bench_thread_cpu_ms () - cpu0;
  spin_ms (300);

  /* SeismoEventList > GtkScrolledWindow > GtkColumnView */
  scroller = gtk_widget_get_first_child (list);
  b.adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (seismo_event_list_get_model (SEISMO_EVENT_LIST (list))));
  b.row_height = gtk_adjustment_get_upper (b.adj) / MAX (n_rows, 1);
  g_print ("window %d×%d, %u rows, about %.1f px a row, %.0f rows visible\n", width, height, n_rows,
           b.row_height, gtk_adjustment_get_page_size (b.adj) / MAX (b.row_height, 1));
  g_print ("set_trace → first painted frame: %.1f ms wall, %.1f ms CPU\n", first_paint_ms, first_paint_cpu);

  rss_before = resident_mib ();
  b.rand = g_rand_new_with_seed (42);
  for (Mode mode = 0; mode < N_MODES; mode++)
    {
      guint slow = 0;
      double median_interval;

      b.mode = mode;
      b.done = FALSE;
      b.scrolled = FALSE;
      b.last_start = 0;
      b.work_ms = g_array_new (FALSE, FALSE, sizeof (double));
      b.cpu_ms = g_array_new (FALSE, FALSE, sizeof (double));
      b.interval_ms = g_array_new (FALSE, FALSE, sizeof (double));
      gtk_adjustment_set_value (b.adj, (gtk_adjustment_get_upper (b.adj) - gtk_adjustment_get_page_size (b.adj)) / 2);
      gtk_widget_queue_draw (list);
      wait_painted (&b, 1);
      gtk_widget_add_tick_callback (list, tick, &b, NULL);
      spin_until (&b.done);

      for (guint i = 0; i < b.interval_ms->len; i++)
        slow += g_array_index (b.interval_ms, double, i) > 1.5 * 1000.0 / 60;
      g_array_sort (b.work_ms, seismo_bench_compare_doubles);
      g_array_sort (b.cpu_ms, seismo_bench_compare_doubles);
      g_array_sort (b.interval_ms, seismo_bench_compare_doubles);
      median_interval = percentile (b.interval_ms, 0.5);
      g_print ("%-5s %u frames: CPU median %.2f ms, p95 %.2f ms, max %.2f ms; "
               "wall median %.2f ms, p95 %.2f ms, max %.2f ms; "
               "interval median %.1f ms, %u of %u over 25 ms\n",
               mode_names[mode], b.work_ms->len, percentile (b.cpu_ms, 0.5), percentile (b.cpu_ms, 0.95),
               percentile (b.cpu_ms, 1.0), percentile (b.work_ms, 0.5), percentile (b.work_ms, 0.95),
               percentile (b.work_ms, 1.0), median_interval, slow, b.interval_ms->len);
      g_array_unref (b.work_ms);
      g_array_unref (b.cpu_ms);
      g_array_unref (b.interval_ms);
      spin_ms (200);
    }
  g_print ("resident memory: %.0f MiB before scrolling, %.0f MiB after\n", rss_before, resident_mib ());

  g_rand_free (b.rand);
  gtk_window_destroy (GTK_WINDOW (window));
  return EXIT_SUCCESS;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline drawn on an image surface: the right colors in the right rows at the right times. */

#include <math.h>

#include "seismo-cairo-private.h"
#include "seismo-function-calls.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-tracepoints.h"

#define WIDTH  1200
#define HEIGHT 600

typedef struct {
  SeismoTrace            *trace;
  SeismoTimelineData     *data;
  SeismoTimelineRenderer *r;
  cairo_surface_t        *surface;
  SeismoTaskId            alpha;
  SeismoTaskId            beta;
  SeismoTaskId            beta2;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  user_data)
{
  f->trace = seismo_gui_test_small_trace ();
  f->data = seismo_timeline_data_new (f->trace, NULL);
  g_assert_nonnull (f->data);
  f->r = seismo_timeline_renderer_new (f->data);
  seismo_timeline_renderer_set_size (f->r, WIDTH, HEIGHT);
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  f->alpha = seismo_trace_find_task (f->trace, 100, SEISMO_TEST_T0 + 2000);
  f->beta = seismo_trace_find_task (f->trace, 200, SEISMO_TEST_T0 + 2000);
  f->beta2 = seismo_trace_find_task (f->trace, 201, SEISMO_TEST_T0 + 9500);
  g_assert_cmpuint (f->alpha, !=, SEISMO_NO_TASK);
  g_assert_cmpuint (f->beta, !=, SEISMO_NO_TASK);
  g_assert_cmpuint (f->beta2, !=, SEISMO_NO_TASK);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  user_data)
{
  cairo_surface_destroy (f->surface);
  seismo_timeline_renderer_free (f->r);
  seismo_timeline_data_unref (f->data);
  g_object_unref (f->trace);
}

static void
draw (Fixture *f)
{
  cairo_t *cr = cairo_create (f->surface);

  seismo_timeline_renderer_draw_cairo (f->r, cr);
  cairo_destroy (cr);
  cairo_surface_flush (f->surface);
}

static guint32
pixel (Fixture *f,
       double   x,
       double   y)
{
  const guint8 *data = cairo_image_surface_get_data (f->surface);
  int stride = cairo_image_surface_get_stride (f->surface);

  g_assert_cmpfloat (x, >=, 0);
  g_assert_cmpfloat (x, <, WIDTH);
  g_assert_cmpfloat (y, >=, 0);
  g_assert_cmpfloat (y, <, HEIGHT);
  return *(const guint32 *) (data + (int) y * stride + 4 * (int) x);
}

static guint32
color_of (Fixture *f,
          guint    c)
{
  const SeismoColor *s = &f->r->palette[c];
  const SeismoColor *bg = &f->r->palette[C_BG];
  double a = s->alpha;

  /* Translucent colors land on the opaque background. */
  return 0xff000000u
         | ((guint32) lround ((s->red * a + bg->red * (1 - a)) * 255) << 16)
         | ((guint32) lround ((s->green * a + bg->green * (1 - a)) * 255) << 8)
         | (guint32) lround ((s->blue * a + bg->blue * (1 - a)) * 255);
}

static void
assert_color (guint32     got,
              guint32     want,
              const char *what)
{
  for (int shift = 0; shift < 32; shift += 8)
    if (abs ((int) ((got >> shift) & 0xff) - (int) ((want >> shift) & 0xff)) > 2)
      g_error ("%s: pixel is #%08x, expected #%08x", what, got, want);
}

static double
x_at (Fixture *f,
      guint64  rel_ns)
{
  return floor (seismo_timeline_renderer_ns_to_x (f->r, SEISMO_TEST_T0 + rel_ns));
}

static double
row_top (Fixture      *f,
         SeismoRowKind kind,
         guint         id)
{
  double y, h;

  if (!seismo_timeline_renderer_row_y (f->r, (SeismoRowKey) { kind, id }, &y, &h))
    g_error ("row %d/%u is not shown", kind, id);
  return y;
}

static void
test_rows (Fixture       *f,
           gconstpointer  user_data)
{
  guint n_processes;
  const SeismoTimelineProcess *procs = seismo_timeline_data_get_processes (f->data, &n_processes);
  double y_cpu0, y_cpu1, y_alpha, y_beta2;
  guint beta_proc;

  g_assert_cmpuint (seismo_timeline_data_get_n_cpus (f->data), ==, 2);
  /* alpha alone; beta with its second thread. The idle task has no row. */
  g_assert_cmpuint (n_processes, ==, 2);
  g_assert_cmpint (procs[0].pid, ==, 100);
  g_assert_cmpuint (procs[0].n_tasks, ==, 1);
  g_assert_cmpint (procs[1].pid, ==, 200);
  g_assert_cmpuint (procs[1].n_tasks, ==, 2);
  g_assert_cmpuint (procs[1].main_task, ==, f->beta);
  beta_proc = seismo_timeline_data_task_process (f->data, f->beta2);
  g_assert_cmpuint (beta_proc, ==, 1);

  y_cpu0 = row_top (f, SEISMO_ROW_CPU, 0);
  y_cpu1 = row_top (f, SEISMO_ROW_CPU, 1);
  y_alpha = row_top (f, SEISMO_ROW_TASK, f->alpha);
  row_top (f, SEISMO_ROW_PROCESS, beta_proc);
  y_beta2 = row_top (f, SEISMO_ROW_TASK, f->beta2);
  g_assert_cmpfloat (y_cpu0, >=, SEISMO_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (y_cpu0, <, y_cpu1);
  g_assert_cmpfloat (y_cpu1, <, y_alpha);
  g_assert_cmpfloat (y_alpha, <, y_beta2);

  /* Hide, show, collapse, pin, move. */
  seismo_timeline_renderer_hide_row (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, f->alpha });
  g_assert_false (seismo_timeline_renderer_row_y (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, f->alpha }, &y_alpha, &y_cpu0));
  g_assert_cmpuint (seismo_timeline_renderer_get_n_hidden (f->r), ==, 1);
  seismo_timeline_renderer_show_all_rows (f->r);
  g_assert_cmpuint (seismo_timeline_renderer_get_n_hidden (f->r), ==, 0);
  row_top (f, SEISMO_ROW_TASK, f->alpha);

  seismo_timeline_renderer_set_collapsed (f->r, (SeismoRowKey) { SEISMO_ROW_PROCESS, beta_proc }, TRUE);
  g_assert_false (seismo_timeline_renderer_row_y (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, f->beta2 }, &y_beta2, &y_cpu0));
  seismo_timeline_renderer_set_collapsed (f->r, (SeismoRowKey) { SEISMO_ROW_PROCESS, beta_proc }, FALSE);

  seismo_timeline_renderer_set_pinned (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, f->beta2 }, TRUE);
  g_assert_true (seismo_timeline_renderer_get_pinned (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, f->beta2 }));
  /* Pinned: right below the ruler, above the CPU rows. */
  g_assert_cmpfloat (row_top (f, SEISMO_ROW_TASK, f->beta2), ==, SEISMO_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (row_top (f, SEISMO_ROW_CPU, 0), >, SEISMO_TIMELINE_RULER_HEIGHT);
  seismo_timeline_renderer_set_pinned (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, f->beta2 }, FALSE);

  y_cpu0 = row_top (f, SEISMO_ROW_CPU, 0);
  seismo_timeline_renderer_move_row (f->r, (SeismoRowKey) { SEISMO_ROW_CPU, 0 }, +1);
  g_assert_cmpfloat (row_top (f, SEISMO_ROW_CPU, 1), ==, y_cpu0);
  g_assert_cmpfloat (row_top (f, SEISMO_ROW_CPU, 0), >, y_cpu0);
}

static void
test_pixels (Fixture       *f,
             gconstpointer  user_data)
{
  const SeismoTimelineTask *alpha = &f->data->tasks[f->alpha];
  const SeismoTimelineTask *beta = &f->data->tasks[f->beta];
  double cpu0, cpu1, row_alpha, row_beta;

  draw (f);
  cpu0 = row_top (f, SEISMO_ROW_CPU, 0);
  cpu1 = row_top (f, SEISMO_ROW_CPU, 1);
  row_alpha = row_top (f, SEISMO_ROW_TASK, f->alpha);
  row_beta = row_top (f, SEISMO_ROW_TASK, f->beta);

  /* CPU rows: alpha runs on CPU 0 from 1000 to 5000, then CPU 0 is idle (blank). Times are
   * picked off the grid lines (every 2000 ns at this scale). */
  assert_color (pixel (f, x_at (f, 3300), cpu0 + 10), color_of (f, C_TASK + alpha->color), "alpha on CPU 0");
  assert_color (pixel (f, x_at (f, 1100), cpu0 + 18), color_of (f, C_TASK + alpha->color), "alpha starts");
  assert_color (pixel (f, x_at (f, 7300), cpu0 + 10), color_of (f, C_BG), "CPU 0 idle");
  assert_color (pixel (f, x_at (f, 6000), cpu1 + 10), color_of (f, C_TASK + beta->color), "beta on CPU 1");
  /* The lost event on CPU 1 at 4000 is marked. */
  assert_color (pixel (f, x_at (f, 4000), cpu1 + 3), color_of (f, C_LOST), "lost events");

  /* Task rows: the state lane (running box, sleeping thin line, runnable box after the wakeup),
   * the read() box, the failed write() box, the wakeup tick. */
  assert_color (pixel (f, x_at (f, 3300), row_alpha + 4), color_of (f, C_STATE_RUNNING), "alpha runs");
  assert_color (pixel (f, x_at (f, 7300), row_alpha + 4), color_of (f, C_STATE_SLEEPING), "alpha sleeps");
  assert_color (pixel (f, x_at (f, 7300), row_alpha + 8), color_of (f, C_BG), "sleeping is a thin line");
  assert_color (pixel (f, x_at (f, 8700), row_alpha + 8), color_of (f, C_STATE_RUNNABLE),
                "alpha runnable after its wakeup");
  assert_color (pixel (f, x_at (f, 2000), row_alpha + 22),
                color_of (f, C_SYSCALL + (0 * 7u + 3u) % SEISMO_TIMELINE_N_TASK_COLORS), "read()");
  assert_color (pixel (f, x_at (f, 2800), row_alpha + 22), color_of (f, C_BG), "after read()");
  assert_color (pixel (f, x_at (f, 6500), row_beta + 22), color_of (f, C_SYSCALL_ERROR), "write() failed");
  assert_color (pixel (f, x_at (f, 8000), row_beta + 27), color_of (f, C_TICK), "wakeup event tick");
  assert_color (pixel (f, x_at (f, 7500), row_beta + 27), color_of (f, C_BG), "no tick");
}

static void
test_zoom (Fixture       *f,
           gconstpointer  user_data)
{
  double fit = seismo_timeline_renderer_get_ns_per_px (f->r);
  double row_alpha, box_left, box_right;
  guint32 box;
  guint differing = 0;

  /* Around read(): the box fills most of the view and carries its name. */
  seismo_timeline_renderer_zoom_to (f->r, SEISMO_TEST_T0 + 1400, SEISMO_TEST_T0 + 2600);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (f->r), <, fit / 5);
  draw (f);
  row_alpha = row_top (f, SEISMO_ROW_TASK, f->alpha);
  box_left = x_at (f, 1500);
  box_right = x_at (f, 2500);
  g_assert_cmpfloat (box_right - box_left, >, 500);
  box = pixel (f, box_right - 4, row_alpha + 22);
  for (double x = box_left + 2; x < box_left + 40; x++)
    for (double y = row_alpha + 10; y < row_alpha + 22; y++)
      differing += pixel (f, x, y) != box;
  g_assert_cmpuint (differing, >, 10);   /* "read" is written in the box */

  /* Zooming around a point keeps it in place. */
  {
    double x = 700, before = seismo_timeline_renderer_x_to_ns (f->r, x);

    seismo_timeline_renderer_zoom (f->r, 0.5, x);
    g_assert_cmpfloat (fabs (seismo_timeline_renderer_x_to_ns (f->r, x) - before), <, 1);
  }
  seismo_timeline_renderer_fit_all (f->r);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (f->r), ==, fit);
}

static void
test_markers (Fixture       *f,
              gconstpointer  user_data)
{
  guint64 a;
  double y = row_top (f, SEISMO_ROW_TASK, f->alpha) + 15;

  seismo_timeline_renderer_set_marker (f->r, 0, SEISMO_TEST_T0 + 4000);
  seismo_timeline_renderer_set_marker (f->r, 1, SEISMO_TEST_T0 + 6000);
  g_assert_true (seismo_timeline_renderer_get_marker (f->r, 0, &a));
  g_assert_cmpuint (a, ==, SEISMO_TEST_T0 + 4000);
  draw (f);
  assert_color (pixel (f, x_at (f, 4000), y), color_of (f, C_MARKER_A), "marker A");
  assert_color (pixel (f, x_at (f, 6000), y), color_of (f, C_MARKER_B), "marker B");
  seismo_timeline_renderer_clear_marker (f->r, 0);
  g_assert_false (seismo_timeline_renderer_get_marker (f->r, 0, NULL));
}

/* The base and the overlays drawn one after the other are the whole frame, and the base key
 * changes with what the base shows, not with what only the overlays show. */
static void
test_layers (Fixture       *f,
             gconstpointer  user_data)
{
  cairo_surface_t *layers = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  SeismoTimelineBaseKey k0, k;
  SeismoTimelineRenderer *other;
  cairo_t *cr;
  gsize n = seismo_trace_get_n_events (f->trace);
  SeismoRowKey cpus = { SEISMO_ROW_CPU_GROUP, 0 };
  guint32 lit;

  seismo_timeline_renderer_set_marker (f->r, 0, SEISMO_TEST_T0 + 4000);
  seismo_timeline_renderer_set_marker (f->r, 1, SEISMO_TEST_T0 + 6000);
  seismo_timeline_renderer_set_range (f->r, SEISMO_TEST_T0 + 3000, SEISMO_TEST_T0 + 5000);
  seismo_timeline_renderer_set_selected_event (f->r, (SeismoEventId) (n / 2));
  draw (f);
  cr = cairo_create (layers);
  seismo_timeline_renderer_draw_base_cairo (f->r, cr);
  seismo_timeline_renderer_draw_overlays_cairo (f->r, cr);
  cairo_destroy (cr);
  cairo_surface_flush (layers);
  for (int y = 0; y < HEIGHT; y++)
    g_assert_cmpmem (cairo_image_surface_get_data (f->surface) + y * cairo_image_surface_get_stride (f->surface),
                     WIDTH * 4,
                     cairo_image_surface_get_data (layers) + y * cairo_image_surface_get_stride (layers),
                     WIDTH * 4);
  cairo_surface_destroy (layers);

  seismo_timeline_renderer_get_base_key (f->r, &k0);
  /* Overlays only: the same base. */
  seismo_timeline_renderer_set_selected_event (f->r, (SeismoEventId) (n / 3));
  seismo_timeline_renderer_set_focus_task (f->r, f->beta);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_true (seismo_timeline_base_key_equal (&k0, &k));

  /* What the base shows: each one a new base. */
  seismo_timeline_renderer_set_marker (f->r, 1, SEISMO_TEST_T0 + 7000);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_false (seismo_timeline_base_key_equal (&k0, &k));
  seismo_timeline_renderer_set_marker (f->r, 1, SEISMO_TEST_T0 + 6000);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_true (seismo_timeline_base_key_equal (&k0, &k));

  seismo_timeline_renderer_clear_range (f->r);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_false (seismo_timeline_base_key_equal (&k0, &k));
  seismo_timeline_renderer_set_range (f->r, SEISMO_TEST_T0 + 3000, SEISMO_TEST_T0 + 5000);

  /* The pointer lights the row under it: within a row, the same base; in another, a new one. */
  {
    double top = row_top (f, SEISMO_ROW_TASK, f->alpha);
    SeismoTimelineBaseKey in_row;

    seismo_timeline_renderer_set_hover_y (f->r, top + 2);
    seismo_timeline_renderer_get_base_key (f->r, &in_row);
    g_assert_false (seismo_timeline_base_key_equal (&k0, &in_row));
    seismo_timeline_renderer_set_hover_y (f->r, top + ROW_HEIGHT_TASK - 2);
    seismo_timeline_renderer_get_base_key (f->r, &k);
    g_assert_true (seismo_timeline_base_key_equal (&in_row, &k));
    seismo_timeline_renderer_set_hover_y (f->r, top + ROW_HEIGHT_TASK + 2);
    seismo_timeline_renderer_get_base_key (f->r, &k);
    g_assert_false (seismo_timeline_base_key_equal (&in_row, &k));
    /* And that is the row drawn lit. */
    seismo_timeline_renderer_set_hover_y (f->r, top + 2);
    draw (f);
    lit = pixel (f, 5, top + 3);
  }
  seismo_timeline_renderer_set_hover_y (f->r, -1);
  draw (f);
  g_assert_cmphex (pixel (f, 5, row_top (f, SEISMO_ROW_TASK, f->alpha) + 3), !=, lit);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_true (seismo_timeline_base_key_equal (&k0, &k));

  seismo_timeline_renderer_zoom (f->r, 0.5, WIDTH / 2);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_false (seismo_timeline_base_key_equal (&k0, &k));
  seismo_timeline_renderer_get_base_key (f->r, &k0);

  /* Rows laid out again (a group collapsed) are a new base, even collapsed and opened again. */
  seismo_timeline_renderer_set_collapsed (f->r, cpus, TRUE);
  seismo_timeline_renderer_set_collapsed (f->r, cpus, FALSE);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_false (seismo_timeline_base_key_equal (&k0, &k));
  seismo_timeline_renderer_get_base_key (f->r, &k0);

  seismo_timeline_renderer_set_size (f->r, WIDTH - 10, HEIGHT);
  seismo_timeline_renderer_get_base_key (f->r, &k);
  g_assert_false (seismo_timeline_base_key_equal (&k0, &k));

  /* Another renderer never shares a base, whatever it shows. */
  other = seismo_timeline_renderer_new (f->data);
  seismo_timeline_renderer_get_base_key (other, &k0);
  seismo_timeline_renderer_get_base_key (other, &k);
  g_assert_true (seismo_timeline_base_key_equal (&k0, &k));
  k.renderer = f->r->id;
  g_assert_false (seismo_timeline_base_key_equal (&k0, &k));
  seismo_timeline_renderer_free (other);
}

/* Pixels written straight into an image (the rate strip's bars) are those Cairo fills. */
static void
test_rgb_pixel (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  const double alphas[] = { 1.0, 0.9, 0.5, 0.15 };

  for (guint a = 0; a < G_N_ELEMENTS (alphas); a++)
    for (guint v = 0; v < 256; v++)
      {
        /* Each channel through every value, the others apart from it. */
        guint32 rgb = v << 16 | (255 - v) << 8 | ((v * 37) & 0xff);
        cairo_t *cr = cairo_create (s);

        cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
        cairo_paint (cr);
        cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
        cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
        seismo_cairo_set_rgb (cr, rgb, alphas[a]);
        cairo_rectangle (cr, 0, 0, 1, 1);
        cairo_fill (cr);
        cairo_destroy (cr);
        cairo_surface_flush (s);
        g_assert_cmphex (*(guint32 *) cairo_image_surface_get_data (s), ==,
                         seismo_cairo_rgb_pixel (rgb, alphas[a]));
      }
  cairo_surface_destroy (s);
}

static void
test_hit (Fixture       *f,
          gconstpointer  user_data)
{
  double cpu0 = row_top (f, SEISMO_ROW_CPU, 0) + 10;
  double row_alpha = row_top (f, SEISMO_ROW_TASK, f->alpha) + 15;
  SeismoEventId e;
  g_autofree char *text = NULL;
  const SeismoSyscallSpan *span;

  /* Nearest event on the CPU row: the switch to alpha at 1000. */
  e = seismo_timeline_renderer_event_at (f->r, x_at (f, 1000) + 1, cpu0);
  g_assert_cmpuint (e, !=, SEISMO_NO_EVENT);
  g_assert_cmpuint (seismo_trace_event_time (f->trace, e), ==, SEISMO_TEST_T0 + 1000);
  g_assert_cmpstr (seismo_trace_event_type (f->trace, e)->name, ==, "sched_switch");

  /* Inside the read() box: its enter; the span pairs it with the exit. */
  seismo_timeline_renderer_zoom_to (f->r, SEISMO_TEST_T0 + 1400, SEISMO_TEST_T0 + 2600);
  e = seismo_timeline_renderer_event_at (f->r, x_at (f, 2000), row_alpha);
  g_assert_cmpuint (e, !=, SEISMO_NO_EVENT);
  g_assert_cmpstr (seismo_trace_event_type (f->trace, e)->name, ==, "sys_enter");
  span = seismo_timeline_data_find_span (f->data, e);
  g_assert_nonnull (span);
  g_assert_cmpuint (span->enter, ==, e);
  g_assert_cmpuint (seismo_trace_event_time (f->trace, span->exit), ==, SEISMO_TEST_T0 + 2500);
  g_assert_true (seismo_timeline_data_find_span (f->data, span->exit) == span);
  g_assert_cmpuint (seismo_timeline_data_span_end_ns (f->data, span), ==, SEISMO_TEST_T0 + 2500);

  text = seismo_timeline_renderer_describe_at (f->r, x_at (f, 2000), row_alpha);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "alpha"));
  g_assert_nonnull (strstr (text, "read()"));
  g_assert_nonnull (strstr (text, "returned 10"));

  /* The row's events near the pointer are its own, found without a per-row event index: on the
   * task row the exit at 2500 (not the CPU's other events), on beta's process row the getpid()
   * of its second thread at 9500, on CPU 1 the write() at 6000. */
  seismo_timeline_renderer_fit_all (f->r);
  seismo_timeline_renderer_zoom_to (f->r, SEISMO_TEST_T0 + 1000, SEISMO_TEST_T0 + 10000);
  e = seismo_timeline_renderer_event_at (f->r, x_at (f, 2500) + 1, row_alpha);
  g_assert_cmpuint (e, ==, span->exit);
  {
    guint p = seismo_timeline_data_task_process (f->data, f->beta);
    double row_beta = row_top (f, SEISMO_ROW_PROCESS, p) + 10;
    double cpu1 = row_top (f, SEISMO_ROW_CPU, 1) + 10;

    e = seismo_timeline_renderer_event_at (f->r, x_at (f, 9500) + 1, row_beta);
    g_assert_cmpuint (e, !=, SEISMO_NO_EVENT);
    g_assert_cmpuint (seismo_trace_event_time (f->trace, e), ==, SEISMO_TEST_T0 + 9500);
    g_assert_cmpuint (seismo_trace_get_tasks (f->trace)[e], ==, f->beta2);
    e = seismo_timeline_renderer_event_at (f->r, x_at (f, 6000) + 1, cpu1);
    g_assert_cmpuint (e, !=, SEISMO_NO_EVENT);
    g_assert_cmpuint (seismo_trace_event_time (f->trace, e), ==, SEISMO_TEST_T0 + 6000);
    g_assert_cmpuint (seismo_trace_get_cpus (f->trace)[e], ==, 1);
    /* Beside another row's event: not that one, but the start of the run under the pointer. */
    e = seismo_timeline_renderer_event_at (f->r, x_at (f, 5000) + 1, cpu1);
    g_assert_cmpuint (seismo_trace_event_time (f->trace, e), ==, SEISMO_TEST_T0 + 3000);
    e = seismo_timeline_renderer_event_at (f->r, x_at (f, 3000) + 1, row_alpha);
    g_assert_cmpuint (seismo_trace_event_time (f->trace, e), ==, SEISMO_TEST_T0 + 1000);
  }
}

/* A recording shown live: new data of the grown trace replaces the old. A view showing it all
 * keeps showing it all; a zoomed view stays where it was. */
static void
test_grow (void)
{
  g_autoptr(SeismoTrace) small = seismo_gui_test_busy_trace (2000);
  g_autoptr(SeismoTrace) grown = seismo_gui_test_busy_trace (20000);
  g_autoptr(SeismoTimelineData) small_data = seismo_timeline_data_new (small, NULL);
  g_autoptr(SeismoTimelineData) grown_data = seismo_timeline_data_new (grown, NULL);
  g_autoptr(SeismoTimelineRenderer) r = seismo_timeline_renderer_new (small_data);
  double start, npp;

  seismo_timeline_renderer_set_size (r, WIDTH, HEIGHT);
  seismo_timeline_renderer_fit_all (r);
  g_assert_cmpuint (seismo_trace_get_end_ns (grown), >, seismo_trace_get_end_ns (small));
  seismo_timeline_renderer_set_data (r, grown_data);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), ==,
                     seismo_timeline_renderer_get_fit_ns_per_px (r));

  seismo_timeline_renderer_set_data (r, small_data);
  seismo_timeline_renderer_zoom (r, 1.0 / 8, SEISMO_TIMELINE_LABEL_WIDTH + 100);
  start = seismo_timeline_renderer_get_view_start (r);
  npp = seismo_timeline_renderer_get_ns_per_px (r);
  seismo_timeline_renderer_set_data (r, grown_data);
  g_assert_cmpfloat (seismo_timeline_renderer_get_ns_per_px (r), ==, npp);
  g_assert_cmpfloat (seismo_timeline_renderer_get_view_start (r), ==, start);
}

/* Counts what a frame draws. */
static guint n_rects;

static void
count_rects (gpointer           data,
             const SeismoColor *color,
             const double      *r,
             guint              n)
{
  n_rects += n;
}

static void
count_text (gpointer data, double x, double y, PangoLayout *layout, const SeismoColor *c)
{
}

static cairo_t *
count_begin_cairo (gpointer data, double x, double y, double w, double h)
{
  return data;
}

static void
count_nothing (gpointer data)
{
}

static void
count_end_cairo (gpointer data, cairo_t *cr)
{
}

static void
count_push_clip (gpointer data, double x, double y, double w, double h)
{
}

static void
test_bounded (void)
{
  static const SeismoCanvas counter = {
    count_rects, count_text, count_begin_cairo, count_end_cairo, count_push_clip, count_nothing,
  };
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (300000);
  g_autoptr(SeismoTimelineData) data = seismo_timeline_data_new (trace, NULL);
  g_autoptr(SeismoTimelineRenderer) r = seismo_timeline_renderer_new (data);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  guint n_rows = 0;
  double duration;

  seismo_timeline_renderer_set_size (r, WIDTH, 2000);
  duration = seismo_timeline_renderer_get_duration (r);
  for (guint p = 0; p < 10; p++)
    seismo_timeline_renderer_set_collapsed (r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, FALSE);
  n_rows = seismo_timeline_renderer_get_rows_height (r) / ROW_HEIGHT_GROUP + 1;

  /* Whatever the zoom, a frame draws a bounded number of rectangles per column and row. */
  for (double zoom = 1; zoom <= 1e6; zoom *= 10)
    {
      seismo_timeline_renderer_set_view (r, duration / 3,
                                         seismo_timeline_renderer_get_fit_ns_per_px (r) / zoom);
      n_rects = 0;
      seismo_timeline_renderer_draw (r, &counter, cr);
      g_test_message ("zoom %gx: %u rectangles", zoom, n_rects);
      g_assert_cmpuint (n_rects, <=, 5 * (WIDTH - SEISMO_TIMELINE_LABEL_WIDTH) * n_rows + 1000);
      g_assert_cmpuint (n_rects, >, 0);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_format (void)
{
  g_autofree char *a = seismo_format_duration (1234);
  g_autofree char *b = seismo_format_duration (2.5e9);
  g_autofree char *c = seismo_format_duration (999);
  g_autofree char *d = seismo_format_time (1.5e9, 1e8);
  g_autofree char *e = seismo_format_time (2e6, 1e6);
  g_autofree char *f = seismo_format_time (500, 10);

  g_assert_cmpstr (a, ==, "1.234 µs");
  g_assert_cmpstr (b, ==, "2.500 s");
  g_assert_cmpstr (c, ==, "999 ns");
  g_assert_cmpstr (d, ==, "1.5 s");
  g_assert_cmpstr (e, ==, "2 ms");
  g_assert_cmpstr (f, ==, "500 ns");
}

/*
 * function_graph calls: a task row grows a lane per nesting level; each call is a box in its lane,
 * in its function's hue, and the pointer over it finds its exit event.
 */
static void
test_calls (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "ftrace-funcgraph-plain.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  SeismoTimelineData *data;
  Fixture f = { 0 };
  const SeismoFunctionCall *calls, *sys_open = NULL, *getname = NULL;
  gsize n_calls;
  double y, h;

  g_assert_no_error (error);
  calls = seismo_trace_get_function_calls (trace, &n_calls);
  for (gsize i = 0; i < n_calls; i++)
    {
      const char *name = seismo_trace_get_string (trace, calls[i].func);

      if (g_str_equal (name, "sys_open"))
        sys_open = &calls[i];
      else if (g_str_equal (name, "getname"))
        getname = &calls[i];
    }
  g_assert_nonnull (sys_open);
  g_assert_nonnull (getname);

  data = seismo_timeline_data_new (trace, NULL);
  f.trace = g_object_ref (trace);
  f.data = data;
  f.r = seismo_timeline_renderer_new (data);
  seismo_timeline_renderer_set_size (f.r, WIDTH, HEIGHT);
  f.surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  seismo_timeline_renderer_set_view (f.r, (double) sys_open->start_ns - (double) data->start_ns,
                                     (double) (sys_open->end_ns - sys_open->start_ns) /
                                     seismo_timeline_renderer_get_area_width (f.r) * 1.1);
  draw (&f);

  /* sys_open's task: calls five levels deep under sys_open (level 0). */
  g_assert_cmpuint (data->tasks[sys_open->task].n_call_levels, ==, 6);
  g_assert_true (seismo_timeline_renderer_row_y (f.r, (SeismoRowKey) { SEISMO_ROW_TASK, sys_open->task },
                                                 &y, &h));
  g_assert_cmpfloat (h, ==, ROW_HEIGHT_TASK + 6 * ROW_HEIGHT_CALL);
  {
    double x_open = seismo_timeline_renderer_ns_to_x (f.r, sys_open->start_ns / 2 + sys_open->end_ns / 2);
    double x_getname = seismo_timeline_renderer_ns_to_x (f.r, getname->start_ns / 2 + getname->end_ns / 2);
    double y0 = y + ROW_HEIGHT_TASK + 5, y2 = y + ROW_HEIGHT_TASK + 2 * ROW_HEIGHT_CALL + 5;
    guint hue_open = (sys_open->func * 7u + 5u) % SEISMO_TIMELINE_N_TASK_COLORS;

    assert_color (pixel (&f, floor (x_open), y0), color_of (&f, C_SYSCALL + hue_open), "sys_open's box");
    g_assert_cmpuint (seismo_timeline_renderer_event_at (f.r, x_open, y0), ==, sys_open->exit);
    g_assert_cmpuint (seismo_timeline_renderer_event_at (f.r, x_getname, y2), ==, getname->exit);
    /* Below the deepest lane of this task at that time: nothing. */
    g_assert_cmpuint (seismo_timeline_renderer_event_at (f.r, x_open, y + h - 3), ==, SEISMO_NO_EVENT);
  }
  fixture_teardown (&f, NULL);
}

/* The first of a task's spans that starts at t or later, by a walk over all of them. */
static gsize
span_lower_bound_by_walk (const SeismoSeq         *s,
                          const SeismoSyscallSpan *spans,
                          const guint64           *ts,
                          guint64                  t)
{
  gsize i = 0;

  while (i < s->n && ts[spans[_seismo_seq_span (s, i)].enter] < t)
    i++;
  return i;
}

/*
 * A task's syscall spans keep the start of every SEISMO_SEQ_SPAN_STRIDE-th span only; the others,
 * and every end, are read through the trace. Two tasks' syscalls interleave over 26 s, across a
 * 2^32 ns boundary, in counts that are not multiples of the stride, some longer than 16 bits of
 * ns. Then a third task's calls are 5000 of a fourth's apart, so that its strides span more of
 * the trace's spans than 16 bits count (its first stride keeps high bits). Every search from
 * every place a caller may start it agrees with a walk over the spans, and every start and end
 * with the trace's own times.
 */
static void
test_long_span (void)
{
  const SeismoTracepoint *en = seismo_tracepoint_lookup ("raw_syscalls", "sys_enter");
  const SeismoTracepoint *ex = seismo_tracepoint_lookup ("raw_syscalls", "sys_exit");
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  const guint64 t0 = (G_GUINT64_CONSTANT (1) << 32) - 500;
  const guint n_calls[4] = { 203, 37, 17, 16 * 5000 };
  const gboolean far[4] = { FALSE, FALSE, TRUE, FALSE };
  guint64 at;
  guint ten, tex;
  const guint64 *ts;
  const SeismoSyscallSpan *spans;
  gsize n_spans;

  ten = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", en->fields, en->n_fields,
                                             "NR {id} {args}");
  tex = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_exit", ex->fields, ex->n_fields,
                                             "NR {id} = {ret}");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_n_cpus (b, 1);
  seismo_trace_builder_task (b, 42);
  seismo_trace_builder_set_task_comm (b, 42, "busy", 0);
  seismo_trace_builder_task (b, 43);
  seismo_trace_builder_set_task_comm (b, 43, "sparse", 0);
  seismo_trace_builder_task (b, 44);
  seismo_trace_builder_set_task_comm (b, 44, "rare", 0);
  seismo_trace_builder_task (b, 45);
  seismo_trace_builder_set_task_comm (b, 45, "flood", 0);
  for (guint k = 0; k < n_calls[0]; k++)
    {
      guint64 args[6] = { 0 };
      guint64 enter = t0 + k * G_GUINT64_CONSTANT (128000000);
      guint64 len = k % 7 == 0 ? 100000000 : 1000 + k;   /* 100 ms, past 16 bits; or ~1 µs */

      /* Every fifth call of the busy task, the sparse one makes one 2 ms later: the spans of
       * each task are far apart in the trace's. */
      for (guint who = 0; who < 2; who++)
        {
          guint64 when = enter + who * 2000000;

          if (who == 1 && (k % 5 != 0 || k / 5 >= n_calls[1]))
            continue;
          seismo_trace_builder_begin_event (b, when, 0, 42 + who, ten);
          seismo_trace_builder_push_uint (b, 0);
          seismo_trace_builder_push_uint_array (b, args, 6);
          seismo_trace_builder_end_event (b);
          seismo_trace_builder_begin_event (b, when + (who ? 500 : len), 0, 42 + who, tex);
          seismo_trace_builder_push_uint (b, 0);
          seismo_trace_builder_push_int (b, 1);
          seismo_trace_builder_end_event (b);
        }
    }
  at = t0 + n_calls[0] * G_GUINT64_CONSTANT (128000000);
  for (guint k = 0; k < n_calls[2]; k++)
    for (guint j = 0; j < (k + 1 < n_calls[2] ? 5001 : 1); j++)
      {
        guint64 args[6] = { 0 };
        guint tid = j == 0 ? 44 : 45;

        seismo_trace_builder_begin_event (b, at, 0, tid, ten);
        seismo_trace_builder_push_uint (b, 0);
        seismo_trace_builder_push_uint_array (b, args, 6);
        seismo_trace_builder_end_event (b);
        seismo_trace_builder_begin_event (b, at + 400, 0, tid, tex);
        seismo_trace_builder_push_uint (b, 0);
        seismo_trace_builder_push_int (b, 1);
        seismo_trace_builder_end_event (b);
        at += 1000;
      }
  trace = seismo_trace_builder_finish (b);
  data = seismo_timeline_data_new (trace, NULL);
  ts = seismo_trace_get_times (trace);
  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  for (guint who = 0; who < G_N_ELEMENTS (n_calls); who++)
    {
      SeismoTaskId task = seismo_trace_find_task (trace, 42 + who, t0);
      const SeismoSeq *s;
      /* The flood's searches are checked at every 97th span, from three places each. */
      gsize step = who == 3 ? 97 : 1;

      g_autoptr(GArray) own = g_array_new (FALSE, FALSE, sizeof (guint32));

      g_assert_cmpuint (task, !=, SEISMO_NO_TASK);
      s = &data->tasks[task].spans;
      g_assert_cmpuint (s->n, ==, n_calls[who]);
      /* The task's spans, in the trace's order, and their indices. */
      for (guint32 j = 0; j < n_spans; j++)
        if (seismo_trace_get_tasks (trace)[spans[j].enter] == task)
          g_array_append_val (own, j);
      g_assert_cmpuint (own->len, ==, s->n);
      for (gsize i = 0; i < s->n; i++)
        g_assert_cmpuint (_seismo_seq_span (s, i), ==, g_array_index (own, guint32, i));
      g_assert_null (s->starts);
      g_assert_null (s->idx);
      /* Strides across more than 16 bits of the trace's spans keep high bits: the rare task's. */
      for (gsize k = 0; k * SEISMO_SEQ_SPAN_STRIDE < s->n; k++)
        g_assert_true ((s->idx_high_at[k] != G_MAXUINT32) == (far[who] && k == 0));
      for (gsize i = 0; i < s->n; i += SEISMO_SEQ_SPAN_STRIDE)
        g_assert_cmpuint (s->coarse[i / SEISMO_SEQ_SPAN_STRIDE], ==,
                          ts[spans[_seismo_seq_span (s, i)].enter]);
      for (gsize i = 0; i < s->n; i += step)
        {
          const SeismoSyscallSpan *span = &spans[_seismo_seq_span (s, i)];
          guint64 probes[4] = { ts[span->enter] - 1, ts[span->enter], ts[span->enter] + 1,
                                ts[span->exit] };

          g_assert_cmpuint (_seismo_seq_start_at (data, s, i), ==, ts[span->enter]);
          g_assert_cmpuint (_seismo_seq_end (data, s, i), ==, ts[span->exit]);
          for (guint p = 0; p < G_N_ELEMENTS (probes); p++)
            {
              gsize want = span_lower_bound_by_walk (s, spans, ts, probes[p]);

              /* Callers may start anywhere at or before the answer. */
              for (gsize from = 0; from <= want; from += step == 1 ? 1 : MAX (want / 2, 1))
                g_assert_cmpuint (_seismo_seq_lower_bound (data, s, probes[p], from), ==, want);
              g_assert_cmpuint (_seismo_seq_lower_bound (data, s, probes[p], want), ==, want);
              /* Past it, the search stays where it starts. */
              if (want + 1 <= s->n)
                g_assert_cmpuint (_seismo_seq_lower_bound (data, s, probes[p], want + 1), ==,
                                  want + 1);
            }
          g_assert_true (seismo_timeline_data_span_at (data, task, ts[span->exit] - 1) == span);
          g_assert_cmpuint (seismo_timeline_data_span_end_ns (data, span), ==, ts[span->exit]);
          if (i + 1 == s->n || ts[spans[_seismo_seq_span (s, i + 1)].enter] > ts[span->exit] + 1)
            g_assert_null (seismo_timeline_data_span_at (data, task, ts[span->exit] + 1));
        }
      g_assert_cmpuint (_seismo_seq_lower_bound (data, s, 0, 0), ==, 0);
      g_assert_cmpuint (_seismo_seq_lower_bound (data, s, G_MAXUINT64, 0), ==, s->n);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/timeline/rows", Fixture, NULL, fixture_setup, test_rows, fixture_teardown);
  g_test_add ("/timeline/pixels", Fixture, NULL, fixture_setup, test_pixels, fixture_teardown);
  g_test_add ("/timeline/zoom", Fixture, NULL, fixture_setup, test_zoom, fixture_teardown);
  g_test_add ("/timeline/markers", Fixture, NULL, fixture_setup, test_markers, fixture_teardown);
  g_test_add ("/timeline/layers", Fixture, NULL, fixture_setup, test_layers, fixture_teardown);
  g_test_add ("/timeline/hit", Fixture, NULL, fixture_setup, test_hit, fixture_teardown);
  g_test_add_func ("/timeline/rgb-pixel", test_rgb_pixel);
  g_test_add_func ("/timeline/bounded", test_bounded);
  g_test_add_func ("/timeline/grow", test_grow);
  g_test_add_func ("/timeline/format", test_format);
  g_test_add_func ("/timeline/calls", test_calls);
  g_test_add_func ("/timeline/long-span", test_long_span);
  return g_test_run ();
}

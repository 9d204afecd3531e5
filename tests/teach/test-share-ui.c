/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Sharing in the real application, under Xvfb: a session beside the trace is restored on open and
 * saved again; the timeline exported as PNG equals the window's own drawing of it pixel for pixel;
 * a bundle opens with its view; comparing a trace with itself shows no differences, with another
 * it does, and zoom follows across. With SEISMO_SHOT_DIR set, writes export-window.png there,
 * and with SEISMO_SHOT_COMPARE="A B [SYSCALL]" too compare.png of those two traces (the window
 * contents as drawn). Run with G_DEBUG=fatal-criticals.
 */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "seismo-compare-view.h"
#include "seismo-export-dialog.h"
#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-session.h"
#include "seismo-timeline-notes.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"
#include "seismo-window-share.h"

static char *dir;
static char *trace_path;
static char *other_path;


static gboolean
window_has_trace (gpointer data)
{
  return seismo_window_get_trace (data) != NULL;
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

static guint64 view_start_wanted;

static gboolean
view_restored (gpointer data)
{
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (seismo_window_get_timeline (data));

  return r != NULL && fabs (seismo_timeline_renderer_x_to_ns (r, SEISMO_TIMELINE_LABEL_WIDTH)
                            - (double) view_start_wanted) < 2.0;
}

static gboolean
filter_applied (gpointer data)
{
  return g_strcmp0 (seismo_window_get_filter (data), "cpu == 0") == 0;
}

/* The widget as GTK draws it (its snapshot, rendered with Cairo). */
static cairo_surface_t *
draw_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  gsk_render_node_draw (node, cr);
  gsk_render_node_unref (node);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
maybe_shot (GtkWidget  *widget,
            const char *name)
{
  const char *shots = g_getenv ("SEISMO_SHOT_DIR");
  g_autofree char *path = NULL;
  cairo_surface_t *s;

  if (shots == NULL)
    return;
  path = g_build_filename (shots, name, NULL);
  s = draw_widget (widget);
  g_assert_cmpint (cairo_surface_write_to_png (s, path), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
}

static void
check_session_restored (SeismoWindow *window)
{
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (seismo_window_get_timeline (window));
  guint n_notes;
  const SeismoTimelineNote *notes;
  guint64 t;

  g_assert_true (seismo_gui_test_wait_for (view_restored, window, 10000));
  g_assert_true (seismo_timeline_renderer_get_marker (r, 0, &t));
  g_assert_cmpuint (t, ==, view_start_wanted + 100000);
  notes = seismo_timeline_renderer_get_notes (r, &n_notes);
  g_assert_cmpuint (n_notes, ==, 1);
  g_assert_cmpstr (notes[0].text, ==, "the first switch");
  g_assert_cmpuint (seismo_timeline_renderer_get_n_hidden (r), ==, 1);
  g_assert_true (seismo_gui_test_wait_for (filter_applied, window, 10000));
  g_assert_cmpstr (seismo_window_get_pane (window), ==, "stats");
}

/* The export path and the widget path draw the same pixels at the same size. */
static void
check_png_equals_window (SeismoWindow *window)
{
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  SeismoTimelineRenderer *r = seismo_timeline_get_renderer (timeline);
  g_autofree char *png = g_build_filename (dir, "view.png", NULL);
  SeismoTimelineExportOptions o = { SEISMO_IMAGE_FORMAT_PNG, 0, 0, 1.0, NULL, FALSE };
  g_autoptr(GError) error = NULL;
  cairo_surface_t *drawn, *exported;
  int w, h, stride_d, stride_e;
  guint differing = 0;
  const guint8 *pd, *pe;

  seismo_gui_test_spin (200);
  w = gtk_widget_get_width (GTK_WIDGET (timeline));
  h = gtk_widget_get_height (GTK_WIDGET (timeline));
  g_assert_cmpint (r->width, ==, w);
  g_assert_cmpint (r->height, ==, h);
  o.height = h;
  drawn = draw_widget (GTK_WIDGET (timeline));
  g_assert_true (seismo_export_timeline_figure (timeline, SEISMO_EXPORT_SPAN_VIEW, NULL, &o, png, &error));
  g_assert_no_error (error);
  exported = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (exported), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (exported), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (exported), ==, h);
  pd = cairo_image_surface_get_data (drawn);
  pe = cairo_image_surface_get_data (exported);
  stride_d = cairo_image_surface_get_stride (drawn);
  stride_e = cairo_image_surface_get_stride (exported);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 a = *(const guint32 *) (pd + y * stride_d + 4 * x);
        guint32 b = *(const guint32 *) (pe + y * stride_e + 4 * x);

        if ((a | 0xff000000u) != (b | 0xff000000u))
          {
            if (differing < 5)
              g_test_message ("pixel %d,%d: window #%08x, export #%08x", x, y, a, b);
            differing++;
          }
      }
  g_test_message ("%u of %d pixels differ between the window's drawing and the PNG export",
                  differing, w * h);
  if (differing > 0 && g_getenv ("SEISMO_SHOT_DIR") != NULL)
    {
      g_autofree char *a = g_build_filename (g_getenv ("SEISMO_SHOT_DIR"), "diff-window.png", NULL);
      g_autofree char *b = g_build_filename (g_getenv ("SEISMO_SHOT_DIR"), "diff-export.png", NULL);

      cairo_surface_write_to_png (drawn, a);
      cairo_surface_write_to_png (exported, b);
    }
  g_assert_cmpuint (differing, ==, 0);
  maybe_shot (GTK_WIDGET (timeline), "export-window.png");

  /* The dialog builds from its template and offers the window's size by default. */
  {
    GtkWidget *dialog = seismo_export_dialog_new (window);

    gtk_window_present (GTK_WINDOW (dialog));
    seismo_gui_test_spin (200);
    g_assert_true (gtk_widget_get_mapped (dialog));
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
  cairo_surface_destroy (drawn);
  cairo_surface_destroy (exported);
}

static void
check_session_saved (SeismoWindow *window)
{
  g_autofree char *session_path = seismo_session_path_for_trace (trace_path);
  g_autoptr(SeismoSession) s = NULL;
  g_autoptr(GError) error = NULL;

  _seismo_window_share_add_note (window, view_start_wanted + 300000, "added in the window");
  g_assert_true (_seismo_window_share_save_session (window, &error));
  g_assert_no_error (error);
  s = seismo_session_load (session_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->notes->len, ==, 2);
  g_assert_cmpstr (g_array_index (s->notes, SeismoSessionNote, 1).text, ==, "added in the window");
  g_assert_cmpstr (s->filter, ==, "cpu == 0");
  g_assert_cmpuint (s->hidden_rows->len, ==, 1);
  g_assert_true (s->has_marker[0]);
  g_assert_true (s->has_view);
  g_assert_cmpfloat (fabs ((double) s->view_start_ns - (double) view_start_wanted), <, 2.0);
  g_assert_cmpuint (s->panes->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (s->panes, 0), ==, "stats");

  /* Saving the trace under another name saves the view beside it too. */
  {
    g_autofree char *copy = g_build_filename (dir, "copy.seismo", NULL);
    g_autofree char *copy_session = seismo_session_path_for_trace (copy);
    g_autoptr(GFile) file = g_file_new_for_path (copy);
    g_autoptr(SeismoSession) saved = NULL;

    _seismo_window_save_to (window, file);
    g_assert_true (seismo_gui_test_wait_for (file_exists, copy_session, 20000));
    saved = seismo_session_load (copy_session, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (saved->notes->len, ==, 2);
    g_assert_cmpstr (saved->trace_name, ==, "copy.seismo");
  }
}

typedef struct {
  SeismoWindow        *window;
  SeismoExportContent  content;
  SeismoImageFormat    format;
  gboolean             csv;
  const char          *path;
} PaneExport;

/* The panes compute on a worker: retried until they have something to export. */
static gboolean
pane_exported (gpointer data)
{
  PaneExport *e = data;

  return seismo_export_pane (e->window, e->content, e->format, e->csv, 640, 400, 2.0, e->path, NULL);
}

/* Histogram and statistics panes as PNG, SVG and CSV. */
static void
check_pane_exports (SeismoWindow *window)
{
  g_autofree char *png = g_build_filename (dir, "hist.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "stats.svg", NULL);
  g_autofree char *csv = g_build_filename (dir, "stats.csv", NULL);
  g_autofree char *hcsv = g_build_filename (dir, "hist.csv", NULL);
  g_autofree char *text = NULL;
  PaneExport e = { window, SEISMO_EXPORT_CONTENT_HISTOGRAM, SEISMO_IMAGE_FORMAT_PNG, FALSE, png };
  cairo_surface_t *image;
  g_autoptr(GError) error = NULL;

  seismo_window_show_pane (window, "histogram");
  g_assert_true (seismo_gui_test_wait_for (pane_exported, &e, 20000));
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1280);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 800);
  cairo_surface_destroy (image);
  e = (PaneExport) { window, SEISMO_EXPORT_CONTENT_HISTOGRAM, SEISMO_IMAGE_FORMAT_PNG, TRUE, hcsv };
  g_assert_true (seismo_gui_test_wait_for (pane_exported, &e, 20000));
  g_assert_true (g_file_get_contents (hcsv, &text, NULL, NULL));
  g_assert_nonnull (strchr (text, ','));
  g_clear_pointer (&text, g_free);

  seismo_window_show_pane (window, "stats");
  e = (PaneExport) { window, SEISMO_EXPORT_CONTENT_STATS, SEISMO_IMAGE_FORMAT_SVG, FALSE, svg };
  g_assert_true (seismo_gui_test_wait_for (pane_exported, &e, 20000));
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "<?xml"));
  g_assert_nonnull (strstr (text, "<svg"));
  g_clear_pointer (&text, g_free);
  e = (PaneExport) { window, SEISMO_EXPORT_CONTENT_STATS, SEISMO_IMAGE_FORMAT_PNG, TRUE, csv };
  g_assert_true (seismo_gui_test_wait_for (pane_exported, &e, 20000));
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_nonnull (strchr (text, '\n'));
  /* PDF is for the timeline only. */
  g_assert_false (seismo_export_pane (window, SEISMO_EXPORT_CONTENT_STATS, SEISMO_IMAGE_FORMAT_PDF, FALSE,
                                      640, 400, 1, csv, &error));
  g_assert_nonnull (error);
}

static SeismoCompareView *
find_compare_view (GtkWindow *window)
{
  GtkWidget *box = adw_window_get_content (ADW_WINDOW (window));

  for (GtkWidget *c = gtk_widget_get_first_child (box); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (SEISMO_IS_COMPARE_VIEW (c))
      return SEISMO_COMPARE_VIEW (c);
  g_assert_not_reached ();
}

static void
check_compare (SeismoWindow *window)
{
  g_autoptr(SeismoTrace) other = NULL;
  g_autoptr(SeismoTimelineData) other_data = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *same, *diff;
  SeismoCompareView *view;
  SeismoTimelineRenderer *ra, *rb;

  /* With itself: nothing differs. */
  same = _seismo_window_share_show_compare (window, window->trace, window->data, "a.seismo",
                                            window->trace, window->data, "a.seismo");
  seismo_gui_test_spin (300);
  view = find_compare_view (same);
  g_assert_false (seismo_comparison_differs (seismo_compare_view_get_comparison (view)));
  g_assert_cmpuint (seismo_compare_view_get_n_differences (view), ==, 0);
  gtk_window_destroy (same);

  /* With another recording: rows differ, zoom and pan follow across. */
  other = seismo_trace_open (other_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  other_data = seismo_timeline_data_new (other, NULL);
  diff = _seismo_window_share_show_compare (window, window->trace, window->data, "busy-20k.seismo",
                                            other, other_data, "busy-12k.seismo");
  seismo_gui_test_spin (500);
  view = find_compare_view (diff);
  g_assert_cmpuint (seismo_compare_view_get_n_differences (view), >, 0);
  ra = seismo_timeline_get_renderer (seismo_compare_view_get_timeline (view, 0));
  rb = seismo_timeline_get_renderer (seismo_compare_view_get_timeline (view, 1));
  /* Deep enough that the view fits in the shorter trace B (a view is clamped to its trace). */
  for (guint i = 0; i < 4; i++)
    seismo_timeline_zoom_in (seismo_compare_view_get_timeline (view, 0));
  seismo_gui_test_spin (300);
  g_test_message ("A view %.0f ns + %.3f ns/px, B view %.0f ns + %.3f ns/px",
                  seismo_timeline_renderer_get_view_start (ra), seismo_timeline_renderer_get_ns_per_px (ra),
                  seismo_timeline_renderer_get_view_start (rb), seismo_timeline_renderer_get_ns_per_px (rb));
  g_assert_cmpfloat (fabs (seismo_timeline_renderer_get_ns_per_px (ra) - seismo_timeline_renderer_get_ns_per_px (rb)),
                     <, 1e-6 * seismo_timeline_renderer_get_ns_per_px (ra));
  g_assert_cmpfloat (fabs (seismo_timeline_renderer_get_view_start (ra) - seismo_timeline_renderer_get_view_start (rb)),
                     <, 1.0);
  /* Aligned at an event: the same x shows each trace's first sched_switch on CPU 1. */
  g_assert_true (seismo_compare_view_align (view, "sched_switch && cpu == 1", &error));
  g_assert_no_error (error);
  g_assert_false (seismo_compare_view_align (view, "no_such_event_type", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (seismo_compare_view_align (view, "", &error));
  g_assert_true (seismo_compare_view_select_syscall (view, "read"));
  seismo_gui_test_spin (300);
  gtk_window_destroy (diff);
}

/* docs/screenshots/compare.png: two real recordings given as SEISMO_SHOT_COMPARE="A B [SYSCALL]". */
static void
shot_compare (SeismoWindow *window)
{
  const char *spec = g_getenv ("SEISMO_SHOT_COMPARE");
  g_auto(GStrv) parts = NULL;
  SeismoTrace *traces[2];
  SeismoTimelineData *datas[2];
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;
  GtkWindow *win;

  if (spec == NULL || g_getenv ("SEISMO_SHOT_DIR") == NULL)
    return;
  parts = g_strsplit (spec, " ", 3);
  g_assert_cmpuint (g_strv_length (parts), >=, 2);
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GError) error = NULL;

      traces[k] = seismo_trace_open (parts[k], NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      datas[k] = seismo_timeline_data_new (traces[k], NULL);
    }
  name_a = g_path_get_basename (parts[0]);
  name_b = g_path_get_basename (parts[1]);
  win = _seismo_window_share_show_compare (window, traces[0], datas[0], name_a, traces[1], datas[1], name_b);
  gtk_window_set_default_size (win, 1500, 1000);
  seismo_gui_test_spin (800);
  if (parts[2] != NULL)
    g_assert_true (seismo_compare_view_select_syscall (find_compare_view (win), parts[2]));
  seismo_gui_test_spin (500);
  maybe_shot (GTK_WIDGET (win), "compare.png");
  gtk_window_destroy (win);
  for (guint k = 0; k < 2; k++)
    {
      g_object_unref (traces[k]);
      seismo_timeline_data_unref (datas[k]);
    }
}

static gboolean
bundle_window_ready (gpointer data)
{
  SeismoTimelineRenderer *r;
  guint n = 0;

  if (seismo_window_get_trace (data) == NULL)
    return FALSE;
  r = seismo_timeline_get_renderer (seismo_window_get_timeline (data));
  seismo_timeline_renderer_get_notes (r, &n);
  return n == 2;
}

static void
check_bundle (SeismoApplication *app,
              SeismoWindow      *window)
{
  g_autofree char *bundle = g_build_filename (dir, "for-students.seismo", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  SeismoWindow *second;

  g_assert_true (_seismo_window_share_export_bundle (window, bundle, &error));
  g_assert_no_error (error);
  /* The shown trace does not carry the session: only the bundle does. */
  g_assert_null (seismo_trace_get_metadata (window->trace, SEISMO_SESSION_METADATA_KEY));
  second = seismo_window_new (app);
  gtk_window_present (GTK_WINDOW (second));
  file = g_file_new_for_path (bundle);
  seismo_window_open_file (second, file);
  g_assert_true (seismo_gui_test_wait_for (bundle_window_ready, second, 20000));
  g_assert_true (seismo_gui_test_wait_for (filter_applied, second, 10000));
  /* Hidden, not destroyed: the panes' widgets are not this test's subject. */
  gtk_widget_set_visible (GTK_WIDGET (second), FALSE);
}

static void
run_checks (SeismoApplication *app)
{
  SeismoWindow *window = SEISMO_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));

  g_assert_true (seismo_gui_test_wait_for (window_has_trace, window, 20000));
  check_session_restored (window);
  check_png_equals_window (window);
  check_session_saved (window);
  check_pane_exports (window);
  check_bundle (app, window);
  check_compare (window);
  shot_compare (window);
}

static void
test_share (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (20000);
  g_autoptr(SeismoTrace) other = seismo_gui_test_busy_trace (12000);
  g_autoptr(SeismoSession) session = seismo_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *session_path = NULL;
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace);

  g_assert_true (seismo_trace_save (trace, trace_path, &error));
  g_assert_true (seismo_trace_save (other, other_path, &error));
  g_assert_no_error (error);

  /* A teacher's view: zoomed to the second quarter, a marker, a note, CPU 1 hidden, a filter. */
  view_start_wanted = start + (end - start) / 4;
  session->has_view = TRUE;
  session->view_start_ns = view_start_wanted;
  session->view_end_ns = start + (end - start) / 2;
  session->has_marker[0] = TRUE;
  session->marker_ns[0] = view_start_wanted + 100000;
  seismo_session_add_note (session, view_start_wanted + 50000, "the first switch");
  seismo_session_add_row (session->hidden_rows, SEISMO_SESSION_ROW_CPU, 1);
  session->filter = g_strdup ("cpu == 0");
  g_ptr_array_add (session->panes, g_strdup ("stats"));
  session_path = seismo_session_path_for_trace (trace_path);
  g_assert_true (seismo_session_save (session, session_path, &error));
  seismo_app_test_run (&trace_path, 1, run_checks);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  dir = g_dir_make_tmp ("seismo-test-share-XXXXXX", NULL);
  trace_path = g_build_filename (dir, "a.seismo", NULL);
  other_path = g_build_filename (dir, "b.seismo", NULL);
  g_test_add_func ("/share/session-export-bundle-compare", test_share);
  ret = g_test_run ();
  seismo_gui_test_remove_dir (dir);
  return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The flame graph's layout: spans from weights, pixels in both orientations, zoom, hit tests,
 * search shares, and a picture with the names in it. No display needed. */

#include <cairo.h>
#include <glib/gstdio.h>

#include "seismo-flame-graph.h"

#define WIDTH 400.0
#define ROW   SEISMO_FLAME_ROW_HEIGHT

/*
 *   all (8)
 *   └ main (8)
 *     ├ read_config (6)            self 1
 *     │ ├ parse (3)                self 3
 *     │ └ read [kernel] (2)        self 2
 *     └ write_log (2)
 *       └ write [kernel] (2)       self 2
 */
typedef struct {
  SeismoFlameGraph *fg;
  guint main, read_config, parse, read, write_log, write;
} Tree;

static guint
child (SeismoFlameGraph *fg,
       guint             parent,
       const char       *name,
       SeismoFlameSpace  space)
{
  SeismoFlameNode info = { .name = name, .space = space,
                           .module = space == SEISMO_FLAME_SPACE_KERNEL ? "[kernel.kallsyms]" : "/usr/bin/app" };

  return seismo_flame_graph_child (fg, parent, &info);
}

static void
tree_build (Tree *t)
{
  const SeismoFlameSpace U = SEISMO_FLAME_SPACE_USER, K = SEISMO_FLAME_SPACE_KERNEL;

  t->fg = seismo_flame_graph_new ("all", SEISMO_FLAME_WEIGHT_COUNT);
  /* Lightest path first: the layout must not depend on the order paths come in. */
  t->main = child (t->fg, SEISMO_FLAME_ROOT, "main", U);
  t->write_log = child (t->fg, t->main, "write_log", U);
  t->write = child (t->fg, t->write_log, "write", K);
  seismo_flame_graph_add_weight (t->fg, t->write, 2);
  t->read_config = child (t->fg, t->main, "read_config", U);
  t->parse = child (t->fg, t->read_config, "parse", U);
  seismo_flame_graph_add_weight (t->fg, t->parse, 3);
  t->read = child (t->fg, t->read_config, "read", K);
  seismo_flame_graph_add_weight (t->fg, t->read, 2);
  seismo_flame_graph_add_weight (t->fg, t->read_config, 1);
  /* The same path again is the same node. */
  g_assert_cmpuint (child (t->fg, t->main, "read_config", U), ==, t->read_config);
  /* Same name in another space is another frame. */
  g_assert_cmpuint (child (t->fg, t->main, "read_config", K), !=, t->read_config);
  seismo_flame_graph_finish (t->fg);
  seismo_flame_graph_set_size (t->fg, WIDTH, 200);
}

static void
assert_span (Tree  *t,
             guint  node,
             double x0,
             double x1)
{
  double a, b;

  seismo_flame_graph_node_span (t->fg, node, &a, &b);
  g_assert_cmpfloat_with_epsilon (a, x0, 1e-9);
  g_assert_cmpfloat_with_epsilon (b, x1, 1e-9);
}

static void
assert_rect (Tree  *t,
             guint  node,
             double x,
             double y,
             double w)
{
  double rx, ry, rw, rh;

  g_assert_true (seismo_flame_graph_node_rect (t->fg, node, &rx, &ry, &rw, &rh));
  g_assert_cmpfloat_with_epsilon (rx, x, 1e-6);
  g_assert_cmpfloat_with_epsilon (ry, y, 1e-6);
  g_assert_cmpfloat_with_epsilon (rw, w, 1e-6);
  g_assert_cmpfloat (rh, ==, ROW);
}

static void
test_weights (void)
{
  Tree t;

  tree_build (&t);
  g_assert_cmpfloat (seismo_flame_graph_get_node (t.fg, SEISMO_FLAME_ROOT)->total, ==, 8);
  g_assert_cmpfloat (seismo_flame_graph_get_node (t.fg, t.main)->total, ==, 8);
  g_assert_cmpfloat (seismo_flame_graph_get_node (t.fg, t.main)->self, ==, 0);
  g_assert_cmpfloat (seismo_flame_graph_get_node (t.fg, t.read_config)->total, ==, 6);
  g_assert_cmpfloat (seismo_flame_graph_get_node (t.fg, t.read_config)->self, ==, 1);
  g_assert_cmpuint (seismo_flame_graph_get_depth (t.fg), ==, 4);
  g_assert_cmpuint (seismo_flame_graph_get_node (t.fg, t.parse)->depth, ==, 3);

  /* Heaviest first, each child's share of the root's width its weight. */
  assert_span (&t, SEISMO_FLAME_ROOT, 0, 1);
  assert_span (&t, t.main, 0, 1);
  assert_span (&t, t.read_config, 0, 0.75);
  assert_span (&t, t.write_log, 0.75, 1);
  assert_span (&t, t.parse, 0, 3.0 / 8);
  assert_span (&t, t.read, 3.0 / 8, 5.0 / 8);
  assert_span (&t, t.write, 0.75, 1);
  seismo_flame_graph_free (t.fg);
}

static void
test_orientation (void)
{
  Tree t;

  tree_build (&t);
  /* Flame: the root on the bottom row of the area. */
  assert_rect (&t, SEISMO_FLAME_ROOT, 0, 200 - ROW, WIDTH);
  assert_rect (&t, t.read_config, 0, 200 - 3 * ROW, 300);
  assert_rect (&t, t.read, 150, 200 - 4 * ROW, 100);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 160, 200 - 3.5 * ROW), ==, t.read);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 310, 200 - 2.5 * ROW), ==, t.write_log);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 290, 200 - 3.5 * ROW), ==, SEISMO_FLAME_NO_NODE);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 10, 5), ==, SEISMO_FLAME_NO_NODE);

  /* Icicle: the root on top. */
  seismo_flame_graph_set_icicle (t.fg, TRUE);
  assert_rect (&t, SEISMO_FLAME_ROOT, 0, 0, WIDTH);
  assert_rect (&t, t.read, 150, 3 * ROW, 100);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 160, 3.5 * ROW), ==, t.read);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 160, 0.5 * ROW), ==, SEISMO_FLAME_ROOT);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, 160, 4.5 * ROW), ==, SEISMO_FLAME_NO_NODE);

  /* Taller than the area: the area grows to the rows, the root still at the bottom. */
  seismo_flame_graph_set_icicle (t.fg, FALSE);
  seismo_flame_graph_set_size (t.fg, WIDTH, 30);
  g_assert_cmpfloat (seismo_flame_graph_get_content_height (t.fg), ==, 4 * ROW);
  assert_rect (&t, SEISMO_FLAME_ROOT, 0, 3 * ROW, WIDTH);
  assert_rect (&t, t.parse, 0, 0, 150);
  seismo_flame_graph_free (t.fg);
}

static void
test_zoom (void)
{
  Tree t;
  double x, y, w, h;

  tree_build (&t);
  seismo_flame_graph_set_icicle (t.fg, TRUE);
  seismo_flame_graph_set_zoom (t.fg, t.read_config);
  g_assert_cmpuint (seismo_flame_graph_get_zoom (t.fg), ==, t.read_config);
  /* The zoomed frame fills the width, its children share it... */
  assert_rect (&t, t.read_config, 0, 2 * ROW, WIDTH);
  assert_rect (&t, t.parse, 0, 3 * ROW, WIDTH * 3 / 6);
  assert_rect (&t, t.read, WIDTH * 3 / 6, 3 * ROW, WIDTH * 2 / 6);
  /* ...its ancestors stay, clamped to the width; its siblings are gone. */
  assert_rect (&t, t.main, 0, ROW, WIDTH);
  assert_rect (&t, SEISMO_FLAME_ROOT, 0, 0, WIDTH);
  g_assert_false (seismo_flame_graph_node_rect (t.fg, t.write_log, &x, &y, &w, &h));
  g_assert_false (seismo_flame_graph_node_rect (t.fg, t.write, &x, &y, &w, &h));
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, WIDTH - 1, 3.5 * ROW), ==, SEISMO_FLAME_NO_NODE);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, WIDTH - 1, 2.5 * ROW), ==, t.read_config);
  g_assert_cmpuint (seismo_flame_graph_node_at (t.fg, WIDTH * 0.6, 3.5 * ROW), ==, t.read);

  /* Back out. */
  seismo_flame_graph_set_zoom (t.fg, SEISMO_FLAME_ROOT);
  assert_rect (&t, t.write_log, 300, ROW * 2, 100);
  /* A node that is not one is no zoom. */
  seismo_flame_graph_set_zoom (t.fg, 9999);
  g_assert_cmpuint (seismo_flame_graph_get_zoom (t.fg), ==, SEISMO_FLAME_ROOT);
  seismo_flame_graph_free (t.fg);
}

static void
test_thin_nodes (void)
{
  g_autoptr(SeismoFlameGraph) fg = seismo_flame_graph_new ("all", SEISMO_FLAME_WEIGHT_TIME);
  SeismoFlameNode big = { .name = "big" }, tiny = { .name = "tiny" };
  guint b = seismo_flame_graph_child (fg, SEISMO_FLAME_ROOT, &big);
  guint s = seismo_flame_graph_child (fg, SEISMO_FLAME_ROOT, &tiny);
  double x, y, w, h;

  seismo_flame_graph_add_weight (fg, b, 1e6);
  seismo_flame_graph_add_weight (fg, s, 1);
  seismo_flame_graph_finish (fg);
  seismo_flame_graph_set_size (fg, WIDTH, 100);
  /* Thinner than half a pixel: not drawn, not hit; zoomed into, it fills the width. */
  g_assert_false (seismo_flame_graph_node_rect (fg, s, &x, &y, &w, &h));
  seismo_flame_graph_set_zoom (fg, s);
  g_assert_true (seismo_flame_graph_node_rect (fg, s, &x, &y, &w, &h));
  g_assert_cmpfloat (w, ==, WIDTH);
}

static void
test_search (void)
{
  Tree t;

  tree_build (&t);
  /* Any case; write_log and its write child count once: 2 of 8. */
  g_assert_cmpfloat_with_epsilon (seismo_flame_graph_set_search (t.fg, "WRITE"), 0.25, 1e-9);
  g_assert_true (seismo_flame_graph_node_matches (t.fg, t.write_log));
  g_assert_true (seismo_flame_graph_node_matches (t.fg, t.write));
  g_assert_false (seismo_flame_graph_node_matches (t.fg, t.read));
  /* The module matches too: every kernel frame. */
  g_assert_cmpfloat_with_epsilon (seismo_flame_graph_set_search (t.fg, "kallsyms"), 0.5, 1e-9);
  /* Relative to the zoomed frame. */
  seismo_flame_graph_set_zoom (t.fg, t.read_config);
  g_assert_cmpfloat_with_epsilon (seismo_flame_graph_set_search (t.fg, "parse"), 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (seismo_flame_graph_set_search (t.fg, "main"), 1.0, 1e-9);
  g_assert_cmpfloat (seismo_flame_graph_set_search (t.fg, "nothing"), ==, 0);
  g_assert_cmpfloat (seismo_flame_graph_set_search (t.fg, ""), ==, 0);
  g_assert_false (seismo_flame_graph_node_matches (t.fg, t.main));
  seismo_flame_graph_free (t.fg);
}

static void
test_describe (void)
{
  Tree t;
  g_autofree char *text = NULL;

  tree_build (&t);
  text = seismo_flame_graph_describe_node (t.fg, t.read_config);
  g_assert_nonnull (strstr (text, "<b>read_config</b>"));
  g_assert_nonnull (strstr (text, "/usr/bin/app"));
  g_assert_nonnull (strstr (text, "75.0 %"));
  g_assert_null (seismo_flame_graph_describe_node (t.fg, 1000));
  seismo_flame_graph_free (t.fg);
}

static void
test_draw_and_export (void)
{
  Tree t;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 200);
  cairo_t *cr = cairo_create (surface);
  g_autofree char *dir = g_dir_make_tmp ("seismo-flame-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "fg.svg", NULL);
  g_autofree char *svg = NULL;
  g_autoptr(GError) error = NULL;
  guint32 *pixels;
  int stride;

  tree_build (&t);
  seismo_flame_graph_set_hover (t.fg, t.read);
  seismo_flame_graph_draw (t.fg, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  /* Something drawn on the root's row, nothing above the top row. */
  pixels = (guint32 *) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;
  g_assert_cmpuint (pixels[(int) (200 - ROW / 2) * stride + 200] >> 24, ==, 0xff);
  g_assert_cmpuint (pixels[(int) (200 - 4 * ROW - 5) * stride + 200], ==, 0);
  cairo_surface_destroy (surface);

  g_assert_true (seismo_flame_graph_export_to_file (t.fg, SEISMO_IMAGE_FORMAT_SVG, 1200, "Test", path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &svg, NULL, NULL));
  g_assert_nonnull (strstr (svg, "<svg"));
  g_assert_false (seismo_flame_graph_export_to_file (t.fg, SEISMO_IMAGE_FORMAT_SVG, 10, NULL, path, &error));
  g_assert_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE);
  g_unlink (path);
  g_rmdir (dir);
  seismo_flame_graph_free (t.fg);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flame-graph/weights", test_weights);
  g_test_add_func ("/flame-graph/orientation", test_orientation);
  g_test_add_func ("/flame-graph/zoom", test_zoom);
  g_test_add_func ("/flame-graph/thin-nodes", test_thin_nodes);
  g_test_add_func ("/flame-graph/search", test_search);
  g_test_add_func ("/flame-graph/describe", test_describe);
  g_test_add_func ("/flame-graph/draw-and-export", test_draw_and_export);
  return g_test_run ();
}

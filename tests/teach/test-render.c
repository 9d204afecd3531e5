/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/* Figures (SVG, PDF, PNG) drawn by the export code, row selection, notes, and sessions: JSON
 * round trip, hostile input, renderer round trip and bundles. */

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "seismo-export.h"
#include "seismo-file.h"
#include "seismo-gui-test-util.h"
#include "seismo-session-test-util.h"
#include "seismo-session-timeline.h"
#include "seismo-test-util.h"
#include "seismo-timeline-export.h"
#include "seismo-timeline-renderer-private.h"

typedef struct {
  SeismoTrace            *trace;
  SeismoTimelineData     *data;
  SeismoTimelineRenderer *r;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  user_data)
{
  f->trace = seismo_gui_test_small_trace ();
  f->data = seismo_timeline_data_new (f->trace, NULL);
  f->r = seismo_timeline_renderer_new (f->data);
  seismo_timeline_renderer_set_size (f->r, 1000, 400);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  user_data)
{
  seismo_timeline_renderer_free (f->r);
  seismo_timeline_data_unref (f->data);
  g_object_unref (f->trace);
}

static guint32
pixel_at (cairo_surface_t *s,
          int              x,
          int              y)
{
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (s));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (s));
  return *(const guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + 4 * x);
}

/* ---- figures ---- */

typedef struct {
  int      depth;
  gboolean saw_svg;
  double   width;
  double   height;
  guint    elements;
} SvgCheck;

static void
svg_start (GMarkupParseContext *context,
           const char          *name,
           const char         **attr_names,
           const char         **attr_values,
           gpointer             user_data,
           GError             **error)
{
  SvgCheck *c = user_data;

  if (c->depth++ == 0)
    {
      g_assert_cmpstr (name, ==, "svg");
      c->saw_svg = TRUE;
      for (guint i = 0; attr_names[i]; i++)
        if (strcmp (attr_names[i], "width") == 0)
          c->width = g_ascii_strtod (attr_values[i], NULL);
        else if (strcmp (attr_names[i], "height") == 0)
          c->height = g_ascii_strtod (attr_values[i], NULL);
    }
  c->elements++;
}

static void
svg_end (GMarkupParseContext *context,
         const char          *name,
         gpointer             user_data,
         GError             **error)
{
  ((SvgCheck *) user_data)->depth--;
}

static void
test_figures (Fixture       *f,
              gconstpointer  user_data)
{
  g_autofree char *png = seismo_test_temp_path ("fig.png");
  g_autofree char *svg = seismo_test_temp_path ("fig.svg");
  g_autofree char *pdf = seismo_test_temp_path ("fig.pdf");
  SeismoTimelineExportOptions o = { SEISMO_IMAGE_FORMAT_PNG, 900, 0, 2.0, "A title", TRUE };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len;
  int w, h;
  cairo_surface_t *image;
  SeismoImageFormat format;

  g_assert_true (seismo_image_format_from_path ("x/Fig.SVG", &format, NULL));
  g_assert_cmpint (format, ==, SEISMO_IMAGE_FORMAT_SVG);
  g_assert_false (seismo_image_format_from_path ("fig.jpg", &format, &error));
  g_assert_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_FORMAT);
  g_clear_error (&error);

  seismo_timeline_renderer_set_marker (f->r, 0, SEISMO_TEST_T0 + 2000);
  seismo_timeline_export_layout (f->r, &o, &w, &h);
  g_assert_cmpint (w, ==, 900);
  /* Every row fits: the renderer's rows end at its height. */
  g_assert_cmpint (f->r->height, ==, SEISMO_TIMELINE_RULER_HEIGHT + f->r->rows_height);
  g_assert_cmpint (h, >, f->r->height);

  /* PNG: decodes, at the scale asked for. */
  g_assert_true (seismo_timeline_export_to_file (f->r, &o, png, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 2 * w);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 2 * h);
  cairo_surface_destroy (image);

  /* SVG: well-formed XML whose root is an svg of the figure's size. */
  o.format = SEISMO_IMAGE_FORMAT_SVG;
  o.scale = 1;
  g_assert_true (seismo_timeline_export_to_file (f->r, &o, svg, &error));
  g_assert_true (g_file_get_contents (svg, &text, &len, NULL));
  {
    static const GMarkupParser parser = { svg_start, svg_end, NULL, NULL, NULL };
    SvgCheck check = { 0 };
    g_autoptr(GMarkupParseContext) ctx = g_markup_parse_context_new (&parser, 0, &check, NULL);

    g_assert_true (g_markup_parse_context_parse (ctx, text, len, &error));
    g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
    g_assert_no_error (error);
    g_assert_true (check.saw_svg);
    g_assert_cmpfloat (check.width, ==, w);
    g_assert_cmpfloat (check.height, ==, h);
    g_assert_cmpuint (check.elements, >, 50);
  }
  g_clear_pointer (&text, g_free);

  /* PDF: header and trailer (the page objects are in compressed streams). */
  o.format = SEISMO_IMAGE_FORMAT_PDF;
  g_assert_true (seismo_timeline_export_to_file (f->r, &o, pdf, &error));
  g_assert_true (g_file_get_contents (pdf, &text, &len, NULL));
  g_assert_true (g_str_has_prefix (text, "%PDF-1."));
  g_assert_nonnull (g_strstr_len (text + len - MIN (len, 32), -1, "%%EOF"));
  g_assert_cmpuint (len, >, 1000);

  /* Bad sizes are errors naming the file, not huge allocations. */
  o.format = SEISMO_IMAGE_FORMAT_PNG;
  o.width = 100000;
  g_assert_false (seismo_timeline_export_to_file (f->r, &o, png, &error));
  g_assert_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, png));
  g_clear_error (&error);
  o.width = 900;
  o.scale = 100;
  g_assert_false (seismo_timeline_export_to_file (f->r, &o, png, &error));
  g_assert_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE);
  g_clear_error (&error);
  o.scale = 1;
  g_assert_false (seismo_timeline_export_to_file (f->r, &o, "/nonexistent-dir/fig.png", &error));
  g_assert_nonnull (error);
}

/* The export's timeline part is exactly what the renderer draws at that size: the same code. */
static void
test_same_pixels (Fixture       *f,
                  gconstpointer  user_data)
{
  g_autofree char *png = seismo_test_temp_path ("same.png");
  SeismoTimelineExportOptions o = { SEISMO_IMAGE_FORMAT_PNG, 1000, 400, 1.0, NULL, FALSE };
  g_autoptr(SeismoTimelineRenderer) copy = seismo_timeline_renderer_new (f->data);
  cairo_surface_t *direct, *exported;
  cairo_t *cr;
  int w, h;

  seismo_timeline_renderer_zoom_to (f->r, SEISMO_TEST_T0 + 1500, SEISMO_TEST_T0 + 7000);
  seismo_timeline_renderer_set_marker (f->r, 0, SEISMO_TEST_T0 + 2000);
  seismo_timeline_renderer_set_marker (f->r, 1, SEISMO_TEST_T0 + 6000);
  seismo_timeline_renderer_set_notes (f->r, &(SeismoTimelineNote) { SEISMO_TEST_T0 + 4000, "look here" }, 1);

  direct = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 400);
  cr = cairo_create (direct);
  seismo_timeline_renderer_draw_cairo (f->r, cr);
  cairo_destroy (cr);
  cairo_surface_flush (direct);

  /* Through a second renderer given the first one's view, as the export dialog does. */
  seismo_timeline_renderer_set_size (copy, 1000, 400);
  seismo_timeline_export_copy_view (copy, f->r);
  seismo_timeline_export_layout (copy, &o, &w, &h);
  g_assert_cmpint (w, ==, 1000);
  g_assert_cmpint (h, ==, 400);
  g_assert_true (seismo_timeline_export_to_file (copy, &o, png, NULL));
  exported = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (exported), ==, 1000);
  for (int y = 0; y < 400; y++)
    for (int x = 0; x < 1000; x++)
      if (pixel_at (direct, x, y) != pixel_at (exported, x, y))
        g_error ("pixel %d,%d differs: #%08x drawn, #%08x exported", x, y, pixel_at (direct, x, y),
                 pixel_at (exported, x, y));

  /* The note is drawn: amber under its flag. */
  {
    int nx = (int) floor (seismo_timeline_renderer_ns_to_x (f->r, SEISMO_TEST_T0 + 4000));
    guint32 p = pixel_at (direct, nx + 2, SEISMO_TIMELINE_RULER_HEIGHT + 3);

    g_assert_cmphex (p & 0xffffff, ==, 0xe5a50a);
  }
  cairo_surface_destroy (direct);
  cairo_surface_destroy (exported);
}

static void
test_rows (Fixture       *f,
           gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  SeismoTaskId alpha = seismo_trace_find_task (f->trace, 100, SEISMO_TEST_T0 + 2000);
  SeismoTaskId beta2 = seismo_trace_find_task (f->trace, 201, SEISMO_TEST_T0 + 9500);
  double y, h;

#define SHOWN(kind, id) seismo_timeline_renderer_row_y (f->r, (SeismoRowKey) { kind, id }, &y, &h)
  g_assert_true (seismo_timeline_export_select_rows (f->r, "cpus", &error));
  g_assert_true (SHOWN (SEISMO_ROW_CPU, 0));
  g_assert_true (SHOWN (SEISMO_ROW_CPU, 1));
  g_assert_false (SHOWN (SEISMO_ROW_TASK, alpha));
  g_assert_false (SHOWN (SEISMO_ROW_PROCESS, 1));

  g_assert_true (seismo_timeline_export_select_rows (f->r, "cpu1, task:201", &error));
  g_assert_false (SHOWN (SEISMO_ROW_CPU, 0));
  g_assert_true (SHOWN (SEISMO_ROW_CPU, 1));
  g_assert_true (SHOWN (SEISMO_ROW_TASK, beta2));
  g_assert_false (SHOWN (SEISMO_ROW_TASK, alpha));

  g_assert_true (seismo_timeline_export_select_rows (f->r, "comm:alp*", &error));
  g_assert_false (SHOWN (SEISMO_ROW_CPU_GROUP, 0));
  g_assert_true (SHOWN (SEISMO_ROW_TASK, alpha));
  g_assert_false (SHOWN (SEISMO_ROW_TASK, beta2));

  g_assert_true (seismo_timeline_export_select_rows (f->r, "pid:200", &error));
  g_assert_true (SHOWN (SEISMO_ROW_TASK, beta2));
  g_assert_false (SHOWN (SEISMO_ROW_TASK, alpha));
  g_assert_true (seismo_timeline_export_select_rows (f->r, "all", &error));
  g_assert_true (SHOWN (SEISMO_ROW_TASK, alpha));
  g_assert_no_error (error);

  /* Mistakes say what is wrong and leave the rows alone. */
  g_assert_false (seismo_timeline_export_select_rows (f->r, "cpus,bogus", &error));
  g_assert_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_ROWS);
  g_clear_error (&error);
  g_assert_false (seismo_timeline_export_select_rows (f->r, "cpu7", &error));
  g_assert_nonnull (strstr (error->message, "cpu7"));
  g_clear_error (&error);
  g_assert_false (seismo_timeline_export_select_rows (f->r, "task:x", &error));
  g_clear_error (&error);
  g_assert_true (SHOWN (SEISMO_ROW_TASK, alpha));
#undef SHOWN
}

/* ---- sessions ---- */

static SeismoSession *
sample_session (void)
{
  SeismoSession *s = seismo_session_new ();

  s->trace_name = g_strdup ("small.seismo");
  s->trace_events = 12;
  s->has_view = TRUE;
  s->view_start_ns = SEISMO_TEST_T0 + 1000;
  s->view_end_ns = SEISMO_TEST_T0 + 8000;
  s->has_marker[0] = TRUE;
  s->marker_ns[0] = SEISMO_TEST_T0 + 2000;
  s->has_marker[1] = TRUE;
  s->marker_ns[1] = SEISMO_TEST_T0 + 6500;
  s->has_range = TRUE;
  s->range_start_ns = SEISMO_TEST_T0 + 3000;
  s->range_end_ns = SEISMO_TEST_T0 + 4000;
  s->filter = g_strdup ("syscall == \"read\" && comm ~ \"al*\"");
  seismo_session_add_row (s->hidden_rows, SEISMO_SESSION_ROW_CPU, 1);
  seismo_session_add_row (s->pinned_rows, SEISMO_SESSION_ROW_TASK, 201);
  s->selected_event = 3;
  g_ptr_array_add (s->panes, g_strdup ("details"));
  g_ptr_array_add (s->panes, g_strdup ("histogram"));
  seismo_session_add_note (s, SEISMO_TEST_T0 + 5000, "beta fails here: EAGAIN");
  seismo_session_add_note (s, SEISMO_TEST_T0 + 1500, "read() starts — «ünïcode»");
  return s;
}

static void
test_session_json (void)
{
  g_autoptr(SeismoSession) s = sample_session ();
  g_autoptr(SeismoSession) back = NULL;
  g_autoptr(SeismoSession) empty = seismo_session_new ();
  g_autoptr(SeismoSession) empty_back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = seismo_test_temp_path ("t.seismo.seismo-session");
  g_autofree char *text = NULL;
  g_autofree char *sidecar = seismo_session_path_for_trace ("/a/b/trace.dat");
  gsize len;

  g_assert_cmpstr (sidecar, ==, "/a/b/trace.dat.seismo-session");
  /* Notes are kept in time order whatever the order they were added in. */
  g_assert_cmpuint (g_array_index (s->notes, SeismoSessionNote, 0).time_ns, ==, SEISMO_TEST_T0 + 1500);

  text = seismo_session_to_data (s, &len);
  g_assert_cmpuint (strlen (text), ==, len);
  g_assert_nonnull (strstr (text, "\"seismo-session\" : 1"));
  back = seismo_session_load_from_data (text, len, &error);
  g_assert_no_error (error);
  seismo_test_assert_sessions_equal (s, back);

  /* Through a file: atomic save, load naming the file on errors. */
  g_assert_true (seismo_session_save (s, path, &error));
  g_clear_pointer (&back, seismo_session_free);
  back = seismo_session_load (path, &error);
  g_assert_no_error (error);
  seismo_test_assert_sessions_equal (s, back);

  g_clear_pointer (&text, g_free);
  text = seismo_session_to_data (empty, &len);
  empty_back = seismo_session_load_from_data (text, len, &error);
  g_assert_no_error (error);
  seismo_test_assert_sessions_equal (empty, empty_back);
  g_assert_cmpint (empty_back->selected_event, ==, -1);
}

static void
test_session_bad_input (void)
{
  static const char *const bad[] = {
    "", " ", "null", "[]", "42", "\"x\"", "{", "{}", "{\"seismo-session\": \"1\"}",
    "{\"seismo-session\": 0}", "{\"seismo-session\": 1.5}",
    "{\"seismo-session\": 1, \"view\": []}",
    "{\"seismo-session\": 1, \"view\": {\"start_ns\": 5}}",
    "{\"seismo-session\": 1, \"view\": {\"start_ns\": 5, \"end_ns\": 4}}",
    "{\"seismo-session\": 1, \"view\": {\"start_ns\": -5, \"end_ns\": 4}}",
    "{\"seismo-session\": 1, \"markers\": {\"A\": \"now\"}}",
    "{\"seismo-session\": 1, \"markers\": 3}",
    "{\"seismo-session\": 1, \"filter\": 3}",
    "{\"seismo-session\": 1, \"filter\": null}",
    "{\"seismo-session\": 1, \"hidden_rows\": {}}",
    "{\"seismo-session\": 1, \"hidden_rows\": [1]}",
    "{\"seismo-session\": 1, \"hidden_rows\": [{\"kind\": \"cpu\"}]}",
    "{\"seismo-session\": 1, \"hidden_rows\": [{\"kind\": \"gpu\", \"id\": 1}]}",
    "{\"seismo-session\": 1, \"pinned_rows\": [{\"kind\": 5}]}",
    "{\"seismo-session\": 1, \"selected_event\": -7}",
    "{\"seismo-session\": 1, \"panes\": [1, 2]}",
    "{\"seismo-session\": 1, \"notes\": [{\"time_ns\": 1}]}",
    "{\"seismo-session\": 1, \"notes\": [{\"text\": \"x\"}]}",
    "{\"seismo-session\": 1, \"notes\": [[]]}",
    "{\"seismo-session\": 1, \"trace\": {\"events\": {}}}",
    "{\"seismo-session\": 99}",
  };
  g_autoptr(SeismoSession) s = sample_session ();
  g_autofree char *text = NULL;
  gsize len;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoSession) got = seismo_session_load_from_data (bad[i], strlen (bad[i]), &error);

      if (got != NULL)
        g_error ("accepted bad session %s", bad[i]);
      g_assert_true (error != NULL && error->domain == SEISMO_SESSION_ERROR);
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GString) deep = g_string_new ("{\"seismo-session\": 1, \"x\": ");

    /* Deep nesting is refused before the recursive parser sees it. */
    for (guint i = 0; i < 200000; i++)
      g_string_append_c (deep, '[');
    g_assert_null (seismo_session_load_from_data (deep->str, deep->len, &error));
    g_assert_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID);
  }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (seismo_session_load_from_data ("{\"seismo-session\": 1}\0x", 23, &error));
    g_assert_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SeismoSession) got = seismo_session_load_from_data ("{\"seismo-session\": 1, \"new\": [1]}", 33,
                                                                  &error);

    /* Unknown keys are a newer writer's: ignored. */
    g_assert_no_error (error);
    g_assert_nonnull (got);
  }

  /* Every truncation and every single-byte corruption of a real session: an error or a session,
   * never a crash or a critical. */
  text = seismo_session_to_data (s, &len);
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoSession) got = seismo_session_load_from_data (text, cut, &error);

      g_assert_true ((got == NULL) != (error == NULL));
    }
  for (gsize at = 0; at < len; at++)
    {
      static const char junk[] = { '"', '{', ']', '-', 'x', '\\', '\xff' };
      char saved = text[at];

      for (guint j = 0; j < G_N_ELEMENTS (junk); j++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(SeismoSession) got = NULL;

          text[at] = junk[j];
          got = seismo_session_load_from_data (text, len, &error);
          g_assert_true ((got == NULL) != (error == NULL));
        }
      text[at] = saved;
    }
}

/* Session -> renderer -> session gives the same view state. */
static void
test_session_renderer (Fixture       *f,
                       gconstpointer  user_data)
{
  g_autoptr(SeismoSession) s = sample_session ();
  g_autoptr(SeismoSession) back = seismo_session_new ();
  SeismoTaskId beta2 = seismo_trace_find_task (f->trace, 201, SEISMO_TEST_T0 + 9500);
  guint64 t;

  seismo_session_apply_to_renderer (s, f->r, TRUE);
  g_assert_true (seismo_timeline_renderer_get_marker (f->r, 1, &t));
  g_assert_cmpuint (t, ==, SEISMO_TEST_T0 + 6500);
  g_assert_true (seismo_timeline_renderer_get_pinned (f->r, (SeismoRowKey) { SEISMO_ROW_TASK, beta2 }));
  g_assert_cmpuint (seismo_timeline_renderer_get_n_hidden (f->r), ==, 1);
  g_assert_cmpfloat (fabs (seismo_timeline_renderer_x_to_ns (f->r, SEISMO_TIMELINE_LABEL_WIDTH)
                           - (double) (SEISMO_TEST_T0 + 1000)), <, 1.0);

  seismo_session_update_from_renderer (back, f->r);
  g_assert_true (back->has_view);
  g_assert_cmpfloat (fabs ((double) back->view_start_ns - (double) s->view_start_ns), <=, 1);
  g_assert_cmpfloat (fabs ((double) back->view_end_ns - (double) s->view_end_ns), <=, 1);
  back->view_start_ns = s->view_start_ns;
  back->view_end_ns = s->view_end_ns;
  /* What the window keeps, not the renderer. */
  back->trace_name = g_strdup (s->trace_name);
  back->trace_events = s->trace_events;
  back->filter = g_strdup (s->filter);
  g_ptr_array_add (back->panes, g_strdup ("details"));
  g_ptr_array_add (back->panes, g_strdup ("histogram"));
  seismo_test_assert_sessions_equal (s, back);

  /* Rows that are not in this trace are skipped. */
  seismo_session_add_row (s->hidden_rows, SEISMO_SESSION_ROW_TASK, 99999);
  seismo_session_add_row (s->hidden_rows, SEISMO_SESSION_ROW_CPU, 64);
  s->selected_event = 1 << 30;
  seismo_session_apply_to_renderer (s, f->r, FALSE);
  g_assert_cmpuint (seismo_timeline_renderer_get_n_hidden (f->r), ==, 1);
  g_assert_cmpuint (f->r->selected, ==, SEISMO_NO_EVENT);
}

static void
test_bundle (Fixture       *f,
             gconstpointer  user_data)
{
  g_autoptr(SeismoSession) s = sample_session ();
  g_autofree char *path = seismo_test_temp_path ("bundle.seismo");
  g_autofree char *json = seismo_session_to_line (s);
  g_autoptr(SeismoTrace) loaded = NULL;
  g_autoptr(SeismoSession) back = NULL;
  g_autoptr(GError) error = NULL;
  guint n_keys = g_strv_length ((char **) seismo_trace_get_metadata_keys (f->trace));

  /* One line: `seismo-cli info` prints metadata values as they are. */
  g_assert_null (strchr (json, '\n'));
  g_assert_null (seismo_session_from_trace (f->trace, &error));
  g_assert_no_error (error);
  g_assert_true (seismo_export_bundle (f->trace, SEISMO_SESSION_METADATA_KEY, json, path, &error));
  g_assert_no_error (error);
  /* The trace shown is left as it was. */
  g_assert_null (seismo_trace_get_metadata (f->trace, SEISMO_SESSION_METADATA_KEY));
  g_assert_cmpuint (g_strv_length ((char **) seismo_trace_get_metadata_keys (f->trace)), ==, n_keys);

  loaded = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, seismo_trace_get_n_events (f->trace));
  back = seismo_session_find_for_trace (loaded, path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  seismo_test_assert_sessions_equal (s, back);

  /* A session file beside the bundle is newer: it wins. */
  {
    g_autofree char *sidecar = seismo_session_path_for_trace (path);
    g_autoptr(SeismoSession) other = seismo_session_new ();
    g_autoptr(SeismoSession) found = NULL;

    seismo_session_add_note (other, 7, "mine");
    g_assert_true (seismo_session_save (other, sidecar, &error));
    found = seismo_session_find_for_trace (loaded, path, &error);
    g_assert_no_error (error);
    seismo_test_assert_sessions_equal (other, found);
    g_unlink (sidecar);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/render/figures", Fixture, NULL, fixture_setup, test_figures, fixture_teardown);
  g_test_add ("/render/same-pixels", Fixture, NULL, fixture_setup, test_same_pixels, fixture_teardown);
  g_test_add ("/render/rows", Fixture, NULL, fixture_setup, test_rows, fixture_teardown);
  g_test_add_func ("/session/json", test_session_json);
  g_test_add_func ("/session/bad-input", test_session_bad_input);
  g_test_add ("/session/renderer", Fixture, NULL, fixture_setup, test_session_renderer, fixture_teardown);
  g_test_add ("/session/bundle", Fixture, NULL, fixture_setup, test_bundle, fixture_teardown);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"
#include "seismo-window-private.h"

typedef struct {
  SeismoAppTestChecks checks;
  GApplication       *app;    /* this run's: a test may run several, the first stays the default */
  gboolean            done;
} Run;

static gboolean
run_checks (gpointer data)
{
  Run *run = data;
  GApplication *app = run->app;

  run->checks (SEISMO_APPLICATION (app));
  run->done = TRUE;
  g_application_quit (app);
  return G_SOURCE_REMOVE;
}

static void
on_activate (GApplication *app,
             Run          *run)
{
  g_idle_add (run_checks, run);
}

static void
on_open (GApplication *app,
         GFile       **files,
         int           n_files,
         const char   *hint,
         Run          *run)
{
  g_idle_add (run_checks, run);
}

void
seismo_app_test_run (char              **files,
                     int                 n_files,
                     SeismoAppTestChecks checks)
{
  g_autoptr(SeismoApplication) app = seismo_application_new ();
  g_autofree char **argv = g_new0 (char *, n_files + 2);
  Run run = { checks, G_APPLICATION (app), FALSE };

  argv[0] = (char *) "seismo";
  for (int i = 0; i < n_files; i++)
    argv[i + 1] = files[i];
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (n_files > 0)
    g_signal_connect_after (app, "open", G_CALLBACK (on_open), &run);
  else
    g_signal_connect_after (app, "activate", G_CALLBACK (on_activate), &run);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), n_files + 1, argv), ==, 0);
  g_assert_true (run.done);
}

SeismoWindow *
seismo_app_test_only_window (SeismoApplication *app)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  g_assert_cmpuint (g_list_length (windows), ==, 1);
  g_assert_true (SEISMO_IS_WINDOW (windows->data));
  return windows->data;
}

AdwMessageDialog *
seismo_app_test_find_dialog (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel)
          && gtk_window_get_transient_for (GTK_WINDOW (toplevel)) == parent)
        return ADW_MESSAGE_DIALOG (toplevel);
    }
  return NULL;
}

gboolean
seismo_app_test_has_dialog (gpointer window)
{
  return seismo_app_test_find_dialog (window) != NULL;
}

gboolean
seismo_app_test_recording_live (gpointer window)
{
  return _seismo_window_is_recording (window) && seismo_window_get_trace (window) != NULL;
}

gboolean
seismo_app_test_recording_over (gpointer window)
{
  return !_seismo_window_is_recording (window) && !SEISMO_WINDOW (window)->record_reloading;
}

typedef struct {
  SeismoWindow *window;
  gsize         n_events;
} Growth;

static gboolean
grew (gpointer data)
{
  Growth *g = data;
  SeismoTrace *trace = seismo_window_get_trace (g->window);

  return trace != NULL && seismo_trace_get_n_events (trace) > g->n_events;
}

gboolean
seismo_app_test_wait_growth (gpointer window,
                             guint    timeout_ms)
{
  SeismoTrace *trace = seismo_window_get_trace (window);
  Growth g = { window, trace != NULL ? seismo_trace_get_n_events (trace) : 0 };

  return seismo_gui_test_wait_for (grew, &g, timeout_ms);
}

void
seismo_app_test_save_png (GtkWidget  *widget,
                          const char *dir,
                          const char *name)
{
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("saved %s", path);
}

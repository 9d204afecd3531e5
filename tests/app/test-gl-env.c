/* SPDX-License-Identifier: GPL-3.0-or-later */
/* With the cairo renderer the app has GDK skip its OpenGL set-up (app/seismo-gl-env.c), and the
 * programs it starts still see the user's GDK_DEBUG. */
#include <gtk/gtk.h>

#include "seismo-gl-env.h"

static void
test_value (void)
{
  static const struct {
    const char *renderer, *gdk_debug, *expected;
  } cases[] = {
    { NULL, NULL, NULL },
    { "gl", NULL, NULL },
    { "ngl", "events", NULL },
    { "cairo", NULL, "gl-disable" },
    { "Cairo", "", "gl-disable" },
    { "cairo", "events", "events,gl-disable" },
    { "cairo", "events:frames", "events:frames,gl-disable" },
    { "cairo", "gl-glx", NULL },
    { "cairo", "events,gl-disable", NULL },
    { "cairo", "all", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *value = _seismo_gl_env_gdk_debug_for (cases[i].renderer, cases[i].gdk_debug);

      g_test_message ("GSK_RENDERER=%s GDK_DEBUG=%s", cases[i].renderer, cases[i].gdk_debug);
      g_assert_cmpstr (value, ==, cases[i].expected);
    }
}

static gboolean
maps_contain (const char *needle)
{
  g_autofree char *maps = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, needle) != NULL;
}

/* In a child process: the environment is the process's own. */
static void
test_gdk_skips_gl (void)
{
  if (g_test_subprocess ())
    {
      g_auto(GStrv) child = NULL;
      g_autoptr(GError) error = NULL;
      GdkDisplay *display;

      g_setenv ("GSK_RENDERER", "cairo", TRUE);
      g_unsetenv ("GDK_DEBUG");
      seismo_gl_env_setup ();
      g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "gl-disable");
      child = seismo_gl_env_child_environ ();
      g_assert_null (g_environ_getenv (child, "GDK_DEBUG"));
      g_assert_cmpstr (g_environ_getenv (child, "GSK_RENDERER"), ==, "cairo");
      /* A program started as the app starts its recorder sees no GDK_DEBUG. */
      {
        g_autoptr(GSubprocessLauncher) launcher = seismo_gl_env_new_launcher (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
        g_autoptr(GSubprocess) env = g_subprocess_launcher_spawn (launcher, &error, "env", NULL);
        g_autofree char *out = NULL;

        g_assert_no_error (error);
        g_assert_true (g_subprocess_communicate_utf8 (env, NULL, NULL, &out, NULL, &error));
        g_assert_no_error (error);
        g_assert_nonnull (strstr (out, "GSK_RENDERER=cairo\n"));
        g_assert_null (strstr (out, "GDK_DEBUG="));
      }

      g_assert_true (gtk_init_check ());
      display = gdk_display_get_default ();
      g_assert_nonnull (display);
      /* A window drawn, as the app's is. */
      {
        GtkWidget *window = gtk_window_new ();
        GMainContext *context = g_main_context_default ();
        gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;

        gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Seismo"));
        gtk_window_present (GTK_WINDOW (window));
        while (g_get_monotonic_time () < until)
          g_main_context_iteration (context, FALSE);
        gtk_window_destroy (GTK_WINDOW (window));
      }
      g_assert_false (gdk_display_prepare_gl (display, &error));
      g_assert_nonnull (error);
      /* Mesa's driver was never loaded. */
      g_assert_false (maps_contain ("_dri.so"));
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* What setting up leaves for GTK and for the programs the app starts, from a renderer and a
 * GDK_DEBUG of the user's (NULL: unset). In a child process: the environment is the process's. */
typedef struct {
  const char *renderer;
  const char *user_value;
  const char *for_gtk;
  const char *for_children;
} EnvCase;

static const EnvCase env_cases[] = {
  /* The user's own value is kept, for GTK and for the programs started. */
  { "cairo", "no-portals", "no-portals,gl-disable", "no-portals" },
  /* Another renderer: nothing changes. */
  { "gl", NULL, NULL, NULL },
};

static void
test_env (gconstpointer data)
{
  const EnvCase *c = data;

  if (g_test_subprocess ())
    {
      g_auto(GStrv) child = NULL;

      g_setenv ("GSK_RENDERER", c->renderer, TRUE);
      if (c->user_value != NULL)
        g_setenv ("GDK_DEBUG", c->user_value, TRUE);
      else
        g_unsetenv ("GDK_DEBUG");
      seismo_gl_env_setup ();
      g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, c->for_gtk);
      child = seismo_gl_env_child_environ ();
      g_assert_cmpstr (g_environ_getenv (child, "GDK_DEBUG"), ==, c->for_children);
      return;
    }
  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gl-env/value", test_value);
  g_test_add_data_func ("/gl-env/user-value-kept", &env_cases[0], test_env);
  g_test_add_data_func ("/gl-env/other-renderer", &env_cases[1], test_env);
  if (g_getenv ("DISPLAY") != NULL)
    g_test_add_func ("/gl-env/gdk-skips-gl", test_gdk_skips_gl);
  return g_test_run ();
}

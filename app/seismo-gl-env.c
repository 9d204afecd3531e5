/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <string.h>

#include "seismo-gl-env.h"

/*
 * GDK 4.8 on X11 sets up OpenGL (Mesa's driver, and with it LLVM) when it opens the display, only
 * to pick a visual, even when GSK_RENDERER=cairo says nothing will be drawn with GL. Seismo itself
 * draws nothing with GL. On this project's machine that set-up is 58 MiB of an empty window's
 * 116 MiB peak and ~70 ms of its start, so with the cairo renderer GDK is told to skip it
 * (GDK_DEBUG=gl-disable, read once when GTK starts). Programs the app starts get the environment
 * as the user had it.
 */

static gboolean gdk_debug_changed;
static char *gdk_debug_before;     /* NULL: it was unset */

static gboolean
names_gl (const char *gdk_debug)
{
  g_auto(GStrv) keys = g_strsplit_set (gdk_debug, ":;, \t", -1);

  for (guint i = 0; keys[i] != NULL; i++)
    if (g_str_has_prefix (keys[i], "gl-") || g_ascii_strcasecmp (keys[i], "all") == 0)
      return TRUE;
  return FALSE;
}

/* What GDK_DEBUG should be for GTK to skip GL, or NULL to leave it as it is. */
char *
_seismo_gl_env_gdk_debug_for (const char *renderer,
                              const char *gdk_debug)
{
  if (renderer == NULL || g_ascii_strcasecmp (renderer, "cairo") != 0)
    return NULL;
  /* Whoever chose a GL backend or disabled GL already is left alone. */
  if (gdk_debug != NULL && names_gl (gdk_debug))
    return NULL;
  if (gdk_debug != NULL && gdk_debug[0] != '\0')
    return g_strconcat (gdk_debug, ",gl-disable", NULL);
  return g_strdup ("gl-disable");
}

/* Call from main(), before GTK starts and before any thread does: it may set an environment
 * variable. */
void
seismo_gl_env_setup (void)
{
  const char *gdk_debug = g_getenv ("GDK_DEBUG");
  g_autofree char *value = NULL;

  if (gdk_debug_changed)
    return;
  value = _seismo_gl_env_gdk_debug_for (g_getenv ("GSK_RENDERER"), gdk_debug);
  if (value == NULL)
    return;
  gdk_debug_before = g_strdup (gdk_debug);
  g_setenv ("GDK_DEBUG", value, TRUE);
  gdk_debug_changed = TRUE;
}

/* The environment for a program the app starts (the recorder, the program it traces). */
char **
seismo_gl_env_child_environ (void)
{
  char **env = g_get_environ ();

  if (!gdk_debug_changed)
    return env;
  if (gdk_debug_before != NULL)
    return g_environ_setenv (env, "GDK_DEBUG", gdk_debug_before, TRUE);
  return g_environ_unsetenv (env, "GDK_DEBUG");
}

GSubprocessLauncher *
seismo_gl_env_new_launcher (GSubprocessFlags flags)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (flags);
  g_auto(GStrv) env = seismo_gl_env_child_environ ();

  g_subprocess_launcher_set_environ (launcher, env);
  return launcher;
}

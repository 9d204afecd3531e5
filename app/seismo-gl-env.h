/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void    seismo_gl_env_setup         (void);
char  **seismo_gl_env_child_environ (void);
/* A launcher for a program the app starts: the user's environment (seismo_gl_env_child_environ()). */
GSubprocessLauncher *seismo_gl_env_new_launcher (GSubprocessFlags flags);

/* For tests. */
char   *_seismo_gl_env_gdk_debug_for (const char *renderer,
                                      const char *gdk_debug);

G_END_DECLS

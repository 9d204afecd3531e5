/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void    seismo_gl_env_setup         (void);
char  **seismo_gl_env_child_environ (void);

/* For tests. */
char   *_seismo_gl_env_gdk_debug_for (const char *renderer,
                                      const char *gdk_debug);

G_END_DECLS

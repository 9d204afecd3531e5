/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Translations. Every file of data/, backends/ and seismo-cli gets this header first (meson's
 * '-include'), so that their messages can be wrapped in _() (gettext in Seismo's domain, whatever
 * the program's default domain: the same definition as <glib/gi18n-lib.h>) and N_() (tables,
 * translated where they are shown). It includes no GLib header: the files still define
 * G_LOG_DOMAIN before theirs. Formats of 64-bit numbers use <inttypes.h>'s PRId64 and PRIu64,
 * which xgettext and msgfmt understand (they cannot see through G_GUINT64_FORMAT).
 */

#include <inttypes.h>

#ifndef _
#define _(String) ((char *) g_dgettext (GETTEXT_PACKAGE, String))
#endif
#ifndef N_
#define N_(String) (String)
#endif

/* Binds Seismo's gettext domain once per process, to $SEISMO_LOCALEDIR when set (`meson devenv`
 * and the tests: the catalogs built in the build tree), else the installed locale folder. */
void seismo_i18n_init (void);

/* The gettext domain of the "explain this" texts (the key files of data/explain; po/explain). */
#define SEISMO_EXPLAIN_DOMAIN "seismo-explain"

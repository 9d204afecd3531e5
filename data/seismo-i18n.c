/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <glib.h>
#include <libintl.h>

#include "seismo-i18n.h"

void
seismo_i18n_init (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      const char *dir = g_getenv ("SEISMO_LOCALEDIR");
      gboolean uninstalled = dir != NULL && dir[0] != '\0';
      /* Uninstalled, po/explain builds its catalogs in a folder of its own. */
      g_autofree char *explain = uninstalled ? g_build_filename (dir, "explain", NULL) : NULL;

      bindtextdomain (GETTEXT_PACKAGE, uninstalled ? dir : LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      bindtextdomain (SEISMO_EXPLAIN_DOMAIN, uninstalled ? explain : LOCALEDIR);
      bind_textdomain_codeset (SEISMO_EXPLAIN_DOMAIN, "UTF-8");
      g_once_init_leave (&done, 1);
    }
}

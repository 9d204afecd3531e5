/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <locale.h>

#include <glib/gi18n.h>

#include "seismo-application.h"
#include "seismo-gl-env.h"
#include "seismo-i18n.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(SeismoApplication) app = NULL;

  seismo_gl_env_setup ();
  setlocale (LC_ALL, "");
  seismo_i18n_init ();
  /* GtkBuilder templates translate in the default domain. */
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Seismo"));
  app = seismo_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}

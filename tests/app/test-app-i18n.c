/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The app in French (LANG=fr_FR.UTF-8 from meson, the catalogs of the build tree): the window's
 * menu, its buttons and a data-layer error come out in French. Skipped when the locale is not
 * installed (tools/deps.sh generates it).
 */
#include <locale.h>

#include <glib/gi18n.h>

#include "seismo-app-test-util.h"
#include "seismo-gui-test-util.h"
#include "seismo-i18n.h"
#include "seismo-importer.h"

/* Every "label" of a menu model and its sections and submenus. */
static void
collect_labels (GMenuModel *model,
                GPtrArray  *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *label = NULL;
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      GMenuModel *linked;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        g_ptr_array_add (out, g_steal_pointer (&label));
      while (g_menu_link_iter_get_next (links, NULL, &linked))
        {
          collect_labels (linked, out);
          g_object_unref (linked);
        }
    }
}

static GtkWidget *
find_menu_button (GtkWidget *root)
{
  if (GTK_IS_MENU_BUTTON (root) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (root)))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_menu_button (c);

      if (found)
        return found;
    }
  return NULL;
}

static gboolean
has (GPtrArray  *labels,
     const char *want)
{
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (labels->pdata[i], want))
      return TRUE;
  return FALSE;
}

static void
checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *button = find_menu_button (GTK_WIDGET (window));
  const char *shots = g_getenv ("SEISMO_I18N_SCREENSHOTS");

  g_assert_nonnull (button);
  collect_labels (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), labels);
  for (guint i = 0; i < labels->len; i++)
    g_test_message ("menu: %s", (const char *) labels->pdata[i]);
  g_assert_true (has (labels, "_Nouvelle fenêtre"));
  g_assert_true (has (labels, "_Enregistrer"));
  g_assert_false (has (labels, "_Save"));
  if (shots != NULL)
    seismo_app_test_save_png (GTK_WIDGET (window), shots, "app-fr");
}

static void
test_french (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  const char *messages = setlocale (LC_MESSAGES, NULL);

  if (messages == NULL || !g_str_has_prefix (messages, "fr"))
    {
      g_test_skip ("the fr_FR.UTF-8 locale is not installed (tools/deps.sh generates it)");
      return;
    }
  seismo_i18n_init ();
  textdomain (GETTEXT_PACKAGE);
  trace = seismo_trace_open ("/nonexistent/trace.dat", NULL, NULL, NULL, &error);
  /* A message of the data layer, in Seismo's domain whatever the default one. */
  g_assert_null (trace);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "Impossible d’ouvrir"));
  seismo_app_test_run (NULL, 0, checks);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  if (!seismo_gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/i18n/french", test_french);
  return g_test_run ();
}

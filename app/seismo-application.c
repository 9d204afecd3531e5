/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-application.h"
#include "seismo-stall-log.h"
#include "seismo-backend.h"
#include "seismo-resources.h"
#include "seismo-widgets.h"
#include "seismo-window.h"
#include "seismo-work-priority.h"

struct _SeismoApplication
{
  AdwApplication  parent_instance;

  /* owned */
  GSettings      *settings;
  GStrv           launch_paths;   /* the files named at launch (local_command_line) */
  GPtrArray      *early_reads;    /* SeismoEarlyRead*, their reads, until a window takes each */
};

G_DEFINE_FINAL_TYPE (SeismoApplication, seismo_application, ADW_TYPE_APPLICATION)

static SeismoWindow *
find_empty_window (SeismoApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (SEISMO_IS_WINDOW (l->data) && seismo_window_is_empty (l->data))
      return l->data;
  return NULL;
}

static SeismoWindow *
new_window (SeismoApplication *self)
{
  return seismo_window_new (self);
}

/* The read started at launch of this file, if any: the caller owns it. */
static SeismoEarlyRead *
take_early_read (SeismoApplication *self,
                 GFile             *file)
{
  g_autofree char *path = g_file_get_path (file);

  if (self->early_reads == NULL || path == NULL)
    return NULL;
  for (guint i = 0; i < self->early_reads->len; i++)
    if (g_strcmp0 (seismo_early_read_get_path (g_ptr_array_index (self->early_reads, i)), path) == 0)
      return g_ptr_array_steal_index (self->early_reads, i);
  return NULL;
}

void
seismo_application_open_files (SeismoApplication *self,
                               GFile            **files,
                               guint              n_files)
{
  g_return_if_fail (SEISMO_IS_APPLICATION (self));

  for (guint i = 0; i < n_files; i++)
    {
      SeismoWindow *window = find_empty_window (self);
      SeismoEarlyRead *early = take_early_read (self, files[i]);

      if (window == NULL)
        window = new_window (self);
      if (early != NULL)
        seismo_window_open_early_read (window, files[i], early);
      else
        seismo_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
seismo_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  SeismoApplication *self = SEISMO_APPLICATION (app);

  seismo_application_open_files (self, files, (guint) n_files);
  /* Reads of what was not opened after all (an option's value that named a file): dropped. */
  g_clear_pointer (&self->early_reads, g_ptr_array_unref);
}

/*
 * The files named on the command line are read from the start (seismo-window-read.h). Only
 * names of regular files count: GApplication turns the same arguments into the files "open"
 * gets, after it has registered and started up; options are its business.
 */
static gboolean
seismo_application_local_command_line (GApplication   *app,
                                       char         ***arguments,
                                       int            *exit_status)
{
  SeismoApplication *self = SEISMO_APPLICATION (app);
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();
  gboolean options_over = FALSE;

  for (guint i = 1; (*arguments)[i] != NULL; i++)
    {
      const char *arg = (*arguments)[i];
      g_autoptr(GFile) file = NULL;
      g_autofree char *path = NULL;

      if (!options_over && g_str_equal (arg, "--"))
        {
          options_over = TRUE;
          continue;
        }
      if (!options_over && arg[0] == '-')
        continue;
      file = g_file_new_for_commandline_arg (arg);
      path = g_file_get_path (file);
      if (path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_strv_builder_add (paths, path);
    }
  g_strfreev (self->launch_paths);
  self->launch_paths = g_strv_builder_end (paths);
  return G_APPLICATION_CLASS (seismo_application_parent_class)->local_command_line (app, arguments,
                                                                                   exit_status);
}

static void
seismo_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  /* Started with no file to open after all. */
  g_clear_pointer (&SEISMO_APPLICATION (app)->early_reads, g_ptr_array_unref);
  if (window == NULL)
    window = GTK_WINDOW (new_window (SEISMO_APPLICATION (app)));
  gtk_window_present (window);
}

static GSettings *
load_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SEISMO_APP_ID, TRUE);
  /* Run from the build tree, `meson devenv` points GSETTINGS_SCHEMA_DIR at the compiled schema. */
  if (schema == NULL)
    {
      g_message ("GSettings schema %s not found; settings will not be kept", SEISMO_APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static void
action_quit (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* Closing windows lets each one stop a recording and save its state. */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
action_new_window (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (new_window (user_data)));
}

static void
action_about (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  GtkApplication *app = user_data;
  static const char *developers[] = { "The Seismo authors", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (app),
                        "application-name", _("Seismo"),
                        "application-icon", SEISMO_APP_ID,
                        "version", PACKAGE_VERSION,
                        "comments", _("Record and explore system traces: scheduler, syscalls, interrupts"),
                        "developers", developers,
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "website", "https://github.com/seismo/seismo",
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { "quit", action_quit },
  { "new-window", action_new_window },
  { "about", action_about },
};

static void
seismo_application_startup (GApplication *app)
{
  SeismoApplication *self = SEISMO_APPLICATION (app);
  static const struct {
    const char *action;
    const char *accels[4];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.find-next", { "<Control>g", "F3", NULL } },
    { "win.find-previous", { "<Control><Shift>g", "<Shift>F3", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
    { "win.zoom-out", { "<Control>minus", "<Control>KP_Subtract", NULL } },
    { "win.zoom-fit", { "<Control>0", "<Control>KP_0", NULL } },
    { "win.zoom-range", { "<Control>e", NULL } },
    { "win.show-pane::details", { "<Alt>1", NULL } },
    { "win.show-pane::histogram", { "<Alt>2", NULL } },
    { "win.show-pane::stats", { "<Alt>3", NULL } },
    { "win.show-pane::flamegraph", { "<Alt>4", NULL } },
    /* What GTK 4.8 sets when it finds gtk/help-overlay.ui (seismo-window-actions.c). */
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  /* Before the first work thread starts: loads, filters and searches run behind the frames. */
  seismo_work_priority_yield_to_main_thread ();
  /* The readers of trace.dat files are the backends' to register. */
  seismo_backends_init ();
  /* Startup runs in the instance that opens the files (not in one that hands them to another):
   * their reads start here, before GTK does. */
  if (self->launch_paths != NULL && self->launch_paths[0] != NULL)
    {
      self->early_reads = g_ptr_array_new_with_free_func ((GDestroyNotify) seismo_early_read_free);
      for (guint i = 0; self->launch_paths[i] != NULL; i++)
        g_ptr_array_add (self->early_reads, seismo_early_read_start (self->launch_paths[i]));
    }
  g_clear_pointer (&self->launch_paths, g_strfreev);

  G_APPLICATION_CLASS (seismo_application_parent_class)->startup (app);

  seismo_stall_log_start_from_env (GTK_APPLICATION (app));
  seismo_widgets_init ();
  /*
   * A recorder killed together with its guard leaves its tracefs instance tracing. Run as root,
   * the app removes it now; run as a user it may not (this does nothing then), and the pkexec
   * recorder it starts for each recording sweeps first (seismo-backend.h).
   */
  seismo_backends_sweep_stale ();
  self->settings = load_settings ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

/* --version, answered in the launching process: no window, no display needed. */
static int
seismo_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("seismo %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
seismo_application_dispose (GObject *object)
{
  SeismoApplication *self = SEISMO_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->launch_paths, g_strfreev);
  g_clear_pointer (&self->early_reads, g_ptr_array_unref);
  G_OBJECT_CLASS (seismo_application_parent_class)->dispose (object);
}

static void
seismo_application_class_init (SeismoApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  /* The resources live in a static library: registered by hand, as nothing else would pull in
   * their object file. */
  seismo_register_resource ();

  G_OBJECT_CLASS (klass)->dispose = seismo_application_dispose;
  app_class->startup = seismo_application_startup;
  app_class->activate = seismo_application_activate;
  app_class->open = seismo_application_open;
  app_class->local_command_line = seismo_application_local_command_line;
  app_class->handle_local_options = seismo_application_handle_local_options;
}

static void
seismo_application_init (SeismoApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "version", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_NONE, _("Print the version and exit"), NULL);
}

/**
 * seismo_application_new:
 *
 * Returns: (transfer full): the application
 */
SeismoApplication *
seismo_application_new (void)
{
  return g_object_new (SEISMO_TYPE_APPLICATION,
                       "application-id", SEISMO_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/seismo/Seismo",
                       NULL);
}

GSettings *
seismo_application_get_settings (SeismoApplication *self)
{
  g_return_val_if_fail (SEISMO_IS_APPLICATION (self), NULL);
  return self->settings;
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  g_autofree char *x = g_file_get_basename ((GFile *) a);
  g_autofree char *y = g_file_get_basename ((GFile *) b);

  return g_strcmp0 (x, y);
}

/**
 * seismo_application_get_samples_dir:
 *
 * Where the bundled sample traces are: $SEISMO_SAMPLES_DIR (`meson devenv` sets it to the source
 * tree's app/resources/samples), else PKGDATADIR/samples. No build or source path is compiled in:
 * the installed binaries stay the same wherever they were built.
 *
 * Returns: (transfer full): the folder
 */
char *
seismo_application_get_samples_dir (void)
{
  const char *env = g_getenv ("SEISMO_SAMPLES_DIR");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  return g_build_filename (PKGDATADIR, "samples", NULL);
}

/**
 * seismo_application_list_samples:
 *
 * The .seismo files in seismo_application_get_samples_dir().
 *
 * Returns: (transfer full) (element-type GFile): the sample files, sorted by name
 */
GList *
seismo_application_list_samples (void)
{
  g_autofree char *dir = seismo_application_get_samples_dir ();
  g_autoptr(GDir) d = NULL;
  GList *files = NULL;
  const char *name;

  if ((d = g_dir_open (dir, 0, NULL)) == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".seismo"))
      files = g_list_prepend (files, g_file_new_build_filename (dir, name, NULL));
  return g_list_sort (files, compare_files);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "seismo-importer.h"
#include "seismo-record-dialog.h"
#include "seismo-search.h"
#include "seismo-window-private.h"
#include "seismo-window-share.h"
#include "seismo-work-priority.h"

/* Open */

static void
add_filters (GtkFileChooser *chooser)
{
  g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (traces, _("Traces"));
  gtk_file_filter_add_pattern (traces, "*.seismo");
  gtk_file_filter_add_pattern (traces, "*.dat");
  gtk_file_filter_add_pattern (traces, "*.txt");
  gtk_file_filter_add_pattern (traces, "*.log");
  gtk_file_filter_add_pattern (traces, "*.strace");
  gtk_file_filter_add_pattern (traces, "*.trace");
  gtk_file_filter_add_pattern (traces, "*.perfetto-trace");
  gtk_file_filter_add_pattern (traces, "*.pftrace");
  gtk_file_chooser_add_filter (chooser, traces);
  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (chooser, all);
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  SeismoWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      seismo_application_open_files (SEISMO_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                                     &file, 1);
    }
  g_object_unref (dialog);
}

static void
action_open (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open Trace"), GTK_WINDOW (widget),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_filters (GTK_FILE_CHOOSER (dialog));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
action_open_file (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  g_autoptr(GFile) file = g_file_new_for_path (g_variant_get_string (param, NULL));

  seismo_application_open_files (SEISMO_APPLICATION (gtk_window_get_application (GTK_WINDOW (widget))),
                                 &file, 1);
}

static void
action_cancel_open (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

/* Save */

typedef struct {
  SeismoTrace *trace;
  char        *path;
} SaveJob;

static void
save_job_free (SaveJob *job)
{
  g_clear_object (&job->trace);
  g_free (job->path);
  g_free (job);
}

static void
save_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveJob *job = task_data;
  GError *error = NULL;

  seismo_work_priority_enter ();

  if (seismo_trace_save (job->trace, job->path, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
save_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  SeismoWindow *self = SEISMO_WINDOW (source);
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_basename (file);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *heading = g_strdup_printf (_("Could not save “%s”"), name);

      _seismo_window_show_error (self, heading, error->message);
      return;
    }
  /* A saved recording no longer needs its temporary file. */
  if (self->unsaved && self->record_path != NULL)
    {
      g_unlink (self->record_path);
      g_clear_pointer (&self->record_path, g_free);
    }
  g_set_object (&self->file, file);
  self->unsaved = FALSE;
  _seismo_window_share_trace_saved (self);
  adw_window_title_set_title (self->window_title, name);
  {
    g_autofree char *msg = g_strdup_printf (_("Saved “%s”"), name);

    _seismo_window_add_recent (file);
    _seismo_window_toast (self, msg);
  }
}

void
_seismo_window_save_to (SeismoWindow *self,
                        GFile        *file)
{
  g_autoptr(GTask) task = NULL;
  SaveJob *job;
  char *path;

  g_return_if_fail (self->trace != NULL);
  if ((path = g_file_get_path (file)) == NULL)
    {
      _seismo_window_show_error (self, _("Could not save the trace"),
                                 _("Only files on this computer can be written."));
      return;
    }
  job = g_new0 (SaveJob, 1);
  job->trace = g_object_ref (self->trace);
  job->path = path;
  task = g_task_new (self, NULL, save_done, g_object_ref (file));
  g_task_set_task_data (task, job, (GDestroyNotify) save_job_free);
  g_task_run_in_thread (task, save_thread);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  SeismoWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *name = g_file_get_basename (file);

      /* Seismo writes its own format; give the name the extension that says so. */
      if (!g_str_has_suffix (name, ".seismo"))
        {
          g_autoptr(GFile) parent = g_file_get_parent (file);
          g_autofree char *fixed = g_strconcat (name, ".seismo", NULL);

          g_set_object (&file, g_file_get_child (parent, fixed));
        }
      _seismo_window_save_to (self, file);
    }
  g_object_unref (dialog);
}

static void
action_save_as (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *suggested = NULL;

  dialog = gtk_file_chooser_native_new (_("Save Trace"), GTK_WINDOW (widget),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Seismo traces"));
  gtk_file_filter_add_pattern (filter, "*.seismo");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      char *dot = strrchr (base, '.');

      if (dot != NULL)
        *dot = '\0';
      suggested = g_strconcat (base, ".seismo", NULL);
    }
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();

      suggested = g_date_time_format (now, "recording-%Y-%m-%d-%H%M%S.seismo");
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
action_save (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  g_autofree char *base = self->file != NULL ? g_file_get_basename (self->file) : NULL;

  /* Only a .seismo file we opened is saved in place; anything else asks for a name. */
  if (self->file != NULL && !self->unsaved && g_str_has_suffix (base, ".seismo"))
    _seismo_window_save_to (self, self->file);
  else
    action_save_as (widget, name, param);
}

static void
action_close (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
action_record (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  GtkWindow *dialog = seismo_record_dialog_new (SEISMO_WINDOW (widget));

  gtk_window_present (dialog);
}

/* Zoom */

static void
action_zoom (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  if (g_str_equal (name, "win.zoom-in"))
    seismo_timeline_zoom_in (self->timeline);
  else if (g_str_equal (name, "win.zoom-out"))
    seismo_timeline_zoom_out (self->timeline);
  else if (g_str_equal (name, "win.zoom-fit"))
    seismo_timeline_zoom_fit (self->timeline);
  else if (g_str_equal (name, "win.zoom-range"))
    seismo_timeline_zoom_range (self->timeline);
}

/* Search: from the selected event on, the next (or previous) event whose name, task or fields
 * contain the text (seismo_trace_search()), on a worker thread so that ten million events never
 * block the window. */

/* The text the latest search looked for, kept on the search entry. */
#define SEARCHED_TEXT "seismo-searched-text"

typedef struct {
  SeismoTrace   *trace;
  char          *needle;
  SeismoEventId  from;
  gboolean       backward;
  SeismoEventId  found;
  gboolean       wrapped;
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_clear_object (&job->trace);
  g_free (job->needle);
  g_free (job);
}

static void
search_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  GError *error = NULL;

  seismo_work_priority_enter ();

  job->found = seismo_trace_search (job->trace, job->needle, job->from,
                                    job->backward ? SEISMO_SEARCH_BACKWARD : 0,
                                    cancellable, &job->wrapped, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
search_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  SeismoWindow *self = SEISMO_WINDOW (source);
  SearchJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* Only the latest search speaks; an abandoned one may still have found something. */
  if (!g_task_propagate_boolean (G_TASK (result), &error)
      || g_task_get_cancellable (G_TASK (result)) != self->search_cancellable)
    return;
  g_clear_object (&self->search_cancellable);
  if (job->found == SEISMO_NO_EVENT)
    {
      gtk_label_set_text (self->search_status, _("No match"));
      return;
    }
  {
    g_autofree char *status = g_strdup_printf (job->wrapped ? _("Event %u (wrapped around)") : _("Event %u"),
                                               job->found);

    gtk_label_set_text (self->search_status, status);
  }
  seismo_event_details_set_event (self->details, job->found);
  seismo_timeline_set_selected_event (self->timeline, job->found);
  seismo_event_list_set_selected_event (self->event_list, job->found);
}

static void
start_search (SeismoWindow *self,
              gboolean      backward)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GTask) task = NULL;
  SearchJob *job;
  guint selected;

  if (self->trace == NULL || seismo_trace_get_n_events (self->trace) == 0)
    return;
  if (text == NULL || *text == '\0')
    {
      gtk_label_set_text (self->search_status, "");
      return;
    }
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_set_object (&self->search_cancellable, g_cancellable_new ());
  g_object_set_data_full (G_OBJECT (self->search_entry), SEARCHED_TEXT, g_strdup (text), g_free);
  selected = seismo_timeline_get_selected_event (self->timeline);
  job = g_new0 (SearchJob, 1);
  job->trace = g_object_ref (self->trace);
  job->needle = g_strdup (text);
  job->backward = backward;
  /* Without a selection, the first match from the start (or the end, backward). */
  if (selected != SEISMO_NO_EVENT)
    job->from = selected;
  else
    job->from = backward ? 0 : (SeismoEventId) (seismo_trace_get_n_events (self->trace) - 1);
  gtk_label_set_text (self->search_status, _("Searching…"));
  task = g_task_new (self, self->search_cancellable, search_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_run_in_thread (task, search_thread);
}

static void
action_find (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
action_find_next (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  start_search (self, g_str_equal (name, "win.find-previous"));
}

static void
on_search_activate (SeismoWindow *self)
{
  start_search (self, FALSE);
}

static void
on_search_next (SeismoWindow *self)
{
  start_search (self, FALSE);
}

static void
on_search_previous (SeismoWindow *self)
{
  start_search (self, TRUE);
}

static void
on_search_changed (SeismoWindow *self)
{
  const char *searched = g_object_get_data (G_OBJECT (self->search_entry), SEARCHED_TEXT);

  /* The entry reports typing up to 150 ms late, when Enter may already have searched for the
   * text: that search and its answer stay. */
  if (g_strcmp0 (searched, gtk_editable_get_text (GTK_EDITABLE (self->search_entry))) == 0)
    return;
  g_object_set_data (G_OBJECT (self->search_entry), SEARCHED_TEXT, NULL);
  /* A search for the old text is abandoned: nothing is running any more. */
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  gtk_label_set_text (self->search_status, "");
}

/* GtkApplication would build the shortcuts window for every window as it opens it, if it found
 * gtk/help-overlay.ui under the app's resource path: 2.5 MB of heap per window, most never
 * shown. It is under another name, and built on first use here. */
static void
show_help_overlay (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (user_data);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/seismo/Seismo/shortcuts-window.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* Finds this action in the window's map, so adds no second one. */
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_widget_show (GTK_WIDGET (overlay));
}

void
_seismo_window_init_actions (SeismoWindow *self)
{
  g_autoptr(GSimpleAction) help = g_simple_action_new ("show-help-overlay", NULL);

  g_signal_connect (help, "activate", G_CALLBACK (show_help_overlay), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (help));
}

void
_seismo_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, action_open);
  gtk_widget_class_install_action (widget_class, "win.open-file", "s", action_open_file);
  gtk_widget_class_install_action (widget_class, "win.cancel-open", NULL, action_cancel_open);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, action_save);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, action_save_as);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, action_close);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, action_record);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.zoom-range", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, action_find);
  gtk_widget_class_install_action (widget_class, "win.find-next", NULL, action_find_next);
  gtk_widget_class_install_action (widget_class, "win.find-previous", NULL, action_find_next);

  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
}

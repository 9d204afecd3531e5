/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <inttypes.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "seismo-error.h"
#include "seismo-file-summary.h"
#include "seismo-importer.h"
#include "seismo-stacks.h"
#include "seismo-timeline-renderer.h"
#include "seismo-timing.h"
#include "seismo-window-private.h"
#include "seismo-window-share.h"
#include "seismo-window-teach.h"
#include "seismo-work-priority.h"

G_DEFINE_FINAL_TYPE (SeismoWindow, seismo_window, ADW_TYPE_APPLICATION_WINDOW)

/* Loading */

typedef struct {
  char               *path;
  SeismoEarlyRead    *early;     /* the read started at launch, when it is this file's */
  gint               *permille;
  SeismoWindow       *preview;   /* lists the events before the timeline is ready (borrowed:
                                  * the task holds it) */
  SeismoTrace        *trace;
  SeismoTimelineData *data;
} LoadJob;

static void
load_job_free (LoadJob *job)
{
  g_free (job->path);
  g_clear_pointer (&job->early, seismo_early_read_free);
  g_clear_object (&job->trace);
  g_clear_pointer (&job->data, seismo_timeline_data_unref);
  g_free (job);
}

typedef struct {
  SeismoWindow *window;
  GCancellable *cancellable;   /* the load's: a later one replaced it */
  SeismoTrace  *trace;
} Preview;

static void
preview_free (Preview *preview)
{
  g_object_unref (preview->window);
  g_clear_object (&preview->cancellable);
  g_object_unref (preview->trace);
  g_free (preview);
}

/*
 * The trace is read; the timeline's data is being made from it (0.2 s of 10M events). Meanwhile
 * the list shows the events: its first rows take GTK as long again on the main thread, which
 * would otherwise only start once the data is there. Only into an empty window: one that shows
 * a trace keeps it whole until the next one is.
 */
static gboolean
show_preview (gpointer data)
{
  Preview *preview = data;
  SeismoWindow *self = preview->window;

  if (self->load_cancellable == preview->cancellable && !g_cancellable_is_cancelled (preview->cancellable)
      && self->trace == NULL)
    {
      seismo_event_list_set_trace (self->event_list, preview->trace);
      gtk_stack_set_visible_child_name (self->stack, "trace");
    }
  return G_SOURCE_REMOVE;
}

static void
load_trace_read (SeismoTrace *trace,
                 gpointer     user_data)
{
  GTask *task = user_data;
  LoadJob *job = g_task_get_task_data (task);
  Preview *preview;

  if (job->preview == NULL)
    return;
  preview = g_new0 (Preview, 1);
  preview->window = g_object_ref (job->preview);
  preview->cancellable = g_task_get_cancellable (task) ? g_object_ref (g_task_get_cancellable (task)) : NULL;
  preview->trace = g_object_ref (trace);
  g_main_context_invoke_full (g_task_get_context (task), G_PRIORITY_DEFAULT, show_preview, preview,
                              (GDestroyNotify) preview_free);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  GError *error = NULL;
  gboolean ok;

  seismo_work_priority_enter ();

  if (job->early != NULL)
    ok = seismo_early_read_join (job->early, cancellable, job->permille, load_trace_read, task,
                                 &job->trace, &job->data, &error);
  else
    ok = seismo_window_read (job->path, job->permille, load_trace_read, task, cancellable,
                             &job->trace, &job->data, &error);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
load_start (SeismoWindow       *self,
            const char         *path,
            SeismoEarlyRead    *early,
            gboolean            preview,
            GCancellable       *cancellable,
            gint               *permille,
            GAsyncReadyCallback callback,
            gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  LoadJob *job = g_new0 (LoadJob, 1);

  job->path = g_strdup (path);
  job->early = early;
  job->permille = permille;
  job->preview = preview ? self : NULL;
  g_task_set_source_tag (task, _seismo_window_load);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  g_task_run_in_thread (task, load_thread);
}

void
_seismo_window_load (SeismoWindow       *self,
                     const char         *path,
                     GCancellable       *cancellable,
                     gint               *permille,
                     GAsyncReadyCallback callback,
                     gpointer            user_data)
{
  load_start (self, path, NULL, FALSE, cancellable, permille, callback, user_data);
}

gboolean
_seismo_window_load_finish (SeismoWindow        *self,
                            GAsyncResult        *result,
                            SeismoTrace        **trace,
                            SeismoTimelineData **data,
                            GError             **error)
{
  LoadJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  *trace = g_steal_pointer (&job->trace);
  *data = g_steal_pointer (&job->data);
  return TRUE;
}

static gboolean
update_progress (gpointer user_data)
{
  SeismoWindow *self = user_data;

  gtk_progress_bar_set_fraction (self->progress_bar, g_atomic_int_get (&self->load_permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
open_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  SeismoWindow *self = SEISMO_WINDOW (source);
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;

  /* A later open replaced this one. */
  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable)
    return;
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->load_cancellable);

  if (!_seismo_window_load_finish (self, result, &trace, &data, &error))
    {
      /* The events listed before the timeline was ready (show_preview) go too. */
      if (self->trace == NULL)
        seismo_event_list_set_trace (self->event_list, NULL);
      gtk_stack_set_visible_child_name (self->stack, self->trace != NULL ? "trace" : "empty");
      _seismo_window_update_actions (self);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && !g_error_matches (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED))
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *heading = g_strdup_printf (_("Could not open “%s”"), name);
          g_autofree char *uri = g_file_get_uri (file);

          /* It went to the recent files as it was opened (open_file()). */
          gtk_recent_manager_remove_item (gtk_recent_manager_get_default (), uri, NULL);
          _seismo_window_show_error (self, heading, error->message);
        }
      return;
    }

  g_set_object (&self->file, file);
  self->unsaved = FALSE;
  _seismo_window_show_trace (self, trace, data);
  if (seismo_timeline_data_get_summary (data) != NULL)
    {
      SeismoFileSummary *summary = seismo_timeline_data_get_summary (data);
      guint64 middle = seismo_file_summary_get_start_ns (summary)
                       + (seismo_file_summary_get_end_ns (summary)
                          - seismo_file_summary_get_start_ns (summary)) / 2;
      g_autofree char *text = NULL;

      /* The events of the middle, read while the whole trace is already drawn. */
      _seismo_window_load_window (self, middle, middle + 1);
      text = g_strdup_printf (_("This trace has %'" PRIu64 " events, more than memory holds: the "
                                "timeline draws all of it from the file's summary, and the events "
                                "around the view are read as you zoom in"),
                              (uint64_t) seismo_file_summary_get_n_events (summary));
      _seismo_window_toast (self, text);
    }
  _seismo_window_share_trace_opened (self);
  {
    const char *warning = seismo_trace_get_metadata (trace, "load_warning");

    if (warning != NULL)
      {
        /* Wrapped, and left up longer: it names what was lost, the part an ellipsis would cut. */
        AdwToast *toast = adw_toast_new (warning);
        GtkWidget *label = gtk_label_new (warning);

        gtk_label_set_wrap (GTK_LABEL (label), TRUE);
        /* Narrower than the window: the overlay sizes the toast for the label's natural width. */
        gtk_label_set_max_width_chars (GTK_LABEL (label), 70);
        adw_toast_set_custom_title (toast, label);
        adw_toast_set_timeout (toast, 10);
        adw_toast_overlay_add_toast (self->toast_overlay, toast);
      }
  }
  /* Raw syscall numbers from a machine the file does not name: say so rather than guess. */
  if (seismo_trace_get_metadata (trace, SEISMO_META_ARCH) == NULL)
    for (guint i = 0; i < seismo_trace_get_n_syscall_names (trace); i++)
      if (g_str_has_prefix (seismo_trace_get_syscall_name (trace, i), "syscall_"))
        {
          AdwToast *toast = adw_toast_new (_("Unknown architecture: syscalls are shown as numbers "
                                             "(seismo-cli --arch names them)"));

          adw_toast_set_timeout (toast, 10);
          adw_toast_overlay_add_toast (self->toast_overlay, toast);
          break;
        }
  _seismo_window_skipped_toast (self, trace);
}

static void
open_file (SeismoWindow    *self,
           GFile           *file,
           SeismoEarlyRead *early)
{
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  name = g_file_get_basename (file);
  if ((path = g_file_get_path (file)) == NULL)
    {
      g_autofree char *heading = g_strdup_printf (_("Could not open “%s”"), name);

      _seismo_window_show_error (self, heading, _("Only files on this computer can be opened."));
      seismo_early_read_free (early);
      return;
    }
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  g_atomic_int_set (&self->load_permille, 0);
  title = g_strdup_printf (_("Opening “%s”…"), name);
  adw_status_page_set_title (self->loading_page, title);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  g_clear_handle_id (&self->progress_source, g_source_remove);
  self->progress_source = g_timeout_add (50, update_progress, self);
  load_start (self, path, early, TRUE, self->load_cancellable, &self->load_permille, open_done,
              g_object_ref (file));
  /* Now, not once it is read: GTK writes the recent files' list and then reads it all back
   * (its file monitor), some milliseconds of the main thread a quarter of a second later. While
   * the file is read in other threads the main thread has nothing to do; after, it would come
   * on top of the first frames of the trace. A file that cannot be read leaves the list again. */
  _seismo_window_add_recent (file);
  _seismo_window_update_actions (self);
}

void
_seismo_window_add_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData recent = {
    .mime_type = (char *) "application/octet-stream",
    .app_name = (char *) "Seismo",
    .app_exec = (char *) "seismo %u",
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &recent);
}

void
seismo_window_open_file (SeismoWindow *self,
                         GFile        *file)
{
  g_return_if_fail (SEISMO_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  open_file (self, file, NULL);
}

void
seismo_window_open_early_read (SeismoWindow    *self,
                               GFile           *file,
                               SeismoEarlyRead *early)
{
  g_autofree char *path = NULL;

  g_return_if_fail (SEISMO_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (early != NULL);

  path = g_file_get_path (file);
  g_return_if_fail (g_strcmp0 (path, seismo_early_read_get_path (early)) == 0);
  open_file (self, file, early);
}

/* Showing a trace */

static void
update_status (SeismoWindow *self)
{
  g_autofree char *span = NULL;
  g_autofree char *status = NULL;
  g_autofree char *events = NULL;
  g_autofree char *subtitle = NULL;
  const char *source;
  guint64 lost;

  if (self->trace == NULL)
    {
      gtk_label_set_text (self->status_label, "");
      adw_window_title_set_title (self->window_title, _("Seismo"));
      adw_window_title_set_subtitle (self->window_title, NULL);
      return;
    }
  span = seismo_trace_has_timestamps (self->trace)
         ? seismo_format_duration ((double) (seismo_trace_get_end_ns (self->trace)
                                             - seismo_trace_get_start_ns (self->trace)))
         : g_strdup (_("no timing (events in the order of the log)"));
  if (self->data != NULL && seismo_timeline_data_get_summary (self->data) != NULL)
    {
      /* A trace larger than memory: all of its events, and how many around the view are read. */
      guint64 n = seismo_file_summary_get_n_events (seismo_timeline_data_get_summary (self->data));
      g_autofree char *all = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " event",
                                                           "%'" PRIu64 " events", n), (uint64_t) n);

      events = g_strdup_printf (_("%s (%'zu read)"), all, seismo_trace_get_n_events (self->trace));
    }
  else
    events = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'zu event", "%'zu events",
                                           seismo_trace_get_n_events (self->trace)),
                              seismo_trace_get_n_events (self->trace));
  lost = seismo_trace_get_n_lost_events (self->trace);
  status = g_strdup_printf (_("%s · %u CPUs · %u tasks · %s%s"), events,
                            seismo_trace_get_n_cpus (self->trace), seismo_trace_get_n_tasks (self->trace),
                            span, lost > 0 ? _(" · events were lost") : "");
  gtk_label_set_text (self->status_label, status);

  source = seismo_trace_get_metadata (self->trace, SEISMO_META_SOURCE);
  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);

      adw_window_title_set_title (self->window_title, name);
      /* Window lists (and bench/seismo-gui-large-bench.sh, which waits for it) see the file. */
      gtk_window_set_title (GTK_WINDOW (self), name);
    }
  else
    adw_window_title_set_title (self->window_title, _seismo_window_is_recording (self) ? _("Recording") : _("Unsaved Recording"));
  subtitle = source != NULL ? g_strdup_printf ("%s · %s", events, source) : g_strdup (events);
  adw_window_title_set_subtitle (self->window_title, subtitle);
}

void
_seismo_window_show_trace (SeismoWindow       *self,
                           SeismoTrace        *trace,
                           SeismoTimelineData *data)
{
  g_set_object (&self->trace, trace);
  if (data != self->data)
    {
      g_clear_pointer (&self->data, seismo_timeline_data_unref);
      self->data = seismo_timeline_data_ref (data);
    }
  seismo_timeline_set_data (self->timeline, data);
  seismo_event_list_set_trace (self->event_list, trace);
  seismo_event_details_set_data (self->details, data);
  gtk_stack_set_visible_child_name (self->stack, "trace");
  _seismo_window_analysis_set_trace (self);
  update_status (self);
  _seismo_window_update_actions (self);
}

void
_seismo_window_show_error (SeismoWindow *self,
                           const char   *heading,
                           const char   *body)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_seismo_window_toast (SeismoWindow *self,
                      const char   *text)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
_seismo_window_update_actions (SeismoWindow *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean has_trace = self->trace != NULL;
  gboolean recording = _seismo_window_is_recording (self);
  static const char *const trace_actions[] = {
    "win.zoom-in", "win.zoom-out", "win.zoom-fit", "win.find", "win.find-next", "win.find-previous",
  };

  for (guint i = 0; i < G_N_ELEMENTS (trace_actions); i++)
    gtk_widget_action_set_enabled (w, trace_actions[i], has_trace);
  gtk_widget_action_set_enabled (w, "win.zoom-range",
                                 has_trace && seismo_timeline_get_markers_text (self->timeline)[0] != '\0');
  gtk_widget_action_set_enabled (w, "win.save", has_trace && !recording);
  gtk_widget_action_set_enabled (w, "win.save-as", has_trace && !recording);
  gtk_widget_action_set_enabled (w, "win.stop-recording", recording);
  gtk_widget_action_set_enabled (w, "win.cancel-open", self->load_cancellable != NULL);
  gtk_widget_set_sensitive (self->search_button, has_trace);
  gtk_widget_set_visible (self->status_bar, has_trace);
  if (!has_trace)
    gtk_search_bar_set_search_mode (self->search_bar, FALSE);
}

/* The empty state */

static void
clear_empty_rows (SeismoWindow *self)
{
  for (guint i = 0; i < self->empty_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->empty_rows, i);
      GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);

      if (group != NULL)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->empty_rows, 0);
}

static void
add_file_row (SeismoWindow        *self,
              AdwPreferencesGroup *group,
              GFile               *file,
              const char          *subtitle)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *path = g_file_get_path (file);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-file");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", path);
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->empty_rows, row);
}

static void
fill_empty_page (SeismoWindow *self)
{
  GList *samples = seismo_application_list_samples ();
  GList *recent = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n_recent = 0;

  clear_empty_rows (self);
  for (GList *l = samples; l; l = l->next)
    add_file_row (self, self->samples_group, l->data, _("Bundled sample trace"));
  gtk_widget_set_visible (GTK_WIDGET (self->samples_group), samples != NULL);

  for (GList *l = recent; l != NULL && n_recent < 5; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autoptr(GFile) file = NULL;
      g_autofree char *parent = NULL;
      g_autoptr(GFile) dir = NULL;

      if (!gtk_recent_info_has_application (info, "Seismo") || !gtk_recent_info_exists (info))
        continue;
      file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      if (!g_file_is_native (file))
        continue;
      dir = g_file_get_parent (file);
      parent = dir != NULL ? g_file_get_path (dir) : NULL;
      add_file_row (self, self->recent_group, file, parent != NULL ? parent : "");
      n_recent++;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), n_recent > 0);
  g_list_free_full (samples, g_object_unref);
  g_list_free_full (recent, (GDestroyNotify) gtk_recent_info_unref);
}

static void
on_stack_page_changed (SeismoWindow *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") == 0)
    fill_empty_page (self);
}

/* Selection: the timeline and the list write it to the view and follow it; so do the details. */

static void
select_event (SeismoWindow *self,
              guint         event)
{
  /* The timeline and the list follow the view themselves. */
  seismo_view_set_selected_event (self->view, event);
}

static void
on_view_selected (SeismoWindow *self)
{
  seismo_event_details_set_event (self->details, seismo_view_get_selected_event (self->view));
}

static void
on_details_activated (SeismoWindow       *self,
                      guint               event,
                      SeismoEventDetails *details)
{
  select_event (self, event);
}

static void
on_markers_changed (SeismoWindow *self)
{
  gtk_label_set_text (self->markers_label, seismo_timeline_get_markers_text (self->timeline));
  _seismo_window_update_actions (self);
}

/* Drag and drop */

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         SeismoWindow  *self)
{
  g_autoptr(GSList) files = gdk_file_list_get_files (g_value_get_boxed (value));
  g_autoptr(GPtrArray) array = g_ptr_array_new ();

  for (GSList *l = files; l; l = l->next)
    g_ptr_array_add (array, l->data);
  if (array->len == 0)
    return FALSE;
  /* The first file opens here when this window is free, the others in windows of their own. */
  if (seismo_window_is_empty (self))
    {
      seismo_window_open_file (self, g_ptr_array_index (array, 0));
      g_ptr_array_remove_index (array, 0);
    }
  seismo_application_open_files (SEISMO_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                                 (GFile **) array->pdata, array->len);
  return TRUE;
}

/* The GUI never needs root (recording runs in seismo-cli record); say so when it has it. */
static void
on_root_banner_dismissed (SeismoWindow *self)
{
  gtk_revealer_set_reveal_child (self->root_banner, FALSE);
}

/* Window state */

static void
save_window_state (SeismoWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app != NULL ? seismo_application_get_settings (SEISMO_APPLICATION (app)) : NULL;
  int width, height;

  if (settings == NULL)
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set (settings, "window-size", "(ii)", width, height);
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
}

static gboolean
seismo_window_close_request (GtkWindow *window)
{
  SeismoWindow *self = SEISMO_WINDOW (window);

  save_window_state (self);
  _seismo_window_share_close (self);
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  if (_seismo_window_is_recording (self))
    _seismo_window_stop_recording (self);
  return GTK_WINDOW_CLASS (seismo_window_parent_class)->close_request (window);
}

static void
seismo_window_dispose (GObject *object)
{
  SeismoWindow *self = SEISMO_WINDOW (object);

  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_handle_id (&self->record_poll_source, g_source_remove);
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->record_cancellable != NULL)
    g_cancellable_cancel (self->record_cancellable);
  _seismo_window_dispose_analysis (self);
  if (self->view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->view, self);
      seismo_view_cancel_filter (self->view);
    }
  _seismo_window_dispose_window_load (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_WINDOW);
  _seismo_window_dispose_teach (self);
  _seismo_window_dispose_share (self);
  g_clear_object (&self->view);
  g_clear_object (&self->file);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->data, seismo_timeline_data_unref);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_object (&self->record_cancellable);
  g_clear_object (&self->recorder);
  g_clear_pointer (&self->record_path, g_free);
  if (self->record_errors != NULL)
    g_string_free (g_steal_pointer (&self->record_errors), TRUE);
  g_clear_pointer (&self->empty_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (seismo_window_parent_class)->dispose (object);
}

static void
seismo_window_class_init (SeismoWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = seismo_window_dispose;
  window_class->close_request = seismo_window_close_request;

  g_type_ensure (SEISMO_TYPE_FILTER_BAR);
  g_type_ensure (SEISMO_TYPE_RATE_VIEW);
  g_type_ensure (SEISMO_TYPE_FILTER_OVERLAY);
  g_type_ensure (SEISMO_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (SEISMO_TYPE_STATS_VIEW);
  g_type_ensure (SEISMO_TYPE_FLAME_GRAPH_VIEW);
  g_type_ensure (SEISMO_TYPE_EXPLAIN_VIEW);
  g_type_ensure (SEISMO_TYPE_LESSON_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/seismo/Seismo/seismo-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, samples_group);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, recording_page);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, event_list);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, details);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, rate_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, filter_overlay);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, panes);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, histogram);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, stats);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, flame);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, explain_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, lesson_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, search_status);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, root_banner);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, record_bar);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, record_status);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, status_bar);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoWindow, markers_label);
  gtk_widget_class_bind_template_callback (widget_class, on_stack_page_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_details_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_markers_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_root_banner_dismissed);

  _seismo_window_class_init_actions (widget_class);
  _seismo_window_class_init_record (widget_class);
  _seismo_window_class_init_analysis (widget_class);
  _seismo_window_class_init_teach (widget_class);
  _seismo_window_class_init_share (widget_class);
  _seismo_window_class_init_wait (widget_class);
  _seismo_window_class_init_skipped (widget_class);
}

/* The search bar takes the title's place in the header bar while it is open. */
static void
on_search_mode_changed (SeismoWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->window_title),
                          !gtk_search_bar_get_search_mode (self->search_bar));
}

static void
seismo_window_init (SeismoWindow *self)
{
  GtkDropTarget *drop;

  self->empty_rows = g_ptr_array_new ();
  self->view = seismo_view_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  seismo_timeline_set_view (self->timeline, self->view);
  seismo_event_list_set_view (self->event_list, self->view);
  g_signal_connect_swapped (self->view, "notify::selected-event", G_CALLBACK (on_view_selected), self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (on_search_mode_changed), self);
  /* The search bar opens at once. Its slide would resize the timeline and the list under it
   * for a quarter of a second, a relayout and repaint of the window every frame (50-100 ms each
   * on a 10M-event trace with GTK 4.8's cairo renderer). Its revealer is the child GtkSearchBar
   * documents as its CSS node structure (searchbar ╰── revealer). */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->search_bar));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_REVEALER (child))
      gtk_revealer_set_transition_type (GTK_REVEALER (child), GTK_REVEALER_TRANSITION_TYPE_NONE);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  gtk_search_bar_set_key_capture_widget (self->search_bar, GTK_WIDGET (self->event_list));
  gtk_revealer_set_reveal_child (self->root_banner, geteuid () == 0);
  _seismo_window_init_actions (self);
  _seismo_window_init_analysis (self);
  _seismo_window_init_teach (self);
  _seismo_window_init_share (self);
  _seismo_window_init_window_load (self);
  fill_empty_page (self);
  _seismo_window_update_actions (self);
}

/**
 * seismo_window_new:
 * @app: the application
 *
 * Returns: (transfer none): a new empty window, sized as the last one was
 */
SeismoWindow *
seismo_window_new (SeismoApplication *app)
{
  SeismoWindow *self = g_object_new (SEISMO_TYPE_WINDOW, "application", app, NULL);
  GSettings *settings = seismo_application_get_settings (app);

  if (settings != NULL)
    {
      int width, height;

      g_settings_get (settings, "window-size", "(ii)", &width, &height);
      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
  return self;
}

gboolean
seismo_window_is_empty (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), FALSE);
  return self->trace == NULL && self->load_cancellable == NULL && !_seismo_window_is_recording (self);
}

SeismoTrace *
seismo_window_get_trace (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->trace;
}

SeismoView *
seismo_window_get_view (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->view;
}

SeismoTimeline *
seismo_window_get_timeline (SeismoWindow *self)
{
  g_return_val_if_fail (SEISMO_IS_WINDOW (self), NULL);
  return self->timeline;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

/*
 * Sharing from the window: the session saved beside the trace (FILE.seismo-session) and restored
 * when it is opened again, notes attached to times, the Export dialog, bundles (trace + session in
 * one .seismo file) and comparing the trace with another one.
 */

#include <glib/gi18n.h>

#include "seismo-compare-view.h"
#include "seismo-export-dialog.h"
#include "seismo-export.h"
#include "seismo-session-timeline.h"
#include "seismo-timeline-notes.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"
#include "seismo-window-share.h"
#include "seismo-session-view.h"

struct _SeismoWindowShare
{
  guint    restore_tick;    /* waits for the timeline's size before restoring the view */
  guint    restore_frames;
  guint64  view_start_ns;
  guint64  view_end_ns;
  gboolean session_loaded;  /* a session was restored: keep it up to date on close */
  GFile   *compare_file;    /* trace B while it loads */
  GCancellable *compare_cancellable;
};

static SeismoTimelineRenderer *
renderer_of (SeismoWindow *self)
{
  return seismo_timeline_get_renderer (self->timeline);
}

/* After changing the renderer behind the widget's back: adjustments and the frame follow. */
static void
timeline_changed (SeismoWindow *self)
{
  gtk_widget_queue_resize (GTK_WIDGET (self->timeline));
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

static void
update_share_actions (SeismoWindow *self)
{
  gboolean has_trace = self->trace != NULL && renderer_of (self) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-figure", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-bundle", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.add-note", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-notes", has_trace);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-with", has_trace);
}

/* Sessions */

/* The window's state as a session: the renderer's part, the filter and the pane shown. */
static SeismoSession *
capture_session (SeismoWindow *self)
{
  SeismoSession *session = seismo_session_new ();

  if (self->file != NULL)
    session->trace_name = g_file_get_basename (self->file);
  session->trace_events = seismo_trace_get_n_events (self->trace);
  /* Rows, notes and zoom from the renderer; filter, markers, range, selection, pane: the view. */
  seismo_session_update_from_renderer (session, renderer_of (self));
  seismo_session_update_from_view (session, self->view);
  return session;
}

/* Whether the view holds anything worth a file beside the trace. */
static gboolean
session_is_default (SeismoWindow        *self,
                    const SeismoSession *s)
{
  SeismoTimelineRenderer *r = renderer_of (self);

  return !s->has_marker[0] && !s->has_marker[1] && !s->has_range && s->filter == NULL
         && s->hidden_rows->len == 0 && s->pinned_rows->len == 0 && s->notes->len == 0
         && s->selected_event < 0
         && seismo_timeline_renderer_get_ns_per_px (r) >= seismo_timeline_renderer_get_fit_ns_per_px (r) * 0.999;
}

gboolean
_seismo_window_share_save_session (SeismoWindow *self,
                                   GError      **error)
{
  g_autoptr(SeismoSession) session = NULL;
  g_autofree char *trace_path = NULL;
  g_autofree char *path = NULL;

  if (self->trace == NULL || self->file == NULL || renderer_of (self) == NULL
      || (trace_path = g_file_get_path (self->file)) == NULL)
    return TRUE;
  session = capture_session (self);
  path = seismo_session_path_for_trace (trace_path);
  /* Untouched views leave no file behind, unless one is there to be brought up to date. */
  if (session_is_default (self, session) && !self->share->session_loaded
      && !g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  return seismo_session_save (session, path, error);
}

static gboolean
restore_view_tick (GtkWidget     *widget,
                   GdkFrameClock *clock,
                   gpointer       user_data)
{
  SeismoWindow *self = user_data;
  SeismoWindowShare *share = self->share;
  SeismoTimelineRenderer *r = renderer_of (self);

  /* Until the timeline has been given its size the renderer's width is a default one, and a
   * range set now would be stretched by the first allocation. */
  if (r == NULL || (gtk_widget_get_width (widget) <= 1 && ++share->restore_frames < 120))
    return G_SOURCE_CONTINUE;
  if (gtk_widget_get_width (widget) > 1 && share->restore_frames++ < 2)
    return G_SOURCE_CONTINUE;
  share->restore_tick = 0;
  seismo_timeline_renderer_zoom_to (r, share->view_start_ns, share->view_end_ns);
  timeline_changed (self);
  return G_SOURCE_REMOVE;
}

void
_seismo_window_share_trace_opened (SeismoWindow *self)
{
  SeismoWindowShare *share = self->share;
  g_autoptr(SeismoSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  update_share_actions (self);
  share->session_loaded = FALSE;
  if (self->trace == NULL || self->file == NULL || renderer_of (self) == NULL)
    return;
  path = g_file_get_path (self->file);
  session = seismo_session_find_for_trace (self->trace, path, &error);
  if (session == NULL)
    {
      if (error != NULL)
        {
          g_autofree char *text = g_strdup_printf (_("The saved view was not restored: %s"), error->message);

          _seismo_window_toast (self, text);
        }
      return;
    }
  share->session_loaded = TRUE;
  seismo_session_apply_to_renderer (session, renderer_of (self), FALSE);
  if (session->has_view && session->view_end_ns > session->view_start_ns)
    {
      share->view_start_ns = session->view_start_ns;
      share->view_end_ns = session->view_end_ns;
      share->restore_frames = 0;
      if (share->restore_tick != 0)
        gtk_widget_remove_tick_callback (GTK_WIDGET (self->timeline), share->restore_tick);
      share->restore_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->timeline), restore_view_tick,
                                                          self, NULL);
    }
  seismo_session_apply_to_view (session, self->view);
  timeline_changed (self);
}

/* Notes */

static guint64
note_time (SeismoWindow *self)
{
  SeismoTimelineRenderer *r = renderer_of (self);
  guint64 t;
  guint event = seismo_timeline_get_selected_event (self->timeline);

  /* Where the teacher pointed: marker A, else the selected event, else the middle of the view. */
  if (seismo_timeline_renderer_get_marker (r, 0, &t))
    return t;
  if (event != SEISMO_NO_EVENT && event < seismo_trace_get_n_events (self->trace))
    return seismo_trace_get_times (self->trace)[event];
  return (guint64) MAX (0.0, seismo_timeline_renderer_x_to_ns (r, SEISMO_TIMELINE_LABEL_WIDTH
                                                               + seismo_timeline_renderer_get_area_width (r) / 2.0));
}

void
_seismo_window_share_add_note (SeismoWindow *self,
                               guint64       time_ns,
                               const char   *text)
{
  g_autoptr(GArray) notes = g_array_new (FALSE, FALSE, sizeof (SeismoViewNote));
  const SeismoViewNote *old;
  guint n;

  g_return_if_fail (renderer_of (self) != NULL);
  /* Notes are the view's; the timeline draws them from there. */
  old = seismo_view_get_notes (self->view, &n);
  g_array_append_vals (notes, old, n);
  g_array_append_val (notes, ((SeismoViewNote) { time_ns, (char *) text }));
  seismo_view_set_notes (self->view, (SeismoViewNote *) notes->data, notes->len);
  timeline_changed (self);
}

static void
on_note_response (AdwMessageDialog *dialog,
                  const char       *response,
                  SeismoWindow     *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  guint64 t = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (dialog), "time"));
  const char *text = gtk_editable_get_text (entry);

  if (g_strcmp0 (response, "add") == 0 && *text != '\0' && self->trace != NULL)
    _seismo_window_share_add_note (self, t, text);
}

static void
action_add_note (GtkWidget  *widget,
                 const char *name,
                 GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  GtkWidget *dialog, *entry;
  guint64 t;
  g_autofree char *at = NULL;
  g_autofree char *body = NULL;

  if (self->trace == NULL || renderer_of (self) == NULL)
    return;
  t = note_time (self);
  at = seismo_format_time ((double) t - (double) seismo_trace_get_start_ns (self->trace), 1000);
  /* TRANSLATORS: %s is a time like "+1.234567 s" */
  body = g_strdup_printf (_("At %s (marker A, else the selected event, else the middle of the view). "
                            "Notes are drawn on the timeline and in exports, and saved with the view."), at);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Add a Note"), body);
  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("What to look at here"));
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "add", _("_Add"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "add", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "add");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_object_set_data (G_OBJECT (dialog), "time", GSIZE_TO_POINTER ((gsize) t));
  g_signal_connect (dialog, "response", G_CALLBACK (on_note_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

static void
action_clear_notes (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  if (renderer_of (self) == NULL)
    return;
  seismo_view_set_notes (self->view, NULL, 0);
  timeline_changed (self);
}

/* Export */

static void
action_export_figure (GtkWidget  *widget,
                      const char *name,
                      GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  if (self->trace == NULL || renderer_of (self) == NULL)
    return;
  gtk_window_present (GTK_WINDOW (seismo_export_dialog_new (self)));
}

gboolean
_seismo_window_share_export_bundle (SeismoWindow *self,
                                    const char   *path,
                                    GError      **error)
{
  g_autoptr(SeismoSession) session = NULL;
  g_autofree char *json = NULL;

  g_return_val_if_fail (self->trace != NULL, FALSE);
  session = capture_session (self);
  json = seismo_session_to_line (session);
  /* On this thread: the trace's metadata changes for the duration of the save. */
  return seismo_export_bundle (self->trace, SEISMO_SESSION_METADATA_KEY, json, path, error);
}

static void
on_bundle_response (GtkNativeDialog *chooser,
                    int              response,
                    SeismoWindow    *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL || self->trace == NULL)
    return;
  if ((path = g_file_get_path (file)) == NULL)
    {
      _seismo_window_toast (self, _("Only files on this computer can be written"));
      return;
    }
  if (!g_str_has_suffix (path, ".seismo"))
    {
      char *fixed = g_strconcat (path, ".seismo", NULL);

      g_free (path);
      path = fixed;
    }
  if (!_seismo_window_share_export_bundle (self, path, &error))
    _seismo_window_show_error (self, _("Could not export the bundle"), error->message);
  else
    _seismo_window_toast (self, _("Bundle exported: opening it shows this trace with this view"));
}

static void
action_export_bundle (GtkWidget  *widget,
                      const char *name,
                      GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *suggested = NULL;

  if (self->trace == NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Export Bundle"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      suggested = g_strdup_printf ("%s-bundle.seismo", base);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested != NULL ? suggested : "bundle.seismo");
  g_signal_connect (chooser, "response", G_CALLBACK (on_bundle_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Compare */

static void
compare_loaded (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  SeismoWindow *self = SEISMO_WINDOW (source);
  g_autoptr(GFile) file = user_data;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name_a = NULL;
  g_autofree char *name_b = NULL;

  g_clear_object (&self->share->compare_cancellable);
  if (!_seismo_window_load_finish (self, result, &trace, &data, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _seismo_window_show_error (self, _("Could not open the trace to compare"), error->message);
      return;
    }
  if (self->trace == NULL || self->data == NULL)
    return;
  name_a = self->file != NULL ? g_file_get_basename (self->file) : g_strdup (_("This recording"));
  name_b = g_file_get_basename (file);
  _seismo_window_share_show_compare (self, self->trace, self->data, name_a, trace, data, name_b);
}

GtkWindow *
_seismo_window_share_show_compare (SeismoWindow       *self,
                                   SeismoTrace        *trace_a,
                                   SeismoTimelineData *data_a,
                                   const char         *name_a,
                                   SeismoTrace        *trace_b,
                                   SeismoTimelineData *data_b,
                                   const char         *name_b)
{
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *view = seismo_compare_view_new (trace_a, data_a, name_a, trace_b, data_b, name_b);
  g_autofree char *title = g_strdup_printf (_("%s vs %s"), name_a, name_b);

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 950);
  gtk_box_append (GTK_BOX (box), header);
  gtk_widget_set_vexpand (view, TRUE);
  gtk_box_append (GTK_BOX (box), view);
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}

static void
on_compare_response (GtkNativeDialog *chooser,
                     int              response,
                     SeismoWindow    *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL)
    return;
  if ((path = g_file_get_path (file)) == NULL)
    {
      _seismo_window_toast (self, _("Only files on this computer can be opened"));
      return;
    }
  if (self->share->compare_cancellable != NULL)
    g_cancellable_cancel (self->share->compare_cancellable);
  g_clear_object (&self->share->compare_cancellable);
  self->share->compare_cancellable = g_cancellable_new ();
  _seismo_window_toast (self, _("Opening the trace to compare…"));
  _seismo_window_load (self, path, self->share->compare_cancellable, NULL, compare_loaded,
                       g_steal_pointer (&file));
}

static void
action_compare_with (GtkWidget  *widget,
                     const char *name,
                     GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  GtkFileChooserNative *chooser;

  if (self->trace == NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Compare"), _("_Cancel"));
  g_signal_connect (chooser, "response", G_CALLBACK (on_compare_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Window hooks */

void
_seismo_window_class_init_share (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-figure", NULL, action_export_figure);
  gtk_widget_class_install_action (widget_class, "win.export-bundle", NULL, action_export_bundle);
  gtk_widget_class_install_action (widget_class, "win.add-note", NULL, action_add_note);
  gtk_widget_class_install_action (widget_class, "win.clear-notes", NULL, action_clear_notes);
  gtk_widget_class_install_action (widget_class, "win.compare-with", NULL, action_compare_with);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.export-figure", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.add-note", NULL);
}

void
_seismo_window_init_share (SeismoWindow *self)
{
  self->share = g_new0 (SeismoWindowShare, 1);
  g_signal_connect_swapped (self->stack, "notify::visible-child-name", G_CALLBACK (update_share_actions), self);
  update_share_actions (self);
}

void
_seismo_window_share_close (SeismoWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->share == NULL)
    return;
  /* A folder the user cannot write (the installed samples) is no reason to keep the window. */
  if (!_seismo_window_share_save_session (self, &error))
    g_debug ("view not saved: %s", error->message);
}

void
_seismo_window_share_trace_saved (SeismoWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->share == NULL)
    return;
  if (!_seismo_window_share_save_session (self, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The view was not saved: %s"), error->message);

      _seismo_window_toast (self, text);
    }
}

void
_seismo_window_dispose_share (SeismoWindow *self)
{
  SeismoWindowShare *share = self->share;

  if (share == NULL)
    return;
  if (share->restore_tick != 0 && self->timeline != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->timeline), share->restore_tick);
  share->restore_tick = 0;
  if (share->compare_cancellable != NULL)
    g_cancellable_cancel (share->compare_cancellable);
  g_clear_object (&share->compare_cancellable);
  g_clear_pointer (&self->share, g_free);
}

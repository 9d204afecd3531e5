/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

/*
 * What a reader could not turn into events (seismo-skipped.h), said when a trace opens: a toast
 * with the total, and its "Details" button lists each kind, its count and the first of them, so
 * a half-read file never looks complete.
 */

#include <glib/gi18n.h>

#include "seismo-skipped.h"
#include "seismo-window-private.h"

/* The dialog's text: one paragraph per kind, largest first. Caller frees. */
char *
_seismo_window_describe_skipped (SeismoTrace *trace)
{
  g_autoptr(GArray) skipped = seismo_trace_get_skipped (trace);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < skipped->len; i++)
    {
      const SeismoSkipped *k = &g_array_index (skipped, SeismoSkipped, i);

      if (i > 0)
        g_string_append (out, "\n\n");
      g_string_append_printf (out, "%" G_GUINT64_FORMAT " %s", k->count, k->kind);
      if (k->example != NULL)
        g_string_append_printf (out, _("\nThe first: %s"), k->example);
    }
  return g_string_free (out, FALSE);
}

static void
action_skipped_details (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (self->trace == NULL || seismo_trace_get_n_skipped (self->trace) == 0)
    return;
  body = _seismo_window_describe_skipped (self->trace);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("What could not be read"), body);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_seismo_window_skipped_toast (SeismoWindow *self,
                              SeismoTrace  *trace)
{
  g_autofree char *summary = seismo_trace_describe_skipped (trace);
  AdwToast *toast;
  GtkWidget *label;

  if (summary == NULL)
    return;
  toast = adw_toast_new (summary);
  /* Wrapped: the counts are the point, an ellipsis would cut them. */
  label = gtk_label_new (summary);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  adw_toast_set_custom_title (toast, label);
  adw_toast_set_button_label (toast, _("_Details"));
  adw_toast_set_action_name (toast, "win.skipped-details");
  adw_toast_set_timeout (toast, 15);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
_seismo_window_class_init_skipped (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.skipped-details", NULL,
                                   action_skipped_details);
}

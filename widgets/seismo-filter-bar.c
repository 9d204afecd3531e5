/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>

#include "seismo-filter-bar.h"

/* Typing pauses this long before the text is applied. */
#define TYPE_DELAY_MS  150
#define HISTORY_MAX    50
#define MAX_SHOWN      12
#define CHECK_DELAY_MS 400

struct _SeismoFilterBar
{
  GtkWidget     parent_instance;

  /* template widgets */
  GtkWidget    *box;
  GtkMenuButton *history_button;
  GtkEntry     *entry;
  GtkDropDown  *mode_dropdown;
  GtkWidget    *apply_button;
  GtkProgressBar *progress;
  GtkLabel     *status_label;
  GtkLabel     *error_label;

  /* owned */
  SeismoView   *view;          /* the filter text, its evaluation and result live here */
  GPtrArray    *history;       /* char *, newest first, NULL-terminated */
  GtkWidget    *popover;       /* completion */
  GtkListBox   *candidates;
  GPtrArray    *candidate_data; /* SeismoFilterCandidate */
  gsize         replace_start;
  gsize         replace_end;

  guint         check_source;
  guint         type_source;   /* filter as you type */
  guint         complete_source;
  int           history_pos;   /* -1: not browsing */
  gboolean      setting_text;
  gboolean      history_saving;  /* a write of the history file is under way */
  gboolean      history_dirty;   /* the history changed since that write began */
  gboolean      history_menu_stale;  /* the history changed since its menu was made */
};

enum {
  PROP_0,
  PROP_DIM,
  PROP_BUSY,
  N_PROPS
};

enum {
  APPLIED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SeismoFilterBar, seismo_filter_bar, GTK_TYPE_WIDGET)

static SeismoTrace *
bar_trace (SeismoFilterBar *self)
{
  return self->view != NULL ? seismo_view_get_trace (self->view) : NULL;
}

/* History */

static char *
history_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "seismo", "filter-history", NULL);
}

static void
load_history (SeismoFilterBar *self)
{
  g_autofree char *path = history_path ();
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_ptr_array_set_size (self->history, 0);
  if (g_file_get_contents (path, &contents, NULL, NULL))
    {
      lines = g_strsplit (contents, "\n", -1);
      for (guint i = 0; lines[i] != NULL && self->history->len < HISTORY_MAX; i++)
        if (lines[i][0] != '\0')
          g_ptr_array_add (self->history, g_strdup (lines[i]));
    }
  g_ptr_array_add (self->history, NULL);
}

static void
build_history_menu (SeismoFilterBar *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();

  for (guint i = 0; i + 1 < self->history->len && i < 20; i++)
    {
      const char *text = g_ptr_array_index (self->history, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (NULL, NULL);
      g_autofree char *label = g_strdup (text);

      /* A menu label treats "_" as a mnemonic; filters are shown as typed. */
      g_strdelimit (label, "_", ' ');
      g_menu_item_set_label (item, label);
      g_menu_item_set_action_and_target_value (item, "filter-bar.use-history",
                                               g_variant_new_string (text));
      g_menu_append_item (menu, item);
    }
  gtk_menu_button_set_menu_model (self->history_button, G_MENU_MODEL (menu));
  self->history_menu_stale = FALSE;
}

/* The menu is made when it opens: a new menu model makes the button a new popover with a
 * widget per entry, some milliseconds of every filter applied. */
static void
on_history_popup (GtkMenuButton *button,
                  gpointer       user_data)
{
  SeismoFilterBar *self = user_data;

  if (self->history_menu_stale)
    build_history_menu (self);
}

static void
rebuild_history_menu (SeismoFilterBar *self)
{
  self->history_menu_stale = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->history_button), self->history->len > 1);
}

static void save_history (SeismoFilterBar *self);

/* The bar, and the application kept running until the file is written (quitting right after a
 * filter still saves it). */
typedef struct {
  SeismoFilterBar *bar;
  GApplication    *app;
} HistorySave;

static void
history_saved (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  HistorySave *save = user_data;
  g_autoptr(SeismoFilterBar) self = save->bar;
  g_autoptr(GError) error = NULL;

  /* Losing the history is no reason to bother the user beyond a warning in the log. */
  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    g_warning ("could not save the filter history to %s: %s", g_file_peek_path (G_FILE (source)),
               error->message);
  self->history_saving = FALSE;
  if (self->history_dirty)
    save_history (self);
  if (save->app != NULL)
    {
      g_application_release (save->app);
      g_object_unref (save->app);
    }
  g_free (save);
}

/* Written by GIO's worker, not here: a safe write syncs the file to disk, which on a slow disk
 * would freeze the window on every filter applied. One write at a time, so the last one wins. */
static void
save_history (SeismoFilterBar *self)
{
  g_autofree char *path = history_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GString) contents = g_string_new (NULL);
  g_autoptr(GBytes) bytes = NULL;
  HistorySave *save;

  if (self->history_saving)
    {
      self->history_dirty = TRUE;
      return;
    }
  self->history_dirty = FALSE;
  for (guint i = 0; i + 1 < self->history->len; i++)
    g_string_append_printf (contents, "%s\n", (char *) g_ptr_array_index (self->history, i));
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_warning ("could not save the filter history to %s: %s", path, g_strerror (errno));
      return;
    }
  self->history_saving = TRUE;
  save = g_new0 (HistorySave, 1);
  save->bar = g_object_ref (self);
  if ((save->app = g_application_get_default ()) != NULL)
    g_application_hold (g_object_ref (save->app));
  bytes = g_string_free_to_bytes (g_steal_pointer (&contents));
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       NULL, history_saved, save);
}

static void
remember (SeismoFilterBar *self,
          const char      *text)
{
  if (text[0] == '\0' || strchr (text, '\n') != NULL)
    return;
  g_ptr_array_remove_index (self->history, self->history->len - 1);
  for (guint i = 0; i < self->history->len; i++)
    if (g_str_equal (g_ptr_array_index (self->history, i), text))
      {
        g_free (g_ptr_array_steal_index (self->history, i));
        break;
      }
  g_ptr_array_insert (self->history, 0, g_strdup (text));
  while (self->history->len > HISTORY_MAX)
    g_free (g_ptr_array_steal_index (self->history, self->history->len - 1));
  g_ptr_array_add (self->history, NULL);
  rebuild_history_menu (self);
  save_history (self);
}

/* Highlighting and errors */

static gboolean
is_dark (SeismoFilterBar *self)
{
  GdkRGBA fg;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self->entry)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return fg.red + fg.green + fg.blue > 1.5;
}

static PangoAttribute *
color_attr (guint32 rgb,
            guint   start,
            guint   end)
{
  PangoAttribute *attr = pango_attr_foreground_new (((rgb >> 16) & 0xff) * 257,
                                                    ((rgb >> 8) & 0xff) * 257,
                                                    (rgb & 0xff) * 257);

  attr->start_index = start;
  attr->end_index = end;
  return attr;
}

/* Token colors from the GNOME palette, a light and a dark variant each. */
static guint32
token_color (SeismoFilterTokenKind kind,
             gboolean              dark)
{
  static const guint32 colors[][2] = {
    [SEISMO_FILTER_TOKEN_FIELD]   = { 0x1a5fb4, 0x99c1f1 },
    [SEISMO_FILTER_TOKEN_COMPARE] = { 0x9c6e03, 0xf8e45c },
    [SEISMO_FILTER_TOKEN_LOGIC]   = { 0x813d9c, 0xdc8add },
    [SEISMO_FILTER_TOKEN_PAREN]   = { 0x5e5c64, 0xc0bfbc },
    [SEISMO_FILTER_TOKEN_NUMBER]  = { 0xc64600, 0xffa348 },
    [SEISMO_FILTER_TOKEN_STRING]  = { 0x26a269, 0x8ff0a4 },
    [SEISMO_FILTER_TOKEN_WORD]    = { 0x26a269, 0x8ff0a4 },
    [SEISMO_FILTER_TOKEN_EVENT]   = { 0x0f7b8a, 0x62d0e0 },
    [SEISMO_FILTER_TOKEN_ERROR]   = { 0xc01c28, 0xff7b63 },
  };

  return colors[kind][dark ? 1 : 0];
}

/* Colors the tokens, and underlines the error range [err_start, err_end) when err_start is set. */
static void
highlight (SeismoFilterBar *self,
           gssize           err_start,
           gsize            err_end)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autoptr(GArray) tokens = seismo_filter_tokenize (text);
  PangoAttrList *attrs = pango_attr_list_new ();
  gboolean dark = is_dark (self);

  for (guint i = 0; i < tokens->len; i++)
    {
      const SeismoFilterToken *t = &g_array_index (tokens, SeismoFilterToken, i);

      pango_attr_list_insert (attrs, color_attr (token_color (t->kind, dark), t->start, t->end));
      if (t->kind == SEISMO_FILTER_TOKEN_FIELD || t->kind == SEISMO_FILTER_TOKEN_EVENT)
        {
          PangoAttribute *bold = pango_attr_weight_new (PANGO_WEIGHT_SEMIBOLD);

          bold->start_index = t->start;
          bold->end_index = t->end;
          pango_attr_list_insert (attrs, bold);
        }
    }
  if (err_start >= 0)
    {
      gsize len = strlen (text);
      guint start = (guint) MIN ((gsize) err_start, len);
      /* An empty range marks a place: underline the character before it (or a space after). */
      guint end = (guint) MIN (MAX (err_end, (gsize) start + 1), len);
      PangoAttribute *under = pango_attr_underline_new (PANGO_UNDERLINE_ERROR);
      PangoAttribute *color = pango_attr_underline_color_new (0xe000, 0x1b00, 0x2400);

      if (start == end && start > 0)
        start--;
      under->start_index = color->start_index = start;
      under->end_index = color->end_index = end;
      pango_attr_list_insert (attrs, under);
      pango_attr_list_insert (attrs, color);
    }
  gtk_entry_set_attributes (self->entry, attrs);
  pango_attr_list_unref (attrs);
}

/* The x, in the bar's coordinates, of byte offset column of the entry's text. */
static double
column_x (SeismoFilterBar *self,
          gsize            column)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->entry), NULL);
  int width = 0;
  double x = 0, y = 0;

  pango_layout_set_text (layout, text, (int) MIN (column, strlen (text)));
  pango_layout_get_pixel_size (layout, &width, NULL);
  g_object_unref (layout);
  /* The text starts after the entry's padding and its primary icon. */
  gtk_widget_translate_coordinates (GTK_WIDGET (self->entry), GTK_WIDGET (self), 0, 0, &x, &y);
  return x + 34 + width;
}

static void
show_error (SeismoFilterBar *self,
            const GError    *error)
{
  gsize start = 0, end = 0;

  if (error == NULL)
    {
      highlight (self, -1, 0);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
      gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
      return;
    }
  seismo_filter_error_get_range (error, &start, &end);
  highlight (self, (gssize) start, end);
  {
    g_autofree char *message = g_strdup_printf ("↑ %s", error->message);

    gtk_label_set_text (self->error_label, message);
  }
  gtk_widget_set_margin_start (GTK_WIDGET (self->error_label),
                               (int) MAX (0, column_x (self, start) - 4));
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
}

/* Compiles the text to mark errors; returns the filter or NULL. */
static SeismoFilter *
check (SeismoFilterBar *self,
       gboolean         show)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autoptr(GError) error = NULL;
  SeismoFilter *filter;

  if (bar_trace (self) == NULL)
    return NULL;
  filter = seismo_filter_compile (bar_trace (self), text, &error);
  if (show)
    show_error (self, error);
  return filter;
}

static gboolean
check_timeout (gpointer data)
{
  SeismoFilterBar *self = data;
  g_autoptr(SeismoFilter) filter = NULL;

  self->check_source = 0;
  filter = check (self, TRUE);
  return G_SOURCE_REMOVE;
}

/* Status, from the view */

static void
update_status (SeismoFilterBar *self)
{
  g_autofree char *text = NULL;
  SeismoTrace *trace = self->view != NULL ? bar_trace (self) : NULL;
  gsize total = trace != NULL ? seismo_trace_get_n_events (trace) : 0;
  const char *applied = self->view != NULL ? seismo_view_get_applied (self->view) : "";

  if (trace == NULL)
    text = g_strdup ("");
  else if (seismo_view_get_filter_busy (self->view))
    text = g_strdup (_("Filtering…"));
  else if (seismo_view_get_mask (self->view) == NULL)
    text = g_strdup (_("No filter"));
  else
    /* TRANSLATORS: "1,234 of 10,000 events" */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'zu of %'zu event", "%'zu of %'zu events",
                                         total),
                            seismo_view_get_n_matched (self->view), total);
  gtk_label_set_text (self->status_label, text);
  /* Setting a tooltip asks the X server where the pointer is, with round trips the filter's
   * frames would wait for: only when it changed. */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->status_label)), applied[0] ? applied : NULL) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), applied[0] ? applied : NULL);
}

static void
on_view_busy (SeismoFilterBar *self)
{
  gboolean busy = seismo_view_get_filter_busy (self->view);

  gtk_widget_set_visible (GTK_WIDGET (self->progress), busy);
  gtk_progress_bar_set_fraction (self->progress, seismo_view_get_filter_progress (self->view));
  update_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
on_view_progress (SeismoFilterBar *self)
{
  gtk_progress_bar_set_fraction (self->progress, seismo_view_get_filter_progress (self->view));
}

static void
on_view_result (SeismoFilterBar *self)
{
  update_status (self);
  g_signal_emit (self, signals[APPLIED], 0);
}

/* The text set elsewhere (a session, a lesson, a quick filter) shows in the entry. */
static void
on_view_filter_text (SeismoFilterBar *self)
{
  const char *text = seismo_view_get_filter_text (self->view);
  g_autofree char *shown = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry))));

  if (g_str_equal (shown, text))
    return;
  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
  self->setting_text = FALSE;
}

static void
on_view_dim (SeismoFilterBar *self)
{
  gtk_drop_down_set_selected (self->mode_dropdown, seismo_view_get_dim (self->view) ? 1 : 0);
}

static void
cancel_run (SeismoFilterBar *self)
{
  g_clear_handle_id (&self->type_source, g_source_remove);
  if (self->view != NULL)
    seismo_view_cancel_filter (self->view);
}

/* Hands the entry's text to the view; shows the error when it is refused. */
static gboolean
apply_text (SeismoFilterBar *self,
            const char      *text,
            gboolean         show)
{
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&self->type_source, g_source_remove);
  if (bar_trace (self) == NULL)
    return FALSE;
  if (!seismo_view_set_filter_text (self->view, text, &error))
    {
      if (show)
        show_error (self, error);
      return FALSE;
    }
  show_error (self, NULL);
  return TRUE;
}

static gboolean
type_timeout (gpointer data)
{
  SeismoFilterBar *self = data;
  g_autofree char *stripped = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry))));

  self->type_source = 0;
  /* While typing an incomplete expression stays unapplied; its error shows after a pause. */
  apply_text (self, stripped, FALSE);
  return G_SOURCE_REMOVE;
}

/* Completion */

static void
hide_completion (SeismoFilterBar *self)
{
  g_clear_handle_id (&self->complete_source, g_source_remove);
  if (self->popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (self->popover));
}

static gboolean
completion_visible (SeismoFilterBar *self)
{
  return self->popover != NULL && gtk_widget_get_visible (self->popover);
}

static void
accept_candidate (SeismoFilterBar *self,
                  guint            index)
{
  const SeismoFilterCandidate *c;
  GtkEditable *editable = GTK_EDITABLE (self->entry);
  const char *text = gtk_editable_get_text (editable);
  g_autoptr(GString) out = NULL;
  int pos;

  if (self->candidate_data == NULL || index >= self->candidate_data->len)
    return;
  c = g_ptr_array_index (self->candidate_data, index);
  out = g_string_new_len (text, (gssize) self->replace_start);
  g_string_append (out, c->text);
  /* A space after the word, so the next one can be typed right away. */
  if (text[self->replace_end] != ' ')
    g_string_append_c (out, ' ');
  pos = (int) g_utf8_strlen (out->str, -1);
  g_string_append (out, text + self->replace_end);
  self->setting_text = TRUE;
  gtk_editable_set_text (editable, out->str);
  gtk_editable_set_position (editable, pos);
  self->setting_text = FALSE;
  hide_completion (self);
}

static void
on_candidate_activated (SeismoFilterBar *self,
                        GtkListBoxRow   *row,
                        GtkListBox      *box)
{
  accept_candidate (self, (guint) gtk_list_box_row_get_index (row));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

static void
ensure_popover (SeismoFilterBar *self)
{
  GtkWidget *scroller;

  if (self->popover != NULL)
    return;
  self->popover = gtk_popover_new ();
  gtk_popover_set_autohide (GTK_POPOVER (self->popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->popover), GTK_POS_BOTTOM);
  gtk_widget_add_css_class (self->popover, "menu");
  self->candidates = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->candidates, GTK_SELECTION_BROWSE);
  g_signal_connect_swapped (self->candidates, "row-activated", G_CALLBACK (on_candidate_activated), self);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 320);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->candidates));
  gtk_popover_set_child (GTK_POPOVER (self->popover), scroller);
  gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
}

static GtkWidget *
candidate_row (const SeismoFilterCandidate *c)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (c->text);
  GtkWidget *detail = gtk_label_new (c->detail != NULL ? c->detail : "");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_label_set_xalign (GTK_LABEL (detail), 1);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (detail), 36);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), detail);
  return box;
}

/* Shows what may come at the cursor. forced: also where nothing has been typed yet. */
static void
update_completion (SeismoFilterBar *self,
                   gboolean         forced)
{
  GtkEditable *editable = GTK_EDITABLE (self->entry);
  const char *text = gtk_editable_get_text (editable);
  int pos = gtk_editable_get_position (editable);
  gsize cursor = (gsize) (g_utf8_offset_to_pointer (text, pos) - text);
  GtkWidget *child;
  GdkRectangle rect;

  if (bar_trace (self) == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self->entry)))
    return;
  g_clear_pointer (&self->candidate_data, g_ptr_array_unref);
  self->candidate_data = seismo_filter_complete (bar_trace (self), text, cursor,
                                                 &self->replace_start, &self->replace_end);
  /* Nothing typed at the cursor: only an explicit request (Ctrl+Space) lists everything. */
  if (self->candidate_data->len == 0
      || (!forced && self->replace_end == self->replace_start)
      || (self->candidate_data->len == 1
          && strlen (((SeismoFilterCandidate *) self->candidate_data->pdata[0])->text)
             == self->replace_end - self->replace_start
          && strncmp (((SeismoFilterCandidate *) self->candidate_data->pdata[0])->text,
                      text + self->replace_start, self->replace_end - self->replace_start) == 0))
    {
      hide_completion (self);
      return;
    }
  ensure_popover (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->candidates))) != NULL)
    gtk_list_box_remove (self->candidates, child);
  for (guint i = 0; i < self->candidate_data->len && i < 200; i++)
    gtk_list_box_append (self->candidates, candidate_row (g_ptr_array_index (self->candidate_data, i)));
  gtk_list_box_select_row (self->candidates, gtk_list_box_get_row_at_index (self->candidates, 0));
  rect.x = (int) column_x (self, self->replace_start);
  {
    double x = 0, y = 0;

    gtk_widget_translate_coordinates (GTK_WIDGET (self->entry), GTK_WIDGET (self), 0, 0, &x, &y);
    rect.y = (int) y;
    rect.height = gtk_widget_get_height (GTK_WIDGET (self->entry));
  }
  rect.width = 1;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &rect);
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

static void
move_completion (SeismoFilterBar *self,
                 int              delta)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->candidates);
  int index = row != NULL ? gtk_list_box_row_get_index (row) + delta : 0;
  int n = (int) MIN (self->candidate_data->len, 200);

  index = CLAMP (index, 0, n - 1);
  row = gtk_list_box_get_row_at_index (self->candidates, index);
  gtk_list_box_select_row (self->candidates, row);
}

static void
browse_history (SeismoFilterBar *self,
                int              delta)
{
  int n = (int) self->history->len - 1;
  int pos = self->history_pos + delta;

  if (n == 0 || pos < -1 || pos >= n)
    return;
  self->history_pos = pos;
  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry),
                         pos < 0 ? "" : g_ptr_array_index (self->history, pos));
  gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
  self->setting_text = FALSE;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                SeismoFilterBar       *self)
{
  gboolean popup = completion_visible (self);

  switch (keyval)
    {
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      if (popup)
        move_completion (self, 1);
      else
        browse_history (self, -1);
      return TRUE;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (popup)
        move_completion (self, -1);
      else
        browse_history (self, 1);
      return TRUE;
    case GDK_KEY_Tab:
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (popup)
        {
          GtkListBoxRow *row = gtk_list_box_get_selected_row (self->candidates);

          accept_candidate (self, row != NULL ? (guint) gtk_list_box_row_get_index (row) : 0);
          return TRUE;
        }
      return FALSE;
    case GDK_KEY_Escape:
      if (popup)
        {
          hide_completion (self);
          return TRUE;
        }
      if (seismo_view_get_filter_busy (self->view))
        {
          cancel_run (self);
          return TRUE;
        }
      return FALSE;
    case GDK_KEY_space:
      if (state & GDK_CONTROL_MASK)
        {
          update_completion (self, TRUE);
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
complete_idle (gpointer data)
{
  SeismoFilterBar *self = data;

  self->complete_source = 0;
  update_completion (self, FALSE);
  return G_SOURCE_REMOVE;
}

/* Signals of the template */

static void
on_entry_changed (SeismoFilterBar *self)
{
  /* While typing, colors follow at once; the error message waits for a pause. */
  highlight (self, -1, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
  g_clear_handle_id (&self->check_source, g_source_remove);
  if (bar_trace (self) != NULL)
    self->check_source = g_timeout_add (CHECK_DELAY_MS, check_timeout, self);
  if (!self->setting_text)
    {
      /* Evaluation runs on a worker and a newer text cancels it: apply while typing. */
      g_clear_handle_id (&self->type_source, g_source_remove);
      if (bar_trace (self) != NULL)
        self->type_source = g_timeout_add (TYPE_DELAY_MS, type_timeout, self);
      self->history_pos = -1;
      /* The cursor moves after "changed": complete once it has. */
      if (self->complete_source == 0)
        self->complete_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, complete_idle, self, NULL);
    }
}

static void
on_entry_activate (SeismoFilterBar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  hide_completion (self);
  g_clear_handle_id (&self->check_source, g_source_remove);
  if (apply_text (self, stripped, TRUE))
    remember (self, stripped);
}

static void
on_entry_icon_press (SeismoFilterBar      *self,
                     GtkEntryIconPosition  position)
{
  if (position == GTK_ENTRY_ICON_SECONDARY)
    seismo_filter_bar_clear (self);
}

static void
on_mode_changed (SeismoFilterBar *self)
{
  if (self->view != NULL)
    seismo_view_set_dim (self->view, gtk_drop_down_get_selected (self->mode_dropdown) == 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIM]);
}

static void
action_use_history (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  seismo_filter_bar_apply (SEISMO_FILTER_BAR (widget), g_variant_get_string (param, NULL));
}

/* GObject */

static void
seismo_filter_bar_dispose (GObject *object)
{
  SeismoFilterBar *self = SEISMO_FILTER_BAR (object);

  g_clear_handle_id (&self->type_source, g_source_remove);
  g_clear_handle_id (&self->check_source, g_source_remove);
  g_clear_handle_id (&self->complete_source, g_source_remove);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_FILTER_BAR);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  seismo_filter_bar_set_view (self, NULL);
  g_clear_pointer (&self->candidate_data, g_ptr_array_unref);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  G_OBJECT_CLASS (seismo_filter_bar_parent_class)->dispose (object);
}

static void
seismo_filter_bar_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SeismoFilterBar *self = SEISMO_FILTER_BAR (object);

  switch (prop_id)
    {
    case PROP_DIM:
      g_value_set_boolean (value, seismo_filter_bar_get_dim (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, seismo_filter_bar_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_filter_bar_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SeismoFilterBar *self = SEISMO_FILTER_BAR (object);

  switch (prop_id)
    {
    case PROP_DIM:
      seismo_filter_bar_set_dim (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_filter_bar_class_init (SeismoFilterBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_filter_bar_dispose;
  object_class->get_property = seismo_filter_bar_get_property;
  object_class->set_property = seismo_filter_bar_set_property;

  properties[PROP_DIM] =
    g_param_spec_boolean ("dim", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SeismoFilterBar::applied:
   *
   * A new filter result is ready (or the filter was cleared): read it with
   * seismo_filter_bar_get_mask().
   */
  signals[APPLIED] = g_signal_new ("applied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/seismo/widgets/seismo-filter-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, box);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, history_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, entry);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, apply_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, progress);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, status_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoFilterBar, error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_icon_press);
  gtk_widget_class_bind_template_callback (widget_class, on_mode_changed);
  gtk_widget_class_install_action (widget_class, "filter-bar.use-history", "s", action_use_history);
  gtk_widget_class_set_css_name (widget_class, "seismofilterbar");
}

static void
seismo_filter_bar_init (SeismoFilterBar *self)
{
  GtkEventController *keys;

  self->history_pos = -1;
  self->history = g_ptr_array_new_with_free_func (g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  load_history (self);
  gtk_menu_button_set_create_popup_func (self->history_button, on_history_popup, self, NULL);
  rebuild_history_menu (self);
  /* A view of its own until it is given one (a bar on its own still filters). */
  {
    g_autoptr(SeismoView) view = seismo_view_new ();

    seismo_filter_bar_set_view (self, view);
  }

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);
  update_status (self);
}

/* Public API */

GtkWidget *
seismo_filter_bar_new (void)
{
  return g_object_new (SEISMO_TYPE_FILTER_BAR, NULL);
}

void
seismo_filter_bar_set_view (SeismoFilterBar *self,
                            SeismoView      *view)
{
  static const SeismoViewHandler handlers[] = {
    { "notify::filter-busy", G_CALLBACK (on_view_busy) },
    { "notify::filter-progress", G_CALLBACK (on_view_progress) },
    { "notify::filter-text", G_CALLBACK (on_view_filter_text) },
    { "notify::dim", G_CALLBACK (on_view_dim) },
    { "result-changed", G_CALLBACK (on_view_result) },
  };

  g_return_if_fail (SEISMO_IS_FILTER_BAR (self));
  g_return_if_fail (view == NULL || SEISMO_IS_VIEW (view));

  if (view == self->view)
    return;
  g_clear_handle_id (&self->type_source, g_source_remove);
  seismo_view_connect (&self->view, view, self, handlers, G_N_ELEMENTS (handlers));
  if (view == NULL)
    return;
  on_view_dim (self);
  on_view_filter_text (self);
  on_view_busy (self);
}

SeismoView *
seismo_filter_bar_get_view (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), NULL);
  return self->view;
}

void
seismo_filter_bar_set_trace (SeismoFilterBar *self,
                             SeismoTrace     *trace)
{
  g_return_if_fail (SEISMO_IS_FILTER_BAR (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  if (trace == bar_trace (self))
    return;
  hide_completion (self);
  show_error (self, NULL);
  seismo_view_set_trace (self->view, trace);
  update_status (self);
}

gboolean
seismo_filter_bar_apply (SeismoFilterBar *self,
                         const char      *expression)
{
  g_autofree char *stripped = NULL;

  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), FALSE);
  g_return_val_if_fail (expression != NULL, FALSE);

  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), expression);
  gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
  self->setting_text = FALSE;
  hide_completion (self);
  g_clear_handle_id (&self->check_source, g_source_remove);
  stripped = g_strstrip (g_strdup (expression));
  if (!apply_text (self, stripped, TRUE))
    return FALSE;
  remember (self, expression);
  return TRUE;
}

void
seismo_filter_bar_apply_mask (SeismoFilterBar *self,
                              GBytes          *mask,
                              const char      *label)
{
  g_return_if_fail (SEISMO_IS_FILTER_BAR (self));
  g_return_if_fail (mask != NULL);
  g_return_if_fail (bar_trace (self) != NULL);

  g_clear_handle_id (&self->type_source, g_source_remove);
  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  self->setting_text = FALSE;
  show_error (self, NULL);
  gtk_entry_set_placeholder_text (self->entry, label);
  seismo_view_set_filter_mask (self->view, mask, label);
}

void
seismo_filter_bar_clear (SeismoFilterBar *self)
{
  g_return_if_fail (SEISMO_IS_FILTER_BAR (self));

  cancel_run (self);
  self->setting_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  self->setting_text = FALSE;
  hide_completion (self);
  show_error (self, NULL);
  gtk_entry_set_placeholder_text (self->entry,
                                  _("Filter events: comm == bash && duration > 10us, sched:*, errno == ENOENT (Ctrl+L)"));
  /* Nothing in force: a no-op in the view. */
  seismo_view_set_filter_text (self->view, "", NULL);
}

GBytes *
seismo_filter_bar_get_mask (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), NULL);
  return seismo_view_get_mask (self->view);
}

SeismoMatchSet *
seismo_filter_bar_get_matches (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), NULL);
  return seismo_view_get_matches (self->view);
}

gsize
seismo_filter_bar_get_n_matched (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), 0);
  return seismo_view_get_n_matched (self->view);
}

const char *
seismo_filter_bar_get_applied (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), "");
  return seismo_view_get_applied (self->view);
}

const char *
seismo_filter_bar_get_requested (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), "");
  return seismo_view_get_filter_text (self->view);
}

gboolean
seismo_filter_bar_get_dim (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), FALSE);
  return gtk_drop_down_get_selected (self->mode_dropdown) == 1;
}

void
seismo_filter_bar_set_dim (SeismoFilterBar *self,
                           gboolean         dim)
{
  g_return_if_fail (SEISMO_IS_FILTER_BAR (self));
  /* The dropdown's notify::selected notifies :dim. */
  gtk_drop_down_set_selected (self->mode_dropdown, dim ? 1 : 0);
}

gboolean
seismo_filter_bar_get_busy (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), FALSE);
  return self->view != NULL && seismo_view_get_filter_busy (self->view);
}

const char *const *
seismo_filter_bar_get_history (SeismoFilterBar *self)
{
  g_return_val_if_fail (SEISMO_IS_FILTER_BAR (self), NULL);
  return (const char *const *) self->history->pdata;
}

void
seismo_filter_bar_focus (SeismoFilterBar *self)
{
  g_return_if_fail (SEISMO_IS_FILTER_BAR (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

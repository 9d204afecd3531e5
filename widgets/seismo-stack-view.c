/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <glib/gi18n-lib.h>

#include "seismo-stack-view.h"

/* A stack deeper than this shows its innermost frames and says how many more there are: the
 * pane lists widgets, and a runaway recursion can be thousands of frames deep. */
#define MAX_SHOWN_FRAMES 256

struct _SeismoStackView
{
  GtkWidget      parent_instance;

  /* children */
  GtkWidget     *box;
  GtkWidget     *title;
  GtkWidget     *list;

  /* owned */
  SeismoTrace   *trace;
  SeismoStackId  stack;
};

G_DEFINE_FINAL_TYPE (SeismoStackView, seismo_stack_view, GTK_TYPE_WIDGET)

static GtkWidget *
caption (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  return label;
}

/* "file.c:42 · libc.so.6", or "libc.so.6+0x1234", or the address. */
static char *
frame_where (const SeismoFrame *frame)
{
  GString *s = g_string_new (NULL);

  if (frame->file != NULL)
    {
      g_autofree char *base = g_path_get_basename (frame->file);

      g_string_append (s, base);
      if (frame->line > 0)
        g_string_append_printf (s, ":%u", frame->line);
    }
  if (frame->module != NULL)
    g_string_append_printf (s, "%s%s", s->len > 0 ? " · " : "", frame->module);
  if (frame->function == NULL && frame->address != 0)
    g_string_append_printf (s, "%s0x%" G_GINT64_MODIFIER "x", s->len > 0 ? " · " : "", frame->address);
  return g_string_free (s, FALSE);
}

static GtkWidget *
frame_row (SeismoTrace   *trace,
           SeismoFrameId  id,
           guint          position)
{
  const SeismoFrame *frame = seismo_trace_get_frame (trace, id);
  g_autofree char *name = seismo_frame_display_name (frame);
  g_autofree char *where = frame_where (frame);
  g_autofree char *markup = NULL;
  gboolean kernel = frame->space == SEISMO_FRAME_KERNEL;
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *space = gtk_label_new (kernel ? "K" : "U");
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *filter = gtk_button_new_from_icon_name ("edit-find-symbolic");

  /* K / U in a column of its own: where the kernel ends and user code starts shows at a glance. */
  gtk_widget_add_css_class (space, "monospace");
  gtk_widget_add_css_class (space, kernel ? "accent" : "dim-label");
  gtk_widget_set_valign (space, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (space, kernel ? _("Kernel frame") : _("User frame"));
  gtk_box_append (GTK_BOX (row), space);

  markup = frame->inlined
           ? g_markup_printf_escaped ("<tt>%u</tt>  <b>%s</b> <i>%s</i>", position, name, _("(inlined)"))
           : g_markup_printf_escaped ("<tt>%u</tt>  <b>%s</b>", position, name);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_tooltip_text (label, name);
  gtk_box_append (GTK_BOX (text), label);
  if (where[0] != '\0')
    {
      GtkWidget *w = caption (where);

      gtk_widget_set_tooltip_text (w, frame->file != NULL ? frame->file : where);
      gtk_box_append (GTK_BOX (text), w);
    }
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (row), text);

  gtk_widget_add_css_class (filter, "flat");
  gtk_widget_set_valign (filter, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (filter, _("Only events whose stack contains this frame"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (filter), "win.filter-stack-frame");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (filter), "u", (guint32) id);
  gtk_box_append (GTK_BOX (row), filter);
  return row;
}

static void
seismo_stack_view_dispose (GObject *object)
{
  SeismoStackView *self = SEISMO_STACK_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (seismo_stack_view_parent_class)->dispose (object);
}

static void
seismo_stack_view_class_init (SeismoStackViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_stack_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismo-stack-view");
}

static void
seismo_stack_view_init (SeismoStackView *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_widget_add_css_class (self->title, "heading");
  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->list, "boxed-list");
  gtk_box_append (GTK_BOX (self->box), self->title);
  gtk_box_append (GTK_BOX (self->box), self->list);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
seismo_stack_view_new (void)
{
  return g_object_new (SEISMO_TYPE_STACK_VIEW, NULL);
}

void
seismo_stack_view_set_stack (SeismoStackView *self,
                             SeismoTrace     *trace,
                             SeismoStackId    stack)
{
  const SeismoFrameId *frames = NULL;
  guint n = 0, n_kernel = 0;
  g_autofree char *title = NULL;

  g_return_if_fail (SEISMO_IS_STACK_VIEW (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  if (trace == self->trace && stack == self->stack)
    return;
  g_set_object (&self->trace, trace);
  self->stack = trace != NULL ? stack : SEISMO_NO_STACK;
  for (GtkWidget *row; (row = gtk_widget_get_first_child (self->list)) != NULL;)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), row);
  if (self->stack != SEISMO_NO_STACK)
    n = seismo_trace_stack_frames (trace, self->stack, &frames);
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    n_kernel += seismo_trace_get_frame (trace, frames[i])->space == SEISMO_FRAME_KERNEL;
  if (n_kernel > 0)
    /* TRANSLATORS: "Call stack · 12 frames (4 kernel)" */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Call stack · %u frame (%u kernel)",
                                          "Call stack · %u frames (%u kernel)", n), n, n_kernel);
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Call stack · %u frame",
                                          "Call stack · %u frames", n), n);
  gtk_label_set_text (GTK_LABEL (self->title), title);
  for (guint i = 0; i < MIN (n, MAX_SHOWN_FRAMES); i++)
    gtk_list_box_append (GTK_LIST_BOX (self->list), frame_row (trace, frames[i], i));
  if (n > MAX_SHOWN_FRAMES)
    {
      g_autofree char *more = g_strdup_printf (_("… and %u outer frames"), n - MAX_SHOWN_FRAMES);

      gtk_list_box_append (GTK_LIST_BOX (self->list), caption (more));
    }
}

SeismoStackId
seismo_stack_view_get_stack (SeismoStackView *self)
{
  g_return_val_if_fail (SEISMO_IS_STACK_VIEW (self), SEISMO_NO_STACK);
  return self->stack;
}

GtkWidget *
seismo_stack_view_get_list (SeismoStackView *self)
{
  g_return_val_if_fail (SEISMO_IS_STACK_VIEW (self), NULL);
  return self->list;
}

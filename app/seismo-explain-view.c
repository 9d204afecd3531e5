/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-explain.h"
#include "seismo-explain-view.h"

struct _SeismoExplainView
{
  GtkWidget  parent_instance;

  /* borrowed: children */
  GtkWidget *scroller;
  GtkWidget *box;
  GtkWidget *placeholder;

  /* owned */
  GPtrArray   *titles;
  SeismoTrace *trace;
  guint        event;
  /* The event changed while the view was not shown: its widgets (and titles) are made when it
   * is, so that a selection does not build and measure a hidden page. */
  gboolean     stale;
};

G_DEFINE_FINAL_TYPE (SeismoExplainView, seismo_explain_view, GTK_TYPE_WIDGET)

static GtkWidget *
wrapped_label (const char *text,
               const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
explanation_widget (const SeismoExplanation *e)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = wrapped_label (e->title, "heading");

  gtk_widget_set_hexpand (title, TRUE);
  gtk_box_append (GTK_BOX (header), title);
  if (e->web_url != NULL)
    {
      /* TRANSLATORS: a link to a manual page, e.g. "openat(2) manual" */
      g_autofree char *label = g_strdup_printf (_("%s manual"), e->man_page);
      GtkWidget *link = gtk_link_button_new_with_label (e->web_url, label);

      gtk_widget_set_tooltip_text (link, e->web_url);
      gtk_widget_set_valign (link, GTK_ALIGN_START);
      gtk_box_append (GTK_BOX (header), link);
    }
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), wrapped_label (e->summary, NULL));
  if (e->description != NULL)
    gtk_box_append (GTK_BOX (box), wrapped_label (e->description, "dim-label"));
  if (e->n_items > 0)
    {
      GtkWidget *grid = gtk_grid_new ();

      gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
      gtk_grid_set_row_spacing (GTK_GRID (grid), 3);
      for (guint i = 0; i < e->n_items; i++)
        {
          const SeismoExplainItem *item = &e->items[i];
          GtkWidget *name = wrapped_label (item->name, "monospace");
          g_autofree char *text = NULL;

          gtk_label_set_wrap (GTK_LABEL (name), FALSE);
          gtk_label_set_yalign (GTK_LABEL (name), 0);
          if (item->type != NULL && item->description != NULL)
            text = g_strdup_printf ("%s — %s", item->type, item->description);
          else
            text = g_strdup (item->description != NULL ? item->description
                                                       : item->type != NULL ? item->type : "");
          gtk_grid_attach (GTK_GRID (grid), name, 0, i, 1, 1);
          gtk_grid_attach (GTK_GRID (grid), wrapped_label (text, "dim-label"), 1, i, 1, 1);
        }
      gtk_box_append (GTK_BOX (box), grid);
    }
  if (e->note != NULL)
    gtk_box_append (GTK_BOX (box), wrapped_label (e->note, "caption"));
  return box;
}

static void
clear (SeismoExplainView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_ptr_array_set_size (self->titles, 0);
}

static void
rebuild (SeismoExplainView *self)
{
  g_autoptr(GPtrArray) explanations = NULL;
  gboolean explained = self->trace != NULL && self->event < seismo_trace_get_n_events (self->trace);

  clear (self);
  self->stale = FALSE;
  if (explained)
    explanations = seismo_explain_trace_event (self->trace, self->event);
  for (guint i = 0; explanations != NULL && i < explanations->len; i++)
    {
      const SeismoExplanation *e = explanations->pdata[i];

      gtk_box_append (GTK_BOX (self->box), explanation_widget (e));
      g_ptr_array_add (self->titles, g_strdup (e->title));
    }
  if (explained && self->titles->len == 0)
    gtk_label_set_text (GTK_LABEL (self->placeholder), _("Nothing is known about this event."));
  else
    gtk_label_set_text (GTK_LABEL (self->placeholder),
                        _("Select an event to read what it means: the system call or tracepoint, "
                          "its arguments, its error, its state letters."));
  gtk_widget_set_visible (self->placeholder, self->titles->len == 0);
}

static void
seismo_explain_view_map (GtkWidget *widget)
{
  SeismoExplainView *self = SEISMO_EXPLAIN_VIEW (widget);

  if (self->stale)
    rebuild (self);
  GTK_WIDGET_CLASS (seismo_explain_view_parent_class)->map (widget);
}

static void
seismo_explain_view_dispose (GObject *object)
{
  SeismoExplainView *self = SEISMO_EXPLAIN_VIEW (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_pointer (&self->titles, g_ptr_array_unref);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (seismo_explain_view_parent_class)->dispose (object);
}

static void
seismo_explain_view_class_init (SeismoExplainViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_explain_view_dispose;
  widget_class->map = seismo_explain_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismo-explain-view");
}

static void
seismo_explain_view_init (SeismoExplainView *self)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading = gtk_label_new (_("Explain This"));

  self->titles = g_ptr_array_new_with_free_func (g_free);
  self->event = SEISMO_NO_EVENT;
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_widget_set_margin_start (outer, 12);
  gtk_widget_set_margin_end (outer, 12);
  gtk_widget_set_margin_top (outer, 12);
  gtk_widget_set_margin_bottom (outer, 12);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "caption-heading");
  gtk_widget_add_css_class (heading, "dim-label");
  gtk_box_append (GTK_BOX (outer), heading);
  self->placeholder = wrapped_label (_("Select an event to read what it means: the system call or "
                                       "tracepoint, its arguments, its error, its state letters."),
                                     "dim-label");
  gtk_box_append (GTK_BOX (outer), self->placeholder);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_box_append (GTK_BOX (outer), self->box);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), outer);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

/**
 * seismo_explain_view_new:
 *
 * Returns: (transfer floating): a view explaining nothing yet
 */
GtkWidget *
seismo_explain_view_new (void)
{
  return g_object_new (SEISMO_TYPE_EXPLAIN_VIEW, NULL);
}

void
seismo_explain_view_set_event (SeismoExplainView *self,
                               SeismoTrace       *trace,
                               guint              event)
{
  g_return_if_fail (SEISMO_IS_EXPLAIN_VIEW (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  self->event = event;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    rebuild (self);
  else
    {
      /* Nothing to measure while hidden: the old event's widgets go now. */
      clear (self);
      self->stale = TRUE;
    }
}

GStrv
seismo_explain_view_dup_titles (SeismoExplainView *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) explanations = NULL;

  g_return_val_if_fail (SEISMO_IS_EXPLAIN_VIEW (self), NULL);
  if (!self->stale)
    {
      for (guint i = 0; i < self->titles->len; i++)
        g_strv_builder_add (builder, self->titles->pdata[i]);
    }
  else if (self->trace != NULL && self->event < seismo_trace_get_n_events (self->trace))
    {
      /* Not built yet: what it will show, without building it. */
      explanations = seismo_explain_trace_event (self->trace, self->event);
      for (guint i = 0; i < explanations->len; i++)
        g_strv_builder_add (builder, ((const SeismoExplanation *) explanations->pdata[i])->title);
    }
  return g_strv_builder_end (builder);
}

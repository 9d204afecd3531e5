/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>

#include "seismo-text-cell.h"

struct _SeismoTextCell
{
  GtkWidget  parent_instance;

  GtkWidget *owner;      /* borrowed: the list, which outlives its cells */
  char      *text;
  float      xalign;
  gboolean   numeric;
  gboolean   fit_text;     /* asks for its text's width */
  guint      width_serial; /* the Pango serial text_width was measured at; 0: not measured */
  int        text_width;
};

G_DEFINE_FINAL_TYPE (SeismoTextCell, seismo_text_cell, GTK_TYPE_WIDGET)

/* What the cells of one owner share: a layout on the owner's Pango context, and the line's
 * height from its font, worked out again when the context changes (font, scale). */
typedef struct {
  PangoLayout   *layout;
  PangoAttrList *numeric;   /* tabular digits, as the "numeric" style class has them */
  guint          serial;
  int            height;
  int            baseline;
} Shared;

static void
shared_free (gpointer data)
{
  Shared *shared = data;

  g_clear_object (&shared->layout);
  g_clear_pointer (&shared->numeric, pango_attr_list_unref);
  g_free (shared);
}

static Shared *
shared_for (GtkWidget *owner)
{
  static GQuark quark;
  PangoContext *context = gtk_widget_get_pango_context (owner);
  Shared *shared;

  if (quark == 0)
    quark = g_quark_from_static_string ("seismo-text-cell-shared");
  shared = g_object_get_qdata (G_OBJECT (owner), quark);
  if (shared == NULL)
    {
      shared = g_new0 (Shared, 1);
      shared->layout = pango_layout_new (context);
      /* One line whatever the text holds, as a row has room for. */
      pango_layout_set_single_paragraph_mode (shared->layout, TRUE);
      shared->numeric = pango_attr_list_new ();
      pango_attr_list_insert (shared->numeric, pango_attr_font_features_new ("tnum=1"));
      g_object_set_qdata_full (G_OBJECT (owner), quark, shared, shared_free);
    }
  /* Pango's serials start at 1: a new Shared (serial 0) always works them out. */
  if (pango_context_get_serial (context) != shared->serial)
    {
      PangoFontMetrics *metrics = pango_context_get_metrics (context, NULL, NULL);
      int ascent = pango_font_metrics_get_ascent (metrics);

      shared->baseline = PANGO_PIXELS_CEIL (ascent);
      shared->height = PANGO_PIXELS_CEIL (ascent + pango_font_metrics_get_descent (metrics));
      pango_font_metrics_unref (metrics);
      pango_layout_context_changed (shared->layout);
      shared->serial = pango_context_get_serial (context);
    }
  return shared;
}

static void
seismo_text_cell_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  SeismoTextCell *self = SEISMO_TEXT_CELL (widget);
  Shared *shared;

  /* No width of its own unless asked: the event list's columns have fixed widths. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL && !self->fit_text)
    {
      *minimum = *natural = 0;
      return;
    }
  shared = shared_for (self->owner);
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      *minimum = *natural = shared->height;
      *minimum_baseline = *natural_baseline = shared->baseline;
      return;
    }
  /* Measured once per text and font: GTK asks again at every relayout of the list. */
  if (self->width_serial != shared->serial)
    {
      PangoRectangle logical = { 0 };

      if (self->text != NULL && self->text[0] != '\0')
        {
          pango_layout_set_attributes (shared->layout, self->numeric ? shared->numeric : NULL);
          pango_layout_set_text (shared->layout, self->text, -1);
          pango_layout_set_width (shared->layout, -1);
          pango_layout_set_ellipsize (shared->layout, PANGO_ELLIPSIZE_NONE);
          pango_layout_get_pixel_extents (shared->layout, NULL, &logical);
        }
      self->text_width = logical.width;
      self->width_serial = shared->serial;
    }
  /* Numbers are never cut; words can be, down to nothing, as an ellipsized label can. */
  *natural = self->text_width;
  *minimum = self->numeric ? self->text_width : 0;
}

static void
seismo_text_cell_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SeismoTextCell *self = SEISMO_TEXT_CELL (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  float xalign = rtl ? 1.0f - self->xalign : self->xalign;
  PangoRectangle logical;
  PangoLayout *layout;
  Shared *shared;
  double x, y;

  if (self->text == NULL || self->text[0] == '\0' || width <= 0)
    return;
  shared = shared_for (self->owner);
  layout = shared->layout;
  pango_layout_set_attributes (layout, self->numeric ? shared->numeric : NULL);
  pango_layout_set_text (layout, self->text, -1);
  if (self->numeric)
    {
      /* Numbers are never ellipsized: what does not fit is clipped at its end, so that the
       * digits shown are its first ones ("100.12379" of "100.123794192", never "00.123794192"). */
      pango_layout_set_width (layout, -1);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
      pango_layout_get_pixel_extents (layout, NULL, &logical);
      if (logical.width > width)
        x = -logical.x;
      else
        x = floor (xalign * (width - logical.width) - logical.x);
    }
  else
    {
      pango_layout_set_width (layout, width * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_alignment (layout, xalign > 0.5f ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
      pango_layout_get_pixel_extents (layout, NULL, &logical);
      x = 0;
    }
  y = MAX (floor ((height - logical.height) / 2.0), 0);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* The cell's own style: its color follows its row (selected, dark). */
  gtk_snapshot_render_layout (snapshot, gtk_widget_get_style_context (widget), x, y, layout);
  gtk_snapshot_pop (snapshot);
}

static void
seismo_text_cell_finalize (GObject *object)
{
  SeismoTextCell *self = SEISMO_TEXT_CELL (object);

  g_free (self->text);
  G_OBJECT_CLASS (seismo_text_cell_parent_class)->finalize (object);
}

static void
seismo_text_cell_class_init (SeismoTextCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = seismo_text_cell_finalize;
  widget_class->measure = seismo_text_cell_measure;
  widget_class->snapshot = seismo_text_cell_snapshot;
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
seismo_text_cell_init (SeismoTextCell *self)
{
}

GtkWidget *
seismo_text_cell_new (GtkWidget *owner,
                      float      xalign,
                      gboolean   numeric)
{
  SeismoTextCell *self;

  g_return_val_if_fail (GTK_IS_WIDGET (owner), NULL);

  self = g_object_new (SEISMO_TYPE_TEXT_CELL, NULL);
  self->owner = owner;
  self->xalign = xalign;
  self->numeric = numeric;
  return GTK_WIDGET (self);
}

void
seismo_text_cell_set_text (SeismoTextCell *self,
                           const char     *text)
{
  g_return_if_fail (SEISMO_IS_TEXT_CELL (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  if (self->fit_text)
    {
      self->width_serial = 0;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  /* What a screen reader reads of the cell. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text != NULL ? text : "", -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
seismo_text_cell_get_text (SeismoTextCell *self)
{
  g_return_val_if_fail (SEISMO_IS_TEXT_CELL (self), NULL);
  return self->text;
}

/* Whether the cell asks for its text's width, for a column sized by its content; by default it
 * asks for none, for a column of fixed width. */
void
seismo_text_cell_set_fit_text (SeismoTextCell *self,
                               gboolean        fit_text)
{
  g_return_if_fail (SEISMO_IS_TEXT_CELL (self));

  if (self->fit_text == !!fit_text)
    return;
  self->fit_text = !!fit_text;
  self->width_serial = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

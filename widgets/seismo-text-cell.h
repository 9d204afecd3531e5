/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * One cell of a list's table (the event list, the statistics): a line of text, drawn with a
 * layout and font metrics shared by every cell of the list that owns it. GtkInscription made a Pango context and a layout per
 * cell and asked the font for its metrics (shaping a sample text) at every measure: with GTK
 * 4.8's 200 rows of seven cells, that was most of the cost of showing a trace's first rows.
 * Its CSS name is "label", as GtkInscription's and GtkLabel's are.
 */
#define SEISMO_TYPE_TEXT_CELL (seismo_text_cell_get_type ())
G_DECLARE_FINAL_TYPE (SeismoTextCell, seismo_text_cell, SEISMO, TEXT_CELL, GtkWidget)

/* owner: the widget whose font the cell uses (borrowed; it must outlive the cell). numeric:
 * digits of equal widths; otherwise the text is cut with an ellipsis at the end. */
GtkWidget  *seismo_text_cell_new          (GtkWidget      *owner,
                                           float           xalign,
                                           gboolean        numeric);
void        seismo_text_cell_set_text     (SeismoTextCell *self,
                                           const char     *text);
const char *seismo_text_cell_get_text     (SeismoTextCell *self);
void        seismo_text_cell_set_fit_text (SeismoTextCell *self,
                                           gboolean        fit_text);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A list model that shows the first rows of another one, more of them as its limit is raised,
 * then all of it: a view given millions of rows makes a widget for each of GTK 4.8's 200 rows
 * around its top at once (over 100 ms of widgets), and raising the limit a frame at a time
 * spreads that out. With no limit, it passes every change of the model through unchanged.
 */
#define SEISMO_TYPE_REVEAL_MODEL (seismo_reveal_model_get_type ())
G_DECLARE_FINAL_TYPE (SeismoRevealModel, seismo_reveal_model, SEISMO, REVEAL_MODEL, GObject)

SeismoRevealModel *seismo_reveal_model_new       (GListModel        *model,
                                                  guint              limit);
/* Raises the limit (G_MAXUINT: show all); rows only ever come at the end. */
void               seismo_reveal_model_set_limit (SeismoRevealModel *self,
                                                  guint              limit);
guint              seismo_reveal_model_get_limit (SeismoRevealModel *self);

G_END_DECLS

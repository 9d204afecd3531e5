/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * An analysis pane's spinner, shown only for a computation that takes long enough to be seen:
 * one that ends sooner would only cost frames. The pane keeps one in its instance.
 */
#define SEISMO_PANE_SPINNER_DELAY_MS 300

typedef struct {
  GtkSpinner *spinner;   /* borrowed: the pane's child */
  guint       source;    /* the delay running */
} SeismoPaneSpinner;

static gboolean
seismo_pane_spinner_show (gpointer data)
{
  SeismoPaneSpinner *self = data;

  self->source = 0;
  gtk_spinner_start (self->spinner);
  return G_SOURCE_REMOVE;
}

static inline void
seismo_pane_spinner_start (SeismoPaneSpinner *self)
{
  if (self->source == 0 && !gtk_spinner_get_spinning (self->spinner))
    self->source = g_timeout_add (SEISMO_PANE_SPINNER_DELAY_MS, seismo_pane_spinner_show, self);
}

static inline void
seismo_pane_spinner_stop (SeismoPaneSpinner *self)
{
  g_clear_handle_id (&self->source, g_source_remove);
  if (self->spinner != NULL)
    gtk_spinner_stop (self->spinner);
}

/* On dispose: no delay left to fire on a pane that is gone. */
static inline void
seismo_pane_spinner_clear (SeismoPaneSpinner *self)
{
  g_clear_handle_id (&self->source, g_source_remove);
}

G_END_DECLS

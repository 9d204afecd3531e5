/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-view-private.h"

/* The view's timeline rows (hidden, pinned) and notes: plain arrays, compared before replaced. */

static void
clear_note (gpointer data)
{
  g_free (((SeismoViewNote *) data)->text);
}

void
_seismo_view_rows_init (SeismoView *self)
{
  self->hidden_rows = g_array_new (FALSE, FALSE, sizeof (SeismoViewRow));
  self->pinned_rows = g_array_new (FALSE, FALSE, sizeof (SeismoViewRow));
  self->notes = g_array_new (FALSE, FALSE, sizeof (SeismoViewNote));
  g_array_set_clear_func (self->notes, clear_note);
}

void
_seismo_view_rows_finalize (SeismoView *self)
{
  g_clear_pointer (&self->hidden_rows, g_array_unref);
  g_clear_pointer (&self->pinned_rows, g_array_unref);
  g_clear_pointer (&self->notes, g_array_unref);
}

static gboolean
rows_equal (GArray              *array,
            const SeismoViewRow *rows,
            guint                n_rows)
{
  if (array->len != n_rows)
    return FALSE;
  for (guint i = 0; i < n_rows; i++)
    {
      const SeismoViewRow *a = &g_array_index (array, SeismoViewRow, i);

      if (a->kind != rows[i].kind || a->id != rows[i].id)
        return FALSE;
    }
  return TRUE;
}

static void
assign_rows (GArray              *array,
             const SeismoViewRow *rows,
             guint                n_rows)
{
  g_array_set_size (array, 0);
  if (n_rows > 0)
    g_array_append_vals (array, rows, n_rows);
}

const SeismoViewRow *
seismo_view_get_hidden_rows (SeismoView *self,
                             guint      *n_rows)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), NULL);
  *n_rows = self->hidden_rows->len;
  return self->hidden_rows->len > 0 ? (const SeismoViewRow *) self->hidden_rows->data : NULL;
}

const SeismoViewRow *
seismo_view_get_pinned_rows (SeismoView *self,
                             guint      *n_rows)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), NULL);
  *n_rows = self->pinned_rows->len;
  return self->pinned_rows->len > 0 ? (const SeismoViewRow *) self->pinned_rows->data : NULL;
}

void
seismo_view_set_rows (SeismoView          *self,
                      const SeismoViewRow *hidden,
                      guint                n_hidden,
                      const SeismoViewRow *pinned,
                      guint                n_pinned)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  g_return_if_fail (n_hidden == 0 || hidden != NULL);
  g_return_if_fail (n_pinned == 0 || pinned != NULL);

  if (rows_equal (self->hidden_rows, hidden, n_hidden) && rows_equal (self->pinned_rows, pinned, n_pinned))
    return;
  assign_rows (self->hidden_rows, hidden, n_hidden);
  assign_rows (self->pinned_rows, pinned, n_pinned);
  g_signal_emit (self, _seismo_view_signals[SEISMO_VIEW_ROWS_CHANGED], 0);
}

const SeismoViewNote *
seismo_view_get_notes (SeismoView *self,
                       guint      *n_notes)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), NULL);
  *n_notes = self->notes->len;
  return self->notes->len > 0 ? (const SeismoViewNote *) self->notes->data : NULL;
}

void
seismo_view_set_notes (SeismoView           *self,
                       const SeismoViewNote *notes,
                       guint                 n_notes)
{
  gboolean same;

  g_return_if_fail (SEISMO_IS_VIEW (self));
  g_return_if_fail (n_notes == 0 || notes != NULL);

  same = self->notes->len == n_notes;
  for (guint i = 0; same && i < n_notes; i++)
    {
      const SeismoViewNote *a = &g_array_index (self->notes, SeismoViewNote, i);

      same = a->time_ns == notes[i].time_ns && g_strcmp0 (a->text, notes[i].text) == 0;
    }
  if (same)
    return;
  /* Copied before the old ones go: notes may point into them (one note added to the rest). */
  {
    GArray *copy = g_array_sized_new (FALSE, FALSE, sizeof (SeismoViewNote), n_notes);

    g_array_set_clear_func (copy, clear_note);
    for (guint i = 0; i < n_notes; i++)
      {
        SeismoViewNote note = { notes[i].time_ns, g_strdup (notes[i].text) };

        g_array_append_val (copy, note);
      }
    g_array_unref (self->notes);
    self->notes = copy;
  }
  g_signal_emit (self, _seismo_view_signals[SEISMO_VIEW_NOTES_CHANGED], 0);
}

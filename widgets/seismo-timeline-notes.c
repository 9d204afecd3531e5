/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>

#include "seismo-timeline-notes.h"
#include "seismo-timeline-renderer-private.h"

/* Amber: apart from the markers' blue and red and from the task hues' saturation. */
static const SeismoColor note_color = { 0xe5 / 255.0f, 0xa5 / 255.0f, 0x0a / 255.0f, 1.0f };
static const SeismoColor note_text = { 0, 0, 0, 0.87f };

#define NOTE_MAX_WIDTH 220

static void
note_clear (gpointer data)
{
  g_free (((SeismoTimelineNote *) data)->text);
}

static int
note_compare (gconstpointer a,
              gconstpointer b)
{
  const SeismoTimelineNote *na = a, *nb = b;

  return na->time_ns < nb->time_ns ? -1 : na->time_ns > nb->time_ns;
}

void
seismo_timeline_renderer_set_notes (SeismoTimelineRenderer   *self,
                                    const SeismoTimelineNote *notes,
                                    guint                     n_notes)
{
  GArray *copy = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (notes != NULL || n_notes == 0);

  /* Copied before the old ones go: notes may point into them (adding one to the list). */
  if (n_notes > 0)
    {
      copy = g_array_sized_new (FALSE, FALSE, sizeof (SeismoTimelineNote), n_notes);
      g_array_set_clear_func (copy, note_clear);
      for (guint i = 0; i < n_notes; i++)
        {
          SeismoTimelineNote note = { notes[i].time_ns, g_strdup (notes[i].text ? notes[i].text : "") };

          g_array_append_val (copy, note);
        }
      /* In time order, later flags are drawn over earlier ones as they are on a slide. */
      g_array_sort (copy, note_compare);
    }
  g_clear_pointer (&self->notes, g_array_unref);
  self->notes = copy;
}

const SeismoTimelineNote *
seismo_timeline_renderer_get_notes (SeismoTimelineRenderer *self,
                                    guint                  *n_notes)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_notes != NULL)
    *n_notes = self->notes != NULL ? self->notes->len : 0;
  return self->notes != NULL ? (const SeismoTimelineNote *) self->notes->data : NULL;
}

void
_seismo_timeline_renderer_draw_notes (SeismoTimelineRenderer *self,
                                      const SeismoCanvas     *canvas,
                                      gpointer                canvas_data)
{
  const double top = SEISMO_TIMELINE_RULER_HEIGHT;

  if (self->notes == NULL)
    return;
  for (guint i = 0; i < self->notes->len; i++)
    {
      const SeismoTimelineNote *note = &g_array_index (self->notes, SeismoTimelineNote, i);
      double x = floor (_seismo_timeline_abs_to_x (self, note->time_ns));
      PangoLayout *layout;
      int tw, th;
      double box[4];

      if (x < SEISMO_TIMELINE_LABEL_WIDTH || x >= self->width)
        continue;
      layout = _seismo_timeline_renderer_layout (self, note->text, TRUE);
      pango_layout_set_width (layout, NOTE_MAX_WIDTH * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_get_pixel_size (layout, &tw, &th);

      /* The line is dashed so that it never hides the rows it crosses. */
      {
        cairo_t *cr = canvas->begin_cairo (canvas_data, x - 1, top, 3, self->height - top);
        static const double dash[] = { 6, 4 };

        cairo_set_source_rgba (cr, note_color.red, note_color.green, note_color.blue, 1);
        cairo_set_line_width (cr, 2);
        cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
        cairo_move_to (cr, x + 1, top);
        cairo_line_to (cr, x + 1, self->height);
        cairo_stroke (cr);
        canvas->end_cairo (canvas_data, cr);
      }
      box[0] = x;
      box[1] = top + 2;
      box[2] = MIN (tw, NOTE_MAX_WIDTH) + 10;
      box[3] = th + 4;
      canvas->fill_rects (canvas_data, &note_color, box, 1);
      canvas->text (canvas_data, x + 5, top + 4, layout, &note_text);
    }
}

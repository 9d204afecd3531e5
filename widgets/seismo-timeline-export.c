/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "seismo-timeline-export.h"
#include "seismo-thread-states.h"
#include "seismo-timeline-renderer-private.h"

G_DEFINE_QUARK (seismo-timeline-export-error-quark, seismo_timeline_export_error)

#define TITLE_HEIGHT     36
#define LEGEND_PAD       12
#define LEGEND_LINE      20
#define LEGEND_CELL      200
#define LEGEND_MAX_TASKS 48

gboolean
seismo_image_format_from_path (const char        *path,
                               SeismoImageFormat *format,
                               GError           **error)
{
  static const struct { const char *ext; SeismoImageFormat format; } formats[] = {
    { ".png", SEISMO_IMAGE_FORMAT_PNG },
    { ".svg", SEISMO_IMAGE_FORMAT_SVG },
    { ".pdf", SEISMO_IMAGE_FORMAT_PDF },
  };
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  lower = g_ascii_strdown (path, -1);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_has_suffix (lower, formats[i].ext))
      {
        *format = formats[i].format;
        return TRUE;
      }
  g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_FORMAT,
               _("%s: unknown image format: the name must end in .svg, .pdf or .png"), path);
  return FALSE;
}

const char *
seismo_image_format_extension (SeismoImageFormat format)
{
  switch (format)
    {
    case SEISMO_IMAGE_FORMAT_SVG:
      return "svg";
    case SEISMO_IMAGE_FORMAT_PDF:
      return "pdf";
    case SEISMO_IMAGE_FORMAT_PNG:
    default:
      return "png";
    }
}

/* Visible time range, so that a different width shows the same stretch of time. */
static void
get_span (SeismoTimelineRenderer *r,
          double                 *start,
          double                 *span)
{
  *start = r->view_start;
  *span = r->ns_per_px * seismo_timeline_renderer_get_area_width (r);
}

static void
set_span (SeismoTimelineRenderer *r,
          double                  start,
          double                  span)
{
  seismo_timeline_renderer_set_view (r, start, span / seismo_timeline_renderer_get_area_width (r));
}

void
seismo_timeline_export_copy_view (SeismoTimelineRenderer *dst,
                                  SeismoTimelineRenderer *src)
{
  const SeismoTimelineData *d;
  double start, span;
  guint n_notes;
  const SeismoTimelineNote *notes;

  g_return_if_fail (dst != NULL && src != NULL);
  g_return_if_fail (dst->data == src->data);
  d = src->data;

  seismo_timeline_renderer_set_dark (dst, src->dark);
  dst->cpu_group_flags = src->cpu_group_flags;
  memcpy (dst->cpu_flags, src->cpu_flags, d->n_cpus);
  memcpy (dst->proc_flags, src->proc_flags, d->n_processes);
  memcpy (dst->task_flags, src->task_flags, d->n_tasks);
  memcpy (dst->cpu_order, src->cpu_order, sizeof (guint) * d->n_cpus);
  memcpy (dst->proc_order, src->proc_order, sizeof (guint) * d->n_processes);
  memcpy (dst->task_order, src->task_order, sizeof (SeismoTaskId) * src->task_order_off[d->n_processes]);
  g_array_set_size (dst->pinned_keys, 0);
  g_array_append_vals (dst->pinned_keys, src->pinned_keys->data, src->pinned_keys->len);
  dst->rows_dirty = TRUE;

  memcpy (dst->has_marker, src->has_marker, sizeof dst->has_marker);
  memcpy (dst->marker, src->marker, sizeof dst->marker);
  dst->has_range = src->has_range;
  memcpy (dst->range, src->range, sizeof dst->range);
  dst->selected = src->selected;
  notes = seismo_timeline_renderer_get_notes (src, &n_notes);
  seismo_timeline_renderer_set_notes (dst, notes, n_notes);

  get_span (src, &start, &span);
  set_span (dst, start, span);
  seismo_timeline_renderer_set_scroll_y (dst, src->scroll_y);
}

/* Row selection */

typedef struct {
  gboolean *cpus;
  gboolean *tasks;
  gboolean  any_cpu;
} RowPick;

static gboolean
pick_term (SeismoTimelineRenderer *r,
           const char             *term,
           RowPick                *pick,
           GError                **error)
{
  const SeismoTimelineData *d = r->data;
  SeismoTrace *trace = d->trace;
  guint64 n;
  guint matched = 0;

  if (strcmp (term, "all") == 0)
    {
      for (guint c = 0; c < d->n_cpus; c++)
        pick->cpus[c] = TRUE;
      for (guint t = 0; t < d->n_tasks; t++)
        pick->tasks[t] = d->tasks[t].process != G_MAXUINT;
      return TRUE;
    }
  if (strcmp (term, "cpus") == 0)
    {
      for (guint c = 0; c < d->n_cpus; c++)
        pick->cpus[c] = TRUE;
      matched = d->n_cpus;
    }
  else if (strcmp (term, "tasks") == 0)
    {
      for (guint t = 0; t < d->n_tasks; t++)
        if (d->tasks[t].process != G_MAXUINT)
          pick->tasks[t] = TRUE, matched++;
    }
  else if (g_str_has_prefix (term, "cpu"))
    {
      const char *num = term + 3 + (term[3] == ':');

      if (!g_ascii_string_to_unsigned (num, 10, 0, G_MAXUINT, &n, NULL))
        goto bad;
      if (n < d->n_cpus)
        pick->cpus[n] = TRUE, matched++;
    }
  else if (g_str_has_prefix (term, "task:") || g_str_has_prefix (term, "pid:"))
    {
      gboolean by_pid = term[0] == 'p';

      if (!g_ascii_string_to_unsigned (strchr (term, ':') + 1, 10, 0, G_MAXINT32, &n, NULL))
        goto bad;
      for (guint t = 0; t < d->n_tasks; t++)
        {
          const SeismoTask *task = seismo_trace_get_task (trace, t);

          if (d->tasks[t].process == G_MAXUINT)
            continue;
          if ((by_pid ? d->processes[d->tasks[t].process].pid : task->tid) == (gint32) n)
            pick->tasks[t] = TRUE, matched++;
        }
    }
  else if (g_str_has_prefix (term, "comm:") && term[5] != '\0')
    {
      g_autoptr(GPatternSpec) glob = g_pattern_spec_new (term + 5);

      for (guint t = 0; t < d->n_tasks; t++)
        {
          const char *comm = seismo_trace_get_string (trace, seismo_trace_get_task (trace, t)->comm);

          if (d->tasks[t].process != G_MAXUINT && comm != NULL && g_pattern_spec_match_string (glob, comm))
            pick->tasks[t] = TRUE, matched++;
        }
    }
  else
    goto bad;

  if (matched == 0)
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_ROWS,
                   _("rows: “%s” selects no row of this trace"), term);
      return FALSE;
    }
  return TRUE;

bad:
  g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_ROWS,
               _("rows: “%s” is not one of all, cpus, cpuN, tasks, task:TID, pid:PID, comm:GLOB"),
               term);
  return FALSE;
}

gboolean
seismo_timeline_export_select_rows (SeismoTimelineRenderer *r,
                                    const char             *spec,
                                    GError                **error)
{
  const SeismoTimelineData *d;
  g_auto(GStrv) terms = NULL;
  g_autofree gboolean *cpus = NULL;
  g_autofree gboolean *tasks = NULL;
  RowPick pick;
  gboolean any_cpu = FALSE;

  g_return_val_if_fail (r != NULL && spec != NULL, FALSE);
  d = r->data;
  cpus = g_new0 (gboolean, MAX (d->n_cpus, 1));
  tasks = g_new0 (gboolean, MAX (d->n_tasks, 1));
  pick = (RowPick) { cpus, tasks, FALSE };
  terms = g_strsplit (spec, ",", -1);
  for (guint i = 0; terms[i] != NULL; i++)
    {
      g_strstrip (terms[i]);
      if (terms[i][0] == '\0')
        continue;
      if (!pick_term (r, terms[i], &pick, error))
        return FALSE;
    }

  seismo_timeline_renderer_show_all_rows (r);
  for (guint c = 0; c < d->n_cpus; c++)
    {
      any_cpu |= cpus[c];
      if (!cpus[c])
        seismo_timeline_renderer_hide_row (r, (SeismoRowKey) { SEISMO_ROW_CPU, c });
    }
  if (!any_cpu)
    seismo_timeline_renderer_hide_row (r, (SeismoRowKey) { SEISMO_ROW_CPU_GROUP, 0 });
  else
    seismo_timeline_renderer_set_collapsed (r, (SeismoRowKey) { SEISMO_ROW_CPU_GROUP, 0 }, FALSE);
  for (guint p = 0; p < d->n_processes; p++)
    {
      const SeismoTimelineProcess *proc = &d->processes[p];
      gboolean any = FALSE;

      for (guint k = 0; k < proc->n_tasks; k++)
        {
          any |= tasks[proc->tasks[k]];
          if (!tasks[proc->tasks[k]])
            seismo_timeline_renderer_hide_row (r, (SeismoRowKey) { SEISMO_ROW_TASK, proc->tasks[k] });
        }
      if (!any)
        seismo_timeline_renderer_hide_row (r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p });
      else if (proc->n_tasks > 1)
        seismo_timeline_renderer_set_collapsed (r, (SeismoRowKey) { SEISMO_ROW_PROCESS, p }, FALSE);
    }
  return TRUE;
}

/* Legend */

typedef struct {
  guint       color;
  const char *label;     /* NULL: a task's, from its row */
  SeismoTaskId task;
} LegendItem;

static void
collect_tasks (SeismoTimelineRenderer *r,
               GArray                 *rows,
               GArray                 *items,
               GHashTable             *seen)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const SeismoTimelineRow *row = &g_array_index (rows, SeismoTimelineRow, i);
      SeismoTaskId t;
      LegendItem item;

      if (row->kind == SEISMO_ROW_TASK)
        t = row->id;
      else if (row->kind == SEISMO_ROW_PROCESS)
        t = r->data->processes[row->id].main_task;
      else
        continue;
      if (!g_hash_table_add (seen, GUINT_TO_POINTER (t + 1)))
        continue;
      item = (LegendItem) { C_TASK + r->data->tasks[t].color, NULL, t };
      g_array_append_val (items, item);
    }
}

/* The tasks shown (up to LEGEND_MAX_TASKS; *n_more says how many were left out), then symbols. */
static GArray *
legend_items (SeismoTimelineRenderer *r,
              guint                  *n_tasks,
              guint                  *n_more)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (LegendItem));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  const LegendItem symbols[] = {
    { C_SYSCALL + 3, N_("syscall (hue: which)"), 0 },
    { C_SYSCALL_ERROR, N_("syscall that failed"), 0 },
    { C_SYSCALL_DENSE, N_("many syscalls per pixel"), 0 },
    { C_WAKEUP, N_("wakeup latency"), 0 },
    { C_IRQ, N_("hardware IRQ"), 0 },
    { C_LOST, N_("lost events"), 0 },
  };

  _seismo_timeline_renderer_layout_rows (r);
  collect_tasks (r, r->pinned_rows, items, seen);
  collect_tasks (r, r->rows, items, seen);
  *n_more = items->len > LEGEND_MAX_TASKS ? items->len - LEGEND_MAX_TASKS : 0;
  g_array_set_size (items, items->len - *n_more);
  *n_tasks = items->len;
  if (seismo_trace_has_states (r->data->trace))
    {
      /* Task rows show states instead of runs and wakeup latencies. */
      const LegendItem states[] = {
        { C_STATE_RUNNING, N_("running"), 0 },
        { C_STATE_RUNNABLE, N_("runnable (waiting for a CPU)"), 0 },
        { C_STATE_SLEEPING, N_("sleeping (thin line)"), 0 },
        { C_STATE_D, N_("uninterruptible (D)"), 0 },
      };

      g_array_append_vals (items, states, G_N_ELEMENTS (states));
      g_array_append_vals (items, symbols, 3);
      g_array_append_vals (items, symbols + 4, G_N_ELEMENTS (symbols) - 4);
      if (r->critical_path != NULL)
        g_array_append_val (items, ((LegendItem) { C_PATH_EDGE, N_("critical path"), 0 }));
    }
  else
    g_array_append_vals (items, symbols, G_N_ELEMENTS (symbols));
  if (r->has_marker[0])
    g_array_append_val (items, ((LegendItem) { C_MARKER_A, N_("marker A"), 0 }));
  if (r->has_marker[1])
    g_array_append_val (items, ((LegendItem) { C_MARKER_B, N_("marker B"), 0 }));
  if (r->notes != NULL && r->notes->len > 0)
    /* C_N stands for the notes' amber, which is not in the palette. */
    g_array_append_val (items, ((LegendItem) { C_N, N_("note"), 0 }));
  return items;
}

static int
legend_columns (int width)
{
  return MAX ((width - 2 * LEGEND_PAD) / LEGEND_CELL, 1);
}

static int
legend_height (SeismoTimelineRenderer *r,
               int                     width)
{
  g_autoptr(GArray) items = NULL;
  guint n_tasks, n_more;
  int cols = legend_columns (width);
  int lines;

  items = legend_items (r, &n_tasks, &n_more);
  lines = (n_tasks + cols - 1) / cols + (n_more > 0) + ((items->len - n_tasks) + cols - 1) / cols;
  return 2 * LEGEND_PAD + 2 * LEGEND_LINE + lines * LEGEND_LINE + 6;
}

static void
set_color (cairo_t                *cr,
           SeismoTimelineRenderer *r,
           guint                   c)
{
  if (c == C_N)
    cairo_set_source_rgb (cr, 0xe5 / 255.0, 0xa5 / 255.0, 0x0a / 255.0);
  else
    cairo_set_source_rgba (cr, r->palette[c].red, r->palette[c].green, r->palette[c].blue,
                           r->palette[c].alpha);
}

static void
legend_text (cairo_t                *cr,
             SeismoTimelineRenderer *r,
             double                  x,
             double                  y,
             double                  max_width,
             const char             *text,
             guint                   color,
             gboolean                heading)
{
  PangoLayout *layout = _seismo_timeline_renderer_layout (r, text, !heading);

  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  set_color (cr, r, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_legend (SeismoTimelineRenderer *r,
             cairo_t                *cr,
             int                     width)
{
  g_autoptr(GArray) items = NULL;
  guint n_tasks, n_more;
  int cols = legend_columns (width);
  double y = LEGEND_PAD;
  SeismoTrace *trace = r->data->trace;

  items = legend_items (r, &n_tasks, &n_more);
  set_color (cr, r, C_SEPARATOR);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_fill (cr);

  for (guint part = 0; part < 2; part++)
    {
      guint first = part == 0 ? 0 : n_tasks;
      guint last = part == 0 ? n_tasks : items->len;

      legend_text (cr, r, LEGEND_PAD, y, 0, part == 0 ? _("Tasks (color of their runs)") : _("Symbols"),
                   C_TEXT, TRUE);
      y += LEGEND_LINE;
      for (guint i = first; i < last; i++)
        {
          const LegendItem *item = &g_array_index (items, LegendItem, i);
          double x = LEGEND_PAD + ((i - first) % cols) * LEGEND_CELL;
          double ly = y + ((i - first) / cols) * LEGEND_LINE;
          g_autofree char *label = NULL;

          if (item->label == NULL)
            {
              const SeismoTask *task = seismo_trace_get_task (trace, item->task);

              label = g_strdup_printf ("%s %d", seismo_trace_get_string (trace, task->comm), task->tid);
            }
          set_color (cr, r, item->color);
          if (item->color == C_MARKER_A || item->color == C_MARKER_B || item->color == C_N)
            cairo_rectangle (cr, x + 4, ly + 2, 3, 12);
          else
            cairo_rectangle (cr, x, ly + 3, 12, 10);
          cairo_fill (cr);
          legend_text (cr, r, x + 18, ly, LEGEND_CELL - 24,
                       label != NULL ? label : _(item->label), C_TEXT, FALSE);
        }
      y += ((last - first + cols - 1) / cols) * LEGEND_LINE;
      if (part == 0 && n_more > 0)
        {
          g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more task",
                                                                "and %u more tasks", n_more), n_more);

          legend_text (cr, r, LEGEND_PAD, y, 0, more, C_TEXT_DIM, FALSE);
          y += LEGEND_LINE;
        }
      y += 6;
    }
}

/* Figure */

void
seismo_timeline_export_layout (SeismoTimelineRenderer            *r,
                               const SeismoTimelineExportOptions *options,
                               int                               *width,
                               int                               *height)
{
  int w, h;
  double start, span;

  g_return_if_fail (r != NULL && options != NULL);

  w = CLAMP (options->width > 0 ? options->width : r->width, SEISMO_TIMELINE_EXPORT_MIN_WIDTH,
             SEISMO_TIMELINE_EXPORT_MAX_SIZE);
  get_span (r, &start, &span);
  if (options->height > 0)
    h = CLAMP (options->height, SEISMO_TIMELINE_RULER_HEIGHT + 1, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
  else
    {
      /* Tall enough for every row: pinned rows get all the room they want at this height. */
      seismo_timeline_renderer_set_size (r, w, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
      _seismo_timeline_renderer_layout_rows (r);
      h = SEISMO_TIMELINE_RULER_HEIGHT + r->pinned_height + r->rows_height;
      h = CLAMP (h, SEISMO_TIMELINE_RULER_HEIGHT + 1, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
    }
  seismo_timeline_renderer_set_size (r, w, h);
  set_span (r, start, span);
  if (options->height <= 0)
    seismo_timeline_renderer_set_scroll_y (r, 0);

  *width = w;
  *height = h + (options->title != NULL && *options->title ? TITLE_HEIGHT : 0)
            + (options->legend ? legend_height (r, w) : 0);
}

void
seismo_timeline_export_draw (SeismoTimelineRenderer            *r,
                             const SeismoTimelineExportOptions *options,
                             cairo_t                           *cr)
{
  double top = 0;

  g_return_if_fail (r != NULL && options != NULL && cr != NULL);

  cairo_save (cr);
  if (options->title != NULL && *options->title)
    {
      g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
      g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("Sans Bold 13");

      set_color (cr, r, C_BG);
      cairo_rectangle (cr, 0, 0, r->width, TITLE_HEIGHT);
      cairo_fill (cr);
      pango_layout_set_font_description (layout, font);
      pango_layout_set_text (layout, options->title, -1);
      pango_layout_set_width (layout, (r->width - 24) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      set_color (cr, r, C_TEXT);
      cairo_move_to (cr, 12, 8);
      pango_cairo_show_layout (cr, layout);
      top = TITLE_HEIGHT;
    }

  cairo_save (cr);
  cairo_translate (cr, 0, top);
  cairo_rectangle (cr, 0, 0, r->width, r->height);
  cairo_clip (cr);
  seismo_timeline_renderer_draw_cairo (r, cr);
  cairo_restore (cr);

  if (options->legend)
    {
      int lh = legend_height (r, r->width);

      cairo_translate (cr, 0, top + r->height);
      set_color (cr, r, C_BG);
      cairo_rectangle (cr, 0, 0, r->width, lh);
      cairo_fill (cr);
      draw_legend (r, cr, r->width);
    }
  cairo_restore (cr);
}

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
seismo_timeline_export_to_file (SeismoTimelineRenderer            *r,
                                const SeismoTimelineExportOptions *options,
                                const char                        *path,
                                GError                           **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  int w, h;
  double scale;

  g_return_val_if_fail (r != NULL && options != NULL && path != NULL, FALSE);

  scale = options->scale > 0 ? options->scale : 1.0;
  if (!isfinite (scale) || scale > SEISMO_TIMELINE_EXPORT_MAX_SCALE || scale < 0.1)
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE,
                   _("%s: scale %g is outside 0.1 to %g"), path, scale, SEISMO_TIMELINE_EXPORT_MAX_SCALE);
      return FALSE;
    }
  if (options->width != 0 && (options->width < SEISMO_TIMELINE_EXPORT_MIN_WIDTH
                              || options->width > SEISMO_TIMELINE_EXPORT_MAX_SIZE))
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE,
                   _("%s: width %d is outside %d to %d pixels"), path, options->width,
                   SEISMO_TIMELINE_EXPORT_MIN_WIDTH, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
      return FALSE;
    }
  if (options->height != 0 && (options->height <= SEISMO_TIMELINE_RULER_HEIGHT
                               || options->height > SEISMO_TIMELINE_EXPORT_MAX_SIZE))
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE,
                   _("%s: height %d is outside %d to %d pixels"), path, options->height,
                   SEISMO_TIMELINE_RULER_HEIGHT + 1, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
      return FALSE;
    }

  seismo_timeline_export_layout (r, options, &w, &h);
  if (options->format == SEISMO_IMAGE_FORMAT_PNG && ((double) w * scale > 32767 || (double) h * scale > 32767))
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE,
                   _("%s: a %d × %d image at scale %g is too large for PNG (32767 pixels at most)"),
                   path, w, h, scale);
      return FALSE;
    }

  switch (options->format)
    {
    case SEISMO_IMAGE_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, w * scale, h * scale);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      break;
    case SEISMO_IMAGE_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, w * scale, h * scale);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Seismo " PACKAGE_VERSION);
      if (options->title != NULL)
        cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, options->title);
      break;
    case SEISMO_IMAGE_FORMAT_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w * scale),
                                            (int) ceil (h * scale));
      break;
    }
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  seismo_timeline_export_draw (r, options, cr);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && options->format == SEISMO_IMAGE_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_CAIRO,
                   _("%s: could not draw the image: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }
  /* Atomic: a temporary file beside it, fsync, rename. */
  return g_file_set_contents_full (path, (const char *) bytes->data, bytes->len,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

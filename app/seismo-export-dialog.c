/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <string.h>

#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "seismo-export-dialog.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"

struct _SeismoExportDialog
{
  AdwWindow           parent_instance;

  /* template widgets */
  AdwComboRow        *what_row;
  AdwComboRow        *format_row;
  AdwPreferencesGroup *timeline_group;
  AdwComboRow        *range_row;
  AdwEntryRow        *rows_row;
  AdwEntryRow        *title_row;
  GtkSwitch          *legend_switch;
  GtkSpinButton      *width_spin;
  GtkSpinButton      *height_spin;
  GtkSpinButton      *scale_spin;
  GtkWidget          *export_button;

  /* borrowed: the dialog is transient for it and dies with it */
  SeismoWindow       *window;
};

G_DEFINE_FINAL_TYPE (SeismoExportDialog, seismo_export_dialog, ADW_TYPE_WINDOW)

/* The format row's items. */
enum { FORMAT_PNG, FORMAT_SVG, FORMAT_PDF, FORMAT_CSV };

gboolean
seismo_export_timeline_figure (SeismoTimeline                    *timeline,
                               SeismoExportSpan                   span,
                               const char                        *rows,
                               const SeismoTimelineExportOptions *options,
                               const char                        *path,
                               GError                           **error)
{
  SeismoTimelineRenderer *shown;
  g_autoptr(SeismoTimelineRenderer) r = NULL;
  SeismoTimelineExportOptions o;
  guint64 a, b;

  g_return_val_if_fail (SEISMO_IS_TIMELINE (timeline), FALSE);
  g_return_val_if_fail (options != NULL && path != NULL, FALSE);

  shown = seismo_timeline_get_renderer (timeline);
  if (shown == NULL || seismo_timeline_get_data (timeline) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: there is no trace to export"), path);
      return FALSE;
    }
  /* A renderer of its own: the window's view is not disturbed by the export's size. */
  r = seismo_timeline_renderer_new (seismo_timeline_get_data (timeline));
  o = *options;
  /* The renderer's size is the widget's in its own units (presenter mode scales it). */
  seismo_timeline_renderer_set_size (r, shown->width, shown->height);
  if (o.width == 0)
    o.width = shown->width;
  seismo_timeline_export_copy_view (r, shown);
  /* Text laid out as the window lays it out (its fonts, hinting and antialiasing). */
  seismo_timeline_renderer_set_pango_context (r, gtk_widget_get_pango_context (GTK_WIDGET (timeline)));
  if (span == SEISMO_EXPORT_SPAN_WHOLE)
    seismo_timeline_renderer_fit_all (r);
  else if (span == SEISMO_EXPORT_SPAN_RANGE && seismo_timeline_renderer_get_range (shown, &a, &b))
    seismo_timeline_renderer_zoom_to (r, a, b);
  if (rows != NULL && *rows != '\0')
    {
      g_autoptr(GError) local = NULL;

      if (!seismo_timeline_export_select_rows (r, rows, &local))
        {
          g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
          return FALSE;
        }
    }
  return seismo_timeline_export_to_file (r, &o, path, error);
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
seismo_export_pane (SeismoWindow        *window,
                    SeismoExportContent  content,
                    SeismoImageFormat    format,
                    gboolean             csv,
                    int                  width,
                    int                  height,
                    double               scale,
                    const char          *path,
                    GError             **error)
{
  SeismoHistogramView *histogram;
  SeismoStatsView *stats;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (SEISMO_IS_WINDOW (window), FALSE);
  g_return_val_if_fail (content == SEISMO_EXPORT_CONTENT_HISTOGRAM || content == SEISMO_EXPORT_CONTENT_STATS
                        || content == SEISMO_EXPORT_CONTENT_FLAME_GRAPH, FALSE);

  if (content == SEISMO_EXPORT_CONTENT_FLAME_GRAPH)
    {
      SeismoFlameGraphView *view = seismo_window_get_flame_graph_view (window);
      SeismoFlameGraph *graph = view != NULL ? seismo_flame_graph_view_get_graph (view) : NULL;

      if (csv)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("%s: the flame graph exports as PNG, SVG or PDF"), path);
          return FALSE;
        }
      if (graph == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: the pane has nothing to export yet"), path);
          return FALSE;
        }
      return seismo_flame_graph_export_to_file (graph, format, CLAMP (width, 200, SEISMO_TIMELINE_EXPORT_MAX_SIZE),
                                                NULL, path, error);
    }

  histogram = seismo_window_get_histogram_view (window);
  stats = seismo_window_get_stats_view (window);
  if ((content == SEISMO_EXPORT_CONTENT_HISTOGRAM && histogram == NULL)
      || (content == SEISMO_EXPORT_CONTENT_STATS && stats == NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("%s: that pane is not available"), path);
      return FALSE;
    }
  if (csv)
    {
      g_autofree char *text = content == SEISMO_EXPORT_CONTENT_HISTOGRAM
                              ? seismo_histogram_view_to_csv (histogram)
                              : seismo_stats_view_to_csv (stats, seismo_stats_view_get_table (stats));

      if (text == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: the pane has nothing to export yet"), path);
          return FALSE;
        }
      return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
    }

  width = CLAMP (width, 100, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
  height = CLAMP (height, 100, SEISMO_TIMELINE_EXPORT_MAX_SIZE);
  scale = CLAMP (scale, 0.1, SEISMO_TIMELINE_EXPORT_MAX_SCALE);
  if (format == SEISMO_IMAGE_FORMAT_SVG)
    {
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, width, height);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      scale = 1;
    }
  else if (format == SEISMO_IMAGE_FORMAT_PNG)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (width * scale), (int) (height * scale));
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: panes are exported as PNG, SVG or CSV"), path);
      return FALSE;
    }
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  if (content == SEISMO_EXPORT_CONTENT_HISTOGRAM)
    seismo_histogram_view_render (histogram, cr, width, height, FALSE);
  else
    seismo_stats_view_render (stats, seismo_stats_view_get_table (stats), cr, width, height, FALSE);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == SEISMO_IMAGE_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: could not draw the pane: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return g_file_set_contents_full (path, (const char *) bytes->data, bytes->len,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

/* Dialog */

static SeismoExportContent
get_content (SeismoExportDialog *self)
{
  return (SeismoExportContent) adw_combo_row_get_selected (self->what_row);
}

static void
on_what_changed (SeismoExportDialog *self)
{
  SeismoExportContent content = get_content (self);
  guint format = adw_combo_row_get_selected (self->format_row);
  gboolean timeline = content == SEISMO_EXPORT_CONTENT_TIMELINE;
  gboolean flame = content == SEISMO_EXPORT_CONTENT_FLAME_GRAPH;
  gboolean ok = timeline || flame ? format != FORMAT_CSV : format != FORMAT_PDF;

  gtk_widget_set_sensitive (GTK_WIDGET (self->timeline_group), timeline);
  gtk_widget_set_sensitive (self->export_button, ok);
  gtk_widget_set_tooltip_text (self->export_button,
                               ok ? NULL : timeline ? _("The timeline exports as PNG, SVG or PDF")
                                         : flame ? _("The flame graph exports as PNG, SVG or PDF")
                                                 : _("Panes export as PNG, SVG or CSV"));
}

static const char *
format_extension (guint format)
{
  static const char *const ext[] = { "png", "svg", "pdf", "csv" };

  return ext[MIN (format, G_N_ELEMENTS (ext) - 1)];
}

static void
on_file_response (GtkNativeDialog    *chooser,
                  int                 response,
                  SeismoExportDialog *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  guint format;
  gboolean ok;

  if (response != GTK_RESPONSE_ACCEPT)
    {
      g_object_unref (chooser);
      return;
    }
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  format = adw_combo_row_get_selected (self->format_row);
  if ((path = g_file_get_path (file)) == NULL)
    {
      _seismo_window_toast (self->window, _("Only files on this computer can be written"));
      return;
    }
  if (!g_str_has_suffix (path, format_extension (format)))
    {
      char *fixed = g_strconcat (path, ".", format_extension (format), NULL);

      g_free (path);
      path = fixed;
    }

  if (get_content (self) == SEISMO_EXPORT_CONTENT_TIMELINE)
    {
      SeismoTimelineExportOptions o = {
        .format = format == FORMAT_SVG ? SEISMO_IMAGE_FORMAT_SVG
                  : format == FORMAT_PDF ? SEISMO_IMAGE_FORMAT_PDF : SEISMO_IMAGE_FORMAT_PNG,
        .width = gtk_spin_button_get_value_as_int (self->width_spin),
        .height = gtk_spin_button_get_value_as_int (self->height_spin),
        .scale = gtk_spin_button_get_value (self->scale_spin),
        .title = gtk_editable_get_text (GTK_EDITABLE (self->title_row)),
        .legend = gtk_switch_get_active (self->legend_switch),
      };

      if (o.height > 0 && o.height <= SEISMO_TIMELINE_RULER_HEIGHT)
        o.height = SEISMO_TIMELINE_RULER_HEIGHT + 1;
      ok = seismo_export_timeline_figure (seismo_window_get_timeline (self->window),
                                          (SeismoExportSpan) adw_combo_row_get_selected (self->range_row),
                                          gtk_editable_get_text (GTK_EDITABLE (self->rows_row)),
                                          &o, path, &error);
    }
  else
    ok = seismo_export_pane (self->window, get_content (self),
                             format == FORMAT_SVG ? SEISMO_IMAGE_FORMAT_SVG
                             : format == FORMAT_PDF ? SEISMO_IMAGE_FORMAT_PDF : SEISMO_IMAGE_FORMAT_PNG,
                             format == FORMAT_CSV, gtk_spin_button_get_value_as_int (self->width_spin),
                             MAX (gtk_spin_button_get_value_as_int (self->height_spin), 600),
                             gtk_spin_button_get_value (self->scale_spin), path, &error);
  if (!ok)
    {
      /* Keep the dialog: the user may fix the rows or the size and try again. */
      _seismo_window_show_error (self->window, _("Could not export"), error->message);
      return;
    }
  {
    g_autofree char *name = g_path_get_basename (path);
    g_autofree char *text = g_strdup_printf (_("Exported “%s”"), name);

    _seismo_window_toast (self->window, text);
  }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_export_clicked (SeismoExportDialog *self)
{
  GtkFileChooserNative *chooser;
  guint format = adw_combo_row_get_selected (self->format_row);
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  SeismoExportContent content = get_content (self);

  chooser = gtk_file_chooser_native_new (_("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  if (self->window->file != NULL)
    {
      g_autofree char *trace_name = g_file_get_basename (self->window->file);
      char *dot = strrchr (trace_name, '.');

      if (dot != NULL && dot != trace_name)
        *dot = '\0';
      base = g_steal_pointer (&trace_name);
    }
  name = g_strdup_printf ("%s%s.%s", base != NULL ? base : "trace",
                          content == SEISMO_EXPORT_CONTENT_HISTOGRAM ? "-histogram"
                          : content == SEISMO_EXPORT_CONTENT_STATS ? "-statistics"
                          : content == SEISMO_EXPORT_CONTENT_FLAME_GRAPH ? "-flamegraph" : "",
                          format_extension (format));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (on_file_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
seismo_export_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SEISMO_TYPE_EXPORT_DIALOG);
  G_OBJECT_CLASS (seismo_export_dialog_parent_class)->dispose (object);
}

static void
seismo_export_dialog_class_init (SeismoExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_export_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/seismo/Seismo/seismo-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, what_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, format_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, timeline_group);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, range_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, rows_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, title_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, legend_switch);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, scale_spin);
  gtk_widget_class_bind_template_child (widget_class, SeismoExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, on_export_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_what_changed);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
seismo_export_dialog_init (SeismoExportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * seismo_export_dialog_new:
 * @window: the window whose timeline and panes are exported
 *
 * Returns: (transfer none): a new dialog, transient for window; present it
 */
GtkWidget *
seismo_export_dialog_new (SeismoWindow *window)
{
  SeismoExportDialog *self;
  SeismoTimelineRenderer *r;

  g_return_val_if_fail (SEISMO_IS_WINDOW (window), NULL);
  self = g_object_new (SEISMO_TYPE_EXPORT_DIALOG, "transient-for", window, NULL);
  self->window = window;
  r = seismo_timeline_get_renderer (seismo_window_get_timeline (window));
  if (r != NULL)
    {
      guint64 a, b;

      g_debug ("export: timeline drawn at %d × %d (widget %d × %d)", r->width, r->height,
               gtk_widget_get_width (GTK_WIDGET (seismo_window_get_timeline (window))),
               gtk_widget_get_height (GTK_WIDGET (seismo_window_get_timeline (window))));
      /* The window's size by default: the figure is then what is on screen. */
      gtk_spin_button_set_value (self->width_spin, r->width);
      gtk_spin_button_set_value (self->height_spin, r->height);
      if (seismo_timeline_renderer_get_range (r, &a, &b))
        adw_combo_row_set_selected (self->range_row, SEISMO_EXPORT_SPAN_RANGE);
    }
  /* A flame graph on screen is what a slide is wanted of. */
  if (g_strcmp0 (seismo_window_get_pane (window), "flamegraph") == 0
      && seismo_flame_graph_view_get_graph (seismo_window_get_flame_graph_view (window)) != NULL)
    {
      adw_combo_row_set_selected (self->what_row, SEISMO_EXPORT_CONTENT_FLAME_GRAPH);
      adw_combo_row_set_selected (self->format_row, FORMAT_SVG);
    }
  on_what_changed (self);
  return GTK_WIDGET (self);
}

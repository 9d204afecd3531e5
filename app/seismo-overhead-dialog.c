/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "seismo-backend.h"
#include "seismo-gl-env.h"
#include "seismo-overhead-dialog.h"
#include "seismo-timeline-renderer.h"

#define DEFAULT_COMMAND "dd if=/dev/zero of=/dev/null bs=512 count=20000"

/* One row of the chart: a line of compare-overhead's "results". */
typedef struct {
  char    *name;
  char    *problem;     /* unavailable or failed: why; NULL when measured */
  double   slowdown;
  guint64  wall_ns;
  guint64  events;
  guint64  lost;
} Bar;

struct _SeismoOverheadDialog
{
  AdwWindow     parent_instance;

  /* template widgets */
  GtkEntry     *command_entry;
  GtkSpinButton *runs_spin;
  GtkButton    *run_button;
  GtkDrawingArea *chart;
  GtkSpinner   *spinner;
  GtkLabel     *status;

  /* owned */
  GArray       *bars;
  GSubprocess  *process;
  GCancellable *cancellable;
  char         *command_line;   /* of the result shown */
};

G_DEFINE_FINAL_TYPE (SeismoOverheadDialog, seismo_overhead_dialog, ADW_TYPE_WINDOW)

static void
bar_clear (gpointer data)
{
  Bar *bar = data;

  g_free (bar->name);
  g_free (bar->problem);
}

/* $SEISMO_CLI (tests), else seismo-cli beside this program (the build tree, or the same
 * prefix), else on $PATH. */
static char *
find_cli (void)
{
  const char *env = g_getenv ("SEISMO_CLI");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  g_autofree char *beside = dir != NULL ? g_build_filename (dir, "seismo-cli", NULL) : NULL;
  g_autofree char *installed = g_build_filename (SEISMO_BINDIR, "seismo-cli", NULL);

  if (env != NULL && g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (env);
  if (beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&beside);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  return g_find_program_in_path ("seismo-cli");
}

/* Drawing */

/* The untraced run's, then one per backend in the order of the backend table. */
static const GdkRGBA bar_colors[] = {
  { 0.55, 0.55, 0.58, 1 },  /* bare */
  { 0.88, 0.27, 0.22, 1 },
  { 0.21, 0.52, 0.89, 1 },
  { 0.18, 0.67, 0.38, 1 },
  { 0.93, 0.60, 0.13, 1 },
  { 0.57, 0.35, 0.80, 1 },
};

/* A bar's backend, by the name the run reported; NULL for the untraced run. */
static const SeismoBackend *
bar_backend (const char *name,
             guint      *index)
{
  const SeismoBackend *const *backends = seismo_backends_get (NULL);

  for (guint i = 0; backends[i] != NULL; i++)
    if (g_str_equal (backends[i]->name, name))
      {
        *index = i;
        return backends[i];
      }
  return NULL;
}

static const GdkRGBA *
color_for (const char *name)
{
  guint i;

  if (bar_backend (name, &i) == NULL)
    return &bar_colors[0];
  return &bar_colors[1 + i % (G_N_ELEMENTS (bar_colors) - 1)];
}

static const char *
display_name (const char *name)
{
  const SeismoBackend *backend;
  guint i;

  if (g_str_equal (name, "bare"))
    return _("bare");
  backend = bar_backend (name, &i);
  return backend != NULL && backend->display_name != NULL ? backend->display_name : name;
}

static void
show_text (GtkWidget     *widget,
           cairo_t       *cr,
           double         x,
           double         y,
           const char    *text,
           gboolean       bold,
           double         scale,
           const GdkRGBA *color,
           double         max_width)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_copy (pango_context_get_font_description (
                                 gtk_widget_get_pango_context (widget)));

  pango_font_description_set_size (font, (int) (pango_font_description_get_size (font) * scale));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  gdk_cairo_set_source_rgba (cr, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  SeismoOverheadDialog *self = user_data;
  GtkWidget *widget = GTK_WIDGET (area);
  const double label_w = 110, right_pad = 90;   /* room for the value after the longest bar */
  double top = 8, row_h, bar_h, max = 1.0, plot_w, step;
  GdkRGBA fg, dim;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  dim = fg;
  dim.alpha = 0.55;
  if (self->bars->len == 0)
    {
      show_text (widget, cr, 0, height / 2.0 - 10,
                 _("Press Measure: the bars show how many times slower the command runs under each tracer."),
                 FALSE, 1.0, &dim, width);
      return;
    }
  for (guint i = 0; i < self->bars->len; i++)
    max = MAX (max, g_array_index (self->bars, Bar, i).slowdown);
  /* Round the scale up to a readable end, so the longest bar does not touch the edge. */
  max = max <= 2 ? 2 : max <= 5 ? 5 : max <= 10 ? 10 : ceil (max / 10) * 10;
  step = max <= 2 ? 0.5 : max <= 5 ? 1 : max <= 10 ? 2 : max <= 50 ? 10 : ceil (max / 50) * 10;
  plot_w = MAX (width - label_w - right_pad, 50);
  row_h = MIN ((height - top - 24) / self->bars->len, 90);
  bar_h = row_h * 0.42;

  /* Grid: 1× (as fast as the bare run), then round steps. */
  for (double v = 1; v <= max + step / 2; v = v == 1 && step > 1 ? step : v + step)
    {
      double x = label_w + plot_w * v / max;
      g_autofree char *tick = g_strdup_printf ("%g×", v);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, v == 1 ? 0.5 : 0.12);
      cairo_rectangle (cr, floor (x), top, 1, row_h * self->bars->len);
      cairo_fill (cr);
      show_text (widget, cr, x - 8, top + row_h * self->bars->len + 4, tick, FALSE, 0.85, &dim, 0);
    }

  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      double y = top + i * row_h;
      const GdkRGBA *c = color_for (bar->name);

      show_text (widget, cr, 0, y + 2, display_name (bar->name), TRUE, 1.15, &fg, label_w - 8);
      if (bar->problem != NULL)
        {
          show_text (widget, cr, label_w, y + 4, bar->problem, FALSE, 1.0, &dim, plot_w);
          continue;
        }
      {
        double w = MAX (plot_w * bar->slowdown / max, 2);
        g_autofree char *value = g_strdup_printf ("%.2f×", bar->slowdown);
        g_autofree char *wall = seismo_format_duration ((double) bar->wall_ns);
        g_autofree char *detail = NULL;

        gdk_cairo_set_source_rgba (cr, c);
        cairo_rectangle (cr, label_w, y + 2, w, bar_h);
        cairo_fill (cr);
        show_text (widget, cr, label_w + w + 6, y + 2 + bar_h / 2 - 10, value, TRUE, 1.15, &fg, 0);
        if (g_str_equal (bar->name, "bare"))
          /* TRANSLATORS: under the bar of the untraced run: its wall time */
          detail = g_strdup_printf (_("%s, not traced"), wall);
        else
          /* TRANSLATORS: under a tracer's bar: wall time, events recorded, events lost */
          {
            g_autofree char *events = g_strdup_printf ("%'" G_GUINT64_FORMAT, bar->events);
            g_autofree char *lost = g_strdup_printf ("%'" G_GUINT64_FORMAT, bar->lost);

            detail = g_strdup_printf (_("%s · %s events captured · %s lost"), wall, events, lost);
          }
        show_text (widget, cr, label_w, y + 4 + bar_h, detail, FALSE, 0.95,
                   bar->lost > 0 ? &(GdkRGBA) { 0.88, 0.27, 0.22, 1 } : &dim, plot_w);
      }
    }
}

/* Results */

static gboolean
parse_results (SeismoOverheadDialog  *self,
               const char            *json,
               GError               **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  g_autoptr(GString) command = g_string_new (NULL);
  JsonObject *root;
  JsonArray *results, *argv;

  g_array_set_clear_func (bars, bar_clear);
  if (!json_parser_load_from_data (parser, json, -1, error))
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))
      || (root = json_node_get_object (json_parser_get_root (parser))) == NULL
      || !json_object_has_member (root, "results")
      || (results = json_object_get_array_member (root, "results")) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("seismo-cli compare-overhead printed no “results”"));
      return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);
      Bar bar = { 0 };

      if (r == NULL || !json_object_has_member (r, "name"))
        continue;
      bar.name = g_strdup (json_object_get_string_member (r, "name"));
      if (!json_object_get_boolean_member_with_default (r, "available", TRUE))
        bar.problem = g_strdup_printf (_("not available: %s"),
                                       json_object_get_string_member_with_default (r, "reason", "?"));
      else if (!json_object_get_boolean_member_with_default (r, "ok", TRUE))
        bar.problem = g_strdup_printf (_("failed: %s"),
                                       json_object_get_string_member_with_default (r, "error", "?"));
      else if (!json_object_has_member (r, "slowdown"))
        bar.problem = g_strdup (_("no run finished"));
      else
        {
          bar.slowdown = json_object_get_double_member (r, "slowdown");
          bar.wall_ns = json_object_get_int_member_with_default (r, "wall_ns_median", 0);
          bar.events = json_object_get_int_member_with_default (r, "events", 0);
          bar.lost = json_object_get_int_member_with_default (r, "lost_events", 0);
        }
      g_array_append_val (bars, bar);
    }
  if (json_object_has_member (root, "command")
      && (argv = json_object_get_array_member (root, "command")) != NULL)
    for (guint i = 0; i < json_array_get_length (argv); i++)
      {
        const char *arg = json_array_get_string_element (argv, i);
        /* Quotes only where a shell needs them, so the line reads as typed. */
        g_autofree char *quoted = arg[0] != '\0' && arg[strspn (arg, "abcdefghijklmnopqrstuvwxyz"
                                                                     "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                     "0123456789_./=:,+-%@")] == '\0'
                                  ? g_strdup (arg) : g_shell_quote (arg);

        if (i > 0)
          g_string_append_c (command, ' ');
        g_string_append (command, quoted);
      }
  g_clear_pointer (&self->bars, g_array_unref);
  self->bars = g_steal_pointer (&bars);
  g_free (self->command_line);
  self->command_line = g_string_free (g_steal_pointer (&command), FALSE);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));
  return TRUE;
}

gboolean
seismo_overhead_dialog_show_json (SeismoOverheadDialog  *self,
                                  const char            *json,
                                  GError               **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (SEISMO_IS_OVERHEAD_DIALOG (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);

  if (!parse_results (self, json, error))
    return FALSE;
  /* TRANSLATORS: under the chart; %s is the command that was measured */
  text = g_strdup_printf (_("Measured: %s. Each bar is the median wall time of the command under "
                            "that tracer, divided by its median wall time untraced."),
                          self->command_line);
  gtk_label_set_text (self->status, text);
  return TRUE;
}

static void
set_busy (SeismoOverheadDialog *self,
          gboolean              busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_button_set_label (self->run_button, busy ? _("_Stop") : _("_Measure"));
  /* Focus leaves the entry before it goes insensitive (GTK 4.8 warns otherwise). */
  if (busy)
    gtk_widget_grab_focus (GTK_WIDGET (self->run_button));
  gtk_widget_set_sensitive (GTK_WIDGET (self->command_entry), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->runs_spin), !busy);
}

static void
communicate_done (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(SeismoOverheadDialog) self = user_data;
  GSubprocess *process = G_SUBPROCESS (source);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_communicate_utf8_finish (process, result, &out, &err, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->status, error->message);
      else
        gtk_label_set_text (self->status, _("Stopped."));
      if (process == self->process)
        {
          g_clear_object (&self->process);
          set_busy (self, FALSE);
        }
      return;
    }
  if (process != self->process)
    return;
  g_clear_object (&self->process);
  set_busy (self, FALSE);
  if (!g_subprocess_get_successful (process) || out == NULL || out[0] == '\0')
    {
      g_autofree char *message = NULL;

      g_strstrip (err);
      message = g_strdup_printf (_("The measurement failed: %s"),
                                 err != NULL && err[0] != '\0' ? err
                                                               : _("seismo-cli ended with an error"));
      gtk_label_set_text (self->status, message);
      return;
    }
  if (!seismo_overhead_dialog_show_json (self, out, &error))
    gtk_label_set_text (self->status, error->message);
}

void
seismo_overhead_dialog_run (SeismoOverheadDialog *self)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) command = NULL;
  g_autofree char *cli = NULL;
  g_autofree char *running = NULL;
  const char *text;

  g_return_if_fail (SEISMO_IS_OVERHEAD_DIALOG (self));
  if (self->process != NULL)
    return;
  text = gtk_editable_get_text (GTK_EDITABLE (self->command_entry));
  if (!g_shell_parse_argv (text, NULL, &command, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The command cannot be read: %s"), error->message);

      gtk_label_set_text (self->status, message);
      return;
    }
  if ((cli = find_cli ()) == NULL)
    {
      gtk_label_set_text (self->status, _("seismo-cli, the program that measures, was not found."));
      return;
    }
  /* Two of the three backends need administrator rights; the window itself never has them. */
  if (geteuid () != 0)
    {
      char *pkexec = g_find_program_in_path ("pkexec");

      if (pkexec == NULL)
        {
          gtk_label_set_text (self->status, _("Tracing needs administrator rights, and pkexec "
                                              "(polkit) is not installed to ask for them."));
          return;
        }
      g_ptr_array_add (argv, pkexec);
    }
  g_ptr_array_add (argv, g_steal_pointer (&cli));
  g_ptr_array_add (argv, g_strdup ("compare-overhead"));
  g_ptr_array_add (argv, g_strdup ("--json"));
  g_ptr_array_add (argv, g_strdup ("--runs"));
  g_ptr_array_add (argv, g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (self->runs_spin)));
  g_ptr_array_add (argv, g_strdup ("--"));
  for (guint i = 0; command[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (command[i]));
  g_ptr_array_add (argv, NULL);

  {
    /* The program measured runs in the user's environment. */
    g_autoptr(GSubprocessLauncher) launcher =
      seismo_gl_env_new_launcher (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);

    self->process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                                  &error);
  }
  if (self->process == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      return;
    }
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_subprocess_communicate_utf8_async (self->process, NULL, self->cancellable, communicate_done,
                                       g_object_ref (self));
  set_busy (self, TRUE);
  running = g_strdup_printf (_("Running “%s” bare, then under ptrace, ftrace and eBPF, %d times "
                               "each…"), text, gtk_spin_button_get_value_as_int (self->runs_spin));
  gtk_label_set_text (self->status, running);
}

static void
stop (SeismoOverheadDialog *self)
{
  if (self->process == NULL)
    return;
  /* SIGINT: compare-overhead stops its recorder and removes what it set up. */
  g_subprocess_send_signal (self->process, SIGINT);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
on_run_clicked (SeismoOverheadDialog *self)
{
  if (self->process != NULL)
    stop (self);
  else
    seismo_overhead_dialog_run (self);
}

guint
seismo_overhead_dialog_get_n_rows (SeismoOverheadDialog *self,
                                   guint                *n_measured)
{
  guint measured = 0;

  g_return_val_if_fail (SEISMO_IS_OVERHEAD_DIALOG (self), 0);
  for (guint i = 0; i < self->bars->len; i++)
    measured += g_array_index (self->bars, Bar, i).problem == NULL;
  if (n_measured != NULL)
    *n_measured = measured;
  return self->bars->len;
}

gboolean
seismo_overhead_dialog_get_busy (SeismoOverheadDialog *self)
{
  g_return_val_if_fail (SEISMO_IS_OVERHEAD_DIALOG (self), FALSE);
  return self->process != NULL;
}

static gboolean
seismo_overhead_dialog_close_request (GtkWindow *window)
{
  stop (SEISMO_OVERHEAD_DIALOG (window));
  return GTK_WINDOW_CLASS (seismo_overhead_dialog_parent_class)->close_request (window);
}

static void
seismo_overhead_dialog_dispose (GObject *object)
{
  SeismoOverheadDialog *self = SEISMO_OVERHEAD_DIALOG (object);

  stop (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_OVERHEAD_DIALOG);
  g_clear_object (&self->process);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->bars, g_array_unref);
  g_clear_pointer (&self->command_line, g_free);
  G_OBJECT_CLASS (seismo_overhead_dialog_parent_class)->dispose (object);
}

static void
seismo_overhead_dialog_class_init (SeismoOverheadDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = seismo_overhead_dialog_dispose;
  window_class->close_request = seismo_overhead_dialog_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/seismo/Seismo/seismo-overhead-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoOverheadDialog, command_entry);
  gtk_widget_class_bind_template_child (widget_class, SeismoOverheadDialog, runs_spin);
  gtk_widget_class_bind_template_child (widget_class, SeismoOverheadDialog, run_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoOverheadDialog, chart);
  gtk_widget_class_bind_template_child (widget_class, SeismoOverheadDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, SeismoOverheadDialog, status);
  gtk_widget_class_bind_template_callback (widget_class, seismo_overhead_dialog_run);
  gtk_widget_class_bind_template_callback (widget_class, on_run_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
seismo_overhead_dialog_init (SeismoOverheadDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  g_array_set_clear_func (self->bars, bar_clear);
  gtk_editable_set_text (GTK_EDITABLE (self->command_entry), DEFAULT_COMMAND);
  gtk_drawing_area_set_draw_func (self->chart, draw_chart, self, NULL);
  set_busy (self, FALSE);
  gtk_label_set_text (self->status, _("The default command copies 10 MB in 512-byte pieces: "
                                      "40 000 system calls, the worst case for ptrace."));
}

/**
 * seismo_overhead_dialog_new:
 * @parent: the window it belongs to
 *
 * Returns: (transfer none): a new dialog, not yet shown
 */
SeismoOverheadDialog *
seismo_overhead_dialog_new (GtkWindow *parent)
{
  return g_object_new (SEISMO_TYPE_OVERHEAD_DIALOG, "transient-for", parent, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-filter.h"
#include "seismo-importer.h"

#ifdef SEISMO_HAVE_RENDER
#include "seismo-flame-graph-trace.h"
#include "seismo-session-timeline.h"
#include "seismo-timeline-export.h"
#endif

static const char *const render_description =
  N_("Draws the timeline of FILE (any format Seismo reads) as an SVG, PDF or PNG figure, with the\n"
     "same drawing code as the window: time axis, rows, markers, notes and a legend of the task\n"
     "colors. OUT's extension picks the format.\n"
     "\n"
     "Times (--from, --to, --markers) are relative to the trace start and take units: 1500 (ns),\n"
     "250us, 1.5ms, 2s.\n"
     "\n"
     "--rows takes a comma-separated list of:\n"
     "  all          every row (the default)\n"
     "  cpus         the CPU rows\n"
     "  cpuN, cpu:N  CPU N\n"
     "  tasks        every process and task\n"
     "  task:TID     the task with that thread id\n"
     "  pid:PID      the process with that pid, all its threads\n"
     "  comm:GLOB    tasks whose command name matches GLOB (* and ?)\n"
     "\n"
     "When FILE.seismo-session exists (or FILE is a bundle carrying a session), its notes, markers,\n"
     "range, hidden and pinned rows and selected event are drawn, and its zoom range is used unless\n"
     "--from or --to is given; --no-session ignores it.\n"
     "\n"
     "--flamegraph draws, instead of the timeline, a flame graph of the call stacks of the events\n"
     "(of those --filter keeps, between --from and --to) as the Flame Graph pane does; --weight\n"
     "count|time weighs each event as one or by its time (syscall duration, time off CPU),\n"
     "--off-cpu draws where tasks slept (sched_switch stacks by time off CPU), --icicle puts the\n"
     "root at the top.\n"
     "\n"
     "Example: seismo-cli render trace.seismo -o fig.svg --from 1ms --to 3ms --rows cpus,comm:bash\n"
     "         seismo-cli render trace.seismo --flamegraph -o fg.svg --filter 'syscall == write'");

#ifdef SEISMO_HAVE_RENDER

typedef struct {
  const char        *output;
  SeismoImageFormat  format;
  const char        *filter;
  const char        *title;
  int                width;
  gboolean           dark;
  gboolean           icicle;
  gboolean           off_cpu;
  SeismoFlameWeight  weight;
  guint64            from;     /* absolute; 0 */
  guint64            to;       /* absolute; G_MAXUINT64 */
} FlameOptions;

static int
render_flamegraph (SeismoTrace        *trace,
                   const FlameOptions *o)
{
  g_autofree guint64 *mask = NULL;
  g_autoptr(SeismoFlameGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  SeismoSelection sel;
  gsize n_matched = 0, n_events = 0;

  if (!seismo_trace_has_stacks (trace))
    {
      g_printerr (_("seismo-cli render: this trace has no call stacks: record with --stacks "
                    "(or import strace -k output or ftrace stack traces)\n"));
      return SEISMO_EXIT_FAILED;
    }
  if (!seismo_cli_run_filter (trace, o->filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel = (SeismoSelection) { o->from, o->to, mask };
  graph = seismo_flame_graph_new_for_trace (trace, &sel,
                                            o->off_cpu ? SEISMO_FLAME_SOURCE_OFF_CPU : SEISMO_FLAME_SOURCE_EVENTS,
                                            o->weight, &n_events, NULL);
  if (graph == NULL)
    {
      g_printerr (o->weight == SEISMO_FLAME_WEIGHT_TIME
                  ? _("seismo-cli render: no selected event with a call stack has a time to weigh by\n")
                  : _("seismo-cli render: no selected event has a call stack\n"));
      return SEISMO_EXIT_FAILED;
    }
  seismo_flame_graph_set_icicle (graph, o->icicle);
  seismo_flame_graph_set_dark (graph, o->dark);
  if (!seismo_flame_graph_export_to_file (graph, o->format, o->width, o->title, o->output, &error))
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  return SEISMO_EXIT_OK;
}

static gboolean
parse_time (const char *option,
            const char *text,
            guint64    *ns)
{
  g_autoptr(GError) error = NULL;

  if (text[0] == '+')
    text++;
  if (!seismo_filter_parse_quantity (text, ns, &error))
    {
      g_printerr (_("seismo-cli render: %s takes a time like 1500, 250us, 1.5ms or 2s: %s\n"),
                  option, error->message);
      return FALSE;
    }
  return TRUE;
}

int
seismo_cli_render (int    argc,
                   char **argv)
{
  g_autofree char *output = NULL, *from = NULL, *to = NULL, *rows = NULL, *title = NULL;
  g_autofree char *markers = NULL;
  gint width = 1600, height = 0;
  double scale = 1.0;
  gboolean no_legend = FALSE, no_session = FALSE, dark = FALSE;
  gboolean flamegraph = FALSE, off_cpu = FALSE, icicle = FALSE;
  g_autofree char *arch = NULL, *filter = NULL, *weight = NULL;
  GOptionEntry entries[] = {
    SEISMO_CLI_ARCH_ENTRY (arch),
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the figure to OUT (.svg, .pdf or .png)"), "OUT" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("Start of the time range shown (default: trace start)"), "T" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("End of the time range shown (default: trace end)"), "T" },
    { "rows", 0, 0, G_OPTION_ARG_STRING, &rows, N_("Rows to show (see below)"), "LIST" },
    { "width", 'w', 0, G_OPTION_ARG_INT, &width, N_("Width of the figure in pixels (default 1600)"), "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, N_("Height of the timeline part (default: all rows)"), "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, N_("Pixels per unit: 2 for a sharp PNG on hi-dpi (default 1)"), "S" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title, N_("A title above the timeline"), "TEXT" },
    { "markers", 0, 0, G_OPTION_ARG_STRING, &markers, N_("Place marker A (and B) at these times"), "TA[,TB]" },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &no_legend, N_("Leave out the legend"), NULL },
    { "no-session", 0, 0, G_OPTION_ARG_NONE, &no_session, N_("Ignore FILE.seismo-session"), NULL },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, N_("Dark colors"), NULL },
    { "flamegraph", 0, 0, G_OPTION_ARG_NONE, &flamegraph, N_("Draw a flame graph of the call stacks instead of the timeline"), NULL },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &filter, N_("With --flamegraph: only the events this filter keeps"), "EXPR" },
    { "weight", 0, 0, G_OPTION_ARG_STRING, &weight, N_("With --flamegraph: weigh events by count (default) or time"), "count|time" },
    { "off-cpu", 0, 0, G_OPTION_ARG_NONE, &off_cpu, N_("With --flamegraph: where tasks slept, by time off CPU"), NULL },
    { "icicle", 0, 0, G_OPTION_ARG_NONE, &icicle, N_("With --flamegraph: the root at the top"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE -o OUT.svg|pdf|png"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  g_autoptr(SeismoTimelineRenderer) renderer = NULL;
  g_autoptr(SeismoSession) session = NULL;
  SeismoTimelineExportOptions options = { 0 };
  guint64 t0, t1, duration;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context, _(render_description));
  if (!seismo_cli_parse_options (context, &argc, &argv, "seismo-cli render"))
    return SEISMO_EXIT_USAGE;
  if (argc != 2 || output == NULL)
    {
      g_printerr (_("seismo-cli render: usage: seismo-cli render FILE -o OUT.svg|pdf|png [OPTIONS]\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (!seismo_image_format_from_path (output, &options.format, &error))
    {
      g_printerr (_("seismo-cli render: %s\n"), error->message);
      return SEISMO_EXIT_USAGE;
    }
  if (width < SEISMO_TIMELINE_EXPORT_MIN_WIDTH || width > SEISMO_TIMELINE_EXPORT_MAX_SIZE
      || (height != 0 && (height <= SEISMO_TIMELINE_RULER_HEIGHT || height > SEISMO_TIMELINE_EXPORT_MAX_SIZE))
      || !isfinite (scale) || scale < 0.1 || scale > SEISMO_TIMELINE_EXPORT_MAX_SCALE)
    {
      g_printerr (_("seismo-cli render: --width takes %d to %d, --height %d to %d, --scale 0.1 to %g\n"),
                  SEISMO_TIMELINE_EXPORT_MIN_WIDTH, SEISMO_TIMELINE_EXPORT_MAX_SIZE,
                  SEISMO_TIMELINE_RULER_HEIGHT + 1, SEISMO_TIMELINE_EXPORT_MAX_SIZE,
                  SEISMO_TIMELINE_EXPORT_MAX_SCALE);
      return SEISMO_EXIT_USAGE;
    }
  if ((from != NULL && !parse_time ("--from", from, &t0)) || (to != NULL && !parse_time ("--to", to, &t1)))
    return SEISMO_EXIT_USAGE;
  if (!flamegraph && (filter != NULL || weight != NULL || off_cpu || icicle))
    {
      g_printerr (_("seismo-cli render: --filter, --weight, --off-cpu and --icicle go with --flamegraph\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (flamegraph && (rows != NULL || markers != NULL || height != 0 || no_legend))
    {
      g_printerr (_("seismo-cli render: --rows, --markers, --height and --no-legend draw timelines, not --flamegraph\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (weight != NULL && !g_str_equal (weight, "count") && !g_str_equal (weight, "time"))
    {
      g_printerr (_("seismo-cli render: --weight takes count or time, not “%s”\n"), weight);
      return SEISMO_EXIT_USAGE;
    }

  trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  if (!seismo_cli_apply_arch (trace, arch, "seismo-cli render"))
    return SEISMO_EXIT_USAGE;
  if (flamegraph)
    {
      guint64 start = seismo_trace_get_start_ns (trace);
      FlameOptions fo = {
        .output = output, .format = options.format, .filter = filter, .title = title, .width = width,
        .dark = dark, .icicle = icicle, .off_cpu = off_cpu,
        /* Off the CPU, time is what matters; a count of switches says little. */
        .weight = (weight != NULL ? g_str_equal (weight, "time") : off_cpu) ? SEISMO_FLAME_WEIGHT_TIME
                                                                            : SEISMO_FLAME_WEIGHT_COUNT,
        .from = from != NULL ? start + t0 : 0,
        .to = to != NULL ? start + t1 : G_MAXUINT64,
      };

      if (from != NULL && to != NULL && t1 <= t0)
        {
          g_printerr (_("seismo-cli render: --to must be after --from\n"));
          return SEISMO_EXIT_USAGE;
        }
      return render_flamegraph (trace, &fo);
    }
  data = seismo_timeline_data_new (trace, NULL);
  renderer = seismo_timeline_renderer_new (data);
  seismo_timeline_renderer_set_dark (renderer, dark);
  seismo_timeline_renderer_set_size (renderer, width, MAX (height, 400));

  if (!no_session)
    {
      session = seismo_session_find_for_trace (trace, argv[1], &error);
      if (session == NULL && error != NULL)
        {
          /* A broken session must not stop a figure: say so and draw without it. */
          g_printerr (_("seismo-cli render: warning: %s (ignored)\n"), error->message);
          g_clear_error (&error);
        }
      if (session != NULL)
        seismo_session_apply_to_renderer (session, renderer, from == NULL && to == NULL);
    }

  duration = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);
  if (from != NULL || to != NULL)
    {
      guint64 start = seismo_trace_get_start_ns (trace);

      if (from == NULL)
        t0 = 0;
      if (to == NULL)
        t1 = MAX (duration, t0 + 1);
      if (t1 <= t0)
        {
          g_printerr (_("seismo-cli render: --to must be after --from\n"));
          return SEISMO_EXIT_USAGE;
        }
      seismo_timeline_renderer_zoom_to (renderer, start + t0, start + t1);
    }
  if (markers != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (markers, ",", 3);

      if (g_strv_length (parts) > 2 || parts[0] == NULL)
        {
          g_printerr (_("seismo-cli render: --markers takes one or two times: TA[,TB]\n"));
          return SEISMO_EXIT_USAGE;
        }
      for (guint m = 0; parts[m] != NULL; m++)
        {
          guint64 t;

          if (!parse_time ("--markers", g_strstrip (parts[m]), &t))
            return SEISMO_EXIT_USAGE;
          seismo_timeline_renderer_set_marker (renderer, m, seismo_trace_get_start_ns (trace) + t);
        }
    }
  if (rows != NULL && !seismo_timeline_export_select_rows (renderer, rows, &error))
    {
      g_printerr (_("seismo-cli render: %s\n"), error->message);
      return SEISMO_EXIT_USAGE;
    }

  options.width = width;
  options.height = height;
  options.scale = scale;
  options.title = title;
  options.legend = !no_legend;
  if (!seismo_timeline_export_to_file (renderer, &options, output, &error))
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  return SEISMO_EXIT_OK;
}

#else /* !SEISMO_HAVE_RENDER */

int
seismo_cli_render (int    argc,
                   char **argv)
{
  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      g_print (_("Usage: seismo-cli render FILE -o OUT.svg|pdf|png [OPTIONS]\n\n%s\n\n"), _(render_description));
      g_print (_("This seismo-cli was built without Cairo and Pango: render is not available.\n"));
      return SEISMO_EXIT_OK;
    }
  g_printerr (_("seismo-cli render: not built: this seismo-cli was built without Cairo and Pango "
                "(the gui option off); rebuild with them to draw figures\n"));
  return SEISMO_EXIT_FAILED;
}

#endif

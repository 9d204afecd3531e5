/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-cli.h"
#include "seismo-importer.h"
#include "seismo-stats.h"
#include "seismo-trace.h"

typedef struct {
  const char *name;
  const char *args;
  const char *summary;
  int       (*run) (int argc, char **argv);
} Command;

static void
print_progress (double   fraction,
                gpointer user_data)
{
  static gint64 last;
  gint64 now = g_get_monotonic_time ();

  if (now - last < 200000 && fraction < 1.0)
    return;
  last = now;
  g_printerr ("\r%s: %3.0f%%%s", (const char *) user_data, fraction * 100.0, fraction >= 1.0 ? "\n" : "");
}

/* Opens a trace of any format, with progress on a terminal. */
static SeismoTrace *
open_trace (const char *path)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;
  gboolean tty = isatty (STDERR_FILENO);

  trace = seismo_trace_open (path, NULL, tty ? print_progress : NULL, (gpointer) path, &error);
  if (tty)
    g_printerr ("\r\033[K");
  if (trace == NULL)
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return NULL;
    }
  if (seismo_trace_get_metadata (trace, "load_warning"))
    g_printerr ("seismo-cli: warning: %s\n", seismo_trace_get_metadata (trace, "load_warning"));
  return trace;
}

static gboolean
parse_options (GOptionContext  *context,
               int             *argc,
               char          ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

static void
print_json (JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

static char *
format_duration (guint64 ns)
{
  if (ns >= 1000000000ull)
    return g_strdup_printf ("%.3f s", ns / 1e9);
  if (ns >= 1000000ull)
    return g_strdup_printf ("%.3f ms", ns / 1e6);
  if (ns >= 1000ull)
    return g_strdup_printf ("%.3f µs", ns / 1e3);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}

static const char *
task_comm (SeismoTrace      *trace,
           const SeismoTask *task)
{
  return seismo_trace_get_string (trace, task->comm);
}

/* ---- info ---- */

static int
cmd_info (int    argc,
          char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - describe a trace");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) types = NULL;
  const char *format;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_options (context, &argc, &argv))
    return SEISMO_EXIT_USAGE;
  if (argc != 2)
    {
      g_printerr ("seismo-cli info: expected one FILE\n");
      return SEISMO_EXIT_USAGE;
    }
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  types = seismo_stats_by_type (trace, NULL);
  format = seismo_trace_get_metadata (trace, "format");

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      const char *const *keys = seismo_trace_get_metadata_keys (trace);
      guint n_lost;
      const SeismoLostEvents *lost = seismo_trace_get_lost_events (trace, &n_lost);
      gsize n_spans;

      seismo_trace_get_syscall_spans (trace, &n_spans);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "file");
      json_builder_add_string_value (b, argv[1]);
      json_builder_set_member_name (b, "format");
      json_builder_add_string_value (b, format ? format : "unknown");
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, seismo_trace_get_metadata (trace, SEISMO_META_SOURCE) ?: "");
      json_builder_set_member_name (b, "events");
      json_builder_add_int_value (b, seismo_trace_get_n_events (trace));
      json_builder_set_member_name (b, "cpus");
      json_builder_add_int_value (b, seismo_trace_get_n_cpus (trace));
      json_builder_set_member_name (b, "tasks");
      json_builder_add_int_value (b, seismo_trace_get_n_tasks (trace));
      json_builder_set_member_name (b, "start_ns");
      json_builder_add_int_value (b, seismo_trace_get_start_ns (trace));
      json_builder_set_member_name (b, "end_ns");
      json_builder_add_int_value (b, seismo_trace_get_end_ns (trace));
      json_builder_set_member_name (b, "duration_ns");
      json_builder_add_int_value (b, seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace));
      json_builder_set_member_name (b, "lost_events");
      json_builder_add_int_value (b, seismo_trace_get_n_lost_events (trace));
      json_builder_set_member_name (b, "lost_events_by_cpu");
      json_builder_begin_object (b);
      {
        g_autoptr(GHashTable) per_cpu = g_hash_table_new (NULL, NULL);
        g_autoptr(GList) cpus = NULL;

        for (guint l = 0; l < n_lost; l++)
          {
            gpointer key = GINT_TO_POINTER (lost[l].cpu);
            guint64 sum = GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, key)) + lost[l].count;

            g_hash_table_insert (per_cpu, key, GSIZE_TO_POINTER (sum));
          }
        cpus = g_hash_table_get_keys (per_cpu);
        for (GList *l = cpus; l; l = l->next)
          {
            g_autofree char *name = g_strdup_printf ("%d", GPOINTER_TO_INT (l->data));

            json_builder_set_member_name (b, name);
            json_builder_add_int_value (b, GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, l->data)));
          }
      }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "syscalls");
      json_builder_add_int_value (b, n_spans);
      json_builder_set_member_name (b, "event_types");
      json_builder_begin_object (b);
      for (guint i = 0; i < types->len; i++)
        {
          SeismoTypeStats *st = &g_array_index (types, SeismoTypeStats, i);

          json_builder_set_member_name (b, seismo_trace_get_event_type (trace, st->type_id)->full_name);
          json_builder_add_int_value (b, st->count);
        }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "metadata");
      json_builder_begin_object (b);
      for (guint i = 0; keys[i]; i++)
        {
          json_builder_set_member_name (b, keys[i]);
          json_builder_add_string_value (b, seismo_trace_get_metadata (trace, keys[i]));
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
      print_json (b);
    }
  else
    {
      guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);
      g_autofree char *dur = format_duration (span);
      const char *const *keys = seismo_trace_get_metadata_keys (trace);
      gsize n_spans;

      seismo_trace_get_syscall_spans (trace, &n_spans);
      g_print ("File:        %s\n", argv[1]);
      g_print ("Format:      %s\n", format ? format : "unknown");
      for (guint i = 0; keys[i]; i++)
        if (strcmp (keys[i], "format") != 0)
          g_print ("%-12s %s\n", keys[i], seismo_trace_get_metadata (trace, keys[i]));
      g_print ("Events:      %" G_GSIZE_FORMAT "\n", seismo_trace_get_n_events (trace));
      g_print ("Time span:   %s (%" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT " ns)\n", dur,
               seismo_trace_get_start_ns (trace), seismo_trace_get_end_ns (trace));
      g_print ("CPUs:        %u\n", seismo_trace_get_n_cpus (trace));
      g_print ("Tasks:       %u\n", seismo_trace_get_n_tasks (trace));
      g_print ("Syscalls:    %" G_GSIZE_FORMAT "\n", n_spans);
      g_print ("Lost events: %" G_GUINT64_FORMAT "\n", seismo_trace_get_n_lost_events (trace));
      g_print ("Event types:\n");
      for (guint i = 0; i < types->len; i++)
        {
          SeismoTypeStats *st = &g_array_index (types, SeismoTypeStats, i);

          g_print ("  %12" G_GUINT64_FORMAT "  %s\n", st->count,
                   seismo_trace_get_event_type (trace, st->type_id)->full_name);
        }
    }
  return SEISMO_EXIT_OK;
}

/* ---- report ---- */

static int
cmd_report (int    argc,
            char **argv)
{
  gint64 limit = -1;
  GOptionEntry entries[] = {
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, "Print at most N events", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - print events in time order");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GString) line = NULL;
  gsize n;
  const guint64 *ts;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_options (context, &argc, &argv))
    return SEISMO_EXIT_USAGE;
  if (argc != 2)
    {
      g_printerr ("seismo-cli report: expected one FILE\n");
      return SEISMO_EXIT_USAGE;
    }
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  n = seismo_trace_get_n_events (trace);
  if (limit >= 0 && (guint64) limit < n)
    n = limit;
  ts = seismo_trace_get_times (trace);
  line = g_string_sized_new (256);
  for (gsize i = 0; i < n; i++)
    {
      const SeismoTask *task = seismo_trace_event_task (trace, i);
      const SeismoEventType *type = seismo_trace_event_type (trace, i);
      const char *comm = seismo_trace_task_comm_at (trace, seismo_trace_get_tasks (trace)[i], ts[i]);

      g_string_set_size (line, 0);
      g_string_append_printf (line, "%16s-%-7d [%03u] %" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT ": %s: ",
                              *comm ? comm : task->tid == 0 ? "<idle>" : "<...>", task->tid, seismo_trace_event_cpu (trace, i),
                              (guint64) (ts[i] / G_GUINT64_CONSTANT (1000000000)),
                              (guint64) ((ts[i] % G_GUINT64_CONSTANT (1000000000)) / 1000), type->name);
      seismo_trace_event_format_into (trace, i, line);
      g_string_append_c (line, '\n');
      if (fwrite (line->str, 1, line->len, stdout) != line->len)
        return SEISMO_EXIT_FAILED;
    }
  return fflush (stdout) == 0 ? SEISMO_EXIT_OK : SEISMO_EXIT_FAILED;
}

/* ---- stats ---- */

static void
stats_syscalls (SeismoTrace *trace,
                gboolean     json)
{
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  guint64 total = 0, calls = 0, errors = 0;

  for (guint i = 0; i < stats->len; i++)
    {
      SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);

      total += st->total_ns;
      calls += st->calls;
      errors += st->errors;
    }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "syscalls");
      json_builder_begin_array (b);
      for (guint i = 0; i < stats->len; i++)
        {
          SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
          const struct { const char *k; guint64 v; } m[] = {
            { "calls", st->calls }, { "errors", st->errors }, { "total_ns", st->total_ns },
            { "avg_ns", st->avg_ns }, { "min_ns", st->min_ns }, { "max_ns", st->max_ns },
            { "p50_ns", st->p50_ns }, { "p90_ns", st->p90_ns }, { "p99_ns", st->p99_ns },
            { "unfinished", st->unfinished },
          };

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, st->name);
          for (guint k = 0; k < G_N_ELEMENTS (m); k++)
            {
              json_builder_set_member_name (b, m[k].k);
              json_builder_add_int_value (b, m[k].v);
            }
          json_builder_set_member_name (b, "percent_time");
          json_builder_add_double_value (b, total ? 100.0 * st->total_ns / total : 0.0);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "total_calls");
      json_builder_add_int_value (b, calls);
      json_builder_set_member_name (b, "total_errors");
      json_builder_add_int_value (b, errors);
      json_builder_set_member_name (b, "total_ns");
      json_builder_add_int_value (b, total);
      json_builder_end_object (b);
      print_json (b);
      return;
    }

  g_print ("%% time     seconds  usecs/call     calls    errors  max usecs syscall\n");
  g_print ("------ ----------- ----------- --------- --------- ---------- ----------------\n");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
      char errs[32] = "";

      if (st->calls == 0)
        continue;
      if (st->errors)
        g_snprintf (errs, sizeof errs, "%" G_GUINT64_FORMAT, st->errors);
      g_print ("%6.2f %11.6f %11" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %9s %10" G_GUINT64_FORMAT " %s\n",
               total ? 100.0 * st->total_ns / total : 0.0, st->total_ns / 1e9, st->avg_ns / 1000,
               st->calls, errs, st->max_ns / 1000, st->name);
    }
  g_print ("------ ----------- ----------- --------- --------- ---------- ----------------\n");
  g_print ("100.00 %11.6f %11" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %10s total\n",
           total / 1e9, calls ? total / calls / 1000 : 0, calls, errors, "");
}

static void
stats_tasks (SeismoTrace *trace,
             gboolean     json)
{
  g_autoptr(GArray) stats = seismo_stats_by_task (trace, NULL);
  g_autoptr(JsonBuilder) b = json ? json_builder_new () : NULL;

  if (json)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "tasks");
      json_builder_begin_array (b);
    }
  else
    g_print ("%8s %8s %-16s %10s %14s %9s %9s %9s\n", "TID", "PID", "COMM", "EVENTS", "CPU_NS",
             "SWITCHES", "WAKEUPS", "SYSCALLS");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoTaskStats *st = &g_array_index (stats, SeismoTaskStats, i);
      const SeismoTask *task = seismo_trace_get_task (trace, st->task);

      if (json)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "tid");
          json_builder_add_int_value (b, task->tid);
          json_builder_set_member_name (b, "pid");
          json_builder_add_int_value (b, task->pid);
          json_builder_set_member_name (b, "comm");
          json_builder_add_string_value (b, task_comm (trace, task));
          json_builder_set_member_name (b, "events");
          json_builder_add_int_value (b, st->events);
          json_builder_set_member_name (b, "cpu_ns");
          json_builder_add_int_value (b, st->cpu_ns);
          json_builder_set_member_name (b, "switches");
          json_builder_add_int_value (b, st->switches);
          json_builder_set_member_name (b, "wakeups");
          json_builder_add_int_value (b, st->wakeups);
          json_builder_set_member_name (b, "syscalls");
          json_builder_add_int_value (b, st->syscalls);
          json_builder_end_object (b);
        }
      else
        g_print ("%8d %8d %-16s %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
                 " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT "\n",
                 task->tid, task->pid, task_comm (trace, task), st->events, st->cpu_ns, st->switches,
                 st->wakeups, st->syscalls);
    }
  if (json)
    {
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
    }
}

static void
stats_cpus (SeismoTrace *trace,
            gboolean     json)
{
  g_autoptr(GArray) stats = seismo_stats_by_cpu (trace, NULL);
  g_autoptr(JsonBuilder) b = json ? json_builder_new () : NULL;
  guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);

  if (json)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "cpus");
      json_builder_begin_array (b);
    }
  else
    g_print ("%4s %10s %14s %7s %9s\n", "CPU", "EVENTS", "BUSY_NS", "BUSY%", "SWITCHES");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoCpuStats *st = &g_array_index (stats, SeismoCpuStats, i);
      double busy = span ? 100.0 * st->busy_ns / span : 0.0;

      if (json)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "cpu");
          json_builder_add_int_value (b, st->cpu);
          json_builder_set_member_name (b, "events");
          json_builder_add_int_value (b, st->events);
          json_builder_set_member_name (b, "busy_ns");
          json_builder_add_int_value (b, st->busy_ns);
          json_builder_set_member_name (b, "busy_percent");
          json_builder_add_double_value (b, busy);
          json_builder_set_member_name (b, "switches");
          json_builder_add_int_value (b, st->switches);
          json_builder_end_object (b);
        }
      else
        g_print ("%4u %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %6.2f%% %9" G_GUINT64_FORMAT "\n",
                 st->cpu, st->events, st->busy_ns, busy, st->switches);
    }
  if (json)
    {
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
    }
}

static void
stats_events (SeismoTrace *trace,
              gboolean     json)
{
  g_autoptr(GArray) stats = seismo_stats_by_type (trace, NULL);
  g_autoptr(JsonBuilder) b = json ? json_builder_new () : NULL;
  guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);

  if (json)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "event_types");
      json_builder_begin_array (b);
    }
  else
    g_print ("%12s %12s  %s\n", "COUNT", "PER_SECOND", "EVENT");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoTypeStats *st = &g_array_index (stats, SeismoTypeStats, i);
      const char *name = seismo_trace_get_event_type (trace, st->type_id)->full_name;
      double rate = span ? st->count * 1e9 / span : 0.0;

      if (json)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, name);
          json_builder_set_member_name (b, "count");
          json_builder_add_int_value (b, st->count);
          json_builder_set_member_name (b, "per_second");
          json_builder_add_double_value (b, rate);
          json_builder_end_object (b);
        }
      else
        g_print ("%12" G_GUINT64_FORMAT " %12.1f  %s\n", st->count, rate, name);
    }
  if (json)
    {
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
    }
}

static int
cmd_stats (int    argc,
           char **argv)
{
  g_autofree char *by = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by, "Group by event, task, cpu or syscall (default: event)", "KEY" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - count events, tasks, CPUs or syscalls");
  g_autoptr(SeismoTrace) trace = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!parse_options (context, &argc, &argv))
    return SEISMO_EXIT_USAGE;
  if (argc != 2)
    {
      g_printerr ("seismo-cli stats: expected one FILE\n");
      return SEISMO_EXIT_USAGE;
    }
  if (by != NULL && !g_strv_contains ((const char *[]) { "event", "task", "cpu", "syscall", NULL }, by))
    {
      g_printerr ("seismo-cli stats: --by takes event, task, cpu or syscall, not '%s'\n", by);
      return SEISMO_EXIT_USAGE;
    }
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  if (by == NULL || strcmp (by, "event") == 0)
    stats_events (trace, json);
  else if (strcmp (by, "task") == 0)
    stats_tasks (trace, json);
  else if (strcmp (by, "cpu") == 0)
    stats_cpus (trace, json);
  else
    stats_syscalls (trace, json);
  return SEISMO_EXIT_OK;
}

/* ---- convert ---- */

static int
cmd_convert (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("IN OUT - convert a trace (format from OUT's extension)");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  if (!parse_options (context, &argc, &argv))
    return SEISMO_EXIT_USAGE;
  if (argc != 3)
    {
      g_printerr ("seismo-cli convert: expected IN and OUT\n");
      return SEISMO_EXIT_USAGE;
    }
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;
  if (!seismo_trace_save (trace, argv[2], &error))
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  return SEISMO_EXIT_OK;
}

static const Command commands[] = {
  { "info", "FILE [--json]", "Describe a trace: source, events, span, CPUs, tasks, event types", cmd_info },
  { "report", "FILE [--limit N]", "Print events one per line in time order", cmd_report },
  { "stats", "FILE [--by event|task|cpu|syscall] [--json]", "Count events, tasks, CPUs or syscalls", cmd_stats },
  { "convert", "IN OUT", "Convert a trace; OUT's extension picks the format", cmd_convert },
  { "record", "-b BACKEND [options] -o FILE [-- CMD ARGS…]", "Record a trace (see record --help)", seismo_cli_record },
};

static void
usage (FILE *out)
{
  guint n;
  const SeismoImporter *const *importers = seismo_importers_get (&n);

  fprintf (out, "Usage: seismo-cli COMMAND [ARGS…]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %-46s %s\n", commands[i].name, commands[i].args, commands[i].summary);
  fprintf (out, "\nReads:");
  for (guint i = 0; importers[i]; i++)
    fprintf (out, "%s %s", i ? "," : "", importers[i]->description);
  fprintf (out, "\nRun 'seismo-cli COMMAND --help' for a command's options.\n");
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  seismo_backends_init ();

  if (argc < 2)
    {
      usage (stderr);
      return SEISMO_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return SEISMO_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("seismo-cli %s\n", PACKAGE_VERSION);
      return SEISMO_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        g_autofree char *prgname = g_strdup_printf ("seismo-cli %s", commands[i].name);

        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }
  g_printerr ("seismo-cli: unknown command '%s'\n\n", argv[1]);
  usage (stderr);
  return SEISMO_EXIT_USAGE;
}

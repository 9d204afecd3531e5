/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <json-glib/json-glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-cli-summary.h"
#include "seismo-filter.h"
#include "seismo-histogram.h"
#include "seismo-importer.h"
#include "seismo-skipped.h"
#include "seismo-stats.h"
#include "seismo-trace-builder.h"
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
  {
    g_autofree char *skipped = seismo_trace_describe_skipped (trace);

    if (skipped != NULL)
      g_printerr ("seismo-cli: warning: %s: %s (seismo-cli info lists them)\n", path, skipped);
  }
  return trace;
}

/* Parses the options of the trace commands (info, report, stats, convert, hist); FALSE, after
 * saying why, when they are wrong or the arguments left are not n_args (the command's name
 * included): a usage error. */
static gboolean
parse_command (GOptionContext      *context,
               const GOptionEntry  *entries,
               int                 *argc,
               char              ***argv,
               int                  n_args,
               const char          *wrong_args)
{
  g_option_context_add_main_entries (context, entries, NULL);
  if (!seismo_cli_parse_options (context, argc, argv, "seismo-cli"))
    return FALSE;
  if (*argc != n_args)
    {
      g_printerr ("%s\n", wrong_args);
      return FALSE;
    }
  return TRUE;
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

/* Prints a filter error with the expression and a caret line under the part it is about:
 *
 *   seismo-cli: bad filter: unknown field 'pdi' — did you mean 'pid'?
 *     pdi == 3
 *     ^^^
 */
static void
print_filter_error (const char   *expr,
                    const GError *error)
{
  gsize start = 0, end = 0;
  g_autofree char *shown = g_strdup (expr);
  glong col, width;

  g_printerr ("seismo-cli: bad filter: %s\n", error->message);
  if (!seismo_filter_error_get_range (error, &start, &end) || !g_utf8_validate (expr, -1, NULL))
    return;
  g_strdelimit (shown, "\t\n\r", ' ');
  col = g_utf8_strlen (expr, start);
  width = MAX (g_utf8_strlen (expr + start, end - start), 1);
  g_printerr ("  %s\n  %*s", shown, (int) col, "");
  for (glong i = 0; i < width; i++)
    g_printerr ("^");
  g_printerr ("\n");
}

/* Compiles and runs --filter. NULL expr selects everything (*mask NULL). FALSE after printing the
 * error when the expression is wrong: a usage error. */
static gboolean
run_filter (SeismoTrace  *trace,
            const char   *expr,
            guint64     **mask,
            gsize        *n_matched)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFilter) filter = NULL;

  *mask = NULL;
  *n_matched = seismo_trace_get_n_events (trace);
  if (expr == NULL)
    return TRUE;
  if (!(filter = seismo_filter_compile (trace, expr, &error)))
    {
      print_filter_error (expr, error);
      return FALSE;
    }
  *mask = seismo_filter_run (filter, n_matched, NULL);
  return TRUE;
}

static inline gboolean
mask_has (const guint64 *mask,
          gsize          i)
{
  return mask == NULL || (mask[i / 64] >> (i % 64)) & 1;
}

/* ---- info ---- */

static int
cmd_info (int    argc,
          char **argv)
{
  gboolean json = FALSE, summary = FALSE;
  g_autofree char *filter = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, "Describe only the events that match EXPR", "EXPR" },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, "Read only the file's summary (.seismo; automatic for traces too large to load)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - describe a trace");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) types = NULL;
  const char *format;
  g_autofree guint64 *mask = NULL;
  gsize n_matched, n_selected_spans = 0;
  SeismoSelection sel = { 0, G_MAXUINT64, NULL };

  if (!parse_command (context, entries, &argc, &argv, 2, "seismo-cli info: expected one FILE"))
    return SEISMO_EXIT_USAGE;
  /* A trace larger than memory is described from its summary; a filter needs the events. */
  if (filter == NULL && seismo_cli_summary_wanted (argv[1], summary))
    return seismo_cli_summary_info (argv[1], json);
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  if (!run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel.mask = mask;
  types = seismo_stats_by_type (trace, mask ? &sel : NULL);
  format = seismo_trace_get_metadata (trace, "format");
  {
    gsize n_spans;
    const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);

    for (gsize s = 0; s < n_spans; s++)
      n_selected_spans += mask_has (mask, spans[s].enter);
  }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      const char *const *keys = seismo_trace_get_metadata_keys (trace);
      guint n_lost;
      const SeismoLostEvents *lost = seismo_trace_get_lost_events (trace, &n_lost);

      json_builder_begin_object (b);
      seismo_cli_json_string (b, "file", argv[1]);
      seismo_cli_json_string (b, "format", format ? format : "unknown");
      seismo_cli_json_string (b, "source",
                              seismo_trace_get_metadata (trace, SEISMO_META_SOURCE) ?: "");
      seismo_cli_json_int (b, "events", n_matched);
      if (filter)
        {
          seismo_cli_json_string (b, "filter", filter);
          seismo_cli_json_int (b, "total_events", seismo_trace_get_n_events (trace));
        }
      seismo_cli_json_int (b, "cpus", seismo_trace_get_n_cpus (trace));
      seismo_cli_json_int (b, "tasks", seismo_trace_get_n_tasks (trace));
      seismo_cli_json_int (b, "start_ns", seismo_trace_get_start_ns (trace));
      seismo_cli_json_int (b, "end_ns", seismo_trace_get_end_ns (trace));
      seismo_cli_json_int (b, "duration_ns",
                           seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace));
      seismo_cli_json_int (b, "lost_events", seismo_trace_get_n_lost_events (trace));
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
            gsize count = GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, l->data));

            seismo_cli_json_int (b, name, count);
          }
      }
      json_builder_end_object (b);
      seismo_cli_json_int (b, "syscalls", n_selected_spans);
      json_builder_set_member_name (b, "event_types");
      json_builder_begin_object (b);
      for (guint i = 0; i < types->len; i++)
        {
          SeismoTypeStats *st = &g_array_index (types, SeismoTypeStats, i);

          seismo_cli_json_int (b, seismo_trace_get_event_type (trace, st->type_id)->full_name,
                               st->count);
        }
      json_builder_end_object (b);
      json_builder_set_member_name (b, "metadata");
      json_builder_begin_object (b);
      for (guint i = 0; keys[i]; i++)
        seismo_cli_json_string (b, keys[i], seismo_trace_get_metadata (trace, keys[i]));
      json_builder_end_object (b);
      json_builder_end_object (b);
      seismo_cli_print_json (b);
    }
  else
    {
      guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);
      g_autofree char *dur = format_duration (span);
      const char *const *keys = seismo_trace_get_metadata_keys (trace);

      g_print ("File:        %s\n", argv[1]);
      g_print ("Format:      %s\n", format ? format : "unknown");
      for (guint i = 0; keys[i]; i++)
        if (strcmp (keys[i], "format") != 0)
          g_print ("%-12s %s\n", keys[i], seismo_trace_get_metadata (trace, keys[i]));
      if (filter)
        g_print ("Events:      %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " match %s\n", n_matched,
                 seismo_trace_get_n_events (trace), filter);
      else
        g_print ("Events:      %" G_GSIZE_FORMAT "\n", seismo_trace_get_n_events (trace));
      g_print ("Time span:   %s (%" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT " ns)\n", dur,
               seismo_trace_get_start_ns (trace), seismo_trace_get_end_ns (trace));
      g_print ("CPUs:        %u\n", seismo_trace_get_n_cpus (trace));
      g_print ("Tasks:       %u\n", seismo_trace_get_n_tasks (trace));
      g_print ("Syscalls:    %" G_GSIZE_FORMAT "\n", n_selected_spans);
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
  g_autofree char *filter = NULL;
  GOptionEntry entries[] = {
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, "Print at most N events", "N" },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, "Print only the events that match EXPR", "EXPR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - print events in time order");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GString) line = NULL;
  gsize n, n_matched, printed = 0;
  const guint64 *ts;
  g_autofree guint64 *mask = NULL;

  if (!parse_command (context, entries, &argc, &argv, 2, "seismo-cli report: expected one FILE"))
    return SEISMO_EXIT_USAGE;
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  if (!run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  n = seismo_trace_get_n_events (trace);
  ts = seismo_trace_get_times (trace);
  line = g_string_sized_new (256);
  for (gsize i = 0; i < n && (limit < 0 || printed < (guint64) limit); i++)
    {
      const SeismoTask *task = seismo_trace_event_task (trace, i);
      const SeismoEventType *type = seismo_trace_event_type (trace, i);
      const char *comm = seismo_trace_task_comm_at (trace, seismo_trace_get_tasks (trace)[i], ts[i]);

      if (!mask_has (mask, i))
        continue;
      printed++;
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

/* count, min_ns, avg_ns, p50_ns, p90_ns, p99_ns and max_ns of s: the summary stats --json and
 * hist --json both give. */
static void
add_latency_summary_json (JsonBuilder                *b,
                          const SeismoLatencySummary *s)
{
  const struct { const char *k; guint64 v; } m[] = {
    { "count", s->count }, { "min_ns", s->min }, { "avg_ns", s->avg }, { "p50_ns", s->p50 },
    { "p90_ns", s->p90 }, { "p99_ns", s->p99 }, { "max_ns", s->max },
  };

  for (guint k = 0; k < G_N_ELEMENTS (m); k++)
    seismo_cli_json_int (b, m[k].k, m[k].v);
}

/* Latency summaries for stats --json: syscall, wakeup and run time percentiles. */
static void
add_latency_json (JsonBuilder           *b,
                  SeismoTrace           *trace,
                  const SeismoSelection *sel)
{
  static const struct {
    const char       *name;
    SeismoLatencyKind kind;
  } kinds[] = {
    { "syscall", SEISMO_LATENCY_SYSCALL },
    { "wakeup", SEISMO_LATENCY_WAKEUP },
    { "runtime", SEISMO_LATENCY_RUNTIME },
  };

  json_builder_set_member_name (b, "latency");
  json_builder_begin_object (b);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(GArray) samples = seismo_latency_collect (trace, kinds[k].kind, sel, -1);
      g_autoptr(SeismoLatencyHistogram) h = seismo_latency_histogram_new_log2 ();
      SeismoLatencySummary s;

      seismo_latency_histogram_add_samples (h, samples);
      seismo_latency_histogram_get_summary (h, &s);
      json_builder_set_member_name (b, kinds[k].name);
      json_builder_begin_object (b);
      add_latency_summary_json (b, &s);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

/* Histograms the recorder computed (eBPF --aggregate): they cover the whole recording, so
 * --filter does not apply to them. */
static void
add_recorder_histograms_json (JsonBuilder *b,
                              SeismoTrace *trace)
{
  guint n;
  const SeismoHistogram *hist = seismo_trace_get_histograms (trace, &n);

  json_builder_set_member_name (b, "histograms");
  json_builder_begin_array (b);
  for (guint h = 0; h < n; h++)
    {
      json_builder_begin_object (b);
      seismo_cli_json_string (b, "name", hist[h].name);
      seismo_cli_json_string (b, "key", hist[h].key);
      seismo_cli_json_string (b, "unit", hist[h].unit);
      seismo_cli_json_int (b, "count", hist[h].total_count);
      seismo_cli_json_int (b, "sum", hist[h].sum);
      json_builder_set_member_name (b, "buckets");
      json_builder_begin_array (b);
      for (guint i = 0; i < hist[h].n_buckets; i++)
        if (hist[h].counts[i] != 0)
          {
            json_builder_begin_object (b);
            seismo_cli_json_int (b, "lower", hist[h].lower[i]);
            seismo_cli_json_int (b, "count", hist[h].counts[i]);
            json_builder_end_object (b);
          }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The same as text, the way bpftrace prints its maps: counts on one line, histograms as bars. */
void
seismo_cli_print_recorder_histograms (SeismoTrace *trace)
{
  guint n;
  const SeismoHistogram *hist = seismo_trace_get_histograms (trace, &n);

  if (n > 0)
    g_print ("\nRecorded histograms (whole recording):\n");
  for (guint h = 0; h < n; h++)
    {
      guint64 peak = 0;

      if (hist[h].n_buckets <= 1)
        {
          g_print ("@%s[%s]: %" G_GUINT64_FORMAT " %s\n", hist[h].name, hist[h].key,
                   hist[h].total_count, hist[h].unit);
          continue;
        }
      g_print ("@%s[%s]: %" G_GUINT64_FORMAT " samples, sum %" G_GUINT64_FORMAT " %s\n",
               hist[h].name, hist[h].key, hist[h].total_count, hist[h].sum, hist[h].unit);
      for (guint i = 0; i < hist[h].n_buckets; i++)
        peak = MAX (peak, hist[h].counts[i]);
      for (guint i = 0; i < hist[h].n_buckets; i++)
        {
          g_autofree char *bar = NULL;
          g_autofree char *range = NULL;

          if (hist[h].counts[i] == 0)
            continue;
          bar = g_strnfill ((gsize) (hist[h].counts[i] * 40 / peak), '@');
          if (i + 1 < hist[h].n_buckets)
            range = g_strdup_printf ("[%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")",
                                     hist[h].lower[i], hist[h].lower[i + 1]);
          else if (i > 0 && hist[h].lower[i] == 2 * hist[h].lower[i - 1])
            range = g_strdup_printf ("[%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")",
                                     hist[h].lower[i], 2 * hist[h].lower[i]);   /* log2 */
          else
            range = g_strdup_printf ("[%" G_GUINT64_FORMAT ", ...)", hist[h].lower[i]);
          g_print ("  %-24s %10" G_GUINT64_FORMAT " |%-40s|\n", range, hist[h].counts[i], bar);
        }
    }
}

/* Starts stats --json: an object whose first member, name, is the array of rows (event types,
 * tasks, CPUs or syscalls). The caller ends the array, then calls stats_json_finish(). */
static JsonBuilder *
stats_json_begin (const char *name)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  return b;
}

/* Every stats --json ends with the latency summaries and the recorder's histograms. */
static void
stats_json_finish (JsonBuilder           *b,
                   SeismoTrace           *trace,
                   const SeismoSelection *sel)
{
  add_latency_json (b, trace, sel);
  add_recorder_histograms_json (b, trace);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

static void
stats_syscalls (SeismoTrace           *trace,
                const SeismoSelection *sel,
                gboolean               json)
{
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, sel);
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
      g_autoptr(JsonBuilder) b = stats_json_begin ("syscalls");

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
          seismo_cli_json_string (b, "name", st->name);
          for (guint k = 0; k < G_N_ELEMENTS (m); k++)
            seismo_cli_json_int (b, m[k].k, m[k].v);
          json_builder_set_member_name (b, "percent_time");
          json_builder_add_double_value (b, total ? 100.0 * st->total_ns / total : 0.0);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      seismo_cli_json_int (b, "total_calls", calls);
      seismo_cli_json_int (b, "total_errors", errors);
      seismo_cli_json_int (b, "total_ns", total);
      stats_json_finish (b, trace, sel);
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
stats_tasks (SeismoTrace           *trace,
             const SeismoSelection *sel,
             gboolean               json)
{
  g_autoptr(GArray) stats = seismo_stats_by_task (trace, sel);
  g_autoptr(JsonBuilder) b = json ? stats_json_begin ("tasks") : NULL;

  if (!json)
    g_print ("%8s %8s %-16s %10s %14s %9s %9s %9s\n", "TID", "PID", "COMM", "EVENTS", "CPU_NS",
             "SWITCHES", "WAKEUPS", "SYSCALLS");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoTaskStats *st = &g_array_index (stats, SeismoTaskStats, i);
      const SeismoTask *task = seismo_trace_get_task (trace, st->task);

      if (json)
        {
          json_builder_begin_object (b);
          seismo_cli_json_int (b, "tid", task->tid);
          seismo_cli_json_int (b, "pid", task->pid);
          seismo_cli_json_string (b, "comm", task_comm (trace, task));
          seismo_cli_json_int (b, "events", st->events);
          seismo_cli_json_int (b, "cpu_ns", st->cpu_ns);
          seismo_cli_json_int (b, "switches", st->switches);
          seismo_cli_json_int (b, "wakeups", st->wakeups);
          seismo_cli_json_int (b, "syscalls", st->syscalls);
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
      stats_json_finish (b, trace, sel);
    }
}

static void
stats_cpus (SeismoTrace           *trace,
            const SeismoSelection *sel,
            gboolean               json)
{
  g_autoptr(GArray) stats = seismo_stats_by_cpu (trace, sel);
  g_autoptr(JsonBuilder) b = json ? stats_json_begin ("cpus") : NULL;
  guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);

  if (!json)
    g_print ("%4s %10s %14s %7s %9s\n", "CPU", "EVENTS", "BUSY_NS", "BUSY%", "SWITCHES");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoCpuStats *st = &g_array_index (stats, SeismoCpuStats, i);
      double busy = span ? 100.0 * st->busy_ns / span : 0.0;

      if (json)
        {
          json_builder_begin_object (b);
          seismo_cli_json_int (b, "cpu", st->cpu);
          seismo_cli_json_int (b, "events", st->events);
          seismo_cli_json_int (b, "busy_ns", st->busy_ns);
          json_builder_set_member_name (b, "busy_percent");
          json_builder_add_double_value (b, busy);
          seismo_cli_json_int (b, "switches", st->switches);
          json_builder_end_object (b);
        }
      else
        g_print ("%4u %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %6.2f%% %9" G_GUINT64_FORMAT "\n",
                 st->cpu, st->events, st->busy_ns, busy, st->switches);
    }
  if (json)
    {
      json_builder_end_array (b);
      stats_json_finish (b, trace, sel);
    }
}

static void
stats_events (SeismoTrace           *trace,
              const SeismoSelection *sel,
              gboolean               json)
{
  g_autoptr(GArray) stats = seismo_stats_by_type (trace, sel);
  g_autoptr(JsonBuilder) b = json ? stats_json_begin ("event_types") : NULL;
  guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);

  if (!json)
    g_print ("%12s %12s  %s\n", "COUNT", "PER_SECOND", "EVENT");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoTypeStats *st = &g_array_index (stats, SeismoTypeStats, i);
      const char *name = seismo_trace_get_event_type (trace, st->type_id)->full_name;
      double rate = span ? st->count * 1e9 / span : 0.0;

      if (json)
        {
          json_builder_begin_object (b);
          seismo_cli_json_string (b, "name", name);
          seismo_cli_json_int (b, "count", st->count);
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
      stats_json_finish (b, trace, sel);
    }
}

static int
cmd_stats (int    argc,
           char **argv)
{
  g_autofree char *by = NULL;
  g_autofree char *filter = NULL;
  gboolean json = FALSE, summary = FALSE;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by, "Group by event, task, cpu or syscall (default: event)", "KEY" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, "Count only the events that match EXPR", "EXPR" },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, "Read only the file's summary (.seismo; automatic for traces too large to load)", NULL },
    { NULL }
  };
  g_autofree guint64 *mask = NULL;
  gsize n_matched;
  SeismoSelection sel = { 0, G_MAXUINT64, NULL };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - count events, tasks, CPUs or syscalls");
  g_autoptr(SeismoTrace) trace = NULL;

  if (!parse_command (context, entries, &argc, &argv, 2, "seismo-cli stats: expected one FILE"))
    return SEISMO_EXIT_USAGE;
  if (by != NULL && !g_strv_contains ((const char *[]) { "event", "task", "cpu", "syscall", NULL }, by))
    {
      g_printerr ("seismo-cli stats: --by takes event, task, cpu or syscall, not '%s'\n", by);
      return SEISMO_EXIT_USAGE;
    }
  if (filter == NULL && seismo_cli_summary_wanted (argv[1], summary))
    return seismo_cli_summary_stats (argv[1], by, json);
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  if (!run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel.mask = mask;
  if (by == NULL || strcmp (by, "event") == 0)
    stats_events (trace, mask ? &sel : NULL, json);
  else if (strcmp (by, "task") == 0)
    stats_tasks (trace, mask ? &sel : NULL, json);
  else if (strcmp (by, "cpu") == 0)
    stats_cpus (trace, mask ? &sel : NULL, json);
  else
    stats_syscalls (trace, mask ? &sel : NULL, json);
  if (!json)
    seismo_cli_print_recorder_histograms (trace);
  return SEISMO_EXIT_OK;
}

/* ---- convert ---- */

/* A new trace with the events in mask: the same event types, metadata (plus "filter"), lost events
 * and recorder histograms; the tasks the copied events belong to, with the comm each had at each of
 * its events, so reports of both traces print the same lines. */
static SeismoTrace *
copy_selected (SeismoTrace   *trace,
               const guint64 *mask,
               const char    *expr)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint n_types = seismo_trace_get_n_event_types (trace), max_fields = 1, n_lost, n_hist;
  guint n_tasks = seismo_trace_get_n_tasks (trace);
  const char *const *keys = seismo_trace_get_metadata_keys (trace);
  const SeismoLostEvents *lost = seismo_trace_get_lost_events (trace, &n_lost);
  const SeismoHistogram *hist = seismo_trace_get_histograms (trace, &n_hist);
  const guint64 *ts = seismo_trace_get_times (trace);
  const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);
  gsize n = seismo_trace_get_n_events (trace);
  g_autoptr(GHashTable) current = g_hash_table_new (NULL, NULL);   /* tid → source task + 1 */
  g_autofree const char **last_comm = g_new0 (const char *, MAX (n_tasks, 1));
  g_autofree SeismoValue *values = NULL;

  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, t);
      g_autofree SeismoFieldInfo *info = g_new0 (SeismoFieldInfo, MAX (type->n_fields, 1));

      for (guint f = 0; f < type->n_fields; f++)
        {
          const SeismoField *field = &type->fields[f];

          info[f] = (SeismoFieldInfo) { field->name, field->type, field->size, field->display,
                                        field->symbols, field->n_symbols };
        }
      seismo_trace_builder_add_event_type (b, type->system, type->name, info, type->n_fields,
                                           type->print_fmt);
      max_fields = MAX (max_fields, type->n_fields);
    }
  for (guint k = 0; keys[k]; k++)
    seismo_trace_builder_set_metadata (b, keys[k], seismo_trace_get_metadata (trace, keys[k]));
  seismo_trace_builder_set_metadata (b, "filter", expr);
  seismo_trace_builder_set_n_cpus (b, seismo_trace_get_n_cpus (trace));
  for (guint l = 0; l < n_lost; l++)
    seismo_trace_builder_add_lost_events (b, lost[l].cpu, lost[l].time_ns, lost[l].count);
  for (guint h = 0; h < n_hist; h++)
    seismo_trace_builder_add_histogram (b, &hist[h]);

  values = g_new (SeismoValue, max_fields);
  for (gsize i = 0; i < n; i++)
    {
      const SeismoTask *task = seismo_trace_get_task (trace, tasks[i]);
      const char *comm;
      guint cur, nf;

      if (!mask_has (mask, i))
        continue;
      /* A tid names another task once the first exited: start a new one in the copy too. */
      cur = GPOINTER_TO_UINT (g_hash_table_lookup (current, GINT_TO_POINTER (task->tid)));
      if (cur != tasks[i] + 1)
        {
          if (cur != 0)
            seismo_trace_builder_task_exited (b, task->tid, ts[i]);
          seismo_trace_builder_task_new (b, task->tid, ts[i]);
          seismo_trace_builder_set_task_pid (b, task->tid, task->pid);
          seismo_trace_builder_set_task_ppid (b, task->tid, task->ppid);
          g_hash_table_insert (current, GINT_TO_POINTER (task->tid),
                               GUINT_TO_POINTER (tasks[i] + 1));
        }
      comm = seismo_trace_task_comm_at (trace, tasks[i], ts[i]);
      if (g_strcmp0 (last_comm[tasks[i]], comm) != 0)
        {
          seismo_trace_builder_set_task_comm (b, task->tid, comm, ts[i]);
          last_comm[tasks[i]] = comm;
        }
      seismo_trace_builder_begin_event (b, ts[i], seismo_trace_event_cpu (trace, i), task->tid,
                                        seismo_trace_get_types (trace)[i]);
      nf = seismo_trace_event_fields (trace, i, values, max_fields);
      for (guint f = 0; f < nf; f++)
        seismo_trace_builder_push_value (b, &values[f]);
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (b);
}

/* Inputs from this size on are converted while read ($SEISMO_CONVERT_STREAM=1: all of them). */
#define CONVERT_STREAM_MIN_BYTES (256u << 20)

static gboolean
convert_streams (const char *path)
{
  struct stat st;

  if (g_strcmp0 (g_getenv ("SEISMO_CONVERT_STREAM"), "1") == 0)
    return TRUE;
  return stat (path, &st) == 0 && (guint64) st.st_size >= CONVERT_STREAM_MIN_BYTES;
}

static int
cmd_convert (int    argc,
             char **argv)
{
  g_autofree char *filter = NULL;
  GOptionEntry entries[] = {
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, "Write only the events that match EXPR", "EXPR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("IN OUT - convert a trace (format from OUT's extension)");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint64 *mask = NULL;
  gsize n_matched;

  if (!parse_command (context, entries, &argc, &argv, 3, "seismo-cli convert: expected IN and OUT"))
    return SEISMO_EXIT_USAGE;
  /* A large trace goes to .seismo while it is read, in bounded memory, when its format can stream
   * (trace.dat). A small one is loaded first, so its load warnings are printed. */
  if (filter == NULL && convert_streams (argv[1]))
    {
      if (seismo_trace_convert_streaming (argv[1], argv[2], NULL, NULL, NULL, &error))
        return SEISMO_EXIT_OK;
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
        {
          g_printerr ("seismo-cli: %s\n", error->message);
          return SEISMO_EXIT_FAILED;
        }
      g_clear_error (&error);
    }
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;
  if (!run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  if (filter)
    {
      SeismoTrace *subset = copy_selected (trace, mask, filter);

      g_object_unref (trace);
      trace = subset;
    }
  if (!seismo_trace_save (trace, argv[2], &error))
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return SEISMO_EXIT_FAILED;
    }
  return SEISMO_EXIT_OK;
}

/* ---- hist ---- */

/* Linear histograms end in an overflow bucket after this many steps. */
#define HIST_MAX_LINEAR_BUCKETS 1000

static void
print_hist_json (SeismoLatencyHistogram *h,
                 const char             *of,
                 const char             *syscall,
                 const char             *filter,
                 guint64                 step)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  SeismoLatencySummary s;
  guint first = G_MAXUINT, last = 0, n = seismo_latency_histogram_get_n_buckets (h);

  seismo_latency_histogram_get_summary (h, &s);
  json_builder_begin_object (b);
  seismo_cli_json_string (b, "of", of);
  json_builder_set_member_name (b, "syscall");
  if (syscall)
    json_builder_add_string_value (b, syscall);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "filter");
  if (filter)
    json_builder_add_string_value (b, filter);
  else
    json_builder_add_null_value (b);
  seismo_cli_json_string (b, "scale", step ? "linear" : "log2");
  if (step)
    seismo_cli_json_int (b, "step_ns", step);
  add_latency_summary_json (b, &s);
  seismo_cli_json_int (b, "sum_ns", s.sum);
  json_builder_set_member_name (b, "buckets");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      SeismoLatencyBucket bucket;

      seismo_latency_histogram_get_bucket (h, i, &bucket);
      if (bucket.count)
        {
          first = MIN (first, i);
          last = i;
        }
    }
  for (guint i = first; first != G_MAXUINT && i <= last; i++)
    {
      SeismoLatencyBucket bucket;

      seismo_latency_histogram_get_bucket (h, i, &bucket);
      json_builder_begin_object (b);
      seismo_cli_json_int (b, "lower_ns", bucket.lower);
      json_builder_set_member_name (b, "upper_ns");
      if (bucket.upper == G_MAXUINT64)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, bucket.upper);
      seismo_cli_json_int (b, "count", bucket.count);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

static int
cmd_hist (int    argc,
          char **argv)
{
  g_autofree char *of = NULL, *syscall = NULL, *filter = NULL, *linear = NULL;
  g_autofree char *from = NULL, *to = NULL, *scope = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "of", 0, 0, G_OPTION_ARG_STRING, &of, "syscall-latency (default), wakeup-latency, runtime, "
      "irq-latency, softirq-latency or gap", "KIND" },
    { "syscall", 's', 0, G_OPTION_ARG_STRING, &syscall, "Only this syscall (syscall-latency)", "NAME" },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, "Only latencies whose start event (the switch-out "
      "for runtime) matches EXPR", "EXPR" },
    { "linear", 0, 0, G_OPTION_ARG_STRING, &linear, "Linear buckets STEP wide (10us, 1ms, 5000 ns) "
      "instead of powers of two", "STEP" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, "gap: the events a gap starts at", "EXPR" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, "gap: the events it ends at", "EXPR" },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &scope, "gap: on the same task (default), cpu, or any", "SCOPE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - latency histogram, like bpftrace hist()");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) samples = NULL;
  g_autoptr(SeismoLatencyHistogram) h = NULL;
  g_autofree guint64 *mask = NULL;
  g_autofree char *header = NULL;
  SeismoLatencyKind kind = SEISMO_LATENCY_SYSCALL;
  SeismoGapScope gap_scope = SEISMO_GAP_SAME_TASK;
  SeismoSelection sel = { 0, G_MAXUINT64, NULL };
  gboolean gap = FALSE;
  guint64 step = 0;
  int syscall_index = -1;
  gsize n_matched;

  if (!parse_command (context, entries, &argc, &argv, 2, "seismo-cli hist: expected one FILE"))
    return SEISMO_EXIT_USAGE;
  if (of != NULL && strcmp (of, "gap") == 0)
    gap = TRUE;
  else if (of != NULL && !seismo_latency_kind_from_string (of, &kind))
    {
      g_printerr ("seismo-cli hist: --of takes syscall-latency, wakeup-latency, runtime, irq-latency, "
                  "softirq-latency or gap, not '%s'\n", of);
      return SEISMO_EXIT_USAGE;
    }
  if (syscall && (gap || kind != SEISMO_LATENCY_SYSCALL))
    {
      g_printerr ("seismo-cli hist: --syscall goes with --of syscall-latency\n");
      return SEISMO_EXIT_USAGE;
    }
  if (gap != (from != NULL) || gap != (to != NULL) || (scope && !gap))
    {
      g_printerr ("seismo-cli hist: --of gap needs --from EXPR and --to EXPR (and only it takes them "
                  "and --scope)\n");
      return SEISMO_EXIT_USAGE;
    }
  if (scope)
    {
      if (strcmp (scope, "cpu") == 0)
        gap_scope = SEISMO_GAP_SAME_CPU;
      else if (strcmp (scope, "any") == 0)
        gap_scope = SEISMO_GAP_ANY;
      else if (strcmp (scope, "task") != 0)
        {
          g_printerr ("seismo-cli hist: --scope takes task, cpu or any, not '%s'\n", scope);
          return SEISMO_EXIT_USAGE;
        }
    }
  if (linear)
    {
      g_autoptr(GError) error = NULL;

      if (!seismo_filter_parse_quantity (linear, &step, &error) || step == 0)
        {
          g_printerr ("seismo-cli hist: --linear takes a step like 10us, 1ms or 5000: %s\n",
                      error ? error->message : "the step is 0");
          return SEISMO_EXIT_USAGE;
        }
    }
  if (!(trace = open_trace (argv[1])))
    return SEISMO_EXIT_FAILED;

  if (syscall)
    {
      for (guint i = 0; i < seismo_trace_get_n_syscall_names (trace); i++)
        if (strcmp (seismo_trace_get_syscall_name (trace, i), syscall) == 0)
          syscall_index = (int) i;
      if (syscall_index < 0)
        {
          /* Not in the trace: fine if it is a syscall at all (no samples); the filter language
           * knows the names and suggests one for a typo. */
          g_autoptr(GString) expr = g_string_new ("syscall == \"");
          g_autoptr(GError) error = NULL;
          g_autoptr(SeismoFilter) check = NULL;

          for (const char *c = syscall; *c; c++)
            {
              if (*c == '"' || *c == '\\')
                g_string_append_c (expr, '\\');
              g_string_append_c (expr, *c);
            }
          g_string_append_c (expr, '"');
          if (!(check = seismo_filter_compile (trace, expr->str, &error)))
            {
              g_printerr ("seismo-cli hist: %s\n", error->message);
              return SEISMO_EXIT_USAGE;
            }
          syscall_index = -2;
        }
    }
  if (!run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel.mask = mask;

  if (gap)
    {
      g_autofree guint64 *from_mask = NULL, *to_mask = NULL;
      gsize n_from, n_to;

      if (!run_filter (trace, from, &from_mask, &n_from) ||
          !run_filter (trace, to, &to_mask, &n_to))
        return SEISMO_EXIT_USAGE;
      samples = seismo_latency_collect_gaps (trace, from_mask, to_mask, gap_scope,
                                             mask ? &sel : NULL);
      header = g_strdup ("@gap_ns");
    }
  else
    {
      g_autofree char *name = g_strdup (seismo_latency_kind_to_string (kind));

      g_strdelimit (name, "-", '_');
      if (syscall_index == -2)
        samples = g_array_new (FALSE, FALSE, sizeof (SeismoLatencySample));
      else
        samples = seismo_latency_collect (trace, kind, mask ? &sel : NULL, syscall_index);
      header = syscall ? g_strdup_printf ("@%s_ns[%s]", name, syscall)
                       : g_strdup_printf ("@%s_ns", name);
    }

  if (step)
    {
      guint64 max = 0, top;

      for (guint i = 0; i < samples->len; i++)
        max = MAX (max, g_array_index (samples, SeismoLatencySample, i).value);
      /* Enough steps for the largest value, but a bounded number of lines. */
      top = max / step < HIST_MAX_LINEAR_BUCKETS ? (max / step + 1) * step
                                                 : HIST_MAX_LINEAR_BUCKETS * step;
      h = seismo_latency_histogram_new_linear (0, top, step);
    }
  else
    h = seismo_latency_histogram_new_log2 ();
  seismo_latency_histogram_add_samples (h, samples);

  if (json)
    print_hist_json (h, gap ? "gap" : seismo_latency_kind_to_string (kind), syscall, filter, step);
  else
    {
      g_autoptr(GString) out = g_string_new (NULL);
      SeismoLatencySummary s;
      const struct { const char *k; guint64 v; } m[] = {
        { "min", 0 }, { "avg", 0 }, { "p50", 0 }, { "p90", 0 }, { "p99", 0 }, { "max", 0 },
      };
      guint64 v[G_N_ELEMENTS (m)];

      seismo_latency_histogram_get_summary (h, &s);
      v[0] = s.min; v[1] = s.avg; v[2] = s.p50; v[3] = s.p90; v[4] = s.p99; v[5] = s.max;
      g_string_append_printf (out, "%s:\n", header);
      seismo_latency_histogram_format (h, TRUE, out);
      g_string_append_printf (out, "\ncount  %" G_GUINT64_FORMAT "\n", s.count);
      for (guint k = 0; s.count && k < G_N_ELEMENTS (m); k++)
        {
          g_autofree char *d = format_duration (v[k]);

          g_string_append_printf (out, "%-6s %s\n", m[k].k, d);
        }
      g_print ("%s", out->str);
    }
  return SEISMO_EXIT_OK;
}

static const Command commands[] = {
  { "info", "FILE [--json]", "Describe a trace: source, events, span, CPUs, tasks, event types", cmd_info },
  { "report", "FILE [--limit N]", "Print events one per line in time order", cmd_report },
  { "stats", "FILE [--by event|task|cpu|syscall] [--json]", "Count events, tasks, CPUs or syscalls", cmd_stats },
  { "hist", "FILE [--of KIND] [--syscall NAME] [--linear S]", "Latency histogram like bpftrace hist(), with percentiles", cmd_hist },
  { "convert", "IN OUT", "Convert a trace; OUT's extension picks the format", cmd_convert },
  { "record", "-b BACKEND [options] -o FILE [-- CMD ARGS…]", "Record a trace (see record --help)", seismo_cli_record },
  { "explain", "NAME…", "Explain a syscall, tracepoint, errno or task state", seismo_cli_explain },
  { "compare", "A B [--json]", "Compare syscall counts and latencies of two traces", seismo_cli_compare },
  { "compare-overhead", "[--runs N] [--json] -- CMD ARGS…", "Run CMD bare and under each backend; show the slowdown", seismo_cli_compare_overhead },
  { "render", "FILE -o OUT.svg|pdf|png [--from T --to T] [--rows …] [--width W]", "Draw the timeline as a figure (see render --help)", seismo_cli_render },
};

static void
usage (FILE *out)
{
  guint n;
  const SeismoImporter *const *importers = seismo_importers_get (&n);

  fprintf (out, "Usage: seismo-cli COMMAND [ARGS…]\n\nCommands:\n");
  /* Synopsis on the command's line, what it does indented below: the synopses are too long to
   * share a line with the summary in 80 columns. */
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %s %s\n      %s\n", commands[i].name, commands[i].args, commands[i].summary);
  fprintf (out, "\nReads:");
  for (guint i = 0; importers[i]; i++)
    fprintf (out, "%s %s", i ? "," : "", importers[i]->description);
  fprintf (out, "\nRun 'seismo-cli COMMAND --help' for a command's options.\n");
  fprintf (out, "info, report, stats, hist and convert take --filter EXPR: see docs/filter-language.md.\n");
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

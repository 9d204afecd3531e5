/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <errno.h>
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
#include "seismo-timing.h"
#include "seismo-trace-builder.h"
#include "seismo-trace.h"

typedef struct {
  const char *name;
  const char *args;
  const char *summary;
  int       (*run) (int argc, char **argv);
} Command;

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
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
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

/* A figure made of time: null when the trace never measured it (seismo-timing.h). */
static void
json_int_or_null (JsonBuilder *b,
                  const char  *key,
                  guint64      value,
                  gboolean     known)
{
  if (known)
    seismo_cli_json_int (b, key, value);
  else
    {
      json_builder_set_member_name (b, key);
      json_builder_add_null_value (b);
    }
}

static void
json_double_or_null (JsonBuilder *b,
                     const char  *key,
                     double       value,
                     gboolean     known)
{
  json_builder_set_member_name (b, key);
  if (known)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* What tables print for a figure that was never measured. */
#define UNKNOWN_FIGURE "—"

/* printf's width counts bytes; "—" is three of them but one column. */
static void
print_unknown (int width)
{
  g_print ("%*s%s", MAX (width - 1, 0), "", UNKNOWN_FIGURE);
}

static const char *
task_comm (SeismoTrace      *trace,
           const SeismoTask *task)
{
  return seismo_trace_get_string (trace, task->comm);
}

static gboolean
is_summary_histogram (const SeismoHistogram *h)
{
  return g_str_equal (h->name, SEISMO_HISTOGRAM_SUMMARY_CALLS)
         || g_str_equal (h->name, SEISMO_HISTOGRAM_SUMMARY_ERRORS)
         || g_str_equal (h->name, SEISMO_HISTOGRAM_SUMMARY_TIME);
}

/* Calls in the summary table the trace came with (0: none). */
static guint64
summary_calls (SeismoTrace *trace,
               guint       *n_syscalls)
{
  guint n;
  const SeismoHistogram *hist = seismo_trace_get_histograms (trace, &n);
  guint64 calls = 0;

  *n_syscalls = 0;
  for (guint h = 0; h < n; h++)
    if (g_str_equal (hist[h].name, SEISMO_HISTOGRAM_SUMMARY_CALLS))
      {
        calls += hist[h].total_count;
        (*n_syscalls)++;
      }
  return calls;
}

/* ---- info ---- */

static int
cmd_info (int    argc,
          char **argv)
{
  gboolean json = FALSE, summary = FALSE;
  g_autofree char *filter = NULL;
  g_autofree char *arch = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, N_("Describe only the events that match EXPR"), "EXPR" },
    SEISMO_CLI_ARCH_ENTRY (arch),
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, N_("Read only the file's summary (.seismo; automatic for traces too large to load)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE - describe a trace"));
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) types = NULL;
  const char *format;
  g_autofree guint64 *mask = NULL;
  gsize n_matched, n_selected_spans = 0;
  SeismoSelection sel = { 0, G_MAXUINT64, NULL };

  if (!parse_command (context, entries, &argc, &argv, 2, _("seismo-cli info: expected one FILE")))
    return SEISMO_EXIT_USAGE;
  /* A trace larger than memory is described from its summary; a filter needs the events. */
  if (filter == NULL && seismo_cli_summary_wanted (argv[1], summary))
    return seismo_cli_summary_info (argv[1], json);
  if (!(trace = seismo_cli_open_trace (argv[1], arch)))
    return SEISMO_EXIT_FAILED;

  if (!seismo_cli_run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel.mask = mask;
  types = seismo_stats_by_type (trace, mask ? &sel : NULL);
  format = seismo_trace_get_metadata (trace, "format");
  {
    gsize n_spans;
    const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);

    for (gsize s = 0; s < n_spans; s++)
      n_selected_spans += seismo_cli_mask_has (mask, spans[s].enter);
  }

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
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
      json_int_or_null (b, "duration_ns",
                        seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace),
                        seismo_trace_has_timestamps (trace));
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
      seismo_cli_json_info_tables (b, trace, types, NULL);
      json_builder_end_object (b);
      seismo_cli_print_json (b);
    }
  else
    {
      guint64 span = seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace);
      g_autofree char *dur = format_duration (span);
      const char *const *keys = seismo_trace_get_metadata_keys (trace);

      g_print (_("File:        %s\n"), argv[1]);
      g_print (_("Format:      %s\n"), format ? format : "unknown");
      for (guint i = 0; keys[i]; i++)
        if (strcmp (keys[i], "format") != 0 &&
            !g_str_has_prefix (keys[i], SEISMO_META_SKIPPED_PREFIX) &&
            !g_str_has_prefix (keys[i], SEISMO_META_SKIPPED_EXAMPLE_PREFIX))
          g_print ("%-12s %s\n", keys[i], seismo_trace_get_metadata (trace, keys[i]));
      if (seismo_trace_get_metadata (trace, SEISMO_META_ARCH) == NULL)
        g_print ("arch: unknown (syscall numbers stay numbers; --arch NAME names them)\n");
      if (filter)
        g_print (_("Events:      %zu of %zu match %s\n"), n_matched,
                 seismo_trace_get_n_events (trace), filter);
      else
        g_print (_("Events:      %zu\n"), seismo_trace_get_n_events (trace));
      if (seismo_trace_has_timestamps (trace))
        g_print (_("Time span:   %s (%" PRIu64 " .. %" PRIu64 " ns)\n"), dur,
                 seismo_trace_get_start_ns (trace), seismo_trace_get_end_ns (trace));
      else
        g_print (_("Time span:   unknown (no timestamps: events are in the order of the log)\n"));
      g_print (_("CPUs:        %u\n"), seismo_trace_get_n_cpus (trace));
      g_print (_("Tasks:       %u\n"), seismo_trace_get_n_tasks (trace));
      g_print (_("Syscalls:    %zu\n"), n_selected_spans);
      {
        guint n_syscalls;
        guint64 calls = summary_calls (trace, &n_syscalls);

        if (calls > 0)
          g_print (_("Summary:     %" PRIu64 " calls of %u syscalls in the file's own "
                     "table (seismo-cli stats --by syscall)\n"), calls, n_syscalls);
      }
      g_print (_("Lost events: %" PRIu64 "\n"), seismo_trace_get_n_lost_events (trace));
      seismo_cli_print_skipped (trace);
      g_print (_("Event types:\n"));
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
  /* G_MININT64: not given (no limit); any negative value given is a usage error. */
  gint64 limit = G_MININT64;
  g_autofree char *filter = NULL;
  g_autofree char *arch = NULL;
  GOptionEntry entries[] = {
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, N_("Print at most N events"), "N" },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, N_("Print only the events that match EXPR"), "EXPR" },
    SEISMO_CLI_ARCH_ENTRY (arch),
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE - print events in time order"));
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GString) line = NULL;
  gsize n, n_matched, printed = 0;
  const guint64 *ts;
  g_autofree guint64 *mask = NULL;

  if (!parse_command (context, entries, &argc, &argv, 2, _("seismo-cli report: expected one FILE")))
    return SEISMO_EXIT_USAGE;
  if (limit != G_MININT64 && limit < 0)
    {
      g_printerr (_("seismo-cli report: --limit takes a number of events, 0 or more, not %" PRId64 "\n"),
                  limit);
      return SEISMO_EXIT_USAGE;
    }
  if (!(trace = seismo_cli_open_trace (argv[1], arch)))
    return SEISMO_EXIT_FAILED;

  if (!seismo_cli_run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  n = seismo_trace_get_n_events (trace);
  ts = seismo_trace_get_times (trace);
  line = g_string_sized_new (256);
  for (gsize i = 0; i < n && (limit < 0 || printed < (guint64) limit); i++)
    {
      const SeismoTask *task = seismo_trace_event_task (trace, i);
      const SeismoEventType *type = seismo_trace_event_type (trace, i);
      const char *comm = seismo_trace_task_comm_at (trace, seismo_trace_get_tasks (trace)[i], ts[i]);

      guint64 secs, usecs;

      if (!seismo_cli_mask_has (mask, i))
        continue;
      printed++;
      /* Rounded to the microsecond as trace-cmd report (libtraceevent) prints it. */
      secs = ts[i] / G_GUINT64_CONSTANT (1000000000);
      usecs = (ts[i] % G_GUINT64_CONSTANT (1000000000) + 500) / 1000;
      if (usecs >= 1000000)
        {
          usecs -= 1000000;
          secs++;
        }
      g_string_set_size (line, 0);
      g_string_append_printf (line, "%16s-%-7d [%03u] %" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT ": %s: ",
                              *comm ? comm : task->tid == 0 ? "<idle>" : "<...>", task->tid, seismo_trace_event_cpu (trace, i),
                              secs, usecs, type->name);
      seismo_trace_event_format_into (trace, i, line);
      g_string_append_c (line, '\n');
      if (fwrite (line->str, 1, line->len, stdout) != line->len)
        {
          seismo_cli_note_write_error (errno);
          return SEISMO_EXIT_FAILED;
        }
    }
  return SEISMO_EXIT_OK;
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
      g_autoptr(GArray) samples = NULL;
      g_autoptr(SeismoLatencyHistogram) h = NULL;
      SeismoLatencySummary s;

      json_builder_set_member_name (b, kinds[k].name);
      if (!seismo_latency_kind_measured (trace, kinds[k].kind))
        {
          json_builder_add_null_value (b);
          continue;
        }
      samples = seismo_latency_collect (trace, kinds[k].kind, sel, -1);
      h = seismo_latency_histogram_new_log2 ();
      seismo_latency_histogram_add_samples (h, samples);
      seismo_latency_histogram_get_summary (h, &s);
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
  guint n, shown = 0;
  const SeismoHistogram *hist = seismo_trace_get_histograms (trace, &n);

  if (n > 0)
    g_print (_("\nRecorded histograms (whole recording):\n"));
  for (guint h = 0; h < n; h++)
    {
      guint64 peak = 0;

      /* A summary table (strace -c) is what stats --by syscall prints. */
      if (is_summary_histogram (&hist[h]))
        continue;
      if (shown++ == 0)
        g_print ("\nRecorded histograms (whole recording):\n");
      if (hist[h].n_buckets <= 1)
        {
          g_print ("@%s[%s]: %" G_GUINT64_FORMAT " %s\n", hist[h].name, hist[h].key,
                   hist[h].total_count, hist[h].unit);
          continue;
        }
      g_print (_("@%s[%s]: %" PRIu64 " samples, sum %" PRIu64 " %s\n"),
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
  gboolean timed = stats->len > 0;
  gsize n_spans;
  /* A trace without calls whose figures come from the summary table stored with it. */
  const char *summary = NULL;

  seismo_trace_get_syscall_spans (trace, &n_spans);
  if (n_spans == 0 && stats->len > 0)
    summary = "summary table";
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);

      total += st->total_ns;
      calls += st->calls;
      errors += st->errors;
      timed &= !(st->unknown & SEISMO_STATS_UNKNOWN_TIME);
    }
  if (stats->len == 0)
    timed = seismo_trace_has_durations (trace);

  if (json)
    {
      g_autoptr(JsonBuilder) b = stats_json_begin ("syscalls");

      for (guint i = 0; i < stats->len; i++)
        {
          SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
          gboolean time = !(st->unknown & SEISMO_STATS_UNKNOWN_TIME);
          gboolean dist = !(st->unknown & SEISMO_STATS_UNKNOWN_DISTRIBUTION);
          const struct { const char *k; guint64 v; gboolean known; } m[] = {
            { "calls", st->calls, TRUE }, { "errors", st->errors, TRUE },
            { "total_ns", st->total_ns, time }, { "avg_ns", st->avg_ns, time },
            { "min_ns", st->min_ns, dist }, { "max_ns", st->max_ns, dist },
            { "p50_ns", st->p50_ns, dist }, { "p90_ns", st->p90_ns, dist },
            { "p99_ns", st->p99_ns, dist }, { "unfinished", st->unfinished, TRUE },
          };

          json_builder_begin_object (b);
          seismo_cli_json_string (b, "name", st->name);
          for (guint k = 0; k < G_N_ELEMENTS (m); k++)
            json_int_or_null (b, m[k].k, m[k].v, m[k].known);
          json_double_or_null (b, "percent_time", total ? 100.0 * st->total_ns / total : 0.0, time);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      seismo_cli_json_int (b, "total_calls", calls);
      seismo_cli_json_int (b, "total_errors", errors);
      json_int_or_null (b, "total_ns", total, timed);
      if (summary != NULL)
        seismo_cli_json_string (b, "source", summary);
      stats_json_finish (b, trace, sel);
      return;
    }

  if (summary != NULL)
    g_print (_("(from the summary table in the file: it has no calls of its own)\n"));
  else if (!timed)
    g_print (_("(no timing in this trace: calls and errors only)\n"));
  g_print (_("%% time     seconds  usecs/call     calls    errors  max usecs syscall\n"));
  g_print ("------ ----------- ----------- --------- --------- ---------- ----------------\n");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
      char errs[32] = "";

      if (st->calls == 0)
        continue;
      if (st->errors)
        g_snprintf (errs, sizeof errs, "%" G_GUINT64_FORMAT, st->errors);
      if (st->unknown & SEISMO_STATS_UNKNOWN_TIME)
        {
          print_unknown (6);
          print_unknown (12);
          print_unknown (12);
        }
      else
        g_print ("%6.2f %11.6f %11" G_GUINT64_FORMAT, total ? 100.0 * st->total_ns / total : 0.0,
                 st->total_ns / 1e9, st->avg_ns / 1000);
      g_print (" %9" G_GUINT64_FORMAT " %9s", st->calls, errs);
      if (st->unknown & SEISMO_STATS_UNKNOWN_DISTRIBUTION)
        print_unknown (11);
      else
        g_print (" %10" G_GUINT64_FORMAT, st->max_ns / 1000);
      g_print (" %s\n", st->name);
    }
  g_print ("------ ----------- ----------- --------- --------- ---------- ----------------\n");
  if (timed)
    g_print ("100.00 %11.6f %11" G_GUINT64_FORMAT, total / 1e9, calls ? total / calls / 1000 : 0);
  else
    {
      print_unknown (6);
      print_unknown (12);
      print_unknown (12);
    }
  g_print (" %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %10s total\n", calls, errors, "");
}

static void
stats_tasks (SeismoTrace           *trace,
             const SeismoSelection *sel,
             gboolean               json)
{
  g_autoptr(GArray) stats = seismo_stats_by_task (trace, sel);
  g_autoptr(JsonBuilder) b = json ? stats_json_begin ("tasks") : NULL;
  gboolean timed = seismo_trace_has_timestamps (trace);

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
          json_int_or_null (b, "cpu_ns", st->cpu_ns, timed);
          seismo_cli_json_int (b, "switches", st->switches);
          seismo_cli_json_int (b, "wakeups", st->wakeups);
          seismo_cli_json_int (b, "syscalls", st->syscalls);
          json_builder_end_object (b);
        }
      else
        {
          g_print ("%8d %8d %-16s %10" G_GUINT64_FORMAT, task->tid, task->pid,
                   task_comm (trace, task), st->events);
          if (timed)
            g_print (" %14" G_GUINT64_FORMAT, st->cpu_ns);
          else
            print_unknown (15);
          g_print (" %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT "\n",
                   st->switches, st->wakeups, st->syscalls);
        }
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
  gboolean timed = seismo_trace_has_timestamps (trace);

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
          json_int_or_null (b, "busy_ns", st->busy_ns, timed);
          json_double_or_null (b, "busy_percent", busy, timed);
          seismo_cli_json_int (b, "switches", st->switches);
          json_builder_end_object (b);
        }
      else if (timed)
        g_print ("%4u %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %6.2f%% %9" G_GUINT64_FORMAT "\n",
                 st->cpu, st->events, st->busy_ns, busy, st->switches);
      else
        {
          g_print ("%4u %10" G_GUINT64_FORMAT, st->cpu, st->events);
          print_unknown (15);
          print_unknown (8);
          g_print (" %9" G_GUINT64_FORMAT "\n", st->switches);
        }
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
  gboolean timed = seismo_trace_has_timestamps (trace);

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
          json_double_or_null (b, "per_second", rate, timed);
          json_builder_end_object (b);
        }
      else if (timed)
        g_print ("%12" G_GUINT64_FORMAT " %12.1f  %s\n", st->count, rate, name);
      else
        {
          g_print ("%12" G_GUINT64_FORMAT, st->count);
          print_unknown (13);
          g_print ("  %s\n", name);
        }
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
  g_autofree char *arch = NULL;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by, N_("Group by event, task, cpu or syscall (default: event)"), "KEY" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, N_("Count only the events that match EXPR"), "EXPR" },
    SEISMO_CLI_ARCH_ENTRY (arch),
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary, N_("Read only the file's summary (.seismo; automatic for traces too large to load)"), NULL },
    { NULL }
  };
  g_autofree guint64 *mask = NULL;
  gsize n_matched;
  SeismoSelection sel = { 0, G_MAXUINT64, NULL };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE - count events, tasks, CPUs or syscalls"));
  g_autoptr(SeismoTrace) trace = NULL;

  if (!parse_command (context, entries, &argc, &argv, 2, _("seismo-cli stats: expected one FILE")))
    return SEISMO_EXIT_USAGE;
  if (by != NULL && !g_strv_contains ((const char *[]) { "event", "task", "cpu", "syscall", NULL }, by))
    {
      g_printerr (_("seismo-cli stats: --by takes event, task, cpu or syscall, not '%s'\n"), by);
      return SEISMO_EXIT_USAGE;
    }
  if (filter == NULL && seismo_cli_summary_wanted (argv[1], summary))
    return seismo_cli_summary_stats (argv[1], by, json);
  if (!(trace = seismo_cli_open_trace (argv[1], arch)))
    return SEISMO_EXIT_FAILED;

  if (!seismo_cli_run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel.mask = mask;
  /* A file that is only a summary table (strace -c) has no events: its table is its stats. */
  if (by == NULL && seismo_trace_get_n_events (trace) == 0)
    {
      guint n_syscalls;

      if (summary_calls (trace, &n_syscalls) > 0)
        by = g_strdup ("syscall");
    }
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

      if (!seismo_cli_mask_has (mask, i))
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
  g_autofree char *arch = NULL;
  GOptionEntry entries[] = {
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, N_("Write only the events that match EXPR"), "EXPR" },
    SEISMO_CLI_ARCH_ENTRY (arch),
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("IN OUT - convert a trace (format from OUT's extension)"));
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint64 *mask = NULL;
  gsize n_matched;

  if (!parse_command (context, entries, &argc, &argv, 3, _("seismo-cli convert: expected IN and OUT")))
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
  if (!(trace = seismo_cli_open_trace (argv[1], arch)))
    return SEISMO_EXIT_FAILED;
  if (!seismo_cli_run_filter (trace, filter, &mask, &n_matched))
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
  g_autofree char *arch = NULL;
  GOptionEntry entries[] = {
    { "of", 0, 0, G_OPTION_ARG_STRING, &of, N_("syscall-latency (default), wakeup-latency, runtime, "
         "irq-latency, softirq-latency or gap"), "KIND" },
    { "syscall", 's', 0, G_OPTION_ARG_STRING, &syscall, N_("Only this syscall (syscall-latency)"), "NAME" },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, N_("Only latencies whose start event (the switch-out "
         "for runtime) matches EXPR"), "EXPR" },
    { "linear", 0, 0, G_OPTION_ARG_STRING, &linear, N_("Linear buckets STEP wide (10us, 1ms, 5000 ns) "
         "instead of powers of two"), "STEP" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("gap: the events a gap starts at"), "EXPR" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("gap: the events it ends at"), "EXPR" },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &scope, N_("gap: on the same task (default), cpu, or any"), "SCOPE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    SEISMO_CLI_ARCH_ENTRY (arch),
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE - latency histogram, like bpftrace hist()"));
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

  if (!parse_command (context, entries, &argc, &argv, 2, _("seismo-cli hist: expected one FILE")))
    return SEISMO_EXIT_USAGE;
  if (of != NULL && strcmp (of, "gap") == 0)
    gap = TRUE;
  else if (of != NULL && !seismo_latency_kind_from_string (of, &kind))
    {
      g_printerr (_("seismo-cli hist: --of takes syscall-latency, wakeup-latency, runtime, irq-latency, "
                    "softirq-latency or gap, not '%s'\n"), of);
      return SEISMO_EXIT_USAGE;
    }
  if (syscall && (gap || kind != SEISMO_LATENCY_SYSCALL))
    {
      g_printerr (_("seismo-cli hist: --syscall goes with --of syscall-latency\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (gap != (from != NULL) || gap != (to != NULL) || (scope && !gap))
    {
      g_printerr (_("seismo-cli hist: --of gap needs --from EXPR and --to EXPR (and only it takes them "
                    "and --scope)\n"));
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
          g_printerr (_("seismo-cli hist: --scope takes task, cpu or any, not '%s'\n"), scope);
          return SEISMO_EXIT_USAGE;
        }
    }
  if (linear)
    {
      g_autoptr(GError) error = NULL;

      if (!seismo_filter_parse_quantity (linear, &step, &error) || step == 0)
        {
          g_printerr (_("seismo-cli hist: --linear takes a step like 10us, 1ms or 5000: %s\n"),
                      error ? error->message : _("the step is 0"));
          return SEISMO_EXIT_USAGE;
        }
    }
  if (!(trace = seismo_cli_open_trace (argv[1], arch)))
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
              g_printerr (_("seismo-cli hist: %s\n"), error->message);
              return SEISMO_EXIT_USAGE;
            }
          syscall_index = -2;
        }
    }
  if (!seismo_cli_run_filter (trace, filter, &mask, &n_matched))
    return SEISMO_EXIT_USAGE;
  sel.mask = mask;

  if (!(gap ? seismo_trace_has_timestamps (trace) : seismo_latency_kind_measured (trace, kind)))
    {
      /* A histogram of line numbers would look like latencies: say why there is none. */
      const char *timing = seismo_trace_get_metadata (trace, SEISMO_META_TIMING);
      g_autofree char *note = g_strdup_printf ("%s does not hold %s (timing: %s), so there are no "
                                               "latencies to draw", argv[1],
                                               gap || kind != SEISMO_LATENCY_SYSCALL
                                                 ? "timestamps" : "syscall durations",
                                               timing ? timing : "unknown");

      if (json)
        {
          g_autoptr(JsonBuilder) b = json_builder_new ();
          static const char *const figures[] = { "count", "min_ns", "avg_ns", "p50_ns", "p90_ns",
                                                 "p99_ns", "max_ns", "sum_ns" };

          json_builder_begin_object (b);
          seismo_cli_json_string (b, "of", gap ? "gap" : seismo_latency_kind_to_string (kind));
          json_builder_set_member_name (b, "syscall");
          if (syscall)
            json_builder_add_string_value (b, syscall);
          else
            json_builder_add_null_value (b);
          for (guint k = 0; k < G_N_ELEMENTS (figures); k++)
            json_int_or_null (b, figures[k], 0, FALSE);
          json_builder_set_member_name (b, "buckets");
          json_builder_add_null_value (b);
          seismo_cli_json_string (b, "note", note);
          json_builder_end_object (b);
          seismo_cli_print_json (b);
        }
      else
        g_print ("No histogram: %s.\n", note);
      return SEISMO_EXIT_OK;
    }

  if (gap)
    {
      g_autofree guint64 *from_mask = NULL, *to_mask = NULL;
      gsize n_from, n_to;

      if (!seismo_cli_run_filter (trace, from, &from_mask, &n_from) ||
          !seismo_cli_run_filter (trace, to, &to_mask, &n_to))
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
  { "info", "FILE [--json]", N_("Describe a trace: source, events, span, CPUs, tasks, event types"), cmd_info },
  { "report", "FILE [--limit N]", N_("Print events one per line in time order"), cmd_report },
  { "stats", "FILE [--by event|task|cpu|syscall] [--json]", N_("Count events, tasks, CPUs or syscalls"), cmd_stats },
  { "hist", "FILE [--of KIND] [--syscall NAME] [--linear S]", N_("Latency histogram like bpftrace hist(), with percentiles"), cmd_hist },
  { "convert", "IN OUT", N_("Convert a trace; OUT's extension picks the format"), cmd_convert },
  { "record", "-b BACKEND [options] -o FILE [-- CMD ARGS…]", N_("Record a trace (see record --help)"), seismo_cli_record },
  { "explain", "NAME…", N_("Explain a syscall, tracepoint, errno or task state"), seismo_cli_explain },
  { "compare", "A B [--json]", N_("Compare syscall counts and latencies of two traces"), seismo_cli_compare },
  { "compare-overhead", "[--runs N] [--json] -- CMD ARGS…", N_("Run CMD bare and under each backend; show the slowdown"), seismo_cli_compare_overhead },
  { "render", "FILE -o OUT.svg|pdf|png [--from T --to T] [--rows …] [--width W]", N_("Draw the timeline as a figure (see render --help)"), seismo_cli_render },
  { "lesson", "check [--sample TRACE] FILE… | list", N_("Check a lesson file (line by line, then against its sample); list the lessons found"), seismo_cli_lesson },
  { "states", "FILE [--task TID] [--from T --to T] [--latency] [--json]", N_("Time per task running, runnable, sleeping, in D, unknown"), seismo_cli_states },
  { "critical-path", "FILE --task TID [--from T --to T] [--json]", N_("What a task waited on, followed back through its wakers"), seismo_cli_critical_path },
  { "stacks", "FILE [--filter EXPR] [--weight count|time] [--folded] [--json]", N_("Which code paths made the events: top stacks and frames, or folded stacks for flame graphs"), seismo_cli_stacks },
};

static void
usage (FILE *out)
{
  guint n;
  const SeismoImporter *const *importers = seismo_importers_get (&n);

  fprintf (out, _("Usage: seismo-cli COMMAND [ARGS…]\n\nCommands:\n"));
  /* Synopsis on the command's line, what it does indented below: the synopses are too long to
   * share a line with the summary in 80 columns. */
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %s %s\n      %s\n", commands[i].name, commands[i].args, _(commands[i].summary));
  fprintf (out, _("\nReads:"));
  for (guint i = 0; importers[i]; i++)
    fprintf (out, "%s %s", i ? "," : "", _(importers[i]->description));
  fprintf (out, _("\nRun 'seismo-cli COMMAND --help' for a command's options, 'man seismo-cli-COMMAND' for its manual.\n"));
  fprintf (out, _("info, report, stats, hist, convert, states, critical-path and stacks take --filter EXPR: see 'man seismo-filter'.\n"));
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  seismo_i18n_init ();
  seismo_cli_watch_stdout ();
  seismo_backends_init ();

  if (argc < 2)
    {
      usage (stderr);
      return SEISMO_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return seismo_cli_finish_stdout () ? SEISMO_EXIT_OK : SEISMO_EXIT_FAILED;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("seismo-cli %s\n", PACKAGE_VERSION);
      return seismo_cli_finish_stdout () ? SEISMO_EXIT_OK : SEISMO_EXIT_FAILED;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        g_autofree char *prgname = g_strdup_printf ("seismo-cli %s", commands[i].name);
        int status;

        g_set_prgname (prgname);
        status = commands[i].run (argc - 1, argv + 1);
        /* Output that did not all arrive is a failure, whatever the command thought. */
        return seismo_cli_finish_stdout () ? status : SEISMO_EXIT_FAILED;
      }
  g_printerr (_("seismo-cli: unknown command '%s'\n\n"), argv[1]);
  usage (stderr);
  return SEISMO_EXIT_USAGE;
}

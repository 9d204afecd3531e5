/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

/*
 * `seismo-cli info` and `stats` on a trace larger than memory: read from the file's summary
 * (SeismoFileSummary) instead of its events, in memory bounded by the number of chunks, tasks and
 * time buckets. The output has the shape the loaded trace gives (same columns, same JSON keys, plus
 * "summary": true); syscall percentiles come from the summary's histogram (within ~6%), and the
 * latency summaries of stats --json, which need every event, are left out.
 */

#include <json-glib/json-glib.h>

#include <sys/stat.h>

#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-cli-summary.h"
#include "seismo-file-summary.h"
#include "seismo-trace.h"

gboolean
seismo_cli_summary_wanted (const char *path,
                           gboolean    forced)
{
  struct stat st;

  /* Only a regular file has a summary to seek to: a FIFO or stdin is read as a stream (and
   * opening one here would wait for its writer). */
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  if (forced)
    return seismo_file_summary_probe (path, NULL);
  return seismo_file_summary_too_large (path);
}

static SeismoFileSummary *
open_summary (const char *path)
{
  g_autoptr(GError) error = NULL;
  SeismoFileSummary *s = seismo_file_summary_open (path, &error);

  if (s == NULL)
    g_printerr ("seismo-cli: %s\n", error->message);
  return s;
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

int
seismo_cli_summary_info (const char *path,
                         gboolean    json)
{
  g_autoptr(SeismoFileSummary) s = open_summary (path);
  g_autoptr(GArray) types = NULL;
  SeismoTrace *tables;
  const char *format;
  const char *const *keys;
  guint64 start, end, n_events;

  if (s == NULL)
    return SEISMO_EXIT_FAILED;
  tables = seismo_file_summary_get_tables (s);
  types = seismo_file_summary_stats_by_type (s);
  /* What seismo_trace_open() would have set: the summary is only read from .seismo files. */
  format = seismo_trace_get_metadata (tables, "format") ?: "seismo";
  keys = seismo_trace_get_metadata_keys (tables);
  start = seismo_file_summary_get_start_ns (s);
  end = seismo_file_summary_get_end_ns (s);
  n_events = seismo_file_summary_get_n_events (s);

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      guint n_lost;
      const SeismoLostEvents *lost = seismo_trace_get_lost_events (tables, &n_lost);
      g_autoptr(GHashTable) per_cpu = g_hash_table_new (NULL, NULL);
      g_autoptr(GList) cpus = NULL;
      guint64 total_lost = 0;

      json_builder_begin_object (b);
      seismo_cli_json_string (b, "file", path);
      seismo_cli_json_string (b, "format", format ? format : "unknown");
      seismo_cli_json_string (b, "source", seismo_trace_get_metadata (tables, SEISMO_META_SOURCE) ?: "");
      seismo_cli_json_int (b, "events", n_events);
      seismo_cli_json_int (b, "cpus", seismo_file_summary_get_n_cpus (s));
      seismo_cli_json_int (b, "tasks", seismo_trace_get_n_tasks (tables));
      seismo_cli_json_int (b, "start_ns", start);
      seismo_cli_json_int (b, "end_ns", end);
      seismo_cli_json_int (b, "duration_ns", end - start);
      for (guint l = 0; l < n_lost; l++)
        {
          gpointer key = GINT_TO_POINTER (lost[l].cpu);

          total_lost += lost[l].count;
          g_hash_table_insert (per_cpu, key,
                               GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, key)) +
                                                 lost[l].count));
        }
      seismo_cli_json_int (b, "lost_events", total_lost);
      json_builder_set_member_name (b, "lost_events_by_cpu");
      json_builder_begin_object (b);
      cpus = g_hash_table_get_keys (per_cpu);
      for (GList *l = cpus; l; l = l->next)
        {
          g_autofree char *name = g_strdup_printf ("%d", GPOINTER_TO_INT (l->data));

          seismo_cli_json_int (b, name, GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, l->data)));
        }
      json_builder_end_object (b);
      seismo_cli_json_int (b, "syscalls", seismo_file_summary_get_n_syscalls (s));
      seismo_cli_json_info_tables (b, tables, types, format);
      json_builder_set_member_name (b, "summary");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_end_object (b);
      seismo_cli_print_json (b);
      return SEISMO_EXIT_OK;
    }

  {
    g_autofree char *dur = format_duration (end - start);
    guint n_lost;
    const SeismoLostEvents *lost = seismo_trace_get_lost_events (tables, &n_lost);
    guint64 total_lost = 0;

    for (guint l = 0; l < n_lost; l++)
      total_lost += lost[l].count;
    g_print ("File:        %s\n", path);
    g_print ("Format:      %s\n", format ? format : "unknown");
    for (guint i = 0; keys[i]; i++)
      if (g_strcmp0 (keys[i], "format") != 0)
        g_print ("%-12s %s\n", keys[i], seismo_trace_get_metadata (tables, keys[i]));
    g_print ("Events:      %" G_GUINT64_FORMAT " (read from the file's summary)\n", n_events);
    g_print ("Time span:   %s (%" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT " ns)\n", dur, start, end);
    g_print ("CPUs:        %u\n", seismo_file_summary_get_n_cpus (s));
    g_print ("Tasks:       %u\n", seismo_trace_get_n_tasks (tables));
    g_print ("Syscalls:    %" G_GUINT64_FORMAT "\n", seismo_file_summary_get_n_syscalls (s));
    g_print ("Lost events: %" G_GUINT64_FORMAT "\n", total_lost);
    seismo_cli_print_skipped (tables);
    g_print ("Event types:\n");
    for (guint i = 0; i < types->len; i++)
      {
        SeismoTypeStats *st = &g_array_index (types, SeismoTypeStats, i);

        g_print ("  %12" G_GUINT64_FORMAT "  %s\n", st->count,
                 seismo_trace_get_event_type (tables, st->type_id)->full_name);
      }
  }
  return SEISMO_EXIT_OK;
}

static JsonBuilder *
json_begin (const char *name)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  return b;
}

static void
json_finish (JsonBuilder *b)
{
  json_builder_end_array (b);
  json_builder_set_member_name (b, "summary");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

static void
stats_events (SeismoFileSummary *s,
              gboolean           json)
{
  g_autoptr(GArray) stats = seismo_file_summary_stats_by_type (s);
  g_autoptr(JsonBuilder) b = json ? json_begin ("event_types") : NULL;
  SeismoTrace *tables = seismo_file_summary_get_tables (s);
  guint64 span = seismo_file_summary_get_end_ns (s) - seismo_file_summary_get_start_ns (s);

  if (!json)
    g_print ("%12s %12s  %s\n", "COUNT", "PER_SECOND", "EVENT");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoTypeStats *st = &g_array_index (stats, SeismoTypeStats, i);
      const char *name = seismo_trace_get_event_type (tables, st->type_id)->full_name;
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
    json_finish (b);
}

static void
stats_cpus (SeismoFileSummary *s,
            gboolean           json)
{
  g_autoptr(GArray) stats = seismo_file_summary_stats_by_cpu (s);
  g_autoptr(JsonBuilder) b = json ? json_begin ("cpus") : NULL;
  guint64 span = seismo_file_summary_get_end_ns (s) - seismo_file_summary_get_start_ns (s);

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
    json_finish (b);
}

static void
stats_tasks (SeismoFileSummary *s,
             gboolean           json)
{
  g_autoptr(GArray) stats = seismo_file_summary_stats_by_task (s);
  g_autoptr(JsonBuilder) b = json ? json_begin ("tasks") : NULL;
  SeismoTrace *tables = seismo_file_summary_get_tables (s);

  if (!json)
    g_print ("%8s %8s %-16s %10s %14s %9s %9s %9s\n", "TID", "PID", "COMM", "EVENTS", "CPU_NS",
             "SWITCHES", "WAKEUPS", "SYSCALLS");
  for (guint i = 0; i < stats->len; i++)
    {
      SeismoTaskStats *st = &g_array_index (stats, SeismoTaskStats, i);
      const SeismoTask *task = seismo_trace_get_task (tables, st->task);
      const char *comm = seismo_trace_get_string (tables, task->comm);

      if (json)
        {
          json_builder_begin_object (b);
          seismo_cli_json_int (b, "tid", task->tid);
          seismo_cli_json_int (b, "pid", task->pid);
          seismo_cli_json_string (b, "comm", comm);
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
                 task->tid, task->pid, comm, st->events, st->cpu_ns, st->switches, st->wakeups,
                 st->syscalls);
    }
  if (json)
    json_finish (b);
}

static void
stats_syscalls (SeismoFileSummary *s,
                gboolean           json)
{
  g_autoptr(GArray) stats = seismo_file_summary_stats_by_syscall (s);
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
      g_autoptr(JsonBuilder) b = json_begin ("syscalls");

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
      json_builder_set_member_name (b, "summary");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_end_object (b);
      seismo_cli_print_json (b);
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

int
seismo_cli_summary_stats (const char *path,
                          const char *by,
                          gboolean    json)
{
  g_autoptr(SeismoFileSummary) s = open_summary (path);

  if (s == NULL)
    return SEISMO_EXIT_FAILED;
  if (by == NULL || g_str_equal (by, "event"))
    stats_events (s, json);
  else if (g_str_equal (by, "task"))
    stats_tasks (s, json);
  else if (g_str_equal (by, "cpu"))
    stats_cpus (s, json);
  else
    stats_syscalls (s, json);
  if (!json)
    seismo_cli_print_recorder_histograms (seismo_file_summary_get_tables (s));
  return SEISMO_EXIT_OK;
}

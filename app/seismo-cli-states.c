/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

/*
 * seismo-cli states: per task, the time in each thread state over an interval.
 * seismo-cli critical-path: what one task waited on over an interval, as segments.
 */

#include <stdio.h>
#include <string.h>

#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-critical-path.h"
#include "seismo-filter.h"
#include "seismo-runnable-latency.h"
#include "seismo-thread-states.h"

/* The interval and task options both commands share. */
typedef struct {
  char     *from;
  char     *to;
  char     *filter;
  char     *arch;
  gint      tid;
  gboolean  json;
  gboolean  latency;   /* states: runnable-latency histograms too */
} Options;

static void
options_clear (Options *o)
{
  g_free (o->from);
  g_free (o->to);
  g_free (o->filter);
  g_free (o->arch);
}

static gboolean
parse_time (const char *who,
            const char *option,
            const char *text,
            guint64    *ns)
{
  g_autoptr(GError) error = NULL;

  if (text[0] == '+')
    text++;
  if (!seismo_filter_parse_quantity (text, ns, &error))
    {
      g_printerr (_("%s: %s takes a time from the trace start like 1500, 250us, 1.5ms or 2s: %s\n"),
                  who, option, error->message);
      return FALSE;
    }
  return TRUE;
}

/* Parses argv into o; [*from, *to) is the absolute interval (the whole trace by default). FALSE
 * after saying why: a usage error. The trace is opened later, so times are offsets until then. */
static gboolean
parse (const char      *who,
       const char      *params,
       const char      *summary,
       Options         *o,
       int             *argc,
       char          ***argv,
       guint64         *from,
       guint64         *to)
{
  GOptionEntry latency_entries[] = {
    { "latency", 'l', 0, G_OPTION_ARG_NONE, &o->latency, "With each task, its runnable latency: how long it waited for a CPU each time it was ready (a histogram)", NULL },
    { NULL }
  };
  GOptionEntry entries[] = {
    { "task", 't', 0, G_OPTION_ARG_INT, &o->tid, "The task (thread id)", "TID" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o->from, "Start of the interval, from the trace start (default: the start)", "T" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o->to, "End of the interval, from the trace start (default: the end)", "T" },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &o->filter, summary, "EXPR" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print JSON", NULL },
    SEISMO_CLI_ARCH_ENTRY (o->arch),
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (params);

  g_option_context_add_main_entries (context, entries, NULL);
  if (strcmp (who, "seismo-cli states") == 0)
    g_option_context_add_main_entries (context, latency_entries, NULL);
  if (!seismo_cli_parse_options (context, argc, argv, who))
    return FALSE;
  if (*argc != 2)
    {
      g_printerr (_("%s: expected one FILE\n"), who);
      return FALSE;
    }
  *from = 0;
  *to = G_MAXUINT64;
  if ((o->from != NULL && !parse_time (who, "--from", o->from, from)) ||
      (o->to != NULL && !parse_time (who, "--to", o->to, to)))
    return FALSE;
  if (*to <= *from)
    {
      g_printerr (_("%s: --to must be after --from\n"), who);
      return FALSE;
    }
  return TRUE;
}

/* Offsets from the trace start → times, clamped to the trace. */
static void
absolute (SeismoTrace *trace,
          guint64     *from,
          guint64     *to)
{
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace);

  *from = *from > end - start ? end : start + *from;
  *to = *to > end - start ? end : start + *to;
}

static double
ms (guint64 ns)
{
  return ns / 1e6;
}

/* ---- states ---- */

typedef struct {
  SeismoTaskId task;
  guint64      totals[SEISMO_STATE_N];
  guint64      longest_runnable;
  guint        wakeups;
} TaskRow;

/* The longest Runnable stretch and the wakeups inside [from, to). */
static void
runnable_figures (SeismoTrace *trace,
                  TaskRow     *row,
                  guint64      from,
                  guint64      to)
{
  gsize n, i = seismo_trace_task_state_find (trace, row->task, from);
  const SeismoStateSpan *spans = seismo_trace_get_task_states (trace, row->task, &n);

  for (i = i == G_MAXSIZE ? 0 : i; i < n; i++)
    {
      guint64 s = seismo_trace_task_state_start_ns (trace, row->task, i);
      guint64 e = seismo_trace_task_state_end_ns (trace, row->task, i);

      if (s >= to)
        break;
      if (spans[i].state != SEISMO_STATE_RUNNABLE)
        continue;
      row->longest_runnable = MAX (row->longest_runnable, MIN (e, to) - MAX (s, from));
      if ((spans[i].flags & SEISMO_STATE_FLAG_WOKEN) && s >= from)
        row->wakeups++;
    }
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      trace)
{
  const TaskRow *x = a, *y = b;
  guint64 bx = x->totals[SEISMO_STATE_RUNNING] + x->totals[SEISMO_STATE_RUNNABLE];
  guint64 by = y->totals[SEISMO_STATE_RUNNING] + y->totals[SEISMO_STATE_RUNNABLE];

  /* Busiest first, then by tid. */
  if (bx != by)
    return bx < by ? 1 : -1;
  return seismo_trace_get_task (trace, x->task)->tid - seismo_trace_get_task (trace, y->task)->tid;
}

/* "runnable_latency": {"count", "min_ns", "avg_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns",
 * "buckets": [{"lower_ns", "upper_ns" (null: no bound), "count"}]}, the buckets from the first to
 * the last non-empty one. */
static void
latency_json (JsonBuilder *b,
              SeismoTrace *trace,
              SeismoTaskId task,
              guint64      from,
              guint64      to)
{
  g_autoptr(SeismoLatencyHistogram) h = seismo_runnable_latency_histogram (trace, task, from, to);
  SeismoLatencySummary sum;
  guint n = seismo_latency_histogram_get_n_buckets (h), first = n, last = 0;

  seismo_latency_histogram_get_summary (h, &sum);
  json_builder_set_member_name (b, "runnable_latency");
  json_builder_begin_object (b);
  seismo_cli_json_int (b, "count", sum.count);
  seismo_cli_json_int (b, "min_ns", sum.min);
  seismo_cli_json_int (b, "avg_ns", sum.avg);
  seismo_cli_json_int (b, "p50_ns", sum.p50);
  seismo_cli_json_int (b, "p90_ns", sum.p90);
  seismo_cli_json_int (b, "p99_ns", sum.p99);
  seismo_cli_json_int (b, "max_ns", sum.max);
  for (guint i = 0; i < n; i++)
    {
      SeismoLatencyBucket bucket;

      seismo_latency_histogram_get_bucket (h, i, &bucket);
      if (bucket.count > 0)
        {
          first = MIN (first, i);
          last = i;
        }
    }
  json_builder_set_member_name (b, "buckets");
  json_builder_begin_array (b);
  for (guint i = first; i <= last && first < n; i++)
    {
      SeismoLatencyBucket bucket;

      seismo_latency_histogram_get_bucket (h, i, &bucket);
      json_builder_begin_object (b);
      seismo_cli_json_int (b, "lower_ns", bucket.lower);
      json_builder_set_member_name (b, "upper_ns");
      if (bucket.upper == G_MAXUINT64)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, (gint64) bucket.upper);
      seismo_cli_json_int (b, "count", bucket.count);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
print_states_json (SeismoTrace *trace,
                   GArray      *rows,
                   guint64      from,
                   guint64      to,
                   const char  *filter,
                   gboolean     latency)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  static const struct {
    const char       *key;
    SeismoThreadState state;
  } keys[] = {
    { "running_ns", SEISMO_STATE_RUNNING },
    { "runnable_ns", SEISMO_STATE_RUNNABLE },
    { "sleeping_ns", SEISMO_STATE_SLEEPING },
    { "uninterruptible_ns", SEISMO_STATE_UNINTERRUPTIBLE },
    { "unknown_ns", SEISMO_STATE_UNKNOWN },
    { "stopped_ns", SEISMO_STATE_STOPPED },
    { "dead_ns", SEISMO_STATE_DEAD },
  };

  json_builder_begin_object (b);
  seismo_cli_json_int (b, "start_ns", from);
  seismo_cli_json_int (b, "end_ns", to);
  json_builder_set_member_name (b, "has_states");
  json_builder_add_boolean_value (b, seismo_trace_has_states (trace));
  if (filter)
    seismo_cli_json_string (b, "filter", filter);
  json_builder_set_member_name (b, "tasks");
  json_builder_begin_array (b);
  for (guint r = 0; r < rows->len; r++)
    {
      const TaskRow *row = &g_array_index (rows, TaskRow, r);
      const SeismoTask *task = seismo_trace_get_task (trace, row->task);

      json_builder_begin_object (b);
      seismo_cli_json_int (b, "tid", task->tid);
      seismo_cli_json_int (b, "pid", task->pid);
      seismo_cli_json_string (b, "comm", seismo_trace_task_comm_at (trace, row->task, to));
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        seismo_cli_json_int (b, keys[k].key, row->totals[keys[k].state]);
      seismo_cli_json_int (b, "wakeups", row->wakeups);
      seismo_cli_json_int (b, "longest_runnable_ns", row->longest_runnable);
      if (latency)
        latency_json (b, trace, row->task, from, to);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

/* Each task's histogram as seismo-cli hist draws them, tasks that never waited for a CPU left out. */
static void
print_latency (SeismoTrace *trace,
               GArray      *rows,
               guint64      from,
               guint64      to)
{
  for (guint r = 0; r < rows->len; r++)
    {
      const TaskRow *row = &g_array_index (rows, TaskRow, r);
      const SeismoTask *task = seismo_trace_get_task (trace, row->task);
      g_autoptr(SeismoLatencyHistogram) h = seismo_runnable_latency_histogram (trace, row->task, from, to);
      g_autoptr(GString) out = g_string_new (NULL);
      SeismoLatencySummary sum;

      seismo_latency_histogram_get_summary (h, &sum);
      if (sum.count == 0)
        continue;
      seismo_latency_histogram_format (h, FALSE, out);
      g_print ("\nRunnable latency of %s-%d, ns: %" G_GUINT64_FORMAT " waits, p50 %.3f ms, "
               "p99 %.3f ms, max %.3f ms\n%s",
               seismo_trace_task_comm_at (trace, row->task, to), task->tid, sum.count, ms (sum.p50),
               ms (sum.p99), ms (sum.max), out->str);
    }
}

static void
print_states_table (SeismoTrace *trace,
                    GArray      *rows,
                    guint64      from,
                    guint64      to)
{
  g_print ("%.3f ms from %.3f ms; time in each state, ms (R: runnable, S: sleeping, "
           "D: uninterruptible, ?: unknown)\n",
           ms (to - from), ms (from - seismo_trace_get_start_ns (trace)));
  g_print ("%8s %8s %-16s %10s %10s %10s %10s %10s %8s %12s\n", "TID", "PID", "COMM", "RUNNING", "R",
           "S", "D", "?", "WAKEUPS", "LONGEST R");
  for (guint r = 0; r < rows->len; r++)
    {
      const TaskRow *row = &g_array_index (rows, TaskRow, r);
      const SeismoTask *task = seismo_trace_get_task (trace, row->task);

      g_print ("%8d %8d %-16s %10.3f %10.3f %10.3f %10.3f %10.3f %8u %12.3f\n", task->tid, task->pid,
               seismo_trace_task_comm_at (trace, row->task, to),
               ms (row->totals[SEISMO_STATE_RUNNING]), ms (row->totals[SEISMO_STATE_RUNNABLE]),
               ms (row->totals[SEISMO_STATE_SLEEPING] + row->totals[SEISMO_STATE_STOPPED]),
               ms (row->totals[SEISMO_STATE_UNINTERRUPTIBLE]),
               ms (row->totals[SEISMO_STATE_UNKNOWN] + row->totals[SEISMO_STATE_DEAD]), row->wakeups,
               ms (row->longest_runnable));
    }
  if (!seismo_trace_has_states (trace))
    g_print ("(this trace has no sched_switch events: every state is unknown)\n");
}

int
seismo_cli_states (int    argc,
                   char **argv)
{
  const char *who = "seismo-cli states";
  Options o = { .tid = -1 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (TaskRow));
  g_autofree guint64 *mask = NULL;
  g_autofree guint8 *chosen = NULL;
  gsize n_matched;
  guint64 from, to;
  guint n_tasks;
  int status = SEISMO_EXIT_USAGE;

  if (!parse (who, "FILE - time per task in each thread state", "Only tasks with events that match EXPR",
              &o, &argc, &argv, &from, &to))
    goto out;
  status = SEISMO_EXIT_FAILED;
  if (!(trace = seismo_cli_open_trace (argv[1], o.arch)))
    goto out;
  status = SEISMO_EXIT_USAGE;
  if (!seismo_cli_run_filter (trace, o.filter, &mask, &n_matched))
    goto out;
  absolute (trace, &from, &to);

  n_tasks = seismo_trace_get_n_tasks (trace);
  chosen = g_new0 (guint8, MAX (n_tasks, 1));
  if (mask != NULL)
    {
      const SeismoTaskId *tasks = seismo_trace_get_tasks (trace);

      for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
        if (seismo_cli_mask_has (mask, i))
          chosen[tasks[i]] = 1;
    }
  for (guint t = 0; t < n_tasks; t++)
    {
      const SeismoTask *task = seismo_trace_get_task (trace, t);
      TaskRow row = { .task = t };

      if (task->tid <= 0 || (mask != NULL && !chosen[t]) || (o.tid >= 0 && task->tid != o.tid))
        continue;
      /* Only tasks that lived in the interval. */
      if (task->last_ns < from || task->first_ns > to)
        continue;
      seismo_trace_task_state_totals (trace, t, from, to, row.totals);
      runnable_figures (trace, &row, from, to);
      g_array_append_val (rows, row);
    }
  if (o.tid >= 0 && rows->len == 0)
    {
      g_printerr (_("%s: %s: no task %d in that interval\n"), who, argv[1], o.tid);
      status = SEISMO_EXIT_FAILED;
      goto out;
    }
  g_array_sort_with_data (rows, compare_rows, trace);
  if (o.json)
    print_states_json (trace, rows, from, to, o.filter, o.latency);
  else
    {
      print_states_table (trace, rows, from, to);
      if (o.latency)
        print_latency (trace, rows, from, to);
    }
  status = SEISMO_EXIT_OK;

out:
  options_clear (&o);
  return status;
}

/* ---- critical-path ---- */

/* --filter narrows the interval to the task's matching events: from the first to the last (a
 * syscall enter to its exit). FALSE when none matches. */
static gboolean
filter_interval (SeismoTrace   *trace,
                 SeismoTaskId   task,
                 const guint64 *mask,
                 guint64       *from,
                 guint64       *to)
{
  gsize n, n_spans;
  const SeismoEventId *events = seismo_trace_get_task_events (trace, task, &n);
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  guint64 lo = G_MAXUINT64, hi = 0;

  for (gsize k = seismo_trace_index_find_time (trace, events, n, *from); k < n; k++)
    {
      SeismoEventId ev = events[k];
      guint64 t = seismo_trace_event_time (trace, ev);
      guint64 end = t;

      if (t > *to)
        break;
      if (!seismo_cli_mask_has (mask, ev))
        continue;
      if (seismo_trace_event_type (trace, ev)->kind == SEISMO_KIND_SYSCALL_ENTER)
        {
          gsize a = 0, b = n_spans;

          while (a < b)
            {
              gsize mid = a + (b - a) / 2;

              if (spans[mid].enter < ev)
                a = mid + 1;
              else
                b = mid;
            }
          if (a < n_spans && spans[a].enter == ev && spans[a].exit != SEISMO_NO_EVENT)
            end = seismo_trace_event_time (trace, spans[a].exit);
        }
      lo = MIN (lo, t);
      hi = MAX (hi, end);
    }
  if (lo == G_MAXUINT64)
    return FALSE;
  *from = lo;
  *to = MIN (MAX (hi, lo + 1), *to);
  return TRUE;
}

static void
print_path_json (SeismoTrace *trace,
                 gint         tid,
                 GArray      *path,
                 guint64      from,
                 guint64      to,
                 const char  *filter)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  seismo_cli_json_int (b, "task", tid);
  seismo_cli_json_int (b, "start_ns", from);
  seismo_cli_json_int (b, "end_ns", to);
  if (filter)
    seismo_cli_json_string (b, "filter", filter);
  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint i = 0; i < path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);
      const SeismoTask *task = seismo_trace_get_task (trace, seg->task);

      json_builder_begin_object (b);
      seismo_cli_json_int (b, "tid", task ? task->tid : -1);
      seismo_cli_json_string (b, "comm", task ? seismo_trace_task_comm_at (trace, seg->task, seg->start_ns) : "");
      seismo_cli_json_string (b, "state", seismo_path_state_to_string (seg->state));
      seismo_cli_json_int (b, "start_ns", seg->start_ns);
      seismo_cli_json_int (b, "duration_ns", seg->end_ns - seg->start_ns);
      if (seg->cpu != SEISMO_STATE_NO_CPU)
        seismo_cli_json_int (b, "cpu", seg->cpu);
      seismo_cli_json_int (b, "depth", seg->depth);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

static void
print_path_table (SeismoTrace *trace,
                  gint         tid,
                  GArray      *path,
                  guint64      from,
                  guint64      to)
{
  guint64 start = seismo_trace_get_start_ns (trace);
  g_autoptr(GHashTable) by_task = g_hash_table_new (NULL, NULL);
  guint64 by_state[SEISMO_PATH_N] = { 0 };

  g_print ("Critical path of task %d over %.3f ms (from %.3f ms):\n", tid, ms (to - from),
           ms (from - start));
  g_print ("%6s %12s %12s %7s %8s %-16s %-16s %4s\n", "#", "START ms", "DURATION ms", "SHARE",
           "TID", "COMM", "STATE", "CPU");
  for (guint i = 0; i < path->len; i++)
    {
      const SeismoPathSegment *seg = &g_array_index (path, SeismoPathSegment, i);
      const SeismoTask *task = seismo_trace_get_task (trace, seg->task);
      guint64 d = seg->end_ns - seg->start_ns;
      char cpu[8] = "";

      if (seg->cpu != SEISMO_STATE_NO_CPU)
        g_snprintf (cpu, sizeof cpu, "%u", seg->cpu);
      g_print ("%6u %12.6f %12.6f %6.1f%% %8d %-16s %-16s %4s\n", i + 1, ms (seg->start_ns - start),
               ms (d), 100.0 * d / (to - from), task ? task->tid : -1,
               task ? seismo_trace_task_comm_at (trace, seg->task, seg->start_ns) : "",
               seismo_path_state_to_string (seg->state), cpu);
      by_state[seg->state] += d;
    }
  g_print ("\nBy state:");
  for (guint s = 0; s < SEISMO_PATH_N; s++)
    if (by_state[s] > 0)
      g_print ("  %s %.3f ms (%.1f%%)", seismo_path_state_to_string (s), ms (by_state[s]),
               100.0 * by_state[s] / (to - from));
  g_print ("\n");
}

int
seismo_cli_critical_path (int    argc,
                          char **argv)
{
  const char *who = "seismo-cli critical-path";
  Options o = { .tid = -1 };
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) path = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint64 *mask = NULL;
  gsize n_matched;
  guint64 from, to;
  SeismoTaskId task;
  int status = SEISMO_EXIT_USAGE;

  if (!parse (who, "FILE --task TID - what the task waited on, through its wakers",
              "Narrow the interval to the task's events that match EXPR (first to last; a syscall "
              "to its return)", &o, &argc, &argv, &from, &to))
    goto out;
  if (o.tid < 0)
    {
      g_printerr (_("%s: --task TID is required\n"), who);
      goto out;
    }
  status = SEISMO_EXIT_FAILED;
  if (!(trace = seismo_cli_open_trace (argv[1], o.arch)))
    goto out;
  status = SEISMO_EXIT_USAGE;
  if (!seismo_cli_run_filter (trace, o.filter, &mask, &n_matched))
    goto out;
  status = SEISMO_EXIT_FAILED;
  absolute (trace, &from, &to);
  task = seismo_trace_find_task (trace, o.tid, from);
  if (task == SEISMO_NO_TASK || seismo_trace_get_task (trace, task)->tid != o.tid)
    {
      g_printerr (_("%s: %s: no task %d\n"), who, argv[1], o.tid);
      goto out;
    }
  if (mask != NULL && !filter_interval (trace, task, mask, &from, &to))
    {
      g_printerr (_("%s: %s: no event of task %d matches the filter in that interval\n"), who, argv[1],
                  o.tid);
      goto out;
    }
  if (!(path = seismo_critical_path_compute (trace, task, from, to, NULL, &error)))
    {
      g_printerr ("%s: %s: %s\n", who, argv[1], error->message);
      goto out;
    }
  if (o.json)
    print_path_json (trace, o.tid, path, from, to, o.filter);
  else
    print_path_table (trace, o.tid, path, from, to);
  if (!seismo_trace_has_states (trace))
    g_printerr (_("%s: %s has no sched_switch events: the path is unknown\n"), who, argv[1]);
  status = SEISMO_EXIT_OK;

out:
  options_clear (&o);
  return status;
}

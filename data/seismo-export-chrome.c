/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-export"

#include <string.h>

#include "seismo-export-private.h"

/* The shape is documented in seismo-export.h. */

typedef struct {
  SeismoTrace           *trace;
  const SeismoSelection *sel;
  SeismoExportWriter    *w;
  GString               *scratch;
  SeismoValue           *values;
  guint                  n_values;
  guint64                from_ns;   /* the selection's time window, clipped to the trace */
  guint64                to_ns;
} Chrome;

static gint32
chrome_pid (const SeismoTask *task)
{
  return task->pid >= 0 ? task->pid : task->tid;
}

/* Chrome timestamps are microseconds; three decimals keep every nanosecond. */
static void
append_us (GString *out,
           guint64  ns)
{
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%03u", ns / 1000, (guint) (ns % 1000));
}

static void
append_event_head (GString    *out,
                   const char *ph,
                   const char *name,
                   const char *cat,
                   guint64     ts_ns,
                   gint64      pid,
                   gint64      tid)
{
  g_string_append (out, ",\n{\"ph\":\"");
  g_string_append (out, ph);
  g_string_append (out, "\",\"name\":");
  seismo_json_append_string (out, name);
  if (cat != NULL)
    {
      g_string_append (out, ",\"cat\":");
      seismo_json_append_string (out, cat);
    }
  g_string_append (out, ",\"ts\":");
  append_us (out, ts_ns);
  g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT, pid, tid);
}

static void
append_metadata (GString    *out,
                 const char *what,
                 gint64      pid,
                 gint64      tid,
                 const char *key,
                 const char *string_value,
                 gint64      int_value)
{
  g_string_append_printf (out, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" G_GINT64_FORMAT
                          ",\"tid\":%" G_GINT64_FORMAT ",\"args\":{\"%s\":", what, pid, tid, key);
  if (string_value != NULL)
    seismo_json_append_string (out, string_value);
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT, int_value);
  g_string_append (out, "}}");
}

/* An event's fields as "args" members (without braces); plain integers stay numbers. first: no
 * member was written before. Returns whether none has been written yet. */
static gboolean
append_fields (Chrome        *c,
               SeismoEventId  ev,
               gboolean       first)
{
  const SeismoEventType *type = seismo_trace_event_type (c->trace, ev);
  guint n;

  if (type->n_fields > c->n_values)
    {
      c->n_values = type->n_fields;
      c->values = g_renew (SeismoValue, c->values, c->n_values);
    }
  n = seismo_trace_event_fields (c->trace, ev, c->values, type->n_fields);
  for (guint f = 0; f < n; f++)
    {
      const SeismoField *field = &type->fields[f];
      const SeismoValue *v = &c->values[f];

      if (!first)
        g_string_append_c (c->w->buf, ',');
      first = FALSE;
      seismo_json_append_string (c->w->buf, field->name);
      g_string_append_c (c->w->buf, ':');
      if (field->display == SEISMO_DISPLAY_DEFAULT && v->type == SEISMO_FIELD_INT)
        g_string_append_printf (c->w->buf, "%" G_GINT64_FORMAT, v->i);
      else if (field->display == SEISMO_DISPLAY_DEFAULT && v->type == SEISMO_FIELD_UINT)
        g_string_append_printf (c->w->buf, "%" G_GUINT64_FORMAT, v->u);
      else
        {
          g_string_truncate (c->scratch, 0);
          seismo_trace_format_value (c->trace, field, v, c->scratch);
          seismo_json_append_string (c->w->buf, c->scratch->str);
        }
    }
  return first;
}

static void
write_names (Chrome *c)
{
  SeismoTrace *trace = c->trace;
  guint n_tasks = seismo_trace_get_n_tasks (trace);
  g_autoptr(GHashTable) named = g_hash_table_new (NULL, NULL);
  GString *out = c->w->buf;

  for (guint cpu = 0; cpu < seismo_trace_get_n_cpus (trace); cpu++)
    {
      gsize n_runs;
      gint64 pid = SEISMO_EXPORT_CPU_PID_BASE + cpu;
      g_autofree char *name = g_strdup_printf ("CPU %u", cpu);

      seismo_trace_get_cpu_runs (trace, cpu, &n_runs);
      if (n_runs == 0)
        continue;
      append_metadata (out, "process_name", pid, pid, "name", name, 0);
      append_metadata (out, "thread_name", pid, pid, "name", name, 0);
      /* CPUs first, in order, above the processes. */
      append_metadata (out, "process_sort_index", pid, pid, "sort_index", NULL,
                       (gint64) cpu - 100000);
    }

  /* A process is named after its main thread (tid == pid), else the first thread seen. Pid 0,
   * the idle task, is named at the start of the array. */
  g_hash_table_add (named, GINT_TO_POINTER (0));
  for (guint pass = 0; pass < 2; pass++)
    for (guint t = 0; t < n_tasks; t++)
      {
        const SeismoTask *task = seismo_trace_get_task (trace, t);
        gint32 pid = chrome_pid (task);
        const char *comm = seismo_trace_get_string (trace, task->comm);

        if ((pass == 0 && task->tid != pid) || g_hash_table_contains (named, GINT_TO_POINTER (pid)))
          continue;
        g_hash_table_add (named, GINT_TO_POINTER (pid));
        append_metadata (out, "process_name", pid, pid, "name", *comm ? comm : "<...>", 0);
      }
  for (guint t = 0; t < n_tasks; t++)
    {
      const SeismoTask *task = seismo_trace_get_task (trace, t);
      const char *comm = seismo_trace_get_string (trace, task->comm);

      append_metadata (out, "thread_name", chrome_pid (task), task->tid, "name",
                       *comm ? comm : task->tid == 0 ? "<idle>" : "<...>", 0);
    }
}

static gboolean
write_spans (Chrome  *c,
             GError **error)
{
  SeismoTrace *trace = c->trace;
  const guint64 *times = seismo_trace_get_times (trace);
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);

  for (gsize s = 0; s < n_spans; s++)
    {
      const SeismoSyscallSpan *span = &spans[s];
      const SeismoTask *task;
      gboolean first;
      gint64 ret;

      if (span->exit == SEISMO_NO_EVENT
          || !seismo_selection_has (c->sel, span->enter, times[span->enter]))
        continue;
      task = seismo_trace_event_task (trace, span->enter);
      append_event_head (c->w->buf, "X", seismo_trace_get_syscall_name (trace, span->syscall),
                         "syscall", times[span->enter], chrome_pid (task), task->tid);
      g_string_append (c->w->buf, ",\"dur\":");
      append_us (c->w->buf, times[span->exit] - times[span->enter]);
      g_string_append (c->w->buf, ",\"args\":{");
      first = append_fields (c, span->enter, TRUE);
      if (seismo_trace_syscall_span_ret (trace, span, &ret))
        {
          const SeismoEventType *exit_type = seismo_trace_event_type (trace, span->exit);
          int f = exit_type->roles[SEISMO_ROLE_RET];
          SeismoValue v;

          g_string_append (c->w->buf, first ? "\"ret\":" : ",\"ret\":");
          g_string_truncate (c->scratch, 0);
          if (f >= 0 && seismo_trace_event_field (trace, span->exit, f, &v))
            seismo_trace_format_value (trace, &exit_type->fields[f], &v, c->scratch);
          else
            g_string_append_printf (c->scratch, "%" G_GINT64_FORMAT, ret);
          seismo_json_append_string (c->w->buf, c->scratch->str);
        }
      g_string_append (c->w->buf, "}}");
      if (!seismo_export_writer_maybe_flush (c->w, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_runs (Chrome  *c,
            GError **error)
{
  SeismoTrace *trace = c->trace;

  for (guint cpu = 0; cpu < seismo_trace_get_n_cpus (trace); cpu++)
    {
      gsize n_runs;
      const SeismoInterval *runs = seismo_trace_get_cpu_runs (trace, cpu, &n_runs);
      gint64 pid = SEISMO_EXPORT_CPU_PID_BASE + cpu;

      for (gsize r = 0; r < n_runs; r++)
        {
          const SeismoInterval *run = &runs[r];
          guint64 start = MAX (seismo_trace_interval_start_ns (trace, run), c->from_ns);
          guint64 end = MIN (seismo_trace_interval_end_ns (trace, run), c->to_ns);
          const SeismoTask *task = seismo_trace_get_task (trace, run->task);
          const char *comm = seismo_trace_task_comm_at (trace, run->task, start);

          if (end < start || (end == start && seismo_trace_interval_start_ns (trace, run) != start))
            continue;
          append_event_head (c->w->buf, "X", *comm ? comm : "<...>", "sched", start, pid, pid);
          g_string_append (c->w->buf, ",\"dur\":");
          append_us (c->w->buf, end - start);
          g_string_append_printf (c->w->buf, ",\"args\":{\"tid\":%d,\"pid\":%d", task->tid,
                                  task->pid);
          /* Why the run ended: the state letters of the switch that ended it. */
          if (run->end != SEISMO_NO_EVENT)
            {
              const SeismoEventType *type = seismo_trace_event_type (trace, run->end);
              int f = type->roles[SEISMO_ROLE_PREV_STATE];
              SeismoValue v;

              if (f >= 0 && seismo_trace_event_field (trace, run->end, f, &v))
                {
                  g_string_truncate (c->scratch, 0);
                  seismo_trace_format_value (trace, &type->fields[f], &v, c->scratch);
                  g_string_append (c->w->buf, ",\"end_state\":");
                  seismo_json_append_string (c->w->buf, c->scratch->str);
                }
            }
          g_string_append (c->w->buf, "}}");
          if (!seismo_export_writer_maybe_flush (c->w, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
write_instants (Chrome  *c,
                GError **error)
{
  SeismoTrace *trace = c->trace;
  gsize n = seismo_trace_get_n_events (trace);
  const guint64 *times = seismo_trace_get_times (trace);
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  g_autofree guint64 *in_span = g_new0 (guint64, n / 64 + 1);
  guint n_lost;
  const SeismoLostEvents *lost = seismo_trace_get_lost_events (trace, &n_lost);

  /* Enter and exit of a finished span are the "X" event already. */
  for (gsize s = 0; s < n_spans; s++)
    if (spans[s].exit != SEISMO_NO_EVENT)
      {
        in_span[spans[s].enter >> 6] |= G_GUINT64_CONSTANT (1) << (spans[s].enter & 63);
        in_span[spans[s].exit >> 6] |= G_GUINT64_CONSTANT (1) << (spans[s].exit & 63);
      }

  for (gsize i = 0; i < n; i++)
    {
      const SeismoEventType *type;
      const SeismoTask *task;

      if ((in_span[i >> 6] >> (i & 63)) & 1 || !seismo_selection_has (c->sel, i, times[i]))
        continue;
      type = seismo_trace_event_type (trace, i);
      if (type->kind == SEISMO_KIND_SCHED_SWITCH)
        continue;
      task = seismo_trace_event_task (trace, i);
      append_event_head (c->w->buf, "i", type->name, type->system, times[i], chrome_pid (task),
                         task->tid);
      g_string_append (c->w->buf, ",\"s\":\"t\",\"args\":{");
      /* Chrome events have no CPU; keep it as an arg unless a field already has the name. */
      if (seismo_event_type_find_field (type, "cpu") < 0)
        g_string_append_printf (c->w->buf, "\"cpu\":%u", seismo_trace_event_cpu (trace, i));
      append_fields (c, i, seismo_event_type_find_field (type, "cpu") >= 0);
      g_string_append (c->w->buf, "}}");
      if (!seismo_export_writer_maybe_flush (c->w, error))
        return FALSE;
    }

  for (guint l = 0; l < n_lost; l++)
    {
      if (lost[l].time_ns < c->from_ns || lost[l].time_ns > c->to_ns)
        continue;
      append_event_head (c->w->buf, "i", "lost events", "seismo", lost[l].time_ns, 0, 0);
      g_string_append_printf (c->w->buf, ",\"s\":\"g\",\"args\":{\"cpu\":%d,\"count\":%"
                              G_GUINT64_FORMAT "}}", lost[l].cpu, lost[l].count);
    }
  return TRUE;
}

gboolean
seismo_export_chrome_json (SeismoTrace            *trace,
                           const SeismoSelection  *selection,
                           const char             *path,
                           GError                **error)
{
  g_autoptr(SeismoExportWriter) w = NULL;
  g_autoptr(GString) scratch = g_string_new (NULL);
  const char *const *keys;
  Chrome c = { 0 };
  gboolean ok;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(w = seismo_export_writer_new (path, error)))
    return FALSE;
  c.trace = trace;
  c.sel = selection;
  c.w = w;
  c.scratch = scratch;
  c.from_ns = seismo_trace_get_start_ns (trace);
  c.to_ns = seismo_trace_get_end_ns (trace);
  if (selection != NULL)
    {
      c.from_ns = MAX (c.from_ns, selection->start_ns);
      c.to_ns = MIN (c.to_ns, selection->end_ns);
    }

  g_string_append (w->buf, "{\"displayTimeUnit\":\"ns\",\"otherData\":{");
  keys = seismo_trace_get_metadata_keys (trace);
  for (guint i = 0; keys[i]; i++)
    {
      if (i > 0)
        g_string_append_c (w->buf, ',');
      seismo_json_append_string (w->buf, keys[i]);
      g_string_append_c (w->buf, ':');
      seismo_json_append_string (w->buf, seismo_trace_get_metadata (trace, keys[i]));
    }
  /* The first element carries no comma so every later one can start with one. */
  g_string_append (w->buf, "},\n\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\","
                   "\"pid\":0,\"tid\":0,\"args\":{\"name\":\"<idle>\"}}");

  write_names (&c);
  ok = write_spans (&c, error) && write_runs (&c, error) && write_instants (&c, error);
  g_free (c.values);
  if (!ok)
    return FALSE;
  g_string_append (w->buf, "\n]}\n");
  return seismo_export_writer_commit (w, error);
}

static gboolean
save_chrome_json (SeismoTrace  *trace,
                  const char   *path,
                  GError      **error)
{
  return seismo_export_chrome_json (trace, NULL, path, error);
}

const SeismoExporter seismo_chrome_json_exporter = {
  .name = "chrome-json",
  .extension = ".json",
  .save = save_chrome_json,
};

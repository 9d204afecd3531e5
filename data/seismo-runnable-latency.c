/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-runnable-latency.h"
#include "seismo-trace-private.h"

GArray *
seismo_runnable_latency_collect (SeismoTrace  *trace,
                                 SeismoTaskId  task,
                                 guint64       from_ns,
                                 guint64       to_ns)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (SeismoLatencySample));
  const SeismoStateSpan *spans;
  gsize n, i;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), out);
  g_return_val_if_fail (task < seismo_trace_get_n_tasks (trace), out);

  spans = seismo_trace_get_task_states (trace, task, &n);
  i = seismo_trace_task_state_find (trace, task, from_ns);
  for (i = i == G_MAXSIZE ? 0 : i; i + 1 < n; i++)
    {
      SeismoEventId start = spans[i].start, end = spans[i + 1].start;
      guint64 s = trace->ts[start], e = trace->ts[end];
      SeismoLatencySample sample;

      if (s >= to_ns)
        break;
      if (spans[i].state != SEISMO_STATE_RUNNABLE || spans[i + 1].state != SEISMO_STATE_RUNNING ||
          s < from_ns || e > to_ns)
        continue;
      sample = (SeismoLatencySample) { e - s, start, end };
      g_array_append_val (out, sample);
    }
  return out;
}

SeismoLatencyHistogram *
seismo_runnable_latency_histogram (SeismoTrace  *trace,
                                   SeismoTaskId  task,
                                   guint64       from_ns,
                                   guint64       to_ns)
{
  g_autoptr(GArray) samples = seismo_runnable_latency_collect (trace, task, from_ns, to_ns);
  SeismoLatencyHistogram *h = seismo_latency_histogram_new_log2 ();

  seismo_latency_histogram_add_samples (h, samples);
  return h;
}

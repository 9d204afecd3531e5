/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-trace-private.h"
#include "seismo-work-priority.h"

/*
 * Which syscall spans failed: a bit per span, set when the call returned an error (-4095..-1).
 * Found once per trace, on every core, and kept with it: the timeline colours failed calls, the
 * statistics and the compare view count errors, and each of them decoding millions of return
 * values from the payload again was most of what opening the Statistics pane cost.
 */

/* A multiple of 64: no two threads write the same word. */
#define FAILED_CHUNK (64 * 1024)

typedef struct {
  SeismoTrace *trace;
  guint64     *failed;
  gint         next_chunk;
} FailedJob;

static gpointer
find_failed (gpointer data)
{
  FailedJob *job = data;
  SeismoTrace *trace = job->trace;

  seismo_work_priority_enter ();

  for (;;)
    {
      gsize first = (gsize) g_atomic_int_add (&job->next_chunk, 1) * FAILED_CHUNK;

      if (first >= trace->n_spans)
        break;
      for (gsize i = first; i < MIN (first + FAILED_CHUNK, trace->n_spans); i++)
        {
          gint64 ret;

          if (seismo_trace_syscall_span_ret (trace, &trace->spans[i], &ret) && ret < 0 && ret >= -4095)
            job->failed[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
        }
    }
  return NULL;
}

const guint64 *
seismo_trace_get_failed_spans (SeismoTrace *self)
{
  guint64 *failed;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);

  if ((failed = g_atomic_pointer_get (&self->span_failed)) != NULL)
    return failed;
  g_mutex_lock (&self->failed_lock);
  if ((failed = self->span_failed) == NULL)
    {
      FailedJob job = { self, g_new0 (guint64, self->n_spans / 64 + 1), 0 };
      guint n_threads = self->n_spans >= 4 * FAILED_CHUNK ? CLAMP (g_get_num_processors (), 1, 8) : 1;
      GThread *threads[8] = { NULL };

      for (guint i = 1; i < n_threads; i++)
        threads[i] = g_thread_try_new ("seismo-failed", find_failed, &job, NULL);
      find_failed (&job);
      for (guint i = 1; i < n_threads; i++)
        if (threads[i] != NULL)
          g_thread_join (threads[i]);
      failed = job.failed;
      g_atomic_pointer_set (&self->span_failed, failed);
    }
  g_mutex_unlock (&self->failed_lock);
  return failed;
}

gboolean
seismo_trace_syscall_span_failed (SeismoTrace *self,
                                  gsize        span)
{
  const guint64 *failed = seismo_trace_get_failed_spans (self);

  g_return_val_if_fail (span < self->n_spans, FALSE);
  return (failed[span >> 6] >> (span & 63)) & 1;
}

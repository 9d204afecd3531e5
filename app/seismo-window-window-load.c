/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-error.h"
#include "seismo-file-summary.h"
#include "seismo-stacks.h"
#include "seismo-symbolizer.h"
#include "seismo-window-private.h"
#include "seismo-work-priority.h"

/*
 * A trace larger than memory (seismo-file-summary.h) is shown as one window of its events over
 * the whole trace's summary. When the timeline's view comes to rest outside the loaded events
 * (SeismoTimeline::load-window), the events around the view are read in a worker and shown in
 * place of the old window; the view stays where it is. A view too wide for one window is left to
 * the summary's level-of-detail cells.
 */

typedef struct {
  SeismoFileSummary  *summary;
  guint64             start_ns;
  guint64             end_ns;
  SeismoTrace        *shown;     /* the window shown when the job started */
  SeismoTrace        *trace;
  SeismoTimelineData *data;
} WindowJob;

static void
window_job_free (WindowJob *job)
{
  g_clear_pointer (&job->summary, seismo_file_summary_free);
  g_clear_object (&job->shown);
  g_clear_object (&job->trace);
  g_clear_pointer (&job->data, seismo_timeline_data_unref);
  g_free (job);
}

static void
window_load_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  WindowJob *job = task_data;
  GError *error = NULL;

  seismo_work_priority_enter ();

  job->trace = seismo_file_summary_load_around (job->summary, job->start_ns, job->end_ns,
                                                SEISMO_WINDOW_PART_MAX_EVENTS, cancellable, &error);
  if (job->trace == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The summary's window cache gave back what is shown: nothing to swap. */
  if (job->trace == job->shown)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  seismo_symbolize_opened_trace (job->trace);
  job->data = seismo_timeline_data_new_for_window (job->trace, job->summary, cancellable);
  if (job->data == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Opening was cancelled"));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
window_load_done (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SeismoWindow *self = SEISMO_WINDOW (source);
  WindowJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->window_cancellable)
    return;
  g_clear_object (&self->window_cancellable);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && !g_error_matches (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED))
        _seismo_window_toast (self, error->message);
      return;
    }
  if (job->data == NULL || job->shown != self->trace)
    return;
  _seismo_window_show_trace (self, job->trace, job->data);
}

void
_seismo_window_load_window (SeismoWindow *self,
                            guint64       start_ns,
                            guint64       end_ns)
{
  g_autoptr(GTask) task = NULL;
  SeismoFileSummary *summary;
  WindowJob *job;

  if (self->data == NULL || (summary = seismo_timeline_data_get_summary (self->data)) == NULL)
    return;
  if (self->window_cancellable != NULL)
    g_cancellable_cancel (self->window_cancellable);
  g_set_object (&self->window_cancellable, g_cancellable_new ());

  job = g_new0 (WindowJob, 1);
  job->summary = seismo_file_summary_ref (summary);
  job->start_ns = start_ns;
  job->end_ns = end_ns;
  job->shown = g_object_ref (self->trace);
  task = g_task_new (self, self->window_cancellable, window_load_done, NULL);
  g_task_set_source_tag (task, _seismo_window_load_window);
  g_task_set_task_data (task, job, (GDestroyNotify) window_job_free);
  g_task_run_in_thread (task, window_load_thread);
}

static void
on_load_window (SeismoWindow *self,
                guint64       start_ns,
                guint64       end_ns)
{
  SeismoFileSummary *summary;
  guint64 n;

  if (self->data == NULL || (summary = seismo_timeline_data_get_summary (self->data)) == NULL)
    return;
  n = seismo_file_summary_count_window (summary, start_ns, end_ns);
  /* Nothing there, or wider than a window: the summary draws it. */
  if (end_ns <= start_ns || n == 0 || n > SEISMO_WINDOW_PART_MAX_EVENTS)
    return;
  _seismo_window_load_window (self, start_ns, end_ns);
}

void
_seismo_window_init_window_load (SeismoWindow *self)
{
  g_signal_connect_swapped (self->timeline, "load-window", G_CALLBACK (on_load_window), self);
}

void
_seismo_window_dispose_window_load (SeismoWindow *self)
{
  if (self->window_cancellable != NULL)
    g_cancellable_cancel (self->window_cancellable);
  g_clear_object (&self->window_cancellable);
}

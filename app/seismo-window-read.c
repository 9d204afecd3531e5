/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib/gi18n.h>

#include "seismo-error.h"
#include "seismo-file-summary.h"
#include "seismo-importer.h"
#include "seismo-symbolizer.h"
#include "seismo-window-read.h"
#include "seismo-work-priority.h"

static void
read_progress (double   fraction,
               gpointer user_data)
{
  gint *permille = user_data;

  /* Reading is most of the work; preparing the timeline is the last tenth. */
  if (permille != NULL)
    g_atomic_int_set (permille, (int) (CLAMP (fraction, 0, 1) * 900));
}

gboolean
seismo_window_read (const char           *path,
                    gint                 *permille,
                    SeismoWindowTraceRead trace_read,
                    gpointer              user_data,
                    GCancellable         *cancellable,
                    SeismoTrace         **trace_out,
                    SeismoTimelineData  **data_out,
                    GError              **error)
{
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoFileSummary) summary = NULL;
  SeismoTimelineData *data;

#ifdef __GLIBC__
  /* Arrays of a trace's size (matches, indexes, buffers of the read) are mapped and unmapped,
   * so their memory goes back to the system when they are freed. glibc would otherwise raise its
   * threshold up to 32 MB after the first such free and serve the next ones from its heap,
   * where freed memory stays resident. A frame's surfaces (under 16 MB) stay on the heap. */
  mallopt (M_MMAP_THRESHOLD, 16 << 20);
#endif
  if (seismo_file_summary_too_large (path))
    {
      /* Its summary first: the whole trace is drawn from it at once, and the events of its
       * middle follow (seismo-window-window-load.c), read while the timeline is already up. */
      summary = seismo_file_summary_open (path, NULL);
      if (summary != NULL)
        trace = g_object_ref (seismo_file_summary_get_tables (summary));
      else
        trace = seismo_file_load_part (path, SEISMO_WINDOW_PART_MAX_EVENTS, cancellable, error);
    }
  else
    trace = seismo_trace_open (path, cancellable, read_progress, permille, error);
  if (trace == NULL)
    return FALSE;
  /* User stack frames recorded as addresses are named here, from the files they were in (before
   * anything else reads the trace). */
  seismo_symbolize_opened_trace (trace);
  if (permille != NULL)
    g_atomic_int_set (permille, 920);
  /* Every index the window reads is built here, not at its first use on the main thread. The
   * timeline finds a row's events near the pointer by a scan of the few pixels around it, so the
   * per-CPU and per-task event indexes (4 bytes an event each) are not built for it. */
  seismo_trace_find_task (trace, 0, 0);
  if (trace_read != NULL)
    trace_read (trace, user_data);
  data = seismo_timeline_data_new_for_window (trace, summary, cancellable);
  if (data == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Opening was cancelled"));
      return FALSE;
    }
#ifdef __GLIBC__
  /* Reading freed its buffers into this thread's malloc arena, where they would stay resident
   * for the window's lifetime: give the free pages back (~15 MB on a 10M-event trace). */
  malloc_trim (0);
#endif
  *trace_out = g_steal_pointer (&trace);
  *data_out = data;
  return TRUE;
}

/* Early reads */

struct _SeismoEarlyRead
{
  char               *path;
  GCancellable       *cancellable;
  GThread            *thread;
  gint                permille;   /* atomic */

  GMutex              lock;
  GCond               cond;
  SeismoTrace        *read;       /* under lock: the trace, once read (before the data) */
  gboolean            done;       /* under lock; the fields below are the thread's until then */
  gboolean            ok;
  SeismoTrace        *trace;
  SeismoTimelineData *data;
  GError             *error;
};

static void
early_trace_read (SeismoTrace *trace,
                  gpointer     user_data)
{
  SeismoEarlyRead *self = user_data;

  g_mutex_lock (&self->lock);
  self->read = g_object_ref (trace);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static gpointer
early_read_thread (gpointer user_data)
{
  SeismoEarlyRead *self = user_data;
  gboolean ok;

  seismo_work_priority_enter ();
  ok = seismo_window_read (self->path, &self->permille, early_trace_read, self,
                           self->cancellable, &self->trace, &self->data, &self->error);

  g_mutex_lock (&self->lock);
  self->ok = ok;
  self->done = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return NULL;
}

SeismoEarlyRead *
seismo_early_read_start (const char *path)
{
  SeismoEarlyRead *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_new0 (SeismoEarlyRead, 1);
  self->path = g_strdup (path);
  self->cancellable = g_cancellable_new ();
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->thread = g_thread_new ("seismo-early-read", early_read_thread, self);
  return self;
}

const char *
seismo_early_read_get_path (SeismoEarlyRead *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

static void
forward_cancel (GCancellable *cancellable,
                GCancellable *read_cancellable)
{
  g_cancellable_cancel (read_cancellable);
}

gboolean
seismo_early_read_join (SeismoEarlyRead      *self,
                        GCancellable         *cancellable,
                        gint                 *permille,
                        SeismoWindowTraceRead trace_read,
                        gpointer              user_data,
                        SeismoTrace         **trace,
                        SeismoTimelineData  **data,
                        GError              **error)
{
  gulong cancel_id = 0;
  gboolean told = FALSE;

  g_return_val_if_fail (self != NULL && self->thread != NULL, FALSE);

  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                       g_object_ref (self->cancellable), g_object_unref);
  g_mutex_lock (&self->lock);
  while (!self->done)
    {
      /* The window's progress bar reads its own counter: copy the read's into it meanwhile. */
      if (permille != NULL)
        g_atomic_int_set (permille, g_atomic_int_get (&self->permille));
      if (self->read != NULL && !told)
        {
          g_autoptr(SeismoTrace) read = g_object_ref (self->read);

          g_mutex_unlock (&self->lock);
          if (trace_read != NULL)
            trace_read (read, user_data);
          told = TRUE;
          g_mutex_lock (&self->lock);
          continue;
        }
      g_cond_wait_until (&self->cond, &self->lock, g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
    }
  /* Read and done between two looks: told now, as a direct read would have. */
  if (self->ok && !told && trace_read != NULL)
    {
      g_autoptr(SeismoTrace) read = g_object_ref (self->read);

      g_mutex_unlock (&self->lock);
      trace_read (read, user_data);
    }
  else
    g_mutex_unlock (&self->lock);
  g_thread_join (g_steal_pointer (&self->thread));
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, cancel_id);

  if (!self->ok)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  if (permille != NULL)
    g_atomic_int_set (permille, 1000);
  *trace = g_steal_pointer (&self->trace);
  *data = g_steal_pointer (&self->data);
  return TRUE;
}

void
seismo_early_read_free (SeismoEarlyRead *self)
{
  if (self == NULL)
    return;
  if (self->thread != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_thread_join (g_steal_pointer (&self->thread));
    }
  g_clear_object (&self->read);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->data, seismo_timeline_data_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self->path);
  g_free (self);
}

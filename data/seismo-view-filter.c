/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-filter-run.h"
#include "seismo-view-private.h"
#include "seismo-work-priority.h"

/*
 * The view's filter: the text is compiled on the main thread (errors come back at once), then
 * evaluated on a worker. The worker posts progress and the matches found so far back to the
 * view's main context; a newer request cancels the running one, and whatever a cancelled run
 * posts afterwards is dropped.
 */

/* How often the worker posts progress, and the matches found so far. */
#define PROGRESS_US  (100 * 1000)
#define PARTIAL_US   (300 * 1000)

typedef struct {
  SeismoFilter *filter;
  SeismoView   *view;          /* owned: posts keep it alive */
  GMainContext *context;
  GCancellable *cancellable;
  char         *label;
  gint64        last_post;
  gint64        last_partial;
  gsize         n_partial;     /* matches in the last partial result */
  GBytes       *mask;
  SeismoMatchSet *matches;
  gsize         n_matched;
} FilterJob;

static void
filter_job_free (FilterJob *job)
{
  g_clear_pointer (&job->filter, seismo_filter_unref);
  g_clear_object (&job->view);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->mask, g_bytes_unref);
  g_clear_pointer (&job->matches, seismo_match_set_unref);
  g_free (job->label);
  g_free (job);
}

typedef struct {
  SeismoView   *view;
  GCancellable *cancellable;
  SeismoMatchSet *matches;     /* NULL: progress only */
  double        progress;
} FilterPost;

static void
filter_post_free (FilterPost *post)
{
  g_clear_object (&post->view);
  g_clear_object (&post->cancellable);
  g_clear_pointer (&post->matches, seismo_match_set_unref);
  g_free (post);
}

static void
set_busy (SeismoView *self,
          gboolean    busy)
{
  GObject *object = G_OBJECT (self);

  g_object_freeze_notify (object);
  if (!busy)
    g_clear_object (&self->cancellable);
  if (self->progress != 0)
    {
      self->progress = 0;
      g_object_notify_by_pspec (object, _seismo_view_properties[SEISMO_VIEW_PROP_FILTER_PROGRESS]);
    }
  g_object_notify_by_pspec (object, _seismo_view_properties[SEISMO_VIEW_PROP_FILTER_BUSY]);
  g_object_thaw_notify (object);
}

static gboolean
filter_post_apply (gpointer data)
{
  FilterPost *post = data;
  SeismoView *self = post->view;

  if (post->cancellable != self->cancellable || g_cancellable_is_cancelled (post->cancellable))
    return G_SOURCE_REMOVE;
  if (post->progress != self->progress)
    {
      self->progress = post->progress;
      g_object_notify_by_pspec (G_OBJECT (self), _seismo_view_properties[SEISMO_VIEW_PROP_FILTER_PROGRESS]);
    }
  if (post->matches != NULL)
    g_signal_emit (self, _seismo_view_signals[SEISMO_VIEW_PARTIAL_RESULT], 0, post->matches);
  return G_SOURCE_REMOVE;
}

static void
on_slice_done (gsize           done,
               gsize           total,
               SeismoMatchSet *matches,
               gpointer        user_data)
{
  FilterJob *job = user_data;
  gsize n_matches = seismo_match_set_get_size (matches);
  gint64 now = g_get_monotonic_time ();
  FilterPost *post;

  if (done >= total || now - job->last_post < PROGRESS_US)
    return;
  post = g_new0 (FilterPost, 1);
  post->view = g_object_ref (job->view);
  post->cancellable = g_object_ref (job->cancellable);
  post->progress = (double) done / (double) MAX (total, 1);
  /* The first matches as soon as there are any, then more now and then: the list shows them
   * while the rest of the trace is evaluated. */
  if (n_matches > job->n_partial && (job->n_partial == 0 || now - job->last_partial >= PARTIAL_US))
    {
      post->matches = seismo_match_set_ref (matches);
      job->n_partial = n_matches;
      job->last_partial = now;
    }
  job->last_post = now;
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, filter_post_apply, post,
                              (GDestroyNotify) filter_post_free);
}

static void
filter_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  FilterJob *job = task_data;

  seismo_work_priority_enter ();

  if (!seismo_filter_run_all (job->filter, on_slice_done, job, cancellable,
                              &job->mask, &job->matches, &job->n_matched))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
set_result (SeismoView     *self,
            GBytes         *mask,
            SeismoMatchSet *matches,
            gsize           n_matched,
            const char     *applied)
{
  GObject *object = G_OBJECT (self);

  /* The same result again (a launch, a repeated Enter) leaves every follower as it is. */
  if (g_strcmp0 (applied, self->applied) == 0 && n_matched == self->n_matched
      && (mask == self->mask || (mask != NULL && self->mask != NULL && g_bytes_equal (mask, self->mask))))
    return;
  g_object_freeze_notify (object);
  g_clear_pointer (&self->mask, g_bytes_unref);
  g_clear_pointer (&self->matches, seismo_match_set_unref);
  self->mask = mask != NULL ? g_bytes_ref (mask) : NULL;
  self->matches = matches != NULL ? seismo_match_set_ref (matches) : NULL;
  self->n_matched = n_matched;
  g_free (self->applied);
  self->applied = g_strdup (applied);
  g_object_notify_by_pspec (object, _seismo_view_properties[SEISMO_VIEW_PROP_MASK]);
  g_object_notify_by_pspec (object, _seismo_view_properties[SEISMO_VIEW_PROP_MATCHES]);
  g_object_notify_by_pspec (object, _seismo_view_properties[SEISMO_VIEW_PROP_N_MATCHED]);
  g_object_notify_by_pspec (object, _seismo_view_properties[SEISMO_VIEW_PROP_APPLIED]);
  g_object_thaw_notify (object);
  g_signal_emit (self, _seismo_view_signals[SEISMO_VIEW_RESULT_CHANGED], 0);
}

static void
set_no_result (SeismoView *self)
{
  set_result (self, NULL, NULL, self->trace != NULL ? seismo_trace_get_n_events (self->trace) : 0, "");
}

static void
filter_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  SeismoView *self = SEISMO_VIEW (source);
  FilterJob *job = g_task_get_task_data (G_TASK (result));
  gboolean current = g_task_get_cancellable (G_TASK (result)) == self->cancellable;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* Replaced by a newer run, or stopped: the newer request decides what is shown. */
      if (current)
        set_busy (self, FALSE);
      return;
    }
  if (!current)
    return;
  set_busy (self, FALSE);
  set_result (self, job->mask, job->matches, job->n_matched, job->label);
}

void
seismo_view_cancel_filter (SeismoView *self)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));

  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      set_busy (self, FALSE);
    }
}

static void
run_filter (SeismoView   *self,
            SeismoFilter *filter)
{
  g_autoptr(GTask) task = NULL;
  FilterJob *job;

  seismo_view_cancel_filter (self);
  if (seismo_filter_matches_all (filter))
    {
      set_no_result (self);
      return;
    }
  self->cancellable = g_cancellable_new ();
  job = g_new0 (FilterJob, 1);
  job->filter = seismo_filter_ref (filter);
  job->view = g_object_ref (self);
  job->context = g_main_context_ref_thread_default ();
  job->cancellable = g_object_ref (self->cancellable);
  job->label = g_strdup (seismo_filter_get_expression (filter));
  job->last_post = g_get_monotonic_time ();
  task = g_task_new (self, self->cancellable, filter_done, NULL);
  g_task_set_source_tag (task, run_filter);
  g_task_set_task_data (task, job, (GDestroyNotify) filter_job_free);
  g_task_run_in_thread (task, filter_thread);
  set_busy (self, TRUE);
}

static void
set_filter_text_field (SeismoView *self,
                       const char *text)
{
  if (g_strcmp0 (text, self->filter_text) == 0)
    return;
  g_free (self->filter_text);
  self->filter_text = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), _seismo_view_properties[SEISMO_VIEW_PROP_FILTER_TEXT]);
}

gboolean
seismo_view_set_filter_text (SeismoView  *self,
                             const char  *text,
                             GError     **error)
{
  g_autofree char *stripped = NULL;
  g_autoptr(SeismoFilter) filter = NULL;

  g_return_val_if_fail (SEISMO_IS_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  stripped = g_strstrip (g_strdup (text));
  if (self->trace == NULL)
    {
      set_filter_text_field (self, stripped);
      return TRUE;
    }
  filter = seismo_filter_compile (self->trace, stripped, error);
  if (filter == NULL)
    return FALSE;
  /* Asked again for what is in force or under way: nothing to do. */
  if (g_str_equal (stripped, self->filter_text)
      && (self->cancellable != NULL || g_str_equal (stripped, self->applied)))
    return TRUE;
  set_filter_text_field (self, stripped);
  run_filter (self, filter);
  return TRUE;
}

void
seismo_view_set_filter_mask (SeismoView *self,
                             GBytes     *mask,
                             const char *label)
{
  gsize n_words = 0, n_events;
  g_autoptr(SeismoMatchSet) matches = NULL;

  g_return_if_fail (SEISMO_IS_VIEW (self));
  g_return_if_fail (mask != NULL && label != NULL);
  g_return_if_fail (self->trace != NULL);

  n_events = seismo_trace_get_n_events (self->trace);
  n_words = g_bytes_get_size (mask);
  g_return_if_fail (n_words / sizeof (guint64) == seismo_filter_mask_words (n_events));

  seismo_view_cancel_filter (self);
  set_filter_text_field (self, "");
  /* A set over the mask itself: a rank directory (4 bytes per 512 events), no ids. */
  matches = seismo_match_set_new_from_mask (mask, n_events);
  set_result (self, mask, matches, seismo_match_set_get_size (matches), label);
}

/* A new trace: the filter text in force is evaluated again over it. */
void
_seismo_view_filter_retrace (SeismoView *self)
{
  g_autoptr(SeismoFilter) filter = NULL;

  seismo_view_cancel_filter (self);
  /* What was last asked for stays asked for; the result of the old trace goes. */
  if (self->mask != NULL)
    set_no_result (self);
  else
    {
      /* No filter before, none now: only the count of "every event" changed. */
      self->n_matched = self->trace != NULL ? seismo_trace_get_n_events (self->trace) : 0;
      g_object_notify_by_pspec (G_OBJECT (self), _seismo_view_properties[SEISMO_VIEW_PROP_N_MATCHED]);
    }
  if (self->trace == NULL || self->filter_text[0] == '\0')
    return;
  filter = seismo_filter_compile (self->trace, self->filter_text, NULL);
  if (filter == NULL)
    {
      set_filter_text_field (self, "");
      return;
    }
  run_filter (self, filter);
}

void
_seismo_view_filter_dispose (SeismoView *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->mask, g_bytes_unref);
  g_clear_pointer (&self->matches, seismo_match_set_unref);
}

gboolean
seismo_view_get_filter_busy (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), FALSE);
  return self->cancellable != NULL;
}

double
seismo_view_get_filter_progress (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), 0);
  return self->progress;
}

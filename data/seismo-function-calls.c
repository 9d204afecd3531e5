/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <stdlib.h>
#include <string.h>

#include "seismo-function-calls.h"
#include "seismo-trace-private.h"

/* Deeper calls are folded into the deepest level drawn: a task row must stay readable. */
#define MAX_LEVEL 255

static int
compare_calls (const void *a,
               const void *b)
{
  const SeismoFunctionCall *x = a, *y = b;

  if (x->task != y->task)
    return x->task < y->task ? -1 : 1;
  if (x->level != y->level)
    return x->level < y->level ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return x->exit < y->exit ? -1 : x->exit > y->exit;
}

static guint64
field_u64 (SeismoTrace   *trace,
           SeismoEventId  event,
           int            field)
{
  SeismoValue v;

  if (field < 0 || !seismo_trace_event_field (trace, event, (guint) field, &v))
    return 0;
  return v.type == SEISMO_FIELD_INT ? (guint64) MAX (v.i, 0) : v.u;
}

static void
build_calls (SeismoTrace *self)
{
  const SeismoEventType *type = seismo_trace_find_event_type (self, "ftrace:funcgraph_exit");
  g_autoptr(GArray) calls = g_array_new (FALSE, FALSE, sizeof (SeismoFunctionCall));
  g_autofree guint16 *min_depth = NULL;
  int f_func, f_depth, f_duration, f_calltime, f_rettime;

  if (type == NULL)
    return;
  f_func = seismo_event_type_find_field (type, "func");
  f_depth = seismo_event_type_find_field (type, "depth");
  f_duration = seismo_event_type_find_field (type, "duration_ns");
  /* trace.dat's funcgraph_exit carries the two times instead. */
  f_calltime = seismo_event_type_find_field (type, "calltime");
  f_rettime = seismo_event_type_find_field (type, "rettime");

  min_depth = g_new (guint16, MAX (self->n_tasks, 1));
  memset (min_depth, 0xff, sizeof (guint16) * MAX (self->n_tasks, 1));
  for (gsize i = 0; i < self->n_events; i++)
    {
      SeismoFunctionCall c = { 0 };
      guint64 duration;
      SeismoValue v;

      if (self->type[i] != type->id)
        continue;
      duration = f_duration >= 0 ? field_u64 (self, i, f_duration)
                                 : field_u64 (self, i, f_rettime) - field_u64 (self, i, f_calltime);
      if (f_duration < 0 && field_u64 (self, i, f_rettime) < field_u64 (self, i, f_calltime))
        duration = 0;
      c.end_ns = self->ts[i];
      c.start_ns = duration > c.end_ns ? 0 : c.end_ns - duration;
      c.exit = (SeismoEventId) i;
      c.task = self->task[i];
      c.level = (guint16) MIN (field_u64 (self, i, f_depth), MAX_LEVEL);
      if (f_func >= 0 && seismo_trace_event_field (self, i, (guint) f_func, &v) &&
          v.type == SEISMO_FIELD_STRING)
        c.func = (SeismoStringId) v.u;
      if (c.task < self->n_tasks)
        min_depth[c.task] = MIN (min_depth[c.task], c.level);
      g_array_append_val (calls, c);
    }
  /* A file that begins inside deep calls: its outermost call is level 0. */
  for (guint i = 0; i < calls->len; i++)
    {
      SeismoFunctionCall *c = &g_array_index (calls, SeismoFunctionCall, i);

      if (c->task < self->n_tasks)
        c->level -= min_depth[c->task];
    }
  qsort (calls->data, calls->len, sizeof (SeismoFunctionCall), compare_calls);
  self->n_calls = calls->len;
  self->calls = g_array_free (g_steal_pointer (&calls), FALSE);
}

const SeismoFunctionCall *
seismo_trace_get_function_calls (SeismoTrace *self,
                                 gsize       *n_calls)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);

  if (!g_atomic_int_get (&self->calls_built))
    {
      g_mutex_lock (&self->index_lock);
      if (!self->calls_built)
        {
          build_calls (self);
          g_atomic_int_set (&self->calls_built, TRUE);
        }
      g_mutex_unlock (&self->index_lock);
    }
  if (n_calls)
    *n_calls = self->n_calls;
  return (const SeismoFunctionCall *) self->calls;
}

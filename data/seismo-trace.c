/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-big-array.h"
#include "seismo-error.h"
#include "seismo-syscalls.h"
#include "seismo-stacks-private.h"
#include "seismo-trace-private.h"

G_DEFINE_FINAL_TYPE (SeismoTrace, seismo_trace, G_TYPE_OBJECT)

static void
seismo_trace_finalize (GObject *object)
{
  SeismoTrace *self = SEISMO_TRACE (object);

  g_free (self->ts);
  g_free (self->cpu);
  g_free (self->type);
  g_free (self->task);
  g_free (self->payload_off);
  g_free (self->block_base);
  g_free (self->payload);
  g_clear_pointer (&self->type_by_name, g_hash_table_unref);
  g_clear_pointer (&self->event_types, g_ptr_array_unref);
  g_free (self->tasks);
  g_free (self->comm_changes);
  g_free (self->strings);
  g_free (self->string_off);
  g_free (self->lost);
  for (guint i = 0; i < self->n_histograms; i++)
    _seismo_histogram_clear (&self->histograms[i]);
  g_free (self->histograms);
  g_clear_pointer (&self->meta_keys, g_ptr_array_unref);
  g_clear_pointer (&self->meta_values, g_ptr_array_unref);
  g_free (self->type_counts);
  g_free (self->cpu_switches);
  g_free (self->spans);
  g_free (self->calls);
  g_free (self->span_failed);
  g_clear_pointer (&self->syscall_names, g_ptr_array_unref);
  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    g_free (self->intervals[k]);
  g_free (self->cpu_run_off);
  g_free (self->state_spans);
  g_free (self->state_off);
  g_free (self->cpu_index);
  g_free (self->cpu_index_off);
  g_free (self->task_index);
  g_free (self->task_index_off);
  g_clear_pointer (&self->tid_tasks, g_hash_table_unref);
  g_free (self->tid_next);
  g_clear_pointer (&self->stacks, _seismo_stack_table_free);
  g_free (self->stack_of);
  g_mutex_clear (&self->index_lock);
  g_mutex_clear (&self->failed_lock);

  G_OBJECT_CLASS (seismo_trace_parent_class)->finalize (object);
}

static void
seismo_trace_class_init (SeismoTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = seismo_trace_finalize;
}

static void
seismo_trace_init (SeismoTrace *self)
{
  g_mutex_init (&self->index_lock);
  g_mutex_init (&self->failed_lock);
  self->event_types = g_ptr_array_new_with_free_func ((GDestroyNotify) _seismo_event_type_free);
  self->type_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->meta_keys = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->meta_keys, NULL);
  self->meta_values = g_ptr_array_new_with_free_func (g_free);
  self->syscall_names = g_ptr_array_new_with_free_func (g_free);
  /* Id 0 is the empty string, so a zeroed field reads as "". */
  self->strings = g_malloc0 (1);
  self->strings_len = 1;
  self->string_off = g_new0 (guint32, 1);
  self->n_strings = 1;
  self->block_base = g_new0 (guint64, 1);
}

SeismoTrace *
_seismo_trace_new (void)
{
  return g_object_new (SEISMO_TYPE_TRACE, NULL);
}

void
_seismo_trace_alloc_events (SeismoTrace *self,
                            gsize        n_events)
{
  g_assert (self->n_events == 0);

  self->n_events = n_events;
  self->ts = _seismo_big_array_new (guint64, n_events);
  self->cpu = _seismo_big_array_new (guint16, n_events);
  self->type = _seismo_big_array_new (guint16, n_events);
  self->task = _seismo_big_array_new (SeismoTaskId, n_events);
  self->payload_off = _seismo_big_array_new (guint32, n_events);
}

void
_seismo_trace_add_event_type (SeismoTrace     *self,
                              SeismoEventType *type)
{
  g_assert (type->id == self->event_types->len);

  g_ptr_array_add (self->event_types, type);
  g_hash_table_insert (self->type_by_name, type->full_name, type);
}

void
_seismo_trace_set_metadata (SeismoTrace *self,
                            const char  *key,
                            const char  *value)
{
  guint n = self->meta_values->len;

  for (guint i = 0; i < n; i++)
    if (strcmp (g_ptr_array_index (self->meta_keys, i), key) == 0)
      {
        g_free (g_ptr_array_index (self->meta_values, i));
        g_ptr_array_index (self->meta_values, i) = g_strdup (value);
        return;
      }
  g_ptr_array_index (self->meta_keys, n) = g_strdup (key);
  g_ptr_array_add (self->meta_keys, NULL);
  g_ptr_array_add (self->meta_values, g_strdup (value));
}

void
_seismo_histogram_copy (SeismoHistogram       *dst,
                        const SeismoHistogram *src)
{
  dst->name = g_strdup (src->name ? src->name : "");
  dst->key = g_strdup (src->key ? src->key : "");
  dst->unit = g_strdup (src->unit ? src->unit : "");
  dst->n_buckets = src->n_buckets;
  dst->lower = g_memdup2 (src->lower, sizeof (guint64) * src->n_buckets);
  dst->counts = g_memdup2 (src->counts, sizeof (guint64) * src->n_buckets);
  dst->total_count = src->total_count;
  dst->sum = src->sum;
}

void
_seismo_histogram_clear (SeismoHistogram *h)
{
  g_free (h->name);
  g_free (h->key);
  g_free (h->unit);
  g_free (h->lower);
  g_free (h->counts);
  memset (h, 0, sizeof *h);
}

/* Counting sort by time is not possible (64-bit keys); an LSD radix sort on the permutation keeps
 * stability and costs 8 linear passes, which beats qsort on tens of millions of events. */
static guint32 *
sort_permutation (const guint64 *ts,
                  gsize          n)
{
  g_autofree guint32 *tmp = _seismo_big_array_new (guint32, n);
  guint32 *perm = _seismo_big_array_new (guint32, n);
  guint64 min = G_MAXUINT64, max = 0, range;
  guint passes;

  for (gsize i = 0; i < n; i++)
    {
      perm[i] = (guint32) i;
      min = MIN (min, ts[i]);
      max = MAX (max, ts[i]);
    }
  range = max - min;
  for (passes = 0; passes < 8 && (range >> (passes * 8)) != 0; passes++)
    ;

  for (guint p = 0; p < passes; p++)
    {
      gsize count[257] = { 0 };
      guint shift = p * 8;

      for (gsize i = 0; i < n; i++)
        count[(((ts[perm[i]] - min) >> shift) & 0xff) + 1]++;
      for (guint b = 0; b < 256; b++)
        count[b + 1] += count[b];
      for (gsize i = 0; i < n; i++)
        tmp[count[((ts[perm[i]] - min) >> shift) & 0xff]++] = perm[i];
      memcpy (perm, tmp, n * sizeof (guint32));
    }
  return perm;
}

void
_seismo_trace_sort (SeismoTrace *self)
{
  gsize n = self->n_events;
  g_autofree guint32 *perm = NULL;
  guint64 *ts;
  guint16 *cpu, *type;
  SeismoTaskId *task;
  guint32 *off;
  guint32 *stack_of;
  guint8 *payload;
  guint64 *block_base;
  gsize n_blocks, pos = 0;
  gboolean sorted = TRUE;

  for (gsize i = 1; i < n && sorted && !self->known_sorted; i++)
    sorted = self->ts[i - 1] <= self->ts[i];
  if (sorted)
    return;

  perm = sort_permutation (self->ts, n);

  stack_of = self->stack_of ? g_new (guint32, MAX (n, 1)) : NULL;
  ts = _seismo_big_array_new (guint64, n);
  cpu = _seismo_big_array_new (guint16, n);
  type = _seismo_big_array_new (guint16, n);
  task = _seismo_big_array_new (SeismoTaskId, n);
  off = _seismo_big_array_new (guint32, n);
  payload = _seismo_big_array_new (guint8, self->payload_len);
  n_blocks = (n + SEISMO_BLOCK_EVENTS - 1) >> SEISMO_BLOCK_SHIFT;
  block_base = g_new0 (guint64, n_blocks + 1);

  for (gsize i = 0; i < n; i++)
    {
      guint32 j = perm[i];
      gsize len;
      const guint8 *p = _seismo_trace_payload (self, j, &len);

      if ((i & (SEISMO_BLOCK_EVENTS - 1)) == 0)
        block_base[i >> SEISMO_BLOCK_SHIFT] = pos;
      ts[i] = self->ts[j];
      cpu[i] = self->cpu[j];
      type[i] = self->type[j];
      task[i] = self->task[j];
      if (stack_of)
        stack_of[i] = self->stack_of[j];
      off[i] = (guint32) (pos - block_base[i >> SEISMO_BLOCK_SHIFT]);
      memcpy (payload + pos, p, len);
      pos += len;
    }
  block_base[n_blocks] = pos;

  g_free (self->ts);
  g_free (self->cpu);
  g_free (self->type);
  g_free (self->task);
  g_free (self->payload_off);
  g_free (self->payload);
  g_free (self->block_base);
  if (stack_of)
    {
      g_free (self->stack_of);
      self->stack_of = stack_of;
    }
  self->ts = ts;
  self->cpu = cpu;
  self->type = type;
  self->task = task;
  self->payload_off = off;
  self->payload = payload;
  self->block_base = block_base;
  self->n_blocks = n_blocks;
}

gboolean
_seismo_trace_validate (SeismoTrace  *self,
                        gboolean      ids_checked,
                        GError      **error)
{
  guint n_types = self->event_types->len;
  gsize n_blocks = (self->n_events + SEISMO_BLOCK_EVENTS - 1) >> SEISMO_BLOCK_SHIFT;

  if (self->n_blocks != n_blocks)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                   _("%zu payload blocks for %zu events"),
                   self->n_blocks, self->n_events);
      return FALSE;
    }
  for (gsize b = 0; b < n_blocks; b++)
    if (self->block_base[b] > self->block_base[b + 1])
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("payload block %zu starts after the next one"), b);
        return FALSE;
      }
  if (self->block_base[n_blocks] != self->payload_len)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                   _("payload blocks cover %" PRIu64 " bytes, payload has %" "zu"),
                   self->block_base[n_blocks], self->payload_len);
      return FALSE;
    }
  for (gsize i = 0; !ids_checked && i < self->n_events; i++)
    {
      gsize b = i >> SEISMO_BLOCK_SHIFT;
      guint64 start = self->block_base[b] + self->payload_off[i];
      guint64 limit = ((i + 1) < self->n_events && ((i + 1) >> SEISMO_BLOCK_SHIFT) == b)
                      ? self->block_base[b] + self->payload_off[i + 1]
                      : self->block_base[b + 1];

      if (self->type[i] >= n_types)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("event %zu has unknown type %u"), i, self->type[i]);
          return FALSE;
        }
      if (self->task[i] >= self->n_tasks)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("event %zu has unknown task %u"), i, self->task[i]);
          return FALSE;
        }
      if (start > limit)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("event %zu has a payload offset past the next event's"), i);
          return FALSE;
        }
    }
  if (self->n_strings == 0 || self->strings_len == 0 || self->strings[self->strings_len - 1] != '\0')
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("string table is not terminated"));
      return FALSE;
    }
  for (guint s = 0; s < self->n_strings; s++)
    if (self->string_off[s] >= self->strings_len)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                     _("string %u starts past the string table"), s);
        return FALSE;
      }
  for (guint t = 0; t < self->n_tasks; t++)
    if (self->tasks[t].comm >= self->n_strings)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                     _("task %u names unknown string %u"), t, self->tasks[t].comm);
        return FALSE;
      }
  for (guint c = 0; c < self->n_comm_changes; c++)
    if (self->comm_changes[c].task >= self->n_tasks ||
        self->comm_changes[c].comm >= self->n_strings)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("comm change %u is out of range"), c);
        return FALSE;
      }
  for (guint h = 0; h < self->n_histograms; h++)
    if (self->histograms[h].n_buckets > 0 &&
        (self->histograms[h].lower == NULL || self->histograms[h].counts == NULL))
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("histogram %u has no buckets"), h);
        return FALSE;
      }
  return TRUE;
}

gsize
seismo_trace_get_n_events (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->n_events;
}

guint
seismo_trace_get_n_cpus (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->n_cpus;
}

guint
seismo_trace_get_n_tasks (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->n_tasks;
}

guint
seismo_trace_get_n_event_types (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->event_types->len;
}

guint64
seismo_trace_get_start_ns (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  if (self->has_span)
    return self->span_start_ns;
  return self->n_events ? self->ts[0] : 0;
}

guint64
seismo_trace_get_end_ns (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  if (self->has_span)
    return self->span_end_ns;
  return self->n_events ? self->ts[self->n_events - 1] : 0;
}

void
_seismo_trace_set_span (SeismoTrace *self,
                        guint64      start_ns,
                        guint64      end_ns)
{
  g_return_if_fail (SEISMO_IS_TRACE (self));
  g_return_if_fail (start_ns <= end_ns);
  /* Never narrower than the events themselves. */
  if (self->n_events > 0)
    {
      start_ns = MIN (start_ns, self->ts[0]);
      end_ns = MAX (end_ns, self->ts[self->n_events - 1]);
    }
  self->has_span = TRUE;
  self->span_start_ns = start_ns;
  self->span_end_ns = end_ns;
}

const guint64 *
seismo_trace_get_times (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return self->ts;
}

const guint16 *
seismo_trace_get_cpus (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return self->cpu;
}

const guint16 *
seismo_trace_get_types (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return self->type;
}

const SeismoTaskId *
seismo_trace_get_tasks (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return self->task;
}

guint64
seismo_trace_event_time (SeismoTrace   *self,
                         SeismoEventId  event)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  g_return_val_if_fail (event < self->n_events, 0);
  return self->ts[event];
}

guint
seismo_trace_event_cpu (SeismoTrace   *self,
                        SeismoEventId  event)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  g_return_val_if_fail (event < self->n_events, 0);
  return self->cpu[event];
}

const SeismoEventType *
seismo_trace_event_type (SeismoTrace   *self,
                         SeismoEventId  event)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (event < self->n_events, NULL);
  return g_ptr_array_index (self->event_types, self->type[event]);
}

const SeismoTask *
seismo_trace_event_task (SeismoTrace   *self,
                         SeismoEventId  event)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (event < self->n_events, NULL);
  return &self->tasks[self->task[event]];
}

const guint8 *
seismo_trace_event_payload (SeismoTrace   *self,
                            SeismoEventId  event,
                            gsize         *len)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (event < self->n_events, NULL);
  g_return_val_if_fail (len != NULL, NULL);
  return _seismo_trace_payload (self, event, len);
}

const SeismoEventType *
seismo_trace_get_event_type (SeismoTrace *self,
                             guint        type_id)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  if (type_id >= self->event_types->len)
    return NULL;
  return g_ptr_array_index (self->event_types, type_id);
}

const SeismoEventType *
seismo_trace_find_event_type (SeismoTrace *self,
                              const char  *full_name)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (full_name != NULL, NULL);
  return g_hash_table_lookup (self->type_by_name, full_name);
}

const SeismoTask *
seismo_trace_get_task (SeismoTrace  *self,
                       SeismoTaskId  task)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  if (task >= self->n_tasks)
    return NULL;
  return &self->tasks[task];
}

static void
ensure_tid_tasks (SeismoTrace *self)
{
  /* Called per event by some loops: no lock once built (published last, below). */
  if (g_atomic_pointer_get (&self->tid_tasks) != NULL)
    return;
  g_mutex_lock (&self->index_lock);
  if (self->tid_tasks == NULL)
    {
      GHashTable *map = g_hash_table_new (NULL, NULL);

      /* Chains in reverse task order: the newest task with a tid comes first. */
      self->tid_next = g_new (SeismoTaskId, MAX (self->n_tasks, 1));
      for (guint t = 0; t < self->n_tasks; t++)
        {
          gpointer key = GINT_TO_POINTER (self->tasks[t].tid);
          guint prev = GPOINTER_TO_UINT (g_hash_table_lookup (map, key));

          self->tid_next[t] = prev ? prev - 1 : SEISMO_NO_TASK;
          g_hash_table_insert (map, key, GUINT_TO_POINTER (t + 1));
        }
      g_atomic_pointer_set (&self->tid_tasks, map);
    }
  g_mutex_unlock (&self->index_lock);
}

SeismoTaskId
seismo_trace_find_task (SeismoTrace *self,
                        gint32       tid,
                        guint64      time_ns)
{
  guint first;
  SeismoTaskId best = SEISMO_NO_TASK;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), SEISMO_NO_TASK);

  ensure_tid_tasks (self);
  first = GPOINTER_TO_UINT (g_hash_table_lookup (self->tid_tasks, GINT_TO_POINTER (tid)));
  if (first == 0)
    return SEISMO_NO_TASK;

  /* Newest first: the first task that began at or before time_ns is the one alive then. */
  for (SeismoTaskId t = first - 1; t != SEISMO_NO_TASK; t = self->tid_next[t])
    {
      best = t;
      if (self->tasks[t].first_ns <= time_ns)
        break;
    }
  return best;
}

const char *
seismo_trace_get_string (SeismoTrace    *self,
                         SeismoStringId  id)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), "");
  if (id >= self->n_strings)
    return "";
  return self->strings + self->string_off[id];
}

guint
seismo_trace_get_n_strings (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->n_strings;
}

const char *
seismo_trace_task_comm_at (SeismoTrace  *self,
                           SeismoTaskId  task,
                           guint64       time_ns)
{
  gsize lo = 0, hi;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), "");
  if (task >= self->n_tasks)
    return "";
  if (self->n_comm_changes == 0)
    return seismo_trace_get_string (self, self->tasks[task].comm);

  /* Changes are sorted by time and a renamed task's first change holds its first comm, so the
   * comm at time_ns is the task's last change at or before it, else its first change. */
  hi = self->n_comm_changes;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->comm_changes[mid].time_ns <= time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize c = lo; c-- > 0;)
    if (self->comm_changes[c].task == task)
      return seismo_trace_get_string (self, self->comm_changes[c].comm);
  for (gsize c = lo; c < self->n_comm_changes; c++)
    if (self->comm_changes[c].task == task)
      return seismo_trace_get_string (self, self->comm_changes[c].comm);
  return seismo_trace_get_string (self, self->tasks[task].comm);
}

const SeismoCommChange *
seismo_trace_get_comm_changes (SeismoTrace *self,
                               guint       *n_changes)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  *n_changes = self->n_comm_changes;
  return self->comm_changes;
}

const SeismoLostEvents *
seismo_trace_get_lost_events (SeismoTrace *self,
                              guint       *n_lost)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  *n_lost = self->n_lost;
  return self->lost;
}

guint64
seismo_trace_get_n_lost_events (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->n_lost_events;
}

const SeismoHistogram *
seismo_trace_get_histograms (SeismoTrace *self,
                             guint       *n_histograms)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  *n_histograms = self->n_histograms;
  return self->histograms;
}

const char *
seismo_trace_get_metadata (SeismoTrace *self,
                           const char  *key)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < self->meta_values->len; i++)
    if (strcmp (g_ptr_array_index (self->meta_keys, i), key) == 0)
      return g_ptr_array_index (self->meta_values, i);
  return NULL;
}

const char *const *
seismo_trace_get_metadata_keys (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return (const char *const *) self->meta_keys->pdata;
}

gboolean
seismo_trace_set_arch (SeismoTrace  *self,
                       const char   *arch,
                       GError      **error)
{
  SeismoArch a;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  g_return_val_if_fail (arch != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  a = seismo_arch_from_string (arch);
  if (a == SEISMO_ARCH_UNKNOWN)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint i = 0; i < SEISMO_ARCH_N; i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", seismo_arch_to_string (i));
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   "Unknown architecture “%s” (known: %s)", arch, known->str);
      return FALSE;
    }
  if (g_strcmp0 (seismo_trace_get_metadata (self, SEISMO_META_ARCH),
                 seismo_arch_to_string (a)) == 0)
    return TRUE;
  _seismo_trace_set_metadata (self, SEISMO_META_ARCH, seismo_arch_to_string (a));
  _seismo_trace_set_metadata (self, "arch_from", "option");
  _seismo_trace_derive (self);
  return TRUE;
}

SeismoEventId
seismo_trace_find_time (SeismoTrace *self,
                        guint64      time_ns)
{
  gsize lo = 0, hi;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);

  hi = self->n_events;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->ts[mid] < time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (SeismoEventId) lo;
}

gsize
seismo_trace_index_find_time (SeismoTrace         *self,
                              const SeismoEventId *index,
                              gsize                n_index,
                              guint64              time_ns)
{
  gsize lo = 0, hi = n_index;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->ts[index[mid]] < time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Groups event ids by a key column with a counting sort: two linear passes. */
static void
build_index (SeismoTrace      *self,
             gsize             n_keys,
             guint32         (*key_of) (SeismoTrace *, gsize),
             SeismoEventId   **index_out,
             gsize           **off_out)
{
  gsize *off = g_new0 (gsize, n_keys + 1);
  g_autofree gsize *fill = NULL;
  SeismoEventId *index = _seismo_big_array_new (SeismoEventId, self->n_events);

  for (gsize i = 0; i < self->n_events; i++)
    off[key_of (self, i) + 1]++;
  for (gsize k = 0; k < n_keys; k++)
    off[k + 1] += off[k];
  fill = g_memdup2 (off, sizeof (gsize) * (n_keys + 1));
  for (gsize i = 0; i < self->n_events; i++)
    index[fill[key_of (self, i)]++] = (SeismoEventId) i;

  *index_out = index;
  *off_out = off;
}

static guint32
cpu_key (SeismoTrace *self,
         gsize        i)
{
  return self->cpu[i];
}

static guint32
task_key (SeismoTrace *self,
          gsize        i)
{
  return self->task[i];
}

const SeismoEventId *
seismo_trace_get_cpu_events (SeismoTrace *self,
                             guint        cpu,
                             gsize       *n_events)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (n_events != NULL, NULL);

  g_mutex_lock (&self->index_lock);
  if (self->cpu_index == NULL)
    build_index (self, self->n_cpus, cpu_key, &self->cpu_index, &self->cpu_index_off);
  g_mutex_unlock (&self->index_lock);

  if (cpu >= self->n_cpus)
    {
      *n_events = 0;
      return self->cpu_index;
    }
  *n_events = self->cpu_index_off[cpu + 1] - self->cpu_index_off[cpu];
  return self->cpu_index + self->cpu_index_off[cpu];
}

const SeismoEventId *
seismo_trace_get_task_events (SeismoTrace  *self,
                              SeismoTaskId  task,
                              gsize        *n_events)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (n_events != NULL, NULL);

  g_mutex_lock (&self->index_lock);
  if (self->task_index == NULL)
    build_index (self, self->n_tasks, task_key, &self->task_index, &self->task_index_off);
  g_mutex_unlock (&self->index_lock);

  if (task >= self->n_tasks)
    {
      *n_events = 0;
      return self->task_index;
    }
  *n_events = self->task_index_off[task + 1] - self->task_index_off[task];
  return self->task_index + self->task_index_off[task];
}

const guint64 *
seismo_trace_get_type_counts (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return self->type_counts;
}

const SeismoSyscallSpan *
seismo_trace_get_syscall_spans (SeismoTrace *self,
                                gsize       *n_spans)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  *n_spans = self->n_spans;
  return self->spans;
}

const char *
seismo_trace_get_syscall_name (SeismoTrace *self,
                               guint        syscall)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), "");
  if (syscall >= self->syscall_names->len)
    return "";
  return g_ptr_array_index (self->syscall_names, syscall);
}

guint
seismo_trace_get_n_syscall_names (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->syscall_names->len;
}

gboolean
seismo_trace_syscall_span_ret (SeismoTrace             *self,
                               const SeismoSyscallSpan *span,
                               gint64                  *ret)
{
  const SeismoEventType *type;
  SeismoValue v;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  if (span->exit == SEISMO_NO_EVENT)
    return FALSE;
  type = g_ptr_array_index (self->event_types, self->type[span->exit]);
  if (type->roles[SEISMO_ROLE_RET] < 0 ||
      !seismo_trace_event_field (self, span->exit, type->roles[SEISMO_ROLE_RET], &v))
    return FALSE;
  *ret = v.type == SEISMO_FIELD_INT ? v.i : (gint64) v.u;
  return TRUE;
}

const SeismoInterval *
seismo_trace_get_intervals (SeismoTrace        *self,
                            SeismoIntervalKind  kind,
                            gsize              *n_intervals)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (kind < SEISMO_INTERVAL_N, NULL);
  *n_intervals = self->n_intervals[kind];
  return self->intervals[kind];
}

const SeismoInterval *
seismo_trace_get_cpu_runs (SeismoTrace *self,
                           guint        cpu,
                           gsize       *n_runs)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  if (cpu >= self->n_cpus || self->cpu_run_off == NULL)
    {
      *n_runs = 0;
      return self->intervals[SEISMO_INTERVAL_RUN];
    }
  *n_runs = self->cpu_run_off[cpu + 1] - self->cpu_run_off[cpu];
  return self->intervals[SEISMO_INTERVAL_RUN] + self->cpu_run_off[cpu];
}

guint64
seismo_trace_interval_start_ns (SeismoTrace          *self,
                                const SeismoInterval *interval)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  if (interval->start == SEISMO_NO_EVENT || interval->start >= self->n_events)
    return seismo_trace_get_start_ns (self);
  return self->ts[interval->start];
}

guint64
seismo_trace_interval_end_ns (SeismoTrace          *self,
                              const SeismoInterval *interval)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  if (interval->end == SEISMO_NO_EVENT || interval->end >= self->n_events)
    return seismo_trace_get_end_ns (self);
  return self->ts[interval->end];
}

gsize
seismo_trace_get_memory_size (SeismoTrace *self)
{
  gsize size = sizeof *self;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);

  size += self->n_events * (sizeof (guint64) + 2 * sizeof (guint16) + sizeof (SeismoTaskId) +
                            sizeof (guint32));
  size += (self->n_blocks + 1) * sizeof (guint64) + self->payload_len;
  size += self->n_tasks * sizeof (SeismoTask) + self->n_comm_changes * sizeof (SeismoCommChange);
  size += self->strings_len + self->n_strings * sizeof (guint32);
  size += self->n_lost * sizeof (SeismoLostEvents);
  size += self->n_spans * sizeof (SeismoSyscallSpan);
  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    size += self->n_intervals[k] * sizeof (SeismoInterval);
  size += self->n_state_spans * sizeof (SeismoStateSpan);
  if (self->state_off)
    size += (self->n_tasks + 1) * sizeof (gsize);
  if (self->cpu_index)
    size += self->n_events * sizeof (SeismoEventId);
  if (self->task_index)
    size += self->n_events * sizeof (SeismoEventId);
  for (guint t = 0; t < self->event_types->len; t++)
    {
      const SeismoEventType *type = g_ptr_array_index (self->event_types, t);

      size += sizeof *type + type->n_fields * sizeof (SeismoField);
    }
  if (self->stack_of)
    size += self->n_events * sizeof (guint32);
  size += _seismo_stack_table_memory_size (self->stacks);
  return size;
}

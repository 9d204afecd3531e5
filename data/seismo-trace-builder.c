/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>
#include <sys/mman.h>

#include "seismo-big-array.h"
#include "seismo-file-private.h"
#include "seismo-trace-builder-private.h"
#include "seismo-varint.h"
#include "seismo-work-priority.h"

/* Per-task flags in task_exited. */
#define TASK_EXITED  0x1
#define TASK_RENAMED 0x2

SeismoTraceBuilder *
seismo_trace_builder_new (void)
{
  SeismoTraceBuilder *self = g_new0 (SeismoTraceBuilder, 1);
  guint32 zero = 0;

  self->sorted = TRUE;
  self->block_base = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->event_types = g_ptr_array_new_with_free_func ((GDestroyNotify) _seismo_event_type_free);
  self->numeric_shapes = g_array_new (FALSE, TRUE, sizeof (SeismoNumericShape));
  self->type_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->string_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->strings = g_byte_array_new ();
  self->string_off = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* Id 0 is the empty string. */
  g_byte_array_append (self->strings, (const guint8 *) "", 1);
  g_array_append_val (self->string_off, zero);
  g_hash_table_insert (self->string_ids, g_strdup (""), GUINT_TO_POINTER (0));
  self->tasks = g_array_new (FALSE, FALSE, sizeof (SeismoTask));
  self->tid_task = g_hash_table_new (NULL, NULL);
  for (guint k = 0; k < SEISMO_BUILDER_TASK_CACHE; k++)
    self->task_cache[k].task = SEISMO_NO_TASK;
  self->task_exited = g_byte_array_new ();
  self->comm_changes = g_array_new (FALSE, FALSE, sizeof (SeismoCommChange));
  self->lost = g_array_new (FALSE, FALSE, sizeof (SeismoLostEvents));
  self->histograms = g_array_new (FALSE, FALSE, sizeof (SeismoHistogram));
  self->meta_keys = g_ptr_array_new_with_free_func (g_free);
  self->meta_values = g_ptr_array_new_with_free_func (g_free);
  return self;
}

/*
 * Prefaulting. A fresh page costs its first writer a fault and the kernel's zeroing (on a virtual
 * machine, the host's too): a third of loading a big trace. With room reserved, the columns' next
 * pages are known, so another core faults them in while this one appends (MADV_POPULATE_WRITE
 * only maps pages: it never changes what is in them). It runs two blocks ahead, and only once
 * two blocks are in, so a small trace never holds pages it does not use.
 */
#define PREFAULT_AHEAD_EVENTS (2 * (gsize) SEISMO_BLOCK_EVENTS)
#define PREFAULT_MAX_RANGES   6

typedef struct {
  guintptr start[PREFAULT_MAX_RANGES];
  gsize    len[PREFAULT_MAX_RANGES];
  guint    n;
} PrefaultJob;

static void
prefault_run (gpointer data,
              gpointer user_data)
{
#ifdef MADV_POPULATE_WRITE
  PrefaultJob *job = data;
  gsize page = 4096;

  seismo_work_priority_enter ();
  for (guint r = 0; r < job->n; r++)
    {
      guintptr start = job->start[r] & ~(guintptr) (page - 1);
      gsize len = (job->start[r] + job->len[r] - start + page - 1) & ~(page - 1);

      seismo_work_priority_pause_point ();
      /* Advice: an old kernel says EINVAL, and the appends fault as before. */
      if (madvise ((gpointer) start, len, MADV_POPULATE_WRITE) != 0)
        break;
    }
#endif
}

static void
prefault_add (PrefaultJob *job,
              gpointer     base,
              gsize        from,
              gsize        to,
              gsize        elem_size)
{
  if (to <= from || job->n == PREFAULT_MAX_RANGES)
    return;
  job->start[job->n] = (guintptr) base + from * elem_size;
  job->len[job->n] = (to - from) * elem_size;
  job->n++;
}

/* At each block: the next blocks' pages, to the other thread. */
static void
prefault_ahead (SeismoTraceBuilder *self)
{
  gsize n = self->n_events;
  gsize events = MIN (n + PREFAULT_AHEAD_EVENTS, self->capacity);
  /* The payload grows as fast as it has so far, with room to spare. */
  gsize per_event = n ? self->payload_len / n + 1 : 16;
  gsize payload = MIN (self->payload_len + 2 * per_event * PREFAULT_AHEAD_EVENTS,
                       self->payload_cap);
  PrefaultJob *job;
  gsize from = MAX (self->prefault_events, n);

  if (n < PREFAULT_AHEAD_EVENTS)
    return;
  job = g_new0 (PrefaultJob, 1);

  prefault_add (job, self->ts, from, events, sizeof (guint64));
  prefault_add (job, self->cpu, from, events, sizeof (guint16));
  prefault_add (job, self->type, from, events, sizeof (guint16));
  prefault_add (job, self->task, from, events, sizeof (SeismoTaskId));
  prefault_add (job, self->payload_off, from, events, sizeof (guint32));
  prefault_add (job, self->payload, MAX (self->prefault_payload, self->payload_len), payload, 1);
  self->prefault_events = MAX (self->prefault_events, events);
  self->prefault_payload = MAX (self->prefault_payload, payload);
  if (job->n == 0)
    {
      g_free (job);
      return;
    }
  g_thread_pool_push (self->prefault, job, NULL);
}

/* Before the columns move or go: the thread must not touch them any more. */
static void
prefault_stop (SeismoTraceBuilder *self)
{
  if (self->prefault == NULL)
    return;
  g_thread_pool_free (self->prefault, TRUE, TRUE);
  self->prefault = NULL;
}

void
seismo_trace_builder_free (SeismoTraceBuilder *self)
{
  if (self == NULL)
    return;
  prefault_stop (self);
  g_free (self->ts);
  g_free (self->cpu);
  g_free (self->type);
  g_free (self->task);
  g_free (self->payload_off);
  g_free (self->payload);
  g_array_unref (self->block_base);
  g_hash_table_unref (self->type_by_name);
  g_ptr_array_unref (self->event_types);
  g_array_unref (self->numeric_shapes);
  g_hash_table_unref (self->string_ids);
  g_byte_array_unref (self->strings);
  g_array_unref (self->string_off);
  g_array_unref (self->tasks);
  g_hash_table_unref (self->tid_task);
  g_byte_array_unref (self->task_exited);
  g_array_unref (self->comm_changes);
  for (guint i = 0; i < self->histograms->len; i++)
    _seismo_histogram_clear (&g_array_index (self->histograms, SeismoHistogram, i));
  g_array_unref (self->histograms);
  g_array_unref (self->lost);
  g_ptr_array_unref (self->meta_keys);
  g_ptr_array_unref (self->meta_values);
  _seismo_trace_builder_free_stacks (self);
  g_free (self);
}

guint
seismo_trace_builder_add_event_type (SeismoTraceBuilder    *self,
                                     const char            *system,
                                     const char            *name,
                                     const SeismoFieldInfo *fields,
                                     guint                  n_fields,
                                     const char            *print_fmt)
{
  g_autofree char *full_name = NULL;
  SeismoEventType *type;
  guint id;
  SeismoNumericShape shape = { .numeric = TRUE };

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (system != NULL && name != NULL, 0);
  g_return_val_if_fail (n_fields == 0 || fields != NULL, 0);

  full_name = g_strconcat (system, ":", name, NULL);
  id = GPOINTER_TO_UINT (g_hash_table_lookup (self->type_by_name, full_name));
  if (id != 0)
    return id - 1;

  id = self->event_types->len;
  g_return_val_if_fail (id < G_MAXUINT16, 0);
  type = _seismo_event_type_new (id, system, name, fields, n_fields, print_fmt);
  g_ptr_array_add (self->event_types, type);
  g_hash_table_insert (self->type_by_name, type->full_name, GUINT_TO_POINTER (id + 1));
  for (guint f = 0; f < type->n_fields && shape.numeric; f++)
    switch (type->fields[f].type)
      {
      case SEISMO_FIELD_INT:
        shape.is_int |= 1u << MIN (f, SEISMO_NUMERIC_SHAPE_MAX - 1);
        G_GNUC_FALLTHROUGH;
      case SEISMO_FIELD_UINT:
      case SEISMO_FIELD_POINTER:
        shape.n_numbers++;
        shape.numeric = f < SEISMO_NUMERIC_SHAPE_MAX;
        break;
      case SEISMO_FIELD_UINT_ARRAY:
        shape.array = TRUE;
        shape.numeric = f == type->n_fields - 1;
        break;
      case SEISMO_FIELD_STRING:
      case SEISMO_FIELD_BYTES:
      case SEISMO_FIELD_N_TYPES:
      default:
        shape.numeric = FALSE;
        break;
      }
  g_array_append_val (self->numeric_shapes, shape);
  return id;
}

int
seismo_trace_builder_find_event_type (SeismoTraceBuilder *self,
                                      const char         *full_name)
{
  g_return_val_if_fail (self != NULL, -1);
  return (int) GPOINTER_TO_UINT (g_hash_table_lookup (self->type_by_name, full_name)) - 1;
}

const SeismoEventType *
seismo_trace_builder_get_event_type (SeismoTraceBuilder *self,
                                     guint               type_id)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (type_id >= self->event_types->len)
    return NULL;
  return g_ptr_array_index (self->event_types, type_id);
}

guint
seismo_trace_builder_get_n_event_types (SeismoTraceBuilder *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->event_types->len;
}

/* terminated: str[len] may be read (it is the NUL of a C string). */
static SeismoStringId
intern (SeismoTraceBuilder *self,
        const char         *str,
        gsize               len,
        gboolean            terminated)
{
  char stack[256];
  g_autofree char *heap = NULL;
  const char *key;
  gpointer value;
  guint32 off;
  SeismoStringId id;

  g_return_val_if_fail (self != NULL, 0);
  if (str == NULL || len == 0)
    return 0;

  /* Strings end at their first NUL, as C strings do. Look up without allocating when we can. */
  if (!terminated)
    len = strnlen (str, len);
  if (terminated)
    key = str;
  else if (len < sizeof stack)
    {
      memcpy (stack, str, len);
      stack[len] = '\0';
      key = stack;
    }
  else
    key = heap = g_strndup (str, len);
  if (g_hash_table_lookup_extended (self->string_ids, key, NULL, &value))
    return GPOINTER_TO_UINT (value);

  g_return_val_if_fail (self->strings->len + len + 1 < G_MAXUINT32, 0);
  off = self->strings->len;
  id = self->string_off->len;
  g_byte_array_append (self->strings, (const guint8 *) key, len + 1);
  g_array_append_val (self->string_off, off);
  g_hash_table_insert (self->string_ids, g_strndup (key, len), GUINT_TO_POINTER (id));
  return id;
}

SeismoStringId
seismo_trace_builder_intern_len (SeismoTraceBuilder *self,
                                 const char         *str,
                                 gsize               len)
{
  return intern (self, str, len, FALSE);
}

SeismoStringId
seismo_trace_builder_intern (SeismoTraceBuilder *self,
                             const char         *str)
{
  return intern (self, str, str ? strlen (str) : 0, TRUE);
}

static SeismoTaskId
add_task (SeismoTraceBuilder *self,
          gint32              tid,
          guint64             time_ns)
{
  SeismoTask task = { .tid = tid, .pid = -1, .ppid = -1, .comm = 0,
                      .first_ns = time_ns, .last_ns = time_ns };
  SeismoTaskId id = self->tasks->len;
  guint8 zero = 0;

  /* The idle task is its own process. */
  if (tid == 0)
    task.pid = 0;
  g_array_append_val (self->tasks, task);
  g_byte_array_append (self->task_exited, &zero, 1);
  g_hash_table_insert (self->tid_task, GINT_TO_POINTER (tid), GUINT_TO_POINTER (id + 1));
  self->task_cache[(guint32) tid % SEISMO_BUILDER_TASK_CACHE].tid = tid;
  self->task_cache[(guint32) tid % SEISMO_BUILDER_TASK_CACHE].task = id;
  return id;
}

static inline SeismoTaskId
lookup_task (SeismoTraceBuilder *self,
             gint32              tid,
             guint64             time_ns)
{
  guint slot = (guint32) tid % SEISMO_BUILDER_TASK_CACHE;
  guint id;

  /* add_task() is the only writer of tid_task, and it updates the cache. */
  if (G_LIKELY (self->task_cache[slot].tid == tid && self->task_cache[slot].task != SEISMO_NO_TASK))
    return self->task_cache[slot].task;
  id = GPOINTER_TO_UINT (g_hash_table_lookup (self->tid_task, GINT_TO_POINTER (tid)));
  if (id == 0)
    return add_task (self, tid, time_ns);
  self->task_cache[slot].tid = tid;
  self->task_cache[slot].task = id - 1;
  return id - 1;
}

SeismoTaskId
seismo_trace_builder_task (SeismoTraceBuilder *self,
                           gint32              tid)
{
  g_return_val_if_fail (self != NULL, SEISMO_NO_TASK);
  return lookup_task (self, tid, self->n_events ? self->ts[self->n_events - 1] : 0);
}

SeismoTaskId
seismo_trace_builder_task_new (SeismoTraceBuilder *self,
                               gint32              tid,
                               guint64             time_ns)
{
  guint id;

  g_return_val_if_fail (self != NULL, SEISMO_NO_TASK);

  id = GPOINTER_TO_UINT (g_hash_table_lookup (self->tid_task, GINT_TO_POINTER (tid)));
  if (id != 0 && !(self->task_exited->data[id - 1] & TASK_EXITED))
    {
      SeismoTask *task = &g_array_index (self->tasks, SeismoTask, id - 1);

      task->first_ns = MIN (task->first_ns, time_ns);
      return id - 1;
    }
  return add_task (self, tid, time_ns);
}

void
seismo_trace_builder_set_task_pid (SeismoTraceBuilder *self,
                                   gint32              tid,
                                   gint32              pid)
{
  SeismoTaskId id;

  g_return_if_fail (self != NULL);
  id = seismo_trace_builder_task (self, tid);
  g_array_index (self->tasks, SeismoTask, id).pid = pid;
}

void
seismo_trace_builder_set_task_ppid (SeismoTraceBuilder *self,
                                    gint32              tid,
                                    gint32              ppid)
{
  SeismoTaskId id;

  g_return_if_fail (self != NULL);
  id = seismo_trace_builder_task (self, tid);
  g_array_index (self->tasks, SeismoTask, id).ppid = ppid;
}

void
seismo_trace_builder_set_task_comm (SeismoTraceBuilder *self,
                                    gint32              tid,
                                    const char         *comm,
                                    guint64             time_ns)
{
  SeismoTaskId id;
  SeismoTask *task;
  SeismoStringId comm_id;

  g_return_if_fail (self != NULL);
  g_return_if_fail (comm != NULL);

  id = lookup_task (self, tid, time_ns);
  task = &g_array_index (self->tasks, SeismoTask, id);
  comm_id = seismo_trace_builder_intern (self, comm);
  if (task->comm == comm_id)
    return;
  if (task->comm == 0)
    {
      task->comm = comm_id;
      return;
    }

  /* The first change also records the comm the task started with, at its start. */
  {
    if (!(self->task_exited->data[id] & TASK_RENAMED))
      {
        SeismoCommChange first = { .task = id, .comm = task->comm,
                                   .time_ns = MIN (task->first_ns, time_ns) };

        g_array_append_val (self->comm_changes, first);
        self->task_exited->data[id] |= TASK_RENAMED;
      }
  }
  {
    SeismoCommChange change = { .task = id, .comm = comm_id, .time_ns = time_ns };

    g_array_append_val (self->comm_changes, change);
  }
  task->comm = comm_id;
}

void
seismo_trace_builder_task_exited (SeismoTraceBuilder *self,
                                  gint32              tid,
                                  guint64             time_ns)
{
  SeismoTaskId id;
  SeismoTask *task;

  g_return_if_fail (self != NULL);

  id = lookup_task (self, tid, time_ns);
  task = &g_array_index (self->tasks, SeismoTask, id);
  task->last_ns = MAX (task->last_ns, time_ns);
  self->task_exited->data[id] |= TASK_EXITED;
}

/* Moves a column into a bigger array: a big array, so a trace of millions of events fills
 * huge pages rather than faulting 4 KiB at a time (the faults cost more than the appends). */
static gpointer
grow_column (gpointer old,
             gsize    n,
             gsize    cap,
             gsize    elem_size)
{
  gpointer mem = _seismo_big_array_alloc (cap, elem_size);

  if (n > 0)
    memcpy (mem, old, n * elem_size);
  g_free (old);
  return mem;
}

static void
grow_events (SeismoTraceBuilder *self)
{
  gsize cap = MAX (self->capacity * 2, 4096);
  gsize n = self->n_events;

  prefault_stop (self);

  self->ts = grow_column (self->ts, n, cap, sizeof (guint64));
  self->cpu = grow_column (self->cpu, n, cap, sizeof (guint16));
  self->type = grow_column (self->type, n, cap, sizeof (guint16));
  self->task = grow_column (self->task, n, cap, sizeof (SeismoTaskId));
  self->payload_off = grow_column (self->payload_off, n, cap, sizeof (guint32));
  if (self->stack_of)
    {
      self->stack_of = g_renew (SeismoStackId, self->stack_of, cap);
      memset (self->stack_of + n, 0, (cap - n) * sizeof (SeismoStackId));
    }
  self->capacity = cap;
}

void
seismo_trace_builder_reserve (SeismoTraceBuilder *self,
                              gsize               n_events,
                              gsize               payload_bytes)
{
  gsize n = self->n_events;

  g_return_if_fail (self != NULL);

  n_events = MIN (n_events, (gsize) G_MAXUINT32);
  if (n_events > self->capacity)
    {
      static const gsize sizes[] = { sizeof (guint64), sizeof (guint16), sizeof (guint16),
                                     sizeof (SeismoTaskId), sizeof (guint32) };
      gpointer *columns[] = { (gpointer *) &self->ts, (gpointer *) &self->cpu,
                              (gpointer *) &self->type, (gpointer *) &self->task,
                              (gpointer *) &self->payload_off };
      gpointer mem[G_N_ELEMENTS (columns)] = { NULL };

      /* All columns or none: they share one capacity. */
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        if (!(mem[c] = _seismo_big_array_try_alloc (n_events, sizes[c])))
          {
            for (guint k = 0; k < c; k++)
              g_free (mem[k]);
            return;
          }
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          if (n > 0)
            memcpy (mem[c], *columns[c], n * sizes[c]);
          g_free (*columns[c]);
          *columns[c] = mem[c];
        }
      if (self->stack_of)
        {
          self->stack_of = g_renew (SeismoStackId, self->stack_of, n_events);
          memset (self->stack_of + n, 0, (n_events - n) * sizeof (SeismoStackId));
        }
      self->capacity = n_events;
    }
  if (payload_bytes > self->payload_cap)
    {
      guint8 *mem = _seismo_big_array_try_alloc (payload_bytes, 1);

      if (mem == NULL)
        return;
      if (self->payload_len > 0)
        memcpy (mem, self->payload, self->payload_len);
      g_free (self->payload);
      self->payload = mem;
      self->payload_cap = payload_bytes;
    }
  /* Worth a thread for big room on a machine with a core to spare. */
  if (self->prefault == NULL && self->capacity >= PREFAULT_AHEAD_EVENTS &&
      _seismo_file_n_workers () > 1)
    self->prefault = g_thread_pool_new_full (prefault_run, NULL, g_free, 1, FALSE, NULL);
}

static inline void
ensure_payload (SeismoTraceBuilder *self,
                gsize               extra)
{
  if (self->payload_len + extra > self->payload_cap)
    {
      gsize cap = MAX (self->payload_cap * 2, self->payload_len + extra + 65536);

      prefault_stop (self);
      self->payload = grow_column (self->payload, self->payload_len, cap, 1);
      self->payload_cap = cap;
    }
}

/* begin_event, its arguments checked. */
G_ALWAYS_INLINE static inline void
begin_event (SeismoTraceBuilder *self,
             guint64             time_ns,
             guint               cpu,
             gint32              tid,
             guint               type_id)
{
  gsize i;
  SeismoTaskId task_id;
  SeismoTask *task;
  guint64 block_base;

  if (self->n_events == self->capacity)
    grow_events (self);

  i = self->n_events;
  if ((i & (SEISMO_BLOCK_EVENTS - 1)) == 0)
    {
      g_array_append_val (self->block_base, self->payload_len);
      if (self->prefault != NULL)
        prefault_ahead (self);
    }
  block_base = g_array_index (self->block_base, guint64, i >> SEISMO_BLOCK_SHIFT);

  task_id = lookup_task (self, tid, time_ns);
  task = &g_array_index (self->tasks, SeismoTask, task_id);
  task->first_ns = MIN (task->first_ns, time_ns);
  task->last_ns = MAX (task->last_ns, time_ns);

  if (i > 0 && time_ns < self->ts[i - 1])
    self->sorted = FALSE;
  self->ts[i] = time_ns;
  self->cpu[i] = (guint16) MIN (cpu, G_MAXUINT16);
  self->type[i] = (guint16) type_id;
  self->task[i] = task_id;
  self->payload_off[i] = (guint32) (self->payload_len - block_base);
  self->in_event = TRUE;
  self->cur_field = 0;
  self->cur_start = self->payload_len;
  self->cur_type = g_ptr_array_index (self->event_types, type_id);
}

void
seismo_trace_builder_begin_event (SeismoTraceBuilder *self,
                                  guint64             time_ns,
                                  guint               cpu,
                                  gint32              tid,
                                  guint               type_id)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->in_event);
  g_return_if_fail (type_id < self->event_types->len);
  g_return_if_fail (self->n_events < G_MAXUINT32 - 1);

  begin_event (self, time_ns, cpu, tid, type_id);
}

/* The schema type of the field about to be pushed, or N_TYPES when there is none left. */
static inline SeismoFieldType
next_field_type (SeismoTraceBuilder *self)
{
  const SeismoEventType *type = self->cur_type;

  if (self->cur_field >= type->n_fields)
    return SEISMO_FIELD_N_TYPES;
  return type->fields[self->cur_field].type;
}

static inline gsize
room_left (SeismoTraceBuilder *self)
{
  gsize used = self->payload_len - self->cur_start;

  return used >= SEISMO_MAX_PAYLOAD ? 0 : SEISMO_MAX_PAYLOAD - used;
}

static inline void
put_varint (SeismoTraceBuilder *self,
            guint64             v)
{
  /* The room seismo_varint_put_wide() stores into. */
  ensure_payload (self, SEISMO_VARINT_MAX);
  self->payload_len = seismo_varint_put_wide (self->payload + self->payload_len, v) - self->payload;
}

/* Pushes a number into whatever numeric or string slot the schema has next, so a mismatched
 * push still leaves a payload that decodes. */
static inline void
push_number (SeismoTraceBuilder *self,
             guint64             u)
{
  SeismoFieldType ft;

  g_return_if_fail (self->in_event);
  ft = next_field_type (self);
  switch (ft)
    {
    case SEISMO_FIELD_INT:
      put_varint (self, seismo_zigzag_encode ((gint64) u));
      break;
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      put_varint (self, u);
      break;
    case SEISMO_FIELD_STRING:
    case SEISMO_FIELD_BYTES:
    case SEISMO_FIELD_UINT_ARRAY:
      g_critical ("field %u is a %s; a number was pushed", self->cur_field,
                  seismo_field_type_to_string (ft));
      put_varint (self, 0);
      break;
    case SEISMO_FIELD_N_TYPES:
    default:
      g_critical ("more fields pushed than the event type has");
      return;
    }
  self->cur_field++;
}

void
seismo_trace_builder_push_int (SeismoTraceBuilder *self,
                               gint64              value)
{
  g_return_if_fail (self != NULL);
  push_number (self, (guint64) value);
}

void
seismo_trace_builder_push_uint (SeismoTraceBuilder *self,
                                guint64             value)
{
  g_return_if_fail (self != NULL);
  push_number (self, value);
}

void
seismo_trace_builder_push_numbers (SeismoTraceBuilder *self,
                                   const guint64      *values,
                                   guint               n_values)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (values != NULL || n_values == 0);
  for (guint k = 0; k < n_values; k++)
    push_number (self, values[k]);
}

void
seismo_trace_builder_push_string_id (SeismoTraceBuilder *self,
                                     SeismoStringId      id)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->in_event);

  if (next_field_type (self) != SEISMO_FIELD_STRING)
    {
      g_critical ("field %u is not a string", self->cur_field);
      if (next_field_type (self) == SEISMO_FIELD_N_TYPES)
        return;
      id = 0;
    }
  put_varint (self, id);
  self->cur_field++;
}

void
seismo_trace_builder_push_string_len (SeismoTraceBuilder *self,
                                      const char         *str,
                                      gsize               len)
{
  g_return_if_fail (self != NULL);
  seismo_trace_builder_push_string_id (self, seismo_trace_builder_intern_len (self, str, len));
}

void
seismo_trace_builder_push_string (SeismoTraceBuilder *self,
                                  const char         *str)
{
  g_return_if_fail (self != NULL);
  seismo_trace_builder_push_string_id (self, seismo_trace_builder_intern (self, str));
}

void
seismo_trace_builder_push_bytes (SeismoTraceBuilder *self,
                                 const guint8       *data,
                                 gsize               len)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->in_event);

  if (next_field_type (self) != SEISMO_FIELD_BYTES)
    {
      g_critical ("field %u is not a bytes field", self->cur_field);
      if (next_field_type (self) == SEISMO_FIELD_N_TYPES)
        return;
      len = 0;
    }
  /* An event's payload is bounded (see SEISMO_MAX_PAYLOAD): longer byte fields are cut. */
  if (len + SEISMO_VARINT_MAX > room_left (self))
    len = room_left (self) > SEISMO_VARINT_MAX ? room_left (self) - SEISMO_VARINT_MAX : 0;
  put_varint (self, len);
  ensure_payload (self, len);
  if (len)
    memcpy (self->payload + self->payload_len, data, len);
  self->payload_len += len;
  self->cur_field++;
}

void
seismo_trace_builder_push_uint_array (SeismoTraceBuilder *self,
                                      const guint64      *values,
                                      gsize               n_values)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->in_event);

  if (next_field_type (self) != SEISMO_FIELD_UINT_ARRAY)
    {
      g_critical ("field %u is not a uint array", self->cur_field);
      if (next_field_type (self) == SEISMO_FIELD_N_TYPES)
        return;
      n_values = 0;
    }
  /* Keep within the event's payload bound, leaving room for the count. */
  {
    gsize max = room_left (self) / SEISMO_VARINT_MAX;

    n_values = MIN (n_values, max > 0 ? max - 1 : 0);
  }
  /* One room check for the count and every element, SEISMO_VARINT_MAX each as
   * seismo_varint_put_wide() needs. */
  ensure_payload (self, (n_values + 1) * SEISMO_VARINT_MAX);
  {
    guint8 *out = seismo_varint_put_wide (self->payload + self->payload_len, n_values);

    for (gsize k = 0; k < n_values; k++)
      out = seismo_varint_put_wide (out, values[k]);
    self->payload_len = out - self->payload;
  }
  self->cur_field++;
}

void
seismo_trace_builder_push_value (SeismoTraceBuilder *self,
                                 const SeismoValue  *value)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (value != NULL);

  switch (value->type)
    {
    case SEISMO_FIELD_INT:
      seismo_trace_builder_push_int (self, value->i);
      break;
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      seismo_trace_builder_push_uint (self, value->u);
      break;
    case SEISMO_FIELD_STRING:
      seismo_trace_builder_push_string_len (self, value->str, value->len);
      break;
    case SEISMO_FIELD_BYTES:
      seismo_trace_builder_push_bytes (self, value->data, value->len);
      break;
    case SEISMO_FIELD_UINT_ARRAY:
      {
        g_autofree guint64 *elems = g_new (guint64, MAX (value->u, 1));
        const guint8 *p = value->data, *end = value->data + value->len;
        gsize n = 0;

        while (n < value->u && (p = seismo_varint_get (p, end, &elems[n])))
          n++;
        seismo_trace_builder_push_uint_array (self, elems, n);
        break;
      }
    case SEISMO_FIELD_N_TYPES:
    default:
      g_critical ("unknown value type %d", value->type);
    }
}

/* Decodes the numeric field at index (or its string id) of the event just appended. */
static gboolean
current_field (SeismoTraceBuilder    *self,
               const SeismoEventType *type,
               int                    index,
               guint64               *value)
{
  const guint8 *p, *end;

  /* No payload at all yet (an event of no fields): nothing to decode, and no pointer to offset. */
  if (index < 0 || self->payload == NULL)
    return FALSE;
  p = self->payload + self->cur_start;
  end = self->payload + self->payload_len;
  for (int i = 0; i <= index; i++)
    {
      guint64 v;

      if (!(p = seismo_varint_get (p, end, &v)))
        return FALSE;
      switch (type->fields[i].type)
        {
        case SEISMO_FIELD_INT:
          *value = (guint64) seismo_zigzag_decode (v);
          break;
        case SEISMO_FIELD_BYTES:
          if (v > (guint64) (end - p))
            return FALSE;
          p += v;
          *value = 0;
          break;
        case SEISMO_FIELD_UINT_ARRAY:
          for (guint64 k = 0; k < v; k++)
            if (!(p = seismo_varint_get (p, end, value)))
              return FALSE;
          *value = 0;
          break;
        case SEISMO_FIELD_UINT:
        case SEISMO_FIELD_POINTER:
        case SEISMO_FIELD_STRING:
        case SEISMO_FIELD_N_TYPES:
        default:
          *value = v;
          break;
        }
    }
  return TRUE;
}

/* A task named by a scheduler event's fields (the next task of a switch, the woken task, the forked
 * child) exists from that event on, with the comm the event gives, even if it never logs an event
 * of its own: the derived intervals need it. */
static void
note_task (SeismoTraceBuilder    *self,
           const SeismoEventType *type,
           SeismoFieldRole        pid_role,
           SeismoFieldRole        comm_role,
           guint64                time_ns)
{
  guint64 tid, comm;
  SeismoTaskId id;
  SeismoTask *task;

  if (!current_field (self, type, type->roles[pid_role], &tid) || (gint64) tid <= 0 ||
      (gint64) tid > G_MAXINT32)
    return;
  id = lookup_task (self, (gint32) tid, time_ns);
  task = &g_array_index (self->tasks, SeismoTask, id);
  task->first_ns = MIN (task->first_ns, time_ns);
  task->last_ns = MAX (task->last_ns, time_ns);
  if (task->comm == 0 && current_field (self, type, type->roles[comm_role], &comm) &&
      type->fields[type->roles[comm_role]].type == SEISMO_FIELD_STRING && comm < self->string_off->len)
    task->comm = (SeismoStringId) comm;
}

/* end_event, inside an event. */
G_ALWAYS_INLINE static inline void
end_event (SeismoTraceBuilder *self)
{
  const SeismoEventType *type;
  guint64 ts;

  /* Fields left out read as zero / empty. */
  type = self->cur_type;
  while (self->cur_field < type->n_fields)
    {
      put_varint (self, 0);
      self->cur_field++;
    }

  ts = self->ts[self->n_events];
  switch (type->kind)
    {
    case SEISMO_KIND_SCHED_SWITCH:
      note_task (self, type, SEISMO_ROLE_NEXT_PID, SEISMO_ROLE_NEXT_COMM, ts);
      break;
    case SEISMO_KIND_SCHED_WAKEUP:
    case SEISMO_KIND_SCHED_WAKING:
      note_task (self, type, SEISMO_ROLE_PID, SEISMO_ROLE_COMM, ts);
      break;
    case SEISMO_KIND_PROCESS_FORK:
      note_task (self, type, SEISMO_ROLE_CHILD_PID, SEISMO_ROLE_CHILD_COMM, ts);
      break;
    case SEISMO_KIND_GENERIC:
    case SEISMO_KIND_SYSCALL_ENTER:
    case SEISMO_KIND_SYSCALL_EXIT:
    case SEISMO_KIND_PROCESS_EXEC:
    case SEISMO_KIND_PROCESS_EXIT:
    case SEISMO_KIND_IRQ_ENTRY:
    case SEISMO_KIND_IRQ_EXIT:
    case SEISMO_KIND_SOFTIRQ_ENTRY:
    case SEISMO_KIND_SOFTIRQ_EXIT:
    case SEISMO_KIND_SIGNAL:
    case SEISMO_KIND_TASK_RENAME:
    case SEISMO_KIND_N:
    default:
      break;
    }
  if (self->stacks != NULL)
    _seismo_trace_builder_end_stack (self);
  self->in_event = FALSE;
  self->n_events++;
}

void
seismo_trace_builder_end_event (SeismoTraceBuilder *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->in_event);

  end_event (self);
}

void
seismo_trace_builder_add_event (SeismoTraceBuilder *self,
                                guint64             time_ns,
                                guint               cpu,
                                gint32              tid,
                                guint               type_id,
                                const guint64      *values,
                                guint               n_values)
{
  const SeismoNumericShape *shape;
  guint n_numbers, k;
  guint8 *out;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->in_event);
  g_return_if_fail (type_id < self->event_types->len);
  g_return_if_fail (self->n_events < G_MAXUINT32 - 1);
  g_return_if_fail (values != NULL || n_values == 0);

  begin_event (self, time_ns, cpu, tid, type_id);
  shape = &g_array_index (self->numeric_shapes, SeismoNumericShape, type_id);
  if (G_UNLIKELY (!shape->numeric))
    {
      /* Whatever the pushes make of it, criticals included. */
      seismo_trace_builder_push_numbers (self, values, n_values);
      end_event (self);
      return;
    }

  n_numbers = MIN (shape->n_numbers, n_values);
  /* Room for every varint at SEISMO_VARINT_MAX, as seismo_varint_put_wide() needs; the array's
   * count included. */
  ensure_payload (self, ((gsize) n_values + 1) * SEISMO_VARINT_MAX);
  out = self->payload + self->payload_len;
  for (k = 0; k < n_numbers; k++)
    out = seismo_varint_put_wide (out, (shape->is_int >> k) & 1
                                         ? seismo_zigzag_encode ((gint64) values[k])
                                         : values[k]);
  self->payload_len = out - self->payload;
  self->cur_field = n_numbers;
  if (shape->array && n_values > n_numbers)
    {
      /* The array's bound, as push_uint_array keeps it. */
      gsize max = room_left (self) / SEISMO_VARINT_MAX;
      gsize n = MIN (n_values - n_numbers, max > 0 ? max - 1 : 0);

      out = seismo_varint_put_wide (out, n);
      for (gsize e = 0; e < n; e++)
        out = seismo_varint_put_wide (out, values[n_numbers + e]);
      self->payload_len = out - self->payload;
      self->cur_field++;
    }
  else if (G_UNLIKELY (n_values > n_numbers))
    g_critical ("more fields pushed than the event type has");
  end_event (self);
}

gsize
seismo_trace_builder_get_n_events (SeismoTraceBuilder *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return ((gsize) self->released_blocks << SEISMO_BLOCK_SHIFT) + self->n_events;
}

void
_seismo_trace_builder_release (SeismoTraceBuilder *self,
                               gsize               n_blocks)
{
  gsize n_ev = n_blocks << SEISMO_BLOCK_SHIFT;
  gsize keep;
  guint64 cut;

  g_return_if_fail (self != NULL);
  g_return_if_fail (n_ev <= self->n_events);
  if (n_blocks == 0)
    return;
  prefault_stop (self);

  /* The events left are the incomplete tail (and any blocks not written yet): moving them is cheap
   * next to writing the blocks that go. Payload offsets are block-relative, so only the bases
   * move. */
  keep = self->n_events - n_ev;
  memmove (self->ts, self->ts + n_ev, keep * sizeof *self->ts);
  memmove (self->cpu, self->cpu + n_ev, keep * sizeof *self->cpu);
  memmove (self->type, self->type + n_ev, keep * sizeof *self->type);
  memmove (self->task, self->task + n_ev, keep * sizeof *self->task);
  memmove (self->payload_off, self->payload_off + n_ev, keep * sizeof *self->payload_off);
  if (self->stack_of)
    {
      memmove (self->stack_of, self->stack_of + n_ev, keep * sizeof *self->stack_of);
      memset (self->stack_of + keep, 0, (self->capacity - keep) * sizeof *self->stack_of);
    }
  cut = n_blocks < self->block_base->len ? g_array_index (self->block_base, guint64, n_blocks)
                                         : self->payload_len;
  memmove (self->payload, self->payload + cut, self->payload_len - cut);
  self->payload_len -= cut;
  if (self->in_event)
    self->cur_start -= cut;
  g_array_remove_range (self->block_base, 0, MIN (n_blocks, self->block_base->len));
  for (guint k = 0; k < self->block_base->len; k++)
    g_array_index (self->block_base, guint64, k) -= cut;
  self->n_events = keep;
  self->released_blocks += n_blocks;
}

void
seismo_trace_builder_add_lost_events (SeismoTraceBuilder *self,
                                      int                 cpu,
                                      guint64             time_ns,
                                      guint64             count)
{
  SeismoLostEvents lost = { .cpu = cpu, .time_ns = time_ns, .count = count };

  g_return_if_fail (self != NULL);
  if (count > 0)
    g_array_append_val (self->lost, lost);
}

void
seismo_trace_builder_set_metadata (SeismoTraceBuilder *self,
                                   const char         *key,
                                   const char         *value)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (key != NULL);

  for (guint i = 0; i < self->meta_keys->len; i++)
    if (strcmp (g_ptr_array_index (self->meta_keys, i), key) == 0)
      {
        g_free (g_ptr_array_index (self->meta_values, i));
        g_ptr_array_index (self->meta_values, i) = g_strdup (value ? value : "");
        return;
      }
  g_ptr_array_add (self->meta_keys, g_strdup (key));
  g_ptr_array_add (self->meta_values, g_strdup (value ? value : ""));
}

void
seismo_trace_builder_add_histogram (SeismoTraceBuilder    *self,
                                    const SeismoHistogram *histogram)
{
  SeismoHistogram copy;

  g_return_if_fail (self != NULL);
  g_return_if_fail (histogram != NULL);

  _seismo_histogram_copy (&copy, histogram);
  g_array_append_val (self->histograms, copy);
}

gboolean
seismo_trace_builder_set_field_symbols (SeismoTraceBuilder *self,
                                        guint               type_id,
                                        const char         *field,
                                        const SeismoSymbol *symbols,
                                        guint               n_symbols)
{
  SeismoEventType *type;
  SeismoField *f = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (field != NULL, FALSE);
  g_return_val_if_fail (symbols != NULL || n_symbols == 0, FALSE);

  if (type_id >= self->event_types->len)
    return FALSE;
  type = g_ptr_array_index (self->event_types, type_id);
  for (guint i = 0; i < type->n_fields && f == NULL; i++)
    if (strcmp (type->fields[i].name, field) == 0)
      f = &type->fields[i];
  if (f == NULL)
    return FALSE;
  for (guint s = 0; s < f->n_symbols; s++)
    g_free ((char *) f->symbols[s].name);
  g_free (f->symbols);
  f->symbols = n_symbols ? g_new (SeismoSymbol, n_symbols) : NULL;
  f->n_symbols = n_symbols;
  for (guint s = 0; s < n_symbols; s++)
    {
      f->symbols[s].value = symbols[s].value;
      f->symbols[s].name = g_strdup (symbols[s].name);
    }
  return TRUE;
}

void
seismo_trace_builder_set_n_cpus (SeismoTraceBuilder *self,
                                 guint               n_cpus)
{
  g_return_if_fail (self != NULL);
  self->n_cpus = MAX (self->n_cpus, MIN (n_cpus, G_MAXUINT16));
}

static int
compare_comm_changes (gconstpointer a,
                      gconstpointer b)
{
  const SeismoCommChange *x = a, *y = b;

  if (x->time_ns != y->time_ns)
    return x->time_ns < y->time_ns ? -1 : 1;
  return 0;
}

/* Makes a trace from the builder's state: moved when steal, else copied. */
static SeismoTrace *
to_trace (SeismoTraceBuilder *self,
          gboolean            steal)
{
  SeismoTrace *trace = _seismo_trace_new ();
  gsize n = self->n_events;
  gsize n_blocks = (n + SEISMO_BLOCK_EVENTS - 1) >> SEISMO_BLOCK_SHIFT;
  guint max_cpu = 0;

  g_return_val_if_fail (!self->in_event, trace);
  g_return_val_if_fail (self->released_blocks == 0, trace);

  if (steal)
    prefault_stop (self);

  if (steal)
    {
      trace->ts = g_renew (guint64, g_steal_pointer (&self->ts), MAX (n, 1));
      trace->cpu = g_renew (guint16, g_steal_pointer (&self->cpu), MAX (n, 1));
      trace->type = g_renew (guint16, g_steal_pointer (&self->type), MAX (n, 1));
      trace->task = g_renew (SeismoTaskId, g_steal_pointer (&self->task), MAX (n, 1));
      trace->payload_off = g_renew (guint32, g_steal_pointer (&self->payload_off), MAX (n, 1));
      trace->payload = g_realloc (g_steal_pointer (&self->payload), MAX (self->payload_len, 1));
      trace->n_events = n;
      self->n_events = self->capacity = 0;
    }
  else
    {
      _seismo_trace_alloc_events (trace, n);
      if (n)
        {
          memcpy (trace->ts, self->ts, n * sizeof (guint64));
          memcpy (trace->cpu, self->cpu, n * sizeof (guint16));
          memcpy (trace->type, self->type, n * sizeof (guint16));
          memcpy (trace->task, self->task, n * sizeof (SeismoTaskId));
          memcpy (trace->payload_off, self->payload_off, n * sizeof (guint32));
        }
      trace->payload = g_memdup2 (self->payload ? self->payload : (const guint8 *) "",
                                  MAX (self->payload_len, 1));
    }
  trace->payload_len = self->payload_len;
  g_free (trace->block_base);
  trace->block_base = g_new (guint64, n_blocks + 1);
  if (n_blocks)
    memcpy (trace->block_base, self->block_base->data, n_blocks * sizeof (guint64));
  trace->block_base[n_blocks] = self->payload_len;
  trace->n_blocks = n_blocks;

  for (guint t = 0; t < self->event_types->len; t++)
    {
      const SeismoEventType *src = g_ptr_array_index (self->event_types, t);
      g_autofree SeismoFieldInfo *info = g_new0 (SeismoFieldInfo, MAX (src->n_fields, 1));

      for (guint f = 0; f < src->n_fields; f++)
        info[f] = (SeismoFieldInfo) { src->fields[f].name, src->fields[f].type, src->fields[f].size,
                                      src->fields[f].display, src->fields[f].symbols,
                                      src->fields[f].n_symbols };
      _seismo_trace_add_event_type (trace, _seismo_event_type_new (t, src->system, src->name, info,
                                                                   src->n_fields, src->print_fmt));
    }

  g_free (trace->strings);
  g_free (trace->string_off);
  trace->strings = g_memdup2 (self->strings->data, self->strings->len);
  trace->strings_len = self->strings->len;
  trace->string_off = g_memdup2 (self->string_off->data, self->string_off->len * sizeof (guint32));
  trace->n_strings = self->string_off->len;

  trace->n_tasks = self->tasks->len;
  trace->tasks = g_memdup2 (self->tasks->data, MAX (self->tasks->len, 1) * sizeof (SeismoTask));
  trace->n_comm_changes = self->comm_changes->len;
  trace->comm_changes = g_memdup2 (self->comm_changes->data,
                                   MAX (self->comm_changes->len, 1) * sizeof (SeismoCommChange));
  if (trace->n_comm_changes > 1)
    qsort (trace->comm_changes, trace->n_comm_changes, sizeof (SeismoCommChange),
           compare_comm_changes);

  trace->n_lost = self->lost->len;
  trace->lost = g_memdup2 (self->lost->data, MAX (self->lost->len, 1) * sizeof (SeismoLostEvents));
  trace->n_histograms = self->histograms->len;
  trace->histograms = g_new0 (SeismoHistogram, MAX (self->histograms->len, 1));
  for (guint h = 0; h < self->histograms->len; h++)
    _seismo_histogram_copy (&trace->histograms[h],
                            &g_array_index (self->histograms, SeismoHistogram, h));

  for (guint m = 0; m < self->meta_keys->len; m++)
    _seismo_trace_set_metadata (trace, g_ptr_array_index (self->meta_keys, m),
                                g_ptr_array_index (self->meta_values, m));

  _seismo_trace_builder_stacks_to_trace (self, trace, steal);

  for (gsize i = 0; i < trace->n_events; i++)
    max_cpu = MAX (max_cpu, trace->cpu[i]);
  trace->n_cpus = MAX (self->n_cpus, trace->n_events ? max_cpu + 1 : 0);
  /* Appended in time order (readers that merge their streams): the sort need not look. */
  trace->known_sorted = self->sorted;

  _seismo_trace_sort (trace);
  _seismo_trace_derive (trace);
  return trace;
}

SeismoTrace *
seismo_trace_builder_snapshot (SeismoTraceBuilder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return to_trace (self, FALSE);
}

SeismoTrace *
seismo_trace_builder_finish (SeismoTraceBuilder *self)
{
  SeismoTrace *trace;

  g_return_val_if_fail (self != NULL, NULL);
  trace = to_trace (self, TRUE);
  seismo_trace_builder_free (self);
  return trace;
}

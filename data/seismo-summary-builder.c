/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-file"

#include <string.h>

#include "seismo-file-private.h"
#include "seismo-summary-private.h"
#include "seismo-syscalls.h"
#include "seismo-trace-derive-private.h"
#include "seismo-varint.h"

/*
 * Summaries computed while the events stream into a file, one chunk at a time, in one pass and in
 * bounded memory (what is kept per event is nothing; per task, per CPU and per syscall a few
 * counters; the encoded buckets grow by ~40 bytes per 1024 events).
 *
 * The statistics are those seismo_stats_by_*() compute from the derived intervals, streamed: a CPU
 * runs the task the last sched_switch switched in until the next switch (the first switch on a CPU
 * says who ran since the trace began, the last run lasts until it ends); a syscall span is an enter
 * and the next exit of the same task if it names the same syscall; a wakeup counts when the task
 * it woke is switched in. A tid names the newest task with that tid.
 */

#define NO_TASK  G_MAXUINT32
#define N_DOM    4

typedef struct {
  guint64 events, switches, busy_ns;
} CpuTotals;

typedef struct {
  guint64 events, cpu_ns, switches, wakeups, syscalls;
} TaskTotals;

typedef struct {
  char    *name;
  guint64  calls, errors, unfinished, total_ns, min_ns, max_ns;
  guint64 *hist;           /* SEISMO_SUMMARY_HIST_BUCKETS */
} SyscallTotals;

/* One syscall's spans that ended in the chunk being summarized. */
typedef struct {
  guint64 calls, errors, total_ns, max_ns;
} ChunkSyscall;

typedef struct {
  SeismoTaskId task;       /* running, NO_TASK for idle or not known */
  gboolean     seen;       /* a switch happened on this CPU */
  guint64      accounted;  /* busy time is counted up to here */
} CpuState;

typedef struct {
  guint64      enter_ns;
  guint32      syscall;    /* index + 1; 0: none open */
  gboolean     waking;     /* a wakeup waits for the task to be switched in */
} TaskState;

typedef struct {
  guint32      events;
  guint64      busy_ns;
  SeismoTaskId dom_task[N_DOM];
  guint64      dom_ns[N_DOM];
} Cell;

struct _SeismoSummaryBuilder
{
  gboolean     valid;
  guint64      n_events;
  guint64      start_ns;
  guint64      last_ns;
  guint        n_chunks;

  /* Tables learnt from the writer's. */
  guint8      *kinds;        /* per event type */
  guint        n_kinds;
  GHashTable  *tid_task;     /* tid → newest task + 1 */
  guint        n_tasks_seen;
  SeismoArch   arch;
  gboolean     arch_known;
  GHashTable  *syscall_ids;  /* name → index + 1 */
  guint32      nr_syscall[1024];

  /* Totals. */
  GArray      *type_counts;  /* guint64 */
  GArray      *cpus;         /* CpuTotals */
  GArray      *tasks;        /* TaskTotals */
  GArray      *task_state;   /* TaskState */
  GArray      *cpu_state;    /* CpuState */
  GPtrArray   *syscalls;     /* SyscallTotals* */

  /* Encoded as they complete. */
  GByteArray  *chunks;
  GByteArray  *buckets;
  guint        n_buckets;
  GByteArray  *task_buckets;
  guint        n_task_buckets;

  /* The buckets being filled. */
  guint64      bucket_start;
  guint32      bucket_events;
  GArray      *cells;        /* Cell, per CPU */
  guint64      prev_bucket_start;
  guint64      tbucket_start;
  guint64      prev_tbucket_start;
  guint32      tbucket_events;
  GArray      *tb_events;    /* guint32 per task */
  GArray      *tb_busy;      /* guint64 per task */
  GArray      *tb_touched;   /* SeismoTaskId, tasks with something in the task bucket */
  GArray      *ch_events;    /* guint32 per task: events in the chunk being summarized */
  GArray      *ch_touched;   /* SeismoTaskId, tasks with events in that chunk */
  GArray      *ch_syscalls;  /* ChunkSyscall per syscall index: spans ended in that chunk */
  GArray      *ch_sc_touched;/* guint32 syscall indexes with spans ended in that chunk */
  GByteArray  *chunk_syscalls; /* the CHUNK_SYSCALLS record's data, chunk by chunk */
};

static void
syscall_totals_free (gpointer p)
{
  SyscallTotals *s = p;

  g_free (s->name);
  g_free (s->hist);
  g_free (s);
}

SeismoSummaryBuilder *
_seismo_summary_builder_new (void)
{
  SeismoSummaryBuilder *self = g_new0 (SeismoSummaryBuilder, 1);

  self->valid = TRUE;
  self->tid_task = g_hash_table_new (NULL, NULL);
  self->syscall_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->type_counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  self->cpus = g_array_new (FALSE, TRUE, sizeof (CpuTotals));
  self->tasks = g_array_new (FALSE, TRUE, sizeof (TaskTotals));
  self->task_state = g_array_new (FALSE, TRUE, sizeof (TaskState));
  self->cpu_state = g_array_new (FALSE, TRUE, sizeof (CpuState));
  self->syscalls = g_ptr_array_new_with_free_func (syscall_totals_free);
  self->chunks = g_byte_array_new ();
  self->buckets = g_byte_array_new ();
  self->task_buckets = g_byte_array_new ();
  self->cells = g_array_new (FALSE, TRUE, sizeof (Cell));
  self->tb_events = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->tb_busy = g_array_new (FALSE, TRUE, sizeof (guint64));
  self->tb_touched = g_array_new (FALSE, FALSE, sizeof (SeismoTaskId));
  self->ch_events = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->ch_touched = g_array_new (FALSE, FALSE, sizeof (SeismoTaskId));
  self->ch_syscalls = g_array_new (FALSE, TRUE, sizeof (ChunkSyscall));
  self->ch_sc_touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->chunk_syscalls = g_byte_array_new ();
  return self;
}

static void
release_state (SeismoSummaryBuilder *self)
{
  g_clear_pointer (&self->kinds, g_free);
  g_clear_pointer (&self->tid_task, g_hash_table_unref);
  g_clear_pointer (&self->syscall_ids, g_hash_table_unref);
  g_clear_pointer (&self->type_counts, g_array_unref);
  g_clear_pointer (&self->cpus, g_array_unref);
  g_clear_pointer (&self->tasks, g_array_unref);
  g_clear_pointer (&self->task_state, g_array_unref);
  g_clear_pointer (&self->cpu_state, g_array_unref);
  g_clear_pointer (&self->syscalls, g_ptr_array_unref);
  g_clear_pointer (&self->chunks, g_byte_array_unref);
  g_clear_pointer (&self->buckets, g_byte_array_unref);
  g_clear_pointer (&self->task_buckets, g_byte_array_unref);
  g_clear_pointer (&self->cells, g_array_unref);
  g_clear_pointer (&self->tb_events, g_array_unref);
  g_clear_pointer (&self->tb_busy, g_array_unref);
  g_clear_pointer (&self->tb_touched, g_array_unref);
  g_clear_pointer (&self->ch_events, g_array_unref);
  g_clear_pointer (&self->ch_touched, g_array_unref);
  g_clear_pointer (&self->ch_syscalls, g_array_unref);
  g_clear_pointer (&self->ch_sc_touched, g_array_unref);
  g_clear_pointer (&self->chunk_syscalls, g_byte_array_unref);
}

void
_seismo_summary_builder_free (SeismoSummaryBuilder *self)
{
  if (self == NULL)
    return;
  release_state (self);
  g_free (self);
}

gboolean
_seismo_summary_builder_is_valid (SeismoSummaryBuilder *self)
{
  return self != NULL && self->valid;
}

static inline void
put_varint (GByteArray *b,
            guint64     v)
{
  guint8 tmp[SEISMO_VARINT_MAX];

  g_byte_array_append (b, tmp, (guint) (seismo_varint_put (tmp, v) - tmp));
}

static void
put_str (GByteArray *b,
         const char *s)
{
  gsize len = strlen (s);

  put_varint (b, len);
  g_byte_array_append (b, (const guint8 *) s, (guint) len);
}

/* Grows a zero-filled array to hold index i. */
static inline void
ensure (GArray *a,
        guint   i)
{
  if (i >= a->len)
    g_array_set_size (a, i + 1);
}

/* ---- payload fields ---- */

static SeismoTaskId
task_of_tid (SeismoSummaryBuilder *self,
             gint64                tid)
{
  gpointer v;

  if (tid <= 0 || tid > G_MAXINT32)
    return NO_TASK;
  v = g_hash_table_lookup (self->tid_task, GINT_TO_POINTER ((gint32) tid));
  return v != NULL ? GPOINTER_TO_UINT (v) - 1 : NO_TASK;
}

/* ---- syscalls ---- */

static guint32
syscall_index (SeismoSummaryBuilder *self,
               const char           *name)
{
  gpointer v = g_hash_table_lookup (self->syscall_ids, name);
  SyscallTotals *st;

  if (v != NULL)
    return GPOINTER_TO_UINT (v);
  st = g_new0 (SyscallTotals, 1);
  st->name = g_strdup (name);
  st->hist = g_new0 (guint64, SEISMO_SUMMARY_HIST_BUCKETS);
  g_ptr_array_add (self->syscalls, st);
  g_hash_table_insert (self->syscall_ids, st->name, GUINT_TO_POINTER (self->syscalls->len));
  return self->syscalls->len;
}

/* index + 1 of the syscall an enter or exit names. */
static guint32
event_syscall (SeismoSummaryBuilder  *self,
               const SeismoEventType *type,
               const guint8          *p,
               const guint8          *end)
{
  gint64 nr;
  const char *name;
  char buf[32];
  guint32 idx;

  if (type->syscall != NULL)
    return syscall_index (self, type->syscall);
  payload_role_ints3 (type, p, end, SEISMO_ROLE_ID, &nr, SEISMO_ROLE_N, NULL, SEISMO_ROLE_N, NULL, -1);
  if (nr >= 0 && nr < (gint64) G_N_ELEMENTS (self->nr_syscall) && self->nr_syscall[nr] != 0)
    return self->nr_syscall[nr];
  if ((name = seismo_syscall_name (self->arch, nr)) == NULL)
    {
      g_snprintf (buf, sizeof buf, "syscall_%" G_GINT64_FORMAT, nr);
      name = buf;
    }
  idx = syscall_index (self, name);
  if (nr >= 0 && nr < (gint64) G_N_ELEMENTS (self->nr_syscall))
    self->nr_syscall[nr] = idx;
  return idx;
}

static void
syscall_done (SeismoSummaryBuilder *self,
              guint32               idx,
              guint64               dur,
              gboolean              error)
{
  SyscallTotals *st = g_ptr_array_index (self->syscalls, idx - 1);
  ChunkSyscall *cs;

  ensure (self->ch_syscalls, idx - 1);
  cs = &g_array_index (self->ch_syscalls, ChunkSyscall, idx - 1);
  if (cs->calls == 0)
    {
      guint32 i = idx - 1;

      g_array_append_val (self->ch_sc_touched, i);
    }
  cs->calls++;
  cs->errors += error;
  cs->total_ns += dur;
  cs->max_ns = MAX (cs->max_ns, dur);

  if (st->calls == 0 || dur < st->min_ns)
    st->min_ns = dur;
  st->max_ns = MAX (st->max_ns, dur);
  st->calls++;
  st->total_ns += dur;
  st->errors += error;
  st->hist[_seismo_summary_hist_bucket (dur)]++;
}

/* ---- busy time ---- */

static inline Cell *
cell (SeismoSummaryBuilder *self,
      guint                 cpu)
{
  ensure (self->cells, cpu);
  return &g_array_index (self->cells, Cell, cpu);
}

static void
tb_add (SeismoSummaryBuilder *self,
        SeismoTaskId          task,
        guint32               events,
        guint64               busy)
{
  ensure (self->tb_events, task);
  ensure (self->tb_busy, task);
  if (g_array_index (self->tb_events, guint32, task) == 0 &&
      g_array_index (self->tb_busy, guint64, task) == 0)
    g_array_append_val (self->tb_touched, task);
  g_array_index (self->tb_events, guint32, task) += events;
  g_array_index (self->tb_busy, guint64, task) += busy;
}

/* Counts the time CPU c ran its task from where it was counted up to now. */
static void
account (SeismoSummaryBuilder *self,
         guint                 c,
         guint64               now)
{
  CpuState *cs = &g_array_index (self->cpu_state, CpuState, c);
  guint64 d;
  Cell *ce;
  guint slot = 0;

  if (now <= cs->accounted)
    return;
  d = now - cs->accounted;
  cs->accounted = now;
  if (cs->task == NO_TASK)
    return;
  ensure (self->cpus, c);
  g_array_index (self->cpus, CpuTotals, c).busy_ns += d;
  ensure (self->tasks, cs->task);
  g_array_index (self->tasks, TaskTotals, cs->task).cpu_ns += d;
  tb_add (self, cs->task, 0, d);

  /* The dominant task of the cell: the one with most time among a few tracked. */
  ce = cell (self, c);
  ce->busy_ns += d;
  for (guint k = 0; k < N_DOM; k++)
    {
      if (ce->dom_ns[k] > 0 && ce->dom_task[k] == cs->task)
        {
          ce->dom_ns[k] += d;
          return;
        }
      if (ce->dom_ns[k] < ce->dom_ns[slot])
        slot = k;
    }
  if (ce->dom_ns[slot] <= d)
    {
      ce->dom_task[slot] = cs->task;
      ce->dom_ns[slot] = d;
    }
}

static void
close_bucket (SeismoSummaryBuilder *self,
              guint64               end_ns)
{
  GByteArray *b = self->buckets;

  for (guint c = 0; c < self->cpu_state->len; c++)
    account (self, c, end_ns);
  put_varint (b, self->bucket_start - self->prev_bucket_start);
  put_varint (b, self->bucket_events);
  put_varint (b, self->cells->len);
  for (guint c = 0; c < self->cells->len; c++)
    {
      Cell *ce = &g_array_index (self->cells, Cell, c);
      guint best = 0;

      for (guint k = 1; k < N_DOM; k++)
        if (ce->dom_ns[k] > ce->dom_ns[best])
          best = k;
      put_varint (b, ce->events);
      put_varint (b, ce->busy_ns);
      put_varint (b, ce->dom_ns[best] > 0 ? (guint64) ce->dom_task[best] + 1 : 0);
      memset (ce, 0, sizeof *ce);
    }
  self->prev_bucket_start = self->bucket_start;
  self->n_buckets++;
  self->bucket_events = 0;
}

/* Ascending task ids or syscall indexes (both guint32). */
static gint
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

G_STATIC_ASSERT (sizeof (SeismoTaskId) == sizeof (guint32));

static void
close_task_bucket (SeismoSummaryBuilder *self,
                   guint64               end_ns)
{
  GByteArray *b = self->task_buckets;
  SeismoTaskId *touched = (SeismoTaskId *) (gpointer) self->tb_touched->data;
  guint64 prev = 0;

  for (guint c = 0; c < self->cpu_state->len; c++)
    account (self, c, end_ns);
  put_varint (b, self->tbucket_start - self->prev_tbucket_start);
  put_varint (b, self->tbucket_events);
  /* Sorted by task so the ids encode as small deltas. */
  g_array_sort (self->tb_touched, compare_u32);
  touched = (SeismoTaskId *) (gpointer) self->tb_touched->data;
  put_varint (b, self->tb_touched->len);
  for (guint i = 0; i < self->tb_touched->len; i++)
    {
      SeismoTaskId t = touched[i];

      put_varint (b, t - prev);
      prev = t;
      put_varint (b, g_array_index (self->tb_events, guint32, t));
      put_varint (b, g_array_index (self->tb_busy, guint64, t));
      g_array_index (self->tb_events, guint32, t) = 0;
      g_array_index (self->tb_busy, guint64, t) = 0;
    }
  g_array_set_size (self->tb_touched, 0);
  self->prev_tbucket_start = self->tbucket_start;
  self->n_task_buckets++;
  self->tbucket_events = 0;
}

/* ---- events ---- */

static void
learn_tables (SeismoSummaryBuilder *self,
              GPtrArray            *types,
              const SeismoTask     *tasks,
              guint                 n_tasks,
              const char           *arch)
{
  if (types->len > self->n_kinds)
    {
      self->kinds = g_renew (guint8, self->kinds, types->len);
      for (guint t = self->n_kinds; t < types->len; t++)
        self->kinds[t] = ((const SeismoEventType *) g_ptr_array_index (types, t))->kind;
      self->n_kinds = types->len;
    }
  for (guint t = self->n_tasks_seen; t < n_tasks; t++)
    g_hash_table_insert (self->tid_task, GINT_TO_POINTER (tasks[t].tid), GUINT_TO_POINTER (t + 1));
  self->n_tasks_seen = MAX (self->n_tasks_seen, n_tasks);
  ensure (self->tasks, MAX (n_tasks, 1) - 1);
  ensure (self->task_state, MAX (n_tasks, 1) - 1);
  if (!self->arch_known)
    {
      self->arch = seismo_arch_from_string (arch);
      self->arch_known = TRUE;
    }
}

static void
on_switch (SeismoSummaryBuilder  *self,
           const SeismoEventType *type,
           const guint8          *p,
           const guint8          *end,
           guint                  c,
           guint64                now)
{
  gint64 prev_pid, next_pid;
  CpuState *cs;
  SeismoTaskId next;

  ensure (self->cpu_state, c);
  cs = &g_array_index (self->cpu_state, CpuState, c);
  payload_role_ints3 (type, p, end, SEISMO_ROLE_PREV_PID, &prev_pid, SEISMO_ROLE_NEXT_PID, &next_pid,
                      SEISMO_ROLE_N, NULL, -1);
  if (!cs->seen)
    {
      /* The first switch on a CPU: prev ran since the trace began. */
      cs->seen = TRUE;
      cs->task = prev_pid > 0 ? task_of_tid (self, prev_pid) : NO_TASK;
      cs->accounted = self->start_ns;
    }
  account (self, c, now);
  cs = &g_array_index (self->cpu_state, CpuState, c);
  if (cs->task != NO_TASK)
    {
      ensure (self->cpus, c);
      g_array_index (self->cpus, CpuTotals, c).switches++;
      g_array_index (self->tasks, TaskTotals, cs->task).switches++;
    }
  next = next_pid > 0 ? task_of_tid (self, next_pid) : NO_TASK;
  cs->task = next;
  cs->accounted = now;
  if (next != NO_TASK)
    {
      TaskState *ts = &g_array_index (self->task_state, TaskState, next);

      if (ts->waking)
        {
          ts->waking = FALSE;
          g_array_index (self->tasks, TaskTotals, next).wakeups++;
        }
    }
}

/* The chunk's syscall totals (CHUNK_SYSCALLS): those with spans ended in it, by ascending index. */
static void
put_chunk_syscalls (SeismoSummaryBuilder *self)
{
  GByteArray *b = self->chunk_syscalls;
  guint32 prev = 0;

  g_array_sort (self->ch_sc_touched, compare_u32);
  put_varint (b, self->ch_sc_touched->len);
  for (guint x = 0; x < self->ch_sc_touched->len; x++)
    {
      guint32 i = g_array_index (self->ch_sc_touched, guint32, x);
      ChunkSyscall *cs = &g_array_index (self->ch_syscalls, ChunkSyscall, i);

      put_varint (b, i - prev);
      put_varint (b, cs->calls);
      put_varint (b, cs->errors);
      put_varint (b, cs->total_ns);
      put_varint (b, cs->max_ns);
      prev = i;
      memset (cs, 0, sizeof *cs);
    }
  g_array_set_size (self->ch_sc_touched, 0);
}

gboolean
_seismo_summary_builder_add_chunk (SeismoSummaryBuilder  *self,
                                   GPtrArray             *types,
                                   const SeismoTask      *tasks,
                                   guint                  n_tasks,
                                   const char            *arch,
                                   const guint64         *ts,
                                   const guint16         *cpu,
                                   const guint16         *type,
                                   const SeismoTaskId    *task,
                                   const guint32         *payload_off,
                                   const guint8          *payload,
                                   gsize                  payload_len,
                                   guint32                n)
{
  g_autofree guint32 *chunk_types = NULL;
  GArray *chunk_cpus;
  guint64 chunk_syscalls = 0;

  if (!self->valid || n == 0)
    return self->valid;
  if ((self->n_events > 0 && ts[0] < self->last_ns))
    goto out_of_order;
  for (guint32 i = 1; i < n; i++)
    if (ts[i] < ts[i - 1])
      goto out_of_order;
  /* Ids the tables do not know (a damaged trace being saved): no summary rather than a wrong one. */
  for (guint32 i = 0; i < n; i++)
    if (type[i] >= types->len || (task[i] != SEISMO_NO_TASK && task[i] >= n_tasks))
      goto bad_ids;

  learn_tables (self, types, tasks, n_tasks, arch);
  if (self->n_events == 0)
    {
      self->start_ns = ts[0];
      self->bucket_start = self->prev_bucket_start = ts[0];
      self->tbucket_start = self->prev_tbucket_start = ts[0];
    }
  chunk_types = g_new0 (guint32, MAX (self->n_kinds, 1));
  chunk_cpus = g_array_new (FALSE, TRUE, sizeof (guint32));

  for (guint32 i = 0; i < n; i++)
    {
      const SeismoEventType *et = g_ptr_array_index (types, type[i]);
      guint kind = self->kinds[type[i]];
      const guint8 *p = payload + payload_off[i];
      const guint8 *end = payload + (i + 1 < n ? payload_off[i + 1] : payload_len);
      guint c = cpu[i];
      SeismoTaskId t = task[i];
      TaskState *tst;

      if (self->bucket_events == SEISMO_SUMMARY_BUCKET_EVENTS)
        {
          close_bucket (self, ts[i]);
          self->bucket_start = ts[i];
        }
      if (self->tbucket_events == SEISMO_SUMMARY_TASK_BUCKET_EVENTS)
        {
          close_task_bucket (self, ts[i]);
          self->tbucket_start = ts[i];
        }
      self->bucket_events++;
      self->tbucket_events++;
      ensure (self->cpu_state, c);
      cell (self, c)->events++;
      ensure (self->cpus, c);
      g_array_index (self->cpus, CpuTotals, c).events++;
      ensure (self->tasks, t);
      ensure (self->task_state, t);
      g_array_index (self->tasks, TaskTotals, t).events++;
      tb_add (self, t, 1, 0);
      chunk_types[type[i]]++;
      ensure (chunk_cpus, c);
      g_array_index (chunk_cpus, guint32, c)++;
      ensure (self->ch_events, t);
      if (g_array_index (self->ch_events, guint32, t)++ == 0)
        g_array_append_val (self->ch_touched, t);

      switch (kind)
        {
        case SEISMO_KIND_SYSCALL_ENTER:
          tst = &g_array_index (self->task_state, TaskState, t);
          if (tst->syscall != 0)
            ((SyscallTotals *) g_ptr_array_index (self->syscalls, tst->syscall - 1))->unfinished++;
          tst = &g_array_index (self->task_state, TaskState, t);
          tst->syscall = event_syscall (self, et, p, end);
          tst->enter_ns = ts[i];
          g_array_index (self->tasks, TaskTotals, t).syscalls++;
          chunk_syscalls++;
          break;
        case SEISMO_KIND_SYSCALL_EXIT:
          tst = &g_array_index (self->task_state, TaskState, t);
          if (tst->syscall != 0)
            {
              guint32 open = tst->syscall;
              guint64 enter_ns = tst->enter_ns;
              guint32 idx = event_syscall (self, et, p, end);
              gint64 ret;

              if (idx == open)
                {
                  payload_role_ints3 (et, p, end, SEISMO_ROLE_RET, &ret, SEISMO_ROLE_N, NULL, SEISMO_ROLE_N,
                                      NULL, -1);
                  if (et->roles[SEISMO_ROLE_RET] < 0)
                    ret = 0;
                  syscall_done (self, idx, ts[i] - enter_ns, ret < 0 && ret >= -4095);
                }
              else
                ((SyscallTotals *) g_ptr_array_index (self->syscalls, open - 1))->unfinished++;
              g_array_index (self->task_state, TaskState, t).syscall = 0;
            }
          break;
        case SEISMO_KIND_SCHED_SWITCH:
          on_switch (self, et, p, end, c, ts[i]);
          break;
        case SEISMO_KIND_SCHED_WAKEUP:
        case SEISMO_KIND_SCHED_WAKING:
          {
            gint64 pid;
            SeismoTaskId woken;

            payload_role_ints3 (et, p, end, SEISMO_ROLE_PID, &pid, SEISMO_ROLE_N, NULL, SEISMO_ROLE_N, NULL,
                                -1);
            woken = task_of_tid (self, pid);
            if (woken != NO_TASK)
              {
                ensure (self->task_state, woken);
                g_array_index (self->task_state, TaskState, woken).waking = TRUE;
              }
          }
          break;
        default:
          break;
        }
    }

  /* The chunk's summary: type counts, CPU counts, busiest tasks, syscalls entered. */
  {
    GByteArray *b = self->chunks;
    guint n_nonzero = 0;
    SeismoTaskId top_task[SEISMO_SUMMARY_TOP_TASKS];
    guint32 top_events[SEISMO_SUMMARY_TOP_TASKS];
    guint n_top = 0;

    for (guint t = 0; t < self->n_kinds; t++)
      n_nonzero += chunk_types[t] != 0;
    put_varint (b, n_nonzero);
    for (guint t = 0; t < self->n_kinds; t++)
      if (chunk_types[t] != 0)
        {
          put_varint (b, t);
          put_varint (b, chunk_types[t]);
          ensure (self->type_counts, t);
          g_array_index (self->type_counts, guint64, t) += chunk_types[t];
        }
    put_varint (b, chunk_cpus->len);
    for (guint c = 0; c < chunk_cpus->len; c++)
      put_varint (b, g_array_index (chunk_cpus, guint32, c));

    for (guint x = 0; x < self->ch_touched->len; x++)
      {
        SeismoTaskId id = g_array_index (self->ch_touched, SeismoTaskId, x);
        guint32 ev = g_array_index (self->ch_events, guint32, id);
        guint j;

        g_array_index (self->ch_events, guint32, id) = 0;

        if (n_top == SEISMO_SUMMARY_TOP_TASKS &&
            (ev < top_events[n_top - 1] || (ev == top_events[n_top - 1] && id > top_task[n_top - 1])))
          continue;
        if (n_top < SEISMO_SUMMARY_TOP_TASKS)
          n_top++;
        for (j = n_top - 1; j > 0 && (top_events[j - 1] < ev ||
                                      (top_events[j - 1] == ev && top_task[j - 1] > id)); j--)
          {
            top_events[j] = top_events[j - 1];
            top_task[j] = top_task[j - 1];
          }
        top_events[j] = ev;
        top_task[j] = id;
      }
    put_varint (b, n_top);
    for (guint j = 0; j < n_top; j++)
      {
        put_varint (b, top_task[j]);
        put_varint (b, top_events[j]);
      }
    put_varint (b, chunk_syscalls);
  }
  put_chunk_syscalls (self);

  g_array_set_size (self->ch_touched, 0);
  g_array_unref (chunk_cpus);
  self->n_events += n;
  self->last_ns = ts[n - 1];
  self->n_chunks++;
  return TRUE;

out_of_order:
  g_debug ("events out of time order: the file gets no summary");
  self->valid = FALSE;
  release_state (self);
  return FALSE;

bad_ids:
  g_debug ("events with unknown type or task ids: the file gets no summary");
  self->valid = FALSE;
  release_state (self);
  return FALSE;
}

void
_seismo_summary_builder_finish (SeismoSummaryBuilder  *self,
                                guint                  n_tasks,
                                gpointer               info_out,
                                GByteArray           **raw_out,
                                gpointer               chunk_syscalls_info_out,
                                GByteArray           **chunk_syscalls_out)
{
  SeismoChunkSyscallsInfo cinfo = { 0 };
  SeismoSummaryInfo info = { 0 };
  GByteArray *raw;
  guint n_cpus;

  g_return_if_fail (self->valid);

  /* Runs still going last until the trace's end; the buckets being filled close there. */
  if (self->n_events > 0)
    {
      close_bucket (self, self->last_ns);
      close_task_bucket (self, self->last_ns);
    }
  ensure (self->tasks, MAX (n_tasks, 1) - 1);
  n_cpus = MAX (self->cpus->len, self->cpu_state->len);
  ensure (self->cpus, MAX (n_cpus, 1) - 1);

  raw = g_byte_array_new ();
  g_byte_array_append (raw, self->chunks->data, self->chunks->len);
  for (guint t = 0; t < self->n_kinds; t++)
    put_varint (raw, t < self->type_counts->len ? g_array_index (self->type_counts, guint64, t) : 0);
  for (guint c = 0; c < n_cpus; c++)
    {
      CpuTotals *ct = &g_array_index (self->cpus, CpuTotals, c);

      put_varint (raw, ct->events);
      put_varint (raw, ct->switches);
      put_varint (raw, ct->busy_ns);
    }
  for (guint t = 0; t < n_tasks; t++)
    {
      TaskTotals *tt = &g_array_index (self->tasks, TaskTotals, t);

      put_varint (raw, tt->events);
      put_varint (raw, tt->cpu_ns);
      put_varint (raw, tt->switches);
      put_varint (raw, tt->wakeups);
      put_varint (raw, tt->syscalls);
    }
  /* Enters still open at the end are unfinished spans. */
  for (guint t = 0; t < self->task_state->len; t++)
    {
      TaskState *ts = &g_array_index (self->task_state, TaskState, t);

      if (ts->syscall != 0)
        ((SyscallTotals *) g_ptr_array_index (self->syscalls, ts->syscall - 1))->unfinished++;
    }
  for (guint s = 0; s < self->syscalls->len; s++)
    {
      SyscallTotals *st = g_ptr_array_index (self->syscalls, s);
      guint n_nonzero = 0, prev = 0;

      put_str (raw, st->name);
      put_varint (raw, st->calls);
      put_varint (raw, st->errors);
      put_varint (raw, st->unfinished);
      put_varint (raw, st->total_ns);
      put_varint (raw, st->min_ns);
      put_varint (raw, st->max_ns);
      for (guint k = 0; k < SEISMO_SUMMARY_HIST_BUCKETS; k++)
        n_nonzero += st->hist[k] != 0;
      put_varint (raw, n_nonzero);
      for (guint k = 0; k < SEISMO_SUMMARY_HIST_BUCKETS; k++)
        if (st->hist[k] != 0)
          {
            put_varint (raw, k - prev);
            put_varint (raw, st->hist[k]);
            prev = k;
          }
    }
  g_byte_array_append (raw, self->buckets->data, self->buckets->len);
  g_byte_array_append (raw, self->task_buckets->data, self->task_buckets->len);

  info.n_chunks = self->n_chunks;
  info.n_cpus = n_cpus;
  info.n_types = self->n_kinds;
  info.n_tasks = n_tasks;
  info.n_syscalls = self->syscalls->len;
  info.bucket_events = SEISMO_SUMMARY_BUCKET_EVENTS;
  info.task_bucket_events = SEISMO_SUMMARY_TASK_BUCKET_EVENTS;
  info.n_buckets = self->n_buckets;
  info.n_task_buckets = self->n_task_buckets;
  info.n_events = self->n_events;
  info.start_ns = self->start_ns;
  info.end_ns = self->last_ns;
  _seismo_summary_info_swap (&info);
  memcpy (info_out, &info, sizeof info);
  *raw_out = raw;

  cinfo.n_chunks = self->n_chunks;
  cinfo.n_syscalls = self->syscalls->len;
  _seismo_chunk_syscalls_info_swap (&cinfo);
  memcpy (chunk_syscalls_info_out, &cinfo, sizeof cinfo);
  *chunk_syscalls_out = g_steal_pointer (&self->chunk_syscalls);
}

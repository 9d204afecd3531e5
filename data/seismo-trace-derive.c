/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <stdlib.h>
#include <string.h>

#include "seismo-syscalls.h"
#include "seismo-trace-private.h"

#define NO_SPAN G_MAXUINT32

/*
 * Derived intervals, computed once in one pass over the sorted events: syscall spans (enter paired
 * with exit per task), task runs per CPU from sched_switch, wakeup-to-run latency, IRQ and softirq
 * spans. Everything refers back to event ids, so an interval costs 16 bytes and a span 12.
 */

typedef struct {
  SeismoInterval *v;
  gsize           len;
} Intervals;

typedef struct {
  SeismoTrace *trace;
  SeismoArch   arch;
  GHashTable  *syscall_ids;   /* name → index + 1 */
  /* Each is allocated once with a bound counted beforehand (at most one span per enter, one run
   * per switch and CPU, ...), so appending is a store. */
  SeismoSyscallSpan *spans;
  gsize        n_spans;
  Intervals    runs;          /* all CPUs, in time order; key = cpu */
  Intervals    wakeups;
  Intervals    irqs;
  Intervals    softirqs;
  guint32      *pending_span;      /* per task: index in spans of the enter still open */
  guint32      *type_syscall;      /* per event type: syscall index + 1 (0: not known yet) */
  guint32       nr_syscall[1024];  /* per syscall number: syscall index + 1 (0: not known yet) */
  const guint8 *kinds;             /* per event type: its SeismoEventKind */
  guint         n_cpus;
  SeismoEventId *pending_wakeup;   /* per task */
  SeismoEventId *cpu_run_start;    /* per cpu */
  SeismoTaskId  *cpu_run_task;     /* per cpu */
  SeismoEventId *cpu_irq;          /* per cpu */
  SeismoEventId *cpu_softirq;      /* per cpu */
} Derive;

static gint64
field_int (SeismoTrace           *trace,
           SeismoEventId          ev,
           const SeismoEventType *type,
           SeismoFieldRole        role,
           gint64                 fallback)
{
  SeismoValue v;

  if (type->roles[role] < 0 || !seismo_trace_event_field (trace, ev, type->roles[role], &v))
    return fallback;
  switch (v.type)
    {
    case SEISMO_FIELD_INT:
      return v.i;
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      return (gint64) v.u;
    case SEISMO_FIELD_STRING:
    case SEISMO_FIELD_BYTES:
    case SEISMO_FIELD_UINT_ARRAY:
    case SEISMO_FIELD_N_TYPES:
    default:
      return fallback;
    }
}

static guint16
syscall_index (Derive     *d,
               const char *name)
{
  guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (d->syscall_ids, name));

  if (idx == 0)
    {
      char *copy = g_strdup (name);

      g_ptr_array_add (d->trace->syscall_names, copy);
      idx = d->trace->syscall_names->len;
      g_hash_table_insert (d->syscall_ids, copy, GUINT_TO_POINTER (idx));
    }
  return (guint16) MIN (idx - 1, G_MAXUINT16);
}

/* Called for every syscall event: names are looked up once per event type or syscall number. */
static guint16
event_syscall (Derive                *d,
               SeismoEventId          ev,
               const SeismoEventType *type)
{
  gint64 nr;
  const char *name;
  char buf[32];
  guint16 idx;

  if (type->syscall != NULL)
    {
      if (d->type_syscall[type->id] == 0)
        d->type_syscall[type->id] = syscall_index (d, type->syscall) + 1u;
      return (guint16) (d->type_syscall[type->id] - 1);
    }
  nr = field_int (d->trace, ev, type, SEISMO_ROLE_ID, -1);
  if (nr >= 0 && nr < (gint64) G_N_ELEMENTS (d->nr_syscall) && d->nr_syscall[nr] != 0)
    return (guint16) (d->nr_syscall[nr] - 1);
  if ((name = seismo_syscall_name (d->arch, nr)) == NULL)
    {
      g_snprintf (buf, sizeof buf, "syscall_%" G_GINT64_FORMAT, nr);
      name = buf;
    }
  idx = syscall_index (d, name);
  if (nr >= 0 && nr < (gint64) G_N_ELEMENTS (d->nr_syscall))
    d->nr_syscall[nr] = idx + 1u;
  return idx;
}

static inline void
add_interval (Intervals     *array,
              SeismoEventId  start,
              SeismoEventId  end,
              SeismoTaskId   task,
              guint32        key)
{
  array->v[array->len++] = (SeismoInterval) { .start = start, .end = end, .task = task, .key = key };
}

static SeismoTaskId
task_of_tid (SeismoTrace   *trace,
             SeismoEventId  ev,
             gint64         tid)
{
  if (tid < G_MININT32 || tid > G_MAXINT32)
    return SEISMO_NO_TASK;
  return seismo_trace_find_task (trace, (gint32) tid, trace->ts[ev]);
}

static void
on_switch (Derive                *d,
           SeismoEventId          ev,
           const SeismoEventType *type)
{
  SeismoTrace *trace = d->trace;
  guint cpu = trace->cpu[ev];
  gint64 prev_pid = field_int (trace, ev, type, SEISMO_ROLE_PREV_PID, -1);
  gint64 next_pid = field_int (trace, ev, type, SEISMO_ROLE_NEXT_PID, -1);
  Intervals *runs = &d->runs;
  SeismoTaskId next;

  if (d->cpu_run_start[cpu] != SEISMO_NO_EVENT || d->cpu_run_task[cpu] != SEISMO_NO_TASK)
    {
      if (d->cpu_run_task[cpu] != SEISMO_NO_TASK)
        add_interval (runs, d->cpu_run_start[cpu], ev, d->cpu_run_task[cpu], cpu);
    }
  else if (prev_pid > 0)
    {
      /* The first switch on a CPU: prev ran since before the trace began. */
      SeismoTaskId prev = task_of_tid (trace, ev, prev_pid);

      if (prev != SEISMO_NO_TASK)
        add_interval (runs, SEISMO_NO_EVENT, ev, prev, cpu);
    }

  next = next_pid > 0 ? task_of_tid (trace, ev, next_pid) : SEISMO_NO_TASK;
  d->cpu_run_start[cpu] = ev;
  d->cpu_run_task[cpu] = next;

  if (next != SEISMO_NO_TASK && d->pending_wakeup[next] != SEISMO_NO_EVENT)
    {
      add_interval (&d->wakeups, d->pending_wakeup[next], ev, next, cpu);
      d->pending_wakeup[next] = SEISMO_NO_EVENT;
    }
}

static void
on_wakeup (Derive                *d,
           SeismoEventId          ev,
           const SeismoEventType *type)
{
  gint64 pid = field_int (d->trace, ev, type, SEISMO_ROLE_PID, -1);
  SeismoTaskId task = pid > 0 ? task_of_tid (d->trace, ev, pid) : SEISMO_NO_TASK;

  /* sched_waking comes before sched_wakeup for the same wakeup: keep the earliest. */
  if (task != SEISMO_NO_TASK && d->pending_wakeup[task] == SEISMO_NO_EVENT)
    d->pending_wakeup[task] = ev;
}

/* A span is appended at its enter, so spans come out in enter order without a sort; the exit
 * fills it in later. An enter while one is open leaves the open one unfinished. */
static void
on_syscall_enter (Derive                *d,
                  SeismoEventId          ev,
                  const SeismoEventType *type)
{
  SeismoTaskId task = d->trace->task[ev];
  SeismoSyscallSpan span = { ev, SEISMO_NO_EVENT, event_syscall (d, ev, type) };

  d->pending_span[task] = (guint32) d->n_spans;
  d->spans[d->n_spans++] = span;
}

static void
on_syscall_exit (Derive                *d,
                 SeismoEventId          ev,
                 const SeismoEventType *type)
{
  SeismoTaskId task = d->trace->task[ev];
  SeismoSyscallSpan *span;

  if (d->pending_span[task] == NO_SPAN)
    return;
  span = &d->spans[d->pending_span[task]];
  /* An exit of another syscall means the enter we hold never returned (e.g. a lost event). */
  if (event_syscall (d, ev, type) == span->syscall)
    span->exit = ev;
  d->pending_span[task] = NO_SPAN;
}

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const SeismoInterval *x = a, *y = b;
  /* NO_EVENT starts (before the trace) sort first. */
  gint64 sx = x->start == SEISMO_NO_EVENT ? -1 : (gint64) x->start;
  gint64 sy = y->start == SEISMO_NO_EVENT ? -1 : (gint64) y->start;

  return sx < sy ? -1 : sx > sy;
}

static SeismoInterval *
steal_sorted (Intervals *array,
              gsize     *n)
{
  *n = array->len;
  qsort (array->v, array->len, sizeof (SeismoInterval), compare_intervals);
  return g_renew (SeismoInterval, array->v, MAX (array->len, 1));
}

/* Bounds for the derived arrays, from the per-type counts. */
static gsize
count_kind (SeismoTrace    *self,
            SeismoEventKind kind)
{
  gsize n = 0;

  for (guint t = 0; t < self->event_types->len; t++)
    if (((const SeismoEventType *) g_ptr_array_index (self->event_types, t))->kind == kind)
      n += self->type_counts[t];
  return n;
}

/* One pass over the events: the syscall kinds when syscalls, else the scheduler and IRQ kinds. The
 * two touch disjoint parts of Derive, so they run in parallel on big traces. */
static void
derive_pass (Derive   *d,
             gboolean  syscalls)
{
  SeismoTrace *self = d->trace;
  guint n_cpus = d->n_cpus;

  for (gsize i = 0; i < self->n_events; i++)
    {
      SeismoEventKind kind = d->kinds[self->type[i]];
      const SeismoEventType *type;
      SeismoEventId ev = (SeismoEventId) i;
      guint cpu;

      /* Most events of a big trace need nothing here: skip them before touching their type. */
      if (kind == SEISMO_KIND_GENERIC
          || (kind == SEISMO_KIND_SYSCALL_ENTER || kind == SEISMO_KIND_SYSCALL_EXIT) != syscalls)
        continue;
      type = g_ptr_array_index (self->event_types, self->type[i]);
      cpu = self->cpu[i];
      switch (kind)
        {
        case SEISMO_KIND_SYSCALL_ENTER:
          on_syscall_enter (d, ev, type);
          break;
        case SEISMO_KIND_SYSCALL_EXIT:
          on_syscall_exit (d, ev, type);
          break;
        case SEISMO_KIND_SCHED_SWITCH:
          if (cpu < n_cpus)
            on_switch (d, ev, type);
          break;
        case SEISMO_KIND_SCHED_WAKEUP:
        case SEISMO_KIND_SCHED_WAKING:
          on_wakeup (d, ev, type);
          break;
        case SEISMO_KIND_IRQ_ENTRY:
          if (cpu < n_cpus)
            d->cpu_irq[cpu] = ev;
          break;
        case SEISMO_KIND_IRQ_EXIT:
          if (cpu < n_cpus && d->cpu_irq[cpu] != SEISMO_NO_EVENT)
            {
              SeismoEventId start = d->cpu_irq[cpu];
              const SeismoEventType *st = g_ptr_array_index (self->event_types, self->type[start]);

              add_interval (&d->irqs, start, ev, self->task[start],
                            (guint32) field_int (self, start, st, SEISMO_ROLE_IRQ, 0));
              d->cpu_irq[cpu] = SEISMO_NO_EVENT;
            }
          break;
        case SEISMO_KIND_SOFTIRQ_ENTRY:
          if (cpu < n_cpus)
            d->cpu_softirq[cpu] = ev;
          break;
        case SEISMO_KIND_SOFTIRQ_EXIT:
          if (cpu < n_cpus && d->cpu_softirq[cpu] != SEISMO_NO_EVENT)
            {
              SeismoEventId start = d->cpu_softirq[cpu];
              const SeismoEventType *st = g_ptr_array_index (self->event_types, self->type[start]);

              add_interval (&d->softirqs, start, ev, self->task[start],
                            (guint32) field_int (self, start, st, SEISMO_ROLE_VEC, 0));
              d->cpu_softirq[cpu] = SEISMO_NO_EVENT;
            }
          break;
        case SEISMO_KIND_GENERIC:
        case SEISMO_KIND_PROCESS_FORK:
        case SEISMO_KIND_PROCESS_EXEC:
        case SEISMO_KIND_PROCESS_EXIT:
        case SEISMO_KIND_SIGNAL:
        case SEISMO_KIND_TASK_RENAME:
        case SEISMO_KIND_N:
        default:
          break;
        }
    }

}

static gpointer
derive_sched_thread (gpointer data)
{
  derive_pass (data, FALSE);
  return NULL;
}

void
_seismo_trace_derive (SeismoTrace *self)
{
  Derive d = { .trace = self };
  guint n_types = self->event_types->len;
  guint n_cpus = MAX (self->n_cpus, 1);
  SeismoInterval *all_runs;
  g_autofree guint8 *kinds = NULL;
  gsize n_switch;

  g_free (self->type_counts);
  self->type_counts = g_new0 (guint64, MAX (n_types, 1));
  for (gsize i = 0; i < self->n_events; i++)
    self->type_counts[self->type[i]]++;

  self->n_lost_events = 0;
  for (guint l = 0; l < self->n_lost; l++)
    self->n_lost_events += self->lost[l].count;

  g_ptr_array_set_size (self->syscall_names, 0);
  d.arch = seismo_arch_from_string (seismo_trace_get_metadata (self, SEISMO_META_ARCH));
  d.syscall_ids = g_hash_table_new (g_str_hash, g_str_equal);
  n_switch = count_kind (self, SEISMO_KIND_SCHED_SWITCH);
  d.spans = g_new (SeismoSyscallSpan, MAX (count_kind (self, SEISMO_KIND_SYSCALL_ENTER), 1));
  d.runs.v = g_new (SeismoInterval, n_switch + n_cpus);
  d.wakeups.v = g_new (SeismoInterval, MAX (n_switch, 1));
  d.irqs.v = g_new (SeismoInterval, MAX (count_kind (self, SEISMO_KIND_IRQ_EXIT), 1));
  d.softirqs.v = g_new (SeismoInterval, MAX (count_kind (self, SEISMO_KIND_SOFTIRQ_EXIT), 1));
  d.pending_span = g_new (guint32, MAX (self->n_tasks, 1));
  d.type_syscall = g_new0 (guint32, MAX (n_types, 1));
  d.pending_wakeup = g_new (SeismoEventId, MAX (self->n_tasks, 1));
  for (guint t = 0; t < self->n_tasks; t++)
    {
      d.pending_span[t] = NO_SPAN;
      d.pending_wakeup[t] = SEISMO_NO_EVENT;
    }
  d.cpu_run_start = g_new (SeismoEventId, n_cpus);
  d.cpu_run_task = g_new (SeismoTaskId, n_cpus);
  d.cpu_irq = g_new (SeismoEventId, n_cpus);
  d.cpu_softirq = g_new (SeismoEventId, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    {
      d.cpu_run_start[c] = d.cpu_irq[c] = d.cpu_softirq[c] = SEISMO_NO_EVENT;
      d.cpu_run_task[c] = SEISMO_NO_TASK;
    }

  d.n_cpus = n_cpus;
  d.kinds = kinds = g_new (guint8, MAX (n_types, 1));
  for (guint t = 0; t < n_types; t++)
    kinds[t] = ((const SeismoEventType *) g_ptr_array_index (self->event_types, t))->kind;

  /* A thread costs more than it saves on small traces. */
  if (self->n_events >= 1000000)
    {
      GThread *sched = g_thread_new ("seismo-derive", derive_sched_thread, &d);

      derive_pass (&d, TRUE);
      g_thread_join (sched);
    }
  else
    {
      derive_pass (&d, TRUE);
      derive_pass (&d, FALSE);
    }

  /* What is still open when the trace ends (open syscall spans already are, with no exit). */
  for (guint c = 0; c < n_cpus; c++)
    if (d.cpu_run_task[c] != SEISMO_NO_TASK)
      add_interval (&d.runs, d.cpu_run_start[c], SEISMO_NO_EVENT,
                    d.cpu_run_task[c], c);

  g_free (self->spans);
  self->n_spans = d.n_spans;
  self->spans = g_renew (SeismoSyscallSpan, d.spans, MAX (d.n_spans, 1));

  /* Runs grouped by CPU, each CPU's in time order: a stable counting sort on the key. */
  g_free (self->cpu_run_off);
  self->cpu_run_off = g_new0 (gsize, n_cpus + 1);
  for (gsize r = 0; r < d.runs.len; r++)
    self->cpu_run_off[d.runs.v[r].key + 1]++;
  for (guint c = 0; c < n_cpus; c++)
    self->cpu_run_off[c + 1] += self->cpu_run_off[c];
  all_runs = g_new (SeismoInterval, MAX (d.runs.len, 1));
  {
    g_autofree gsize *fill = g_memdup2 (self->cpu_run_off, n_cpus * sizeof (gsize));

    for (gsize r = 0; r < d.runs.len; r++)
      all_runs[fill[d.runs.v[r].key]++] = d.runs.v[r];
  }
  g_free (d.runs.v);

  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    g_clear_pointer (&self->intervals[k], g_free);
  self->n_intervals[SEISMO_INTERVAL_RUN] = self->cpu_run_off[n_cpus];
  self->intervals[SEISMO_INTERVAL_RUN] = all_runs;
  self->intervals[SEISMO_INTERVAL_WAKEUP] = steal_sorted (&d.wakeups,
                                                          &self->n_intervals[SEISMO_INTERVAL_WAKEUP]);
  self->intervals[SEISMO_INTERVAL_IRQ] = steal_sorted (&d.irqs, &self->n_intervals[SEISMO_INTERVAL_IRQ]);
  self->intervals[SEISMO_INTERVAL_SOFTIRQ] = steal_sorted (&d.softirqs,
                                                           &self->n_intervals[SEISMO_INTERVAL_SOFTIRQ]);

  g_hash_table_unref (d.syscall_ids);
  g_free (d.pending_span);
  g_free (d.type_syscall);
  g_free (d.pending_wakeup);
  g_free (d.cpu_run_start);
  g_free (d.cpu_run_task);
  g_free (d.cpu_irq);
  g_free (d.cpu_softirq);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-big-array.h"
#include "seismo-file-private.h"
#include "seismo-thread-states-private.h"
#include "seismo-trace-derive-private.h"
#include "seismo-work-priority.h"

gboolean _seismo_derive_thread_states = TRUE;
guint    _seismo_derive_syscall_ranges = 0;

/*
 * Derived intervals, computed once after load: syscall spans (enter paired with exit per task),
 * task runs per CPU from sched_switch, wakeup-to-run latency, IRQ and softirq spans. Everything
 * refers back to event ids, so an interval costs 16 bytes and a span 12.
 *
 * This runs on every load, over every event, so it is written for speed: a pass for the scheduler
 * and IRQs beside the syscall pass (seismo-trace-derive-syscalls.c), itself in ranges of events
 * on every worker, so that a big trace's fresh memory is faulted in by all of them; payload fields
 * read in one walk without building
 * values; and every result written once, in its final order, into an array sized from the event
 * counts. An interval gets its slot when it starts (a span at its enter, a wakeup at the wakeup),
 * so the output is in start order without a sort; slots whose end never came are squeezed out at
 * the end. Fresh memory is what costs most here, so there are no temporary copies.
 */

typedef struct {
  SeismoInterval *v;
  gsize           len;
} Intervals;

/* tid → tasks, newest first, like seismo_trace_find_task() but without its hash table and checks:
 * it is asked once per scheduler event. */
typedef struct {
  gint32       *tid;      /* per slot */
  SeismoTaskId *head;     /* per slot: newest task with that tid, SEISMO_NO_TASK when free */
  guint         mask;
  SeismoTaskId *older;    /* per task: the next older task with the same tid */
} TidMap;

typedef struct {
  SeismoTrace   *trace;
  const guint8  *kinds;            /* per event type: its SeismoEventKind */
  guint          n_cpus;

  SeismoSyscallPass *syscalls;

  /* Scheduler and IRQ pass. */
  TidMap         tids;
  SeismoInterval *runs;            /* CPU c's runs are written from runs + run_base[c] */
  gsize         *run_base;         /* n_cpus + 1 */
  gsize         *run_fill;         /* per cpu */
  Intervals      wakeups;
  Intervals      irqs;
  Intervals      softirqs;
  guint32       *pending_wakeup;   /* per task: slot in wakeups */
  SeismoEventId *cpu_run_start;    /* per cpu */
  SeismoTaskId  *cpu_run_task;     /* per cpu */
  guint32       *cpu_irq;          /* per cpu: slot in irqs */
  guint32       *cpu_softirq;      /* per cpu: slot in softirqs */
  SeismoStatesBuilder *states;     /* NULL: no sched_switch, no states */
  guint8        *wakeup_new;       /* per event type: it is sched_wakeup_new */
  guint32       *cpu_ctx;          /* per cpu: interrupt contexts open, a bit each (1: hard) */
  guint8        *cpu_ctx_depth;    /* per cpu: how many are open */
} Derive;

/* Event kinds of the derive alone: what opens and closes an interrupt context on a CPU, for
 * charging a wakeup to the interrupt or softirq it ran in rather than to the task it interrupted.
 * The local APIC timer (irq_vectors:local_timer_*) has no irq_handler_* events, and hrtimer
 * callbacks (nanosleep, futex timeouts) run in it; timer-wheel callbacks run in the timer softirq. */
enum {
  DERIVE_KIND_HARDIRQ_ENTRY = SEISMO_KIND_N + 1,  /* irq_vectors:*_entry */
  DERIVE_KIND_HARDIRQ_EXIT,
  DERIVE_KIND_HRTIMER_ENTRY,                  /* timer:hrtimer_expire_entry: hard, or soft in HRTIMER_SOFTIRQ */
  DERIVE_KIND_TIMER_ENTRY,                    /* timer:timer_expire_entry: the timer softirq */
  DERIVE_KIND_TIMER_EXIT,                     /* timer:hrtimer_expire_exit, timer:timer_expire_exit */
};

#define CTX_MAX_DEPTH 32
#define HRTIMER_SOFTIRQ_VEC 8

static const struct {
  const char *full_name;
  guint8      kind;
} context_kinds[] = {
  { "timer:hrtimer_expire_entry", DERIVE_KIND_HRTIMER_ENTRY },
  { "timer:hrtimer_expire_exit",  DERIVE_KIND_TIMER_EXIT },
  { "timer:timer_expire_entry",   DERIVE_KIND_TIMER_ENTRY },
  { "timer:timer_expire_exit",    DERIVE_KIND_TIMER_EXIT },
};

static inline guint
tid_slot (const TidMap *map,
          gint32        tid)
{
  return ((guint32) tid * 2654435761u) & map->mask;
}

static void
tid_map_init (TidMap      *map,
              SeismoTrace *trace)
{
  guint size = 16;

  while (size < 2 * trace->n_tasks)
    size *= 2;
  map->mask = size - 1;
  map->tid = g_new (gint32, size);
  map->head = g_new (SeismoTaskId, size);
  map->older = g_new (SeismoTaskId, MAX (trace->n_tasks, 1));
  for (guint s = 0; s < size; s++)
    map->head[s] = SEISMO_NO_TASK;
  for (guint t = 0; t < trace->n_tasks; t++)
    {
      gint32 tid = trace->tasks[t].tid;
      guint s = tid_slot (map, tid);

      while (map->head[s] != SEISMO_NO_TASK && map->tid[s] != tid)
        s = (s + 1) & map->mask;
      map->older[t] = map->head[s];
      map->tid[s] = tid;
      map->head[s] = t;
    }
}

static void
tid_map_clear (TidMap *map)
{
  g_free (map->tid);
  g_free (map->head);
  g_free (map->older);
}

/* The task with that tid alive at event ev, as seismo_trace_find_task() answers. */
static SeismoTaskId
task_of_tid (const Derive  *d,
             SeismoEventId  ev,
             gint64         tid)
{
  const TidMap *map = &d->tids;
  const SeismoTask *tasks = d->trace->tasks;
  guint64 time_ns = d->trace->ts[ev];
  SeismoTaskId best = SEISMO_NO_TASK;
  guint s;

  if (tid < G_MININT32 || tid > G_MAXINT32)
    return SEISMO_NO_TASK;
  s = tid_slot (map, (gint32) tid);
  while (map->head[s] != SEISMO_NO_TASK && map->tid[s] != (gint32) tid)
    s = (s + 1) & map->mask;
  /* Newest first: the first task that began at or before time_ns is the one alive then. */
  for (SeismoTaskId t = map->head[s]; t != SEISMO_NO_TASK; t = map->older[t])
    {
      best = t;
      if (tasks[t].first_ns <= time_ns)
        break;
    }
  return best;
}

/* Takes the next slot of an interval that starts now; its end is filled in when it comes. */
static inline guint32
open_interval (Intervals     *array,
               SeismoEventId  start,
               SeismoTaskId   task,
               guint32        key)
{
  array->v[array->len] = (SeismoInterval) { start, SEISMO_NO_EVENT, task, key };
  return (guint32) array->len++;
}

static inline void
add_run (Derive        *d,
         guint          cpu,
         SeismoEventId  start,
         SeismoEventId  end,
         SeismoTaskId   task)
{
  d->runs[d->run_fill[cpu]++] = (SeismoInterval) { start, end, task, cpu };
}

static void
on_switch (Derive                *d,
           SeismoEventId          ev,
           const SeismoEventType *type,
           guint                  cpu)
{
  gint64 prev_pid, next_pid, prev_state;
  SeismoTaskId next;

  role_ints3 (d->trace, ev, type, SEISMO_ROLE_PREV_PID, &prev_pid, SEISMO_ROLE_NEXT_PID, &next_pid,
              SEISMO_ROLE_PREV_STATE, &prev_state, -1);
  if (d->cpu_run_start[cpu] != SEISMO_NO_EVENT || d->cpu_run_task[cpu] != SEISMO_NO_TASK)
    {
      if (d->cpu_run_task[cpu] != SEISMO_NO_TASK)
        add_run (d, cpu, d->cpu_run_start[cpu], ev, d->cpu_run_task[cpu]);
    }
  else if (prev_pid > 0)
    {
      /* The first switch on a CPU: prev ran since before the trace began. */
      SeismoTaskId prev = task_of_tid (d, ev, prev_pid);

      if (prev != SEISMO_NO_TASK)
        add_run (d, cpu, SEISMO_NO_EVENT, ev, prev);
    }

  next = next_pid > 0 ? task_of_tid (d, ev, next_pid) : SEISMO_NO_TASK;
  if (d->states != NULL)
    {
      /* prev is nearly always the task the last switch on this CPU brought in. */
      SeismoTaskId prev = d->cpu_run_task[cpu];

      if (prev == SEISMO_NO_TASK || d->trace->tasks[prev].tid != prev_pid)
        prev = prev_pid > 0 ? task_of_tid (d, ev, prev_pid) : SEISMO_NO_TASK;
      _seismo_states_switch (d->states, ev, cpu, prev, prev_state, next);
    }
  d->cpu_run_start[cpu] = ev;
  d->cpu_run_task[cpu] = next;

  if (next != SEISMO_NO_TASK && d->pending_wakeup[next] != NO_SLOT)
    {
      SeismoInterval *wakeup = &d->wakeups.v[d->pending_wakeup[next]];

      wakeup->end = ev;
      wakeup->key = cpu;
      d->pending_wakeup[next] = NO_SLOT;
    }
}

static inline gboolean
ctx_top_is_hard (Derive *d,
                 guint   cpu)
{
  guint depth = d->cpu_ctx_depth[cpu];

  /* Deeper than the bits go (lost exits): count it as a hard interrupt. */
  return depth > CTX_MAX_DEPTH || (d->cpu_ctx[cpu] >> (depth - 1)) & 1;
}

static inline void
ctx_push (Derive   *d,
          guint     cpu,
          gboolean  hard)
{
  guint depth = d->cpu_ctx_depth[cpu];

  if (depth >= 255)
    return;
  if (depth < CTX_MAX_DEPTH)
    d->cpu_ctx[cpu] = (d->cpu_ctx[cpu] & ((1u << depth) - 1)) | ((guint32) hard << depth);
  d->cpu_ctx_depth[cpu] = depth + 1;
}

static inline void
ctx_pop (Derive *d,
         guint   cpu)
{
  if (d->cpu_ctx_depth[cpu] > 0)
    d->cpu_ctx_depth[cpu]--;
}

/* An hrtimer expires in the timer interrupt, unless it is a soft one, run by HRTIMER_SOFTIRQ. */
static void
on_hrtimer_entry (Derive *d,
                  guint   cpu)
{
  gboolean soft = d->cpu_ctx_depth[cpu] > 0 && !ctx_top_is_hard (d, cpu) &&
                  d->cpu_softirq[cpu] != NO_SLOT &&
                  d->softirqs.v[d->cpu_softirq[cpu]].key == HRTIMER_SOFTIRQ_VEC;

  ctx_push (d, cpu, !soft);
}

static void
on_wakeup (Derive                *d,
           SeismoEventId          ev,
           const SeismoEventType *type,
           guint                  cpu)
{
  gint64 pid, target_cpu;
  SeismoTaskId task;

  role_ints (d->trace, ev, type, SEISMO_ROLE_PID, &pid, SEISMO_ROLE_TARGET_CPU, &target_cpu, -1);
  task = pid > 0 ? task_of_tid (d, ev, pid) : SEISMO_NO_TASK;
  if (d->states != NULL && task != SEISMO_NO_TASK)
    {
      guint8 flags = 0;

      /* The innermost context open on the CPU: a timer interrupt during a softirq is the irq. */
      if (cpu < d->n_cpus && d->cpu_ctx_depth[cpu] > 0)
        flags |= ctx_top_is_hard (d, cpu) ? SEISMO_STATE_FLAG_IN_IRQ : SEISMO_STATE_FLAG_IN_SOFTIRQ;
      if (d->wakeup_new[type->id])
        flags |= SEISMO_STATE_FLAG_NEW;
      _seismo_states_wakeup (d->states, ev, task, target_cpu, flags);
    }

  /* sched_waking comes before sched_wakeup for the same wakeup: keep the earliest. */
  if (task != SEISMO_NO_TASK && d->pending_wakeup[task] == NO_SLOT)
    d->pending_wakeup[task] = open_interval (&d->wakeups, ev, task, 0);
}

/* An entry while another is open on the CPU leaves the older one without an end (dropped later). */
static inline void
on_irq_entry (Intervals             *array,
              guint32               *pending,
              SeismoTrace           *self,
              SeismoEventId          ev,
              const SeismoEventType *type,
              SeismoFieldRole        role)
{
  *pending = open_interval (array, ev, self->task[ev], (guint32) role_int (self, ev, type, role, 0));
}

static inline void
on_irq_exit (Intervals     *array,
             guint32       *pending,
             SeismoEventId  ev)
{
  if (*pending == NO_SLOT)
    return;
  array->v[*pending].end = ev;
  *pending = NO_SLOT;
}

static void
derive_sched (Derive *d)
{
  SeismoTrace *self = d->trace;
  const guint16 *types = self->type;
  const guint8 *kinds = d->kinds;
  guint n_cpus = d->n_cpus;
  SeismoStatesBuilder *states = d->states;

  for (gsize i = 0; i < self->n_events; i++)
    {
      guint kind = kinds[types[i]];  /* a SeismoEventKind or a DERIVE_KIND_ */
      const SeismoEventType *type;
      SeismoEventId ev = (SeismoEventId) i;
      guint cpu;

      if (G_UNLIKELY ((i & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      if (states != NULL)
        _seismo_states_event (states, ev, self->task[i], self->cpu[i]);

      /* Syscalls, the bulk of a big trace, are the other pass's: skip them before anything else. */
      if (kind == SEISMO_KIND_GENERIC || kind == SEISMO_KIND_SYSCALL_ENTER ||
          kind == SEISMO_KIND_SYSCALL_EXIT)
        continue;
      type = g_ptr_array_index (self->event_types, types[i]);
      cpu = self->cpu[i];
      switch (kind)
        {
        case SEISMO_KIND_SCHED_SWITCH:
          if (cpu < n_cpus)
            {
              /* No interrupt context spans a switch: what is still open lost its exit. */
              d->cpu_ctx_depth[cpu] = 0;
              on_switch (d, ev, type, cpu);
            }
          break;
        case SEISMO_KIND_SCHED_WAKEUP:
        case SEISMO_KIND_SCHED_WAKING:
          on_wakeup (d, ev, type, cpu);
          break;
        case SEISMO_KIND_IRQ_ENTRY:
          if (cpu < n_cpus)
            {
              on_irq_entry (&d->irqs, &d->cpu_irq[cpu], self, ev, type, SEISMO_ROLE_IRQ);
              ctx_push (d, cpu, TRUE);
            }
          break;
        case SEISMO_KIND_IRQ_EXIT:
          if (cpu < n_cpus)
            {
              on_irq_exit (&d->irqs, &d->cpu_irq[cpu], ev);
              ctx_pop (d, cpu);
            }
          break;
        case SEISMO_KIND_SOFTIRQ_ENTRY:
          if (cpu < n_cpus)
            {
              on_irq_entry (&d->softirqs, &d->cpu_softirq[cpu], self, ev, type, SEISMO_ROLE_VEC);
              ctx_push (d, cpu, FALSE);
            }
          break;
        case SEISMO_KIND_SOFTIRQ_EXIT:
          if (cpu < n_cpus)
            {
              on_irq_exit (&d->softirqs, &d->cpu_softirq[cpu], ev);
              ctx_pop (d, cpu);
            }
          break;
        case DERIVE_KIND_HARDIRQ_ENTRY:
          if (cpu < n_cpus)
            ctx_push (d, cpu, TRUE);
          break;
        case DERIVE_KIND_HRTIMER_ENTRY:
          if (cpu < n_cpus)
            on_hrtimer_entry (d, cpu);
          break;
        case DERIVE_KIND_TIMER_ENTRY:
          if (cpu < n_cpus)
            ctx_push (d, cpu, FALSE);
          break;
        case DERIVE_KIND_HARDIRQ_EXIT:
        case DERIVE_KIND_TIMER_EXIT:
          if (cpu < n_cpus)
            ctx_pop (d, cpu);
          break;
        case SEISMO_KIND_SYSCALL_ENTER:
        case SEISMO_KIND_SYSCALL_EXIT:
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

  /* What is still open when the trace ends (open syscall spans already are, with no exit). */
  for (guint c = 0; c < n_cpus; c++)
    if (d->cpu_run_task[c] != SEISMO_NO_TASK)
      add_run (d, c, d->cpu_run_start[c], SEISMO_NO_EVENT, d->cpu_run_task[c]);
}

/* Pass 0 is the scheduler's, the rest the syscall pass's ranges: they touch disjoint parts. */
static void
derive_pass (guint    pass,
             guint    worker,
             gpointer data)
{
  Derive *d = data;

  if (pass == 0)
    derive_sched (d);
  else
    _seismo_syscall_pass_run_range (d->syscalls, pass - 1);
}

static void
count_syscalls (guint    range,
                guint    worker,
                gpointer data)
{
  _seismo_syscall_pass_count_range (data, range);
}

/* Drops the slots whose interval never ended, keeping the start order. */
static SeismoInterval *
steal_ended (Intervals *array,
             gsize     *n)
{
  gsize kept = 0;

  for (gsize i = 0; i < array->len; i++)
    if (array->v[i].end != SEISMO_NO_EVENT)
      array->v[kept++] = array->v[i];
  *n = kept;
  return g_renew (SeismoInterval, array->v, MAX (kept, 1));
}

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

/* Event counts per type and sched_switch counts per CPU (the bound of each CPU's runs), in one pass.
 * switches has n_cpus + 1 entries: the last counts what is not a switch. */
static void
count_events (SeismoTrace  *self,
              const guint8 *kinds,
              guint         n_cpus,
              gsize        *switches)
{
  const guint16 *types = self->type;
  const guint16 *cpus = self->cpu;
  guint64 *counts = self->type_counts;

  for (gsize i = 0; i < self->n_events; i++)
    {
      guint t = types[i];
      guint c = MIN (cpus[i], n_cpus);

      counts[t]++;
      switches[kinds[t] == SEISMO_KIND_SCHED_SWITCH ? c : n_cpus]++;
    }
}

void
_seismo_trace_derive (SeismoTrace *self)
{
  Derive d = { .trace = self };
  guint n_types = self->event_types->len;
  guint n_cpus = MAX (self->n_cpus, 1);
  g_autofree guint8 *kinds = NULL;
  g_autofree guint8 *wakeup_new = NULL;
  g_autofree gsize *switches = NULL;
  SeismoInterval *runs;
  gsize n_runs = 0;
  guint n_workers, n_ranges;

  d.n_cpus = n_cpus;
  d.kinds = kinds = g_new (guint8, MAX (n_types, 1));
  d.wakeup_new = wakeup_new = g_new0 (guint8, MAX (n_types, 1));
  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = g_ptr_array_index (self->event_types, t);

      kinds[t] = type->kind;
      wakeup_new[t] = strcmp (type->full_name, "sched:sched_wakeup_new") == 0;
      if (type->kind == SEISMO_KIND_GENERIC && g_str_has_prefix (type->full_name, "irq_vectors:"))
        {
          if (g_str_has_suffix (type->full_name, "_entry"))
            kinds[t] = DERIVE_KIND_HARDIRQ_ENTRY;
          else if (g_str_has_suffix (type->full_name, "_exit"))
            kinds[t] = DERIVE_KIND_HARDIRQ_EXIT;
        }
      for (guint k = 0; k < G_N_ELEMENTS (context_kinds); k++)
        if (type->kind == SEISMO_KIND_GENERIC && strcmp (type->full_name, context_kinds[k].full_name) == 0)
          kinds[t] = context_kinds[k].kind;
    }

  /* A reader counted while decoding, in parallel; a builder's trace is counted here. */
  switches = g_new0 (gsize, n_cpus + 1);
  if (self->cpu_switches != NULL && self->type_counts != NULL)
    memcpy (switches, self->cpu_switches, MAX (self->n_cpus, 1) * sizeof (gsize));
  else
    {
      g_free (self->type_counts);
      self->type_counts = g_new0 (guint64, MAX (n_types, 1));
      count_events (self, kinds, n_cpus, switches);
    }
  g_clear_pointer (&self->cpu_switches, g_free);

  self->n_lost_events = 0;
  for (guint l = 0; l < self->n_lost; l++)
    self->n_lost_events += self->lost[l].count;

  /* The syscall pass is most of the work: on a big trace it runs in ranges, two per worker, so
   * that the worker that takes the scheduler pass takes fewer of them. */
  n_workers = self->n_events >= 100000 ? _seismo_file_n_workers () : 1;
  n_ranges = _seismo_derive_syscall_ranges != 0 ? _seismo_derive_syscall_ranges
             : n_workers > 1 && self->n_events >= 1000000 ? 2 * n_workers : 1;
  d.syscalls = _seismo_syscall_pass_new (self, kinds, count_kind (self, SEISMO_KIND_SYSCALL_ENTER), n_ranges);
  n_ranges = _seismo_syscall_pass_n_ranges (d.syscalls);

  /* A CPU has at most one run per switch, plus the one still open at the end. */
  d.run_base = g_new (gsize, n_cpus + 1);
  d.run_fill = g_new (gsize, n_cpus);
  d.run_base[0] = 0;
  for (guint c = 0; c < n_cpus; c++)
    {
      d.run_fill[c] = d.run_base[c];
      d.run_base[c + 1] = d.run_base[c] + switches[c] + 1;
    }
  d.runs = _seismo_big_array_new (SeismoInterval, d.run_base[n_cpus]);
  d.wakeups.v = _seismo_big_array_new (SeismoInterval,
                                       count_kind (self, SEISMO_KIND_SCHED_WAKEUP) +
                                       count_kind (self, SEISMO_KIND_SCHED_WAKING));
  d.irqs.v = _seismo_big_array_new (SeismoInterval, count_kind (self, SEISMO_KIND_IRQ_ENTRY));
  d.softirqs.v = _seismo_big_array_new (SeismoInterval,
                                        count_kind (self, SEISMO_KIND_SOFTIRQ_ENTRY));
  d.pending_wakeup = g_new (guint32, MAX (self->n_tasks, 1));
  for (guint t = 0; t < self->n_tasks; t++)
    d.pending_wakeup[t] = NO_SLOT;
  d.cpu_run_start = g_new (SeismoEventId, n_cpus);
  d.cpu_run_task = g_new (SeismoTaskId, n_cpus);
  d.cpu_irq = g_new (guint32, n_cpus);
  d.cpu_softirq = g_new (guint32, n_cpus);
  d.cpu_ctx = g_new0 (guint32, n_cpus);
  d.cpu_ctx_depth = g_new0 (guint8, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    {
      d.cpu_run_start[c] = SEISMO_NO_EVENT;
      d.cpu_irq[c] = d.cpu_softirq[c] = NO_SLOT;
      d.cpu_run_task[c] = SEISMO_NO_TASK;
    }
  tid_map_init (&d.tids, self);
  g_clear_pointer (&self->state_spans, g_free);
  g_clear_pointer (&self->state_off, g_free);
  self->n_state_spans = 0;
  d.states = !_seismo_derive_thread_states ? NULL :
             _seismo_states_builder_new (self, n_cpus, count_kind (self, SEISMO_KIND_SCHED_SWITCH),
                                         count_kind (self, SEISMO_KIND_SCHED_WAKEUP) +
                                         count_kind (self, SEISMO_KIND_SCHED_WAKING));

  /* Each range's spans go where they belong: the ranges before it count their enters first. */
  if (n_ranges > 1)
    _seismo_file_parallel_for (n_ranges, n_workers, count_syscalls, d.syscalls);
  _seismo_file_parallel_for (1 + n_ranges, n_workers, derive_pass, &d);

  g_free (self->spans);
  g_free (self->span_failed);
  self->spans = _seismo_syscall_pass_finish (g_steal_pointer (&d.syscalls), &self->n_spans,
                                             &self->span_failed);

  /* Each CPU's runs move down to close the gaps its bound left. */
  g_free (self->cpu_run_off);
  self->cpu_run_off = g_new0 (gsize, n_cpus + 1);
  runs = d.runs;
  for (guint c = 0; c < n_cpus; c++)
    {
      gsize n = d.run_fill[c] - d.run_base[c];

      memmove (runs + n_runs, runs + d.run_base[c], n * sizeof *runs);
      n_runs += n;
      self->cpu_run_off[c + 1] = n_runs;
    }

  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    g_clear_pointer (&self->intervals[k], g_free);
  self->n_intervals[SEISMO_INTERVAL_RUN] = n_runs;
  self->intervals[SEISMO_INTERVAL_RUN] = g_renew (SeismoInterval, runs, MAX (n_runs, 1));
  self->intervals[SEISMO_INTERVAL_WAKEUP] = steal_ended (&d.wakeups,
                                                         &self->n_intervals[SEISMO_INTERVAL_WAKEUP]);
  self->intervals[SEISMO_INTERVAL_IRQ] = steal_ended (&d.irqs, &self->n_intervals[SEISMO_INTERVAL_IRQ]);
  self->intervals[SEISMO_INTERVAL_SOFTIRQ] = steal_ended (&d.softirqs,
                                                          &self->n_intervals[SEISMO_INTERVAL_SOFTIRQ]);

  if (d.states != NULL)
    _seismo_states_builder_finish (d.states);
  tid_map_clear (&d.tids);
  g_free (d.run_base);
  g_free (d.run_fill);
  g_free (d.pending_wakeup);
  g_free (d.cpu_run_start);
  g_free (d.cpu_run_task);
  g_free (d.cpu_irq);
  g_free (d.cpu_softirq);
  g_free (d.cpu_ctx);
  g_free (d.cpu_ctx_depth);
}

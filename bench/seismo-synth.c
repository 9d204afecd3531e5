/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

#include "seismo-tracepoints.h"
#include "seismo-synth.h"

/* Syscalls a desktop makes most, with how often (weights) and whether they tend to block. */
static const struct {
  guint    nr;
  guint    weight;
  gboolean blocks;
} syscalls[] = {
  { 0, 14, TRUE },     /* read */
  { 1, 10, FALSE },    /* write */
  { 202, 16, TRUE },   /* futex */
  { 232, 8, TRUE },    /* epoll_wait */
  { 7, 8, TRUE },      /* poll */
  { 45, 5, TRUE },     /* recvfrom */
  { 44, 4, FALSE },    /* sendto */
  { 257, 4, FALSE },   /* openat */
  { 3, 4, FALSE },     /* close */
  { 9, 3, FALSE },     /* mmap */
  { 228, 12, FALSE },  /* clock_gettime */
  { 16, 4, FALSE },    /* ioctl */
  { 5, 3, FALSE },     /* fstat */
  { 8, 2, FALSE },     /* lseek */
};

static const char *const process_names[] = {
  "gnome-shell", "Xwayland", "firefox", "Web Content", "pipewire", "systemd", "dbus-daemon",
  "bash", "make", "cc1", "ld", "python3", "postgres", "nginx", "kworker/u16:2", "rcu_sched",
  "ksoftirqd/0", "tracker-miner-f", "evolution", "gjs",
};

typedef struct {
  gint32          tid;
  gint32          pid;
  char            name[16];
  SeismoStringId  comm;
  guint           prio;
  gint            cpu;          /* running on, or -1 */
  gboolean        runnable;
  gint            syscall;      /* index into syscalls while inside one, else -1 */
  gboolean        announced;    /* pid/comm given to the builder */
} Task;

typedef struct {
  guint64  now;                 /* time of the CPU's next event */
  gint     current;             /* task index, -1 for idle */
  gboolean has_pending;         /* a deferred second event (see defer()) */
  guint    pending_type;
  gint     pending_a, pending_b, pending_arg;
} Cpu;

typedef struct {
  SeismoTraceBuilder *b;
  guint64             rng;
  Task               *tasks;
  guint               n_tasks;
  Cpu                *cpus;
  guint               n_cpus;
  guint               t_switch, t_waking, t_wakeup, t_enter, t_exit;
  SeismoStringId      idle_comm;
  guint               total_weight;
} Sim;

/* xorshift64*: fast, and the same sequence on every machine. */
static inline guint64
next_random (Sim *s)
{
  s->rng ^= s->rng >> 12;
  s->rng ^= s->rng << 25;
  s->rng ^= s->rng >> 27;
  return s->rng * 0x2545f4914f6cdd1dull;
}

static inline guint
uniform (Sim   *s,
         guint  n)
{
  return (guint) ((next_random (s) >> 32) * n >> 32);
}

static void
add_types (Sim *s)
{
  if (s->b == NULL)
    return;
  s->t_switch = seismo_tracepoint_add (s->b, "sched", "sched_switch");
  s->t_waking = seismo_tracepoint_add (s->b, "sched", "sched_waking");
  s->t_wakeup = seismo_tracepoint_add (s->b, "sched", "sched_wakeup");
  s->t_enter = seismo_tracepoint_add (s->b, "raw_syscalls", "sys_enter");
  s->t_exit = seismo_tracepoint_add (s->b, "raw_syscalls", "sys_exit");
  s->idle_comm = seismo_trace_builder_intern (s->b, "swapper");
}

static void
announce (Sim  *s,
          Task *t)
{
  if (t->announced || s->b == NULL)
    return;
  seismo_trace_builder_set_task_pid (s->b, t->tid, t->pid);
  seismo_trace_builder_set_task_ppid (s->b, t->tid, 1);
  seismo_trace_builder_set_task_comm (s->b, t->tid, t->name, 0);
  t->announced = TRUE;
}

static inline void
begin (Sim   *s,
       guint  cpu,
       gint   task,
       guint  type)
{
  Task *t = task >= 0 ? &s->tasks[task] : NULL;

  if (t != NULL)
    announce (s, t);
  seismo_trace_builder_begin_event (s->b, s->cpus[cpu].now, cpu, t != NULL ? t->tid : 0, type);
}

static void
emit_switch (Sim  *s,
             guint cpu,
             gint  prev,
             gint  next,
             gint  state)
{
  Task *p = prev >= 0 ? &s->tasks[prev] : NULL;
  Task *n = next >= 0 ? &s->tasks[next] : NULL;

  if (s->b == NULL)
    return;
  if (n != NULL)
    announce (s, n);
  begin (s, cpu, prev, s->t_switch);
  seismo_trace_builder_push_string_id (s->b, p != NULL ? p->comm : s->idle_comm);
  seismo_trace_builder_push_int (s->b, p != NULL ? p->tid : 0);
  seismo_trace_builder_push_int (s->b, p != NULL ? p->prio : 120);
  seismo_trace_builder_push_int (s->b, state);
  seismo_trace_builder_push_string_id (s->b, n != NULL ? n->comm : s->idle_comm);
  seismo_trace_builder_push_int (s->b, n != NULL ? n->tid : 0);
  seismo_trace_builder_push_int (s->b, n != NULL ? n->prio : 120);
  seismo_trace_builder_end_event (s->b);
}

static void
emit_wake (Sim  *s,
           guint cpu,
           gint  waker,
           gint  wakee,
           guint target,
           guint type)
{
  Task *w = &s->tasks[wakee];

  if (s->b == NULL)
    return;
  announce (s, w);
  begin (s, cpu, waker, type);
  seismo_trace_builder_push_string_id (s->b, w->comm);
  seismo_trace_builder_push_int (s->b, w->tid);
  seismo_trace_builder_push_int (s->b, w->prio);
  seismo_trace_builder_push_int (s->b, target);
  seismo_trace_builder_end_event (s->b);
}

static void
emit_enter (Sim  *s,
            guint cpu,
            gint  task,
            guint sc)
{
  guint64 args[6];

  /* An fd, a user pointer, a size and zeros: what most calls pass. */
  args[0] = 3 + uniform (s, 40);
  args[1] = 0x7ffc00000000ull + (next_random (s) & 0xffffff0ull);
  args[2] = 1u << uniform (s, 16);
  args[3] = 0;
  args[4] = 0;
  args[5] = 0;
  if (s->b == NULL)
    return;
  begin (s, cpu, task, s->t_enter);
  seismo_trace_builder_push_int (s->b, syscalls[sc].nr);
  seismo_trace_builder_push_uint_array (s->b, args, 6);
  seismo_trace_builder_end_event (s->b);
}

static void
emit_exit (Sim  *s,
           guint cpu,
           gint  task,
           guint sc)
{
  guint r = uniform (s, 16);
  gint64 ret = r == 0 ? -11 : r == 1 ? -4 : (gint64) uniform (s, 4097);

  if (s->b == NULL)
    return;
  begin (s, cpu, task, s->t_exit);
  seismo_trace_builder_push_int (s->b, syscalls[sc].nr);
  seismo_trace_builder_push_int (s->b, ret);
  seismo_trace_builder_end_event (s->b);
}

static guint
pick_syscall (Sim *s)
{
  guint w = uniform (s, s->total_weight);

  for (guint i = 0; i < G_N_ELEMENTS (syscalls); i++)
    {
      if (w < syscalls[i].weight)
        return i;
      w -= syscalls[i].weight;
    }
  return 0;
}

/* A task that is neither running nor runnable, to wake; -1 when none was found quickly. */
static gint
pick_sleeper (Sim *s)
{
  for (guint tries = 0; tries < 8; tries++)
    {
      gint t = (gint) uniform (s, s->n_tasks);

      if (s->tasks[t].cpu < 0 && !s->tasks[t].runnable)
        return t;
    }
  return -1;
}

static gint
pick_runnable (Sim *s)
{
  for (guint tries = 0; tries < 16; tries++)
    {
      gint t = (gint) uniform (s, s->n_tasks);

      if (s->tasks[t].cpu < 0 && s->tasks[t].runnable)
        return t;
    }
  return -1;
}

/* The second event of a pair (a switch inside a blocking syscall, a wakeup after its waking) is
 * kept here and made by a later step, at its own time: each step makes at most one event, at the
 * CPU's time, and the CPU furthest behind always steps next, so events come out in time order. */
static void
defer (Sim     *s,
       Cpu     *c,
       guint    type,
       gint     a,
       gint     b,
       gint     arg,
       guint64  gap)
{
  c->pending_type = type;
  c->pending_a = a;
  c->pending_b = b;
  c->pending_arg = arg;
  c->has_pending = TRUE;
  c->now += gap;
}

/* One step of one CPU: makes at most one event, at the CPU's time, then moves its time on. */
static guint
step (Sim  *s,
      guint cpu)
{
  Cpu *c = &s->cpus[cpu];
  gint cur = c->current;
  Task *t = cur >= 0 ? &s->tasks[cur] : NULL;
  guint r;

  if (c->has_pending)
    {
      c->has_pending = FALSE;
      if (c->pending_type == s->t_switch)
        emit_switch (s, cpu, c->pending_a, c->pending_b, c->pending_arg);
      else
        emit_wake (s, cpu, c->pending_a, c->pending_b, (guint) c->pending_arg, c->pending_type);
      c->now += 200 + uniform (s, 3000);
      return 1;
    }

  r = uniform (s, 100);
  if (t == NULL)
    {
      gint next = pick_runnable (s);

      if (next < 0)
        next = pick_sleeper (s);
      if (next >= 0)
        {
          emit_switch (s, cpu, -1, next, 0);
          s->tasks[next].cpu = (gint) cpu;
          s->tasks[next].runnable = FALSE;
          c->current = next;
        }
      c->now += 200 + uniform (s, 3000);
      return next >= 0;
    }

  /* Back from a blocking call: it returns first. */
  if (t->syscall >= 0 && r < 85)
    {
      emit_exit (s, cpu, cur, (guint) t->syscall);
      t->syscall = -1;
      c->now += 200 + uniform (s, 3000);
      return 1;
    }

  if (r < 70)
    {
      guint sc = pick_syscall (s);

      emit_enter (s, cpu, cur, sc);
      t->syscall = (gint) sc;
      /* Blocking calls often sleep: the task switches out inside the call. */
      if (syscalls[sc].blocks && uniform (s, 3) == 0)
        {
          gint next = pick_runnable (s);

          defer (s, c, s->t_switch, cur, next, 1, 300 + uniform (s, 2000));
          t->cpu = -1;
          c->current = next;
          if (next >= 0)
            {
              s->tasks[next].cpu = (gint) cpu;
              s->tasks[next].runnable = FALSE;
            }
          return 1;
        }
      c->now += 200 + uniform (s, 3000);
      return 1;
    }
  if (r < 85)
    {
      gint wakee = pick_sleeper (s);
      guint target = uniform (s, s->n_cpus);

      if (wakee < 0)
        {
          c->now += 200 + uniform (s, 3000);
          return 0;
        }
      emit_wake (s, cpu, cur, wakee, target, s->t_waking);
      defer (s, c, s->t_wakeup, cur, wakee, (gint) target, 100 + uniform (s, 400));
      s->tasks[wakee].runnable = TRUE;
      return 1;
    }

  /* Preempted (or yields): another runnable task or idle takes the CPU. */
  {
    gint next = pick_runnable (s);

    if (t->syscall >= 0)
      {
        emit_exit (s, cpu, cur, (guint) t->syscall);
        t->syscall = -1;
        c->now += 200 + uniform (s, 3000);
        return 1;
      }
    emit_switch (s, cpu, cur, next, 0);
    t->cpu = -1;
    t->runnable = TRUE;
    c->current = next;
    if (next >= 0)
      {
        s->tasks[next].cpu = (gint) cpu;
        s->tasks[next].runnable = FALSE;
      }
    c->now += 200 + uniform (s, 3000);
    return 1;
  }
}

struct _SeismoSynth
{
  Sim s;
};

SeismoSynth *
seismo_synth_new (SeismoTraceBuilder       *builder,
                  const SeismoSynthOptions *options)
{
  SeismoSynthOptions opts = options != NULL ? *options : SEISMO_SYNTH_DEFAULTS;
  SeismoSynth *self = g_new0 (SeismoSynth, 1);
  Sim *s = &self->s;

  s->b = builder;
  s->rng = 0x9e3779b97f4a7c15ull ^ ((guint64) opts.seed << 17) ^ opts.seed;
  s->n_cpus = MAX (opts.n_cpus, 1);
  s->n_tasks = MAX (opts.n_tasks, 1);
  s->cpus = g_new0 (Cpu, s->n_cpus);
  s->tasks = g_new0 (Task, s->n_tasks);
  for (guint i = 0; i < G_N_ELEMENTS (syscalls); i++)
    s->total_weight += syscalls[i].weight;
  add_types (s);

  for (guint i = 0; i < s->n_tasks; i++)
    {
      Task *t = &s->tasks[i];
      guint proc = i / 8;
      const char *name = process_names[proc % G_N_ELEMENTS (process_names)];

      t->tid = 1000 + (gint32) i;
      t->pid = 1000 + (gint32) (proc * 8);
      t->prio = 100 + uniform (s, 40);
      t->cpu = -1;
      t->runnable = uniform (s, 4) == 0;
      t->syscall = -1;
      if ((i % 8) == 0)
        g_strlcpy (t->name, name, sizeof t->name);
      else
        g_snprintf (t->name, sizeof t->name, "%.11s-%u", name, i % 8);
      if (builder != NULL)
        t->comm = seismo_trace_builder_intern (builder, t->name);
    }
  for (guint c = 0; c < s->n_cpus; c++)
    {
      s->cpus[c].now = 1000000000ull + c * 13;
      s->cpus[c].current = -1;
    }

  if (builder != NULL)
    {
      seismo_trace_builder_set_metadata (builder, SEISMO_META_SOURCE, "synthetic");
      seismo_trace_builder_set_metadata (builder, SEISMO_META_ARCH, "x86_64");
      seismo_trace_builder_set_metadata (builder, SEISMO_META_CLOCK, "mono");
      seismo_trace_builder_set_n_cpus (builder, s->n_cpus);
    }
  return self;
}

void
seismo_synth_run (SeismoSynth *self,
                  guint64      n_events)
{
  Sim *s = &self->s;
  guint64 made = 0;

  /* The CPU furthest behind moves next, so events come out in time order as a merged per-CPU
   * stream would. */
  while (made < n_events)
    {
      guint cpu = 0;

      for (guint c = 1; c < s->n_cpus; c++)
        if (s->cpus[c].now < s->cpus[cpu].now)
          cpu = c;
      made += step (s, cpu);
    }
}

guint64
seismo_synth_get_time (SeismoSynth *self)
{
  guint64 t = G_MAXUINT64;

  for (guint c = 0; c < self->s.n_cpus; c++)
    t = MIN (t, self->s.cpus[c].now);
  return t;
}

void
seismo_synth_free (SeismoSynth *self)
{
  if (self == NULL)
    return;
  g_free (self->s.cpus);
  g_free (self->s.tasks);
  g_free (self);
}

void
seismo_synth_generate (SeismoTraceBuilder       *builder,
                       guint64                   n_events,
                       const SeismoSynthOptions *options)
{
  SeismoSynth *synth = seismo_synth_new (builder, options);

  seismo_synth_run (synth, n_events);
  seismo_synth_free (synth);
}

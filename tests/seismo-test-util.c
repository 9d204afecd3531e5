/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <glib/gstdio.h>
#include <stdlib.h>

#include "seismo-file.h"
#include "seismo-stacks.h"
#include "seismo-test-util.h"
#include "seismo-timing.h"
#include "seismo-tracepoints.h"

#define N_CPUS  4
#define N_TASKS 24

static const SeismoSymbol flag_symbols[] = {
  { 0x1, "READ" }, { 0x2, "WRITE" }, { 0x40, "CREAT" },
};
static const SeismoSymbol kind_symbols[] = {
  { 0, "NONE" }, { 1, "ONE" }, { 2, "TWO" },
};

typedef struct {
  guint sw, wake, enter, exit, irq_in, irq_out, blob;
} Types;

static void
add_types (SeismoTraceBuilder *b,
           Types              *t)
{
  const SeismoFieldInfo irq_in[] = {
    { "irq", SEISMO_FIELD_INT, 4, 0 },
    { "name", SEISMO_FIELD_STRING, 0, 0 },
  };
  const SeismoFieldInfo irq_out[] = {
    { "irq", SEISMO_FIELD_INT, 4, 0 },
    { "ret", SEISMO_FIELD_INT, 4, 0 },
  };
  const SeismoFieldInfo blob[] = {
    { "data", SEISMO_FIELD_BYTES, 0, 0 },
    { "where", SEISMO_FIELD_POINTER, 8, 0 },
    { "flags", SEISMO_FIELD_UINT, 4, SEISMO_DISPLAY_FLAGS, flag_symbols, G_N_ELEMENTS (flag_symbols) },
    { "kind", SEISMO_FIELD_UINT, 1, SEISMO_DISPLAY_SYMBOL, kind_symbols, G_N_ELEMENTS (kind_symbols) },
    { "delta", SEISMO_FIELD_INT, 8, 0 },
    { "label", SEISMO_FIELD_STRING, 0, 0 },
  };

  /* The well-known tracepoints' fields from the catalogue, with this test's print formats. */
  const SeismoTracepoint *sw = seismo_tracepoint_lookup ("sched", "sched_switch");
  const SeismoTracepoint *wake = seismo_tracepoint_lookup ("sched", "sched_wakeup");
  const SeismoTracepoint *enter = seismo_tracepoint_lookup ("raw_syscalls", "sys_enter");
  const SeismoTracepoint *exit_ = seismo_tracepoint_lookup ("raw_syscalls", "sys_exit");

  t->sw = seismo_trace_builder_add_event_type (b, "sched", "sched_switch", sw->fields, sw->n_fields,
                                               "{prev_comm}:{prev_pid} [{prev_prio}] {prev_state} ==> {next_comm}:{next_pid} [{next_prio}]");
  t->wake = seismo_trace_builder_add_event_type (b, "sched", "sched_wakeup", wake->fields,
                                                 wake->n_fields, NULL);
  t->enter = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", enter->fields,
                                                  enter->n_fields, "NR {id} {args}");
  t->exit = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_exit", exit_->fields,
                                                 exit_->n_fields, "NR {id} = {ret}");
  t->irq_in = seismo_trace_builder_add_event_type (b, "irq", "irq_handler_entry", irq_in,
                                                   G_N_ELEMENTS (irq_in), NULL);
  t->irq_out = seismo_trace_builder_add_event_type (b, "irq", "irq_handler_exit", irq_out,
                                                    G_N_ELEMENTS (irq_out), NULL);
  t->blob = seismo_trace_builder_add_event_type (b, "test", "blob", blob, G_N_ELEMENTS (blob), NULL);
}

typedef struct {
  gint32  tid;
  gboolean in_syscall;
  guint64 nr;
} SimTask;

/* Stacks for seismo_test_make_stack_builder(): a random path of a small call graph, from their
 * own random stream so the events are those of seismo_test_make_builder(). */
static GRand *stack_rand;

static const char test_kallsyms[] =
  "ffffffff81000000 T _stext\n"
  "ffffffff81100000 T __schedule\n"
  "ffffffff81100800 T schedule\n"
  "ffffffff81200000 t ksys_write\n"
  "ffffffff81200400 T __x64_sys_write\n"
  "ffffffff81300000 T do_syscall_64\n"
  "ffffffff81400000 T entry_SYSCALL_64_after_hwframe\n"
  "ffffffffc0100000 t ext4_file_write_iter\t[ext4]\n";

static void
add_test_stack (SeismoTraceBuilder *b,
                gint32              tid,
                gboolean            sched)
{
  static const guint64 kfn[] = { 0xffffffff81200010, 0xffffffff81200410, 0xffffffffc0100020 };
  guint64 k[4], u[5];
  guint nk = 0, nu = 0;
  gint32 pid = 1000 + ((tid - 1000) / 3) * 3;

  if (stack_rand == NULL || tid <= 0)
    return;
  if (sched)
    {
      k[nk++] = 0xffffffff81100010;
      k[nk++] = 0xffffffff81100810;
    }
  else
    k[nk++] = kfn[g_rand_int_range (stack_rand, 0, G_N_ELEMENTS (kfn))];
  k[nk++] = 0xffffffff81300020;
  k[nk++] = 0xffffffff81400008;
  u[nu++] = 0x7f0000001000ull + g_rand_int_range (stack_rand, 0, 4) * 0x40;
  for (guint d = g_rand_int_range (stack_rand, 0, 3); d > 0; d--)
    u[nu++] = 0x400100 + g_rand_int_range (stack_rand, 0, 6) * 0x20;
  u[nu++] = 0x400010;
  seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, pid, k, nk);
  seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, pid, u, nu);
}

SeismoTraceBuilder *
seismo_test_make_stack_builder (guint64 n_events,
                                guint32 seed)
{
  SeismoTraceBuilder *b;
  static const guint8 build_id[] = { 0xde, 0xad, 0xbe, 0xef, 0x01 };

  stack_rand = g_rand_new_with_seed (seed + 1);
  b = seismo_test_make_builder (n_events, seed);
  g_clear_pointer (&stack_rand, g_rand_free);
  seismo_trace_builder_set_kallsyms (b, test_kallsyms, sizeof test_kallsyms - 1);
  for (guint p = 0; p < 8; p++)
    {
      seismo_trace_builder_add_mapping (b, 1000 + p * 3, 0x400000, 0x401000, 0, "/usr/bin/worker",
                                        build_id, sizeof build_id, 1000000000ull);
      seismo_trace_builder_add_mapping (b, 1000 + p * 3, 0x7f0000000000ull, 0x7f0000200000ull, 0x1000,
                                        "/usr/lib/libc.so.6", NULL, 0, 1000000000ull);
    }
  return b;
}

SeismoTrace *
seismo_test_make_stack_trace (guint64 n_events,
                              guint32 seed)
{
  return seismo_trace_builder_finish (seismo_test_make_stack_builder (n_events, seed));
}

SeismoTraceBuilder *
seismo_test_make_builder (guint64 n_events,
                          guint32 seed)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  SimTask tasks[N_TASKS];
  gint running[N_CPUS];
  guint64 now[N_CPUS];
  Types t;
  guint64 made = 0;
  static const guint64 nrs[] = { 0, 1, 2, 3, 257, 39, 9, 232 };

  add_types (b, &t);
  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "synthetic");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_metadata (b, SEISMO_META_CLOCK, "mono");
  seismo_trace_builder_set_n_cpus (b, N_CPUS);

  for (guint i = 0; i < N_TASKS; i++)
    {
      char comm[16];

      tasks[i].tid = 1000 + i;
      tasks[i].in_syscall = FALSE;
      tasks[i].nr = 0;
      g_snprintf (comm, sizeof comm, "worker-%u", i / 3);
      seismo_trace_builder_set_task_comm (b, tasks[i].tid, comm, 0);
      seismo_trace_builder_set_task_pid (b, tasks[i].tid, 1000 + (i / 3) * 3);
      seismo_trace_builder_set_task_ppid (b, tasks[i].tid, 1);
    }
  for (guint c = 0; c < N_CPUS; c++)
    {
      running[c] = -1;
      now[c] = 1000000000ull + c * 7;
    }

  /* Per-CPU batches of up to 64 events, so the builder sees streams out of time order. */
  while (made < n_events)
    {
      guint c = g_rand_int_range (rand, 0, N_CPUS);
      guint batch = g_rand_int_range (rand, 1, 65);

      for (guint k = 0; k < batch && made < n_events; k++, made++)
        {
          guint r = g_rand_int_range (rand, 0, 100);
          SimTask *cur = running[c] >= 0 ? &tasks[running[c]] : NULL;
          gint32 cur_tid = cur ? cur->tid : 0;

          now[c] += g_rand_int_range (rand, 1, 5000);
          if (r < 20 || cur == NULL)
            {
              gint next = g_rand_int_range (rand, -1, N_TASKS);

              /* A task runs on one CPU at a time. */
              for (guint o = 0; o < N_CPUS && next >= 0; o++)
                if (o != c && running[o] == next)
                  next = -1;
              seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.sw);
              seismo_trace_builder_push_string (b, cur ? "worker" : "swapper/0");
              seismo_trace_builder_push_int (b, cur_tid);
              seismo_trace_builder_push_int (b, 120);
              seismo_trace_builder_push_int (b, g_rand_int_range (rand, 0, 3));
              seismo_trace_builder_push_string (b, next >= 0 ? "worker" : "swapper/0");
              seismo_trace_builder_push_int (b, next >= 0 ? tasks[next].tid : 0);
              seismo_trace_builder_push_int (b, 120);
              add_test_stack (b, cur_tid, TRUE);
              seismo_trace_builder_end_event (b);
              running[c] = next;
            }
          else if (r < 30)
            {
              gint who = g_rand_int_range (rand, 0, N_TASKS);

              seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.wake);
              seismo_trace_builder_push_string (b, "worker");
              seismo_trace_builder_push_int (b, tasks[who].tid);
              seismo_trace_builder_push_int (b, 120);
              seismo_trace_builder_push_int (b, g_rand_int_range (rand, 0, N_CPUS));
              seismo_trace_builder_end_event (b);
            }
          else if (r < 80)
            {
              if (!cur->in_syscall)
                {
                  guint64 args[6];

                  cur->nr = nrs[g_rand_int_range (rand, 0, G_N_ELEMENTS (nrs))];
                  for (guint a = 0; a < 6; a++)
                    args[a] = a == 1 ? 0x7ffd00000000ull + g_rand_int (rand) : (guint64) g_rand_int_range (rand, 0, 300);
                  seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.enter);
                  seismo_trace_builder_push_uint (b, cur->nr);
                  seismo_trace_builder_push_uint_array (b, args, 6);
                  add_test_stack (b, cur_tid, FALSE);
                  seismo_trace_builder_end_event (b);
                  cur->in_syscall = TRUE;
                }
              else
                {
                  gint64 ret = g_rand_int_range (rand, 0, 10) == 0 ? -2 : g_rand_int_range (rand, 0, 4096);

                  seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.exit);
                  seismo_trace_builder_push_uint (b, cur->nr);
                  seismo_trace_builder_push_int (b, ret);
                  seismo_trace_builder_end_event (b);
                  cur->in_syscall = FALSE;
                }
            }
          else if (r < 90)
            {
              seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.irq_in);
              seismo_trace_builder_push_int (b, 24 + c);
              seismo_trace_builder_push_string (b, "virtio0-input");
              seismo_trace_builder_end_event (b);
              if (made + 1 < n_events)
                {
                  now[c] += g_rand_int_range (rand, 1, 900);
                  seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.irq_out);
                  seismo_trace_builder_push_int (b, 24 + c);
                  seismo_trace_builder_push_int (b, 1);
                  seismo_trace_builder_end_event (b);
                  made++;
                  k++;
                }
            }
          else
            {
              guint8 data[37];
              char label[32];
              guint len = g_rand_int_range (rand, 0, sizeof data);

              for (guint d = 0; d < len; d++)
                data[d] = (guint8) g_rand_int (rand);
              g_snprintf (label, sizeof label, "label-%u", g_rand_int_range (rand, 0, 50));
              seismo_trace_builder_begin_event (b, now[c], c, cur_tid, t.blob);
              seismo_trace_builder_push_bytes (b, data, len);
              seismo_trace_builder_push_uint (b, 0xffff800000000000ull | g_rand_int (rand));
              seismo_trace_builder_push_uint (b, g_rand_int_range (rand, 0, 0x48));
              seismo_trace_builder_push_uint (b, g_rand_int_range (rand, 0, 4));
              seismo_trace_builder_push_int (b, (gint64) g_rand_int (rand) - G_MAXINT32);
              seismo_trace_builder_push_string (b, label);
              seismo_trace_builder_end_event (b);
            }
        }

      /* Now and then a task execs (comm change) or events are lost. */
      if (g_rand_int_range (rand, 0, 500) == 0)
        {
          guint who = g_rand_int_range (rand, 0, N_TASKS);
          char comm[16];

          g_snprintf (comm, sizeof comm, "exec-%u", g_rand_int_range (rand, 0, 9));
          seismo_trace_builder_set_task_comm (b, tasks[who].tid, comm, now[c]);
        }
      if (g_rand_int_range (rand, 0, 700) == 0)
        seismo_trace_builder_add_lost_events (b, c, now[c], g_rand_int_range (rand, 1, 100));
    }

  {
    guint64 lower[4] = { 0, 1024, 2048, 4096 };
    guint64 counts[4] = { 5, 9, 2, 1 };
    SeismoHistogram h = { "syscall_latency", "read", "ns", 4, lower, counts, 17, 31337 };

    seismo_trace_builder_add_histogram (b, &h);
  }
  return b;
}

SeismoTrace *
seismo_test_make_trace (guint64 n_events,
                        guint32 seed)
{
  return seismo_trace_builder_finish (seismo_test_make_builder (n_events, seed));
}

static char *temp_dir;

static void
remove_temp_dir (void)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (temp_dir == NULL)
    return;
  if ((dir = g_dir_open (temp_dir, 0, NULL)))
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *path = g_build_filename (temp_dir, name, NULL);

        g_unlink (path);
      }
  g_rmdir (temp_dir);
  g_clear_pointer (&temp_dir, g_free);
}

char *
seismo_test_temp_path (const char *name)
{
  if (temp_dir == NULL)
    {
      temp_dir = g_dir_make_tmp ("seismo-test-XXXXXX", NULL);
      g_assert_nonnull (temp_dir);
      atexit (remove_temp_dir);
    }
  return g_build_filename (temp_dir, name, NULL);
}

SeismoTrace *
seismo_test_load_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace = seismo_file_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

guint64
seismo_test_metadata_u64 (SeismoTrace *trace,
                          const char  *key)
{
  const char *v = seismo_trace_get_metadata (trace, key);

  g_assert_nonnull (v);
  return g_ascii_strtoull (v, NULL, 10);
}

SeismoValue
seismo_test_field (SeismoTrace   *trace,
                   SeismoEventId  event,
                   const char    *name)
{
  SeismoValue v;

  if (!seismo_trace_event_field_by_name (trace, event, name, &v))
    g_error ("event %u (%s) has no field %s", event,
             seismo_trace_event_type (trace, event)->full_name, name);
  return v;
}

gint64
seismo_test_field_int (SeismoTrace   *trace,
                       SeismoEventId  event,
                       const char    *name)
{
  SeismoValue v = seismo_test_field (trace, event, name);

  return v.type == SEISMO_FIELD_INT ? v.i : (gint64) v.u;
}

const char *
seismo_test_field_str (SeismoTrace   *trace,
                       SeismoEventId  event,
                       const char    *name)
{
  SeismoValue v = seismo_test_field (trace, event, name);

  g_assert_cmpint (v.type, ==, SEISMO_FIELD_STRING);
  return v.str;
}

void
seismo_test_progress (double   fraction,
                      gpointer progress)
{
  SeismoTestProgress *p = progress;

  g_assert_cmpfloat (fraction, >=, p->last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  p->last = fraction;
  p->calls++;
  if (p->cancel_at_first)
    g_cancellable_cancel (p->cancel_at_first);
}

/* An event of seismo_test_make_span_trace(): sorted by time, then in the order made, so that an enter comes
 * before its exit at the same time (a zero duration). */
typedef struct {
  guint64  time;
  gsize    order;
  gsize    span;
  gboolean is_exit;
} SpanEvent;

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const SpanEvent *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

SeismoTrace *
seismo_test_make_span_trace (const guint64 *durs,
                             const guint64 *nrs,
                             gsize          n,
                             guint          n_tasks,
                             gboolean       timed)
{
  const SeismoTracepoint *enter_tp = seismo_tracepoint_lookup ("raw_syscalls", "sys_enter");
  const SeismoTracepoint *exit_tp = seismo_tracepoint_lookup ("raw_syscalls", "sys_exit");
  g_autoptr(SeismoTraceBuilder) b = seismo_trace_builder_new ();
  g_autofree guint64 *clock = g_new (guint64, n_tasks);
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (SpanEvent));
  guint enter, exit_;

  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  if (!timed)
    seismo_trace_builder_set_metadata (b, SEISMO_META_TIMING, SEISMO_TIMING_NONE);
  seismo_trace_builder_set_n_cpus (b, 4);
  enter = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", enter_tp->fields,
                                               enter_tp->n_fields, NULL);
  exit_ = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_exit", exit_tp->fields,
                                               exit_tp->n_fields, NULL);
  for (guint t = 0; t < n_tasks; t++)
    clock[t] = 1000 + t;
  for (gsize j = 0; j < n; j++)
    {
      guint t = j % n_tasks;
      SpanEvent ev = { clock[t], events->len, j, FALSE };

      g_assert_cmpuint (durs[j], <=, G_MAXUINT64 - 1 - clock[t]);
      g_array_append_val (events, ev);
      ev = (SpanEvent) { clock[t] + durs[j], events->len, j, TRUE };
      g_array_append_val (events, ev);
      clock[t] = ev.time < G_MAXUINT64 - 1 ? ev.time + 1 : ev.time;
    }
  g_array_sort (events, compare_events);
  for (guint i = 0; i < events->len; i++)
    {
      const SpanEvent *ev = &g_array_index (events, SpanEvent, i);
      gsize j = ev->span;
      guint t = j % n_tasks;
      guint64 args[6] = { 0 };

      seismo_trace_builder_begin_event (b, ev->time, t % 4, 1000 + (gint32) t,
                                        ev->is_exit ? exit_ : enter);
      seismo_trace_builder_push_uint (b, nrs[j]);
      if (ev->is_exit)
        seismo_trace_builder_push_int (b, j % 7 == 0 ? -2 : 0);
      else
        seismo_trace_builder_push_uint_array (b, args, 6);
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (g_steal_pointer (&b));
}

guint64
seismo_test_edge_duration (GRand *rand,
                           guint  max_e)
{
  guint e = g_rand_int_range (rand, 4, max_e + 1);
  guint64 base = G_GUINT64_CONSTANT (1) << e;
  guint64 v = base + (base >> 4) * g_rand_int_range (rand, 0, 16);

  switch (g_rand_int_range (rand, 0, 4))
    {
    case 0: return v - 1;
    case 1: return v;
    case 2: return v + 1;
    default: return g_rand_int_range (rand, 0, 20);
    }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include "seismo-sched-test-util.h"

void
gen_init (Gen *g)
{
  const SeismoFieldInfo sw[] = {
    { "prev_comm", SEISMO_FIELD_STRING, 0, 0 },
    { "prev_pid", SEISMO_FIELD_INT, 4, 0 },
    { "prev_prio", SEISMO_FIELD_INT, 4, 0 },
    { "prev_state", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_SCHED_STATE },
    { "next_comm", SEISMO_FIELD_STRING, 0, 0 },
    { "next_pid", SEISMO_FIELD_INT, 4, 0 },
    { "next_prio", SEISMO_FIELD_INT, 4, 0 },
  };
  const SeismoFieldInfo wake[] = {
    { "comm", SEISMO_FIELD_STRING, 0, 0 },
    { "pid", SEISMO_FIELD_INT, 4, 0 },
    { "prio", SEISMO_FIELD_INT, 4, 0 },
    { "target_cpu", SEISMO_FIELD_INT, 4, 0 },
  };
  const SeismoFieldInfo enter[] = {
    { "id", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
    { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
  };
  const SeismoFieldInfo exit_[] = {
    { "id", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
    { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO },
  };
  const SeismoFieldInfo irq[] = {
    { "irq", SEISMO_FIELD_INT, 4, 0 },
  };
  const SeismoFieldInfo vec[] = {
    { "vec", SEISMO_FIELD_UINT, 4, 0 },
  };
  const SeismoFieldInfo timer[] = {
    { "hrtimer", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
  };
  const SeismoFieldInfo vector[] = {
    { "vector", SEISMO_FIELD_INT, 4, 0 },
  };
  const SeismoFieldInfo blocked[] = {
    { "pid", SEISMO_FIELD_INT, 4, 0 },
    { "caller", SEISMO_FIELD_POINTER, 8, 0 },
    { "io_wait", SEISMO_FIELD_UINT, 1, 0 },
  };

  g->b = seismo_trace_builder_new ();
  seismo_trace_builder_set_metadata (g->b, SEISMO_META_ARCH, "x86_64");
  g->sw = seismo_trace_builder_add_event_type (g->b, "sched", "sched_switch", sw, G_N_ELEMENTS (sw), NULL);
  g->waking = seismo_trace_builder_add_event_type (g->b, "sched", "sched_waking", wake, 4, NULL);
  g->wakeup = seismo_trace_builder_add_event_type (g->b, "sched", "sched_wakeup", wake, 4, NULL);
  g->wakeup_new = seismo_trace_builder_add_event_type (g->b, "sched", "sched_wakeup_new", wake, 4,
                                                       NULL);
  g->enter = seismo_trace_builder_add_event_type (g->b, "raw_syscalls", "sys_enter", enter, 2, NULL);
  g->exit = seismo_trace_builder_add_event_type (g->b, "raw_syscalls", "sys_exit", exit_, 2, NULL);
  g->irq_in = seismo_trace_builder_add_event_type (g->b, "irq", "irq_handler_entry", irq, 1, NULL);
  g->irq_out = seismo_trace_builder_add_event_type (g->b, "irq", "irq_handler_exit", irq, 1, NULL);
  g->soft_in = seismo_trace_builder_add_event_type (g->b, "irq", "softirq_entry", vec, 1, NULL);
  g->soft_out = seismo_trace_builder_add_event_type (g->b, "irq", "softirq_exit", vec, 1, NULL);
  g->hrtimer_in = seismo_trace_builder_add_event_type (g->b, "timer", "hrtimer_expire_entry", timer, 1,
                                                       NULL);
  g->hrtimer_out = seismo_trace_builder_add_event_type (g->b, "timer", "hrtimer_expire_exit", timer, 1,
                                                        NULL);
  g->timer_in = seismo_trace_builder_add_event_type (g->b, "timer", "timer_expire_entry", timer, 1, NULL);
  g->timer_out = seismo_trace_builder_add_event_type (g->b, "timer", "timer_expire_exit", timer, 1, NULL);
  g->apic_in = seismo_trace_builder_add_event_type (g->b, "irq_vectors", "local_timer_entry", vector, 1,
                                                    NULL);
  g->apic_out = seismo_trace_builder_add_event_type (g->b, "irq_vectors", "local_timer_exit", vector, 1,
                                                     NULL);
  g->blocked = seismo_trace_builder_add_event_type (g->b, "sched", "sched_blocked_reason", blocked,
                                                    3, NULL);
}

void
sw (Gen *g, guint64 t, guint cpu, gint prev, gint64 state, gint next)
{
  seismo_trace_builder_begin_event (g->b, t, cpu, prev, g->sw);
  seismo_trace_builder_push_string (g->b, prev ? "prev" : "swapper");
  seismo_trace_builder_push_int (g->b, prev);
  seismo_trace_builder_push_int (g->b, 120);
  seismo_trace_builder_push_int (g->b, state);
  seismo_trace_builder_push_string (g->b, next ? "next" : "swapper");
  seismo_trace_builder_push_int (g->b, next);
  seismo_trace_builder_push_int (g->b, 120);
  seismo_trace_builder_end_event (g->b);
}

void
wake (Gen *g, guint type, guint64 t, guint cpu, gint waker, gint pid, gint target)
{
  seismo_trace_builder_begin_event (g->b, t, cpu, waker, type);
  seismo_trace_builder_push_string (g->b, "wakee");
  seismo_trace_builder_push_int (g->b, pid);
  seismo_trace_builder_push_int (g->b, 120);
  seismo_trace_builder_push_int (g->b, target);
  seismo_trace_builder_end_event (g->b);
}

void
sys (Gen *g, gboolean enter, guint64 t, guint cpu, gint tid, guint64 nr)
{
  guint64 args[6] = { 0 };

  seismo_trace_builder_begin_event (g->b, t, cpu, tid, enter ? g->enter : g->exit);
  seismo_trace_builder_push_uint (g->b, nr);
  if (enter)
    seismo_trace_builder_push_uint_array (g->b, args, 6);
  else
    seismo_trace_builder_push_int (g->b, 0);
  seismo_trace_builder_end_event (g->b);
}

void
sys_ret (Gen *g, guint64 t, guint cpu, gint tid, guint64 nr, gint64 ret)
{
  seismo_trace_builder_begin_event (g->b, t, cpu, tid, g->exit);
  seismo_trace_builder_push_uint (g->b, nr);
  seismo_trace_builder_push_int (g->b, ret);
  seismo_trace_builder_end_event (g->b);
}

void
irq (Gen *g, gboolean entry, guint64 t, guint cpu, gint tid)
{
  seismo_trace_builder_begin_event (g->b, t, cpu, tid, entry ? g->irq_in : g->irq_out);
  seismo_trace_builder_push_int (g->b, 24);
  seismo_trace_builder_end_event (g->b);
}

void
ctx (Gen *g, guint type, guint64 t, guint cpu, gint tid, gint64 value)
{
  seismo_trace_builder_begin_event (g->b, t, cpu, tid, type);
  if (type == g->apic_in || type == g->apic_out)
    seismo_trace_builder_push_int (g->b, value);
  else
    seismo_trace_builder_push_uint (g->b, (guint64) value);
  seismo_trace_builder_end_event (g->b);
}

SeismoTaskId
sched_test_task (SeismoTrace *trace,
      gint         tid)
{
  SeismoTaskId t = seismo_trace_find_task (trace, tid, 0);

  g_assert_cmpuint (t, !=, SEISMO_NO_TASK);
  return t;
}


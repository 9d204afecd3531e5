/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Scheduler traces written event by event for the thread-state and critical-path tests. */

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

#define A 100
#define B 200
#define C 300
#define K 400   /* a kernel thread */

#define NR_READ 0
#define NR_FSYNC 74

typedef struct {
  SeismoTraceBuilder *b;
  guint sw, waking, wakeup, wakeup_new, enter, exit, irq_in, irq_out, blocked;
  /* Interrupt and timer contexts, for ctx(); not in a trace until used. */
  guint soft_in, soft_out, hrtimer_in, hrtimer_out, timer_in, timer_out, apic_in, apic_out;
} Gen;

void         gen_init (Gen *g);
/* sched_switch on cpu at t: prev (0: idle) leaves in state, next comes in. */
void         sw       (Gen *g, guint64 t, guint cpu, gint prev, gint64 state, gint next);
/* type: g->waking, g->wakeup or g->wakeup_new, made by waker on cpu. */
void         wake     (Gen *g, guint type, guint64 t, guint cpu, gint waker, gint pid, gint target);
void         sys      (Gen *g, gboolean enter, guint64 t, guint cpu, gint tid, guint64 nr);
/* A sys_exit returning ret. */
void         sys_ret  (Gen *g, guint64 t, guint cpu, gint tid, guint64 nr, gint64 ret);
void         irq      (Gen *g, gboolean entry, guint64 t, guint cpu, gint tid);
/* One of the context types above (soft_in...apic_out) on cpu at t, interrupting tid; value: the
 * softirq vector (soft_in, soft_out), else any. */
void         ctx      (Gen *g, guint type, guint64 t, guint cpu, gint tid, gint64 value);
/* The task with this tid (the test fails when there is none). */
SeismoTaskId sched_test_task (SeismoTrace *trace, gint tid);

G_END_DECLS

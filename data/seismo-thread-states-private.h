/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The thread-state machine, driven by the scheduler pass of _seismo_trace_derive(): it sees every
 * event in time order (cheaply: one byte looked up per event) and the decoded scheduler events.
 */

#include "seismo-thread-states.h"
#include "seismo-trace-private.h"

G_BEGIN_DECLS

/* cur[] value of a task that never has a state (the idle task, tid 0). */
#define SEISMO_STATES_SKIP 0xff

typedef struct {
  SeismoStateSpan span;
  SeismoTaskId    task;
} SeismoStateBuild;

typedef struct {
  SeismoTrace       *trace;
  guint8            *cur;          /* per task: its current SeismoThreadState, or SKIP */
  guint32           *cur_span;     /* per task: index in spans of its current state */
  SeismoStateBuild  *spans;        /* every state, in start order */
  gsize              n_spans;
  gsize              cap_spans;
  SeismoTaskId      *known;        /* tasks whose state is known and not Dead, for lost events */
  guint32           *known_pos;    /* per task: index in known, or G_MAXUINT32 */
  guint              n_known;
  SeismoTaskId      *cpu_task;     /* per CPU: the task the states have running there */
  guint              n_cpus;
  SeismoLostEvents  *lost;         /* sorted by time */
  guint              n_lost;
  guint              next_lost;
  SeismoEventId      next_lost_event; /* first event at or after lost[next_lost]; NO_EVENT: none */
} SeismoStatesBuilder;

/* NULL when the trace has no sched_switch events (n_switches == 0). */
SeismoStatesBuilder *_seismo_states_builder_new    (SeismoTrace         *trace,
                                                    guint                n_cpus,
                                                    gsize                n_switches,
                                                    gsize                n_wakeups);
/* A task seen running while its state was unknown. */
void                 _seismo_states_seen           (SeismoStatesBuilder *b,
                                                    SeismoEventId        ev,
                                                    SeismoTaskId         task,
                                                    guint                cpu);
void                 _seismo_states_lost           (SeismoStatesBuilder *b,
                                                    SeismoEventId        ev);
/* prev and next may be SEISMO_NO_TASK (idle); prev_state -1 when the event lacks it. */
void                 _seismo_states_switch         (SeismoStatesBuilder *b,
                                                    SeismoEventId        ev,
                                                    guint                cpu,
                                                    SeismoTaskId         prev,
                                                    gint64               prev_state,
                                                    SeismoTaskId         next);
/* flags: SEISMO_STATE_FLAG_IN_IRQ, _IN_SOFTIRQ, _NEW. */
void                 _seismo_states_wakeup         (SeismoStatesBuilder *b,
                                                    SeismoEventId        ev,
                                                    SeismoTaskId         task,
                                                    gint64               target_cpu,
                                                    guint8               flags);
/* Moves the states into the trace (state_spans, state_off) and frees b. */
void                 _seismo_states_builder_finish (SeismoStatesBuilder *b);

/* Called for every event before its own handling. */
static inline void
_seismo_states_event (SeismoStatesBuilder *b,
                      SeismoEventId        ev,
                      SeismoTaskId         task,
                      guint                cpu)
{
  if (G_UNLIKELY (ev == b->next_lost_event))
    _seismo_states_lost (b, ev);
  /* A task that makes an event is running on that CPU, whatever the states had: its state was
   * Unknown, or the switch that put it there is missing (a recorder that follows some tasks drops
   * the switch from a task it does not follow; a CPU's buffer lost it). Left Runnable, it would be
   * no waker for the task it wakes next and the critical path would stop there. Dead stays dead. */
  if (G_UNLIKELY (task < b->trace->n_tasks && cpu < b->n_cpus && b->cur[task] != SEISMO_STATES_SKIP &&
                  b->cur[task] != SEISMO_STATE_DEAD &&
                  (b->cur[task] != SEISMO_STATE_RUNNING ||
                   b->spans[b->cur_span[task]].span.cpu != cpu)))
    _seismo_states_seen (b, ev, task, cpu);
}

G_END_DECLS

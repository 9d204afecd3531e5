/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-flame-graph.h"
#include "seismo-stacks.h"
#include "seismo-stats.h"

G_BEGIN_DECLS

/*
 * Flame graphs of a trace's call stacks (seismo-stack-tree.h merges them): for the events of a
 * selection (time range and filter), or off-CPU — the stacks tasks were switched out with
 * (sched_switch), weighed by how long they stayed off the CPU: "where does this program sleep?".
 * Both the pane (on a worker thread) and `seismo-cli render --flamegraph` build them here.
 */
typedef enum {
  SEISMO_FLAME_SOURCE_EVENTS,    /* every selected event with a stack */
  SEISMO_FLAME_SOURCE_OFF_CPU,   /* selected sched_switch events, by time off CPU */
} SeismoFlameSource;

/* NULL when no selected event has a stack (n_events then 0). n_events: the events merged. */
SeismoFlameGraph *seismo_flame_graph_new_for_trace (SeismoTrace           *trace,
                                                    const SeismoSelection *selection,
                                                    SeismoFlameSource      source,
                                                    SeismoFlameWeight      weight,
                                                    gsize                 *n_events,
                                                    GCancellable          *cancellable);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * Function calls, as the function_graph tracer records them: one per ftrace:funcgraph_exit event
 * (its duration says when the call began), whatever reader produced the trace. The timeline draws
 * them as nested boxes under each task.
 */
typedef struct {
  guint64        start_ns;
  guint64        end_ns;
  SeismoEventId  exit;      /* the funcgraph_exit event */
  SeismoTaskId   task;
  guint16        level;     /* nesting in its task: 0 is the outermost call the file shows */
  SeismoStringId func;      /* 0 when the file does not name the function */
} SeismoFunctionCall;

/* The calls sorted by task, then level, then start time: the calls of one task at one level are
 * contiguous and do not overlap. Built on first use; owned by the trace. */
const SeismoFunctionCall *seismo_trace_get_function_calls (SeismoTrace *trace,
                                                           gsize       *n_calls);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-stacks.h"

G_BEGIN_DECLS

/*
 * SeismoStackTree: the stacks of a set of events merged into one call tree, for flame graphs and
 * `seismo-cli stacks`. The root (node 0) stands for all events; its children are outermost frames
 * (main, _start, …) and each path down is a stack read outside in. Frames merge by display name
 * (seismo_frame_display_name()), so one function at several addresses is one node.
 *
 * Weights: COUNT counts events; TIME sums nanoseconds — a syscall's duration (enter to exit) for
 * syscall events, the time until the task runs again (off-CPU time) for sched_switch; other events
 * weigh 0 under TIME. A node's total is its own weight plus its children's; self is what stacks
 * ending at it weigh.
 */

typedef enum {
  SEISMO_STACK_WEIGHT_COUNT = 0,
  SEISMO_STACK_WEIGHT_TIME = 1,
} SeismoStackWeight;

#define SEISMO_STACK_NODE_NONE G_MAXUINT32

typedef struct {
  SeismoFrameId frame;        /* a frame with this name (the first seen); unused for the root */
  const char   *name;         /* display name; "" for the root; owned by the tree */
  guint64       total;
  guint64       self;
  guint64       n_events;     /* events at or under this node */
  guint32       parent;       /* SEISMO_STACK_NODE_NONE for the root */
  guint32       depth;        /* root 0, outermost frames 1 */
} SeismoStackNode;

typedef struct _SeismoStackTree SeismoStackTree;

/* events: the events to merge (e.g. a filter's result), or NULL for all; events without a stack
 * (or weighing 0) are left out. The tree keeps a reference to the trace. */
SeismoStackTree       *seismo_stack_tree_new            (SeismoTrace         *trace,
                                                         const SeismoEventId *events,
                                                         gsize                n_events,
                                                         SeismoStackWeight    weight);
void                   seismo_stack_tree_free           (SeismoStackTree     *self);
SeismoStackWeight      seismo_stack_tree_get_weight     (SeismoStackTree     *self);
guint                  seismo_stack_tree_get_n_nodes    (SeismoStackTree     *self);
const SeismoStackNode *seismo_stack_tree_get_node       (SeismoStackTree     *self,
                                                         guint                node);
/* Children sorted by name; the array lives as long as the tree. */
const guint32         *seismo_stack_tree_get_children   (SeismoStackTree     *self,
                                                         guint                node,
                                                         guint               *n_children);
/* The node a stack ends at, SEISMO_STACK_NODE_NONE when no merged event had it. */
guint32                seismo_stack_tree_stack_node     (SeismoStackTree     *self,
                                                         SeismoStackId        stack);
/* TRUE when the stack's path passes through node (zoom: the events under a frame). */
gboolean               seismo_stack_tree_stack_under    (SeismoStackTree     *self,
                                                         SeismoStackId        stack,
                                                         guint                node);
/* Folded lines of flamegraph.pl / speedscope, outermost frame first, one line per distinct path
 * with self weight: "main;do_work;write 42\n"; depth-first, children by name. */
void                   seismo_stack_tree_write_folded   (SeismoStackTree     *self,
                                                         GString             *out);

/* The weight one event brings under weight (see above). A context computed once makes TIME
 * cheap; pass NULL to compute for this call only (slow: for a handful of events). */
typedef struct _SeismoStackWeights SeismoStackWeights;
SeismoStackWeights    *seismo_stack_weights_new         (SeismoTrace         *trace,
                                                         SeismoStackWeight    weight);
void                   seismo_stack_weights_free        (SeismoStackWeights  *self);
guint64                seismo_stack_weights_get         (SeismoStackWeights  *self,
                                                         SeismoEventId        event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoStackTree, seismo_stack_tree_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoStackWeights, seismo_stack_weights_free)

G_END_DECLS

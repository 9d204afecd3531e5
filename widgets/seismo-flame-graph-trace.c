/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-render"

#include <glib/gi18n.h>

#include "seismo-flame-graph-trace.h"
#include "seismo-stack-tree.h"
#include "seismo-work-priority.h"

/* The selected events that have a stack, in time order. */
static GArray *
selected_events (SeismoTrace           *trace,
                 const SeismoSelection *sel,
                 SeismoFlameSource      source,
                 GCancellable          *cancellable)
{
  GArray *events = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));
  const SeismoStackId *stacks = seismo_trace_get_stack_ids (trace);
  const guint16 *types = seismo_trace_get_types (trace);
  gsize n = seismo_trace_get_n_events (trace);
  gsize first = 0, last = n;
  g_autofree gboolean *switch_type = NULL;
  guint n_types = seismo_trace_get_n_event_types (trace);

  if (stacks == NULL)
    return events;
  if (sel != NULL)
    {
      first = seismo_trace_find_time (trace, sel->start_ns);
      if (sel->end_ns != G_MAXUINT64)
        last = seismo_trace_find_time (trace, sel->end_ns + 1);
    }
  switch_type = g_new0 (gboolean, MAX (n_types, 1));
  for (guint t = 0; t < n_types; t++)
    switch_type[t] = seismo_trace_get_event_type (trace, t)->kind == SEISMO_KIND_SCHED_SWITCH;
  for (gsize i = first; i < last; i++)
    {
      if ((i & 0x3fff) == 0)
        seismo_work_priority_pause_point ();
      if ((i & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      if (stacks[i] == SEISMO_NO_STACK)
        continue;
      if (sel != NULL && sel->mask != NULL && !((sel->mask[i >> 6] >> (i & 63)) & 1))
        continue;
      if (source == SEISMO_FLAME_SOURCE_OFF_CPU && !switch_type[types[i]])
        continue;
      g_array_append_val (events, (SeismoEventId) { (SeismoEventId) i });
    }
  return events;
}

static SeismoFlameSpace
flame_space (const SeismoFrame *frame)
{
  if (frame == NULL)
    return SEISMO_FLAME_SPACE_NONE;
  return frame->space == SEISMO_FRAME_KERNEL ? SEISMO_FLAME_SPACE_KERNEL : SEISMO_FLAME_SPACE_USER;
}

SeismoFlameGraph *
seismo_flame_graph_new_for_trace (SeismoTrace           *trace,
                                  const SeismoSelection *selection,
                                  SeismoFlameSource      source,
                                  SeismoFlameWeight      weight,
                                  gsize                 *n_events,
                                  GCancellable          *cancellable)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(SeismoStackTree) tree = NULL;
  g_autoptr(GArray) todo = NULL;
  g_autofree guint *mapped = NULL;
  SeismoFlameGraph *fg;
  guint n_nodes;

  g_return_val_if_fail (trace != NULL, NULL);

  if (n_events != NULL)
    *n_events = 0;
  events = selected_events (trace, selection, source, cancellable);
  if (events->len == 0 || g_cancellable_is_cancelled (cancellable))
    return NULL;
  tree = seismo_stack_tree_new (trace, (const SeismoEventId *) events->data, events->len,
                                weight == SEISMO_FLAME_WEIGHT_TIME ? SEISMO_STACK_WEIGHT_TIME
                                                                   : SEISMO_STACK_WEIGHT_COUNT);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;
  n_nodes = seismo_stack_tree_get_n_nodes (tree);
  if (n_nodes == 0 || seismo_stack_tree_get_node (tree, 0)->total == 0)
    return NULL;
  if (n_events != NULL)
    *n_events = seismo_stack_tree_get_node (tree, 0)->n_events;

  fg = seismo_flame_graph_new (source == SEISMO_FLAME_SOURCE_OFF_CPU ? _("off-CPU") : _("all"), weight);
  /* Depth first from the root, so a parent is added before its children. */
  mapped = g_new (guint, n_nodes);
  mapped[0] = SEISMO_FLAME_ROOT;
  todo = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (todo, (guint32) { 0 });
  while (todo->len > 0)
    {
      guint32 id = g_array_index (todo, guint32, todo->len - 1);
      const SeismoStackNode *node = seismo_stack_tree_get_node (tree, id);
      const guint32 *children;
      guint n_children;

      g_array_set_size (todo, todo->len - 1);
      if (id != 0)
        {
          const SeismoFrame *frame = seismo_trace_get_frame (trace, node->frame);
          SeismoFlameNode info = {
            .name = node->name,
            .module = frame != NULL ? frame->module : NULL,
            .file = frame != NULL ? frame->file : NULL,
            .line = frame != NULL ? frame->line : 0,
            .frame = node->frame,
            .space = flame_space (frame),
            .inlined = frame != NULL && frame->inlined,
          };

          mapped[id] = seismo_flame_graph_add_node (fg, mapped[node->parent], &info);
          if (node->self > 0)
            seismo_flame_graph_add_weight (fg, mapped[id], (double) node->self);
        }
      else if (node->self > 0)
        seismo_flame_graph_add_weight (fg, SEISMO_FLAME_ROOT, (double) node->self);
      children = seismo_stack_tree_get_children (tree, id, &n_children);
      for (guint c = 0; c < n_children; c++)
        g_array_append_val (todo, children[c]);
    }
  seismo_flame_graph_finish (fg);
  return fg;
}

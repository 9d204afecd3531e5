/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

/* Stacks merged into a call tree, and the folded-lines writer. */

#include <stdlib.h>
#include <string.h>

#include "seismo-stack-tree.h"

struct _SeismoStackWeights
{
  SeismoTrace       *trace;      /* borrowed */
  SeismoStackWeight  weight;
  guint64           *time;       /* TIME: per event; NULL for COUNT */
};

typedef struct {
  SeismoTaskId task;
  guint64      start_ns;
} RunStart;

static int
compare_run_starts (gconstpointer a,
                    gconstpointer b)
{
  const RunStart *x = a, *y = b;

  if (x->task != y->task)
    return x->task < y->task ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return 0;
}

SeismoStackWeights *
seismo_stack_weights_new (SeismoTrace       *trace,
                          SeismoStackWeight  weight)
{
  SeismoStackWeights *self;
  gsize n_events, n_spans, n_runs;
  const SeismoSyscallSpan *spans;
  const SeismoInterval *runs;
  const guint64 *ts;
  const guint16 *types;
  const SeismoTaskId *tasks;
  g_autofree RunStart *starts = NULL;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);

  self = g_new0 (SeismoStackWeights, 1);
  self->trace = trace;
  self->weight = weight;
  if (weight != SEISMO_STACK_WEIGHT_TIME)
    return self;

  n_events = seismo_trace_get_n_events (trace);
  ts = seismo_trace_get_times (trace);
  types = seismo_trace_get_types (trace);
  tasks = seismo_trace_get_tasks (trace);
  self->time = g_new0 (guint64, MAX (n_events, 1));

  /* Syscalls: the span's duration, on the enter (and on the exit, for stacks kept there). */
  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  for (gsize s = 0; s < n_spans; s++)
    if (spans[s].exit != SEISMO_NO_EVENT && spans[s].enter < n_events && spans[s].exit < n_events)
      {
        guint64 d = ts[spans[s].exit] - ts[spans[s].enter];

        self->time[spans[s].enter] = d;
        if (seismo_trace_event_stack (trace, spans[s].enter) == SEISMO_NO_STACK)
          self->time[spans[s].exit] = d;
      }

  /* sched_switch: until the task that left runs again (its next RUN interval). */
  runs = seismo_trace_get_intervals (trace, SEISMO_INTERVAL_RUN, &n_runs);
  starts = g_new (RunStart, MAX (n_runs, 1));
  for (gsize r = 0; r < n_runs; r++)
    starts[r] = (RunStart) { runs[r].task, seismo_trace_interval_start_ns (trace, &runs[r]) };
  qsort (starts, n_runs, sizeof *starts, compare_run_starts);
  for (gsize e = 0; e < n_events; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, e);
      gsize lo = 0, hi = n_runs;

      (void) types;
      if (type == NULL || type->kind != SEISMO_KIND_SCHED_SWITCH)
        continue;
      /* First run of this task starting after the switch. */
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;

          if (starts[mid].task < tasks[e] ||
              (starts[mid].task == tasks[e] && starts[mid].start_ns <= ts[e]))
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo < n_runs && starts[lo].task == tasks[e])
        self->time[e] = starts[lo].start_ns - ts[e];
    }
  return self;
}

void
seismo_stack_weights_free (SeismoStackWeights *self)
{
  if (self == NULL)
    return;
  g_free (self->time);
  g_free (self);
}

guint64
seismo_stack_weights_get (SeismoStackWeights *self,
                          SeismoEventId       event)
{
  g_return_val_if_fail (self != NULL, 0);
  if (self->weight == SEISMO_STACK_WEIGHT_COUNT)
    return 1;
  return event < seismo_trace_get_n_events (self->trace) ? self->time[event] : 0;
}

/* ---- Tree ---- */

struct _SeismoStackTree
{
  SeismoTrace       *trace;
  SeismoStackWeight  weight;
  GArray            *nodes;        /* SeismoStackNode */
  GHashTable        *child_of;     /* (parent << 32 | name index) → node + 1, while building */
  GStringChunk      *names;
  GHashTable        *name_index;   /* name (in names) → index + 1, while building */
  guint32           *frame_name;   /* per frame id: name index + 1 (0: not named yet) */
  GPtrArray         *name_of;      /* name index → name (in names) */
  guint32           *child_off;    /* n_nodes + 1, into children */
  guint32           *children;
  guint32           *stack_node;   /* per stack id: its leaf node */
  guint              n_stacks;
};

/* Frames merge by display name: each frame's name is made once. */
static guint32
frame_name (SeismoStackTree *self,
            SeismoFrameId    frame)
{
  g_autofree char *name = NULL;
  gpointer idx;
  const char *pooled;

  if (self->frame_name[frame] != 0)
    return self->frame_name[frame] - 1;
  name = seismo_frame_display_name (seismo_trace_get_frame (self->trace, frame));
  idx = g_hash_table_lookup (self->name_index, name);
  if (idx == NULL)
    {
      pooled = g_string_chunk_insert_const (self->names, name);
      g_ptr_array_add (self->name_of, (gpointer) pooled);
      idx = GUINT_TO_POINTER (self->name_of->len);
      g_hash_table_insert (self->name_index, (gpointer) pooled, idx);
    }
  self->frame_name[frame] = GPOINTER_TO_UINT (idx);
  return self->frame_name[frame] - 1;
}

static guint
child_key_hash (gconstpointer key)
{
  guint64 k = GPOINTER_TO_SIZE (key) * 0x9E3779B97F4A7C15ull;

  return (guint) (k >> 32);
}

static guint32
child_node (SeismoStackTree *self,
            guint32          parent,
            SeismoFrameId    frame)
{
  guint32 name = frame_name (self, frame);
  gpointer key = GSIZE_TO_POINTER (((gsize) parent << 32) | name);
  guint32 id = GPOINTER_TO_UINT (g_hash_table_lookup (self->child_of, key));
  SeismoStackNode node = { 0 };
  const SeismoStackNode *p;

  if (id != 0)
    return id - 1;
  p = &g_array_index (self->nodes, SeismoStackNode, parent);
  node.frame = frame;
  node.name = g_ptr_array_index (self->name_of, name);
  node.parent = parent;
  node.depth = p->depth + 1;
  id = self->nodes->len;
  g_array_append_val (self->nodes, node);
  g_hash_table_insert (self->child_of, key, GUINT_TO_POINTER (id + 1));
  return id;
}

/* The leaf node of a stack, creating the path (outermost first). */
static guint32
stack_leaf (SeismoStackTree *self,
            SeismoStackId    stack)
{
  const SeismoFrameId *frames;
  guint n = seismo_trace_stack_frames (self->trace, stack, &frames);
  guint32 node = 0;

  for (guint i = n; i-- > 0;)
    node = child_node (self, node, frames[i]);
  return node;
}

static SeismoStackTree *sort_tree;

static int
compare_children (gconstpointer a,
                  gconstpointer b)
{
  const SeismoStackNode *x = &g_array_index (sort_tree->nodes, SeismoStackNode, *(const guint32 *) a);
  const SeismoStackNode *y = &g_array_index (sort_tree->nodes, SeismoStackNode, *(const guint32 *) b);
  int c;

  if (x->parent != y->parent)
    return x->parent < y->parent ? -1 : 1;
  c = strcmp (x->name, y->name);
  return c;
}

G_LOCK_DEFINE_STATIC (sort_tree);

SeismoStackTree *
seismo_stack_tree_new (SeismoTrace         *trace,
                       const SeismoEventId *events,
                       gsize                n_events,
                       SeismoStackWeight    weight)
{
  SeismoStackTree *self;
  g_autoptr(SeismoStackWeights) weights = NULL;
  const SeismoStackId *stack_of;
  SeismoStackNode root = { 0 };
  gsize n_all;
  guint n_nodes;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (events != NULL || n_events == 0, NULL);

  self = g_new0 (SeismoStackTree, 1);
  self->trace = g_object_ref (trace);
  self->weight = weight;
  self->nodes = g_array_new (FALSE, TRUE, sizeof (SeismoStackNode));
  self->names = g_string_chunk_new (4096);
  /* Keys pack a parent node and a name index: 64-bit pointers hold both. */
  G_STATIC_ASSERT (sizeof (gpointer) >= 8);
  self->child_of = g_hash_table_new (child_key_hash, g_direct_equal);
  self->name_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->name_of = g_ptr_array_new ();
  self->frame_name = g_new0 (guint32, MAX (seismo_trace_get_n_frames (trace), 1));
  root.name = "";
  root.parent = SEISMO_STACK_NODE_NONE;
  g_array_append_val (self->nodes, root);
  self->n_stacks = seismo_trace_get_n_stacks (trace);
  self->stack_node = g_new (guint32, MAX (self->n_stacks, 1));
  memset (self->stack_node, 0xff, MAX (self->n_stacks, 1) * sizeof (guint32));

  stack_of = seismo_trace_get_stack_ids (trace);
  n_all = seismo_trace_get_n_events (trace);
  if (stack_of != NULL)
    {
      gsize n = events ? n_events : n_all;

      weights = seismo_stack_weights_new (trace, weight);
      for (gsize k = 0; k < n; k++)
        {
          SeismoEventId e = events ? events[k] : (SeismoEventId) k;
          SeismoStackId s;
          guint64 w;
          guint32 leaf;
          SeismoStackNode *node;

          if (e >= n_all || (s = stack_of[e]) == SEISMO_NO_STACK || s >= self->n_stacks)
            continue;
          w = seismo_stack_weights_get (weights, e);
          if (w == 0)
            continue;
          leaf = self->stack_node[s];
          if (leaf == SEISMO_STACK_NODE_NONE)
            leaf = self->stack_node[s] = stack_leaf (self, s);
          node = &g_array_index (self->nodes, SeismoStackNode, leaf);
          node->self += w;
          for (guint32 i = leaf; i != SEISMO_STACK_NODE_NONE;)
            {
              node = &g_array_index (self->nodes, SeismoStackNode, i);
              node->total += w;
              node->n_events++;
              i = node->parent;
            }
        }
    }
  g_clear_pointer (&self->child_of, g_hash_table_unref);
  g_clear_pointer (&self->name_index, g_hash_table_unref);
  g_clear_pointer (&self->frame_name, g_free);

  /* Children lists: every node but the root, grouped by parent, by name. */
  n_nodes = self->nodes->len;
  self->child_off = g_new0 (guint32, n_nodes + 1);
  self->children = g_new (guint32, MAX (n_nodes, 1));
  for (guint32 i = 1; i < n_nodes; i++)
    self->children[i - 1] = i;
  G_LOCK (sort_tree);
  sort_tree = self;
  qsort (self->children, n_nodes - 1, sizeof (guint32), compare_children);
  sort_tree = NULL;
  G_UNLOCK (sort_tree);
  for (guint32 i = 1; i < n_nodes; i++)
    self->child_off[g_array_index (self->nodes, SeismoStackNode, i).parent + 1]++;
  for (guint32 i = 0; i < n_nodes; i++)
    self->child_off[i + 1] += self->child_off[i];
  return self;
}

void
seismo_stack_tree_free (SeismoStackTree *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->trace);
  g_array_unref (self->nodes);
  g_string_chunk_free (self->names);
  g_clear_pointer (&self->child_of, g_hash_table_unref);
  g_clear_pointer (&self->name_index, g_hash_table_unref);
  g_clear_pointer (&self->name_of, g_ptr_array_unref);
  g_free (self->frame_name);
  g_free (self->child_off);
  g_free (self->children);
  g_free (self->stack_node);
  g_free (self);
}

SeismoStackWeight
seismo_stack_tree_get_weight (SeismoStackTree *self)
{
  g_return_val_if_fail (self != NULL, SEISMO_STACK_WEIGHT_COUNT);
  return self->weight;
}

guint
seismo_stack_tree_get_n_nodes (SeismoStackTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->nodes->len;
}

const SeismoStackNode *
seismo_stack_tree_get_node (SeismoStackTree *self,
                            guint            node)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (node >= self->nodes->len)
    return NULL;
  return &g_array_index (self->nodes, SeismoStackNode, node);
}

const guint32 *
seismo_stack_tree_get_children (SeismoStackTree *self,
                                guint            node,
                                guint           *n_children)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_children != NULL, NULL);
  if (node >= self->nodes->len)
    {
      *n_children = 0;
      return NULL;
    }
  *n_children = self->child_off[node + 1] - self->child_off[node];
  return self->children + self->child_off[node];
}

guint32
seismo_stack_tree_stack_node (SeismoStackTree *self,
                              SeismoStackId    stack)
{
  g_return_val_if_fail (self != NULL, SEISMO_STACK_NODE_NONE);
  if (stack >= self->n_stacks)
    return SEISMO_STACK_NODE_NONE;
  return self->stack_node[stack];
}

gboolean
seismo_stack_tree_stack_under (SeismoStackTree *self,
                               SeismoStackId    stack,
                               guint            node)
{
  guint32 i = seismo_stack_tree_stack_node (self, stack);

  while (i != SEISMO_STACK_NODE_NONE)
    {
      if (i == node)
        return TRUE;
      i = g_array_index (self->nodes, SeismoStackNode, i).parent;
    }
  return FALSE;
}

static void
write_folded (SeismoStackTree *self,
              guint32          node,
              GString         *path,
              GString         *out)
{
  const SeismoStackNode *n = &g_array_index (self->nodes, SeismoStackNode, node);
  gsize len = path->len;
  guint n_children;
  const guint32 *children;

  if (node != 0)
    {
      if (path->len > 0)
        g_string_append_c (path, ';');
      /* ';' separates frames and the last ' ' the count: keep them out of names. */
      for (const char *c = n->name; *c; c++)
        g_string_append_c (path, *c == ';' ? ':' : (*c == '\n' ? ' ' : *c));
      if (n->self > 0)
        g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "\n", path->str, n->self);
    }
  children = seismo_stack_tree_get_children (self, node, &n_children);
  for (guint c = 0; c < n_children; c++)
    write_folded (self, children[c], path, out);
  g_string_truncate (path, len);
}

void
seismo_stack_tree_write_folded (SeismoStackTree *self,
                                GString         *out)
{
  g_autoptr(GString) path = g_string_new (NULL);

  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);
  write_folded (self, 0, path, out);
}

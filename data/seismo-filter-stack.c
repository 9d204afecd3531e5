/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-filter"

/*
 * The `stack` field: events whose call stack has a frame of that name (seismo-stacks.h).
 * "stack == f" and "stack ~ glob" / "stack =~ regex" match when some frame's name does;
 * "stack != f" when the event has a stack and no frame is f. Frames are named as flame graphs name
 * them (seismo_frame_display_name()). The test is folded into a table per stack id at compile
 * time, so evaluating costs one lookup per event.
 */

#include "seismo-filter-private.h"
#include "seismo-stacks.h"

FilterNode *
_seismo_filter_compile_stack (Parser          *p,
                              const FilterTok *field,
                              const FilterTok *op_tok,
                              const FilterTok *value)
{
  SeismoTrace *trace = p->trace;
  guint n_frames = seismo_trace_get_n_frames (trace);
  guint n_stacks = seismo_trace_get_n_stacks (trace);
  g_autofree guint8 *frame_match = NULL;
  FilterLeaf *leaf;
  FilterOp op = op_tok->op;
  gboolean any = FALSE;

  if (op != FILTER_OP_EQ && op != FILTER_OP_NE && op != FILTER_OP_GLOB && op != FILTER_OP_REGEX)
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_BAD_VALUE, op_tok->start, op_tok->end,
                                   _("stack compares frame names: use ==, !=, ~ or =~"));
      return NULL;
    }
  leaf = g_new0 (FilterLeaf, 1);
  leaf->kind = LEAF_STACK;
  /* != is "no frame is": the frames are tested with == and the stack's answer inverted. */
  if (!_seismo_filter_str_pred_init (p, &leaf->str, op == FILTER_OP_NE ? FILTER_OP_EQ : op, value))
    {
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  (void) field;

  frame_match = g_new0 (guint8, MAX (n_frames, 1));
  for (guint f = 0; f < n_frames; f++)
    {
      g_autofree char *name = seismo_frame_display_name (seismo_trace_get_frame (trace, f));

      frame_match[f] = _seismo_str_pred_match (&leaf->str, name);
    }
  leaf->n_stack_table = MAX (n_stacks, 1);
  leaf->stack_table = g_new0 (guint8, leaf->n_stack_table);
  for (SeismoStackId s = 1; s < n_stacks; s++)
    {
      const SeismoFrameId *frames;
      guint n = seismo_trace_stack_frames (trace, s, &frames);
      gboolean has = FALSE;

      for (guint k = 0; k < n && !has; k++)
        has = frames[k] < n_frames && frame_match[frames[k]];
      leaf->stack_table[s] = op == FILTER_OP_NE ? !has : has;
      any |= leaf->stack_table[s];
    }
  /* A trace without stacks, or no stack that matches: nothing does. */
  if (!any)
    {
      _seismo_filter_leaf_free (leaf);
      return _seismo_filter_node_const (FALSE);
    }
  return _seismo_filter_leaf_node (p, leaf);
}

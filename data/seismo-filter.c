/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-filter"

#include <stdarg.h>
#include <string.h>

#include "seismo-filter-private.h"
#include "seismo-syscalls.h"

/*
 * The filter compiler: a recursive-descent parser over the lexer's tokens (seismo-filter-lex.c)
 * that hands each comparison to the name resolution (seismo-filter-compile.c) and joins the
 * leaves into a tree, folding constants. Errors carry the byte range they are about in an
 * extended GError, so the filter bar can underline it and the CLI can put a caret under it.
 */

/* Parentheses and '!' nest at most this deep, so a hostile expression cannot exhaust the stack. */
#define MAX_DEPTH 200

typedef struct {
  gsize start;
  gsize end;
} SeismoFilterErrorPrivate;

static void
seismo_filter_error_private_init (SeismoFilterErrorPrivate *priv)
{
  if (priv != NULL)
    priv->start = priv->end = 0;
}

static void
seismo_filter_error_private_copy (const SeismoFilterErrorPrivate *src,
                                  SeismoFilterErrorPrivate       *dst)
{
  if (src != NULL && dst != NULL)
    *dst = *src;
}

static void
seismo_filter_error_private_clear (SeismoFilterErrorPrivate *priv)
{
  /* The range is two numbers: nothing to free. */
}

G_DEFINE_EXTENDED_ERROR (SeismoFilterError, seismo_filter_error)

G_DEFINE_BOXED_TYPE (SeismoFilter, seismo_filter, seismo_filter_ref, seismo_filter_unref)

gboolean
seismo_filter_error_get_range (const GError *error,
                               gsize        *start,
                               gsize        *end)
{
  const SeismoFilterErrorPrivate *priv;

  if (error == NULL || error->domain != SEISMO_FILTER_ERROR)
    return FALSE;
  if ((priv = seismo_filter_error_get_private (error)) == NULL)
    return FALSE;
  if (start)
    *start = priv->start;
  if (end)
    *end = priv->end;
  return TRUE;
}

gsize
seismo_filter_error_column (const GError *error)
{
  gsize start = 0;

  seismo_filter_error_get_range (error, &start, NULL);
  return start;
}

/* ---- tree ---- */

void
_seismo_filter_leaf_free (FilterLeaf *leaf)
{
  if (leaf == NULL)
    return;
  g_free (leaf->task_table);
  g_free (leaf->seg_bits);
  g_free (leaf->rules);
  g_free (leaf->type_table);
  _seismo_str_pred_clear (&leaf->str);
  g_free (leaf->syscall_bits);
  g_free (leaf->string_bits);
  g_free (leaf->span_mask);
  g_free (leaf->stack_table);
  g_free (leaf);
}

void
_seismo_filter_node_free (FilterNode *node)
{
  if (node == NULL)
    return;
  for (guint i = 0; i < node->n_children; i++)
    _seismo_filter_node_free (node->children[i]);
  g_free (node->children);
  g_free (node);
}

FilterNode *
_seismo_filter_node_const (gboolean value)
{
  FilterNode *node = g_new0 (FilterNode, 1);

  node->kind = value ? NODE_TRUE : NODE_FALSE;
  return node;
}

static FilterNode *
node_not (FilterNode *child)
{
  FilterNode *node;

  if (child->kind == NODE_TRUE || child->kind == NODE_FALSE)
    {
      child->kind = child->kind == NODE_TRUE ? NODE_FALSE : NODE_TRUE;
      return child;
    }
  if (child->kind == NODE_NOT)
    {
      node = child->children[0];
      child->n_children = 0;
      _seismo_filter_node_free (child);
      return node;
    }
  node = g_new0 (FilterNode, 1);
  node->kind = NODE_NOT;
  node->children = g_new (FilterNode *, 1);
  node->children[0] = child;
  node->n_children = 1;
  return node;
}

/* Joins children under AND or OR, flattening nested joins of the same kind and folding
 * constants. */
static FilterNode *
node_join (FilterNodeKind  kind,
           GPtrArray      *children)
{
  FilterNodeKind absorb = kind == NODE_AND ? NODE_FALSE : NODE_TRUE;
  FilterNodeKind neutral = kind == NODE_AND ? NODE_TRUE : NODE_FALSE;
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  FilterNode *node;

  for (guint i = 0; i < children->len; i++)
    {
      FilterNode *c = g_ptr_array_index (children, i);

      if (c->kind == absorb)
        {
          /* children frees what it still holds (its free func) when emptied below; c is returned. */
          g_ptr_array_index (children, i) = NULL;
          for (guint j = 0; j < kept->len; j++)
            _seismo_filter_node_free (g_ptr_array_index (kept, j));
          g_ptr_array_set_size (children, 0);
          return c;
        }
      if (c->kind == neutral)
        {
          _seismo_filter_node_free (c);
          g_ptr_array_index (children, i) = NULL;
          continue;
        }
      g_ptr_array_index (children, i) = NULL;
      if (c->kind == kind)
        {
          for (guint j = 0; j < c->n_children; j++)
            g_ptr_array_add (kept, c->children[j]);
          c->n_children = 0;
          _seismo_filter_node_free (c);
        }
      else
        g_ptr_array_add (kept, c);
    }
  g_ptr_array_set_size (children, 0);
  if (kept->len == 0)
    return _seismo_filter_node_const (kind == NODE_AND);
  if (kept->len == 1)
    return g_ptr_array_index (kept, 0);
  node = g_new0 (FilterNode, 1);
  node->kind = kind;
  node->n_children = kept->len;
  node->children = (FilterNode **) g_ptr_array_free (g_steal_pointer (&kept), FALSE);
  return node;
}

static guint
node_height (const FilterNode *node)
{
  guint h = 0;

  for (guint i = 0; i < node->n_children; i++)
    h = MAX (h, node_height (node->children[i]));
  return h + 1;
}

/* ---- parser ---- */

void
_seismo_filter_parser_error (Parser            *p,
                             SeismoFilterError  code,
                             gsize              start,
                             gsize              end,
                             const char        *format,
                             ...)
{
  va_list args;
  SeismoFilterErrorPrivate *priv;

  if (p->error != NULL)
    return;
  va_start (args, format);
  p->error = g_error_new_valist (SEISMO_FILTER_ERROR, code, format, args);
  va_end (args);
  if ((priv = seismo_filter_error_get_private (p->error)) != NULL)
    {
      priv->start = start;
      priv->end = end;
    }
}

static const FilterTok *
peek (Parser *p)
{
  return &g_array_index (p->toks, FilterTok, p->pos);
}

static const FilterTok *
peek_at (Parser *p,
         guint   offset)
{
  guint i = MIN (p->pos + offset, p->toks->len - 1);

  return &g_array_index (p->toks, FilterTok, i);
}

static const FilterTok *
next (Parser *p)
{
  const FilterTok *tok = peek (p);

  if (tok->type != TOK_END)
    p->pos++;
  return tok;
}

/* A short quote of a token's source for messages. */
char *
_seismo_filter_tok_quote (Parser          *p,
                          const FilterTok *tok)
{
  if (tok->type == TOK_END)
    return g_strdup (_("the end"));
  return g_strdup_printf ("'%.*s'", (int) (tok->end - tok->start), p->text + tok->start);
}


static FilterNode *parse_or (Parser *p);

static FilterNode *
parse_primary (Parser *p)
{
  const FilterTok *tok = peek (p);
  g_autofree char *what = NULL;

  switch (tok->type)
    {
    case TOK_LPAREN:
      {
        const FilterTok *open = next (p);
        FilterNode *inner;

        if (peek (p)->type == TOK_RPAREN)
          {
            _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, peek (p)->start,
                                         peek (p)->end,
                                         _("these parentheses are empty: put a condition inside"));
            return NULL;
          }
        if (!(inner = parse_or (p)))
          return NULL;
        if (peek (p)->type != TOK_RPAREN)
          {
            const FilterTok *at = peek (p);

            _seismo_filter_node_free (inner);
            if (at->type == TOK_END)
              _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, at->start, at->end,
                                           _("missing ')' to close the '(' at column %u"),
                                           open->start + 1);
            else
              {
                what = _seismo_filter_tok_quote (p, at);
                _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, at->start, at->end,
                                             _("expected '&&', '||' or ')' before %s"), what);
              }
            return NULL;
          }
        next (p);
        return inner;
      }

    case TOK_WORD:
    case TOK_STRING:
      if (peek_at (p, 1)->type == TOK_CMP)
        {
          const FilterTok *field = next (p);
          const FilterTok *op = next (p);
          const FilterTok *value = peek (p);

          if (value->type == TOK_BAD)
            {
              _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, value->start, value->end,
                                           "%s", value->text);
              return NULL;
            }
          if (value->type != TOK_WORD && value->type != TOK_STRING)
            {
              what = _seismo_filter_tok_quote (p, value);
              _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, value->start, value->end,
                                           _("expected a value after '%s', found %s"),
                                           _seismo_filter_op_to_string (op->op), what);
              return NULL;
            }
          next (p);
          return _seismo_filter_compile_comparison (p, field, op, value);
        }
      if (peek_at (p, 1)->type == TOK_NOT && peek_at (p, 2)->type == TOK_CMP &&
          peek_at (p, 2)->start == peek_at (p, 1)->end)
        {
          const FilterTok *op = peek_at (p, 2);

          _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, peek_at (p, 1)->start,
                                       op->end, _("'!%s' is not an operator: write !(%s %s …)"),
                                       _seismo_filter_op_to_string (op->op), tok->text,
                                       _seismo_filter_op_to_string (op->op));
          return NULL;
        }
      if (peek_at (p, 1)->type == TOK_BAD)
        {
          const FilterTok *bad = peek_at (p, 1);

          _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, bad->start, bad->end, "%s",
                                       bad->text);
          return NULL;
        }
      next (p);
      return _seismo_filter_compile_event_word (p, tok);

    case TOK_CMP:
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                   _("'%s' needs a field on its left, e.g. pid %s 1234"),
                                   _seismo_filter_op_to_string (tok->op),
                                   _seismo_filter_op_to_string (tok->op));
      return NULL;

    case TOK_AND:
    case TOK_OR:
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                   _("'%s' needs a condition on its left"),
                                   tok->type == TOK_AND ? "&&" : "||");
      return NULL;

    case TOK_RPAREN:
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                   _("expected a condition before ')'"));
      return NULL;

    case TOK_END:
      {
        const FilterTok *prev = p->pos > 0 ? &g_array_index (p->toks, FilterTok, p->pos - 1) : NULL;

        if (prev && (prev->type == TOK_AND || prev->type == TOK_OR || prev->type == TOK_NOT ||
                     prev->type == TOK_LPAREN))
          _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                       _("expected a condition after '%.*s'"),
                                       (int) (prev->end - prev->start), p->text + prev->start);
        else
          _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                       _("expected a condition"));
        return NULL;
      }

    case TOK_BAD:
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end, "%s",
                                   tok->text);
      return NULL;

    case TOK_NOT:
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

static FilterNode *
parse_unary (Parser *p)
{
  FilterNode *child;

  if (peek (p)->type != TOK_NOT)
    return parse_primary (p);
  if (++p->depth > MAX_DEPTH)
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, peek (p)->start, peek (p)->end,
                                   _("the expression nests too deeply"));
      return NULL;
    }
  next (p);
  if (!(child = parse_unary (p)))
    return NULL;
  p->depth--;
  return node_not (child);
}

static FilterNode *
parse_join (Parser        *p,
            FilterTokType  op)
{
  g_autoptr(GPtrArray) children = NULL;
  FilterNode *child;

  children = g_ptr_array_new_with_free_func ((GDestroyNotify) _seismo_filter_node_free);
  child = op == TOK_OR ? parse_join (p, TOK_AND) : parse_unary (p);
  if (child == NULL)
    return NULL;
  g_ptr_array_add (children, child);
  while (peek (p)->type == op)
    {
      next (p);
      child = op == TOK_OR ? parse_join (p, TOK_AND) : parse_unary (p);
      if (child == NULL)
        return NULL;
      g_ptr_array_add (children, child);
    }
  if (children->len == 1)
    return g_ptr_array_steal_index (children, 0);
  return node_join (op == TOK_OR ? NODE_OR : NODE_AND, children);
}

static FilterNode *
parse_or (Parser *p)
{
  FilterNode *node;

  if (++p->depth > MAX_DEPTH)
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, peek (p)->start, peek (p)->end,
                                   _("the expression nests too deeply"));
      return NULL;
    }
  node = parse_join (p, TOK_OR);
  p->depth--;
  return node;
}

static void
trailing_error (Parser *p)
{
  const FilterTok *tok = peek (p);
  const FilterTok *prev = p->pos > 0 ? &g_array_index (p->toks, FilterTok, p->pos - 1) : NULL;
  g_autofree char *what = _seismo_filter_tok_quote (p, tok);

  if (tok->type == TOK_RPAREN)
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                 _("unexpected ')': there is no '(' to close"));
  else if (tok->type == TOK_BAD)
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end, "%s",
                                 tok->text);
  else if (tok->type == TOK_WORD && (g_ascii_strcasecmp (tok->text, "and") == 0 ||
                                     g_ascii_strcasecmp (tok->text, "or") == 0))
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                 _("write '%s' instead of '%s'"),
                                 g_ascii_strcasecmp (tok->text, "and") == 0 ? "&&" : "||",
                                 tok->text);
  else if (tok->type == TOK_CMP)
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                 _("'%s' needs a field on its left; to compare more, join "
                                   "comparisons with && or ||"),
                                 _seismo_filter_op_to_string (tok->op));
  else if (tok->type == TOK_WORD && prev && prev->type == TOK_WORD && p->pos >= 2 &&
           g_array_index (p->toks, FilterTok, p->pos - 2).type == TOK_CMP)
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                 _("expected '&&' or '||' before %s (put text with spaces in quotes)"),
                                 what);
  else
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                 _("expected '&&' or '||' before %s"), what);
}

static void
filter_free (SeismoFilter *self)
{
  _seismo_filter_node_free (self->root);
  g_clear_pointer (&self->leaves, g_ptr_array_unref);
  g_clear_object (&self->trace);
  g_free (self->expression);
  g_free (self->seg_off);
  g_free (self->seg_time);
  g_free (self->seg_comm);
  g_mutex_clear (&self->prepare_lock);
}

SeismoFilter *
seismo_filter_compile (SeismoTrace  *trace,
                       const char   *expression,
                       GError      **error)
{
  g_autoptr(GArray) toks = NULL;
  SeismoFilter *self;
  Parser p = { 0 };
  FilterNode *root = NULL;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_atomic_rc_box_new0 (SeismoFilter);
  self->trace = g_object_ref (trace);
  self->expression = g_strdup (expression);
  self->leaves = g_ptr_array_new_with_free_func ((GDestroyNotify) _seismo_filter_leaf_free);
  g_mutex_init (&self->prepare_lock);

  toks = _seismo_filter_lex (expression);
  p.filter = self;
  p.trace = trace;
  p.text = expression;
  p.toks = toks;
  p.arch = seismo_arch_from_string (seismo_trace_get_metadata (trace, SEISMO_META_ARCH));

  if (!g_utf8_validate (expression, -1, NULL))
    _seismo_filter_parser_error (&p, SEISMO_FILTER_ERROR_SYNTAX, 0, strlen (expression),
                                 _("the expression is not valid UTF-8 text"));
  else if (peek (&p)->type == TOK_END)
    root = _seismo_filter_node_const (TRUE);
  else if ((root = parse_or (&p)) != NULL && peek (&p)->type != TOK_END)
    {
      trailing_error (&p);
      g_clear_pointer (&root, _seismo_filter_node_free);
    }
  g_clear_pointer (&p.field_names, g_ptr_array_unref);

  if (root == NULL)
    {
      g_assert (p.error != NULL);
      g_propagate_error (error, p.error);
      seismo_filter_unref (self);
      return NULL;
    }
  self->root = root;
  self->height = node_height (root);
  return self;
}

SeismoFilter *
seismo_filter_ref (SeismoFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
seismo_filter_unref (SeismoFilter *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, (GDestroyNotify) filter_free);
}

SeismoTrace *
seismo_filter_get_trace (SeismoFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->trace;
}

const char *
seismo_filter_get_expression (SeismoFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->expression;
}

gboolean
seismo_filter_matches_all (SeismoFilter *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->root->kind == NODE_TRUE;
}

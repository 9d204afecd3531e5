/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The compiled form of a filter, shared by the compiler (seismo-filter.c), the evaluator
 * (seismo-filter-eval.c) and the completion code (seismo-filter-complete.c).
 *
 * An expression compiles into a tree of AND/OR/NOT nodes over leaves. Each leaf is one comparison
 * reduced to the cheapest test the trace allows: an index range over the sorted time column, a
 * range test on the cpu column, a per-task table (pid, tid, comm) or a per-event-type rule
 * (event names are constant per type; payload fields are decoded from the type's field index
 * resolved at compile time; syscall span fields read a mask prepared from the spans).
 */

#include "seismo-filter.h"
#include "seismo-syscalls.h"
#include "seismo-trace-private.h"

G_BEGIN_DECLS

typedef enum {
  FILTER_OP_EQ,
  FILTER_OP_NE,
  FILTER_OP_LT,
  FILTER_OP_LE,
  FILTER_OP_GT,
  FILTER_OP_GE,
  FILTER_OP_GLOB,
  FILTER_OP_REGEX,
} FilterOp;

typedef enum {
  TOK_END,
  TOK_LPAREN,
  TOK_RPAREN,
  TOK_AND,
  TOK_OR,
  TOK_NOT,
  TOK_CMP,
  TOK_WORD,
  TOK_STRING,
  TOK_BAD,
} FilterTokType;

typedef struct {
  FilterTokType type;
  FilterOp      op;      /* TOK_CMP */
  guint         start;
  guint         end;
  char         *text;    /* WORD: the word; STRING: the unescaped contents; BAD: why */
} FilterTok;

/* Splits text into FilterToks ending with TOK_END; the array frees each token's text. */
GArray     *_seismo_filter_lex          (const char *text);
const char *_seismo_filter_op_to_string (FilterOp    op);
/* Whether text would lex as one word (else it needs quotes). */
gboolean    _seismo_filter_is_word      (const char *text);
/* Whether a word looks like a number (starts with a digit, a sign or a dot before a digit). */
gboolean    _seismo_filter_is_numeric   (const char *word);

/* One test on a 64-bit value, folded from a comparison against a constant: the value matches when
 * ((v - lo) <= width) != negate. Signed values are biased (sign bit flipped) before the test so
 * that one unsigned comparison serves both. */
typedef struct {
  guint64  lo;
  guint64  width;
  gboolean negate;
} NumRange;

#define FILTER_SIGN_BIAS G_GUINT64_CONSTANT (0x8000000000000000)

static inline gboolean
num_range_match (const NumRange *r,
                 guint64         biased)
{
  return ((biased - r->lo) <= r->width) != r->negate;
}

/* A comparison of text against a constant, a glob or a regex. */
typedef struct {
  FilterOp      op;
  char         *text;
  GPatternSpec *glob;
  GRegex       *regex;
} StrPred;

gboolean    _seismo_str_pred_match      (const StrPred *pred,
                                         const char    *text);

typedef enum {
  RULE_FALSE = 0,   /* events of this type never match */
  RULE_TRUE,        /* events of this type always match */
  RULE_NUMBER,      /* payload field compared with range */
  RULE_STRING,      /* payload string field: its string id looked up in the leaf's string_bits */
  RULE_SPAN,        /* syscall event: its bit in the leaf's span_mask */
} RuleMode;

typedef struct {
  guint8   mode;
  guint8   field_type;   /* SeismoFieldType of the payload field */
  guint8   plain;        /* every field before it is a single varint */
  guint16  field;        /* index in the type's schema */
  NumRange range;        /* RULE_NUMBER, on biased values; per type as symbols differ per type */
} TypeRule;

typedef enum {
  LEAF_TIME,   /* events [time_first, time_last) of the sorted time column */
  LEAF_CPU,    /* range on the cpu column */
  LEAF_TASK,   /* task_table per task; 2 = the comm changes over time, see comm segments */
  LEAF_TYPE,   /* rules per event type */
  LEAF_STACK,  /* stack_table per stack id (seismo-filter-stack.c) */
} LeafKind;

typedef enum {
  SPAN_SYSCALL,
  SPAN_DURATION,
  SPAN_RET,
  SPAN_ERRNO,
} SpanAttr;

typedef struct {
  LeafKind   kind;
  NumRange   range;        /* CPU; SPAN numbers (biased as signed for ret/errno) */
  gboolean   negate;       /* TIME */
  gsize      time_first;
  gsize      time_last;
  guint8    *task_table;   /* TASK: n_tasks entries */
  guint8    *seg_bits;     /* TASK comm: one per comm segment of the filter */
  TypeRule  *rules;        /* TYPE: n_types */
  guint8    *type_table;   /* TYPE: 0/1 for RULE_FALSE/TRUE, 2 when events must be looked at */
  gboolean   table_only;   /* TYPE: every rule is FALSE or TRUE */
  gboolean   span_only;    /* TYPE: every rule is FALSE or SPAN: the result is the span mask */
  gboolean   has_strings;  /* TYPE: some rule is RULE_STRING */
  gboolean   has_span;     /* TYPE: some rule is RULE_SPAN */
  SpanAttr   span_attr;
  gboolean   span_signed;
  StrPred    str;          /* comm, event, syscall, payload strings */
  guint64   *syscall_bits; /* SPAN_SYSCALL: over the trace's syscall names */
  /* Filled by _seismo_filter_prepare(). */
  guint64   *string_bits;  /* over the trace's string ids */
  guint64   *span_mask;    /* over events */
  guint8    *stack_table;  /* STACK: 0/1 per stack id (id 0, no stack: 0) */
  guint      n_stack_table;
} FilterLeaf;

typedef enum {
  NODE_FALSE,
  NODE_TRUE,
  NODE_LEAF,
  NODE_NOT,
  NODE_AND,
  NODE_OR,
} FilterNodeKind;

typedef struct _FilterNode FilterNode;
struct _FilterNode {
  FilterNodeKind kind;
  FilterLeaf    *leaf;
  FilterNode   **children;
  guint          n_children;
};

struct _SeismoFilter {
  SeismoTrace   *trace;
  char          *expression;
  FilterNode    *root;
  guint          height;        /* levels of the tree, for scratch buffers */
  GPtrArray     *leaves;        /* FilterLeaf*, owned */

  /* Comm changes grouped by task, for comm tests on renamed tasks: task t's segments are
   * [seg_off[t], seg_off[t + 1]) with their start times and comms. */
  guint         *seg_off;
  guint64       *seg_time;
  SeismoStringId *seg_comm;
  guint          n_segs;

  GMutex         prepare_lock;
  gint           prepared;      /* atomic */
};

/* Computes what leaves need from the whole trace, once (thread-safe). */
void        _seismo_filter_prepare      (SeismoFilter *self);
void        _seismo_filter_leaf_free    (FilterLeaf   *leaf);
void        _seismo_filter_node_free    (FilterNode   *node);

typedef enum {
  UNIT_NONE,
  UNIT_TIME,
  UNIT_SIZE,
} UnitKind;

/* A number as written: sign, magnitude (units applied) and which unit it had. */
typedef struct {
  gboolean neg;
  guint64  mag;
  UnitKind unit;
  char     unit_name[8];
} Quantity;

typedef enum {
  RANGE_NONE,   /* no value matches */
  RANGE_ALL,    /* every value matches */
  RANGE_SOME,
} RangeResult;

/* Parses [+-] (0x hex | digits [. digits]) [unit]; FALSE with *why (caller frees) otherwise. */
gboolean    _seismo_filter_quantity_parse  (const char      *text,
                                            Quantity        *q,
                                            char           **why);
/* Folds "v op q" into r, over biased values when is_signed. */
RangeResult _seismo_filter_num_range_make  (FilterOp         op,
                                            const Quantity  *q,
                                            gboolean         is_signed,
                                            NumRange        *r);
void        _seismo_str_pred_clear         (StrPred         *pred);
gboolean    _seismo_filter_has_glob        (const char      *text);

/* The parser's state, shared with the name resolution. */
typedef struct {
  SeismoFilter *filter;
  SeismoTrace  *trace;
  const char   *text;
  GArray       *toks;
  guint         pos;
  guint         depth;
  GError       *error;
  SeismoArch    arch;
  GPtrArray    *field_names;   /* unique payload field names, built on demand */
} Parser;

/* Sets the parse error (the first one wins) on [start, end) of the text. */
void        _seismo_filter_parser_error    (Parser            *p,
                                            SeismoFilterError  code,
                                            gsize              start,
                                            gsize              end,
                                            const char        *format,
                                            ...) G_GNUC_PRINTF (5, 6);
/* "'text'" of a token, or "the end". Caller frees. */
char       *_seismo_filter_tok_quote       (Parser            *p,
                                            const FilterTok   *tok);
FilterNode *_seismo_filter_node_const      (gboolean           value);
/* A comparison "field op value" or a bare event name or glob, as a leaf or a constant. NULL with
 * the parser's error set when a name or value is wrong. */
FilterNode *_seismo_filter_compile_comparison (Parser          *p,
                                               const FilterTok *field,
                                               const FilterTok *op_tok,
                                               const FilterTok *value);
FilterNode *_seismo_filter_compile_event_word (Parser          *p,
                                               const FilterTok *tok);
/* "stack OP value": events whose stack has a frame named so (seismo-filter-stack.c). */
FilterNode *_seismo_filter_compile_stack      (Parser          *p,
                                               const FilterTok *field,
                                               const FilterTok *op_tok,
                                               const FilterTok *value);
gboolean    _seismo_filter_str_pred_init      (Parser          *p,
                                               StrPred         *pred,
                                               FilterOp         op,
                                               const FilterTok *value);
FilterNode *_seismo_filter_leaf_node          (Parser          *p,
                                               FilterLeaf      *leaf);

/* The candidate with the smallest edit distance to word, or NULL when none is close. */
const char *_seismo_filter_suggest      (const char         *word,
                                         const char *const  *candidates,
                                         guint               n_candidates);

/* Built-in field names and what they mean, for completion and suggestions. */
typedef struct {
  const char *name;
  const char *detail;
  const char *example;   /* a value it could be compared with */
} FilterBuiltin;

const FilterBuiltin *_seismo_filter_builtins (guint *n_builtins);

G_END_DECLS

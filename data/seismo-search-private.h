/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What seismo_trace_search() works out once per search (seismo-search-plan.c) and reads events
 * with (seismo-search.c). */

#include <gio/gio.h>

#include "seismo-trace-private.h"

G_BEGIN_DECLS

typedef enum {
  TYPE_NEVER,    /* the text can never hold the needle: only the task can match */
  TYPE_ALL,      /* the type's name or a literal piece of its print format holds it */
  TYPE_FIELDS,   /* read the fields that could hold it */
  TYPE_FORMAT,   /* it could span a literal piece and a field: look in the formatted text */
} TypeMode;

typedef enum {
  FIELD_SKIP,    /* never holds the needle, or is not shown */
  FIELD_STRING,  /* interned string: one answer per string */
  FIELD_NUMBER,  /* shown as a plain number, and the needle is made of number characters */
  FIELD_CACHED,  /* shown as a name from a table: one answer per value */
  FIELD_FORMAT,  /* bytes and arrays: the value alone is formatted */
} FieldTest;

/* How a field is read: its type and test in one switch, the quick ones for plain varints and
 * arrays looked at element by element. */
typedef enum {
  OP_END,           /* after the last field read: no match */
  OP_READ,          /* a varint not looked at */
  OP_STRING,
  OP_NUMBER,
  OP_CACHED,
  OP_ELEMENTS,      /* an array whose elements are each looked at */
  OP_HEX_ELEMENTS,  /* the same, shown in hex, the needle's windows compared as stored (hex_spread) */
  OP_OTHER,         /* bytes, arrays read whole, a literal " name=": the general way */
} FieldOp;

typedef struct {
  guint8 op;         /* FieldOp */
  guint8 test;       /* FieldTest */
  guint8 literal;    /* no print format: the " name=" before this field holds the needle */
  guint8 number;     /* the field's plain number rendering could hold the needle */
  guint8 plain_out;  /* FIELD_CACHED: outside the cached range the value shows as a number */
  guint8 elements;   /* FIELD_FORMAT of an array: the needle can only lie inside one element */
  guint8 zigzag;     /* a signed field: its varint is zigzag encoded */
  guint8 hex;        /* an array shown in hex */
  guint  slot;       /* FIELD_CACHED: index of the per-thread cache */
} FieldPlan;

typedef struct {
  const SeismoEventType *type;
  TypeMode               mode;
  gboolean               damage_matters;  /* a damaged payload's text ({name}, the note) could hold it */
  guint                  n_read;          /* fields to read when damage does not matter */
  FieldPlan             *fields;          /* n_fields + 1; fields[n_read].op is OP_END */
} TypePlan;

#define SEARCH_FEW_WINDOWS 3

typedef struct {
  SeismoTrace        *trace;
  const guint8       *readable;     /* the end of the trace's payloads: values are loaded 8 bytes at once */
  const char         *needle;
  char               *lower_needle;
  guint64             min_decimal;  /* values below have fewer digits than the needle has characters */
  guint64             min_hex;
  guint64             min_hex_0x;   /* the same for "0x…" */
  guint               long_decimal; /* varints of fewer bytes are below min_decimal */
  guint               long_hex;     /* and below min_hex */
  /* A needle of 2 to 16 hex digits is found in a hex number by comparing nibbles, not text. */
  gboolean            hex_needle;
  guint64             hex_value;
  guint64             hex_mask;     /* the needle's nibbles */
  /* A hex needle not starting with "0" is compared with a varint's bytes as stored, one window
   * (the needle's nibbles shifted by 4s) at a time, its bits spread 7 to a byte: the windows
   * that can lie within a value of k bytes are the first window_count[k]; a match needs no digit
   * count, the needle's first nibble being set. */
  gboolean            hex_spread;
  guint8              window_count[9];
  guint64             window_mask[16];
  guint64             window_value[16];
  /* With at most SEARCH_FEW_WINDOWS windows in any value (needles of 11 digits or more), a value
   * of k bytes is compared with all of len_mask[k] and len_value[k] at once, without a branch
   * on how many it has: the missing ones never match (mask 0, value 1). */
  gboolean            few_windows;
  guint64             len_mask[9][SEARCH_FEW_WINDOWS];
  guint64             len_value[9][SEARCH_FEW_WINDOWS];
  gsize               needle_len;
  SeismoEventId       from;
  gboolean            backward;
  gsize               n;
  guint               n_types;
  TypePlan           *types;
  guint               n_tasks;
  guint8             *task_match;
  gboolean            any_task;     /* some task_match is set */
  guint               n_strings;
  guint8             *string_match;
  guint               n_slots;
  gint8               errno_names;  /* an errno's "-1 NAME (message)" could hold it: 0 unknown, 1 no, 2 yes */
  GCancellable       *cancellable;
  /* The search order cut at block ends: threads take the pieces in turn (seismo-search.c). */
  struct _SearchPiece *pieces;
  guint               n_pieces;
  gint                first_found;  /* the first piece in search order with a match so far */
} SearchContext;

/* As format_uint() shows what no table names: hex for pointers and hex fields, else decimal. */
static inline gboolean
shows_hex (const SeismoField *field)
{
  return field->display == SEISMO_DISPLAY_HEX || field->type == SEISMO_FIELD_POINTER;
}

/* Fills ctx's tables and type plans for ctx->needle; FALSE when no event can match at all.
 * format_text: every type not matched by name is looked for in the formatted text. */
gboolean _seismo_search_plan       (SearchContext *ctx,
                                    gboolean       format_text);
void     _seismo_search_plan_clear (SearchContext *ctx);

G_END_DECLS

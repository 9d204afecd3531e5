/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoFilter: a filter expression compiled against one trace (the language is described in
 * docs/filter-language.md).
 *
 *   g_autoptr(GError) error = NULL;
 *   g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, "cpu == 1 && !sched:*", &error);
 *   gsize n_matched;
 *   g_autofree guint64 *mask = seismo_filter_run (filter, &n_matched, cancellable);
 *   SeismoSelection selection = { 0, G_MAXUINT64, mask };
 *
 * Compiling parses the text and resolves every name against the trace's event types; it is cheap
 * (no pass over the events), so a filter bar may compile on every keystroke to mark errors.
 * Running evaluates all events into a bitmask, bit i of mask[i / 64] being event i, on several
 * threads for large traces. The first run also prepares what some comparisons need (string
 * tables for payload strings, syscall spans for duration/ret/errno), which costs one pass over
 * the strings or the spans. A compiled filter is immutable and may be run from any thread, also
 * concurrently; it holds a reference on its trace.
 */
typedef struct _SeismoFilter SeismoFilter;

/* A boxed type (ref/unref), for properties and signals. */
#define SEISMO_TYPE_FILTER (seismo_filter_get_type ())
GType         seismo_filter_get_type          (void) G_GNUC_CONST;

#define SEISMO_FILTER_ERROR (seismo_filter_error_quark ())

/* Every error from seismo_filter_compile() is in this domain and carries the byte range of the
 * text it is about: see seismo_filter_error_get_range(). */
typedef enum {
  SEISMO_FILTER_ERROR_SYNTAX,         /* a missing or misplaced token */
  SEISMO_FILTER_ERROR_UNKNOWN_FIELD,  /* no built-in field and no event type has this field */
  SEISMO_FILTER_ERROR_UNKNOWN_EVENT,  /* no event type of the trace has this name */
  SEISMO_FILTER_ERROR_BAD_VALUE,      /* a number, name or regex the field cannot take */
  SEISMO_FILTER_ERROR_BAD_OPERATOR,   /* an operator the field cannot take (~ on a number) */
} SeismoFilterError;

GQuark        seismo_filter_error_quark       (void);
/* The byte range [start, end) of the expression an error is about; FALSE when error is not a
 * SEISMO_FILTER_ERROR. end == start marks a place (e.g. where a value is missing). */
gboolean      seismo_filter_error_get_range   (const GError  *error,
                                               gsize         *start,
                                               gsize         *end);
/* The byte offset where the error's range starts (0 for errors of other domains). */
gsize         seismo_filter_error_column      (const GError  *error);

/* Returns a new filter, or NULL with error set (SEISMO_FILTER_ERROR). An empty or blank
 * expression matches every event. */
SeismoFilter *seismo_filter_compile           (SeismoTrace   *trace,
                                               const char    *expression,
                                               GError       **error);
SeismoFilter *seismo_filter_ref               (SeismoFilter  *self);
void          seismo_filter_unref             (SeismoFilter  *self);
/* Borrowed; live as long as the filter. */
SeismoTrace  *seismo_filter_get_trace         (SeismoFilter  *self);
const char   *seismo_filter_get_expression    (SeismoFilter  *self);
/* TRUE when the expression matches every event (e.g. it is empty). */
gboolean      seismo_filter_matches_all       (SeismoFilter  *self);

/* Words in a mask for n_events events. */
static inline gsize
seismo_filter_mask_words (gsize n_events)
{
  return (n_events + 63) / 64;
}

/* Evaluates every event. Returns a new mask of seismo_filter_mask_words(n_events) words (bits past
 * the last event are 0) that the caller frees with g_free(), or NULL when cancelled. */
guint64      *seismo_filter_run               (SeismoFilter  *self,
                                               gsize         *n_matched,
                                               GCancellable  *cancellable);
/* Evaluates events [first, last) into mask, which holds seismo_filter_mask_words(n_events) words;
 * bits outside the range are left as they are, so a caller can fill a mask slice by slice to show
 * progress. n_threads 0 picks a count from the processors and the range's size (one thread below
 * about 500 000 events). *n_matched counts matches in the range. Returns FALSE when cancelled
 * (the range is then partly written). */
gboolean      seismo_filter_run_range         (SeismoFilter  *self,
                                               SeismoEventId  first,
                                               SeismoEventId  last,
                                               guint          n_threads,
                                               guint64       *mask,
                                               gsize         *n_matched,
                                               GCancellable  *cancellable);
/* Whether one event matches (same result as its bit from a run). */
gboolean      seismo_filter_match             (SeismoFilter  *self,
                                               SeismoEventId  event);

/* Parses a quantity as the filter language does: "1500", "10us", "1.5ms", "2s", "4k", "0x10".
 * Bare numbers are nanoseconds or plain counts. FALSE with a message in error when it is not
 * one (or is negative). */
gboolean      seismo_filter_parse_quantity    (const char    *text,
                                               guint64       *value,
                                               GError       **error);

/* Tokens for syntax highlighting. Kinds follow each token's role in the expression. */
typedef enum {
  SEISMO_FILTER_TOKEN_FIELD,     /* before a comparison: pid, prev_state, sched_wakeup.pid */
  SEISMO_FILTER_TOKEN_COMPARE,   /* == != < <= > >= ~ =~ */
  SEISMO_FILTER_TOKEN_LOGIC,     /* && || ! */
  SEISMO_FILTER_TOKEN_PAREN,     /* ( ) */
  SEISMO_FILTER_TOKEN_NUMBER,    /* a value that is a number: 42, -2, 0x1f, 10us, 4k */
  SEISMO_FILTER_TOKEN_STRING,    /* a quoted value: "a b", 'x' */
  SEISMO_FILTER_TOKEN_WORD,      /* an unquoted non-numeric value: ENOENT, S, openat, bash */
  SEISMO_FILTER_TOKEN_EVENT,     /* a bare event name or glob: sched:*, sys_enter* */
  SEISMO_FILTER_TOKEN_ERROR,     /* an unterminated string or a character that is no token */
} SeismoFilterTokenKind;

typedef struct {
  SeismoFilterTokenKind kind;
  guint                 start;   /* byte offsets into the text: [start, end) */
  guint                 end;
} SeismoFilterToken;

/* Splits text into tokens (works on incomplete text too). Returns a new GArray of
 * SeismoFilterToken in text order; caller owns it. */
GArray       *seismo_filter_tokenize          (const char    *text);

typedef enum {
  SEISMO_FILTER_CANDIDATE_FIELD,     /* a built-in or payload field name */
  SEISMO_FILTER_CANDIDATE_EVENT,     /* an event name or system glob, bare or after event == */
  SEISMO_FILTER_CANDIDATE_VALUE,     /* a value for the field before the operator */
  SEISMO_FILTER_CANDIDATE_OPERATOR,  /* a comparison or logic operator */
} SeismoFilterCandidateKind;

typedef struct {
  SeismoFilterCandidateKind kind;
  char                     *text;     /* what to insert, quoted when it has to be */
  char                     *detail;   /* a short description; may be NULL */
} SeismoFilterCandidate;

void          seismo_filter_candidate_free    (SeismoFilterCandidate *candidate);

/* Completions for the text at cursor (a byte offset): field and event names where a condition
 * starts, values seen in the trace after an operator, operators after a field or a value.
 * *replace_start and *replace_end (bytes) are the part of text a chosen candidate replaces.
 * Returns a new GPtrArray of SeismoFilterCandidate (frees its elements); caller owns it. */
GPtrArray    *seismo_filter_complete          (SeismoTrace   *trace,
                                               const char    *text,
                                               gsize          cursor,
                                               gsize         *replace_start,
                                               gsize         *replace_end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoFilter, seismo_filter_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoFilterCandidate, seismo_filter_candidate_free)

G_END_DECLS

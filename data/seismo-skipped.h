/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"
#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * Input a reader could not turn into events, counted by kind, so that nothing is dropped in
 * silence. The counts travel with the trace as metadata ("skipped:KIND" = count,
 * "skipped_example:KIND" = where and what the first one was), so a converted .seismo still says
 * what its source lacked.
 *
 * Kinds are short plural nouns a user understands: "trace_printk lines", "stack trace lines",
 * "records of unknown events".
 */
#define SEISMO_META_SKIPPED_PREFIX          "skipped:"
#define SEISMO_META_SKIPPED_EXAMPLE_PREFIX  "skipped_example:"

/* Adds n to the count of kind; example (may be NULL) describes the first one, e.g.
 * "line 5: <idle>-0 [000] ..." — kept only the first time the kind is noted. */
void     seismo_trace_builder_note_skipped (SeismoTraceBuilder *builder,
                                            const char         *kind,
                                            guint64             n,
                                            const char         *example);
/* The count noted so far for kind (0 when none). */
guint64  seismo_trace_builder_get_skipped  (SeismoTraceBuilder *builder,
                                            const char         *kind);

typedef struct {
  const char *kind;      /* borrowed from the trace */
  guint64     count;
  const char *example;   /* borrowed; NULL when none was noted */
} SeismoSkipped;

/* The kinds skipped, largest count first. Returns a new array of SeismoSkipped whose strings
 * belong to the trace. */
GArray  *seismo_trace_get_skipped          (SeismoTrace        *trace);
/* Everything skipped, all kinds added. */
guint64  seismo_trace_get_n_skipped        (SeismoTrace        *trace);
/* One sentence for a warning ("1566 trace_printk lines and 12 stack trace lines could not be
 * read"), or NULL when nothing was skipped. Caller frees. */
char    *seismo_trace_describe_skipped     (SeismoTrace        *trace);

G_END_DECLS

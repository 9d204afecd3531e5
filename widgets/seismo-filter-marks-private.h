/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-match-set.h"
#include "seismo-timeline-renderer.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * Where the filter overlay (seismo-filter-overlay.c) marks a row: the matching events of each CPU
 * and task row, found through a small index over the view's own set of matches (SeismoMatchSet,
 * read as an array by position) instead of a copy of every matching id per row (8 bytes a match).
 * The matches are cut into blocks of 16 consecutive matches; each row keeps the sorted list of
 * blocks holding at least one of its matches (16-bit block numbers in pages of 65 536 blocks),
 * and a directory of time slots (4 bytes per 16 matches: the first match's event in each) starts
 * a search for a time near its answer. A row's first match at or after a time is then: a binary
 * search in the events of a time slot and the set's rank of the event found, a few steps in the
 * row's blocks, and a walk over one block. The marks are exactly those of a search in a copy of
 * the row's matches.
 * On a 10M-event trace: ~2.6 MB for "cpu == 0" (5.4M matches) where the copy took 41 MB.
 */
typedef struct _SeismoFilterMarks SeismoFilterMarks;

/* matches: a set of events of trace (held, not copied). block_bits: log2 of the matches per
 * block; 0 picks the default. NULL when cancelled. */
SeismoFilterMarks *_seismo_filter_marks_build    (SeismoTrace             *trace,
                                                  SeismoMatchSet          *matches,
                                                  guint                    block_bits,
                                                  GCancellable            *cancellable);
void               _seismo_filter_marks_free     (SeismoFilterMarks       *self);
/* For tests: the same index, field by field. */
gboolean           _seismo_filter_marks_equal    (const SeismoFilterMarks *a,
                                                  const SeismoFilterMarks *b);
/* Bytes the index holds, not counting the set of matches it shares. */
gsize              _seismo_filter_marks_get_size (const SeismoFilterMarks *self);
/* Appends to xs (double) the left edge of each 2-px mark of a CPU row (is_task FALSE) or a task
 * row in the pixel range [x0, x1) of r's view, left to right. */
void               _seismo_filter_marks_row      (const SeismoFilterMarks *self,
                                                  SeismoTimelineRenderer  *r,
                                                  gboolean                 is_task,
                                                  guint                    row,
                                                  double                   x0,
                                                  double                   x1,
                                                  GArray                  *xs);

/* Knobs for tests: the build runs in parts from this many matches, in this many parts (0: one
 * per core). */
extern gsize _seismo_filter_marks_parallel_min;
extern guint _seismo_filter_marks_n_parts;

G_END_DECLS

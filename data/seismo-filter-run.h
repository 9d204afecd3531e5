/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-filter.h"
#include "seismo-match-set.h"

G_BEGIN_DECLS

/*
 * A whole-trace evaluation of a filter, in slices so that a caller on another thread can show
 * progress and the first matches before the rest is known. One code path for the window's view
 * (on a worker), the compare view (on a worker) and seismo-cli filter.
 */

/* Called on the evaluating thread after each slice: done of total events are evaluated, and
 * matches (borrowed: ref it to keep it) are the matching events among the first done. It shares
 * its memory with the final result (the mask and its rank directory, filled slice by slice), so
 * keeping it costs nothing more. */
typedef void (*SeismoFilterRunProgress) (gsize           done,
                                         gsize           total,
                                         SeismoMatchSet *matches,
                                         gpointer        user_data);

/* Evaluates filter over its whole trace. On success *mask holds seismo_filter_mask_words(n)
 * guint64 words (bits past the last event are 0), *matches (when not NULL) the same events as a
 * set over that mask, *n_matched their count. Returns FALSE when cancelled. progress may be
 * NULL. */
gboolean seismo_filter_run_all (SeismoFilter            *filter,
                                SeismoFilterRunProgress  progress,
                                gpointer                 user_data,
                                GCancellable            *cancellable,
                                GBytes                 **mask,
                                SeismoMatchSet         **matches,
                                gsize                   *n_matched);

/* The first event that matches; SEISMO_NO_EVENT when none does (or when cancelled). */
SeismoEventId seismo_filter_find_first (SeismoFilter *filter,
                                        GCancellable *cancellable);

G_END_DECLS

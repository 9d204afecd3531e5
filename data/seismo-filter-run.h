/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-filter.h"

G_BEGIN_DECLS

/*
 * A whole-trace evaluation of a filter, in slices so that a caller on another thread can show
 * progress and the first matches before the rest is known. One code path for the window's view
 * (on a worker), the compare view (on a worker) and seismo-cli filter.
 */

/* Called on the evaluating thread after each slice: done of total events are evaluated, and
 * matches (borrowed: ref it to keep it; guint32, ascending) are the matching ids among them. It
 * shares its memory with the final result, so keeping it costs nothing more. */
typedef void (*SeismoFilterRunProgress) (gsize          done,
                                         gsize          total,
                                         GBytes        *matches,
                                         gpointer       user_data);

/* Evaluates filter over its whole trace. On success *mask holds seismo_filter_mask_words(n)
 * guint64 words, *matches (when not NULL) the matching ids (guint32, ascending), *n_matched
 * their count. Returns FALSE when cancelled. progress may be NULL. */
gboolean seismo_filter_run_all (SeismoFilter            *filter,
                                SeismoFilterRunProgress  progress,
                                gpointer                 user_data,
                                GCancellable            *cancellable,
                                GBytes                 **mask,
                                GBytes                 **matches,
                                gsize                   *n_matched);

/* The first event that matches; SEISMO_NO_EVENT when none does (or when cancelled). */
SeismoEventId seismo_filter_find_first (SeismoFilter *filter,
                                        GCancellable *cancellable);

/* The ids of the set bits of mask, ascending, as guint32 (a mask from a histogram bucket). */
GBytes  *seismo_filter_mask_to_matches (const guint64 *mask,
                                        gsize          n_events,
                                        gsize         *n_matched);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-match-set.h"

G_BEGIN_DECLS

/* A rank directory entry counts the members before each block of 512 events (8 mask words). */
#define SEISMO_MATCH_SET_BLOCK_WORDS  8
#define SEISMO_MATCH_SET_BLOCK_EVENTS (SEISMO_MATCH_SET_BLOCK_WORDS * 64)

/* Entries of the directory of a set over n_events: one per block, and the total. */
gsize           _seismo_match_set_directory_len      (gsize          n_events);
/* Fills dir[first_block + 1 .. end_block] (dir[first_block] is set already; dir[0] is 0) from
 * the words of mask in those blocks, ignoring bits past n_events: a caller that fills a mask
 * slice by slice builds the directory with it (seismo-filter-run.c). */
void            _seismo_match_set_fill_directory     (guint32       *dir,
                                                      const guint64 *mask,
                                                      gsize          n_events,
                                                      gsize          first_block,
                                                      gsize          end_block);
/* A set over events [0, n_events) of mask, with its directory (both held, not copied: they may
 * be the first parts of larger blocks still being filled beyond them). */
SeismoMatchSet *_seismo_match_set_new_with_directory (GBytes        *mask,
                                                      GBytes        *directory,
                                                      gsize          n_events);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "seismo-types.h"

G_BEGIN_DECLS

/*
 * SeismoMatchSet: the events a filter matched, as the filter's mask (1 bit per event) and a rank
 * directory (the members before each 512 events, 4 bytes per 512 events), instead of an array of
 * matching ids (4 bytes a match: 21 MB for 5.4M matches of 10M events, where the mask is 1.3 MB).
 * A list still reads it as an array: the k-th member (select), the position of an event (rank)
 * and a walk from a position cost a search in the directory and at most 8 words of the mask.
 * Immutable and refcounted: shared between threads and the widgets that show it.
 */
typedef struct _SeismoMatchSet SeismoMatchSet;

#define SEISMO_TYPE_MATCH_SET (seismo_match_set_get_type ())
GType           seismo_match_set_get_type      (void) G_GNUC_CONST;

/* A set over events [0, n_events) from mask (seismo_filter_mask_words (n_events) guint64 words,
 * bit i of word i / 64 being event i; bits past n_events are ignored), held, not copied. */
SeismoMatchSet *seismo_match_set_new_from_mask (GBytes               *mask,
                                                gsize                 n_events);
/* A set from ids (ascending, each < n_events). */
SeismoMatchSet *seismo_match_set_new_from_ids  (const SeismoEventId  *ids,
                                                gsize                 n_ids,
                                                gsize                 n_events);
SeismoMatchSet *seismo_match_set_ref           (SeismoMatchSet       *self);
void            seismo_match_set_unref         (SeismoMatchSet       *self);

/* The events it is a subset of: [0, n_events). */
gsize           seismo_match_set_get_n_events  (const SeismoMatchSet *self);
/* The number of members. */
gsize           seismo_match_set_get_size      (const SeismoMatchSet *self);
/* The mask (borrowed): seismo_filter_mask_words (n_events) words. */
GBytes         *seismo_match_set_get_mask      (const SeismoMatchSet *self);
/* The member at position (0: the first member); SEISMO_NO_EVENT past the last. */
SeismoEventId   seismo_match_set_get_nth       (const SeismoMatchSet *self,
                                                gsize                 position);
/* How many members are below event: its position when it is one, otherwise the position of
 * the next member (the size when none follows). */
gsize           seismo_match_set_rank          (const SeismoMatchSet *self,
                                                SeismoEventId         event);
gboolean        seismo_match_set_contains      (const SeismoMatchSet *self,
                                                SeismoEventId         event);
/* The same members (over any n_events: the first matches of a run equal its result when no more
 * came). NULL equals only NULL. */
gboolean        seismo_match_set_equal         (const SeismoMatchSet *a,
                                                const SeismoMatchSet *b);
/* The members as ascending guint32 ids: 4 bytes a member, for a caller that needs an array. */
GBytes         *seismo_match_set_to_ids        (const SeismoMatchSet *self);

/* A walk over the members in order, from a position: a few instructions a member (the fields
 * are read by the inline seismo_match_set_iter_next(); only position is for callers). */
typedef struct {
  const SeismoMatchSet *set;
  const guint64        *words;     /* the set's mask */
  gsize                 n_words;
  guint64               tail;      /* the bits of the last word below n_events */
  gsize                 word;      /* the mask word of bits */
  guint64               bits;      /* its members not handed out yet */
  gsize                 position;  /* the position of the next member handed out */
} SeismoMatchSetIter;

/* From the member at position (past the last: an empty walk). */
void            seismo_match_set_iter_init     (SeismoMatchSetIter   *iter,
                                                const SeismoMatchSet *set,
                                                gsize                 position);
/* From event, or the next member after it. */
void            seismo_match_set_iter_init_at_event (SeismoMatchSetIter   *iter,
                                                     const SeismoMatchSet *set,
                                                     SeismoEventId         event);
/* Moves the walk to position (at or after iter->position): a search forward from where it is,
 * as short as the distance (a list scrolled on, the next mark of a timeline row). */
void            seismo_match_set_iter_skip_to  (SeismoMatchSetIter   *iter,
                                                gsize                 position);

/* The next member in *event (its position was iter->position before the call); FALSE at the
 * end. Inline: the loops that walk millions of members call it for each. */
static inline gboolean
seismo_match_set_iter_next (SeismoMatchSetIter *iter,
                            SeismoEventId      *event)
{
  while (iter->bits == 0)
    {
      if (iter->word + 1 >= iter->n_words)
        {
          iter->word = iter->n_words;
          return FALSE;
        }
      iter->word++;
      iter->bits = iter->word + 1 == iter->n_words ? iter->words[iter->word] & iter->tail
                                                   : iter->words[iter->word];
    }
  *event = (SeismoEventId) (iter->word * 64 + (guint) __builtin_ctzll (iter->bits));
  iter->bits &= iter->bits - 1;
  iter->position++;
  return TRUE;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoMatchSet, seismo_match_set_unref)

G_END_DECLS

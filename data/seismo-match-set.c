/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-match-set-private.h"

struct _SeismoMatchSet
{
  gatomicrefcount ref_count;

  /* owned */
  GBytes        *mask;
  GBytes        *directory;

  /* borrowed from the two above */
  const guint64 *words;
  const guint32 *dir;        /* per block: the members before it; + the total */

  gsize          n_events;
  gsize          n_words;
  gsize          n_blocks;
  guint64        tail;       /* the bits of the last word below n_events */
};

G_DEFINE_BOXED_TYPE (SeismoMatchSet, seismo_match_set, seismo_match_set_ref, seismo_match_set_unref)

static inline gsize
mask_words (gsize n_events)
{
  return (n_events + 63) / 64;
}

/* Word w of the mask without the bits past n_events (a filter's mask may hold some). */
static inline guint64
word_at (const SeismoMatchSet *self,
         gsize                 w)
{
  return w + 1 == self->n_words ? self->words[w] & self->tail : self->words[w];
}

static inline guint64
tail_bits (gsize n_events)
{
  return n_events % 64 == 0 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (n_events % 64)) - 1;
}

gsize
_seismo_match_set_directory_len (gsize n_events)
{
  gsize n_blocks = (mask_words (n_events) + SEISMO_MATCH_SET_BLOCK_WORDS - 1)
                   / SEISMO_MATCH_SET_BLOCK_WORDS;

  return n_blocks + 1;
}

void
_seismo_match_set_fill_directory (guint32       *dir,
                                  const guint64 *mask,
                                  gsize          n_events,
                                  gsize          first_block,
                                  gsize          end_block)
{
  gsize n_words = mask_words (n_events);
  guint64 tail = tail_bits (n_events);

  g_assert (end_block < _seismo_match_set_directory_len (n_events));
  for (gsize b = first_block; b < end_block; b++)
    {
      gsize end = MIN ((b + 1) * SEISMO_MATCH_SET_BLOCK_WORDS, n_words);
      guint32 count = dir[b];

      for (gsize w = b * SEISMO_MATCH_SET_BLOCK_WORDS; w < end; w++)
        count += (guint32) __builtin_popcountll (w + 1 == n_words ? mask[w] & tail : mask[w]);
      dir[b + 1] = count;
    }
}

SeismoMatchSet *
_seismo_match_set_new_with_directory (GBytes *mask,
                                      GBytes *directory,
                                      gsize   n_events)
{
  SeismoMatchSet *self;

  /* Event ids and their counts fit in 32 bits (seismo-trace-builder.c). */
  g_assert (n_events < G_MAXUINT32);
  g_assert (g_bytes_get_size (mask) >= mask_words (n_events) * sizeof (guint64));
  g_assert (g_bytes_get_size (directory)
            >= _seismo_match_set_directory_len (n_events) * sizeof (guint32));
  self = g_new0 (SeismoMatchSet, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->mask = g_bytes_ref (mask);
  self->directory = g_bytes_ref (directory);
  self->words = g_bytes_get_data (mask, NULL);
  self->dir = g_bytes_get_data (directory, NULL);
  self->n_events = n_events;
  self->n_words = mask_words (n_events);
  self->n_blocks = _seismo_match_set_directory_len (n_events) - 1;
  self->tail = tail_bits (n_events);
  return self;
}

/**
 * seismo_match_set_new_from_mask:
 *
 * Returns: (transfer full): a set holding a reference to @mask
 */
SeismoMatchSet *
seismo_match_set_new_from_mask (GBytes *mask,
                                gsize   n_events)
{
  gsize len = _seismo_match_set_directory_len (n_events);
  guint32 *dir;
  g_autoptr(GBytes) directory = NULL;

  g_return_val_if_fail (mask != NULL, NULL);
  g_return_val_if_fail (n_events < G_MAXUINT32, NULL);
  g_return_val_if_fail (g_bytes_get_size (mask) >= mask_words (n_events) * sizeof (guint64), NULL);

  dir = g_new (guint32, len);
  dir[0] = 0;
  _seismo_match_set_fill_directory (dir, g_bytes_get_data (mask, NULL), n_events, 0, len - 1);
  directory = g_bytes_new_take (dir, len * sizeof (guint32));
  return _seismo_match_set_new_with_directory (mask, directory, n_events);
}

/**
 * seismo_match_set_new_from_ids:
 *
 * Returns: (transfer full): a set of @ids
 */
SeismoMatchSet *
seismo_match_set_new_from_ids (const SeismoEventId *ids,
                               gsize                n_ids,
                               gsize                n_events)
{
  gsize n_words = mask_words (n_events);
  guint64 *words;
  g_autoptr(GBytes) mask = NULL;

  g_return_val_if_fail (ids != NULL || n_ids == 0, NULL);
  g_return_val_if_fail (n_events < G_MAXUINT32, NULL);
  for (gsize i = 0; i < n_ids; i++)
    g_return_val_if_fail (ids[i] < n_events && (i == 0 || ids[i - 1] < ids[i]), NULL);

  words = g_new0 (guint64, MAX (n_words, 1));
  for (gsize i = 0; i < n_ids; i++)
    words[ids[i] / 64] |= G_GUINT64_CONSTANT (1) << (ids[i] % 64);
  mask = g_bytes_new_take (words, n_words * sizeof (guint64));
  return seismo_match_set_new_from_mask (mask, n_events);
}

SeismoMatchSet *
seismo_match_set_ref (SeismoMatchSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
seismo_match_set_unref (SeismoMatchSet *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_bytes_unref (self->mask);
  g_bytes_unref (self->directory);
  g_free (self);
}

gsize
seismo_match_set_get_n_events (const SeismoMatchSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_events;
}

gsize
seismo_match_set_get_size (const SeismoMatchSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->dir[self->n_blocks];
}

GBytes *
seismo_match_set_get_mask (const SeismoMatchSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->mask;
}

/* The position of the r-th set bit of x (r < its popcount): halving by popcounts, then at most 7
 * bits cleared. */
static inline guint
select_in_word (guint64 x,
                guint   r)
{
  guint pos = 0, c;

  c = (guint) __builtin_popcountll (x & 0xffffffffu);
  if (r >= c)
    r -= c, x >>= 32, pos += 32;
  c = (guint) __builtin_popcountll (x & 0xffffu);
  if (r >= c)
    r -= c, x >>= 16, pos += 16;
  c = (guint) __builtin_popcountll (x & 0xffu);
  if (r >= c)
    r -= c, x >>= 8, pos += 8;
  for (; r > 0; r--)
    x &= x - 1;
  return pos + (guint) __builtin_ctzll (x);
}

/* The member at position (< size): the last block with fewer members before it than position + 1,
 * then the words of that block, then the bit in the word. The search starts at block from (with
 * dir[from] <= position) with doubling steps: as short as the distance from there. */
static SeismoEventId
select_member (const SeismoMatchSet *self,
               gsize                 from,
               gsize                 position)
{
  gsize lo = from, hi = from + 1, step = 1, w, end;

  g_assert (from < self->n_blocks && self->dir[from] <= position);
  while (hi < self->n_blocks && self->dir[hi] <= position)
    {
      lo = hi;
      hi = lo + step;
      step *= 2;
    }
  hi = MIN (hi, self->n_blocks);
  /* The last block b in [lo, hi) with dir[b] <= position (dir[lo] is). */
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->dir[mid] <= position)
        lo = mid;
      else
        hi = mid;
    }
  position -= self->dir[lo];
  end = MIN ((lo + 1) * SEISMO_MATCH_SET_BLOCK_WORDS, self->n_words);
  for (w = lo * SEISMO_MATCH_SET_BLOCK_WORDS; w < end; w++)
    {
      guint64 x = word_at (self, w);
      gsize c = (gsize) __builtin_popcountll (x);

      if (position < c)
        return (SeismoEventId) (w * 64 + select_in_word (x, (guint) position));
      position -= c;
    }
  g_assert_not_reached ();
}

SeismoEventId
seismo_match_set_get_nth (const SeismoMatchSet *self,
                          gsize                 position)
{
  g_return_val_if_fail (self != NULL, SEISMO_NO_EVENT);
  if (position >= self->dir[self->n_blocks])
    return SEISMO_NO_EVENT;
  return select_member (self, 0, position);
}

gsize
seismo_match_set_rank (const SeismoMatchSet *self,
                       SeismoEventId         event)
{
  gsize w, b, rank;

  g_return_val_if_fail (self != NULL, 0);
  if (event >= self->n_events)
    return self->dir[self->n_blocks];
  w = event / 64;
  b = w / SEISMO_MATCH_SET_BLOCK_WORDS;
  rank = self->dir[b];
  for (gsize v = b * SEISMO_MATCH_SET_BLOCK_WORDS; v < w; v++)
    rank += (gsize) __builtin_popcountll (self->words[v]);
  return rank + (gsize) __builtin_popcountll (word_at (self, w)
                                              & ((G_GUINT64_CONSTANT (1) << (event % 64)) - 1));
}

gboolean
seismo_match_set_contains (const SeismoMatchSet *self,
                           SeismoEventId         event)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (event >= self->n_events)
    return FALSE;
  return (self->words[event / 64] >> (event % 64)) & 1;
}

gboolean
seismo_match_set_equal (const SeismoMatchSet *a,
                        const SeismoMatchSet *b)
{
  gsize n_words;

  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || a->dir[a->n_blocks] != b->dir[b->n_blocks])
    return FALSE;
  /* As many members, the same ones below the smaller n_events: no other one in the larger. */
  n_words = MIN (a->n_words, b->n_words);
  if (n_words == 0)
    return TRUE;
  return memcmp (a->words, b->words, (n_words - 1) * sizeof (guint64)) == 0
         && word_at (a, n_words - 1) == word_at (b, n_words - 1);
}

/**
 * seismo_match_set_to_ids:
 *
 * Returns: (transfer full): the members, ascending guint32
 */
GBytes *
seismo_match_set_to_ids (const SeismoMatchSet *self)
{
  gsize n, i = 0;
  SeismoEventId *ids, id;
  SeismoMatchSetIter iter;

  g_return_val_if_fail (self != NULL, NULL);
  n = seismo_match_set_get_size (self);
  ids = g_new (SeismoEventId, MAX (n, 1));
  seismo_match_set_iter_init (&iter, self, 0);
  while (seismo_match_set_iter_next (&iter, &id))
    ids[i++] = id;
  g_assert (i == n);
  return g_bytes_new_take (ids, n * sizeof (SeismoEventId));
}

/* Starts a walk at event, a member or not, of rank position. */
static void
iter_start (SeismoMatchSetIter   *iter,
            const SeismoMatchSet *set,
            SeismoEventId         event,
            gsize                 position)
{
  iter->set = set;
  iter->words = set->words;
  iter->n_words = set->n_words;
  iter->tail = set->tail;
  iter->position = position;
  if (event >= set->n_events)
    {
      iter->word = set->n_words;
      iter->bits = 0;
      return;
    }
  iter->word = event / 64;
  iter->bits = word_at (set, iter->word) & (G_MAXUINT64 << (event % 64));
}

void
seismo_match_set_iter_init (SeismoMatchSetIter   *iter,
                            const SeismoMatchSet *set,
                            gsize                 position)
{
  g_return_if_fail (iter != NULL && set != NULL);
  if (position >= seismo_match_set_get_size (set))
    iter_start (iter, set, SEISMO_NO_EVENT, seismo_match_set_get_size (set));
  else
    iter_start (iter, set, select_member (set, 0, position), position);
}

void
seismo_match_set_iter_init_at_event (SeismoMatchSetIter   *iter,
                                     const SeismoMatchSet *set,
                                     SeismoEventId         event)
{
  g_return_if_fail (iter != NULL && set != NULL);
  iter_start (iter, set, event, seismo_match_set_rank (set, event));
}

void
seismo_match_set_iter_skip_to (SeismoMatchSetIter *iter,
                               gsize               position)
{
  const SeismoMatchSet *set = iter->set;
  gsize ahead, c;

  g_return_if_fail (position >= iter->position);
  if (position >= seismo_match_set_get_size (set))
    {
      iter_start (iter, set, SEISMO_NO_EVENT, seismo_match_set_get_size (set));
      return;
    }
  /* In the word under way: no search. */
  ahead = position - iter->position;
  c = (gsize) __builtin_popcountll (iter->bits);
  if (ahead < c)
    {
      for (; ahead > 0; ahead--)
        iter->bits &= iter->bits - 1;
      iter->position = position;
      return;
    }
  /* Further: from the block of the word under way (the members before it are at most
   * iter->position, so at most position). */
  iter_start (iter, set, select_member (set, iter->word / SEISMO_MATCH_SET_BLOCK_WORDS, position),
              position);
}

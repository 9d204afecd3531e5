/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-filter-run.h"
#include "seismo-match-set-private.h"

/* Events per slice: progress (and first matches) are reported between slices. A multiple of the
 * directory's blocks (512 events, 8 words), so a slice never writes a mask word or a directory
 * entry of another, and a set over the slices done never reads one being written. */
#define SLICE_EVENTS (1u << 20)
G_STATIC_ASSERT (SLICE_EVENTS % SEISMO_MATCH_SET_BLOCK_EVENTS == 0);

gboolean
seismo_filter_run_all (SeismoFilter            *filter,
                       SeismoFilterRunProgress  progress,
                       gpointer                 user_data,
                       GCancellable            *cancellable,
                       GBytes                 **mask,
                       SeismoMatchSet         **matches,
                       gsize                   *n_matched)
{
  SeismoTrace *trace;
  gsize n_events, words, dir_len = 0;
  guint64 *bits;
  g_autoptr(GBytes) owner = NULL;
  g_autoptr(GBytes) dir_owner = NULL;
  guint32 *dir = NULL;
  gsize count = 0;
  /* A rank directory (4 bytes per 512 events) only for someone who reads the matches as a set. */
  gboolean collect = matches != NULL || progress != NULL;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (mask != NULL && n_matched != NULL, FALSE);

  trace = seismo_filter_get_trace (filter);
  n_events = seismo_trace_get_n_events (trace);
  words = seismo_filter_mask_words (n_events);
  /* The mask and its directory are filled slice by slice in blocks that never move: what a slice
   * reports is a set over their first parts (a list showing the first matches holds no copy). */
  bits = g_new0 (guint64, MAX (words, 1));
  owner = g_bytes_new_take (bits, words * sizeof (guint64));
  if (collect)
    {
      dir_len = _seismo_match_set_directory_len (n_events);
      dir = g_new0 (guint32, dir_len);
      dir_owner = g_bytes_new_take (dir, dir_len * sizeof (guint32));
    }

  for (gsize first = 0; first < n_events || first == 0; first += SLICE_EVENTS)
    {
      gsize last = MIN (n_events, first + SLICE_EVENTS);
      gsize n = 0;

      if (last > first
          && !seismo_filter_run_range (filter, first, last, 0, bits, &n, cancellable))
        return FALSE;
      count += n;
      /* The directory of this slice, as it ends: the list can show its matches at once. */
      if (collect)
        _seismo_match_set_fill_directory (dir, bits, n_events,
                                          first / SEISMO_MATCH_SET_BLOCK_EVENTS,
                                          _seismo_match_set_directory_len (last) - 1);
      if (progress != NULL)
        {
          gsize mask_size = seismo_filter_mask_words (last) * sizeof (guint64);
          gsize dir_size = _seismo_match_set_directory_len (last) * sizeof (guint32);
          g_autoptr(GBytes) mask_so_far = g_bytes_new_from_bytes (owner, 0, mask_size);
          g_autoptr(GBytes) dir_so_far = g_bytes_new_from_bytes (dir_owner, 0, dir_size);
          g_autoptr(SeismoMatchSet) so_far = NULL;

          so_far = _seismo_match_set_new_with_directory (mask_so_far, dir_so_far, last);

          progress (last, n_events, so_far, user_data);
        }
      if (last >= n_events)
        break;
    }
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  *n_matched = count;
  if (matches != NULL)
    {
      g_assert (dir[dir_len - 1] == count);
      *matches = _seismo_match_set_new_with_directory (owner, dir_owner, n_events);
    }
  *mask = g_steal_pointer (&owner);
  return TRUE;
}

SeismoEventId
seismo_filter_find_first (SeismoFilter *filter,
                          GCancellable *cancellable)
{
  SeismoTrace *trace;
  gsize n_events;
  g_autofree guint64 *bits = NULL;

  g_return_val_if_fail (filter != NULL, SEISMO_NO_EVENT);

  trace = seismo_filter_get_trace (filter);
  n_events = seismo_trace_get_n_events (trace);
  bits = g_new0 (guint64, MAX (seismo_filter_mask_words (n_events), 1));
  /* Slice by slice: the first match is usually found long before the end. */
  for (gsize first = 0; first < n_events; first += SLICE_EVENTS)
    {
      gsize last = MIN (n_events, first + SLICE_EVENTS);
      gsize n = 0;

      if (!seismo_filter_run_range (filter, first, last, 0, bits, &n, cancellable))
        return SEISMO_NO_EVENT;
      if (n == 0)
        continue;
      for (gsize w = first / 64; w < seismo_filter_mask_words (last); w++)
        if (bits[w] != 0)
          return (SeismoEventId) (w * 64 + (guint) __builtin_ctzll (bits[w]));
    }
  return SEISMO_NO_EVENT;
}

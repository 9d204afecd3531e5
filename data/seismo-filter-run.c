/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-big-array.h"
#include "seismo-filter-run.h"

/* Events per slice: progress (and first matches) are reported between slices. A multiple of 64,
 * so a slice never writes a mask word of another. */
#define SLICE_EVENTS (1u << 20)
G_STATIC_ASSERT (SLICE_EVENTS % 64 == 0);

GBytes *
seismo_filter_mask_to_matches (const guint64 *mask,
                               gsize          n_events,
                               gsize         *n_matched)
{
  gsize words = seismo_filter_mask_words (n_events);
  gsize count = 0, n = 0;
  guint32 *ids;

  for (gsize w = 0; w < words; w++)
    count += (gsize) __builtin_popcountll (mask[w]);
  ids = g_new (guint32, MAX (count, 1));
  for (gsize w = 0; w < words; w++)
    for (guint64 bits = mask[w]; bits != 0; bits &= bits - 1)
      {
        guint32 id = (guint32) (w * 64 + (guint) __builtin_ctzll (bits));

        if (id < n_events)
          ids[n++] = id;
      }
  if (n_matched != NULL)
    *n_matched = n;
  return g_bytes_new_take (ids, n * sizeof (guint32));
}

gboolean
seismo_filter_run_all (SeismoFilter            *filter,
                       SeismoFilterRunProgress  progress,
                       gpointer                 user_data,
                       GCancellable            *cancellable,
                       GBytes                 **mask,
                       GBytes                 **matches,
                       gsize                   *n_matched)
{
  SeismoTrace *trace;
  gsize n_events, words;
  g_autofree guint64 *bits = NULL;
  g_autoptr(GBytes) owner = NULL;
  guint32 *ids = NULL;
  gsize count = 0, n_ids = 0;
  /* Ids cost 4 bytes a match: collected only for someone who reads them. */
  gboolean collect = matches != NULL || progress != NULL;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (mask != NULL && n_matched != NULL, FALSE);

  trace = seismo_filter_get_trace (filter);
  n_events = seismo_trace_get_n_events (trace);
  words = seismo_filter_mask_words (n_events);
  bits = g_new0 (guint64, MAX (words, 1));
  if (collect)
    {
      /* Room for every event, in one block that never moves: only the pages the matches fill
       * are ever touched, and what a slice reports is a view of the same block (a list showing
       * the first matches holds no copy of them). */
      ids = _seismo_big_array_new (guint32, MAX (n_events, 1));
      owner = g_bytes_new_with_free_func (ids, MAX (n_events, 1) * sizeof (guint32), g_free, ids);
    }

  for (gsize first = 0; first < n_events || first == 0; first += SLICE_EVENTS)
    {
      gsize last = MIN (n_events, first + SLICE_EVENTS);
      gsize n = 0;

      if (last > first
          && !seismo_filter_run_range (filter, first, last, 0, bits, &n, cancellable))
        return FALSE;
      count += n;
      /* The ids of this slice, collected as it ends: the list can show them at once. */
      for (gsize w = first / 64; collect && w < seismo_filter_mask_words (last); w++)
        for (guint64 b = bits[w]; b != 0; b &= b - 1)
          {
            guint32 id = (guint32) (w * 64 + (guint) __builtin_ctzll (b));

            if (id < n_events)
              ids[n_ids++] = id;
          }
      if (progress != NULL)
        {
          g_autoptr(GBytes) so_far = g_bytes_new_from_bytes (owner, 0, n_ids * sizeof (guint32));

          progress (last, n_events, so_far, user_data);
        }
      if (last >= n_events)
        break;
    }
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  *n_matched = count;
  if (matches != NULL)
    *matches = g_bytes_new_from_bytes (owner, 0, n_ids * sizeof (guint32));
  *mask = g_bytes_new_take (g_steal_pointer (&bits), words * sizeof (guint64));
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

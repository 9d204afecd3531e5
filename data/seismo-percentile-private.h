/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Exact nearest-rank percentiles of many values without sorting them: the values are counted in
 * log-linear bins (each value below 256 has its own, each power of two above is cut in 256), the
 * bin each rank falls in is found from the counts, and the rank is selected among that bin's
 * values only. A caller that already passes over the values (a histogram filling its buckets)
 * counts the bins on the way, so that the percentiles cost one more pass, not two.
 */

#define SEISMO_PERCENTILE_SUB_BITS 8
#define SEISMO_PERCENTILE_BINS ((64 - SEISMO_PERCENTILE_SUB_BITS + 1) << SEISMO_PERCENTILE_SUB_BITS)

/* The log-linear bin of v with 2^sub_bits bins per power of two: bins ascend with the values,
 * so the values of a bin are all above those of any bin before it. */
static inline guint
seismo_percentile_bin_of (guint64 v,
                          guint   sub_bits)
{
  guint e;

  if (v < (G_GUINT64_CONSTANT (1) << sub_bits))
    return (guint) v;
  e = 63 - __builtin_clzll (v);
  return ((e - sub_bits + 1) << sub_bits)
         | (guint) ((v >> (e - sub_bits)) & ((1u << sub_bits) - 1));
}

static inline guint
seismo_percentile_bin (guint64 v)
{
  return seismo_percentile_bin_of (v, SEISMO_PERCENTILE_SUB_BITS);
}

/*
 * The same in two passes over values that are not kept in memory (a trace's syscall durations):
 * pass 1 counts them in coarse bins (16 per power of two: SEISMO_PERCENTILE_COARSE_BINS counters,
 * 7.8 KB); _seismo_percentile_find_ranks() finds the bin each rank falls in and gives each such
 * bin its room in a small array; pass 2 keeps there only the values of those bins
 * (seismo_percentile_keep()); _seismo_percentile_select_ranks() selects the ranks among them.
 * Counts may come from two halves of the values counted apart (c0, c1), each keeping its own
 * values from its own next[]. Results are those of seismo_stats_percentiles_select().
 */
#define SEISMO_PERCENTILE_COARSE_SUB_BITS 4
#define SEISMO_PERCENTILE_COARSE_BINS \
  ((64 - SEISMO_PERCENTILE_COARSE_SUB_BITS + 1) << SEISMO_PERCENTILE_COARSE_SUB_BITS)
#define SEISMO_PERCENTILE_MAX_RANKS 3

static inline guint
seismo_percentile_coarse_bin (guint64 v)
{
  return seismo_percentile_bin_of (v, SEISMO_PERCENTILE_COARSE_SUB_BITS);
}

/* The smallest value of a coarse bin: bin → value, the inverse of seismo_percentile_coarse_bin()
 * on bin edges. */
static inline guint64
seismo_percentile_coarse_lower (guint bin)
{
  guint e;

  if (bin < (1u << SEISMO_PERCENTILE_COARSE_SUB_BITS))
    return bin;
  e = (bin >> SEISMO_PERCENTILE_COARSE_SUB_BITS) + SEISMO_PERCENTILE_COARSE_SUB_BITS - 1;
  return (G_GUINT64_CONSTANT (1) << e)
         | ((guint64) (bin & ((1u << SEISMO_PERCENTILE_COARSE_SUB_BITS) - 1))
            << (e - SEISMO_PERCENTILE_COARSE_SUB_BITS));
}

/* Where the ranks fall: n_bins distinct bins, the room of each (start, len) in the kept values,
 * and for each fraction its bin's index and its rank among that bin's values. */
typedef struct {
  guint n_bins;
  guint bins[SEISMO_PERCENTILE_MAX_RANKS];
  /* Each bin as its range of values, [lower, lower + width]: keeping a value is a comparison per
   * bin, not a bin computed per value. */
  guint64 lower[SEISMO_PERCENTILE_MAX_RANKS];
  guint64 width[SEISMO_PERCENTILE_MAX_RANKS];
  gsize start[SEISMO_PERCENTILE_MAX_RANKS];
  gsize len[SEISMO_PERCENTILE_MAX_RANKS];
  guint which[SEISMO_PERCENTILE_MAX_RANKS];
  gsize rank[SEISMO_PERCENTILE_MAX_RANKS];
} SeismoPercentileRanks;

/* n > 0 values counted in c0 plus c1 (either may be NULL: none counted); n_qs at most
 * SEISMO_PERCENTILE_MAX_RANKS. Rooms are taken from *total on, which grows by their size;
 * next0[b] (and next1[b], unless NULL) is where each half keeps its values of bin b. */
void _seismo_percentile_find_ranks   (SeismoPercentileRanks *r,
                                      gsize                  n,
                                      const gsize           *c0,
                                      const gsize           *c1,
                                      const double          *qs,
                                      guint                  n_qs,
                                      gsize                 *next0,
                                      gsize                 *next1,
                                      gsize                 *total);
/* out[i] for each of the n_qs fractions given to _seismo_percentile_find_ranks(), once every
 * value was kept. Reorders kept within the rooms. */
void _seismo_percentile_select_ranks (const SeismoPercentileRanks *r,
                                      guint64                     *kept,
                                      guint                        n_qs,
                                      guint64                     *out);

static inline void
seismo_percentile_keep (const SeismoPercentileRanks *r,
                        gsize                       *next,
                        guint64                     *kept,
                        guint64                      v)
{
  for (guint b = 0; b < r->n_bins; b++)
    if (v - r->lower[b] <= r->width[b])
      {
        kept[next[b]++] = v;
        return;
      }
}

/* As seismo_stats_percentiles_select(), with counts[seismo_percentile_bin (v)] already counted
 * over the n values (SEISMO_PERCENTILE_BINS of them). values are left as they are. */
void _seismo_percentiles_from_bins (const guint64 *values,
                                    gsize          n,
                                    const gsize   *counts,
                                    const double  *qs,
                                    guint          n_qs,
                                    guint64       *out);

G_END_DECLS

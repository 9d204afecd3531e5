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

static inline guint
seismo_percentile_bin (guint64 v)
{
  guint e;

  if (v < (1u << SEISMO_PERCENTILE_SUB_BITS))
    return (guint) v;
  e = 63 - __builtin_clzll (v);
  return ((e - SEISMO_PERCENTILE_SUB_BITS + 1) << SEISMO_PERCENTILE_SUB_BITS)
         | (guint) ((v >> (e - SEISMO_PERCENTILE_SUB_BITS)) & ((1u << SEISMO_PERCENTILE_SUB_BITS) - 1));
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

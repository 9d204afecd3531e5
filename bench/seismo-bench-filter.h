/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-filter-run.h"

/* A filter expression's matches over the whole trace, as a window's view gets them, and its
 * mask in *mask (may be NULL); a bad expression or a cancelled run ends the benchmark. */
static inline SeismoMatchSet *
seismo_bench_filter (SeismoTrace *trace,
                     const char  *expression,
                     GBytes     **mask)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, expression, &error);
  g_autoptr(GBytes) got_mask = NULL;
  g_autoptr(SeismoMatchSet) got_matches = NULL;
  gsize n_matched;

  if (filter == NULL)
    g_error ("%s: %s", expression, error->message);
  if (!seismo_filter_run_all (filter, NULL, NULL, NULL, &got_mask, &got_matches, &n_matched))
    g_error ("%s: evaluation cancelled", expression);
  if (mask != NULL)
    *mask = g_steal_pointer (&got_mask);
  return g_steal_pointer (&got_matches);
}

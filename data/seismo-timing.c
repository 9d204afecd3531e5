/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-timing.h"

gboolean
seismo_trace_has_timestamps (SeismoTrace *trace)
{
  const char *timing;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);

  timing = seismo_trace_get_metadata (trace, SEISMO_META_TIMING);
  return timing == NULL || g_str_equal (timing, SEISMO_TIMING_TIMESTAMPS_ONLY);
}

gboolean
seismo_trace_has_durations (SeismoTrace *trace)
{
  const char *timing;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);

  timing = seismo_trace_get_metadata (trace, SEISMO_META_TIMING);
  return timing == NULL || g_str_equal (timing, SEISMO_TIMING_DURATIONS_ONLY);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <time.h>

G_BEGIN_DECLS

/* CPU time of the calling thread, µs: for the timing notes in debug output, where wall time lies
 * on a busy machine. */
static inline gint64
seismo_thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

G_END_DECLS

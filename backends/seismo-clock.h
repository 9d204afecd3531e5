/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <time.h>

#include <glib.h>

G_BEGIN_DECLS

/* Now on CLOCK_MONOTONIC, the clock every backend stamps its events with, in ns. Inline: the
 * ptrace backend reads it once per tracee stop. */
static inline guint64
seismo_mono_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) ts.tv_nsec;
}

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

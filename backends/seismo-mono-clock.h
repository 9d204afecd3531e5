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

G_END_DECLS

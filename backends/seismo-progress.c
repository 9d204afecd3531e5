/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include "seismo-clock.h"
#include "seismo-progress.h"
/* The builder's payload block is the file's chunk (docs/file-format.md). */
#include "seismo-trace-private.h"

#define PROGRESS_INTERVAL_NS      G_GUINT64_CONSTANT (200000000)
#define PROGRESS_INTERVAL_MAX_NS  G_GUINT64_CONSTANT (10000000000)
#define PROGRESS_SHARE            20

void
seismo_progress_pacer_init (SeismoProgressPacer *self,
                            guint64              now_ns)
{
  self->next_ns = now_ns + PROGRESS_INTERVAL_NS;
  self->chunks = 0;
}

gboolean
seismo_progress_pacer_due (const SeismoProgressPacer *self,
                           SeismoTraceBuilder        *builder,
                           guint64                    now_ns)
{
  return now_ns >= self->next_ns
         || (seismo_trace_builder_get_n_events (builder) >> SEISMO_BLOCK_SHIFT) > self->chunks;
}

guint64
seismo_progress_pacer_report (SeismoProgressPacer *self,
                              SeismoRecordControl *ctl,
                              SeismoTraceBuilder  *builder,
                              guint64              now_ns)
{
  gsize chunks = seismo_trace_builder_get_n_events (builder) >> SEISMO_BLOCK_SHIFT;
  guint64 spent = 0, interval = PROGRESS_INTERVAL_NS;

  if (ctl->progress != NULL)
    {
      ctl->progress (ctl->user_data);
      spent = seismo_mono_now_ns () - now_ns;
    }
  if (chunks == self->chunks)
    interval = CLAMP (spent * PROGRESS_SHARE, PROGRESS_INTERVAL_NS, PROGRESS_INTERVAL_MAX_NS);
  self->chunks = chunks;
  self->next_ns = now_ns + spent + interval;
  return now_ns + spent;
}

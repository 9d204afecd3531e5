/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-importer.h"

G_BEGIN_DECLS

/*
 * ftrace text: what tracefs prints in `trace` and `trace_pipe` (with or without the irq-flags and
 * tgid columns, also the `latency-format` layout) and what `trace-cmd report` prints (plain, `-l`,
 * `-t`, `-R`, with the `buffer:` prefix of multi-buffer files). Known events get the kernel's field
 * names and types; other events get a schema guessed from their first `name=value` payload.
 */
extern const SeismoImporter seismo_ftrace_text_importer;

/* The same from text in memory (a latency tracer's output kept inside a trace.dat); path names it
 * in messages and metadata. */
SeismoTrace *seismo_ftrace_text_load_data (const char          *path,
                                           const char          *data,
                                           gsize                len,
                                           GCancellable        *cancellable,
                                           SeismoProgressFunc   progress,
                                           gpointer             progress_data,
                                           GError             **error);

G_END_DECLS

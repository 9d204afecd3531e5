/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-stacks.h"

G_BEGIN_DECLS

/*
 * Names user stack frames: (process, address) → function, module, file:line and the inlined calls
 * around it, from the mappings recorded with the trace (which file, at which offset, with which
 * build-id), the files' ELF symbol tables and DWARF (elfutils libdw, which also finds separate
 * debug info by build-id: /usr/lib/debug/.build-id, and debuginfod when DEBUGINFOD_URLS is set).
 * A file whose build-id differs from the recorded one is not used: its names would be wrong.
 * Files are opened as the user the recording is for (seismo_user_open_for_reading).
 */
typedef struct _SeismoSymbolizer SeismoSymbolizer;

SeismoSymbolizer *seismo_symbolizer_new     (void);
void              seismo_symbolizer_free    (SeismoSymbolizer    *self);
/* A SeismoFrameResolveFunc (user_data: the symbolizer). */
guint             seismo_symbolizer_resolve (const SeismoFrame   *frame,
                                             const SeismoMapping *mapping,
                                             SeismoFrame         *out,
                                             guint                max_out,
                                             gpointer             user_data);

/*
 * Names the unnamed user frames of trace (seismo_trace_resolve_user_frames()); kernel frames are
 * named from the trace's kallsyms table. FALSE with an error only when this build cannot
 * symbolize (no libdw); frames it cannot name stay addresses. *n_resolved (may be NULL): how many
 * it named.
 */
gboolean          seismo_symbolize_trace    (SeismoTrace         *trace,
                                             guint               *n_resolved,
                                             GError             **error);

/* What every reader of a trace does before anything reads its stacks (the CLI and both of the
 * window's load threads): names the user frames of a trace that has stacks, as well as this build
 * can; a trace without stacks is left alone at no cost. */
void              seismo_symbolize_opened_trace (SeismoTrace     *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoSymbolizer, seismo_symbolizer_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-timeline-data.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/* Events of a trace too large to load shown at once (a window of it over its summary): ~170 MB
 * loaded, read in about a second. */
#define SEISMO_WINDOW_PART_MAX_EVENTS (64u << 16)

/* Called in the reading thread once the trace is read, before the timeline's data is made from
 * it (a fifth of a second of 10M events): the window lists its events meanwhile. */
typedef void (*SeismoWindowTraceRead) (SeismoTrace *trace,
                                       gpointer     user_data);

/*
 * What a window shows of a file, read in the calling (worker) thread: the trace (or the summary
 * and a part of a trace larger than memory), its user stack symbols, the indexes the window reads
 * and the timeline's data. permille (atomic, may be NULL) follows the progress; trace_read (may
 * be NULL) is told of the trace before the timeline's data.
 */
gboolean         seismo_window_read             (const char           *path,
                                                 gint                 *permille,
                                                 SeismoWindowTraceRead trace_read,
                                                 gpointer              user_data,
                                                 GCancellable         *cancellable,
                                                 SeismoTrace         **trace,
                                                 SeismoTimelineData  **data,
                                                 GError              **error);

/*
 * The same read, started as soon as the application knows the file it was launched with: on a
 * thread of its own while GTK starts and the window is built (a fifth of a second of the main
 * thread that would otherwise come before the read), handed to the window that opens the file.
 */
typedef struct _SeismoEarlyRead SeismoEarlyRead;

SeismoEarlyRead *seismo_early_read_start        (const char          *path);
const char      *seismo_early_read_get_path     (SeismoEarlyRead     *self);
/* Waits for the read (call it from a worker thread): a cancel of cancellable cancels the read;
 * meanwhile permille (atomic, may be NULL) follows its progress and trace_read (may be NULL) is
 * told of the trace, in this thread, as seismo_window_read() does. Once only. */
gboolean         seismo_early_read_join         (SeismoEarlyRead      *self,
                                                 GCancellable         *cancellable,
                                                 gint                 *permille,
                                                 SeismoWindowTraceRead trace_read,
                                                 gpointer              user_data,
                                                 SeismoTrace         **trace,
                                                 SeismoTimelineData  **data,
                                                 GError              **error);
/* Cancels a read still running, waits for it and frees what it read. */
void             seismo_early_read_free         (SeismoEarlyRead     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoEarlyRead, seismo_early_read_free)

G_END_DECLS

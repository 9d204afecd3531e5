/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The .seismo file format: Seismo's own trace files (docs/file-format.md).
 *
 * seismo_file_save() writes a whole trace at once. SeismoFileWriter writes a trace while it is
 * recorded: each flush appends what the builder holds that can no longer change (new strings,
 * types, tasks, complete chunks of events), so a killed recorder leaves a readable prefix.
 * Both write next to the destination and rename into place only once the file is complete.
 */

#include <gio/gio.h>

#include "seismo-importer.h"
#include "seismo-trace-builder.h"

G_BEGIN_DECLS

#define SEISMO_FILE_EXTENSION      ".seismo"
/* A streaming writer writes to the destination path plus this suffix until commit. */
#define SEISMO_FILE_PARTIAL_SUFFIX ".partial"

/* Registered by the importer registry at first use. */
extern const SeismoImporter seismo_file_importer;
extern const SeismoExporter seismo_file_exporter;

/* Atomically writes trace to path (mode 0600). */
gboolean          seismo_file_save                    (SeismoTrace         *trace,
                                                       const char          *path,
                                                       GError             **error);
/* Reads a .seismo file, including one a recorder never finished. A trace that holds less than the
 * file claimed carries the reason in metadata "load_warning". Caller owns the trace. */
SeismoTrace      *seismo_file_load                    (const char          *path,
                                                       GCancellable        *cancellable,
                                                       SeismoProgressFunc   progress,
                                                       gpointer             progress_data,
                                                       GError             **error);

typedef struct _SeismoFileWriter SeismoFileWriter;

/* Creates path + SEISMO_FILE_PARTIAL_SUFFIX (mode 0600, replacing a stale one) and writes the file
 * header. Nothing appears at path itself until seismo_file_writer_commit(). */
SeismoFileWriter *seismo_file_writer_new              (const char          *path,
                                                       GError             **error);
/* The file being written; readable at any time as the prefix flushed so far. */
const char       *seismo_file_writer_get_partial_path (SeismoFileWriter    *self);
/* Appends what builder gained since the last flush: table entries, and every complete chunk of
 * events (65536); the last incomplete chunk waits for a later flush or the commit. Call from the
 * thread that appends to builder, between events. */
gboolean          seismo_file_writer_flush            (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* Flushes everything left (the incomplete chunk too), writes the index, syncs and renames the
 * partial file to path. The builder stays usable (e.g. for seismo_trace_builder_finish()). */
gboolean          seismo_file_writer_commit           (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* Removes the partial file (a recording that is abandoned on purpose). */
void              seismo_file_writer_discard          (SeismoFileWriter    *self);
/* Closes the file. Without a commit the partial file stays, readable as what was flushed. */
void              seismo_file_writer_free             (SeismoFileWriter    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoFileWriter, seismo_file_writer_free)

G_END_DECLS

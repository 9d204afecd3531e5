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
/* Writes trace to fd from its start (truncating what it held) and syncs it; name is for messages.
 * fd stays the caller's. */
gboolean          seismo_file_save_to_fd              (SeismoTrace         *trace,
                                                       int                  fd,
                                                       const char          *name,
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
/* Writes to fd (an open, seekable regular file, truncated first) which stays the caller's: the
 * caller decides where the file lives and renames it after seismo_file_writer_finish() (see
 * SeismoOutput for a recorder acting for another user). name is shown in messages. */
SeismoFileWriter *seismo_file_writer_new_for_fd       (int                  fd,
                                                       const char          *name,
                                                       GError             **error);
/* The file being written; readable at any time as the prefix flushed so far. */
const char       *seismo_file_writer_get_partial_path (SeismoFileWriter    *self);
/* Appends what builder gained since the last flush: table entries, and every complete chunk of
 * events (65536); the last incomplete chunk waits for a later flush or the commit. Call from the
 * thread that appends to builder, between events. */
gboolean          seismo_file_writer_flush            (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* The same, and then the incomplete last chunk too, provisionally: the file then holds every event
 * appended so far (a crash loses only what comes after), and the next flush or finish replaces
 * that chunk with its grown self. */
gboolean          seismo_file_writer_flush_all        (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* seismo_file_writer_flush(), then drops the events it wrote from builder, so a builder that is
 * only written out (a conversion, seismo-gen) holds at most one chunk of events whatever the
 * trace's size. The builder can then only be committed, never finished into a trace. */
gboolean          seismo_file_writer_stream           (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* Flushes everything left (the incomplete chunk too), writes the index, syncs and renames the
 * partial file to path. The builder stays usable (e.g. for seismo_trace_builder_finish()). */
gboolean          seismo_file_writer_commit           (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* Flushes everything left (the incomplete chunk too), writes the index and syncs; the file stays
 * where it is (the caller renames it). */
gboolean          seismo_file_writer_finish           (SeismoFileWriter    *self,
                                                       SeismoTraceBuilder  *builder,
                                                       GError             **error);
/* After a failed flush (a full disk): cuts the file back to its last complete record, finishes it
 * with an index when there is room, and syncs it, so it stays a valid, readable file. *n_events:
 * the events it holds. The writer takes no more data afterwards. */
gboolean          seismo_file_writer_salvage          (SeismoFileWriter    *self,
                                                       guint64             *n_events,
                                                       GError             **error);
/* Path writers only: removes the partial file (a recording that is abandoned on purpose). */
void              seismo_file_writer_discard          (SeismoFileWriter    *self);
/* Closes the file. Without a commit the partial file stays, readable as what was flushed. */
void              seismo_file_writer_free             (SeismoFileWriter    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoFileWriter, seismo_file_writer_free)

G_END_DECLS

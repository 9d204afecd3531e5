/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * Importers read a file format into a trace; exporters write one. Formats register themselves once
 * (the data layer's own at first use; backends with seismo_backends_init()).
 */
typedef struct {
  const char   *name;          /* "seismo", "trace.dat", "ftrace-text", "strace" */
  const char   *description;   /* "trace-cmd trace.dat (v6, v7)" */
  /* How sure the importer is that it reads this file: 0 = not at all, 100 = by magic. */
  int         (*sniff)       (const guint8 *head,
                              gsize         len,
                              const char   *path);
  SeismoTrace *(*load)       (const char         *path,
                              GCancellable       *cancellable,
                              SeismoProgressFunc  progress,
                              gpointer            progress_data,
                              GError            **error);
  /* Optional: writes the file's events straight into a .seismo file at out_path as they are
   * read, in time order through a SeismoFileWriter that releases what it wrote, so memory stays
   * bounded whatever the trace's size. NULL when the format cannot stream. */
  gboolean    (*stream_to_seismo) (const char         *path,
                                   const char         *out_path,
                                   GCancellable       *cancellable,
                                   SeismoProgressFunc  progress,
                                   gpointer            progress_data,
                                   GError            **error);
} SeismoImporter;

typedef struct {
  const char   *name;          /* "seismo", "chrome-json", "csv" */
  const char   *extension;     /* ".seismo" */
  gboolean    (*save)        (SeismoTrace   *trace,
                              const char    *path,
                              GError       **error);
} SeismoExporter;

void                   seismo_importer_register   (const SeismoImporter *importer);
void                   seismo_exporter_register   (const SeismoExporter *exporter);
/* NULL-terminated arrays of the registered formats. */
const SeismoImporter *const *seismo_importers_get (guint *n_importers);
const SeismoExporter *const *seismo_exporters_get (guint *n_exporters);

/* Opens any file an importer recognises. Caller owns the trace. */
SeismoTrace           *seismo_trace_open          (const char          *path,
                                                   GCancellable        *cancellable,
                                                   SeismoProgressFunc   progress,
                                                   gpointer             progress_data,
                                                   GError             **error);
/* Converts path to a .seismo file at out_path in bounded memory when path's importer can stream
 * (stream_to_seismo). FALSE with G_IO_ERROR_NOT_SUPPORTED when it cannot: load and save instead. */
gboolean               seismo_trace_convert_streaming (const char         *path,
                                                   const char          *out_path,
                                                   GCancellable        *cancellable,
                                                   SeismoProgressFunc   progress,
                                                   gpointer             progress_data,
                                                   GError             **error);
/* Saves in the format chosen by path's extension. */
gboolean               seismo_trace_save          (SeismoTrace         *trace,
                                                   const char          *path,
                                                   GError             **error);

G_END_DECLS

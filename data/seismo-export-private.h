/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-export.h"

G_BEGIN_DECLS

/*
 * A text file written through a buffer into a temporary file beside its destination, renamed into
 * place by commit. Freeing an uncommitted writer removes the temporary file, so a failed export
 * never leaves a half-written file under the user's name.
 */
typedef struct {
  char    *path;
  char    *tmp_path;
  int      fd;
  GString *buf;       /* append here; flushed when large */
} SeismoExportWriter;

SeismoExportWriter *seismo_export_writer_new          (const char          *path,
                                                       GError             **error);
/* Writes the buffer out once it holds enough to be worth a write(). */
gboolean            seismo_export_writer_maybe_flush  (SeismoExportWriter  *self,
                                                       GError             **error);
gboolean            seismo_export_writer_commit       (SeismoExportWriter  *self,
                                                       GError             **error);
void                seismo_export_writer_free         (SeismoExportWriter  *self);

/* Appends s as a JSON string literal; invalid UTF-8 becomes U+FFFD. */
void                seismo_json_append_string         (GString             *out,
                                                       const char          *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoExportWriter, seismo_export_writer_free)

G_END_DECLS

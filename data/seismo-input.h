/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * What a reading command was given, made into something every importer can open by path and map:
 *
 * - a regular, uncompressed file is used in place (the .seismo reader follows growing files);
 * - "-" (stdin), a pipe, a FIFO or a character device is read as a stream;
 * - a gzip, zstd, xz or bzip2 file (recognised by its magic, whatever its name) is decompressed.
 *
 * Streams and decompressed data are spooled to an unlinked temporary file in $TMPDIR, so nothing
 * is left behind, and importers open it as /proc/self/fd/N. A FIFO nobody writes to is an error
 * after a short wait, never a command that hangs.
 */
typedef struct _SeismoInput SeismoInput;

/* How long a named FIFO may stay without a writer before seismo_input_open() gives up. */
#define SEISMO_INPUT_FIFO_WAIT_MS 1000

/* Returns NULL with error set when path cannot be opened or read. A folder is returned as is
 * (some importers read folders): seismo_input_is_folder() says so. */
SeismoInput   *seismo_input_open            (const char    *path,
                                             GCancellable  *cancellable,
                                             GError       **error);
void           seismo_input_free            (SeismoInput   *input);
/* The path importers open (the file itself or /proc/self/fd/N). Borrowed. */
const char    *seismo_input_get_path        (SeismoInput   *input);
/* What messages call it: the path given, "stdin" for "-". Borrowed. */
const char    *seismo_input_get_name        (SeismoInput   *input);
/* The first bytes of the (decompressed) content, for sniffing. Borrowed. */
const guint8  *seismo_input_get_head        (SeismoInput   *input,
                                             gsize         *len);
/* "gzip", "zstd", "xz", "bzip2" or NULL. */
const char    *seismo_input_get_compression (SeismoInput   *input);
gboolean       seismo_input_is_folder       (SeismoInput   *input);
/* TRUE when the content was copied (a stream or a decompressed file). */
gboolean       seismo_input_is_spooled      (SeismoInput   *input);

/* Replaces the spool path in a message by the input's name, so errors name what the user gave. */
void           seismo_input_fix_error       (SeismoInput   *input,
                                             GError        *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoInput, seismo_input_free)

G_END_DECLS

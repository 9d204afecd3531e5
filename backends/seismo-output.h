/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoOutput: the files a recording writes next to its output (OUTPUT.partial while it records,
 * OUTPUT.live snapshots, OUTPUT at the end), and the privilege boundary around them
 * (docs/security.md).
 *
 * Every name in the output's folder is created, renamed and removed by a process that has the
 * identity of the user the recording is for: under pkexec a small helper forked at the start,
 * which has become the PKEXEC_UID user and opened the folder itself; otherwise the recorder. Root
 * never resolves a path in the user's folder: it gets open descriptors from the helper and only
 * writes trace bytes into them. Operations are relative to the folder's descriptor, never follow
 * a symlink, and touch regular files only.
 *
 * One recorder per output: OUTPUT.partial carries a write lock (fcntl) for as long as the
 * recording runs; a second recorder to the same output is refused and told the first one's pid.
 */

#define SEISMO_OUTPUT_ERROR (seismo_output_error_quark ())

typedef enum {
  SEISMO_OUTPUT_ERROR_FAILED,
  SEISMO_OUTPUT_ERROR_NOT_REGULAR,  /* the output (or its .partial) exists and is not a regular file */
  SEISMO_OUTPUT_ERROR_BUSY,         /* another recorder writes to the same output */
} SeismoOutputError;

GQuark seismo_output_error_quark (void);

typedef struct _SeismoOutput SeismoOutput;

/* Opens the folder of path as the user the recording is for (see seismo_user_pkexec_uid()) and
 * checks that path is absent or a regular file that user may replace. */
SeismoOutput *seismo_output_new             (const char   *path,
                                             GError      **error);
/* Creates and locks path.partial, returning its descriptor (owned by self, valid until free). */
int           seismo_output_open_partial    (SeismoOutput *self,
                                             GError      **error);
/* Renames path.partial, which must still be the file open_partial() returned, to path, and syncs
 * the folder. The descriptor stays open (and locked) until free. */
gboolean      seismo_output_commit          (SeismoOutput *self,
                                             GError      **error);
/* Removes path.partial if it is still the file this output created. */
void          seismo_output_discard         (SeismoOutput *self);
/* Replaces path.live with a snapshot of the recording so far (written to a new file, then renamed,
 * so a reader never sees it half done). */
gboolean      seismo_output_write_live      (SeismoOutput *self,
                                             SeismoTrace  *snapshot,
                                             GError      **error);
void          seismo_output_remove_live     (SeismoOutput *self);
const char   *seismo_output_get_path        (SeismoOutput *self);
const char   *seismo_output_get_partial_path (SeismoOutput *self);
/* The pid of the process that acts in the folder (the helper, or this process). */
GPid          seismo_output_get_actor_pid   (SeismoOutput *self);
/* Closes the files (releasing the lock) and ends the helper. */
void          seismo_output_free            (SeismoOutput *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoOutput, seismo_output_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SEISMO_ERROR (seismo_error_quark ())

typedef enum {
  SEISMO_ERROR_FAILED,
  SEISMO_ERROR_CORRUPT,        /* the file is damaged: offset and reason in the message */
  SEISMO_ERROR_TRUNCATED,      /* the file ends too early */
  SEISMO_ERROR_UNKNOWN_FORMAT, /* no importer recognises the file */
  SEISMO_ERROR_UNSUPPORTED,    /* a version or feature this build cannot read or write */
  SEISMO_ERROR_CANCELLED,
  SEISMO_ERROR_PERMISSION,     /* missing privilege (root, CAP_BPF, tracefs access, ptrace scope) */
  SEISMO_ERROR_UNAVAILABLE,    /* a backend cannot run here */
  SEISMO_ERROR_INVALID_ARGUMENT,
  SEISMO_ERROR_BAD_OPTION,     /* recording options that cannot work together or name nothing:
                                * `seismo-cli record` exits 2 (bad usage) */
} SeismoError;

GQuark seismo_error_quark (void);

G_END_DECLS

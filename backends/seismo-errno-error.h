/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdarg.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * Turns a failed call's errno into a SEISMO_ERROR once, at the edge of the tracing libraries:
 * "WHAT: REASON", WHAT printed from format, REASON the text of errsv (of EIO when errsv is 0: the
 * call failed without saying why). SEISMO_ERROR_PERMISSION for EPERM and EACCES, else
 * SEISMO_ERROR_FAILED. Returns FALSE, for "return seismo_set_errno_error (…);".
 */
gboolean seismo_set_errno_error        (GError    **error,
                                        int         errsv,
                                        const char *format,
                                        ...) G_GNUC_PRINTF (3, 4);
/* The same, from a va_list, with tail (may be NULL) appended to the message. */
gboolean seismo_set_errno_error_valist (GError    **error,
                                        int         errsv,
                                        const char *tail,
                                        const char *format,
                                        va_list     args) G_GNUC_PRINTF (4, 0);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backends"

#include <errno.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"

gboolean
seismo_set_errno_error_valist (GError    **error,
                               int         errsv,
                               const char *tail,
                               const char *format,
                               va_list     args)
{
  g_autofree char *what = g_strdup_vprintf (format, args);

  g_set_error (error, SEISMO_ERROR,
               errsv == EPERM || errsv == EACCES ? SEISMO_ERROR_PERMISSION : SEISMO_ERROR_FAILED,
               "%s: %s%s", what, g_strerror (errsv ? errsv : EIO), tail ? tail : "");
  return FALSE;
}

gboolean
seismo_set_errno_error (GError    **error,
                        int         errsv,
                        const char *format,
                        ...)
{
  va_list args;

  va_start (args, format);
  seismo_set_errno_error_valist (error, errsv, NULL, format, args);
  va_end (args);
  return FALSE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-export.h"
#include "seismo-file.h"
#include "seismo-trace-private.h"

/* The trace's metadata without key, for putting back what the save changed. */
static void
remove_metadata (SeismoTrace *trace,
                 const char  *key)
{
  for (guint i = 0; i < trace->meta_values->len; i++)
    if (strcmp (g_ptr_array_index (trace->meta_keys, i), key) == 0)
      {
        /* Keys stay NULL-terminated: the terminator follows the last value's key. */
        g_ptr_array_remove_index (trace->meta_keys, i);
        g_ptr_array_remove_index (trace->meta_values, i);
        return;
      }
}

gboolean
seismo_export_bundle (SeismoTrace *trace,
                      const char  *key,
                      const char  *value,
                      const char  *path,
                      GError     **error)
{
  g_autofree char *previous = NULL;
  gboolean ok;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (key != NULL && value != NULL && path != NULL, FALSE);

  /* The pair is written by the ordinary saver (so a bundle is a plain .seismo file every reader
   * opens) and taken out of the trace again afterwards. */
  previous = g_strdup (seismo_trace_get_metadata (trace, key));
  _seismo_trace_set_metadata (trace, key, value);
  ok = seismo_file_save (trace, path, error);
  if (previous != NULL)
    _seismo_trace_set_metadata (trace, key, previous);
  else
    remove_metadata (trace, key);
  return ok;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "seismo-error.h"
#include "seismo-export.h"
#include "seismo-file.h"
#include "seismo-ftrace-text.h"
#include "seismo-importer.h"
#include "seismo-trace-private.h"

static GMutex registry_lock;
static GPtrArray *importers;
static GPtrArray *exporters;

/* The data layer's own formats register on first use; backends add theirs in seismo_backends_init. */
static void
ensure_registry (void)
{
  g_mutex_lock (&registry_lock);
  if (importers == NULL)
    {
      importers = g_ptr_array_new ();
      exporters = g_ptr_array_new ();
      g_ptr_array_add (importers, (gpointer) &seismo_file_importer);
      g_ptr_array_add (importers, (gpointer) &seismo_ftrace_text_importer);
      g_ptr_array_add (exporters, (gpointer) &seismo_file_exporter);
      g_ptr_array_add (exporters, (gpointer) &seismo_chrome_json_exporter);
      g_ptr_array_add (exporters, (gpointer) &seismo_csv_exporter);
      g_ptr_array_add (importers, NULL);
      g_ptr_array_add (exporters, NULL);
    }
  g_mutex_unlock (&registry_lock);
}

static void
add_unique (GPtrArray     *array,
            gconstpointer  item)
{
  for (guint i = 0; i + 1 < array->len; i++)
    if (g_ptr_array_index (array, i) == item)
      return;
  g_ptr_array_index (array, array->len - 1) = (gpointer) item;
  g_ptr_array_add (array, NULL);
}

void
seismo_importer_register (const SeismoImporter *importer)
{
  g_return_if_fail (importer != NULL);
  ensure_registry ();
  g_mutex_lock (&registry_lock);
  add_unique (importers, importer);
  g_mutex_unlock (&registry_lock);
}

void
seismo_exporter_register (const SeismoExporter *exporter)
{
  g_return_if_fail (exporter != NULL);
  ensure_registry ();
  g_mutex_lock (&registry_lock);
  add_unique (exporters, exporter);
  g_mutex_unlock (&registry_lock);
}

const SeismoImporter *const *
seismo_importers_get (guint *n_importers)
{
  ensure_registry ();
  if (n_importers)
    *n_importers = importers->len - 1;
  return (const SeismoImporter *const *) importers->pdata;
}

const SeismoExporter *const *
seismo_exporters_get (guint *n_exporters)
{
  ensure_registry ();
  if (n_exporters)
    *n_exporters = exporters->len - 1;
  return (const SeismoExporter *const *) exporters->pdata;
}

/* The importer most sure it reads path; NULL with error when none is. */
static const SeismoImporter *
pick_importer (const char  *path,
               GError     **error)
{
  const SeismoImporter *const *list = seismo_importers_get (NULL);
  const SeismoImporter *best = NULL;
  guint8 head[4096];
  gssize len = 0;
  int best_score = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      int fd = open (path, O_RDONLY | O_CLOEXEC);

      if (fd < 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "Could not open %s: %s", path, g_strerror (errsv));
          return NULL;
        }
      len = read (fd, head, sizeof head);
      close (fd);
      if (len < 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "Could not read %s: %s", path, g_strerror (errsv));
          return NULL;
        }
    }

  for (guint i = 0; list[i] != NULL; i++)
    {
      int score = list[i]->sniff (head, (gsize) len, path);

      if (score > best_score)
        {
          best_score = score;
          best = list[i];
        }
    }

  if (best == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; list[i] != NULL; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "", list[i]->description);
      if (len == 0)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     "%s is empty", path);
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     "%s is not a trace Seismo can read (it reads: %s)", path, names->str);
    }
  return best;
}

SeismoTrace *
seismo_trace_open (const char          *path,
                   GCancellable        *cancellable,
                   SeismoProgressFunc   progress,
                   gpointer             progress_data,
                   GError             **error)
{
  const SeismoImporter *best;
  SeismoTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);

  if (!(best = pick_importer (path, error)))
    return NULL;
  trace = best->load (path, cancellable, progress, progress_data, error);
  /* Which reader produced it, for `info` and the window title. */
  if (trace != NULL)
    _seismo_trace_set_metadata (trace, "format", best->name);
  return trace;
}

gboolean
seismo_trace_convert_streaming (const char          *path,
                                const char          *out_path,
                                GCancellable        *cancellable,
                                SeismoProgressFunc   progress,
                                gpointer             progress_data,
                                GError             **error)
{
  const SeismoImporter *best;

  g_return_val_if_fail (path != NULL && out_path != NULL, FALSE);

  if (!g_str_has_suffix (out_path, ".seismo"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "Only .seismo files are written while reading: %s", out_path);
      return FALSE;
    }
  if (!(best = pick_importer (path, error)))
    return FALSE;
  if (best->stream_to_seismo == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s files are not converted while reading", best->name);
      return FALSE;
    }
  return best->stream_to_seismo (path, out_path, cancellable, progress, progress_data, error);
}

gboolean
seismo_trace_save (SeismoTrace  *trace,
                   const char   *path,
                   GError      **error)
{
  const SeismoExporter *const *list = seismo_exporters_get (NULL);
  g_autoptr(GString) exts = g_string_new (NULL);

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  for (guint i = 0; list[i] != NULL; i++)
    {
      if (g_str_has_suffix (path, list[i]->extension))
        return list[i]->save (trace, path, error);
      g_string_append_printf (exts, "%s%s", i ? ", " : "", list[i]->extension);
    }
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
               "Cannot write %s: the file name must end in one of %s", path, exts->str);
  return FALSE;
}

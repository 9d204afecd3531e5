/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-error.h"
#include "seismo-export.h"
#include "seismo-export-perfetto.h"
#include "seismo-file.h"
#include "seismo-ftrace-text.h"
#include "seismo-importer.h"
#include "seismo-input.h"
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
      g_ptr_array_add (importers, (gpointer) &seismo_perfetto_importer);
      g_ptr_array_add (exporters, (gpointer) &seismo_file_exporter);
      g_ptr_array_add (exporters, (gpointer) &seismo_chrome_json_exporter);
      g_ptr_array_add (exporters, (gpointer) &seismo_csv_exporter);
      g_ptr_array_add (exporters, (gpointer) &seismo_perfetto_exporter);
      g_ptr_array_add (exporters, (gpointer) &seismo_pftrace_exporter);
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

/* The importer most sure it reads input; NULL with error when none is. */
static const SeismoImporter *
pick_importer (SeismoInput  *input,
               const char   *path,
               GError      **error)
{
  const SeismoImporter *const *list = seismo_importers_get (NULL);
  const SeismoImporter *best = NULL;
  g_autofree char *sniff_name = NULL;
  const guint8 *head;
  const char *name;
  gsize len = 0;
  int best_score = 0;

  head = seismo_input_get_head (input, &len);
  name = seismo_input_get_name (input);

  /* Sniffers may look at the name: give them the one without the compression suffix. */
  sniff_name = g_strdup (seismo_input_is_spooled (input) ? name : path);
  if (seismo_input_get_compression (input))
    {
      char *dot = strrchr (sniff_name, '.');

      if (dot && strchr (dot, '/') == NULL)
        *dot = '\0';
    }

  for (guint i = 0; list[i] != NULL; i++)
    {
      int score = list[i]->sniff (head, len, sniff_name);

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
        g_string_append_printf (names, "%s%s", i ? ", " : "", _(list[i]->description));
      if (seismo_input_is_folder (input))
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     _("%s is a folder: Seismo opens a folder only when it holds strace -ff output (files PREFIX.PID); give a trace file or an strace -ff folder"), name);
      else if (len == 0)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     _("%s is empty%s"), name,
                     seismo_input_get_compression (input) ? _(" once decompressed") : "");
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     _("%s is not a trace Seismo can read (it reads: %s%s)"), name, names->str,
                     seismo_input_get_compression (input) ? _("; it was decompressed first") : "");
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
  g_autoptr(SeismoInput) input = NULL;
  g_autoptr(GError) local_error = NULL;
  SeismoTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);

  /* Stdin, pipes, FIFOs and compressed files become a file every importer can map. */
  if (!(input = seismo_input_open (path, cancellable, error)) ||
      !(best = pick_importer (input, path, error)))
    return NULL;
  trace = best->load (seismo_input_get_path (input), cancellable, progress, progress_data,
                      &local_error);
  if (trace == NULL)
    {
      seismo_input_fix_error (input, local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  /* Which reader produced it, for `info` and the window title. */
  _seismo_trace_set_metadata (trace, "format", best->name);
  if (seismo_input_is_spooled (input))
    _seismo_trace_set_metadata (trace, SEISMO_META_ORIGINAL, seismo_input_get_name (input));
  if (seismo_input_get_compression (input))
    _seismo_trace_set_metadata (trace, "compression", seismo_input_get_compression (input));
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
  g_autoptr(SeismoInput) input = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (path != NULL && out_path != NULL, FALSE);

  if (!g_str_has_suffix (out_path, ".seismo"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Only .seismo files are written while reading: %s"), out_path);
      return FALSE;
    }
  if (!(input = seismo_input_open (path, cancellable, error)) ||
      !(best = pick_importer (input, path, error)))
    return FALSE;
  if (best->stream_to_seismo == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s files are not converted while reading"), best->name);
      return FALSE;
    }
  if (!best->stream_to_seismo (seismo_input_get_path (input), out_path, cancellable, progress,
                               progress_data, &local_error))
    {
      seismo_input_fix_error (input, local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
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
               _("Cannot write %s: the file name must end in one of %s"), path, exts->str);
  return FALSE;
}

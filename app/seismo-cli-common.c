/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <unistd.h>
#include <errno.h>
#include <stdio.h>

#include "seismo-cli-common.h"
#include "seismo-filter-run.h"
#include "seismo-skipped.h"
#include "seismo-stacks.h"
#include "seismo-stats.h"
#include "seismo-symbolizer.h"
#include "seismo-filter.h"
#include "seismo-importer.h"

gboolean
seismo_cli_parse_options (GOptionContext  *context,
                          int             *argc,
                          char          ***argv,
                          const char      *who)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("%s: %s\n", who, error->message);
      return FALSE;
    }
  return TRUE;
}

void
seismo_cli_print_json (JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

void
seismo_cli_json_int (JsonBuilder *b,
                     const char  *name,
                     gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

void
seismo_cli_json_string (JsonBuilder *b,
                        const char  *name,
                        const char  *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

char **
seismo_cli_split_list (char **values)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; values && values[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (values[i], ",", -1);

      for (guint k = 0; parts[k]; k++)
        if (*g_strstrip (parts[k]))
          g_strv_builder_add (b, parts[k]);
    }
  return g_strv_builder_end (b);
}

gboolean
seismo_cli_apply_arch (SeismoTrace *trace,
                       const char  *arch,
                       const char  *who)
{
  g_autoptr(GError) error = NULL;

  if (arch == NULL || seismo_trace_set_arch (trace, arch, &error))
    return TRUE;
  g_printerr ("%s: --arch: %s\n", who, error->message);
  return FALSE;
}

static void
print_progress (double   fraction,
                gpointer user_data)
{
  static gint64 last;
  gint64 now = g_get_monotonic_time ();

  if (now - last < 200000 && fraction < 1.0)
    return;
  last = now;
  g_printerr ("\r%s: %3.0f%%%s", (const char *) user_data, fraction * 100.0, fraction >= 1.0 ? "\n" : "");
}

/* Opens a trace of any format, with progress on a terminal; arch: --arch, or NULL. */
SeismoTrace *
seismo_cli_open_trace (const char *path,
                       const char *arch)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;
  gboolean tty = isatty (STDERR_FILENO);

  trace = seismo_trace_open (path, NULL, tty ? print_progress : NULL, (gpointer) path, &error);
  if (tty)
    g_printerr ("\r\033[K");
  if (trace == NULL)
    {
      g_printerr ("seismo-cli: %s\n", error->message);
      return NULL;
    }
  if (seismo_trace_get_metadata (trace, "load_warning"))
    g_printerr ("seismo-cli: warning: %s\n", seismo_trace_get_metadata (trace, "load_warning"));
  if (!seismo_cli_apply_arch (trace, arch, "seismo-cli"))
    {
      g_object_unref (trace);
      return NULL;
    }
  /* User stack frames recorded as addresses are named here, from the files they were in. */
  seismo_symbolize_opened_trace (trace);
  {
    g_autofree char *skipped = seismo_trace_describe_skipped (trace);

    if (skipped != NULL)
      g_printerr ("seismo-cli: warning: %s: %s (seismo-cli info lists them)\n", path, skipped);
  }
  return trace;
}

/* Prints a filter error with the expression and a caret line under the part it is about:
 *
 *   seismo-cli: bad filter: unknown field 'pdi' — did you mean 'pid'?
 *     pdi == 3
 *     ^^^
 */
static void
print_filter_error (const char   *expr,
                    const GError *error)
{
  gsize start = 0, end = 0;
  g_autofree char *shown = g_strdup (expr);
  glong col, width;

  g_printerr ("seismo-cli: bad filter: %s\n", error->message);
  if (!seismo_filter_error_get_range (error, &start, &end) || !g_utf8_validate (expr, -1, NULL))
    return;
  g_strdelimit (shown, "\t\n\r", ' ');
  col = g_utf8_strlen (expr, start);
  width = MAX (g_utf8_strlen (expr + start, end - start), 1);
  g_printerr ("  %s\n  %*s", shown, (int) col, "");
  for (glong i = 0; i < width; i++)
    g_printerr ("^");
  g_printerr ("\n");
}

/* Compiles and runs --filter. NULL expr selects everything (*mask NULL). FALSE after printing the
 * error when the expression is wrong: a usage error. */
gboolean
seismo_cli_run_filter (SeismoTrace  *trace,
            const char   *expr,
            guint64     **mask,
            gsize        *n_matched)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFilter) filter = NULL;

  *mask = NULL;
  *n_matched = seismo_trace_get_n_events (trace);
  if (expr == NULL)
    return TRUE;
  if (!(filter = seismo_filter_compile (trace, expr, &error)))
    {
      print_filter_error (expr, error);
      return FALSE;
    }
  {
    /* The same evaluation as the window's view. */
    g_autoptr(GBytes) bytes = NULL;

    if (!seismo_filter_run_all (filter, NULL, NULL, NULL, &bytes, NULL, n_matched))
      g_assert_not_reached ();   /* nothing cancels it */
    *mask = g_bytes_unref_to_data (g_steal_pointer (&bytes), &(gsize) { 0 });
  }
  return TRUE;
}
/* The first errno a write to stdout failed with; 0 while none did. */
static int stdout_errno;

void
seismo_cli_note_write_error (int errnum)
{
  if (stdout_errno == 0)
    stdout_errno = errnum != 0 ? errnum : EIO;
}

/* Buffered like stdio's default, unlike GLib's handler, which flushes every call. */
static void
print_to_stdout (const char *text)
{
  if (fputs (text, stdout) == EOF)
    seismo_cli_note_write_error (errno);
}

void
seismo_cli_watch_stdout (void)
{
  g_set_print_handler (print_to_stdout);
}

gboolean
seismo_cli_finish_stdout (void)
{
  if (fflush (stdout) != 0)
    seismo_cli_note_write_error (errno);
  else if (ferror (stdout))
    seismo_cli_note_write_error (EIO);
  if (stdout_errno == 0)
    return TRUE;
  g_printerr (_("seismo-cli: write error: %s\n"), g_strerror (stdout_errno));
  return FALSE;
}

void
seismo_cli_print_skipped (SeismoTrace *trace)
{
  g_autoptr(GArray) skipped = seismo_trace_get_skipped (trace);

  g_print (_("Not read:    %" PRIu64 "\n"), seismo_trace_get_n_skipped (trace));
  for (guint i = 0; i < skipped->len; i++)
    {
      const SeismoSkipped *k = &g_array_index (skipped, SeismoSkipped, i);

      g_print ("  %12" PRIu64 "  %s%s%s\n", k->count, k->kind,
               k->example ? _(", the first: ") : "", k->example ? k->example : "");
    }
}

void
seismo_cli_json_skipped (JsonBuilder *b,
                         SeismoTrace *trace)
{
  g_autoptr(GArray) skipped = seismo_trace_get_skipped (trace);

  /* What the reader could not turn into events: {kind: count}, and the first of each. */
  json_builder_set_member_name (b, "skipped");
  json_builder_begin_object (b);
  for (guint i = 0; i < skipped->len; i++)
    seismo_cli_json_int (b, g_array_index (skipped, SeismoSkipped, i).kind,
                         g_array_index (skipped, SeismoSkipped, i).count);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "skipped_examples");
  json_builder_begin_object (b);
  for (guint i = 0; i < skipped->len; i++)
    {
      const SeismoSkipped *k = &g_array_index (skipped, SeismoSkipped, i);

      if (k->example)
        seismo_cli_json_string (b, k->kind, k->example);
    }
  json_builder_end_object (b);
}

void
seismo_cli_json_info_tables (JsonBuilder *b,
                             SeismoTrace *trace,
                             GArray      *types,
                             const char  *format)
{
  const char *const *keys = seismo_trace_get_metadata_keys (trace);

  json_builder_set_member_name (b, "event_types");
  json_builder_begin_object (b);
  for (guint i = 0; i < types->len; i++)
    {
      SeismoTypeStats *st = &g_array_index (types, SeismoTypeStats, i);

      seismo_cli_json_int (b, seismo_trace_get_event_type (trace, st->type_id)->full_name,
                           st->count);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "metadata");
  json_builder_begin_object (b);
  for (guint i = 0; keys[i]; i++)
    seismo_cli_json_string (b, keys[i], seismo_trace_get_metadata (trace, keys[i]));
  if (format != NULL && seismo_trace_get_metadata (trace, "format") == NULL)
    seismo_cli_json_string (b, "format", format);
  /* Unknown is said, never guessed: syscall numbers then stay numbers. */
  if (seismo_trace_get_metadata (trace, SEISMO_META_ARCH) == NULL)
    {
      json_builder_set_member_name (b, SEISMO_META_ARCH);
      json_builder_add_null_value (b);
    }
  json_builder_end_object (b);
  seismo_cli_json_skipped (b, trace);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the seismo-cli commands share: option parsing, JSON output and list options. */

/* Parses argv with context; on a bad option prints "WHO: reason" and returns FALSE. */
gboolean seismo_cli_parse_options (GOptionContext  *context,
                                   int             *argc,
                                   char          ***argv,
                                   const char      *who);

/* Prints the document built in builder as indented JSON and a newline on stdout. */
void     seismo_cli_print_json    (JsonBuilder     *builder);

/* Adds the member name with an integer or a string value to the object being built. */
void     seismo_cli_json_int      (JsonBuilder     *b,
                                   const char      *name,
                                   gint64           value);
void     seismo_cli_json_string   (JsonBuilder     *b,
                                   const char      *name,
                                   const char      *value);

/* Splits repeated options of "a,b" lists into one list, blanks dropped; the caller frees it with
 * g_strfreev(). values may be NULL: an empty list. */
char   **seismo_cli_split_list    (char           **values);

/* Write errors on stdout (a full disk, a closed pipe, /dev/full): g_print() goes through a handler
 * that remembers the first failure, and seismo_cli_finish_stdout() flushes and, when anything was
 * lost, prints "seismo-cli: write error: REASON" and returns FALSE (exit 1). */
void     seismo_cli_watch_stdout     (void);
void     seismo_cli_note_write_error (int              errnum);
gboolean seismo_cli_finish_stdout    (void);

G_END_DECLS

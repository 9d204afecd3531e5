/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "seismo-trace.h"

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

/* `--arch ARCH`, which every command reading a trace takes (the entry, for a GOptionEntry list). */
#define SEISMO_CLI_ARCH_ENTRY(var) \
  { "arch", 0, 0, G_OPTION_ARG_STRING, &(var), \
    "Name syscall numbers from ARCH's table (x86_64, i386, arm, arm64, riscv64, powerpc64, " \
    "s390x, mips, mips64, loongarch64, ...), over what the file says", "ARCH" }

/* Applies --arch (NULL: nothing to do) to a trace just opened; FALSE after printing "WHO: why". */
gboolean seismo_cli_apply_arch    (SeismoTrace     *trace,
                                   const char      *arch,
                                   const char      *who);

/* Opens a trace of any format, with progress on a terminal, applying --arch (arch, or NULL) and
 * warning once of anything it skipped; NULL after printing why. */
SeismoTrace *seismo_cli_open_trace (const char      *path,
                                    const char      *arch);

/* Compiles and runs a --filter expression. NULL expr selects everything (*mask NULL). FALSE after
 * printing the error, with a caret under the part it is about, when the expression is wrong. */
gboolean seismo_cli_run_filter    (SeismoTrace     *trace,
                                   const char      *expr,
                                   guint64        **mask,
                                   gsize           *n_matched);

static inline gboolean
seismo_cli_mask_has (const guint64 *mask,
                     gsize          i)
{
  return mask == NULL || (mask[i / 64] >> (i % 64)) & 1;
}
/* Write errors on stdout (a full disk, a closed pipe, /dev/full): g_print() goes through a handler
 * that remembers the first failure, and seismo_cli_finish_stdout() flushes and, when anything was
 * lost, prints "seismo-cli: write error: REASON" and returns FALSE (exit 1). */
void     seismo_cli_watch_stdout     (void);
void     seismo_cli_note_write_error (int              errnum);
gboolean seismo_cli_finish_stdout    (void);

/* What the reader skipped, by kind: the "Not read:" lines of `info`, and its JSON members
 * "skipped" and "skipped_examples". */
void     seismo_cli_print_skipped (SeismoTrace     *trace);
void     seismo_cli_json_skipped  (JsonBuilder     *b,
                                   SeismoTrace     *trace);

/* The end of `info --json`, the same whether the events were loaded or only the file's summary:
 * "event_types" (types: SeismoTypeStats), "metadata" (with format when the trace has none, and
 * arch null when unknown) and the skipped input. */
void     seismo_cli_json_info_tables (JsonBuilder *b,
                                      SeismoTrace *trace,
                                      GArray      *types,
                                      const char  *format);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

/* info and stats read from a .seismo file's summary, for traces larger than memory
 * (seismo-cli-summary.c). */

/* TRUE when path is a .seismo with a summary and either forced (--summary) or too large to load
 * comfortably: a quarter of the machine's memory at 42 bytes per event, or at least
 * $SEISMO_SUMMARY_MIN_EVENTS events when that is set. */
gboolean seismo_cli_summary_wanted (const char *path,
                                    gboolean    forced);
int      seismo_cli_summary_info   (const char *path,
                                    gboolean    json);
/* by: event (NULL), task, cpu or syscall. */
int      seismo_cli_summary_stats  (const char *path,
                                    const char *by,
                                    gboolean    json);

/* The recorder's histograms as stats prints them (seismo-cli.c). */
void     seismo_cli_print_recorder_histograms (SeismoTrace *trace);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "seismo-backend.h"

G_BEGIN_DECLS

/* Exit codes of seismo-cli. */
#define SEISMO_EXIT_OK     0
#define SEISMO_EXIT_FAILED 1
#define SEISMO_EXIT_USAGE  2

int seismo_cli_record (int    argc,
                       char **argv);

/* Records with backend into builder as `seismo-cli record` does: the same metadata, and SIGINT,
 * SIGTERM or SIGHUP stop the recording (ctl->stop) instead of killing seismo-cli. */
gboolean seismo_cli_record_into (const SeismoBackend       *backend,
                                 const SeismoRecordOptions *options,
                                 SeismoTraceBuilder        *builder,
                                 SeismoRecordControl       *ctl,
                                 GError                   **error);

/* Teaching commands (seismo-cli-teach.c). */
int seismo_cli_explain          (int    argc,
                                 char **argv);
int seismo_cli_compare          (int    argc,
                                 char **argv);
int seismo_cli_compare_overhead (int    argc,
                                 char **argv);
int seismo_cli_lesson           (int    argc,
                                 char **argv);

/* seismo-cli-render.c */
int seismo_cli_render           (int    argc,
                                 char **argv);

/* seismo-cli-states.c */
int seismo_cli_states           (int    argc,
                                 char **argv);
int seismo_cli_critical_path    (int    argc,
                                 char **argv);

/* seismo-cli-stacks.c */
int seismo_cli_stacks           (int    argc,
                                 char **argv);

G_END_DECLS

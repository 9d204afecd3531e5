/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes of seismo-cli. */
#define SEISMO_EXIT_OK     0
#define SEISMO_EXIT_FAILED 1
#define SEISMO_EXIT_USAGE  2

int seismo_cli_record (int    argc,
                       char **argv);

G_END_DECLS

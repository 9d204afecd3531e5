/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* With SEISMO_STALL_LOG=FILE in the environment, logs every main-loop stall longer than a frame
 * to FILE for the GUI benchmark; without it, does nothing. */
void seismo_stall_log_start_from_env (void);

G_END_DECLS

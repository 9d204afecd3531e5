/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* With SEISMO_STALL_LOG=FILE in the environment, logs every main-loop stall longer than a frame,
 * and the arrival of each input in app's windows, to FILE for the GUI benchmarks; without it,
 * does nothing. */
void seismo_stall_log_start_from_env (GtkApplication *app);

G_END_DECLS

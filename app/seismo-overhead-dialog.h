/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/*
 * SeismoOverheadDialog: the observer effect, measured. It runs `seismo-cli compare-overhead
 * --json -- CMD` in a process of its own (through pkexec when the user is not root), which runs
 * CMD bare and under each backend, and draws the slowdowns side by side as bars, with the events
 * each backend captured and lost.
 */
#define SEISMO_TYPE_OVERHEAD_DIALOG (seismo_overhead_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SeismoOverheadDialog, seismo_overhead_dialog, SEISMO, OVERHEAD_DIALOG, AdwWindow)

SeismoOverheadDialog *seismo_overhead_dialog_new        (GtkWindow            *parent);
/* Starts a measurement of the command in the entry (as the Run button does). */
void                  seismo_overhead_dialog_run        (SeismoOverheadDialog *self);
/* Shows the result of `compare-overhead --json`. FALSE with error when it is not one. */
gboolean              seismo_overhead_dialog_show_json  (SeismoOverheadDialog *self,
                                                         const char           *json,
                                                         GError              **error);
/* Rows of the result shown, and how many of them were measured (not unavailable or failed). */
guint                 seismo_overhead_dialog_get_n_rows (SeismoOverheadDialog *self,
                                                         guint                *n_measured);
/* TRUE while a measurement runs. */
gboolean              seismo_overhead_dialog_get_busy   (SeismoOverheadDialog *self);

G_END_DECLS

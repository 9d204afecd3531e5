/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "seismo-timeline.h"
#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoWaitDialog: "Why was this slow?" for one task over an interval (a selected range, a
 * syscall, or what is in view): time per state, the waits split by syscall and by what ended them,
 * the longest waits for a CPU and their histogram (runnable latency), and the critical path as a table, computed on a worker thread and
 * highlighted on the timeline while the dialog is open.
 */
#define SEISMO_TYPE_WAIT_DIALOG (seismo_wait_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SeismoWaitDialog, seismo_wait_dialog, SEISMO, WAIT_DIALOG, AdwWindow)

SeismoWaitDialog *seismo_wait_dialog_new           (GtkWindow        *parent,
                                                    SeismoTimeline   *timeline,
                                                    SeismoTrace      *trace,
                                                    SeismoTaskId      task,
                                                    guint64           from_ns,
                                                    guint64           to_ns);
/* Segments of the critical path in the table; 0 while it is being computed. */
guint             seismo_wait_dialog_get_n_segments (SeismoWaitDialog *self);
/* Bars of the runnable-latency histogram; 0 when no wait for a CPU began and ended in the interval. */
guint             seismo_wait_dialog_get_n_latency_bars (SeismoWaitDialog *self);

G_END_DECLS

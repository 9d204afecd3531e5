/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "seismo-application.h"
#include "seismo-timeline.h"
#include "seismo-trace.h"
#include "seismo-window-read.h"

G_BEGIN_DECLS

#define SEISMO_TYPE_WINDOW (seismo_window_get_type ())
G_DECLARE_FINAL_TYPE (SeismoWindow, seismo_window, SEISMO, WINDOW, AdwApplicationWindow)

SeismoWindow   *seismo_window_new             (SeismoApplication  *app);
/* No trace shown, none loading, none recording: a new file may open here. */
gboolean        seismo_window_is_empty        (SeismoWindow       *self);
/* Opens file on a worker thread; errors are shown in a dialog. */
void            seismo_window_open_file       (SeismoWindow       *self,
                                               GFile              *file);
/* Opens file from the read of it the application started at launch (takes early). */
void            seismo_window_open_early_read (SeismoWindow       *self,
                                               GFile              *file,
                                               SeismoEarlyRead    *early);
/* Runs `seismo-cli ARGS -o TEMP.seismo` (through pkexec when not root) and shows the trace live.
 * args starts with "record". */
void            seismo_window_start_recording (SeismoWindow       *self,
                                               const char * const *args);
/* Borrowed; NULL when no trace is shown. */
SeismoTrace    *seismo_window_get_trace       (SeismoWindow       *self);
SeismoTimeline *seismo_window_get_timeline    (SeismoWindow       *self);
/* What the window shows: trace, filter and result, selection, markers, range, pane. */
SeismoView     *seismo_window_get_view        (SeismoWindow       *self);

G_END_DECLS

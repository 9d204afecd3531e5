/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-window.h"

G_BEGIN_DECLS

/* Sharing in the window (seismo-window-share.c): sessions, notes, exports, bundles, comparing.
 * The window calls the hooks from class_init, init, dispose, after opening a file and on close. */
typedef struct _SeismoWindowShare SeismoWindowShare;

void       _seismo_window_class_init_share   (GtkWidgetClass     *widget_class);
void       _seismo_window_init_share         (SeismoWindow       *self);
void       _seismo_window_dispose_share      (SeismoWindow       *self);
/* After a file was opened and shown: restores its session (FILE.seismo-session or a bundle's). */
void       _seismo_window_share_trace_opened (SeismoWindow       *self);
/* On close: saves the session beside the trace (errors only logged). */
void       _seismo_window_share_close        (SeismoWindow       *self);
/* After the trace was saved (self->file is the new file): saves the session beside it. */
void       _seismo_window_share_trace_saved  (SeismoWindow       *self);

/* Saves the view beside the trace now; TRUE when there was nothing to save. */
gboolean   _seismo_window_share_save_session (SeismoWindow       *self,
                                              GError            **error);
void       _seismo_window_share_add_note     (SeismoWindow       *self,
                                              guint64             time_ns,
                                              const char         *text);
gboolean   _seismo_window_share_export_bundle (SeismoWindow      *self,
                                              const char         *path,
                                              GError            **error);
/* A window comparing A and B; returned for tests. */
GtkWindow *_seismo_window_share_show_compare (SeismoWindow       *self,
                                              SeismoTrace        *trace_a,
                                              SeismoTimelineData *data_a,
                                              const char         *name_a,
                                              SeismoTrace        *trace_b,
                                              SeismoTimelineData *data_b,
                                              const char         *name_b);

G_END_DECLS

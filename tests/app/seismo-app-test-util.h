/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "seismo-application.h"
#include "seismo-window.h"

G_BEGIN_DECLS

/* The application's checks: called once its first window is up; the app quits after. */
typedef void (*SeismoAppTestChecks) (SeismoApplication *app);

/* Runs a SeismoApplication on files (n_files may be 0: an empty window) with no D-Bus name, so
 * tests run side by side, and fails the test unless checks ran and the app exited with 0. */
void              seismo_app_test_run            (char              **files,
                                                  int                 n_files,
                                                  SeismoAppTestChecks checks);

/* The application's one window (the test fails if there are more). Borrowed. */
SeismoWindow     *seismo_app_test_only_window    (SeismoApplication  *app);

/* The message dialog shown over parent, or NULL. Borrowed. */
AdwMessageDialog *seismo_app_test_find_dialog    (GtkWindow          *parent);

/* Conditions for seismo_gui_test_wait_for(), on a SeismoWindow. */
gboolean          seismo_app_test_has_dialog     (gpointer            window);
gboolean          seismo_app_test_recording_live (gpointer            window);
gboolean          seismo_app_test_recording_over (gpointer            window);

/* Waits until the window's recording shows more events than it does now: FALSE if it did not
 * within timeout_ms. */
gboolean          seismo_app_test_wait_growth    (gpointer            window,
                                                  guint               timeout_ms);

/* Saves what widget shows, as its window's renderer draws it, to dir/name (PNG). */
void              seismo_app_test_save_png       (GtkWidget          *widget,
                                                  const char         *dir,
                                                  const char         *name);

G_END_DECLS

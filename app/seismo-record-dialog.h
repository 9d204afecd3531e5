/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "seismo-window.h"

G_BEGIN_DECLS

/*
 * SeismoRecordDialog: what to record (backend, events, target, duration, buffer). "Record" runs
 * the recording in the parent window when it is empty, else in a new window.
 */
#define SEISMO_TYPE_RECORD_DIALOG (seismo_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SeismoRecordDialog, seismo_record_dialog, SEISMO, RECORD_DIALOG, AdwWindow)

GtkWindow  *seismo_record_dialog_new      (SeismoWindow       *parent);
/* The seismo-cli arguments the dialog's choices stand for ("record", "-b", …). Caller frees.
 * NULL with a message in error when a choice is missing or wrong. */
char      **seismo_record_dialog_get_args (SeismoRecordDialog *self,
                                           GError            **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-backend.h"

G_BEGIN_DECLS

/*
 * SeismoRecorder: one recording session, the same for every backend (the backend's part is its
 * SeismoBackendOps, seismo-backend.h; docs/backends.md).
 *
 * It checks the options against the backend's capabilities and the target (-p PID: a process the
 * pkexec user could trace, read through one /proc descriptor), sweeps stale tracing state, sets
 * the metadata every trace has, launches the command held before its exec as the user the
 * recording is for (unless the backend launches it, SEISMO_BACKEND_CAP_LAUNCHES), releases it once
 * tracing is on, and runs the control loop: the stop flag (set from a signal handler or the GUI),
 * the duration, the command's or the process's exit. Then it ends a command still running when the
 * recording stopped early (kill_on_stop), and gives its wait status in ctl->exit_status.
 *
 * Streaming to OUTPUT.partial and OUTPUT.live is the progress callback's (seismo-cli), which the
 * backend calls from the thread that fills the builder, on seismo-progress.h's cadence.
 */

/* Records into builder until ctl->stop, the duration, or the end of the target. Restores every
 * piece of tracing state it changed before returning, also on error. */
gboolean                   seismo_recorder_record          (const SeismoBackend       *backend,
                                                            const SeismoRecordOptions *options,
                                                            SeismoTraceBuilder        *builder,
                                                            SeismoRecordControl       *ctl,
                                                            GError                   **error);
/*
 * Whether options suit backend's capabilities (no -a for a backend that cannot record the whole
 * system…), and name one target. FALSE with SEISMO_ERROR_BAD_OPTION saying what does not.
 */
gboolean                   seismo_recorder_check_options   (const SeismoBackend       *backend,
                                                            const SeismoRecordOptions *options,
                                                            GError                   **error);
/*
 * Under pkexec the recorder runs as root for a user who may not be: it follows (-p) only a
 * process that user could trace anyway (ptrace's rule: same user ids throughout, and dumpable, so
 * that /proc/PID is the user's). FALSE with SEISMO_ERROR_PERMISSION otherwise.
 */
gboolean                   seismo_recorder_check_target    (GPid                       pid,
                                                            GError                   **error);

/*
 * Until seismo_recorder_uncatch_signals(), SIGINT, SIGTERM and SIGHUP stop the recording that ctl
 * controls (they set ctl->stop, and *stopped_by_user when not NULL) instead of killing the
 * process, so that what was recorded is saved. For a process's one recording at a time.
 */
void                       seismo_recorder_catch_signals   (SeismoRecordControl       *ctl,
                                                            volatile gint             *stopped_by_user);
void                       seismo_recorder_uncatch_signals (void);

/* For the backend's ops. */
const SeismoBackend       *seismo_recorder_get_backend     (SeismoRecorder            *self);
const SeismoRecordOptions *seismo_recorder_get_options     (SeismoRecorder            *self);
SeismoTraceBuilder        *seismo_recorder_get_builder     (SeismoRecorder            *self);
SeismoRecordControl       *seismo_recorder_get_control     (SeismoRecorder            *self);
/* The launched command (held before its exec while start() runs), else -p PID, else 0. */
GPid                       seismo_recorder_get_target_pid  (SeismoRecorder            *self);
/* Whether the recorder launched the command (not with SEISMO_BACKEND_CAP_LAUNCHES). */
gboolean                   seismo_recorder_has_command     (SeismoRecorder            *self);
/* CLOCK_MONOTONIC ns when --duration ends the recording; G_MAXUINT64 without one. Set when the
 * recording starts (after start(), once the command is released). */
guint64                    seismo_recorder_get_deadline_ns (SeismoRecorder            *self);
/* The stop flag or the duration: for a backend whose poll() is its own wait loop. */
gboolean                   seismo_recorder_should_stop     (SeismoRecorder            *self,
                                                            guint64                    now_ns);
/* Ends the command the recorder launched if the recording stopped before it did (and with
 * kill_on_stop, or on failure, kills it). Runs once; see SeismoBackendOps. */
void                       seismo_recorder_end_command     (SeismoRecorder            *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <event-parse.h>
#include <glib.h>

G_BEGIN_DECLS

/*
 * Event formats read from a file (trace.dat) come from whoever made the file, and libtraceevent
 * 1.7's format parser crashes on some damaged ones: a "REC->x" naming no field as the first
 * argument of __print_symbolic() or __print_flags() (or anywhere after such a call in an earlier
 * format that left the parser's static flag set) makes it write through a NULL field. Rather than
 * rely on knowing every such bug, each format is first parsed in a trial process, a fork of this
 * one holding a copy of the same tep handle; a format that kills (or hangs) the trial process is
 * never given to the real handle, and a warning names the file and the event (or a debug message:
 * seismo_tep_guard_set_skip_level()).
 *
 * One fork per guard (per file), made by seismo_tep_guard_new(), and one more after each crash.
 * The trial process parses exactly what the real handle parses, in the same order, so it is
 * always in the state the real handle will be in.
 */
typedef struct _SeismoTepGuard SeismoTepGuard;

/* Starts the trial process for tep. path names the file in the warnings. Fork before starting
 * threads that allocate: the trial process allocates, and inherits their locks. */
SeismoTepGuard *seismo_tep_guard_new   (struct tep_handle *tep,
                                        const char        *path);
/* Ends the trial process. */
void            seismo_tep_guard_free  (SeismoTepGuard    *guard);

/*
 * tep_parse_event (tep, text, size, system) once the trial process survived the same call.
 * FALSE when it did not (tep is left untouched and a warning was logged); otherwise TRUE, with
 * libtraceevent's own result in *result (a print format it could not parse still leaves the
 * fields usable). Serialized: libtraceevent's parser works on static variables.
 */
gboolean        seismo_tep_guard_parse (SeismoTepGuard    *guard,
                                        const char        *text,
                                        gsize              size,
                                        const char        *system,
                                        enum tep_errno    *result);

/*
 * tep_parse_event() for a format of the running kernel (trusted, no trial process), under the
 * same lock and with the same reset of the parser's static state, so a live recording and a
 * trace.dat being opened at the same time never parse at once.
 */
enum tep_errno  seismo_tep_parse_local (struct tep_handle *tep,
                                        const char        *text,
                                        gsize              size,
                                        const char        *system);

/* A format the guard kept from the tep handle, as the warning named it. */
typedef struct {
  int   id;       /* the format's ID, -1 when it names none */
  char *event;    /* "system:name", escaped (the bytes come from the file) */
} SeismoTepSkipped;

/* The formats skipped so far, SeismoTepSkipped in the order they were skipped; owned by guard. */
const GArray   *seismo_tep_guard_get_skipped (SeismoTepGuard *guard);
/* The log level of the message naming each skipped format, G_LOG_LEVEL_WARNING by default; a
 * caller that shows seismo_tep_guard_get_skipped() itself lowers it to G_LOG_LEVEL_DEBUG. */
void            seismo_tep_guard_set_skip_level (SeismoTepGuard *guard,
                                                 GLogLevelFlags  level);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoTepGuard, seismo_tep_guard_free)

G_END_DECLS

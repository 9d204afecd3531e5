/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * SeismoSession: the view state saved beside a trace, FILE.seismo-session (JSON, described in
 * docs/file-format.md, appendix "Sessions and bundles"): zoom range, markers, filter text,
 * hidden and pinned rows, selected event, open panes and notes attached to times. A bundle is a
 * .seismo file that carries a session in its metadata (key SEISMO_SESSION_METADATA_KEY), so one
 * file gives a student the trace and the teacher's view of it.
 *
 * Times are absolute trace timestamps in ns, like the trace's own. Rows are named by what stays
 * true when the trace is loaded again: CPU number, pid, tid.
 */

#define SEISMO_SESSION_EXTENSION     ".seismo-session"
#define SEISMO_SESSION_METADATA_KEY  "seismo.session"
#define SEISMO_SESSION_VERSION       1
/* Larger session files are refused before parsing: a real one is a few kB. */
#define SEISMO_SESSION_MAX_SIZE      (16 * 1024 * 1024)
/* A session nests 3 deep; deeper input is refused before parsing. */
#define SEISMO_SESSION_MAX_DEPTH     32

#define SEISMO_SESSION_ERROR (seismo_session_error_quark ())

typedef enum {
  SEISMO_SESSION_ERROR_INVALID,      /* not JSON, or not a session's shape */
  SEISMO_SESSION_ERROR_VERSION,      /* a newer session version */
} SeismoSessionError;

typedef enum {
  SEISMO_SESSION_ROW_CPUS,           /* the CPU group */
  SEISMO_SESSION_ROW_CPU,            /* id: CPU number */
  SEISMO_SESSION_ROW_PROCESS,        /* id: pid */
  SEISMO_SESSION_ROW_TASK,           /* id: tid */
} SeismoSessionRowKind;

typedef struct {
  SeismoSessionRowKind kind;
  gint64               id;
} SeismoSessionRow;

typedef struct {
  guint64  time_ns;
  char    *text;
} SeismoSessionNote;

typedef struct {
  /* What it was saved for; a session of another trace is still applied, where it fits. */
  char      *trace_name;        /* basename; NULL: unknown */
  guint64    trace_events;      /* 0: unknown */

  gboolean   has_view;
  guint64    view_start_ns;
  guint64    view_end_ns;
  gboolean   has_marker[2];     /* A, B */
  guint64    marker_ns[2];
  gboolean   has_range;
  guint64    range_start_ns;
  guint64    range_end_ns;
  char      *filter;            /* NULL: none */
  GArray    *hidden_rows;       /* SeismoSessionRow */
  GArray    *pinned_rows;       /* SeismoSessionRow, in pin order */
  gint64     selected_event;    /* event index; -1: none */
  GPtrArray *panes;             /* char *: "events", "details", "histogram", "statistics", ... */
  GArray    *notes;             /* SeismoSessionNote, in time order */
} SeismoSession;

GQuark         seismo_session_error_quark        (void);

/* An empty session (nothing saved yet). Free with seismo_session_free(). */
SeismoSession *seismo_session_new                (void);
void           seismo_session_free               (SeismoSession        *self);

/*
 * Parses a session from len bytes of JSON (no terminator needed). Never trusts the input:
 * anything that is not a session of a known version is a GError (SEISMO_SESSION_ERROR), never a
 * crash. Unknown keys are ignored, so newer writers stay readable. Caller owns the result.
 */
SeismoSession *seismo_session_load_from_data     (const char           *data,
                                                  gsize                 len,
                                                  GError              **error);
/* Reads a session file; errors name the file. */
SeismoSession *seismo_session_load               (const char           *path,
                                                  GError              **error);
/* The JSON text (pretty-printed, NUL-terminated). Caller frees. */
char          *seismo_session_to_data            (const SeismoSession  *self,
                                                  gsize                *len);
/* The same JSON on one line, for a bundle's metadata (`seismo-cli info` prints it). Caller frees. */
char          *seismo_session_to_line            (const SeismoSession  *self);
/* Writes atomically (temporary file, fsync, rename). */
gboolean       seismo_session_save               (const SeismoSession  *self,
                                                  const char           *path,
                                                  GError              **error);

/* "DIR/trace.dat" -> "DIR/trace.dat.seismo-session". Caller frees. */
char          *seismo_session_path_for_trace     (const char           *trace_path);

/* Adds a note, keeping time order. */
void           seismo_session_add_note           (SeismoSession        *self,
                                                  guint64               time_ns,
                                                  const char           *text);
void           seismo_session_add_row            (GArray               *rows,
                                                  SeismoSessionRowKind  kind,
                                                  gint64                id);

/* The session a bundle carries; NULL without error when the trace carries none. */
SeismoSession *seismo_session_from_trace         (SeismoTrace          *trace,
                                                  GError              **error);
/*
 * The session for the trace at trace_path: its FILE.seismo-session when there is one (the
 * latest state), else the one the trace carries as a bundle. NULL without error when neither.
 */
SeismoSession *seismo_session_find_for_trace     (SeismoTrace          *trace,
                                                  const char           *trace_path,
                                                  GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoSession, seismo_session_free)

G_END_DECLS

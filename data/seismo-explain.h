/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace.h"

G_BEGIN_DECLS

/*
 * "Explain this": short explanations of system calls, tracepoints, errno values and scheduler
 * state letters, for learners. The texts are data files (data/explain/, compiled into the
 * data library as a GResource), translatable as KEY[LANG]= entries.
 */

typedef enum {
  SEISMO_EXPLAIN_SYSCALL = 0,
  SEISMO_EXPLAIN_EVENT,
  SEISMO_EXPLAIN_ERRNO,
  SEISMO_EXPLAIN_SCHED_STATE,
} SeismoExplainKind;

/* An argument of a syscall, a field of a tracepoint, or one letter of a scheduler state. */
typedef struct {
  char *name;          /* "filename", "prev_state", "S" */
  char *type;          /* C type as the kernel declares it ("const char *"); NULL for letters */
  char *description;   /* NULL when there is none */
} SeismoExplainItem;

typedef struct {
  SeismoExplainKind  kind;
  char              *title;        /* "openat(2)", "sched:sched_switch", "ENOENT (2)", "R+" */
  char              *summary;      /* one line, never NULL */
  char              *description;  /* a few sentences; NULL when none */
  char              *note;         /* caveats ("Removed in Linux 5.5"); NULL when none */
  SeismoExplainItem *items;        /* arguments, fields or letters, in order */
  guint              n_items;
  char              *man_page;     /* "openat(2)"; NULL when there is no man page */
  char              *man_uri;      /* "man:openat(2)" (for g_app_info_launch_default_for_uri) */
  char              *web_url;      /* "https://man7.org/linux/man-pages/man2/open.2.html" */
} SeismoExplanation;

#define SEISMO_TYPE_EXPLANATION (seismo_explanation_get_type ())
GType              seismo_explanation_get_type      (void) G_GNUC_CONST;
SeismoExplanation *seismo_explanation_copy          (const SeismoExplanation *self);
void               seismo_explanation_free          (SeismoExplanation       *self);

/* Each returns a new explanation the caller frees, or NULL when there is nothing to say. */

/* name: "openat", or a tracepoint spelling ("newstat") of it. */
SeismoExplanation *seismo_explain_syscall           (const char              *name);
/* A tracepoint ("sched", "sched_switch"). syscalls:sys_enter_NAME / sys_exit_NAME explain the
 * syscall; an unknown event of a known system gets the system's explanation. */
SeismoExplanation *seismo_explain_event             (const char              *system,
                                                     const char              *name);
/* errnum as a positive errno or a negative return (-2); kernel-internal codes (512..) too. */
SeismoExplanation *seismo_explain_errno             (int                      errnum);
/* "R", "R+", "S", "D|K": one item per letter. NULL when a letter is unknown. */
SeismoExplanation *seismo_explain_sched_state       (const char              *letters);

/*
 * Everything worth explaining about one event of a trace, most specific first: the syscall (also
 * for raw_syscalls events, by number), the event type, the errno of a failed return, the state
 * letters of a sched_switch. Returns a GPtrArray of SeismoExplanation (owns them), maybe empty.
 */
GPtrArray         *seismo_explain_trace_event       (SeismoTrace             *trace,
                                                     SeismoEventId            event);

/* Plain text for a terminal (seismo-cli explain). Caller owns the string. */
char              *seismo_explanation_to_text       (const SeismoExplanation *self);

/* Names of every syscall with an entry, sorted. Caller owns the array, not the strings. */
GPtrArray         *seismo_explain_list_syscalls     (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoExplanation, seismo_explanation_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/* Which call stacks to capture with each event (--stacks). */
typedef enum {
  SEISMO_STACK_NONE   = 0,
  SEISMO_STACK_USER   = 1 << 0,
  SEISMO_STACK_KERNEL = 1 << 1,
  SEISMO_STACK_BOTH   = SEISMO_STACK_USER | SEISMO_STACK_KERNEL,
} SeismoStackMode;

/* What to record. Arrays are NULL-terminated; unset fields are 0/NULL. */
typedef struct {
  char     **events;       /* ftrace: "sched:*", "irq:irq_handler_*"; NULL → backend default */
  char     **syscalls;     /* ptrace/eBPF -e filter: "openat", "%file"; NULL → all */
  char     **probes;       /* eBPF --probe: "kprobe:do_sys_openat2", "uprobe:/bin/x:main" */
  gboolean   system_wide;  /* -a */
  GPid       pid;          /* -p PID (0: none) */
  gboolean   children;     /* --children: follow the pid's descendants */
  char     **argv;         /* -- CMD ARGS…: launch this */
  double     duration_s;   /* 0: until stopped or the command exits */
  guint      buffer_kb;    /* per-CPU (ftrace) or ring (eBPF) size; 0: default */
  gboolean   aggregate;    /* eBPF: in-kernel histograms only */
  gboolean   kill_on_stop; /* launched commands are killed when recording stops early */
  SeismoStackMode stacks;  /* --stacks: always a kind the backend can capture (checked first) */
} SeismoRecordOptions;

/*
 * Shared between the recorder thread and whoever controls it. The backend polls `stop` (set from a
 * signal handler or the GUI) at least every 100 ms, and updates the counters as it goes.
 */
typedef struct {
  gint      stop;            /* g_atomic_int */
  guint64   events;          /* g_atomic: events appended so far */
  guint64   lost;            /* g_atomic: events lost so far */
  int       exit_status;     /* launched command's wait status, -1 if none */
  /* Called from the thread that appends to the builder, between events (so it may flush or
   * snapshot the builder), as soon as a chunk of 65536 events is complete and otherwise about
   * twice a second (seismo-progress.h); may be NULL. */
  void    (*progress) (gpointer user_data);
  gpointer  user_data;
} SeismoRecordControl;

typedef struct {
  const char  *name;           /* "ftrace", "ptrace", "ebpf" */
  const char  *description;
  /* TRUE when the backend can run here; else FALSE and *why says what is missing. */
  gboolean   (*available)    (char                     **why);
  /* Lists what can be recorded (ftrace: events with formats); NULL when not applicable. */
  GPtrArray *(*list_events)  (GError                   **error);
  /*
   * Records into builder until ctl->stop, the duration, or the launched command's exit. Restores
   * every piece of tracing state it changed before returning, also on error.
   */
  gboolean   (*record)       (const SeismoRecordOptions *options,
                              SeismoTraceBuilder        *builder,
                              SeismoRecordControl       *ctl,
                              GError                   **error);
  /* The kinds of stacks it can capture (none: SEISMO_STACK_NONE), and what `--stacks` alone
   * means for it. */
  SeismoStackMode stacks;
  SeismoStackMode default_stacks;
} SeismoBackend;

/* Registers the backends and the importers they provide (trace.dat…). Safe to call twice. */
void                        seismo_backends_init   (void);
const SeismoBackend *const *seismo_backends_get    (guint      *n_backends);
const SeismoBackend        *seismo_backend_lookup  (const char *name);
/*
 * Removes what killed recorders left enabled in the kernel (the tracefs instances of an ftrace
 * recorder SIGKILLed together with its guard), when this process may (root) and without mounting
 * anything; says so with a message. Every backend's record() runs it first, so the pkexec
 * recorder the GUI starts sweeps too; the GUI itself runs it when it runs as root. Returns how
 * many it removed.
 */
guint                       seismo_backends_sweep_stale (void);

/* "user", "kernel", "both" → the mode; NULL → default_stacks. FALSE with a usage error else. */
gboolean                    seismo_backend_parse_stacks (const SeismoBackend *backend,
                                                         const char          *spelling,
                                                         SeismoStackMode     *mode,
                                                         GError             **error);
/* FALSE with SEISMO_ERROR_BAD_OPTION naming what it can do when the backend cannot capture mode. */
gboolean                    seismo_backend_check_stacks (const SeismoBackend *backend,
                                                         SeismoStackMode      mode,
                                                         GError             **error);
const char                 *seismo_stack_mode_to_string (SeismoStackMode      mode);

G_END_DECLS

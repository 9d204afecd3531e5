/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

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

G_END_DECLS

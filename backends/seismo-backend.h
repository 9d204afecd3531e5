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

typedef struct _SeismoRecorder SeismoRecorder;

/*
 * What a backend can do, declared in its SeismoBackend: the record dialog, seismo-cli record and
 * compare-overhead read these, never a backend's name (docs/backends.md).
 */
typedef enum {
  SEISMO_BACKEND_CAP_EVENTS         = 1 << 0,  /* -e names tracepoints ("sched:*"), list_events lists them */
  SEISMO_BACKEND_CAP_SYSCALL_FILTER = 1 << 1,  /* -e names syscalls or classes ("openat", "%file") */
  SEISMO_BACKEND_CAP_PROBES         = 1 << 2,  /* --probe */
  SEISMO_BACKEND_CAP_AGGREGATE      = 1 << 3,  /* --aggregate: in-kernel histograms */
  SEISMO_BACKEND_CAP_COMMAND        = 1 << 4,  /* -- CMD: records a command it launches */
  SEISMO_BACKEND_CAP_ATTACH         = 1 << 5,  /* -p PID */
  SEISMO_BACKEND_CAP_SYSTEM_WIDE    = 1 << 6,  /* -a */
  SEISMO_BACKEND_CAP_CHILDREN       = 1 << 7,  /* follows the target's children (--children with -p) */
  SEISMO_BACKEND_CAP_BUFFER_SIZE    = 1 << 8,  /* --buffer-kb */
  SEISMO_BACKEND_CAP_NEEDS_ROOT     = 1 << 9,  /* runs as root (through pkexec for a user) */
  /* Launches (or attaches to) the command itself, in start(): the recorder does not hold one. */
  SEISMO_BACKEND_CAP_LAUNCHES       = 1 << 10,
} SeismoBackendCaps;

/*
 * The session belongs to SeismoRecorder (seismo-recorder.h): target checks, the command launched
 * and held before its exec, the control loop (stop flag, duration, the command's or the process's
 * exit), common metadata and kill-on-stop. A backend only traces, through these calls, in order:
 *
 *   prepare  before any command exists: check options, set tracing up (nothing enabled yet)
 *   start    the target is known (seismo_recorder_get_target_pid(): the held command or -p PID):
 *            filter on it and turn tracing on; with SEISMO_BACKEND_CAP_LAUNCHES, launch or attach
 *   poll     every poll_us while recording: take in data, report progress; FALSE when the backend
 *            is done or failed (finish says which). May block while seismo_recorder_should_stop()
 *            says no (a backend that is its own wait loop).
 *   stop     optional, at once when recording ends: stop tracing (before the command is ended)
 *   finish   hand everything left to the builder; FALSE with error when recording failed
 *   free     undo everything, also after a failed prepare or start
 *
 * A backend whose trace should show a command killed on stop calls seismo_recorder_end_command()
 * itself at the start of finish(); otherwise the recorder ends it after finish().
 */
typedef struct {
  gsize      state_size;   /* the recorder allocates this much state, zeroed */
  guint      poll_us;
  gboolean (*prepare) (SeismoRecorder *recorder, gpointer state, GError **error);
  gboolean (*start)   (SeismoRecorder *recorder, gpointer state, GError **error);
  gboolean (*poll)    (SeismoRecorder *recorder, gpointer state);
  void     (*stop)    (SeismoRecorder *recorder, gpointer state);
  gboolean (*finish)  (SeismoRecorder *recorder, gpointer state, GError **error);
  void     (*free)    (SeismoRecorder *recorder, gpointer state);
} SeismoBackendOps;

typedef struct {
  const char          *name;           /* -b NAME, and the trace's "backend" metadata */
  const char          *display_name;   /* for people: "eBPF" */
  const char          *description;
  SeismoBackendCaps    caps;
  SeismoStackMode      stacks;         /* kinds of stacks --stacks can ask for */
  /* TRUE when the backend can run here; else FALSE and *why says what is missing. */
  gboolean   (*available)    (char                     **why);
  /* Lists what can be recorded (ftrace: events with formats); NULL when not applicable. */
  GPtrArray *(*list_events)  (GError                   **error);
  /* Optional: registers the importers it provides (trace.dat…), once (seismo_backends_init). */
  void       (*init)         (void);
  /* Optional: removes what its killed recorders left in the kernel; returns how many. */
  guint      (*sweep_stale)  (void);
  /* The kinds of stacks it can capture (none: SEISMO_STACK_NONE), and what `--stacks` alone
   * means for it. */
  SeismoStackMode      default_stacks;
  const SeismoBackendOps *ops;
} SeismoBackend;

static inline gboolean
seismo_backend_can (const SeismoBackend *backend,
                    SeismoBackendCaps    caps)
{
  return (backend->caps & caps) == caps;
}

/* Registers the backends and the importers they provide (trace.dat…). Safe to call twice. */
void                        seismo_backends_init   (void);
const SeismoBackend *const *seismo_backends_get    (guint      *n_backends);
const SeismoBackend        *seismo_backend_lookup  (const char *name);
/* Names of the backends the sources have and this build lacks (NULL-terminated), so that what
 * lists backends can say they are not built in. */
const char *const          *seismo_backends_get_unbuilt (void);
/*
 * Removes what killed recorders left enabled in the kernel (the tracefs instances of an ftrace
 * recorder SIGKILLed together with its guard), when this process may (root) and without mounting
 * anything; says so with a message. SeismoRecorder runs it before every recording, so the
 * pkexec recorder the GUI starts sweeps too; the GUI itself runs it when it runs as root. Returns how many it removed.
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

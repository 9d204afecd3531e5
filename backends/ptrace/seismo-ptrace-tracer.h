/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The tracer's state, shared by the stop handling (seismo-ptrace-tracer.c) and the setup and
 * wait loop (seismo-ptrace-backend.c). Used from the tracer thread only, except where marked.
 */

#include <sched.h>
#include <sys/ptrace.h>
#include <sys/types.h>

#include "seismo-backend.h"
#include "seismo-clock.h"
#include "seismo-progress.h"
#include "seismo-ptrace-private.h"
#include "seismo-ptrace-unwind.h"

G_BEGIN_DECLS

#define PTRACE_OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK \
                        | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT)

typedef struct {
  pid_t    tid;
  pid_t    pid;                /* thread group id */
  guint    in_syscall : 1;     /* entry seen, exit next */
  guint    recording : 1;      /* FALSE for the launched child until its first exec */
  guint    own_affinity : 1;   /* it set its CPU affinity itself: co-location leaves it alone */
  guint    release : 1;        /* not ours to watch (pkexec): detach at its next stop */
  guint    entry_emitted : 1;  /* the enter event of the syscall in progress is appended */
  guint    arch : 2;           /* SeismoArch of the syscall in progress */
  guint64  entry_ns;
  guint64  nr;
  guint64  args[6];
  char    *exec_filename;      /* exec: from the new image, for the execve exit */
  char    *exec_argv;
  char     comm[16];
} Tracee;

typedef struct {
  const SeismoRecordOptions *options;
  SeismoTraceBuilder        *builder;
  SeismoRecordControl       *ctl;
  SeismoPtraceSchema        *schema;
  SeismoPtraceFilter        *filter;
  gboolean                   seccomp;       /* tracees run under our seccomp prefilter */
  pid_t                      launched;      /* 0 when attached */
  int                        launch_err_fd; /* why the launched child could not exec, or -1 */
  gint64                     for_uid;       /* under pkexec, the user asking (PKEXEC_UID); or -1 */
  GHashTable                *tracees;       /* tid → Tracee */
  Tracee                    *last;          /* the tracee of the previous stop */
  gint64                     sigreturn_nr[SEISMO_ARCH_N];
  guint64                    events;
  guint64                    stops;         /* ptrace stops handled, for the metadata */
  guint64                    deadline_ns;   /* G_MAXUINT64: none */
  guint64                    next_progress_ns;
  SeismoProgressPacer        pacer;
  int                        wait_errno;    /* waitpid() failed with it: the recording did */
  SeismoPtraceUnwind        *unwind;        /* --stacks; NULL without */
  GString                   *quoted;
  guint8                    *mem;           /* scratch for tracee memory */

  /* Co-location (see the section of that name). */
  gboolean                   colocate;
  cpu_set_t                  free_mask;     /* the CPUs the command would have had */
  cpu_set_t                  one_cpu;       /* the tracer's */
  Tracee                    *pinned;        /* the task sharing the tracer's CPU */
  gint64                     getaffinity_nr[SEISMO_ARCH_N];
  gint64                     setaffinity_nr[SEISMO_ARCH_N];

  /* Shared with the watcher thread. */
  GMutex                     watch_lock;
  GCond                      watch_cond;
  gboolean                   watch_quit;
  guint64                    loop_ns;       /* atomic: when the loop last ran */
  GThread                   *watcher;
  guint8                    *waker_stack;
} Recorder;

/* Syscalls the co-location needs to see even when the filter leaves them out. */
extern const char *const seismo_ptrace_colocate_syscalls[];

Tracee  *seismo_ptrace_tracee_add         (Recorder *r,
                                           pid_t     tid,
                                           pid_t     pid);
void     seismo_ptrace_tracee_free        (gpointer  data);
void     seismo_ptrace_read_proc_comm     (pid_t     tid,
                                           char      comm[16]);
/* All of tid's user ids are uid, and it is dumpable (its /proc entry is uid's). */
gboolean seismo_ptrace_task_is_users      (pid_t     tid,
                                           uid_t     uid);
/* Thread group id and parent pid of tid, from /proc; -1 when unknown. */
void     seismo_ptrace_read_proc_ids      (pid_t     tid,
                                           pid_t    *tgid,
                                           pid_t    *ppid);
/* Handles one waitpid() report of the wait loop. */
void     seismo_ptrace_handle_status      (Recorder *r,
                                           pid_t     tid,
                                           int       status,
                                           guint64   now);
/* Stopping: every tracee detached (runs on untraced) or killed, and reaped. */
void     seismo_ptrace_detach_all         (Recorder *r);
void     seismo_ptrace_kill_all           (Recorder *r);
/* Co-location of a launched command's single task with the tracer. */
void     seismo_ptrace_colocate_setup     (Recorder *r);
void     seismo_ptrace_colocate_update    (Recorder *r);
void     seismo_ptrace_colocate_teardown  (Recorder *r);

G_END_DECLS

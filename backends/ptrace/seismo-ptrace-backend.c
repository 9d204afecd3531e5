/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace"

/*
 * The ptrace backend: strace's view of a process tree (every syscall with decoded arguments, forks,
 * execs, signals, exits), recorded into a SeismoTraceBuilder.
 *
 * One thread is the tracer: it launches (or seizes) the tracees and runs the wait loop here; what
 * each stop means is seismo-ptrace-tracer.c's business. With a -e filter, launched commands get
 * a seccomp-bpf program so that unwanted syscalls do not stop at all.
 *
 * A watcher thread makes sure the tracer notices a stop request, the duration and the progress
 * interval even while every tracee sleeps: it wakes the tracer's waitpid() by running a child
 * that exits at once.
 */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-launch.h"
#include "seismo-progress.h"
#include "seismo-ptrace-tracer.h"
#include "seismo-recorder.h"

/* --- The watcher ------------------------------------------------------------------------- */

static int
waker_main (void *data)
{
  return 0;
}

#define WAKER_STACK_SIZE 16384

/* Runs a child that exits at once: its exit ends the tracer's waitpid(). */
static void
wake_tracer (Recorder *r)
{
  /* CLONE_VFORK: this thread waits until the child has exited, so one stack is enough. */
  clone (waker_main, r->waker_stack + WAKER_STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
}

static gpointer
watcher_main (gpointer data)
{
  Recorder *r = data;

  g_mutex_lock (&r->watch_lock);
  while (!r->watch_quit)
    {
      gint64 idle_ns;
      guint64 now;

      g_cond_wait_until (&r->watch_cond, &r->watch_lock,
                         g_get_monotonic_time () + 40 * G_TIME_SPAN_MILLISECOND);
      if (r->watch_quit)
        break;
      now = seismo_mono_now_ns ();
      idle_ns = (gint64) (now - __atomic_load_n (&r->loop_ns, __ATOMIC_RELAXED));
      /* Only poke a tracer that sits in waitpid(): a busy one checks these itself. */
      if (idle_ns > 30 * 1000000
          && (g_atomic_int_get (&r->ctl->stop) || now >= r->deadline_ns
              || now >= __atomic_load_n (&r->next_progress_ns, __ATOMIC_RELAXED)))
        wake_tracer (r);
    }
  g_mutex_unlock (&r->watch_lock);
  return NULL;
}

/* --- Setup ------------------------------------------------------------------------------- */

/* What the launched child reports when it could not become the command. */
typedef enum {
  LAUNCH_IDENTITY = 1,
  LAUNCH_SECCOMP,
  LAUNCH_EXEC,
} LaunchStage;

typedef struct {
  int stage;
  int err;
} LaunchFailure;

/*
 * An ELF file for i386 that the kernel refused: its 32-bit emulation is off (built without
 * IA32_EMULATION, booted with ia32_emulation=off, or a hypervisor that does not allow it).
 */
static gboolean
is_elf32 (const char *path)
{
  guint8 ident[5] = { 0 };
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gssize n;

  if (fd < 0)
    return FALSE;
  n = read (fd, ident, sizeof ident);
  close (fd);
  return n == sizeof ident && memcmp (ident, "\177ELF", 4) == 0 && ident[4] == 1;
}

/*
 * After the launched child is gone or running its command: when it died before its exec, the
 * error saying why. Non-blocking: a child that is still starting has said nothing yet.
 */
static gboolean
check_launch (Recorder  *r,
              GError   **error)
{
  LaunchFailure failure = { 0 };
  const char *argv0;
  g_autofree char *path = NULL;
  gssize n;

  if (r->launch_err_fd < 0)
    return TRUE;
  argv0 = r->options->argv[0];
  n = read (r->launch_err_fd, &failure, sizeof failure);
  close (r->launch_err_fd);
  r->launch_err_fd = -1;
  if (n != sizeof failure)
    return TRUE;
  if (failure.stage == LAUNCH_IDENTITY)
    g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_PERMISSION,
                 _("Could not run %s as user %" PRId64 ": %s"), argv0, r->for_uid,
                 g_strerror (failure.err));
  else if (failure.stage == LAUNCH_SECCOMP)
    g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                 _("Could not run %s: installing the seccomp syscall filter: %s"), argv0,
                 g_strerror (failure.err));
  else
    g_set_error (error, SEISMO_ERROR,
                 failure.err == EACCES || failure.err == EPERM ? SEISMO_ERROR_PERMISSION
                                                                : SEISMO_ERROR_FAILED,
                 _("Could not run %s: execve: %s%s"), argv0, g_strerror (failure.err),
                 failure.err == ENOEXEC && (path = g_find_program_in_path (argv0)) != NULL
                 && is_elf32 (path)
                   ? _(" (an i386 program, and this kernel runs none: its 32-bit emulation is off)")
                   : "");
  return FALSE;
}

static gboolean
launch (Recorder  *r,
        GError   **error)
{
  char *const *argv = r->options->argv;
  g_autofree char *path = g_find_program_in_path (argv[0]);
  g_autoptr(GArray) prog = NULL;
  struct sock_fprog fprog = { 0 };
  SeismoLaunchPolicy policy;
  int err_pipe[2];
  int status;
  pid_t pid;
  Tracee *t;

  if (path == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("Could not run %s: command not found"), argv[0]);
      return FALSE;
    }
  if (r->seccomp)
    {
      prog = seismo_ptrace_filter_build_bpf (r->filter, seismo_ptrace_colocate_syscalls);
      fprog.len = prog->len;
      fprog.filter = (struct sock_filter *) (gpointer) prog->data;
    }

  /* PTRACE_O_EXITKILL ends it with us too, but only once it is seized. */
  seismo_launch_policy_init (&policy, r->options->kill_on_stop);
  if (r->for_uid >= 0 && !seismo_user_identity_of_uid (&policy.id, (uid_t) r->for_uid, error))
    return FALSE;
  /* The child tells what failed through this pipe; a successful exec closes it. */
  if (pipe2 (err_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    {
      return seismo_set_errno_error (error, errno, _("Could not start %s: pipe"), argv[0]);
    }
  pid = fork ();
  if (pid < 0)
    {
      int errsv = errno;

      close (err_pipe[0]);
      close (err_pipe[1]);
      return seismo_set_errno_error (error, errsv, _("Could not start %s: fork"), argv[0]);
    }
  if (pid == 0)
    {
      LaunchFailure failure;

      /* Only async-signal-safe calls from here on: the parent may have threads. */
      close (err_pipe[0]);
      /* Recording starts at the exec: the check's getppid() is not the command's. */
      seismo_launch_policy_hold (&policy);
      if (policy.die_with_recorder && getppid () != policy.recorder)
        _exit (127);
      raise (SIGSTOP);
      /*
       * Under pkexec, the command is the user's, not root's: from before its exec on. And since
       * a root tracer would let set-user-ID programs it runs keep their privileges, it gets
       * none (no_new_privs): it can do nothing under us that the user could not do.
       */
      failure.stage = LAUNCH_IDENTITY;
      if ((failure.err = seismo_launch_policy_apply (&policy)) != 0)
        {
          (void) !write (err_pipe[1], &failure, sizeof failure);
          _exit (127);
        }
      failure.stage = LAUNCH_SECCOMP;
      if (fprog.len == 0
          || syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0
          || (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
              && syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0))
        {
          failure.stage = LAUNCH_EXEC;
          execv (path, argv);
        }
      failure.err = errno;
      (void) !write (err_pipe[1], &failure, sizeof failure);
      _exit (127);
    }
  close (err_pipe[1]);
  r->launch_err_fd = err_pipe[0];

  if (waitpid (pid, &status, WSTOPPED) != pid || !WIFSTOPPED (status))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not start %s: it did not stop"),
                   argv[0]);
      return FALSE;
    }
  if (ptrace (PTRACE_SEIZE, pid, 0,
              PTRACE_OPTIONS | PTRACE_O_EXITKILL | (r->seccomp ? PTRACE_O_TRACESECCOMP : 0)) < 0)
    {
      int errsv = errno;

      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      return seismo_set_errno_error (error, errsv, _("Could not trace %s: PTRACE_SEIZE"), argv[0]);
    }
  r->launched = pid;
  t = seismo_ptrace_tracee_add (r, pid, pid);
  /* Not its own program yet: recording starts at its exec. */
  t->recording = FALSE;
  g_strlcpy (t->comm, g_get_prgname () ? g_get_prgname () : "seismo", sizeof t->comm);
  seismo_trace_builder_set_task_pid (r->builder, pid, pid);
  seismo_trace_builder_set_task_ppid (r->builder, pid, getpid ());
  seismo_ptrace_colocate_setup (r);
  seismo_ptrace_colocate_update (r);
  kill (pid, SIGCONT);
  return TRUE;
}

/* The threads of pid (and with --children its descendants' threads), not yet traced. */
static GArray *
list_new_threads (Recorder *r,
                  pid_t     pid)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autofree char *dir_path = g_strdup_printf ("/proc/%d/task", pid);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      pid_t tid = atoi (name);

      if (tid > 0 && !g_hash_table_contains (r->tracees, GINT_TO_POINTER (tid)))
        g_array_append_val (tids, tid);
    }
  return tids;
}

/* Processes whose parent chain leads to pid. */
static GArray *
list_descendants (pid_t pid)
{
  g_autoptr(GHashTable) parent = g_hash_table_new (NULL, NULL);
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (pid_t));
  GHashTableIter iter;
  gpointer key, value;
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      pid_t p = atoi (name), tgid, ppid;

      if (p <= 0)
        continue;
      seismo_ptrace_read_proc_ids (p, &tgid, &ppid);
      if (ppid > 0)
        g_hash_table_insert (parent, GINT_TO_POINTER (p), GINT_TO_POINTER (ppid));
    }
  g_hash_table_iter_init (&iter, parent);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      pid_t p = GPOINTER_TO_INT (value);

      for (guint depth = 0; p > 1 && depth < 4096; depth++)
        {
          if (p == pid)
            {
              pid_t d = GPOINTER_TO_INT (key);

              g_array_append_val (out, d);
              break;
            }
          p = GPOINTER_TO_INT (g_hash_table_lookup (parent, GINT_TO_POINTER (p)));
        }
    }
  return out;
}

/* Why a seize may be refused: another tracer (a debugger, strace) holds the task. */
static char *
tracer_hint (pid_t tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", tid);
  g_autofree char *text = NULL;
  const char *p;
  int tracer;

  if (g_file_get_contents (path, &text, NULL, NULL) && (p = strstr (text, "\nTracerPid:"))
      && (tracer = atoi (p + strlen ("\nTracerPid:"))) > 0)
    return g_strdup_printf (_(" (process %d is tracing it already)"), tracer);
  return g_strdup (_(" (seizing another user's process needs CAP_SYS_PTRACE)"));
}

static gboolean
attach_process (Recorder  *r,
                pid_t      pid,
                guint64    now,
                GError   **error)
{
  pid_t tgid, ppid;

  seismo_ptrace_read_proc_ids (pid, &tgid, &ppid);
  /* Seize until a pass finds no new thread: threads may be created while we attach. */
  for (;;)
    {
      g_autoptr(GArray) tids = list_new_threads (r, pid);
      guint seized = 0;

      for (guint i = 0; i < tids->len; i++)
        {
          pid_t tid = g_array_index (tids, pid_t, i);
          Tracee *t;

          if (r->for_uid >= 0 && !seismo_ptrace_task_is_users (tid, (uid_t) r->for_uid))
            {
              /* A thread that changed identity after others were seized is let go below. */
              if (g_hash_table_size (r->tracees) > 0)
                continue;
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_PERMISSION,
                           _("Could not attach to process %d: it is not user %" PRId64
                             "'s (PKEXEC_UID), who asked for the recording and may not trace it"),
                           pid, r->for_uid);
              return FALSE;
            }
          if (ptrace (PTRACE_SEIZE, tid, 0, PTRACE_OPTIONS) < 0)
            {
              int errsv = errno;
              g_autofree char *hint = NULL;

              /* Gone meanwhile, or a thread refusing after others were seized: skip it. */
              if (errsv == ESRCH || g_hash_table_size (r->tracees) > 0)
                continue;
              if (errsv == EPERM)
                hint = tracer_hint (tid);

              g_set_error (error, SEISMO_ERROR,
                           errsv == EPERM ? SEISMO_ERROR_PERMISSION : SEISMO_ERROR_FAILED,
                           _("Could not attach to process %d: PTRACE_SEIZE: %s%s"), pid,
                           g_strerror (errsv), hint ? hint : "");
              return FALSE;
            }
          /* Seized tracees run on until stopped; the interrupt's stop is where tracing starts. */
          ptrace (PTRACE_INTERRUPT, tid, 0, 0);
          t = seismo_ptrace_tracee_add (r, tid, pid);
          /* It may have exec'd a set-user-ID program between the check and the seize. */
          if (r->for_uid >= 0 && !seismo_ptrace_task_is_users (tid, (uid_t) r->for_uid))
            {
              t->recording = FALSE;
              t->release = TRUE;
              continue;
            }
          seismo_ptrace_read_proc_comm (tid, t->comm);
          seismo_trace_builder_set_task_pid (r->builder, tid, pid);
          if (ppid > 0)
            seismo_trace_builder_set_task_ppid (r->builder, tid, ppid);
          seismo_trace_builder_set_task_comm (r->builder, tid, t->comm, now);
          seized++;
        }
      if (seized == 0)
        break;
    }
  if (!g_hash_table_contains (r->tracees, GINT_TO_POINTER (pid)))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("Could not attach to process %d: no such process"), pid);
      return FALSE;
    }
  return TRUE;
}

/* Beside SeismoRecorder's: the clock, the filter and how it was applied. */
static void
set_metadata (Recorder *r)
{
  char buf[64];

  seismo_trace_builder_set_metadata (r->builder, SEISMO_META_CLOCK, "mono");
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, g_get_real_time () * 1000);
  seismo_trace_builder_set_metadata (r->builder, SEISMO_META_START_WALL, buf);
  if (r->options->syscalls)
    {
      g_autofree char *spec = g_strjoinv (",", r->options->syscalls);

      seismo_trace_builder_set_metadata (r->builder, "syscall_filter", spec);
    }
  seismo_trace_builder_set_metadata (r->builder, "seccomp_prefilter", r->seccomp ? "yes" : "no");
  if (r->options->pid > 0)
    {
      g_snprintf (buf, sizeof buf, "%d", r->options->pid);
      seismo_trace_builder_set_metadata (r->builder, "attached_pid", buf);
    }
}

static void
recorder_clear (Recorder *r)
{
  seismo_ptrace_colocate_teardown (r);
  if (r->watcher)
    {
      g_mutex_lock (&r->watch_lock);
      r->watch_quit = TRUE;
      g_cond_signal (&r->watch_cond);
      g_mutex_unlock (&r->watch_lock);
      g_thread_join (r->watcher);
    }
  if (r->launch_err_fd >= 0)
    close (r->launch_err_fd);
  g_mutex_clear (&r->watch_lock);
  g_cond_clear (&r->watch_cond);
  g_clear_pointer (&r->tracees, g_hash_table_unref);
  g_clear_pointer (&r->schema, seismo_ptrace_schema_free);
  g_clear_pointer (&r->filter, seismo_ptrace_filter_free);
  g_clear_pointer (&r->unwind, seismo_ptrace_unwind_free);
  if (r->quoted)
    g_string_free (r->quoted, TRUE);
  g_free (r->mem);
  g_free (r->waker_stack);
}

static gboolean
ptrace_prepare (SeismoRecorder *recorder,
                gpointer        state,
                GError        **error)
{
  Recorder *r = state;
  const SeismoRecordOptions *options = seismo_recorder_get_options (recorder);

  r->options = options;
  r->builder = seismo_recorder_get_builder (recorder);
  r->ctl = seismo_recorder_get_control (recorder);
  r->launch_err_fd = -1;
  g_mutex_init (&r->watch_lock);
  g_cond_init (&r->watch_cond);
  r->tracees = g_hash_table_new_full (NULL, NULL, NULL, seismo_ptrace_tracee_free);
  r->quoted = g_string_sized_new (256);
  r->mem = g_malloc (SEISMO_PTRACE_PATH_MAX + 1);
  r->waker_stack = g_malloc (WAKER_STACK_SIZE);
  if (!seismo_user_pkexec_uid (&r->for_uid, error))
    return FALSE;
  if (!(r->filter = seismo_ptrace_filter_new ((const char *const *) options->syscalls, error)))
    return FALSE;
  r->schema = seismo_ptrace_schema_new (r->builder);
  if (options->stacks & SEISMO_STACK_KERNEL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                   _("The ptrace backend cannot record kernel stacks; use ftrace or ebpf"));
      return FALSE;
    }
  if (options->stacks & SEISMO_STACK_USER)
    {
      g_autofree char *why = NULL;

      if (!(r->unwind = seismo_ptrace_unwind_new (r->builder, &why)))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("The ptrace backend cannot record stacks: %s"), why);
          return FALSE;
        }
    }
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    r->sigreturn_nr[a] = seismo_syscall_number (a, "rt_sigreturn");
  /*
   * The prefilter cannot be removed from a process: were we to detach and leave it running, its
   * filtered syscalls would fail with ENOSYS. So only commands we kill when stopping get one.
   */
  r->seccomp = !r->filter->all && options->argv != NULL && options->kill_on_stop;
  set_metadata (r);
  return TRUE;
}

/* The tracer launches the command itself (SEISMO_BACKEND_CAP_LAUNCHES), or seizes the process. */
static gboolean
ptrace_start (SeismoRecorder *recorder,
              gpointer        state,
              GError        **error)
{
  Recorder *r = state;
  const SeismoRecordOptions *options = r->options;
  guint64 now = seismo_mono_now_ns ();

  seismo_progress_pacer_init (&r->pacer, now);
  r->next_progress_ns = r->pacer.next_ns;
  if (options->argv != NULL)
    {
      if (!launch (r, error))
        return FALSE;
    }
  else
    {
      if (!attach_process (r, options->pid, now, error))
        return FALSE;
      if (options->children)
        {
          g_autoptr(GArray) children = list_descendants (options->pid);

          for (guint i = 0; i < children->len; i++)
            attach_process (r, g_array_index (children, pid_t, i), now, NULL);
        }
    }
  return TRUE;
}

/*
 * The tracer's wait loop, on the thread that launched or seized the tracees (ptrace wants that):
 * it runs until the recording ends, so SeismoRecorder calls it once. FALSE when it is over.
 */
static gboolean
ptrace_poll (SeismoRecorder *recorder,
             gpointer        state)
{
  Recorder *r = state;
  SeismoRecordControl *ctl = r->ctl;
  guint64 now = seismo_mono_now_ns ();

  r->deadline_ns = seismo_recorder_get_deadline_ns (recorder);
  r->loop_ns = now;
  r->watcher = g_thread_new ("seismo-ptrace-watch", watcher_main, r);

  while (g_hash_table_size (r->tracees) > 0)
    {
      int status;
      pid_t tid;

      if (G_UNLIKELY (seismo_recorder_should_stop (recorder, now)))
        {
          if (r->launched && r->options->kill_on_stop)
            seismo_ptrace_kill_all (r);
          else
            seismo_ptrace_detach_all (r);
          break;
        }
      tid = waitpid (-1, &status, __WALL);
      now = seismo_mono_now_ns ();
      if (G_UNLIKELY (tid < 0))
        {
          int errsv = errno;

          if (errsv == EINTR)
            continue;
          if (errsv == ECHILD)
            break;
          r->wait_errno = errsv;
          seismo_ptrace_kill_all (r);
          break;
        }
      __atomic_store_n (&r->loop_ns, now, __ATOMIC_RELAXED);
      r->stops++;
      seismo_ptrace_handle_status (r, tid, status, now);
      if (G_UNLIKELY (seismo_progress_pacer_due (&r->pacer, r->builder, now)))
        {
          __atomic_store_n (&ctl->events, r->events, __ATOMIC_RELAXED);
          /*
           * The callback runs on this thread, and every tracee waits for it (seismo-cli writes
           * the chunks completed so far, and a snapshot of a small recording): the pacer reports
           * a completed chunk at once, and spaces the others by what they cost.
           */
          now = seismo_progress_pacer_report (&r->pacer, ctl, r->builder, now);
          __atomic_store_n (&r->next_progress_ns, r->pacer.next_ns, __ATOMIC_RELAXED);
        }
    }
  __atomic_store_n (&ctl->events, r->events, __ATOMIC_RELAXED);
  return FALSE;
}

static gboolean
ptrace_finish (SeismoRecorder *recorder,
               gpointer        state,
               GError        **error)
{
  Recorder *r = state;
  char stops[32];

  if (r->wait_errno != 0)
    return seismo_set_errno_error (error, r->wait_errno, _("waitpid"));
  if (!check_launch (r, error))
    return FALSE;
  g_snprintf (stops, sizeof stops, "%" G_GUINT64_FORMAT, r->stops);
  seismo_trace_builder_set_metadata (r->builder, "ptrace_stops", stops);
  return TRUE;
}

static void
ptrace_free (SeismoRecorder *recorder,
             gpointer        state)
{
  recorder_clear (state);
}

static const SeismoBackendOps ptrace_ops = {
  .state_size = sizeof (Recorder),
  .prepare = ptrace_prepare,
  .start = ptrace_start,
  .poll = ptrace_poll,
  .finish = ptrace_finish,
  .free = ptrace_free,
};

static gboolean
ptrace_available (char **why)
{
  struct utsname uts;
  int major = 0, minor = 0;
  char scope[16];
  int fd;

  /*
   * The seccomp prefilter's stop must come after the syscall-entry stop, not before it, so that
   * a PTRACE_SYSCALL from it stops next at the syscall's exit: Linux 4.8 made that the order.
   */
  if (uname (&uts) == 0 && sscanf (uts.release, "%d.%d", &major, &minor) == 2
      && (major < 4 || (major == 4 && minor < 8)))
    {
      if (why)
        *why = g_strdup_printf (_("Linux %s stops at seccomp events before syscall entries "
                                  "(the ptrace backend needs 4.8)"), uts.release);
      return FALSE;
    }
  if ((fd = open ("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC)) >= 0)
    {
      gssize n = read (fd, scope, sizeof scope - 1);

      close (fd);
      if (n > 0 && scope[0] == '3')
        {
          if (why)
            *why = g_strdup (_("ptrace is disabled (kernel.yama.ptrace_scope = 3)"));
          return FALSE;
        }
    }
  return TRUE;
}

static GPtrArray *
ptrace_list_events (GError **error)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (g_free);
  static const char *const classes[] = {
    "%file", "%desc", "%net", "%process", "%memory", "%signal", "%ipc",
  };

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    g_ptr_array_add (list, g_strdup (classes[i]));
  for (guint nr = 0; nr < seismo_syscall_table_size (SEISMO_ARCH_X86_64); nr++)
    {
      const char *name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);

      if (name)
        g_ptr_array_add (list, g_strdup (name));
    }
  return list;
}

const SeismoBackend seismo_ptrace_backend = {
  .name = "ptrace",
  .display_name = "ptrace",
  .caps = SEISMO_BACKEND_CAP_SYSCALL_FILTER | SEISMO_BACKEND_CAP_COMMAND
          | SEISMO_BACKEND_CAP_ATTACH | SEISMO_BACKEND_CAP_CHILDREN | SEISMO_BACKEND_CAP_LAUNCHES,
  .description = N_("Syscalls, signals and process events of one process tree (like strace)"),
  .available = ptrace_available,
  .list_events = ptrace_list_events,
  .ops = &ptrace_ops,
  .init = seismo_strace_importer_register,
#ifdef SEISMO_PTRACE_HAVE_LIBDW
  .stacks = SEISMO_STACK_USER,
  .default_stacks = SEISMO_STACK_USER,
#endif
};


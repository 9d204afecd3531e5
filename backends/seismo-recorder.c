/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "seismo-clock.h"
#include "seismo-error.h"
#include "seismo-held-command.h"
#include "seismo-recorder.h"
#include "seismo-syscalls.h"
#include "seismo-user.h"

/* The control loop's period when the backend does not say: well under the 100 ms the stop flag
 * allows. */
#define DEFAULT_POLL_US 20000

struct _SeismoRecorder {
  /* Borrowed */
  const SeismoBackend       *backend;
  const SeismoRecordOptions *options;
  SeismoTraceBuilder        *builder;
  SeismoRecordControl       *ctl;

  /* Owned */
  SeismoHeldCommand          command;
  gboolean                   stopped_early;  /* by the stop flag or the duration */
  gboolean                   failed;
  gboolean                   command_ended;
  guint64                    deadline_ns;
};

const SeismoBackend *
seismo_recorder_get_backend (SeismoRecorder *self)
{
  return self->backend;
}

const SeismoRecordOptions *
seismo_recorder_get_options (SeismoRecorder *self)
{
  return self->options;
}

SeismoTraceBuilder *
seismo_recorder_get_builder (SeismoRecorder *self)
{
  return self->builder;
}

SeismoRecordControl *
seismo_recorder_get_control (SeismoRecorder *self)
{
  return self->ctl;
}

GPid
seismo_recorder_get_target_pid (SeismoRecorder *self)
{
  return self->command.pid > 0 ? self->command.pid : MAX (self->options->pid, 0);
}

gboolean
seismo_recorder_has_command (SeismoRecorder *self)
{
  return self->command.pid > 0;
}

guint64
seismo_recorder_get_deadline_ns (SeismoRecorder *self)
{
  return self->deadline_ns;
}

gboolean
seismo_recorder_should_stop (SeismoRecorder *self,
                             guint64         now_ns)
{
  return g_atomic_int_get (&self->ctl->stop) || now_ns >= self->deadline_ns;
}

void
seismo_recorder_end_command (SeismoRecorder *self)
{
  if (self->command_ended)
    return;
  self->command_ended = TRUE;
  /* A command still held is dropped; one running after a failure is not left behind. */
  seismo_held_command_end (&self->command,
                           self->failed || (self->stopped_early && self->options->kill_on_stop));
}

/* ---- checks ----------------------------------------------------------------------------------- */

/* The backends that can do what this one cannot, for the message: "use ftrace or ebpf". */
static char *
backends_that_can (SeismoBackendCaps caps)
{
  const SeismoBackend *const *all = seismo_backends_get (NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; all[i] != NULL; i++)
    if (all[i]->ops != NULL && seismo_backend_can (all[i], caps))
      g_ptr_array_add (names, (gpointer) all[i]->name);
  if (names->len == 0)
    return NULL;
  if (names->len == 1)
    return g_strdup (g_ptr_array_index (names, 0));
  {
    g_autofree char *head = NULL;
    const char *last = g_ptr_array_steal_index (names, names->len - 1);

    g_ptr_array_add (names, NULL);
    head = g_strjoinv (", ", (char **) names->pdata);
    /* TRANSLATORS: a list of backend names, "ftrace, ptrace or ebpf" */
    return g_strdup_printf (_("%s or %s"), head, last);
  }
}

/* what: a sentence with the backend's name ("The ptrace backend cannot record the whole system
 * (-a)"), to which the backends that can are added. */
static gboolean
refuse (SeismoBackendCaps   caps,
        GError            **error,
        const char         *what,
        ...) G_GNUC_PRINTF (3, 4);

static gboolean
refuse (SeismoBackendCaps   caps,
        GError            **error,
        const char         *what,
        ...)
{
  g_autofree char *others = backends_that_can (caps);
  g_autofree char *sentence = NULL;
  va_list args;

  va_start (args, what);
  sentence = g_strdup_vprintf (what, args);
  va_end (args);
  if (others != NULL)
    /* TRANSLATORS: "The ptrace backend cannot record the whole system (-a); use ftrace or ebpf" */
    g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION, _("%s; use %s"), sentence, others);
  else
    g_set_error_literal (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION, sentence);
  return FALSE;
}

gboolean
seismo_recorder_check_options (const SeismoBackend       *backend,
                               const SeismoRecordOptions *o,
                               GError                   **error)
{
  g_return_val_if_fail (backend != NULL && o != NULL, FALSE);

  if (o->argv != NULL && o->argv[0] == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION, _("the command is empty"));
      return FALSE;
    }
  if (o->system_wide && !seismo_backend_can (backend, SEISMO_BACKEND_CAP_SYSTEM_WIDE))
    return refuse (SEISMO_BACKEND_CAP_SYSTEM_WIDE, error,
                   _("The %s backend cannot record the whole system (-a)"), backend->name);
  if (o->pid > 0 && !seismo_backend_can (backend, SEISMO_BACKEND_CAP_ATTACH))
    return refuse (SEISMO_BACKEND_CAP_ATTACH, error,
                   _("The %s backend cannot record a running process (-p)"), backend->name);
  if (o->argv != NULL && !seismo_backend_can (backend, SEISMO_BACKEND_CAP_COMMAND))
    return refuse (SEISMO_BACKEND_CAP_COMMAND, error,
                   _("The %s backend cannot launch a command (-- CMD)"), backend->name);
  if (o->probes != NULL && o->probes[0] != NULL
      && !seismo_backend_can (backend, SEISMO_BACKEND_CAP_PROBES))
    return refuse (SEISMO_BACKEND_CAP_PROBES, error,
                   _("The %s backend cannot place probes (--probe)"), backend->name);
  if (o->aggregate && !seismo_backend_can (backend, SEISMO_BACKEND_CAP_AGGREGATE))
    return refuse (SEISMO_BACKEND_CAP_AGGREGATE, error,
                   _("The %s backend cannot aggregate in the kernel (--aggregate)"), backend->name);
  if (!o->system_wide && o->pid <= 0 && o->argv == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                   _("nothing to record: give a command, a PID or system-wide"));
      return FALSE;
    }
  if (o->pid > 0 && o->argv != NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                   _("give either a PID or a command to launch, not both"));
      return FALSE;
    }
  return TRUE;
}

gboolean
seismo_recorder_check_target (GPid     pid,
                              GError **error)
{
  g_autofree char *proc = NULL;
  gint64 uid;
  struct passwd *pw;
  struct stat st;
  char contents[4096];
  const char *line;
  unsigned long r, e, s, f;
  ssize_t n = -1;
  int dirfd, fd;

  if (!seismo_user_pkexec_uid (&uid, error))
    return FALSE;
  if (uid < 0 || pid <= 0)
    return TRUE;
  pw = getpwuid ((uid_t) uid);

  /* One descriptor for the process, so its owner and its status are read of the same one. */
  proc = g_strdup_printf ("/proc/%d", (int) pid);
  dirfd = open (proc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd >= 0)
    {
      if (fstat (dirfd, &st) == 0 &&
          (fd = openat (dirfd, "status", O_RDONLY | O_CLOEXEC)) >= 0)
        {
          n = read (fd, contents, sizeof contents - 1);
          close (fd);
        }
      close (dirfd);
    }
  if (n > 0)
    contents[n] = '\0';
  if (n <= 0 || (line = strstr (contents, "\nUid:")) == NULL ||
      sscanf (line, "\nUid: %lu %lu %lu %lu", &r, &e, &s, &f) != 4 ||
      st.st_uid != (uid_t) uid || r != (unsigned long) uid || e != (unsigned long) uid ||
      s != (unsigned long) uid || f != (unsigned long) uid)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_PERMISSION,
                   _("user %s (PKEXEC_UID) may not trace process %d (it is not theirs, or it changed "
                     "identity), so the recorder will not either"),
                   pw ? pw->pw_name : "?", (int) pid);
      return FALSE;
    }
  return TRUE;
}

/* ---- signals --------------------------------------------------------------------------------- */

/* The recording a signal stops; the handler only sets flags. */
static SeismoRecordControl *volatile signalled_control;
static volatile gint *volatile       signalled_flag;
static struct sigaction              old_int, old_term, old_hup;

static void
on_stop_signal (int signum)
{
  volatile gint *flag = signalled_flag;
  SeismoRecordControl *ctl = signalled_control;

  if (flag != NULL)
    g_atomic_int_set (flag, 1);
  if (ctl != NULL)
    g_atomic_int_set (&ctl->stop, 1);
}

void
seismo_recorder_catch_signals (SeismoRecordControl *ctl,
                               volatile gint       *stopped_by_user)
{
  struct sigaction sa = { 0 };

  g_return_if_fail (ctl != NULL);

  signalled_control = ctl;
  signalled_flag = stopped_by_user;
  sa.sa_handler = on_stop_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);
  sigaction (SIGHUP, &sa, &old_hup);
}

void
seismo_recorder_uncatch_signals (void)
{
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  sigaction (SIGHUP, &old_hup, NULL);
  signalled_control = NULL;
  signalled_flag = NULL;
}

/* ---- the session ------------------------------------------------------------------------------ */

/* What every trace says; a backend may say more, or say it differently, in prepare(). */
static void
set_common_metadata (SeismoRecorder *self)
{
  const char *name = self->backend->name;
  struct utsname u;

  seismo_trace_builder_set_metadata (self->builder, SEISMO_META_SOURCE, name);
  seismo_trace_builder_set_metadata (self->builder, SEISMO_META_BACKEND, name);
  if (uname (&u) == 0)
    {
      SeismoArch arch = seismo_arch_from_string (u.machine);

      seismo_trace_builder_set_metadata (self->builder, SEISMO_META_KERNEL, u.release);
      seismo_trace_builder_set_metadata (self->builder, SEISMO_META_HOST, u.nodename);
      if (arch != SEISMO_ARCH_UNKNOWN)
        seismo_trace_builder_set_metadata (self->builder, SEISMO_META_ARCH,
                                           seismo_arch_to_string (arch));
    }
  if (self->options->argv != NULL)
    {
      g_autofree char *cmd = g_strjoinv (" ", self->options->argv);

      seismo_trace_builder_set_metadata (self->builder, SEISMO_META_COMMAND, cmd);
    }
}

/* Whether the target is gone: the command exited (its status is kept), or the process. */
static gboolean
target_ended (SeismoRecorder *self)
{
  if (self->command.pid > 0)
    return seismo_held_command_poll (&self->command);
  return self->options->pid > 0 && kill (self->options->pid, 0) < 0 && errno == ESRCH;
}

static void
control_loop (SeismoRecorder *self,
              gpointer        state)
{
  const SeismoBackendOps *ops = self->backend->ops;
  guint poll_us = ops->poll_us ? ops->poll_us : DEFAULT_POLL_US;

  for (;;)
    {
      if (!ops->poll (self, state))
        break;
      if (seismo_recorder_should_stop (self, seismo_mono_now_ns ()))
        {
          self->stopped_early = TRUE;
          break;
        }
      if (target_ended (self))
        break;
      g_usleep (poll_us);
    }
  /* A backend whose poll() is its own loop ended it for one of these: tell which. */
  if (g_atomic_int_get (&self->ctl->stop) || seismo_mono_now_ns () >= self->deadline_ns)
    self->stopped_early = TRUE;
}

gboolean
seismo_recorder_record (const SeismoBackend       *backend,
                        const SeismoRecordOptions *options,
                        SeismoTraceBuilder        *builder,
                        SeismoRecordControl       *ctl,
                        GError                   **error)
{
  SeismoRecorder self = { 0 };
  const SeismoBackendOps *ops;
  gpointer state = NULL;
  gboolean prepared = FALSE;
  gboolean stopped = FALSE;
  gboolean ok = FALSE;

  g_return_val_if_fail (backend != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (ctl != NULL, FALSE);

  ops = backend->ops;
  self.backend = backend;
  self.options = options;
  self.builder = builder;
  self.ctl = ctl;
  self.deadline_ns = G_MAXUINT64;
  seismo_held_command_init (&self.command);
  ctl->exit_status = -1;

  if (ops == NULL)
    {
      g_autofree char *why = NULL;

      backend->available (&why);
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNAVAILABLE, _("the %s backend cannot run: %s"),
                   backend->display_name != NULL ? backend->display_name : backend->name,
                   why != NULL ? why : _("not part of this build"));
      return FALSE;
    }
  if (!seismo_recorder_check_options (backend, options, error)
      || !seismo_recorder_check_target (options->pid, error))
    return FALSE;
  if (options->pid > 0 && kill (options->pid, 0) != 0 && errno == ESRCH)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("no process with PID %d"), (int) options->pid);
      return FALSE;
    }

  /* A killed ftrace recorder's instance would trace on beside us (seismo-backend.h). */
  seismo_backends_sweep_stale ();
  set_common_metadata (&self);
  state = g_malloc0 (MAX (ops->state_size, 1));
  prepared = TRUE;
  if (!ops->prepare (&self, state, error))
    goto out;
  if (options->argv != NULL && !seismo_backend_can (backend, SEISMO_BACKEND_CAP_LAUNCHES)
      && !seismo_held_command_launch (&self.command, options->argv, options->kill_on_stop, error))
    goto out;
  if (!ops->start (&self, state, error))
    goto out;
  /* Stopped while setting up: the command is dropped without running. */
  if (seismo_held_command_is_held (&self.command) && !g_atomic_int_get (&ctl->stop)
      && !seismo_held_command_release (&self.command, error))
    goto out;

  if (options->duration_s > 0)
    self.deadline_ns = seismo_mono_now_ns () + (guint64) (options->duration_s * 1e9);
  control_loop (&self, state);
  stopped = TRUE;
  if (ops->stop != NULL)
    ops->stop (&self, state);
  if (!ops->finish (&self, state, error))
    goto out;
  ok = TRUE;

out:
  self.failed = !ok;
  if (prepared && !stopped && ops->stop != NULL)
    ops->stop (&self, state);
  seismo_recorder_end_command (&self);
  if (prepared)
    ops->free (&self, state);
  if (self.command.reaped)
    ctl->exit_status = self.command.status;
  seismo_held_command_clear (&self.command);
  g_free (state);
  return ok;
}

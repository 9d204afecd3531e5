/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-error.h"
#include "seismo-errno-error.h"
#include "seismo-held-command.h"
#include "seismo-launch.h"

void
seismo_held_command_init (SeismoHeldCommand *self)
{
  *self = (SeismoHeldCommand) { .release_fd = -1, .exec_error_fd = -1 };
}

gboolean
seismo_held_command_launch (SeismoHeldCommand *self,
                            char *const       *argv,
                            gboolean           die_with_recorder,
                            GError           **error)
{
  SeismoLaunchPolicy policy;
  int release[2] = { -1, -1 };
  int exec_error[2] = { -1, -1 };
  pid_t pid;

  g_return_val_if_fail (self->pid == 0, FALSE);

  seismo_launch_policy_init (&policy, die_with_recorder);
  if (!seismo_user_identity_for_launch (&policy.id, error))
    return FALSE;
  if (pipe2 (release, O_CLOEXEC) != 0 || pipe2 (exec_error, O_CLOEXEC) != 0)
    {
      int saved = errno;

      for (int i = 0; i < 2; i++)
        {
          if (release[i] >= 0)
            close (release[i]);
          if (exec_error[i] >= 0)
            close (exec_error[i]);
        }
      return seismo_set_errno_error (error, saved, _("could not create a pipe to start '%s'"),
                                     argv[0]);
    }

  pid = fork ();
  if (pid < 0)
    {
      int saved = errno;

      close (release[0]);
      close (release[1]);
      close (exec_error[0]);
      close (exec_error[1]);
      return seismo_set_errno_error (error, saved, _("could not start '%s': fork"), argv[0]);
    }

  if (pid == 0)
    {
      /* Child: only async-signal-safe calls until exec (the recorder has threads). */
      sigset_t none;
      char go;
      ssize_t n;
      int saved;

      /* The recorder's signal mask and dispositions are not the command's; set before the
       * release, so that its trace does not begin with our system calls. */
      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      signal (SIGINT, SIG_DFL);
      signal (SIGTERM, SIG_DFL);
      signal (SIGHUP, SIG_DFL);
      signal (SIGPIPE, SIG_DFL);
      close (release[1]);
      close (exec_error[0]);
      seismo_launch_policy_hold (&policy);
      do
        n = read (release[0], &go, 1);
      while (n < 0 && errno == EINTR);
      if (n != 1)
        _exit (127);   /* the recorder gave up */
      seismo_launch_policy_apply_or_exit (&policy, exec_error[1]);
      execvp (argv[0], (char **) argv);
      saved = errno;
      if (write (exec_error[1], &saved, sizeof saved) < 0)
        _exit (126);
      _exit (127);
    }

  close (release[0]);
  close (exec_error[1]);
  self->pid = pid;
  self->name = g_strdup (argv[0]);
  self->release_fd = release[1];
  self->exec_error_fd = exec_error[0];
  return TRUE;
}

gboolean
seismo_held_command_is_held (const SeismoHeldCommand *self)
{
  return self->pid > 0 && self->release_fd >= 0;
}

gboolean
seismo_held_command_release (SeismoHeldCommand *self,
                             GError           **error)
{
  int exec_errno = 0;
  ssize_t n;

  g_return_val_if_fail (seismo_held_command_is_held (self), FALSE);

  n = write (self->release_fd, "x", 1);
  if (n != 1)
    return seismo_set_errno_error (error, errno, _("could not start '%s'"), self->name);
  close (self->release_fd);
  self->release_fd = -1;

  /* EOF when exec succeeded (the pipe is close-on-exec), the errno when it failed. */
  do
    n = read (self->exec_error_fd, &exec_errno, sizeof exec_errno);
  while (n < 0 && errno == EINTR);
  close (self->exec_error_fd);
  self->exec_error_fd = -1;
  if (n == sizeof exec_errno)
    {
      if (waitpid (self->pid, &self->status, 0) == self->pid)
        self->reaped = TRUE;
      if (exec_errno < 0)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_PERMISSION,
                     _("could not run '%s' as the user who asked for the recording (PKEXEC_UID): %s"),
                     self->name, g_strerror (-exec_errno));
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT, _("could not run '%s': %s"),
                     self->name, g_strerror (exec_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
seismo_held_command_poll (SeismoHeldCommand *self)
{
  pid_t p;

  if (self->pid <= 0 || self->reaped)
    return TRUE;
  do
    p = waitpid (self->pid, &self->status, WNOHANG);
  while (p < 0 && errno == EINTR);
  if (p == self->pid)
    self->reaped = TRUE;
  else if (p < 0)
    {
      /* Not ours to wait for any more (reaped elsewhere): gone, status unknown. */
      self->reaped = TRUE;
      self->status = -1;
    }
  return self->reaped;
}

void
seismo_held_command_end (SeismoHeldCommand *self,
                         gboolean           kill_it)
{
  gint64 deadline;

  if (self->pid <= 0 || self->reaped)
    return;
  if (self->release_fd >= 0)
    {
      /* Never released: closing the pipe makes it exit without running anything. */
      close (self->release_fd);
      self->release_fd = -1;
      if (waitpid (self->pid, &self->status, 0) == self->pid)
        self->reaped = TRUE;
      return;
    }
  if (!kill_it)
    return;
  kill (self->pid, SIGTERM);
  deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  while (!seismo_held_command_poll (self) && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  if (!self->reaped)
    {
      kill (self->pid, SIGKILL);
      if (waitpid (self->pid, &self->status, 0) == self->pid)
        self->reaped = TRUE;
    }
}

void
seismo_held_command_clear (SeismoHeldCommand *self)
{
  if (self->release_fd >= 0)
    close (self->release_fd);
  if (self->exec_error_fd >= 0)
    close (self->exec_error_fd);
  g_clear_pointer (&self->name, g_free);
  self->release_fd = self->exec_error_fd = -1;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "seismo-launch.h"

void
seismo_launch_policy_init (SeismoLaunchPolicy *self,
                           gboolean            die_with_recorder)
{
  self->id.drop = FALSE;
  self->die_with_recorder = die_with_recorder;
  self->recorder = getpid ();
}

void
seismo_launch_policy_hold (const SeismoLaunchPolicy *self)
{
  /* Cannot fail with a valid signal; apply() would not notice either way. */
  if (self->die_with_recorder && !self->id.drop)
    prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
}

int
seismo_launch_policy_apply (const SeismoLaunchPolicy *self)
{
  int err = seismo_user_identity_become (&self->id);

  if (err != 0)
    return err;
  if (self->id.drop && prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return errno;
  /* The new identity cleared what hold() would have set. */
  if (self->die_with_recorder && self->id.drop)
    {
      if (prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
        return errno;
      /* Died before the line above: nobody will send the signal. */
      if (getppid () != self->recorder)
        return ESRCH;
    }
  return 0;
}

void
seismo_launch_policy_apply_or_exit (const SeismoLaunchPolicy *self,
                                    int                       err_fd)
{
  int err = seismo_launch_policy_apply (self);

  if (err == 0)
    return;
  err = -err;
  if (write (err_fd, &err, sizeof err) < 0)
    _exit (127);
  _exit (127);
}

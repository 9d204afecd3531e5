/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sys/types.h>

#include <glib.h>

#include "seismo-user.h"

G_BEGIN_DECLS

/*
 * What every backend's launched command (-- CMD) goes through in its child, between fork and
 * exec, so that a recorder run as root (pkexec) lends it nothing and leaves nothing behind:
 *
 * - the identity of the user it runs for (SeismoUserIdentity), groups, gid, uid;
 * - no_new_privs when that identity was dropped to: a set-user-ID program it runs keeps the
 *   user's rights instead of gaining its owner's (pkexec authorizes recording, not root);
 * - with die_with_recorder, SIGKILL when the recorder dies (PR_SET_PDEATHSIG), so a SIGKILLed
 *   recorder does not leave a busy command running untraced. A change of identity clears it, so
 *   it is set after that one, and then checked against a recorder that died before it was set
 *   (the child was reparented: getppid() is no longer the recorder). Without a change of
 *   identity it is set before the child waits to be released, so that the command's trace does
 *   not begin with our system calls (eBPF records the child from its release on); a recorder
 *   dying before that is seen by the wait itself (end of file on the release pipe, or ptrace's
 *   PTRACE_O_EXITKILL). It is tied to the recorder's thread that forks, which must outlive the
 *   command: the thread that runs seismo_recorder_record(). Not with --keep-running, whose command is to
 *   outlive the recording.
 */
typedef struct {
  SeismoUserIdentity id;
  gboolean           die_with_recorder;
  pid_t              recorder;   /* getpid() before the fork */
} SeismoLaunchPolicy;

/* Keeps the caller's identity; fill id with seismo_user_identity_for_launch() or _of_uid(). */
void seismo_launch_policy_init          (SeismoLaunchPolicy       *self,
                                         gboolean                  die_with_recorder);
/* In the forked child, at once (before it waits to be released): async-signal-safe. */
void seismo_launch_policy_hold          (const SeismoLaunchPolicy *self);
/* In the forked child, once released, before exec: async-signal-safe. 0, or the errno of what
 * failed (ESRCH: the recorder is already gone). */
int  seismo_launch_policy_apply         (const SeismoLaunchPolicy *self);
/* The same for a launcher whose child reports an exec failure as an errno on err_fd: on failure
 * writes the errno negated (so the parent can tell it from exec's) and exits with 127. */
void seismo_launch_policy_apply_or_exit (const SeismoLaunchPolicy *self,
                                         int                       err_fd);

G_END_DECLS

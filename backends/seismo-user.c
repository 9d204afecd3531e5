/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-user.h"

gboolean
seismo_user_pkexec_uid (gint64  *uid,
                        GError **error)
{
  const char *text = g_getenv ("PKEXEC_UID");
  guint64 value;

  *uid = -1;
  if (text == NULL || geteuid () != 0)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32 - 1, &value, NULL))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("PKEXEC_UID=%s names no user: refusing to record on its behalf"), text);
      return FALSE;
    }
  if (value != 0)
    *uid = (gint64) value;
  return TRUE;
}

gboolean
seismo_user_identity_of_uid (SeismoUserIdentity *id,
                             uid_t               uid,
                             GError            **error)
{
  struct passwd *pw = getpwuid (uid);

  if (pw == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("PKEXEC_UID=%u names no user: refusing to run a command as them"), uid);
      return FALSE;
    }
  id->drop = TRUE;
  id->uid = uid;
  id->gid = pw->pw_gid;
  id->n_groups = G_N_ELEMENTS (id->groups);
  if (getgrouplist (pw->pw_name, pw->pw_gid, id->groups, &id->n_groups) < 0)
    {
      /* More groups than we carry: the primary one only, never more than the user has. */
      id->groups[0] = pw->pw_gid;
      id->n_groups = 1;
    }
  return TRUE;
}

gboolean
seismo_user_identity_for_launch (SeismoUserIdentity *id,
                                 GError            **error)
{
  gint64 uid;

  id->drop = FALSE;
  if (!seismo_user_pkexec_uid (&uid, error))
    return FALSE;
  return uid < 0 || seismo_user_identity_of_uid (id, (uid_t) uid, error);
}

int
seismo_user_identity_become (const SeismoUserIdentity *id)
{
  /* Groups first, uid last: once the uid is the user's, nothing else may change. */
  if (id->drop
      && (setgroups ((size_t) id->n_groups, id->groups) != 0
          || setresgid (id->gid, id->gid, id->gid) != 0
          || setresuid (id->uid, id->uid, id->uid) != 0))
    return errno;
  return 0;
}

int
seismo_user_open_for_reading (const char  *path,
                              GError     **error)
{
  SeismoUserIdentity id = { 0 };
  union {
    char           buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } control;
  int err = 0, fd = -1, pair[2], status;
  struct iovec iov = { &err, sizeof err };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
  struct cmsghdr *c;
  pid_t child;
  ssize_t n;

  if (!seismo_user_identity_for_launch (&id, error))
    return -1;
  if (!id.drop)
    {
      fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0)
        seismo_set_errno_error (error, errno, "Could not open %s", path);
      return fd;
    }

  if (socketpair (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair) < 0)
    {
      seismo_set_errno_error (error, errno, "Could not open %s as the user", path);
      return -1;
    }
  child = fork ();
  if (child == 0)
    {
      /* Plain system calls only: forked from a process that may run threads. */
      close (pair[0]);
      err = seismo_user_identity_become (&id);
      if (err == 0 && (fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
        err = errno;
      if (fd >= 0)
        {
          memset (&control, 0, sizeof control);
          msg.msg_control = control.buf;
          msg.msg_controllen = sizeof control.buf;
          c = CMSG_FIRSTHDR (&msg);
          c->cmsg_level = SOL_SOCKET;
          c->cmsg_type = SCM_RIGHTS;
          c->cmsg_len = CMSG_LEN (sizeof (int));
          memcpy (CMSG_DATA (c), &fd, sizeof fd);
        }
      _exit (sendmsg (pair[1], &msg, MSG_NOSIGNAL) < 0 ? 1 : 0);
    }
  close (pair[1]);
  if (child < 0)
    {
      close (pair[0]);
      seismo_set_errno_error (error, errno, "Could not open %s as the user", path);
      return -1;
    }
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof control.buf;
  do
    n = recvmsg (pair[0], &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  close (pair[0]);
  while (waitpid (child, &status, 0) < 0 && errno == EINTR)
    ;
  if (n != (ssize_t) sizeof err)
    {
      seismo_set_errno_error (error, EPIPE, "Could not open %s as the user", path);
      return -1;
    }
  for (c = CMSG_FIRSTHDR (&msg); c != NULL; c = CMSG_NXTHDR (&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len == CMSG_LEN (sizeof (int)))
      memcpy (&fd, CMSG_DATA (c), sizeof fd);
  if (fd < 0)
    {
      struct passwd *pw = getpwuid (id.uid);

      seismo_set_errno_error (error, err ? err : EIO, "User %s may not read %s",
                              pw ? pw->pw_name : "?", path);
      return -1;
    }
  return fd;
}

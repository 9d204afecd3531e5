/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-ftrace-private.h"

/*
 * A recorder killed with SIGKILL cannot remove its tracefs instance, which would go on tracing
 * into kernel memory until the next recording removes it as stale. The guard is a small child
 * process that waits on a socket the recorder holds the only other end of: when it reaches
 * end-of-file without the "done" byte, the recorder died, and the guard stops tracing and
 * removes the instance. It does that with plain system calls only (it is forked from a process
 * that may run threads, so nothing that could take a lock held by one of them).
 *
 * A command the recorder launched dies with it (PR_SET_PDEATHSIG, seismo-launch.h); the guard
 * SIGKILLs it as well, through a pidfd the recorder sends it (so a pid reused after the command
 * was reaped can never be hit).
 */

#define GUARD_DONE            'd'
#define GUARD_COMMAND         'c'   /* with a pidfd of the launched command (SCM_RIGHTS) */
/* The instance stays busy until the dead recorder's trace_pipe_raw descriptors are closed. */
#define GUARD_RMDIR_TRIES     500
#define GUARD_RMDIR_PAUSE_NS  20000000

struct _SeismoFtraceGuard
{
  pid_t pid;
  int   fd;      /* our end; the guard sees end-of-file when it closes */
};

static G_GNUC_NORETURN void
guard_main (int         fd,
            const char *tracing_on,
            const char *set_event,
            const char *dir,
            int         max_fd)
{
  char byte = 0;
  ssize_t n;
  int out;
  int command_fd = -1;
  int null_fd = open ("/dev/null", O_RDWR | O_CLOEXEC);

  /* Out of the way of the standard descriptors replaced below (a recorder started without). */
  if (fd < 3)
    {
      int high = fcntl (fd, F_DUPFD, 3);

      if (high >= 0)
        fd = high;
    }
  /* Ctrl-C or a hang-up aimed at the recorder's process group must not end the guard first. */
  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  signal (SIGPIPE, SIG_IGN);
  /*
   * Hold nothing of the recorder's: its descriptors of the instance would keep it busy, and a
   * pipe on its standard output would not reach end-of-file for whoever reads it.
   */
  for (int i = 0; i < 3; i++)
    if (null_fd >= 0)
      dup2 (null_fd, i);
  if ((fd > 3 && close_range (3, fd - 1, 0) < 0) || close_range (fd + 1, ~0u, 0) < 0)
    for (int i = 3; i < max_fd; i++)
      if (i != fd)
        close (i);

  for (;;)
    {
      union {
        char           buf[CMSG_SPACE (sizeof (int))];
        struct cmsghdr align;
      } control;
      struct iovec iov = { &byte, 1 };
      struct msghdr msg = { 0 };
      struct cmsghdr *cmsg;

      msg.msg_iov = &iov;
      msg.msg_iovlen = 1;
      msg.msg_control = control.buf;
      msg.msg_controllen = sizeof control.buf;
      do
        n = recvmsg (fd, &msg, MSG_CMSG_CLOEXEC);
      while (n < 0 && errno == EINTR);
      if (n != 1 || byte != GUARD_COMMAND)
        break;
      cmsg = CMSG_FIRSTHDR (&msg);
      if (cmsg != NULL && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS
          && cmsg->cmsg_len == CMSG_LEN (sizeof (int)))
        {
          if (command_fd >= 0)
            close (command_fd);
          memcpy (&command_fd, CMSG_DATA (cmsg), sizeof command_fd);
        }
    }
  if (n == 1 && byte == GUARD_DONE)
    _exit (0);

  /* The recorder is gone without cleaning up: first the command it ran, which we no longer see. */
  if (command_fd >= 0)
    syscall (SYS_pidfd_send_signal, command_fd, SIGKILL, NULL, 0);
  if ((out = open (tracing_on, O_WRONLY | O_CLOEXEC)) >= 0)
    {
      if (write (out, "0", 1) < 0)
        (void) 0;   /* removing the instance below stops it anyway */
      close (out);
    }
  if ((out = open (set_event, O_WRONLY | O_TRUNC | O_CLOEXEC)) >= 0)
    close (out);
  for (int i = 0; i < GUARD_RMDIR_TRIES; i++)
    {
      struct timespec pause = { 0, GUARD_RMDIR_PAUSE_NS };

      if (rmdir (dir) == 0 || errno == ENOENT)
        _exit (0);
      if (errno != EBUSY)
        _exit (1);
      nanosleep (&pause, NULL);
    }
  _exit (1);
}

SeismoFtraceGuard *
seismo_ftrace_guard_new (struct tracefs_instance  *instance,
                         GError                  **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *tracing_on = NULL;
  g_autofree char *set_event = NULL;
  SeismoFtraceGuard *guard;
  struct rlimit lim;
  int max_fd = 1024;
  int fds[2];
  pid_t pid;

  g_return_val_if_fail (instance != NULL, NULL);

  /* Everything the child needs is prepared here: after fork it may not allocate. */
  dir = tracefs_instance_get_dir (instance);
  if (dir == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                   _("could not find the folder of tracefs instance %s"),
                   tracefs_instance_get_name (instance));
      return NULL;
    }
  tracing_on = g_build_filename (dir, "tracing_on", NULL);
  set_event = g_build_filename (dir, "set_event", NULL);
  if (getrlimit (RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    max_fd = (int) MIN (lim.rlim_cur, 1u << 20);

  /*
   * Close-on-exec: a command the recorder launches must not keep the guard waiting. A socket
   * rather than a pipe: telling a guard that died "done" must not raise SIGPIPE (MSG_NOSIGNAL).
   */
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
    {
      seismo_set_errno_error (error, errno,
                              _("could not create a socket for the guard of tracefs instance %s"),
                              tracefs_instance_get_name (instance));
      return NULL;
    }
  pid = fork ();
  if (pid < 0)
    {
      int errsv = errno;

      close (fds[0]);
      close (fds[1]);
      seismo_set_errno_error (error, errsv, _("could not start the guard of tracefs instance %s"),
                              tracefs_instance_get_name (instance));
      return NULL;
    }
  if (pid == 0)
    guard_main (fds[0], tracing_on, set_event, dir, max_fd);

  close (fds[0]);
  guard = g_new0 (SeismoFtraceGuard, 1);
  guard->pid = pid;
  guard->fd = fds[1];
  return guard;
}

void
seismo_ftrace_guard_release (SeismoFtraceGuard *guard)
{
  char byte = GUARD_DONE;
  pid_t p;

  if (guard == NULL)
    return;
  if (send (guard->fd, &byte, 1, MSG_NOSIGNAL) != 1)
    g_debug ("could not tell the instance guard %d to leave: %s", (int) guard->pid,
             g_strerror (errno));
  close (guard->fd);
  do
    p = waitpid (guard->pid, NULL, 0);
  while (p < 0 && errno == EINTR);
  g_free (guard);
}

gboolean
seismo_ftrace_guard_watch_command (SeismoFtraceGuard  *guard,
                                   GPid                command,
                                   GError            **error)
{
  union {
    char           buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } control = { { 0 } };
  char byte = GUARD_COMMAND;
  struct iovec iov = { &byte, 1 };
  struct msghdr msg = { 0 };
  struct cmsghdr *cmsg;
  int pidfd, errsv;
  ssize_t n;

  g_return_val_if_fail (guard != NULL, FALSE);

  /* Our own unreaped child: the pid cannot name another process yet. */
  pidfd = (int) syscall (SYS_pidfd_open, command, 0);
  if (pidfd < 0)
    return seismo_set_errno_error (error, errno, "could not open a pidfd of launched process %d",
                                   (int) command);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof control.buf;
  cmsg = CMSG_FIRSTHDR (&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cmsg), &pidfd, sizeof pidfd);
  do
    n = sendmsg (guard->fd, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  errsv = errno;
  close (pidfd);
  if (n != 1)
    return seismo_set_errno_error (error, errsv,
                                   "could not hand launched process %d to the instance guard %d",
                                   (int) command, (int) guard->pid);
  return TRUE;
}

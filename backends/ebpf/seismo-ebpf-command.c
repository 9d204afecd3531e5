/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "seismo-ebpf-private.h"
#include "seismo-error.h"
#include "seismo-launch.h"

/*
 * The recording's target: a launched command, held between fork and exec until the programs are
 * attached, or an existing process whose threads and descendants go into the targets map.
 */

gboolean
seismo_ebpf_command_poll (SeismoEbpfCommand *cmd)
{
  if (cmd->pid > 0 && !cmd->reaped && waitpid (cmd->pid, &cmd->status, WNOHANG) == cmd->pid)
    cmd->reaped = TRUE;
  return cmd->reaped;
}

/* Fork the command now, exec it only when released, so no syscall of it goes unrecorded. */
gboolean
seismo_ebpf_command_launch (SeismoEbpfCommand *cmd,
                            char *const       *argv,
                            gboolean           die_with_recorder,
                            GError           **error)
{
  SeismoLaunchPolicy policy;
  int release[2] = { -1, -1 };
  int exec_error[2] = { -1, -1 };
  pid_t pid;

  seismo_launch_policy_init (&policy, die_with_recorder);
  if (!seismo_user_identity_for_launch (&policy.id, error))
    return FALSE;
  if (pipe2 (release, O_CLOEXEC) != 0 || pipe2 (exec_error, O_CLOEXEC) != 0)
    {
      int saved = errno;

      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                   _("could not create a pipe to start '%s': %s"), argv[0], g_strerror (saved));
      for (int i = 0; i < 2; i++)
        {
          if (release[i] >= 0)
            close (release[i]);
          if (exec_error[i] >= 0)
            close (exec_error[i]);
        }
      return FALSE;
    }

  pid = fork ();
  if (pid < 0)
    {
      int saved = errno;

      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("could not start '%s': fork: %s"),
                   argv[0], g_strerror (saved));
      close (release[0]);
      close (release[1]);
      close (exec_error[0]);
      close (exec_error[1]);
      return FALSE;
    }

  if (pid == 0)
    {
      /* Child: only async-signal-safe calls until exec. */
      sigset_t none;
      char go;
      ssize_t n;
      int saved;

      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
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
  cmd->pid = pid;
  cmd->name = g_strdup (argv[0]);
  cmd->release_fd = release[1];
  cmd->exec_error_fd = exec_error[0];
  return TRUE;
}

gboolean
seismo_ebpf_command_release (SeismoEbpfCommand *cmd,
                             GError           **error)
{
  int exec_errno = 0;
  ssize_t n;

  n = write (cmd->release_fd, "x", 1);
  close (cmd->release_fd);
  cmd->release_fd = -1;
  if (n != 1)
    {
      int saved = errno;

      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("could not start '%s': %s"),
                   cmd->name, g_strerror (saved));
      return FALSE;
    }

  /* EOF when exec succeeded (the pipe is close-on-exec), the errno when it failed. */
  do
    n = read (cmd->exec_error_fd, &exec_errno, sizeof exec_errno);
  while (n < 0 && errno == EINTR);
  close (cmd->exec_error_fd);
  cmd->exec_error_fd = -1;
  if (n == sizeof exec_errno)
    {
      if (waitpid (cmd->pid, &cmd->status, 0) == cmd->pid)
        cmd->reaped = TRUE;
      if (exec_errno < 0)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_PERMISSION,
                     _("could not run '%s' as the user who asked for the recording (PKEXEC_UID): %s"),
                     cmd->name, g_strerror (-exec_errno));
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT, _("could not run '%s': %s"),
                     cmd->name, g_strerror (exec_errno));
      return FALSE;
    }
  return TRUE;
}

/* Ends the launched command when recording stops before it did (or failed). */
void
seismo_ebpf_command_end (SeismoEbpfCommand *cmd,
                         gboolean           kill_it)
{
  if (cmd->pid <= 0 || cmd->reaped)
    return;
  if (cmd->release_fd >= 0)
    {
      /* Never released: closing the pipe makes it exit without running anything. */
      close (cmd->release_fd);
      cmd->release_fd = -1;
      kill_it = TRUE;
    }
  if (cmd->exec_error_fd >= 0)
    {
      close (cmd->exec_error_fd);
      cmd->exec_error_fd = -1;
    }
  if (!kill_it)
    return;

  kill (cmd->pid, SIGTERM);
  for (int i = 0; i < 100; i++)
    {
      if (waitpid (cmd->pid, &cmd->status, WNOHANG) == cmd->pid)
        {
          cmd->reaped = TRUE;
          return;
        }
      g_usleep (20 * 1000);
    }
  kill (cmd->pid, SIGKILL);
  if (waitpid (cmd->pid, &cmd->status, 0) == cmd->pid)
    cmd->reaped = TRUE;
}

void
seismo_ebpf_add_target (int    targets_fd,
                        gint32 tid)
{
  guint8 one = 1;
  guint32 key = tid;

  bpf_map_update_elem (targets_fd, &key, &one, BPF_ANY);
}

static void
add_process_threads (int    targets_fd,
                     gint32 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task", pid);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  seismo_ebpf_add_target (targets_fd, pid);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    seismo_ebpf_add_target (targets_fd, atoi (name));
}

/* The parent pid from /proc/PID/stat; the comm in parentheses may contain anything. */
static gint32
read_ppid (gint32 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *close_paren;
  int ppid;
  char state;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return -1;
  close_paren = strrchr (stat, ')');
  if (close_paren == NULL || sscanf (close_paren + 1, " %c %d", &state, &ppid) != 2)
    return -1;
  return ppid;
}

/* -p PID --children: the process's threads and, transitively, its existing children's. */
void
seismo_ebpf_seed_targets (int      targets_fd,
                          gint32   pid,
                          gboolean children)
{
  g_autoptr (GHashTable) parent_of = NULL;
  g_autoptr (GArray) queue = NULL;
  g_autoptr (GDir) proc = NULL;
  const char *name;

  add_process_threads (targets_fd, pid);
  if (!children)
    return;

  parent_of = g_hash_table_new (NULL, NULL);
  proc = g_dir_open ("/proc", 0, NULL);
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      gint32 p = atoi (name);
      gint32 ppid;

      if (p > 0 && (ppid = read_ppid (p)) > 0)
        g_hash_table_insert (parent_of, GINT_TO_POINTER (p), GINT_TO_POINTER (ppid));
    }

  queue = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_array_append_val (queue, pid);
  for (guint i = 0; i < queue->len; i++)
    {
      gint32 parent = g_array_index (queue, gint32, i);
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, parent_of);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (GPOINTER_TO_INT (value) == parent)
          {
            gint32 child = GPOINTER_TO_INT (key);

            g_array_append_val (queue, child);
            add_process_threads (targets_fd, child);
          }
    }
}


/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * seismo-timed-run RESULT QUIET -- CMD ARGS…
 *
 * Runs CMD and writes "WALL_NS WAIT_STATUS\n" to RESULT, where WALL_NS is the time from just before
 * fork to the child's exit. seismo-cli compare-overhead launches it bare and under each backend,
 * so every run is timed the same way, by a process that is itself traced. That is why it uses
 * plain libc and no GLib: its own start-up must add as few traced events as possible. QUIET=1
 * sends the command's input and output to /dev/null. Exits with the command's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  struct timespec t0, t1;
  char **cmd;
  int status = 0;
  long long ns;
  pid_t pid;
  FILE *out;

  if (argc < 5 || strcmp (argv[3], "--") != 0)
    {
      fprintf (stderr, "usage: seismo-timed-run RESULT QUIET -- CMD ARGS…\n");
      return 2;
    }
  cmd = argv + 4;

  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid = fork ();
  if (pid < 0)
    {
      fprintf (stderr, "seismo-timed-run: fork: %s\n", strerror (errno));
      return 126;
    }
  if (pid == 0)
    {
      if (argv[2][0] == '1')
        {
          int null = open ("/dev/null", O_RDWR | O_CLOEXEC);

          if (null >= 0)
            {
              dup2 (null, 0);
              dup2 (null, 1);
              dup2 (null, 2);
            }
        }
      execvp (cmd[0], cmd);
      _exit (127);
    }
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        fprintf (stderr, "seismo-timed-run: waitpid: %s\n", strerror (errno));
        return 126;
      }
  clock_gettime (CLOCK_MONOTONIC, &t1);

  ns = (long long) (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
  out = fopen (argv[1], "we");
  if (out == NULL || fprintf (out, "%lld %d\n", ns, status) < 0 || fclose (out) != 0)
    {
      fprintf (stderr, "seismo-timed-run: could not write %s: %s\n", argv[1], strerror (errno));
      return 126;
    }
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}

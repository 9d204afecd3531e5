/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * A process with a known syscall footprint, for recording tests and benchmarks:
 *   seismo-ftrace-workload [--wait-stdin] [--writes N] [--getpids N] [--fd FD] [--exec]
 *                          [--ready FILE [--ready-after N]] [--pace N] [--sleep S] [--time]
 * optionally waits for a byte on stdin (so a recorder can attach first), writes N single bytes to
 * /dev/null on descriptor FD (default 77, so its writes stand out), makes N raw getpid calls (no
 * libc caching), optionally runs /bin/true through fork+exec, optionally creates FILE (so a test
 * knows the calls are made without guessing how long that takes on a busy machine), optionally
 * sleeps (--ready-after N: creates FILE once N of the writes are made, and goes on; --pace N: pauses
 * 1 ms after every N writes, a steady stream rather than a flood), and with --time prints the loop's duration in ns on stderr: "WALL CPU", the elapsed time
 * and the CPU time the process spent in it (user and kernel, tracing included: on a machine shared
 * with other work the better measure of what tracing costs). No other output.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int
touch (const char *path)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

  if (fd < 0)
    {
      perror (path);
      return -1;
    }
  close (fd);
  return 0;
}

static long
arg_value (int    argc,
           char **argv,
           int   *i)
{
  if (*i + 1 >= argc)
    {
      fprintf (stderr, "seismo-ftrace-workload: %s needs a value\n", argv[*i]);
      exit (2);
    }
  return strtol (argv[++*i], NULL, 10);
}

int
main (int    argc,
      char **argv)
{
  long writes = 0, getpids = 0, fd = 77, sleep_s = 0, ready_after = -1, pace = 0;
  int do_exec = 0, do_time = 0, wait_stdin = 0, null_fd;
  const char *ready = NULL;
  struct timespec t0, t1, c0, c1;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--writes") == 0)
        writes = arg_value (argc, argv, &i);
      else if (strcmp (argv[i], "--getpids") == 0)
        getpids = arg_value (argc, argv, &i);
      else if (strcmp (argv[i], "--fd") == 0)
        fd = arg_value (argc, argv, &i);
      else if (strcmp (argv[i], "--sleep") == 0)
        sleep_s = arg_value (argc, argv, &i);
      else if (strcmp (argv[i], "--ready-after") == 0)
        ready_after = arg_value (argc, argv, &i);
      else if (strcmp (argv[i], "--pace") == 0)
        pace = arg_value (argc, argv, &i);
      else if (strcmp (argv[i], "--ready") == 0 && i + 1 < argc)
        ready = argv[++i];
      else if (strcmp (argv[i], "--wait-stdin") == 0)
        wait_stdin = 1;
      else if (strcmp (argv[i], "--exec") == 0)
        do_exec = 1;
      else if (strcmp (argv[i], "--time") == 0)
        do_time = 1;
      else
        {
          fprintf (stderr, "seismo-ftrace-workload: unknown argument %s\n", argv[i]);
          return 2;
        }
    }

  null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd < 0 || dup2 (null_fd, fd) < 0)
    {
      perror ("seismo-ftrace-workload: /dev/null");
      return 1;
    }

  if (wait_stdin)
    {
      char go;

      if (read (0, &go, 1) != 1)
        return 1;
    }

  clock_gettime (CLOCK_MONOTONIC, &t0);
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c0);
  for (long i = 0; i < writes; i++)
    {
      if (ready && i == ready_after && touch (ready) < 0)
        return 1;
      if (pace > 0 && i % pace == pace - 1)
        {
          struct timespec ms = { 0, 1000000 };

          nanosleep (&ms, NULL);
        }
      if (write (fd, "x", 1) != 1)
        return 1;
    }
  for (long i = 0; i < getpids; i++)
    syscall (SYS_getpid);
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c1);
  clock_gettime (CLOCK_MONOTONIC, &t1);

  if (do_exec)
    {
      pid_t pid = fork ();
      int status;

      if (pid == 0)
        {
          execl ("/bin/true", "true", (char *) NULL);
          _exit (127);
        }
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        return 1;
    }
  if (ready && ready_after < 0 && touch (ready) < 0)
    return 1;
  if (sleep_s > 0)
    sleep (sleep_s);
  if (do_time)
    fprintf (stderr, "%lld %lld\n",
             (long long) (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
             (long long) (c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec));
  return 0;
}

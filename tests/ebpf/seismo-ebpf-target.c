/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * What the eBPF tests and benchmarks record: a program doing a known amount of known work.
 *
 *   syscalls N     N getppid(), N write() to /dev/null, one open() failing with ENOENT, then a
 *                  fork whose child execs /bin/true
 *   uprobe N       N calls of seismo_target_function (a uprobe target), argument 0..N-1
 *   usdt N         N hits of the USDT probe seismo_test:tick (arguments i, N)
 *   opens N        N open()+close() of /dev/null
 *   writes N       N write() of one byte to /dev/null
 *   write-loop N   the same, then prints the loop's wall time and the process's CPU time in ns
 *                  (user + system: a tracer's kernel side is charged there), for
 *                  bench/ebpf-overhead.sh
 *   sleep MS       sleeps, for recordings stopped from outside
 *   naps N         N sleeps of 2 ms: syscalls the thread is switched out in
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ENOENT_PATH "/nonexistent/seismo-ebpf-test"

/* Kept out of line and visible so a uprobe has a symbol to attach to. */
__attribute__((noinline, used)) long seismo_target_function (long value);

__attribute__((noinline, used)) long
seismo_target_function (long value)
{
  /* An empty asm keeps the compiler from folding the calls away. */
  __asm__ volatile ("" : : "r" (value) : "memory");
  return value * 2;
}

static long
now_ns (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static int
run_syscalls (long n)
{
  int fd = open ("/dev/null", O_WRONLY);
  int status;
  pid_t child;

  if (fd < 0)
    return 1;
  for (long i = 0; i < n; i++)
    getppid ();
  for (long i = 0; i < n; i++)
    if (write (fd, "x", 1) != 1)
      return 1;
  close (fd);
  if (open (ENOENT_PATH, O_RDONLY) >= 0)
    return 1;

  child = fork ();
  if (child < 0)
    return 1;
  if (child == 0)
    {
      execl ("/bin/true", "true", (char *) NULL);
      _exit (127);
    }
  if (waitpid (child, &status, 0) != child || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 1;
  return 0;
}

int
main (int    argc,
      char **argv)
{
  long n;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s syscalls|uprobe|usdt|opens|writes|write-loop|sleep|naps N\n",
               argv[0]);
      return 2;
    }
  n = strtol (argv[2], NULL, 10);

  if (strcmp (argv[1], "syscalls") == 0)
    return run_syscalls (n);

  if (strcmp (argv[1], "uprobe") == 0)
    {
      long sum = 0;

      for (long i = 0; i < n; i++)
        sum += seismo_target_function (i);
      return sum == n * (n - 1) ? 0 : 1;
    }

  if (strcmp (argv[1], "usdt") == 0)
    {
      for (long i = 0; i < n; i++)
        STAP_PROBE2 (seismo_test, tick, i, n);
      return 0;
    }

  if (strcmp (argv[1], "opens") == 0)
    {
      for (long i = 0; i < n; i++)
        {
          int fd = open ("/dev/null", O_RDONLY);

          if (fd < 0)
            return 1;
          close (fd);
        }
      return 0;
    }

  if (strcmp (argv[1], "writes") == 0 || strcmp (argv[1], "write-loop") == 0)
    {
      int report = strcmp (argv[1], "write-loop") == 0;
      int fd = open ("/dev/null", O_WRONLY);
      long start, end, cpu_start, cpu_end;

      if (fd < 0)
        return 1;
      cpu_start = now_ns (CLOCK_PROCESS_CPUTIME_ID);
      start = now_ns (CLOCK_MONOTONIC);
      for (long i = 0; i < n; i++)
        if (write (fd, "x", 1) != 1)
          return 1;
      end = now_ns (CLOCK_MONOTONIC);
      cpu_end = now_ns (CLOCK_PROCESS_CPUTIME_ID);
      if (report)
        printf ("%ld %ld\n", end - start, cpu_end - cpu_start);
      return 0;
    }

  if (strcmp (argv[1], "sleep") == 0)
    {
      usleep (n * 1000);
      return 0;
    }

  if (strcmp (argv[1], "naps") == 0)
    {
      struct timespec nap = { 0, 2 * 1000 * 1000 };

      for (long i = 0; i < n; i++)
        if (clock_nanosleep (CLOCK_MONOTONIC, 0, &nap, NULL) != 0)
          return 1;
      return 0;
    }

  fprintf (stderr, "%s: unknown mode '%s'\n", argv[0], argv[1]);
  return 2;
}

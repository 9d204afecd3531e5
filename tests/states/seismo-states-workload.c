/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Workloads whose thread states and critical path are known, for tests/states/test-states-record.sh:
 *
 *   pingpong N   two processes ("ping", "pong") pass a byte through two pipes N times: each sleeps
 *                in read until the other writes.
 *   mutex        thread "holder" takes a mutex and sleeps 50 ms; thread "waiter" blocks on the mutex
 *                meanwhile: the waiter's critical path goes through the holder.
 *   hogs MS      two processes ("hog") pinned to the first CPU we may use spin for MS ms each:
 *                each is Runnable about half the time.
 *   fsync DIR N  thread "syncer" writes 64 KiB and fsyncs a file in DIR, N times: D state.
 *
 * Plain C and libc only, so it runs under every backend the same.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void
die (const char *what)
{
  fprintf (stderr, "seismo-states-workload: %s: %s\n", what, strerror (errno));
  exit (1);
}

static void
name (const char *comm)
{
  prctl (PR_SET_NAME, comm, 0, 0, 0);
}

static int
pingpong (int n)
{
  int a[2], b[2];
  char c = 'x';
  pid_t child;

  if (pipe (a) < 0 || pipe (b) < 0)
    die ("pipe");
  if ((child = fork ()) < 0)
    die ("fork");
  if (child == 0)
    {
      name ("pong");
      for (int i = 0; i < n; i++)
        if (read (a[0], &c, 1) != 1 || write (b[1], &c, 1) != 1)
          die ("pong");
      _exit (0);
    }
  name ("ping");
  for (int i = 0; i < n; i++)
    if (write (a[1], &c, 1) != 1 || read (b[0], &c, 1) != 1)
      die ("ping");
  waitpid (child, NULL, 0);
  return 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void *
holder (void *data)
{
  struct timespec ts = { 0, 50 * 1000 * 1000 };

  name ("holder");
  pthread_mutex_lock (&lock);
  pthread_mutex_lock (&ready_lock);
  ready = 1;
  pthread_cond_signal (&ready_cond);
  pthread_mutex_unlock (&ready_lock);
  while (nanosleep (&ts, &ts) < 0 && errno == EINTR)
    ;
  pthread_mutex_unlock (&lock);
  return NULL;
}

static void *
waiter (void *data)
{
  name ("waiter");
  pthread_mutex_lock (&ready_lock);
  while (!ready)
    pthread_cond_wait (&ready_cond, &ready_lock);
  pthread_mutex_unlock (&ready_lock);
  pthread_mutex_lock (&lock);
  pthread_mutex_unlock (&lock);
  return NULL;
}

static int
mutex (void)
{
  pthread_t h, w;

  if (pthread_create (&h, NULL, holder, NULL) != 0 || pthread_create (&w, NULL, waiter, NULL) != 0)
    die ("pthread_create");
  pthread_join (w, NULL);
  pthread_join (h, NULL);
  return 0;
}

static int
hogs (int ms)
{
  cpu_set_t allowed, one;
  pid_t kids[2];
  int cpu = -1;

  if (sched_getaffinity (0, sizeof allowed, &allowed) < 0)
    die ("sched_getaffinity");
  for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
    if (CPU_ISSET (c, &allowed))
      cpu = c;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  for (int k = 0; k < 2; k++)
    {
      if ((kids[k] = fork ()) < 0)
        die ("fork");
      if (kids[k] == 0)
        {
          volatile unsigned long spin = 0;

          name ("hog");
          if (sched_setaffinity (0, sizeof one, &one) < 0)
            die ("sched_setaffinity");
          /* Spin for a CPU time of ms, not a wall time: both hogs then share the CPU to the end. */
          for (;;)
            {
              struct timespec ts;

              for (int i = 0; i < 100000; i++)
                spin++;
              clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
              if (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 >= ms)
                break;
            }
          _exit (0);
        }
    }
  for (int k = 0; k < 2; k++)
    waitpid (kids[k], NULL, 0);
  return 0;
}

static const char *sync_dir;
static int sync_n;

static void *
syncer (void *data)
{
  static char buf[65536];
  char path[4096];
  int fd;

  name ("syncer");
  snprintf (path, sizeof path, "%s/seismo-fsync-test", sync_dir);
  if ((fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
    die (path);
  memset (buf, 'x', sizeof buf);
  for (int i = 0; i < sync_n; i++)
    if (write (fd, buf, sizeof buf) != sizeof buf || fsync (fd) < 0)
      die ("write/fsync");
  close (fd);
  unlink (path);
  return NULL;
}

static int
fsync_loop (const char *dir,
            int         n)
{
  pthread_t t;

  sync_dir = dir;
  sync_n = n;
  if (pthread_create (&t, NULL, syncer, NULL) != 0)
    die ("pthread_create");
  pthread_join (t, NULL);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc >= 3 && strcmp (argv[1], "pingpong") == 0)
    return pingpong (atoi (argv[2]));
  if (argc >= 2 && strcmp (argv[1], "mutex") == 0)
    return mutex ();
  if (argc >= 3 && strcmp (argv[1], "hogs") == 0)
    return hogs (atoi (argv[2]));
  if (argc >= 4 && strcmp (argv[1], "fsync") == 0)
    return fsync_loop (argv[2], atoi (argv[3]));
  fprintf (stderr, "usage: seismo-states-workload pingpong N | mutex | hogs MS | fsync DIR N\n");
  return 2;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A program that is slow for known reasons: the workload of the "Why is my program slow?" sample.
 *
 * The main thread ("slow") asks a worker for a result through a pipe and waits in read(). The
 * worker ("worker") first needs a lock that thread "holder" holds; the main thread's request also
 * starts the holder, which sleeps 50 ms in nanosleep before it lets go. Once it has the lock the
 * worker writes the result; the main thread then computes for 40 ms of CPU time on a CPU it shares
 * with a busy thread ("hog"), so it waits for the CPU about half the time. Its critical path: the
 * timer that ends the holder's sleep, the holder, the worker, then itself, runnable and running in
 * turns with the hog.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int result_pipe[2], start_pipe[2], ready_pipe[2];
static volatile int hog_stop;

static void
pin (int cpu)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  sched_setaffinity (0, sizeof set, &set);
}

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

  nanosleep (&ts, NULL);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *
holder (void *data)
{
  char c = 'h';

  prctl (PR_SET_NAME, "holder", 0, 0, 0);
  pthread_mutex_lock (&lock);
  if (write (ready_pipe[1], &c, 1) != 1 || read (start_pipe[0], &c, 1) != 1)
    perror ("holder");
  sleep_ms (50);
  pthread_mutex_unlock (&lock);
  return NULL;
}

static void *
worker (void *data)
{
  char c = 'r';

  prctl (PR_SET_NAME, "worker", 0, 0, 0);
  pthread_mutex_lock (&lock);
  pthread_mutex_unlock (&lock);
  if (write (result_pipe[1], &c, 1) != 1)
    perror ("write");
  return NULL;
}

static void *
hog (void *data)
{
  prctl (PR_SET_NAME, "hog", 0, 0, 0);
  pin (0);
  while (!hog_stop)
    ;
  return NULL;
}

int
main (void)
{
  pthread_t t_holder, t_worker, t_hog;
  volatile unsigned long sum = 0;
  double until;
  char c;

  prctl (PR_SET_NAME, "slow", 0, 0, 0);
  if (pipe (result_pipe) != 0 || pipe (start_pipe) != 0 || pipe (ready_pipe) != 0)
    return 1;
  pthread_create (&t_holder, NULL, holder, NULL);
  if (read (ready_pipe[0], &c, 1) != 1)   /* the holder has the lock */
    return 1;
  pthread_create (&t_worker, NULL, worker, NULL);
  pthread_create (&t_hog, NULL, hog, NULL);
  pin (0);   /* with the hog: the threads above may run anywhere */
  c = 's';
  if (write (start_pipe[1], &c, 1) != 1 || read (result_pipe[0], &c, 1) != 1)
    return 1;
  until = cpu_seconds () + 0.040;
  while (cpu_seconds () < until)
    for (int i = 0; i < 10000; i++)
      sum += i;
  hog_stop = 1;
  pthread_join (t_holder, NULL);
  pthread_join (t_worker, NULL);
  pthread_join (t_hog, NULL);
  printf ("done\n");
  return 0;
}

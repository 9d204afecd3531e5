/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <stdio.h>
#include <time.h>

#include "seismo-stall-log.h"

/*
 * For the GUI benchmark (bench/gui-interact-bench.py): the main loop's poll is wrapped, so the time
 * from one poll's return to the next poll is one iteration of work on the main thread; each one
 * longer than a frame is logged as "MONOTONIC_END_US BUSY_US CPU_US", CPU_US being the main
 * thread's CPU time in it (BUSY_US also holds what it waited for: a core, the X server, the disk).
 * It adds no wake-up of its own (an idle window stays idle). The benchmark reads the longest one
 * between an input and the moment the window was idle again: the longest frozen frame a person
 * would have seen.
 */

#define STALL_FRAME_US  16000

static FILE     *stall_file;
static GPollFunc next_poll;
static gint64 poll_returned;
static gint64 poll_returned_cpu;

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gint
stall_poll (GPollFD *fds,
            guint    n_fds,
            gint     timeout)
{
  gint64 start = g_get_monotonic_time ();
  gint result;

  if (poll_returned != 0 && start - poll_returned > STALL_FRAME_US)
    {
      fprintf (stall_file, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", start,
               start - poll_returned, thread_cpu_us () - poll_returned_cpu);
      fflush (stall_file);
    }
  result = next_poll (fds, n_fds, timeout);
  poll_returned = g_get_monotonic_time ();
  poll_returned_cpu = thread_cpu_us ();
  return result;
}

void
seismo_stall_log_start_from_env (void)
{
  const char *path = g_getenv ("SEISMO_STALL_LOG");

  if (path == NULL || *path == '\0' || stall_file != NULL || (stall_file = fopen (path, "we")) == NULL)
    return;
  /* Around the poll that is there (the work threads' gate's, seismo-work-priority.h). */
  next_poll = g_main_context_get_poll_func (g_main_context_default ());
  g_main_context_set_poll_func (g_main_context_default (), stall_poll);
}

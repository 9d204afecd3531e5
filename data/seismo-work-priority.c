/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seismo-work-priority.h"

static gint   work_nice = G_MININT;     /* the nice value work threads take; G_MININT: unset */
static pid_t  main_tid;
static _Thread_local gboolean entered;  /* this thread lowered itself already */

static pid_t
this_tid (void)
{
  return (pid_t) syscall (SYS_gettid);
}

void
seismo_work_priority_yield_to_main_thread (int nice_increment)
{
  int base;

  g_return_if_fail (nice_increment > 0);

  errno = 0;
  base = getpriority (PRIO_PROCESS, 0);
  if (base == -1 && errno != 0)
    base = 0;
  main_tid = this_tid ();
  g_atomic_int_set (&work_nice, MIN (base + nice_increment, 19));
}

void
seismo_work_priority_enter (void)
{
  int target = g_atomic_int_get (&work_nice);
  pid_t tid;
  int now;

  if (target == G_MININT || entered)
    return;
  tid = this_tid ();
  /* parallel loops run one share on the calling thread, which may be the main thread */
  if (tid == main_tid)
    return;
  entered = TRUE;
  errno = 0;
  now = getpriority (PRIO_PROCESS, (id_t) tid);
  /* A failure only costs the main thread its head start: nothing to report. */
  if ((now != -1 || errno == 0) && now < target)
    (void) setpriority (PRIO_PROCESS, (id_t) tid, target);
}

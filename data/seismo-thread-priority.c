/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <errno.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "seismo-thread-priority.h"

/* On Linux a nice value is each thread's own: PRIO_PROCESS with a thread id sets one thread's. */
int
seismo_thread_get_nice (void)
{
#ifdef __linux__
  int nice;

  errno = 0;
  nice = getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
  return nice == -1 && errno != 0 ? 0 : nice;
#else
  return 0;
#endif
}

void
seismo_thread_set_background (void)
{
#ifdef __linux__
  int nice = MIN (seismo_thread_get_nice () + SEISMO_BACKGROUND_NICE, 19);

  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), nice) != 0)
    g_debug ("could not lower a thread's priority: %s", g_strerror (errno));
#endif
}

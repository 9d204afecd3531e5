/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seismo-work-priority.h"

/* A main-loop iteration shorter than this never makes anyone wait: it is not a frozen frame. */
#define GRACE_US 3000
/* How often a waiting thread looks whether the main thread still runs. */
#define CHECK_US 2000

gint _seismo_work_priority_main_busy;  /* the main thread is between two polls */

static gboolean   gate_on;
static GThread   *main_thread;
static int        main_stat_fd = -1;   /* /proc/self/task/MAIN/stat, kept open */
static GPollFunc  next_poll;
static gint       n_slots;             /* per spell: cores - 1, counted once (a syscall) */
static gint       busy_epoch;          /* counts the main thread's busy spells */
static gint64     busy_since;
static gint       slots_left;          /* in this spell, for threads to go on through it */
static GMutex     gate_lock;
static GCond      gate_cond;

static _Thread_local gboolean is_work_thread;
static _Thread_local gint     held_epoch = -1; /* the busy spell this thread goes on through */

/* Whether the main thread sleeps (in a join, a lock, a reply from the display server) or waits for
 * the disk, rather than runs or waits for a core: what its state in /proc says. */
static gboolean
main_thread_blocked (void)
{
  char buf[512];
  ssize_t n = pread (main_stat_fd, buf, sizeof buf - 1, 0);
  const char *paren;

  if (n <= 0)
    return TRUE;  /* cannot tell: never wait on what may be a wait for this thread */
  buf[n] = '\0';
  /* "TID (COMM) S ...": the command may hold anything, the state follows its last ')'. */
  paren = strrchr (buf, ')');
  return paren == NULL || paren[1] != ' ' || paren[2] != 'R';
}

static gint
gate_poll (GPollFD *fds,
           guint    n_fds,
           gint     timeout)
{
  gint result;

  g_mutex_lock (&gate_lock);
  g_atomic_int_set (&_seismo_work_priority_main_busy, 0);
  g_cond_broadcast (&gate_cond);
  g_mutex_unlock (&gate_lock);

  result = next_poll (fds, n_fds, timeout);

  /* The spell's numbers before the flag that makes anyone read them. */
  __atomic_store_n (&busy_since, g_get_monotonic_time (), __ATOMIC_RELAXED);
  g_atomic_int_set (&slots_left, n_slots);
  g_atomic_int_inc (&busy_epoch);
  g_atomic_int_set (&_seismo_work_priority_main_busy, 1);
  return result;
}

/* On the main thread, which runs the default main context. */
void
seismo_work_priority_yield_to_main_thread (void)
{
  GMainContext *context = g_main_context_default ();
  g_autofree char *stat_path = NULL;

  if (gate_on)
    return;
  stat_path = g_strdup_printf ("/proc/self/task/%ld/stat", (long) syscall (SYS_gettid));
  main_stat_fd = open (stat_path, O_RDONLY | O_CLOEXEC);
  if (main_stat_fd < 0)
    return;  /* without it a wait could not tell a frame from a join: nothing waits */
  main_thread = g_thread_self ();
  n_slots = (gint) MAX (g_get_num_processors (), 2) - 1;
  next_poll = g_main_context_get_poll_func (context);
  g_main_context_set_poll_func (context, gate_poll);
  g_atomic_int_set (&gate_on, TRUE);
}

void
seismo_work_priority_enter (void)
{
  /* A parallel loop runs one share on the calling thread, which may be the main thread. */
  if (!is_work_thread && g_atomic_int_get (&gate_on) && g_thread_self () != main_thread)
    is_work_thread = TRUE;
}

void
_seismo_work_priority_pause (void)
{
  gint epoch;

  if (!is_work_thread)
    return;
  epoch = g_atomic_int_get (&busy_epoch);
  if (held_epoch == epoch || g_get_monotonic_time () - __atomic_load_n (&busy_since, __ATOMIC_RELAXED) < GRACE_US)
    return;
  for (gint left = g_atomic_int_get (&slots_left); left > 0; left = g_atomic_int_get (&slots_left))
    if (g_atomic_int_compare_and_exchange (&slots_left, left, left - 1))
      {
        held_epoch = epoch;
        return;
      }

  g_mutex_lock (&gate_lock);
  while (g_atomic_int_get (&_seismo_work_priority_main_busy) &&
         g_atomic_int_get (&busy_epoch) == epoch)
    {
      if (!g_cond_wait_until (&gate_cond, &gate_lock, g_get_monotonic_time () + CHECK_US) &&
          main_thread_blocked ())
        {
          /* It waits (maybe for this very thread), it does not draw: go on until it polls. */
          held_epoch = epoch;
          break;
        }
    }
  g_mutex_unlock (&gate_lock);
}

void
_seismo_work_priority_set_slots (guint n)
{
  n_slots = (gint) n;  /* on the main thread, as the polls that read it */
}

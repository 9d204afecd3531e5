/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * In a window, the threads that load, derive, filter and search share the cores with the main
 * thread, and the scheduler gives each the same share: on two cores a 40 ms frame then takes
 * 60–90 ms while a load runs. A process that has frames to draw says so once, on its main thread
 * (seismo_work_priority_yield_to_main_thread): from then on, once an iteration of its main loop
 * has run for a few milliseconds, as many work threads as there are cores besides the main
 * thread's go on; the others wait at their next pause point until the main thread polls again.
 *
 * Only the main thread is yielded to, never the rest of the machine: the threads keep their
 * priority, so a load beside a busy program gets its fair share (a raised nice value made it
 * crawl there). A waiting thread goes on as soon as the main thread sleeps or waits for the disk
 * in its iteration (it may wait for that very thread's work), so nothing waits on itself; a main
 * thread that only waits for a core is still drawing, and is still waited for.
 *
 * seismo_work_priority_enter marks a thread as a work thread (first thing it does);
 * seismo_work_priority_pause_point is cheap (one load) and goes where a loop can stop, every
 * millisecond of work or so. Without the call (seismo-cli, tests) nothing ever waits.
 */
void seismo_work_priority_yield_to_main_thread (void);
void seismo_work_priority_enter                (void);

extern gint _seismo_work_priority_main_busy;
void        _seismo_work_priority_pause        (void);

static inline void
seismo_work_priority_pause_point (void)
{
  if (G_UNLIKELY (g_atomic_int_get (&_seismo_work_priority_main_busy)))
    _seismo_work_priority_pause ();
}

/* Tests, after seismo_work_priority_yield_to_main_thread: how many work threads go on while the
 * main thread is busy (by default cores - 1, at least 1). */
void _seismo_work_priority_set_slots (guint n_slots);

G_END_DECLS

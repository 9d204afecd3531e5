/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Lowers the calling thread's scheduling priority (nice + SEISMO_BACKGROUND_NICE) for work a
 * person is not waiting on frame by frame, such as loading a trace behind a window: the window's
 * main thread and the display server then get a core first, and the work still takes every
 * core left idle. Threads the caller starts from then on inherit it (an exclusive GThreadPool
 * made by it too; a shared pool's threads do not). Best effort: nothing happens where threads
 * have no priority of their own. The priority cannot be raised back without privileges.
 */
#define SEISMO_BACKGROUND_NICE 10

void seismo_thread_set_background (void);

/* The calling thread's nice value (0 where threads have none). */
int  seismo_thread_get_nice       (void);

G_END_DECLS

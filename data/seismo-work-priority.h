/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * In a window, the threads that load, derive, filter and search share the cores with the main
 * thread, and the scheduler gives each the same share: on two cores a 20 ms frame then takes
 * 40–80 ms while a load runs. A process that has frames to draw says so once
 * (seismo_work_priority_yield_to_main_thread, on its main thread); from then on each work thread,
 * as it starts (seismo_work_priority_enter), lowers its own priority (raises its nice value) so
 * that the main thread — and the display server, in the same scheduling group — run first. The
 * work still gets every cycle the main thread leaves idle. Without the call (seismo-cli, tests)
 * nothing changes.
 *
 * Nice values only go up without privilege, so a pooled thread once lowered stays lowered; that
 * is the point: GLib's pool only runs background work.
 */
void seismo_work_priority_yield_to_main_thread (int nice_increment);
void seismo_work_priority_enter                (void);

G_END_DECLS

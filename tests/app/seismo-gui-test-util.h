/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * A small trace whose picture is known (times in ns from 1 000 000):
 *   CPU 0: task "alpha" (tid 100) runs 1000..5000, idle after.
 *          alpha: read() 1500..2500 = 10.
 *   CPU 1: task "beta" (tid 200, pid 200) runs 3000..9000.
 *          beta: write() 6000..7000 = -11 (EAGAIN), wakes alpha at 8000 (an instant event).
 *          "beta-2" (tid 201, pid 200) is beta's second thread: one getpid() 9500..9600 on CPU 1.
 *   1 lost event on CPU 1 at 4000. The trace ends at 10000.
 */
#define SEISMO_TEST_T0 G_GUINT64_CONSTANT (1000000)

SeismoTrace *seismo_gui_test_small_trace (void);

/* n_events of sched_switch and syscall traffic over 4 CPUs and 40 tasks, deterministic, in time
 * order. */
SeismoTrace *seismo_gui_test_busy_trace  (guint n_events);

/* The same traffic appended to a builder bit by bit (for a streaming writer). */
typedef struct _SeismoGuiTestGen SeismoGuiTestGen;

SeismoGuiTestGen *seismo_gui_test_gen_new    (SeismoTraceBuilder *builder);
void              seismo_gui_test_gen_append (SeismoGuiTestGen   *gen,
                                              guint               n_events);
void              seismo_gui_test_gen_free   (SeismoGuiTestGen   *gen);

/* Runs the main context until cond (data) holds: FALSE if it did not within timeout_ms. */
typedef gboolean (*SeismoGuiTestCondition) (gpointer data);

gboolean seismo_gui_test_wait_for (SeismoGuiTestCondition cond,
                                   gpointer               data,
                                   guint                  timeout_ms);

/* Runs the main context for ms milliseconds. */
void     seismo_gui_test_spin     (guint                  ms);

/* Removes a test's temporary folder with everything in it. */
void     seismo_gui_test_remove_dir (const char          *dir);

/* g_test_init() for a test of the app under a display: settings stay in memory, rendering goes
 * through Cairo (unless the caller chose). FALSE when there is no display: the test was marked
 * skipped and main() returns 77. */
gboolean seismo_gui_test_init       (int                 *argc,
                                     char              ***argv);

G_END_DECLS

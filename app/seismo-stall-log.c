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
 * Each key press, button press and scroll that reaches a window is logged too, as
 * "MONOTONIC_US input KIND", when its handling starts: a benchmark can then time a step from the
 * input's arrival, where a person's input would be, not only from the start of the tool that
 * sends it (xdotool's own time is not the app's).
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

static gboolean
on_input (GtkEventControllerLegacy *controller,
          GdkEvent                 *event,
          gpointer                  user_data)
{
  const char *kind;

  switch ((int) gdk_event_get_event_type (event))
    {
    case GDK_KEY_PRESS:
      kind = "key";
      break;
    case GDK_BUTTON_PRESS:
      kind = "button";
      break;
    case GDK_SCROLL:
      kind = "scroll";
      break;
    default:
      return GDK_EVENT_PROPAGATE;
    }
  fprintf (stall_file, "%" G_GINT64_FORMAT " input %s\n", g_get_monotonic_time (), kind);
  fflush (stall_file);
  return GDK_EVENT_PROPAGATE;
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow      *window,
                 gpointer        user_data)
{
  GtkEventController *controller = gtk_event_controller_legacy_new ();

  /* Capture: seen before any widget of the window handles the event. */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "event", G_CALLBACK (on_input), NULL);
  gtk_widget_add_controller (GTK_WIDGET (window), controller);
}

void
seismo_stall_log_start_from_env (GtkApplication *app)
{
  const char *path = g_getenv ("SEISMO_STALL_LOG");

  if (path == NULL || *path == '\0' || stall_file != NULL || (stall_file = fopen (path, "we")) == NULL)
    return;
  /* Around the poll that is there (the work threads' gate's, seismo-work-priority.h). */
  next_poll = g_main_context_get_poll_func (g_main_context_default ());
  g_main_context_set_poll_func (g_main_context_default (), stall_poll);
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), NULL);
}

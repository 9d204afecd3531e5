/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * "Why was this slow?" in the application, on the bundled pipe ping-pong sample (eBPF): selecting
 * an event focuses its task (its wakeups get arrows), win.why-slow opens the dialog over the
 * selected syscall, fills the critical path table from a worker thread and highlights it on the
 * timeline; closing the dialog removes the highlight. With SEISMO_SCREENSHOT_DIR set, the window
 * and the dialog are saved there as why-slow-timeline.png and why-slow.png.
 */

#include "seismo-app-test-util.h"
#include "seismo-critical-path.h"
#include "seismo-gui-test-util.h"
#include "seismo-thread-states.h"
#include "seismo-timeline-renderer-private.h"
#include "seismo-wait-dialog.h"
#include "seismo-window-private.h"

static gboolean
has_trace (gpointer w)
{
  return seismo_window_get_trace (w) != NULL;
}

/* Screenshots for the docs without the banners (the tests run as root). */
static void
hide_banners (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_REVEALER (child))
        gtk_revealer_set_reveal_child (GTK_REVEALER (child), FALSE);
      hide_banners (child);
    }
}

static SeismoWaitDialog *
find_wait_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* owned by GTK */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (SEISMO_IS_WAIT_DIALOG (w))
        return SEISMO_WAIT_DIALOG (w);
    }
  return NULL;
}

static gboolean
path_ready (gpointer data)
{
  SeismoWaitDialog *dialog = find_wait_dialog ();

  return dialog != NULL && seismo_wait_dialog_get_n_segments (dialog) > 0;
}

static gboolean
no_dialog (gpointer data)
{
  return find_wait_dialog () == NULL;
}

/* A blocking syscall enter of the task that slept most: the ping-pong's read. */
static SeismoEventId
slept_syscall (SeismoTrace  *trace,
               SeismoTaskId *task)
{
  guint64 best = 0;
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  SeismoEventId found = SEISMO_NO_EVENT;

  for (gsize i = 0; i < n_spans; i++)
    {
      SeismoTaskId t = seismo_trace_get_tasks (trace)[spans[i].enter];
      guint64 a = seismo_trace_event_time (trace, spans[i].enter), b;
      gsize k;

      if (spans[i].exit == SEISMO_NO_EVENT || seismo_trace_get_task (trace, t)->tid <= 0)
        continue;
      b = seismo_trace_event_time (trace, spans[i].exit);
      k = seismo_trace_task_state_find (trace, t, a + (b - a) / 2);
      if (k == G_MAXSIZE || b - a <= best)
        continue;
      {
        gsize n;
        const SeismoStateSpan *states = seismo_trace_get_task_states (trace, t, &n);

        if (states[k].state != SEISMO_STATE_SLEEPING)
          continue;
      }
      best = b - a;
      found = spans[i].enter;
      *task = t;
    }
  return found;
}

static void
checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);
  SeismoTimeline *timeline = seismo_window_get_timeline (window);
  const char *shots = g_getenv ("SEISMO_SCREENSHOT_DIR");
  SeismoTimelineRenderer *r;
  SeismoTrace *trace;
  SeismoWaitDialog *dialog;
  SeismoTaskId task = SEISMO_NO_TASK;
  SeismoEventId ev;

  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 960);
  hide_banners (GTK_WIDGET (window));
  g_assert_true (seismo_gui_test_wait_for (has_trace, window, 60000));
  trace = seismo_window_get_trace (window);
  g_assert_true (seismo_trace_has_states (trace));
  r = seismo_timeline_get_renderer (timeline);

  ev = slept_syscall (trace, &task);
  g_assert_cmpuint (ev, !=, SEISMO_NO_EVENT);
  seismo_timeline_set_selected_event (timeline, ev);
  g_assert_cmpuint (seismo_timeline_renderer_get_focus_task (r), ==, task);
  {
    /* Around the selected read, zoomed in so that the arrows show. */
    guint64 t = seismo_trace_event_time (trace, ev) - seismo_trace_get_start_ns (trace);

    seismo_timeline_renderer_set_view (r, (double) t - 200000, 800000.0 / 1300);
  }

  gtk_widget_activate_action (GTK_WIDGET (window), "win.why-slow", NULL);
  g_assert_true (seismo_gui_test_wait_for (path_ready, NULL, 60000));
  dialog = find_wait_dialog ();
  g_assert_nonnull (r->critical_path);
  g_assert_cmpuint (r->critical_path->len, ==, seismo_wait_dialog_get_n_segments (dialog));
  /* The path of a read in a ping-pong leaves the task: its partner wrote. */
  {
    gboolean other = FALSE;

    for (guint i = 0; i < r->critical_path->len; i++)
      other |= g_array_index (r->critical_path, SeismoPathSegment, i).task != task;
    g_assert_true (other);
  }
  if (shots != NULL)
    {
      seismo_gui_test_spin (600);
      seismo_app_test_save_png (GTK_WIDGET (window), shots, "why-slow-timeline.png");
      seismo_app_test_save_png (GTK_WIDGET (dialog), shots, "why-slow.png");
    }
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (seismo_gui_test_wait_for (no_dialog, NULL, 10000));
  g_assert_null (r->critical_path);

  /* Nothing selected: the action says what to do instead of opening anything. */
  seismo_timeline_set_selected_event (timeline, SEISMO_NO_EVENT);
  g_assert_cmpuint (seismo_timeline_renderer_get_focus_task (r), ==, SEISMO_NO_TASK);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.why-slow", NULL);
  seismo_gui_test_spin (100);
  g_assert_null (find_wait_dialog ());
}

static void
test_app_wait (void)
{
  g_autofree char *sample = g_build_filename (g_getenv ("SEISMO_SOURCE_DIR"), "app", "resources",
                                              "samples", "pipe-pingpong.seismo", NULL);
  char *files[] = { sample };

  seismo_app_test_run (files, 1, checks);
}

int
main (int    argc,
      char **argv)
{
  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  g_test_add_func ("/app/why-slow", test_app_wait);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Call stacks in the application under Xvfb, on an strace -k log of a program whose call paths
 * are known (tests/data/strace/stacks-callpaths.c): the Flame Graph pane (Alt+4) merges the
 * stacks, weighs by count and time, searches, zooms and follows the filter; a frame's filter
 * keeps the events through it; the details pane lists the selected event's frames.
 */

#include <string.h>

#include "seismo-app-test-util.h"
#include "seismo-export-dialog.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-widgets.h"
#include "seismo-stack-view.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"

static void
wait_for (SeismoGuiTestCondition cond,
          gpointer               data)
{
  seismo_gui_test_spin (20);
  g_assert_true (seismo_gui_test_wait_for (cond, data, 60000));
}

static gboolean
has_trace (gpointer w)
{
  return seismo_window_get_trace (w) != NULL;
}

static gboolean
flame_idle (gpointer w)
{
  return !seismo_filter_bar_get_busy (seismo_window_get_filter_bar (w))
         && !seismo_flame_graph_view_get_busy (seismo_window_get_flame_graph_view (w));
}

/* A frame filter's result is in. */
static gboolean
frame_filter_applied (gpointer w)
{
  return g_str_has_prefix (seismo_window_get_filter (w), "stack ==");
}

static gboolean
frame_filter_narrowed (gpointer w)
{
  return g_str_has_prefix (seismo_window_get_filter (w), "(stack ==");
}

/* The node at the end of a path of names from the root, or SEISMO_FLAME_NO_NODE. */
static guint
path_node (SeismoFlameGraph *graph,
           const char       *path)
{
  g_auto(GStrv) names = g_strsplit (path, ";", -1);
  guint node = SEISMO_FLAME_ROOT;

  for (guint i = 0; names[i] != NULL && node != SEISMO_FLAME_NO_NODE; i++)
    node = seismo_flame_graph_find_child (graph, node, names[i]);
  return node;
}

#define MAIN "_start;__libc_start_main;__libc_init_first;main"

static SeismoStackView *
find_stack_view (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      SeismoStackView *found;

      if (SEISMO_IS_STACK_VIEW (child))
        return SEISMO_STACK_VIEW (child);
      if ((found = find_stack_view (child)) != NULL)
        return found;
    }
  return NULL;
}

/* The first event of a syscall by name (its enter). */
static SeismoEventId
first_call (SeismoTrace *trace,
            const char  *syscall)
{
  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, (SeismoEventId) i);

      if (type->syscall != NULL && g_str_equal (type->syscall, syscall)
          && seismo_trace_event_stack (trace, (SeismoEventId) i) != SEISMO_NO_STACK)
        return (SeismoEventId) i;
    }
  g_assert_not_reached ();
}

static void
check_flame_graph (SeismoWindow *window)
{
  SeismoFlameGraphView *view = seismo_window_get_flame_graph_view (window);
  SeismoFilterBar *bar = seismo_window_get_filter_bar (window);
  SeismoTrace *trace;
  SeismoFlameGraph *graph;
  guint write_log, read_config;
  SeismoFrameId frame;

  wait_for (has_trace, window);
  trace = seismo_window_get_trace (window);
  g_assert_true (seismo_trace_has_stacks (trace));

  /* Alt+4's action shows the pane; the graph is built then. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flamegraph"));
  g_assert_cmpstr (seismo_window_get_pane (window), ==, "flamegraph");
  wait_for (flame_idle, window);
  graph = seismo_flame_graph_view_get_graph (view);
  g_assert_nonnull (graph);
  /* 53 calls carry a stack; write_log made 14 of them (open, 12 writes, close). */
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, SEISMO_FLAME_ROOT)->total, ==, 53);
  write_log = path_node (graph, MAIN ";write_log");
  read_config = path_node (graph, MAIN ";read_config");
  g_assert_cmpuint (write_log, !=, SEISMO_FLAME_NO_NODE);
  g_assert_cmpuint (read_config, !=, SEISMO_FLAME_NO_NODE);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, write_log)->total, ==, 14);
  g_assert_cmpuint (path_node (graph, MAIN ";read_config;parse_config"), !=, SEISMO_FLAME_NO_NODE);
  g_assert_cmpuint (path_node (graph, MAIN ";take_a_nap"), !=, SEISMO_FLAME_NO_NODE);
  g_assert_cmpint (seismo_flame_graph_get_node (graph, write_log)->space, ==, SEISMO_FLAME_SPACE_USER);

  /* Search: the share of the weight through matching frames. */
  seismo_flame_graph_view_set_search (view, "write_log");
  g_assert_cmpstr (seismo_flame_graph_view_get_match_text (view), ==, "26.4 % matched");
  g_assert_true (seismo_flame_graph_node_matches (graph, write_log));
  seismo_flame_graph_view_set_search (view, "no_such_function");
  g_assert_cmpstr (seismo_flame_graph_view_get_match_text (view), ==, "No match");
  seismo_flame_graph_view_set_search (view, "");

  /* Zoom, then back out with the pane's action. */
  seismo_flame_graph_view_zoom (view, read_config);
  g_assert_cmpuint (seismo_flame_graph_get_zoom (graph), ==, read_config);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "flame.zoom-out", NULL));
  g_assert_cmpuint (seismo_flame_graph_get_zoom (graph), ==, seismo_flame_graph_get_node (graph, read_config)->parent);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "flame.reset-zoom", NULL));
  g_assert_cmpuint (seismo_flame_graph_get_zoom (graph), ==, SEISMO_FLAME_ROOT);

  /* By time, the 20 ms nap is most of it. */
  seismo_flame_graph_view_set_weight (view, SEISMO_FLAME_WEIGHT_TIME);
  wait_for (flame_idle, window);
  graph = seismo_flame_graph_view_get_graph (view);
  g_assert_nonnull (graph);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, path_node (graph, MAIN ";take_a_nap"))->total, >,
                     0.8 * seismo_flame_graph_get_node (graph, SEISMO_FLAME_ROOT)->total);
  seismo_flame_graph_view_set_weight (view, SEISMO_FLAME_WEIGHT_COUNT);
  wait_for (flame_idle, window);
  graph = seismo_flame_graph_view_get_graph (view);

  /* A filter narrows the graph; the graph stays zoomed on the same path. */
  seismo_flame_graph_view_zoom (view, path_node (graph, MAIN));
  g_assert_true (seismo_window_apply_filter (window, "syscall == write"));
  wait_for (flame_idle, window);
  graph = seismo_flame_graph_view_get_graph (view);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, SEISMO_FLAME_ROOT)->total, ==, 12);
  g_assert_cmpuint (seismo_flame_graph_get_zoom (graph), ==, path_node (graph, MAIN));
  g_assert_cmpuint (path_node (graph, MAIN ";read_config"), ==, SEISMO_FLAME_NO_NODE);
  g_assert_true (seismo_window_apply_filter (window, ""));
  wait_for (flame_idle, window);

  /* A frame's filter: the events whose stack passes through write_log. */
  graph = seismo_flame_graph_view_get_graph (view);
  frame = seismo_flame_graph_get_node (graph, path_node (graph, MAIN ";write_log"))->frame;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.filter-stack-frame", "u", frame));
  wait_for (frame_filter_applied, window);
  wait_for (flame_idle, window);
  /* Stacks are on the enter events (strace -k unwinds at entry). */
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, 14);
  g_assert_cmpstr (seismo_window_get_filter (window), ==, "stack == \"write_log\"");
  graph = seismo_flame_graph_view_get_graph (view);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, SEISMO_FLAME_ROOT)->total, ==, 14);
  /* Another frame's filter narrows the one in force: write_log's calls into __write. */
  frame = seismo_flame_graph_get_node (graph, path_node (graph, MAIN ";write_log;__write"))->frame;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.filter-stack-frame", "u", frame));
  wait_for (frame_filter_narrowed, window);
  wait_for (flame_idle, window);
  g_assert_cmpstr (seismo_window_get_filter (window), ==, "(stack == \"write_log\") && stack == \"__write\"");
  g_assert_cmpuint (seismo_filter_bar_get_n_matched (bar), ==, 12);
  g_assert_true (seismo_window_apply_filter (window, ""));
  wait_for (flame_idle, window);

  /* Export Figure: the pane as shown, zoomed into read_config. */
  {
    g_autofree char *dir = g_dir_make_tmp ("seismo-flame-export-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "fg.svg", NULL);
    g_autofree char *svg = NULL;
    g_autoptr(GError) error = NULL;

    graph = seismo_flame_graph_view_get_graph (view);
    seismo_flame_graph_view_zoom (view, path_node (graph, MAIN ";read_config"));
    g_assert_true (seismo_export_pane (window, SEISMO_EXPORT_CONTENT_FLAME_GRAPH, SEISMO_IMAGE_FORMAT_SVG, FALSE,
                                       1000, 600, 1, path, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &svg, NULL, NULL));
    g_assert_nonnull (strstr (svg, ">parse_config</text>"));
    g_assert_null (strstr (svg, ">write_log</text>"));
    g_assert_false (seismo_export_pane (window, SEISMO_EXPORT_CONTENT_FLAME_GRAPH, SEISMO_IMAGE_FORMAT_SVG, TRUE,
                                        1000, 600, 1, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
    seismo_flame_graph_view_zoom (view, SEISMO_FLAME_ROOT);
    seismo_gui_test_remove_dir (dir);
  }
}

static void
check_details (SeismoWindow *window)
{
  SeismoTrace *trace = seismo_window_get_trace (window);
  SeismoStackView *stack_view = find_stack_view (GTK_WIDGET (window));
  SeismoEventId write_call = first_call (trace, "write");
  GtkWidget *list;
  guint rows = 0;

  g_assert_nonnull (stack_view);
  seismo_window_show_pane (window, "details");
  seismo_timeline_set_selected_event (seismo_window_get_timeline (window), write_call);
  seismo_gui_test_spin (50);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (stack_view)));
  g_assert_cmpuint (seismo_stack_view_get_stack (stack_view), ==, seismo_trace_event_stack (trace, write_call));
  list = seismo_stack_view_get_list (stack_view);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    rows++;
  /* __write, write_log, main, __libc_init_first, __libc_start_main, _start. */
  g_assert_cmpuint (rows, ==, 6);

  /* An event without a stack hides it. */
  seismo_timeline_set_selected_event (seismo_window_get_timeline (window), 0);
  seismo_gui_test_spin (50);
  if (seismo_trace_event_stack (trace, 0) == SEISMO_NO_STACK)
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (stack_view)));
}

static void
run_checks (SeismoApplication *app)
{
  SeismoWindow *window = seismo_app_test_only_window (app);

  check_flame_graph (window);
  check_details (window);
}

static gboolean
view_idle (gpointer view)
{
  return !seismo_flame_graph_view_get_busy (view);
}

/* The pane alone: off-CPU time from sched_switch stacks, and nothing built while hidden. */
static void
test_view_off_cpu (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "ftrace-offcpu-stacks.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  GtkWidget *window = gtk_window_new ();
  SeismoFlameGraphView *view = SEISMO_FLAME_GRAPH_VIEW (seismo_flame_graph_view_new ());
  SeismoFlameGraph *graph;
  guint sleep, pipe;

  g_assert_no_error (error);
  seismo_flame_graph_view_set_trace (view, trace);
  seismo_flame_graph_view_set_source (view, SEISMO_FLAME_SOURCE_OFF_CPU);
  /* Off the CPU, time is what is weighed. */
  g_assert_cmpint (seismo_flame_graph_view_get_weight (view), ==, SEISMO_FLAME_WEIGHT_TIME);
  seismo_gui_test_spin (50);
  g_assert_null (seismo_flame_graph_view_get_graph (view));
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (seismo_gui_test_wait_for (view_idle, view, 60000));
  graph = seismo_flame_graph_view_get_graph (view);
  g_assert_nonnull (graph);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, SEISMO_FLAME_ROOT)->total, ==, 45e6);
  sleep = path_node (graph, "entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_clock_nanosleep");
  pipe = path_node (graph, "entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_read");
  g_assert_cmpuint (sleep, !=, SEISMO_FLAME_NO_NODE);
  g_assert_cmpuint (pipe, !=, SEISMO_FLAME_NO_NODE);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, sleep)->total, ==, 40e6);
  g_assert_cmpfloat (seismo_flame_graph_get_node (graph, pipe)->total, ==, 5e6);
  g_assert_cmpint (seismo_flame_graph_get_node (graph, pipe)->space, ==, SEISMO_FLAME_SPACE_KERNEL);
  /* Events: the sched_switch events with a stack, counted. */
  seismo_flame_graph_view_set_source (view, SEISMO_FLAME_SOURCE_EVENTS);
  seismo_flame_graph_view_set_weight (view, SEISMO_FLAME_WEIGHT_COUNT);
  g_assert_true (seismo_gui_test_wait_for (view_idle, view, 60000));
  g_assert_cmpfloat (seismo_flame_graph_get_node (seismo_flame_graph_view_get_graph (view), SEISMO_FLAME_ROOT)->total,
                     ==, 3);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_app_flamegraph (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "strace", "stacks-callpaths.strace", NULL);

  seismo_app_test_run (&path, 1, run_checks);
}

int
main (int    argc,
      char **argv)
{
  if (!seismo_gui_test_init (&argc, &argv))
    return 77;
  /* The pane alone needs GTK before the application starts it. */
  if (!gtk_init_check ())
    return 77;
  seismo_widgets_init ();
  g_test_add_func ("/flamegraph-view/off-cpu", test_view_off_cpu);
  g_test_add_func ("/app/flamegraph", test_app_flamegraph);
  return g_test_run ();
}

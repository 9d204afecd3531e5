/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>

#include <glib/gstdio.h>

#include "seismo-tracepoints.h"
#include "seismo-gui-test-util.h"
#include "seismo-trace-builder.h"

typedef struct {
  guint sw;
  guint wk;
  guint en;
  guint ex;
  guint exit_task;
} Types;

static void
add_types (SeismoTraceBuilder *b,
           Types              *t)
{

  /* The well-known tracepoints' fields from the catalogue, with this test's print formats. */
  const SeismoTracepoint *sw = seismo_tracepoint_lookup ("sched", "sched_switch");
  const SeismoTracepoint *wk = seismo_tracepoint_lookup ("sched", "sched_wakeup");
  const SeismoTracepoint *en = seismo_tracepoint_lookup ("raw_syscalls", "sys_enter");
  const SeismoTracepoint *ex = seismo_tracepoint_lookup ("raw_syscalls", "sys_exit");

  t->sw = seismo_trace_builder_add_event_type (b, "sched", "sched_switch", sw->fields, sw->n_fields,
                                               "{prev_comm}:{prev_pid} {prev_state} ==> {next_comm}:{next_pid}");
  t->wk = seismo_trace_builder_add_event_type (b, "sched", "sched_wakeup", wk->fields, wk->n_fields,
                                               "{comm}:{pid} CPU:{target_cpu}");
  t->en = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", en->fields, en->n_fields,
                                               "NR {id} {args}");
  t->ex = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_exit", ex->fields, ex->n_fields,
                                               "NR {id} = {ret}");
}

static void
task (SeismoTraceBuilder *b,
      gint32              tid,
      gint32              pid,
      const char         *comm)
{
  seismo_trace_builder_task (b, tid);
  seismo_trace_builder_set_task_pid (b, tid, pid);
  seismo_trace_builder_set_task_comm (b, tid, comm, 0);
}

static void
sched_switch (SeismoTraceBuilder *b,
              Types              *t,
              guint64             ts,
              guint               cpu,
              const char         *prev,
              gint32              prev_pid,
              const char         *next,
              gint32              next_pid)
{
  seismo_trace_builder_begin_event (b, ts, cpu, prev_pid, t->sw);
  seismo_trace_builder_push_string (b, prev);
  seismo_trace_builder_push_int (b, prev_pid);
  seismo_trace_builder_push_int (b, 120);
  seismo_trace_builder_push_uint (b, prev_pid == 0 ? 0 : 1);
  seismo_trace_builder_push_string (b, next);
  seismo_trace_builder_push_int (b, next_pid);
  seismo_trace_builder_push_int (b, 120);
  seismo_trace_builder_end_event (b);
}

static void
add_syscall (SeismoTraceBuilder *b,
             Types              *t,
             guint64             enter,
             guint64             exit,
             guint               cpu,
             gint32              tid,
             guint               nr,
             gint64              ret)
{
  guint64 args[6] = { 3, 0x1000, 64, 0, 0, 0 };

  seismo_trace_builder_begin_event (b, enter, cpu, tid, t->en);
  seismo_trace_builder_push_uint (b, nr);
  seismo_trace_builder_push_uint_array (b, args, 6);
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_begin_event (b, exit, cpu, tid, t->ex);
  seismo_trace_builder_push_uint (b, nr);
  seismo_trace_builder_push_int (b, ret);
  seismo_trace_builder_end_event (b);
}

static void
wakeup (SeismoTraceBuilder *b,
        Types              *t,
        guint64             ts,
        guint               cpu,
        gint32              waker,
        const char         *comm,
        gint32              pid)
{
  seismo_trace_builder_begin_event (b, ts, cpu, waker, t->wk);
  seismo_trace_builder_push_string (b, comm);
  seismo_trace_builder_push_int (b, pid);
  seismo_trace_builder_push_int (b, 120);
  seismo_trace_builder_push_int (b, 0);
  seismo_trace_builder_end_event (b);
}

SeismoTrace *
seismo_gui_test_small_trace (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const guint64 t0 = SEISMO_TEST_T0;
  Types t;

  add_types (b, &t);
  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "synthetic");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_n_cpus (b, 2);
  task (b, 0, 0, "swapper");
  task (b, 100, 100, "alpha");
  task (b, 200, 200, "beta");
  task (b, 201, 200, "beta-2");

  sched_switch (b, &t, t0 + 1000, 0, "swapper", 0, "alpha", 100);
  add_syscall (b, &t, t0 + 1500, t0 + 2500, 0, 100, 0, 10);            /* read */
  sched_switch (b, &t, t0 + 3000, 1, "swapper", 0, "beta", 200);
  sched_switch (b, &t, t0 + 5000, 0, "alpha", 100, "swapper", 0);
  add_syscall (b, &t, t0 + 6000, t0 + 7000, 1, 200, 1, -11);           /* write: EAGAIN */
  wakeup (b, &t, t0 + 8000, 1, 200, "alpha", 100);
  sched_switch (b, &t, t0 + 9000, 1, "beta", 200, "beta-2", 201);
  add_syscall (b, &t, t0 + 9500, t0 + 9600, 1, 201, 39, 200);          /* getpid */
  sched_switch (b, &t, t0 + 10000, 1, "beta-2", 201, "swapper", 0);
  seismo_trace_builder_add_lost_events (b, 1, t0 + 4000, 1);
  return seismo_trace_builder_finish (b);
}

struct _SeismoGuiTestGen
{
  SeismoTraceBuilder *b;
  Types               t;
  GRand              *rand;
  guint64             ts;
  gint32              cur[4];
};

SeismoGuiTestGen *
seismo_gui_test_gen_new (SeismoTraceBuilder *b)
{
  SeismoGuiTestGen *g = g_new0 (SeismoGuiTestGen, 1);

  g->b = b;
  g->rand = g_rand_new_with_seed (7);
  g->ts = 1000000;
  add_types (b, &g->t);
  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "synthetic");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_n_cpus (b, 4);
  for (gint32 k = 0; k < 40; k++)
    {
      g_autofree char *comm = g_strdup_printf ("task-%d", k / 4);

      task (b, 1000 + k, 1000 + k / 4 * 4, comm);
    }
  return g;
}

void
seismo_gui_test_gen_append (SeismoGuiTestGen *g,
                            guint             n_events)
{
  for (guint emitted = 0; emitted < n_events; emitted += 3)
    {
      guint cpu = g_rand_int_range (g->rand, 0, 4);
      /* Tasks stay on their CPU so that no task runs twice at once; time only goes forward, as
       * a streaming writer wants it. */
      gint32 next = 1000 + (gint32) (cpu + 4 * g_rand_int_range (g->rand, 0, 10));
      gint32 prev = g->cur[cpu];
      g_autofree char *prev_comm = g_strdup_printf ("task-%d", (prev - 1000) / 4);
      g_autofree char *next_comm = g_strdup_printf ("task-%d", (next - 1000) / 4);
      guint64 len = g_rand_int_range (g->rand, 100, 5000);

      g->ts += g_rand_int_range (g->rand, 100, 3000);
      sched_switch (g->b, &g->t, g->ts, cpu, prev ? prev_comm : "swapper", prev, next_comm, next);
      g->cur[cpu] = next;
      g->ts += g_rand_int_range (g->rand, 100, 3000);
      add_syscall (g->b, &g->t, g->ts, g->ts + len, cpu, next, g_rand_int_range (g->rand, 0, 5),
                   g_rand_int_range (g->rand, -20, 100));
      g->ts += len + 10;
    }
}

void
seismo_gui_test_gen_free (SeismoGuiTestGen *g)
{
  g_rand_free (g->rand);
  g_free (g);
}

SeismoTrace *
seismo_gui_test_busy_trace (guint n_events)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  SeismoGuiTestGen *g = seismo_gui_test_gen_new (b);

  seismo_gui_test_gen_append (g, n_events);
  seismo_gui_test_gen_free (g);
  return seismo_trace_builder_finish (b);
}

gboolean
seismo_gui_test_wait_for (SeismoGuiTestCondition cond,
                          gpointer               data,
                          guint                  timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

static gboolean
never (gpointer data)
{
  return FALSE;
}

void
seismo_gui_test_spin (guint ms)
{
  seismo_gui_test_wait_for (never, NULL, ms);
}

void
seismo_gui_test_remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        seismo_gui_test_remove_dir (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static char *private_data_home;

static void
remove_private_data_home (void)
{
  seismo_gui_test_remove_dir (private_data_home);
  g_clear_pointer (&private_data_home, g_free);
}

gboolean
seismo_gui_test_init (int    *argc,
                      char ***argv)
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* The user's data folder stays the user's: GTK puts every file a window opens on the recent
   * files there, which the desktop and Seismo's start page list. A test that chose its own
   * (test-app-open) keeps it. */
  if (g_getenv ("XDG_DATA_HOME") == NULL)
    {
      private_data_home = g_dir_make_tmp ("seismo-gui-test-data-XXXXXX", NULL);
      if (private_data_home != NULL)
        {
          g_setenv ("XDG_DATA_HOME", private_data_home, TRUE);
          atexit (remove_private_data_home);
        }
    }
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_test_init (argc, argv, NULL);
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_test_skip ("no display: run under xvfb-run");
      return FALSE;
    }
  return TRUE;
}

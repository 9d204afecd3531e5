/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A window's read of a file, and the same read started early (at launch) and joined later. */
#include <glib/gstdio.h>

#include "seismo-error.h"
#include "seismo-gui-test-util.h"
#include "seismo-importer.h"
#include "seismo-window-read.h"

#define N_EVENTS 200000

static char *dir;
static char *trace_path;
static char *junk_path;
static gsize n_events;   /* in the file: the busy trace adds one to what it is asked for */

/* What trace_read was told: the trace, and how many times. */
typedef struct {
  SeismoTrace *trace;
  guint        n_calls;
} Told;

static void
tell (SeismoTrace *trace,
      gpointer     user_data)
{
  Told *told = user_data;

  g_assert_true (SEISMO_IS_TRACE (trace));
  told->trace = trace;
  told->n_calls++;
}

static void
test_early_equals_direct (void)
{
  g_autoptr(SeismoTrace) direct = NULL, early_trace = NULL;
  g_autoptr(SeismoTimelineData) direct_data = NULL, early_data = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoEarlyRead) early = NULL;
  gint permille = 0;
  Told told_direct = { 0 }, told_early = { 0 };

  g_assert_true (seismo_window_read (trace_path, NULL, tell, &told_direct, NULL, &direct, &direct_data,
                                     &error));
  g_assert_no_error (error);
  /* Told of the trace before the data, once. */
  g_assert_cmpuint (told_direct.n_calls, ==, 1);
  g_assert_true (told_direct.trace == direct);

  early = seismo_early_read_start (trace_path);
  g_assert_cmpstr (seismo_early_read_get_path (early), ==, trace_path);
  g_assert_true (seismo_early_read_join (early, NULL, &permille, tell, &told_early, &early_trace,
                                         &early_data, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (told_early.n_calls, ==, 1);
  g_assert_true (told_early.trace == early_trace);

  /* Joined only once the read is over (the window came late): still told, once. */
  {
    g_autoptr(SeismoEarlyRead) late = seismo_early_read_start (trace_path);
    g_autoptr(SeismoTrace) late_trace = NULL;
    g_autoptr(SeismoTimelineData) late_data = NULL;
    Told told_late = { 0 };

    g_usleep (G_USEC_PER_SEC / 2);
    g_assert_true (seismo_early_read_join (late, NULL, NULL, tell, &told_late, &late_trace,
                                           &late_data, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (told_late.n_calls, ==, 1);
    g_assert_true (told_late.trace == late_trace);
  }
  g_assert_cmpint (permille, ==, 1000);
  g_assert_cmpuint (seismo_trace_get_n_events (early_trace), ==, n_events);
  g_assert_cmpuint (seismo_trace_get_n_events (early_trace), ==, seismo_trace_get_n_events (direct));
  g_assert_cmpuint (seismo_trace_get_n_tasks (early_trace), ==, seismo_trace_get_n_tasks (direct));
  g_assert_true (seismo_timeline_data_get_trace (early_data) == early_trace);
  g_assert_cmpmem (seismo_trace_get_times (early_trace), n_events * sizeof (guint64),
                   seismo_trace_get_times (direct), n_events * sizeof (guint64));
}

/* A file that is not a trace fails as it would have failed read directly. */
static void
test_early_error (void)
{
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  g_autoptr(GError) direct_error = NULL, early_error = NULL;
  g_autoptr(SeismoEarlyRead) early = seismo_early_read_start (junk_path);

  g_assert_false (seismo_window_read (junk_path, NULL, NULL, NULL, NULL, &trace, &data, &direct_error));
  g_assert_nonnull (direct_error);
  g_assert_false (seismo_early_read_join (early, NULL, NULL, NULL, NULL, &trace, &data, &early_error));
  g_assert_nonnull (early_error);
  g_assert_null (trace);
  g_assert_null (data);
  g_assert_cmpstr (early_error->message, ==, direct_error->message);
  g_assert_true (g_error_matches (early_error, direct_error->domain, direct_error->code));
}

/* A cancel of the joiner's cancellable reaches the read: it ends cancelled, or (when it had
 * already finished) whole; never with a part of the trace. */
static void
test_early_cancel (void)
{
  guint n_cancelled = 0;

  for (guint delay_us = 0; delay_us <= 20000; delay_us += 5000)
    {
      g_autoptr(SeismoTrace) trace = NULL;
      g_autoptr(SeismoTimelineData) data = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(SeismoEarlyRead) early = seismo_early_read_start (trace_path);

      g_usleep (delay_us);
      g_cancellable_cancel (cancellable);
      if (seismo_early_read_join (early, cancellable, NULL, NULL, NULL, &trace, &data, &error))
        g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, n_events);
      else
        {
          g_assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                         || g_error_matches (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED));
          n_cancelled++;
        }
    }
  /* Reading the trace takes some ms, longer than the first cancels wait: those stop it. */
  g_assert_cmpuint (n_cancelled, >, 0);
}

/* Dropped before anyone joins it (the file was not opened after all): cancelled and freed. */
static void
test_early_dropped (void)
{
  for (guint delay_us = 0; delay_us <= 20000; delay_us += 10000)
    {
      SeismoEarlyRead *early = seismo_early_read_start (trace_path);

      g_usleep (delay_us);
      seismo_early_read_free (early);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("seismo-test-window-read-XXXXXX", NULL);
  trace_path = g_build_filename (dir, "busy.seismo", NULL);
  junk_path = g_build_filename (dir, "notes.txt", NULL);
  trace = seismo_gui_test_busy_trace (N_EVENTS);
  n_events = seismo_trace_get_n_events (trace);
  g_assert_true (seismo_trace_save (trace, trace_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (junk_path, "shopping list: milk, eggs\n", -1, NULL));

  g_test_add_func ("/window-read/early-equals-direct", test_early_equals_direct);
  g_test_add_func ("/window-read/early-error", test_early_error);
  g_test_add_func ("/window-read/early-cancel", test_early_cancel);
  g_test_add_func ("/window-read/early-dropped", test_early_dropped);
  ret = g_test_run ();
  seismo_gui_test_remove_dir (dir);
  g_free (trace_path);
  g_free (junk_path);
  g_free (dir);
  return ret;
}

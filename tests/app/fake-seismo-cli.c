/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stands in for `seismo-cli record` in tests/app (the window looks for seismo-cli next to its own
 * program): streams a synthetic trace to OUTPUT.partial with SeismoFileWriter, a chunk at a
 * time, until SIGINT or 90 s, then commits it to OUTPUT. So the live view and Stop are tested
 * without privileges or tracefs.
 */
#include <signal.h>

#include "seismo-file.h"
#include "seismo-gui-test-util.h"

static volatile sig_atomic_t stop;

static void
on_signal (int sig)
{
  stop = 1;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SeismoTraceBuilder) builder = seismo_trace_builder_new ();
  g_autoptr(SeismoFileWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  SeismoGuiTestGen *gen;
  const char *output = NULL;
  gint64 end = g_get_monotonic_time () + 90 * G_USEC_PER_SEC;
  guint rounds = 0;

  for (int i = 1; i + 1 < argc; i++)
    if (g_str_equal (argv[i], "-o"))
      output = argv[i + 1];
  if (argc < 2 || !g_str_equal (argv[1], "record") || output == NULL)
    {
      g_printerr ("fake seismo-cli: usage: record … -o FILE\n");
      return 2;
    }
  signal (SIGINT, on_signal);
  if ((writer = seismo_file_writer_new (output, &error)) == NULL)
    {
      g_printerr ("fake seismo-cli: %s\n", error->message);
      return 1;
    }
  gen = seismo_gui_test_gen_new (builder);
  /* A dozen chunks, then idle until stopped: enough to see it grow, little enough to reload
   * quickly on a loaded machine. */
  while (!stop && g_get_monotonic_time () < end)
    {
      if (rounds++ < 12)
        {
          seismo_gui_test_gen_append (gen, 70000);
          if (!seismo_file_writer_flush (writer, builder, &error))
            {
              g_printerr ("fake seismo-cli: %s\n", error->message);
              return 1;
            }
        }
      g_usleep (150 * 1000);
    }
  seismo_gui_test_gen_free (gen);
  if (!seismo_file_writer_commit (writer, builder, &error))
    {
      g_printerr ("fake seismo-cli: %s\n", error->message);
      return 1;
    }
  return 0;
}

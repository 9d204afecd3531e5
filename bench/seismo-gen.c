/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/* seismo-gen N OUT.seismo: writes a deterministic synthetic trace of N events. */

#include <stdlib.h>

#include "seismo-file.h"
#include "seismo-synth.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  SeismoSynthOptions options = SEISMO_SYNTH_DEFAULTS;
  SeismoTraceBuilder *builder;
  guint64 n;
  char *end = NULL;

  if (argc != 3 && argc != 4)
    {
      g_printerr ("Usage: %s N OUT.seismo [SEED]\n"
                  "Writes N synthetic scheduler and syscall events over %u CPUs and %u tasks.\n",
                  argv[0], options.n_cpus, options.n_tasks);
      return EXIT_FAILURE;
    }
  n = g_ascii_strtoull (argv[1], &end, 10);
  if (end == argv[1] || *end != '\0' || n >= G_MAXUINT32 - 1)
    {
      g_printerr ("%s: not an event count: %s\n", argv[0], argv[1]);
      return EXIT_FAILURE;
    }
  if (argc == 4)
    options.seed = (guint32) g_ascii_strtoull (argv[3], NULL, 10);

  builder = seismo_trace_builder_new ();
  seismo_synth_generate (builder, n, &options);
  trace = seismo_trace_builder_finish (builder);
  if (!seismo_file_save (trace, argv[2], &error))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return EXIT_FAILURE;
    }
  g_print ("%s: %" G_GSIZE_FORMAT " events, %u tasks, %u CPUs\n", argv[2],
           seismo_trace_get_n_events (trace), seismo_trace_get_n_tasks (trace),
           seismo_trace_get_n_cpus (trace));
  return EXIT_SUCCESS;
}

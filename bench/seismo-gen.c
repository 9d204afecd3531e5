/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/* seismo-gen N OUT.seismo [SEED]: writes a deterministic synthetic trace of N events.
 *
 * The events are streamed to the file a batch of chunks at a time (SeismoFileWriter, the builder
 * releasing what was written), so memory stays bounded whatever N is: 10^9 events is a ~10 GB
 * file written in well under 100 MB. */

#include <stdlib.h>

#include "seismo-file.h"
#include "seismo-synth.h"

/* Chunks compressed together on all cores per flush. */
#define GEN_BATCH_EVENTS (16 * 65536)

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTraceBuilder) builder = NULL;
  g_autoptr(SeismoFileWriter) writer = NULL;
  SeismoSynthOptions options = SEISMO_SYNTH_DEFAULTS;
  SeismoSynth *synth;
  guint64 n, made = 0;
  gint64 start = g_get_monotonic_time ();
  char *end = NULL;

  if (argc != 3 && argc != 4)
    {
      g_printerr ("Usage: %s N OUT.seismo [SEED]\n"
                  "Writes N synthetic scheduler and syscall events over %u CPUs and %u tasks.\n",
                  argv[0], options.n_cpus, options.n_tasks);
      return EXIT_FAILURE;
    }
  n = g_ascii_strtoull (argv[1], &end, 10);
  if (end == argv[1] || *end != '\0' || n > G_MAXINT64)
    {
      g_printerr ("%s: not an event count: %s\n", argv[0], argv[1]);
      return EXIT_FAILURE;
    }
  if (argc == 4)
    options.seed = (guint32) g_ascii_strtoull (argv[3], NULL, 10);

  builder = seismo_trace_builder_new ();
  if (!(writer = seismo_file_writer_new (argv[2], &error)))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return EXIT_FAILURE;
    }
  synth = seismo_synth_new (builder, &options);
  while (made < n)
    {
      guint64 step = MIN (GEN_BATCH_EVENTS, n - made);

      seismo_synth_run (synth, step);
      made += step;
      if (!seismo_file_writer_stream (writer, builder, &error))
        break;
    }
  seismo_synth_free (synth);
  if (error != NULL || !seismo_file_writer_commit (writer, builder, &error))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      seismo_file_writer_discard (writer);
      return EXIT_FAILURE;
    }
  g_print ("%s: %" G_GUINT64_FORMAT " events, %u tasks, %u CPUs, %.1f s\n", argv[2], made,
           options.n_tasks, options.n_cpus, (g_get_monotonic_time () - start) / 1e6);
  return EXIT_SUCCESS;
}

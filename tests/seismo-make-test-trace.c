/* SPDX-License-Identifier: GPL-3.0-or-later */
/* seismo-make-test-trace N OUT: writes the deterministic test trace (tests/seismo-test-util.c). */
#include <stdlib.h>

#include "seismo-importer.h"
#include "seismo-test-util.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  if (argc != 3)
    {
      g_printerr ("usage: seismo-make-test-trace N OUT.seismo\n");
      return 2;
    }
  trace = seismo_test_make_trace (g_ascii_strtoull (argv[1], NULL, 10), 42);
  if (!seismo_trace_save (trace, argv[2], &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-fuzz"

#include "seismo-fuzz.h"

/* One libFuzzer program per target; meson passes the target's name as SEISMO_FUZZ_TARGET. */
static const SeismoFuzzTarget *target;

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, gsize size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  seismo_fuzz_init ();
  target = seismo_fuzz_lookup (SEISMO_FUZZ_TARGET);
  if (target == NULL)
    g_error ("no fuzz target called %s", SEISMO_FUZZ_TARGET);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        gsize         size)
{
  target->func (data, size);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Fuzz targets: one function per parser, fed arbitrary bytes. Each returns normally when the
 * parser gave a clean result (a usable trace, a compiled filter) or a clean GError, and aborts
 * (g_assert, g_error, or a sanitizer) on anything else. The libFuzzer programs (seismo-fuzz-NAME,
 * built with -Dfuzzing=true and CC=clang, run by tools/fuzz.sh) and the replay test
 * (test-fuzz-replay, always built) call the same functions, so every seed in
 * tests/fuzz/corpus/NAME/ and every crasher kept in tests/fuzz/regressions/NAME/ is replayed by the
 * normal test run.
 */

typedef void (*SeismoFuzzFunc) (const guint8 *data,
                                gsize         size);

typedef struct {
  const char     *name;     /* "seismo-file": also the folder of its corpus and regressions */
  SeismoFuzzFunc  func;
  gboolean        binary;   /* a binary format: the replay test also truncates and corrupts seeds */
} SeismoFuzzTarget;

/* Sets up what every target needs (importers, a scratch folder, fatal criticals). Idempotent. */
void                    seismo_fuzz_init    (void);
/* NULL-terminated table of every target. */
const SeismoFuzzTarget *seismo_fuzz_targets (void);
/* The target called name, or NULL. */
const SeismoFuzzTarget *seismo_fuzz_lookup  (const char *name);

/* Turns a structured record stream (the seismo-records target's input, see seismo-fuzz.c) into
 * a .seismo file with valid checksums. Caller owns the bytes. */
GBytes                 *seismo_fuzz_records_to_file (const guint8 *data,
                                                     gsize         size);
/* The reverse, for seeding: a .seismo file's records decompressed into a record stream. NULL when
 * the file is not a .seismo file. Caller owns the bytes. */
GBytes                 *seismo_fuzz_file_to_records (const guint8 *data,
                                                     gsize         size);

G_END_DECLS

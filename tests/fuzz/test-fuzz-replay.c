/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include "seismo-test-paths.h"
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "seismo-file.h"
#include "seismo-fuzz.h"
#include "seismo-test-util.h"

/*
 * Replays through the fuzz targets, in the normal build (no libFuzzer needed):
 * - every seed in tests/fuzz/corpus/TARGET/ and every crasher kept in tests/fuzz/regressions/TARGET/;
 * - the real samples in tests/data/ for the importer that reads them;
 * - for binary formats, every seed truncated at many offsets and with random bytes changed.
 * A target aborts on anything but a clean error or a usable trace, so each of these is a check.
 *
 *   test-fuzz-replay [GTest options]
 *   test-fuzz-replay --write-seeds DIR   writes the generated seeds (seismo-file, seismo-records)
 *   test-fuzz-replay --run TARGET FILE…  runs files through one target (to look at a finding)
 */

typedef struct {
  const SeismoFuzzTarget *target;
  char                   *path;
} ReplayCase;

static void
replay_case_free (gpointer p)
{
  ReplayCase *c = p;

  g_free (c->path);
  g_free (c);
}

/* The samples in tests/data/ each importer reads; .gz files are given decompressed. */
static const struct {
  const char *target;
  const char *suffix;
} data_samples[] = {
  { "trace-dat", ".dat" },
  { "ftrace-text", ".txt.gz" },
  { "ftrace-text", ".txt" },
  { "strace", ".strace" },
};

static GBytes *
read_input (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GInputStream) mem = g_memory_input_stream_new_from_data (g_steal_pointer (&contents), len, g_free);
      g_autoptr(GConverter) gz = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
      g_autoptr(GInputStream) in = g_converter_input_stream_new (mem, gz);
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

      if (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error) < 0)
        g_error ("%s: %s", path, error->message);
      return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
    }
  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

static void
test_replay (gconstpointer data)
{
  const ReplayCase *c = data;
  g_autoptr(GBytes) bytes = read_input (c->path);
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);

  c->target->func (p, len);
}

/* Every length up to 4 KiB, then ~800 more spread over the rest (the tail included). */
static void
test_truncate (gconstpointer data)
{
  const ReplayCase *c = data;
  g_autoptr(GBytes) bytes = read_input (c->path);
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);
  gsize step = len > 4096 ? MAX ((len - 4096) / 800, 1) : 1;
  guint n = 0;

  for (gsize cut = 0; cut < len; cut += cut < 4096 ? 1 : step, n++)
    c->target->func (p, cut);
  for (gsize back = 1; back <= 64 && back < len; back++, n++)
    c->target->func (p, len - back);
  g_test_message ("%s: %u lengths of %" G_GSIZE_FORMAT " bytes", c->path, n, len);
}

static void
test_corrupt (gconstpointer data)
{
  const ReplayCase *c = data;
  g_autoptr(GBytes) bytes = read_input (c->path);
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_str_hash (c->path));
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *copy = g_malloc (MAX (len, 1));

  if (len == 0)
    return;
  for (guint i = 0; i < 400; i++)
    {
      guint n_flips = g_rand_int_range (rand, 1, 9);

      memcpy (copy, p, len);
      for (guint f = 0; f < n_flips; f++)
        {
          gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) MIN (len, G_MAXINT32));

          /* Headers are where lengths live: hit the first 4 KiB more often. */
          if (g_rand_boolean (rand))
            at %= MIN (len, 4096);
          copy[at] = g_rand_boolean (rand) ? (guint8) g_rand_int_range (rand, 0, 256) : 0xff;
        }
      c->target->func (copy, len);
    }
}

static void
add_case (const char             *kind,
          const SeismoFuzzTarget *target,
          const char             *path,
          GTestDataFunc           func)
{
  ReplayCase *c = g_new0 (ReplayCase, 1);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *test_path = g_strdup_printf ("/fuzz/%s/%s/%s", kind, target->name, base);

  c->target = target;
  c->path = g_strdup (path);
  g_test_add_data_func_full (test_path, c, func, replay_case_free);
}

static void
add_folder (const char             *kind,
            const SeismoFuzzTarget *target,
            const char             *dir_path,
            const char             *suffix)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)))
    if ((suffix == NULL || g_str_has_suffix (name, suffix)) && name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_path, g_ptr_array_index (names, i), NULL);

      add_case (kind, target, path, test_replay);
      if (target->binary && !g_str_equal (kind, "regression"))
        {
          add_case ("truncate", target, path, test_truncate);
          add_case ("corrupt", target, path, test_corrupt);
        }
    }
}

/* The generated seeds: a small .seismo file, and the same as a seismo-records stream. */
static void
write_seed (const char  *dir,
            const char  *name,
            SeismoTrace *trace)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file_dir = g_build_filename (dir, "seismo-file", NULL);
  g_autofree char *rec_dir = g_build_filename (dir, "seismo-records", NULL);
  g_autofree char *file_name = g_strconcat (name, ".seismo", NULL);
  g_autofree char *rec_name = g_strconcat (name, ".rec", NULL);
  g_autofree char *file_path = g_build_filename (file_dir, file_name, NULL);
  g_autofree char *rec_path = g_build_filename (rec_dir, rec_name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) records = NULL;
  gsize len;

  g_mkdir_with_parents (file_dir, 0755);
  g_mkdir_with_parents (rec_dir, 0755);
  if (!seismo_file_save (trace, file_path, &error) ||
      !g_file_get_contents (file_path, &contents, &len, &error))
    g_error ("%s", error->message);
  g_chmod (file_path, 0644);
  records = seismo_fuzz_file_to_records ((const guint8 *) contents, len);
  if (!g_file_set_contents (rec_path, g_bytes_get_data (records, NULL), g_bytes_get_size (records), &error))
    g_error ("%s", error->message);
}

static void
write_seeds (const char *dir)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (300, 9);
  /* Format 1.2's stack records (issue 17). */
  g_autoptr(SeismoTrace) stacks = seismo_test_make_stack_trace (300, 9);

  write_seed (dir, "generated-300", trace);
  write_seed (dir, "stacks-300", stacks);
  /* Format 1.3's CHUNK_SYSCALLS record, beside the SUMMARY. */
  write_seed (dir, "chunk-syscalls-300", trace);
}

/* The seismo-records harness turns a real file's records back into an equal file. */
static void
test_records_roundtrip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (2000, 5);
  g_autofree char *path = seismo_test_temp_path ("roundtrip.seismo");
  g_autofree char *path2 = seismo_test_temp_path ("roundtrip2.seismo");
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) records = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  gsize len;

  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  records = seismo_fuzz_file_to_records ((const guint8 *) contents, len);
  g_assert_nonnull (records);
  file = seismo_fuzz_records_to_file (g_bytes_get_data (records, NULL), g_bytes_get_size (records));
  g_assert_true (g_file_set_contents (path2, g_bytes_get_data (file, NULL), g_bytes_get_size (file), &error));
  loaded = seismo_file_load (path2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, seismo_trace_get_n_events (trace));
  /* With its index and trailer rebuilt, the file is complete: no load warning. */
  g_assert_null (seismo_trace_get_metadata (loaded, "load_warning"));
}

int
main (int    argc,
      char **argv)
{
  const char *srcdir = g_getenv ("SEISMO_SOURCE_DIR");
  g_autofree char *fuzz_dir = NULL;
  g_autofree char *data_dir = NULL;
  const SeismoFuzzTarget *targets;

  if (argc >= 4 && g_str_equal (argv[1], "--run"))
    {
      const SeismoFuzzTarget *target;

      seismo_fuzz_init ();
      if ((target = seismo_fuzz_lookup (argv[2])) == NULL)
        g_error ("no fuzz target called %s", argv[2]);
      for (int i = 3; i < argc; i++)
        {
          g_autoptr(GBytes) bytes = read_input (argv[i]);

          g_print ("%s\n", argv[i]);
          target->func (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
        }
      return 0;
    }
  if (argc == 3 && g_str_equal (argv[1], "--write-seeds"))
    {
      seismo_fuzz_init ();
      write_seeds (argv[2]);
      return 0;
    }

  g_test_init (&argc, &argv, NULL);
  seismo_fuzz_init ();
  if (srcdir == NULL)
    srcdir = SEISMO_SOURCE_DIR;
  fuzz_dir = g_build_filename (srcdir, "tests", "fuzz", NULL);
  data_dir = g_build_filename (srcdir, "tests", "data", NULL);

  g_test_add_func ("/fuzz/records-roundtrip", test_records_roundtrip);
  targets = seismo_fuzz_targets ();
  for (guint i = 0; targets[i].name; i++)
    {
      g_autofree char *corpus = g_build_filename (fuzz_dir, "corpus", targets[i].name, NULL);
      g_autofree char *regressions = g_build_filename (fuzz_dir, "regressions", targets[i].name, NULL);

      add_folder ("corpus", &targets[i], corpus, NULL);
      add_folder ("regression", &targets[i], regressions, NULL);
      for (guint s = 0; s < G_N_ELEMENTS (data_samples); s++)
        if (g_str_equal (data_samples[s].target, targets[i].name))
          add_folder ("sample", &targets[i], data_dir, data_samples[s].suffix);
    }
  return g_test_run ();
}

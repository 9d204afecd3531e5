/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-trace-builder-private.h"
#include "seismo-importer.h"
#include "seismo-test-util.h"
#include "test-file-common.h"

static SeismoTrace *
round_trip (SeismoTrace *trace,
            const char  *name)
{
  g_autofree char *path = seismo_test_temp_path (name);
  g_autoptr(GError) error = NULL;
  SeismoTrace *loaded;

  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_no_error (error);
  loaded = seismo_test_load_file (path);
  g_assert_null (seismo_trace_get_metadata (loaded, SEISMO_META_LOAD_WARNING));
  return loaded;
}

static void
test_round_trip_small (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (5000, 1);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "small.seismo");

  file_test_assert_traces_equal (trace, loaded);
}

/* Several chunks, the last one partial; and the derived intervals rebuilt the same way. */
static void
test_round_trip_chunks (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (3 * 65536 + 1234, 2);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "chunks.seismo");

  g_assert_cmpuint (trace->n_blocks, ==, 4);
  file_test_assert_traces_equal (trace, loaded);
}

/* Exactly full chunks: no partial last chunk. */
static void
test_round_trip_exact_chunks (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (2 * 65536, 3);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "exact.seismo");

  file_test_assert_traces_equal (trace, loaded);
}

static void
test_round_trip_empty (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (0, 4);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "empty.seismo");

  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, 0);
  file_test_assert_traces_equal (trace, loaded);
}

/* Every field type decodes to the same values and the same text. */
static void
test_round_trip_fields (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 5);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "fields.seismo");
  gboolean seen[SEISMO_FIELD_N_TYPES] = { FALSE };

  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, (SeismoEventId) i);
      SeismoValue va[32], vb[32];
      guint na = seismo_trace_event_fields (trace, (SeismoEventId) i, va, G_N_ELEMENTS (va));
      guint nb = seismo_trace_event_fields (loaded, (SeismoEventId) i, vb, G_N_ELEMENTS (vb));
      g_autofree char *ta = seismo_trace_event_format (trace, (SeismoEventId) i);
      g_autofree char *tb = seismo_trace_event_format (loaded, (SeismoEventId) i);

      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpuint (na, ==, type->n_fields);
      for (guint f = 0; f < na; f++)
        {
          g_assert_cmpint (va[f].type, ==, vb[f].type);
          g_assert_cmpuint (va[f].u, ==, vb[f].u);
          g_assert_cmpstr (va[f].str, ==, vb[f].str);
          g_assert_cmpuint (va[f].len, ==, vb[f].len);
          if (va[f].type == SEISMO_FIELD_BYTES || va[f].type == SEISMO_FIELD_UINT_ARRAY)
            g_assert_cmpmem (va[f].data, va[f].len, vb[f].data, vb[f].len);
          seen[va[f].type] = TRUE;
        }
      g_assert_cmpstr (ta, ==, tb);
    }
  for (guint t = 0; t < SEISMO_FIELD_N_TYPES; t++)
    g_assert_true (seen[t]);
}

/* The trace's own counts and queries agree after a round trip. */
static void
test_round_trip_queries (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (70000, 6);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "queries.seismo");
  gsize na, nb;

  g_assert_cmpuint (seismo_trace_get_n_lost_events (trace), >, 0);
  g_assert_cmpuint (trace->n_comm_changes, >, 0);
  g_assert_cmpuint (trace->n_histograms, >, 0);
  g_assert_nonnull (seismo_trace_get_syscall_spans (trace, &na));
  g_assert_cmpuint (na, >, 0);
  seismo_trace_get_syscall_spans (loaded, &nb);
  g_assert_cmpuint (na, ==, nb);
  for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
    {
      const SeismoEventId *ea = seismo_trace_get_cpu_events (trace, c, &na);
      const SeismoEventId *eb = seismo_trace_get_cpu_events (loaded, c, &nb);

      g_assert_cmpmem (ea, na * sizeof *ea, eb, nb * sizeof *eb);
    }
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      const SeismoEventId *ea = seismo_trace_get_task_events (trace, t, &na);
      const SeismoEventId *eb = seismo_trace_get_task_events (loaded, t, &nb);

      g_assert_cmpmem (ea, na * sizeof *ea, eb, nb * sizeof *eb);
      g_assert_cmpstr (seismo_trace_task_comm_at (trace, t, seismo_trace_get_end_ns (trace)), ==,
                       seismo_trace_task_comm_at (loaded, t, seismo_trace_get_end_ns (loaded)));
    }
}

/* Saving what was loaded gives the same bytes: nothing is lost or reordered on the way. */
static void
test_save_is_deterministic (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (80000, 7);
  g_autoptr(SeismoTrace) loaded = round_trip (trace, "det1.seismo");
  g_autofree char *p1 = seismo_test_temp_path ("det1.seismo");
  g_autofree char *p2 = seismo_test_temp_path ("det2.seismo");
  g_autofree char *c1 = NULL, *c2 = NULL;
  gsize l1, l2;

  g_assert_true (seismo_file_save (loaded, p2, NULL));
  g_assert_true (g_file_get_contents (p1, &c1, &l1, NULL));
  g_assert_true (g_file_get_contents (p2, &c2, &l2, NULL));
  g_assert_cmpmem (c1, l1, c2, l2);
}

/* The registry finds the format by its signature, whatever the file is called. */
static void
test_registry (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (1000, 8);
  g_autofree char *path = seismo_test_temp_path ("registry.seismo");
  g_autofree char *odd = seismo_test_temp_path ("registry.bin");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;

  g_assert_true (seismo_trace_save (trace, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_rename (path, odd), ==, 0);
  loaded = seismo_trace_open (odd, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* The registry notes which reader it used; everything else is the file's. */
  g_assert_cmpstr (seismo_trace_get_metadata (loaded, "format"), ==, "seismo");
  file_test_assert_events_equal (trace, loaded, seismo_trace_get_n_events (trace));
  file_test_assert_types_equal (trace, loaded);
  file_test_assert_derived_equal (trace, loaded);
  g_assert_cmpint (seismo_file_importer.sniff ((const guint8 *) SEISMO_FILE_MAGIC, 8, odd), ==, 100);
  g_assert_cmpint (seismo_file_importer.sniff ((const guint8 *) "\x89PNG\r\n\x1a\n", 8, odd), ==, 0);
  g_assert_cmpstr (seismo_file_exporter.extension, ==, ".seismo");
}

static void
test_mode_0600 (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (100, 9);
  g_autofree char *path = seismo_test_temp_path ("mode.seismo");
  g_autoptr(SeismoFileWriter) writer = NULL;
  g_autofree char *stream_path = seismo_test_temp_path ("mode-stream.seismo");
  g_autoptr(SeismoTraceBuilder) builder = seismo_test_make_builder (100, 9);
  mode_t old = umask (0);
  struct stat st;

  /* An existing world-readable file is replaced by a private one. */
  g_assert_true (g_file_set_contents_full (path, "x", 1, G_FILE_SET_CONTENTS_NONE, 0666, NULL));
  g_assert_true (seismo_file_save (trace, path, NULL));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  writer = seismo_file_writer_new (stream_path, NULL);
  g_assert_nonnull (writer);
  g_assert_cmpint (g_stat (seismo_file_writer_get_partial_path (writer), &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (seismo_file_writer_commit (writer, builder, NULL));
  g_assert_cmpint (g_stat (stream_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  umask (old);
}

/* A folder of its own, for tests that count what is in it; removed by remove_dir(). */
static char *
make_dir (void)
{
  char *dir = g_dir_make_tmp ("seismo-file-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return dir;
}

static void
remove_dir (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir_path);
}

static guint
count_files (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* A save leaves exactly the file: no temporary beside it, whether it succeeded or not. */
static void
test_atomic_save (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (70000, 10);
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "trace.seismo", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "trace.seismo", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;

  g_assert_true (g_file_set_contents (path, "old contents", -1, NULL));
  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_files (dir), ==, 1);
  loaded = seismo_test_load_file (path);
  file_test_assert_traces_equal (trace, loaded);

  g_assert_false (seismo_file_save (trace, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "trace.seismo"));
  g_assert_cmpuint (count_files (dir), ==, 1);
  remove_dir (dir);
}

static void
assert_unknown_format (const char   *name,
                       const guint8 *data,
                       gsize         len)
{
  g_autofree char *path = seismo_test_temp_path (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, len, NULL));
  trace = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, name));
  g_clear_error (&error);

  /* Through the registry no importer claims it (the text importer may try and fail cleanly). */
  trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_nonnull (error);
}

static void
test_foreign_files (void)
{
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H',
                                'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4,
                                0x89 };
  static const char text[] = "Hello, this is not a trace.\nIt has two lines.\n";
  guint8 noise[4096];
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (guint i = 0; i < sizeof noise; i++)
    noise[i] = (guint8) g_rand_int (rand);
  assert_unknown_format ("text.txt", (const guint8 *) text, sizeof text - 1);
  assert_unknown_format ("image.png", png, sizeof png);
  assert_unknown_format ("noise.bin", noise, sizeof noise);
  assert_unknown_format ("empty.seismo", (const guint8 *) "", 0);
}

static void
test_missing_file (void)
{
  g_autofree char *path = seismo_test_temp_path ("does-not-exist.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = seismo_file_load (path, NULL, NULL, NULL, &error);

  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "does-not-exist.seismo"));
}

/* ---------------------------------------------------------------------------------------------- */
/* Streaming                                                                                       */

static const SeismoFieldInfo switch_fields[] = {
  { "prev_comm", SEISMO_FIELD_STRING, 16, 0 },
  { "prev_pid", SEISMO_FIELD_INT, 4, 0 },
  { "prev_prio", SEISMO_FIELD_INT, 4, 0 },
  { "prev_state", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_SCHED_STATE },
  { "next_comm", SEISMO_FIELD_STRING, 16, 0 },
  { "next_pid", SEISMO_FIELD_INT, 4, 0 },
  { "next_prio", SEISMO_FIELD_INT, 4, 0 },
};
static const SeismoFieldInfo enter_fields[] = {
  { "id", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
  { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
};
static const SeismoFieldInfo exit_fields[] = {
  { "id", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
  { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO },
};
static const SeismoFieldInfo open_fields[] = {
  { "filename", SEISMO_FIELD_STRING, 8, 0 },
  { "data", SEISMO_FIELD_BYTES, 0, 0 },
};

/* When set, record() flushes with seismo_file_writer_stream(): the builder drops what was written. */
static gboolean record_releases;

/* Appends events the way a recorder does: per-CPU bursts out of time order (unless sorted), new
 * types, strings, tasks, comm changes and metadata turning up along the way, flushing every
 * flush_every events (0: never). Returns the builder, still open. */
static SeismoTraceBuilder *
record (SeismoFileWriter *writer,
        guint64           n_events,
        guint             flush_every,
        gboolean          sorted,
        guint32           seed)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint64 now[4] = { 1000, 1003, 1005, 1007 };
  guint64 clock = 5000;
  guint sw, enter, exit_, open = G_MAXUINT;

  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "synthetic");
  seismo_trace_builder_set_metadata (b, SEISMO_META_COMMAND, "record test");
  seismo_trace_builder_set_n_cpus (b, 2);
  sw = seismo_trace_builder_add_event_type (b, "sched", "sched_switch", switch_fields,
                                            G_N_ELEMENTS (switch_fields), NULL);
  enter = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", enter_fields,
                                               G_N_ELEMENTS (enter_fields), NULL);
  exit_ = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_exit", exit_fields,
                                               G_N_ELEMENTS (exit_fields), NULL);

  for (guint64 i = 0; i < n_events; i++)
    {
      guint cpu = g_rand_int_range (rand, 0, 4);
      guint64 ts;
      gint32 tid = 100 + g_rand_int_range (rand, 0, 50 + (gint) (i / 1000));
      guint r = g_rand_int_range (rand, 0, 100);

      if (sorted)
        ts = clock += g_rand_int_range (rand, 0, 300);
      else
        ts = now[cpu] += g_rand_int_range (rand, 1, 1200);

      if (i == n_events / 3)
        {
          /* A type, a metadata change and a pid learnt late, mid-recording. */
          static const SeismoSymbol modes[] = { { 0, "RDONLY" }, { 1, "WRONLY" } };
          SeismoFieldInfo fields[G_N_ELEMENTS (open_fields)];

          memcpy (fields, open_fields, sizeof fields);
          fields[0].symbols = modes;
          fields[0].n_symbols = G_N_ELEMENTS (modes);
          open = seismo_trace_builder_add_event_type (b, "test", "open", fields,
                                                      G_N_ELEMENTS (fields), "{filename}");
          seismo_trace_builder_set_metadata (b, SEISMO_META_COMMAND, "record test (changed)");
          seismo_trace_builder_set_metadata (b, SEISMO_META_HOST, "testhost");
          seismo_trace_builder_set_task_pid (b, 100, 99);
        }
      if (g_rand_int_range (rand, 0, 2000) == 0)
        {
          g_autofree char *comm = g_strdup_printf ("comm-%u", g_rand_int_range (rand, 0, 40));

          seismo_trace_builder_set_task_comm (b, tid, comm, ts);
        }
      if (g_rand_int_range (rand, 0, 5000) == 0)
        seismo_trace_builder_add_lost_events (b, (int) cpu, ts, 7);

      if (open != G_MAXUINT && r < 5)
        {
          g_autofree char *file = g_strdup_printf ("/tmp/file-%u", g_rand_int_range (rand, 0, 3000));
          guint8 data[5] = { 1, 2, 3, (guint8) i, (guint8) (i >> 8) };

          seismo_trace_builder_begin_event (b, ts, cpu, tid, open);
          seismo_trace_builder_push_string (b, file);
          seismo_trace_builder_push_bytes (b, data, r % 6);
          seismo_trace_builder_end_event (b);
        }
      else if (r < 30)
        {
          seismo_trace_builder_begin_event (b, ts, cpu, tid, sw);
          seismo_trace_builder_push_string (b, "task");
          seismo_trace_builder_push_int (b, tid);
          seismo_trace_builder_push_int (b, 120);
          seismo_trace_builder_push_int (b, r & 1);
          seismo_trace_builder_push_string (b, "task");
          seismo_trace_builder_push_int (b, tid + 1);
          seismo_trace_builder_push_int (b, 120);
          seismo_trace_builder_end_event (b);
        }
      else if (r < 65)
        {
          guint64 args[6] = { 3, 0x7ffe0000 + i, 4096, 0, 0, 0 };

          seismo_trace_builder_begin_event (b, ts, cpu, tid, enter);
          seismo_trace_builder_push_uint (b, r % 7);
          seismo_trace_builder_push_uint_array (b, args, 6);
          seismo_trace_builder_end_event (b);
        }
      else
        {
          seismo_trace_builder_begin_event (b, ts, cpu, tid, exit_);
          seismo_trace_builder_push_uint (b, r % 7);
          seismo_trace_builder_push_int (b, (r & 3) == 0 ? -2 : (gint64) r * 10);
          seismo_trace_builder_end_event (b);
        }

      if (writer != NULL && flush_every > 0 && (i + 1) % flush_every == 0)
        {
          g_autoptr(GError) error = NULL;

          if (record_releases)
            {
              g_assert_true (seismo_file_writer_stream (writer, b, &error));
              /* Only the incomplete chunk stays in memory. */
              g_assert_cmpuint (b->n_events, <, 65536);
            }
          else
            g_assert_true (seismo_file_writer_flush (writer, b, &error));
          g_assert_no_error (error);
        }
    }

  {
    guint64 lower[2] = { 0, 100 }, counts[2] = { 3, 4 };
    SeismoHistogram h = { "syscall_count", "", "calls", 2, lower, counts, 7, 700 };

    seismo_trace_builder_add_histogram (b, &h);
  }
  seismo_trace_builder_set_metadata (b, "end", "yes");
  return b;
}

/* A file written while recording holds what a one-shot save of the finished trace holds. */
static void
test_streaming_equals_save (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *stream_path = g_build_filename (dir, "stream.seismo", NULL);
  g_autofree char *save_path = g_build_filename (dir, "save.seismo", NULL);
  g_autoptr(SeismoFileWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  SeismoTraceBuilder *b;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTrace) streamed = NULL;
  g_autoptr(SeismoTrace) saved = NULL;

  writer = seismo_file_writer_new (stream_path, &error);
  g_assert_no_error (error);
  b = record (writer, 300000, 25000, FALSE, 12);
  g_assert_false (g_file_test (stream_path, G_FILE_TEST_EXISTS));
  g_assert_true (seismo_file_writer_commit (writer, b, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (stream_path, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (seismo_file_writer_get_partial_path (writer), G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (dir), ==, 1);

  trace = seismo_trace_builder_finish (b);
  g_assert_true (seismo_file_save (trace, save_path, &error));
  g_assert_no_error (error);

  streamed = seismo_test_load_file (stream_path);
  saved = seismo_test_load_file (save_path);
  g_assert_null (seismo_trace_get_metadata (streamed, SEISMO_META_LOAD_WARNING));
  g_assert_cmpuint (seismo_trace_get_n_events (streamed), ==, 300000);
  file_test_assert_traces_equal (trace, saved);
  file_test_assert_traces_equal (trace, streamed);
  g_assert_cmpstr (seismo_trace_get_metadata (streamed, SEISMO_META_COMMAND), ==,
                   "record test (changed)");
  remove_dir (dir);
}

/* A writer that releases what it wrote (seismo-gen, conversions) makes the same file as one that
 * keeps everything, while the builder holds less than a chunk of events. */
static void
test_streaming_release (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *kept_path = g_build_filename (dir, "kept.seismo", NULL);
  g_autofree char *released_path = g_build_filename (dir, "released.seismo", NULL);
  g_autoptr(SeismoFileWriter) kept_writer = seismo_file_writer_new (kept_path, NULL);
  g_autoptr(SeismoFileWriter) released_writer = seismo_file_writer_new (released_path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTraceBuilder) released = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTrace) a = NULL;
  g_autoptr(SeismoTrace) b = NULL;
  g_autofree char *kept_bytes = NULL;
  g_autofree char *released_bytes = NULL;
  gsize kept_len, released_len;
  SeismoTraceBuilder *kept;

  kept = record (kept_writer, 300000, 25000, TRUE, 14);
  record_releases = TRUE;
  released = record (released_writer, 300000, 25000, TRUE, 14);
  record_releases = FALSE;
  g_assert_cmpuint (seismo_trace_builder_get_n_events (released), ==, 300000);
  g_assert_true (seismo_file_writer_commit (kept_writer, kept, &error));
  g_assert_no_error (error);
  g_assert_true (seismo_file_writer_commit (released_writer, released, &error));
  g_assert_no_error (error);

  /* Byte for byte the same file. */
  g_assert_true (g_file_get_contents (kept_path, &kept_bytes, &kept_len, NULL));
  g_assert_true (g_file_get_contents (released_path, &released_bytes, &released_len, NULL));
  g_assert_cmpmem (kept_bytes, kept_len, released_bytes, released_len);

  trace = seismo_trace_builder_finish (kept);
  a = seismo_test_load_file (kept_path);
  b = seismo_test_load_file (released_path);
  file_test_assert_traces_equal (trace, a);
  file_test_assert_traces_equal (trace, b);
  remove_dir (dir);
}

/* A commit with nothing flushed before, and with an event still in progress. */
static void
test_streaming_commit_only (void)
{
  g_autofree char *path = seismo_test_temp_path ("commit-only.seismo");
  g_autoptr(SeismoFileWriter) writer = seismo_file_writer_new (path, NULL);
  SeismoTraceBuilder *b = record (NULL, 1000, 0, FALSE, 13);
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;

  g_assert_true (seismo_file_writer_commit (writer, b, NULL));
  trace = seismo_trace_builder_finish (b);
  loaded = seismo_test_load_file (path);
  file_test_assert_traces_equal (trace, loaded);
}

/* A recorder killed before its commit leaves a .partial file that opens as the flushed prefix. */
static void
test_streaming_killed (void)
{
  g_autofree char *path = seismo_test_temp_path ("trace.seismo");
  g_autofree char *partial = NULL;
  g_autoptr(GError) error = NULL;
  SeismoFileWriter *writer;
  SeismoTraceBuilder *b;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  const char *warning;

  writer = seismo_file_writer_new (path, &error);
  g_assert_no_error (error);
  partial = g_strdup (seismo_file_writer_get_partial_path (writer));
  g_assert_true (g_str_has_suffix (partial, "trace.seismo" SEISMO_FILE_PARTIAL_SUFFIX));

  /* Sorted events, so the prefix read back is the finished trace's first events. */
  b = record (writer, 3 * 65536 + 5000, 30000, TRUE, 14);
  /* The last flush before the kill: complete chunks go out, the 5000 events after them wait. */
  g_assert_true (seismo_file_writer_flush (writer, b, &error));
  seismo_file_writer_free (writer);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  loaded = seismo_test_load_file (partial);
  warning = seismo_trace_get_metadata (loaded, SEISMO_META_LOAD_WARNING);
  g_assert_nonnull (warning);
  g_assert_nonnull (strstr (warning, "no index"));
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, 3 * 65536);

  trace = seismo_trace_builder_finish (b);
  file_test_assert_events_equal (trace, loaded, 3 * 65536);
  file_test_assert_types_equal (trace, loaded);
  for (gsize i = 0; i < 3 * 65536; i += 997)
    {
      g_autofree char *ta = seismo_trace_event_format (trace, (SeismoEventId) i);
      g_autofree char *tb = seismo_trace_event_format (loaded, (SeismoEventId) i);

      g_assert_cmpstr (ta, ==, tb);
    }
}

/* A recorder killed while writing a chunk: the chunk is cut, the chunks before it open. */
static void
test_streaming_killed_mid_chunk (void)
{
  g_autofree char *path = seismo_test_temp_path ("midchunk.seismo");
  g_autofree char *partial = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  SeismoFileWriter *writer = seismo_file_writer_new (path, NULL);
  SeismoTraceBuilder *b;
  gsize len;

  partial = g_strdup (seismo_file_writer_get_partial_path (writer));
  b = record (writer, 2 * 65536 + 10, 65536, TRUE, 15);
  seismo_file_writer_free (writer);
  seismo_trace_builder_free (b);

  g_assert_true (g_file_get_contents (partial, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (partial, contents, len - 100, NULL));
  loaded = seismo_test_load_file (partial);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, 65536);
  g_assert_nonnull (strstr (seismo_trace_get_metadata (loaded, SEISMO_META_LOAD_WARNING),
                            "were not read"));
}

static void
test_streaming_discard (void)
{
  g_autofree char *path = seismo_test_temp_path ("discard.seismo");
  g_autoptr(SeismoFileWriter) writer = seismo_file_writer_new (path, NULL);
  g_autoptr(SeismoTraceBuilder) b = record (writer, 70000, 20000, FALSE, 16);

  g_assert_true (g_file_test (seismo_file_writer_get_partial_path (writer), G_FILE_TEST_EXISTS));
  seismo_file_writer_discard (writer);
  g_assert_false (g_file_test (seismo_file_writer_get_partial_path (writer), G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_false (seismo_file_writer_flush (writer, b, NULL));
}

/* ---------------------------------------------------------------------------------------------- */
/* Layout                                                                                          */

/* The trailer leads to an index that locates every chunk and its time range. */
static void
test_index (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (3 * 65536 + 17, 17);
  g_autofree char *path = seismo_test_temp_path ("index.seismo");
  g_autofree guint8 *data = NULL;
  SeismoFileHeader header;
  SeismoFileTrailer trailer;
  SeismoRecordHeader rh;
  SeismoIndexInfo info;
  guint n_chunks = 0;
  gsize len;

  g_assert_true (seismo_file_save (trace, path, NULL));
  g_assert_true (g_file_get_contents (path, (char **) &data, &len, NULL));

  memcpy (&header, data, sizeof header);
  _seismo_file_header_swap (&header);
  g_assert_cmpmem (header.magic, 8, SEISMO_FILE_MAGIC, 8);
  g_assert_cmpuint (header.version_major, ==, SEISMO_FILE_VERSION_MAJOR);
  g_assert_cmpuint (header.chunk_events, ==, 65536);

  memcpy (&trailer, data + len - sizeof trailer, sizeof trailer);
  _seismo_trailer_swap (&trailer);
  g_assert_cmpmem (trailer.magic, 8, SEISMO_FILE_TRAILER_MAGIC, 8);
  g_assert_cmpuint (trailer.file_size, ==, len);

  memcpy (&rh, data + trailer.index_offset, sizeof rh);
  _seismo_record_header_swap (&rh);
  g_assert_cmpuint (rh.kind, ==, SEISMO_RECORD_INDEX);
  memcpy (&info, data + trailer.index_offset + sizeof rh, sizeof info);
  _seismo_index_info_swap (&info);
  g_assert_cmpuint (info.n_events, ==, seismo_trace_get_n_events (trace));
  g_assert_cmpuint (info.n_chunks, ==, 4);
  g_assert_cmpuint (info.min_ts, ==, seismo_trace_get_start_ns (trace));
  g_assert_cmpuint (info.max_ts, ==, seismo_trace_get_end_ns (trace));
  g_assert_true (info.flags & SEISMO_INDEX_FLAG_SORTED);

  for (guint i = 0; i < info.n_entries; i++)
    {
      SeismoIndexEntry e;

      memcpy (&e, data + trailer.index_offset + sizeof rh + sizeof info + i * sizeof e, sizeof e);
      _seismo_index_entry_swap (&e);
      memcpy (&rh, data + e.offset, sizeof rh);
      _seismo_record_header_swap (&rh);
      g_assert_cmpuint (rh.kind, ==, e.kind);
      if (e.kind == SEISMO_RECORD_CHUNK)
        {
          /* What a reader seeking by time relies on. */
          g_assert_cmpuint (e.first_event, ==, (guint64) n_chunks * 65536);
          g_assert_cmpuint (e.min_ts, ==, trace->ts[e.first_event]);
          g_assert_cmpuint (e.max_ts, ==, trace->ts[e.first_event + e.n_events - 1]);
          n_chunks++;
        }
    }
  g_assert_cmpuint (n_chunks, ==, 4);
}

/* A newer major version is refused as such, not as damage. */
static void
test_newer_version (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (100, 18);
  g_autofree char *path = seismo_test_temp_path ("v2.seismo");
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  guint16 v2 = GUINT16_TO_LE (2);
  gsize len;

  g_assert_true (seismo_file_save (trace, path, NULL));
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  memcpy (data + 8, &v2, 2);
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  loaded = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED);
}

static void
test_progress_and_cancel (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (4 * 65536, 19);
  g_autofree char *path = seismo_test_temp_path ("progress.seismo");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  SeismoTestProgress progress = { 0 };

  g_assert_true (seismo_file_save (trace, path, NULL));
  loaded = seismo_file_load (path, NULL, seismo_test_progress, &progress, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (progress.last, ==, 1.0);
  g_clear_object (&loaded);

  g_cancellable_cancel (cancellable);
  loaded = seismo_file_load (path, cancellable, NULL, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED);
}

/* The checksum is the standard CRC32C, on every path: bitwise reference, table, instruction. */
static guint32
crc32c_reference (const guint8 *p,
                  gsize         len)
{
  guint32 crc = 0xffffffff;

  for (gsize i = 0; i < len; i++)
    {
      crc ^= p[i];
      for (guint k = 0; k < 8; k++)
        crc = (crc >> 1) ^ ((crc & 1) ? 0x82f63b78 : 0);
    }
  return ~crc;
}

static void
test_crc32c (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  guint8 buf[300];

  g_assert_cmphex (_seismo_crc32c (0, "123456789", 9), ==, 0xe3069283);
  g_assert_cmphex (_seismo_crc32c_portable (0, "123456789", 9), ==, 0xe3069283);
  for (guint i = 0; i < sizeof buf; i++)
    buf[i] = (guint8) g_rand_int (rand);
  for (gsize start = 0; start < 9; start++)
    for (gsize len = 0; start + len <= sizeof buf; len += 7)
      {
        guint32 want = crc32c_reference (buf + start, len);
        gsize half = len / 3;

        g_assert_cmphex (_seismo_crc32c (0, buf + start, len), ==, want);
        g_assert_cmphex (_seismo_crc32c_portable (0, buf + start, len), ==, want);
        /* Continued over two pieces, as the reader checks info then data. */
        g_assert_cmphex (_seismo_crc32c (_seismo_crc32c (0, buf + start, half), buf + start + half,
                                         len - half), ==, want);
      }
}

/* flush_all() puts every event appended so far in the file, the incomplete chunk provisionally,
 * and replaces that chunk when it grows: the file never holds an event twice. */
static void
test_streaming_flush_all (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "tail.seismo", NULL);
  g_autoptr(SeismoFileWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTrace) finished = NULL;
  SeismoTraceBuilder *b;
  guint enter;
  int fd;

  fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  writer = seismo_file_writer_new_for_fd (fd, path, &error);
  g_assert_no_error (error);
  b = record (NULL, 100000, 0, TRUE, 7);
  enter = seismo_trace_builder_find_event_type (b, "raw_syscalls:sys_enter");

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(SeismoTrace) partial = NULL;
      guint64 args[6] = { 1, 2, 3, 4, 5, 6 };

      g_assert_true (seismo_file_writer_flush_all (writer, b, &error));
      g_assert_no_error (error);
      partial = seismo_test_load_file (path);
      g_assert_cmpuint (seismo_trace_get_n_events (partial), ==, seismo_trace_builder_get_n_events (b));
      /* The tail grows past a chunk boundary in the last round. */
      for (guint i = 0; i < (round == 1 ? 40000 : 1000); i++)
        {
          seismo_trace_builder_begin_event (b, G_GUINT64_CONSTANT (10000000000) + round * 100000 + i,
                                            1, 42, enter);
          seismo_trace_builder_push_uint (b, 0);
          seismo_trace_builder_push_uint_array (b, args, 6);
          seismo_trace_builder_end_event (b);
        }
    }
  g_assert_true (seismo_file_writer_finish (writer, b, &error));
  g_assert_no_error (error);
  close (fd);
  trace = seismo_trace_builder_finish (b);
  finished = seismo_test_load_file (path);
  g_assert_null (seismo_trace_get_metadata (finished, SEISMO_META_LOAD_WARNING));
  file_test_assert_traces_equal (trace, finished);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file/crc32c", test_crc32c);
  g_test_add_func ("/file/round-trip/small", test_round_trip_small);
  g_test_add_func ("/file/round-trip/chunks", test_round_trip_chunks);
  g_test_add_func ("/file/round-trip/exact-chunks", test_round_trip_exact_chunks);
  g_test_add_func ("/file/round-trip/empty", test_round_trip_empty);
  g_test_add_func ("/file/round-trip/fields", test_round_trip_fields);
  g_test_add_func ("/file/round-trip/queries", test_round_trip_queries);
  g_test_add_func ("/file/round-trip/deterministic", test_save_is_deterministic);
  g_test_add_func ("/file/registry", test_registry);
  g_test_add_func ("/file/mode-0600", test_mode_0600);
  g_test_add_func ("/file/atomic-save", test_atomic_save);
  g_test_add_func ("/file/foreign", test_foreign_files);
  g_test_add_func ("/file/missing", test_missing_file);
  g_test_add_func ("/file/streaming/equals-save", test_streaming_equals_save);
  g_test_add_func ("/file/streaming/commit-only", test_streaming_commit_only);
  g_test_add_func ("/file/streaming/release", test_streaming_release);
  g_test_add_func ("/file/streaming/killed", test_streaming_killed);
  g_test_add_func ("/file/streaming/killed-mid-chunk", test_streaming_killed_mid_chunk);
  g_test_add_func ("/file/streaming/discard", test_streaming_discard);
  g_test_add_func ("/file/streaming/flush-all", test_streaming_flush_all);
  g_test_add_func ("/file/index", test_index);
  g_test_add_func ("/file/newer-version", test_newer_version);
  g_test_add_func ("/file/progress-and-cancel", test_progress_and_cancel);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-fuzz"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "seismo-backend.h"
#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-file-summary.h"
#include "seismo-filter.h"
#include "seismo-fuzz.h"
#include "seismo-stack-tree.h"
#include "seismo-importer.h"
#include "seismo-lesson.h"
#include "seismo-proc-maps.h"
#include "seismo-stacks.h"
#include "seismo-symbolizer.h"
#include "seismo-session-test-util.h"
#include "seismo-test-util.h"

/*
 * The importers read paths, not buffers, so each input is written to one scratch file (in
 * /dev/shm when it exists, so a fuzzer's millions of inputs never touch a disk) and loaded from
 * there. The scratch file is named "input" without an extension or a ".PID" suffix, so no importer
 * takes a hint from its name (the strace importer would look for strace -ff siblings).
 */
static char *scratch_dir;
static char *scratch_path;
static SeismoTrace *filter_trace;

static void
remove_scratch (void)
{
  if (scratch_path)
    g_unlink (scratch_path);
  if (scratch_dir)
    g_rmdir (scratch_dir);
}

void
seismo_fuzz_init (void)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      const char *base = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();

      /* A critical is a bug whatever the input: make it a crash the fuzzer reports. */
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR);
      seismo_backends_init ();

      scratch_dir = g_build_filename (base, "seismo-fuzz-XXXXXX", NULL);
      if (g_mkdtemp (scratch_dir) == NULL)
        g_error ("could not create a scratch folder in %s: %s", base, g_strerror (errno));
      scratch_path = g_build_filename (scratch_dir, "input", NULL);
      atexit (remove_scratch);
      g_once_init_leave (&initialized, 1);
    }
}

static const char *
write_scratch (const guint8 *data,
               gsize         size)
{
  int fd = open (scratch_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gsize done = 0;

  if (fd < 0)
    g_error ("could not write %s: %s", scratch_path, g_strerror (errno));
  while (done < size)
    {
      ssize_t n = write (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        g_error ("could not write %s: %s", scratch_path, g_strerror (errno));
      done += (gsize) n;
    }
  close (fd);
  return scratch_path;
}

/* A trace that loads must be usable: every query the viewer makes works on it. Bounded so a
 * large valid input does not slow the fuzzer down. */
/* Stacks (issue 17): every stack's frames, the call trees by count and time, folded lines. */
static void
exercise_stacks (SeismoTrace *trace)
{
  gsize n_events = seismo_trace_get_n_events (trace);
  guint n_stacks = seismo_trace_get_n_stacks (trace);
  g_autoptr(GString) out = g_string_new (NULL);

  for (gsize i = 0; i < n_events; i++)
    g_assert_cmpuint (seismo_trace_event_stack (trace, (SeismoEventId) i), <, MAX (n_stacks, 1));
  for (SeismoStackId s = 0; s < n_stacks && s < 4096; s++)
    {
      const SeismoFrameId *frames;
      guint n = seismo_trace_stack_frames (trace, s, &frames);

      for (guint f = 0; f < n; f++)
        {
          const SeismoFrame *frame = seismo_trace_get_frame (trace, frames[f]);
          g_autofree char *text = NULL;

          g_assert_nonnull (frame);
          text = seismo_frame_to_string (frame);
          g_assert_true (g_utf8_validate (text, -1, NULL) || TRUE);
        }
    }
  for (int w = 0; w < 2; w++)
    {
      g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (trace, NULL, 0, (SeismoStackWeight) w);

      g_string_truncate (out, 0);
      seismo_stack_tree_write_folded (tree, out);
    }
}

static void
exercise_trace (SeismoTrace *trace)
{
  gsize n_events = seismo_trace_get_n_events (trace);
  guint n_tasks = seismo_trace_get_n_tasks (trace);
  guint n_cpus = seismo_trace_get_n_cpus (trace);
  g_autoptr(GString) line = g_string_new (NULL);
  gsize step = n_events > 2000 ? n_events / 2000 : 1;

  g_assert_cmpuint (seismo_trace_get_start_ns (trace), <=, seismo_trace_get_end_ns (trace) + (n_events == 0));
  for (gsize i = 0; i < n_events; i += step)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, (SeismoEventId) i);

      g_assert_nonnull (type);
      g_assert_nonnull (seismo_trace_event_task (trace, (SeismoEventId) i));
      g_assert_cmpuint (seismo_trace_event_cpu (trace, (SeismoEventId) i), <, MAX (n_cpus, 1));
      g_string_truncate (line, 0);
      seismo_trace_event_format_into (trace, (SeismoEventId) i, line);
    }
  for (guint t = 0; t < n_tasks && t < 4096; t++)
    {
      gsize n;

      seismo_trace_get_task_events (trace, t, &n);
      seismo_trace_task_comm_at (trace, t, seismo_trace_get_end_ns (trace));
    }
  for (guint c = 0; c < n_cpus && c < 4096; c++)
    {
      gsize n;

      seismo_trace_get_cpu_events (trace, c, &n);
      seismo_trace_get_cpu_runs (trace, c, &n);
    }
  for (guint k = 0; k < seismo_trace_get_n_syscall_names (trace); k++)
    seismo_trace_get_syscall_name (trace, k);
  if (n_events > 0)
    seismo_trace_find_time (trace, seismo_trace_get_start_ns (trace) / 2 + seismo_trace_get_end_ns (trace) / 2);
  exercise_stacks (trace);
}

/* A .seismo file opened by its summary (a trace larger than memory): a clean error, or a summary
 * whose every query works. */
static void
exercise_summary (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFileSummary) summary = seismo_file_summary_open (path, &error);
  guint64 start, end;
  SeismoLodCell cells[16];
  SeismoTrace *tables;

  if (summary == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return;
    }
  tables = seismo_file_summary_get_tables (summary);
  start = seismo_file_summary_get_start_ns (summary);
  end = seismo_file_summary_get_end_ns (summary) + 1;
  g_array_unref (seismo_file_summary_stats_by_type (summary));
  g_array_unref (seismo_file_summary_stats_by_cpu (summary));
  g_array_unref (seismo_file_summary_stats_by_task (summary));
  g_array_unref (seismo_file_summary_stats_by_syscall (summary));
  g_free (seismo_file_summary_range_type_counts (summary, start, end, NULL));
  if (seismo_file_summary_has_range_syscalls (summary))
    {
      g_array_unref (seismo_file_summary_range_stats_by_syscall (summary, start, end));
      g_array_unref (seismo_file_summary_range_stats_by_syscall (summary, start / 2 + end / 2, end));
    }
  else
    g_assert_null (seismo_file_summary_range_stats_by_syscall (summary, start, end));
  for (guint c = 0; c < seismo_file_summary_get_n_cpus (summary); c++)
    seismo_file_summary_cpu_row (summary, c, start, end, G_N_ELEMENTS (cells), cells);
  for (guint t = 0; t < seismo_trace_get_n_tasks (tables); t++)
    seismo_file_summary_task_row (summary, t, start, end, G_N_ELEMENTS (cells), cells);
  {
    g_autoptr(GError) window_error = NULL;
    g_autoptr(SeismoTrace) window = seismo_file_summary_load_window (summary, start, end, 65536,
                                                                     NULL, &window_error);

    if (window != NULL)
      exercise_trace (window);
  }
}

/* Loads data with one importer: either a clean error or a usable trace. */
static void
fuzz_importer (const char   *importer_name,
               const guint8 *data,
               gsize         size)
{
  const SeismoImporter *const *importers = seismo_importers_get (NULL);
  const SeismoImporter *importer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autofree guint8 *head = NULL;
  const char *path;

  seismo_fuzz_init ();
  for (guint i = 0; importers[i]; i++)
    if (g_str_equal (importers[i]->name, importer_name))
      importer = importers[i];
  if (importer == NULL)
    return;  /* not built here (e.g. no libtraceevent) */

  path = write_scratch (data, size);
  /* The sniffer must cope with any head, too (seismo_trace_open gives it a buffer, never NULL).
   * A copy of exactly that size: a replayed file has a NUL after its end, which would hide a
   * read past the head from the sanitizers. */
  head = g_memdup2 (size > 0 ? data : (const guint8 *) "", MAX (MIN (size, 4096), 1));
  importer->sniff (head, MIN (size, 4096), path);
  trace = importer->load (path, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_assert_nonnull (error);
      g_assert_nonnull (error->message);
      /* A message ends up in a GTK label, which takes UTF-8 only. */
      if (!g_utf8_validate (error->message, -1, NULL))
        {
          g_autofree char *shown = g_strescape (error->message, NULL);

          /* abort(), not g_error(): libFuzzer saves the input on SIGABRT but not on SIGTRAP. */
          g_printerr ("%s importer: error message is not UTF-8: %s\n", importer_name, shown);
          abort ();
        }
      return;
    }
  g_assert_no_error (error);
  exercise_trace (trace);
  if (g_str_equal (importer_name, "seismo"))
    exercise_summary (path);
}

static void
fuzz_seismo_file (const guint8 *data,
                  gsize         size)
{
  fuzz_importer ("seismo", data, size);
}

static void
fuzz_trace_dat (const guint8 *data,
                gsize         size)
{
  fuzz_importer ("trace.dat", data, size);
}

static void
fuzz_ftrace_text (const guint8 *data,
                  gsize         size)
{
  fuzz_importer ("ftrace-text", data, size);
}

static void
fuzz_perfetto (const guint8 *data,
               gsize         size)
{
  fuzz_importer ("perfetto", data, size);
}

static void
fuzz_strace (const guint8 *data,
             gsize         size)
{
  fuzz_importer ("strace", data, size);
}

static void
fuzz_seismo_records (const guint8 *data,
                     gsize         size)
{
  g_autoptr(GBytes) file = seismo_fuzz_records_to_file (data, size);
  gsize len;
  const guint8 *bytes = g_bytes_get_data (file, &len);

  fuzz_importer ("seismo", bytes, len);
}

/*
 * The filter language: the input is an expression, compiled against a small trace that has every
 * field type; when it compiles it is run over the trace. Tokenizing and completion (what the
 * filter bar does on every keystroke) get the same text, as UTF-8 since that is all a text entry
 * can hold.
 */
static void
fuzz_filter (const guint8 *data,
             gsize         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoFilter) filter = NULL;
  gsize len = strlen (text);

  seismo_fuzz_init ();
  if (filter_trace == NULL)
    filter_trace = seismo_test_make_trace (600, 7);

  filter = seismo_filter_compile (filter_trace, text, &error);
  if (filter == NULL)
    {
      gsize start, end;

      g_assert_nonnull (error);
      g_assert_true (seismo_filter_error_get_range (error, &start, &end));
      g_assert_cmpuint (start, <=, end);
      g_assert_cmpuint (end, <=, len);
    }
  else
    {
      gsize n_events = seismo_trace_get_n_events (filter_trace);
      g_autofree guint64 *mask = g_new0 (guint64, seismo_filter_mask_words (n_events));
      gsize n_matched = 0;

      g_assert_no_error (error);
      g_assert_true (seismo_filter_run_range (filter, 0, n_events, 1, mask, &n_matched, NULL));
      g_assert_cmpuint (n_matched, <=, n_events);
      for (gsize i = 0; i < n_events; i += 97)
        g_assert_cmpint (seismo_filter_match (filter, i), ==, (mask[i / 64] >> (i % 64)) & 1);
    }

  if (g_utf8_validate (text, len, NULL))
    {
      g_autoptr(GArray) tokens = seismo_filter_tokenize (text);
      gsize cursors[] = { len, len / 2, 0 };

      for (guint i = 0; i < tokens->len; i++)
        {
          const SeismoFilterToken *t = &g_array_index (tokens, SeismoFilterToken, i);

          g_assert_cmpuint (t->start, <=, t->end);
          g_assert_cmpuint (t->end, <=, len);
        }
      for (guint c = 0; c < G_N_ELEMENTS (cursors); c++)
        {
          g_autoptr(GPtrArray) candidates = NULL;
          gsize cursor = cursors[c];
          gsize start = 0, end = 0;

          /* A cursor sits between characters. */
          while (cursor > 0 && (text[cursor] & 0xc0) == 0x80)
            cursor--;
          candidates = seismo_filter_complete (filter_trace, text, cursor, &start, &end);
          g_assert_cmpuint (start, <=, end);
          g_assert_cmpuint (end, <=, len);
        }
    }
}

/* Lesson files (key files): parsed, copied, and every step resolved against the filter trace. */
static void
fuzz_lesson (const guint8 *data,
             gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoLesson) lesson = NULL;
  g_autoptr(SeismoLesson) copy = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  const char *path;

  seismo_fuzz_init ();
  if (filter_trace == NULL)
    filter_trace = seismo_test_make_trace (600, 7);
  path = write_scratch (data, size);
  lesson = seismo_lesson_new_from_file (path, &error);
  /* `seismo-cli lesson check` reads the same bytes line by line: its messages are text, and a
   * lesson it passes is one the app loads. */
  problems = seismo_lesson_check (path, NULL);
  for (guint i = 0; i < problems->len; i++)
    if (!g_utf8_validate (problems->pdata[i], -1, NULL))
      {
        g_printerr ("lesson check: a problem is not UTF-8\n");
        abort ();
      }
  if (problems->len == 0 && lesson == NULL)
    {
      g_printerr ("lesson check passed a lesson the app refuses: %s\n", error->message);
      abort ();
    }
  if (lesson == NULL)
    {
      g_assert_nonnull (error);
      if (!g_utf8_validate (error->message, -1, NULL))
        {
          g_autofree char *shown = g_strescape (error->message, NULL);

          g_printerr ("lesson: error message is not UTF-8: %s\n", shown);
          abort ();
        }
      return;
    }
  copy = seismo_lesson_copy (lesson);
  g_assert_cmpuint (copy->n_steps, ==, lesson->n_steps);
  for (guint i = 0; i < lesson->n_steps; i++)
    {
      g_autoptr(GError) step_error = NULL;
      SeismoLessonTargets targets;

      g_assert_nonnull (lesson->steps[i].text);
      if (!seismo_lesson_step_resolve (lesson, i, filter_trace, &targets, &step_error))
        g_assert_nonnull (step_error);
    }
}

/* Text a session hands to a GTK label or entry must be UTF-8 (GTK refuses anything else). */
static void
check_utf8 (const char *what,
            const char *text)
{
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    {
      g_autofree char *shown = g_strescape (text, NULL);

      g_printerr ("session: %s is not UTF-8: %s\n", what, shown);
      abort ();
    }
}

/*
 * Session files (FILE.seismo-session, and a bundle's metadata): either a clean error, or a
 * session whose text is all UTF-8, whose spans are ordered, and that saves to text that loads
 * back the same (pretty and one-line forms).
 */
static void
fuzz_session (const guint8 *data,
              gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoSession) session = NULL;
  const char *forms[2] = { NULL, NULL };
  g_autofree char *pretty = NULL;
  g_autofree char *line = NULL;
  gsize len;

  seismo_fuzz_init ();
  session = seismo_session_load_from_data ((const char *) data, size, &error);
  if (session == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == SEISMO_SESSION_ERROR);
      check_utf8 ("the error message", error->message);
      return;
    }
  g_assert_no_error (error);
  check_utf8 ("trace.name", session->trace_name);
  check_utf8 ("filter", session->filter);
  for (guint i = 0; i < session->panes->len; i++)
    check_utf8 ("a pane", g_ptr_array_index (session->panes, i));
  for (guint i = 0; i < session->notes->len; i++)
    {
      const SeismoSessionNote *note = &g_array_index (session->notes, SeismoSessionNote, i);

      check_utf8 ("a note", note->text);
      if (i > 0)
        g_assert_cmpuint (g_array_index (session->notes, SeismoSessionNote, i - 1).time_ns, <=,
                          note->time_ns);
    }
  if (session->has_view)
    g_assert_cmpuint (session->view_start_ns, <=, session->view_end_ns);
  if (session->has_range)
    g_assert_cmpuint (session->range_start_ns, <=, session->range_end_ns);
  g_assert_cmpint (session->selected_event, >=, -1);

  pretty = seismo_session_to_data (session, &len);
  g_assert_cmpuint (strlen (pretty), ==, len);
  line = seismo_session_to_line (session);
  forms[0] = pretty;
  forms[1] = line;
  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      g_autoptr(GError) again_error = NULL;
      g_autoptr(SeismoSession) again = seismo_session_load_from_data (forms[f], strlen (forms[f]),
                                                                      &again_error);

      g_assert_no_error (again_error);
      g_assert_nonnull (again);
      seismo_test_assert_sessions_equal (session, again);
    }
}

/*
 * Compressed inputs (gzip, zstd, xz, bzip2, by magic) through seismo_trace_open, the way every
 * command opens a file: decompressed to a spool file, then sniffed and loaded by any importer.
 */
static void
fuzz_compressed (const guint8 *data,
                 gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  const char *path;

  seismo_fuzz_init ();
  path = write_scratch (data, size);
  trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_assert_nonnull (error);
      if (!g_utf8_validate (error->message, -1, NULL))
        {
          g_printerr ("compressed input: error message is not UTF-8\n");
          abort ();
        }
      return;
    }
  g_assert_no_error (error);
  exercise_trace (trace);
}

/*
 * A file a recorded process had mapped, as the symbolizer and the build-id reader see it (with
 * --stacks, whatever the user ran is read by root at the end of a recording): build-id note,
 * program headers, symbol table and DWARF through libelf/libdw, for a few addresses.
 */
static void
fuzz_elf_symbols (const guint8 *data,
                  gsize         size)
{
  g_autoptr(SeismoSymbolizer) symbolizer = seismo_symbolizer_new ();
  guint8 build_id[64];
  guint build_id_len = 0;
  SeismoMapping mapping = { 4242, 0x10000, 0x10000 + MAX (size, 1), 0, NULL, NULL, 0, 0 };
  SeismoFrame out[SEISMO_MAX_INLINE_FRAMES];
  int fd;

  seismo_fuzz_init ();
  mapping.path = write_scratch (data, size);
  fd = open (mapping.path, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  if (seismo_elf_read_build_id (fd, build_id, &build_id_len))
    g_assert_true (build_id_len > 0 && build_id_len <= sizeof build_id);
  close (fd);
  for (guint i = 0; i < 16; i++)
    {
      SeismoFrame frame = { 0 };
      guint n;

      frame.address = mapping.start + (guint64) i * MAX (size / 16, 1);
      frame.pid = 4242;
      frame.space = SEISMO_FRAME_USER;
      n = seismo_symbolizer_resolve (&frame, &mapping, out, G_N_ELEMENTS (out), symbolizer);
      g_assert_cmpuint (n, <=, G_N_ELEMENTS (out));
    }
}

static const SeismoFuzzTarget targets[] = {
  { "seismo-file", fuzz_seismo_file, TRUE },
  { "seismo-records", fuzz_seismo_records, TRUE },
  { "trace-dat", fuzz_trace_dat, TRUE },
  { "ftrace-text", fuzz_ftrace_text, FALSE },
  { "strace", fuzz_strace, FALSE },
  { "perfetto", fuzz_perfetto, TRUE },
  { "filter", fuzz_filter, FALSE },
  { "lesson", fuzz_lesson, FALSE },
  { "session", fuzz_session, TRUE },    /* text, but truncated and corrupted like a file (issue 9) */
  { "compressed", fuzz_compressed, TRUE },
  { "elf-symbols", fuzz_elf_symbols, TRUE },
  { NULL, NULL, FALSE },
};

const SeismoFuzzTarget *
seismo_fuzz_targets (void)
{
  return targets;
}

const SeismoFuzzTarget *
seismo_fuzz_lookup (const char *name)
{
  for (guint i = 0; targets[i].name; i++)
    if (g_str_equal (targets[i].name, name))
      return &targets[i];
  return NULL;
}

/*
 * The seismo-records input: records as (u8 kind, u8 flags, u16 info_len, u32 data_len, info,
 * data), little-endian, the last one cut short where the input ends. Flag 1 compresses the data
 * with zstd as a writer would; flag 2 ends the file there with an index of the records so far (the
 * record's info becomes the index info) and a trailer. The header, lengths and checksums are made
 * right, so the fuzzer spends its time on what the reader does with checksummed content rather
 * than on checksum mismatches.
 */
#define FUZZ_RECORD_COMPRESS 0x1
#define FUZZ_RECORD_INDEX    0x2

static guint32
read_le (const guint8 *p,
         guint         n)
{
  guint32 v = 0;

  for (guint i = 0; i < n; i++)
    v |= (guint32) p[i] << (8 * i);
  return v;
}

static void
append_record (GByteArray   *file,
               GArray       *entries,
               guint16       kind,
               gboolean      compress,
               const guint8 *info,
               gsize         info_len,
               const guint8 *data,
               gsize         data_len)
{
  SeismoRecordHeader h = { .tag = { 'S', 'R', 'E', 'C' } };
  SeismoIndexEntry e = { 0 };
  g_autofree guint8 *packed = NULL;
  const guint8 *stored = data;
  gsize stored_len = data_len;
  guint32 crc;

  if (compress)
    {
      gsize bound = ZSTD_compressBound (data_len);

      packed = g_malloc (bound);
      stored_len = ZSTD_compress (packed, bound, data, data_len, 1);
      g_assert_false (ZSTD_isError (stored_len));
      stored = packed;
    }

  crc = _seismo_crc32c (0, info, info_len);
  crc = _seismo_crc32c (crc, stored, stored_len);
  h.kind = kind;
  h.flags = compress ? SEISMO_RECORD_FLAG_ZSTD : 0;
  h.info_len = (guint32) info_len;
  h.data_len = stored_len;
  h.raw_len = data_len;
  h.crc = crc;
  _seismo_record_header_swap (&h);
  h.header_crc = GUINT32_TO_LE (_seismo_crc32c (0, &h, 36));

  e.offset = file->len;
  e.size = sizeof h + info_len + stored_len;
  e.kind = kind;
  if (kind == SEISMO_RECORD_CHUNK && info_len >= sizeof (SeismoChunkInfo))
    {
      SeismoChunkInfo c;

      memcpy (&c, info, sizeof c);
      _seismo_chunk_info_swap (&c);
      e.n_events = c.n_events;
      e.first_event = c.first_event;
      e.min_ts = c.min_ts;
      e.max_ts = c.max_ts;
    }
  if (entries)
    g_array_append_val (entries, e);

  g_byte_array_append (file, (const guint8 *) &h, sizeof h);
  g_byte_array_append (file, info, info_len);
  g_byte_array_append (file, stored, stored_len);
}

GBytes *
seismo_fuzz_records_to_file (const guint8 *data,
                             gsize         size)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (SeismoIndexEntry));
  SeismoFileHeader fh = { .magic = { 0 } };
  gsize pos = 0;

  memcpy (fh.magic, SEISMO_FILE_MAGIC, SEISMO_FILE_MAGIC_LEN);
  fh.version_major = SEISMO_FILE_VERSION_MAJOR;
  fh.version_minor = SEISMO_FILE_VERSION_MINOR;
  fh.header_size = sizeof fh;
  fh.chunk_events = 65536;
  _seismo_file_header_swap (&fh);
  fh.crc = GUINT32_TO_LE (_seismo_crc32c (0, &fh, 28));
  g_byte_array_append (file, (const guint8 *) &fh, sizeof fh);

  while (pos + 8 <= size)
    {
      guint16 kind = data[pos];
      guint8 flags = data[pos + 1];
      gsize info_len = read_le (data + pos + 2, 2);
      gsize data_len = read_le (data + pos + 4, 4);
      const guint8 *info;

      pos += 8;
      info_len = MIN (info_len, size - pos);
      info = data + pos;
      pos += info_len;
      data_len = MIN (data_len, size - pos);

      if (flags & FUZZ_RECORD_INDEX)
        {
          SeismoIndexInfo ii = { 0 };
          SeismoFileTrailer t = { 0 };
          gsize index_offset = file->len;
          g_autoptr(GByteArray) index_data = g_byte_array_new ();

          memcpy (&ii, info, MIN (info_len, sizeof ii));
          _seismo_index_info_swap (&ii);
          ii.n_entries = entries->len;
          _seismo_index_info_swap (&ii);
          for (guint i = 0; i < entries->len; i++)
            {
              SeismoIndexEntry e = g_array_index (entries, SeismoIndexEntry, i);

              _seismo_index_entry_swap (&e);
              g_byte_array_append (index_data, (const guint8 *) &e, sizeof e);
            }
          append_record (file, NULL, SEISMO_RECORD_INDEX, FALSE, (const guint8 *) &ii, sizeof ii,
                         index_data->data, index_data->len);
          t.index_offset = index_offset;
          t.file_size = file->len + sizeof t;
          memcpy (t.magic, SEISMO_FILE_TRAILER_MAGIC, SEISMO_FILE_MAGIC_LEN);
          _seismo_trailer_swap (&t);
          t.crc = GUINT32_TO_LE (_seismo_crc32c (0, &t, 28));
          g_byte_array_append (file, (const guint8 *) &t, sizeof t);
          break;
        }

      append_record (file, entries, kind, (flags & FUZZ_RECORD_COMPRESS) != 0, info, info_len,
                     data + pos, data_len);
      pos += data_len;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&file));
}

static void
append_stream_record (GByteArray   *out,
                      guint8        kind,
                      guint8        flags,
                      const guint8 *info,
                      gsize         info_len,
                      const guint8 *data,
                      gsize         data_len)
{
  guint8 head[8] = { kind, flags, info_len & 0xff, (info_len >> 8) & 0xff,
                     data_len & 0xff, (data_len >> 8) & 0xff, (data_len >> 16) & 0xff,
                     (data_len >> 24) & 0xff };

  g_byte_array_append (out, head, sizeof head);
  g_byte_array_append (out, info, info_len);
  g_byte_array_append (out, data, data_len);
}

GBytes *
seismo_fuzz_file_to_records (const guint8 *data,
                             gsize         size)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize pos = sizeof (SeismoFileHeader);

  if (size < pos || memcmp (data, SEISMO_FILE_MAGIC, SEISMO_FILE_MAGIC_LEN) != 0)
    return NULL;

  while (pos + sizeof (SeismoRecordHeader) <= size)
    {
      SeismoRecordHeader h;
      const guint8 *info, *stored;
      g_autofree guint8 *raw = NULL;

      memcpy (&h, data + pos, sizeof h);
      _seismo_record_header_swap (&h);
      if (memcmp (h.tag, SEISMO_RECORD_TAG, 4) != 0 || h.info_len > 0xffff ||
          h.data_len > size - pos - sizeof h - h.info_len || h.raw_len > G_MAXUINT32)
        break;
      info = data + pos + sizeof h;
      stored = info + h.info_len;
      if (h.kind == SEISMO_RECORD_INDEX)
        {
          append_stream_record (out, h.kind, FUZZ_RECORD_INDEX, info, h.info_len, NULL, 0);
          break;
        }
      if (h.flags & SEISMO_RECORD_FLAG_ZSTD)
        {
          raw = g_malloc (MAX (h.raw_len, 1));
          if (ZSTD_decompress (raw, h.raw_len, stored, h.data_len) != h.raw_len)
            break;
          append_stream_record (out, h.kind, FUZZ_RECORD_COMPRESS, info, h.info_len, raw, h.raw_len);
        }
      else
        append_stream_record (out, h.kind, 0, info, h.info_len, stored, h.data_len);
      pos += sizeof h + h.info_len + h.data_len;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test-strace"

/*
 * The strace importer against strace itself: strace records seismo-ptrace-child in each output
 * style, and the imported trace's per-syscall call and error counts must equal what strace -c
 * counts for the same program. Then the same run recorded live must decode to the same fields,
 * and damaged input must give clear errors or counted skipped lines.
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "seismo-backend.h"
#include "seismo-recorder.h"
#include "seismo-error.h"
#include "seismo-importer.h"
#include "seismo-skipped.h"
#include "seismo-stats.h"
#include "seismo-timing.h"
#include "seismo-test-util.h"

#define SEQ_MISSING_PATH  "/nonexistent/seismo-ptrace-test"

static char *strace_path;

static gboolean
have_strace (void)
{
  if (strace_path == NULL)
    {
      g_test_skip ("strace is not installed");
      return FALSE;
    }
  return TRUE;
}

/* Runs strace with args before the child's; its own output goes to out. */
static void
run_strace (const char *const *args,
            const char        *mode)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status;

  g_ptr_array_add (argv, strace_path);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) SEISMO_PTRACE_CHILD);
  g_ptr_array_add (argv, (gpointer) mode);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
}

typedef struct {
  guint64 calls;
  guint64 errors;
} Count;

/*
 * strace -c -U name,calls,errors: one row per syscall between the dashes and the total. In text
 * that also holds the trace (strace -C), the table starts at its header.
 */
static GHashTable *
parse_summary (const char *text)
{
  g_auto(GStrv) lines = NULL;
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *table = strstr (text, "\nsyscall ");

  lines = g_strsplit (table ? table : text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) cols = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr(GPtrArray) words = g_ptr_array_new ();
      Count *c;

      for (guint k = 0; cols[k]; k++)
        if (*cols[k])
          g_ptr_array_add (words, cols[k]);
      if (words->len < 2 || !g_ascii_isdigit (*(char *) g_ptr_array_index (words, 1))
          || g_str_equal (g_ptr_array_index (words, 0), "total"))
        continue;
      c = g_new0 (Count, 1);
      c->calls = g_ascii_strtoull (g_ptr_array_index (words, 1), NULL, 10);
      c->errors = words->len > 2 ? g_ascii_strtoull (g_ptr_array_index (words, 2), NULL, 10) : 0;
      g_hash_table_insert (counts, g_strdup (g_ptr_array_index (words, 0)), c);
    }
  g_assert_cmpuint (g_hash_table_size (counts), >, 10);
  return counts;
}

static GHashTable *
strace_summary (const char *mode)
{
  g_autofree char *path = seismo_test_temp_path ("summary.txt");
  const char *args[] = { "-c", "-f", "-U", "name,calls,errors", "-o", path, NULL };
  g_autofree char *text = NULL;

  run_strace (args, mode);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return parse_summary (text);
}

/* Our seismo-cli stats --by syscall must equal strace -c, name by name. */
static void
assert_same_counts (SeismoTrace *trace,
                    GHashTable  *expected)
{
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  guint ours = 0;
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < stats->len; i++)
    {
      const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
      Count *c;

      if (st->calls == 0)
        continue;
      ours++;
      c = g_hash_table_lookup (expected, st->name);
      if (c == NULL)
        g_error ("%s: %" G_GUINT64_FORMAT " calls here, none in strace -c", st->name, st->calls);
      if (c->calls != st->calls || c->errors != st->errors)
        g_error ("%s: %" G_GUINT64_FORMAT " calls, %" G_GUINT64_FORMAT " errors here; strace -c: "
                 "%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT, st->name, st->calls, st->errors,
                 c->calls, c->errors);
    }
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gboolean found = FALSE;

      for (guint i = 0; i < stats->len; i++)
        found |= g_str_equal (g_array_index (stats, SeismoSyscallStats, i).name, key)
                 && g_array_index (stats, SeismoSyscallStats, i).calls > 0;
      if (!found)
        g_error ("%s: in strace -c, not in the import", (const char *) key);
    }
  g_assert_cmpuint (ours, ==, g_hash_table_size (expected));
}

static SeismoTrace *
open_trace (const char *path)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace = seismo_trace_open (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, "format"), ==, "strace");
  return trace;
}

static guint64
skipped_lines (SeismoTrace *trace)
{
  return seismo_trace_get_n_skipped (trace);
}

/* Every output style strace has, against strace -c of the same program. */
static void
test_counts_match_strace (void)
{
  static const char *const styles[][5] = {
    { "-ttt", "-T", NULL },
    { "-tt", "-T", NULL },
    { "-ttt", "-T", "-i", "-n", NULL },
    { "-t", NULL },
    { "-r", NULL },
    { NULL },
  };
  g_autoptr(GHashTable) expected = NULL;

  if (!have_strace ())
    return;
  expected = strace_summary ("sequence");
  for (guint s = 0; s < G_N_ELEMENTS (styles); s++)
    {
      g_autofree char *path = seismo_test_temp_path ("style.strace");
      g_autoptr(GPtrArray) args = g_ptr_array_new ();
      g_autoptr(SeismoTrace) trace = NULL;

      g_ptr_array_add (args, (gpointer) "-f");
      for (guint k = 0; styles[s][k]; k++)
        g_ptr_array_add (args, (gpointer) styles[s][k]);
      g_ptr_array_add (args, (gpointer) "-o");
      g_ptr_array_add (args, path);
      g_ptr_array_add (args, NULL);
      run_strace ((const char *const *) args->pdata, "sequence");
      trace = open_trace (path);
      g_test_message ("style %s", styles[s][0] ? styles[s][0] : "(no time)");
      g_assert_cmpuint (skipped_lines (trace), ==, 0);
      assert_same_counts (trace, expected);
    }
}

/*
 * One strace run, -C: the trace and strace's own count of the same calls in one file. What
 * `seismo-cli stats --by syscall --json` says of that file must be that count, call for call
 * and error for error; the table itself is read as strace's, not as skipped lines.
 */
static void
test_cli_stats_match_one_run (void)
{
  g_autofree char *path = seismo_test_temp_path ("summary-and-trace.strace");
  const char *args[] = { "-C", "-f", "-ttt", "-T", "-U", "name,calls,errors", "-o", path, NULL };
  const char *cli = g_getenv ("SEISMO_CLI");
  g_autoptr(GHashTable) expected = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  JsonArray *rows;
  guint ours = 0;
  int status;

  if (!have_strace ())
    return;
  if (cli == NULL)
    {
      g_test_skip ("SEISMO_CLI is not set (run under meson test)");
      return;
    }
  run_strace (args, "sequence");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  expected = parse_summary (text);

  trace = open_trace (path);
  g_assert_cmpuint (skipped_lines (trace), ==, 0);
  g_assert_nonnull (seismo_trace_get_metadata (trace, "strace_summary_lines"));
  assert_same_counts (trace, expected);

  {
    const char *argv[] = { cli, "stats", path, "--by", "syscall", "--json", NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, &error));
    g_assert_no_error (error);
  }
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  rows = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                       "syscalls");
  g_assert_nonnull (rows);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      const char *name = json_object_get_string_member (row, "name");
      gint64 calls = json_object_get_int_member (row, "calls");
      gint64 errors = json_object_get_int_member (row, "errors");
      Count *c = g_hash_table_lookup (expected, name);

      if (calls == 0)
        continue;
      ours++;
      if (c == NULL)
        g_error ("seismo-cli stats: %s: %" G_GINT64_FORMAT " calls, none in strace -C", name,
                 calls);
      if ((gint64) c->calls != calls || (gint64) c->errors != errors)
        g_error ("seismo-cli stats: %s: %" G_GINT64_FORMAT " calls, %" G_GINT64_FORMAT
                 " errors; strace -C: %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT, name, calls,
                 errors, c->calls, c->errors);
    }
  g_assert_cmpuint (ours, ==, g_hash_table_size (expected));
}

/* -ff: one file per process; open the folder, or any one file and its siblings. */
static void
test_per_process_files (void)
{
  g_autofree char *path = seismo_test_temp_path ("ff/trace");
  g_autofree char *dir = g_path_get_dirname (path);
  const char *args[] = { "-ff", "-ttt", "-T", "-o", path, NULL };
  g_autoptr(GHashTable) expected = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autofree char *one = NULL;
  const char *name;
  guint n_files = 0;

  if (!have_strace ())
    return;
  expected = strace_summary ("sequence");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  run_strace (args, "sequence");
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)))
    {
      n_files++;
      if (one == NULL)
        one = g_build_filename (dir, name, NULL);
    }
  /* The program and its child. */
  g_assert_cmpuint (n_files, ==, 2);
  {
    g_autoptr(SeismoTrace) from_dir = open_trace (dir);
    g_autoptr(SeismoTrace) from_file = open_trace (one);

    assert_same_counts (from_dir, expected);
    assert_same_counts (from_file, expected);
    g_assert_cmpstr (seismo_trace_get_metadata (from_file, "strace_files"), ==, "2");
  }
}

/* The events of one type, as text, in time order. */
static GPtrArray *
events_as_text (SeismoTrace *trace,
                const char  *full_name,
                const char  *field)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gsize n = seismo_trace_get_n_events (trace);

  for (SeismoEventId e = 0; e < n; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, e);
      SeismoValue v;
      GString *s;

      if (!g_str_equal (type->full_name, full_name))
        continue;
      g_assert_true (seismo_trace_event_field_by_name (trace, e, field, &v));
      s = g_string_new (NULL);
      seismo_trace_format_value (trace, &type->fields[seismo_event_type_find_field (type, field)],
                                 &v, s);
      g_ptr_array_add (out, g_string_free (s, FALSE));
    }
  return out;
}

static void
assert_same_field (SeismoTrace *live,
                   SeismoTrace *imported,
                   const char  *full_name,
                   const char  *field)
{
  g_autoptr(GPtrArray) a = events_as_text (live, full_name, field);
  g_autoptr(GPtrArray) b = events_as_text (imported, full_name, field);

  g_test_message ("%s %s: %u live, %u imported", full_name, field, a->len, b->len);
  g_assert_cmpuint (a->len, ==, b->len);
  g_assert_cmpuint (a->len, >, 0);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a, i), ==, g_ptr_array_index (b, i));
}

/*
 * The same program recorded live and by strace decodes to the same fields and values, and the
 * live recording counts as strace -c does.
 */
static void
test_live_and_import_agree (void)
{
  const SeismoBackend *backend = seismo_backend_lookup ("ptrace");
  g_autofree char *path = seismo_test_temp_path ("agree.strace");
  const char *args[] = { "-f", "-ttt", "-T", "-o", path, NULL };
  char *argv[] = { (char *) SEISMO_PTRACE_CHILD, (char *) "sequence", NULL };
  SeismoRecordOptions options = { .argv = argv, .kill_on_stop = TRUE };
  SeismoRecordControl ctl = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) live = NULL;
  g_autoptr(SeismoTrace) imported = NULL;
  SeismoTraceBuilder *builder;
  g_autofree char *why = NULL;
  static const char *const compare[][2] = {
    { "syscalls:sys_enter_openat", "dfd" },
    { "syscalls:sys_enter_openat", "filename" },
    { "syscalls:sys_enter_openat", "flags" },
    { "syscalls:sys_exit_openat", "ret" },
    { "syscalls:sys_enter_write", "fd" },
    { "syscalls:sys_enter_write", "buf" },
    { "syscalls:sys_enter_write", "count" },
    { "syscalls:sys_exit_write", "ret" },
    { "syscalls:sys_enter_read", "buf" },
    { "syscalls:sys_enter_mmap", "prot" },
    { "syscalls:sys_enter_mmap", "flags" },
    { "syscalls:sys_enter_mmap", "fd" },
    { "syscalls:sys_enter_mmap", "len" },
    { "syscalls:sys_enter_kill", "sig" },
    { "syscalls:sys_enter_rt_sigaction", "sig" },
    { "syscalls:sys_enter_execve", "filename" },
    { "syscalls:sys_enter_execve", "argv" },
    { "syscalls:sys_enter_access", "mode" },
    { "syscalls:sys_enter_newfstatat", "flag" },
    { "syscalls:sys_enter_arch_prctl", "option" },
    { "syscalls:sys_enter_prlimit64", "resource" },
    { "sched:sched_process_exec", "filename" },
    { "sched:sched_process_exec", "argv" },
    { "sched:sched_process_exit", "exit_code" },
    { "sched:sched_process_exit", "exit_signal" },
    { "signal:signal_deliver", "sig" },
    { "signal:signal_deliver", "code" },
  };

  if (!have_strace ())
    return;
  if (backend == NULL || !backend->available (&why))
    {
      g_test_skip (why ? why : "no ptrace backend");
      return;
    }
  run_strace (args, "sequence");
  imported = open_trace (path);
  builder = seismo_trace_builder_new ();
  g_assert_true (seismo_recorder_record (backend, &options, builder, &ctl, &error));
  g_assert_no_error (error);
  live = seismo_trace_builder_finish (builder);

  for (guint i = 0; i < G_N_ELEMENTS (compare); i++)
    assert_same_field (live, imported, compare[i][0], compare[i][1]);

  /* Counted like strace -c counts, too. */
  {
    g_autoptr(GHashTable) expected = strace_summary ("sequence");

    assert_same_counts (live, expected);
  }

  /* Same schema: every syscall type both have lists the same fields. */
  for (guint t = 0; t < seismo_trace_get_n_event_types (live); t++)
    {
      const SeismoEventType *a = seismo_trace_get_event_type (live, t);
      const SeismoEventType *b = seismo_trace_find_event_type (imported, a->full_name);

      if (b == NULL)
        continue;
      g_assert_cmpuint (a->n_fields, ==, b->n_fields);
      for (guint f = 0; f < a->n_fields; f++)
        {
          g_assert_cmpstr (a->fields[f].name, ==, b->fields[f].name);
          g_assert_cmpint (a->fields[f].type, ==, b->fields[f].type);
          g_assert_cmpint (a->fields[f].display, ==, b->fields[f].display);
        }
    }
}

static char *
write_temp (const char *name,
            const char *contents,
            gssize      len)
{
  char *path = seismo_test_temp_path (name);

  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  return path;
}

/* Program output between strace's lines, and a last line cut short. */
static void
test_garbage_and_truncation (void)
{
  g_autofree char *path = seismo_test_temp_path ("clean.strace");
  const char *args[] = { "-f", "-ttt", "-T", "-o", path, NULL };
  g_autoptr(GHashTable) expected = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) dirty = g_string_new (NULL);
  g_autofree char *dirty_path = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  guint inserted = 0, cut = 0;
  static const char *const junk[] = {
    "hello from the program",
    "\001\002\003 binary \377 junk",
    "12345 1795938553.850344 not_a_call",
    "12345 1795938553.850344 openat(AT_FDCWD, \"/etc/pass",
    "<... nosuchcall resumed",
  };

  if (!have_strace ())
    return;
  expected = strace_summary ("sequence");
  run_strace (args, "sequence");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    {
      g_string_append_printf (dirty, "%s\n", lines[i]);
      if (i % 9 == 4)
        {
          /* A call cut short is still a call: recorded unfinished, not skipped. */
          cut += inserted % G_N_ELEMENTS (junk) == 3;
          g_string_append_printf (dirty, "%s\n", junk[inserted++ % G_N_ELEMENTS (junk)]);
        }
    }
  /* The file ends in the middle of a line, as when strace is still writing it. */
  g_string_append (dirty, "12345 1795938553.999999 write(1, \"partial");
  inserted++;
  cut++;
  dirty_path = write_temp ("dirty.strace", dirty->str, (gssize) dirty->len);

  trace = open_trace (dirty_path);
  g_assert_cmpuint (cut, >, 1);
  g_assert_cmpuint (skipped_lines (trace), ==, inserted - cut);
  {
    g_autoptr(GArray) kinds = seismo_trace_get_skipped (trace);

    g_assert_cmpuint (kinds->len, ==, 1);
    g_assert_cmpstr (g_array_index (kinds, SeismoSkipped, 0).kind, ==, "unreadable strace lines");
    g_assert_true (g_str_has_prefix (g_array_index (kinds, SeismoSkipped, 0).example,
                                     "dirty.strace line "));
  }
  assert_same_counts (trace, expected);
  /* The cut calls are there, unfinished. */
  {
    g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
    guint64 unfinished = 0;

    for (guint i = 0; i < stats->len; i++)
      {
        const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);

        if (g_str_equal (st->name, "openat") || g_str_equal (st->name, "write"))
          unfinished += st->unfinished;
      }
    g_assert_cmpuint (unfinished, >=, cut);
  }
}

static void
test_bad_files (void)
{
  const SeismoImporter *const *importers = seismo_importers_get (NULL);
  const SeismoImporter *strace = NULL;
  g_autofree char *not_strace = write_temp ("notes.txt",
                                            "Dear diary,\ntoday I traced a process.\n"
                                            "It went well (mostly) = fine\n", -1);
  g_autofree char *binary = write_temp ("blob.bin", "\177ELF\002\001\001\000\000\000", 10);
  g_autofree char *empty = write_temp ("empty.strace", "", 0);
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace;

  for (guint i = 0; importers[i]; i++)
    if (g_str_equal (importers[i]->name, "strace"))
      strace = importers[i];
  g_assert_nonnull (strace);

  /* Not recognised as strace's... */
  g_assert_cmpint (strace->sniff ((const guint8 *) "Dear diary,\ntoday\n", 18, not_strace), ==, 0);
  trace = seismo_trace_open (binary, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);

  /* ...and when read as strace's anyway, a clear error naming the file and line. */
  trace = strace->load (not_strace, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, not_strace));
  g_assert_nonnull (strstr (error->message, "line 1"));
  g_clear_error (&error);

  trace = strace->load (empty, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "empty"));
  g_clear_error (&error);

  trace = strace->load ("/nonexistent/trace.strace", NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent/trace.strace"));
}

/*
 * A recorded log (tests/data/strace-sh.strace: strace -f -tt -T of a shell running a
 * background job and killing itself) with interleaved processes: unfinished calls resumed after
 * other processes' lines, signals, and a death by SIGKILL.
 */
static void
test_stored_sample (void)
{
  g_autofree char *path = g_build_filename (SEISMO_TEST_DATA, "strace-sh.strace", NULL);
  g_autoptr(SeismoTrace) trace = open_trace (path);
  gsize n_spans, unfinished = 0, n_resumed = 0;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_unfinished_lines = 0, n_calls = 0, n_killed = 0, n_signals = 0;
  gsize n = seismo_trace_get_n_events (trace);

  g_assert_cmpuint (skipped_lines (trace), ==, 0);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_CLOCK), ==, "local");

  /* What the file says, line by line... */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (g_str_has_suffix (lines[i], "<unfinished ...>"))
        n_unfinished_lines++;
      else if (strstr (lines[i], " resumed>"))
        n_resumed++;
      else if (strchr (lines[i], '(') && strstr (lines[i], ") ") && !strstr (lines[i], "--- "))
        n_calls++;
      if (strstr (lines[i], "+++ killed by SIGKILL +++"))
        n_killed++;
      if (strstr (lines[i], "--- SIG"))
        n_signals++;
    }
  g_assert_cmpuint (n_unfinished_lines, >, 0);
  g_assert_cmpuint (n_resumed, ==, n_unfinished_lines);

  /* ...is what the trace holds: one span per call, unfinished ones paired with their end. */
  g_assert_cmpuint (n_spans, ==, n_calls + n_unfinished_lines);
  for (gsize i = 0; i < n_spans; i++)
    if (spans[i].exit == SEISMO_NO_EVENT)
      {
        const char *name = seismo_trace_get_syscall_name (trace, spans[i].syscall);

        /* Only calls that never return stay open. */
        g_assert_true (g_str_equal (name, "exit_group") || g_str_equal (name, "wait4")
                       || g_str_equal (name, "kill"));
        unfinished++;
      }
  g_assert_cmpuint (unfinished, <=, 3);
  {
    guint killed = 0, signals = 0;

    for (SeismoEventId e = 0; e < n; e++)
      {
        const SeismoEventType *type = seismo_trace_event_type (trace, e);
        SeismoValue v;

        if (g_str_equal (type->full_name, "sched:sched_process_exit"))
          {
            g_assert_true (seismo_trace_event_field_by_name (trace, e, "exit_signal", &v));
            killed += v.i == SIGKILL;
          }
        if (g_str_equal (type->full_name, "signal:signal_deliver"))
          signals++;
      }
    g_assert_cmpuint (killed, ==, n_killed);
    g_assert_cmpuint (signals, ==, n_signals);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  seismo_backends_init ();
  strace_path = g_find_program_in_path ("strace");

  g_test_add_func ("/strace/counts-match-strace", test_counts_match_strace);
  g_test_add_func ("/strace/cli-stats-match-one-run", test_cli_stats_match_one_run);
  g_test_add_func ("/strace/per-process-files", test_per_process_files);
  g_test_add_func ("/strace/live-and-import-agree", test_live_and_import_agree);
  g_test_add_func ("/strace/garbage-and-truncation", test_garbage_and_truncation);
  g_test_add_func ("/strace/bad-files", test_bad_files);
  g_test_add_func ("/strace/stored-sample", test_stored_sample);
  return g_test_run ();
}

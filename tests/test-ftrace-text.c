/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-ftrace-text.h"
#include "seismo-importer.h"
#include "seismo-test-util.h"
#include "seismo-varint.h"

/*
 * The samples in tests/data were recorded on a test machine (tests/data/ftrace-text-samples.sh):
 * trace-cmd report of one trace.dat in four layouts, and one tracefs instance's `trace` in four
 * layouts. Each import is checked against another layout of the same events: trace-cmd's raw
 * field dump (-R) is the reference for field values, and event counts come from a plain word split.
 */

/* ---- helpers -------------------------------------------------------------------------------- */

/* Decompresses tests/data/NAME.gz into the temporary folder; returns the path. Caller frees. */
static char *
unpack (const char *name)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autofree char *out_name = g_strndup (name, strlen (name) - 3);
  char *out = seismo_test_temp_path (out_name);
  g_autoptr(GFile) in_file = g_file_new_for_path (src);
  g_autoptr(GFile) out_file = g_file_new_for_path (out);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) raw = NULL;
  g_autoptr(GZlibDecompressor) dec = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GFileOutputStream) os = NULL;

  if (g_file_test (out, G_FILE_TEST_EXISTS))
    return out;
  raw = g_file_read (in_file, NULL, &error);
  g_assert_no_error (error);
  dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  in = g_converter_input_stream_new (G_INPUT_STREAM (raw), G_CONVERTER (dec));
  os = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_splice (G_OUTPUT_STREAM (os), in,
                          G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
                          G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return out;
}

static char *
write_temp (const char *name,
            const char *contents,
            gssize      len)
{
  char *path = seismo_test_temp_path (name);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  return path;
}

static SeismoTrace *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace = seismo_ftrace_text_importer.load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static SeismoTrace *
load_text (const char *name,
           const char *text)
{
  g_autofree char *path = write_temp (name, text, -1);

  return load (path);
}

static int
sniff_file (const char *path)
{
  g_autofree char *text = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  return seismo_ftrace_text_importer.sniff ((const guint8 *) text, MIN (len, 4096), path);
}

static guint
field_array (SeismoTrace   *trace,
             SeismoEventId  event,
             const char    *name,
             guint64       *out,
             guint          max)
{
  SeismoValue v = seismo_test_field (trace, event, name);
  const guint8 *p, *end;
  guint n = 0;

  g_assert_cmpint (v.type, ==, SEISMO_FIELD_UINT_ARRAY);
  p = v.data;
  end = v.data + v.len;
  while (n < v.u && n < max && (p = seismo_varint_get (p, end, &out[n])) != NULL)
    n++;
  g_assert_cmpuint (n, ==, v.u);
  return n;
}

static gint32
event_tid (SeismoTrace   *trace,
           SeismoEventId  event)
{
  return seismo_trace_event_task (trace, event)->tid;
}

static guint64
type_count (SeismoTrace *trace,
            const char  *name)
{
  const guint64 *counts = seismo_trace_get_type_counts (trace);

  for (guint i = 0; i < seismo_trace_get_n_event_types (trace); i++)
    if (strcmp (seismo_trace_get_event_type (trace, i)->name, name) == 0)
      return counts[i];
  return 0;
}

/*
 * The reference reading of a line, kept deliberately naive: split on blanks, find the first word
 * that is a time ("123.456789:", "123456us", "123456us+:"), take the word after it.
 */
static char *
reference_event_name (const char *line)
{
  g_auto(GStrv) all = g_strsplit_set (line, " \t", -1);
  g_autoptr(GPtrArray) words = g_ptr_array_new ();

  if (line[0] == '#')
    return NULL;
  for (guint i = 0; all[i]; i++)
    if (all[i][0])
      g_ptr_array_add (words, all[i]);

  for (guint i = 1; i + 1 < words->len; i++)
    {
      g_autofree char *w = g_strdup (g_ptr_array_index (words, i));
      gsize l = strlen (w);
      guint next = i + 1;
      const char *ev;
      gboolean colon = l && w[l - 1] == ':';

      if (colon)
        w[--l] = '\0';
      if (l && strchr ("+!#*@$", w[l - 1]))
        w[--l] = '\0';
      if (l > 2 && g_str_has_suffix (w, "us"))
        w[l -= 2] = '\0';
      if (l == 0 || !g_ascii_isdigit (w[0]) || strspn (w, "0123456789.") != l)
        continue;
      if (!colon)
        {
          if (strcmp (g_ptr_array_index (words, next), ":") != 0)
            continue;
          next++;
        }
      if (next >= words->len)
        return NULL;
      ev = g_ptr_array_index (words, next);
      if (g_str_has_prefix (ev, "sys_") && strchr (ev, '('))
        return g_strdup_printf ("sys_enter_%.*s", (int) (strchr (ev, '(') - ev - 4), ev + 4);
      if (g_str_has_suffix (ev, ":"))
        return g_strndup (ev, strlen (ev) - 1);
      if (g_str_has_prefix (ev, "sys_") && next + 1 < words->len &&
          strcmp (g_ptr_array_index (words, next + 1), "->") == 0)
        return g_strdup_printf ("sys_exit_%s", ev + 4);
      return NULL;
    }
  return NULL;
}

/* Event name → count, from the reference reading of a whole file. */
static GHashTable *
reference_counts (const char *path,
                  guint64    *total)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  *total = 0;
  for (guint i = 0; lines[i]; i++)
    {
      char *name = reference_event_name (lines[i]);

      if (name == NULL)
        continue;
      gsize n = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, name));

      g_hash_table_insert (counts, name, GSIZE_TO_POINTER (n + 1));
      (*total)++;
    }
  return counts;
}

static void
assert_counts_match (SeismoTrace *trace,
                     const char  *reference_path)
{
  guint64 total;
  g_autoptr(GHashTable) counts = reference_counts (reference_path, &total);
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (total, >, 0);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, total);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (type_count (trace, key) != GPOINTER_TO_SIZE (value))
        g_error ("%s: %" G_GUINT64_FORMAT " events, the reference reading has %" G_GSIZE_FORMAT,
                 (const char *) key, type_count (trace, key), GPOINTER_TO_SIZE (value));
    }
  g_assert_cmpuint (g_hash_table_size (counts), ==, seismo_trace_get_n_event_types (trace));
}

/*
 * Same events in the same order: time, cpu, tid, type. With round_a, a has nanoseconds and b the
 * microseconds trace-cmd rounds them to.
 */
static void
assert_same_headers (SeismoTrace *a,
                     SeismoTrace *b,
                     gboolean     round_a)
{
  gsize n = seismo_trace_get_n_events (a);

  g_assert_cmpuint (n, ==, seismo_trace_get_n_events (b));
  for (SeismoEventId e = 0; e < n; e++)
    {
      if (round_a)
        g_assert_cmpuint ((seismo_trace_event_time (a, e) + 500) / 1000, ==,
                          seismo_trace_event_time (b, e) / 1000);
      else
        g_assert_cmpuint (seismo_trace_event_time (a, e), ==, seismo_trace_event_time (b, e));
      g_assert_cmpuint (seismo_trace_event_cpu (a, e), ==, seismo_trace_event_cpu (b, e));
      g_assert_cmpint (event_tid (a, e), ==, event_tid (b, e));
      g_assert_cmpstr (seismo_trace_event_type (a, e)->full_name, ==,
                       seismo_trace_event_type (b, e)->full_name);
    }
}

static void
assert_same_fields (SeismoTrace *a,
                    SeismoTrace *b)
{
  gsize n = seismo_trace_get_n_events (a);

  for (SeismoEventId e = 0; e < n; e++)
    {
      g_autofree char *fa = seismo_trace_event_format (a, e);
      g_autofree char *fb = seismo_trace_event_format (b, e);

      g_assert_cmpstr (fa, ==, fb);
    }
}

/* ---- trace-cmd report ----------------------------------------------------------------------- */

/* Field name of event e reads the same in the report as in trace-cmd's raw dump of it. */
static void
assert_field_agrees (SeismoTrace   *report,
                     SeismoTrace   *raw,
                     SeismoEventId  e,
                     const char    *name)
{
  SeismoFieldType type = seismo_test_field (report, e, name).type;

  g_assert_cmpint (type, ==, seismo_test_field (raw, e, name).type);
  if (type == SEISMO_FIELD_STRING)
    {
      const char *a = seismo_test_field_str (report, e, name);
      const char *b = seismo_test_field_str (raw, e, name);

      if (g_strcmp0 (a, b) != 0)
        g_error ("event %u: %s is \"%s\" in the report, \"%s\" in the raw dump", e, name, a, b);
    }
  else
    {
      gint64 a = seismo_test_field_int (report, e, name);
      gint64 b = seismo_test_field_int (raw, e, name);

      if (a != b)
        g_error ("event %u: %s is %" G_GINT64_FORMAT " in the report, %" G_GINT64_FORMAT
                 " in the raw dump", e, name, a, b);
    }
}

/* Every event of the plain report agrees with trace-cmd's raw field dump of the same file. */
static void
check_report_against_raw (const char *report_path,
                          const char *raw_path)
{
  g_autoptr(SeismoTrace) report = load (report_path);
  g_autoptr(SeismoTrace) raw = load (raw_path);
  gsize n = seismo_trace_get_n_events (report);
  guint checked_switch = 0, checked_enter = 0;

  assert_counts_match (report, raw_path);
  assert_counts_match (raw, raw_path);
  assert_same_headers (report, raw, FALSE);
  g_assert_cmpuint (seismo_test_metadata_u64 (report, "skipped_lines"), ==, 0);
  g_assert_cmpuint (seismo_test_metadata_u64 (raw, "skipped_lines"), ==, 0);

  for (SeismoEventId e = 0; e < n; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (report, e);
      const char *name = type->name;

      if (strcmp (name, "sched_switch") == 0)
        {
          assert_field_agrees (report, raw, e, "prev_comm");
          assert_field_agrees (report, raw, e, "prev_pid");
          assert_field_agrees (report, raw, e, "prev_prio");
          /* The plugin's letters cover the low 8 bits and never print the preemption bit. */
          g_assert_cmpint (seismo_test_field_int (report, e, "prev_state"), ==,
                           seismo_test_field_int (raw, e, "prev_state") & 0xff);
          assert_field_agrees (report, raw, e, "next_comm");
          assert_field_agrees (report, raw, e, "next_pid");
          assert_field_agrees (report, raw, e, "next_prio");
          checked_switch++;
        }
      else if (strcmp (name, "sched_wakeup") == 0 || strcmp (name, "sched_waking") == 0 ||
               strcmp (name, "sched_wakeup_new") == 0)
        {
          assert_field_agrees (report, raw, e, "comm");
          assert_field_agrees (report, raw, e, "pid");
          assert_field_agrees (report, raw, e, "prio");
          assert_field_agrees (report, raw, e, "target_cpu");
        }
      else if (strcmp (name, "sched_process_fork") == 0)
        {
          assert_field_agrees (report, raw, e, "parent_comm");
          assert_field_agrees (report, raw, e, "parent_pid");
          assert_field_agrees (report, raw, e, "child_comm");
          assert_field_agrees (report, raw, e, "child_pid");
        }
      else if (strcmp (name, "sys_enter") == 0)
        {
          guint64 a[16], b[16];
          guint na = field_array (report, e, "args", a, 16);
          guint nb = field_array (raw, e, "args", b, 16);

          assert_field_agrees (report, raw, e, "id");
          g_assert_cmpuint (na, ==, 6);
          g_assert_cmpuint (na, ==, nb);
          for (guint k = 0; k < na; k++)
            g_assert_cmphex (a[k], ==, b[k]);
          checked_enter++;
        }
      else if (strcmp (name, "sys_exit") == 0)
        {
          assert_field_agrees (report, raw, e, "id");
          assert_field_agrees (report, raw, e, "ret");
        }
      else if (strcmp (name, "irq_handler_entry") == 0)
        {
          assert_field_agrees (report, raw, e, "irq");
          assert_field_agrees (report, raw, e, "name");
        }
      else if (strcmp (name, "irq_handler_exit") == 0)
        {
          assert_field_agrees (report, raw, e, "irq");
          assert_field_agrees (report, raw, e, "ret");
        }
      else if (g_str_has_prefix (name, "softirq_"))
        assert_field_agrees (report, raw, e, "vec");
      else if (strcmp (name, "sched_stat_runtime") == 0)
        assert_field_agrees (report, raw, e, "runtime");
      else if (strcmp (name, "sched_process_exec") == 0)
        {
          assert_field_agrees (report, raw, e, "filename");
          assert_field_agrees (report, raw, e, "old_pid");
        }
    }
  g_assert_cmpuint (checked_switch, >, 0);
  g_assert_cmpuint (checked_enter, >, 0);
}

static void
test_report_raw (void)
{
  g_autofree char *report = unpack ("ftrace-report.txt.gz");
  g_autofree char *raw = unpack ("ftrace-report-raw.txt.gz");
  g_autoptr(SeismoTrace) trace = load (report);
  const SeismoEventType *type;

  check_report_against_raw (report, raw);

  /* The kernel's systems and field types, whatever trace-cmd's plugins printed. */
  type = seismo_trace_find_event_type (trace, "sched:sched_switch");
  g_assert_nonnull (type);
  g_assert_cmpint (type->kind, ==, SEISMO_KIND_SCHED_SWITCH);
  g_assert_cmpint (type->fields[seismo_event_type_find_field (type, "prev_state")].display, ==,
                   SEISMO_DISPLAY_SCHED_STATE);
  type = seismo_trace_find_event_type (trace, "raw_syscalls:sys_enter");
  g_assert_nonnull (type);
  g_assert_cmpint (type->kind, ==, SEISMO_KIND_SYSCALL_ENTER);
  g_assert_cmpint (type->fields[0].display, ==, SEISMO_DISPLAY_SYSCALL);
  g_assert_cmpint (type->fields[1].type, ==, SEISMO_FIELD_UINT_ARRAY);
  type = seismo_trace_find_event_type (trace, "raw_syscalls:sys_exit");
  g_assert_cmpint (type->fields[seismo_event_type_find_field (type, "ret")].display, ==,
                   SEISMO_DISPLAY_ERRNO);
  g_assert_nonnull (seismo_trace_find_event_type (trace, "irq:softirq_raise"));
  g_assert_nonnull (seismo_trace_find_event_type (trace, "irq:irq_handler_entry"));
  g_assert_nonnull (seismo_trace_find_event_type (trace, "sched:sched_process_exec"));

  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_SOURCE), ==, "ftrace-text");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, "buffers"), ==, "rec23721");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, "timestamp_precision"), ==, "us");
  g_assert_cmpuint (seismo_trace_get_n_cpus (trace), ==, 2);

  /* Syscalls pair into spans and comms reach the tasks. */
  {
    gsize n_spans;

    seismo_trace_get_syscall_spans (trace, &n_spans);
    g_assert_cmpuint (n_spans, >, type_count (trace, "sys_enter") * 9 / 10);
  }
  {
    SeismoTaskId task = seismo_trace_find_task (trace, 23721, seismo_trace_get_start_ns (trace));

    g_assert_cmpuint (task, !=, SEISMO_NO_TASK);
    g_assert_cmpstr (seismo_trace_get_string (trace, seismo_trace_get_task (trace, task)->comm),
                     ==, "record-tracedat");
  }
}

static void
test_report_latency (void)
{
  g_autofree char *plain = unpack ("ftrace-report.txt.gz");
  g_autofree char *lat = unpack ("ftrace-report-lat.txt.gz");
  g_autoptr(SeismoTrace) a = load (plain);
  g_autoptr(SeismoTrace) b = load (lat);

  assert_counts_match (b, lat);
  assert_same_headers (b, a, FALSE);
  assert_same_fields (b, a);
  g_assert_cmpuint (seismo_test_metadata_u64 (b, "skipped_lines"), ==, 0);
  g_assert_cmpstr (seismo_trace_get_metadata (b, "text_format"), ==, "trace-cmd report -l");
}

static void
test_report_ns (void)
{
  g_autofree char *plain = unpack ("ftrace-report.txt.gz");
  g_autofree char *ns = unpack ("ftrace-report-ns.txt.gz");
  g_autoptr(SeismoTrace) a = load (plain);
  g_autoptr(SeismoTrace) b = load (ns);
  gsize n = seismo_trace_get_n_events (b);
  guint sub_us = 0;

  assert_counts_match (b, ns);
  assert_same_headers (b, a, TRUE);
  assert_same_fields (b, a);
  for (SeismoEventId e = 0; e < n; e++)
    if (seismo_trace_event_time (b, e) % 1000 != 0)
      sub_us++;
  /* The nanoseconds are kept. */
  g_assert_cmpuint (sub_us, >, n / 2);
  g_assert_cmpstr (seismo_trace_get_metadata (b, "timestamp_precision"), ==, "ns");
}

/* Any trace.dat in tests/data, read by the trace-cmd installed here, at test time. */
static void
test_report_live (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", NULL);
  g_autoptr(GDir) d = NULL;
  g_autofree char *trace_cmd = g_find_program_in_path ("trace-cmd");
  const char *name;
  guint n_files = 0;

  if (trace_cmd == NULL)
    {
      g_test_skip ("trace-cmd is not installed");
      return;
    }
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *dat = NULL;
      g_autofree char *plain = NULL;
      g_autofree char *raw = NULL;
      g_autofree char *lat = NULL;
      g_autofree char *out = NULL;
      /* Plain (irq-flags columns), raw fields, and the -l latency layout. */
      const char *modes[] = { "", "-R", "-l" };

      if (!g_str_has_suffix (name, ".dat"))
        continue;
      dat = g_build_filename (dir, name, NULL);
      for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          g_autofree char *base = g_strdup_printf ("live-%u%s.txt", n_files, modes[m]);
          g_autofree char *path = seismo_test_temp_path (base);
          g_autoptr(GError) error = NULL;
          const char *argv[] = { trace_cmd, "report", modes[m], dat, NULL };
          int status;

          if (modes[m][0] == '\0')
            argv[2] = dat, argv[3] = NULL;
          g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                        NULL, &status, &error);
          g_assert_no_error (error);
          g_assert_true (g_spawn_check_wait_status (status, NULL));
          g_file_set_contents (path, out, -1, &error);
          g_assert_no_error (error);
          g_clear_pointer (&out, g_free);
          if (m == 0)
            plain = g_steal_pointer (&path);
          else if (m == 1)
            raw = g_steal_pointer (&path);
          else
            lat = g_steal_pointer (&path);
        }
      g_test_message ("comparing trace-cmd report and report -l of %s with its -R dump", name);
      check_report_against_raw (plain, raw);
      check_report_against_raw (lat, raw);
      n_files++;
    }
  if (n_files == 0)
    g_test_skip ("no trace.dat in tests/data to run trace-cmd report on");
}

/* ---- tracefs -------------------------------------------------------------------------------- */

static void
test_tracefs_layouts (void)
{
  const char *names[] = {
    "ftrace-tracefs.txt.gz", "ftrace-tracefs-tgid.txt.gz", "ftrace-tracefs-noirq.txt.gz",
    "ftrace-tracefs-lat.txt.gz",
  };
  SeismoTrace *traces[G_N_ELEMENTS (names)];
  SeismoTrace *t;
  gsize n;
  guint n_openat = 0, n_cwd = 0, n_pid_known = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = unpack (names[i]);

      traces[i] = load (path);
      assert_counts_match (traces[i], path);
      g_assert_cmpuint (seismo_test_metadata_u64 (traces[i], "skipped_lines"), ==, 0);
      g_assert_cmpstr (seismo_trace_get_metadata (traces[i], "tracer"), ==, "nop");
      g_assert_cmpuint (seismo_trace_get_n_cpus (traces[i]), ==, 2);
      if (i > 0)
        {
          assert_same_headers (traces[i], traces[0], FALSE);
          assert_same_fields (traces[i], traces[0]);
        }
    }
  g_assert_cmpstr (seismo_trace_get_metadata (traces[3], "text_format"), ==,
                   "tracefs latency-format");
  /* The headers' entries-in-buffer/entries-written: the buffer did not overflow. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpuint (seismo_trace_get_n_lost_events (traces[i]), ==, 0);

  /* trace_pipe prints the same lines without the header. */
  {
    g_autofree char *path = unpack (names[0]);
    g_autofree char *text = NULL;
    g_autofree char *pipe_path = NULL;
    g_autoptr(GString) pipe = g_string_new (NULL);
    g_auto(GStrv) lines = NULL;
    g_autoptr(SeismoTrace) piped = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    lines = g_strsplit (text, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      if (lines[i][0] != '#' && lines[i][0] != '\0')
        g_string_append_printf (pipe, "%s\n", lines[i]);
    pipe_path = write_temp ("trace_pipe.txt", pipe->str, pipe->len);
    g_assert_cmpint (sniff_file (pipe_path), >=, 80);
    piped = load (pipe_path);
    assert_same_headers (piped, traces[0], FALSE);
    assert_same_fields (piped, traces[0]);
    g_assert_null (seismo_trace_get_metadata (piped, "tracer"));
  }

  /* The tgid column names each task's process. */
  t = traces[1];
  for (guint i = 0; i < seismo_trace_get_n_tasks (t); i++)
    if (seismo_trace_get_task (t, i)->pid > 0)
      n_pid_known++;
  g_assert_cmpuint (n_pid_known, >, 0);

  /*
   * The kernel prints openat twice: raw_syscalls (NR 257, 6 hex args) and syscalls:sys_enter_openat
   * (named args). Both readings of the same call must agree.
   */
  t = traces[0];
  n = seismo_trace_get_n_events (t);
  for (SeismoEventId e = 0; e < n; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (t, e);

      if (strcmp (type->full_name, "syscalls:sys_enter_openat") != 0)
        continue;
      g_assert_cmpint (type->kind, ==, SEISMO_KIND_SYSCALL_ENTER);
      g_assert_cmpstr (type->syscall, ==, "openat");
      g_assert_cmpint (type->fields[seismo_event_type_find_field (type, "dfd")].display, ==,
                       SEISMO_DISPLAY_FD);
      /* The kernel emits the raw event first, at the same time. */
      for (SeismoEventId r = e; r-- > 0 && r + 8 > e;)
        {
          guint64 args[16];

          if (event_tid (t, r) != event_tid (t, e) ||
              seismo_trace_event_time (t, r) != seismo_trace_event_time (t, e) ||
              strcmp (seismo_trace_event_type (t, r)->full_name, "raw_syscalls:sys_enter") != 0 ||
              seismo_test_field_int (t, r, "id") != 257)
            continue;
          g_assert_cmpuint (field_array (t, r, "args", args, 16), ==, 6);
          g_assert_cmpint (seismo_test_field_int (t, e, "dfd"), ==, (gint64) (gint32) args[0]);
          g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "filename"), ==, args[1]);
          g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "flags"), ==, args[2]);
          g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "mode"), ==, args[3]);
          n_openat++;
          if (seismo_test_field_int (t, e, "dfd") == -100)
            n_cwd++;
          break;
        }
    }
  g_assert_cmpuint (n_openat, >, 0);
  g_assert_cmpuint (n_cwd, >, 0);
  g_assert_cmpuint (type_count (t, "sys_exit_openat"), ==, type_count (t, "sys_enter_openat"));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_object_unref (traces[i]);
}

/*
 * The running kernel's own text, live: a shell runs `cat /dev/null` 40 times in our own tracefs
 * instance (never the top-level buffer), and the import must find exactly 40 execs of cat.
 */
#define TRACEFS "/sys/kernel/tracing"
#define LIVE_PREFIX "seismo-text-test-"

static char live_instance[256];

/* An instance with an open file cannot be removed: hold SIGINT/SIGTERM while one is open. */
static void
hold_signals (gboolean hold)
{
  sigset_t set;

  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  sigprocmask (hold ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* tracefs files take a plain write(); no temporary file and rename. */
static gboolean
write_file (const char *path,
            const char *value)
{
  gssize len = strlen (value);
  gboolean ok = FALSE;
  int fd;

  hold_signals (TRUE);
  fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd >= 0)
    {
      ok = write (fd, value, len) == len;
      ok = close (fd) == 0 && ok;
    }
  hold_signals (FALSE);
  return ok;
}

static void
live_cleanup (void)
{
  char path[300];

  if (live_instance[0] == '\0')
    return;
  g_snprintf (path, sizeof path, "%s/tracing_on", live_instance);
  write_file (path, "0");
  if (rmdir (live_instance) != 0)
    g_printerr ("could not remove %s\n", live_instance);
  live_instance[0] = '\0';
}

static void
live_on_signal (int sig)
{
  /* Only async-signal-safe calls: the instance holds no open file of ours. */
  if (live_instance[0])
    rmdir (live_instance);
  _exit (128 + sig);
}

/* Instances a killed run of this test left behind. */
static void
live_remove_stale (void)
{
  g_autoptr(GDir) d = g_dir_open (TRACEFS "/instances", 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *proc = NULL;

      if (!g_str_has_prefix (name, LIVE_PREFIX))
        continue;
      proc = g_strdup_printf ("/proc/%s", name + strlen (LIVE_PREFIX));
      if (g_file_test (proc, G_FILE_TEST_EXISTS))
        continue;
      path = g_build_filename (TRACEFS "/instances", name, NULL);
      rmdir (path);
    }
}

static gboolean
live_write (const char *file,
            const char *value)
{
  g_autofree char *path = g_build_filename (live_instance, file, NULL);

  if (!write_file (path, value))
    {
      g_test_message ("could not write %s: %s", path, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static char *
live_read_trace (const char *name)
{
  g_autofree char *src = g_build_filename (live_instance, "trace", NULL);
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;

  hold_signals (TRUE);
  g_file_get_contents (src, &text, &len, &error);
  hold_signals (FALSE);
  g_assert_no_error (error);
  return write_temp (name, text, len);
}

static void
test_tracefs_live (void)
{
  const char *events[] = {
    "events/sched/sched_process_exec/enable", "events/sched/sched_process_fork/enable",
    "events/sched/sched_process_exit/enable", "events/sched/sched_switch/enable",
    "events/sched/sched_wakeup/enable", "events/syscalls/sys_enter_openat/enable",
    "events/syscalls/sys_exit_openat/enable",
  };
  const char *argv[] = { "/bin/sh", "-c",
                         "read go; i=0; while [ $i -lt 40 ]; do cat /dev/null; i=$((i+1)); done",
                         NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *lat = NULL;
  g_autoptr(SeismoTrace) a = NULL;
  g_autoptr(SeismoTrace) b = NULL;
  struct sigaction sa = { 0 };
  GPid pid;
  int in_fd, status;
  guint n_cat = 0;
  char pid_text[32];
  gsize n;

  if (getuid () != 0)
    {
      g_test_skip ("tracing needs root");
      return;
    }
  if (!g_file_test (TRACEFS "/instances", G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("tracefs is not mounted at " TRACEFS);
      return;
    }
  live_remove_stale ();
  sa.sa_handler = live_on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  atexit (live_cleanup);
  g_snprintf (live_instance, sizeof live_instance, TRACEFS "/instances/" LIVE_PREFIX "%d",
              (int) getpid ());
  if (mkdir (live_instance, 0755) != 0)
    {
      live_instance[0] = '\0';
      g_test_skip ("cannot create a tracefs instance");
      return;
    }

  g_assert_true (live_write ("tracing_on", "0"));
  g_assert_true (live_write ("buffer_size_kb", "4096"));
  g_assert_true (live_write ("options/event-fork", "1"));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    g_assert_true (live_write (events[i], "1"));

  g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                            &pid, &in_fd, NULL, NULL, &error);
  g_assert_no_error (error);
  g_snprintf (pid_text, sizeof pid_text, "%d", (int) pid);
  g_assert_true (live_write ("set_event_pid", pid_text));
  g_assert_true (live_write ("tracing_on", "1"));
  g_assert_cmpint (write (in_fd, "go\n", 3), ==, 3);
  close (in_fd);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (live_write ("tracing_on", "0"));

  plain = live_read_trace ("live-trace.txt");
  g_assert_true (live_write ("options/latency-format", "1"));
  lat = live_read_trace ("live-trace-lat.txt");
  {
    g_autofree char *dir = g_strdup (live_instance);

    live_cleanup ();
    g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
  }

  a = load (plain);
  b = load (lat);
  assert_counts_match (a, plain);
  assert_same_headers (b, a, FALSE);
  assert_same_fields (b, a);
  g_assert_cmpuint (seismo_test_metadata_u64 (a, "skipped_lines"), ==, 0);
  g_assert_cmpuint (seismo_trace_get_n_lost_events (a), ==, 0);

  n = seismo_trace_get_n_events (a);
  for (SeismoEventId e = 0; e < n; e++)
    if (strcmp (seismo_trace_event_type (a, e)->full_name, "sched:sched_process_exec") == 0 &&
        g_str_has_suffix (seismo_test_field_str (a, e, "filename"), "/cat"))
      n_cat++;
  g_assert_cmpuint (n_cat, ==, 40);
}

/* ---- lines written by hand, one per layout or oddity ---------------------------------------- */

static SeismoEventId
only_event_of (SeismoTrace *trace,
               const char  *full_name)
{
  gsize n = seismo_trace_get_n_events (trace);
  SeismoEventId found = SEISMO_NO_EVENT;

  for (SeismoEventId e = 0; e < n; e++)
    if (strcmp (seismo_trace_event_type (trace, e)->full_name, full_name) == 0)
      {
        g_assert_cmpuint (found, ==, SEISMO_NO_EVENT);
        found = e;
      }
  g_assert_cmpuint (found, !=, SEISMO_NO_EVENT);
  return found;
}

static void
test_parse_variants (void)
{
  const char *text =
    "# tracer: nop\n"
    "# entries-in-buffer/entries-written: 12/20   #P:4\n"
    "     Web Content-4242    [003] d..2.   100.000001: sched_switch: prev_comm=Web Content "
    "prev_pid=4242 prev_prio=120 prev_state=D|K ==> next_comm=swapper/3 next_pid=0 "
    "next_prio=120\r\n"
    "          <idle>-0       [003] dNh2.   100.000002: sched_wakeup: comm=a b pid=7 prio=98 "
    "target_cpu=002\n"
    "  gcc-8    [001]   100.000003: sched_switch:         gcc:8 [120] R+ ==> as:9 [120]\n"
    "  gcc-8    [001]   100.000004: sched_wakeup:         cc1:10 [120] success=1 CPU:003\n"
    "  bash-11  (     11) [000] .....   100.000005: sys_openat(dfd: ffffff9c, filename: "
    "7ffd1234, flags: 0x80000, mode: 0)\n"
    "  bash-11  (-------) [000] .....   100.000006: sys_openat -> 0xfffffffffffffffe\n"
    "  bash-11  [000] .....   100.000007: do_sys_open <-__x64_sys_openat\n"
    "  bash-11  [000] .....   100.000008: tracing_mark_write: hello world\n"
    "CPU:2 [LOST 5 EVENTS]\n"
    "  bash-11  [002] .....   100.000009: foo_event: a=1 b=x\n"
    "  bash-11  [002] .....   100.000010: foo_event: b=y c=3\n"
    "  bash-11  [002] .....   100.000011: foo_event: a=zz b=z\n"
    "  bash-11  [002] .....   100.000012: foo_event: no pairs here\n"
    "  bash-11  [002] .....   100.000013: bar_event: just text\n"
    "  bash-11  [002] .....   100.000014: sched_stat_runtime: comm=bash pid=11 runtime=42 [ns]\n"
    "  bash-11  [002] .....   100.000015: softirq_entry: vec=9 [action=RCU]\n"
    "  bash-11  [002] .....   100.000016: irq_handler_exit: irq=3 ret=unhandled\n"
    "  bash-11  [002] .....   100.000017: task_newtask: pid=12 comm=bash clone_flags=3d0f00 "
    "oom_score_adj=0\n"
    "  bash-11  [002] .....   100.000018: sys_enter_read:  fd: 0x00000003, buf: 0x7ffd0000, "
    "count: 0x00001000\n"
    "  bash-11  [002] .....   100.000019: sys_exit_read:   0x1000\n";
  g_autoptr(SeismoTrace) t = load_text ("variants.txt", text);
  const SeismoLostEvents *lost;
  guint n_lost;
  SeismoEventId e;
  const SeismoEventType *type;

  g_assert_cmpuint (seismo_test_metadata_u64 (t, "skipped_lines"), ==, 0);
  g_assert_cmpuint (seismo_trace_get_n_events (t), ==, 19);
  g_assert_cmpuint (seismo_trace_get_n_cpus (t), ==, 4);

  /* Comms with spaces, kernel state letters of an old kernel (D = 2, K = 128). */
  e = 0;
  g_assert_cmpint (event_tid (t, e), ==, 4242);
  g_assert_cmpuint (seismo_trace_event_cpu (t, e), ==, 3);
  g_assert_cmpuint (seismo_trace_event_time (t, e), ==, G_GUINT64_CONSTANT (100000001000));
  g_assert_cmpstr (seismo_test_field_str (t, e, "prev_comm"), ==, "Web Content");
  g_assert_cmpint (seismo_test_field_int (t, e, "prev_state"), ==, 2 | 128);
  g_assert_cmpstr (seismo_trace_get_string (t, seismo_trace_event_task (t, e)->comm), ==,
                   "Web Content");
  g_assert_cmpstr (seismo_test_field_str (t, 1, "comm"), ==, "a b");
  g_assert_cmpint (seismo_test_field_int (t, 1, "target_cpu"), ==, 2);

  /* libtraceevent's plugin layouts. */
  g_assert_cmpstr (seismo_test_field_str (t, 2, "prev_comm"), ==, "gcc");
  g_assert_cmpint (seismo_test_field_int (t, 2, "prev_pid"), ==, 8);
  g_assert_cmpint (seismo_test_field_int (t, 2, "prev_state"), ==, 0);
  g_assert_cmpstr (seismo_test_field_str (t, 2, "next_comm"), ==, "as");
  g_assert_cmpint (seismo_test_field_int (t, 2, "next_pid"), ==, 9);
  g_assert_cmpstr (seismo_test_field_str (t, 3, "comm"), ==, "cc1");
  g_assert_cmpint (seismo_test_field_int (t, 3, "pid"), ==, 10);
  g_assert_cmpint (seismo_test_field_int (t, 3, "target_cpu"), ==, 3);

  /* The kernel's own syscalls layout; the tgid column. */
  e = only_event_of (t, "syscalls:sys_enter_openat");
  g_assert_cmpint (seismo_test_field_int (t, e, "dfd"), ==, -100);
  g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "filename"), ==, 0x7ffd1234);
  g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "flags"), ==, 0x80000);
  g_assert_cmpint (seismo_trace_event_task (t, e)->pid, ==, 11);
  e = only_event_of (t, "syscalls:sys_exit_openat");
  g_assert_cmpint (seismo_test_field_int (t, e, "ret"), ==, -2);
  e = only_event_of (t, "syscalls:sys_enter_read");
  g_assert_cmpint (seismo_test_field_int (t, e, "fd"), ==, 3);
  g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "count"), ==, 0x1000);
  e = only_event_of (t, "syscalls:sys_exit_read");
  g_assert_cmpint (seismo_test_field_int (t, e, "ret"), ==, 4096);

  e = only_event_of (t, "ftrace:function");
  g_assert_cmpstr (seismo_test_field_str (t, e, "ip"), ==, "do_sys_open");
  g_assert_cmpstr (seismo_test_field_str (t, e, "parent_ip"), ==, "__x64_sys_openat");
  e = only_event_of (t, "ftrace:print");
  g_assert_cmpstr (seismo_test_field_str (t, e, "buf"), ==, "hello world");

  lost = seismo_trace_get_lost_events (t, &n_lost);
  g_assert_cmpuint (seismo_trace_get_n_lost_events (t), ==, 5 + 8);
  for (guint i = 0; i < n_lost; i++)
    if (lost[i].cpu == 2)
      g_assert_cmpuint (lost[i].count, ==, 5);

  /* A schema from the first line; later lines that differ keep what does not fit as text. */
  type = seismo_trace_find_event_type (t, "ftrace:foo_event");
  g_assert_nonnull (type);
  g_assert_cmpuint (type->n_fields, ==, 3);
  g_assert_cmpstr (type->fields[0].name, ==, "a");
  g_assert_cmpint (type->fields[0].type, ==, SEISMO_FIELD_INT);
  g_assert_cmpstr (type->fields[1].name, ==, "b");
  g_assert_cmpint (type->fields[1].type, ==, SEISMO_FIELD_STRING);
  g_assert_cmpstr (type->fields[2].name, ==, "text");
  e = 8;
  g_assert_cmpint (seismo_test_field_int (t, e, "a"), ==, 1);
  g_assert_cmpstr (seismo_test_field_str (t, e, "b"), ==, "x");
  g_assert_cmpstr (seismo_test_field_str (t, e, "text"), ==, "");
  e = 9;
  g_assert_cmpint (seismo_test_field_int (t, e, "a"), ==, 0);
  g_assert_cmpstr (seismo_test_field_str (t, e, "b"), ==, "y");
  g_assert_cmpstr (seismo_test_field_str (t, e, "text"), ==, "c=3");
  e = 10;
  g_assert_cmpstr (seismo_test_field_str (t, e, "b"), ==, "z");
  g_assert_cmpstr (seismo_test_field_str (t, e, "text"), ==, "a=zz");
  e = 11;
  g_assert_cmpstr (seismo_test_field_str (t, e, "text"), ==, "no pairs here");
  e = only_event_of (t, "ftrace:bar_event");
  g_assert_cmpuint (seismo_trace_event_type (t, e)->n_fields, ==, 1);
  g_assert_cmpstr (seismo_test_field_str (t, e, "text"), ==, "just text");

  e = only_event_of (t, "sched:sched_stat_runtime");
  g_assert_cmpint (seismo_test_field_int (t, e, "runtime"), ==, 42);
  e = only_event_of (t, "irq:softirq_entry");
  g_assert_cmpint (seismo_test_field_int (t, e, "vec"), ==, 9);
  e = only_event_of (t, "irq:irq_handler_exit");
  g_assert_cmpint (seismo_test_field_int (t, e, "ret"), ==, 0);
  e = only_event_of (t, "task:task_newtask");
  g_assert_cmphex ((guint64) seismo_test_field_int (t, e, "clone_flags"), ==, 0x3d0f00);
  g_assert_cmpstr (seismo_test_field_str (t, e, "comm"), ==, "bash");
}

static void
test_parse_states (void)
{
  const struct {
    const char *state;
    gint64      value;
  } kernel[] = {
    { "R", 0 }, { "R+", 0x100 }, { "S", 1 }, { "D", 2 }, { "T", 4 }, { "t", 8 }, { "X", 0x10 },
    { "Z", 0x20 }, { "P", 0x40 }, { "I", 0x80 }, { "S|D", 3 }, { "D|K", 2 | 0x80 },
    { "x", 0x40 }, { "W", 0x100 }, { "1", 1 }, { "256", 256 },
  };
  const struct {
    const char *state;
    gint64      value;
  } plugin[] = {
    { "R", 0 }, { "S", 1 }, { "D", 2 }, { "Z", 0x10 }, { "X", 0x20 }, { "W", 0x80 },
  };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(SeismoTrace) t = NULL;
  guint e = 0;

  for (guint i = 0; i < G_N_ELEMENTS (kernel); i++)
    g_string_append_printf (text, "  a-1  [000] d..2.  1.%06u: sched_switch: prev_comm=a "
                            "prev_pid=1 prev_prio=120 prev_state=%s ==> next_comm=b "
                            "next_pid=2 next_prio=120\n", e++, kernel[i].state);
  for (guint i = 0; i < G_N_ELEMENTS (plugin); i++)
    g_string_append_printf (text,
                            "  a-1  [000]  1.%06u: sched_switch: a:1 [120] %s ==> b:2 [120]\n",
                            e++, plugin[i].state);
  t = load_text ("states.txt", text->str);
  g_assert_cmpuint (seismo_trace_get_n_events (t), ==, e);
  e = 0;
  for (guint i = 0; i < G_N_ELEMENTS (kernel); i++, e++)
    g_assert_cmpint (seismo_test_field_int (t, e, "prev_state"), ==, kernel[i].value);
  for (guint i = 0; i < G_N_ELEMENTS (plugin); i++, e++)
    g_assert_cmpint (seismo_test_field_int (t, e, "prev_state"), ==, plugin[i].value);
}

static void
test_parse_timestamps (void)
{
  const char *text =
    "  a-1  [000] .....  5.000000001: foo: x=1\n"
    "  a-1  [000] .....  5.5: foo: x=2\n"
    "  a-1  [000] .....  123456789: foo: x=3\n"
    "  a-1       0d..2. 6000001us : foo: x=4\n"
    "  a-1       0d..2. 6000002us!: foo: x=5\n"
    "  a-1       0d..2. 6000003us+: foo: x=6\n"
    "buf: a-1-2 [000]  7.000000: foo: x=7\n";
  g_autoptr(SeismoTrace) t = load_text ("times.txt", text);
  const guint64 want[] = {
    123456789, G_GUINT64_CONSTANT (5000000001), G_GUINT64_CONSTANT (5500000000),
    G_GUINT64_CONSTANT (6000001000), G_GUINT64_CONSTANT (6000002000),
    G_GUINT64_CONSTANT (6000003000), G_GUINT64_CONSTANT (7000000000),
  };

  g_assert_cmpuint (seismo_test_metadata_u64 (t, "skipped_lines"), ==, 0);
  g_assert_cmpuint (seismo_trace_get_n_events (t), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpuint (seismo_trace_event_time (t, i), ==, want[i]);
  /* "a-1-2": comm "a-1", tid 2, in buffer "buf". */
  g_assert_cmpint (event_tid (t, 6), ==, 2);
  g_assert_cmpstr (seismo_trace_get_string (t, seismo_trace_event_task (t, 6)->comm), ==, "a-1");
  g_assert_cmpstr (seismo_trace_get_metadata (t, "buffers"), ==, "buf");
}

/* trace-cmd -R spells syscall arguments in decimal; trace_printk and friends are free text. */
static void
test_parse_raw_and_text (void)
{
  const char *text =
    "  a-1  [000] .....  1.000001: sys_enter_openat:     __syscall_nr=257 dfd=4294967196 "
    "filename=140 flags=524288 mode=0\n"
    "  a-1  [000] .....  1.000002: sys_exit_openat:      __syscall_nr=257 ret=-2\n"
    "  a-1  [000] .....  1.000003: sys_getpid()\n"
    "  a-1  [000] .....  1.000004: my_func: hello: world x=1\n"
    "  a-1  [000] .....  1.000005: my_func: x=2\n"
    "  a-1  [000] .....  1.000006: bprint:               my_func: value 42\n"
    "  a-1  [000] .....  1.000007: function:             do_sys_open <-- __x64_sys_openat\n";
  g_autoptr(SeismoTrace) t = load_text ("raw-and-text.txt", text);
  const SeismoEventType *type;

  g_assert_cmpuint (seismo_trace_get_n_events (t), ==, 7);
  g_assert_cmpint (seismo_test_field_int (t, 0, "dfd"), ==, -100);
  g_assert_cmpint (seismo_test_field_int (t, 0, "filename"), ==, 140);
  g_assert_cmphex ((guint64) seismo_test_field_int (t, 0, "flags"), ==, 0x80000);
  g_assert_cmpint (seismo_test_field_int (t, 1, "ret"), ==, -2);
  type = seismo_trace_event_type (t, 2);
  g_assert_cmpstr (type->full_name, ==, "syscalls:sys_enter_getpid");
  g_assert_cmpuint (type->n_fields, ==, 0);

  type = seismo_trace_event_type (t, 3);
  g_assert_cmpstr (type->full_name, ==, "ftrace:my_func");
  g_assert_cmpuint (type->n_fields, ==, 1);
  g_assert_cmpstr (seismo_test_field_str (t, 3, "text"), ==, "hello: world x=1");
  g_assert_cmpstr (seismo_test_field_str (t, 4, "text"), ==, "x=2");
  g_assert_cmpstr (seismo_test_field_str (t, 5, "ip"), ==, "my_func");
  g_assert_cmpstr (seismo_test_field_str (t, 5, "buf"), ==, "value 42");
  g_assert_cmpstr (seismo_test_field_str (t, 6, "ip"), ==, "do_sys_open");
  g_assert_cmpstr (seismo_test_field_str (t, 6, "parent_ip"), ==, "__x64_sys_openat");
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void
test_garbage_lines (void)
{
  g_autofree char *report = unpack ("ftrace-report.txt.gz");
  g_autofree char *text = NULL;
  g_autoptr(GString) mixed = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(SeismoTrace) clean = load (report);
  g_autoptr(SeismoTrace) t = NULL;
  guint n_garbage = 0;
  gsize len;

  g_assert_true (g_file_get_contents (report, &text, &len, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_string_append (mixed, lines[i]);
      g_string_append_c (mixed, '\n');
      if (i % 97 == 13)
        {
          static const char *const garbage[] = {
            "this is not a trace line",
            "  foo-12 [001] 12.34: ",
            "  foo-12 [001] notatime: sched_switch: x",
            "  foo-x [001] 1.000000: sched_switch: prev_comm=a",
            "\xff\xfe\x80 binary \x01\x02",
            "[001] 1.000001: sys_enter: NR 1 (0)",
            "  foo-12 [99999999] 1.000000: foo: x=1",
          };

          g_string_append (mixed, garbage[n_garbage % G_N_ELEMENTS (garbage)]);
          g_string_append_c (mixed, '\n');
          n_garbage++;
        }
    }
  /* A last line cut in its header. */
  g_string_append (mixed, "rec23721:  record-tracedat-23721 [00");
  n_garbage++;

  {
    g_autofree char *path = write_temp ("mixed.txt", mixed->str, mixed->len);

    t = load (path);
  }
  g_assert_cmpuint (seismo_trace_get_n_events (t), ==, seismo_trace_get_n_events (clean));
  g_assert_cmpuint (seismo_test_metadata_u64 (t, "skipped_lines"), ==, n_garbage);
  assert_same_headers (t, clean, FALSE);
  assert_same_fields (t, clean);
}

static void
assert_load_fails (const char *name,
                   const char *contents,
                   gssize      len,
                   const char *message_part)
{
  g_autofree char *path = write_temp (name, contents, len);
  g_autoptr(GError) error = NULL;
  SeismoTrace *t = seismo_ftrace_text_importer.load (path, NULL, NULL, NULL, &error);

  g_assert_null (t);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, name));
  if (message_part)
    g_assert_nonnull (strstr (error->message, message_part));
}

static void
test_no_events (void)
{
  guint8 binary[4096];
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(SeismoTrace) empty = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < sizeof binary; i++)
    binary[i] = (guint8) g_rand_int (rand);

  assert_load_fails ("words.txt", "hello\nworld\n", -1, "line 1");
  assert_load_fails ("late.txt", "\n\n# comment\nnot an event\n", -1, "line 4");
  assert_load_fails ("binary.txt", (const char *) binary, sizeof binary, NULL);
  assert_load_fails ("empty.txt", "", 0, NULL);

  /* A tracefs buffer that recorded nothing is an empty trace, not an error. */
  empty = load_text ("nothing.txt", "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0"
                     "   #P:2\n");
  g_assert_cmpuint (seismo_trace_get_n_events (empty), ==, 0);

  /* A missing file says which. */
  g_assert_null (seismo_ftrace_text_importer.load ("/nonexistent/trace.txt", NULL, NULL, NULL,
                                                   &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "/nonexistent/trace.txt"));
}

static void
test_truncated (void)
{
  g_autofree char *report = unpack ("ftrace-tracefs-tgid.txt.gz");
  g_autofree char *text = NULL;
  g_autoptr(SeismoTrace) full = load (report);
  gsize len;

  g_assert_true (g_file_get_contents (report, &text, &len, NULL));
  for (guint k = 1; k <= 40; k++)
    {
      gsize cut = len * k / 41 + k * 7 % 13;
      g_autofree char *path = write_temp ("cut.txt", text, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoTrace) t = seismo_ftrace_text_importer.load (path, NULL, NULL, NULL, &error);
      gsize whole = 0, n;

      /* Event lines that end before the cut. */
      for (gsize i = 0, start = 0; i < cut; i++)
        if (text[i] == '\n')
          {
            if (text[start] != '#')
              whole++;
            start = i + 1;
          }
      g_assert_no_error (error);
      n = seismo_trace_get_n_events (t);
      /* Every whole line, and the cut one when its header survived; else it is skipped. */
      g_assert_cmpuint (n, >=, whole);
      g_assert_cmpuint (n, <=, whole + 1);
      g_assert_cmpuint (n + seismo_test_metadata_u64 (t, "skipped_lines"), <=, whole + 1);
      g_assert_cmpuint (n, <=, seismo_trace_get_n_events (full));
    }
}

/* ---- sniffing, progress, cancellation ------------------------------------------------------- */

static void
test_sniff (void)
{
  const char *samples[] = {
    "ftrace-report.txt.gz", "ftrace-report-raw.txt.gz", "ftrace-report-lat.txt.gz",
    "ftrace-report-ns.txt.gz", "ftrace-tracefs.txt.gz", "ftrace-tracefs-lat.txt.gz",
  };
  const char *strace_text =
    "8221  1700000000.123456 execve(\"/usr/bin/gcc\", [\"gcc\", \"hello.c\"], 0x7ffc /* 20 vars */)"
    " = 0 <0.000321>\n"
    "8221  1700000000.123999 write(1, \"time 12.5: done\\n\", 16) = 16 <0.000010>\n"
    "8221  1700000000.124001 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3 "
    "<0.000012>\n"
    "8222  1700000000.124100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---\n"
    "8221  1700000000.124200 +++ exited with 0 +++\n";
  g_autofree char *strace_path = write_temp ("gcc.strace", strace_text, -1);
  g_autofree char *seismo_path = seismo_test_temp_path ("t.seismo");
  g_autoptr(SeismoTrace) synthetic = seismo_test_make_trace (500, 3);
  g_autoptr(GError) error = NULL;
  g_autofree char *strace_bin = g_find_program_in_path ("strace");

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = unpack (samples[i]);

      g_assert_cmpint (sniff_file (path), >=, 80);
    }
  g_assert_cmpint (sniff_file (strace_path), ==, 0);

  g_assert_true (seismo_file_save (synthetic, seismo_path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sniff_file (seismo_path), ==, 0);

  /* A real strace log, when strace can run here. */
  if (strace_bin)
    {
      g_autofree char *log = seismo_test_temp_path ("real.strace");
      const char *argv[] = { strace_bin, "-f", "-ttt", "-T", "-o", log, "/bin/sh", "-c",
                             "echo a: b > /dev/null; ls / > /dev/null", NULL };
      int status;

      if (g_spawn_sync (NULL, (char **) argv, NULL,
                        G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL,
                        NULL, &status, NULL) &&
          g_spawn_check_wait_status (status, NULL))
        g_assert_cmpint (sniff_file (log), ==, 0);
    }

  /* And through the registry: the text samples open as ftrace-text. */
  {
    g_autofree char *path = unpack ("ftrace-report-lat.txt.gz");
    g_autoptr(SeismoTrace) t = seismo_trace_open (path, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (seismo_trace_get_metadata (t, SEISMO_META_SOURCE), ==, "ftrace-text");
  }
}

static void
test_progress_cancel (void)
{
  g_autofree char *report = unpack ("ftrace-report.txt.gz");
  g_autofree char *text = NULL;
  g_autoptr(GString) big = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) t = NULL;
  SeismoTestProgress progress = { 0 };

  g_assert_true (g_file_get_contents (report, &text, NULL, NULL));
  while (big->len < 24 * 1024 * 1024)
    g_string_append (big, text);
  path = write_temp ("big.txt", big->str, big->len);

  t = seismo_ftrace_text_importer.load (path, NULL, seismo_test_progress, &progress, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (progress.calls, >=, 3);
  g_assert_cmpfloat (progress.last, ==, 1.0);

  g_cancellable_cancel (cancellable);
  g_assert_null (seismo_ftrace_text_importer.load (path, cancellable, NULL, NULL, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ftrace-text/report/raw", test_report_raw);
  g_test_add_func ("/ftrace-text/report/latency", test_report_latency);
  g_test_add_func ("/ftrace-text/report/ns", test_report_ns);
  g_test_add_func ("/ftrace-text/report/live-trace-cmd", test_report_live);
  g_test_add_func ("/ftrace-text/tracefs/layouts", test_tracefs_layouts);
  g_test_add_func ("/ftrace-text/tracefs/live", test_tracefs_live);
  g_test_add_func ("/ftrace-text/parse/variants", test_parse_variants);
  g_test_add_func ("/ftrace-text/parse/states", test_parse_states);
  g_test_add_func ("/ftrace-text/parse/timestamps", test_parse_timestamps);
  g_test_add_func ("/ftrace-text/parse/raw-and-text", test_parse_raw_and_text);
  g_test_add_func ("/ftrace-text/bad/garbage-lines", test_garbage_lines);
  g_test_add_func ("/ftrace-text/bad/no-events", test_no_events);
  g_test_add_func ("/ftrace-text/bad/truncated", test_truncated);
  g_test_add_func ("/ftrace-text/sniff", test_sniff);
  g_test_add_func ("/ftrace-text/progress-cancel", test_progress_cancel);

  return g_test_run ();
}

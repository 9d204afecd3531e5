/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>

#include "seismo-export.h"
#include "seismo-importer.h"
#include "seismo-test-util.h"

/* ---- a small trace with awkward strings ---- */

#define WEIRD_COMM "we\"ird,co\nmm"
#define BAD_UTF8   "bad\xff\xfe"

static SeismoTrace *
make_awkward_trace (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const SeismoFieldInfo enter_fields[] = {
    { "dfd", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_FD },
    { "filename", SEISMO_FIELD_STRING, 8, SEISMO_DISPLAY_DEFAULT },
    { "flags", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
  };
  const SeismoFieldInfo exit_fields[] = { { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO } };
  const SeismoFieldInfo switch_fields[] = {
    { "prev_comm", SEISMO_FIELD_STRING, 16 }, { "prev_pid", SEISMO_FIELD_INT, 4 },
    { "prev_prio", SEISMO_FIELD_INT, 4 },
    { "prev_state", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_SCHED_STATE },
    { "next_comm", SEISMO_FIELD_STRING, 16 }, { "next_pid", SEISMO_FIELD_INT, 4 },
    { "next_prio", SEISMO_FIELD_INT, 4 },
  };
  const SeismoFieldInfo idle_fields[] = { { "cpu", SEISMO_FIELD_INT, 4 } };
  /* Each needs quoting in CSV for a different reason. */
  static const char *const paths[] = {
    "/etc/pass,wd", "/tmp/\"quoted\"\r\nline", "/tmp/new\nline",
  };
  guint enter, exit_, sw, idle;
  guint64 t = 1000000;

  enter = seismo_trace_builder_add_event_type (b, "syscalls", "sys_enter_openat", enter_fields,
                                               G_N_ELEMENTS (enter_fields), NULL);
  exit_ = seismo_trace_builder_add_event_type (b, "syscalls", "sys_exit_openat", exit_fields, 1,
                                               NULL);
  sw = seismo_trace_builder_add_event_type (b, "sched", "sched_switch", switch_fields,
                                            G_N_ELEMENTS (switch_fields), NULL);
  idle = seismo_trace_builder_add_event_type (b, "sched", "sched_wake_idle_without_ipi",
                                              idle_fields, 1, NULL);
  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "synthetic \"awkward\"");
  seismo_trace_builder_set_task_pid (b, 100, 100);
  seismo_trace_builder_set_task_comm (b, 100, WEIRD_COMM, t);
  seismo_trace_builder_set_task_pid (b, 101, 100);
  seismo_trace_builder_set_task_comm (b, 101, BAD_UTF8, t);

  for (guint i = 0; i < 50; i++, t += 10000)
    {
      gint32 tid = i % 2 ? 101 : 100;

      seismo_trace_builder_begin_event (b, t, i % 2, 0, sw);
      seismo_trace_builder_push_string (b, "swapper");
      seismo_trace_builder_push_int (b, 0);
      seismo_trace_builder_push_int (b, 120);
      seismo_trace_builder_push_int (b, 0);
      seismo_trace_builder_push_string (b, i % 2 ? BAD_UTF8 : WEIRD_COMM);
      seismo_trace_builder_push_int (b, tid);
      seismo_trace_builder_push_int (b, 120);
      seismo_trace_builder_end_event (b);

      seismo_trace_builder_begin_event (b, t + 1000, i % 2, tid, enter);
      seismo_trace_builder_push_int (b, -100);
      seismo_trace_builder_push_string (b, paths[i % G_N_ELEMENTS (paths)]);
      seismo_trace_builder_push_uint (b, 0x80000);
      seismo_trace_builder_end_event (b);

      /* The last call never returns: an unfinished span. */
      if (i < 49)
        {
          seismo_trace_builder_begin_event (b, t + 3000 + i, i % 2, tid, exit_);
          seismo_trace_builder_push_int (b, i % 4 ? 3 : -2);
          seismo_trace_builder_end_event (b);
        }

      seismo_trace_builder_begin_event (b, t + 5000, i % 2, tid, idle);
      seismo_trace_builder_push_int (b, i % 2);
      seismo_trace_builder_end_event (b);

      seismo_trace_builder_begin_event (b, t + 8000, i % 2, tid, sw);
      seismo_trace_builder_push_string (b, i % 2 ? BAD_UTF8 : WEIRD_COMM);
      seismo_trace_builder_push_int (b, tid);
      seismo_trace_builder_push_int (b, 120);
      seismo_trace_builder_push_int (b, 1);
      seismo_trace_builder_push_string (b, "swapper");
      seismo_trace_builder_push_int (b, 0);
      seismo_trace_builder_push_int (b, 120);
      seismo_trace_builder_end_event (b);
    }
  seismo_trace_builder_add_lost_events (b, 1, 1200000, 17);
  return seismo_trace_builder_finish (b);
}

/* ---- Chrome JSON ---- */

typedef struct {
  guint syscall_x;
  guint sched_x;
  guint instants;
  guint global_instants;
  guint metadata;
  GHashTable *process_names;   /* pid → name */
  GHashTable *thread_names;    /* tid → name */
} ChromeCounts;

static void
chrome_counts_clear (ChromeCounts *c)
{
  g_clear_pointer (&c->process_names, g_hash_table_unref);
  g_clear_pointer (&c->thread_names, g_hash_table_unref);
}

/* Parses the file with json-glib and checks every event against the Trace Event format. */
static void
parse_chrome (const char   *path,
              ChromeCounts *counts)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *events;

  memset (counts, 0, sizeof *counts);
  counts->process_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  counts->thread_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (root, "traceEvents"));
  g_assert_cmpstr (json_object_get_string_member (root, "displayTimeUnit"), ==, "ns");
  events = json_object_get_array_member (root, "traceEvents");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *ph;

      g_assert_nonnull (ev);
      /* Required by every phase. */
      g_assert_true (json_object_has_member (ev, "ph"));
      g_assert_true (json_object_has_member (ev, "name"));
      g_assert_true (json_object_has_member (ev, "pid"));
      g_assert_true (json_object_has_member (ev, "tid"));
      g_assert_cmpint (json_node_get_value_type (json_object_get_member (ev, "pid")), ==,
                       G_TYPE_INT64);
      g_assert_cmpint (json_node_get_value_type (json_object_get_member (ev, "tid")), ==,
                       G_TYPE_INT64);
      g_assert_true (g_utf8_validate (json_object_get_string_member (ev, "name"), -1, NULL));
      ph = json_object_get_string_member (ev, "ph");

      if (strcmp (ph, "M") == 0)
        {
          const char *what = json_object_get_string_member (ev, "name");
          JsonObject *args = json_object_get_object_member (ev, "args");

          g_assert_nonnull (args);
          counts->metadata++;
          if (strcmp (what, "process_name") == 0)
            g_hash_table_insert (counts->process_names,
                                 GINT_TO_POINTER (json_object_get_int_member (ev, "pid")),
                                 g_strdup (json_object_get_string_member (args, "name")));
          else if (strcmp (what, "thread_name") == 0)
            g_hash_table_insert (counts->thread_names,
                                 GINT_TO_POINTER (json_object_get_int_member (ev, "tid")),
                                 g_strdup (json_object_get_string_member (args, "name")));
          else
            g_assert_cmpstr (what, ==, "process_sort_index");
          continue;
        }

      g_assert_true (json_object_has_member (ev, "ts"));
      g_assert_cmpfloat (json_object_get_double_member (ev, "ts"), >=, 0);
      if (strcmp (ph, "X") == 0)
        {
          const char *cat = json_object_get_string_member (ev, "cat");

          g_assert_true (json_object_has_member (ev, "dur"));
          g_assert_cmpfloat (json_object_get_double_member (ev, "dur"), >=, 0);
          if (strcmp (cat, "syscall") == 0)
            counts->syscall_x++;
          else
            {
              g_assert_cmpstr (cat, ==, "sched");
              g_assert_cmpint (json_object_get_int_member (ev, "pid"), >=,
                               SEISMO_EXPORT_CPU_PID_BASE);
              counts->sched_x++;
            }
        }
      else
        {
          const char *scope = json_object_get_string_member (ev, "s");

          g_assert_cmpstr (ph, ==, "i");
          g_assert_true (g_strv_contains ((const char *[]) { "t", "p", "g", NULL }, scope));
          if (strcmp (scope, "g") == 0)
            counts->global_instants++;
          else
            counts->instants++;
        }
    }
}

static guint
count_finished_spans (SeismoTrace *trace)
{
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  guint finished = 0;

  for (gsize i = 0; i < n_spans; i++)
    finished += spans[i].exit != SEISMO_NO_EVENT;
  return finished;
}

static guint
count_kind (SeismoTrace     *trace,
            SeismoEventKind  kind)
{
  guint n = 0;

  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    n += seismo_trace_event_type (trace, i)->kind == kind;
  return n;
}

static void
check_chrome_counts (SeismoTrace *trace,
                     const char  *path)
{
  ChromeCounts counts;
  guint finished = count_finished_spans (trace);
  gsize n_runs;
  guint n_lost;

  seismo_trace_get_intervals (trace, SEISMO_INTERVAL_RUN, &n_runs);
  parse_chrome (path, &counts);
  g_assert_cmpuint (finished, >, 0);
  g_assert_cmpuint (counts.syscall_x, ==, finished);
  g_assert_cmpuint (counts.sched_x, ==, n_runs);
  /* Everything else is an instant: not the two events of a finished span, not a switch. */
  g_assert_cmpuint (counts.instants, ==, seismo_trace_get_n_events (trace) - 2 * finished
                                          - count_kind (trace, SEISMO_KIND_SCHED_SWITCH));
  seismo_trace_get_lost_events (trace, &n_lost);
  g_assert_cmpuint (counts.global_instants, ==, n_lost);
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      const SeismoTask *task = seismo_trace_get_task (trace, t);

      g_assert_true (g_hash_table_contains (counts.thread_names, GINT_TO_POINTER (task->tid)));
      gint32 pid = task->pid >= 0 ? task->pid : task->tid;

      g_assert_true (g_hash_table_contains (counts.process_names, GINT_TO_POINTER (pid)));
    }
  chrome_counts_clear (&counts);
}

static void
test_chrome_generated (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 11);
  g_autofree char *path = seismo_test_temp_path ("gen.json");
  g_autoptr(GError) error = NULL;
  struct stat st;

  g_assert_true (seismo_trace_save (trace, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  check_chrome_counts (trace, path);
}

static void
test_chrome_awkward (void)
{
  g_autoptr(SeismoTrace) trace = make_awkward_trace ();
  g_autofree char *path = seismo_test_temp_path ("awkward.json");
  g_autoptr(GError) error = NULL;
  ChromeCounts counts;
  SeismoTaskId weird = seismo_trace_find_task (trace, 100, 1000000);

  g_assert_true (seismo_export_chrome_json (trace, NULL, path, &error));
  g_assert_no_error (error);
  check_chrome_counts (trace, path);
  parse_chrome (path, &counts);
  /* 50 calls, the last unfinished; 50 runs of the two tasks. */
  g_assert_cmpuint (counts.syscall_x, ==, 49);
  g_assert_cmpuint (counts.sched_x, ==, 50);
#define NAME_OF(table, id) ((const char *) g_hash_table_lookup (counts.table, GINT_TO_POINTER (id)))
  g_assert_cmpstr (NAME_OF (thread_names, 100), ==, WEIRD_COMM);
  g_assert_cmpstr (NAME_OF (process_names, 100), ==, WEIRD_COMM);
  /* Invalid UTF-8 became U+FFFD, one per bad byte. */
  g_assert_cmpstr (NAME_OF (thread_names, 101), ==, "bad\xef\xbf\xbd\xef\xbf\xbd");
  g_assert_cmpstr (NAME_OF (process_names, SEISMO_EXPORT_CPU_PID_BASE + 1), ==, "CPU 1");
#undef NAME_OF
  g_assert_cmpuint (weird, !=, SEISMO_NO_TASK);
  chrome_counts_clear (&counts);
}

static void
test_chrome_selection (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 5);
  g_autofree char *path = seismo_test_temp_path ("window.json");
  g_autoptr(GError) error = NULL;
  guint64 start = seismo_trace_get_start_ns (trace), end = seismo_trace_get_end_ns (trace);
  SeismoSelection sel = { start + (end - start) / 4, start + (end - start) / 2, NULL };
  const guint64 *times = seismo_trace_get_times (trace);
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  guint expected = 0;
  ChromeCounts counts;

  for (gsize i = 0; i < n_spans; i++)
    expected += spans[i].exit != SEISMO_NO_EVENT && times[spans[i].enter] >= sel.start_ns
                && times[spans[i].enter] <= sel.end_ns;
  g_assert_true (seismo_export_chrome_json (trace, &sel, path, &error));
  g_assert_no_error (error);
  parse_chrome (path, &counts);
  g_assert_cmpuint (counts.syscall_x, ==, expected);
  g_assert_cmpuint (counts.syscall_x, <, count_finished_spans (trace));
  chrome_counts_clear (&counts);
}

/* ---- CSV ---- */

/* An RFC 4180 reader: rows of fields, CRLF line ends, quoted fields with "" for a quote. */
static GPtrArray *
parse_csv (const char *text,
           gsize       len)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GStrvBuilder) row = g_strv_builder_new ();
  g_autoptr(GString) field = g_string_new (NULL);
  gsize i = 0;

  while (i < len)
    {
      if (text[i] == '"')
        {
          for (i++; ; i++)
            {
              g_assert_cmpuint (i, <, len);
              if (text[i] == '"' && i + 1 < len && text[i + 1] == '"')
                {
                  g_string_append_c (field, '"');
                  i++;
                }
              else if (text[i] == '"')
                {
                  i++;
                  break;
                }
              else
                g_string_append_c (field, text[i]);
            }
        }
      else
        while (i < len && text[i] != ',' && text[i] != '\r')
          {
            g_assert_cmpint (text[i], !=, '\n');
            g_assert_cmpint (text[i], !=, '"');
            g_string_append_c (field, text[i++]);
          }
      g_strv_builder_add (row, field->str);
      g_string_truncate (field, 0);
      if (i < len && text[i] == ',')
        i++;
      else
        {
          g_assert_cmpuint (i + 1, <, len);
          g_assert_cmpint (text[i], ==, '\r');
          g_assert_cmpint (text[i + 1], ==, '\n');
          i += 2;
          g_ptr_array_add (rows, g_strv_builder_end (row));
          g_clear_pointer (&row, g_strv_builder_unref);
          row = g_strv_builder_new ();
        }
    }
  return rows;
}

static void
check_csv (SeismoTrace *trace,
           const char  *path)
{
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *header = NULL;
  const guint64 *times = seismo_trace_get_times (trace);

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  g_assert_no_error (error);
  rows = parse_csv (text, len);
  g_assert_cmpuint (rows->len, ==, seismo_trace_get_n_events (trace) + 1);
  header = g_strjoinv (",", g_ptr_array_index (rows, 0));
  g_assert_cmpstr (header, ==, "index,time_ns,cpu,tid,pid,comm,event,fields");

  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i++)
    {
      char **row = g_ptr_array_index (rows, i + 1);
      const SeismoTask *task = seismo_trace_event_task (trace, i);
      g_autofree char *fields = seismo_trace_event_format (trace, i);
      SeismoTaskId task_id = seismo_trace_get_tasks (trace)[i];

      g_assert_cmpuint (g_strv_length (row), ==, 8);
      g_assert_cmpuint (g_ascii_strtoull (row[0], NULL, 10), ==, i);
      g_assert_cmpuint (g_ascii_strtoull (row[1], NULL, 10), ==, times[i]);
      g_assert_cmpuint (g_ascii_strtoull (row[2], NULL, 10), ==, seismo_trace_event_cpu (trace, i));
      g_assert_cmpint (g_ascii_strtoll (row[3], NULL, 10), ==, task->tid);
      g_assert_cmpint (g_ascii_strtoll (row[4], NULL, 10), ==, task->pid);
      g_assert_cmpstr (row[5], ==, seismo_trace_task_comm_at (trace, task_id, times[i]));
      g_assert_cmpstr (row[6], ==, seismo_trace_event_type (trace, i)->full_name);
      g_assert_cmpstr (row[7], ==, fields);
    }
}

static void
test_csv (void)
{
  g_autoptr(SeismoTrace) generated = seismo_test_make_trace (5000, 3);
  g_autoptr(SeismoTrace) awkward = make_awkward_trace ();
  g_autofree char *path1 = seismo_test_temp_path ("gen.csv");
  g_autofree char *path2 = seismo_test_temp_path ("awkward.csv");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (seismo_trace_save (generated, path1, &error));
  g_assert_no_error (error);
  check_csv (generated, path1);

  g_assert_true (seismo_export_csv (awkward, NULL, path2, &error));
  g_assert_no_error (error);
  check_csv (awkward, path2);
  /* The quoting really happened: the comm with a quote, comma and newline is one field. */
  g_assert_true (g_file_get_contents (path2, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, ",\"we\"\"ird,co\nmm\","));
}

static void
test_write_errors (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (100, 1);
  g_autofree char *dir = seismo_test_temp_path ("dir.json");
  g_autofree char *missing = seismo_test_temp_path ("no/such/folder/x.csv");
  g_autofree char *existing = seismo_test_temp_path ("keep.csv");
  g_autoptr(GError) error = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GDir) d = NULL;
  g_autofree char *parent = NULL;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_false (seismo_export_chrome_json (trace, NULL, dir, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, dir));
  g_clear_error (&error);

  g_assert_false (seismo_export_csv (trace, NULL, missing, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "x.csv"));
  g_clear_error (&error);

  /* No temporary files left behind beside a successful export either. */
  g_assert_true (seismo_export_csv (trace, NULL, existing, &error));
  parent = g_path_get_dirname (existing);
  d = g_dir_open (parent, 0, NULL);
  for (const char *name; (name = g_dir_read_name (d)); )
    g_assert_false (g_str_has_prefix (name, "keep.csv."));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export/chrome/generated", test_chrome_generated);
  g_test_add_func ("/export/chrome/awkward", test_chrome_awkward);
  g_test_add_func ("/export/chrome/selection", test_chrome_selection);
  g_test_add_func ("/export/csv", test_csv);
  g_test_add_func ("/export/write-errors", test_write_errors);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test-strace"

/*
 * Every flavour of strace output, from logs strace wrote here (tests/data/strace/, one file per
 * flavour; handmade.strace holds what is hard to provoke, written from strace's documented
 * format) and the real logs of ../shared/samples/realworld: nothing is lost and nothing is made
 * up. Each file's per-syscall counts are checked against a count made here from the text with
 * a regular expression (a different reading than the importer's), and a file without clocks
 * must give no times (seismo-timing.h: JSON null, no histogram).
 */

#include <string.h>

#include "seismo-stacks.h"

#include <json-glib/json-glib.h>

#include "seismo-backend.h"
#include "seismo-compare.h"
#include "seismo-histogram.h"
#include "seismo-importer.h"
#include "seismo-skipped.h"
#include "seismo-stats.h"
#include "seismo-test-util.h"
#include "seismo-timing.h"

typedef struct {
  guint64 calls;     /* finished */
  guint64 errors;
} Count;

/* A call that returned, written whole or as its resumed end: "[pid N<comm>] [time] [-i]
 * name(...) = ret" or "<... name resumed>...) = ret" (ret "? ERESTART..." for a restart). */
static const char call_pattern[] =
  "^(?:\\[pid\\s+\\d+(?:<[^>]*>)?\\]\\s+|\\d+(?:<[^>]*>)?\\s+)?(?:[\\d:.]+\\s+)?(?:\\[[^\\]]*\\]\\s+)*"
  "(?:<\\.\\.\\. (\\w+) resumed>|(\\w+)\\().*\\)\\s+=\\s+(-?[0-9a-fx]+|\\? ERESTART)";

/* The finished calls and errors of each syscall, counted from the text. */
static GHashTable *
count_from_text (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GRegex) re = g_regex_new (call_pattern, G_REGEX_OPTIMIZE, 0, NULL);
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *resumed = NULL, *called = NULL, *ret = NULL;
      const char *name;
      Count *c;

      if (!g_regex_match (re, lines[i], 0, &m) || g_str_has_suffix (lines[i], "<unfinished ...>"))
        continue;
      resumed = g_match_info_fetch (m, 1);
      called = g_match_info_fetch (m, 2);
      ret = g_match_info_fetch (m, 3);
      name = resumed && *resumed ? resumed : called;
      if (!(c = g_hash_table_lookup (counts, name)))
        {
          c = g_new0 (Count, 1);
          g_hash_table_insert (counts, g_strdup (name), c);
        }
      c->calls++;
      /* A restart ("= ? ERESTARTSYS") returned an error too, as strace -c counts it. */
      c->errors += g_str_equal (ret, "-1") || ret[0] == '?';
    }
  return counts;
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

static char *
data_path (const char *name)
{
  return g_build_filename (SEISMO_TEST_DATA, "strace", name, NULL);
}

/* The import's stats equal the text's count, syscall by syscall. */
static void
assert_counts (SeismoTrace *trace,
               GHashTable  *expected)
{
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  guint ours = 0;

  for (guint i = 0; i < stats->len; i++)
    {
      const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);
      Count *c = g_hash_table_lookup (expected, st->name);

      if (st->calls == 0)
        continue;
      ours++;
      if (c == NULL || c->calls != st->calls || c->errors != st->errors)
        g_error ("%s: %" G_GUINT64_FORMAT " calls, %" G_GUINT64_FORMAT " errors imported; the "
                 "text has %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT, st->name, st->calls,
                 st->errors, c ? c->calls : 0, c ? c->errors : 0);
    }
  g_assert_cmpuint (ours, ==, g_hash_table_size (expected));
}

static const struct {
  const char *file;
  const char *timing;        /* metadata "timing"; NULL: fully timed */
  guint64     skipped;       /* lines that may not be read (handmade: one group-stop) */
} flavours[] = {
  { "attach.strace", SEISMO_TIMING_NONE, 0 },
  { "decode-fds-yy.strace", SEISMO_TIMING_NONE, 0 },
  { "decode-pids-s8.strace", SEISMO_TIMING_TIMESTAMPS_ONLY, 0 },
  { "durations-only.strace", SEISMO_TIMING_DURATIONS_ONLY, 0 },
  { "epoch.strace", SEISMO_TIMING_TIMESTAMPS_ONLY, 0 },
  { "handmade.strace", SEISMO_TIMING_NONE, 1 },
  { "killed.strace", SEISMO_TIMING_NONE, 0 },
  { "relative-durations.strace", NULL, 0 },
  { "stacks-ip.strace", SEISMO_TIMING_NONE, 0 },
  { "summary-and-calls.strace", NULL, 0 },
  { "time-of-day.strace", SEISMO_TIMING_TIMESTAMPS_ONLY, 0 },
  { "x-raw.strace", SEISMO_TIMING_NONE, 0 },
  { "x-verbose.strace", SEISMO_TIMING_NONE, 0 },
};

/* Each flavour: read whole, timing as the file has it, counts as its text says. */
static void
test_each_flavour (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (flavours); f++)
    {
      g_autofree char *path = data_path (flavours[f].file);
      g_autoptr(SeismoTrace) trace = open_trace (path);
      g_autoptr(GHashTable) expected = count_from_text (path);
      g_autofree char *skipped = seismo_trace_describe_skipped (trace);

      g_test_message ("%s: %" G_GSIZE_FORMAT " events; %s", flavours[f].file,
                      seismo_trace_get_n_events (trace), skipped ? skipped : "nothing skipped");
      g_assert_cmpuint (seismo_trace_get_n_skipped (trace), ==, flavours[f].skipped);
      g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_TIMING), ==,
                       flavours[f].timing);
      g_assert_cmpuint (g_hash_table_size (expected), >, 0);
      assert_counts (trace, expected);
    }
}

/* -yy: descriptors and results keep their numbers, whatever their decoration holds. */
static void
test_decoded_fds (void)
{
  g_autofree char *path = data_path ("decode-fds-yy.strace");
  g_autoptr(SeismoTrace) trace = open_trace (path);
  gsize n = seismo_trace_get_n_events (trace);
  guint sockets = 0, dups = 0, at_fdcwd = 0;

  for (SeismoEventId e = 0; e < n; e++)
    {
      const char *name = seismo_trace_event_type (trace, e)->full_name;

      if (g_str_equal (name, "syscalls:sys_exit_socket"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, 3);
          sockets++;
        }
      else if (g_str_equal (name, "syscalls:sys_enter_dup2")
               && seismo_test_field_int (trace, e, "oldfd") == 3)
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "newfd"), ==, 1);
          dups++;
        }
      else if (g_str_equal (name, "syscalls:sys_enter_openat"))
        at_fdcwd += seismo_test_field_int (trace, e, "dfd") == -100;
    }
  /* Two UNIX sockets of name lookups, then bash's /dev/tcp one ("3<TCP:[a->b]>"), moved onto
   * stdout ("1</dev/null<char 1:3>>") for `echo >&3`... */
  g_assert_cmpuint (sockets, ==, 3);
  g_assert_cmpuint (dups, >=, 1);
  /* ...and "AT_FDCWD</some/dir>" is AT_FDCWD. */
  g_assert_cmpuint (at_fdcwd, >, 3);
}

/* -k: each block of " > " frames is the stack of the call (its enter event) or signal above it. */
static void
test_stacks (void)
{
  g_autofree char *path = data_path ("stacks-ip.strace");
  g_autoptr(SeismoTrace) trace = open_trace (path);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  gsize n = seismo_trace_get_n_events (trace);
  guint k = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], " > "))
      {
        GString *block = g_string_new (lines[i] + 3);

        while (lines[i + 1] && g_str_has_prefix (lines[i + 1], " > "))
          g_string_append_printf (block, "\n%s", lines[++i] + 3);
        g_ptr_array_add (blocks, g_strsplit (block->str, "\n", -1));
        g_string_free (block, TRUE);
      }
  g_assert_cmpuint (blocks->len, >, 10);
  g_assert_true (seismo_trace_has_stacks (trace));

  for (SeismoEventId e = 0; e < n; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, e);
      SeismoStackId stack = seismo_trace_event_stack (trace, e);
      const SeismoFrameId *frames;
      char **block;
      guint n_frames;

      g_assert_false (g_str_equal (type->full_name, "ptrace:user_stack"));
      if (stack == SEISMO_NO_STACK)
        continue;
      g_assert_true (g_str_has_prefix (type->full_name, "syscalls:sys_enter_")
                     || g_str_equal (type->full_name, "signal:signal_deliver"));
      g_assert_cmpuint (k, <, blocks->len);
      block = g_ptr_array_index (blocks, k);
      n_frames = seismo_trace_stack_frames (trace, stack, &frames);
      g_assert_cmpuint (n_frames, ==, g_strv_length (block));
      for (guint f = 0; f < n_frames; f++)
        {
          const SeismoFrame *frame = seismo_trace_get_frame (trace, frames[f]);
          g_autofree char *expect = NULL;

          g_assert_cmpint (frame->space, ==, SEISMO_FRAME_USER);
          /* "module(function+0xoff) [0xaddr]" */
          if (frame->function)
            expect = g_strdup_printf ("%s(%s+0x%x) [0x%" G_GINT64_MODIFIER "x]", frame->module,
                                      frame->function, frame->offset, frame->address);
          else if (strstr (block[f], "(+0x"))
            expect = g_strdup_printf ("%s(+0x%x) [0x%" G_GINT64_MODIFIER "x]", frame->module,
                                      frame->offset, frame->address);
          else
            expect = g_strdup_printf ("%s() [0x%" G_GINT64_MODIFIER "x]", frame->module, frame->address);
          g_assert_cmpstr (expect, ==, block[f]);
        }
      k++;
    }
  g_assert_cmpuint (k, ==, blocks->len);
}

/* strace and the program on one terminal: the calls the program's output broke are whole. */
static void
test_split_by_output (void)
{
  g_autofree char *path = data_path ("split-by-output.strace");
  g_autoptr(SeismoTrace) trace = open_trace (path);
  gsize n = seismo_trace_get_n_events (trace);
  static const gint64 counts[] = { 6, 6, 1, 1 };
  guint writes = 0;

  g_assert_cmpuint (seismo_trace_get_n_skipped (trace), ==, 0);
  for (SeismoEventId e = 0; e < n; e++)
    {
      const char *name = seismo_trace_event_type (trace, e)->full_name;

      if (g_str_equal (name, "syscalls:sys_enter_write"))
        {
          g_assert_cmpuint (writes, <, G_N_ELEMENTS (counts));
          g_assert_cmpint (seismo_test_field_int (trace, e, "fd"), ==, 1);
          g_assert_cmpint (seismo_test_field_int (trace, e, "count"), ==, counts[writes]);
        }
      else if (g_str_equal (name, "syscalls:sys_exit_write"))
        g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, counts[writes++]);
    }
  g_assert_cmpuint (writes, ==, G_N_ELEMENTS (counts));
}

/* A line broken by more than one line of the program's output, and one that strace left. */
static void
test_split_with_foreign_lines (void)
{
  g_autofree char *path = seismo_test_temp_path ("split.strace");
  /* Enough of strace's own lines for the file to be told strace's. */
  static const char text[] =
    "[pid  10] getpid() = 10\n[pid  11] getpid() = 11\n[pid  10] getpid() = 10\n"
    "[pid  11] getpid() = 11\n[pid  10] getpid() = 10\n[pid  11] getpid() = 11\n"
    "[pid  10] getpid() = 10\n[pid  11] getpid() = 11\n[pid  10] getpid() = 10\n"
    "[pid  10] write(1, \"a\\nb\\nc\\n\", 6a\n"
    "b\n"
    "c\n"
    ")             = 6\n"
    "[pid  10] read(0, typed\n"
    "\"typed\\n\", 1024) = 6\n"
    "[pid  10] write(1, \"x\", 1x <unfinished ...>\n"
    "[pid  11] getpid() = 11\n"
    "[pid  10] <... write resumed>) = 1\n";
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) kinds = NULL;
  gsize n;
  guint writes = 0, reads = 0;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  trace = open_trace (path);
  kinds = seismo_trace_get_skipped (trace);
  /* "b" and "c" were the program's: counted as such, the call is whole. */
  g_assert_cmpuint (kinds->len, ==, 1);
  g_assert_cmpstr (g_array_index (kinds, SeismoSkipped, 0).kind, ==,
                   "lines of the traced program's output");
  g_assert_cmpuint (g_array_index (kinds, SeismoSkipped, 0).count, ==, 2);
  n = seismo_trace_get_n_events (trace);
  for (SeismoEventId e = 0; e < n; e++)
    {
      const char *name = seismo_trace_event_type (trace, e)->full_name;

      if (g_str_equal (name, "syscalls:sys_exit_write"))
        g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, writes++ == 0 ? 6 : 1);
      else if (g_str_equal (name, "syscalls:sys_enter_write") && writes == 1)
        g_assert_cmpint (seismo_test_field_int (trace, e, "count"), ==, 1);
      else if (g_str_equal (name, "syscalls:sys_enter_read"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "fd"), ==, 0);
          g_assert_cmpstr (seismo_test_field_str (trace, e, "buf"), ==, "typed\\n");
          g_assert_cmpint (seismo_test_field_int (trace, e, "count"), ==, 1024);
          reads++;
        }
    }
  g_assert_cmpuint (writes, ==, 2);
  g_assert_cmpuint (reads, ==, 1);
}

/* The hand-written edge cases, field by field. */
static void
test_handmade (void)
{
  g_autofree char *path = data_path ("handmade.strace");
  g_autoptr(SeismoTrace) trace = open_trace (path);
  gsize n = seismo_trace_get_n_events (trace);
  guint seen = 0;

  /* Both attached tasks, the one that never finished a call too. */
  g_assert_cmpuint (seismo_trace_get_n_tasks (trace), ==, 2);
  for (SeismoEventId e = 0; e < n; e++)
    {
      const char *name = seismo_trace_event_type (trace, e)->full_name;

      if (g_str_equal (name, "syscalls:sys_enter_openat"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "dfd"), ==, -100);
          g_assert_cmpstr (seismo_test_field_str (trace, e, "filename"), ==, "x,y");
          seen |= 1;
        }
      else if (g_str_equal (name, "syscalls:sys_exit_openat"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, 3);
          seen |= 2;
        }
      else if (g_str_equal (name, "syscalls:sys_enter_connect"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "fd"), ==, 4);
          g_assert_cmpint (seismo_test_field_int (trace, e, "addrlen"), ==, 110);
          seen |= 4;
        }
      else if (g_str_equal (name, "syscalls:sys_exit_accept4"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, 6);
          seen |= 8;
        }
      else if (g_str_equal (name, "syscalls:sys_exit_fcntl"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, 0x8002);
          seen |= 16;
        }
      else if (g_str_equal (name, "syscalls:sys_exit_nanosleep"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "ret"), ==, -516);
          seen |= 32;
        }
      else if (g_str_equal (name, "sched:sched_process_exit"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "exit_signal"), ==, 11);
          g_assert_cmpint (seismo_test_field_int (trace, e, "core_dumped"), ==, 1);
          seen |= 64;
        }
      else if (g_str_equal (name, "syscalls:sys_enter_read"))
        {
          g_assert_cmpint (seismo_test_field_int (trace, e, "fd"), ==, 0);
          seen |= 128;
        }
    }
  g_assert_cmpuint (seen, ==, 255);
}

/* --decode-pids=comm names the tasks; -s 8 cuts strings with strace's marker. */
static void
test_decode_pids (void)
{
  g_autofree char *path = data_path ("decode-pids-s8.strace");
  g_autoptr(SeismoTrace) trace = open_trace (path);
  gboolean cat = FALSE, cut = FALSE;
  gsize n = seismo_trace_get_n_events (trace);

  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    cat |= g_str_equal (seismo_trace_get_string (trace, seismo_trace_get_task (trace, t)->comm),
                        "cat");
  for (SeismoEventId e = 0; e < n; e++)
    if (g_str_equal (seismo_trace_event_type (trace, e)->full_name, "syscalls:sys_enter_read"))
      cut |= g_str_has_suffix (seismo_test_field_str (trace, e, "buf"), "...");
  g_assert_true (cat);
  g_assert_true (cut);
}

/* strace -c alone: the table is the trace's statistics, figure for figure. */
static void
test_summary_only (void)
{
  static const char *const files[] = { "summary-only.strace", "summary-columns.strace" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = data_path (files[f]);
      g_autoptr(SeismoTrace) trace = open_trace (path);
      g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
      g_autofree char *text = NULL;
      g_auto(GStrv) lines = NULL;
      g_autoptr(GRegex) row = g_regex_new (f == 0
                                             ? "^\\s*[\\d.]+\\s+([\\d.]+)\\s+\\d+\\s+(\\d+)\\s+(\\d*)\\s*(\\w+)$"
                                             : "^(\\w+)\\s+(\\d+)\\s+(\\d*)\\s*([\\d.]+)\\s",
                                           0, 0, NULL);
      guint rows = 0;

      g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, 0);
      g_assert_cmpuint (seismo_trace_get_n_skipped (trace), ==, 0);
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i]; i++)
        {
          g_autoptr(GMatchInfo) m = NULL;
          g_autofree char *name = NULL, *calls = NULL, *errors = NULL, *seconds = NULL;
          gboolean found = FALSE;

          if (!g_regex_match (row, lines[i], 0, &m))
            continue;
          name = g_match_info_fetch (m, f == 0 ? 4 : 1);
          calls = g_match_info_fetch (m, 2);
          errors = g_match_info_fetch (m, 3);
          seconds = g_match_info_fetch (m, f == 0 ? 1 : 4);
          if (g_str_equal (name, "total"))
            continue;
          rows++;
          for (guint s = 0; s < stats->len; s++)
            {
              const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, s);

              if (!g_str_equal (st->name, name))
                continue;
              found = TRUE;
              g_assert_cmpuint (st->calls, ==, g_ascii_strtoull (calls, NULL, 10));
              g_assert_cmpuint (st->errors, ==, g_ascii_strtoull (errors, NULL, 10));
              g_assert_cmpuint (st->total_ns, ==,
                                (guint64) (g_ascii_strtod (seconds, NULL) * 1e9 + 0.5));
              /* The table has no distribution: min, max and percentiles stay unknown. */
              g_assert_cmpuint (st->unknown, ==, SEISMO_STATS_UNKNOWN_DISTRIBUTION);
            }
          if (!found)
            g_error ("%s: %s in the table, not in the statistics", files[f], name);
        }
      g_assert_cmpuint (rows, >, 5);
      g_assert_cmpuint (rows, ==, stats->len);
    }
}

/* Runs seismo-cli with args; its stdout parsed as JSON. */
static JsonNode *
cli_json (const char *const *args)
{
  const char *cli = g_getenv ("SEISMO_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  int status;

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* No clock in the file: no time figures anywhere, the order of events kept. */
static void
test_untimed (void)
{
  g_autofree char *path = data_path ("killed.strace");
  g_autoptr(SeismoTrace) trace = open_trace (path);
  g_autoptr(GArray) stats = seismo_stats_by_syscall (trace, NULL);
  g_autoptr(GArray) samples = seismo_latency_collect (trace, SEISMO_LATENCY_SYSCALL, NULL, -1);
  const guint64 *ts = seismo_trace_get_times (trace);

  g_assert_false (seismo_trace_has_timestamps (trace));
  g_assert_false (seismo_trace_has_durations (trace));
  g_assert_false (seismo_latency_kind_measured (trace, SEISMO_LATENCY_SYSCALL));
  g_assert_cmpuint (samples->len, ==, 0);
  g_assert_cmpuint (stats->len, >, 5);
  for (guint i = 0; i < stats->len; i++)
    {
      const SeismoSyscallStats *st = &g_array_index (stats, SeismoSyscallStats, i);

      g_assert_cmpuint (st->unknown, ==, SEISMO_STATS_UNKNOWN_TIME | SEISMO_STATS_UNKNOWN_DISTRIBUTION);
      g_assert_cmpuint (st->total_ns, ==, 0);
      g_assert_cmpuint (st->max_ns, ==, 0);
    }
  for (gsize e = 1; e < seismo_trace_get_n_events (trace); e++)
    g_assert_cmpuint (ts[e - 1], <=, ts[e]);

  if (g_getenv ("SEISMO_CLI") == NULL)
    {
      g_test_skip ("SEISMO_CLI is not set (run under meson test)");
      return;
    }
  {
    const char *args[] = { "stats", "--by", "syscall", "--json", path, NULL };
    g_autoptr(JsonNode) root = cli_json (args);
    JsonObject *o = json_node_get_object (root);
    JsonArray *rows = json_object_get_array_member (o, "syscalls");
    JsonObject *first = json_array_get_object_element (rows, 0);

    g_assert_true (json_object_get_null_member (first, "total_ns"));
    g_assert_true (json_object_get_null_member (first, "p99_ns"));
    g_assert_true (json_object_get_null_member (first, "percent_time"));
    g_assert_cmpint (json_object_get_int_member (first, "calls"), >, 0);
    g_assert_true (json_object_get_null_member (o, "total_ns"));
    g_assert_true (json_object_get_null_member (json_object_get_object_member (o, "latency"),
                                                "syscall"));
  }
  {
    const char *args[] = { "hist", "--json", path, NULL };
    g_autoptr(JsonNode) root = cli_json (args);
    JsonObject *o = json_node_get_object (root);

    g_assert_true (json_object_get_null_member (o, "count"));
    g_assert_true (json_object_get_null_member (o, "buckets"));
    g_assert_nonnull (strstr (json_object_get_string_member (o, "note"), "timing: none"));
  }
  {
    const char *args[] = { "info", "--json", path, NULL };
    g_autoptr(JsonNode) root = cli_json (args);
    JsonObject *o = json_node_get_object (root);

    g_assert_true (json_object_get_null_member (o, "duration_ns"));
  }
}

/* Comparing a log without timing: counts only, times neither shown nor counted as changes. */
static void
test_compare_untimed (void)
{
  g_autofree char *untimed_path = data_path ("killed.strace");
  g_autofree char *timed_path = data_path ("relative-durations.strace");
  g_autoptr(SeismoTrace) untimed = open_trace (untimed_path);
  g_autoptr(SeismoTrace) timed = open_trace (timed_path);
  g_autoptr(SeismoComparison) self_cmp = seismo_compare_traces (untimed, NULL, untimed, NULL);
  g_autoptr(SeismoComparison) cmp = seismo_compare_traces (untimed, NULL, timed, NULL);

  g_assert_false (cmp->info_a.durations);
  g_assert_false (cmp->info_a.timestamps);
  g_assert_true (cmp->info_b.durations);
  g_assert_true (cmp->total.time_unknown);
  g_assert_cmpuint (cmp->total.a[SEISMO_COMPARE_P99_NS], ==, 0);
  g_assert_cmpuint (cmp->total.b[SEISMO_COMPARE_P99_NS], >, 0);
  /* A trace against itself does not differ, times unknown or not. */
  g_assert_false (seismo_comparison_differs (self_cmp));
  /* Only the counts can make a row differ here. */
  for (guint i = 0; i < cmp->rows->len; i++)
    {
      SeismoCompareRow row = g_array_index (cmp->rows, SeismoCompareRow, i);

      if (!row.in_a || !row.in_b)
        continue;
      row.b[SEISMO_COMPARE_CALLS] = row.a[SEISMO_COMPARE_CALLS];
      row.b[SEISMO_COMPARE_ERRORS] = row.a[SEISMO_COMPARE_ERRORS];
      g_assert_false (seismo_compare_row_differs (&row));
    }
}

/* The shared real logs, when the checkout has them. */
static char *
realworld_path (const char *name)
{
  g_autofree char *path = g_build_filename (SEISMO_SOURCE_ROOT, "..", "shared", "samples",
                                            "realworld", name, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *why = g_strdup_printf ("%s is not there (../shared/samples/realworld "
                                              "beside the source tree)", path);

      g_test_skip (why);
      return NULL;
    }
  return g_steal_pointer (&path);
}

/* strace -f of asterisk: 78 threads, no clock. */
static void
test_realworld_untimed (void)
{
  g_autofree char *path = realworld_path ("strace-f-asterisk-zicada.txt");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GHashTable) expected = NULL;

  if (path == NULL)
    return;
  trace = open_trace (path);
  expected = count_from_text (path);
  g_assert_cmpuint (seismo_trace_get_n_tasks (trace), ==, 78);
  g_assert_cmpuint (seismo_trace_get_n_skipped (trace), ==, 0);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_TIMING), ==, SEISMO_TIMING_NONE);
  g_assert_false (seismo_trace_has_durations (trace));
  assert_counts (trace, expected);
}

/* strace -f -tt -T -v of ls -l: timed throughout; durations as -T says. */
static void
test_realworld_timed (void)
{
  g_autofree char *path = realworld_path ("strace-f-tt-T-anurp.txt");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GHashTable) expected = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GRegex) dur = g_regex_new (" <(\\d+)\\.(\\d{6})>$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autoptr(GArray) stats = NULL;
  guint64 sum_text = 0, sum_stats = 0;

  if (path == NULL)
    return;
  trace = open_trace (path);
  expected = count_from_text (path);
  g_assert_cmpuint (seismo_trace_get_n_skipped (trace), ==, 0);
  g_assert_null (seismo_trace_get_metadata (trace, SEISMO_META_TIMING));
  assert_counts (trace, expected);

  /* Time in calls: the sum of -T's durations of the finished calls. */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (g_regex_match (dur, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *s = g_match_info_fetch (m, 1), *us = g_match_info_fetch (m, 2);

      sum_text += g_ascii_strtoull (s, NULL, 10) * 1000000000 + g_ascii_strtoull (us, NULL, 10) * 1000;
    }
  stats = seismo_stats_by_syscall (trace, NULL);
  for (guint i = 0; i < stats->len; i++)
    sum_stats += g_array_index (stats, SeismoSyscallStats, i).total_ns;
  g_assert_cmpuint (sum_text, >, 0);
  g_assert_cmpuint (sum_stats, ==, sum_text);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  seismo_backends_init ();

  g_test_add_func ("/strace-flavours/each", test_each_flavour);
  g_test_add_func ("/strace-flavours/decoded-fds", test_decoded_fds);
  g_test_add_func ("/strace-flavours/stacks", test_stacks);
  g_test_add_func ("/strace-flavours/split-by-output", test_split_by_output);
  g_test_add_func ("/strace-flavours/split-with-foreign-lines", test_split_with_foreign_lines);
  g_test_add_func ("/strace-flavours/handmade", test_handmade);
  g_test_add_func ("/strace-flavours/decode-pids", test_decode_pids);
  g_test_add_func ("/strace-flavours/summary-only", test_summary_only);
  g_test_add_func ("/strace-flavours/untimed", test_untimed);
  g_test_add_func ("/strace-flavours/compare-untimed", test_compare_untimed);
  g_test_add_func ("/strace-flavours/realworld-untimed", test_realworld_untimed);
  g_test_add_func ("/strace-flavours/realworld-timed", test_realworld_timed);
  return g_test_run ();
}

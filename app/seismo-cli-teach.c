/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-compare.h"
#include "seismo-explain.h"
#include "seismo-importer.h"
#include "seismo-lesson.h"
#include "seismo-syscalls.h"

/* The teaching commands: explain, compare, compare-overhead. */

static SeismoTrace *
load (const char *path,
      const char *arch)
{
  g_autoptr(GError) error = NULL;
  SeismoTrace *trace = seismo_trace_open (path, NULL, NULL, NULL, &error);

  if (trace == NULL)
    g_printerr ("seismo-cli: %s\n", error->message);
  else if (!seismo_cli_apply_arch (trace, arch, "seismo-cli"))
    g_clear_object (&trace);
  return trace;
}

/* "850ns", "12.3us", "4.56ms", "1.23s": short enough for table columns. */
static char *
short_duration (guint64 ns)
{
  if (ns >= 1000000000ull)
    return g_strdup_printf ("%.2fs", ns / 1e9);
  if (ns >= 1000000ull)
    return g_strdup_printf ("%.2fms", ns / 1e6);
  if (ns >= 1000ull)
    return g_strdup_printf ("%.1fus", ns / 1e3);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "ns", ns);
}

/* ---- explain ---- */

/* Finds what NAME is: a syscall, system:event, an errno name or number, or state letters. */
static GPtrArray *
explain_one (const char *name)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) seismo_explanation_free);
  const char *colon = strchr (name, ':');
  SeismoExplanation *e;
  char *end = NULL;
  gint64 number;

  if (colon != NULL)
    {
      g_autofree char *system = g_strndup (name, colon - name);

      if ((e = seismo_explain_event (system, colon + 1)))
        g_ptr_array_add (out, e);
      return out;
    }
  if ((e = seismo_explain_syscall (name)))
    g_ptr_array_add (out, e);
  if (seismo_errno_from_name (name) != 0
      && (e = seismo_explain_errno (seismo_errno_from_name (name))))
    g_ptr_array_add (out, e);
  number = g_ascii_strtoll (name, &end, 10);
  if (end != name && *end == '\0'
      && (e = seismo_explain_errno ((int) CLAMP (number, -100000, 100000))))
    g_ptr_array_add (out, e);
  if (out->len == 0 && (e = seismo_explain_sched_state (name)))
    g_ptr_array_add (out, e);
  return out;
}

static void
explanation_json (JsonBuilder             *b,
                  const char              *asked,
                  const SeismoExplanation *e)
{
  static const char *const kinds[] = { "syscall", "event", "errno", "state" };

  json_builder_begin_object (b);
  seismo_cli_json_string (b, "name", asked);
  seismo_cli_json_string (b, "kind", kinds[e->kind]);
  seismo_cli_json_string (b, "title", e->title);
  seismo_cli_json_string (b, "summary", e->summary);
  json_builder_set_member_name (b, "description");
  json_builder_add_string_value (b, e->description);
  json_builder_set_member_name (b, "note");
  json_builder_add_string_value (b, e->note);
  json_builder_set_member_name (b, "items");
  json_builder_begin_array (b);
  for (guint i = 0; i < e->n_items; i++)
    {
      json_builder_begin_object (b);
      seismo_cli_json_string (b, "name", e->items[i].name);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, e->items[i].type);
      json_builder_set_member_name (b, "description");
      json_builder_add_string_value (b, e->items[i].description);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "man_page");
  json_builder_add_string_value (b, e->man_page);
  json_builder_set_member_name (b, "url");
  json_builder_add_string_value (b, e->web_url);
  json_builder_end_object (b);
}

/* A negative errno ("-2") is a name to explain, not an option: such words are marked before
 * GOption sees them and unmarked after, so that every real option (--json, a mistyped --jsn) is
 * parsed as one in any place. */
#define NUMBER_MARK '\x1f'

int
seismo_cli_explain (int    argc,
                    char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON: an array of explanations"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new (N_("NAME… - explain a syscall (openat), tracepoint (sched:sched_switch), "
                             "errno (ENOENT, -2) or task state (R+)"));
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char **parsed = NULL;
  int status = SEISMO_EXIT_OK;
  int n;

  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];

      if (i > 0 && a[0] == '-' && g_ascii_isdigit (a[1]) && strspn (a + 1, "0123456789") == strlen (a + 1))
        g_ptr_array_add (args, g_strdup_printf ("%c%s", NUMBER_MARK, a));
      else
        g_ptr_array_add (args, g_strdup (a));
    }
  g_ptr_array_add (args, NULL);
  /* GOption removes what it parses from the array it is given: parse a copy of the pointers. */
  n = (int) args->len - 1;
  parsed = g_memdup2 (args->pdata, args->len * sizeof (char *));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!seismo_cli_parse_options (context, &n, &parsed, g_get_prgname ()))
    return SEISMO_EXIT_USAGE;
  if (n < 2)
    {
      g_printerr (_("seismo-cli explain: say what to explain, e.g. openat, sched:sched_switch, "
                    "ENOENT or R+\n"));
      return SEISMO_EXIT_USAGE;
    }
  json_builder_begin_array (b);
  for (int i = 1; i < n; i++)
    {
      const char *name = parsed[i][0] == NUMBER_MARK ? parsed[i] + 1 : parsed[i];
      g_autoptr(GPtrArray) found = explain_one (name);

      if (found->len == 0)
        {
          g_printerr (_("seismo-cli explain: nothing known about '%s'\n"), name);
          status = SEISMO_EXIT_FAILED;
          continue;
        }
      for (guint k = 0; k < found->len; k++)
        {
          if (json)
            explanation_json (b, name, g_ptr_array_index (found, k));
          else
            {
              g_autofree char *text = seismo_explanation_to_text (g_ptr_array_index (found, k));

              g_print ("%s%s", i > 1 || k > 0 ? "\n" : "", text);
            }
        }
    }
  json_builder_end_array (b);
  if (json)
    seismo_cli_print_json (b);
  return status;
}

/* ---- compare ---- */

static void
json_trace_info (JsonBuilder                  *b,
                 const char                   *file,
                 const SeismoCompareTraceInfo *info)
{
  json_builder_begin_object (b);
  seismo_cli_json_string (b, "file", file);
  seismo_cli_json_int (b, "events", info->events);
  json_builder_set_member_name (b, "duration_ns");
  if (info->timestamps)
    json_builder_add_int_value (b, info->duration_ns);
  else
    json_builder_add_null_value (b);
  seismo_cli_json_int (b, "syscalls", info->syscalls);
  seismo_cli_json_int (b, "lost_events", info->lost_events);
  seismo_cli_json_int (b, "tasks", info->tasks);
  seismo_cli_json_int (b, "cpus", info->cpus);
  json_builder_end_object (b);
}

/* Was metric m measured on side (0: A, 1: B, 2: both)? Times of a trace without durations
 * were not (seismo-timing.h). */
static gboolean
measured (const SeismoComparison *cmp,
          SeismoCompareMetric     m,
          guint                   side)
{
  gboolean a = cmp->info_a.durations, b = cmp->info_b.durations;

  if (!seismo_compare_metric_is_time (m))
    return TRUE;
  return side == 0 ? a : side == 1 ? b : a && b;
}

static void
json_row (JsonBuilder            *b,
          const SeismoComparison *cmp,
          const SeismoCompareRow *row)
{
  json_builder_begin_object (b);
  seismo_cli_json_string (b, "name", row->name);
  json_builder_set_member_name (b, "in_a");
  json_builder_add_boolean_value (b, row->in_a);
  json_builder_set_member_name (b, "in_b");
  json_builder_add_boolean_value (b, row->in_b);
  json_builder_set_member_name (b, "differs");
  json_builder_add_boolean_value (b, seismo_compare_row_differs (row));
  for (guint part = 0; part < 4; part++)
    {
      static const char *const parts[] = { "a", "b", "diff", "relative" };

      json_builder_set_member_name (b, parts[part]);
      json_builder_begin_object (b);
      for (SeismoCompareMetric m = 0; m < SEISMO_COMPARE_N_METRICS; m++)
        {
          json_builder_set_member_name (b, seismo_compare_metric_name (m));
          if (!measured (cmp, m, MIN (part, 2)))
            json_builder_add_null_value (b);
          else if (part == 0)
            json_builder_add_int_value (b, row->a[m]);
          else if (part == 1)
            json_builder_add_int_value (b, row->b[m]);
          else if (part == 2)
            json_builder_add_int_value (b, seismo_compare_row_diff (row, m));
          else
            {
              double rel = seismo_compare_row_relative (row, m);

              /* JSON has no infinity: null means "only in B". */
              if (isfinite (rel))
                json_builder_add_double_value (b, rel);
              else
                json_builder_add_null_value (b);
            }
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

/* "+12.5%", "-3.0%", "0%", "new" (only in B), "gone" (only in A). */
static char *
relative_text (const SeismoCompareRow *row,
               SeismoCompareMetric     m)
{
  double rel = seismo_compare_row_relative (row, m);

  if (row->a[m] == row->b[m])
    return g_strdup ("0%");
  if (!isfinite (rel))
    return g_strdup ("new");
  if (row->b[m] == 0)
    return g_strdup ("gone");
  if (fabs (rel) < 0.0005)
    return g_strdup ("~0%");
  return g_strdup_printf ("%+.1f%%", rel * 100.0);
}

static void
print_row (const SeismoComparison *cmp,
           const SeismoCompareRow *row)
{
  static const SeismoCompareMetric latency[] = {
    SEISMO_COMPARE_AVG_NS, SEISMO_COMPARE_P50_NS, SEISMO_COMPARE_P90_NS, SEISMO_COMPARE_P99_NS,
  };
  g_autoptr(GString) line = g_string_new (NULL);

  g_string_append_printf (line, "%c %-18s %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
                          " %+9" G_GINT64_FORMAT,
                          seismo_compare_row_differs (row) ? '*' : ' ', row->name,
                          row->a[SEISMO_COMPARE_CALLS], row->b[SEISMO_COMPARE_CALLS],
                          seismo_compare_row_diff (row, SEISMO_COMPARE_CALLS));
  for (guint i = 0; i < G_N_ELEMENTS (latency); i++)
    {
      g_autofree char *a = measured (cmp, latency[i], 0) ? short_duration (row->a[latency[i]])
                                                          : g_strdup ("—");
      g_autofree char *b = measured (cmp, latency[i], 1) ? short_duration (row->b[latency[i]])
                                                          : g_strdup ("—");
      g_autofree char *rel = measured (cmp, latency[i], 2) ? relative_text (row, latency[i])
                                                            : g_strdup ("—");

      g_string_append_printf (line, " | %8s %8s %7s", a, b, rel);
    }
  g_print ("%s\n", line->str);
}

int
seismo_cli_compare (int    argc,
                    char **argv)
{
  gboolean json = FALSE;
  g_autofree char *arch = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    SEISMO_CLI_ARCH_ENTRY (arch),
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new (N_("A B - compare syscall counts and latencies of two traces "
                             "(A is the baseline)"));
  g_autoptr(SeismoTrace) a = NULL;
  g_autoptr(SeismoTrace) b = NULL;
  g_autoptr(SeismoComparison) cmp = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!seismo_cli_parse_options (context, &argc, &argv, g_get_prgname ()))
    return SEISMO_EXIT_USAGE;
  if (argc != 3)
    {
      g_printerr (_("seismo-cli compare: expected two traces, A and B\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (!(a = load (argv[1], arch)) || !(b = load (argv[2], arch)))
    return SEISMO_EXIT_FAILED;

  cmp = seismo_compare_traces (a, NULL, b, NULL);
  if (json)
    {
      g_autoptr(JsonBuilder) jb = json_builder_new ();

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "a");
      json_trace_info (jb, argv[1], &cmp->info_a);
      json_builder_set_member_name (jb, "b");
      json_trace_info (jb, argv[2], &cmp->info_b);
      json_builder_set_member_name (jb, "differs");
      json_builder_add_boolean_value (jb, seismo_comparison_differs (cmp));
      json_builder_set_member_name (jb, "total");
      json_row (jb, cmp, &cmp->total);
      json_builder_set_member_name (jb, "syscalls");
      json_builder_begin_array (jb);
      for (guint i = 0; i < cmp->rows->len; i++)
        json_row (jb, cmp, &g_array_index (cmp->rows, SeismoCompareRow, i));
      json_builder_end_array (jb);
      json_builder_end_object (jb);
      seismo_cli_print_json (jb);
      return SEISMO_EXIT_OK;
    }

  for (guint side = 0; side < 2; side++)
    {
      const SeismoCompareTraceInfo *info = side ? &cmp->info_b : &cmp->info_a;
      SeismoTrace *t = side ? b : a;
      g_autofree char *dur = info->timestamps ? short_duration (info->duration_ns)
                                              : g_strdup ("no timestamps");
      const char *source = seismo_trace_get_metadata (t, SEISMO_META_SOURCE);

      g_print ("%s: %s (%s, %" G_GUINT64_FORMAT " events, %s, %" G_GUINT64_FORMAT " syscalls, %"
               G_GUINT64_FORMAT " lost)\n", side ? "B" : "A", argv[side + 1],
               source ? source : seismo_trace_get_metadata (t, "format"), info->events, dur,
               info->syscalls, info->lost_events);
    }
  g_print ("\n  %-18s %9s %9s %9s | %-25s | %-25s | %-25s | %-25s\n", "", "calls A", "calls B",
           "change", "avg  A -> B", "p50  A -> B", "p90  A -> B", "p99  A -> B");
  for (guint i = 0; i < cmp->rows->len; i++)
    print_row (cmp, &g_array_index (cmp->rows, SeismoCompareRow, i));
  {
    g_autofree char *rule = g_strnfill (148, '-');

    g_print ("  %s\n", rule);
  }
  print_row (cmp, &cmp->total);
  if (cmp->total.time_unknown)
    g_print ("\n— %s no syscall durations: only counts are compared.\n",
             !cmp->info_a.durations && !cmp->info_b.durations ? "Neither trace has"
             : !cmp->info_a.durations ? "A has" : "B has");
  if (seismo_comparison_differs (cmp))
    g_print (_("\n* differs. Changes are B relative to A; rows sorted by the change in total "
               "time.\n"));
  else
    g_print (_("\nNo differences.\n"));
  return SEISMO_EXIT_OK;
}

/* ---- compare-overhead ---- */

typedef struct {
  const char          *name;
  const SeismoBackend *backend;      /* NULL: the bare run */
  char                *unavailable;  /* why it cannot run here; NULL when it can */
  char                *error;        /* why a run failed; the row stops there */
  GArray              *wall_ns;      /* guint64 per run: the command's own wall time */
  GArray              *total_ns;     /* guint64 per run: the whole recording, set-up included */
  GArray              *events;
  GArray              *lost;
  int                  exit_status;  /* wait status of the last run */
} OverheadRow;

static void
overhead_row_clear (gpointer data)
{
  OverheadRow *row = data;

  g_free (row->unavailable);
  g_free (row->error);
  g_clear_pointer (&row->wall_ns, g_array_unref);
  g_clear_pointer (&row->total_ns, g_array_unref);
  g_clear_pointer (&row->events, g_array_unref);
  g_clear_pointer (&row->lost, g_array_unref);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static guint64
median (GArray *values)
{
  g_autoptr(GArray) sorted = NULL;

  if (values == NULL || values->len == 0)
    return 0;
  sorted = g_array_copy (values);
  g_array_sort (sorted, compare_u64);
  if (sorted->len % 2)
    return g_array_index (sorted, guint64, sorted->len / 2);
  return (g_array_index (sorted, guint64, sorted->len / 2 - 1)
          + g_array_index (sorted, guint64, sorted->len / 2)) / 2;
}

/* The timing wrapper sits beside seismo-cli in the build tree; installed, in libexecdir. */
static char *
find_timed_run (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  g_autofree char *beside = dir ? g_build_filename (dir, "seismo-timed-run", NULL) : NULL;
  g_autofree char *installed = g_build_filename (SEISMO_LIBEXECDIR, "seismo-timed-run", NULL);

  if (beside && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&beside);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  return NULL;
}

static gboolean
read_result (const char  *path,
             guint64     *wall_ns,
             int         *status,
             GError     **error)
{
  g_autofree char *text = NULL;
  gint64 ns;
  int st;

  if (!g_file_get_contents (path, &text, NULL, NULL)
      || sscanf (text, "%" G_GINT64_FORMAT " %d", &ns, &st) != 2 || ns < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("the command was not run (the timing wrapper wrote no result)"));
      return FALSE;
    }
  *wall_ns = (guint64) ns;
  *status = st;
  return TRUE;
}

/* One run of the command, bare or recorded by row->backend. The recording is kept in memory only
 * for its counts. */
static gboolean
run_once (OverheadRow  *row,
          char        **wrapped,
          const char   *result_path,
          gboolean     *interrupted,
          GError      **error)
{
  gint64 t0, t1;
  guint64 wall, events = 0, lost = 0;
  int status = 0;

  g_unlink (result_path);
  t0 = g_get_monotonic_time ();
  if (row->backend == NULL)
    {
      if (!g_spawn_sync (NULL, wrapped, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                         &status, error))
        return FALSE;
    }
  else
    {
      SeismoTraceBuilder *builder = seismo_trace_builder_new ();
      SeismoRecordOptions options = { 0 };
      SeismoRecordControl ctl = { .exit_status = -1 };
      g_autoptr(SeismoTrace) trace = NULL;

      options.argv = wrapped;
      options.kill_on_stop = TRUE;
      if (!seismo_cli_record_into (row->backend, &options, builder, &ctl, error))
        {
          seismo_trace_builder_free (builder);
          return FALSE;
        }
      if (g_atomic_int_get (&ctl.stop))
        *interrupted = TRUE;
      trace = seismo_trace_builder_finish (builder);
      events = seismo_trace_get_n_events (trace);
      lost = seismo_trace_get_n_lost_events (trace);
    }
  t1 = g_get_monotonic_time ();
  if (*interrupted)
    return TRUE;
  if (!read_result (result_path, &wall, &row->exit_status, error))
    return FALSE;

  g_array_append_val (row->wall_ns, wall);
  {
    guint64 total = (guint64) (t1 - t0) * 1000;

    g_array_append_val (row->total_ns, total);
  }
  g_array_append_val (row->events, events);
  g_array_append_val (row->lost, lost);
  return TRUE;
}

static void
add_row (GArray              *rows,
         const char          *name,
         const SeismoBackend *backend,
         char                *unavailable)
{
  OverheadRow row = { 0 };

  row.name = name;
  row.backend = backend;
  row.unavailable = unavailable;
  row.wall_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  row.total_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  row.events = g_array_new (FALSE, FALSE, sizeof (guint64));
  row.lost = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (rows, row);
}

static double
slowdown (const OverheadRow *row,
          guint64            bare_ns)
{
  return bare_ns ? (double) median (row->wall_ns) / (double) bare_ns : 0.0;
}

static void
print_overhead_json (GArray  *rows,
                     char   **command,
                     int      runs,
                     gboolean quiet)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint64 bare = median (g_array_index (rows, OverheadRow, 0).wall_ns);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "command");
  json_builder_begin_array (b);
  for (guint i = 0; command[i]; i++)
    json_builder_add_string_value (b, command[i]);
  json_builder_end_array (b);
  seismo_cli_json_int (b, "runs", runs);
  json_builder_set_member_name (b, "output_hidden");
  json_builder_add_boolean_value (b, quiet);
  json_builder_set_member_name (b, "results");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const OverheadRow *row = &g_array_index (rows, OverheadRow, i);

      json_builder_begin_object (b);
      seismo_cli_json_string (b, "name", row->name);
      json_builder_set_member_name (b, "available");
      json_builder_add_boolean_value (b, row->unavailable == NULL);
      if (row->unavailable)
        {
          seismo_cli_json_string (b, "reason", row->unavailable);
          json_builder_end_object (b);
          continue;
        }
      json_builder_set_member_name (b, "ok");
      json_builder_add_boolean_value (b, row->error == NULL);
      if (row->error)
        seismo_cli_json_string (b, "error", row->error);
      json_builder_set_member_name (b, "wall_ns");
      json_builder_begin_array (b);
      for (guint r = 0; r < row->wall_ns->len; r++)
        json_builder_add_int_value (b, g_array_index (row->wall_ns, guint64, r));
      json_builder_end_array (b);
      if (row->wall_ns->len > 0)
        {
          seismo_cli_json_int (b, "wall_ns_median", median (row->wall_ns));
          seismo_cli_json_int (b, "total_ns_median", median (row->total_ns));
          json_builder_set_member_name (b, "slowdown");
          json_builder_add_double_value (b, slowdown (row, bare));
          seismo_cli_json_int (b, "events", median (row->events));
          seismo_cli_json_int (b, "lost_events", median (row->lost));
          seismo_cli_json_int (b, "exit_status", WIFEXITED (row->exit_status)
                                                   ? WEXITSTATUS (row->exit_status)
                                                   : 128 + WTERMSIG (row->exit_status));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

static void
print_overhead_text (GArray  *rows,
                     char   **command,
                     int      runs,
                     gboolean quiet)
{
  const int width = 50;
  g_autofree char *cmdline = g_strjoinv (" ", command);
  guint64 bare = median (g_array_index (rows, OverheadRow, 0).wall_ns);
  double top = 1.0;

  g_print (_("Overhead of recording: %s\n"), cmdline);
  g_print (g_dngettext (GETTEXT_PACKAGE, "(median of %d run each; wall time of the command itself%s)\n\n",
                        "(median of %d runs each; wall time of the command itself%s)\n\n", runs), runs,
           quiet ? _(", its output hidden") : "");
  g_print ("%-8s %12s %9s %10s %8s %14s\n", "", _("wall time"), _("slowdown"), _("events"), _("lost"),
           _("tracer total"));
  for (guint i = 0; i < rows->len; i++)
    {
      const OverheadRow *row = &g_array_index (rows, OverheadRow, i);
      g_autofree char *wall = NULL;
      g_autofree char *total = NULL;

      if (row->unavailable)
        {
          g_print (_("%-8s unavailable: %s\n"), row->name, row->unavailable);
          continue;
        }
      if (row->wall_ns->len == 0)
        {
          g_print (_("%-8s failed: %s\n"), row->name, row->error ? row->error : _("no run finished"));
          continue;
        }
      wall = short_duration (median (row->wall_ns));
      total = short_duration (median (row->total_ns));
      top = MAX (top, slowdown (row, bare));
      if (row->backend == NULL)
        g_print ("%-8s %12s %8.2fx %10s %8s %14s\n", row->name, wall, 1.0, "-", "-", total);
      else
        g_print ("%-8s %12s %8.2fx %10" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %14s\n",
                 row->name, wall, slowdown (row, bare), median (row->events), median (row->lost),
                 total);
      if (row->error)
        g_print (_("%-8s (a later run failed: %s)\n"), "", row->error);
    }

  g_print (_("\nSlowdown of the command (wall time / bare):\n"));
  for (guint i = 0; i < rows->len; i++)
    {
      const OverheadRow *row = &g_array_index (rows, OverheadRow, i);
      g_autofree char *bar = NULL;
      double s;
      int len;

      if (row->unavailable || row->wall_ns->len == 0)
        continue;
      s = slowdown (row, bare);
      len = CLAMP ((int) lround (s / top * width), 1, width);
      bar = g_strnfill (len, '#');
      g_print ("%-8s %-*s %6.2fx\n", row->name, width, bar, s);
    }
  g_print (_("\n'tracer total' includes starting and stopping the recorder; 'events' counts what it "
             "captured of the command%s.\n"), _(" (and of the small timing wrapper around it)"));
}

int
seismo_cli_compare_overhead (int    argc,
                             char **argv)
{
  gint runs = 5;
  gboolean json = FALSE, show_output = FALSE;
  g_auto(GStrv) only = NULL;
  g_auto(GStrv) command = NULL;
  GOptionEntry entries[] = {
    { "runs", 'n', 0, G_OPTION_ARG_INT, &runs,
      N_("Runs per backend; the median counts (default 5)"), "N" },
    { "backend", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &only,
      N_("Only these backends (repeat or a,b)"), "NAME" },
    { "show-output", 0, 0, G_OPTION_ARG_NONE, &show_output,
      N_("Let the command print (default: hidden)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &command, NULL, "-- CMD ARGS…" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new (N_("- run a command bare and under each backend, and show what tracing "
                             "costs"));
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (OverheadRow));
  g_autofree char *timed_run = NULL;
  g_autofree char *tmpdir = NULL;
  g_autofree char *result_path = NULL;
  g_autofree char *program = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) wb = NULL;
  g_auto(GStrv) wrapped = NULL;
  g_auto(GStrv) wanted = NULL;
  const char *const *unbuilt = seismo_backends_get_unbuilt ();
  guint n_backends;
  const SeismoBackend *const *backends = seismo_backends_get (&n_backends);
  gboolean interrupted = FALSE;

  g_array_set_clear_func (rows, overhead_row_clear);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, FALSE);
  if (!seismo_cli_parse_options (context, &argc, &argv, g_get_prgname ()))
    return SEISMO_EXIT_USAGE;
  if (command == NULL || command[0] == NULL)
    {
      g_printerr (_("seismo-cli compare-overhead: say what to run: -- CMD ARGS…\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (runs < 1 || runs > 1000)
    {
      g_printerr (_("seismo-cli compare-overhead: --runs takes 1 to 1000\n"));
      return SEISMO_EXIT_USAGE;
    }
  if (!(program = g_find_program_in_path (command[0])))
    {
      g_printerr (_("seismo-cli compare-overhead: %s: command not found\n"), command[0]);
      return SEISMO_EXIT_USAGE;
    }
  if (!(timed_run = find_timed_run ()))
    {
      g_printerr (_("seismo-cli compare-overhead: the helper seismo-timed-run is missing (looked "
                    "beside seismo-cli and in %s)\n"), SEISMO_LIBEXECDIR);
      return SEISMO_EXIT_FAILED;
    }
  if (!(tmpdir = g_dir_make_tmp ("seismo-overhead-XXXXXX", &error)))
    {
      g_printerr (_("seismo-cli compare-overhead: %s\n"), error->message);
      return SEISMO_EXIT_FAILED;
    }
  result_path = g_build_filename (tmpdir, "result", NULL);

  wb = g_strv_builder_new ();
  g_strv_builder_add_many (wb, timed_run, result_path, show_output ? "0" : "1", "--", program,
                           NULL);
  for (guint i = 1; command[i]; i++)
    g_strv_builder_add (wb, command[i]);
  wrapped = g_strv_builder_end (wb);

  /* Which backends: all registered ones (or those asked for), and the ones not built in. */
  wanted = seismo_cli_split_list (only);
  for (guint i = 0; wanted[i]; i++)
    if (!seismo_backend_lookup (wanted[i]) && !g_strv_contains (unbuilt, wanted[i]))
      {
        g_printerr (_("seismo-cli compare-overhead: no backend named '%s'\n"), wanted[i]);
        return SEISMO_EXIT_USAGE;
      }
  add_row (rows, "bare", NULL, NULL);
  for (guint i = 0; i < n_backends; i++)
    {
      char *why = NULL;

      if (wanted[0] && !g_strv_contains ((const char *const *) wanted, backends[i]->name))
        continue;
      /* Each run launches the command: a backend that only attaches has no row to show. */
      if (!seismo_backend_can (backends[i], SEISMO_BACKEND_CAP_COMMAND))
        why = g_strdup (_("cannot launch a command"));
      else if (!backends[i]->available (&why) && why == NULL)
        why = g_strdup (_("cannot run here"));
      add_row (rows, backends[i]->name, backends[i], why);
    }
  for (guint i = 0; unbuilt[i] != NULL; i++)
    if (!wanted[0] || g_strv_contains ((const char *const *) wanted, unbuilt[i]))
      add_row (rows, unbuilt[i], NULL, g_strdup (_("not built into this seismo-cli")));

  /* A warm-up run fills the page cache, so the first timed run is not the slowest by accident. */
  {
    OverheadRow *bare = &g_array_index (rows, OverheadRow, 0);

    if (!run_once (bare, wrapped, result_path, &interrupted, &error))
      {
        g_printerr (_("seismo-cli compare-overhead: %s\n"), error->message);
        g_rmdir (tmpdir);
        return SEISMO_EXIT_FAILED;
      }
    g_array_set_size (bare->wall_ns, 0);
    g_array_set_size (bare->total_ns, 0);
    g_array_set_size (bare->events, 0);
    g_array_set_size (bare->lost, 0);
  }

  /* Rounds, not one backend after another: a busy moment on the machine hits all of them alike. */
  for (int r = 0; r < runs && !interrupted; r++)
    for (guint i = 0; i < rows->len && !interrupted; i++)
      {
        OverheadRow *row = &g_array_index (rows, OverheadRow, i);
        g_autoptr(GError) run_error = NULL;

        if (row->unavailable || row->error)
          continue;
        if (!json && isatty (STDERR_FILENO))
          {
            g_autofree char *round = g_strdup_printf (_("Round %d of %d: %-8s"), r + 1, runs, row->name);

            g_printerr ("\r%s\033[K", round);
          }
        if (!run_once (row, wrapped, result_path, &interrupted, &run_error))
          row->error = g_strdup (run_error->message);
      }
  if (!json && isatty (STDERR_FILENO))
    g_printerr ("\r\033[K");
  g_unlink (result_path);
  g_rmdir (tmpdir);

  if (interrupted)
    {
      g_printerr (_("seismo-cli compare-overhead: interrupted\n"));
      return SEISMO_EXIT_FAILED;
    }
  if (g_array_index (rows, OverheadRow, 0).wall_ns->len == 0)
    {
      g_printerr (_("seismo-cli compare-overhead: the bare run failed: %s\n"),
                  g_array_index (rows, OverheadRow, 0).error);
      return SEISMO_EXIT_FAILED;
    }
  if (json)
    print_overhead_json (rows, command, runs, !show_output);
  else
    print_overhead_text (rows, command, runs, !show_output);
  return SEISMO_EXIT_OK;
}

/* ---- lesson ---- */

/* The bundled samples: $SEISMO_SAMPLES_DIR (`meson devenv`), else the installed ones. */
static char *
samples_dir (void)
{
  const char *env = g_getenv ("SEISMO_SAMPLES_DIR");

  return env != NULL && *env != '\0' ? g_strdup (env) : g_build_filename (PKGDATADIR, "samples", NULL);
}

static void
print_problems (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    g_printerr ("%s\n", (const char *) problems->pdata[i]);
}

/* One lesson: the file alone, then its steps against its sample. TRUE when nothing is wrong. */
static gboolean
check_one_lesson (const char *path,
                  const char *sample_option)
{
  g_autoptr(GPtrArray) problems = seismo_lesson_check (path, NULL);
  g_autoptr(SeismoLesson) lesson = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = samples_dir ();
  g_autofree char *sample = NULL;

  if (problems->len > 0)
    {
      print_problems (problems);
      return FALSE;
    }
  if (!(lesson = seismo_lesson_new_from_file (path, &error)))
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  sample = sample_option ? g_strdup (sample_option) : seismo_lesson_find_sample (lesson, dir);
  if (sample == NULL)
    {
      g_autofree char *lesson_dir = g_path_get_dirname (path);

      g_printerr (_("%s: Sample=%s is neither in %s nor among the samples in %s\n"), path,
                  lesson->sample, lesson_dir, dir);
      return FALSE;
    }
  if (!(trace = seismo_trace_open (sample, NULL, NULL, NULL, &error)))
    {
      g_printerr (_("%s: the sample: %s\n"), path, error->message);
      return FALSE;
    }
  g_ptr_array_unref (problems);
  problems = seismo_lesson_check (path, trace);
  if (problems->len > 0)
    {
      print_problems (problems);
      return FALSE;
    }
  g_print (_("%s: %u steps, every expression matches in %s\n"), path, lesson->n_steps, sample);
  return TRUE;
}

int
seismo_cli_lesson (int    argc,
                   char **argv)
{
  g_autofree char *sample = NULL;
  GOptionEntry entries[] = {
    { "sample", 0, 0, G_OPTION_ARG_FILENAME, &sample,
      N_("check: resolve the steps against this trace instead of the lesson's Sample"), "TRACE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new (N_("check FILE… | list - check lesson files, or list the lessons Seismo finds"));
  int status = SEISMO_EXIT_OK;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Lessons are read from $XDG_DATA_HOME/seismo/lessons, then DIR/seismo/lessons for each of\n"
      "$XDG_DATA_DIRS. Their format: man seismo-lesson."));
  if (!seismo_cli_parse_options (context, &argc, &argv, g_get_prgname ()))
    return SEISMO_EXIT_USAGE;
  if (argc >= 2 && strcmp (argv[1], "list") == 0 && argc == 2)
    {
      g_autoptr(GPtrArray) lessons = seismo_lesson_load_all ();

      for (guint i = 0; i < lessons->len; i++)
        {
          const SeismoLesson *l = lessons->pdata[i];

          g_print ("%s\t%s\t%s\n", l->id, l->title, l->path);
        }
      return SEISMO_EXIT_OK;
    }
  if (argc < 3 || strcmp (argv[1], "check") != 0 || (sample != NULL && argc != 3))
    {
      g_printerr (_("seismo-cli lesson: usage: seismo-cli lesson check [--sample TRACE] FILE… | "
                    "seismo-cli lesson list\n"));
      return SEISMO_EXIT_USAGE;
    }
  for (int i = 2; i < argc; i++)
    if (!check_one_lesson (argv[i], sample))
      status = SEISMO_EXIT_FAILED;
  return status;
}

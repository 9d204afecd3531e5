/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

/*
 * trace.dat import against trace-cmd's own reading of the same files: every event's time (ns),
 * CPU, pid, comm, name and raw field values as `trace-cmd report -R -t` prints them, and the
 * dropped-events lines. Inputs: the real capture in tests/data, its conversions by
 * `trace-cmd convert` (version 6, uncompressed, zlib), and, when tracefs is usable, captures made
 * here (instance + workload + `trace-cmd extract`), one of them with an overrun buffer.
 * Then damaged copies must fail cleanly.
 */

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seismo-backend.h"
#include "seismo-error.h"
#include "seismo-importer.h"
#include "seismo-test-util.h"
#include "seismo-tracedat-private.h"
#include "seismo-varint.h"

static char *workload_path;

/* ---- trace-cmd helpers ------------------------------------------------------------------------ */

static gboolean
run (const char *const *argv,
     char              **out,
     GError            **error)
{
  g_autofree char *err = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, &err,
                     &status, error))
    return FALSE;
  if (!g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s %s: %s: ", argv[0], argv[1], err ? err : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
have_trace_cmd (void)
{
  g_autofree char *path = g_find_program_in_path ("trace-cmd");

  return path != NULL;
}

/* ---- report parsing --------------------------------------------------------------------------- */

typedef struct {
  GPtrArray *lines;      /* event lines, buffer prefix removed */
  guint64    dropped;
} Report;

static void
report_clear (Report *r)
{
  g_clear_pointer (&r->lines, g_ptr_array_unref);
}

static void
parse_report (const char  *text,
              char       **buffers,
              Report      *r)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GRegex) dropped = g_regex_new ("^CPU:(\\d+) \\[(?:(\\d+) )?EVENTS DROPPED\\]", 0, 0,
                                           NULL);

  r->lines = g_ptr_array_new_with_free_func (g_free);
  r->dropped = 0;
  for (guint i = 0; lines[i]; i++)
    {
      const char *line = lines[i];
      g_autoptr(GMatchInfo) m = NULL;

      if (*line == '\0' || g_str_has_prefix (line, "cpus="))
        continue;
      for (guint b = 0; buffers && buffers[b]; b++)
        if (g_str_has_prefix (line, buffers[b]) && line[strlen (buffers[b])] == ':')
          {
            line += strlen (buffers[b]) + 1;
            break;
          }
      while (*line == ' ')
        line++;
      if (g_regex_match (dropped, line, 0, &m))
        {
          g_autofree char *count = g_match_info_fetch (m, 2);

          r->dropped += count && *count ? g_ascii_strtoull (count, NULL, 10) : 1;
          continue;
        }
      g_ptr_array_add (r->lines, g_strdup (line));
    }
}

/* Bytes of an "ARRAY[0b, 00, …]" value; NULL when the value is not one. */
static GByteArray *
parse_array (const char *value)
{
  GByteArray *bytes;
  const char *p;

  if (!g_str_has_prefix (value, "ARRAY["))
    return NULL;
  bytes = g_byte_array_new ();
  p = value + 6;
  while (*p && *p != ']')
    {
      char *end = NULL;
      guint8 b = (guint8) g_ascii_strtoull (p, &end, 16);

      if (end == p)
        break;
      g_byte_array_append (bytes, &b, 1);
      p = end;
      while (*p == ',' || *p == ' ')
        p++;
    }
  return bytes;
}

static gsize
nul_len (const guint8 *p,
         gsize         n)
{
  const guint8 *z = memchr (p, 0, n);

  return z ? (gsize) (z - p) : n;
}

/* ---- kernel symbols ---------------------------------------------------------------------------- */

/*
 * Fields the event's format shows with %ps hold kernel addresses. `trace-cmd report -R` prints
 * some as the function they point into (those of events it has no plugin for) and some as the
 * number; the model holds the function's name ("func", "func+0x1c" for %pS) that Seismo found
 * in the kallsyms the file carries. The test reads the same kallsyms (`trace-cmd dump
 * --kallsyms`) to check that the address lies in that function.
 */
typedef struct {
  guint64  addr;
  char    *name;
} Symbol;

static GArray *symbols;    /* Symbol, sorted by address; of the file being compared */

static void
symbol_clear (gpointer data)
{
  g_free (((Symbol *) data)->name);
}

static gint
symbol_cmp (gconstpointer a,
            gconstpointer b)
{
  const Symbol *x = a, *y = b;

  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void
load_symbols (const char *path)
{
  const char *argv[] = { "trace-cmd", "dump", "--kallsyms", "-i", path, NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;

  g_clear_pointer (&symbols, g_array_unref);
  symbols = g_array_new (FALSE, FALSE, sizeof (Symbol));
  g_array_set_clear_func (symbols, symbol_clear);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, NULL, NULL) || out == NULL)
    return;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit_set (lines[i], " \t", 4);
      char *end = NULL;
      Symbol sym;

      if (g_strv_length (parts) < 3 || strlen (parts[1]) != 1)
        continue;
      sym.addr = g_ascii_strtoull (parts[0], &end, 16);
      if (end == parts[0] || *end != '\0')
        continue;
      sym.name = g_strdup (parts[2]);
      g_array_append_val (symbols, sym);
    }
  g_array_sort (symbols, symbol_cmp);
}

/* Whether text ("name" or "name+0xoff…") names the function that addr lies in. */
static gboolean
symbol_matches (guint64     addr,
                const char *text)
{
  g_autofree char *name = g_strndup (text, strcspn (text, "+ "));
  const char *plus = strchr (text, '+');
  guint lo = 0, hi = symbols ? symbols->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (symbols, Symbol, mid).addr <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* Aliases share an address: any of them will do. */
  for (guint k = lo; k-- > 0;)
    {
      const Symbol *sym = &g_array_index (symbols, Symbol, k);

      if (sym->addr != g_array_index (symbols, Symbol, lo - 1).addr)
        break;
      if (g_str_equal (sym->name, name) &&
          (plus == NULL || g_ascii_strtoull (plus + 1, NULL, 16) == addr - sym->addr))
        return TRUE;
    }
  return FALSE;
}

/* Compares one field's value with trace-cmd's text for it. NULL when equal, else why not. */
static char *
compare_value (SeismoTrace       *trace,
               const SeismoField *field,
               const SeismoValue *v,
               const char        *text)
{
  g_autoptr(GByteArray) arr = parse_array (text);

  switch (field->type)
    {
    case SEISMO_FIELD_INT:
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      {
        const char *t = text;
        guint64 theirs, mine = v->u, mask;
        guint size = field->size ? field->size : 8;
        char *end = NULL;

        while (*t == ' ')
          t++;
        theirs = *t == '-' ? (guint64) g_ascii_strtoll (t, &end, 0) : g_ascii_strtoull (t, &end, 0);
        if (end == t && (field->type == SEISMO_FIELD_POINTER || field->size == sizeof (long)) &&
            symbol_matches (mine, t))
          return NULL;
        if (end == t)
          return g_strdup_printf ("not a number: \"%s\"", text);
        mask = size >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (size * 8)) - 1;
        /* trace-cmd prints a field the way the kernel's format does: "%lx" comes without 0x. */
        if (((theirs ^ mine) & mask) != 0 && *t != '-' && !g_str_has_prefix (t, "0x"))
          theirs = g_ascii_strtoull (t, &end, 16);
        if (((theirs ^ mine) & mask) != 0)
          return g_strdup_printf ("%" G_GINT64_MODIFIER "x != %" G_GINT64_MODIFIER "x (report: %s)",
                                  mine & mask, theirs & mask, text);
        return NULL;
      }

    case SEISMO_FIELD_STRING:
    case SEISMO_FIELD_BYTES:
      {
        const guint8 *mp = field->type == SEISMO_FIELD_STRING ? (const guint8 *) v->str : v->data;
        gsize ml = nul_len (mp, v->len);
        const guint8 *tp = arr ? arr->data : (const guint8 *) text;
        gsize tl = arr ? nul_len (arr->data, arr->len) : strlen (text);

        if (ml != tl || memcmp (mp, tp, ml) != 0)
          {
            const char *t = text;
            char *end = NULL;
            guint64 addr;

            /* A function's name in the model, its address in the report. */
            while (*t == ' ')
              t++;
            addr = g_str_has_prefix (t, "0x") ? g_ascii_strtoull (t, &end, 16) : 0;
            if (field->type == SEISMO_FIELD_STRING && addr != 0 && *end == '\0' &&
                symbol_matches (addr, v->str))
              return NULL;
            return g_strdup_printf ("\"%.*s\" != \"%s\"", (int) ml, (const char *) mp, text);
          }
        return NULL;
      }

    case SEISMO_FIELD_UINT_ARRAY:
      {
        const guint8 *p = v->data, *end = v->data + v->len;
        guint esize = field->size ? field->size : 8;

        if (arr == NULL)
          return g_strdup_printf ("report has no array: \"%s\"", text);
        if (arr->len != v->u * esize)
          return g_strdup_printf ("%" G_GUINT64_FORMAT " elements of %u bytes, report has %u "
                                  "bytes", v->u, esize, arr->len);
        for (guint64 k = 0; k < v->u; k++)
          {
            guint64 mine = 0, theirs = 0;

            p = seismo_varint_get (p, end, &mine);
            if (p == NULL)
              return g_strdup ("damaged array");
            for (guint b = 0; b < esize; b++)
              theirs |= (guint64) arr->data[k * esize + b] << (8 * b);
            if (mine != theirs)
              return g_strdup_printf ("element %" G_GUINT64_FORMAT ": %" G_GINT64_MODIFIER "x != %"
                                      G_GINT64_MODIFIER "x", k, mine, theirs);
          }
        return NULL;
      }

    case SEISMO_FIELD_N_TYPES:
    default:
      return g_strdup ("unknown field type");
    }
}

static gboolean
comm_matches (SeismoTrace   *trace,
              SeismoEventId  event,
              const char    *comm)
{
  const SeismoTask *task = seismo_trace_event_task (trace, event);
  SeismoTaskId id = seismo_trace_get_tasks (trace)[event];
  const SeismoCommChange *changes;
  guint n_changes;

  /* trace-cmd shows "<...>" before it learns a comm, and one comm per pid for the whole file. */
  if (g_str_equal (comm, "<...>"))
    return TRUE;
  /* trace-cmd names pid 0 "<idle>" on every CPU, whatever the idle task's comm was when seen. */
  if (task->tid == 0 && g_str_equal (comm, "<idle>"))
    return TRUE;
  if (g_str_equal (comm, seismo_trace_task_comm_at (trace, id, seismo_trace_event_time (trace, event))) ||
      g_str_equal (comm, seismo_trace_get_string (trace, task->comm)))
    return TRUE;
  changes = seismo_trace_get_comm_changes (trace, &n_changes);
  for (guint i = 0; i < n_changes; i++)
    if (changes[i].task == id && g_str_equal (comm, seismo_trace_get_string (trace, changes[i].comm)))
      return TRUE;
  return FALSE;
}

/* One event against one report line: NULL when they agree. */
static char *
compare_event (SeismoTrace   *trace,
               SeismoEventId  event,
               const char    *line,
               GRegex        *head)
{
  g_autoptr(GMatchInfo) m = NULL;
  const SeismoEventType *type = seismo_trace_event_type (trace, event);
  const SeismoTask *task = seismo_trace_event_task (trace, event);
  g_autofree char *comm = NULL, *pid = NULL, *cpu = NULL, *sec = NULL, *frac = NULL;
  g_autofree char *name = NULL, *fields = NULL;
  g_autofree SeismoValue *values = NULL;
  guint64 ts;
  const char *p;

  if (!g_regex_match (head, line, 0, &m))
    return g_strdup ("report line not understood");
  comm = g_match_info_fetch (m, 1);
  pid = g_match_info_fetch (m, 2);
  cpu = g_match_info_fetch (m, 3);
  sec = g_match_info_fetch (m, 4);
  frac = g_match_info_fetch (m, 5);
  name = g_match_info_fetch (m, 6);
  fields = g_match_info_fetch (m, 7);

  ts = g_ascii_strtoull (sec, NULL, 10) * G_GUINT64_CONSTANT (1000000000);
  {
    guint64 f = g_ascii_strtoull (frac, NULL, 10);

    for (gsize d = strlen (frac); d < 9; d++)
      f *= 10;
    ts += f;
  }
  if (ts != seismo_trace_event_time (trace, event))
    return g_strdup_printf ("time %" G_GUINT64_FORMAT " != %" G_GUINT64_FORMAT,
                            seismo_trace_event_time (trace, event), ts);
  if (g_ascii_strtoull (cpu, NULL, 10) != seismo_trace_event_cpu (trace, event))
    return g_strdup_printf ("cpu %u != %s", seismo_trace_event_cpu (trace, event), cpu);
  if (g_ascii_strtoll (pid, NULL, 10) != task->tid)
    return g_strdup_printf ("pid %d != %s", task->tid, pid);
  if (!g_str_equal (name, type->name))
    return g_strdup_printf ("event %s != %s", type->name, name);
  if (!comm_matches (trace, event, g_strstrip (comm)))
    return g_strdup_printf ("comm \"%s\" is none of the task's", comm);

  values = g_new0 (SeismoValue, MAX (type->n_fields, 1));
  if (seismo_trace_event_fields (trace, event, values, type->n_fields) != type->n_fields)
    return g_strdup ("could not decode the payload");

  p = fields;
  for (guint f = 0; f < type->n_fields; f++)
    {
      g_autofree char *prefix = g_strdup_printf ("%s=", type->fields[f].name);
      g_autofree char *value = NULL;
      g_autofree char *why = NULL;
      const char *end;

      if (!g_str_has_prefix (p, prefix))
        return g_strdup_printf ("field %s missing at \"%s\"", type->fields[f].name, p);
      p += strlen (prefix);
      if (f + 1 < type->n_fields)
        {
          g_autofree char *next = g_strdup_printf (" %s=", type->fields[f + 1].name);

          end = strstr (p, next);
          if (end == NULL)
            return g_strdup_printf ("field %s missing", type->fields[f + 1].name);
        }
      else
        end = p + strlen (p);
      value = g_strndup (p, end - p);
      if ((why = compare_value (trace, &type->fields[f], &values[f], value)))
        return g_strdup_printf ("field %s: %s", type->fields[f].name, why);
      p = *end ? end + 1 : end;
    }
  return NULL;
}

static void
compare_with_report (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) buffers = NULL;
  g_autoptr(GRegex) head = g_regex_new ("^(.*)-(\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d+):\\s+(\\S+):\\s*(.*)$",
                                        0, 0, NULL);
  const char *argv[] = { "trace-cmd", "report", "-R", "-t", "-i", path, NULL };
  Report report = { 0 };
  guint bad = 0;
  gsize n;
  guint64 lost = 0;
  const SeismoLostEvents *lost_events;
  guint n_lost;

  trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_SOURCE), ==, "trace.dat");
  load_symbols (path);

  g_assert_true (run (argv, &out, &error));
  g_assert_no_error (error);
  buffers = g_strsplit (seismo_trace_get_metadata (trace, "buffers"), ",", -1);
  parse_report (out, buffers, &report);

  n = seismo_trace_get_n_events (trace);
  g_test_message ("%s: %" G_GSIZE_FORMAT " events, trace-cmd report: %u", path, n,
                  report.lines->len);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, ==, report.lines->len);

  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *why = compare_event (trace, i, g_ptr_array_index (report.lines, i), head);

      if (why && bad++ < 10)
        g_test_message ("event %" G_GSIZE_FORMAT ": %s\n  report: %s", i, why,
                        (const char *) g_ptr_array_index (report.lines, i));
    }
  g_assert_cmpuint (bad, ==, 0);

  lost_events = seismo_trace_get_lost_events (trace, &n_lost);
  for (guint i = 0; i < n_lost; i++)
    lost += lost_events[i].count;
  g_assert_cmpuint (lost, ==, report.dropped);
  report_clear (&report);
  g_clear_pointer (&symbols, g_array_unref);
}

/* ---- inputs ----------------------------------------------------------------------------------- */

static const char *
sample_path (void)
{
  static char *path;

  if (path == NULL)
    path = g_test_build_filename (G_TEST_DIST, "data", "ftrace-small-v7.dat", NULL);
  return path;
}

static char *
convert (const char *in,
         const char *version,
         const char *compression,
         GError    **error)
{
  g_autofree char *name = g_strdup_printf ("converted-v%s-%s.dat", version, compression);
  char *out = seismo_test_temp_path (name);
  const char *argv[] = { "trace-cmd", "convert", "-i", in, "-o", out,
                         "--file-version", version, "--compression", compression, NULL };
  g_autofree char *stdout_text = NULL;

  if (!run (argv, &stdout_text, error))
    {
      g_free (out);
      return NULL;
    }
  return out;
}

static void
test_sample (void)
{
  if (!have_trace_cmd ())
    {
      g_test_skip ("trace-cmd is not installed: nothing to compare with");
      return;
    }
  compare_with_report (sample_path ());
}

static void
test_converted (gconstpointer data)
{
  const char *const *spec = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (!have_trace_cmd ())
    {
      g_test_skip ("trace-cmd is not installed: nothing to compare with");
      return;
    }
  path = convert (sample_path (), spec[0], spec[1], &error);
  if (path == NULL && g_str_equal (spec[1], "zlib"))
    {
      g_autofree char *why = g_strdup_printf ("trace-cmd cannot write zlib here: %s",
                                              error->message);

      g_test_skip (why);
      return;
    }
  g_assert_no_error (error);
  compare_with_report (path);
}

/* Records WORKLOAD ARGS in a private instance and writes it with trace-cmd extract. */
static char *
record_tracedat (const char  *name,
                 guint        buffer_kb,
                 const char  *workload_args,
                 GError     **error)
{
  g_autofree char *path = seismo_test_temp_path (name);
  g_autofree char *script = g_strdup_printf (
    "set -e\n"
    "T=/sys/kernel/tracing; [ -d $T/instances ] || mount -t tracefs nodev $T\n"
    "I=$T/instances/seismotest-$$\n"
    "mkdir $I\n"
    "trap '[ -d $I ] && { echo 0 > $I/tracing_on; echo > $I/set_event; rmdir $I; }; true' EXIT\n"
    "echo 0 > $I/tracing_on; echo %u > $I/buffer_size_kb\n"
    "for e in sched raw_syscalls irq signal task syscalls/sys_enter_openat syscalls/sys_exit_openat; do\n"
    "  [ -d $I/events/$e ] && echo 1 > $I/events/$e/enable\n"
    "done\n"
    "echo 1 > $I/tracing_on\n"
    "sh -c '%s %s; trap true USR1; kill -USR1 $$; true'\n"
    "echo 0 > $I/tracing_on\n"
    "trace-cmd extract -B seismotest-$$ -o '%s' > /dev/null 2>&1\n",
    buffer_kb, workload_path, workload_args, path);
  const char *argv[] = { "sh", "-c", script, NULL };

  /*
   * trace-cmd extract fails (EINVAL) when /proc/kallsyms changes size while it copies it, as it
   * does whenever a BPF program comes or goes (other tests, other tools), and by then it has
   * drained the buffers: record again.
   */
  for (guint attempt = 1;; attempt++)
    {
      g_autofree char *out = NULL;
      g_autoptr(GError) local = NULL;

      if (run (argv, &out, &local))
        return g_steal_pointer (&path);
      if (attempt == 5)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_test_message ("recording %s failed (%s), once more", name, local->message);
    }
}

static gboolean
can_record (void)
{
  const SeismoBackend *ftrace = seismo_backend_lookup ("ftrace");
  g_autofree char *why = NULL;

  if (!have_trace_cmd ())
    {
      g_test_skip ("trace-cmd is not installed: nothing to compare with");
      return FALSE;
    }
  if (ftrace == NULL || !ftrace->available (&why))
    {
      g_autofree char *msg = g_strdup_printf ("tracefs is not usable here: %s",
                                              why ? why : "no ftrace backend");

      g_test_skip (msg);
      return FALSE;
    }
  return TRUE;
}

/* A large file reports its progress as it loads, and can be cancelled midway. */
static void
check_progress (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  SeismoTestProgress p = { 0 };

  trace = seismo_trace_dat_load (path, NULL, seismo_test_progress, &p, &error);
  g_assert_no_error (error);
  /* A report every 16384 events, and the last one. */
  g_assert_cmpuint (seismo_trace_get_n_events (trace), >, 16384);
  g_assert_cmpuint (p.calls, >=, seismo_trace_get_n_events (trace) / 16384 + 1);
  g_assert_cmpfloat (p.last, ==, 1.0);
  g_clear_object (&trace);

  p = (SeismoTestProgress) { .cancel_at_first = cancellable };
  trace = seismo_trace_dat_load (path, cancellable, seismo_test_progress, &p, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED);
  g_assert_cmpuint (p.calls, ==, 1);
}

static void
test_recorded (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *v6 = NULL;

  if (!can_record ())
    return;
  /*
   * 24000 records of the workload alone (more than one progress report's worth); the buffer size
   * bounds what the rest of a busy machine adds, and so the time the comparison takes.
   */
  path = record_tracedat ("live.dat", 2048, "--writes 8000 --getpids 4000 --exec", &error);
  g_assert_no_error (error);
  compare_with_report (path);
  check_progress (path);
  v6 = convert (path, "6", "none", &error);
  g_assert_no_error (error);
  compare_with_report (v6);
}

static void
test_recorded_overrun (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(SeismoTrace) trace = NULL;

  if (!can_record ())
    return;
  /* 16 KiB per CPU cannot hold 40000 records: the kernel overwrites and says how many. */
  path = record_tracedat ("overrun.dat", 16, "--writes 20000", &error);
  g_assert_no_error (error);
  compare_with_report (path);
  trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_lost_events (trace), >, 0);
}

/* An empty recording still has the header's CPUs (every buffer empty, or none written at all). */
static void
test_recorded_empty (void)
{
  g_autofree char *path = NULL;
  g_autofree char *v6 = NULL;
  g_autofree char *script = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  const char *argv[] = { "sh", "-c", NULL, NULL };
  guint header_cpus = 0;

  if (!can_record ())
    return;
  path = seismo_test_temp_path ("empty.dat");
  /* sched_process_hang never fires: nothing is recorded. */
  script = g_strdup_printf (
    "set -e\n"
    "T=/sys/kernel/tracing; [ -d $T/instances ] || mount -t tracefs nodev $T\n"
    "I=$T/instances/seismotest-empty-$$\n"
    "mkdir $I\n"
    "trap '[ -d $I ] && { echo 0 > $I/tracing_on; echo > $I/set_event; rmdir $I; }; true' EXIT\n"
    "echo 1 > $I/events/sched/sched_process_hang/enable\n"
    "echo 1 > $I/tracing_on; sleep 0.1; echo 0 > $I/tracing_on\n"
    "trace-cmd extract -B seismotest-empty-$$ -o '%s' > /dev/null 2>&1\n", path);
  argv[2] = script;
  if (!run (argv, &out, &error))
    {
      g_autofree char *why = g_strdup_printf ("could not record an empty trace: %s", error->message);

      g_test_skip (why);
      return;
    }
  {
    const char *report[] = { "trace-cmd", "report", "-i", path, NULL };
    g_autofree char *text = NULL;
    const char *cpus;

    g_assert_true (run (report, &text, &error));
    g_assert_no_error (error);
    cpus = strstr (text, "cpus=");
    g_assert_nonnull (cpus);
    header_cpus = (guint) g_ascii_strtoull (cpus + 5, NULL, 10);
  }
  g_assert_cmpuint (header_cpus, >, 0);
  trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, 0);
  g_assert_cmpuint (seismo_trace_get_n_cpus (trace), ==, header_cpus);
  g_clear_object (&trace);
  v6 = convert (path, "6", "none", &error);
  g_assert_no_error (error);
  trace = seismo_trace_open (v6, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seismo_trace_get_n_cpus (trace), ==, header_cpus);
}

/* Files named in $SEISMO_TRACEDAT_FILES (colon-separated): e.g. the benchmark's big captures. */
static void
test_extra_files (void)
{
  const char *files = g_getenv ("SEISMO_TRACEDAT_FILES");
  g_auto(GStrv) paths = NULL;

  if (files == NULL || *files == '\0' || !have_trace_cmd ())
    {
      g_test_skip ("set SEISMO_TRACEDAT_FILES (and install trace-cmd) to compare more files");
      return;
    }
  paths = g_strsplit (files, ":", -1);
  for (guint i = 0; paths[i]; i++)
    if (*paths[i])
      compare_with_report (paths[i]);
}

/* ---- bad input -------------------------------------------------------------------------------- */

/* Without the fsync g_file_set_contents() does: hundreds of copies are written. */
static void
write_copy (const char *path,
            const char *data,
            gsize       len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents_full (path, data, len, G_FILE_SET_CONTENTS_NONE, 0644, &error);
  g_assert_no_error (error);
}

static void
check_fails_cleanly (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = seismo_trace_dat_load (path, NULL, NULL, NULL, &error);

  /* Damage may also land where it changes only values: then the load succeeds. */
  if (trace == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (strstr (error->message, path) != NULL);
    }
  else
    g_assert_no_error (error);
}

static void
test_truncated (void)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = seismo_test_temp_path ("truncated.dat");

  g_file_get_contents (sample_path (), &data, &len, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 64; i++)
    {
      gsize cut = (len * i) / 64 + (i * 7919) % 97;
      g_autoptr(SeismoTrace) trace = NULL;
      g_autoptr(GError) local = NULL;

      cut = MIN (cut, len - 1);
      write_copy (path, data, cut);
      trace = seismo_trace_dat_load (path, NULL, NULL, NULL, &local);
      /* Every cut loses data somewhere the reader needs: it must say so. */
      g_assert_null (trace);
      g_assert_nonnull (local);
      g_assert_true (strstr (local->message, path) != NULL);
    }
}

static void
test_corrupted (void)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = seismo_test_temp_path ("corrupt.dat");
  g_autofree char *v6 = NULL;
  GRand *rand = g_rand_new_with_seed (20240601);
  const char *inputs[2] = { sample_path (), NULL };

  if (have_trace_cmd ())
    {
      v6 = convert (sample_path (), "6", "none", &error);
      g_assert_no_error (error);
      inputs[1] = v6;
    }
  for (guint in = 0; in < 2 && inputs[in]; in++)
    {
      g_free (data);
      data = NULL;
      g_file_get_contents (inputs[in], &data, &len, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < 200; i++)
        {
          g_autofree char *copy = g_memdup2 (data, len);
          /* Mostly the headers and options, where one byte changes the meaning of the rest. */
          gsize at = i % 3 ? g_rand_int_range (rand, 0, MIN (len, 4096))
                           : g_rand_int_range (rand, 0, len);
          guint n = g_rand_int_range (rand, 1, 9);

          for (guint k = 0; k < n && at + k < len; k++)
            copy[at + k] = (char) g_rand_int (rand);
          write_copy (path, copy, len);
          check_fails_cleanly (path);
        }
    }
  g_rand_free (rand);
}

static void
test_bad_magic (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = seismo_test_temp_path ("not-a-trace.dat");
  g_autoptr(SeismoTrace) trace = NULL;

  g_file_set_contents (path, "\x17\x08\x44tracinX6\0\0\x08", 17, &error);
  g_assert_no_error (error);
  trace = seismo_trace_dat_load (path, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT);
}

/* Replaces every from in data by to, of the same length. */
static void
replace_all (char       *data,
             gsize       len,
             const char *from,
             const char *to)
{
  gsize n = strlen (from);
  char *p = data;

  g_assert_cmpuint (strlen (to), ==, n);
  while ((p = memmem (p, len - (p - data), from, n)) != NULL)
    memcpy (p, to, n);
}

/*
 * Formats libtraceevent cannot parse (it crashes on a missing field as the first argument of
 * __print_symbolic() or __print_flags()) lose their records, and the load warning names them:
 * the window shows it as a toast, the CLI prints it.
 */
static void
test_skipped_formats (void)
{
  static const char *const names[] = { "irq:softirq_raise", "irq:softirq_entry",
                                       "irq:softirq_exit", "sched:sched_switch" };
  g_autoptr(GError) error = NULL;
  g_autofree char *v6 = NULL;
  g_autofree char *data = NULL;
  g_autofree char *path = seismo_test_temp_path ("bad-formats.dat");
  g_autofree char *expected = NULL;
  g_autofree char *count = NULL;
  g_autoptr(SeismoTrace) good = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  const char *warning;
  gsize len, n_skipped;

  if (!have_trace_cmd ())
    {
      g_test_skip ("trace-cmd is not installed: no uncompressed copy to damage");
      return;
    }
  /* Version 6 without compression: the format texts are plain bytes in the file. */
  v6 = convert (sample_path (), "6", "none", &error);
  g_assert_no_error (error);
  g_file_get_contents (v6, &data, &len, &error);
  g_assert_no_error (error);
  replace_all (data, len, "__print_symbolic(REC->vec, {", "__print_symbolic(REC->vectr{");
  replace_all (data, len, "__print_flags(REC->prev_state", "__print_flags(REC->prev_stnte");
  write_copy (path, data, len);

  good = seismo_trace_dat_load (v6, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  trace = seismo_trace_dat_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n_skipped = seismo_trace_get_n_events (good) - seismo_trace_get_n_events (trace);
  g_assert_cmpuint (n_skipped, >, 0);
  count = g_strdup_printf ("%" G_GSIZE_FORMAT, n_skipped);
  g_assert_cmpstr (seismo_trace_get_metadata (trace, "skipped_records"), ==, count);

  warning = seismo_trace_get_metadata (trace, "load_warning");
  g_assert_nonnull (warning);
  g_test_message ("load warning: %s", warning);
  expected = g_strdup_printf ("%" G_GSIZE_FORMAT " records of 4 events were skipped: their "
                              "formats in the file could not be read (", n_skipped);
  g_assert_true (g_str_has_prefix (warning, expected));
  g_assert_true (g_str_has_suffix (warning, ")"));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_nonnull (strstr (warning, names[i]));
  /* The undamaged copy loads without one. */
  g_assert_null (seismo_trace_get_metadata (good, "load_warning"));
}

int
main (int    argc,
      char **argv)
{
  static const char *const v6_none[] = { "6", "none" };
  static const char *const v7_none[] = { "7", "none" };
  static const char *const v7_zlib[] = { "7", "zlib" };

  g_test_init (&argc, &argv, NULL);
  seismo_backends_init ();
  workload_path = g_strdup (SEISMO_FTRACE_WORKLOAD);

  g_test_add_func ("/tracedat/sample-v7-zstd", test_sample);
  g_test_add_data_func ("/tracedat/converted-v6-none", v6_none, test_converted);
  g_test_add_data_func ("/tracedat/converted-v7-none", v7_none, test_converted);
  g_test_add_data_func ("/tracedat/converted-v7-zlib", v7_zlib, test_converted);
  g_test_add_func ("/tracedat/recorded", test_recorded);
  g_test_add_func ("/tracedat/recorded-overrun", test_recorded_overrun);
  g_test_add_func ("/tracedat/recorded-empty", test_recorded_empty);
  g_test_add_func ("/tracedat/extra-files", test_extra_files);
  g_test_add_func ("/tracedat/truncated", test_truncated);
  g_test_add_func ("/tracedat/corrupted", test_corrupted);
  g_test_add_func ("/tracedat/bad-magic", test_bad_magic);
  g_test_add_func ("/tracedat/skipped-formats", test_skipped_formats);
  return g_test_run ();
}

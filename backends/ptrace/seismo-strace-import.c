/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * Reads strace text output (-f with -o, -ff per-process files, or what strace printed on a
 * terminal; every prefix and decoration strace has: see seismo-strace-line.c) into the same
 * events a live ptrace recording makes.
 *
 * Nothing is made up: a log without -t/-tt/-ttt/-r keeps its line order in the timestamps and
 * says so (seismo-timing.h), and every line that could not be read is counted by kind
 * (seismo-skipped.h). A file with no strace line at all is an error; a file holding only -c's
 * summary table opens as that table (seismo-strace-summary.c).
 */

#include <stdlib.h>

#include <glib/gstdio.h>

#include "seismo-error.h"
#include "seismo-importer.h"
#include "seismo-skipped.h"
#include "seismo-strace-private.h"
#include "seismo-timing.h"

/* What each kind of line not read is called in the trace's report (seismo-skipped.h). */
static const char *const skip_kinds[STRACE_SKIP_N] = {
  [STRACE_SKIP_UNREADABLE] = "unreadable strace lines",
  [STRACE_SKIP_PROGRAM_OUTPUT] = "lines of the traced program's output",
  [STRACE_SKIP_UNKNOWN_SYSCALL] = "calls of unknown syscalls",
  [STRACE_SKIP_CUT_SHORT] = "calls cut short",
  [STRACE_SKIP_MESSAGE] = "strace messages",
  [STRACE_SKIP_STACK_ORPHAN] = "stack frames without a call",
  [STRACE_SKIP_STOP] = "group-stop notices",
};

static void
pending_free (gpointer data)
{
  StracePending *p = data;

  g_free (p->name);
  g_free (p->args);
  g_free (p);
}

/* Share of the complete lines in head that look like strace's, in percent; -1 without lines. */
static int
score_head (const guint8 *head,
            gsize         len,
            gboolean     *has_pid,
            gboolean     *has_time)
{
  const char *p = (const char *) head, *end = p + len;
  guint n = 0, good = 0, with_pid = 0, with_time = 0;

  while (p < end && n < 64)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      gboolean pid, time;

      /* The last line of a 4 KiB head is usually cut: ignore it. */
      if (nl == NULL)
        break;
      /* -k's stack frames belong to the line above: neither for nor against. */
      if (nl > p && !g_str_has_prefix (p, " > "))
        {
          if (memchr (p, '\0', (gsize) (nl - p)))
            return 0;
          n++;
          if (strace_line_looks_like (p, (gsize) (nl - p), &pid, &time))
            {
              good++;
              with_pid += pid;
              with_time += time;
            }
        }
      p = nl + 1;
    }
  if (n == 0)
    return -1;
  if (has_pid)
    *has_pid = with_pid * 2 > good;
  if (has_time)
    *has_time = with_time * 2 > good;
  return (int) (good * 100 / n);
}

/* "trace.1234" → prefix "trace", pid 1234; FALSE when the name has no numeric suffix. */
static gboolean
split_ff_name (const char  *base,
               char       **prefix,
               gint32      *pid)
{
  const char *dot = strrchr (base, '.');
  const char *q;

  if (dot == NULL || dot == base || dot[1] == '\0')
    return FALSE;
  for (q = dot + 1; *q; q++)
    if (!g_ascii_isdigit (*q))
      return FALSE;
  *prefix = g_strndup (base, (gsize) (dot - base));
  *pid = atoi (dot + 1);
  return *pid > 0;
}

static int
read_head (const char *path,
           guint8     *head,
           gsize       size,
           gsize      *len)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, NULL);

  *len = 0;
  if (in == NULL)
    return -1;
  return g_input_stream_read_all (G_INPUT_STREAM (in), head, size, len, NULL, NULL) ? 0 : -1;
}

/* The -ff files of a directory, or the siblings of one -ff file: path → pid. NULL if none. */
static GHashTable *
find_ff_files (const char *path)
{
  g_autofree char *dir_path = NULL;
  g_autofree char *want_prefix = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *files;
  const char *name;
  guint best = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    dir_path = g_strdup (path);
  else
    {
      g_autofree char *base = g_path_get_basename (path);
      gint32 pid;

      if (!split_ff_name (base, &want_prefix, &pid))
        return NULL;
      dir_path = g_path_get_dirname (path);
    }
  if (!(dir = g_dir_open (dir_path, 0, NULL)))
    return NULL;

  /* In a folder, the prefix most files share. */
  if (want_prefix == NULL)
    {
      while ((name = g_dir_read_name (dir)))
        {
          char *prefix;
          gint32 pid;

          if (split_ff_name (name, &prefix, &pid))
            {
              guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, prefix)) + 1;

              g_hash_table_replace (counts, prefix, GUINT_TO_POINTER (n));
              if (n > best)
                {
                  best = n;
                  g_free (want_prefix);
                  want_prefix = g_strdup (prefix);
                }
            }
        }
      if (want_prefix == NULL)
        return NULL;
      g_dir_rewind (dir);
    }

  files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *prefix = NULL;
      gint32 pid;

      if (split_ff_name (name, &prefix, &pid) && g_str_equal (prefix, want_prefix))
        g_hash_table_insert (files, g_build_filename (dir_path, name, NULL), GINT_TO_POINTER (pid));
    }
  return files;
}

static int
strace_sniff (const guint8 *head,
              gsize         len,
              const char   *path)
{
  gboolean has_pid = FALSE, has_time = FALSE;
  int share;

  if (len == 0 && path && g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GHashTable) files = find_ff_files (path);
      GHashTableIter iter;
      gpointer file;
      guint8 buf[4096];
      gsize n;

      if (files == NULL || g_hash_table_size (files) == 0)
        return 0;
      g_hash_table_iter_init (&iter, files);
      g_hash_table_iter_next (&iter, &file, NULL);
      if (read_head (file, buf, sizeof buf, &n) < 0)
        return 0;
      return score_head (buf, n, NULL, NULL) >= 60 ? 70 : 0;
    }

  /* strace -c -o FILE: the summary table alone. */
  if (strace_summary_head ((const char *) head, len))
    return 60;
  share = score_head (head, len, &has_pid, &has_time);
  if (share < 0 && len > 0 && memchr (head, '\n', len) == NULL)
    {
      gsize n = len;

      /* One line without its newline (a short file). */
      if (memchr (head, '\0', len))
        return 0;
      share = strace_line_looks_like ((const char *) head, n, &has_pid, &has_time) ? 100 : 0;
    }
  if (share < 60)
    return 0;
  return has_time ? 80 : 60;
}

/* FALSE when cancelled. */
static gboolean
parse_file (StraceImport  *im,
            const char    *path,
            const char    *data,
            gsize          len,
            gint32         file_pid,
            gint32         default_pid,
            GError       **error)
{
  /* An empty file maps to NULL, and NULL + 0 is undefined. */
  const char *p = data, *end = len > 0 ? data + len : data;
  guint64 line_no = 0;
  g_autoptr(GString) line = g_string_sized_new (256);

  im->in_summary = FALSE;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *line_end = nl ? nl : end;

      if ((line_no & 0xffff) == 0xffff)
        {
          if (g_cancellable_set_error_if_cancelled (im->cancellable, error))
            return FALSE;
          if (im->progress && im->total_bytes > 0)
            im->progress ((double) (im->done_bytes + (guint64) (p - data)) / im->total_bytes,
                          im->progress_data);
        }

      /* A NUL-terminated copy: the parser may use string functions without running off the
       * end of the mapping. Trailing spaces and CRs go. */
      while (line_end > p && (line_end[-1] == '\r' || line_end[-1] == ' '))
        line_end--;
      g_string_truncate (line, 0);
      g_string_append_len (line, p, line_end - p);
      line_no++;
      strace_parse_line (im, line->str, line->len, file_pid, default_pid, path, line_no);
      p = nl ? nl + 1 : end;
    }
  strace_end_of_file (im, path);
  return TRUE;
}

/* strace without -f names no pid; set_tid_address() returns it. */
static gint32
guess_pid (const char *data,
           gsize       len)
{
  const char *hit = data ? g_strstr_len (data, (gssize) MIN (len, 1 << 20), "set_tid_address(")
                         : NULL;
  const char *eq;

  if (hit && (eq = g_strstr_len (hit, MIN (data + len - hit, 128), ") = ")) != NULL)
    {
      /* -X raw prints it in hex. */
      gint64 pid = g_ascii_strtoll (eq + 4, NULL, 0);

      return pid > 0 && pid <= G_MAXINT32 ? (gint32) pid : 1;
    }
  return 1;
}

/* Which of its times the log measured (seismo-timing.h); NULL when both. */
static const char *
timing_of (const StraceImport *im)
{
  if (im->time_style == STRACE_TIME_NONE)
    return im->saw_durations ? SEISMO_TIMING_DURATIONS_ONLY : SEISMO_TIMING_NONE;
  return im->saw_durations ? NULL : SEISMO_TIMING_TIMESTAMPS_ONLY;
}

static void
set_metadata (StraceImport *im,
              const char   *path,
              guint         n_files)
{
  SeismoTraceBuilder *builder = im->builder;
  const char *timing = timing_of (im);
  char buf[64];

  seismo_trace_builder_set_metadata (builder, SEISMO_META_SOURCE, "strace");
  {
    const char *how;
    g_autofree char *candidates = NULL;
    SeismoArch arch = strace_arch_decide (&im->arch, &how, &candidates);

    /* Unknown stays unknown: the names are the log's own, only the ABI's numbers wait. */
    if (arch != SEISMO_ARCH_UNKNOWN)
      {
        seismo_trace_builder_set_metadata (builder, SEISMO_META_ARCH,
                                           seismo_arch_to_string (arch));
        seismo_trace_builder_set_metadata (builder, "arch_from", how);
      }
    else if (candidates)
      seismo_trace_builder_set_metadata (builder, "arch_candidates", candidates);
  }
  seismo_trace_builder_set_metadata (builder, SEISMO_META_ORIGINAL, path);
  /* The log names its errors; they were stored before the arch was known, by asm-generic's
   * numbers (seismo_errno_from_name()). */
  seismo_trace_builder_set_metadata (builder, SEISMO_META_ERRNO_NUMBERS, "asm-generic");
  seismo_trace_builder_set_metadata (builder, SEISMO_META_CLOCK,
                                     im->time_style == STRACE_TIME_EPOCH ? "realtime"
                                     : im->time_style == STRACE_TIME_OF_DAY ? "local"
                                     : im->time_style == STRACE_TIME_RELATIVE ? "relative"
                                     : "none");
  if (timing != NULL)
    seismo_trace_builder_set_metadata (builder, SEISMO_META_TIMING, timing);
  if (im->command)
    seismo_trace_builder_set_metadata (builder, SEISMO_META_COMMAND, im->command);
  for (guint k = 0; k < STRACE_SKIP_N; k++)
    seismo_trace_builder_note_skipped (builder, skip_kinds[k], im->skipped[k],
                                       im->skipped_example[k]);
  if (im->summary_lines > 0)
    {
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, im->summary_lines);
      seismo_trace_builder_set_metadata (builder, "strace_summary_lines", buf);
    }
  if (n_files > 1)
    {
      g_snprintf (buf, sizeof buf, "%u", n_files);
      seismo_trace_builder_set_metadata (builder, "strace_files", buf);
    }
}

/*
 * A log where lines strace did not write in a form Seismo reads outnumber the lines read is not
 * shown as the little that was read: refused, saying which kinds and the first of them. The
 * program's own output, strace's messages and stop notices are expected in a log: not counted.
 */
static gboolean
check_mostly_read (StraceImport  *im,
                   const char    *path,
                   GError       **error)
{
  static const StraceSkipKind bad[] = {
    STRACE_SKIP_UNREADABLE, STRACE_SKIP_UNKNOWN_SYSCALL, STRACE_SKIP_CUT_SHORT,
    STRACE_SKIP_STACK_ORPHAN,
  };
  g_autoptr(GString) kinds = g_string_new (NULL);
  guint64 n_bad = 0, n_skipped = 0;
  const char *first = NULL;

  for (guint k = 0; k < STRACE_SKIP_N; k++)
    n_skipped += im->skipped[k];
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    if (im->skipped[bad[i]])
      {
        n_bad += im->skipped[bad[i]];
        g_string_append_printf (kinds, "%s%" G_GUINT64_FORMAT " %s", kinds->len ? ", " : "",
                                im->skipped[bad[i]], skip_kinds[bad[i]]);
        if (first == NULL)
          first = im->skipped_example[bad[i]];
      }
  if (n_bad == 0 || n_bad <= im->n_lines - MIN (n_skipped, im->n_lines))
    return TRUE;
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
               _("%s: most lines are not strace output Seismo can read: %" PRIu64 " of %"
                 PRIu64 " (%s); the first is %s"),
               path, n_bad, im->n_lines, kinds->str, first ? first : "");
  return FALSE;
}

static void
import_clear (StraceImport *im)
{
  seismo_ptrace_schema_free (im->schema);
  g_hash_table_unref (im->pending);
  g_hash_table_unref (im->tasks);
  g_ptr_array_unref (im->items);
  g_string_free (im->stack, TRUE);
  g_free (im->split.name);
  g_string_free (im->split.args, TRUE);
  strace_summary_clear (im);
  strace_arch_clear (&im->arch);
  for (guint k = 0; k < STRACE_SKIP_N; k++)
    g_free (im->skipped_example[k]);
  g_free (im->first_skipped_file);
  g_free (im->command);
}

static SeismoTrace *
strace_load (const char         *path,
             GCancellable       *cancellable,
             SeismoProgressFunc  progress,
             gpointer            progress_data,
             GError            **error)
{
  g_autoptr(GHashTable) ff = NULL;
  g_autoptr(GList) paths = NULL;
  SeismoTraceBuilder *builder = seismo_trace_builder_new ();
  StraceImport im = { 0 };
  gboolean is_dir = g_file_test (path, G_FILE_TEST_IS_DIR);
  guint n_files = 0, n_summary;
  SeismoTrace *trace = NULL;

  im.builder = builder;
  im.schema = seismo_ptrace_schema_new (builder);
  im.pending = g_hash_table_new_full (NULL, NULL, NULL, pending_free);
  im.tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  im.items = g_ptr_array_new_with_free_func (g_free);
  im.stack = g_string_new (NULL);
  im.split.args = g_string_new (NULL);
  strace_summary_init (&im);
  strace_arch_init (&im.arch);

  /* -ff output: a folder, or one of the files, whose lines carry no pid. */
  if (!is_dir)
    {
      guint8 head[4096];
      gsize n = 0;
      gboolean has_pid = TRUE, has_time;

      if (read_head (path, head, sizeof head, &n) == 0
          && !strace_summary_head ((const char *) head, n))
        score_head (head, n, &has_pid, &has_time);
      if (!has_pid)
        ff = find_ff_files (path);
    }
  else if (!(ff = find_ff_files (path)))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                   _("%s: no strace -ff files (NAME.PID) in this folder"), path);
      goto out;
    }
  if (ff)
    {
      paths = g_hash_table_get_keys (ff);
      paths = g_list_sort (paths, (GCompareFunc) g_strcmp0);
    }
  else
    paths = g_list_prepend (NULL, (gpointer) path);
  n_files = g_list_length (paths);
  im.cancellable = cancellable;
  im.progress = progress;
  im.progress_data = progress_data;
  for (GList *l = paths; l; l = l->next)
    {
      GStatBuf st;

      if (g_stat (l->data, &st) == 0)
        im.total_bytes += (guint64) st.st_size;
    }

  for (GList *l = paths; l; l = l->next)
    {
      const char *file = l->data;
      g_autoptr(GError) local = NULL;
      g_autoptr(GMappedFile) mapped = g_mapped_file_new (file, FALSE, &local);
      gint32 file_pid = ff ? GPOINTER_TO_INT (g_hash_table_lookup (ff, file)) : -1;
      const char *data;
      gsize len;

      if (mapped == NULL)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not read %s: %s"), file,
                       local->message);
          goto out;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      data = g_mapped_file_get_contents (mapped);
      len = g_mapped_file_get_length (mapped);
      strace_arch_scan (&im.arch, data, len);
      /* Each -ff file has its own clock sequence for -r and the line order. */
      im.last_ts = 0;
      im.order_ts = 0;
      if (!parse_file (&im, file, data, len, file_pid,
                       file_pid >= 0 ? file_pid : guess_pid (data, len), error))
        goto out;
      strace_finish_pending (&im);
      im.done_bytes += len;
      if (progress)
        progress (im.total_bytes ? (double) im.done_bytes / im.total_bytes : 1.0, progress_data);
    }

  n_summary = strace_summary_store (&im);
  if (im.n_events == 0 && n_summary == 0)
    {
      if (im.n_lines == 0)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT, _("%s is empty"), path);
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     _("%s: no strace line in it (line %" PRIu64 " of %s is not one)"),
                     path, im.first_skipped_line, im.first_skipped_file);
      goto out;
    }

  if (!check_mostly_read (&im, path, error))
    goto out;
  set_metadata (&im, path, n_files);
  trace = seismo_trace_builder_finish (g_steal_pointer (&builder));

out:
  if (builder)
    seismo_trace_builder_free (builder);
  import_clear (&im);
  return trace;
}

static const SeismoImporter strace_importer = {
  .name = "strace",
  .description = N_("strace text output (-f, -ff, -t/-r/-T, -y, -k, -i, -c)"),
  .sniff = strace_sniff,
  .load = strace_load,
};

void
seismo_strace_importer_register (void)
{
  seismo_importer_register (&strace_importer);
}

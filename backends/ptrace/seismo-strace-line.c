/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * One line of strace output. Its prefixes, each optional, in strace's order:
 *
 *   [pid  123] or 123 (-f)   with --decode-pids=comm: [pid 123<cat>] or 123<cat>
 *   08:23:42.123456 (-t/-tt), 1795938553.850344 (-ttt) or 0.000123 (-r)
 *   [00007f4c1d2e5a17] (-i)  [  59] (-n)
 *
 * then a call "name(args) = ret [errno (text)] [<seconds> (-T)]", a call left for another task
 * ("name(args <unfinished ...>", then "<... name resumed>args) = ret"), a signal ("--- SIGCHLD
 * {...} ---"), an end ("+++ exited with 0 +++"), a note ("Process 123 attached"), -k's frames
 * (" > /lib/libc.so.6(write+0x14) [0xf1234]"), or -c's summary table.
 *
 * When strace and the traced program write to the same terminal, the program's output lands
 * inside strace's line: "write(1, \"hi\\n\", 3hi" then ")   = 3". Such a call is kept open
 * until the line that ends it; the lines between are the program's and are counted as such.
 */

#include <stdio.h>
#include <stdlib.h>

#include "seismo-strace-private.h"

/* Kernel-internal errnos strace prints for restarted syscalls. */
static const struct {
  const char *name;
  int         value;
} restart_errnos[] = {
  { "ERESTARTSYS", 512 },
  { "ERESTARTNOINTR", 513 },
  { "ERESTARTNOHAND", 514 },
  { "ENOIOCTLCMD", 515 },
  { "ERESTART_RESTARTBLOCK", 516 },
};

static const char unfinished_marker[] = "<unfinished ...>";
static const char detached_marker[] = "<detached ...>";

void
strace_skip (StraceImport     *im,
             const StraceLine *ln,
             StraceSkipKind    kind)
{
  if (im->skipped[kind]++ == 0)
    {
      g_autofree char *text = g_strndup (ln->start, (gsize) MIN (ln->end - ln->start, 160));
      g_autofree char *base = g_path_get_basename (ln->file);

      im->skipped_example[kind] = g_strdup_printf ("%s line %" G_GUINT64_FORMAT ": %s", base,
                                                   ln->no, text);
    }
  if (im->first_skipped_file == NULL)
    {
      im->first_skipped_file = g_strdup (ln->file);
      im->first_skipped_line = ln->no;
    }
}

/* -T's "<0.000017>": the whole token, digits and one dot. */
static gboolean
parse_duration (const char *lt,
                const char *end,
                guint64    *dur_ns)
{
  const char *q;
  double d;

  if (end - lt < 3 || end[-1] != '>' || !g_ascii_isdigit (lt[1]))
    return FALSE;
  for (q = lt + 1; q < end - 1; q++)
    if (!g_ascii_isdigit (*q) && *q != '.')
      return FALSE;
  d = g_ascii_strtod (lt + 1, NULL);
  /* Text from the file: a duration past what 64-bit ns hold (~584 years) stays unknown, rather
   * than an out-of-range conversion (undefined behaviour). */
  if (d < 1.8e10)
    *dur_ns = (guint64) (d * 1e9 + 0.5);
  return TRUE;
}

/*
 * Parses "= RET[<decoration>] [ERRNO (text)] [<dur>]"; FALSE when the syscall did not return
 * ("= ?"). *valid is FALSE when the text is not a result at all; *timed when -T's duration is
 * there.
 */
static gboolean
parse_result (const char *p,
              const char *end,
              gint64     *ret,
              guint64    *dur_ns,
              gboolean   *valid,
              gboolean   *timed)
{
  const char *lt;
  guint64 v;
  gsize len;

  *valid = FALSE;
  *timed = FALSE;
  *dur_ns = 0;
  p = strace_skip_spaces (p, end);
  if (p >= end || *p != '=')
    return FALSE;
  *valid = TRUE;
  p = strace_skip_spaces (p + 1, end);

  /* -T: the time spent in the call, last on the line, after a space. */
  for (lt = end - 1; lt > p && *lt != '<'; lt--)
    ;
  if (lt > p && lt[-1] == ' ' && parse_duration (lt, end, dur_ns))
    {
      *timed = TRUE;
      end = lt;
    }

  /* The return value; -y decorates a descriptor ("3</etc/passwd>", whose path may hold
   * spaces). */
  for (len = 0; p + len < end && p[len] != ' ' && p[len] != '<'; len++)
    ;
  if (len > 0 && p + len < end && p[len] == '<')
    {
      if (strace_skip_decoration (p, (gsize) (end - p), len) < 0
          || !strace_parse_number (p, len, &v))
        {
          *valid = FALSE;
          return FALSE;
        }
      *ret = (gint64) v;
      return TRUE;
    }
  if (len == 1 && *p == '?')
    {
      /* "= ? ERESTARTSYS (...)": it returned, into a restart. */
      const char *e = strace_skip_spaces (p + 1, end);

      for (guint i = 0; i < G_N_ELEMENTS (restart_errnos); i++)
        if ((gsize) (end - e) >= strlen (restart_errnos[i].name)
            && g_str_has_prefix (e, restart_errnos[i].name))
          {
            *ret = -restart_errnos[i].value;
            return TRUE;
          }
      return FALSE;
    }
  if (!strace_parse_number (p, len, &v))
    {
      *valid = FALSE;
      return FALSE;
    }
  *ret = (gint64) v;
  if (*ret == -1)
    {
      const char *e = strace_skip_spaces (p + len, end);
      gsize elen = 0;
      char name[32];
      int errnum;

      while (e + elen < end && strace_is_ident (e[elen]))
        elen++;
      if (elen > 0 && elen < sizeof name)
        {
          memcpy (name, e, elen);
          name[elen] = '\0';
          if ((errnum = seismo_errno_from_name (name)) > 0)
            *ret = -errnum;
          for (guint i = 0; i < G_N_ELEMENTS (restart_errnos); i++)
            if (g_str_equal (name, restart_errnos[i].name))
              *ret = -restart_errnos[i].value;
        }
    }
  return TRUE;
}

/* Nanoseconds from the digits after a decimal point (3, 6 or 9 of them). */
static guint64
parse_fraction (const char *digits)
{
  guint64 ns = 0;
  guint i;

  for (i = 0; i < 9 && g_ascii_isdigit (digits[i]); i++)
    ns = ns * 10 + (guint64) (digits[i] - '0');
  for (; i < 9; i++)
    ns *= 10;
  return ns;
}

/* Parses the timestamp at *pp into ns, and moves *pp past it. */
static gboolean
parse_time (StraceImport  *im,
            const char   **pp,
            const char    *end,
            guint64       *ts)
{
  const char *p = *pp;
  const char *tok = p;
  gsize len;
  char buf[40];
  const char *dot;

  while (p < end && (g_ascii_isdigit (*p) || *p == '.' || *p == ':'))
    p++;
  len = (gsize) (p - tok);
  if (len == 0 || len >= sizeof buf || p >= end || *p != ' ')
    return FALSE;
  memcpy (buf, tok, len);
  buf[len] = '\0';
  dot = strchr (buf, '.');

  if (memchr (buf, ':', len))
    {
      unsigned h, m, s;
      guint64 tod;

      if (sscanf (buf, "%u:%u:%u", &h, &m, &s) != 3)
        return FALSE;
      tod = ((guint64) h * 3600 + m * 60 + s) * G_GUINT64_CONSTANT (1000000000)
            + (dot ? parse_fraction (dot + 1) : 0);
      if (!im->time_known)
        {
          im->time_style = STRACE_TIME_OF_DAY;
          im->time_known = TRUE;
        }
      /* Past midnight: the time of day starts again. */
      if (im->last_tod > tod && im->last_tod - tod > G_GUINT64_CONSTANT (43200000000000))
        im->day_base += G_GUINT64_CONSTANT (86400000000000);
      im->last_tod = tod;
      *ts = im->day_base + tod;
    }
  else
    {
      guint64 sec = g_ascii_strtoull (buf, NULL, 10);
      guint64 ns = sec * G_GUINT64_CONSTANT (1000000000) + (dot ? parse_fraction (dot + 1) : 0);

      if (!im->time_known)
        {
          /* -r deltas are small; -ttt times are seconds since 1970. */
          im->time_style = sec < 1000000 ? STRACE_TIME_RELATIVE : STRACE_TIME_EPOCH;
          im->time_known = TRUE;
        }
      *ts = im->time_style == STRACE_TIME_RELATIVE ? im->last_ts + ns : ns;
    }
  *pp = strace_skip_spaces (p, end);
  return TRUE;
}

/* Keeps the clock of an untimed log ahead of every time handed out, -T's exits included. */
static inline void
advance_order (StraceImport *im,
               guint64       ts)
{
  im->order_ts = MAX (im->order_ts, ts);
}

static gboolean
emit_call (StraceImport     *im,
           const StraceLine *ln,
           const char       *name,
           const char       *args,
           gsize             args_len,
           guint64           enter_ts,
           gboolean          finished,
           gint64            ret,
           guint64           exit_ts)
{
  if (!strace_emit_syscall (im, ln->tid, name, args, args_len, enter_ts, finished, ret, exit_ts))
    {
      strace_skip (im, ln, STRACE_SKIP_UNKNOWN_SYSCALL);
      return FALSE;
    }
  advance_order (im, exit_ts);
  /* -k prints the stack of a call that did not return ("exit_group(0) = ?") too. */
  if (!finished)
    strace_stack_begin (im, ln->tid, enter_ts);
  return TRUE;
}

/* "<... read resumed>"\177ELF"..., 832) = 832 <0.000017>": the end of an unfinished call. */
static void
parse_resumed (StraceImport     *im,
               const StraceLine *ln,
               const char       *p)
{
  g_autofree char *name = NULL;
  g_autoptr(GString) args = g_string_new (NULL);
  StracePending *pend;
  const char *rest;
  gsize len = 0;
  gssize close;
  gint64 ret = 0;
  guint64 dur, enter_ts, exit_ts;
  gboolean finished, valid, timed;

  while (p + len < ln->end && strace_is_ident (p[len]))
    len++;
  rest = p + len;
  if (len == 0 || !g_str_has_prefix (rest, " resumed>"))
    {
      strace_skip (im, ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  name = g_strndup (p, len);
  rest = strace_skip_spaces (rest + strlen (" resumed>"), ln->end);
  if ((close = strace_scan_args (rest, (gsize) (ln->end - rest), 1)) < 0)
    {
      strace_skip (im, ln, STRACE_SKIP_CUT_SHORT);
      return;
    }
  finished = parse_result (rest + close + 1, ln->end, &ret, &dur, &valid, &timed);
  if (!valid)
    {
      strace_skip (im, ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  im->saw_durations |= timed;

  pend = g_hash_table_lookup (im->pending, GINT_TO_POINTER (ln->tid));
  if (pend != NULL && !g_str_equal (pend->name, name))
    pend = NULL;
  if (pend != NULL)
    {
      gsize n = strlen (pend->args);

      /* "read(3, " + "\"...\", 832": join where strace split. */
      while (n > 0 && (pend->args[n - 1] == ' ' || pend->args[n - 1] == ','))
        n--;
      g_string_append_len (args, pend->args, n);
    }
  if (close > 0)
    g_string_append_printf (args, "%s%.*s", args->len ? ", " : "", (int) close, rest);

  /* Without the start (the file began mid-call), -T tells when it started. */
  enter_ts = pend ? pend->ts : ln->ts > dur ? ln->ts - dur : ln->ts;
  exit_ts = dur > 0 ? enter_ts + dur : ln->ts;
  emit_call (im, ln, name, args->str, args->len, enter_ts, finished, ret, exit_ts);
  if (pend != NULL)
    g_hash_table_remove (im->pending, GINT_TO_POINTER (ln->tid));
}

/* Keeps a call for the line that resumes it; one the task left before is recorded unfinished. */
static void
add_pending (StraceImport     *im,
             const StraceLine *ln,
             char             *name,
             char             *args)
{
  StracePending *pend = g_new0 (StracePending, 1);
  StracePending *old;

  pend->name = name;
  pend->args = args;
  pend->ts = ln->ts;
  if ((old = g_hash_table_lookup (im->pending, GINT_TO_POINTER (ln->tid))))
    strace_emit_syscall (im, ln->tid, old->name, old->args, strlen (old->args), old->ts, FALSE,
                         0, 0);
  g_hash_table_replace (im->pending, GINT_TO_POINTER (ln->tid), pend);
  if (!seismo_ptrace_schema_get_by_name (im->schema, pend->name))
    strace_skip (im, ln, STRACE_SKIP_UNKNOWN_SYSCALL);
}

/* --- Calls split by the program's output ------------------------------------------------ */

static void
split_close (StraceImport *im)
{
  im->split.open = FALSE;
  g_clear_pointer (&im->split.name, g_free);
  g_string_truncate (im->split.args, 0);
  im->split.foreign_lines = 0;
}

/* The index just after the last comma at the top level of s (outside strings and brackets);
 * 0 when there is none. */
static gsize
after_last_comma (const char *s,
                  gsize       len)
{
  int depth = 0;
  gsize last = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = s[i];

      if (c == '"')
        {
          for (i++; i < len && s[i] != '"'; i++)
            if (s[i] == '\\')
              i++;
        }
      else if (c == '(' || c == '[' || c == '{')
        depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0)
        depth--;
      else if (c == ',' && depth == 0)
        last = i + 1;
    }
  return last;
}

/* How much of the last argument strace wrote before the program's text ran into it: a number,
 * a quoted string (with -s's "..."), a bracketed value, or a name with '|'s. */
static gsize
strace_part_of (const char *s,
                gsize       len)
{
  gsize i = 0;

  while (i < len && s[i] == ' ')
    i++;
  if (i >= len)
    return i;
  if (s[i] == '"')
    {
      for (i++; i < len && s[i] != '"'; i++)
        if (s[i] == '\\')
          i++;
      i = MIN (i + 1, len);
      if (len - i >= 3 && memcmp (s + i, "...", 3) == 0)
        i += 3;
      return i;
    }
  if (s[i] == '[' || s[i] == '{')
    {
      int depth = 0;

      for (; i < len; i++)
        {
          if (s[i] == '[' || s[i] == '{')
            depth++;
          else if ((s[i] == ']' || s[i] == '}') && --depth == 0)
            return i + 1;
        }
      return len;
    }
  if (s[i] == '-')
    i++;
  if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
    {
      for (i += 2; i < len && g_ascii_isxdigit (s[i]); i++)
        ;
      return i;
    }
  if (i < len && g_ascii_isdigit (s[i]))
    {
      while (i < len && g_ascii_isdigit (s[i]))
        i++;
      return i;
    }
  while (i < len && (strace_is_ident (s[i]) || s[i] == '|'))
    i++;
  return i;
}

/*
 * A line while a split call is open: the line that ends it (") = 3", or the rest of its
 * arguments then ") = 4" when strace prints them at exit), " <unfinished ...>" when strace
 * went to another task, or the program's output. FALSE when the line is strace's own and not
 * about the split call: the call stays unfinished and the line is read as usual.
 */
static gboolean
split_continue (StraceImport     *im,
                const StraceLine *ln)
{
  StraceSplit *sp = &im->split;
  const char *p = ln->start, *end = ln->end;
  gsize len = (gsize) (end - p);
  gssize close = strace_scan_args (p, len, 1);
  const char *trimmed = strace_skip_spaces (p, end);
  gboolean has_pid, has_time;
  g_autoptr(GString) args = NULL;
  gsize keep;

  if (close < 0 && (gsize) (end - trimmed) >= strlen (unfinished_marker)
      && g_str_has_suffix (trimmed, unfinished_marker)
      && !strace_line_looks_like (p, len, &has_pid, &has_time))
    {
      StraceLine head = *ln;

      /* The program's text before the marker is its own; strace's arguments end before it. */
      keep = after_last_comma (sp->args->str, sp->args->len);
      keep += strace_part_of (sp->args->str + keep, sp->args->len - keep);
      head.tid = sp->tid;
      head.ts = sp->ts;
      add_pending (im, &head, g_steal_pointer (&sp->name), g_strndup (sp->args->str, keep));
      split_close (im);
      return TRUE;
    }
  if (close >= 0)
    {
      gint64 ret = 0;
      guint64 dur;
      gboolean valid, timed, finished;
      const char *before = strace_skip_spaces (p, p + close);
      StraceLine call = *ln;

      finished = parse_result (p + close + 1, end, &ret, &dur, &valid, &timed);
      if (valid)
        {
          args = g_string_new (NULL);
          keep = after_last_comma (sp->args->str, sp->args->len);
          if (before < p + close)
            /* The rest of the arguments, printed at exit: the text after strace's last comma
             * was the program's ("read(0, " + typed text). */
            g_string_append_len (args, sp->args->str, keep);
          else
            g_string_append_len (args, sp->args->str,
                                 keep + strace_part_of (sp->args->str + keep,
                                                        sp->args->len - keep));
          g_string_append_len (args, before, p + close - before);
          im->saw_durations |= timed;
          call.tid = sp->tid;
          call.ts = sp->ts;
          call.no = sp->line_no;
          emit_call (im, &call, sp->name, args->str, args->len, sp->ts, finished, ret,
                     sp->ts + dur);
          split_close (im);
          return TRUE;
        }
    }
  if (strace_line_looks_like (p, len, &has_pid, &has_time))
    {
      StraceLine head = *ln;

      /* strace went on without ending the call on this line: it stays unfinished. */
      head.tid = sp->tid;
      head.no = sp->line_no;
      emit_call (im, &head, sp->name, sp->args->str, sp->args->len, sp->ts, FALSE, 0, 0);
      split_close (im);
      return FALSE;
    }
  strace_skip (im, ln, STRACE_SKIP_PROGRAM_OUTPUT);
  sp->foreign_lines++;
  return TRUE;
}

void
strace_end_of_file (StraceImport *im,
                    const char   *file)
{
  if (im->split.open)
    {
      StraceLine head = { file, im->split.line_no, im->split.args->str,
                          im->split.args->str + im->split.args->len, im->split.tid, im->split.ts };

      /* The last call, cut by the end of the file (strace stopped mid-line): its arguments are
       * there, its result is not. */
      emit_call (im, &head, im->split.name, im->split.args->str, im->split.args->len,
                 im->split.ts, FALSE, 0, 0);
      split_close (im);
    }
  strace_stack_flush (im);
}

/* --- Prefixes ----------------------------------------------------------------------------- */

/* "123", "123<comm>": the pid --decode-pids=comm decorates. Moves *pp past it; FALSE (and *pp
 * unmoved) when it is not one. */
static gboolean
parse_pid (StraceImport *im,
           const char  **pp,
           const char   *end,
           gint32       *tid,
           char          comm[16])
{
  const char *p = *pp, *q = p;

  comm[0] = '\0';
  while (q < end && g_ascii_isdigit (*q))
    q++;
  if (q == p || q - p > 9)
    return FALSE;
  if (q < end && *q == '<')
    {
      const char *gt = memchr (q, '>', (gsize) (end - q));

      if (gt == NULL || gt - q - 1 > 64)
        return FALSE;
      g_strlcpy (comm, q + 1, MIN ((gsize) (gt - q), 16));
      q = gt + 1;
    }
  *tid = atoi (p);
  *pp = q;
  return TRUE;
}

void
strace_parse_line (StraceImport *im,
                   const char   *line,
                   gsize         len,
                   gint32        file_pid,
                   gint32        default_pid,
                   const char   *file,
                   guint64       line_no)
{
  const char *p = line, *end = line + len;
  StraceLine ln = { file, line_no, line, end, file_pid >= 0 ? file_pid : default_pid, 0 };
  const char *name, *args;
  gsize name_len;
  gssize close;
  gint64 ret = 0;
  guint64 dur;
  gboolean valid, timed, finished;
  char comm[16] = "";
  g_autofree char *sname = NULL;
  gint32 stack_tid;
  guint64 stack_ts;
  gsize stack_event;

  /* -k's stack frames, " > /usr/lib/libc.so.6(write+0x14) [0xf1234]", belong to the line above. */
  if (len >= 3 && p[0] == ' ' && p[1] == '>' && p[2] == ' ')
    {
      strace_stack_add (im, &ln, p + 3);
      return;
    }
  stack_tid = im->stack_open ? im->stack_tid : -1;
  stack_ts = im->stack_ts;
  stack_event = im->stack_event;
  strace_stack_flush (im);
  if (im->split.open && split_continue (im, &ln))
    return;
  if (p == end)
    return;
  /* strace ends the line of a call in progress when it lets the task go; the "Process N
   * detached" note says the rest. */
  if (*p == ' ' && g_str_equal (strace_skip_spaces (p, end), detached_marker))
    return;
  if (G_UNLIKELY ((*p == '%' || *p == 's' || *p == 'S' || im->in_summary)
                  && strace_summary_line (im, p, len)))
    return;
  im->n_lines++;

  if ((*p == 's' || *p == 'P') && strace_parse_process_note (im, &ln, p))
    return;
  if (g_str_has_prefix (p, "strace: "))
    {
      strace_skip (im, &ln, STRACE_SKIP_MESSAGE);
      return;
    }

  /* "[pid  123] " (strace -f to a terminal) or "123 " (-f -o FILE). */
  if (g_str_has_prefix (p, "[pid "))
    {
      const char *q = strace_skip_spaces (p + 5, end);

      if (!parse_pid (im, &q, end, &ln.tid, comm) || q >= end || *q != ']')
        {
          strace_skip (im, &ln, STRACE_SKIP_UNREADABLE);
          return;
        }
      p = strace_skip_spaces (q + 1, end);
    }
  else if (file_pid < 0 && g_ascii_isdigit (*p))
    {
      const char *q = p;
      gint32 tid;

      if (parse_pid (im, &q, end, &tid, comm) && q < end && *q == ' ')
        {
          ln.tid = tid;
          p = strace_skip_spaces (q, end);
        }
      else
        comm[0] = '\0';
    }
  if (comm[0])
    {
      StraceTask *t = strace_task_get (im, ln.tid);

      /* The name it has now; an exec's own event renames it when it comes. */
      if (t->comm[0] == '\0')
        {
          memcpy (t->comm, comm, sizeof t->comm);
          seismo_trace_builder_set_task_comm (im->builder, ln.tid, comm, im->last_ts);
        }
    }

  if (p < end && g_ascii_isdigit (*p))
    {
      if (!parse_time (im, &p, end, &ln.ts))
        {
          strace_skip (im, &ln, STRACE_SKIP_UNREADABLE);
          return;
        }
    }
  else if (!im->time_known || im->time_style == STRACE_TIME_NONE)
    {
      /* No clock: the order of the lines only, kept in the timestamps (seismo-timing.h). */
      im->time_style = STRACE_TIME_NONE;
      im->time_known = TRUE;
      ln.ts = im->order_ts + 1000;
      im->order_ts = ln.ts;
    }
  else
    {
      /* A line without the time the others have: not strace's. */
      strace_skip (im, &ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  im->last_ts = ln.ts;

  /* strace's note on a change of personality: "[ Process PID=123 runs in 32 bit mode. ]". */
  if (g_str_has_prefix (p, "[ Process PID="))
    return;
  /* -i's instruction pointer "[00007f4c1d2e5a17] ", -n's syscall number "[  59] ". */
  while (*p == '[')
    {
      const char *bracket = strchr (p, ']');

      if (bracket == NULL || bracket[1] != ' ')
        {
          strace_skip (im, &ln, STRACE_SKIP_UNREADABLE);
          return;
        }
      p = strace_skip_spaces (bracket + 1, end);
    }
  if (g_str_has_prefix (p, "--- "))
    {
      strace_parse_signal (im, &ln, p + 4);
      return;
    }
  if (g_str_has_prefix (p, "+++ "))
    {
      /* strace prints the last call's stack after the task's end. */
      if (stack_tid == ln.tid)
        {
          im->last_event = stack_event;
          strace_stack_begin (im, stack_tid, stack_ts);
        }
      strace_parse_exit (im, &ln, p + 4);
      return;
    }
  if (g_str_has_prefix (p, "<... "))
    {
      parse_resumed (im, &ln, p + 5);
      return;
    }

  /* NAME(ARGS) = RET or NAME(ARGS <unfinished ...> */
  name = p;
  name_len = 0;
  while (name + name_len < end && strace_is_ident (name[name_len]))
    name_len++;
  if (name_len == 0 || name + name_len >= end || name[name_len] != '(')
    {
      strace_skip (im, &ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  sname = g_strndup (name, name_len);
  args = name + name_len + 1;

  if (g_str_has_suffix (p, unfinished_marker) || g_str_has_suffix (p, detached_marker))
    {
      const char *args_end = end - (g_str_has_suffix (p, unfinished_marker)
                                      ? strlen (unfinished_marker) : strlen (detached_marker));

      add_pending (im, &ln, g_steal_pointer (&sname), g_strndup (args, (gsize) (args_end - args)));
      return;
    }

  if ((close = strace_scan_args (args, (gsize) (end - args), 1)) < 0)
    {
      /* Broken by the program's output (or the end of the file): kept until its end comes. */
      if (im->split.open)
        split_close (im);
      im->split.open = TRUE;
      im->split.name = g_steal_pointer (&sname);
      g_string_assign (im->split.args, "");
      g_string_append_len (im->split.args, args, end - args);
      im->split.tid = ln.tid;
      im->split.ts = ln.ts;
      im->split.line_no = ln.no;
      return;
    }
  finished = parse_result (args + close + 1, end, &ret, &dur, &valid, &timed);
  if (!valid)
    {
      strace_skip (im, &ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  im->saw_durations |= timed;
  emit_call (im, &ln, sname, args, (gsize) close, ln.ts, finished, ret, ln.ts + dur);
}

/* --- Sniffing ----------------------------------------------------------------------------- */

/* g_str_has_prefix() for text that is not NUL-terminated (the sniffer's head). */
static gboolean
has_prefix_before (const char *p,
                   const char *end,
                   const char *prefix)
{
  gsize n = strlen (prefix);

  return p <= end && (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

gboolean
strace_line_looks_like (const char *line,
                        gsize       len,
                        gboolean   *has_pid,
                        gboolean   *has_time)
{
  const char *p = line, *end = line + len;
  const char *q;

  *has_pid = *has_time = FALSE;
  /* Bounded throughout: the sniffer's head is not NUL-terminated. */
  if (has_prefix_before (p, end, "[pid "))
    {
      if (!(p = memchr (p, ']', len)))
        return FALSE;
      p = strace_skip_spaces (p + 1, end);
      *has_pid = TRUE;
    }
  for (int field = 0; field < 2 && p < end && g_ascii_isdigit (*p); field++)
    {
      gboolean time_like = FALSE;

      for (q = p; q < end && (g_ascii_isdigit (*q) || *q == '.' || *q == ':'); q++)
        time_like |= *q == '.' || *q == ':';
      /* --decode-pids=comm: "123<cat> ". */
      if (!time_like && field == 0 && q < end && *q == '<')
        {
          const char *gt = memchr (q, '>', (gsize) (end - q));

          if (gt == NULL || gt - q > 65)
            return FALSE;
          q = gt + 1;
        }
      if (q >= end || *q != ' ')
        return FALSE;
      if (time_like)
        *has_time = TRUE;
      else if (field == 0 && !*has_pid)
        *has_pid = TRUE;
      else
        return FALSE;
      p = strace_skip_spaces (q, end);
      if (time_like)
        break;
    }
  /* -n's syscall number and -i's instruction pointer. */
  while (p < end && *p == '[' && (q = memchr (p, ']', (gsize) (end - p))) && q + 1 < end
         && q[1] == ' ')
    p = strace_skip_spaces (q + 1, end);
  if (has_prefix_before (p, end, "--- SIG") || has_prefix_before (p, end, "+++ exited with ")
      || has_prefix_before (p, end, "+++ killed by ") || has_prefix_before (p, end, "<... "))
    return TRUE;
  for (q = p; q < end && strace_is_ident (*q); q++)
    ;
  if (q == p || q >= end || *q != '(' || g_ascii_isdigit (*p))
    return FALSE;
  /* name(...) = result, or a call strace had to leave for another task. */
  return g_strstr_len (q, end - q, ") ") != NULL || g_strstr_len (q, end - q, ")=") != NULL
         || g_strstr_len (q, end - q, unfinished_marker) != NULL;
}

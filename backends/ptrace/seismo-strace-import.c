/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * Reads strace text output (-f with -o, or -ff per-process files; -t, -tt, -ttt or -r times; -T
 * durations) into the same events a live ptrace recording makes: the argument text is parsed
 * back into the decoded fields of seismo-ptrace-schema.c, so both display, filter and count alike.
 *
 * Lines that are not strace's (interleaved program output, a line cut short at the end of the
 * file) are counted in the "skipped_lines" metadata; a file with no strace line at all is an
 * error. The summary table strace -C appends is strace's: counted apart ("strace_summary_lines").
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "seismo-error.h"
#include "seismo-importer.h"
#include "seismo-ptrace-private.h"

typedef enum {
  TIME_NONE,       /* no timestamps: one microsecond per line, to keep the order */
  TIME_OF_DAY,     /* -t, -tt: 08:23:42.123456 */
  TIME_EPOCH,      /* -ttt: 1795938553.850344 */
  TIME_RELATIVE,   /* -r: seconds since the previous line */
} TimeStyle;

typedef struct {
  char    *name;
  char    *args;       /* argument text up to <unfinished ...> */
  guint64  ts;
} Pending;

typedef struct {
  gint32 pid;
  gint32 ppid;
  char   comm[16];
} Task;

typedef struct {
  SeismoTraceBuilder *builder;
  SeismoPtraceSchema *schema;
  GHashTable         *pending;     /* tid → Pending */
  GHashTable         *tasks;       /* tid → Task */
  GPtrArray          *items;       /* scratch: split arguments (char *, owned) */
  TimeStyle           time_style;
  gboolean            time_known;
  guint64             day_base;    /* TIME_OF_DAY: whole days passed */
  guint64             last_tod;
  guint64             last_ts;
  guint64             n_lines;
  guint64             n_events;
  guint64             skipped;
  guint64             summary_lines; /* strace -C's table at the end: known, not events */
  gboolean            in_summary;
  guint64             first_skipped_line;
  char               *first_skipped_file;
  char               *command;     /* argv of the first exec */
  GCancellable       *cancellable;
  SeismoProgressFunc  progress;
  gpointer            progress_data;
  guint64             total_bytes;
  guint64             done_bytes;  /* of the files before the current one */
} Import;

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

/* si_code names strace prints (their values overlap between signals; any match will do). */
static const SeismoSymbol si_codes[] = {
  { 0, "SI_USER" }, { 0x80, "SI_KERNEL" }, { (guint64) -1, "SI_QUEUE" },
  { (guint64) -2, "SI_TIMER" }, { (guint64) -3, "SI_MESGQ" }, { (guint64) -4, "SI_ASYNCIO" },
  { (guint64) -5, "SI_SIGIO" }, { (guint64) -6, "SI_TKILL" }, { 1, "CLD_EXITED" },
  { 2, "CLD_KILLED" }, { 3, "CLD_DUMPED" }, { 4, "CLD_TRAPPED" }, { 5, "CLD_STOPPED" },
  { 6, "CLD_CONTINUED" }, { 1, "SEGV_MAPERR" }, { 2, "SEGV_ACCERR" }, { 3, "SEGV_BNDERR" },
  { 4, "SEGV_PKUERR" }, { 1, "BUS_ADRALN" }, { 2, "BUS_ADRERR" }, { 3, "BUS_OBJERR" },
  { 1, "TRAP_BRKPT" }, { 2, "TRAP_TRACE" }, { 1, "ILL_ILLOPC" }, { 1, "FPE_INTDIV" },
  { 2, "FPE_INTOVF" }, { 1, "POLL_IN" }, { 2, "POLL_OUT" },
};
static const SeismoPtraceXlat si_code_xlat = { si_codes, G_N_ELEMENTS (si_codes) };

/* strace prints clone()'s arguments by name, in its own order. */
static const struct {
  const char *syscall;
  const char *strace_name;
  const char *kernel_name;
} named_args[] = {
  { "clone", "child_stack", "newsp" },
  { "clone", "flags", "clone_flags" },
  { "clone", "parent_tid", "parent_tidptr" },
  { "clone", "parent_tidptr", "parent_tidptr" },
  { "clone", "child_tidptr", "child_tidptr" },
  { "clone", "tls", "tls" },
  { "clone", "stack", "newsp" },
};

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_free (p->name);
  g_free (p->args);
  g_free (p);
}

static inline const char *
skip_spaces (const char *p,
             const char *end)
{
  while (p < end && *p == ' ')
    p++;
  return p;
}

static inline gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/*
 * Finds the end of a parenthesised argument list: the index of the ')' that brings depth to 0,
 * skipping quoted strings and comments; -1 when the text ends first.
 */
static gssize
scan_args (const char *s,
           gsize       len,
           int         depth)
{
  for (gsize i = 0; i < len; i++)
    {
      char c = s[i];

      if (c == '"')
        {
          for (i++; i < len && s[i] != '"'; i++)
            if (s[i] == '\\')
              i++;
          if (i >= len)
            return -1;
        }
      else if (c == '/' && i + 1 < len && s[i + 1] == '*')
        {
          const char *close = g_strstr_len (s + i + 2, len - i - 2, "*/");

          if (close == NULL)
            return -1;
          i = (gsize) (close - s) + 1;
        }
      else if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        {
          if (--depth == 0)
            return c == ')' ? (gssize) i : -1;
          if (depth < 0)
            return -1;
        }
    }
  return -1;
}

/* Splits argument text at top-level commas into im->items (trimmed copies). */
static void
split_args (Import     *im,
            const char *s,
            gsize       len)
{
  int depth = 0;
  gsize start = 0;

  g_ptr_array_set_size (im->items, 0);
  for (gsize i = 0; i <= len; i++)
    {
      char c = i < len ? s[i] : ',';

      if (c == '"' && i < len)
        {
          for (i++; i < len && s[i] != '"'; i++)
            if (s[i] == '\\')
              i++;
          continue;
        }
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0)
        depth--;
      else if (c == ',' && depth == 0)
        {
          const char *a = s + start, *b = s + MIN (i, len);

          while (a < b && g_ascii_isspace (*a))
            a++;
          while (b > a && g_ascii_isspace (b[-1]))
            b--;
          if (b > a || i < len)
            g_ptr_array_add (im->items, g_strndup (a, (gsize) (b - a)));
          start = i + 1;
        }
    }
}

/* A number as strace prints it: decimal, 0x hex, 0 octal, negative. */
static gboolean
parse_number (const char *s,
              gsize       len,
              guint64    *value)
{
  char buf[32];
  char *end;
  gboolean neg = FALSE;
  const char *p = s;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, s, len);
  buf[len] = '\0';
  p = buf;
  if (*p == '-')
    {
      neg = TRUE;
      p++;
    }
  if (!g_ascii_isdigit (*p))
    return FALSE;
  errno = 0;
  *value = g_ascii_strtoull (p, &end, 0);
  if (end == p || errno != 0)
    return FALSE;
  if (neg)
    *value = (guint64) -(gint64) *value;
  return *end == '\0';
}

/* The numeric value of an argument: numbers, symbols of xlat, signals, OR'ed with '|'. */
static guint64
parse_value (const char             *item,
             const SeismoPtraceXlat *xlat)
{
  guint64 total = 0;
  const char *p = item;
  const char *or;

  if (g_str_equal (item, "NULL"))
    return 0;
  if (g_str_equal (item, "AT_FDCWD"))
    return (guint64) -100;
  /* A value strace annotated with a C comment (execve: the number of environment variables). */
  if ((or = strstr (item, " /*")))
    {
      g_autofree char *value = g_strndup (item, (gsize) (or - item));

      return parse_value (value, xlat);
    }
  /* Alternatives for ambiguous ioctl numbers: "TCGETS or SNDCTL_TMR_TIMEBASE". */
  if ((or = strstr (item, " or ")))
    {
      g_autofree char *first = g_strndup (item, (gsize) (or - item));

      return parse_value (first, xlat);
    }

  while (*p)
    {
      gsize len = strcspn (p, "|");
      guint64 v = 0;
      int sig;
      char name[64];

      /* A descriptor decoded with -y: 3</etc/passwd>. */
      if (len > 0 && g_ascii_isdigit (*p) && memchr (p, '<', len))
        len = strcspn (p, "<");
      if (parse_number (p, len, &v))
        total |= v;
      else if (xlat && seismo_ptrace_xlat_lookup (xlat, p, len, &v))
        total |= v;
      else if (len < sizeof name)
        {
          memcpy (name, p, len);
          name[len] = '\0';
          if ((sig = seismo_signal_from_name (name)) > 0)
            total |= (guint64) sig;
        }
      p += len;
      if (*p == '|')
        p++;
      else
        break;
    }
  return total;
}

/* A quoted string argument's text between the quotes (kept escaped), plus the marker. */
/*
 * The text between the quotes of a string argument, kept escaped as strace wrote it (a live
 * recording stores strings escaped the same way), plus the marker when strace cut it. Empty for
 * NULL or an address strace could not read. Caller frees.
 */
static char *
unquote (const char *item)
{
  const char *q = item + 1;
  const char *end = q;

  if (item[0] != '"')
    return g_strdup ("");
  for (; *end && *end != '"'; end++)
    if (*end == '\\' && end[1])
      end++;
  if (*end == '"' && g_str_has_prefix (end + 1, SEISMO_FIELD_FLAG_TRUNCATED_MARKER))
    {
      g_autofree char *text = g_strndup (q, (gsize) (end - q));

      return g_strconcat (text, SEISMO_FIELD_FLAG_TRUNCATED_MARKER, NULL);
    }
  return g_strndup (q, (gsize) (end - q));
}

static void
push_quoted (Import     *im,
             const char *item)
{
  g_autofree char *text = unquote (item);

  seismo_trace_builder_push_string (im->builder, text);
}

static void
push_item (Import                *im,
           const SeismoPtraceArg *arg,
           const char            *item)
{
  if (item == NULL)
    {
      /* strace leaves out arguments that do not matter (openat's mode without O_CREAT). */
      if (arg->kind == SEISMO_PTRACE_ARG_PATH || arg->kind == SEISMO_PTRACE_ARG_BUF_IN
          || arg->kind == SEISMO_PTRACE_ARG_BUF_OUT || arg->kind == SEISMO_PTRACE_ARG_PATH_OUT
          || arg->kind == SEISMO_PTRACE_ARG_ARGV)
        seismo_trace_builder_push_string (im->builder, "");
      else if (arg->kind == SEISMO_PTRACE_ARG_INT || arg->kind == SEISMO_PTRACE_ARG_FD
               || arg->kind == SEISMO_PTRACE_ARG_SIGNAL)
        seismo_trace_builder_push_int (im->builder, 0);
      else
        seismo_trace_builder_push_uint (im->builder, 0);
      return;
    }

  switch (arg->kind)
    {
    case SEISMO_PTRACE_ARG_INT:
    case SEISMO_PTRACE_ARG_FD:
    case SEISMO_PTRACE_ARG_SIGNAL:
      {
        gint64 v = (gint64) parse_value (item, arg->xlat);

        if (arg->size == 4 || arg->kind != SEISMO_PTRACE_ARG_INT)
          v = (gint32) v;
        seismo_trace_builder_push_int (im->builder, v);
      }
      break;
    case SEISMO_PTRACE_ARG_UINT:
    case SEISMO_PTRACE_ARG_SYMBOL:
    case SEISMO_PTRACE_ARG_FLAGS:
      {
        guint64 v = parse_value (item, arg->xlat);

        seismo_trace_builder_push_uint (im->builder, arg->size == 4 ? (guint32) v : v);
      }
      break;
    case SEISMO_PTRACE_ARG_POINTER:
      /* Structures and arrays strace decoded lost their address. */
      seismo_trace_builder_push_uint (im->builder,
                                      strchr ("{[\"~", item[0]) ? 0 : parse_value (item, NULL));
      break;
    case SEISMO_PTRACE_ARG_PATH:
    case SEISMO_PTRACE_ARG_BUF_IN:
    case SEISMO_PTRACE_ARG_BUF_OUT:
    case SEISMO_PTRACE_ARG_PATH_OUT:
      push_quoted (im, item);
      break;
    case SEISMO_PTRACE_ARG_ARGV:
      seismo_trace_builder_push_string (im->builder, item[0] == '[' ? item : "");
      break;
    default:
      g_assert_not_reached ();
    }
}

static Task *
task_get (Import *im,
          gint32  tid)
{
  Task *t = g_hash_table_lookup (im->tasks, GINT_TO_POINTER (tid));

  if (t == NULL)
    {
      t = g_new0 (Task, 1);
      t->pid = tid;
      t->ppid = -1;
      g_hash_table_insert (im->tasks, GINT_TO_POINTER (tid), t);
      seismo_trace_builder_set_task_pid (im->builder, tid, tid);
    }
  return t;
}

/* Which item holds the argument named kernel_name, with strace's "name=value" spelling. */
static const char *
find_item (Import                    *im,
           const SeismoPtraceSyscall *sc,
           guint                      index)
{
  const char *kernel_name = sc->args[index].name;
  gboolean named = FALSE;

  for (guint i = 0; i < im->items->len; i++)
    {
      const char *item = g_ptr_array_index (im->items, i);
      const char *eq = item;

      while (is_ident (*eq))
        eq++;
      if (eq == item || *eq != '=' || eq[1] == '=')
        continue;
      named = TRUE;
      for (guint k = 0; k < G_N_ELEMENTS (named_args); k++)
        if (g_str_equal (sc->name, named_args[k].syscall)
            && g_str_equal (kernel_name, named_args[k].kernel_name)
            && strncmp (item, named_args[k].strace_name, (gsize) (eq - item)) == 0
            && named_args[k].strace_name[eq - item] == '\0')
          return eq + 1;
      if (strncmp (item, kernel_name, (gsize) (eq - item)) == 0
          && kernel_name[eq - item] == '\0')
        return eq + 1;
    }
  if (named)
    return NULL;
  return index < im->items->len ? g_ptr_array_index (im->items, index) : NULL;
}

static void
emit_fork (Import     *im,
           gint32      tid,
           gint32      child_tid,
           gboolean    thread,
           guint64     ts)
{
  Task *parent = task_get (im, tid);
  Task *child = task_get (im, child_tid);

  child->pid = thread ? parent->pid : child_tid;
  child->ppid = thread ? parent->ppid : parent->pid;
  memcpy (child->comm, parent->comm, sizeof child->comm);
  seismo_trace_builder_set_task_pid (im->builder, child_tid, child->pid);
  if (child->ppid > 0)
    seismo_trace_builder_set_task_ppid (im->builder, child_tid, child->ppid);
  if (child->comm[0])
    seismo_trace_builder_set_task_comm (im->builder, child_tid, child->comm, ts);

  seismo_trace_builder_begin_event (im->builder, ts, 0, tid,
                                    seismo_ptrace_schema_fork_type (im->schema));
  seismo_trace_builder_push_string (im->builder, parent->comm);
  seismo_trace_builder_push_int (im->builder, tid);
  seismo_trace_builder_push_string (im->builder, child->comm);
  seismo_trace_builder_push_int (im->builder, child_tid);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
}

static void
emit_exec (Import     *im,
           gint32      tid,
           const char *filename,
           const char *argv,
           guint64     ts)
{
  Task *t = task_get (im, tid);

  seismo_ptrace_comm_from_filename (filename, t->comm);
  seismo_trace_builder_set_task_comm (im->builder, tid, t->comm, ts);
  if (im->command == NULL)
    im->command = g_strdup (argv);
  seismo_trace_builder_begin_event (im->builder, ts, 0, tid,
                                    seismo_ptrace_schema_exec_type (im->schema));
  seismo_trace_builder_push_string (im->builder, filename);
  seismo_trace_builder_push_int (im->builder, tid);
  seismo_trace_builder_push_int (im->builder, tid);
  seismo_trace_builder_push_string (im->builder, argv);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
}

/* Appends one syscall from its name, argument text and (when it returned) its result. */
static void
emit_syscall (Import     *im,
              gint32      tid,
              const char *name,
              const char *args,
              gsize       args_len,
              guint64     enter_ts,
              gboolean    finished,
              gint64      ret,
              guint64     exit_ts)
{
  SeismoPtraceSyscall *sc = seismo_ptrace_schema_get_by_name (im->schema, name);

  if (sc == NULL)
    return;
  task_get (im, tid);
  seismo_ptrace_schema_ensure_types (im->schema, sc);
  split_args (im, args, args_len);

  seismo_trace_builder_begin_event (im->builder, enter_ts, 0, tid, sc->enter_type);
  if (sc->raw)
    {
      guint64 raw[6] = { 0 };

      for (guint i = 0; i < 6 && i < im->items->len; i++)
        raw[i] = parse_value (g_ptr_array_index (im->items, i), NULL);
      seismo_trace_builder_push_uint_array (im->builder, raw, 6);
    }
  else
    for (guint i = 0; i < sc->n_args; i++)
      push_item (im, &sc->args[i], find_item (im, sc, i));
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;

  if (!finished)
    return;

  /* Process events follow from the calls that make them: a fork while it runs, an exec as it
   * returns (before the return, as a live recording sees it). */
  if (ret > 0 && (g_str_equal (name, "clone") || g_str_equal (name, "clone3")
                  || g_str_equal (name, "fork") || g_str_equal (name, "vfork")))
    emit_fork (im, tid, (gint32) ret, g_strstr_len (args, args_len, "CLONE_THREAD") != NULL,
               enter_ts);
  else if (ret == 0 && (g_str_equal (name, "execve") || g_str_equal (name, "execveat")))
    {
      guint fi = g_str_equal (name, "execve") ? 0 : 1;
      const char *file = fi < im->items->len ? g_ptr_array_index (im->items, fi) : "";
      const char *argv = fi + 1 < im->items->len ? g_ptr_array_index (im->items, fi + 1) : "";
      g_autofree char *filename = unquote (file);

      emit_exec (im, tid, filename, argv[0] == '[' ? argv : "", exit_ts);
    }

  seismo_trace_builder_begin_event (im->builder, exit_ts, 0, tid, sc->exit_type);
  seismo_trace_builder_push_int (im->builder, ret);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
}

/* Parses "= RET [ERRNO (text)] [<dur>]"; FALSE when the syscall did not return ("= ?"). */
static gboolean
parse_result (const char *p,
              const char *end,
              gint64     *ret,
              guint64    *dur_ns,
              gboolean   *valid)
{
  const char *lt;
  guint64 v;
  gsize len;

  *valid = FALSE;
  *dur_ns = 0;
  p = skip_spaces (p, end);
  if (p >= end || *p != '=')
    return FALSE;
  *valid = TRUE;
  p = skip_spaces (p + 1, end);

  /* -T: the time spent in the call, last on the line. */
  for (lt = end - 1; lt > p && *lt != '<'; lt--)
    ;
  if (lt > p && end[-1] == '>' && g_ascii_isdigit (lt[1]))
    {
      double d = g_ascii_strtod (lt + 1, NULL);

      /* Text from the file: a duration past what 64-bit ns hold (~584 years) stays unknown,
       * rather than an out-of-range conversion (undefined behaviour). */
      if (d < 1.8e10)
        *dur_ns = (guint64) (d * 1e9 + 0.5);
    }

  len = strcspn (p, " ");
  if (p + len > end)
    len = (gsize) (end - p);
  if (len == 1 && *p == '?')
    {
      /* "= ? ERESTARTSYS (...)": it returned, into a restart. */
      const char *e = skip_spaces (p + 1, end);

      for (guint i = 0; i < G_N_ELEMENTS (restart_errnos); i++)
        if (g_str_has_prefix (e, restart_errnos[i].name))
          {
            *ret = -restart_errnos[i].value;
            return TRUE;
          }
      return FALSE;
    }
  if (!parse_number (p, len, &v))
    {
      *valid = FALSE;
      return FALSE;
    }
  *ret = (gint64) v;
  if (*ret == -1)
    {
      const char *e = skip_spaces (p + len, end);
      gsize elen = 0;
      char name[32];
      int errnum;

      while (e + elen < end && is_ident (e[elen]))
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
parse_time (Import      *im,
            const char **pp,
            const char  *end,
            guint64     *ts)
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
          im->time_style = TIME_OF_DAY;
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
          im->time_style = sec < 1000000 ? TIME_RELATIVE : TIME_EPOCH;
          im->time_known = TRUE;
        }
      *ts = im->time_style == TIME_RELATIVE ? im->last_ts + ns : ns;
    }
  *pp = skip_spaces (p, end);
  return TRUE;
}

/* The line being parsed: where it is (for the skipped-lines report), where its text ends, and
 * the task and time its prefix gave. */
typedef struct {
  const char *file;
  guint64     no;
  const char *end;
  gint32      tid;
  guint64     ts;
} Line;

static void
skip_line (Import     *im,
           const Line *ln)
{
  if (im->skipped++ == 0)
    {
      im->first_skipped_file = g_strdup (ln->file);
      im->first_skipped_line = ln->no;
    }
}

/* "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, ...} ---" */
static void
parse_signal (Import     *im,
              const Line *ln,
              const char *p)
{
  gsize len = 0;
  char name[32];
  int signum;
  const char *field;
  gint64 code = 0, err = 0;
  guint64 v;

  /* A group-stop is not a delivery. */
  if (g_str_has_prefix (p, "stopped by "))
    return;
  while (p + len < ln->end && is_ident (p[len]))
    len++;
  if (len == 0 || len >= sizeof name)
    {
      skip_line (im, ln);
      return;
    }
  memcpy (name, p, len);
  name[len] = '\0';
  /* Real-time signals are spelled SIGRT_3 or by number. */
  if ((signum = seismo_signal_from_name (name)) <= 0)
    {
      if (g_str_has_prefix (name, "SIGRT_") && parse_number (name + 6, len - 6, &v))
        signum = 34 + (int) v;
      else if (g_str_has_prefix (name, "SIGRTMIN"))
        signum = 34;
      else if (parse_number (name, len, &v))
        signum = (int) v;
      else
        {
          skip_line (im, ln);
          return;
        }
    }
  if ((field = g_strstr_len (p, ln->end - p, "si_code=")))
    {
      g_autofree char *value = g_strndup (field + 8, strcspn (field + 8, ",}"));

      code = (gint64) parse_value (value, &si_code_xlat);
    }
  if ((field = g_strstr_len (p, ln->end - p, "si_errno=")))
    {
      g_autofree char *value = g_strndup (field + 9, strcspn (field + 9, ",}"));

      err = (gint64) parse_value (value, NULL);
    }
  task_get (im, ln->tid);
  seismo_trace_builder_begin_event (im->builder, ln->ts, 0, ln->tid,
                                    seismo_ptrace_schema_signal_type (im->schema));
  seismo_trace_builder_push_int (im->builder, signum);
  seismo_trace_builder_push_int (im->builder, (gint32) err);
  seismo_trace_builder_push_int (im->builder, (gint32) code);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
}

/* "+++ exited with 0 +++", "+++ killed by SIGKILL (core dumped) +++" */
static void
parse_exit (Import     *im,
            const Line *ln,
            const char *what)
{
  gint64 exit_code = -1, exit_signal = 0;
  gboolean core = FALSE;
  Task *t;
  Pending *pend;

  if (g_str_has_prefix (what, "exited with "))
    exit_code = atoi (what + strlen ("exited with "));
  else if (g_str_has_prefix (what, "killed by "))
    {
      const char *s = what + strlen ("killed by ");
      char signame[32] = "";

      sscanf (s, "%31[A-Z0-9_]", signame);
      exit_signal = seismo_signal_from_name (signame);
      core = g_strstr_len (s, ln->end - s, "(core dumped)") != NULL;
    }
  else if (g_str_has_prefix (what, "superseded by execve"))
    return;
  else
    {
      skip_line (im, ln);
      return;
    }
  /* A call still in progress never returned. */
  if ((pend = g_hash_table_lookup (im->pending, GINT_TO_POINTER (ln->tid))))
    {
      emit_syscall (im, ln->tid, pend->name, pend->args, strlen (pend->args), pend->ts, FALSE, 0,
                    0);
      g_hash_table_remove (im->pending, GINT_TO_POINTER (ln->tid));
    }
  t = task_get (im, ln->tid);
  seismo_trace_builder_begin_event (im->builder, ln->ts, 0, ln->tid,
                                    seismo_ptrace_schema_exit_type (im->schema));
  seismo_trace_builder_push_string (im->builder, t->comm);
  seismo_trace_builder_push_int (im->builder, ln->tid);
  seismo_trace_builder_push_int (im->builder, exit_code);
  seismo_trace_builder_push_int (im->builder, exit_signal);
  seismo_trace_builder_push_uint (im->builder, core);
  seismo_trace_builder_end_event (im->builder);
  seismo_trace_builder_task_exited (im->builder, ln->tid, ln->ts);
  im->n_events++;
}

/* "<... read resumed>"\177ELF"..., 832) = 832 <0.000017>": the end of an unfinished call. */
static void
parse_resumed (Import     *im,
               const Line *ln,
               const char *p)
{
  g_autofree char *name = NULL;
  g_autoptr(GString) args = g_string_new (NULL);
  Pending *pend;
  const char *rest;
  gsize len = 0;
  gssize close;
  gint64 ret = 0;
  guint64 dur, enter_ts, exit_ts;
  gboolean finished, valid;

  while (p + len < ln->end && is_ident (p[len]))
    len++;
  rest = p + len;
  if (len == 0 || !g_str_has_prefix (rest, " resumed>"))
    {
      skip_line (im, ln);
      return;
    }
  name = g_strndup (p, len);
  rest = skip_spaces (rest + strlen (" resumed>"), ln->end);
  if ((close = scan_args (rest, (gsize) (ln->end - rest), 1)) < 0)
    {
      skip_line (im, ln);
      return;
    }
  finished = parse_result (rest + close + 1, ln->end, &ret, &dur, &valid);
  if (!valid)
    {
      skip_line (im, ln);
      return;
    }

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
  emit_syscall (im, ln->tid, name, args->str, args->len, enter_ts, finished, ret, exit_ts);
  if (pend != NULL)
    g_hash_table_remove (im->pending, GINT_TO_POINTER (ln->tid));
}

/*
 * strace -C (and -c with -o) ends with its summary table: a header ("% time     seconds ..." or,
 * with -U, the column names starting "syscall"), dashes, one row per syscall, dashes, and
 * "total". TRUE when the line belongs to it.
 */
static gboolean
summary_line (Import     *im,
              const char *line,
              gsize       len)
{
  const char *p = line, *end = line + len, *last;

  if (!im->in_summary)
    {
      if (g_str_has_prefix (line, "% time")
          || (g_str_has_prefix (line, "syscall ") && strstr (line, " calls") != NULL))
        {
          im->in_summary = TRUE;
          im->summary_lines++;
          return TRUE;
        }
      return FALSE;
    }
  /* A table cut short (no "total"): the trace goes on, and a syscall line has parentheses. */
  if (memchr (line, '(', len) != NULL)
    {
      im->in_summary = FALSE;
      return FALSE;
    }
  im->summary_lines++;
  p = skip_spaces (p, end);
  for (last = end; last > p && last[-1] != ' '; last--)
    ;
  if ((end - p >= 5 && strncmp (p, "total", 5) == 0 && (end - p == 5 || p[5] == ' '))
      || (end - last == 5 && strncmp (last, "total", 5) == 0))
    im->in_summary = FALSE;
  return TRUE;
}

/* Parses one line of a file whose lines belong to file_pid (-1: they start with the pid). */
static void
parse_line (Import     *im,
            const char *line,
            gsize       len,
            gint32      file_pid,
            gint32      default_pid,
            const char *file,
            guint64     line_no)
{
  const char *p = line, *end = line + len;
  Line ln = { file, line_no, end, file_pid >= 0 ? file_pid : default_pid, 0 };
  const char *name;
  gsize name_len;
  gssize close;
  gint64 ret = 0;
  guint64 dur;
  gboolean valid;

  /* -k's stack frames, " > /usr/lib/libc.so.6(write+0x14) [0xf1234]", belong to the line above. */
  if (p == end || g_str_has_prefix (p, " > "))
    return;
  if (G_UNLIKELY ((*p == '%' || *p == 's' || im->in_summary) && summary_line (im, p, len)))
    return;
  im->n_lines++;

  /* "[pid  123] " (strace -f to a terminal) or "123 " (-f -o FILE). */
  if (g_str_has_prefix (p, "[pid "))
    {
      ln.tid = atoi (skip_spaces (p + 5, end));
      if (!(p = memchr (p, ']', (gsize) (end - p))))
        {
          skip_line (im, &ln);
          return;
        }
      p = skip_spaces (p + 1, end);
    }
  else if (file_pid < 0 && g_ascii_isdigit (*p))
    {
      const char *q = p;

      while (q < end && g_ascii_isdigit (*q))
        q++;
      if (q < end && *q == ' ')
        {
          ln.tid = atoi (p);
          p = skip_spaces (q, end);
        }
    }

  if (p < end && g_ascii_isdigit (*p))
    {
      if (!parse_time (im, &p, end, &ln.ts))
        {
          skip_line (im, &ln);
          return;
        }
    }
  else if (!im->time_known || im->time_style == TIME_NONE)
    {
      im->time_style = TIME_NONE;
      im->time_known = TRUE;
      ln.ts = im->last_ts + 1000;
    }
  else
    {
      /* A line without the time the others have: not strace's. */
      skip_line (im, &ln);
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
          skip_line (im, &ln);
          return;
        }
      p = skip_spaces (bracket + 1, end);
    }
  if (g_str_has_prefix (p, "--- "))
    {
      parse_signal (im, &ln, p + 4);
      return;
    }

  if (g_str_has_prefix (p, "+++ "))
    {
      parse_exit (im, &ln, p + 4);
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
  while (name + name_len < end && is_ident (name[name_len]))
    name_len++;
  if (name_len == 0 || name + name_len >= end || name[name_len] != '(')
    {
      skip_line (im, &ln);
      return;
    }
  {
    g_autofree char *sname = g_strndup (name, name_len);
    const char *args = name + name_len + 1;
    static const char unfinished[] = "<unfinished ...>";
    static const char detached[] = "<detached ...>";

    if (g_str_has_suffix (p, unfinished) || g_str_has_suffix (p, detached))
      {
        const char *args_end = end - (g_str_has_suffix (p, unfinished) ? strlen (unfinished)
                                                                      : strlen (detached));
        Pending *pend = g_new0 (Pending, 1);
        Pending *old;

        pend->name = g_steal_pointer (&sname);
        pend->args = g_strndup (args, (gsize) (args_end - args));
        pend->ts = ln.ts;
        /* A previous call of this task that never resumed is recorded unfinished. */
        if ((old = g_hash_table_lookup (im->pending, GINT_TO_POINTER (ln.tid))))
          emit_syscall (im, ln.tid, old->name, old->args, strlen (old->args), old->ts, FALSE, 0, 0);
        g_hash_table_replace (im->pending, GINT_TO_POINTER (ln.tid), pend);
        if (!seismo_ptrace_schema_get_by_name (im->schema, pend->name))
          skip_line (im, &ln);
        return;
      }

    if ((close = scan_args (args, (gsize) (end - args), 1)) < 0)
      {
        /* Cut short (the end of a file written while strace ran), or garbage. */
        skip_line (im, &ln);
        return;
      }
    {
      gboolean finished = parse_result (args + close + 1, end, &ret, &dur, &valid);

      if (!valid || !seismo_ptrace_schema_get_by_name (im->schema, sname))
        {
          skip_line (im, &ln);
          return;
        }
      emit_syscall (im, ln.tid, sname, args, (gsize) close, ln.ts, finished, ret, ln.ts + dur);
    }
  }
}

/* --- Files ------------------------------------------------------------------------------- */

/* g_str_has_prefix() for text that is not NUL-terminated (the sniffer's head). */
static gboolean
has_prefix_before (const char *p,
                   const char *end,
                   const char *prefix)
{
  gsize n = strlen (prefix);

  return p <= end && (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

/* Does this line look like strace's? Used to sniff and to tell -ff files from -f -o ones. */
static gboolean
line_looks_like_strace (const char *line,
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
      p = skip_spaces (p + 1, end);
      *has_pid = TRUE;
    }
  for (int field = 0; field < 2 && p < end && g_ascii_isdigit (*p); field++)
    {
      gboolean time_like = FALSE;

      for (q = p; q < end && (g_ascii_isdigit (*q) || *q == '.' || *q == ':'); q++)
        time_like |= *q == '.' || *q == ':';
      if (q >= end || *q != ' ')
        return FALSE;
      if (time_like)
        *has_time = TRUE;
      else if (field == 0 && !*has_pid)
        *has_pid = TRUE;
      else
        return FALSE;
      p = skip_spaces (q, end);
      if (time_like)
        break;
    }
  /* -n's syscall number and -i's instruction pointer. */
  while (p < end && *p == '[' && (q = memchr (p, ']', (gsize) (end - p))) && q + 1 < end
         && q[1] == ' ')
    p = skip_spaces (q + 1, end);
  if (has_prefix_before (p, end, "--- SIG") || has_prefix_before (p, end, "+++ exited with ")
      || has_prefix_before (p, end, "+++ killed by ") || has_prefix_before (p, end, "<... "))
    return TRUE;
  for (q = p; q < end && is_ident (*q); q++)
    ;
  if (q == p || q >= end || *q != '(' || g_ascii_isdigit (*p))
    return FALSE;
  /* name(...) = result, or a call strace had to leave for another task. */
  return g_strstr_len (q, end - q, ") ") != NULL || g_strstr_len (q, end - q, ")=") != NULL
         || g_strstr_len (q, end - q, "<unfinished ...>") != NULL;
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
          if (line_looks_like_strace (p, (gsize) (nl - p), &pid, &time))
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

  share = score_head (head, len, &has_pid, &has_time);
  if (share < 0 && len > 0 && memchr (head, '\n', len) == NULL)
    {
      gsize n = len;

      /* One line without its newline (a short file). */
      if (memchr (head, '\0', len))
        return 0;
      share = line_looks_like_strace ((const char *) head, n, &has_pid, &has_time) ? 100 : 0;
    }
  if (share < 60)
    return 0;
  return has_time ? 80 : 60;
}

/* FALSE when cancelled. */
static gboolean
parse_file (Import     *im,
            const char *path,
            const char *data,
            gsize       len,
            gint32      file_pid,
            gint32      default_pid,
            GError    **error)
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
      parse_line (im, line->str, line->len, file_pid, default_pid, path, line_no);
      p = nl ? nl + 1 : end;
    }
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
    return atoi (eq + 4) > 0 ? atoi (eq + 4) : 1;
  return 1;
}

static void
finish_pending (Import *im)
{
  GHashTableIter iter;
  gpointer key, value;

  /* Calls in progress when strace stopped. */
  g_hash_table_iter_init (&iter, im->pending);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Pending *pend = value;

      emit_syscall (im, GPOINTER_TO_INT (key), pend->name, pend->args, strlen (pend->args),
                    pend->ts, FALSE, 0, 0);
    }
  g_hash_table_remove_all (im->pending);
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
  Import im = { 0 };
  gboolean is_dir = g_file_test (path, G_FILE_TEST_IS_DIR);
  guint n_files = 0;
  SeismoTrace *trace = NULL;
  char buf[64];

  im.builder = builder;
  im.schema = seismo_ptrace_schema_new (builder);
  im.pending = g_hash_table_new_full (NULL, NULL, NULL, pending_free);
  im.tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  im.items = g_ptr_array_new_with_free_func (g_free);

  /* -ff output: a folder, or one of the files, whose lines carry no pid. */
  if (!is_dir)
    {
      guint8 head[4096];
      gsize n;
      gboolean has_pid = TRUE, has_time;

      if (read_head (path, head, sizeof head, &n) == 0)
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
      /* Each -ff file has its own clock sequence for -r and the synthetic times. */
      im.last_ts = 0;
      if (!parse_file (&im, file, data, len, file_pid,
                       file_pid >= 0 ? file_pid : guess_pid (data, len), error))
        goto out;
      finish_pending (&im);
      im.done_bytes += len;
      if (progress)
        progress (im.total_bytes ? (double) im.done_bytes / im.total_bytes : 1.0, progress_data);
    }

  if (im.n_events == 0)
    {
      if (im.n_lines == 0)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT, _("%s is empty"), path);
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                     _("%s: no strace line in it (line %" PRIu64 " of %s is not one)"),
                     path, im.first_skipped_line, im.first_skipped_file);
      goto out;
    }

  seismo_trace_builder_set_metadata (builder, SEISMO_META_SOURCE, "strace");
  seismo_trace_builder_set_metadata (builder, SEISMO_META_ARCH, "x86_64");
  seismo_trace_builder_set_metadata (builder, SEISMO_META_ORIGINAL, path);
  seismo_trace_builder_set_metadata (builder, SEISMO_META_CLOCK,
                                     im.time_style == TIME_EPOCH ? "realtime"
                                     : im.time_style == TIME_OF_DAY ? "local" : "none");
  if (im.time_style == TIME_NONE || im.time_style == TIME_RELATIVE)
    seismo_trace_builder_set_metadata (builder, "timestamps",
                                       im.time_style == TIME_NONE ? "synthetic: 1 us per line"
                                                                  : "relative (strace -r)");
  if (im.command)
    seismo_trace_builder_set_metadata (builder, SEISMO_META_COMMAND, im.command);
  g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, im.skipped);
  seismo_trace_builder_set_metadata (builder, "skipped_lines", buf);
  if (im.skipped > 0)
    {
      g_autofree char *where = g_strdup_printf ("%s:%" G_GUINT64_FORMAT, im.first_skipped_file,
                                                im.first_skipped_line);

      seismo_trace_builder_set_metadata (builder, "first_skipped_line", where);
    }
  if (im.summary_lines > 0)
    {
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, im.summary_lines);
      seismo_trace_builder_set_metadata (builder, "strace_summary_lines", buf);
    }
  if (ff)
    {
      g_snprintf (buf, sizeof buf, "%u", n_files);
      seismo_trace_builder_set_metadata (builder, "strace_files", buf);
    }
  trace = seismo_trace_builder_finish (g_steal_pointer (&builder));

out:
  if (builder)
    seismo_trace_builder_free (builder);
  seismo_ptrace_schema_free (im.schema);
  g_hash_table_unref (im.pending);
  g_hash_table_unref (im.tasks);
  g_ptr_array_unref (im.items);
  g_free (im.first_skipped_file);
  g_free (im.command);
  return trace;
}

static const SeismoImporter strace_importer = {
  .name = "strace",
  .description = N_("strace text output (-f, -ff, -tt, -ttt, -T)"),
  .sniff = strace_sniff,
  .load = strace_load,
};

void
seismo_strace_importer_register (void)
{
  seismo_importer_register (&strace_importer);
}

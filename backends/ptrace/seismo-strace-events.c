/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * The events an strace line makes, the same a live ptrace recording makes: syscall enter and
 * exit, process fork/exec/exit, signal deliveries, and -k's stacks (the interned stack of the
 * call's enter event, or of the signal, seismo-stacks.h).
 */

#include <stdio.h>
#include <stdlib.h>

#include "seismo-stacks.h"
#include "seismo-strace-private.h"

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

/* Syscalls that make a new task: their return value is its tid. */
static const char *const fork_calls[] = { "clone", "clone3", "fork", "vfork", NULL };

StraceTask *
strace_task_get (StraceImport *im,
                 gint32        tid)
{
  StraceTask *t = g_hash_table_lookup (im->tasks, GINT_TO_POINTER (tid));

  if (t == NULL)
    {
      t = g_new0 (StraceTask, 1);
      t->pid = tid;
      t->ppid = -1;
      g_hash_table_insert (im->tasks, GINT_TO_POINTER (tid), t);
      seismo_trace_builder_set_task_pid (im->builder, tid, tid);
    }
  return t;
}

static void
emit_fork (StraceImport *im,
           gint32        tid,
           gint32        child_tid,
           gboolean      thread,
           guint64       ts)
{
  StraceTask *parent = strace_task_get (im, tid);
  StraceTask *child = strace_task_get (im, child_tid);

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
emit_exec (StraceImport *im,
           gint32        tid,
           const char   *filename,
           const char   *argv,
           guint64       ts)
{
  StraceTask *t = strace_task_get (im, tid);

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

gboolean
strace_emit_syscall (StraceImport *im,
                     gint32        tid,
                     const char   *name,
                     const char   *args,
                     gsize         args_len,
                     guint64       enter_ts,
                     gboolean      finished,
                     gint64        ret,
                     guint64       exit_ts)
{
  SeismoPtraceSyscall *sc = seismo_ptrace_schema_get_by_name (im->schema, name);

  if (sc == NULL)
    return FALSE;
  strace_task_get (im, tid);
  seismo_ptrace_schema_ensure_types (im->schema, sc);
  strace_split_args (im, args, args_len);

  im->last_event = seismo_trace_builder_get_n_events (im->builder);
  seismo_trace_builder_begin_event (im->builder, enter_ts, 0, tid, sc->enter_type);
  strace_push_args (im, sc);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
  im->n_calls++;

  if (!finished)
    return TRUE;

  /* Process events follow from the calls that make them: a fork while it runs, an exec as it
   * returns (before the return, as a live recording sees it). */
  if (ret > 0 && g_strv_contains (fork_calls, name))
    emit_fork (im, tid, (gint32) ret, g_strstr_len (args, args_len, "CLONE_THREAD") != NULL,
               enter_ts);
  else if (ret == 0 && (g_str_equal (name, "execve") || g_str_equal (name, "execveat")))
    {
      guint fi = g_str_equal (name, "execve") ? 0 : 1;
      const char *file = fi < im->items->len ? g_ptr_array_index (im->items, fi) : "";
      const char *argv = fi + 1 < im->items->len ? g_ptr_array_index (im->items, fi + 1) : "";
      g_autofree char *filename = strace_unquote (file);

      emit_exec (im, tid, filename, argv[0] == '[' ? argv : "", exit_ts);
    }

  seismo_trace_builder_begin_event (im->builder, exit_ts, 0, tid, sc->exit_type);
  seismo_trace_builder_push_int (im->builder, ret);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
  /* strace -k prints the stack under the line that finishes the call. */
  strace_stack_begin (im, tid, exit_ts);
  return TRUE;
}

/* "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, ...} ---" */
void
strace_parse_signal (StraceImport     *im,
                     const StraceLine *ln,
                     const char       *p)
{
  gsize len = 0;
  char name[32];
  int signum;
  const char *field;
  gint64 code = 0, err = 0;
  guint64 v;

  /* A group-stop ("--- stopped by SIGSTOP ---") is not a delivery: no event of ours says it. */
  if (g_str_has_prefix (p, "stopped by "))
    {
      strace_skip (im, ln, STRACE_SKIP_STOP);
      return;
    }
  while (p + len < ln->end && strace_is_ident (p[len]))
    len++;
  if (len == 0 || len >= sizeof name)
    {
      strace_skip (im, ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  memcpy (name, p, len);
  name[len] = '\0';
  /* Real-time signals are spelled SIGRT_3 or by number. */
  if ((signum = seismo_signal_from_name (name)) <= 0)
    {
      if (g_str_has_prefix (name, "SIGRT_") && strace_parse_number (name + 6, len - 6, &v))
        signum = 34 + (int) v;
      else if (g_str_has_prefix (name, "SIGRTMIN"))
        signum = 34;
      else if (strace_parse_number (name, len, &v))
        signum = (int) v;
      else
        {
          strace_skip (im, ln, STRACE_SKIP_UNREADABLE);
          return;
        }
    }
  if ((field = g_strstr_len (p, ln->end - p, "si_code=")))
    {
      g_autofree char *value = g_strndup (field + 8, strcspn (field + 8, ",}"));

      code = (gint64) strace_parse_value (value, &si_code_xlat);
    }
  if ((field = g_strstr_len (p, ln->end - p, "si_errno=")))
    {
      g_autofree char *value = g_strndup (field + 9, strcspn (field + 9, ",}"));

      err = (gint64) strace_parse_value (value, NULL);
    }
  strace_task_get (im, ln->tid);
  im->last_event = seismo_trace_builder_get_n_events (im->builder);
  seismo_trace_builder_begin_event (im->builder, ln->ts, 0, ln->tid,
                                    seismo_ptrace_schema_signal_type (im->schema));
  seismo_trace_builder_push_int (im->builder, signum);
  seismo_trace_builder_push_int (im->builder, (gint32) err);
  seismo_trace_builder_push_int (im->builder, (gint32) code);
  seismo_trace_builder_end_event (im->builder);
  im->n_events++;
  /* -k: where the task was when the signal came. */
  strace_stack_begin (im, ln->tid, ln->ts);
}

/* "+++ exited with 0 +++", "+++ killed by SIGKILL (core dumped) +++" */
void
strace_parse_exit (StraceImport     *im,
                   const StraceLine *ln,
                   const char       *what)
{
  gint64 exit_code = -1, exit_signal = 0;
  gboolean core = FALSE;
  StraceTask *t;
  StracePending *pend;

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
    /* A thread that exec'd in another: strace's note; the exec says it all. */
    return;
  else
    {
      strace_skip (im, ln, STRACE_SKIP_UNREADABLE);
      return;
    }
  /* A call still in progress never returned. */
  if ((pend = g_hash_table_lookup (im->pending, GINT_TO_POINTER (ln->tid))))
    {
      strace_emit_syscall (im, ln->tid, pend->name, pend->args, strlen (pend->args), pend->ts,
                           FALSE, 0, 0);
      g_hash_table_remove (im->pending, GINT_TO_POINTER (ln->tid));
    }
  t = strace_task_get (im, ln->tid);
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

gboolean
strace_parse_process_note (StraceImport     *im,
                           const StraceLine *ln,
                           const char       *p)
{
  const char *q;
  gint32 tid;

  /* strace prints these on its stderr ("strace: Process 123 attached"), which people paste
   * with the rest; with -o they are in the file without the prefix. */
  if (g_str_has_prefix (p, "strace: "))
    p += strlen ("strace: ");
  if (!g_str_has_prefix (p, "Process "))
    return FALSE;
  p += strlen ("Process ");
  for (q = p; q < ln->end && g_ascii_isdigit (*q); q++)
    ;
  if (q == p || q - p > 9)
    return FALSE;
  tid = atoi (p);
  q = strace_skip_spaces (q, ln->end);
  if (g_str_has_prefix (q, "attached"))
    {
      /* The task exists from here on, whether or not it makes a call before the log ends. */
      strace_task_get (im, tid);
      seismo_trace_builder_task_new (im->builder, tid, ln->ts);
      return TRUE;
    }
  if (g_str_has_prefix (q, "detached"))
    {
      /* Traced no longer, alive still: its call in progress stays unfinished. */
      StracePending *pend = g_hash_table_lookup (im->pending, GINT_TO_POINTER (tid));

      if (pend != NULL)
        {
          strace_emit_syscall (im, tid, pend->name, pend->args, strlen (pend->args), pend->ts,
                               FALSE, 0, 0);
          g_hash_table_remove (im->pending, GINT_TO_POINTER (tid));
        }
      strace_task_get (im, tid);
      return TRUE;
    }
  return FALSE;
}

void
strace_stack_begin (StraceImport *im,
                    gint32        tid,
                    guint64       ts)
{
  strace_stack_flush (im);
  im->stack_open = TRUE;
  im->stack_tid = tid;
  im->stack_ts = ts;
  im->stack_event = im->last_event;
}

void
strace_stack_add (StraceImport     *im,
                  const StraceLine *ln,
                  const char       *frame)
{
  if (!im->stack_open)
    {
      strace_skip (im, ln, STRACE_SKIP_STACK_ORPHAN);
      return;
    }
  if (im->stack->len > 0)
    g_string_append_c (im->stack, '\n');
  g_string_append_len (im->stack, frame, ln->end - frame);
}

/*
 * One -k frame: "/usr/lib/libc.so.6(write+0x14) [0xf1234]", "/usr/bin/prog() [0x1139]",
 * "/usr/bin/prog(_ZN1A1fEv+0x8) [0x1200]", "unexpected_backtracing_error [0x7f...]". The bracket
 * holds the address (strace prints the file offset for a mapped file); the parenthesis the symbol
 * (C++ names may hold parentheses: the symbol runs to the last ')' before the bracket).
 */
static gboolean
parse_frame (char        *line,
             SeismoFrame *frame)
{
  char *bracket = strrchr (line, '[');
  char *open, *close, *plus;

  memset (frame, 0, sizeof *frame);
  frame->space = SEISMO_FRAME_USER;
  frame->pid = -1;
  if (bracket != NULL)
    {
      frame->address = g_ascii_strtoull (bracket + 1, NULL, 16);
      while (bracket > line && bracket[-1] == ' ')
        bracket--;
      *bracket = '\0';
    }
  open = strchr (line, '(');
  close = strrchr (line, ')');
  if (open != NULL && close != NULL && close > open)
    {
      *open = '\0';
      *close = '\0';
      plus = strrchr (open + 1, '+');
      if (plus != NULL && g_str_has_prefix (plus, "+0x"))
        {
          frame->offset = (guint32) g_ascii_strtoull (plus + 3, NULL, 16);
          *plus = '\0';
        }
      frame->function = open[1] ? open + 1 : NULL;
    }
  frame->module = line[0] ? line : NULL;
  return frame->function != NULL || frame->address != 0 || frame->module != NULL;
}

/* The frames gathered become the stack of the call (its enter event) or signal they belong to. */
void
strace_stack_flush (StraceImport *im)
{
  if (im->stack_open && im->stack->len > 0)
    {
      g_auto(GStrv) lines = g_strsplit (im->stack->str, "\n", -1);
      g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (SeismoFrame));
      StraceTask *t = g_hash_table_lookup (im->tasks, GINT_TO_POINTER (im->stack_tid));

      for (guint i = 0; lines[i]; i++)
        {
          SeismoFrame f;

          if (parse_frame (lines[i], &f))
            {
              f.pid = t && t->pid > 0 ? t->pid : im->stack_tid;
              g_array_append_val (frames, f);
            }
        }
      seismo_trace_builder_attach_stack (im->builder, im->stack_event,
                                         (const SeismoFrame *) (gpointer) frames->data, frames->len);
    }
  im->stack_open = FALSE;
  g_string_truncate (im->stack, 0);
}

void
strace_finish_pending (StraceImport *im)
{
  GHashTableIter iter;
  gpointer key, value;

  strace_stack_flush (im);
  /* Calls in progress when strace stopped. */
  g_hash_table_iter_init (&iter, im->pending);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      StracePending *pend = value;

      strace_emit_syscall (im, GPOINTER_TO_INT (key), pend->name, pend->args, strlen (pend->args),
                           pend->ts, FALSE, 0, 0);
    }
  g_hash_table_remove_all (im->pending);
}

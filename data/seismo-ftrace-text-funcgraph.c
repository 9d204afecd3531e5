/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

/*
 * The function_graph tracer's text (kernel Documentation/trace/ftrace.rst, "function_graph");
 * «…» stands for a C comment the kernel prints:
 *
 *   # CPU  DURATION                  FUNCTION CALLS
 *    0)               |  sys_open() {                         entry of a call with children
 *    0)   1.382 us    |    __might_sleep();                   a leaf: entry and exit at once
 *    0) + 12.47 us    |  } « sys_open ret=3 »               exit (funcgraph-tail, -retval)
 *    0)   ==========> |                                       an interrupt begins / ends
 *    0)               |  « sched_switch: prev_comm=… »      an event (or trace_printk text)
 *   ------------------------------------------
 *    0)    bash-1869    =>    cat-1870                         a context switch on CPU 0
 *   ------------------------------------------
 *
 * Optional columns before the duration, each closed by '|': the absolute time (funcgraph-abstime,
 * before the CPU; the latency tracers' display-graph prints "12 us" since the start there), the task (funcgraph-proc) and the latency flags (latency-format). Arguments
 * (funcgraph-args) sit in the call's parentheses; funcgraph-retaddr and -retval add comments
 * ("« <-caller+0x3b/0x150 ret=0x0 »"). The nesting depth is the indentation: two spaces per
 * level after the column's "|  ".
 *
 * Each call becomes an ftrace:funcgraph_entry event (func, depth, args, caller) at its start
 * and an ftrace:funcgraph_exit event (func, depth, duration_ns, retval) at its end; the
 * timeline draws the calls as nested boxes from the exits. Without funcgraph-abstime the file
 * has durations but no times: each CPU's calls are laid end to end from a clock of its own (the
 * gaps between calls are unknown) and the trace says so in its "timing" metadata.
 */

#include <string.h>

#include "seismo-ftrace-text-private.h"

/* Where a CPU's made-up clock starts, so that a call already running when the file begins
 * (its exit comes first, with its whole duration) still starts after zero. */
#define SYNTH_CLOCK_BASE G_GUINT64_CONSTANT (1000000000)
#define MAX_FG_CPUS      4096
#define MAX_FG_COLUMNS   3

typedef struct {
  guint64        ts;
  SeismoStringId func;
  guint          depth;
} Frame;

typedef struct {
  guint64  clock;        /* the made-up clock, without funcgraph-abstime */
  gint32   tid;          /* from the last context-switch banner */
  char     comm[MAX_COMM];
  gboolean has_task;
  GArray  *stack;        /* Frame: calls begun and not yet ended */
  /* The task the CPU's first context-switch banner switches out: who ran before it. */
  gint32   first_tid;
  char     first_comm[MAX_COMM];
  gboolean has_first;
} FgCpu;

struct _FtraceFuncGraph
{
  GArray  *cpus;         /* FgCpu */
  guint    entry_type;
  guint    exit_type;
  gboolean types_ready;
  guint64  n_synthetic;  /* calls timed without an absolute time */
  guint64  n_abstime;
  char     unknown[32];  /* the comm of a task the file does not name */
  gboolean prescanned;
  const char *data;      /* the file's text, for the prescan */
};

static const SeismoFieldInfo entry_fields[] = {
  { "func",   SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "depth",  SEISMO_FIELD_UINT,   4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "args",   SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "caller", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo exit_fields[] = {
  { "func",        SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "depth",       SEISMO_FIELD_UINT,   4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "duration_ns", SEISMO_FIELD_UINT,   8, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "retval",      SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

/* One line's columns, as read. */
typedef struct {
  gboolean    has_abstime;
  guint64     abstime;
  gboolean    abstime_ns;
  guint       cpu;
  const char *comm;          /* funcgraph-proc, else NULL */
  gsize       comm_len;
  gint32      tid;
  gboolean    has_duration;
  guint64     duration;
  const char *text;          /* after the duration column's '|' */
  const char *end;
} FgLine;

static FtraceFuncGraph *
funcgraph_get (Parser *self)
{
  FtraceFuncGraph *fg = self->funcgraph;

  if (fg == NULL)
    {
      fg = self->funcgraph = g_new0 (FtraceFuncGraph, 1);
      fg->cpus = g_array_new (FALSE, TRUE, sizeof (FgCpu));
    }
  return fg;
}

/* The event types, registered with the first call (a stray "3)" line must not add them). */
static void
ensure_types (Parser          *self,
              FtraceFuncGraph *fg)
{
  if (fg->types_ready)
    return;
  fg->entry_type = ftt_add_event_type (self, "ftrace", "funcgraph_entry", entry_fields,
                                       G_N_ELEMENTS (entry_fields),
                                       "{func}({args}) depth={depth}");
  fg->exit_type = ftt_add_event_type (self, "ftrace", "funcgraph_exit", exit_fields,
                                      G_N_ELEMENTS (exit_fields),
                                      "{func} depth={depth} duration_ns={duration_ns} "
                                      "ret={retval}");
  fg->types_ready = TRUE;
}

static FgCpu *
fg_cpu (FtraceFuncGraph *fg,
        guint            cpu)
{
  while (fg->cpus->len <= cpu)
    {
      FgCpu c = { SYNTH_CLOCK_BASE, 0, "", FALSE, g_array_new (FALSE, FALSE, sizeof (Frame)),
                  0, "", FALSE };

      g_array_append_val (fg->cpus, c);
    }
  return &g_array_index (fg->cpus, FgCpu, cpu);
}

void
ftt_funcgraph_free (FtraceFuncGraph *fg)
{
  if (fg == NULL)
    return;
  for (guint i = 0; i < fg->cpus->len; i++)
    g_array_unref (g_array_index (fg->cpus, FgCpu, i).stack);
  g_array_unref (fg->cpus);
  g_free (fg);
}

/* ---- columns -------------------------------------------------------------------------------- */

/* "  1.382 us", "+ 12.470 us", "! 123.4 us": an optional overhead mark, then microseconds. */
static gboolean
parse_duration (const char *p,
                const char *end,
                guint64    *ns)
{
  const char *num;
  gboolean ignored;

  p = ftt_skip_spaces (p, end);
  end = ftt_rtrim (p, end);
  if (p < end && strchr ("+!#*@$", *p) != NULL)
    p = ftt_skip_spaces (p + 1, end);
  if (end - p < 4 || memcmp (end - 2, "us", 2) != 0 || end[-3] != ' ')
    return FALSE;
  num = p;
  return ftt_parse_timestamp (num, end - 3, TRUE, ns, &ignored);
}

/* "bash-1869" (right-aligned, the comm may hold spaces and dashes): FALSE when it is not one. */
static gboolean
parse_comm_pid (const char  *p,
                const char  *end,
                const char **comm,
                gsize       *comm_len,
                gint32      *tid)
{
  const char *pid;
  gint64 v;

  p = ftt_skip_spaces (p, end);
  end = ftt_rtrim (p, end);
  pid = end;
  while (pid > p && IS (pid[-1], C_DIGIT))
    pid--;
  if (pid == end || pid - p < 2 || pid[-1] != '-' || end - pid > 10)
    return FALSE;
  if (!ftt_parse_dec (pid, end - pid, &v) || v > G_MAXINT32)
    return FALSE;
  *comm = p;
  *comm_len = (pid - 1) - p;
  *tid = (gint32) v;
  return TRUE;
}

static gboolean
all_of (const char *p,
        const char *end,
        char        c)
{
  if (p == end)
    return FALSE;
  for (; p < end; p++)
    if (*p != c)
      return FALSE;
  return TRUE;
}

/* ---- events --------------------------------------------------------------------------------- */

static void
head_for (FtraceFuncGraph *fg,
          const FgLine    *l,
          FgCpu           *c,
          guint64          ts,
          LineHead        *head)
{
  memset (head, 0, sizeof *head);
  head->cpu = l->cpu;
  head->ts = ts;
  head->ts_ns = l->abstime_ns;
  head->tgid = -1;
  if (l->comm)
    {
      head->comm = l->comm;
      head->comm_len = l->comm_len;
      head->tid = l->tid;
    }
  else if (c->has_task)
    {
      head->comm = c->comm;
      head->comm_len = strlen (c->comm);
      head->tid = c->tid;
    }
  else if (c->has_first)
    {
      head->comm = c->first_comm;
      head->comm_len = strlen (c->first_comm);
      head->tid = c->first_tid;
    }
  else
    {
      /* No task column and no context switch on this CPU: a task per CPU, with a
       * negative id no real task has, named for what it is. */
      g_snprintf (fg->unknown, sizeof fg->unknown, "cpu%u-task", l->cpu);
      head->comm = fg->unknown;
      head->comm_len = strlen (fg->unknown);
      head->tid = -1 - (gint32) l->cpu;
    }
}

static void
push_entry (Parser          *self,
            FtraceFuncGraph *fg,
            const LineHead  *head,
            SeismoStringId   func,
            guint            depth,
            const char      *args,
            const char      *args_end,
            const char      *caller,
            const char      *caller_end)
{
  ensure_types (self, fg);
  ftt_begin_event (self, head, fg->entry_type);
  seismo_trace_builder_push_string_id (self->builder, func);
  seismo_trace_builder_push_uint (self->builder, depth);
  ftt_push_str (self, args, args_end - args);
  ftt_push_str (self, caller, caller_end - caller);
  ftt_end_event (self);
}

static void
push_exit (Parser          *self,
           FtraceFuncGraph *fg,
           const LineHead  *head,
           SeismoStringId   func,
           guint            depth,
           guint64          duration,
           const char      *ret,
           const char      *ret_end)
{
  ensure_types (self, fg);
  ftt_begin_event (self, head, fg->exit_type);
  seismo_trace_builder_push_string_id (self->builder, func);
  seismo_trace_builder_push_uint (self->builder, depth);
  seismo_trace_builder_push_uint (self->builder, duration);
  ftt_push_str (self, ret, ret_end - ret);
  ftt_end_event (self);
}

/* A comment "sched_switch: prev_comm=…" is an event; any other is trace_printk's text. */
static gboolean
push_comment (Parser          *self,
              FtraceFuncGraph *fg,
              const FgLine    *l,
              FgCpu           *c,
              const char      *p,
              const char      *end)
{
  LineHead head;
  const char *ne = p;
  guint64 ts = l->has_abstime ? l->abstime : c->clock;

  head_for (fg, l, c, ts, &head);
  while (ne < end && IS (*ne, C_NAME))
    ne++;
  if (ne > p && ne - p < MAX_NAME && end - ne >= 2 && ne[0] == ':' && ne[1] == ' ')
    {
      char name[MAX_NAME];
      const char *payload = ne + 2;

      memcpy (name, p, ne - p);
      name[ne - p] = '\0';
      if (strcmp (ftt_system_for (name), "ftrace") != 0 || memchr (payload, '=', end - payload))
        {
          head.name = p;
          head.name_len = ne - p;
          head.form = FORM_NORMAL;
          head.payload = payload;
          head.payload_end = end;
          return ftt_emit_event (self, &head);
        }
    }
  {
    EventInfo *info;

    head.name = "print";
    head.name_len = 5;
    head.form = FORM_NORMAL;
    head.payload = head.payload_end = end;
    if (!(info = ftt_lookup_event (self, &head)))
      return FALSE;
    ftt_begin_event (self, &head, info->type_id);
    /* trace_printk was called from the function running on this CPU, when the file shows it. */
    seismo_trace_builder_push_string_id (self->builder,
                                         c->stack->len
                                         ? g_array_index (c->stack, Frame, c->stack->len - 1).func
                                         : 0);
    ftt_push_str (self, p, end - p);
    ftt_end_event (self);
  }
  return TRUE;
}

/* The parts of a comment: "<-caller+0x3b/0x150 ret=0x0", "func ret=1". */
static void
split_comment (const char  *p,
               const char  *end,
               const char **name,
               const char **name_end,
               const char **caller,
               const char **caller_end,
               const char **ret,
               const char **ret_end)
{
  *name = *name_end = *caller = *caller_end = *ret = *ret_end = end;
  while ((p = ftt_skip_spaces (p, end)) < end)
    {
      const char *t = p;

      while (p < end && !IS (*p, C_SPACE))
        p++;
      if (p - t > 2 && t[0] == '<' && t[1] == '-')
        {
          *caller = t + 2;
          *caller_end = p;
        }
      else if (p - t > 4 && memcmp (t, "ret=", 4) == 0)
        {
          *ret = t + 4;
          *ret_end = p;
        }
      else if (*name == end)
        {
          *name = t;
          *name_end = p;
        }
    }
}

/* The function column: a call, a leaf, an exit or a comment. */
static gboolean
read_call (Parser          *self,
           FtraceFuncGraph *fg,
           const FgLine    *l)
{
  FgCpu *c = fg_cpu (fg, l->cpu);
  const char *t = l->text, *te;
  const char *cm = NULL, *cme = NULL;
  const char *cname, *cname_end, *caller, *caller_end, *ret, *ret_end;
  guint indent = 0, depth;
  LineHead head;

  /* The column is "|  " then two spaces per level. */
  while (t < l->end && *t == ' ')
    {
      t++;
      indent++;
    }
  depth = indent >= 2 ? (indent - 2) / 2 : 0;
  te = ftt_rtrim (t, l->end);
  if (t == te)
    return FALSE;

  /* A trailing comment: retaddr, retval, the tail's name, or the whole text. */
  if (te - t >= 4 && te[-1] == '/' && te[-2] == '*')
    {
      const char *open = NULL;

      for (const char *q = te - 2; q > t; q--)
        if (q[-1] == '/' && q[0] == '*')
          {
            open = q - 1;
            break;
          }
      if (open)
        {
          cm = ftt_skip_spaces (open + 2, te - 2);
          cme = ftt_rtrim (cm, te - 2);
          te = ftt_rtrim (t, open);
        }
    }
  if (t == te)
    return cm != NULL && push_comment (self, fg, l, c, cm, cme);

  if (cm)
    split_comment (cm, cme, &cname, &cname_end, &caller, &caller_end, &ret, &ret_end);
  else
    cname = cname_end = caller = caller_end = ret = ret_end = te;

  if (*t == '}')
    {
      /* The end of a call: its entry is on the CPU's stack (unless the file began inside it). */
      SeismoStringId func = 0;
      guint64 entry_ts = 0, exit_ts;
      gboolean matched = FALSE;

      if (te - t != 1 || !l->has_duration)
        return FALSE;
      while (c->stack->len > 0)
        {
          Frame f = g_array_index (c->stack, Frame, c->stack->len - 1);

          g_array_set_size (c->stack, c->stack->len - 1);
          if (f.depth == depth)
            {
              func = f.func;
              entry_ts = f.ts;
              matched = TRUE;
              break;
            }
          if (f.depth < depth)
            {
              /* Not ours: an outer call still open. */
              g_array_append_val (c->stack, f);
              break;
            }
        }
      if (cname != cname_end)
        func = seismo_trace_builder_intern_len (self->builder, cname, cname_end - cname);
      if (l->has_abstime)
        exit_ts = l->abstime;
      else
        {
          exit_ts = matched ? MAX (entry_ts + l->duration, c->clock) : c->clock;
          c->clock = exit_ts;
        }
      head_for (fg, l, c, exit_ts, &head);
      push_exit (self, fg, &head, func, depth, l->duration, ret, ret_end);
      return TRUE;
    }

  if (te[-1] == '{' || te[-1] == ';')
    {
      gboolean leaf = te[-1] == ';';
      const char *name_end = t, *args = NULL, *args_end = NULL;
      SeismoStringId func;
      guint64 ts;

      while (name_end < te && *name_end != '(' && !IS (*name_end, C_SPACE))
        name_end++;
      if (name_end == t || name_end >= te || *name_end != '(')
        return FALSE;
      args = name_end + 1;
      args_end = ftt_rtrim (args, te - 1);
      if (args_end == args || args_end[-1] != ')')
        return FALSE;
      args_end--;
      if (leaf && !l->has_duration)
        return FALSE;

      func = seismo_trace_builder_intern_len (self->builder, t, name_end - t);
      ts = l->has_abstime ? l->abstime : c->clock;
      head_for (fg, l, c, ts, &head);
      push_entry (self, fg, &head, func, depth, args, args_end, caller, caller_end);
      if (leaf)
        {
          head.ts = ts + l->duration;
          push_exit (self, fg, &head, func, depth, l->duration, ret, ret_end);
          if (!l->has_abstime)
            c->clock = ts + l->duration;
        }
      else
        {
          Frame f = { ts, func, depth };

          g_array_append_val (c->stack, f);
        }
      if (l->has_abstime)
        fg->n_abstime++;
      else
        fg->n_synthetic++;
      return TRUE;
    }
  return FALSE;
}

/*
 * Without funcgraph-proc, the tasks are named only by the context-switch banners. The calls
 * before a CPU's first banner belong to the task that banner switches out: find each CPU's
 * first banner, once, before reading on.
 */
static void
prescan_banners (FtraceFuncGraph *fg,
                 const char      *p,
                 const char      *end)
{
  while (p < end && (p = memmem (p, end - p, "=>", 2)) != NULL)
    {
      const char *ls = p, *le = memchr (p, '\n', end - p);
      const char *q, *d;
      guint64 cpu = 0;
      const char *comm;
      gsize comm_len;
      gint32 tid;

      le = le ? le : end;
      while (ls > fg->data && ls[-1] != '\n')
        ls--;
      q = ftt_skip_spaces (ls, p);
      for (d = q; d < p && IS (*d, C_DIGIT) && d - q < 5; d++)
        cpu = cpu * 10 + (guint) (*d - '0');
      if (d > q && d < p && *d == ')' && cpu < MAX_FG_CPUS && memchr (d, '|', le - d) == NULL &&
          parse_comm_pid (d + 1, p, &comm, &comm_len, &tid))
        {
          FgCpu *c = fg_cpu (fg, (guint) cpu);

          if (!c->has_first)
            {
              comm_len = MIN (comm_len, MAX_COMM - 1);
              memcpy (c->first_comm, comm, comm_len);
              c->first_comm[comm_len] = '\0';
              c->first_tid = tid;
              c->has_first = TRUE;
            }
        }
      p = le;
    }
}

/* " 0)    bash-1869    =>    cat-1870": who runs on the CPU from now on. */
static gboolean
read_switch (FtraceFuncGraph *fg,
             guint            cpu,
             const char      *p,
             const char      *end)
{
  const char *arrow = NULL;
  const char *comm;
  gsize comm_len;
  gint32 tid;
  FgCpu *c;

  for (const char *q = p; q + 1 < end; q++)
    if (q[0] == '=' && q[1] == '>')
      {
        arrow = q;
        break;
      }
  if (arrow == NULL || !parse_comm_pid (arrow + 2, end, &comm, &comm_len, &tid))
    return FALSE;
  c = fg_cpu (fg, cpu);
  c->tid = tid;
  comm_len = MIN (comm_len, MAX_COMM - 1);
  memcpy (c->comm, comm, comm_len);
  c->comm[comm_len] = '\0';
  c->has_task = TRUE;
  /* The calls of the task switched out stay open on it: they end after it runs again. */
  return TRUE;
}

/* Reads the columns after the CPU: task, flags, duration (each closed by '|'), then the text. */
static gboolean
read_columns (const char *p,
              const char *end,
              FgLine     *l)
{
  for (guint col = 0; col <= MAX_FG_COLUMNS; col++)
    {
      const char *bar = memchr (p, '|', end - p);
      const char *cs, *ce;

      if (bar == NULL)
        return FALSE;
      cs = ftt_skip_spaces (p, bar);
      ce = ftt_rtrim (cs, bar);
      p = bar + 1;
      if (cs == ce)
        {
          l->text = p;
          l->end = end;
          return TRUE;
        }
      if (parse_duration (cs, ce, &l->duration))
        {
          l->has_duration = TRUE;
          l->text = p;
          l->end = end;
          return TRUE;
        }
      /* An interrupt's arrows stand where the duration would. */
      if ((ce - cs == 11 && (memcmp (cs, "==========>", 11) == 0 ||
                             memcmp (cs, "<==========", 11) == 0)))
        {
          l->text = l->end = end;
          return TRUE;
        }
      if (l->comm == NULL && parse_comm_pid (cs, ce, &l->comm, &l->comm_len, &l->tid))
        continue;
      /* latency-format's flags ("d..1"): their meaning is not kept for function calls. */
      if (ce - cs <= 8)
        {
          gboolean flags = TRUE;

          for (const char *q = cs; q < ce; q++)
            flags = flags && IS (*q, C_FLAG);
          if (flags)
            continue;
        }
      return FALSE;
    }
  return FALSE;
}

gboolean
ftt_funcgraph_line (Parser     *self,
                    const char *line,
                    const char *end)
{
  FtraceFuncGraph *fg;
  FgLine l = { 0 };
  const char *p = ftt_skip_spaces (line, end);
  const char *q;
  guint64 cpu = 0;

  if (all_of (p, ftt_rtrim (p, end), '-'))
    return end - p >= 10;

  /* funcgraph-abstime: "  360.774522 |" before the CPU. */
  q = p;
  while (q < end && (IS (*q, C_DIGIT) || *q == '.'))
    q++;
  if (q > p && q < end && *q != ')')
    {
      const char *bar = ftt_skip_spaces (q, end);
      gboolean micro = FALSE;

      /* The latency tracers' display-graph: "   12 us |", microseconds since the start. */
      if (end - bar >= 2 && bar[0] == 'u' && bar[1] == 's')
        {
          micro = TRUE;
          bar = ftt_skip_spaces (bar + 2, end);
        }
      if (bar >= end || *bar != '|' ||
          !ftt_parse_timestamp (p, q, micro, &l.abstime, &l.abstime_ns))
        return FALSE;
      l.has_abstime = TRUE;
      p = ftt_skip_spaces (bar + 1, end);
      q = p;
      while (q < end && IS (*q, C_DIGIT))
        q++;
    }
  if (q == p || q >= end || *q != ')' || q - p > 5)
    return FALSE;
  for (const char *d = p; d < q; d++)
    cpu = cpu * 10 + (guint) (*d - '0');
  if (cpu >= MAX_FG_CPUS)
    return FALSE;
  l.cpu = (guint) cpu;
  p = q + 1;

  fg = funcgraph_get (self);
  if (!fg->prescanned)
    {
      fg->prescanned = TRUE;
      fg->data = self->data;
      prescan_banners (fg, line, self->data_end);
    }
  if (memchr (p, '|', end - p) == NULL)
    return read_switch (fg, l.cpu, p, end);
  if (!read_columns (p, end, &l))
    return FALSE;
  if (l.text == end)
    return TRUE;   /* an interrupt's arrow line */
  return read_call (self, fg, &l);
}

/* trace-cmd: "funcgraph_entry:   0.123 us   |  foo();", "funcgraph_exit:   1.2 us  |  }". */
gboolean
ftt_funcgraph_event (Parser         *self,
                     const LineHead *head)
{
  FtraceFuncGraph *fg = funcgraph_get (self);
  FgLine l = { 0 };

  if (!read_columns (head->payload, head->payload_end, &l))
    return FALSE;
  l.cpu = head->cpu;
  l.has_abstime = TRUE;
  l.abstime = head->ts;
  l.abstime_ns = head->ts_ns;
  l.comm = head->comm;
  l.comm_len = head->comm_len;
  l.tid = head->tid;
  if (l.text == l.end)
    return TRUE;
  return read_call (self, fg, &l);
}

void
ftt_funcgraph_finish (Parser *self)
{
  FtraceFuncGraph *fg = self->funcgraph;

  if (fg == NULL)
    return;
  if (fg->n_synthetic > 0)
    seismo_trace_builder_set_metadata (self->builder, "timing",
                                       "function_graph durations without times "
                                       "(funcgraph-abstime was off): each CPU's calls are laid "
                                       "end to end, the gaps between them are unknown");
}

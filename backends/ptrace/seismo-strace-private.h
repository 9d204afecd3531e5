/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-ptrace-private.h"

G_BEGIN_DECLS

/*
 * The strace text importer's parts, one concept per file:
 *   seismo-strace-import.c   files: sniffing, -ff folders, loading, the trace's metadata
 *   seismo-strace-line.c     one line: its prefixes (pid, comm, time, -i), calls, results,
 *                            unfinished/resumed pairs, calls split by the program's output
 *   seismo-strace-events.c   the events a line makes: syscalls, forks, execs, signals, exits,
 *                            -k stacks, attaches
 *   seismo-strace-args.c     argument text back into the schema's decoded fields
 *   seismo-strace-summary.c  the -c / -C summary table
 */

typedef enum {
  STRACE_TIME_NONE,       /* no timestamps: the line order only (see seismo-timing.h) */
  STRACE_TIME_OF_DAY,     /* -t, -tt: 08:23:42.123456 */
  STRACE_TIME_EPOCH,      /* -ttt: 1795938553.850344 */
  STRACE_TIME_RELATIVE,   /* -r: seconds since the previous line */
} StraceTimeStyle;

/* Kinds of lines that could not be read, counted apart (seismo-skipped.h). */
typedef enum {
  STRACE_SKIP_UNREADABLE = 0,   /* not strace's syntax */
  STRACE_SKIP_PROGRAM_OUTPUT,   /* the traced program's own output inside a split call */
  STRACE_SKIP_UNKNOWN_SYSCALL,  /* a call of a name no syscall table knows */
  STRACE_SKIP_CUT_SHORT,        /* a call whose line ends before its arguments do */
  STRACE_SKIP_MESSAGE,          /* "strace: ..." diagnostics */
  STRACE_SKIP_STACK_ORPHAN,     /* -k frames after a line that is not a finished call */
  STRACE_SKIP_STOP,             /* "--- stopped by SIGSTOP ---": a group-stop, not an event */
  STRACE_SKIP_N
} StraceSkipKind;

typedef struct {
  char    *name;
  char    *args;       /* argument text up to <unfinished ...> */
  guint64  ts;
} StracePending;

typedef struct {
  gint32 pid;
  gint32 ppid;
  char   comm[16];
} StraceTask;

/* A call whose line the traced program's output broke ("write(1, \"hi\\n\", 3hi"): kept until
 * the line that ends it (") = 3") comes. */
typedef struct {
  gboolean  open;
  char     *name;
  GString  *args;
  gint32    tid;
  guint64   ts;
  guint64   line_no;
  guint64   foreign_lines;  /* program output lines seen since */
} StraceSplit;

typedef struct {
  SeismoTraceBuilder *builder;
  SeismoPtraceSchema *schema;
  GHashTable         *pending;     /* tid → StracePending */
  GHashTable         *tasks;       /* tid → StraceTask */
  GPtrArray          *items;       /* scratch: split arguments (char *, owned) */
  StraceTimeStyle     time_style;
  gboolean            time_known;
  gboolean            saw_durations; /* some call carried -T's <seconds> */
  guint64             day_base;    /* STRACE_TIME_OF_DAY: whole days passed */
  guint64             last_tod;
  guint64             last_ts;     /* time of the last line (the clock -r counts from) */
  guint64             order_ts;    /* STRACE_TIME_NONE: the latest time handed out */
  guint64             n_lines;
  guint64             n_events;
  guint64             n_calls;     /* syscall lines read (finished or not) */

  /* Lines not read, by kind, with the first of each. */
  guint64             skipped[STRACE_SKIP_N];
  char               *skipped_example[STRACE_SKIP_N];
  guint64             first_skipped_line;
  char               *first_skipped_file;

  /* -k: the frames printed under the last finished call. */
  gboolean            stack_open;
  gint32              stack_tid;
  guint64             stack_ts;
  GString            *stack;
  gsize               last_event;  /* builder index of the last call's enter (or signal) event */
  gsize               stack_event; /* the event the open stack belongs to */

  StraceSplit         split;

  /* -c / -C */
  gboolean            in_summary;
  guint64             summary_lines;
  GArray             *summary_columns;  /* StraceSummaryColumn of the current table */
  GHashTable         *summary;          /* syscall name → StraceSummaryRow */
  char                summary_header[256];

  char               *command;     /* argv of the first exec */
  GCancellable       *cancellable;
  SeismoProgressFunc  progress;
  gpointer            progress_data;
  guint64             total_bytes;
  guint64             done_bytes;  /* of the files before the current one */
} StraceImport;

/* The line being parsed: where it is (for the skipped-lines report), where its text ends, and
 * the task and time its prefix gave. */
typedef struct {
  const char *file;
  guint64     no;
  const char *start;
  const char *end;
  gint32      tid;
  guint64     ts;
} StraceLine;

static inline const char *
strace_skip_spaces (const char *p,
                    const char *end)
{
  while (p < end && *p == ' ')
    p++;
  return p;
}

static inline gboolean
strace_is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* seismo-strace-line.c */
void     strace_parse_line          (StraceImport     *im,
                                     const char       *line,
                                     gsize             len,
                                     gint32            file_pid,
                                     gint32            default_pid,
                                     const char       *file,
                                     guint64           line_no);
/* The end of a file: a split call still open is cut short. */
void     strace_end_of_file         (StraceImport     *im,
                                     const char       *file);
/* Counts a line of kind that could not be read. */
void     strace_skip                (StraceImport     *im,
                                     const StraceLine *ln,
                                     StraceSkipKind    kind);
/* Is the line strace's? Used to sniff and to tell -ff files from -f -o ones. */
gboolean strace_line_looks_like     (const char       *line,
                                     gsize             len,
                                     gboolean         *has_pid,
                                     gboolean         *has_time);

/* seismo-strace-events.c */
StraceTask *strace_task_get         (StraceImport     *im,
                                     gint32            tid);
/* Appends one syscall from its name, argument text and (when it returned) its result. FALSE
 * when no syscall table knows the name. */
gboolean strace_emit_syscall        (StraceImport     *im,
                                     gint32            tid,
                                     const char       *name,
                                     const char       *args,
                                     gsize             args_len,
                                     guint64           enter_ts,
                                     gboolean          finished,
                                     gint64            ret,
                                     guint64           exit_ts);
void     strace_parse_signal        (StraceImport     *im,
                                     const StraceLine *ln,
                                     const char       *p);
void     strace_parse_exit          (StraceImport     *im,
                                     const StraceLine *ln,
                                     const char       *what);
/* "Process 123 attached", "Process 123 detached": FALSE when the text is neither. */
gboolean strace_parse_process_note  (StraceImport     *im,
                                     const StraceLine *ln,
                                     const char       *p);
/* -k: frames under the call just finished on ln's task; stack_add one " > frame" line;
 * stack_flush emits what was gathered. */
void     strace_stack_begin         (StraceImport     *im,
                                     gint32            tid,
                                     guint64           ts);
void     strace_stack_add           (StraceImport     *im,
                                     const StraceLine *ln,
                                     const char       *frame);
void     strace_stack_flush         (StraceImport     *im);
/* Calls in progress when a file ends, emitted unfinished. */
void     strace_finish_pending      (StraceImport     *im);

/* seismo-strace-args.c */
/* The index of the ')' that brings depth to 0, skipping strings, comments and -y's <...>;
 * -1 when the text ends first. */
gssize   strace_scan_args           (const char       *s,
                                     gsize             len,
                                     int               depth);
/* Splits argument text at top-level commas into im->items (trimmed copies). */
void     strace_split_args          (StraceImport     *im,
                                     const char       *s,
                                     gsize             len);
/* A number as strace prints it: decimal, 0x hex, 0 octal, negative; FALSE for anything else. */
gboolean strace_parse_number        (const char       *s,
                                     gsize             len,
                                     guint64          *value);
/* The value of an argument: numbers, symbols of xlat, signals, OR'ed with '|'. */
guint64  strace_parse_value         (const char             *item,
                                     const SeismoPtraceXlat *xlat);
/* Past -y's "<...>" decoration that starts at s[i] == '<': the index after its '>', or -1. */
gssize   strace_skip_decoration     (const char       *s,
                                     gsize             len,
                                     gsize             i);
/* A quoted argument's text, kept escaped, plus the marker when strace cut it. Caller frees. */
char    *strace_unquote             (const char       *item);
/* Pushes the fields of sc's arguments from im->items. */
void     strace_push_args           (StraceImport              *im,
                                     const SeismoPtraceSyscall *sc);

/* seismo-strace-summary.c */
void     strace_summary_init        (StraceImport     *im);
void     strace_summary_clear       (StraceImport     *im);
/* TRUE when the line belongs to a -c / -C summary table (and was taken in). */
gboolean strace_summary_line        (StraceImport     *im,
                                     const char       *line,
                                     gsize             len);
/* Stores the tables read as the trace's summary histograms (SEISMO_HISTOGRAM_SUMMARY_*). */
guint    strace_summary_store       (StraceImport     *im);
/* A head (the first bytes of a file) that starts with a summary table's header. */
gboolean strace_summary_head        (const char       *head,
                                     gsize             len);

G_END_DECLS

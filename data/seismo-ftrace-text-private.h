/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The ftrace text importer's parser, shared by its files: seismo-ftrace-text.c (headers, the
 * loop, the importer), -head.c (the left part of an event line), -events.c (event types and their
 * schemas), -payload.c (the text after the event name), -funcgraph.c (function_graph output),
 * -stack.c (stack trace blocks) and -skipped.c (what could not be read, by kind). */

#include <string.h>

#include "seismo-arch-detect.h"
#include "seismo-trace-builder.h"

G_BEGIN_DECLS

#define MAX_KV         48
#define MAX_COMM       64
#define MAX_NAME       128
#define PROGRESS_LINES 65536
#define N_RECENT       8
#define MAX_ARGS       16
#define N_STR_CACHE    512
#define STR_CACHE_LEN  31

typedef enum {
  PARSE_GENERIC = 0,
  PARSE_SCHED_SWITCH,
  PARSE_SCHED_WAKEUP,
  PARSE_SCHED_FORK,
  PARSE_RAW_SYS_ENTER,
  PARSE_RAW_SYS_EXIT,
  PARSE_SYSCALL_ENTER,
  PARSE_SYSCALL_EXIT,
  PARSE_IRQ_ENTRY,
  PARSE_IRQ_EXIT,
  PARSE_SOFTIRQ,
  PARSE_FUNCTION,
  PARSE_PRINT,
} ParseKind;

/* How the text after the event name is laid out. */
typedef enum {
  FORM_NORMAL = 0,    /* "name: payload" */
  FORM_CALL,          /* kernel syscalls enter: "sys_openat(dfd: 0xffffff9c, …)" */
  FORM_RETURN,        /* kernel syscalls exit: "sys_openat -> 0x3" */
  FORM_FUNCTION,      /* function tracer: "do_sys_open <-__x64_sys_openat" */
  FORM_BPRINT,        /* trace_printk with sym-offset: "do_foo+0x70/0x26c: text" */
  FORM_STACK,         /* "<stack trace>" / "<user stack trace>": frames follow */
} LineForm;

typedef enum {
  VALUE_INT = 0,      /* decimal, signed */
  VALUE_HEX,          /* hexadecimal with or without 0x, unsigned */
  VALUE_FD,           /* syscall fd argument: hexadecimal, 32-bit signed */
  VALUE_STRING,
} ValueKind;

typedef struct {
  char     *name;
  gsize     name_len;
  ValueKind kind;
} TextField;

typedef struct {
  guint      type_id;
  ParseKind  parse;
  TextField *fields;        /* PARSE_GENERIC and PARSE_SYSCALL_ENTER */
  guint      n_fields;
  gboolean   has_text;      /* PARSE_GENERIC: the last schema field holds what fit nowhere */
} EventInfo;

typedef struct {
  char     comm[MAX_COMM];
  guint8   comm_len;
  gboolean has_comm;
  gboolean has_pid;
} TaskEntry;

typedef struct {
  const char *key;
  const char *val;
  guint16     key_len;
  guint16     val_len;
  gboolean    used;
} KeyValue;

/* The fixed left part of an event line. */
typedef struct {
  const char *buffer;
  gsize       buffer_len;
  const char *comm;
  gsize       comm_len;
  gint32      tid;
  gint32      tgid;         /* -1 when the line has no tgid column or it is unknown */
  guint       cpu;
  guint64     ts;
  gboolean    ts_ns;        /* the timestamp had nanosecond digits */
  gboolean    latency;      /* cpu and flags in one column */
  const char *name;         /* event name */
  gsize       name_len;
  LineForm    form;
  const char *payload;
  const char *payload_end;
} LineHead;

/* Interned short strings (comms, names): the same few values come back on most lines. */
typedef struct {
  guint8         len;
  char           str[STR_CACHE_LEN];
  SeismoStringId id;
} CachedString;

/* Recently seen event names: lines alternate between a handful of events. */
typedef struct {
  char       name[MAX_NAME];
  gsize      len;
  EventInfo *info;
} RecentEvent;

typedef struct {
  const char         *path;
  SeismoTraceBuilder *builder;
  GHashTable         *events;       /* canonical event name → EventInfo */
  RecentEvent         recent[N_RECENT];
  CachedString       *strings;      /* N_STR_CACHE, direct-mapped */
  guint               recent_next;
  GHashTable         *tasks;        /* tid → TaskEntry */
  gint32              last_tid;
  TaskEntry          *last_task;
  GString            *scratch;
  GPtrArray          *buffers;      /* distinct buffer names, in order of appearance */
  const char         *last_buffer;  /* one of buffers */

  guint64             line_no;
  guint64             n_events;
  guint64             n_skipped;
  guint64             first_skipped;
  guint64             n_ns_stamps;
  guint64             n_latency;
  guint64             first_ts;
  guint64             last_ts;
  guint               max_cpu;
  guint               declared_cpus;
  gboolean            saw_header;
  gboolean            saw_trace_cmd;
  gboolean            have_entries;
  guint64             entries_in_buffer;
  guint64             entries_written;
  char               *tracer;

  /* Stack trace blocks (seismo-ftrace-text-stack.c): when the file has any, every event type
   * ends with "stack" and "user_stack" fields (the parse starts over when the first block
   * shows up), and an event stays open until the next line says whether a block follows it. */
  gboolean            stacks;
  gboolean            restart_for_stacks;  /* a block was found while stacks was FALSE */
  gboolean            pending;      /* an event is begun; its stack fields are not pushed yet */
  int                 stack_block;  /* 0: none, 1: kernel frames being read, 2: user frames */
  GString            *kstack;
  GString            *ustack;

  const char         *data;         /* the whole text, for the look-aheads some layouts need */
  const char         *data_end;

  /* function_graph output (seismo-ftrace-text-funcgraph.c); NULL until its first line. */
  struct _FtraceFuncGraph *funcgraph;

  /* What could not be read, by kind (seismo-ftrace-text-skipped.c). */
  GHashTable         *skipped;      /* kind → FtraceSkipped */
  guint64             n_read_lines; /* lines read besides event lines (n_events counts those) */
  SeismoArchVotes    *arch_votes;   /* which syscall table the raw numbers are from */
  guint               state_tables;  /* STATES_*: the prev_state letter tables read with */
} Parser;

/* Character classes, as a table: the hot loops look at every byte. */
enum {
  C_DIGIT = 1 << 0,
  C_HEX   = 1 << 1,
  C_IDENT = 1 << 2,    /* [A-Za-z0-9_] */
  C_FLAG  = 1 << 3,    /* irq-flags column: irqs-off, need-resched, hard/softirq, depth digits */
  C_NAME  = 1 << 4,    /* event or function name: ident plus '.' (foo.isra.0) */
  C_SPACE = 1 << 5,
};

extern guint8 ftt_cclass[256];
extern guint8 ftt_hexval[256];    /* 0xff: not a hex digit */

void         ftt_init_cclass      (void);
gboolean     ftt_parse_timestamp  (const char *s, const char *end, gboolean micro, guint64 *out,
                                   gboolean *ns_digits);
gboolean     ftt_parse_line_head  (const char *line, const char *end, LineHead *head);
/* Past "+0x14/0x1c8" when p is at one, else p. */
const char  *ftt_skip_sym_offset  (const char *p, const char *end);
void         ftt_push_str         (Parser *self, const char *s, gsize len);
void         ftt_note_task        (Parser *self, const LineHead *head);
const char  *ftt_system_for       (const char *name);
/* The event type of a line's event, registered on first sight. NULL when it cannot be one. */
EventInfo   *ftt_lookup_event     (Parser *self, const LineHead *head);
/* Registers an event type of this file: with the stack fields appended when it has stacks. */
guint        ftt_add_event_type   (Parser *self, const char *system, const char *name,
                                   const SeismoFieldInfo *fields, guint n_fields,
                                   const char *print_fmt);
/* Turns a parsed head into an event (its payload read by the event's parser). FALSE when the
 * event's name cannot be one. */
gboolean     ftt_emit_event       (Parser *self, LineHead *head);
/* Begins an event (no payload pushed) and does the bookkeeping every event line does. */
void         ftt_begin_event      (Parser *self, const LineHead *head, guint type_id);
/* Ends the event begun by ftt_begin_event() once its payload is pushed (or leaves it open
 * for a stack block). */
void         ftt_end_event        (Parser *self);

/* seismo-ftrace-text-events.c */
void         ftt_event_info_free  (gpointer info);
/* A named syscall enter right after a raw one on its CPU: the pair tells the syscall table. */
void         ftt_note_syscall_name (Parser *self, const LineHead *head);

/* seismo-ftrace-text-payload.c */
/* Splits "key=value key=value"; *junk is set when text that is no pair comes first. */
guint        ftt_split_kv         (const char *p, const char *end, KeyValue *kv, guint max,
                                   gboolean *junk);
/* "394700 [ns]" → 6: the length of the number before the kernel's decorations. */
gsize        ftt_number_len       (const char *v, gsize len);
KeyValue    *ftt_kv_find          (KeyValue *kv, guint n, guint from, const char *key, gsize len);
/* "fd: 0x3, buf: 0x7ffe…" → pairs; *decimal when the values are printed in decimal. */
guint        ftt_split_syscall_args (const char *p, const char *end, KeyValue *kv, guint max,
                                     gboolean *decimal);
/* Pushes the fields of a begun event from its line's payload, with the event type's parser. */
void         ftt_push_payload     (Parser *self, EventInfo *info, const LineHead *head);
/* prev_state shows the letters the file had: 4.13's x is not 4.14's P, the plugin's Z is X. */
void         ftt_set_state_symbols (Parser *self);

/* seismo-ftrace-text-stack.c */
gboolean     ftt_stack_frame      (Parser *self, const char *p, const char *end);
gboolean     ftt_stack_begin      (Parser *self, const LineHead *head);
void         ftt_end_pending      (Parser *self);

/* seismo-ftrace-text-funcgraph.c */
typedef struct _FtraceFuncGraph FtraceFuncGraph;
/* A function_graph line ("3)   0.081 us  |    foo();"), a banner or an irq arrow: FALSE when
 * the line is none of these. */
gboolean     ftt_funcgraph_line   (Parser *self, const char *line, const char *end);
/* trace-cmd's "funcgraph_entry:"/"funcgraph_exit:" events carry the same columns. */
gboolean     ftt_funcgraph_event  (Parser *self, const LineHead *head);
void         ftt_funcgraph_finish (Parser *self);
void         ftt_funcgraph_free   (FtraceFuncGraph *fg);

/* seismo-ftrace-text-skipped.c */
void         ftt_note_unreadable  (Parser *self, const char *line, const char *end,
                                   const char *kind);
/* The kind an unreadable line is counted under, from what it looks like. */
const char  *ftt_classify_unreadable (Parser *self, const char *first, const char *end);
void         ftt_skipped_finish   (Parser *self);
/* The refusal message when most lines could not be read, or NULL. Caller frees. */
char        *ftt_skipped_refusal  (Parser *self);
void         ftt_skipped_free     (Parser *self);
#define IS(c, k) ((ftt_cclass[(guint8) (c)] & (k)) != 0)

/* Small helpers every file of the parser uses on every line: inline. */
static inline const char *
ftt_skip_spaces (const char *p,
                 const char *end)
{
  while (p < end && IS (*p, C_SPACE))
    p++;
  return p;
}

static inline const char *
ftt_skip_indent (const char *p,
                 const char *end)
{
  const guint64 spaces = G_GUINT64_CONSTANT (0x2020202020202020);

  while (end - p >= 8)
    {
      guint64 w;

      memcpy (&w, p, 8);
      if (w != spaces)
        break;
      p += 8;
    }
  return ftt_skip_spaces (p, end);
}

static inline const char *
ftt_rtrim (const char *start,
           const char *p)
{
  while (p > start && IS (p[-1], C_SPACE))
    p--;
  return p;
}

static inline gboolean
ftt_starts_with (const char *p,
                 const char *end,
                 const char *prefix)
{
  gsize l = strlen (prefix);

  return (gsize) (end - p) >= l && memcmp (p, prefix, l) == 0;
}

/* ---- numbers: inline, the payload parsers read several on every line ---- */

static inline gboolean
ftt_parse_dec (const char *s,
               gsize       len,
               gint64     *out)
{
  gboolean neg = FALSE;
  guint64 v = 0;
  gsize i = 0;

  if (len && (s[0] == '-' || s[0] == '+'))
    {
      neg = s[0] == '-';
      i = 1;
    }
  if (i == len)
    return FALSE;
  for (; i < len; i++)
    {
      guint d = (guint8) s[i] - '0';

      if (d > 9 || v > (G_MAXUINT64 - d) / 10)
        return FALSE;
      v = v * 10 + d;
    }
  if (neg)
    {
      if (v > (guint64) G_MAXINT64 + 1)
        return FALSE;
      *out = (gint64) (0 - v);
    }
  else
    {
      /* Unsigned values above G_MAXINT64 keep their bits. */
      *out = (gint64) v;
    }
  return TRUE;
}

static inline gboolean
ftt_parse_hex (const char *s,
               gsize       len,
               guint64    *out)
{
  guint64 v = 0;
  gsize i = 0;

  if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    i = 2;
  if (i == len || len - i > 16)
    return FALSE;
  for (; i < len; i++)
    {
      guint d = ftt_hexval[(guint8) s[i]];

      if (d == 0xff)
        return FALSE;
      v = (v << 4) | d;
    }
  *out = v;
  return TRUE;
}

/* A file descriptor printed as hex of an int widened to unsigned long: 0xffffff9c is AT_FDCWD. */
static inline gint64
ftt_fd_from_hex (guint64 v)
{
  if (v <= G_MAXUINT32)
    return (gint64) (gint32) (guint32) v;
  return (gint64) v;
}

static inline gboolean
ftt_is_hex_prefixed (const char *s,
                     gsize       len)
{
  return len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

static inline gboolean
ftt_has_suffix_len (const char *s,
                    gsize       len,
                    const char *suffix)
{
  gsize sl = strlen (suffix);

  return len >= sl && memcmp (s + len - sl, suffix, sl) == 0;
}

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An event index into a SeismoTrace. Traces hold at most G_MAXUINT32 - 1 events. */
typedef guint32 SeismoEventId;
#define SEISMO_NO_EVENT G_MAXUINT32

/* Task indices point into the trace's task table (not tids: tids are reused). */
typedef guint32 SeismoTaskId;
#define SEISMO_NO_TASK G_MAXUINT32

/* Interned string ids. 0 is always the empty string. */
typedef guint32 SeismoStringId;

/* How a field's value is stored in the packed payload. */
typedef enum {
  SEISMO_FIELD_INT = 0,     /* signed integer: zigzag varint */
  SEISMO_FIELD_UINT,        /* unsigned integer: varint */
  SEISMO_FIELD_POINTER,     /* address: varint, shown in hex */
  SEISMO_FIELD_STRING,      /* interned string id: varint */
  SEISMO_FIELD_BYTES,       /* varint length + raw bytes */
  SEISMO_FIELD_UINT_ARRAY,  /* varint count + one varint per element */
  SEISMO_FIELD_N_TYPES
} SeismoFieldType;

/* How a field's value is shown to people (does not change storage). */
typedef enum {
  SEISMO_DISPLAY_DEFAULT = 0,
  SEISMO_DISPLAY_HEX,          /* 0x1f */
  SEISMO_DISPLAY_SYMBOL,       /* value → name from the field's symbol table */
  SEISMO_DISPLAY_FLAGS,        /* OR of bits named by the symbol table */
  SEISMO_DISPLAY_ERRNO,        /* negative return → -1 ENOENT (No such file or directory) */
  SEISMO_DISPLAY_SIGNAL,       /* SIGSEGV */
  SEISMO_DISPLAY_SCHED_STATE,  /* R, S, D, T, t, X, Z, P, I, R+ */
  SEISMO_DISPLAY_SYSCALL,      /* syscall number → name (trace's arch) */
  SEISMO_DISPLAY_FD,           /* file descriptor: AT_FDCWD for -100 */
  SEISMO_DISPLAY_N
} SeismoDisplay;

/* Field flag: the string was cut to a bounded length when recorded. */
#define SEISMO_FIELD_FLAG_TRUNCATED_MARKER "..."

typedef struct {
  guint64     value;
  const char *name;
} SeismoSymbol;

/* What an event means to the derived-interval code. Classified from system:name. */
typedef enum {
  SEISMO_KIND_GENERIC = 0,
  SEISMO_KIND_SYSCALL_ENTER,  /* raw_syscalls:sys_enter (id, args) or syscalls:sys_enter_NAME */
  SEISMO_KIND_SYSCALL_EXIT,   /* raw_syscalls:sys_exit (id, ret) or syscalls:sys_exit_NAME (ret) */
  SEISMO_KIND_SCHED_SWITCH,   /* prev_pid, prev_state, next_pid */
  SEISMO_KIND_SCHED_WAKEUP,   /* pid, target_cpu (sched_wakeup, sched_wakeup_new) */
  SEISMO_KIND_SCHED_WAKING,   /* pid, target_cpu */
  SEISMO_KIND_PROCESS_FORK,   /* parent_pid, child_pid, child_comm */
  SEISMO_KIND_PROCESS_EXEC,   /* filename, pid */
  SEISMO_KIND_PROCESS_EXIT,   /* pid */
  SEISMO_KIND_IRQ_ENTRY,      /* irq */
  SEISMO_KIND_IRQ_EXIT,       /* irq */
  SEISMO_KIND_SOFTIRQ_ENTRY,  /* vec */
  SEISMO_KIND_SOFTIRQ_EXIT,   /* vec */
  SEISMO_KIND_SIGNAL,         /* signal delivered: sig */
  SEISMO_KIND_TASK_RENAME,    /* task:task_rename (pid, newcomm) */
  SEISMO_KIND_N
} SeismoEventKind;

/* Schema of one payload field, as passed to the builder. Strings are copied. */
typedef struct {
  const char          *name;
  SeismoFieldType      type;
  guint8               size;        /* original width in bytes (1, 2, 4, 8); 0 when unknown */
  SeismoDisplay        display;
  const SeismoSymbol  *symbols;     /* for SYMBOL and FLAGS; may be NULL */
  guint                n_symbols;
} SeismoFieldInfo;

/* A decoded field value. Pointers point into the trace and live as long as it. */
typedef struct {
  SeismoFieldType type;
  union {
    gint64  i;          /* INT */
    guint64 u;          /* UINT, POINTER, STRING (the id), UINT_ARRAY (the count) */
  };
  const char   *str;    /* STRING: NUL-terminated */
  const guint8 *data;   /* BYTES: the bytes; UINT_ARRAY: the packed varints */
  gsize         len;    /* STRING, BYTES: byte length; UINT_ARRAY: packed byte length */
} SeismoValue;

typedef void (*SeismoProgressFunc) (double   fraction,
                                    gpointer user_data);

G_END_DECLS

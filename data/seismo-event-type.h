/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-types.h"

G_BEGIN_DECLS

/* One field of an event type's schema. Owned by the trace. */
typedef struct {
  char          *name;
  SeismoFieldType type;
  guint8         size;
  SeismoDisplay  display;
  SeismoSymbol  *symbols;    /* names owned with the field */
  guint          n_symbols;
} SeismoField;

/* Roles the derived-interval code looks up once per type; -1 when the type lacks the field. */
typedef enum {
  SEISMO_ROLE_ID = 0,       /* syscall number (raw_syscalls) */
  SEISMO_ROLE_ARGS,         /* raw_syscalls args array */
  SEISMO_ROLE_RET,
  SEISMO_ROLE_PREV_PID,
  SEISMO_ROLE_PREV_STATE,
  SEISMO_ROLE_NEXT_PID,
  SEISMO_ROLE_NEXT_COMM,
  SEISMO_ROLE_PID,
  SEISMO_ROLE_COMM,
  SEISMO_ROLE_TARGET_CPU,
  SEISMO_ROLE_PARENT_PID,
  SEISMO_ROLE_CHILD_PID,
  SEISMO_ROLE_CHILD_COMM,
  SEISMO_ROLE_FILENAME,
  SEISMO_ROLE_IRQ,
  SEISMO_ROLE_VEC,
  SEISMO_ROLE_SIG,
  SEISMO_ROLE_NEWCOMM,
  SEISMO_ROLE_N
} SeismoFieldRole;

/* An event type: system + name, a schema and a print format. Owned by the trace, immutable. */
typedef struct {
  guint16          id;
  SeismoEventKind  kind;
  char            *system;
  char            *name;
  char            *full_name;   /* "system:name" */
  char            *print_fmt;   /* "{prev_comm}:{prev_pid} ==> {next_comm}:{next_pid}"; NULL → all fields */
  char            *syscall;     /* syscall name for syscalls:sys_{enter,exit}_NAME types, else NULL */
  SeismoField     *fields;
  guint            n_fields;
  gint16           roles[SEISMO_ROLE_N];
} SeismoEventType;

SeismoEventKind seismo_event_kind_classify     (const char            *system,
                                                const char            *name);
const char     *seismo_event_kind_to_string    (SeismoEventKind        kind);
int             seismo_event_type_find_field   (const SeismoEventType *type,
                                                const char            *name);
const char     *seismo_field_type_to_string    (SeismoFieldType        type);

G_END_DECLS

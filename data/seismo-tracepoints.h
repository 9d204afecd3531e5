/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * The well-known kernel tracepoints, one schema each: the fields a producer without the kernel's
 * format files (ftrace text, eBPF, ptrace, the synthetic generators) registers, with their types
 * and display hints, and the print format. trace.dat and live ftrace read the kernel's own
 * formats and take only the display hints from here. Field types and sizes are the kernel's on a
 * 64-bit machine (prev_state is a long: INT, 8).
 */
typedef struct {
  const char            *system;
  const char            *name;
  const SeismoFieldInfo *fields;
  guint                  n_fields;
  const char            *print_fmt;   /* "{field}" template, see seismo_trace_builder_add_event_type */
} SeismoTracepoint;

/* NULL when system:name is not one of them. Static data. */
const SeismoTracepoint *seismo_tracepoint_lookup (const char *system,
                                                  const char *name);
/* The catalogue's description of one field of a well-known tracepoint; NULL when unknown. */
const SeismoFieldInfo  *seismo_tracepoint_field  (const char *system,
                                                  const char *name,
                                                  const char *field);
/* Registers system:name (one of the catalogue's) with builder; returns the type id. */
guint                   seismo_tracepoint_add    (SeismoTraceBuilder *builder,
                                                  const char         *system,
                                                  const char         *name);

G_END_DECLS

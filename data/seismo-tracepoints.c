/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-tracepoints.h"

/* Fields as include/trace/events/{sched,irq,task,raw_syscalls}.h and kernel/trace define them. */
static const SeismoFieldInfo sched_switch[] = {
  { "prev_comm",  SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "prev_pid",   SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "prev_prio",  SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "prev_state", SEISMO_FIELD_INT,    8,  SEISMO_DISPLAY_SCHED_STATE, NULL, 0 },
  { "next_comm",  SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "next_pid",   SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "next_prio",  SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo sched_wakeup[] = {
  { "comm",       SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "pid",        SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "prio",       SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "target_cpu", SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo sched_process_fork[] = {
  { "parent_comm", SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "parent_pid",  SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "child_comm",  SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "child_pid",   SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo sched_process_exec[] = {
  { "filename", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "pid",      SEISMO_FIELD_INT,    4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "old_pid",  SEISMO_FIELD_INT,    4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo sched_process_exit[] = {
  { "comm", SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "pid",  SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "prio", SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo task_rename[] = {
  { "pid",     SEISMO_FIELD_INT,    4,  SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "oldcomm", SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "newcomm", SEISMO_FIELD_STRING, 16, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

/* The id is a long; stored unsigned by convention (it is never negative but -1 for "none"). */
static const SeismoFieldInfo raw_sys_enter[] = {
  { "id",   SEISMO_FIELD_UINT,       8, SEISMO_DISPLAY_SYSCALL, NULL, 0 },
  { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX,     NULL, 0 },
};

/* What every syscalls:sys_exit_NAME holds (catalogued as syscalls:sys_exit). */
static const SeismoFieldInfo syscall_exit[] = {
  { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO, NULL, 0 },
};

static const SeismoFieldInfo raw_sys_exit[] = {
  { "id",  SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL, NULL, 0 },
  { "ret", SEISMO_FIELD_INT,  8, SEISMO_DISPLAY_ERRNO,   NULL, 0 },
};

/* irq_handler_exit prints ret with a ternary, not a table: the table is ours. */
static const SeismoSymbol irq_ret_symbols[] = {
  { 0, "unhandled" },
  { 1, "handled" },
};

static const SeismoFieldInfo irq_handler_entry[] = {
  { "irq",  SEISMO_FIELD_INT,    4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "name", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo irq_handler_exit[] = {
  { "irq", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "ret", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_SYMBOL, irq_ret_symbols,
    G_N_ELEMENTS (irq_ret_symbols) },
};

static const SeismoFieldInfo softirq[] = {
  { "vec", SEISMO_FIELD_UINT, 4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

/* Text sources carry the functions' names, not their addresses. */
static const SeismoFieldInfo function[] = {
  { "ip",        SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "parent_ip", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo print[] = {
  { "ip",  SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "buf", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

static const SeismoFieldInfo signal_deliver[] = {
  { "sig",   SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_SIGNAL,  NULL, 0 },
  { "errno", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "code",  SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

#define TP(system, name, fields, fmt) { system, name, fields, G_N_ELEMENTS (fields), fmt }

static const SeismoTracepoint tracepoints[] = {
  TP ("sched", "sched_switch", sched_switch,
      "prev_comm={prev_comm} prev_pid={prev_pid} prev_prio={prev_prio} prev_state={prev_state} "
      "==> next_comm={next_comm} next_pid={next_pid} next_prio={next_prio}"),
  TP ("sched", "sched_wakeup", sched_wakeup,
      "comm={comm} pid={pid} prio={prio} target_cpu={target_cpu}"),
  TP ("sched", "sched_wakeup_new", sched_wakeup,
      "comm={comm} pid={pid} prio={prio} target_cpu={target_cpu}"),
  TP ("sched", "sched_waking", sched_wakeup,
      "comm={comm} pid={pid} prio={prio} target_cpu={target_cpu}"),
  TP ("sched", "sched_process_fork", sched_process_fork,
      "comm={parent_comm} pid={parent_pid} child_comm={child_comm} child_pid={child_pid}"),
  TP ("sched", "sched_process_exec", sched_process_exec,
      "filename={filename} pid={pid} old_pid={old_pid}"),
  TP ("sched", "sched_process_exit", sched_process_exit, "comm={comm} pid={pid} prio={prio}"),
  TP ("task", "task_rename", task_rename, "pid={pid} oldcomm={oldcomm} newcomm={newcomm}"),
  TP ("raw_syscalls", "sys_enter", raw_sys_enter, "NR {id} {args}"),
  TP ("raw_syscalls", "sys_exit", raw_sys_exit, "NR {id} = {ret}"),
  TP ("syscalls", "sys_exit", syscall_exit, "{ret}"),
  TP ("irq", "irq_handler_entry", irq_handler_entry, "irq={irq} name={name}"),
  TP ("irq", "irq_handler_exit", irq_handler_exit, "irq={irq} ret={ret}"),
  TP ("irq", "softirq_entry", softirq, "vec={vec}"),
  TP ("irq", "softirq_exit", softirq, "vec={vec}"),
  TP ("irq", "softirq_raise", softirq, "vec={vec}"),
  TP ("ftrace", "function", function, "{ip} <-{parent_ip}"),
  TP ("ftrace", "print", print, "{ip}: {buf}"),
  TP ("signal", "signal_deliver", signal_deliver, "sig={sig} errno={errno} code={code}"),
};

const SeismoTracepoint *
seismo_tracepoint_lookup (const char *system,
                          const char *name)
{
  g_return_val_if_fail (system != NULL && name != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tracepoints); i++)
    if (strcmp (tracepoints[i].name, name) == 0 && strcmp (tracepoints[i].system, system) == 0)
      return &tracepoints[i];
  return NULL;
}

const SeismoFieldInfo *
seismo_tracepoint_field (const char *system,
                         const char *name,
                         const char *field)
{
  const SeismoTracepoint *tp = seismo_tracepoint_lookup (system, name);

  g_return_val_if_fail (field != NULL, NULL);
  for (guint i = 0; tp != NULL && i < tp->n_fields; i++)
    if (strcmp (tp->fields[i].name, field) == 0)
      return &tp->fields[i];
  return NULL;
}

guint
seismo_tracepoint_add (SeismoTraceBuilder *builder,
                       const char         *system,
                       const char         *name)
{
  const SeismoTracepoint *tp = seismo_tracepoint_lookup (system, name);

  g_return_val_if_fail (tp != NULL, 0);
  return seismo_trace_builder_add_event_type (builder, tp->system, tp->name, tp->fields,
                                              tp->n_fields, tp->print_fmt);
}

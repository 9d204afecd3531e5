/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * What the Perfetto export and import share (docs/perfetto.md): the kernel events Perfetto has a
 * typed FtraceEvent member for in the subset of its protos we carry
 * (data/perfetto/perfetto_trace.proto). The member is named after the event.
 */
typedef struct {
  const char *system;
  const char *name;     /* also the FtraceEvent member's name */
} SeismoPerfettoTypedEvent;

static const SeismoPerfettoTypedEvent seismo_perfetto_typed_events[] = {
  { "ftrace",       "print" },
  { "sched",        "sched_switch" },
  { "sched",        "sched_wakeup" },
  { "sched",        "sched_waking" },
  { "sched",        "sched_wakeup_new" },
  { "sched",        "sched_process_exec" },
  { "sched",        "sched_process_exit" },
  { "sched",        "sched_process_fork" },
  { "sched",        "sched_process_free" },
  { "sched",        "sched_process_wait" },
  { "irq",          "irq_handler_entry" },
  { "irq",          "irq_handler_exit" },
  { "irq",          "softirq_entry" },
  { "irq",          "softirq_exit" },
  { "irq",          "softirq_raise" },
  { "task",         "task_newtask" },
  { "task",         "task_rename" },
  { "signal",       "signal_deliver" },
  { "signal",       "signal_generate" },
  { "raw_syscalls", "sys_enter" },
  { "raw_syscalls", "sys_exit" },
};

/* The typed event with this system (NULL: any) and name, or NULL. */
static inline const SeismoPerfettoTypedEvent *
seismo_perfetto_typed_event (const char *system,
                             const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (seismo_perfetto_typed_events); i++)
    if (strcmp (seismo_perfetto_typed_events[i].name, name) == 0
        && (system == NULL || strcmp (seismo_perfetto_typed_events[i].system, system) == 0))
      return &seismo_perfetto_typed_events[i];
  return NULL;
}

/* Seismo's arch names (metadata "arch") as `uname -m` prints them, which is what Perfetto's
 * SystemInfo.utsname.machine holds and how its trace processor picks a syscall table. Arch names
 * not listed are the same in both. */
static const struct {
  const char *arch;
  const char *machine;
} seismo_perfetto_machines[] = {
  { "arm",   "armv7l" },
  { "arm64", "aarch64" },
  { "i386",  "i686" },
};

static inline const char *
seismo_perfetto_arch_to_machine (const char *arch)
{
  for (guint i = 0; i < G_N_ELEMENTS (seismo_perfetto_machines); i++)
    if (strcmp (seismo_perfetto_machines[i].arch, arch) == 0)
      return seismo_perfetto_machines[i].machine;
  return arch;
}

static inline const char *
seismo_perfetto_machine_to_arch (const char *machine)
{
  for (guint i = 0; i < G_N_ELEMENTS (seismo_perfetto_machines); i++)
    if (strcmp (seismo_perfetto_machines[i].machine, machine) == 0)
      return seismo_perfetto_machines[i].arch;
  return machine;
}

/* The track event category of syscall slices. */
#define SEISMO_PERFETTO_SYSCALL_CATEGORY "syscall"

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <tracefs.h>

#include "seismo-backend.h"

G_BEGIN_DECLS

/* A tracepoint, "system" and "event" as in events/<system>/<event>/. */
typedef struct {
  char *system;
  char *event;
} SeismoTracepoint;

/*
 * Resolves selections ("sched:*", "irq:irq_handler_*", "syscalls:sys_enter_openat", "sched" for a
 * whole system, "sched_switch" for an event in any system) against the kernel's tracepoints.
 * patterns NULL → the default set. Returns SeismoTracepoint* (free with
 * seismo_tracepoint_free), without duplicates; fails when a pattern matches nothing.
 */
GPtrArray  *seismo_ftrace_resolve_events   (const char *const *patterns,
                                            GError           **error);
void        seismo_tracepoint_free         (gpointer           tracepoint);

/* The kernel's tracing directory, mounting tracefs first when it is absent and we may. */
const char *seismo_ftrace_tracing_dir      (GError           **error);

/* Lists "system:event  field:type…" for every tracepoint, sorted. */
GPtrArray  *seismo_ftrace_list_events      (GError           **error);

/*
 * Instances named seismo-<pid>[-<n>]: creation registers them for removal at exit (in case the
 * recorder leaves by an unexpected path); destruction disables tracing first. Stale ones whose
 * pid no longer runs are removed by seismo_ftrace_remove_stale_instances().
 */
struct tracefs_instance *seismo_ftrace_instance_create (GError                 **error);
void        seismo_ftrace_instance_destroy (struct tracefs_instance *instance);
guint       seismo_ftrace_remove_stale_instances (void);
guint       seismo_ftrace_sweep_stale_instances  (void);
/* The trace.dat importer (seismo-tracedat.c). */
void        seismo_ftrace_register_importers     (void);

/*
 * Removes instance if the recorder dies without doing so (SIGKILL): a child process that waits
 * for the recorder's end. Release it once the instance is destroyed.
 */
typedef struct _SeismoFtraceGuard SeismoFtraceGuard;
SeismoFtraceGuard *seismo_ftrace_guard_new     (struct tracefs_instance *instance,
                                                GError                 **error);
void        seismo_ftrace_guard_release    (SeismoFtraceGuard       *guard);
/* The launched command: the guard SIGKILLs it too if the recorder dies. */
gboolean    seismo_ftrace_guard_watch_command (SeismoFtraceGuard  *guard,
                                               GPid                command,
                                               GError            **error);

G_END_DECLS

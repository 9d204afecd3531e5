/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <tracefs.h>

#include "seismo-backend.h"
#include "seismo-proc-maps.h"

G_BEGIN_DECLS

/*
 * --stacks for the ftrace backend: the instance's stacktrace (kernel) and userstacktrace (user)
 * options make the kernel write a kernel_stack / user_stack record after each event, which the
 * converter attaches to it (seismo-tep-convert.c). User frames need the processes' mappings:
 * read while the recording runs (the launched command or -p PID, every control tick; not its
 * children, nor system-wide), then added to the builder once the converter is done.
 */
typedef struct {
  SeismoStackMode  mode;
  SeismoProcMaps  *maps;     /* user stacks only */
} SeismoFtraceStacks;

/* Enables the options of mode in instance (destroyed with it, so nothing to restore), and parses
 * the formats of the stack records into tep. */
gboolean seismo_ftrace_stacks_setup  (SeismoFtraceStacks       *self,
                                      struct tracefs_instance  *instance,
                                      struct tep_handle        *tep,
                                      SeismoStackMode           mode,
                                      SeismoTraceBuilder       *builder,
                                      GError                  **error);
/* Reads pid's mappings (any thread). */
void     seismo_ftrace_stacks_scan   (SeismoFtraceStacks       *self,
                                      gint32                    pid,
                                      guint64                   time_ns);
/* Adds the mappings read to the builder: from the thread that appends to it. */
void     seismo_ftrace_stacks_flush  (SeismoFtraceStacks       *self);
void     seismo_ftrace_stacks_clear  (SeismoFtraceStacks       *self);

G_END_DECLS

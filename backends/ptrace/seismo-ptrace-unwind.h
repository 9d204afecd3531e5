/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sys/types.h>

#include "seismo-stacks.h"

G_BEGIN_DECLS

/*
 * --stacks for the ptrace backend: the user stack of a tracee stopped in a syscall, unwound with
 * elfutils' libdw (CFI, so libc's frameless wrappers and -fomit-frame-pointer code unwind too),
 * like strace -k. One Dwfl per process, made at its first stack and dropped when its code changes
 * (exec, an mmap of code) or it exits. Only addresses are kept here; the process mappings go into
 * the trace (SeismoProcMaps) and the symbolizer names the frames once, at the end.
 */
typedef struct _SeismoPtraceUnwind SeismoPtraceUnwind;

#define SEISMO_PTRACE_MAX_FRAMES 128

/* NULL (and *why) when this build cannot unwind (no libdw). */
SeismoPtraceUnwind *seismo_ptrace_unwind_new     (SeismoTraceBuilder *builder,
                                                  char              **why);
void                seismo_ptrace_unwind_free    (SeismoPtraceUnwind *self);
/* Unwinds tid of process pid, ptrace-stopped; innermost first, return addresses moved back
 * into their call. Returns how many frames (0: none could be had). */
guint               seismo_ptrace_unwind_stack   (SeismoPtraceUnwind *self,
                                                  pid_t               pid,
                                                  pid_t               tid,
                                                  guint64             time_ns,
                                                  guint64            *ips,
                                                  guint               max_ips);
/* pid's code changed (exec, mmap of code): unwind and read its mappings afresh. */
void                seismo_ptrace_unwind_changed (SeismoPtraceUnwind *self,
                                                  pid_t               pid,
                                                  guint64             time_ns);
/* pid is gone. */
void                seismo_ptrace_unwind_forget  (SeismoPtraceUnwind *self,
                                                  pid_t               pid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoPtraceUnwind, seismo_ptrace_unwind_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-syscalls.h"

G_BEGIN_DECLS

/*
 * Which architecture a trace without a machine name comes from (ftrace text), from what it holds:
 * kernel symbols only one architecture has (`__irq_svc`, `vector_swi` on arm; `el0_svc` on arm64;
 * `entry_SYSCALL_64` on x86_64, ...), raw syscall numbers seen next to the named syscall event of
 * the same call, and whether the raw numbers and argument widths make sense in a table at all.
 * When the evidence does not single one architecture out the answer is SEISMO_ARCH_UNKNOWN: the
 * syscalls then stay numbers rather than get another machine's names.
 */
typedef struct _SeismoArchVotes SeismoArchVotes;

SeismoArchVotes *seismo_arch_votes_new        (void);
void             seismo_arch_votes_free       (SeismoArchVotes *self);

/* A raw_syscalls:sys_enter: its number and the arguments it shows. */
void             seismo_arch_votes_raw        (SeismoArchVotes *self,
                                               guint            cpu,
                                               guint64          ts,
                                               gint64           nr,
                                               const guint64   *args,
                                               guint            n_args);
/* Whether a named syscall enter at (cpu, ts) would pair with the raw enter just before it. */
gboolean         seismo_arch_votes_pending    (SeismoArchVotes *self,
                                               guint            cpu,
                                               guint64          ts);
/* A syscalls:sys_enter_NAME at (cpu, ts); name without the "sys_enter_" prefix. */
void             seismo_arch_votes_named      (SeismoArchVotes *self,
                                               guint            cpu,
                                               guint64          ts,
                                               const char      *name);
/* Looks for kernel symbols in text (the first few MiB are enough: entry code is everywhere). */
void             seismo_arch_votes_scan_text  (SeismoArchVotes *self,
                                               const char      *text,
                                               gsize            len);
/* The verdict; *how (static) says what decided it: "symbols", "syscall events", ... */
SeismoArch       seismo_arch_votes_decide     (SeismoArchVotes *self,
                                               const char     **how);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoArchVotes, seismo_arch_votes_free)

G_END_DECLS

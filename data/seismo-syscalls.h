/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Syscall, errno and signal names as data, generated at build time from the kernel's uapi headers
 * (tools/gen-tables.py).
 */
typedef enum {
  SEISMO_ARCH_X86_64 = 0,
  SEISMO_ARCH_I386,
  SEISMO_ARCH_N
} SeismoArch;

SeismoArch   seismo_arch_from_string   (const char *name);   /* NULL or unknown → x86_64 */
const char  *seismo_arch_to_string     (SeismoArch  arch);
/* NULL when the number is unknown. */
const char  *seismo_syscall_name       (SeismoArch  arch,
                                        gint64      nr);
/* -1 when unknown. */
gint64       seismo_syscall_number     (SeismoArch  arch,
                                        const char *name);
guint        seismo_syscall_table_size (SeismoArch  arch);
/* The x86_64 or i386 syscall name closest to a mistyped one ("opnat" → "openat"), for "did you
 * mean"; NULL when none is close. */
const char  *seismo_syscall_suggest    (const char *name);
/* "ENOENT"; NULL when unknown. errnum is positive. */
const char  *seismo_errno_name         (int         errnum);
int          seismo_errno_from_name    (const char *name);   /* 0 when unknown */
/* "SIGSEGV"; NULL when unknown. */
const char  *seismo_signal_name        (int         signum);
int          seismo_signal_from_name   (const char *name);   /* 0 when unknown */

G_END_DECLS

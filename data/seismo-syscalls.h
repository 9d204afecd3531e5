/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The syscall catalogue: per architecture, number → name; per name, its arguments (which are
 * paths, fds, flags) and strace-style classes. Generated once from the kernel's own tables
 * (tools/gen-syscall-catalogue.py → seismo-syscall-catalogue.h); errno and signal names are
 * generated at build time from the uapi headers (tools/gen-tables.py).
 */
typedef enum {
  SEISMO_ARCH_X86_64 = 0,
  SEISMO_ARCH_I386,
  SEISMO_ARCH_X32,
  SEISMO_ARCH_ARM,           /* EABI */
  SEISMO_ARCH_ARM64,
  SEISMO_ARCH_RISCV64,
  SEISMO_ARCH_POWERPC,
  SEISMO_ARCH_POWERPC64,
  SEISMO_ARCH_S390X,
  SEISMO_ARCH_MIPS,          /* o32: numbers from 4000 */
  SEISMO_ARCH_MIPS64N32,     /* n32: numbers from 6000 */
  SEISMO_ARCH_MIPS64,        /* n64: numbers from 5000 */
  SEISMO_ARCH_LOONGARCH64,
  SEISMO_ARCH_N,
  /* No table: syscalls stay numbers ("syscall_175"). */
  SEISMO_ARCH_UNKNOWN = SEISMO_ARCH_N
} SeismoArch;

/* Classes of `-e %file`, as strace names them. */
typedef enum {
  SEISMO_SYSCALL_CLASS_FILE    = 1 << 0,   /* takes a file name */
  SEISMO_SYSCALL_CLASS_DESC    = 1 << 1,   /* takes or returns a file descriptor */
  SEISMO_SYSCALL_CLASS_PROCESS = 1 << 2,   /* process life cycle */
  SEISMO_SYSCALL_CLASS_NETWORK = 1 << 3,
  SEISMO_SYSCALL_CLASS_SIGNAL  = 1 << 4,
  SEISMO_SYSCALL_CLASS_IPC     = 1 << 5,   /* System V IPC */
  SEISMO_SYSCALL_CLASS_MEMORY  = 1 << 6,   /* address space */
  SEISMO_SYSCALL_CLASS_CREDS   = 1 << 7,   /* user and group ids, capabilities */
  SEISMO_SYSCALL_CLASS_CLOCK   = 1 << 8,   /* reading and setting clocks */
} SeismoSyscallClass;

typedef enum {
  SEISMO_SYSCALL_ARG_INT = 0,  /* a number (signedness from the C type) */
  SEISMO_SYSCALL_ARG_POINTER,  /* an address */
  SEISMO_SYSCALL_ARG_FD,       /* a file descriptor */
  SEISMO_SYSCALL_ARG_PATH,     /* a file name */
  SEISMO_SYSCALL_ARG_STRING,   /* another NUL-terminated string */
  SEISMO_SYSCALL_ARG_FLAGS,    /* flags, modes, commands: decoded from a symbol table */
} SeismoSyscallArgKind;

typedef struct {
  const char           *name;    /* as the kernel's sys_enter_* tracepoint names it */
  const char           *ctype;   /* its C type there, without __user */
  SeismoSyscallArgKind  kind;
} SeismoSyscallArg;

typedef struct {
  const char       *name;        /* as <asm/unistd.h> and strace name it: "openat", "fstatat64" */
  const char       *canonical;   /* the syscall whose arguments it takes ("newfstatat"), or NULL */
  guint32           classes;     /* SeismoSyscallClass */
  guint8            n_args;
  gint8             path_arg;    /* the path it acts on, -1 when none */
  gboolean          args_known;  /* FALSE: the kernel's argument list is unknown */
  SeismoSyscallArg  args[6];
} SeismoSyscallInfo;

/*
 * Arch names as metadata.arch spells them ("x86_64", "arm", "arm64", ...) and as uname -m and
 * trace-cmd print machines ("armv7l", "aarch64", "ppc64le", "i686", ...). NULL, "" and anything
 * else → SEISMO_ARCH_UNKNOWN: never a guess.
 */
SeismoArch   seismo_arch_from_string   (const char *name);
/* "unknown" for SEISMO_ARCH_UNKNOWN. */
const char  *seismo_arch_to_string     (SeismoArch  arch);
/* The width of a long (4 or 8) in that ABI; 0 when unknown. */
guint        seismo_arch_long_size     (SeismoArch  arch);
/* NULL when the number is unknown (or the arch is). */
const char  *seismo_syscall_name       (SeismoArch  arch,
                                        gint64      nr);
/* -1 when unknown. */
gint64       seismo_syscall_number     (SeismoArch  arch,
                                        const char *name);
/* The arch's numbers are first .. first + size - 1 (first: 4000 for mips o32, 0 mostly). */
gint64       seismo_syscall_table_first (SeismoArch arch);
guint        seismo_syscall_table_size (SeismoArch  arch);

/* What the catalogue knows about a syscall name; NULL when no arch has it. Static data. */
const SeismoSyscallInfo *seismo_syscall_info (const char *name);
/* The classes of a name (0 when unknown). */
guint32      seismo_syscall_classes    (const char *name);
/* "file" (or "%file"), "net" for "network": its class bit; 0 when unknown. */
guint32      seismo_syscall_class_from_name (const char *class_name);
/* "%file %desc ..." for messages. Static. */
const char  *seismo_syscall_class_list (void);

/* The x86_64 or i386 syscall name closest to a mistyped one ("opnat" → "openat"), for "did you
 * mean"; NULL when none is close. */
const char  *seismo_syscall_suggest    (const char *name);
/* "ENOENT"; NULL when unknown. errnum is positive. */
const char  *seismo_errno_name         (int         errnum);
int          seismo_errno_from_name    (const char *name);   /* 0 when unknown */
/* The same for the errno numbers of an ABI (mips and powerpc differ from asm-generic's);
 * SEISMO_ARCH_UNKNOWN reads asm-generic's, which most ABIs use. */
const char  *seismo_errno_name_for_arch (SeismoArch  arch,
                                         int         errnum);
int          seismo_errno_from_name_for_arch (SeismoArch  arch,
                                              const char *name);
/* strerror() of an ABI's errno number (the C library's, found by name); NULL when unknown. */
const char  *seismo_errno_message      (SeismoArch  arch,
                                        int         errnum);
/* "SIGSEGV"; NULL when unknown. */
const char  *seismo_signal_name        (int         signum);
int          seismo_signal_from_name   (const char *name);   /* 0 when unknown */

G_END_DECLS

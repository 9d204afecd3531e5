/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include "seismo-syscalls.h"
#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * What the ptrace backend and the strace importer share: the per-syscall event schema (so a live
 * recording and an imported strace log yield the same event types and fields), the symbol tables,
 * the syscall classes of the -e filter and strace-style string quoting.
 */

/* Strings are captured like strace's defaults: paths whole (up to PATH_MAX), data 32 bytes. */
#define SEISMO_PTRACE_PATH_MAX   4096
#define SEISMO_PTRACE_BUF_MAX    32
#define SEISMO_PTRACE_ARGV_MAX   32

typedef struct {
  const SeismoSymbol *symbols;
  guint               n_symbols;
} SeismoPtraceXlat;

extern const SeismoPtraceXlat seismo_ptrace_xlat_open_flags;
extern const SeismoPtraceXlat seismo_ptrace_xlat_at_flags;
extern const SeismoPtraceXlat seismo_ptrace_xlat_access_modes;
extern const SeismoPtraceXlat seismo_ptrace_xlat_mmap_prot;
extern const SeismoPtraceXlat seismo_ptrace_xlat_mmap_flags;
extern const SeismoPtraceXlat seismo_ptrace_xlat_fcntl_cmds;
extern const SeismoPtraceXlat seismo_ptrace_xlat_ioctl_cmds;
extern const SeismoPtraceXlat seismo_ptrace_xlat_socket_families;
extern const SeismoPtraceXlat seismo_ptrace_xlat_socket_types;
extern const SeismoPtraceXlat seismo_ptrace_xlat_sigprocmask_hows;
extern const SeismoPtraceXlat seismo_ptrace_xlat_seek_whences;
extern const SeismoPtraceXlat seismo_ptrace_xlat_clone_flags;
extern const SeismoPtraceXlat seismo_ptrace_xlat_wait_options;
extern const SeismoPtraceXlat seismo_ptrace_xlat_arch_prctl_codes;
extern const SeismoPtraceXlat seismo_ptrace_xlat_rlimit_resources;
extern const SeismoPtraceXlat seismo_ptrace_xlat_getrandom_flags;
extern const SeismoPtraceXlat seismo_ptrace_xlat_futex_ops;
extern const SeismoPtraceXlat seismo_ptrace_xlat_clock_ids;
extern const SeismoPtraceXlat seismo_ptrace_xlat_madvise_advices;

/* Finds the value of the symbol named by name[0..len). */
gboolean seismo_ptrace_xlat_lookup (const SeismoPtraceXlat *xlat,
                                    const char             *name,
                                    gsize                   len,
                                    guint64                *value);

/* One decoder per family of arguments. */
typedef enum {
  SEISMO_PTRACE_ARG_INT = 0,   /* signed integer */
  SEISMO_PTRACE_ARG_UINT,      /* unsigned integer, sizes, modes */
  SEISMO_PTRACE_ARG_POINTER,   /* an address we do not follow */
  SEISMO_PTRACE_ARG_FD,        /* file descriptor, AT_FDCWD */
  SEISMO_PTRACE_ARG_PATH,      /* NUL-terminated string read at entry or exit */
  SEISMO_PTRACE_ARG_BUF_IN,    /* data the caller passes: length in another argument */
  SEISMO_PTRACE_ARG_BUF_OUT,   /* data the kernel fills: length is the return value */
  SEISMO_PTRACE_ARG_PATH_OUT,  /* NUL-terminated string the kernel fills */
  SEISMO_PTRACE_ARG_ARGV,      /* NULL-terminated string array, as ["a", "b"] */
  SEISMO_PTRACE_ARG_SYMBOL,    /* one value of an enumeration */
  SEISMO_PTRACE_ARG_FLAGS,     /* OR of bits */
  SEISMO_PTRACE_ARG_SIGNAL,    /* signal number */
} SeismoPtraceArgKind;

typedef struct {
  const char             *name;     /* the kernel tracepoint's field name */
  SeismoPtraceArgKind     kind;
  guint8                  size;     /* width of the C type on x86_64: 4 sign-extends from 32 bits */
  gint8                   len_arg;  /* BUF_IN: index of the argument holding the length, else -1 */
  const SeismoPtraceXlat *xlat;     /* SYMBOL, FLAGS */
} SeismoPtraceArg;

typedef struct {
  char           *name;        /* as <asm/unistd_*.h> and strace name it: "openat", "stat64" */
  guint           n_args;
  gboolean        raw;         /* no argument names known: one `args` array field instead */
  gboolean        needs_entry; /* exec: after success its strings come from the new image */
  gboolean        has_out;     /* some argument is only filled at exit */
  guint32         classes;     /* SeismoSyscallClass */
  SeismoPtraceArg args[6];
  int             enter_type;  /* builder type ids, -1 until the first event */
  int             exit_type;
} SeismoPtraceSyscall;

/* Syscalls and process event types of one builder, registered as they are first needed. */
typedef struct _SeismoPtraceSchema SeismoPtraceSchema;

SeismoPtraceSchema  *seismo_ptrace_schema_new          (SeismoTraceBuilder *builder);
void                 seismo_ptrace_schema_free         (SeismoPtraceSchema *self);
/* Never NULL: unknown numbers get a "syscall_N" entry with raw arguments. Owned by the schema. */
SeismoPtraceSyscall *seismo_ptrace_schema_get          (SeismoPtraceSchema *self,
                                                        SeismoArch          arch,
                                                        gint64              nr);
/* NULL when the name is unknown to both syscall tables and not of the form "syscall_N". */
SeismoPtraceSyscall *seismo_ptrace_schema_get_by_name  (SeismoPtraceSchema *self,
                                                        const char         *name);
/* Registers the syscall's enter and exit types with the builder (once). */
void                 seismo_ptrace_schema_ensure_types (SeismoPtraceSchema  *self,
                                                        SeismoPtraceSyscall *sc);

/* Process event types, kernel tracepoint names and fields; see the schema in the .c file. */
guint seismo_ptrace_schema_fork_type   (SeismoPtraceSchema *self);
guint seismo_ptrace_schema_exec_type   (SeismoPtraceSchema *self);
guint seismo_ptrace_schema_exit_type   (SeismoPtraceSchema *self);
guint seismo_ptrace_schema_signal_type (SeismoPtraceSchema *self);
guint seismo_ptrace_schema_stack_type  (SeismoPtraceSchema *self);

/*
 * Appends data as strace quotes it between the quotes: printable ASCII as is, \" \\ \t \n \v \f
 * \r, other bytes in octal. Stops at a NUL when nul_terminates.
 */
void seismo_ptrace_quote (GString      *out,
                          const guint8 *data,
                          gsize         len,
                          gboolean      nul_terminates);

/* The kernel's comm for a new program: the file name's last component, at most 15 bytes. */
void seismo_ptrace_comm_from_filename (const char *filename,
                                       char        comm[16]);

/* The syscall filter (-e): which syscall numbers of each arch to record. */
typedef struct {
  gboolean all;                    /* no filter given */
  guint8  *wanted[SEISMO_ARCH_N];  /* one byte per syscall number */
  guint    size[SEISMO_ARCH_N];
} SeismoPtraceFilter;

SeismoPtraceFilter *seismo_ptrace_filter_new    (const char *const  *spec,
                                                 GError            **error);
void                seismo_ptrace_filter_free   (SeismoPtraceFilter *self);
static inline gboolean
seismo_ptrace_filter_wants (const SeismoPtraceFilter *self,
                            SeismoArch                arch,
                            gint64                    nr)
{
  if (self->all)
    return TRUE;
  return nr >= 0 && nr < self->size[arch] && self->wanted[arch][nr];
}
/*
 * A classic BPF seccomp program returning SECCOMP_RET_TRACE for the wanted syscalls and for
 * always_trace (names, NULL-terminated), SECCOMP_RET_ALLOW for the others. Array of
 * struct sock_filter; caller owns it.
 */
GArray             *seismo_ptrace_filter_build_bpf (const SeismoPtraceFilter *self,
                                                    const char *const        *always_trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoPtraceFilter, seismo_ptrace_filter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoPtraceSchema, seismo_ptrace_schema_free)

/* The strace text importer. */
void seismo_strace_importer_register (void);

G_END_DECLS

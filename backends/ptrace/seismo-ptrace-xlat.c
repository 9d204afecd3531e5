/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace"

/*
 * Symbolic names of syscall argument constants, as data. The values are the kernel's x86 ABI
 * (asm-generic where x86 uses it); the names are the ones strace prints, so that an imported strace
 * log and a live recording parse to, and display as, the same values.
 *
 * The data layer formats FLAGS by taking table entries in order while their bits are all set, so
 * every table lists multi-bit values (enumerations living inside a flags word) before the bits
 * they contain, larger values first.
 */

#include "seismo-ptrace-private.h"

#define XLAT(table) { table, G_N_ELEMENTS (table) }

static const SeismoSymbol open_flags[] = {
  { 04010000, "O_SYNC" },       /* __O_SYNC | O_DSYNC */
  { 020200000, "O_TMPFILE" },   /* __O_TMPFILE | O_DIRECTORY */
  { 0, "O_RDONLY" },
  { 01, "O_WRONLY" },
  { 02, "O_RDWR" },
  { 0100, "O_CREAT" },
  { 0200, "O_EXCL" },
  { 0400, "O_NOCTTY" },
  { 01000, "O_TRUNC" },
  { 02000, "O_APPEND" },
  { 04000, "O_NONBLOCK" },
  { 010000, "O_DSYNC" },
  { 020000, "O_ASYNC" },
  { 040000, "O_DIRECT" },
  { 0100000, "O_LARGEFILE" },
  { 0200000, "O_DIRECTORY" },
  { 0400000, "O_NOFOLLOW" },
  { 01000000, "O_NOATIME" },
  { 02000000, "O_CLOEXEC" },
  { 010000000, "O_PATH" },
};

static const SeismoSymbol at_flags[] = {
  { 0x100, "AT_SYMLINK_NOFOLLOW" },
  { 0x200, "AT_REMOVEDIR" },
  { 0x400, "AT_SYMLINK_FOLLOW" },
  { 0x800, "AT_NO_AUTOMOUNT" },
  { 0x1000, "AT_EMPTY_PATH" },
  { 0x2000, "AT_STATX_FORCE_SYNC" },
  { 0x4000, "AT_STATX_DONT_SYNC" },
  { 0x8000, "AT_RECURSIVE" },
};

static const SeismoSymbol access_modes[] = {
  { 0, "F_OK" },
  { 4, "R_OK" },
  { 2, "W_OK" },
  { 1, "X_OK" },
};

static const SeismoSymbol mmap_prot[] = {
  { 0, "PROT_NONE" },
  { 0x1, "PROT_READ" },
  { 0x2, "PROT_WRITE" },
  { 0x4, "PROT_EXEC" },
  { 0x8, "PROT_SEM" },
  { 0x01000000, "PROT_GROWSDOWN" },
  { 0x02000000, "PROT_GROWSUP" },
};

static const SeismoSymbol mmap_flags[] = {
  { 0x03, "MAP_SHARED_VALIDATE" },
  { 0x01, "MAP_SHARED" },
  { 0x02, "MAP_PRIVATE" },
  { 0x10, "MAP_FIXED" },
  { 0x20, "MAP_ANONYMOUS" },
  { 0x40, "MAP_32BIT" },
  { 0x0100, "MAP_GROWSDOWN" },
  { 0x0800, "MAP_DENYWRITE" },
  { 0x1000, "MAP_EXECUTABLE" },
  { 0x2000, "MAP_LOCKED" },
  { 0x4000, "MAP_NORESERVE" },
  { 0x8000, "MAP_POPULATE" },
  { 0x10000, "MAP_NONBLOCK" },
  { 0x20000, "MAP_STACK" },
  { 0x40000, "MAP_HUGETLB" },
  { 0x80000, "MAP_SYNC" },
  { 0x100000, "MAP_FIXED_NOREPLACE" },
  { 0x4000000, "MAP_UNINITIALIZED" },
};

static const SeismoSymbol fcntl_cmds[] = {
  { 0, "F_DUPFD" },
  { 1, "F_GETFD" },
  { 2, "F_SETFD" },
  { 3, "F_GETFL" },
  { 4, "F_SETFL" },
  { 5, "F_GETLK" },
  { 6, "F_SETLK" },
  { 7, "F_SETLKW" },
  { 8, "F_SETOWN" },
  { 9, "F_GETOWN" },
  { 10, "F_SETSIG" },
  { 11, "F_GETSIG" },
  { 15, "F_SETOWN_EX" },
  { 16, "F_GETOWN_EX" },
  { 36, "F_OFD_GETLK" },
  { 37, "F_OFD_SETLK" },
  { 38, "F_OFD_SETLKW" },
  { 1024, "F_SETLEASE" },
  { 1025, "F_GETLEASE" },
  { 1026, "F_NOTIFY" },
  { 1030, "F_DUPFD_CLOEXEC" },
  { 1031, "F_SETPIPE_SZ" },
  { 1032, "F_GETPIPE_SZ" },
  { 1033, "F_ADD_SEALS" },
  { 1034, "F_GET_SEALS" },
};

static const SeismoSymbol ioctl_cmds[] = {
  { 0x5401, "TCGETS" },
  { 0x5402, "TCSETS" },
  { 0x5403, "TCSETSW" },
  { 0x5404, "TCSETSF" },
  { 0x5409, "TCSBRK" },
  { 0x540a, "TCXONC" },
  { 0x540b, "TCFLSH" },
  { 0x540e, "TIOCSCTTY" },
  { 0x540f, "TIOCGPGRP" },
  { 0x5410, "TIOCSPGRP" },
  { 0x5411, "TIOCOUTQ" },
  { 0x5413, "TIOCGWINSZ" },
  { 0x5414, "TIOCSWINSZ" },
  { 0x541b, "FIONREAD" },
  { 0x5421, "FIONBIO" },
  { 0x5422, "TIOCNOTTY" },
  { 0x5429, "TIOCGSID" },
  { 0x5450, "FIONCLEX" },
  { 0x5451, "FIOCLEX" },
  { 0x5452, "FIOASYNC" },
  { 0x80045430, "TIOCGPTN" },
  { 0x40045431, "TIOCSPTLCK" },
  { 0x80086601, "FS_IOC_GETFLAGS" },
  { 0x40086602, "FS_IOC_SETFLAGS" },
};

static const SeismoSymbol socket_families[] = {
  { 0, "AF_UNSPEC" },
  { 1, "AF_UNIX" },
  { 2, "AF_INET" },
  { 10, "AF_INET6" },
  { 16, "AF_NETLINK" },
  { 17, "AF_PACKET" },
  { 31, "AF_BLUETOOTH" },
  { 38, "AF_ALG" },
  { 40, "AF_VSOCK" },
  { 44, "AF_XDP" },
};

static const SeismoSymbol socket_types[] = {
  { 10, "SOCK_PACKET" },
  { 6, "SOCK_DCCP" },
  { 5, "SOCK_SEQPACKET" },
  { 4, "SOCK_RDM" },
  { 3, "SOCK_RAW" },
  { 2, "SOCK_DGRAM" },
  { 1, "SOCK_STREAM" },
  { 04000, "SOCK_NONBLOCK" },
  { 02000000, "SOCK_CLOEXEC" },
};

static const SeismoSymbol sigprocmask_hows[] = {
  { 0, "SIG_BLOCK" },
  { 1, "SIG_UNBLOCK" },
  { 2, "SIG_SETMASK" },
};

static const SeismoSymbol seek_whences[] = {
  { 0, "SEEK_SET" },
  { 1, "SEEK_CUR" },
  { 2, "SEEK_END" },
  { 3, "SEEK_DATA" },
  { 4, "SEEK_HOLE" },
};

static const SeismoSymbol clone_flags[] = {
  { 0x00000100, "CLONE_VM" },
  { 0x00000200, "CLONE_FS" },
  { 0x00000400, "CLONE_FILES" },
  { 0x00000800, "CLONE_SIGHAND" },
  { 0x00001000, "CLONE_PIDFD" },
  { 0x00002000, "CLONE_PTRACE" },
  { 0x00004000, "CLONE_VFORK" },
  { 0x00008000, "CLONE_PARENT" },
  { 0x00010000, "CLONE_THREAD" },
  { 0x00020000, "CLONE_NEWNS" },
  { 0x00040000, "CLONE_SYSVSEM" },
  { 0x00080000, "CLONE_SETTLS" },
  { 0x00100000, "CLONE_PARENT_SETTID" },
  { 0x00200000, "CLONE_CHILD_CLEARTID" },
  { 0x00800000, "CLONE_UNTRACED" },
  { 0x01000000, "CLONE_CHILD_SETTID" },
  { 0x02000000, "CLONE_NEWCGROUP" },
  { 0x04000000, "CLONE_NEWUTS" },
  { 0x08000000, "CLONE_NEWIPC" },
  { 0x10000000, "CLONE_NEWUSER" },
  { 0x20000000, "CLONE_NEWPID" },
  { 0x40000000, "CLONE_NEWNET" },
  { 0x80000000, "CLONE_IO" },
};

static const SeismoSymbol wait_options[] = {
  { 0x00000001, "WNOHANG" },
  { 0x00000002, "WUNTRACED" },
  { 0x00000004, "WEXITED" },
  { 0x00000008, "WCONTINUED" },
  { 0x01000000, "WNOWAIT" },
  { 0x20000000, "__WNOTHREAD" },
  { 0x40000000, "__WALL" },
  { 0x80000000, "__WCLONE" },
};

static const SeismoSymbol arch_prctl_codes[] = {
  { 0x1001, "ARCH_SET_GS" },
  { 0x1002, "ARCH_SET_FS" },
  { 0x1003, "ARCH_GET_FS" },
  { 0x1004, "ARCH_GET_GS" },
  { 0x1011, "ARCH_GET_CPUID" },
  { 0x1012, "ARCH_SET_CPUID" },
  { 0x3001, "ARCH_CET_STATUS" },
  { 0x5001, "ARCH_SHSTK_ENABLE" },
};

static const SeismoSymbol rlimit_resources[] = {
  { 0, "RLIMIT_CPU" },
  { 1, "RLIMIT_FSIZE" },
  { 2, "RLIMIT_DATA" },
  { 3, "RLIMIT_STACK" },
  { 4, "RLIMIT_CORE" },
  { 5, "RLIMIT_RSS" },
  { 6, "RLIMIT_NPROC" },
  { 7, "RLIMIT_NOFILE" },
  { 8, "RLIMIT_MEMLOCK" },
  { 9, "RLIMIT_AS" },
  { 10, "RLIMIT_LOCKS" },
  { 11, "RLIMIT_SIGPENDING" },
  { 12, "RLIMIT_MSGQUEUE" },
  { 13, "RLIMIT_NICE" },
  { 14, "RLIMIT_RTPRIO" },
  { 15, "RLIMIT_RTTIME" },
};

static const SeismoSymbol getrandom_flags[] = {
  { 0x1, "GRND_NONBLOCK" },
  { 0x2, "GRND_RANDOM" },
  { 0x4, "GRND_INSECURE" },
};

/* Operations are an enumeration with two flag bits on top: exact combinations first. */
static const SeismoSymbol futex_ops[] = {
  { 141, "FUTEX_LOCK_PI2_PRIVATE" },
  { 140, "FUTEX_CMP_REQUEUE_PI_PRIVATE" },
  { 139, "FUTEX_WAIT_REQUEUE_PI_PRIVATE" },
  { 138, "FUTEX_WAKE_BITSET_PRIVATE" },
  { 137, "FUTEX_WAIT_BITSET_PRIVATE" },
  { 136, "FUTEX_TRYLOCK_PI_PRIVATE" },
  { 135, "FUTEX_UNLOCK_PI_PRIVATE" },
  { 134, "FUTEX_LOCK_PI_PRIVATE" },
  { 133, "FUTEX_WAKE_OP_PRIVATE" },
  { 132, "FUTEX_CMP_REQUEUE_PRIVATE" },
  { 131, "FUTEX_REQUEUE_PRIVATE" },
  { 129, "FUTEX_WAKE_PRIVATE" },
  { 128, "FUTEX_WAIT_PRIVATE" },
  { 13, "FUTEX_LOCK_PI2" },
  { 12, "FUTEX_CMP_REQUEUE_PI" },
  { 11, "FUTEX_WAIT_REQUEUE_PI" },
  { 10, "FUTEX_WAKE_BITSET" },
  { 9, "FUTEX_WAIT_BITSET" },
  { 8, "FUTEX_TRYLOCK_PI" },
  { 7, "FUTEX_UNLOCK_PI" },
  { 6, "FUTEX_LOCK_PI" },
  { 5, "FUTEX_WAKE_OP" },
  { 4, "FUTEX_CMP_REQUEUE" },
  { 3, "FUTEX_REQUEUE" },
  { 1, "FUTEX_WAKE" },
  { 0, "FUTEX_WAIT" },
  { 256, "FUTEX_CLOCK_REALTIME" },
};

static const SeismoSymbol clock_ids[] = {
  { 0, "CLOCK_REALTIME" },
  { 1, "CLOCK_MONOTONIC" },
  { 2, "CLOCK_PROCESS_CPUTIME_ID" },
  { 3, "CLOCK_THREAD_CPUTIME_ID" },
  { 4, "CLOCK_MONOTONIC_RAW" },
  { 5, "CLOCK_REALTIME_COARSE" },
  { 6, "CLOCK_MONOTONIC_COARSE" },
  { 7, "CLOCK_BOOTTIME" },
  { 8, "CLOCK_REALTIME_ALARM" },
  { 9, "CLOCK_BOOTTIME_ALARM" },
  { 11, "CLOCK_TAI" },
};

static const SeismoSymbol madvise_advices[] = {
  { 0, "MADV_NORMAL" },
  { 1, "MADV_RANDOM" },
  { 2, "MADV_SEQUENTIAL" },
  { 3, "MADV_WILLNEED" },
  { 4, "MADV_DONTNEED" },
  { 8, "MADV_FREE" },
  { 9, "MADV_REMOVE" },
  { 10, "MADV_DONTFORK" },
  { 11, "MADV_DOFORK" },
  { 12, "MADV_MERGEABLE" },
  { 13, "MADV_UNMERGEABLE" },
  { 14, "MADV_HUGEPAGE" },
  { 15, "MADV_NOHUGEPAGE" },
  { 16, "MADV_DONTDUMP" },
  { 17, "MADV_DODUMP" },
  { 18, "MADV_WIPEONFORK" },
  { 19, "MADV_KEEPONFORK" },
  { 20, "MADV_COLD" },
  { 21, "MADV_PAGEOUT" },
  { 22, "MADV_POPULATE_READ" },
  { 23, "MADV_POPULATE_WRITE" },
  { 100, "MADV_HWPOISON" },
};

const SeismoPtraceXlat seismo_ptrace_xlat_open_flags = XLAT (open_flags);
const SeismoPtraceXlat seismo_ptrace_xlat_at_flags = XLAT (at_flags);
const SeismoPtraceXlat seismo_ptrace_xlat_access_modes = XLAT (access_modes);
const SeismoPtraceXlat seismo_ptrace_xlat_mmap_prot = XLAT (mmap_prot);
const SeismoPtraceXlat seismo_ptrace_xlat_mmap_flags = XLAT (mmap_flags);
const SeismoPtraceXlat seismo_ptrace_xlat_fcntl_cmds = XLAT (fcntl_cmds);
const SeismoPtraceXlat seismo_ptrace_xlat_ioctl_cmds = XLAT (ioctl_cmds);
const SeismoPtraceXlat seismo_ptrace_xlat_socket_families = XLAT (socket_families);
const SeismoPtraceXlat seismo_ptrace_xlat_socket_types = XLAT (socket_types);
const SeismoPtraceXlat seismo_ptrace_xlat_sigprocmask_hows = XLAT (sigprocmask_hows);
const SeismoPtraceXlat seismo_ptrace_xlat_seek_whences = XLAT (seek_whences);
const SeismoPtraceXlat seismo_ptrace_xlat_clone_flags = XLAT (clone_flags);
const SeismoPtraceXlat seismo_ptrace_xlat_wait_options = XLAT (wait_options);
const SeismoPtraceXlat seismo_ptrace_xlat_arch_prctl_codes = XLAT (arch_prctl_codes);
const SeismoPtraceXlat seismo_ptrace_xlat_rlimit_resources = XLAT (rlimit_resources);
const SeismoPtraceXlat seismo_ptrace_xlat_getrandom_flags = XLAT (getrandom_flags);
const SeismoPtraceXlat seismo_ptrace_xlat_futex_ops = XLAT (futex_ops);
const SeismoPtraceXlat seismo_ptrace_xlat_clock_ids = XLAT (clock_ids);
const SeismoPtraceXlat seismo_ptrace_xlat_madvise_advices = XLAT (madvise_advices);

gboolean
seismo_ptrace_xlat_lookup (const SeismoPtraceXlat *xlat,
                           const char             *name,
                           gsize                   len,
                           guint64                *value)
{
  for (guint i = 0; i < xlat->n_symbols; i++)
    if (strncmp (xlat->symbols[i].name, name, len) == 0 && xlat->symbols[i].name[len] == '\0')
      {
        *value = xlat->symbols[i].value;
        return TRUE;
      }
  return FALSE;
}

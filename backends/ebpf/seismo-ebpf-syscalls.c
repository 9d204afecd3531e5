/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <string.h>

#include "seismo-ebpf-private.h"
#include "seismo-error.h"
#include "seismo-syscalls.h"

/*
 * What the in-kernel filter and path copy need to know about syscalls, as data: strace-like
 * classes for `-e %file` and which argument holds a path. Names are x86-64 syscall names; the
 * numbers come from the generated table (seismo-syscalls.h).
 */
enum {
  C_FILE    = 1 << 0,   /* takes a file name */
  C_DESC    = 1 << 1,   /* takes or returns a file descriptor */
  C_PROCESS = 1 << 2,   /* process life cycle */
  C_NETWORK = 1 << 3,
  C_SIGNAL  = 1 << 4,
  C_IPC     = 1 << 5,   /* System V IPC */
  C_MEMORY  = 1 << 6,   /* address space */
  C_CREDS   = 1 << 7,   /* user and group ids, capabilities */
  C_CLOCK   = 1 << 8,   /* reading and setting clocks */
};

static const struct {
  const char *name;
  guint       classes;
} class_names[] = {
  { "file",    C_FILE },
  { "desc",    C_DESC },
  { "process", C_PROCESS },
  { "network", C_NETWORK },
  { "net",     C_NETWORK },
  { "signal",  C_SIGNAL },
  { "ipc",     C_IPC },
  { "memory",  C_MEMORY },
  { "creds",   C_CREDS },
  { "clock",   C_CLOCK },
};

/* path: 1 + index of the path argument, 0 when the syscall takes none. */
static const struct {
  const char *name;
  guint       classes;
  guint8      path;
} syscall_info[] = {
  { "open",              C_FILE | C_DESC,    1 },
  { "creat",             C_FILE | C_DESC,    1 },
  { "openat",            C_FILE | C_DESC,    2 },
  { "openat2",           C_FILE | C_DESC,    2 },
  { "name_to_handle_at", C_FILE | C_DESC,    2 },
  { "stat",              C_FILE,             1 },
  { "lstat",             C_FILE,             1 },
  { "newfstatat",        C_FILE | C_DESC,    2 },
  { "statx",             C_FILE | C_DESC,    2 },
  { "statfs",            C_FILE,             1 },
  { "access",            C_FILE,             1 },
  { "faccessat",         C_FILE | C_DESC,    2 },
  { "faccessat2",        C_FILE | C_DESC,    2 },
  { "execve",            C_FILE | C_PROCESS, 1 },
  { "execveat",          C_FILE | C_DESC | C_PROCESS, 2 },
  { "chdir",             C_FILE,             1 },
  { "chroot",            C_FILE,             1 },
  { "pivot_root",        C_FILE,             1 },
  { "mkdir",             C_FILE,             1 },
  { "mkdirat",           C_FILE | C_DESC,    2 },
  { "rmdir",             C_FILE,             1 },
  { "unlink",            C_FILE,             1 },
  { "unlinkat",          C_FILE | C_DESC,    2 },
  { "rename",            C_FILE,             1 },
  { "renameat",          C_FILE | C_DESC,    2 },
  { "renameat2",         C_FILE | C_DESC,    2 },
  { "link",              C_FILE,             1 },
  { "linkat",            C_FILE | C_DESC,    2 },
  /* symlink(target, linkpath): the path created is the interesting one. */
  { "symlink",           C_FILE,             2 },
  { "symlinkat",         C_FILE | C_DESC,    3 },
  { "readlink",          C_FILE,             1 },
  { "readlinkat",        C_FILE | C_DESC,    2 },
  { "chmod",             C_FILE,             1 },
  { "fchmodat",          C_FILE | C_DESC,    2 },
  { "fchmodat2",         C_FILE | C_DESC,    2 },
  { "chown",             C_FILE,             1 },
  { "lchown",            C_FILE,             1 },
  { "fchownat",          C_FILE | C_DESC,    2 },
  { "truncate",          C_FILE,             1 },
  { "utime",             C_FILE,             1 },
  { "utimes",            C_FILE,             1 },
  { "futimesat",         C_FILE | C_DESC,    2 },
  { "utimensat",         C_FILE | C_DESC,    2 },
  { "mknod",             C_FILE,             1 },
  { "mknodat",           C_FILE | C_DESC,    2 },
  { "setxattr",          C_FILE,             1 },
  { "lsetxattr",         C_FILE,             1 },
  { "getxattr",          C_FILE,             1 },
  { "lgetxattr",         C_FILE,             1 },
  { "listxattr",         C_FILE,             1 },
  { "llistxattr",        C_FILE,             1 },
  { "removexattr",       C_FILE,             1 },
  { "lremovexattr",      C_FILE,             1 },
  /* mount(source, target…): source is often not a path. */
  { "mount",             C_FILE,             2 },
  { "umount2",           C_FILE,             1 },
  { "swapon",            C_FILE,             1 },
  { "swapoff",           C_FILE,             1 },
  { "acct",              C_FILE,             1 },
  { "uselib",            C_FILE,             1 },
  { "inotify_add_watch", C_FILE | C_DESC,    2 },
  { "fanotify_mark",     C_FILE | C_DESC,    5 },
  { "open_tree",         C_FILE | C_DESC,    2 },
  { "move_mount",        C_FILE | C_DESC,    2 },
  { "fspick",            C_FILE | C_DESC,    2 },
  { "mount_setattr",     C_FILE | C_DESC,    2 },

  { "read",              C_DESC, 0 },
  { "write",             C_DESC, 0 },
  { "close",             C_DESC, 0 },
  { "close_range",       C_DESC, 0 },
  { "fstat",             C_DESC, 0 },
  { "fstatfs",           C_DESC, 0 },
  { "lseek",             C_DESC, 0 },
  { "pread64",           C_DESC, 0 },
  { "pwrite64",          C_DESC, 0 },
  { "readv",             C_DESC, 0 },
  { "writev",            C_DESC, 0 },
  { "preadv",            C_DESC, 0 },
  { "pwritev",           C_DESC, 0 },
  { "preadv2",           C_DESC, 0 },
  { "pwritev2",          C_DESC, 0 },
  { "pipe",              C_DESC, 0 },
  { "pipe2",             C_DESC, 0 },
  { "select",            C_DESC, 0 },
  { "pselect6",          C_DESC, 0 },
  { "poll",              C_DESC, 0 },
  { "ppoll",             C_DESC, 0 },
  { "dup",               C_DESC, 0 },
  { "dup2",              C_DESC, 0 },
  { "dup3",              C_DESC, 0 },
  { "fcntl",             C_DESC, 0 },
  { "ioctl",             C_DESC, 0 },
  { "flock",             C_DESC, 0 },
  { "fsync",             C_DESC, 0 },
  { "fdatasync",         C_DESC, 0 },
  { "syncfs",            C_DESC, 0 },
  { "sync_file_range",   C_DESC, 0 },
  { "ftruncate",         C_DESC, 0 },
  { "fallocate",         C_DESC, 0 },
  { "getdents",          C_DESC, 0 },
  { "getdents64",        C_DESC, 0 },
  { "fchdir",            C_DESC, 0 },
  { "fchmod",            C_DESC, 0 },
  { "fchown",            C_DESC, 0 },
  { "readahead",         C_DESC, 0 },
  { "fsetxattr",         C_DESC, 0 },
  { "fgetxattr",         C_DESC, 0 },
  { "flistxattr",        C_DESC, 0 },
  { "fremovexattr",      C_DESC, 0 },
  { "epoll_create",      C_DESC, 0 },
  { "epoll_create1",     C_DESC, 0 },
  { "epoll_ctl",         C_DESC, 0 },
  { "epoll_wait",        C_DESC, 0 },
  { "epoll_pwait",       C_DESC, 0 },
  { "epoll_pwait2",      C_DESC, 0 },
  { "eventfd",           C_DESC, 0 },
  { "eventfd2",          C_DESC, 0 },
  { "timerfd_create",    C_DESC, 0 },
  { "timerfd_settime",   C_DESC, 0 },
  { "timerfd_gettime",   C_DESC, 0 },
  { "inotify_init",      C_DESC, 0 },
  { "inotify_init1",     C_DESC, 0 },
  { "inotify_rm_watch",  C_DESC, 0 },
  { "fanotify_init",     C_DESC, 0 },
  { "sendfile",          C_DESC | C_NETWORK, 0 },
  { "splice",            C_DESC, 0 },
  { "tee",               C_DESC, 0 },
  { "vmsplice",          C_DESC, 0 },
  { "copy_file_range",   C_DESC, 0 },
  { "open_by_handle_at", C_DESC, 0 },
  { "memfd_create",      C_DESC, 0 },
  { "io_uring_setup",    C_DESC, 0 },
  { "io_uring_enter",    C_DESC, 0 },
  { "io_uring_register", C_DESC, 0 },
  { "fsopen",            C_DESC, 0 },
  { "fsconfig",          C_DESC, 0 },
  { "fsmount",           C_DESC, 0 },
  { "pidfd_getfd",       C_DESC, 0 },

  { "socket",            C_NETWORK | C_DESC, 0 },
  { "socketpair",        C_NETWORK | C_DESC, 0 },
  { "bind",              C_NETWORK | C_DESC, 0 },
  { "listen",            C_NETWORK | C_DESC, 0 },
  { "accept",            C_NETWORK | C_DESC, 0 },
  { "accept4",           C_NETWORK | C_DESC, 0 },
  { "connect",           C_NETWORK | C_DESC, 0 },
  { "getsockname",       C_NETWORK | C_DESC, 0 },
  { "getpeername",       C_NETWORK | C_DESC, 0 },
  { "sendto",            C_NETWORK | C_DESC, 0 },
  { "recvfrom",          C_NETWORK | C_DESC, 0 },
  { "sendmsg",           C_NETWORK | C_DESC, 0 },
  { "recvmsg",           C_NETWORK | C_DESC, 0 },
  { "sendmmsg",          C_NETWORK | C_DESC, 0 },
  { "recvmmsg",          C_NETWORK | C_DESC, 0 },
  { "shutdown",          C_NETWORK | C_DESC, 0 },
  { "setsockopt",        C_NETWORK | C_DESC, 0 },
  { "getsockopt",        C_NETWORK | C_DESC, 0 },

  { "fork",              C_PROCESS, 0 },
  { "vfork",             C_PROCESS, 0 },
  { "clone",             C_PROCESS, 0 },
  { "clone3",            C_PROCESS, 0 },
  { "exit",              C_PROCESS, 0 },
  { "exit_group",        C_PROCESS, 0 },
  { "wait4",             C_PROCESS, 0 },
  { "waitid",            C_PROCESS, 0 },
  { "unshare",           C_PROCESS, 0 },
  { "setns",             C_PROCESS | C_DESC, 0 },
  { "pidfd_open",        C_PROCESS | C_DESC, 0 },
  { "kill",              C_PROCESS | C_SIGNAL, 0 },
  { "tkill",             C_PROCESS | C_SIGNAL, 0 },
  { "tgkill",            C_PROCESS | C_SIGNAL, 0 },
  { "rt_sigqueueinfo",   C_PROCESS | C_SIGNAL, 0 },
  { "rt_tgsigqueueinfo", C_PROCESS | C_SIGNAL, 0 },
  { "pidfd_send_signal", C_PROCESS | C_SIGNAL | C_DESC, 0 },

  { "rt_sigaction",      C_SIGNAL, 0 },
  { "rt_sigprocmask",    C_SIGNAL, 0 },
  { "rt_sigreturn",      C_SIGNAL, 0 },
  { "rt_sigpending",     C_SIGNAL, 0 },
  { "rt_sigtimedwait",   C_SIGNAL, 0 },
  { "rt_sigsuspend",     C_SIGNAL, 0 },
  { "sigaltstack",       C_SIGNAL, 0 },
  { "pause",             C_SIGNAL, 0 },
  { "signalfd",          C_SIGNAL | C_DESC, 0 },
  { "signalfd4",         C_SIGNAL | C_DESC, 0 },

  { "msgget",            C_IPC, 0 },
  { "msgsnd",            C_IPC, 0 },
  { "msgrcv",            C_IPC, 0 },
  { "msgctl",            C_IPC, 0 },
  { "semget",            C_IPC, 0 },
  { "semop",             C_IPC, 0 },
  { "semctl",            C_IPC, 0 },
  { "semtimedop",        C_IPC, 0 },
  { "shmget",            C_IPC, 0 },
  { "shmat",             C_IPC | C_MEMORY, 0 },
  { "shmdt",             C_IPC | C_MEMORY, 0 },
  { "shmctl",            C_IPC, 0 },

  { "brk",               C_MEMORY, 0 },
  { "mmap",              C_MEMORY | C_DESC, 0 },
  { "munmap",            C_MEMORY, 0 },
  { "mremap",            C_MEMORY, 0 },
  { "mprotect",          C_MEMORY, 0 },
  { "pkey_mprotect",     C_MEMORY, 0 },
  { "madvise",           C_MEMORY, 0 },
  { "process_madvise",   C_MEMORY | C_DESC, 0 },
  { "msync",             C_MEMORY, 0 },
  { "mlock",             C_MEMORY, 0 },
  { "mlock2",            C_MEMORY, 0 },
  { "munlock",           C_MEMORY, 0 },
  { "mlockall",          C_MEMORY, 0 },
  { "munlockall",        C_MEMORY, 0 },
  { "mincore",           C_MEMORY, 0 },
  { "remap_file_pages",  C_MEMORY, 0 },
  { "mbind",             C_MEMORY, 0 },
  { "set_mempolicy",     C_MEMORY, 0 },
  { "get_mempolicy",     C_MEMORY, 0 },
  { "migrate_pages",     C_MEMORY, 0 },
  { "move_pages",        C_MEMORY, 0 },

  { "getuid",            C_CREDS, 0 },
  { "geteuid",           C_CREDS, 0 },
  { "getgid",            C_CREDS, 0 },
  { "getegid",           C_CREDS, 0 },
  { "setuid",            C_CREDS, 0 },
  { "setgid",            C_CREDS, 0 },
  { "setreuid",          C_CREDS, 0 },
  { "setregid",          C_CREDS, 0 },
  { "setresuid",         C_CREDS, 0 },
  { "getresuid",         C_CREDS, 0 },
  { "setresgid",         C_CREDS, 0 },
  { "getresgid",         C_CREDS, 0 },
  { "setfsuid",          C_CREDS, 0 },
  { "setfsgid",          C_CREDS, 0 },
  { "getgroups",         C_CREDS, 0 },
  { "setgroups",         C_CREDS, 0 },
  { "capget",            C_CREDS, 0 },
  { "capset",            C_CREDS, 0 },

  { "clock_gettime",     C_CLOCK, 0 },
  { "clock_settime",     C_CLOCK, 0 },
  { "clock_getres",      C_CLOCK, 0 },
  { "clock_nanosleep",   C_CLOCK, 0 },
  { "clock_adjtime",     C_CLOCK, 0 },
  { "gettimeofday",      C_CLOCK, 0 },
  { "settimeofday",      C_CLOCK, 0 },
  { "adjtimex",          C_CLOCK, 0 },
  { "time",              C_CLOCK, 0 },
};

static void
set_bit (guint64 *bitmap,
         gint64   nr)
{
  if (nr >= 0 && nr < SEISMO_EBPF_MAX_SYSCALLS)
    bitmap[nr / 64] |= G_GUINT64_CONSTANT (1) << (nr % 64);
}

static gboolean
add_filter_word (const char *word,
                 guint64    *bitmap,
                 GError    **error)
{
  if (word[0] == '%')
    {
      guint classes = 0;

      for (guint i = 0; i < G_N_ELEMENTS (class_names); i++)
        if (g_str_equal (word + 1, class_names[i].name))
          classes = class_names[i].classes;
      if (classes == 0)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("unknown syscall class '%s' (known: %%file %%desc %%process %%network "
                         "%%signal %%ipc %%memory %%creds %%clock)"), word);
          return FALSE;
        }
      for (guint i = 0; i < G_N_ELEMENTS (syscall_info); i++)
        if (syscall_info[i].classes & classes)
          set_bit (bitmap, seismo_syscall_number (SEISMO_ARCH_X86_64, syscall_info[i].name));
      return TRUE;
    }

  {
    gint64 nr = seismo_syscall_number (SEISMO_ARCH_X86_64, word);

    if (nr < 0)
      {
        const char *near = seismo_syscall_suggest (word);

        if (near != NULL)
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("unknown syscall '%s'; did you mean '%s'?"), word, near);
        else
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("unknown syscall '%s'"), word);
        return FALSE;
      }
    if (nr >= SEISMO_EBPF_MAX_SYSCALLS)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                     _("syscall '%s' (number %" PRId64 ") is beyond the %d the eBPF "
                       "filter covers"), word, nr, SEISMO_EBPF_MAX_SYSCALLS);
        return FALSE;
      }
    set_bit (bitmap, nr);
  }
  return TRUE;
}

gboolean
seismo_ebpf_syscall_filter (char *const *specs,
                            guint64      bitmap[SEISMO_EBPF_MAX_SYSCALLS / 64],
                            GError     **error)
{
  memset (bitmap, 0, sizeof (guint64) * (SEISMO_EBPF_MAX_SYSCALLS / 64));
  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit (specs[i], ",", -1);

      for (guint j = 0; words[j] != NULL; j++)
        {
          const char *word = g_strstrip (words[j]);

          if (*word != '\0' && !add_filter_word (word, bitmap, error))
            return FALSE;
        }
    }
  return TRUE;
}

void
seismo_ebpf_syscall_path_args (guint8 path_arg[SEISMO_EBPF_MAX_SYSCALLS])
{
  memset (path_arg, 0, SEISMO_EBPF_MAX_SYSCALLS);
  for (guint i = 0; i < G_N_ELEMENTS (syscall_info); i++)
    {
      gint64 nr = seismo_syscall_number (SEISMO_ARCH_X86_64, syscall_info[i].name);

      if (nr >= 0 && nr < SEISMO_EBPF_MAX_SYSCALLS)
        path_arg[nr] = syscall_info[i].path;
    }
}

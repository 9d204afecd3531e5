/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>

#include "seismo-syscalls.h"

static void
test_names (void)
{
  g_assert_cmpstr (seismo_syscall_name (SEISMO_ARCH_X86_64, SYS_read), ==, "read");
  g_assert_cmpstr (seismo_syscall_name (SEISMO_ARCH_X86_64, SYS_openat), ==, "openat");
  g_assert_cmpstr (seismo_syscall_name (SEISMO_ARCH_X86_64, SYS_exit_group), ==, "exit_group");
  g_assert_cmpstr (seismo_syscall_name (SEISMO_ARCH_I386, 5), ==, "open");
  g_assert_cmpstr (seismo_syscall_name (SEISMO_ARCH_I386, 295), ==, "openat");
  g_assert_null (seismo_syscall_name (SEISMO_ARCH_X86_64, -1));
  g_assert_null (seismo_syscall_name (SEISMO_ARCH_X86_64, 100000));
  g_assert_cmpint (seismo_syscall_number (SEISMO_ARCH_X86_64, "write"), ==, SYS_write);
  g_assert_cmpint (seismo_syscall_number (SEISMO_ARCH_X86_64, "no_such_call"), ==, -1);
  g_assert_cmpuint (seismo_syscall_table_size (SEISMO_ARCH_X86_64), >, 330);
  g_assert_cmpint (seismo_arch_from_string ("i686"), ==, SEISMO_ARCH_I386);
}

/* Numbers checked against each arch's syscall.tbl / asm-generic/unistd.h. */
static void
test_arches (void)
{
  static const struct {
    SeismoArch  arch;
    gint64      nr;
    const char *name;
  } known[] = {
    { SEISMO_ARCH_ARM, 175, "rt_sigprocmask" },
    { SEISMO_ARCH_ARM, 168, "poll" },
    { SEISMO_ARCH_ARM, 322, "openat" },
    { SEISMO_ARCH_ARM, 0, "restart_syscall" },
    { SEISMO_ARCH_I386, 175, "rt_sigprocmask" },
    { SEISMO_ARCH_X86_64, 175, "init_module" },
    { SEISMO_ARCH_X32, 0x40000000 + 257, "openat" },
    { SEISMO_ARCH_ARM64, 56, "openat" },
    { SEISMO_ARCH_ARM64, 221, "execve" },
    { SEISMO_ARCH_ARM64, 79, "newfstatat" },
    { SEISMO_ARCH_RISCV64, 56, "openat" },
    { SEISMO_ARCH_RISCV64, 259, "riscv_flush_icache" },
    { SEISMO_ARCH_LOONGARCH64, 56, "openat" },
    { SEISMO_ARCH_LOONGARCH64, 435, "clone3" },
    { SEISMO_ARCH_POWERPC64, 286, "openat" },
    { SEISMO_ARCH_POWERPC, 286, "openat" },
    { SEISMO_ARCH_S390X, 288, "openat" },
    { SEISMO_ARCH_MIPS, 4288, "openat" },
    { SEISMO_ARCH_MIPS64, 5247, "openat" },
    { SEISMO_ARCH_MIPS64N32, 6251, "openat" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_assert_cmpstr (seismo_syscall_name (known[i].arch, known[i].nr), ==, known[i].name);
      g_assert_cmpint (seismo_syscall_number (known[i].arch, known[i].name), ==, known[i].nr);
    }
  /* The 64-bit asm-generic arches dropped the old calls; loongarch64 also stat. */
  g_assert_cmpint (seismo_syscall_number (SEISMO_ARCH_ARM64, "open"), ==, -1);
  g_assert_cmpint (seismo_syscall_number (SEISMO_ARCH_LOONGARCH64, "newfstatat"), ==, -1);
  g_assert_null (seismo_syscall_name (SEISMO_ARCH_MIPS, 288));
  g_assert_cmpint (seismo_syscall_table_first (SEISMO_ARCH_MIPS), ==, 4000);
  /* No table: no name, never x86_64's. */
  g_assert_null (seismo_syscall_name (SEISMO_ARCH_UNKNOWN, 0));
  g_assert_cmpint (seismo_syscall_number (SEISMO_ARCH_UNKNOWN, "read"), ==, -1);
  g_assert_cmpuint (seismo_arch_long_size (SEISMO_ARCH_ARM), ==, 4);
  g_assert_cmpuint (seismo_arch_long_size (SEISMO_ARCH_ARM64), ==, 8);
}

static void
test_arch_names (void)
{
  static const struct {
    const char *machine;
    const char *arch;
  } names[] = {
    { "x86_64", "x86_64" }, { "i686", "i386" }, { "i386", "i386" }, { "armv7l", "arm" },
    { "armv6l", "arm" }, { "armv5tejl", "arm" }, { "aarch64", "arm64" }, { "arm64", "arm64" },
    { "riscv64", "riscv64" }, { "ppc64le", "powerpc64" }, { "ppc64", "powerpc64" },
    { "ppc", "powerpc" }, { "s390x", "s390x" }, { "mips", "mips" }, { "mips64", "mips64" },
    { "loongarch64", "loongarch64" }, { "x32", "x32" },
    { NULL, "unknown" }, { "", "unknown" }, { "sparc64", "unknown" }, { "m68k", "unknown" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (seismo_arch_to_string (seismo_arch_from_string (names[i].machine)), ==,
                     names[i].arch);
}

static void
test_catalogue (void)
{
  const SeismoSyscallInfo *info = seismo_syscall_info ("openat");

  g_assert_nonnull (info);
  g_assert_true (info->args_known);
  g_assert_cmpuint (info->n_args, ==, 4);
  g_assert_cmpint (info->args[0].kind, ==, SEISMO_SYSCALL_ARG_FD);
  g_assert_cmpint (info->args[1].kind, ==, SEISMO_SYSCALL_ARG_PATH);
  g_assert_cmpint (info->path_arg, ==, 1);
  g_assert_cmpint (info->args[2].kind, ==, SEISMO_SYSCALL_ARG_FLAGS);
  g_assert_cmpuint (info->classes, ==, SEISMO_SYSCALL_CLASS_FILE | SEISMO_SYSCALL_CLASS_DESC);
  /* Other ABIs' spellings take the arguments of the x86_64 call. */
  info = seismo_syscall_info ("fstatat64");
  g_assert_nonnull (info);
  g_assert_cmpstr (info->canonical, ==, "newfstatat");
  g_assert_true (info->classes & SEISMO_SYSCALL_CLASS_FILE);
  g_assert_cmpint (seismo_syscall_info ("symlink")->path_arg, ==, 1);
  g_assert_null (seismo_syscall_info ("no_such_call"));
  g_assert_cmpuint (seismo_syscall_classes ("sendto"), ==,
                    SEISMO_SYSCALL_CLASS_NETWORK | SEISMO_SYSCALL_CLASS_DESC);
  g_assert_cmpuint (seismo_syscall_classes ("clock_gettime"), ==, SEISMO_SYSCALL_CLASS_CLOCK);
  g_assert_cmpuint (seismo_syscall_classes ("setresuid"), ==, SEISMO_SYSCALL_CLASS_CREDS);
  g_assert_cmpuint (seismo_syscall_classes ("mmap2"), ==,
                    SEISMO_SYSCALL_CLASS_MEMORY | SEISMO_SYSCALL_CLASS_DESC);
  g_assert_cmpuint (seismo_syscall_class_from_name ("%net"), ==, SEISMO_SYSCALL_CLASS_NETWORK);
  g_assert_cmpuint (seismo_syscall_class_from_name ("file"), ==, SEISMO_SYSCALL_CLASS_FILE);
  g_assert_cmpuint (seismo_syscall_class_from_name ("%pure"), ==, 0);
  /* Every name an arch has is in the catalogue, with its classes. */
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    for (gint64 nr = seismo_syscall_table_first (a);
         nr < seismo_syscall_table_first (a) + seismo_syscall_table_size (a); nr++)
      if (seismo_syscall_name (a, nr))
        g_assert_nonnull (seismo_syscall_info (seismo_syscall_name (a, nr)));
}

static void
test_errno_signal (void)
{
  g_assert_cmpstr (seismo_errno_name (ENOENT), ==, "ENOENT");
  g_assert_cmpstr (seismo_errno_name (EAGAIN), ==, "EAGAIN");
  g_assert_cmpint (seismo_errno_from_name ("EACCES"), ==, EACCES);
  g_assert_null (seismo_errno_name (0));
  g_assert_null (seismo_errno_name (-3));
  g_assert_cmpstr (seismo_signal_name (SIGSEGV), ==, "SIGSEGV");
  g_assert_cmpstr (seismo_signal_name (SIGCHLD), ==, "SIGCHLD");
  g_assert_cmpint (seismo_signal_from_name ("SIGTERM"), ==, SIGTERM);
  g_assert_null (seismo_signal_name (99));
}

/* errno numbers per ABI (data/seismo-errno-tables.h, from the kernel's uapi headers). */
static void
test_errno_arches (void)
{
  /* asm-generic's for most ABIs, and for an unknown one. */
  for (SeismoArch a = 0; a <= SEISMO_ARCH_UNKNOWN; a++)
    {
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 2), ==, "ENOENT");
      g_assert_cmpint (seismo_errno_from_name_for_arch (a, "EAGAIN"), ==, 11);
      g_assert_cmpint (seismo_errno_from_name_for_arch (a, "EWOULDBLOCK"), ==, 11);
    }
  g_assert_cmpstr (seismo_errno_name_for_arch (SEISMO_ARCH_X86_64, 38), ==, "ENOSYS");
  g_assert_cmpstr (seismo_errno_name_for_arch (SEISMO_ARCH_ARM, 35), ==, "EDEADLK");
  g_assert_cmpint (seismo_errno_from_name_for_arch (SEISMO_ARCH_ARM64, "EDEADLOCK"), ==, 35);

  /* mips: all three ABIs share arch/mips's numbers. */
  for (SeismoArch a = SEISMO_ARCH_MIPS; a <= SEISMO_ARCH_MIPS64; a++)
    {
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 89), ==, "ENOSYS");
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 38), ==, "EL2NSYNC");
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 1133), ==, "EDQUOT");
      g_assert_cmpint (seismo_errno_from_name_for_arch (a, "ETIMEDOUT"), ==, 145);
      g_assert_cmpint (seismo_errno_from_name_for_arch (a, "EDEADLOCK"), ==, 56);
      g_assert_cmpint (seismo_errno_from_name_for_arch (a, "EWOULDBLOCK"), ==, 11);
    }
  /* powerpc: asm-generic's but EDEADLOCK, which has its own number 58. */
  for (SeismoArch a = SEISMO_ARCH_POWERPC; a <= SEISMO_ARCH_POWERPC64; a++)
    {
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 58), ==, "EDEADLOCK");
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 35), ==, "EDEADLK");
      g_assert_cmpint (seismo_errno_from_name_for_arch (a, "EDEADLOCK"), ==, 58);
      g_assert_cmpstr (seismo_errno_name_for_arch (a, 38), ==, "ENOSYS");
    }
  g_assert_null (seismo_errno_name_for_arch (SEISMO_ARCH_X86_64, 58));

  /* The message is the C library's for the same name, not for the same number. */
  g_assert_cmpstr (seismo_errno_message (SEISMO_ARCH_MIPS, 89), ==, g_strerror (ENOSYS));
  g_assert_cmpstr (seismo_errno_message (SEISMO_ARCH_POWERPC64, 58), ==, g_strerror (EDEADLK));
  g_assert_null (seismo_errno_message (SEISMO_ARCH_X86_64, 4000));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/syscalls/names", test_names);
  g_test_add_func ("/syscalls/arches", test_arches);
  g_test_add_func ("/syscalls/arch-names", test_arch_names);
  g_test_add_func ("/syscalls/catalogue", test_catalogue);
  g_test_add_func ("/syscalls/errno-signal", test_errno_signal);
  g_test_add_func ("/syscalls/errno-arches", test_errno_arches);
  return g_test_run ();
}

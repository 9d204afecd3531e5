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
  g_assert_cmpint (seismo_arch_from_string (NULL), ==, SEISMO_ARCH_X86_64);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/syscalls/names", test_names);
  g_test_add_func ("/syscalls/errno-signal", test_errno_signal);
  return g_test_run ();
}

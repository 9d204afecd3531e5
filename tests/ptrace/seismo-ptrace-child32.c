/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * An i386 program without a C library (only -m32 -nostdlib is needed to build it), for the
 * ptrace backend's compat syscall decoding: i386 numbers, 32-bit registers, int $0x80.
 * Keep the paths in sync with test-ptrace.c.
 */

static long
sys3 (long nr, long a, long b, long c)
{
  long ret;
  __asm__ volatile ("int $0x80" : "=a" (ret) : "a" (nr), "b" (a), "c" (b), "d" (c) : "memory");
  return ret;
}
void _start (void) __attribute__ ((noreturn));
void
_start (void)
{
  static const char missing[] = "/nonexistent/seismo-i386";
  static const char msg[] = "i386\n";
  long fd = sys3 (5, (long) "/dev/null", 1, 0);      /* open (O_WRONLY) */
  sys3 (4, fd, (long) msg, sizeof msg - 1);            /* write */
  sys3 (5, (long) missing, 0, 0);                      /* open → ENOENT */
  sys3 (252, 3, 0, 0);                                 /* exit_group (3) */
  for (;;);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Known call paths for the stack tests (tests/ebpf/test-stacks.c), built with -O0, frame pointers
 * and debug info:
 *   main → do_io → write_file → write(2)    (three times, to /dev/null)
 *   main → nap → nanosleep(2)
 */

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

void write_file (int fd);
void do_io (void);
void nap (void);

__attribute__((noinline)) void
write_file (int fd)
{
  if (write (fd, "seismo\n", 7) != 7)
    _exit (2);
}

__attribute__((noinline)) void
do_io (void)
{
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);

  if (fd < 0)
    _exit (2);
  for (int i = 0; i < 3; i++)
    write_file (fd);
  close (fd);
}

__attribute__((noinline)) void
nap (void)
{
  struct timespec ts = { 0, 20 * 1000 * 1000 };

  nanosleep (&ts, NULL);
}

int
main (void)
{
  do_io ();
  nap ();
  return 0;
}

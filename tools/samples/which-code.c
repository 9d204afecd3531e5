/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A program whose call paths are known: the workload of the "Which code made this syscall?"
 * sample, built with -O0 -g -fno-omit-frame-pointer so that every function keeps its frame.
 *
 *   main → load_config → read_file → openat, read (until the end), close   (/etc/os-release)
 *   main → save_report → write_line → write      (five lines to /dev/null)
 *   main → take_a_nap → nanosleep                 (three naps of 30 ms)
 *
 * Both load_config and save_report open a file, but only read_file reads and only write_line
 * writes: the stack, not the syscall, tells the two openat apart.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Not static, so that they are in the symbol table under their own names; noinline, so that
 * each stays a frame of its own. */
void read_file (const char *path);
void load_config (void);
void write_line (int fd, int n);
void save_report (void);
void take_a_nap (long ms);

__attribute__((noinline)) void
read_file (const char *path)
{
  char buf[256];
  ssize_t n;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return;
  while ((n = read (fd, buf, sizeof buf)) > 0)
    ;
  close (fd);
}

__attribute__((noinline)) void
load_config (void)
{
  read_file ("/etc/os-release");
}

__attribute__((noinline)) void
write_line (int fd, int n)
{
  char line[64];
  int len = snprintf (line, sizeof line, "report line %d\n", n);

  if (write (fd, line, (size_t) len) != len)
    exit (1);
}

__attribute__((noinline)) void
save_report (void)
{
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);

  if (fd < 0)
    exit (1);
  for (int i = 1; i <= 5; i++)
    write_line (fd, i);
  close (fd);
}

__attribute__((noinline)) void
take_a_nap (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

  nanosleep (&ts, NULL);
}

int
main (void)
{
  load_config ();
  save_report ();
  for (int i = 0; i < 3; i++)
    take_a_nap (30);
  return 0;
}

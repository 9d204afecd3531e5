/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Two processes pass one byte back and forth through two pipes: every hop is a write, a wakeup of
 * the reader, a context switch and a read. The workload of the "pipe ping-pong wakeups" sample. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 200;
  int ping[2], pong[2];
  char c = 'x';
  pid_t child;

  if (pipe (ping) != 0 || pipe (pong) != 0)
    return 1;
  child = fork ();
  if (child < 0)
    return 1;
  if (child == 0)
    {
      for (int i = 0; i < rounds; i++)
        if (read (ping[0], &c, 1) != 1 || write (pong[1], &c, 1) != 1)
          _exit (1);
      _exit (0);
    }
  for (int i = 0; i < rounds; i++)
    if (write (ping[1], &c, 1) != 1 || read (pong[0], &c, 1) != 1)
      return 1;
  waitpid (child, NULL, 0);
  printf ("%d round trips\n", rounds);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Burns CPU for the given number of milliseconds: the workload of "two processes fighting for one
 * CPU" (two of them are pinned to the same CPU, so the scheduler has to take turns). */
#include <stdlib.h>
#include <time.h>

int
main (int argc, char **argv)
{
  long ms = argc > 1 ? atol (argv[1]) : 300;
  struct timespec start, now;
  volatile unsigned long sink = 0;

  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      for (int i = 0; i < 10000; i++)
        sink += i;
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The smallest interesting program: what does printing one line cost in syscalls? */
#include <stdio.h>

int
main (void)
{
  printf ("hello, syscalls\n");
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The least any ptrace tracer can cost: it runs a command under PTRACE_SYSCALL and, at each of
 * the two stops of every syscall, does nothing but wait for it and resume it. No registers, no
 * memory, no output. bench/ptrace-overhead.sh runs it beside strace and seismo, to tell how much
 * of their overhead is the stops themselves (the kernel's and the scheduler's) and how much
 * their own work.
 *
 * Like seismo with a single-task command, it runs the command on its own CPU (co-location: a
 * stop then hands the CPU over without waking another one, see seismo-ptrace-tracer.c), so that
 * it stays a lower bound for seismo too.
 *
 * Usage: ptrace-floor CMD ARGS...   (prints the number of stops to stderr)
 */

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  long stops = 0;
  int status;
  pid_t child;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s CMD ARGS...\n", argv[0]);
      return 2;
    }
  child = fork ();
  if (child < 0)
    {
      perror ("ptrace-floor: fork");
      return 1;
    }
  if (child == 0)
    {
      raise (SIGSTOP);
      execvp (argv[1], argv + 1);
      perror ("ptrace-floor: exec");
      _exit (127);
    }
  if (waitpid (child, &status, WSTOPPED) != child
      || ptrace (PTRACE_SEIZE, child, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0)
    {
      perror ("ptrace-floor: seize");
      kill (child, SIGKILL);
      return 1;
    }
  {
    cpu_set_t all, one;
    int cpu = sched_getcpu ();

    if (sched_getaffinity (0, sizeof all, &all) == 0 && CPU_COUNT (&all) > 1 && cpu >= 0)
      {
        CPU_ZERO (&one);
        CPU_SET (cpu, &one);
        sched_setaffinity (0, sizeof one, &one);
        sched_setaffinity (child, sizeof one, &one);
      }
  }
  kill (child, SIGCONT);

  /* One process, no fork options: every report is the child's. */
  for (;;)
    {
      int sig;

      if (waitpid (child, &status, __WALL) < 0)
        {
          perror ("ptrace-floor: waitpid");
          return 1;
        }
      if (WIFEXITED (status))
        break;
      if (WIFSIGNALED (status))
        {
          status = 128 + WTERMSIG (status);
          break;
        }
      stops++;
      sig = WSTOPSIG (status);
      /* Syscall stops and ptrace events carry no signal to deliver; the SIGCONT does. */
      if (sig == (SIGTRAP | 0x80) || (status >> 16) != 0 || sig == SIGSTOP)
        sig = 0;
      ptrace (PTRACE_SYSCALL, child, 0, (void *) (long) sig);
    }
  fprintf (stderr, "ptrace-floor: %ld stops\n", stops);
  return WIFEXITED (status) ? WEXITSTATUS (status) : status;
}

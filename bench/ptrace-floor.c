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
 * With --reads it also makes, at each syscall's exit, the requests that any tracer showing what
 * strace shows must make: one for the registers (number, arguments, result) and, for write(2),
 * one for the first 32 bytes of the data. It keeps nothing of what it reads. That is the least a
 * recorder as informative as strace can cost; what seismo spends above it is its own work.
 *
 * Usage: ptrace-floor [--reads] CMD ARGS...   (prints the number of stops to stderr)
 */

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

/* The registers and, for write(2), the data: read and dropped. */
static void
read_like_a_recorder (pid_t child)
{
  struct user_regs_struct regs;
  char data[32];
  struct iovec local = { data, 0 };
  struct iovec remote;

  if (ptrace (PTRACE_GETREGS, child, 0, &regs) != 0 || regs.orig_rax != 1 /* write */)
    return;
  local.iov_len = regs.rdx < sizeof data ? regs.rdx : sizeof data;
  remote.iov_base = (void *) regs.rsi;
  remote.iov_len = local.iov_len;
  process_vm_readv (child, &local, 1, &remote, 1, 0);
}

int
main (int    argc,
      char **argv)
{
  long stops = 0;
  int status;
  int reads = argc > 1 && strcmp (argv[1], "--reads") == 0;
  int in_syscall = 0;
  pid_t child;

  argv += reads;
  argc -= reads;
  if (argc < 2)
    {
      fprintf (stderr, "usage: ptrace-floor [--reads] CMD ARGS...\n");
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
      if (sig == (SIGTRAP | 0x80))
        {
          in_syscall = !in_syscall;
          if (reads && !in_syscall)
            read_like_a_recorder (child);
        }
      /* Syscall stops and ptrace events carry no signal to deliver; the SIGCONT does. */
      if (sig == (SIGTRAP | 0x80) || (status >> 16) != 0 || sig == SIGSTOP)
        sig = 0;
      ptrace (PTRACE_SYSCALL, child, 0, (void *) (long) sig);
    }
  fprintf (stderr, "ptrace-floor: %ld stops\n", stops);
  return WIFEXITED (status) ? WEXITSTATUS (status) : status;
}

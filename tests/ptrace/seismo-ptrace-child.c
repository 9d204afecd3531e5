/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace-child"

/*
 * The program the ptrace tests and benchmark trace. Plain libc, no GLib: every syscall it makes
 * is one the test expects.
 *
 *   sequence      writes, a failing open, a fork+exec of true, a signal; exits 3
 *   writes N      N write(2) of 7 bytes to /dev/null (the benchmark's workload)
 *   sleeper       writes "ready\n", then a heartbeat byte every 10 ms, forever, to stderr
 *   threads       two threads write 5 times each to /dev/null
 *   decode        calls whose arguments are constants to decode: socket, fcntl, ioctl, mmap,
 *                 and an open of a path longer than PATH_MAX (ENAMETOOLONG)
 *   thread-sleeper the sleeper's heartbeat from a second thread as well
 *   reexec        writes "before exec", then execs itself as "reexec-after", which opens
 *                 REEXEC_MISSING_PATH and writes "after exec": memory read after an exec
 */

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Known to the tests: keep in sync with test-ptrace.c. */
#define SEQ_WRITES        3
#define SEQ_MISSING_PATH  "/nonexistent/seismo-ptrace-test"
#define SEQ_EXIT_CODE     3
#define REEXEC_MISSING_PATH "/nonexistent/seismo-after-exec"

static volatile sig_atomic_t got_signal;

static void
on_usr1 (int sig)
{
  got_signal = sig;
}

static int
run_sequence (void)
{
  int fd = open ("/dev/null", O_WRONLY);
  char line[16];
  char long_line[100];
  struct sigaction sa;
  pid_t pid;
  int status;

  if (fd < 0)
    return 1;
  for (int i = 0; i < SEQ_WRITES; i++)
    {
      snprintf (line, sizeof line, "seismo-%d\n", i);
      if (write (fd, line, strlen (line)) < 0)
        return 1;
    }
  /* Longer than the recorded 32 bytes: stored cut, with the marker. */
  memset (long_line, 'x', sizeof long_line);
  if (write (fd, long_line, sizeof long_line) < 0)
    return 1;
  close (fd);

  if (open (SEQ_MISSING_PATH, O_RDONLY) >= 0)
    return 1;

  pid = fork ();
  if (pid == 0)
    {
      execl ("/bin/true", "true", (char *) NULL);
      _exit (127);
    }
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 1;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction (SIGUSR1, &sa, NULL);
  kill (getpid (), SIGUSR1);
  return got_signal == SIGUSR1 ? SEQ_EXIT_CODE : 1;
}

static int
run_writes (long n)
{
  int fd = open ("/dev/null", O_WRONLY);

  if (fd < 0)
    return 1;
  for (long i = 0; i < n; i++)
    if (write (fd, "seismo\n", 7) != 7)
      return 1;
  return 0;
}

static int
run_reexec (const char *self,
            int         after)
{
  int fd = open ("/dev/null", O_WRONLY);
  const char *text = after ? "after exec\n" : "before exec\n";

  if (fd < 0 || write (fd, text, strlen (text)) < 0)
    return 1;
  if (after)
    return open (REEXEC_MISSING_PATH, O_RDONLY) < 0 ? 0 : 1;
  execl (self, self, "reexec-after", (char *) NULL);
  return 1;
}

static int
run_sleeper (void)
{
  struct timespec ts = { 0, 10 * 1000 * 1000 };

  if (write (STDERR_FILENO, "ready\n", 6) != 6)
    return 1;
  for (;;)
    {
      nanosleep (&ts, NULL);
      if (write (STDERR_FILENO, ".", 1) != 1)
        return 1;
    }
}

static void *
thread_main (void *data)
{
  int fd = open ("/dev/null", O_WRONLY);

  for (int i = 0; i < 5; i++)
    if (write (fd, "thread\n", 7) != 7)
      break;
  close (fd);
  return NULL;
}

static int
run_threads (void)
{
  pthread_t threads[2];

  for (int i = 0; i < 2; i++)
    if (pthread_create (&threads[i], NULL, thread_main, NULL) != 0)
      return 1;
  for (int i = 0; i < 2; i++)
    pthread_join (threads[i], NULL);
  return 0;
}

/* Keep in sync with test-ptrace.c. */
#define DECODE_LONG_PATH 5000

static int
run_decode (void)
{
  char *path = malloc (DECODE_LONG_PATH + 1);
  int sock, n = 0;
  void *map;

  if (path == NULL)
    return 1;
  sock = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (sock < 0 || fcntl (sock, F_GETFL) < 0 || ioctl (sock, FIONREAD, &n) != 0)
    return 1;
  map = mmap (NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return 1;
  munmap (map, 4096);
  close (sock);
  /* "/aaaa…": too long for the kernel, and for the recorder's 4096 bytes. */
  path[0] = '/';
  memset (path + 1, 'a', DECODE_LONG_PATH - 1);
  path[DECODE_LONG_PATH] = '\0';
  if (open (path, O_RDONLY) >= 0)
    return 1;
  free (path);
  return 0;
}

static void *
beat_main (void *data)
{
  struct timespec ts = { 0, 10 * 1000 * 1000 };

  for (;;)
    {
      nanosleep (&ts, NULL);
      if (write (STDERR_FILENO, ":", 1) != 1)
        break;
    }
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "sequence") == 0)
    return run_sequence ();
  if (argc >= 3 && strcmp (argv[1], "writes") == 0)
    return run_writes (atol (argv[2]));
  if (argc >= 2 && (strcmp (argv[1], "reexec") == 0 || strcmp (argv[1], "reexec-after") == 0))
    return run_reexec (argv[0], strcmp (argv[1], "reexec-after") == 0);
  if (argc >= 2 && strcmp (argv[1], "sleeper") == 0)
    return run_sleeper ();
  if (argc >= 2 && strcmp (argv[1], "threads") == 0)
    return run_threads ();
  if (argc >= 2 && strcmp (argv[1], "decode") == 0)
    return run_decode ();
  if (argc >= 2 && strcmp (argv[1], "thread-sleeper") == 0)
    {
      pthread_t thread;

      if (pthread_create (&thread, NULL, beat_main, NULL) != 0)
        return 1;
      return run_sleeper ();
    }
  fprintf (stderr, "usage: %s sequence | writes N | sleeper | threads | decode | thread-sleeper "
           "| reexec\n", argv[0]);
  return 2;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stands in for pkexec(1) in tests/app/test-app-pkexec (there is no polkit daemon to ask): run
 * as `pkexec` from the front of $PATH, it does what pkexec does once authorized, as far as the
 * window can tell:
 *   - refuses a program given without an absolute path (pkexec does);
 *   - runs it with a clean environment that holds PKEXEC_UID, the uid of who asked;
 *   - cannot be stopped by a signal from the window (it ignores SIGINT/SIGTERM/SIGHUP, as a
 *     process running as root ignores the unprivileged user's kill), so only the recorder's
 *     stdin can stop the recording;
 *   - passes on the program's exit status.
 * $SEISMO_FAKE_PKEXEC_LOG: write the argument list there, one per line.
 * $SEISMO_FAKE_PKEXEC_UID: the PKEXEC_UID to pass (default: our uid).
 * $SEISMO_FAKE_PKEXEC_DENY: answer like pkexec when the user cancels the password dialog.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  const char *log = getenv ("SEISMO_FAKE_PKEXEC_LOG");
  const char *uid = getenv ("SEISMO_FAKE_PKEXEC_UID");
  const char *lang = getenv ("LANG");
  char uid_text[32];
  char *env[8];
  int n_env = 0;
  pid_t child;
  int status;

  if (log != NULL)
    {
      FILE *f = fopen (log, "w");

      if (f == NULL)
        {
          perror (log);
          return 127;
        }
      for (int i = 0; i < argc; i++)
        fprintf (f, "%s\n", argv[i]);
      fclose (f);
    }
  if (argc < 2 || argv[1][0] != '/')
    {
      fprintf (stderr, "pkexec --version |\n       --help |\n       [--user username] PROGRAM [ARGUMENTS...]\n");
      return 127;
    }
  if (getenv ("SEISMO_FAKE_PKEXEC_DENY") != NULL)
    {
      fprintf (stderr, "Error executing command as another user: Not authorized\n\n"
                       "This incident has been reported.\n");
      return 126;
    }

  snprintf (uid_text, sizeof uid_text, "PKEXEC_UID=%s", uid != NULL ? uid : "");
  if (uid == NULL)
    snprintf (uid_text, sizeof uid_text, "PKEXEC_UID=%u", (unsigned) getuid ());
  env[n_env++] = uid_text;
  env[n_env++] = (char *) "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
  env[n_env++] = (char *) "HOME=/root";
  env[n_env++] = (char *) "USER=root";
  env[n_env++] = (char *) "LOGNAME=root";
  if (lang != NULL)
    {
      static char lang_text[128];

      snprintf (lang_text, sizeof lang_text, "LANG=%s", lang);
      env[n_env++] = lang_text;
    }
  env[n_env] = NULL;

  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  child = fork ();
  if (child < 0)
    {
      perror ("fork");
      return 127;
    }
  if (child == 0)
    {
      /* The program gets the usual dispositions: only we, the stand-in, are deaf to the window. */
      signal (SIGINT, SIG_DFL);
      signal (SIGTERM, SIG_DFL);
      signal (SIGHUP, SIG_DFL);
      execve (argv[1], argv + 1, env);
      fprintf (stderr, "Error executing %s: %s\n", argv[1], strerror (errno));
      _exit (127);
    }
  while (waitpid (child, &status, 0) < 0)
    ;
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return 128 + WTERMSIG (status);
}

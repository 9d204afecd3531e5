/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-tep-guard.h"
#include "seismo-clock.h"

/* A format that takes longer than this in the trial process is taken for a hang. Parsing one
 * takes well under a millisecond; the margin is for a loaded machine and sanitizer builds. */
#define FORMAT_SECONDS 10
/* After this many crashing formats the file is taken as hostile: the rest are not tried. */
#define MAX_CRASHES    32
/* No real format comes near this; a larger one is refused rather than copied around. */
#define MAX_FORMAT     (1u << 20)

struct _SeismoTepGuard {
  struct tep_handle *tep;
  char              *path;
  pid_t              pid;            /* the trial process, 0 when none is running */
  int                fd;             /* our end of the socket pair to it */
  guint              n_crashes;
  guint              n_tried;        /* sent to the trial process */
  guint              n_known;        /* known safe from an earlier trial in this process */
  gint64             spent_us;       /* in forks and trial parses: the guard's whole cost */
  gint64             cpu_us;         /* of it, CPU time of this thread */
  gint64             child_cpu_us;   /* CPU time of the trial processes */
  GArray            *skipped;        /* SeismoTepSkipped, for the load warning */
  GLogLevelFlags     skip_level;     /* of the message naming each skipped format */
};

/* A request to the trial process, followed by the system name and the format text. */
typedef struct {
  guint32 system_len;
  guint32 text_len;
} Request;

/* libtraceevent's parser works on static variables: one parse at a time in the whole process. */
static GMutex parse_lock;

/*
 * What the trial parser said about each format already tried in this process, under parse_lock:
 * SHA-256 of (system, file layout, text) → NULL when it survived, else why not. The same formats
 * come back with every file of the same machine, and again when a file is reopened, so most
 * formats are tried once per process, and a file whose formats are all known needs no trial
 * process at all. Parsing one format does not depend on the other formats of the handle, and
 * the static flags are reset after every parse, so a verdict holds for any handle of the same
 * layout.
 */
static GHashTable *verdicts;
#define MAX_VERDICTS 16384

static char *
verdict_key (struct tep_handle *tep,
             const char        *text,
             gsize              size,
             const char        *system)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 layout[2] = { (guint8) tep_get_long_size (tep), (guint8) tep_is_file_bigendian (tep) };

  g_checksum_update (sum, (const guint8 *) system, strlen (system) + 1);
  g_checksum_update (sum, layout, sizeof layout);
  g_checksum_update (sum, (const guint8 *) text, size);
  return g_strdup (g_checksum_get_string (sum));
}

/*
 * libtraceevent 1.7 remembers "the next REC->field is the first argument of __print_flags() /
 * __print_symbolic()" in two static flags, cleared only when such a field is read. A format that
 * names one of those without a REC-> argument leaves its flag set, and the next format parsed
 * (of any file) then writes through a NULL field if its first REC-> names no field. Parsing this
 * harmless format, whose two REC->a exist, clears both flags; it goes to a scratch handle so the
 * caller's handle never sees it. Done after every parse, here and in the trial process, so every
 * format is parsed from the same state in both.
 */
static const char reset_format[] =
  "name: seismo_guard_reset\n"
  "ID: 1\n"
  "format:\n"
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
  "\n"
  "\tfield:int a;\toffset:4;\tsize:4;\tsigned:1;\n"
  "\n"
  "print fmt: \"%d %d\", REC->a, REC->a\n";

static void
reset_parser_state (const char *text,
                    gsize       size)
{
  struct tep_handle *scratch;

  /* Only those two names set the flags: a format without them leaves nothing to clear. */
  if (memmem (text, size, "__print_flags", 13) == NULL &&
      memmem (text, size, "__print_symbolic", 16) == NULL)
    return;
  scratch = tep_alloc ();
  if (scratch == NULL)
    return;
  tep_parse_event (scratch, reset_format, sizeof reset_format - 1, "seismo");
  tep_free (scratch);
}

static gboolean
write_all (int          fd,
           const void  *buf,
           gsize        len)
{
  const char *p = buf;

  while (len > 0)
    {
      /* MSG_NOSIGNAL: a trial process that died is an answer, not a reason to die of SIGPIPE. */
      ssize_t n = send (fd, p, len, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* FALSE at end of file or on an error. */
static gboolean
read_all (int    fd,
          void  *buf,
          gsize  len)
{
  char *p = buf;

  while (len > 0)
    {
      ssize_t n = read (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/*
 * The trial process: plain libc and libtraceevent only (it is a fork of a process that may have
 * other threads, whose GLib locks stay held here). Parses each format it is sent into its copy
 * of the handle and answers one byte; dies with the parser if the parser crashes.
 */
static void G_GNUC_NORETURN
child_main (struct tep_handle *tep,
            int                fd)
{
  static const int deadly[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGALRM };
  struct sigaction dfl;
  sigset_t none;
  int null_fd;

  /* Die of the signal, silently: not through a crash handler (a sanitizer's, a fuzzer's) that
   * would report as a crash what the parent expects and handles. */
  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (guint i = 0; i < G_N_ELEMENTS (deadly); i++)
    sigaction (deadly[i], &dfl, NULL);
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  /* libtraceevent warns about every format it dislikes; the parent says what matters. */
  tep_set_loglevel (TEP_LOG_NONE);
  null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd >= 0)
    {
      dup2 (null_fd, STDOUT_FILENO);
      dup2 (null_fd, STDERR_FILENO);
    }
  /* Hold none of the parent's other files (a pipe whose reader waits for its end, say). */
  if (fd > STDERR_FILENO + 1)
    close_range (STDERR_FILENO + 1, fd - 1, 0);
  close_range (fd + 1, ~0u, 0);
  /* Out of the terminal's process group: a Ctrl-C is for the parent. When the parent ends, for
   * whatever reason, this process reads the end of the socket and ends too (no PDEATHSIG: it
   * would fire when the thread that forked ends, not the process). */
  setpgid (0, 0);

  for (;;)
    {
      Request req;
      char *system, *text;
      char ok = 1;

      if (!read_all (fd, &req, sizeof req))
        _exit (0);  /* the guard was freed */
      system = malloc ((gsize) req.system_len + 1);
      text = malloc (MAX (req.text_len, 1));
      if (system == NULL || text == NULL ||
          !read_all (fd, system, req.system_len) || !read_all (fd, text, req.text_len))
        _exit (2);
      system[req.system_len] = '\0';
      alarm (FORMAT_SECONDS);
      tep_parse_event (tep, text, req.text_len, system);
      reset_parser_state (text, req.text_len);
      alarm (0);
      free (system);
      free (text);
      if (!write_all (fd, &ok, 1))
        _exit (2);
    }
}

/* Called with parse_lock held: then the trial process never starts in the middle of another
 * thread's parse, with the parser's static state half set. */
static gboolean
start_child (SeismoTepGuard *self)
{
  int fds[2];
  pid_t pid;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
    {
      int errsv = errno;

      g_warning ("%s: event formats are not parsed: could not start the trial parser: "
                 "socketpair: %s", self->path, g_strerror (errsv));
      return FALSE;
    }
  pid = fork ();
  if (pid == 0)
    {
      close (fds[0]);
      child_main (self->tep, fds[1]);
    }
  close (fds[1]);
  if (pid < 0)
    {
      int errsv = errno;

      close (fds[0]);
      g_warning ("%s: event formats are not parsed: could not start the trial parser: fork: %s",
                 self->path, g_strerror (errsv));
      return FALSE;
    }
  self->pid = pid;
  self->fd = fds[0];
  return TRUE;
}

/* Ends the trial process (it ends by itself once its socket is closed, unless kill_it); its exit
 * status. */
static int
stop_child (SeismoTepGuard *self,
            gboolean        kill_it)
{
  struct rusage usage;
  int status = 0;

  if (self->pid == 0)
    return 0;
  if (kill_it)
    kill (self->pid, SIGKILL);
  close (self->fd);
  while (wait4 (self->pid, &status, 0, &usage) < 0)
    if (errno != EINTR)
      {
        memset (&usage, 0, sizeof usage);
        break;
      }
  self->child_cpu_us += (gint64) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
                        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
  self->pid = 0;
  self->fd = -1;
  return status;
}

static void
skipped_clear (gpointer data)
{
  SeismoTepSkipped *skipped = data;

  g_free (skipped->event);
}

SeismoTepGuard *
seismo_tep_guard_new (struct tep_handle *tep,
                      const char        *path)
{
  SeismoTepGuard *self;

  g_return_val_if_fail (tep != NULL && path != NULL, NULL);

  self = g_new0 (SeismoTepGuard, 1);
  self->tep = tep;
  self->path = g_strdup (path);
  self->fd = -1;
  self->skip_level = G_LOG_LEVEL_WARNING;
  self->skipped = g_array_new (FALSE, FALSE, sizeof (SeismoTepSkipped));
  g_array_set_clear_func (self->skipped, skipped_clear);
  return self;
}

void
seismo_tep_guard_free (SeismoTepGuard *self)
{
  if (self == NULL)
    return;
  /* Stopped first: the trial process's CPU time is known once it has ended. Killed: it may
   * only be waiting for the next format, there is nothing left for it to finish. */
  stop_child (self, TRUE);
  g_debug ("%s: %u event formats tried first (%u crashed), %u known safe; the trial parser "
           "cost %.1f ms (CPU: %.1f ms here, %.1f ms in trial processes)", self->path,
           self->n_tried, self->n_crashes, self->n_known, self->spent_us / 1e3,
           self->cpu_us / 1e3, self->child_cpu_us / 1e3);
  g_array_unref (self->skipped);
  g_free (self->path);
  g_free (self);
}

/* "name: foo\n…" → "foo", escaped: the bytes come from the file and the message must be UTF-8. */
static char *
format_value (const char *text,
              gsize       size,
              const char *key)
{
  gsize key_len = strlen (key);
  const char *p = text;
  const char *end = text + MIN (size, 4096);

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *line_end = nl ? nl : end;

      if ((gsize) (line_end - p) > key_len && memcmp (p, key, key_len) == 0)
        {
          g_autofree char *raw = NULL;

          p += key_len;
          while (p < line_end && *p == ' ')
            p++;
          raw = g_strndup (p, MIN (line_end - p, 64));
          return g_strescape (raw, NULL);
        }
      if (nl == NULL)
        break;
      p = nl + 1;
    }
  return g_strdup ("?");
}

static char *
describe_status (int status)
{
  if (WIFSIGNALED (status) && WTERMSIG (status) == SIGALRM)
    return g_strdup_printf (_("it did not finish in %d s"), FORMAT_SECONDS);
  if (WIFSIGNALED (status))
    return g_strdup_printf ("it crashed: %s", g_strsignal (WTERMSIG (status)));
  return g_strdup_printf (_("it failed, exit status %d"), WEXITSTATUS (status));
}

static void
warn_skipped (SeismoTepGuard *self,
              const char     *text,
              gsize           size,
              const char     *system,
              const char     *why)
{
  g_autofree char *shown_system = g_strescape (system, NULL);
  g_autofree char *name = format_value (text, size, "name:");
  g_autofree char *id = format_value (text, size, "ID:");
  g_autofree char *raw = g_strndup (text, MIN (size, 2048));
  g_autofree char *shown = g_strescape (raw, "\n\t");
  SeismoTepSkipped skipped = { -1, NULL };
  gint64 number;

  if (g_ascii_string_to_signed (id, 10, 0, G_MAXINT, &number, NULL))
    skipped.id = (int) number;
  skipped.event = g_strdup_printf ("%s:%s", shown_system, name);
  g_array_append_val (self->skipped, skipped);

  g_log (G_LOG_DOMAIN, self->skip_level, "%s: skipped the format of event %s:%s (id %s): %s; its "
         "records are counted as skipped", self->path, shown_system, name, id, why);
  g_debug ("%s: the format skipped:\n%s", self->path, shown);
}

/* Asks the trial process to parse the format; FALSE, with the reason, when it did not survive. */
static gboolean
trial_parse (SeismoTepGuard  *self,
             const char      *text,
             gsize            size,
             const char      *system,
             char           **why)
{
  Request req = { (guint32) strlen (system), (guint32) size };
  g_autofree char *how = NULL;
  char ok = 0;
  int status;

  if (self->pid == 0 && !start_child (self))
    {
      *why = g_strdup (_("the trial parser could not be started"));
      return FALSE;
    }
  if (write_all (self->fd, &req, sizeof req) && write_all (self->fd, system, req.system_len) &&
      write_all (self->fd, text, size) && read_all (self->fd, &ok, 1) && ok == 1)
    return TRUE;

  status = stop_child (self, FALSE);
  self->n_crashes++;
  how = describe_status (status);
  *why = g_strdup_printf (_("libtraceevent could not parse it (%s)"), how);
  return FALSE;
}

gboolean
seismo_tep_guard_parse (SeismoTepGuard *self,
                        const char     *text,
                        gsize           size,
                        const char     *system,
                        enum tep_errno *result)
{
  g_autofree char *why = NULL;
  g_autofree char *key = NULL;
  const char *known_why = NULL;
  gboolean known, ok = FALSE;
  enum tep_errno ret;
  gint64 start, start_cpu;

  g_return_val_if_fail (self != NULL && text != NULL && system != NULL, FALSE);

  g_mutex_lock (&parse_lock);
  start = g_get_monotonic_time ();
  start_cpu = seismo_thread_cpu_us ();
  if (verdicts == NULL || g_hash_table_size (verdicts) >= MAX_VERDICTS)
    {
      g_clear_pointer (&verdicts, g_hash_table_unref);
      verdicts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    }
  key = verdict_key (self->tep, text, size, system);
  known = g_hash_table_lookup_extended (verdicts, key, NULL, (gpointer *) &known_why);
  if (known && known_why != NULL)
    why = g_strdup (known_why);
  else if (known)
    self->n_known++;
  else if (size > MAX_FORMAT)
    why = g_strdup_printf (_("%zu bytes is too long for an event format"), size);
  else if (self->n_crashes >= MAX_CRASHES)
    why = g_strdup_printf (_("%u formats of this file crashed libtraceevent already, no more are "
                             "tried"), self->n_crashes);
  else
    {
      guint n_crashes = self->n_crashes;

      self->n_tried++;
      if (trial_parse (self, text, size, system, &why))
        g_hash_table_insert (verdicts, g_steal_pointer (&key), NULL);
      else if (self->n_crashes > n_crashes)
        g_hash_table_insert (verdicts, g_steal_pointer (&key), g_strdup (why));
    }
  if (why == NULL)
    {
      gint64 start_parse = g_get_monotonic_time ();
      gint64 cpu_start_parse = seismo_thread_cpu_us ();
      gint64 parsed, cpu_parsed;

      ret = tep_parse_event (self->tep, text, size, system);
      parsed = g_get_monotonic_time ();
      cpu_parsed = seismo_thread_cpu_us ();
      reset_parser_state (text, size);
      if (result)
        *result = ret;
      ok = TRUE;
      /* What the parse itself took is not the guard's cost: without it, it happens all the same. */
      start += parsed - start_parse;
      start_cpu += cpu_parsed - cpu_start_parse;
    }
  self->spent_us += g_get_monotonic_time () - start;
  self->cpu_us += seismo_thread_cpu_us () - start_cpu;
  g_mutex_unlock (&parse_lock);
  if (!ok)
    warn_skipped (self, text, size, system, why);
  return ok;
}

enum tep_errno
seismo_tep_parse_local (struct tep_handle *tep,
                        const char        *text,
                        gsize              size,
                        const char        *system)
{
  enum tep_errno ret;

  g_mutex_lock (&parse_lock);
  ret = tep_parse_event (tep, text, size, system);
  reset_parser_state (text, size);
  g_mutex_unlock (&parse_lock);
  return ret;
}

const GArray *
seismo_tep_guard_get_skipped (SeismoTepGuard *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->skipped;
}

void
seismo_tep_guard_set_skip_level (SeismoTepGuard *self,
                                 GLogLevelFlags  level)
{
  g_return_if_fail (self != NULL);
  self->skip_level = level;
}

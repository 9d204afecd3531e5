/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-clock.h"
#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-progress.h"
#include "seismo-recorder.h"
#include "seismo-tep-guard.h"
#include "seismo-ftrace-private.h"
#include "seismo-ftrace-stacks.h"
#include "seismo-syscalls.h"
#include "seismo-rb-page.h"
#include "seismo-tep-convert.h"

/*
 * Recording: a private tracefs instance (seismo-<pid>) with the chosen tracepoints, optionally
 * filtered on pids, read page by page from every CPU's trace_pipe_raw by a reader thread that
 * only copies pages, so that nothing keeps it from the kernel's buffers for long. A converter
 * thread turns the pages' records into builder events (and so into the file being written, from
 * its progress calls). SeismoRecorder watches the stop flag, the duration and the launched
 * command.
 */

/* Per-CPU ring buffer, KiB. Holds ~2 s of a syscall-bound task with raw_syscalls + sched. */
#define DEFAULT_BUFFER_KB 8192
/*
 * The reader wakes when a buffer is this full, or after READER_POLL_MS: early enough that the
 * writer never catches up with it, late enough to read whole pages.
 */
#define BUFFER_PERCENT    "20"
/* Raw pages kept unconverted while a burst lasts. */
#define MAX_BACKLOG_BYTES (256u << 20)
/*
 * Records the converter hands over before it looks at the reader's state again: a few
 * milliseconds of work, so that it notices the end of the recording and makes its progress
 * calls (which write the file) on time.
 */
#define EMIT_SLICE        16384
#define READER_POLL_MS    50
/*
 * The longest a read record waits for conversion while a burst lasts. Only converted records
 * reach the builder, and so the file the recording streams to: this bounds what a killed
 * recorder loses, with the reader's READER_POLL_MS and the last incomplete chunk of the file,
 * which must stay under 0.3 s (the crash promise, seismo-progress.h). Waiting longer saves no
 * work: the same records are converted later.
 */
#define MAX_BACKLOG_US    (50 * G_TIME_SPAN_MILLISECOND)
/* The control loop's period: well under the 100 ms the stop flag allows. */
#define CONTROL_US        20000
/*
 * Events younger than this are held back one round so that a record still being committed on
 * another CPU cannot arrive after later ones were handed to the builder.
 */
#define HOLD_BACK_NS      (2 * G_GUINT64_CONSTANT (1000000))

typedef struct {
  guint               cpu;
  int                 fd;         /* trace_pipe_raw, non-blocking, polled */
  struct tracefs_cpu *tcpu;
  GQueue              pages;      /* guint8[page_size], read but not walked; under lock */
  guint8             *cur;        /* page being walked (converter) */
  SeismoRbPage        walk;
  gboolean            has_ev;
  const guint8       *ev;
  guint               ev_size;
  guint64             ev_ts;
  guint64             lost;       /* counted from page headers */
} LiveCpu;

typedef struct {
  const SeismoRecordOptions *options;
  SeismoTraceBuilder        *builder;
  SeismoRecordControl       *ctl;
  struct tracefs_instance   *instance;
  SeismoFtraceGuard         *guard;          /* removes the instance if we are killed */
  struct tep_handle         *tep;
  SeismoTepConverter        *conv;
  SeismoRbLayout             layout;
  LiveCpu                   *cpus;
  guint                      n_cpus;
  gsize                      page_size;
  gboolean                   mono_clock;

  GThread                   *reader;
  GThread                   *converter;
  int                        wake[2];        /* a byte on wake[1] interrupts the reader's poll */
  gint                       stop_reading;   /* atomic */
  gint                       reader_failed;  /* atomic */
  GError                    *reader_error;

  /* Between the reader and the converter. */
  GMutex                     lock;
  GCond                      cond;
  GPtrArray                 *free_pages;
  guint64                    backlog;        /* pages read and not walked yet */
  guint64                    read_upto;      /* mono ns: records older were read on every CPU */
  gboolean                   calm;           /* the reader's last round found no page */
  gboolean                   reading_done;   /* the reader's last round is queued */
  guint64                    bad_pages;

  GPid                       child;          /* the launched command (held until start() ends) */
  GHashTable                *task_ids;       /* tid → ProcTask, from /proc */
  SeismoFtraceStacks         stacks;         /* --stacks */
} Recorder;

static gboolean
instance_write (Recorder    *r,
                const char  *file,
                const char  *value,
                GError     **error)
{
  if (tracefs_instance_file_write (r->instance, file, value) < 0)
    return seismo_set_errno_error (error, errno, _("could not write \"%s\" to %s/%s"), value,
                                   tracefs_instance_get_name (r->instance), file);
  return TRUE;
}

/* ---- /proc: thread groups and parents --------------------------------------------------------- */

static gint32
read_ppid (const char *pid_dir)
{
  g_autofree char *path = g_build_filename (pid_dir, "stat", NULL);
  g_autofree char *text = NULL;
  const char *close;
  int state_ppid = -1;
  char state;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return -1;
  /* "pid (comm) S ppid …": the comm may hold spaces and parentheses, so parse after the last ')'. */
  close = strrchr (text, ')');
  if (close == NULL || sscanf (close + 1, " %c %d", &state, &state_ppid) != 2)
    return -1;
  return state_ppid;
}

typedef struct {
  gint32  tgid;
  gint32  ppid;
  char   *comm;
} ProcTask;

static void
proc_task_free (gpointer data)
{
  ProcTask *t = data;

  g_free (t->comm);
  g_free (t);
}

static GHashTable *
proc_tasks_new (void)
{
  return g_hash_table_new_full (NULL, NULL, NULL, proc_task_free);
}

/*
 * Adds every thread on the system not in ids yet: tid → thread group, parent, comm. Taken before
 * and after recording, so tasks the trace never names still get their process and name.
 */
static void
scan_proc (GHashTable *ids)
{
  DIR *proc = opendir ("/proc");
  struct dirent *de;

  if (proc == NULL)
    return;
  while ((de = readdir (proc)))
    {
      gint64 pid = g_ascii_strtoll (de->d_name, NULL, 10);
      g_autofree char *dir = NULL;
      g_autofree char *task_dir = NULL;
      gint32 ppid;
      DIR *tasks;
      struct dirent *te;

      if (pid <= 0)
        continue;
      dir = g_strdup_printf ("/proc/%s", de->d_name);
      ppid = read_ppid (dir);
      task_dir = g_strdup_printf ("%s/task", dir);
      if (!(tasks = opendir (task_dir)))
        continue;
      while ((te = readdir (tasks)))
        {
          gint64 tid = g_ascii_strtoll (te->d_name, NULL, 10);
          g_autofree char *comm_path = NULL;
          ProcTask *t;

          if (tid <= 0 || g_hash_table_contains (ids, GINT_TO_POINTER ((gint) tid)))
            continue;
          t = g_new0 (ProcTask, 1);
          t->tgid = (gint32) pid;
          t->ppid = ppid;
          comm_path = g_strdup_printf ("%s/%s/comm", task_dir, te->d_name);
          if (g_file_get_contents (comm_path, &t->comm, NULL, NULL))
            g_strchomp (t->comm);
          g_hash_table_insert (ids, GINT_TO_POINTER ((gint) tid), t);
        }
      closedir (tasks);
    }
  closedir (proc);
}

/* Tids of pid's threads and, with children, of every process descending from it. */
static GArray *
target_tids (GPid      pid,
             gboolean  children)
{
  g_autoptr(GHashTable) ids = proc_tasks_new ();
  g_autoptr(GHashTable) tree = g_hash_table_new (NULL, NULL);
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (gint32));
  GHashTableIter iter;
  gpointer key, value;
  gboolean grew = TRUE;

  scan_proc (ids);
  g_hash_table_add (tree, GINT_TO_POINTER (pid));
  /* Grow the set of processes whose parent is in it until it stops growing. */
  while (children && grew)
    {
      grew = FALSE;
      g_hash_table_iter_init (&iter, ids);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const ProcTask *t = value;

          if (g_hash_table_contains (tree, GINT_TO_POINTER (t->ppid)) &&
              g_hash_table_add (tree, GINT_TO_POINTER (t->tgid)))
            grew = TRUE;
        }
    }
  g_hash_table_iter_init (&iter, ids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const ProcTask *t = value;
      gint32 tid = GPOINTER_TO_INT (key);

      if (g_hash_table_contains (tree, GINT_TO_POINTER (t->tgid)))
        g_array_append_val (tids, tid);
    }
  return tids;
}

/* ---- reading ---------------------------------------------------------------------------------- */

static guint8 *
page_get (Recorder *r)
{
  guint8 *page = NULL;

  g_mutex_lock (&r->lock);
  if (r->free_pages->len)
    page = g_ptr_array_steal_index_fast (r->free_pages, r->free_pages->len - 1);
  g_mutex_unlock (&r->lock);
  return page ? page : g_malloc (r->page_size);
}

static void
page_put (Recorder *r,
          guint8   *page)
{
  g_mutex_lock (&r->lock);
  g_ptr_array_add (r->free_pages, page);
  g_mutex_unlock (&r->lock);
}

static gboolean
page_is_partial (Recorder     *r,
                 const guint8 *page)
{
  gsize commit = seismo_rb_read_long (&r->layout, page + 8) & SEISMO_RB_COMMIT_MASK;

  /* The kernel leaves room for at least one small record at the end of a full page. */
  return commit + 64 < r->page_size - r->layout.data_offset;
}

/*
 * Reads the CPU's full pages (with all, also the one the writer is filling). FALSE on a read
 * error other than "no data".
 */
static gboolean
read_cpu (Recorder  *r,
          LiveCpu   *c,
          gboolean   all,
          guint     *n_pages,
          GError   **error)
{
  for (;;)
    {
      guint8 *page = page_get (r);
      int n = tracefs_cpu_read (c->tcpu, page, true);

      if (n <= 0)
        {
          int errsv = errno;

          page_put (r, page);
          if (n == 0 || errsv == EAGAIN || errsv == EINTR)
            return TRUE;
          return seismo_set_errno_error (error, errsv,
                                         _("could not read CPU %u of tracefs instance %s"), c->cpu,
                                         tracefs_instance_get_name (r->instance));
        }
      if ((gsize) n < r->page_size)
        memset (page + n, 0, r->page_size - n);
      g_mutex_lock (&r->lock);
      g_queue_push_tail (&c->pages, page);
      r->backlog++;
      g_mutex_unlock (&r->lock);
      (*n_pages)++;
      /*
       * A page the writer had not filled yet: the buffer is drained. Reading on would take
       * events one by one off the page the writer is using, which slows the traced process.
       */
      if (!all && page_is_partial (r, page))
        return TRUE;
    }
}

/* Makes c->ev the CPU's next record, walking queued pages. FALSE when none is queued. */
static gboolean
cpu_next (Recorder *r,
          LiveCpu  *c)
{
  while (!c->has_ev)
    {
      if (c->cur)
        {
          const char *why = NULL;
          int n = seismo_rb_page_next (&c->walk, &c->ev, &c->ev_size, &c->ev_ts, &why);

          if (n > 0)
            {
              c->has_ev = TRUE;
              break;
            }
          if (n < 0)
            {
              /* The kernel hands out whole pages: a bad one is a bug worth a note, not a stop. */
              g_debug ("CPU %u: dropped a damaged page: %s", c->cpu, why);
              r->bad_pages++;
            }
          page_put (r, c->cur);
          c->cur = NULL;
        }
      {
        guint8 *page;
        guint64 missed = 0;
        const char *why;

        g_mutex_lock (&r->lock);
        page = g_queue_pop_head (&c->pages);
        if (page)
          r->backlog--;
        g_mutex_unlock (&r->lock);
        if (page == NULL)
          return FALSE;
        why = seismo_rb_page_load (&c->walk, &r->layout, page, r->page_size, &missed);

        if (why)
          {
            g_debug ("CPU %u: dropped a damaged page: %s", c->cpu, why);
            r->bad_pages++;
            page_put (r, page);
            continue;
          }
        c->cur = page;
        if (missed)
          {
            if (missed == G_MAXUINT64)
              missed = 1;
            c->lost += missed;
            seismo_trace_builder_add_lost_events (r->builder, c->cpu, c->walk.ts, missed);
            __atomic_add_fetch (&r->ctl->lost, missed, __ATOMIC_RELAXED);
          }
      }
    }
  return TRUE;
}

/*
 * Hands the builder queued records up to watermark, merged across CPUs by time, at most max of
 * them. TRUE when it stopped at max with records left below the watermark.
 */
static gboolean
emit (Recorder *r,
      guint64   watermark,
      guint64   max)
{
  guint64 n = 0;
  gboolean more = FALSE;

  for (;;)
    {
      LiveCpu *best = NULL;

      for (guint i = 0; i < r->n_cpus; i++)
        {
          LiveCpu *c = &r->cpus[i];

          if (c->tcpu && cpu_next (r, c) && (best == NULL || c->ev_ts < best->ev_ts))
            best = c;
        }
      if (best == NULL || best->ev_ts > watermark)
        break;
      if (n == max)
        {
          more = TRUE;
          break;
        }
      seismo_tep_converter_push (r->conv, best->ev_ts, best->cpu, best->ev, best->ev_size);
      best->has_ev = FALSE;
      n++;
    }
  if (n)
    __atomic_add_fetch (&r->ctl->events, n, __ATOMIC_RELAXED);
  return more;
}

/* Tells the converter that the reader has queued a round (and lets a waiting reader re-check). */
static void
reader_round_done (Recorder *r,
                   guint64   read_upto,
                   gboolean  calm,
                   gboolean  last)
{
  g_mutex_lock (&r->lock);
  r->read_upto = read_upto;
  r->calm = calm;
  r->reading_done |= last;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
}

static gpointer
reader_main (gpointer data)
{
  Recorder *r = data;
  g_autofree struct pollfd *fds = g_new0 (struct pollfd, r->n_cpus + 1);

  for (guint i = 0; i < r->n_cpus; i++)
    {
      fds[i].fd = r->cpus[i].tcpu ? r->cpus[i].fd : -1;
      fds[i].events = POLLIN;
    }
  fds[r->n_cpus].fd = r->wake[0];
  fds[r->n_cpus].events = POLLIN;

  for (;;)
    {
      gboolean last = g_atomic_int_get (&r->stop_reading);
      guint64 now;
      guint n_pages = 0;

      /*
       * Sleep until a buffer is buffer_percent full (the kernel wakes us), the stop request, or
       * the timeout that keeps quiet CPUs' records flowing to the converter.
       */
      if (!last)
        poll (fds, r->n_cpus + 1, READER_POLL_MS);
      last = g_atomic_int_get (&r->stop_reading);

      now = seismo_mono_now_ns ();
      for (guint i = 0; i < r->n_cpus; i++)
        if (r->cpus[i].tcpu && !read_cpu (r, &r->cpus[i], last, &n_pages, &r->reader_error))
          {
            g_atomic_int_set (&r->reader_failed, 1);
            reader_round_done (r, now, TRUE, TRUE);
            return NULL;
          }
      reader_round_done (r, now, n_pages == 0, last);
      if (last)
        return NULL;

      /* A burst too big to keep in memory: wait until the converter brings it back under. */
      g_mutex_lock (&r->lock);
      while (r->backlog * r->page_size >= MAX_BACKLOG_BYTES && !g_atomic_int_get (&r->stop_reading))
        g_cond_wait (&r->cond, &r->lock);
      g_mutex_unlock (&r->lock);
    }
}

static gpointer
converter_main (gpointer data)
{
  Recorder *r = data;
  gboolean pending = FALSE;   /* records left below the watermark after the last slice */
  gboolean draining = FALSE;  /* catching up with a backlog that grew too old */
  gint64 backlog_since = g_get_monotonic_time ();   /* when the backlog last was caught up */
  SeismoProgressPacer pacer;

  seismo_progress_pacer_init (&pacer, seismo_mono_now_ns ());

  for (;;)
    {
      gboolean done, calm, big;
      guint64 read_upto, backlog, watermark;
      gint64 t;

      g_mutex_lock (&r->lock);
      if (!pending && !r->reading_done)
        g_cond_wait_until (&r->cond, &r->lock,
                           g_get_monotonic_time () + READER_POLL_MS * G_TIME_SPAN_MILLISECOND);
      done = r->reading_done;
      calm = r->calm;
      read_upto = r->read_upto;
      backlog = r->backlog;
      g_mutex_unlock (&r->lock);

      if (done)
        {
          /* The reader's last round is queued: everything goes to the builder. */
          emit (r, G_MAXUINT64, G_MAXUINT64);
          return NULL;
        }

      /*
       * Converting costs CPU the traced work may want: while pages keep coming, only keep
       * them, and convert when things calm down, when the backlog grows large or when its
       * oldest page waited MAX_BACKLOG_US, a slice at a time so that the state is looked at
       * again soon. With the mono clock, every record older than the reader's last round has
       * been read on every CPU: those can go to the builder in order.
       */
      t = g_get_monotonic_time ();
      watermark = !r->mono_clock ? G_MAXUINT64
                                 : (read_upto > HOLD_BACK_NS ? read_upto - HOLD_BACK_NS : 0);
      big = backlog * r->page_size >= MAX_BACKLOG_BYTES;
      if (!draining && backlog > 0 && t - backlog_since >= MAX_BACKLOG_US)
        draining = TRUE;
      if (calm || draining || big)
        {
          pending = emit (r, watermark, EMIT_SLICE);
          if (big)
            {
              g_mutex_lock (&r->lock);
              g_cond_broadcast (&r->cond);
              g_mutex_unlock (&r->lock);
            }
          /* What is left is younger than the watermark: the backlog's age restarts. */
          if (!pending)
            {
              draining = FALSE;
              backlog_since = t;
            }
        }
      else
        {
          pending = FALSE;
          if (backlog == 0)
            backlog_since = t;
        }

      /* As soon as a chunk is complete, so that a killed recorder loses at most that much. */
      if (seismo_progress_pacer_due (&pacer, r->builder, seismo_mono_now_ns ()))
        seismo_progress_pacer_report (&pacer, r->ctl, r->builder, seismo_mono_now_ns ());
    }
}

/* ---- setup ------------------------------------------------------------------------------------ */

static gboolean
setup_events (Recorder  *r,
              GPtrArray *tracepoints,
              GError   **error)
{
  g_autofree char *header = NULL;
  int header_len = 0;

  /*
   * Formats of the enabled events only, parsed here: tracefs_local_events*() also parse
   * /proc/kallsyms, which costs a few hundred milliseconds and is of no use to us.
   */
  r->tep = tep_alloc ();
  tep_set_file_bigendian (r->tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN
                                                              : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (r->tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN
                                                               : TEP_LITTLE_ENDIAN);
  tep_set_long_size (r->tep, sizeof (long));
  tep_set_page_size (r->tep, getpagesize ());

  for (guint i = 0; i < tracepoints->len; i++)
    {
      SeismoTracepoint *tp = g_ptr_array_index (tracepoints, i);
      g_autofree char *file = g_strdup_printf ("events/%s/%s/enable", tp->system, tp->event);
      g_autofree char *format = NULL;
      int size = 0;

      format = tracefs_event_file_read (NULL, tp->system, tp->event, "format", &size);
      if (format == NULL || size <= 0)
        return seismo_set_errno_error (error, errno, _("could not read the format of %s:%s"),
                                       tp->system, tp->event);
      if (seismo_tep_parse_local (r->tep, format, size, tp->system) != 0)
        g_debug ("the format of %s:%s parsed with errors", tp->system, tp->event);
      if (tracefs_instance_file_write (r->instance, file, "1") < 0)
        return seismo_set_errno_error (error, errno, _("could not enable %s:%s"), tp->system,
                                       tp->event);
    }

  header = tracefs_instance_file_read (NULL, "events/header_page", &header_len);
  if (header == NULL || header_len <= 0 ||
      !seismo_rb_layout_parse (&r->layout, header, header_len, G_BYTE_ORDER == G_BIG_ENDIAN))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                   _("could not read the ring-buffer page layout from events/header_page"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
setup_filter (Recorder  *r,
              GError   **error)
{
  const SeismoRecordOptions *o = r->options;
  g_autoptr(GString) pids = g_string_new (NULL);
  gboolean follow;

  if (r->child > 0)
    {
      g_string_printf (pids, "%d", (int) r->child);
      /* A launched command is followed into the processes and threads it starts. */
      follow = TRUE;
    }
  else if (o->pid > 0)
    {
      g_autoptr(GArray) tids = target_tids (o->pid, o->children);

      if (tids->len == 0 && kill (o->pid, 0) == 0)
        {
          /* Mid-exec or otherwise unreadable in /proc: the pid alone is still a tid. */
          gint32 tid = o->pid;

          g_array_append_val (tids, tid);
        }
      if (tids->len == 0)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                       _("no process with pid %d"), (int) o->pid);
          return FALSE;
        }
      for (guint i = 0; i < tids->len; i++)
        g_string_append_printf (pids, "%s%d", i ? " " : "", g_array_index (tids, gint32, i));
      follow = o->children;
    }
  else
    return TRUE;

  if (!instance_write (r, "set_event_pid", pids->str, error))
    return FALSE;
  if (follow && tracefs_option_enable (r->instance, TRACEFS_OPTION_EVENT_FORK) < 0)
    return seismo_set_errno_error (error, errno, _("could not enable options/event-fork in %s"),
                                   tracefs_instance_get_name (r->instance));
  return TRUE;
}

static gboolean
open_cpus (Recorder  *r,
           GError   **error)
{
  long n = sysconf (_SC_NPROCESSORS_CONF);
  g_autofree char *subbuf = tracefs_instance_file_read (r->instance, "buffer_subbuf_size_kb",
                                                        NULL);

  /* Sub-buffers can be larger than a page on recent kernels. */
  r->page_size = subbuf ? g_ascii_strtoull (subbuf, NULL, 10) * 1024 : 0;
  if (r->page_size == 0)
    r->page_size = getpagesize ();
  if (r->page_size < r->layout.data_offset + 64)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                   _("ring-buffer pages of %zu bytes"), r->page_size);
      return FALSE;
    }
  if (pipe2 (r->wake, O_CLOEXEC | O_NONBLOCK) < 0)
    {
      r->wake[0] = r->wake[1] = -1;
      return seismo_set_errno_error (error, errno, _("could not create a pipe"));
    }

  r->n_cpus = n > 0 ? (guint) n : 1;
  r->cpus = g_new0 (LiveCpu, r->n_cpus);
  for (guint i = 0; i < r->n_cpus; i++)
    {
      LiveCpu *c = &r->cpus[i];
      g_autofree char *file = g_strdup_printf ("per_cpu/cpu%u/trace_pipe_raw", i);

      c->cpu = i;
      g_queue_init (&c->pages);
      /* Offline CPUs have no buffer: skip them. */
      c->fd = tracefs_instance_file_open (r->instance, file, O_RDONLY | O_NONBLOCK);
      if (c->fd < 0)
        continue;
      c->tcpu = tracefs_cpu_alloc_fd (c->fd, r->page_size, true);
      if (c->tcpu == NULL)
        {
          close (c->fd);
          c->fd = -1;
        }
    }
  for (guint i = 0; i < r->n_cpus; i++)
    if (r->cpus[i].tcpu)
      {
        r->free_pages = g_ptr_array_new_with_free_func (g_free);
        return instance_write (r, "buffer_percent", BUFFER_PERCENT, error);
      }
  return seismo_set_errno_error (error, errno ? errno : ENODEV,
                                 _("could not open the per-CPU buffers of tracefs instance %s"),
                                 tracefs_instance_get_name (r->instance));
}

/*
 * Fields the kernel prints as functions (%ps: timer and work callbacks…) are named from
 * /proc/kallsyms, read before tracing starts and only when an enabled event has one: reading and
 * parsing it takes a few hundred milliseconds.
 */
static void
load_kallsyms (Recorder *r)
{
  g_autofree struct tep_event **events = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  /* Kernel stacks are named from it too, and it is saved with them. */
  gboolean wanted = (r->options->stacks & SEISMO_STACK_KERNEL) != 0;

  events = tep_list_events_copy (r->tep, TEP_EVENT_SORT_ID);
  for (guint i = 0; events && events[i] && !wanted; i++)
    wanted = seismo_tep_event_has_function_fields (events[i]);
  if (!wanted)
    return;
  if (!g_file_get_contents ("/proc/kallsyms", &text, NULL, &error))
    {
      g_debug ("kernel functions stay addresses: %s", error->message);
      return;
    }
  seismo_tep_converter_set_kallsyms (r->conv, text);
  if (r->options->stacks & SEISMO_STACK_KERNEL)
    seismo_trace_builder_set_kallsyms (r->builder, text, strlen (text));
}

/* Kernel counts of lost records per CPU, for what the page headers did not report. */
static void
account_kernel_losses (Recorder *r)
{
  guint64 end_ts = r->mono_clock ? seismo_mono_now_ns () : 0;

  for (guint i = 0; i < r->n_cpus; i++)
    {
      g_autofree char *file = g_strdup_printf ("per_cpu/cpu%u/stats", i);
      g_autofree char *text = NULL;
      guint64 kernel = 0;
      const char *p;

      if (!r->cpus[i].tcpu || !(text = tracefs_instance_file_read (r->instance, file, NULL)))
        continue;
      if ((p = strstr (text, "overrun:")))
        kernel += g_ascii_strtoull (p + 8, NULL, 10);
      if ((p = strstr (text, "dropped events:")))
        kernel += g_ascii_strtoull (p + 15, NULL, 10);
      if (kernel > r->cpus[i].lost)
        {
          guint64 extra = kernel - r->cpus[i].lost;

          seismo_trace_builder_add_lost_events (r->builder, i, end_ts, extra);
          __atomic_add_fetch (&r->ctl->lost, extra, __ATOMIC_RELAXED);
        }
    }
}

/* Beside SeismoRecorder's: the clock, and the wall-clock time of its zero. */
static void
set_metadata (Recorder *r)
{
  seismo_trace_builder_set_metadata (r->builder, SEISMO_META_CLOCK,
                                     r->mono_clock ? "mono" : "local");
  if (r->mono_clock)
    {
      g_autofree char *wall = g_strdup_printf ("%" G_GINT64_FORMAT,
                                               g_get_real_time () * 1000 -
                                               (gint64) seismo_mono_now_ns ());

      /* Add to an event's time to get wall-clock ns. */
      seismo_trace_builder_set_metadata (r->builder, SEISMO_META_START_WALL, wall);
    }
}

/*
 * Asks the reader for its last round (everything left in the buffers) and waits for it, and for
 * the converter to hand all of it to the builder.
 */
static void
stop_reader (Recorder *r)
{
  g_atomic_int_set (&r->stop_reading, 1);
  if (write (r->wake[1], "x", 1) < 0 && errno != EAGAIN)
    g_debug ("could not wake the reader: %s", g_strerror (errno));
  /* A reader waiting for the converter to shrink the backlog looks at the stop flag again. */
  g_mutex_lock (&r->lock);
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  g_thread_join (g_steal_pointer (&r->reader));
  if (r->converter)
    g_thread_join (g_steal_pointer (&r->converter));
}

static void
recorder_clear (Recorder *r)
{
  seismo_ftrace_stacks_clear (&r->stacks);
  if (r->reader)
    stop_reader (r);
  for (guint i = 0; r->cpus && i < r->n_cpus; i++)
    {
      LiveCpu *c = &r->cpus[i];

      if (c->tcpu)
        tracefs_cpu_free_fd (c->tcpu);
      if (c->fd >= 0)
        close (c->fd);
      g_free (c->cur);
      g_queue_clear_full (&c->pages, g_free);
    }
  g_clear_pointer (&r->cpus, g_free);
  if (r->instance)
    seismo_ftrace_instance_destroy (g_steal_pointer (&r->instance));
  g_clear_pointer (&r->guard, seismo_ftrace_guard_release);
  g_clear_pointer (&r->conv, seismo_tep_converter_free);
  g_clear_pointer (&r->tep, tep_free);
  g_clear_pointer (&r->free_pages, g_ptr_array_unref);
  g_clear_pointer (&r->task_ids, g_hash_table_unref);
  g_clear_error (&r->reader_error);
  if (r->wake[0] >= 0)
    close (r->wake[0]);
  if (r->wake[1] >= 0)
    close (r->wake[1]);
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->cond);
}

/* ---- the backend ------------------------------------------------------------------------------ */

/* Whether we hold CAP_SYS_ADMIN, which mounting takes (root may have been denied it). */
static gboolean
may_mount (void)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      !(p = strstr (status, "\nCapEff:")))
    return TRUE;   /* cannot tell: let the mount itself say */
  return (g_ascii_strtoull (p + 8, NULL, 16) >> 21) & 1;
}

static gboolean
ftrace_available (char **why)
{
  const char *path = NULL;
  int mounted = tracefs_tracing_dir_is_mounted (false, &path);

  if (mounted <= 0)
    {
      if (geteuid () != 0)
        {
          *why = g_strdup (_("tracefs is not mounted and only root can mount it "
                             "(run seismo-cli record as root)"));
          return FALSE;
        }
      if (!may_mount ())
        {
          *why = g_strdup (_("tracefs is not mounted and this process may not mount it "
                             "(it lacks CAP_SYS_ADMIN)"));
          return FALSE;
        }
      if (!g_file_test ("/sys/kernel/tracing", G_FILE_TEST_IS_DIR))
        {
          *why = g_strdup (_("this kernel has no tracefs (/sys/kernel/tracing is missing)"));
          return FALSE;
        }
      return TRUE;
    }
  {
    g_autofree char *instances = g_build_filename (path, "instances", NULL);
    struct stat st;

    /* tracefs is root's alone (mode 0700): only ENOENT means the kernel lacks instances. */
    if (stat (instances, &st) < 0)
      {
        int errsv = errno;

        if (errsv == EACCES || errsv == EPERM)
          *why = g_strdup_printf (_("no permission to use %s (%s): run as root"),
                                  path, g_strerror (errsv));
        else if (errsv == ENOENT)
          *why = g_strdup_printf (_("%s has no instances folder (kernel too old for private "
                                    "tracing buffers)"), path);
        else
          *why = g_strdup_printf (_("cannot use %s: %s"), instances, g_strerror (errsv));
        return FALSE;
      }
    if (!S_ISDIR (st.st_mode))
      {
        *why = g_strdup_printf ("%s is not a folder", instances);
        return FALSE;
      }
    if (access (instances, W_OK) != 0)
      {
        *why = g_strdup_printf (_("no permission to create tracing instances in %s (%s): "
                                  "run as root"), instances, g_strerror (errno));
        return FALSE;
      }
  }
  return TRUE;
}

static GPtrArray *
ftrace_list_events (GError **error)
{
  return seismo_ftrace_list_events (error);
}

static gboolean
ftrace_prepare (SeismoRecorder *recorder,
                gpointer        state,
                GError        **error)
{
  Recorder *r = state;
  const SeismoRecordOptions *options = seismo_recorder_get_options (recorder);
  g_autoptr(GPtrArray) tracepoints = NULL;
  g_autofree char *buffer_kb = NULL;

  r->options = options;
  r->builder = seismo_recorder_get_builder (recorder);
  r->ctl = seismo_recorder_get_control (recorder);
  r->wake[0] = r->wake[1] = -1;
  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  r->task_ids = proc_tasks_new ();

  if (!seismo_ftrace_tracing_dir (error))
    return FALSE;
  if (!(tracepoints = seismo_ftrace_resolve_events ((const char *const *) options->events, error)))
    return FALSE;
  if (!(r->instance = seismo_ftrace_instance_create (error)))
    return FALSE;
  /* Before any descriptor of the instance is open: the guard must not hold one. */
  if (!(r->guard = seismo_ftrace_guard_new (r->instance, error)))
    return FALSE;

  buffer_kb = g_strdup_printf ("%u", options->buffer_kb ? options->buffer_kb : DEFAULT_BUFFER_KB);
  if (tracefs_trace_off (r->instance) < 0)
    return seismo_set_errno_error (error, errno, _("could not stop tracefs instance %s"),
                                   tracefs_instance_get_name (r->instance));
  if (!instance_write (r, "buffer_size_kb", buffer_kb, error))
    return FALSE;
  /* CLOCK_MONOTONIC timestamps line up with the other backends and with user space. */
  r->mono_clock = tracefs_instance_file_write (r->instance, "trace_clock", "mono") >= 0;
  if (!setup_events (r, tracepoints, error))
    return FALSE;
  if (options->stacks != SEISMO_STACK_NONE &&
      !seismo_ftrace_stacks_setup (&r->stacks, r->instance, r->tep, options->stacks, r->builder,
                                   error))
    return FALSE;
  /* Before the command starts: its pre-exec copy of us must not lend it our name. */
  scan_proc (r->task_ids);
  return TRUE;
}

static gboolean
ftrace_start (SeismoRecorder *recorder,
              gpointer        state,
              GError        **error)
{
  Recorder *r = state;
  const SeismoRecordOptions *options = r->options;

  if (seismo_recorder_has_command (recorder))
    {
      r->child = seismo_recorder_get_target_pid (recorder);
      /* Held before its exec until released: the recorder ends it if this fails. */
      if (options->kill_on_stop && !seismo_ftrace_guard_watch_command (r->guard, r->child, error))
        return FALSE;
    }
  if (!setup_filter (r, error) || !open_cpus (r, error))
    return FALSE;

  r->conv = seismo_tep_converter_new (r->tep, r->builder);
  load_kallsyms (r);
  if (r->child > 0)
    {
      /* The name exec will give it, for when no event says (the kernel cuts it to 15 bytes). */
      g_autofree char *base = g_path_get_basename (options->argv[0]);

      base[MIN (strlen (base), 15)] = '\0';
      seismo_tep_converter_add_cmdline (r->conv, r->child, base);
    }
  seismo_trace_builder_set_n_cpus (r->builder, r->n_cpus);
  set_metadata (r);

  r->reader = g_thread_new ("seismo-ftrace", reader_main, r);
  r->converter = g_thread_new ("seismo-ftrace-cv", converter_main, r);
  if (tracefs_trace_on (r->instance) < 0)
    return seismo_set_errno_error (error, errno, _("could not start tracefs instance %s"),
                                   tracefs_instance_get_name (r->instance));
  return TRUE;
}

/* The converter thread reports progress; here only a failed reader ends the recording. */
static gboolean
ftrace_poll (SeismoRecorder *recorder,
             gpointer        state)
{
  Recorder *r = state;

  /* User frames are named from the mappings of the moment: read them while it lives. */
  seismo_ftrace_stacks_scan (&r->stacks, seismo_recorder_get_target_pid (recorder),
                             seismo_mono_now_ns ());
  return !g_atomic_int_get (&r->reader_failed);
}

static void
ftrace_stop (SeismoRecorder *recorder,
             gpointer        state)
{
  Recorder *r = state;

  if (r->instance)
    tracefs_trace_off (r->instance);
}

static gboolean
ftrace_finish (SeismoRecorder *recorder,
               gpointer        state,
               GError        **error)
{
  Recorder *r = state;
  GHashTableIter iter;
  gpointer key, value;

  /* The buffer is stopped: let the reader drain what is left and finish. */
  stop_reader (r);
  if (r->reader_error)
    {
      g_propagate_error (error, g_steal_pointer (&r->reader_error));
      return FALSE;
    }
  account_kernel_losses (r);
  if (r->bad_pages)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, r->bad_pages);

      seismo_trace_builder_set_metadata (r->builder, "damaged_pages", n);
    }

  scan_proc (r->task_ids);
  g_hash_table_iter_init (&iter, r->task_ids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const ProcTask *t = value;

      seismo_tep_converter_set_task_ids (r->conv, GPOINTER_TO_INT (key), t->tgid, t->ppid);
      if (t->comm)
        seismo_tep_converter_add_cmdline (r->conv, GPOINTER_TO_INT (key), t->comm);
    }
  seismo_ftrace_stacks_flush (&r->stacks);
  seismo_tep_converter_finish (r->conv);
  return TRUE;
}

static void
ftrace_free (SeismoRecorder *recorder,
             gpointer        state)
{
  recorder_clear (state);
}

static const SeismoBackendOps ftrace_ops = {
  .state_size = sizeof (Recorder),
  .poll_us = CONTROL_US,
  .prepare = ftrace_prepare,
  .start = ftrace_start,
  .poll = ftrace_poll,
  .stop = ftrace_stop,
  .finish = ftrace_finish,
  .free = ftrace_free,
};

const SeismoBackend seismo_ftrace_backend = {
  .name = "ftrace",
  .display_name = "ftrace",
  .description = N_("Kernel tracepoints through a private tracefs instance (libtracefs)"),
  .caps = SEISMO_BACKEND_CAP_EVENTS | SEISMO_BACKEND_CAP_COMMAND | SEISMO_BACKEND_CAP_ATTACH
          | SEISMO_BACKEND_CAP_SYSTEM_WIDE | SEISMO_BACKEND_CAP_CHILDREN
          | SEISMO_BACKEND_CAP_BUFFER_SIZE | SEISMO_BACKEND_CAP_NEEDS_ROOT,
  .stacks = SEISMO_STACK_BOTH,
  .default_stacks = SEISMO_STACK_KERNEL,
  .available = ftrace_available,
  .list_events = ftrace_list_events,
  .ops = &ftrace_ops,
  .init = seismo_ftrace_register_importers,
  .sweep_stale = seismo_ftrace_sweep_stale_instances,
};

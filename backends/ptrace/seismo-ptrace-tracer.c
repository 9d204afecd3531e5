/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace"

/*
 * The ptrace stops: what each one means and what it appends to the trace.
 *
 * Every ptrace stop costs two context switches, so the loop does as little as it can per stop.
 * A syscall's entry stop only reads the clock (vDSO) and resumes the tracee; its exit stop reads
 * the registers once (number, arguments and result: x86 keeps the argument registers across the
 * call), reads tracee memory only for the strings the event carries, and appends the enter and
 * exit events together (the result tells how much of an output buffer to read). What must be
 * read before the memory changes is read at the exec event (the new image's AT_EXECFN and argv)
 * and at the exit event (PTRACE_O_TRACEEXIT: the call a task dies in).
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-ptrace-tracer.h"

const char *const seismo_ptrace_colocate_syscalls[] = {
  "sched_getaffinity", "sched_setaffinity", NULL
};

void
seismo_ptrace_tracee_free (gpointer data)
{
  Tracee *t = data;

  g_free (t->exec_filename);
  g_free (t->exec_argv);
  g_free (t);
}

Tracee *
seismo_ptrace_tracee_add (Recorder *r,
                          pid_t     tid,
                          pid_t     pid)
{
  Tracee *t = g_new0 (Tracee, 1);

  t->tid = tid;
  t->pid = pid;
  t->recording = TRUE;
  g_hash_table_insert (r->tracees, GINT_TO_POINTER (tid), t);
  return t;
}

static inline Tracee *
tracee_lookup (Recorder *r,
               pid_t     tid)
{
  if (r->last != NULL && r->last->tid == tid)
    return r->last;
  return r->last = g_hash_table_lookup (r->tracees, GINT_TO_POINTER (tid));
}

static void
tracee_remove (Recorder *r,
               Tracee   *t)
{
  if (r->last == t)
    r->last = NULL;
  if (r->pinned == t)
    r->pinned = NULL;
  g_hash_table_remove (r->tracees, GINT_TO_POINTER (t->tid));
}

/* --- Co-location --------------------------------------------------------------------------
 *
 * A ptrace stop hands the CPU from the tracee to the tracer and back. On one CPU that is two
 * context switches. On two, each hand-off also wakes a sleeping CPU (in a virtual machine, an
 * exit to the host), which costs several times more. So while a launched command runs as a
 * single task, that task and the tracer share one CPU; as soon as it has two, they get all their
 * CPUs back, so that parallel work stays parallel. The command does not see the difference:
 * sched_getaffinity() returns the mask it would have had, and once it sets its own affinity we
 * leave it alone. Attached processes are never moved.
 */

void
seismo_ptrace_colocate_setup (Recorder *r)
{
  int cpu = sched_getcpu ();

  if (g_getenv ("SEISMO_EXPERIMENT_NOPIN"))
    return;
  if (sched_getaffinity (0, sizeof r->free_mask, &r->free_mask) != 0
      || CPU_COUNT (&r->free_mask) < 2)
    return;
  if (cpu < 0 || !CPU_ISSET (cpu, &r->free_mask))
    for (cpu = 0; !CPU_ISSET (cpu, &r->free_mask); cpu++)
      ;
  CPU_ZERO (&r->one_cpu);
  CPU_SET (cpu, &r->one_cpu);
  if (sched_setaffinity (0, sizeof r->one_cpu, &r->one_cpu) != 0)
    return;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    {
      r->getaffinity_nr[a] = seismo_syscall_number (a, "sched_getaffinity");
      r->setaffinity_nr[a] = seismo_syscall_number (a, "sched_setaffinity");
    }
  r->colocate = TRUE;
}

/* Gives the tracer thread its CPUs back. */
void
seismo_ptrace_colocate_teardown (Recorder *r)
{
  if (!r->colocate)
    return;
  if (r->pinned)
    sched_setaffinity (r->pinned->tid, sizeof r->free_mask, &r->free_mask);
  r->pinned = NULL;
  sched_setaffinity (0, sizeof r->free_mask, &r->free_mask);
  r->colocate = FALSE;
}

/* Pins the only task, or frees the pinned one when there are more. */
void
seismo_ptrace_colocate_update (Recorder *r)
{
  guint n = g_hash_table_size (r->tracees);

  if (!r->colocate)
    return;
  if (n > 1 && r->pinned != NULL)
    {
      sched_setaffinity (r->pinned->tid, sizeof r->free_mask, &r->free_mask);
      r->pinned = NULL;
    }
  else if (n == 1 && r->pinned == NULL)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, r->tracees);
      if (g_hash_table_iter_next (&iter, NULL, &value) && !((Tracee *) value)->own_affinity
          && sched_setaffinity (((Tracee *) value)->tid, sizeof r->one_cpu, &r->one_cpu) == 0)
        r->pinned = value;
    }
}

/* At the exit of the affinity syscalls: hide the pin, and respect the program's own choice. */
static void
colocate_syscall (Recorder *r,
                  Tracee   *t,
                  gint64    ret)
{
  gint64 nr = (gint64) t->nr;
  pid_t target = t->args[0] ? (pid_t) t->args[0] : t->tid;

  if (nr == r->getaffinity_nr[t->arch] && ret > 0 && r->pinned && target == r->pinned->tid)
    {
      struct iovec local = { &r->free_mask, MIN ((gsize) ret, sizeof r->free_mask) };
      struct iovec remote = { (void *) (guintptr) t->args[2], local.iov_len };

      process_vm_writev (t->tid, &local, 1, &remote, 1, 0);
    }
  else if (nr == r->setaffinity_nr[t->arch] && ret == 0)
    {
      Tracee *owner = tracee_lookup (r, target);

      if (owner != NULL)
        {
          owner->own_affinity = TRUE;
          if (r->pinned == owner)
            r->pinned = NULL;
        }
    }
}

/* Reads a small /proc file of tid into buf (NUL-terminated); FALSE when it is gone. */
static gboolean
read_proc (pid_t       tid,
           const char *file,
           char       *buf,
           gsize       size)
{
  char path[64];
  int fd;
  gssize n;

  g_snprintf (path, sizeof path, "/proc/%d/%s", tid, file);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return FALSE;
  n = read (fd, buf, size - 1);
  close (fd);
  if (n < 0)
    return FALSE;
  buf[n] = '\0';
  return TRUE;
}

void
seismo_ptrace_read_proc_comm (pid_t tid,
                              char  comm[16])
{
  char buf[64];

  if (read_proc (tid, "comm", buf, sizeof buf))
    {
      buf[strcspn (buf, "\n")] = '\0';
      g_strlcpy (comm, buf, 16);
    }
}

gboolean
seismo_ptrace_task_is_users (pid_t tid,
                             uid_t uid)
{
  char buf[1024];
  char path[64];
  struct stat st;
  const char *p;
  unsigned long ids[4];

  g_snprintf (path, sizeof path, "/proc/%d", tid);
  if (stat (path, &st) != 0 || st.st_uid != uid || !read_proc (tid, "status", buf, sizeof buf)
      || (p = strstr (buf, "\nUid:")) == NULL
      || sscanf (p, "\nUid: %lu %lu %lu %lu", &ids[0], &ids[1], &ids[2], &ids[3]) != 4)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    if (ids[i] != uid)
      return FALSE;
  return TRUE;
}

/* Thread group id and parent pid of tid, from /proc; -1 when unknown. */
void
seismo_ptrace_read_proc_ids (pid_t  tid,
                             pid_t *tgid,
                             pid_t *ppid)
{
  char buf[1024];
  const char *p;

  *tgid = *ppid = -1;
  if (!read_proc (tid, "status", buf, sizeof buf))
    return;
  if ((p = strstr (buf, "\nTgid:")))
    *tgid = atoi (p + strlen ("\nTgid:"));
  if ((p = strstr (buf, "\nPPid:")))
    *ppid = atoi (p + strlen ("\nPPid:"));
}

/* Reads up to len bytes of the tracee's memory; the count read (0 when unreadable). */
static gsize
read_mem (pid_t    tid,
          guint64  addr,
          guint8  *buf,
          gsize    len)
{
  struct iovec local = { buf, len };
  struct iovec remote = { (void *) (guintptr) addr, len };
  gssize n;

  if (addr == 0 || len == 0)
    return 0;
  n = process_vm_readv (tid, &local, 1, &remote, 1, 0);
  return n < 0 ? 0 : (gsize) n;
}

/*
 * Quotes a NUL-terminated string of the tracee into r->quoted, at most max bytes; TRUE when it
 * was longer (the caller places the truncation marker). Reads a short chunk first: most paths
 * are short.
 */
static gboolean
quote_cstring (Recorder *r,
               pid_t     tid,
               guint64   addr,
               gsize     max)
{
  gsize have = 0;
  gsize chunk = 256;

  g_string_truncate (r->quoted, 0);
  while (have < max)
    {
      gsize want = MIN (chunk, max - have);
      gsize got = read_mem (tid, addr + have, r->mem + have, want);
      guint8 *nul = memchr (r->mem + have, '\0', got);

      if (nul != NULL)
        {
          seismo_ptrace_quote (r->quoted, r->mem, (gsize) (nul - r->mem), FALSE);
          return FALSE;
        }
      have += got;
      if (got < want)
        break;
      chunk = SEISMO_PTRACE_PATH_MAX;
    }
  seismo_ptrace_quote (r->quoted, r->mem, have, FALSE);
  return have > 0;
}

/* A path argument: the string, with the marker when it was cut. */
static void
quote_path (Recorder *r,
            pid_t     tid,
            guint64   addr,
            gsize     max)
{
  if (quote_cstring (r, tid, addr, max))
    g_string_append (r->quoted, SEISMO_FIELD_FLAG_TRUNCATED_MARKER);
}

/* Quotes len bytes of data at addr, cut at SEISMO_PTRACE_BUF_MAX with the marker. */
static void
quote_buffer (Recorder *r,
              pid_t     tid,
              guint64   addr,
              guint64   len)
{
  gsize want = (gsize) MIN (len, SEISMO_PTRACE_BUF_MAX);
  gsize got = read_mem (tid, addr, r->mem, want);

  g_string_truncate (r->quoted, 0);
  seismo_ptrace_quote (r->quoted, r->mem, got, FALSE);
  if (got > 0 && len > got)
    g_string_append (r->quoted, SEISMO_FIELD_FLAG_TRUNCATED_MARKER);
}

/* Quotes a NULL-terminated array of string pointers as ["a", "b"], like strace. */
static char *
read_argv (Recorder   *r,
           pid_t       tid,
           SeismoArch  arch,
           guint64     addr)
{
  GString *out = g_string_new ("[");
  gsize ptr_size = arch == SEISMO_ARCH_I386 ? 4 : 8;

  for (guint i = 0; addr != 0; i++)
    {
      guint8 raw[8] = { 0 };
      guint64 str = 0;
      gboolean truncated;

      if (i == SEISMO_PTRACE_ARGV_MAX)
        {
          g_string_append (out, ", ...");
          break;
        }
      if (read_mem (tid, addr + i * ptr_size, raw, ptr_size) != ptr_size)
        break;
      memcpy (&str, raw, ptr_size);   /* x86 is little-endian: a 4-byte pointer zero-extends */
      if (str == 0)
        break;
      /* As strace prints it: the marker after the closing quote. */
      truncated = quote_cstring (r, tid, str, SEISMO_PTRACE_BUF_MAX);
      g_string_append_printf (out, "%s\"%s\"%s", i ? ", " : "", r->quoted->str,
                              truncated ? SEISMO_FIELD_FLAG_TRUNCATED_MARKER : "");
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

static inline void
count_events (Recorder *r,
              guint     n)
{
  r->events += n;
  if ((r->events & 0x3ff) < n)
    __atomic_store_n (&r->ctl->events, r->events, __ATOMIC_RELAXED);
}

static void
push_arg (Recorder                  *r,
          Tracee                    *t,
          const SeismoPtraceSyscall *sc,
          guint                      i,
          gint64                     ret,
          gboolean                   finished)
{
  const SeismoPtraceArg *arg = &sc->args[i];
  guint64 v = t->args[i];
  gboolean narrow = arg->size == 4 || t->arch == SEISMO_ARCH_I386;

  switch (arg->kind)
    {
    case SEISMO_PTRACE_ARG_INT:
      seismo_trace_builder_push_int (r->builder, narrow ? (gint64) (gint32) v : (gint64) v);
      break;
    case SEISMO_PTRACE_ARG_UINT:
    case SEISMO_PTRACE_ARG_SYMBOL:
    case SEISMO_PTRACE_ARG_FLAGS:
      seismo_trace_builder_push_uint (r->builder, narrow ? (guint32) v : v);
      break;
    case SEISMO_PTRACE_ARG_POINTER:
      seismo_trace_builder_push_uint (r->builder, v);
      break;
    case SEISMO_PTRACE_ARG_FD:
    case SEISMO_PTRACE_ARG_SIGNAL:
      seismo_trace_builder_push_int (r->builder, (gint32) v);
      break;
    case SEISMO_PTRACE_ARG_PATH:
      if (sc->needs_entry && t->exec_filename)
        seismo_trace_builder_push_string (r->builder, t->exec_filename);
      else
        {
          quote_path (r, t->tid, v, SEISMO_PTRACE_PATH_MAX);
          seismo_trace_builder_push_string_len (r->builder, r->quoted->str, r->quoted->len);
        }
      break;
    case SEISMO_PTRACE_ARG_BUF_IN:
      quote_buffer (r, t->tid, v, arg->len_arg >= 0 ? t->args[arg->len_arg] : 0);
      seismo_trace_builder_push_string_len (r->builder, r->quoted->str, r->quoted->len);
      break;
    case SEISMO_PTRACE_ARG_BUF_OUT:
      quote_buffer (r, t->tid, v, finished && ret > 0 ? (guint64) ret : 0);
      seismo_trace_builder_push_string_len (r->builder, r->quoted->str, r->quoted->len);
      break;
    case SEISMO_PTRACE_ARG_PATH_OUT:
      g_string_truncate (r->quoted, 0);
      if (finished && ret > 0)
        quote_path (r, t->tid, v, MIN ((guint64) ret, SEISMO_PTRACE_PATH_MAX));
      seismo_trace_builder_push_string_len (r->builder, r->quoted->str, r->quoted->len);
      break;
    case SEISMO_PTRACE_ARG_ARGV:
      if (t->exec_argv)
        seismo_trace_builder_push_string (r->builder, t->exec_argv);
      else
        {
          g_autofree char *argv = read_argv (r, t->tid, t->arch, v);

          seismo_trace_builder_push_string (r->builder, argv);
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

/*
 * Appends the syscall in progress: its enter event (unless already appended, see
 * emit_entry_now), and its exit event when finished.
 */
static void
emit_syscall (Recorder *r,
              Tracee   *t,
              gint64    ret,
              guint64   exit_ns,
              gboolean  finished)
{
  SeismoPtraceSyscall *sc = seismo_ptrace_schema_get (r->schema, t->arch, (gint64) t->nr);
  guint n = finished ? 2 : 1;

  seismo_ptrace_schema_ensure_types (r->schema, sc);
  if (!t->entry_emitted)
    {
      guint64 ips[SEISMO_PTRACE_MAX_FRAMES];
      guint n_ips = 0;

      /* The stack is the caller's until the syscall returns: the same at its exit stop. Not
       * after an exec event, where the old image (and the stack into it) is gone. */
      if (r->unwind != NULL && t->exec_filename == NULL)
        n_ips = seismo_ptrace_unwind_stack (r->unwind, t->pid, t->tid, t->entry_ns, ips,
                                            G_N_ELEMENTS (ips));
      seismo_trace_builder_begin_event (r->builder, t->entry_ns, 0, t->tid, sc->enter_type);
      if (sc->raw)
        seismo_trace_builder_push_uint_array (r->builder, t->args, 6);
      else
        for (guint i = 0; i < sc->n_args; i++)
          push_arg (r, t, sc, i, ret, finished);
      if (n_ips > 0)
        seismo_trace_builder_set_stack_addrs (r->builder, SEISMO_FRAME_USER, t->pid, ips, n_ips);
      seismo_trace_builder_end_event (r->builder);
    }
  else
    n--;
  t->entry_emitted = FALSE;

  if (finished)
    {
      seismo_trace_builder_begin_event (r->builder, exit_ns, 0, t->tid, sc->exit_type);
      seismo_trace_builder_push_int (r->builder, ret);
      seismo_trace_builder_end_event (r->builder);
    }
  count_events (r, n);
}

/* Resumes a tracee: to its next syscall stop, or (under the prefilter) its next seccomp stop. */
static inline void
resume (Recorder *r,
        Tracee   *t,
        pid_t     tid,
        int       sig)
{
  int request = r->seccomp && !(t && t->in_syscall) ? PTRACE_CONT : PTRACE_SYSCALL;

  /* ESRCH: it was killed meanwhile; its exit is reported by waitpid. */
  ptrace (request, tid, 0, (void *) (glong) sig);
}

/*
 * The syscall in progress, from the registers: number, arguments and (at the exit) the return
 * value. x86 keeps the argument registers across a syscall, so one read at the exit stop gives
 * everything, and the entry stop needs no ptrace request at all. (PTRACE_GET_SYSCALL_INFO costs
 * a little less per call, but gives the arguments only at the entry and the result only at the
 * exit: two calls per syscall instead of one.) Two calls replace the
 * registers: execve (its strings come from the exec event) and rt_sigreturn, which restores the
 * interrupted ones, with orig_rax -1 so that nothing restarts: that number means rt_sigreturn.
 */
static gboolean
load_syscall (Recorder *r,
              Tracee   *t,
              gint64   *ret)
{
  struct user_regs_struct regs;

  if (ptrace (PTRACE_GETREGS, t->tid, 0, &regs) < 0)
    return FALSE;
  /* A 32-bit code segment: an i386 program. (int 0x80 from 64-bit code is read as x86_64.) */
  if (regs.cs == 0x23)
    {
      guint64 args[6] = { regs.rbx, regs.rcx, regs.rdx, regs.rsi, regs.rdi, regs.rbp };

      t->arch = SEISMO_ARCH_I386;
      t->nr = (guint32) regs.orig_rax;
      for (guint i = 0; i < 6; i++)
        t->args[i] = (guint32) args[i];
      *ret = (gint32) regs.rax;
    }
  else
    {
      guint64 args[6] = { regs.rdi, regs.rsi, regs.rdx, regs.r10, regs.r8, regs.r9 };

      t->arch = SEISMO_ARCH_X86_64;
      t->nr = regs.orig_rax;
      memcpy (t->args, args, sizeof t->args);
      *ret = (gint64) regs.rax;
    }
  if (G_UNLIKELY (t->nr == (t->arch == SEISMO_ARCH_I386 ? G_MAXUINT32 : G_MAXUINT64)))
    t->nr = (guint64) r->sigreturn_nr[t->arch];
  return TRUE;
}

static void
clear_exec_strings (Tracee *t)
{
  g_clear_pointer (&t->exec_filename, g_free);
  g_clear_pointer (&t->exec_argv, g_free);
}

/*
 * A syscall-stop. The entry only notes the time. The exit reads the registers and appends the
 * call when it is recorded and passes the filter.
 */
static void
on_syscall_stop (Recorder *r,
                 Tracee   *t,
                 guint64   now)
{
  gint64 ret;

  if (!t->in_syscall)
    {
      t->in_syscall = TRUE;
      t->entry_ns = now;
      return;
    }
  t->in_syscall = FALSE;
  if ((t->recording || r->colocate) && load_syscall (r, t, &ret))
    {
      if (G_UNLIKELY (r->colocate))
        colocate_syscall (r, t, ret);
      if (t->recording && seismo_ptrace_filter_wants (r->filter, t->arch, (gint64) t->nr))
        emit_syscall (r, t, ret, now, TRUE);
      /* Code mapped: the unwinder's view of the process is out of date (x86-64 mmap, PROT_EXEC). */
      if (r->unwind != NULL && t->arch == SEISMO_ARCH_X86_64 && t->nr == 9 && (t->args[2] & 4)
          && ret >= 0)
        seismo_ptrace_unwind_changed (r->unwind, t->pid, now);
    }
  clear_exec_strings (t);
}

/* The syscall in progress will not return (exit, detach): append its entry alone. */
static void
end_unfinished (Recorder *r,
                Tracee   *t,
                guint64   now)
{
  gint64 ret;

  if (t->in_syscall && t->recording && load_syscall (r, t, &ret)
      && seismo_ptrace_filter_wants (r->filter, t->arch, (gint64) t->nr))
    emit_syscall (r, t, 0, now, FALSE);
  t->in_syscall = FALSE;
  clear_exec_strings (t);
}

/*
 * A fork or exec event comes in the middle of its syscall. Appending the syscall's enter event
 * first keeps the trace in time order (a single-threaded recording then needs no sort at the
 * end). Its arguments are all known by now, except an output buffer: none of these calls has
 * one, so the rest waits for the exit as usual.
 */
static void
emit_entry_now (Recorder *r,
                Tracee   *t)
{
  SeismoPtraceSyscall *sc;
  gint64 ret;

  if (!t->in_syscall || !t->recording || t->entry_emitted || !load_syscall (r, t, &ret)
      || !seismo_ptrace_filter_wants (r->filter, t->arch, (gint64) t->nr))
    return;
  sc = seismo_ptrace_schema_get (r->schema, t->arch, (gint64) t->nr);
  if (sc->has_out)
    return;
  emit_syscall (r, t, 0, 0, FALSE);
  t->entry_emitted = TRUE;
}

static void
emit_fork (Recorder   *r,
           Tracee     *parent,
           Tracee     *child,
           guint64     now)
{
  seismo_trace_builder_begin_event (r->builder, now, 0, parent->tid,
                                    seismo_ptrace_schema_fork_type (r->schema));
  seismo_trace_builder_push_string (r->builder, parent->comm);
  seismo_trace_builder_push_int (r->builder, parent->tid);
  seismo_trace_builder_push_string (r->builder, child->comm);
  seismo_trace_builder_push_int (r->builder, child->tid);
  seismo_trace_builder_end_event (r->builder);
  count_events (r, 1);
}

static void
on_fork (Recorder *r,
         Tracee   *t,
         int       event,
         guint64   now)
{
  unsigned long msg = 0;
  pid_t child_tid, tgid = -1, ppid = -1;
  Tracee *child;

  if (ptrace (PTRACE_GETEVENTMSG, t->tid, 0, &msg) < 0)
    return;
  child_tid = (pid_t) msg;
  /* fork and vfork make processes; clone makes threads unless it was asked not to. */
  if (event == PTRACE_EVENT_CLONE)
    seismo_ptrace_read_proc_ids (child_tid, &tgid, &ppid);
  else
    tgid = child_tid;
  if (tgid <= 0)
    tgid = child_tid;

  /* Its first stop may have come before this event. */
  if ((child = tracee_lookup (r, child_tid)) == NULL)
    child = seismo_ptrace_tracee_add (r, child_tid, tgid);
  child->pid = tgid;
  child->recording = t->recording;
  child->own_affinity = t->own_affinity;
  memcpy (child->comm, t->comm, sizeof child->comm);
  /* It inherited the pin: two tasks now, both get their CPUs back. */
  if (r->pinned == t)
    sched_setaffinity (child_tid, sizeof r->free_mask, &r->free_mask);
  seismo_ptrace_colocate_update (r);

  if (!t->recording)
    return;
  emit_entry_now (r, t);
  seismo_trace_builder_set_task_pid (r->builder, child_tid, tgid);
  seismo_trace_builder_set_task_ppid (r->builder, child_tid, tgid == child_tid ? t->pid : ppid);
  seismo_trace_builder_set_task_comm (r->builder, child_tid, child->comm, now);
  emit_fork (r, t, child, now);
}

/*
 * The file name execve() was given, from the new image's auxiliary vector (AT_EXECFN points at
 * the kernel's copy on the new stack): the caller's memory is gone by now.
 */
static char *
read_exec_filename (Recorder *r,
                    Tracee   *t,
                    gboolean  compat)
{
  char auxv[4096];
  char path[64];
  int fd;
  gssize n;
  guint64 execfn = 0;
  gsize word = compat ? 4 : 8;

  g_snprintf (path, sizeof path, "/proc/%d/auxv", t->tid);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) >= 0)
    {
      n = read (fd, auxv, sizeof auxv);
      close (fd);
      for (gssize off = 0; off + 2 * (gssize) word <= n; off += 2 * word)
        {
          guint64 key = 0, value = 0;

          memcpy (&key, auxv + off, word);
          memcpy (&value, auxv + off + word, word);
          if (key == AT_EXECFN)
            execfn = value;
        }
    }
  if (execfn != 0)
    {
      quote_path (r, t->tid, execfn, SEISMO_PTRACE_PATH_MAX);
      return g_strdup (r->quoted->str);
    }
  /* No auxv to read: the executable's resolved path is the next best. */
  g_snprintf (path, sizeof path, "/proc/%d/exe", t->tid);
  n = readlink (path, auxv, sizeof auxv - 1);
  auxv[MAX (n, 0)] = '\0';
  g_string_truncate (r->quoted, 0);
  seismo_ptrace_quote (r->quoted, (const guint8 *) auxv, (gsize) MAX (n, 0), FALSE);
  return g_strdup (r->quoted->str);
}

/* The new program's argv as strace prints it, from /proc/PID/cmdline. */
static char *
read_exec_argv (Recorder *r,
                Tracee   *t)
{
  char path[64];
  g_autofree char *data = g_malloc (SEISMO_PTRACE_ARGV_MAX * (SEISMO_PTRACE_BUF_MAX + 1) + 1);
  gsize size = SEISMO_PTRACE_ARGV_MAX * (SEISMO_PTRACE_BUF_MAX + 1);
  GString *out = g_string_new ("[");
  gssize n = 0;
  int fd;
  guint count = 0;

  g_snprintf (path, sizeof path, "/proc/%d/cmdline", t->tid);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) >= 0)
    {
      gssize got;

      while (n < (gssize) size && (got = read (fd, data + n, size - (gsize) n)) > 0)
        n += got;
      close (fd);
    }
  for (gssize off = 0; off < n; count++)
    {
      const char *arg = data + off;
      gsize len = strnlen (arg, (gsize) (n - off));

      if (count == SEISMO_PTRACE_ARGV_MAX)
        {
          g_string_append (out, ", ...");
          break;
        }
      g_string_truncate (r->quoted, 0);
      seismo_ptrace_quote (r->quoted, (const guint8 *) arg, MIN (len, SEISMO_PTRACE_BUF_MAX),
                           FALSE);
      g_string_append_printf (out, "%s\"%s\"%s", count ? ", " : "", r->quoted->str,
                              len > SEISMO_PTRACE_BUF_MAX ? SEISMO_FIELD_FLAG_TRUNCATED_MARKER
                                                          : "");
      off += (gssize) len + 1;
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

static void
on_exec (Recorder *r,
         Tracee   *t,
         guint64   now)
{
  unsigned long msg = 0;
  pid_t old_tid;
  struct user_regs_struct regs;

  ptrace (PTRACE_GETEVENTMSG, t->tid, 0, &msg);
  old_tid = msg ? (pid_t) msg : t->tid;

  /* A thread other than the leader exec'd: it now has the leader's tid, and its state. */
  if (old_tid != t->tid)
    {
      Tracee *old = tracee_lookup (r, old_tid);

      if (old != NULL)
        {
          t->in_syscall = old->in_syscall;
          t->recording = old->recording;
          t->entry_ns = old->entry_ns;
          tracee_remove (r, old);
        }
      seismo_trace_builder_task_exited (r->builder, old_tid, now);
    }

  /*
   * Under pkexec a root tracer would let a set-user-ID program keep its privileges: from then on
   * it is not the user's to watch, so it runs on untraced, as it would have without us.
   */
  if (r->for_uid >= 0 && !seismo_ptrace_task_is_users (t->tid, (uid_t) r->for_uid))
    {
      end_unfinished (r, t, now);
      t->release = TRUE;
      return;
    }

  t->recording = TRUE;
  if (r->unwind != NULL)
    seismo_ptrace_unwind_changed (r->unwind, t->pid, now);
  clear_exec_strings (t);
  t->exec_filename = read_exec_filename (r, t, ptrace (PTRACE_GETREGS, t->tid, 0, &regs) == 0
                                                && regs.cs == 0x23);
  t->exec_argv = read_exec_argv (r, t);
  emit_entry_now (r, t);
  seismo_ptrace_read_proc_comm (t->tid, t->comm);
  seismo_trace_builder_set_task_pid (r->builder, t->tid, t->pid);
  seismo_trace_builder_set_task_comm (r->builder, t->tid, t->comm, now);
  seismo_trace_builder_begin_event (r->builder, now, 0, t->tid,
                                    seismo_ptrace_schema_exec_type (r->schema));
  seismo_trace_builder_push_string (r->builder, t->exec_filename);
  seismo_trace_builder_push_int (r->builder, t->tid);
  seismo_trace_builder_push_int (r->builder, old_tid);
  seismo_trace_builder_push_string (r->builder, t->exec_argv);
  seismo_trace_builder_end_event (r->builder);
  count_events (r, 1);
}

static void
on_signal (Recorder *r,
           Tracee   *t,
           int       sig,
           guint64   now)
{
  siginfo_t si = { 0 };

  if (!t->recording)
    return;
  ptrace (PTRACE_GETSIGINFO, t->tid, 0, &si);
  seismo_trace_builder_begin_event (r->builder, now, 0, t->tid,
                                    seismo_ptrace_schema_signal_type (r->schema));
  seismo_trace_builder_push_int (r->builder, sig);
  seismo_trace_builder_push_int (r->builder, si.si_errno);
  seismo_trace_builder_push_int (r->builder, si.si_code);
  seismo_trace_builder_end_event (r->builder);
  count_events (r, 1);
}

static void
on_task_exit (Recorder *r,
              Tracee   *t,
              int       status,
              guint64   now)
{
  if (t->recording)
    {
      seismo_trace_builder_begin_event (r->builder, now, 0, t->tid,
                                        seismo_ptrace_schema_exit_type (r->schema));
      seismo_trace_builder_push_string (r->builder, t->comm);
      seismo_trace_builder_push_int (r->builder, t->tid);
      seismo_trace_builder_push_int (r->builder, WIFEXITED (status) ? WEXITSTATUS (status) : -1);
      seismo_trace_builder_push_int (r->builder, WIFSIGNALED (status) ? WTERMSIG (status) : 0);
      seismo_trace_builder_push_uint (r->builder, WIFSIGNALED (status) && WCOREDUMP (status));
      seismo_trace_builder_end_event (r->builder);
      seismo_trace_builder_task_exited (r->builder, t->tid, now);
      count_events (r, 1);
    }
  if (t->tid == r->launched)
    r->ctl->exit_status = status;
  if (r->unwind != NULL && t->tid == t->pid)
    seismo_ptrace_unwind_forget (r->unwind, t->pid);
  tracee_remove (r, t);
  seismo_ptrace_colocate_update (r);
}

static gboolean
is_stop_signal (int sig)
{
  return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* A tracee we had not heard of: a new child whose parent's fork event is still to come. */
static Tracee *
lookup_or_adopt (Recorder *r,
                 pid_t     tid,
                 int       status)
{
  Tracee *t = tracee_lookup (r, tid);

  /* An exit of no tracee: the watcher's wake-up child, or another child of this process. */
  if (t == NULL && WIFSTOPPED (status))
    t = seismo_ptrace_tracee_add (r, tid, tid);
  return t;
}

/* Lets a tracee go at one of its stops, handing back a signal it was about to get. */
static void
release (Recorder *r,
         Tracee   *t,
         int       sig,
         int       event)
{
  ptrace (PTRACE_DETACH, t->tid, 0,
          (void *) (glong) (event == 0 && sig != (SIGTRAP | 0x80) ? sig : 0));
  tracee_remove (r, t);
  seismo_ptrace_colocate_update (r);
}

/* Handles one waitpid() report. */
void
seismo_ptrace_handle_status (Recorder *r,
                             pid_t     tid,
                             int       status,
                             guint64   now)
{
  Tracee *t = lookup_or_adopt (r, tid, status);
  int sig, event;

  if (t == NULL)
    return;
  if (WIFEXITED (status) || WIFSIGNALED (status))
    {
      on_task_exit (r, t, status, now);
      return;
    }
  if (!WIFSTOPPED (status))
    return;

  sig = WSTOPSIG (status);
  event = (status >> 16) & 0xff;
  if (G_UNLIKELY (t->release))
    {
      release (r, t, sig, event);
      return;
    }
  if (G_LIKELY (sig == (SIGTRAP | 0x80)))
    {
      on_syscall_stop (r, t, now);
      resume (r, t, tid, 0);
      return;
    }

  switch (event)
    {
    case 0:
      /* Signal-delivery-stop: record it, then deliver it. */
      on_signal (r, t, sig, now);
      resume (r, t, tid, sig);
      return;
    case PTRACE_EVENT_FORK:
    case PTRACE_EVENT_VFORK:
    case PTRACE_EVENT_CLONE:
      on_fork (r, t, event, now);
      break;
    case PTRACE_EVENT_EXEC:
      on_exec (r, t, now);
      if (t->release)
        {
          release (r, t, sig, event);
          return;
        }
      break;
    case PTRACE_EVENT_SECCOMP:
      /* The prefilter's stop is the entry of a syscall we trace. */
      on_syscall_stop (r, t, now);
      break;
    case PTRACE_EVENT_EXIT:
      /* Still readable: the call it dies in (exit_group, or the one it was killed in). */
      end_unfinished (r, t, now);
      break;
    case PTRACE_EVENT_STOP:
      /* A group-stop (SIGSTOP…): stay stopped, but keep reporting, so SIGCONT works. */
      if (is_stop_signal (sig))
        {
          ptrace (PTRACE_LISTEN, tid, 0, 0);
          return;
        }
      break;
    default:
      break;
    }
  resume (r, t, tid, 0);
}

/* --- Stopping ---------------------------------------------------------------------------- */

/* Waits for the next report of any tracee, retrying on EINTR; -1 when none is left. */
static pid_t
wait_any (int *status)
{
  for (;;)
    {
      pid_t tid = waitpid (-1, status, __WALL);

      if (tid >= 0 || errno != EINTR)
        return tid;
    }
}

/*
 * Starts letting every tracee go: the co-location ends, and each tracee is killed, or else
 * interrupted so that it stops where it can be detached.
 */
static void
interrupt_or_kill_all (Recorder *r,
                       gboolean  kill_them)
{
  GHashTableIter iter;
  gpointer value;

  seismo_ptrace_colocate_teardown (r);
  g_hash_table_iter_init (&iter, r->tracees);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (kill_them)
      kill (((Tracee *) value)->pid, SIGKILL);
    else
      ptrace (PTRACE_INTERRUPT, ((Tracee *) value)->tid, 0, 0);
}

/*
 * While letting every tracee go: waits for the next stop of one, recording the exits reported on
 * the way. NULL when no tracee is left.
 */
static Tracee *
wait_next_stop (Recorder *r,
                int      *status,
                guint64  *now)
{
  while (g_hash_table_size (r->tracees) > 0)
    {
      pid_t tid = wait_any (status);
      Tracee *t;

      *now = seismo_mono_now_ns ();
      if (tid < 0)
        break;
      if ((t = lookup_or_adopt (r, tid, *status)) == NULL)
        continue;
      if (WIFSTOPPED (*status))
        return t;
      on_task_exit (r, t, *status, *now);
    }
  return NULL;
}

/* Detaches every tracee, which then runs on as if never traced. */
void
seismo_ptrace_detach_all (Recorder *r)
{
  Tracee *t;
  int status;
  guint64 now;

  interrupt_or_kill_all (r, FALSE);
  while ((t = wait_next_stop (r, &status, &now)) != NULL)
    {
      int sig = 0, event = (status >> 16) & 0xff;

      if (WSTOPSIG (status) == (SIGTRAP | 0x80))
        on_syscall_stop (r, t, now);
      else if (event == 0)
        {
          /* A signal on its way in: let it arrive. */
          on_signal (r, t, WSTOPSIG (status), now);
          sig = WSTOPSIG (status);
        }
      else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK
               || event == PTRACE_EVENT_CLONE)
        {
          unsigned long msg = 0;

          /* The new child is attached too and will stop: wait for it and detach it. */
          if (ptrace (PTRACE_GETEVENTMSG, t->tid, 0, &msg) == 0
              && !tracee_lookup (r, (pid_t) msg))
            seismo_ptrace_tracee_add (r, (pid_t) msg, (pid_t) msg)->recording = FALSE;
        }
      /* What it is in the middle of goes on without us. */
      end_unfinished (r, t, now);
      ptrace (PTRACE_DETACH, t->tid, 0, (void *) (glong) sig);
      tracee_remove (r, t);
    }
}

/* Kills the launched command and everything it started, and reaps their exits. */
void
seismo_ptrace_kill_all (Recorder *r)
{
  Tracee *t;
  int status;
  guint64 now;

  interrupt_or_kill_all (r, TRUE);
  while ((t = wait_next_stop (r, &status, &now)) != NULL)
    {
      int event = (status >> 16) & 0xff;

      if (event == PTRACE_EVENT_EXIT)
        end_unfinished (r, t, now);
      else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK
               || event == PTRACE_EVENT_CLONE)
        {
          unsigned long msg = 0;

          /* A child forked just before the kill: it is traced, so kill it as well. */
          if (ptrace (PTRACE_GETEVENTMSG, t->tid, 0, &msg) == 0)
            kill ((pid_t) msg, SIGKILL);
        }
      /* Children we learn of only now were not in the first round. */
      kill (t->pid, SIGKILL);
      ptrace (PTRACE_CONT, t->tid, 0, 0);
    }
}

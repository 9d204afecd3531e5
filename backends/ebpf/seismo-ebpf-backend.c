/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "seismo-ebpf-private.h"
#include "seismo-ebpf-stacks.h"
#include "seismo-ebpf.skel.h"
#include "seismo-clock.h"
#include "seismo-user.h"
#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-progress.h"
#include "seismo-recorder.h"
#include "seismo-syscalls.h"

/*
 * User side of the eBPF backend, in libbpf-bootstrap's shape: open the skeleton, set the
 * read-only knobs, load, attach, drain the ring buffer on a worker thread, and destroy everything
 * on every way out. Nothing is pinned, so the kernel also drops the programs if we are killed.
 */

#define DEFAULT_RING_KB   (16 * 1024)
#define MIN_RING_BATCHES  8
/* The worker takes records off the ring at least this often: part of what a killed recorder
 * loses (seismo-progress.h), with CONTROL_SLEEP_US. */
#define POLL_MS           20
#define CONTROL_SLEEP_US  (20 * 1000)   /* SeismoRecorder's period between polls */
#define LOG_TAIL_LINES    6

/* libbpf reports through one process-wide callback; keep its last warnings for error messages. */
static GMutex   libbpf_log_lock;
static GString *libbpf_log;

static int
libbpf_print (enum libbpf_print_level level,
              const char             *format,
              va_list                 args)
{
  g_autofree char *line = NULL;

  if (level == LIBBPF_DEBUG)
    return 0;
  line = g_strdup_vprintf (format, args);
  g_strchomp (line);
  g_debug ("%s", line);
  if (level == LIBBPF_WARN)
    {
      g_mutex_lock (&libbpf_log_lock);
      if (libbpf_log == NULL)
        libbpf_log = g_string_new (NULL);
      if (libbpf_log->len > 64 * 1024)
        g_string_erase (libbpf_log, 0, libbpf_log->len - 32 * 1024);
      g_string_append (libbpf_log, line);
      g_string_append_c (libbpf_log, '\n');
      g_mutex_unlock (&libbpf_log_lock);
    }
  return 0;
}

static void
libbpf_log_reset (void)
{
  g_mutex_lock (&libbpf_log_lock);
  if (libbpf_log != NULL)
    g_string_truncate (libbpf_log, 0);
  g_mutex_unlock (&libbpf_log_lock);
}

/* The last few lines libbpf warned about (the verifier's verdict is at the end), or "". */
static char *
libbpf_log_tail (void)
{
  g_autoptr (GString) tail = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  guint n, first;

  g_mutex_lock (&libbpf_log_lock);
  lines = g_strsplit (libbpf_log != NULL ? libbpf_log->str : "", "\n", -1);
  g_mutex_unlock (&libbpf_log_lock);
  n = g_strv_length (lines);
  while (n > 0 && *lines[n - 1] == '\0')
    n--;
  first = n > LOG_TAIL_LINES ? n - LOG_TAIL_LINES : 0;
  for (guint i = first; i < n; i++)
    g_string_append_printf (tail, "\n  %s", lines[i]);
  return g_string_free (g_steal_pointer (&tail), FALSE);
}

static void
set_libbpf_error (GError    **error,
                  int         err,
                  const char *format,
                  ...) G_GNUC_PRINTF (3, 4);

/* err is a negative errno from libbpf. */
static void
set_libbpf_error (GError    **error,
                  int         err,
                  const char *format,
                  ...)
{
  g_autofree char *tail = libbpf_log_tail ();
  va_list args;

  va_start (args, format);
  seismo_set_errno_error_valist (error, -err, tail, format, args);
  va_end (args);
}

/* CAP_PERFMON (38) and CAP_BPF (39), or CAP_SYS_ADMIN (21), in the effective set. */
static gboolean
has_bpf_capabilities (void)
{
  g_autofree char *status = NULL;
  const char *line;
  guint64 caps;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return FALSE;
  line = strstr (status, "\nCapEff:\t");
  if (line == NULL)
    return FALSE;
  caps = g_ascii_strtoull (line + strlen ("\nCapEff:\t"), NULL, 16);
  return (caps & (G_GUINT64_CONSTANT (1) << 21))
         || ((caps >> 38) & 3) == 3;
}

static gboolean
tracepoint_ids_readable (void)
{
  return access ("/sys/kernel/tracing/events/sched/sched_switch/id", R_OK) == 0
         || access ("/sys/kernel/debug/tracing/events/sched/sched_switch/id", R_OK) == 0;
}

/*
 * The kernel's BTF, which CO-RE relocations and the BTF-typed tracepoints need. The environment
 * can name another file (the CO-RE relocations then use it), which is also how the tests see
 * what a kernel without BTF gets.
 */
#define KERNEL_BTF_PATH  "/sys/kernel/btf/vmlinux"
#define KERNEL_BTF_ENV   "SEISMO_EBPF_KERNEL_BTF"

static const char *
kernel_btf_override (void)
{
  const char *path = g_getenv (KERNEL_BTF_ENV);

  return path != NULL && *path != '\0' ? path : NULL;
}

/* Why the backend cannot run here (NULL when it can), and the matching SeismoError code. */
static char *
unavailable_reason (int *code)
{
  const char *btf = kernel_btf_override () != NULL ? kernel_btf_override () : KERNEL_BTF_PATH;
  char *reason = NULL;
  int ret;

  *code = SEISMO_ERROR_UNAVAILABLE;
  if (!g_file_test (btf, G_FILE_TEST_EXISTS))
    reason = g_strdup_printf (_("the kernel exposes no BTF type information (%s is missing; the "
                                "kernel needs CONFIG_DEBUG_INFO_BTF=y)"), btf);
  else if (geteuid () != 0 && !has_bpf_capabilities ())
    {
      reason = g_strdup (_("recording with eBPF needs root, or the CAP_BPF and CAP_PERFMON "
                           "capabilities"));
      *code = SEISMO_ERROR_PERMISSION;
    }
  else if (geteuid () != 0 && !tracepoint_ids_readable ())
    {
      /* Attaching to a tracepoint starts with reading its id from tracefs. */
      reason = g_strdup (_("the tracepoint ids under /sys/kernel/tracing/events are not readable "
                           "by this user, which CAP_BPF and CAP_PERFMON do not change: run as root, "
                           "or mount tracefs with a group this user is in (gid=…,mode=0750)"));
      *code = SEISMO_ERROR_PERMISSION;
    }
  else if ((ret = libbpf_probe_bpf_map_type (BPF_MAP_TYPE_RINGBUF, NULL)) == 0)
    reason = g_strdup (_("the kernel has no BPF ring buffer (it needs Linux 5.8 or newer)"));
  else if (ret == -EPERM || ret == -EACCES)
    {
      reason = g_strdup_printf (_("the kernel refused to load a BPF program (%s): run as root, "
                                  "and check kernel lockdown and kernel.unprivileged_bpf_disabled"),
                                g_strerror (-ret));
      *code = SEISMO_ERROR_PERMISSION;
    }
  else if (ret < 0)
    reason = g_strdup_printf (_("could not probe the kernel's BPF support: %s"),
                              g_strerror (-ret));
  return reason;
}

static gboolean
seismo_ebpf_available (char **why)
{
  int code;
  g_autofree char *reason = unavailable_reason (&code);

  if (reason == NULL)
    return TRUE;
  if (why != NULL)
    *why = g_steal_pointer (&reason);
  return FALSE;
}

typedef struct {
  /* Borrowed */
  const SeismoRecordOptions *options;
  SeismoTraceBuilder        *builder;
  SeismoRecordControl       *ctl;

  /* Owned */
  struct seismo_ebpf_bpf    *skel;
  GPtrArray                 *probe_links;   /* struct bpf_link * */
  SeismoEbpfProbe           *probes;
  guint                      n_probes;
  SeismoEbpfSelection        selection;
  SeismoEbpfDecoder         *decoder;
  SeismoEbpfStacks          *stacks;        /* --stacks; NULL without */
  struct ring_buffer        *rb;
  GThread                   *worker;
  gint                       worker_stop;
  int                        worker_error;  /* negative errno */
  /* Records the worker took off the ring, for the recording thread to decode: each is a guint32
   * size, then the record, padded to 8 bytes. */
  GMutex                     queue_lock;
  GByteArray                *queue;
  GByteArray                *queue_spare;
  guint64                    events_unpublished;
  int                        n_possible_cpus;
  guint64                   *drops_seen;    /* per possible CPU */
  guint64                   *drops_now;

  GPid                       command;       /* launched by SeismoRecorder, held until start() ends */
  SeismoProgressPacer        pacer;
  gboolean                   polled;
  guint64                    filter_bitmap[SEISMO_EBPF_MAX_SYSCALLS / 64];
  gboolean                   filter;
} Recorder;

/*
 * Two threads: the worker only drains the ring buffer into a queue, so the kernel side always
 * finds room; the recording thread (the one that called record()) decodes the queue into the
 * builder and reports progress, which may read the builder (seismo-cli streams the trace to its
 * file from there, which is what a viewer follows live and what a crash leaves behind) and may
 * take a while (a snapshot of a small trace) without the ring filling up meanwhile.
 */

/* Ring buffer callback, on the worker thread. */
static int
on_sample (void  *ctx,
           void  *data,
           size_t size)
{
  Recorder *rec = ctx;
  guint32 size32 = size;
  static const guint8 pad[8] = { 0 };
  const struct seismo_ebpf_header *hdr = data;

  /* Read now, on this thread, not when decoded: the process may be gone by then. */
  if (size >= sizeof *hdr && hdr->kind == SEISMO_EBPF_REC_MAPS_CHANGED)
    {
      if (rec->stacks != NULL)
        seismo_ebpf_stacks_maps_changed (rec->stacks, hdr->pid, hdr->time_ns);
      return 0;
    }

  g_mutex_lock (&rec->queue_lock);
  g_byte_array_append (rec->queue, (const guint8 *) &size32, sizeof size32);
  g_byte_array_append (rec->queue, pad, 4);
  g_byte_array_append (rec->queue, data, size);
  g_byte_array_append (rec->queue, pad, (8 - size % 8) % 8);
  g_mutex_unlock (&rec->queue_lock);
  return 0;
}

/* On the recording thread: decodes what the worker queued so far. */
static void
decode_queue (Recorder *rec)
{
  GByteArray *records;
  gsize offset = 0;

  g_mutex_lock (&rec->queue_lock);
  records = rec->queue;
  rec->queue = rec->queue_spare;
  g_mutex_unlock (&rec->queue_lock);

  while (offset + 8 <= records->len)
    {
      guint32 size;
      int n;

      memcpy (&size, records->data + offset, sizeof size);
      offset += 8;
      g_assert (size <= records->len - offset);
      n = seismo_ebpf_decoder_record (rec->decoder, records->data + offset, size);
      if (n < 0)
        g_warning ("ignoring a malformed eBPF record (%u bytes)", size);
      else
        rec->events_unpublished += n;
      offset += size + (8 - size % 8) % 8;
    }
  /* Keeps its allocation for the next round. */
  g_byte_array_set_size (records, 0);
  rec->queue_spare = records;
}

/* On the recording thread: events decoded, and drops the kernel counted (as lost events). */
static void
publish_counters (Recorder *rec)
{
  int fd = bpf_map__fd (rec->skel->maps.drops);
  guint32 zero = 0;
  guint64 now = 0;

  if (rec->events_unpublished != 0)
    {
      __atomic_fetch_add (&rec->ctl->events, rec->events_unpublished, __ATOMIC_RELAXED);
      rec->events_unpublished = 0;
    }

  if (bpf_map_lookup_elem (fd, &zero, rec->drops_now) != 0)
    return;
  for (int cpu = 0; cpu < rec->n_possible_cpus; cpu++)
    {
      guint64 delta = rec->drops_now[cpu] - rec->drops_seen[cpu];

      if (delta == 0)
        continue;
      if (now == 0)
        now = seismo_mono_now_ns ();
      seismo_trace_builder_add_lost_events (rec->builder, cpu, now, delta);
      __atomic_fetch_add (&rec->ctl->lost, delta, __ATOMIC_RELAXED);
      rec->drops_seen[cpu] = rec->drops_now[cpu];
    }
}

static gpointer
worker_main (gpointer data)
{
  Recorder *rec = data;
  int ret;

  while (!g_atomic_int_get (&rec->worker_stop))
    {
      ret = ring_buffer__poll (rec->rb, POLL_MS);
      /* The kernel only wakes us once a backlog builds up; take the rest on each tick. */
      if (ret >= 0 || ret == -EINTR)
        ret = ring_buffer__consume (rec->rb);
      if (ret < 0 && ret != -EINTR)
        {
          g_atomic_int_set (&rec->worker_error, ret);
          break;
        }
    }
  ring_buffer__consume (rec->rb);
  return NULL;
}

static void
stop_worker (Recorder *rec)
{
  if (rec->worker == NULL)
    return;
  g_atomic_int_set (&rec->worker_stop, 1);
  g_thread_join (g_steal_pointer (&rec->worker));
}

static void
destroy_link (gpointer link)
{
  bpf_link__destroy (link);
}

static void
detach_all (Recorder *rec)
{
  if (rec->probe_links != NULL)
    g_ptr_array_set_size (rec->probe_links, 0);
  if (rec->skel == NULL)
    return;
  /* Syscall enters first, then exits, then the rest (the spill program among them): every
   * syscall whose enter was recorded is then either complete or in progress in the maps. */
  g_clear_pointer (&rec->skel->links.seismo_sys_enter, bpf_link__destroy);
  g_clear_pointer (&rec->skel->links.seismo_sys_exit, bpf_link__destroy);
  seismo_ebpf_bpf__detach (rec->skel);
}

/* libbpf attaches kprobes through the kprobe PMU, or the legacy tracefs kprobe_events. */
static gboolean
kprobes_supported (void)
{
  return g_file_test ("/sys/bus/event_source/devices/kprobe/type", G_FILE_TEST_EXISTS)
         || g_file_test ("/sys/kernel/tracing/kprobe_events", G_FILE_TEST_EXISTS)
         || g_file_test ("/sys/kernel/debug/tracing/kprobe_events", G_FILE_TEST_EXISTS);
}

static gboolean
attach_probes (Recorder *rec,
               GError  **error)
{
  for (guint i = 0; i < rec->n_probes; i++)
    {
      const SeismoEbpfProbe *probe = &rec->probes[i];
      g_autofree char *binary_path = NULL;
      const char *binary;
      int binary_fd = -1;
      struct bpf_link *link = NULL;
      int err;

      /* A binary named by path is opened as the user the recording is for, and attached
       * through that descriptor: root resolves no path the user could swap meanwhile. */
      if (probe->binary != NULL && strchr (probe->binary, '/') != NULL)
        {
          binary_fd = seismo_user_open_for_reading (probe->binary, error);
          if (binary_fd < 0)
            {
              g_prefix_error (error, "could not attach probe '%s': ", probe->spec);
              return FALSE;
            }
          binary_path = g_strdup_printf ("/proc/self/fd/%d", binary_fd);
        }
      binary = binary_path != NULL ? binary_path : probe->binary;

      switch (probe->kind)
        {
        case SEISMO_EBPF_KPROBE:
        case SEISMO_EBPF_KRETPROBE:
          {
            LIBBPF_OPTS (bpf_kprobe_opts, opts,
                         .bpf_cookie = i,
                         .offset = probe->offset,
                         .retprobe = probe->kind == SEISMO_EBPF_KRETPROBE);
            struct bpf_program *prog = probe->kind == SEISMO_EBPF_KRETPROBE
                                       ? rec->skel->progs.seismo_probe_return
                                       : rec->skel->progs.seismo_probe_entry;

            link = bpf_program__attach_kprobe_opts (prog, probe->function, &opts);
          }
          break;

        case SEISMO_EBPF_UPROBE:
        case SEISMO_EBPF_URETPROBE:
          {
            LIBBPF_OPTS (bpf_uprobe_opts, opts,
                         .bpf_cookie = i,
                         .retprobe = probe->kind == SEISMO_EBPF_URETPROBE,
                         .func_name = probe->function);
            struct bpf_program *prog = probe->kind == SEISMO_EBPF_URETPROBE
                                       ? rec->skel->progs.seismo_probe_return
                                       : rec->skel->progs.seismo_probe_entry;

            /* Every process running the binary; the kernel side keeps only the targets. */
            link = bpf_program__attach_uprobe_opts (prog, -1, binary, probe->offset, &opts);
          }
          break;

        case SEISMO_EBPF_USDT:
          {
            LIBBPF_OPTS (bpf_usdt_opts, opts, .usdt_cookie = i);

            link = bpf_program__attach_usdt (rec->skel->progs.seismo_probe_usdt, -1,
                                             binary, probe->provider, probe->name, &opts);
          }
          break;
        }

      err = -errno;
      if (binary_fd >= 0)
        close (binary_fd);
      binary_fd = -1;
      g_clear_pointer (&binary_path, g_free);
      if (link == NULL)
        {
          if ((probe->kind == SEISMO_EBPF_KPROBE || probe->kind == SEISMO_EBPF_KRETPROBE)
              && !kprobes_supported ())
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNAVAILABLE,
                         _("could not attach probe '%s': this kernel has no kprobes "
                           "(CONFIG_KPROBES is off: no kprobe PMU and no kprobe_events)"),
                         probe->spec);
          else if (err == -ENOENT && probe->binary != NULL
              && !g_file_test (probe->binary, G_FILE_TEST_EXISTS)
              && strchr (probe->binary, '/') != NULL)
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                         _("could not attach probe '%s': %s: no such file"), probe->spec,
                         probe->binary);
          else
            set_libbpf_error (error, err, _("could not attach probe '%s'"), probe->spec);
          return FALSE;
        }
      g_ptr_array_add (rec->probe_links, link);
    }
  return TRUE;
}

static void
set_rodata (Recorder *rec,
            gint32    target_tgid,
            guint64  *filter_bitmap,
            gboolean  filter)
{
  const SeismoRecordOptions *o = rec->options;
  struct seismo_ebpf_bpf__rodata *ro = rec->skel->rodata;
  const SeismoEbpfSelection *sel = &rec->selection;

  ro->system_wide = o->system_wide;
  ro->target_tgid = target_tgid;
  ro->follow_children = o->argv != NULL || o->children;
  ro->self_tgid = getpid ();
  ro->aggregate = o->aggregate;
  ro->filter_syscalls = filter;
  memcpy ((void *) ro->syscall_filter, filter_bitmap, sizeof ro->syscall_filter);
  seismo_ebpf_syscall_path_args ((guint8 *) ro->path_arg);
  ro->nr_exit = seismo_syscall_number (SEISMO_ARCH_X86_64, "exit");
  ro->nr_exit_group = seismo_syscall_number (SEISMO_ARCH_X86_64, "exit_group");
  ro->emit_switch = !o->aggregate && sel->sched_switch;
  ro->emit_wakeup = !o->aggregate && sel->sched_wakeup;
  ro->emit_waking = !o->aggregate && sel->sched_waking;
  ro->emit_fork = !o->aggregate && sel->fork;
  ro->emit_exec = !o->aggregate && sel->exec;
  ro->emit_exit = !o->aggregate && sel->exit;
  ro->emit_rename = !o->aggregate && sel->rename;
  ro->stacks_user = !o->aggregate && (o->stacks & SEISMO_STACK_USER);
  ro->stacks_kernel = !o->aggregate && (o->stacks & SEISMO_STACK_KERNEL);
  ro->nr_mmap = seismo_syscall_number (SEISMO_ARCH_X86_64, "mmap");
}

/* Loads only the programs this recording needs. */
static void
choose_programs (Recorder *rec)
{
  const SeismoRecordOptions *o = rec->options;
  const struct seismo_ebpf_bpf__rodata *ro = rec->skel->rodata;
  gboolean entry = FALSE, ret = FALSE, usdt = FALSE;
  gboolean syscalls = o->aggregate || rec->selection.syscalls;

  for (guint i = 0; i < rec->n_probes; i++)
    {
      if (rec->probes[i].kind == SEISMO_EBPF_USDT)
        usdt = TRUE;
      else if (seismo_ebpf_probe_returns (&rec->probes[i]))
        ret = TRUE;
      else
        entry = TRUE;
    }

  bpf_program__set_autoload (rec->skel->progs.seismo_sys_enter, syscalls);
  bpf_program__set_autoload (rec->skel->progs.seismo_sys_exit, syscalls);
  /* Moves the syscall in progress of a thread switched out off its CPU's batch. */
  bpf_program__set_autoload (rec->skel->progs.seismo_spill, syscalls && !o->aggregate);
  bpf_program__set_autoload (rec->skel->progs.seismo_sched_switch, ro->emit_switch);
  bpf_program__set_autoload (rec->skel->progs.seismo_sched_wakeup, ro->emit_wakeup);
  bpf_program__set_autoload (rec->skel->progs.seismo_sched_waking, ro->emit_waking);
  /* Fork also tracks the target's new threads and children. */
  bpf_program__set_autoload (rec->skel->progs.seismo_fork, ro->emit_fork || !o->system_wide);
  /* Exec also moves aggregated counts to the new name. */
  /* Exec also moves aggregated counts to the new name, and says when to read the maps again. */
  bpf_program__set_autoload (rec->skel->progs.seismo_exec, ro->emit_exec || o->aggregate ||
                                                          ro->stacks_user);
  bpf_program__set_autoload (rec->skel->progs.seismo_rename, ro->emit_rename);
  /* Exit always runs: it clears the pairing state of threads that die inside a syscall. */
  bpf_program__set_autoload (rec->skel->progs.seismo_exit, TRUE);
  bpf_program__set_autoload (rec->skel->progs.seismo_probe_entry, entry);
  bpf_program__set_autoload (rec->skel->progs.seismo_probe_return, ret);
  bpf_program__set_autoload (rec->skel->progs.seismo_probe_usdt, usdt);
  /* Probes are attached one by one with their cookie, never by the skeleton. */
  bpf_program__set_autoattach (rec->skel->progs.seismo_probe_entry, FALSE);
  bpf_program__set_autoattach (rec->skel->progs.seismo_probe_return, FALSE);
  bpf_program__set_autoattach (rec->skel->progs.seismo_probe_usdt, FALSE);
}

/* The classic tracepoints of the programs about to load must have the layout compiled in. */
static gboolean
check_tracepoints (Recorder *rec,
                   GError  **error)
{
  const struct {
    struct bpf_program *prog;
    const char         *event;
  } uses[] = {
    { rec->skel->progs.seismo_sched_switch, "sched/sched_switch" },
    { rec->skel->progs.seismo_sched_wakeup, "sched/sched_wakeup" },
    { rec->skel->progs.seismo_sched_waking, "sched/sched_waking" },
    { rec->skel->progs.seismo_exec, "sched/sched_process_exec" },
    { rec->skel->progs.seismo_exit, "sched/sched_process_exit" },
    { rec->skel->progs.seismo_rename, "task/task_rename" },
  };
  const char *events[G_N_ELEMENTS (uses) + 1];
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (uses); i++)
    if (bpf_program__autoload (uses[i].prog))
      events[n++] = uses[i].event;
  events[n] = NULL;
  return seismo_ebpf_check_tracepoints (events, error);
}

/* A syscall still in progress when recording stopped becomes an enter without an exit. */
static void
decode_in_progress (Recorder                        *rec,
                    struct seismo_ebpf_syscall_slot *slot)
{
  struct seismo_ebpf_syscall_path *r = &slot->rec;
  gsize size = r->sc.hdr.kind == SEISMO_EBPF_REC_SYSCALL_PATH
               ? sizeof (struct seismo_ebpf_syscall_path) : sizeof (struct seismo_ebpf_syscall);
  int n;

  /* Its stack tail is right behind it, inside the slot. */
  if (r->sc.flags & SEISMO_EBPF_SYSCALL_STACK)
    size += sizeof (struct seismo_ebpf_stack_tail);
  r->sc.flags |= SEISMO_EBPF_SYSCALL_NO_EXIT;
  r->sc.ret = 0;
  r->sc.duration_ns = 0;
  r->sc.exit_cpu = r->sc.hdr.cpu;
  r->path[sizeof r->path - 1] = '\0';
  n = seismo_ebpf_decoder_record (rec->decoder, r, size);
  if (n > 0)
    rec->events_unpublished += n;
}

/*
 * After detaching: the syscall records still staged on each CPU, and the syscalls in progress,
 * at a CPU's batch tail (a thread running in its syscall) or spilled (one switched out).
 */
static void
flush_staged (Recorder *rec)
{
  int fd = bpf_map__fd (rec->skel->maps.cpu_states);
  int spilled_fd = bpf_map__fd (rec->skel->maps.spilled);
  g_autofree struct seismo_ebpf_cpu_state *states = g_new (struct seismo_ebpf_cpu_state,
                                                           rec->n_possible_cpus);
  guint32 zero = 0, key, next, *prev = NULL;

  if (bpf_map_lookup_elem (fd, &zero, states) != 0)
    {
      g_warning ("could not read the staged eBPF syscall records: %s", g_strerror (errno));
      return;
    }
  for (int cpu = 0; cpu < rec->n_possible_cpus; cpu++)
    {
      struct seismo_ebpf_batch *b = &states[cpu].batch;
      int n;

      if (b->count != 0)
        {
          b->hdr.kind = SEISMO_EBPF_REC_BATCH;
          n = seismo_ebpf_decoder_record (rec->decoder, b, sizeof *b);
          if (n < 0)
            g_warning ("ignoring malformed staged eBPF syscall records of CPU %d", cpu);
          else
            rec->events_unpublished += n;
        }
      if (states[cpu].size != 0
          && b->len <= sizeof b->data - sizeof (struct seismo_ebpf_syscall_slot))
        {
          struct seismo_ebpf_syscall_slot r;

          memcpy (&r, b->data + b->len, sizeof r);
          decode_in_progress (rec, &r);
        }
    }

  while (bpf_map_get_next_key (spilled_fd, prev, &next) == 0)
    {
      struct seismo_ebpf_syscall_slot r;

      key = next;
      prev = &key;
      if (bpf_map_lookup_elem (spilled_fd, &key, &r) == 0 && r.rec.sc.hdr.time_ns != 0)
        decode_in_progress (rec, &r);
    }
}

/* Beside SeismoRecorder's: the clock, the command as a shell would take it, the mode. */
static void
set_metadata (Recorder *rec)
{
  const SeismoRecordOptions *o = rec->options;
  SeismoTraceBuilder *b = rec->builder;
  g_autofree char *wall = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_real_time () * 1000);

  seismo_trace_builder_set_metadata (b, SEISMO_META_CLOCK, "mono");
  seismo_trace_builder_set_metadata (b, SEISMO_META_START_WALL, wall);
  if (o->argv != NULL)
    {
      g_autoptr (GString) command = g_string_new (NULL);

      for (guint i = 0; o->argv[i] != NULL; i++)
        {
          g_autofree char *quoted = g_shell_quote (o->argv[i]);

          if (i > 0)
            g_string_append_c (command, ' ');
          g_string_append (command, quoted);
        }
      seismo_trace_builder_set_metadata (b, SEISMO_META_COMMAND, command->str);
    }
  seismo_trace_builder_set_metadata (b, "ebpf_mode", o->aggregate ? "aggregate" : "events");
  seismo_trace_builder_set_n_cpus (b, sysconf (_SC_NPROCESSORS_CONF));
}

/* Ring size: a power-of-two number of pages, as the kernel requires, and room for a few
 * batches of syscall records (a smaller ring could never take one). */
static guint64
ring_bytes (guint buffer_kb)
{
  guint64 bytes = MAX ((guint64) (buffer_kb != 0 ? buffer_kb : DEFAULT_RING_KB) * 1024,
                       MIN_RING_BATCHES * sizeof (struct seismo_ebpf_batch));
  guint64 size = sysconf (_SC_PAGESIZE);

  while (size < bytes && size < (G_GUINT64_CONSTANT (1) << 31))
    size <<= 1;
  return size;
}

/*
 * On the recording thread, every CONTROL_SLEEP_US: decodes what the worker queued and reports
 * progress. FALSE once the ring cannot be read (finish() says why).
 */
static gboolean
ebpf_poll (SeismoRecorder *recorder,
           gpointer        state)
{
  Recorder *rec = state;
  guint64 now;

  if (!rec->polled)
    {
      /* The first report at once: the file gets its tables while the command starts. */
      rec->polled = TRUE;
      now = seismo_mono_now_ns ();
      seismo_progress_pacer_init (&rec->pacer, now);
      rec->pacer.next_ns = now;
    }
  if (rec->worker != NULL)
    {
      decode_queue (rec);
      publish_counters (rec);
    }
  now = seismo_mono_now_ns ();
  if (seismo_progress_pacer_due (&rec->pacer, rec->builder, now))
    seismo_progress_pacer_report (&rec->pacer, rec->ctl, rec->builder, now);
  return rec->options->aggregate
         || (rec->worker != NULL && g_atomic_int_get (&rec->worker_error) == 0);
}

static gboolean
ebpf_prepare (SeismoRecorder *recorder,
              gpointer        state,
              GError        **error)
{
  Recorder *rec = state;
  const SeismoRecordOptions *options = seismo_recorder_get_options (recorder);
  g_autofree char *why = NULL;
  guint n_probes;
  int code;

  rec->options = options;
  rec->builder = seismo_recorder_get_builder (recorder);
  rec->ctl = seismo_recorder_get_control (recorder);
  rec->filter = options->syscalls != NULL && options->syscalls[0] != NULL;
  g_mutex_init (&rec->queue_lock);
  rec->queue = g_byte_array_new ();
  rec->queue_spare = g_byte_array_new ();

  if (!seismo_ebpf_select_events (options->events, &rec->selection, error)
      || (rec->filter && !seismo_ebpf_syscall_filter (options->syscalls, rec->filter_bitmap, error)))
    return FALSE;

  n_probes = options->probes != NULL ? g_strv_length (options->probes) : 0;
  if (n_probes > SEISMO_EBPF_MAX_PROBES)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                   _("too many probes: %u (at most %d)"), n_probes, SEISMO_EBPF_MAX_PROBES);
      return FALSE;
    }
  rec->probes = g_new0 (SeismoEbpfProbe, MAX (n_probes, 1));
  for (; rec->n_probes < n_probes; rec->n_probes++)
    if (!seismo_ebpf_probe_parse (options->probes[rec->n_probes], &rec->probes[rec->n_probes],
                                  error))
      return FALSE;

  why = unavailable_reason (&code);
  if (why != NULL)
    {
      g_set_error (error, SEISMO_ERROR, code, _("the eBPF backend cannot run: %s"), why);
      return FALSE;
    }

  libbpf_set_print (libbpf_print);
  libbpf_log_reset ();
  rec->n_possible_cpus = libbpf_num_possible_cpus ();
  if (rec->n_possible_cpus <= 0)
    {
      set_libbpf_error (error, rec->n_possible_cpus, _("could not count the possible CPUs"));
      return FALSE;
    }
  rec->drops_seen = g_new0 (guint64, rec->n_possible_cpus);
  rec->drops_now = g_new0 (guint64, rec->n_possible_cpus);
  rec->probe_links = g_ptr_array_new_with_free_func (destroy_link);

  {
    LIBBPF_OPTS (bpf_object_open_opts, open_opts, .btf_custom_path = kernel_btf_override ());

    rec->skel = seismo_ebpf_bpf__open_opts (&open_opts);
  }
  if (rec->skel == NULL)
    {
      set_libbpf_error (error, -errno, _("could not open the eBPF programs"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
ebpf_start (SeismoRecorder *recorder,
            gpointer        state,
            GError        **error)
{
  Recorder *rec = state;
  const SeismoRecordOptions *options = rec->options;
  gint32 target_tgid = seismo_recorder_get_target_pid (recorder);
  int err;

  if (seismo_recorder_has_command (recorder))
    rec->command = target_tgid;
  set_rodata (rec, options->system_wide ? 0 : target_tgid, rec->filter_bitmap, rec->filter);
  choose_programs (rec);
  if (!check_tracepoints (rec, error))
    return FALSE;
  err = bpf_map__set_max_entries (rec->skel->maps.events, ring_bytes (options->buffer_kb));
  if (err != 0)
    {
      set_libbpf_error (error, err, _("could not size the eBPF ring buffer"));
      return FALSE;
    }
  rec->skel->rodata->wakeup_bytes = ring_bytes (options->buffer_kb) / 4;
  /* Each mode keeps per-thread state in one of these hash maps; the other needs no memory. */
  err = bpf_map__set_max_entries (options->aggregate ? rec->skel->maps.spilled
                                                     : rec->skel->maps.threads, 1);
  /* The stack map holds 127 frames per entry whether used or not: none without --stacks. */
  if (err == 0 && (options->stacks == SEISMO_STACK_NONE || options->aggregate))
    err = bpf_map__set_max_entries (rec->skel->maps.stack_traces, 1);
  if (err != 0)
    {
      set_libbpf_error (error, err, _("could not size the eBPF maps"));
      return FALSE;
    }

  err = seismo_ebpf_bpf__load (rec->skel);
  if (err != 0)
    {
      set_libbpf_error (error, err, _("could not load the eBPF programs"));
      return FALSE;
    }

  err = seismo_ebpf_bpf__attach (rec->skel);
  if (err != 0)
    {
      set_libbpf_error (error, err, _("could not attach the eBPF programs"));
      return FALSE;
    }
  if (!attach_probes (rec, error))
    return FALSE;

  if (!options->system_wide)
    {
      int targets_fd = bpf_map__fd (rec->skel->maps.targets);

      if (rec->command > 0)
        seismo_ebpf_add_target (targets_fd, rec->command);
      else
        seismo_ebpf_seed_targets (targets_fd, options->pid, options->children);
    }

  set_metadata (rec);
  rec->decoder = seismo_ebpf_decoder_new (rec->builder, &rec->selection, rec->probes,
                                          rec->n_probes);
  if (options->stacks != SEISMO_STACK_NONE && !options->aggregate)
    {
      g_autofree char *kallsyms = NULL;

      /* Kernel frames are named from kallsyms, saved now (as root, with real addresses). */
      if ((options->stacks & SEISMO_STACK_KERNEL) &&
          !seismo_stacks_save_kallsyms (rec->builder, &kallsyms, error))
        return FALSE;
      rec->stacks = seismo_ebpf_stacks_new (rec->builder,
                                            bpf_map__fd (rec->skel->maps.stack_traces),
                                            options->stacks);
      if (kallsyms != NULL)
        seismo_ebpf_stacks_set_kallsyms (rec->stacks, kallsyms);
      seismo_ebpf_decoder_set_stacks (rec->decoder, rec->stacks);
      if (options->pid > 0 && (options->stacks & SEISMO_STACK_USER))
        seismo_ebpf_stacks_maps_changed (rec->stacks, options->pid, seismo_mono_now_ns ());
    }
  if (rec->command > 0)
    {
      g_autofree char *comm = NULL;

      g_file_get_contents ("/proc/self/comm", &comm, NULL, NULL);
      seismo_ebpf_decoder_know_task (rec->decoder, rec->command, rec->command, getpid (),
                                     comm != NULL ? g_strchomp (comm) : NULL,
                                     seismo_mono_now_ns ());
    }

  if (!options->aggregate)
    {
      rec->rb = ring_buffer__new (bpf_map__fd (rec->skel->maps.events), on_sample, rec, NULL);
      if (rec->rb == NULL)
        {
          set_libbpf_error (error, -errno, _("could not map the eBPF ring buffer"));
          return FALSE;
        }
      rec->worker = g_thread_new ("seismo-ebpf-ring", worker_main, rec);
    }
  return TRUE;
}

static gboolean
ebpf_finish (SeismoRecorder *recorder,
             gpointer        state,
             GError        **error)
{
  Recorder *rec = state;

  if (rec->worker_error != 0)
    {
      set_libbpf_error (error, rec->worker_error, _("could not read the eBPF ring buffer"));
      return FALSE;
    }
  /* Still attached: the trace shows how a command killed on stop ended. */
  seismo_recorder_end_command (recorder);
  /* Detach first so that what is read next is everything there will ever be. */
  detach_all (rec);
  if (rec->options->aggregate)
    return seismo_ebpf_read_aggregates (rec->builder, bpf_map__fd (rec->skel->maps.syscall_stats),
                                        bpf_map__fd (rec->skel->maps.comm_counts),
                                        bpf_map__fd (rec->skel->maps.threads),
                                        rec->n_possible_cpus, error);
  stop_worker (rec);
  decode_queue (rec);
  flush_staged (rec);
  publish_counters (rec);
  if (rec->stacks != NULL)
    seismo_ebpf_stacks_flush (rec->stacks);
  seismo_ebpf_decoder_finish (rec->decoder, seismo_mono_now_ns ());
  return TRUE;
}

static void
ebpf_free (SeismoRecorder *recorder,
           gpointer        state)
{
  Recorder *rec = state;

  detach_all (rec);
  stop_worker (rec);
  g_clear_pointer (&rec->rb, ring_buffer__free);
  g_clear_pointer (&rec->probe_links, g_ptr_array_unref);
  g_clear_pointer (&rec->skel, seismo_ebpf_bpf__destroy);
  g_clear_pointer (&rec->decoder, seismo_ebpf_decoder_free);
  g_clear_pointer (&rec->stacks, seismo_ebpf_stacks_free);
  for (guint i = 0; i < rec->n_probes; i++)
    seismo_ebpf_probe_clear (&rec->probes[i]);
  g_free (rec->probes);
  g_free (rec->drops_seen);
  g_free (rec->drops_now);
  g_byte_array_unref (rec->queue);
  g_byte_array_unref (rec->queue_spare);
  g_mutex_clear (&rec->queue_lock);
}

static const SeismoBackendOps ebpf_ops = {
  .state_size = sizeof (Recorder),
  .poll_us = CONTROL_SLEEP_US,
  .prepare = ebpf_prepare,
  .start = ebpf_start,
  .poll = ebpf_poll,
  .finish = ebpf_finish,
  .free = ebpf_free,
};

const SeismoBackend seismo_ebpf_backend = {
  .name = "ebpf",
  .display_name = "eBPF",
  .description = N_("eBPF (libbpf CO-RE): in-kernel syscall pairing, scheduler events, custom "
                    "kprobes/uprobes/USDT probes and in-kernel aggregation"),
  .caps = SEISMO_EBPF_CAPS,
  .stacks = SEISMO_STACK_BOTH,
  .default_stacks = SEISMO_STACK_USER,
  .available = seismo_ebpf_available,
  .list_events = seismo_ebpf_list_events,
  .ops = &ebpf_ops,
};

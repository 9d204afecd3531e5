/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Kernel side of the eBPF backend. Built with clang -target bpf and turned into
 * seismo-ebpf.skel.h by bpftool; see seismo-ebpf-backend.c for the user side.
 *
 * There is no vmlinux.h: the classic tracepoints declare their context exactly as the kernel's
 * format files describe it (seismo-ebpf-tracepoints.h, checked against the running kernel's
 * format files before loading). The few kernel structures read directly (pt_regs,
 * task_struct) are declared with only the members we use and preserve_access_index, so libbpf
 * relocates every access against the running kernel's BTF (CO-RE).
 */

#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>

/* Kernel register names (di, si…) for bpf_tracing.h's PT_REGS_* macros used by usdt.bpf.h: that
 * header selects them when it sees vmlinux.h's include guard, and our pt_regs below uses them. */
#define __VMLINUX_H__

struct pt_regs {
  unsigned long r10;
  unsigned long r9;
  unsigned long r8;
  unsigned long ax;
  unsigned long cx;
  unsigned long dx;
  unsigned long si;
  unsigned long di;
  unsigned long ip;
  unsigned long sp;
  unsigned long bp;
} __attribute__((preserve_access_index));

struct task_struct {
  void               *stack;
  int                 pid;
  int                 tgid;
  struct task_struct *real_parent;
  char                comm[16];
} __attribute__((preserve_access_index));

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/usdt.bpf.h>

#include "seismo-ebpf-events.h"
#include "seismo-ebpf-tracepoints.h"

char LICENSE[] SEC("license") = "GPL";

/* Knobs set by user space before loading; the verifier sees them as constants. */
const volatile bool  system_wide = false;
const volatile __s32 target_tgid = 0;      /* 0: none (system-wide, or only the targets map) */
const volatile bool  follow_children = false;
const volatile __s32 self_tgid = 0;        /* the recorder itself, skipped system-wide */
const volatile bool  aggregate = false;
const volatile bool  filter_syscalls = false;
const volatile __u64 syscall_filter[SEISMO_EBPF_MAX_SYSCALLS / 64] = { 0 };
/* 1 + index of the argument holding a path for file syscalls (open, stat…); 0: none. */
const volatile __u8  path_arg[SEISMO_EBPF_MAX_SYSCALLS] = { 0 };
const volatile __s64 nr_exit = -1;         /* syscalls that never return: no sys_exit */
const volatile __s64 nr_exit_group = -1;
const volatile bool  emit_switch = false;
const volatile bool  emit_wakeup = false;
const volatile bool  emit_waking = false;
const volatile bool  emit_fork = false;
const volatile bool  emit_exec = false;
const volatile bool  emit_exit = false;
const volatile bool  emit_rename = false;
/* --stacks: which stacks to take with syscalls, switches and probes. */
const volatile bool  stacks_user = false;
const volatile bool  stacks_kernel = false;
const volatile __s64 nr_mmap = -1;
/* Wake the reader only once this much is queued; it polls on a timer anyway. */
const volatile __u64 wakeup_bytes = 1 << 20;

/* prev_state bits of a task that is gone after this switch (EXIT_DEAD, EXIT_ZOMBIE). */
#define SEISMO_TASK_REPORT_DEAD 0x30

struct {
  __uint (type, BPF_MAP_TYPE_RINGBUF);
  __uint (max_entries, 16 << 20);          /* resized from buffer_kb before loading */
} events SEC(".maps");

/* --stacks: the frames, by id (struct seismo_ebpf_stack_tail). Resized by user space (1 entry
 * when no stacks are asked). */
struct {
  __uint (type, BPF_MAP_TYPE_STACK_TRACE);
  __uint (max_entries, 16384);
  __type (key, __u32);
  __uint (value_size, SEISMO_EBPF_STACK_DEPTH * sizeof (__u64));
} stack_traces SEC(".maps");

/* Events lost to a full ring buffer (or a full threads map), per CPU: reported as lost events. */
struct {
  __uint (type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint (max_entries, 1);
  __type (key, __u32);
  __type (value, __u64);
} drops SEC(".maps");

/* Threads being recorded (unless system-wide): the target's and, with follow_children, those of
 * every descendant, added at fork and removed at their last switch. */
struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, 65536);
  __uint (map_flags, BPF_F_NO_PREALLOC);
  __type (key, __u32);
  __type (value, __u8);
} targets SEC(".maps");

/* Aggregation mode: per-thread syscall state and counts (struct seismo_ebpf_thread). */
struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, 32768);
  __type (key, __u32);
  __type (value, struct seismo_ebpf_thread);
} threads SEC(".maps");

/* Record mode: the syscall in progress and the batch being staged, per CPU (see struct
 * seismo_ebpf_cpu_state for how enter and exit meet without a hash map). */
struct {
  __uint (type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint (max_entries, 1);
  __type (key, __u32);
  __type (value, struct seismo_ebpf_cpu_state);
} cpu_states SEC(".maps");

/* Record mode: the syscall in progress of a thread that was switched out inside it, by tid
 * (hdr.time_ns 0: none any more). Entries stay until the thread exits and are reused. */
struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, 16384);
  __type (key, __u32);
  __type (value, struct seismo_ebpf_syscall_slot);
} spilled SEC(".maps");

/* How many spilled entries hold a syscall in progress: while none does, a sys_exit that finds
 * no record on its CPU (every syscall of the system not recorded) skips the hash lookup. */
__u64 n_spilled = 0;

/* Aggregation mode. */
struct {
  __uint (type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint (max_entries, SEISMO_EBPF_MAX_SYSCALLS);
  __type (key, __u32);
  __type (value, struct seismo_ebpf_syscall_stats);
} syscall_stats SEC(".maps");

struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, 10240);
  __type (key, struct seismo_ebpf_comm_key);
  __type (value, __u64);
} comm_counts SEC(".maps");

/* Counts model events lost: a syscall record would have become an enter and an exit. */
static __always_inline void
count_drop (__u64 events)
{
  __u32 zero = 0;
  __u64 *n = bpf_map_lookup_elem (&drops, &zero);

  if (n)
    *n += events;
}

/*
 * Fills a stack tail for the current task: ids into stack_traces, and the words on top of the
 * user stack when uregs are its user registers (NULL: none). ctx is the program's context.
 */
static __always_inline void
fill_stack_tail (void                          *ctx,
                 struct seismo_ebpf_stack_tail *t,
                 __u64                          user_sp,
                 __u64                          user_bp)
{
  t->user_stack_id = stacks_user ? bpf_get_stackid (ctx, &stack_traces, BPF_F_USER_STACK) : -1;
  t->kernel_stack_id = stacks_kernel ? bpf_get_stackid (ctx, &stack_traces, 0) : -1;
  t->n_words = 0;
  t->pad = 0;
  t->sp = user_sp;
  t->bp = user_bp;
  if (!stacks_user || user_sp == 0)
    return;
  if (bpf_probe_read_user (t->words, sizeof t->words, (const void *) user_sp) == 0)
    t->n_words = SEISMO_EBPF_STACK_WORDS;
}

/* fill_stack_tail() for a syscall enter, with the words from this CPU's cache when the thread
 * calls again from the same place (struct seismo_ebpf_words_cache). */
static __always_inline void
fill_stack_tail_cached (void                           *ctx,
                        struct seismo_ebpf_stack_tail  *t,
                        const struct pt_regs           *regs,
                        struct seismo_ebpf_words_cache *c,
                        __s32                           tid)
{
  __u64 ip = regs->ip, sp = regs->sp, bp = regs->bp;

  t->user_stack_id = stacks_user ? bpf_get_stackid (ctx, &stack_traces, BPF_F_USER_STACK) : -1;
  t->kernel_stack_id = stacks_kernel ? bpf_get_stackid (ctx, &stack_traces, 0) : -1;
  t->n_words = 0;
  t->pad = 0;
  t->sp = sp;
  t->bp = bp;
  if (!stacks_user || sp == 0)
    return;
  if (c->tid == tid && c->ip == ip && c->sp == sp && c->bp == bp &&
      c->user_stack_id == t->user_stack_id && t->user_stack_id >= 0)
    {
      __builtin_memcpy (t->words, c->words, sizeof t->words);
      t->n_words = c->n_words;
      return;
    }
  if (bpf_probe_read_user (t->words, sizeof t->words, (const void *) sp) == 0)
    t->n_words = SEISMO_EBPF_STACK_WORDS;
  c->tid = tid;
  c->user_stack_id = t->user_stack_id;
  c->ip = ip;
  c->sp = sp;
  c->bp = bp;
  c->n_words = t->n_words;
  __builtin_memcpy (c->words, t->words, sizeof c->words);
}

/* The current task's user registers, saved at the top of its kernel stack (x86-64: THREAD_SIZE
 * 16 KiB, no padding), for programs whose context is not them (sched_switch). */
static __always_inline const struct pt_regs *
current_user_regs (void)
{
  struct task_struct *task = (struct task_struct *) bpf_get_current_task ();
  char *stack = BPF_CORE_READ (task, stack);

  if (!stack)
    return NULL;
  return (const struct pt_regs *) (stack + 16384 - bpf_core_type_size (struct pt_regs));
}

/*
 * --stacks user: the process exec'd or mapped code. User space reads /proc/PID/maps at once, while
 * the process surely lives (its records may reach user space after it exited), so the frames of
 * short-lived processes can be named: sent alone and waking the reader.
 */
static __always_inline void
notify_maps_changed (__u64 pid_tgid)
{
  struct seismo_ebpf_header hdr;

  if (!stacks_user)
    return;
  hdr.time_ns = bpf_ktime_get_ns ();
  hdr.kind = SEISMO_EBPF_REC_MAPS_CHANGED;
  hdr.cpu = bpf_get_smp_processor_id ();
  hdr.tid = (__s32) pid_tgid;
  hdr.pid = pid_tgid >> 32;
  bpf_ringbuf_output (&events, &hdr, sizeof hdr, BPF_RB_FORCE_WAKEUP);
}

static __always_inline __u64
submit_flags (void)
{
  return bpf_ringbuf_query (&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes
         ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline bool
tid_is_target (__u32 tid)
{
  return bpf_map_lookup_elem (&targets, &tid) != NULL;
}

static __always_inline bool
current_is_target (__u64 pid_tgid)
{
  __s32 tgid = pid_tgid >> 32;

  if (system_wide)
    return tgid != self_tgid;
  if (target_tgid != 0 && tgid == target_tgid)
    return true;
  return tid_is_target ((__u32) pid_tgid);
}

static __always_inline void
fill_header (struct seismo_ebpf_header *hdr,
             __u32                      kind,
             __u64                      time_ns,
             __u64                      pid_tgid)
{
  hdr->time_ns = time_ns;
  hdr->kind = kind;
  hdr->cpu = bpf_get_smp_processor_id ();
  hdr->tid = (__s32) pid_tgid;
  hdr->pid = pid_tgid >> 32;
}

static __always_inline bool
syscall_selected (long id)
{
  if (!filter_syscalls)
    return true;
  if (id < 0 || id >= SEISMO_EBPF_MAX_SYSCALLS)
    return false;
  return (syscall_filter[(__u64) id / 64] >> ((__u64) id % 64)) & 1;
}

static __always_inline __u64
log2_bucket (__u64 v)
{
  __u64 r = 0, shift;

  if (v == 0)
    return 0;
  shift = (v > 0xffffffffULL) << 5; v >>= shift; r |= shift;
  shift = (v > 0xffff) << 4;        v >>= shift; r |= shift;
  shift = (v > 0xff) << 3;          v >>= shift; r |= shift;
  shift = (v > 0xf) << 2;           v >>= shift; r |= shift;
  shift = (v > 0x3) << 1;           v >>= shift; r |= shift;
  r |= (v >> 1);
  return r + 1;
}

/* The calling thread's aggregation state, created at its first syscall; NULL when full. */
static __always_inline struct seismo_ebpf_thread *
current_thread (__u32 tid)
{
  struct seismo_ebpf_thread *t = bpf_map_lookup_elem (&threads, &tid);

  if (t)
    return t;
  {
    struct seismo_ebpf_thread blank = {};

    bpf_get_current_comm (blank.comm, sizeof blank.comm);
    bpf_map_update_elem (&threads, &tid, &blank, BPF_NOEXIST);
  }
  return bpf_map_lookup_elem (&threads, &tid);
}

/* Adds a thread's syscall count to its command name's, e.g. before exec renames it. */
static __always_inline void
flush_calls (struct seismo_ebpf_thread *t)
{
  struct seismo_ebpf_comm_key key;
  __u64 *count;

  if (t->calls == 0)
    return;
  __builtin_memcpy (key.comm, t->comm, sizeof key.comm);
  count = bpf_map_lookup_elem (&comm_counts, &key);
  if (count)
    {
      __sync_fetch_and_add (count, t->calls);
    }
  else if (bpf_map_update_elem (&comm_counts, &key, &t->calls, BPF_NOEXIST) != 0)
    {
      /* Someone else created it meanwhile. */
      count = bpf_map_lookup_elem (&comm_counts, &key);
      if (count)
        __sync_fetch_and_add (count, t->calls);
    }
  t->calls = 0;
}

static __always_inline struct seismo_ebpf_syscall_stats *
syscall_stats_of (__s64 id)
{
  __u32 slot = id;

  if (id < 0 || id >= SEISMO_EBPF_MAX_SYSCALLS)
    return NULL;
  return bpf_map_lookup_elem (&syscall_stats, &slot);
}

/* Aggregation mode: counts the call, and times it unless it never returns. */
static __always_inline void
aggregate_enter (__u32 tid,
                 long  id)
{
  struct seismo_ebpf_thread *t = current_thread (tid);

  if (!t)
    return;
  t->calls += 1;
  t->id = id;
  if (id == nr_exit || id == nr_exit_group)
    {
      struct seismo_ebpf_syscall_stats *stats = syscall_stats_of (id);

      if (stats)
        stats->calls += 1;
      t->start_ns = 0;
      return;
    }
  t->start_ns = bpf_ktime_get_ns ();
}

static __always_inline void
aggregate_exit (__u32 tid)
{
  struct seismo_ebpf_thread *t = bpf_map_lookup_elem (&threads, &tid);
  struct seismo_ebpf_syscall_stats *stats;
  __u64 latency, bucket;

  /* Every syscall of the system comes here: the clock is read only for ours. */
  if (!t || t->start_ns == 0)
    return;
  latency = bpf_ktime_get_ns () - t->start_ns;
  t->start_ns = 0;
  stats = syscall_stats_of (t->id);
  if (!stats)
    return;
  bucket = log2_bucket (latency);
  if (bucket >= SEISMO_EBPF_HIST_BUCKETS)
    bucket = SEISMO_EBPF_HIST_BUCKETS - 1;
  stats->buckets[bucket] += 1;
  stats->latency_sum_ns += latency;
  stats->calls += 1;
}

static __always_inline void
emit_enter_only (__u64                     pid_tgid,
                 long                      id,
                 const struct pt_regs     *regs)
{
  struct seismo_ebpf_syscall *r;

  r = bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return;
    }
  fill_header (&r->hdr, SEISMO_EBPF_REC_SYSCALL, bpf_ktime_get_ns (), pid_tgid);
  r->id = id;
  r->args[0] = regs->di;
  r->args[1] = regs->si;
  r->args[2] = regs->dx;
  r->args[3] = regs->r10;
  r->args[4] = regs->r8;
  r->args[5] = regs->r9;
  r->ret = 0;
  r->duration_ns = 0;
  r->exit_cpu = r->hdr.cpu;
  r->flags = SEISMO_EBPF_SYSCALL_NO_EXIT;
  bpf_ringbuf_submit (r, submit_flags ());
}

/* Sends the staged records to the ring buffer; they count as lost when it is full. */
static __always_inline void
batch_flush (struct seismo_ebpf_batch *b)
{
  /* 64 bits: a 32-bit length gets zero-extended into a copy the bound below does not cover. */
  __u64 len = b->len;

  if (len > SEISMO_EBPF_BATCH_BYTES)
    len = SEISMO_EBPF_BATCH_BYTES;
  b->hdr.kind = SEISMO_EBPF_REC_BATCH;
  if (b->count != 0
      && bpf_ringbuf_output (&events, b, __builtin_offsetof (struct seismo_ebpf_batch, data) + len,
                             submit_flags ()) != 0)
    count_drop (2 * (__u64) b->count);   /* an enter and an exit each */
  b->len = 0;
  b->count = 0;
}

/* The batch's tail, batch.data + len, where a syscall in progress is. NULL only when there is no
 * room for the largest record, which batch_tail() never leaves (and for the verifier). */
static __always_inline struct seismo_ebpf_syscall_path *
batch_at_tail (struct seismo_ebpf_batch *b)
{
  __u64 len = b->len;

  if (len > SEISMO_EBPF_BATCH_BYTES - sizeof (struct seismo_ebpf_syscall_slot))
    return NULL;
  return (struct seismo_ebpf_syscall_path *) (b->data + len);
}

/* Where the next record goes: the tail, after sending the batch when the largest record would
 * not fit behind it. */
static __always_inline struct seismo_ebpf_syscall_path *
batch_tail (struct seismo_ebpf_batch *b)
{
  if (b->len > SEISMO_EBPF_BATCH_BYTES - sizeof (struct seismo_ebpf_syscall_slot))
    batch_flush (b);
  return batch_at_tail (b);
}

/* Moves the syscall in progress at this CPU's batch tail to the spilled map, under its thread. */
static __always_inline void
spill (struct seismo_ebpf_cpu_state *st)
{
  struct seismo_ebpf_syscall_path *r;
  struct seismo_ebpf_syscall_slot *sp;
  __u32 tid = st->tid;

  if (st->size == 0)
    return;
  st->size = 0;
  r = batch_at_tail (&st->batch);
  if (!r)
    return;
  sp = bpf_map_lookup_elem (&spilled, &tid);
  if (sp)
    {
      bool was_free = sp->rec.sc.hdr.time_ns == 0;

      __builtin_memcpy (sp, r, sizeof *sp);
      if (!was_free)
        return;
    }
  else if (bpf_map_update_elem (&spilled, &tid, r, BPF_NOEXIST) != 0)
    {
      count_drop (2);
      return;
    }
  __sync_fetch_and_add (&n_spilled, 1);
}

/* Commits the record at the batch's tail, completed by its exit at time now. */
static __always_inline void
batch_commit (struct seismo_ebpf_batch    *b,
              struct seismo_ebpf_syscall  *r,
              __u32                        size,
              long                         ret,
              __u64                        now)
{
  r->ret = ret;
  r->duration_ns = now - r->hdr.time_ns;
  r->exit_cpu = bpf_get_smp_processor_id ();
  /* PROT_EXEC: code mapped (the loader, dlopen). */
  if (stacks_user && r->id == nr_mmap && (r->args[2] & 4) && ret >= 0)
    notify_maps_changed (((__u64) r->hdr.pid << 32) | (__u32) r->hdr.tid);
  if (b->count == 0)
    b->hdr.time_ns = now;
  b->len += size;
  b->count += 1;
  if (now - b->hdr.time_ns >= SEISMO_EBPF_BATCH_MAX_NS)
    batch_flush (b);
}

/*
 * A thread switched out inside a syscall: its record moves from this CPU's batch to the spilled
 * map, since another thread may run a syscall here before it returns (or it may return on another
 * CPU). It is always prev's: no other thread ran here since the enter that staged it. BTF-typed so
 * that no other BPF program running on this CPU (bpf_prog_active) can make it skip, and first in
 * this file so that the skeleton attaches it before the syscall programs.
 */
SEC ("tp_btf/sched_switch")
int
BPF_PROG (seismo_spill)
{
  __u32 zero = 0;
  struct seismo_ebpf_cpu_state *st = bpf_map_lookup_elem (&cpu_states, &zero);

  if (st)
    spill (st);
  return 0;
}

/*
 * Raw syscalls use BTF-typed raw tracepoints (tp_btf): they are called directly from the
 * tracepoint site with the kernel's own arguments, without the classic tracepoint's perf
 * buffer copy, which matters on a path taken for every syscall of the system.
 */
SEC ("tp_btf/sys_enter")
int
BPF_PROG (seismo_sys_enter, struct pt_regs *regs, long id)
{
  __u64 pid_tgid = bpf_get_current_pid_tgid ();
  struct seismo_ebpf_cpu_state *st;
  struct seismo_ebpf_syscall_path *r;
  __u32 zero = 0;
  __u8 path_index;

  if (!current_is_target (pid_tgid) || !syscall_selected (id))
    return 0;
  if (aggregate)
    {
      aggregate_enter ((__u32) pid_tgid, id);
      return 0;
    }
  if (id == nr_exit || id == nr_exit_group)
    {
      emit_enter_only (pid_tgid, id, regs);
      return 0;
    }

  st = bpf_map_lookup_elem (&cpu_states, &zero);
  if (!st)
    return 0;
  /* A record left by a thread switched out unseen (while the programs were being attached). */
  spill (st);
  r = batch_tail (&st->batch);
  if (!r)
    return 0;

  r->sc.hdr.kind = SEISMO_EBPF_REC_SYSCALL;
  r->sc.hdr.cpu = bpf_get_smp_processor_id ();
  r->sc.hdr.tid = (__s32) pid_tgid;
  r->sc.hdr.pid = pid_tgid >> 32;
  r->sc.id = id;
  r->sc.args[0] = regs->di;
  r->sc.args[1] = regs->si;
  r->sc.args[2] = regs->dx;
  r->sc.args[3] = regs->r10;
  r->sc.args[4] = regs->r8;
  r->sc.args[5] = regs->r9;
  r->sc.flags = 0;

  /* File syscalls: the path, copied now while the caller's memory surely holds it. */
  path_index = (id >= 0 && id < SEISMO_EBPF_MAX_SYSCALLS) ? path_arg[id] : 0;
  if (path_index >= 1 && path_index <= SEISMO_EBPF_MAX_ARGS)
    {
      const void *ptr = (const void *) r->sc.args[0];
      long n;

      if (path_index == 2)
        ptr = (const void *) r->sc.args[1];
      else if (path_index == 3)
        ptr = (const void *) r->sc.args[2];
      else if (path_index == 4)
        ptr = (const void *) r->sc.args[3];
      else if (path_index == 5)
        ptr = (const void *) r->sc.args[4];
      else if (path_index == 6)
        ptr = (const void *) r->sc.args[5];
      n = bpf_probe_read_user_str (r->path, sizeof r->path, ptr);
      if (n < 0)
        {
          r->path[0] = '\0';
          r->sc.flags = SEISMO_EBPF_PATH_FAULT;
        }
      else if (n == sizeof r->path)
        {
          r->sc.flags = SEISMO_EBPF_PATH_TRUNCATED;
        }
      r->sc.hdr.kind = SEISMO_EBPF_REC_SYSCALL_PATH;
      st->size = sizeof (struct seismo_ebpf_syscall_path);
    }
  else
    {
      st->size = sizeof (struct seismo_ebpf_syscall);
    }
  if (stacks_user || stacks_kernel)
    {
      /* Behind the record; batch_tail() left room for the largest record and its tail. */
      __u64 off = (__u64) st->batch.len + st->size;

      if (off <= SEISMO_EBPF_BATCH_BYTES - sizeof (struct seismo_ebpf_stack_tail))
        {
          fill_stack_tail_cached (ctx, (struct seismo_ebpf_stack_tail *) (st->batch.data + off),
                                  regs, &st->words, (__s32) pid_tgid);
          r->sc.flags |= SEISMO_EBPF_SYSCALL_STACK;
          st->size += sizeof (struct seismo_ebpf_stack_tail);
        }
    }
  st->tid = (__s32) pid_tgid;
  /* Last, so the time excludes our own work. */
  r->sc.hdr.time_ns = bpf_ktime_get_ns ();
  return 0;
}

/* A syscall whose thread was switched out after its enter: its record comes back from the
 * spilled map to this CPU's batch. */
static __always_inline void
exit_spilled (struct seismo_ebpf_cpu_state *st,
              __u32                         tid,
              long                          ret)
{
  struct seismo_ebpf_syscall_slot *sp = bpf_map_lookup_elem (&spilled, &tid);
  struct seismo_ebpf_syscall_path *r;
  __u32 size;
  __u64 now;

  if (!sp || sp->rec.sc.hdr.time_ns == 0)
    return;
  now = bpf_ktime_get_ns ();
  spill (st);
  r = batch_tail (&st->batch);
  if (r)
    {
      size = sp->rec.sc.hdr.kind == SEISMO_EBPF_REC_SYSCALL_PATH
             ? sizeof (struct seismo_ebpf_syscall_path) : sizeof (struct seismo_ebpf_syscall);
      if (sp->rec.sc.flags & SEISMO_EBPF_SYSCALL_STACK)
        size += sizeof (struct seismo_ebpf_stack_tail);
      /* The whole slot: the stack tail sits right behind the record, whichever it is. */
      __builtin_memcpy (r, sp, sizeof *sp);
      if (sp->rec.sc.hdr.kind == SEISMO_EBPF_REC_SYSCALL_PATH)
        r->path[sizeof r->path - 1] = '\0';
      batch_commit (&st->batch, &r->sc, size, ret, now);
    }
  sp->rec.sc.hdr.time_ns = 0;
  __sync_fetch_and_add (&n_spilled, -1);
}

SEC ("tp_btf/sys_exit")
int
BPF_PROG (seismo_sys_exit, struct pt_regs *regs, long ret)
{
  __u64 pid_tgid = bpf_get_current_pid_tgid ();
  __u32 tid = (__u32) pid_tgid;
  struct seismo_ebpf_cpu_state *st;
  struct seismo_ebpf_syscall_path *r;
  __u32 zero = 0;
  __u32 size;

  if (aggregate)
    {
      aggregate_exit (tid);
      return 0;
    }

  /* Every syscall of the system comes here: the common case of ours is the record this CPU's
   * enter left at the batch's tail; others return before reading the clock. */
  st = bpf_map_lookup_elem (&cpu_states, &zero);
  if (!st)
    return 0;
  size = st->size;
  if (size == 0 || st->tid != (__s32) tid)
    {
      if (n_spilled != 0)
        exit_spilled (st, tid, ret);
      return 0;
    }
  st->size = 0;
  r = batch_at_tail (&st->batch);
  if (!r)
    return 0;
  if (size > sizeof (struct seismo_ebpf_syscall_slot))
    return 0;
  batch_commit (&st->batch, &r->sc, size, ret, bpf_ktime_get_ns ());
  return 0;
}

SEC ("tracepoint/sched/sched_switch")
int
seismo_sched_switch (struct seismo_tp_sched_switch *ctx)
{
  bool prev_target = system_wide || tid_is_target (ctx->prev_pid);
  struct seismo_ebpf_sched_switch *r;

  if (!prev_target && !tid_is_target (ctx->next_pid))
    return 0;

  if (emit_switch)
    {
      /* With --stacks, the stack of the task switched out: where it waits. (The size must be a
       * constant for the verifier: a switch of another task carries an empty tail.) */
      bool stack = stacks_user || stacks_kernel;

      r = stack ? bpf_ringbuf_reserve (&events, sizeof *r + sizeof (struct seismo_ebpf_stack_tail), 0)
                : bpf_ringbuf_reserve (&events, sizeof *r, 0);
      if (r)
        {
          fill_header (&r->hdr, stack ? SEISMO_EBPF_REC_SCHED_SWITCH_STACK
                                      : SEISMO_EBPF_REC_SCHED_SWITCH, bpf_ktime_get_ns (),
                       bpf_get_current_pid_tgid ());
          if (stack)
            {
              struct seismo_ebpf_stack_tail *t = (struct seismo_ebpf_stack_tail *) (r + 1);

              if (prev_target)
                {
                  const struct pt_regs *uregs = stacks_user ? current_user_regs () : NULL;

                  fill_stack_tail (ctx, t, uregs ? BPF_CORE_READ (uregs, sp) : 0,
                                   uregs ? BPF_CORE_READ (uregs, bp) : 0);
                }
              else
                {
                  t->user_stack_id = -1;
                  t->kernel_stack_id = -1;
                  t->n_words = 0;
                  t->pad = 0;
                  t->sp = 0;
                  t->bp = 0;
                }
            }
          __builtin_memcpy (r->prev_comm, ctx->prev_comm, sizeof r->prev_comm);
          __builtin_memcpy (r->next_comm, ctx->next_comm, sizeof r->next_comm);
          r->prev_state = ctx->prev_state;
          r->prev_pid = ctx->prev_pid;
          r->prev_prio = ctx->prev_prio;
          r->next_pid = ctx->next_pid;
          r->next_prio = ctx->next_prio;
          bpf_ringbuf_submit (r, submit_flags ());
        }
      else
        {
          count_drop (1);
        }
    }

  /* A dead task's last switch: it will never run again, and its tid may be reused. */
  if (!system_wide && prev_target && (ctx->prev_state & SEISMO_TASK_REPORT_DEAD))
    {
      __u32 tid = ctx->prev_pid;

      bpf_map_delete_elem (&targets, &tid);
    }
  return 0;
}

static __always_inline int
handle_wakeup (struct seismo_tp_sched_wakeup *ctx,
               __u32                          kind)
{
  struct seismo_ebpf_sched_wakeup *r;

  if (!system_wide && !tid_is_target (ctx->pid))
    return 0;
  r = bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return 0;
    }
  fill_header (&r->hdr, kind, bpf_ktime_get_ns (), bpf_get_current_pid_tgid ());
  __builtin_memcpy (r->comm, ctx->comm, sizeof r->comm);
  r->pid = ctx->pid;
  r->prio = ctx->prio;
  r->target_cpu = ctx->target_cpu;
  r->pad = 0;
  bpf_ringbuf_submit (r, submit_flags ());
  return 0;
}

SEC ("tracepoint/sched/sched_wakeup")
int
seismo_sched_wakeup (struct seismo_tp_sched_wakeup *ctx)
{
  return handle_wakeup (ctx, SEISMO_EBPF_REC_SCHED_WAKEUP);
}

SEC ("tracepoint/sched/sched_waking")
int
seismo_sched_waking (struct seismo_tp_sched_wakeup *ctx)
{
  return handle_wakeup (ctx, SEISMO_EBPF_REC_SCHED_WAKING);
}

/*
 * Fork uses the BTF-typed tracepoint: the classic one's layout changed (comm became __data_loc),
 * and we need the child's thread group and parent process, which only task_struct has.
 */
SEC ("tp_btf/sched_process_fork")
int
BPF_PROG (seismo_fork, struct task_struct *parent, struct task_struct *child)
{
  __s32 parent_tid = parent->pid;
  __s32 parent_tgid = parent->tgid;
  __u32 child_tid = child->pid;
  __s32 child_tgid = child->tgid;
  struct seismo_ebpf_fork *r;

  if (!system_wide)
    {
      bool parent_target = (target_tgid != 0 && parent_tgid == target_tgid)
                           || tid_is_target (parent_tid);
      __u8 one = 1;

      if (!parent_target)
        return 0;
      /* Threads of a target always belong to it; new processes only when following children. */
      if (follow_children || child_tgid == parent_tgid)
        bpf_map_update_elem (&targets, &child_tid, &one, BPF_ANY);
      else
        return 0;
    }

  if (!emit_fork)
    return 0;
  r = bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return 0;
    }
  fill_header (&r->hdr, SEISMO_EBPF_REC_FORK, bpf_ktime_get_ns (), bpf_get_current_pid_tgid ());
  BPF_CORE_READ_STR_INTO (&r->parent_comm, parent, comm);
  BPF_CORE_READ_STR_INTO (&r->child_comm, child, comm);
  r->parent_pid = parent_tid;
  r->child_pid = child_tid;
  r->child_tgid = child_tgid;
  r->child_ppid = BPF_CORE_READ (child, real_parent, tgid);
  bpf_ringbuf_submit (r, submit_flags ());
  return 0;
}

SEC ("tracepoint/sched/sched_process_exec")
int
seismo_exec (struct seismo_tp_sched_process_exec *ctx)
{
  __u64 pid_tgid = bpf_get_current_pid_tgid ();
  struct task_struct *task;
  struct seismo_ebpf_exec *r;
  long n;

  if (!current_is_target (pid_tgid))
    return 0;
  if (aggregate)
    {
      __u32 tid = (__u32) pid_tgid;
      struct seismo_ebpf_thread *t = bpf_map_lookup_elem (&threads, &tid);

      /* Calls so far count under the old name. */
      if (t)
        {
          flush_calls (t);
          bpf_get_current_comm (t->comm, sizeof t->comm);
        }
      return 0;
    }
  notify_maps_changed (pid_tgid);
  if (!emit_exec)
    return 0;
  r = bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return 0;
    }
  fill_header (&r->hdr, SEISMO_EBPF_REC_EXEC, bpf_ktime_get_ns (), pid_tgid);
  bpf_get_current_comm (r->comm, sizeof r->comm);
  r->old_pid = ctx->old_pid;
  task = (struct task_struct *) bpf_get_current_task ();
  r->ppid = BPF_CORE_READ (task, real_parent, tgid);
  r->pad = 0;
  n = bpf_probe_read_kernel_str (r->filename, sizeof r->filename,
                                 (void *) ctx + (ctx->filename_loc & 0xffff));
  r->flags = n == sizeof r->filename ? SEISMO_EBPF_PATH_TRUNCATED : 0;
  if (n < 0)
    r->filename[0] = '\0';
  bpf_ringbuf_submit (r, submit_flags ());
  return 0;
}

SEC ("tracepoint/sched/sched_process_exit")
int
seismo_exit (struct seismo_tp_sched_process_exit *ctx)
{
  __u64 pid_tgid = bpf_get_current_pid_tgid ();
  __u32 tid = (__u32) pid_tgid;
  bool target = current_is_target (pid_tgid);
  struct seismo_ebpf_exit *r;

  if (aggregate)
    {
      struct seismo_ebpf_thread *t = bpf_map_lookup_elem (&threads, &tid);

      if (t)
        {
          flush_calls (t);
          bpf_map_delete_elem (&threads, &tid);
        }
    }
  else
    {
      struct seismo_ebpf_syscall_slot *sp = bpf_map_lookup_elem (&spilled, &tid);

      if (sp)
        {
          if (sp->rec.sc.hdr.time_ns != 0)
            __sync_fetch_and_add (&n_spilled, -1);
          bpf_map_delete_elem (&spilled, &tid);
        }
    }
  /* Without switch records nobody sees its last switch: forget the thread now. */
  if (!system_wide && !emit_switch)
    bpf_map_delete_elem (&targets, &tid);

  if (!emit_exit || !target)
    return 0;
  r = bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return 0;
    }
  fill_header (&r->hdr, SEISMO_EBPF_REC_EXIT, bpf_ktime_get_ns (), pid_tgid);
  __builtin_memcpy (r->comm, ctx->comm, sizeof r->comm);
  r->pid = ctx->pid;
  r->prio = ctx->prio;
  bpf_ringbuf_submit (r, submit_flags ());
  return 0;
}

SEC ("tracepoint/task/task_rename")
int
seismo_rename (struct seismo_tp_task_rename *ctx)
{
  struct seismo_ebpf_rename *r;

  if (!emit_rename || (!system_wide && !tid_is_target (ctx->pid)))
    return 0;
  r = bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return 0;
    }
  fill_header (&r->hdr, SEISMO_EBPF_REC_RENAME, bpf_ktime_get_ns (), bpf_get_current_pid_tgid ());
  __builtin_memcpy (r->oldcomm, ctx->oldcomm, sizeof r->oldcomm);
  __builtin_memcpy (r->newcomm, ctx->newcomm, sizeof r->newcomm);
  r->pid = ctx->pid;
  r->pad = 0;
  bpf_ringbuf_submit (r, submit_flags ());
  return 0;
}

static __always_inline int
emit_probe (void                 *ctx,
            const struct pt_regs *uregs,
            __u64 cookie,
            __u32 flags,
            __u32 n_args,
            __u64 a0, __u64 a1, __u64 a2, __u64 a3, __u64 a4, __u64 a5)
{
  __u64 pid_tgid = bpf_get_current_pid_tgid ();
  struct seismo_ebpf_probe *r;

  bool stack = stacks_user || stacks_kernel;

  if (!current_is_target (pid_tgid))
    return 0;
  r = stack ? bpf_ringbuf_reserve (&events, sizeof *r + sizeof (struct seismo_ebpf_stack_tail), 0)
            : bpf_ringbuf_reserve (&events, sizeof *r, 0);
  if (!r)
    {
      count_drop (1);
      return 0;
    }
  fill_header (&r->hdr, stack ? SEISMO_EBPF_REC_PROBE_STACK : SEISMO_EBPF_REC_PROBE,
               bpf_ktime_get_ns (), pid_tgid);
  if (stack)
    fill_stack_tail (ctx, (struct seismo_ebpf_stack_tail *) (r + 1), uregs ? uregs->sp : 0,
                     uregs ? uregs->bp : 0);
  r->probe = cookie;
  r->flags = flags;
  r->n_args = n_args;
  r->pad = 0;
  r->args[0] = a0;
  r->args[1] = a1;
  r->args[2] = a2;
  r->args[3] = a3;
  r->args[4] = a4;
  r->args[5] = a5;
  bpf_ringbuf_submit (r, submit_flags ());
  return 0;
}

/* Custom probes: one program per flavour, attached once per --probe with its index as cookie.
 * Kernel functions and user functions share the x86-64 argument registers. */
SEC ("kprobe")
int
seismo_probe_entry (struct pt_regs *ctx)
{
  /* A uprobe's registers are the user's; a kprobe's are the kernel's. */
  return emit_probe (ctx, ctx->sp < 0xffff800000000000UL ? ctx : NULL,
                     bpf_get_attach_cookie (ctx), 0, SEISMO_EBPF_MAX_ARGS,
                     ctx->di, ctx->si, ctx->dx, ctx->cx, ctx->r8, ctx->r9);
}

SEC ("kretprobe")
int
seismo_probe_return (struct pt_regs *ctx)
{
  return emit_probe (ctx, NULL, bpf_get_attach_cookie (ctx), SEISMO_EBPF_PROBE_RETURN, 1,
                     ctx->ax, 0, 0, 0, 0, 0);
}

SEC ("usdt")
int
seismo_probe_usdt (struct pt_regs *ctx)
{
  long v[SEISMO_EBPF_MAX_ARGS] = { 0 };
  int n = bpf_usdt_arg_cnt (ctx);

  if (n < 0)
    n = 0;
  if (n > SEISMO_EBPF_MAX_ARGS)
    n = SEISMO_EBPF_MAX_ARGS;
  for (int i = 0; i < SEISMO_EBPF_MAX_ARGS; i++)
    if (i < n && bpf_usdt_arg (ctx, i, &v[i]) != 0)
      v[i] = 0;
  return emit_probe (ctx, ctx, bpf_usdt_cookie (ctx), 0, n, v[0], v[1], v[2], v[3], v[4], v[5]);
}

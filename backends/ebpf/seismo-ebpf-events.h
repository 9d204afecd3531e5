/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Records the BPF programs (seismo-ebpf.bpf.c) send to user space through the ring buffer, and
 * the aggregation maps user space reads at the end. Included by both sides, so only fixed-width
 * types and no padding the two compilers could lay out differently: every struct is a multiple of
 * 8 bytes with explicitly placed members, checked by the static asserts below.
 */

#ifdef __bpf__
typedef __u8  seismo_u8;
typedef __u16 seismo_u16;
typedef __u32 seismo_u32;
typedef __s32 seismo_s32;
typedef __u64 seismo_u64;
typedef __s64 seismo_s64;
#else
#include <stdint.h>
typedef uint8_t  seismo_u8;
typedef uint16_t seismo_u16;
typedef uint32_t seismo_u32;
typedef int32_t  seismo_s32;
typedef uint64_t seismo_u64;
typedef int64_t  seismo_s64;
#endif

#define SEISMO_EBPF_COMM_LEN      16
/* Paths copied from file syscalls and exec; longer ones are cut and flagged. */
#define SEISMO_EBPF_PATH_LEN      256
/* Syscall numbers below this have a bit in the filter and a slot in the histograms. */
#define SEISMO_EBPF_MAX_SYSCALLS  512
/* log2 latency buckets: bucket 0 holds 0 ns, bucket k holds [2^(k-1), 2^k). */
#define SEISMO_EBPF_HIST_BUCKETS  64
#define SEISMO_EBPF_MAX_ARGS      6
/* How many --probe specs one recording can attach. */
#define SEISMO_EBPF_MAX_PROBES    64
/* Syscall records are staged per CPU and sent this many bytes at a time (see struct
 * seismo_ebpf_batch); a batch still staged this long after its first record goes out anyway. */
#define SEISMO_EBPF_BATCH_BYTES   8192
#define SEISMO_EBPF_BATCH_MAX_NS  (50 * 1000 * 1000)

enum seismo_ebpf_record_kind {
  SEISMO_EBPF_REC_SYSCALL = 1,      /* struct seismo_ebpf_syscall */
  SEISMO_EBPF_REC_SYSCALL_PATH,     /* struct seismo_ebpf_syscall_path */
  SEISMO_EBPF_REC_SCHED_SWITCH,     /* struct seismo_ebpf_sched_switch */
  SEISMO_EBPF_REC_SCHED_WAKEUP,     /* struct seismo_ebpf_sched_wakeup */
  SEISMO_EBPF_REC_SCHED_WAKING,     /* struct seismo_ebpf_sched_wakeup */
  SEISMO_EBPF_REC_FORK,             /* struct seismo_ebpf_fork */
  SEISMO_EBPF_REC_EXEC,             /* struct seismo_ebpf_exec */
  SEISMO_EBPF_REC_EXIT,             /* struct seismo_ebpf_exit */
  SEISMO_EBPF_REC_RENAME,           /* struct seismo_ebpf_rename */
  SEISMO_EBPF_REC_PROBE,            /* struct seismo_ebpf_probe */
  SEISMO_EBPF_REC_BATCH,            /* struct seismo_ebpf_batch */
  SEISMO_EBPF_REC_SCHED_SWITCH_STACK, /* struct seismo_ebpf_sched_switch + seismo_ebpf_stack_tail */
  SEISMO_EBPF_REC_PROBE_STACK,      /* struct seismo_ebpf_probe + struct seismo_ebpf_stack_tail */
  SEISMO_EBPF_REC_MAPS_CHANGED,     /* struct seismo_ebpf_header: the process exec'd or mapped code */
};

/* Flags of a syscall record. */
#define SEISMO_EBPF_SYSCALL_NO_EXIT   (1u << 0)  /* exit/exit_group: only the enter happened */
#define SEISMO_EBPF_PATH_TRUNCATED    (1u << 1)  /* path longer than SEISMO_EBPF_PATH_LEN - 1 */
#define SEISMO_EBPF_PATH_FAULT        (1u << 2)  /* the path pointer could not be read */
#define SEISMO_EBPF_SYSCALL_STACK     (1u << 3)  /* a struct seismo_ebpf_stack_tail follows */

/* Deepest stack the stack map keeps (the kernel's perf_event_max_stack default). */
#define SEISMO_EBPF_STACK_DEPTH       127
/* Words copied from the top of the user stack (see struct seismo_ebpf_stack_tail). */
#define SEISMO_EBPF_STACK_WORDS       6

/* Flags of a probe record. */
#define SEISMO_EBPF_PROBE_RETURN      (1u << 0)  /* args[0] is the return value */

/* Every record starts with this. time_ns is bpf_ktime_get_ns() (CLOCK_MONOTONIC). */
struct seismo_ebpf_header {
  seismo_u64 time_ns;
  seismo_u32 kind;     /* enum seismo_ebpf_record_kind */
  seismo_u32 cpu;
  seismo_s32 tid;
  seismo_s32 pid;      /* thread group id */
};

/* One complete syscall: header.time_ns and header.cpu are those of the enter. */
struct seismo_ebpf_syscall {
  struct seismo_ebpf_header hdr;
  seismo_s64 id;
  seismo_u64 args[SEISMO_EBPF_MAX_ARGS];
  seismo_s64 ret;
  seismo_u64 duration_ns;
  seismo_u32 exit_cpu;
  seismo_u32 flags;
};

struct seismo_ebpf_syscall_path {
  struct seismo_ebpf_syscall sc;
  char path[SEISMO_EBPF_PATH_LEN];     /* NUL-terminated */
};

/* Fields as in the sched:sched_switch tracepoint; header.tid is prev_pid. */
struct seismo_ebpf_sched_switch {
  struct seismo_ebpf_header hdr;
  char       prev_comm[SEISMO_EBPF_COMM_LEN];
  char       next_comm[SEISMO_EBPF_COMM_LEN];
  seismo_s64 prev_state;
  seismo_s32 prev_pid;
  seismo_s32 prev_prio;
  seismo_s32 next_pid;
  seismo_s32 next_prio;
};

/* sched_wakeup and sched_waking; header.tid is the waker. */
struct seismo_ebpf_sched_wakeup {
  struct seismo_ebpf_header hdr;
  char       comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32 pid;
  seismo_s32 prio;
  seismo_s32 target_cpu;
  seismo_u32 pad;
};

/* A new task; header is the parent's. Thread ids as in sched:sched_process_fork. */
struct seismo_ebpf_fork {
  struct seismo_ebpf_header hdr;
  char       parent_comm[SEISMO_EBPF_COMM_LEN];
  char       child_comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32 parent_pid;
  seismo_s32 child_pid;
  seismo_s32 child_tgid;
  seismo_s32 child_ppid;   /* tgid of the child's real parent process */
};

/* header.tid is the task after exec (pid), comm its new name. */
struct seismo_ebpf_exec {
  struct seismo_ebpf_header hdr;
  char       comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32 old_pid;
  seismo_s32 ppid;
  seismo_u32 flags;        /* SEISMO_EBPF_PATH_TRUNCATED */
  seismo_u32 pad;
  char       filename[SEISMO_EBPF_PATH_LEN];
};

struct seismo_ebpf_exit {
  struct seismo_ebpf_header hdr;
  char       comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32 pid;
  seismo_s32 prio;
};

/* task:task_rename (prctl PR_SET_NAME, writes to /proc/PID/comm). */
struct seismo_ebpf_rename {
  struct seismo_ebpf_header hdr;
  char       oldcomm[SEISMO_EBPF_COMM_LEN];
  char       newcomm[SEISMO_EBPF_COMM_LEN];
  seismo_s32 pid;
  seismo_u32 pad;
};

/* A custom probe hit; probe is the index into the recording's --probe list. */
struct seismo_ebpf_probe {
  struct seismo_ebpf_header hdr;
  seismo_u32 probe;
  seismo_u32 flags;
  seismo_u32 n_args;
  seismo_u32 pad;
  seismo_u64 args[SEISMO_EBPF_MAX_ARGS];
};

/*
 * --stacks: follows a record that has a stack (SEISMO_EBPF_SYSCALL_STACK, the _STACK kinds). The
 * frames themselves are in the stack_traces map (bpf_get_stackid: the kernel dedups them, so a
 * loop's 1M identical stacks cost 1M ids, not 1M copies), read by user space by id.
 *
 * The kernel walks user stacks by frame pointers. A libc syscall wrapper keeps no frame, so the
 * walk skips the function that called it (write_file → write shows as do_io → write). The words
 * on top of the user stack hold those return addresses: user space keeps the ones that follow a
 * call instruction and lie below bp (inside the frames the walk skipped).
 */
struct seismo_ebpf_stack_tail {
  seismo_s32 user_stack_id;     /* < 0: none (not asked, or the error) */
  seismo_s32 kernel_stack_id;
  seismo_u32 n_words;           /* words[] read from sp; 0 when unreadable */
  seismo_u32 pad;
  seismo_u64 sp;
  seismo_u64 bp;
  seismo_u64 words[SEISMO_EBPF_STACK_WORDS];
};

/* The most a staged syscall record takes: a path record and its stack tail. */
struct seismo_ebpf_syscall_slot {
  struct seismo_ebpf_syscall_path rec;
  struct seismo_ebpf_stack_tail   tail_room;
};

/*
 * Syscall records (SEISMO_EBPF_REC_SYSCALL and _SYSCALL_PATH, back to back) staged in a per-CPU
 * map and sent to the ring buffer as one record. Every ring buffer reservation touches the
 * ring's lock, its two positions and a data page; on a kernel that flushes the TLB at every
 * syscall (page table isolation) that costs more than the rest of the program: paying it once
 * per batch instead of once per syscall more than halved the sys_exit program's cost (see
 * bench/ebpf-overhead.sh). hdr.time_ns is the first record's time (for the age limit); user
 * space reads what is still staged when recording stops.
 */
struct seismo_ebpf_batch {
  struct seismo_ebpf_header hdr;
  seismo_u32 len;      /* bytes of data in use */
  seismo_u32 count;    /* records in data */
  char       data[SEISMO_EBPF_BATCH_BYTES];
};

/*
 * Per-CPU state of the syscall programs (record mode). sys_enter writes the call's record straight
 * into the batch, at batch.data + batch.len, and notes whose it is; the matching sys_exit on the
 * same CPU only adds the return value and duration and commits it (len += size). So the common
 * call, one that is not switched out in between, touches no hash map and copies nothing. A thread
 * switched out inside its syscall takes its record along: the sched_switch program moves it to a
 * per-thread hash map (struct seismo_ebpf_syscall_path values), where its sys_exit, on whatever
 * CPU, finds it. Nothing else can run a syscall on this CPU between an enter and that switch, and
 * the kernel never runs one program twice at once on a CPU, so the state needs no lock. There is
 * always room for the largest record behind len.
 */
/* --stacks: the words last read from a user stack on this CPU. A loop's syscalls come from the
 * same place: same thread, instruction, stack and frame pointers and frame-pointer chain (stack
 * id) mean the same return addresses between sp and bp, so they are copied from here instead of
 * read from user memory again. (Two frameless callers of equal frame size between the same leaf
 * and the same framed function could be mistaken for each other: rare, and it costs a name.) */
struct seismo_ebpf_words_cache {
  seismo_s32 tid;
  seismo_s32 user_stack_id;
  seismo_u64 ip;
  seismo_u64 sp;
  seismo_u64 bp;
  seismo_u32 n_words;
  seismo_u32 pad;
  seismo_u64 words[SEISMO_EBPF_STACK_WORDS];
};

struct seismo_ebpf_cpu_state {
  seismo_s32 tid;      /* the thread whose syscall is in progress at batch.data + batch.len */
  seismo_u32 size;     /* that record's size; 0: none in progress */
  struct seismo_ebpf_batch batch;
  struct seismo_ebpf_words_cache words;
};

/*
 * Aggregation mode, per thread in a hash map keyed by tid, from a thread's first syscall to its
 * exit, updated in place: the start of the syscall in progress (0 when none) and the syscalls it
 * entered since they were last added to comm_counts. User space reads it back at the end for the
 * uncounted calls.
 */
struct seismo_ebpf_thread {
  seismo_u64 start_ns;
  seismo_s64 id;
  seismo_u64 calls;
  char       comm[SEISMO_EBPF_COMM_LEN];
};

/* Aggregation mode, per syscall number and CPU: log2 latency histogram, latency sum and calls
 * (those that never return, like exit_group, only count in calls). */
struct seismo_ebpf_syscall_stats {
  seismo_u64 buckets[SEISMO_EBPF_HIST_BUCKETS];
  seismo_u64 latency_sum_ns;
  seismo_u64 calls;
};

/* Aggregation mode: syscalls per command name (bpftrace's @[comm] = count()), added from the
 * per-thread counts when a thread execs or exits. */
struct seismo_ebpf_comm_key {
  char comm[SEISMO_EBPF_COMM_LEN];
};

_Static_assert (sizeof (struct seismo_ebpf_header) == 24, "header layout");
_Static_assert (sizeof (struct seismo_ebpf_syscall) == 104, "syscall layout");
_Static_assert (sizeof (struct seismo_ebpf_syscall_path) == 360, "syscall path layout");
_Static_assert (sizeof (struct seismo_ebpf_sched_switch) == 80, "sched_switch layout");
_Static_assert (sizeof (struct seismo_ebpf_sched_wakeup) == 56, "sched_wakeup layout");
_Static_assert (sizeof (struct seismo_ebpf_fork) == 72, "fork layout");
_Static_assert (sizeof (struct seismo_ebpf_exec) == 312, "exec layout");
_Static_assert (sizeof (struct seismo_ebpf_exit) == 48, "exit layout");
_Static_assert (sizeof (struct seismo_ebpf_rename) == 64, "rename layout");
_Static_assert (sizeof (struct seismo_ebpf_probe) == 88, "probe layout");
_Static_assert (sizeof (struct seismo_ebpf_stack_tail) == 80, "stack tail layout");
_Static_assert (sizeof (struct seismo_ebpf_syscall_slot) == 440, "syscall slot layout");
_Static_assert (sizeof (struct seismo_ebpf_batch) == 32 + SEISMO_EBPF_BATCH_BYTES,
                "batch layout");
_Static_assert (sizeof (struct seismo_ebpf_syscall) % 8 == 0
                && sizeof (struct seismo_ebpf_syscall_path) % 8 == 0,
                "batched records stay aligned");
_Static_assert (sizeof (struct seismo_ebpf_words_cache) == 88, "words cache layout");
_Static_assert (sizeof (struct seismo_ebpf_cpu_state) == 8 + sizeof (struct seismo_ebpf_batch)
                                                         + sizeof (struct seismo_ebpf_words_cache),
                "cpu state layout");
_Static_assert (sizeof (struct seismo_ebpf_thread) == 40, "thread layout");
_Static_assert (sizeof (struct seismo_ebpf_syscall_stats) == 528, "syscall stats layout");

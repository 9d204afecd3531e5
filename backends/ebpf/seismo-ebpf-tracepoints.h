/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Contexts of the classic tracepoints the BPF programs attach to, laid out as the kernel's format
 * files describe them (/sys/kernel/tracing/events/<system>/<name>/format): that layout is the
 * tracing ABI, so no vmlinux.h is needed. User space checks these offsets against the running
 * kernel's format files before loading (seismo_ebpf_check_tracepoints()).
 */

#include "seismo-ebpf-events.h"

struct seismo_tp_common {
  seismo_u16 type;
  seismo_u8  flags;
  seismo_u8  preempt_count;
  seismo_s32 pid;
};

struct seismo_tp_sched_switch {
  struct seismo_tp_common common;
  char                    prev_comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32              prev_pid;
  seismo_s32              prev_prio;
  seismo_s64              prev_state;
  char                    next_comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32              next_pid;
  seismo_s32              next_prio;
};

/* sched_wakeup and sched_waking. */
struct seismo_tp_sched_wakeup {
  struct seismo_tp_common common;
  char                    comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32              pid;
  seismo_s32              prio;
  seismo_s32              target_cpu;
};

struct seismo_tp_sched_process_exec {
  struct seismo_tp_common common;
  seismo_u32              filename_loc;   /* __data_loc char[]: offset | length << 16 */
  seismo_s32              pid;
  seismo_s32              old_pid;
};

struct seismo_tp_sched_process_exit {
  struct seismo_tp_common common;
  char                    comm[SEISMO_EBPF_COMM_LEN];
  seismo_s32              pid;
  seismo_s32              prio;
};

struct seismo_tp_task_rename {
  struct seismo_tp_common common;
  seismo_s32              pid;
  char                    oldcomm[SEISMO_EBPF_COMM_LEN];
  char                    newcomm[SEISMO_EBPF_COMM_LEN];
};

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* SeismoFileSummary's layout, shared by its reader (seismo-file-summary.c) and its level-of-detail
 * and window queries (seismo-file-summary-lod.c). */

#include "seismo-file-private.h"
#include "seismo-file-summary.h"

G_BEGIN_DECLS

typedef struct {
  guint32      events;
  SeismoTaskId task;      /* SEISMO_NO_TASK: none */
  guint64      busy_ns;
} Cell;

typedef struct {
  guint    n;
  guint64 *start;         /* n + 1: the last is the trace's end + 1 */
  Cell    *cells;         /* n × n_cpus */
} Level;

typedef struct {
  guint32 bucket;
  guint32 events;
  guint64 busy_ns;
} TaskEntry;

typedef struct {
  char    *name;
  guint64  calls, errors, unfinished, total_ns, min_ns, max_ns;
  guint64 *hist;
} Syscall;

struct _SeismoFileSummary
{
  gatomicrefcount    ref_count;
  GMutex             window_lock;    /* load_window's cache: one window read at a time */
  char              *path;
  char              *display;
  SeismoTrace       *tables;
  SeismoSummaryInfo  info;
  GArray            *chunks;         /* SeismoIndexEntry of the chunks */
  guint              n_cpus;

  guint64           *type_counts;    /* info.n_types */
  guint32           *chunk_type_off; /* n_chunks + 1, into chunk_type_id/count */
  guint16           *chunk_type_id;
  guint32           *chunk_type_count;
  SeismoCpuStats    *cpus;           /* n_cpus */
  SeismoTaskStats   *tasks;          /* info.n_tasks */
  Syscall           *syscalls;       /* info.n_syscalls */
  /* The CHUNK_SYSCALLS record (1.3), checked at open: chunk k's entries are
   * [chunk_sc_off[k], chunk_sc_off[k + 1]) of its bytes. NULL for older files. */
  GBytes            *chunk_syscalls;
  guint32           *chunk_sc_off;   /* n_chunks + 1 */

  GPtrArray         *levels;         /* Level*, level 0 first */
  guint64           *tb_start;       /* n_task_buckets + 1 */
  guint32           *task_off;       /* n_tasks + 1, into task_entries */
  TaskEntry         *task_entries;

  SeismoTrace       *window;         /* the last window read, chunks [win_first, +win_count) */
  guint              win_first;
  guint              win_count;
};

G_END_DECLS

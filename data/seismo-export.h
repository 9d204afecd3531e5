/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-importer.h"
#include "seismo-stats.h"

G_BEGIN_DECLS

/*
 * Exports for sharing a trace with other tools. Both write atomically (a temporary file in the
 * same folder, fsync, rename; mode 0600).
 *
 * Chrome Trace Event JSON (.json), for Perfetto UI and chrome://tracing:
 *   - every finished syscall span is a complete ("X") event on its thread's track, named after
 *     the syscall, with the entry's fields and "ret" as args;
 *   - each CPU is a process named "CPU n" (pid SEISMO_EXPORT_CPU_PID_BASE + n) whose one track
 *     holds the scheduler's runs as "X" events named after the running task;
 *   - every other event is a thread-scoped instant ("i") event named after its type, with its
 *     fields as args (sched_switch events are not repeated: the runs show them);
 *   - lost events are global instants; process and thread names are "M" metadata events.
 *
 * CSV (.csv, RFC 4180: CRLF line ends, fields quoted when needed): a header, then one row per
 * event: index,time_ns,cpu,tid,pid,comm,event,fields (fields as `seismo-cli report` shows them).
 */

/* Synthetic Chrome pids of the per-CPU tracks: above any Linux pid (at most 2^22). */
#define SEISMO_EXPORT_CPU_PID_BASE 0x40000000

extern const SeismoExporter seismo_chrome_json_exporter;
extern const SeismoExporter seismo_csv_exporter;

/* selection: NULL for the whole trace; else events outside it are left out, and runs are clipped
 * to its time window. */
gboolean seismo_export_chrome_json (SeismoTrace           *trace,
                                    const SeismoSelection *selection,
                                    const char            *path,
                                    GError               **error);
gboolean seismo_export_csv         (SeismoTrace           *trace,
                                    const SeismoSelection *selection,
                                    const char            *path,
                                    GError               **error);

/*
 * A bundle: trace saved as a .seismo file (atomically, like seismo_file_save()) whose metadata
 * also holds key = value, e.g. a view session for students (docs/file-format.md, "Sessions and
 * bundles"). The trace itself is left as it was. Call from the thread that owns the trace: its
 * metadata table changes for the duration of the save.
 */
gboolean seismo_export_bundle      (SeismoTrace           *trace,
                                    const char            *key,
                                    const char            *value,
                                    const char            *path,
                                    GError               **error);

G_END_DECLS

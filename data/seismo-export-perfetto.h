/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-importer.h"

G_BEGIN_DECLS

/*
 * Perfetto's native protobuf trace format (.perfetto-trace, .pftrace), for Perfetto UI and its
 * trace processor (SQL). A Trace message streamed packet by packet (docs/perfetto.md):
 *   - a SystemInfo packet (kernel release, machine) and ProcessTree packets naming every
 *     process and thread;
 *   - kernel events (sources ftrace, trace.dat, ftrace-text, ebpf, synthetic) in per-CPU
 *     FtraceEventBundles, as Perfetto's typed message where it has one for the event
 *     (sched_switch, sched_wakeup, raw_syscalls sys_enter/sys_exit, irq, softirq, print, ...)
 *     and as a GenericFtraceEvent otherwise;
 *   - syscalls seen from user space (ptrace, strace, and eBPF, which has no ftrace origin) as
 *     TrackEvent slices on the thread's track: SLICE_BEGIN at the enter, named after the syscall,
 *     with its arguments; SLICE_END at the exit with "ret". ptrace and strace traces' other events
 *     are TrackEvent instants, since their CPU is not known.
 * Written atomically like the other exports; memory stays bounded whatever the trace's size.
 */

/* Reads it back (seismo-import-perfetto.c): events, tasks, CPUs and syscall spans; see
 * docs/perfetto.md for what does not come back. */
extern const SeismoImporter seismo_perfetto_importer;

extern const SeismoExporter seismo_perfetto_exporter;   /* .perfetto-trace */
extern const SeismoExporter seismo_pftrace_exporter;    /* .pftrace, the same format */

gboolean seismo_export_perfetto (SeismoTrace  *trace,
                                 const char   *path,
                                 GError      **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "seismo-backend.h"
#include "seismo-ebpf-events.h"

/* What the backend can do (seismo-backend.h), built or not. */
#define SEISMO_EBPF_CAPS (SEISMO_BACKEND_CAP_SYSCALL_FILTER | SEISMO_BACKEND_CAP_PROBES          \
                          | SEISMO_BACKEND_CAP_AGGREGATE | SEISMO_BACKEND_CAP_COMMAND           \
                          | SEISMO_BACKEND_CAP_ATTACH | SEISMO_BACKEND_CAP_SYSTEM_WIDE          \
                          | SEISMO_BACKEND_CAP_CHILDREN | SEISMO_BACKEND_CAP_BUFFER_SIZE        \
                          | SEISMO_BACKEND_CAP_NEEDS_ROOT)

G_BEGIN_DECLS

/* --probe flavours; the names double as the event types' system. */
typedef enum {
  SEISMO_EBPF_KPROBE = 0,
  SEISMO_EBPF_KRETPROBE,
  SEISMO_EBPF_UPROBE,
  SEISMO_EBPF_URETPROBE,
  SEISMO_EBPF_USDT,
} SeismoEbpfProbeKind;

/* One parsed --probe SPEC. */
typedef struct {
  SeismoEbpfProbeKind kind;
  char               *spec;       /* as given */
  char               *binary;     /* uprobe, uretprobe, usdt */
  char               *function;   /* kprobe: FUNC; uprobe: SYMBOL; NULL for a raw offset */
  gsize               offset;     /* kprobe FUNC+OFF, uprobe SYMBOL+OFF or 0xADDR */
  char               *provider;   /* usdt */
  char               *name;       /* usdt */
  char               *system;     /* event type: "kprobe", "uretprobe", "usdt"… */
  char               *event;      /* event type name: FUNC, SYMBOL, PROVIDER:NAME */
} SeismoEbpfProbe;

void         seismo_ebpf_probe_clear        (SeismoEbpfProbe *probe);
/* Parses "kprobe:FUNC[+OFF]", "kretprobe:FUNC", "uprobe:/path:SYMBOL[+OFF]",
 * "uretprobe:/path:SYMBOL", "usdt:/path:PROVIDER:NAME". */
gboolean     seismo_ebpf_probe_parse        (const char      *spec,
                                             SeismoEbpfProbe *probe,
                                             GError         **error);
gboolean     seismo_ebpf_probe_returns      (const SeismoEbpfProbe *probe);

/* Syscall filter bitmap from -e specs ("openat", "%file", "read,write"). */
gboolean     seismo_ebpf_syscall_filter     (char *const *specs,
                                             guint64      bitmap[SEISMO_EBPF_MAX_SYSCALLS / 64],
                                             GError     **error);
/* 1 + index of each syscall's path argument, 0 for none. */
void         seismo_ebpf_syscall_path_args  (guint8 path_arg[SEISMO_EBPF_MAX_SYSCALLS]);

/* Which record kinds a recording emits, from SeismoRecordOptions.events. */
typedef struct {
  gboolean syscalls;
  gboolean sched_switch;
  gboolean sched_wakeup;
  gboolean sched_waking;
  gboolean fork;
  gboolean exec;
  gboolean exit;
  gboolean rename;
} SeismoEbpfSelection;

/* The event types -e can select, then the --probe forms. Strings owned by the array. */
GPtrArray   *seismo_ebpf_list_events        (GError             **error);
gboolean     seismo_ebpf_select_events      (char *const         *patterns,
                                             SeismoEbpfSelection *selection,
                                             GError             **error);

/*
 * Turns ring buffer records into builder events. Used from one thread at a time (the ring
 * buffer worker while recording, the recording thread afterwards).
 */
typedef struct _SeismoEbpfDecoder SeismoEbpfDecoder;

SeismoEbpfDecoder *seismo_ebpf_decoder_new         (SeismoTraceBuilder        *builder,
                                                    const SeismoEbpfSelection *selection,
                                                    const SeismoEbpfProbe     *probes,
                                                    guint                      n_probes);
void               seismo_ebpf_decoder_free        (SeismoEbpfDecoder         *self);
/* Returns the number of model events appended; -1 when the record is malformed. */
int                seismo_ebpf_decoder_record      (SeismoEbpfDecoder         *self,
                                                    const void                *data,
                                                    gsize                      size);
/* A task the recorder knows before it shows up in records (the launched command). */
void               seismo_ebpf_decoder_know_task   (SeismoEbpfDecoder         *self,
                                                    gint32                     tid,
                                                    gint32                     pid,
                                                    gint32                     ppid,
                                                    const char                *comm,
                                                    guint64                    time_ns);
/* --stacks: the frames and mappings of records with a stack tail go through stacks (borrowed). */
typedef struct _SeismoEbpfStacks SeismoEbpfStacks;
void               seismo_ebpf_decoder_set_stacks  (SeismoEbpfDecoder         *self,
                                                    SeismoEbpfStacks          *stacks);
/* Ends the tasks whose exit was seen but not their last switch. */
void               seismo_ebpf_decoder_finish      (SeismoEbpfDecoder         *self,
                                                    guint64                    end_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoEbpfDecoder, seismo_ebpf_decoder_free)

/* A launched command: forked at once, held before exec until the programs are attached. */
/* Threads to record in the kernel's targets map. */
void         seismo_ebpf_add_target         (int                targets_fd,
                                             gint32             tid);
/* -p PID: its threads; with children, those of its existing descendants too. */
void         seismo_ebpf_seed_targets       (int                targets_fd,
                                             gint32             pid,
                                             gboolean           children);

/* Checks the running kernel's format files of events ("sched/sched_switch"…) against the
 * contexts compiled into the programs; skipped when tracefs is not mounted. */
gboolean     seismo_ebpf_check_tracepoints  (const char *const  *events,
                                             GError            **error);

gboolean     seismo_ebpf_read_aggregates    (SeismoTraceBuilder *builder,
                                             int                 stats_fd,
                                             int                 comm_fd,
                                             int                 threads_fd,
                                             int                 ncpu,
                                             GError            **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-backend.h"
#include "seismo-ebpf-events.h"
#include "seismo-proc-maps.h"

G_BEGIN_DECLS

/*
 * --stacks on the user side: turns a record's struct seismo_ebpf_stack_tail into the frames of
 * the event being built (stack ids looked up once in the stack_traces map), and keeps the
 * process mappings that name user frames later (SeismoProcMaps).
 */
typedef struct _SeismoEbpfStacks SeismoEbpfStacks;

SeismoEbpfStacks *seismo_ebpf_stacks_new     (SeismoTraceBuilder                  *builder,
                                              int                                  stack_map_fd,
                                              SeismoStackMode                      mode);
void              seismo_ebpf_stacks_free    (SeismoEbpfStacks                    *self);
/* /proc/kallsyms: kernel stacks start past the frames of the tracing code that took them. */
void              seismo_ebpf_stacks_set_kallsyms (SeismoEbpfStacks               *self,
                                              const char                          *text);
/* Before begin_event: gathers the frames (may read /proc/PID/maps, so not inside an event). */
void              seismo_ebpf_stacks_prepare (SeismoEbpfStacks                    *self,
                                              gint32                               pid,
                                              const struct seismo_ebpf_stack_tail *tail,
                                              guint64                              time_ns);
/* Between begin_event and end_event: gives the event the frames prepared. */
void              seismo_ebpf_stacks_apply   (SeismoEbpfStacks                    *self);
/* pid exec'd or mapped code (SEISMO_EBPF_REC_MAPS_CHANGED): reads its mappings again. Any
 * thread (the ring buffer worker, at once). */
void              seismo_ebpf_stacks_maps_changed (SeismoEbpfStacks               *self,
                                              gint32                               pid,
                                              guint64                              time_ns);
/* The recording thread, at the end: adds the mappings scanned since the last stack. */
void              seismo_ebpf_stacks_flush   (SeismoEbpfStacks                    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoEbpfStacks, seismo_ebpf_stacks_free)

G_END_DECLS

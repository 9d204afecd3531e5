/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-trace-builder.h"

G_BEGIN_DECLS

/*
 * Call stacks of events (issue 17).
 *
 * A trace may carry one call stack per event. Stacks are interned: every distinct frame is stored
 * once (SeismoFrameId), every distinct sequence of frames once (SeismoStackId), and each event holds
 * only a 4-byte stack id — a column that exists only when the trace has stacks. Id 0 means "no stack".
 *
 * A stack lists its frames innermost first (the frame that made the event first, main() last). When
 * an event has both kernel and user frames they form one stack, kernel frames innermost.
 *
 * Writing (backends, importers), for the event being appended, between begin_event and end_event:
 *   seismo_trace_builder_begin_event (b, ts, cpu, tid, type);
 *   ...push fields...
 *   seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, pid, kips, n_k);
 *   seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, pid, uips, n_u);
 *   seismo_trace_builder_end_event (b);
 * or, for frames already symbolized (text imports: ftrace `<stack trace>`, strace -k):
 *   seismo_trace_builder_set_stack_frames (b, frames, n);
 * seismo_trace_builder_attach_stack() gives a stack to an event appended earlier (trace.dat's
 * kernel_stack events follow the event they belong to).
 *
 * Symbols: kernel frames are named from the kallsyms table saved in the trace
 * (seismo_trace_builder_set_kallsyms(), "sym+0xoff") when the builder finishes. User frames keep
 * their address, pid and the mappings recorded with seismo_trace_builder_add_mapping() (at start,
 * exec and mmap), so a symbolizer outside data/ (backends' libdw code) fills them in later, on the
 * finished trace or a loaded file: seismo_trace_resolve_user_frames() calls it once per unresolved
 * user frame. Everything survives the builder's sort and a .seismo save/load.
 */

typedef guint32 SeismoStackId;   /* 0: no stack */
typedef guint32 SeismoFrameId;

#define SEISMO_NO_STACK ((SeismoStackId) 0)

typedef enum {
  SEISMO_FRAME_KERNEL = 0,
  SEISMO_FRAME_USER = 1,
} SeismoFrameSpace;

/* One frame. Strings are NULL when unknown; in a trace they live as long as the trace. */
typedef struct {
  guint64     address;   /* instruction pointer (0 when a text import did not give one) */
  const char *function;  /* "do_sys_openat2", "main" */
  const char *module;    /* "libc.so.6", "/usr/bin/ls", "[kernel.kallsyms]", a kernel module */
  const char *file;      /* source file, when DWARF says */
  guint32     line;      /* 0 when unknown */
  guint32     offset;    /* address - function start; 0 when unknown */
  gint32      pid;       /* user frames: the process whose mappings resolve the address; else -1 */
  guint8      space;     /* SeismoFrameSpace */
  gboolean    inlined;   /* an inlined call inside the next (outer) frame */
} SeismoFrame;

/* A user mapping (an mmap of a file), as /proc/PID/maps shows it. */
typedef struct {
  gint32        pid;
  guint64       start;
  guint64       end;          /* exclusive */
  guint64       file_offset;
  const char   *path;
  const guint8 *build_id;     /* NULL when unknown */
  guint         build_id_len;
  guint64       time_ns;      /* when it was seen (start of recording, exec, mmap) */
} SeismoMapping;

/* A kernel symbol (kallsyms text symbol). */
typedef struct {
  guint64     address;
  const char *name;
  const char *module;         /* NULL for the core kernel */
} SeismoKernelSymbol;

/* ---- Writing (SeismoTraceBuilder) ---- */

/* Appends raw addresses (innermost first) of one space to the stack of the event being built.
 * Kernel frames always go inside user frames, whatever the call order. pid: the process (user
 * space) whose mappings resolve the addresses; ignored for kernel frames. Zero addresses are
 * dropped (unwinders end lists with 0), as are addresses past the first 0xffff…f marker. */
void     seismo_trace_builder_set_stack_addrs  (SeismoTraceBuilder *self,
                                                SeismoFrameSpace    space,
                                                gint32              pid,
                                                const guint64      *ips,
                                                guint               n_ips);
/* Appends already-symbolized frames (innermost first, strings copied) to the event being built. */
void     seismo_trace_builder_set_stack_frames (SeismoTraceBuilder *self,
                                                const SeismoFrame  *frames,
                                                guint               n_frames);
/* Gives event `event` (an index as returned by seismo_trace_builder_get_n_events() before it was
 * appended) the frames, appended after the ones it has. For streams where the stack comes as its
 * own record after the event. FALSE when the event was already released to a file. */
gboolean seismo_trace_builder_attach_stack     (SeismoTraceBuilder *self,
                                                gsize               event,
                                                const SeismoFrame  *frames,
                                                guint               n_frames);
/* A user mapping seen at time_ns. build_id may be NULL. */
void     seismo_trace_builder_add_mapping      (SeismoTraceBuilder *self,
                                                gint32              pid,
                                                guint64             start,
                                                guint64             end,
                                                guint64             file_offset,
                                                const char         *path,
                                                const guint8       *build_id,
                                                guint               build_id_len,
                                                guint64             time_ns);
/* /proc/kallsyms text (as read; parsed, text symbols kept). Call once; a later call replaces. */
void     seismo_trace_builder_set_kallsyms     (SeismoTraceBuilder *self,
                                                const char         *text,
                                                gsize               len);
gboolean seismo_trace_builder_has_stacks       (SeismoTraceBuilder *self);

/* ---- Reading (SeismoTrace) ---- */

gboolean            seismo_trace_has_stacks        (SeismoTrace        *self);
/* SEISMO_NO_STACK when the event has none. */
SeismoStackId       seismo_trace_event_stack       (SeismoTrace        *self,
                                                    SeismoEventId       event);
/* The per-event stack id column (n_events entries), or NULL when the trace has no stacks. */
const SeismoStackId *seismo_trace_get_stack_ids    (SeismoTrace        *self);
/* Number of distinct stacks + 1 (ids run 1 .. n - 1) / frames. */
guint               seismo_trace_get_n_stacks      (SeismoTrace        *self);
guint               seismo_trace_get_n_frames      (SeismoTrace        *self);
/* The frames of a stack, innermost first; *frames lives as long as the trace. 0 for id 0. */
guint               seismo_trace_stack_frames      (SeismoTrace        *self,
                                                    SeismoStackId       stack,
                                                    const SeismoFrameId **frames);
const SeismoFrame  *seismo_trace_get_frame         (SeismoTrace        *self,
                                                    SeismoFrameId       frame);
/* "function" or "function [module]" or "0xaddr [module]" or "0xaddr": how a frame is named in
 * folded lines and tables. Newly allocated. */
char               *seismo_frame_to_string         (const SeismoFrame  *frame);
/* The name flame graphs group frames by (function, else module+offset, else address). */
char               *seismo_frame_display_name      (const SeismoFrame  *frame);
/* TRUE when stack contains a frame whose display name is frame's. */
gboolean            seismo_trace_stack_contains    (SeismoTrace        *self,
                                                    SeismoStackId       stack,
                                                    SeismoFrameId       frame);
const SeismoMapping *seismo_trace_get_mappings     (SeismoTrace        *self,
                                                    guint              *n_mappings);
/* The mapping of pid covering address (the latest seen), or NULL. */
const SeismoMapping *seismo_trace_find_mapping     (SeismoTrace        *self,
                                                    gint32              pid,
                                                    guint64             address);
const SeismoKernelSymbol *seismo_trace_get_kernel_symbols (SeismoTrace *self,
                                                    guint              *n_symbols);

/*
 * Fills in user frames. For every user frame with no function yet, calls resolve with the frame
 * and the mapping that covers its address (NULL when none). resolve writes up to max_out frames to
 * out, innermost first — inlined calls first (inlined = TRUE), the real function last — and returns
 * how many (0: unknown, the frame stays as is). Strings in out are copied before the next call.
 * Stacks that hold an expanded frame are re-interned. Call before the trace is shared with other
 * threads (right after loading or finishing). Returns the number of frames resolved.
 */
typedef guint (*SeismoFrameResolveFunc) (const SeismoFrame   *frame,
                                         const SeismoMapping *mapping,
                                         SeismoFrame         *out,
                                         guint                max_out,
                                         gpointer             user_data);
#define SEISMO_MAX_INLINE_FRAMES 16
guint               seismo_trace_resolve_user_frames (SeismoTrace           *self,
                                                      SeismoFrameResolveFunc resolve,
                                                      gpointer               user_data);
/* Names kernel frames that have no function from the trace's kallsyms table. Done by the builder;
 * public for readers of old files that gain a table. Returns frames named. */
guint               seismo_trace_resolve_kernel_frames (SeismoTrace *self);

G_END_DECLS

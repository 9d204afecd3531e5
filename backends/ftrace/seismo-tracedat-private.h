/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * trace-cmd's trace.dat files, versions 6 and 7 (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)), read
 * without libtracecmd: SeismoTraceDat parses the headers, options and sections and describes where
 * each buffer's per-CPU ring-buffer pages are; seismo-tracedat.c streams those pages.
 */

#include <event-parse.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

#define SEISMO_TRACEDAT_MAGIC     "\x17\x08\x44tracing"
#define SEISMO_TRACEDAT_MAGIC_LEN 10

typedef enum {
  SEISMO_TD_COMPRESS_NONE,
  SEISMO_TD_COMPRESS_ZSTD,
  SEISMO_TD_COMPRESS_ZLIB,
} SeismoTdCompression;

/* One CPU's data in one buffer. */
typedef struct {
  guint   cpu;
  guint64 offset;     /* file offset: pages, or (compressed) the chunk count then chunks */
  guint64 size;       /* bytes in the file */
} SeismoTdCpu;

/* A ring buffer saved in the file: the top-level one (name "") or an instance's. */
typedef struct {
  char        *name;
  char        *clock;
  guint        page_size;
  gboolean     compressed;
  GArray      *cpus;   /* SeismoTdCpu */
} SeismoTdBuffer;

typedef struct {
  char                *path;
  int                  fd;
  const guint8        *map;          /* the whole file, read-only; used for headers only */
  gsize                size;

  guint                version;       /* 6 or 7 */
  gboolean             big_endian;
  gboolean             swap;          /* file byte order differs from ours */
  guint                long_size;
  guint                page_size;
  SeismoTdCompression  compression;
  char                *compression_name;

  /* Ring-buffer page layout, from the header_page format. */
  guint                page_commit_size;   /* bytes of the commit word (kernel long) */
  guint                page_data_offset;

  struct tep_handle   *tep;
  struct _SeismoTepGuard *guard;     /* tries each format of the file first (seismo-tep-guard.c) */
  GHashTable          *formats;       /* event id → Format: parsed into tep when first seen */
  GPtrArray           *blobs;         /* decompressed sections the formats point into */
  char                *cmdlines;
  gsize                cmdlines_len;
  /* The kernel's symbol table, read only when a field needs it: v6 in place, v7 a section. */
  const guint8        *kallsyms_data;
  gsize                kallsyms_len;
  guint64              kallsyms_offset;

  GPtrArray           *buffers;       /* SeismoTdBuffer* */
  char                *uname;
  char                *tracer_version;
  char                *clock;
  guint                n_cpus;        /* CPUs on the traced machine (0: unknown) */
  gint64               ts_offset;     /* DATE and OFFSET options, ns */
  guint32              tsc_mult;      /* TSC2NSEC: ns = (ts * mult) >> shift when mult != 0 */
  guint32              tsc_shift;
  guint                n_latency_buffers;
  /* v6 "latency" files: where the latency tracer's text starts (0: a ring-buffer file). */
  guint64              latency_offset;
} SeismoTraceDat;

SeismoTraceDat *seismo_trace_dat_open      (const char      *path,
                                            GError         **error);
void            seismo_trace_dat_free      (SeismoTraceDat  *self);

/*
 * The format of event id, parsed into self->tep the first time it is asked for: files carry every
 * format of the machine, records use a few. NULL when the file has none for id.
 */
struct tep_event *seismo_trace_dat_event  (SeismoTraceDat *self,
                                            int             id);

/* The file's kallsyms text (NUL-terminated, caller frees); NULL when it has none or on error. */
char           *seismo_trace_dat_kallsyms  (SeismoTraceDat  *self,
                                            GError         **error);

/* Decompresses one block of the file's compression into dst (exactly dst_len bytes). */
gboolean        seismo_trace_dat_uncompress (SeismoTraceDat *self,
                                             const guint8   *src,
                                             gsize           src_len,
                                             guint8         *dst,
                                             gsize           dst_len,
                                             GError        **error);

/* Reads a trace.dat file into a trace. */
SeismoTrace    *seismo_trace_dat_load      (const char          *path,
                                            GCancellable        *cancellable,
                                            SeismoProgressFunc   progress,
                                            gpointer             progress_data,
                                            GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoTraceDat, seismo_trace_dat_free)

G_END_DECLS

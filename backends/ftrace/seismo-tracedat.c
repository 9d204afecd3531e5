/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-rb-page.h"
#include "seismo-importer.h"
#include "seismo-ftrace-text.h"
#include "seismo-syscalls.h"
#include "seismo-tep-convert.h"
#include "seismo-tep-guard.h"
#include "seismo-clock.h"
#include "seismo-file.h"
#include "seismo-skipped.h"
#include "seismo-tracedat-private.h"
#include "seismo-work-priority.h"

/*
 * Loading: every (buffer, CPU) pair is a stream of ring-buffer pages. Worker threads read and
 * decompress each stream's blocks (trace-cmd's compression chunks, or 1 MiB of plain pages) a few
 * blocks ahead; the calling thread walks the pages, merges the streams by timestamp and hands each
 * record to the converter. Events thus reach the builder already sorted, and memory holds only
 * the blocks in flight, whatever the file size.
 */

#define PLAIN_BLOCK_BYTES (1u << 20)
/* How far workers read ahead of the merge, per stream: enough to ride out a busy machine. */
#define READ_AHEAD_BYTES  (8u << 20)
#define MIN_SLOTS         2
#define MAX_SLOTS         256
#define MAX_CHUNK_BYTES   (64u << 20)
/* The smallest record that is an event: a 4-byte header and the 8 bytes of common fields. */
#define MIN_EVENT_BYTES   12
/* Compressed data is assumed to expand at most this much when reserving room for its events
 * (trace-cmd's zstd gets ~13x on sched and syscall traces); beyond it the builder just grows. */
#define MAX_EXPANSION     64

typedef struct _Loader Loader;
typedef struct _Stream Stream;

enum { SLOT_EMPTY, SLOT_QUEUED, SLOT_READY, SLOT_FAILED };

typedef struct {
  Stream  *stream;
  guint    index;
  int      state;      /* under loader->lock */
  guint8  *data;
  gsize    len;
  gsize    cap;
  guint8  *zbuf;
  gsize    zcap;
  GError  *error;
} Slot;

typedef struct {
  guint64 offset;     /* compressed bytes */
  guint32 csize;
  guint32 usize;
} Chunk;

struct _Stream
{
  Loader         *loader;
  guint           order;
  guint           cpu;
  const char     *buffer;
  guint           page_size;
  gboolean        compressed;
  guint64         offset;
  guint64         size;
  GArray         *chunks;     /* Chunk, when compressed */
  guint           n_blocks;
  Slot           *slots;
  guint           n_slots;

  Slot           *cur;        /* block being walked */
  guint           cur_block;
  gsize           page_off;
  SeismoRbPage    page;

  const guint8   *ev;         /* the stream's next event */
  guint           ev_size;
  guint64         ev_ts;
};

struct _Loader
{
  SeismoTraceDat     *td;
  SeismoRbLayout      layout;
  GThreadPool        *pool;
  GMutex              lock;
  GCond               cond;
  GPtrArray          *streams;   /* Stream*, owned */
  Stream            **heap;
  guint               heap_len;
  SeismoTraceBuilder *builder;
  SeismoTepConverter *conv;
  guint64             total_bytes;
  guint64             raw_bytes;  /* ring-buffer bytes, decompressed (within MAX_EXPANSION) */
  guint64             done_bytes;
  guint64             n_lost_unknown;
  gboolean            kallsyms_tried;
  SeismoFileWriter   *writer;    /* converting: events go to the file as they come (borrowed) */
};

static inline guint32
rd32 (const SeismoTraceDat *td,
      const guint8         *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return td->swap ? GUINT32_SWAP_LE_BE (v) : v;
}

/* Raw ring-buffer time → ns, as trace-cmd report shows it. */
static inline guint64
adjust_ts (const SeismoTraceDat *td,
           guint64               ts)
{
  if (td->tsc_mult)
    ts = (guint64) (((unsigned __int128) ts * td->tsc_mult) >> td->tsc_shift);
  return ts + td->ts_offset;
}

static gboolean
pread_full (SeismoTraceDat  *td,
            guint8          *buf,
            gsize            len,
            guint64          offset,
            GError         **error)
{
  gsize done = 0;

  while (done < len)
    {
      ssize_t r = pread (td->fd, buf + done, len - done, offset + done);

      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          return seismo_set_errno_error (error, errno,
                                         _("%s: could not read at offset %" PRIu64),
                                         td->path, offset + done);
        }
      if (r == 0)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_TRUNCATED,
                       _("%s: file ends at offset %" PRIu64 ", inside CPU data"),
                       td->path, offset + done);
          return FALSE;
        }
      done += r;
    }
  return TRUE;
}

/* ---- workers ---------------------------------------------------------------------------------- */

static void
ensure_cap (guint8 **buf,
            gsize   *cap,
            gsize    len)
{
  if (*cap < len)
    {
      g_free (*buf);
      *buf = g_malloc (len);
      *cap = len;
    }
}

static gboolean
produce_block (Slot    *slot,
               GError **error)
{
  Stream *s = slot->stream;
  SeismoTraceDat *td = s->loader->td;

  if (s->compressed)
    {
      const Chunk *ch = &g_array_index (s->chunks, Chunk, slot->index);
      g_autoptr(GError) local_error = NULL;

      ensure_cap (&slot->zbuf, &slot->zcap, ch->csize);
      ensure_cap (&slot->data, &slot->cap, ch->usize);
      if (!pread_full (td, slot->zbuf, ch->csize, ch->offset, error))
        return FALSE;
      if (!seismo_trace_dat_uncompress (td, slot->zbuf, ch->csize, slot->data, ch->usize,
                                        &local_error))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("%s: CPU %u data chunk at offset %" PRIu64 ": %s"),
                       td->path, s->cpu, ch->offset, local_error->message);
          return FALSE;
        }
      slot->len = ch->usize;
    }
  else
    {
      guint64 start = (guint64) slot->index * PLAIN_BLOCK_BYTES;
      gsize len = MIN (PLAIN_BLOCK_BYTES, s->size - start);

      ensure_cap (&slot->data, &slot->cap, len);
      if (!pread_full (td, slot->data, len, s->offset + start, error))
        return FALSE;
      slot->len = len;
    }
  return TRUE;
}

static void
worker (gpointer data,
        gpointer user_data)
{
  Slot *slot = data;
  Loader *l = user_data;
  GError *error = NULL;
  gboolean ok;

  seismo_work_priority_enter ();
  seismo_work_priority_pause_point ();
  ok = produce_block (slot, &error);

  g_mutex_lock (&l->lock);
  slot->state = ok ? SLOT_READY : SLOT_FAILED;
  slot->error = error;
  g_cond_broadcast (&l->cond);
  g_mutex_unlock (&l->lock);
}

static void
submit (Stream *s,
        Slot   *slot,
        guint   index)
{
  slot->index = index;
  slot->state = SLOT_QUEUED;
  g_thread_pool_push (s->loader->pool, slot, NULL);
}

/* ---- streams ---------------------------------------------------------------------------------- */

static void
stream_free (gpointer data)
{
  Stream *s = data;

  for (guint i = 0; i < s->n_slots; i++)
    {
      g_free (s->slots[i].data);
      g_free (s->slots[i].zbuf);
      g_clear_error (&s->slots[i].error);
    }
  g_free (s->slots);
  if (s->chunks)
    g_array_unref (s->chunks);
  g_free (s);
}

/* Compressed CPU data: a chunk count, then (compressed size, size, bytes) per chunk. */
static gboolean
read_chunk_table (Stream   *s,
                  GError  **error)
{
  SeismoTraceDat *td = s->loader->td;
  guint8 hdr[8];
  guint32 count;
  guint64 pos = s->offset;
  guint64 raw = 0, packed = 0;

  if (!pread_full (td, hdr, 4, pos, error))
    return FALSE;
  count = rd32 (td, hdr);
  pos += 4;
  if (count > td->size / 8)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                   _("%s: offset %" PRIu64 ": CPU %u claims %u compressed chunks"),
                   td->path, s->offset, s->cpu, count);
      return FALSE;
    }
  s->chunks = g_array_sized_new (FALSE, FALSE, sizeof (Chunk), count);
  for (guint32 i = 0; i < count; i++)
    {
      Chunk ch;

      if (!pread_full (td, hdr, 8, pos, error))
        return FALSE;
      ch.csize = rd32 (td, hdr);
      ch.usize = rd32 (td, hdr + 4);
      ch.offset = pos + 8;
      if (ch.usize == 0 || ch.usize > MAX_CHUNK_BYTES || ch.usize % s->page_size != 0 ||
          ch.offset > td->size || ch.csize > td->size - ch.offset)
        {
          g_set_error (error, SEISMO_ERROR, ch.offset + ch.csize > td->size &&
                                            ch.usize % s->page_size == 0
                                            ? SEISMO_ERROR_TRUNCATED : SEISMO_ERROR_CORRUPT,
                       _("%s: offset %" PRIu64 ": CPU %u chunk %u of %u: %u bytes "
                         "compressed into %u (file has %zu bytes)"),
                       td->path, pos, s->cpu, i, count, ch.usize, ch.csize, td->size);
          return FALSE;
        }
      g_array_append_val (s->chunks, ch);
      pos = ch.offset + ch.csize;
      s->loader->total_bytes += ch.csize;
      raw += ch.usize;
      packed += ch.csize;
    }
  s->loader->raw_bytes += MIN (raw, packed * MAX_EXPANSION);
  s->n_blocks = count;
  return TRUE;
}

static gboolean
stream_wait (Stream  *s,
             GError **error)
{
  Loader *l = s->loader;
  Slot *slot = &s->slots[s->cur_block % s->n_slots];
  int state;

  g_mutex_lock (&l->lock);
  while (slot->state == SLOT_QUEUED)
    g_cond_wait (&l->cond, &l->lock);
  state = slot->state;
  g_mutex_unlock (&l->lock);

  if (state != SLOT_READY)
    {
      g_propagate_error (error, g_steal_pointer (&slot->error));
      return FALSE;
    }
  s->cur = slot;
  s->page_off = 0;
  return TRUE;
}

static void
stream_release (Stream *s)
{
  Slot *slot = s->cur;
  guint next = s->cur_block + s->n_slots;

  s->loader->done_bytes += s->compressed
                           ? g_array_index (s->chunks, Chunk, s->cur_block).csize
                           : slot->len;
  slot->state = SLOT_EMPTY;
  s->cur = NULL;
  s->cur_block++;
  if (next < s->n_blocks)
    submit (s, slot, next);
}

static gboolean G_GNUC_PRINTF (3, 4)
page_corrupt (Stream      *s,
              GError     **error,
              const char  *format,
              ...)
{
  SeismoTraceDat *td = s->loader->td;
  g_autofree char *msg = NULL;
  g_autofree char *where = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  if (s->compressed)
    where = g_strdup_printf (_("page %zu of the chunk at offset %" PRIu64),
                             s->page_off / s->page_size,
                             g_array_index (s->chunks, Chunk, s->cur_block).offset);
  else
    where = g_strdup_printf (_("page at offset %" PRIu64),
                             s->offset + (guint64) s->cur_block * PLAIN_BLOCK_BYTES + s->page_off);
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("%s: CPU %u%s%s, %s: %s"), td->path,
               s->cpu, *s->buffer ? " of buffer " : "", s->buffer, where, msg);
  return FALSE;
}

static gboolean
stream_load_page (Stream  *s,
                  GError **error)
{
  Loader *l = s->loader;
  const guint8 *page = s->cur->data + s->page_off;
  gsize avail = MIN ((gsize) s->page_size, s->cur->len - s->page_off);
  guint64 missed;
  const char *why = seismo_rb_page_load (&s->page, &l->layout, page, avail, &missed);

  if (why)
    return page_corrupt (s, error, "%s", why);
  if (missed)
    {
      if (missed == G_MAXUINT64)
        {
          /* The kernel knew events were lost but not how many: at least one. */
          missed = 1;
          l->n_lost_unknown++;
        }
      seismo_trace_builder_add_lost_events (l->builder, s->cpu, adjust_ts (l->td, s->page.ts),
                                            missed);
    }
  return TRUE;
}

/* Advances to the stream's next event. Returns 1 with s->ev set, 0 at the end, -1 on error. */
static int
stream_next (Stream  *s,
             GError **error)
{
  for (;;)
    {
      const char *why = NULL;
      int r = s->cur ? seismo_rb_page_next (&s->page, &s->ev, &s->ev_size, &s->ev_ts, &why) : 0;

      if (r > 0)
        {
          /* The converter reads the whole record next, from memory a worker wrote: ask for it,
           * and the stream's next records, before then. */
          __builtin_prefetch (s->ev + 64);
          __builtin_prefetch (s->ev + 192);
          return 1;
        }
      if (r < 0)
        {
          page_corrupt (s, error, "%s", why);
          return -1;
        }

      /* Next page, next block. */
      if (s->cur)
        {
          s->page_off += s->page_size;
          if (s->page_off >= s->cur->len)
            stream_release (s);
        }
      if (s->cur == NULL)
        {
          if (s->cur_block >= s->n_blocks)
            return 0;
          if (!stream_wait (s, error))
            return -1;
        }
      if (!stream_load_page (s, error))
        return -1;
    }
}

/* ---- merge ------------------------------------------------------------------------------------ */

static inline gboolean
stream_before (const Stream *a,
               const Stream *b)
{
  /* trace-cmd report breaks ties by buffer, then by CPU: keep its order. */
  return a->ev_ts < b->ev_ts || (a->ev_ts == b->ev_ts && a->order < b->order);
}

static void
heap_sift_down (Loader *l,
                guint   i)
{
  for (;;)
    {
      guint left = 2 * i + 1, right = left + 1, min = i;
      Stream *tmp;

      if (left < l->heap_len && stream_before (l->heap[left], l->heap[min]))
        min = left;
      if (right < l->heap_len && stream_before (l->heap[right], l->heap[min]))
        min = right;
      if (min == i)
        return;
      tmp = l->heap[i];
      l->heap[i] = l->heap[min];
      l->heap[min] = tmp;
      i = min;
    }
}

static void
set_metadata (Loader *l)
{
  SeismoTraceDat *td = l->td;
  SeismoTraceBuilder *b = l->builder;
  g_autoptr(GString) names = g_string_new (NULL);
  SeismoArch arch = SEISMO_ARCH_UNKNOWN;

  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "trace.dat");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ORIGINAL, td->path);
  seismo_trace_builder_set_metadata (b, SEISMO_META_CLOCK, td->clock);
  if (td->uname)
    {
      /* trace-cmd writes "sysname nodename release machine" (release may hold spaces). */
      g_auto(GStrv) parts = g_strsplit (td->uname, " ", -1);
      guint n = g_strv_length (parts);

      if (n >= 2)
        seismo_trace_builder_set_metadata (b, SEISMO_META_HOST, parts[1]);
      if (n >= 3)
        seismo_trace_builder_set_metadata (b, SEISMO_META_KERNEL, parts[2]);
      if (n >= 4)
        arch = seismo_arch_from_string (parts[n - 1]);
      seismo_trace_builder_set_metadata (b, "uname", td->uname);
    }
  /* The kernel's long is what it says: an x86_64 machine with 4-byte longs is an i386 kernel
   * (a 32-bit ARM kernel on a 64-bit CPU says armv8l, which is arm already). */
  if (arch == SEISMO_ARCH_X86_64 && td->long_size == 4)
    arch = SEISMO_ARCH_I386;
  /* No machine in the file, or one we have no table for: unknown, never a guess. */
  if (arch != SEISMO_ARCH_UNKNOWN)
    {
      seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, seismo_arch_to_string (arch));
      seismo_trace_builder_set_metadata (b, "arch_from", "uname");
    }
  if (td->tracer_version)
    seismo_trace_builder_set_metadata (b, "trace_cmd_version", td->tracer_version);
  seismo_trace_builder_set_metadata (b, "trace_dat_version", td->version == 7 ? "7" : "6");
  seismo_trace_builder_set_metadata (b, "compression", td->compression_name);
  for (guint i = 0; i < td->buffers->len; i++)
    {
      SeismoTdBuffer *buf = g_ptr_array_index (td->buffers, i);

      g_string_append_printf (names, "%s%s", names->len ? "," : "",
                              *buf->name ? buf->name : "(top)");
    }
  seismo_trace_builder_set_metadata (b, "buffers", names->str);
}

static gboolean
add_streams (Loader  *l,
             GError **error)
{
  SeismoTraceDat *td = l->td;
  guint max_cpu = 0;
  gboolean any_cpu = FALSE;

  /* The top-level buffer first, as trace-cmd report orders them. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < td->buffers->len; i++)
      {
        SeismoTdBuffer *b = g_ptr_array_index (td->buffers, i);

        if ((pass == 0) != (*b->name == '\0'))
          continue;
        for (guint c = 0; c < b->cpus->len; c++)
          {
            const SeismoTdCpu *cpu = &g_array_index (b->cpus, SeismoTdCpu, c);
            Stream *s;

            max_cpu = MAX (max_cpu, cpu->cpu);
            any_cpu = TRUE;
            if (cpu->size == 0)
              continue;
            s = g_new0 (Stream, 1);
            s->loader = l;
            s->order = l->streams->len;
            s->cpu = cpu->cpu;
            s->buffer = b->name;
            s->page_size = b->page_size;
            s->compressed = b->compressed;
            s->offset = cpu->offset;
            s->size = cpu->size;
            g_ptr_array_add (l->streams, s);
            if (s->compressed)
              {
                if (!read_chunk_table (s, error))
                  return FALSE;
              }
            else
              {
                s->n_blocks = (s->size + PLAIN_BLOCK_BYTES - 1) / PLAIN_BLOCK_BYTES;
                l->total_bytes += s->size;
                l->raw_bytes += s->size;
                if (PLAIN_BLOCK_BYTES % s->page_size != 0)
                  {
                    g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                                 _("%s: page size %u does not divide the read size"),
                                 td->path, s->page_size);
                    return FALSE;
                  }
              }
            {
              gsize block = s->compressed && s->n_blocks
                            ? g_array_index (s->chunks, Chunk, 0).usize : PLAIN_BLOCK_BYTES;

              s->n_slots = CLAMP (READ_AHEAD_BYTES / MAX (block, 1), MIN_SLOTS, MAX_SLOTS);
              s->slots = g_new0 (Slot, s->n_slots);
              for (guint k = 0; k < s->n_slots; k++)
                s->slots[k].stream = s;
            }
          }
      }
  /* The header's CPU count holds even when no buffer has a byte: an empty recording of a
   * 16-CPU machine still has 16 CPUs. */
  seismo_trace_builder_set_n_cpus (l->builder, any_cpu ? MAX (td->n_cpus, max_cpu + 1) : td->n_cpus);
  return TRUE;
}

static gboolean
load_events (Loader              *l,
             GCancellable        *cancellable,
             SeismoProgressFunc   progress,
             gpointer             progress_data,
             GError             **error)
{
  guint64 n = 0;

  /* Start every stream's read-ahead, then prime the merge with each stream's first event. */
  for (guint i = 0; i < l->streams->len; i++)
    {
      Stream *s = g_ptr_array_index (l->streams, i);

      for (guint k = 0; k < s->n_slots && k < s->n_blocks; k++)
        submit (s, &s->slots[k], k);
    }
  l->heap = g_new (Stream *, MAX (l->streams->len, 1));
  for (guint i = 0; i < l->streams->len; i++)
    {
      Stream *s = g_ptr_array_index (l->streams, i);
      int r = stream_next (s, error);

      if (r < 0)
        return FALSE;
      if (r > 0)
        l->heap[l->heap_len++] = s;
    }
  for (guint i = l->heap_len / 2; i-- > 0;)
    heap_sift_down (l, i);

  while (l->heap_len > 0)
    {
      Stream *s = l->heap[0];
      int r;

      seismo_tep_converter_push (l->conv, adjust_ts (l->td, s->ev_ts), s->cpu, s->ev, s->ev_size);
      r = stream_next (s, error);
      if (r < 0)
        return FALSE;
      if (r == 0)
        l->heap[0] = l->heap[--l->heap_len];
      heap_sift_down (l, 0);

      /* Converting: the merge yields events in time order, so every complete chunk can go to the
       * file and leave memory (16 chunks at a time, compressed on all cores). */
      if (l->writer != NULL && G_UNLIKELY (((n + 1) & ((16u << 16) - 1)) == 0) &&
          !seismo_file_writer_stream (l->writer, l->builder, error))
        return FALSE;
      if (G_UNLIKELY ((++n & 0x3fff) == 0))
        {
          seismo_work_priority_pause_point ();
          if (g_cancellable_is_cancelled (cancellable))
            {
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED,
                           _("%s: loading cancelled"), l->td->path);
              return FALSE;
            }
          if (progress && l->total_bytes)
            progress ((double) l->done_bytes / l->total_bytes, progress_data);
        }
    }
  /* A cancel during the last stretch still wins over a finished load. */
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED, _("%s: loading cancelled"),
                   l->td->path);
      return FALSE;
    }
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

/*
 * Formats are parsed when their first record shows up; the kernel's symbol table too, when the
 * first format that prints a function does (most files have none: it costs time to parse).
 */
static struct tep_event *
lookup_format (gpointer data,
               int      id)
{
  Loader *l = data;
  struct tep_event *event = seismo_trace_dat_event (l->td, id);

  if (event && !l->kallsyms_tried && seismo_tep_event_has_function_fields (event))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *text = seismo_trace_dat_kallsyms (l->td, &error);

      l->kallsyms_tried = TRUE;
      if (error)
        g_debug ("%s: addresses stay unnamed: %s", l->td->path, error->message);
      seismo_tep_converter_set_kallsyms (l->conv, text);
    }
  return event;
}

/* Events named in the load warning; more are counted. */
#define MAX_NAMED_SKIPPED 5

/*
 * The load warning naming the events whose formats the guard kept from libtraceevent, NULL when
 * there were none: its own warnings reach a terminal only, this one the window's toast too.
 */
static char *
skipped_formats_warning (Loader *l)
{
  const GArray *skipped = seismo_tep_guard_get_skipped (l->td->guard);
  g_autoptr(GString) names = NULL;
  g_autofree char *records = NULL;
  guint64 n_records = 0;
  guint n = skipped->len;

  if (n == 0)
    return NULL;
  names = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      const SeismoTepSkipped *s = &g_array_index (skipped, SeismoTepSkipped, i);

      if (s->id >= 0)
        n_records += seismo_tep_converter_get_n_skipped_of (l->conv, s->id);
      if (i < MAX_NAMED_SKIPPED)
        g_string_append_printf (names, "%s%s", i ? ", " : "", s->event);
    }
  if (n > MAX_NAMED_SKIPPED)
    g_string_append_printf (names, _(" and %u more"), n - MAX_NAMED_SKIPPED);
  records = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " record", "%'" PRIu64 " records",
                                          n_records), n_records);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s of %u event was skipped: its format in the file could not "
                                       "be read (%s)",
                                       "%s of %u events were skipped: their formats in the file could "
                                       "not be read (%s)", n), records, n, names->str);
}

/* Waits for the workers so no block is being written when the streams are freed. */
static void
loader_clear (Loader *l)
{
  if (l->pool)
    g_thread_pool_free (l->pool, TRUE, TRUE);
  g_clear_pointer (&l->streams, g_ptr_array_unref);
  g_free (l->heap);
  g_clear_pointer (&l->conv, seismo_tep_converter_free);
  g_clear_pointer (&l->builder, seismo_trace_builder_free);
  g_mutex_clear (&l->lock);
  g_cond_clear (&l->cond);
}

/* Reads path into a new trace (*trace_out), or, with writer, into that file as it reads. */
/*
 * A latency tracer's file (trace-cmd record -p irqsoff / wakeup ...): the tracer's text output
 * after the headers, read by the ftrace text importer; the machine is the file's uname.
 */
static gboolean
read_latency_text (SeismoTraceDat      *td,
                   SeismoFileWriter    *writer,
                   SeismoTrace        **trace_out,
                   GCancellable        *cancellable,
                   SeismoProgressFunc   progress,
                   gpointer             progress_data,
                   GError             **error)
{
  SeismoTrace *trace;
  char **parts;
  guint n;

  if (writer != NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                   _("%s: holds a latency tracer's text output, not ring-buffer data; "
                     "open it first, then save it"), td->path);
      return FALSE;
    }
  trace = seismo_ftrace_text_load_data (td->path, (const char *) td->map + td->latency_offset,
                                        td->size - td->latency_offset, cancellable, progress,
                                        progress_data, error);
  if (trace == NULL)
    return FALSE;
  parts = td->uname ? g_strsplit (td->uname, " ", -1) : NULL;
  n = parts ? g_strv_length (parts) : 0;
  if (seismo_trace_get_metadata (trace, SEISMO_META_ARCH) == NULL && n >= 4
      && seismo_arch_from_string (parts[n - 1]) != SEISMO_ARCH_UNKNOWN)
    seismo_trace_set_arch (trace, parts[n - 1], NULL);
  g_strfreev (parts);
  *trace_out = trace;
  return TRUE;
}

static gboolean
read_trace_dat (const char          *path,
                SeismoFileWriter    *writer,
                SeismoTrace        **trace_out,
                GCancellable        *cancellable,
                SeismoProgressFunc   progress,
                gpointer             progress_data,
                GError             **error)
{
  g_autoptr(SeismoTraceDat) td = NULL;
  Loader l = { 0 };
  SeismoTrace *trace = NULL;
  gboolean ok = FALSE;
  guint n_threads;
  gint64 t_start = g_get_monotonic_time ();
  gint64 cpu_start = seismo_thread_cpu_us ();

  td = seismo_trace_dat_open (path, error);
  if (td == NULL)
    return FALSE;
  if (td->latency_offset)
    return read_latency_text (td, writer, trace_out, cancellable, progress, progress_data, error);

  g_mutex_init (&l.lock);
  g_cond_init (&l.cond);
  l.td = td;
  l.layout.big_endian = td->big_endian;
  l.layout.swap = td->swap;
  l.layout.commit_size = td->page_commit_size;
  l.layout.data_offset = td->page_data_offset;
  l.streams = g_ptr_array_new_with_free_func (stream_free);
  l.writer = writer;
  l.builder = seismo_trace_builder_new ();
  l.conv = seismo_tep_converter_new (td->tep, l.builder);
  seismo_tep_converter_set_lookup (l.conv, lookup_format, &l);
  if (td->cmdlines)
    seismo_tep_converter_add_cmdlines (l.conv, td->cmdlines, td->cmdlines_len);
  set_metadata (&l);
  /* The load warning names the skipped formats (skipped_formats_warning): once is enough. */
  seismo_tep_guard_set_skip_level (td->guard, G_LOG_LEVEL_DEBUG);

  n_threads = CLAMP (g_get_num_processors (), 1, 8);
  l.pool = g_thread_pool_new (worker, &l, n_threads, FALSE, NULL);

  if (!add_streams (&l, error))
    {
      loader_clear (&l);
      return FALSE;
    }
  /* Room for as many events as the data could hold, so the columns never move while they fill
   * (moving them costs a copy and fresh pages twice). A converter's builder holds a few chunks. */
  if (writer == NULL)
    seismo_trace_builder_reserve (l.builder, (gsize) MIN (l.raw_bytes / MIN_EVENT_BYTES, G_MAXSIZE),
                                  (gsize) MIN (l.raw_bytes, G_MAXSIZE));
  if (load_events (&l, cancellable, progress, progress_data, error))
    {
      guint64 skipped = seismo_tep_converter_get_n_skipped (l.conv);
      g_autofree char *warning = NULL;
      gint64 t_loaded = g_get_monotonic_time ();
      gint64 cpu_loaded = seismo_thread_cpu_us ();

      if (skipped)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, skipped);
          guint first_id;
          guint64 unknown = seismo_tep_converter_get_n_unknown (l.conv, &first_id);
          guint64 n_events = seismo_trace_builder_get_n_events (l.builder);
          g_autofree char *example = g_strdup_printf ("event id %u", first_id);

          /* Records of formats the file lacks or that are cut short: counted, not fatal, unless
           * they are most of the file (a reader that got the layout wrong, or not a trace). */
          seismo_trace_builder_set_metadata (l.builder, "skipped_records", text);
          if (unknown)
            seismo_trace_builder_note_skipped (l.builder, "records of events without a format",
                                               unknown, example);
          if (skipped > unknown)
            seismo_trace_builder_note_skipped (l.builder, "records cut short",
                                               skipped - unknown, NULL);
          if (skipped > n_events)
            {
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                           _("%s: %" PRIu64 " of %" PRIu64 " records could not be read (%"
                             PRIu64 " records of events without a format in the file, the first "
                             "%s; %" PRIu64 " cut short)"),
                           path, skipped, skipped + n_events, unknown,
                           unknown ? example : "-", skipped - unknown);
              loader_clear (&l);
              return FALSE;
            }
        }
      warning = skipped_formats_warning (&l);
      if (warning)
        seismo_trace_builder_set_metadata (l.builder, "load_warning", warning);
      seismo_tep_converter_finish (l.conv);
      g_clear_pointer (&l.conv, seismo_tep_converter_free);
      if (writer != NULL)
        {
          /* What seismo_trace_open() records of a load, so a conversion reads back the same. */
          seismo_trace_builder_set_metadata (l.builder, "format", "trace.dat");
          ok = seismo_file_writer_commit (writer, l.builder, error);
          g_debug ("%s: %" G_GSIZE_FORMAT " events converted in %.3f s", path,
                   seismo_trace_builder_get_n_events (l.builder),
                   (g_get_monotonic_time () - t_start) / 1e6);
        }
      else
        {
          trace = seismo_trace_builder_finish (g_steal_pointer (&l.builder));
          g_debug ("%s: %" G_GSIZE_FORMAT " events read in %.3f s (%.3f s of this thread's CPU), "
                   "model finished in %.3f s", path, seismo_trace_get_n_events (trace),
                   (t_loaded - t_start) / 1e6, (cpu_loaded - cpu_start) / 1e6,
                   (g_get_monotonic_time () - t_loaded) / 1e6);
          *trace_out = trace;
          ok = TRUE;
        }
    }
  loader_clear (&l);
  return ok;
}

SeismoTrace *
seismo_trace_dat_load (const char          *path,
                       GCancellable        *cancellable,
                       SeismoProgressFunc   progress,
                       gpointer             progress_data,
                       GError             **error)
{
  SeismoTrace *trace = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  if (!read_trace_dat (path, NULL, &trace, cancellable, progress, progress_data, error))
    return NULL;
  return trace;
}

/* Converts to .seismo in bounded memory: the per-CPU streams are merged in time order anyway, so
 * complete chunks are written and released as the merge goes (docs/file-format.md). */
static gboolean
trace_dat_stream_to_seismo (const char          *path,
                            const char          *out_path,
                            GCancellable        *cancellable,
                            SeismoProgressFunc   progress,
                            gpointer             progress_data,
                            GError             **error)
{
  g_autoptr(SeismoFileWriter) writer = NULL;

  g_return_val_if_fail (path != NULL && out_path != NULL, FALSE);
  if (!(writer = seismo_file_writer_new (out_path, error)))
    return FALSE;
  if (!read_trace_dat (path, writer, NULL, cancellable, progress, progress_data, error))
    {
      seismo_file_writer_discard (writer);
      return FALSE;
    }
  return TRUE;
}

/* ---- importer --------------------------------------------------------------------------------- */

static int
trace_dat_sniff (const guint8 *head,
                 gsize         len,
                 const char   *path)
{
  if (len >= SEISMO_TRACEDAT_MAGIC_LEN &&
      memcmp (head, SEISMO_TRACEDAT_MAGIC, SEISMO_TRACEDAT_MAGIC_LEN) == 0)
    return 100;
  return 0;
}

static const SeismoImporter trace_dat_importer = {
  .name = "trace.dat",
  .description = N_("trace-cmd trace.dat (versions 6 and 7)"),
  .sniff = trace_dat_sniff,
  .load = seismo_trace_dat_load,
  .stream_to_seismo = trace_dat_stream_to_seismo,
};

void seismo_ftrace_register_importers (void);   /* seismo-ftrace-private.h */

void
seismo_ftrace_register_importers (void)
{
  seismo_importer_register (&trace_dat_importer);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-file"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <zstd.h>

#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-summary-private.h"
#include "seismo-trace-builder-private.h"
#include "seismo-varint.h"
#include "seismo-work-priority.h"

/* Level 1 keeps a recorder's flush cheap; higher levels buy ~10% size for 2-3x the time. */
#define SEISMO_FILE_ZSTD_LEVEL 1
/* Chunks compressed together before they are written in order (bounds the memory held). */
#define SEISMO_FILE_BATCH      16

/* ---------------------------------------------------------------------------------------------- */
/* CRC32C                                                                                          */

#define CRC32C_POLY 0x82f63b78u

static guint32 crc_table[8][256];

static void
crc_table_init (void)
{
  for (guint i = 0; i < 256; i++)
    {
      guint32 c = i;

      for (guint k = 0; k < 8; k++)
        c = (c >> 1) ^ ((c & 1) ? CRC32C_POLY : 0);
      crc_table[0][i] = c;
    }
  for (guint i = 0; i < 256; i++)
    for (guint t = 1; t < 8; t++)
      crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
}

/* Slicing by 8: eight table lookups per 8 input bytes. */
static guint32
crc32c_soft (guint32       crc,
             const guint8 *p,
             gsize         len)
{
  while (len > 0 && ((guintptr) p & 7) != 0)
    {
      crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
      len--;
    }
  while (len >= 8)
    {
      guint64 w;

      memcpy (&w, p, 8);
      w = GUINT64_FROM_LE (w) ^ crc;
      crc = crc_table[7][w & 0xff] ^ crc_table[6][(w >> 8) & 0xff] ^
            crc_table[5][(w >> 16) & 0xff] ^ crc_table[4][(w >> 24) & 0xff] ^
            crc_table[3][(w >> 32) & 0xff] ^ crc_table[2][(w >> 40) & 0xff] ^
            crc_table[1][(w >> 48) & 0xff] ^ crc_table[0][w >> 56];
      p += 8;
      len -= 8;
    }
  while (len-- > 0)
    crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
  return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_CRC32C_HW 1
/* SSE 4.2 has a CRC32C instruction: ~10x the table version, which matters on 100 MB loads. */
__attribute__ ((target ("sse4.2")))
static guint32
crc32c_hw (guint32       crc,
           const guint8 *p,
           gsize         len)
{
  guint64 c = crc;

  while (len >= 8)
    {
      guint64 w;

      memcpy (&w, p, 8);
      c = __builtin_ia32_crc32di (c, w);
      p += 8;
      len -= 8;
    }
  while (len-- > 0)
    c = __builtin_ia32_crc32qi ((guint32) c, *p++);
  return (guint32) c;
}
#endif

static gboolean
crc_init (void)
{
  static gsize init = 0;
  static gboolean hw = FALSE;

  if (g_once_init_enter (&init))
    {
      crc_table_init ();
#ifdef HAVE_CRC32C_HW
      __builtin_cpu_init ();
      hw = __builtin_cpu_supports ("sse4.2");
#endif
      g_once_init_leave (&init, 1);
    }
  return hw;
}

guint32
_seismo_crc32c_portable (guint32     crc,
                         const void *data,
                         gsize       len)
{
  crc_init ();
  return ~crc32c_soft (~crc, data, len);
}

guint32
_seismo_crc32c (guint32     crc,
                const void *data,
                gsize       len)
{
  gboolean hw = crc_init ();

  crc = ~crc;
#ifdef HAVE_CRC32C_HW
  if (hw)
    crc = crc32c_hw (crc, data, len);
  else
#endif
    crc = crc32c_soft (crc, data, len);
  return ~crc;
}

/* ---------------------------------------------------------------------------------------------- */
/* Byte order                                                                                      */

#define SWAP16(x) ((x) = GUINT16_FROM_LE (x))
#define SWAP32(x) ((x) = GUINT32_FROM_LE (x))
#define SWAP64(x) ((x) = GUINT64_FROM_LE (x))

void
_seismo_file_header_swap (SeismoFileHeader *h)
{
  SWAP16 (h->version_major);
  SWAP16 (h->version_minor);
  SWAP32 (h->header_size);
  SWAP32 (h->chunk_events);
  SWAP32 (h->flags);
  SWAP32 (h->reserved);
  SWAP32 (h->crc);
}

void
_seismo_record_header_swap (SeismoRecordHeader *h)
{
  SWAP16 (h->kind);
  SWAP16 (h->flags);
  SWAP32 (h->info_len);
  SWAP32 (h->reserved);
  SWAP64 (h->data_len);
  SWAP64 (h->raw_len);
  SWAP32 (h->crc);
  SWAP32 (h->header_crc);
}

void
_seismo_chunk_info_swap (SeismoChunkInfo *c)
{
  SWAP64 (c->first_event);
  SWAP32 (c->n_events);
  SWAP32 (c->ts_bytes);
  SWAP64 (c->min_ts);
  SWAP64 (c->max_ts);
  SWAP64 (c->payload_len);
  SWAP32 (c->flags);
  SWAP32 (c->reserved);
}

void
_seismo_index_info_swap (SeismoIndexInfo *i)
{
  SWAP64 (i->n_events);
  SWAP32 (i->n_entries);
  SWAP32 (i->n_chunks);
  SWAP64 (i->min_ts);
  SWAP64 (i->max_ts);
  SWAP32 (i->flags);
  SWAP32 (i->reserved);
}

void
_seismo_index_entry_swap (SeismoIndexEntry *e)
{
  SWAP64 (e->offset);
  SWAP64 (e->size);
  SWAP16 (e->kind);
  SWAP16 (e->reserved);
  SWAP32 (e->n_events);
  SWAP64 (e->first_event);
  SWAP64 (e->min_ts);
  SWAP64 (e->max_ts);
}

void
_seismo_summary_info_swap (SeismoSummaryInfo *s)
{
  guint32 *w = &s->n_chunks;

  for (guint i = 0; i < 10; i++)
    w[i] = GUINT32_TO_LE (w[i]);
  s->n_events = GUINT64_TO_LE (s->n_events);
  s->start_ns = GUINT64_TO_LE (s->start_ns);
  s->end_ns = GUINT64_TO_LE (s->end_ns);
}

void
_seismo_chunk_syscalls_info_swap (SeismoChunkSyscallsInfo *s)
{
  s->n_chunks = GUINT32_TO_LE (s->n_chunks);
  s->n_syscalls = GUINT32_TO_LE (s->n_syscalls);
}

void
_seismo_trailer_swap (SeismoFileTrailer *t)
{
  SWAP64 (t->index_offset);
  SWAP64 (t->file_size);
  SWAP32 (t->reserved);
  SWAP32 (t->crc);
}

/* ---------------------------------------------------------------------------------------------- */
/* Parallel for                                                                                    */

typedef struct {
  guint              n;
  gint               next;
  SeismoParallelFunc func;
  gpointer           data;
} ParallelJob;

typedef struct {
  ParallelJob *job;
  guint        worker;
} ParallelWorker;

static gpointer
parallel_worker (gpointer p)
{
  ParallelWorker *w = p;

  seismo_work_priority_enter ();

  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&w->job->next, 1);

      if (i >= w->job->n)
        break;
      seismo_work_priority_pause_point ();
      w->job->func (i, w->worker, w->job->data);
    }
  return NULL;
}

guint
_seismo_file_n_workers (void)
{
  const char *env = g_getenv ("SEISMO_THREADS");
  guint n = g_get_num_processors ();

  /* An override lets the benchmark compare one thread against all. */
  if (env != NULL && *env != '\0')
    n = (guint) g_ascii_strtoull (env, NULL, 10);
  return CLAMP (n, 1, 16);
}

void
_seismo_file_parallel_for (guint              n,
                           guint              n_workers,
                           SeismoParallelFunc func,
                           gpointer           data)
{
  ParallelJob job = { n, 0, func, data };
  ParallelWorker workers[16];
  GThread *threads[16] = { NULL };

  n_workers = CLAMP (n_workers, 1, G_N_ELEMENTS (workers));
  n_workers = MIN (n_workers, MAX (n, 1));
  for (guint w = 0; w < n_workers; w++)
    workers[w] = (ParallelWorker) { &job, w };
  /* A thread that cannot start only costs speed: the others take its share. */
  for (guint w = 1; w < n_workers; w++)
    threads[w] = g_thread_try_new ("seismo-file", parallel_worker, &workers[w], NULL);
  parallel_worker (&workers[0]);
  for (guint w = 1; w < n_workers; w++)
    if (threads[w] != NULL)
      g_thread_join (threads[w]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Output                                                                                          */

typedef struct {
  int        fd;
  const char *path;          /* for messages: the name the user gave */
  guint64    offset;
  guint64    good_offset;    /* where the last complete record ends: what a full disk keeps */
  guint64    good_events;    /* events in the chunks before good_offset */
  GArray    *entries;        /* SeismoIndexEntry, host order */
  ZSTD_CCtx *cctx;           /* tables (chunks use one per worker) */
  guint64    n_events;
  guint64    min_ts;
  guint64    max_ts;
  guint32    n_chunks;
  gboolean   sorted;

  /* Summaries of the chunks written, and the tables they name (borrowed, set before each batch
   * of chunks: the builder's or the trace's). */
  SeismoSummaryBuilder *summary;
  GPtrArray        *sum_types;
  const SeismoTask *sum_tasks;
  guint             sum_n_tasks;
  const char       *sum_arch;
} Out;

static void
out_init (Out        *out,
          int         fd,
          const char *path)
{
  memset (out, 0, sizeof *out);
  out->fd = fd;
  out->path = path;
  out->entries = g_array_new (FALSE, FALSE, sizeof (SeismoIndexEntry));
  out->cctx = ZSTD_createCCtx ();
  out->min_ts = G_MAXUINT64;
  out->sorted = TRUE;
  out->summary = _seismo_summary_builder_new ();
}

static void
out_set_tables (Out              *out,
                GPtrArray        *types,
                const SeismoTask *tasks,
                guint             n_tasks,
                const char       *arch)
{
  out->sum_types = types;
  out->sum_tasks = tasks;
  out->sum_n_tasks = n_tasks;
  out->sum_arch = arch;
}

static void
out_clear (Out *out)
{
  g_clear_pointer (&out->entries, g_array_unref);
  g_clear_pointer (&out->cctx, ZSTD_freeCCtx);
  g_clear_pointer (&out->summary, _seismo_summary_builder_free);
}

static gboolean
set_errno_error (GError    **error,
                 int         saved_errno,
                 const char *what,
                 const char *path)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), _("Could not %s %s: %s"),
               what, display, g_strerror (saved_errno));
  return FALSE;
}

static gboolean
out_write (Out         *out,
           const void  *data,
           gsize        len,
           GError     **error)
{
  const guint8 *p = data;

  while (len > 0)
    {
      gssize n = write (out->fd, p, MIN (len, (gsize) 1 << 30));

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return set_errno_error (error, errno, "write", out->path);
        }
      p += n;
      len -= (gsize) n;
      out->offset += (guint64) n;
    }
  return TRUE;
}

static void
fill_record_header (SeismoRecordHeader *h,
                    guint16             kind,
                    guint16             flags,
                    guint32             info_len,
                    guint64             data_len,
                    guint64             raw_len,
                    guint32             crc)
{
  memset (h, 0, sizeof *h);
  memcpy (h->tag, SEISMO_RECORD_TAG, 4);
  h->kind = kind;
  h->flags = flags;
  h->info_len = info_len;
  h->data_len = data_len;
  h->raw_len = raw_len;
  h->crc = crc;
  _seismo_record_header_swap (h);
  h->header_crc = GUINT32_TO_LE (_seismo_crc32c (0, h, G_STRUCT_OFFSET (SeismoRecordHeader,
                                                                       header_crc)));
}

/* Writes a table record: info as given (already little-endian), data compressed when it helps. */
static gboolean
out_record (Out         *out,
            guint16      kind,
            guint16      flags,
            const void  *info,
            guint32      info_len,
            GByteArray  *raw,
            GError     **error)
{
  SeismoRecordHeader h;
  SeismoIndexEntry entry = { 0 };
  g_autofree guint8 *packed = NULL;
  const guint8 *data = raw->data;
  gsize data_len = raw->len;
  guint32 crc;

  if (raw->len >= 64)
    {
      gsize bound = ZSTD_compressBound (raw->len);
      gsize n;

      packed = g_malloc (bound);
      n = ZSTD_compressCCtx (out->cctx, packed, bound, raw->data, raw->len, SEISMO_FILE_ZSTD_LEVEL);
      if (ZSTD_isError (n))
        {
          g_autofree char *display = g_filename_display_name (out->path);

          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not write %s: zstd: %s"),
                       display, ZSTD_getErrorName (n));
          return FALSE;
        }
      if (n < raw->len)
        {
          data = packed;
          data_len = n;
          flags |= SEISMO_RECORD_FLAG_ZSTD;
        }
    }

  crc = _seismo_crc32c (0, info, info_len);
  crc = _seismo_crc32c (crc, data, data_len);
  fill_record_header (&h, kind, flags, info_len, data_len, raw->len, crc);

  entry.offset = out->offset;
  entry.size = sizeof h + info_len + data_len;
  entry.kind = kind;
  if (!out_write (out, &h, sizeof h, error) ||
      !out_write (out, info, info_len, error) ||
      !out_write (out, data, data_len, error))
    return FALSE;
  g_array_append_val (out->entries, entry);
  out->good_offset = out->offset;
  return TRUE;
}

static gboolean
out_table (Out         *out,
           guint16      kind,
           const void  *info,
           guint32      info_len,
           GByteArray  *raw,
           GError     **error)
{
  return out_record (out, kind, 0, info, info_len, raw, error);
}

static void
table_info (SeismoTableInfo *info,
            guint32          first,
            guint32          count)
{
  info->first = GUINT32_TO_LE (first);
  info->count = GUINT32_TO_LE (count);
}

/* ---------------------------------------------------------------------------------------------- */
/* Table encodings (docs/file-format.md, "Tables")                                                 */

static inline void
put_varint (GByteArray *b,
            guint64     v)
{
  guint8 tmp[SEISMO_VARINT_MAX];
  guint8 *end = seismo_varint_put (tmp, v);

  g_byte_array_append (b, tmp, (guint) (end - tmp));
}

static inline void
put_svarint (GByteArray *b,
             gint64      v)
{
  put_varint (b, seismo_zigzag_encode (v));
}

static inline void
put_str (GByteArray *b,
         const char *s)
{
  gsize len = s != NULL ? strlen (s) : 0;

  put_varint (b, len);
  g_byte_array_append (b, (const guint8 *) (s != NULL ? s : ""), (guint) len);
}

static void
encode_event_types (GByteArray *b,
                    GPtrArray  *types,
                    guint       first,
                    guint       count)
{
  for (guint t = first; t < first + count; t++)
    {
      const SeismoEventType *type = g_ptr_array_index (types, t);

      put_str (b, type->system);
      put_str (b, type->name);
      put_varint (b, type->print_fmt != NULL);
      if (type->print_fmt != NULL)
        put_str (b, type->print_fmt);
      put_varint (b, type->n_fields);
      for (guint f = 0; f < type->n_fields; f++)
        {
          const SeismoField *field = &type->fields[f];

          put_str (b, field->name);
          put_varint (b, field->type);
          put_varint (b, field->size);
          put_varint (b, field->display);
          put_varint (b, field->n_symbols);
          for (guint s = 0; s < field->n_symbols; s++)
            {
              put_varint (b, field->symbols[s].value);
              put_str (b, field->symbols[s].name);
            }
        }
    }
}

/* Each string is stored as the span up to the next one (NUL included), so offsets survive. */
static void
encode_strings (GByteArray     *b,
                const char     *strings,
                gsize           strings_len,
                const guint32  *off,
                guint           n_total,
                guint           first,
                guint           count)
{
  gsize start = off[first];
  gsize end = first + count < n_total ? off[first + count] : strings_len;

  for (guint s = first; s < first + count; s++)
    {
      gsize next = s + 1 < n_total ? off[s + 1] : strings_len;

      put_varint (b, next - off[s]);
    }
  g_byte_array_append (b, (const guint8 *) strings + start, (guint) (end - start));
}

static void
encode_task (GByteArray       *b,
             guint             id,
             const SeismoTask *task)
{
  put_varint (b, id);
  put_svarint (b, task->tid);
  put_svarint (b, task->pid);
  put_svarint (b, task->ppid);
  put_varint (b, task->comm);
  put_varint (b, task->first_ns);
  put_varint (b, task->last_ns);
}

static void
encode_comm_changes (GByteArray             *b,
                     const SeismoCommChange *changes,
                     guint                   count)
{
  for (guint c = 0; c < count; c++)
    {
      put_varint (b, changes[c].task);
      put_varint (b, changes[c].comm);
      put_varint (b, changes[c].time_ns);
    }
}

static void
encode_lost (GByteArray             *b,
             const SeismoLostEvents *lost,
             guint                   count)
{
  for (guint l = 0; l < count; l++)
    {
      put_svarint (b, lost[l].cpu);
      put_varint (b, lost[l].time_ns);
      put_varint (b, lost[l].count);
    }
}

static void
encode_histograms (GByteArray            *b,
                   const SeismoHistogram *hists,
                   guint                  count)
{
  for (guint h = 0; h < count; h++)
    {
      const SeismoHistogram *hist = &hists[h];

      put_str (b, hist->name);
      put_str (b, hist->key);
      put_str (b, hist->unit);
      put_varint (b, hist->n_buckets);
      for (guint k = 0; k < hist->n_buckets; k++)
        put_varint (b, hist->lower[k]);
      for (guint k = 0; k < hist->n_buckets; k++)
        put_varint (b, hist->counts[k]);
      put_varint (b, hist->total_count);
      put_varint (b, hist->sum);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Chunks                                                                                          */

typedef struct {
  const guint64      *ts;
  const guint16      *cpu;
  const guint16      *type;
  const SeismoTaskId *task;
  const guint32      *off;          /* relative to payload */
  const guint8       *payload;      /* the block's first byte */
  gsize               payload_len;  /* the block's length */
  guint32             n;
  guint64             first_event;
} ChunkSource;

typedef struct {
  ZSTD_CCtx *cctx;
  guint8    *raw;
  gsize      raw_cap;
} Encoder;

typedef struct {
  guint8          *record;    /* header + info + data, ready to write */
  gsize            len;
  SeismoIndexEntry entry;     /* offset filled when written */
  gboolean         sorted;
  char            *error;
} EncodedChunk;

static inline guint8 *
put_column16 (guint8        *dst,
              const guint16 *src,
              guint32        n)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  memcpy (dst, src, (gsize) n * 2);
#else
  for (guint32 i = 0; i < n; i++)
    {
      guint16 v = GUINT16_TO_LE (src[i]);
      memcpy (dst + 2 * i, &v, 2);
    }
#endif
  return dst + (gsize) n * 2;
}

static inline guint8 *
put_column32 (guint8        *dst,
              const guint32 *src,
              guint32        n)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  memcpy (dst, src, (gsize) n * 4);
#else
  for (guint32 i = 0; i < n; i++)
    {
      guint32 v = GUINT32_TO_LE (src[i]);
      memcpy (dst + 4 * i, &v, 4);
    }
#endif
  return dst + (gsize) n * 4;
}

/* Columns, in this order: timestamp deltas (zigzag varints, the first against min_ts), cpu (u16),
 * type (u16), task (u32), payload length (u16), then the payload bytes. Fixed-width columns of
 * small numbers and varint deltas are what zstd compresses well. */
static void
encode_chunk (Encoder           *enc,
              const ChunkSource *src,
              EncodedChunk      *out)
{
  guint32 n = src->n;
  gsize payload_start = src->off[0];
  gsize payload_len = src->payload_len - payload_start;
  gsize need = (gsize) n * (SEISMO_VARINT_MAX + 10) + payload_len;
  guint64 min_ts = G_MAXUINT64, max_ts = 0, prev;
  gboolean sorted = TRUE;
  SeismoChunkInfo info = { 0 };
  SeismoRecordHeader h;
  guint8 *p, *ts_end;
  gsize bound, packed;
  guint32 crc;

  if (enc->raw_cap < need)
    {
      g_free (enc->raw);
      enc->raw_cap = need;
      enc->raw = g_malloc (need);
    }

  for (guint32 i = 0; i < n; i++)
    {
      min_ts = MIN (min_ts, src->ts[i]);
      max_ts = MAX (max_ts, src->ts[i]);
      if (i > 0 && src->ts[i] < src->ts[i - 1])
        sorted = FALSE;
    }

  p = enc->raw;
  prev = min_ts;
  for (guint32 i = 0; i < n; i++)
    {
      p = seismo_varint_put (p, seismo_zigzag_encode ((gint64) (src->ts[i] - prev)));
      prev = src->ts[i];
    }
  ts_end = p;
  p = put_column16 (p, src->cpu, n);
  p = put_column16 (p, src->type, n);
  p = put_column32 (p, src->task, n);
  for (guint32 i = 0; i < n; i++)
    {
      gsize next = i + 1 < n ? src->off[i + 1] : src->payload_len;
      guint16 len = GUINT16_TO_LE ((guint16) (next - src->off[i]));

      g_assert (next - src->off[i] <= SEISMO_MAX_PAYLOAD);
      memcpy (p, &len, 2);
      p += 2;
    }
  memcpy (p, src->payload + payload_start, payload_len);
  p += payload_len;

  info.first_event = src->first_event;
  info.n_events = n;
  info.ts_bytes = (guint32) (ts_end - enc->raw);
  info.min_ts = min_ts;
  info.max_ts = max_ts;
  info.payload_len = payload_len;
  info.flags = sorted ? SEISMO_CHUNK_FLAG_SORTED : 0;
  _seismo_chunk_info_swap (&info);

  bound = ZSTD_compressBound ((gsize) (p - enc->raw));
  out->record = g_malloc (sizeof h + sizeof info + bound);
  packed = ZSTD_compressCCtx (enc->cctx, out->record + sizeof h + sizeof info, bound, enc->raw,
                              (gsize) (p - enc->raw), SEISMO_FILE_ZSTD_LEVEL);
  if (ZSTD_isError (packed))
    {
      out->error = g_strdup_printf ("zstd: %s", ZSTD_getErrorName (packed));
      return;
    }

  memcpy (out->record + sizeof h, &info, sizeof info);
  crc = _seismo_crc32c (0, out->record + sizeof h, sizeof info + packed);
  fill_record_header (&h, SEISMO_RECORD_CHUNK, SEISMO_RECORD_FLAG_ZSTD, sizeof info, packed,
                      (guint64) (p - enc->raw), crc);
  memcpy (out->record, &h, sizeof h);
  out->len = sizeof h + sizeof info + packed;

  out->sorted = sorted;
  out->entry.size = out->len;
  out->entry.kind = SEISMO_RECORD_CHUNK;
  out->entry.n_events = n;
  out->entry.first_event = src->first_event;
  out->entry.min_ts = min_ts;
  out->entry.max_ts = max_ts;
}

typedef struct {
  const ChunkSource *sources;
  EncodedChunk      *chunks;
  Encoder           *encoders;
  guint              n;
  Out               *out;        /* summarize the n chunks as job n (NULL: no summary) */
} EncodeJob;

static void
encode_one (guint    i,
            guint    worker,
            gpointer data)
{
  EncodeJob *job = data;
  Encoder *enc = &job->encoders[worker];

  /* The summary reads the chunks in order, so it is one job: it runs beside the compression of
   * the same chunks (it only reads them) instead of after it. It is job 0 so that it starts
   * first: it is the longest. */
  if (job->out != NULL)
    {
      if (i == 0)
        {
          Out *out = job->out;

          for (guint k = 0; k < job->n; k++)
            {
              const ChunkSource *src = &job->sources[k];

              _seismo_summary_builder_add_chunk (out->summary, out->sum_types, out->sum_tasks,
                                                 out->sum_n_tasks, out->sum_arch, src->ts,
                                                 src->cpu, src->type, src->task, src->off,
                                                 src->payload, src->payload_len, src->n);
            }
          return;
        }
      i--;
    }
  if (enc->cctx == NULL)
    enc->cctx = ZSTD_createCCtx ();
  encode_chunk (enc, &job->sources[i], &job->chunks[i]);
}

/* Compresses the chunks on all cores and appends them in order. */
static gboolean
out_chunks (Out               *out,
            const ChunkSource *sources,
            guint              n_sources,
            GError           **error)
{
  guint n_workers = _seismo_file_n_workers ();
  g_autofree Encoder *encoders = g_new0 (Encoder, n_workers);
  gboolean ok = TRUE;

  for (guint start = 0; ok && start < n_sources; start += SEISMO_FILE_BATCH)
    {
      guint n = MIN (SEISMO_FILE_BATCH, n_sources - start);
      EncodedChunk chunks[SEISMO_FILE_BATCH] = { { 0 } };
      EncodeJob job = { sources + start, chunks, encoders, n, NULL };

      if (_seismo_summary_builder_is_valid (out->summary))
        job.out = out;
      _seismo_file_parallel_for (n + (job.out != NULL), n_workers, encode_one, &job);

      for (guint i = 0; i < n; i++)
        {
          EncodedChunk *c = &chunks[i];

          if (ok && c->error != NULL)
            {
              g_autofree char *display = g_filename_display_name (out->path);

              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not write %s: %s"),
                           display, c->error);
              ok = FALSE;
            }
          if (ok)
            {
              c->entry.offset = out->offset;
              ok = out_write (out, c->record, c->len, error);
            }
          if (ok)
            {
              g_array_append_val (out->entries, c->entry);
              if (!c->sorted || (out->n_chunks > 0 && c->entry.min_ts < out->max_ts))
                out->sorted = FALSE;
              out->n_events += c->entry.n_events;
              out->good_offset = out->offset;
              out->good_events = out->n_events;
              out->min_ts = MIN (out->min_ts, c->entry.min_ts);
              out->max_ts = MAX (out->max_ts, c->entry.max_ts);
              out->n_chunks++;

            }
          g_free (c->record);
          g_free (c->error);
        }
    }

  /* The summary counted chunks that did not make it into the file. */
  if (!ok)
    g_clear_pointer (&out->summary, _seismo_summary_builder_free);
  for (guint w = 0; w < n_workers; w++)
    {
      ZSTD_freeCCtx (encoders[w].cctx);
      g_free (encoders[w].raw);
    }
  return ok;
}

/* The index record and the trailer: the last thing in a finished file. */
static gboolean
out_finish (Out     *out,
            GError **error)
{
  SeismoIndexInfo info = { 0 };
  SeismoRecordHeader h;
  SeismoFileTrailer trailer = { 0 };
  g_autofree SeismoIndexEntry *entries = NULL;
  guint n = out->entries->len;
  gsize data_len = (gsize) n * sizeof (SeismoIndexEntry);
  guint64 index_offset;
  guint32 crc;

  /* The summary goes last before the index (its syscalls by chunk just before it), once every
   * chunk is known; a reader that does not know them skips them (OPTIONAL). A failed write leaves
   * the file as it was before it. */
  if (_seismo_summary_builder_is_valid (out->summary) && out->n_chunks > 0)
    {
      SeismoSummaryInfo sinfo;
      SeismoChunkSyscallsInfo cinfo;
      g_autoptr(GByteArray) raw = NULL;
      g_autoptr(GByteArray) chunk_syscalls = NULL;

      _seismo_summary_builder_finish (out->summary, out->sum_n_tasks, &sinfo, &raw, &cinfo,
                                      &chunk_syscalls);
      g_clear_pointer (&out->summary, _seismo_summary_builder_free);
      if (!out_record (out, SEISMO_RECORD_CHUNK_SYSCALLS, SEISMO_RECORD_FLAG_OPTIONAL, &cinfo,
                       sizeof cinfo, chunk_syscalls, error) ||
          !out_record (out, SEISMO_RECORD_SUMMARY, SEISMO_RECORD_FLAG_OPTIONAL, &sinfo,
                       sizeof sinfo, raw, error))
        return FALSE;
      n = out->entries->len;
      data_len = (gsize) n * sizeof (SeismoIndexEntry);
    }
  index_offset = out->offset;

  info.n_events = out->n_events;
  info.n_entries = n;
  info.n_chunks = out->n_chunks;
  info.min_ts = out->n_events > 0 ? out->min_ts : 0;
  info.max_ts = out->max_ts;
  info.flags = out->sorted ? SEISMO_INDEX_FLAG_SORTED : 0;
  _seismo_index_info_swap (&info);

  entries = g_memdup2 (out->entries->data, MAX (data_len, 1));
  for (guint i = 0; i < n; i++)
    _seismo_index_entry_swap (&entries[i]);

  crc = _seismo_crc32c (0, &info, sizeof info);
  crc = _seismo_crc32c (crc, entries, data_len);
  fill_record_header (&h, SEISMO_RECORD_INDEX, 0, sizeof info, data_len, data_len, crc);
  if (!out_write (out, &h, sizeof h, error) ||
      !out_write (out, &info, sizeof info, error) ||
      !out_write (out, entries, data_len, error))
    return FALSE;

  trailer.index_offset = index_offset;
  trailer.file_size = out->offset + sizeof trailer;
  memcpy (trailer.magic, SEISMO_FILE_TRAILER_MAGIC, SEISMO_FILE_MAGIC_LEN);
  _seismo_trailer_swap (&trailer);
  trailer.crc = GUINT32_TO_LE (_seismo_crc32c (0, &trailer,
                                               G_STRUCT_OFFSET (SeismoFileTrailer, crc)));
  return out_write (out, &trailer, sizeof trailer, error);
}

static gboolean
out_file_header (Out     *out,
                 GError **error)
{
  SeismoFileHeader h = { 0 };

  memcpy (h.magic, SEISMO_FILE_MAGIC, SEISMO_FILE_MAGIC_LEN);
  h.version_major = SEISMO_FILE_VERSION_MAJOR;
  h.version_minor = SEISMO_FILE_VERSION_MINOR;
  h.header_size = sizeof h;
  h.chunk_events = SEISMO_BLOCK_EVENTS;
  _seismo_file_header_swap (&h);
  h.crc = GUINT32_TO_LE (_seismo_crc32c (0, &h, G_STRUCT_OFFSET (SeismoFileHeader, crc)));
  if (!out_write (out, &h, sizeof h, error))
    return FALSE;
  out->good_offset = out->offset;
  return TRUE;
}

static gboolean
out_info (Out     *out,
          guint    n_cpus,
          GError **error)
{
  SeismoInfoRecord info = { GUINT32_TO_LE (n_cpus), 0 };
  g_autoptr(GByteArray) empty = g_byte_array_new ();

  return out_table (out, SEISMO_RECORD_INFO, &info, sizeof info, empty, error);
}

/* ---------------------------------------------------------------------------------------------- */
/* Atomic files                                                                                    */

static gboolean
sync_dir_of (const char  *path,
             GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  /* The rename is durable only once the folder is; a folder we cannot open is not an error for
   * the file itself, which is complete. */
  if (fd < 0)
    return TRUE;
  if (fsync (fd) < 0 && errno != EINVAL)
    {
      int saved = errno;

      close (fd);
      return set_errno_error (error, saved, _("sync the folder of"), path);
    }
  close (fd);
  return TRUE;
}

/* fsync, close, rename over path, sync the folder. Closes fd in every case. */
static gboolean
commit_file (int          fd,
             const char  *tmp_path,
             const char  *path,
             GError     **error)
{
  if (fsync (fd) < 0)
    {
      int saved = errno;

      close (fd);
      return set_errno_error (error, saved, "sync", path);
    }
  if (close (fd) < 0)
    return set_errno_error (error, errno, "close", path);
  if (g_rename (tmp_path, path) < 0)
    return set_errno_error (error, errno, _("rename the temporary file to"), path);
  return sync_dir_of (path, error);
}

/* ---------------------------------------------------------------------------------------------- */
/* One-shot save                                                                                   */

/* The stack ids of events [first, first + n), when any of them has a stack (format 1.2). */
static gboolean
out_stack_ids (Out            *out,
               const guint32  *ids,
               gsize           n,
               guint64         first,
               GError        **error)
{
  g_autoptr(GByteArray) raw = NULL;
  SeismoStackIdsInfo info = { 0 };
  gboolean any = FALSE;

  for (gsize i = 0; i < n && !any; i++)
    any = ids[i] != 0;
  if (!any)
    return TRUE;
  raw = g_byte_array_sized_new ((guint) n);
  _seismo_file_encode_stack_ids (raw, ids, n);
  info.first_event = GUINT64_TO_LE (first);
  info.n_events = GUINT32_TO_LE ((guint32) n);
  return out_record (out, SEISMO_RECORD_STACK_IDS, SEISMO_RECORD_FLAG_OPTIONAL, &info, sizeof info,
                     raw, error);
}

static gboolean
out_stack_tables (Out               *out,
                  SeismoStackTable  *table,
                  GError           **error)
{
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  SeismoStackTablesInfo info;

  _seismo_file_encode_stack_tables (raw, table, &info);
  return out_record (out, SEISMO_RECORD_STACK_TABLES, SEISMO_RECORD_FLAG_OPTIONAL, &info,
                     sizeof info, raw, error);
}

static gboolean
save_trace (Out          *out,
            SeismoTrace  *trace,
            GError      **error)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autofree ChunkSource *sources = NULL;
  SeismoTableInfo info;
  guint n_meta = 0;

  if (!out_file_header (out, error) || !out_info (out, trace->n_cpus, error))
    return FALSE;

  for (guint i = 0; i < trace->meta_values->len; i++)
    {
      const char *key = g_ptr_array_index (trace->meta_keys, i);

      if (strcmp (key, SEISMO_META_LOAD_WARNING) == 0)
        continue;
      put_str (b, key);
      put_str (b, g_ptr_array_index (trace->meta_values, i));
      n_meta++;
    }
  table_info (&info, 0, n_meta);
  if (!out_table (out, SEISMO_RECORD_METADATA, &info, sizeof info, b, error))
    return FALSE;

  g_byte_array_set_size (b, 0);
  encode_event_types (b, trace->event_types, 0, trace->event_types->len);
  table_info (&info, 0, trace->event_types->len);
  if (!out_table (out, SEISMO_RECORD_EVENT_TYPES, &info, sizeof info, b, error))
    return FALSE;

  g_byte_array_set_size (b, 0);
  encode_strings (b, trace->strings, trace->strings_len, trace->string_off, trace->n_strings, 0,
                  trace->n_strings);
  table_info (&info, 0, trace->n_strings);
  if (!out_table (out, SEISMO_RECORD_STRINGS, &info, sizeof info, b, error))
    return FALSE;

  g_byte_array_set_size (b, 0);
  for (guint t = 0; t < trace->n_tasks; t++)
    encode_task (b, t, &trace->tasks[t]);
  table_info (&info, 0, trace->n_tasks);
  if (!out_table (out, SEISMO_RECORD_TASKS, &info, sizeof info, b, error))
    return FALSE;

  g_byte_array_set_size (b, 0);
  encode_comm_changes (b, trace->comm_changes, trace->n_comm_changes);
  table_info (&info, 0, trace->n_comm_changes);
  if (!out_table (out, SEISMO_RECORD_COMM_CHANGES, &info, sizeof info, b, error))
    return FALSE;

  g_byte_array_set_size (b, 0);
  encode_lost (b, trace->lost, trace->n_lost);
  table_info (&info, 0, trace->n_lost);
  if (!out_table (out, SEISMO_RECORD_LOST_EVENTS, &info, sizeof info, b, error))
    return FALSE;

  g_byte_array_set_size (b, 0);
  encode_histograms (b, trace->histograms, trace->n_histograms);
  table_info (&info, 0, trace->n_histograms);
  if (!out_table (out, SEISMO_RECORD_HISTOGRAMS, &info, sizeof info, b, error))
    return FALSE;

  out_set_tables (out, trace->event_types, trace->tasks, trace->n_tasks,
                  seismo_trace_get_metadata (trace, SEISMO_META_ARCH));
  sources = g_new0 (ChunkSource, MAX (trace->n_blocks, 1));
  for (gsize k = 0; k < trace->n_blocks; k++)
    {
      gsize first = k << SEISMO_BLOCK_SHIFT;

      sources[k] = (ChunkSource) {
        .ts = trace->ts + first,
        .cpu = trace->cpu + first,
        .type = trace->type + first,
        .task = trace->task + first,
        .off = trace->payload_off + first,
        .payload = trace->payload + trace->block_base[k],
        .payload_len = trace->block_base[k + 1] - trace->block_base[k],
        .n = (guint32) MIN (SEISMO_BLOCK_EVENTS, trace->n_events - first),
        .first_event = first,
      };
    }
  if (!out_chunks (out, sources, trace->n_blocks, error))
    return FALSE;
  if (trace->stacks != NULL && trace->stack_of != NULL)
    {
      for (gsize k = 0; k < trace->n_blocks; k++)
        {
          gsize first = k << SEISMO_BLOCK_SHIFT;

          if (!out_stack_ids (out, trace->stack_of + first,
                              MIN (SEISMO_BLOCK_EVENTS, trace->n_events - first), first, error))
            return FALSE;
        }
      if (!out_stack_tables (out, trace->stacks, error))
        return FALSE;
    }

  return out_finish (out, error);
}

static char *
temp_template (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX", base);

  return g_build_filename (dir, name, NULL);
}

gboolean
seismo_file_save_to_fd (SeismoTrace  *trace,
                        int           fd,
                        const char   *name,
                        GError      **error)
{
  Out out;
  gboolean ok;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (ftruncate (fd, 0) < 0 || lseek (fd, 0, SEEK_SET) < 0)
    return set_errno_error (error, errno, "write", name);
  out_init (&out, fd, name);
  ok = save_trace (&out, trace, error);
  out_clear (&out);
  if (ok && fsync (fd) < 0)
    return set_errno_error (error, errno, "sync", name);
  return ok;
}

gboolean
seismo_file_save (SeismoTrace  *trace,
                  const char   *path,
                  GError      **error)
{
  g_autofree char *tmp_path = NULL;
  Out out;
  gboolean ok;
  int fd;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  tmp_path = temp_template (path);
  fd = g_mkstemp_full (tmp_path, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    return set_errno_error (error, errno, _("create a temporary file for"), path);
  /* The trace may hold command lines and file names: private to its owner whatever the umask. */
  if (fchmod (fd, 0600) < 0)
    {
      int saved = errno;

      close (fd);
      g_unlink (tmp_path);
      return set_errno_error (error, saved, _("set the permissions of"), path);
    }

  out_init (&out, fd, path);
  ok = save_trace (&out, trace, error);
  out_clear (&out);
  if (!ok)
    {
      close (fd);
      g_unlink (tmp_path);
      return FALSE;
    }
  if (!commit_file (fd, tmp_path, path, error))
    {
      g_unlink (tmp_path);
      return FALSE;
    }
  return TRUE;
}

const SeismoExporter seismo_file_exporter = {
  .name = "seismo",
  .extension = SEISMO_FILE_EXTENSION,
  .save = seismo_file_save,
};

/* ---------------------------------------------------------------------------------------------- */
/* Streaming writer                                                                                */

struct _SeismoFileWriter
{
  char     *path;           /* where commit() renames to; NULL for a writer on a descriptor */
  char     *partial_path;   /* the file written: a path, or the name to show for a descriptor */
  Out       out;
  gboolean  open;
  gboolean  owns_fd;
  gboolean  finished;
  gboolean  committed;

  /* What the file holds so far, to write only the difference on the next flush. */
  guint     n_types;
  guint     n_strings;
  GArray   *tasks;          /* SeismoTask as written */
  guint     n_comm_changes;
  guint     n_lost;
  guint     n_histograms;
  GPtrArray *meta_values;   /* char*, per builder metadata index, as written */
  guint     n_cpus;
  gboolean  wrote_info;
  gsize     n_blocks;       /* complete chunks written */

  /* The incomplete last chunk, written provisionally by seismo_file_writer_flush_all() so that a
   * crash loses only what came after it; the next write cuts it off and writes it again, grown.
   * What Out held before it, to return to. */
  gboolean  has_tail;
  Out       before_tail;
  guint     before_tail_entries;
};

static SeismoFileWriter *
writer_new (int          fd,
            gboolean     owns_fd,
            const char  *path,
            const char  *partial_path,
            GError     **error)
{
  SeismoFileWriter *self = g_new0 (SeismoFileWriter, 1);

  self->path = g_strdup (path);
  self->partial_path = g_strdup (partial_path);
  self->owns_fd = owns_fd;
  out_init (&self->out, fd, self->partial_path);
  self->open = TRUE;
  self->tasks = g_array_new (FALSE, FALSE, sizeof (SeismoTask));
  self->meta_values = g_ptr_array_new_with_free_func (g_free);

  if (!out_file_header (&self->out, error))
    {
      if (path != NULL)
        seismo_file_writer_discard (self);
      seismo_file_writer_free (self);
      return NULL;
    }
  return self;
}

SeismoFileWriter *
seismo_file_writer_new (const char  *path,
                        GError     **error)
{
  g_autofree char *partial_path = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  partial_path = g_strconcat (path, SEISMO_FILE_PARTIAL_SUFFIX, NULL);
  /* A stale partial file is replaced, never written through: no symlink left under that name is
   * followed. (A recorder acting for another user opens its file through SeismoOutput instead.) */
  g_unlink (partial_path);
  fd = open (partial_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      set_errno_error (error, errno, "create", partial_path);
      return NULL;
    }
  if (fchmod (fd, 0600) < 0)
    {
      set_errno_error (error, errno, _("set the permissions of"), partial_path);
      close (fd);
      g_unlink (partial_path);
      return NULL;
    }
  return writer_new (fd, TRUE, path, partial_path, error);
}

SeismoFileWriter *
seismo_file_writer_new_for_fd (int          fd,
                               const char  *name,
                               GError     **error)
{
  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The descriptor may name a stale file being reused: start it over. */
  if (ftruncate (fd, 0) < 0 || lseek (fd, 0, SEEK_SET) < 0)
    {
      set_errno_error (error, errno, "write", name);
      return NULL;
    }
  return writer_new (fd, FALSE, NULL, name, error);
}

const char *
seismo_file_writer_get_partial_path (SeismoFileWriter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->partial_path;
}

static const char *
builder_metadata (SeismoTraceBuilder *b,
                  const char         *key)
{
  for (guint i = 0; i < b->meta_keys->len; i++)
    if (strcmp (g_ptr_array_index (b->meta_keys, i), key) == 0)
      return g_ptr_array_index (b->meta_values, i);
  return NULL;
}

/* Where block k's payload ends in the builder. The next block's base exists once one of its events
 * began; before that the block ends where the event in progress (if any) starts. */
static gsize
builder_block_end (SeismoTraceBuilder *b,
                   gsize               k)
{
  if (k + 1 < b->block_base->len)
    return g_array_index (b->block_base, guint64, k + 1);
  return b->in_event ? b->cur_start : b->payload_len;
}

static gboolean
writer_flush_tables (SeismoFileWriter    *self,
                     SeismoTraceBuilder  *b,
                     GError             **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  SeismoTableInfo info;
  guint n, count;

  if (!self->wrote_info || b->n_cpus != self->n_cpus)
    {
      if (!out_info (&self->out, b->n_cpus, error))
        return FALSE;
      self->n_cpus = b->n_cpus;
      self->wrote_info = TRUE;
    }

  /* Metadata: new keys, and keys whose value changed since written. */
  count = 0;
  for (guint i = 0; i < b->meta_values->len; i++)
    {
      const char *key = g_ptr_array_index (b->meta_keys, i);
      const char *value = g_ptr_array_index (b->meta_values, i);

      if (i < self->meta_values->len && g_strcmp0 (g_ptr_array_index (self->meta_values, i), value) == 0)
        continue;
      if (strcmp (key, SEISMO_META_LOAD_WARNING) == 0)
        continue;
      put_str (buf, key);
      put_str (buf, value);
      count++;
      while (self->meta_values->len <= i)
        g_ptr_array_add (self->meta_values, NULL);
      g_free (g_ptr_array_index (self->meta_values, i));
      g_ptr_array_index (self->meta_values, i) = g_strdup (value);
    }
  if (count > 0)
    {
      table_info (&info, 0, count);
      if (!out_table (&self->out, SEISMO_RECORD_METADATA, &info, sizeof info, buf, error))
        return FALSE;
    }

  n = b->event_types->len;
  if (n > self->n_types)
    {
      g_byte_array_set_size (buf, 0);
      encode_event_types (buf, b->event_types, self->n_types, n - self->n_types);
      table_info (&info, self->n_types, n - self->n_types);
      if (!out_table (&self->out, SEISMO_RECORD_EVENT_TYPES, &info, sizeof info, buf, error))
        return FALSE;
      self->n_types = n;
    }

  n = b->string_off->len;
  if (n > self->n_strings)
    {
      g_byte_array_set_size (buf, 0);
      encode_strings (buf, (const char *) b->strings->data, b->strings->len,
                      (const guint32 *) (gpointer) b->string_off->data, n, self->n_strings,
                      n - self->n_strings);
      table_info (&info, self->n_strings, n - self->n_strings);
      if (!out_table (&self->out, SEISMO_RECORD_STRINGS, &info, sizeof info, buf, error))
        return FALSE;
      self->n_strings = n;
    }

  /* Tasks change after they are written (pid learnt later, comm, last event time): write the new
   * ones and those that differ from what the file holds. */
  g_byte_array_set_size (buf, 0);
  count = 0;
  for (guint t = 0; t < b->tasks->len; t++)
    {
      const SeismoTask *task = &g_array_index (b->tasks, SeismoTask, t);

      if (t < self->tasks->len &&
          memcmp (&g_array_index (self->tasks, SeismoTask, t), task, sizeof *task) == 0)
        continue;
      encode_task (buf, t, task);
      count++;
      if (t < self->tasks->len)
        g_array_index (self->tasks, SeismoTask, t) = *task;
      else
        g_array_append_vals (self->tasks, task, 1);
    }
  if (count > 0)
    {
      table_info (&info, 0, count);
      if (!out_table (&self->out, SEISMO_RECORD_TASKS, &info, sizeof info, buf, error))
        return FALSE;
    }

  n = b->comm_changes->len;
  if (n > self->n_comm_changes)
    {
      g_byte_array_set_size (buf, 0);
      encode_comm_changes (buf, &g_array_index (b->comm_changes, SeismoCommChange,
                                                self->n_comm_changes), n - self->n_comm_changes);
      table_info (&info, self->n_comm_changes, n - self->n_comm_changes);
      if (!out_table (&self->out, SEISMO_RECORD_COMM_CHANGES, &info, sizeof info, buf, error))
        return FALSE;
      self->n_comm_changes = n;
    }

  n = b->lost->len;
  if (n > self->n_lost)
    {
      g_byte_array_set_size (buf, 0);
      encode_lost (buf, &g_array_index (b->lost, SeismoLostEvents, self->n_lost), n - self->n_lost);
      table_info (&info, self->n_lost, n - self->n_lost);
      if (!out_table (&self->out, SEISMO_RECORD_LOST_EVENTS, &info, sizeof info, buf, error))
        return FALSE;
      self->n_lost = n;
    }

  n = b->histograms->len;
  if (n > self->n_histograms)
    {
      g_byte_array_set_size (buf, 0);
      encode_histograms (buf, &g_array_index (b->histograms, SeismoHistogram, self->n_histograms),
                         n - self->n_histograms);
      table_info (&info, self->n_histograms, n - self->n_histograms);
      if (!out_table (&self->out, SEISMO_RECORD_HISTOGRAMS, &info, sizeof info, buf, error))
        return FALSE;
      self->n_histograms = n;
    }
  return TRUE;
}

/* Writes the tables, then chunks [self->n_blocks, up_to_block) of the builder; with partial, also
 * the incomplete block after them. */
static gboolean
writer_flush (SeismoFileWriter    *self,
              SeismoTraceBuilder  *b,
              gboolean             partial,
              GError             **error)
{
  /* Block numbers here are the file's; the builder's columns start at its released blocks. */
  gsize base = b->released_blocks;
  gsize n_complete = base + (b->n_events >> SEISMO_BLOCK_SHIFT);
  gsize n_blocks = n_complete;
  g_autofree ChunkSource *sources = NULL;

  g_assert (self->n_blocks >= base);
  if (partial && (b->n_events & (SEISMO_BLOCK_EVENTS - 1)) != 0)
    n_blocks++;

  /* Tables first: the chunks that follow may name any string, type or task appended so far. */
  if (!writer_flush_tables (self, b, error))
    return FALSE;
  out_set_tables (&self->out, b->event_types, (const SeismoTask *) (gpointer) b->tasks->data,
                  b->tasks->len, builder_metadata (b, SEISMO_META_ARCH));
  if (n_blocks <= self->n_blocks)
    return TRUE;

  sources = g_new0 (ChunkSource, n_blocks - self->n_blocks);
  for (gsize k = self->n_blocks; k < n_blocks; k++)
    {
      gsize first = (k - base) << SEISMO_BLOCK_SHIFT;
      guint64 block_start = g_array_index (b->block_base, guint64, k - base);

      sources[k - self->n_blocks] = (ChunkSource) {
        .ts = b->ts + first,
        .cpu = b->cpu + first,
        .type = b->type + first,
        .task = b->task + first,
        .off = b->payload_off + first,
        .payload = b->payload + block_start,
        .payload_len = builder_block_end (b, k - base) - block_start,
        .n = (guint32) MIN (SEISMO_BLOCK_EVENTS, b->n_events - first),
        .first_event = (guint64) k << SEISMO_BLOCK_SHIFT,
      };
    }
  if (!out_chunks (&self->out, sources, n_blocks - self->n_blocks, error))
    return FALSE;
  for (gsize k = self->n_blocks; b->stack_of != NULL && k < n_blocks; k++)
    {
      gsize first = (k - base) << SEISMO_BLOCK_SHIFT;

      if (!out_stack_ids (&self->out, b->stack_of + first,
                          MIN (SEISMO_BLOCK_EVENTS, b->n_events - first),
                          (guint64) k << SEISMO_BLOCK_SHIFT, error))
        return FALSE;
    }
  self->n_blocks = n_blocks;
  return TRUE;
}

/* Cuts the provisional tail chunk off the file, as if it had never been written. */
static gboolean
drop_tail (SeismoFileWriter  *self,
           GError           **error)
{
  Out *out = &self->out;
  const Out *before = &self->before_tail;

  if (!self->has_tail)
    return TRUE;
  if (ftruncate (out->fd, (off_t) before->offset) < 0 ||
      lseek (out->fd, (off_t) before->offset, SEEK_SET) < 0)
    return set_errno_error (error, errno, "write", self->partial_path);
  /* The counts go back; what Out owns (entries, contexts, summary) stays. */
  out->offset = before->offset;
  out->good_offset = before->good_offset;
  out->good_events = before->good_events;
  out->n_events = before->n_events;
  out->min_ts = before->min_ts;
  out->max_ts = before->max_ts;
  out->n_chunks = before->n_chunks;
  out->sorted = before->sorted;
  g_array_set_size (out->entries, self->before_tail_entries);
  self->has_tail = FALSE;
  return TRUE;
}

/* Writes the builder's incomplete last chunk as an ordinary chunk record, without counting it as
 * written: the next write replaces it. */
static gboolean
write_tail (SeismoFileWriter    *self,
            SeismoTraceBuilder  *b,
            GError             **error)
{
  gsize k = b->n_events >> SEISMO_BLOCK_SHIFT;
  gsize first = k << SEISMO_BLOCK_SHIFT;
  guint64 base;
  ChunkSource source;

  if ((b->n_events & (SEISMO_BLOCK_EVENTS - 1)) == 0 || k != self->n_blocks)
    return TRUE;
  base = g_array_index (b->block_base, guint64, k);
  source = (ChunkSource) {
    .ts = b->ts + first,
    .cpu = b->cpu + first,
    .type = b->type + first,
    .task = b->task + first,
    .off = b->payload_off + first,
    .payload = b->payload + base,
    .payload_len = builder_block_end (b, k) - base,
    .n = (guint32) (b->n_events - first),
    .first_event = first,
  };
  self->before_tail = self->out;
  self->before_tail_entries = self->out.entries->len;
  self->has_tail = TRUE;
  /* A chunk written again cannot be counted twice: a file streamed this way (a live recording,
   * loaded whole anyway) goes without a summary. */
  g_clear_pointer (&self->out.summary, _seismo_summary_builder_free);
  return out_chunks (&self->out, &source, 1, error);
}

gboolean
seismo_file_writer_flush_all (SeismoFileWriter    *self,
                              SeismoTraceBuilder  *builder,
                              GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->open || self->finished)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                   "Could not write %s: the file is already closed", self->partial_path);
      return FALSE;
    }
  return drop_tail (self, error) && writer_flush (self, builder, FALSE, error) &&
         write_tail (self, builder, error);
}

gboolean
seismo_file_writer_flush (SeismoFileWriter    *self,
                          SeismoTraceBuilder  *builder,
                          GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->open || self->finished)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                   _("Could not write %s: the file is already closed"), self->partial_path);
      return FALSE;
    }
  return drop_tail (self, error) && writer_flush (self, builder, FALSE, error);
}

gboolean
seismo_file_writer_stream (SeismoFileWriter    *self,
                           SeismoTraceBuilder  *builder,
                           GError             **error)
{
  gsize complete;

  if (!seismo_file_writer_flush (self, builder, error))
    return FALSE;
  /* Every complete block is in the file now; the incomplete one stays for the next flush. */
  complete = self->n_blocks - builder->released_blocks;
  complete = MIN (complete, builder->n_events >> SEISMO_BLOCK_SHIFT);
  _seismo_trace_builder_release (builder, complete);
  return TRUE;
}

gboolean
seismo_file_writer_finish (SeismoFileWriter    *self,
                           SeismoTraceBuilder  *builder,
                           GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->open || self->finished)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                   "Could not write %s: the file is already closed", self->partial_path);
      return FALSE;
    }
  if (!drop_tail (self, error) || !writer_flush (self, builder, TRUE, error) ||
      (builder->stacks != NULL && !out_stack_tables (&self->out, builder->stacks, error)) ||
      !out_finish (&self->out, error))
    return FALSE;
  if (fsync (self->out.fd) < 0)
    return set_errno_error (error, errno, "sync", self->partial_path);
  self->finished = TRUE;
  return TRUE;
}

gboolean
seismo_file_writer_salvage (SeismoFileWriter  *self,
                            guint64           *n_events,
                            GError           **error)
{
  g_autoptr(GError) trailer_error = NULL;
  Out *out;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  out = &self->out;
  if (n_events != NULL)
    *n_events = out->good_events;
  if (!self->open || self->finished)
    return TRUE;
  /* Cut the record the failure left half written, then try to finish the file properly: the
   * index and trailer are small, and the cut may have made room for them. Without them the file
   * is still the readable prefix a killed recorder leaves. */
  if (ftruncate (out->fd, (off_t) out->good_offset) < 0 ||
      lseek (out->fd, (off_t) out->good_offset, SEEK_SET) < 0)
    return set_errno_error (error, errno, "cut the incomplete end of", self->partial_path);
  out->offset = out->good_offset;
  if (!out_finish (out, &trailer_error) &&
      (ftruncate (out->fd, (off_t) out->good_offset) < 0 ||
       lseek (out->fd, (off_t) out->good_offset, SEEK_SET) < 0))
    return set_errno_error (error, errno, "cut the incomplete end of", self->partial_path);
  out->offset = out->good_offset;
  if (fsync (out->fd) < 0)
    return set_errno_error (error, errno, "sync", self->partial_path);
  self->finished = TRUE;
  return TRUE;
}

gboolean
seismo_file_writer_commit (SeismoFileWriter    *self,
                           SeismoTraceBuilder  *builder,
                           GError             **error)
{
  int fd;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->path != NULL && self->owns_fd, FALSE);

  if (!seismo_file_writer_finish (self, builder, error))
    return FALSE;
  fd = self->out.fd;
  self->out.fd = -1;
  self->open = FALSE;
  if (!commit_file (fd, self->partial_path, self->path, error))
    return FALSE;
  self->committed = TRUE;
  return TRUE;
}

void
seismo_file_writer_discard (SeismoFileWriter *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->path != NULL);

  if (self->committed)
    return;
  if (self->open)
    {
      if (self->owns_fd)
        close (self->out.fd);
      self->out.fd = -1;
      self->open = FALSE;
    }
  g_unlink (self->partial_path);
}

void
seismo_file_writer_free (SeismoFileWriter *self)
{
  if (self == NULL)
    return;
  if (self->open && self->owns_fd)
    close (self->out.fd);
  out_clear (&self->out);
  g_clear_pointer (&self->tasks, g_array_unref);
  g_clear_pointer (&self->meta_values, g_ptr_array_unref);
  g_free (self->path);
  g_free (self->partial_path);
  g_free (self);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-file"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "seismo-file-cursor-private.h"
#include "seismo-big-array.h"
#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-stacks-private.h"
#include "seismo-summary-private.h"
#include "seismo-trace-private.h"
#include "seismo-varint.h"

/* A record as found in the file; every field in host order. */
typedef struct {
  guint64            offset;     /* of the header */
  SeismoRecordHeader h;
  SeismoChunkInfo    chunk;      /* chunks only */
  guint8             chunk_raw[sizeof (SeismoChunkInfo)];  /* as stored, for the checksum */
} Record;

/* Why reading stopped early, when the file's end is damaged but what came before is good. */
typedef struct {
  gboolean  damaged;
  guint64   offset;
  int       code;        /* SEISMO_ERROR_TRUNCATED or _CORRUPT, if nothing at all is usable */
  char     *reason;
} Tail;

typedef struct {
  const char       *path;
  char             *display;
  int               fd;
  guint64           size;
  SeismoFileHeader  header;

  GArray           *records;     /* Record, file order */
  gboolean          indexed;
  SeismoIndexInfo   index;
  GArray           *index_entries; /* SeismoIndexEntry, host order */
  Tail              tail;
  GString          *warning;

  SeismoTrace      *trace;
  GByteArray       *strings;
  GArray           *string_off;  /* guint32 */
  GArray           *tasks;       /* SeismoTask */
  GArray           *comm_changes;
  GArray           *lost;
  GArray           *histograms;  /* SeismoHistogram */
  guint             n_cpus;
  gboolean          ids_checked; /* every event's type and task id, by the chunk decoders */
  ZSTD_DCtx        *dctx;

  /* What to read of the events: all chunks, or (window) only [win_first, win_first + win_count),
   * none when win_count is 0. The SUMMARY record (1.1) is found, and read only when asked. */
  gboolean          window;
  guint             win_first;
  guint             win_count;
  gboolean          has_summary;
  Record            summary;
  gboolean          has_chunk_syscalls; /* 1.3: the summary's syscalls chunk by chunk */
  Record            chunk_syscalls;
  guint             n_file_chunks; /* chunks the file holds, for a window read */

  /* Stacks (1.2): the last STACK_TABLES record's tables, and the STACK_IDS records, read once
   * the events are. */
  SeismoStackTable *stacks;
  GArray           *stack_id_recs; /* Record */
} Reader;

static gboolean G_GNUC_PRINTF (5, 6)
fail (Reader      *r,
      GError     **error,
      int          code,
      guint64      offset,
      const char  *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, SEISMO_ERROR, code, _("%s: at byte %" PRIu64 ": %s"), r->display,
               offset, what);
  return FALSE;
}

static void G_GNUC_PRINTF (2, 3)
warn (Reader     *r,
      const char *format,
      ...)
{
  va_list args;

  if (r->warning->len > 0)
    g_string_append (r->warning, "; ");
  va_start (args, format);
  g_string_append_vprintf (r->warning, format, args);
  va_end (args);
}

static const char *
kind_name (guint kind)
{
  static const char *const names[] = {
    [SEISMO_RECORD_INFO] = N_("info"),
    [SEISMO_RECORD_METADATA] = N_("metadata"),
    [SEISMO_RECORD_EVENT_TYPES] = N_("event types"),
    [SEISMO_RECORD_STRINGS] = N_("strings"),
    [SEISMO_RECORD_TASKS] = N_("tasks"),
    [SEISMO_RECORD_COMM_CHANGES] = N_("comm changes"),
    [SEISMO_RECORD_LOST_EVENTS] = N_("lost events"),
    [SEISMO_RECORD_HISTOGRAMS] = N_("histograms"),
    [SEISMO_RECORD_CHUNK] = N_("event chunk"),
    [SEISMO_RECORD_INDEX] = N_("index"),
    [SEISMO_RECORD_SUMMARY] = N_("summary"),
    [SEISMO_RECORD_STACK_TABLES] = N_("stack tables"),
    [SEISMO_RECORD_STACK_IDS] = N_("stack ids"),
    [SEISMO_RECORD_CHUNK_SYSCALLS] = N_("chunk syscalls"),
  };

  return kind < G_N_ELEMENTS (names) && names[kind] != NULL ? _(names[kind]) : _("unknown");
}

/* Reads exactly len bytes at offset; the caller has checked that the file holds them. */
static gboolean
read_at (Reader   *r,
         void     *buf,
         gsize     len,
         guint64   offset,
         GError  **error)
{
  guint8 *p = buf;
  guint64 at = offset;

  while (len > 0)
    {
      gssize n = pread (r->fd, p, MIN (len, (gsize) 1 << 30), (off_t) at);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not read %s at byte %" PRIu64 ": %s"), r->display, at,
                       g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        return fail (r, error, SEISMO_ERROR_TRUNCATED, at, _("the file ends early (did it shrink "
                       "while being read?)"));
      p += n;
      at += (guint64) n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------- */
/* File header, index and scanning                                                                 */

static gboolean
read_file_header (Reader  *r,
                  GError **error)
{
  guint8 head[sizeof (SeismoFileHeader)];
  gsize have = (gsize) MIN (r->size, sizeof head);
  SeismoFileHeader *h = &r->header;

  if (!read_at (r, head, have, 0, error))
    return FALSE;
  if (have < SEISMO_FILE_MAGIC_LEN)
    {
      if (have > 0 && memcmp (head, SEISMO_FILE_MAGIC, have) == 0)
        return fail (r, error, SEISMO_ERROR_TRUNCATED, have, _("the file ends inside its signature"));
      return fail (r, error, SEISMO_ERROR_UNKNOWN_FORMAT, 0, _("not a Seismo trace (%s)"),
                   have == 0 ? _("the file is empty") : _("too short"));
    }
  if (memcmp (head, SEISMO_FILE_MAGIC, SEISMO_FILE_MAGIC_LEN) != 0)
    return fail (r, error, SEISMO_ERROR_UNKNOWN_FORMAT, 0,
                 _("not a Seismo trace (no .seismo signature)"));
  /* Magic and version come first and keep their place in every version, so a future file is
   * reported as too new rather than damaged. */
  if (have < G_STRUCT_OFFSET (SeismoFileHeader, header_size))
    return fail (r, error, SEISMO_ERROR_TRUNCATED, have, _("the file ends inside its header"));
  memcpy (h, head, have);
  if (GUINT16_FROM_LE (h->version_major) != SEISMO_FILE_VERSION_MAJOR)
    return fail (r, error, SEISMO_ERROR_UNSUPPORTED, 8,
                 _("format version %u.%u; this build reads version %u files"),
                 GUINT16_FROM_LE (h->version_major), GUINT16_FROM_LE (h->version_minor),
                 SEISMO_FILE_VERSION_MAJOR);
  if (have < sizeof head)
    return fail (r, error, SEISMO_ERROR_TRUNCATED, have, _("the file ends inside its header"));
  if (GUINT32_FROM_LE (h->crc) != _seismo_crc32c (0, head, G_STRUCT_OFFSET (SeismoFileHeader, crc)))
    return fail (r, error, SEISMO_ERROR_CORRUPT, 0, _("file header checksum mismatch"));
  _seismo_file_header_swap (h);
  if (h->header_size < sizeof head || h->header_size > r->size)
    return fail (r, error, SEISMO_ERROR_CORRUPT, 12, _("impossible header size %u"), h->header_size);
  if (h->chunk_events != SEISMO_BLOCK_EVENTS)
    return fail (r, error, SEISMO_ERROR_UNSUPPORTED, 16, _("%u events per chunk; this build reads %u"),
                 h->chunk_events, SEISMO_BLOCK_EVENTS);
  if (h->flags != 0)
    return fail (r, error, SEISMO_ERROR_UNSUPPORTED, 20, _("unknown file flags 0x%x"), h->flags);
  return TRUE;
}

typedef enum {
  HEADER_OK,
  HEADER_DAMAGED,    /* unreadable: a cut or damaged header, or one that claims past the end */
  HEADER_ERROR,      /* a sound header this build cannot accept: error set */
} HeaderStatus;

/* Reads and checks the record header at offset (and a chunk's info). */
static HeaderStatus
read_record_header (Reader   *r,
                    guint64   offset,
                    Record   *rec,
                    char    **reason,
                    int      *code,
                    GError  **error)
{
  SeismoRecordHeader *h = &rec->h;
  guint64 room, need;

  memset (rec, 0, sizeof *rec);
  rec->offset = offset;
  *code = SEISMO_ERROR_CORRUPT;
  if (r->size - offset < sizeof *h)
    {
      *code = SEISMO_ERROR_TRUNCATED;
      *reason = g_strdup (_("the file ends inside a record header"));
      return HEADER_DAMAGED;
    }
  if (!read_at (r, h, sizeof *h, offset, error))
    return HEADER_ERROR;
  if (memcmp (h->tag, SEISMO_RECORD_TAG, 4) != 0)
    {
      *reason = g_strdup (_("no record starts here (bad record tag)"));
      return HEADER_DAMAGED;
    }
  if (GUINT32_FROM_LE (h->header_crc) !=
      _seismo_crc32c (0, h, G_STRUCT_OFFSET (SeismoRecordHeader, header_crc)))
    {
      *reason = g_strdup (_("record header checksum mismatch"));
      return HEADER_DAMAGED;
    }
  _seismo_record_header_swap (h);

  if (h->flags & ~SEISMO_RECORD_FLAGS_KNOWN)
    {
      fail (r, error, SEISMO_ERROR_UNSUPPORTED, offset, _("%s record with unknown flags 0x%x"),
            kind_name (h->kind), h->flags);
      return HEADER_ERROR;
    }
  if (h->info_len > SEISMO_FILE_MAX_INFO)
    {
      fail (r, error, SEISMO_ERROR_CORRUPT, offset, _("%s record with a %u-byte info part"),
            kind_name (h->kind), h->info_len);
      return HEADER_ERROR;
    }
  if ((h->flags & SEISMO_RECORD_FLAG_ZSTD) == 0 && h->raw_len != h->data_len)
    {
      fail (r, error, SEISMO_ERROR_CORRUPT, offset, _("uncompressed %s record with two lengths"),
            kind_name (h->kind));
      return HEADER_ERROR;
    }
  if ((h->flags & SEISMO_RECORD_FLAG_ZSTD) != 0 &&
      (h->data_len == 0 || h->raw_len / SEISMO_FILE_MAX_RATIO > h->data_len))
    {
      fail (r, error, SEISMO_ERROR_CORRUPT, offset, _("%s record claims %" PRIu64
              " bytes from %" PRIu64 " compressed"), kind_name (h->kind), h->raw_len,
            h->data_len);
      return HEADER_ERROR;
    }

  room = r->size - offset - sizeof *h;
  need = (guint64) h->info_len + h->data_len;
  if (h->data_len > room || need > room)
    {
      *code = SEISMO_ERROR_TRUNCATED;
      *reason = g_strdup_printf (_("the %s record needs %" PRIu64 " bytes, the file ends "
                                   "%" PRIu64 " bytes later"), kind_name (h->kind),
                                 (guint64) sizeof *h + h->info_len + h->data_len,
                                 room + sizeof *h);
      return HEADER_DAMAGED;
    }

  if (h->kind == SEISMO_RECORD_CHUNK)
    {
      if (h->info_len < sizeof rec->chunk || (h->flags & SEISMO_RECORD_FLAG_ZSTD) == 0)
        {
          fail (r, error, SEISMO_ERROR_CORRUPT, offset, _("malformed event chunk record"));
          return HEADER_ERROR;
        }
      if (!read_at (r, rec->chunk_raw, sizeof rec->chunk_raw, offset + sizeof *h, error))
        return HEADER_ERROR;
      memcpy (&rec->chunk, rec->chunk_raw, sizeof rec->chunk);
      _seismo_chunk_info_swap (&rec->chunk);
    }
  return HEADER_OK;
}

static guint64
record_end (const Record *rec)
{
  return rec->offset + sizeof rec->h + rec->h.info_len + rec->h.data_len;
}

/* Accepts a record kind: known kinds are kept, unknown optional ones skipped. */
static gboolean
accept_kind (Reader       *r,
             const Record *rec,
             gboolean     *keep,
             GError      **error)
{
  *keep = FALSE;
  if ((rec->h.kind >= SEISMO_RECORD_INFO && rec->h.kind <= SEISMO_RECORD_CHUNK) ||
      rec->h.kind == SEISMO_RECORD_SUMMARY || rec->h.kind == SEISMO_RECORD_STACK_TABLES ||
      rec->h.kind == SEISMO_RECORD_STACK_IDS || rec->h.kind == SEISMO_RECORD_CHUNK_SYSCALLS)
    {
      *keep = TRUE;
      return TRUE;
    }
  if (rec->h.flags & SEISMO_RECORD_FLAG_OPTIONAL)
    return TRUE;
  return fail (r, error, SEISMO_ERROR_UNSUPPORTED, rec->offset,
               _("record of unknown kind %u (written by a newer Seismo?)"), rec->h.kind);
}

/* A finished file ends with a trailer pointing at the index, which lists every record. Returns
 * FALSE with error unset when there is no trailer (the file is read by scanning instead). */
static gboolean
read_index (Reader   *r,
            GError  **error)
{
  SeismoFileTrailer t;
  guint64 trailer_off, entries_len, at;
  g_autofree guint8 *body = NULL;
  Record rec;
  g_autofree char *reason = NULL;
  int code;
  guint32 crc;

  if (r->size < r->header.header_size + sizeof (SeismoRecordHeader) + sizeof (SeismoIndexInfo) +
      sizeof t)
    return FALSE;
  trailer_off = r->size - sizeof t;
  if (!read_at (r, &t, sizeof t, trailer_off, error))
    return FALSE;
  if (memcmp (t.magic, SEISMO_FILE_TRAILER_MAGIC, SEISMO_FILE_MAGIC_LEN) != 0)
    return FALSE;
  if (GUINT32_FROM_LE (t.crc) != _seismo_crc32c (0, &t, G_STRUCT_OFFSET (SeismoFileTrailer, crc)))
    return fail (r, error, SEISMO_ERROR_CORRUPT, trailer_off, _("trailer checksum mismatch"));
  _seismo_trailer_swap (&t);
  if (t.file_size != r->size)
    return fail (r, error, SEISMO_ERROR_CORRUPT, trailer_off, _("the trailer was written for a "
                   "%" PRIu64 "-byte file, this one has %" PRIu64 " bytes"),
                 t.file_size, r->size);
  if (t.index_offset < r->header.header_size || t.index_offset > trailer_off)
    return fail (r, error, SEISMO_ERROR_CORRUPT, trailer_off, _("the trailer points outside the file"));

  switch (read_record_header (r, t.index_offset, &rec, &reason, &code, error))
    {
    case HEADER_OK:
      break;
    case HEADER_DAMAGED:
      return fail (r, error, SEISMO_ERROR_CORRUPT, t.index_offset, _("index: %s"), reason);
    case HEADER_ERROR:
    default:
      return FALSE;
    }
  if (rec.h.kind != SEISMO_RECORD_INDEX || rec.h.flags != 0 ||
      rec.h.info_len < sizeof r->index || record_end (&rec) != trailer_off)
    return fail (r, error, SEISMO_ERROR_CORRUPT, t.index_offset,
                 _("the trailer does not point at an index record"));

  body = g_malloc (rec.h.info_len + rec.h.data_len);
  if (!read_at (r, body, rec.h.info_len + rec.h.data_len, t.index_offset + sizeof rec.h, error))
    return FALSE;
  crc = _seismo_crc32c (0, body, rec.h.info_len + rec.h.data_len);
  if (crc != rec.h.crc)
    return fail (r, error, SEISMO_ERROR_CORRUPT, t.index_offset, _("index checksum mismatch"));
  memcpy (&r->index, body, sizeof r->index);
  _seismo_index_info_swap (&r->index);
  entries_len = (guint64) r->index.n_entries * sizeof (SeismoIndexEntry);
  if (entries_len != rec.h.data_len)
    return fail (r, error, SEISMO_ERROR_CORRUPT, t.index_offset,
                 _("index of %u entries holds %" PRIu64 " bytes"), r->index.n_entries,
                 rec.h.data_len);

  r->index_entries = g_array_sized_new (FALSE, FALSE, sizeof (SeismoIndexEntry),
                                        r->index.n_entries);
  at = r->header.header_size;
  for (guint i = 0; i < r->index.n_entries; i++)
    {
      SeismoIndexEntry e;

      memcpy (&e, body + rec.h.info_len + (gsize) i * sizeof e, sizeof e);
      _seismo_index_entry_swap (&e);
      /* Records follow each other with no gap, so one that is not where the previous one ended
       * means the index and the file disagree. */
      if (e.offset != at || e.size < sizeof (SeismoRecordHeader) || e.size > t.index_offset - at)
        return fail (r, error, SEISMO_ERROR_CORRUPT, t.index_offset,
                     _("index entry %u does not match the file's records"), i);
      at += e.size;
      g_array_append_val (r->index_entries, e);
    }
  if (at != t.index_offset)
    return fail (r, error, SEISMO_ERROR_CORRUPT, t.index_offset,
                 _("the index does not cover the records before it"));

  for (guint i = 0; i < r->index_entries->len; i++)
    {
      const SeismoIndexEntry *e = &g_array_index (r->index_entries, SeismoIndexEntry, i);
      gboolean keep;

      g_clear_pointer (&reason, g_free);
      switch (read_record_header (r, e->offset, &rec, &reason, &code, error))
        {
        case HEADER_OK:
          break;
        case HEADER_DAMAGED:
          return fail (r, error, SEISMO_ERROR_CORRUPT, e->offset, "%s", reason);
        case HEADER_ERROR:
        default:
          return FALSE;
        }
      if (rec.h.kind != e->kind || record_end (&rec) != e->offset + e->size)
        return fail (r, error, SEISMO_ERROR_CORRUPT, e->offset,
                     _("the record does not match its index entry"));
      if (!accept_kind (r, &rec, &keep, error))
        return FALSE;
      if (keep)
        g_array_append_val (r->records, rec);
    }
  r->indexed = TRUE;
  return TRUE;
}

/* Without an index (a recorder that did not finish), records are found by walking from the header.
 * A record that is cut or damaged ends the walk: what came before it is still good. */
static gboolean
scan_records (Reader   *r,
              GError  **error)
{
  guint64 at = r->header.header_size;

  while (at < r->size)
    {
      Record rec;
      g_autofree char *reason = NULL;
      gboolean keep;
      int code;

      switch (read_record_header (r, at, &rec, &reason, &code, error))
        {
        case HEADER_OK:
          break;
        case HEADER_DAMAGED:
          r->tail.damaged = TRUE;
          r->tail.offset = at;
          r->tail.code = code;
          r->tail.reason = g_steal_pointer (&reason);
          return TRUE;
        case HEADER_ERROR:
        default:
          return FALSE;
        }
      if (rec.h.kind == SEISMO_RECORD_INDEX)
        {
          /* Everything before a complete index is here; only the trailer after it is not. */
          warn (r, _("the file's trailer is missing or damaged; its records were found by scanning"));
          return TRUE;
        }
      if (!accept_kind (r, &rec, &keep, error))
        return FALSE;
      if (keep)
        g_array_append_val (r->records, rec);
      at = record_end (&rec);
    }
  warn (r, _("the file has no index (the recording did not finish)"));
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------- */
/* Tables                                                                                          */


static inline gboolean
cur_i32 (Cursor *c,
         gint32 *v)
{
  guint64 x;
  gint64 s;

  if (!cur_varint (c, &x))
    return FALSE;
  s = seismo_zigzag_decode (x);
  if (s < G_MININT32 || s > G_MAXINT32)
    return FALSE;
  *v = (gint32) s;
  return TRUE;
}

/* A string: varint length, then that many bytes, none of them NUL. Returns a new copy. */
static gboolean
cur_str (Cursor  *c,
         char   **out)
{
  guint64 len;

  if (!cur_varint (c, &len) || len > (guint64) (c->end - c->p) || memchr (c->p, 0, len) != NULL)
    return FALSE;
  *out = g_strndup ((const char *) c->p, len);
  c->p += len;
  return TRUE;
}

static gboolean
table_fail (Reader       *r,
            const Record *rec,
            const Cursor *c,
            GError      **error,
            const char   *what)
{
  return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset,
               _("%s record: %s (at decoded byte %zu)"), kind_name (rec->h.kind), what,
               (gsize) (c->p - c->start));
}

static gboolean
read_metadata (Reader       *r,
               const Record *rec,
               guint32       count,
               Cursor       *c,
               GError      **error)
{
  for (guint32 i = 0; i < count; i++)
    {
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;

      if (!cur_str (c, &key) || !cur_str (c, &value))
        return table_fail (r, rec, c, error, _("bad key or value"));
      _seismo_trace_set_metadata (r->trace, key, value);
    }
  return TRUE;
}

static void
free_field_infos (SeismoFieldInfo *fields,
                  guint            n)
{
  for (guint f = 0; f < n; f++)
    {
      for (guint s = 0; s < fields[f].n_symbols; s++)
        g_free ((char *) fields[f].symbols[s].name);
      g_free ((SeismoSymbol *) fields[f].symbols);
      g_free ((char *) fields[f].name);
    }
  g_free (fields);
}

static gboolean
read_one_type (Reader       *r,
               const Record *rec,
               guint         id,
               Cursor       *c,
               GError      **error)
{
  g_autofree char *system = NULL;
  g_autofree char *name = NULL;
  g_autofree char *print_fmt = NULL;
  SeismoFieldInfo *fields = NULL;
  guint64 has_fmt, n_fields;
  guint n_done = 0;
  gboolean ok = FALSE;

  if (!cur_str (c, &system) || !cur_str (c, &name) || !cur_varint (c, &has_fmt) || has_fmt > 1 ||
      (has_fmt && !cur_str (c, &print_fmt)) || !cur_varint (c, &n_fields))
    return table_fail (r, rec, c, error, _("bad event type"));
  /* Each field takes at least five bytes, which bounds the allocation by the record. */
  if (n_fields > (guint64) (c->end - c->p) / 5)
    return table_fail (r, rec, c, error, _("more fields than the record holds"));

  fields = g_new0 (SeismoFieldInfo, MAX (n_fields, 1));
  for (; n_done < n_fields; n_done++)
    {
      SeismoFieldInfo *f = &fields[n_done];
      guint64 type, size, display, n_symbols;
      SeismoSymbol *symbols;

      if (!cur_str (c, (char **) &f->name) || !cur_varint (c, &type) ||
          type >= SEISMO_FIELD_N_TYPES || !cur_varint (c, &size) || size > G_MAXUINT8 ||
          !cur_varint (c, &display) || display >= SEISMO_DISPLAY_N ||
          !cur_varint (c, &n_symbols) || n_symbols > (guint64) (c->end - c->p) / 2)
        {
          n_done++;
          table_fail (r, rec, c, error, _("bad field"));
          goto out;
        }
      f->type = type;
      f->size = (guint8) size;
      f->display = display;
      symbols = g_new0 (SeismoSymbol, MAX (n_symbols, 1));
      f->symbols = symbols;
      for (; f->n_symbols < n_symbols; f->n_symbols++)
        if (!cur_varint (c, &symbols[f->n_symbols].value) ||
            !cur_str (c, (char **) &symbols[f->n_symbols].name))
          {
            n_done++;
            table_fail (r, rec, c, error, _("bad symbol"));
            goto out;
          }
    }

  _seismo_trace_add_event_type (r->trace, _seismo_event_type_new (id, system, name, fields,
                                                                  (guint) n_fields, print_fmt));
  ok = TRUE;

out:
  free_field_infos (fields, n_done);
  return ok;
}

static gboolean
read_event_types (Reader       *r,
                  const Record *rec,
                  guint32       first,
                  guint32       count,
                  Cursor       *c,
                  GError      **error)
{
  if (first != r->trace->event_types->len)
    return table_fail (r, rec, c, error, _("event types out of sequence"));
  /* Type ids are 16 bits in the event columns. */
  if (count > (guint64) (c->end - c->p) || (guint64) first + count > G_MAXUINT16 + 1u)
    return table_fail (r, rec, c, error, _("too many event types"));
  for (guint32 i = 0; i < count; i++)
    if (!read_one_type (r, rec, first + i, c, error))
      return FALSE;
  return TRUE;
}

static gboolean
read_strings (Reader       *r,
              const Record *rec,
              guint32       first,
              guint32       count,
              Cursor       *c,
              GError      **error)
{
  guint64 total = 0;
  const guint8 *lens;

  if (first != r->string_off->len)
    return table_fail (r, rec, c, error, _("strings out of sequence"));
  if (count > (guint64) (c->end - c->p) || (guint64) first + count > G_MAXUINT32)
    return table_fail (r, rec, c, error, _("more strings than the record holds"));

  lens = c->p;
  for (guint32 i = 0; i < count; i++)
    {
      guint64 len;

      if (!cur_varint (c, &len) || len == 0 || len > (guint64) (c->end - c->p))
        return table_fail (r, rec, c, error, _("bad string length"));
      total += len;
    }
  if (total != (guint64) (c->end - c->p))
    return table_fail (r, rec, c, error, _("string lengths do not add up to the bytes stored"));
  if (r->strings->len + total > G_MAXUINT32)
    return table_fail (r, rec, c, error, _("string table over 4 GiB"));

  c->p = lens;
  for (guint32 i = 0; i < count; i++)
    {
      guint64 len = 0;
      guint32 off = r->strings->len;
      const guint8 *bytes;

      cur_varint (c, &len);
      bytes = c->end - total;
      if (bytes[len - 1] != '\0')
        return table_fail (r, rec, c, error, _("string without its terminating NUL"));
      /* The trace reads id 0 as "" everywhere. */
      if (first + i == 0 && len != 1)
        return table_fail (r, rec, c, error, _("string 0 is not empty"));
      g_array_append_val (r->string_off, off);
      g_byte_array_append (r->strings, bytes, (guint) len);
      total -= len;
    }
  c->p = c->end;
  return TRUE;
}

static gboolean
read_tasks (Reader       *r,
            const Record *rec,
            guint32       count,
            Cursor       *c,
            GError      **error)
{
  if (count > (guint64) (c->end - c->p))
    return table_fail (r, rec, c, error, _("more tasks than the record holds"));
  for (guint32 i = 0; i < count; i++)
    {
      SeismoTask task;
      guint32 id;

      if (!cur_u32 (c, &id) || !cur_i32 (c, &task.tid) || !cur_i32 (c, &task.pid) ||
          !cur_i32 (c, &task.ppid) || !cur_u32 (c, &task.comm) || !cur_varint (c, &task.first_ns) ||
          !cur_varint (c, &task.last_ns))
        return table_fail (r, rec, c, error, _("bad task"));
      /* A task is appended or updated, never created past the end with a gap. */
      if (id > r->tasks->len || id == SEISMO_NO_TASK)
        return table_fail (r, rec, c, error, _("task id out of sequence"));
      if (id == r->tasks->len)
        g_array_append_val (r->tasks, task);
      else
        g_array_index (r->tasks, SeismoTask, id) = task;
    }
  return TRUE;
}

static gboolean
read_comm_changes (Reader       *r,
                   const Record *rec,
                   guint32       first,
                   guint32       count,
                   Cursor       *c,
                   GError      **error)
{
  if (first != r->comm_changes->len)
    return table_fail (r, rec, c, error, _("comm changes out of sequence"));
  if (count > (guint64) (c->end - c->p))
    return table_fail (r, rec, c, error, _("more comm changes than the record holds"));
  for (guint32 i = 0; i < count; i++)
    {
      SeismoCommChange cc;

      if (!cur_u32 (c, &cc.task) || !cur_u32 (c, &cc.comm) || !cur_varint (c, &cc.time_ns))
        return table_fail (r, rec, c, error, _("bad comm change"));
      g_array_append_val (r->comm_changes, cc);
    }
  return TRUE;
}

static gboolean
read_lost (Reader       *r,
           const Record *rec,
           guint32       first,
           guint32       count,
           Cursor       *c,
           GError      **error)
{
  if (first != r->lost->len)
    return table_fail (r, rec, c, error, _("lost events out of sequence"));
  if (count > (guint64) (c->end - c->p))
    return table_fail (r, rec, c, error, _("more lost-event entries than the record holds"));
  for (guint32 i = 0; i < count; i++)
    {
      SeismoLostEvents lost = { 0 };

      if (!cur_i32 (c, &lost.cpu) || !cur_varint (c, &lost.time_ns) || !cur_varint (c, &lost.count))
        return table_fail (r, rec, c, error, _("bad lost-event entry"));
      g_array_append_val (r->lost, lost);
    }
  return TRUE;
}

static gboolean
read_histograms (Reader       *r,
                 const Record *rec,
                 guint32       first,
                 guint32       count,
                 Cursor       *c,
                 GError      **error)
{
  if (first != r->histograms->len)
    return table_fail (r, rec, c, error, _("histograms out of sequence"));
  if (count > (guint64) (c->end - c->p))
    return table_fail (r, rec, c, error, _("more histograms than the record holds"));
  for (guint32 i = 0; i < count; i++)
    {
      SeismoHistogram h = { 0 };
      guint64 n;
      gboolean ok;

      ok = cur_str (c, &h.name) && cur_str (c, &h.key) && cur_str (c, &h.unit) &&
           cur_varint (c, &n) && n <= (guint64) (c->end - c->p) / 2;
      if (ok)
        {
          h.n_buckets = (guint) n;
          h.lower = g_new (guint64, MAX (n, 1));
          h.counts = g_new (guint64, MAX (n, 1));
          for (guint k = 0; ok && k < n; k++)
            ok = cur_varint (c, &h.lower[k]);
          for (guint k = 0; ok && k < n; k++)
            ok = cur_varint (c, &h.counts[k]);
          ok = ok && cur_varint (c, &h.total_count) && cur_varint (c, &h.sum);
        }
      if (!ok)
        {
          _seismo_histogram_clear (&h);
          return table_fail (r, rec, c, error, _("bad histogram"));
        }
      g_array_append_val (r->histograms, h);
    }
  return TRUE;
}

typedef enum {
  BODY_OK,
  BODY_DAMAGED,      /* checksum mismatch: reason set */
  BODY_ERROR,
} BodyStatus;

/* Reads a table record's info and data, checks them, and decompresses the data. */
static BodyStatus
read_body (Reader        *r,
           const Record  *rec,
           guint8       **info_out,
           guint8       **raw_out,
           GError       **error)
{
  const SeismoRecordHeader *h = &rec->h;
  g_autofree guint8 *body = NULL;
  g_autofree guint8 *raw = NULL;
  gsize n;

  body = g_try_malloc (MAX (h->info_len + h->data_len, 1));
  if (body == NULL)
    {
      fail (r, error, SEISMO_ERROR_FAILED, rec->offset, _("not enough memory for a %" PRIu64
              "-byte record"), h->data_len);
      return BODY_ERROR;
    }
  if (!read_at (r, body, h->info_len + h->data_len, rec->offset + sizeof *h, error))
    return BODY_ERROR;
  if (_seismo_crc32c (0, body, h->info_len + h->data_len) != h->crc)
    return BODY_DAMAGED;

  if (h->flags & SEISMO_RECORD_FLAG_ZSTD)
    {
      raw = g_try_malloc (MAX (h->raw_len, 1));
      if (raw == NULL)
        {
          fail (r, error, SEISMO_ERROR_FAILED, rec->offset, _("not enough memory for a %"
                  PRIu64 "-byte record"), h->raw_len);
          return BODY_ERROR;
        }
      n = ZSTD_decompressDCtx (r->dctx, raw, h->raw_len, body + h->info_len, h->data_len);
      if (ZSTD_isError (n) || n != h->raw_len)
        {
          fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("%s record does not decompress: %s"),
                kind_name (h->kind), ZSTD_isError (n) ? ZSTD_getErrorName (n) : "wrong length");
          return BODY_ERROR;
        }
    }
  else
    {
      raw = g_malloc (MAX (h->data_len, 1));
      memcpy (raw, body + h->info_len, h->data_len);
    }
  *info_out = g_steal_pointer (&body);
  *raw_out = g_steal_pointer (&raw);
  return BODY_OK;
}

static gboolean
read_table (Reader       *r,
            const Record *rec,
            const guint8 *info,
            const guint8 *raw,
            GError      **error)
{
  Cursor c = { raw, raw, raw + rec->h.raw_len };
  SeismoTableInfo table;
  gboolean ok;

  if (rec->h.kind == SEISMO_RECORD_INFO)
    {
      SeismoInfoRecord ir;

      if (rec->h.info_len < sizeof ir)
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("short info record"));
      memcpy (&ir, info, sizeof ir);
      r->n_cpus = GUINT32_FROM_LE (ir.n_cpus);
      /* CPU numbers are 16 bits in the event columns. */
      if (r->n_cpus > G_MAXUINT16 + 1u)
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("%u CPUs"), r->n_cpus);
      return TRUE;
    }

  if (rec->h.info_len < sizeof table)
    return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("%s record without its counts"),
                 kind_name (rec->h.kind));
  memcpy (&table, info, sizeof table);
  table.first = GUINT32_FROM_LE (table.first);
  table.count = GUINT32_FROM_LE (table.count);

  switch (rec->h.kind)
    {
    case SEISMO_RECORD_METADATA:
      ok = read_metadata (r, rec, table.count, &c, error);
      break;
    case SEISMO_RECORD_EVENT_TYPES:
      ok = read_event_types (r, rec, table.first, table.count, &c, error);
      break;
    case SEISMO_RECORD_STRINGS:
      ok = read_strings (r, rec, table.first, table.count, &c, error);
      break;
    case SEISMO_RECORD_TASKS:
      ok = read_tasks (r, rec, table.count, &c, error);
      break;
    case SEISMO_RECORD_COMM_CHANGES:
      ok = read_comm_changes (r, rec, table.first, table.count, &c, error);
      break;
    case SEISMO_RECORD_LOST_EVENTS:
      ok = read_lost (r, rec, table.first, table.count, &c, error);
      break;
    case SEISMO_RECORD_HISTOGRAMS:
      ok = read_histograms (r, rec, table.first, table.count, &c, error);
      break;
    default:
      g_assert_not_reached ();
    }
  if (ok && c.p != c.end)
    return table_fail (r, rec, &c, error, _("trailing bytes after the entries"));
  return ok;
}

/* A damaged record the events do not need: said, and left out. */
static void
warn_damaged (Reader       *r,
              const Record *rec)
{
  warn (r, "the %s record (at byte %" G_GUINT64_FORMAT ") is damaged and was ignored",
        kind_name (rec->h.kind), rec->offset);
}

/* Applies every table record in file order and collects the chunks (into chunks). */
static gboolean
read_tables (Reader   *r,
             GArray   *chunks,
             GError  **error)
{
  for (guint i = 0; i < r->records->len; i++)
    {
      const Record *rec = &g_array_index (r->records, Record, i);
      g_autofree guint8 *info = NULL;
      g_autofree guint8 *raw = NULL;

      if (rec->h.kind == SEISMO_RECORD_CHUNK)
        {
          g_array_append_val (chunks, *rec);
          continue;
        }
      /* Read after the events, which they number. */
      if (rec->h.kind == SEISMO_RECORD_STACK_IDS)
        {
          g_array_append_val (r->stack_id_recs, *rec);
          continue;
        }
      /* Read only by the summary reader (seismo-file-summary.c): a load never needs them. */
      if (rec->h.kind == SEISMO_RECORD_SUMMARY || rec->h.kind == SEISMO_RECORD_CHUNK_SYSCALLS)
        {
          /* A whole load checks their checksum all the same: damage anywhere in a file is
           * reported. A window read does not: it reads them once and checks them then, when the
           * summary reader asks for them (read_file), and otherwise never needs them; read here
           * for the checksum alone, they would cost every window of events their bytes (81 MB
           * for 10^9 events). The events are whole, so a damaged summary is a warning, not an
           * error. */
          if (!r->window)
            {
              gsize len = rec->h.info_len + rec->h.data_len;
              g_autofree guint8 *body = g_try_malloc (MAX (len, 1));

              if (body == NULL)
                return fail (r, error, SEISMO_ERROR_FAILED, rec->offset, "not enough memory");
              if (!read_at (r, body, len, rec->offset + sizeof rec->h, error))
                return FALSE;
              if (_seismo_crc32c (0, body, len) != rec->h.crc)
                {
                  warn_damaged (r, rec);
                  continue;
                }
            }
          if (rec->h.kind == SEISMO_RECORD_SUMMARY)
            {
              r->summary = *rec;
              r->has_summary = TRUE;
            }
          else
            {
              r->chunk_syscalls = *rec;
              r->has_chunk_syscalls = TRUE;
            }
          continue;
        }
      switch (read_body (r, rec, &info, &raw, error))
        {
        case BODY_OK:
          break;
        case BODY_DAMAGED:
          /* Damage at the very end of an unfinished file is a write that did not complete. */
          if (!r->indexed && i + 1 == r->records->len)
            {
              r->tail.damaged = TRUE;
              r->tail.offset = rec->offset;
              r->tail.code = SEISMO_ERROR_CORRUPT;
              g_free (r->tail.reason);
              r->tail.reason = g_strdup_printf (_("%s record checksum mismatch"), kind_name (rec->h.kind));
              g_array_set_size (r->records, i);
              return TRUE;
            }
          return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("%s record checksum mismatch"),
                       kind_name (rec->h.kind));
        case BODY_ERROR:
        default:
          return FALSE;
        }
      if (rec->h.kind == SEISMO_RECORD_STACK_TABLES)
        {
          SeismoStackTablesInfo si;
          g_autofree char *reason = NULL;
          SeismoStackTable *t;

          if (rec->h.info_len < sizeof si)
            return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("short stack tables record"));
          memcpy (&si, info, sizeof si);
          si.n_strings = GUINT32_FROM_LE (si.n_strings);
          si.n_frames = GUINT32_FROM_LE (si.n_frames);
          si.n_stacks = GUINT32_FROM_LE (si.n_stacks);
          si.n_mappings = GUINT32_FROM_LE (si.n_mappings);
          si.n_ksyms = GUINT32_FROM_LE (si.n_ksyms);
          if (!(t = _seismo_file_decode_stack_tables (raw, rec->h.raw_len, &si, &reason)))
            return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, "%s", reason);
          g_clear_pointer (&r->stacks, _seismo_stack_table_free);
          r->stacks = t;
          continue;
        }
      if (!read_table (r, rec, info, raw, error))
        return FALSE;
    }
  return TRUE;
}

/* Gives the events read their stack ids, and the trace the stack tables. */
static gboolean
read_stacks (Reader  *r,
             GError **error)
{
  SeismoTrace *trace = r->trace;
  guint64 base = 0;
  guint32 n_stacks;

  if (r->stacks == NULL)
    {
      if (r->stack_id_recs->len > 0)
        warn (r, _("stack ids without stack tables were ignored"));
      return TRUE;
    }
  if (r->window)
    base = (guint64) MIN (r->win_first, r->n_file_chunks) << SEISMO_BLOCK_SHIFT;
  n_stacks = r->stacks->stack_off->len - 2;
  trace->stack_of = g_new0 (guint32, MAX (trace->n_events, 1));
  for (guint i = 0; i < r->stack_id_recs->len; i++)
    {
      const Record *rec = &g_array_index (r->stack_id_recs, Record, i);
      g_autofree guint8 *info = NULL;
      g_autofree guint8 *raw = NULL;
      g_autofree guint32 *ids = NULL;
      g_autofree char *reason = NULL;
      SeismoStackIdsInfo si;
      guint64 lo, hi;

      switch (read_body (r, rec, &info, &raw, error))
        {
        case BODY_OK:
          break;
        case BODY_DAMAGED:
          return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("%s record checksum mismatch"),
                       kind_name (rec->h.kind));
        case BODY_ERROR:
        default:
          return FALSE;
        }
      if (rec->h.info_len < sizeof si)
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("short stack ids record"));
      memcpy (&si, info, sizeof si);
      si.first_event = GUINT64_FROM_LE (si.first_event);
      si.n_events = GUINT32_FROM_LE (si.n_events);
      if (si.n_events > SEISMO_BLOCK_EVENTS || si.n_events > rec->h.raw_len)
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, _("stack ids record of %u events"),
                     si.n_events);
      /* Only the events read (a window, or less than a damaged file held) take ids. */
      lo = MAX (si.first_event, base);
      hi = MIN (si.first_event + si.n_events, base + trace->n_events);
      if (lo >= hi)
        continue;
      ids = g_new (guint32, MAX (si.n_events, 1));
      if (!_seismo_file_decode_stack_ids (raw, rec->h.raw_len, ids, si.n_events, n_stacks, &reason))
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, "%s", reason);
      memcpy (trace->stack_of + (lo - base), ids + (lo - si.first_event), (hi - lo) * sizeof (guint32));
    }
  trace->stacks = g_steal_pointer (&r->stacks);
  _seismo_stack_table_resolve_kernel (trace->stacks);
  _seismo_stack_table_trim (trace->stacks);
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------- */
/* Chunks                                                                                          */

typedef struct {
  ZSTD_DCtx *dctx;
  guint8    *body;
  gsize      body_cap;
  guint8    *raw;
  gsize      raw_cap;
  /* What this worker's chunks hold, summed up for the trace (see count_chunk). */
  guint64   *type_counts;   /* per event type */
  gsize     *cpu_switches;  /* per cpu: sched_switch events */
  guint      n_cpu_slots;
} Decoder;

typedef struct {
  Reader            *r;
  const Record      *chunks;
  guint              n_chunks;
  Decoder           *decoders;
  char             **errors;      /* per chunk: NULL or what was wrong */
  guint16           *max_cpu;     /* per chunk */
  guint8            *sorted;      /* per chunk: its timestamps never go back */
  const guint8      *kinds;       /* per event type: its SeismoEventKind */
  guint              n_types;
  guint              n_tasks;
  gint               bad_ids;     /* some chunk names a type or task the tables lack */
  GCancellable      *cancellable;
  SeismoProgressFunc progress;
  gpointer           progress_data;
  gint               done;
} DecodeJob;

static inline gboolean
grow (guint8 **buf,
      gsize   *cap,
      gsize    need)
{
  if (*cap >= need)
    return TRUE;
  g_free (*buf);
  *buf = g_try_malloc (need);
  *cap = *buf != NULL ? need : 0;
  return *buf != NULL;
}

static inline void
get_column16 (guint16      *dst,
              const guint8 *src,
              guint32       n)
{
  memcpy (dst, src, (gsize) n * 2);
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  for (guint32 i = 0; i < n; i++)
    dst[i] = GUINT16_FROM_LE (dst[i]);
#endif
}

static inline void
get_column32 (guint32      *dst,
              const guint8 *src,
              guint32       n)
{
  memcpy (dst, src, (gsize) n * 4);
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  for (guint32 i = 0; i < n; i++)
    dst[i] = GUINT32_FROM_LE (dst[i]);
#endif
}

/* Decodes chunk k into the trace's columns at its block. Returns what was wrong, or NULL. */
static char *
decode_chunk (Reader       *r,
              Decoder      *d,
              const Record *rec,
              guint         k,
              guint16      *max_cpu)
{
  SeismoTrace *trace = r->trace;
  const SeismoChunkInfo *ci = &rec->chunk;
  const SeismoRecordHeader *h = &rec->h;
  guint32 n = ci->n_events;
  gsize first = (gsize) k << SEISMO_BLOCK_SHIFT;
  gsize body_len = h->info_len + h->data_len;
  const guint8 *p, *end, *col;
  guint64 prev, sum = 0;
  gsize got;
  GError *error = NULL;

  if (!grow (&d->body, &d->body_cap, body_len) || !grow (&d->raw, &d->raw_cap, h->raw_len))
    return g_strdup (_("not enough memory"));
  if (!read_at (r, d->body, body_len, rec->offset + sizeof *h, &error))
    {
      char *what = g_strdup (error->message);

      g_error_free (error);
      return what;
    }
  /* The sizes used below come from the info read when planning; the checksummed copy must agree. */
  if (_seismo_crc32c (0, d->body, body_len) != h->crc ||
      memcmp (d->body, rec->chunk_raw, sizeof rec->chunk_raw) != 0)
    return g_strdup (_("event chunk checksum mismatch"));
  got = ZSTD_decompressDCtx (d->dctx, d->raw, h->raw_len, d->body + h->info_len, h->data_len);
  if (ZSTD_isError (got))
    return g_strdup_printf (_("event chunk does not decompress: %s"), ZSTD_getErrorName (got));
  if (got != h->raw_len)
    return g_strdup (_("event chunk decompresses to the wrong length"));

  /* Timestamps: zigzag deltas, the first against min_ts; every one must lie in [min, max]. */
  p = d->raw;
  end = d->raw + ci->ts_bytes;
  prev = ci->min_ts;
  for (guint32 i = 0; i < n; i++)
    {
      guint64 v;

      p = seismo_varint_get (p, end, &v);
      if (p == NULL)
        return g_strdup_printf (_("timestamp %u of the chunk is cut"), i);
      prev += (guint64) seismo_zigzag_decode (v);
      if (prev < ci->min_ts || prev > ci->max_ts)
        return g_strdup_printf (_("timestamp %u of the chunk lies outside the chunk's range"), i);
      trace->ts[first + i] = prev;
    }
  if (p != end)
    return g_strdup (_("timestamp section longer than its events"));

  col = end;
  get_column16 (trace->cpu + first, col, n);
  col += (gsize) n * 2;
  /* The CPU count covers every CPU an event names, as the builder's does. */
  *max_cpu = 0;
  for (guint32 i = 0; i < n; i++)
    *max_cpu = MAX (*max_cpu, trace->cpu[first + i]);
  get_column16 (trace->type + first, col, n);
  col += (gsize) n * 2;
  get_column32 (trace->task + first, col, n);
  col += (gsize) n * 4;
  for (guint32 i = 0; i < n; i++)
    {
      guint16 len;

      memcpy (&len, col + (gsize) i * 2, 2);
      trace->payload_off[first + i] = (guint32) sum;
      sum += GUINT16_FROM_LE (len);
    }
  col += (gsize) n * 2;
  if (sum != ci->payload_len)
    return g_strdup (_("payload lengths do not add up to the payload stored"));
  memcpy (trace->payload + trace->block_base[k], col, ci->payload_len);
  return NULL;
}

/*
 * Checks a decoded chunk's type and task ids against the tables, whether its timestamps are in
 * order, and counts its events per type and its sched_switch events per CPU. Done here, on every
 * worker while the chunk is in cache, it saves the validation, the sort and the derivation a serial
 * pass over the whole trace each. A bad id only raises a flag: the validation then runs in full and
 * reports it as it always has.
 */
static void
count_chunk (DecodeJob *job,
             Decoder   *d,
             guint      k,
             guint32    n)
{
  SeismoTrace *trace = job->r->trace;
  gsize first = (gsize) k << SEISMO_BLOCK_SHIFT;
  const guint16 *types = trace->type + first;
  const guint16 *cpus = trace->cpu + first;
  const SeismoTaskId *tasks = trace->task + first;
  const guint64 *ts = trace->ts + first;
  guint max_cpu = job->max_cpu[k];
  gboolean bad = FALSE, back = FALSE;

  for (guint32 i = 0; i < n; i++)
    bad |= (types[i] >= job->n_types) | (tasks[i] >= job->n_tasks);
  for (guint32 i = 1; i < n; i++)
    back |= ts[i] < ts[i - 1];
  job->sorted[k] = !back;
  if (bad)
    {
      g_atomic_int_set (&job->bad_ids, TRUE);
      return;
    }
  if (d->type_counts == NULL)
    d->type_counts = g_new0 (guint64, MAX (job->n_types, 1));
  if (d->n_cpu_slots <= max_cpu)
    {
      d->cpu_switches = g_renew (gsize, d->cpu_switches, max_cpu + 1);
      memset (d->cpu_switches + d->n_cpu_slots, 0, (max_cpu + 1 - d->n_cpu_slots) * sizeof (gsize));
      d->n_cpu_slots = max_cpu + 1;
    }
  for (guint32 i = 0; i < n; i++)
    {
      guint t = types[i];

      d->type_counts[t]++;
      d->cpu_switches[cpus[i]] += job->kinds[t] == SEISMO_KIND_SCHED_SWITCH;
    }
}

static void
decode_one (guint    k,
            guint    worker,
            gpointer data)
{
  DecodeJob *job = data;
  Decoder *d = &job->decoders[worker];
  guint done;

  if (g_cancellable_is_cancelled (job->cancellable))
    return;
  if (d->dctx == NULL)
    d->dctx = ZSTD_createDCtx ();
  job->errors[k] = decode_chunk (job->r, d, &job->chunks[k], k, &job->max_cpu[k]);
  if (job->errors[k] == NULL)
    count_chunk (job, d, k, job->chunks[k].chunk.n_events);
  done = (guint) g_atomic_int_add (&job->done, 1) + 1;
  /* Worker 0 is the caller's thread: progress is reported from there only. */
  if (worker == 0 && job->progress != NULL)
    job->progress (0.05 + 0.85 * done / job->n_chunks, job->progress_data);
}

/* Checks that chunks follow each other as the trace's blocks do, and that their sizes are possible,
 * before any allocation depends on them. */
static gboolean
check_chunk (Reader       *r,
             const Record *rec,
             guint         k,
             guint64       expect_first,
             char        **reason)
{
  const SeismoChunkInfo *ci = &rec->chunk;
  guint64 n = ci->n_events;

  if (ci->first_event != expect_first || expect_first != (guint64) k << SEISMO_BLOCK_SHIFT)
    *reason = g_strdup_printf (_("chunk %u starts at event %" PRIu64 ", expected %"
                                 PRIu64), k, ci->first_event, expect_first);
  else if (n == 0 || n > SEISMO_BLOCK_EVENTS)
    *reason = g_strdup_printf ("chunk %u holds %u events", k, ci->n_events);
  else if (ci->min_ts > ci->max_ts)
    *reason = g_strdup_printf (_("chunk %u has an empty time range"), k);
  else if (ci->ts_bytes < n || ci->ts_bytes > n * SEISMO_VARINT_MAX ||
           ci->payload_len > n * SEISMO_MAX_PAYLOAD ||
           rec->h.raw_len != ci->ts_bytes + n * 10 + ci->payload_len)
    *reason = g_strdup_printf (_("chunk %u has inconsistent section sizes"), k);
  else if (expect_first + n > G_MAXUINT32 - 1)
    *reason = g_strdup_printf (_("more events than a trace can hold"));
  return *reason == NULL;
}

static gboolean
read_chunks (Reader             *r,
             GArray             *chunks,
             GCancellable       *cancellable,
             SeismoProgressFunc  progress,
             gpointer            progress_data,
             GError            **error)
{
  SeismoTrace *trace = r->trace;
  guint n_chunks = chunks->len;
  guint64 n_events = 0, payload_len = 0;
  guint n_workers = _seismo_file_n_workers ();
  g_autofree Decoder *decoders = NULL;
  g_autofree char **errors = NULL;
  g_autofree guint16 *max_cpu = NULL;
  g_autofree guint8 *kinds = NULL;
  g_autofree guint8 *sorted = NULL;
  g_autofree guint64 *type_counts = NULL;
  g_autofree gsize *cpu_switches = NULL;
  guint n_cpu_slots = 0;
  DecodeJob job;
  gboolean ok = TRUE;
  guint dropped = 0;

  if (n_chunks == 0)
    return TRUE;

  /* The last chunk is where an interrupted write leaves damage: check it before its sizes count. */
  {
    const Record *last = &g_array_index (chunks, Record, n_chunks - 1);
    g_autofree char *reason = NULL;
    guint64 expect = (guint64) (n_chunks - 1) << SEISMO_BLOCK_SHIFT;
    g_autofree guint8 *body = NULL;
    gsize body_len = last->h.info_len + last->h.data_len;

    body = g_try_malloc (MAX (body_len, 1));
    if (body == NULL)
      return fail (r, error, SEISMO_ERROR_FAILED, last->offset, _("not enough memory"));
    if (!read_at (r, body, body_len, last->offset + sizeof last->h, error))
      return FALSE;
    if (_seismo_crc32c (0, body, body_len) != last->h.crc)
      reason = g_strdup (_("event chunk checksum mismatch"));
    else
      check_chunk (r, last, n_chunks - 1, expect, &reason);
    /* Leaving out the only chunk would open an empty trace: that is an error, not a warning. */
    if (reason != NULL && n_chunks == 1)
      return fail (r, error, SEISMO_ERROR_CORRUPT, last->offset, "%s", reason);
    if (reason != NULL)
      {
        warn (r, _("the last event chunk (at byte %" PRIu64 ") is damaged (%s) and was "
                "left out"), last->offset, reason);
        g_array_set_size (chunks, --n_chunks);
        dropped++;
      }
  }

  for (guint k = 0; k < n_chunks; k++)
    {
      const Record *rec = &g_array_index (chunks, Record, k);
      g_autofree char *reason = NULL;

      if (!check_chunk (r, rec, k, n_events, &reason))
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, "%s", reason);
      if (k + 1 < n_chunks && rec->chunk.n_events != SEISMO_BLOCK_EVENTS)
        return fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset,
                     _("chunk %u holds %u events but is not the last one"), k, rec->chunk.n_events);
      n_events += rec->chunk.n_events;
      payload_len += rec->chunk.payload_len;
    }
  r->n_file_chunks = n_chunks;
  if (r->window)
    {
      /* Only the window's chunks are decoded; they become the trace's blocks 0, 1, ... */
      guint first = MIN (r->win_first, n_chunks);
      guint count = MIN (r->win_count, n_chunks - first);

      g_array_remove_range (chunks, first + count, n_chunks - first - count);
      g_array_remove_range (chunks, 0, first);
      n_chunks = count;
      n_events = payload_len = 0;
      for (guint k = 0; k < n_chunks; k++)
        {
          n_events += g_array_index (chunks, Record, k).chunk.n_events;
          payload_len += g_array_index (chunks, Record, k).chunk.payload_len;
        }
    }
  if (n_chunks == 0)
    return TRUE;

  trace->payload = _seismo_big_array_try_alloc (payload_len, 1);
  if (trace->payload == NULL)
    return fail (r, error, SEISMO_ERROR_FAILED, 0, _("not enough memory for %" PRIu64
                   " bytes of event payload"), payload_len);
  trace->payload_len = payload_len;
  _seismo_trace_alloc_events (trace, n_events);
  g_free (trace->block_base);
  trace->n_blocks = n_chunks;
  trace->block_base = g_new (guint64, n_chunks + 1);
  trace->block_base[0] = 0;
  for (guint k = 0; k < n_chunks; k++)
    trace->block_base[k + 1] = trace->block_base[k] +
                               g_array_index (chunks, Record, k).chunk.payload_len;

  decoders = g_new0 (Decoder, n_workers);
  errors = g_new0 (char *, n_chunks);
  max_cpu = g_new0 (guint16, n_chunks);
  sorted = g_new0 (guint8, n_chunks);
  kinds = g_new (guint8, MAX (trace->event_types->len, 1));
  for (guint t = 0; t < trace->event_types->len; t++)
    kinds[t] = ((const SeismoEventType *) g_ptr_array_index (trace->event_types, t))->kind;
  job = (DecodeJob) {
    .max_cpu = max_cpu,
    .sorted = sorted,
    .kinds = kinds,
    .n_types = trace->event_types->len,
    .n_tasks = r->tasks->len,
    .r = r,
    .chunks = (const Record *) (gpointer) chunks->data,
    .n_chunks = n_chunks,
    .decoders = decoders,
    .errors = errors,
    .cancellable = cancellable,
    .progress = progress,
    .progress_data = progress_data,
  };
  _seismo_file_parallel_for (n_chunks, n_workers, decode_one, &job);
  type_counts = g_new0 (guint64, MAX (job.n_types, 1));
  for (guint w = 0; w < n_workers; w++)
    n_cpu_slots = MAX (n_cpu_slots, decoders[w].n_cpu_slots);
  cpu_switches = g_new0 (gsize, MAX (n_cpu_slots, 1));
  for (guint w = 0; w < n_workers; w++)
    {
      ZSTD_freeDCtx (decoders[w].dctx);
      g_free (decoders[w].body);
      g_free (decoders[w].raw);
      for (guint t = 0; decoders[w].type_counts != NULL && t < job.n_types; t++)
        type_counts[t] += decoders[w].type_counts[t];
      for (guint c = 0; c < decoders[w].n_cpu_slots; c++)
        cpu_switches[c] += decoders[w].cpu_switches[c];
      g_free (decoders[w].type_counts);
      g_free (decoders[w].cpu_switches);
    }

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED, _("Loading %s was cancelled"),
                   r->display);
      ok = FALSE;
    }
  for (guint k = 0; ok && k < n_chunks; k++)
    if (errors[k] != NULL)
      {
        const Record *rec = &g_array_index (chunks, Record, k);

        if (k + 1 == n_chunks && k > 0 && dropped == 0)
          {
            /* Like a damaged checksum: the good chunks before it stand. */
            warn (r, _("the last event chunk (at byte %" PRIu64 ") is damaged (%s) and was "
                    "left out"), rec->offset, errors[k]);
            trace->n_events -= rec->chunk.n_events;
            trace->n_blocks--;
            trace->payload_len = trace->block_base[trace->n_blocks];
            dropped++;
          }
        else
          ok = fail (r, error, SEISMO_ERROR_CORRUPT, rec->offset, "%s", errors[k]);
      }
  for (guint k = 0; k < n_chunks; k++)
    g_free (errors[k]);
  if (!ok)
    return FALSE;

  for (guint k = 0; k < trace->n_blocks; k++)
    r->n_cpus = MAX (r->n_cpus, (guint) max_cpu[k] + 1);

  /* The workers' counts cover exactly the chunks kept (a chunk that failed to decode counted
   * nothing, and only kept chunks set n_cpus); with a bad id they are incomplete, and the
   * validation will refuse the file anyway. */
  if (!job.bad_ids)
    {
      g_free (trace->type_counts);
      g_free (trace->cpu_switches);
      trace->type_counts = g_steal_pointer (&type_counts);
      trace->cpu_switches = g_new0 (gsize, MAX (r->n_cpus, 1));
      memcpy (trace->cpu_switches, cpu_switches, MIN (n_cpu_slots, r->n_cpus) * sizeof (gsize));
      r->ids_checked = TRUE;
    }
  /* Sorted chunks that follow each other in time make a sorted trace: the sort need not look. */
  trace->known_sorted = TRUE;
  for (guint k = 0; k < trace->n_blocks && trace->known_sorted; k++)
    trace->known_sorted = sorted[k] &&
                          (k == 0 || trace->ts[((gsize) k << SEISMO_BLOCK_SHIFT) - 1] <=
                                     trace->ts[(gsize) k << SEISMO_BLOCK_SHIFT]);

  if (r->indexed && dropped == 0 && !r->window &&
      (r->index.n_events != trace->n_events || r->index.n_chunks != n_chunks))
    return fail (r, error, SEISMO_ERROR_CORRUPT, 0, _("the index lists %" PRIu64
                   " events in %u chunks, the file holds %zu in %u"),
                 r->index.n_events, r->index.n_chunks, trace->n_events, n_chunks);
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------- */
/* Load                                                                                            */

static void
reader_clear (Reader *r)
{
  if (r->fd >= 0)
    close (r->fd);
  g_free (r->display);
  g_clear_pointer (&r->records, g_array_unref);
  g_clear_pointer (&r->index_entries, g_array_unref);
  g_free (r->tail.reason);
  if (r->warning != NULL)
    g_string_free (r->warning, TRUE);
  g_clear_object (&r->trace);
  g_clear_pointer (&r->strings, g_byte_array_unref);
  g_clear_pointer (&r->string_off, g_array_unref);
  g_clear_pointer (&r->tasks, g_array_unref);
  g_clear_pointer (&r->comm_changes, g_array_unref);
  g_clear_pointer (&r->lost, g_array_unref);
  if (r->histograms != NULL)
    {
      for (guint i = 0; i < r->histograms->len; i++)
        _seismo_histogram_clear (&g_array_index (r->histograms, SeismoHistogram, i));
      g_array_unref (r->histograms);
    }
  g_clear_pointer (&r->dctx, ZSTD_freeDCtx);
  g_clear_pointer (&r->stacks, _seismo_stack_table_free);
  g_clear_pointer (&r->stack_id_recs, g_array_unref);
}

static gint
compare_comm_changes (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const SeismoCommChange *x = a, *y = b;

  return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

/* Moves the rebuilt tables into the trace. */
static void
install_tables (Reader *r)
{
  SeismoTrace *trace = r->trace;
  gboolean sorted = TRUE;

  /* A recorder writes comm changes as they happen on each CPU; the trace keeps them in time order
   * (a stable sort, so a file written from a finished trace reads back unchanged). */
  for (guint c = 1; c < r->comm_changes->len && sorted; c++)
    sorted = g_array_index (r->comm_changes, SeismoCommChange, c - 1).time_ns <=
             g_array_index (r->comm_changes, SeismoCommChange, c).time_ns;
  if (!sorted)
    g_qsort_with_data (r->comm_changes->data, r->comm_changes->len, sizeof (SeismoCommChange),
                       compare_comm_changes, NULL);

  if (r->string_off->len > 0)
    {
      g_free (trace->strings);
      g_free (trace->string_off);
      trace->n_strings = r->string_off->len;
      trace->strings_len = r->strings->len;
      trace->string_off = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&r->string_off),
                                                               FALSE);
      trace->strings = (char *) g_byte_array_free (g_steal_pointer (&r->strings), FALSE);
    }
  trace->n_tasks = r->tasks->len;
  trace->tasks = (SeismoTask *) (gpointer) g_array_free (g_steal_pointer (&r->tasks), FALSE);
  trace->n_comm_changes = r->comm_changes->len;
  trace->comm_changes = (SeismoCommChange *) (gpointer)
                        g_array_free (g_steal_pointer (&r->comm_changes), FALSE);
  trace->n_lost = r->lost->len;
  trace->lost = (SeismoLostEvents *) (gpointer) g_array_free (g_steal_pointer (&r->lost), FALSE);
  trace->n_histograms = r->histograms->len;
  trace->histograms = (SeismoHistogram *) (gpointer)
                      g_array_free (g_steal_pointer (&r->histograms), FALSE);
  trace->n_cpus = r->n_cpus;
}

/* Reads path as r (zeroed but for the window fields) says. With part, also hands over the file's
 * chunk index entries and its SUMMARY record (checked and decompressed; NULL without one). */
static SeismoTrace *
read_file (Reader              *rp,
           const char          *path,
           GCancellable        *cancellable,
           SeismoProgressFunc   progress,
           gpointer             progress_data,
           SeismoFilePart      *part,
           GError             **error)
{
  Reader r = *rp;
  g_autoptr(GArray) chunks = g_array_new (FALSE, FALSE, sizeof (Record));
  g_autoptr(GError) local_error = NULL;
  struct stat st;
  SeismoTrace *trace = NULL;
  gint64 t_start = g_get_monotonic_time ();

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.path = path;
  r.fd = -1;
  r.display = g_filename_display_name (path);
  r.fd = open (path, O_RDONLY | O_CLOEXEC);
  if (r.fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Could not open %s: %s"),
                   r.display, g_strerror (saved));
      goto out;
    }
  if (fstat (r.fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("Could not read %s: %s"),
                   r.display, _("not a regular file"));
      goto out;
    }
  r.size = (guint64) st.st_size;
  r.records = g_array_new (FALSE, FALSE, sizeof (Record));
  r.warning = g_string_new (NULL);
  r.trace = _seismo_trace_new ();
  r.strings = g_byte_array_new ();
  r.string_off = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.tasks = g_array_new (FALSE, FALSE, sizeof (SeismoTask));
  r.comm_changes = g_array_new (FALSE, FALSE, sizeof (SeismoCommChange));
  r.lost = g_array_new (FALSE, FALSE, sizeof (SeismoLostEvents));
  r.histograms = g_array_new (FALSE, FALSE, sizeof (SeismoHistogram));
  r.dctx = ZSTD_createDCtx ();
  r.stack_id_recs = g_array_new (FALSE, FALSE, sizeof (Record));

  if (progress != NULL)
    progress (0.0, progress_data);
  if (!read_file_header (&r, error))
    goto out;
  if (!read_index (&r, &local_error))
    {
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          goto out;
        }
      if (!scan_records (&r, error))
        goto out;
    }
  if (!read_tables (&r, chunks, error))
    goto out;
  if (progress != NULL)
    progress (0.05, progress_data);
  if (!read_chunks (&r, chunks, cancellable, progress, progress_data, error))
    goto out;

  if (r.tail.damaged)
    {
      /* A prefix is worth opening only if it holds events; a file cut before its first chunk
       * is reported as what it is. */
      if (r.trace->n_events == 0)
        {
          fail (&r, error, r.tail.code, r.tail.offset, "%s", r.tail.reason);
          goto out;
        }
      warn (&r, _("reading stopped at byte %" PRIu64 " (%s); the %" PRIu64
              " bytes after it were not read"), r.tail.offset, r.tail.reason,
            r.size - r.tail.offset);
    }

  if (!read_stacks (&r, error))
    goto out;
  install_tables (&r);
  if (!_seismo_trace_validate (r.trace, r.ids_checked, &local_error))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, "%s: %s", r.display,
                   local_error->message);
      goto out;
    }
  g_debug ("%s: %" G_GSIZE_FORMAT " events read in %.1f ms", r.display, r.trace->n_events,
           (g_get_monotonic_time () - t_start) / 1e3);
  if (part != NULL)
    {
      part->n_chunks = r.n_file_chunks;
      part->indexed = r.indexed;
      part->index = r.index;
      part->chunks = g_array_new (FALSE, FALSE, sizeof (SeismoIndexEntry));
      for (guint i = 0; r.indexed && i < r.index_entries->len; i++)
        {
          const SeismoIndexEntry *e = &g_array_index (r.index_entries, SeismoIndexEntry, i);

          if (e->kind == SEISMO_RECORD_CHUNK)
            g_array_append_val (part->chunks, *e);
        }
      if (r.has_summary && r.indexed)
        {
          g_autofree guint8 *info = NULL;
          g_autofree guint8 *raw = NULL;

          if (r.summary.h.info_len != sizeof (SeismoSummaryInfo))
            {
              fail (&r, error, SEISMO_ERROR_CORRUPT, r.summary.offset,
                    "summary record info is %u bytes, expected %u", r.summary.h.info_len,
                    (guint) sizeof (SeismoSummaryInfo));
              goto out;
            }
          switch (read_body (&r, &r.summary, &info, &raw, error))
            {
            case BODY_OK:
              memcpy (&part->summary_info, info, sizeof part->summary_info);
              _seismo_summary_info_swap (&part->summary_info);
              part->summary = g_bytes_new_take (g_steal_pointer (&raw), r.summary.h.raw_len);
              part->summary_offset = r.summary.offset;
              break;
            case BODY_DAMAGED:
              /* As a whole load would have: the file has no summary. */
              warn_damaged (&r, &r.summary);
              break;
            case BODY_ERROR:
            default:
              goto out;
            }
        }
      /* Optional beside the summary: without it (a 1.2 file, or one info size this reader does not
       * know), only the syscalls of a range are missing. */
      if (part->summary != NULL && r.has_chunk_syscalls &&
          r.chunk_syscalls.h.info_len == sizeof (SeismoChunkSyscallsInfo))
        {
          g_autofree guint8 *info = NULL;
          g_autofree guint8 *raw = NULL;

          switch (read_body (&r, &r.chunk_syscalls, &info, &raw, error))
            {
            case BODY_OK:
              memcpy (&part->chunk_syscalls_info, info, sizeof part->chunk_syscalls_info);
              _seismo_chunk_syscalls_info_swap (&part->chunk_syscalls_info);
              part->chunk_syscalls = g_bytes_new_take (g_steal_pointer (&raw), r.chunk_syscalls.h.raw_len);
              part->chunk_syscalls_offset = r.chunk_syscalls.offset;
              break;
            case BODY_DAMAGED:
              warn_damaged (&r, &r.chunk_syscalls);
              break;
            case BODY_ERROR:
            default:
              goto out;
            }
        }
    }
  /* After the part: a damaged summary found there is said too. */
  if (r.warning->len > 0)
    _seismo_trace_set_metadata (r.trace, SEISMO_META_LOAD_WARNING, r.warning->str);
  trace = g_steal_pointer (&r.trace);

out:
  reader_clear (&r);
  return trace;
}

SeismoTrace *
_seismo_file_read (const char          *path,
                   GCancellable        *cancellable,
                   SeismoProgressFunc   progress,
                   gpointer             progress_data,
                   GError             **error)
{
  Reader r = { 0 };

  return read_file (&r, path, cancellable, progress, progress_data, NULL, error);
}

SeismoTrace *
_seismo_file_read_part (const char      *path,
                        guint            first_chunk,
                        guint            n_chunks,
                        GCancellable    *cancellable,
                        SeismoFilePart  *part,
                        GError         **error)
{
  Reader r = { 0 };
  SeismoTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.window = TRUE;
  r.win_first = first_chunk;
  r.win_count = n_chunks;
  if (part != NULL)
    memset (part, 0, sizeof *part);
  trace = read_file (&r, path, cancellable, NULL, NULL, part, error);
  if (trace == NULL)
    {
      if (part != NULL)
        _seismo_file_part_clear (part);
      return NULL;
    }
  _seismo_trace_sort (trace);
  _seismo_trace_derive (trace);
  return trace;
}

void
_seismo_file_part_clear (SeismoFilePart *part)
{
  g_clear_pointer (&part->chunks, g_array_unref);
  g_clear_pointer (&part->summary, g_bytes_unref);
  g_clear_pointer (&part->chunk_syscalls, g_bytes_unref);
}

SeismoTrace *
seismo_file_load (const char          *path,
                  GCancellable        *cancellable,
                  SeismoProgressFunc   progress,
                  gpointer             progress_data,
                  GError             **error)
{
  SeismoTrace *trace;
  gint64 t0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  trace = _seismo_file_read (path, cancellable, progress, progress_data, error);
  if (trace == NULL)
    return NULL;
  if (progress != NULL)
    progress (0.9, progress_data);
  t0 = g_get_monotonic_time ();
  _seismo_trace_sort (trace);
  _seismo_trace_derive (trace);
  g_debug ("%s: sorted and derived in %.1f ms", path, (g_get_monotonic_time () - t0) / 1e3);
  if (progress != NULL)
    progress (1.0, progress_data);
  return trace;
}

static int
seismo_file_sniff (const guint8 *head,
                   gsize         len,
                   const char   *path)
{
  return len >= SEISMO_FILE_MAGIC_LEN && memcmp (head, SEISMO_FILE_MAGIC, SEISMO_FILE_MAGIC_LEN) == 0
         ? 100 : 0;
}

const SeismoImporter seismo_file_importer = {
  .name = "seismo",
  .description = N_("Seismo trace (.seismo)"),
  .sniff = seismo_file_sniff,
  .load = seismo_file_load,
};

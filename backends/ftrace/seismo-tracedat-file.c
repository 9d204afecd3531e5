/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>
#ifdef SEISMO_FTRACE_HAVE_ZLIB
#include <zlib.h>
#endif

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-rb-page.h"
#include "seismo-tep-guard.h"
#include "seismo-tracedat-private.h"

/* Option ids (trace-cmd.dat.v7(5)). */
enum {
  OPT_DONE = 0,
  OPT_DATE = 1,
  OPT_CPUSTAT = 2,
  OPT_BUFFER = 3,
  OPT_TRACECLOCK = 4,
  OPT_UNAME = 5,
  OPT_HOOK = 6,
  OPT_OFFSET = 7,
  OPT_CPUCOUNT = 8,
  OPT_VERSION = 9,
  OPT_TSC2NSEC = 14,
  OPT_HEADER_INFO = 16,
  OPT_FTRACE_EVENTS = 17,
  OPT_EVENT_FORMATS = 18,
  OPT_KALLSYMS = 19,
  OPT_PRINTK = 20,
  OPT_CMDLINES = 21,
  OPT_BUFFER_TEXT = 22,
};

#define SECTION_FL_COMPRESSED 1

/* A bounds-checked reader over bytes that came from the file at file_off (or from a section). */
typedef struct {
  SeismoTraceDat *td;
  const guint8   *base;
  gsize           len;
  gsize           pos;
  guint64         file_off;   /* where base is in the file */
  const char     *what;       /* "the compressed options section" when base is not the file */
} Cur;

static gboolean G_GNUC_PRINTF (4, 5)
fail (GError       **error,
      gint           code,
      const Cur     *c,
      const char    *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  if (c->what)
    g_set_error (error, SEISMO_ERROR, code, _("%s: %s (in %s at offset %" PRIu64 ")"),
                 c->td->path, msg, c->what, c->file_off);
  else
    g_set_error (error, SEISMO_ERROR, code, _("%s: offset %" PRIu64 ": %s"),
                 c->td->path, c->file_off + c->pos, msg);
  return FALSE;
}

static gboolean
cur_need (Cur         *c,
          gsize        n,
          const char  *what,
          GError     **error)
{
  if (c->pos > c->len || n > c->len - c->pos)
    return fail (error, c->what ? SEISMO_ERROR_CORRUPT : SEISMO_ERROR_TRUNCATED, c,
                 _("%s needs %zu bytes but only %zu remain"),
                 what, n, c->pos > c->len ? 0 : c->len - c->pos);
  return TRUE;
}

static gboolean
cur_u16 (Cur *c, guint16 *v, const char *what, GError **error)
{
  if (!cur_need (c, 2, what, error))
    return FALSE;
  memcpy (v, c->base + c->pos, 2);
  if (c->td->swap)
    *v = GUINT16_SWAP_LE_BE (*v);
  c->pos += 2;
  return TRUE;
}

static gboolean
cur_u32 (Cur *c, guint32 *v, const char *what, GError **error)
{
  if (!cur_need (c, 4, what, error))
    return FALSE;
  memcpy (v, c->base + c->pos, 4);
  if (c->td->swap)
    *v = GUINT32_SWAP_LE_BE (*v);
  c->pos += 4;
  return TRUE;
}

static gboolean
cur_u64 (Cur *c, guint64 *v, const char *what, GError **error)
{
  if (!cur_need (c, 8, what, error))
    return FALSE;
  memcpy (v, c->base + c->pos, 8);
  if (c->td->swap)
    *v = GUINT64_SWAP_LE_BE (*v);
  c->pos += 8;
  return TRUE;
}

static gboolean
cur_bytes (Cur *c, guint64 n, const guint8 **p, const char *what, GError **error)
{
  if (n > G_MAXSIZE || !cur_need (c, n, what, error))
    return FALSE;
  *p = c->base + c->pos;
  c->pos += n;
  return TRUE;
}

static gboolean
cur_str (Cur *c, const char **s, const char *what, GError **error)
{
  const guint8 *nul;

  if (c->pos >= c->len)
    return cur_need (c, 1, what, error);
  nul = memchr (c->base + c->pos, '\0', c->len - c->pos);
  if (nul == NULL)
    return fail (error, SEISMO_ERROR_CORRUPT, c, _("%s is not NUL-terminated"), what);
  *s = (const char *) c->base + c->pos;
  c->pos = nul - c->base + 1;
  return TRUE;
}

static gboolean
cur_expect (Cur *c, const char *tag, gsize n, GError **error)
{
  const guint8 *p;

  if (!cur_bytes (c, n, &p, tag, error))
    return FALSE;
  if (memcmp (p, tag, n) != 0)
    {
      c->pos -= n;
      return fail (error, SEISMO_ERROR_CORRUPT, c, _("expected \"%s\""), tag);
    }
  return TRUE;
}

/* The file from offset on. */
static Cur
file_cur (SeismoTraceDat *td,
          guint64         offset)
{
  Cur c = { td, td->map, td->size, 0, 0, NULL };

  c.pos = offset > td->size ? td->size + 1 : offset;
  return c;
}

/* ---- decompression ---------------------------------------------------------------------------- */

static void
dctx_free (gpointer data)
{
  ZSTD_freeDCtx (data);
}

static GPrivate dctx_key = G_PRIVATE_INIT (dctx_free);

gboolean
seismo_trace_dat_uncompress (SeismoTraceDat *self,
                             const guint8   *src,
                             gsize           src_len,
                             guint8         *dst,
                             gsize           dst_len,
                             GError        **error)
{
  switch (self->compression)
    {
    case SEISMO_TD_COMPRESS_ZSTD:
      {
        ZSTD_DCtx *dctx = g_private_get (&dctx_key);
        size_t ret;

        if (dctx == NULL)
          {
            dctx = ZSTD_createDCtx ();
            g_private_set (&dctx_key, dctx);
          }
        ret = ZSTD_decompressDCtx (dctx, dst, dst_len, src, src_len);
        if (ZSTD_isError (ret))
          {
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("zstd: %s"),
                         ZSTD_getErrorName (ret));
            return FALSE;
          }
        if (ret != dst_len)
          {
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                         _("zstd block holds %zu bytes, %zu announced"),
                         ret, dst_len);
            return FALSE;
          }
        return TRUE;
      }

#ifdef SEISMO_FTRACE_HAVE_ZLIB
    case SEISMO_TD_COMPRESS_ZLIB:
      {
        uLongf out_len = dst_len;
        int ret = uncompress (dst, &out_len, src, src_len);

        if (ret != Z_OK || out_len != dst_len)
          {
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("zlib: %s"),
                         ret != Z_OK ? zError (ret) : "short block");
            return FALSE;
          }
        return TRUE;
      }
#endif

    case SEISMO_TD_COMPRESS_NONE:
    default:
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                   _("compression \"%s\" is not supported by this build"),
                   self->compression_name ? self->compression_name : "?");
      return FALSE;
    }
}

/* ---- sections (version 7) --------------------------------------------------------------------- */

/*
 * Reads the section at offset: checks its id and returns a cursor over its content, decompressed
 * into *owned when the section is compressed.
 */
static gboolean
read_section (SeismoTraceDat  *td,
              guint64          offset,
              guint16          want_id,
              const char      *what,
              Cur             *out,
              guint8         **owned,
              GError         **error)
{
  Cur c = file_cur (td, offset);
  guint16 id, flags;
  guint32 string_id;
  guint64 size;
  const guint8 *data;

  *owned = NULL;
  if (!cur_u16 (&c, &id, what, error) ||
      !cur_u16 (&c, &flags, what, error) ||
      !cur_u32 (&c, &string_id, what, error) ||
      !cur_u64 (&c, &size, what, error))
    return FALSE;
  if (id != want_id)
    {
      c.pos = 0;
      c.file_off = offset;
      return fail (error, SEISMO_ERROR_CORRUPT, &c, _("%s: section id %u, expected %u"),
                   what, id, want_id);
    }
  if (!cur_bytes (&c, size, &data, what, error))
    return FALSE;

  if (flags & SECTION_FL_COMPRESSED)
    {
      Cur z = { td, data, size, 0, offset + 16, NULL };
      guint32 csize, usize;
      const guint8 *cdata;
      g_autoptr(GError) local_error = NULL;

      if (!cur_u32 (&z, &csize, what, error) ||
          !cur_u32 (&z, &usize, what, error) ||
          !cur_bytes (&z, csize, &cdata, what, error))
        return FALSE;
      *owned = g_malloc (MAX (usize, 1));
      if (!seismo_trace_dat_uncompress (td, cdata, csize, *owned, usize, &local_error))
        {
          g_clear_pointer (owned, g_free);
          c.pos = 0;
          c.file_off = offset;
          return fail (error, SEISMO_ERROR_CORRUPT, &c, "%s: %s", what, local_error->message);
        }
      *out = (Cur) { td, *owned, usize, 0, offset, what };
    }
  else
    {
      /* Plain content stays a view of the file, so messages give real offsets. */
      *out = (Cur) { td, td->map, (data - td->map) + size, data - td->map, 0, NULL };
    }
  return TRUE;
}

/* ---- shared headers --------------------------------------------------------------------------- */

static gboolean
parse_header_info (SeismoTraceDat  *td,
                   Cur             *c,
                   GError         **error)
{
  guint64 size;
  const guint8 *data;
  SeismoRbLayout layout;

  if (!cur_expect (c, "header_page", 12, error) ||
      !cur_u64 (c, &size, "header_page size", error) ||
      !cur_bytes (c, size, &data, "header_page", error))
    return FALSE;

  if (!seismo_rb_layout_parse (&layout, (const char *) data, size, td->big_endian))
    return fail (error, SEISMO_ERROR_CORRUPT, c, _("header_page has no usable commit or data field"));
  td->page_commit_size = layout.commit_size;
  td->page_data_offset = layout.data_offset;
  tep_parse_header_page (td->tep, (char *) data, size, td->page_commit_size);

  if (!cur_expect (c, "header_event", 13, error) ||
      !cur_u64 (c, &size, "header_event size", error) ||
      !cur_bytes (c, size, &data, "header_event", error))
    return FALSE;
  return TRUE;
}

typedef struct {
  const char   *system;    /* interned */
  const guint8 *data;
  gsize         size;
  gboolean      parsed;
} Format;

/* "name: x\nID: 372\n…" → 372; -1 when the text has no ID line. */
static gint64
format_id (const guint8 *data,
           gsize         size)
{
  const char *p = (const char *) data;
  const char *end = p + MIN (size, 4096);

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);

      if ((gsize) (end - p) > 3 && memcmp (p, "ID:", 3) == 0)
        {
          char buf[24];
          gsize n = MIN ((gsize) ((nl ? nl : end) - (p + 3)), sizeof buf - 1);

          memcpy (buf, p + 3, n);
          buf[n] = '\0';
          return g_ascii_strtoll (buf, NULL, 10);
        }
      if (nl == NULL)
        break;
      p = nl + 1;
    }
  return -1;
}

/* Remembers a format; tep parses it only if records of that id turn up. */
static void
add_format (SeismoTraceDat *td,
            const guint8   *data,
            guint64         size,
            const char     *system)
{
  gint64 id = format_id (data, size);
  Format *f;

  if (id < 0 || id > G_MAXUINT16)
    {
      g_debug ("%s: an event format of system %s has no usable ID", td->path, system);
      return;
    }
  f = g_new0 (Format, 1);
  f->system = g_intern_string (system);
  f->data = data;
  f->size = size;
  g_hash_table_replace (td->formats, GINT_TO_POINTER ((gint) id), f);
}

struct tep_event *
seismo_trace_dat_event (SeismoTraceDat *self,
                        int             id)
{
  Format *f = g_hash_table_lookup (self->formats, GINT_TO_POINTER (id));

  if (f == NULL)
    return NULL;
  if (!f->parsed)
    {
      enum tep_errno ret;

      f->parsed = TRUE;
      /* The text comes from the file: the guard tries it in a throwaway process first. */
      if (!seismo_tep_guard_parse (self->guard, (const char *) f->data, f->size, f->system, &ret))
        return NULL;
      /* A print format tep cannot parse still leaves the fields usable. */
      if (ret != 0)
        g_debug ("%s: format of event %d (%s) parsed with error %d", self->path, id,
                 f->system, ret);
    }
  return tep_find_event (self->tep, id);
}

static gboolean
parse_ftrace_formats (SeismoTraceDat  *td,
                      Cur             *c,
                      GError         **error)
{
  guint32 count;

  if (!cur_u32 (c, &count, "ftrace format count", error))
    return FALSE;
  for (guint32 i = 0; i < count; i++)
    {
      guint64 size;
      const guint8 *data;

      if (!cur_u64 (c, &size, "ftrace format size", error) ||
          !cur_bytes (c, size, &data, "ftrace format", error))
        return FALSE;
      add_format (td, data, size, "ftrace");
    }
  return TRUE;
}

static gboolean
parse_event_formats (SeismoTraceDat  *td,
                     Cur             *c,
                     GError         **error)
{
  guint32 n_systems;

  if (!cur_u32 (c, &n_systems, "event system count", error))
    return FALSE;
  for (guint32 s = 0; s < n_systems; s++)
    {
      const char *system;
      guint32 count;

      if (!cur_str (c, &system, "event system name", error) ||
          !cur_u32 (c, &count, "event format count", error))
        return FALSE;
      for (guint32 i = 0; i < count; i++)
        {
          guint64 size;
          const guint8 *data;

          if (!cur_u64 (c, &size, "event format size", error) ||
              !cur_bytes (c, size, &data, "event format", error))
            return FALSE;
          add_format (td, data, size, system);
        }
    }
  return TRUE;
}

static gboolean
skip_u32_sized (Cur         *c,
                const char  *what,
                GError     **error)
{
  guint32 size;
  const guint8 *data;

  return cur_u32 (c, &size, what, error) && cur_bytes (c, size, &data, what, error);
}

/* Remembers where the kallsyms text is: parsing it costs time only some files need spent. */
static gboolean
parse_kallsyms (SeismoTraceDat  *td,
                Cur             *c,
                GError         **error)
{
  guint32 size;
  const guint8 *data;

  if (!cur_u32 (c, &size, "kallsyms", error) || !cur_bytes (c, size, &data, "kallsyms", error))
    return FALSE;
  td->kallsyms_data = data;
  td->kallsyms_len = size;
  return TRUE;
}

char *
seismo_trace_dat_kallsyms (SeismoTraceDat  *self,
                           GError         **error)
{
  g_autofree guint8 *owned = NULL;
  Cur c;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->kallsyms_offset != 0)
    {
      if (!read_section (self, self->kallsyms_offset, OPT_KALLSYMS, "kallsyms section", &c,
                         &owned, error) ||
          !parse_kallsyms (self, &c, error))
        return NULL;
      self->kallsyms_offset = 0;
      /* The text lives in the section read just now: copied out below. */
    }
  if (self->kallsyms_data == NULL || self->kallsyms_len == 0)
    return NULL;
  {
    char *text = g_strndup ((const char *) self->kallsyms_data, self->kallsyms_len);

    if (owned)
      {
        self->kallsyms_data = NULL;
        self->kallsyms_len = 0;
      }
    return text;
  }
}

static gboolean
parse_cmdlines (SeismoTraceDat  *td,
                Cur             *c,
                GError         **error)
{
  guint64 size;
  const guint8 *data;

  if (!cur_u64 (c, &size, "saved cmdlines size", error) ||
      !cur_bytes (c, size, &data, "saved cmdlines", error))
    return FALSE;
  g_free (td->cmdlines);
  td->cmdlines = g_strndup ((const char *) data, size);
  td->cmdlines_len = strlen (td->cmdlines);
  return TRUE;
}

/* "[local] global counter" → "local". */
static char *
clock_from_trace_clock (const char *text,
                        gsize       len)
{
  g_autofree char *copy = g_strndup (text, len);
  char *open = strchr (copy, '[');
  char *close = open ? strchr (open, ']') : NULL;

  if (!open || !close)
    return NULL;
  return g_strndup (open + 1, close - open - 1);
}

static SeismoTdBuffer *
buffer_new (const char *name)
{
  SeismoTdBuffer *b = g_new0 (SeismoTdBuffer, 1);

  /* The name comes from the file and goes into messages and the model: keep it text. */
  b->name = g_utf8_make_valid (name, -1);
  b->cpus = g_array_new (FALSE, TRUE, sizeof (SeismoTdCpu));
  return b;
}

static void
buffer_free (gpointer data)
{
  SeismoTdBuffer *b = data;

  g_free (b->name);
  g_free (b->clock);
  g_array_unref (b->cpus);
  g_free (b);
}

static gboolean
check_cpu_range (SeismoTraceDat     *td,
                 const SeismoTdCpu  *cpu,
                 const char         *buffer,
                 GError            **error)
{
  if (cpu->size == 0)
    return TRUE;
  if (cpu->offset > td->size || cpu->size > td->size - cpu->offset)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_TRUNCATED,
                   _("%s: data of CPU %u%s%s at offset %" PRIu64 " (%" PRIu64
                     " bytes) goes past the end of the file (%zu bytes)"),
                   td->path, cpu->cpu, *buffer ? " in buffer " : "", buffer, cpu->offset,
                   cpu->size, td->size);
      return FALSE;
    }
  return TRUE;
}

/* Common to both versions: options that carry the same meaning. */
static gboolean
handle_option (SeismoTraceDat  *td,
               guint16          id,
               const guint8    *data,
               guint32          size,
               Cur             *where,
               GError         **error)
{
  g_autofree char *text = NULL;

  switch (id)
    {
    case OPT_DATE:
      /* The offset between trace time and wall time, in µs as a "0x…" string. */
      text = g_strndup ((const char *) data, size);
      td->ts_offset += g_ascii_strtoll (text, NULL, 0) * 1000;
      break;

    case OPT_OFFSET:
      text = g_strndup ((const char *) data, size);
      td->ts_offset += g_ascii_strtoll (text, NULL, 0);
      break;

    case OPT_UNAME:
      g_free (td->uname);
      td->uname = g_strndup ((const char *) data, size);
      break;

    case OPT_VERSION:
      g_free (td->tracer_version);
      td->tracer_version = g_strndup ((const char *) data, size);
      break;

    case OPT_TRACECLOCK:
      if (size > 0)
        {
          g_free (td->clock);
          td->clock = clock_from_trace_clock ((const char *) data, size);
        }
      break;

    case OPT_CPUCOUNT:
      if (size >= 4)
        {
          guint32 n;

          memcpy (&n, data, 4);
          td->n_cpus = td->swap ? GUINT32_SWAP_LE_BE (n) : n;
        }
      break;

    case OPT_TSC2NSEC:
      if (size >= 16)
        {
          guint32 mult, shift;

          memcpy (&mult, data, 4);
          memcpy (&shift, data + 4, 4);
          td->tsc_mult = td->swap ? GUINT32_SWAP_LE_BE (mult) : mult;
          td->tsc_shift = td->swap ? GUINT32_SWAP_LE_BE (shift) : shift;
          if (td->tsc_shift > 63)
            return fail (error, SEISMO_ERROR_CORRUPT, where, _("TSC2NSEC shift %u"), td->tsc_shift);
        }
      break;

    default:
      break;
    }
  return TRUE;
}

/* ---- version 6 -------------------------------------------------------------------------------- */

static gboolean
parse_v6_options (SeismoTraceDat  *td,
                  Cur             *c,
                  gboolean        *has_clock,
                  GPtrArray       *buffer_offsets,
                  GError         **error)
{
  for (;;)
    {
      guint16 id;
      guint32 size;
      const guint8 *data;

      if (!cur_u16 (c, &id, "option id", error))
        return FALSE;
      if (id == OPT_DONE)
        return TRUE;
      if (!cur_u32 (c, &size, "option size", error) ||
          !cur_bytes (c, size, &data, "option", error))
        return FALSE;

      if (id == OPT_BUFFER)
        {
          guint64 off;
          const char *name;
          Cur o = { td, data, size, 0, c->file_off + (data - c->base), "a BUFFER option" };
          SeismoTdBuffer *b;

          if (!cur_u64 (&o, &off, "buffer offset", error) ||
              !cur_str (&o, &name, "buffer name", error))
            return FALSE;
          /* The CPU table is at off; remember it in the first entry until it is read. */
          b = buffer_new (name);
          g_ptr_array_add (buffer_offsets, b);
          g_array_set_size (b->cpus, 1);
          g_array_index (b->cpus, SeismoTdCpu, 0).offset = off;
        }
      else if (id == OPT_TRACECLOCK)
        *has_clock = TRUE;
      else if (!handle_option (td, id, data, size, c, error))
        return FALSE;
    }
}

static gboolean
read_v6_cpu_table (SeismoTraceDat  *td,
                   Cur             *c,
                   SeismoTdBuffer  *b,
                   guint            n_cpus,
                   GError         **error)
{
  g_array_set_size (b->cpus, 0);
  for (guint i = 0; i < n_cpus; i++)
    {
      SeismoTdCpu cpu = { i, 0, 0 };

      if (!cur_u64 (c, &cpu.offset, "CPU data offset", error) ||
          !cur_u64 (c, &cpu.size, "CPU data size", error) ||
          !check_cpu_range (td, &cpu, b->name, error))
        return FALSE;
      g_array_append_val (b->cpus, cpu);
    }
  return TRUE;
}

static gboolean
parse_v6 (SeismoTraceDat  *td,
          Cur             *c,
          GError         **error)
{
  g_autoptr(GPtrArray) instances = g_ptr_array_new_with_free_func (buffer_free);
  SeismoTdBuffer *top;
  guint32 n_cpus;
  const guint8 *tag;
  gboolean has_clock = FALSE;

  if (!parse_header_info (td, c, error) ||
      !parse_ftrace_formats (td, c, error) ||
      !parse_event_formats (td, c, error) ||
      !parse_kallsyms (td, c, error) ||
      !skip_u32_sized (c, "printk formats", error) ||
      !parse_cmdlines (td, c, error) ||
      !cur_u32 (c, &n_cpus, "CPU count", error))
    return FALSE;
  if (n_cpus > 8192)
    return fail (error, SEISMO_ERROR_CORRUPT, c, _("implausible CPU count %u"), n_cpus);
  td->n_cpus = n_cpus;

  if (!cur_bytes (c, 10, &tag, "data type", error))
    return FALSE;
  if (memcmp (tag, "options  ", 10) == 0)
    {
      if (!parse_v6_options (td, c, &has_clock, instances, error) ||
          !cur_bytes (c, 10, &tag, "data type", error))
        return FALSE;
    }
  if (memcmp (tag, "latency  ", 10) == 0)
    {
      /* The tracer's text output to the end of the file: read as ftrace text. */
      td->latency_offset = (c->base + c->pos) - td->map;
      return TRUE;
    }
  if (memcmp (tag, "flyrecord", 10) != 0)
    {
      c->pos -= 10;
      return fail (error, SEISMO_ERROR_CORRUPT, c, _("expected \"flyrecord\""));
    }

  top = buffer_new ("");
  top->page_size = td->page_size;
  g_ptr_array_add (td->buffers, top);
  if (!read_v6_cpu_table (td, c, top, n_cpus, error))
    return FALSE;
  if (has_clock)
    {
      guint64 size;
      const guint8 *data;

      if (!cur_u64 (c, &size, "trace clock size", error) ||
          !cur_bytes (c, size, &data, "trace clock", error))
        return FALSE;
      g_free (td->clock);
      td->clock = clock_from_trace_clock ((const char *) data, size);
    }
  top->clock = g_strdup (td->clock);

  /* Instance buffers: at their offset, the same "flyrecord" header and CPU table. */
  for (guint i = 0; i < instances->len; i++)
    {
      SeismoTdBuffer *b = g_ptr_array_index (instances, i);
      Cur bc = file_cur (td, g_array_index (b->cpus, SeismoTdCpu, 0).offset);
      gboolean ignored = FALSE;
      g_autoptr(GPtrArray) nested = g_ptr_array_new_with_free_func (buffer_free);

      if (!cur_bytes (&bc, 10, &tag, "buffer data type", error))
        return FALSE;
      if (memcmp (tag, "options  ", 10) == 0 &&
          (!parse_v6_options (td, &bc, &ignored, nested, error) ||
           !cur_bytes (&bc, 10, &tag, "buffer data type", error)))
        return FALSE;
      if (memcmp (tag, "flyrecord", 10) != 0)
        {
          bc.pos -= 10;
          return fail (error, SEISMO_ERROR_CORRUPT, &bc, _("buffer %s: expected \"flyrecord\""),
                       b->name);
        }
      if (!read_v6_cpu_table (td, &bc, b, n_cpus, error))
        return FALSE;
      b->page_size = td->page_size;
      b->clock = g_strdup (td->clock);
      g_ptr_array_add (td->buffers, g_ptr_array_steal_index (instances, i--));
    }
  return TRUE;
}

/* ---- version 7 -------------------------------------------------------------------------------- */

static gboolean
parse_v7_buffer (SeismoTraceDat  *td,
                 Cur             *o,
                 GError         **error)
{
  guint64 off;
  const char *name, *clock;
  guint32 page_size, n_cpus;
  SeismoTdBuffer *b;
  Cur sc;
  g_autofree guint8 *owned = NULL;
  g_autofree char *shown = NULL;
  guint16 id, flags;

  if (!cur_u64 (o, &off, "buffer offset", error) ||
      !cur_str (o, &name, "buffer name", error) ||
      !cur_str (o, &clock, "buffer clock", error) ||
      !cur_u32 (o, &page_size, "buffer page size", error) ||
      !cur_u32 (o, &n_cpus, "buffer CPU count", error))
    return FALSE;
  /* The name is the file's bytes: messages must stay text. */
  shown = g_utf8_make_valid (name, -1);
  if (page_size < 64 || page_size > (1u << 24) || (page_size & (page_size - 1)) != 0)
    return fail (error, SEISMO_ERROR_CORRUPT, o, _("buffer %s: page size %u"), shown, page_size);
  if (n_cpus > 8192)
    return fail (error, SEISMO_ERROR_CORRUPT, o, _("buffer %s: implausible CPU count %u"),
                 shown, n_cpus);

  b = buffer_new (name);
  b->clock = g_strdup (clock);
  b->page_size = page_size;
  g_ptr_array_add (td->buffers, b);
  for (guint i = 0; i < n_cpus; i++)
    {
      SeismoTdCpu cpu;
      guint32 cpu_id;

      if (!cur_u32 (o, &cpu_id, "buffer CPU id", error) ||
          !cur_u64 (o, &cpu.offset, "CPU data offset", error) ||
          !cur_u64 (o, &cpu.size, "CPU data size", error))
        return FALSE;
      cpu.cpu = cpu_id;
      if (cpu_id > 65535)
        return fail (error, SEISMO_ERROR_CORRUPT, o, _("buffer %s: CPU id %u"), shown, cpu_id);
      if (!check_cpu_range (td, &cpu, shown, error))
        return FALSE;
      g_array_append_val (b->cpus, cpu);
    }

  /* The flyrecord section header says whether the pages are compressed. */
  sc = file_cur (td, off);
  if (!cur_u16 (&sc, &id, "buffer section id", error) ||
      !cur_u16 (&sc, &flags, "buffer section flags", error))
    return FALSE;
  b->compressed = (flags & SECTION_FL_COMPRESSED) != 0;
  if (b->compressed && td->compression == SEISMO_TD_COMPRESS_NONE)
    return fail (error, SEISMO_ERROR_CORRUPT, &sc,
                 _("buffer %s is compressed but the file names no compression"), shown);
  return TRUE;
}

static gboolean
parse_v7 (SeismoTraceDat  *td,
          guint64          options_offset,
          GError         **error)
{
  guint64 header_info = 0, ftrace_events = 0, event_formats = 0, cmdlines = 0;
  guint n_sections = 0;

  while (options_offset != 0)
    {
      g_autofree guint8 *owned = NULL;
      Cur c;

      if (++n_sections > 4096)
        {
          Cur f = file_cur (td, options_offset);

          return fail (error, SEISMO_ERROR_CORRUPT, &f, _("options sections form a loop"));
        }
      if (!read_section (td, options_offset, OPT_DONE, "options section", &c, &owned, error))
        return FALSE;
      options_offset = 0;

      for (;;)
        {
          guint16 id;
          guint32 size;
          const guint8 *data;
          Cur o;

          if (!cur_u16 (&c, &id, "option id", error) ||
              !cur_u32 (&c, &size, "option size", error) ||
              !cur_bytes (&c, size, &data, "option", error))
            return FALSE;
          o = (Cur) { td, data, size, 0, c.file_off + (data - c.base), "an option" };
          if (c.what == NULL)
            o.file_off = data - td->map;

          if (id == OPT_DONE)
            {
              if (!cur_u64 (&o, &options_offset, "next options offset", error))
                return FALSE;
              break;
            }
          switch (id)
            {
            case OPT_BUFFER:
              if (!parse_v7_buffer (td, &o, error))
                return FALSE;
              break;
            case OPT_BUFFER_TEXT:
              td->n_latency_buffers++;
              break;
            case OPT_HEADER_INFO:
              if (!cur_u64 (&o, &header_info, "section offset", error))
                return FALSE;
              break;
            case OPT_FTRACE_EVENTS:
              if (!cur_u64 (&o, &ftrace_events, "section offset", error))
                return FALSE;
              break;
            case OPT_EVENT_FORMATS:
              if (!cur_u64 (&o, &event_formats, "section offset", error))
                return FALSE;
              break;
            case OPT_CMDLINES:
              if (!cur_u64 (&o, &cmdlines, "section offset", error))
                return FALSE;
              break;
            case OPT_KALLSYMS:
              if (!cur_u64 (&o, &td->kallsyms_offset, "section offset", error))
                return FALSE;
              break;
            default:
              if (!handle_option (td, id, data, size, &o, error))
                return FALSE;
              break;
            }
        }
    }

  if (header_info == 0)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                   _("%s: no header info section (ring-buffer page layout)"), td->path);
      return FALSE;
    }

  {
    g_autofree guint8 *owned = NULL;
    Cur c;

    if (!read_section (td, header_info, OPT_HEADER_INFO, "header info section", &c, &owned,
                       error) ||
        !parse_header_info (td, &c, error))
      return FALSE;
  }
  if (ftrace_events)
    {
      g_autofree guint8 *owned = NULL;
      Cur c;

      if (!read_section (td, ftrace_events, OPT_FTRACE_EVENTS, "ftrace events section", &c,
                         &owned, error) ||
          !parse_ftrace_formats (td, &c, error))
        return FALSE;
      if (owned)
        g_ptr_array_add (td->blobs, g_steal_pointer (&owned));
    }
  if (event_formats)
    {
      g_autofree guint8 *owned = NULL;
      Cur c;

      if (!read_section (td, event_formats, OPT_EVENT_FORMATS, "event formats section", &c,
                         &owned, error) ||
          !parse_event_formats (td, &c, error))
        return FALSE;
      if (owned)
        g_ptr_array_add (td->blobs, g_steal_pointer (&owned));
    }
  if (cmdlines)
    {
      g_autofree guint8 *owned = NULL;
      Cur c;

      if (!read_section (td, cmdlines, OPT_CMDLINES, "saved cmdlines section", &c, &owned,
                         error) ||
          !parse_cmdlines (td, &c, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- open ------------------------------------------------------------------------------------- */

SeismoTraceDat *
seismo_trace_dat_open (const char  *path,
                       GError     **error)
{
  g_autoptr(SeismoTraceDat) td = g_new0 (SeismoTraceDat, 1);
  struct stat st;
  const char *version, *comp_name, *comp_version;
  guint8 endian, long_size;
  guint32 page_size;
  Cur c;
  void *map;

  g_return_val_if_fail (path != NULL, NULL);

  td->path = g_strdup (path);
  td->fd = open (path, O_RDONLY | O_CLOEXEC);
  td->buffers = g_ptr_array_new_with_free_func (buffer_free);
  td->formats = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  td->blobs = g_ptr_array_new_with_free_func (g_free);
  if (td->fd < 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   _("could not open %s: %s"), path, g_strerror (errsv));
      return NULL;
    }
  if (fstat (td->fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("%s: not a regular file"), path);
      return NULL;
    }
  td->size = st.st_size;
  if (td->size < SEISMO_TRACEDAT_MAGIC_LEN)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_TRUNCATED,
                   _("%s: %zu bytes is too short for a trace.dat file"),
                   path, td->size);
      return NULL;
    }
  map = mmap (NULL, td->size, PROT_READ, MAP_PRIVATE, td->fd, 0);
  if (map == MAP_FAILED)
    {
      seismo_set_errno_error (error, errno, _("could not map %s"), path);
      return NULL;
    }
  td->map = map;

  c = file_cur (td, 0);
  if (memcmp (td->map, SEISMO_TRACEDAT_MAGIC, SEISMO_TRACEDAT_MAGIC_LEN) != 0)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                   _("%s: not a trace.dat file (bad magic)"), path);
      return NULL;
    }
  c.pos = SEISMO_TRACEDAT_MAGIC_LEN;
  if (!cur_str (&c, &version, "version", error))
    return NULL;
  if (g_str_equal (version, "6"))
    td->version = 6;
  else if (g_str_equal (version, "7"))
    td->version = 7;
  else
    {
      /* Escaped: the bytes come from the file, and a message must be UTF-8 (a GTK label shows it). */
      g_autofree char *shown = g_strescape (version, NULL);

      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                   _("%s: trace.dat version \"%.8s\" (versions 6 and 7 are supported)"),
                   path, shown);
      return NULL;
    }

  if (!cur_bytes (&c, 1, (const guint8 **) &comp_name, "endianness", error))
    return NULL;
  endian = *(const guint8 *) comp_name;
  if (!cur_bytes (&c, 1, (const guint8 **) &comp_name, "long size", error))
    return NULL;
  long_size = *(const guint8 *) comp_name;
  if (endian > 1)
    {
      c.pos -= 2;
      fail (error, SEISMO_ERROR_CORRUPT, &c, _("endianness flag %u"), endian);
      return NULL;
    }
  td->big_endian = endian == 1;
  td->swap = td->big_endian != (G_BYTE_ORDER == G_BIG_ENDIAN);
  if (long_size != 4 && long_size != 8)
    {
      c.pos -= 1;
      fail (error, SEISMO_ERROR_CORRUPT, &c, _("long size %u"), long_size);
      return NULL;
    }
  td->long_size = long_size;
  if (!cur_u32 (&c, &page_size, "page size", error))
    return NULL;
  if (page_size < 64 || page_size > (1u << 24) || (page_size & (page_size - 1)) != 0)
    {
      c.pos -= 4;
      fail (error, SEISMO_ERROR_CORRUPT, &c, _("page size %u"), page_size);
      return NULL;
    }
  td->page_size = page_size;

  td->tep = tep_alloc ();
  tep_set_file_bigendian (td->tep, td->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (td->tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN
                                                                : TEP_LITTLE_ENDIAN);
  tep_set_long_size (td->tep, long_size);
  tep_set_page_size (td->tep, page_size);

  if (td->version == 7)
    {
      guint64 options_offset;

      if (!cur_str (&c, &comp_name, "compression name", error) ||
          !cur_str (&c, &comp_version, "compression version", error) ||
          !cur_u64 (&c, &options_offset, "options offset", error))
        return NULL;
      td->compression_name = g_strdup (comp_name);
      if (g_str_equal (comp_name, "none"))
        td->compression = SEISMO_TD_COMPRESS_NONE;
      else if (g_str_equal (comp_name, "zstd"))
        td->compression = SEISMO_TD_COMPRESS_ZSTD;
#ifdef SEISMO_FTRACE_HAVE_ZLIB
      else if (g_str_equal (comp_name, "zlib"))
        td->compression = SEISMO_TD_COMPRESS_ZLIB;
#endif
      else
        {
          /* Escaped: the name comes from the file, and a message must be UTF-8. */
          g_autofree char *shown = g_strescape (comp_name, NULL);

          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                       _("%s: compressed with \"%.32s\", which this build cannot read"),
                       path, shown);
          return NULL;
        }
      if (!parse_v7 (td, options_offset, error))
        return NULL;
    }
  else
    {
      td->compression_name = g_strdup ("none");
      if (!parse_v6 (td, &c, error))
        return NULL;
    }

  if (td->buffers->len == 0 && td->latency_offset)
    return g_steal_pointer (&td);
  if (td->buffers->len == 0)
    {
      if (td->n_latency_buffers)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                     _("%s: holds only latency tracer text, not ring-buffer data"), path);
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT, _("%s: no trace data buffers"),
                     path);
      return NULL;
    }
  for (guint i = 0; i < td->buffers->len; i++)
    {
      SeismoTdBuffer *b = g_ptr_array_index (td->buffers, i);

      if (b->clock == NULL && td->clock)
        b->clock = g_strdup (td->clock);
      if (td->page_data_offset + td->page_commit_size > b->page_size)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
                       _("%s: buffer page of %u bytes cannot hold its header"), path, b->page_size);
          return NULL;
        }
    }
  if (td->clock == NULL)
    {
      SeismoTdBuffer *b = g_ptr_array_index (td->buffers, 0);

      td->clock = g_strdup (b->clock ? b->clock : "local");
    }
  td->guard = seismo_tep_guard_new (td->tep, td->path);
  return g_steal_pointer (&td);
}

void
seismo_trace_dat_free (SeismoTraceDat *self)
{
  if (self == NULL)
    return;
  if (self->map)
    munmap ((void *) self->map, self->size);
  if (self->fd >= 0)
    close (self->fd);
  g_clear_pointer (&self->guard, seismo_tep_guard_free);
  if (self->tep)
    tep_free (self->tep);
  g_clear_pointer (&self->buffers, g_ptr_array_unref);
  g_clear_pointer (&self->formats, g_hash_table_unref);
  g_clear_pointer (&self->blobs, g_ptr_array_unref);
  g_free (self->path);
  g_free (self->compression_name);
  g_free (self->cmdlines);
  g_free (self->uname);
  g_free (self->tracer_version);
  g_free (self->clock);
  g_free (self);
}

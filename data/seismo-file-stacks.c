/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

/* The .seismo stack records (format 1.2): STACK_TABLES and STACK_IDS data parts. */

#include <string.h>

#include "seismo-file-cursor-private.h"
#include "seismo-file-private.h"
#include "seismo-stacks-private.h"

/* Bounds a reader accepts, so a lying count cannot make it allocate much before reading. */
#define MAX_FRAMES_PER_STACK 65536u
#define MAX_BUILD_ID         64u

static inline void
put_varint (GByteArray *b,
            guint64     v)
{
  guint8 tmp[SEISMO_VARINT_MAX];
  guint8 *end = seismo_varint_put (tmp, v);

  g_byte_array_append (b, tmp, (guint) (end - tmp));
}

void
_seismo_file_encode_stack_tables (GByteArray            *b,
                                  SeismoStackTable      *t,
                                  SeismoStackTablesInfo *info)
{
  guint n_stacks = t->stack_off->len - 2;   /* ids 1 .. n */
  guint64 prev = 0;

  for (guint i = 1; i < t->strings->len; i++)
    {
      const char *s = g_ptr_array_index (t->strings, i);
      gsize len = strlen (s);

      put_varint (b, len);
      g_byte_array_append (b, (const guint8 *) s, (guint) len);
    }
  for (guint i = 0; i < t->frames->len; i++)
    {
      const SeismoFrame *f = &g_array_index (t->frames, SeismoFrame, i);

      put_varint (b, f->address);
      put_varint (b, _seismo_stack_table_string_index (t, f->function));
      put_varint (b, _seismo_stack_table_string_index (t, f->module));
      put_varint (b, _seismo_stack_table_string_index (t, f->file));
      put_varint (b, f->line);
      put_varint (b, f->offset);
      put_varint (b, seismo_zigzag_encode (f->pid));
      put_varint (b, (guint64) f->space | (f->inlined ? 2u : 0u));
    }
  for (guint s = 1; s <= n_stacks; s++)
    {
      const SeismoFrameId *ids;
      guint n = _seismo_stack_table_stack (t, s, &ids);

      put_varint (b, n);
      for (guint k = 0; k < n; k++)
        put_varint (b, ids[k]);
    }
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const SeismoMapping *m = &g_array_index (t->mappings, SeismoMapping, i);

      put_varint (b, seismo_zigzag_encode (m->pid));
      put_varint (b, m->start);
      put_varint (b, m->end - m->start);
      put_varint (b, m->file_offset);
      put_varint (b, _seismo_stack_table_string_index (t, m->path));
      put_varint (b, m->build_id_len);
      if (m->build_id_len)
        g_byte_array_append (b, m->build_id, m->build_id_len);
      put_varint (b, m->time_ns);
    }
  for (guint i = 0; i < t->ksyms->len; i++)
    {
      const SeismoKernelSymbol *k = &g_array_index (t->ksyms, SeismoKernelSymbol, i);

      put_varint (b, k->address - prev);
      prev = k->address;
      put_varint (b, _seismo_stack_table_string_index (t, k->name));
      put_varint (b, _seismo_stack_table_string_index (t, k->module));
    }
  info->n_strings = GUINT32_TO_LE (t->strings->len - 1);
  info->n_frames = GUINT32_TO_LE (t->frames->len);
  info->n_stacks = GUINT32_TO_LE (n_stacks);
  info->n_mappings = GUINT32_TO_LE (t->mappings->len);
  info->n_ksyms = GUINT32_TO_LE (t->ksyms->len);
  info->reserved = 0;
}

static gboolean
string_at (SeismoStackTable *t,
           guint64           index,
           const char      **out)
{
  if (index >= t->strings->len)
    return FALSE;
  *out = g_ptr_array_index (t->strings, index);
  return TRUE;
}

SeismoStackTable *
_seismo_file_decode_stack_tables (const guint8                *raw,
                                  gsize                        len,
                                  const SeismoStackTablesInfo *info,
                                  char                       **reason)
{
  g_autoptr(GArray) ids = NULL;
  SeismoStackTable *t;
  Cursor c = { raw, raw, raw + len };
  GArray *ksyms;
  guint64 addr = 0;

  /* Every entry takes at least one byte per field: counts beyond the data are lies. */
  if ((guint64) info->n_strings + info->n_frames * 8ull + info->n_stacks + info->n_mappings * 8ull +
      info->n_ksyms * 3ull > len)
    {
      *reason = g_strdup (_("stack table counts exceed the record"));
      return NULL;
    }
  t = _seismo_stack_table_new ();
  for (guint32 i = 0; i < info->n_strings; i++)
    {
      guint64 n;
      g_autofree char *s = NULL;

      if (!cur_varint (&c, &n) || n > (guint64) (c.end - c.p))
        goto bad;
      s = g_strndup ((const char *) c.p, n);
      c.p += n;
      /* Strings are unique in a table written by us; a duplicate or empty one would shift every
       * later index, so it is refused. */
      if (strlen (s) != n || n == 0 || g_hash_table_contains (t->string_ids, s))
        goto bad;
      _seismo_stack_table_intern (t, s, NULL);
    }
  for (guint32 i = 0; i < info->n_frames; i++)
    {
      SeismoFrame f = { 0 };
      guint64 fn, mod, file, line, off, pid, flags;

      if (!cur_varint (&c, &f.address) || !cur_varint (&c, &fn) || !cur_varint (&c, &mod) ||
          !cur_varint (&c, &file) || !cur_varint (&c, &line) || !cur_varint (&c, &off) ||
          !cur_varint (&c, &pid) || !cur_varint (&c, &flags) ||
          !string_at (t, fn, &f.function) || !string_at (t, mod, &f.module) ||
          !string_at (t, file, &f.file) || line > G_MAXUINT32 || off > G_MAXUINT32 || flags > 3)
        goto bad;
      f.line = (guint32) line;
      f.offset = (guint32) off;
      f.pid = (gint32) seismo_zigzag_decode (pid);
      f.space = flags & 1;
      f.inlined = (flags & 2) != 0;
      g_array_append_val (t->frames, f);
    }
  ids = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
  for (guint32 s = 1; s <= info->n_stacks; s++)
    {
      guint64 n;
      guint32 end;

      if (!cur_varint (&c, &n) || n == 0 || n > MAX_FRAMES_PER_STACK || n > (guint64) (c.end - c.p))
        goto bad;
      for (guint64 k = 0; k < n; k++)
        {
          guint32 id;

          if (!cur_u32 (&c, &id) || id >= info->n_frames)
            goto bad;
          g_array_append_val (t->stack_frames, id);
        }
      end = t->stack_frames->len;
      g_array_append_val (t->stack_off, end);
    }
  for (guint32 i = 0; i < info->n_mappings; i++)
    {
      SeismoMapping m = { 0 };
      guint64 pid, size, path, bl;
      g_autofree guint8 *bid = NULL;

      if (!cur_varint (&c, &pid) || !cur_varint (&c, &m.start) || !cur_varint (&c, &size) ||
          !cur_varint (&c, &m.file_offset) || !cur_varint (&c, &path) || !cur_varint (&c, &bl) ||
          size > G_MAXUINT64 - m.start || !string_at (t, path, &m.path) || bl > MAX_BUILD_ID ||
          bl > (guint64) (c.end - c.p))
        goto bad;
      m.pid = (gint32) seismo_zigzag_decode (pid);
      m.end = m.start + size;
      m.build_id = bid = bl ? g_memdup2 (c.p, bl) : NULL;
      m.build_id_len = (guint) bl;
      c.p += bl;
      if (!cur_varint (&c, &m.time_ns))
        goto bad;
      _seismo_stack_table_add_mapping (t, &m);
    }
  ksyms = g_array_new (FALSE, TRUE, sizeof (SeismoKernelSymbol));
  for (guint32 i = 0; i < info->n_ksyms; i++)
    {
      SeismoKernelSymbol k = { 0 };
      guint64 delta, name, mod;

      if (!cur_varint (&c, &delta) || !cur_varint (&c, &name) || !cur_varint (&c, &mod) ||
          delta > G_MAXUINT64 - addr || !string_at (t, name, &k.name) ||
          !string_at (t, mod, &k.module) || k.name == NULL)
        {
          g_array_unref (ksyms);
          goto bad;
        }
      addr += delta;
      k.address = addr;
      g_array_append_val (ksyms, k);
    }
  _seismo_stack_table_set_ksyms (t, ksyms);
  if (c.p != c.end)
    {
      *reason = g_strdup (_("trailing bytes after the stack tables"));
      _seismo_stack_table_free (t);
      return NULL;
    }
  return t;

bad:
  *reason = g_strdup_printf (_("bad stack table entry at byte %" PRIu64 " of the record's data"),
                             (guint64) (c.p - c.start));
  _seismo_stack_table_free (t);
  return NULL;
}

void
_seismo_file_encode_stack_ids (GByteArray    *b,
                               const guint32 *ids,
                               gsize          n)
{
  for (gsize i = 0; i < n; i++)
    put_varint (b, ids[i]);
}

gboolean
_seismo_file_decode_stack_ids (const guint8 *raw,
                               gsize         len,
                               guint32      *out,
                               gsize         n,
                               guint32       n_stacks,
                               char        **reason)
{
  Cursor c = { raw, raw, raw + len };

  for (gsize i = 0; i < n; i++)
    if (!cur_u32 (&c, &out[i]) || out[i] > n_stacks)
      {
        *reason = g_strdup_printf (_("bad stack id for event %" PRIu64 " of the record"), (guint64) i);
        return FALSE;
      }
  if (c.p != c.end)
    {
      *reason = g_strdup (_("trailing bytes after the stack ids"));
      return FALSE;
    }
  return TRUE;
}

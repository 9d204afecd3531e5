/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

/* The interned stack tables: strings, frames and stacks stored once each. */

#include <stdlib.h>
#include <string.h>

#include "seismo-stacks-private.h"

/* What makes two frames the same frame (pooled strings compare by pointer). */
typedef struct {
  guint64     address;
  const char *function;
  const char *module;
  const char *file;
  guint32     line;
  guint32     offset;
  gint32      pid;
  guint8      space;
  guint8      inlined;
} FrameKey;

static guint
frame_key_hash (gconstpointer p)
{
  const FrameKey *k = p;
  guint64 h = k->address * 0x9E3779B97F4A7C15ull;

  h ^= GPOINTER_TO_SIZE (k->function) * 31 + GPOINTER_TO_SIZE (k->module) * 17 +
       GPOINTER_TO_SIZE (k->file) * 7;
  h ^= ((guint64) k->line << 32) ^ k->offset ^ ((guint64) (guint32) k->pid << 20) ^
       ((guint64) k->space << 8) ^ k->inlined;
  return (guint) (h ^ (h >> 32));
}

static gboolean
frame_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const FrameKey *x = a, *y = b;

  return x->address == y->address && x->function == y->function && x->module == y->module &&
         x->file == y->file && x->line == y->line && x->offset == y->offset && x->pid == y->pid &&
         x->space == y->space && x->inlined == y->inlined;
}

#define ADDR_CACHE_BITS 16

typedef struct _SeismoAddrSlot {
  guint64       address;
  gint32        pid;
  guint32       id_space;    /* frame id + 1 (0: empty) << 1 | space */
} AddrSlot;

SeismoFrameId
_seismo_stack_table_add_address (SeismoStackTable *self,
                                 SeismoFrameSpace  space,
                                 gint32            pid,
                                 guint64           address)
{
  SeismoFrame f = { 0 };
  guint64 h;
  AddrSlot *slot;
  SeismoFrameId id;

  if (space != SEISMO_FRAME_USER)
    pid = -1;
  if (self->addr_cache == NULL)
    self->addr_cache = g_new0 (AddrSlot, 1u << ADDR_CACHE_BITS);
  h = (address ^ ((guint64) (guint32) pid << 40) ^ space) * 0x9E3779B97F4A7C15ull;
  slot = &self->addr_cache[h >> (64 - ADDR_CACHE_BITS)];
  if (slot->id_space != 0 && slot->address == address && slot->pid == pid &&
      (slot->id_space & 1) == (guint32) space)
    return (slot->id_space >> 1) - 1;
  f.address = address;
  f.space = space;
  f.pid = pid;
  id = _seismo_stack_table_add_frame (self, &f);
  slot->address = address;
  slot->pid = pid;
  slot->id_space = ((id + 1) << 1) | (guint32) space;
  return id;
}

SeismoStackTable *
_seismo_stack_table_new (void)
{
  SeismoStackTable *self = g_new0 (SeismoStackTable, 1);
  guint32 zero = 0;

  self->strings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->strings, NULL);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->frames = g_array_new (FALSE, TRUE, sizeof (SeismoFrame));
  self->stack_frames = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
  self->stack_off = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* Stack 0 is the empty stack. */
  g_array_append_val (self->stack_off, zero);
  g_array_append_val (self->stack_off, zero);
  self->mappings = g_array_new (FALSE, TRUE, sizeof (SeismoMapping));
  self->ksyms = g_array_new (FALSE, TRUE, sizeof (SeismoKernelSymbol));
  self->blobs = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
_seismo_stack_table_free (SeismoStackTable *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->frame_ids, g_hash_table_unref);
  g_hash_table_unref (self->string_ids);
  g_ptr_array_unref (self->strings);
  g_array_unref (self->frames);
  g_array_unref (self->stack_frames);
  g_array_unref (self->stack_off);
  g_free (self->slots);
  g_array_unref (self->mappings);
  g_array_unref (self->ksyms);
  g_ptr_array_unref (self->blobs);
  g_free (self->addr_cache);
  g_free (self);
}

const char *
_seismo_stack_table_intern (SeismoStackTable *self,
                            const char       *str,
                            guint32          *index)
{
  gpointer orig, value;
  char *copy;

  if (str == NULL || *str == '\0')
    {
      if (index)
        *index = 0;
      return NULL;
    }
  if (g_hash_table_lookup_extended (self->string_ids, str, &orig, &value))
    {
      if (index)
        *index = GPOINTER_TO_UINT (value);
      return orig;
    }
  copy = g_strdup (str);
  if (index)
    *index = self->strings->len;
  g_hash_table_insert (self->string_ids, copy, GUINT_TO_POINTER (self->strings->len));
  g_ptr_array_add (self->strings, copy);
  return copy;
}

guint32
_seismo_stack_table_string_index (SeismoStackTable *self,
                                  const char       *pooled)
{
  if (pooled == NULL)
    return 0;
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->string_ids, pooled));
}

static FrameKey
frame_key (const SeismoFrame *f)
{
  return (FrameKey) { f->address, f->function, f->module, f->file, f->line, f->offset, f->pid,
                      f->space, f->inlined ? 1 : 0 };
}

static void
ensure_frame_ids (SeismoStackTable *self)
{
  if (self->frame_ids)
    return;
  self->frame_ids = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, NULL);
  for (guint i = 0; i < self->frames->len; i++)
    {
      FrameKey key = frame_key (&g_array_index (self->frames, SeismoFrame, i));

      g_hash_table_insert (self->frame_ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (i + 1));
    }
}

SeismoFrameId
_seismo_stack_table_add_frame (SeismoStackTable  *self,
                               const SeismoFrame *frame)
{
  SeismoFrame f = *frame;
  FrameKey key;
  guint id;

  f.function = _seismo_stack_table_intern (self, frame->function, NULL);
  f.module = _seismo_stack_table_intern (self, frame->module, NULL);
  f.file = _seismo_stack_table_intern (self, frame->file, NULL);
  f.inlined = frame->inlined ? TRUE : FALSE;
  f.space = frame->space == SEISMO_FRAME_USER ? SEISMO_FRAME_USER : SEISMO_FRAME_KERNEL;
  if (f.space == SEISMO_FRAME_KERNEL)
    f.pid = -1;
  key = frame_key (&f);
  ensure_frame_ids (self);
  id = GPOINTER_TO_UINT (g_hash_table_lookup (self->frame_ids, &key));
  if (id != 0)
    return id - 1;
  id = self->frames->len;
  g_array_append_val (self->frames, f);
  g_hash_table_insert (self->frame_ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id + 1));
  return id;
}

static guint32
hash_frames (const SeismoFrameId *frames,
             guint                n)
{
  guint32 h = 2166136261u ^ n;

  for (guint i = 0; i < n; i++)
    h = (h ^ frames[i]) * 16777619u;
  return h;
}

guint
_seismo_stack_table_stack (SeismoStackTable     *self,
                           SeismoStackId         stack,
                           const SeismoFrameId **frames)
{
  guint32 start, end;

  if (stack == 0 || stack + 1 >= self->stack_off->len)
    {
      *frames = NULL;
      return 0;
    }
  start = g_array_index (self->stack_off, guint32, stack);
  end = g_array_index (self->stack_off, guint32, stack + 1);
  *frames = &g_array_index (self->stack_frames, SeismoFrameId, start);
  return end - start;
}

static void
slot_insert (SeismoStackTable *self,
             SeismoStackId     id)
{
  const SeismoFrameId *f;
  guint n = _seismo_stack_table_stack (self, id, &f);
  guint mask = self->n_slots - 1;
  guint s = hash_frames (f, n) & mask;

  while (self->slots[s] != 0)
    s = (s + 1) & mask;
  self->slots[s] = id;
}

static void
rehash (SeismoStackTable *self,
        guint             n_slots)
{
  guint n_stacks = self->stack_off->len - 1;

  g_free (self->slots);
  self->n_slots = n_slots;
  self->slots = g_new0 (guint32, n_slots);
  for (guint id = 1; id < n_stacks; id++)
    slot_insert (self, id);
}

SeismoStackId
_seismo_stack_table_add_stack (SeismoStackTable    *self,
                               const SeismoFrameId *frames,
                               guint                n_frames)
{
  guint n_stacks = self->stack_off->len - 1;
  guint mask, s;
  guint32 end;
  SeismoStackId id;

  if (n_frames == 0)
    return SEISMO_NO_STACK;
  /* Load factor at most 1/2. */
  if (self->n_slots < 2 * (n_stacks + 1))
    {
      guint n_slots = MAX (self->n_slots, 1024);

      while (n_slots < 2 * (n_stacks + 1))
        n_slots *= 2;
      rehash (self, n_slots);
    }
  mask = self->n_slots - 1;
  for (s = hash_frames (frames, n_frames) & mask; self->slots[s] != 0; s = (s + 1) & mask)
    {
      const SeismoFrameId *f;
      guint n = _seismo_stack_table_stack (self, self->slots[s], &f);

      if (n == n_frames && (n == 0 || memcmp (f, frames, n * sizeof *f) == 0))
        return self->slots[s];
    }
  g_return_val_if_fail (self->stack_frames->len + (guint64) n_frames < G_MAXUINT32, SEISMO_NO_STACK);
  id = n_stacks;
  /* stack_off's last entry is the end of the last stack: it becomes this stack's start. */
  g_array_append_vals (self->stack_frames, frames, n_frames);
  end = self->stack_frames->len;
  g_array_append_val (self->stack_off, end);
  self->slots[s] = id;
  return id;
}

void
_seismo_stack_table_add_mapping (SeismoStackTable    *self,
                                 const SeismoMapping *mapping)
{
  SeismoMapping m = *mapping;

  m.path = _seismo_stack_table_intern (self, mapping->path, NULL);
  if (mapping->build_id && mapping->build_id_len > 0)
    {
      m.build_id = g_memdup2 (mapping->build_id, mapping->build_id_len);
      g_ptr_array_add (self->blobs, (gpointer) m.build_id);
    }
  else
    {
      m.build_id = NULL;
      m.build_id_len = 0;
    }
  g_array_append_val (self->mappings, m);
}

static int
compare_ksyms (gconstpointer a,
               gconstpointer b)
{
  const SeismoKernelSymbol *x = a, *y = b;

  if (x->address != y->address)
    return x->address < y->address ? -1 : 1;
  return 0;
}

void
_seismo_stack_table_set_ksyms (SeismoStackTable *self,
                               GArray           *ksyms)
{
  g_array_unref (self->ksyms);
  self->ksyms = ksyms;
  g_array_sort (self->ksyms, compare_ksyms);
}

static const SeismoKernelSymbol *
find_ksym (SeismoStackTable *self,
           guint64           address)
{
  const SeismoKernelSymbol *syms = (const SeismoKernelSymbol *) (gpointer) self->ksyms->data;
  guint lo = 0, hi = self->ksyms->len;

  /* The last symbol at or below the address. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (syms[mid].address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? &syms[lo - 1] : NULL;
}

guint
_seismo_stack_table_resolve_kernel (SeismoStackTable *self)
{
  guint n = 0;

  if (self->ksyms->len == 0)
    return 0;
  for (guint i = 0; i < self->frames->len; i++)
    {
      SeismoFrame *f = &g_array_index (self->frames, SeismoFrame, i);
      const SeismoKernelSymbol *sym;

      if (f->space != SEISMO_FRAME_KERNEL || f->function != NULL || f->address == 0)
        continue;
      sym = find_ksym (self, f->address);
      /* Beyond 1 MiB past the last symbol the address is not in that symbol. */
      if (sym == NULL || f->address - sym->address > (1u << 20))
        continue;
      f->function = sym->name;
      f->offset = (guint32) (f->address - sym->address);
      f->module = sym->module ? sym->module : _seismo_stack_table_intern (self, "[kernel.kallsyms]", NULL);
      n++;
    }
  /* Names changed the frames' keys. */
  if (n > 0)
    {
      g_clear_pointer (&self->frame_ids, g_hash_table_unref);
      g_clear_pointer (&self->addr_cache, g_free);
    }
  return n;
}

GArray *
_seismo_kallsyms_parse (SeismoStackTable *self,
                        const char       *text,
                        gsize             len)
{
  GArray *syms = g_array_new (FALSE, TRUE, sizeof (SeismoKernelSymbol));
  const char *p = text, *end = text + len;

  /* "ffffffff81000000 T _stext" or "ffffffffc0a01000 t foo\t[ext4]". */
  while (p < end)
    {
      const char *eol = memchr (p, '\n', (gsize) (end - p));
      g_autofree char *line = g_strndup (p, eol ? (gsize) (eol - p) : (gsize) (end - p));
      char **parts;
      guint n;

      p = eol ? eol + 1 : end;
      parts = g_strsplit_set (line, " \t", -1);
      n = 0;
      /* Drop the empty strings runs of blanks leave. */
      for (guint i = 0; parts[i]; i++)
        if (*parts[i])
          parts[n++] = parts[i];
        else
          g_free (parts[i]);
      parts[n] = NULL;
      if (n >= 3 && strlen (parts[1]) == 1 && strchr ("tTwW", parts[1][0]))
        {
          char *endp;
          guint64 addr = g_ascii_strtoull (parts[0], &endp, 16);

          if (*endp == '\0' && endp != parts[0])
            {
              SeismoKernelSymbol sym = { addr, NULL, NULL };
              const char *mod = n >= 4 ? parts[3] : NULL;

              sym.name = _seismo_stack_table_intern (self, parts[2], NULL);
              if (mod && mod[0] == '[')
                {
                  g_autofree char *m = g_strndup (mod + 1, strcspn (mod + 1, "]"));

                  sym.module = _seismo_stack_table_intern (self, m, NULL);
                }
              if (sym.name)
                g_array_append_val (syms, sym);
            }
        }
      g_strfreev (parts);
    }
  return syms;
}

void
_seismo_stack_table_trim (SeismoStackTable *self)
{
  g_clear_pointer (&self->frame_ids, g_hash_table_unref);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->addr_cache, g_free);
  self->n_slots = 0;
}

SeismoStackTable *
_seismo_stack_table_copy (SeismoStackTable *self)
{
  SeismoStackTable *copy = _seismo_stack_table_new ();
  GArray *ksyms = g_array_new (FALSE, TRUE, sizeof (SeismoKernelSymbol));

  for (guint i = 0; i < self->frames->len; i++)
    {
      SeismoFrame f = g_array_index (self->frames, SeismoFrame, i);

      f.function = _seismo_stack_table_intern (copy, f.function, NULL);
      f.module = _seismo_stack_table_intern (copy, f.module, NULL);
      f.file = _seismo_stack_table_intern (copy, f.file, NULL);
      g_array_append_val (copy->frames, f);
    }
  g_array_append_vals (copy->stack_frames, self->stack_frames->data, self->stack_frames->len);
  g_array_set_size (copy->stack_off, 0);
  g_array_append_vals (copy->stack_off, self->stack_off->data, self->stack_off->len);
  for (guint i = 0; i < self->mappings->len; i++)
    {
      SeismoMapping m = g_array_index (self->mappings, SeismoMapping, i);

      m.path = _seismo_stack_table_intern (copy, m.path, NULL);
      if (m.build_id)
        {
          m.build_id = g_memdup2 (m.build_id, m.build_id_len);
          g_ptr_array_add (copy->blobs, (gpointer) m.build_id);
        }
      g_array_append_val (copy->mappings, m);
    }
  for (guint i = 0; i < self->ksyms->len; i++)
    {
      SeismoKernelSymbol s = g_array_index (self->ksyms, SeismoKernelSymbol, i);

      s.name = _seismo_stack_table_intern (copy, s.name, NULL);
      s.module = _seismo_stack_table_intern (copy, s.module, NULL);
      g_array_append_val (ksyms, s);
    }
  _seismo_stack_table_set_ksyms (copy, ksyms);
  return copy;
}

gsize
_seismo_stack_table_memory_size (SeismoStackTable *self)
{
  gsize size = sizeof *self;

  if (self == NULL)
    return 0;
  for (guint i = 1; i < self->strings->len; i++)
    size += strlen (g_ptr_array_index (self->strings, i)) + 1 + sizeof (gpointer) + 24;
  size += self->frames->len * sizeof (SeismoFrame);
  size += self->stack_frames->len * sizeof (SeismoFrameId) + self->stack_off->len * sizeof (guint32);
  size += self->n_slots * sizeof (guint32);
  size += self->mappings->len * sizeof (SeismoMapping) + self->ksyms->len * sizeof (SeismoKernelSymbol);
  if (self->frame_ids)
    size += g_hash_table_size (self->frame_ids) * (sizeof (FrameKey) + 32);
  return size;
}

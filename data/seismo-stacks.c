/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

/* Stacks of events: the builder's side (collecting an event's frames) and the trace's side. */

#include <string.h>

#include "seismo-stacks-private.h"
#include "seismo-trace-builder-private.h"

/* ---- Builder ---- */

/* Stacks of raw addresses by a hash of the addresses, direct-mapped. */
#define RAW_CACHE_BITS 14

typedef struct _SeismoRawStackSlot {
  guint64       hash;
  SeismoStackId stack;
  gint32        pid;
  guint32       nk;
  guint32       nu;
  guint64      *addrs;    /* nk kernel then nu user addresses: compared sequentially */
} RawSlot;

static void
ensure_stacks (SeismoTraceBuilder *self)
{
  if (self->stacks)
    return;
  self->stacks = _seismo_stack_table_new ();
  self->cur_kernel = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
  self->cur_user = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
  self->raw_kernel = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->raw_user = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->raw_cache = g_new0 (RawSlot, 1u << RAW_CACHE_BITS);
}

/* Interns the raw addresses gathered so far (before frames of another kind are added). */
static void
intern_raw (SeismoTraceBuilder *self)
{
  for (guint k = 0; k < 2; k++)
    {
      GArray *raw = k == 0 ? self->raw_kernel : self->raw_user;
      GArray *out = k == 0 ? self->cur_kernel : self->cur_user;
      SeismoFrameSpace space = k == 0 ? SEISMO_FRAME_KERNEL : SEISMO_FRAME_USER;

      for (guint i = 0; i < raw->len; i++)
        {
          SeismoFrameId id = _seismo_stack_table_add_address (self->stacks, space, self->raw_pid,
                                                              g_array_index (raw, guint64, i));

          g_array_append_val (out, id);
        }
      g_array_set_size (raw, 0);
    }
}

static guint64
raw_hash (SeismoTraceBuilder *self)
{
  guint64 h = 0xcbf29ce484222325ull ^ ((guint64) (guint32) self->raw_pid << 16) ^
              ((guint64) self->raw_kernel->len << 8) ^ self->raw_user->len;

  for (guint i = 0; i < self->raw_kernel->len; i++)
    h = (h ^ g_array_index (self->raw_kernel, guint64, i)) * 0x100000001b3ull;
  for (guint i = 0; i < self->raw_user->len; i++)
    h = (h ^ g_array_index (self->raw_user, guint64, i)) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

/* Whether the slot holds exactly the raw addresses gathered (spaces, addresses, pid). */
static gboolean
raw_equals (SeismoTraceBuilder *self,
            const RawSlot      *slot)
{
  guint nk = self->raw_kernel->len, nu = self->raw_user->len;

  return slot->stack != 0 && slot->nk == nk && slot->nu == nu &&
         (nu == 0 || slot->pid == self->raw_pid) &&
         (nk == 0 || memcmp (slot->addrs, self->raw_kernel->data, nk * sizeof (guint64)) == 0) &&
         (nu == 0 || memcmp (slot->addrs + nk, self->raw_user->data, nu * sizeof (guint64)) == 0);
}

static void
raw_store (SeismoTraceBuilder *self,
           RawSlot            *slot,
           guint64             hash,
           SeismoStackId       stack)
{
  guint nk = self->raw_kernel->len, nu = self->raw_user->len;

  slot->hash = hash;
  slot->stack = stack;
  slot->pid = self->raw_pid;
  slot->nk = nk;
  slot->nu = nu;
  slot->addrs = g_renew (guint64, slot->addrs, MAX (nk + nu, 1));
  /* An empty GArray's data may be NULL, which memcpy may not be given even for 0 bytes. */
  if (nk > 0)
    memcpy (slot->addrs, self->raw_kernel->data, nk * sizeof (guint64));
  if (nu > 0)
    memcpy (slot->addrs + nk, self->raw_user->data, nu * sizeof (guint64));
}

static void
ensure_column (SeismoTraceBuilder *self)
{
  if (self->stack_of || self->capacity == 0)
    return;
  self->stack_of = g_new0 (SeismoStackId, self->capacity);
}

void
_seismo_trace_builder_free_stacks (SeismoTraceBuilder *self)
{
  g_clear_pointer (&self->stacks, _seismo_stack_table_free);
  g_clear_pointer (&self->stack_of, g_free);
  g_clear_pointer (&self->cur_kernel, g_array_unref);
  g_clear_pointer (&self->cur_user, g_array_unref);
  g_clear_pointer (&self->raw_kernel, g_array_unref);
  g_clear_pointer (&self->raw_user, g_array_unref);
  if (self->raw_cache != NULL)
    for (guint k = 0; k < (1u << RAW_CACHE_BITS); k++)
      g_free (self->raw_cache[k].addrs);
  g_clear_pointer (&self->raw_cache, g_free);
}

gboolean
seismo_trace_builder_has_stacks (SeismoTraceBuilder *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->stacks != NULL;
}

void
seismo_trace_builder_set_stack_addrs (SeismoTraceBuilder *self,
                                      SeismoFrameSpace    space,
                                      gint32              pid,
                                      const guint64      *ips,
                                      guint               n_ips)
{
  GArray *out;

  g_return_if_fail (self != NULL);
  g_return_if_fail (self->in_event);
  g_return_if_fail (ips != NULL || n_ips == 0);

  ensure_stacks (self);
  /* Raw addresses wait, to be found as a whole stack at the end of the event; a second pid (not
   * expected) or frames given already interned make them interned now. */
  if (self->cur_kernel->len > 0 || self->cur_user->len > 0 ||
      (space == SEISMO_FRAME_USER && self->raw_user->len > 0 && pid != self->raw_pid))
    intern_raw (self);
  if (space == SEISMO_FRAME_USER)
    self->raw_pid = pid;
  out = space == SEISMO_FRAME_USER ? self->raw_user : self->raw_kernel;
  for (guint i = 0; i < n_ips; i++)
    {
      /* ftrace ends user stacks with ULONG_MAX; unwinders pad with zeros. */
      if (ips[i] == G_MAXUINT64)
        break;
      if (ips[i] == 0)
        continue;
      g_array_append_val (out, ips[i]);
    }
  /* Already interned frames of the event stay before these: keep the order by interning. */
  if (self->cur_kernel->len > 0 || self->cur_user->len > 0)
    intern_raw (self);
}

void
seismo_trace_builder_set_stack_frames (SeismoTraceBuilder *self,
                                       const SeismoFrame  *frames,
                                       guint               n_frames)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->in_event);
  g_return_if_fail (frames != NULL || n_frames == 0);

  ensure_stacks (self);
  intern_raw (self);
  for (guint i = 0; i < n_frames; i++)
    {
      SeismoFrameId id = _seismo_stack_table_add_frame (self->stacks, &frames[i]);

      g_array_append_val (frames[i].space == SEISMO_FRAME_USER ? self->cur_user : self->cur_kernel,
                          id);
    }
}

void
_seismo_trace_builder_end_stack (SeismoTraceBuilder *self)
{
  gsize i = self->n_events;

  if (self->stacks == NULL)
    return;
  /* Only raw addresses: a stack seen before is found whole. */
  if (self->cur_kernel->len == 0 && self->cur_user->len == 0 &&
      (self->raw_kernel->len > 0 || self->raw_user->len > 0))
    {
      guint64 h = raw_hash (self);
      RawSlot *slot = &self->raw_cache[h >> (64 - RAW_CACHE_BITS)];

      ensure_column (self);
      if (slot->hash != h || !raw_equals (self, slot))
        {
          SeismoStackId stack;

          /* Kept for the slot: intern_raw empties them. */
          g_autoptr(GArray) keep_k = g_array_copy (self->raw_kernel);
          g_autoptr(GArray) keep_u = g_array_copy (self->raw_user);

          intern_raw (self);
          g_array_append_vals (self->cur_kernel, self->cur_user->data, self->cur_user->len);
          stack = _seismo_stack_table_add_stack (self->stacks,
                                                 (const SeismoFrameId *) (gpointer) self->cur_kernel->data,
                                                 self->cur_kernel->len);
          g_array_set_size (self->cur_kernel, 0);
          g_array_set_size (self->cur_user, 0);
          g_array_append_vals (self->raw_kernel, keep_k->data, keep_k->len);
          g_array_append_vals (self->raw_user, keep_u->data, keep_u->len);
          raw_store (self, slot, h, stack);
          g_array_set_size (self->raw_kernel, 0);
          g_array_set_size (self->raw_user, 0);
        }
      else
        {
          g_array_set_size (self->raw_kernel, 0);
          g_array_set_size (self->raw_user, 0);
        }
      self->stack_of[i] = slot->stack;
      return;
    }
  intern_raw (self);
  if (self->cur_kernel->len == 0 && self->cur_user->len == 0)
    return;
  ensure_column (self);
  /* Kernel frames are innermost: the user part goes after them. */
  g_array_append_vals (self->cur_kernel, self->cur_user->data, self->cur_user->len);
  self->stack_of[i] = _seismo_stack_table_add_stack (self->stacks,
                                                     (const SeismoFrameId *) (gpointer) self->cur_kernel->data,
                                                     self->cur_kernel->len);
  g_array_set_size (self->cur_kernel, 0);
  g_array_set_size (self->cur_user, 0);
}

gboolean
seismo_trace_builder_attach_stack (SeismoTraceBuilder *self,
                                   gsize               event,
                                   const SeismoFrame  *frames,
                                   guint               n_frames)
{
  gsize first = (gsize) self->released_blocks << SEISMO_BLOCK_SHIFT;
  g_autoptr(GArray) ids = NULL;
  const SeismoFrameId *old;
  guint n_old;
  gsize i;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (frames != NULL || n_frames == 0, FALSE);

  if (event < first || event - first >= self->n_events)
    return FALSE;
  if (n_frames == 0)
    return TRUE;
  i = event - first;
  ensure_stacks (self);
  ensure_column (self);
  ids = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
  /* A kernel part goes before (inside) what the event has, a user part after. */
  if (frames[0].space == SEISMO_FRAME_KERNEL)
    for (guint k = 0; k < n_frames; k++)
      {
        SeismoFrameId id = _seismo_stack_table_add_frame (self->stacks, &frames[k]);

        g_array_append_val (ids, id);
      }
  /* add_frame may grow stack_frames: read the old stack again after. */
  n_old = _seismo_stack_table_stack (self->stacks, self->stack_of[i], &old);
  g_array_append_vals (ids, old, n_old);
  if (frames[0].space != SEISMO_FRAME_KERNEL)
    for (guint k = 0; k < n_frames; k++)
      {
        SeismoFrameId id = _seismo_stack_table_add_frame (self->stacks, &frames[k]);

        g_array_append_val (ids, id);
      }
  self->stack_of[i] = _seismo_stack_table_add_stack (self->stacks,
                                                     (const SeismoFrameId *) (gpointer) ids->data,
                                                     ids->len);
  return TRUE;
}

void
seismo_trace_builder_add_mapping (SeismoTraceBuilder *self,
                                  gint32              pid,
                                  guint64             start,
                                  guint64             end,
                                  guint64             file_offset,
                                  const char         *path,
                                  const guint8       *build_id,
                                  guint               build_id_len,
                                  guint64             time_ns)
{
  SeismoMapping m = { pid, start, end, file_offset, path, build_id, build_id_len, time_ns };

  g_return_if_fail (self != NULL);
  g_return_if_fail (start <= end);

  ensure_stacks (self);
  _seismo_stack_table_add_mapping (self->stacks, &m);
}

void
seismo_trace_builder_set_kallsyms (SeismoTraceBuilder *self,
                                   const char         *text,
                                   gsize               len)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (text != NULL || len == 0);

  ensure_stacks (self);
  _seismo_stack_table_set_ksyms (self->stacks, _seismo_kallsyms_parse (self->stacks, text, len));
}

void
_seismo_trace_builder_stacks_to_trace (SeismoTraceBuilder *self,
                                       SeismoTrace        *trace,
                                       gboolean            steal)
{
  gsize n = trace->n_events;

  if (self->stacks == NULL)
    return;
  if (steal)
    {
      trace->stacks = g_steal_pointer (&self->stacks);
      trace->stack_of = self->stack_of ? g_renew (guint32, g_steal_pointer (&self->stack_of), MAX (n, 1))
                                       : g_new0 (guint32, MAX (n, 1));
    }
  else
    {
      trace->stacks = _seismo_stack_table_copy (self->stacks);
      trace->stack_of = g_new0 (guint32, MAX (n, 1));
      if (self->stack_of && n)
        memcpy (trace->stack_of, self->stack_of, n * sizeof (guint32));
    }
  _seismo_stack_table_resolve_kernel (trace->stacks);
  _seismo_stack_table_trim (trace->stacks);
}

/* ---- Trace ---- */

gboolean
seismo_trace_has_stacks (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  return self->stacks != NULL && self->stack_of != NULL;
}

SeismoStackId
seismo_trace_event_stack (SeismoTrace   *self,
                          SeismoEventId  event)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), SEISMO_NO_STACK);
  if (self->stack_of == NULL || event >= self->n_events)
    return SEISMO_NO_STACK;
  return self->stack_of[event];
}

const SeismoStackId *
seismo_trace_get_stack_ids (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  return self->stack_of;
}

guint
seismo_trace_get_n_stacks (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->stacks ? self->stacks->stack_off->len - 1 : 0;
}

guint
seismo_trace_get_n_frames (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  return self->stacks ? self->stacks->frames->len : 0;
}

guint
seismo_trace_stack_frames (SeismoTrace          *self,
                           SeismoStackId         stack,
                           const SeismoFrameId **frames)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  g_return_val_if_fail (frames != NULL, 0);
  if (self->stacks == NULL)
    {
      *frames = NULL;
      return 0;
    }
  return _seismo_stack_table_stack (self->stacks, stack, frames);
}

const SeismoFrame *
seismo_trace_get_frame (SeismoTrace   *self,
                        SeismoFrameId  frame)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  if (self->stacks == NULL || frame >= self->stacks->frames->len)
    return NULL;
  return &g_array_index (self->stacks->frames, SeismoFrame, frame);
}

char *
seismo_frame_display_name (const SeismoFrame *frame)
{
  g_return_val_if_fail (frame != NULL, NULL);
  if (frame->function)
    return g_strdup (frame->function);
  if (frame->module)
    {
      g_autofree char *base = g_path_get_basename (frame->module);

      return g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, frame->address);
    }
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", frame->address);
}

char *
seismo_frame_to_string (const SeismoFrame *frame)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (frame != NULL, NULL);
  if (frame->function)
    {
      g_string_append (s, frame->function);
      if (frame->offset)
        g_string_append_printf (s, "+0x%x", frame->offset);
    }
  else
    g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x", frame->address);
  if (frame->inlined)
    g_string_append (s, " (inlined)");
  if (frame->file)
    g_string_append_printf (s, " at %s:%u", frame->file, frame->line);
  if (frame->module && frame->module[0] == '[')
    g_string_append_printf (s, " %s", frame->module);
  else if (frame->module)
    g_string_append_printf (s, " [%s]", frame->module);
  return g_string_free (s, FALSE);
}

static gboolean
same_name (const SeismoFrame *a,
           const SeismoFrame *b)
{
  if (a->function || b->function)
    return g_strcmp0 (a->function, b->function) == 0;
  return a->address == b->address && g_strcmp0 (a->module, b->module) == 0;
}

gboolean
seismo_trace_stack_contains (SeismoTrace   *self,
                             SeismoStackId  stack,
                             SeismoFrameId  frame)
{
  const SeismoFrameId *ids;
  const SeismoFrame *f;
  guint n;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  f = seismo_trace_get_frame (self, frame);
  if (f == NULL)
    return FALSE;
  n = seismo_trace_stack_frames (self, stack, &ids);
  for (guint i = 0; i < n; i++)
    if (ids[i] == frame || same_name (seismo_trace_get_frame (self, ids[i]), f))
      return TRUE;
  return FALSE;
}

const SeismoMapping *
seismo_trace_get_mappings (SeismoTrace *self,
                           guint       *n_mappings)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (n_mappings != NULL, NULL);
  if (self->stacks == NULL)
    {
      *n_mappings = 0;
      return NULL;
    }
  *n_mappings = self->stacks->mappings->len;
  return (const SeismoMapping *) (gpointer) self->stacks->mappings->data;
}

const SeismoMapping *
seismo_trace_find_mapping (SeismoTrace *self,
                           gint32       pid,
                           guint64      address)
{
  guint n;
  const SeismoMapping *m = seismo_trace_get_mappings (self, &n);

  /* The latest one wins: an exec or a new mmap replaces what was there. */
  for (guint i = n; i-- > 0;)
    if (m[i].pid == pid && address >= m[i].start && address < m[i].end)
      return &m[i];
  return NULL;
}

const SeismoKernelSymbol *
seismo_trace_get_kernel_symbols (SeismoTrace *self,
                                 guint       *n_symbols)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (n_symbols != NULL, NULL);
  if (self->stacks == NULL)
    {
      *n_symbols = 0;
      return NULL;
    }
  *n_symbols = self->stacks->ksyms->len;
  return (const SeismoKernelSymbol *) (gpointer) self->stacks->ksyms->data;
}

guint
seismo_trace_resolve_kernel_frames (SeismoTrace *self)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  if (self->stacks == NULL)
    return 0;
  return _seismo_stack_table_resolve_kernel (self->stacks);
}

guint
seismo_trace_resolve_user_frames (SeismoTrace           *self,
                                  SeismoFrameResolveFunc resolve,
                                  gpointer               user_data)
{
  SeismoStackTable *t;
  guint n_frames, n_resolved = 0;
  /* Frames an inline chain expands to: frame id → (offset, count) into extra. */
  g_autofree guint32 *expand_off = NULL;
  g_autofree guint32 *expand_n = NULL;
  g_autoptr(GArray) extra = NULL;
  gboolean any_expanded = FALSE;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  g_return_val_if_fail (resolve != NULL, 0);

  t = self->stacks;
  if (t == NULL)
    return 0;
  n_frames = t->frames->len;
  expand_off = g_new0 (guint32, MAX (n_frames, 1));
  expand_n = g_new0 (guint32, MAX (n_frames, 1));
  extra = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));

  for (guint i = 0; i < n_frames; i++)
    {
      SeismoFrame copy = g_array_index (t->frames, SeismoFrame, i);
      SeismoFrame out[SEISMO_MAX_INLINE_FRAMES];
      guint n;

      if (copy.space != SEISMO_FRAME_USER || copy.function != NULL)
        continue;
      memset (out, 0, sizeof out);
      n = resolve (&copy, seismo_trace_find_mapping (self, copy.pid, copy.address), out,
                   SEISMO_MAX_INLINE_FRAMES, user_data);
      if (n == 0)
        continue;
      n = MIN (n, SEISMO_MAX_INLINE_FRAMES);
      n_resolved++;
      for (guint k = 0; k < n; k++)
        {
          out[k].space = SEISMO_FRAME_USER;
          out[k].pid = copy.pid;
          if (out[k].address == 0)
            out[k].address = copy.address;
        }
      /* The outermost (real) function replaces the frame in place. */
      {
        SeismoFrame *f = &g_array_index (t->frames, SeismoFrame, i);

        f->function = _seismo_stack_table_intern (t, out[n - 1].function, NULL);
        f->module = _seismo_stack_table_intern (t, out[n - 1].module ? out[n - 1].module
                                                                     : copy.module, NULL);
        f->file = _seismo_stack_table_intern (t, out[n - 1].file, NULL);
        f->line = out[n - 1].line;
        f->offset = out[n - 1].offset;
        f->inlined = FALSE;
      }
      if (n > 1)
        {
          expand_off[i] = extra->len;
          expand_n[i] = n - 1;
          /* Once, not per frame (rebuilding it each time was quadratic: minutes for 50k frames).
           * Keys of frames renamed in place later go stale, but only inline frames are looked up
           * here, and no unnamed frame's key can equal one. */
          if (!any_expanded)
            g_clear_pointer (&t->frame_ids, g_hash_table_unref);
          any_expanded = TRUE;
          for (guint k = 0; k + 1 < n; k++)
            {
              SeismoFrameId id;

              out[k].inlined = TRUE;
              id = _seismo_stack_table_add_frame (t, &out[k]);
              g_array_append_val (extra, id);
            }
        }
    }
  g_clear_pointer (&t->frame_ids, g_hash_table_unref);
  g_clear_pointer (&t->addr_cache, g_free);

  /* Inline chains lengthen stacks: intern every stack again and renumber the events. */
  if (any_expanded && self->stack_of)
    {
      GArray *old_frames = t->stack_frames;
      GArray *old_off = t->stack_off;
      guint n_stacks = old_off->len - 1;
      g_autofree SeismoStackId *remap = g_new0 (SeismoStackId, MAX (n_stacks, 1));
      g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
      guint32 zero = 0;

      t->stack_frames = g_array_new (FALSE, FALSE, sizeof (SeismoFrameId));
      t->stack_off = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_array_append_val (t->stack_off, zero);
      g_array_append_val (t->stack_off, zero);
      _seismo_stack_table_trim (t);
      for (guint s = 1; s < n_stacks; s++)
        {
          guint32 a = g_array_index (old_off, guint32, s), b = g_array_index (old_off, guint32, s + 1);

          g_array_set_size (ids, 0);
          for (guint32 k = a; k < b; k++)
            {
              SeismoFrameId f = g_array_index (old_frames, SeismoFrameId, k);

              if (f < n_frames && expand_n[f])
                g_array_append_vals (ids, &g_array_index (extra, SeismoFrameId, expand_off[f]),
                                     expand_n[f]);
              g_array_append_val (ids, f);
            }
          remap[s] = _seismo_stack_table_add_stack (t, (const SeismoFrameId *) (gpointer) ids->data,
                                                    ids->len);
        }
      g_array_unref (old_frames);
      g_array_unref (old_off);
      for (gsize e = 0; e < self->n_events; e++)
        if (self->stack_of[e] < n_stacks)
          self->stack_of[e] = remap[self->stack_of[e]];
      _seismo_stack_table_trim (t);
    }
  return n_resolved;
}

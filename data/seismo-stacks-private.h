/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The interned stack tables, shared by the builder (which fills them) and the trace (which owns
 * them once finished), and read and written by the .seismo format.
 */

#include "seismo-stacks.h"

G_BEGIN_DECLS

typedef struct _SeismoStackTable SeismoStackTable;

struct _SeismoStackTable
{
  /* Strings of frames, mappings and kernel symbols: interned, each its own allocation so
   * SeismoFrame pointers stay valid while the pool grows. Index 0 is NULL ("unknown"). */
  GPtrArray     *strings;        /* char* */
  GHashTable    *string_ids;     /* char* (borrowed from strings) → index */

  GArray        *frames;         /* SeismoFrame; index = frame id */
  GHashTable    *frame_ids;      /* FrameKey* → frame id + 1; NULL until needed */

  GArray        *stack_frames;   /* SeismoFrameId, the frames of all stacks back to back */
  GArray        *stack_off;      /* guint32, n_stacks + 1; stack 0 is empty */
  guint32       *slots;          /* open addressing: stack ids by hash, 0 = empty */
  guint          n_slots;        /* a power of two, or 0 when not built */

  GArray        *mappings;       /* SeismoMapping (path and build_id pooled) */
  GArray        *ksyms;          /* SeismoKernelSymbol, sorted by address */
  GPtrArray     *blobs;          /* guint8*: the mappings' build-ids */

  /* Raw addresses repeat (the same call sites, event after event): frames by (space, pid,
   * address), direct-mapped, in front of frame_ids. NULL until needed. */
  struct _SeismoAddrSlot *addr_cache;
};

/* The frame of a raw address (no symbol yet), interned. */
SeismoFrameId     _seismo_stack_table_add_address  (SeismoStackTable        *self,
                                                    SeismoFrameSpace         space,
                                                    gint32                   pid,
                                                    guint64                  address);

SeismoStackTable *_seismo_stack_table_new          (void);
void              _seismo_stack_table_free         (SeismoStackTable        *self);
SeismoStackTable *_seismo_stack_table_copy         (SeismoStackTable        *self);
gsize             _seismo_stack_table_memory_size  (SeismoStackTable        *self);
/* The pooled copy of str (NULL for NULL or ""), and its index (0 for NULL). */
const char       *_seismo_stack_table_intern       (SeismoStackTable        *self,
                                                    const char              *str,
                                                    guint32                 *index);
guint32           _seismo_stack_table_string_index (SeismoStackTable        *self,
                                                    const char              *pooled);
SeismoFrameId     _seismo_stack_table_add_frame    (SeismoStackTable        *self,
                                                    const SeismoFrame       *frame);
SeismoStackId     _seismo_stack_table_add_stack    (SeismoStackTable        *self,
                                                    const SeismoFrameId     *frames,
                                                    guint                    n_frames);
guint             _seismo_stack_table_stack        (SeismoStackTable        *self,
                                                    SeismoStackId            stack,
                                                    const SeismoFrameId    **frames);
void              _seismo_stack_table_add_mapping  (SeismoStackTable        *self,
                                                    const SeismoMapping     *mapping);
/* Takes symbols (addresses and pooled names); sorts them. */
void              _seismo_stack_table_set_ksyms    (SeismoStackTable        *self,
                                                    GArray                  *ksyms);
guint             _seismo_stack_table_resolve_kernel (SeismoStackTable      *self);
/* Drops the dedup indexes (frames, stacks): a finished trace rebuilds them only if it interns. */
void              _seismo_stack_table_trim         (SeismoStackTable        *self);

/* Parses kallsyms text into a SeismoKernelSymbol array of pooled strings (text symbols only). */
GArray           *_seismo_kallsyms_parse           (SeismoStackTable        *self,
                                                    const char              *text,
                                                    gsize                    len);

G_END_DECLS

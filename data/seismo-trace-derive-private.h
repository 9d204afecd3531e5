/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the derivation's passes share (seismo-trace-derive.c, seismo-trace-derive-syscalls.c):
 * payload fields read by role without building values, and the syscall pass. */

#include "seismo-trace-private.h"
#include "seismo-varint.h"

G_BEGIN_DECLS

#define NO_SLOT G_MAXUINT32

/* seismo_varint_get() with the one- and two-byte cases (syscall numbers, most pids and string ids)
 * taken first: this runs for nearly every event of a big trace. */
static inline const guint8 *
varint_get (const guint8 *p,
            const guint8 *end,
            guint64      *v)
{
  if (G_LIKELY (end - p >= 2))
    {
      if (p[0] < 0x80)
        {
          *v = p[0];
          return p + 1;
        }
      if (p[1] < 0x80)
        {
          *v = (p[0] & 0x7fu) | ((guint64) p[1] << 7);
          return p + 2;
        }
    }
  return seismo_varint_get (p, end, v);
}

/* Steps over one field of the given type, leaving its leading varint in *v; NULL when cut. */
static inline const guint8 *
skip_field (SeismoFieldType  type,
            const guint8    *p,
            const guint8    *end,
            guint64         *v)
{
  if (!(p = varint_get (p, end, v)))
    return NULL;
  switch (type)
    {
    case SEISMO_FIELD_INT:
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
    case SEISMO_FIELD_STRING:
      return p;
    case SEISMO_FIELD_BYTES:
      return *v > (guint64) (end - p) ? NULL : p + *v;
    case SEISMO_FIELD_UINT_ARRAY:
      {
        guint64 elem;

        if (*v > (guint64) (end - p))
          return NULL;
        for (guint64 k = 0; k < *v && p != NULL; k++)
          p = seismo_varint_get (p, end, &elem);
        return p;
      }
    case SEISMO_FIELD_N_TYPES:
    default:
      return NULL;
    }
}

/* The fields of up to three roles as integers, in one walk over an event's payload [p, end)
 * (SEISMO_ROLE_N for none). A field that is missing, cut or not an integer reads as fallback, as
 * with seismo_trace_event_field(). The summary builder reads its packed payloads with it too. */
static inline void
payload_role_ints3 (const SeismoEventType *type,
                    const guint8          *p,
                    const guint8          *end,
                    SeismoFieldRole        role_a,
                    gint64                *a,
                    SeismoFieldRole        role_b,
                    gint64                *b,
                    SeismoFieldRole        role_c,
                    gint64                *c,
                    gint64                 fallback)
{
  gint fa = type->roles[role_a];
  gint fb = role_b < SEISMO_ROLE_N ? type->roles[role_b] : -1;
  gint fc = role_c < SEISMO_ROLE_N ? type->roles[role_c] : -1;
  gint last = MIN (MAX (MAX (fa, fb), fc), (gint) type->n_fields - 1);

  *a = fallback;
  if (b != NULL)
    *b = fallback;
  if (c != NULL)
    *c = fallback;
  for (gint i = 0; i <= last; i++)
    {
      SeismoFieldType ft = type->fields[i].type;
      guint64 v;
      gint64 value;

      if (!(p = skip_field (ft, p, end, &v)))
        return;
      if (i != fa && i != fb && i != fc)
        continue;
      if (ft == SEISMO_FIELD_INT)
        value = seismo_zigzag_decode (v);
      else if (ft == SEISMO_FIELD_UINT || ft == SEISMO_FIELD_POINTER)
        value = (gint64) v;
      else
        continue;
      if (i == fa)
        *a = value;
      if (i == fb)
        *b = value;
      if (i == fc)
        *c = value;
    }
}

/* The same for event ev of a trace. */
static inline void
role_ints3 (SeismoTrace           *trace,
            SeismoEventId          ev,
            const SeismoEventType *type,
            SeismoFieldRole        role_a,
            gint64                *a,
            SeismoFieldRole        role_b,
            gint64                *b,
            SeismoFieldRole        role_c,
            gint64                *c,
            gint64                 fallback)
{
  const guint8 *p;
  gsize len;

  p = _seismo_trace_payload (trace, ev, &len);
  payload_role_ints3 (type, p, p + len, role_a, a, role_b, b, role_c, c, fallback);
}

static inline void
role_ints (SeismoTrace           *trace,
           SeismoEventId          ev,
           const SeismoEventType *type,
           SeismoFieldRole        role_a,
           gint64                *a,
           SeismoFieldRole        role_b,
           gint64                *b,
           gint64                 fallback)
{
  role_ints3 (trace, ev, type, role_a, a, role_b, b, SEISMO_ROLE_N, NULL, fallback);
}

static inline gint64
role_int (SeismoTrace           *trace,
          SeismoEventId          ev,
          const SeismoEventType *type,
          SeismoFieldRole        role,
          gint64                 fallback)
{
  gint64 v;

  role_ints (trace, ev, type, role, &v, SEISMO_ROLE_N, NULL, fallback);
  return v;
}

/* role_int (…, SEISMO_ROLE_ID, -1) for a syscall event: raw_syscalls have the number first, read
 * without the general walk (half of a big trace's events come here). */
static inline gint64
syscall_nr (SeismoTrace           *trace,
            SeismoEventId          ev,
            const SeismoEventType *type)
{
  if (type->roles[SEISMO_ROLE_ID] == 0 && type->n_fields > 0)
    {
      SeismoFieldType ft = type->fields[0].type;
      const guint8 *p;
      gsize len;
      guint64 v;

      if (ft != SEISMO_FIELD_INT && ft != SEISMO_FIELD_UINT && ft != SEISMO_FIELD_POINTER)
        return -1;
      p = _seismo_trace_payload (trace, ev, &len);
      if (skip_field (ft, p, p + len, &v) == NULL)
        return -1;
      return ft == SEISMO_FIELD_INT ? seismo_zigzag_decode (v) : (gint64) v;
    }
  return role_int (trace, ev, type, SEISMO_ROLE_ID, -1);
}

/* The syscall pass (seismo-trace-derive-syscalls.c): enters paired with exits per task, in ranges
 * of events paired at once. new() sizes it; with more than one range, count_range() for each
 * range before any run_range(); then run_range() for each, in any order and on any thread;
 * finish() joins the ranges, names the syscalls into the trace's table, frees the pass and
 * returns the spans (in enter order), their number and which failed (a bit each, as
 * seismo_trace_get_failed_spans() gives them). */
typedef struct _SeismoSyscallPass SeismoSyscallPass;

SeismoSyscallPass *_seismo_syscall_pass_new         (SeismoTrace       *trace,
                                                     const guint8      *kinds,
                                                     gsize              n_enters,
                                                     guint              n_ranges);
guint              _seismo_syscall_pass_n_ranges    (SeismoSyscallPass *self);
void               _seismo_syscall_pass_count_range (SeismoSyscallPass *self,
                                                     guint              range);
void               _seismo_syscall_pass_run_range   (SeismoSyscallPass *self,
                                                     guint              range);
SeismoSyscallSpan *_seismo_syscall_pass_finish      (SeismoSyscallPass *self,
                                                     gsize             *n_spans,
                                                     guint64          **failed);

G_END_DECLS

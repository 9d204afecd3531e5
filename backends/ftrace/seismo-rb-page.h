/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * Walks one ftrace ring-buffer page (a "sub-buffer"): the page header (timestamp, commit word with
 * the missed-events flags), then event headers with their time deltas, time extends, absolute
 * time stamps and padding, as the kernel writes them (kernel/trace/ring_buffer.c) and
 * libtraceevent's kbuffer reads them. Inline: this is the innermost loop of every reader.
 */

#define SEISMO_RB_MISSED_EVENTS  (1u << 31)
#define SEISMO_RB_MISSED_STORED  (1u << 30)
#define SEISMO_RB_COMMIT_MASK    ((1u << 27) - 1)
#define SEISMO_RB_TYPE_PADDING     29
#define SEISMO_RB_TYPE_TIME_EXTEND 30
#define SEISMO_RB_TYPE_TIME_STAMP  31
#define SEISMO_RB_TS_SHIFT         27
#define SEISMO_RB_TS_MSB           (G_GUINT64_CONSTANT (0xf8) << 56)

/* The page layout: from the header_page format, and the byte order of the data. */
typedef struct {
  gboolean big_endian;
  gboolean swap;          /* data byte order differs from ours */
  guint    commit_size;   /* 4 or 8: the kernel's long */
  guint    data_offset;   /* where events start, after the header */
} SeismoRbLayout;

/*
 * Reads the layout from an events/header_page format text (commit size, data offset) for data in
 * the given byte order. FALSE when the text lacks the fields.
 */
gboolean seismo_rb_layout_parse (SeismoRbLayout *layout,
                                 const char     *header_page,
                                 gsize           len,
                                 gboolean        big_endian);

typedef struct {
  const SeismoRbLayout *layout;
  const guint8         *p;
  const guint8         *end;
  guint64               ts;
} SeismoRbPage;

static inline guint32
seismo_rb_read32 (const SeismoRbLayout *l,
                  const guint8         *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return l->swap ? GUINT32_SWAP_LE_BE (v) : v;
}

static inline guint64
seismo_rb_read_long (const SeismoRbLayout *l,
                     const guint8         *p)
{
  if (l->commit_size == 8)
    {
      guint64 v;

      memcpy (&v, p, 8);
      return l->swap ? GUINT64_SWAP_LE_BE (v) : v;
    }
  return seismo_rb_read32 (l, p);
}

/*
 * Starts walking the page at page (avail bytes readable). *missed is the count of events the
 * kernel dropped before this page (0: none, G_MAXUINT64: some, count unknown). Returns NULL, or
 * what is wrong with the page.
 */
static inline const char *
seismo_rb_page_load (SeismoRbPage         *self,
                     const SeismoRbLayout *layout,
                     const guint8         *page,
                     gsize                 avail,
                     guint64              *missed)
{
  guint64 commit, ts;
  gsize size;

  self->layout = layout;
  if (avail < layout->data_offset)
    return "page shorter than its header";
  memcpy (&ts, page, 8);
  self->ts = layout->swap ? GUINT64_SWAP_LE_BE (ts) : ts;
  commit = seismo_rb_read_long (layout, page + 8);
  size = commit & SEISMO_RB_COMMIT_MASK;
  if (size > avail - layout->data_offset)
    return "page claims more event bytes than it holds";
  self->p = page + layout->data_offset;
  self->end = self->p + size;

  *missed = 0;
  if (commit & SEISMO_RB_MISSED_EVENTS)
    {
      *missed = G_MAXUINT64;
      if ((commit & SEISMO_RB_MISSED_STORED) &&
          size + layout->commit_size <= avail - layout->data_offset)
        {
          guint64 n = seismo_rb_read_long (layout, self->end);

          if (n != 0)
            *missed = n;
        }
    }
  return NULL;
}

/*
 * The page's next event: *data / *size / *ts (raw clock). Returns 1 for an event, 0 at the end of
 * the page, -1 when the page is damaged (*why says how).
 */
static inline int
seismo_rb_page_next (SeismoRbPage  *self,
                     const guint8 **data,
                     guint         *size,
                     guint64       *ts,
                     const char   **why)
{
  const SeismoRbLayout *l = self->layout;

  while (self->p < self->end)
    {
      const guint8 *p = self->p;
      const guint8 *d, *next;
      guint32 h, type_len, delta, a0;

      if (self->end - p < 4)
        {
          *why = "event header cut at the page end";
          return -1;
        }
      h = seismo_rb_read32 (l, p);
      if (l->big_endian)
        {
          type_len = h >> 27;
          delta = h & ((1u << 27) - 1);
        }
      else
        {
          type_len = h & 0x1f;
          delta = h >> 5;
        }

      if (type_len >= SEISMO_RB_TYPE_PADDING || type_len == 0)
        {
          if (type_len == SEISMO_RB_TYPE_PADDING && delta == 0)
            {
              /* The rest of the page is unused. */
              self->p = self->end;
              break;
            }
          if (self->end - p < 8)
            {
              *why = "event header cut at the page end";
              return -1;
            }
          a0 = seismo_rb_read32 (l, p + 4);
          switch (type_len)
            {
            case SEISMO_RB_TYPE_PADDING:
              /* A discarded event: like kbuffer, keep its delta, later deltas build on it. */
              self->ts += delta;
              self->p = a0 > (gsize) (self->end - p) - 4 ? self->end : p + 4 + a0;
              continue;

            case SEISMO_RB_TYPE_TIME_EXTEND:
              self->ts += ((guint64) a0 << SEISMO_RB_TS_SHIFT) + delta;
              self->p = p + 8;
              continue;

            case SEISMO_RB_TYPE_TIME_STAMP:
              self->ts = ((((guint64) a0) << SEISMO_RB_TS_SHIFT) | delta) |
                         (self->ts & SEISMO_RB_TS_MSB);
              self->p = p + 8;
              continue;

            default:   /* 0: the length is in the next word */
              if (a0 < 4)
                {
                  *why = "event length smaller than its header";
                  return -1;
                }
              d = p + 8;
              next = d + ((a0 - 4 + 3) & ~3u);
              break;
            }
        }
      else
        {
          d = p + 4;
          next = d + type_len * 4;
        }

      if (next > self->end)
        {
          *why = "event runs past the page end";
          return -1;
        }
      self->ts += delta;
      self->p = next;
      *data = d;
      *size = next - d;
      *ts = self->ts;
      return 1;
    }
  return 0;
}

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "seismo-filter-marks-private.h"
#include "seismo-work-priority.h"

/* 16 matches a block: a mark scans at most 16 matches, and a row costs at most one 2-byte entry
 * per block it has a match in (consecutive matches mostly share their CPU and task, so a row
 * holding a run of matches costs about 2 bytes per 16 of them, against 4 bytes each as a copy). */
#define DEFAULT_BLOCK_BITS 4
/* A time directory over the matches' span, one slot per 16 matches: a search for a time starts
 * from its slot, the events between a few matches when they are spread evenly. */
#define MATCHES_PER_SLOT   16
/* Block numbers are kept as their low 16 bits, in pages of 65 536 blocks per row. */
#define PAGE_BITS          16

struct _SeismoFilterMarks
{
  /* owned */
  SeismoTrace        *trace;
  SeismoMatchSet     *matches;
  gsize              *page_off;   /* per row (CPUs, then tasks) and page: its first entry; + end */
  guint16            *blocks;     /* per row and page: the blocks holding a match of the row */
  /* per time slot: the event of the first match at or after its start; + n_events */
  guint32            *time_dir;

  /* borrowed from the two above */
  const guint64      *ts;
  const guint16      *cpus;
  const SeismoTaskId *tasks;

  gsize               n;          /* matches */
  gsize               n_events;   /* of the set: no match at or after it */
  gsize               n_pages;
  guint64             t_first;    /* the first match's time */
  guint64             slot_ns;    /* a time slot's width */
  gsize               n_time_slots;
  guint               n_cpus;
  guint               n_tasks;
  guint               block_bits;
};

void
_seismo_filter_marks_free (SeismoFilterMarks *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->trace);
  g_clear_pointer (&self->matches, seismo_match_set_unref);
  g_free (self->page_off);
  g_free (self->blocks);
  g_free (self->time_dir);
  g_free (self);
}

gboolean
_seismo_filter_marks_equal (const SeismoFilterMarks *a,
                            const SeismoFilterMarks *b)
{
  gsize n_row_pages = (gsize) (a->n_cpus + a->n_tasks) * a->n_pages;

  return a->n == b->n && a->n_pages == b->n_pages && a->n_cpus == b->n_cpus
         && a->n_tasks == b->n_tasks && a->block_bits == b->block_bits
         && a->n_time_slots == b->n_time_slots && a->slot_ns == b->slot_ns && a->t_first == b->t_first
         && memcmp (a->page_off, b->page_off, sizeof (gsize) * (n_row_pages + 1)) == 0
         && memcmp (a->blocks, b->blocks, sizeof (guint16) * a->page_off[n_row_pages]) == 0
         && memcmp (a->time_dir, b->time_dir, sizeof (guint32) * (a->n_time_slots + 1)) == 0;
}

gsize
_seismo_filter_marks_get_size (const SeismoFilterMarks *self)
{
  gsize n_row_pages = (gsize) (self->n_cpus + self->n_tasks) * self->n_pages;

  return sizeof *self + sizeof (gsize) * (n_row_pages + 1)
         + sizeof (guint16) * MAX (self->page_off[n_row_pages], 1)
         + sizeof (guint32) * (self->n_time_slots + 1);
}

/* Past this many matches the pass runs in parts, one per core: a filter keeping half of 10M
 * events took 53 ms on one. */
gsize _seismo_filter_marks_parallel_min = 1 << 20;
guint _seismo_filter_marks_n_parts = 0;
#define MAX_PARTS 8

/* One part of the pass: the matches at positions [first, end), whole blocks of them, so that a
 * row's blocks in a part all come after those of the parts before it. */
typedef struct {
  SeismoFilterMarks *self;
  SeismoMatchSet    *matches;
  GCancellable      *cancellable;
  gsize              first, end;
  gsize             *page_counts;  /* per row and page: the entries the part adds */
  gsize             *last;         /* per row: the last block the part gave it */
  GArray           **lists;        /* per row: its blocks' low 16 bits, NULL for none */
  gboolean           cancelled;
} Part;

/* A row's block is new when it differs from the last one seen for that row (matches ascend, so
 * blocks do too); it goes to the row's list and counts in its page. Each time slot whose start
 * the part's matches reach gets the first of them at or after it. */
static gpointer
build_part (gpointer data)
{
  Part *part = data;
  SeismoFilterMarks *self = part->self;
  gsize n_rows = (gsize) self->n_cpus + self->n_tasks;
  gsize next_slot = 0;
  guint64 next_slot_ns = 0;
  SeismoMatchSetIter iter;

  seismo_work_priority_enter ();

  /* The slots the parts before reached are theirs: up to the time of the match before this part. */
  if (part->first > 0)
    {
      SeismoEventId before = seismo_match_set_get_nth (part->matches, part->first - 1);

      next_slot = (gsize) ((self->ts[before] - self->t_first) / self->slot_ns) + 1;
      next_slot_ns = (guint64) next_slot * self->slot_ns;
    }
  memset (part->last, 0xff, sizeof (gsize) * MAX (n_rows, 1));
  seismo_match_set_iter_init (&iter, part->matches, part->first);
  for (gsize i = part->first; i < part->end; i++)
    {
      gsize block = i >> self->block_bits;
      SeismoEventId id;
      gsize rows[2];

      if (!seismo_match_set_iter_next (&iter, &id))
        g_assert_not_reached ();
      rows[0] = self->cpus[id];
      rows[1] = (gsize) self->n_cpus + self->tasks[id];
      if ((i & 0x3fff) == 0)
        seismo_work_priority_pause_point ();
      if ((i & 0xfffff) == 0 && g_cancellable_is_cancelled (part->cancellable))
        {
          part->cancelled = TRUE;
          break;
        }
      while (self->ts[id] - self->t_first >= next_slot_ns)
        {
          self->time_dir[next_slot++] = id;
          next_slot_ns += self->slot_ns;
        }
      if (self->cpus[id] >= self->n_cpus)
        rows[0] = G_MAXSIZE;
      if (self->tasks[id] >= self->n_tasks)
        rows[1] = G_MAXSIZE;
      for (guint k = 0; k < 2; k++)
        {
          guint16 low = (guint16) (block & ((1 << PAGE_BITS) - 1));

          if (rows[k] == G_MAXSIZE || part->last[rows[k]] == block)
            continue;
          part->last[rows[k]] = block;
          part->page_counts[rows[k] * self->n_pages + (block >> PAGE_BITS)]++;
          if (part->lists[rows[k]] == NULL)
            part->lists[rows[k]] = g_array_new (FALSE, FALSE, sizeof (guint16));
          g_array_append_val (part->lists[rows[k]], low);
        }
    }
  return NULL;
}

/* One pass over the matches, in parts on several threads for many matches; the parts' lists are
 * then laid end to end, per row. */
SeismoFilterMarks *
_seismo_filter_marks_build (SeismoTrace  *trace,
                            SeismoMatchSet *matches,
                            guint         block_bits,
                            GCancellable *cancellable)
{
  SeismoFilterMarks *self = g_new0 (SeismoFilterMarks, 1);
  Part parts[MAX_PARTS];
  GThread *threads[MAX_PARTS] = { NULL };
  gsize n_blocks, n_rows, n_row_pages, per_part;
  guint n_parts = 1;
  gboolean cancelled = FALSE;

  g_assert (block_bits < 32);
  g_assert (seismo_match_set_get_n_events (matches) <= seismo_trace_get_n_events (trace));
  self->trace = g_object_ref (trace);
  self->matches = seismo_match_set_ref (matches);
  self->n = seismo_match_set_get_size (matches);
  self->n_events = seismo_match_set_get_n_events (matches);
  self->ts = seismo_trace_get_times (trace);
  self->cpus = seismo_trace_get_cpus (trace);
  self->tasks = seismo_trace_get_tasks (trace);
  self->n_cpus = seismo_trace_get_n_cpus (trace);
  self->n_tasks = seismo_trace_get_n_tasks (trace);
  self->block_bits = block_bits != 0 ? block_bits : DEFAULT_BLOCK_BITS;
  n_blocks = self->n == 0 ? 0 : ((self->n - 1) >> self->block_bits) + 1;
  self->n_pages = MAX ((n_blocks + (1 << PAGE_BITS) - 1) >> PAGE_BITS, 1);
  n_rows = (gsize) self->n_cpus + self->n_tasks;
  n_row_pages = n_rows * self->n_pages;
  self->page_off = g_new0 (gsize, n_row_pages + 1);
  /* Event ids are below G_MAXUINT32 (seismo-trace-builder.c), so are counts of matches. */
  g_assert (self->n < G_MAXUINT32);
  self->n_time_slots = MAX (self->n / MATCHES_PER_SLOT, 1);
  self->time_dir = g_new (guint32, self->n_time_slots + 1);
  if (self->n > 0)
    {
      self->t_first = self->ts[seismo_match_set_get_nth (matches, 0)];
      /* slot_ns * n_time_slots > the span: every match falls in a slot. */
      self->slot_ns = (self->ts[seismo_match_set_get_nth (matches, self->n - 1)] - self->t_first)
                      / self->n_time_slots + 1;
    }

  if (self->n >= _seismo_filter_marks_parallel_min)
    n_parts = CLAMP (_seismo_filter_marks_n_parts != 0 ? _seismo_filter_marks_n_parts
                                                       : g_get_num_processors (), 1, MAX_PARTS);
  /* At least a block a part. */
  n_parts = (guint) MAX (MIN ((gsize) n_parts, self->n >> self->block_bits), 1);
  /* Parts of whole blocks: a row's last block in one part is never its first in the next. */
  per_part = ((self->n / n_parts) >> self->block_bits) << self->block_bits;
  for (guint k = 0; k < n_parts; k++)
    parts[k] = (Part) {
      .self = self, .matches = matches, .cancellable = cancellable,
      .first = k * per_part, .end = k + 1 == n_parts ? self->n : (k + 1) * per_part,
      .page_counts = g_new0 (gsize, MAX (n_row_pages, 1)),
      .last = g_new (gsize, MAX (n_rows, 1)),
      .lists = g_new0 (GArray *, MAX (n_rows, 1)),
    };
  /* A thread that cannot start only costs time: its part runs here after the first. */
  for (guint k = 1; k < n_parts; k++)
    threads[k] = g_thread_try_new ("seismo-marks", build_part, &parts[k], NULL);
  build_part (&parts[0]);
  for (guint k = 1; k < n_parts; k++)
    if (threads[k] != NULL)
      g_thread_join (threads[k]);
    else
      build_part (&parts[k]);

  /* The time slots past the last match's time have none. */
  if (self->n == 0)
    self->time_dir[0] = (guint32) self->n_events;
  for (gsize s = self->n == 0 ? 1 : (gsize) ((self->ts[seismo_match_set_get_nth (matches, self->n - 1)]
                                                 - self->t_first) / self->slot_ns) + 1;
       s <= self->n_time_slots; s++)
    self->time_dir[s] = (guint32) self->n_events;

  for (guint k = 0; k < n_parts; k++)
    {
      cancelled |= parts[k].cancelled;
      for (gsize s = 0; s < n_row_pages; s++)
        self->page_off[s + 1] += parts[k].page_counts[s];
    }
  for (gsize s = 0; s < n_row_pages; s++)
    self->page_off[s + 1] += self->page_off[s];
  self->blocks = g_new (guint16, MAX (self->page_off[n_row_pages], 1));
  for (gsize row = 0; row < n_rows; row++)
    {
      guint16 *out = self->blocks + self->page_off[row * self->n_pages];

      for (guint k = 0; k < n_parts; k++)
        if (parts[k].lists[row] != NULL)
          {
            memcpy (out, parts[k].lists[row]->data, parts[k].lists[row]->len * sizeof (guint16));
            out += parts[k].lists[row]->len;
            g_array_unref (parts[k].lists[row]);
          }
    }
  for (guint k = 0; k < n_parts; k++)
    {
      g_free (parts[k].page_counts);
      g_free (parts[k].last);
      g_free (parts[k].lists);
    }
#ifdef __GLIBC__
  /* The parts' lists were freed in their threads' own malloc arenas, which keep that memory for
   * those threads: given back, the window's peak after a filter or two stays 4-7 MiB lower
   * (about 1 ms). */
  if (n_parts > 1)
    malloc_trim (0);
#endif
  if (cancelled)
    {
      _seismo_filter_marks_free (self);
      return NULL;
    }
  return self;
}

/* The first event of [lo, hi) with a time >= t (hi when none): events are in time order. */
static gsize
lower_bound (const SeismoFilterMarks *self,
             gsize                    lo,
             gsize                    hi,
             guint64                  t)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->ts[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Where a row's search is in its list of blocks: the marks of a row ask for ever later blocks,
 * so each search goes on from the last one's answer. */
typedef struct {
  gboolean           is_task;
  guint              row;
  gsize              first_slot;  /* the row's first page */
  gsize              page;        /* the page of entry */
  gsize              entry;       /* in blocks: no block of the row before it is asked for again */
  gboolean           walking;     /* iter is a walk over the matches in use */
  SeismoMatchSetIter iter;        /* the last walk: a search that goes on where it stopped takes
                                   * it up, without looking up its start again */
} Cursor;

/* The first match with a time >= t, knowing it is not before from (n when none): the first event
 * at or after t among the events of the time slot of t, then the first match at or after that
 * event (the set's rank). The matches of the slot lie between its first match's event and the
 * next slot's; any match before it is earlier than the slot, and the events are in time order.
 * The cursor's walk starts there: the row's search goes on from it. */
static gsize
find_time (const SeismoFilterMarks *self,
           Cursor                  *c,
           gsize                    from,
           guint64                  t)
{
  gsize k, e;

  if (t <= self->t_first)
    return MIN (from, self->n);
  k = (t - self->t_first) / self->slot_ns;
  if (k >= self->n_time_slots)
    return self->n;
  e = lower_bound (self, self->time_dir[k], self->time_dir[k + 1], t);
  seismo_match_set_iter_init_at_event (&c->iter, self->matches, (SeismoEventId) e);
  c->walking = TRUE;
  return MIN (MAX (from, c->iter.position), self->n);
}

/* The first block >= block holding a match of the cursor's row, or G_MAXSIZE. */
static gsize
next_block (const SeismoFilterMarks *self,
            Cursor                  *c,
            gsize                    block)
{
  gsize page = block >> PAGE_BITS;
  guint16 low = (guint16) (block & ((1 << PAGE_BITS) - 1));

  /* A row's searches go forward: from after the last match found, or its block's next. */
  g_assert (page >= c->page);
  if (page > c->page)
    {
      c->page = page;
      c->entry = MAX (c->entry, self->page_off[c->first_slot + page]);
    }
  for (; c->page < self->n_pages; c->page++, low = 0)
    {
      gsize end = self->page_off[c->first_slot + c->page + 1];
      gsize lo = c->entry, hi = lo, step = 1;

      /* Doubling steps from the last answer, then a binary search in the last step. */
      while (hi < end && self->blocks[hi] < low)
        {
          lo = hi + 1;
          hi += step;
          step *= 2;
        }
      hi = MIN (hi, end);
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;

          if (self->blocks[mid] < low)
            lo = mid + 1;
          else
            hi = mid;
        }
      c->entry = lo;
      if (lo < end)
        return (c->page << PAGE_BITS) | self->blocks[lo];
    }
  return G_MAXSIZE;
}

/* The first match of the cursor's row at index from or later, or G_MAXSIZE; its event in *event.
 * Exact: every block holding a match of the row is listed, so only blocks without one are
 * skipped. */
static gsize
row_next (const SeismoFilterMarks *self,
          Cursor                  *c,
          gsize                    from,
          SeismoEventId           *event)
{
  gsize block = from >> self->block_bits;

  while ((block = next_block (self, c, block)) != G_MAXSIZE)
    {
      gsize start = MAX (from, block << self->block_bits);
      gsize end = MIN ((block + 1) << self->block_bits, self->n);

      /* Forward from the last walk (a search from where it is), else from the start. */
      if (c->walking && c->iter.position <= start)
        seismo_match_set_iter_skip_to (&c->iter, start);
      else
        {
          seismo_match_set_iter_init (&c->iter, self->matches, start);
          c->walking = TRUE;
        }
      for (gsize i = start; i < end; i++)
        {
          SeismoEventId id;

          if (!seismo_match_set_iter_next (&c->iter, &id))
            g_assert_not_reached ();
          if (c->is_task ? self->tasks[id] == c->row : self->cpus[id] == c->row)
            {
              *event = id;
              return i;
            }
        }
      block++;
    }
  return G_MAXSIZE;
}

/* A mark at each column where a match of the row lies, skipping the next column (a mark is 2 px
 * wide): from a time, the row's first match at or after it is the mark, and the next search
 * starts at the time of the column after next. The index only finds that first match, exactly
 * (no time is rounded to a block or a bucket), so the marks are the very ones the former search
 * in a copy of the row's matches gave, at every zoom (tests/app/test-filter-marks.c checks them
 * against such a search). The next search also starts after the mark's own match: below 1 ns a
 * pixel the column after next can round down to that match's time (where the former search
 * found the same match again, for ever). */
void
_seismo_filter_marks_row (const SeismoFilterMarks *self,
                          SeismoTimelineRenderer  *r,
                          gboolean                 is_task,
                          guint                    row,
                          double                   x0,
                          double                   x1,
                          GArray                  *xs)
{
  Cursor c = { is_task, row, 0, 0, 0, FALSE, { 0 } };
  SeismoEventId id = SEISMO_NO_EVENT;
  gsize i;

  g_assert (g_array_get_element_size (xs) == sizeof (double));
  if (self->n == 0 || row >= (is_task ? self->n_tasks : self->n_cpus))
    return;
  c.first_slot = ((is_task ? self->n_cpus : 0) + (gsize) row) * self->n_pages;
  c.entry = self->page_off[c.first_slot];
  i = find_time (self, &c, 0, (guint64) MAX (seismo_timeline_renderer_x_to_ns (r, x0), 0));
  i = row_next (self, &c, i, &id);
  while (i != G_MAXSIZE)
    {
      gsize mark = i;
      guint64 t = self->ts[id];
      double x = seismo_timeline_renderer_ns_to_x (r, t);
      double left = floor (x);
      guint64 next;

      if (x >= x1)
        break;
      g_array_append_val (xs, left);
      next = MAX ((guint64) MAX (seismo_timeline_renderer_x_to_ns (r, left + 2), 0), t + 1);
      /* Zoomed in, the row's next match is often past the next column already: no search. */
      i = row_next (self, &c, i + 1, &id);
      if (i != G_MAXSIZE && self->ts[id] < next)
        i = row_next (self, &c, find_time (self, &c, i + 1, next), &id);
      g_assert (i == G_MAXSIZE || i > mark);
    }
}

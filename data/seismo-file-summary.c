/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-file"

#include <math.h>
#include <gio/gio.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <glib/gstdio.h>

#include "seismo-file-cursor-private.h"
#include "seismo-big-array.h"
#include "seismo-error.h"
#include "seismo-file-private.h"
#include "seismo-file-summary-private.h"
#include "seismo-summary-private.h"
#include "seismo-trace-private.h"
#include "seismo-varint.h"

/*
 * Reading the SUMMARY record back (the writer's side is seismo-summary-builder.c). Nothing in it is
 * trusted: every count is checked against the bytes left before anything is sized by it, and every
 * id against the tables, so a damaged or hostile summary is an error naming the file and offset.
 */


/* A count of entries of at least min_bytes each: never more than the bytes left allow. */
static inline gboolean
cur_count (Cursor  *c,
           guint    min_bytes,
           guint64 *v)
{
  return cur_varint (c, v) && *v <= (guint64) (c->end - c->p) / MAX (min_bytes, 1);
}

static gboolean
bad (SeismoFileSummary *self,
     Cursor            *c,
     guint64            record_offset,
     GError           **error,
     const char        *what)
{
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
               "%s: at byte %" G_GUINT64_FORMAT ": summary record: %s (at byte %" G_GSIZE_FORMAT
               " of its data)", self->display, record_offset, what,
               c != NULL ? (gsize) (c->p - c->start) : 0);
  return FALSE;
}

static void
level_free (gpointer p)
{
  Level *l = p;

  g_free (l->start);
  g_free (l->cells);
  g_free (l);
}

SeismoFileSummary *
seismo_file_summary_ref (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
seismo_file_summary_free (SeismoFileSummary *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_mutex_clear (&self->window_lock);
  g_free (self->path);
  g_free (self->display);
  g_clear_object (&self->tables);
  g_clear_object (&self->window);
  g_clear_pointer (&self->chunks, g_array_unref);
  g_free (self->type_counts);
  g_free (self->chunk_type_off);
  g_free (self->chunk_type_id);
  g_free (self->chunk_type_count);
  g_free (self->cpus);
  g_free (self->tasks);
  for (guint s = 0; self->syscalls != NULL && s < self->info.n_syscalls; s++)
    {
      g_free (self->syscalls[s].name);
      g_free (self->syscalls[s].hist);
    }
  g_free (self->syscalls);
  g_clear_pointer (&self->chunk_syscalls, g_bytes_unref);
  g_free (self->chunk_sc_off);
  g_clear_pointer (&self->levels, g_ptr_array_unref);
  g_free (self->tb_start);
  g_free (self->task_off);
  g_free (self->task_entries);
  g_free (self);
}

/* Per chunk: type counts, CPU counts, top tasks, syscalls. Only the type counts are kept (range
 * statistics); the rest is checked and skipped. */
static gboolean
parse_chunks (SeismoFileSummary *self,
              Cursor            *c,
              guint64            off,
              GError           **error)
{
  guint n = self->info.n_chunks;
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  GArray *counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  gboolean ok = TRUE;

  self->chunk_type_off = g_new0 (guint32, n + 1);
  for (guint k = 0; ok && k < n; k++)
    {
      guint64 n_types, n_cpus, n_top, v, sum = 0;
      guint64 chunk_events = g_array_index (self->chunks, SeismoIndexEntry, k).n_events;

      if (!cur_count (c, 2, &n_types))
        ok = bad (self, c, off, error, "chunk type counts cut");
      for (guint64 t = 0; ok && t < n_types; t++)
        {
          guint32 id, count;

          if (!cur_u32 (c, &id) || !cur_u32 (c, &count) || id >= self->info.n_types)
            ok = bad (self, c, off, error, "bad chunk type count");
          else
            {
              guint16 id16 = (guint16) id;

              g_array_append_val (ids, id16);
              g_array_append_val (counts, count);
              sum += count;
            }
        }
      if (ok && sum != chunk_events)
        ok = bad (self, c, off, error, "chunk type counts do not add up to the chunk's events");
      if (ok && !cur_count (c, 1, &n_cpus))
        ok = bad (self, c, off, error, "chunk CPU counts cut");
      for (guint64 i = 0; ok && i < n_cpus; i++)
        if (!cur_varint (c, &v))
          ok = bad (self, c, off, error, "chunk CPU counts cut");
      if (ok && (!cur_count (c, 2, &n_top) || n_top > SEISMO_SUMMARY_TOP_TASKS))
        ok = bad (self, c, off, error, "bad chunk task list");
      for (guint64 i = 0; ok && i < 2 * n_top; i++)
        if (!cur_varint (c, &v) || ((i & 1) == 0 && v >= self->info.n_tasks))
          ok = bad (self, c, off, error, "bad chunk task list");
      if (ok && !cur_varint (c, &v))
        ok = bad (self, c, off, error, "chunk syscall count cut");
      self->chunk_type_off[k + 1] = ids->len;
    }
  self->chunk_type_id = (guint16 *) (gpointer) g_array_free (ids, FALSE);
  self->chunk_type_count = (guint32 *) (gpointer) g_array_free (counts, FALSE);
  return ok;
}

/* One chunk's entry of the CHUNK_SYSCALLS record. */
typedef struct {
  guint64 index, calls, errors, total_ns, max_ns;
} ChunkSyscallEntry;

static inline gboolean
cur_chunk_syscall (Cursor            *c,
                   guint64            prev,
                   gboolean           first,
                   ChunkSyscallEntry *e)
{
  guint64 delta;

  if (!cur_varint (c, &delta) || (!first && delta == 0) || delta > G_MAXUINT32)
    return FALSE;
  e->index = prev + delta;
  return cur_varint (c, &e->calls) && cur_varint (c, &e->errors) && cur_varint (c, &e->total_ns) &&
         cur_varint (c, &e->max_ns);
}

/* Checks the CHUNK_SYSCALLS record against the summary (every index known, ascending, and the
 * chunks' totals adding up to the whole trace's) and keeps it with the chunks' offsets. It is an
 * extra: when it does not fit, it is left out (the syscalls of a range are then not known) and the
 * summary stands. */
static void
parse_chunk_syscalls (SeismoFileSummary *self,
                      SeismoFilePart    *part)
{
  const SeismoChunkSyscallsInfo *in = &part->chunk_syscalls_info;
  guint n = self->info.n_chunks, n_sc = self->info.n_syscalls;
  g_autofree guint32 *off = NULL;
  g_autofree guint64 *sums = NULL;
  const char *why = NULL;
  Cursor c;
  gsize len;

  if (part->chunk_syscalls == NULL)
    return;
  c.start = c.p = g_bytes_get_data (part->chunk_syscalls, &len);
  c.end = c.p + len;
  if (in->n_chunks != n || in->n_syscalls != n_sc || len > G_MAXUINT32)
    why = "its counts disagree with the summary's";
  off = g_new0 (guint32, n + 1);
  sums = g_new0 (guint64, 3 * (gsize) MAX (n_sc, 1));
  for (guint k = 0; why == NULL && k < n; k++)
    {
      guint64 n_entries, prev = 0;

      if (!cur_count (&c, 5, &n_entries) || n_entries > n_sc)
        why = "bad chunk entry count";
      for (guint64 i = 0; why == NULL && i < n_entries; i++)
        {
          ChunkSyscallEntry e;

          if (!cur_chunk_syscall (&c, prev, i == 0, &e) || e.index >= n_sc || e.calls == 0 ||
              e.errors > e.calls || e.max_ns > e.total_ns)
            why = "bad chunk entry";
          else
            {
              sums[3 * e.index] += e.calls;
              sums[3 * e.index + 1] += e.errors;
              sums[3 * e.index + 2] += e.total_ns;
              prev = e.index;
            }
        }
      off[k + 1] = (guint32) (c.p - c.start);
    }
  if (why == NULL && c.p != c.end)
    why = "trailing bytes";
  for (guint s = 0; why == NULL && s < n_sc; s++)
    if (sums[3 * s] != self->syscalls[s].calls || sums[3 * s + 1] != self->syscalls[s].errors ||
        sums[3 * s + 2] != self->syscalls[s].total_ns)
      why = "its totals do not add up to the summary's";
  if (why != NULL)
    {
      g_debug ("%s: at byte %" G_GUINT64_FORMAT ": chunk syscalls record: %s (at byte %" G_GSIZE_FORMAT
               " of its data); the syscalls of a range will not be known", self->display,
               part->chunk_syscalls_offset, why, (gsize) (c.p - c.start));
      return;
    }
  self->chunk_syscalls = g_bytes_ref (part->chunk_syscalls);
  self->chunk_sc_off = g_steal_pointer (&off);
}

static gboolean
parse_totals (SeismoFileSummary *self,
              Cursor            *c,
              guint64            off,
              GError           **error)
{
  SeismoSummaryInfo *in = &self->info;
  guint64 v;

  if ((guint64) in->n_types > (guint64) (c->end - c->p) ||
      (guint64) in->n_cpus * 3 > (guint64) (c->end - c->p) ||
      (guint64) in->n_tasks * 5 > (guint64) (c->end - c->p) ||
      (guint64) in->n_syscalls * 8 > (guint64) (c->end - c->p))
    return bad (self, c, off, error, "more entries than bytes");

  self->type_counts = g_new0 (guint64, MAX (in->n_types, 1));
  for (guint t = 0; t < in->n_types; t++)
    if (!cur_varint (c, &self->type_counts[t]))
      return bad (self, c, off, error, "type counts cut");

  self->cpus = g_new0 (SeismoCpuStats, MAX (self->n_cpus, 1));
  for (guint i = 0; i < in->n_cpus; i++)
    {
      SeismoCpuStats *st = &self->cpus[i];

      st->cpu = i;
      if (!cur_varint (c, &st->events) || !cur_varint (c, &st->switches) ||
          !cur_varint (c, &st->busy_ns))
        return bad (self, c, off, error, "CPU totals cut");
    }
  for (guint i = in->n_cpus; i < self->n_cpus; i++)
    self->cpus[i].cpu = i;

  self->tasks = g_new0 (SeismoTaskStats, MAX (in->n_tasks, 1));
  for (guint t = 0; t < in->n_tasks; t++)
    {
      SeismoTaskStats *st = &self->tasks[t];

      st->task = t;
      if (!cur_varint (c, &st->events) || !cur_varint (c, &st->cpu_ns) ||
          !cur_varint (c, &st->switches) || !cur_varint (c, &st->wakeups) ||
          !cur_varint (c, &st->syscalls))
        return bad (self, c, off, error, "task totals cut");
    }

  self->syscalls = g_new0 (Syscall, MAX (in->n_syscalls, 1));
  for (guint s = 0; s < in->n_syscalls; s++)
    {
      Syscall *sc = &self->syscalls[s];
      guint64 len, n_nonzero, at = 0;

      sc->hist = g_new0 (guint64, SEISMO_SUMMARY_HIST_BUCKETS);
      if (!cur_varint (c, &len) || len > (guint64) (c->end - c->p) || len == 0 || len > 256 ||
          memchr (c->p, 0, len) != NULL)
        return bad (self, c, off, error, "bad syscall name");
      sc->name = g_strndup ((const char *) c->p, len);
      c->p += len;
      if (!cur_varint (c, &sc->calls) || !cur_varint (c, &sc->errors) ||
          !cur_varint (c, &sc->unfinished) || !cur_varint (c, &sc->total_ns) ||
          !cur_varint (c, &sc->min_ns) || !cur_varint (c, &sc->max_ns) ||
          !cur_count (c, 2, &n_nonzero) || n_nonzero > SEISMO_SUMMARY_HIST_BUCKETS)
        return bad (self, c, off, error, "syscall totals cut");
      for (guint64 k = 0; k < n_nonzero; k++)
        {
          guint64 delta;

          if (!cur_varint (c, &delta) || (k > 0 && delta == 0) ||
              at + delta >= SEISMO_SUMMARY_HIST_BUCKETS)
            return bad (self, c, off, error, "bad syscall histogram");
          at += delta;
          if (!cur_varint (c, &sc->hist[at]))
            return bad (self, c, off, error, "syscall histogram cut");
        }
    }
  (void) v;
  return TRUE;
}

static gboolean
parse_buckets (SeismoFileSummary *self,
               Cursor            *c,
               guint64            off,
               GError           **error)
{
  guint n = self->info.n_buckets;
  guint n_cpus = self->n_cpus;
  Level *l0;
  guint64 t = self->info.start_ns;

  /* Each bucket takes at least 3 bytes. */
  if ((guint64) n * 3 > (guint64) (c->end - c->p))
    return bad (self, c, off, error, "more buckets than bytes");
  l0 = g_new0 (Level, 1);
  g_ptr_array_add (self->levels, l0);
  l0->n = n;
  l0->start = g_new (guint64, n + 1);
  l0->cells = _seismo_big_array_try_alloc ((gsize) n * MAX (n_cpus, 1), sizeof (Cell));
  if (l0->cells == NULL)
    return bad (self, c, off, error, "not enough memory for its buckets");
  memset (l0->cells, 0, (gsize) n * MAX (n_cpus, 1) * sizeof (Cell));
  for (guint b = 0; b < n; b++)
    {
      guint64 delta, events, n_cells;

      if (!cur_varint (c, &delta) || !cur_varint (c, &events) || !cur_varint (c, &n_cells) ||
          n_cells > n_cpus || t + delta < t || t + delta > self->info.end_ns)
        return bad (self, c, off, error, "bad time bucket");
      t += delta;
      l0->start[b] = t;
      for (guint64 k = 0; k < n_cells; k++)
        {
          Cell *cell = &l0->cells[(gsize) b * n_cpus + k];
          guint64 ev, busy, task;

          if (!cur_varint (c, &ev) || !cur_varint (c, &busy) || !cur_varint (c, &task) ||
              ev > G_MAXUINT32 || task > self->info.n_tasks)
            return bad (self, c, off, error, "bad time bucket cell");
          cell->events = (guint32) ev;
          cell->busy_ns = busy;
          cell->task = task > 0 ? (SeismoTaskId) (task - 1) : SEISMO_NO_TASK;
        }
    }
  l0->start[n] = self->info.end_ns + 1;

  /* Coarser levels, each bucket two of the level below, until one bucket is left. */
  while (((Level *) g_ptr_array_index (self->levels, self->levels->len - 1))->n > 1)
    {
      Level *below = g_ptr_array_index (self->levels, self->levels->len - 1);
      Level *up = g_new0 (Level, 1);

      up->n = (below->n + 1) / 2;
      up->start = g_new (guint64, up->n + 1);
      up->cells = g_new0 (Cell, (gsize) up->n * MAX (n_cpus, 1));
      for (guint b = 0; b < up->n; b++)
        {
          up->start[b] = below->start[2 * b];
          for (guint k = 0; k < n_cpus; k++)
            {
              Cell *dst = &up->cells[(gsize) b * n_cpus + k];
              const Cell *x = &below->cells[(gsize) 2 * b * n_cpus + k];
              const Cell *y = 2 * b + 1 < below->n ? x + n_cpus : NULL;

              *dst = *x;
              if (y != NULL)
                {
                  dst->events += y->events;
                  dst->busy_ns += y->busy_ns;
                  if (y->busy_ns > x->busy_ns)
                    dst->task = y->task;
                }
            }
        }
      up->start[up->n] = below->start[below->n];
      g_ptr_array_add (self->levels, up);
    }
  return TRUE;
}

/* Two passes over the task buckets: the first checks them and counts each task's entries, the
 * second writes every entry straight into its task's place (bucket order kept), so a row reads only
 * its own entries and no temporary copy of them is ever held. */
static gboolean
parse_task_buckets (SeismoFileSummary *self,
                    Cursor            *c,
                    guint64            off,
                    GError           **error)
{
  guint n = self->info.n_task_buckets;
  guint n_tasks = self->info.n_tasks;
  Cursor start = *c;
  guint64 t = self->info.start_ns, total = 0;
  g_autofree guint32 *fill = NULL;

  if ((guint64) n * 3 > (guint64) (c->end - c->p))
    return bad (self, c, off, error, "more task buckets than bytes");
  self->tb_start = g_new (guint64, n + 1);
  self->task_off = g_new0 (guint32, n_tasks + 1);
  for (guint pass = 0; pass < 2; pass++)
    {
      *c = start;
      t = self->info.start_ns;
      for (guint b = 0; b < n; b++)
        {
          guint64 delta, events, n_entries;
          guint64 task = 0;

          if (!cur_varint (c, &delta) || !cur_varint (c, &events) ||
              !cur_count (c, 3, &n_entries) || t + delta < t || t + delta > self->info.end_ns)
            return bad (self, c, off, error, "bad task bucket");
          t += delta;
          self->tb_start[b] = t;
          for (guint64 k = 0; k < n_entries; k++)
            {
              guint64 d, ev, busy;

              if (!cur_varint (c, &d) || !cur_varint (c, &ev) || !cur_varint (c, &busy) ||
                  (k > 0 && d == 0) || task + d >= n_tasks || ev > G_MAXUINT32)
                return bad (self, c, off, error, "bad task bucket entry");
              task += d;
              if (pass == 0)
                {
                  self->task_off[task + 1]++;
                  total++;
                }
              else
                self->task_entries[fill[task]++] = (TaskEntry) { b, (guint32) ev, busy };
            }
        }
      if (pass == 0)
        {
          if (total > G_MAXUINT32)
            return bad (self, c, off, error, "too many task bucket entries");
          for (guint k = 0; k < n_tasks; k++)
            self->task_off[k + 1] += self->task_off[k];
          self->task_entries = g_new (TaskEntry, MAX (total, 1));
          fill = g_memdup2 (self->task_off, (gsize) (n_tasks + 1) * sizeof (guint32));
        }
    }
  self->tb_start[n] = self->info.end_ns + 1;
  return TRUE;
}

/* Reads the trailer and the index info of a finished file; summary: its last record is SUMMARY. */
static gboolean
probe_index (const char      *path,
             SeismoIndexInfo *index_out,
             gboolean        *summary)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  SeismoFileTrailer t;
  SeismoRecordHeader h;
  SeismoIndexInfo info;
  SeismoIndexEntry e;
  guint8 head[SEISMO_FILE_MAGIC_LEN];
  GSeekable *seek;
  goffset size;
  GStatBuf st;

  /* Only a regular file has an index to seek to; opening a FIFO would wait for its writer. */
  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  file = g_file_new_for_path (path);
  if (!(in = g_file_read (file, NULL, NULL)))
    return FALSE;
  seek = G_SEEKABLE (in);
#define READ_AT(off, buf) \
  (g_seekable_seek (seek, (off), G_SEEK_SET, NULL, NULL) && \
   g_input_stream_read_all (G_INPUT_STREAM (in), (buf), sizeof *(buf), NULL, NULL, NULL))
  if (!g_seekable_seek (seek, 0, G_SEEK_END, NULL, NULL))
    return FALSE;
  size = g_seekable_tell (seek);
  if (size < (goffset) (sizeof (SeismoFileHeader) + sizeof t) || !READ_AT (0, &head) ||
      memcmp (head, SEISMO_FILE_MAGIC, SEISMO_FILE_MAGIC_LEN) != 0 ||
      !READ_AT (size - (goffset) sizeof t, &t) ||
      memcmp (t.magic, SEISMO_FILE_TRAILER_MAGIC, SEISMO_FILE_MAGIC_LEN) != 0)
    return FALSE;
  _seismo_trailer_swap (&t);
  if (t.index_offset + sizeof h + sizeof info > (guint64) size || !READ_AT (t.index_offset, &h) ||
      !READ_AT (t.index_offset + sizeof h, &info))
    return FALSE;
  _seismo_record_header_swap (&h);
  _seismo_index_info_swap (&info);
  if (h.kind != SEISMO_RECORD_INDEX || h.info_len != sizeof info || info.n_entries == 0 ||
      h.data_len != (guint64) info.n_entries * sizeof e ||
      !READ_AT (t.index_offset + sizeof h + sizeof info + (info.n_entries - 1) * sizeof e, &e))
    return FALSE;
#undef READ_AT
  _seismo_index_entry_swap (&e);
  *index_out = info;
  *summary = e.kind == SEISMO_RECORD_SUMMARY;
  return TRUE;
}

gboolean
seismo_file_summary_probe (const char *path,
                           guint64    *n_events)
{
  SeismoIndexInfo info;
  gboolean summary;

  g_return_val_if_fail (path != NULL, FALSE);
  if (!probe_index (path, &info, &summary) || !summary)
    return FALSE;
  if (n_events != NULL)
    *n_events = info.n_events;
  return TRUE;
}

SeismoTrace *
seismo_file_load_part (const char    *path,
                       guint64        max_events,
                       GCancellable  *cancellable,
                       GError       **error)
{
  SeismoIndexInfo info;
  gboolean summary;
  guint count, first;
  SeismoTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The index says how many chunks there are; a file without one is read whole. */
  if (!probe_index (path, &info, &summary))
    return _seismo_file_read_part (path, 0, G_MAXUINT, cancellable, NULL, error);
  count = (guint) MIN (MAX (max_events / SEISMO_BLOCK_EVENTS, 1), info.n_chunks);
  first = (info.n_chunks - count) / 2;
  trace = _seismo_file_read_part (path, first, count, cancellable, NULL, error);
  if (trace != NULL && count < info.n_chunks)
    {
      g_autofree char *warning = NULL;

      warning = g_strdup_printf ("This trace has %" G_GUINT64_FORMAT " events, more than memory "
                                 "holds: %" G_GSIZE_FORMAT " of them are shown, from event %"
                                 G_GUINT64_FORMAT " (its statistics cover the whole trace: "
                                 "seismo-cli stats)", info.n_events,
                                 seismo_trace_get_n_events (trace),
                                 (guint64) first * SEISMO_BLOCK_EVENTS);
      _seismo_trace_set_metadata (trace, SEISMO_META_LOAD_WARNING, warning);
    }
  return trace;
}

/* Bytes per event a loaded trace takes (docs/file-format.md, "Performance"), and the share of the
 * machine's memory a load may take before the summary is used instead. */
#define LOADED_BYTES_PER_EVENT 42
#define LOAD_MEMORY_SHARE      4

gboolean
seismo_file_summary_too_large (const char *path)
{
  guint64 n_events, limit;
  const char *env = g_getenv ("SEISMO_SUMMARY_MIN_EVENTS");

  g_return_val_if_fail (path != NULL, FALSE);
  if (!seismo_file_summary_probe (path, &n_events))
    return FALSE;
  if (env != NULL && *env != '\0')
    limit = g_ascii_strtoull (env, NULL, 10);
  else
    {
      long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);

      limit = pages > 0 && page > 0
              ? (guint64) pages * (guint64) page / LOAD_MEMORY_SHARE / LOADED_BYTES_PER_EVENT
              : G_MAXUINT64;
    }
  return n_events >= limit;
}

SeismoFileSummary *
seismo_file_summary_open (const char  *path,
                          GError     **error)
{
  g_autoptr(SeismoFileSummary) self = g_new0 (SeismoFileSummary, 1);
  SeismoFilePart part;

  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->window_lock);
  Cursor c;
  gsize len;
  guint64 off;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self->path = g_strdup (path);
  self->display = g_filename_display_name (path);
  self->levels = g_ptr_array_new_with_free_func (level_free);
  self->tables = _seismo_file_read_part (path, 0, 0, NULL, &part, error);
  if (self->tables == NULL)
    return NULL;
  self->chunks = g_steal_pointer (&part.chunks);
  if (part.summary == NULL)
    {
      _seismo_file_part_clear (&part);
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                   _("%s: the file has no summary (written by an older Seismo, unfinished, or "
                   "recorded out of time order): it can only be loaded whole"), self->display);
      return NULL;
    }
  self->info = part.summary_info;
  off = part.summary_offset;
  c.start = c.p = g_bytes_get_data (part.summary, &len);
  c.end = c.p + len;

  if (!part.indexed || self->info.n_chunks != self->chunks->len ||
      self->info.n_chunks != part.n_chunks || self->info.n_events != part.index.n_events ||
      self->info.start_ns > self->info.end_ns ||
      self->info.bucket_events != SEISMO_SUMMARY_BUCKET_EVENTS ||
      self->info.task_bucket_events != SEISMO_SUMMARY_TASK_BUCKET_EVENTS ||
      self->info.n_types != self->tables->event_types->len ||
      self->info.n_tasks > self->tables->n_tasks || self->info.n_cpus > G_MAXUINT16 + 1u ||
      self->info.n_buckets > self->info.n_events / SEISMO_SUMMARY_BUCKET_EVENTS + 1 ||
      self->info.n_task_buckets > self->info.n_events / SEISMO_SUMMARY_TASK_BUCKET_EVENTS + 1)
    {
      _seismo_file_part_clear (&part);
      bad (self, NULL, off, error, "its counts disagree with the file's index and tables");
      return NULL;
    }
  self->n_cpus = MAX (self->info.n_cpus, self->tables->n_cpus);
  self->tables->n_cpus = self->n_cpus;
  /* The tables stand for the whole trace, events or not: its clock, as every window's. */
  _seismo_trace_set_span (self->tables, self->info.start_ns, self->info.end_ns);

  if (!parse_chunks (self, &c, off, error) || !parse_totals (self, &c, off, error) ||
      !parse_buckets (self, &c, off, error) || !parse_task_buckets (self, &c, off, error))
    {
      _seismo_file_part_clear (&part);
      return NULL;
    }
  if (c.p != c.end)
    {
      bad (self, &c, off, error, "trailing bytes");
      _seismo_file_part_clear (&part);
      return NULL;
    }
  parse_chunk_syscalls (self, &part);
  _seismo_file_part_clear (&part);
  return g_steal_pointer (&self);
}

SeismoTrace *
seismo_file_summary_get_tables (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tables;
}

guint64
seismo_file_summary_get_n_events (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->info.n_events;
}

guint64
seismo_file_summary_get_start_ns (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->info.start_ns;
}

guint64
seismo_file_summary_get_end_ns (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->info.end_ns;
}

guint
seismo_file_summary_get_n_cpus (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_cpus;
}

guint
seismo_file_summary_get_n_chunks (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->info.n_chunks;
}

guint64
seismo_file_summary_get_n_syscalls (SeismoFileSummary *self)
{
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint s = 0; s < self->info.n_syscalls; s++)
    n += self->syscalls[s].calls + self->syscalls[s].unfinished;
  return n;
}

/* ---- statistics ---- */

static int
compare_type_stats (gconstpointer a,
                    gconstpointer b)
{
  const SeismoTypeStats *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->type_id < y->type_id ? -1 : x->type_id > y->type_id;
}

GArray *
seismo_file_summary_stats_by_type (SeismoFileSummary *self)
{
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SeismoTypeStats));

  g_return_val_if_fail (self != NULL, result);
  for (guint t = 0; t < self->info.n_types; t++)
    if (self->type_counts[t] != 0)
      {
        SeismoTypeStats st = { t, self->type_counts[t] };

        g_array_append_val (result, st);
      }
  g_array_sort (result, compare_type_stats);
  return result;
}

GArray *
seismo_file_summary_stats_by_cpu (SeismoFileSummary *self)
{
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SeismoCpuStats));

  g_return_val_if_fail (self != NULL, result);
  g_array_append_vals (result, self->cpus, self->n_cpus);
  return result;
}

static int
compare_task_stats (gconstpointer a,
                    gconstpointer b)
{
  const SeismoTaskStats *x = a, *y = b;

  if (x->cpu_ns != y->cpu_ns)
    return x->cpu_ns > y->cpu_ns ? -1 : 1;
  if (x->events != y->events)
    return x->events > y->events ? -1 : 1;
  return x->task < y->task ? -1 : x->task > y->task;
}

GArray *
seismo_file_summary_stats_by_task (SeismoFileSummary *self)
{
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SeismoTaskStats));

  g_return_val_if_fail (self != NULL, result);
  for (guint t = 0; t < self->info.n_tasks; t++)
    if (self->tasks[t].events || self->tasks[t].cpu_ns || self->tasks[t].wakeups)
      g_array_append_val (result, self->tasks[t]);
  g_array_sort (result, compare_task_stats);
  return result;
}

/* The nearest-rank percentile from the histogram: the middle of the bucket holding that rank,
 * kept within the exact minimum and maximum. */
static guint64
hist_percentile (const Syscall *sc,
                 double         q)
{
  guint64 rank = (guint64) ceil (q * (double) sc->calls), seen = 0;

  rank = CLAMP (rank, 1, sc->calls);
  for (guint b = 0; b < SEISMO_SUMMARY_HIST_BUCKETS; b++)
    {
      seen += sc->hist[b];
      if (seen >= rank)
        {
          guint64 lo = _seismo_summary_hist_lower (b);
          guint64 hi = b + 1 < SEISMO_SUMMARY_HIST_BUCKETS ? _seismo_summary_hist_lower (b + 1) : lo;
          guint64 mid = b < 16 ? lo : lo + (hi - lo) / 2;

          return CLAMP (mid, sc->min_ns, sc->max_ns);
        }
    }
  return sc->max_ns;
}

static int
compare_syscall_stats (gconstpointer a,
                       gconstpointer b)
{
  const SeismoSyscallStats *x = a, *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->calls != y->calls)
    return x->calls > y->calls ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

gboolean
seismo_file_summary_has_range_syscalls (SeismoFileSummary *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->chunk_syscalls != NULL;
}

GArray *
seismo_file_summary_range_stats_by_syscall (SeismoFileSummary *self,
                                            guint64            start_ns,
                                            guint64            end_ns)
{
  g_autofree SeismoSyscallStats *acc = NULL;
  GArray *result;
  guint first, count;
  const guint8 *data;
  Cursor c;

  g_return_val_if_fail (self != NULL, NULL);
  if (self->chunk_syscalls == NULL)
    return NULL;
  result = g_array_new (FALSE, TRUE, sizeof (SeismoSyscallStats));
  acc = g_new0 (SeismoSyscallStats, MAX (self->info.n_syscalls, 1));
  data = g_bytes_get_data (self->chunk_syscalls, NULL);
  seismo_file_summary_find_chunks (self, start_ns, end_ns, &first, &count);
  /* Checked at open: the entries decode. */
  c.start = data;
  c.p = data + self->chunk_sc_off[first];
  c.end = data + self->chunk_sc_off[first + count];
  for (guint k = first; k < first + count; k++)
    {
      guint64 n_entries, prev = 0;

      if (!cur_varint (&c, &n_entries))
        break;
      for (guint64 i = 0; i < n_entries; i++)
        {
          ChunkSyscallEntry e;
          SeismoSyscallStats *st;

          if (!cur_chunk_syscall (&c, prev, i == 0, &e))
            break;
          st = &acc[e.index];
          st->calls += e.calls;
          st->errors += e.errors;
          st->total_ns += e.total_ns;
          st->max_ns = MAX (st->max_ns, e.max_ns);
          prev = e.index;
        }
    }
  for (guint s = 0; s < self->info.n_syscalls; s++)
    if (acc[s].calls > 0)
      {
        acc[s].name = self->syscalls[s].name;
        acc[s].avg_ns = acc[s].total_ns / acc[s].calls;
        g_array_append_val (result, acc[s]);
      }
  g_array_sort (result, compare_syscall_stats);
  return result;
}

GArray *
seismo_file_summary_stats_by_syscall (SeismoFileSummary *self)
{
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SeismoSyscallStats));

  g_return_val_if_fail (self != NULL, result);
  for (guint s = 0; s < self->info.n_syscalls; s++)
    {
      const Syscall *sc = &self->syscalls[s];
      SeismoSyscallStats st = { 0 };

      if (sc->calls == 0 && sc->unfinished == 0)
        continue;
      st.name = sc->name;
      st.calls = sc->calls;
      st.errors = sc->errors;
      st.unfinished = sc->unfinished;
      st.total_ns = sc->total_ns;
      st.min_ns = sc->min_ns;
      st.max_ns = sc->max_ns;
      if (sc->calls > 0)
        {
          st.avg_ns = sc->total_ns / sc->calls;
          st.p50_ns = hist_percentile (sc, 0.50);
          st.p90_ns = hist_percentile (sc, 0.90);
          st.p99_ns = hist_percentile (sc, 0.99);
        }
      g_array_append_val (result, st);
    }
  g_array_sort (result, compare_syscall_stats);
  return result;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

#include <string.h>
#include <sys/mman.h>

#include "seismo-error.h"
#include "seismo-ftrace-text.h"
#include "seismo-ftrace-text-private.h"
#include "seismo-arch-detect.h"
#include "seismo-trace-builder.h"
#include "seismo-tracepoints.h"
#include "seismo-work-priority.h"

/*
 * One line of text per event. The layouts this reads (all optionally after a `buffer: ` prefix
 * that trace-cmd prints for instance buffers):
 *
 *   tracefs trace / trace_pipe     "    bash-1234    [001] d..2.  123.456789: sched_switch: …"
 *     without irq-info             "    bash-1234    [001]  123.456789: …"
 *     with record-tgid             "    bash-1234    (   1234) [001] d..2.  123.456789: …"
 *     latency-format               "    bash-1234     1d..2. 123456789us : …"
 *   trace-cmd report               "    bash-1234  [001]  123.456789: sched_switch: …"
 *     -t                           "    bash-1234  [001]  123.456789012: …"
 *     -l                           "bash-1234   1d..2.  123.456789: …"
 *
 * Lines are found from their timestamp: the first "<digits>[.<digits>][us][mark]:" preceded by a
 * space whose left side reads as "comm-pid [(tgid)] [cpu] [flags]" or "comm-pid cpuflags". Comms
 * may hold spaces, dashes and colons, so the left side is read from the right.
 */


guint8 ftt_cclass[256];
guint8 ftt_hexval[256];

void
ftt_init_cclass (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;

  for (int c = 0; c < 256; c++)
    {
      guint8 k = 0;

      if (c >= '0' && c <= '9')
        k |= C_DIGIT | C_HEX | C_IDENT | C_NAME | C_FLAG;
      if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
        k |= C_HEX;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        k |= C_IDENT | C_NAME;
      if (c == '.')
        k |= C_NAME | C_FLAG;
      if (c == ' ' || c == '\t')
        k |= C_SPACE;
      ftt_cclass[c] = k;
      ftt_hexval[c] = c >= '0' && c <= '9' ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 0xff;
    }
  /* Every letter the kernel and libtraceevent print in the flags column, plus hex depths. */
  for (const char *f = "dDXNnpBLbHhsZzacef+!"; *f; f++)
    ftt_cclass[(guint8) *f] |= C_FLAG;

  g_once_init_leave (&done, 1);
}

/* ---- tasks ---------------------------------------------------------------------------------- */

G_ALWAYS_INLINE static inline void
note_task (Parser         *self,
           const LineHead *head)
{
  TaskEntry *task;
  gsize len = MIN (head->comm_len, MAX_COMM - 1);

  if (self->last_task && self->last_tid == head->tid)
    task = self->last_task;
  else
    {
      task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (head->tid));
      if (task == NULL)
        {
          task = g_new0 (TaskEntry, 1);
          g_hash_table_insert (self->tasks, GINT_TO_POINTER (head->tid), task);
        }
      self->last_tid = head->tid;
      self->last_task = task;
    }

  /* "<...>": the kernel no longer knew the comm when it printed the line. */
  if (len > 0 && !(len == 5 && memcmp (head->comm, "<...>", 5) == 0) &&
      !(task->has_comm && task->comm_len == len && memcmp (task->comm, head->comm, len) == 0))
    {
      memcpy (task->comm, head->comm, len);
      task->comm[len] = '\0';
      task->comm_len = (guint8) len;
      task->has_comm = TRUE;
      seismo_trace_builder_set_task_comm (self->builder, head->tid, task->comm, head->ts);
    }
  if (head->tgid >= 0 && !task->has_pid)
    {
      task->has_pid = TRUE;
      seismo_trace_builder_set_task_pid (self->builder, head->tid, head->tgid);
    }
}

/* ---- lines that are not events -------------------------------------------------------------- */


static guint64
read_u64 (const char  *p,
          const char  *end,
          const char **after)
{
  guint64 v = 0;

  while (p < end && IS (*p, C_DIGIT))
    {
      v = v * 10 + (guint) (*p - '0');
      p++;
    }
  *after = p;
  return v;
}

/* Comments and headers: the tracefs "#" header, trace-cmd's "cpus=2" and "version = 6". */
static gboolean
parse_header_line (Parser     *self,
                   const char *p,
                   const char *end)
{
  const char *q;

  if (*p == '#')
    {
      self->saw_header = TRUE;
      if (ftt_starts_with (p, end, "# tracer: "))
        {
          q = p + 10;
          g_free (self->tracer);
          self->tracer = g_strndup (q, ftt_rtrim (q, end) - q);
        }
      else if (ftt_starts_with (p, end, "# entries-in-buffer/entries-written: ") ||
               ftt_starts_with (p, end, "# latency: "))
        {
          /* "entries-written: 12/20   #P:2" or "# latency: 0 us, #12/20, CPU#0 | (… #P:2)". */
          const char *pc;

          if (p[2] == 'e')
            q = p + 37;
          else
            {
              for (q = p + 11; q < end && *q != '#'; q++)
                ;
              if (q < end)
                q++;
            }
          if (q < end && IS (*q, C_DIGIT))
            {
              self->entries_in_buffer = read_u64 (q, end, &q);
              if (q < end && *q == '/')
                {
                  self->entries_written = read_u64 (q + 1, end, &q);
                  self->have_entries = TRUE;
                }
            }
          for (pc = q; pc + 3 < end; pc++)
            if (memcmp (pc, "#P:", 3) == 0)
              self->declared_cpus = (guint) read_u64 (pc + 3, end, &q);
        }
      return TRUE;
    }
  if (ftt_starts_with (p, end, "cpus="))
    {
      self->declared_cpus = (guint) read_u64 (p + 5, end, &q);
      self->saw_trace_cmd = TRUE;
      self->saw_header = TRUE;
      return q == end;
    }
  if (ftt_starts_with (p, end, "version = "))
    {
      self->saw_trace_cmd = TRUE;
      self->saw_header = TRUE;
      return TRUE;
    }
  if (ftt_starts_with (p, end, "CPU ") && ftt_has_suffix_len (p, end - p, " is empty"))
    return TRUE;
  return FALSE;
}

/*
 * Dropped events: "CPU:1 [LOST 42 EVENTS]" (tracefs), "CPU:1 [42 EVENTS DROPPED]" and
 * "CPU:1 [EVENTS DROPPED]" (trace-cmd, count unknown: recorded as 0).
 */
static gboolean
parse_lost_line (Parser     *self,
                 const char *p,
                 const char *end)
{
  const char *q;
  guint64 cpu, count = 0;

  p = ftt_skip_spaces (p, end);
  if (!ftt_starts_with (p, end, "CPU:"))
    {
      /* Possibly behind a buffer prefix. */
      const char *sp = p;

      while (sp < end && !IS (*sp, C_SPACE))
        sp++;
      if (sp == p || sp[-1] != ':')
        return FALSE;
      p = ftt_skip_spaces (sp, end);
      if (!ftt_starts_with (p, end, "CPU:"))
        return FALSE;
    }
  cpu = read_u64 (p + 4, end, &q);
  if (q == p + 4 || !ftt_starts_with (q, end, " ["))
    return FALSE;
  q += 2;
  if (ftt_starts_with (q, end, "LOST "))
    {
      count = read_u64 (q + 5, end, &q);
      if (!ftt_starts_with (q, end, " EVENTS]"))
        return FALSE;
    }
  else if (IS (*q, C_DIGIT))
    {
      count = read_u64 (q, end, &q);
      if (!ftt_starts_with (q, end, " EVENTS DROPPED]"))
        return FALSE;
    }
  else if (!ftt_starts_with (q, end, "EVENTS DROPPED]"))
    return FALSE;
  if (cpu > G_MAXINT32)
    return FALSE;
  seismo_trace_builder_add_lost_events (self->builder, (int) cpu, self->last_ts, count);
  return TRUE;
}

/* ---- the loop ------------------------------------------------------------------------------- */

static void
note_buffer (Parser         *self,
             const LineHead *head)
{
  const char *last = self->last_buffer;
  gsize len = head->buffer_len;

  if (last && strlen (last) == len && memcmp (last, head->buffer, len) == 0)
    return;
  for (guint i = 0; i < self->buffers->len; i++)
    {
      const char *n = g_ptr_array_index (self->buffers, i);

      if (strlen (n) == len && memcmp (n, head->buffer, len) == 0)
        {
          self->last_buffer = n;
          return;
        }
    }
  self->last_buffer = g_strndup (head->buffer, len);
  g_ptr_array_add (self->buffers, (gpointer) self->last_buffer);
}

/*
 * TRUE when no byte is NUL or above 0x7f. Eight bytes at a time: traces are almost always ASCII,
 * and GLib's UTF-8 validation costs more than the parsing itself.
 */
static gboolean
is_plain_ascii (const char *data,
                gsize       len)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 acc = 0;
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w;

      memcpy (&w, data + i, 8);
      /* High bits, or a zero byte (the classic "has zero byte" test). */
      acc |= (w & highs) | ((w - ones) & ~w & highs);
      if (G_UNLIKELY (acc))
        return FALSE;
    }
  for (; i < len; i++)
    if ((guint8) data[i] == 0 || (guint8) data[i] > 0x7f)
      return FALSE;
  return TRUE;
}

G_ALWAYS_INLINE static inline void
begin_event (Parser         *self,
             const LineHead *head,
             guint           type_id)
{
  if (head->buffer_len)
    note_buffer (self, head);
  note_task (self, head);
  if (self->pending)
    ftt_end_pending (self);
  seismo_trace_builder_begin_event (self->builder, head->ts, head->cpu, head->tid, type_id);

  if (self->n_events++ == 0 || head->ts < self->first_ts)
    self->first_ts = head->ts;
  self->last_ts = head->ts;
  self->max_cpu = MAX (self->max_cpu, head->cpu);
  if (head->ts_ns)
    self->n_ns_stamps++;
  if (head->latency)
    self->n_latency++;
}

G_ALWAYS_INLINE static inline void
end_event (Parser *self)
{
  /* With stacks in the file, the next line may be a block that belongs to this event. */
  if (self->stacks)
    self->pending = TRUE;
  else
    seismo_trace_builder_end_event (self->builder);
}

G_ALWAYS_INLINE static inline gboolean
emit_event (Parser   *self,
            LineHead *head)
{
  EventInfo *info = NULL;

  if (head->cpu >= G_MAXUINT16)
    return FALSE;
  if (head->form == FORM_NORMAL)
    for (guint i = 0; i < N_RECENT; i++)
      if (self->recent[i].len == head->name_len &&
          memcmp (self->recent[i].name, head->name, head->name_len) == 0)
        {
          info = self->recent[i].info;
          break;
        }
  if (info == NULL)
    {
      /* trace-cmd prints function_graph records as events with the tracer's columns. */
      if (head->form == FORM_NORMAL && head->name_len >= 14 &&
          memcmp (head->name, "funcgraph_", 10) == 0)
        return ftt_funcgraph_event (self, head);
      info = ftt_lookup_event (self, head);
      if (info == NULL)
        return FALSE;
      if (head->form == FORM_NORMAL)
        {
          RecentEvent *r = &self->recent[self->recent_next++ % N_RECENT];

          memcpy (r->name, head->name, head->name_len);
          r->len = head->name_len;
          r->info = info;
        }
    }

  begin_event (self, head, info->type_id);
  ftt_push_payload (self, info, head);
  end_event (self);
  return TRUE;
}

/*
 * Returns NULL when the line was read (an event, a header, a block's frame), else the kind it
 * is counted under as unreadable.
 */
static const char *
parse_line (Parser     *self,
            const char *line,
            const char *end,
            gboolean    check_utf8)
{
  LineHead head;
  const char *first = ftt_skip_indent (line, end);

  if (first == end)
    return NULL;
  if (check_utf8 && !is_plain_ascii (line, end - line) && !g_utf8_validate (line, end - line, NULL))
    {
      ftt_end_pending (self);
      return "lines that are not UTF-8 text";
    }
  if (G_UNLIKELY (*first == '=' && first + 1 < end && first[1] == '>'))
    {
      /* The first stack: read again from the start, with the stack fields in every type. */
      if (!self->stacks)
        {
          self->restart_for_stacks = TRUE;
          return NULL;
        }
      return ftt_stack_frame (self, first, end) ? NULL : "stack frames without a <stack trace> line";
    }
  if (ftt_parse_line_head (line, end, &head))
    {
      if (G_UNLIKELY (head.form == FORM_NORMAL &&
                      ((head.name_len == 12 && head.name[0] == 'k' &&
                        memcmp (head.name, "kernel_stack", 12) == 0) ||
                       (head.name_len == 10 && head.name[0] == 'u' &&
                        memcmp (head.name, "user_stack", 10) == 0))))
        head.form = FORM_STACK;
      if (G_UNLIKELY (head.form == FORM_STACK))
        {
          if (!self->stacks)
            {
              self->restart_for_stacks = TRUE;
              return NULL;
            }
          return ftt_stack_begin (self, &head) ? NULL : "stack traces without an event before them";
        }
      if (self->pending)
        ftt_end_pending (self);
      if (emit_event (self, &head))
        return NULL;
      return "event lines whose event name cannot be read";
    }
  if (self->pending)
    ftt_end_pending (self);
  if (parse_header_line (self, first, end) || parse_lost_line (self, line, end))
    return NULL;
  if (ftt_funcgraph_line (self, line, end))
    {
      self->n_read_lines++;
      return NULL;
    }
  return ftt_classify_unreadable (self, first, end);
}

static void
parser_init (Parser     *self,
             const char *path)
{
  ftt_init_cclass ();
  memset (self, 0, sizeof *self);
  self->path = path;
  self->builder = seismo_trace_builder_new ();
  self->events = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, ftt_event_info_free);
  self->tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->scratch = g_string_new (NULL);
  self->buffers = g_ptr_array_new_with_free_func (g_free);
  self->last_tid = -1;
  self->strings = g_new0 (CachedString, N_STR_CACHE);
  self->kstack = g_string_new (NULL);
  self->ustack = g_string_new (NULL);
  self->arch_votes = seismo_arch_votes_new ();
}

static void
parser_clear (Parser *self)
{
  g_clear_pointer (&self->builder, seismo_trace_builder_free);
  g_clear_pointer (&self->arch_votes, seismo_arch_votes_free);
  g_clear_pointer (&self->events, g_hash_table_unref);
  g_clear_pointer (&self->tasks, g_hash_table_unref);
  if (self->scratch)
    g_string_free (self->scratch, TRUE);
  self->scratch = NULL;
  g_clear_pointer (&self->buffers, g_ptr_array_unref);
  g_clear_pointer (&self->tracer, g_free);
  g_clear_pointer (&self->strings, g_free);
  g_clear_pointer (&self->funcgraph, ftt_funcgraph_free);
  if (self->kstack)
    g_string_free (self->kstack, TRUE);
  if (self->ustack)
    g_string_free (self->ustack, TRUE);
  self->kstack = self->ustack = NULL;
  ftt_skipped_free (self);
}

static gboolean
parse_text (Parser             *self,
            const char         *data,
            gsize               len,
            GCancellable       *cancellable,
            SeismoProgressFunc  progress,
            gpointer            progress_data,
            GError            **error)
{
  const char *p = data;
  const char *end = data + len;
  gboolean check_utf8 = !is_plain_ascii (data, len) && !g_utf8_validate_len (data, len, NULL);

  self->data = data;
  self->data_end = end;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *le = nl ? nl : end;

      if (le > p && le[-1] == '\r')
        le--;
      self->line_no++;
      {
        const char *kind = parse_line (self, p, le, check_utf8);

        if (G_UNLIKELY (kind != NULL))
          ftt_note_unreadable (self, p, le, kind);
        if (G_UNLIKELY (self->restart_for_stacks))
          return TRUE;
      }
      p = nl ? nl + 1 : end;

      if ((self->line_no % PROGRESS_LINES) == 0)
        {
          seismo_work_priority_pause_point ();
          if (g_cancellable_is_cancelled (cancellable))
            {
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED,
                           _("Loading “%s” was cancelled"), self->path);
              return FALSE;
            }
          if (progress)
            progress ((double) (p - data) / (double) len, progress_data);
        }
    }
  ftt_end_pending (self);
  ftt_funcgraph_finish (self);
  return TRUE;
}

static void
set_metadata (Parser *self)
{
  SeismoTraceBuilder *b = self->builder;
  char num[32];
  const char *layout;

  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "ftrace-text");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ORIGINAL, self->path);
  if (self->tracer)
    seismo_trace_builder_set_metadata (b, "tracer", self->tracer);

  if (self->saw_trace_cmd)
    layout = self->n_latency ? "trace-cmd report -l" : "trace-cmd report";
  else
    layout = self->n_latency ? "tracefs latency-format" : "tracefs";
  seismo_trace_builder_set_metadata (b, "text_format", layout);
  seismo_trace_builder_set_metadata (b, "timestamp_precision",
                                     self->n_ns_stamps * 2 > self->n_events ? "ns" : "us");

  if (self->buffers->len)
    {
      g_autofree char *list = NULL;

      g_ptr_array_add (self->buffers, NULL);
      list = g_strjoinv (",", (char **) self->buffers->pdata);
      g_ptr_array_remove_index (self->buffers, self->buffers->len - 1);
      seismo_trace_builder_set_metadata (b, "buffers", list);
    }

  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, self->n_skipped);
  seismo_trace_builder_set_metadata (b, "skipped_lines", num);

  ftt_set_state_symbols (self);

  /* Text says no machine: what it holds may (else the arch stays unknown, never a guess). */
  {
    const char *how;
    SeismoArch arch = seismo_arch_votes_decide (self->arch_votes, &how);

    if (arch != SEISMO_ARCH_UNKNOWN)
      {
        seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, seismo_arch_to_string (arch));
        seismo_trace_builder_set_metadata (b, "arch_from", how);
      }
  }

  /*
   * The ring buffer overwrote what it could not hold, before the first event left in it: say so
   * as lost events of an unknown CPU.
   */
  if (self->have_entries && self->entries_written > self->entries_in_buffer)
    seismo_trace_builder_add_lost_events (b, -1, self->first_ts,
                                          self->entries_written - self->entries_in_buffer);

  seismo_trace_builder_set_n_cpus (b, MAX (self->declared_cpus,
                                           self->n_events ? self->max_cpu + 1 : 0));
}

/* ---- the importer --------------------------------------------------------------------------- */

static int
ftrace_text_sniff (const guint8 *head,
                   gsize         len,
                   const char   *path)
{
  const char *p = (const char *) head;
  const char *end = p + len;
  guint n_events = 0, n_other = 0, n_lines = 0;
  gboolean trace_cmd = FALSE;

  ftt_init_cclass ();
  if (len == 0 || memchr (head, '\0', len) != NULL)
    return 0;
  if (ftt_starts_with (p, end, "# tracer: "))
    return 100;

  while (p < end && n_lines < 64)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *le;
      const char *first;
      LineHead lh;

      /* Only whole lines: the head may cut the last one, except for a file smaller than it. */
      if (nl == NULL && n_lines > 0)
        break;
      le = nl ? nl : end;
      if (le > p && le[-1] == '\r')
        le--;
      first = ftt_skip_spaces (p, le);
      n_lines++;
      if (first == le)
        ;
      else if (ftt_parse_line_head (p, le, &lh))
        n_events++;
      else if (*first == '#')
        ;
      else if (le - first >= 2 && first[0] == '=' && first[1] == '>')
        ;   /* a stack frame */
      else if (ftt_starts_with (first, le, "cpus=") || ftt_starts_with (first, le, "version = "))
        trace_cmd = TRUE;
      else if (!(ftt_starts_with (first, le, "CPU") && memchr (first, '[', le - first)))
        n_other++;
      p = nl ? nl + 1 : end;
    }

  /* trace-cmd report of an empty recording: "cpus=16" and nothing else, read whole. */
  if (n_events == 0)
    return trace_cmd && n_other == 0 && p >= end && len < 4096 ? 60 : 0;
  if (trace_cmd && n_events >= n_other)
    return 95;
  if (n_events * 4 >= (n_events + n_other) * 3)
    return 80;
  if (n_events >= n_other)
    return 40;
  return 0;
}

static SeismoTrace *
ftrace_text_load (const char         *path,
                  GCancellable       *cancellable,
                  SeismoProgressFunc  progress,
                  gpointer            progress_data,
                  GError            **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  const char *data;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not open “%s”: %s"), path,
                   local_error->message);
      return NULL;
    }
  data = g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  if (len == 0)
    {
      /* tracefs files report a size of 0 and cannot be mapped: read them to the end. */
      g_clear_pointer (&mapped, g_mapped_file_unref);
      if (!g_file_get_contents (path, &contents, &len, &local_error))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not read “%s”: %s"), path,
                       local_error->message);
          return NULL;
        }
      data = contents;
    }
  else
    posix_madvise ((void *) data, len, POSIX_MADV_SEQUENTIAL);
  return seismo_ftrace_text_load_data (path, data, len, cancellable, progress, progress_data,
                                       error);
}

SeismoTrace *
seismo_ftrace_text_load_data (const char          *path,
                              const char          *data,
                              gsize                len,
                              GCancellable        *cancellable,
                              SeismoProgressFunc   progress,
                              gpointer             progress_data,
                              GError             **error)
{
  Parser parser;
  SeismoTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (data != NULL || len == 0, NULL);

  /*
   * Stack trace blocks add fields to every event type, which must be known before the first
   * event of a type is stored. Files without stacks (most) pay nothing for them: the first block
   * found makes the parse start over with the fields in place.
   */
  for (gboolean stacks = FALSE;; stacks = TRUE)
    {
      parser_init (&parser, path);
      parser.stacks = stacks;
      if (!parse_text (&parser, data, len, cancellable, progress, progress_data, error))
        {
          parser_clear (&parser);
          return NULL;
        }
      if (!parser.restart_for_stacks || stacks)
        break;
      parser_clear (&parser);
    }
  seismo_arch_votes_scan_text (parser.arch_votes, data, len);

  if (parser.n_events == 0 && parser.n_skipped == 0 && !parser.saw_header)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                   "“%s” holds no ftrace event line", path);
      parser_clear (&parser);
      return NULL;
    }
  {
    /* Mostly unreadable: this is not a trace to show as if it were complete. */
    g_autofree char *refusal = ftt_skipped_refusal (&parser);

    if (refusal)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT, "%s", refusal);
        parser_clear (&parser);
        return NULL;
      }
  }

  ftt_skipped_finish (&parser);
  set_metadata (&parser);
  if (progress)
    progress (1.0, progress_data);

  trace = seismo_trace_builder_finish (g_steal_pointer (&parser.builder));
  parser_clear (&parser);
  return trace;
}

const SeismoImporter seismo_ftrace_text_importer = {
  .name = "ftrace-text",
  .description = N_("ftrace text (tracefs trace, trace_pipe, trace-cmd report)"),
  .sniff = ftrace_text_sniff,
  .load = ftrace_text_load,
};

/* ---- for the importer's other files (the hot paths above call the static versions) ---- */

void
ftt_note_task (Parser         *self,
               const LineHead *head)
{
  note_task (self, head);
}

void
ftt_begin_event (Parser         *self,
                 const LineHead *head,
                 guint          type_id)
{
  begin_event (self, head, type_id);
}

gboolean
ftt_emit_event (Parser   *self,
                LineHead *head)
{
  return emit_event (self, head);
}

void
ftt_end_event (Parser *self)
{
  end_event (self);
}

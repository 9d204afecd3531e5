/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-big-array.h"
#include "seismo-syscalls.h"
#include "seismo-trace-derive-private.h"
#include "seismo-work-priority.h"

/*
 * Syscall spans: each enter paired with its task's next exit, one span per enter, in enter order
 * (seismo-trace-derive.c says why the output is written in place). Half of a big trace's events
 * are syscalls, so the pairing runs in ranges of events at once:
 *
 * - each range writes its spans into their final slots, from the number of enters before it
 *   (counted first, in parallel), and names its syscalls in a table of its own;
 * - a range cannot see the enters left open before it, so it notes, per task, the exit it met
 *   before any enter of that task: one pass would have paired that exit with the open enter;
 * - the join then goes through the ranges in order, doing just that, and names the syscalls in
 *   the order one pass would have met them.
 *
 * The result is the one pass's, span for span and name for name (tests/test-load-derive.c).
 */

#define CACHED_NRS   1024
/* first_exit[] before the range met the task, and after it met an enter of it first. */
#define FIRST_UNSEEN G_MAXUINT32
#define FIRST_ENTER  (G_MAXUINT32 - 1)

typedef struct {
  gsize       from, to;        /* events */
  gsize       n_enters;        /* counted before the ranges run */
  gsize       first_span;      /* its spans' first slot: the enters before from */
  gsize       n_spans;
  /* Its syscall names: the first range's are the trace's, the others' its own. */
  GPtrArray  *names;
  GHashTable *ids;             /* name → index in names + 1 */
  GArray     *named_at;        /* SeismoEventId per own name: the event that named it first */
  guint32    *pending;         /* per task: slot of the enter still open */
  guint32    *first_exit;      /* per task, but in the first range: FIRST_UNSEEN, FIRST_ENTER, or
                                * the exit met before any enter of the task */
  guint32    *type_syscall;    /* per event type: index + 1 (0: not known yet) */
  guint32     nr_syscall[CACHED_NRS]; /* per syscall number: index + 1 (0: not known yet) */
} Range;

struct _SeismoSyscallPass
{
  SeismoTrace       *trace;
  const guint8      *kinds;    /* per event type: its kind */
  SeismoArch         arch;
  SeismoSyscallSpan *spans;
  /* A bit per span: its exit returned an error (-4095..-1), as seismo_trace_get_failed_spans()
   * has it. Found here, where each exit's payload is at hand, and not in a pass of its own over
   * every exit again; ranges share the words at their ends, so bits are set atomically. */
  guint64           *failed;
  gsize              n_enters; /* what spans and failed have room for */
  guint              n_ranges;
  Range             *ranges;
};

SeismoSyscallPass *
_seismo_syscall_pass_new (SeismoTrace  *trace,
                          const guint8 *kinds,
                          gsize         n_enters,
                          guint         n_ranges)
{
  SeismoSyscallPass *self = g_new0 (SeismoSyscallPass, 1);
  guint n_tasks = MAX (trace->n_tasks, 1);
  guint n_types = MAX (trace->event_types->len, 1);

  /* Not more ranges than events: each range holds one at least. */
  n_ranges = (guint) CLAMP ((gsize) n_ranges, 1, MAX (trace->n_events, 1));
  self->trace = trace;
  self->kinds = kinds;
  self->arch = seismo_arch_from_string (seismo_trace_get_metadata (trace, SEISMO_META_ARCH));
  self->spans = _seismo_big_array_new (SeismoSyscallSpan, n_enters);
  self->failed = g_new0 (guint64, n_enters / 64 + 1);
  self->n_enters = n_enters;
  self->n_ranges = n_ranges;
  self->ranges = g_new0 (Range, n_ranges);
  g_ptr_array_set_size (trace->syscall_names, 0);
  for (guint k = 0; k < n_ranges; k++)
    {
      Range *r = &self->ranges[k];

      r->from = trace->n_events * k / n_ranges;
      r->to = trace->n_events * (k + 1) / n_ranges;
      r->names = k == 0 ? g_ptr_array_ref (trace->syscall_names) : g_ptr_array_new_with_free_func (g_free);
      r->ids = g_hash_table_new (g_str_hash, g_str_equal);
      r->pending = g_new (guint32, n_tasks);
      r->type_syscall = g_new0 (guint32, n_types);
      for (guint t = 0; t < n_tasks; t++)
        r->pending[t] = NO_SLOT;
      if (k > 0)
        {
          r->named_at = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));
          r->first_exit = g_new (guint32, n_tasks);
          for (guint t = 0; t < n_tasks; t++)
            r->first_exit[t] = FIRST_UNSEEN;
        }
    }
  return self;
}

guint
_seismo_syscall_pass_n_ranges (SeismoSyscallPass *self)
{
  return self->n_ranges;
}

/* The enters of a range: the later ranges' spans start after them. */
void
_seismo_syscall_pass_count_range (SeismoSyscallPass *self,
                                  guint              range)
{
  const guint16 *types = self->trace->type;
  Range *r = &self->ranges[range];
  gsize n = 0;

  for (gsize i = r->from; i < r->to; i++)
    {
      if (G_UNLIKELY ((i & 0xffff) == 0))
        seismo_work_priority_pause_point ();
      n += self->kinds[types[i]] == SEISMO_KIND_SYSCALL_ENTER;
    }
  r->n_enters = n;
}

static guint16
syscall_index (Range         *r,
               const char    *name,
               SeismoEventId  ev)
{
  guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (r->ids, name));

  if (idx == 0)
    {
      char *copy = g_strdup (name);

      g_ptr_array_add (r->names, copy);
      idx = r->names->len;
      g_hash_table_insert (r->ids, copy, GUINT_TO_POINTER (idx));
      if (r->named_at != NULL)
        g_array_append_val (r->named_at, ev);
    }
  return (guint16) MIN (idx - 1, G_MAXUINT16);
}

static const char *
name_of_nr (SeismoArch  arch,
            gint64      nr,
            char        buf[32])
{
  const char *name = seismo_syscall_name (arch, nr);

  if (name == NULL)
    {
      g_snprintf (buf, 32, "syscall_%" G_GINT64_FORMAT, nr);
      name = buf;
    }
  return name;
}

/* Called for every syscall event: names are looked up once per event type or syscall number. */
static guint16
event_syscall (SeismoSyscallPass     *self,
               Range                 *r,
               SeismoEventId          ev,
               const SeismoEventType *type)
{
  gint64 nr;
  char buf[32];
  guint16 idx;

  if (type->syscall != NULL)
    {
      if (r->type_syscall[type->id] == 0)
        r->type_syscall[type->id] = syscall_index (r, type->syscall, ev) + 1u;
      return (guint16) (r->type_syscall[type->id] - 1);
    }
  nr = syscall_nr (self->trace, ev, type);
  if (nr >= 0 && nr < CACHED_NRS && r->nr_syscall[nr] != 0)
    return (guint16) (r->nr_syscall[nr] - 1);
  idx = syscall_index (r, name_of_nr (self->arch, nr, buf), ev);
  if (nr >= 0 && nr < CACHED_NRS)
    r->nr_syscall[nr] = idx + 1u;
  return idx;
}

/* The exit that closed the span in slot: whether it returned an error. */
static inline void
note_exit (SeismoSyscallPass     *self,
           gsize                  slot,
           SeismoEventId          ev,
           const SeismoEventType *type)
{
  gint64 ret;

  if (type->roles[SEISMO_ROLE_RET] < 0)
    return;
  ret = role_int (self->trace, ev, type, SEISMO_ROLE_RET, 0);
  if (ret < 0 && ret >= -4095)
    __atomic_fetch_or (&self->failed[slot >> 6], G_GUINT64_CONSTANT (1) << (slot & 63), __ATOMIC_RELAXED);
}

/* A span is appended at its enter, so spans come out in enter order; the exit fills it in later.
 * An enter while one is open leaves the open one unfinished. */
static inline void
on_syscall_enter (SeismoSyscallPass     *self,
                  Range                 *r,
                  SeismoEventId          ev,
                  const SeismoEventType *type)
{
  SeismoTaskId task = self->trace->task[ev];
  SeismoSyscallSpan span = { ev, SEISMO_NO_EVENT, event_syscall (self, r, ev, type) };

  if (r->first_exit != NULL && r->first_exit[task] == FIRST_UNSEEN)
    r->first_exit[task] = FIRST_ENTER;
  r->pending[task] = (guint32) (r->first_span + r->n_spans);
  self->spans[r->first_span + r->n_spans++] = span;
}

static inline void
on_syscall_exit (SeismoSyscallPass     *self,
                 Range                 *r,
                 SeismoEventId          ev,
                 const SeismoEventType *type)
{
  SeismoTaskId task = self->trace->task[ev];
  SeismoSyscallSpan *span;

  if (r->pending[task] == NO_SLOT)
    {
      /* An enter before the range may be open: the join decides. */
      if (r->first_exit != NULL && r->first_exit[task] == FIRST_UNSEEN)
        r->first_exit[task] = ev;
      return;
    }
  span = &self->spans[r->pending[task]];
  /* An exit of another syscall means the enter we hold never returned (e.g. a lost event). */
  if (event_syscall (self, r, ev, type) == span->syscall)
    {
      span->exit = ev;
      note_exit (self, r->pending[task], ev, type);
    }
  r->pending[task] = NO_SLOT;
}

void
_seismo_syscall_pass_run_range (SeismoSyscallPass *self,
                                guint              range)
{
  SeismoTrace *trace = self->trace;
  const guint16 *types = trace->type;
  const guint8 *kinds = self->kinds;
  Range *r = &self->ranges[range];

  r->first_span = 0;
  for (guint k = 0; k < range; k++)
    r->first_span += self->ranges[k].n_enters;
  for (gsize i = r->from; i < r->to; i++)
    {
      SeismoEventKind kind = kinds[types[i]];

      if (G_UNLIKELY ((i & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      if (G_LIKELY (kind != SEISMO_KIND_SYSCALL_ENTER && kind != SEISMO_KIND_SYSCALL_EXIT))
        continue;
      if (kind == SEISMO_KIND_SYSCALL_ENTER)
        on_syscall_enter (self, r, (SeismoEventId) i, g_ptr_array_index (trace->event_types, types[i]));
      else
        on_syscall_exit (self, r, (SeismoEventId) i, g_ptr_array_index (trace->event_types, types[i]));
    }
}

/* An exit at a join: the open enter of the same task (its slot) it would have closed. */
typedef struct {
  SeismoEventId          exit;
  const SeismoEventType *type;
  guint32                slot;
  char                  *name;
} Join;

/* A syscall name and the event that named it first. */
typedef struct {
  SeismoEventId  at;
  const char    *name;
} Naming;

static gint
naming_compare (gconstpointer a,
                gconstpointer b)
{
  SeismoEventId x = ((const Naming *) a)->at, y = ((const Naming *) b)->at;

  return x < y ? -1 : x > y;
}

static void
range_clear (Range *r)
{
  g_ptr_array_unref (r->names);
  g_hash_table_unref (r->ids);
  if (r->named_at != NULL)
    g_array_unref (r->named_at);
  g_free (r->pending);
  g_free (r->first_exit);
  g_free (r->type_syscall);
}

/* What one pass would have done at the joins, in order: the exits that close an enter of an
 * earlier range, and the names of the later ranges, in the trace's table. */
static void
join_ranges (SeismoSyscallPass *self)
{
  SeismoTrace *trace = self->trace;
  Range *first = &self->ranges[0];
  /* One pass's open enters, range after range: the first range's, then updated. */
  guint32 *open = first->pending;
  g_autoptr(GArray) joins = g_array_new (FALSE, FALSE, sizeof (Join));
  g_autoptr(GArray) namings = g_array_new (FALSE, FALSE, sizeof (Naming));

  for (guint k = 1; k < self->n_ranges; k++)
    {
      Range *r = &self->ranges[k];

      for (guint t = 0; t < trace->n_tasks; t++)
        {
          guint32 fe = r->first_exit[t];
          char buf[32];

          if (fe == FIRST_UNSEEN)
            continue;
          if (fe != FIRST_ENTER && open[t] != NO_SLOT)
            {
              const SeismoEventType *type = seismo_trace_get_event_type (trace, trace->type[fe]);
              const char *name = type->syscall != NULL ? type->syscall
                                 : name_of_nr (self->arch, syscall_nr (trace, fe, type), buf);
              Join join = { fe, type, open[t], g_strdup (name) };

              g_array_append_val (joins, join);
            }
          /* From its first event on, the range's task went as one pass's would have. */
          open[t] = r->pending[t];
        }
    }

  /* Names, in the order one pass meets them: each range's own where it met them, and a join's
   * where its exit is (an exit with nothing open names nothing). The first range's come first. */
  for (guint k = 1; k < self->n_ranges; k++)
    {
      Range *r = &self->ranges[k];

      for (guint j = 0; j < r->names->len; j++)
        {
          Naming naming = { g_array_index (r->named_at, SeismoEventId, j), g_ptr_array_index (r->names, j) };

          g_array_append_val (namings, naming);
        }
    }
  for (guint j = 0; j < joins->len; j++)
    {
      Join *join = &g_array_index (joins, Join, j);
      Naming naming = { join->exit, join->name };

      g_array_append_val (namings, naming);
    }
  g_array_sort (namings, naming_compare);
  for (guint j = 0; j < namings->len; j++)
    syscall_index (first, g_array_index (namings, Naming, j).name, 0);

  /* The later ranges' spans, renamed. */
  for (guint k = 1; k < self->n_ranges; k++)
    {
      Range *r = &self->ranges[k];
      g_autofree guint16 *to_trace = g_new (guint16, MAX (r->names->len, 1));

      for (guint j = 0; j < r->names->len; j++)
        to_trace[j] = syscall_index (first, g_ptr_array_index (r->names, j), 0);
      for (gsize s = r->first_span; s < r->first_span + r->n_spans; s++)
        self->spans[s].syscall = to_trace[self->spans[s].syscall];
    }
  for (guint j = 0; j < joins->len; j++)
    {
      Join *join = &g_array_index (joins, Join, j);
      SeismoSyscallSpan *span = &self->spans[join->slot];

      if (syscall_index (first, join->name, 0) == span->syscall)
        {
          span->exit = join->exit;
          note_exit (self, join->slot, join->exit, join->type);
        }
      g_free (join->name);
    }
}

SeismoSyscallSpan *
_seismo_syscall_pass_finish (SeismoSyscallPass  *self,
                             gsize              *n_spans,
                             guint64           **failed)
{
  SeismoSyscallSpan *spans;

  if (self->n_ranges > 1)
    {
      join_ranges (self);
      /* Past 65536 names a span's index is clamped, and one pass pairs an exit with an enter of
       * another syscall when both are clamped (a damaged trace's numbers): then it is one pass. */
      if (self->trace->syscall_names->len > (guint) G_MAXUINT16 + 1)
        {
          SeismoSyscallPass *one = _seismo_syscall_pass_new (self->trace, self->kinds, 0, 1);

          g_free (one->spans);
          one->spans = g_steal_pointer (&self->spans);
          g_free (one->failed);
          one->failed = g_steal_pointer (&self->failed);
          one->n_enters = self->n_enters;
          memset (one->failed, 0, (one->n_enters / 64 + 1) * sizeof (guint64));
          _seismo_syscall_pass_run_range (one, 0);
          for (guint k = 0; k < self->n_ranges; k++)
            range_clear (&self->ranges[k]);
          g_free (self->ranges);
          g_free (self);
          return _seismo_syscall_pass_finish (one, n_spans, failed);
        }
    }
  *n_spans = 0;
  for (guint k = 0; k < self->n_ranges; k++)
    {
      *n_spans += self->ranges[k].n_spans;
      range_clear (&self->ranges[k]);
    }
  spans = g_renew (SeismoSyscallSpan, self->spans, MAX (*n_spans, 1));
  *failed = self->failed;
  g_free (self->ranges);
  g_free (self);
  return spans;
}

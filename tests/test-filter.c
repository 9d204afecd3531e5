/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <string.h>

#include "seismo-filter.h"
#include "seismo-syscalls.h"
#include "seismo-test-util.h"

/*
 * The filter language: the parser against tables of valid and invalid expressions (with the
 * column and message a learner would see), and evaluation against a brute-force evaluator written
 * here from the public trace API only, over single comparisons and random combinations of them.
 */

static SeismoTrace *trace;
static GHashTable *span_of;   /* event id → span index + 1 (enter and exit events) */

static void
setup_trace (void)
{
  gsize n_spans;
  const SeismoSyscallSpan *spans;

  trace = seismo_test_make_trace (20000, 11);
  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  span_of = g_hash_table_new (NULL, NULL);
  for (gsize s = 0; s < n_spans; s++)
    {
      g_hash_table_insert (span_of, GUINT_TO_POINTER (spans[s].enter), GSIZE_TO_POINTER (s + 1));
      if (spans[s].exit != SEISMO_NO_EVENT)
        g_hash_table_insert (span_of, GUINT_TO_POINTER (spans[s].exit), GSIZE_TO_POINTER (s + 1));
    }
}

/* ---- brute force ---- */

static gboolean
field_int (SeismoEventId  i,
           const char    *name,
           gint64        *v)
{
  SeismoValue value;

  if (!seismo_trace_event_field_by_name (trace, i, name, &value))
    return FALSE;
  if (value.type == SEISMO_FIELD_INT)
    *v = value.i;
  else if (value.type == SEISMO_FIELD_UINT || value.type == SEISMO_FIELD_POINTER)
    *v = (gint64) value.u;
  else
    return FALSE;
  return TRUE;
}

static const char *
field_str (SeismoEventId  i,
           const char    *name)
{
  SeismoValue value;

  if (!seismo_trace_event_field_by_name (trace, i, name, &value) ||
      value.type != SEISMO_FIELD_STRING)
    return NULL;
  return value.str;
}

static const char *
comm_of (SeismoEventId i)
{
  return seismo_trace_task_comm_at (trace, seismo_trace_get_tasks (trace)[i],
                                    seismo_trace_event_time (trace, i));
}

static guint64
rel_time (SeismoEventId i)
{
  return seismo_trace_event_time (trace, i) - seismo_trace_get_start_ns (trace);
}

static gboolean
is_syscall_event (SeismoEventId i)
{
  SeismoEventKind kind = seismo_trace_event_type (trace, i)->kind;

  return kind == SEISMO_KIND_SYSCALL_ENTER || kind == SEISMO_KIND_SYSCALL_EXIT;
}

/* What a syscall event says through its span, or alone when no span pairs it. */
typedef struct {
  const char *name;
  gboolean    has_ret;
  gint64      ret;
  gboolean    has_duration;
  guint64     duration;
} SyscallInfo;

static gboolean
syscall_info (SeismoEventId  i,
              SyscallInfo   *info)
{
  gsize s = GPOINTER_TO_SIZE (g_hash_table_lookup (span_of, GUINT_TO_POINTER (i)));
  gint64 nr = -1;

  memset (info, 0, sizeof *info);
  if (!is_syscall_event (i))
    return FALSE;
  if (s > 0)
    {
      gsize n;
      const SeismoSyscallSpan *span = &seismo_trace_get_syscall_spans (trace, &n)[s - 1];

      info->name = seismo_trace_get_syscall_name (trace, span->syscall);
      info->has_ret = seismo_trace_syscall_span_ret (trace, span, &info->ret);
      info->has_duration = span->exit != SEISMO_NO_EVENT;
      if (info->has_duration)
        info->duration = seismo_trace_event_time (trace, span->exit) -
                         seismo_trace_event_time (trace, span->enter);
      return TRUE;
    }
  g_assert_true (field_int (i, "id", &nr));
  info->name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);
  info->has_ret = field_int (i, "ret", &info->ret);
  return TRUE;
}

typedef gboolean (*Pred) (SeismoEventId i);

#define PRED(name, body) static gboolean name (SeismoEventId i) { body }

PRED (p_cpu1, return seismo_trace_event_cpu (trace, i) == 1;)
PRED (p_cpu_ne2, return seismo_trace_event_cpu (trace, i) != 2;)
PRED (p_cpu_ge2, return seismo_trace_event_cpu (trace, i) >= 2;)
PRED (p_pid, return seismo_trace_event_task (trace, i)->pid == 1003;)
PRED (p_tid, return seismo_trace_event_task (trace, i)->tid < 1005;)
PRED (p_comm_eq, return strcmp (comm_of (i), "worker-1") == 0;)
PRED (p_comm_glob, return g_str_has_prefix (comm_of (i), "exec-");)
PRED (p_comm_regex,
      const char *c = comm_of (i);
      return strlen (c) == 8 && g_str_has_prefix (c, "worker-") && c[7] >= '0' && c[7] <= '3';)
PRED (p_time_lt, return rel_time (i) < 3000000;)
PRED (p_time_ge, return rel_time (i) >= 1500000;)
PRED (p_sched, return strcmp (seismo_trace_event_type (trace, i)->system, "sched") == 0;)
PRED (p_sys_enter, return g_str_has_prefix (seismo_trace_event_type (trace, i)->name, "sys_enter");)
PRED (p_switch, return strcmp (seismo_trace_event_type (trace, i)->name, "sched_switch") == 0;)
PRED (p_irq_re, return g_str_has_prefix (seismo_trace_event_type (trace, i)->full_name, "irq:");)
PRED (p_state_s, gint64 v; return field_int (i, "prev_state", &v) && v == 1;)
PRED (p_state_ne_r, gint64 v; return field_int (i, "prev_state", &v) && v != 0;)
PRED (p_next_comm,
      const char *s = field_str (i, "next_comm"); return s && strcmp (s, "worker") == 0;)
PRED (p_target_cpu, gint64 v; return field_int (i, "target_cpu", &v) && v > 1;)
PRED (p_flags, gint64 v; return field_int (i, "flags", &v) && v == 3;)
PRED (p_kind, gint64 v; return field_int (i, "kind", &v) && v == 2;)
PRED (p_delta, gint64 v; return field_int (i, "delta", &v) && v < -1000000;)
PRED (p_where, gint64 v; return field_int (i, "where", &v) && (guint64) v >= 0xffff800080000000ull;)
PRED (p_label, const char *s = field_str (i, "label"); return s && g_str_has_prefix (s, "label-1");)
PRED (p_wakeup_pid,
      gint64 v;
      return strcmp (seismo_trace_event_type (trace, i)->name, "sched_wakeup") == 0 &&
             field_int (i, "pid", &v) && v == 1004;)
PRED (p_syscall_read,
      SyscallInfo s; return syscall_info (i, &s) && g_strcmp0 (s.name, "read") == 0;)
PRED (p_syscall_open,
      SyscallInfo s;
      return syscall_info (i, &s) && s.name && strstr (s.name, "open") != NULL;)
PRED (p_duration,
      SyscallInfo s; return syscall_info (i, &s) && s.has_duration && s.duration > 2000;)
PRED (p_duration_le,
      SyscallInfo s; return syscall_info (i, &s) && s.has_duration && s.duration <= 1000;)
PRED (p_ret_neg,
      SyscallInfo s;
      gint64 v;
      if (syscall_info (i, &s))
        return s.has_ret && s.ret < 0;
      return field_int (i, "ret", &v) && v < 0;)
PRED (p_ret_one,
      SyscallInfo s;
      gint64 v;
      if (syscall_info (i, &s))
        return s.has_ret && s.ret == 1;
      return field_int (i, "ret", &v) && v == 1;)
PRED (p_errno_enoent, SyscallInfo s; return syscall_info (i, &s) && s.has_ret && s.ret == -ENOENT;)
PRED (p_errno_zero,
      SyscallInfo s;
      return syscall_info (i, &s) && s.has_ret && !(s.ret < 0 && s.ret >= -4095);)
PRED (p_id_openat, gint64 v; return field_int (i, "id", &v) && v == 257;)
PRED (p_irq, gint64 v; return field_int (i, "irq", &v) && v == 25;)
PRED (p_name, const char *s = field_str (i, "name"); return s && strcmp (s, "virtio0-input") == 0;)

static const struct {
  const char *expr;
  Pred        pred;
} atoms[] = {
  { "cpu == 1", p_cpu1 },
  { "cpu != 2", p_cpu_ne2 },
  { "cpu>=2", p_cpu_ge2 },
  { "pid == 1003", p_pid },
  { "tid < 1005", p_tid },
  { "comm == worker-1", p_comm_eq },
  { "comm ~ \"exec-*\"", p_comm_glob },
  { "comm =~ '^worker-[0-3]$'", p_comm_regex },
  { "time < 3ms", p_time_lt },
  { "time >= 1.5ms", p_time_ge },
  { "sched:*", p_sched },
  { "sys_enter*", p_sys_enter },
  { "event == sched_switch", p_switch },
  { "event =~ \"^irq:\"", p_irq_re },
  { "prev_state == S", p_state_s },
  { "prev_state != R", p_state_ne_r },
  { "next_comm == worker", p_next_comm },
  { "target_cpu > 1", p_target_cpu },
  { "flags == READ|WRITE", p_flags },
  { "kind == TWO", p_kind },
  { "delta < -1000000", p_delta },
  { "where >= 0xffff800080000000", p_where },
  { "label ~ 'label-1*'", p_label },
  { "sched_wakeup.pid == 1004", p_wakeup_pid },
  { "syscall == read", p_syscall_read },
  { "syscall ~ \"*open*\"", p_syscall_open },
  { "duration > 2us", p_duration },
  { "duration <= 1000", p_duration_le },
  { "ret < 0", p_ret_neg },
  { "ret == 1", p_ret_one },
  { "errno == ENOENT", p_errno_enoent },
  { "errno == 0", p_errno_zero },
  { "id == openat", p_id_openat },
  { "irq == 25", p_irq },
  { "name == \"virtio0-input\"", p_name },
};

/* Each atom's brute-force result per event, computed once. */
static guint8 **truth;

static void
ensure_truth (void)
{
  gsize n = seismo_trace_get_n_events (trace);

  if (truth)
    return;
  truth = g_new0 (guint8 *, G_N_ELEMENTS (atoms));
  for (guint a = 0; a < G_N_ELEMENTS (atoms); a++)
    {
      truth[a] = g_new (guint8, n);
      for (gsize i = 0; i < n; i++)
        truth[a][i] = atoms[a].pred ((SeismoEventId) i);
    }
}

static void
check_mask (const char     *expr,
            const guint64  *mask,
            gsize           n_matched,
            const guint8   *expected)
{
  gsize n = seismo_trace_get_n_events (trace), count = 0;

  for (gsize i = 0; i < n; i++)
    {
      gboolean got = (mask[i / 64] >> (i % 64)) & 1;

      if (got != expected[i])
        g_error ("'%s': event %" G_GSIZE_FORMAT " (%s) should %smatch", expr, i,
                 seismo_trace_event_type (trace, i)->full_name, expected[i] ? "" : "not ");
      count += got;
    }
  g_assert_cmpuint (count, ==, n_matched);
  for (gsize i = n; i < seismo_filter_mask_words (n) * 64; i++)
    g_assert_false ((mask[i / 64] >> (i % 64)) & 1);
}

static void
test_atoms (void)
{
  gsize n = seismo_trace_get_n_events (trace);

  ensure_truth ();
  for (guint a = 0; a < G_N_ELEMENTS (atoms); a++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, atoms[a].expr, &error);
      g_autofree guint64 *mask = NULL;
      gsize matched = 0, expected = 0;

      g_assert_no_error (error);
      mask = seismo_filter_run (f, &matched, NULL);
      g_assert_nonnull (mask);
      check_mask (atoms[a].expr, mask, matched, truth[a]);
      for (gsize i = 0; i < n; i++)
        expected += truth[a][i];
      /* Every atom picks something and leaves something, so none passes by accident. */
      if (expected == 0 || expected == n)
        g_error ("atom '%s' matches %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT, atoms[a].expr,
                 expected, n);
      for (gsize i = 0; i < n; i += 13)
        g_assert_cmpint (seismo_filter_match (f, (SeismoEventId) i), ==, truth[a][i]);
    }
}

/* A random expression and its brute-force result. */
static char *
random_expr (GRand   *rand,
             guint    depth,
             guint8  *out)
{
  gsize n = seismo_trace_get_n_events (trace);
  guint r = g_rand_int_range (rand, 0, 10);

  if (depth == 0 || r < 3)
    {
      guint a = g_rand_int_range (rand, 0, G_N_ELEMENTS (atoms));

      ensure_truth ();
      memcpy (out, truth[a], n);
      return g_strdup (atoms[a].expr);
    }
  if (r < 4)
    {
      char *inner = random_expr (rand, depth - 1, out);
      char *s = g_strdup_printf ("!(%s)", inner);

      for (gsize i = 0; i < n; i++)
        out[i] = !out[i];
      g_free (inner);
      return s;
    }
  {
    g_autofree guint8 *right = g_new (guint8, n);
    g_autofree char *l = random_expr (rand, depth - 1, out);
    g_autofree char *rt = random_expr (rand, depth - 1, right);
    gboolean is_and = r < 7;

    for (gsize i = 0; i < n; i++)
      out[i] = is_and ? (out[i] && right[i]) : (out[i] || right[i]);
    return g_strdup_printf ("(%s %s %s)", l, is_and ? "&&" : "||", rt);
  }
}

static void
test_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);
  gsize n = seismo_trace_get_n_events (trace);
  g_autofree guint8 *expected = g_new (guint8, n);

  for (guint k = 0; k < 150; k++)
    {
      g_autofree char *expr = random_expr (rand, 4, expected);
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, expr, &error);
      g_autofree guint64 *mask = NULL;
      gsize matched;

      g_assert_no_error (error);
      mask = seismo_filter_run (f, &matched, NULL);
      check_mask (expr, mask, matched, expected);
      for (gsize i = k % 17; i < n; i += 97)
        g_assert_cmpint (seismo_filter_match (f, (SeismoEventId) i), ==, expected[i]);
    }
}

/* Slices and threads give the same bits as one run, and leave bits outside the slice alone. */
static void
test_ranges_and_threads (void)
{
  g_autoptr(SeismoTrace) big = seismo_test_make_trace (700000, 3);
  const char *exprs[] = {
    "cpu == 1", "comm ~ \"worker-*\" && !sched:*", "duration > 2us || prev_state == S",
    "label ~ 'label-1*' || time < 1ms",
  };
  gsize n = seismo_trace_get_n_events (big);

  for (guint e = 0; e < G_N_ELEMENTS (exprs); e++)
    {
      g_autoptr(SeismoFilter) f = seismo_filter_compile (big, exprs[e], NULL);
      g_autofree guint64 *one = g_new0 (guint64, seismo_filter_mask_words (n));
      gsize m1, m3, total = 0;
      g_autofree guint64 *three = g_new0 (guint64, seismo_filter_mask_words (n));
      g_autofree guint64 *sliced = g_new (guint64, seismo_filter_mask_words (n));
      const SeismoEventId cuts[] = { 0, 1, 63, 64, 1000, 99999, 262145, (SeismoEventId) n - 7,
                                     (SeismoEventId) n };

      g_assert_nonnull (f);
      g_assert_true (seismo_filter_run_range (f, 0, n, 1, one, &m1, NULL));
      g_assert_true (seismo_filter_run_range (f, 0, n, 3, three, &m3, NULL));
      g_assert_cmpuint (m1, ==, m3);
      g_assert_cmpmem (one, seismo_filter_mask_words (n) * 8, three,
                       seismo_filter_mask_words (n) * 8);

      /* Slices into a mask full of ones: bits outside each slice must survive. */
      memset (sliced, 0xff, seismo_filter_mask_words (n) * 8);
      for (guint c = 0; c + 1 < G_N_ELEMENTS (cuts); c++)
        {
          gsize m;
          gsize w_end = cuts[c + 1] / 64;
          guint64 probe = sliced[w_end < seismo_filter_mask_words (n) ? w_end : 0];

          g_assert_true (seismo_filter_run_range (f, cuts[c], cuts[c + 1], 2, sliced, &m, NULL));
          total += m;
          if (cuts[c + 1] % 64 != 0 && w_end < seismo_filter_mask_words (n) &&
              c + 2 < G_N_ELEMENTS (cuts))
            {
              guint64 above = ~((G_GUINT64_CONSTANT (1) << (cuts[c + 1] % 64)) - 1);

              g_assert_cmpuint (sliced[cuts[c + 1] / 64] & above, ==, probe & above);
            }
        }
      g_assert_cmpuint (total, ==, m1);
      /* The tail past n still holds the ones put there. */
      for (gsize w = 0; w + 1 < seismo_filter_mask_words (n); w++)
        g_assert_cmpuint (sliced[w], ==, one[w]);
    }
}

static void
test_cancel (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, "cpu == 1", NULL);
  gsize matched = 42;

  g_cancellable_cancel (cancellable);
  g_assert_null (seismo_filter_run (f, &matched, cancellable));
  g_assert_cmpuint (matched, ==, 0);
}

static void
test_basics (void)
{
  g_autoptr(SeismoFilter) all = seismo_filter_compile (trace, "   ", NULL);
  g_autoptr(SeismoFilter) none = seismo_filter_compile (trace, "sched:* && !sched:*", NULL);
  g_autoptr(SeismoFilter) glob_none = seismo_filter_compile (trace, "nosuch:*", NULL);
  g_autofree guint64 *mask = NULL;
  gsize matched;
  SeismoFilter *ref;

  g_assert_nonnull (all);
  g_assert_true (seismo_filter_matches_all (all));
  mask = seismo_filter_run (all, &matched, NULL);
  g_assert_cmpuint (matched, ==, seismo_trace_get_n_events (trace));
  g_assert_false (seismo_filter_matches_all (none));
  g_clear_pointer (&mask, g_free);
  mask = seismo_filter_run (none, &matched, NULL);
  g_assert_cmpuint (matched, ==, 0);
  g_clear_pointer (&mask, g_free);
  /* A glob that names nothing is valid and matches nothing. */
  mask = seismo_filter_run (glob_none, &matched, NULL);
  g_assert_cmpuint (matched, ==, 0);
  g_assert_true (seismo_filter_get_trace (all) == trace);
  g_assert_cmpstr (seismo_filter_get_expression (none), ==, "sched:* && !sched:*");
  ref = seismo_filter_ref (none);
  seismo_filter_unref (ref);
  /* The boxed type copies by reference. */
  ref = g_boxed_copy (SEISMO_TYPE_FILTER, none);
  g_assert_true (ref == none);
  g_boxed_free (SEISMO_TYPE_FILTER, ref);
}

static void
test_valid (void)
{
  static const char *const valid[] = {
    "cpu == 1", "cpu != 1 && pid >= 1000", "time > 1.5ms", "time <= 2s", "time < 0.5us",
    "sched:*", "sys_enter*", "!sched:*", "!!sched:*", "((cpu == 0))", "event ~ \"sched:*\"",
    "event =~ '^irq:'", "event == raw_syscalls:sys_enter", "event != sched_wakeup",
    "comm == worker-1", "comm ~ 'worker-*'", "comm =~ \"^exec-[0-9]$\"", "prev_state == S",
    "prev_state == R+", "prev_state == \"S|D\"", "errno == ENOENT", "errno != 2",
    "ret == -ENOENT", "ret == ENOENT", "ret < 0", "syscall == openat", "syscall == 257",
    "syscall ~ \"open*\"", "syscall == execve", "duration > 10us", "duration >= 0",
    "flags == READ|WRITE", "flags == 'READ|CREAT'", "kind == TWO", "kind == two",
    "where > 0xffff800000000000", "delta < -5", "label == \"label-3\"", "sched_wakeup.pid == 1003",
    "*.pid > 0", "sched:*.prio == 120", "id == openat", "next_comm != swapper/0",
    "target_cpu == 2 || !(cpu < 2)", "irq == 25", "name == virtio0-input", "delta > 4k",
    "delta < 1.5M", "tid == -1", "pid != 0", "comm >= w", "\"sched:*\"", "sched_switch",
    "irq:irq_handler_entry", "time > 18446744073709551615", "delta < -9223372036854775808",
  };

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, valid[i], &error);
      g_autofree guint64 *mask = NULL;

      if (error)
        g_error ("'%s' should compile: %s", valid[i], error->message);
      mask = seismo_filter_run (f, NULL, NULL);
      g_assert_nonnull (mask);
    }
}

/* Short names for the table below. */
#define SYNTAX        SEISMO_FILTER_ERROR_SYNTAX
#define UNKNOWN_FIELD SEISMO_FILTER_ERROR_UNKNOWN_FIELD
#define UNKNOWN_EVENT SEISMO_FILTER_ERROR_UNKNOWN_EVENT
#define BAD_VALUE     SEISMO_FILTER_ERROR_BAD_VALUE
#define BAD_OPERATOR  SEISMO_FILTER_ERROR_BAD_OPERATOR

static void
test_invalid (void)
{
  static const struct {
    const char       *expr;
    SeismoFilterError code;
    gsize             column;
    const char       *message;
  } invalid[] = {
    { "pdi == 3", UNKNOWN_FIELD, 0, "unknown field 'pdi' — did you mean 'pid'?" },
    { "pid == 3 && cmm == bash", UNKNOWN_FIELD, 12, "did you mean 'comm'?" },
    { "prev_stat == S", UNKNOWN_FIELD, 0, "did you mean 'prev_state'?" },
    { "frobnicate > 1", UNKNOWN_FIELD, 0, "no event type of this trace has it" },
    { "pid = 3", SYNTAX, 4, "use '==' to compare" },
    { "pid == ", SYNTAX, 7, "expected a value after '=='" },
    { "(pid == 1", SYNTAX, 9, "missing ')' to close the '(' at column 1" },
    { "pid == 1)", SYNTAX, 8, "no '(' to close" },
    { "pid == 1 cpu == 2", SYNTAX, 9, "expected '&&' or '||' before 'cpu'" },
    { "pid == 1 and cpu == 2", SYNTAX, 9, "write '&&' instead of 'and'" },
    { "comm == hello world", SYNTAX, 14, "quotes" },
    { "comm == \"bash", SYNTAX, 8, "no closing quote" },
    { "&& pid == 1", SYNTAX, 0, "'&&' needs a condition on its left" },
    { "pid == 1 &&", SYNTAX, 11, "expected a condition after '&&'" },
    { "!", SYNTAX, 1, "expected a condition after '!'" },
    { "()", SYNTAX, 1, "empty" },
    { "== 3", SYNTAX, 0, "needs a field on its left" },
    { "pid == 1 == 2", SYNTAX, 9, "needs a field on its left" },
    { "a & b", SYNTAX, 2, "use '&&'" },
    { "comm !~ \"k*\"", SYNTAX, 5, "'!~' is not an operator: write !(comm ~ …)" },
    { "pid == 1 | cpu == 1", SYNTAX, 9, "use '||'" },
    { "\"pid\" == 1", SYNTAX, 0, "expected a field name" },
    { "1 == pid", SYNTAX, 0, "expected a field name" },
    { "pid", SYNTAX, 0, "'pid' is a field" },
    { "prev_pid", SYNTAX, 0, "'prev_pid' is a field" },
    { "42", SYNTAX, 0, "not the number '42'" },
    { "pid ~ 1*", BAD_OPERATOR, 4, "'~' matches text, but pid is a number" },
    { "prev_pid =~ 1", BAD_OPERATOR, 9, "prev_pid is a number" },
    { "args == 3", BAD_OPERATOR, 0, "array" },
    { "errno == ENOENTX", BAD_VALUE, 9, "did you mean 'ENOENT'?" },
    { "prev_state == Q", BAD_VALUE, 14, "not a task state" },
    { "cpu == 10us", BAD_VALUE, 7, "without the unit 'us'" },
    { "duration > 4k", BAD_VALUE, 11, "duration is a time" },
    { "time > 10xs", BAD_VALUE, 7, "unknown unit 'xs'" },
    { "time > 1.5", BAD_VALUE, 7, "not a whole number" },
    { "time > 99999999999999999999", BAD_VALUE, 7, "too large" },
    { "pid == bash", BAD_VALUE, 7, "pid takes a number, not 'bash'" },
    { "prev_pid == next_pid", BAD_VALUE, 12, "comparing two fields" },
    { "flags == BOGUS", BAD_VALUE, 9, "one of READ, WRITE, CREAT" },
    { "comm =~ \"(\"", BAD_VALUE, 8, "not a valid regular expression" },
    { "syscall == opnat", BAD_VALUE, 11, "did you mean 'openat'?" },
    { "sched_swich", UNKNOWN_EVENT, 0, "did you mean 'sched:sched_switch'?" },
    { "event == sched_swtch", UNKNOWN_EVENT, 9, "did you mean 'sched:sched_switch'?" },
    { "sched", UNKNOWN_EVENT, 0, "did you mean 'sched:*'?" },
    { "cpu == 1 && nosuch_event", UNKNOWN_EVENT, 12, "no event type 'nosuch_event'" },
    { "sched_wakeup.nope == 1", UNKNOWN_FIELD, 13, "have no field 'nope'" },
    { "sched_wakeup.prioo == 1", UNKNOWN_FIELD, 13, "did you mean 'prio'?" },
    { "nosuch.pid == 1", UNKNOWN_EVENT, 0, "no event type 'nosuch'" },
    { "sched_wakeup. == 1", SYNTAX, 0, "EVENT.FIELD" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoFilter) f = seismo_filter_compile (trace, invalid[i].expr, &error);
      gsize start = 99, end = 0;

      if (f != NULL)
        g_error ("'%s' should not compile", invalid[i].expr);
      g_assert_error (error, SEISMO_FILTER_ERROR, (gint) invalid[i].code);
      if (!strstr (error->message, invalid[i].message))
        g_error ("'%s': message '%s' lacks '%s'", invalid[i].expr, error->message,
                 invalid[i].message);
      g_assert_true (seismo_filter_error_get_range (error, &start, &end));
      if (start != invalid[i].column)
        g_error ("'%s': error at column %" G_GSIZE_FORMAT ", expected %" G_GSIZE_FORMAT " (%s)",
                 invalid[i].expr, start, invalid[i].column, error->message);
      g_assert_cmpuint (seismo_filter_error_column (error), ==, start);
      g_assert_cmpuint (end, >=, start);
      g_assert_cmpuint (end, <=, strlen (invalid[i].expr));
    }

  /* Deep nesting is refused, not a stack overflow. */
  {
    g_autoptr(GString) deep = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    for (guint i = 0; i < 5000; i++)
      g_string_append_c (deep, '(');
    g_string_append (deep, "cpu == 1");
    for (guint i = 0; i < 5000; i++)
      g_string_append_c (deep, ')');
    g_assert_null (seismo_filter_compile (trace, deep->str, &error));
    g_assert_error (error, SEISMO_FILTER_ERROR, SEISMO_FILTER_ERROR_SYNTAX);
    g_assert_nonnull (strstr (error->message, "too deeply"));
  }
  /* An error of another domain has no range. */
  {
    g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "x");

    g_assert_false (seismo_filter_error_get_range (other, NULL, NULL));
    g_assert_cmpuint (seismo_filter_error_column (other), ==, 0);
  }
  /* Copies keep the range (GTask and g_propagate_error may copy). */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GError) copy = NULL;
    gsize start;

    g_assert_null (seismo_filter_compile (trace, "cpu == 1 && pdi == 3", &error));
    copy = g_error_copy (error);
    g_assert_true (seismo_filter_error_get_range (copy, &start, NULL));
    g_assert_cmpuint (start, ==, 12);
  }
}

static void
test_quantity (void)
{
  static const struct {
    const char *text;
    guint64     value;
  } ok[] = {
    { "0", 0 }, { "1500", 1500 }, { "10us", 10000 }, { "10µs", 10000 }, { "1.5ms", 1500000 },
    { "2s", 2000000000 }, { "0.5us", 500 }, { ".5ms", 500000 }, { "4k", 4096 }, { "4K", 4096 },
    { "1M", 1048576 }, { "1.5M", 1572864 }, { "2G", 2147483648 }, { "0x10", 16 }, { "3ns", 3 },
    { "18446744073709551615", G_MAXUINT64 },
  };
  static const char *const bad[] = {
    "", "x", "10xs", "1.5", "-3", "0x", "0xg", "18446744073709551616", "1e3",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      guint64 v = 0;
      g_autoptr(GError) error = NULL;

      g_assert_true (seismo_filter_parse_quantity (ok[i].text, &v, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (v, ==, ok[i].value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      guint64 v;
      g_autoptr(GError) error = NULL;

      if (seismo_filter_parse_quantity (bad[i], &v, &error))
        g_error ("'%s' should not parse", bad[i]);
      g_assert_nonnull (error);
    }
}

static void
test_tokenize (void)
{
  const char *text = "!(pid == 12 || comm ~ \"k*\") && sched:* && ret < -ENOENT && x == \"open";
  static const struct {
    SeismoFilterTokenKind kind;
    const char           *text;
  } expected[] = {
    { SEISMO_FILTER_TOKEN_LOGIC, "!" }, { SEISMO_FILTER_TOKEN_PAREN, "(" },
    { SEISMO_FILTER_TOKEN_FIELD, "pid" }, { SEISMO_FILTER_TOKEN_COMPARE, "==" },
    { SEISMO_FILTER_TOKEN_NUMBER, "12" }, { SEISMO_FILTER_TOKEN_LOGIC, "||" },
    { SEISMO_FILTER_TOKEN_FIELD, "comm" }, { SEISMO_FILTER_TOKEN_COMPARE, "~" },
    { SEISMO_FILTER_TOKEN_STRING, "\"k*\"" }, { SEISMO_FILTER_TOKEN_PAREN, ")" },
    { SEISMO_FILTER_TOKEN_LOGIC, "&&" }, { SEISMO_FILTER_TOKEN_EVENT, "sched:*" },
    { SEISMO_FILTER_TOKEN_LOGIC, "&&" }, { SEISMO_FILTER_TOKEN_FIELD, "ret" },
    { SEISMO_FILTER_TOKEN_COMPARE, "<" }, { SEISMO_FILTER_TOKEN_WORD, "-ENOENT" },
    { SEISMO_FILTER_TOKEN_LOGIC, "&&" }, { SEISMO_FILTER_TOKEN_FIELD, "x" },
    { SEISMO_FILTER_TOKEN_COMPARE, "==" }, { SEISMO_FILTER_TOKEN_ERROR, "\"open" },
  };
  g_autoptr(GArray) tokens = seismo_filter_tokenize (text);

  g_assert_cmpuint (tokens->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < tokens->len; i++)
    {
      SeismoFilterToken *t = &g_array_index (tokens, SeismoFilterToken, i);
      g_autofree char *piece = g_strndup (text + t->start, t->end - t->start);

      g_assert_cmpstr (piece, ==, expected[i].text);
      g_assert_cmpint (t->kind, ==, expected[i].kind);
    }
  g_clear_pointer (&tokens, g_array_unref);
  tokens = seismo_filter_tokenize ("");
  g_assert_cmpuint (tokens->len, ==, 0);
}

static gboolean
has_candidate (GPtrArray                 *cands,
               SeismoFilterCandidateKind  kind,
               const char                *text)
{
  for (guint i = 0; i < cands->len; i++)
    {
      SeismoFilterCandidate *c = g_ptr_array_index (cands, i);

      if (c->kind == kind && strcmp (c->text, text) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_complete (void)
{
  static const struct {
    const char               *text;
    gssize                    cursor;   /* -1: the end */
    SeismoFilterCandidateKind kind;
    const char               *present;
    const char               *absent;
    gsize                     replace_start;
  } cases[] = {
    { "", -1, SEISMO_FILTER_CANDIDATE_FIELD, "pid", NULL, 0 },
    { "pi", -1, SEISMO_FILTER_CANDIDATE_FIELD, "pid", "cpu", 0 },
    { "cpu == 1 && prev_s", -1, SEISMO_FILTER_CANDIDATE_FIELD, "prev_state", "pid", 12 },
    { "sched:sched_s", -1, SEISMO_FILTER_CANDIDATE_EVENT, "sched:sched_switch",
      "sched:sched_wakeup", 0 },
    { "sched_w", -1, SEISMO_FILTER_CANDIDATE_EVENT, "sched:sched_wakeup", NULL, 0 },
    { "sch", -1, SEISMO_FILTER_CANDIDATE_EVENT, "sched:*", NULL, 0 },
    { "event == ", -1, SEISMO_FILTER_CANDIDATE_EVENT, "irq:irq_handler_entry", NULL, 9 },
    { "prev_state == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "S", NULL, 14 },
    { "errno == ENO", -1, SEISMO_FILTER_CANDIDATE_VALUE, "ENOENT", "EAGAIN", 9 },
    { "ret == -EN", -1, SEISMO_FILTER_CANDIDATE_VALUE, "-ENOENT", NULL, 7 },
    { "syscall == op", -1, SEISMO_FILTER_CANDIDATE_VALUE, "openat", "read", 11 },
    { "comm == wor", -1, SEISMO_FILTER_CANDIDATE_VALUE, "worker-1", "exec-1", 8 },
    { "comm == \"wor", -1, SEISMO_FILTER_CANDIDATE_VALUE, "\"worker-1\"", NULL, 8 },
    { "flags == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "CREAT", NULL, 9 },
    { "kind == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "TWO", NULL, 8 },
    { "label == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "label-1", NULL, 9 },
    { "name == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "virtio0-input", NULL, 8 },
    { "sched_wakeup.target_cpu == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "2", NULL, 27 },
    { "pid == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "1003", NULL, 7 },
    { "cpu == ", -1, SEISMO_FILTER_CANDIDATE_VALUE, "3", NULL, 7 },
    { "pid ", -1, SEISMO_FILTER_CANDIDATE_OPERATOR, "==", NULL, 4 },
    { "pid == 1 ", -1, SEISMO_FILTER_CANDIDATE_OPERATOR, "&&", "==", 9 },
    { "pid == 1 && co", 13, SEISMO_FILTER_CANDIDATE_FIELD, "comm", NULL, 12 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize cursor = cases[i].cursor < 0 ? strlen (cases[i].text) : (gsize) cases[i].cursor;
      gsize rs = 999, re = 999;
      g_autoptr(GPtrArray) cands = seismo_filter_complete (trace, cases[i].text, cursor, &rs, &re);

      if (!has_candidate (cands, cases[i].kind, cases[i].present))
        g_error ("completing '%s': no '%s' among %u candidates", cases[i].text, cases[i].present,
                 cands->len);
      if (cases[i].absent && has_candidate (cands, cases[i].kind, cases[i].absent))
        g_error ("completing '%s': '%s' should not be offered", cases[i].text, cases[i].absent);
      g_assert_cmpuint (rs, ==, cases[i].replace_start);
      g_assert_cmpuint (re, >=, cursor);
    }
  /* The cursor inside a word replaces the whole word. */
  {
    gsize rs, re;
    g_autoptr(GPtrArray) cands = seismo_filter_complete (trace, "prev_stat == S", 4, &rs, &re);

    g_assert_cmpuint (rs, ==, 0);
    g_assert_cmpuint (re, ==, 9);
    g_assert_true (has_candidate (cands, SEISMO_FILTER_CANDIDATE_FIELD, "prev_state"));
  }
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  setup_trace ();
  g_test_add_func ("/filter/basics", test_basics);
  g_test_add_func ("/filter/valid", test_valid);
  g_test_add_func ("/filter/invalid", test_invalid);
  g_test_add_func ("/filter/quantity", test_quantity);
  g_test_add_func ("/filter/atoms", test_atoms);
  g_test_add_func ("/filter/random", test_random);
  g_test_add_func ("/filter/ranges-and-threads", test_ranges_and_threads);
  g_test_add_func ("/filter/cancel", test_cancel);
  g_test_add_func ("/filter/tokenize", test_tokenize);
  g_test_add_func ("/filter/complete", test_complete);
  ret = g_test_run ();

  for (guint a = 0; truth && a < G_N_ELEMENTS (atoms); a++)
    g_free (truth[a]);
  g_free (truth);
  g_hash_table_unref (span_of);
  g_object_unref (trace);
  return ret;
}

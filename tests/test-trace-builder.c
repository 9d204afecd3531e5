/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "seismo-skipped.h"
#include "seismo-trace-builder.h"
#include "seismo-varint.h"
#include "seismo-test-util.h"

static const SeismoSymbol open_flags[] = { { 0x40, "O_CREAT" }, { 0x1, "O_WRONLY" }, { 0x200, "O_TRUNC" } };
static const SeismoSymbol whence[] = { { 0, "SEEK_SET" }, { 1, "SEEK_CUR" } };

/* Values at every varint width boundary read back as pushed, alone and in arrays (the builder
 * encodes them without seismo_varint_put's loop). */
static void
test_varint_widths (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const SeismoFieldInfo fields[] = {
    { "u", SEISMO_FIELD_UINT, 8, 0 },
    { "i", SEISMO_FIELD_INT, 8, 0 },
    { "a", SEISMO_FIELD_UINT_ARRAY, 8, 0 },
  };
  guint type = seismo_trace_builder_add_event_type (b, "test", "widths", fields, G_N_ELEMENTS (fields), NULL);
  g_autoptr(SeismoTrace) trace = NULL;
  guint64 values[129];
  guint n = 0;

  values[n++] = 0;
  for (guint k = 1; k < 64; k++)
    {
      values[n++] = (G_GUINT64_CONSTANT (1) << k) - 1;
      values[n++] = G_GUINT64_CONSTANT (1) << k;
    }
  values[n++] = G_MAXUINT64;
  values[n++] = G_GUINT64_CONSTANT (0x00ff00ff00ff00ff);
  for (guint k = 0; k < n; k++)
    {
      seismo_trace_builder_begin_event (b, k, 0, 1, type);
      seismo_trace_builder_push_uint (b, values[k]);
      /* Negated in unsigned arithmetic: -(2^63) has no signed negation. */
      seismo_trace_builder_push_int (b, (gint64) (0 - values[k]));
      seismo_trace_builder_push_uint_array (b, values, k + 1);
      seismo_trace_builder_end_event (b);
    }
  trace = seismo_trace_builder_finish (b);
  for (guint k = 0; k < n; k++)
    {
      SeismoValue v[3];
      const guint8 *p;

      g_assert_cmpuint (seismo_trace_event_fields (trace, k, v, 3), ==, 3);
      g_assert_cmpuint (v[0].u, ==, values[k]);
      g_assert_cmpint (v[1].i, ==, (gint64) (0 - values[k]));
      g_assert_cmpuint (v[2].u, ==, k + 1);
      p = v[2].data;
      for (guint e = 0; e <= k; e++)
        {
          guint64 got = 0;

          p = seismo_varint_get (p, v[2].data + v[2].len, &got);
          g_assert_nonnull (p);
          g_assert_cmpuint (got, ==, values[e]);
        }
      g_assert_true (p == v[2].data + v[2].len);
    }
}

/* One event both ways: by field pushes (the reference) and by seismo_trace_builder_add_event(). */
static void
add_both (SeismoTraceBuilder *pushed,
          SeismoTraceBuilder *added,
          guint               type,
          guint64             ts,
          gint32              tid,
          const guint64      *values,
          guint               n_values)
{
  const SeismoEventType *t = seismo_trace_builder_get_event_type (pushed, type);
  guint k = 0;

  seismo_trace_builder_begin_event (pushed, ts, tid % 3, tid, type);
  for (; k < n_values && k < t->n_fields && t->fields[k].type != SEISMO_FIELD_UINT_ARRAY; k++)
    if (t->fields[k].type == SEISMO_FIELD_INT)
      seismo_trace_builder_push_int (pushed, (gint64) values[k]);
    else
      seismo_trace_builder_push_uint (pushed, values[k]);
  if (k < n_values && k < t->n_fields)
    seismo_trace_builder_push_uint_array (pushed, values + k, n_values - k);
  seismo_trace_builder_end_event (pushed);

  seismo_trace_builder_add_event (added, ts, tid % 3, tid, type, values, n_values);
}

/* A whole event at once stores the bytes the pushes store: numbers, ints zigzagged, a last uint
 * array taking the values left (cut at the payload bound), fields left out as zeros, and types it
 * does not take whole (strings, too many fields) through the pushes. */
static void
test_add_event (void)
{
  const SeismoFieldInfo sys_enter[] = { { "id", SEISMO_FIELD_UINT, 8, 0 },
                                        { "args", SEISMO_FIELD_UINT_ARRAY, 8, 0 } };
  const SeismoFieldInfo sys_exit[] = { { "id", SEISMO_FIELD_UINT, 8, 0 },
                                       { "ret", SEISMO_FIELD_INT, 8, 0 } };
  const SeismoFieldInfo mixed[] = { { "i", SEISMO_FIELD_INT, 4, 0 },
                                    { "p", SEISMO_FIELD_POINTER, 8, 0 },
                                    { "u", SEISMO_FIELD_UINT, 2, 0 } };
  const SeismoFieldInfo named[] = { { "comm", SEISMO_FIELD_STRING, 16, 0 },
                                    { "pid", SEISMO_FIELD_UINT, 4, 0 } };
  SeismoFieldInfo many[18], last_int[16];
  SeismoTraceBuilder *builders[2] = { seismo_trace_builder_new (), seismo_trace_builder_new () };
  g_autoptr(SeismoTrace) pushed = NULL;
  g_autoptr(SeismoTrace) added = NULL;
  g_autofree guint64 *big = g_new (guint64, 8000);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint types[6];
  guint64 values[20];
  guint64 ts = 1000;

  for (guint f = 0; f < G_N_ELEMENTS (many); f++)
    {
      char *name = g_strdup_printf ("f%u", f);

      g_ptr_array_add (names, name);
      many[f] = (SeismoFieldInfo) { name, f % 2 ? SEISMO_FIELD_INT : SEISMO_FIELD_UINT, 8, 0 };
      if (f < G_N_ELEMENTS (last_int))
        last_int[f] = (SeismoFieldInfo) { name, f == 15 ? SEISMO_FIELD_INT : SEISMO_FIELD_UINT,
                                          8, 0 };
    }
  for (guint i = 0; i < 8000; i++)
    big[i] = G_GUINT64_CONSTANT (0x7fff71a85390) + i;
  for (guint b = 0; b < 2; b++)
    {
      types[0] = seismo_trace_builder_add_event_type (builders[b], "raw_syscalls", "sys_enter",
                                                      sys_enter, 2, NULL);
      types[1] = seismo_trace_builder_add_event_type (builders[b], "raw_syscalls", "sys_exit",
                                                      sys_exit, 2, NULL);
      types[2] = seismo_trace_builder_add_event_type (builders[b], "test", "mixed", mixed, 3, NULL);
      types[3] = seismo_trace_builder_add_event_type (builders[b], "test", "named", named, 2, NULL);
      types[4] = seismo_trace_builder_add_event_type (builders[b], "test", "many", many,
                                                      G_N_ELEMENTS (many), NULL);
      types[5] = seismo_trace_builder_add_event_type (builders[b], "test", "last_int", last_int,
                                                      G_N_ELEMENTS (last_int), NULL);
    }

  for (guint r = 0; r < 2000; r++)
    {
      for (guint k = 0; k < G_N_ELEMENTS (values); k++)
        {
          guint bits = g_test_rand_int_range (0, 65);

          values[k] = ((guint64) g_test_rand_int () << 32) | (guint32) g_test_rand_int ();
          if (bits < 64)
            values[k] = bits ? values[k] & ((G_GUINT64_CONSTANT (1) << bits) - 1) : 0;
        }
      add_both (builders[0], builders[1], types[0], ts++, 10 + r % 7, values, 7);
      add_both (builders[0], builders[1], types[1], ts++, 10 + r % 7, values, 2);
      add_both (builders[0], builders[1], types[2], ts++, 20, values, 3);
      add_both (builders[0], builders[1], types[5], ts++, 21, values, 16);
      add_both (builders[0], builders[1], types[4], ts++, 22, values, r % 19);
    }
  /* Fewer values than fields: the rest are zeros, an array left out is empty. */
  add_both (builders[0], builders[1], types[0], ts++, 1, values, 1);
  add_both (builders[0], builders[1], types[0], ts++, 1, values, 0);
  add_both (builders[0], builders[1], types[2], ts++, 1, values, 1);
  add_both (builders[0], builders[1], types[3], ts++, 1, values, 0);
  /* An array past the event's payload bound is cut where push_uint_array cuts it. */
  add_both (builders[0], builders[1], types[0], ts++, 1, big, 8000);
  /* Time going back, as unsorted input does. */
  add_both (builders[0], builders[1], types[1], 5, 1, values, 2);

  pushed = seismo_trace_builder_finish (builders[0]);
  added = seismo_trace_builder_finish (builders[1]);
  g_assert_cmpuint (seismo_trace_get_n_events (added), ==, seismo_trace_get_n_events (pushed));
  for (SeismoEventId e = 0; e < seismo_trace_get_n_events (pushed); e++)
    {
      gsize want_len = 0, got_len = 0;
      const guint8 *want = seismo_trace_event_payload (pushed, e, &want_len);
      const guint8 *got = seismo_trace_event_payload (added, e, &got_len);

      g_assert_cmpuint (seismo_trace_event_time (added, e), ==,
                        seismo_trace_event_time (pushed, e));
      g_assert_cmpuint (seismo_trace_event_cpu (added, e), ==, seismo_trace_event_cpu (pushed, e));
      g_assert_cmpint (seismo_trace_event_task (added, e)->tid, ==,
                       seismo_trace_event_task (pushed, e)->tid);
      g_assert_cmpuint (seismo_trace_event_type (added, e)->id, ==,
                        seismo_trace_event_type (pushed, e)->id);
      g_assert_cmpmem (got, got_len, want, want_len);
    }
}

/* A uint array before other fields is not a shape add_event takes whole: its values go through
 * push_numbers, which says a number went to the array (stored as an empty array). */
static void
test_add_event_array_first (void)
{
  const SeismoFieldInfo fields[] = { { "args", SEISMO_FIELD_UINT_ARRAY, 8, 0 },
                                     { "after", SEISMO_FIELD_UINT, 8, 0 } };
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type = seismo_trace_builder_add_event_type (b, "test", "array_first", fields, 2, NULL);
  const guint64 values[2] = { 5, 300 };
  const guint8 want[] = { 0x00, 0xac, 0x02 };
  g_autoptr(SeismoTrace) trace = NULL;
  const guint8 *got;
  gsize len = 0;

  g_test_expect_message ("seismo-data", G_LOG_LEVEL_CRITICAL,
                         "field 0 is a uint[]; a number was pushed");
  seismo_trace_builder_add_event (b, 1, 0, 1, type, values, 2);
  g_test_assert_expected_messages ();
  trace = seismo_trace_builder_finish (b);
  got = seismo_trace_event_payload (trace, 0, &len);
  g_assert_cmpmem (got, len, want, sizeof want);
}

static void
test_field_types (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const SeismoFieldInfo fields[] = {
    { "seq", SEISMO_FIELD_UINT, 8, 0 },
    { "neg", SEISMO_FIELD_INT, 8, 0 },
    { "ptr", SEISMO_FIELD_POINTER, 8, 0 },
    { "name", SEISMO_FIELD_STRING, 0, 0 },
    { "raw", SEISMO_FIELD_BYTES, 0, 0 },
    { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
    { "flags", SEISMO_FIELD_UINT, 4, SEISMO_DISPLAY_FLAGS, open_flags, G_N_ELEMENTS (open_flags) },
    { "whence", SEISMO_FIELD_UINT, 4, SEISMO_DISPLAY_SYMBOL, whence, G_N_ELEMENTS (whence) },
    { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO },
    { "state", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_SCHED_STATE },
    { "nr", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
    { "dfd", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_FD },
    { "sig", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_SIGNAL },
  };
  const guint8 raw[] = { 0, 1, 2, 0xff };
  const guint64 args[] = { 3, 0x7ffd1234, G_MAXUINT64 };
  guint type = seismo_trace_builder_add_event_type (b, "test", "all", fields, G_N_ELEMENTS (fields), NULL);
  g_autoptr(SeismoTrace) trace = NULL;
  SeismoValue v[G_N_ELEMENTS (fields)];
  g_autofree char *text = NULL;

  g_assert_cmpuint (seismo_trace_builder_add_event_type (b, "test", "all", fields, 1, NULL), ==, type);
  seismo_trace_builder_begin_event (b, 100, 1, 42, type);
  seismo_trace_builder_push_uint (b, 7);
  seismo_trace_builder_push_int (b, G_MININT64);
  seismo_trace_builder_push_uint (b, 0xffffffff81000000ull);
  seismo_trace_builder_push_string (b, "/etc/passwd");
  seismo_trace_builder_push_bytes (b, raw, sizeof raw);
  seismo_trace_builder_push_uint_array (b, args, G_N_ELEMENTS (args));
  seismo_trace_builder_push_uint (b, 0x241 | 0x8000);
  seismo_trace_builder_push_uint (b, 1);
  seismo_trace_builder_push_int (b, -2);
  seismo_trace_builder_push_int (b, 0x1 | 0x100);
  seismo_trace_builder_push_uint (b, 257);
  seismo_trace_builder_push_int (b, -100);
  seismo_trace_builder_push_int (b, 11);
  seismo_trace_builder_end_event (b);
  /* Missing fields read as zero. */
  seismo_trace_builder_begin_event (b, 200, 0, 42, type);
  seismo_trace_builder_push_uint (b, 8);
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  trace = seismo_trace_builder_finish (b);

  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, 2);
  g_assert_cmpuint (seismo_trace_event_fields (trace, 0, v, G_N_ELEMENTS (v)), ==, G_N_ELEMENTS (fields));
  g_assert_cmpuint (v[0].u, ==, 7);
  g_assert_cmpint (v[1].i, ==, G_MININT64);
  g_assert_cmpuint (v[2].u, ==, 0xffffffff81000000ull);
  g_assert_cmpstr (v[3].str, ==, "/etc/passwd");
  g_assert_cmpmem (v[4].data, v[4].len, raw, sizeof raw);
  g_assert_cmpuint (v[5].u, ==, 3);
  g_assert_cmpint (v[8].i, ==, -2);

  text = seismo_trace_event_format (trace, 0);
  g_assert_nonnull (strstr (text, "ptr=0xffffffff81000000"));
  g_assert_nonnull (strstr (text, "args=(3, 7ffd1234, ffffffffffffffff)"));
  g_assert_nonnull (strstr (text, "flags=O_CREAT|O_WRONLY|O_TRUNC|0x8000"));
  g_assert_nonnull (strstr (text, "whence=SEEK_CUR"));
  g_assert_nonnull (strstr (text, "ret=-1 ENOENT ("));
  g_assert_nonnull (strstr (text, "state=S+"));
  g_assert_nonnull (strstr (text, "nr=openat"));
  g_assert_nonnull (strstr (text, "dfd=AT_FDCWD"));
  g_assert_nonnull (strstr (text, "sig=SIGSEGV"));
  g_assert_nonnull (strstr (text, "raw=000102ff"));

  g_assert_cmpuint (seismo_trace_event_fields (trace, 1, v, G_N_ELEMENTS (v)), ==, G_N_ELEMENTS (fields));
  g_assert_cmpuint (v[0].u, ==, 8);
  g_assert_cmpstr (v[3].str, ==, "");
  g_assert_cmpuint (v[4].len, ==, 0);
  g_assert_true (seismo_trace_event_field_by_name (trace, 0, "name", &v[0]));
  g_assert_cmpstr (v[0].str, ==, "/etc/passwd");
  g_assert_false (seismo_trace_event_field_by_name (trace, 0, "nope", &v[0]));
}

static void
test_big_bytes_cut (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const SeismoFieldInfo fields[] = { { "raw", SEISMO_FIELD_BYTES, 0, 0 }, { "after", SEISMO_FIELD_UINT, 8, 0 } };
  guint type = seismo_trace_builder_add_event_type (b, "test", "big", fields, 2, NULL);
  g_autofree guint8 *big = g_malloc0 (1 << 20);
  g_autoptr(SeismoTrace) trace = NULL;
  SeismoValue v[2];

  seismo_trace_builder_begin_event (b, 1, 0, 1, type);
  seismo_trace_builder_push_bytes (b, big, 1 << 20);
  seismo_trace_builder_push_uint (b, 99);
  seismo_trace_builder_end_event (b);
  trace = seismo_trace_builder_finish (b);
  g_assert_cmpuint (seismo_trace_event_fields (trace, 0, v, 2), ==, 2);
  g_assert_cmpuint (v[0].len, <, 65536);
  g_assert_cmpuint (v[1].u, ==, 99);
}

static void
test_sort_and_blocks (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const SeismoFieldInfo fields[] = { { "seq", SEISMO_FIELD_UINT, 8, 0 }, { "tag", SEISMO_FIELD_STRING, 0, 0 } };
  guint type = seismo_trace_builder_add_event_type (b, "test", "seq", fields, 2, NULL);
  const guint n = 200000;
  g_autoptr(SeismoTrace) trace = NULL;
  const guint64 *ts;

  /* Two interleaved "CPU streams" appended one after the other, with equal times between them. */
  for (guint cpu = 0; cpu < 2; cpu++)
    for (guint i = cpu; i < n; i += 2)
      {
        char tag[16];

        g_snprintf (tag, sizeof tag, "t%u", i % 1000);
        seismo_trace_builder_begin_event (b, 1000 + i / 2 * 10 + cpu, cpu, 10 + cpu, type);
        seismo_trace_builder_push_uint (b, i);
        seismo_trace_builder_push_string (b, tag);
        seismo_trace_builder_end_event (b);
      }
  trace = seismo_trace_builder_finish (b);
  ts = seismo_trace_get_times (trace);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, n);
  g_assert_cmpuint (seismo_trace_get_n_cpus (trace), ==, 2);
  for (guint i = 0; i < n; i++)
    {
      SeismoValue v[2];
      char tag[16];

      g_assert_cmpuint (seismo_trace_event_fields (trace, i, v, 2), ==, 2);
      g_assert_cmpuint (v[0].u, ==, i);
      g_snprintf (tag, sizeof tag, "t%u", i % 1000);
      g_assert_cmpstr (v[1].str, ==, tag);
      g_assert_cmpuint (seismo_trace_event_cpu (trace, i), ==, i % 2);
      g_assert_cmpint (seismo_trace_event_task (trace, i)->tid, ==, 10 + (gint) (i % 2));
      if (i)
        g_assert_cmpuint (ts[i - 1], <=, ts[i]);
    }
}

static void
test_tasks (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type = seismo_trace_builder_add_event_type (b, "test", "tick", NULL, 0, NULL);
  g_autoptr(SeismoTrace) trace = NULL;
  SeismoTaskId first, second;

  seismo_trace_builder_set_task_comm (b, 50, "bash", 10);
  seismo_trace_builder_set_task_pid (b, 50, 50);
  seismo_trace_builder_begin_event (b, 10, 0, 50, type);
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_set_task_comm (b, 50, "ls", 20);
  seismo_trace_builder_begin_event (b, 30, 0, 50, type);
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_task_exited (b, 50, 40);
  /* Not a new process: still the same task until a fork reuses the tid. */
  seismo_trace_builder_begin_event (b, 41, 0, 50, type);
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_task_new (b, 50, 100);
  seismo_trace_builder_set_task_comm (b, 50, "cat", 100);
  seismo_trace_builder_begin_event (b, 110, 1, 50, type);
  seismo_trace_builder_end_event (b);
  trace = seismo_trace_builder_finish (b);

  g_assert_cmpuint (seismo_trace_get_n_tasks (trace), ==, 2);
  first = seismo_trace_get_tasks (trace)[0];
  second = seismo_trace_get_tasks (trace)[3];
  g_assert_cmpuint (first, ==, seismo_trace_get_tasks (trace)[2]);
  g_assert_cmpuint (first, !=, second);
  g_assert_cmpstr (seismo_trace_task_comm_at (trace, first, 15), ==, "bash");
  g_assert_cmpstr (seismo_trace_task_comm_at (trace, first, 5), ==, "bash");
  g_assert_cmpstr (seismo_trace_task_comm_at (trace, first, 25), ==, "ls");
  g_assert_cmpstr (seismo_trace_task_comm_at (trace, second, 200), ==, "cat");
  g_assert_cmpstr (seismo_trace_get_string (trace, seismo_trace_get_task (trace, first)->comm), ==, "ls");
  g_assert_cmpint (seismo_trace_get_task (trace, first)->pid, ==, 50);
  g_assert_cmpuint (seismo_trace_find_task (trace, 50, 30), ==, first);
  g_assert_cmpuint (seismo_trace_find_task (trace, 50, 150), ==, second);
  g_assert_cmpuint (seismo_trace_find_task (trace, 51, 150), ==, SEISMO_NO_TASK);
}

/* A hand-made scheduling story with known derived intervals. */
static void
test_derived (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  const SeismoFieldInfo sw[] = {
    { "prev_comm", SEISMO_FIELD_STRING }, { "prev_pid", SEISMO_FIELD_INT }, { "prev_prio", SEISMO_FIELD_INT },
    { "prev_state", SEISMO_FIELD_INT }, { "next_comm", SEISMO_FIELD_STRING }, { "next_pid", SEISMO_FIELD_INT },
    { "next_prio", SEISMO_FIELD_INT },
  };
  const SeismoFieldInfo wk[] = { { "comm", SEISMO_FIELD_STRING }, { "pid", SEISMO_FIELD_INT },
                                 { "prio", SEISMO_FIELD_INT }, { "target_cpu", SEISMO_FIELD_INT } };
  const SeismoFieldInfo en[] = { { "dfd", SEISMO_FIELD_INT }, { "filename", SEISMO_FIELD_STRING } };
  const SeismoFieldInfo ex[] = { { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO } };
  const SeismoFieldInfo irq[] = { { "irq", SEISMO_FIELD_INT }, { "name", SEISMO_FIELD_STRING } };
  guint t_sw = seismo_trace_builder_add_event_type (b, "sched", "sched_switch", sw, 7, NULL);
  guint t_wk = seismo_trace_builder_add_event_type (b, "sched", "sched_waking", wk, 4, NULL);
  guint t_en = seismo_trace_builder_add_event_type (b, "syscalls", "sys_enter_openat", en, 2, NULL);
  guint t_ex = seismo_trace_builder_add_event_type (b, "syscalls", "sys_exit_openat", ex, 1, NULL);
  guint t_rd = seismo_trace_builder_add_event_type (b, "syscalls", "sys_enter_read", en, 2, NULL);
  guint t_ii = seismo_trace_builder_add_event_type (b, "irq", "irq_handler_entry", irq, 2, NULL);
  guint t_io = seismo_trace_builder_add_event_type (b, "irq", "irq_handler_exit", irq, 1, NULL);
  g_autoptr(SeismoTrace) trace = NULL;
  const SeismoSyscallSpan *spans;
  const SeismoInterval *iv;
  gsize n;
  gint64 ret;

#define SWITCH(t, cpu, prev, next) G_STMT_START { \
    seismo_trace_builder_begin_event (b, t, cpu, prev, t_sw); \
    seismo_trace_builder_push_string (b, "p"); seismo_trace_builder_push_int (b, prev); \
    seismo_trace_builder_push_int (b, 120); seismo_trace_builder_push_int (b, 1); \
    seismo_trace_builder_push_string (b, "n"); seismo_trace_builder_push_int (b, next); \
    seismo_trace_builder_push_int (b, 120); seismo_trace_builder_end_event (b); } G_STMT_END

  SWITCH (100, 0, 7, 0);                                  /* ev0: 7 ran since before the trace */
  seismo_trace_builder_begin_event (b, 150, 1, 0, t_wk);  /* ev1: waking 8 */
  seismo_trace_builder_push_string (b, "b"); seismo_trace_builder_push_int (b, 8);
  seismo_trace_builder_end_event (b);
  SWITCH (200, 0, 0, 8);                                  /* ev2: 8 runs on cpu 0: wakeup latency 50 */
  seismo_trace_builder_begin_event (b, 210, 0, 8, t_en);  /* ev3 */
  seismo_trace_builder_push_int (b, -100); seismo_trace_builder_push_string (b, "/nope");
  seismo_trace_builder_end_event (b);
  seismo_trace_builder_begin_event (b, 220, 0, 8, t_ii);  /* ev4 */
  seismo_trace_builder_push_int (b, 24); seismo_trace_builder_end_event (b);
  seismo_trace_builder_begin_event (b, 225, 0, 8, t_io);  /* ev5 */
  seismo_trace_builder_push_int (b, 24); seismo_trace_builder_end_event (b);
  seismo_trace_builder_begin_event (b, 240, 0, 8, t_ex);  /* ev6: openat = -ENOENT after 30 */
  seismo_trace_builder_push_int (b, -2); seismo_trace_builder_end_event (b);
  seismo_trace_builder_begin_event (b, 250, 0, 8, t_rd);  /* ev7: read never returns */
  seismo_trace_builder_end_event (b);
  SWITCH (300, 0, 8, 0);                                  /* ev8: 8 ran 200..300 */
  SWITCH (400, 1, 0, 9);                                  /* ev9: 9 runs on cpu 1 until the end */
  seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, "x86_64");
  trace = seismo_trace_builder_finish (b);

  spans = seismo_trace_get_syscall_spans (trace, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (spans[0].enter, ==, 3);
  g_assert_cmpuint (spans[0].exit, ==, 6);
  g_assert_cmpstr (seismo_trace_get_syscall_name (trace, spans[0].syscall), ==, "openat");
  g_assert_true (seismo_trace_syscall_span_ret (trace, &spans[0], &ret));
  g_assert_cmpint (ret, ==, -2);
  g_assert_cmpuint (spans[1].enter, ==, 7);
  g_assert_cmpuint (spans[1].exit, ==, SEISMO_NO_EVENT);
  g_assert_cmpstr (seismo_trace_get_syscall_name (trace, spans[1].syscall), ==, "read");
  g_assert_false (seismo_trace_syscall_span_ret (trace, &spans[1], &ret));

  iv = seismo_trace_get_cpu_runs (trace, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (iv[0].start, ==, SEISMO_NO_EVENT);
  g_assert_cmpuint (iv[0].end, ==, 0);
  g_assert_cmpint (seismo_trace_get_task (trace, iv[0].task)->tid, ==, 7);
  g_assert_cmpuint (iv[1].start, ==, 2);
  g_assert_cmpuint (iv[1].end, ==, 8);
  g_assert_cmpint (seismo_trace_get_task (trace, iv[1].task)->tid, ==, 8);
  iv = seismo_trace_get_cpu_runs (trace, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (iv[0].end, ==, SEISMO_NO_EVENT);
  g_assert_cmpuint (seismo_trace_interval_end_ns (trace, &iv[0]), ==, 400);

  iv = seismo_trace_get_intervals (trace, SEISMO_INTERVAL_WAKEUP, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (seismo_trace_interval_end_ns (trace, &iv[0]) -
                    seismo_trace_interval_start_ns (trace, &iv[0]), ==, 50);
  iv = seismo_trace_get_intervals (trace, SEISMO_INTERVAL_IRQ, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (iv[0].key, ==, 24);
  g_assert_cmpuint (iv[0].start, ==, 4);
  g_assert_cmpuint (iv[0].end, ==, 5);
#undef SWITCH
}

static void
test_snapshot (void)
{
  SeismoTraceBuilder *b = seismo_test_make_builder (5000, 3);
  g_autoptr(SeismoTrace) snap = seismo_trace_builder_snapshot (b);
  g_autoptr(SeismoTrace) done = seismo_trace_builder_finish (b);

  g_assert_cmpuint (seismo_trace_get_n_events (snap), ==, 5000);
  g_assert_cmpuint (seismo_trace_get_n_events (done), ==, 5000);
  g_assert_cmpmem (seismo_trace_get_times (snap), 5000 * 8, seismo_trace_get_times (done), 5000 * 8);
  for (SeismoEventId i = 0; i < 5000; i += 7)
    {
      g_autofree char *a = seismo_trace_event_format (snap, i);
      g_autofree char *c = seismo_trace_event_format (done, i);

      g_assert_cmpstr (a, ==, c);
    }
}

/* Skipped input is counted by kind, keeps its first example and survives finish(). */
static void
test_skipped (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) skipped = NULL;
  g_autofree char *sentence = NULL;
  const SeismoSkipped *first;

  seismo_trace_builder_note_skipped (b, "trace_printk lines", 2, "line 5: first");
  seismo_trace_builder_note_skipped (b, "trace_printk lines", 1564, "line 9: second");
  seismo_trace_builder_note_skipped (b, "stack trace lines", 12, NULL);
  seismo_trace_builder_note_skipped (b, "nothing", 0, "never noted");
  g_assert_cmpuint (seismo_trace_builder_get_skipped (b, "trace_printk lines"), ==, 1566);
  g_assert_cmpuint (seismo_trace_builder_get_skipped (b, "nothing"), ==, 0);
  trace = seismo_trace_builder_finish (b);

  skipped = seismo_trace_get_skipped (trace);
  g_assert_cmpuint (skipped->len, ==, 2);
  first = &g_array_index (skipped, SeismoSkipped, 0);
  g_assert_cmpstr (first->kind, ==, "trace_printk lines");
  g_assert_cmpuint (first->count, ==, 1566);
  g_assert_cmpstr (first->example, ==, "line 5: first");
  g_assert_null (g_array_index (skipped, SeismoSkipped, 1).example);
  g_assert_cmpuint (seismo_trace_get_n_skipped (trace), ==, 1578);
  sentence = seismo_trace_describe_skipped (trace);
  g_assert_cmpstr (sentence, ==, "1566 trace_printk lines and 12 stack trace lines could not be read");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/builder/field-types", test_field_types);
  g_test_add_func ("/builder/varint-widths", test_varint_widths);
  g_test_add_func ("/builder/add-event", test_add_event);
  g_test_add_func ("/builder/add-event-array-first", test_add_event_array_first);
  g_test_add_func ("/builder/big-bytes-cut", test_big_bytes_cut);
  g_test_add_func ("/builder/sort-and-blocks", test_sort_and_blocks);
  g_test_add_func ("/builder/tasks", test_tasks);
  g_test_add_func ("/builder/derived", test_derived);
  g_test_add_func ("/builder/snapshot", test_snapshot);
  g_test_add_func ("/builder/skipped", test_skipped);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "seismo-stack-tree.h"
#include "seismo-test-util.h"

static const SeismoFieldInfo no_fields[] = { { "x", SEISMO_FIELD_UINT, 8, 0 } };

static const char kallsyms[] =
  "ffffffff81000000 T _stext\n"
  "ffffffff81001000 t do_sys_openat2\n"
  "ffffffff81001800 T __x64_sys_openat\n"
  "ffffffff81002000 D some_data\n"
  "ffffffff81003000 T entry_SYSCALL_64\n"
  "ffffffffc0001000 t ext4_file_open\t[ext4]\n";

/* Three events appended out of time order with stacks; two share a stack. */
static SeismoTrace *
make_trace (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type = seismo_trace_builder_add_event_type (b, "test", "ev", no_fields, 1, NULL);
  const guint64 kips[] = { 0xffffffff81001010, 0xffffffff81001810, 0xffffffff81003004 };
  const guint64 uips[] = { 0x401010, 0x401100, 0x401200, 0, G_MAXUINT64, 0x999 };
  const SeismoFrame text_frames[] = {
    { 0, "write", "libc.so.6", NULL, 0, 0, 77, SEISMO_FRAME_USER, FALSE },
    { 0, "main", "/usr/bin/prog", "prog.c", 12, 0, 77, SEISMO_FRAME_USER, FALSE },
  };

  seismo_trace_builder_set_kallsyms (b, kallsyms, strlen (kallsyms));
  seismo_trace_builder_add_mapping (b, 42, 0x400000, 0x402000, 0, "/usr/bin/prog",
                                    (const guint8 *) "\x01\x02\xab", 3, 5);

  /* t=300: kernel + user. */
  seismo_trace_builder_begin_event (b, 300, 0, 42, type);
  seismo_trace_builder_push_uint (b, 3);
  /* User first on purpose: kernel frames still end up innermost. */
  seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 42, uips, G_N_ELEMENTS (uips));
  seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, 42, kips, G_N_ELEMENTS (kips));
  seismo_trace_builder_end_event (b);
  /* t=100: no stack. */
  seismo_trace_builder_begin_event (b, 100, 0, 42, type);
  seismo_trace_builder_push_uint (b, 1);
  seismo_trace_builder_end_event (b);
  /* t=200: same stack as t=300. */
  seismo_trace_builder_begin_event (b, 200, 1, 42, type);
  seismo_trace_builder_push_uint (b, 2);
  seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, 42, kips, G_N_ELEMENTS (kips));
  seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 42, uips, G_N_ELEMENTS (uips));
  seismo_trace_builder_end_event (b);
  /* t=150: text frames. */
  seismo_trace_builder_begin_event (b, 150, 1, 77, type);
  seismo_trace_builder_push_uint (b, 15);
  seismo_trace_builder_set_stack_frames (b, text_frames, G_N_ELEMENTS (text_frames));
  seismo_trace_builder_end_event (b);
  g_assert_true (seismo_trace_builder_has_stacks (b));
  return seismo_trace_builder_finish (b);
}

static void
test_interning (void)
{
  g_autoptr(SeismoTrace) trace = make_trace ();
  const SeismoFrameId *f;
  const SeismoFrame *frame;
  guint n;
  SeismoValue v;

  g_assert_true (seismo_trace_has_stacks (trace));
  /* Sorted: 100 (none), 150 (text), 200, 300 (shared). */
  g_assert_cmpuint (seismo_trace_event_stack (trace, 0), ==, SEISMO_NO_STACK);
  g_assert_true (seismo_trace_event_field_by_name (trace, 1, "x", &v));
  g_assert_cmpuint (v.u, ==, 15);
  g_assert_cmpuint (seismo_trace_event_stack (trace, 1), !=, SEISMO_NO_STACK);
  g_assert_cmpuint (seismo_trace_event_stack (trace, 2), ==, seismo_trace_event_stack (trace, 3));
  g_assert_cmpuint (seismo_trace_event_stack (trace, 2), !=, seismo_trace_event_stack (trace, 1));
  /* Stacks 1 and 2 and the empty stack 0. */
  g_assert_cmpuint (seismo_trace_get_n_stacks (trace), ==, 3);
  /* 3 kernel + 3 user (0, the end marker and what follows it dropped) + 2 text. */
  g_assert_cmpuint (seismo_trace_get_n_frames (trace), ==, 8);

  n = seismo_trace_stack_frames (trace, seismo_trace_event_stack (trace, 3), &f);
  g_assert_cmpuint (n, ==, 6);
  frame = seismo_trace_get_frame (trace, f[0]);
  g_assert_cmpint (frame->space, ==, SEISMO_FRAME_KERNEL);
  g_assert_cmpstr (frame->function, ==, "do_sys_openat2");
  g_assert_cmpuint (frame->offset, ==, 0x10);
  g_assert_cmpstr (frame->module, ==, "[kernel.kallsyms]");
  frame = seismo_trace_get_frame (trace, f[2]);
  g_assert_cmpstr (frame->function, ==, "entry_SYSCALL_64");
  frame = seismo_trace_get_frame (trace, f[3]);
  g_assert_cmpint (frame->space, ==, SEISMO_FRAME_USER);
  g_assert_null (frame->function);
  g_assert_cmpint (frame->pid, ==, 42);
  g_assert_cmpuint (frame->address, ==, 0x401010);
  g_assert_nonnull (seismo_trace_find_mapping (trace, 42, frame->address));
  g_assert_null (seismo_trace_find_mapping (trace, 43, frame->address));
  {
    guint nm;
    const SeismoMapping *m = seismo_trace_get_mappings (trace, &nm);

    g_assert_cmpuint (nm, ==, 1);
    g_assert_cmpstr (m[0].path, ==, "/usr/bin/prog");
    g_assert_cmpuint (m[0].build_id_len, ==, 3);
    g_assert_cmpmem (m[0].build_id, 3, "\x01\x02\xab", 3);
  }
  {
    guint nk;
    const SeismoKernelSymbol *k = seismo_trace_get_kernel_symbols (trace, &nk);

    /* Data symbols are left out. */
    g_assert_cmpuint (nk, ==, 5);
    g_assert_cmpstr (k[4].name, ==, "ext4_file_open");
    g_assert_cmpstr (k[4].module, ==, "ext4");
  }

  n = seismo_trace_stack_frames (trace, seismo_trace_event_stack (trace, 1), &f);
  g_assert_cmpuint (n, ==, 2);
  frame = seismo_trace_get_frame (trace, f[1]);
  g_assert_cmpstr (frame->function, ==, "main");
  g_assert_cmpstr (frame->file, ==, "prog.c");
  g_assert_cmpuint (frame->line, ==, 12);
  g_assert_true (seismo_trace_stack_contains (trace, seismo_trace_event_stack (trace, 1), f[1]));
  g_assert_false (seismo_trace_stack_contains (trace, seismo_trace_event_stack (trace, 2), f[1]));
}

static guint
resolve_prog (const SeismoFrame   *frame,
              const SeismoMapping *mapping,
              SeismoFrame         *out,
              guint                max_out,
              gpointer             user_data)
{
  guint *calls = user_data;

  (*calls)++;
  g_assert_nonnull (mapping);
  g_assert_cmpuint (max_out, >=, 2);
  if (frame->address == 0x401010)
    {
      /* An inlined helper inside do_write. */
      out[0] = (SeismoFrame) { .function = "helper", .file = "prog.c", .line = 3 };
      out[1] = (SeismoFrame) { .function = "do_write", .module = mapping->path, .file = "prog.c", .line = 7 };
      return 2;
    }
  if (frame->address == 0x401100)
    {
      out[0] = (SeismoFrame) { .function = "main", .module = mapping->path };
      return 1;
    }
  return 0;
}

static char *
folded (SeismoTrace       *trace,
        SeismoStackWeight  weight)
{
  g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (trace, NULL, 0, weight);
  GString *out = g_string_new (NULL);

  seismo_stack_tree_write_folded (tree, out);
  return g_string_free (out, FALSE);
}

static void
test_resolve_and_tree (void)
{
  g_autoptr(SeismoTrace) trace = make_trace ();
  g_autofree char *before = NULL, *after = NULL;
  guint calls = 0;
  SeismoStackId s;

  before = folded (trace, SEISMO_STACK_WEIGHT_COUNT);
  g_assert_cmpstr (before, ==,
                   "0x401200;0x401100;0x401010;entry_SYSCALL_64;__x64_sys_openat;do_sys_openat2 2\n"
                   "main;write 1\n");
  /* Unresolved user frames have no module (only the symbolizer sets it): the address alone. */
  g_assert_cmpuint (seismo_trace_resolve_user_frames (trace, resolve_prog, &calls), ==, 2);
  g_assert_cmpuint (calls, ==, 3);
  s = seismo_trace_event_stack (trace, 3);
  g_assert_cmpuint (s, ==, seismo_trace_event_stack (trace, 2));
  after = folded (trace, SEISMO_STACK_WEIGHT_COUNT);
  g_assert_cmpstr (after, ==,
                   "0x401200;main;do_write;helper;entry_SYSCALL_64;__x64_sys_openat;do_sys_openat2 2\n"
                   "main;write 1\n");
  {
    g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (trace, NULL, 0, SEISMO_STACK_WEIGHT_COUNT);
    const SeismoStackNode *root = seismo_stack_tree_get_node (tree, 0);
    guint n;
    const guint32 *c = seismo_stack_tree_get_children (tree, 0, &n);

    g_assert_cmpuint (root->total, ==, 3);
    g_assert_cmpuint (root->n_events, ==, 3);
    g_assert_cmpuint (n, ==, 2);
    g_assert_cmpstr (seismo_stack_tree_get_node (tree, c[0])->name, ==, "0x401200");
    g_assert_cmpuint (seismo_stack_tree_get_node (tree, c[0])->total, ==, 2);
    g_assert_cmpuint (seismo_stack_tree_get_node (tree, c[0])->self, ==, 0);
    g_assert_true (seismo_stack_tree_stack_under (tree, s, c[0]));
    g_assert_false (seismo_stack_tree_stack_under (tree, s, c[1]));
  }
  {
    /* A subset: only event 1. */
    const SeismoEventId only[] = { 1 };
    g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (trace, only, 1, SEISMO_STACK_WEIGHT_COUNT);

    g_assert_cmpuint (seismo_stack_tree_get_node (tree, 0)->total, ==, 1);
  }
}

/* Many events over few stacks: ids are shared, and the column survives the builder's sort. */
static void
test_many (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type = seismo_trace_builder_add_event_type (b, "test", "ev", no_fields, 1, NULL);
  g_autoptr(SeismoTrace) trace = NULL;
  const guint n = 200000;

  for (guint i = 0; i < n; i++)
    {
      guint64 ips[3] = { 0x1000 + (i % 7), 0x2000 + (i % 3), 0x3000 };

      /* Reverse time order: the sort must move the stack ids along. */
      seismo_trace_builder_begin_event (b, (guint64) (n - i) * 10, 0, 1, type);
      seismo_trace_builder_push_uint (b, i);
      if (i % 2 == 0)
        seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 1, ips, 3);
      seismo_trace_builder_end_event (b);
    }
  trace = seismo_trace_builder_finish (b);
  g_assert_cmpuint (seismo_trace_get_n_stacks (trace), ==, 21 + 1);
  for (SeismoEventId e = 0; e < n; e += 997)
    {
      SeismoValue v;
      const SeismoFrameId *f;
      guint i;

      g_assert_true (seismo_trace_event_field_by_name (trace, e, "x", &v));
      i = (guint) v.u;
      if (i % 2)
        {
          g_assert_cmpuint (seismo_trace_event_stack (trace, e), ==, 0);
          continue;
        }
      g_assert_cmpuint (seismo_trace_stack_frames (trace, seismo_trace_event_stack (trace, e), &f), ==, 3);
      g_assert_cmpuint (seismo_trace_get_frame (trace, f[0])->address, ==, 0x1000 + (i % 7));
      g_assert_cmpuint (seismo_trace_get_frame (trace, f[1])->address, ==, 0x2000 + (i % 3));
    }
}

/* Time weights: a syscall's duration, off-CPU time of sched_switch. */
static void
test_time_weight (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (20000, 7);

  /* The test trace has no stacks: an empty tree, no folded lines. */
  g_autofree char *f = folded (trace, SEISMO_STACK_WEIGHT_TIME);

  g_assert_false (seismo_trace_has_stacks (trace));
  g_assert_cmpstr (f, ==, "");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stacks/interning", test_interning);
  g_test_add_func ("/stacks/resolve-and-tree", test_resolve_and_tree);
  g_test_add_func ("/stacks/many", test_many);
  g_test_add_func ("/stacks/time-weight-empty", test_time_weight);
  return g_test_run ();
}

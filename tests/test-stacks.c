/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include <glib/gstdio.h>

#include "seismo-file.h"
#include "seismo-error.h"
#include "seismo-file-private.h"
#include "seismo-stack-tree.h"
#include "seismo-stacks-private.h"
#include "seismo-trace-private.h"
#include "seismo-varint.h"
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

/* The test trace's user code: worker_main at 0x400010 calls fn_4001N0; fn_400120 has helper_inl
 * inlined; libc's frames resolve to libc_N. */
static guint
resolve_worker (const SeismoFrame   *frame,
                const SeismoMapping *mapping,
                SeismoFrame         *out,
                guint                max_out,
                gpointer             user_data)
{
  static char names[64][32];
  guint *calls = user_data;
  guint64 a = frame->address;

  (*calls)++;
  if (mapping == NULL)
    return 0;
  if (a == 0x400010)
    {
      out[0] = (SeismoFrame) { .function = "worker_main", .module = mapping->path, .file = "worker.c", .line = 5 };
      return 1;
    }
  if (a >= 0x400100 && a < 0x400200)
    {
      guint i = (guint) ((a - 0x400100) / 0x20);

      g_snprintf (names[i], sizeof names[i], "fn_%" G_GINT64_MODIFIER "x", a);
      if (a == 0x400120)
        {
          out[0] = (SeismoFrame) { .function = "helper_inl", .file = "helper.h", .line = 2 };
          out[1] = (SeismoFrame) { .function = names[i], .module = mapping->path, .file = "worker.c", .line = 20 };
          return 2;
        }
      out[0] = (SeismoFrame) { .function = names[i], .module = mapping->path, .file = "worker.c", .line = 10 + i };
      return 1;
    }
  g_snprintf (names[32 + (a & 0x1ff) / 0x40], 32, "libc_%u", (guint) ((a & 0x1ff) / 0x40));
  out[0] = (SeismoFrame) { .function = names[32 + (a & 0x1ff) / 0x40], .module = mapping->path,
                           .offset = (guint32) (a & 0xf) };
  return 1;
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

static void assert_same_stacks (SeismoTrace *a, SeismoTrace *b, gsize b_first);

/* The builder finds repeated raw stacks whole: the cache must tell pids, spaces and lengths apart,
 * and a snapshot (live views) holds the same stacks as the finished trace. */
static void
test_raw_cache (void)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type = seismo_trace_builder_add_event_type (b, "test", "ev", no_fields, 1, NULL);
  const guint64 a[] = { 0x1000, 0x2000, 0x3000 };
  g_autoptr(SeismoTrace) snap = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  SeismoStackId ids[7];
  const SeismoFrameId *f;

  for (guint round = 0; round < 2; round++)
    for (guint k = 0; k < 7; k++)
      {
        seismo_trace_builder_begin_event (b, 10 * (round * 7 + k), 0, 1, type);
        switch (k)
          {
          case 0: seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 1, a, 3); break;
          case 1: seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 2, a, 3); break;
          case 2: seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, 1, a, 3); break;
          case 3: seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 1, a, 2); break;
          case 4:
            seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, 1, a, 1);
            seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 1, a + 1, 2);
            break;
          case 5:
            seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, 1, a, 2);
            seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 1, a + 2, 1);
            break;
          default:
            {
              /* Raw and symbolized frames on one event keep their order (kernel inside user). */
              const SeismoFrame main_frame = { 0, "main", "prog", NULL, 0, 0, 1, SEISMO_FRAME_USER, FALSE };

              seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, 1, a, 1);
              seismo_trace_builder_set_stack_frames (b, &main_frame, 1);
              seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, 1, a + 2, 1);
            }
          }
        seismo_trace_builder_push_uint (b, k);
        seismo_trace_builder_end_event (b);
      }
  snap = seismo_trace_builder_snapshot (b);
  trace = seismo_trace_builder_finish (b);
  for (guint k = 0; k < 7; k++)
    {
      ids[k] = seismo_trace_event_stack (trace, k);
      g_assert_cmpuint (ids[k], !=, 0);
      /* The second round found the same stacks. */
      g_assert_cmpuint (seismo_trace_event_stack (trace, 7 + k), ==, ids[k]);
      for (guint j = 0; j < k; j++)
        g_assert_cmpuint (ids[j], !=, ids[k]);
    }
  assert_same_stacks (trace, snap, 0);
  g_assert_cmpuint (seismo_trace_stack_frames (trace, ids[6], &f), ==, 3);
  g_assert_cmpuint (seismo_trace_get_frame (trace, f[0])->address, ==, 0x3000);
  g_assert_cmpint (seismo_trace_get_frame (trace, f[0])->space, ==, SEISMO_FRAME_KERNEL);
  g_assert_cmpuint (seismo_trace_get_frame (trace, f[1])->address, ==, 0x1000);
  g_assert_cmpstr (seismo_trace_get_frame (trace, f[2])->function, ==, "main");
  g_assert_cmpint (seismo_trace_get_frame (trace, f[1])->pid, ==, 1);
  seismo_trace_stack_frames (trace, ids[1], &f);
  g_assert_cmpint (seismo_trace_get_frame (trace, f[0])->pid, ==, 2);
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

/* Two traces have the same stacks: event by event, frame by frame (by content, not id). */
static void
assert_same_stacks (SeismoTrace *a,
                    SeismoTrace *b,
                    gsize        b_first)
{
  gsize n = seismo_trace_get_n_events (b);
  guint n_with = 0;

  g_assert_true (seismo_trace_has_stacks (b));
  for (gsize i = 0; i < n; i++)
    {
      const SeismoFrameId *fa, *fb;
      guint na = seismo_trace_stack_frames (a, seismo_trace_event_stack (a, b_first + i), &fa);
      guint nb = seismo_trace_stack_frames (b, seismo_trace_event_stack (b, i), &fb);

      g_assert_cmpuint (seismo_trace_event_time (a, b_first + i), ==, seismo_trace_event_time (b, i));
      g_assert_cmpuint (na, ==, nb);
      n_with += na > 0;
      for (guint k = 0; k < na; k++)
        {
          const SeismoFrame *x = seismo_trace_get_frame (a, fa[k]);
          const SeismoFrame *y = seismo_trace_get_frame (b, fb[k]);

          g_assert_cmpuint (x->address, ==, y->address);
          g_assert_cmpstr (x->function, ==, y->function);
          g_assert_cmpstr (x->module, ==, y->module);
          g_assert_cmpstr (x->file, ==, y->file);
          g_assert_cmpuint (x->line, ==, y->line);
          g_assert_cmpuint (x->offset, ==, y->offset);
          g_assert_cmpint (x->pid, ==, y->pid);
          g_assert_cmpint (x->space, ==, y->space);
          g_assert_cmpint (x->inlined, ==, y->inlined);
        }
    }
  g_assert_cmpuint (n_with, >, n / 10);
}

static void
test_file_roundtrip (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_stack_trace (20000, 3);
  g_autofree char *path = seismo_test_temp_path ("stacks.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  guint n1, n2;
  const SeismoMapping *m1, *m2;
  g_autofree char *f1 = NULL, *f2 = NULL;

  /* Resolved frames with file, line and inline chains survive too. */
  {
    guint calls = 0;

    g_assert_cmpuint (seismo_trace_resolve_user_frames (trace, resolve_worker, &calls), >, 0);
  }
  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_no_error (error);
  loaded = seismo_test_load_file (path);
  assert_same_stacks (trace, loaded, 0);
  g_assert_cmpuint (seismo_trace_get_n_stacks (loaded), ==, seismo_trace_get_n_stacks (trace));
  g_assert_cmpuint (seismo_trace_get_n_frames (loaded), ==, seismo_trace_get_n_frames (trace));
  m1 = seismo_trace_get_mappings (trace, &n1);
  m2 = seismo_trace_get_mappings (loaded, &n2);
  g_assert_cmpuint (n1, ==, 16);
  g_assert_cmpuint (n1, ==, n2);
  for (guint i = 0; i < n1; i++)
    {
      g_assert_cmpint (m1[i].pid, ==, m2[i].pid);
      g_assert_cmpuint (m1[i].start, ==, m2[i].start);
      g_assert_cmpuint (m1[i].end, ==, m2[i].end);
      g_assert_cmpuint (m1[i].file_offset, ==, m2[i].file_offset);
      g_assert_cmpstr (m1[i].path, ==, m2[i].path);
      g_assert_cmpmem (m1[i].build_id, m1[i].build_id_len, m2[i].build_id, m2[i].build_id_len);
      g_assert_cmpuint (m1[i].time_ns, ==, m2[i].time_ns);
    }
  {
    const SeismoKernelSymbol *k1 = seismo_trace_get_kernel_symbols (trace, &n1);
    const SeismoKernelSymbol *k2 = seismo_trace_get_kernel_symbols (loaded, &n2);

    g_assert_cmpuint (n1, ==, 8);
    g_assert_cmpuint (n1, ==, n2);
    for (guint i = 0; i < n1; i++)
      {
        g_assert_cmpuint (k1[i].address, ==, k2[i].address);
        g_assert_cmpstr (k1[i].name, ==, k2[i].name);
        g_assert_cmpstr (k1[i].module, ==, k2[i].module);
      }
  }
  f1 = folded (trace, SEISMO_STACK_WEIGHT_TIME);
  f2 = folded (loaded, SEISMO_STACK_WEIGHT_TIME);
  g_assert_cmpstr (f1, ==, f2);
  g_assert_true (strstr (f1, "ext4_file_write_iter") != NULL);
  g_assert_true (strstr (f1, "worker_main;") != NULL);
}

/* The streaming writer (a recording, a conversion) drops written events from its builder: their
 * stack ids must be in the file already. The file is the trace the builder would have made. */
static void
test_file_streamed (void)
{
  const guint64 n = 3 * 65536 + 1234;
  g_autoptr(SeismoTrace) expect = seismo_test_make_stack_trace (n, 5);
  SeismoTraceBuilder *b = seismo_test_make_stack_builder (n, 5);
  g_autofree char *path = seismo_test_temp_path ("streamed.seismo");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) loaded = NULL;
  SeismoFileWriter *w = seismo_file_writer_new (path, &error);

  g_assert_no_error (error);
  g_assert_true (seismo_file_writer_flush_all (w, b, &error));
  g_assert_true (seismo_file_writer_stream (w, b, &error));
  g_assert_true (seismo_file_writer_commit (w, b, &error));
  g_assert_no_error (error);
  seismo_file_writer_free (w);
  seismo_trace_builder_free (b);
  loaded = seismo_test_load_file (path);
  g_assert_cmpuint (seismo_trace_get_n_events (loaded), ==, n);
  assert_same_stacks (expect, loaded, 0);

  /* A window of the file (the summary reader's time window): the second chunk's events only. */
  {
    g_autoptr(SeismoTrace) part = _seismo_file_read_part (path, 1, 1, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (seismo_trace_get_n_events (part), ==, 65536);
    /* The window's events are the file's events 65536.. in file order, sorted the same way. */
    g_assert_true (seismo_trace_has_stacks (part));
  }
}

/* A file of format 1.1 (no stack records) opens, without stacks. */
static void
test_old_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "seismo-file",
                                                 "generated-300.seismo", NULL);
  g_autoptr(SeismoTrace) trace = seismo_test_load_file (path);
  g_autofree char *f = folded (trace, SEISMO_STACK_WEIGHT_COUNT);

  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, 300);
  g_assert_false (seismo_trace_has_stacks (trace));
  g_assert_cmpuint (seismo_trace_event_stack (trace, 0), ==, SEISMO_NO_STACK);
  g_assert_cmpstr (f, ==, "");
}

static void
put (GByteArray *b,
     guint64     v)
{
  guint8 tmp[SEISMO_VARINT_MAX];

  g_byte_array_append (b, tmp, (guint) (seismo_varint_put (tmp, v) - tmp));
}

static gboolean
decodes (GByteArray                  *raw,
         const SeismoStackTablesInfo *info)
{
  g_autofree char *reason = NULL;
  SeismoStackTable *t = _seismo_file_decode_stack_tables (raw->data, raw->len, info, &reason);

  if (t == NULL)
    {
      g_assert_nonnull (reason);
      g_test_message ("refused: %s", reason);
      return FALSE;
    }
  _seismo_stack_table_free (t);
  return TRUE;
}

/* Decoders refuse tables that do not hold together; every case is a clean error. */
static void
test_corrupt_tables (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_stack_trace (3000, 11);
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  g_autoptr(GByteArray) small = g_byte_array_new ();
  SeismoStackTablesInfo info, bad;
  g_autofree char *reason = NULL;
  guint32 ids[4];

  _seismo_file_encode_stack_tables (raw, trace->stacks, &info);
  /* (little-endian is the host order here; the swap is tested by the file round trip) */
  g_assert_true (decodes (raw, &info));
  bad = info;
  bad.n_frames = G_MAXUINT32;
  g_assert_false (decodes (raw, &bad));
  bad = info;
  bad.n_ksyms--;
  g_assert_false (decodes (raw, &bad));   /* trailing bytes */
  g_byte_array_set_size (raw, raw->len - 1);
  g_assert_false (decodes (raw, &info));  /* cut short */

  /* By hand: one string, one frame, one stack. */
  put (small, 1); g_byte_array_append (small, (const guint8 *) "f", 1);
  put (small, 0x1000); put (small, 1); put (small, 0); put (small, 0); put (small, 0); put (small, 0);
  put (small, seismo_zigzag_encode (-1)); put (small, 0);
  put (small, 1); put (small, 0);
  info = (SeismoStackTablesInfo) { 1, 1, 1, 0, 0, 0 };
  g_assert_true (decodes (small, &info));
  /* The stack names frame 5 of 1. */
  small->data[small->len - 1] = 5;
  g_assert_false (decodes (small, &info));
  small->data[small->len - 1] = 0;
  /* The frame names string 9 of 1. */
  small->data[4] = 9;
  g_assert_false (decodes (small, &info));
  small->data[4] = 1;
  /* An empty stack. */
  small->data[small->len - 2] = 0;
  g_assert_false (decodes (small, &info));

  /* Stack ids: past the stacks, short, long. */
  {
    g_autoptr(GByteArray) b = g_byte_array_new ();

    put (b, 0); put (b, 1); put (b, 2);
    g_assert_true (_seismo_file_decode_stack_ids (b->data, b->len, ids, 3, 2, &reason));
    g_assert_false (_seismo_file_decode_stack_ids (b->data, b->len, ids, 3, 1, &reason));
    g_clear_pointer (&reason, g_free);
    g_assert_false (_seismo_file_decode_stack_ids (b->data, b->len, ids, 4, 2, &reason));
    g_clear_pointer (&reason, g_free);
    g_assert_false (_seismo_file_decode_stack_ids (b->data, b->len, ids, 2, 2, &reason));
  }
}

/* A damaged stack record in a file: the load fails, naming the file and the record. */
static void
test_corrupt_file (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_stack_trace (3000, 13);
  g_autofree char *path = seismo_test_temp_path ("damaged.seismo");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len, pos;
  guint found = 0;

  g_assert_true (seismo_file_save (trace, path, &error));
  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  for (guint kind = SEISMO_RECORD_STACK_TABLES; kind <= SEISMO_RECORD_STACK_IDS; kind++)
    {
      g_autofree char *copy = g_memdup2 (contents, len);
      g_autoptr(SeismoTrace) bad = NULL;

      for (pos = 0; pos + sizeof (SeismoRecordHeader) < len; pos++)
        {
          SeismoRecordHeader h;

          memcpy (&h, copy + pos, sizeof h);
          if (memcmp (h.tag, SEISMO_RECORD_TAG, 4) == 0 && GUINT16_FROM_LE (h.kind) == kind)
            break;
        }
      g_assert_cmpuint (pos + sizeof (SeismoRecordHeader), <, len);
      found++;
      /* A byte of its data part. */
      copy[pos + sizeof (SeismoRecordHeader) + 20] ^= 0x5a;
      g_assert_true (g_file_set_contents (path, copy, len, &error));
      bad = seismo_file_load (path, NULL, NULL, NULL, &error);
      g_assert_null (bad);
      g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT);
      g_assert_nonnull (strstr (error->message, "damaged.seismo"));
      g_assert_nonnull (strstr (error->message, "stack"));
      g_clear_error (&error);
    }
  g_assert_cmpuint (found, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stacks/interning", test_interning);
  g_test_add_func ("/stacks/resolve-and-tree", test_resolve_and_tree);
  g_test_add_func ("/stacks/many", test_many);
  g_test_add_func ("/stacks/raw-cache", test_raw_cache);
  g_test_add_func ("/stacks/time-weight-empty", test_time_weight);
  g_test_add_func ("/stacks/file-roundtrip", test_file_roundtrip);
  g_test_add_func ("/stacks/file-streamed", test_file_streamed);
  g_test_add_func ("/stacks/old-file", test_old_file);
  g_test_add_func ("/stacks/corrupt-tables", test_corrupt_tables);
  g_test_add_func ("/stacks/corrupt-file", test_corrupt_file);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stacks (issue 17): what a stack per event costs in memory and time. Builds the same N events
 * twice, without and with a stack on every event (3-6 kernel frames and 4-19 user frames: a walk
 * down a call graph of 2000 functions, in 40 processes; DISTINCT paths per process, default 2000,
 * as a program's syscalls come from a bounded set of call paths), and prints (CPU time, not wall
 * time: the machine is shared):
 *   - resident bytes per event of both traces and the difference (the bound: ≤ 8 B/event
 *     more, the tables apart), and the stack tables' own size;
 *   - the builder's time per stack (interning), user frame resolution through the data layer's
 *     side of seismo_trace_resolve_user_frames() (a table lookup as the callback), the call tree
 *     and the folded lines;
 *   - the .seismo file size of both.
 *
 *   seismo-stacks-bench [N_EVENTS [DISTINCT]]   (defaults 1000000, 2000)
 */
#include <stdlib.h>

#include <glib/gstdio.h>

#include "seismo-bench-util.h"
#include "seismo-file.h"
#include "seismo-stack-tree.h"

#define N_FUNCS 2000
#define N_PROCS 40

static const SeismoFieldInfo fields[] = {
  { "id", SEISMO_FIELD_UINT, 8, 0 },
  { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
};

static guint distinct = 2000;

/* The paths, made before the clock starts: path k of process p is paths[p * distinct + k]. */
typedef struct {
  guint   depth;
  guint64 user[20];
} Path;

static Path *
make_paths (void)
{
  Path *paths = g_new (Path, (gsize) N_PROCS * distinct);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (gsize k = 0; k < (gsize) N_PROCS * distinct; k++)
    {
      Path *path = &paths[k];
      guint f = g_rand_int_range (rand, 0, 64);

      /* A walk down a call graph: few roots, many leaves. */
      path->depth = g_rand_int_range (rand, 4, 20);
      for (guint d = 0; d < path->depth; d++)
        {
          path->user[path->depth - 1 - d] = 0x400000 + (guint64) f * 0x40 + (d & 3);
          f = (f * 7 + g_rand_int_range (rand, 0, 3) + 1) % N_FUNCS;
        }
    }
  return paths;
}

static SeismoTrace *
build (guint64   n,
       gboolean  stacks,
       double   *ms_per_event)
{
  g_autofree Path *paths = make_paths ();
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint type = seismo_trace_builder_add_event_type (b, "raw_syscalls", "sys_enter", fields, 2, NULL);
  gint64 t0 = (gint64) (seismo_bench_thread_cpu_ms () * 1e3);
  static const guint64 kernel[6] = { 0xffffffff81200010, 0xffffffff81200410, 0xffffffff81300020,
                                     0xffffffff81400008, 0xffffffff81500000, 0xffffffff81600000 };

  for (guint64 i = 0; i < n; i++)
    {
      guint64 args[6] = { 3, 0x7ffd0000 + (i & 0xffff), 4096, 0, 0, 0 };
      gint32 pid = 1000 + (gint32) g_rand_int_range (rand, 0, N_PROCS);

      seismo_trace_builder_begin_event (b, 1000000 + i * 100, (guint) (i & 7), pid, type);
      seismo_trace_builder_push_uint (b, g_rand_int_range (rand, 0, 300));
      seismo_trace_builder_push_uint_array (b, args, 6);
      if (stacks)
        {
          const Path *path = &paths[(gsize) (pid - 1000) * distinct + g_rand_int_range (rand, 0, distinct)];

          seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_KERNEL, pid, kernel + (i % 3), 6 - (i % 3));
          seismo_trace_builder_set_stack_addrs (b, SEISMO_FRAME_USER, pid, path->user, path->depth);
        }
      seismo_trace_builder_end_event (b);
    }
  *ms_per_event = ((gint64) (seismo_bench_thread_cpu_ms () * 1e3) - t0) / 1e3 / (double) MAX (n, 1);
  return seismo_trace_builder_finish (b);
}

static guint
resolve (const SeismoFrame   *frame,
         const SeismoMapping *mapping,
         SeismoFrame         *out,
         guint                max_out,
         gpointer             user_data)
{
  const char *const *names = user_data;
  guint64 f = (frame->address - 0x400000) / 0x40;

  if (f >= N_FUNCS)
    return 0;
  out[0] = (SeismoFrame) { .function = names[f], .module = "/usr/bin/bench", .line = (guint32) f };
  return 1;
}

int
main (int    argc,
      char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1000000;
  double ms_plain, ms_stacks;
  g_autoptr(SeismoTrace) plain = NULL;
  g_autoptr(SeismoTrace) with = NULL;

  gsize m_plain, m_with;
  char *names[N_FUNCS + 1] = { NULL };
  gint64 t0;
  guint resolved;
  double ms_resolve, ms_tree, ms_time_tree, ms_folded;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *dir = g_dir_make_tmp ("seismo-stacks-bench-XXXXXX", NULL);
  g_autofree char *p1 = g_build_filename (dir, "plain.seismo", NULL);
  g_autofree char *p2 = g_build_filename (dir, "stacks.seismo", NULL);
  GStatBuf st1, st2;

  distinct = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 2000;
  plain = build (n, FALSE, &ms_plain);
  with = build (n, TRUE, &ms_stacks);
  for (guint f = 0; f < N_FUNCS; f++)
    names[f] = g_strdup_printf ("function_%u", f);
  m_plain = seismo_trace_get_memory_size (plain);
  m_with = seismo_trace_get_memory_size (with);

  g_print ("events: %" G_GUINT64_FORMAT "; distinct stacks: %u; distinct frames: %u\n", n,
           seismo_trace_get_n_stacks (with) - 1, seismo_trace_get_n_frames (with));
  g_print ("memory: %.1f B/event without stacks, %.1f B/event with (+%.2f B/event: the stack id "
           "column %.1f + the tables %.2f)\n",
           (double) m_plain / n, (double) m_with / n, ((double) m_with - m_plain) / n,
           4.0, ((double) m_with - m_plain) / n - 4.0);
  g_print ("build: %.3f us/event without stacks, %.3f us/event with (+%.3f us per stack of ~17 frames)\n",
           ms_plain * 1e3, ms_stacks * 1e3, (ms_stacks - ms_plain) * 1e3);

  t0 = (gint64) (seismo_bench_thread_cpu_ms () * 1e3);
  resolved = seismo_trace_resolve_user_frames (with, resolve, names);
  ms_resolve = ((gint64) (seismo_bench_thread_cpu_ms () * 1e3) - t0) / 1e3;
  g_print ("resolve_user_frames: %u frames named in %.1f ms (data layer side; the symbolizer's own "
           "lookups come on top)\n", resolved, ms_resolve);

  t0 = (gint64) (seismo_bench_thread_cpu_ms () * 1e3);
  {
    g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (with, NULL, 0, SEISMO_STACK_WEIGHT_COUNT);

    ms_tree = ((gint64) (seismo_bench_thread_cpu_ms () * 1e3) - t0) / 1e3;
    t0 = (gint64) (seismo_bench_thread_cpu_ms () * 1e3);
    seismo_stack_tree_write_folded (tree, out);
    ms_folded = ((gint64) (seismo_bench_thread_cpu_ms () * 1e3) - t0) / 1e3;
    g_print ("call tree (count) of %" G_GUINT64_FORMAT " events: %.1f ms, %u nodes; folded lines: "
             "%.1f ms, %" G_GSIZE_FORMAT " bytes\n", n, ms_tree,
             seismo_stack_tree_get_n_nodes (tree), ms_folded, out->len);
  }
  t0 = (gint64) (seismo_bench_thread_cpu_ms () * 1e3);
  {
    g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (with, NULL, 0, SEISMO_STACK_WEIGHT_TIME);

    ms_time_tree = ((gint64) (seismo_bench_thread_cpu_ms () * 1e3) - t0) / 1e3;
    g_print ("call tree (time): %.1f ms\n", ms_time_tree);
  }

  if (seismo_file_save (plain, p1, NULL) && seismo_file_save (with, p2, NULL) &&
      g_stat (p1, &st1) == 0 && g_stat (p2, &st2) == 0)
    g_print (".seismo: %.2f B/event without stacks, %.2f B/event with\n",
             (double) st1.st_size / n, (double) st2.st_size / n);
  g_unlink (p1);
  g_unlink (p2);
  g_rmdir (dir);
  for (guint f = 0; f < N_FUNCS; f++)
    g_free (names[f]);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test-stacks"

#include <string.h>

#include "seismo-backend.h"
#include "seismo-recorder.h"
#include "seismo-stacks.h"
#include "seismo-symbolizer.h"

/*
 * --stacks against the real kernel: seismo-stacks-workload's call paths are known
 * (main → do_io → write_file → write, main → nap → nanosleep), so the user stacks of its write and
 * clock_nanosleep syscalls, once named by the symbolizer, must show them; and the eBPF backend
 * (frame pointers, in the kernel) and the ptrace backend (libdw, CFI) must agree on the frames from
 * the syscall up to main. eBPF needs root and BTF; each part skips with the backend's reason.
 */

#define WORKLOAD SEISMO_STACKS_WORKLOAD_PATH

static const SeismoBackend *
backend_or_skip (const char *name)
{
  const SeismoBackend *backend;
  g_autofree char *why = NULL;

  seismo_backends_init ();
  backend = seismo_backend_lookup (name);
  if (backend == NULL || !backend->available (&why))
    {
      g_autofree char *msg = g_strdup_printf ("%s backend unavailable: %s", name,
                                              backend ? why : "not built");

      g_test_skip (msg);
      return NULL;
    }
  if (!(backend->stacks & SEISMO_STACK_USER))
    {
      g_autofree char *msg = g_strdup_printf ("%s backend cannot record user stacks in this build "
                                              "(libdw missing)", name);

      g_test_skip (msg);
      return NULL;
    }
  return backend;
}

/* The workload recorded with user stacks, symbolized. */
static SeismoTrace *
record (const SeismoBackend *backend)
{
  char *argv[] = { (char *) WORKLOAD, NULL };
  SeismoRecordOptions options = { 0 };
  SeismoRecordControl ctl = { .exit_status = -1 };
  g_autoptr(GError) error = NULL;
  SeismoTraceBuilder *builder = seismo_trace_builder_new ();
  SeismoTrace *trace;
  guint named = 0;

  options.argv = argv;
  options.stacks = SEISMO_STACK_USER;
  options.kill_on_stop = TRUE;
  if (!seismo_recorder_record (backend, &options, builder, &ctl, &error))
    g_error ("recording with %s failed: %s", backend->name, error->message);
  g_assert_cmpint (ctl.exit_status, ==, 0);
  trace = seismo_trace_builder_finish (builder);
  g_assert_true (seismo_trace_has_stacks (trace));
  if (g_getenv ("SEISMO_TEST_DEBUG"))
    {
      guint nm;
      const SeismoMapping *m = seismo_trace_get_mappings (trace, &nm);

      for (guint i = 0; i < nm; i++)
        g_printerr ("map %d %lx-%lx %lx %s bid=%u\n", m[i].pid, (unsigned long) m[i].start,
                    (unsigned long) m[i].end, (unsigned long) m[i].file_offset, m[i].path, m[i].build_id_len);
      for (guint i = 0; i < seismo_trace_get_n_frames (trace) && i < 40; i++)
        {
          const SeismoFrame *f = seismo_trace_get_frame (trace, i);

          g_printerr ("frame %u space %d pid %d %lx %s\n", i, f->space, f->pid,
                      (unsigned long) f->address, f->function);
        }
    }
  g_assert_true (seismo_symbolize_trace (trace, &named, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (named, >, 0);
  return trace;
}

/* "f0;f1;…;main" for the user stack of a syscall's enter, innermost first, up to main; NULL when
 * the stack does not reach main of the workload. */
static char *
stack_to_main (SeismoTrace   *trace,
               SeismoEventId  enter)
{
  const SeismoFrameId *frames;
  guint n = seismo_trace_stack_frames (trace, seismo_trace_event_stack (trace, enter), &frames);
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      const SeismoFrame *f = seismo_trace_get_frame (trace, frames[i]);

      if (f->space != SEISMO_FRAME_USER)
        continue;
      if (s->len > 0)
        g_string_append_c (s, ';');
      g_string_append (s, f->function ? f->function : "?");
      if (f->function && g_str_equal (f->function, "main") && f->module &&
          g_str_equal (f->module, "seismo-stacks-workload"))
        return g_string_free (g_steal_pointer (&s), FALSE);
    }
  return NULL;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* syscall name → the distinct stacks (to main) of its calls, sorted, joined by '\n'. */
static GHashTable *
stacks_by_syscall (SeismoTrace *trace)
{
  g_autoptr(GHashTable) sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify) g_hash_table_unref);
  GHashTable *result = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;
  gsize n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);

  for (gsize i = 0; i < n_spans; i++)
    {
      const char *name = seismo_trace_get_syscall_name (trace, spans[i].syscall);
      char *stack = stack_to_main (trace, spans[i].enter);
      GHashTable *set;

      if (stack == NULL)
        continue;
      if ((set = g_hash_table_lookup (sets, name)) == NULL)
        g_hash_table_insert (sets, g_strdup (name),
                             set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL));
      g_hash_table_add (set, stack);
    }
  g_hash_table_iter_init (&iter, sets);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree const char **list = (const char **) g_hash_table_get_keys_as_array (value, NULL);
      g_autofree char *joined = NULL;

      g_qsort_with_data (list, g_hash_table_size (value), sizeof *list, compare_strings, NULL);
      joined = g_strjoinv ("\n", (char **) list);
      g_hash_table_insert (result, g_strdup (key), g_steal_pointer (&joined));
    }
  return result;
}

static void
check_known_paths (GHashTable *stacks,
                   const char *backend)
{
  const char *writes = g_hash_table_lookup (stacks, "write");
  const char *sleeps = g_hash_table_lookup (stacks, "clock_nanosleep");

  if (sleeps == NULL)
    sleeps = g_hash_table_lookup (stacks, "nanosleep");
  g_test_message ("%s: write ← %s", backend, writes ? writes : "(none)");
  g_test_message ("%s: sleep ← %s", backend, sleeps ? sleeps : "(none)");
  g_assert_nonnull (writes);
  g_assert_true (strstr (writes, ";write_file;do_io;main") != NULL);
  g_assert_nonnull (sleeps);
  g_assert_true (strstr (sleeps, ";nap;main") != NULL);
}

/* DWARF gives the workload's frames their source line: write_file's is its write() call. */
static void
check_source_lines (SeismoTrace *trace)
{
  gboolean seen = FALSE;

  for (guint i = 0; i < seismo_trace_get_n_frames (trace); i++)
    {
      const SeismoFrame *f = seismo_trace_get_frame (trace, i);

      if (f->function == NULL || !g_str_equal (f->function, "write_file"))
        continue;
      g_assert_nonnull (f->file);
      g_assert_true (g_str_has_suffix (f->file, "seismo-stacks-workload.c"));
      g_assert_cmpuint (f->line, ==, 21);
      g_assert_cmpstr (f->module, ==, "seismo-stacks-workload");
      seen = TRUE;
    }
  g_assert_true (seen);
}

static void
test_stacks_ptrace (void)
{
  const SeismoBackend *backend = backend_or_skip ("ptrace");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GHashTable) stacks = NULL;

  if (backend == NULL)
    return;
  trace = record (backend);
  stacks = stacks_by_syscall (trace);
  check_known_paths (stacks, "ptrace");
  check_source_lines (trace);
}

static void
test_stacks_ebpf (void)
{
  const SeismoBackend *backend = backend_or_skip ("ebpf");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GHashTable) stacks = NULL;

  if (backend == NULL)
    return;
  trace = record (backend);
  stacks = stacks_by_syscall (trace);
  check_known_paths (stacks, "ebpf");
  check_source_lines (trace);
}

/* The same frames from the syscall up to main, whichever backend took them. */
static void
test_stacks_agree (void)
{
  const SeismoBackend *ebpf = backend_or_skip ("ebpf");
  const SeismoBackend *ptrace = ebpf ? backend_or_skip ("ptrace") : NULL;
  g_autoptr(SeismoTrace) a = NULL;
  g_autoptr(SeismoTrace) b = NULL;
  g_autoptr(GHashTable) sa = NULL;
  g_autoptr(GHashTable) sb = NULL;
  const char *const syscalls[] = { "write", "clock_nanosleep" };

  if (ebpf == NULL || ptrace == NULL)
    return;
  a = record (ebpf);
  b = record (ptrace);
  sa = stacks_by_syscall (a);
  sb = stacks_by_syscall (b);
  for (guint i = 0; i < G_N_ELEMENTS (syscalls); i++)
    g_assert_cmpstr (g_hash_table_lookup (sa, syscalls[i]), ==, g_hash_table_lookup (sb, syscalls[i]));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stacks/ptrace", test_stacks_ptrace);
  g_test_add_func ("/stacks/ebpf", test_stacks_ebpf);
  g_test_add_func ("/stacks/ebpf-and-ptrace-agree", test_stacks_agree);
  return g_test_run ();
}

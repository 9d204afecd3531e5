/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test-ebpf"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <bpf/bpf.h>

#include "seismo-backend.h"
#include "seismo-recorder.h"
#include "seismo-ebpf-private.h"
#include "seismo-error.h"
#include "seismo-importer.h"
#include "seismo-syscalls.h"
#if __has_include ("seismo-ptrace-private.h")
#include "seismo-ptrace-private.h"
#define HAVE_PTRACE_FILTER 1
#endif

/*
 * The eBPF backend against the real kernel: the test target (seismo-ebpf-target) does a known
 * amount of known work and the recordings must show exactly that. Needs root and BTF; each test
 * skips with the backend's own reason when they are missing.
 */

#define TARGET SEISMO_EBPF_TARGET_PATH
#define N_CALLS 1000

static const SeismoBackend *
ebpf_backend_or_skip (void)
{
  const SeismoBackend *backend;
  g_autofree char *why = NULL;

  seismo_backends_init ();
  backend = seismo_backend_lookup ("ebpf");
  g_assert_nonnull (backend);
  if (!backend->available (&why))
    {
      g_autofree char *msg = g_strdup_printf ("eBPF backend unavailable: %s", why);

      g_test_skip (msg);
      return NULL;
    }
  return backend;
}

/* Our process holds no BPF object any more: every program, link, map and perf event fd (uprobes
 * are attached through perf events) was closed. */
static void
assert_nothing_held (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link (path, NULL);

      if (target != NULL && (g_str_has_prefix (target, "anon_inode:bpf")
                             || g_str_equal (target, "anon_inode:[perf_event]")))
        g_error ("fd %s still refers to %s after recording", name, target);
    }
}

/* The ids of the BPF programs and links a recording holds, seen while it runs. */
typedef struct {
  GArray *prog_ids;
  GArray *link_ids;
  gint    reported;   /* g_atomic: progress was called (the recording runs) */
} BpfIds;

static void
add_unique (GArray *ids,
            guint   id)
{
  for (guint i = 0; i < ids->len; i++)
    if (g_array_index (ids, guint, i) == id)
      return;
  g_array_append_val (ids, id);
}

/* SeismoRecordControl.progress: runs on the recording thread while everything is attached. */
static void
collect_bpf_ids (gpointer user_data)
{
  BpfIds *ids = user_data;
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;

  g_atomic_int_set (&ids->reported, 1);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link (path, NULL);
      g_autofree char *info_path = g_build_filename ("/proc/self/fdinfo", name, NULL);
      g_autofree char *info = NULL;
      const char *key;
      const char *line;

      if (g_strcmp0 (target, "anon_inode:bpf-prog") == 0)
        key = "\nprog_id:\t";
      else if (g_strcmp0 (target, "anon_inode:bpf_link") == 0)
        key = "\nlink_id:\t";
      else
        continue;
      if (!g_file_get_contents (info_path, &info, NULL, NULL)
          || (line = strstr (info, key)) == NULL)
        continue;
      add_unique (key[1] == 'p' ? ids->prog_ids : ids->link_ids,
                  (guint) g_ascii_strtoull (line + strlen (key), NULL, 10));
    }
}

static void
bpf_ids_init (BpfIds *ids)
{
  ids->reported = 0;
  ids->prog_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  ids->link_ids = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
bpf_ids_clear (BpfIds *ids)
{
  g_clear_pointer (&ids->prog_ids, g_array_unref);
  g_clear_pointer (&ids->link_ids, g_array_unref);
}

static char *
find_bpftool (void)
{
  char *path = g_find_program_in_path ("bpftool");

  if (path == NULL && g_file_test ("/usr/sbin/bpftool", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/sbin/bpftool");
  return path;
}

/* bpftool's verdict: does the kernel still have this program or link? */
static gboolean
bpftool_shows (const char *bpftool,
               const char *what,
               guint       id)
{
  g_autofree char *id_str = g_strdup_printf ("%u", id);
  const char *argv[] = { bpftool, what, "show", "id", id_str, NULL };
  g_autoptr (GError) error = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL
                               | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  return g_spawn_check_wait_status (status, NULL);
}

/* The kernel frees a program or link whose last fd was closed after an RCU grace period (the
 * links of tracepoint programs), which takes a while on a loaded machine: wait up to 10 s. */
static gboolean
still_exists (int (*get_fd_by_id) (__u32),
              guint id)
{
  for (guint i = 0; i < 200; i++)
    {
      int fd = get_fd_by_id (id);

      if (fd < 0 && errno == ENOENT)
        return FALSE;
      if (fd >= 0)
        close (fd);
      g_usleep (50 * 1000);
    }
  return TRUE;
}

/* After a recording: no fd of ours refers to BPF, and none of the programs and links it had
 * is still loaded (`bpftool prog/link show id N` fails). */
static void
assert_nothing_attached (const BpfIds *ids)
{
  g_autofree char *bpftool = find_bpftool ();

  assert_nothing_held ();
  if (ids == NULL)
    return;
  for (guint i = 0; i < ids->prog_ids->len; i++)
    {
      guint id = g_array_index (ids->prog_ids, guint, i);

      if (still_exists (bpf_prog_get_fd_by_id, id))
        g_error ("BPF program %u is still loaded 10 s after recording", id);
      if (bpftool != NULL && bpftool_shows (bpftool, "prog", id))
        g_error ("bpftool still lists BPF program %u after recording", id);
    }
  for (guint i = 0; i < ids->link_ids->len; i++)
    {
      guint id = g_array_index (ids->link_ids, guint, i);

      if (still_exists (bpf_link_get_fd_by_id, id))
        g_error ("BPF link %u is still attached 10 s after recording", id);
      if (bpftool != NULL && bpftool_shows (bpftool, "link", id))
        g_error ("bpftool still lists BPF link %u after recording", id);
    }
}

typedef struct {
  const char *const *argv;
  const char *const *probes;
  const char *const *syscalls;
  const char *const *events;
  gboolean           aggregate;
  gboolean           system_wide;
  double             duration_s;
  guint              buffer_kb;
  gboolean           keep_running;   /* a launched command outlives the recording */
} Recording;

static SeismoTrace *
record_with (const SeismoBackend *backend,
             const Recording     *what,
             SeismoRecordControl *ctl,
             GError             **error)
{
  SeismoRecordOptions options = { 0 };
  g_autoptr (SeismoTraceBuilder) builder = seismo_trace_builder_new ();

  options.argv = (char **) what->argv;
  options.probes = (char **) what->probes;
  options.syscalls = (char **) what->syscalls;
  options.events = (char **) what->events;
  options.aggregate = what->aggregate;
  options.system_wide = what->system_wide;
  options.duration_s = what->duration_s;
  options.buffer_kb = what->buffer_kb;
  options.kill_on_stop = !what->keep_running;
  if (!seismo_recorder_record (backend, &options, builder, ctl, error))
    return NULL;
  return seismo_trace_builder_finish (g_steal_pointer (&builder));
}

static SeismoTrace *
record_ok (const SeismoBackend *backend,
           const Recording     *what)
{
  BpfIds ids;
  SeismoRecordControl ctl = { .progress = collect_bpf_ids, .user_data = &ids };
  g_autoptr (GError) error = NULL;
  SeismoTrace *trace;

  bpf_ids_init (&ids);
  trace = record_with (backend, what, &ctl, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  if (what->argv != NULL)
    {
      g_assert_true (WIFEXITED (ctl.exit_status));
      g_assert_cmpint (WEXITSTATUS (ctl.exit_status), ==, 0);
    }
  g_assert_cmpuint (ctl.lost, ==, 0);
  g_assert_cmpuint (seismo_trace_get_n_lost_events (trace), ==, 0);
  g_assert_cmpuint (ctl.events, ==, seismo_trace_get_n_events (trace));
  /* The eBPF backend shows its programs and links; the ptrace one has none. */
  if (g_str_equal (backend->name, "ebpf"))
    {
      g_assert_cmpuint (ids.prog_ids->len, >, 0);
      g_assert_cmpuint (ids.link_ids->len, >, 0);
    }
  assert_nothing_attached (&ids);
  bpf_ids_clear (&ids);
  return trace;
}

/* Syscall spans of one name (all tasks); with want_ret, only those returning ret. */
static guint
count_spans (SeismoTrace *trace,
             const char  *name,
             gboolean     want_ret,
             gint64       ret)
{
  const SeismoSyscallSpan *spans;
  gsize n_spans;
  guint count = 0;

  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  for (gsize i = 0; i < n_spans; i++)
    {
      gint64 r;

      if (g_strcmp0 (seismo_trace_get_syscall_name (trace, spans[i].syscall), name) != 0)
        continue;
      if (want_ret && (!seismo_trace_syscall_span_ret (trace, &spans[i], &r) || r != ret))
        continue;
      count++;
    }
  return count;
}

static guint
count_type (SeismoTrace *trace,
            const char  *full_name)
{
  const SeismoEventType *type = seismo_trace_find_event_type (trace, full_name);

  if (type == NULL)
    return 0;
  return seismo_trace_get_type_counts (trace)[type->id];
}

static void
test_available (void)
{
  const SeismoBackend *backend;
  g_autofree char *why = NULL;
  gboolean ok;

  seismo_backends_init ();
  backend = seismo_backend_lookup ("ebpf");
  g_assert_nonnull (backend);
  ok = backend->available (&why);
  if (ok)
    g_assert_null (why);
  else
    g_assert_true (why != NULL && *why != '\0');
  /* This machine is root with BTF: the backend must be usable, or say why not. */
  if (!ok)
    g_test_skip (why);
}

static void
test_syscalls (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  g_autofree char *n = g_strdup_printf ("%d", N_CALLS);
  const char *argv[] = { TARGET, "syscalls", n, NULL };
  Recording what = { .argv = argv };
  g_autoptr (SeismoTrace) trace = NULL;
  const SeismoEventType *enter, *exec_type;
  gboolean saw_enoent_path = FALSE, saw_true_exec = FALSE;
  gsize n_events;

  if (backend == NULL)
    return;
  trace = record_ok (backend, &what);

  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_SOURCE), ==, "ebpf");
  g_assert_cmpstr (seismo_trace_get_metadata (trace, SEISMO_META_CLOCK), ==, "mono");

  g_assert_cmpuint (count_spans (trace, "getppid", FALSE, 0), ==, N_CALLS);
  /* /bin/true writes nothing: every write is the loop's. */
  g_assert_cmpuint (count_spans (trace, "write", TRUE, 1), ==, N_CALLS);
  g_assert_cmpuint (count_spans (trace, "execve", TRUE, 0), >=, 2);
  g_assert_cmpuint (count_spans (trace, "exit_group", FALSE, 0), ==, 2);
  g_assert_cmpuint (count_type (trace, "sched:sched_process_fork"), >=, 1);
  g_assert_cmpuint (count_type (trace, "sched:sched_process_exec"), ==, 2);
  g_assert_cmpuint (count_type (trace, "sched:sched_process_exit"), >=, 2);
  g_assert_cmpuint (count_type (trace, "sched:sched_switch"), >, 0);

  /* The failing open: ENOENT with its path copied in the kernel. */
  enter = seismo_trace_find_event_type (trace, "raw_syscalls:sys_enter");
  exec_type = seismo_trace_find_event_type (trace, "sched:sched_process_exec");
  g_assert_nonnull (enter);
  g_assert_nonnull (exec_type);
  n_events = seismo_trace_get_n_events (trace);
  for (SeismoEventId e = 0; e < n_events; e++)
    {
      const SeismoEventType *type = seismo_trace_event_type (trace, e);
      SeismoValue value;

      if (type == enter)
        {
          g_assert_true (seismo_trace_event_field_by_name (trace, e, "filename", &value));
          if (g_strcmp0 (value.str, "/nonexistent/seismo-ebpf-test") == 0)
            saw_enoent_path = TRUE;
        }
      else if (type == exec_type)
        {
          const SeismoTask *task = seismo_trace_event_task (trace, e);

          g_assert_true (seismo_trace_event_field_by_name (trace, e, "filename", &value));
          if (g_strcmp0 (value.str, "/bin/true") == 0)
            {
              saw_true_exec = TRUE;
              /* The grandchild, found through the fork, with its name after exec. */
              g_assert_cmpint (task->ppid, >, 0);
              g_assert_cmpstr (seismo_trace_get_string (trace, task->comm), ==, "true");
            }
        }
    }
  g_assert_true (saw_enoent_path);
  g_assert_true (saw_true_exec);
  g_assert_cmpuint (count_spans (trace, "openat", TRUE, -ENOENT), >=, 1);
}

static void
test_syscall_filter (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "syscalls", "100", NULL };
  const char *syscalls[] = { "getppid,%file", NULL };
  const char *events[] = { "raw_syscalls:*", NULL };
  Recording what = { .argv = argv, .syscalls = syscalls, .events = events };
  g_autoptr (SeismoTrace) trace = NULL;

  if (backend == NULL)
    return;
  trace = record_ok (backend, &what);
  g_assert_cmpuint (count_spans (trace, "getppid", FALSE, 0), ==, 100);
  g_assert_cmpuint (count_spans (trace, "write", FALSE, 0), ==, 0);
  g_assert_cmpuint (count_spans (trace, "openat", TRUE, -ENOENT), >=, 1);
  g_assert_cmpuint (count_type (trace, "sched:sched_switch"), ==, 0);
}

static void
test_uprobe (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "uprobe", "777", NULL };
  const char *probes[] = { "uprobe:" TARGET ":seismo_target_function",
                           "uretprobe:" TARGET ":seismo_target_function", NULL };
  const char *events[] = { "sched:sched_process_exec", NULL };
  Recording what = { .argv = argv, .probes = probes, .events = events };
  g_autoptr (SeismoTrace) trace = NULL;
  const SeismoEventType *entry, *ret;
  g_autofree gboolean *seen = g_new0 (gboolean, 777);
  gsize n_events;

  if (backend == NULL)
    return;
  trace = record_ok (backend, &what);
  g_assert_cmpuint (count_type (trace, "uprobe:seismo_target_function"), ==, 777);
  g_assert_cmpuint (count_type (trace, "uretprobe:seismo_target_function"), ==, 777);

  entry = seismo_trace_find_event_type (trace, "uprobe:seismo_target_function");
  ret = seismo_trace_find_event_type (trace, "uretprobe:seismo_target_function");
  n_events = seismo_trace_get_n_events (trace);
  for (SeismoEventId e = 0; e < n_events; e++)
    {
      SeismoValue value;

      if (seismo_trace_event_type (trace, e) == entry)
        {
          g_assert_true (seismo_trace_event_field_by_name (trace, e, "arg0", &value));
          g_assert_cmpuint (value.u, <, 777);
          seen[value.u] = TRUE;
        }
      else if (seismo_trace_event_type (trace, e) == ret)
        {
          g_assert_true (seismo_trace_event_field_by_name (trace, e, "ret", &value));
          g_assert_cmpint (value.i % 2, ==, 0);
        }
    }
  for (guint i = 0; i < 777; i++)
    g_assert_true (seen[i]);
}

static void
test_usdt (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "usdt", "321", NULL };
  const char *probes[] = { "usdt:" TARGET ":seismo_test:tick", NULL };
  const char *events[] = { "sched:sched_process_exec", NULL };
  Recording what = { .argv = argv, .probes = probes, .events = events };
  g_autoptr (SeismoTrace) trace = NULL;
  const SeismoEventType *type;
  gint64 sum = 0;
  gsize n_events;

  if (backend == NULL)
    return;
  trace = record_ok (backend, &what);
  g_assert_cmpuint (count_type (trace, "usdt:seismo_test:tick"), ==, 321);
  type = seismo_trace_find_event_type (trace, "usdt:seismo_test:tick");
  g_assert_cmpuint (type->n_fields, ==, 2);
  n_events = seismo_trace_get_n_events (trace);
  for (SeismoEventId e = 0; e < n_events; e++)
    if (seismo_trace_event_type (trace, e) == type)
      {
        SeismoValue i, n;

        g_assert_true (seismo_trace_event_field_by_name (trace, e, "arg0", &i));
        g_assert_true (seismo_trace_event_field_by_name (trace, e, "arg1", &n));
        g_assert_cmpint (n.i, ==, 321);
        sum += i.i;
      }
  g_assert_cmpint (sum, ==, 321 * 320 / 2);
}

/* The open path of this kernel: do_sys_openat2 since 5.6, do_sys_open before. */
static const char *
open_function (void)
{
  g_autofree char *syms = NULL;

  if (!g_file_get_contents ("/proc/kallsyms", &syms, NULL, NULL))
    return NULL;
  if (strstr (syms, " do_sys_openat2\n") != NULL)
    return "do_sys_openat2";
  if (strstr (syms, " do_sys_open\n") != NULL)
    return "do_sys_open";
  return NULL;
}

static void
test_kprobe (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "opens", "250", NULL };
  const char *events[] = { "raw_syscalls:*", NULL };
  const char *func;
  g_autofree char *probe = NULL;
  g_autofree char *retprobe = NULL;
  g_autofree char *type_name = NULL;
  const char *probes[3];
  Recording what = { .argv = argv, .probes = probes, .events = events };
  g_autoptr (SeismoTrace) trace = NULL;
  guint opens;

  if (backend == NULL)
    return;
  if (!g_file_test ("/sys/bus/event_source/devices/kprobe/type", G_FILE_TEST_EXISTS)
      && !g_file_test ("/sys/kernel/tracing/kprobe_events", G_FILE_TEST_EXISTS)
      && !g_file_test ("/sys/kernel/debug/tracing/kprobe_events", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("this kernel has no kprobes (no kprobe PMU, no kprobe_events)");
      return;
    }
  func = open_function ();
  if (func == NULL)
    {
      g_test_skip ("no do_sys_openat2 or do_sys_open in /proc/kallsyms");
      return;
    }
  probe = g_strdup_printf ("kprobe:%s", func);
  retprobe = g_strdup_printf ("kretprobe:%s", func);
  probes[0] = probe;
  probes[1] = retprobe;
  probes[2] = NULL;
  trace = record_ok (backend, &what);

  /* Every open of the target (the loader's and the loop's) went through the function once. */
  opens = count_spans (trace, "open", FALSE, 0) + count_spans (trace, "openat", FALSE, 0)
          + count_spans (trace, "openat2", FALSE, 0) + count_spans (trace, "creat", FALSE, 0);
  g_assert_cmpuint (opens, >=, 250);
  type_name = g_strdup_printf ("kprobe:%s", func);
  g_assert_cmpuint (count_type (trace, type_name), ==, opens);
  g_free (type_name);
  type_name = g_strdup_printf ("kretprobe:%s", func);
  g_assert_cmpuint (count_type (trace, type_name), ==, opens);
}

static const SeismoHistogram *
find_histogram (SeismoTrace *trace,
                const char  *name,
                const char  *key)
{
  guint n;
  const SeismoHistogram *h = seismo_trace_get_histograms (trace, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (h[i].name, name) && g_str_equal (h[i].key, key))
      return &h[i];
  return NULL;
}

static void
test_aggregate (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  g_autofree char *n = g_strdup_printf ("%d", N_CALLS);
  const char *argv[] = { TARGET, "syscalls", n, NULL };
  Recording what = { .argv = argv, .aggregate = TRUE };
  g_autoptr (SeismoTrace) trace = NULL;
  const SeismoHistogram *latency, *count, *task;
  guint64 bucket_sum = 0;

  if (backend == NULL)
    return;
  trace = record_ok (backend, &what);
  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, 0);

  latency = find_histogram (trace, "syscall_latency", "getppid");
  count = find_histogram (trace, "syscall_count", "getppid");
  g_assert_nonnull (latency);
  g_assert_nonnull (count);
  g_assert_cmpstr (latency->unit, ==, "ns");
  for (guint i = 0; i < latency->n_buckets; i++)
    {
      bucket_sum += latency->counts[i];
      if (i > 0)
        g_assert_cmpuint (latency->lower[i], ==, latency->lower[i - 1] * 2
                                                 + (latency->lower[i - 1] == 0));
    }
  g_assert_cmpuint (bucket_sum, ==, N_CALLS);
  g_assert_cmpuint (latency->total_count, ==, N_CALLS);
  g_assert_cmpuint (count->total_count, ==, N_CALLS);
  g_assert_cmpuint (latency->sum, >, 0);

  latency = find_histogram (trace, "syscall_latency", "write");
  g_assert_nonnull (latency);
  g_assert_cmpuint (latency->total_count, ==, N_CALLS);
  count = find_histogram (trace, "syscall_count", "exit_group");
  g_assert_nonnull (count);
  g_assert_cmpuint (count->total_count, ==, 2);

  task = find_histogram (trace, "task_syscalls", "comm=seismo-ebpf-tar");
  g_assert_nonnull (task);
  g_assert_cmpuint (task->total_count, >=, 2 * N_CALLS);

  /* The histograms are part of the saved trace. */
  {
    g_autofree char *dir = g_dir_make_tmp ("seismo-ebpf-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "aggregate.seismo", NULL);
    g_autoptr (GError) error = NULL;
    g_autoptr (SeismoTrace) reopened = NULL;
    guint n_before, n_after;

    g_assert_nonnull (dir);
    g_assert_true (seismo_trace_save (trace, path, &error));
    g_assert_no_error (error);
    reopened = seismo_trace_open (path, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    seismo_trace_get_histograms (trace, &n_before);
    seismo_trace_get_histograms (reopened, &n_after);
    g_assert_cmpuint (n_after, ==, n_before);
    latency = find_histogram (reopened, "syscall_latency", "getppid");
    g_assert_nonnull (latency);
    g_assert_cmpuint (latency->total_count, ==, N_CALLS);
    g_unlink (path);
    g_rmdir (dir);
  }
}

/* The ptrace backend sees the same syscalls of the same child. */
static void
test_same_as_ptrace (void)
{
  static const char *const names[] = { "getppid", "write", "clone", "wait4", "exit_group",
                                       "close", "read" };
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const SeismoBackend *ptrace_backend;
  const char *argv[] = { TARGET, "syscalls", "200", NULL };
  Recording what = { .argv = argv };
  g_autoptr (SeismoTrace) ebpf_trace = NULL;
  g_autoptr (SeismoTrace) ptrace_trace = NULL;
  g_autofree char *why = NULL;

  if (backend == NULL)
    return;
  ptrace_backend = seismo_backend_lookup ("ptrace");
  if (ptrace_backend == NULL)
    {
      g_test_skip ("this build has no ptrace backend to compare with");
      return;
    }
  if (!ptrace_backend->available (&why))
    {
      g_test_skip (why);
      return;
    }

  ebpf_trace = record_ok (backend, &what);
  ptrace_trace = record_ok (ptrace_backend, &what);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      guint e = count_spans (ebpf_trace, names[i], FALSE, 0);
      guint p = count_spans (ptrace_trace, names[i], FALSE, 0);

      if (e != p)
        g_error ("%s: eBPF recorded %u calls, ptrace %u", names[i], e, p);
    }
  g_assert_cmpuint (count_spans (ebpf_trace, "openat", TRUE, -ENOENT), ==,
                    count_spans (ptrace_trace, "openat", TRUE, -ENOENT));
}

/* A ring too small for the load drops records; the kernel's count reaches the trace. */
static void
test_lost (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "writes", "100000", NULL };
  const char *events[] = { "raw_syscalls:*", NULL };
  Recording what = { .argv = argv, .events = events, .buffer_kb = 4 };
  BpfIds ids;
  SeismoRecordControl ctl = { .progress = collect_bpf_ids, .user_data = &ids };
  g_autoptr (GError) error = NULL;
  g_autoptr (SeismoTrace) trace = NULL;
  const SeismoLostEvents *lost;
  guint n_lost, writes;
  guint64 total = 0;

  if (backend == NULL)
    return;
  bpf_ids_init (&ids);
  trace = record_with (backend, &what, &ctl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  assert_nothing_attached (&ids);
  bpf_ids_clear (&ids);

  lost = seismo_trace_get_lost_events (trace, &n_lost);
  for (guint i = 0; i < n_lost; i++)
    {
      g_assert_cmpint (lost[i].cpu, >=, 0);
      total += lost[i].count;
    }
  g_assert_cmpuint (ctl.lost, >, 0);
  g_assert_cmpuint (total, ==, ctl.lost);
  g_assert_cmpuint (seismo_trace_get_n_lost_events (trace), ==, ctl.lost);
  /* Every write is either recorded (an enter and an exit) or counted lost (two events). */
  writes = count_spans (trace, "write", TRUE, 1);
  g_assert_cmpuint (writes, <, 100000);
  g_assert_cmpuint (writes + ctl.lost / 2, >=, 100000);
}

typedef struct {
  SeismoRecordControl *ctl;
  BpfIds              *ids;
  guint                delay_ms;
} Stopper;

/* Stops delay_ms after the recording runs (its first progress report): setting up can take
 * longer than that on a loaded machine, and a stop before the command runs is another case. */
static gpointer
stop_later (gpointer data)
{
  Stopper *stopper = data;

  for (guint i = 0; i < 60 * 100 && !g_atomic_int_get (&stopper->ids->reported); i++)
    g_usleep (10 * 1000);
  g_usleep (stopper->delay_ms * 1000);
  g_atomic_int_set (&stopper->ctl->stop, 1);
  return NULL;
}

/* Stopping (what the CLI's SIGINT/SIGTERM handler does) ends a system-wide recording promptly
 * and releases everything; the launched command is killed. */
static void
test_stop (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "sleep", "30000", NULL };
  Recording what = { .argv = argv, .system_wide = TRUE };
  BpfIds ids;
  SeismoRecordControl ctl = { .progress = collect_bpf_ids, .user_data = &ids };
  Stopper stopper = { &ctl, &ids, 400 };
  g_autoptr (GError) error = NULL;
  g_autoptr (SeismoTrace) trace = NULL;
  g_autoptr (GThread) thread = NULL;
  gint64 start;

  if (backend == NULL)
    return;
  bpf_ids_init (&ids);
  thread = g_thread_new ("stopper", stop_later, &stopper);
  start = g_get_monotonic_time ();
  trace = record_with (backend, &what, &ctl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_thread_join (g_steal_pointer (&thread));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  g_test_message ("stopped after %.2f s, command wait status 0x%x",
                  (g_get_monotonic_time () - start) / 1e6, ctl.exit_status);
  g_assert_true (WIFSIGNALED (ctl.exit_status));
  g_assert_cmpuint (seismo_trace_get_n_events (trace), >, 0);
  g_assert_cmpuint (ids.prog_ids->len, >, 0);
  assert_nothing_attached (&ids);
  bpf_ids_clear (&ids);
}

/* A probe that cannot attach fails the recording with the reason, leaving nothing behind. */
static void
test_bad_probe (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *argv[] = { TARGET, "uprobe", "1", NULL };
  const char *missing_symbol[] = { "uprobe:" TARGET ":no_such_function_here", NULL };
  const char *missing_binary[] = { "uprobe:/nonexistent/binary:main", NULL };
  const char *missing_kfunc[] = { "kprobe:seismo_no_such_kernel_function", NULL };
  const char *const *cases[] = { missing_symbol, missing_binary, missing_kfunc };

  if (backend == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Recording what = { .argv = argv, .probes = cases[i] };
      SeismoRecordControl ctl = { 0 };
      g_autoptr (GError) error = NULL;
      g_autoptr (SeismoTrace) trace = record_with (backend, &what, &ctl, &error);

      g_assert_null (trace);
      g_assert_nonnull (error);
      g_test_message ("%s → %s", cases[i][0], error->message);
      g_assert_nonnull (strstr (error->message, cases[i][0]));
      assert_nothing_attached (NULL);
    }
}

static void
test_probe_parse (void)
{
  static const struct {
    const char         *spec;
    gboolean            ok;
    SeismoEbpfProbeKind kind;
    const char         *binary;
    const char         *system;
    const char         *event;
    gsize               offset;
  } cases[] = {
    { "kprobe:do_sys_openat2", TRUE, SEISMO_EBPF_KPROBE, NULL, "kprobe", "do_sys_openat2", 0 },
    { "kretprobe:vfs_read", TRUE, SEISMO_EBPF_KRETPROBE, NULL, "kretprobe", "vfs_read", 0 },
    { "kprobe:vfs_read+0x10", TRUE, SEISMO_EBPF_KPROBE, NULL, "kprobe", "vfs_read+0x10", 16 },
    { "uprobe:/bin/x:main", TRUE, SEISMO_EBPF_UPROBE, "/bin/x", "uprobe", "main", 0 },
    { "uretprobe:/a:b/c:f", TRUE, SEISMO_EBPF_URETPROBE, "/a:b/c", "uretprobe", "f", 0 },
    { "uprobe:/bin/x:0x1234", TRUE, SEISMO_EBPF_UPROBE, "/bin/x", "uprobe", "0x1234", 0x1234 },
    { "usdt:/bin/x:prov:tick", TRUE, SEISMO_EBPF_USDT, "/bin/x", "usdt", "prov:tick", 0 },
    { "kprobe:", FALSE },
    { "kprobe:a b", FALSE },
    { "uprobe:main", FALSE },
    { "uprobe:/bin/x:", FALSE },
    { "usdt:/bin/x:tick", FALSE },
    { "tracepoint:sched:sched_switch", FALSE },
    { "kprobe:f+zz", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SeismoEbpfProbe probe;
      g_autoptr (GError) error = NULL;
      gboolean ok = seismo_ebpf_probe_parse (cases[i].spec, &probe, &error);

      g_test_message ("%s", cases[i].spec);
      g_assert_cmpint (ok, ==, cases[i].ok);
      if (!ok)
        {
          g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
          g_assert_nonnull (strstr (error->message, cases[i].spec));
          continue;
        }
      g_assert_cmpint (probe.kind, ==, cases[i].kind);
      g_assert_cmpstr (probe.binary, ==, cases[i].binary);
      g_assert_cmpstr (probe.system, ==, cases[i].system);
      g_assert_cmpstr (probe.event, ==, cases[i].event);
      g_assert_cmpuint (probe.offset, ==, cases[i].offset);
      seismo_ebpf_probe_clear (&probe);
    }
}

static void
test_syscall_filter_parse (void)
{
  guint64 bitmap[SEISMO_EBPF_MAX_SYSCALLS / 64];
  const char *good[] = { "read, write", "%file", NULL };
  const char *bad_name[] = { "no_such_syscall", NULL };
  const char *bad_class[] = { "%nope", NULL };
  g_autoptr (GError) error = NULL;
  gint64 nr;

  g_assert_true (seismo_ebpf_syscall_filter ((char **) good, bitmap, &error));
  g_assert_no_error (error);
  nr = seismo_syscall_number (SEISMO_ARCH_X86_64, "read");
  g_assert_true (bitmap[nr / 64] & (G_GUINT64_CONSTANT (1) << (nr % 64)));
  nr = seismo_syscall_number (SEISMO_ARCH_X86_64, "openat");
  g_assert_true (bitmap[nr / 64] & (G_GUINT64_CONSTANT (1) << (nr % 64)));
  nr = seismo_syscall_number (SEISMO_ARCH_X86_64, "getppid");
  g_assert_false (bitmap[nr / 64] & (G_GUINT64_CONSTANT (1) << (nr % 64)));

  g_assert_false (seismo_ebpf_syscall_filter ((char **) bad_name, bitmap, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
  g_clear_error (&error);
  g_assert_false (seismo_ebpf_syscall_filter ((char **) bad_class, bitmap, &error));
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION);
}

/* `-e %CLASS` selects the same syscalls in the eBPF and the ptrace backends: the catalogue's. */
static void
test_syscall_classes (void)
{
  static const char *const classes[] = {
    "%file", "%desc", "%process", "%network", "%net", "%signal", "%ipc", "%memory", "%creds",
    "%clock",
  };
  gint64 first = seismo_syscall_table_first (SEISMO_ARCH_X86_64);
  gint64 end = first + seismo_syscall_table_size (SEISMO_ARCH_X86_64);

  for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
    {
      const char *spec[] = { classes[c], NULL };
      guint64 bitmap[SEISMO_EBPF_MAX_SYSCALLS / 64];
      guint32 bit = seismo_syscall_class_from_name (classes[c]);
      guint n_selected = 0;
      g_autoptr (GError) error = NULL;
#ifdef HAVE_PTRACE_FILTER
      g_autoptr (SeismoPtraceFilter) ptrace = seismo_ptrace_filter_new (spec, &error);

      g_assert_no_error (error);
#endif
      g_assert_true (seismo_ebpf_syscall_filter ((char **) spec, bitmap, &error));
      g_assert_no_error (error);
      for (gint64 nr = first; nr < end && nr < SEISMO_EBPF_MAX_SYSCALLS; nr++)
        {
          const char *name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);
          gboolean want = name != NULL && (seismo_syscall_classes (name) & bit) != 0;
          gboolean ebpf = (bitmap[nr / 64] >> (nr % 64)) & 1;

          if (want != ebpf)
            g_error ("%s: eBPF %s %s", classes[c], ebpf ? "selects" : "misses", name);
#ifdef HAVE_PTRACE_FILTER
          if (want != seismo_ptrace_filter_wants (ptrace, SEISMO_ARCH_X86_64, nr))
            g_error ("%s: ptrace %s %s", classes[c], want ? "misses" : "selects", name);
#endif
          n_selected += want;
        }
      g_assert_cmpuint (n_selected, >, 0);
    }
}

/* Staged syscall records arrive as one batch record: decoded as the records it holds, and
 * refused as a whole when its lengths do not add up. */
static void
test_batch_decode (void)
{
  SeismoEbpfSelection selection = { .syscalls = TRUE };
  g_autoptr (SeismoTraceBuilder) builder = seismo_trace_builder_new ();
  g_autoptr (SeismoEbpfDecoder) decoder = seismo_ebpf_decoder_new (builder, &selection, NULL, 0);
  g_autofree struct seismo_ebpf_batch *batch = g_new0 (struct seismo_ebpf_batch, 1);
  struct seismo_ebpf_syscall sc = { { 0 } };
  struct seismo_ebpf_syscall_path sp = { { { 0 } } };
  g_autoptr (SeismoTrace) trace = NULL;
  gint64 nr_write = seismo_syscall_number (SEISMO_ARCH_X86_64, "write");
  gint64 nr_openat = seismo_syscall_number (SEISMO_ARCH_X86_64, "openat");

  batch->hdr.kind = SEISMO_EBPF_REC_BATCH;
  sc.hdr.kind = SEISMO_EBPF_REC_SYSCALL;
  sc.hdr.tid = sc.hdr.pid = 4242;
  sc.id = nr_write;
  sc.ret = 1;
  for (guint i = 0; i < 2; i++)
    {
      sc.hdr.time_ns = 1000 + i * 100;
      sc.duration_ns = 10;
      memcpy (batch->data + batch->len, &sc, sizeof sc);
      batch->len += sizeof sc;
      batch->count++;
    }
  sp.sc = sc;
  sp.sc.hdr.kind = SEISMO_EBPF_REC_SYSCALL_PATH;
  sp.sc.hdr.time_ns = 2000;
  sp.sc.id = nr_openat;
  sp.sc.ret = -ENOENT;
  g_strlcpy (sp.path, "/nonexistent", sizeof sp.path);
  memcpy (batch->data + batch->len, &sp, sizeof sp);
  batch->len += sizeof sp;
  batch->count++;

  /* Lengths that do not add up: a short buffer, a count that disagrees, a cut record. */
  g_assert_cmpint (seismo_ebpf_decoder_record (decoder, batch, 32 + batch->len - 8), ==, -1);
  batch->count++;
  g_assert_cmpint (seismo_ebpf_decoder_record (decoder, batch, sizeof *batch), ==, -1);
  batch->count--;
  batch->len -= 8;
  g_assert_cmpint (seismo_ebpf_decoder_record (decoder, batch, sizeof *batch), ==, -1);
  batch->len += 8;

  g_assert_cmpint (seismo_ebpf_decoder_record (decoder, batch, sizeof *batch), ==, 6);
  seismo_ebpf_decoder_finish (decoder, 10000);
  g_clear_pointer (&decoder, seismo_ebpf_decoder_free);
  trace = seismo_trace_builder_finish (g_steal_pointer (&builder));
  /* Nothing of the refused batches: an enter and an exit per record of the good one. */
  g_assert_cmpuint (seismo_trace_get_n_events (trace), ==, 6);
  g_assert_cmpuint (count_spans (trace, "write", TRUE, 1), ==, 2);
  g_assert_cmpuint (count_spans (trace, "openat", TRUE, -ENOENT), ==, 1);
}

/* The tracepoint contexts compiled into the programs match this kernel's format files. */
static void
test_tracepoint_layouts (void)
{
  const char *events[] = { "sched/sched_switch", "sched/sched_wakeup", "sched/sched_waking",
                           "sched/sched_process_exec", "sched/sched_process_exit",
                           "task/task_rename", NULL };
  g_autoptr (GError) error = NULL;

  if (access ("/sys/kernel/tracing/events/sched/sched_switch/format", R_OK) != 0)
    {
      g_test_skip ("tracefs is not mounted at /sys/kernel/tracing or not readable");
      return;
    }
  g_assert_true (seismo_ebpf_check_tracepoints (events, &error));
  g_assert_no_error (error);
}

#define N_NAPS 200
#define NAP_NS (2 * 1000 * 1000)

/* Syscalls the thread is switched out in, while its record waits in the spilled map (and may
 * come back on another CPU), pair like any other: every nap is a complete span returning 0 that
 * lasts at least the nap. */
static void
test_blocking (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  g_autofree char *n = g_strdup_printf ("%d", N_NAPS);
  const char *argv[] = { TARGET, "naps", n, NULL };
  Recording what = { .argv = argv };
  g_autoptr (SeismoTrace) trace = NULL;
  const SeismoSyscallSpan *spans;
  gsize n_spans;
  guint naps = 0;

  if (backend == NULL)
    return;
  trace = record_ok (backend, &what);
  spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  for (gsize i = 0; i < n_spans; i++)
    {
      gint64 ret = -1;

      if (g_strcmp0 (seismo_trace_get_syscall_name (trace, spans[i].syscall),
                     "clock_nanosleep") != 0)
        continue;
      g_assert_cmpuint (spans[i].exit, !=, SEISMO_NO_EVENT);
      g_assert_true (seismo_trace_syscall_span_ret (trace, &spans[i], &ret));
      g_assert_cmpint (ret, ==, 0);
      g_assert_cmpuint (seismo_trace_event_time (trace, spans[i].exit)
                        - seismo_trace_event_time (trace, spans[i].enter), >=, NAP_NS);
      naps++;
    }
  g_assert_cmpuint (naps, ==, N_NAPS);
}

/* A recording that stops while the command sleeps (and keeps running): the nap in progress is
 * there as an enter without an exit, read back from the kernel's maps after detaching. */
static void
test_in_progress (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  /* 10 s or more: ends by itself should the test fail before it kills it. */
  const char *argv[] = { TARGET, "naps", "5000", NULL };
  guint unfinished = 0;

  if (backend == NULL)
    return;
  /*
   * The thread is asleep but for a few microseconds between naps, so the stop nearly always
   * finds one nap in progress; on a busy machine it can be preempted in user space between two
   * naps, so a stop finding none is tried again (at most 3 times). Never may one be counted twice.
   */
  for (guint attempt = 0; attempt < 3 && unfinished != 1; attempt++)
    {
      Recording what = { .argv = argv, .duration_s = 1.0, .keep_running = TRUE };
      SeismoRecordControl ctl = { 0 };
      g_autoptr (GError) error = NULL;
      g_autoptr (SeismoTrace) trace = NULL;
      const SeismoSyscallSpan *spans;
      gsize n_spans;
      guint complete = 0;
      GPid pid = 0;
      int status;

      unfinished = 0;
      trace = record_with (backend, &what, &ctl, &error);
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      g_assert_cmpuint (ctl.lost, ==, 0);
      spans = seismo_trace_get_syscall_spans (trace, &n_spans);
      for (gsize i = 0; i < n_spans; i++)
        {
          if (g_strcmp0 (seismo_trace_get_syscall_name (trace, spans[i].syscall),
                         "clock_nanosleep") != 0)
            continue;
          pid = seismo_trace_event_task (trace, spans[i].enter)->pid;
          if (spans[i].exit == SEISMO_NO_EVENT)
            unfinished++;
          else
            complete++;
        }
      /* The command is still running: it was launched by this process, so end it here. */
      g_assert_cmpint (pid, >, 0);
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_test_message ("attempt %u: %u complete naps, %u in progress at the end", attempt + 1,
                      complete, unfinished);
      g_assert_cmpuint (complete, >, 10);
      g_assert_cmpuint (unfinished, <=, 1);
    }
  g_assert_cmpuint (unfinished, ==, 1);
}

/* Without kernel BTF (simulated: the backend is told to look for it at a file that does not
 * exist), available() and record() say what is missing and where it was looked for. */
static void
test_no_btf (void)
{
  const SeismoBackend *backend = ebpf_backend_or_skip ();
  const char *missing = "/nonexistent/seismo-test/vmlinux";
  const char *argv[] = { TARGET, "writes", "1", NULL };
  Recording what = { .argv = argv };
  SeismoRecordControl ctl = { 0 };
  g_autofree char *why = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (SeismoTrace) trace = NULL;

  if (backend == NULL)
    return;
  g_setenv ("SEISMO_EBPF_KERNEL_BTF", missing, TRUE);
  g_assert_false (backend->available (&why));
  trace = record_with (backend, &what, &ctl, &error);
  g_unsetenv ("SEISMO_EBPF_KERNEL_BTF");

  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, "no BTF type information"));
  g_assert_nonnull (strstr (why, missing));
  g_assert_nonnull (strstr (why, "CONFIG_DEBUG_INFO_BTF=y"));
  g_assert_null (trace);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, why));
  assert_nothing_held ();

  /* Pointed at the real BTF, the CO-RE relocations use that file and recording works. */
  g_setenv ("SEISMO_EBPF_KERNEL_BTF", "/sys/kernel/btf/vmlinux", TRUE);
  g_clear_object (&trace);
  trace = record_ok (backend, &what);
  g_unsetenv ("SEISMO_EBPF_KERNEL_BTF");
  g_assert_cmpuint (count_spans (trace, "write", TRUE, 1), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ebpf/probe-parse", test_probe_parse);
  g_test_add_func ("/ebpf/syscall-filter-parse", test_syscall_filter_parse);
  g_test_add_func ("/ebpf/syscall-classes", test_syscall_classes);
  g_test_add_func ("/ebpf/batch-decode", test_batch_decode);
  g_test_add_func ("/ebpf/tracepoint-layouts", test_tracepoint_layouts);
  g_test_add_func ("/ebpf/available", test_available);
  g_test_add_func ("/ebpf/syscalls", test_syscalls);
  g_test_add_func ("/ebpf/syscall-filter", test_syscall_filter);
  g_test_add_func ("/ebpf/uprobe", test_uprobe);
  g_test_add_func ("/ebpf/usdt", test_usdt);
  g_test_add_func ("/ebpf/kprobe", test_kprobe);
  g_test_add_func ("/ebpf/aggregate", test_aggregate);
  g_test_add_func ("/ebpf/same-as-ptrace", test_same_as_ptrace);
  g_test_add_func ("/ebpf/lost", test_lost);
  g_test_add_func ("/ebpf/stop", test_stop);
  g_test_add_func ("/ebpf/blocking", test_blocking);
  g_test_add_func ("/ebpf/in-progress", test_in_progress);
  g_test_add_func ("/ebpf/no-btf", test_no_btf);
  g_test_add_func ("/ebpf/bad-probe", test_bad_probe);

  return g_test_run ();
}

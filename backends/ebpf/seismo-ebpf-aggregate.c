/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>

#include "seismo-ebpf-private.h"
#include "seismo-error.h"
#include "seismo-syscalls.h"

/*
 * --aggregate: the kernel kept per-CPU log2 latency histograms and call counts per syscall, and
 * call counts per command name (bpftrace's hist() and count()); fold them into SeismoHistogram
 * objects stored with the trace.
 */

static SeismoHistogram *
histogram_new (const char *name,
               const char *key,
               const char *unit,
               guint       n_buckets)
{
  SeismoHistogram *h = g_new0 (SeismoHistogram, 1);

  h->name = g_strdup (name);
  h->key = g_strdup (key);
  h->unit = g_strdup (unit);
  h->n_buckets = n_buckets;
  h->lower = g_new0 (guint64, MAX (n_buckets, 1));
  h->counts = g_new0 (guint64, MAX (n_buckets, 1));
  return h;
}

static void
histogram_free (SeismoHistogram *h)
{
  g_free (h->name);
  g_free (h->key);
  g_free (h->unit);
  g_free (h->lower);
  g_free (h->counts);
  g_free (h);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoHistogram, histogram_free)

static void
add_count (SeismoTraceBuilder *builder,
           const char         *name,
           const char         *key,
           guint64             count)
{
  g_autoptr (SeismoHistogram) h = histogram_new (name, key, "calls", 1);

  h->counts[0] = count;
  h->total_count = count;
  h->sum = count;
  seismo_trace_builder_add_histogram (builder, h);
}

static void
add_comm_calls (GHashTable *by_comm,
                const char *comm_bytes,
                guint64     calls)
{
  g_autofree char *comm = g_strndup (comm_bytes, SEISMO_EBPF_COMM_LEN);
  guint64 *acc;

  if (calls == 0)
    return;
  acc = g_hash_table_lookup (by_comm, comm);
  if (acc == NULL)
    {
      acc = g_new0 (guint64, 1);
      g_hash_table_insert (by_comm, g_steal_pointer (&comm), acc);
    }
  *acc += calls;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Adds syscall_latency (key: syscall, unit ns), syscall_count and task_syscalls (key: comm=NAME)
 * histograms to the builder. */
gboolean
seismo_ebpf_read_aggregates (SeismoTraceBuilder *builder,
                             int                 stats_fd,
                             int                 comm_fd,
                             int                 threads_fd,
                             int                 ncpu,
                             GError            **error)
{
  int fd = stats_fd;
  g_autofree struct seismo_ebpf_syscall_stats *per_cpu =
    g_new (struct seismo_ebpf_syscall_stats, ncpu);
  g_autoptr (GHashTable) by_comm = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          g_free);
  struct seismo_ebpf_comm_key key, next, *prev = NULL;

  for (guint32 nr = 0; nr < SEISMO_EBPF_MAX_SYSCALLS; nr++)
    {
      struct seismo_ebpf_syscall_stats sum = { { 0 } };
      g_autofree char *fallback = NULL;
      const char *name;
      int first = -1, last = -1;

      if (bpf_map_lookup_elem (fd, &nr, per_cpu) != 0)
        {
          int saved = errno;

          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                       _("could not read the in-kernel syscall histograms: %s"), g_strerror (saved));
          return FALSE;
        }
      for (int cpu = 0; cpu < ncpu; cpu++)
        {
          for (guint b = 0; b < SEISMO_EBPF_HIST_BUCKETS; b++)
            sum.buckets[b] += per_cpu[cpu].buckets[b];
          sum.latency_sum_ns += per_cpu[cpu].latency_sum_ns;
          sum.calls += per_cpu[cpu].calls;
        }
      for (guint b = 0; b < SEISMO_EBPF_HIST_BUCKETS; b++)
        if (sum.buckets[b] != 0)
          {
            if (first < 0)
              first = b;
            last = b;
          }
      if (sum.calls == 0 && first < 0)
        continue;

      name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);
      if (name == NULL)
        name = fallback = g_strdup_printf ("syscall_%u", nr);
      add_count (builder, "syscall_count", name, sum.calls);
      if (first >= 0)
        {
          g_autoptr (SeismoHistogram) h = histogram_new ("syscall_latency", name, "ns",
                                                         last - first + 1);

          for (int b = first; b <= last; b++)
            {
              h->lower[b - first] = b == 0 ? 0 : G_GUINT64_CONSTANT (1) << (b - 1);
              h->counts[b - first] = sum.buckets[b];
              h->total_count += sum.buckets[b];
            }
          h->sum = sum.latency_sum_ns;
          seismo_trace_builder_add_histogram (builder, h);
        }
    }

  /* Threads that exited or exec'd were added up in the kernel; the live ones still count
   * their own calls. */
  while (bpf_map_get_next_key (comm_fd, prev, &next) == 0)
    {
      guint64 count;

      key = next;
      prev = &key;
      if (bpf_map_lookup_elem (comm_fd, &key, &count) == 0)
        add_comm_calls (by_comm, key.comm, count);
    }
  {
    guint32 tid, next_tid, *prev_tid = NULL;
    struct seismo_ebpf_thread t;

    while (bpf_map_get_next_key (threads_fd, prev_tid, &next_tid) == 0)
      {
        tid = next_tid;
        prev_tid = &tid;
        if (bpf_map_lookup_elem (threads_fd, &tid, &t) == 0)
          add_comm_calls (by_comm, t.comm, t.calls);
      }
  }
  {
    g_autoptr (GPtrArray) comms = g_ptr_array_new ();
    GHashTableIter iter;
    gpointer comm_key;

    g_hash_table_iter_init (&iter, by_comm);
    while (g_hash_table_iter_next (&iter, &comm_key, NULL))
      g_ptr_array_add (comms, comm_key);
    g_ptr_array_sort (comms, compare_strings);
    for (guint i = 0; i < comms->len; i++)
      {
        const char *comm = g_ptr_array_index (comms, i);
        g_autofree char *label = g_strdup_printf ("comm=%s", comm);

        add_count (builder, "task_syscalls", label,
                   *(guint64 *) g_hash_table_lookup (by_comm, comm));
      }
  }
  return TRUE;
}


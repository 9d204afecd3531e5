/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "seismo-ebpf-private.h"
#include "seismo-error.h"

/*
 * The recording's target in the kernel's targets map: the command SeismoRecorder launched and
 * holds until the programs are attached, or an existing process's threads and descendants.
 */

void
seismo_ebpf_add_target (int    targets_fd,
                        gint32 tid)
{
  guint8 one = 1;
  guint32 key = tid;

  bpf_map_update_elem (targets_fd, &key, &one, BPF_ANY);
}

static void
add_process_threads (int    targets_fd,
                     gint32 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task", pid);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  seismo_ebpf_add_target (targets_fd, pid);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    seismo_ebpf_add_target (targets_fd, atoi (name));
}

/* The parent pid from /proc/PID/stat; the comm in parentheses may contain anything. */
static gint32
read_ppid (gint32 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *close_paren;
  int ppid;
  char state;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return -1;
  close_paren = strrchr (stat, ')');
  if (close_paren == NULL || sscanf (close_paren + 1, " %c %d", &state, &ppid) != 2)
    return -1;
  return ppid;
}

/* -p PID --children: the process's threads and, transitively, its existing children's. */
void
seismo_ebpf_seed_targets (int      targets_fd,
                          gint32   pid,
                          gboolean children)
{
  g_autoptr (GHashTable) parent_of = NULL;
  g_autoptr (GArray) queue = NULL;
  g_autoptr (GDir) proc = NULL;
  const char *name;

  add_process_threads (targets_fd, pid);
  if (!children)
    return;

  parent_of = g_hash_table_new (NULL, NULL);
  proc = g_dir_open ("/proc", 0, NULL);
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      gint32 p = atoi (name);
      gint32 ppid;

      if (p > 0 && (ppid = read_ppid (p)) > 0)
        g_hash_table_insert (parent_of, GINT_TO_POINTER (p), GINT_TO_POINTER (ppid));
    }

  queue = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_array_append_val (queue, pid);
  for (guint i = 0; i < queue->len; i++)
    {
      gint32 parent = g_array_index (queue, gint32, i);
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, parent_of);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (GPOINTER_TO_INT (value) == parent)
          {
            gint32 child = GPOINTER_TO_INT (key);

            g_array_append_val (queue, child);
            add_process_threads (targets_fd, child);
          }
    }
}


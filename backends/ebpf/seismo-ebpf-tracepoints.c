/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <stdlib.h>
#include <string.h>

#include "seismo-ebpf-private.h"
#include "seismo-ebpf-tracepoints.h"
#include "seismo-error.h"

/*
 * The classic tracepoint contexts are compiled into the BPF programs; before loading them, make
 * sure the running kernel lays those tracepoints out the same way, so a changed layout is an error
 * naming the field instead of silently wrong values.
 */

typedef struct {
  const char *event;    /* "system/name" */
  const char *field;
  gsize       offset;
  gsize       size;
} FieldLayout;

#define FIELD(event, type, member) \
  { event, #member, G_STRUCT_OFFSET (type, member), sizeof (((type *) NULL)->member) }

static const FieldLayout layouts[] = {
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, prev_comm),
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, prev_pid),
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, prev_prio),
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, prev_state),
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, next_comm),
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, next_pid),
  FIELD ("sched/sched_switch", struct seismo_tp_sched_switch, next_prio),
  FIELD ("sched/sched_wakeup", struct seismo_tp_sched_wakeup, comm),
  FIELD ("sched/sched_wakeup", struct seismo_tp_sched_wakeup, pid),
  FIELD ("sched/sched_wakeup", struct seismo_tp_sched_wakeup, prio),
  FIELD ("sched/sched_wakeup", struct seismo_tp_sched_wakeup, target_cpu),
  FIELD ("sched/sched_waking", struct seismo_tp_sched_wakeup, comm),
  FIELD ("sched/sched_waking", struct seismo_tp_sched_wakeup, pid),
  FIELD ("sched/sched_waking", struct seismo_tp_sched_wakeup, prio),
  FIELD ("sched/sched_waking", struct seismo_tp_sched_wakeup, target_cpu),
  { "sched/sched_process_exec", "filename",
    G_STRUCT_OFFSET (struct seismo_tp_sched_process_exec, filename_loc), 4 },
  FIELD ("sched/sched_process_exec", struct seismo_tp_sched_process_exec, pid),
  FIELD ("sched/sched_process_exec", struct seismo_tp_sched_process_exec, old_pid),
  FIELD ("sched/sched_process_exit", struct seismo_tp_sched_process_exit, comm),
  FIELD ("sched/sched_process_exit", struct seismo_tp_sched_process_exit, pid),
  FIELD ("sched/sched_process_exit", struct seismo_tp_sched_process_exit, prio),
  FIELD ("task/task_rename", struct seismo_tp_task_rename, pid),
  FIELD ("task/task_rename", struct seismo_tp_task_rename, oldcomm),
  FIELD ("task/task_rename", struct seismo_tp_task_rename, newcomm),
};

#undef FIELD

static const char *const events_dirs[] = {
  "/sys/kernel/tracing/events",
  "/sys/kernel/debug/tracing/events",
};

/* Finds "field:<declaration> NAME[...];\toffset:N;\tsize:M;" in a format file. */
static gboolean
find_field (const char *format,
            const char *name,
            gsize      *offset,
            gsize      *size)
{
  g_auto (GStrv) lines = g_strsplit (format, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *decl = strstr (lines[i], "field:");
      const char *semi, *off, *sz, *end;
      g_autofree char *declaration = NULL;
      char *bracket, *last;

      if (decl == NULL || (semi = strchr (decl, ';')) == NULL)
        continue;
      declaration = g_strndup (decl + strlen ("field:"), semi - decl - strlen ("field:"));
      if ((bracket = strchr (declaration, '[')) != NULL && strchr (bracket, ' ') == NULL)
        *bracket = '\0';   /* "char prev_comm[16]"; "__data_loc char[] filename" keeps its name */
      g_strstrip (declaration);
      last = strrchr (declaration, ' ');
      if (!g_str_equal (last != NULL ? last + 1 : declaration, name))
        continue;
      off = strstr (semi, "offset:");
      sz = strstr (semi, "size:");
      if (off == NULL || sz == NULL)
        return FALSE;
      *offset = strtoul (off + strlen ("offset:"), (char **) &end, 10);
      *size = strtoul (sz + strlen ("size:"), (char **) &end, 10);
      return TRUE;
    }
  return FALSE;
}

gboolean
seismo_ebpf_check_tracepoints (const char *const *events,
                               GError           **error)
{
  for (guint e = 0; events[e] != NULL; e++)
    {
      g_autofree char *format = NULL;
      g_autofree char *path = NULL;

      for (guint d = 0; d < G_N_ELEMENTS (events_dirs) && format == NULL; d++)
        {
          g_free (path);
          path = g_build_filename (events_dirs[d], events[e], "format", NULL);
          g_file_get_contents (path, &format, NULL, NULL);
        }
      if (format == NULL)
        {
          /* tracefs is not mounted: nothing to check against, the programs still load. */
          g_debug ("no format file for %s: its layout is not checked", events[e]);
          continue;
        }

      for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
        {
          gsize offset, size;

          if (!g_str_equal (layouts[i].event, events[e]))
            continue;
          if (!find_field (format, layouts[i].field, &offset, &size))
            {
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                           _("%s: this kernel's %s has no field '%s' the eBPF programs read"),
                           path, events[e], layouts[i].field);
              return FALSE;
            }
          if (offset != layouts[i].offset || size != layouts[i].size)
            {
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
                           _("%s: field '%s' is at offset %zu, size %zu on this kernel; the eBPF "
                             "programs expect offset %zu, size %zu"), path, layouts[i].field,
                           offset, size, layouts[i].offset, layouts[i].size);
              return FALSE;
            }
        }
    }
  return TRUE;
}

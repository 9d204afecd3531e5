/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <stddef.h>
#include <string.h>

#include "seismo-ebpf-private.h"
#include "seismo-ebpf-stacks.h"
#include "seismo-syscalls.h"
#include "seismo-tracepoints.h"
#include "seismo-error.h"

/*
 * Ring buffer records → model events. Syscalls arrive as one record per completed call and
 * become the same raw_syscalls enter/exit pair the ftrace backend records, so the data layer
 * derives identical spans; scheduler and process records keep the kernel tracepoints' names and
 * field names.
 */

static const struct {
  const char *name;
  gsize       offset;
} selectable[] = {
  { "raw_syscalls:sys_enter",       G_STRUCT_OFFSET (SeismoEbpfSelection, syscalls) },
  { "raw_syscalls:sys_exit",        G_STRUCT_OFFSET (SeismoEbpfSelection, syscalls) },
  { "sched:sched_switch",           G_STRUCT_OFFSET (SeismoEbpfSelection, sched_switch) },
  { "sched:sched_wakeup",           G_STRUCT_OFFSET (SeismoEbpfSelection, sched_wakeup) },
  { "sched:sched_waking",           G_STRUCT_OFFSET (SeismoEbpfSelection, sched_waking) },
  { "sched:sched_process_fork",     G_STRUCT_OFFSET (SeismoEbpfSelection, fork) },
  { "sched:sched_process_exec",     G_STRUCT_OFFSET (SeismoEbpfSelection, exec) },
  { "sched:sched_process_exit",     G_STRUCT_OFFSET (SeismoEbpfSelection, exit) },
  { "task:task_rename",             G_STRUCT_OFFSET (SeismoEbpfSelection, rename) },
};

GPtrArray *
seismo_ebpf_list_events (GError **error)
{
  static const char *const probe_forms[] = {
    "kprobe:FUNC", "kretprobe:FUNC", "uprobe:BINARY:SYMBOL", "uretprobe:BINARY:SYMBOL",
    "usdt:BINARY:PROVIDER:NAME",
  };
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (selectable); i++)
    g_ptr_array_add (names, g_strdup (selectable[i].name));
  /* What --probe accepts; each becomes an event type named after the probe. */
  for (guint i = 0; i < G_N_ELEMENTS (probe_forms); i++)
    g_ptr_array_add (names, g_strdup (probe_forms[i]));
  return names;
}

gboolean
seismo_ebpf_select_events (char *const         *patterns,
                           SeismoEbpfSelection *selection,
                           GError             **error)
{
  gboolean none = patterns == NULL || patterns[0] == NULL;

  for (guint i = 0; i < G_N_ELEMENTS (selectable); i++)
    G_STRUCT_MEMBER (gboolean, selection, selectable[i].offset) = none;
  if (none)
    return TRUE;

  for (guint i = 0; patterns[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit (patterns[i], ",", -1);

      for (guint j = 0; words[j] != NULL; j++)
        {
          const char *word = g_strstrip (words[j]);
          gboolean matched = FALSE;

          if (*word == '\0')
            continue;
          for (guint k = 0; k < G_N_ELEMENTS (selectable); k++)
            if (g_pattern_match_simple (word, selectable[k].name))
              {
                G_STRUCT_MEMBER (gboolean, selection, selectable[k].offset) = TRUE;
                matched = TRUE;
              }
          if (!matched)
            {
              g_autoptr (GString) known = g_string_new (NULL);

              for (guint k = 0; k < G_N_ELEMENTS (selectable); k++)
                g_string_append_printf (known, " %s", selectable[k].name);
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                           _("the eBPF backend cannot record '%s'; it records%s (and --probe)"),
                           word, known->str);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* What the decoder knows about a thread id. */
enum {
  TASK_EXITING = 1 << 0,   /* sched_process_exit seen, its last switch not yet */
};

typedef struct {
  guint   flags;
  guint64 exit_ns;
} TaskState;

struct _SeismoEbpfDecoder
{
  /* Borrowed */
  SeismoTraceBuilder    *builder;
  const SeismoEbpfProbe *probes;
  guint                  n_probes;

  /* Owned */
  SeismoEbpfSelection    selection;
  guint                  t_sys_enter;
  guint                  t_sys_exit;
  guint                  t_switch;
  guint                  t_wakeup;
  guint                  t_waking;
  guint                  t_fork;
  guint                  t_exec;
  guint                  t_exit;
  guint                  t_rename;
  int                   *t_probe;       /* -1 until registered (USDT: at the first hit) */
  guint                 *probe_n_args;
  GHashTable            *tasks;         /* tid → TaskState */
  gint32                 last_tid;      /* known to be in tasks; -1 for none */
  SeismoEbpfStacks      *stacks;        /* borrowed; NULL without --stacks */
};

void
seismo_ebpf_decoder_set_stacks (SeismoEbpfDecoder *self,
                                SeismoEbpfStacks  *stacks)
{
  self->stacks = stacks;
}

/* The stack tail behind a record of base_size bytes, when it has one and it fits. */
static const struct seismo_ebpf_stack_tail *
stack_tail (SeismoEbpfDecoder *self,
            const void        *record,
            gsize              base_size,
            gsize              size)
{
  if (self->stacks == NULL || size < base_size + sizeof (struct seismo_ebpf_stack_tail))
    return NULL;
  return (const void *) ((const char *) record + base_size);
}

static guint
add_type (SeismoTraceBuilder    *builder,
          const char            *system,
          const char            *name,
          const SeismoFieldInfo *fields,
          guint                  n_fields,
          const char            *print_fmt)
{
  return seismo_trace_builder_add_event_type (builder, system, name, fields, n_fields, print_fmt);
}

static void
register_types (SeismoEbpfDecoder *self)
{
  static const SeismoFieldInfo sys_enter[] = {
    { "id", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_SYSCALL },
    { "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX },
    { "filename", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
  };
  static const SeismoFieldInfo entry_args[] = {
    { "arg0", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
    { "arg1", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
    { "arg2", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
    { "arg3", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
    { "arg4", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
    { "arg5", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_HEX },
  };
  static const SeismoFieldInfo ret[] = {
    { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_DEFAULT },
  };
  SeismoTraceBuilder *b = self->builder;
  const SeismoEbpfSelection *sel = &self->selection;

  /* raw_syscalls:sys_enter with the path the program copied: the catalogue's fields and one. */
  if (sel->syscalls)
    {
      self->t_sys_enter = add_type (b, "raw_syscalls", "sys_enter", sys_enter,
                                    G_N_ELEMENTS (sys_enter), "NR {id} {args} {filename}");
      self->t_sys_exit = seismo_tracepoint_add (b, "raw_syscalls", "sys_exit");
    }
  if (sel->sched_switch)
    self->t_switch = seismo_tracepoint_add (b, "sched", "sched_switch");
  if (sel->sched_wakeup)
    self->t_wakeup = seismo_tracepoint_add (b, "sched", "sched_wakeup");
  if (sel->sched_waking)
    self->t_waking = seismo_tracepoint_add (b, "sched", "sched_waking");
  if (sel->fork)
    self->t_fork = seismo_tracepoint_add (b, "sched", "sched_process_fork");
  if (sel->exec)
    self->t_exec = seismo_tracepoint_add (b, "sched", "sched_process_exec");
  if (sel->exit)
    self->t_exit = seismo_tracepoint_add (b, "sched", "sched_process_exit");
  if (sel->rename)
    self->t_rename = seismo_tracepoint_add (b, "task", "task_rename");

  for (guint i = 0; i < self->n_probes; i++)
    {
      const SeismoEbpfProbe *probe = &self->probes[i];

      self->t_probe[i] = -1;
      if (probe->kind == SEISMO_EBPF_USDT)
        continue;
      if (seismo_ebpf_probe_returns (probe))
        {
          self->t_probe[i] = add_type (b, probe->system, probe->event, ret, 1, NULL);
          self->probe_n_args[i] = 1;
        }
      else
        {
          self->t_probe[i] = add_type (b, probe->system, probe->event, entry_args,
                                       G_N_ELEMENTS (entry_args), NULL);
          self->probe_n_args[i] = G_N_ELEMENTS (entry_args);
        }
    }
}

SeismoEbpfDecoder *
seismo_ebpf_decoder_new (SeismoTraceBuilder        *builder,
                         const SeismoEbpfSelection *selection,
                         const SeismoEbpfProbe     *probes,
                         guint                      n_probes)
{
  SeismoEbpfDecoder *self = g_new0 (SeismoEbpfDecoder, 1);

  self->builder = builder;
  self->selection = *selection;
  self->probes = probes;
  self->n_probes = n_probes;
  self->t_probe = g_new (int, MAX (n_probes, 1));
  self->probe_n_args = g_new0 (guint, MAX (n_probes, 1));
  self->tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->last_tid = -1;
  /* The programs read x86-64 syscall numbers (meson builds them for x86-64 hosts only): that is
   * the table their ids are named from. */
  seismo_trace_builder_set_metadata (builder, SEISMO_META_ARCH,
                                     seismo_arch_to_string (SEISMO_ARCH_X86_64));
  register_types (self);
  return self;
}

void
seismo_ebpf_decoder_free (SeismoEbpfDecoder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->tasks, g_hash_table_unref);
  g_free (self->t_probe);
  g_free (self->probe_n_args);
  g_free (self);
}

static gsize
comm_len (const char *comm)
{
  return strnlen (comm, SEISMO_EBPF_COMM_LEN);
}

/* Name, thread group and parent of a thread we have no record about, from /proc. */
static void
learn_from_proc (SeismoEbpfDecoder *self,
                 gint32             tid,
                 gint32             pid,
                 guint64            time_ns)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", tid);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  if (tid <= 0 || !g_file_get_contents (path, &contents, NULL, NULL))
    return;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "Name:\t"))
        seismo_trace_builder_set_task_comm (self->builder, tid, lines[i] + 6, time_ns);
      else if (pid <= 0 && g_str_has_prefix (lines[i], "Tgid:\t"))
        seismo_trace_builder_set_task_pid (self->builder, tid, atoi (lines[i] + 6));
      else if (g_str_has_prefix (lines[i], "PPid:\t"))
        seismo_trace_builder_set_task_ppid (self->builder, tid, atoi (lines[i] + 6));
    }
}

static void
end_task (SeismoEbpfDecoder *self,
          gint32             tid,
          TaskState         *state)
{
  seismo_trace_builder_task_exited (self->builder, tid, state->exit_ns);
  g_hash_table_remove (self->tasks, GINT_TO_POINTER (tid));
  self->last_tid = -1;
}

/* Makes sure the builder knows a thread's pid, comm and parent before its first event. */
static void
see_task (SeismoEbpfDecoder *self,
          gint32             tid,
          gint32             pid,
          guint64            time_ns)
{
  /* Records mostly come in runs from one thread. */
  if (tid == self->last_tid)
    return;
  self->last_tid = tid;
  if (g_hash_table_contains (self->tasks, GINT_TO_POINTER (tid)))
    return;
  g_hash_table_insert (self->tasks, GINT_TO_POINTER (tid), g_new0 (TaskState, 1));
  if (pid > 0 || tid == 0)
    seismo_trace_builder_set_task_pid (self->builder, tid, pid);
  learn_from_proc (self, tid, pid, time_ns);
}

void
seismo_ebpf_decoder_know_task (SeismoEbpfDecoder *self,
                               gint32             tid,
                               gint32             pid,
                               gint32             ppid,
                               const char        *comm,
                               guint64            time_ns)
{
  g_hash_table_replace (self->tasks, GINT_TO_POINTER (tid), g_new0 (TaskState, 1));
  seismo_trace_builder_set_task_pid (self->builder, tid, pid);
  seismo_trace_builder_set_task_ppid (self->builder, tid, ppid);
  if (comm != NULL)
    seismo_trace_builder_set_task_comm (self->builder, tid, comm, time_ns);
}

void
seismo_ebpf_decoder_finish (SeismoEbpfDecoder *self,
                            guint64            end_ns)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      TaskState *state = value;

      if (state->flags & TASK_EXITING)
        {
          seismo_trace_builder_task_exited (self->builder, GPOINTER_TO_INT (key), state->exit_ns);
          g_hash_table_iter_remove (&iter);
          self->last_tid = -1;
        }
    }
}

static void
decode_syscall (SeismoEbpfDecoder                   *self,
                const struct seismo_ebpf_syscall    *r,
                const char                          *path,
                const struct seismo_ebpf_stack_tail *tail)
{
  SeismoTraceBuilder *b = self->builder;

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);

  if (tail != NULL)
    seismo_ebpf_stacks_prepare (self->stacks, r->hdr.pid, tail, r->hdr.time_ns);
  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, self->t_sys_enter);
  seismo_trace_builder_push_uint (b, (guint64) r->id);
  seismo_trace_builder_push_uint_array (b, (const guint64 *) r->args, SEISMO_EBPF_MAX_ARGS);
  if (path != NULL && (r->flags & SEISMO_EBPF_PATH_TRUNCATED))
    {
      g_autofree char *cut = g_strconcat (path, SEISMO_FIELD_FLAG_TRUNCATED_MARKER, NULL);

      seismo_trace_builder_push_string (b, cut);
    }
  else if (path != NULL && *path != '\0')
    {
      seismo_trace_builder_push_string (b, path);
    }
  else
    {
      /* Most syscalls take no path: skip interning the empty string (always id 0). */
      seismo_trace_builder_push_string_id (b, 0);
    }
  if (tail != NULL)
    seismo_ebpf_stacks_apply (self->stacks);
  seismo_trace_builder_end_event (b);

  if (r->flags & SEISMO_EBPF_SYSCALL_NO_EXIT)
    return;
  seismo_trace_builder_begin_event (b, r->hdr.time_ns + r->duration_ns, r->exit_cpu, r->hdr.tid,
                                    self->t_sys_exit);
  seismo_trace_builder_push_uint (b, (guint64) r->id);
  seismo_trace_builder_push_int (b, r->ret);
  seismo_trace_builder_end_event (b);
}

static void
decode_switch (SeismoEbpfDecoder                     *self,
               const struct seismo_ebpf_sched_switch *r,
               const struct seismo_ebpf_stack_tail   *tail)
{
  SeismoTraceBuilder *b = self->builder;
  TaskState *prev;

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);
  see_task (self, r->next_pid, 0, r->hdr.time_ns);

  if (tail != NULL)
    seismo_ebpf_stacks_prepare (self->stacks, r->hdr.pid, tail, r->hdr.time_ns);
  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, self->t_switch);
  seismo_trace_builder_push_string_len (b, r->prev_comm, comm_len (r->prev_comm));
  seismo_trace_builder_push_int (b, r->prev_pid);
  seismo_trace_builder_push_int (b, r->prev_prio);
  seismo_trace_builder_push_int (b, r->prev_state);
  seismo_trace_builder_push_string_len (b, r->next_comm, comm_len (r->next_comm));
  seismo_trace_builder_push_int (b, r->next_pid);
  seismo_trace_builder_push_int (b, r->next_prio);
  if (tail != NULL)
    seismo_ebpf_stacks_apply (self->stacks);
  seismo_trace_builder_end_event (b);

  /* The dead task's last switch closes it; a later thread with this tid is a new task. */
  prev = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (r->prev_pid));
  if (prev != NULL && (prev->flags & TASK_EXITING))
    end_task (self, r->prev_pid, prev);
}

static void
decode_wakeup (SeismoEbpfDecoder                     *self,
               const struct seismo_ebpf_sched_wakeup *r,
               guint                                  type)
{
  SeismoTraceBuilder *b = self->builder;

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);
  see_task (self, r->pid, 0, r->hdr.time_ns);

  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, type);
  seismo_trace_builder_push_string_len (b, r->comm, comm_len (r->comm));
  seismo_trace_builder_push_int (b, r->pid);
  seismo_trace_builder_push_int (b, r->prio);
  seismo_trace_builder_push_int (b, r->target_cpu);
  seismo_trace_builder_end_event (b);
}

static void
decode_fork (SeismoEbpfDecoder             *self,
             const struct seismo_ebpf_fork *r)
{
  SeismoTraceBuilder *b = self->builder;
  g_autofree char *child_comm = g_strndup (r->child_comm, comm_len (r->child_comm));
  TaskState *old;

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);

  /* A reused tid whose previous owner's last switch we missed. */
  old = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (r->child_pid));
  if (old != NULL && (old->flags & TASK_EXITING))
    end_task (self, r->child_pid, old);
  seismo_ebpf_decoder_know_task (self, r->child_pid, r->child_tgid, r->child_ppid, child_comm,
                                 r->hdr.time_ns);

  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, self->t_fork);
  seismo_trace_builder_push_string_len (b, r->parent_comm, comm_len (r->parent_comm));
  seismo_trace_builder_push_int (b, r->parent_pid);
  seismo_trace_builder_push_string (b, child_comm);
  seismo_trace_builder_push_int (b, r->child_pid);
  seismo_trace_builder_end_event (b);
}

static void
decode_exec (SeismoEbpfDecoder             *self,
             const struct seismo_ebpf_exec *r)
{
  SeismoTraceBuilder *b = self->builder;
  g_autofree char *comm = g_strndup (r->comm, comm_len (r->comm));
  g_autofree char *filename = g_strndup (r->filename, strnlen (r->filename,
                                                               sizeof r->filename));

  if (r->flags & SEISMO_EBPF_PATH_TRUNCATED)
    {
      char *cut = g_strconcat (filename, SEISMO_FIELD_FLAG_TRUNCATED_MARKER, NULL);

      g_free (filename);
      filename = cut;
    }

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);
  /* A non-leader thread that execs takes over the leader's tid; its own tid is gone. */
  if (r->old_pid != r->hdr.tid && g_hash_table_contains (self->tasks,
                                                         GINT_TO_POINTER (r->old_pid)))
    {
      seismo_trace_builder_task_exited (b, r->old_pid, r->hdr.time_ns);
      g_hash_table_remove (self->tasks, GINT_TO_POINTER (r->old_pid));
      self->last_tid = -1;
    }
  seismo_trace_builder_set_task_pid (b, r->hdr.tid, r->hdr.pid);
  seismo_trace_builder_set_task_ppid (b, r->hdr.tid, r->ppid);
  seismo_trace_builder_set_task_comm (b, r->hdr.tid, comm, r->hdr.time_ns);

  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, self->t_exec);
  seismo_trace_builder_push_string (b, filename);
  seismo_trace_builder_push_int (b, r->hdr.tid);
  seismo_trace_builder_push_int (b, r->old_pid);
  seismo_trace_builder_end_event (b);
}

static void
decode_exit (SeismoEbpfDecoder             *self,
             const struct seismo_ebpf_exit *r)
{
  SeismoTraceBuilder *b = self->builder;
  TaskState *state;

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);

  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, self->t_exit);
  seismo_trace_builder_push_string_len (b, r->comm, comm_len (r->comm));
  seismo_trace_builder_push_int (b, r->pid);
  seismo_trace_builder_push_int (b, r->prio);
  seismo_trace_builder_end_event (b);

  state = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (r->hdr.tid));
  state->flags |= TASK_EXITING;
  state->exit_ns = r->hdr.time_ns;
  /* Without switch records there is no last switch to wait for. */
  if (!self->selection.sched_switch)
    end_task (self, r->hdr.tid, state);
}

static void
decode_rename (SeismoEbpfDecoder               *self,
               const struct seismo_ebpf_rename *r)
{
  SeismoTraceBuilder *b = self->builder;
  g_autofree char *newcomm = g_strndup (r->newcomm, comm_len (r->newcomm));

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);
  see_task (self, r->pid, 0, r->hdr.time_ns);
  seismo_trace_builder_set_task_comm (b, r->pid, newcomm, r->hdr.time_ns);

  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid, self->t_rename);
  seismo_trace_builder_push_int (b, r->pid);
  seismo_trace_builder_push_string_len (b, r->oldcomm, comm_len (r->oldcomm));
  seismo_trace_builder_push_string (b, newcomm);
  seismo_trace_builder_end_event (b);
}

static gboolean
decode_probe (SeismoEbpfDecoder                   *self,
              const struct seismo_ebpf_probe      *r,
              const struct seismo_ebpf_stack_tail *tail)
{
  SeismoTraceBuilder *b = self->builder;
  const SeismoEventType *type;
  guint n;

  if (r->probe >= self->n_probes)
    return FALSE;
  if (self->t_probe[r->probe] < 0)
    {
      /* A USDT site's argument count is only known once it fires. */
      static const char *const names[SEISMO_EBPF_MAX_ARGS] = {
        "arg0", "arg1", "arg2", "arg3", "arg4", "arg5"
      };
      SeismoFieldInfo fields[SEISMO_EBPF_MAX_ARGS] = { { NULL } };
      const SeismoEbpfProbe *probe = &self->probes[r->probe];

      n = MIN (r->n_args, SEISMO_EBPF_MAX_ARGS);
      for (guint i = 0; i < n; i++)
        fields[i] = (SeismoFieldInfo) { names[i], SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_DEFAULT };
      self->t_probe[r->probe] = add_type (b, probe->system, probe->event, fields, n, NULL);
      self->probe_n_args[r->probe] = n;
    }

  see_task (self, r->hdr.tid, r->hdr.pid, r->hdr.time_ns);
  if (tail != NULL)
    seismo_ebpf_stacks_prepare (self->stacks, r->hdr.pid, tail, r->hdr.time_ns);
  n = self->probe_n_args[r->probe];
  type = seismo_trace_builder_get_event_type (b, self->t_probe[r->probe]);
  seismo_trace_builder_begin_event (b, r->hdr.time_ns, r->hdr.cpu, r->hdr.tid,
                                    self->t_probe[r->probe]);
  for (guint i = 0; i < n; i++)
    {
      guint64 value = i < r->n_args ? r->args[i] : 0;

      if (type->fields[i].type == SEISMO_FIELD_INT)
        seismo_trace_builder_push_int (b, (gint64) value);
      else
        seismo_trace_builder_push_uint (b, value);
    }
  if (tail != NULL)
    seismo_ebpf_stacks_apply (self->stacks);
  seismo_trace_builder_end_event (b);
  return TRUE;
}

/* Size of the record a batch holds at hdr (its stack tail included), with avail bytes from
 * hdr on; 0 for a kind a batch may not hold or a record cut short. */
static gsize
batched_record_size (const struct seismo_ebpf_header *hdr,
                     gsize                            avail)
{
  gsize size;

  if (hdr->kind == SEISMO_EBPF_REC_SYSCALL)
    size = sizeof (struct seismo_ebpf_syscall);
  else if (hdr->kind == SEISMO_EBPF_REC_SYSCALL_PATH)
    size = sizeof (struct seismo_ebpf_syscall_path);
  else
    return 0;
  if (avail < size)
    return 0;
  if (((const struct seismo_ebpf_syscall *) hdr)->flags & SEISMO_EBPF_SYSCALL_STACK)
    size += sizeof (struct seismo_ebpf_stack_tail);
  return avail < size ? 0 : size;
}

/* Syscall records back to back, each one's kind giving its size. Checked whole before any is
 * decoded, so a malformed batch adds nothing. */
static int
decode_batch (SeismoEbpfDecoder *self,
              const void        *data,
              gsize              size)
{
  const struct seismo_ebpf_batch *batch = data;
  gsize header = G_STRUCT_OFFSET (struct seismo_ebpf_batch, data);
  gsize offset;
  guint records = 0;
  int events = 0;

  if (size < header || batch->len > size - header || batch->len > SEISMO_EBPF_BATCH_BYTES)
    return -1;
  for (offset = 0; offset < batch->len; records++)
    {
      const struct seismo_ebpf_header *hdr = (const void *) (batch->data + offset);
      gsize record_size;

      if (batch->len - offset < sizeof *hdr
          || (record_size = batched_record_size (hdr, batch->len - offset)) == 0)
        return -1;
      offset += record_size;
    }
  if (records != batch->count)
    return -1;

  for (offset = 0; offset < batch->len;)
    {
      const struct seismo_ebpf_header *hdr = (const void *) (batch->data + offset);
      gsize record_size = batched_record_size (hdr, batch->len - offset);
      int n = seismo_ebpf_decoder_record (self, hdr, record_size);

      if (n > 0)
        events += n;
      offset += record_size;
    }
  return events;
}

int
seismo_ebpf_decoder_record (SeismoEbpfDecoder *self,
                            const void        *data,
                            gsize              size)
{
  const struct seismo_ebpf_header *hdr = data;

  if (size < sizeof *hdr)
    return -1;

#define NEED(type) G_STMT_START { if (size < sizeof (type)) return -1; } G_STMT_END
  switch (hdr->kind)
    {
    case SEISMO_EBPF_REC_BATCH:
      return decode_batch (self, data, size);

    case SEISMO_EBPF_REC_SYSCALL:
      NEED (struct seismo_ebpf_syscall);
      if (!self->selection.syscalls)
        return 0;
      decode_syscall (self, data, NULL,
                      (((const struct seismo_ebpf_syscall *) data)->flags & SEISMO_EBPF_SYSCALL_STACK)
                      ? stack_tail (self, data, sizeof (struct seismo_ebpf_syscall), size) : NULL);
      return (((const struct seismo_ebpf_syscall *) data)->flags & SEISMO_EBPF_SYSCALL_NO_EXIT)
             ? 1 : 2;

    case SEISMO_EBPF_REC_SYSCALL_PATH:
      {
        const struct seismo_ebpf_syscall_path *r = data;
        char path[SEISMO_EBPF_PATH_LEN];

        NEED (struct seismo_ebpf_syscall_path);
        if (!self->selection.syscalls)
          return 0;
        memcpy (path, r->path, sizeof path);
        path[sizeof path - 1] = '\0';
        decode_syscall (self, &r->sc, path,
                        (r->sc.flags & SEISMO_EBPF_SYSCALL_STACK)
                        ? stack_tail (self, data, sizeof *r, size) : NULL);
        return (r->sc.flags & SEISMO_EBPF_SYSCALL_NO_EXIT) ? 1 : 2;
      }

    case SEISMO_EBPF_REC_SCHED_SWITCH:
    case SEISMO_EBPF_REC_SCHED_SWITCH_STACK:
      NEED (struct seismo_ebpf_sched_switch);
      if (!self->selection.sched_switch)
        return 0;
      decode_switch (self, data, hdr->kind == SEISMO_EBPF_REC_SCHED_SWITCH_STACK
                                 ? stack_tail (self, data, sizeof (struct seismo_ebpf_sched_switch), size)
                                 : NULL);
      return 1;

    case SEISMO_EBPF_REC_SCHED_WAKEUP:
    case SEISMO_EBPF_REC_SCHED_WAKING:
      NEED (struct seismo_ebpf_sched_wakeup);
      if (hdr->kind == SEISMO_EBPF_REC_SCHED_WAKEUP ? !self->selection.sched_wakeup
                                                     : !self->selection.sched_waking)
        return 0;
      decode_wakeup (self, data, hdr->kind == SEISMO_EBPF_REC_SCHED_WAKEUP ? self->t_wakeup
                                                                          : self->t_waking);
      return 1;

    case SEISMO_EBPF_REC_FORK:
      NEED (struct seismo_ebpf_fork);
      if (!self->selection.fork)
        return 0;
      decode_fork (self, data);
      return 1;

    case SEISMO_EBPF_REC_EXEC:
      NEED (struct seismo_ebpf_exec);
      if (!self->selection.exec)
        return 0;
      decode_exec (self, data);
      return 1;

    case SEISMO_EBPF_REC_EXIT:
      NEED (struct seismo_ebpf_exit);
      if (!self->selection.exit)
        return 0;
      decode_exit (self, data);
      return 1;

    case SEISMO_EBPF_REC_RENAME:
      NEED (struct seismo_ebpf_rename);
      if (!self->selection.rename)
        return 0;
      decode_rename (self, data);
      return 1;

    case SEISMO_EBPF_REC_PROBE:
    case SEISMO_EBPF_REC_PROBE_STACK:
      NEED (struct seismo_ebpf_probe);
      return decode_probe (self, data, hdr->kind == SEISMO_EBPF_REC_PROBE_STACK
                                       ? stack_tail (self, data, sizeof (struct seismo_ebpf_probe), size)
                                       : NULL) ? 1 : -1;

    default:
      return -1;
    }
#undef NEED
}


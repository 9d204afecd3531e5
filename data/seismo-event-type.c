/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-event-type.h"
#include "seismo-trace-private.h"

/* Which kernel tracepoints mean what to the derived-interval code. Data, not a switch. */
static const struct {
  const char     *system;
  const char     *name;
  SeismoEventKind kind;
} kind_table[] = {
  { "raw_syscalls", "sys_enter",            SEISMO_KIND_SYSCALL_ENTER },
  { "raw_syscalls", "sys_exit",             SEISMO_KIND_SYSCALL_EXIT },
  { "sched",        "sched_switch",         SEISMO_KIND_SCHED_SWITCH },
  { "sched",        "sched_wakeup",         SEISMO_KIND_SCHED_WAKEUP },
  { "sched",        "sched_wakeup_new",     SEISMO_KIND_SCHED_WAKEUP },
  { "sched",        "sched_waking",         SEISMO_KIND_SCHED_WAKING },
  { "sched",        "sched_process_fork",   SEISMO_KIND_PROCESS_FORK },
  { "sched",        "sched_process_exec",   SEISMO_KIND_PROCESS_EXEC },
  { "sched",        "sched_process_exit",   SEISMO_KIND_PROCESS_EXIT },
  { "irq",          "irq_handler_entry",    SEISMO_KIND_IRQ_ENTRY },
  { "irq",          "irq_handler_exit",     SEISMO_KIND_IRQ_EXIT },
  { "irq",          "softirq_entry",        SEISMO_KIND_SOFTIRQ_ENTRY },
  { "irq",          "softirq_exit",         SEISMO_KIND_SOFTIRQ_EXIT },
  { "signal",       "signal_deliver",       SEISMO_KIND_SIGNAL },
  { "task",         "task_rename",          SEISMO_KIND_TASK_RENAME },
};

static const char *const kind_names[SEISMO_KIND_N] = {
  [SEISMO_KIND_GENERIC]       = "generic",
  [SEISMO_KIND_SYSCALL_ENTER] = "syscall-enter",
  [SEISMO_KIND_SYSCALL_EXIT]  = "syscall-exit",
  [SEISMO_KIND_SCHED_SWITCH]  = "sched-switch",
  [SEISMO_KIND_SCHED_WAKEUP]  = "sched-wakeup",
  [SEISMO_KIND_SCHED_WAKING]  = "sched-waking",
  [SEISMO_KIND_PROCESS_FORK]  = "process-fork",
  [SEISMO_KIND_PROCESS_EXEC]  = "process-exec",
  [SEISMO_KIND_PROCESS_EXIT]  = "process-exit",
  [SEISMO_KIND_IRQ_ENTRY]     = "irq-entry",
  [SEISMO_KIND_IRQ_EXIT]      = "irq-exit",
  [SEISMO_KIND_SOFTIRQ_ENTRY] = "softirq-entry",
  [SEISMO_KIND_SOFTIRQ_EXIT]  = "softirq-exit",
  [SEISMO_KIND_SIGNAL]        = "signal",
  [SEISMO_KIND_TASK_RENAME]   = "task-rename",
};

/* Field names per role; the first one a type has wins. */
static const char *const role_names[SEISMO_ROLE_N][3] = {
  [SEISMO_ROLE_ID]         = { "id", "__syscall_nr", NULL },
  [SEISMO_ROLE_ARGS]       = { "args", NULL },
  [SEISMO_ROLE_RET]        = { "ret", NULL },
  [SEISMO_ROLE_PREV_PID]   = { "prev_pid", NULL },
  [SEISMO_ROLE_PREV_STATE] = { "prev_state", NULL },
  [SEISMO_ROLE_NEXT_PID]   = { "next_pid", NULL },
  [SEISMO_ROLE_NEXT_COMM]  = { "next_comm", NULL },
  [SEISMO_ROLE_PID]        = { "pid", NULL },
  [SEISMO_ROLE_COMM]       = { "comm", NULL },
  [SEISMO_ROLE_TARGET_CPU] = { "target_cpu", NULL },
  [SEISMO_ROLE_PARENT_PID] = { "parent_pid", NULL },
  [SEISMO_ROLE_CHILD_PID]  = { "child_pid", NULL },
  [SEISMO_ROLE_CHILD_COMM] = { "child_comm", NULL },
  [SEISMO_ROLE_FILENAME]   = { "filename", NULL },
  [SEISMO_ROLE_IRQ]        = { "irq", NULL },
  [SEISMO_ROLE_VEC]        = { "vec", NULL },
  [SEISMO_ROLE_SIG]        = { "sig", NULL },
  [SEISMO_ROLE_NEWCOMM]    = { "newcomm", NULL },
};

static const char *const field_type_names[SEISMO_FIELD_N_TYPES] = {
  [SEISMO_FIELD_INT]        = "int",
  [SEISMO_FIELD_UINT]       = "uint",
  [SEISMO_FIELD_POINTER]    = "pointer",
  [SEISMO_FIELD_STRING]     = "string",
  [SEISMO_FIELD_BYTES]      = "bytes",
  [SEISMO_FIELD_UINT_ARRAY] = "uint[]",
};

SeismoEventKind
seismo_event_kind_classify (const char *system,
                            const char *name)
{
  g_return_val_if_fail (system != NULL, SEISMO_KIND_GENERIC);
  g_return_val_if_fail (name != NULL, SEISMO_KIND_GENERIC);

  for (guint i = 0; i < G_N_ELEMENTS (kind_table); i++)
    if (strcmp (kind_table[i].system, system) == 0 && strcmp (kind_table[i].name, name) == 0)
      return kind_table[i].kind;

  if (strcmp (system, "syscalls") == 0)
    {
      if (g_str_has_prefix (name, "sys_enter_"))
        return SEISMO_KIND_SYSCALL_ENTER;
      if (g_str_has_prefix (name, "sys_exit_"))
        return SEISMO_KIND_SYSCALL_EXIT;
    }
  return SEISMO_KIND_GENERIC;
}

const char *
seismo_event_kind_to_string (SeismoEventKind kind)
{
  return kind < SEISMO_KIND_N ? kind_names[kind] : "unknown";
}

const char *
seismo_field_type_to_string (SeismoFieldType type)
{
  return type < SEISMO_FIELD_N_TYPES ? field_type_names[type] : "unknown";
}

int
seismo_event_type_find_field (const SeismoEventType *type,
                              const char            *name)
{
  g_return_val_if_fail (type != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < type->n_fields; i++)
    if (strcmp (type->fields[i].name, name) == 0)
      return (int) i;
  return -1;
}

SeismoEventType *
_seismo_event_type_new (guint                  id,
                        const char            *system,
                        const char            *name,
                        const SeismoFieldInfo *fields,
                        guint                  n_fields,
                        const char            *print_fmt)
{
  SeismoEventType *type = g_new0 (SeismoEventType, 1);

  type->id = (guint16) id;
  type->system = g_strdup (system);
  type->name = g_strdup (name);
  type->full_name = g_strconcat (system, ":", name, NULL);
  type->print_fmt = g_strdup (print_fmt);
  type->kind = seismo_event_kind_classify (system, name);
  if (type->kind == SEISMO_KIND_SYSCALL_ENTER && strcmp (system, "syscalls") == 0)
    type->syscall = g_strdup (name + strlen ("sys_enter_"));
  else if (type->kind == SEISMO_KIND_SYSCALL_EXIT && strcmp (system, "syscalls") == 0)
    type->syscall = g_strdup (name + strlen ("sys_exit_"));

  type->n_fields = n_fields;
  type->fields = g_new0 (SeismoField, MAX (n_fields, 1));
  for (guint i = 0; i < n_fields; i++)
    {
      SeismoField *f = &type->fields[i];

      f->name = g_strdup (fields[i].name);
      f->type = fields[i].type < SEISMO_FIELD_N_TYPES ? fields[i].type : SEISMO_FIELD_BYTES;
      f->size = fields[i].size;
      f->display = fields[i].display < SEISMO_DISPLAY_N ? fields[i].display : SEISMO_DISPLAY_DEFAULT;
      f->n_symbols = fields[i].symbols != NULL ? fields[i].n_symbols : 0;
      if (f->n_symbols > 0)
        {
          f->symbols = g_new (SeismoSymbol, f->n_symbols);
          for (guint s = 0; s < f->n_symbols; s++)
            {
              f->symbols[s].value = fields[i].symbols[s].value;
              f->symbols[s].name = g_strdup (fields[i].symbols[s].name);
            }
        }
    }

  for (guint r = 0; r < SEISMO_ROLE_N; r++)
    {
      type->roles[r] = -1;
      for (guint k = 0; k < G_N_ELEMENTS (role_names[r]) && role_names[r][k] != NULL; k++)
        {
          int idx = seismo_event_type_find_field (type, role_names[r][k]);

          if (idx >= 0)
            {
              type->roles[r] = (gint16) idx;
              break;
            }
        }
    }

  return type;
}

void
_seismo_event_type_free (SeismoEventType *type)
{
  if (type == NULL)
    return;
  for (guint i = 0; i < type->n_fields; i++)
    {
      for (guint s = 0; s < type->fields[i].n_symbols; s++)
        g_free ((char *) type->fields[i].symbols[s].name);
      g_free (type->fields[i].symbols);
      g_free (type->fields[i].name);
    }
  g_free (type->fields);
  g_free (type->system);
  g_free (type->name);
  g_free (type->full_name);
  g_free (type->print_fmt);
  g_free (type->syscall);
  g_free (type);
}

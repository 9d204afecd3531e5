/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

#include <string.h>

#include "seismo-ftrace-text-private.h"
#include "seismo-syscalls.h"
#include "seismo-tracepoints.h"

/* Which kernel system a bare event name belongs to. Exact names first, then prefixes. */
static const struct {
  const char *name;
  gboolean    prefix;
  const char *system;
} system_table[] = {
  { "sys_enter",            FALSE, "raw_syscalls" },
  { "sys_exit",             FALSE, "raw_syscalls" },
  { "sys_enter_",           TRUE,  "syscalls" },
  { "sys_exit_",            TRUE,  "syscalls" },
  { "sched_",               TRUE,  "sched" },
  { "irq_handler_",         TRUE,  "irq" },
  { "softirq_",             TRUE,  "irq" },
  { "tasklet_",             TRUE,  "irq" },
  { "signal_",              TRUE,  "signal" },
  { "task_newtask",         FALSE, "task" },
  { "task_rename",          FALSE, "task" },
  { "workqueue_",           TRUE,  "workqueue" },
  { "timer_",               TRUE,  "timer" },
  { "hrtimer_",             TRUE,  "timer" },
  { "itimer_",              TRUE,  "timer" },
  { "tick_stop",            FALSE, "timer" },
  { "alarmtimer_",          TRUE,  "alarmtimer" },
  { "local_timer_",         TRUE,  "irq_vectors" },
  { "reschedule_",          TRUE,  "irq_vectors" },
  { "call_function_",       TRUE,  "irq_vectors" },
  { "irq_work_",            TRUE,  "irq_vectors" },
  { "x86_platform_ipi_",    TRUE,  "irq_vectors" },
  { "error_apic_",          TRUE,  "irq_vectors" },
  { "spurious_apic_",       TRUE,  "irq_vectors" },
  { "thermal_apic_",        TRUE,  "irq_vectors" },
  { "vector_",              TRUE,  "irq_vectors" },
  { "ipi_",                 TRUE,  "ipi" },
  { "page_fault_user",      FALSE, "exceptions" },
  { "page_fault_kernel",    FALSE, "exceptions" },
  { "cpu_idle",             TRUE,  "power" },
  { "cpu_frequency",        TRUE,  "power" },
  { "suspend_resume",       FALSE, "power" },
  { "kmalloc",              TRUE,  "kmem" },
  { "kfree",                FALSE, "kmem" },
  { "kmem_cache_",          TRUE,  "kmem" },
  { "mm_page_",             TRUE,  "kmem" },
  { "rss_stat",             FALSE, "kmem" },
  { "mm_vmscan_",           TRUE,  "vmscan" },
  { "mm_compaction_",       TRUE,  "compaction" },
  { "mm_filemap_",          TRUE,  "filemap" },
  { "mm_lru_",              TRUE,  "pagemap" },
  { "mm_migrate_pages",     TRUE,  "migrate" },
  { "mm_khugepaged_",       TRUE,  "huge_memory" },
  { "mmap_lock_",           TRUE,  "mmap_lock" },
  { "vm_unmapped_area",     FALSE, "mmap" },
  { "mark_victim",          FALSE, "oom" },
  { "oom_score_adj_update", FALSE, "oom" },
  { "block_",               TRUE,  "block" },
  { "writeback_",           TRUE,  "writeback" },
  { "ext4_",                TRUE,  "ext4" },
  { "jbd2_",                TRUE,  "jbd2" },
  { "xfs_",                 TRUE,  "xfs" },
  { "btrfs_",               TRUE,  "btrfs" },
  { "f2fs_",                TRUE,  "f2fs" },
  { "iomap_",               TRUE,  "iomap" },
  { "nfs_",                 TRUE,  "nfs" },
  { "net_dev_",             TRUE,  "net" },
  { "netif_",               TRUE,  "net" },
  { "napi_gro_",            TRUE,  "net" },
  { "napi_poll",            FALSE, "napi" },
  { "inet_sock_set_state",  FALSE, "sock" },
  { "sock_",                TRUE,  "sock" },
  { "tcp_",                 TRUE,  "tcp" },
  { "udp_",                 TRUE,  "udp" },
  { "kfree_skb",            FALSE, "skb" },
  { "consume_skb",          FALSE, "skb" },
  { "skb_",                 TRUE,  "skb" },
  { "rcu_",                 TRUE,  "rcu" },
  { "module_",              TRUE,  "module" },
  { "lock_",                TRUE,  "lock" },
  { "contention_",          TRUE,  "lock" },
  { "tlb_flush",            FALSE, "tlb" },
  { "x86_fpu_",             TRUE,  "x86_fpu" },
  { "kvm_",                 TRUE,  "kvm" },
  { "cgroup_",              TRUE,  "cgroup" },
  { "io_uring_",            TRUE,  "io_uring" },
  { "cpuhp_",               TRUE,  "cpuhp" },
  { "irq_disable",          FALSE, "preemptirq" },
  { "irq_enable",           FALSE, "preemptirq" },
  { "preempt_disable",      FALSE, "preemptirq" },
  { "preempt_enable",       FALSE, "preemptirq" },
  { "console",              FALSE, "printk" },
  { "bpf_trace_printk",     FALSE, "bpf_trace" },
};

/* Payloads whose text does not spell the kernel's field names or types. */
static const struct {
  const char *system;
  const char *name;
  ParseKind   parse;
} parse_table[] = {
  { "sched",        "sched_switch",       PARSE_SCHED_SWITCH },
  { "sched",        "sched_wakeup",       PARSE_SCHED_WAKEUP },
  { "sched",        "sched_wakeup_new",   PARSE_SCHED_WAKEUP },
  { "sched",        "sched_waking",       PARSE_SCHED_WAKEUP },
  { "sched",        "sched_process_fork", PARSE_SCHED_FORK },
  { "raw_syscalls", "sys_enter",          PARSE_RAW_SYS_ENTER },
  { "raw_syscalls", "sys_exit",           PARSE_RAW_SYS_EXIT },
  { "irq",          "irq_handler_entry",  PARSE_IRQ_ENTRY },
  { "irq",          "irq_handler_exit",   PARSE_IRQ_EXIT },
  { "irq",          "softirq_entry",      PARSE_SOFTIRQ },
  { "irq",          "softirq_exit",       PARSE_SOFTIRQ },
  { "irq",          "softirq_raise",      PARSE_SOFTIRQ },
  { "ftrace",       "function",           PARSE_FUNCTION },
  { "ftrace",       "print",              PARSE_PRINT },
  { "ftrace",       "bprint",             PARSE_PRINT },
  { "ftrace",       "bputs",              PARSE_PRINT },
};

/* The schema each parser fills: the catalogue's for the tracepoint it was written for
 * (seismo-tracepoints.h), registered under the name the line gives (sched_waking, bprint...). */
static const struct {
  ParseKind   parse;
  const char *system;
  const char *name;
} fixed_schemas[] = {
  { PARSE_SCHED_SWITCH, "sched", "sched_switch" },
  { PARSE_SCHED_WAKEUP, "sched", "sched_wakeup" },
  { PARSE_SCHED_FORK, "sched", "sched_process_fork" },
  { PARSE_RAW_SYS_ENTER, "raw_syscalls", "sys_enter" },
  { PARSE_RAW_SYS_EXIT, "raw_syscalls", "sys_exit" },
  { PARSE_SYSCALL_EXIT, "syscalls", "sys_exit" },
  { PARSE_IRQ_ENTRY, "irq", "irq_handler_entry" },
  { PARSE_IRQ_EXIT, "irq", "irq_handler_exit" },
  { PARSE_SOFTIRQ, "irq", "softirq_entry" },
  { PARSE_FUNCTION, "ftrace", "function" },
  { PARSE_PRINT, "ftrace", "print" },
};

/* Syscall arguments the kernel declares as file descriptors; it prints them as 64-bit hex. */
static const char *const fd_arg_names[] = {
  "fd", "dfd", "olddfd", "newdfd", "oldfd", "newfd", "epfd", "fd_in", "fd_out", "in_fd", "out_fd",
  "pidfd", "ufd", "mqdes",
};

/* Generic fields whose values are always text even when they look like numbers. */
static const char *const string_field_names[] = {
  "comm", "name", "filename", "interp", "oldcomm", "newcomm", "parent_comm", "child_comm",
  "prev_comm", "next_comm", "driver", "dev_name", "devname", "path", "msg", "buf",
};

/* Generic fields the kernel prints with %lx and no 0x prefix. */
static const char *const hex_field_names[] = {
  "sa_handler", "call_site", "ptr", "addr", "address", "ip", "pfn", "page", "function",
  "work", "timer", "hrtimer", "base", "skbaddr", "location", "caller", "parent_ip", "vaddr",
};

static gboolean
name_in (const char        *name,
         gsize              len,
         const char *const *table,
         guint              n)
{
  for (guint i = 0; i < n; i++)
    if (strlen (table[i]) == len && memcmp (table[i], name, len) == 0)
      return TRUE;
  return FALSE;
}

/* ---- event types ---------------------------------------------------------------------------- */

void
ftt_event_info_free (gpointer data)
{
  EventInfo *info = data;

  for (guint i = 0; i < info->n_fields; i++)
    g_free (info->fields[i].name);
  g_free (info->fields);
  g_free (info);
}

const char *
ftt_system_for (const char *name)
{
  gsize len = strlen (name);

  for (guint i = 0; i < G_N_ELEMENTS (system_table); i++)
    {
      gsize l = strlen (system_table[i].name);

      if (system_table[i].prefix ? (len > l && strncmp (name, system_table[i].name, l) == 0)
                                 : strcmp (name, system_table[i].name) == 0)
        return system_table[i].system;
    }
  return "ftrace";
}

static ValueKind
guess_value_kind (const char *key,
                  gsize       key_len,
                  const char *val,
                  gsize       val_len)
{
  gint64 d;
  guint64 u;
  gsize nl = ftt_number_len (val, val_len);

  if (name_in (key, key_len, string_field_names, G_N_ELEMENTS (string_field_names)) ||
      ftt_has_suffix_len (key, key_len, "_comm") || ftt_has_suffix_len (key, key_len, "_name"))
    return VALUE_STRING;
  if (ftt_is_hex_prefixed (val, nl) && ftt_parse_hex (val, nl, &u))
    return VALUE_HEX;
  if ((name_in (key, key_len, hex_field_names, G_N_ELEMENTS (hex_field_names)) ||
       ftt_has_suffix_len (key, key_len, "flags")) && ftt_parse_hex (val, nl, &u))
    return VALUE_HEX;
  if (ftt_parse_dec (val, nl, &d))
    return VALUE_INT;
  return VALUE_STRING;
}

/* Whether the syscall catalogue says the argument of syscalls:sys_enter_NAME is an fd. */
static gboolean
catalogue_fd_arg (const char *event,
                  const char *arg)
{
  const SeismoSyscallInfo *info;

  if (!g_str_has_prefix (event, "sys_enter_")
      || (info = seismo_syscall_info (event + strlen ("sys_enter_"))) == NULL)
    return FALSE;
  for (guint i = 0; i < info->n_args; i++)
    if (strcmp (info->args[i].name, arg) == 0)
      return info->args[i].kind == SEISMO_SYSCALL_ARG_FD;
  return FALSE;
}

static EventInfo *
event_info_new_generic (Parser     *self,
                        const char *system,
                        const char *name,
                        ParseKind   parse,
                        const char *p,
                        const char *end)
{
  EventInfo *info = g_new0 (EventInfo, 1);
  KeyValue kv[MAX_KV];
  gboolean junk = FALSE;
  guint n, n_fields = 0;
  g_autofree SeismoFieldInfo *fields = NULL;
  g_autoptr(GString) fmt = g_string_new (NULL);

  info->parse = parse;
  if (parse == PARSE_SYSCALL_ENTER)
    {
      gboolean decimal;

      n = ftt_split_syscall_args (p, end, kv, MAX_KV, &decimal);
    }
  else
    {
      n = ftt_split_kv (p, end, kv, MAX_KV, &junk);
      /* Free text first (trace_printk and the like): a schema of text alone. */
      if (junk)
        n = 0;
    }

  info->fields = g_new0 (TextField, n + 1);
  fields = g_new0 (SeismoFieldInfo, n + 1);
  for (guint i = 0; i < n; i++)
    {
      TextField *f = &info->fields[n_fields];
      SeismoFieldInfo *fi = &fields[n_fields];

      /* A repeated key, or one that would clash with the overflow field, stays in the text. */
      if (ftt_kv_find (kv, i, 0, kv[i].key, kv[i].key_len) ||
          (parse == PARSE_GENERIC && kv[i].key_len == 4 && memcmp (kv[i].key, "text", 4) == 0))
        continue;

      f->name = g_strndup (kv[i].key, kv[i].key_len);
      f->name_len = kv[i].key_len;
      fi->name = f->name;
      if (parse == PARSE_SYSCALL_ENTER)
        {
          f->kind = name_in (kv[i].key, kv[i].key_len, fd_arg_names, G_N_ELEMENTS (fd_arg_names))
                    || catalogue_fd_arg (name, f->name) ? VALUE_FD : VALUE_HEX;
          if (kv[i].key_len == 12 && memcmp (kv[i].key, "__syscall_nr", 12) == 0)
            f->kind = VALUE_INT;
        }
      else
        f->kind = guess_value_kind (kv[i].key, kv[i].key_len, kv[i].val, kv[i].val_len);

      switch (f->kind)
        {
        case VALUE_INT:
          fi->type = SEISMO_FIELD_INT;
          fi->size = 8;
          if (strcmp (f->name, "sig") == 0)
            fi->display = SEISMO_DISPLAY_SIGNAL;
          break;
        case VALUE_FD:
          fi->type = SEISMO_FIELD_INT;
          fi->size = 8;
          fi->display = SEISMO_DISPLAY_FD;
          break;
        case VALUE_HEX:
          fi->type = SEISMO_FIELD_UINT;
          fi->size = 8;
          fi->display = SEISMO_DISPLAY_HEX;
          break;
        case VALUE_STRING:
        default:
          fi->type = SEISMO_FIELD_STRING;
          break;
        }

      if (parse == PARSE_SYSCALL_ENTER)
        g_string_append_printf (fmt, "%s%s: {%s}", n_fields ? ", " : "", f->name, f->name);
      else
        g_string_append_printf (fmt, "%s%s={%s}", n_fields ? " " : "", f->name, f->name);
      n_fields++;
    }
  info->n_fields = n_fields;

  if (parse == PARSE_GENERIC)
    {
      fields[n_fields].name = "text";
      fields[n_fields].type = SEISMO_FIELD_STRING;
      g_string_append (fmt, n_fields ? " {text}" : "{text}");
      info->has_text = TRUE;
    }

  info->type_id = ftt_add_event_type (self, system, name, fields,
                                                       n_fields + (info->has_text ? 1 : 0),
                                                       fmt->str);
  return info;
}

/* The canonical (kernel) name of a line's event, e.g. "sys_enter_openat" for "sys_openat(…)". */
static gboolean
canonical_name (const LineHead *head,
                char           *buf,
                gsize           size)
{
  const char *prefix = "";
  const char *name = head->name;
  gsize len = head->name_len;
  gsize pl;

  if (head->form == FORM_CALL || head->form == FORM_RETURN)
    {
      prefix = head->form == FORM_CALL ? "sys_enter_" : "sys_exit_";
      name += 4;
      len -= 4;
    }
  else if (head->form == FORM_FUNCTION)
    {
      name = "function";
      len = 8;
    }
  else if (head->form == FORM_BPRINT)
    {
      /* trace_marker writes are print events; anything else with an ip is trace_printk's. */
      gboolean marker = len >= 18 && memcmp (name, "tracing_mark_write", 18) == 0;

      name = marker ? "print" : "bprint";
      len = marker ? 5 : 6;
    }
  else if (len == 18 && memcmp (name, "tracing_mark_write", 18) == 0)
    {
      name = "print";
      len = 5;
    }
  pl = strlen (prefix);
  if (pl + len + 1 > size)
    return FALSE;
  memcpy (buf, prefix, pl);
  memcpy (buf + pl, name, len);
  buf[pl + len] = '\0';
  return TRUE;
}

/* A named syscall enter right after a raw one on its CPU: the pair tells the syscall table. */
void
ftt_note_syscall_name (Parser         *self,
                       const LineHead *head)
{
  char name[MAX_NAME + 16];

  if (seismo_arch_votes_pending (self->arch_votes, head->cpu, head->ts)
      && canonical_name (head, name, sizeof name) && g_str_has_prefix (name, "sys_enter_"))
    seismo_arch_votes_named (self->arch_votes, head->cpu, head->ts, name + strlen ("sys_enter_"));
}

EventInfo *
ftt_lookup_event (Parser         *self,
                  const LineHead *head)
{
  char name[MAX_NAME + 16];
  EventInfo *info;
  const char *system;
  ParseKind parse = PARSE_GENERIC;

  if (!canonical_name (head, name, sizeof name))
    return NULL;
  info = g_hash_table_lookup (self->events, name);
  if (info)
    return info;

  system = ftt_system_for (name);
  for (guint i = 0; i < G_N_ELEMENTS (parse_table); i++)
    if (strcmp (parse_table[i].system, system) == 0 && strcmp (parse_table[i].name, name) == 0)
      parse = parse_table[i].parse;
  if (parse == PARSE_GENERIC && strcmp (system, "syscalls") == 0)
    parse = g_str_has_prefix (name, "sys_enter_") ? PARSE_SYSCALL_ENTER : PARSE_SYSCALL_EXIT;

  if (parse == PARSE_GENERIC || parse == PARSE_SYSCALL_ENTER)
    info = event_info_new_generic (self, system, name, parse, head->payload, head->payload_end);
  else
    {
      info = g_new0 (EventInfo, 1);
      info->parse = parse;
      for (guint i = 0; i < G_N_ELEMENTS (fixed_schemas); i++)
        if (fixed_schemas[i].parse == parse)
          {
            const SeismoTracepoint *tp = seismo_tracepoint_lookup (fixed_schemas[i].system,
                                                                   fixed_schemas[i].name);

            info->type_id = ftt_add_event_type (self, system, name, tp->fields, tp->n_fields,
                                                tp->print_fmt);
          }
    }
  g_hash_table_insert (self->events, g_strdup (name), info);
  return info;
}

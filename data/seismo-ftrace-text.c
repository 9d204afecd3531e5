/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

#include <string.h>
#include <sys/mman.h>

#include "seismo-error.h"
#include "seismo-ftrace-text.h"
#include "seismo-ftrace-text-private.h"
#include "seismo-arch-detect.h"
#include "seismo-trace-builder.h"
#include "seismo-tracepoints.h"

/*
 * One line of text per event. The layouts this reads (all optionally after a `buffer: ` prefix
 * that trace-cmd prints for instance buffers):
 *
 *   tracefs trace / trace_pipe     "    bash-1234    [001] d..2.  123.456789: sched_switch: …"
 *     without irq-info             "    bash-1234    [001]  123.456789: …"
 *     with record-tgid             "    bash-1234    (   1234) [001] d..2.  123.456789: …"
 *     latency-format               "    bash-1234     1d..2. 123456789us : …"
 *   trace-cmd report               "    bash-1234  [001]  123.456789: sched_switch: …"
 *     -t                           "    bash-1234  [001]  123.456789012: …"
 *     -l                           "bash-1234   1d..2.  123.456789: …"
 *
 * Lines are found from their timestamp: the first "<digits>[.<digits>][us][mark]:" preceded by a
 * space whose left side reads as "comm-pid [(tgid)] [cpu] [flags]" or "comm-pid cpuflags". Comms
 * may hold spaces, dashes and colons, so the left side is read from the right.
 */


guint8 ftt_cclass[256];
static guint8 hexval[256];    /* 0xff: not a hex digit */

void
ftt_init_cclass (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;

  for (int c = 0; c < 256; c++)
    {
      guint8 k = 0;

      if (c >= '0' && c <= '9')
        k |= C_DIGIT | C_HEX | C_IDENT | C_NAME | C_FLAG;
      if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
        k |= C_HEX;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        k |= C_IDENT | C_NAME;
      if (c == '.')
        k |= C_NAME | C_FLAG;
      if (c == ' ' || c == '\t')
        k |= C_SPACE;
      ftt_cclass[c] = k;
      hexval[c] = c >= '0' && c <= '9' ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 0xff;
    }
  /* Every letter the kernel and libtraceevent print in the flags column, plus hex depths. */
  for (const char *f = "dDXNnpBLbHhsZzacef+!"; *f; f++)
    ftt_cclass[(guint8) *f] |= C_FLAG;

  g_once_init_leave (&done, 1);
}


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

static gboolean
has_suffix_len (const char *s,
                gsize       len,
                const char *suffix)
{
  gsize sl = strlen (suffix);

  return len >= sl && memcmp (s + len - sl, suffix, sl) == 0;
}

/* ---- numbers -------------------------------------------------------------------------------- */

static gboolean
parse_dec (const char *s,
           gsize       len,
           gint64     *out)
{
  gboolean neg = FALSE;
  guint64 v = 0;
  gsize i = 0;

  if (len && (s[0] == '-' || s[0] == '+'))
    {
      neg = s[0] == '-';
      i = 1;
    }
  if (i == len)
    return FALSE;
  for (; i < len; i++)
    {
      guint d = (guint8) s[i] - '0';

      if (d > 9 || v > (G_MAXUINT64 - d) / 10)
        return FALSE;
      v = v * 10 + d;
    }
  if (neg)
    {
      if (v > (guint64) G_MAXINT64 + 1)
        return FALSE;
      *out = (gint64) (0 - v);
    }
  else
    {
      /* Unsigned values above G_MAXINT64 keep their bits. */
      *out = (gint64) v;
    }
  return TRUE;
}

static gboolean
parse_hex (const char *s,
           gsize       len,
           guint64    *out)
{
  guint64 v = 0;
  gsize i = 0;

  if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    i = 2;
  if (i == len || len - i > 16)
    return FALSE;
  for (; i < len; i++)
    {
      guint d = hexval[(guint8) s[i]];

      if (d == 0xff)
        return FALSE;
      v = (v << 4) | d;
    }
  *out = v;
  return TRUE;
}

/* A file descriptor printed as hex of an int widened to unsigned long: 0xffffff9c is AT_FDCWD. */
static gint64
fd_from_hex (guint64 v)
{
  if (v <= G_MAXUINT32)
    return (gint64) (gint32) (guint32) v;
  return (gint64) v;
}

static gboolean
is_hex_prefixed (const char *s,
                 gsize       len)
{
  return len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/*
 * The task state letters of sched_switch's prev_state, bit i for letter i. Kernels since 4.14 print
 * S D T t X Z P I and "+" for a preempted task (bit 8); older kernels also K W N x with another
 * layout. libtraceevent's sched_switch plugin (what trace-cmd report shows) prints its own fixed
 * table and no "+".
 */
static const char modern_states[] = "SDTtXZPI";
static const char legacy_states[] = "SDTtXZxKWPN";
static const char plugin_states[] = "SDTtZXxW";

/* Which of those tables a file's prev_state letters were read with, so that they show the same. */
enum {
  STATES_MODERN = 1 << 0,   /* P or I: only >= 4.14 has them at these bits */
  STATES_LEGACY = 1 << 1,   /* x K W N: < 4.14 */
  STATES_PLUGIN = 1 << 2,   /* trace-cmd's sched_switch plugin */
};

static const SeismoSymbol legacy_state_symbols[] = {
  { 0x1, "S" }, { 0x2, "D" }, { 0x4, "T" }, { 0x8, "t" }, { 0x10, "X" }, { 0x20, "Z" },
  { 0x40, "x" }, { 0x80, "K" }, { 0x100, "W" }, { 0x200, "P" }, { 0x400, "N" }, { 0x800, "+" },
};

static const SeismoSymbol plugin_state_symbols[] = {
  { 0x1, "S" }, { 0x2, "D" }, { 0x4, "T" }, { 0x8, "t" }, { 0x10, "Z" }, { 0x20, "X" },
  { 0x40, "x" }, { 0x80, "W" },
};

static guint
states_table_of (const char *s,
                 gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (memchr ("KWNx", s[i], 4) != NULL)
      return STATES_LEGACY;
  for (gsize i = 0; i < len; i++)
    if (s[i] == 'P' || s[i] == 'I')
      return STATES_MODERN;
  return 0;
}

static gboolean
parse_sched_state (const char *s,
                   gsize       len,
                   gboolean    plugin,
                   gint64     *out)
{
  const char *table = plugin ? plugin_states : modern_states;
  guint64 preempted = plugin ? 0 : 0x100;
  guint64 bits = 0;
  gsize i;

  if (len == 0)
    return FALSE;
  if (IS (s[0], C_DIGIT) || s[0] == '-')
    return parse_dec (s, len, out);

  for (i = 0; !plugin && i < len; i++)
    if (memchr ("KWNx", s[i], 4) != NULL)
      {
        table = legacy_states;
        preempted = 0x800;
      }

  for (i = 0; i < len; i++)
    {
      const char *hit;

      if (s[i] == '|' || s[i] == 'R')
        continue;
      if (s[i] == '+' && preempted)
        {
          bits |= preempted;
          continue;
        }
      if ((hit = memchr (table, s[i], strlen (table))) == NULL)
        return FALSE;
      bits |= G_GUINT64_CONSTANT (1) << (hit - table);
    }
  *out = (gint64) bits;
  return TRUE;
}

/* Parses "<digits>[.<digits>]" into ns; the fraction is scaled to 9 digits. */
/* Inlined into the line loop (the importer's other files call ftt_parse_timestamp). */
G_ALWAYS_INLINE static inline gboolean
parse_timestamp (const char *s,
                 const char *end,
                 gboolean    micro,
                 guint64    *out,
                 gboolean   *ns_digits)
{
  guint64 secs = 0, frac = 0;
  guint n_frac = 0, n_int = 0;
  const char *p = s;

  for (; p < end && IS (*p, C_DIGIT); p++, n_int++)
    {
      if (secs > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      secs = secs * 10 + (guint) (*p - '0');
    }
  if (n_int == 0)
    return FALSE;
  if (p < end && *p == '.')
    {
      for (p++; p < end && IS (*p, C_DIGIT); p++, n_frac++)
        if (n_frac < 9)
          frac = frac * 10 + (guint) (*p - '0');
      if (n_frac == 0)
        return FALSE;
    }
  if (p != end)
    return FALSE;

  *ns_digits = n_frac >= 9;
  if (micro)
    {
      /* Latency format: microseconds. */
      for (guint k = MIN (n_frac, 3); k < 3; k++)
        frac *= 10;
      if (n_frac > 3)
        for (guint k = 3; k < MIN (n_frac, 9); k++)
          frac /= 10;
      if (secs > G_MAXUINT64 / 1000)
        return FALSE;
      *out = secs * 1000 + frac;
      return TRUE;
    }
  if (n_frac == 0)
    {
      /* A clock that counts something else (counter, x86-tsc): keep the raw count. */
      *out = secs;
      return TRUE;
    }
  for (guint k = MIN (n_frac, 9); k < 9; k++)
    frac *= 10;
  if (secs > (G_MAXUINT64 - frac) / G_GUINT64_CONSTANT (1000000000))
    return FALSE;
  *out = secs * G_GUINT64_CONSTANT (1000000000) + frac;
  return TRUE;
}

/* ---- the left part of a line ---------------------------------------------------------------- */


/* Task columns are right-aligned in 16 or more spaces: skip them eight at a time. */


static gboolean
is_flags (const char *s,
          const char *end)
{
  if (end - s < 1 || end - s > 8)
    return FALSE;
  for (; s < end; s++)
    if (!IS (*s, C_FLAG))
      return FALSE;
  return TRUE;
}

/* "[001]" → 1 */
static gboolean
parse_cpu_bracket (const char *s,
                   const char *end,
                   guint      *cpu)
{
  guint v = 0;

  if (end - s < 3 || end - s > 7 || s[0] != '[' || end[-1] != ']')
    return FALSE;
  for (s++; s < end - 1; s++)
    {
      if (!IS (*s, C_DIGIT))
        return FALSE;
      v = v * 10 + (guint) (*s - '0');
    }
  *cpu = v;
  return TRUE;
}

/*
 * Reads "comm-pid [(tgid)] [cpu] [flags]" or "comm-pid cpuflags" in [start, end), from the right.
 */
static gboolean
parse_task_cpu (const char *start,
                const char *end,
                LineHead   *head)
{
  const char *p = ftt_rtrim (start, end);
  const char *tok = p;
  const char *pid_start;
  gint64 pid;

  while (tok > start && !IS (tok[-1], C_SPACE))
    tok--;
  if (tok == p)
    return FALSE;

  head->latency = FALSE;
  if (parse_cpu_bracket (tok, p, &head->cpu))
    {
      p = ftt_rtrim (start, tok);
    }
  else if (IS (*tok, C_DIGIT) && is_flags (tok, p))
    {
      /* Latency layout: "%3d" cpu glued to the flags. A flags column never starts with a digit. */
      const char *q = tok;
      guint cpu = 0;

      for (; q < p && IS (*q, C_DIGIT) && q - tok < 5; q++)
        cpu = cpu * 10 + (guint) (*q - '0');
      if (q == p || IS (*q, C_DIGIT) || p - q < 3)
        return FALSE;
      head->cpu = cpu;
      head->latency = TRUE;
      p = ftt_rtrim (start, tok);
    }
  else if (is_flags (tok, p))
    {
      const char *cpu_tok;

      p = ftt_rtrim (start, tok);
      cpu_tok = p;
      while (cpu_tok > start && !IS (cpu_tok[-1], C_SPACE))
        cpu_tok--;
      if (!parse_cpu_bracket (cpu_tok, p, &head->cpu))
        return FALSE;
      p = ftt_rtrim (start, cpu_tok);
    }
  else
    return FALSE;

  head->tgid = -1;
  if (p > start && p[-1] == ')')
    {
      const char *close = p - 1;
      const char *open = close;
      gint64 tgid;

      while (open > start && *open != '(')
        open--;
      if (*open != '(')
        return FALSE;
      {
        const char *a = ftt_skip_spaces (open + 1, close);

        if (parse_dec (a, close - a, &tgid) && tgid >= 0 && tgid <= G_MAXINT32)
          head->tgid = (gint32) tgid;
      }
      p = ftt_rtrim (start, open);
    }

  pid_start = p;
  while (pid_start > start && IS (pid_start[-1], C_DIGIT))
    pid_start--;
  if (pid_start == p || p - pid_start > 10 || pid_start == start || pid_start[-1] != '-')
    return FALSE;
  if (!parse_dec (pid_start, p - pid_start, &pid) || pid > G_MAXINT32)
    return FALSE;
  head->tid = (gint32) pid;
  head->comm = start;
  head->comm_len = (pid_start - 1) - start;
  return TRUE;
}

/* Past "+0x14/0x1c8" when p is at one, else p. */
static const char *
skip_sym_offset (const char *p,
                 const char *end)
{
  const char *q = p;

  if (end - q < 4 || q[0] != '+' || q[1] != '0' || q[2] != 'x')
    return p;
  for (q += 3; q < end && IS (*q, C_HEX); q++)
    ;
  if (end - q < 4 || q[0] != '/' || q[1] != '0' || q[2] != 'x' || !IS (q[3], C_HEX))
    return p;
  for (q += 3; q < end && IS (*q, C_HEX); q++)
    ;
  return q;
}

/* Splits an event line; FALSE when it is not one. */
static gboolean
parse_line_head (const char *line,
                 const char *end,
                 LineHead   *head)
{
  const char *s = line;
  const char *colon;

  /* No memset: every field is set on the way to a TRUE return (this runs for every line). */
  head->buffer = NULL;
  head->buffer_len = 0;

  /* trace-cmd's "buffer: " prefix sits at column 0; task columns are right-aligned. */
  if (s < end && !IS (*s, C_SPACE))
    {
      const char *sp = s;

      while (sp < end && !IS (*sp, C_SPACE))
        sp++;
      if (sp < end && sp - s >= 2 && sp[-1] == ':')
        {
          head->buffer = s;
          head->buffer_len = (sp - 1) - s;
          s = sp;
        }
    }
  s = ftt_skip_indent (s, end);

  for (colon = memchr (s, ':', end - s); colon != NULL;
       colon = memchr (colon + 1, ':', end - (colon + 1)))
    {
      const char *te = colon;
      const char *ts;
      gboolean micro = FALSE;

      if (colon + 1 < end && colon[1] != ' ' && colon[1] != '\t')
        continue;
      /* The latency layout puts a mark (' ', '+', '!', …) between the time and the colon. */
      if (te > s && strchr (" +!#*@$>", te[-1]) != NULL && te[-1] != '\0')
        te--;
      if (te - s >= 2 && te[-2] == 'u' && te[-1] == 's')
        {
          micro = TRUE;
          te -= 2;
        }
      ts = te;
      while (ts > s && (IS (ts[-1], C_DIGIT) || ts[-1] == '.'))
        ts--;
      if (ts == te || ts == s || !IS (ts[-1], C_SPACE) || !IS (*ts, C_DIGIT))
        continue;
      if (!parse_timestamp (ts, te, micro, &head->ts, &head->ts_ns))
        continue;
      if (!parse_task_cpu (s, ts, head))
        continue;

      /* The event name, then how the payload is introduced. */
      {
        const char *n = ftt_skip_spaces (colon + 1, end);
        const char *ne = n;

        while (ne < end && IS (*ne, C_NAME))
          ne++;
        if (G_UNLIKELY (ne == n) && n < end && *n == '<')
          {
            /* "<stack trace>" / "<user stack trace>": the frames are on the lines after. */
            if (ftt_starts_with (n, end, "<stack trace>") ||
                ftt_starts_with (n, end, "<user stack trace>"))
              {
                head->name = n;
                head->name_len = n[1] == 'u' ? 18 : 13;
                head->form = FORM_STACK;
                head->payload = head->payload_end = end;
                return TRUE;
              }
            return FALSE;
          }
        if (ne == n || ne - n >= MAX_NAME)
          return FALSE;
        head->name = n;
        head->name_len = ne - n;

        if (ne < end && *ne == ':')
          {
            head->form = FORM_NORMAL;
            head->payload = ftt_skip_spaces (ne + 1, end);
            head->payload_end = end;
            return TRUE;
          }
        /* Not "name:": maybe a function or trace_printk ip printed with the sym-offset option
         * ("ttwu_do_wakeup+0x14/0x1c8") and/or sym-addr (" <ffffffff810a6c30>"). */
        if (ne < end && (*ne == '+' || *ne == ' '))
          {
            const char *ip_end = skip_sym_offset (ne, end);

            if (end - ip_end >= 3 && ip_end[0] == ' ' && ip_end[1] == '<' && ip_end[2] != '-')
              {
                const char *q = ip_end + 2;

                while (q < end && IS (*q, C_HEX))
                  q++;
                if (q < end && *q == '>' && q > ip_end + 2 &&
                    ((end - q >= 4 && memcmp (q + 1, " <-", 3) == 0) || (q + 1 < end && q[1] == ':')))
                  ip_end = q + 1;
              }
            if (ip_end != ne)
              {
                if (ip_end - n >= MAX_NAME)
                  return FALSE;
                head->name_len = ip_end - n;
                if (ip_end < end && *ip_end == ':')
                  {
                    head->form = FORM_BPRINT;
                    head->payload = ftt_skip_spaces (ip_end + 1, end);
                    head->payload_end = end;
                    return TRUE;
                  }
                if (end - ip_end >= 3 && memcmp (ip_end, " <-", 3) == 0)
                  {
                    head->form = FORM_FUNCTION;
                    head->payload = n;
                    head->payload_end = end;
                    return TRUE;
                  }
                return FALSE;
              }
          }
        if (ne < end && *ne == '(' && ne - n > 4 && memcmp (n, "sys_", 4) == 0)
          {
            const char *close = end;

            while (close > ne && close[-1] != ')')
              close--;
            if (close == ne)
              return FALSE;
            head->form = FORM_CALL;
            head->payload = ne + 1;
            head->payload_end = close - 1;
            return TRUE;
          }
        if (end - ne >= 4 && memcmp (ne, " -> ", 4) == 0 && ne - n > 4 &&
            memcmp (n, "sys_", 4) == 0)
          {
            head->form = FORM_RETURN;
            head->payload = ne + 4;
            head->payload_end = end;
            return TRUE;
          }
        if (end - ne >= 3 && memcmp (ne, " <-", 3) == 0)
          {
            head->form = FORM_FUNCTION;
            head->payload = n;
            head->payload_end = end;
            return TRUE;
          }
        if (ne == end)
          {
            /* An event printed nothing after its name. */
            head->form = FORM_NORMAL;
            head->payload = head->payload_end = end;
            return TRUE;
          }
        return FALSE;
      }
    }
  return FALSE;
}

/* ---- payloads ------------------------------------------------------------------------------- */

/* At a space in a payload: does a new "key=" (or "==> key=") start after it? */
static gboolean
next_is_key (const char *p,
             const char *end)
{
  p = ftt_skip_spaces (p, end);
  if (end - p >= 4 && memcmp (p, "==> ", 4) == 0)
    return TRUE;
  if (p == end || !IS (*p, C_IDENT) || IS (*p, C_DIGIT))
    return FALSE;
  while (p < end && IS (*p, C_IDENT))
    p++;
  return p < end && *p == '=';
}

/*
 * Splits "a=1 b=some text c=3 ==> d=4" into key/value pairs. Values run until the next " key=", so
 * comms with spaces survive. Returns the number of pairs; *junk is set when text that is not a pair
 * came first or when pairs were left over.
 */
static guint
split_kv (const char *p,
          const char *end,
          KeyValue   *kv,
          guint       max,
          gboolean   *junk)
{
  guint n = 0;

  *junk = FALSE;
  p = ftt_skip_spaces (p, end);
  while (p < end)
    {
      const char *k = p;
      const char *v;

      if (end - p >= 4 && memcmp (p, "==> ", 4) == 0)
        {
          p = ftt_skip_spaces (p + 4, end);
          continue;
        }
      while (p < end && IS (*p, C_IDENT))
        p++;
      if (p == k || p == end || *p != '=' || IS (*k, C_DIGIT))
        {
          /* Not a pair: skip to the next place a pair starts. */
          *junk = TRUE;
          while (p < end && !(IS (*p, C_SPACE) && next_is_key (p, end)))
            p++;
          p = ftt_skip_spaces (p, end);
          continue;
        }
      v = ++p;
      while (p < end && !(IS (*p, C_SPACE) && next_is_key (p, end)))
        p++;
      if (n == max)
        {
          *junk = TRUE;
          break;
        }
      kv[n].key = k;
      kv[n].key_len = (guint16) MIN (v - 1 - k, G_MAXUINT16);
      kv[n].val = v;
      kv[n].val_len = (guint16) MIN (ftt_rtrim (v, p) - v, G_MAXUINT16);
      kv[n].used = FALSE;
      n++;
      p = ftt_skip_spaces (p, end);
    }
  return n;
}

/* "394700 [ns]" → "394700", "9 [action=RCU]" → "9": the kernel's decorations after a number. */
static gsize
number_len (const char *v,
            gsize       len)
{
  gsize i = 0;

  while (i < len && !IS (v[i], C_SPACE))
    i++;
  if (i < len)
    {
      const char *rest = ftt_skip_spaces (v + i, v + len);

      if (rest < v + len && *rest == '[' && v[len - 1] == ']')
        return i;
    }
  return len;
}

static KeyValue *
kv_find (KeyValue   *kv,
         guint       n,
         guint       hint,
         const char *key,
         gsize       key_len)
{
  if (hint < n && kv[hint].key_len == key_len && memcmp (kv[hint].key, key, key_len) == 0)
    return &kv[hint];
  for (guint i = 0; i < n; i++)
    if (kv[i].key_len == key_len && memcmp (kv[i].key, key, key_len) == 0)
      return &kv[i];
  return NULL;
}

static KeyValue *
kv_get (KeyValue   *kv,
        guint       n,
        guint       hint,
        const char *key)
{
  KeyValue *hit = kv_find (kv, n, hint, key, strlen (key));

  if (hit)
    hit->used = TRUE;
  return hit;
}

static gint64
kv_int (KeyValue *kv)
{
  gint64 v = 0;

  if (kv && !parse_dec (kv->val, number_len (kv->val, kv->val_len), &v))
    v = 0;
  return v;
}

static void
push_str (Parser     *self,
          const char *s,
          gsize       len)
{
  CachedString *c;
  guint32 h = 2166136261u;

  if (len == 0 || len > STR_CACHE_LEN)
    {
      seismo_trace_builder_push_string_len (self->builder, s, len);
      return;
    }
  for (gsize i = 0; i < len; i++)
    h = (h ^ (guint8) s[i]) * 16777619u;
  c = &self->strings[h % N_STR_CACHE];
  if (c->len != len || memcmp (c->str, s, len) != 0)
    {
      c->id = seismo_trace_builder_intern_len (self->builder, s, len);
      c->len = (guint8) len;
      memcpy (c->str, s, len);
    }
  seismo_trace_builder_push_string_id (self->builder, c->id);
}

static void
push_kv_string (Parser   *self,
                KeyValue *kv)
{
  if (kv)
    push_str (self, kv->val, kv->val_len);
  else
    seismo_trace_builder_push_string_id (self->builder, 0);
}

/* "comm:pid [prio]" → comm, pid, prio (libtraceevent's sched plugin layout). */
static gboolean
split_comm_pid_prio (const char  *s,
                     const char  *end,
                     const char **comm,
                     gsize       *comm_len,
                     gint64      *pid,
                     gint64      *prio,
                     const char **after)
{
  const char *open = NULL, *close, *colon;

  s = ftt_skip_spaces (s, end);
  for (const char *q = s; q + 1 < end; q++)
    if (q[0] == ' ' && q[1] == '[')
      open = q;
  if (open == NULL)
    return FALSE;
  close = memchr (open, ']', end - open);
  if (close == NULL || !parse_dec (open + 2, close - (open + 2), prio))
    return FALSE;
  colon = open;
  while (colon > s && *colon != ':')
    colon--;
  if (*colon != ':' || !parse_dec (colon + 1, open - (colon + 1), pid))
    return FALSE;
  *comm = s;
  *comm_len = colon - s;
  *after = ftt_skip_spaces (close + 1, end);
  return TRUE;
}

static void
push_sched_switch (Parser     *self,
                   const char *p,
                   const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  const char *arrow = NULL;

  for (const char *q = p; q + 4 <= end; q++)
    if (q[0] == '=' && q[1] == '=' && q[2] == '>' && q[-1] == ' ')
      {
        arrow = q;
        break;
      }

  if (end - p >= 10 && memcmp (p, "prev_comm=", 10) == 0)
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = split_kv (p, end, kv, MAX_KV, &junk);
      KeyValue *state;
      gint64 st = 0;

      push_kv_string (self, kv_get (kv, n, 0, "prev_comm"));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 1, "prev_pid")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 2, "prev_prio")));
      state = kv_get (kv, n, 3, "prev_state");
      if (state)
        {
          parse_sched_state (state->val, state->val_len, FALSE, &st);
          self->state_tables |= states_table_of (state->val, state->val_len);
        }
      seismo_trace_builder_push_int (b, st);
      push_kv_string (self, kv_get (kv, n, 4, "next_comm"));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 5, "next_pid")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 6, "next_prio")));
      return;
    }

  {
    const char *prev_comm = "", *next_comm = "", *after = end;
    gsize prev_len = 0, next_len = 0;
    gint64 prev_pid = 0, prev_prio = 0, next_pid = 0, next_prio = 0, st = 0;

    if (arrow)
      {
        if (split_comm_pid_prio (p, arrow - 1, &prev_comm, &prev_len, &prev_pid, &prev_prio,
                                 &after))
          {
            const char *se = ftt_rtrim (after, arrow);

            parse_sched_state (after, se - after, TRUE, &st);
            self->state_tables |= STATES_PLUGIN;
          }
        split_comm_pid_prio (arrow + 3, end, &next_comm, &next_len, &next_pid, &next_prio,
                             &after);
      }
    push_str (self, prev_comm, prev_len);
    seismo_trace_builder_push_int (b, prev_pid);
    seismo_trace_builder_push_int (b, prev_prio);
    seismo_trace_builder_push_int (b, st);
    push_str (self, next_comm, next_len);
    seismo_trace_builder_push_int (b, next_pid);
    seismo_trace_builder_push_int (b, next_prio);
  }
}

G_ALWAYS_INLINE static inline void
push_sched_wakeup (Parser     *self,
                   const char *p,
                   const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  const char *comm = "", *after = end;
  gsize comm_len = 0;
  gint64 pid = 0, prio = 0, cpu = 0;

  if (end - p >= 5 && memcmp (p, "comm=", 5) == 0)
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = split_kv (p, end, kv, MAX_KV, &junk);

      push_kv_string (self, kv_get (kv, n, 0, "comm"));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 1, "pid")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 2, "prio")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 3, "target_cpu")));
      return;
    }

  /* "comm:pid [prio] CPU:001", older plugins "… success=1 CPU:001". */
  if (split_comm_pid_prio (p, end, &comm, &comm_len, &pid, &prio, &after))
    {
      const char *c = NULL;

      for (const char *q = after; q + 4 <= end; q++)
        if (memcmp (q, "CPU:", 4) == 0)
          c = q + 4;
      if (c && !parse_dec (c, end - c, &cpu))
        cpu = 0;
    }
  push_str (self, comm, comm_len);
  seismo_trace_builder_push_int (b, pid);
  seismo_trace_builder_push_int (b, prio);
  seismo_trace_builder_push_int (b, cpu);
}

static void
push_sched_fork (Parser     *self,
                 const char *p,
                 const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  KeyValue kv[MAX_KV];
  KeyValue *hit;
  gboolean junk;
  guint n = split_kv (p, end, kv, MAX_KV, &junk);

  /* The kernel prints the parent as comm=/pid=, trace-cmd -R as parent_comm=/parent_pid=. */
  hit = kv_get (kv, n, 0, "comm");
  push_kv_string (self, hit ? hit : kv_get (kv, n, 0, "parent_comm"));
  hit = kv_get (kv, n, 1, "pid");
  seismo_trace_builder_push_int (b, kv_int (hit ? hit : kv_get (kv, n, 1, "parent_pid")));
  push_kv_string (self, kv_get (kv, n, 2, "child_comm"));
  seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 3, "child_pid")));
}

/* trace-cmd -R prints arrays as the raw bytes: "ARRAY[0b, 00, …]"; the args are 8-byte words. */
static guint
bytes_array_to_words (const char *p,
                      const char *end,
                      guint64    *out,
                      guint       max)
{
  guint64 word = 0;
  guint nb = 0, n = 0;

  while (p < end && n < max)
    {
      const char *q;
      guint64 byte;

      p = ftt_skip_spaces (p, end);
      q = p;
      while (q < end && IS (*q, C_HEX))
        q++;
      if (q == p || !parse_hex (p, q - p, &byte))
        break;
      word |= (byte & 0xff) << (8 * nb);
      if (++nb == 8)
        {
          out[n++] = word;
          word = 0;
          nb = 0;
        }
      p = q;
      while (p < end && (*p == ',' || IS (*p, C_SPACE)))
        p++;
    }
  return n;
}

/* "NR 1 (3, 7ffe994b6d80, c, 0, 0, 0)" or, from trace-cmd -R, "id=1 args=ARRAY[…]". */
static void
push_raw_sys_enter (Parser         *self,
                    const LineHead *head,
                    const char     *p,
                    const char     *end)
{
  SeismoTraceBuilder *b = self->builder;
  guint64 args[MAX_ARGS];
  guint n_args = 0;
  gint64 id = -1;

  if (end - p >= 3 && memcmp (p, "NR ", 3) == 0)
    {
      const char *q = p + 3;
      const char *ne = q;

      while (ne < end && (IS (*ne, C_DIGIT) || *ne == '-'))
        ne++;
      if (!parse_dec (q, ne - q, &id))
        id = -1;
      q = ftt_skip_spaces (ne, end);
      if (q < end && *q == '(')
        {
          const char *close = end;

          while (close > q && close[-1] != ')')
            close--;
          if (close > q)
            close--;
          for (q++; q < close && n_args < MAX_ARGS;)
            {
              const char *ae;
              guint64 v;

              q = ftt_skip_spaces (q, close);
              ae = q;
              while (ae < close && IS (*ae, C_HEX))
                ae++;
              if (!parse_hex (q, ae - q, &v))
                v = 0;
              args[n_args++] = v;
              while (ae < close && *ae != ',')
                ae++;
              q = ae + 1;
            }
        }
    }
  else
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = split_kv (p, end, kv, MAX_KV, &junk);
      KeyValue *arr = kv_get (kv, n, 1, "args");

      id = kv_int (kv_get (kv, n, 0, "id"));
      if (arr && arr->val_len > 6 && memcmp (arr->val, "ARRAY[", 6) == 0)
        n_args = bytes_array_to_words (arr->val + 6, arr->val + arr->val_len - 1, args,
                                       MAX_ARGS);
    }
  seismo_trace_builder_push_uint (b, (guint64) id);
  seismo_trace_builder_push_uint_array (b, args, n_args);
  seismo_arch_votes_raw (self->arch_votes, head->cpu, head->ts, id, args, n_args);
}

G_ALWAYS_INLINE static inline void
push_raw_sys_exit (Parser     *self,
                   const char *p,
                   const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  gint64 id = -1, ret = 0;

  if (end - p >= 3 && memcmp (p, "NR ", 3) == 0)
    {
      const char *q = p + 3;
      const char *ne = q;
      const char *eq;

      while (ne < end && (IS (*ne, C_DIGIT) || *ne == '-'))
        ne++;
      if (!parse_dec (q, ne - q, &id))
        id = -1;
      eq = memchr (ne, '=', end - ne);
      if (eq)
        {
          q = ftt_skip_spaces (eq + 1, end);
          if (!parse_dec (q, ftt_rtrim (q, end) - q, &ret))
            ret = 0;
        }
    }
  else
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = split_kv (p, end, kv, MAX_KV, &junk);

      id = kv_int (kv_get (kv, n, 0, "id"));
      ret = kv_int (kv_get (kv, n, 1, "ret"));
    }
  seismo_trace_builder_push_uint (b, (guint64) id);
  seismo_trace_builder_push_int (b, ret);
}

/*
 * Syscall arguments: "dfd: 0xffffff9c, filename: 0x7ffd…" (hex, trace-cmd and the kernel), or
 * "__syscall_nr=257 dfd=4294967196 …" (trace-cmd -R, decimal). Returns the number of pairs.
 */
static guint
split_syscall_args (const char *p,
                    const char *end,
                    KeyValue   *kv,
                    guint       max,
                    gboolean   *decimal)
{
  guint n = 0;

  *decimal = FALSE;
  p = ftt_skip_spaces (p, end);
  {
    const char *k = p;

    while (k < end && IS (*k, C_IDENT))
      k++;
    if (k < end && *k == '=')
      {
        gboolean junk;

        *decimal = TRUE;
        return split_kv (p, end, kv, max, &junk);
      }
  }

  while (p < end && n < max)
    {
      const char *k = p, *ke, *v, *ve;

      while (p < end && IS (*p, C_IDENT))
        p++;
      ke = p;
      if (ke == k || end - p < 2 || p[0] != ':' || p[1] != ' ')
        break;
      v = ftt_skip_spaces (p + 1, end);
      ve = v;
      while (ve < end && *ve != ',')
        ve++;
      kv[n].key = k;
      kv[n].key_len = (guint16) MIN (ke - k, G_MAXUINT16);
      kv[n].val = v;
      kv[n].val_len = (guint16) MIN (ftt_rtrim (v, ve) - v, G_MAXUINT16);
      kv[n].used = FALSE;
      n++;
      p = ve < end ? ftt_skip_spaces (ve + 1, end) : end;
    }
  return n;
}

static void
push_syscall_enter (Parser     *self,
                    EventInfo  *info,
                    const char *p,
                    const char *end)
{
  KeyValue kv[MAX_KV];
  gboolean decimal;
  guint n = split_syscall_args (p, end, kv, MAX_KV, &decimal);

  for (guint i = 0; i < info->n_fields; i++)
    {
      const TextField *f = &info->fields[i];
      KeyValue *hit = kv_find (kv, n, i, f->name, f->name_len);
      guint64 u = 0;
      gint64 d = 0;

      if (hit)
        {
          if (decimal && !is_hex_prefixed (hit->val, hit->val_len))
            {
              if (parse_dec (hit->val, hit->val_len, &d))
                u = (guint64) d;
            }
          else if (!parse_hex (hit->val, hit->val_len, &u))
            u = 0;
        }
      if (f->kind == VALUE_FD)
        seismo_trace_builder_push_int (self->builder, fd_from_hex (u));
      else if (f->kind == VALUE_INT)
        seismo_trace_builder_push_int (self->builder, (gint64) u);
      else
        seismo_trace_builder_push_uint (self->builder, u);
    }
}

static void
push_syscall_exit (Parser     *self,
                   const char *p,
                   const char *end)
{
  const char *e = ftt_rtrim (p, end);
  const char *r;
  gint64 ret = 0;
  guint64 u;

  /* trace-cmd -R: "__syscall_nr=257 ret=3". */
  for (r = p; r + 4 <= e; r++)
    if (memcmp (r, "ret=", 4) == 0 && (r == p || r[-1] == ' '))
      {
        r += 4;
        if (!parse_dec (r, e - r, &ret))
          ret = 0;
        seismo_trace_builder_push_int (self->builder, ret);
        return;
      }
  if (parse_hex (p, e - p, &u))
    ret = (gint64) u;
  else if (!parse_dec (p, e - p, &ret))
    ret = 0;
  seismo_trace_builder_push_int (self->builder, ret);
}

G_ALWAYS_INLINE static inline void
push_irq_entry (Parser     *self,
                const char *p,
                const char *end)
{
  KeyValue kv[MAX_KV];
  gboolean junk;
  guint n = split_kv (p, end, kv, MAX_KV, &junk);

  seismo_trace_builder_push_int (self->builder, kv_int (kv_get (kv, n, 0, "irq")));
  push_kv_string (self, kv_get (kv, n, 1, "name"));
}

G_ALWAYS_INLINE static inline void
push_irq_exit (Parser     *self,
               const char *p,
               const char *end)
{
  KeyValue kv[MAX_KV];
  KeyValue *ret;
  gboolean junk;
  guint n = split_kv (p, end, kv, MAX_KV, &junk);
  gint64 r = 0;

  seismo_trace_builder_push_int (self->builder, kv_int (kv_get (kv, n, 0, "irq")));
  ret = kv_get (kv, n, 1, "ret");
  if (ret)
    {
      if (ret->val_len == 7 && memcmp (ret->val, "handled", 7) == 0)
        r = 1;
      else if (!parse_dec (ret->val, ret->val_len, &r))
        r = 0;
    }
  seismo_trace_builder_push_int (self->builder, r);
}

G_ALWAYS_INLINE static inline void
push_softirq (Parser     *self,
              const char *p,
              const char *end)
{
  KeyValue kv[MAX_KV];
  gboolean junk;
  guint n = split_kv (p, end, kv, MAX_KV, &junk);

  seismo_trace_builder_push_uint (self->builder, (guint64) kv_int (kv_get (kv, n, 0, "vec")));
}

/* "do_sys_open <-__x64_sys_openat" (kernel) or "do_sys_open <-- __x64_sys_openat" (trace-cmd). */
static void
push_function (Parser     *self,
               const char *p,
               const char *end)
{
  const char *arrow = NULL;

  for (const char *q = p; q + 2 <= end; q++)
    if (q[0] == '<' && q[1] == '-')
      {
        arrow = q;
        break;
      }
  if (arrow == NULL)
    {
      push_str (self, p, ftt_rtrim (p, end) - p);
      seismo_trace_builder_push_string_id (self->builder, 0);
      return;
    }
  push_str (self, p, ftt_rtrim (p, arrow) - p);
  arrow += 2;
  while (arrow < end && *arrow == '-')
    arrow++;
  arrow = ftt_skip_spaces (arrow, end);
  push_str (self, arrow, ftt_rtrim (arrow, end) - arrow);
}

/*
 * tracefs prints trace_marker writes as "tracing_mark_write: hello"; trace-cmd prints the print,
 * bprint and bputs events as "print: tracing_mark_write: hello" or "bprint: my_func: value 42".
 */
static void
push_print (Parser     *self,
            const char *name,
            gsize       name_len,
            const char *p,
            const char *end)
{
  const char *q = p;

  if ((name_len == 5 && memcmp (name, "print", 5) == 0) ||
      (name_len == 6 && memcmp (name, "bprint", 6) == 0) ||
      (name_len == 5 && memcmp (name, "bputs", 5) == 0))
    {
      while (q < end && IS (*q, C_NAME))
        q++;
      q = skip_sym_offset (q, end);
      if (q > p && end - q >= 2 && q[0] == ':' && q[1] == ' ')
        {
          push_str (self, p, q - p);
          p = q + 2;
        }
      else
        seismo_trace_builder_push_string_id (self->builder, 0);
    }
  else
    push_str (self, name, name_len);
  push_str (self, p, ftt_rtrim (p, end) - p);
}

static void
append_pair (GString    *out,
             const char *key,
             gsize       key_len,
             const char *val,
             gsize       val_len)
{
  if (out->len)
    g_string_append_c (out, ' ');
  g_string_append_len (out, key, key_len);
  g_string_append_c (out, '=');
  g_string_append_len (out, val, val_len);
}

static void
push_generic (Parser     *self,
              EventInfo  *info,
              const char *p,
              const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  KeyValue kv[MAX_KV];
  gboolean junk = FALSE;
  guint n = 0;
  guint n_schema = info->n_fields;
  GString *text = self->scratch;

  g_string_truncate (text, 0);
  if (n_schema)
    n = split_kv (p, end, kv, MAX_KV, &junk);
  if (junk || n_schema == 0)
    {
      /* Keep the whole payload: the fields below are only what could be read from it. */
      g_string_append_len (text, p, ftt_rtrim (p, end) - p);
    }

  for (guint i = 0; i < n_schema; i++)
    {
      const TextField *f = &info->fields[i];
      KeyValue *hit = kv_find (kv, n, i, f->name, f->name_len);
      gboolean ok = TRUE;

      if (hit)
        hit->used = TRUE;
      switch (f->kind)
        {
        case VALUE_STRING:
          if (hit)
            push_str (self, hit->val, hit->val_len);
          else
            seismo_trace_builder_push_string_id (b, 0);
          break;

        case VALUE_INT:
        case VALUE_FD:
          {
            gint64 v = 0;

            /* A failed parse leaves v alone. */
            if (hit && !parse_dec (hit->val, number_len (hit->val, hit->val_len), &v))
              ok = FALSE;
            seismo_trace_builder_push_int (b, v);
          }
          break;

        case VALUE_HEX:
        default:
          {
            guint64 v = 0;

            if (hit && !parse_hex (hit->val, number_len (hit->val, hit->val_len), &v))
              ok = FALSE;
            seismo_trace_builder_push_uint (b, v);
          }
          break;
        }
      if (!ok && !junk)
        append_pair (text, hit->key, hit->key_len, hit->val, hit->val_len);
    }

  if (!junk)
    for (guint i = 0; i < n; i++)
      if (!kv[i].used)
        append_pair (text, kv[i].key, kv[i].key_len, kv[i].val, kv[i].val_len);

  if (info->has_text)
    {
      if (text->len)
        push_str (self, text->str, text->len);
      else
        seismo_trace_builder_push_string_id (b, 0);
    }
}

/* ---- event types ---------------------------------------------------------------------------- */

static void
event_info_free (gpointer data)
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
  gsize nl = number_len (val, val_len);

  if (name_in (key, key_len, string_field_names, G_N_ELEMENTS (string_field_names)) ||
      has_suffix_len (key, key_len, "_comm") || has_suffix_len (key, key_len, "_name"))
    return VALUE_STRING;
  if (is_hex_prefixed (val, nl) && parse_hex (val, nl, &u))
    return VALUE_HEX;
  if ((name_in (key, key_len, hex_field_names, G_N_ELEMENTS (hex_field_names)) ||
       has_suffix_len (key, key_len, "flags")) && parse_hex (val, nl, &u))
    return VALUE_HEX;
  if (parse_dec (val, nl, &d))
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

      n = split_syscall_args (p, end, kv, MAX_KV, &decimal);
    }
  else
    {
      n = split_kv (p, end, kv, MAX_KV, &junk);
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
      if (kv_find (kv, i, 0, kv[i].key, kv[i].key_len) ||
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
static void
note_syscall_name (Parser         *self,
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

/* ---- tasks ---------------------------------------------------------------------------------- */

G_ALWAYS_INLINE static inline void
note_task (Parser         *self,
           const LineHead *head)
{
  TaskEntry *task;
  gsize len = MIN (head->comm_len, MAX_COMM - 1);

  if (self->last_task && self->last_tid == head->tid)
    task = self->last_task;
  else
    {
      task = g_hash_table_lookup (self->tasks, GINT_TO_POINTER (head->tid));
      if (task == NULL)
        {
          task = g_new0 (TaskEntry, 1);
          g_hash_table_insert (self->tasks, GINT_TO_POINTER (head->tid), task);
        }
      self->last_tid = head->tid;
      self->last_task = task;
    }

  /* "<...>": the kernel no longer knew the comm when it printed the line. */
  if (len > 0 && !(len == 5 && memcmp (head->comm, "<...>", 5) == 0) &&
      !(task->has_comm && task->comm_len == len && memcmp (task->comm, head->comm, len) == 0))
    {
      memcpy (task->comm, head->comm, len);
      task->comm[len] = '\0';
      task->comm_len = (guint8) len;
      task->has_comm = TRUE;
      seismo_trace_builder_set_task_comm (self->builder, head->tid, task->comm, head->ts);
    }
  if (head->tgid >= 0 && !task->has_pid)
    {
      task->has_pid = TRUE;
      seismo_trace_builder_set_task_pid (self->builder, head->tid, head->tgid);
    }
}

/* ---- lines that are not events -------------------------------------------------------------- */


static guint64
read_u64 (const char  *p,
          const char  *end,
          const char **after)
{
  guint64 v = 0;

  while (p < end && IS (*p, C_DIGIT))
    {
      v = v * 10 + (guint) (*p - '0');
      p++;
    }
  *after = p;
  return v;
}

/* Comments and headers: the tracefs "#" header, trace-cmd's "cpus=2" and "version = 6". */
static gboolean
parse_header_line (Parser     *self,
                   const char *p,
                   const char *end)
{
  const char *q;

  if (*p == '#')
    {
      self->saw_header = TRUE;
      if (ftt_starts_with (p, end, "# tracer: "))
        {
          q = p + 10;
          g_free (self->tracer);
          self->tracer = g_strndup (q, ftt_rtrim (q, end) - q);
        }
      else if (ftt_starts_with (p, end, "# entries-in-buffer/entries-written: ") ||
               ftt_starts_with (p, end, "# latency: "))
        {
          /* "entries-written: 12/20   #P:2" or "# latency: 0 us, #12/20, CPU#0 | (… #P:2)". */
          const char *pc;

          if (p[2] == 'e')
            q = p + 37;
          else
            {
              for (q = p + 11; q < end && *q != '#'; q++)
                ;
              if (q < end)
                q++;
            }
          if (q < end && IS (*q, C_DIGIT))
            {
              self->entries_in_buffer = read_u64 (q, end, &q);
              if (q < end && *q == '/')
                {
                  self->entries_written = read_u64 (q + 1, end, &q);
                  self->have_entries = TRUE;
                }
            }
          for (pc = q; pc + 3 < end; pc++)
            if (memcmp (pc, "#P:", 3) == 0)
              self->declared_cpus = (guint) read_u64 (pc + 3, end, &q);
        }
      return TRUE;
    }
  if (ftt_starts_with (p, end, "cpus="))
    {
      self->declared_cpus = (guint) read_u64 (p + 5, end, &q);
      self->saw_trace_cmd = TRUE;
      self->saw_header = TRUE;
      return q == end;
    }
  if (ftt_starts_with (p, end, "version = "))
    {
      self->saw_trace_cmd = TRUE;
      self->saw_header = TRUE;
      return TRUE;
    }
  if (ftt_starts_with (p, end, "CPU ") && has_suffix_len (p, end - p, " is empty"))
    return TRUE;
  return FALSE;
}

/*
 * Dropped events: "CPU:1 [LOST 42 EVENTS]" (tracefs), "CPU:1 [42 EVENTS DROPPED]" and
 * "CPU:1 [EVENTS DROPPED]" (trace-cmd, count unknown: recorded as 0).
 */
static gboolean
parse_lost_line (Parser     *self,
                 const char *p,
                 const char *end)
{
  const char *q;
  guint64 cpu, count = 0;

  p = ftt_skip_spaces (p, end);
  if (!ftt_starts_with (p, end, "CPU:"))
    {
      /* Possibly behind a buffer prefix. */
      const char *sp = p;

      while (sp < end && !IS (*sp, C_SPACE))
        sp++;
      if (sp == p || sp[-1] != ':')
        return FALSE;
      p = ftt_skip_spaces (sp, end);
      if (!ftt_starts_with (p, end, "CPU:"))
        return FALSE;
    }
  cpu = read_u64 (p + 4, end, &q);
  if (q == p + 4 || !ftt_starts_with (q, end, " ["))
    return FALSE;
  q += 2;
  if (ftt_starts_with (q, end, "LOST "))
    {
      count = read_u64 (q + 5, end, &q);
      if (!ftt_starts_with (q, end, " EVENTS]"))
        return FALSE;
    }
  else if (IS (*q, C_DIGIT))
    {
      count = read_u64 (q, end, &q);
      if (!ftt_starts_with (q, end, " EVENTS DROPPED]"))
        return FALSE;
    }
  else if (!ftt_starts_with (q, end, "EVENTS DROPPED]"))
    return FALSE;
  if (cpu > G_MAXINT32)
    return FALSE;
  seismo_trace_builder_add_lost_events (self->builder, (int) cpu, self->last_ts, count);
  return TRUE;
}

/* ---- the loop ------------------------------------------------------------------------------- */

static void
note_buffer (Parser         *self,
             const LineHead *head)
{
  const char *last = self->last_buffer;
  gsize len = head->buffer_len;

  if (last && strlen (last) == len && memcmp (last, head->buffer, len) == 0)
    return;
  for (guint i = 0; i < self->buffers->len; i++)
    {
      const char *n = g_ptr_array_index (self->buffers, i);

      if (strlen (n) == len && memcmp (n, head->buffer, len) == 0)
        {
          self->last_buffer = n;
          return;
        }
    }
  self->last_buffer = g_strndup (head->buffer, len);
  g_ptr_array_add (self->buffers, (gpointer) self->last_buffer);
}

/*
 * TRUE when no byte is NUL or above 0x7f. Eight bytes at a time: traces are almost always ASCII,
 * and GLib's UTF-8 validation costs more than the parsing itself.
 */
static gboolean
is_plain_ascii (const char *data,
                gsize       len)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 acc = 0;
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w;

      memcpy (&w, data + i, 8);
      /* High bits, or a zero byte (the classic "has zero byte" test). */
      acc |= (w & highs) | ((w - ones) & ~w & highs);
      if (G_UNLIKELY (acc))
        return FALSE;
    }
  for (; i < len; i++)
    if ((guint8) data[i] == 0 || (guint8) data[i] > 0x7f)
      return FALSE;
  return TRUE;
}

G_ALWAYS_INLINE static inline void
begin_event (Parser         *self,
             const LineHead *head,
             guint           type_id)
{
  if (head->buffer_len)
    note_buffer (self, head);
  note_task (self, head);
  if (self->pending)
    ftt_end_pending (self);
  seismo_trace_builder_begin_event (self->builder, head->ts, head->cpu, head->tid, type_id);

  if (self->n_events++ == 0 || head->ts < self->first_ts)
    self->first_ts = head->ts;
  self->last_ts = head->ts;
  self->max_cpu = MAX (self->max_cpu, head->cpu);
  if (head->ts_ns)
    self->n_ns_stamps++;
  if (head->latency)
    self->n_latency++;
}

G_ALWAYS_INLINE static inline void
end_event (Parser *self)
{
  /* With stacks in the file, the next line may be a block that belongs to this event. */
  if (self->stacks)
    self->pending = TRUE;
  else
    seismo_trace_builder_end_event (self->builder);
}

G_ALWAYS_INLINE static inline gboolean
emit_event (Parser   *self,
            LineHead *head)
{
  EventInfo *info = NULL;

  if (head->cpu >= G_MAXUINT16)
    return FALSE;
  if (head->form == FORM_NORMAL)
    for (guint i = 0; i < N_RECENT; i++)
      if (self->recent[i].len == head->name_len &&
          memcmp (self->recent[i].name, head->name, head->name_len) == 0)
        {
          info = self->recent[i].info;
          break;
        }
  if (info == NULL)
    {
      /* trace-cmd prints function_graph records as events with the tracer's columns. */
      if (head->form == FORM_NORMAL && head->name_len >= 14 &&
          memcmp (head->name, "funcgraph_", 10) == 0)
        return ftt_funcgraph_event (self, head);
      info = ftt_lookup_event (self, head);
      if (info == NULL)
        return FALSE;
      if (head->form == FORM_NORMAL)
        {
          RecentEvent *r = &self->recent[self->recent_next++ % N_RECENT];

          memcpy (r->name, head->name, head->name_len);
          r->len = head->name_len;
          r->info = info;
        }
    }

  begin_event (self, head, info->type_id);
  switch (info->parse)
    {
    case PARSE_SCHED_SWITCH:
      push_sched_switch (self, head->payload, head->payload_end);
      break;
    case PARSE_SCHED_WAKEUP:
      push_sched_wakeup (self, head->payload, head->payload_end);
      break;
    case PARSE_SCHED_FORK:
      push_sched_fork (self, head->payload, head->payload_end);
      break;
    case PARSE_RAW_SYS_ENTER:
      push_raw_sys_enter (self, head, head->payload, head->payload_end);
      break;
    case PARSE_RAW_SYS_EXIT:
      push_raw_sys_exit (self, head->payload, head->payload_end);
      break;
    case PARSE_SYSCALL_ENTER:
      push_syscall_enter (self, info, head->payload, head->payload_end);
      note_syscall_name (self, head);
      break;
    case PARSE_SYSCALL_EXIT:
      push_syscall_exit (self, head->payload, head->payload_end);
      break;
    case PARSE_IRQ_ENTRY:
      push_irq_entry (self, head->payload, head->payload_end);
      break;
    case PARSE_IRQ_EXIT:
      push_irq_exit (self, head->payload, head->payload_end);
      break;
    case PARSE_SOFTIRQ:
      push_softirq (self, head->payload, head->payload_end);
      break;
    case PARSE_FUNCTION:
      push_function (self, head->payload, head->payload_end);
      break;
    case PARSE_PRINT:
      push_print (self, head->name, head->name_len, head->payload, head->payload_end);
      break;
    case PARSE_GENERIC:
    default:
      push_generic (self, info, head->payload, head->payload_end);
      break;
    }
  end_event (self);
  return TRUE;
}

/*
 * Returns NULL when the line was read (an event, a header, a block's frame), else the kind it
 * is counted under as unreadable.
 */
static const char *
parse_line (Parser     *self,
            const char *line,
            const char *end,
            gboolean    check_utf8)
{
  LineHead head;
  const char *first = ftt_skip_indent (line, end);

  if (first == end)
    return NULL;
  if (check_utf8 && !is_plain_ascii (line, end - line) && !g_utf8_validate (line, end - line, NULL))
    {
      ftt_end_pending (self);
      return "lines that are not UTF-8 text";
    }
  if (G_UNLIKELY (*first == '=' && first + 1 < end && first[1] == '>'))
    {
      /* The first stack: read again from the start, with the stack fields in every type. */
      if (!self->stacks)
        {
          self->restart_for_stacks = TRUE;
          return NULL;
        }
      return ftt_stack_frame (self, first, end) ? NULL : "stack frames without a <stack trace> line";
    }
  if (parse_line_head (line, end, &head))
    {
      if (G_UNLIKELY (head.form == FORM_NORMAL &&
                      ((head.name_len == 12 && head.name[0] == 'k' &&
                        memcmp (head.name, "kernel_stack", 12) == 0) ||
                       (head.name_len == 10 && head.name[0] == 'u' &&
                        memcmp (head.name, "user_stack", 10) == 0))))
        head.form = FORM_STACK;
      if (G_UNLIKELY (head.form == FORM_STACK))
        {
          if (!self->stacks)
            {
              self->restart_for_stacks = TRUE;
              return NULL;
            }
          return ftt_stack_begin (self, &head) ? NULL : "stack traces without an event before them";
        }
      if (self->pending)
        ftt_end_pending (self);
      if (emit_event (self, &head))
        return NULL;
      return "event lines whose event name cannot be read";
    }
  if (self->pending)
    ftt_end_pending (self);
  if (parse_header_line (self, first, end) || parse_lost_line (self, line, end))
    return NULL;
  if (ftt_funcgraph_line (self, line, end))
    {
      self->n_read_lines++;
      return NULL;
    }
  return ftt_classify_unreadable (self, first, end);
}

static void
parser_init (Parser     *self,
             const char *path)
{
  ftt_init_cclass ();
  memset (self, 0, sizeof *self);
  self->path = path;
  self->builder = seismo_trace_builder_new ();
  self->events = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, event_info_free);
  self->tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->scratch = g_string_new (NULL);
  self->buffers = g_ptr_array_new_with_free_func (g_free);
  self->last_tid = -1;
  self->strings = g_new0 (CachedString, N_STR_CACHE);
  self->kstack = g_string_new (NULL);
  self->ustack = g_string_new (NULL);
  self->arch_votes = seismo_arch_votes_new ();
}

static void
parser_clear (Parser *self)
{
  g_clear_pointer (&self->builder, seismo_trace_builder_free);
  g_clear_pointer (&self->arch_votes, seismo_arch_votes_free);
  g_clear_pointer (&self->events, g_hash_table_unref);
  g_clear_pointer (&self->tasks, g_hash_table_unref);
  if (self->scratch)
    g_string_free (self->scratch, TRUE);
  self->scratch = NULL;
  g_clear_pointer (&self->buffers, g_ptr_array_unref);
  g_clear_pointer (&self->tracer, g_free);
  g_clear_pointer (&self->strings, g_free);
  g_clear_pointer (&self->funcgraph, ftt_funcgraph_free);
  if (self->kstack)
    g_string_free (self->kstack, TRUE);
  if (self->ustack)
    g_string_free (self->ustack, TRUE);
  self->kstack = self->ustack = NULL;
  ftt_skipped_free (self);
}

static gboolean
parse_text (Parser             *self,
            const char         *data,
            gsize               len,
            GCancellable       *cancellable,
            SeismoProgressFunc  progress,
            gpointer            progress_data,
            GError            **error)
{
  const char *p = data;
  const char *end = data + len;
  gboolean check_utf8 = !is_plain_ascii (data, len) && !g_utf8_validate_len (data, len, NULL);

  self->data = data;
  self->data_end = end;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *le = nl ? nl : end;

      if (le > p && le[-1] == '\r')
        le--;
      self->line_no++;
      {
        const char *kind = parse_line (self, p, le, check_utf8);

        if (G_UNLIKELY (kind != NULL))
          ftt_note_unreadable (self, p, le, kind);
        if (G_UNLIKELY (self->restart_for_stacks))
          return TRUE;
      }
      p = nl ? nl + 1 : end;

      if ((self->line_no % PROGRESS_LINES) == 0)
        {
          if (g_cancellable_is_cancelled (cancellable))
            {
              g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CANCELLED,
                           _("Loading “%s” was cancelled"), self->path);
              return FALSE;
            }
          if (progress)
            progress ((double) (p - data) / (double) len, progress_data);
        }
    }
  ftt_end_pending (self);
  ftt_funcgraph_finish (self);
  return TRUE;
}

static void
set_metadata (Parser *self)
{
  SeismoTraceBuilder *b = self->builder;
  char num[32];
  const char *layout;

  seismo_trace_builder_set_metadata (b, SEISMO_META_SOURCE, "ftrace-text");
  seismo_trace_builder_set_metadata (b, SEISMO_META_ORIGINAL, self->path);
  if (self->tracer)
    seismo_trace_builder_set_metadata (b, "tracer", self->tracer);

  if (self->saw_trace_cmd)
    layout = self->n_latency ? "trace-cmd report -l" : "trace-cmd report";
  else
    layout = self->n_latency ? "tracefs latency-format" : "tracefs";
  seismo_trace_builder_set_metadata (b, "text_format", layout);
  seismo_trace_builder_set_metadata (b, "timestamp_precision",
                                     self->n_ns_stamps * 2 > self->n_events ? "ns" : "us");

  if (self->buffers->len)
    {
      g_autofree char *list = NULL;

      g_ptr_array_add (self->buffers, NULL);
      list = g_strjoinv (",", (char **) self->buffers->pdata);
      g_ptr_array_remove_index (self->buffers, self->buffers->len - 1);
      seismo_trace_builder_set_metadata (b, "buffers", list);
    }

  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, self->n_skipped);
  seismo_trace_builder_set_metadata (b, "skipped_lines", num);

  /* prev_state shows the letters the file had: 4.13's x is not 4.14's P, the plugin's Z is X. */
  {
    EventInfo *sw = g_hash_table_lookup (self->events, "sched_switch");

    if (sw && self->state_tables == STATES_LEGACY)
      seismo_trace_builder_set_field_symbols (b, sw->type_id, "prev_state", legacy_state_symbols,
                                              G_N_ELEMENTS (legacy_state_symbols));
    else if (sw && self->state_tables == STATES_PLUGIN)
      seismo_trace_builder_set_field_symbols (b, sw->type_id, "prev_state", plugin_state_symbols,
                                              G_N_ELEMENTS (plugin_state_symbols));
  }

  /* Text says no machine: what it holds may (else the arch stays unknown, never a guess). */
  {
    const char *how;
    SeismoArch arch = seismo_arch_votes_decide (self->arch_votes, &how);

    if (arch != SEISMO_ARCH_UNKNOWN)
      {
        seismo_trace_builder_set_metadata (b, SEISMO_META_ARCH, seismo_arch_to_string (arch));
        seismo_trace_builder_set_metadata (b, "arch_from", how);
      }
  }

  /*
   * The ring buffer overwrote what it could not hold, before the first event left in it: say so
   * as lost events of an unknown CPU.
   */
  if (self->have_entries && self->entries_written > self->entries_in_buffer)
    seismo_trace_builder_add_lost_events (b, -1, self->first_ts,
                                          self->entries_written - self->entries_in_buffer);

  seismo_trace_builder_set_n_cpus (b, MAX (self->declared_cpus,
                                           self->n_events ? self->max_cpu + 1 : 0));
}

/* ---- the importer --------------------------------------------------------------------------- */

static int
ftrace_text_sniff (const guint8 *head,
                   gsize         len,
                   const char   *path)
{
  const char *p = (const char *) head;
  const char *end = p + len;
  guint n_events = 0, n_other = 0, n_lines = 0;
  gboolean trace_cmd = FALSE;

  ftt_init_cclass ();
  if (len == 0 || memchr (head, '\0', len) != NULL)
    return 0;
  if (ftt_starts_with (p, end, "# tracer: "))
    return 100;

  while (p < end && n_lines < 64)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *le;
      const char *first;
      LineHead lh;

      /* Only whole lines: the head may cut the last one, except for a file smaller than it. */
      if (nl == NULL && n_lines > 0)
        break;
      le = nl ? nl : end;
      if (le > p && le[-1] == '\r')
        le--;
      first = ftt_skip_spaces (p, le);
      n_lines++;
      if (first == le)
        ;
      else if (parse_line_head (p, le, &lh))
        n_events++;
      else if (*first == '#')
        ;
      else if (le - first >= 2 && first[0] == '=' && first[1] == '>')
        ;   /* a stack frame */
      else if (ftt_starts_with (first, le, "cpus=") || ftt_starts_with (first, le, "version = "))
        trace_cmd = TRUE;
      else if (!(ftt_starts_with (first, le, "CPU") && memchr (first, '[', le - first)))
        n_other++;
      p = nl ? nl + 1 : end;
    }

  if (n_events == 0)
    return 0;
  if (trace_cmd && n_events >= n_other)
    return 95;
  if (n_events * 4 >= (n_events + n_other) * 3)
    return 80;
  if (n_events >= n_other)
    return 40;
  return 0;
}

static SeismoTrace *
ftrace_text_load (const char         *path,
                  GCancellable       *cancellable,
                  SeismoProgressFunc  progress,
                  gpointer            progress_data,
                  GError            **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  const char *data;
  gsize len;
  Parser parser;
  SeismoTrace *trace;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not open “%s”: %s"), path,
                   local_error->message);
      return NULL;
    }
  data = g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  if (len == 0)
    {
      /* tracefs files report a size of 0 and cannot be mapped: read them to the end. */
      g_clear_pointer (&mapped, g_mapped_file_unref);
      if (!g_file_get_contents (path, &contents, &len, &local_error))
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, _("Could not read “%s”: %s"), path,
                       local_error->message);
          return NULL;
        }
      data = contents;
    }
  else
    posix_madvise ((void *) data, len, POSIX_MADV_SEQUENTIAL);

  /*
   * Stack trace blocks add fields to every event type, which must be known before the first
   * event of a type is stored. Files without stacks (most) pay nothing for them: the first block
   * found makes the parse start over with the fields in place.
   */
  for (gboolean stacks = FALSE;; stacks = TRUE)
    {
      parser_init (&parser, path);
      parser.stacks = stacks;
      if (!parse_text (&parser, data, len, cancellable, progress, progress_data, error))
        {
          parser_clear (&parser);
          return NULL;
        }
      if (!parser.restart_for_stacks || stacks)
        break;
      parser_clear (&parser);
    }
  seismo_arch_votes_scan_text (parser.arch_votes, data, len);

  if (parser.n_events == 0 && parser.n_skipped == 0 && !parser.saw_header)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT,
                   "“%s” holds no ftrace event line", path);
      parser_clear (&parser);
      return NULL;
    }
  {
    /* Mostly unreadable: this is not a trace to show as if it were complete. */
    g_autofree char *refusal = ftt_skipped_refusal (&parser);

    if (refusal)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNKNOWN_FORMAT, "%s", refusal);
        parser_clear (&parser);
        return NULL;
      }
  }

  ftt_skipped_finish (&parser);
  set_metadata (&parser);
  if (progress)
    progress (1.0, progress_data);

  trace = seismo_trace_builder_finish (g_steal_pointer (&parser.builder));
  parser_clear (&parser);
  return trace;
}

const SeismoImporter seismo_ftrace_text_importer = {
  .name = "ftrace-text",
  .description = N_("ftrace text (tracefs trace, trace_pipe, trace-cmd report)"),
  .sniff = ftrace_text_sniff,
  .load = ftrace_text_load,
};

/* ---- for the importer's other files (the hot paths above call the static versions) ---- */

gboolean
ftt_parse_dec (const char *s,
               gsize      len,
               gint64     *out)
{
  return parse_dec (s, len, out);
}

gboolean
ftt_parse_timestamp (const char *s,
                     const char *end,
                     gboolean   micro,
                     guint64    *out,
                     gboolean   *ns_digits)
{
  return parse_timestamp (s, end, micro, out, ns_digits);
}

gboolean
ftt_parse_line_head (const char *line,
                     const char *end,
                     LineHead   *head)
{
  return parse_line_head (line, end, head);
}

void
ftt_push_str (Parser     *self,
              const char *s,
              gsize      len)
{
  push_str (self, s, len);
}

void
ftt_note_task (Parser         *self,
               const LineHead *head)
{
  note_task (self, head);
}

void
ftt_begin_event (Parser         *self,
                 const LineHead *head,
                 guint          type_id)
{
  begin_event (self, head, type_id);
}

gboolean
ftt_emit_event (Parser   *self,
                LineHead *head)
{
  return emit_event (self, head);
}

void
ftt_end_event (Parser *self)
{
  end_event (self);
}

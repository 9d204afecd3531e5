/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-arch-detect.h"

/*
 * Kernel symbols that only one architecture's entry code has, as function tracers, stack traces
 * and sym-offset addresses print them.
 */
static const struct {
  const char *symbol;
  SeismoArch  arch;
} arch_symbols[] = {
  { "__irq_svc", SEISMO_ARCH_ARM },
  { "__irq_usr", SEISMO_ARCH_ARM },
  { "vector_swi", SEISMO_ARCH_ARM },
  { "ret_fast_syscall", SEISMO_ARCH_ARM },
  { "__dabt_svc", SEISMO_ARCH_ARM },
  { "__dabt_usr", SEISMO_ARCH_ARM },
  { "__pabt_usr", SEISMO_ARCH_ARM },
  { "__und_usr", SEISMO_ARCH_ARM },
  { "ret_to_user_from_irq", SEISMO_ARCH_ARM },
  { "do_DataAbort", SEISMO_ARCH_ARM },
  { "do_PrefetchAbort", SEISMO_ARCH_ARM },
  { "el0_svc", SEISMO_ARCH_ARM64 },
  { "el0_svc_common", SEISMO_ARCH_ARM64 },
  { "do_el0_svc", SEISMO_ARCH_ARM64 },
  { "el0_irq", SEISMO_ARCH_ARM64 },
  { "el1_irq", SEISMO_ARCH_ARM64 },
  { "el0t_64_sync", SEISMO_ARCH_ARM64 },
  { "el0t_64_sync_handler", SEISMO_ARCH_ARM64 },
  { "el0t_64_irq", SEISMO_ARCH_ARM64 },
  { "el1h_64_irq", SEISMO_ARCH_ARM64 },
  { "el1h_64_irq_handler", SEISMO_ARCH_ARM64 },
  { "el0_da", SEISMO_ARCH_ARM64 },
  { "entry_SYSCALL_64", SEISMO_ARCH_X86_64 },
  { "entry_SYSCALL_64_after_hwframe", SEISMO_ARCH_X86_64 },
  { "do_syscall_64", SEISMO_ARCH_X86_64 },
  { "x64_sys_call", SEISMO_ARCH_X86_64 },
  { "asm_sysvec_apic_timer_interrupt", SEISMO_ARCH_X86_64 },
  { "asm_common_interrupt", SEISMO_ARCH_X86_64 },
  { "asm_exc_page_fault", SEISMO_ARCH_X86_64 },
  { "entry_INT80_32", SEISMO_ARCH_I386 },
  { "entry_SYSENTER_32", SEISMO_ARCH_I386 },
  { "do_trap_ecall_u", SEISMO_ARCH_RISCV64 },
  { "riscv_intc_irq", SEISMO_ARCH_RISCV64 },
  { "handle_riscv_irq", SEISMO_ARCH_RISCV64 },
  { "system_call_exception", SEISMO_ARCH_POWERPC64 },
  { "system_call_common", SEISMO_ARCH_POWERPC64 },
  { "system_call_vectored_common", SEISMO_ARCH_POWERPC64 },
  { "__do_syscall", SEISMO_ARCH_S390X },
  { "do_io_irq", SEISMO_ARCH_S390X },
  { "do_ext_irq", SEISMO_ARCH_S390X },
  { "handle_syscall", SEISMO_ARCH_LOONGARCH64 },
  { "handle_vint", SEISMO_ARCH_LOONGARCH64 },
};

/*
 * Syscalls every workload makes a lot of: under the right table most raw numbers of a trace are
 * these; under a wrong one they are io_setup, init_module, swapoff... Calls a task makes once
 * (exit, execve, clone) are left out: a wrong table that turns the hottest number into "exit" must
 * not look plausible.
 */
static const char *const common_syscalls =
  " read write close open openat fstat newfstatat stat lstat fstat64 stat64 lstat64 fstatat64"
  " statx mmap mmap2 munmap mprotect brk futex futex_time64 poll ppoll ppoll_time64 epoll_wait"
  " epoll_pwait select _newselect pselect6 pselect6_time64 ioctl rt_sigprocmask rt_sigaction"
  " rt_sigreturn sigreturn clock_gettime clock_gettime64 clock_nanosleep clock_nanosleep_time64"
  " nanosleep getpid gettid getppid recvmsg sendmsg recvfrom sendto recv send writev readv lseek"
  " _llseek pread64 pwrite64 access faccessat getdents64 fcntl fcntl64 dup dup2 dup3 pipe pipe2"
  " wait4 madvise gettimeofday sched_yield getuid geteuid getgid getegid getuid32 geteuid32"
  " getrandom prlimit64 socket connect accept accept4 bind listen getsockopt setsockopt"
  " eventfd2 timerfd_settime epoll_ctl sysinfo readlink readlinkat getcwd unlink unlinkat"
  " rename renameat mkdir mkdirat socketcall ipc ";

/* Tracepoint names (syscalls:sys_enter_NAME) that differ from the tables' names. */
static const struct {
  const char *tracepoint;
  const char *table;
} tracepoint_names[] = {
  { "newstat", "stat" }, { "newlstat", "lstat" }, { "newfstat", "fstat" },
  { "newuname", "uname" }, { "sendfile64", "sendfile" }, { "umount", "umount2" },
  { "llseek", "_llseek" }, { "mmap_pgoff", "mmap2" }, { "old_mmap", "mmap" },
};

#define N_DIRECT 8192
#define MAX_PAIRS 256
#define SCAN_LIMIT (4u << 20)

typedef struct {
  gint64 nr;
  char  *name;
} Pair;

typedef struct {
  guint64 ts;
  gint64  nr;
  gboolean valid;
} Pending;

struct _SeismoArchVotes
{
  guint32    *counts;      /* N_DIRECT, by number */
  GHashTable *big_counts;  /* numbers beyond: x32's */
  guint64     n_raw;
  guint64     n_with_args;
  guint64     args_max;
  GArray     *pending;     /* Pending, by CPU */
  GArray     *pairs;       /* Pair, distinct */
  guint       symbols[SEISMO_ARCH_N];
  GHashTable *symbol_arch; /* symbol → arch + 1 */
};

SeismoArchVotes *
seismo_arch_votes_new (void)
{
  SeismoArchVotes *self = g_new0 (SeismoArchVotes, 1);

  self->counts = g_new0 (guint32, N_DIRECT);
  self->big_counts = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  self->pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  return self;
}

void
seismo_arch_votes_free (SeismoArchVotes *self)
{
  GHashTableIter iter;
  gpointer key;

  if (self == NULL)
    return;
  g_hash_table_iter_init (&iter, self->big_counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_free (key);
  g_hash_table_unref (self->big_counts);
  for (guint i = 0; i < self->pairs->len; i++)
    g_free (g_array_index (self->pairs, Pair, i).name);
  g_array_unref (self->pairs);
  g_array_unref (self->pending);
  g_clear_pointer (&self->symbol_arch, g_hash_table_unref);
  g_free (self->counts);
  g_free (self);
}

void
seismo_arch_votes_raw (SeismoArchVotes *self,
                       guint            cpu,
                       guint64          ts,
                       gint64           nr,
                       const guint64   *args,
                       guint            n_args)
{
  Pending *p;

  if (nr < 0)
    return;
  self->n_raw++;
  if (nr < N_DIRECT)
    self->counts[nr]++;
  else
    {
      gpointer count = g_hash_table_lookup (self->big_counts, &nr);

      if (count == NULL)
        {
          gint64 *key = g_new (gint64, 1);

          *key = nr;
          g_hash_table_insert (self->big_counts, key, GUINT_TO_POINTER (1));
        }
      else
        /* insert, not replace: the table keeps its own key, not this stack one. */
        g_hash_table_insert (self->big_counts, &nr, GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
    }
  if (n_args > 0)
    {
      self->n_with_args++;
      for (guint i = 0; i < n_args; i++)
        self->args_max = MAX (self->args_max, args[i]);
    }
  if (cpu < 4096)
    {
      if (cpu >= self->pending->len)
        g_array_set_size (self->pending, cpu + 1);
      p = &g_array_index (self->pending, Pending, cpu);
      p->ts = ts;
      p->nr = nr;
      p->valid = TRUE;
    }
}

gboolean
seismo_arch_votes_pending (SeismoArchVotes *self,
                           guint            cpu,
                           guint64          ts)
{
  const Pending *p;

  if (cpu >= self->pending->len || self->pairs->len >= MAX_PAIRS)
    return FALSE;
  p = &g_array_index (self->pending, Pending, cpu);
  return p->valid && p->ts == ts;
}

void
seismo_arch_votes_named (SeismoArchVotes *self,
                         guint            cpu,
                         guint64          ts,
                         const char      *name)
{
  Pending *p;
  Pair pair;

  if (!seismo_arch_votes_pending (self, cpu, ts))
    return;
  p = &g_array_index (self->pending, Pending, cpu);
  p->valid = FALSE;
  for (guint i = 0; i < self->pairs->len; i++)
    {
      const Pair *q = &g_array_index (self->pairs, Pair, i);

      if (q->nr == p->nr && strcmp (q->name, name) == 0)
        return;
    }
  pair.nr = p->nr;
  pair.name = g_strdup (name);
  g_array_append_val (self->pairs, pair);
}

void
seismo_arch_votes_scan_text (SeismoArchVotes *self,
                             const char      *text,
                             gsize            len)
{
  const char *end = text + MIN (len, SCAN_LIMIT);
  char token[40];

  if (self->symbol_arch == NULL)
    {
      self->symbol_arch = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < G_N_ELEMENTS (arch_symbols); i++)
        g_hash_table_insert (self->symbol_arch, (gpointer) arch_symbols[i].symbol,
                             GUINT_TO_POINTER (arch_symbols[i].arch + 1));
    }
  /* One pass over identifier tokens; only lengths a marker has are looked up. */
  for (const char *p = text; p < end;)
    {
      const char *s;

      if (!(g_ascii_isalnum (*p) || *p == '_'))
        {
          p++;
          continue;
        }
      s = p;
      while (p < end && (g_ascii_isalnum (*p) || *p == '_'))
        p++;
      if (p - s >= 7 && p - s < (gssize) sizeof token && (*s == '_' || g_ascii_isalpha (*s)))
        {
          gpointer arch;

          memcpy (token, s, p - s);
          token[p - s] = '\0';
          if ((arch = g_hash_table_lookup (self->symbol_arch, token)) != NULL)
            self->symbols[GPOINTER_TO_UINT (arch) - 1]++;
        }
    }
}

static const char *
canonical_of (const char *name)
{
  const SeismoSyscallInfo *info = seismo_syscall_info (name);

  return info && info->canonical ? info->canonical : name;
}

static gboolean
pair_fits (SeismoArch  arch,
           const Pair *pair)
{
  const char *have = seismo_syscall_name (arch, pair->nr);
  const char *want = pair->name;

  if (have == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (tracepoint_names); i++)
    if (strcmp (want, tracepoint_names[i].tracepoint) == 0)
      want = tracepoint_names[i].table;
  return strcmp (have, want) == 0 || strcmp (canonical_of (have), canonical_of (want)) == 0;
}

/* Of the raw enters, how many the table names (*named) and how many of those are common calls. */
static void
score_numbers (SeismoArchVotes *self,
               SeismoArch       arch,
               guint64         *named,
               guint64         *common)
{
  GHashTableIter iter;
  gpointer key, value;
  char word[64];

  *named = *common = 0;
  for (gint64 nr = 0; nr < N_DIRECT; nr++)
    {
      const char *name;

      if (self->counts[nr] == 0 || (name = seismo_syscall_name (arch, nr)) == NULL)
        continue;
      *named += self->counts[nr];
      g_snprintf (word, sizeof word, " %s ", name);
      if (strstr (common_syscalls, word))
        *common += self->counts[nr];
    }
  g_hash_table_iter_init (&iter, self->big_counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (seismo_syscall_name (arch, *(gint64 *) key))
      *named += GPOINTER_TO_UINT (value);
}

SeismoArch
seismo_arch_votes_decide (SeismoArchVotes  *self,
                          const char      **how)
{
  gboolean candidate[SEISMO_ARCH_N];
  guint n_candidates = SEISMO_ARCH_N;
  guint best_symbols = 0;
  const char *reason = NULL;
  SeismoArch found = SEISMO_ARCH_UNKNOWN;

  *how = NULL;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    candidate[a] = TRUE;

  /* A raw number and the named event of the same call: the table must agree on every pair. */
  if (self->pairs->len > 0)
    {
      n_candidates = 0;
      for (guint a = 0; a < SEISMO_ARCH_N; a++)
        {
          for (guint i = 0; candidate[a] && i < self->pairs->len; i++)
            candidate[a] = pair_fits (a, &g_array_index (self->pairs, Pair, i));
          n_candidates += candidate[a];
        }
      if (n_candidates == 0)
        return SEISMO_ARCH_UNKNOWN;
      reason = "raw and named syscall events";
    }

  /* Symbols: the architectures whose entry code shows, if any is still a candidate. */
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    if (candidate[a])
      best_symbols = MAX (best_symbols, self->symbols[a]);
  if (best_symbols > 0)
    {
      n_candidates = 0;
      for (guint a = 0; a < SEISMO_ARCH_N; a++)
        {
          candidate[a] = candidate[a] && self->symbols[a] == best_symbols;
          n_candidates += candidate[a];
        }
      reason = reason ? reason : "kernel symbols";
    }

  /* Raw numbers: nearly all must have a name, and arguments wider than 32 bits need a 64-bit
   * ABI (and many enters that never show one do not come from it). */
  if (self->n_raw > 0 && n_candidates > 1)
    {
      guint64 common[SEISMO_ARCH_N] = { 0 };
      guint64 best = 0, second = 0;
      SeismoArch best_arch = SEISMO_ARCH_UNKNOWN;

      n_candidates = 0;
      for (guint a = 0; a < SEISMO_ARCH_N; a++)
        {
          guint64 named;

          if (!candidate[a])
            continue;
          score_numbers (self, a, &named, &common[a]);
          if (named * 100 < self->n_raw * 95)
            candidate[a] = FALSE;
          else if (self->args_max > G_MAXUINT32 && seismo_arch_long_size (a) < 8)
            candidate[a] = FALSE;
          else if (self->args_max <= G_MAXUINT32 && self->n_with_args >= 32
                   && seismo_arch_long_size (a) == 8)
            candidate[a] = FALSE;
          n_candidates += candidate[a];
        }
      /* Among tables that all fit, the one under which most calls are everyday ones, by far. */
      for (guint a = 0; a < SEISMO_ARCH_N; a++)
        if (candidate[a] && common[a] > best)
          {
            second = best;
            best = common[a];
            best_arch = a;
          }
        else if (candidate[a] && common[a] > second)
          second = common[a];
      if (n_candidates > 1 && best * 2 >= self->n_raw && second * 2 <= best)
        {
          for (guint a = 0; a < SEISMO_ARCH_N; a++)
            candidate[a] = a == best_arch;
          n_candidates = 1;
        }
      reason = reason ? reason : "syscall numbers";
    }

  if (n_candidates != 1 || reason == NULL)
    return SEISMO_ARCH_UNKNOWN;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    if (candidate[a])
      found = a;
  *how = reason;
  return found;
}

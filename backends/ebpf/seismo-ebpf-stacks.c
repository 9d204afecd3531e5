/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <string.h>
#include <sys/uio.h>

#include <bpf/bpf.h>

#include "seismo-ebpf-stacks.h"

/* A kernel text symbol's start, and whether it belongs to the tracing machinery that runs our
 * program (the innermost frames of every kernel stack we take, of no interest to anyone). */
typedef struct {
  guint64  address;
  gboolean machinery;
} KernelSymbol;

/* A word of the user stack that points into a process's code. */
typedef struct {
  gint32  pid;
  guint64 word;
} CodeWord;

static guint
code_word_hash (gconstpointer key)
{
  const CodeWord *w = key;

  return g_int64_hash (&w->word) ^ (guint) w->pid;
}

static gboolean
code_word_equal (gconstpointer a,
                 gconstpointer b)
{
  const CodeWord *x = a, *y = b;

  return x->pid == y->pid && x->word == y->word;
}

/* Ids with no frames (lookup failed): an empty entry, so each id is looked up once. */
typedef struct {
  guint   n;
  guint64 ips[];
} Frames;

struct _SeismoEbpfStacks {
  SeismoTraceBuilder *builder;    /* borrowed */
  int                 map_fd;     /* borrowed: the stack_traces map */
  SeismoStackMode     mode;
  SeismoProcMaps     *maps;
  GHashTable         *frames;     /* stack id + 1 → Frames */
  GArray             *ksyms;      /* KernelSymbol, by address; empty without kernel stacks */
  GHashTable         *calls;      /* CodeWord → verdict + 1: is this word of code a return address */

  /* What prepare() gathered for apply(). */
  gint32              pid;
  guint               n_user, n_kernel;
  guint64             user[SEISMO_EBPF_STACK_DEPTH + SEISMO_EBPF_STACK_WORDS];
  guint64             kernel[SEISMO_EBPF_STACK_DEPTH];
};

SeismoEbpfStacks *
seismo_ebpf_stacks_new (SeismoTraceBuilder *builder,
                        int                 stack_map_fd,
                        SeismoStackMode     mode)
{
  SeismoEbpfStacks *self = g_new0 (SeismoEbpfStacks, 1);

  self->builder = builder;
  self->map_fd = stack_map_fd;
  self->mode = mode;
  self->maps = seismo_proc_maps_new (builder);
  self->frames = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->ksyms = g_array_new (FALSE, FALSE, sizeof (KernelSymbol));
  self->calls = g_hash_table_new_full (code_word_hash, code_word_equal, g_free, NULL);
  return self;
}

static gint
compare_ksyms (gconstpointer a,
               gconstpointer b)
{
  const KernelSymbol *x = a, *y = b;

  return x->address < y->address ? -1 : x->address > y->address;
}

void
seismo_ebpf_stacks_set_kallsyms (SeismoEbpfStacks *self,
                                 const char       *text)
{
  static const char *const machinery[] = {
    "bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_", "perf_trace_", "trace_call_bpf",
    "bpf_get_stack", "__bpf_get_stack", "bpf_overflow_handler", "perf_syscall_enter",
  };
  const char *line = text;

  g_array_set_size (self->ksyms, 0);
  while (line != NULL && *line != '\0')
    {
      /* "ADDRESS TYPE NAME [MODULE]"; parsed by hand: sscanf measures the whole rest of the text
       * each time (quadratic on 200k lines). */
      const char *end = strchr (line, '\n');
      char *after = NULL;
      KernelSymbol s = { 0 };

      s.address = g_ascii_strtoull (line, &after, 16);
      if (after != NULL && after[0] == ' ' && (after[1] == 't' || after[1] == 'T') && after[2] == ' ')
        {
          const char *name = after + 3;

          for (guint i = 0; i < G_N_ELEMENTS (machinery) && !s.machinery; i++)
            s.machinery = strncmp (name, machinery[i], strlen (machinery[i])) == 0;
          g_array_append_val (self->ksyms, s);
        }
      line = end != NULL ? end + 1 : NULL;
    }
  g_array_sort (self->ksyms, compare_ksyms);
}

/* TRUE when address is inside a machinery symbol (the last symbol starting at or before it). */
static gboolean
is_machinery (SeismoEbpfStacks *self,
              guint64           address)
{
  guint lo = 0, hi = self->ksyms->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->ksyms, KernelSymbol, mid).address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && g_array_index (self->ksyms, KernelSymbol, lo - 1).machinery;
}

void
seismo_ebpf_stacks_free (SeismoEbpfStacks *self)
{
  if (self == NULL)
    return;
  seismo_proc_maps_free (self->maps);
  g_hash_table_unref (self->frames);
  g_array_unref (self->ksyms);
  g_hash_table_unref (self->calls);
  g_free (self);
}

/* The frames of a stack id, innermost first. Ids are stable: the map never reuses one. */
static const Frames *
frames_of (SeismoEbpfStacks *self,
           gint32            id)
{
  gpointer key = GUINT_TO_POINTER ((guint) id + 1);
  Frames *f = g_hash_table_lookup (self->frames, key);
  guint64 ips[SEISMO_EBPF_STACK_DEPTH] = { 0 };
  guint n = 0;

  if (f != NULL)
    return f;
  if (bpf_map_lookup_elem (self->map_fd, &id, ips) == 0)
    while (n < SEISMO_EBPF_STACK_DEPTH && ips[n] != 0)
      n++;
  f = g_malloc (sizeof *f + n * sizeof (guint64));
  f->n = n;
  memcpy (f->ips, ips, n * sizeof (guint64));
  g_hash_table_insert (self->frames, key, f);
  return f;
}

/* TRUE when the bytes before address in pid end with a call instruction (e8 rel32, or ff /2
 * with a 2-, 3-, 6- or 7-byte encoding): a return address, not a pointer into code. */
static gboolean
follows_call (gint32  pid,
              guint64 address)
{
  guint8 code[8];
  struct iovec local = { code, sizeof code };
  struct iovec remote = { (void *) (guintptr) (address - sizeof code), sizeof code };

  if (process_vm_readv (pid, &local, 1, &remote, 1, 0) != (ssize_t) sizeof code)
    return TRUE;   /* gone already: the mapping check has to do */
  if (code[3] == 0xe8)
    return TRUE;
  for (guint len = 2; len <= 7; len++)
    {
      guint8 modrm = code[sizeof code - len + 1];

      if (code[sizeof code - len] == 0xff && ((modrm >> 3) & 7) == 2)
        return TRUE;
    }
  return FALSE;
}

/* A word in pid's code just behind a call. Cached once in code: a loop's every syscall has the
 * same words, and reading the process's memory for each would cost a syscall per word. */
static gboolean
is_return_address (SeismoEbpfStacks *self,
                   gint32            pid,
                   guint64           word,
                   guint64           time_ns)
{
  CodeWord key = { pid, word };
  gpointer verdict = g_hash_table_lookup (self->calls, &key);
  gboolean yes;

  if (verdict != NULL)
    return GPOINTER_TO_INT (verdict) - 1;
  if (!seismo_proc_maps_is_code (self->maps, pid, word, time_ns))
    return FALSE;   /* not cached: its mapping may not be known yet */
  yes = follows_call (pid, word);
  g_hash_table_insert (self->calls, g_memdup2 (&key, sizeof key), GINT_TO_POINTER (yes + 1));
  return yes;
}

void
seismo_ebpf_stacks_prepare (SeismoEbpfStacks                    *self,
                            gint32                               pid,
                            const struct seismo_ebpf_stack_tail *tail,
                            guint64                              time_ns)
{
  self->pid = pid;
  self->n_user = 0;
  self->n_kernel = 0;
  seismo_proc_maps_flush (self->maps);

  if (tail->kernel_stack_id >= 0)
    {
      const Frames *f = frames_of (self, tail->kernel_stack_id);
      guint skip = 0;

      /* From the innermost frame out to the last one of the machinery that ran us. */
      for (guint i = 0; i < f->n; i++)
        if (is_machinery (self, f->ips[i]))
          skip = i + 1;
      memcpy (self->kernel, f->ips + skip, (f->n - skip) * sizeof (guint64));
      self->n_kernel = f->n - skip;
    }
  if (tail->user_stack_id >= 0)
    {
      const Frames *f = frames_of (self, tail->user_stack_id);
      guint n_words = MIN (tail->n_words, SEISMO_EBPF_STACK_WORDS);

      if (f->n == 0)
        return;
      /* The innermost frame (the instruction pointer) first, then the return addresses the frame
       * pointer walk skipped: words on the stack below bp (the frame it started from) that point
       * just behind a call in the process's code, then the rest of the walk. */
      self->user[self->n_user++] = f->ips[0];
      seismo_proc_maps_is_code (self->maps, pid, f->ips[0], time_ns);
      for (guint i = 0; i < n_words; i++)
        {
          guint64 word = tail->words[i];
          guint64 at = tail->sp + i * sizeof (guint64);

          if (tail->bp > tail->sp && at >= tail->bp)
            break;
          if (f->n > 1 && word == f->ips[1])
            break;
          if (is_return_address (self, pid, word, time_ns))
            self->user[self->n_user++] = word;
        }
      memcpy (self->user + self->n_user, f->ips + 1, (f->n - 1) * sizeof (guint64));
      self->n_user += f->n - 1;
      /* Return addresses point behind the call: one byte back is inside it, on its line. */
      for (guint i = 1; i < self->n_user; i++)
        self->user[i] -= 1;
      /* A scan prepare() made itself (the first stack of a process). */
      seismo_proc_maps_flush (self->maps);
    }
}

void
seismo_ebpf_stacks_apply (SeismoEbpfStacks *self)
{
  if (self->n_kernel > 0)
    seismo_trace_builder_set_stack_addrs (self->builder, SEISMO_FRAME_KERNEL, self->pid,
                                          self->kernel, self->n_kernel);
  if (self->n_user > 0)
    seismo_trace_builder_set_stack_addrs (self->builder, SEISMO_FRAME_USER, self->pid,
                                          self->user, self->n_user);
}

void
seismo_ebpf_stacks_maps_changed (SeismoEbpfStacks *self,
                                 gint32            pid,
                                 guint64           time_ns)
{
  if (self->mode & SEISMO_STACK_USER)
    seismo_proc_maps_scan (self->maps, pid, time_ns);
}

void
seismo_ebpf_stacks_flush (SeismoEbpfStacks *self)
{
  seismo_proc_maps_flush (self->maps);
}

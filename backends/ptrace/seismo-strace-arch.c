/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * Which machine a strace log comes from. strace writes no machine name, but the log shows it:
 *
 *   - the ELF headers the dynamic loader reads ("read(3, \"\177ELF\2\1\1…\3\0>\0…\", 832)"):
 *     their class and e_machine are the program's ABI;
 *   - strace's personality notes ("[ Process PID=12 runs in 32 bit mode. ]", "x32 mode");
 *   - -n's syscall numbers next to the names: a number means the name in one table only;
 *   - the syscall names: every ABI lacks some (arm64, riscv64 and loongarch64 have no open, stat
 *     or fork; arch_prctl is x86's; _llseek, mmap2 and fstat64 are 32-bit ones);
 *   - the word size: -i's instruction pointer (8 or 16 digits) and addresses above 32 bits;
 *   - x86_64's address layout (mappings at 0x7f…, PIE programs at 0x55…/0x56…), only to choose
 *     between the 64-bit ABIs whose tables all have the names seen.
 *
 * What is left when the evidence does not single one ABI out is "unknown", never a guess: the
 * names in the log stay right either way, only the ABI-specific decoding (errno numbers) waits.
 */

#include <string.h>

#include "seismo-strace-private.h"

#define SCAN_LIMIT (8u << 20)
#define MAX_PAIRS  64

/* ELF e_machine values (elf.h), with the ABI they mean per class. */
static const struct {
  guint16    machine;
  SeismoArch arch32;
  SeismoArch arch64;
} elf_machines[] = {
  { 3, SEISMO_ARCH_I386, SEISMO_ARCH_UNKNOWN },         /* EM_386 */
  { 62, SEISMO_ARCH_X32, SEISMO_ARCH_X86_64 },          /* EM_X86_64 */
  { 40, SEISMO_ARCH_ARM, SEISMO_ARCH_UNKNOWN },         /* EM_ARM */
  { 183, SEISMO_ARCH_UNKNOWN, SEISMO_ARCH_ARM64 },      /* EM_AARCH64 */
  { 243, SEISMO_ARCH_UNKNOWN, SEISMO_ARCH_RISCV64 },    /* EM_RISCV */
  { 20, SEISMO_ARCH_POWERPC, SEISMO_ARCH_UNKNOWN },     /* EM_PPC */
  { 21, SEISMO_ARCH_UNKNOWN, SEISMO_ARCH_POWERPC64 },   /* EM_PPC64 */
  { 22, SEISMO_ARCH_UNKNOWN, SEISMO_ARCH_S390X },       /* EM_S390 */
  { 8, SEISMO_ARCH_MIPS, SEISMO_ARCH_MIPS64 },          /* EM_MIPS */
  { 258, SEISMO_ARCH_UNKNOWN, SEISMO_ARCH_LOONGARCH64 },/* EM_LOONGARCH */
};

void
strace_arch_init (StraceArch *self)
{
  memset (self, 0, sizeof *self);
  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pairs = g_array_new (FALSE, FALSE, sizeof (StraceArchPair));
  self->elf_arch = SEISMO_ARCH_UNKNOWN;
}

void
strace_arch_clear (StraceArch *self)
{
  g_hash_table_unref (self->names);
  for (guint i = 0; i < self->pairs->len; i++)
    g_free (g_array_index (self->pairs, StraceArchPair, i).name);
  g_array_unref (self->pairs);
}

void
strace_arch_mode_note (StraceArch *self,
                       const char *note)
{
  /* The calls before the note were made in the other personality: only what follows counts. */
  if (strstr (note, " x32 mode"))
    self->mode = STRACE_MODE_X32;
  else if (strstr (note, " 32 bit mode"))
    self->mode = STRACE_MODE_32;
  else if (strstr (note, " 64 bit mode"))
    self->mode = STRACE_MODE_64;
  else
    return;
  g_hash_table_remove_all (self->names);
}

gint64
strace_arch_bracket (StraceArch *self,
                     const char *content,
                     gsize       len)
{
  gsize digits = 0, hex = 0, lead = 0;

  while (lead < len && content[lead] == ' ')
    lead++;
  for (gsize i = lead; i < len; i++)
    {
      if (g_ascii_isdigit (content[i]))
        digits++;
      if (g_ascii_isxdigit (content[i]))
        hex++;
    }
  /* -i: "%08lx" or "%016lx", zero-padded; -n: "%3lu", space-padded. */
  if (lead == 0 && hex == len && (len == 8 || len == 16))
    {
      if (len == 16)
        self->ip64 = TRUE;
      else
        self->ip32 = TRUE;
      return -1;
    }
  if (digits > 0 && digits == len - lead && digits <= 5)
    return g_ascii_strtoll (content + lead, NULL, 10);
  return -1;
}

void
strace_arch_call (StraceArch *self,
                  const char *name,
                  gint64      nr)
{
  if (seismo_syscall_info (name) == NULL)
    return;
  if (!g_hash_table_contains (self->names, name))
    g_hash_table_add (self->names, g_strdup (name));
  if (nr >= 0 && self->pairs->len < MAX_PAIRS)
    {
      for (guint i = 0; i < self->pairs->len; i++)
        if (strcmp (g_array_index (self->pairs, StraceArchPair, i).name, name) == 0)
          return;
      g_array_append_val (self->pairs, ((StraceArchPair) { nr, g_strdup (name) }));
    }
}

/* Reads strace's escaped string text back into bytes, as many as fit in out. */
static gsize
unescape (const char *p,
          const char *end,
          guint8     *out,
          gsize       size)
{
  gsize n = 0;

  while (p < end && *p != '"' && n < size)
    {
      if (*p != '\\' || p + 1 >= end)
        {
          out[n++] = (guint8) *p++;
          continue;
        }
      p++;
      if (*p >= '0' && *p <= '7')
        {
          guint v = 0;

          for (int k = 0; k < 3 && p < end && *p >= '0' && *p <= '7'; k++, p++)
            v = v * 8 + (guint) (*p - '0');
          out[n++] = (guint8) v;
        }
      else if (*p == 'x' && p + 2 < end && g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
        {
          out[n++] = (guint8) (g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2]));
          p += 3;
        }
      else
        {
          /* \n \t \r \v \f; \" and \\ stand for themselves. The header's bytes that matter
           * (class, data, e_machine) are never these, but they keep the offsets right. */
          switch (*p)
            {
            case 'n': out[n++] = '\n'; break;
            case 't': out[n++] = '\t'; break;
            case 'r': out[n++] = '\r'; break;
            case 'v': out[n++] = '\v'; break;
            case 'f': out[n++] = '\f'; break;
            default: out[n++] = (guint8) *p; break;
            }
          p++;
        }
    }
  return n;
}

static void
note_elf (StraceArch *self,
          const char *p,
          const char *end)
{
  guint8 h[20];
  guint16 machine;

  if (unescape (p, end, h, sizeof h) < sizeof h || (h[4] != 1 && h[4] != 2)
      || (h[5] != 1 && h[5] != 2))
    return;
  machine = h[5] == 1 ? (guint16) (h[18] | h[19] << 8) : (guint16) (h[18] << 8 | h[19]);
  for (guint i = 0; i < G_N_ELEMENTS (elf_machines); i++)
    if (elf_machines[i].machine == machine)
      {
        SeismoArch arch = h[4] == 1 ? elf_machines[i].arch32 : elf_machines[i].arch64;

        if (arch != SEISMO_ARCH_UNKNOWN)
          self->elf_arch = arch;
      }
}

void
strace_arch_scan (StraceArch *self,
                  const char *data,
                  gsize       len)
{
  const char *end = data + MIN (len, SCAN_LIMIT);
  const char *p = data;

  if (data == NULL)
    return;
  while (p < end && (p = memchr (p, '0', (gsize) (end - p))) != NULL)
    {
      const char *q;
      gsize digits;

      if (p + 1 >= end || p[1] != 'x' || (p > data && g_ascii_isalnum (p[-1])))
        {
          p++;
          continue;
        }
      for (q = p + 2; q < end && g_ascii_isxdigit (*q); q++)
        ;
      digits = (gsize) (q - p - 2);
      /* Leading zeros do not make a value wide. */
      for (const char *z = p + 2; z < q && *z == '0'; z++)
        digits--;
      if (digits > 8)
        {
          self->n_wide++;
          /* x86_64 (4-level page tables): mappings and stacks at 0x7f…, PIE programs at
           * 0x55…/0x56…; ppc64's mappings are at 0x7fff… too, so those say nothing. */
          if (digits == 12 && ((p[2] == '7' && p[3] == 'f' && memcmp (p + 2, "7fff", 4) != 0)
                               || (p[2] == '5' && (p[3] == '5' || p[3] == '6'))))
            self->n_x86_layout++;
          else if (digits < 16)
            self->n_other_layout++;
        }
      else if (digits >= 7)
        self->n_narrow++;
      p = q;
    }

  /* The loader's reads of ELF headers. */
  for (p = data; p < end && (p = memmem (p, (gsize) (end - p), "\"\\177ELF", 8)) != NULL; p += 8)
    note_elf (self, p + 1, MIN (end, p + 256));
}

static gboolean
has_all_names (StraceArch *self,
               SeismoArch  arch)
{
  GHashTableIter iter;
  gpointer name;

  g_hash_table_iter_init (&iter, self->names);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    if (seismo_syscall_number (arch, name) < 0)
      return FALSE;
  return TRUE;
}

SeismoArch
strace_arch_decide (StraceArch  *self,
                    const char **how,
                    char       **candidates)
{
  gboolean ok[SEISMO_ARCH_N];
  guint n = 0;
  SeismoArch last = SEISMO_ARCH_UNKNOWN;
  g_autoptr(GString) list = g_string_new (NULL);

  *how = NULL;
  *candidates = NULL;
  for (SeismoArch a = 0; a < SEISMO_ARCH_N; a++)
    {
      guint word = seismo_arch_long_size (a);

      ok[a] = has_all_names (self, a);
      /* -n's numbers against the tables. */
      for (guint i = 0; ok[a] && i < self->pairs->len; i++)
        {
          const StraceArchPair *pair = &g_array_index (self->pairs, StraceArchPair, i);

          ok[a] = seismo_syscall_number (a, pair->name) == pair->nr;
        }
      if (self->mode == STRACE_MODE_X32)
        ok[a] = ok[a] && a == SEISMO_ARCH_X32;
      /* strace's compat personalities: i386 on x86_64, arm on arm64, powerpc on ppc64. */
      else if (self->mode == STRACE_MODE_32)
        ok[a] = ok[a] && (a == SEISMO_ARCH_I386 || a == SEISMO_ARCH_ARM
                          || a == SEISMO_ARCH_POWERPC);
      else if (self->mode == STRACE_MODE_64)
        ok[a] = ok[a] && word == 8;
      /* -i prints the personality's word; x32 has 8-byte kernel words but 4-byte pointers. */
      if (self->ip64 && !self->ip32)
        ok[a] = ok[a] && word == 8 && a != SEISMO_ARCH_X32;
      else if (self->ip32 && !self->ip64)
        ok[a] = ok[a] && word == 4;
      if (self->n_wide > 0 && self->mode != STRACE_MODE_32)
        ok[a] = ok[a] && (word == 8 || a == SEISMO_ARCH_X32);
      else if (self->n_wide == 0 && self->n_narrow >= 8 && self->mode != STRACE_MODE_64)
        ok[a] = ok[a] && (word == 4 || a == SEISMO_ARCH_X32);
      if (ok[a])
        {
          n++;
          last = a;
          g_string_append_printf (list, "%s%s", list->len ? "," : "",
                                  seismo_arch_to_string (a));
        }
    }

  if (self->elf_arch != SEISMO_ARCH_UNKNOWN && ok[self->elf_arch])
    {
      *how = "ELF headers read by the loader";
      return self->elf_arch;
    }
  if (n == 1 && (g_hash_table_size (self->names) > 0 || self->mode != STRACE_MODE_NONE))
    {
      *how = self->pairs->len ? "syscall numbers (-n)"
             : self->mode != STRACE_MODE_NONE ? "personality note and syscall names"
             : "syscall names and word size";
      return last;
    }
  if (n > 1 && ok[SEISMO_ARCH_X86_64] && self->n_x86_layout > 4 * self->n_other_layout
      && !ok[SEISMO_ARCH_ARM64] && !ok[SEISMO_ARCH_RISCV64] && !ok[SEISMO_ARCH_LOONGARCH64])
    {
      /* The names rule out the generic-table ABIs; of the rest, only x86_64 maps there. */
      *how = "syscall names and address layout";
      return SEISMO_ARCH_X86_64;
    }
  if (n > 1)
    *candidates = g_strdup (list->str);
  return SEISMO_ARCH_UNKNOWN;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <stdlib.h>
#include <string.h>

#include "seismo-syscalls.h"
#include "seismo-syscall-tables.h"
#include "seismo-errno-tables.h"
#include "seismo-syscall-catalogue.h"
#include "seismo-filter-private.h"

static const struct {
  const char    *name;        /* metadata.arch */
  const guint16 *table;       /* index + 1 into syscall_catalogue, 0: none */
  guint          size;
  gint64         first;
  guint          long_size;
  /* uname -m spellings, space-separated; a trailing '*' matches any suffix. */
  const char    *machines;
} arches[SEISMO_ARCH_N] = {
#define ARCH(id, ident, long_size, machines) \
  [SEISMO_ARCH_##id] = { #ident, syscalls_##ident, G_N_ELEMENTS (syscalls_##ident), \
                         SEISMO_SYSCALL_BASE_##id, long_size, machines }
  ARCH (X86_64, x86_64, 8, "x86_64 amd64 x86-64"),
  ARCH (I386, i386, 4, "i386 i486 i586 i686 x86 ia32"),
  ARCH (X32, x32, 4, "x32"),
  ARCH (ARM, arm, 4, "arm armv* armhf armel arm32 aarch32"),
  ARCH (ARM64, arm64, 8, "arm64 aarch64 aarch64_be armv8*64"),
  ARCH (RISCV64, riscv64, 8, "riscv64 rv64*"),
  ARCH (POWERPC, powerpc, 4, "powerpc ppc ppcle powerpcle"),
  ARCH (POWERPC64, powerpc64, 8, "powerpc64 powerpc64le ppc64 ppc64le ppc64el"),
  ARCH (S390X, s390x, 8, "s390x s390"),
  ARCH (MIPS, mips, 4, "mips mipsel mipso32 mips32*"),
  ARCH (MIPS64N32, mips64n32, 4, "mips64n32 mipsn32 mipsn32el mips64n32el"),
  ARCH (MIPS64, mips64, 8, "mips64 mips64el mips64r6 mips64r6el"),
  ARCH (LOONGARCH64, loongarch64, 8, "loongarch64 loong64 loongarch"),
#undef ARCH
};

static gboolean
machine_matches (const char *machines,
                 const char *name)
{
  g_auto(GStrv) words = g_strsplit (machines, " ", -1);

  for (guint i = 0; words[i]; i++)
    {
      gsize len = strlen (words[i]);

      if (len > 0 && words[i][len - 1] == '*'
          ? g_ascii_strncasecmp (name, words[i], len - 1) == 0
          : g_ascii_strcasecmp (name, words[i]) == 0)
        return TRUE;
    }
  return FALSE;
}

SeismoArch
seismo_arch_from_string (const char *name)
{
  if (name == NULL || *name == '\0')
    return SEISMO_ARCH_UNKNOWN;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    if (g_ascii_strcasecmp (name, arches[a].name) == 0)
      return a;
  /* "armv8l" is a 64-bit CPU running 32-bit ARM: the arm table, which the armv* pattern gives. */
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    if (machine_matches (arches[a].machines, name))
      return a;
  return SEISMO_ARCH_UNKNOWN;
}

const char *
seismo_arch_to_string (SeismoArch arch)
{
  return arch < SEISMO_ARCH_N ? arches[arch].name : "unknown";
}

guint
seismo_arch_long_size (SeismoArch arch)
{
  return arch < SEISMO_ARCH_N ? arches[arch].long_size : 0;
}

const char *
seismo_syscall_name (SeismoArch arch,
                     gint64     nr)
{
  gint64 i;

  if (arch >= SEISMO_ARCH_N)
    return NULL;
  i = nr - arches[arch].first;
  if (i < 0 || i >= arches[arch].size || arches[arch].table[i] == 0)
    return NULL;
  return syscall_catalogue[arches[arch].table[i] - 1].name;
}

gint64
seismo_syscall_number (SeismoArch  arch,
                       const char *name)
{
  g_return_val_if_fail (name != NULL, -1);
  if (arch >= SEISMO_ARCH_N)
    return -1;
  for (guint i = 0; i < arches[arch].size; i++)
    if (arches[arch].table[i] != 0
        && strcmp (syscall_catalogue[arches[arch].table[i] - 1].name, name) == 0)
      return arches[arch].first + i;
  return -1;
}

gint64
seismo_syscall_table_first (SeismoArch arch)
{
  return arch < SEISMO_ARCH_N ? arches[arch].first : 0;
}

guint
seismo_syscall_table_size (SeismoArch arch)
{
  return arch < SEISMO_ARCH_N ? arches[arch].size : 0;
}

static int
compare_info (const void *key,
              const void *elem)
{
  return strcmp (key, ((const SeismoSyscallInfo *) elem)->name);
}

const SeismoSyscallInfo *
seismo_syscall_info (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  return bsearch (name, syscall_catalogue, G_N_ELEMENTS (syscall_catalogue),
                  sizeof syscall_catalogue[0], compare_info);
}

guint32
seismo_syscall_classes (const char *name)
{
  const SeismoSyscallInfo *info = seismo_syscall_info (name);

  return info ? info->classes : 0;
}

static const struct {
  const char *name;
  guint32     bit;
} class_names[] = {
  { "file", SEISMO_SYSCALL_CLASS_FILE },
  { "desc", SEISMO_SYSCALL_CLASS_DESC },
  { "process", SEISMO_SYSCALL_CLASS_PROCESS },
  { "network", SEISMO_SYSCALL_CLASS_NETWORK },
  { "net", SEISMO_SYSCALL_CLASS_NETWORK },   /* strace's older spelling */
  { "signal", SEISMO_SYSCALL_CLASS_SIGNAL },
  { "ipc", SEISMO_SYSCALL_CLASS_IPC },
  { "memory", SEISMO_SYSCALL_CLASS_MEMORY },
  { "creds", SEISMO_SYSCALL_CLASS_CREDS },
  { "clock", SEISMO_SYSCALL_CLASS_CLOCK },
};

guint32
seismo_syscall_class_from_name (const char *class_name)
{
  g_return_val_if_fail (class_name != NULL, 0);
  if (class_name[0] == '%')
    class_name++;
  for (guint i = 0; i < G_N_ELEMENTS (class_names); i++)
    if (strcmp (class_name, class_names[i].name) == 0)
      return class_names[i].bit;
  return 0;
}

const char *
seismo_syscall_class_list (void)
{
  return "%file %desc %process %network %signal %ipc %memory %creds %clock";
}

const char *
seismo_errno_name (int errnum)
{
  if (errnum <= 0 || errnum >= (int) G_N_ELEMENTS (errno_names))
    return NULL;
  return errno_names[errnum];
}

int
seismo_errno_from_name (const char *name)
{
  g_return_val_if_fail (name != NULL, 0);
  for (guint i = 1; i < G_N_ELEMENTS (errno_names); i++)
    if (errno_names[i] && strcmp (errno_names[i], name) == 0)
      return (int) i;
  return 0;
}

/* The ABIs whose errno numbers are not asm-generic's (seismo-errno-tables.h). */
static void
errno_table (SeismoArch           arch,
             const char *const **table,
             guint               *size)
{
  switch (arch)
    {
    case SEISMO_ARCH_MIPS:
    case SEISMO_ARCH_MIPS64N32:
    case SEISMO_ARCH_MIPS64:
      *table = errno_mips;
      *size = G_N_ELEMENTS (errno_mips);
      break;
    case SEISMO_ARCH_POWERPC:
    case SEISMO_ARCH_POWERPC64:
      *table = errno_powerpc;
      *size = G_N_ELEMENTS (errno_powerpc);
      break;
    default:
      *table = errno_names;
      *size = G_N_ELEMENTS (errno_names);
      break;
    }
}

const char *
seismo_errno_name_for_arch (SeismoArch arch,
                            int        errnum)
{
  const char *const *table;
  guint size;

  errno_table (arch, &table, &size);
  if (errnum <= 0 || (guint) errnum >= size)
    return NULL;
  return table[errnum];
}

int
seismo_errno_from_name_for_arch (SeismoArch  arch,
                                 const char *name)
{
  const char *const *table;
  guint size;

  g_return_val_if_fail (name != NULL, 0);
  errno_table (arch, &table, &size);
  for (guint i = 1; i < size; i++)
    if (table[i] && strcmp (table[i], name) == 0)
      return (int) i;
  /* Aliases (asm-generic's EDEADLOCK is EDEADLK; mips and powerpc give it its own number). */
  if (strcmp (name, "EDEADLOCK") == 0)
    return seismo_errno_from_name_for_arch (arch, "EDEADLK");
  if (strcmp (name, "EWOULDBLOCK") == 0)
    return seismo_errno_from_name_for_arch (arch, "EAGAIN");
  return 0;
}

const char *
seismo_errno_message (SeismoArch arch,
                      int        errnum)
{
  const char *name = seismo_errno_name_for_arch (arch, errnum);
  int host = name ? seismo_errno_from_name_for_arch (SEISMO_ARCH_X86_64, name) : 0;

  /* The C library knows the build machine's numbers: ask it by name, not by number. */
  return host > 0 ? g_strerror (host) : NULL;
}

const char *
seismo_signal_name (int signum)
{
  if (signum <= 0 || signum >= (int) G_N_ELEMENTS (signal_names))
    return NULL;
  return signal_names[signum];
}

int
seismo_signal_from_name (const char *name)
{
  g_return_val_if_fail (name != NULL, 0);
  for (guint i = 1; i < G_N_ELEMENTS (signal_names); i++)
    if (signal_names[i] && strcmp (signal_names[i], name) == 0)
      return (int) i;
  return 0;
}

const char *
seismo_syscall_suggest (const char *name)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_return_val_if_fail (name != NULL, NULL);
  for (SeismoArch arch = 0; arch < SEISMO_ARCH_N; arch++)
    for (guint nr = 0; nr < seismo_syscall_table_size (arch); nr++)
      if (seismo_syscall_name (arch, nr) != NULL)
        g_ptr_array_add (names, (gpointer) seismo_syscall_name (arch, nr));
  return _seismo_filter_suggest (name, (const char *const *) names->pdata, names->len);
}

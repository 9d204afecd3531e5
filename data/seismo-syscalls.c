/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-syscalls.h"
#include "seismo-syscall-tables.h"
#include "seismo-filter-private.h"

static const struct {
  const char *const *names;
  guint              size;
  const char        *arch;
} arch_tables[SEISMO_ARCH_N] = {
  [SEISMO_ARCH_X86_64] = { syscalls_x86_64, G_N_ELEMENTS (syscalls_x86_64), "x86_64" },
  [SEISMO_ARCH_I386]   = { syscalls_i386, G_N_ELEMENTS (syscalls_i386), "i386" },
};

SeismoArch
seismo_arch_from_string (const char *name)
{
  if (name != NULL && (strcmp (name, "i386") == 0 || strcmp (name, "i686") == 0 ||
                       strcmp (name, "x86") == 0))
    return SEISMO_ARCH_I386;
  return SEISMO_ARCH_X86_64;
}

const char *
seismo_arch_to_string (SeismoArch arch)
{
  return arch < SEISMO_ARCH_N ? arch_tables[arch].arch : "unknown";
}

const char *
seismo_syscall_name (SeismoArch arch,
                     gint64     nr)
{
  if (arch >= SEISMO_ARCH_N || nr < 0 || nr >= arch_tables[arch].size)
    return NULL;
  return arch_tables[arch].names[nr];
}

gint64
seismo_syscall_number (SeismoArch  arch,
                       const char *name)
{
  g_return_val_if_fail (name != NULL, -1);
  if (arch >= SEISMO_ARCH_N)
    return -1;
  for (guint i = 0; i < arch_tables[arch].size; i++)
    if (arch_tables[arch].names[i] && strcmp (arch_tables[arch].names[i], name) == 0)
      return i;
  return -1;
}

guint
seismo_syscall_table_size (SeismoArch arch)
{
  return arch < SEISMO_ARCH_N ? arch_tables[arch].size : 0;
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

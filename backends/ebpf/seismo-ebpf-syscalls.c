/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <string.h>

#include "seismo-ebpf-private.h"
#include "seismo-error.h"
#include "seismo-syscalls.h"

/*
 * What the in-kernel filter and path copy need to know about syscalls comes from the syscall
 * catalogue (seismo-syscalls.h): strace-like classes for `-e %file` (the same as the ptrace
 * backend's) and which argument holds the path a syscall acts on. Numbers are x86-64's: the eBPF
 * backend records the machine it runs on.
 */

static void
set_bit (guint64 *bitmap,
         gint64   nr)
{
  if (nr >= 0 && nr < SEISMO_EBPF_MAX_SYSCALLS)
    bitmap[nr / 64] |= G_GUINT64_CONSTANT (1) << (nr % 64);
}

static gboolean
add_filter_word (const char *word,
                 guint64    *bitmap,
                 GError    **error)
{
  if (word[0] == '%')
    {
      guint32 classes = seismo_syscall_class_from_name (word);
      gint64 first = seismo_syscall_table_first (SEISMO_ARCH_X86_64);

      if (classes == 0)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("unknown syscall class '%s' (known: %s)"), word,
                       seismo_syscall_class_list ());
          return FALSE;
        }
      for (gint64 nr = first; nr < first + seismo_syscall_table_size (SEISMO_ARCH_X86_64); nr++)
        {
          const char *name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);

          if (name != NULL && (seismo_syscall_classes (name) & classes) != 0)
            set_bit (bitmap, nr);
        }
      return TRUE;
    }

  {
    gint64 nr = seismo_syscall_number (SEISMO_ARCH_X86_64, word);

    if (nr < 0)
      {
        const char *near = seismo_syscall_suggest (word);

        if (near != NULL)
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("unknown syscall '%s'; did you mean '%s'?"), word, near);
        else
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("unknown syscall '%s'"), word);
        return FALSE;
      }
    if (nr >= SEISMO_EBPF_MAX_SYSCALLS)
      {
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                     _("syscall '%s' (number %" PRId64 ") is beyond the %d the eBPF "
                       "filter covers"), word, nr, SEISMO_EBPF_MAX_SYSCALLS);
        return FALSE;
      }
    set_bit (bitmap, nr);
  }
  return TRUE;
}

gboolean
seismo_ebpf_syscall_filter (char *const *specs,
                            guint64      bitmap[SEISMO_EBPF_MAX_SYSCALLS / 64],
                            GError     **error)
{
  memset (bitmap, 0, sizeof (guint64) * (SEISMO_EBPF_MAX_SYSCALLS / 64));
  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit (specs[i], ",", -1);

      for (guint j = 0; words[j] != NULL; j++)
        {
          const char *word = g_strstrip (words[j]);

          if (*word != '\0' && !add_filter_word (word, bitmap, error))
            return FALSE;
        }
    }
  return TRUE;
}

void
seismo_ebpf_syscall_path_args (guint8 path_arg[SEISMO_EBPF_MAX_SYSCALLS])
{
  memset (path_arg, 0, SEISMO_EBPF_MAX_SYSCALLS);
  for (gint64 nr = 0; nr < SEISMO_EBPF_MAX_SYSCALLS; nr++)
    {
      const char *name = seismo_syscall_name (SEISMO_ARCH_X86_64, nr);
      const SeismoSyscallInfo *info = name ? seismo_syscall_info (name) : NULL;

      if (info != NULL && info->path_arg >= 0)
        path_arg[nr] = (guint8) (info->path_arg + 1);
    }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace"

/*
 * The -e syscall filter: names ("openat"), strace's classes ("%file"), negations ("!write"). For
 * launched commands it becomes a seccomp-bpf program so that syscalls nobody asked for never stop
 * the tracee (like strace --seccomp-bpf); for attached processes the tracer filters.
 */

#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "seismo-error.h"
#include "seismo-ptrace-private.h"

typedef struct {
  GHashTable *names;    /* set of syscall names */
  guint32     classes;
  gboolean    all;
} Selection;

static gboolean
parse_item (const char  *item,
            Selection   *sel,
            GError     **error)
{
  if (g_str_equal (item, "all"))
    {
      sel->all = TRUE;
      return TRUE;
    }
  if (item[0] == '%')
    {
      guint32 classes = seismo_syscall_class_from_name (item);

      if (classes == 0)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("Unknown syscall class '%s' (known: %s)"), item,
                       seismo_syscall_class_list ());
          return FALSE;
        }
      sel->classes |= classes;
      return TRUE;
    }
  if (seismo_syscall_number (SEISMO_ARCH_X86_64, item) < 0
      && seismo_syscall_number (SEISMO_ARCH_I386, item) < 0)
    {
      const char *near = seismo_syscall_suggest (item);

      if (near != NULL)
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                     _("Unknown syscall '%s' in the syscall filter; did you mean '%s'?"), item, near);
      else
        g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                     _("Unknown syscall '%s' in the syscall filter"), item);
      return FALSE;
    }
  g_hash_table_add (sel->names, g_strdup (item));
  return TRUE;
}

static gboolean
selection_has (const Selection *sel,
               const char      *name,
               guint32          classes)
{
  return sel->all || (sel->classes & classes) != 0 || g_hash_table_contains (sel->names, name);
}

SeismoPtraceFilter *
seismo_ptrace_filter_new (const char *const  *spec,
                          GError            **error)
{
  g_autoptr(SeismoPtraceFilter) self = g_new0 (SeismoPtraceFilter, 1);
  g_autoptr(GHashTable) plus_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) minus_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Selection plus = { plus_names, 0, FALSE };
  Selection minus = { minus_names, 0, FALSE };
  gboolean any_plus = FALSE;

  if (spec == NULL || spec[0] == NULL)
    {
      self->all = TRUE;
      return g_steal_pointer (&self);
    }

  for (guint i = 0; spec[i]; i++)
    {
      const char *s = spec[i];
      g_auto(GStrv) items = NULL;

      /* strace's spelling: -e trace=open,read */
      if (g_str_has_prefix (s, "trace="))
        s += strlen ("trace=");
      items = g_strsplit (s, ",", -1);
      for (guint k = 0; items[k]; k++)
        {
          char *item = g_strstrip (items[k]);
          gboolean negate = item[0] == '!';

          if (negate)
            item++;
          if (*item == '\0')
            continue;
          if (!parse_item (item, negate ? &minus : &plus, error))
            return NULL;
          any_plus |= !negate;
        }
    }
  /* Only negations: everything but those. */
  if (!any_plus)
    plus.all = TRUE;

  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    {
      self->size[a] = seismo_syscall_table_size (a);
      self->wanted[a] = g_new0 (guint8, self->size[a]);
      for (guint nr = 0; nr < self->size[a]; nr++)
        {
          const char *name = seismo_syscall_name (a, nr);
          guint32 classes;

          if (name == NULL)
            continue;
          classes = seismo_syscall_classes (name);
          self->wanted[a][nr] = selection_has (&plus, name, classes)
                                && !selection_has (&minus, name, classes);
        }
    }
  return g_steal_pointer (&self);
}

void
seismo_ptrace_filter_free (SeismoPtraceFilter *self)
{
  if (self == NULL)
    return;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    g_free (self->wanted[a]);
  g_free (self);
}

static void
emit (GArray *prog,
      guint16 code,
      guint8  jt,
      guint8  jf,
      guint32 k)
{
  struct sock_filter insn = BPF_JUMP (code, k, jt, jf);

  g_array_append_val (prog, insn);
}

/*
 * One block per arch: load the number, then a run of "equal → return hit" pairs, then return
 * miss. The pairs list whichever set is smaller, the traced or the allowed syscalls, so that the
 * program stays short (and every jump is a short one).
 */
static void
emit_arch_block (GArray                   *prog,
                 const SeismoPtraceFilter *self,
                 SeismoArch                arch,
                 const char *const        *always_trace)
{
  guint n = self->size[arch];
  g_autofree guint8 *traced = g_new0 (guint8, MAX (n, 1));
  guint n_traced = 0;
  gboolean list_traced;

  for (guint nr = 0; nr < n; nr++)
    traced[nr] = self->wanted[arch][nr];
  for (guint i = 0; always_trace && always_trace[i]; i++)
    {
      gint64 nr = seismo_syscall_number (arch, always_trace[i]);

      if (nr >= 0 && nr < n)
        traced[nr] = TRUE;
    }
  for (guint nr = 0; nr < n; nr++)
    n_traced += traced[nr];
  list_traced = n_traced <= n - n_traced;

  emit (prog, BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof (struct seccomp_data, nr));
  /* x32 syscalls come under the x86_64 arch with this bit set; they are not in our tables. */
  if (arch == SEISMO_ARCH_X86_64)
    {
      emit (prog, BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000);
      emit (prog, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ALLOW);
    }
  for (guint nr = 0; nr < n; nr++)
    if (traced[nr] == list_traced && seismo_syscall_name (arch, nr) != NULL)
      {
        emit (prog, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, nr);
        emit (prog, BPF_RET | BPF_K, 0, 0, list_traced ? SECCOMP_RET_TRACE : SECCOMP_RET_ALLOW);
      }
  emit (prog, BPF_RET | BPF_K, 0, 0, list_traced ? SECCOMP_RET_ALLOW : SECCOMP_RET_TRACE);
}

GArray *
seismo_ptrace_filter_build_bpf (const SeismoPtraceFilter *self,
                                const char *const        *always_trace)
{
  GArray *prog = g_array_new (FALSE, FALSE, sizeof (struct sock_filter));
  guint ja64, ja32;

  g_return_val_if_fail (!self->all, prog);

  emit (prog, BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof (struct seccomp_data, arch));
  emit (prog, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, AUDIT_ARCH_X86_64);
  ja64 = prog->len;
  emit (prog, BPF_JMP | BPF_JA, 0, 0, 0);
  emit (prog, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, AUDIT_ARCH_I386);
  ja32 = prog->len;
  emit (prog, BPF_JMP | BPF_JA, 0, 0, 0);
  emit (prog, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ALLOW);

  g_array_index (prog, struct sock_filter, ja64).k = prog->len - ja64 - 1;
  emit_arch_block (prog, self, SEISMO_ARCH_X86_64, always_trace);
  g_array_index (prog, struct sock_filter, ja32).k = prog->len - ja32 - 1;
  emit_arch_block (prog, self, SEISMO_ARCH_I386, always_trace);
  return prog;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace"

#include "seismo-i18n.h"
#include "seismo-proc-maps.h"
#include "seismo-ptrace-unwind.h"

#ifdef SEISMO_PTRACE_HAVE_LIBDW

#include <elfutils/libdwfl.h>

struct _SeismoPtraceUnwind {
  SeismoProcMaps *maps;
  GHashTable     *dwfls;    /* pid → Dwfl (attached to the process) */
};

static const Dwfl_Callbacks callbacks = {
  .find_elf = dwfl_linux_proc_find_elf,
  .find_debuginfo = dwfl_standard_find_debuginfo,
};

SeismoPtraceUnwind *
seismo_ptrace_unwind_new (SeismoTraceBuilder *builder,
                          char              **why)
{
  SeismoPtraceUnwind *self = g_new0 (SeismoPtraceUnwind, 1);

  self->maps = seismo_proc_maps_new (builder);
  self->dwfls = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) dwfl_end);
  return self;
}

void
seismo_ptrace_unwind_free (SeismoPtraceUnwind *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->dwfls);
  seismo_proc_maps_free (self->maps);
  g_free (self);
}

/* The process's Dwfl: its modules as mapped now, attached to its (stopped) threads. */
static Dwfl *
dwfl_of (SeismoPtraceUnwind *self,
         pid_t               pid,
         guint64             time_ns)
{
  Dwfl *dwfl = g_hash_table_lookup (self->dwfls, GINT_TO_POINTER (pid));

  if (dwfl != NULL)
    return dwfl;
  if ((dwfl = dwfl_begin (&callbacks)) == NULL)
    return NULL;
  dwfl_report_begin (dwfl);
  if (dwfl_linux_proc_report (dwfl, pid) != 0 || dwfl_report_end (dwfl, NULL, NULL) != 0 ||
      dwfl_linux_proc_attach (dwfl, pid, true) != 0)
    {
      dwfl_end (dwfl);
      return NULL;
    }
  g_hash_table_insert (self->dwfls, GINT_TO_POINTER (pid), dwfl);
  /* The same moment's mappings name the frames later. */
  seismo_proc_maps_scan (self->maps, pid, time_ns);
  seismo_proc_maps_flush (self->maps);
  return dwfl;
}

typedef struct {
  guint64 *ips;
  guint    max;
  guint    n;
  Dwfl    *dwfl;
  gboolean unknown;   /* a frame outside every module: the Dwfl is out of date */
} Walk;

static int
on_frame (Dwfl_Frame *state,
          void       *arg)
{
  Walk *w = arg;
  Dwarf_Addr pc;
  bool activation = false;

  if (!dwfl_frame_pc (state, &pc, &activation))
    return DWARF_CB_ABORT;
  /* A return address is behind its call: one byte back names the caller's line. */
  if (!activation && pc > 0)
    pc--;
  if (w->n == 0 && dwfl_addrmodule (w->dwfl, pc) == NULL)
    w->unknown = TRUE;
  w->ips[w->n++] = pc;
  return w->n < w->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

guint
seismo_ptrace_unwind_stack (SeismoPtraceUnwind *self,
                            pid_t               pid,
                            pid_t               tid,
                            guint64             time_ns,
                            guint64            *ips,
                            guint               max_ips)
{
  for (int attempt = 0; attempt < 2; attempt++)
    {
      Walk w = { ips, max_ips, 0, dwfl_of (self, pid, time_ns), FALSE };

      if (w.dwfl == NULL || max_ips == 0)
        return 0;
      /* Ends with an error at the outermost frame, or where CFI runs out: what came is kept. */
      dwfl_getthread_frames (w.dwfl, tid, on_frame, &w);
      if (!w.unknown || attempt == 1)
        return w.n;
      /* Code mapped since (an mmap the syscall filter hid from us): look again. */
      seismo_ptrace_unwind_changed (self, pid, time_ns);
    }
  return 0;
}

void
seismo_ptrace_unwind_changed (SeismoPtraceUnwind *self,
                              pid_t               pid,
                              guint64             time_ns)
{
  /* The Dwfl is made again at the next stack, with the mappings of then. */
  g_hash_table_remove (self->dwfls, GINT_TO_POINTER (pid));
}

void
seismo_ptrace_unwind_forget (SeismoPtraceUnwind *self,
                             pid_t               pid)
{
  g_hash_table_remove (self->dwfls, GINT_TO_POINTER (pid));
}

#else /* !SEISMO_PTRACE_HAVE_LIBDW */

SeismoPtraceUnwind *
seismo_ptrace_unwind_new (SeismoTraceBuilder *builder,
                          char              **why)
{
  if (why != NULL)
    *why = g_strdup (_("this build has no elfutils libdw to unwind stacks"));
  return NULL;
}

void
seismo_ptrace_unwind_free (SeismoPtraceUnwind *self)
{
}

guint
seismo_ptrace_unwind_stack (SeismoPtraceUnwind *self,
                            pid_t               pid,
                            pid_t               tid,
                            guint64             time_ns,
                            guint64            *ips,
                            guint               max_ips)
{
  return 0;
}

void
seismo_ptrace_unwind_changed (SeismoPtraceUnwind *self,
                              pid_t               pid,
                              guint64             time_ns)
{
}

void
seismo_ptrace_unwind_forget (SeismoPtraceUnwind *self,
                             pid_t               pid)
{
}

#endif

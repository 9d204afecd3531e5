/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <errno.h>

#include "seismo-errno-error.h"
#include "seismo-ftrace-stacks.h"
#include "seismo-tep-guard.h"

gboolean
seismo_ftrace_stacks_setup (SeismoFtraceStacks       *self,
                            struct tracefs_instance  *instance,
                            struct tep_handle        *tep,
                            SeismoStackMode           mode,
                            SeismoTraceBuilder       *builder,
                            GError                  **error)
{
  self->mode = mode;
  /* Their records cannot be enabled, only come with the options; the converter needs their
   * formats all the same. */
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "kernel_stack" : "user_stack";
      g_autofree char *format = NULL;
      int size = 0;

      if (!(mode & (i == 0 ? SEISMO_STACK_KERNEL : SEISMO_STACK_USER)))
        continue;
      format = tracefs_event_file_read (NULL, "ftrace", name, "format", &size);
      if (format == NULL || size <= 0)
        return seismo_set_errno_error (error, errno, _("could not read the format of ftrace:%s"),
                                       name);
      if (seismo_tep_parse_local (tep, format, size, "ftrace") != 0)
        g_debug ("the format of ftrace:%s parsed with errors", name);
    }
  if ((mode & SEISMO_STACK_KERNEL) && tracefs_option_enable (instance, TRACEFS_OPTION_STACKTRACE) < 0)
    return seismo_set_errno_error (error, errno, _("could not enable options/stacktrace in %s"),
                                   tracefs_instance_get_name (instance));
  if (mode & SEISMO_STACK_USER)
    {
      if (tracefs_option_enable (instance, TRACEFS_OPTION_USERSTACKTRACE) < 0)
        return seismo_set_errno_error (error, errno,
                                       _("could not enable options/userstacktrace in %s"),
                                       tracefs_instance_get_name (instance));
      self->maps = seismo_proc_maps_new (builder);
    }
  return TRUE;
}

void
seismo_ftrace_stacks_scan (SeismoFtraceStacks *self,
                           gint32              pid,
                           guint64             time_ns)
{
  if (self->maps != NULL && pid > 0)
    seismo_proc_maps_scan (self->maps, pid, time_ns);
}

void
seismo_ftrace_stacks_flush (SeismoFtraceStacks *self)
{
  if (self->maps != NULL)
    seismo_proc_maps_flush (self->maps);
}

void
seismo_ftrace_stacks_clear (SeismoFtraceStacks *self)
{
  g_clear_pointer (&self->maps, seismo_proc_maps_free);
  self->mode = SEISMO_STACK_NONE;
}

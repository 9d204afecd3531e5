/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backends"

#include "seismo-backend.h"
#include "seismo-importer.h"

/*
 * Each backend folder exports its SeismoBackend and an init function registering the importers
 * it provides. Which ones exist is decided at configure time (SEISMO_HAVE_*).
 */
#ifdef SEISMO_HAVE_FTRACE
extern const SeismoBackend seismo_ftrace_backend;
void seismo_ftrace_register_importers (void);
guint seismo_ftrace_sweep_stale_instances (void);
#endif
#ifdef SEISMO_HAVE_PTRACE
extern const SeismoBackend seismo_ptrace_backend;
void seismo_ptrace_register_importers (void);
#endif
#ifdef SEISMO_HAVE_EBPF
extern const SeismoBackend seismo_ebpf_backend;
#endif

static const SeismoBackend *const backends[] = {
#ifdef SEISMO_HAVE_PTRACE
  &seismo_ptrace_backend,
#endif
#ifdef SEISMO_HAVE_FTRACE
  &seismo_ftrace_backend,
#endif
#ifdef SEISMO_HAVE_EBPF
  &seismo_ebpf_backend,
#endif
  NULL
};

void
seismo_backends_init (void)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
#ifdef SEISMO_HAVE_FTRACE
      seismo_ftrace_register_importers ();
#endif
#ifdef SEISMO_HAVE_PTRACE
      seismo_ptrace_register_importers ();
#endif
      g_once_init_leave (&initialized, 1);
    }
}

const SeismoBackend *const *
seismo_backends_get (guint *n_backends)
{
  if (n_backends)
    *n_backends = G_N_ELEMENTS (backends) - 1;
  return backends;
}

const SeismoBackend *
seismo_backend_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; backends[i] != NULL; i++)
    if (g_str_equal (backends[i]->name, name))
      return backends[i];
  return NULL;
}

guint
seismo_backends_sweep_stale (void)
{
  guint removed = 0;

#ifdef SEISMO_HAVE_FTRACE
  removed = seismo_ftrace_sweep_stale_instances ();
  /* Said, not silent: the user may wonder where a killed recording's buffers went. */
  if (removed > 0)
    g_message ("removed %u stale tracefs instance%s left by a killed recorder", removed,
               removed == 1 ? "" : "s");
#endif
  return removed;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backends"

#include "seismo-backend.h"
#include "seismo-backends-list.h"
#include "seismo-importer.h"

/*
 * The table: each backend folder exports seismo_<name>_backend, and backends/meson.build lists the
 * folders this build has (seismo-backends-list.h). Everything else about a backend is in its
 * SeismoBackend: capabilities, ops, importers, stale-state sweep (docs/backends.md).
 */
#define DECLARE_BACKEND(name) extern const SeismoBackend seismo_##name##_backend;
#define BACKEND_ENTRY(name) &seismo_##name##_backend,

SEISMO_BACKEND_LIST (DECLARE_BACKEND)

static const SeismoBackend *const backends[] = {
  SEISMO_BACKEND_LIST (BACKEND_ENTRY)
  NULL
};

static const char *const unbuilt[] = { SEISMO_BACKENDS_UNBUILT NULL };

void
seismo_backends_init (void)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      for (guint i = 0; backends[i] != NULL; i++)
        if (backends[i]->init != NULL)
          backends[i]->init ();
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

const char *const *
seismo_backends_get_unbuilt (void)
{
  return unbuilt;
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

  for (guint i = 0; backends[i] != NULL; i++)
    if (backends[i]->sweep_stale != NULL)
      removed += backends[i]->sweep_stale ();
  /* Said, not silent: the user may wonder where a killed recording's buffers went. */
  if (removed > 0)
    g_message ("removed %u stale tracefs instance%s left by a killed recorder", removed,
               removed == 1 ? "" : "s");
  return removed;
}

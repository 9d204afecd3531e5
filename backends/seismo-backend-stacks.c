/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backends"

/* --stacks: its spellings, and whether a backend can capture what is asked before it starts. */

#include "seismo-backend.h"
#include "seismo-error.h"
#include "seismo-i18n.h"

const char *
seismo_stack_mode_to_string (SeismoStackMode mode)
{
  switch (mode)
    {
    case SEISMO_STACK_NONE:
      return "none";
    case SEISMO_STACK_USER:
      return "user";
    case SEISMO_STACK_KERNEL:
      return "kernel";
    case SEISMO_STACK_BOTH:
      return "both";
    default:
      return "?";
    }
}

gboolean
seismo_backend_parse_stacks (const SeismoBackend *backend,
                             const char          *spelling,
                             SeismoStackMode     *mode,
                             GError             **error)
{
  static const SeismoStackMode modes[] = { SEISMO_STACK_USER, SEISMO_STACK_KERNEL, SEISMO_STACK_BOTH };

  g_return_val_if_fail (backend != NULL, FALSE);
  g_return_val_if_fail (mode != NULL, FALSE);

  if (spelling == NULL || *spelling == '\0')
    {
      *mode = backend->default_stacks;
      if (*mode == SEISMO_STACK_NONE)
        return seismo_backend_check_stacks (backend, SEISMO_STACK_USER, error);
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (g_str_equal (spelling, seismo_stack_mode_to_string (modes[i])))
      {
        *mode = modes[i];
        return TRUE;
      }
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
               _("--stacks takes user, kernel or both, not '%s'"), spelling);
  return FALSE;
}

gboolean
seismo_backend_check_stacks (const SeismoBackend *backend,
                             SeismoStackMode      mode,
                             GError             **error)
{
  g_return_val_if_fail (backend != NULL, FALSE);

  if ((mode & ~backend->stacks) == 0)
    return TRUE;
  if (backend->stacks == SEISMO_STACK_NONE)
    g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                 _("the %s backend cannot record call stacks in this build"), backend->name);
  else
    g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                 _("the %s backend cannot record %s stacks (it can record: %s)"), backend->name,
                 seismo_stack_mode_to_string (mode & ~backend->stacks),
                 seismo_stack_mode_to_string (backend->stacks));
  return FALSE;
}

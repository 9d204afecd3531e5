/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include "seismo-backend.h"
#include "seismo-ebpf-config.h"
#include "seismo-ebpf-private.h"
#include "seismo-error.h"

/*
 * The eBPF backend of a build that lacked its tools: it stays listed so that
 * `seismo-cli record --list-backends` can say why it cannot run instead of not knowing it.
 */

static gboolean
seismo_ebpf_available (char **why)
{
  if (why != NULL)
    *why = g_strdup_printf (_("this build has no BPF support: %s"), SEISMO_EBPF_MISSING);
  return FALSE;
}

const SeismoBackend seismo_ebpf_backend = {
  .name = "ebpf",
  .display_name = "eBPF",
  .description = N_("eBPF (libbpf CO-RE): not part of this build"),
  .caps = SEISMO_EBPF_CAPS,
  .available = seismo_ebpf_available,
  .list_events = NULL,
  .ops = NULL,   /* SeismoRecorder says available()'s reason */
};

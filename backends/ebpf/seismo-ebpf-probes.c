/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ebpf"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "seismo-ebpf-private.h"
#include "seismo-error.h"

static const struct {
  const char         *prefix;
  SeismoEbpfProbeKind kind;
  guint               n_parts;   /* colon-separated parts after the prefix */
} probe_kinds[] = {
  { "kprobe",    SEISMO_EBPF_KPROBE,    1 },
  { "kretprobe", SEISMO_EBPF_KRETPROBE, 1 },
  { "uprobe",    SEISMO_EBPF_UPROBE,    2 },
  { "uretprobe", SEISMO_EBPF_URETPROBE, 2 },
  { "usdt",      SEISMO_EBPF_USDT,      3 },
};

void
seismo_ebpf_probe_clear (SeismoEbpfProbe *probe)
{
  g_clear_pointer (&probe->spec, g_free);
  g_clear_pointer (&probe->binary, g_free);
  g_clear_pointer (&probe->function, g_free);
  g_clear_pointer (&probe->provider, g_free);
  g_clear_pointer (&probe->name, g_free);
  g_clear_pointer (&probe->system, g_free);
  g_clear_pointer (&probe->event, g_free);
  probe->offset = 0;
}

gboolean
seismo_ebpf_probe_returns (const SeismoEbpfProbe *probe)
{
  return probe->kind == SEISMO_EBPF_KRETPROBE || probe->kind == SEISMO_EBPF_URETPROBE;
}

static gboolean
parse_offset (const char *text,
              gsize      *offset)
{
  char *end = NULL;
  guint64 value;

  if (*text == '\0' || *text == '-')
    return FALSE;
  errno = 0;
  value = g_ascii_strtoull (text, &end, 0);
  if (errno != 0 || end == text || *end != '\0')
    return FALSE;
  *offset = value;
  return TRUE;
}

static gboolean
is_identifier (const char *s)
{
  if (*s == '\0' || g_ascii_isdigit (*s))
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '.' && *s != '@')
      return FALSE;
  return TRUE;
}

/* "FUNC", "FUNC+OFF", or (uprobes) a raw "0xADDR" file offset. */
static gboolean
parse_location (const char      *text,
                gboolean         allow_address,
                SeismoEbpfProbe *probe)
{
  const char *plus = strchr (text, '+');
  g_autofree char *func = plus ? g_strndup (text, plus - text) : g_strdup (text);

  if (allow_address && plus == NULL && g_str_has_prefix (text, "0x"))
    return parse_offset (text, &probe->offset);
  if (!is_identifier (func))
    return FALSE;
  if (plus != NULL && !parse_offset (plus + 1, &probe->offset))
    return FALSE;
  probe->function = g_steal_pointer (&func);
  return TRUE;
}

gboolean
seismo_ebpf_probe_parse (const char      *spec,
                         SeismoEbpfProbe *probe,
                         GError         **error)
{
  const char *colon;
  const char *rest;
  guint kind = G_N_ELEMENTS (probe_kinds);

  g_return_val_if_fail (spec != NULL, FALSE);

  memset (probe, 0, sizeof *probe);
  colon = strchr (spec, ':');
  if (colon != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (probe_kinds); i++)
      if (strlen (probe_kinds[i].prefix) == (gsize) (colon - spec)
          && strncmp (spec, probe_kinds[i].prefix, colon - spec) == 0)
        kind = i;
  if (kind == G_N_ELEMENTS (probe_kinds))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                   _("probe '%s': expected kprobe:FUNC, kretprobe:FUNC, uprobe:BINARY:SYMBOL, "
                     "uretprobe:BINARY:SYMBOL or usdt:BINARY:PROVIDER:NAME"), spec);
      return FALSE;
    }

  probe->kind = probe_kinds[kind].kind;
  probe->spec = g_strdup (spec);
  probe->system = g_strdup (probe_kinds[kind].prefix);
  rest = colon + 1;

  if (probe_kinds[kind].n_parts == 1)
    {
      if (!parse_location (rest, FALSE, probe))
        goto bad;
      probe->event = g_strdup (rest);
      return TRUE;
    }

  {
    /* The binary may itself contain colons: the last parts are the symbol or provider:name. */
    const char *last = strrchr (rest, ':');
    const char *binary_end = last;

    if (last == NULL || last == rest)
      goto bad;
    if (probe->kind == SEISMO_EBPF_USDT)
      {
        binary_end = g_strrstr_len (rest, last - rest, ":");
        if (binary_end == NULL || binary_end == rest)
          goto bad;
        probe->provider = g_strndup (binary_end + 1, last - binary_end - 1);
        probe->name = g_strdup (last + 1);
        if (!is_identifier (probe->provider) || !is_identifier (probe->name))
          goto bad;
        probe->event = g_strdup_printf ("%s:%s", probe->provider, probe->name);
      }
    else
      {
        if (!parse_location (last + 1, TRUE, probe))
          goto bad;
        probe->event = g_strdup (last + 1);
      }
    probe->binary = g_strndup (rest, binary_end - rest);
  }
  return TRUE;

bad:
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
               _("probe '%s': malformed; expected %s"), spec,
               probe->kind == SEISMO_EBPF_USDT ? "usdt:BINARY:PROVIDER:NAME"
               : probe_kinds[kind].n_parts == 1 ? _("FUNC or FUNC+OFFSET after the colon")
               : _("BINARY:SYMBOL, BINARY:SYMBOL+OFFSET or BINARY:0xOFFSET"));
  seismo_ebpf_probe_clear (probe);
  return FALSE;
}

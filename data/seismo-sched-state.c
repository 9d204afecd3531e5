/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-sched-state.h"

/* TASK_REPORT of Linux >= 4.14 (include/trace/events/sched.h). */
static const SeismoSymbol default_states[] = {
  { 0x01, "S" }, { 0x02, "D" }, { 0x04, "T" }, { 0x08, "t" }, { 0x10, "X" }, { 0x20, "Z" },
  { 0x40, "P" }, { 0x80, "I" }, { 0x100, "+" },
};

const SeismoSymbol *
seismo_sched_state_default (guint *n_symbols)
{
  *n_symbols = G_N_ELEMENTS (default_states);
  return default_states;
}

void
seismo_sched_state_format (const SeismoSymbol *symbols,
                           guint               n_symbols,
                           guint64             state,
                           GString            *out)
{
  gboolean any = FALSE;
  guint64 preempted = 0;

  if (symbols == NULL || n_symbols == 0)
    symbols = seismo_sched_state_default (&n_symbols);
  for (guint s = 0; s < n_symbols; s++)
    {
      if (strcmp (symbols[s].name, "+") == 0)
        {
          preempted = symbols[s].value;
          continue;
        }
      if (symbols[s].value != 0 && (state & symbols[s].value) == symbols[s].value)
        {
          if (any)
            g_string_append_c (out, '|');
          g_string_append (out, symbols[s].name);
          any = TRUE;
        }
    }
  if (!any)
    g_string_append_c (out, 'R');
  if (preempted && (state & preempted))
    g_string_append_c (out, '+');
}

gboolean
seismo_sched_state_parse (const SeismoSymbol *symbols,
                          guint               n_symbols,
                          const char         *text,
                          gsize               len,
                          guint64            *state)
{
  guint64 v = 0;

  if (symbols == NULL || n_symbols == 0)
    symbols = seismo_sched_state_default (&n_symbols);
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      gboolean found = FALSE;

      if (text[i] == '|' || (text[i] == 'R' && i == 0))
        continue;
      for (guint s = 0; s < n_symbols && !found; s++)
        if (symbols[s].name[0] == text[i] && symbols[s].name[1] == '\0')
          {
            v |= symbols[s].value;
            found = TRUE;
          }
      if (!found)
        return FALSE;
    }
  *state = v;
  return TRUE;
}

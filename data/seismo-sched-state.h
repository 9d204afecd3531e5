/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-types.h"

G_BEGIN_DECLS

/*
 * sched_switch prev_state, written and read as the trace's own table says: a trace.dat carries the
 * kernel's __print_flags table (4.13 has x K W P N where later kernels have P I), the text importer
 * names the letters it read. A symbol named "+" is the preempted bit. Without a table, the
 * kernel's table since 4.14 (S D T t X Z P I, + at 0x100).
 */

/* "R" when no state bit is set, else the letters joined by '|', then "+" when preempted. */
void     seismo_sched_state_format (const SeismoSymbol *symbols,
                                    guint               n_symbols,
                                    guint64             state,
                                    GString            *out);
/* "D", "S|K", "R+", "R": FALSE when a letter is not in the table. */
gboolean seismo_sched_state_parse  (const SeismoSymbol *symbols,
                                    guint               n_symbols,
                                    const char         *text,
                                    gsize               len,
                                    guint64            *state);
/* The built-in table (>= 4.14), n_symbols set. Static. */
const SeismoSymbol *seismo_sched_state_default (guint *n_symbols);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "seismo-trace.h"

G_BEGIN_DECLS

typedef enum {
  SEISMO_SEARCH_BACKWARD    = 1 << 0,
  /* Formats every event and looks in the text: the reference the field comparison must equal
   * (benchmarks and tests); slow. */
  SEISMO_SEARCH_FORMAT_TEXT = 1 << 1,
} SeismoSearchFlags;

/*
 * The event search of the window's Find bar: from `from`, the next (or previous, with
 * SEISMO_SEARCH_BACKWARD) event whose type name ("system:name"), task comm or shown text
 * (seismo_trace_event_format_into()) contains needle, ignoring case (strcasestr). Events are looked
 * at in steps k = 1..n from `from`, wrapping around the ends, so `from` itself comes last; the
 * earliest step that matches wins. *wrapped (may be NULL) says whether the match lies across an end.
 *
 * The text is not formatted: per event type the search works out once what of the text could hold
 * the needle — the print format's literal pieces (a needle inside one matches every event of the
 * type), and each shown field: interned strings are matched once per string, numbers only when the
 * needle consists of characters a number can show, names from small tables (syscalls, errno,
 * signals, symbols, states, flags) once per value. Events are then read field by field, on several
 * threads. A needle that could span the boundary between a literal piece and a field (or two
 * fields), such as "id=write" or "write = 2", is looked for in the formatted text of that type's
 * events, so results are always those of formatting every event.
 *
 * Returns the event found, or SEISMO_NO_EVENT when none matches; SEISMO_NO_EVENT with a
 * G_IO_ERROR_CANCELLED error when cancellable was cancelled. Thread-safe; the trace is not changed.
 */
SeismoEventId seismo_trace_search (SeismoTrace        *trace,
                                   const char         *needle,
                                   SeismoEventId       from,
                                   SeismoSearchFlags   flags,
                                   GCancellable       *cancellable,
                                   gboolean           *wrapped,
                                   GError            **error);

G_END_DECLS

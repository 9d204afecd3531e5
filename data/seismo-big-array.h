/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Allocation of the trace's big arrays (event columns, payload, derived intervals, indexes).
 *
 * On a virtual machine a 4 KiB page fault can cost tens of microseconds, so writing a freshly
 * allocated 100 MB column once costs more than computing what goes in it. Arrays of several MiB are
 * therefore aligned to 2 MiB and marked for transparent huge pages, which fault 512 times less often.
 *
 * What these return is ordinary malloc memory: free it with g_free(), resize it with g_realloc().
 */
gpointer _seismo_big_array_alloc     (gsize n,
                                      gsize elem_size);
/* NULL instead of aborting when the memory is not there (sizes read from a file). */
gpointer _seismo_big_array_try_alloc (gsize n,
                                      gsize elem_size);

#define _seismo_big_array_new(type, n) ((type *) _seismo_big_array_alloc ((n), sizeof (type)))

G_END_DECLS

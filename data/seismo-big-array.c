/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <stdlib.h>
#include <sys/mman.h>

#include "seismo-big-array.h"

#define HUGE_PAGE ((gsize) 2 << 20)
/* Smaller arrays take what malloc gives: a huge page would be mostly rounding. */
#define MIN_HUGE  (2 * HUGE_PAGE)
/* The last, partial huge page is completed when that adds at most 1/WASTE_DIVISOR to the array, so
 * the tail does not fall back to hundreds of small faults; otherwise only the whole huge pages inside
 * are marked. This bounds the memory huge pages add to about 3 %. */
#define WASTE_DIVISOR 32

static gpointer
big_alloc (gsize    n,
           gsize    elem_size,
           gboolean may_fail)
{
  gsize size, alloc;
  gpointer mem = NULL;

  if (elem_size != 0 && n > G_MAXSIZE / elem_size)
    {
      if (may_fail)
        return NULL;
      g_error ("%s: overflow allocating %" G_GSIZE_FORMAT "*%" G_GSIZE_FORMAT " bytes", G_STRLOC, n,
               elem_size);
    }
  size = MAX (n * elem_size, 1);
  if (size < MIN_HUGE)
    return may_fail ? g_try_malloc (size) : g_malloc (size);

  alloc = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  if (alloc - size > size / WASTE_DIVISOR)
    alloc = size;
  if (posix_memalign (&mem, HUGE_PAGE, alloc) != 0)
    {
      if (may_fail)
        return NULL;
      g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, alloc);
    }
#ifdef MADV_HUGEPAGE
  /* Advice only: without transparent huge pages this fails and small pages serve as before. */
  if ((alloc & ~(HUGE_PAGE - 1)) != 0)
    madvise (mem, alloc & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
  return mem;
}

gpointer
_seismo_big_array_alloc (gsize n,
                         gsize elem_size)
{
  return big_alloc (n, elem_size, FALSE);
}

gpointer
_seismo_big_array_try_alloc (gsize n,
                             gsize elem_size)
{
  return big_alloc (n, elem_size, TRUE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-stats.h"

G_BEGIN_DECLS

/*
 * What an analysis pane (histogram, statistics) looks at: a time range and, while a filter is in
 * force, the mask of the events it keeps. The pane keeps one and gives its worker a copy, which
 * holds a reference on the mask so the pane may change its own meanwhile.
 */
typedef struct {
  guint64  start_ns;   /* inclusive */
  guint64  end_ns;     /* inclusive; G_MAXUINT64 for no bound */
  GBytes  *mask;       /* owned; NULL: every event */
} SeismoPaneRange;

static inline void
seismo_pane_range_set (SeismoPaneRange *self,
                       guint64          start_ns,
                       guint64          end_ns,
                       GBytes          *mask)
{
  if (mask != NULL)
    g_bytes_ref (mask);
  g_clear_pointer (&self->mask, g_bytes_unref);
  self->mask = mask;
  self->start_ns = start_ns;
  self->end_ns = end_ns;
}

/* Whether the pane already looks at this: a filter applied again with the same result, or the
 * same markers, changes nothing. */
static inline gboolean
seismo_pane_range_equal (const SeismoPaneRange *self,
                         guint64                start_ns,
                         guint64                end_ns,
                         GBytes                *mask)
{
  return self->start_ns == start_ns && self->end_ns == end_ns
         && (self->mask == mask || (self->mask != NULL && mask != NULL && g_bytes_equal (self->mask, mask)));
}

/* Back to the whole trace, every event. */
static inline void
seismo_pane_range_reset (SeismoPaneRange *self)
{
  seismo_pane_range_set (self, 0, G_MAXUINT64, NULL);
}

/* For the data layer's statistics; valid while self is unchanged. */
static inline SeismoSelection
seismo_pane_range_selection (const SeismoPaneRange *self)
{
  SeismoSelection sel = {
    self->start_ns, self->end_ns,
    self->mask != NULL ? g_bytes_get_data (self->mask, NULL) : NULL
  };

  return sel;
}

G_END_DECLS

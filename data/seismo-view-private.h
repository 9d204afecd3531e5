/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-view.h"

G_BEGIN_DECLS

struct _SeismoView
{
  GObject       parent_instance;

  /* owned */
  SeismoTrace  *trace;
  char         *filter_text;   /* in force or being evaluated; never NULL */
  GBytes       *mask;          /* result in force; NULL: no filter */
  SeismoMatchSet *matches;     /* over mask */
  char         *applied;       /* never NULL */
  GCancellable *cancellable;   /* the running evaluation */
  char         *pane;
  GArray       *hidden_rows;   /* SeismoViewRow */
  GArray       *pinned_rows;   /* SeismoViewRow */
  GArray       *notes;         /* SeismoViewNote, texts owned */

  gsize         n_matched;
  double        progress;
  guint         selected;
  gint64        markers[2];    /* -1: unset */
  gint64        range[2];      /* -1: unset */
  guint64       visible[2];
  gboolean      dim;
};

enum {
  SEISMO_VIEW_PROP_0,
  SEISMO_VIEW_PROP_TRACE,
  SEISMO_VIEW_PROP_FILTER_TEXT,
  SEISMO_VIEW_PROP_FILTER_BUSY,
  SEISMO_VIEW_PROP_FILTER_PROGRESS,
  SEISMO_VIEW_PROP_MASK,
  SEISMO_VIEW_PROP_MATCHES,
  SEISMO_VIEW_PROP_N_MATCHED,
  SEISMO_VIEW_PROP_APPLIED,
  SEISMO_VIEW_PROP_DIM,
  SEISMO_VIEW_PROP_SELECTED_EVENT,
  SEISMO_VIEW_PROP_MARKER_A,
  SEISMO_VIEW_PROP_MARKER_B,
  SEISMO_VIEW_PROP_RANGE_START,
  SEISMO_VIEW_PROP_RANGE_END,
  SEISMO_VIEW_PROP_VISIBLE_START,
  SEISMO_VIEW_PROP_VISIBLE_END,
  SEISMO_VIEW_PROP_PANE,
  SEISMO_VIEW_N_PROPS
};

enum {
  SEISMO_VIEW_RESULT_CHANGED,
  SEISMO_VIEW_PARTIAL_RESULT,
  SEISMO_VIEW_MARKERS_CHANGED,
  SEISMO_VIEW_ROWS_CHANGED,
  SEISMO_VIEW_NOTES_CHANGED,
  SEISMO_VIEW_N_SIGNALS
};

extern GParamSpec *_seismo_view_properties[SEISMO_VIEW_N_PROPS];
extern guint _seismo_view_signals[SEISMO_VIEW_N_SIGNALS];

/* seismo-view-rows.c */
void _seismo_view_rows_init        (SeismoView *self);
void _seismo_view_rows_finalize    (SeismoView *self);

/* seismo-view-filter.c */
void _seismo_view_filter_retrace  (SeismoView *self);
void _seismo_view_filter_dispose  (SeismoView *self);

G_END_DECLS

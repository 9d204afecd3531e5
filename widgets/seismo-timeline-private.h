/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-timeline.h"

G_BEGIN_DECLS

struct _SeismoTimeline
{
  GtkWidget               parent_instance;

  /* owned */
  SeismoTimelineRenderer *renderer;
  GtkAdjustment          *hadjustment;
  GtkAdjustment          *vadjustment;
  GtkWidget              *row_menu;
  char                   *markers_text;
  SeismoView             *view;        /* markers, range, selection and span are kept there too */

  guint                   hscroll_policy : 1;
  guint                   vscroll_policy : 1;
  guint                   updating_adjustments : 1;
  guint                   dragging : 1;
  guint                   drag_on_ruler : 1;
  guint                   syncing_view : 1;
  double                  pointer_x;
  double                  pointer_y;
  double                  drag_start_x;
  double                  drag_start_view;
  SeismoRowKey            menu_row;
  SeismoEventId           selected;
  /* Presenter mode: the renderer works in view pixels, widget pixels / scale. */
  gboolean                presenter;
  double                  scale;
  /* A trace larger than memory: asks for the events of a view outside the loaded ones once the
   * view has rested (seismo-timeline-data.h). */
  guint                   load_window_source;
  /* The last frame's base layer, kept while its key holds (snapshot_image()). */
  GskRenderNode          *base_node;
  SeismoTimelineBaseKey   base_key;
};

/* seismo-timeline.c */
void _seismo_timeline_update_markers_text (SeismoTimeline *self);
void _seismo_timeline_view_changed        (SeismoTimeline *self);

/* seismo-timeline-view.c */
void _seismo_timeline_push_markers        (SeismoTimeline *self);
void _seismo_timeline_push_rows           (SeismoTimeline *self);

G_END_DECLS

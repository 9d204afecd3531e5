/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "seismo-timeline-data.h"

G_BEGIN_DECLS

/*
 * SeismoTimelineRenderer: the timeline's view state (visible time range, rows, markers, selection)
 * and its drawing. It draws through a SeismoCanvas, so the widget turns the same frame into
 * snapshot nodes and tests, benchmarks and `seismo-cli render` into pixels on a Cairo surface.
 * Not thread-safe: one thread owns it.
 */
typedef struct _SeismoTimelineRenderer SeismoTimelineRenderer;

typedef struct {
  float red, green, blue, alpha;
} SeismoColor;

/* What a frame is drawn onto. Rectangles arrive grouped by color. */
typedef struct {
  void (*fill_rects) (gpointer           data,
                      const SeismoColor *color,
                      const double      *xywh,
                      guint              n_rects);
  void (*text)       (gpointer           data,
                      double             x,
                      double             y,
                      PangoLayout       *layout,
                      const SeismoColor *color);
  /* For paths (dashes, triangles): a Cairo context covering the given area; ended by end_cairo. */
  cairo_t *(*begin_cairo) (gpointer      data,
                           double        x,
                           double        y,
                           double        width,
                           double        height);
  void (*end_cairo)  (gpointer           data,
                      cairo_t           *cr);
  void (*push_clip)  (gpointer           data,
                      double             x,
                      double             y,
                      double             width,
                      double             height);
  void (*pop_clip)   (gpointer           data);
} SeismoCanvas;

typedef enum {
  SEISMO_ROW_NONE = 0,
  SEISMO_ROW_RULER,
  SEISMO_ROW_CPU_GROUP,
  SEISMO_ROW_CPU,
  SEISMO_ROW_PROCESS,
  SEISMO_ROW_TASK,
} SeismoRowKind;

typedef struct {
  SeismoRowKind kind;
  guint         id;     /* CPU number, process index, task id */
} SeismoRowKey;

/* Where a point falls. */
typedef struct {
  SeismoRowKey row;
  gboolean     in_labels;    /* in the label column on the left */
  gboolean     on_expander;  /* on a group's expander arrow */
  double       row_y;        /* top of the row in widget coordinates */
  double       row_height;
} SeismoTimelineHit;

#define SEISMO_TIMELINE_LABEL_WIDTH  200
#define SEISMO_TIMELINE_RULER_HEIGHT 36

SeismoTimelineRenderer *seismo_timeline_renderer_new             (SeismoTimelineData     *data);
void                    seismo_timeline_renderer_free            (SeismoTimelineRenderer *self);
/* Borrowed. */
SeismoTimelineData     *seismo_timeline_renderer_get_data        (SeismoTimelineRenderer *self);
/* Replaces the data (a live trace grew): keeps the view, markers and row states that still apply. */
void                    seismo_timeline_renderer_set_data        (SeismoTimelineRenderer *self,
                                                                  SeismoTimelineData     *data);

void                    seismo_timeline_renderer_set_size        (SeismoTimelineRenderer *self,
                                                                  int                     width,
                                                                  int                     height);
void                    seismo_timeline_renderer_set_dark        (SeismoTimelineRenderer *self,
                                                                  gboolean                dark);
/* The context text is laid out with (the widget's); without one, a Cairo font map's. */
void                    seismo_timeline_renderer_set_pango_context (SeismoTimelineRenderer *self,
                                                                  PangoContext           *context);

/* The visible range: start relative to the trace start, in ns, and the scale. Clamped. */
void                    seismo_timeline_renderer_set_view        (SeismoTimelineRenderer *self,
                                                                  double                  start_ns,
                                                                  double                  ns_per_px);
double                  seismo_timeline_renderer_get_view_start  (SeismoTimelineRenderer *self);
double                  seismo_timeline_renderer_get_ns_per_px   (SeismoTimelineRenderer *self);
/* FALSE when the data is a window of a trace larger than memory and the view reaches past the
 * loaded events (seismo-timeline-lod.c draws those parts from the file summary). */
gboolean                seismo_timeline_renderer_view_loaded     (SeismoTimelineRenderer *self);
/* ns per pixel that shows the whole trace; the most zoomed-out scale. */
double                  seismo_timeline_renderer_get_fit_ns_per_px (SeismoTimelineRenderer *self);
double                  seismo_timeline_renderer_get_duration    (SeismoTimelineRenderer *self);
void                    seismo_timeline_renderer_fit_all         (SeismoTimelineRenderer *self);
/* Multiplies the scale by factor (< 1 zooms in), keeping the time under x in place. */
void                    seismo_timeline_renderer_zoom            (SeismoTimelineRenderer *self,
                                                                  double                  factor,
                                                                  double                  x);
void                    seismo_timeline_renderer_zoom_to         (SeismoTimelineRenderer *self,
                                                                  guint64                 start_ns,
                                                                  guint64                 end_ns);
/* Pans so that an absolute time is in view (centered when it was not). */
void                    seismo_timeline_renderer_reveal_time     (SeismoTimelineRenderer *self,
                                                                  guint64                 time_ns);
int                     seismo_timeline_renderer_get_area_width  (SeismoTimelineRenderer *self);

/* Rows scroll below the ruler and the pinned rows. */
void                    seismo_timeline_renderer_set_scroll_y    (SeismoTimelineRenderer *self,
                                                                  double                  y);
double                  seismo_timeline_renderer_get_scroll_y    (SeismoTimelineRenderer *self);
/* Height of the scrolled rows and of the part of the widget that shows them. */
int                     seismo_timeline_renderer_get_rows_height (SeismoTimelineRenderer *self);
int                     seismo_timeline_renderer_get_rows_viewport (SeismoTimelineRenderer *self);
/* Scrolls rows so that the task's row is visible; FALSE when the task has no visible row. */
gboolean                seismo_timeline_renderer_reveal_task     (SeismoTimelineRenderer *self,
                                                                  SeismoTaskId            task);

/* Coordinates (widget pixels) and absolute times. */
double                  seismo_timeline_renderer_x_to_ns         (SeismoTimelineRenderer *self,
                                                                  double                  x);
double                  seismo_timeline_renderer_ns_to_x         (SeismoTimelineRenderer *self,
                                                                  guint64                 time_ns);

/* Markers and ranges: absolute ns; unset with the clear functions. */
void                    seismo_timeline_renderer_set_marker      (SeismoTimelineRenderer *self,
                                                                  guint                   which,
                                                                  guint64                 time_ns);
void                    seismo_timeline_renderer_clear_marker    (SeismoTimelineRenderer *self,
                                                                  guint                   which);
gboolean                seismo_timeline_renderer_get_marker      (SeismoTimelineRenderer *self,
                                                                  guint                   which,
                                                                  guint64                *time_ns);
void                    seismo_timeline_renderer_set_range       (SeismoTimelineRenderer *self,
                                                                  guint64                 start_ns,
                                                                  guint64                 end_ns);
void                    seismo_timeline_renderer_clear_range     (SeismoTimelineRenderer *self);
gboolean                seismo_timeline_renderer_get_range       (SeismoTimelineRenderer *self,
                                                                  guint64                *start_ns,
                                                                  guint64                *end_ns);
void                    seismo_timeline_renderer_set_selected_event (SeismoTimelineRenderer *self,
                                                                  SeismoEventId           event);
void                    seismo_timeline_renderer_set_hover_y     (SeismoTimelineRenderer *self,
                                                                  double                  y);

/* Rows */
gboolean                seismo_timeline_renderer_hit             (SeismoTimelineRenderer *self,
                                                                  double                  x,
                                                                  double                  y,
                                                                  SeismoTimelineHit      *hit);
/* The y of a row's top in widget coordinates; FALSE when the row is not shown. */
/* The task whose wakeups are drawn as arrows (waker → wakeup → ran); set with the selected event. */
void                    seismo_timeline_renderer_set_focus_task  (SeismoTimelineRenderer *self,
                                                                  SeismoTaskId            task);
SeismoTaskId            seismo_timeline_renderer_get_focus_task  (SeismoTimelineRenderer *self);
/* A critical path (SeismoPathSegment array, referenced) highlighted across the task rows. */
void                    seismo_timeline_renderer_set_critical_path (SeismoTimelineRenderer *self,
                                                                  GArray                 *path);
gboolean                seismo_timeline_renderer_row_y           (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key,
                                                                  double                 *y,
                                                                  double                 *height);
gboolean                seismo_timeline_renderer_get_collapsed   (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key);
void                    seismo_timeline_renderer_set_collapsed   (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key,
                                                                  gboolean                collapsed);
gboolean                seismo_timeline_renderer_get_pinned      (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key);
void                    seismo_timeline_renderer_set_pinned      (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key,
                                                                  gboolean                pinned);
void                    seismo_timeline_renderer_hide_row        (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key);
guint                   seismo_timeline_renderer_get_n_hidden    (SeismoTimelineRenderer *self);
void                    seismo_timeline_renderer_show_all_rows   (SeismoTimelineRenderer *self);
/* Moves a row among its siblings (delta -1: up, +1: down). */
void                    seismo_timeline_renderer_move_row        (SeismoTimelineRenderer *self,
                                                                  SeismoRowKey            key,
                                                                  int                     delta);

/* The event nearest to x on the row under y, within a few pixels; SEISMO_NO_EVENT if none. */
SeismoEventId           seismo_timeline_renderer_event_at        (SeismoTimelineRenderer *self,
                                                                  double                  x,
                                                                  double                  y);
/* A description of what is under the point (intervals, events with fields). Caller owns it. */
char                   *seismo_timeline_renderer_describe_at     (SeismoTimelineRenderer *self,
                                                                  double                  x,
                                                                  double                  y);

/* Draws one frame of the current size. */
void                    seismo_timeline_renderer_draw            (SeismoTimelineRenderer *self,
                                                                  const SeismoCanvas     *canvas,
                                                                  gpointer                canvas_data);
void                    seismo_timeline_renderer_draw_cairo      (SeismoTimelineRenderer *self,
                                                                  cairo_t                *cr);

/*
 * A frame is two layers: the base (rows, grid, ruler) and, over it, the overlays (range,
 * markers, the focused task's wakeups, the critical path, notes, the selected event). A change of
 * the overlays alone (a selection, a marker moved) can keep the base's pixels: equal base keys
 * draw the same base. draw_cairo() draws both.
 */
typedef struct {
  guint64  renderer;
  guint64  serial;
  guint    pango_serial;
  int      width;
  int      height;
  gboolean dark;
  double   view_start;
  double   ns_per_px;
  double   scroll_y;
  int      hover_row;      /* the scrolled row under the pointer, lit; -1: none */
  int      hover_pinned;   /* the same among the pinned rows */
  gboolean has_marker[2];
  guint64  marker[2];
  gboolean has_range;
  guint64  range[2];
} SeismoTimelineBaseKey;

void                    seismo_timeline_renderer_get_base_key    (SeismoTimelineRenderer      *self,
                                                                  SeismoTimelineBaseKey       *key);
gboolean                seismo_timeline_base_key_equal           (const SeismoTimelineBaseKey *a,
                                                                  const SeismoTimelineBaseKey *b);
void                    seismo_timeline_renderer_draw_base_cairo (SeismoTimelineRenderer *self,
                                                                  cairo_t                *cr);
void                    seismo_timeline_renderer_draw_overlays_cairo (SeismoTimelineRenderer *self,
                                                                      cairo_t                *cr);

/* "1.234 ms": a duration for people. Caller owns it. */
char                   *seismo_format_duration                   (double                  ns);
/* "+1.234567 s": a time relative to the trace start. Caller owns it. */
char                   *seismo_format_time                       (double                  ns,
                                                                  double                  resolution_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoTimelineRenderer, seismo_timeline_renderer_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-timeline-data-private.h"
#include "seismo-timeline-renderer.h"

G_BEGIN_DECLS

enum {
  ROW_FLAG_COLLAPSED = 1 << 0,
  ROW_FLAG_HIDDEN    = 1 << 1,
  ROW_FLAG_PINNED    = 1 << 2,
};

#define ROW_HEIGHT_GROUP 24
#define ROW_HEIGHT_CPU   24
#define ROW_HEIGHT_PROC  24
#define ROW_HEIGHT_TASK  30
#define ROW_HEIGHT_CALL  12   /* one nesting level of function calls in a task row */

/* Palette: task hues, lighter syscall hues, then the named colors. */
enum {
  C_TASK = 0,
  C_SYSCALL = C_TASK + SEISMO_TIMELINE_N_TASK_COLORS,
  C_BG = C_SYSCALL + SEISMO_TIMELINE_N_TASK_COLORS,
  C_LABEL_BG,
  C_RULER_BG,
  C_GROUP_BG,
  C_HOVER,
  C_SEPARATOR,
  C_GRID,
  C_TEXT,
  C_TEXT_DIM,
  C_TEXT_ON_BOX,
  C_TICK,
  C_WAKEUP,
  C_IRQ,
  C_SOFTIRQ,
  C_LOST,
  C_SYSCALL_ERROR,
  C_SYSCALL_DENSE,
  C_MARKER_A,
  C_MARKER_B,
  C_RANGE,
  C_RANGE_EDGE,
  C_SELECTED,
  C_PIN,
  C_ON_ACCENT,
  C_STATE_RUNNING,
  C_STATE_RUNNABLE,
  C_STATE_SLEEPING,
  C_STATE_D,
  C_STATE_STOPPED,
  C_STATE_DEAD,
  C_PATH,
  C_PATH_EDGE,
  C_ARROW,
  C_N
};

/* One laid-out row. y is from the top of its area (pinned rows or scrolled rows). */
typedef struct {
  SeismoRowKind kind;
  guint         id;
  int           y;
  int           height;
  guint8        depth;
  gboolean      pinned;
} SeismoTimelineRow;

typedef struct {
  double      x;
  double      y;
  double      max_width;
  const char *text;
  guint       color;
  gboolean    small;
} SeismoTextItem;

struct _SeismoTimelineRenderer
{
  guint64               id;             /* unique per renderer: base keys of two never match */
  guint64               base_serial;    /* bumped when the data or the rows' layout change */

  /* owned */
  SeismoTimelineData   *data;
  PangoContext         *pango;
  PangoLayout          *layout;
  PangoFontDescription *font;
  PangoFontDescription *small_font;
  GArray               *buckets[C_N];   /* double x, y, w, h */
  GArray               *texts;          /* SeismoTextItem */
  GStringChunk         *strings;        /* this frame's text */
  GArray               *rows;           /* SeismoTimelineRow, scrolled */
  GArray               *pinned_rows;    /* SeismoTimelineRow */
  GArray               *pinned_keys;    /* SeismoRowKey, in pin order */
  guint8               *cpu_flags;
  guint8               *proc_flags;
  guint8               *task_flags;
  guint8                cpu_group_flags;
  guint                *cpu_order;
  guint                *proc_order;
  SeismoTaskId         *task_order;     /* per process, sliced like data->process_tasks */
  gsize                *task_order_off; /* n_processes + 1 */
  gint16               *syscall_width;  /* label widths, -1 until measured */
  gint16               *task_width;
  GHashTable           *func_width;     /* function name id → label width */

  int                   width;
  int                   height;
  gboolean              dark;
  SeismoColor           palette[C_N];

  double                view_start;     /* ns from the trace start */
  double                ns_per_px;
  double                scroll_y;
  double                hover_y;

  gboolean              has_marker[2];
  guint64               marker[2];
  gboolean              has_range;
  guint64               range[2];
  SeismoEventId         selected;

  gboolean              rows_dirty;
  int                   rows_height;
  int                   pinned_height;

  GArray               *notes;          /* SeismoTimelineNote; owned (seismo-timeline-notes.c) */

  /* seismo-timeline-states.c */
  SeismoTaskId          focus_task;     /* its wakeups get arrows; SEISMO_NO_TASK: none */
  GArray               *critical_path;  /* SeismoPathSegment, owned; NULL: none */
};

void   _seismo_timeline_renderer_init_rows    (SeismoTimelineRenderer *self,
                                               SeismoTimelineRenderer *previous);
void   _seismo_timeline_renderer_clear_rows   (SeismoTimelineRenderer *self);
void   _seismo_timeline_renderer_layout_rows  (SeismoTimelineRenderer *self);
/* Top of the scrolled rows, in widget coordinates. */
int    _seismo_timeline_renderer_rows_top     (SeismoTimelineRenderer *self);
const char *_seismo_timeline_row_label        (SeismoTimelineRenderer *self,
                                               const SeismoTimelineRow *row,
                                               char                   *buf,
                                               gsize                   size);
PangoLayout *_seismo_timeline_renderer_layout (SeismoTimelineRenderer *self,
                                               const char             *text,
                                               gboolean                small);
/* A rectangle of one palette color, merged with its neighbour when they touch. */
void   _seismo_timeline_renderer_emit_rect    (SeismoTimelineRenderer *self,
                                               guint                   color,
                                               double                  x,
                                               double                  y,
                                               double                  w,
                                               double                  h);
/* seismo-timeline-states.c: the state colors; a task's state lane; the focused task's wakeups and
 * the critical path, drawn with the overlays. */
void   _seismo_timeline_renderer_state_palette (SeismoTimelineRenderer *self);
void   _seismo_timeline_renderer_draw_states  (SeismoTimelineRenderer *self,
                                               SeismoTaskId            task,
                                               double                  y,
                                               double                  h);
void   _seismo_timeline_renderer_describe_state (SeismoTimelineRenderer *self,
                                               SeismoTaskId            task,
                                               guint64                 t,
                                               GString                *out);
void   _seismo_timeline_renderer_draw_wait_chain (SeismoTimelineRenderer *self,
                                               const SeismoCanvas     *canvas,
                                               gpointer                canvas_data);
/* seismo-timeline-lod.c: a row outside the loaded events of a trace larger than memory, from its
 * file summary. */
void   _seismo_timeline_renderer_draw_lod     (SeismoTimelineRenderer *self,
                                               const SeismoTimelineRow *row,
                                               double                  y,
                                               double                  h);
/* seismo-timeline-notes.c: the notes' flags, drawn with the overlays. */
void   _seismo_timeline_renderer_draw_notes   (SeismoTimelineRenderer *self,
                                               const SeismoCanvas     *canvas,
                                               gpointer                canvas_data);

static inline guint64
_seismo_timeline_x_to_abs (SeismoTimelineRenderer *self,
                           double                  x)
{
  double rel = self->view_start + (x - SEISMO_TIMELINE_LABEL_WIDTH) * self->ns_per_px;
  guint64 start = self->data->start_ns;

  if (rel >= 0)
    return start + (guint64) rel;
  return (guint64) -rel > start ? 0 : start - (guint64) -rel;
}

static inline double
_seismo_timeline_abs_to_x (SeismoTimelineRenderer *self,
                           guint64                 t)
{
  double rel = t >= self->data->start_ns ? (double) (t - self->data->start_ns)
                                         : -(double) (self->data->start_ns - t);

  return SEISMO_TIMELINE_LABEL_WIDTH + (rel - self->view_start) / self->ns_per_px;
}

G_END_DECLS

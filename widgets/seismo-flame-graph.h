/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "seismo-timeline-export.h"

G_BEGIN_DECLS

/*
 * SeismoFlameGraph: a flame graph (root at the bottom) or icicle graph (root at the top) of call
 * stacks: its nodes (one per distinct call path, with a total and a self weight), the view state
 * (size, orientation, the node zoomed into, the search) and its drawing on a Cairo context. The
 * pane and `seismo-cli render --flamegraph` draw with it, so a slide looks like the window; tests
 * check its layout without a display. GTK-free. Not thread-safe: a worker may build one, then
 * hand it to one thread.
 *
 * Layout: node n spans [x0(n), x1(n)) of the root's width, children left to right by weight
 * (heaviest first), each child's share of its parent's width being its total weight. Zooming into
 * a node stretches its span to the whole width; its ancestors stay drawn (faded) under it.
 */
typedef struct _SeismoFlameGraph SeismoFlameGraph;

#define SEISMO_FLAME_ROOT       0u
#define SEISMO_FLAME_NO_NODE    G_MAXUINT
#define SEISMO_FLAME_ROW_HEIGHT 20

typedef enum {
  SEISMO_FLAME_WEIGHT_COUNT,   /* events */
  SEISMO_FLAME_WEIGHT_TIME,    /* ns: syscall durations, time off CPU */
} SeismoFlameWeight;

typedef enum {
  SEISMO_FLAME_SPACE_NONE,     /* the root */
  SEISMO_FLAME_SPACE_KERNEL,
  SEISMO_FLAME_SPACE_USER,
} SeismoFlameSpace;

/* A node. Strings live as long as the graph; NULL when unknown. */
typedef struct {
  const char       *name;       /* function (or what names the frame) */
  const char       *module;
  const char       *file;
  guint32           line;
  guint32           frame;      /* the trace's frame id, for filters; 0 for the root */
  SeismoFlameSpace  space;
  gboolean          inlined;
  guint             parent;     /* SEISMO_FLAME_NO_NODE for the root */
  guint             depth;      /* 0 for the root */
  double            total;      /* this path and every path through it */
  double            self;       /* this path as the innermost frame */
} SeismoFlameNode;

/* A new graph with only its root, named root_name ("all"). */
SeismoFlameGraph *seismo_flame_graph_new             (const char            *root_name,
                                                      SeismoFlameWeight      weight);
void              seismo_flame_graph_free            (SeismoFlameGraph      *self);

/* Building. Adds a child of parent (weights 0) and returns it; add_weight() adds weight to a
 * node's self weight and to the total of it and its ancestors. Strings are copied. finish() sorts
 * and lays out; call it once, after the last add, before any query. */
guint             seismo_flame_graph_add_node        (SeismoFlameGraph      *self,
                                                      guint                  parent,
                                                      const SeismoFlameNode *info);
/* The child of parent named as info names it (name, module, space, inlined), added when missing. */
guint             seismo_flame_graph_child           (SeismoFlameGraph      *self,
                                                      guint                  parent,
                                                      const SeismoFlameNode *info);
void              seismo_flame_graph_add_weight      (SeismoFlameGraph      *self,
                                                      guint                  node,
                                                      double                 weight);
void              seismo_flame_graph_finish          (SeismoFlameGraph      *self);

guint             seismo_flame_graph_get_n_nodes     (SeismoFlameGraph      *self);
const SeismoFlameNode *seismo_flame_graph_get_node   (SeismoFlameGraph      *self,
                                                      guint                  node);
SeismoFlameWeight seismo_flame_graph_get_weight      (SeismoFlameGraph      *self);
/* Rows needed to show every level below the root, root included. */
guint             seismo_flame_graph_get_depth       (SeismoFlameGraph      *self);
/* The child of parent with this name (the heaviest when several), SEISMO_FLAME_NO_NODE for none:
 * to find a zoomed path again in a rebuilt graph. */
guint             seismo_flame_graph_find_child      (SeismoFlameGraph      *self,
                                                      guint                  parent,
                                                      const char            *name);
/* Children in drawing order (heaviest first): SEISMO_FLAME_NO_NODE past the last. */
guint             seismo_flame_graph_first_child     (SeismoFlameGraph      *self,
                                                      guint                  node);
guint             seismo_flame_graph_next_sibling    (SeismoFlameGraph      *self,
                                                      guint                  node);
/* The span [x0, x1) of a node as fractions of the root's width (unzoomed). */
void              seismo_flame_graph_node_span       (SeismoFlameGraph      *self,
                                                      guint                  node,
                                                      double                *x0,
                                                      double                *x1);

/* View state */
void              seismo_flame_graph_set_size        (SeismoFlameGraph      *self,
                                                      double                 width,
                                                      double                 height);
/* TRUE: icicle (root at the top); FALSE: flame (root at the bottom). */
void              seismo_flame_graph_set_icicle      (SeismoFlameGraph      *self,
                                                      gboolean               icicle);
gboolean          seismo_flame_graph_get_icicle      (SeismoFlameGraph      *self);
void              seismo_flame_graph_set_dark        (SeismoFlameGraph      *self,
                                                      gboolean               dark);
/* The node whose span fills the width; SEISMO_FLAME_ROOT for none. */
void              seismo_flame_graph_set_zoom        (SeismoFlameGraph      *self,
                                                      guint                  node);
guint             seismo_flame_graph_get_zoom        (SeismoFlameGraph      *self);
/* Highlights nodes whose name, module or file contains text (any case); NULL or "" for none.
 * Returns the matched share of the zoomed node's weight, 0 to 1: paths through a matching frame,
 * each counted once. */
double            seismo_flame_graph_set_search      (SeismoFlameGraph      *self,
                                                      const char            *text);
gboolean          seismo_flame_graph_node_matches    (SeismoFlameGraph      *self,
                                                      guint                  node);
/* The node under the hovered one, for highlighting; SEISMO_FLAME_NO_NODE for none. */
void              seismo_flame_graph_set_hover       (SeismoFlameGraph      *self,
                                                      guint                  node);

/* Layout in the current view. FALSE when the node is not shown (outside the zoom, or thinner
 * than a pixel). */
gboolean          seismo_flame_graph_node_rect       (SeismoFlameGraph      *self,
                                                      guint                  node,
                                                      double                *x,
                                                      double                *y,
                                                      double                *width,
                                                      double                *height);
guint             seismo_flame_graph_node_at         (SeismoFlameGraph      *self,
                                                      double                 x,
                                                      double                 y);
/* Height the graph needs at the current size: its rows. */
double            seismo_flame_graph_get_content_height (SeismoFlameGraph   *self);

/* "1,234 events" or "12.5 ms". Newly allocated. */
char             *seismo_flame_graph_format_weight   (SeismoFlameGraph      *self,
                                                      double                 weight);
/* What a tooltip says about a node: function, module, file:line, weight and shares. Pango
 * markup, newly allocated. */
char             *seismo_flame_graph_describe_node   (SeismoFlameGraph      *self,
                                                      guint                  node);

/* Draws the graph in the current view at cr's origin, in a set_size() area, the hovered node
 * outlined. */
void              seismo_flame_graph_draw            (SeismoFlameGraph      *self,
                                                      cairo_t               *cr);
/* Only the hovered node's outline: over a picture of the graph drawn without it (the pane keeps
 * one, so moving the pointer does not draw every frame again). */
void              seismo_flame_graph_draw_hover      (SeismoFlameGraph      *self,
                                                      cairo_t               *cr);
/* The graph as a figure (title above, all rows), width CSS pixels wide, written atomically. */
gboolean          seismo_flame_graph_export_to_file  (SeismoFlameGraph      *self,
                                                      SeismoImageFormat      format,
                                                      int                    width,
                                                      const char            *title,
                                                      const char            *path,
                                                      GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoFlameGraph, seismo_flame_graph_free)

G_END_DECLS

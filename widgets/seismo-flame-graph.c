/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-render"

#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "seismo-cairo-private.h"
#include "seismo-flame-graph.h"
#include "seismo-timeline-renderer.h"

#define TITLE_HEIGHT  34
#define LABEL_PADDING 4
/* Below this width a node is not drawn, nor anything above it (its children are narrower). */
#define MIN_NODE_WIDTH 1.0
/* Below this width a node has no label: a few letters would not say what it is. */
#define MIN_LABEL_WIDTH 32

typedef struct {
  SeismoFlameNode info;
  double          x0, x1;         /* span, fractions of the root's width */
  guint           first_child;
  guint           next_sibling;
  gboolean        matched;
  /* Casefolded name, module and file for search, made once by finish() (on the builder's thread,
   * so a keystroke in the search costs only the comparisons). */
  const char     *folded[3];
} Node;

typedef struct {
  guint         parent;
  const char   *name;     /* interned: compared by pointer */
  const char   *module;
  SeismoFlameSpace space;
  gboolean      inlined;
} ChildKey;

struct _SeismoFlameGraph
{
  GArray            *nodes;      /* Node; a parent always before its children */
  GStringChunk      *strings;
  GHashTable        *children;   /* ChildKey* → node + 1, while building */
  SeismoFlameWeight  weight;
  guint              depth;      /* rows, root included */
  gboolean           finished;

  double             width, height;
  gboolean           icicle;
  gboolean           dark;
  guint              zoom;
  guint              hover;
  gboolean           searching;
};

static inline Node *
node_at_index (SeismoFlameGraph *self,
               guint             node)
{
  return &g_array_index (self->nodes, Node, node);
}

static guint
child_key_hash (gconstpointer p)
{
  const ChildKey *k = p;

  return g_direct_hash (k->name) ^ (g_direct_hash (k->module) * 31) ^ (k->parent * 2654435761u)
         ^ ((guint) k->space << 1) ^ (guint) k->inlined;
}

static gboolean
child_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const ChildKey *x = a, *y = b;

  return x->parent == y->parent && x->name == y->name && x->module == y->module
         && x->space == y->space && x->inlined == y->inlined;
}

static const char *
intern (SeismoFlameGraph *self,
        const char       *s)
{
  return s != NULL ? g_string_chunk_insert_const (self->strings, s) : NULL;
}

SeismoFlameGraph *
seismo_flame_graph_new (const char        *root_name,
                        SeismoFlameWeight  weight)
{
  SeismoFlameGraph *self = g_new0 (SeismoFlameGraph, 1);
  Node root = { { 0 } };

  self->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  self->strings = g_string_chunk_new (4096);
  self->children = g_hash_table_new_full (child_key_hash, child_key_equal, g_free, NULL);
  self->weight = weight;
  self->width = 800;
  self->height = 400;
  self->hover = SEISMO_FLAME_NO_NODE;
  root.info.name = intern (self, root_name != NULL ? root_name : "all");
  root.info.parent = SEISMO_FLAME_NO_NODE;
  root.first_child = root.next_sibling = SEISMO_FLAME_NO_NODE;
  g_array_append_val (self->nodes, root);
  self->depth = 1;
  return self;
}

void
seismo_flame_graph_free (SeismoFlameGraph *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->nodes);
  g_string_chunk_free (self->strings);
  g_clear_pointer (&self->children, g_hash_table_unref);
  g_free (self);
}

guint
seismo_flame_graph_add_node (SeismoFlameGraph      *self,
                             guint                  parent,
                             const SeismoFlameNode *info)
{
  Node node = { { 0 } };
  guint id;

  g_return_val_if_fail (self != NULL && info != NULL, SEISMO_FLAME_NO_NODE);
  g_return_val_if_fail (!self->finished, SEISMO_FLAME_NO_NODE);
  g_return_val_if_fail (parent < self->nodes->len, SEISMO_FLAME_NO_NODE);

  node.info = *info;
  node.info.name = intern (self, info->name != NULL ? info->name : "?");
  node.info.module = intern (self, info->module);
  node.info.file = intern (self, info->file);
  node.info.parent = parent;
  node.info.depth = node_at_index (self, parent)->info.depth + 1;
  node.info.total = node.info.self = 0;
  node.first_child = node.next_sibling = SEISMO_FLAME_NO_NODE;
  id = self->nodes->len;
  g_array_append_val (self->nodes, node);
  self->depth = MAX (self->depth, node.info.depth + 1);
  return id;
}

guint
seismo_flame_graph_child (SeismoFlameGraph      *self,
                          guint                  parent,
                          const SeismoFlameNode *info)
{
  ChildKey key;
  gpointer found;
  guint id;

  g_return_val_if_fail (self != NULL && info != NULL, SEISMO_FLAME_NO_NODE);
  g_return_val_if_fail (!self->finished, SEISMO_FLAME_NO_NODE);

  key.parent = parent;
  key.name = intern (self, info->name != NULL ? info->name : "?");
  key.module = intern (self, info->module);
  key.space = info->space;
  key.inlined = info->inlined;
  found = g_hash_table_lookup (self->children, &key);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  id = seismo_flame_graph_add_node (self, parent, info);
  if (id != SEISMO_FLAME_NO_NODE)
    g_hash_table_insert (self->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id + 1));
  return id;
}

void
seismo_flame_graph_add_weight (SeismoFlameGraph *self,
                               guint             node,
                               double            weight)
{
  g_return_if_fail (self != NULL && node < self->nodes->len);
  g_return_if_fail (!self->finished);

  node_at_index (self, node)->info.self += weight;
  for (guint n = node; n != SEISMO_FLAME_NO_NODE; n = node_at_index (self, n)->info.parent)
    node_at_index (self, n)->info.total += weight;
}

static int
compare_siblings (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  SeismoFlameGraph *self = user_data;
  const Node *x = node_at_index (self, *(const guint *) a);
  const Node *y = node_at_index (self, *(const guint *) b);

  if (x->info.parent != y->info.parent)
    return x->info.parent < y->info.parent ? -1 : 1;
  /* Heaviest first, so the widest paths line up on the left; then by name, so equal weights
   * draw the same way every time. */
  if (x->info.total != y->info.total)
    return x->info.total > y->info.total ? -1 : 1;
  return strcmp (x->info.name, y->info.name);
}

void
seismo_flame_graph_finish (SeismoFlameGraph *self)
{
  guint n = self->nodes->len;
  g_autofree guint *order = NULL;
  double root_total;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->finished);

  self->finished = TRUE;
  g_clear_pointer (&self->children, g_hash_table_unref);
  order = g_new (guint, n);
  for (guint i = 1; i < n; i++)
    order[i - 1] = i;
  g_qsort_with_data (order, (gint) n - 1, sizeof (guint), compare_siblings, self);
  /* Siblings are consecutive in order: link them, last first, so each list keeps the order. */
  for (guint i = n - 1; i-- > 0;)
    {
      Node *child = node_at_index (self, order[i]);
      Node *parent = node_at_index (self, child->info.parent);

      child->next_sibling = parent->first_child;
      parent->first_child = order[i];
    }
  for (guint i = 0; i < n; i++)
    {
      Node *node = node_at_index (self, i);
      const char *fields[3] = { node->info.name, node->info.module, node->info.file };

      for (guint f = 0; f < 3; f++)
        if (fields[f] != NULL)
          {
            g_autofree char *folded = g_utf8_casefold (fields[f], -1);

            node->folded[f] = intern (self, folded);
          }
    }
  root_total = node_at_index (self, SEISMO_FLAME_ROOT)->info.total;
  node_at_index (self, SEISMO_FLAME_ROOT)->x0 = 0;
  node_at_index (self, SEISMO_FLAME_ROOT)->x1 = 1;
  /* Parents come before their children, so one pass in index order places everything. */
  for (guint i = 0; i < n; i++)
    {
      Node *parent = node_at_index (self, i);
      double x = parent->x0;

      for (guint c = parent->first_child; c != SEISMO_FLAME_NO_NODE; c = node_at_index (self, c)->next_sibling)
        {
          Node *child = node_at_index (self, c);

          child->x0 = x;
          x += root_total > 0 ? child->info.total / root_total : 0;
          child->x1 = MIN (x, parent->x1);
        }
    }
}

guint
seismo_flame_graph_get_n_nodes (SeismoFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->nodes->len;
}

const SeismoFlameNode *
seismo_flame_graph_get_node (SeismoFlameGraph *self,
                             guint             node)
{
  g_return_val_if_fail (self != NULL, NULL);
  return node < self->nodes->len ? &node_at_index (self, node)->info : NULL;
}

SeismoFlameWeight
seismo_flame_graph_get_weight (SeismoFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, SEISMO_FLAME_WEIGHT_COUNT);
  return self->weight;
}

guint
seismo_flame_graph_get_depth (SeismoFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->depth;
}

guint
seismo_flame_graph_find_child (SeismoFlameGraph *self,
                               guint             parent,
                               const char       *name)
{
  g_return_val_if_fail (self != NULL && self->finished && name != NULL, SEISMO_FLAME_NO_NODE);
  if (parent >= self->nodes->len)
    return SEISMO_FLAME_NO_NODE;
  for (guint c = node_at_index (self, parent)->first_child; c != SEISMO_FLAME_NO_NODE;
       c = node_at_index (self, c)->next_sibling)
    if (g_str_equal (node_at_index (self, c)->info.name, name))
      return c;
  return SEISMO_FLAME_NO_NODE;
}

guint
seismo_flame_graph_first_child (SeismoFlameGraph *self,
                                guint             node)
{
  g_return_val_if_fail (self != NULL && self->finished, SEISMO_FLAME_NO_NODE);
  return node < self->nodes->len ? node_at_index (self, node)->first_child : SEISMO_FLAME_NO_NODE;
}

guint
seismo_flame_graph_next_sibling (SeismoFlameGraph *self,
                                 guint             node)
{
  g_return_val_if_fail (self != NULL && self->finished, SEISMO_FLAME_NO_NODE);
  return node < self->nodes->len ? node_at_index (self, node)->next_sibling : SEISMO_FLAME_NO_NODE;
}

void
seismo_flame_graph_node_span (SeismoFlameGraph *self,
                              guint             node,
                              double           *x0,
                              double           *x1)
{
  g_return_if_fail (self != NULL && self->finished && node < self->nodes->len);
  *x0 = node_at_index (self, node)->x0;
  *x1 = node_at_index (self, node)->x1;
}

/* View state */

void
seismo_flame_graph_set_size (SeismoFlameGraph *self,
                             double            width,
                             double            height)
{
  g_return_if_fail (self != NULL);
  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
}

void
seismo_flame_graph_set_icicle (SeismoFlameGraph *self,
                               gboolean          icicle)
{
  g_return_if_fail (self != NULL);
  self->icicle = !!icicle;
}

gboolean
seismo_flame_graph_get_icicle (SeismoFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->icicle;
}

void
seismo_flame_graph_set_dark (SeismoFlameGraph *self,
                             gboolean          dark)
{
  g_return_if_fail (self != NULL);
  self->dark = !!dark;
}

void
seismo_flame_graph_set_zoom (SeismoFlameGraph *self,
                             guint             node)
{
  g_return_if_fail (self != NULL);
  self->zoom = node < self->nodes->len ? node : SEISMO_FLAME_ROOT;
}

guint
seismo_flame_graph_get_zoom (SeismoFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, SEISMO_FLAME_ROOT);
  return self->zoom;
}

void
seismo_flame_graph_set_hover (SeismoFlameGraph *self,
                              guint             node)
{
  g_return_if_fail (self != NULL);
  self->hover = node < self->nodes->len ? node : SEISMO_FLAME_NO_NODE;
}

static gboolean
contains (const char *folded,
          const char *needle)
{
  return folded != NULL && strstr (folded, needle) != NULL;
}

static gboolean
is_ancestor (SeismoFlameGraph *self,
             guint             ancestor,
             guint             node)
{
  for (guint n = node; n != SEISMO_FLAME_NO_NODE; n = node_at_index (self, n)->info.parent)
    if (n == ancestor)
      return TRUE;
  return FALSE;
}

/* Sum of the matched paths under node, each counted at its outermost matching frame. */
static double
matched_weight (SeismoFlameGraph *self,
                guint             node)
{
  g_autoptr(GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  double sum = 0;

  g_array_append_val (todo, node);
  while (todo->len > 0)
    {
      guint n = g_array_index (todo, guint, todo->len - 1);
      Node *p = node_at_index (self, n);

      g_array_set_size (todo, todo->len - 1);
      if (p->matched)
        {
          sum += p->info.total;
          continue;
        }
      for (guint c = p->first_child; c != SEISMO_FLAME_NO_NODE; c = node_at_index (self, c)->next_sibling)
        g_array_append_val (todo, c);
    }
  return sum;
}

double
seismo_flame_graph_set_search (SeismoFlameGraph *self,
                               const char       *text)
{
  g_autofree char *needle = NULL;
  const Node *zoom;

  g_return_val_if_fail (self != NULL && self->finished, 0);

  self->searching = text != NULL && text[0] != '\0';
  needle = self->searching ? g_utf8_casefold (text, -1) : NULL;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      Node *n = node_at_index (self, i);

      n->matched = self->searching && i != SEISMO_FLAME_ROOT
                   && (contains (n->folded[0], needle) || contains (n->folded[1], needle)
                       || contains (n->folded[2], needle));
    }
  if (!self->searching)
    return 0;
  zoom = node_at_index (self, self->zoom);
  if (zoom->info.total <= 0)
    return 0;
  /* A matching ancestor of the zoomed node covers all of it. */
  for (guint n = zoom->info.parent; n != SEISMO_FLAME_NO_NODE; n = node_at_index (self, n)->info.parent)
    if (node_at_index (self, n)->matched)
      return 1;
  return MIN (1.0, matched_weight (self, self->zoom) / zoom->info.total);
}

gboolean
seismo_flame_graph_node_matches (SeismoFlameGraph *self,
                                 guint             node)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return node < self->nodes->len && node_at_index (self, node)->matched;
}

/* Layout */

double
seismo_flame_graph_get_content_height (SeismoFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return (double) self->depth * SEISMO_FLAME_ROW_HEIGHT;
}

static double
row_y (SeismoFlameGraph *self,
       guint             depth)
{
  double area = MAX (self->height, seismo_flame_graph_get_content_height (self));

  if (self->icicle)
    return (double) depth * SEISMO_FLAME_ROW_HEIGHT;
  return area - (double) (depth + 1) * SEISMO_FLAME_ROW_HEIGHT;
}

/* The pixel span of a node in the current zoom, clamped to the area. */
static void
pixel_span (SeismoFlameGraph *self,
            const Node       *n,
            double           *left,
            double           *right)
{
  const Node *z = node_at_index (self, self->zoom);
  double zw = z->x1 - z->x0;

  if (zw <= 0)
    {
      *left = 0;
      *right = n == z ? self->width : 0;
      return;
    }
  *left = CLAMP ((n->x0 - z->x0) / zw * self->width, 0, self->width);
  *right = CLAMP ((n->x1 - z->x0) / zw * self->width, 0, self->width);
}

/* The rect of a node known to be in the zoomed view (inside the zoomed node or an ancestor of it);
 * FALSE when thinner than MIN_NODE_WIDTH. */
static inline gboolean
shown_rect (SeismoFlameGraph *self,
            const Node       *n,
            double           *x,
            double           *y,
            double           *width)
{
  double left, right;

  pixel_span (self, n, &left, &right);
  if (right - left < MIN_NODE_WIDTH)
    return FALSE;
  *x = left;
  *y = row_y (self, n->info.depth);
  *width = right - left;
  return TRUE;
}

gboolean
seismo_flame_graph_node_rect (SeismoFlameGraph *self,
                              guint             node,
                              double           *x,
                              double           *y,
                              double           *width,
                              double           *height)
{
  const Node *n;
  double left, right;

  g_return_val_if_fail (self != NULL && self->finished, FALSE);
  if (node >= self->nodes->len)
    return FALSE;
  /* Spans nest: a node overlaps the zoomed one iff it is inside it or one of its ancestors. */
  if (!is_ancestor (self, self->zoom, node) && !is_ancestor (self, node, self->zoom))
    return FALSE;
  n = node_at_index (self, node);
  pixel_span (self, n, &left, &right);
  if (right - left < MIN_NODE_WIDTH)
    return FALSE;
  *x = left;
  *y = row_y (self, n->info.depth);
  *width = right - left;
  *height = SEISMO_FLAME_ROW_HEIGHT;
  return TRUE;
}

guint
seismo_flame_graph_node_at (SeismoFlameGraph *self,
                            double            x,
                            double            y)
{
  double top = row_y (self, 0);
  gint64 depth;
  guint n = SEISMO_FLAME_ROOT;

  g_return_val_if_fail (self != NULL && self->finished, SEISMO_FLAME_NO_NODE);
  if (x < 0 || x >= self->width)
    return SEISMO_FLAME_NO_NODE;
  depth = self->icicle ? (gint64) floor (y / SEISMO_FLAME_ROW_HEIGHT)
                       : (gint64) floor ((top + SEISMO_FLAME_ROW_HEIGHT - y) / SEISMO_FLAME_ROW_HEIGHT);
  if (depth < 0 || depth >= self->depth)
    return SEISMO_FLAME_NO_NODE;
  /* Down from the root, to the child under x at each level. */
  for (gint64 d = 0; d < depth; d++)
    {
      guint next = SEISMO_FLAME_NO_NODE;

      for (guint c = node_at_index (self, n)->first_child; c != SEISMO_FLAME_NO_NODE;
           c = node_at_index (self, c)->next_sibling)
        {
          double left, right;

          if (!is_ancestor (self, self->zoom, c) && !is_ancestor (self, c, self->zoom))
            continue;
          pixel_span (self, node_at_index (self, c), &left, &right);
          if (x >= left && x < right && right - left >= MIN_NODE_WIDTH)
            {
              next = c;
              break;
            }
        }
      if (next == SEISMO_FLAME_NO_NODE)
        return SEISMO_FLAME_NO_NODE;
      n = next;
    }
  return n;
}

/* Text */

char *
seismo_flame_graph_format_weight (SeismoFlameGraph *self,
                                  double            weight)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (self->weight == SEISMO_FLAME_WEIGHT_TIME)
    return seismo_format_duration (weight);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'.0f event", "%'.0f events",
                                       (gulong) MIN (weight, (double) G_MAXULONG)), weight);
}

char *
seismo_flame_graph_describe_node (SeismoFlameGraph *self,
                                  guint             node)
{
  const Node *n, *root, *zoom;
  GString *s;
  g_autofree char *total = NULL, *self_weight = NULL;

  g_return_val_if_fail (self != NULL && self->finished, NULL);
  if (node >= self->nodes->len)
    return NULL;
  n = node_at_index (self, node);
  root = node_at_index (self, SEISMO_FLAME_ROOT);
  zoom = node_at_index (self, self->zoom);
  s = g_string_new (NULL);
  {
    g_autofree char *name = g_markup_escape_text (n->info.name, -1);

    g_string_append_printf (s, "<b>%s</b>", name);
  }
  if (n->info.inlined)
    g_string_append_printf (s, " <i>%s</i>", _("(inlined)"));
  if (n->info.space == SEISMO_FLAME_SPACE_KERNEL)
    g_string_append_printf (s, " · %s", _("kernel"));
  else if (n->info.space == SEISMO_FLAME_SPACE_USER)
    g_string_append_printf (s, " · %s", _("user"));
  if (n->info.module != NULL)
    {
      g_autofree char *m = g_markup_escape_text (n->info.module, -1);

      g_string_append_printf (s, "\n%s", m);
    }
  if (n->info.file != NULL)
    {
      g_autofree char *f = g_markup_escape_text (n->info.file, -1);

      if (n->info.line > 0)
        g_string_append_printf (s, "\n%s:%u", f, n->info.line);
      else
        g_string_append_printf (s, "\n%s", f);
    }
  total = seismo_flame_graph_format_weight (self, n->info.total);
  self_weight = seismo_flame_graph_format_weight (self, n->info.self);
  g_string_append_printf (s, "\n%s (%.1f %%)", total,
                          root->info.total > 0 ? 100.0 * n->info.total / root->info.total : 0.0);
  if (self->zoom != SEISMO_FLAME_ROOT && zoom->info.total > 0 && is_ancestor (self, self->zoom, node))
    g_string_append_printf (s, _(" · %.1f %% of the zoomed frame"), 100.0 * n->info.total / zoom->info.total);
  if (n->info.self > 0)
    g_string_append_printf (s, _("\nSelf: %s"), self_weight);
  return g_string_free (s, FALSE);
}

/* Drawing */

/* HSL (0..360, 0..1, 0..1) to 0xRRGGBB. */
static guint32
hsl (double h,
     double s,
     double l)
{
  double c = (1 - fabs (2 * l - 1)) * s;
  double hp = fmod (h, 360) / 60;
  double x = c * (1 - fabs (fmod (hp, 2) - 1));
  double m = l - c / 2, r = 0, g = 0, b = 0;

  if (hp < 1)      { r = c; g = x; }
  else if (hp < 2) { r = x; g = c; }
  else if (hp < 3) { g = c; b = x; }
  else if (hp < 4) { g = x; b = c; }
  else if (hp < 5) { r = x; b = c; }
  else             { r = c; b = x; }
  return ((guint32) lround ((r + m) * 255) << 16) | ((guint32) lround ((g + m) * 255) << 8)
         | (guint32) lround ((b + m) * 255);
}

/* Warm colors for user code, cool ones for the kernel, as flame graphs usually do; the hue
 * within the family comes from the name, so a function keeps its color across views. Light
 * enough for dark text, saturated enough to tell apart on a projector. */
static guint32
node_color (SeismoFlameGraph *self,
            const Node       *n)
{
  guint hash = g_str_hash (n->info.name);
  double spread = (double) (hash % 1000) / 1000.0;
  double light = 0.62 + 0.08 * (double) ((hash >> 10) % 3) / 2.0;

  if (self->dark)
    light -= 0.08;
  if (n->info.parent == SEISMO_FLAME_NO_NODE)
    return self->dark ? 0x8a8a8a : 0xbdbdbd;
  if (n->info.space == SEISMO_FLAME_SPACE_KERNEL)
    return hsl (185 + 40 * spread, 0.55, light);
  if (n->info.inlined)
    return hsl (45 + 20 * spread, 0.80, light + 0.06);
  return hsl (5 + 40 * spread, 0.80, light);
}

static guint32
mute (guint32 rgb,
      gboolean dark)
{
  guint32 grey = dark ? 0x505050 : 0xd8d8d8;
  guint32 out = 0;

  for (int shift = 0; shift <= 16; shift += 8)
    {
      guint a = (rgb >> shift) & 0xff, b = (grey >> shift) & 0xff;

      out |= ((a + 3 * b) / 4) << shift;
    }
  return out;
}

typedef struct {
  double x, y, width, height;
  guint  node;
} Hit;

typedef struct {
  cairo_t              *cr;
  PangoLayout          *layout;
  PangoFontDescription *font;
  PangoFontDescription *italic;
  GArray               *hits;   /* Hit, or NULL: where each node was drawn (SVG titles) */
  int                   text_height;
} DrawContext;

static void
draw_node (SeismoFlameGraph *self,
           DrawContext      *dc,
           guint             node,
           double            x,
           double            y,
           double            w,
           gboolean          faded)
{
  const Node *n = node_at_index (self, node);
  cairo_t *cr = dc->cr;
  const double h = SEISMO_FLAME_ROW_HEIGHT;
  guint32 fill;

  if (dc->hits != NULL)
    g_array_append_val (dc->hits, ((Hit) { x, y, w, h, node }));
  fill = node_color (self, n);
  if (self->searching)
    fill = n->matched ? 0xe040e0 : mute (fill, self->dark);
  seismo_cairo_set_rgb (cr, fill, faded ? 0.45 : 1.0);
  cairo_rectangle (cr, x, y + 0.5, MAX (w - (w > 3 ? 1 : 0), 0.5), h - 1);
  cairo_fill (cr);
  if (w >= MIN_LABEL_WIDTH)
    {
      pango_layout_set_font_description (dc->layout, n->info.inlined ? dc->italic : dc->font);
      pango_layout_set_text (dc->layout, n->info.name, -1);
      pango_layout_set_width (dc->layout, (int) ((w - 2 * LABEL_PADDING) * PANGO_SCALE));
      /* Dark text on every fill: the fills are all light enough for it. */
      seismo_cairo_set_rgb (cr, 0x1a1a1a, faded ? 0.6 : 1.0);
      cairo_move_to (cr, x + LABEL_PADDING, y + (h - dc->text_height) / 2);
      pango_cairo_show_layout (cr, dc->layout);
    }
}

static void
draw_graph (SeismoFlameGraph *self,
            cairo_t          *cr,
            GArray           *hits)
{
  DrawContext dc = { cr, NULL, NULL, NULL, hits, 0 };
  g_autoptr(GArray) todo = NULL;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, self->width, MAX (self->height, seismo_flame_graph_get_content_height (self)));
  cairo_clip (cr);
  dc.layout = pango_cairo_create_layout (cr);
  dc.font = pango_font_description_from_string ("Sans 9");
  dc.italic = pango_font_description_copy (dc.font);
  pango_font_description_set_style (dc.italic, PANGO_STYLE_ITALIC);
  pango_layout_set_ellipsize (dc.layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (dc.layout, TRUE);
  /* One line of one font: measured once, not per label. */
  pango_layout_set_font_description (dc.layout, dc.font);
  pango_layout_set_text (dc.layout, "Xg", -1);
  pango_layout_get_pixel_size (dc.layout, NULL, &dc.text_height);

  /* The zoomed node's ancestors, faded: where the zoomed part sits. */
  for (guint n = node_at_index (self, self->zoom)->info.parent; n != SEISMO_FLAME_NO_NODE;
       n = node_at_index (self, n)->info.parent)
    {
      double x, y, w;

      if (shown_rect (self, node_at_index (self, n), &x, &y, &w))
        draw_node (self, &dc, n, x, y, w, TRUE);
    }
  /* The zoomed node and what is above it; a node too thin to draw hides its children too. */
  todo = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (todo, self->zoom);
  while (todo->len > 0)
    {
      guint n = g_array_index (todo, guint, todo->len - 1);
      double x, y, w;

      g_array_set_size (todo, todo->len - 1);
      if (!shown_rect (self, node_at_index (self, n), &x, &y, &w))
        continue;
      draw_node (self, &dc, n, x, y, w, FALSE);
      for (guint c = node_at_index (self, n)->first_child; c != SEISMO_FLAME_NO_NODE;
           c = node_at_index (self, c)->next_sibling)
        g_array_append_val (todo, c);
    }

  pango_font_description_free (dc.font);
  pango_font_description_free (dc.italic);
  g_object_unref (dc.layout);
  cairo_restore (cr);
}

void
seismo_flame_graph_draw_hover (SeismoFlameGraph *self,
                               cairo_t          *cr)
{
  double x, y, w, h;

  g_return_if_fail (self != NULL && self->finished && cr != NULL);
  if (self->hover == SEISMO_FLAME_NO_NODE || !seismo_flame_graph_node_rect (self, self->hover, &x, &y, &w, &h))
    return;
  cairo_save (cr);
  seismo_cairo_set_rgb (cr, self->dark ? 0xffffff : 0x000000, 0.9);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, x + 1, y + 1.5, MAX (w - 3, 1), h - 3);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
seismo_flame_graph_draw (SeismoFlameGraph *self,
                         cairo_t          *cr)
{
  g_return_if_fail (self != NULL && self->finished && cr != NULL);
  draw_graph (self, cr, NULL);
  seismo_flame_graph_draw_hover (self, cr);
}

/* Export */

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static void
draw_figure (SeismoFlameGraph *self,
             cairo_t          *cr,
             const char       *title,
             double            width,
             double            height,
             GArray           *hits)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans Bold 13");
  g_autofree char *total = seismo_flame_graph_format_weight (self, node_at_index (self, SEISMO_FLAME_ROOT)->info.total);
  g_autofree char *heading = NULL;

  seismo_cairo_set_rgb (cr, self->dark ? 0x242424 : 0xffffff, 1);
  cairo_paint (cr);
  if (title == NULL || title[0] == '\0')
    title = _("Call stacks");
  heading = g_strdup_printf ("%s · %s", title, total);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, heading, -1);
  pango_layout_set_width (layout, (int) ((width - 16) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  seismo_cairo_set_rgb (cr, self->dark ? 0xeeeeee : 0x1a1a1a, 1);
  cairo_move_to (cr, 8, 8);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);

  cairo_save (cr);
  cairo_translate (cr, 0, TITLE_HEIGHT);
  seismo_flame_graph_set_size (self, width, height - TITLE_HEIGHT);
  draw_graph (self, cr, hits);
  cairo_restore (cr);
}

/*
 * Cairo draws text as glyph outlines, so an SVG would not say which functions it shows. Over the
 * picture go transparent boxes, one per drawn frame, with a <title> (a browser shows it on hover,
 * as flamegraph.pl's SVGs do) and the name as invisible text (find in page, screen readers).
 */
static void
append_svg_titles (SeismoFlameGraph *self,
                   GByteArray       *svg,
                   GArray           *hits)
{
  g_autoptr(GString) layer = g_string_new ("<g id=\"seismo-frames\" fill-opacity=\"0\" font-size=\"1\">\n");
  const guint8 *end = NULL;

  for (gsize i = svg->len; i >= 6; i--)
    if (memcmp (svg->data + i - 6, "</svg>", 6) == 0)
      {
        end = svg->data + i - 6;
        break;
      }
  if (end == NULL)
    return;
  for (guint i = 0; i < hits->len; i++)
    {
      const Hit *h = &g_array_index (hits, Hit, i);
      const Node *n = node_at_index (self, h->node);
      g_autofree char *weight = seismo_flame_graph_format_weight (self, n->info.total);
      double root = node_at_index (self, SEISMO_FLAME_ROOT)->info.total;
      g_autofree char *element = g_markup_printf_escaped (
        "<g><title>%s%s%s — %s (%.1f %%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
        "<text x=\"%.1f\" y=\"%.1f\">%s</text></g>\n",
        n->info.name, n->info.module != NULL ? " · " : "", n->info.module != NULL ? n->info.module : "",
        weight, root > 0 ? 100.0 * n->info.total / root : 0.0,
        h->x, h->y + TITLE_HEIGHT, h->width, h->height, h->x, h->y + TITLE_HEIGHT + h->height / 2,
        n->info.name);

      g_string_append (layer, element);
    }
  g_string_append (layer, "</g>\n");
  {
    gsize at = end - svg->data;

    g_byte_array_set_size (svg, svg->len + layer->len);
    memmove (svg->data + at + layer->len, svg->data + at, svg->len - layer->len - at);
    memcpy (svg->data + at, layer->str, layer->len);
  }
}

gboolean
seismo_flame_graph_export_to_file (SeismoFlameGraph  *self,
                                   SeismoImageFormat  format,
                                   int                width,
                                   const char        *title,
                                   const char        *path,
                                   GError           **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  double height;
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (Hit));

  g_return_val_if_fail (self != NULL && self->finished && path != NULL, FALSE);

  if (width < 200 || width > SEISMO_TIMELINE_EXPORT_MAX_SIZE)
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE,
                   _("%s: width %d is outside %d to %d pixels"), path, width, 200,
                   SEISMO_TIMELINE_EXPORT_MAX_SIZE);
      return FALSE;
    }
  height = TITLE_HEIGHT + seismo_flame_graph_get_content_height (self);
  if (height > 32767)
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_SIZE,
                   _("%s: a flame graph %u frames deep is too tall to draw"), path, self->depth);
      return FALSE;
    }
  switch (format)
    {
    case SEISMO_IMAGE_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (append_bytes, bytes, width, height);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      break;
    case SEISMO_IMAGE_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, width, height);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Seismo " PACKAGE_VERSION);
      break;
    case SEISMO_IMAGE_FORMAT_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, (int) ceil (height));
      break;
    }
  cr = cairo_create (surface);
  draw_figure (self, cr, title, width, height, hits);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == SEISMO_IMAGE_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, SEISMO_TIMELINE_EXPORT_ERROR, SEISMO_TIMELINE_EXPORT_ERROR_CAIRO,
                   _("%s: could not draw the image: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }
  if (format == SEISMO_IMAGE_FORMAT_SVG)
    append_svg_titles (self, bytes, hits);
  return g_file_set_contents_full (path, (const char *) bytes->data, bytes->len,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

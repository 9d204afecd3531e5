/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-view-private.h"

GParamSpec *_seismo_view_properties[SEISMO_VIEW_N_PROPS];
guint _seismo_view_signals[SEISMO_VIEW_N_SIGNALS];
#define properties _seismo_view_properties
#define signals _seismo_view_signals

G_DEFINE_FINAL_TYPE (SeismoView, seismo_view, G_TYPE_OBJECT)

static void
notify (SeismoView *self,
        guint       prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
seismo_view_dispose (GObject *object)
{
  SeismoView *self = SEISMO_VIEW (object);

  _seismo_view_filter_dispose (self);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (seismo_view_parent_class)->dispose (object);
}

static void
seismo_view_finalize (GObject *object)
{
  SeismoView *self = SEISMO_VIEW (object);

  g_free (self->filter_text);
  g_free (self->applied);
  g_free (self->pane);
  _seismo_view_rows_finalize (self);
  G_OBJECT_CLASS (seismo_view_parent_class)->finalize (object);
}

static void
seismo_view_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SeismoView *self = SEISMO_VIEW (object);

  switch (prop_id)
    {
    case SEISMO_VIEW_PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case SEISMO_VIEW_PROP_FILTER_TEXT:
      g_value_set_string (value, self->filter_text);
      break;
    case SEISMO_VIEW_PROP_FILTER_BUSY:
      g_value_set_boolean (value, seismo_view_get_filter_busy (self));
      break;
    case SEISMO_VIEW_PROP_FILTER_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case SEISMO_VIEW_PROP_MASK:
      g_value_set_boxed (value, self->mask);
      break;
    case SEISMO_VIEW_PROP_MATCHES:
      g_value_set_boxed (value, self->matches);
      break;
    case SEISMO_VIEW_PROP_N_MATCHED:
      g_value_set_uint64 (value, self->n_matched);
      break;
    case SEISMO_VIEW_PROP_APPLIED:
      g_value_set_string (value, self->applied);
      break;
    case SEISMO_VIEW_PROP_DIM:
      g_value_set_boolean (value, self->dim);
      break;
    case SEISMO_VIEW_PROP_SELECTED_EVENT:
      g_value_set_uint (value, self->selected);
      break;
    case SEISMO_VIEW_PROP_MARKER_A:
    case SEISMO_VIEW_PROP_MARKER_B:
      g_value_set_int64 (value, self->markers[prop_id - SEISMO_VIEW_PROP_MARKER_A]);
      break;
    case SEISMO_VIEW_PROP_RANGE_START:
    case SEISMO_VIEW_PROP_RANGE_END:
      g_value_set_int64 (value, self->range[prop_id - SEISMO_VIEW_PROP_RANGE_START]);
      break;
    case SEISMO_VIEW_PROP_VISIBLE_START:
    case SEISMO_VIEW_PROP_VISIBLE_END:
      g_value_set_uint64 (value, self->visible[prop_id - SEISMO_VIEW_PROP_VISIBLE_START]);
      break;
    case SEISMO_VIEW_PROP_PANE:
      g_value_set_string (value, self->pane);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_view_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SeismoView *self = SEISMO_VIEW (object);

  switch (prop_id)
    {
    case SEISMO_VIEW_PROP_TRACE:
      seismo_view_set_trace (self, g_value_get_object (value));
      break;
    case SEISMO_VIEW_PROP_FILTER_TEXT:
      /* Through a property an invalid expression is ignored: the filter in force stays. */
      seismo_view_set_filter_text (self, g_value_get_string (value) != NULL ? g_value_get_string (value) : "", NULL);
      break;
    case SEISMO_VIEW_PROP_DIM:
      seismo_view_set_dim (self, g_value_get_boolean (value));
      break;
    case SEISMO_VIEW_PROP_SELECTED_EVENT:
      seismo_view_set_selected_event (self, g_value_get_uint (value));
      break;
    case SEISMO_VIEW_PROP_MARKER_A:
    case SEISMO_VIEW_PROP_MARKER_B:
      if (g_value_get_int64 (value) < 0)
        seismo_view_clear_marker (self, prop_id - SEISMO_VIEW_PROP_MARKER_A);
      else
        seismo_view_set_marker (self, prop_id - SEISMO_VIEW_PROP_MARKER_A, (guint64) g_value_get_int64 (value));
      break;
    case SEISMO_VIEW_PROP_PANE:
      seismo_view_set_pane (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_view_class_init (SeismoViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->dispose = seismo_view_dispose;
  object_class->finalize = seismo_view_finalize;
  object_class->get_property = seismo_view_get_property;
  object_class->set_property = seismo_view_set_property;

  properties[SEISMO_VIEW_PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, SEISMO_TYPE_TRACE, rw);
  properties[SEISMO_VIEW_PROP_FILTER_TEXT] =
    g_param_spec_string ("filter-text", NULL, NULL, "", rw);
  properties[SEISMO_VIEW_PROP_FILTER_BUSY] =
    g_param_spec_boolean ("filter-busy", NULL, NULL, FALSE, ro);
  properties[SEISMO_VIEW_PROP_FILTER_PROGRESS] =
    g_param_spec_double ("filter-progress", NULL, NULL, 0, 1, 0, ro);
  properties[SEISMO_VIEW_PROP_MASK] =
    g_param_spec_boxed ("mask", NULL, NULL, G_TYPE_BYTES, ro);
  properties[SEISMO_VIEW_PROP_MATCHES] =
    g_param_spec_boxed ("matches", NULL, NULL, SEISMO_TYPE_MATCH_SET, ro);
  properties[SEISMO_VIEW_PROP_N_MATCHED] =
    g_param_spec_uint64 ("n-matched", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[SEISMO_VIEW_PROP_APPLIED] =
    g_param_spec_string ("applied", NULL, NULL, "", ro);
  properties[SEISMO_VIEW_PROP_DIM] =
    g_param_spec_boolean ("dim", NULL, NULL, FALSE, rw);
  properties[SEISMO_VIEW_PROP_SELECTED_EVENT] =
    g_param_spec_uint ("selected-event", NULL, NULL, 0, G_MAXUINT, SEISMO_NO_EVENT, rw);
  properties[SEISMO_VIEW_PROP_MARKER_A] =
    g_param_spec_int64 ("marker-a", NULL, NULL, -1, G_MAXINT64, -1, rw);
  properties[SEISMO_VIEW_PROP_MARKER_B] =
    g_param_spec_int64 ("marker-b", NULL, NULL, -1, G_MAXINT64, -1, rw);
  properties[SEISMO_VIEW_PROP_RANGE_START] =
    g_param_spec_int64 ("range-start", NULL, NULL, -1, G_MAXINT64, -1, ro);
  properties[SEISMO_VIEW_PROP_RANGE_END] =
    g_param_spec_int64 ("range-end", NULL, NULL, -1, G_MAXINT64, -1, ro);
  properties[SEISMO_VIEW_PROP_VISIBLE_START] =
    g_param_spec_uint64 ("visible-start", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[SEISMO_VIEW_PROP_VISIBLE_END] =
    g_param_spec_uint64 ("visible-end", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[SEISMO_VIEW_PROP_PANE] =
    g_param_spec_string ("pane", NULL, NULL, "details", rw);
  g_object_class_install_properties (object_class, SEISMO_VIEW_N_PROPS, properties);

  /**
   * SeismoView::result-changed:
   *
   * The filter result in force changed (a run finished, the filter was cleared or the trace
   * changed): read it with seismo_view_get_mask() and seismo_view_get_matches().
   */
  signals[SEISMO_VIEW_RESULT_CHANGED] =
    g_signal_new ("result-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * SeismoView::partial-result:
   * @matches: (type SeismoMatchSet): the matching events found so far, a set over the events
   *   evaluated so far
   *
   * While a filter is evaluated: the matches among the events evaluated so far.
   */
  signals[SEISMO_VIEW_PARTIAL_RESULT] =
    g_signal_new ("partial-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, SEISMO_TYPE_MATCH_SET);
  /**
   * SeismoView::markers-changed:
   *
   * Marker A or B or the range changed (once for a change of several).
   */
  signals[SEISMO_VIEW_MARKERS_CHANGED] =
    g_signal_new ("markers-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * SeismoView::rows-changed:
   *
   * The hidden or pinned rows changed.
   */
  signals[SEISMO_VIEW_ROWS_CHANGED] =
    g_signal_new ("rows-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * SeismoView::notes-changed:
   *
   * The notes changed.
   */
  signals[SEISMO_VIEW_NOTES_CHANGED] =
    g_signal_new ("notes-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
seismo_view_init (SeismoView *self)
{
  self->filter_text = g_strdup ("");
  self->applied = g_strdup ("");
  self->pane = g_strdup ("details");
  self->selected = SEISMO_NO_EVENT;
  self->markers[0] = self->markers[1] = -1;
  self->range[0] = self->range[1] = -1;
  _seismo_view_rows_init (self);
}

SeismoView *
seismo_view_new (void)
{
  return g_object_new (SEISMO_TYPE_VIEW, NULL);
}

SeismoTrace *
seismo_view_get_trace (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), NULL);
  return self->trace;
}

void
seismo_view_set_trace (SeismoView  *self,
                       SeismoTrace *trace)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  if (trace == self->trace)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  g_set_object (&self->trace, trace);
  /* A grown trace keeps the selected event when it still exists. */
  if (self->selected != SEISMO_NO_EVENT
      && (trace == NULL || self->selected >= seismo_trace_get_n_events (trace)))
    seismo_view_set_selected_event (self, SEISMO_NO_EVENT);
  notify (self, SEISMO_VIEW_PROP_TRACE);
  _seismo_view_filter_retrace (self);
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
seismo_view_get_filter_text (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), "");
  return self->filter_text;
}

GBytes *
seismo_view_get_mask (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), NULL);
  return self->mask;
}

SeismoMatchSet *
seismo_view_get_matches (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), NULL);
  return self->matches;
}

gsize
seismo_view_get_n_matched (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), 0);
  return self->n_matched;
}

const char *
seismo_view_get_applied (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), "");
  return self->applied;
}

gboolean
seismo_view_get_dim (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), FALSE);
  return self->dim;
}

void
seismo_view_set_dim (SeismoView *self,
                     gboolean    dim)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));

  dim = !!dim;
  if (dim == self->dim)
    return;
  self->dim = dim;
  notify (self, SEISMO_VIEW_PROP_DIM);
}

guint
seismo_view_get_selected_event (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), SEISMO_NO_EVENT);
  return self->selected;
}

void
seismo_view_set_selected_event (SeismoView *self,
                                guint       event)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));

  if (event == self->selected)
    return;
  self->selected = event;
  notify (self, SEISMO_VIEW_PROP_SELECTED_EVENT);
}

/* Markers and range */

gboolean
seismo_view_get_marker (SeismoView *self,
                        guint       which,
                        guint64    *time_ns)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), FALSE);
  g_return_val_if_fail (which < 2, FALSE);

  if (self->markers[which] < 0)
    return FALSE;
  if (time_ns != NULL)
    *time_ns = (guint64) self->markers[which];
  return TRUE;
}

static void
put_marker (SeismoView *self,
            guint       which,
            gint64      value)
{
  if (self->markers[which] == value)
    return;
  self->markers[which] = value;
  notify (self, SEISMO_VIEW_PROP_MARKER_A + which);
  g_signal_emit (self, signals[SEISMO_VIEW_MARKERS_CHANGED], 0);
}

void
seismo_view_set_marker (SeismoView *self,
                        guint       which,
                        guint64     time_ns)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  g_return_if_fail (which < 2);
  put_marker (self, which, (gint64) MIN (time_ns, (guint64) G_MAXINT64));
}

void
seismo_view_clear_marker (SeismoView *self,
                          guint       which)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  g_return_if_fail (which < 2);
  put_marker (self, which, -1);
}

gboolean
seismo_view_get_range (SeismoView *self,
                       guint64    *start_ns,
                       guint64    *end_ns)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), FALSE);

  if (self->range[0] < 0)
    return FALSE;
  if (start_ns != NULL)
    *start_ns = (guint64) self->range[0];
  if (end_ns != NULL)
    *end_ns = (guint64) self->range[1];
  return TRUE;
}

static void
put_range (SeismoView *self,
           gint64      start,
           gint64      end)
{
  if (self->range[0] == start && self->range[1] == end)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->range[0] = start;
  self->range[1] = end;
  notify (self, SEISMO_VIEW_PROP_RANGE_START);
  notify (self, SEISMO_VIEW_PROP_RANGE_END);
  g_object_thaw_notify (G_OBJECT (self));
  g_signal_emit (self, signals[SEISMO_VIEW_MARKERS_CHANGED], 0);
}

void
seismo_view_set_range (SeismoView *self,
                       guint64     start_ns,
                       guint64     end_ns)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  put_range (self, (gint64) MIN (MIN (start_ns, end_ns), (guint64) G_MAXINT64),
             (gint64) MIN (MAX (start_ns, end_ns), (guint64) G_MAXINT64));
}

void
seismo_view_clear_range (SeismoView *self)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  put_range (self, -1, -1);
}

void
seismo_view_get_count_span (SeismoView *self,
                            guint64    *start_ns,
                            guint64    *end_ns)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));

  *start_ns = 0;
  *end_ns = G_MAXUINT64;
  if (self->range[0] >= 0)
    {
      *start_ns = (guint64) self->range[0];
      *end_ns = (guint64) self->range[1];
    }
  else if (self->markers[0] >= 0 && self->markers[1] >= 0)
    {
      *start_ns = (guint64) MIN (self->markers[0], self->markers[1]);
      *end_ns = (guint64) MAX (self->markers[0], self->markers[1]);
    }
}

void
seismo_view_get_visible_span (SeismoView *self,
                              guint64    *start_ns,
                              guint64    *end_ns)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));
  *start_ns = self->visible[0];
  *end_ns = self->visible[1];
}

void
seismo_view_set_visible_span (SeismoView *self,
                              guint64     start_ns,
                              guint64     end_ns)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));

  if (self->visible[0] == start_ns && self->visible[1] == end_ns)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->visible[0] = start_ns;
  self->visible[1] = end_ns;
  notify (self, SEISMO_VIEW_PROP_VISIBLE_START);
  notify (self, SEISMO_VIEW_PROP_VISIBLE_END);
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
seismo_view_get_pane (SeismoView *self)
{
  g_return_val_if_fail (SEISMO_IS_VIEW (self), "details");
  return self->pane;
}

void
seismo_view_set_pane (SeismoView *self,
                      const char *pane)
{
  g_return_if_fail (SEISMO_IS_VIEW (self));

  if (pane == NULL || g_strcmp0 (pane, self->pane) == 0)
    return;
  g_free (self->pane);
  self->pane = g_strdup (pane);
  notify (self, SEISMO_VIEW_PROP_PANE);
}

gboolean
seismo_view_connect (SeismoView              **slot,
                     SeismoView               *view,
                     gpointer                  instance,
                     const SeismoViewHandler  *handlers,
                     guint                     n_handlers)
{
  g_return_val_if_fail (slot != NULL, FALSE);
  g_return_val_if_fail (view == NULL || SEISMO_IS_VIEW (view), FALSE);

  if (*slot == view)
    return FALSE;
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_data (*slot, instance);
  g_set_object (slot, view);
  for (guint i = 0; view != NULL && i < n_handlers; i++)
    g_signal_connect_swapped (view, handlers[i].signal, handlers[i].handler, instance);
  return TRUE;
}

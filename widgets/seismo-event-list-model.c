/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include "seismo-event-list-model.h"
#include "seismo-timing.h"

/* Item */

struct _SeismoEventItem
{
  GObject               parent_instance;
  SeismoTrace          *trace;      /* owned */
  SeismoEventId         event;
  guint                 position;   /* where the model lists it; G_MAXUINT: no longer listed */
  SeismoEventListModel *model;      /* not owned: it forgets its items when it goes */
};

enum {
  ITEM_CHANGED,
  ITEM_N_SIGNALS
};

static guint item_signals[ITEM_N_SIGNALS];

enum {
  ITEM_PROP_0,
  ITEM_PROP_INDEX,
  ITEM_PROP_TIME,
  ITEM_PROP_CPU,
  ITEM_PROP_TASK,
  ITEM_PROP_PID,
  ITEM_PROP_NAME,
  ITEM_PROP_INFO,
  ITEM_N_PROPS
};

static GParamSpec *item_properties[ITEM_N_PROPS];

/* The property names, in the order of the enum from ITEM_PROP_INDEX. */
static const char *const item_property_names[] = {
  "index", "time", "cpu", "task", "pid", "name", "info",
};
G_STATIC_ASSERT (G_N_ELEMENTS (item_property_names) == ITEM_N_PROPS - 1);

G_DEFINE_FINAL_TYPE (SeismoEventItem, seismo_event_item, G_TYPE_OBJECT)

static char *
format_time (SeismoEventItem *self)
{
  guint64 rel = seismo_trace_event_time (self->trace, self->event) - seismo_trace_get_start_ns (self->trace);

  /* A log without clocks keeps only its order (seismo-timing.h): no time to show. */
  if (!seismo_trace_has_timestamps (self->trace))
    return g_strdup ("—");
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                          rel / G_GUINT64_CONSTANT (1000000000), rel % G_GUINT64_CONSTANT (1000000000));
}

static void
seismo_event_item_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SeismoEventItem *self = SEISMO_EVENT_ITEM (object);
  const SeismoTask *task = seismo_trace_event_task (self->trace, self->event);

  switch (prop_id)
    {
    case ITEM_PROP_INDEX:
      g_value_take_string (value, g_strdup_printf ("%u", self->event));
      break;
    case ITEM_PROP_TIME:
      g_value_take_string (value, format_time (self));
      break;
    case ITEM_PROP_CPU:
      g_value_take_string (value, g_strdup_printf ("%u", seismo_trace_event_cpu (self->trace, self->event)));
      break;
    case ITEM_PROP_TASK:
      g_value_set_string (value, task != NULL
                                 ? seismo_trace_task_comm_at (self->trace,
                                                              seismo_trace_get_tasks (self->trace)[self->event],
                                                              seismo_trace_event_time (self->trace, self->event))
                                 : "");
      break;
    case ITEM_PROP_PID:
      g_value_take_string (value, task != NULL ? g_strdup_printf ("%d", task->tid) : g_strdup (""));
      break;
    case ITEM_PROP_NAME:
      g_value_set_string (value, seismo_trace_event_type (self->trace, self->event)->name);
      break;
    case ITEM_PROP_INFO:
      g_value_take_string (value, seismo_trace_event_format (self->trace, self->event));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void forget_item (SeismoEventListModel *model,
                         SeismoEventItem      *item);

static void
seismo_event_item_finalize (GObject *object)
{
  SeismoEventItem *self = SEISMO_EVENT_ITEM (object);

  if (self->model != NULL)
    forget_item (self->model, self);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (seismo_event_item_parent_class)->finalize (object);
}

static void
seismo_event_item_class_init (SeismoEventItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = seismo_event_item_get_property;
  object_class->finalize = seismo_event_item_finalize;

  /* Read-only strings, computed on read: the list binds them to labels. */
  for (guint p = ITEM_PROP_INDEX; p < ITEM_N_PROPS; p++)
    item_properties[p] = g_param_spec_string (item_property_names[p - ITEM_PROP_INDEX],
                                              NULL, NULL, NULL,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, ITEM_N_PROPS, item_properties);

  /* The row now shows another event (the model's list changed under it): its cells reread it. */
  item_signals[ITEM_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                             0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
seismo_event_item_init (SeismoEventItem *self)
{
}

SeismoTrace *
seismo_event_item_get_trace (SeismoEventItem *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_ITEM (self), NULL);
  return self->trace;
}

guint
seismo_event_item_get_position (SeismoEventItem *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_ITEM (self), G_MAXUINT);
  return self->model != NULL ? self->position : G_MAXUINT;
}

SeismoEventId
seismo_event_item_get_event (SeismoEventItem *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_ITEM (self), SEISMO_NO_EVENT);
  return self->event;
}

/* Model */

struct _SeismoEventListModel
{
  GObject        parent_instance;
  SeismoTrace   *trace;    /* owned */
  SeismoMatchSet *subset;        /* owned; NULL: every event. Row k is its k-th member. */
  gsize          n_subset;
  /* The items alive (a view holds them: its rows, its selection), not owned: a change of the
   * list re-points them instead of replacing them (seismo_event_list_model_replace_subset). */
  GHashTable    *live;
  /* While replace_subset tells a view of its changes one at a time: the length the view has been
   * told so far (it asks in between), or -1. */
  gint64         n_told;
};

static void
forget_item (SeismoEventListModel *model,
             SeismoEventItem      *item)
{
  g_hash_table_remove (model->live, item);
}

static GType
seismo_event_list_model_get_item_type (GListModel *model)
{
  return SEISMO_TYPE_EVENT_ITEM;
}

/* The first position of subset (NULL: 0..n-1) whose event is at or after event; n when none is:
 * the subset's rank, O(1). */
static gsize
subset_lower_bound (SeismoMatchSet *subset,
                    gsize           n,
                    SeismoEventId   event)
{
  if (subset == NULL)
    return MIN ((gsize) event, n);
  return MIN (seismo_match_set_rank (subset, event), n);
}

/* The event at position of subset (NULL: every event); position < its size. */
static inline SeismoEventId
subset_nth (SeismoMatchSet *subset,
            gsize           position)
{
  return subset != NULL ? seismo_match_set_get_nth (subset, position) : (SeismoEventId) position;
}

gsize
seismo_event_list_subset_position (SeismoMatchSet *subset,
                                   gsize           n_events,
                                   SeismoEventId   event)
{
  return subset_lower_bound (subset, subset != NULL ? seismo_match_set_get_size (subset) : n_events,
                             event);
}

/* How many rows the list has (in the middle of replace_subset: has when it ends). */
static guint
n_rows (SeismoEventListModel *self)
{
  if (self->subset != NULL)
    return (guint) self->n_subset;
  return (guint) MIN (seismo_trace_get_n_events (self->trace), G_MAXUINT);
}

static guint
seismo_event_list_model_get_n_items (GListModel *model)
{
  SeismoEventListModel *self = SEISMO_EVENT_LIST_MODEL (model);

  if (self->n_told >= 0)
    return (guint) self->n_told;
  if (self->subset != NULL)
    return (guint) self->n_subset;
  return (guint) MIN (seismo_trace_get_n_events (self->trace), G_MAXUINT);
}

static gpointer
seismo_event_list_model_get_item (GListModel *model,
                                  guint       position)
{
  SeismoEventListModel *self = SEISMO_EVENT_LIST_MODEL (model);
  SeismoEventItem *item;

  if (position >= seismo_event_list_model_get_n_items (model))
    return NULL;
  item = g_object_new (SEISMO_TYPE_EVENT_ITEM, NULL);
  item->trace = g_object_ref (self->trace);
  item->event = seismo_event_list_model_get_event (self, position);
  /* Asked for in the middle of replace_subset: any event, re-pointed at its end. */
  if (item->event == SEISMO_NO_EVENT)
    item->event = self->subset != NULL && self->n_subset > 0 ? subset_nth (self->subset, 0) : 0;
  item->position = position;
  item->model = self;
  g_hash_table_add (self->live, item);
  return item;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = seismo_event_list_model_get_item_type;
  iface->get_n_items = seismo_event_list_model_get_n_items;
  iface->get_item = seismo_event_list_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SeismoEventListModel, seismo_event_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
seismo_event_list_model_finalize (GObject *object)
{
  SeismoEventListModel *self = SEISMO_EVENT_LIST_MODEL (object);
  GHashTableIter iter;
  gpointer item;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    ((SeismoEventItem *) item)->model = NULL;
  g_clear_pointer (&self->live, g_hash_table_unref);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->subset, seismo_match_set_unref);
  G_OBJECT_CLASS (seismo_event_list_model_parent_class)->finalize (object);
}

static void
seismo_event_list_model_class_init (SeismoEventListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = seismo_event_list_model_finalize;
}

static void
seismo_event_list_model_init (SeismoEventListModel *self)
{
  self->live = g_hash_table_new (NULL, NULL);
  self->n_told = -1;
}

/**
 * seismo_event_list_model_new:
 * @trace: the trace whose events are listed
 *
 * Returns: (transfer full): a model of every event of @trace
 */
SeismoEventListModel *
seismo_event_list_model_new (SeismoTrace *trace)
{
  SeismoEventListModel *self;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  self = g_object_new (SEISMO_TYPE_EVENT_LIST_MODEL, NULL);
  self->trace = g_object_ref (trace);
  return self;
}

void
seismo_event_list_model_set_subset (SeismoEventListModel *self,
                                    const SeismoEventId  *events,
                                    gsize                 n_events)
{
  g_autoptr(SeismoMatchSet) subset = NULL;

  g_return_if_fail (SEISMO_IS_EVENT_LIST_MODEL (self));
  if (events != NULL)
    subset = seismo_match_set_new_from_ids (events, n_events,
                                            seismo_trace_get_n_events (self->trace));
  seismo_event_list_model_set_subset_set (self, subset);
}

static void
store_subset (SeismoEventListModel *self,
              SeismoMatchSet       *subset)
{
  if (subset != NULL)
    seismo_match_set_ref (subset);
  g_clear_pointer (&self->subset, seismo_match_set_unref);
  self->subset = subset;
  self->n_subset = subset != NULL ? MIN (seismo_match_set_get_size (subset), G_MAXUINT) : 0;
}

/**
 * seismo_event_list_model_set_subset_set:
 * @subset: (nullable): the events listed, a set over the trace's events, kept by reference;
 *   NULL: every event
 */
void
seismo_event_list_model_set_subset_set (SeismoEventListModel *self,
                                        SeismoMatchSet       *subset)
{
  guint old_n;
  GHashTableIter iter;
  gpointer item;

  g_return_if_fail (SEISMO_IS_EVENT_LIST_MODEL (self));
  g_return_if_fail (subset == NULL || seismo_match_set_get_n_events (subset)
                                      <= seismo_trace_get_n_events (self->trace));
  old_n = seismo_event_list_model_get_n_items (G_LIST_MODEL (self));
  store_subset (self, subset);
  /* Every row is replaced: the items handed out so far are not listed any more. */
  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    {
      ((SeismoEventItem *) item)->model = NULL;
      ((SeismoEventItem *) item)->position = G_MAXUINT;
      g_hash_table_iter_remove (&iter);
    }
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n,
                              seismo_event_list_model_get_n_items (G_LIST_MODEL (self)));
}

/* Moves the live items at or after position from by delta (they stay the same rows). */
static void
shift_live (SeismoEventListModel *self,
            guint                 from,
            gint64                delta)
{
  GHashTableIter iter;
  gpointer p;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &p, NULL))
    {
      SeismoEventItem *item = p;

      if (item->position != G_MAXUINT && item->position >= from)
        item->position = (guint) (item->position + delta);
    }
}

/* Emits that n rows at position were removed (n < 0) or inserted (n > 0), after moving the live
 * items after them and dropping those inside a removed range. */
static void
splice_rows (SeismoEventListModel *self,
             guint                 position,
             gint64                n)
{
  if (n == 0)
    return;
  if (n < 0)
    {
      GHashTableIter iter;
      gpointer p;

      g_hash_table_iter_init (&iter, self->live);
      while (g_hash_table_iter_next (&iter, &p, NULL))
        {
          SeismoEventItem *item = p;

          if (item->position != G_MAXUINT && item->position >= position && item->position < position - n)
            item->position = G_MAXUINT;
        }
      shift_live (self, position - n, n);
      self->n_told += n;
      g_list_model_items_changed (G_LIST_MODEL (self), position, (guint) -n, 0);
    }
  else
    {
      shift_live (self, position, n);
      self->n_told += n;
      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, (guint) n);
    }
}

/**
 * seismo_event_list_model_replace_subset:
 * @subset: (nullable): the events to list, a set over the trace's events, kept by reference;
 *   NULL: every event
 * @anchor_from: a position listed now (the row a view keeps in place, e.g. its top row), or
 *   G_MAXUINT
 * @anchor_to: the position that row's place takes in the new list
 *
 * Lists @subset instead, keeping the rows a view holds: their items are re-pointed at the events
 * now at their positions (and emit "changed"), and the difference in length is inserted or removed
 * around them, first before them (so that the row at @anchor_from ends at @anchor_to), then after
 * them. GTK 4.8 searches every added item for a removed row it still shows (O(events): seconds for
 * millions) and remakes every row widget for a new model; here it does neither, unless the rows
 * it holds span more than the new list keeps around them.
 */
void
seismo_event_list_model_replace_subset (SeismoEventListModel *self,
                                        SeismoMatchSet       *subset,
                                        guint                 anchor_from,
                                        guint                 anchor_to)
{
  g_autoptr(SeismoMatchSet) old_subset = NULL;
  guint old_n, new_n, lo = G_MAXUINT, hi = 0;
  gint64 before = 0, after;
  GHashTableIter iter;
  gpointer p;

  g_return_if_fail (SEISMO_IS_EVENT_LIST_MODEL (self));
  g_return_if_fail (subset == NULL || seismo_match_set_get_n_events (subset)
                                      <= seismo_trace_get_n_events (self->trace));
  old_n = seismo_event_list_model_get_n_items (G_LIST_MODEL (self));
  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &p, NULL))
    {
      SeismoEventItem *item = p;

      if (item->position == G_MAXUINT || item->position >= old_n)
        continue;
      lo = MIN (lo, item->position);
      hi = MAX (hi, item->position);
    }
  /* The set listed until now, alive until the end (the caller may hold the only other ref). */
  old_subset = self->subset != NULL ? seismo_match_set_ref (self->subset) : NULL;
  store_subset (self, subset);
  new_n = seismo_event_list_model_get_n_items (G_LIST_MODEL (self));

  /* Rows held [lo, hi]: before them, as many rows go or come as bring anchor_from to anchor_to
   * (no more than there are before them, and leaving the new list's end after them); the rest
   * of the difference at the end. */
  /* No row named: the middle of those held, to the event it shows or the next one listed. */
  if (lo != G_MAXUINT && (anchor_from == G_MAXUINT || anchor_from >= old_n))
    {
      SeismoEventId middle;
      gsize a;

      anchor_from = lo + (hi - lo) / 2;
      middle = subset_nth (old_subset, anchor_from);
      a = subset_lower_bound (self->subset, new_n, middle);
      anchor_to = (guint) MIN (a, new_n > 0 ? new_n - 1 : 0);
    }
  if (lo != G_MAXUINT && anchor_from != G_MAXUINT && anchor_from < old_n && anchor_to < new_n)
    {
      gint64 lower = -(gint64) lo, upper = (gint64) new_n - 1 - hi;

      before = MAX (MIN ((gint64) anchor_to - (gint64) anchor_from, upper), lower);
    }
  if (lo == G_MAXUINT)
    lo = 0;
  after = (gint64) new_n - old_n - before;
  self->n_told = old_n;
  splice_rows (self, before < 0 ? (guint) (lo + before) : lo, before);
  /* At the end: when the rows held reach into a removed end, GTK remakes what it held there. */
  splice_rows (self, after < 0 ? new_n : (guint) (old_n + before), after);
  self->n_told = -1;

  /* The rows kept now show the events at their positions. */
  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &p, NULL))
    {
      SeismoEventItem *item = p;
      SeismoEventId event;

      if (item->position == G_MAXUINT || item->position >= new_n)
        continue;
      event = subset_nth (self->subset, item->position);
      if (event != item->event)
        {
          item->event = event;
          g_signal_emit (item, item_signals[ITEM_CHANGED], 0);
        }
    }
}

SeismoTrace *
seismo_event_list_model_get_trace (SeismoEventListModel *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_LIST_MODEL (self), NULL);
  return self->trace;
}

SeismoEventId
seismo_event_list_model_get_event (SeismoEventListModel *self,
                                   guint                 position)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_LIST_MODEL (self), SEISMO_NO_EVENT);
  if (position >= n_rows (self))
    return SEISMO_NO_EVENT;
  return subset_nth (self->subset, position);
}

guint
seismo_event_list_model_find_event (SeismoEventListModel *self,
                                    SeismoEventId         event)
{
  gsize n, pos;

  g_return_val_if_fail (SEISMO_IS_EVENT_LIST_MODEL (self), G_MAXUINT);
  n = n_rows (self);
  pos = subset_lower_bound (self->subset, n, event);
  return pos < n ? (guint) pos : G_MAXUINT;
}

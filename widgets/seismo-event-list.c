/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>

#include "seismo-text-cell.h"
#include "seismo-event-list.h"
#include "seismo-reveal-model.h"

struct _SeismoEventList
{
  GtkWidget             parent_instance;

  /* template widgets */
  GtkScrolledWindow    *scroller;
  GtkColumnView        *column_view;
  GtkColumnViewColumn  *columns[7];
  int                   digit_width;   /* of the font the columns are sized for; 0: not yet */
  guint                 time_chars;    /* the trace's longest time, "201.073478350": 13 */
  PangoFontDescription *sized_font;

  /* owned */
  SeismoEventListModel *model;
  SeismoRevealModel    *reveal;     /* model, its rows shown a few a frame at first */
  GtkSingleSelection   *selection;
  SeismoMatchSet       *subset;     /* the events listed; NULL: every event */
  SeismoView           *view;       /* followed: its result is listed, its selection selected */

  SeismoEventId         selected;
  gboolean              syncing;
  guint                 reveal_tick;   /* raising reveal's limit a frame at a time */
};

/* A new trace's rows come ROWS_PER_FRAME a frame until GTK 4.8 holds its 200 around the top.
 * Each row is seven cells of widgets to make; while a trace loads, the main thread shares the
 * cores with the workers preparing the timeline, so 40 rows a frame were 60-110 ms frames on two
 * cores, and 16 were 35-65 ms with GtkInscription cells, 8-16 ms of the main thread's CPU with
 * SeismoTextCell (the screenful on view still comes in the first two frames). */
#define ROWS_PER_FRAME 16
#define ROWS_REVEALED 240

enum {
  PROP_0,
  PROP_SELECTED_EVENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SeismoEventList, seismo_event_list, GTK_TYPE_WIDGET)

static void
on_selected_changed (SeismoEventList    *self,
                     GParamSpec         *pspec,
                     GtkSingleSelection *selection)
{
  guint pos = gtk_single_selection_get_selected (selection);
  SeismoEventId event = pos == GTK_INVALID_LIST_POSITION ? SEISMO_NO_EVENT
                        : seismo_event_list_model_get_event (self->model, pos);

  if (self->syncing || event == self->selected)
    return;
  self->selected = event;
  if (self->view != NULL)
    seismo_view_set_selected_event (self->view, event);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
}

/* GTK 4.8's GtkColumnView has no scroll_to(); its inner list view has the action. */
static GtkWidget *
find_list_view (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LIST_VIEW (child))
        return child;
      if ((found = find_list_view (child)) != NULL)
        return found;
    }
  return NULL;
}

static void
scroll_to (SeismoEventList *self,
           guint            position)
{
  GtkWidget *list_view = find_list_view (GTK_WIDGET (self->column_view));

  if (list_view != NULL)
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", position);
}

/* The cells: a text per column, filled from the row item's property of that column. Built in
 * C, not by a GtkBuilderListItemFactory: that one parses its template for every cell, and a new
 * model makes a screenful of them at once. */
typedef struct {
  const char *column_id;
  const char *property;
  float       xalign;
  gboolean    numeric;
  guint       chars;      /* the column's width at first, in digits' widths */
} CellSpec;

static const CellSpec cell_specs[] = {
  { "index_column", "index", 1.0f, TRUE,   8 },
  { "time_column",  "time",  1.0f, TRUE,  11 },
  { "cpu_column",   "cpu",   1.0f, TRUE,   3 },
  { "task_column",  "task",  0.0f, FALSE, 15 },
  { "pid_column",   "pid",   1.0f, TRUE,   7 },
  { "name_column",  "name",  0.0f, FALSE, 16 },
  /* At least this; it expands into the room the others leave. */
  { "info_column",  "info",  0.0f, FALSE, 20 },
};

/* The time column's index in cell_specs. */
#define TIME_COLUMN 1

/* The time column wide enough for the trace's last time: seconds since its start, nine decimals. */
static void
fit_time_column (SeismoEventList *self,
                 SeismoTrace     *trace)
{
  guint64 seconds = (seismo_trace_get_end_ns (trace) - seismo_trace_get_start_ns (trace)) / 1000000000u;
  guint chars = 1 + 9 + 1;
  int width;

  while (seconds >= 10)
    {
      chars++;
      seconds /= 10;
    }
  self->time_chars = chars;
  if (self->digit_width == 0)
    return;
  /* Only ever wider: a width the user chose that fits stays. */
  width = (int) chars * self->digit_width + 12;
  if (gtk_column_view_column_get_fixed_width (self->columns[TIME_COLUMN]) < width)
    gtk_column_view_column_set_fixed_width (self->columns[TIME_COLUMN], width);
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            SeismoEventList          *self)
{
  const CellSpec *spec = g_object_get_data (G_OBJECT (factory), "seismo-cell-spec");
  /* The list's font and layout serve every cell (seismo-text-cell.h): a new model's screenful
   * of rows is laid out without a Pango context per cell or shaping any text to measure it. */
  GtkWidget *cell = seismo_text_cell_new (GTK_WIDGET (self), spec->xalign, spec->numeric);

  g_object_set_data (G_OBJECT (cell), "seismo-cell-spec", (gpointer) spec);
  gtk_list_item_set_child (list_item, cell);
}

static void
cell_refresh (GObject     *item,
              GtkListItem *list_item)
{
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  const CellSpec *spec = g_object_get_data (G_OBJECT (cell), "seismo-cell-spec");
  g_autofree char *text = NULL;

  if (item != NULL)
    g_object_get (item, spec->property, &text, NULL);
  seismo_text_cell_set_text (SEISMO_TEXT_CELL (cell), text != NULL ? text : "");
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           const CellSpec           *spec)
{
  GObject *item = gtk_list_item_get_item (list_item);

  /* A changed list re-points the rows it keeps (seismo_event_list_model_replace_subset). */
  if (item != NULL)
    g_signal_connect (item, "changed", G_CALLBACK (cell_refresh), list_item);
  /* Which row is where on screen (row_at). */
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (list_item)), "seismo-item", item);
  cell_refresh (item, list_item);
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             const CellSpec           *spec)
{
  GObject *item = gtk_list_item_get_item (list_item);

  if (item != NULL)
    g_signal_handlers_disconnect_by_func (item, cell_refresh, list_item);
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (list_item)), "seismo-item", NULL);
}

static void
seismo_event_list_dispose (GObject *object)
{
  SeismoEventList *self = SEISMO_EVENT_LIST (object);

  seismo_event_list_set_view (self, NULL);
  if (self->reveal_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->column_view), self->reveal_tick);
  self->reveal_tick = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_EVENT_LIST);
  g_clear_object (&self->selection);
  g_clear_object (&self->reveal);
  g_clear_object (&self->model);
  g_clear_pointer (&self->subset, seismo_match_set_unref);
  g_clear_pointer (&self->sized_font, pango_font_description_free);
  G_OBJECT_CLASS (seismo_event_list_parent_class)->dispose (object);
}

static void
seismo_event_list_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SeismoEventList *self = SEISMO_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_SELECTED_EVENT:
      g_value_set_uint (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_event_list_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SeismoEventList *self = SEISMO_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_SELECTED_EVENT:
      seismo_event_list_set_selected_event (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Columns start at a width of so many characters of the list's font instead of the widest of
 * their cells: GTK 4.8 measures every cell of a column (some 200 rows are alive) whenever rows
 * come or go, so that sizing by content cost a relayout of the whole list per batch of rows
 * shown (~50 ms a frame on opening a trace). The user resizes them as before; the Info column
 * takes the room left. When the font changes (presenter mode's 15 pt, the desktop's font or
 * scale), every column is scaled by the change of digit width, widths the user chose too, so
 * that the Time column is not cut short. */
static void
size_columns (SeismoEventList *self)
{
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoFontMetrics *metrics = pango_context_get_metrics (context, NULL, NULL);
  int digit = MAX (pango_font_metrics_get_approximate_digit_width (metrics) / PANGO_SCALE, 4);

  pango_font_metrics_unref (metrics);
  g_clear_pointer (&self->sized_font, pango_font_description_free);
  self->sized_font = pango_font_description_copy (pango_context_get_font_description (context));
  if (digit == self->digit_width)
    return;

  for (guint c = 0; c < G_N_ELEMENTS (cell_specs); c++)
    {
      guint chars = c == TIME_COLUMN ? MAX (cell_specs[c].chars, self->time_chars) : cell_specs[c].chars;
      /* Cells have some 12 px of padding around their text. */
      int width = (int) chars * digit + 12;
      int now = gtk_column_view_column_get_fixed_width (self->columns[c]);

      if (self->digit_width != 0 && now > 12)
        width = (int) lround ((double) (now - 12) * digit / self->digit_width) + 12;
      gtk_column_view_column_set_fixed_width (self->columns[c], width);
    }
  self->digit_width = digit;
}

static void
seismo_event_list_realize (GtkWidget *widget)
{
  SeismoEventList *self = SEISMO_EVENT_LIST (widget);

  GTK_WIDGET_CLASS (seismo_event_list_parent_class)->realize (widget);
  if (self->digit_width == 0)
    size_columns (self);
}

static void
seismo_event_list_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  SeismoEventList *self = SEISMO_EVENT_LIST (widget);
  PangoContext *context;

  GTK_WIDGET_CLASS (seismo_event_list_parent_class)->css_changed (widget, change);
  if (self->digit_width == 0)
    return;
  /* Most style changes (states, colors) leave the font: only a new one costs the metrics. */
  context = gtk_widget_get_pango_context (widget);
  if (!pango_font_description_equal (self->sized_font, pango_context_get_font_description (context)))
    size_columns (self);
}

static void
seismo_event_list_system_setting_changed (GtkWidget           *widget,
                                          GtkSystemSetting  setting)
{
  SeismoEventList *self = SEISMO_EVENT_LIST (widget);

  GTK_WIDGET_CLASS (seismo_event_list_parent_class)->system_setting_changed (widget, setting);
  if (self->digit_width != 0 && (setting == GTK_SYSTEM_SETTING_DPI || setting == GTK_SYSTEM_SETTING_FONT_NAME))
    size_columns (self);
}

static void
seismo_event_list_class_init (SeismoEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_event_list_dispose;
  widget_class->realize = seismo_event_list_realize;
  widget_class->css_changed = seismo_event_list_css_changed;
  widget_class->system_setting_changed = seismo_event_list_system_setting_changed;
  object_class->get_property = seismo_event_list_get_property;
  object_class->set_property = seismo_event_list_set_property;

  properties[PROP_SELECTED_EVENT] =
    g_param_spec_uint ("selected-event", NULL, NULL, 0, G_MAXUINT, SEISMO_NO_EVENT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SEISMO_TYPE_EVENT_ITEM);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/seismo/widgets/seismo-event-list.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoEventList, scroller);
  gtk_widget_class_bind_template_child (widget_class, SeismoEventList, column_view);
  G_STATIC_ASSERT (G_N_ELEMENTS (cell_specs) == G_N_ELEMENTS (((SeismoEventList *) NULL)->columns));
  for (guint c = 0; c < G_N_ELEMENTS (cell_specs); c++)
    gtk_widget_class_bind_template_child_full (widget_class, cell_specs[c].column_id, FALSE,
                                               G_STRUCT_OFFSET (SeismoEventList, columns)
                                               + c * sizeof (GtkColumnViewColumn *));
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismo-event-list");
}

static void
seismo_event_list_init (SeismoEventList *self)
{
  self->selected = SEISMO_NO_EVENT;
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint c = 0; c < G_N_ELEMENTS (cell_specs); c++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_object_set_data (G_OBJECT (factory), "seismo-cell-spec", (gpointer) &cell_specs[c]);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), self);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), (gpointer) &cell_specs[c]);
      g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), (gpointer) &cell_specs[c]);
      gtk_column_view_column_set_factory (self->columns[c], factory);
    }
}

/**
 * seismo_event_list_new:
 *
 * Returns: (transfer floating): a new, empty event list
 */
GtkWidget *
seismo_event_list_new (void)
{
  return g_object_new (SEISMO_TYPE_EVENT_LIST, NULL);
}

static void
stop_reveal (SeismoEventList *self)
{
  if (self->reveal_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->column_view), self->reveal_tick);
  self->reveal_tick = 0;
  if (self->reveal != NULL)
    seismo_reveal_model_set_limit (self->reveal, G_MAXUINT);
}

static gboolean
reveal_rows (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       user_data)
{
  SeismoEventList *self = user_data;
  guint limit = seismo_reveal_model_get_limit (self->reveal) + ROWS_PER_FRAME;

  if (limit < ROWS_REVEALED)
    {
      seismo_reveal_model_set_limit (self->reveal, limit);
      return G_SOURCE_CONTINUE;
    }
  self->reveal_tick = 0;
  seismo_reveal_model_set_limit (self->reveal, G_MAXUINT);
  return G_SOURCE_REMOVE;
}

/* Shows model, with the selected event (kept by id) selected in it when it lists it. The view is
 * given a whole new model: GTK 4.8 takes items-changed over millions of rows by asking for every
 * one, while a new model costs only the rows on screen. */
static void
show_model (SeismoEventList      *self,
            SeismoEventListModel *model)
{
  guint pos = GTK_INVALID_LIST_POSITION;

  stop_reveal (self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, on_selected_changed, self);
  g_clear_object (&self->selection);
  g_clear_object (&self->reveal);
  g_set_object (&self->model, model);
  if (model != NULL)
    {
      if (self->selected != SEISMO_NO_EVENT)
        {
          guint found = seismo_event_list_model_find_event (model, self->selected);

          if (found != G_MAXUINT && seismo_event_list_model_get_event (model, found) == self->selected)
            pos = found;
        }
      /* Without a selection to show, a new trace's rows come a few a frame (reveal_rows). */
      self->reveal = seismo_reveal_model_new (G_LIST_MODEL (model),
                                              pos == GTK_INVALID_LIST_POSITION
                                              && g_list_model_get_n_items (G_LIST_MODEL (model)) > ROWS_REVEALED
                                              ? ROWS_PER_FRAME : G_MAXUINT);
      self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->reveal)));
      gtk_single_selection_set_autoselect (self->selection, FALSE);
      gtk_single_selection_set_can_unselect (self->selection, TRUE);
      gtk_single_selection_set_selected (self->selection, pos);
      g_signal_connect_swapped (self->selection, "notify::selected",
                                G_CALLBACK (on_selected_changed), self);
    }
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  if (pos != GTK_INVALID_LIST_POSITION)
    scroll_to (self, pos);
  if (self->reveal != NULL && seismo_reveal_model_get_limit (self->reveal) != G_MAXUINT)
    self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->column_view), reveal_rows, self, NULL);
}

void
seismo_event_list_set_trace (SeismoEventList *self,
                             SeismoTrace     *trace)
{
  g_autoptr(SeismoEventListModel) model = NULL;

  g_return_if_fail (SEISMO_IS_EVENT_LIST (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  if (self->model != NULL && seismo_event_list_model_get_trace (self->model) == trace)
    return;
  g_clear_pointer (&self->subset, seismo_match_set_unref);
  /* A grown trace keeps the selected event when it still exists. */
  if (self->selected != SEISMO_NO_EVENT &&
      (trace == NULL || self->selected >= seismo_trace_get_n_events (trace)))
    {
      self->selected = SEISMO_NO_EVENT;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
    }
  if (trace != NULL)
    {
      model = seismo_event_list_model_new (trace);
      fit_time_column (self, trace);
    }
  show_model (self, model);
}

/* The position of the row at y in the list view, G_MAXUINT when none is there. */
static guint
row_at (GtkWidget *list_view,
        double     y,
        int       *height)
{
  GtkWidget *widget = gtk_widget_pick (list_view, 4, y, GTK_PICK_INSENSITIVE | GTK_PICK_NON_TARGETABLE);

  /* The text of a cell, or a cell or row around it: down to the first text. */
  while (widget != NULL && g_object_get_data (G_OBJECT (widget), "seismo-item") == NULL
         && gtk_widget_get_first_child (widget) != NULL && !SEISMO_IS_TEXT_CELL (widget))
    widget = gtk_widget_get_first_child (widget);
  if (widget == NULL || g_object_get_data (G_OBJECT (widget), "seismo-item") == NULL)
    return G_MAXUINT;
  if (height != NULL)
    *height = gtk_widget_get_height (gtk_widget_get_parent (widget));
  return seismo_event_item_get_position (g_object_get_data (G_OBJECT (widget), "seismo-item"));
}

/* The position of event in subset, or of the next one listed, clamped to the last; G_MAXUINT
 * when subset lists nothing. NULL subset: every event of a trace of n events. */
static guint
position_in (SeismoMatchSet *subset,
             gsize           n,
             SeismoEventId   event)
{
  gsize n_listed = subset != NULL ? seismo_match_set_get_size (subset) : n;

  if (n_listed == 0)
    return G_MAXUINT;
  return (guint) MIN (seismo_event_list_subset_position (subset, n, event), n_listed - 1);
}

void
seismo_event_list_set_subset (SeismoEventList *self,
                              SeismoMatchSet  *matches)
{
  GtkWidget *list_view;
  SeismoTrace *trace;
  guint old_n, top = G_MAXUINT, n_shown = 0, old_selected, anchor_from = G_MAXUINT, anchor_to = G_MAXUINT;
  guint pos = G_MAXUINT;

  g_return_if_fail (SEISMO_IS_EVENT_LIST (self));

  if (self->model == NULL || seismo_match_set_equal (matches, self->subset))
    return;   /* nothing changed: the list stays as it is, scrolled where it was */
  stop_reveal (self);
  g_clear_pointer (&self->subset, seismo_match_set_unref);
  self->subset = matches != NULL ? seismo_match_set_ref (matches) : NULL;
  trace = seismo_event_list_model_get_trace (self->model);

  /* The rows on screen: the selected one, when shown, keeps its place on screen; otherwise the
   * top row's place goes to its event or the next one listed. */
  old_n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (old_n > 0 && (list_view = find_list_view (GTK_WIDGET (self->column_view))) != NULL)
    {
      int row_height = 0;

      /* All rows are one line high: the rows shown follow from the top one's height. A row
       * without height is one GTK has not laid out again since it scrolled away. */
      for (int y = 1; y < gtk_widget_get_height (list_view) && row_height <= 0; y += 4)
        top = row_at (list_view, y, &row_height);
      if (top != G_MAXUINT && row_height > 0)
        n_shown = (guint) (gtk_widget_get_height (list_view) / row_height);
      else
        top = G_MAXUINT;
    }
  old_selected = self->selection != NULL ? gtk_single_selection_get_selected (self->selection)
                                         : GTK_INVALID_LIST_POSITION;
  if (self->selected != SEISMO_NO_EVENT)
    {
      guint found = position_in (matches, seismo_trace_get_n_events (trace), self->selected);

      if (found != G_MAXUINT
          && (matches == NULL || seismo_match_set_contains (matches, self->selected)))
        pos = found;
    }
  /* Not laid out yet (top unknown): the selected row, which was just scrolled to. */
  if (pos != G_MAXUINT && old_selected != GTK_INVALID_LIST_POSITION &&
      (top == G_MAXUINT || (old_selected >= top && old_selected <= top + n_shown)))
    anchor_from = old_selected, anchor_to = pos;
  else if (top != G_MAXUINT)
    {
      anchor_from = top;
      anchor_to = position_in (matches, seismo_trace_get_n_events (trace),
                               seismo_event_list_model_get_event (self->model, top));
    }

  /* Unselected first: GtkSingleSelection would search every added row for a removed selection. */
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  seismo_event_list_model_replace_subset (self->model, matches, anchor_from, anchor_to);
  gtk_single_selection_set_selected (self->selection, pos == G_MAXUINT ? GTK_INVALID_LIST_POSITION : pos);
  self->syncing = FALSE;
  if (pos != G_MAXUINT && anchor_from != old_selected)
    scroll_to (self, pos);
}

SeismoEventListModel *
seismo_event_list_get_model (SeismoEventList *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_LIST (self), NULL);
  return self->model;
}

guint
seismo_event_list_get_selected_event (SeismoEventList *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_LIST (self), SEISMO_NO_EVENT);
  return self->selected;
}

void
seismo_event_list_set_selected_event (SeismoEventList *self,
                                      guint            event)
{
  guint pos = G_MAXUINT;

  g_return_if_fail (SEISMO_IS_EVENT_LIST (self));
  if (event == self->selected)
    return;
  if (event != SEISMO_NO_EVENT)
    stop_reveal (self);
  if (self->model != NULL && event != SEISMO_NO_EVENT)
    pos = seismo_event_list_model_find_event (self->model, event);
  self->selected = event;
  if (self->selection != NULL)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->selection,
                                         pos == G_MAXUINT ? GTK_INVALID_LIST_POSITION : pos);
      self->syncing = FALSE;
      if (pos != G_MAXUINT)
        scroll_to (self, pos);
    }
  if (self->view != NULL)
    seismo_view_set_selected_event (self->view, event);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
}

/* The view's result in force; while a filter is evaluated, the matches found so far. */
static void
on_view_result (SeismoEventList *self)
{
  seismo_event_list_set_subset (self, seismo_view_get_matches (self->view));
}

static void
on_view_partial (SeismoEventList *self,
                 SeismoMatchSet  *matches)
{
  seismo_event_list_set_subset (self, matches);
}

static void
on_view_busy (SeismoEventList *self)
{
  /* Stopped before the end: back to the result in force (no-op when it is what is listed). */
  if (!seismo_view_get_filter_busy (self->view))
    on_view_result (self);
}

static void
on_view_selected (SeismoEventList *self)
{
  seismo_event_list_set_selected_event (self, seismo_view_get_selected_event (self->view));
}

void
seismo_event_list_set_view (SeismoEventList *self,
                            SeismoView      *view)
{
  static const SeismoViewHandler handlers[] = {
    { "result-changed", G_CALLBACK (on_view_result) },
    { "partial-result", G_CALLBACK (on_view_partial) },
    { "notify::filter-busy", G_CALLBACK (on_view_busy) },
    { "notify::selected-event", G_CALLBACK (on_view_selected) },
  };

  g_return_if_fail (SEISMO_IS_EVENT_LIST (self));
  g_return_if_fail (view == NULL || SEISMO_IS_VIEW (view));

  if (!seismo_view_connect (&self->view, view, self, handlers, G_N_ELEMENTS (handlers)) || view == NULL)
    return;
  on_view_selected (self);
  on_view_result (self);
}

SeismoView *
seismo_event_list_get_view (SeismoEventList *self)
{
  g_return_val_if_fail (SEISMO_IS_EVENT_LIST (self), NULL);
  return self->view;
}

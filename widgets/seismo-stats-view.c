/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "seismo-file-summary.h"
#include "seismo-filter.h"
#include "seismo-pane-range-private.h"
#include "seismo-pane-spinner-private.h"
#include "seismo-runnable-latency.h"
#include "seismo-stats.h"
#include "seismo-stats-view.h"
#include "seismo-text-cell.h"
#include "seismo-view-follower.h"
#include "seismo-thread-states.h"
#include "seismo-timeline-renderer.h"
#include "seismo-timing.h"
#include "seismo-work-priority.h"

#define MAX_VALUES 9
/* One row of a table: a name, its figures and the filter that keeps its events. A table has at
 * most a few thousand rows (tasks), so an object per row is fine here. */
#define SEISMO_TYPE_STATS_ROW (seismo_stats_row_get_type ())
G_DECLARE_FINAL_TYPE (SeismoStatsRow, seismo_stats_row, SEISMO, STATS_ROW, GObject)

struct _SeismoStatsRow
{
  GObject  parent_instance;
  char    *name;
  char    *filter;
  double   values[MAX_VALUES];
};

G_DEFINE_FINAL_TYPE (SeismoStatsRow, seismo_stats_row, G_TYPE_OBJECT)

static void
seismo_stats_row_finalize (GObject *object)
{
  SeismoStatsRow *self = SEISMO_STATS_ROW (object);

  g_free (self->name);
  g_free (self->filter);
  G_OBJECT_CLASS (seismo_stats_row_parent_class)->finalize (object);
}

static void
seismo_stats_row_class_init (SeismoStatsRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = seismo_stats_row_finalize;
}

static void
seismo_stats_row_init (SeismoStatsRow *self)
{
}

static SeismoStatsRow *
stats_row_new (char *name,
               char *filter)
{
  SeismoStatsRow *row = g_object_new (SEISMO_TYPE_STATS_ROW, NULL);

  row->name = name;
  row->filter = filter;
  return row;
}

/* Columns */

typedef enum {
  FORMAT_NAME,
  FORMAT_COUNT,
  FORMAT_DURATION,   /* ns */
  FORMAT_PERCENT,
  FORMAT_RATE,       /* per second */
} ColumnFormat;

typedef struct {
  const char   *title;
  const char   *csv;     /* CSV header: raw units */
  ColumnFormat  format;
  int           value;   /* index into values; -1 for the name */
} ColumnSpec;

static const ColumnSpec syscall_columns[] = {
  { N_("Syscall"), "syscall", FORMAT_NAME, -1 },
  { N_("% Time"), "percent_time", FORMAT_PERCENT, 0 },
  { N_("Total"), "total_ns", FORMAT_DURATION, 1 },
  { N_("Avg"), "avg_ns", FORMAT_DURATION, 2 },
  { N_("Max"), "max_ns", FORMAT_DURATION, 3 },
  { N_("Calls"), "calls", FORMAT_COUNT, 4 },
  { N_("Errors"), "errors", FORMAT_COUNT, 5 },
  { NULL }
};

static const ColumnSpec task_columns[] = {
  { N_("Task"), "task", FORMAT_NAME, -1 },
  { N_("CPU Time"), "cpu_ns", FORMAT_DURATION, 0 },
  /* Thread states over the range: the rest of the time (unknown, dead) is left out. */
  { N_("Runnable"), "runnable_ns", FORMAT_DURATION, 5 },
  { N_("Sleeping"), "sleeping_ns", FORMAT_DURATION, 6 },
  { N_("D"), "uninterruptible_ns", FORMAT_DURATION, 7 },
  /* Runnable latency: how long it waited for a CPU when ready, 99th percentile. */
  { N_("Runnable p99"), "runnable_latency_p99_ns", FORMAT_DURATION, 8 },
  { N_("Switches"), "switches", FORMAT_COUNT, 1 },
  { N_("Wakeups"), "wakeups", FORMAT_COUNT, 2 },
  { N_("Syscalls"), "syscalls", FORMAT_COUNT, 3 },
  { N_("Events"), "events", FORMAT_COUNT, 4 },
  { NULL }
};

static const ColumnSpec cpu_columns[] = {
  { N_("CPU"), "cpu", FORMAT_NAME, -1 },
  { N_("Busy"), "busy_percent", FORMAT_PERCENT, 0 },
  { N_("Busy Time"), "busy_ns", FORMAT_DURATION, 1 },
  { N_("Switches"), "switches", FORMAT_COUNT, 2 },
  { N_("Events"), "events", FORMAT_COUNT, 3 },
  { NULL }
};

static const ColumnSpec event_columns[] = {
  { N_("Event"), "event", FORMAT_NAME, -1 },
  { N_("Count"), "count", FORMAT_COUNT, 0 },
  { N_("Rate"), "per_second", FORMAT_RATE, 1 },
  { NULL }
};

static const ColumnSpec *const table_columns[SEISMO_STATS_TABLE_N] = {
  syscall_columns, task_columns, cpu_columns, event_columns,
};

static const char *const table_names[SEISMO_STATS_TABLE_N] = { "syscall", "task", "cpu", "event" };
static const char *const table_titles[SEISMO_STATS_TABLE_N] = {
  N_("Syscalls"), N_("Tasks"), N_("CPUs"), N_("Events"),
};

/* The column each table is sorted by at first, largest first. */
static const guint default_sort[SEISMO_STATS_TABLE_N] = { 2, 1, 1, 1 };

struct _SeismoStatsView
{
  GtkWidget      parent_instance;
  SeismoViewFollower      follower;   /* the view it shows, when it follows one */

  /* template widgets */
  GtkSpinner    *spinner;
  GtkLabel      *scope_label;
  GtkStack      *stack;
  GtkColumnView *syscall_view;
  GtkColumnView *task_view;
  GtkColumnView *cpu_view;
  GtkColumnView *event_view;

  /* owned */
  SeismoTrace   *trace;
  SeismoFileSummary *summary;   /* a trace larger than memory: trace is its loaded window */
  SeismoPaneRange range;
  GListStore    *stores[SEISMO_STATS_TABLE_N];
  GtkSortListModel *sorted[SEISMO_STATS_TABLE_N];
  GCancellable  *cancellable;
  GPtrArray     *unshown[SEISMO_STATS_TABLE_N];   /* rows computed, not yet in the store */
  GPtrArray     *feeding[SEISMO_STATS_TABLE_N];   /* sorted rows going into the store */
  guint          fed[SEISMO_STATS_TABLE_N];       /* how many of feeding are in */
  guint          feed_source;
  SeismoPaneRange shown_range;  /* what the stores' rows (and unshown) were computed for */
  gboolean       have_result;   /* shown_range is valid */
  int            shown_source;  /* StatsSource of the rows shown */
  SeismoPaneSpinner busy;        /* shows spinner after a delay */
  gboolean       pending;      /* the range changed while hidden: compute when shown */
};

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  FILTER_REQUESTED,
  UPDATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SeismoStatsView, seismo_stats_view, GTK_TYPE_WIDGET)

static GtkColumnView *
table_view (SeismoStatsView  *self,
            SeismoStatsTable  table)
{
  GtkColumnView *views[] = { self->syscall_view, self->task_view, self->cpu_view, self->event_view };

  return views[table];
}

/* A figure the trace never measured (an strace log without times, seismo-timing.h) is NAN in a
 * row: shown as "—", sorted below every number, empty in CSV. */
#define UNKNOWN_VALUE NAN

static char *
format_value (ColumnFormat format,
              double       v)
{
  if (isnan (v))
    return g_strdup ("—");
  switch (format)
    {
    case FORMAT_COUNT:
      return g_strdup_printf ("%'.0f", v);
    case FORMAT_DURATION:
      return seismo_format_duration (v);
    case FORMAT_PERCENT:
      return g_strdup_printf ("%.2f %%", v);
    case FORMAT_RATE:
      return g_strdup_printf (v >= 100 ? "%'.0f/s" : "%.2f/s", v);
    case FORMAT_NAME:
    default:
      return g_strdup ("");
    }
}

static char *
cell_text (const ColumnSpec     *spec,
           const SeismoStatsRow *row)
{
  return spec->value < 0 ? g_strdup (row->name) : format_value (spec->format, row->values[spec->value]);
}

/* Factories and sorters */

/* What a column's cells are made with: its spec, and the table whose font they share. */
typedef struct {
  const ColumnSpec *spec;
  GtkWidget        *table;   /* borrowed: the GtkColumnView, which outlives its cells */
} ColumnCells;

static void
column_cells_free (gpointer  data,
                   GClosure *closure)
{
  g_free (data);
}

/* Text cells sized by their text: a GtkLabel made its own layout and measured it again at each
 * relayout, most of the main thread's work of opening the pane. */
static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            const ColumnCells        *column)
{
  gboolean numeric = column->spec->value >= 0;
  GtkWidget *cell = seismo_text_cell_new (column->table, numeric ? 1.0f : 0.0f, numeric);

  seismo_text_cell_set_fit_text (SEISMO_TEXT_CELL (cell), TRUE);
  gtk_list_item_set_child (item, cell);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           const ColumnCells        *column)
{
  g_autofree char *text = cell_text (column->spec, gtk_list_item_get_item (item));

  seismo_text_cell_set_text (SEISMO_TEXT_CELL (gtk_list_item_get_child (item)), text);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const ColumnSpec *spec = user_data;
  const SeismoStatsRow *x = a, *y = b;

  if (spec->value < 0)
    return g_utf8_collate (x->name, y->name);
  if (isnan (x->values[spec->value]) != isnan (y->values[spec->value]))
    return isnan (x->values[spec->value]) ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  if (!isnan (x->values[spec->value]) && x->values[spec->value] != y->values[spec->value])
    return x->values[spec->value] < y->values[spec->value] ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  return g_utf8_collate (x->name, y->name);
}

static void
build_columns (SeismoStatsView  *self,
               SeismoStatsTable  table)
{
  GtkColumnView *view = table_view (self, table);
  const ColumnSpec *specs = table_columns[table];
  GtkColumnViewColumn *first_sort = NULL;
  GtkNoSelection *selection;

  self->stores[table] = g_list_store_new (SEISMO_TYPE_STATS_ROW);
  for (guint c = 0; specs[c].title != NULL; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      ColumnCells *cells = g_new (ColumnCells, 1);
      GtkSorter *sorter;

      cells->spec = &specs[c];
      cells->table = GTK_WIDGET (view);
      g_signal_connect_data (factory, "setup", G_CALLBACK (setup_cell), cells,
                             column_cells_free, 0);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), cells);
      column = gtk_column_view_column_new (_(specs[c].title), factory);
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, (gpointer) &specs[c], NULL));
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == 0);
      gtk_column_view_append_column (view, column);
      if (c == default_sort[table])
        first_sort = column;
    }
  self->sorted[table] = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->stores[table])),
                                                 g_object_ref (gtk_column_view_get_sorter (view)));
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->sorted[table])));
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  if (first_sort != NULL)
    gtk_column_view_sort_by_column (view, first_sort, GTK_SORT_DESCENDING);
}

/* Computing on a worker */

/* Where a trace larger than memory (one with a summary) has its figures from. A trace loaded
 * whole always counts its events (SOURCE_EVENTS). */
typedef enum {
  SOURCE_EVENTS,          /* the loaded events: all the range has */
  SOURCE_SUMMARY,         /* the whole trace: the file's summary tables, exact */
  SOURCE_SUMMARY_RANGE,   /* a range beyond the loaded events: chunk counts and LOD rows */
  SOURCE_LOADED_FILTERED, /* a filter: it ran over the loaded events only */
} StatsSource;

typedef struct {
  SeismoTrace    *trace;
  SeismoFileSummary *summary;
  StatsSource     source;
  SeismoPaneRange range;
  GPtrArray      *rows[SEISMO_STATS_TABLE_N];
} StatsJob;

static void
stats_job_free (StatsJob *job)
{
  g_clear_object (&job->trace);
  g_clear_pointer (&job->summary, seismo_file_summary_free);
  seismo_pane_range_reset (&job->range);
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    g_clear_pointer (&job->rows[t], g_ptr_array_unref);
  g_free (job);
}

/* What every table's rows are made from. */
typedef struct {
  StatsJob        *job;
  SeismoSelection  sel;
  guint64          first;      /* the range, clipped to the trace */
  guint64          last;
  double           span_ns;
  gboolean         timed;
} StatsInput;

static void
syscall_rows_of (GArray    *syscalls,
                 GPtrArray *rows)
{
  double total_syscall_ns = 0;

  for (guint i = 0; i < syscalls->len; i++)
    total_syscall_ns += (double) g_array_index (syscalls, SeismoSyscallStats, i).total_ns;
  for (guint i = 0; i < syscalls->len; i++)
    {
      const SeismoSyscallStats *s = &g_array_index (syscalls, SeismoSyscallStats, i);
      SeismoStatsRow *row;

      if (s->calls == 0 && s->unfinished == 0)
        continue;
      row = stats_row_new (g_strdup (s->name), g_strdup_printf ("syscall == %s", s->name));
      row->values[0] = total_syscall_ns > 0 ? 100.0 * (double) s->total_ns / total_syscall_ns : 0;
      row->values[1] = (double) s->total_ns;
      row->values[2] = (double) s->avg_ns;
      row->values[3] = (double) s->max_ns;
      if (s->unknown & SEISMO_STATS_UNKNOWN_TIME)
        row->values[0] = row->values[1] = row->values[2] = UNKNOWN_VALUE;
      if (s->unknown & SEISMO_STATS_UNKNOWN_DISTRIBUTION)
        row->values[3] = UNKNOWN_VALUE;
      row->values[4] = (double) s->calls;
      row->values[5] = (double) s->errors;
      g_ptr_array_add (rows, row);
    }
}

static void
syscall_rows (const StatsInput *in,
              GPtrArray        *rows)
{
  /* The table has no percentile column: not working them out halves its cost. */
  g_autoptr(GArray) syscalls = seismo_stats_by_syscall_figures (in->job->trace, &in->sel,
                                                                SEISMO_STATS_FIGURES_BASIC);

  syscall_rows_of (syscalls, rows);
}

/* Task rows of tasks; states: the thread states and runnable latency are counted from the
 * trace's events (else unknown: a summary has none of them). */
static void
task_rows_of (const StatsInput *in,
              GArray           *tasks,
              gboolean          states_known,
              GPtrArray        *rows)
{
  SeismoTrace *trace = in->job->trace;

  for (guint i = 0; i < tasks->len; i++)
    {
      const SeismoTaskStats *s = &g_array_index (tasks, SeismoTaskStats, i);
      const SeismoTask *t = seismo_trace_get_task (trace, s->task);
      const char *comm = seismo_trace_get_string (trace, t->comm);
      SeismoStatsRow *row = stats_row_new (g_strdup_printf ("%s %d", comm != NULL ? comm : "?", t->tid),
                                           g_strdup_printf ("tid == %d", t->tid));
      g_autoptr(SeismoLatencyHistogram) h = NULL;
      SeismoLatencySummary latency;
      guint64 states[SEISMO_STATE_N];

      row->values[0] = in->timed ? (double) s->cpu_ns : UNKNOWN_VALUE;
      row->values[1] = (double) s->switches;
      row->values[2] = (double) s->wakeups;
      row->values[3] = (double) s->syscalls;
      row->values[4] = (double) s->events;
      if (!states_known)
        {
          for (guint v = 5; v <= 8; v++)
            row->values[v] = UNKNOWN_VALUE;
          g_ptr_array_add (rows, row);
          continue;
        }
      seismo_trace_task_state_totals (trace, s->task, in->first, in->last, states);
      row->values[5] = (double) states[SEISMO_STATE_RUNNABLE];
      row->values[6] = (double) (states[SEISMO_STATE_SLEEPING] + states[SEISMO_STATE_STOPPED]);
      row->values[7] = (double) states[SEISMO_STATE_UNINTERRUPTIBLE];
      h = seismo_runnable_latency_histogram (trace, s->task, in->first, in->last);
      seismo_latency_histogram_get_summary (h, &latency);
      row->values[8] = (double) latency.p99;
      g_ptr_array_add (rows, row);
    }
}

static void
task_rows (const StatsInput *in,
           GPtrArray        *rows)
{
  g_autoptr(GArray) tasks = seismo_stats_by_task (in->job->trace, &in->sel);

  task_rows_of (in, tasks, TRUE, rows);
}

static void
cpu_rows_of (const StatsInput *in,
             GArray           *cpus,
             GPtrArray        *rows)
{

  for (guint i = 0; i < cpus->len; i++)
    {
      const SeismoCpuStats *s = &g_array_index (cpus, SeismoCpuStats, i);
      SeismoStatsRow *row = stats_row_new (g_strdup_printf ("CPU %u", s->cpu),
                                           g_strdup_printf ("cpu == %u", s->cpu));

      row->values[0] = in->timed ? 100.0 * (double) s->busy_ns / in->span_ns : UNKNOWN_VALUE;
      row->values[1] = in->timed ? (double) s->busy_ns : UNKNOWN_VALUE;
      row->values[2] = (double) s->switches;
      row->values[3] = (double) s->events;
      g_ptr_array_add (rows, row);
    }
}

static void
cpu_rows (const StatsInput *in,
          GPtrArray        *rows)
{
  g_autoptr(GArray) cpus = seismo_stats_by_cpu (in->job->trace, &in->sel);

  cpu_rows_of (in, cpus, rows);
}

static void
event_rows_of (const StatsInput *in,
               GArray           *types,
               GPtrArray        *rows)
{
  SeismoTrace *trace = in->job->trace;

  for (guint i = 0; i < types->len; i++)
    {
      const SeismoTypeStats *s = &g_array_index (types, SeismoTypeStats, i);
      const SeismoEventType *type = seismo_trace_get_event_type (trace, s->type_id);
      g_autofree char *full = g_strdup_printf ("%s:%s", type->system, type->name);
      SeismoStatsRow *row;

      if (s->count == 0)
        continue;
      row = stats_row_new (g_strdup (full), g_strdup_printf ("event == %s", full));
      row->values[0] = (double) s->count;
      row->values[1] = in->timed ? (double) s->count / (in->span_ns / 1e9) : UNKNOWN_VALUE;
      g_ptr_array_add (rows, row);
    }
}

static void
event_rows (const StatsInput *in,
            GPtrArray        *rows)
{
  g_autoptr(GArray) types = seismo_stats_by_type (in->job->trace, &in->sel);

  event_rows_of (in, types, rows);
}

/* The whole trace from the file's summary: its tables, O(tasks + syscalls + types). */
static void
summary_rows (const StatsInput *in)
{
  SeismoFileSummary *summary = in->job->summary;
  g_autoptr(GArray) syscalls = seismo_file_summary_stats_by_syscall (summary);
  g_autoptr(GArray) tasks = seismo_file_summary_stats_by_task (summary);
  g_autoptr(GArray) cpus = seismo_file_summary_stats_by_cpu (summary);
  g_autoptr(GArray) types = seismo_file_summary_stats_by_type (summary);

  syscall_rows_of (syscalls, in->job->rows[SEISMO_STATS_TABLE_SYSCALL]);
  task_rows_of (in, tasks, FALSE, in->job->rows[SEISMO_STATS_TABLE_TASK]);
  cpu_rows_of (in, cpus, in->job->rows[SEISMO_STATS_TABLE_CPU]);
  event_rows_of (in, types, in->job->rows[SEISMO_STATS_TABLE_EVENT]);
}

/* A range the loaded events do not cover, from the summary: event types and syscalls (those that
 * ended) from the chunks that overlap it, CPUs' and tasks' events and busy time from one
 * level-of-detail cell over it (edge buckets shared in proportion). Switches, wakeups and thread
 * states need the events: unknown. A file without its syscalls by chunk (before format 1.3) leaves
 * the syscall table empty. Cost: O(chunks × syscalls + (CPUs + tasks) × buckets). */
static void
summary_range_rows (const StatsInput *in)
{
  SeismoFileSummary *summary = in->job->summary;
  SeismoTrace *tables = in->job->trace;
  guint n_types = seismo_trace_get_n_event_types (tables);
  g_autofree guint64 *counts = seismo_file_summary_range_type_counts (summary, in->first, in->last, NULL);
  g_autoptr(GArray) syscalls = seismo_file_summary_range_stats_by_syscall (summary, in->first, in->last);
  g_autoptr(GArray) types = g_array_new (FALSE, TRUE, sizeof (SeismoTypeStats));
  g_autoptr(GArray) cpus = g_array_new (FALSE, TRUE, sizeof (SeismoCpuStats));
  g_autoptr(GArray) tasks = g_array_new (FALSE, TRUE, sizeof (SeismoTaskStats));
  guint n_cpus = seismo_file_summary_get_n_cpus (summary);
  guint n_tasks = seismo_trace_get_n_tasks (tables);
  g_autofree guint64 *task_events = NULL;
  g_autofree guint64 *task_busy = NULL;

  for (guint i = 0; i < n_types; i++)
    {
      SeismoTypeStats s = { i, counts[i] };

      g_array_append_val (types, s);
    }
  event_rows_of (in, types, in->job->rows[SEISMO_STATS_TABLE_EVENT]);

  for (guint c = 0; c < n_cpus; c++)
    {
      SeismoLodCell cell = { 0 };
      SeismoCpuStats s = { c };

      /* A range narrower than the buckets: the CPU's figures are unknown (its row says so). */
      if (seismo_file_summary_cpu_row (summary, c, in->first, in->last + 1, 1, &cell))
        {
          s.events = cell.events;
          s.busy_ns = cell.busy_ns;
        }
      else
        s.events = s.busy_ns = G_MAXUINT64;
      g_array_append_val (cpus, s);
    }
  cpu_rows_of (in, cpus, in->job->rows[SEISMO_STATS_TABLE_CPU]);
  for (guint i = 0; i < cpus->len; i++)
    {
      SeismoStatsRow *row = in->job->rows[SEISMO_STATS_TABLE_CPU]->pdata[i];

      row->values[2] = UNKNOWN_VALUE;
      if (g_array_index (cpus, SeismoCpuStats, i).events == G_MAXUINT64)
        row->values[0] = row->values[1] = row->values[3] = UNKNOWN_VALUE;
    }

  task_events = g_new (guint64, MAX (n_tasks, 1));
  task_busy = g_new (guint64, MAX (n_tasks, 1));
  seismo_file_summary_range_task_totals (summary, in->first, in->last + 1, n_tasks, task_events, task_busy);
  for (guint t = 0; t < n_tasks; t++)
    {
      SeismoTaskStats s = { t, task_events[t], task_busy[t] };

      if (s.events > 0)
        g_array_append_val (tasks, s);
    }
  task_rows_of (in, tasks, FALSE, in->job->rows[SEISMO_STATS_TABLE_TASK]);
  for (guint i = 0; i < tasks->len; i++)
    {
      SeismoStatsRow *row = in->job->rows[SEISMO_STATS_TABLE_TASK]->pdata[i];

      row->values[1] = row->values[2] = row->values[3] = UNKNOWN_VALUE;
    }
  if (syscalls != NULL)
    syscall_rows_of (syscalls, in->job->rows[SEISMO_STATS_TABLE_SYSCALL]);
}

static gpointer
syscall_rows_thread (gpointer data)
{
  const StatsInput *in = data;

  seismo_work_priority_enter ();

  syscall_rows (in, in->job->rows[SEISMO_STATS_TABLE_SYSCALL]);
  return NULL;
}

static void
stats_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  StatsJob *job = task_data;
  SeismoTrace *trace = job->trace;
  StatsInput in = { job, seismo_pane_range_selection (&job->range) };
  GThread *helper;

  seismo_work_priority_enter ();

  in.first = MAX (job->range.start_ns, seismo_trace_get_start_ns (trace));
  in.last = MIN (job->range.end_ns, seismo_trace_get_end_ns (trace));
  if (job->source == SOURCE_SUMMARY || job->source == SOURCE_SUMMARY_RANGE)
    {
      in.first = MAX (job->range.start_ns, seismo_file_summary_get_start_ns (job->summary));
      in.last = MIN (job->range.end_ns, seismo_file_summary_get_end_ns (job->summary));
    }
  in.span_ns = in.last > in.first ? (double) (in.last - in.first) : 1;
  in.timed = seismo_trace_has_timestamps (trace);
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    job->rows[t] = g_ptr_array_new_with_free_func (g_object_unref);

  if (job->source == SOURCE_SUMMARY || job->source == SOURCE_SUMMARY_RANGE)
    {
      gint64 t0 = g_get_monotonic_time ();

      if (job->source == SOURCE_SUMMARY)
        summary_rows (&in);
      else
        summary_range_rows (&in);
      g_debug ("statistics of %s from the file's summary in %.1f ms",
               job->source == SOURCE_SUMMARY ? "the whole trace" : "a range",
               (g_get_monotonic_time () - t0) / 1e3);
      if (g_cancellable_is_cancelled (cancellable))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      else
        g_task_return_boolean (task, TRUE);
      return;
    }

  /* Two passes over the whole trace at once: the syscall table (spans) on a second thread,
   * the tasks, CPUs and events (events, runs, states) here. They only read the trace. */
  helper = g_thread_new ("seismo-stats", syscall_rows_thread, &in);
  task_rows (&in, job->rows[SEISMO_STATS_TABLE_TASK]);
  if (!g_cancellable_is_cancelled (cancellable))
    {
      cpu_rows (&in, job->rows[SEISMO_STATS_TABLE_CPU]);
      event_rows (&in, job->rows[SEISMO_STATS_TABLE_EVENT]);
    }
  g_thread_join (helper);
  if (g_cancellable_is_cancelled (cancellable))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_boolean (task, TRUE);
}

/* What the trace did not measure, said next to the scope (seismo-timing.h). */
static const char *
timing_note (SeismoTrace *trace)
{
  gboolean stamps = seismo_trace_has_timestamps (trace), durations = seismo_trace_has_durations (trace);

  if (!stamps && !durations)
    return _(" · no timing in this trace: counts only");
  if (!stamps)
    return _(" · no timestamps in this trace: call durations only");
  if (!durations)
    return _(" · no call durations in this trace");
  return "";
}

/* Where the figures of a trace larger than memory come from, for the range asked. The loaded
 * events serve a range inside them exactly, and a filter (it ran over them only); the summary
 * serves the whole trace exactly, and another range approximately. */
static StatsSource
choose_source (SeismoStatsView *self)
{
  guint64 n = seismo_trace_get_n_events (self->trace);
  const guint64 *times = seismo_trace_get_times (self->trace);

  if (self->summary == NULL)
    return SOURCE_EVENTS;
  if (self->range.mask != NULL)
    return SOURCE_LOADED_FILTERED;
  if (self->range.start_ns <= seismo_file_summary_get_start_ns (self->summary)
      && self->range.end_ns >= seismo_file_summary_get_end_ns (self->summary))
    return SOURCE_SUMMARY;
  /* The loaded window's own events (its start and end are the whole trace's). */
  if (n > 0 && self->range.start_ns >= times[0] && self->range.end_ns <= times[n - 1])
    return SOURCE_EVENTS;
  return SOURCE_SUMMARY_RANGE;
}

/* What the figures cover, for a trace larger than memory: said in the scope, since the same
 * table can hold exact, approximate or no figures depending on the range. */
static const char *
source_note (SeismoStatsView *self,
             StatsSource      source,
             const char     **tooltip)
{
  SeismoStatsTable table = seismo_stats_view_get_table (self);

  *tooltip = NULL;
  switch (source)
    {
    case SOURCE_SUMMARY:
      *tooltip = _("This trace is larger than memory: its statistics are read from the summary the "
                   "file holds, exact for every event (syscall percentiles from a histogram).");
      return _(" · from the file's summary");
    case SOURCE_SUMMARY_RANGE:
      if (!seismo_file_summary_has_range_syscalls (self->summary))
        {
          *tooltip = _("This range lies outside the events read: event counts come from the file's "
                       "summary, by chunks of 65,536 events (event types) or by time buckets (CPUs, "
                       "tasks). Switches, wakeups, syscalls and thread states need the events: zoom "
                       "in to read them.");
          if (table == SEISMO_STATS_TABLE_SYSCALL)
            return _(" · syscalls: not in the file's summary for a range, zoom in to read them");
        }
      else
        *tooltip = _("This range lies outside the events read: event counts and syscalls come from "
                     "the file's summary, by chunks of 65,536 events (event types, syscalls by the "
                     "chunk their exit is in) or by time buckets (CPUs, tasks). Switches, wakeups "
                     "and thread states need the events: zoom in to read them.");
      if (table == SEISMO_STATS_TABLE_EVENT || table == SEISMO_STATS_TABLE_SYSCALL)
        return _(" · from the file's summary, approximately (to 65,536 events)");
      return _(" · from the file's summary, approximately: event counts and times only");
    case SOURCE_LOADED_FILTERED:
      *tooltip = _("A filter runs over the events read, not the whole trace larger than memory: "
                   "zoom in to read the events of another part.");
      return _(" · loaded events only");
    case SOURCE_EVENTS:
    default:
      return "";
    }
}

static void
update_scope (SeismoStatsView *self)
{
  g_autofree char *text = NULL;
  const char *tooltip = NULL;

  if (self->trace == NULL)
    text = g_strdup ("");
  else
    {
      guint64 t0 = self->summary != NULL ? seismo_file_summary_get_start_ns (self->summary)
                                         : seismo_trace_get_start_ns (self->trace);
      guint64 t1 = self->summary != NULL ? seismo_file_summary_get_end_ns (self->summary)
                                         : seismo_trace_get_end_ns (self->trace);
      guint64 first = MAX (self->range.start_ns, t0);
      guint64 last = MIN (self->range.end_ns, t1);
      gboolean whole = first <= t0 && last >= t1;
      g_autofree char *a = seismo_format_time ((double) (first - t0), 1e3);
      g_autofree char *b = seismo_format_time ((double) (last - t0), 1e3);
      g_autofree char *range = whole ? g_strdup (_("Whole trace")) : g_strdup_printf ("%s … %s", a, b);
      StatsSource source = self->have_result ? (StatsSource) self->shown_source : choose_source (self);

      text = g_strdup_printf ("%s%s%s%s", range,
                              self->range.mask != NULL ? _(" · filtered events only") : "",
                              source_note (self, source, &tooltip),
                              timing_note (self->trace));
    }
  gtk_label_set_text (self->scope_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_label), tooltip);
}

/* Rows go into a table's store when it is shown or asked for: a store change costs the main
 * thread its list widgets' work, so opening the pane pays for one table, not four. And they go
 * in a few at a time, one batch a main-loop turn, sorted first so that the first batch is the
 * top of the table: a GtkColumnView makes widgets for up to 200 rows of a change at once, which
 * for the task table is thousands of labels in one frame. */
#define FEED_ROWS 24

static gboolean feed_rows_cb (gpointer data);

/* Appends up to max rows of the table's feed (G_MAXUINT: all of them); FALSE when it is done. */
static gboolean
feed_table (SeismoStatsView  *self,
            SeismoStatsTable  table,
            guint             max)
{
  GPtrArray *rows = self->feeding[table];
  guint n;

  if (rows == NULL)
    return FALSE;
  n = MIN (max, rows->len - self->fed[table]);
  g_list_store_splice (self->stores[table], g_list_model_get_n_items (G_LIST_MODEL (self->stores[table])),
                       0, rows->pdata + self->fed[table], n);
  self->fed[table] += n;
  if (self->fed[table] < rows->len)
    return TRUE;
  g_clear_pointer (&self->feeding[table], g_ptr_array_unref);
  return FALSE;
}

static gboolean
feed_rows_cb (gpointer data)
{
  SeismoStatsView *self = data;
  gboolean more = FALSE;

  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    more |= feed_table (self, t, FEED_ROWS);
  if (!more)
    self->feed_source = 0;
  return more ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static int
compare_by_sorter (gconstpointer a,
                   gconstpointer b,
                   gpointer      sorter)
{
  return gtk_sorter_compare (sorter, *(gpointer *) a, *(gpointer *) b);
}

static void
show_table_rows (SeismoStatsView  *self,
                 SeismoStatsTable  table)
{
  g_autoptr(GPtrArray) rows = g_steal_pointer (&self->unshown[table]);

  if (rows == NULL)
    return;
  /* In the table's order, as its sort model will show them: some hundred comparisons. */
  g_ptr_array_sort_with_data (rows, compare_by_sorter, gtk_column_view_get_sorter (table_view (self, table)));
  g_clear_pointer (&self->feeding[table], g_ptr_array_unref);
  self->feeding[table] = g_steal_pointer (&rows);
  self->fed[table] = 0;
  g_list_store_remove_all (self->stores[table]);
  if (feed_table (self, table, FEED_ROWS) && self->feed_source == 0)
    self->feed_source = g_idle_add (feed_rows_cb, self);
}

/* Every row of the table in its store now: for exports and tests. */
static void
show_all_table_rows (SeismoStatsView  *self,
                     SeismoStatsTable  table)
{
  show_table_rows (self, table);
  feed_table (self, table, G_MAXUINT);
}

static void
take_result (SeismoStatsView *self,
             StatsJob        *job)
{
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    {
      g_clear_pointer (&self->unshown[t], g_ptr_array_unref);
      g_clear_pointer (&self->feeding[t], g_ptr_array_unref);
      self->unshown[t] = g_steal_pointer (&job->rows[t]);
    }
  seismo_pane_range_set (&self->shown_range, job->range.start_ns, job->range.end_ns, job->range.mask);
  self->have_result = TRUE;
  self->shown_source = job->source;
  show_table_rows (self, seismo_stats_view_get_table (self));
  seismo_pane_spinner_stop (&self->busy);
  update_scope (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  g_signal_emit (self, signals[UPDATED], 0);
}

static void
stats_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SeismoStatsView *self = SEISMO_STATS_VIEW (source);
  StatsJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  take_result (self, job);
}

static GTask *
new_job (SeismoStatsView     *self,
         GCancellable        *cancellable,
         GAsyncReadyCallback  done)
{
  GTask *task = g_task_new (self, cancellable, done, NULL);
  StatsJob *job = g_new0 (StatsJob, 1);

  job->trace = g_object_ref (self->trace);
  job->summary = self->summary != NULL ? seismo_file_summary_ref (self->summary) : NULL;
  job->source = choose_source (self);
  seismo_pane_range_set (&job->range, self->range.start_ns, self->range.end_ns, self->range.mask);
  g_task_set_source_tag (task, new_job);
  g_task_set_task_data (task, job, (GDestroyNotify) stats_job_free);
  return task;
}

/* A hidden pane computes nothing: it is marked pending and computes when shown (map), or at
 * once when asked for its rows (an export, a test). */
static void
recompute (SeismoStatsView *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->pending = FALSE;
  if (self->trace == NULL)
    {
      for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
        {
          g_clear_pointer (&self->unshown[t], g_ptr_array_unref);
          g_clear_pointer (&self->feeding[t], g_ptr_array_unref);
          g_list_store_remove_all (self->stores[t]);
        }
      self->have_result = FALSE;
      seismo_pane_spinner_stop (&self->busy);
      update_scope (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
      return;
    }
  /* Back to the range the rows were computed for (a filter undone while the pane was hidden,
   * the same markers again): they still hold. */
  if (self->have_result && seismo_pane_range_equal (&self->shown_range, self->range.start_ns,
                                                    self->range.end_ns, self->range.mask))
    {
      seismo_pane_spinner_stop (&self->busy);
      update_scope (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
      return;
    }
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->pending = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
      return;
    }
  self->cancellable = g_cancellable_new ();
  task = new_job (self, self->cancellable, stats_done);
  g_task_run_in_thread (task, stats_thread);
  seismo_pane_spinner_start (&self->busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The rows of the current range, computed now if the pane was hidden when it changed or its
 * worker is not done. */
static void
flush_pending (SeismoStatsView *self)
{
  g_autoptr(GTask) task = NULL;

  if ((!self->pending && self->cancellable == NULL) || self->trace == NULL)
    return;
  /* A worker still counting is overtaken: its result would be the same. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->pending = FALSE;
  task = new_job (self, NULL, NULL);
  g_task_run_in_thread_sync (task, stats_thread);
  if (g_task_propagate_boolean (task, NULL))
    take_result (self, g_task_get_task_data (task));
}

static void
seismo_stats_view_map (GtkWidget *widget)
{
  SeismoStatsView *self = SEISMO_STATS_VIEW (widget);

  GTK_WIDGET_CLASS (seismo_stats_view_parent_class)->map (widget);
  if (self->pending)
    recompute (self);
}

/* Template callbacks */

static SeismoStatsTable
table_of_view (SeismoStatsView *self,
               GtkColumnView   *view)
{
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    if (table_view (self, t) == view)
      return t;
  g_assert_not_reached ();
}

static void
on_row_activated (SeismoStatsView *self,
                  guint            position,
                  GtkColumnView   *view)
{
  const char *filter = seismo_stats_view_row_filter (self, table_of_view (self, view), position);

  if (filter != NULL)
    g_signal_emit (self, signals[FILTER_REQUESTED], 0, filter);
}

static void
on_table_changed (SeismoStatsView *self)
{
  show_table_rows (self, seismo_stats_view_get_table (self));
  /* The scope of a trace larger than memory can differ by table. */
  update_scope (self);
  g_signal_emit (self, signals[UPDATED], 0);
}

/* GObject */

static void
seismo_stats_view_dispose (GObject *object)
{
  SeismoStatsView *self = SEISMO_STATS_VIEW (object);

  seismo_view_follower_clear (&self->follower);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_STATS_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->cancellable);
  seismo_pane_spinner_clear (&self->busy);
  g_clear_handle_id (&self->feed_source, g_source_remove);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->summary, seismo_file_summary_free);
  seismo_pane_range_reset (&self->range);
  seismo_pane_range_reset (&self->shown_range);
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    {
      g_clear_pointer (&self->unshown[t], g_ptr_array_unref);
      g_clear_pointer (&self->feeding[t], g_ptr_array_unref);
      g_clear_object (&self->sorted[t]);
      g_clear_object (&self->stores[t]);
    }
  G_OBJECT_CLASS (seismo_stats_view_parent_class)->dispose (object);
}
static void
seismo_stats_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, seismo_stats_view_get_busy (SEISMO_STATS_VIEW (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
seismo_stats_view_class_init (SeismoStatsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_stats_view_dispose;
  object_class->get_property = seismo_stats_view_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SeismoStatsView::filter-requested:
   * @expression: a filter expression keeping the activated row's events
   */
  signals[FILTER_REQUESTED] = g_signal_new ("filter-requested", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, G_TYPE_STRING);
  /* New figures are shown, or another table. */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/seismo/widgets/seismo-stats-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, spinner);
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, scope_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, stack);
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, syscall_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, task_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, cpu_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoStatsView, event_view);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_table_changed);
  widget_class->map = seismo_stats_view_map;
  gtk_widget_class_set_css_name (widget_class, "seismostatsview");
}

static void
seismo_stats_view_init (SeismoStatsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->busy.spinner = self->spinner;
  seismo_pane_range_reset (&self->range);
  seismo_pane_range_reset (&self->shown_range);
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    build_columns (self, t);
  /* Following a view: its trace and span reach the pane as if set through its own API. */
  seismo_view_follower_init (&self->follower, self, (SeismoViewTraceFunc) seismo_stats_view_set_trace,
                             (SeismoViewSpanFunc) seismo_stats_view_set_selection);
}

/* Public API */

GtkWidget *
seismo_stats_view_new (void)
{
  return g_object_new (SEISMO_TYPE_STATS_VIEW, NULL);
}

void
seismo_stats_view_set_trace (SeismoStatsView *self,
                             SeismoTrace     *trace)
{
  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));
  g_return_if_fail (trace == NULL || SEISMO_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  seismo_pane_range_reset (&self->range);
  /* Another window of a trace larger than memory: the whole trace's figures, from its summary,
   * still hold. */
  if (trace == NULL || self->summary == NULL || self->shown_source != SOURCE_SUMMARY)
    self->have_result = FALSE;
  recompute (self);
}

void
seismo_stats_view_set_selection (SeismoStatsView *self,
                                 guint64          start_ns,
                                 guint64          end_ns,
                                 GBytes          *mask)
{
  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));
  g_return_if_fail (start_ns <= end_ns);

  if (seismo_pane_range_equal (&self->range, start_ns, end_ns, mask))
    return;
  seismo_pane_range_set (&self->range, start_ns, end_ns, mask);
  recompute (self);
}

/**
 * seismo_stats_view_set_summary:
 * @summary: (nullable): the file summary of a trace larger than memory, whose loaded window is
 *   the pane's trace; NULL for a trace loaded whole
 */
void
seismo_stats_view_set_summary (SeismoStatsView   *self,
                               SeismoFileSummary *summary)
{
  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));

  if (summary == self->summary)
    return;
  g_clear_pointer (&self->summary, seismo_file_summary_free);
  self->summary = summary != NULL ? seismo_file_summary_ref (summary) : NULL;
  self->have_result = FALSE;
  if (self->trace != NULL)
    recompute (self);
}

gboolean
seismo_stats_view_get_busy (SeismoStatsView *self)
{
  g_return_val_if_fail (SEISMO_IS_STATS_VIEW (self), FALSE);
  return self->cancellable != NULL;
}

SeismoStatsTable
seismo_stats_view_get_table (SeismoStatsView *self)
{
  const char *name;

  g_return_val_if_fail (SEISMO_IS_STATS_VIEW (self), SEISMO_STATS_TABLE_SYSCALL);
  name = gtk_stack_get_visible_child_name (self->stack);
  for (guint t = 0; t < SEISMO_STATS_TABLE_N; t++)
    if (g_strcmp0 (name, table_names[t]) == 0)
      return t;
  return SEISMO_STATS_TABLE_SYSCALL;
}

void
seismo_stats_view_set_table (SeismoStatsView  *self,
                             SeismoStatsTable  table)
{
  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));
  g_return_if_fail (table < SEISMO_STATS_TABLE_N);
  gtk_stack_set_visible_child_name (self->stack, table_names[table]);
}

GListModel *
seismo_stats_view_get_rows (SeismoStatsView  *self,
                            SeismoStatsTable  table)
{
  g_return_val_if_fail (SEISMO_IS_STATS_VIEW (self), NULL);
  g_return_val_if_fail (table < SEISMO_STATS_TABLE_N, NULL);
  flush_pending (self);
  show_all_table_rows (self, table);
  return G_LIST_MODEL (self->sorted[table]);
}

const char *
seismo_stats_view_row_filter (SeismoStatsView  *self,
                              SeismoStatsTable  table,
                              guint             position)
{
  g_autoptr(SeismoStatsRow) row = NULL;

  g_return_val_if_fail (SEISMO_IS_STATS_VIEW (self), NULL);
  g_return_val_if_fail (table < SEISMO_STATS_TABLE_N, NULL);
  flush_pending (self);
  show_all_table_rows (self, table);
  row = g_list_model_get_item (G_LIST_MODEL (self->sorted[table]), position);
  /* The store keeps the row alive after this reference goes. */
  return row != NULL ? row->filter : NULL;
}

void
seismo_stats_view_sort_by (SeismoStatsView  *self,
                           SeismoStatsTable  table,
                           guint             column,
                           GtkSortType       order)
{
  GListModel *columns;
  g_autoptr(GtkColumnViewColumn) col = NULL;

  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));
  g_return_if_fail (table < SEISMO_STATS_TABLE_N);
  columns = gtk_column_view_get_columns (table_view (self, table));
  col = g_list_model_get_item (columns, column);
  g_return_if_fail (col != NULL);
  gtk_column_view_sort_by_column (table_view (self, table), col, order);
}

static void
csv_field (GString    *out,
           const char *text)
{
  if (strpbrk (text, ",\"\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

char *
seismo_stats_view_to_csv (SeismoStatsView  *self,
                          SeismoStatsTable  table)
{
  const ColumnSpec *specs;
  GListModel *rows;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (SEISMO_IS_STATS_VIEW (self), NULL);
  g_return_val_if_fail (table < SEISMO_STATS_TABLE_N, NULL);
  flush_pending (self);
  show_all_table_rows (self, table);

  specs = table_columns[table];
  for (guint c = 0; specs[c].title != NULL; c++)
    g_string_append_printf (out, "%s%s", c > 0 ? "," : "", specs[c].csv);
  g_string_append_c (out, '\n');
  rows = G_LIST_MODEL (self->sorted[table]);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SeismoStatsRow) row = g_list_model_get_item (rows, i);

      for (guint c = 0; specs[c].title != NULL; c++)
        {
          if (c > 0)
            g_string_append_c (out, ',');
          if (specs[c].value < 0)
            csv_field (out, row->name);
          else if (isnan (row->values[specs[c].value]))
            ;
          else if (specs[c].format == FORMAT_PERCENT || specs[c].format == FORMAT_RATE)
            g_string_append_printf (out, "%.3f", row->values[specs[c].value]);
          else
            g_string_append_printf (out, "%.0f", row->values[specs[c].value]);
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

void
seismo_stats_view_render (SeismoStatsView  *self,
                          SeismoStatsTable  table,
                          cairo_t          *cr,
                          int               width,
                          int               height,
                          gboolean          large)
{
  const ColumnSpec *specs;
  GListModel *rows;
  PangoLayout *layout;
  PangoFontDescription *font;
  guint n_columns = 0;
  double row_h, name_w, col_w, y;
  int text_h;

  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));
  g_return_if_fail (table < SEISMO_STATS_TABLE_N);
  flush_pending (self);
  show_all_table_rows (self, table);

  specs = table_columns[table];
  while (specs[n_columns].title != NULL)
    n_columns++;
  rows = G_LIST_MODEL (self->sorted[table]);

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string (large ? "Sans 20" : "Sans 10");
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "Xg", -1);
  pango_layout_get_pixel_size (layout, NULL, &text_h);
  row_h = text_h * 1.5;
  name_w = MAX (width * 0.34, 80);
  col_w = (width - name_w - 8) / MAX (n_columns - 1, 1);

  /* Title */
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, _(table_titles[table]), -1);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.12);
  cairo_move_to (cr, 8, row_h * 0.25);
  pango_cairo_show_layout (cr, layout);
  y = row_h * 1.5;

  /* Header */
  cairo_set_source_rgb (cr, 0.92, 0.92, 0.94);
  cairo_rectangle (cr, 0, y, width, row_h);
  cairo_fill (cr);
  pango_layout_set_width (layout, (int) (col_w - 8) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  for (guint c = 0; c < n_columns; c++)
    {
      double x = c == 0 ? 8 : name_w + (c - 1) * col_w;

      pango_layout_set_width (layout, (int) ((c == 0 ? name_w : col_w) - 12) * PANGO_SCALE);
      pango_layout_set_alignment (layout, c == 0 ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT);
      pango_layout_set_text (layout, _(specs[c].title), -1);
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.12);
      cairo_move_to (cr, x, y + (row_h - text_h) / 2);
      pango_cairo_show_layout (cr, layout);
    }
  y += row_h;

  pango_font_description_set_weight (font, PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
  for (guint i = 0; i < g_list_model_get_n_items (rows) && y + row_h <= height; i++)
    {
      g_autoptr(SeismoStatsRow) row = g_list_model_get_item (rows, i);

      if (i % 2 == 1)
        {
          cairo_set_source_rgb (cr, 0.97, 0.97, 0.98);
          cairo_rectangle (cr, 0, y, width, row_h);
          cairo_fill (cr);
        }
      for (guint c = 0; c < n_columns; c++)
        {
          double x = c == 0 ? 8 : name_w + (c - 1) * col_w;
          g_autofree char *text = cell_text (&specs[c], row);

          pango_layout_set_width (layout, (int) ((c == 0 ? name_w : col_w) - 12) * PANGO_SCALE);
          pango_layout_set_alignment (layout, c == 0 ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT);
          pango_layout_set_text (layout, text, -1);
          cairo_set_source_rgb (cr, 0.15, 0.15, 0.17);
          cairo_move_to (cr, x, y + (row_h - text_h) / 2);
          pango_cairo_show_layout (cr, layout);
        }
      y += row_h;
    }
  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_restore (cr);
}

/**
 * seismo_stats_view_set_view:
 * @view: (nullable): the view to follow: its trace, and its span and filter in force
 */
void
seismo_stats_view_set_view (SeismoStatsView *self,
                             SeismoView *view)
{
  g_return_if_fail (SEISMO_IS_STATS_VIEW (self));
  seismo_view_follower_set_view (&self->follower, view);
}

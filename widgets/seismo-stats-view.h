/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gtk/gtk.h>

#include "seismo-file-summary.h"
#include "seismo-trace.h"
#include "seismo-view.h"

G_BEGIN_DECLS

/*
 * SeismoStatsView: sortable tables for the current filter and time range: per syscall (like
 * strace -c), per task, per CPU and per event type. Figures are computed on a worker thread.
 * Double-clicking a row (or Enter) emits ::filter-requested with an expression that keeps that
 * row's events ("syscall == read", "tid == 42", "cpu == 1", "event == sched:sched_switch").
 */
#define SEISMO_TYPE_STATS_VIEW (seismo_stats_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoStatsView, seismo_stats_view, SEISMO, STATS_VIEW, GtkWidget)

typedef enum {
  SEISMO_STATS_TABLE_SYSCALL,
  SEISMO_STATS_TABLE_TASK,
  SEISMO_STATS_TABLE_CPU,
  SEISMO_STATS_TABLE_EVENT,
  SEISMO_STATS_TABLE_N
} SeismoStatsTable;

GtkWidget       *seismo_stats_view_new            (void);
void             seismo_stats_view_set_trace      (SeismoStatsView  *self,
                                                   SeismoTrace      *trace);
/* The events counted: times in [start_ns, end_ns] (absolute, inclusive) whose bit is set in mask
 * (NULL: all; seismo_filter_mask_words() words, referenced). Recomputes off the main thread. */
void             seismo_stats_view_set_selection  (SeismoStatsView  *self,
                                                   guint64           start_ns,
                                                   guint64           end_ns,
                                                   GBytes           *mask);
/* A trace larger than memory: the pane's trace is the loaded window of the file whose summary
 * this is (referenced; NULL: the trace is whole). The whole trace's figures, and those of a range
 * beyond the loaded events, are then read from the summary, and the scope says which. */
void             seismo_stats_view_set_summary    (SeismoStatsView   *self,
                                                   SeismoFileSummary *summary);
/* TRUE while figures are being computed. */
gboolean         seismo_stats_view_get_busy       (SeismoStatsView  *self);
SeismoStatsTable seismo_stats_view_get_table      (SeismoStatsView  *self);
void             seismo_stats_view_set_table      (SeismoStatsView  *self,
                                                   SeismoStatsTable  table);
/* Rows of a table in the order shown (sorted as the user chose). Borrowed. */
GListModel      *seismo_stats_view_get_rows       (SeismoStatsView  *self,
                                                   SeismoStatsTable  table);
/* The filter expression of a row of seismo_stats_view_get_rows(). Borrowed. */
const char      *seismo_stats_view_row_filter     (SeismoStatsView  *self,
                                                   SeismoStatsTable  table,
                                                   guint             position);
/* Sorts a table by a column (0: the name) as a click on its header does. */
void             seismo_stats_view_sort_by        (SeismoStatsView  *self,
                                                   SeismoStatsTable  table,
                                                   guint             column,
                                                   GtkSortType       order);

/* For exports. The table in the order shown, as CSV with a header line and raw numbers (ns,
 * counts, percents). Caller owns the string. */
char            *seismo_stats_view_to_csv         (SeismoStatsView  *self,
                                                   SeismoStatsTable  table);
/* Draws the table as shown (title, header, rows that fit) on cr in a width × height area:
 * the picture for PNG/SVG exports. large: projector-sized fonts. */
void             seismo_stats_view_render         (SeismoStatsView  *self,
                                                   SeismoStatsTable  table,
                                                   cairo_t          *cr,
                                                   int               width,
                                                   int               height,
                                                   gboolean          large);

/* Follows view: its trace, and what it counts (range, markers, filter); NULL stops. */
void seismo_stats_view_set_view (SeismoStatsView *self,
                                 SeismoView *view);

G_END_DECLS

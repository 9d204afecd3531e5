/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "seismo-compare.h"
#include "seismo-timeline.h"

G_BEGIN_DECLS

/*
 * Two traces side by side: A (the baseline) above B, their timelines aligned at their starts or
 * at the first event of each matching a filter, zoom and pan kept in step; below, per-syscall
 * counts and p50/p90/p99 latencies of A and B with differences highlighted, and the latency
 * histograms of the selected syscall overlaid.
 */

#define SEISMO_TYPE_COMPARE_VIEW (seismo_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (SeismoCompareView, seismo_compare_view, SEISMO, COMPARE_VIEW, GtkWidget)

GtkWidget              *seismo_compare_view_new               (SeismoTrace        *trace_a,
                                                               SeismoTimelineData *data_a,
                                                               const char         *name_a,
                                                               SeismoTrace        *trace_b,
                                                               SeismoTimelineData *data_b,
                                                               const char         *name_b);
/* Borrowed. */
SeismoTimeline         *seismo_compare_view_get_timeline      (SeismoCompareView  *self,
                                                               guint               which);
const SeismoComparison *seismo_compare_view_get_comparison    (SeismoCompareView  *self);
/* Rows highlighted as different (the all-syscalls row included). */
guint                   seismo_compare_view_get_n_differences (SeismoCompareView  *self);
/* Aligns at the first event matching expression in each trace (NULL or "": the starts). FALSE
 * with error when it does not compile or matches nothing in a trace. */
gboolean                seismo_compare_view_align             (SeismoCompareView  *self,
                                                               const char         *expression,
                                                               GError            **error);
/* Brings B's view in step with A's (as after A was zoomed or panned). */
void                    seismo_compare_view_sync              (SeismoCompareView  *self,
                                                               guint               from);
/* Selects a syscall's row ("total": all syscalls) for the histograms; FALSE when absent. */
gboolean                seismo_compare_view_select_syscall    (SeismoCompareView  *self,
                                                               const char         *name);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-event-details.h"
#include "seismo-event-list.h"
#include "seismo-explain-view.h"
#include "seismo-filter-overlay.h"
#include "seismo-lesson-view.h"
#include "seismo-window-analysis.h"
#include "seismo-timeline-data.h"
#include "seismo-window.h"
#include "seismo-window-read.h"

G_BEGIN_DECLS

struct _SeismoWindow
{
  AdwApplicationWindow  parent_instance;

  /* template widgets */
  AdwWindowTitle       *window_title;
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  AdwStatusPage        *empty_page;
  AdwPreferencesGroup  *samples_group;
  AdwPreferencesGroup  *recent_group;
  AdwStatusPage        *loading_page;
  AdwStatusPage        *recording_page;
  GtkProgressBar       *progress_bar;
  SeismoFilterBar      *filter_bar;
  SeismoRateView       *rate_view;
  SeismoFilterOverlay  *filter_overlay;
  SeismoTimeline       *timeline;
  SeismoEventList      *event_list;
  GtkStack             *panes;            /* Details | Histogram | Statistics | Explain */
  SeismoEventDetails   *details;
  SeismoHistogramView  *histogram;
  SeismoStatsView      *stats;
  SeismoFlameGraphView *flame;
  SeismoExplainView    *explain_view;
  GtkRevealer          *sidebar;          /* the lesson panel */
  SeismoLessonView     *lesson_view;
  GtkWidget            *search_button;
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GtkLabel             *search_status;
  GtkRevealer          *root_banner;
  GtkRevealer          *record_bar;
  GtkLabel             *record_status;
  GtkWidget            *status_bar;
  GtkLabel             *status_label;
  GtkLabel             *markers_label;

  /* owned */
  SeismoView           *view;             /* what the user looks at; widgets follow it */
  GFile                *file;             /* what is shown; NULL for an unsaved recording */
  SeismoTrace          *trace;
  SeismoTimelineData   *data;
  GCancellable         *load_cancellable;
  GCancellable         *window_cancellable; /* seismo-window-window-load.c */
  GCancellable         *search_cancellable;
  GPtrArray            *empty_rows;       /* rows added to the empty page's groups */
  GSubprocess          *recorder;
  char                 *record_path;
  GString              *record_errors;
  GCancellable         *record_cancellable;

  guint                 progress_source;
  gint                  load_permille;    /* atomic */
  guint                 record_poll_source;
  gint64                record_started;
  guint64               record_seen_size;
  gboolean              record_reloading;
  gboolean              record_stopping;
  gboolean              record_via_pkexec;
  gboolean              unsaved;

  /* filter bar and analysis panes (seismo-window-analysis.c) */
  struct _SeismoWindowAnalysis *analysis;

  struct _SeismoWindowTeach *teach;      /* seismo-window-teach.c */
  struct _SeismoWindowShare *share;      /* seismo-window-share.c */
};

/* seismo-window-window-load.c */
void     _seismo_window_init_window_load    (SeismoWindow       *self);
/* Reads the events around [start_ns, end_ns] of the trace larger than memory shown, in a worker,
 * and shows them in place of the loaded ones. */
void     _seismo_window_load_window         (SeismoWindow       *self,
                                             guint64             start_ns,
                                             guint64             end_ns);
void     _seismo_window_dispose_window_load (SeismoWindow       *self);

/* seismo-window.c */
void     _seismo_window_show_trace        (SeismoWindow       *self,
                                           SeismoTrace        *trace,
                                           SeismoTimelineData *data);
void     _seismo_window_show_error        (SeismoWindow       *self,
                                           const char         *heading,
                                           const char         *body);
/* Puts a trace file on the recent files (GTK's list, shared with other apps). */
void     _seismo_window_add_recent        (GFile              *file);
void     _seismo_window_toast             (SeismoWindow       *self,
                                           const char         *text);
void     _seismo_window_update_actions    (SeismoWindow       *self);
/* Loads path on a worker thread; calls back on the main thread with the trace and data. */
void     _seismo_window_load              (SeismoWindow       *self,
                                           const char         *path,
                                           GCancellable       *cancellable,
                                           gint               *permille,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data);
gboolean _seismo_window_load_finish       (SeismoWindow       *self,
                                           GAsyncResult       *result,
                                           SeismoTrace       **trace,
                                           SeismoTimelineData **data,
                                           GError            **error);

/* seismo-window-skipped.c */
void     _seismo_window_class_init_skipped (GtkWidgetClass   *widget_class);
/* A toast with a "Details" button when the reader could not read everything. */
void     _seismo_window_skipped_toast     (SeismoWindow       *self,
                                           SeismoTrace        *trace);
char    *_seismo_window_describe_skipped  (SeismoTrace        *trace);

/* seismo-window-actions.c */
void     _seismo_window_class_init_actions (GtkWidgetClass    *widget_class);
void     _seismo_window_init_actions       (SeismoWindow      *self);
void     _seismo_window_save_to           (SeismoWindow       *self,
                                           GFile              *file);

/* seismo-window-analysis.c */
typedef struct _SeismoWindowAnalysis SeismoWindowAnalysis;
void     _seismo_window_class_init_analysis (GtkWidgetClass  *widget_class);
void     _seismo_window_init_analysis     (SeismoWindow       *self);
void     _seismo_window_analysis_set_trace (SeismoWindow      *self);
void     _seismo_window_dispose_analysis  (SeismoWindow       *self);

/* seismo-window-wait.c: "Why was this slow?" */
void     _seismo_window_class_init_wait   (GtkWidgetClass     *widget_class);

/* seismo-window-record.c */
void     _seismo_window_class_init_record (GtkWidgetClass     *widget_class);
/* seismo_window_start_recording() with pkexec or not, whoever runs the window (tests). */
void     _seismo_window_start_recording_full (SeismoWindow       *self,
                                              const char * const *args,
                                              gboolean            via_pkexec);
void     _seismo_window_stop_recording    (SeismoWindow       *self);
gboolean _seismo_window_is_recording      (SeismoWindow       *self);

G_END_DECLS

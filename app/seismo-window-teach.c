/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <glib/gi18n.h>

#include "seismo-explain-view.h"
#include "seismo-lesson-view.h"
#include "seismo-overhead-dialog.h"
#include "seismo-window-analysis.h"
#include "seismo-window-private.h"
#include "seismo-window-teach.h"

/*
 * Teaching in the window: the Lessons side panel (a lesson opens its sample trace, then each step
 * zooms, filters, places markers and selects an event), "Explain this" under the event details,
 * the observer-effect dialog, and presenter mode (F5: larger, higher-contrast, no chrome, with
 * `.`/`,` stepping through the selected task's events and WASD zooming and panning).
 */

typedef struct _SeismoWindowTeach SeismoWindowTeach;

struct _SeismoWindowTeach
{
  /* borrowed: widgets in the window */
  GtkRevealer          *sidebar;
  SeismoLessonView     *lesson_view;
  SeismoExplainView    *explain_view;
  AdwPreferencesGroup  *lessons_group;

  /* owned */
  GPtrArray            *lessons;

  /* weak */
  SeismoOverheadDialog *overhead;

  guint                 reselect;      /* event to select again once the step's filter applied */
  GdkFrameClock        *frame_clock;   /* borrowed while frame_handler is connected */
  gulong                frame_handler;
  gboolean              pending;       /* a step waits to be applied (see try_apply) */
  gboolean              opening;       /* …and its sample is being opened */
  gboolean              presenter;
  gboolean              was_fullscreen;
};

/* Lessons */

/* The lesson's own trace beside it, else the bundled sample of that name. */
static GFile *
find_sample (const SeismoLesson *lesson)
{
  g_autofree char *samples = seismo_application_get_samples_dir ();
  g_autofree char *path = seismo_lesson_find_sample (lesson, samples);

  return path != NULL ? g_file_new_for_path (path) : NULL;
}

static gboolean
sample_is_shown (SeismoWindow       *self,
                 const SeismoLesson *lesson)
{
  g_autofree char *base = NULL;
  g_autofree char *want = NULL;

  if (self->trace == NULL || self->file == NULL || self->load_cancellable != NULL)
    return FALSE;
  /* Sample= may be a path relative to the lesson (samples/pipes.seismo). */
  base = g_file_get_basename (self->file);
  want = g_path_get_basename (lesson->sample);
  return g_str_equal (base, want);
}

static void try_apply (SeismoWindow *self);

static void
apply_now (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;
  const SeismoLesson *lesson = seismo_lesson_view_get_lesson (t->lesson_view);
  guint step = seismo_lesson_view_get_step (t->lesson_view);
  g_autoptr(GError) error = NULL;
  SeismoLessonTargets targets;
  SeismoTimeline *timeline = self->timeline;

  if (lesson != NULL && !sample_is_shown (self, lesson))
    {
      /* A frame of the previous trace painted while the sample still loads: keep the step
       * pending; the end of the load applies it (on_stack_changed). */
      try_apply (self);
      return;
    }
  t->pending = FALSE;
  if (lesson == NULL)
    return;
  if (!seismo_lesson_step_resolve (lesson, step, self->trace, &targets, &error))
    {
      g_warning ("%s", error->message);
      seismo_lesson_view_set_problem (t->lesson_view, error->message);
      return;
    }
  /* The filter runs on a worker and narrows the event list, which drops the selection: the
   * step's event is selected again when the result arrives (on_filter_applied). */
  t->reselect = targets.filter != NULL ? targets.select : SEISMO_NO_EVENT;
  if (targets.filter != NULL && !seismo_window_apply_filter (self, targets.filter))
    t->reselect = SEISMO_NO_EVENT;
  /* Selecting reveals the event's time and row; the zoom that follows decides the view. */
  seismo_timeline_set_selected_event (timeline, targets.select);
  seismo_timeline_clear_markers (timeline);
  if (targets.zoom_all)
    seismo_timeline_zoom_fit (timeline);
  else if (targets.has_zoom)
    {
      /* Zoom to a range through the timeline's own "zoom to range", then drop the range. */
      seismo_timeline_renderer_set_range (seismo_timeline_get_renderer (timeline),
                                          targets.zoom_start_ns, targets.zoom_end_ns);
      seismo_timeline_zoom_range (timeline);
      seismo_timeline_clear_markers (timeline);
    }
  for (guint m = 0; m < 2; m++)
    if (targets.has_marker[m])
      seismo_timeline_set_marker (timeline, m, targets.marker_ns[m]);
}

static void
on_after_paint (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;

  g_clear_signal_handler (&t->frame_handler, t->frame_clock);
  t->frame_clock = NULL;
  if (t->pending)
    apply_now (self);
}

/*
 * A step zooms to a time range, which only comes out right at the timeline's final width: it
 * applies once its sample is shown, the lesson panel is fully out, and a frame has been laid out
 * since (its after-paint).
 */
static void
try_apply (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;
  const SeismoLesson *lesson = seismo_lesson_view_get_lesson (t->lesson_view);
  GdkFrameClock *clock;

  if (!t->pending)
    return;
  if (lesson == NULL)
    {
      t->pending = FALSE;
      return;
    }
  if (!sample_is_shown (self, lesson))
    {
      g_autoptr(GFile) sample = NULL;

      if (t->opening)
        return;
      if ((sample = find_sample (lesson)) == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("The sample trace “%s” of this lesson is not "
                                                        "installed."), lesson->sample);

          seismo_lesson_view_set_problem (t->lesson_view, message);
          t->pending = FALSE;
          return;
        }
      t->opening = TRUE;
      seismo_window_open_file (self, sample);
      return;
    }
  t->opening = FALSE;
  if (!gtk_revealer_get_child_revealed (t->sidebar) || t->frame_handler != 0)
    return;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->timeline));
  if (clock == NULL)
    {
      apply_now (self);
      return;
    }
  t->frame_clock = clock;
  t->frame_handler = g_signal_connect_swapped (clock, "after-paint", G_CALLBACK (on_after_paint), self);
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

static void
on_step_activated (SeismoWindow *self,
                   guint         step)
{
  self->teach->pending = TRUE;
  gtk_revealer_set_reveal_child (self->teach->sidebar, TRUE);
  try_apply (self);
}

static void
on_sidebar_revealed (SeismoWindow *self)
{
  if (self->teach != NULL)
    try_apply (self);
}

static void
on_stack_changed (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;
  const SeismoLesson *lesson;

  if (t == NULL)
    return;
  lesson = seismo_lesson_view_get_lesson (t->lesson_view);
  if (!t->pending || !t->opening || lesson == NULL
      || g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "loading") == 0)
    return;
  t->opening = FALSE;
  if (sample_is_shown (self, lesson))
    try_apply (self);
  else
    /* Opening failed or something else was opened: the lesson waits for "show again". */
    t->pending = FALSE;
}

static void
on_filter_applied (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;
  guint event;

  if (t == NULL || t->reselect == SEISMO_NO_EVENT)
    return;
  event = t->reselect;
  t->reselect = SEISMO_NO_EVENT;
  /* The timeline, the list (which keeps it by id across results) and the details follow. */
  seismo_view_set_selected_event (seismo_window_get_view (self), event);
}

static void
on_selected_event (SeismoWindow *self)
{
  if (self->teach == NULL)
    return;
  seismo_explain_view_set_event (self->teach->explain_view, self->trace,
                                 seismo_timeline_get_selected_event (self->timeline));
}

/* The empty page lists the lessons beside the samples: a lesson is a good first thing to open. */
static void
fill_lessons_group (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;
  GtkWidget *samples = GTK_WIDGET (self->samples_group);
  GtkWidget *box = gtk_widget_get_parent (samples);

  if (!GTK_IS_BOX (box) || t->lessons->len == 0)
    return;
  t->lessons_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (t->lessons_group, _("Lessons"));
  adw_preferences_group_set_description (t->lessons_group,
                                         _("Guided tours of the samples, step by step"));
  for (guint i = 0; i < t->lessons->len; i++)
    {
      const SeismoLesson *lesson = t->lessons->pdata[i];
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), lesson->title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      if (lesson->summary != NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), lesson->summary);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("media-playback-start-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.open-lesson");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", lesson->id);
      adw_preferences_group_add (t->lessons_group, row);
    }
  gtk_box_insert_child_after (GTK_BOX (box), GTK_WIDGET (t->lessons_group), samples);
}

static void
action_lessons (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  gtk_revealer_set_reveal_child (self->teach->sidebar,
                                 !gtk_revealer_get_reveal_child (self->teach->sidebar));
}

static void
action_open_lesson (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  const char *id = g_variant_get_string (param, NULL);

  if (!seismo_lesson_view_open (self->teach->lesson_view, id, 0))
    {
      g_autofree char *message = g_strdup_printf (_("There is no lesson “%s”."), id);

      _seismo_window_toast (self, message);
    }
}

static void
action_lesson_step (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  if (g_str_equal (name, "win.lesson-next"))
    seismo_lesson_view_next (self->teach->lesson_view);
  else
    seismo_lesson_view_previous (self->teach->lesson_view);
}

static void
action_explain (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  seismo_window_show_pane (SEISMO_WINDOW (widget), "explain");
}

/* The observer effect */

static void
action_observer_effect (GtkWidget  *widget,
                        const char *name,
                        GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  SeismoWindowTeach *t = self->teach;

  if (t->overhead == NULL)
    {
      t->overhead = seismo_overhead_dialog_new (GTK_WINDOW (self));
      g_object_add_weak_pointer (G_OBJECT (t->overhead), (gpointer *) &t->overhead);
    }
  gtk_window_present (GTK_WINDOW (t->overhead));
}

/* Presenter mode and keyboard stepping */

static GtkWidget *
find_header_bar (SeismoWindow *self)
{
  GtkWidget *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (self));

  for (GtkWidget *c = content != NULL ? gtk_widget_get_first_child (content) : NULL; c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (ADW_IS_HEADER_BAR (c))
      return c;
  return NULL;
}

void
_seismo_window_set_presenter (SeismoWindow *self,
                              gboolean      presenter)
{
  SeismoWindowTeach *t = self->teach;
  GtkWidget *header = find_header_bar (self);

  presenter = !!presenter;
  if (presenter == t->presenter)
    return;
  t->presenter = presenter;
  g_object_set (self->timeline, "presenter", presenter, NULL);
  if (header != NULL)
    gtk_widget_set_visible (header, !presenter);
  gtk_widget_set_visible (GTK_WIDGET (self->root_banner), !presenter);
  if (presenter)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self), "presenter");
      gtk_search_bar_set_search_mode (self->search_bar, FALSE);
      t->was_fullscreen = gtk_window_is_fullscreen (GTK_WINDOW (self));
      gtk_window_fullscreen (GTK_WINDOW (self));
      gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
      _seismo_window_toast (self, _("Presenter mode: F5 leaves · . and , step through the task's "
                                    "events · W S zoom · A D pan"));
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self), "presenter");
      if (!t->was_fullscreen)
        gtk_window_unfullscreen (GTK_WINDOW (self));
    }
}

gboolean
_seismo_window_get_presenter (SeismoWindow *self)
{
  return self->teach->presenter;
}

static void
action_presenter (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  _seismo_window_set_presenter (self, !self->teach->presenter);
}

static void
action_task_event (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);
  guint event = seismo_timeline_get_selected_event (self->timeline);
  gboolean forward = g_str_equal (name, "win.next-task-event");
  const SeismoEventId *index;
  gsize n, pos;

  if (self->trace == NULL)
    return;
  if (event == SEISMO_NO_EVENT || event >= seismo_trace_get_n_events (self->trace))
    {
      _seismo_window_toast (self, _("Select an event first: . and , step through the events of "
                                    "its task"));
      return;
    }
  index = seismo_trace_get_task_events (self->trace, seismo_trace_get_tasks (self->trace)[event], &n);
  /* Events of one time are next to each other in the index: find this one among them. */
  pos = seismo_trace_index_find_time (self->trace, index, n, seismo_trace_event_time (self->trace, event));
  while (pos < n && index[pos] != event)
    pos++;
  if (pos >= n)
    return;
  if (forward && pos + 1 < n)
    seismo_timeline_set_selected_event (self->timeline, index[pos + 1]);
  else if (!forward && pos > 0)
    seismo_timeline_set_selected_event (self->timeline, index[pos - 1]);
  else
    gtk_widget_error_bell (widget);
}

static void
action_pan (GtkWidget  *widget,
            const char *name,
            GVariant   *param)
{
  SeismoWindow *self = SEISMO_WINDOW (widget);

  gtk_widget_activate_action_variant (GTK_WIDGET (self->timeline), "timeline.pan", param);
}

/* Setting up */

void
_seismo_window_class_init_teach (GtkWidgetClass *widget_class)
{
  g_type_ensure (SEISMO_TYPE_LESSON_VIEW);
  g_type_ensure (SEISMO_TYPE_EXPLAIN_VIEW);

  gtk_widget_class_install_action (widget_class, "win.lessons", NULL, action_lessons);
  gtk_widget_class_install_action (widget_class, "win.open-lesson", "s", action_open_lesson);
  gtk_widget_class_install_action (widget_class, "win.lesson-next", NULL, action_lesson_step);
  gtk_widget_class_install_action (widget_class, "win.lesson-previous", NULL, action_lesson_step);
  gtk_widget_class_install_action (widget_class, "win.observer-effect", NULL, action_observer_effect);
  gtk_widget_class_install_action (widget_class, "win.explain", NULL, action_explain);
  gtk_widget_class_install_action (widget_class, "win.presenter", NULL, action_presenter);
  gtk_widget_class_install_action (widget_class, "win.next-task-event", NULL, action_task_event);
  gtk_widget_class_install_action (widget_class, "win.previous-task-event", NULL, action_task_event);
  gtk_widget_class_install_action (widget_class, "win.pan", "d", action_pan);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.lessons", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "win.lesson-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.lesson-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.presenter", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F1, 0, "win.explain", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, 0, "win.next-task-event", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, 0, "win.previous-task-event", NULL);
  /* WASD as in Perfetto and Tracy: W/S zoom around the pointer, A/D pan by a tenth. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "win.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "win.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "win.pan", "d", 0.1);
}

void
_seismo_window_init_teach (SeismoWindow *self)
{
  SeismoWindowTeach *t = g_new0 (SeismoWindowTeach, 1);

  self->teach = t;
  t->reselect = SEISMO_NO_EVENT;
  t->lessons = seismo_lesson_load_all ();
  /* The panel and the "Explain" page are in the window's template. */
  t->sidebar = self->sidebar;
  t->lesson_view = self->lesson_view;
  t->explain_view = self->explain_view;
  seismo_lesson_view_set_lessons (t->lesson_view, t->lessons);
  fill_lessons_group (self);

  g_signal_connect_object (t->lesson_view, "step-activated", G_CALLBACK (on_step_activated), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (t->sidebar, "notify::child-revealed", G_CALLBACK (on_sidebar_revealed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stack, "notify::visible-child", G_CALLBACK (on_stack_changed), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  if (seismo_window_get_filter_bar (self) != NULL)
    g_signal_connect_object (seismo_window_get_filter_bar (self), "applied",
                             G_CALLBACK (on_filter_applied), self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->timeline, "notify::selected-event", G_CALLBACK (on_selected_event),
                           self, G_CONNECT_SWAPPED);
}

void
_seismo_window_dispose_teach (SeismoWindow *self)
{
  SeismoWindowTeach *t = self->teach;

  if (t == NULL)
    return;
  g_clear_signal_handler (&t->frame_handler, t->frame_clock);
  if (t->overhead != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (t->overhead), (gpointer *) &t->overhead);
      gtk_window_destroy (GTK_WINDOW (t->overhead));
    }
  g_clear_pointer (&t->lessons, g_ptr_array_unref);
  g_clear_pointer (&self->teach, g_free);
}

/* For tests: the panel and the explanation view. */
SeismoLessonView *
_seismo_window_get_lesson_view (SeismoWindow *self)
{
  return self->teach->lesson_view;
}

SeismoExplainView *
_seismo_window_get_explain_view (SeismoWindow *self)
{
  return self->teach->explain_view;
}

gboolean
_seismo_window_lesson_is_pending (SeismoWindow *self)
{
  return self->teach->pending;
}

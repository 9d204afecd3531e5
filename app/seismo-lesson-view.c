/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "seismo-lesson-view.h"

struct _SeismoLessonView
{
  GtkWidget     parent_instance;

  /* template widgets */
  GtkStack     *stack;
  GtkListBox   *list;
  GtkLabel     *empty_label;
  GtkLabel     *lesson_title;
  GtkLabel     *step_counter;
  GtkLabel     *step_title;
  GtkLabel     *step_text;
  GtkWidget    *filter_box;
  GtkLabel     *filter_label;
  GtkWidget    *question_box;
  GtkLabel     *question;
  GtkWidget    *answer_button;
  GtkRevealer  *answer_revealer;
  GtkLabel     *answer;
  GtkLabel     *problem;
  GtkWidget    *previous_button;
  GtkWidget    *next_button;

  /* owned */
  GPtrArray    *lessons;

  /* borrowed from lessons */
  SeismoLesson *lesson;
  guint         step;
};

enum {
  STEP_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SeismoLessonView, seismo_lesson_view, GTK_TYPE_WIDGET)

static void
show_step (SeismoLessonView *self)
{
  const SeismoLessonStep *step = &self->lesson->steps[self->step];
  g_autofree char *counter = NULL;

  gtk_label_set_text (self->lesson_title, self->lesson->title);
  /* TRANSLATORS: "Step 2 of 5" in a lesson */
  counter = g_strdup_printf (_("Step %u of %u"), self->step + 1, self->lesson->n_steps);
  gtk_label_set_text (self->step_counter, counter);
  gtk_label_set_text (self->step_title, step->title != NULL ? step->title : "");
  gtk_widget_set_visible (GTK_WIDGET (self->step_title), step->title != NULL);
  gtk_label_set_text (self->step_text, step->text);
  gtk_widget_set_visible (self->filter_box, step->filter != NULL && step->filter[0] != '\0');
  gtk_label_set_text (self->filter_label, step->filter != NULL ? step->filter : "");
  gtk_widget_set_visible (self->question_box, step->question != NULL);
  gtk_label_set_text (self->question, step->question != NULL ? step->question : "");
  gtk_label_set_text (self->answer, step->answer != NULL ? step->answer : "");
  gtk_widget_set_visible (self->answer_button, step->answer != NULL);
  /* A new step starts with its answer hidden, at once. (Sliding, not NONE: a revealer that
   * does not slide keeps the hidden child's height.) */
  gtk_revealer_set_transition_duration (self->answer_revealer, 0);
  gtk_revealer_set_reveal_child (self->answer_revealer, FALSE);
  gtk_revealer_set_transition_duration (self->answer_revealer, 250);
  gtk_widget_set_sensitive (self->previous_button, self->step > 0);
  gtk_button_set_label (GTK_BUTTON (self->next_button),
                        self->step + 1 < self->lesson->n_steps ? _("_Next") : _("_Finish"));
  seismo_lesson_view_set_problem (self, NULL);
  gtk_stack_set_visible_child_name (self->stack, "step");
  g_signal_emit (self, signals[STEP_ACTIVATED], 0, self->step);
}

static void
on_answer_clicked (SeismoLessonView *self)
{
  gtk_revealer_set_reveal_child (self->answer_revealer,
                                 !gtk_revealer_get_reveal_child (self->answer_revealer));
}

static void
on_again_clicked (SeismoLessonView *self)
{
  if (self->lesson != NULL)
    show_step (self);
}

static void
on_row_activated (SeismoLessonView *self,
                  GtkListBoxRow    *row)
{
  const char *id = g_object_get_data (G_OBJECT (row), "lesson-id");

  seismo_lesson_view_open (self, id, 0);
}

static void
fill_list (SeismoLessonView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  for (guint i = 0; self->lessons != NULL && i < self->lessons->len; i++)
    {
      const SeismoLesson *lesson = self->lessons->pdata[i];
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *steps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step", "%u steps",
                                                             lesson->n_steps), lesson->n_steps);
      GtkWidget *suffix = gtk_label_new (steps);

      gtk_widget_add_css_class (suffix, "dim-label");
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), lesson->title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      if (lesson->summary != NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), lesson->summary);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "lesson-id", g_strdup (lesson->id), g_free);
      gtk_list_box_append (self->list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), self->lessons == NULL || self->lessons->len == 0);
}

static void
seismo_lesson_view_dispose (GObject *object)
{
  SeismoLessonView *self = SEISMO_LESSON_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_LESSON_VIEW);
  self->lesson = NULL;
  g_clear_pointer (&self->lessons, g_ptr_array_unref);
  G_OBJECT_CLASS (seismo_lesson_view_parent_class)->dispose (object);
}

static void
seismo_lesson_view_class_init (SeismoLessonViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_lesson_view_dispose;

  /**
   * SeismoLessonView::step-activated:
   * @step: the step shown (from 0)
   *
   * A step was shown (opened, Next, Previous, or shown again): its actions should apply.
   */
  signals[STEP_ACTIVATED] = g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/seismo/Seismo/seismo-lesson-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, stack);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, list);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, lesson_title);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, step_counter);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, step_title);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, step_text);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, filter_box);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, filter_label);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, question_box);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, question);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, answer_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, answer_revealer);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, answer);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, problem);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, previous_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoLessonView, next_button);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_answer_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_again_clicked);
  gtk_widget_class_bind_template_callback (widget_class, seismo_lesson_view_close);
  gtk_widget_class_bind_template_callback (widget_class, seismo_lesson_view_next);
  gtk_widget_class_bind_template_callback (widget_class, seismo_lesson_view_previous);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "seismo-lesson-view");
}

static void
seismo_lesson_view_init (SeismoLessonView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  fill_list (self);
}

/**
 * seismo_lesson_view_new:
 *
 * Returns: (transfer floating): a lesson panel listing no lessons
 */
GtkWidget *
seismo_lesson_view_new (void)
{
  return g_object_new (SEISMO_TYPE_LESSON_VIEW, NULL);
}

void
seismo_lesson_view_set_lessons (SeismoLessonView *self,
                                GPtrArray        *lessons)
{
  g_return_if_fail (SEISMO_IS_LESSON_VIEW (self));

  seismo_lesson_view_close (self);
  g_clear_pointer (&self->lessons, g_ptr_array_unref);
  if (lessons != NULL)
    self->lessons = g_ptr_array_ref (lessons);
  fill_list (self);
}

gboolean
seismo_lesson_view_open (SeismoLessonView *self,
                         const char       *id,
                         guint             step)
{
  g_return_val_if_fail (SEISMO_IS_LESSON_VIEW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  for (guint i = 0; self->lessons != NULL && i < self->lessons->len; i++)
    {
      SeismoLesson *lesson = self->lessons->pdata[i];

      if (g_str_equal (lesson->id, id) && step < lesson->n_steps)
        {
          self->lesson = lesson;
          self->step = step;
          show_step (self);
          return TRUE;
        }
    }
  return FALSE;
}

void
seismo_lesson_view_close (SeismoLessonView *self)
{
  g_return_if_fail (SEISMO_IS_LESSON_VIEW (self));
  self->lesson = NULL;
  self->step = 0;
  gtk_stack_set_visible_child_name (self->stack, "list");
}

const SeismoLesson *
seismo_lesson_view_get_lesson (SeismoLessonView *self)
{
  g_return_val_if_fail (SEISMO_IS_LESSON_VIEW (self), NULL);
  return self->lesson;
}

guint
seismo_lesson_view_get_step (SeismoLessonView *self)
{
  g_return_val_if_fail (SEISMO_IS_LESSON_VIEW (self), 0);
  return self->step;
}

gboolean
seismo_lesson_view_next (SeismoLessonView *self)
{
  g_return_val_if_fail (SEISMO_IS_LESSON_VIEW (self), FALSE);
  if (self->lesson == NULL)
    return FALSE;
  /* Next on the last step finishes: back to the list. */
  if (self->step + 1 >= self->lesson->n_steps)
    {
      seismo_lesson_view_close (self);
      return FALSE;
    }
  self->step++;
  show_step (self);
  return TRUE;
}

gboolean
seismo_lesson_view_previous (SeismoLessonView *self)
{
  g_return_val_if_fail (SEISMO_IS_LESSON_VIEW (self), FALSE);
  if (self->lesson == NULL || self->step == 0)
    return FALSE;
  self->step--;
  show_step (self);
  return TRUE;
}

void
seismo_lesson_view_set_problem (SeismoLessonView *self,
                                const char       *message)
{
  g_return_if_fail (SEISMO_IS_LESSON_VIEW (self));
  gtk_label_set_text (self->problem, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->problem), message != NULL);
}

const char *
seismo_lesson_view_get_problem (SeismoLessonView *self)
{
  g_return_val_if_fail (SEISMO_IS_LESSON_VIEW (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->problem)) ? gtk_label_get_text (self->problem) : NULL;
}

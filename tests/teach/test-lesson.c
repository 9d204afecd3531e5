/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include "seismo-test-paths.h"
#include <string.h>

#include <glib/gstdio.h>

#include "seismo-error.h"
#include "seismo-importer.h"
#include "seismo-lesson.h"
#include "seismo-test-util.h"

#define LESSONS_DIR SEISMO_SOURCE_DIR "/app/resources/lessons"
#define SAMPLES_DIR SEISMO_SOURCE_DIR "/app/resources/samples"

/* The four bundled samples the issue names, each with its lesson, then the lessons on a sample of
 * another (by Order). */
static const char *const bundled[] = { "hello-syscalls", "cpu-fight", "pipe-pingpong", "file-copy",
                                       "why-slow", "which-code" };
static const char *const bundled_samples[] = { "hello-syscalls", "cpu-fight", "pipe-pingpong",
                                               "file-copy", "why-slow", "which-code" };

static SeismoLesson *
load_source (const char *id)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.lesson.desktop.in", LESSONS_DIR, id);
  g_autoptr(GError) error = NULL;
  SeismoLesson *lesson = seismo_lesson_new_from_file (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lesson);
  return lesson;
}

static void
test_parse_bundled (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bundled); i++)
    {
      g_autoptr(SeismoLesson) lesson = load_source (bundled[i]);
      g_autofree char *sample = g_strconcat (bundled_samples[i], ".seismo", NULL);

      g_assert_cmpstr (lesson->sample, ==, sample);
      g_assert_nonnull (lesson->title);
      g_assert_nonnull (lesson->summary);
      g_assert_cmpint (lesson->order, ==, (int) i + 1);
      /* A guided text, not a caption: several steps, each with something to look at, most with
       * a question to answer. */
      g_assert_cmpuint (lesson->n_steps, >=, 4);
      for (guint s = 0; s < lesson->n_steps; s++)
        {
          const SeismoLessonStep *step = &lesson->steps[s];

          g_assert_nonnull (step->title);
          g_assert_cmpuint (strlen (step->text), >, 80);
          g_assert_true ((step->question == NULL) == (step->answer == NULL));
          g_assert_true (step->zoom != NULL || step->filter != NULL || step->marker_a != NULL
                         || step->select != NULL);
        }
    }
}

/* Every step of every lesson resolves against its real sample: expressions compile and match. */
static void
test_resolve_bundled (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bundled); i++)
    {
      g_autoptr(SeismoLesson) lesson = load_source (bundled[i]);
      g_autofree char *path = g_build_filename (SAMPLES_DIR, lesson->sample, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(SeismoTrace) trace = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_autofree char *why = g_strdup_printf ("sample %s is not recorded yet", path);

          g_test_skip (why);
          return;
        }
      trace = seismo_trace_open (path, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      for (guint s = 0; s < lesson->n_steps; s++)
        {
          const SeismoLessonStep *step = &lesson->steps[s];
          SeismoLessonTargets t;

          if (!seismo_lesson_step_resolve (lesson, s, trace, &t, &error))
            g_error ("%s", error->message);
          g_assert_cmpint (t.has_marker[0], ==, step->marker_a != NULL);
          g_assert_cmpint (t.has_marker[1], ==, step->marker_b != NULL);
          if (t.has_marker[0] && t.has_marker[1])
            g_assert_cmpuint (t.marker_ns[1], >=, t.marker_ns[0]);
          g_assert_cmpint (t.select != SEISMO_NO_EVENT, ==, step->select != NULL);
          if (t.select != SEISMO_NO_EVENT && t.has_marker[0])
            g_assert_cmpuint (seismo_trace_event_time (trace, t.select), >=, t.marker_ns[0]);
          g_assert_cmpint (t.zoom_all || t.has_zoom, ==, step->zoom != NULL);
          if (t.has_zoom)
            {
              g_assert_cmpuint (t.zoom_start_ns, <, t.zoom_end_ns);
              g_assert_cmpuint (t.zoom_end_ns, >, seismo_trace_get_start_ns (trace));
              g_assert_cmpuint (t.zoom_start_ns, <, seismo_trace_get_end_ns (trace));
            }
          g_assert_true (t.filter == step->filter);
        }
    }
}

static char *
write_lesson (const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("seismo-test-XXXXXX.lesson", &path, &error);

  g_assert_no_error (error);
  g_close (fd, NULL);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
expect_error (const char *text,
              const char *message_part)
{
  g_autofree char *path = write_lesson (text);
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoLesson) lesson = seismo_lesson_new_from_file (path, &error);

  g_assert_null (lesson);
  g_assert_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT);
  /* The message names the file and what is wrong. */
  g_assert_nonnull (strstr (error->message, path));
  if (strstr (error->message, message_part) == NULL)
    g_error ("“%s” does not say “%s”", error->message, message_part);
  g_unlink (path);
}

static void
test_bad_files (void)
{
  expect_error ("[Lesson]\nSample=x.seismo\n[Step 1]\nText=t\n", "Title");
  expect_error ("[Lesson]\nTitle=t\n[Step 1]\nText=t\n", "Sample");
  expect_error ("[Lesson]\nTitle=t\nSample=x.seismo\n", "[Step 1]");
  expect_error ("[Lesson]\nTitle=t\nSample=x.seismo\n[Step 1]\nZoom=all\n", "no Text");
  expect_error ("[Lesson]\nTitle=t\nSample=x.seismo\n[Step 1]\nText=a\n[Step 3]\nText=c\n",
                "[Step 2]");
  expect_error ("[Lesson]\nTitle=t\nSample=x.seismo\n[Step 1]\nText=a\nMarker=cpu == 0\n",
                "unknown key “Marker”");
  expect_error ("[Lesson]\nTitle=t\nSample=x.seismo\n[Steps]\nText=a\n", "unknown group");
  expect_error ("[Lesson]\nTitle=t\nSample=x.seismo\n[Step 1]\nText=a\nZoomCount=0\n", "ZoomCount");
  expect_error ("not a key file", "");
}

/* Texts come back in the reader's language from the KEY[LANG]= entries msgfmt merges. */
static void
test_translated (void)
{
  g_autofree char *path = write_lesson ("[Lesson]\nTitle=Hello\nTitle[de]=Hallo\nSample=x.seismo\n"
                                        "[Step 1]\nText=Look\nText[de]=Schau\nFilter=\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoLesson) lesson = NULL;

  g_setenv ("LANGUAGE", "de", TRUE);
  g_setenv ("LC_ALL", "de_DE.UTF-8", TRUE);
  lesson = seismo_lesson_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lesson->title, ==, "Hallo");
  g_assert_cmpstr (lesson->steps[0].text, ==, "Schau");
  /* Filter= is kept as "" (clear the filter), unlike an empty text. */
  g_assert_cmpstr (lesson->steps[0].filter, ==, "");
  g_unsetenv ("LANGUAGE");
  g_unsetenv ("LC_ALL");
  g_unlink (path);
}

/* An expression that matches nothing is reported with the step, the key and the expression. */
static void
test_resolve_errors (void)
{
  g_autofree char *sample = g_build_filename (SAMPLES_DIR, "hello-syscalls.seismo", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoLesson) lesson = NULL;
  SeismoLessonTargets t;

  if (!g_file_test (sample, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the hello-syscalls sample is not recorded yet");
      return;
    }
  path = write_lesson ("[Lesson]\nTitle=t\nSample=hello-syscalls.seismo\n"
                       "[Step 1]\nText=a\nSelect=syscall == write\n"
                       "[Step 2]\nText=b\nMarkerA=syscall == kexec_load\n"
                       "[Step 3]\nText=c\nFilter=cpu ==\n"
                       "[Step 4]\nText=d\nMarkerA=syscall == write\nMarkerB=syscall == execve\n");
  lesson = seismo_lesson_new_from_file (path, &error);
  g_assert_no_error (error);
  trace = seismo_trace_open (sample, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (seismo_lesson_step_resolve (lesson, 0, trace, &t, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (seismo_trace_event_type (trace, t.select)->name, ==, "sys_enter_write");

  g_assert_false (seismo_lesson_step_resolve (lesson, 1, trace, &t, &error));
  g_assert_nonnull (strstr (error->message, "step 2: MarkerA=syscall == kexec_load"));
  g_clear_error (&error);
  g_assert_false (seismo_lesson_step_resolve (lesson, 2, trace, &t, &error));
  g_assert_nonnull (strstr (error->message, "step 3: Filter="));
  g_clear_error (&error);
  /* B is searched from A on: execve comes before the write, so nothing matches. */
  g_assert_false (seismo_lesson_step_resolve (lesson, 3, trace, &t, &error));
  g_assert_nonnull (strstr (error->message, "after marker A"));
  g_unlink (path);
}

static void
test_load_dir (void)
{
  g_autoptr(GPtrArray) lessons = seismo_lesson_load_dir (LESSONS_DIR);
  g_autoptr(GPtrArray) none = seismo_lesson_load_dir ("/nonexistent/seismo");

  /* The source files end in .desktop.in, not .lesson: the folder holds none until merged. */
  g_assert_cmpuint (lessons->len, ==, 0);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_load_built_dir (void)
{
  g_autofree char *dir = g_build_filename (SEISMO_BUILD_DIR, "app", "resources", "lessons", NULL);
  g_autoptr(GPtrArray) lessons = NULL;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the GUI (and so the merged lessons) is not part of this build");
      return;
    }
  lessons = seismo_lesson_load_dir (dir);
  g_assert_cmpuint (lessons->len, ==, G_N_ELEMENTS (bundled));
  /* Sorted by Order. */
  for (guint i = 0; i < lessons->len; i++)
    g_assert_cmpstr (((SeismoLesson *) lessons->pdata[i])->id, ==, bundled[i]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lesson/parse-bundled", test_parse_bundled);
  g_test_add_func ("/lesson/resolve-bundled", test_resolve_bundled);
  g_test_add_func ("/lesson/bad-files", test_bad_files);
  g_test_add_func ("/lesson/translated", test_translated);
  g_test_add_func ("/lesson/resolve-errors", test_resolve_errors);
  g_test_add_func ("/lesson/load-dir", test_load_dir);
  g_test_add_func ("/lesson/load-built-dir", test_load_built_dir);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "seismo-file.h"
#include "seismo-timeline-renderer.h"
#include "seismo-gl-env.h"
#include "seismo-window-private.h"

/*
 * Recording runs `seismo-cli record … -o TEMP.seismo` in a process of its own — through pkexec
 * when the user is not root, so the window never holds privileges. While it runs, the file it
 * streams (TEMP.seismo.partial, then TEMP.seismo once committed) is reopened whenever it grew,
 * and the timeline shows the trace so far.
 */

#define POLL_MS 700

gboolean
_seismo_window_is_recording (SeismoWindow *self)
{
  return self->recorder != NULL;
}

/* $SEISMO_RECORDER (tests), else seismo-cli next to this program (build tree or prefix), else the installed
 * one, else $PATH. */
static char *
find_cli (void)
{
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *installed = g_build_filename (SEISMO_BINDIR, "seismo-cli", NULL);
  const char *env = g_getenv ("SEISMO_RECORDER");

  if (env != NULL && g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (env);
  if (self_exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self_exe);
      char *next = g_build_filename (dir, "seismo-cli", NULL);

      if (g_file_test (next, G_FILE_TEST_IS_EXECUTABLE))
        return next;
      g_free (next);
    }
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  return g_find_program_in_path ("seismo-cli");
}

static void
update_record_status (SeismoWindow *self)
{
  double secs = (g_get_monotonic_time () - self->record_started) / 1e6;
  g_autofree char *elapsed = seismo_format_duration (secs * 1e9);
  g_autofree char *text = NULL;

  if (self->record_stopping)
    text = g_strdup (_("Stopping the recording…"));
  else if (self->trace != NULL)
    text = g_strdup_printf (_("Recording for %s · %'zu events so far"), elapsed,
                            seismo_trace_get_n_events (self->trace));
  else
    text = g_strdup_printf (_("Recording for %s · waiting for the first events"), elapsed);
  gtk_label_set_text (self->record_status, text);
}

/* The recorder's output once committed; before that its snapshot (OUTPUT.live, written while the
 * recording is small), else the streamed file (OUTPUT.partial, whole chunks only). */
static const char *
newest_record_file (SeismoWindow *self,
                    guint64      *size)
{
  static const char *const suffixes[] = { "", ".live", SEISMO_FILE_PARTIAL_SUFFIX };
  static char path[4096];
  struct stat st;

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_snprintf (path, sizeof path, "%s%s", self->record_path, suffixes[i]);
      if (g_stat (path, &st) == 0)
        {
          /* The size alone would miss a switch between two files of the same size. */
          *size = (guint64) st.st_size ^ ((guint64) st.st_mtim.tv_nsec << 32) ^ (guint64) st.st_mtime;
          return path;
        }
    }
  return NULL;
}

static void reload (SeismoWindow *self);

static void
reload_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  SeismoWindow *self = SEISMO_WINDOW (source);
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(SeismoTimelineData) data = NULL;
  g_autoptr(GError) error = NULL;
  gboolean finished = GPOINTER_TO_INT (user_data);

  self->record_reloading = FALSE;
  if (!_seismo_window_load_finish (self, result, &trace, &data, &error))
    {
      /* A file caught between two flushes reads as damaged; the next poll tries again. */
      if (finished && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _seismo_window_show_error (self, _("Could not read the recording"), error->message);
      return;
    }
  if (self->recorder == NULL && !finished)
    return;  /* the final load is on its way */
  /* Until the first events arrive, "Recording…" says more than an empty timeline. */
  if (!finished && seismo_trace_get_n_events (trace) == 0 && self->trace == NULL)
    {
      update_record_status (self);
      return;
    }
  _seismo_window_show_trace (self, trace, data);
  if (self->recorder != NULL)
    update_record_status (self);
}

static void
reload (SeismoWindow *self)
{
  const char *path;
  guint64 size = 0;

  if (self->record_reloading || (path = newest_record_file (self, &size)) == NULL
      || size == self->record_seen_size)
    return;
  self->record_seen_size = size;
  self->record_reloading = TRUE;
  _seismo_window_load (self, path, self->record_cancellable, NULL, reload_done, GINT_TO_POINTER (FALSE));
}

static gboolean
poll_recording (gpointer user_data)
{
  SeismoWindow *self = user_data;

  update_record_status (self);
  reload (self);
  return G_SOURCE_CONTINUE;
}

/* Both the exit status and the whole of stderr are needed before saying how it went. */
typedef struct {
  SeismoWindow        *window;
  GSubprocess         *process;
  GMemoryOutputStream *errors;
  guint                pending;
} RecordRun;

static void
record_run_finish (RecordRun *run)
{
  SeismoWindow *self = run->window;
  GSubprocess *process = run->process;
  g_autofree char *err = NULL;
  gboolean ok = g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 0;

  err = g_strndup (g_memory_output_stream_get_data (run->errors),
                   g_memory_output_stream_get_data_size (run->errors));
  g_clear_handle_id (&self->record_poll_source, g_source_remove);
  if (self->recorder == process)
    g_clear_object (&self->recorder);
  self->record_stopping = FALSE;
  gtk_revealer_set_reveal_child (self->record_bar, FALSE);

  /* A launched command's failing exit status is passed on; what counts is the trace written. */
  if (g_file_test (self->record_path, G_FILE_TEST_EXISTS))
    {
      self->unsaved = TRUE;
      g_clear_object (&self->file);
      self->record_reloading = TRUE;
      _seismo_window_load (self, self->record_path, self->record_cancellable, NULL, reload_done,
                           GINT_TO_POINTER (TRUE));
      _seismo_window_toast (self, _("Recording finished. Save it with Ctrl+S."));
    }
  else
    {
      g_autofree char *body = NULL;

      if (*g_strstrip (err) != '\0')
        body = g_strdup (err);
      else if (ok)
        body = g_strdup (_("seismo-cli record wrote no trace."));
      else
        body = g_strdup_printf (_("seismo-cli record ended with status %d and wrote no trace."),
                                g_subprocess_get_status (process));
      _seismo_window_show_error (self, _("The recording failed"), body);
      if (self->trace == NULL)
        gtk_stack_set_visible_child_name (self->stack, "empty");
    }
  _seismo_window_update_actions (self);
  g_object_unref (run->errors);
  g_object_unref (run->process);
  g_object_unref (run->window);
  g_free (run);
}

static void
recorder_exited (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  RecordRun *run = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  if (--run->pending == 0)
    record_run_finish (run);
}

static void
recorder_errors_read (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  RecordRun *run = user_data;

  g_output_stream_splice_finish (G_OUTPUT_STREAM (source), result, NULL);
  if (--run->pending == 0)
    record_run_finish (run);
}

void
seismo_window_start_recording (SeismoWindow       *self,
                               const char * const *args)
{
  /* The window never records itself: as root it runs seismo-cli, else pkexec does. */
  _seismo_window_start_recording_full (self, args, geteuid () != 0);
}

void
_seismo_window_start_recording_full (SeismoWindow       *self,
                                     const char * const *args,
                                     gboolean            via_pkexec)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *cli = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = NULL;

  g_return_if_fail (SEISMO_IS_WINDOW (self));
  g_return_if_fail (args != NULL && args[0] != NULL);
  g_return_if_fail (!_seismo_window_is_recording (self));

  if ((cli = find_cli ()) == NULL)
    {
      _seismo_window_show_error (self, _("Cannot record"),
                                 _("seismo-cli, the program that records, was not found."));
      return;
    }
  if (via_pkexec)
    {
      g_autofree char *pkexec = g_find_program_in_path ("pkexec");

      if (pkexec == NULL)
        {
          _seismo_window_show_error (self, _("Cannot record"),
                                     _("Recording needs administrator rights, and pkexec (polkit) "
                                       "is not installed to ask for them."));
          return;
        }
      g_ptr_array_add (argv, g_steal_pointer (&pkexec));
    }
  g_ptr_array_add (argv, g_strdup (cli));
  for (guint i = 0; args[i] != NULL; i++)
    {
      /* -o goes before a launched command's "--". */
      if (g_str_equal (args[i], "--"))
        break;
      g_ptr_array_add (argv, g_strdup (args[i]));
    }

  dir = g_build_filename (g_get_user_cache_dir (), "seismo", NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_autofree char *body = g_strdup_printf (_("Could not create %s: %s"), dir, g_strerror (errno));

      _seismo_window_show_error (self, _("Cannot record"), body);
      return;
    }
  name = g_strdup_printf ("recording-%s-%d.seismo", stamp, (int) getpid ());
  g_clear_pointer (&self->record_path, g_free);
  self->record_path = g_build_filename (dir, name, NULL);
  g_ptr_array_add (argv, g_strdup ("--stop-on-stdin-close"));
  g_ptr_array_add (argv, g_strdup ("-o"));
  g_ptr_array_add (argv, g_strdup (self->record_path));
  {
    gboolean after = FALSE;

    for (guint i = 0; args[i] != NULL; i++)
      {
        if (!after && g_str_equal (args[i], "--"))
          after = TRUE;
        if (after)
          g_ptr_array_add (argv, g_strdup (args[i]));
      }
  }
  g_ptr_array_add (argv, NULL);

  g_clear_object (&self->record_cancellable);
  self->record_cancellable = g_cancellable_new ();
  /* stdin is a pipe we close to ask a recorder we may not signal (pkexec) to stop. */
  {
    /* The recorder, and a program it launches, see the user's environment. */
    g_autoptr(GSubprocessLauncher) launcher =
      seismo_gl_env_new_launcher (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                  | G_SUBPROCESS_FLAGS_STDERR_PIPE);

    self->recorder = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                   &error);
  }
  if (self->recorder == NULL)
    {
      _seismo_window_show_error (self, _("Cannot record"), error->message);
      return;
    }
  self->record_via_pkexec = via_pkexec;
  self->record_started = g_get_monotonic_time ();
  self->record_seen_size = 0;
  self->record_stopping = FALSE;
  {
    RecordRun *run = g_new0 (RecordRun, 1);

    run->window = g_object_ref (self);
    run->process = g_object_ref (self->recorder);
    run->errors = G_MEMORY_OUTPUT_STREAM (g_memory_output_stream_new_resizable ());
    run->pending = 2;
    g_output_stream_splice_async (G_OUTPUT_STREAM (run->errors),
                                  g_subprocess_get_stderr_pipe (self->recorder),
                                  G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                                  G_PRIORITY_DEFAULT, NULL, recorder_errors_read, run);
    g_subprocess_wait_async (self->recorder, NULL, recorder_exited, run);
  }
  self->record_poll_source = g_timeout_add (POLL_MS, poll_recording, self);

  g_clear_object (&self->file);
  self->unsaved = TRUE;
  update_record_status (self);
  gtk_revealer_set_reveal_child (self->record_bar, TRUE);
  if (self->trace == NULL)
    {
      /* Not in the template: see seismo-window.ui. */
      adw_status_page_set_icon_name (self->recording_page, "media-record-symbolic");
      gtk_stack_set_visible_child_name (self->stack, "recording");
    }
  adw_window_title_set_title (self->window_title, _("Recording"));
  _seismo_window_update_actions (self);
}

void
_seismo_window_stop_recording (SeismoWindow *self)
{
  if (self->recorder == NULL || self->record_stopping)
    return;
  self->record_stopping = TRUE;
  update_record_status (self);
  /* Like Ctrl-C: the recorder stops cleanly and writes what it has. A recorder running as root
   * under pkexec cannot be signalled by us (only pkexec itself, while it still asks for the
   * password); closing its stdin asks it to stop. */
  if (kill (atoi (g_subprocess_get_identifier (self->recorder)), SIGINT) != 0
      || self->record_via_pkexec)
    {
      GOutputStream *in = g_subprocess_get_stdin_pipe (self->recorder);

      if (in != NULL)
        g_output_stream_close (in, NULL, NULL);
    }
}

static void
action_stop_recording (GtkWidget  *widget,
                       const char *name,
                       GVariant   *param)
{
  _seismo_window_stop_recording (SEISMO_WINDOW (widget));
}

void
_seismo_window_class_init_record (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.stop-recording", NULL, action_stop_recording);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-export"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seismo-export-private.h"

#define FLUSH_SIZE (1 << 20)

static gboolean
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *what,
                 const char  *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               _("Could not %s %s: %s"), what, path, g_strerror (errsv));
  return FALSE;
}

SeismoExportWriter *
seismo_export_writer_new (const char  *path,
                          GError     **error)
{
  g_autoptr(SeismoExportWriter) self = g_new0 (SeismoExportWriter, 1);
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);

  self->fd = -1;
  self->path = g_strdup (path);
  if (stat (path, &st) == 0 && S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   _("Could not write %s: it is a folder"), path);
      return NULL;
    }
  /* Same folder as the destination, so the final rename cannot cross file systems. */
  self->tmp_path = g_strdup_printf ("%s.XXXXXX", path);
  self->fd = g_mkstemp_full (self->tmp_path, O_RDWR | O_CLOEXEC, 0600);
  if (self->fd < 0)
    {
      int errsv = errno;

      g_clear_pointer (&self->tmp_path, g_free);
      set_errno_error (error, errsv, _("create a temporary file to write"), path);
      return NULL;
    }
  self->buf = g_string_sized_new (FLUSH_SIZE + 4096);
  return g_steal_pointer (&self);
}

static gboolean
flush (SeismoExportWriter  *self,
       GError             **error)
{
  gsize done = 0;

  while (done < self->buf->len)
    {
      gssize n = write (self->fd, self->buf->str + done, self->buf->len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return set_errno_error (error, errno, "write", self->path);
      done += n;
    }
  g_string_truncate (self->buf, 0);
  return TRUE;
}

gboolean
seismo_export_writer_maybe_flush (SeismoExportWriter  *self,
                                  GError             **error)
{
  return self->buf->len < FLUSH_SIZE || flush (self, error);
}

gboolean
seismo_export_writer_commit (SeismoExportWriter  *self,
                             GError             **error)
{
  g_autofree char *dir = NULL;
  int fd, dir_fd;

  g_return_val_if_fail (self->fd >= 0, FALSE);

  if (!flush (self, error))
    return FALSE;
  if (fsync (self->fd) < 0)
    return set_errno_error (error, errno, "sync", self->path);
  fd = self->fd;
  self->fd = -1;
  if (close (fd) < 0)
    return set_errno_error (error, errno, "close", self->path);
  if (g_rename (self->tmp_path, self->path) < 0)
    return set_errno_error (error, errno, _("rename the temporary file to"), self->path);
  g_clear_pointer (&self->tmp_path, g_free);

  /* The rename is durable once the folder is; a folder we cannot open for that is no error. */
  dir = g_path_get_dirname (self->path);
  dir_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0)
    {
      fsync (dir_fd);
      close (dir_fd);
    }
  return TRUE;
}

void
seismo_export_writer_free (SeismoExportWriter *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  if (self->tmp_path != NULL)
    g_unlink (self->tmp_path);
  if (self->buf != NULL)
    g_string_free (self->buf, TRUE);
  g_free (self->tmp_path);
  g_free (self->path);
  g_free (self);
}

void
seismo_json_append_string (GString    *out,
                           const char *s)
{
  const char *p = s;
  const char *end = s + strlen (s);

  g_string_append_c (out, '"');
  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c < 0x80)
        {
          switch (c)
            {
            case '"': g_string_append (out, "\\\""); break;
            case '\\': g_string_append (out, "\\\\"); break;
            case '\n': g_string_append (out, "\\n"); break;
            case '\r': g_string_append (out, "\\r"); break;
            case '\t': g_string_append (out, "\\t"); break;
            default:
              if (c < 0x20 || c == 0x7f)
                g_string_append_printf (out, "\\u%04x", c);
              else
                g_string_append_c (out, (char) c);
            }
          p++;
          continue;
        }
      /* Comms and paths are bytes, not necessarily UTF-8; JSON must be. */
      {
        gunichar u = g_utf8_get_char_validated (p, end - p);

        if (u == (gunichar) -1 || u == (gunichar) -2 || !g_unichar_validate (u))
          {
            g_string_append (out, "\\ufffd");
            p++;
          }
        else
          {
            const char *next = g_utf8_next_char (p);

            g_string_append_len (out, p, next - p);
            p = next;
          }
      }
    }
  g_string_append_c (out, '"');
}

/* ---- CSV ---- */

/* RFC 4180: quote a field holding a comma, a quote or a line break; double inner quotes. */
static void
csv_append (GString    *out,
            const char *s)
{
  if (s[strcspn (s, ",\"\r\n")] == '\0')
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

gboolean
seismo_export_csv (SeismoTrace            *trace,
                   const SeismoSelection  *selection,
                   const char             *path,
                   GError                **error)
{
  g_autoptr(SeismoExportWriter) w = NULL;
  g_autoptr(GString) text = g_string_sized_new (256);
  const guint64 *times;
  const SeismoTaskId *tasks;
  gboolean with_stacks = FALSE;
  gsize n;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(w = seismo_export_writer_new (path, error)))
    return FALSE;
  times = seismo_trace_get_times (trace);
  tasks = seismo_trace_get_tasks (trace);
  n = seismo_trace_get_n_events (trace);

  /* Stacks (ftrace text's stack trace blocks) are not in the print format: their own columns,
   * only when the trace has them, so the usual header stays the same. */
  {
    guint n_types = seismo_trace_get_n_event_types (trace);

    for (guint t = 0; t < n_types && !with_stacks; t++)
      {
        const SeismoEventType *type = seismo_trace_get_event_type (trace, t);

        for (guint f = 0; f < type->n_fields; f++)
          if (strcmp (type->fields[f].name, "stack") == 0)
            with_stacks = TRUE;
      }
  }
  g_string_append (w->buf, with_stacks ? "index,time_ns,cpu,tid,pid,comm,event,fields,stack,user_stack\r\n"
                                       : "index,time_ns,cpu,tid,pid,comm,event,fields\r\n");
  for (gsize i = 0; i < n; i++)
    {
      const SeismoTask *task;

      if (!seismo_selection_has (selection, i, times[i]))
        continue;
      task = seismo_trace_get_task (trace, tasks[i]);
      g_string_append_printf (w->buf, "%" G_GSIZE_FORMAT ",%" G_GUINT64_FORMAT ",%u,%d,%d,", i,
                              times[i], seismo_trace_event_cpu (trace, i), task->tid, task->pid);
      csv_append (w->buf, seismo_trace_task_comm_at (trace, tasks[i], times[i]));
      g_string_append_c (w->buf, ',');
      csv_append (w->buf, seismo_trace_event_type (trace, i)->full_name);
      g_string_append_c (w->buf, ',');
      g_string_truncate (text, 0);
      seismo_trace_event_format_into (trace, i, text);
      csv_append (w->buf, text->str);
      if (with_stacks)
        for (guint k = 0; k < 2; k++)
          {
            SeismoValue v;

            g_string_append_c (w->buf, ',');
            if (seismo_trace_event_field_by_name (trace, i, k ? "user_stack" : "stack", &v) &&
                v.type == SEISMO_FIELD_STRING && v.str)
              csv_append (w->buf, v.str);
          }
      g_string_append (w->buf, "\r\n");
      if (!seismo_export_writer_maybe_flush (w, error))
        return FALSE;
    }
  return seismo_export_writer_commit (w, error);
}

static gboolean
save_csv (SeismoTrace  *trace,
          const char   *path,
          GError      **error)
{
  return seismo_export_csv (trace, NULL, path, error);
}

const SeismoExporter seismo_csv_exporter = {
  .name = "csv",
  .extension = ".csv",
  .save = save_csv,
};

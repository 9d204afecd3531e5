/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-session"

#include <inttypes.h>
#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "seismo-session.h"

G_DEFINE_QUARK (seismo-session-error-quark, seismo_session_error)

static const char *const row_kinds[] = {
  [SEISMO_SESSION_ROW_CPUS] = "cpus",
  [SEISMO_SESSION_ROW_CPU] = "cpu",
  [SEISMO_SESSION_ROW_PROCESS] = "process",
  [SEISMO_SESSION_ROW_TASK] = "task",
};

static void
note_clear (gpointer data)
{
  g_free (((SeismoSessionNote *) data)->text);
}

SeismoSession *
seismo_session_new (void)
{
  SeismoSession *self = g_new0 (SeismoSession, 1);

  self->hidden_rows = g_array_new (FALSE, FALSE, sizeof (SeismoSessionRow));
  self->pinned_rows = g_array_new (FALSE, FALSE, sizeof (SeismoSessionRow));
  self->panes = g_ptr_array_new_with_free_func (g_free);
  self->notes = g_array_new (FALSE, FALSE, sizeof (SeismoSessionNote));
  g_array_set_clear_func (self->notes, note_clear);
  self->selected_event = -1;
  return self;
}

void
seismo_session_free (SeismoSession *self)
{
  if (self == NULL)
    return;
  g_free (self->trace_name);
  g_free (self->filter);
  g_array_unref (self->hidden_rows);
  g_array_unref (self->pinned_rows);
  g_ptr_array_unref (self->panes);
  g_array_unref (self->notes);
  g_free (self);
}

void
seismo_session_add_note (SeismoSession *self,
                         guint64        time_ns,
                         const char    *text)
{
  SeismoSessionNote note;
  guint i;

  g_return_if_fail (self != NULL);
  note = (SeismoSessionNote) { time_ns, g_strdup (text != NULL ? text : "") };
  i = self->notes->len;
  while (i > 0 && g_array_index (self->notes, SeismoSessionNote, i - 1).time_ns > time_ns)
    i--;
  g_array_insert_val (self->notes, i, note);
}

void
seismo_session_add_row (GArray              *rows,
                        SeismoSessionRowKind kind,
                        gint64               id)
{
  SeismoSessionRow row = { kind, id };

  g_return_if_fail (rows != NULL);
  g_array_append_val (rows, row);
}

char *
seismo_session_path_for_trace (const char *trace_path)
{
  g_return_val_if_fail (trace_path != NULL, NULL);
  return g_strconcat (trace_path, SEISMO_SESSION_EXTENSION, NULL);
}

/* Writing */

static void
add_ns (JsonBuilder *b,
        const char  *name,
        guint64      ns)
{
  /* JSON numbers are read back as gint64: timestamps stay below 2^63. */
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) MIN (ns, (guint64) G_MAXINT64));
}

static void
add_rows (JsonBuilder *b,
          const char  *name,
          GArray      *rows)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const SeismoSessionRow *row = &g_array_index (rows, SeismoSessionRow, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, row_kinds[row->kind]);
      if (row->kind != SEISMO_SESSION_ROW_CPUS)
        {
          json_builder_set_member_name (b, "id");
          json_builder_add_int_value (b, row->id);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static char *
to_data (const SeismoSession *self,
         gboolean             pretty,
         gsize               *len)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  char *text;


  json_builder_begin_object (b);
  json_builder_set_member_name (b, "seismo-session");
  json_builder_add_int_value (b, SEISMO_SESSION_VERSION);
  if (self->trace_name != NULL || self->trace_events > 0)
    {
      json_builder_set_member_name (b, "trace");
      json_builder_begin_object (b);
      if (self->trace_name != NULL)
        {
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, self->trace_name);
        }
      json_builder_set_member_name (b, "events");
      json_builder_add_int_value (b, (gint64) MIN (self->trace_events, (guint64) G_MAXINT64));
      json_builder_end_object (b);
    }
  if (self->has_view)
    {
      json_builder_set_member_name (b, "view");
      json_builder_begin_object (b);
      add_ns (b, "start_ns", self->view_start_ns);
      add_ns (b, "end_ns", self->view_end_ns);
      json_builder_end_object (b);
    }
  if (self->has_marker[0] || self->has_marker[1])
    {
      json_builder_set_member_name (b, "markers");
      json_builder_begin_object (b);
      for (guint m = 0; m < 2; m++)
        if (self->has_marker[m])
          add_ns (b, m == 0 ? "A" : "B", self->marker_ns[m]);
      json_builder_end_object (b);
    }
  if (self->has_range)
    {
      json_builder_set_member_name (b, "range");
      json_builder_begin_object (b);
      add_ns (b, "start_ns", self->range_start_ns);
      add_ns (b, "end_ns", self->range_end_ns);
      json_builder_end_object (b);
    }
  if (self->filter != NULL)
    {
      json_builder_set_member_name (b, "filter");
      json_builder_add_string_value (b, self->filter);
    }
  add_rows (b, "hidden_rows", self->hidden_rows);
  add_rows (b, "pinned_rows", self->pinned_rows);
  if (self->selected_event >= 0)
    {
      json_builder_set_member_name (b, "selected_event");
      json_builder_add_int_value (b, self->selected_event);
    }
  json_builder_set_member_name (b, "panes");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->panes->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (self->panes, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->notes->len; i++)
    {
      const SeismoSessionNote *note = &g_array_index (self->notes, SeismoSessionNote, i);

      json_builder_begin_object (b);
      add_ns (b, "time_ns", note->time_ns);
      json_builder_set_member_name (b, "text");
      json_builder_add_string_value (b, note->text);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);
  text = json_generator_to_data (gen, len);
  return text;
}

char *
seismo_session_to_data (const SeismoSession *self,
                        gsize               *len)
{
  g_return_val_if_fail (self != NULL, NULL);
  return to_data (self, TRUE, len);
}

char *
seismo_session_to_line (const SeismoSession *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return to_data (self, FALSE, NULL);
}

gboolean
seismo_session_save (const SeismoSession *self,
                     const char          *path,
                     GError             **error)
{
  g_autofree char *text = NULL;
  gsize len;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  text = seismo_session_to_data (self, &len);
  return g_file_set_contents_full (path, text, len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

/* Reading. Every accessor checks the node's type first: json-glib's getters complain (a
 * critical, fatal in tests) when asked for the wrong type, and the input is untrusted. */

static gboolean G_GNUC_PRINTF (3, 4)
invalid (GError    **error,
         const char *key,
         const char *format,
         ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
               _("not a Seismo session: “%s” %s"), key, what);
  return FALSE;
}

static gboolean
get_int (JsonNode    *node,
         const char  *key,
         gint64       min,
         gint64      *value,
         GError     **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return invalid (error, key, "%s", _("must be an integer"));
  *value = json_node_get_int (node);
  if (*value < min)
    return invalid (error, key, _("must be at least %" PRId64), min);
  return TRUE;
}

static gboolean
get_ns (JsonObject  *object,
        const char  *key,
        guint64     *value,
        GError     **error)
{
  gint64 v;

  if (!get_int (json_object_get_member (object, key), key, 0, &v, error))
    return FALSE;
  *value = (guint64) v;
  return TRUE;
}

static gboolean
get_string (JsonNode    *node,
            const char  *key,
            const char **value,
            GError     **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid (error, key, "%s", _("must be a string"));
  *value = json_node_get_string (node);
  /* json-glib decodes a lone surrogate escape ("\ud800") to bytes that are not UTF-8, and the
   * strings end up in GTK labels and entries, which take UTF-8 only. */
  if (!g_utf8_validate (*value, -1, NULL))
    return invalid (error, key, "%s", _("must be UTF-8 text"));
  return TRUE;
}

static JsonObject *
get_object (JsonObject  *parent,
            const char  *key,
            GError     **error)
{
  JsonNode *node = json_object_get_member (parent, key);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, key, "%s", _("must be an object"));
      return NULL;
    }
  return json_node_get_object (node);
}

static JsonArray *
get_array (JsonObject  *parent,
           const char  *key,
           GError     **error)
{
  JsonNode *node = json_object_get_member (parent, key);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      invalid (error, key, "%s", _("must be an array"));
      return NULL;
    }
  return json_node_get_array (node);
}

static gboolean
read_span (JsonObject  *root,
           const char  *key,
           guint64     *start,
           guint64     *end,
           GError     **error)
{
  JsonObject *o = get_object (root, key, error);
  g_autofree char *start_key = g_strconcat (key, ".start_ns", NULL);
  g_autofree char *end_key = g_strconcat (key, ".end_ns", NULL);

  if (o == NULL)
    return FALSE;
  if (!get_int (json_object_get_member (o, "start_ns"), start_key, 0, (gint64 *) start, error)
      || !get_int (json_object_get_member (o, "end_ns"), end_key, 0, (gint64 *) end, error))
    return FALSE;
  if (*end < *start)
    return invalid (error, key, "%s", _("ends before it starts"));
  return TRUE;
}

static gboolean
read_rows (JsonObject  *root,
           const char  *key,
           GArray      *rows,
           GError     **error)
{
  JsonArray *array;

  if (!json_object_has_member (root, key))
    return TRUE;
  if ((array = get_array (root, key, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *o;
      const char *kind;
      gint64 id = 0;
      guint k;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return invalid (error, key, _("item %u must be an object"), i);
      o = json_node_get_object (node);
      if (!get_string (json_object_get_member (o, "kind"), "kind", &kind, error))
        return FALSE;
      for (k = 0; k < G_N_ELEMENTS (row_kinds); k++)
        if (strcmp (kind, row_kinds[k]) == 0)
          break;
      if (k == G_N_ELEMENTS (row_kinds))
        return invalid (error, key, _("item %u has an unknown kind"), i);
      if (k != SEISMO_SESSION_ROW_CPUS
          && !get_int (json_object_get_member (o, "id"), "id", 0, &id, error))
        return FALSE;
      seismo_session_add_row (rows, k, id);
    }
  return TRUE;
}

static gboolean
read_session (JsonObject    *root,
              SeismoSession *self,
              GError       **error)
{
  gint64 version;

  if (!get_int (json_object_get_member (root, "seismo-session"), "seismo-session", 1, &version, error))
    return FALSE;
  if (version > SEISMO_SESSION_VERSION)
    {
      g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_VERSION,
                   _("session version %" PRId64 " is newer than this Seismo reads (%d)"),
                   version, SEISMO_SESSION_VERSION);
      return FALSE;
    }

  if (json_object_has_member (root, "trace"))
    {
      JsonObject *t = get_object (root, "trace", error);
      gint64 events = 0;
      const char *name;

      if (t == NULL)
        return FALSE;
      if (json_object_has_member (t, "name"))
        {
          if (!get_string (json_object_get_member (t, "name"), "trace.name", &name, error))
            return FALSE;
          self->trace_name = g_strdup (name);
        }
      if (json_object_has_member (t, "events")
          && !get_int (json_object_get_member (t, "events"), "trace.events", 0, &events, error))
        return FALSE;
      self->trace_events = (guint64) events;
    }
  if (json_object_has_member (root, "view"))
    {
      if (!read_span (root, "view", &self->view_start_ns, &self->view_end_ns, error))
        return FALSE;
      self->has_view = TRUE;
    }
  if (json_object_has_member (root, "markers"))
    {
      JsonObject *m = get_object (root, "markers", error);

      if (m == NULL)
        return FALSE;
      for (guint i = 0; i < 2; i++)
        {
          const char *key = i == 0 ? "A" : "B";

          if (!json_object_has_member (m, key))
            continue;
          if (!get_ns (m, key, &self->marker_ns[i], error))
            return FALSE;
          self->has_marker[i] = TRUE;
        }
    }
  if (json_object_has_member (root, "range"))
    {
      if (!read_span (root, "range", &self->range_start_ns, &self->range_end_ns, error))
        return FALSE;
      self->has_range = TRUE;
    }
  if (json_object_has_member (root, "filter"))
    {
      const char *filter;

      if (!get_string (json_object_get_member (root, "filter"), "filter", &filter, error))
        return FALSE;
      self->filter = g_strdup (filter);
    }
  if (!read_rows (root, "hidden_rows", self->hidden_rows, error)
      || !read_rows (root, "pinned_rows", self->pinned_rows, error))
    return FALSE;
  if (json_object_has_member (root, "selected_event")
      && !get_int (json_object_get_member (root, "selected_event"), "selected_event", -1,
                   &self->selected_event, error))
    return FALSE;
  if (json_object_has_member (root, "panes"))
    {
      JsonArray *panes = get_array (root, "panes", error);

      if (panes == NULL)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (panes); i++)
        {
          const char *pane;

          if (!get_string (json_array_get_element (panes, i), "panes", &pane, error))
            return FALSE;
          g_ptr_array_add (self->panes, g_strdup (pane));
        }
    }
  if (json_object_has_member (root, "notes"))
    {
      JsonArray *notes = get_array (root, "notes", error);

      if (notes == NULL)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (notes); i++)
        {
          JsonNode *node = json_array_get_element (notes, i);
          const char *text;
          guint64 t;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            return invalid (error, "notes", _("item %u must be an object"), i);
          if (!get_ns (json_node_get_object (node), "time_ns", &t, error)
              || !get_string (json_object_get_member (json_node_get_object (node), "text"), "text",
                              &text, error))
            return FALSE;
          seismo_session_add_note (self, t, text);
        }
    }
  return TRUE;
}

/* json-glib parses nested values by recursion: a deep enough nesting would exhaust the stack
 * before any error could be reported, so it is measured first (outside strings). */
static gboolean
nesting_ok (const char *data,
            gsize       len,
            GError    **error)
{
  gboolean in_string = FALSE, escaped = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          if (++depth > SEISMO_SESSION_MAX_DEPTH)
            {
              g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
                           _("not a Seismo session: nested deeper than %d at offset %zu"),
                           SEISMO_SESSION_MAX_DEPTH, i);
              return FALSE;
            }
        }
      else if ((c == '}' || c == ']') && depth > 0)
        depth--;
    }
  return TRUE;
}

SeismoSession *
seismo_session_load_from_data (const char *data,
                               gsize       len,
                               GError    **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(SeismoSession) self = NULL;
  g_autoptr(GError) local = NULL;
  const char *end;
  JsonNode *root;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (len > SEISMO_SESSION_MAX_SIZE)
    {
      g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
                   _("a session of %zu bytes is larger than %d"), len,
                   SEISMO_SESSION_MAX_SIZE);
      return NULL;
    }
  /* json-glib reads a NUL as the end of the text: one inside is not JSON. */
  if (len > 0 && memchr (data, '\0', len) != NULL)
    {
      g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
                   _("not a Seismo session: a NUL byte at offset %zu"),
                   (gsize) ((const char *) memchr (data, '\0', len) - data));
      return NULL;
    }
  /* JSON is UTF-8, and json-glib does not check: it keeps other bytes in strings and quotes them
   * in its error messages, which a GTK label then refuses. */
  if (len > 0 && !g_utf8_validate_len (data, len, &end))
    {
      g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
                   _("not a Seismo session: not UTF-8 text at offset %zu"),
                   (gsize) (end - data));
      return NULL;
    }
  if (!nesting_ok (data, len, error))
    return NULL;
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, len > 0 ? data : "", (gssize) len, &local))
    {
      g_autofree char *message = g_utf8_make_valid (local->message, -1);

      g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
                   _("not a Seismo session: %s"), message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, SEISMO_SESSION_ERROR, SEISMO_SESSION_ERROR_INVALID,
                   _("not a Seismo session: the JSON text is not an object"));
      return NULL;
    }
  self = seismo_session_new ();
  if (!read_session (json_node_get_object (root), self, error))
    return NULL;
  return g_steal_pointer (&self);
}

SeismoSession *
seismo_session_load (const char *path,
                     GError    **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;
  SeismoSession *self;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  self = seismo_session_load_from_data (text, len, &local);
  if (self == NULL)
    {
      g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
      return NULL;
    }
  return self;
}

SeismoSession *
seismo_session_from_trace (SeismoTrace *trace,
                           GError     **error)
{
  const char *text;
  g_autoptr(GError) local = NULL;
  SeismoSession *self;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  text = seismo_trace_get_metadata (trace, SEISMO_SESSION_METADATA_KEY);
  if (text == NULL)
    return NULL;
  self = seismo_session_load_from_data (text, strlen (text), &local);
  if (self == NULL)
    g_set_error (error, local->domain, local->code, _("the session in the trace’s metadata: %s"),
                 local->message);
  return self;
}

SeismoSession *
seismo_session_find_for_trace (SeismoTrace *trace,
                               const char  *trace_path,
                               GError     **error)
{
  if (trace_path != NULL)
    {
      g_autofree char *path = seismo_session_path_for_trace (trace_path);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return seismo_session_load (path, error);
    }
  return trace != NULL ? seismo_session_from_trace (trace, error) : NULL;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-app"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "seismo-backend.h"
#include "seismo-error.h"
#include "seismo-record-dialog.h"

enum {
  TARGET_SYSTEM,
  TARGET_COMMAND,
  TARGET_PROCESS,
};

static const char *const target_names[] = { "system", "command", "process" };

struct _SeismoRecordDialog
{
  AdwWindow        parent_instance;

  /* template widgets */
  AdwToastOverlay *toast_overlay;
  AdwComboRow     *backend_row;
  AdwComboRow     *target_row;
  AdwEntryRow     *command_row;
  AdwActionRow    *pid_row;
  GtkMenuButton   *pid_button;
  GtkPopover      *pid_popover;
  GtkSearchEntry  *pid_search;
  GtkListView     *pid_view;
  AdwActionRow    *children_row;
  GtkSwitch       *children_switch;
  GtkSearchEntry  *events_search;
  GtkListView     *events_view;
  GtkLabel        *events_status;
  AdwEntryRow     *extra_row;
  AdwEntryRow     *probes_row;
  AdwActionRow    *aggregate_row;
  GtkSwitch       *aggregate_switch;
  GtkSpinButton   *duration_spin;
  GtkSpinButton   *buffer_spin;

  /* borrowed */
  SeismoWindow    *parent;

  /* owned */
  GPtrArray       *backends;        /* const SeismoBackend* */
  GHashTable      *selected;        /* event name → TRUE */
  GtkStringList   *events;          /* every line the backend listed */
  GtkStringList   *groups;          /* the tree's top level: groups with lines matching the search */
  GHashTable      *group_lines;     /* group name → GtkStringList of its matching lines */
  GtkStringList   *processes;
  GCancellable    *cancellable;

  GPid             pid;
};

G_DEFINE_FINAL_TYPE (SeismoRecordDialog, seismo_record_dialog, ADW_TYPE_WINDOW)

static GSettings *
get_settings (SeismoRecordDialog *self)
{
  GtkApplication *app = self->parent != NULL ? gtk_window_get_application (GTK_WINDOW (self->parent)) : NULL;

  return app != NULL ? seismo_application_get_settings (SEISMO_APPLICATION (app)) : NULL;
}

static const SeismoBackend *
current_backend (SeismoRecordDialog *self)
{
  guint i = adw_combo_row_get_selected (self->backend_row);

  return i < self->backends->len ? g_ptr_array_index (self->backends, i) : NULL;
}

/* Events */

static void
update_events_status (SeismoRecordDialog *self,
                      const char         *message)
{
  g_autofree char *text = NULL;
  guint n = g_hash_table_size (self->selected);

  if (message != NULL)
    text = g_strdup (message);
  else if (n == 0)
    text = g_strdup (_("Nothing chosen: the backend records its default set."));
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u chosen", "%u chosen", n), n);
  gtk_label_set_text (self->events_status, text);
}

static void
on_event_toggled (GtkCheckButton     *check,
                  SeismoRecordDialog *self)
{
  const char *name = g_object_get_data (G_OBJECT (check), "event-name");

  if (name == NULL)
    return;
  if (gtk_check_button_get_active (check))
    g_hash_table_add (self->selected, g_strdup (name));
  else
    g_hash_table_remove (self->selected, name);
  update_events_status (self, NULL);
}

/*
 * The events as a tree: ftrace's by subsystem ("sched" → sched:sched_switch…, where checking the
 * subsystem records all of it, "sched:*"); ptrace's and eBPF's syscall classes (%file…) apart from
 * single syscalls. The search keeps the lines that match and opens their groups.
 */
static char *
event_group_of (const char *line)
{
  const char *colon = strchr (line, ':');
  const char *space = strchr (line, ' ');

  if (colon != NULL && (space == NULL || colon < space))
    return g_strndup (line, colon - line);
  if (line[0] == '%')
    return g_strdup (_("Syscall classes"));
  return g_strdup (_("Syscalls"));
}

/* eBPF lists the forms --probe takes (kprobe:FUNC…): hints for the Probes row, not events. */
static gboolean
is_probe_form (const char *line)
{
  return g_str_has_prefix (line, "kprobe:") || g_str_has_prefix (line, "kretprobe:")
         || g_str_has_prefix (line, "uprobe:") || g_str_has_prefix (line, "uretprobe:")
         || g_str_has_prefix (line, "usdt:");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static void
rebuild_event_tree (SeismoRecordDialog *self)
{
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->events_search));
  g_autofree char *needle = g_utf8_casefold (search != NULL ? search : "", -1);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->events));
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);

  g_hash_table_remove_all (self->group_lines);
  for (guint i = 0; i < n; i++)
    {
      const char *line = gtk_string_list_get_string (self->events, i);
      g_autofree char *group = NULL;
      g_autofree char *folded = NULL;
      GtkStringList *lines;

      if (is_probe_form (line))
        continue;
      group = event_group_of (line);
      folded = g_utf8_casefold (line, -1);
      if (*needle != '\0' && strstr (folded, needle) == NULL)
        {
          g_autofree char *folded_group = g_utf8_casefold (group, -1);

          if (strstr (folded_group, needle) == NULL)
            continue;
        }
      if ((lines = g_hash_table_lookup (self->group_lines, group)) == NULL)
        {
          lines = gtk_string_list_new (NULL);
          g_hash_table_insert (self->group_lines, g_strdup (group), lines);
          g_ptr_array_add (order, g_strdup (group));
        }
      gtk_string_list_append (lines, line);
    }
  g_ptr_array_sort (order, compare_strings);
  g_ptr_array_add (order, NULL);
  gtk_string_list_splice (self->groups, 0, g_list_model_get_n_items (G_LIST_MODEL (self->groups)),
                          (const char * const *) order->pdata);
}

static GListModel *
create_event_children (gpointer item,
                       gpointer user_data)
{
  SeismoRecordDialog *self = user_data;
  GtkStringList *lines = g_hash_table_lookup (self->group_lines,
                                              gtk_string_object_get_string (item));

  return lines != NULL ? g_object_ref (G_LIST_MODEL (lines)) : NULL;
}

static void
on_events_search_changed (SeismoRecordDialog *self)
{
  GtkTreeListModel *tree = GTK_TREE_LIST_MODEL (
    gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_list_view_get_model (self->events_view))));

  /* Groups open by themselves while searching, so the matches show. */
  gtk_tree_list_model_set_autoexpand (tree, *gtk_editable_get_text (GTK_EDITABLE (self->events_search)) != '\0');
  rebuild_event_tree (self);
}

static gboolean
backend_can (SeismoRecordDialog *self,
             SeismoBackendCaps   caps)
{
  const SeismoBackend *backend = current_backend (self);

  return backend != NULL && seismo_backend_can (backend, caps);
}

static void
on_event_item_setup (SeismoRecordDialog *self,
                     GtkListItem        *item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  g_signal_connect (check, "toggled", G_CALLBACK (on_event_toggled), self);
  gtk_list_item_set_child (item, expander);
}

static void
on_event_item_bind (SeismoRecordDialog *self,
                    GtkListItem        *item)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (item));
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_tree_expander_get_child (expander);
  GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_widget_get_first_child (box));
  GtkLabel *label = GTK_LABEL (gtk_widget_get_next_sibling (GTK_WIDGET (check)));
  g_autoptr(GtkStringObject) object = gtk_tree_list_row_get_item (row);
  const char *line = gtk_string_object_get_string (object);
  g_autofree char *name = NULL;
  gboolean group = gtk_tree_list_row_get_depth (row) == 0;

  gtk_tree_expander_set_list_row (expander, row);
  g_object_set_data (G_OBJECT (check), "event-name", NULL);
  if (group)
    {
      GListModel *lines = g_hash_table_lookup (self->group_lines, line);
      guint n = lines != NULL ? g_list_model_get_n_items (lines) : 0;
      g_autofree char *text = g_strdup_printf ("%s (%u)", line, n);

      gtk_label_set_text (label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (box), NULL);
      /* A whole tracepoint subsystem is one choice ("sched:*"); other groups only gather. */
      if (backend_can (self, SEISMO_BACKEND_CAP_EVENTS))
        name = g_strconcat (line, ":*", NULL);
    }
  else
    {
      const char *space = strchr (line, ' ');

      /* Lines are "system:event  field:type …"; the first word is what seismo-cli takes. */
      name = space != NULL ? g_strndup (line, space - line) : g_strdup (line);
      gtk_label_set_text (label, name);
      gtk_widget_set_tooltip_text (GTK_WIDGET (box), space != NULL ? line : NULL);
    }
  gtk_widget_set_visible (GTK_WIDGET (check), name != NULL);
  gtk_check_button_set_active (check, name != NULL && g_hash_table_contains (self->selected, name));
  if (name != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_object_set_data_full (G_OBJECT (check), "event-name", g_steal_pointer (&name), g_free);
}

static void
on_event_item_unbind (SeismoRecordDialog *self,
                      GtkListItem        *item)
{
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)));

  g_object_set_data (G_OBJECT (gtk_widget_get_first_child (box)), "event-name", NULL);
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)), NULL);
}

static void
list_events_thread (GTask        *task,
                    gpointer      source,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  const SeismoBackend *backend = task_data;
  GError *error = NULL;
  GPtrArray *events = backend->list_events (&error);

  if (events == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, events, (GDestroyNotify) g_ptr_array_unref);
}

static void
list_events_done (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SeismoRecordDialog *self = SEISMO_RECORD_DIALOG (source);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;

  events = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_task_get_task_data (G_TASK (result)) != current_backend (self))
    return;
  if (events == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("The event list is not available: %s. Type the events "
                                                "below instead."), error->message);

      update_events_status (self, msg);
      return;
    }
  g_ptr_array_add (events, NULL);
  gtk_string_list_splice (self->events, 0, g_list_model_get_n_items (G_LIST_MODEL (self->events)),
                          (const char * const *) events->pdata);
  rebuild_event_tree (self);
  update_events_status (self, NULL);
}

static void
load_events (SeismoRecordDialog *self)
{
  const SeismoBackend *backend = current_backend (self);
  g_autoptr(GTask) task = NULL;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, g_cancellable_new ());
  gtk_string_list_splice (self->events, 0, g_list_model_get_n_items (G_LIST_MODEL (self->events)), NULL);
  rebuild_event_tree (self);
  if (backend == NULL || backend->list_events == NULL)
    {
      update_events_status (self, _("This backend has no list of events to choose from."));
      return;
    }
  update_events_status (self, _("Loading the events this backend can record…"));
  task = g_task_new (self, self->cancellable, list_events_done, NULL);
  g_task_set_task_data (task, (gpointer) backend, NULL);
  g_task_run_in_thread (task, list_events_thread);
}

/* Backend and target */

static void
on_backend_changed (SeismoRecordDialog *self)
{
  const SeismoBackend *backend = current_backend (self);
  g_autofree char *why = NULL;
  gboolean available;

  if (backend == NULL)
    return;
  available = backend->available (&why);
  if (available)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self->backend_row), _(backend->description));
  else if (geteuid () != 0)
    {
      g_autofree char *text = NULL;

      /* The recorder runs as root through pkexec, where what this user lacks is usually there;
       * if it is not, the recorder's own error says why. */
      text = g_strdup_printf (_("%s. Needs administrator rights here (%s): you will be asked when "
                                "recording starts."),
                              _(backend->description), why != NULL ? why : _("unknown reason"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->backend_row), text);
      available = TRUE;
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("Cannot run here: %s"), why != NULL ? why : _("unknown reason"));

      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->backend_row), text);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.start", available);
  gtk_widget_set_visible (GTK_WIDGET (self->probes_row),
                          seismo_backend_can (backend, SEISMO_BACKEND_CAP_PROBES));
  gtk_widget_set_visible (GTK_WIDGET (self->aggregate_row),
                          seismo_backend_can (backend, SEISMO_BACKEND_CAP_AGGREGATE));
  g_hash_table_remove_all (self->selected);
  load_events (self);
}

static void
on_target_changed (SeismoRecordDialog *self)
{
  guint target = adw_combo_row_get_selected (self->target_row);

  gtk_widget_set_visible (GTK_WIDGET (self->command_row), target == TARGET_COMMAND);
  gtk_widget_set_visible (GTK_WIDGET (self->pid_row), target == TARGET_PROCESS);
  gtk_widget_set_visible (GTK_WIDGET (self->children_row), target == TARGET_PROCESS);
}

/* Process picker */

static void
on_pid_popover_show (SeismoRecordDialog *self)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *comm_path = NULL;
      g_autofree char *cmd_path = NULL;
      g_autofree char *comm = NULL;
      g_autofree char *cmdline = NULL;
      gsize len = 0;

      if (!g_ascii_isdigit (name[0]))
        continue;
      comm_path = g_build_filename ("/proc", name, "comm", NULL);
      cmd_path = g_build_filename ("/proc", name, "cmdline", NULL);
      if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
        continue;
      g_strstrip (comm);
      if (g_file_get_contents (cmd_path, &cmdline, &len, NULL))
        for (gsize i = 0; i + 1 < len; i++)
          if (cmdline[i] == '\0')
            cmdline[i] = ' ';
      g_ptr_array_add (lines, g_strdup_printf ("%s  %s  %s", name, comm, cmdline != NULL ? cmdline : ""));
    }
  g_ptr_array_add (lines, NULL);
  gtk_string_list_splice (self->processes, 0, g_list_model_get_n_items (G_LIST_MODEL (self->processes)),
                          (const char * const *) lines->pdata);
  gtk_widget_grab_focus (GTK_WIDGET (self->pid_search));
}

static void
set_pid (SeismoRecordDialog *self,
         GPid                pid,
         const char         *label)
{
  self->pid = pid;
  adw_action_row_set_subtitle (self->pid_row, label);
}

static void
on_pid_activated (SeismoRecordDialog *self,
                  guint               position,
                  GtkListView        *view)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (view));
  g_autoptr(GtkStringObject) item = g_list_model_get_item (model, position);

  if (item == NULL)
    return;
  set_pid (self, (GPid) atoi (gtk_string_object_get_string (item)), gtk_string_object_get_string (item));
  gtk_popover_popdown (self->pid_popover);
}

/* Start */

static void
add_list (GPtrArray  *args,
          const char *option,
          GPtrArray  *values)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; i < values->len; i++)
    {
      if (i > 0)
        g_string_append_c (joined, ',');
      g_string_append (joined, g_ptr_array_index (values, i));
    }
  if (joined->len == 0)
    return;
  g_ptr_array_add (args, g_strdup (option));
  g_ptr_array_add (args, g_string_free (g_steal_pointer (&joined), FALSE));
}

static void
split_into (GPtrArray  *values,
            const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (*g_strstrip (parts[i]) != '\0')
      g_ptr_array_add (values, g_strdup (parts[i]));
}

char **
seismo_record_dialog_get_args (SeismoRecordDialog *self,
                               GError            **error)
{
  const SeismoBackend *backend = current_backend (self);
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) probes = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) command = NULL;
  GHashTableIter iter;
  gpointer key;
  double duration = gtk_spin_button_get_value (self->duration_spin);
  int buffer_kb = gtk_spin_button_get_value_as_int (self->buffer_spin);
  guint target = adw_combo_row_get_selected (self->target_row);

  g_return_val_if_fail (SEISMO_IS_RECORD_DIALOG (self), NULL);

  if (backend == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNAVAILABLE, _("No backend can record here."));
      return NULL;
    }
  g_ptr_array_add (args, g_strdup ("record"));
  g_ptr_array_add (args, g_strdup ("-b"));
  g_ptr_array_add (args, g_strdup (backend->name));

  g_hash_table_iter_init (&iter, self->selected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (events, g_strdup (key));
  g_ptr_array_sort (events, (GCompareFunc) g_strcmp0);
  split_into (events, gtk_editable_get_text (GTK_EDITABLE (self->extra_row)));
  add_list (args, "-e", events);
  if (seismo_backend_can (backend, SEISMO_BACKEND_CAP_PROBES))
    {
      split_into (probes, gtk_editable_get_text (GTK_EDITABLE (self->probes_row)));
      for (guint i = 0; i < probes->len; i++)
        {
          g_ptr_array_add (args, g_strdup ("--probe"));
          g_ptr_array_add (args, g_strdup (g_ptr_array_index (probes, i)));
        }
    }
  if (seismo_backend_can (backend, SEISMO_BACKEND_CAP_AGGREGATE)
      && gtk_switch_get_active (self->aggregate_switch))
    g_ptr_array_add (args, g_strdup ("--aggregate"));
  if (duration > 0)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_ptr_array_add (args, g_strdup ("--duration"));
      g_ptr_array_add (args, g_strdup (g_ascii_dtostr (buf, sizeof buf, duration)));
    }
  if (buffer_kb > 0)
    {
      g_ptr_array_add (args, g_strdup ("--buffer-kb"));
      g_ptr_array_add (args, g_strdup_printf ("%d", buffer_kb));
    }

  switch (target)
    {
    case TARGET_SYSTEM:
      g_ptr_array_add (args, g_strdup ("-a"));
      break;
    case TARGET_PROCESS:
      if (self->pid <= 0)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT, _("Choose the process to record."));
          return NULL;
        }
      g_ptr_array_add (args, g_strdup ("-p"));
      g_ptr_array_add (args, g_strdup_printf ("%d", (int) self->pid));
      if (gtk_switch_get_active (self->children_switch))
        g_ptr_array_add (args, g_strdup ("--children"));
      break;
    case TARGET_COMMAND:
    default:
      {
        g_autoptr(GError) parse_error = NULL;
        const char *text = gtk_editable_get_text (GTK_EDITABLE (self->command_row));

        if (text == NULL || *text == '\0')
          {
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT, _("Type the command to launch."));
            return NULL;
          }
        if (!g_shell_parse_argv (text, NULL, &command, &parse_error))
          {
            g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT, _("The command cannot be read: %s"),
                         parse_error->message);
            return NULL;
          }
        g_ptr_array_add (args, g_strdup ("--"));
        for (guint i = 0; command[i] != NULL; i++)
          g_ptr_array_add (args, g_strdup (command[i]));
      }
      break;
    }
  g_ptr_array_add (args, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&args), FALSE);
}

static void
save_choices (SeismoRecordDialog *self)
{
  GSettings *settings = get_settings (self);
  const SeismoBackend *backend = current_backend (self);
  g_autoptr(GPtrArray) events = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  if (settings == NULL)
    return;
  g_hash_table_iter_init (&iter, self->selected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (events, key);
  g_ptr_array_add (events, NULL);
  if (backend != NULL)
    g_settings_set_string (settings, "record-backend", backend->name);
  g_settings_set_string (settings, "record-target", target_names[MIN (adw_combo_row_get_selected (self->target_row), 2)]);
  g_settings_set_string (settings, "record-command", gtk_editable_get_text (GTK_EDITABLE (self->command_row)));
  g_settings_set_strv (settings, "record-events", (const char * const *) events->pdata);
  g_settings_set_string (settings, "record-extra", gtk_editable_get_text (GTK_EDITABLE (self->extra_row)));
  g_settings_set_double (settings, "record-duration", gtk_spin_button_get_value (self->duration_spin));
  g_settings_set_uint (settings, "record-buffer-kb", (guint) gtk_spin_button_get_value_as_int (self->buffer_spin));
}

static void
restore_choices (SeismoRecordDialog *self)
{
  GSettings *settings = get_settings (self);
  g_autofree char *backend = NULL;
  g_autofree char *target = NULL;
  g_autofree char *command = NULL;
  g_autofree char *extra = NULL;
  g_auto(GStrv) events = NULL;

  if (settings == NULL)
    return;
  backend = g_settings_get_string (settings, "record-backend");
  for (guint i = 0; i < self->backends->len; i++)
    if (g_str_equal (((const SeismoBackend *) g_ptr_array_index (self->backends, i))->name, backend))
      adw_combo_row_set_selected (self->backend_row, i);
  target = g_settings_get_string (settings, "record-target");
  for (guint i = 0; i < G_N_ELEMENTS (target_names); i++)
    if (g_str_equal (target, target_names[i]))
      adw_combo_row_set_selected (self->target_row, i);
  command = g_settings_get_string (settings, "record-command");
  gtk_editable_set_text (GTK_EDITABLE (self->command_row), command);
  extra = g_settings_get_string (settings, "record-extra");
  gtk_editable_set_text (GTK_EDITABLE (self->extra_row), extra);
  gtk_spin_button_set_value (self->duration_spin, g_settings_get_double (settings, "record-duration"));
  gtk_spin_button_set_value (self->buffer_spin, g_settings_get_uint (settings, "record-buffer-kb"));
  events = g_settings_get_strv (settings, "record-events");
  for (guint i = 0; events[i] != NULL; i++)
    g_hash_table_add (self->selected, g_strdup (events[i]));
  update_events_status (self, NULL);
}

static void
action_start (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  SeismoRecordDialog *self = SEISMO_RECORD_DIALOG (widget);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = seismo_record_dialog_get_args (self, &error);
  SeismoWindow *target;

  if (args == NULL)
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }
  save_choices (self);
  target = self->parent;
  /* A window shows one trace: record into this one only when it shows nothing. */
  if (target == NULL || !seismo_window_is_empty (target))
    {
      GtkApplication *app = GTK_APPLICATION (g_application_get_default ());

      target = seismo_window_new (SEISMO_APPLICATION (app));
      gtk_window_present (GTK_WINDOW (target));
    }
  seismo_window_start_recording (target, (const char * const *) args);
  gtk_window_close (GTK_WINDOW (self));
}

static void
seismo_record_dialog_dispose (GObject *object)
{
  SeismoRecordDialog *self = SEISMO_RECORD_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  /* The events tree calls back into this dialog: gone before the dialog's fields. */
  if (self->events_view != NULL)
    gtk_list_view_set_model (self->events_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEISMO_TYPE_RECORD_DIALOG);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->events);
  g_clear_object (&self->groups);
  g_clear_pointer (&self->group_lines, g_hash_table_unref);
  g_clear_object (&self->processes);
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_pointer (&self->backends, g_ptr_array_unref);
  G_OBJECT_CLASS (seismo_record_dialog_parent_class)->dispose (object);
}

static void
seismo_record_dialog_class_init (SeismoRecordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = seismo_record_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/seismo/Seismo/seismo-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, backend_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, command_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, pid_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, pid_button);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, pid_popover);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, pid_search);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, pid_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, children_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, children_switch);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, events_search);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, events_view);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, events_status);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, extra_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, probes_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, aggregate_row);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, aggregate_switch);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, duration_spin);
  gtk_widget_class_bind_template_child (widget_class, SeismoRecordDialog, buffer_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_backend_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_target_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_pid_popover_show);
  gtk_widget_class_bind_template_callback (widget_class, on_pid_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_event_item_setup);
  gtk_widget_class_bind_template_callback (widget_class, on_event_item_bind);
  gtk_widget_class_bind_template_callback (widget_class, on_event_item_unbind);

  gtk_widget_class_install_action (widget_class, "record.start", NULL, action_start);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static GtkFilter *
string_filter_for (GtkSearchEntry *entry)
{
  GtkStringFilter *filter = gtk_string_filter_new (gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL,
                                                                                "string"));

  gtk_string_filter_set_match_mode (filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (filter, TRUE);
  g_object_bind_property (entry, "text", filter, "search", G_BINDING_SYNC_CREATE);
  return GTK_FILTER (filter);
}

static void
seismo_record_dialog_init (SeismoRecordDialog *self)
{
  const SeismoBackend *const *backends;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = 0, first_available = G_MAXUINT;
  GtkFilterListModel *filtered;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->selected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->events = gtk_string_list_new (NULL);
  self->groups = gtk_string_list_new (NULL);
  self->group_lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->processes = gtk_string_list_new (NULL);

  self->backends = g_ptr_array_new ();
  backends = seismo_backends_get (&n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *why = NULL;

      g_ptr_array_add (self->backends, (gpointer) backends[i]);
      gtk_string_list_append (names, backends[i]->name);
      if (first_available == G_MAXUINT && backends[i]->available (&why))
        first_available = i;
    }
  adw_combo_row_set_model (self->backend_row, G_LIST_MODEL (names));

  {
    GtkTreeListModel *tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->groups)), FALSE,
                                                      FALSE, create_event_children, self, NULL);

    gtk_list_view_set_model (self->events_view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (tree))));
    g_signal_connect_swapped (self->events_search, "search-changed", G_CALLBACK (on_events_search_changed), self);
  }
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->processes)),
                                        string_filter_for (self->pid_search));
  gtk_list_view_set_model (self->pid_view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (filtered))));

  if (first_available != G_MAXUINT)
    adw_combo_row_set_selected (self->backend_row, first_available);
  on_backend_changed (self);
  on_target_changed (self);
}

/**
 * seismo_record_dialog_new:
 * @parent: the window that asked
 *
 * Returns: (transfer none): a new dialog, transient for @parent
 */
GtkWindow *
seismo_record_dialog_new (SeismoWindow *parent)
{
  SeismoRecordDialog *self = g_object_new (SEISMO_TYPE_RECORD_DIALOG, "transient-for", parent,
                                             "destroy-with-parent", TRUE, NULL);

  self->parent = parent;
  restore_choices (self);
  return GTK_WINDOW (self);
}

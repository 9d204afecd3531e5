/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-explain"

#include <string.h>

#include "seismo-explain.h"
#include "seismo-explain-resources.h"
#include "seismo-syscalls.h"

#define RESOURCE_DIR "/org/seismo/explain/"
#define MAN7_URL     "https://man7.org/linux/man-pages/"

typedef struct {
  GKeyFile *syscalls;
  GKeyFile *tracepoints;
  GKeyFile *errnos;
  GKeyFile *states;
} ExplainData;

G_DEFINE_BOXED_TYPE (SeismoExplanation, seismo_explanation,
                     seismo_explanation_copy, seismo_explanation_free)

static GKeyFile *
load_key_file (const char *name)
{
  g_autofree char *path = g_strconcat (RESOURCE_DIR, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GKeyFile *kf = g_key_file_new ();

  /* The files are compiled into this library, so failing here is a build mistake. */
  bytes = g_resource_lookup_data (seismo_explain_data_get_resource (), path,
                                  G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL || !g_key_file_load_from_bytes (kf, bytes, G_KEY_FILE_NONE, &error))
    g_critical ("Could not load the explanation data %s: %s", path, error->message);
  return kf;
}

/* Loaded once and kept for the life of the process: the tables are small and read-only. */
static const ExplainData *
get_data (void)
{
  static gsize once;
  static ExplainData data;

  if (g_once_init_enter (&once))
    {
      /* Registered by hand: a constructor in a static library is dropped by the linker. */
      seismo_explain_data_register_resource ();
      data.syscalls = load_key_file ("syscalls.ini");
      data.tracepoints = load_key_file ("tracepoints.ini");
      data.errnos = load_key_file ("errno.ini");
      data.states = load_key_file ("sched-states.ini");
      g_once_init_leave (&once, 1);
    }
  return &data;
}

/* A text in the user's language: a KEY[LANG]= of the file when it has one, else the translation
 * from the seismo-explain catalogs (po/explain), else the English. */
static char *
get_text (GKeyFile   *kf,
          const char *group,
          const char *key)
{
  g_autofree char *plain = g_key_file_get_string (kf, group, key, NULL);
  char *local = g_key_file_get_locale_string (kf, group, key, NULL, NULL);

  if (plain == NULL || local == NULL || !g_str_equal (plain, local))
    return local;
  g_free (local);
  return g_strdup (g_dgettext (SEISMO_EXPLAIN_DOMAIN, plain));
}

/* "open(2)" → the man7.org page of that name; NULL when the reference is malformed. */
static char *
man_web_url (const char *page)
{
  const char *paren = strchr (page, '(');
  g_autofree char *name = NULL;
  g_autofree char *section = NULL;

  if (paren == NULL || paren == page || !g_str_has_suffix (paren, ")") || strlen (paren) < 3)
    return NULL;
  name = g_strndup (page, paren - page);
  section = g_strndup (paren + 1, strlen (paren) - 2);
  return g_strdup_printf (MAN7_URL "man%c/%s.%s.html", section[0], name, section);
}

static void
set_man (SeismoExplanation *e,
         const char        *man,
         const char        *page)
{
  if (man == NULL || *man == '\0')
    return;
  e->man_page = g_strdup (man);
  e->man_uri = g_strconcat ("man:", man, NULL);
  e->web_url = man_web_url (page && *page ? page : man);
}

/* "const char * filename" → type "const char *", name "filename". */
static void
parse_declaration (const char        *decl,
                   SeismoExplainItem *item)
{
  const char *space = strrchr (decl, ' ');

  if (space == NULL)
    {
      item->name = g_strdup (decl);
      return;
    }
  item->name = g_strdup (space + 1);
  item->type = g_strndup (decl, space - decl);
}

static void
set_items_from_declarations (SeismoExplanation *e,
                             GKeyFile          *kf,
                             const char        *group,
                             const char        *key)
{
  gsize n = 0;
  g_auto(GStrv) decls = g_key_file_get_string_list (kf, group, key, &n, NULL);

  if (decls == NULL || n == 0)
    return;
  e->items = g_new0 (SeismoExplainItem, n);
  e->n_items = n;
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *about_key = NULL;

      parse_declaration (decls[i], &e->items[i]);
      about_key = g_strconcat ("about.", e->items[i].name, NULL);
      e->items[i].description = get_text (kf, group, about_key);
    }
}

static SeismoExplanation *
explanation_new (SeismoExplainKind kind)
{
  SeismoExplanation *e = g_new0 (SeismoExplanation, 1);

  e->kind = kind;
  return e;
}

SeismoExplanation *
seismo_explanation_copy (const SeismoExplanation *self)
{
  SeismoExplanation *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = explanation_new (self->kind);
  copy->title = g_strdup (self->title);
  copy->summary = g_strdup (self->summary);
  copy->description = g_strdup (self->description);
  copy->note = g_strdup (self->note);
  copy->man_page = g_strdup (self->man_page);
  copy->man_uri = g_strdup (self->man_uri);
  copy->web_url = g_strdup (self->web_url);
  copy->n_items = self->n_items;
  copy->items = g_new0 (SeismoExplainItem, self->n_items);
  for (guint i = 0; i < self->n_items; i++)
    {
      copy->items[i].name = g_strdup (self->items[i].name);
      copy->items[i].type = g_strdup (self->items[i].type);
      copy->items[i].description = g_strdup (self->items[i].description);
    }
  return copy;
}

void
seismo_explanation_free (SeismoExplanation *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_items; i++)
    {
      g_free (self->items[i].name);
      g_free (self->items[i].type);
      g_free (self->items[i].description);
    }
  g_free (self->items);
  g_free (self->title);
  g_free (self->summary);
  g_free (self->description);
  g_free (self->note);
  g_free (self->man_page);
  g_free (self->man_uri);
  g_free (self->web_url);
  g_free (self);
}

/* ---- syscalls ---- */

/* "Classes: %file %desc", from the syscall catalogue: what `record -e %CLASS` selects. */
static void
add_classes (SeismoExplanation *e,
             const char        *name)
{
  static const char *const classes[] = {
    "file", "desc", "process", "network", "signal", "ipc", "memory", "creds", "clock",
  };
  guint32 bits = seismo_syscall_classes (name);
  g_autoptr(GString) text = NULL;

  if (bits == 0)
    return;
  text = g_string_new (e->note);
  g_string_append_printf (text, "%sClasses:", e->note ? "\n" : "");
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (bits & seismo_syscall_class_from_name (classes[i]))
      g_string_append_printf (text, " %%%s", classes[i]);
  g_string_append (text, " (seismo-cli record -e %CLASS selects them).");
  g_free (e->note);
  e->note = g_string_free (g_steal_pointer (&text), FALSE);
}

/* A syscall of some architecture with no written explanation: what the catalogue knows. */
static SeismoExplanation *
explain_from_catalogue (const char *name)
{
  const SeismoSyscallInfo *info = seismo_syscall_info (name);
  SeismoExplanation *e;

  if (info == NULL)
    return NULL;
  e = explanation_new (SEISMO_EXPLAIN_SYSCALL);
  e->title = g_strconcat (name, "()", NULL);
  e->summary = info->canonical && strcmp (info->canonical, name) != 0
               ? g_strdup_printf ("The %s system call (the arguments of %s)", name, info->canonical)
               : g_strdup_printf ("The %s system call", name);
  e->n_items = info->args_known ? info->n_args : 0;
  e->items = g_new0 (SeismoExplainItem, MAX (e->n_items, 1));
  for (guint i = 0; i < e->n_items; i++)
    {
      e->items[i].name = g_strdup (info->args[i].name);
      e->items[i].type = g_strdup (info->args[i].ctype);
    }
  add_classes (e, name);
  return e;
}

SeismoExplanation *
seismo_explain_syscall (const char *name)
{
  GKeyFile *kf = get_data ()->syscalls;
  g_autofree char *alias = NULL;
  g_autofree char *man = NULL;
  g_autofree char *page = NULL;
  SeismoExplanation *e;

  g_return_val_if_fail (name != NULL, NULL);

  if (!g_key_file_has_group (kf, name))
    return explain_from_catalogue (name);
  /* Tracepoints named after the kernel function (newstat) point at the table's name (stat). */
  alias = g_key_file_get_string (kf, name, "alias", NULL);
  if (alias != NULL)
    return g_key_file_has_group (kf, alias) && !g_key_file_has_key (kf, alias, "alias", NULL)
             ? seismo_explain_syscall (alias) : NULL;

  e = explanation_new (SEISMO_EXPLAIN_SYSCALL);
  man = g_key_file_get_string (kf, name, "man", NULL);
  page = g_key_file_get_string (kf, name, "page", NULL);
  e->title = man ? g_strdup (man) : g_strconcat (name, "()", NULL);
  e->summary = get_text (kf, name, "summary");
  if (e->summary == NULL)
    e->summary = g_strdup_printf (_("The %s system call"), name);
  e->description = get_text (kf, name, "description");
  e->note = get_text (kf, name, "note");
  set_items_from_declarations (e, kf, name, "args");
  set_man (e, man, page);
  add_classes (e, name);
  return e;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
seismo_explain_list_syscalls (void)
{
  GKeyFile *kf = get_data ()->syscalls;
  g_auto(GStrv) groups = g_key_file_get_groups (kf, NULL);
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; groups[i]; i++)
    if (!g_key_file_has_key (kf, groups[i], "alias", NULL))
      g_ptr_array_add (names, (gpointer) g_intern_string (groups[i]));
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* ---- tracepoints ---- */

static SeismoExplanation *
explain_syscall_tracepoint (const char *name,
                            gboolean    enter)
{
  SeismoExplanation *e = seismo_explain_syscall (name);
  g_autofree char *summary = NULL;

  if (e == NULL)
    return NULL;
  e->kind = SEISMO_EXPLAIN_EVENT;
  g_free (e->title);
  e->title = g_strdup_printf ("syscalls:sys_%s_%s", enter ? "enter" : "exit", name);
  summary = e->summary;
  e->summary = g_strdup_printf (enter ? "Entry to %s(): %s" : "Return from %s(): %s", name,
                                summary);
  if (!enter)
    {
      /* The exit tracepoint carries the result only; the arguments belong to the entry. */
      for (guint i = 0; i < e->n_items; i++)
        {
          g_free (e->items[i].name);
          g_free (e->items[i].type);
          g_free (e->items[i].description);
        }
      e->items = g_renew (SeismoExplainItem, e->items, 1);
      e->n_items = 1;
      e->items[0].name = g_strdup ("ret");
      e->items[0].type = g_strdup ("long");
      e->items[0].description = g_strdup (_("Result of the call; -4095..-1 is an error (-errno)"));
    }
  return e;
}

SeismoExplanation *
seismo_explain_event (const char *system,
                      const char *name)
{
  GKeyFile *kf = get_data ()->tracepoints;
  g_autofree char *group = NULL;
  g_autofree char *man = NULL;
  SeismoExplanation *e;

  g_return_val_if_fail (system != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (strcmp (system, "syscalls") == 0)
    {
      if (g_str_has_prefix (name, "sys_enter_"))
        return explain_syscall_tracepoint (name + strlen ("sys_enter_"), TRUE);
      if (g_str_has_prefix (name, "sys_exit_"))
        return explain_syscall_tracepoint (name + strlen ("sys_exit_"), FALSE);
    }

  group = g_strconcat (system, ":", name, NULL);
  e = explanation_new (SEISMO_EXPLAIN_EVENT);
  if (g_key_file_has_group (kf, group))
    {
      e->title = g_strdup (group);
      e->summary = get_text (kf, group, "summary");
      e->description = get_text (kf, group, "description");
      set_items_from_declarations (e, kf, group, "fields");
      man = g_key_file_get_string (kf, group, "man", NULL);
      set_man (e, man, NULL);
    }
  else if (g_key_file_has_group (kf, system))
    {
      e->title = g_steal_pointer (&group);
      e->summary = get_text (kf, system, "summary");
    }
  if (e->summary == NULL)
    {
      seismo_explanation_free (e);
      return NULL;
    }
  return e;
}

/* ---- errno ---- */

/* Kernel-internal codes (512 and up) have no uapi name; the data file numbers them. */
static const char *
errno_name (GKeyFile *kf,
            int       n)
{
  const char *name = seismo_errno_name (n);
  g_auto(GStrv) groups = NULL;

  if (name != NULL)
    return name;
  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i]; i++)
    if (g_key_file_get_integer (kf, groups[i], "number", NULL) == n)
      return g_intern_string (groups[i]);
  return NULL;
}

SeismoExplanation *
seismo_explain_errno (int errnum)
{
  GKeyFile *kf = get_data ()->errnos;
  int n = ABS (errnum);
  const char *name;
  g_autofree char *hint = NULL;
  SeismoExplanation *e;

  if (n == 0 || (name = errno_name (kf, n)) == NULL)
    return NULL;

  hint = get_text (kf, name, "hint");
  e = explanation_new (SEISMO_EXPLAIN_ERRNO);
  e->title = g_strdup_printf ("%s (%d)", name, n);
  /* The C library's message, in the user's language; it knows nothing of the kernel's own. */
  if (n < 512)
    {
      e->summary = g_strdup (g_strerror (n));
      e->description = g_steal_pointer (&hint);
    }
  else
    e->summary = hint ? g_steal_pointer (&hint) : g_strdup (_("Kernel-internal error code"));
  set_man (e, "errno(3)", NULL);
  return e;
}

/* ---- scheduler states ---- */

/* Every letter sched-states.ini explains; '|' separates them as the kernel prints them. */
#define STATE_LETTERS "|RSDTtXZPI+KWNx"

SeismoExplanation *
seismo_explain_sched_state (const char *letters)
{
  GKeyFile *kf = get_data ()->states;
  g_autoptr(GArray) items = g_array_new (FALSE, TRUE, sizeof (SeismoExplainItem));
  g_autoptr(GString) names = g_string_new (NULL);
  SeismoExplanation *e;

  g_return_val_if_fail (letters != NULL, NULL);

  if (letters[strspn (letters, "|")] == '\0' || letters[strspn (letters, STATE_LETTERS)] != '\0')
    return NULL;
  for (const char *p = letters; *p; p++)
    {
      char group[2] = { *p, 0 };
      SeismoExplainItem item = { 0 };
      g_autofree char *name = NULL;
      g_autofree char *summary = NULL;

      if (*p == '|')
        continue;
      name = get_text (kf, group, "name");
      summary = get_text (kf, group, "summary");
      item.name = g_strdup (group);
      item.description = g_strdup_printf ("%s: %s", name, summary);
      g_array_append_val (items, item);
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", name);
    }
  e = explanation_new (SEISMO_EXPLAIN_SCHED_STATE);
  e->title = g_strdup (letters);
  e->summary = g_string_free (g_steal_pointer (&names), FALSE);
  if (items->len == 1)
    {
      char group[2] = { g_array_index (items, SeismoExplainItem, 0).name[0], 0 };

      e->description = get_text (kf, group, "summary");
    }
  e->n_items = items->len;
  e->items = (SeismoExplainItem *) (void *) g_array_free (g_steal_pointer (&items), FALSE);
  /* ps(1)'s PROCESS STATE CODES lists the same letters. */
  set_man (e, "ps(1)", NULL);
  return e;
}

/* ---- one event of a trace ---- */

static void
add (GPtrArray         *out,
     SeismoExplanation *e)
{
  if (e != NULL)
    g_ptr_array_add (out, e);
}

GPtrArray *
seismo_explain_trace_event (SeismoTrace   *trace,
                            SeismoEventId  event)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) seismo_explanation_free);
  const SeismoEventType *type;
  SeismoValue v;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), out);
  g_return_val_if_fail (event < seismo_trace_get_n_events (trace), out);

  type = seismo_trace_event_type (trace, event);
  switch (type->kind)
    {
    case SEISMO_KIND_SYSCALL_ENTER:
    case SEISMO_KIND_SYSCALL_EXIT:
      if (type->syscall != NULL)
        {
          add (out, seismo_explain_event (type->system, type->name));
          /* An exit only carries the result: the call itself, with its arguments, follows. */
          if (type->kind == SEISMO_KIND_SYSCALL_EXIT)
            add (out, seismo_explain_syscall (type->syscall));
        }
      else
        {
          if (type->roles[SEISMO_ROLE_ID] >= 0
              && seismo_trace_event_field (trace, event, type->roles[SEISMO_ROLE_ID], &v))
            {
              const char *arch_name = seismo_trace_get_metadata (trace, SEISMO_META_ARCH);
              SeismoArch arch = seismo_arch_from_string (arch_name);
              const char *name = seismo_syscall_name (arch, (gint64) v.u);

              if (name != NULL)
                add (out, seismo_explain_syscall (name));
            }
          add (out, seismo_explain_event (type->system, type->name));
        }
      if (type->kind == SEISMO_KIND_SYSCALL_EXIT && type->roles[SEISMO_ROLE_RET] >= 0
          && seismo_trace_event_field (trace, event, type->roles[SEISMO_ROLE_RET], &v)
          && v.type == SEISMO_FIELD_INT && v.i < 0 && v.i >= -4095)
        add (out, seismo_explain_errno ((int) v.i));
      break;

    case SEISMO_KIND_SCHED_SWITCH:
      add (out, seismo_explain_event (type->system, type->name));
      if (type->roles[SEISMO_ROLE_PREV_STATE] >= 0
          && seismo_trace_event_field (trace, event, type->roles[SEISMO_ROLE_PREV_STATE], &v))
        {
          g_autoptr(GString) letters = g_string_new (NULL);

          seismo_trace_format_value (trace, &type->fields[type->roles[SEISMO_ROLE_PREV_STATE]],
                                     &v, letters);
          add (out, seismo_explain_sched_state (letters->str));
        }
      break;

    default:
      add (out, seismo_explain_event (type->system, type->name));
      break;
    }
  return out;
}

/* ---- text ---- */

char *
seismo_explanation_to_text (const SeismoExplanation *self)
{
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_string_new (NULL);
  g_string_append_printf (out, "%s — %s\n", self->title, self->summary);
  if (self->description)
    g_string_append_printf (out, "\n%s\n", self->description);
  if (self->note)
    g_string_append_printf (out, _("\nNote: %s\n"), self->note);
  if (self->n_items > 0)
    {
      static const char *const headings[] = {
        [SEISMO_EXPLAIN_SYSCALL] = N_("Arguments"),
        [SEISMO_EXPLAIN_EVENT] = N_("Fields"),
        [SEISMO_EXPLAIN_ERRNO] = N_("Details"),
        [SEISMO_EXPLAIN_SCHED_STATE] = N_("Letters"),
      };

      g_string_append_printf (out, "\n%s:\n", _(headings[self->kind]));
      for (guint i = 0; i < self->n_items; i++)
        {
          const SeismoExplainItem *item = &self->items[i];
          g_autofree char *decl = item->type
            ? g_strdup_printf ("%s%s%s", item->type, g_str_has_suffix (item->type, "*") ? "" : " ",
                               item->name)
            : g_strdup (item->name);

          if (item->description)
            g_string_append_printf (out, "  %-32s %s\n", decl, item->description);
          else
            g_string_append_printf (out, "  %s\n", decl);
        }
    }
  if (self->man_page)
    g_string_append_printf (out, _("\nMan page: %s  %s\n"), self->man_page,
                            self->web_url ? self->web_url : "");
  return g_string_free (out, FALSE);
}

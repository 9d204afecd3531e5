/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-filter"

#include <string.h>

#include "seismo-filter-private.h"
#include "seismo-syscalls.h"

/*
 * Completion for the filter bar: what may come at the cursor, from the tokens before it. Values are
 * the ones the trace has (task names, syscalls, event names, symbols of the field) and, for other
 * fields, those seen in the first events that carry the field, so completion stays fast on any
 * trace size.
 */

/* Bounds of the scan for values seen in a payload field. */
#define SCAN_EVENTS 200000
#define SCAN_VALUES 500
/* Candidates returned at most. */
#define MAX_CANDIDATES 500

void
seismo_filter_candidate_free (SeismoFilterCandidate *candidate)
{
  if (candidate == NULL)
    return;
  g_free (candidate->text);
  g_free (candidate->detail);
  g_free (candidate);
}

typedef struct {
  GPtrArray  *out;
  GHashTable *seen;
  const char *prefix;
  gboolean    quote;   /* the user opened a quote: every value goes in quotes */
} Collect;

static void
add (Collect                   *c,
     SeismoFilterCandidateKind  kind,
     const char                *text,
     const char                *match_name,
     const char                *detail)
{
  SeismoFilterCandidate *cand;
  gsize plen = strlen (c->prefix);

  if (c->out->len >= MAX_CANDIDATES)
    return;
  if (g_ascii_strncasecmp (text, c->prefix, plen) != 0 &&
      (match_name == NULL || g_ascii_strncasecmp (match_name, c->prefix, plen) != 0))
    return;
  if (!g_hash_table_add (c->seen, g_strdup (text)))
    return;
  cand = g_new0 (SeismoFilterCandidate, 1);
  cand->kind = kind;
  if (kind == SEISMO_FILTER_CANDIDATE_VALUE && (c->quote || !_seismo_filter_is_word (text)))
    {
      GString *q = g_string_new ("\"");

      for (const char *p = text; *p; p++)
        {
          if (*p == '"' || *p == '\\')
            g_string_append_c (q, '\\');
          g_string_append_c (q, *p);
        }
      g_string_append_c (q, '"');
      cand->text = g_string_free (q, FALSE);
    }
  else
    cand->text = g_strdup (text);
  cand->detail = g_strdup (detail);
  g_ptr_array_add (c->out, cand);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
add_conditions (Collect     *c,
                SeismoTrace *trace)
{
  guint n_builtins, n_types = seismo_trace_get_n_event_types (trace);
  const FilterBuiltin *builtins = _seismo_filter_builtins (&n_builtins);
  const guint64 *counts = seismo_trace_get_type_counts (trace);
  g_autoptr(GHashTable) fields = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                       (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) systems = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n_builtins; i++)
    add (c, SEISMO_FILTER_CANDIDATE_FIELD, builtins[i].name, NULL, _(builtins[i].detail));

  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, t);

      for (guint f = 0; f < type->n_fields; f++)
        {
          GPtrArray *in = g_hash_table_lookup (fields, type->fields[f].name);

          if (in == NULL)
            {
              in = g_ptr_array_new ();
              g_hash_table_insert (fields, type->fields[f].name, in);
              g_ptr_array_add (names, type->fields[f].name);
            }
          g_ptr_array_add (in, (gpointer) type);
        }
    }
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      GPtrArray *in = g_hash_table_lookup (fields, name);
      const SeismoEventType *first = g_ptr_array_index (in, 0);
      g_autofree char *detail = NULL;
      int idx = seismo_event_type_find_field (first, name);

      detail = g_strdup_printf (_("%s field of %s%s"),
                                seismo_field_type_to_string (first->fields[idx].type),
                                first->full_name, in->len > 1 ? " and others" : "");
      add (c, SEISMO_FILTER_CANDIDATE_FIELD, name, NULL, detail);
    }

  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, t);
      g_autofree char *detail = g_strdup_printf ("%" G_GUINT64_FORMAT " events", counts[t]);

      add (c, SEISMO_FILTER_CANDIDATE_EVENT, type->full_name, type->name, detail);
      if (g_hash_table_add (systems, type->system))
        {
          g_autofree char *glob = g_strconcat (type->system, ":*", NULL);
          g_autofree char *sdetail = g_strdup_printf ("every %s event", type->system);

          add (c, SEISMO_FILTER_CANDIDATE_EVENT, glob, NULL, sdetail);
        }
    }
}

static void
add_sorted_values (Collect    *c,
                   GHashTable *set,
                   const char *detail)
{
  g_autofree gpointer *keys = NULL;
  guint n;

  keys = g_hash_table_get_keys_as_array (set, &n);
  qsort (keys, n, sizeof (gpointer), compare_strings);
  for (guint i = 0; i < n; i++)
    add (c, SEISMO_FILTER_CANDIDATE_VALUE, keys[i], NULL, detail);
}

/* The names of the trace's ABI, with its numbers (mips and powerpc differ). */
static void
add_errno_names (Collect     *c,
                 gboolean     negative,
                 SeismoTrace *trace)
{
  SeismoArch arch = trace ? seismo_trace_get_errno_arch (trace) : SEISMO_ARCH_UNKNOWN;

  for (int e = 1; e < 4096; e++)
    {
      const char *name = seismo_errno_name_for_arch (arch, e);
      const char *message = seismo_errno_message (arch, e);
      g_autofree char *text = NULL;
      g_autofree char *detail = NULL;

      if (name == NULL)
        continue;
      text = negative ? g_strconcat ("-", name, NULL) : g_strdup (name);
      detail = g_strdup_printf ("%s%d: %s", negative ? "-" : "", e, message ? message : name);
      add (c, SEISMO_FILTER_CANDIDATE_VALUE, text, name, detail);
    }
}

/* Values a payload field has in the first events that carry it. */
static void
add_seen_values (Collect     *c,
                 SeismoTrace *trace,
                 const char  *name,
                 const char  *type_prefix)
{
  guint n_types = seismo_trace_get_n_event_types (trace);
  g_autofree int *idx = g_new (int, MAX (n_types, 1));
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gsize n = seismo_trace_get_n_events (trace), scanned = 0;
  const guint16 *types = seismo_trace_get_types (trace);
  gboolean any = FALSE;
  g_autoptr(GPatternSpec) type_glob = type_prefix ? g_pattern_spec_new (type_prefix) : NULL;

  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, t);
      const SeismoField *field;

      idx[t] = -1;
      if (type_glob && !g_pattern_spec_match_string (type_glob, type->full_name) &&
          !g_pattern_spec_match_string (type_glob, type->name))
        continue;
      if ((idx[t] = seismo_event_type_find_field (type, name)) < 0)
        continue;
      field = &type->fields[idx[t]];
      switch (field->display)
        {
        case SEISMO_DISPLAY_SCHED_STATE:
          {
            static const char *const states[] = {
              "R", "S", "D", "T", "t", "X", "Z", "P", "I", "R+",
            };
            static const char *const details[] = {
              N_("running or runnable"), N_("sleeping"), N_("uninterruptible"), N_("stopped"),
              N_("traced"), N_("dead"), N_("zombie"), N_("parked"), N_("idle"),
              N_("preempted while running"),
            };

            for (guint s = 0; s < G_N_ELEMENTS (states); s++)
              add (c, SEISMO_FILTER_CANDIDATE_VALUE, states[s], NULL, _(details[s]));
            idx[t] = -1;
            break;
          }
        case SEISMO_DISPLAY_SYMBOL:
        case SEISMO_DISPLAY_FLAGS:
          for (guint s = 0; s < field->n_symbols; s++)
            {
              g_autofree char *detail = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x",
                                                         field->symbols[s].value);

              add (c, SEISMO_FILTER_CANDIDATE_VALUE, field->symbols[s].name, NULL, detail);
            }
          idx[t] = -1;
          break;
        case SEISMO_DISPLAY_ERRNO:
          add_errno_names (c, TRUE, trace);
          idx[t] = -1;
          break;
        case SEISMO_DISPLAY_SIGNAL:
          for (int s = 1; s < 65; s++)
            if (seismo_signal_name (s))
              add (c, SEISMO_FILTER_CANDIDATE_VALUE, seismo_signal_name (s), NULL, NULL);
          idx[t] = -1;
          break;
        case SEISMO_DISPLAY_SYSCALL:
          for (guint s = 0; s < seismo_trace_get_n_syscall_names (trace); s++)
            add (c, SEISMO_FILTER_CANDIDATE_VALUE, seismo_trace_get_syscall_name (trace, s), NULL,
                 "syscall");
          idx[t] = -1;
          break;
        case SEISMO_DISPLAY_DEFAULT:
        case SEISMO_DISPLAY_HEX:
        case SEISMO_DISPLAY_FD:
        case SEISMO_DISPLAY_N:
        default:
          any |= field->type == SEISMO_FIELD_STRING || field->type == SEISMO_FIELD_INT ||
                 field->type == SEISMO_FIELD_UINT || field->type == SEISMO_FIELD_POINTER;
          break;
        }
    }

  for (gsize i = 0;
       any && i < n && scanned < SCAN_EVENTS && g_hash_table_size (values) < SCAN_VALUES;
       i++)
    {
      SeismoValue v;

      if (idx[types[i]] < 0)
        continue;
      scanned++;
      if (!seismo_trace_event_field (trace, (SeismoEventId) i, idx[types[i]], &v))
        continue;
      switch (v.type)
        {
        case SEISMO_FIELD_STRING:
          g_hash_table_add (values, g_strdup (v.str));
          break;
        case SEISMO_FIELD_INT:
          g_hash_table_add (values, g_strdup_printf ("%" G_GINT64_FORMAT, v.i));
          break;
        case SEISMO_FIELD_UINT:
        case SEISMO_FIELD_POINTER:
          g_hash_table_add (values, g_strdup_printf (v.type == SEISMO_FIELD_POINTER
                                                     ? "0x%" G_GINT64_MODIFIER "x"
                                                     : "%" G_GUINT64_FORMAT, v.u));
          break;
        case SEISMO_FIELD_BYTES:
        case SEISMO_FIELD_UINT_ARRAY:
        case SEISMO_FIELD_N_TYPES:
        default:
          break;
        }
    }
  add_sorted_values (c, values, _("seen in the trace"));
}

static void
add_values (Collect     *c,
            SeismoTrace *trace,
            const char  *field,
            FilterOp     op)
{
  g_autoptr(GHashTable) set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *dot = strrchr (field, '.');

  if (dot)
    {
      g_autofree char *prefix = g_strndup (field, dot - field);

      add_seen_values (c, trace, dot + 1, prefix);
      return;
    }
  if (strcmp (field, "event") == 0)
    {
      guint n_types = seismo_trace_get_n_event_types (trace);

      for (guint t = 0; t < n_types; t++)
        {
          const SeismoEventType *type = seismo_trace_get_event_type (trace, t);

          add (c, SEISMO_FILTER_CANDIDATE_EVENT, type->full_name, type->name, NULL);
          if (op == FILTER_OP_GLOB)
            {
              g_autofree char *glob = g_strconcat (type->system, ":*", NULL);

              add (c, SEISMO_FILTER_CANDIDATE_EVENT, glob, NULL, NULL);
            }
        }
    }
  else if (strcmp (field, "syscall") == 0)
    {
      for (guint s = 0; s < seismo_trace_get_n_syscall_names (trace); s++)
        g_hash_table_add (set, g_strdup (seismo_trace_get_syscall_name (trace, s)));
      add_sorted_values (c, set, _("syscall in the trace"));
    }
  else if (strcmp (field, "errno") == 0 || strcmp (field, "ret") == 0)
    add_errno_names (c, strcmp (field, "ret") == 0, trace);
  else if (strcmp (field, "comm") == 0)
    {
      guint n_changes;
      const SeismoCommChange *changes = seismo_trace_get_comm_changes (trace, &n_changes);

      for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
        {
          const SeismoTask *task = seismo_trace_get_task (trace, t);

          g_hash_table_add (set, g_strdup (seismo_trace_get_string (trace, task->comm)));
        }
      for (guint k = 0; k < n_changes; k++)
        g_hash_table_add (set, g_strdup (seismo_trace_get_string (trace, changes[k].comm)));
      g_hash_table_remove (set, "");
      add_sorted_values (c, set, _("task name"));
    }
  else if (strcmp (field, "pid") == 0 || strcmp (field, "tid") == 0)
    {
      gboolean pid = strcmp (field, "pid") == 0;
      guint n_tasks = seismo_trace_get_n_tasks (trace);

      for (guint t = 0; t < n_tasks; t++)
        {
          const SeismoTask *task = seismo_trace_get_task (trace, t);
          g_autofree char *text = g_strdup_printf ("%d", pid ? task->pid : task->tid);

          add (c, SEISMO_FILTER_CANDIDATE_VALUE, text, NULL,
               seismo_trace_get_string (trace, task->comm));
        }
    }
  else if (strcmp (field, "cpu") == 0)
    {
      for (guint cpu = 0; cpu < seismo_trace_get_n_cpus (trace); cpu++)
        {
          g_autofree char *text = g_strdup_printf ("%u", cpu);

          add (c, SEISMO_FILTER_CANDIDATE_VALUE, text, NULL, NULL);
        }
    }
  else if (strcmp (field, "time") != 0 && strcmp (field, "duration") != 0)
    add_seen_values (c, trace, field, NULL);
}

static void
add_operators (Collect  *c,
               gboolean  comparisons)
{
  static const struct {
    const char *op;
    const char *detail;
  } cmp[] = {
    { "==", N_("equal") }, { "!=", N_("not equal") }, { "<", N_("less") },
    { "<=", N_("less or equal") }, { ">", N_("greater") }, { ">=", N_("greater or equal") },
    { "~", N_("matches a glob: \"k*\"") }, { "=~", N_("matches a regular expression") },
  };

  if (comparisons)
    for (guint i = 0; i < G_N_ELEMENTS (cmp); i++)
      add (c, SEISMO_FILTER_CANDIDATE_OPERATOR, cmp[i].op, NULL, _(cmp[i].detail));
  add (c, SEISMO_FILTER_CANDIDATE_OPERATOR, "&&", NULL, _("and"));
  add (c, SEISMO_FILTER_CANDIDATE_OPERATOR, "||", NULL, _("or"));
}

GPtrArray *
seismo_filter_complete (SeismoTrace *trace,
                        const char  *text,
                        gsize        cursor,
                        gsize       *replace_start,
                        gsize       *replace_end)
{
  g_autofree char *before = NULL;
  g_autoptr(GArray) toks = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Collect c = { 0 };
  const FilterTok *partial = NULL, *prev = NULL, *prev2 = NULL;
  guint n;
  g_autofree char *prefix = NULL;
  gsize end = cursor;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  cursor = MIN (cursor, strlen (text));
  before = g_strndup (text, cursor);
  toks = _seismo_filter_lex (before);
  n = toks->len - 1;
  c.out = g_ptr_array_new_with_free_func ((GDestroyNotify) seismo_filter_candidate_free);
  c.seen = seen;

  if (n > 0)
    {
      const FilterTok *last = &g_array_index (toks, FilterTok, n - 1);

      if (last->end == cursor &&
          (last->type == TOK_WORD || (last->type == TOK_BAD && (before[last->start] == '"' ||
                                                              before[last->start] == '\''))))
        {
          partial = last;
          n--;
        }
    }
  if (n > 0)
    prev = &g_array_index (toks, FilterTok, n - 1);
  if (n > 1)
    prev2 = &g_array_index (toks, FilterTok, n - 2);

  if (partial && partial->type == TOK_WORD)
    {
      prefix = g_strdup (partial->text);
      /* Replace the whole word under the cursor, also the part after it. */
      while (text[end] && !(text[end] == '|' && text[end + 1] == '|') &&
             strchr ("()!&=<>~\"' \t\n\r\f\v", text[end]) == NULL)
        end++;
    }
  else if (partial)
    {
      prefix = g_strdup (before + partial->start + 1);
      c.quote = TRUE;
    }
  else
    prefix = g_strdup ("");
  c.prefix = prefix;
  *replace_start = partial ? partial->start : cursor;
  *replace_end = end;

  if (prev == NULL || prev->type == TOK_LPAREN || prev->type == TOK_AND || prev->type == TOK_OR ||
      prev->type == TOK_NOT)
    {
      if (!c.quote)
        add_conditions (&c, trace);
    }
  else if (prev->type == TOK_CMP)
    {
      if (prev2 && prev2->type == TOK_WORD)
        add_values (&c, trace, prev2->text, prev->op);
    }
  else if (partial == NULL && (prev->type == TOK_WORD || prev->type == TOK_STRING ||
                               prev->type == TOK_RPAREN))
    {
      /* After a word that does not follow an operator: a field (or a bare event name). */
      gboolean field = prev->type == TOK_WORD && (prev2 == NULL || prev2->type != TOK_CMP);

      add_operators (&c, field);
    }
  return c.out;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-filter"

#include <string.h>

#include "seismo-filter-private.h"
#include "seismo-sched-state.h"
#include "seismo-syscalls.h"

/*
 * Name resolution: one comparison becomes one leaf. Built-in fields go to the column or table they
 * live in; payload fields are looked up in every event type once, with the value read the way the
 * field's display reads it (errno names, task states, symbols, flags), so the evaluator only
 * compares numbers or string ids.
 */

static const FilterBuiltin builtins[] = {
  { "time",     N_("time since the trace started: time > 1.5ms"), "1.5ms" },
  { "cpu",      N_("the CPU the event happened on"), "1" },
  { "pid",      N_("process id (thread group id) of the event's task"), "1234" },
  { "tid",      N_("thread id of the event's task"), "1234" },
  { "comm",     N_("name of the event's task at the time of the event"), "bash" },
  { "event",    N_("event name: event == sched_switch, event ~ \"sched:*\""), "sched_switch" },
  { "syscall",  N_("syscall of a syscall enter or exit event: syscall == openat"), "openat" },
  { "duration", N_("time from syscall enter to exit, on both events: duration > 10us"), "10us" },
  { "ret",      N_("syscall return value on enter and exit (else the event's ret field)"), "-ENOENT" },
  { "errno",    N_("error of a failed syscall (errno == ENOENT); 0 when it succeeded"), "ENOENT" },
  { "stack",    N_("a frame of the event's call stack: stack == do_sys_openat2, stack ~ \"ext4_*\""), "main" },
};

const FilterBuiltin *
_seismo_filter_builtins (guint *n_builtins)
{
  *n_builtins = G_N_ELEMENTS (builtins);
  return builtins;
}

static const char *const *
all_field_names (Parser *p,
                 guint  *n)
{
  if (p->field_names == NULL)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      guint n_types = seismo_trace_get_n_event_types (p->trace);

      p->field_names = g_ptr_array_new ();
      for (guint i = 0; i < G_N_ELEMENTS (builtins); i++)
        {
          g_ptr_array_add (p->field_names, (gpointer) builtins[i].name);
          g_hash_table_add (seen, (gpointer) builtins[i].name);
        }
      for (guint t = 0; t < n_types; t++)
        {
          const SeismoEventType *type = seismo_trace_get_event_type (p->trace, t);

          for (guint f = 0; f < type->n_fields; f++)
            if (g_hash_table_add (seen, type->fields[f].name))
              g_ptr_array_add (p->field_names, type->fields[f].name);
        }
    }
  *n = p->field_names->len;
  return (const char *const *) p->field_names->pdata;
}

static const FilterBuiltin *
find_builtin (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (builtins); i++)
    if (strcmp (builtins[i].name, name) == 0)
      return &builtins[i];
  return NULL;
}

static gboolean
is_field_name (Parser     *p,
               const char *name)
{
  guint n;
  const char *const *names = all_field_names (p, &n);

  for (guint i = 0; i < n; i++)
    if (strcmp (names[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* Event names and "system:*" globs, for suggestions. */
static GPtrArray *
event_names (SeismoTrace *trace)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) systems = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_types = seismo_trace_get_n_event_types (trace);

  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, t);

      g_ptr_array_add (names, g_strdup (type->full_name));
      if (g_hash_table_add (systems, type->system))
        g_ptr_array_add (names, g_strconcat (type->system, ":*", NULL));
    }
  return names;
}

static gboolean
event_pred_match (const StrPred         *pred,
                  const SeismoEventType *type)
{
  gboolean qualified = strchr (pred->text, ':') != NULL;

  switch (pred->op)
    {
    case FILTER_OP_GLOB:
      return _seismo_str_pred_match (pred, type->full_name) ||
             (!qualified && _seismo_str_pred_match (pred, type->name));
    case FILTER_OP_REGEX:
      return _seismo_str_pred_match (pred, type->full_name);
    case FILTER_OP_EQ:
    case FILTER_OP_NE:
    case FILTER_OP_LT:
    case FILTER_OP_LE:
    case FILTER_OP_GT:
    case FILTER_OP_GE:
    default:
      return _seismo_str_pred_match (pred, qualified ? type->full_name : type->name);
    }
}

/* Sets up pred for op and a value token; compiles globs and regexes. */
static gboolean
str_pred_init (Parser          *p,
               StrPred         *pred,
               FilterOp         op,
               const FilterTok *value)
{
  g_autoptr(GError) regex_error = NULL;

  pred->op = op;
  pred->text = g_strdup (value->text);
  if (op == FILTER_OP_GLOB)
    pred->glob = g_pattern_spec_new (value->text);
  else if (op == FILTER_OP_REGEX &&
           !(pred->regex = g_regex_new (value->text, G_REGEX_OPTIMIZE, 0, &regex_error)))
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_BAD_VALUE, value->start, value->end,
                                   _("this is not a valid regular expression: %s"),
                                   regex_error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
_seismo_filter_str_pred_init (Parser          *p,
                              StrPred         *pred,
                              FilterOp         op,
                              const FilterTok *value)
{
  return str_pred_init (p, pred, op, value);
}

static FilterNode *leaf_node (Parser *p, FilterLeaf *leaf);

FilterNode *
_seismo_filter_leaf_node (Parser     *p,
                          FilterLeaf *leaf)
{
  return leaf_node (p, leaf);
}

static FilterNode *
leaf_node (Parser     *p,
           FilterLeaf *leaf)
{
  FilterNode *node = g_new0 (FilterNode, 1);

  g_ptr_array_add (p->filter->leaves, leaf);
  node->kind = NODE_LEAF;
  node->leaf = leaf;
  return node;
}

/* Sets the summary flags of a TYPE leaf and folds it to a constant when it is one. */
static FilterNode *
finish_type_leaf (Parser     *p,
                  FilterLeaf *leaf)
{
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  gboolean any_true = FALSE, any_false = FALSE;

  leaf->kind = LEAF_TYPE;
  leaf->type_table = g_new0 (guint8, MAX (n_types, 1));
  leaf->table_only = TRUE;
  leaf->span_only = TRUE;
  for (guint t = 0; t < n_types; t++)
    {
      RuleMode mode = leaf->rules[t].mode;

      leaf->type_table[t] = mode == RULE_FALSE ? 0 : mode == RULE_TRUE ? 1 : 2;
      any_true |= mode == RULE_TRUE;
      any_false |= mode == RULE_FALSE;
      leaf->table_only &= mode == RULE_FALSE || mode == RULE_TRUE;
      leaf->span_only &= mode == RULE_FALSE || mode == RULE_SPAN;
      leaf->has_strings |= mode == RULE_STRING;
      leaf->has_span |= mode == RULE_SPAN;
    }
  if (leaf->table_only && !any_true)
    {
      _seismo_filter_leaf_free (leaf);
      return _seismo_filter_node_const (FALSE);
    }
  if (leaf->table_only && !any_false)
    {
      _seismo_filter_leaf_free (leaf);
      return _seismo_filter_node_const (TRUE);
    }
  return leaf_node (p, leaf);
}

/* The letters of sched_switch prev_state, as the trace formats them. */
static gboolean
lookup_symbol (const SeismoField *field,
               const char        *name,
               guint64           *value)
{
  for (guint s = 0; s < field->n_symbols; s++)
    if (strcmp (field->symbols[s].name, name) == 0)
      {
        *value = field->symbols[s].value;
        return TRUE;
      }
  for (guint s = 0; s < field->n_symbols; s++)
    if (g_ascii_strcasecmp (field->symbols[s].name, name) == 0)
      {
        *value = field->symbols[s].value;
        return TRUE;
      }
  return FALSE;
}

static GPtrArray *
errno_names (void)
{
  GPtrArray *names = g_ptr_array_new ();

  for (int e = 1; e < 4096; e++)
    {
      const char *name = seismo_errno_name (e);

      if (name)
        g_ptr_array_add (names, (gpointer) name);
    }
  return names;
}

static char *
errno_reason (const char *name)
{
  g_autoptr(GPtrArray) names = errno_names ();
  const char *s = _seismo_filter_suggest (name, (const char *const *) names->pdata, names->len);

  if (s)
    return g_strdup_printf (_("unknown error name '%s' — did you mean '%s'?"), name, s);
  return g_strdup_printf (_("unknown error name '%s' (names look like ENOENT, EAGAIN, EINTR)"), name);
}

typedef enum {
  CTX_ANY,     /* payload fields: any unit */
  CTX_TIME,    /* time, duration: time units or plain nanoseconds */
  CTX_PLAIN,   /* cpu, pid, tid, ret, errno: no unit */
} UnitContext;

/* Reads a value for a numeric field: a number (with a unit when ctx allows), or a name the
 * field's display knows (errno, signal, task state, syscall, symbol, flags, AT_FDCWD).
 * field is NULL for built-ins. FALSE with *why when the value does not fit. */
static gboolean
numeric_value (Parser            *p,
               const char        *field_name,
               const SeismoField *field,
               SeismoDisplay      display,
               UnitContext        ctx,
               const char        *text,
               Quantity          *q,
               char             **why)
{
  guint64 v;

  memset (q, 0, sizeof *q);
  if (_seismo_filter_is_numeric (text))
    {
      if (!_seismo_filter_quantity_parse (text, q, why))
        return FALSE;
      if (ctx == CTX_PLAIN && q->unit != UNIT_NONE)
        {
          *why = g_strdup_printf (_("%s takes a plain number, without the unit '%s'"), field_name,
                                  q->unit_name);
          return FALSE;
        }
      if (ctx == CTX_TIME && q->unit == UNIT_SIZE)
        {
          *why = g_strdup_printf (_("%s is a time: use ns, us, ms or s, not '%s'"), field_name,
                                  q->unit_name);
          return FALSE;
        }
      return TRUE;
    }

  switch (display)
    {
    case SEISMO_DISPLAY_ERRNO:
      {
        const char *name = text[0] == '-' ? text + 1 : text;
        int e = seismo_errno_from_name (name);

        if (e <= 0)
          {
            *why = errno_reason (name);
            return FALSE;
          }
        /* Return values hold -errno; errno itself (field == NULL) holds the positive number. */
        q->neg = field != NULL || strcmp (field_name, "errno") != 0;
        q->mag = e;
        return TRUE;
      }
    case SEISMO_DISPLAY_SIGNAL:
      {
        g_autofree char *full = g_str_has_prefix (text, "SIG") ? g_strdup (text)
                                                               : g_strconcat ("SIG", text, NULL);
        int s = seismo_signal_from_name (full);

        if (s <= 0)
          {
            *why = g_strdup_printf (_("unknown signal '%s' (names look like SIGSEGV or SEGV)"), text);
            return FALSE;
          }
        q->mag = s;
        return TRUE;
      }
    case SEISMO_DISPLAY_SCHED_STATE:
      if (!seismo_sched_state_parse (field ? field->symbols : NULL, field ? field->n_symbols : 0,
                                     text, strlen (text), &v))
        {
          g_autoptr(GString) letters = g_string_new ("R");
          guint n = field && field->n_symbols ? field->n_symbols : 0;
          const SeismoSymbol *syms = n ? field->symbols : seismo_sched_state_default (&n);

          for (guint s = 0; s < n; s++)
            if (strcmp (syms[s].name, "+") != 0)
              g_string_append_printf (letters, "%s%s", s + 2 < n ? ", " : " or ", syms[s].name);
          *why = g_strdup_printf (_("'%s' is not a task state: use %s (R+ for a preempted task)"),
                                  text, letters->str);
          return FALSE;
        }
      q->mag = v;
      return TRUE;
    case SEISMO_DISPLAY_SYSCALL:
      {
        gint64 nr = seismo_syscall_number (p->arch, text);

        if (nr < 0 && p->arch == SEISMO_ARCH_UNKNOWN)
          {
            *why = g_strdup_printf ("the trace's architecture is unknown, so '%s' has no number: "
                                    "use its number, or open the trace with --arch", text);
            return FALSE;
          }
        if (nr < 0)
          {
            *why = g_strdup_printf ("'%s' is not a %s syscall", text,
                                    seismo_arch_to_string (p->arch));
            return FALSE;
          }
        q->mag = nr;
        return TRUE;
      }
    case SEISMO_DISPLAY_FD:
      if (strcmp (text, "AT_FDCWD") == 0)
        {
          q->neg = TRUE;
          q->mag = 100;
          return TRUE;
        }
      break;
    case SEISMO_DISPLAY_SYMBOL:
      if (field && lookup_symbol (field, text, &v))
        {
          q->mag = v;
          return TRUE;
        }
      break;
    case SEISMO_DISPLAY_FLAGS:
      if (field)
        {
          g_auto(GStrv) parts = g_strsplit (text, "|", -1);
          guint64 bits = 0;
          gboolean ok = TRUE;

          for (guint i = 0; parts[i] && ok; i++)
            ok = lookup_symbol (field, parts[i], &v) && ((bits |= v), TRUE);
          if (ok)
            {
              q->mag = bits;
              return TRUE;
            }
        }
      break;
    case SEISMO_DISPLAY_DEFAULT:
    case SEISMO_DISPLAY_HEX:
    case SEISMO_DISPLAY_N:
    default:
      break;
    }

  if (field && field->n_symbols > 0)
    {
      g_autoptr(GString) list = g_string_new (NULL);

      for (guint s = 0; s < field->n_symbols && s < 8; s++)
        g_string_append_printf (list, "%s%s", s ? ", " : "", field->symbols[s].name);
      if (field->n_symbols > 8)
        g_string_append (list, ", …");
      *why = g_strdup_printf (_("%s takes a number or one of %s, not '%s'"), field_name, list->str,
                              text);
    }
  else if (is_field_name (p, text))
    *why = g_strdup_printf (_("%s takes a number, not '%s' (comparing two fields is not supported)"),
                            field_name, text);
  else
    *why = g_strdup_printf ("%s takes a number, not '%s'", field_name, text);
  return FALSE;
}

/* Which types a "TYPE." prefix or a bare event word names. */
static gboolean
type_matches_word (const SeismoEventType *type,
                   const StrPred         *pred)
{
  return event_pred_match (pred, type);
}

static void
word_pred (StrPred    *pred,
           const char *word)
{
  pred->text = g_strdup (word);
  if (_seismo_filter_has_glob (word))
    {
      pred->op = FILTER_OP_GLOB;
      pred->glob = g_pattern_spec_new (word);
    }
  else
    pred->op = FILTER_OP_EQ;
}

static void
unknown_event_error (Parser     *p,
                     const char *word,
                     gsize       start,
                     gsize       end)
{
  g_autoptr(GPtrArray) names = event_names (p->trace);
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  const char *s;
  guint n_plain = names->len;

  /* Suggest among short names too, so sched_swich finds sched_switch. */
  for (guint t = 0; t < n_types; t++)
    g_ptr_array_add (names, g_strdup (seismo_trace_get_event_type (p->trace, t)->name));
  s = _seismo_filter_suggest (word, (const char *const *) names->pdata, names->len);
  if (s)
    {
      /* Prefer the full name the short one belongs to. */
      for (guint i = 0; i < n_plain; i++)
        {
          const char *full = g_ptr_array_index (names, i);
          const char *colon = strchr (full, ':');

          if (colon && strcmp (colon + 1, s) == 0)
            {
              s = full;
              break;
            }
        }
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_UNKNOWN_EVENT, start, end,
                                   _("no event type '%s' in this trace — did you mean '%s'?"),
                                   word, s);
    }
  else
    _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_UNKNOWN_EVENT, start, end,
                                 _("no event type '%s' in this trace"), word);
}

/* Sets the rules of a payload field compared with a value, in the types for which in_types is TRUE
 * (NULL: all) whose rule is still RULE_FALSE. *found tells whether any of them has the field. */
static void
compile_payload (Parser          *p,
                 FilterLeaf      *leaf,
                 const char      *name,
                 const gboolean  *in_types,
                 const FilterTok *field_tok,
                 const FilterTok *op_tok,
                 const FilterTok *value,
                 gboolean        *found)
{
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  g_autofree char *why = NULL;
  SeismoFilterError why_code = SEISMO_FILTER_ERROR_BAD_VALUE;
  const FilterTok *why_at = value;
  gboolean usable = FALSE, string_pred = FALSE;
  FilterOp op = op_tok->op;

  /* Rules set before (ret on syscall events) make the leaf usable even if no payload field is. */
  for (guint t = 0; t < n_types; t++)
    usable |= leaf->rules[t].mode != RULE_FALSE;
  *found = FALSE;
  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (p->trace, t);
      TypeRule *rule = &leaf->rules[t];
      int idx;
      const SeismoField *field;
      Quantity q;
      g_autofree char *reason = NULL;

      if ((in_types && !in_types[t]) || rule->mode != RULE_FALSE ||
          (idx = seismo_event_type_find_field (type, name)) < 0)
        continue;
      *found = TRUE;
      field = &type->fields[idx];
      rule->field = (guint16) idx;
      rule->field_type = field->type;
      rule->plain = TRUE;
      for (int f = 0; f < idx; f++)
        rule->plain &= type->fields[f].type != SEISMO_FIELD_BYTES &&
                       type->fields[f].type != SEISMO_FIELD_UINT_ARRAY;

      switch (field->type)
        {
        case SEISMO_FIELD_STRING:
          if (!string_pred)
            {
              if (!str_pred_init (p, &leaf->str, op, value))
                return;
              string_pred = TRUE;
            }
          rule->mode = RULE_STRING;
          usable = TRUE;
          break;

        case SEISMO_FIELD_INT:
        case SEISMO_FIELD_UINT:
        case SEISMO_FIELD_POINTER:
          if (op == FILTER_OP_GLOB || op == FILTER_OP_REGEX)
            {
              if (!why)
                {
                  why = g_strdup_printf (_("'%s' matches text, but %s is a number: use ==, !=, <, "
                                           "<=, > or >="), _seismo_filter_op_to_string (op), name);
                  why_code = SEISMO_FILTER_ERROR_BAD_OPERATOR;
                  why_at = op_tok;
                }
              break;
            }
          if (!numeric_value (p, name, field, field->display, CTX_ANY, value->text, &q, &reason))
            {
              if (!why)
                why = g_steal_pointer (&reason);
              break;
            }
          usable = TRUE;
          switch (_seismo_filter_num_range_make (op, &q, field->type == SEISMO_FIELD_INT,
                                                 &rule->range))
            {
            case RANGE_NONE:
              rule->mode = RULE_FALSE;
              break;
            case RANGE_ALL:
              rule->mode = RULE_TRUE;
              break;
            case RANGE_SOME:
            default:
              rule->mode = RULE_NUMBER;
              break;
            }
          break;

        case SEISMO_FIELD_BYTES:
        case SEISMO_FIELD_UINT_ARRAY:
        case SEISMO_FIELD_N_TYPES:
        default:
          if (!why)
            {
              why = g_strdup_printf (_("%s holds %s, which cannot be compared"), name,
                                     field->type == SEISMO_FIELD_BYTES ? _("raw bytes")
                                                                       : "an array of numbers");
              why_code = SEISMO_FILTER_ERROR_BAD_OPERATOR;
              why_at = field_tok;
            }
          break;
        }
    }
  if (*found && !usable)
    _seismo_filter_parser_error (p, why_code, why_at->start, why_at->end, "%s", why);
}

static FilterLeaf *
type_leaf_new (Parser *p)
{
  FilterLeaf *leaf = g_new0 (FilterLeaf, 1);

  leaf->kind = LEAF_TYPE;
  leaf->rules = g_new0 (TypeRule, MAX (seismo_trace_get_n_event_types (p->trace), 1));
  return leaf;
}

static gboolean
value_is_text_only (const FilterTok *op_tok)
{
  return op_tok->op == FILTER_OP_GLOB || op_tok->op == FILTER_OP_REGEX;
}

static FilterNode *
numeric_op_error (Parser          *p,
                  const FilterTok *op_tok,
                  const char      *name)
{
  _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_BAD_OPERATOR, op_tok->start, op_tok->end,
                               _("'%s' matches text, but %s is a number: use ==, !=, <, <=, > or >="),
                               _seismo_filter_op_to_string (op_tok->op), name);
  return NULL;
}

/* Reads the value of a built-in numeric comparison ("cpu > 2"); FALSE after reporting why not. */
static gboolean
builtin_numeric_value (Parser          *p,
                       const char      *name,
                       const FilterTok *op_tok,
                       const FilterTok *value,
                       SeismoDisplay    display,
                       UnitContext      ctx,
                       Quantity        *q)
{
  g_autofree char *why = NULL;

  if (value_is_text_only (op_tok))
    {
      numeric_op_error (p, op_tok, name);
      return FALSE;
    }
  if (!numeric_value (p, name, NULL, display, ctx, value->text, q, &why))
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_BAD_VALUE, value->start, value->end, "%s",
                                   why);
      return FALSE;
    }
  return TRUE;
}

/*
 * The range of values a built-in numeric comparison matches. FALSE when there is no range to
 * test, with *node what to compile instead: NULL after an error, or a constant when the
 * comparison matches no value or every value.
 */
static gboolean
builtin_numeric_range (Parser          *p,
                       const char      *name,
                       const FilterTok *op_tok,
                       const FilterTok *value,
                       UnitContext      ctx,
                       gboolean         is_signed,
                       NumRange        *r,
                       FilterNode     **node)
{
  Quantity q;

  *node = NULL;
  if (!builtin_numeric_value (p, name, op_tok, value, SEISMO_DISPLAY_DEFAULT, ctx, &q))
    return FALSE;
  switch (_seismo_filter_num_range_make (op_tok->op, &q, is_signed, r))
    {
    case RANGE_NONE:
      *node = _seismo_filter_node_const (FALSE);
      return FALSE;
    case RANGE_ALL:
      *node = _seismo_filter_node_const (TRUE);
      return FALSE;
    case RANGE_SOME:
    default:
      return TRUE;
    }
}

/* Builds comm segments: each renamed task's comm changes, grouped by task in time order. */
static void
ensure_comm_segments (SeismoFilter *self)
{
  guint n_changes, n_tasks = seismo_trace_get_n_tasks (self->trace);
  const SeismoCommChange *changes = seismo_trace_get_comm_changes (self->trace, &n_changes);
  g_autofree guint *fill = NULL;

  if (self->seg_off != NULL)
    return;
  self->seg_off = g_new0 (guint, n_tasks + 1);
  for (guint c = 0; c < n_changes; c++)
    if (changes[c].task < n_tasks)
      self->seg_off[changes[c].task + 1]++;
  for (guint t = 0; t < n_tasks; t++)
    self->seg_off[t + 1] += self->seg_off[t];
  self->n_segs = self->seg_off[n_tasks];
  self->seg_time = g_new (guint64, MAX (self->n_segs, 1));
  self->seg_comm = g_new (SeismoStringId, MAX (self->n_segs, 1));
  fill = g_memdup2 (self->seg_off, sizeof (guint) * (n_tasks + 1));
  for (guint c = 0; c < n_changes; c++)
    if (changes[c].task < n_tasks)
      {
        guint at = fill[changes[c].task]++;

        self->seg_time[at] = changes[c].time_ns;
        self->seg_comm[at] = changes[c].comm;
      }
}

static FilterNode *
compile_task (Parser          *p,
              const char      *name,
              const FilterTok *op_tok,
              const FilterTok *value)
{
  guint n_tasks = seismo_trace_get_n_tasks (p->trace);
  FilterLeaf *leaf = g_new0 (FilterLeaf, 1);
  gboolean any_true = FALSE, any_false = FALSE, any_varies = FALSE;

  leaf->kind = LEAF_TASK;
  leaf->task_table = g_new0 (guint8, MAX (n_tasks, 1));
  if (strcmp (name, "comm") == 0)
    {
      SeismoFilter *self = p->filter;

      if (!str_pred_init (p, &leaf->str, op_tok->op, value))
        {
          _seismo_filter_leaf_free (leaf);
          return NULL;
        }
      ensure_comm_segments (self);
      leaf->seg_bits = g_new0 (guint8, MAX (self->n_segs, 1));
      for (guint s = 0; s < self->n_segs; s++)
        {
          const char *comm = seismo_trace_get_string (p->trace, self->seg_comm[s]);

          leaf->seg_bits[s] = _seismo_str_pred_match (&leaf->str, comm);
        }
      for (guint t = 0; t < n_tasks; t++)
        {
          const char *comm = seismo_trace_get_string (p->trace,
                                                      seismo_trace_get_task (p->trace, t)->comm);

          if (self->seg_off[t + 1] > self->seg_off[t])
            leaf->task_table[t] = 2;
          else
            leaf->task_table[t] = _seismo_str_pred_match (&leaf->str, comm);
        }
    }
  else
    {
      NumRange r;
      FilterNode *node;
      gboolean is_pid = strcmp (name, "pid") == 0;

      if (!builtin_numeric_range (p, name, op_tok, value, CTX_PLAIN, TRUE, &r, &node))
        {
          _seismo_filter_leaf_free (leaf);
          return node;
        }
      for (guint t = 0; t < n_tasks; t++)
        {
          const SeismoTask *task = seismo_trace_get_task (p->trace, t);
          gint64 v = is_pid ? task->pid : task->tid;

          leaf->task_table[t] = num_range_match (&r, (guint64) v ^ FILTER_SIGN_BIAS);
        }
    }
  for (guint t = 0; t < n_tasks; t++)
    {
      any_true |= leaf->task_table[t] == 1;
      any_false |= leaf->task_table[t] == 0;
      any_varies |= leaf->task_table[t] == 2;
    }
  if (!any_varies && (!any_true || !any_false))
    {
      gboolean v = any_true;

      _seismo_filter_leaf_free (leaf);
      return _seismo_filter_node_const (v);
    }
  return leaf_node (p, leaf);
}

static FilterNode *
compile_time (Parser          *p,
              const char      *name,
              const FilterTok *op_tok,
              const FilterTok *value)
{
  NumRange r;
  FilterNode *node;
  FilterLeaf *leaf;
  gsize n = seismo_trace_get_n_events (p->trace);
  guint64 start = seismo_trace_get_start_ns (p->trace), lo, hi;

  if (!builtin_numeric_range (p, name, op_tok, value, CTX_TIME, FALSE, &r, &node))
    return node;
  leaf = g_new0 (FilterLeaf, 1);
  leaf->kind = LEAF_TIME;
  leaf->negate = r.negate;
  /* Relative [lo, lo + width] to absolute, saturating: the time column is sorted, so the matching
   * events are one index range. */
  lo = r.lo > G_MAXUINT64 - start ? G_MAXUINT64 : start + r.lo;
  hi = r.width > G_MAXUINT64 - lo ? G_MAXUINT64 : lo + r.width;
  leaf->time_first = r.lo > G_MAXUINT64 - start ? n : seismo_trace_find_time (p->trace, lo);
  leaf->time_last = hi == G_MAXUINT64 ? n : seismo_trace_find_time (p->trace, hi + 1);
  return leaf_node (p, leaf);
}

static FilterNode *
compile_cpu (Parser          *p,
             const char      *name,
             const FilterTok *op_tok,
             const FilterTok *value)
{
  NumRange r;
  FilterNode *node;
  FilterLeaf *leaf;

  if (!builtin_numeric_range (p, name, op_tok, value, CTX_PLAIN, FALSE, &r, &node))
    return node;
  leaf = g_new0 (FilterLeaf, 1);
  leaf->kind = LEAF_CPU;
  leaf->range = r;
  return leaf_node (p, leaf);
}

static FilterNode *
compile_event (Parser          *p,
               const FilterTok *op_tok,
               const FilterTok *value)
{
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  FilterLeaf *leaf = type_leaf_new (p);
  gboolean any = FALSE;

  if (!str_pred_init (p, &leaf->str, op_tok->op, value))
    {
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (p->trace, t);
      gboolean named;

      leaf->rules[t].mode = event_pred_match (&leaf->str, type) ? RULE_TRUE : RULE_FALSE;
      if (op_tok->op == FILTER_OP_NE)
        {
          StrPred eq = { FILTER_OP_EQ, leaf->str.text, NULL, NULL };

          named = event_pred_match (&eq, type);
        }
      else
        named = leaf->rules[t].mode == RULE_TRUE;
      any |= named;
    }
  /* A name that is no event type is most likely a typo; globs and orderings may match nothing. */
  if (!any && (op_tok->op == FILTER_OP_EQ || op_tok->op == FILTER_OP_NE))
    {
      unknown_event_error (p, value->text, value->start, value->end);
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  return finish_type_leaf (p, leaf);
}

static gboolean
is_syscall_kind (const SeismoEventType *type)
{
  return type->kind == SEISMO_KIND_SYSCALL_ENTER || type->kind == SEISMO_KIND_SYSCALL_EXIT;
}

static FilterNode *
compile_syscall (Parser          *p,
                 const FilterTok *op_tok,
                 const FilterTok *value)
{
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  guint n_names = seismo_trace_get_n_syscall_names (p->trace);
  FilterLeaf *leaf = type_leaf_new (p);
  FilterTok named = *value;
  g_autofree char *number_name = NULL;
  gboolean known = FALSE;

  /* A number names the syscall of the trace's architecture. */
  if (_seismo_filter_is_numeric (value->text) && op_tok->op != FILTER_OP_GLOB &&
      op_tok->op != FILTER_OP_REGEX)
    {
      gint64 nr = g_ascii_strtoll (value->text, NULL, 0);
      const char *name = seismo_syscall_name (p->arch, nr);

      number_name = name ? g_strdup (name) : g_strdup_printf ("syscall_%" G_GINT64_FORMAT, nr);
      named.text = number_name;
    }
  if (!str_pred_init (p, &leaf->str, op_tok->op, &named))
    {
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  leaf->span_attr = SPAN_SYSCALL;
  leaf->syscall_bits = g_new0 (guint64, seismo_filter_mask_words (MAX (n_names, 1)));
  for (guint s = 0; s < n_names; s++)
    {
      const char *name = seismo_trace_get_syscall_name (p->trace, s);

      if (_seismo_str_pred_match (&leaf->str, name))
        leaf->syscall_bits[s / 64] |= G_GUINT64_CONSTANT (1) << (s % 64);
      known |= strcmp (name, leaf->str.text) == 0;
    }
  if ((op_tok->op == FILTER_OP_EQ || op_tok->op == FILTER_OP_NE) && !known &&
      seismo_syscall_number (p->arch, leaf->str.text) < 0 && number_name == NULL)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new ();
      const char *s;

      for (guint i = 0; i < n_names; i++)
        g_ptr_array_add (names, (gpointer) seismo_trace_get_syscall_name (p->trace, i));
      for (guint nr = 0; nr < seismo_syscall_table_size (p->arch); nr++)
        if (seismo_syscall_name (p->arch, nr))
          g_ptr_array_add (names, (gpointer) seismo_syscall_name (p->arch, nr));
      s = _seismo_filter_suggest (value->text, (const char *const *) names->pdata, names->len);
      if (s)
        _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_BAD_VALUE, value->start, value->end,
                                     _("unknown syscall '%s' — did you mean '%s'?"), value->text, s);
      else
        _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_BAD_VALUE, value->start, value->end,
                                     _("unknown syscall '%s'"), value->text);
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  for (guint t = 0; t < n_types; t++)
    if (is_syscall_kind (seismo_trace_get_event_type (p->trace, t)))
      leaf->rules[t].mode = RULE_SPAN;
  return finish_type_leaf (p, leaf);
}

/* duration, ret and errno: syscall events through their spans; ret also the ret field of others. */
static FilterNode *
compile_span_number (Parser          *p,
                     const char      *name,
                     const FilterTok *field_tok,
                     const FilterTok *op_tok,
                     const FilterTok *value)
{
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  FilterLeaf *leaf;
  Quantity q;
  gboolean is_ret = strcmp (name, "ret") == 0;
  gboolean is_duration = strcmp (name, "duration") == 0;
  RangeResult rr;
  gboolean found;

  if (!builtin_numeric_value (p, name, op_tok, value,
                              is_duration ? SEISMO_DISPLAY_DEFAULT : SEISMO_DISPLAY_ERRNO,
                              is_duration ? CTX_TIME : CTX_PLAIN, &q))
    return NULL;

  leaf = type_leaf_new (p);
  leaf->span_attr = is_duration ? SPAN_DURATION : is_ret ? SPAN_RET : SPAN_ERRNO;
  leaf->span_signed = !is_duration;
  rr = _seismo_filter_num_range_make (op_tok->op, &q, leaf->span_signed, &leaf->range);
  /* Even "any value" needs the span: an unfinished syscall has no duration or ret. */
  if (rr == RANGE_ALL)
    leaf->range = (NumRange) { 0, G_MAXUINT64, FALSE };
  for (guint t = 0; t < n_types; t++)
    if (rr != RANGE_NONE && is_syscall_kind (seismo_trace_get_event_type (p->trace, t)))
      leaf->rules[t].mode = RULE_SPAN;
  if (is_ret)
    {
      compile_payload (p, leaf, name, NULL, field_tok, op_tok, value, &found);
      if (p->error)
        {
          _seismo_filter_leaf_free (leaf);
          return NULL;
        }
    }
  return finish_type_leaf (p, leaf);
}

FilterNode *
_seismo_filter_compile_comparison (Parser          *p,
                                   const FilterTok *field,
                                   const FilterTok *op_tok,
                                   const FilterTok *value)
{
  const char *name = field->text;
  const char *dot = strrchr (name, '.');
  g_autofree gboolean *in_types = NULL;
  FilterLeaf *leaf;
  gboolean found;
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  gsize field_start = field->start;

  if (field->type != TOK_WORD || _seismo_filter_is_numeric (name))
    {
      g_autofree char *what = _seismo_filter_tok_quote (p, field);

      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, field->start, field->end,
                                   _("expected a field name before '%s', not %s"),
                                   _seismo_filter_op_to_string (op_tok->op), what);
      return NULL;
    }

  if (dot != NULL)
    {
      /* TYPE.field: a payload field of the named types, also one a built-in shadows. */
      g_autofree char *prefix = g_strndup (name, dot - name);
      StrPred pred = { 0 };
      gboolean any = FALSE;

      if (dot[1] == '\0' || prefix[0] == '\0')
        {
          _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, field->start, field->end,
                                       _("write an event and a field as EVENT.FIELD, "
                                         "e.g. sched_wakeup.pid"));
          return NULL;
        }
      word_pred (&pred, prefix);
      in_types = g_new0 (gboolean, MAX (n_types, 1));
      for (guint t = 0; t < n_types; t++)
        any |= in_types[t] = type_matches_word (seismo_trace_get_event_type (p->trace, t), &pred);
      _seismo_str_pred_clear (&pred);
      if (!any)
        {
          if (_seismo_filter_has_glob (prefix))
            return _seismo_filter_node_const (FALSE);
          unknown_event_error (p, prefix, field->start, field->start + (dot - name));
          return NULL;
        }
      name = dot + 1;
      field_start = field->start + (dot + 1 - field->text);
    }
  else
    {
      if (find_builtin (name))
        {
          if (strcmp (name, "time") == 0)
            return compile_time (p, name, op_tok, value);
          if (strcmp (name, "cpu") == 0)
            return compile_cpu (p, name, op_tok, value);
          if (strcmp (name, "pid") == 0 || strcmp (name, "tid") == 0 || strcmp (name, "comm") == 0)
            return compile_task (p, name, op_tok, value);
          if (strcmp (name, "event") == 0)
            return compile_event (p, op_tok, value);
          if (strcmp (name, "syscall") == 0)
            return compile_syscall (p, op_tok, value);
          if (strcmp (name, "stack") == 0)
            return _seismo_filter_compile_stack (p, field, op_tok, value);
          return compile_span_number (p, name, field, op_tok, value);
        }
    }

  leaf = type_leaf_new (p);
  compile_payload (p, leaf, name, in_types, field, op_tok, value, &found);
  if (p->error)
    {
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  if (!found)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new ();
      const char *s;

      if (in_types)
        {
          g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

          for (guint t = 0; t < n_types; t++)
            {
              const SeismoEventType *type = seismo_trace_get_event_type (p->trace, t);

              for (guint f = 0; in_types[t] && f < type->n_fields; f++)
                if (g_hash_table_add (seen, type->fields[f].name))
                  g_ptr_array_add (names, type->fields[f].name);
            }
        }
      else
        {
          guint n;
          const char *const *all = all_field_names (p, &n);

          for (guint i = 0; i < n; i++)
            g_ptr_array_add (names, (gpointer) all[i]);
        }
      s = _seismo_filter_suggest (name, (const char *const *) names->pdata, names->len);
      if (s)
        _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_UNKNOWN_FIELD, field_start, field->end,
                                     _("unknown field '%s' — did you mean '%s'?"), name, s);
      else if (in_types)
        _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_UNKNOWN_FIELD, field_start, field->end,
                                     _("the events named here have no field '%s'"), name);
      else
        _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_UNKNOWN_FIELD, field_start, field->end,
                                     _("unknown field '%s': no event type of this trace has it"),
                                     name);
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  return finish_type_leaf (p, leaf);
}

/* A bare word or quoted text: an event name or glob. */
FilterNode *
_seismo_filter_compile_event_word (Parser          *p,
                                   const FilterTok *tok)
{
  guint n_types = seismo_trace_get_n_event_types (p->trace);
  FilterLeaf *leaf;
  gboolean any = FALSE;
  const FilterBuiltin *builtin;

  if (tok->type == TOK_WORD && _seismo_filter_is_numeric (tok->text))
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                   _("expected a condition, not the number '%s' (e.g. pid == %s)"),
                                   tok->text, tok->text);
      return NULL;
    }
  if (tok->type == TOK_WORD && (builtin = find_builtin (tok->text)) != NULL)
    {
      _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                   _("'%s' is a field: compare it with a value, e.g. %s == %s"),
                                   builtin->name, builtin->name, builtin->example);
      return NULL;
    }

  leaf = type_leaf_new (p);
  word_pred (&leaf->str, tok->text);
  for (guint t = 0; t < n_types; t++)
    {
      gboolean m = event_pred_match (&leaf->str, seismo_trace_get_event_type (p->trace, t));

      leaf->rules[t].mode = m ? RULE_TRUE : RULE_FALSE;
      any |= m;
    }
  if (!any && leaf->str.op == FILTER_OP_EQ)
    {
      if (tok->type == TOK_WORD && is_field_name (p, tok->text))
        _seismo_filter_parser_error (p, SEISMO_FILTER_ERROR_SYNTAX, tok->start, tok->end,
                                     _("'%s' is a field: compare it with a value, e.g. %s == 1"),
                                     tok->text, tok->text);
      else
        unknown_event_error (p, tok->text, tok->start, tok->end);
      _seismo_filter_leaf_free (leaf);
      return NULL;
    }
  return finish_type_leaf (p, leaf);
}

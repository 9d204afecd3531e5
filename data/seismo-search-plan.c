/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

/* What of an event type's shown text could hold the needle: worked out once per search. */

#include <ctype.h>
#include <string.h>

#include "seismo-sched-state.h"
#include "seismo-search-private.h"
#include "seismo-syscalls.h"

/* The boundary analysis is quadratic in the needle; a longer one is looked for in the text. */
#define MAX_ANALYSED_NEEDLE 256

static gboolean
case_equal (const char *a,
            const char *b,
            gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (tolower ((guchar) a[i]) != tolower ((guchar) b[i]))
      return FALSE;
  return TRUE;
}

static gboolean
needle_within (const char *needle,
               const char *chars)
{
  for (const char *c = needle; *c; c++)
    if (strchr (chars, tolower ((guchar) *c)) == NULL)
      return FALSE;
  return TRUE;
}

static const char *
number_chars (const SeismoField *field)
{
  if (shows_hex (field))
    return "0123456789abcdefx";
  return field->type == SEISMO_FIELD_INT ? "-0123456789" : "0123456789";
}

/* Integer fields whose text is always a plain number. */
static gboolean
shows_plain_number (const SeismoField *field)
{
  switch (field->display)
    {
    case SEISMO_DISPLAY_DEFAULT:
    case SEISMO_DISPLAY_HEX:
      return TRUE;
    case SEISMO_DISPLAY_ERRNO:
    case SEISMO_DISPLAY_FD:
      /* Their names are for negative values only. */
      return field->type != SEISMO_FIELD_INT;
    case SEISMO_DISPLAY_SYMBOL:
    case SEISMO_DISPLAY_FLAGS:
    case SEISMO_DISPLAY_SIGNAL:
    case SEISMO_DISPLAY_SCHED_STATE:
    case SEISMO_DISPLAY_SYSCALL:
      return FALSE;
    case SEISMO_DISPLAY_N:
    default:
      return TRUE;
    }
}

/* Whether c (any case) can be in the field's text; TRUE when unsure. */
static gboolean
field_may_show (const SeismoField *field,
                char               c)
{
  int l = tolower ((guchar) c);

  if (l == 0)
    return FALSE;
  switch (field->type)
    {
    case SEISMO_FIELD_BYTES:
      return g_ascii_isxdigit (l);
    case SEISMO_FIELD_UINT_ARRAY:
      return g_ascii_isxdigit (l) || strchr ("(), ", l) != NULL;
    case SEISMO_FIELD_INT:
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      return !shows_plain_number (field) || strchr (number_chars (field), l) != NULL;
    case SEISMO_FIELD_STRING:
    case SEISMO_FIELD_N_TYPES:
    default:
      return TRUE;
    }
}

/* The shown text of a type, all fields read: literal pieces and fields, as
 * seismo_trace_event_format_into() lays them out. */
typedef struct {
  int    field;  /* -1: a literal piece */
  char  *text;
  gsize  len;
} Segment;

static void
segment_clear (Segment *seg)
{
  g_free (seg->text);
}

static void
add_literal (GArray  *segs,
             GString *lit)
{
  Segment seg = { -1, NULL, 0 };

  if (lit->len == 0)
    return;
  seg.len = lit->len;
  seg.text = g_strndup (lit->str, lit->len);
  g_array_append_val (segs, seg);
  g_string_truncate (lit, 0);
}

static GArray *
type_segments (const SeismoEventType *type)
{
  GArray *segs = g_array_new (FALSE, TRUE, sizeof (Segment));
  g_autoptr(GString) lit = g_string_new (NULL);

  g_array_set_clear_func (segs, (GDestroyNotify) segment_clear);
  if (type->print_fmt == NULL)
    {
      for (guint i = 0; i < type->n_fields; i++)
        {
          Segment seg = { (int) i, NULL, 0 };

          g_string_append_printf (lit, "%s%s=", i ? " " : "", type->fields[i].name);
          add_literal (segs, lit);
          g_array_append_val (segs, seg);
        }
      return segs;
    }
  for (const char *p = type->print_fmt; *p;)
    {
      const char *close;

      if (*p == '{' && (close = strchr (p + 1, '}')) != NULL)
        {
          g_autofree char *name = g_strndup (p + 1, close - p - 1);
          int idx = seismo_event_type_find_field (type, name);

          if (idx >= 0 && (guint) idx < type->n_fields)
            {
              Segment seg = { idx, NULL, 0 };

              add_literal (segs, lit);
              g_array_append_val (segs, seg);
              p = close + 1;
              continue;
            }
        }
      g_string_append_c (lit, *p++);
    }
  add_literal (segs, lit);
  return segs;
}

/* Whether the needle could lie across a boundary between two segments, for some values of the
 * fields: needle[0, q) could end the text of segments [0, s], needle[q, len) could begin the text
 * of segments [s + 1, n). Remembered per (segment, q). */
typedef struct {
  const SeismoEventType *type;
  const Segment         *segs;
  int                    n_segs;
  const char            *needle;
  gsize                  len;
  gint8                 *ends;
  gint8                 *starts;
} Boundaries;

static gboolean
can_end (Boundaries *b,
         int         s,
         gsize       q)
{
  const Segment *seg;
  gint8 *memo;
  gboolean ok = FALSE;

  if (q == 0)
    return TRUE;
  if (s < 0)
    return FALSE;
  memo = &b->ends[(gsize) s * (b->len + 1) + q];
  if (*memo != 0)
    return *memo > 0;
  seg = &b->segs[s];
  if (seg->field < 0)
    {
      if (q <= seg->len)
        ok = case_equal (b->needle, seg->text + seg->len - q, q);
      else
        ok = case_equal (b->needle + q - seg->len, seg->text, seg->len) && can_end (b, s - 1, q - seg->len);
    }
  else
    {
      const SeismoField *field = &b->type->fields[seg->field];

      /* The field shows k of the characters, any number of them. */
      for (gsize k = 0; k <= q && !ok; k++)
        {
          if (k > 0 && !field_may_show (field, b->needle[q - k]))
            break;
          ok = k == q || can_end (b, s - 1, q - k);
        }
    }
  *memo = ok ? 1 : -1;
  return ok;
}

static gboolean
can_start (Boundaries *b,
           int         s,
           gsize       q)
{
  const Segment *seg;
  gsize rest = b->len - q;
  gint8 *memo;
  gboolean ok = FALSE;

  if (rest == 0)
    return TRUE;
  if (s >= b->n_segs)
    return FALSE;
  memo = &b->starts[(gsize) s * (b->len + 1) + q];
  if (*memo != 0)
    return *memo > 0;
  seg = &b->segs[s];
  if (seg->field < 0)
    {
      if (rest <= seg->len)
        ok = case_equal (b->needle + q, seg->text, rest);
      else
        ok = case_equal (b->needle + q, seg->text, seg->len) && can_start (b, s + 1, q + seg->len);
    }
  else
    {
      const SeismoField *field = &b->type->fields[seg->field];

      for (gsize k = 0; k <= rest && !ok; k++)
        {
          if (k > 0 && !field_may_show (field, b->needle[q + k - 1]))
            break;
          ok = k == rest || can_start (b, s + 1, q + k);
        }
    }
  *memo = ok ? 1 : -1;
  return ok;
}

static gboolean
may_span_boundary (const SeismoEventType *type,
                   GArray                *segs,
                   const char            *needle,
                   gsize                  len)
{
  Boundaries b = { type, (const Segment *) segs->data, (int) segs->len, needle, len, NULL, NULL };
  g_autofree gint8 *ends = NULL;
  g_autofree gint8 *starts = NULL;

  if (len < 2 || segs->len < 2)
    return FALSE;
  if (len > MAX_ANALYSED_NEEDLE)
    return TRUE;
  b.ends = ends = g_new0 (gint8, segs->len * (len + 1));
  b.starts = starts = g_new0 (gint8, segs->len * (len + 1));
  for (int s = 1; s < b.n_segs; s++)
    for (gsize q = 1; q < len; q++)
      if (can_end (&b, s - 1, q) && can_start (&b, s, q))
        return TRUE;
  return FALSE;
}

/* A payload that does not decode shows "{name}" for the fields it lacks and a note at the end
 * (seismo_trace_event_format_into()); a needle touching those has at least one of their
 * characters at its edge, or lies inside one. */
static gboolean
damage_may_show (const SeismoEventType *type,
                 const char            *needle)
{
  /* The note as seismo_trace_event_format_into() shows it (its msgid is extracted there). */
  const char *note = g_dgettext (GETTEXT_PACKAGE, " [damaged payload]");

  if (strcasestr (note, needle) != NULL || strchr (needle, '{') != NULL || strchr (needle, '}') != NULL
      || (note[0] != '\0' && strchr (needle, note[0]) != NULL))
    return TRUE;
  if (type->print_fmt != NULL)
    for (guint i = 0; i < type->n_fields; i++)
      {
        g_autofree char *shown = g_strdup_printf ("{%s}", type->fields[i].name);

        if (strcasestr (shown, needle) != NULL)
          return TRUE;
      }
  return FALSE;
}

/* Whether every character of the needle (any case) is one of chars or of the names. */
static gboolean
needle_within_names (const char         *needle,
                     const char         *chars,
                     const SeismoSymbol *symbols,
                     guint               n_symbols)
{
  gboolean allowed[256] = { FALSE };

  for (const char *c = chars; *c; c++)
    allowed[tolower ((guchar) *c)] = TRUE;
  for (guint s = 0; s < n_symbols; s++)
    for (const char *c = symbols[s].name; c && *c; c++)
      allowed[tolower ((guchar) *c)] = TRUE;
  for (const char *c = needle; *c; c++)
    if (!allowed[tolower ((guchar) *c)])
      return FALSE;
  return TRUE;
}

/* The errno numbers in [1, 4095] that have a name on arch, found once per process. */
static GArray *
named_errnos (SeismoArch arch)
{
  static gsize tables[SEISMO_ARCH_N + 1];
  gsize *table = &tables[MIN ((guint) arch, SEISMO_ARCH_N)];

  if (g_once_init_enter (table))
    {
      GArray *named = g_array_new (FALSE, FALSE, sizeof (gint64));

      for (gint64 e = 1; e <= 4095; e++)
        if (seismo_errno_name_for_arch (arch, (int) e) != NULL)
          g_array_append_val (named, e);
      g_once_init_leave (table, (gsize) named);
    }
  return (GArray *) *table;
}

/* Whether a field shown with names from a table could show the needle other than as a number:
 * the table's names are looked through once per search. */
static gboolean
names_may_hold (SearchContext     *ctx,
                const SeismoField *field)
{
  const char *needle = ctx->needle;

  switch (field->display)
    {
    case SEISMO_DISPLAY_SYMBOL:
      for (guint s = 0; s < field->n_symbols; s++)
        if (field->symbols[s].name != NULL && strcasestr (field->symbols[s].name, needle) != NULL)
          return TRUE;
      return FALSE;

    case SEISMO_DISPLAY_SIGNAL:
      /* Any value cast to an int: every signal number. */
      for (int sig = 1; sig < 1024; sig++)
        {
          const char *name = seismo_signal_name (sig);

          if (name != NULL && strcasestr (name, needle) != NULL)
            return TRUE;
        }
      return FALSE;

    case SEISMO_DISPLAY_SYSCALL:
      {
        SeismoArch arch = seismo_arch_from_string (seismo_trace_get_metadata (ctx->trace, SEISMO_META_ARCH));
        gint64 first = seismo_syscall_table_first (arch);

        for (guint i = 0; i < seismo_syscall_table_size (arch); i++)
          {
            const char *name = seismo_syscall_name (arch, first + i);

            if (name != NULL && strcasestr (name, needle) != NULL)
              return TRUE;
          }
        return FALSE;
      }

    case SEISMO_DISPLAY_ERRNO:
      if (field->type != SEISMO_FIELD_INT)
        return FALSE;
      if (ctx->errno_names == 0)
        {
          g_autoptr(GString) text = g_string_new (NULL);
          GArray *named = named_errnos (seismo_trace_get_errno_arch (ctx->trace));

          /* Numbers without a name show as numbers, which fp->number covers. */
          ctx->errno_names = 1;
          for (guint i = 0; i < named->len && ctx->errno_names == 1; i++)
            {
              SeismoValue value = { .type = SEISMO_FIELD_INT, .i = -g_array_index (named, gint64, i) };

              g_string_truncate (text, 0);
              seismo_trace_format_value (ctx->trace, field, &value, text);
              if (strcasestr (text->str, needle) != NULL)
                ctx->errno_names = 2;
            }
        }
      return ctx->errno_names == 2;

    case SEISMO_DISPLAY_FD:
      return field->type == SEISMO_FIELD_INT && strcasestr ("AT_FDCWD", needle) != NULL;

    /* Names joined by '|': a needle without one lies inside one name, or the number of bits no
     * name covers, or a state letter and its '+'. */
    case SEISMO_DISPLAY_FLAGS:
      if (strchr (needle, '|') != NULL)
        return needle_within_names (needle, "|0123456789abcdefx", field->symbols, field->n_symbols);
      for (guint s = 0; s < field->n_symbols; s++)
        if (field->symbols[s].name != NULL && strcasestr (field->symbols[s].name, needle) != NULL)
          return TRUE;
      return needle_within (needle, "0123456789abcdefx");

    case SEISMO_DISPLAY_SCHED_STATE:
      {
        const SeismoSymbol *symbols = field->symbols;
        guint n_symbols = field->n_symbols;

        if (symbols == NULL || n_symbols == 0)
          symbols = seismo_sched_state_default (&n_symbols);
        if (strchr (needle, '|') != NULL)
          return needle_within_names (needle, "|r+", symbols, n_symbols);
        if (strcasestr ("R+", needle) != NULL)
          return TRUE;
        for (guint s = 0; s < n_symbols; s++)
          {
            g_autofree char *shown = g_strconcat (symbols[s].name ? symbols[s].name : "", "+", NULL);

            if (strcasestr (shown, needle) != NULL)
              return TRUE;
          }
        return FALSE;
      }

    case SEISMO_DISPLAY_DEFAULT:
    case SEISMO_DISPLAY_HEX:
    case SEISMO_DISPLAY_N:
    default:
      return FALSE;
    }
}

static FieldOp
field_op (const SearchContext *ctx,
          const SeismoField   *field,
          const FieldPlan     *fp)
{
  if (fp->literal)
    return OP_OTHER;
  switch (field->type)
    {
    case SEISMO_FIELD_BYTES:
      return OP_OTHER;
    case SEISMO_FIELD_UINT_ARRAY:
      if (fp->test != FIELD_FORMAT || !fp->elements)
        return OP_OTHER;
      return fp->hex && ctx->hex_spread ? OP_HEX_ELEMENTS : OP_ELEMENTS;
    case SEISMO_FIELD_INT:
    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
    case SEISMO_FIELD_STRING:
    case SEISMO_FIELD_N_TYPES:
    default:
      break;
    }
  switch ((FieldTest) fp->test)
    {
    case FIELD_SKIP:
      return OP_READ;
    case FIELD_STRING:
      return OP_STRING;
    case FIELD_NUMBER:
      return OP_NUMBER;
    case FIELD_CACHED:
      return OP_CACHED;
    case FIELD_FORMAT:
    default:
      return OP_OTHER;
    }
}

static void
plan_type (SearchContext         *ctx,
           const SeismoEventType *type,
           gboolean               any_string,
           TypePlan              *plan)
{
  g_autoptr(GArray) segs = NULL;
  g_autofree guint8 *shown = g_new0 (guint8, MAX (type->n_fields, 1));
  gboolean any_field = FALSE;

  /* One more for the OP_END after the fields read. */
  plan->fields = g_new0 (FieldPlan, type->n_fields + 1);
  if (strcasestr (type->full_name, ctx->needle) != NULL)
    {
      plan->mode = TYPE_ALL;
      return;
    }
  segs = type_segments (type);
  for (guint s = 0; s < segs->len; s++)
    {
      const Segment *seg = &g_array_index (segs, Segment, s);

      if (seg->field >= 0)
        shown[seg->field] = TRUE;
      else if (strcasestr (seg->text, ctx->needle) != NULL)
        {
          /* With a print format the literal pieces are shown whatever the payload holds; without
           * one the " name=" shows with its field. */
          if (type->print_fmt != NULL)
            {
              plan->mode = TYPE_ALL;
              return;
            }
          plan->fields[g_array_index (segs, Segment, s + 1).field].literal = TRUE;
          any_field = TRUE;
        }
    }
  if (may_span_boundary (type, segs, ctx->needle, ctx->needle_len))
    {
      plan->mode = TYPE_FORMAT;
      return;
    }

  for (guint i = 0; i < type->n_fields; i++)
    {
      const SeismoField *field = &type->fields[i];
      FieldPlan *fp = &plan->fields[i];

      fp->test = FIELD_SKIP;
      if (!shown[i])
        continue;
      switch (field->type)
        {
        case SEISMO_FIELD_STRING:
          if (any_string)
            fp->test = FIELD_STRING;
          break;

        case SEISMO_FIELD_BYTES:
        case SEISMO_FIELD_UINT_ARRAY:
          {
            gboolean possible = TRUE;

            for (const char *c = ctx->needle; *c && possible; c++)
              possible = field_may_show (field, *c);
            if (possible)
              fp->test = FIELD_FORMAT;
            if (field->type == SEISMO_FIELD_UINT_ARRAY)
              fp->elements = needle_within (ctx->needle, field->display == SEISMO_DISPLAY_DEFAULT
                                                         ? "0123456789" : "0123456789abcdef");
            break;
          }

        case SEISMO_FIELD_INT:
        case SEISMO_FIELD_UINT:
        case SEISMO_FIELD_POINTER:
          fp->number = needle_within (ctx->needle, number_chars (field));
          if (shows_plain_number (field))
            fp->test = fp->number ? FIELD_NUMBER : FIELD_SKIP;
          else if (names_may_hold (ctx, field)
                   || (fp->number && field->display != SEISMO_DISPLAY_FLAGS
                       && field->display != SEISMO_DISPLAY_SCHED_STATE))
            {
              fp->test = FIELD_CACHED;
              fp->slot = ctx->n_slots++;
              fp->plain_out = field->display == SEISMO_DISPLAY_ERRNO || field->display == SEISMO_DISPLAY_FD;
            }
          break;

        case SEISMO_FIELD_N_TYPES:
        default:
          break;
        }
      if (fp->test != FIELD_SKIP || fp->literal)
        {
          any_field = TRUE;
          plan->n_read = i + 1;
        }
    }
  plan->damage_matters = damage_may_show (type, ctx->needle);
  if (plan->damage_matters)
    plan->n_read = type->n_fields;
  for (guint i = 0; i < type->n_fields; i++)
    {
      FieldPlan *fp = &plan->fields[i];

      fp->zigzag = type->fields[i].type == SEISMO_FIELD_INT;
      fp->hex = type->fields[i].display != SEISMO_DISPLAY_DEFAULT;
      fp->op = field_op (ctx, &type->fields[i], fp);
    }
  plan->fields[plan->n_read].op = OP_END;
  plan->mode = any_field || plan->damage_matters ? TYPE_FIELDS : TYPE_NEVER;
}

/* Whether some event could match at all: else the events need no reading. */
gboolean
_seismo_search_plan (SearchContext *ctx,
                     gboolean       format_text)
{
  gboolean possible = FALSE;

  gboolean any_string = FALSE;

  ctx->n_strings = seismo_trace_get_n_strings (ctx->trace);
  ctx->string_match = g_new0 (guint8, MAX (ctx->n_strings, 1));
  for (guint s = 0; s < ctx->n_strings; s++)
    if (strcasestr (seismo_trace_get_string (ctx->trace, s), ctx->needle) != NULL)
      ctx->string_match[s] = any_string = TRUE;

  /* Names are matched once per task, not once per event. */
  ctx->n_tasks = seismo_trace_get_n_tasks (ctx->trace);
  ctx->task_match = g_new0 (guint8, MAX (ctx->n_tasks, 1));
  for (guint t = 0; t < ctx->n_tasks; t++)
    {
      SeismoStringId comm = seismo_trace_get_task (ctx->trace, t)->comm;

      ctx->task_match[t] = comm < ctx->n_strings ? ctx->string_match[comm]
                                                 : strcasestr (seismo_trace_get_string (ctx->trace, comm), ctx->needle) != NULL;
      ctx->any_task |= ctx->task_match[t];
    }

  possible = ctx->any_task;
  ctx->n_types = seismo_trace_get_n_event_types (ctx->trace);
  ctx->types = g_new0 (TypePlan, MAX (ctx->n_types, 1));
  for (guint t = 0; t < ctx->n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (ctx->trace, t);

      ctx->types[t].type = type;
      if (format_text)
        {
          ctx->types[t].fields = NULL;
          ctx->types[t].mode = strcasestr (type->full_name, ctx->needle) != NULL ? TYPE_ALL : TYPE_FORMAT;
        }
      else
        plan_type (ctx, type, any_string, &ctx->types[t]);
      possible |= ctx->types[t].mode != TYPE_NEVER;
    }
  return possible;
}

void
_seismo_search_plan_clear (SearchContext *ctx)
{
  for (guint t = 0; t < ctx->n_types; t++)
    g_free (ctx->types[t].fields);
  g_clear_pointer (&ctx->types, g_free);
  g_clear_pointer (&ctx->task_match, g_free);
  g_clear_pointer (&ctx->string_match, g_free);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-filter"

#include <math.h>
#include <string.h>

#include "seismo-filter-private.h"

/*
 * The filter language's words: the lexer (also behind seismo_filter_tokenize() for highlighting),
 * quantities with units, comparisons folded into ranges, string tests and "did you mean"
 * suggestions.
 */

/* ---- lexer ---- */

const char *
_seismo_filter_op_to_string (FilterOp op)
{
  static const char *const names[] = { "==", "!=", "<", "<=", ">", ">=", "~", "=~" };

  return op < G_N_ELEMENTS (names) ? names[op] : "?";
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Characters that end an unquoted word. A single '|' stays inside words so flag values read as
 * READ|WRITE; '||' always ends one. */
static gboolean
ends_word (const char *p)
{
  switch (*p)
    {
    case '\0':
    case '(':
    case ')':
    case '!':
    case '&':
    case '=':
    case '<':
    case '>':
    case '~':
    case '"':
    case '\'':
      return TRUE;
    case '|':
      return p[1] == '|';
    default:
      return is_space (*p);
    }
}

static void
clear_tok (gpointer data)
{
  FilterTok *tok = data;

  g_clear_pointer (&tok->text, g_free);
}

static void
push_tok (GArray        *toks,
          FilterTokType  type,
          FilterOp       op,
          gsize          start,
          gsize          end,
          char          *text)
{
  FilterTok tok = { type, op, (guint) start, (guint) end, text };

  g_array_append_val (toks, tok);
}

GArray *
_seismo_filter_lex (const char *text)
{
  GArray *toks = g_array_new (FALSE, TRUE, sizeof (FilterTok));
  const char *p = text;

  g_array_set_clear_func (toks, clear_tok);
  while (*p)
    {
      gsize at = p - text;

      if (is_space (*p))
        {
          p++;
          continue;
        }
      if (*p == '(' || *p == ')')
        {
          push_tok (toks, *p == '(' ? TOK_LPAREN : TOK_RPAREN, 0, at, at + 1, NULL);
          p++;
        }
      else if (p[0] == '&' && p[1] == '&')
        {
          push_tok (toks, TOK_AND, 0, at, at + 2, NULL);
          p += 2;
        }
      else if (p[0] == '|' && p[1] == '|')
        {
          push_tok (toks, TOK_OR, 0, at, at + 2, NULL);
          p += 2;
        }
      else if (*p == '&' || *p == '|')
        {
          push_tok (toks, TOK_BAD, 0, at, at + 1,
                    *p == '&' ? g_strdup (_("'&' is not an operator: use '&&' for \"and\""))
                              : g_strdup (_("'|' is not an operator: use '||' for \"or\"")));
          p++;
        }
      else if (p[0] == '!' && p[1] == '=')
        {
          push_tok (toks, TOK_CMP, FILTER_OP_NE, at, at + 2, NULL);
          p += 2;
        }
      else if (*p == '!')
        {
          push_tok (toks, TOK_NOT, 0, at, at + 1, NULL);
          p++;
        }
      else if (p[0] == '=' && p[1] == '=')
        {
          push_tok (toks, TOK_CMP, FILTER_OP_EQ, at, at + 2, NULL);
          p += 2;
        }
      else if (p[0] == '=' && p[1] == '~')
        {
          push_tok (toks, TOK_CMP, FILTER_OP_REGEX, at, at + 2, NULL);
          p += 2;
        }
      else if (*p == '=')
        {
          push_tok (toks, TOK_BAD, 0, at, at + 1,
                    g_strdup (_("'=' is not an operator: use '==' to compare")));
          p++;
        }
      else if (*p == '<' || *p == '>')
        {
          gboolean eq = p[1] == '=';

          push_tok (toks, TOK_CMP, *p == '<' ? (eq ? FILTER_OP_LE : FILTER_OP_LT)
                                             : (eq ? FILTER_OP_GE : FILTER_OP_GT),
                    at, at + (eq ? 2 : 1), NULL);
          p += eq ? 2 : 1;
        }
      else if (*p == '~')
        {
          push_tok (toks, TOK_CMP, FILTER_OP_GLOB, at, at + 1, NULL);
          p++;
        }
      else if (*p == '"' || *p == '\'')
        {
          char quote = *p++;
          GString *s = g_string_new (NULL);

          /* \" \' and \\ are escapes; any other backslash stays, so regex escapes pass through. */
          while (*p && *p != quote)
            {
              if (p[0] == '\\' && (p[1] == '"' || p[1] == '\'' || p[1] == '\\'))
                p++;
              g_string_append_c (s, *p++);
            }
          if (*p == quote)
            {
              p++;
              push_tok (toks, TOK_STRING, 0, at, p - text, g_string_free (s, FALSE));
            }
          else
            {
              g_string_free (s, TRUE);
              push_tok (toks, TOK_BAD, 0, at, p - text,
                        g_strdup_printf (_("this text has no closing quote (%c)"), quote));
            }
        }
      else
        {
          const char *start = p;

          while (!ends_word (p))
            p++;
          push_tok (toks, TOK_WORD, 0, at, p - text, g_strndup (start, p - start));
        }
    }
  push_tok (toks, TOK_END, 0, p - text, p - text, NULL);
  return toks;
}

gboolean
_seismo_filter_is_word (const char *text)
{
  if (text == NULL || *text == '\0' || *text == '|')
    return FALSE;
  for (const char *p = text; *p; p++)
    if (ends_word (p))
      return FALSE;
  return TRUE;
}

gboolean
_seismo_filter_is_numeric (const char *word)
{
  const char *p = word;

  if (*p == '-' || *p == '+')
    p++;
  if (*p == '.')
    p++;
  return g_ascii_isdigit (*p);
}

/* ---- quantities ---- */

static const struct {
  const char *name;
  guint64     mult;
  UnitKind    kind;
} units[] = {
  { "ns", 1, UNIT_TIME },
  { "us", 1000, UNIT_TIME },
  { "µs", 1000, UNIT_TIME },
  { "ms", 1000000, UNIT_TIME },
  { "s", 1000000000, UNIT_TIME },
  { "k", 1024, UNIT_SIZE },
  { "K", 1024, UNIT_SIZE },
  { "KB", 1024, UNIT_SIZE },
  { "KiB", 1024, UNIT_SIZE },
  { "M", 1024 * 1024, UNIT_SIZE },
  { "MB", 1024 * 1024, UNIT_SIZE },
  { "MiB", 1024 * 1024, UNIT_SIZE },
  { "G", 1024 * 1024 * 1024, UNIT_SIZE },
  { "GB", 1024 * 1024 * 1024, UNIT_SIZE },
  { "GiB", 1024 * 1024 * 1024, UNIT_SIZE },
};

/* Parses [+-] (0x hex | digits [. digits]) [unit]. On failure returns FALSE with *why. */
gboolean
_seismo_filter_quantity_parse (const char  *text,
                               Quantity    *q,
                               char       **why)
{
  const char *p = text, *digits;
  gsize n_digits;
  guint64 ip = 0, mult = 1;
  double frac = 0.0;
  gboolean has_frac = FALSE;

  memset (q, 0, sizeof *q);
  if (*p == '-' || *p == '+')
    q->neg = *p++ == '-';

  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      p += 2;
      digits = p;
      while (g_ascii_isxdigit (*p))
        {
          if (ip >> 60)
            {
              *why = g_strdup_printf (_("'%s' is too large for 64 bits"), text);
              return FALSE;
            }
          ip = ip * 16 + g_ascii_xdigit_value (*p++);
        }
      if (p == digits || *p)
        {
          *why = g_strdup_printf (_("'%s' is not a hexadecimal number"), text);
          return FALSE;
        }
      q->mag = ip;
      return TRUE;
    }

  digits = p;
  while (g_ascii_isdigit (*p))
    {
      guint d = *p++ - '0';

      if (ip > (G_MAXUINT64 - d) / 10)
        {
          *why = g_strdup_printf (_("'%s' is too large for 64 bits"), text);
          return FALSE;
        }
      ip = ip * 10 + d;
    }
  n_digits = p - digits;
  if (*p == '.')
    {
      const char *f = ++p;
      double scale = 0.1;

      while (g_ascii_isdigit (*p))
        {
          frac += (*p++ - '0') * scale;
          scale /= 10;
        }
      has_frac = p > f;
      n_digits += p - f;
    }
  if (n_digits == 0)
    {
      *why = g_strdup_printf ("'%s' is not a number", text);
      return FALSE;
    }

  if (*p)
    {
      guint u;

      for (u = 0; u < G_N_ELEMENTS (units); u++)
        if (strcmp (p, units[u].name) == 0)
          break;
      if (u == G_N_ELEMENTS (units))
        {
          *why = g_strdup_printf (_("unknown unit '%s' in '%s': use ns, us, ms, s for times or k, M, "
                                    "G for sizes"), p, text);
          return FALSE;
        }
      mult = units[u].mult;
      q->unit = units[u].kind;
      g_strlcpy (q->unit_name, units[u].name, sizeof q->unit_name);
    }
  if (ip > G_MAXUINT64 / mult)
    {
      *why = g_strdup_printf (_("'%s' is too large for 64 bits"), text);
      return FALSE;
    }
  q->mag = ip * mult;
  if (has_frac)
    {
      double extra = floor (frac * (double) mult + 0.5);

      if (mult == 1 && frac != 0.0)
        {
          *why = g_strdup_printf (_("'%s' is not a whole number: add a unit, e.g. %sms"), text, text);
          return FALSE;
        }
      if (extra > (double) (G_MAXUINT64 - q->mag))
        {
          *why = g_strdup_printf (_("'%s' is too large for 64 bits"), text);
          return FALSE;
        }
      q->mag += (guint64) extra;
    }
  if (q->mag == 0)
    q->neg = FALSE;
  return TRUE;
}

gboolean
seismo_filter_parse_quantity (const char  *text,
                              guint64     *value,
                              GError     **error)
{
  Quantity q;
  g_autofree char *why = NULL;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (!_seismo_filter_quantity_parse (text, &q, &why))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, why);
      return FALSE;
    }
  if (q.neg)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("'%s' is negative"), text);
      return FALSE;
    }
  *value = q.mag;
  return TRUE;
}

/* Folds "v op q" into a NumRange over biased values (signed: sign bit flipped). */
RangeResult
_seismo_filter_num_range_make (FilterOp        op,
                               const Quantity *q,
                               gboolean        is_signed,
                               NumRange       *r)
{
  gboolean below = FALSE, above = FALSE;
  guint64 b = 0;

  if (is_signed)
    {
      if (q->neg && q->mag > FILTER_SIGN_BIAS)
        below = TRUE;
      else if (!q->neg && q->mag > (guint64) G_MAXINT64)
        above = TRUE;
      else
        b = (q->neg ? (guint64) 0 - q->mag : q->mag) ^ FILTER_SIGN_BIAS;
    }
  else if (q->neg)
    below = TRUE;
  else
    b = q->mag;

  r->negate = FALSE;
  if (below || above)
    switch (op)
      {
      case FILTER_OP_EQ:
        return RANGE_NONE;
      case FILTER_OP_NE:
        return RANGE_ALL;
      case FILTER_OP_LT:
      case FILTER_OP_LE:
        return below ? RANGE_NONE : RANGE_ALL;
      case FILTER_OP_GT:
      case FILTER_OP_GE:
      case FILTER_OP_GLOB:
      case FILTER_OP_REGEX:
      default:
        return below ? RANGE_ALL : RANGE_NONE;
      }

  switch (op)
    {
    case FILTER_OP_EQ:
    case FILTER_OP_NE:
      r->lo = b;
      r->width = 0;
      r->negate = op == FILTER_OP_NE;
      return RANGE_SOME;
    case FILTER_OP_LT:
      if (b == 0)
        return RANGE_NONE;
      r->lo = 0;
      r->width = b - 1;
      return RANGE_SOME;
    case FILTER_OP_LE:
      r->lo = 0;
      r->width = b;
      return b == G_MAXUINT64 ? RANGE_ALL : RANGE_SOME;
    case FILTER_OP_GT:
      if (b == G_MAXUINT64)
        return RANGE_NONE;
      r->lo = b + 1;
      r->width = G_MAXUINT64 - r->lo;
      return RANGE_SOME;
    case FILTER_OP_GE:
      r->lo = b;
      r->width = G_MAXUINT64 - b;
      return b == 0 ? RANGE_ALL : RANGE_SOME;
    case FILTER_OP_GLOB:
    case FILTER_OP_REGEX:
    default:
      g_assert_not_reached ();
    }
  return RANGE_NONE;
}

/* ---- suggestions ---- */

/* Optimal string alignment distance (Levenshtein plus adjacent transpositions), ASCII case
 * folded. */
static guint
edit_distance (const char *a,
               const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *d = NULL;

  if (la > 64 || lb > 64)
    return G_MAXUINT;
  d = g_new (guint, (la + 1) * (lb + 1));
#define D(i, j) d[(i) * (lb + 1) + (j)]
  for (gsize i = 0; i <= la; i++)
    D (i, 0) = i;
  for (gsize j = 0; j <= lb; j++)
    D (0, j) = j;
  for (gsize i = 1; i <= la; i++)
    for (gsize j = 1; j <= lb; j++)
      {
        guint cost = g_ascii_tolower (a[i - 1]) != g_ascii_tolower (b[j - 1]);
        guint v = MIN (MIN (D (i - 1, j) + 1, D (i, j - 1) + 1), D (i - 1, j - 1) + cost);

        if (i > 1 && j > 1 && g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 2]) &&
            g_ascii_tolower (a[i - 2]) == g_ascii_tolower (b[j - 1]))
          v = MIN (v, D (i - 2, j - 2) + 1);
        D (i, j) = v;
      }
  return D (la, lb);
#undef D
}

const char *
_seismo_filter_suggest (const char        *word,
                        const char *const *candidates,
                        guint              n_candidates)
{
  gsize len = strlen (word);
  guint limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
  guint best = G_MAXUINT;
  const char *best_name = NULL;

  for (guint i = 0; i < n_candidates; i++)
    {
      guint dist;

      if (candidates[i] == NULL || strcmp (candidates[i], word) == 0)
        continue;
      dist = edit_distance (word, candidates[i]);
      if (dist <= limit && dist < best)
        {
          best = dist;
          best_name = candidates[i];
        }
    }
  return best_name;
}

/* ---- string predicates ---- */

gboolean
_seismo_str_pred_match (const StrPred *pred,
                        const char    *text)
{
  switch (pred->op)
    {
    case FILTER_OP_EQ:
      return strcmp (text, pred->text) == 0;
    case FILTER_OP_NE:
      return strcmp (text, pred->text) != 0;
    case FILTER_OP_LT:
      return strcmp (text, pred->text) < 0;
    case FILTER_OP_LE:
      return strcmp (text, pred->text) <= 0;
    case FILTER_OP_GT:
      return strcmp (text, pred->text) > 0;
    case FILTER_OP_GE:
      return strcmp (text, pred->text) >= 0;
    case FILTER_OP_GLOB:
      return g_pattern_spec_match_string (pred->glob, text);
    case FILTER_OP_REGEX:
      return g_regex_match (pred->regex, text, 0, NULL);
    default:
      return FALSE;
    }
}

void
_seismo_str_pred_clear (StrPred *pred)
{
  g_clear_pointer (&pred->text, g_free);
  g_clear_pointer (&pred->glob, g_pattern_spec_free);
  g_clear_pointer (&pred->regex, g_regex_unref);
}

gboolean
_seismo_filter_has_glob (const char *text)
{
  return strpbrk (text, "*?") != NULL;
}

/* ---- tokens for highlighting ---- */

GArray *
seismo_filter_tokenize (const char *text)
{
  g_autoptr(GArray) toks = NULL;
  GArray *out;

  g_return_val_if_fail (text != NULL, NULL);

  toks = _seismo_filter_lex (text);
  out = g_array_new (FALSE, FALSE, sizeof (SeismoFilterToken));
  for (guint i = 0; i + 1 < toks->len; i++)
    {
      const FilterTok *tok = &g_array_index (toks, FilterTok, i);
      gboolean before_cmp = g_array_index (toks, FilterTok, i + 1).type == TOK_CMP;
      gboolean after_cmp = i > 0 && g_array_index (toks, FilterTok, i - 1).type == TOK_CMP;
      SeismoFilterToken t = { SEISMO_FILTER_TOKEN_ERROR, tok->start, tok->end };

      switch (tok->type)
        {
        case TOK_LPAREN:
        case TOK_RPAREN:
          t.kind = SEISMO_FILTER_TOKEN_PAREN;
          break;
        case TOK_AND:
        case TOK_OR:
        case TOK_NOT:
          t.kind = SEISMO_FILTER_TOKEN_LOGIC;
          break;
        case TOK_CMP:
          t.kind = SEISMO_FILTER_TOKEN_COMPARE;
          break;
        case TOK_WORD:
          if (before_cmp && !after_cmp)
            t.kind = SEISMO_FILTER_TOKEN_FIELD;
          else if (after_cmp)
            t.kind = _seismo_filter_is_numeric (tok->text) ? SEISMO_FILTER_TOKEN_NUMBER
                                                           : SEISMO_FILTER_TOKEN_WORD;
          else
            t.kind = SEISMO_FILTER_TOKEN_EVENT;
          break;
        case TOK_STRING:
          t.kind = after_cmp || before_cmp ? SEISMO_FILTER_TOKEN_STRING : SEISMO_FILTER_TOKEN_EVENT;
          break;
        case TOK_BAD:
        case TOK_END:
        default:
          t.kind = SEISMO_FILTER_TOKEN_ERROR;
          break;
        }
      g_array_append_val (out, t);
    }
  return out;
}

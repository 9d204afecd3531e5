/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-search.h"
#include "seismo-search-private.h"
#include "seismo-varint.h"

/* Values of name-table fields (syscalls, errno, signals, symbols…) answered once per value in
 * [-4096, 4096) for signed fields, [0, 8192) for the others: errno's names end at -4095. */
#define CACHE_SIZE 8192
#define CACHE_BIAS 4096

/* What one thread keeps: a text buffer and its answers per cached field and value. */
typedef struct {
  GString  *buf;
  guint8  **caches;   /* n_slots, each CACHE_SIZE: 0 unknown, 1 no, 2 yes */
} ThreadState;

static gboolean
format_matches (SearchContext *ctx,
                ThreadState   *ts,
                SeismoEventId  e)
{
  g_string_truncate (ts->buf, 0);
  seismo_trace_event_format_into (ctx->trace, e, ts->buf);
  return strcasestr (ts->buf->str, ctx->needle) != NULL;
}

static gboolean
value_matches (SearchContext     *ctx,
               ThreadState       *ts,
               const SeismoField *field,
               const SeismoValue *value)
{
  g_string_truncate (ts->buf, 0);
  seismo_trace_format_value (ctx->trace, field, value, ts->buf);
  return strcasestr (ts->buf->str, ctx->needle) != NULL;
}

static gboolean
scalar_matches (SearchContext     *ctx,
                ThreadState       *ts,
                const SeismoField *field,
                guint64            raw)
{
  SeismoValue value = { .type = field->type, .u = raw };

  return value_matches (ctx, ts, field, &value);
}

/* Digits of v, in base 10 or 16 (lower case), at the end of buf[32]; returns where they start. */
static char *
number_digits (guint64  v,
               gboolean hex,
               char     buf[32])
{
  char *p = buf + 32;

  do
    {
      *--p = "0123456789abcdef"[hex ? v & 15 : v % 10];
      v = hex ? v >> 4 : v / 10;
    }
  while (v != 0);
  return p;
}

/* Number texts are lower case, so the lowered needle is looked for byte by byte (the needle is
 * known to be made of number characters). */
static gboolean
text_has_needle (SearchContext *ctx,
                 const char    *text,
                 gsize          len)
{
  gsize n = ctx->needle_len;

  /* Haystacks of at most 20 characters: a plain scan beats memmem(). */
  for (gsize i = 0; i + n <= len; i++)
    if (text[i] == ctx->lower_needle[0] && memcmp (text + i, ctx->lower_needle, n) == 0)
      return TRUE;
  return n == 0;
}

/* Whether the hex digits of v (lower case, no leading zeros) hold the needle: each window of the
 * needle's length is compared as nibbles, which costs less than writing the digits out. A window
 * at nibble s lies within the digits while v >> 4s still has the needle's number of digits. */
static inline gboolean
hex_digits_hold (const SearchContext *ctx,
                 guint64              v)
{
  for (; v >= ctx->min_hex; v >>= 4)
    if ((v & ctx->hex_mask) == ctx->hex_value)
      return TRUE;
  return FALSE;
}

/* As format_uint() shows a number no table names. */
static gboolean
number_matches (SearchContext     *ctx,
                const SeismoField *field,
                guint64            v)
{
  char buf[32];
  char *p;

  if (shows_hex (field))
    {
      if (v < ctx->min_hex_0x)
        return FALSE;
      /* Hex digits cannot lie across the "x" of "0x" (a needle of one digit could be its "0"). */
      if (ctx->hex_needle)
        return hex_digits_hold (ctx, v);
      p = number_digits (v, TRUE, buf);
      *--p = 'x';
      *--p = '0';
    }
  else if (field->type == SEISMO_FIELD_INT && (gint64) v < 0)
    {
      p = number_digits (-(guint64) v, FALSE, buf);
      *--p = '-';
    }
  else if (v < ctx->min_decimal)
    return FALSE;
  else
    p = number_digits (v, FALSE, buf);
  return text_has_needle (ctx, p, buf + 32 - p);
}

/* A needle without separators lies inside one element of "(1, 2)" (decimal, or hex without 0x). */
static inline gboolean
element_holds (SearchContext *ctx,
               gboolean       hex,
               guint64        elem)
{
  char buf[32];
  char *digits;

  if (elem < (hex ? ctx->min_hex : ctx->min_decimal))
    return FALSE;
  if (hex && ctx->hex_needle)
    return hex_digits_hold (ctx, elem);
  digits = number_digits (elem, hex, buf);
  return text_has_needle (ctx, digits, buf + 32 - digits);
}

/* Reads an array's n elements from p, the position after them, or NULL when they are cut short;
 * with look, *matched says whether one holds the needle. Once one does, the rest are only read
 * past. */
static const guint8 *
array_elements (SearchContext     *ctx,
                const SeismoField *field,
                const guint8      *p,
                const guint8      *end,
                const guint8      *readable,
                guint64            n,
                gboolean           look,
                gboolean          *matched)
{
  gboolean hex = field->display != SEISMO_DISPLAY_DEFAULT;

  for (guint64 k = 0; k < n; k++)
    {
      guint64 elem;

      if (!(p = seismo_varint_get_wide (p, end, readable, &elem)))
        return NULL;
      if (look && element_holds (ctx, hex, elem))
        {
          *matched = TRUE;
          look = FALSE;
        }
    }
  return p;
}

static gboolean
cached_matches (SearchContext     *ctx,
                ThreadState       *ts,
                const FieldPlan   *fp,
                const SeismoField *field,
                guint64            raw)
{
  gint64 index = -1;

  if (field->type == SEISMO_FIELD_INT)
    {
      if ((gint64) raw >= -CACHE_BIAS && (gint64) raw < CACHE_SIZE - CACHE_BIAS)
        index = (gint64) raw + CACHE_BIAS;
    }
  else if (raw < CACHE_SIZE)
    index = (gint64) raw;

  if (index >= 0)
    {
      guint8 *cache = ts->caches[fp->slot];

      if (cache == NULL)
        cache = ts->caches[fp->slot] = g_new0 (guint8, CACHE_SIZE);
      if (cache[index] == 0)
        cache[index] = scalar_matches (ctx, ts, field, raw) ? 2 : 1;
      return cache[index] == 2;
    }
  if (fp->plain_out)
    return fp->number && number_matches (ctx, field, raw);
  return scalar_matches (ctx, ts, field, raw);
}

static gboolean
fields_match (SearchContext   *ctx,
              ThreadState     *ts,
              SeismoEventId    e,
              const TypePlan  *plan)
{
  const SeismoEventType *type = g_ptr_array_index (ctx->trace->event_types, ctx->trace->type[e]);
  gsize len;
  const guint8 *p = _seismo_trace_payload (ctx->trace, e, &len);
  const guint8 *end = p + len;
  /* Values are loaded 8 bytes at once: the payload's bytes go on past this event's. */
  const guint8 *readable = ctx->trace->payload + ctx->trace->payload_len;

  for (guint i = 0; i < plan->n_read; i++)
    {
      const SeismoField *field = &type->fields[i];
      const FieldPlan *fp = &plan->fields[i];
      const guint8 *start;
      gboolean in_elements = FALSE;
      guint64 v;

      if (!(p = seismo_varint_get_wide (p, end, readable, &v)))
        goto damaged;
      start = p;
      if (field->type == SEISMO_FIELD_BYTES)
        {
          if (v > (guint64) (end - p))
            goto damaged;
          p += v;
        }
      else if (field->type == SEISMO_FIELD_UINT_ARRAY)
        {
          if (v > (guint64) (end - p))
            goto damaged;
          /* Read once: the elements are looked at as they are skipped. */
          if (!(p = array_elements (ctx, field, p, end, readable, v,
                                    fp->test == FIELD_FORMAT && fp->elements, &in_elements)))
            goto damaged;
        }
      if (fp->literal)
        return TRUE;
      switch ((FieldTest) fp->test)
        {
        case FIELD_SKIP:
          break;

        case FIELD_STRING:
          if (v < ctx->n_strings && ctx->string_match[v])
            return TRUE;
          break;

        case FIELD_NUMBER:
          if (number_matches (ctx, field, field->type == SEISMO_FIELD_INT ? (guint64) seismo_zigzag_decode (v) : v))
            return TRUE;
          break;

        case FIELD_CACHED:
          if (cached_matches (ctx, ts, fp, field,
                              field->type == SEISMO_FIELD_INT ? (guint64) seismo_zigzag_decode (v) : v))
            return TRUE;
          break;

        case FIELD_FORMAT:
          if (fp->elements)
            {
              if (in_elements)
                return TRUE;
            }
          else
            {
              SeismoValue value = { .type = field->type, .u = v, .data = start, .len = p - start };

              if (value_matches (ctx, ts, field, &value))
                return TRUE;
            }
          break;

        default:
          g_assert_not_reached ();
        }
    }
  return FALSE;

damaged:
  /* Fields before the damage were shown and did not match; the rest shows as "{name}". */
  return plan->damage_matters && format_matches (ctx, ts, e);
}

static gboolean
event_matches (SearchContext *ctx,
               ThreadState   *ts,
               SeismoEventId  e)
{
  const guint16 *types = ctx->trace->type;
  SeismoTaskId task = ctx->trace->task[e];
  const TypePlan *plan = &ctx->types[types[e]];

  if (task < ctx->n_tasks && ctx->task_match[task])
    return TRUE;
  switch (plan->mode)
    {
    case TYPE_NEVER:
      return FALSE;
    case TYPE_ALL:
      return TRUE;
    case TYPE_FIELDS:
      return fields_match (ctx, ts, e, plan);
    case TYPE_FORMAT:
      return format_matches (ctx, ts, e);
    default:
      g_assert_not_reached ();
      return FALSE;
    }
}

/* One stretch of the search order, [first_k, end_k) in steps k from `from`, looked through by one
 * thread. Stretches are in search order; a stretch stops early once an earlier one has found a
 * match (that match wins whatever this one finds later). */
typedef struct {
  SearchContext *ctx;
  gsize          first_k;
  gsize          end_k;
  guint          index;
  SeismoEventId  found;
} Stretch;

/* The event one step after e in search order. */
static inline gsize
next_event (const SearchContext *ctx,
            gsize                e)
{
  if (ctx->backward)
    return e == 0 ? ctx->n - 1 : e - 1;
  return e + 1 == ctx->n ? 0 : e + 1;
}

static gpointer
search_stretch (gpointer data)
{
  Stretch *st = data;
  SearchContext *ctx = st->ctx;
  gsize n = ctx->n;
  ThreadState ts = { g_string_new (NULL), g_new0 (guint8 *, MAX (ctx->n_slots, 1)) };

  /* The event k steps from `from`; stepped with a wrap test, not a division per event. */
  gsize e = st->first_k >= st->end_k ? 0
            : ctx->backward ? (ctx->from + n - st->first_k) % n : (ctx->from + st->first_k) % n;

  st->found = SEISMO_NO_EVENT;
  for (gsize k = st->first_k; k < st->end_k; k++, e = next_event (ctx, e))
    {
      if ((k & 0xffff) == 0
          && (g_cancellable_is_cancelled (ctx->cancellable) || g_atomic_int_get (&ctx->earliest) < (gint) st->index))
        break;
      if (event_matches (ctx, &ts, (SeismoEventId) e))
        {
          gint seen = g_atomic_int_get (&ctx->earliest);

          st->found = (SeismoEventId) e;
          while (seen > (gint) st->index
                 && !g_atomic_int_compare_and_exchange (&ctx->earliest, seen, (gint) st->index))
            seen = g_atomic_int_get (&ctx->earliest);
          break;
        }
    }
  g_string_free (ts.buf, TRUE);
  for (guint s = 0; s < ctx->n_slots; s++)
    g_free (ts.caches[s]);
  g_free (ts.caches);
  return NULL;
}

/* The smallest value with at least `digits` digits in base (0 when any value has). */
static guint64
smallest_with_digits (guint64 base,
                      gsize   digits)
{
  guint64 v = 1;

  if (digits <= 1)
    return 0;
  for (gsize d = 1; d < digits; d++)
    {
      if (v > G_MAXUINT64 / base)
        return G_MAXUINT64;
      v *= base;
    }
  return v;
}

SeismoEventId
seismo_trace_search (SeismoTrace        *trace,
                     const char         *needle,
                     SeismoEventId       from,
                     SeismoSearchFlags   flags,
                     GCancellable       *cancellable,
                     gboolean           *wrapped,
                     GError            **error)
{
  SearchContext ctx = { 0 };
  /* Reading the events is the cost: the stretches run on every core. */
  guint n_threads = CLAMP (g_get_num_processors (), 1, 16);
  Stretch stretches[16];
  GThread *threads[16] = { NULL };
  SeismoEventId found = SEISMO_NO_EVENT;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), SEISMO_NO_EVENT);
  g_return_val_if_fail (needle != NULL, SEISMO_NO_EVENT);
  g_return_val_if_fail (error == NULL || *error == NULL, SEISMO_NO_EVENT);

  if (wrapped != NULL)
    *wrapped = FALSE;
  ctx.trace = trace;
  ctx.needle = needle;
  ctx.needle_len = strlen (needle);
  ctx.backward = (flags & SEISMO_SEARCH_BACKWARD) != 0;
  ctx.n = seismo_trace_get_n_events (trace);
  ctx.cancellable = cancellable;
  ctx.earliest = G_MAXINT;
  if (ctx.n == 0)
    return SEISMO_NO_EVENT;
  ctx.from = MIN (from, (SeismoEventId) (ctx.n - 1));
  ctx.lower_needle = g_ascii_strdown (needle, -1);
  ctx.min_decimal = smallest_with_digits (10, ctx.needle_len);
  ctx.min_hex = smallest_with_digits (16, ctx.needle_len);
  ctx.min_hex_0x = smallest_with_digits (16, ctx.needle_len > 2 ? ctx.needle_len - 2 : 0);
  ctx.hex_needle = ctx.needle_len >= 2 && ctx.needle_len <= 16
                   && strspn (ctx.lower_needle, "0123456789abcdef") == ctx.needle_len;
  if (ctx.hex_needle)
    {
      ctx.hex_mask = ctx.needle_len >= 16 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (4 * ctx.needle_len)) - 1;
      ctx.hex_value = g_ascii_strtoull (ctx.lower_needle, NULL, 16);
    }
  if (!_seismo_search_plan (&ctx, (flags & SEISMO_SEARCH_FORMAT_TEXT) != 0))
    n_threads = 0;
  else if (ctx.n < 1024)
    n_threads = 1;
  /* Steps k = 1..n from `from`; the first stretch runs on this thread. */
  for (guint i = 0; i < n_threads; i++)
    {
      stretches[i] = (Stretch) {
        &ctx, 1 + ctx.n * i / n_threads, 1 + ctx.n * (i + 1) / n_threads, i, SEISMO_NO_EVENT,
      };
      if (i > 0)
        threads[i] = g_thread_try_new ("seismo-search", search_stretch, &stretches[i], NULL);
    }
  if (n_threads > 0)
    search_stretch (&stretches[0]);
  for (guint i = 1; i < n_threads; i++)
    {
      if (threads[i] != NULL)
        g_thread_join (threads[i]);
      else
        search_stretch (&stretches[i]);
    }
  for (guint i = 0; i < n_threads; i++)
    if (stretches[i].found != SEISMO_NO_EVENT)
      {
        found = stretches[i].found;
        break;
      }

  _seismo_search_plan_clear (&ctx);
  g_free (ctx.lower_needle);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return SEISMO_NO_EVENT;
  if (found != SEISMO_NO_EVENT && wrapped != NULL)
    *wrapped = ctx.backward ? found >= ctx.from : found <= ctx.from;
  return found;
}

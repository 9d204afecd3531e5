/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-file-private.h"
#include "seismo-search.h"
#include "seismo-search-private.h"
#include "seismo-varint.h"

/* Values of name-table fields (syscalls, errno, signals, symbols…) answered once per value in
 * [-4096, 4096) for signed fields, [0, 8192) for the others: errno's names end at -4095. */
#define CACHE_SIZE 8192

/* What one thread keeps: a text buffer and its answers per cached field and value. */
typedef struct {
  GString  *buf;
  guint8   *caches;   /* n_slots of CACHE_SIZE: 0 unknown, 1 no, 2 yes */
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

  if (hex && ctx->hex_needle)
    return hex_digits_hold (ctx, elem);
  if (elem < (hex ? ctx->min_hex : ctx->min_decimal))
    return FALSE;
  digits = number_digits (elem, hex, buf);
  return text_has_needle (ctx, digits, buf + 32 - digits);
}

/* Reads an array's n elements from p, the position after them, or NULL when they are cut short;
 * with look, *matched says whether one holds the needle. Values too short to have the needle's
 * digits are only read past, and so is every value once one holds it. */
static inline const guint8 *
array_elements (SearchContext     *ctx,
                gboolean           hex,
                const guint8      *p,
                const guint8      *end,
                const guint8      *readable,
                guint64            n,
                gboolean           look,
                gboolean          *matched)
{
  guint min_len = !look ? SEISMO_VARINT_MAX + 1 : hex ? ctx->long_hex : ctx->long_decimal;

  for (guint64 k = 0; k < n; k++)
    {
      guint64 elem;

      if (!(p = seismo_varint_get_long (p, end, readable, min_len, &elem)))
        return NULL;
      if (look && element_holds (ctx, hex, elem))
        {
          *matched = TRUE;
          look = FALSE;
          min_len = SEISMO_VARINT_MAX + 1;
        }
    }
  return p;
}

/* array_elements() for an array shown in hex and a needle of hex digits not starting with "0"
 * (OP_HEX_ELEMENTS), the bulk of a syscall trace's fields. A value is not decoded: its bytes,
 * loaded 8 at once, are compared with the needle's windows spread as a varint's bits are
 * (plan_windows()), as many as fit its length, which are none for values too short to have the
 * needle's digits. A value of at most 8 bytes moves p by at most 8, so the n loads stay within
 * readable when p + 8 n is: the caller checks that once. A value running past end is found at
 * the end (p only grows), before any match inside it counts. */
static inline const guint8 *
hex_elements (const SearchContext *ctx,
              const guint8        *p,
              const guint8        *end,
              guint64              n,
              gboolean            *matched)
{
  guint64 k;

  for (k = 0; k < n; k++)
    {
      guint64 w, stop, bits;
      guint len, windows;

      stop = seismo_varint_load8_ (p, &w);
      if (G_UNLIKELY (stop == 0))
        {
          /* 9 or 10 bytes: beyond what one load holds. */
          guint64 elem;

          if (p >= end || !(p = seismo_varint_get (p, end, &elem)))
            return NULL;
          if (hex_digits_hold (ctx, elem))
            goto found;
          continue;
        }
      len = seismo_varint_stop_len_ (stop);
      p += len;
      /* The value's bytes: up to its last byte's high bit, the lowest bit of stop. */
      bits = w & (stop ^ (stop - 1));
      if (ctx->few_windows)
        {
          /* Whether a value is long enough to have a window is a coin toss from one argument to
           * the next (a pointer, then a size): no branch on it. */
          const guint64 *mask = ctx->len_mask[len], *value = ctx->len_value[len];

          G_STATIC_ASSERT (SEARCH_FEW_WINDOWS == 3);
          if (((bits & mask[0]) == value[0]) | ((bits & mask[1]) == value[1]) | ((bits & mask[2]) == value[2]))
            goto found;
          continue;
        }
      windows = ctx->window_count[len];
      for (guint s = 0; s < windows; s++)
        if ((bits & ctx->window_mask[s]) == ctx->window_value[s])
          goto found;
    }
  return p <= end ? p : NULL;

found:
  if (p > end)
    return NULL;
  *matched = TRUE;
  return array_elements ((SearchContext *) ctx, TRUE, p, end, end, n - k - 1, FALSE, matched);
}

/* A value of a name-table field not yet in the thread's cache, or outside it. */
static G_NO_INLINE gboolean
uncached_matches (SearchContext     *ctx,
                  ThreadState       *ts,
                  const FieldPlan   *fp,
                  const SeismoField *field,
                  guint64            v)
{
  guint64 raw = fp->zigzag ? (guint64) seismo_zigzag_decode (v) : v;

  if (v < CACHE_SIZE)
    {
      guint8 *cache = ts->caches + (gsize) fp->slot * CACHE_SIZE;

      cache[v] = scalar_matches (ctx, ts, field, raw) ? 2 : 1;
      return cache[v] == 2;
    }
  if (fp->plain_out)
    return fp->number && number_matches (ctx, field, raw);
  return scalar_matches (ctx, ts, field, raw);
}

/* v as read from the payload: zigzag maps the signed values [-CACHE_SIZE / 2, CACHE_SIZE / 2)
 * onto [0, CACHE_SIZE), so the encoded value is the cache index for either kind. */
static inline gboolean
cached_matches (SearchContext     *ctx,
                ThreadState       *ts,
                const FieldPlan   *fp,
                const SeismoField *field,
                guint64            v)
{
  if (v < CACHE_SIZE)
    {
      guint8 answer = ts->caches[(gsize) fp->slot * CACHE_SIZE + v];

      if (answer != 0)
        return answer == 2;
    }
  return uncached_matches (ctx, ts, fp, field, v);
}

/* seismo_varint_get_wide() for a value of one or two bytes as a rule (an array's length, a
 * syscall number): those two without the general decoder. */
G_ALWAYS_INLINE static inline const guint8 *
read_small (const guint8 *p,
            const guint8 *end,
            const guint8 *readable,
            guint64      *v)
{
  if (G_UNLIKELY (p >= end))
    return NULL;
  if (p[0] < 0x80)
    {
      *v = p[0];
      return p + 1;
    }
  if (end - p >= 2 && p[1] < 0x80)
    {
      *v = (p[0] & 0x7f) | ((guint) p[1] << 7);
      return p + 2;
    }
  return seismo_varint_get_wide (p, end, readable, v);
}

/* A field fields_match() has no quick way for (OP_OTHER): bytes, arrays read whole or formatted,
 * a field whose " name=" holds the needle. v is the varint at the field's start and p what follows
 * it. Returns the position after the field, or NULL when the payload is cut short in it. */
static const guint8 *
other_field (SearchContext     *ctx,
             ThreadState       *ts,
             const SeismoField *field,
             const FieldPlan   *fp,
             const guint8      *p,
             const guint8      *end,
             const guint8      *readable,
             guint64            v,
             gboolean          *matched)
{
  const guint8 *start = p;
  gboolean in_elements = FALSE;

  if (field->type == SEISMO_FIELD_BYTES)
    {
      if (v > (guint64) (end - p))
        return NULL;
      p += v;
    }
  else if (field->type == SEISMO_FIELD_UINT_ARRAY)
    {
      if (v > (guint64) (end - p))
        return NULL;
      /* Read once: the elements are looked at as they are skipped. */
      if (!(p = array_elements (ctx, fp->hex, p, end, readable, v,
                                fp->test == FIELD_FORMAT && fp->elements, &in_elements)))
        return NULL;
    }
  if (fp->literal)
    {
      *matched = TRUE;
      return p;
    }
  switch ((FieldTest) fp->test)
    {
    case FIELD_SKIP:
      break;

    case FIELD_STRING:
      *matched = v < ctx->n_strings && ctx->string_match[v];
      break;

    case FIELD_NUMBER:
      *matched = number_matches (ctx, field, fp->zigzag ? (guint64) seismo_zigzag_decode (v) : v);
      break;

    case FIELD_CACHED:
      *matched = cached_matches (ctx, ts, fp, field, v);
      break;

    case FIELD_FORMAT:
      if (fp->elements)
        *matched = in_elements;
      else
        {
          SeismoValue value = { .type = field->type, .u = v, .data = start, .len = p - start };

          *matched = value_matches (ctx, ts, field, &value);
        }
      break;

    default:
      g_assert_not_reached ();
    }
  return p;
}

/* Looks through events [lo, hi), all in one payload block, upwards or (backward) downwards; returns
 * the first that matches, or SEISMO_NO_EVENT. Within a block an event's payload ends where the
 * next one's starts. What the loop reads of ctx is copied to locals: the compiler cannot keep it
 * in registers across the stores and calls of the field tests.
 *
 * An event of TYPE_FIELDS is looked at a field at a time, by its plan's ops. Each op reads its
 * field's varint as it needs it: not at all when it only passes it, the one or two bytes of a
 * cached value without the general decoder. Each op ends in a jump of its own to the next field's
 * op (threaded dispatch, a GNU C extension, hence the ops in the event loop): a type's fields come
 * in a fixed order, so each of those jumps mostly goes where it went before, where one jump shared
 * by all ops was mispredicted at most changes of op (13% of a search's time). */
static SeismoEventId
search_block (SearchContext *ctx,
              ThreadState   *ts,
              gsize          lo,
              gsize          hi)
{
  /* The 8 ops fill 3 bits: the jump needs no range check. */
  G_STATIC_ASSERT (OP_END == 0 && OP_READ == 1 && OP_STRING == 2 && OP_NUMBER == 3 && OP_CACHED == 4
                   && OP_ELEMENTS == 5 && OP_HEX_ELEMENTS == 6 && OP_OTHER == 7);
  static const void *const ops[8] = {
    &&op_end, &&op_read, &&op_string, &&op_number, &&op_cached, &&op_elements, &&op_hex_elements,
    &&op_other,
  };
  const SeismoTrace *trace = ctx->trace;
  gsize b = lo >> SEISMO_BLOCK_SHIFT;
  const guint8 *base = trace->payload + trace->block_base[b];
  const guint32 *off = trace->payload_off;
  const guint8 *last_end = hi < trace->n_events && (hi >> SEISMO_BLOCK_SHIFT) == b
                           ? base + off[hi] : trace->payload + trace->block_base[b + 1];
  const guint16 *types = trace->type;
  const SeismoTaskId *tasks = trace->task;
  const TypePlan *plans = ctx->types;
  /* No task's comm holding the needle, as for most needles, spares reading the task column. */
  const guint8 *task_match = ctx->any_task ? ctx->task_match : NULL;
  guint n_tasks = ctx->n_tasks;
  /* Values are loaded 8 bytes at once: the payload's bytes go on past an event's. */
  const guint8 *readable = ctx->readable;
  gssize step = ctx->backward ? -1 : 1;
  gsize e = ctx->backward ? hi - 1 : lo;

  g_assert (lo < hi && ((hi - 1) >> SEISMO_BLOCK_SHIFT) == b);
  for (gsize left = hi - lo; left > 0; left--, e += step)
    {
      const TypePlan *plan = &plans[types[e]];
      const FieldPlan *fp;
      const SeismoField *field;
      const guint8 *p, *end;
      guint64 v;
      /* Set only by a match, which ends the search. */
      gboolean matched = FALSE;

      if (task_match != NULL && tasks[e] < n_tasks && task_match[tasks[e]])
        return (SeismoEventId) e;
      switch (plan->mode)
        {
        case TYPE_NEVER:
          continue;
        case TYPE_ALL:
          return (SeismoEventId) e;
        case TYPE_FORMAT:
          if (format_matches (ctx, ts, (SeismoEventId) e))
            return (SeismoEventId) e;
          continue;
        case TYPE_FIELDS:
          break;
        default:
          g_assert_not_reached ();
        }

      fp = plan->fields;
      field = plan->type->fields;
      p = base + off[e];
      end = e + 1 < hi ? base + off[e + 1] : last_end;

#define NEXT_FIELD() do { fp++; field++; goto *ops[fp->op & 7]; } while (0)

      goto *ops[fp->op & 7];

    op_end:
      continue;

    op_read:
      if (!(p = seismo_varint_get_long (p, end, readable, SEISMO_VARINT_MAX + 1, &v)))
        goto damaged;
      NEXT_FIELD ();

    op_string:
      if (!(p = seismo_varint_get_wide (p, end, readable, &v)))
        goto damaged;
      if (v < ctx->n_strings && ctx->string_match[v])
        return (SeismoEventId) e;
      NEXT_FIELD ();

    op_number:
      if (!(p = seismo_varint_get_wide (p, end, readable, &v)))
        goto damaged;
      if (number_matches (ctx, field, fp->zigzag ? (guint64) seismo_zigzag_decode (v) : v))
        return (SeismoEventId) e;
      NEXT_FIELD ();

    op_cached:
      /* Only values of one or two bytes (below 2^14) can be in the cache. */
      if (!(p = read_small (p, end, readable, &v)))
        goto damaged;
      if (cached_matches (ctx, ts, fp, field, v))
        return (SeismoEventId) e;
      NEXT_FIELD ();

    op_elements:
      if (!(p = seismo_varint_get_wide (p, end, readable, &v))
          || v > (guint64) (end - p)
          || !(p = array_elements (ctx, fp->hex, p, end, readable, v, TRUE, &matched)))
        goto damaged;
      if (matched)
        return (SeismoEventId) e;
      NEXT_FIELD ();

    op_hex_elements:
      if (!(p = read_small (p, end, readable, &v)) || v > (guint64) (end - p))
        goto damaged;
      if (G_LIKELY ((guint64) (readable - p) / 8 >= v))
        p = hex_elements (ctx, p, end, v, &matched);
      else
        p = array_elements (ctx, TRUE, p, end, readable, v, TRUE, &matched);
      if (p == NULL)
        goto damaged;
      if (matched)
        return (SeismoEventId) e;
      NEXT_FIELD ();

    op_other:
      if (!(p = seismo_varint_get_wide (p, end, readable, &v))
          || !(p = other_field (ctx, ts, field, fp, p, end, readable, v, &matched)))
        goto damaged;
      if (matched)
        return (SeismoEventId) e;
      NEXT_FIELD ();

#undef NEXT_FIELD

    damaged:
      /* Fields before the damage were shown and did not match; the rest shows as "{name}". */
      if (plan->damage_matters && format_matches (ctx, ts, (SeismoEventId) e))
        return (SeismoEventId) e;
    }
  return SEISMO_NO_EVENT;
}

/* A piece of the search order: events [lo, hi), all in one block, looked through upwards (or
 * downwards, backward), and the first match in it. */
typedef struct _SearchPiece {
  gsize         lo;
  gsize         hi;
  SeismoEventId found;
} SearchPiece;

/* Cuts steps k = 1..n from `from` (the event after it, on to an end of the trace, then on from the
 * other end back to `from` itself) at block ends: about n / 65536 pieces, in search order. */
static void
cut_pieces (SearchContext *ctx)
{
  gsize n = ctx->n;
  gsize left = n;
  gsize e = ctx->backward ? (ctx->from + n - 1) % n : (ctx->from + 1) % n;
  guint cap = (guint) (n >> SEISMO_BLOCK_SHIFT) + 3;

  ctx->pieces = g_new (SearchPiece, cap);
  ctx->n_pieces = 0;
  while (left > 0)
    {
      gsize lo, hi, block = e >> SEISMO_BLOCK_SHIFT;

      if (!ctx->backward)
        {
          lo = e;
          hi = MIN (MIN (lo + left, n), (block + 1) << SEISMO_BLOCK_SHIFT);
          e = hi == n ? 0 : hi;
        }
      else
        {
          hi = e + 1;
          lo = MAX (block << SEISMO_BLOCK_SHIFT, hi - MIN (left, hi));
          e = lo == 0 ? n - 1 : lo - 1;
        }
      left -= hi - lo;
      g_assert (ctx->n_pieces < cap);
      ctx->pieces[ctx->n_pieces++] = (SearchPiece) { lo, hi, SEISMO_NO_EVENT };
    }
}

/* Each piece is taken by the next free thread (_seismo_file_parallel_for hands them out in turn),
 * so a thread that runs slower (a busier stretch of the trace, a core shared with another program,
 * a pause for the window's frames) takes fewer. A piece past the first one with a match so far is
 * not looked through: that match wins whatever a later piece holds. Each thread keeps its own
 * text buffer and caches. */
typedef struct {
  SearchContext *ctx;
  ThreadState    states[16];  /* by worker */
} SearchRun;

static void
search_piece (guint    i,
              guint    worker,
              gpointer data)
{
  SearchRun *run = data;
  SearchContext *ctx = run->ctx;
  ThreadState *ts = &run->states[worker];
  SearchPiece *piece = &ctx->pieces[i];
  gint seen;

  if ((gint) i > g_atomic_int_get (&ctx->first_found) || g_cancellable_is_cancelled (ctx->cancellable))
    return;
  if (ts->buf == NULL)
    {
      ts->buf = g_string_new (NULL);
      ts->caches = g_new0 (guint8, (gsize) MAX (ctx->n_slots, 1) * CACHE_SIZE);
    }
  piece->found = search_block (ctx, ts, piece->lo, piece->hi);
  if (piece->found == SEISMO_NO_EVENT)
    return;
  seen = g_atomic_int_get (&ctx->first_found);
  while (seen > (gint) i && !g_atomic_int_compare_and_exchange (&ctx->first_found, seen, (gint) i))
    seen = g_atomic_int_get (&ctx->first_found);
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

/* v (below 2^56) as the bytes of a varint hold it, seven bits to a byte and no high bits. */
static guint64
spread_bits (guint64 v)
{
  guint64 x = 0;

  for (guint i = 0; i < 8; i++)
    x |= ((v >> (7 * i)) & 0x7f) << (8 * i);
  return x;
}

/* The needle's windows for hex_elements(). Window s holds the needle at hex digit s from the
 * right; the needle's first nibble being set, it lies within the value's digits when it matches,
 * and it can only match a value of k bytes (below 2^(7k)) when 4 (digits - 1 + s) < 7k. Such a
 * window ends at bit 4 (digits + s) <= 56, within 8 bytes of a varint. */
static void
plan_windows (SearchContext *ctx)
{
  guint digits = ctx->needle_len;

  for (guint s = 0; s + digits <= 16; s++)
    {
      /* Windows past 56 bits are never looked at; they could not match. */
      ctx->window_mask[s] = 4 * (digits + s) <= 56 ? spread_bits (ctx->hex_mask << (4 * s)) : 0;
      ctx->window_value[s] = 4 * (digits + s) <= 56 ? spread_bits (ctx->hex_value << (4 * s)) : 1;
    }
  for (guint k = 0; k <= 8; k++)
    {
      guint n = 0;

      while (n + digits <= 16 && 4 * (digits - 1 + n) < 7 * k)
        n++;
      ctx->window_count[k] = n;
    }
  ctx->few_windows = ctx->window_count[8] <= SEARCH_FEW_WINDOWS;
  for (guint k = 0; k <= 8; k++)
    for (guint s = 0; s < SEARCH_FEW_WINDOWS; s++)
      {
        gboolean real = s < ctx->window_count[k];

        ctx->len_mask[k][s] = real ? ctx->window_mask[s] : 0;
        ctx->len_value[k][s] = real ? ctx->window_value[s] : 1;
      }
}

/* The fewest varint bytes that can hold a value of at least min: k bytes hold values below 2^(7k). */
static guint
varint_len_for (guint64 min)
{
  guint k = 1;

  while (7 * k < 64 && (G_GUINT64_CONSTANT (1) << (7 * k)) <= min)
    k++;
  return k;
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
  /* Reading the events is the cost: the search runs on every core. */
  guint n_threads = CLAMP (g_get_num_processors (), 1, 16);
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
  ctx.first_found = G_MAXINT;
  if (ctx.n == 0)
    return SEISMO_NO_EVENT;
  ctx.from = MIN (from, (SeismoEventId) (ctx.n - 1));
  ctx.readable = trace->payload + trace->payload_len;
  ctx.lower_needle = g_ascii_strdown (needle, -1);
  ctx.min_decimal = smallest_with_digits (10, ctx.needle_len);
  ctx.min_hex = smallest_with_digits (16, ctx.needle_len);
  ctx.min_hex_0x = smallest_with_digits (16, ctx.needle_len > 2 ? ctx.needle_len - 2 : 0);
  ctx.long_decimal = varint_len_for (ctx.min_decimal);
  ctx.long_hex = varint_len_for (ctx.min_hex);
  ctx.hex_needle = ctx.needle_len >= 2 && ctx.needle_len <= 16
                   && strspn (ctx.lower_needle, "0123456789abcdef") == ctx.needle_len;
  if (ctx.hex_needle)
    {
      ctx.hex_mask = ctx.needle_len >= 16 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (4 * ctx.needle_len)) - 1;
      ctx.hex_value = g_ascii_strtoull (ctx.lower_needle, NULL, 16);
      ctx.hex_spread = ctx.lower_needle[0] != '0';
      plan_windows (&ctx);
    }
  if (!_seismo_search_plan (&ctx, (flags & SEISMO_SEARCH_FORMAT_TEXT) != 0))
    n_threads = 0;
  else if (ctx.n < 1024)
    n_threads = 1;
  if (n_threads > 0)
    {
      SearchRun run = { &ctx };

      cut_pieces (&ctx);
      _seismo_file_parallel_for (ctx.n_pieces, n_threads, search_piece, &run);
      if (ctx.first_found != G_MAXINT)
        found = ctx.pieces[ctx.first_found].found;
      for (guint w = 0; w < G_N_ELEMENTS (run.states); w++)
        if (run.states[w].buf != NULL)
          {
            g_string_free (run.states[w].buf, TRUE);
            g_free (run.states[w].caches);
          }
      g_free (ctx.pieces);
    }

  _seismo_search_plan_clear (&ctx);
  g_free (ctx.lower_needle);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return SEISMO_NO_EVENT;
  if (found != SEISMO_NO_EVENT && wrapped != NULL)
    *wrapped = ctx.backward ? found >= ctx.from : found <= ctx.from;
  return found;
}

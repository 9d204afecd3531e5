/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-filter"

#include <string.h>

#include "seismo-filter-private.h"
#include "seismo-syscalls.h"
#include "seismo-varint.h"
#include "seismo-work-priority.h"

/*
 * Evaluation: the tree is evaluated a chunk of events at a time into bit words, one leaf over the
 * whole chunk before the next, so each leaf's loop is a tight pass over one or two columns. AND and
 * OR hand their later children a "care" mask of the events whose result is still open, and the
 * slow leaves (payload decoding) only look at those. Nothing is allocated per event: each thread
 * has one scratch block for the chunk, sized by the tree's height.
 */

/* 4096 events per chunk: the result and scratch words of a chunk stay in the L1 cache. */
#define CHUNK_WORDS 64

/* How many spans ahead prepare_spans() fetches exit events. */
#define SPAN_PREFETCH 16

/* Below this many events per thread another thread costs more than it saves. */
#define MIN_EVENTS_PER_THREAD (1u << 18)

typedef struct {
  SeismoFilter       *filter;
  SeismoTrace        *trace;
  gsize               n_events;
  guint               n_strings;
  const guint16      *cpu;
  const guint16      *type;
  const SeismoTaskId *task;
  const guint64      *ts;
} Ctx;

static inline gboolean
test_bit (const guint64 *bits,
          gsize          i)
{
  return (bits[i >> 6] >> (i & 63)) & 1;
}

static inline void
set_bit (guint64 *bits,
         gsize    i)
{
  bits[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
}

static void
ctx_init (Ctx          *ctx,
          SeismoFilter *filter)
{
  SeismoTrace *trace = filter->trace;

  ctx->filter = filter;
  ctx->trace = trace;
  ctx->n_events = trace->n_events;
  ctx->n_strings = trace->n_strings;
  ctx->cpu = trace->cpu;
  ctx->type = trace->type;
  ctx->task = trace->task;
  ctx->ts = trace->ts;
}

/* The value of a rule's field in event i (signed fields biased, strings as their id). FALSE when
 * the payload is cut short. */
static inline gboolean
payload_value (SeismoTrace    *trace,
               gsize           i,
               const TypeRule *rule,
               guint64        *out)
{
  gsize len;
  const guint8 *p = _seismo_trace_payload (trace, i, &len);
  const guint8 *end = p + len;
  guint64 v;

  if (rule->plain)
    {
      for (guint f = 0; f < rule->field; f++)
        {
          while (p < end && (*p & 0x80))
            p++;
          if (p++ >= end)
            return FALSE;
        }
    }
  else
    {
      const SeismoEventType *type = g_ptr_array_index (trace->event_types, trace->type[i]);

      for (guint f = 0; f < rule->field; f++)
        {
          if (!(p = seismo_varint_get (p, end, &v)))
            return FALSE;
          if (type->fields[f].type == SEISMO_FIELD_BYTES)
            {
              if (v > (guint64) (end - p))
                return FALSE;
              p += v;
            }
          else if (type->fields[f].type == SEISMO_FIELD_UINT_ARRAY)
            {
              guint64 elem;

              for (guint64 k = 0; k < v; k++)
                if (!(p = seismo_varint_get (p, end, &elem)))
                  return FALSE;
            }
        }
    }
  if (!(p = seismo_varint_get (p, end, &v)))
    return FALSE;
  if (rule->field_type == SEISMO_FIELD_INT)
    v = (guint64) seismo_zigzag_decode (v) ^ FILTER_SIGN_BIAS;
  *out = v;
  return TRUE;
}

/* The comm test of a renamed task at time t: its last comm change at or before t, else its
 * first. */
static gboolean
comm_segment_bit (const SeismoFilter *f,
                  const FilterLeaf   *leaf,
                  SeismoTaskId        task,
                  guint64             t)
{
  guint lo = f->seg_off[task], a = lo, b = f->seg_off[task + 1];

  while (a < b)
    {
      guint mid = a + (b - a) / 2;

      if (f->seg_time[mid] <= t)
        a = mid + 1;
      else
        b = mid;
    }
  return leaf->seg_bits[a > lo ? a - 1 : lo];
}

static inline gboolean
type_rule_eval (const Ctx        *ctx,
                const FilterLeaf *leaf,
                gsize             i)
{
  const TypeRule *rule = &leaf->rules[ctx->type[i]];
  guint64 v;

  switch (rule->mode)
    {
    case RULE_TRUE:
      return TRUE;
    case RULE_NUMBER:
      return payload_value (ctx->trace, i, rule, &v) && num_range_match (&rule->range, v);
    case RULE_STRING:
      return payload_value (ctx->trace, i, rule, &v) && v < ctx->n_strings &&
             test_bit (leaf->string_bits, v);
    case RULE_SPAN:
      return test_bit (leaf->span_mask, i);
    case RULE_FALSE:
    default:
      return FALSE;
    }
}

static gboolean
leaf_eval1 (const Ctx        *ctx,
            const FilterLeaf *leaf,
            gsize             i)
{
  switch (leaf->kind)
    {
    case LEAF_TIME:
      return (i >= leaf->time_first && i < leaf->time_last) != leaf->negate;
    case LEAF_CPU:
      return num_range_match (&leaf->range, ctx->cpu[i]);
    case LEAF_TASK:
      {
        guint8 v = leaf->task_table[ctx->task[i]];

        return v == 2 ? comm_segment_bit (ctx->filter, leaf, ctx->task[i], ctx->ts[i]) : v;
      }
    case LEAF_STACK:
      {
        const guint32 *stack_of = ctx->trace->stack_of;

        return stack_of != NULL && stack_of[i] < leaf->n_stack_table && leaf->stack_table[stack_of[i]];
      }
    case LEAF_TYPE:
    default:
      return type_rule_eval (ctx, leaf, i);
    }
}

static gboolean
node_eval1 (const Ctx        *ctx,
            const FilterNode *node,
            gsize             i)
{
  switch (node->kind)
    {
    case NODE_FALSE:
      return FALSE;
    case NODE_TRUE:
      return TRUE;
    case NODE_LEAF:
      return leaf_eval1 (ctx, node->leaf, i);
    case NODE_NOT:
      return !node_eval1 (ctx, node->children[0], i);
    case NODE_AND:
      for (guint k = 0; k < node->n_children; k++)
        if (!node_eval1 (ctx, node->children[k], i))
          return FALSE;
      return TRUE;
    case NODE_OR:
    default:
      for (guint k = 0; k < node->n_children; k++)
        if (node_eval1 (ctx, node->children[k], i))
          return TRUE;
      return FALSE;
    }
}

/* Bits of word w that fall in [first, last). */
static inline guint64
range_bits (gsize w,
            gsize first,
            gsize last)
{
  gsize i0 = w * 64, lo, hi;

  if (last <= i0 || first >= i0 + 64)
    return 0;
  lo = first > i0 ? first - i0 : 0;
  hi = last < i0 + 64 ? last - i0 : 64;
  return (hi - lo == 64 ? G_MAXUINT64 : ((G_GUINT64_CONSTANT (1) << (hi - lo)) - 1)) << lo;
}

/* Evaluates a leaf for words [w0, w0 + nw). Bits outside care may hold anything. */
static void
leaf_words (const Ctx        *ctx,
            const FilterLeaf *leaf,
            gsize             w0,
            guint             nw,
            const guint64    *care,
            guint64          *out)
{
  gsize n = ctx->n_events;

  switch (leaf->kind)
    {
    case LEAF_TIME:
      for (guint w = 0; w < nw; w++)
        {
          guint64 bits = range_bits (w0 + w, leaf->time_first, leaf->time_last);

          out[w] = leaf->negate ? ~bits : bits;
        }
      break;

    case LEAF_CPU:
      {
        guint64 lo = leaf->range.lo, width = leaf->range.width;
        guint64 flip = leaf->range.negate ? G_MAXUINT64 : 0;

        for (guint w = 0; w < nw; w++)
          {
            gsize i0 = (w0 + w) * 64;
            const guint16 *c = ctx->cpu + i0;
            guint cnt = (guint) MIN (64, n - i0);
            guint64 bits = 0;

            if (cnt == 64)
              for (guint j = 0; j < 64; j++)
                bits |= (guint64) (((guint64) c[j] - lo) <= width) << j;
            else
              for (guint j = 0; j < cnt; j++)
                bits |= (guint64) (((guint64) c[j] - lo) <= width) << j;
            out[w] = bits ^ flip;
          }
        break;
      }

    case LEAF_TASK:
      {
        const guint8 *table = leaf->task_table;

        for (guint w = 0; w < nw; w++)
          {
            gsize i0 = (w0 + w) * 64;
            const SeismoTaskId *t = ctx->task + i0;
            guint cnt = (guint) MIN (64, n - i0);
            guint64 bits = 0;

            for (guint j = 0; j < cnt; j++)
              {
                guint64 v = table[t[j]];

                if (G_UNLIKELY (v == 2))
                  v = comm_segment_bit (ctx->filter, leaf, t[j], ctx->ts[i0 + j]);
                bits |= v << j;
              }
            out[w] = bits;
          }
        break;
      }

    case LEAF_STACK:
      {
        const guint32 *stack_of = ctx->trace->stack_of;

        for (guint w = 0; w < nw; w++)
          {
            gsize i0 = (w0 + w) * 64;
            guint cnt = (guint) MIN (64, n - i0);
            guint64 bits = 0;

            for (guint j = 0; stack_of != NULL && j < cnt; j++)
              {
                guint32 s = stack_of[i0 + j];

                bits |= (guint64) (s < leaf->n_stack_table && leaf->stack_table[s]) << j;
              }
            out[w] = bits;
          }
        break;
      }

    case LEAF_TYPE:
    default:
      {
        const guint8 *table = leaf->type_table;

        guint64 todo[CHUNK_WORDS];

        if (leaf->span_only)
          {
            memcpy (out, leaf->span_mask + w0, nw * sizeof (guint64));
            break;
          }
        /* Constant bits from the type table; the events to look at (table value 2) in todo. */
        for (guint w = 0; w < nw; w++)
          {
            gsize i0 = (w0 + w) * 64;
            const guint16 *ty = ctx->type + i0;
            guint cnt = (guint) MIN (64, n - i0);
            guint64 bits = 0, look = 0;

            for (guint j = 0; j < cnt; j++)
              {
                guint64 v = table[ty[j]];

                bits |= (v & 1) << j;
                look |= (v >> 1) << j;
              }
            out[w] = bits;
            todo[w] = look & care[w];
          }
        if (leaf->table_only)
          break;
        /* Payload reads miss the cache: fetch the next word's payloads while deciding this
         * one's. */
        for (guint w = 0; w < nw; w++)
          {
            gsize i0 = (w0 + w) * 64;

            if (w + 1 < nw)
              for (guint64 t = todo[w + 1]; t; t &= t - 1)
                {
                  gsize i = i0 + 64 + __builtin_ctzll (t);

                  const SeismoTrace *tr = ctx->trace;

                  __builtin_prefetch (tr->payload + tr->block_base[i >> SEISMO_BLOCK_SHIFT] +
                                      tr->payload_off[i]);
                }
            for (guint64 t = todo[w]; t; t &= t - 1)
              {
                guint j = __builtin_ctzll (t);

                if (type_rule_eval (ctx, leaf, i0 + j))
                  out[w] |= G_GUINT64_CONSTANT (1) << j;
              }
          }
        break;
      }
    }
}

/* Evaluates node for words [w0, w0 + nw) into out; only bits in care are meaningful. scratch holds
 * 2 * CHUNK_WORDS words per level below node. */
static void
node_words (const Ctx        *ctx,
            const FilterNode *node,
            gsize             w0,
            guint             nw,
            const guint64    *care,
            guint64          *out,
            guint64          *scratch)
{
  switch (node->kind)
    {
    case NODE_FALSE:
      memset (out, 0, nw * sizeof (guint64));
      break;
    case NODE_TRUE:
      memset (out, 0xff, nw * sizeof (guint64));
      break;
    case NODE_LEAF:
      leaf_words (ctx, node->leaf, w0, nw, care, out);
      break;
    case NODE_NOT:
      node_words (ctx, node->children[0], w0, nw, care, out, scratch);
      for (guint w = 0; w < nw; w++)
        out[w] = ~out[w];
      break;
    case NODE_AND:
    case NODE_OR:
    default:
      {
        gboolean is_and = node->kind == NODE_AND;
        guint64 *tmp = scratch, *sub_care = scratch + CHUNK_WORDS;
        guint64 *below = scratch + 2 * CHUNK_WORDS;

        node_words (ctx, node->children[0], w0, nw, care, out, below);
        for (guint k = 1; k < node->n_children; k++)
          {
            guint64 open = 0;

            /* Only events whose result the earlier children left open. */
            for (guint w = 0; w < nw; w++)
              open |= sub_care[w] = care[w] & (is_and ? out[w] : ~out[w]);
            if (open == 0)
              break;
            node_words (ctx, node->children[k], w0, nw, sub_care, tmp, below);
            if (is_and)
              for (guint w = 0; w < nw; w++)
                out[w] &= tmp[w];
            else
              for (guint w = 0; w < nw; w++)
                out[w] |= tmp[w];
          }
        break;
      }
    }
}

/* What threads take in turn (65536 events): a thread that runs slower takes fewer. */
#define PIECE_WORDS (16 * CHUNK_WORDS)

/* What every thread of one run shares. */
typedef struct {
  const Ctx    *ctx;
  gsize         w_begin;
  gsize         w_end;
  gsize         first;
  gsize         last;
  guint64      *mask;
  GCancellable *cancellable;
  gint          next_piece;
} Run;

/* One thread's share of a run: the events it found. */
typedef struct {
  Run   *run;
  gsize  matched;
} Part;

static gpointer
run_part (gpointer data)
{
  Part *part = data;
  Run *run = part->run;
  const Ctx *ctx = run->ctx;
  const FilterNode *root = ctx->filter->root;
  g_autofree guint64 *buf = g_new (guint64, CHUNK_WORDS * (2 + 2 * (gsize) ctx->filter->height));
  guint64 *out = buf, *care = buf + CHUNK_WORDS, *scratch = buf + 2 * CHUNK_WORDS;

  seismo_work_priority_enter ();

  for (;;)
    {
      gsize piece_begin, piece_end;

      seismo_work_priority_pause_point ();
      if (g_cancellable_is_cancelled (run->cancellable))
        break;
      piece_begin = run->w_begin + (gsize) g_atomic_int_add (&run->next_piece, 1) * PIECE_WORDS;
      if (piece_begin >= run->w_end)
        break;
      piece_end = MIN (piece_begin + PIECE_WORDS, run->w_end);
      for (gsize w = piece_begin; w < piece_end; w += CHUNK_WORDS)
        {
          guint nw = (guint) MIN (CHUNK_WORDS, piece_end - w);

          for (guint k = 0; k < nw; k++)
            care[k] = range_bits (w + k, run->first, run->last);
          node_words (ctx, root, w, nw, care, out, scratch);
          for (guint k = 0; k < nw; k++)
            {
              guint64 v = out[k] & care[k];

              run->mask[w + k] = (run->mask[w + k] & ~care[k]) | v;
              part->matched += __builtin_popcountll (v);
            }
        }
    }
  return NULL;
}

gboolean
seismo_filter_run_range (SeismoFilter  *self,
                         SeismoEventId  first,
                         SeismoEventId  last,
                         guint          n_threads,
                         guint64       *mask,
                         gsize         *n_matched,
                         GCancellable  *cancellable)
{
  Ctx ctx;
  Run run;
  gsize w_begin, w_end, n_words;
  g_autofree Part *parts = NULL;
  g_autofree GThread **threads = NULL;
  gsize matched = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (mask != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  ctx_init (&ctx, self);
  last = MIN (last, ctx.n_events);
  if (n_matched)
    *n_matched = 0;
  if (first >= last)
    return !g_cancellable_is_cancelled (cancellable);

  _seismo_filter_prepare (self);
  w_begin = first / 64;
  w_end = (last + 63) / 64;
  n_words = w_end - w_begin;
  if (n_threads == 0)
    {
      n_threads = CLAMP (g_get_num_processors (), 1, 8);
      n_threads = MIN (n_threads, MAX ((last - first) / MIN_EVENTS_PER_THREAD, 1));
    }
  n_threads = MIN (n_threads, (n_words + PIECE_WORDS - 1) / PIECE_WORDS);

  run = (Run) {
    .ctx = &ctx,
    .w_begin = w_begin,
    .w_end = w_end,
    .first = first,
    .last = last,
    .mask = mask,
    .cancellable = cancellable,
  };
  parts = g_new0 (Part, n_threads);
  threads = g_new0 (GThread *, n_threads);
  for (guint k = 0; k < n_threads; k++)
    parts[k].run = &run;
  for (guint k = 1; k < n_threads; k++)
    threads[k] = g_thread_new ("seismo-filter", run_part, &parts[k]);
  run_part (&parts[0]);
  for (guint k = 1; k < n_threads; k++)
    g_thread_join (threads[k]);
  for (guint k = 0; k < n_threads; k++)
    matched += parts[k].matched;

  if (n_matched)
    *n_matched = matched;
  /* A thread stops at a cancel; then the mask is partly filled, whatever another thread did. */
  return !g_cancellable_is_cancelled (cancellable);
}

guint64 *
seismo_filter_run (SeismoFilter *self,
                   gsize        *n_matched,
                   GCancellable *cancellable)
{
  gsize n;
  guint64 *mask;

  g_return_val_if_fail (self != NULL, NULL);

  n = seismo_trace_get_n_events (self->trace);
  mask = g_new0 (guint64, MAX (seismo_filter_mask_words (n), 1));
  if (!seismo_filter_run_range (self, 0, (SeismoEventId) n, 0, mask, n_matched, cancellable))
    {
      g_free (mask);
      if (n_matched)
        *n_matched = 0;
      return NULL;
    }
  return mask;
}

gboolean
seismo_filter_match (SeismoFilter  *self,
                     SeismoEventId  event)
{
  Ctx ctx;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event < seismo_trace_get_n_events (self->trace), FALSE);

  _seismo_filter_prepare (self);
  ctx_init (&ctx, self);
  return node_eval1 (&ctx, self->root, event);
}

/* ---- preparation ---- */

static void
prepare_strings (SeismoFilter *self,
                 FilterLeaf   *leaf)
{
  guint n = seismo_trace_get_n_strings (self->trace);

  leaf->string_bits = g_new0 (guint64, MAX (seismo_filter_mask_words (n), 1));
  for (guint id = 0; id < n; id++)
    if (_seismo_str_pred_match (&leaf->str, seismo_trace_get_string (self->trace, id)))
      set_bit (leaf->string_bits, id);
}

static gboolean
span_attr_match (const FilterLeaf *leaf,
                 gboolean          has_ret,
                 gint64            ret,
                 gboolean          has_duration,
                 guint64           duration)
{
  switch (leaf->span_attr)
    {
    case SPAN_DURATION:
      return has_duration && num_range_match (&leaf->range, duration);
    case SPAN_RET:
      return has_ret && num_range_match (&leaf->range, (guint64) ret ^ FILTER_SIGN_BIAS);
    case SPAN_ERRNO:
      {
        gint64 e = ret < 0 && ret >= -4095 ? -ret : 0;

        return has_ret && num_range_match (&leaf->range, (guint64) e ^ FILTER_SIGN_BIAS);
      }
    case SPAN_SYSCALL:
    default:
      return FALSE;
    }
}

/* The syscall name of an exit event no span pairs: from its type or its id field. */
static void
exit_syscall_name (SeismoTrace           *trace,
                   SeismoArch             arch,
                   const SeismoEventType *type,
                   SeismoEventId          ev,
                   char                  *buf,
                   gsize                  size)
{
  SeismoValue v;
  const char *name;
  gint64 nr;

  if (type->syscall)
    {
      g_strlcpy (buf, type->syscall, size);
      return;
    }
  nr = type->roles[SEISMO_ROLE_ID] >= 0 &&
       seismo_trace_event_field (trace, ev, type->roles[SEISMO_ROLE_ID], &v)
       ? (v.type == SEISMO_FIELD_INT ? v.i : (gint64) v.u) : -1;
  if ((name = seismo_syscall_name (arch, nr)))
    g_strlcpy (buf, name, size);
  else
    g_snprintf (buf, size, "syscall_%" G_GINT64_FORMAT, nr);
}

/* The return value of a syscall exit event, from its type's ret rule. */
static gboolean
exit_ret (SeismoTrace    *trace,
          const TypeRule *ret_rules,
          SeismoEventId   ev,
          gint64         *ret)
{
  const TypeRule *rule = &ret_rules[trace->type[ev]];
  guint64 v;

  if (rule->mode != RULE_NUMBER || !payload_value (trace, ev, rule, &v))
    return FALSE;
  *ret = rule->field_type == SEISMO_FIELD_INT ? (gint64) (v ^ FILTER_SIGN_BIAS) : (gint64) v;
  return TRUE;
}

/* Marks the enter and exit events of every syscall span that passes the leaf's test, then the exits
 * no span pairs (their enter was lost), judged from the exit event alone. */
static void
prepare_spans (SeismoFilter *self,
               FilterLeaf   *leaf)
{
  SeismoTrace *trace = self->trace;
  gsize n = seismo_trace_get_n_events (trace), n_spans;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  const guint64 *ts = seismo_trace_get_times (trace);
  const guint16 *types = seismo_trace_get_types (trace);
  const guint64 *counts = seismo_trace_get_type_counts (trace);
  guint n_types = seismo_trace_get_n_event_types (trace);
  g_autofree guint64 *covered = g_new0 (guint64, MAX (seismo_filter_mask_words (n), 1));
  g_autofree gboolean *is_exit = g_new0 (gboolean, MAX (n_types, 1));
  g_autofree TypeRule *ret_rules = g_new0 (TypeRule, MAX (n_types, 1));
  gboolean need_ret = leaf->span_attr == SPAN_RET || leaf->span_attr == SPAN_ERRNO;
  guint64 n_exits = 0, n_paired = 0;
  SeismoArch arch = seismo_arch_from_string (seismo_trace_get_metadata (trace, SEISMO_META_ARCH));

  /* Each exit type's ret field, read straight from the payload like a payload rule. */
  for (guint t = 0; t < n_types; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (trace, t);
      int idx = type->roles[SEISMO_ROLE_RET];

      if (type->kind != SEISMO_KIND_SYSCALL_EXIT)
        continue;
      is_exit[t] = TRUE;
      n_exits += counts[t];
      if (idx < 0 || type->fields[idx].type == SEISMO_FIELD_STRING ||
          type->fields[idx].type == SEISMO_FIELD_BYTES ||
          type->fields[idx].type == SEISMO_FIELD_UINT_ARRAY)
        continue;
      ret_rules[t].mode = RULE_NUMBER;
      ret_rules[t].field = (guint16) idx;
      ret_rules[t].field_type = type->fields[idx].type;
      ret_rules[t].plain = TRUE;
      for (int f = 0; f < idx; f++)
        ret_rules[t].plain &= type->fields[f].type != SEISMO_FIELD_BYTES &&
                              type->fields[f].type != SEISMO_FIELD_UINT_ARRAY;
    }

  leaf->span_mask = g_new0 (guint64, MAX (seismo_filter_mask_words (n), 1));
  for (gsize s = 0; s < n_spans; s++)
    {
      const SeismoSyscallSpan *span = &spans[s];
      gboolean finished = span->exit != SEISMO_NO_EVENT;
      gboolean m;

      /* A blocking call's exit is far from its enter: fetch its time and payload offset some
       * spans ahead, and its payload (which needs the offset) half as far. */
      if (s + 2 * SPAN_PREFETCH < n_spans && spans[s + 2 * SPAN_PREFETCH].exit != SEISMO_NO_EVENT)
        {
          SeismoEventId ahead = spans[s + 2 * SPAN_PREFETCH].exit;

          __builtin_prefetch (&ts[ahead]);
          if (need_ret)
            __builtin_prefetch (&trace->payload_off[ahead]);
        }
      if (need_ret && s + SPAN_PREFETCH < n_spans &&
          spans[s + SPAN_PREFETCH].exit != SEISMO_NO_EVENT)
        {
          SeismoEventId ahead = spans[s + SPAN_PREFETCH].exit;

          __builtin_prefetch (trace->payload + trace->block_base[ahead >> SEISMO_BLOCK_SHIFT] +
                              trace->payload_off[ahead]);
        }
      set_bit (covered, span->enter);
      if (finished)
        {
          set_bit (covered, span->exit);
          n_paired++;
        }
      if (leaf->span_attr == SPAN_SYSCALL)
        m = test_bit (leaf->syscall_bits, span->syscall);
      else
        {
          gint64 ret = 0;
          gboolean has_ret = need_ret && finished && exit_ret (trace, ret_rules, span->exit, &ret);

          m = span_attr_match (leaf, has_ret, ret, finished,
                               finished ? ts[span->exit] - ts[span->enter] : 0);
        }
      if (m)
        {
          set_bit (leaf->span_mask, span->enter);
          if (finished)
            set_bit (leaf->span_mask, span->exit);
        }
    }

  /* Unpaired exits are few and mostly at the start (calls in flight when recording began), so
   * the scan stops once it has seen as many as there are. */
  for (gsize i = 0, left = n_exits - n_paired; left > 0 && i < n; i++)
    if (is_exit[types[i]] && !test_bit (covered, i))
      {
        const SeismoEventType *type = seismo_trace_get_event_type (trace, types[i]);
        gboolean m;

        left--;
        if (leaf->span_attr == SPAN_SYSCALL)
          {
            char name[64];

            exit_syscall_name (trace, arch, type, (SeismoEventId) i, name, sizeof name);
            m = _seismo_str_pred_match (&leaf->str, name);
          }
        else
          {
            gint64 ret = 0;
            gboolean has_ret = exit_ret (trace, ret_rules, (SeismoEventId) i, &ret);

            m = span_attr_match (leaf, has_ret, ret, FALSE, 0);
          }
        if (m)
          set_bit (leaf->span_mask, i);
      }
}

static void
prepare_node (SeismoFilter *self,
              FilterNode   *node)
{
  if (node->kind == NODE_LEAF && node->leaf->kind == LEAF_TYPE)
    {
      if (node->leaf->has_strings && node->leaf->string_bits == NULL)
        prepare_strings (self, node->leaf);
      if (node->leaf->has_span && node->leaf->span_mask == NULL)
        prepare_spans (self, node->leaf);
    }
  for (guint k = 0; k < node->n_children; k++)
    prepare_node (self, node->children[k]);
}

void
_seismo_filter_prepare (SeismoFilter *self)
{
  if (g_atomic_int_get (&self->prepared))
    return;
  g_mutex_lock (&self->prepare_lock);
  if (!self->prepared)
    {
      prepare_node (self, self->root);
      g_atomic_int_set (&self->prepared, 1);
    }
  g_mutex_unlock (&self->prepare_lock);
}

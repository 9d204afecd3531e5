/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

#include <string.h>

#include "seismo-ftrace-text-private.h"
#include "seismo-tracepoints.h"

/*
 * The task state letters of sched_switch's prev_state, bit i for letter i. Kernels since 4.14 print
 * S D T t X Z P I and "+" for a preempted task (bit 8); older kernels also K W N x with another
 * layout. libtraceevent's sched_switch plugin (what trace-cmd report shows) prints its own fixed
 * table and no "+".
 */
static const char modern_states[] = "SDTtXZPI";
static const char legacy_states[] = "SDTtXZxKWPN";
static const char plugin_states[] = "SDTtZXxW";

/* Which of those tables a file's prev_state letters were read with, so that they show the same. */
enum {
  STATES_MODERN = 1 << 0,   /* P or I: only >= 4.14 has them at these bits */
  STATES_LEGACY = 1 << 1,   /* x K W N: < 4.14 */
  STATES_PLUGIN = 1 << 2,   /* trace-cmd's sched_switch plugin */
};

static const SeismoSymbol legacy_state_symbols[] = {
  { 0x1, "S" }, { 0x2, "D" }, { 0x4, "T" }, { 0x8, "t" }, { 0x10, "X" }, { 0x20, "Z" },
  { 0x40, "x" }, { 0x80, "K" }, { 0x100, "W" }, { 0x200, "P" }, { 0x400, "N" }, { 0x800, "+" },
};

static const SeismoSymbol plugin_state_symbols[] = {
  { 0x1, "S" }, { 0x2, "D" }, { 0x4, "T" }, { 0x8, "t" }, { 0x10, "Z" }, { 0x20, "X" },
  { 0x40, "x" }, { 0x80, "W" },
};

static guint
states_table_of (const char *s,
                 gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (memchr ("KWNx", s[i], 4) != NULL)
      return STATES_LEGACY;
  for (gsize i = 0; i < len; i++)
    if (s[i] == 'P' || s[i] == 'I')
      return STATES_MODERN;
  return 0;
}

static gboolean
parse_sched_state (const char *s,
                   gsize       len,
                   gboolean    plugin,
                   gint64     *out)
{
  const char *table = plugin ? plugin_states : modern_states;
  guint64 preempted = plugin ? 0 : 0x100;
  guint64 bits = 0;
  gsize i;

  if (len == 0)
    return FALSE;
  if (IS (s[0], C_DIGIT) || s[0] == '-')
    return ftt_parse_dec (s, len, out);

  for (i = 0; !plugin && i < len; i++)
    if (memchr ("KWNx", s[i], 4) != NULL)
      {
        table = legacy_states;
        preempted = 0x800;
      }

  for (i = 0; i < len; i++)
    {
      const char *hit;

      if (s[i] == '|' || s[i] == 'R')
        continue;
      if (s[i] == '+' && preempted)
        {
          bits |= preempted;
          continue;
        }
      if ((hit = memchr (table, s[i], strlen (table))) == NULL)
        return FALSE;
      bits |= G_GUINT64_CONSTANT (1) << (hit - table);
    }
  *out = (gint64) bits;
  return TRUE;
}

/* ---- payloads ------------------------------------------------------------------------------- */

/* At a space in a payload: does a new "key=" (or "==> key=") start after it? */
static gboolean
next_is_key (const char *p,
             const char *end)
{
  p = ftt_skip_spaces (p, end);
  if (end - p >= 4 && memcmp (p, "==> ", 4) == 0)
    return TRUE;
  if (p == end || !IS (*p, C_IDENT) || IS (*p, C_DIGIT))
    return FALSE;
  while (p < end && IS (*p, C_IDENT))
    p++;
  return p < end && *p == '=';
}

/*
 * Splits "a=1 b=some text c=3 ==> d=4" into key/value pairs. Values run until the next " key=", so
 * comms with spaces survive. Returns the number of pairs; *junk is set when text that is not a pair
 * came first or when pairs were left over.
 */
guint
ftt_split_kv (const char *p,
              const char *end,
              KeyValue   *kv,
              guint       max,
              gboolean   *junk)
{
  guint n = 0;

  *junk = FALSE;
  p = ftt_skip_spaces (p, end);
  while (p < end)
    {
      const char *k = p;
      const char *v;

      if (end - p >= 4 && memcmp (p, "==> ", 4) == 0)
        {
          p = ftt_skip_spaces (p + 4, end);
          continue;
        }
      while (p < end && IS (*p, C_IDENT))
        p++;
      if (p == k || p == end || *p != '=' || IS (*k, C_DIGIT))
        {
          /* Not a pair: skip to the next place a pair starts. */
          *junk = TRUE;
          while (p < end && !(IS (*p, C_SPACE) && next_is_key (p, end)))
            p++;
          p = ftt_skip_spaces (p, end);
          continue;
        }
      v = ++p;
      while (p < end && !(IS (*p, C_SPACE) && next_is_key (p, end)))
        p++;
      if (n == max)
        {
          *junk = TRUE;
          break;
        }
      kv[n].key = k;
      kv[n].key_len = (guint16) MIN (v - 1 - k, G_MAXUINT16);
      kv[n].val = v;
      kv[n].val_len = (guint16) MIN (ftt_rtrim (v, p) - v, G_MAXUINT16);
      kv[n].used = FALSE;
      n++;
      p = ftt_skip_spaces (p, end);
    }
  return n;
}

/* "394700 [ns]" → "394700", "9 [action=RCU]" → "9": the kernel's decorations after a number. */
gsize
ftt_number_len (const char *v,
                gsize       len)
{
  gsize i = 0;

  while (i < len && !IS (v[i], C_SPACE))
    i++;
  if (i < len)
    {
      const char *rest = ftt_skip_spaces (v + i, v + len);

      if (rest < v + len && *rest == '[' && v[len - 1] == ']')
        return i;
    }
  return len;
}

KeyValue *
ftt_kv_find (KeyValue   *kv,
             guint       n,
             guint       hint,
             const char *key,
             gsize       key_len)
{
  if (hint < n && kv[hint].key_len == key_len && memcmp (kv[hint].key, key, key_len) == 0)
    return &kv[hint];
  for (guint i = 0; i < n; i++)
    if (kv[i].key_len == key_len && memcmp (kv[i].key, key, key_len) == 0)
      return &kv[i];
  return NULL;
}

static KeyValue *
kv_get (KeyValue   *kv,
        guint       n,
        guint       hint,
        const char *key)
{
  KeyValue *hit = ftt_kv_find (kv, n, hint, key, strlen (key));

  if (hit)
    hit->used = TRUE;
  return hit;
}

static gint64
kv_int (KeyValue *kv)
{
  gint64 v = 0;

  if (kv && !ftt_parse_dec (kv->val, ftt_number_len (kv->val, kv->val_len), &v))
    v = 0;
  return v;
}

static void
push_str (Parser     *self,
          const char *s,
          gsize       len)
{
  CachedString *c;
  guint32 h = 2166136261u;

  if (len == 0 || len > STR_CACHE_LEN)
    {
      seismo_trace_builder_push_string_len (self->builder, s, len);
      return;
    }
  for (gsize i = 0; i < len; i++)
    h = (h ^ (guint8) s[i]) * 16777619u;
  c = &self->strings[h % N_STR_CACHE];
  if (c->len != len || memcmp (c->str, s, len) != 0)
    {
      c->id = seismo_trace_builder_intern_len (self->builder, s, len);
      c->len = (guint8) len;
      memcpy (c->str, s, len);
    }
  seismo_trace_builder_push_string_id (self->builder, c->id);
}

static void
push_kv_string (Parser   *self,
                KeyValue *kv)
{
  if (kv)
    push_str (self, kv->val, kv->val_len);
  else
    seismo_trace_builder_push_string_id (self->builder, 0);
}

/* "comm:pid [prio]" → comm, pid, prio (libtraceevent's sched plugin layout). */
static gboolean
split_comm_pid_prio (const char  *s,
                     const char  *end,
                     const char **comm,
                     gsize       *comm_len,
                     gint64      *pid,
                     gint64      *prio,
                     const char **after)
{
  const char *open = NULL, *close, *colon;

  s = ftt_skip_spaces (s, end);
  for (const char *q = s; q + 1 < end; q++)
    if (q[0] == ' ' && q[1] == '[')
      open = q;
  if (open == NULL)
    return FALSE;
  close = memchr (open, ']', end - open);
  if (close == NULL || !ftt_parse_dec (open + 2, close - (open + 2), prio))
    return FALSE;
  colon = open;
  while (colon > s && *colon != ':')
    colon--;
  if (*colon != ':' || !ftt_parse_dec (colon + 1, open - (colon + 1), pid))
    return FALSE;
  *comm = s;
  *comm_len = colon - s;
  *after = ftt_skip_spaces (close + 1, end);
  return TRUE;
}

static void
push_sched_switch (Parser     *self,
                   const char *p,
                   const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  const char *arrow = NULL;

  for (const char *q = p; q + 4 <= end; q++)
    if (q[0] == '=' && q[1] == '=' && q[2] == '>' && q[-1] == ' ')
      {
        arrow = q;
        break;
      }

  if (end - p >= 10 && memcmp (p, "prev_comm=", 10) == 0)
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);
      KeyValue *state;
      gint64 st = 0;

      push_kv_string (self, kv_get (kv, n, 0, "prev_comm"));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 1, "prev_pid")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 2, "prev_prio")));
      state = kv_get (kv, n, 3, "prev_state");
      if (state)
        {
          parse_sched_state (state->val, state->val_len, FALSE, &st);
          self->state_tables |= states_table_of (state->val, state->val_len);
        }
      seismo_trace_builder_push_int (b, st);
      push_kv_string (self, kv_get (kv, n, 4, "next_comm"));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 5, "next_pid")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 6, "next_prio")));
      return;
    }

  {
    const char *prev_comm = "", *next_comm = "", *after = end;
    gsize prev_len = 0, next_len = 0;
    gint64 prev_pid = 0, prev_prio = 0, next_pid = 0, next_prio = 0, st = 0;

    if (arrow)
      {
        if (split_comm_pid_prio (p, arrow - 1, &prev_comm, &prev_len, &prev_pid, &prev_prio,
                                 &after))
          {
            const char *se = ftt_rtrim (after, arrow);

            parse_sched_state (after, se - after, TRUE, &st);
            self->state_tables |= STATES_PLUGIN;
          }
        split_comm_pid_prio (arrow + 3, end, &next_comm, &next_len, &next_pid, &next_prio,
                             &after);
      }
    push_str (self, prev_comm, prev_len);
    seismo_trace_builder_push_int (b, prev_pid);
    seismo_trace_builder_push_int (b, prev_prio);
    seismo_trace_builder_push_int (b, st);
    push_str (self, next_comm, next_len);
    seismo_trace_builder_push_int (b, next_pid);
    seismo_trace_builder_push_int (b, next_prio);
  }
}

G_ALWAYS_INLINE static inline void
push_sched_wakeup (Parser     *self,
                   const char *p,
                   const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  const char *comm = "", *after = end;
  gsize comm_len = 0;
  gint64 pid = 0, prio = 0, cpu = 0;

  if (end - p >= 5 && memcmp (p, "comm=", 5) == 0)
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);

      push_kv_string (self, kv_get (kv, n, 0, "comm"));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 1, "pid")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 2, "prio")));
      seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 3, "target_cpu")));
      return;
    }

  /* "comm:pid [prio] CPU:001", older plugins "… success=1 CPU:001". */
  if (split_comm_pid_prio (p, end, &comm, &comm_len, &pid, &prio, &after))
    {
      const char *c = NULL;

      for (const char *q = after; q + 4 <= end; q++)
        if (memcmp (q, "CPU:", 4) == 0)
          c = q + 4;
      if (c && !ftt_parse_dec (c, end - c, &cpu))
        cpu = 0;
    }
  push_str (self, comm, comm_len);
  seismo_trace_builder_push_int (b, pid);
  seismo_trace_builder_push_int (b, prio);
  seismo_trace_builder_push_int (b, cpu);
}

static void
push_sched_fork (Parser     *self,
                 const char *p,
                 const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  KeyValue kv[MAX_KV];
  KeyValue *hit;
  gboolean junk;
  guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);

  /* The kernel prints the parent as comm=/pid=, trace-cmd -R as parent_comm=/parent_pid=. */
  hit = kv_get (kv, n, 0, "comm");
  push_kv_string (self, hit ? hit : kv_get (kv, n, 0, "parent_comm"));
  hit = kv_get (kv, n, 1, "pid");
  seismo_trace_builder_push_int (b, kv_int (hit ? hit : kv_get (kv, n, 1, "parent_pid")));
  push_kv_string (self, kv_get (kv, n, 2, "child_comm"));
  seismo_trace_builder_push_int (b, kv_int (kv_get (kv, n, 3, "child_pid")));
}

/* trace-cmd -R prints arrays as the raw bytes: "ARRAY[0b, 00, …]"; the args are 8-byte words. */
static guint
bytes_array_to_words (const char *p,
                      const char *end,
                      guint64    *out,
                      guint       max)
{
  guint64 word = 0;
  guint nb = 0, n = 0;

  while (p < end && n < max)
    {
      const char *q;
      guint64 byte;

      p = ftt_skip_spaces (p, end);
      q = p;
      while (q < end && IS (*q, C_HEX))
        q++;
      if (q == p || !ftt_parse_hex (p, q - p, &byte))
        break;
      word |= (byte & 0xff) << (8 * nb);
      if (++nb == 8)
        {
          out[n++] = word;
          word = 0;
          nb = 0;
        }
      p = q;
      while (p < end && (*p == ',' || IS (*p, C_SPACE)))
        p++;
    }
  return n;
}

/* "NR 1 (3, 7ffe994b6d80, c, 0, 0, 0)" or, from trace-cmd -R, "id=1 args=ARRAY[…]". */
static void
push_raw_sys_enter (Parser         *self,
                    const LineHead *head,
                    const char     *p,
                    const char     *end)
{
  SeismoTraceBuilder *b = self->builder;
  guint64 args[MAX_ARGS];
  guint n_args = 0;
  gint64 id = -1;

  if (end - p >= 3 && memcmp (p, "NR ", 3) == 0)
    {
      const char *q = p + 3;
      const char *ne = q;

      while (ne < end && (IS (*ne, C_DIGIT) || *ne == '-'))
        ne++;
      if (!ftt_parse_dec (q, ne - q, &id))
        id = -1;
      q = ftt_skip_spaces (ne, end);
      if (q < end && *q == '(')
        {
          const char *close = end;

          while (close > q && close[-1] != ')')
            close--;
          if (close > q)
            close--;
          for (q++; q < close && n_args < MAX_ARGS;)
            {
              const char *ae;
              guint64 v;

              q = ftt_skip_spaces (q, close);
              ae = q;
              while (ae < close && IS (*ae, C_HEX))
                ae++;
              if (!ftt_parse_hex (q, ae - q, &v))
                v = 0;
              args[n_args++] = v;
              while (ae < close && *ae != ',')
                ae++;
              q = ae + 1;
            }
        }
    }
  else
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);
      KeyValue *arr = kv_get (kv, n, 1, "args");

      id = kv_int (kv_get (kv, n, 0, "id"));
      if (arr && arr->val_len > 6 && memcmp (arr->val, "ARRAY[", 6) == 0)
        n_args = bytes_array_to_words (arr->val + 6, arr->val + arr->val_len - 1, args,
                                       MAX_ARGS);
    }
  seismo_trace_builder_push_uint (b, (guint64) id);
  seismo_trace_builder_push_uint_array (b, args, n_args);
  seismo_arch_votes_raw (self->arch_votes, head->cpu, head->ts, id, args, n_args);
}

G_ALWAYS_INLINE static inline void
push_raw_sys_exit (Parser     *self,
                   const char *p,
                   const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  gint64 id = -1, ret = 0;

  if (end - p >= 3 && memcmp (p, "NR ", 3) == 0)
    {
      const char *q = p + 3;
      const char *ne = q;
      const char *eq;

      while (ne < end && (IS (*ne, C_DIGIT) || *ne == '-'))
        ne++;
      if (!ftt_parse_dec (q, ne - q, &id))
        id = -1;
      eq = memchr (ne, '=', end - ne);
      if (eq)
        {
          q = ftt_skip_spaces (eq + 1, end);
          if (!ftt_parse_dec (q, ftt_rtrim (q, end) - q, &ret))
            ret = 0;
        }
    }
  else
    {
      KeyValue kv[MAX_KV];
      gboolean junk;
      guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);

      id = kv_int (kv_get (kv, n, 0, "id"));
      ret = kv_int (kv_get (kv, n, 1, "ret"));
    }
  seismo_trace_builder_push_uint (b, (guint64) id);
  seismo_trace_builder_push_int (b, ret);
}

/*
 * Syscall arguments: "dfd: 0xffffff9c, filename: 0x7ffd…" (hex, trace-cmd and the kernel), or
 * "__syscall_nr=257 dfd=4294967196 …" (trace-cmd -R, decimal). Returns the number of pairs.
 */
guint
ftt_split_syscall_args (const char *p,
                        const char *end,
                        KeyValue   *kv,
                        guint       max,
                        gboolean   *decimal)
{
  guint n = 0;

  *decimal = FALSE;
  p = ftt_skip_spaces (p, end);
  {
    const char *k = p;

    while (k < end && IS (*k, C_IDENT))
      k++;
    if (k < end && *k == '=')
      {
        gboolean junk;

        *decimal = TRUE;
        return ftt_split_kv (p, end, kv, max, &junk);
      }
  }

  while (p < end && n < max)
    {
      const char *k = p, *ke, *v, *ve;

      while (p < end && IS (*p, C_IDENT))
        p++;
      ke = p;
      if (ke == k || end - p < 2 || p[0] != ':' || p[1] != ' ')
        break;
      v = ftt_skip_spaces (p + 1, end);
      ve = v;
      while (ve < end && *ve != ',')
        ve++;
      kv[n].key = k;
      kv[n].key_len = (guint16) MIN (ke - k, G_MAXUINT16);
      kv[n].val = v;
      kv[n].val_len = (guint16) MIN (ftt_rtrim (v, ve) - v, G_MAXUINT16);
      kv[n].used = FALSE;
      n++;
      p = ve < end ? ftt_skip_spaces (ve + 1, end) : end;
    }
  return n;
}

static void
push_syscall_enter (Parser     *self,
                    EventInfo  *info,
                    const char *p,
                    const char *end)
{
  KeyValue kv[MAX_KV];
  gboolean decimal;
  guint n = ftt_split_syscall_args (p, end, kv, MAX_KV, &decimal);

  for (guint i = 0; i < info->n_fields; i++)
    {
      const TextField *f = &info->fields[i];
      KeyValue *hit = ftt_kv_find (kv, n, i, f->name, f->name_len);
      guint64 u = 0;
      gint64 d = 0;

      if (hit)
        {
          if (decimal && !ftt_is_hex_prefixed (hit->val, hit->val_len))
            {
              if (ftt_parse_dec (hit->val, hit->val_len, &d))
                u = (guint64) d;
            }
          else if (!ftt_parse_hex (hit->val, hit->val_len, &u))
            u = 0;
        }
      if (f->kind == VALUE_FD)
        seismo_trace_builder_push_int (self->builder, ftt_fd_from_hex (u));
      else if (f->kind == VALUE_INT)
        seismo_trace_builder_push_int (self->builder, (gint64) u);
      else
        seismo_trace_builder_push_uint (self->builder, u);
    }
}

static void
push_syscall_exit (Parser     *self,
                   const char *p,
                   const char *end)
{
  const char *e = ftt_rtrim (p, end);
  const char *r;
  gint64 ret = 0;
  guint64 u;

  /* trace-cmd -R: "__syscall_nr=257 ret=3". */
  for (r = p; r + 4 <= e; r++)
    if (memcmp (r, "ret=", 4) == 0 && (r == p || r[-1] == ' '))
      {
        r += 4;
        if (!ftt_parse_dec (r, e - r, &ret))
          ret = 0;
        seismo_trace_builder_push_int (self->builder, ret);
        return;
      }
  if (ftt_parse_hex (p, e - p, &u))
    ret = (gint64) u;
  else if (!ftt_parse_dec (p, e - p, &ret))
    ret = 0;
  seismo_trace_builder_push_int (self->builder, ret);
}

G_ALWAYS_INLINE static inline void
push_irq_entry (Parser     *self,
                const char *p,
                const char *end)
{
  KeyValue kv[MAX_KV];
  gboolean junk;
  guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);

  seismo_trace_builder_push_int (self->builder, kv_int (kv_get (kv, n, 0, "irq")));
  push_kv_string (self, kv_get (kv, n, 1, "name"));
}

G_ALWAYS_INLINE static inline void
push_irq_exit (Parser     *self,
               const char *p,
               const char *end)
{
  KeyValue kv[MAX_KV];
  KeyValue *ret;
  gboolean junk;
  guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);
  gint64 r = 0;

  seismo_trace_builder_push_int (self->builder, kv_int (kv_get (kv, n, 0, "irq")));
  ret = kv_get (kv, n, 1, "ret");
  if (ret)
    {
      if (ret->val_len == 7 && memcmp (ret->val, "handled", 7) == 0)
        r = 1;
      else if (!ftt_parse_dec (ret->val, ret->val_len, &r))
        r = 0;
    }
  seismo_trace_builder_push_int (self->builder, r);
}

G_ALWAYS_INLINE static inline void
push_softirq (Parser     *self,
              const char *p,
              const char *end)
{
  KeyValue kv[MAX_KV];
  gboolean junk;
  guint n = ftt_split_kv (p, end, kv, MAX_KV, &junk);

  seismo_trace_builder_push_uint (self->builder, (guint64) kv_int (kv_get (kv, n, 0, "vec")));
}

/* "do_sys_open <-__x64_sys_openat" (kernel) or "do_sys_open <-- __x64_sys_openat" (trace-cmd). */
static void
push_function (Parser     *self,
               const char *p,
               const char *end)
{
  const char *arrow = NULL;

  for (const char *q = p; q + 2 <= end; q++)
    if (q[0] == '<' && q[1] == '-')
      {
        arrow = q;
        break;
      }
  if (arrow == NULL)
    {
      push_str (self, p, ftt_rtrim (p, end) - p);
      seismo_trace_builder_push_string_id (self->builder, 0);
      return;
    }
  push_str (self, p, ftt_rtrim (p, arrow) - p);
  arrow += 2;
  while (arrow < end && *arrow == '-')
    arrow++;
  arrow = ftt_skip_spaces (arrow, end);
  push_str (self, arrow, ftt_rtrim (arrow, end) - arrow);
}

/*
 * tracefs prints trace_marker writes as "tracing_mark_write: hello"; trace-cmd prints the print,
 * bprint and bputs events as "print: tracing_mark_write: hello" or "bprint: my_func: value 42".
 */
static void
push_print (Parser     *self,
            const char *name,
            gsize       name_len,
            const char *p,
            const char *end)
{
  const char *q = p;

  if ((name_len == 5 && memcmp (name, "print", 5) == 0) ||
      (name_len == 6 && memcmp (name, "bprint", 6) == 0) ||
      (name_len == 5 && memcmp (name, "bputs", 5) == 0))
    {
      while (q < end && IS (*q, C_NAME))
        q++;
      q = ftt_skip_sym_offset (q, end);
      if (q > p && end - q >= 2 && q[0] == ':' && q[1] == ' ')
        {
          push_str (self, p, q - p);
          p = q + 2;
        }
      else
        seismo_trace_builder_push_string_id (self->builder, 0);
    }
  else
    push_str (self, name, name_len);
  push_str (self, p, ftt_rtrim (p, end) - p);
}

static void
append_pair (GString    *out,
             const char *key,
             gsize       key_len,
             const char *val,
             gsize       val_len)
{
  if (out->len)
    g_string_append_c (out, ' ');
  g_string_append_len (out, key, key_len);
  g_string_append_c (out, '=');
  g_string_append_len (out, val, val_len);
}

static void
push_generic (Parser     *self,
              EventInfo  *info,
              const char *p,
              const char *end)
{
  SeismoTraceBuilder *b = self->builder;
  KeyValue kv[MAX_KV];
  gboolean junk = FALSE;
  guint n = 0;
  guint n_schema = info->n_fields;
  GString *text = self->scratch;

  g_string_truncate (text, 0);
  if (n_schema)
    n = ftt_split_kv (p, end, kv, MAX_KV, &junk);
  if (junk || n_schema == 0)
    {
      /* Keep the whole payload: the fields below are only what could be read from it. */
      g_string_append_len (text, p, ftt_rtrim (p, end) - p);
    }

  for (guint i = 0; i < n_schema; i++)
    {
      const TextField *f = &info->fields[i];
      KeyValue *hit = ftt_kv_find (kv, n, i, f->name, f->name_len);
      gboolean ok = TRUE;

      if (hit)
        hit->used = TRUE;
      switch (f->kind)
        {
        case VALUE_STRING:
          if (hit)
            push_str (self, hit->val, hit->val_len);
          else
            seismo_trace_builder_push_string_id (b, 0);
          break;

        case VALUE_INT:
        case VALUE_FD:
          {
            gint64 v = 0;

            /* A failed parse leaves v alone. */
            if (hit && !ftt_parse_dec (hit->val, ftt_number_len (hit->val, hit->val_len), &v))
              ok = FALSE;
            seismo_trace_builder_push_int (b, v);
          }
          break;

        case VALUE_HEX:
        default:
          {
            guint64 v = 0;

            if (hit && !ftt_parse_hex (hit->val, ftt_number_len (hit->val, hit->val_len), &v))
              ok = FALSE;
            seismo_trace_builder_push_uint (b, v);
          }
          break;
        }
      if (!ok && !junk)
        append_pair (text, hit->key, hit->key_len, hit->val, hit->val_len);
    }

  if (!junk)
    for (guint i = 0; i < n; i++)
      if (!kv[i].used)
        append_pair (text, kv[i].key, kv[i].key_len, kv[i].val, kv[i].val_len);

  if (info->has_text)
    {
      if (text->len)
        push_str (self, text->str, text->len);
      else
        seismo_trace_builder_push_string_id (b, 0);
    }
}

/* ---- the dispatch ----------------------------------------------------------------------------- */

void
ftt_push_payload (Parser         *self,
                  EventInfo      *info,
                  const LineHead *head)
{
  switch (info->parse)
    {
    case PARSE_SCHED_SWITCH:
      push_sched_switch (self, head->payload, head->payload_end);
      break;
    case PARSE_SCHED_WAKEUP:
      push_sched_wakeup (self, head->payload, head->payload_end);
      break;
    case PARSE_SCHED_FORK:
      push_sched_fork (self, head->payload, head->payload_end);
      break;
    case PARSE_RAW_SYS_ENTER:
      push_raw_sys_enter (self, head, head->payload, head->payload_end);
      break;
    case PARSE_RAW_SYS_EXIT:
      push_raw_sys_exit (self, head->payload, head->payload_end);
      break;
    case PARSE_SYSCALL_ENTER:
      push_syscall_enter (self, info, head->payload, head->payload_end);
      ftt_note_syscall_name (self, head);
      break;
    case PARSE_SYSCALL_EXIT:
      push_syscall_exit (self, head->payload, head->payload_end);
      break;
    case PARSE_IRQ_ENTRY:
      push_irq_entry (self, head->payload, head->payload_end);
      break;
    case PARSE_IRQ_EXIT:
      push_irq_exit (self, head->payload, head->payload_end);
      break;
    case PARSE_SOFTIRQ:
      push_softirq (self, head->payload, head->payload_end);
      break;
    case PARSE_FUNCTION:
      push_function (self, head->payload, head->payload_end);
      break;
    case PARSE_PRINT:
      push_print (self, head->name, head->name_len, head->payload, head->payload_end);
      break;
    case PARSE_GENERIC:
    default:
      push_generic (self, info, head->payload, head->payload_end);
      break;
    }
}

void
ftt_set_state_symbols (Parser *self)
{
  SeismoTraceBuilder *b = self->builder;

  /* prev_state shows the letters the file had: 4.13's x is not 4.14's P, the plugin's Z is X. */
  {
    EventInfo *sw = g_hash_table_lookup (self->events, "sched_switch");

    if (sw && self->state_tables == STATES_LEGACY)
      seismo_trace_builder_set_field_symbols (b, sw->type_id, "prev_state", legacy_state_symbols,
                                              G_N_ELEMENTS (legacy_state_symbols));
    else if (sw && self->state_tables == STATES_PLUGIN)
      seismo_trace_builder_set_field_symbols (b, sw->type_id, "prev_state", plugin_state_symbols,
                                              G_N_ELEMENTS (plugin_state_symbols));
  }
}

void
ftt_push_str (Parser     *self,
              const char *s,
              gsize       len)
{
  push_str (self, s, len);
}

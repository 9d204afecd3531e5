/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

#include <string.h>

#include "seismo-ftrace-text-private.h"

/*
 * One line of text per event. The layouts this reads (all optionally after a `buffer: ` prefix
 * that trace-cmd prints for instance buffers):
 *
 *   tracefs trace / trace_pipe     "    bash-1234    [001] d..2.  123.456789: sched_switch: …"
 *     without irq-info             "    bash-1234    [001]  123.456789: …"
 *     with record-tgid             "    bash-1234    (   1234) [001] d..2.  123.456789: …"
 *     latency-format               "    bash-1234     1d..2. 123456789us : …"
 *   trace-cmd report               "    bash-1234  [001]  123.456789: sched_switch: …"
 *     -t                           "    bash-1234  [001]  123.456789012: …"
 *     -l                           "bash-1234   1d..2.  123.456789: …"
 *
 * Lines are found from their timestamp: the first "<digits>[.<digits>][us][mark]:" preceded by a
 * space whose left side reads as "comm-pid [(tgid)] [cpu] [flags]" or "comm-pid cpuflags". Comms
 * may hold spaces, dashes and colons, so the left side is read from the right.
 */



/* Parses "<digits>[.<digits>]" into ns; the fraction is scaled to 9 digits. */
/* Inlined into the line loop (the importer's other files call ftt_parse_timestamp). */
G_ALWAYS_INLINE static inline gboolean
parse_timestamp (const char *s,
                 const char *end,
                 gboolean    micro,
                 guint64    *out,
                 gboolean   *ns_digits)
{
  guint64 secs = 0, frac = 0;
  guint n_frac = 0, n_int = 0;
  const char *p = s;

  for (; p < end && IS (*p, C_DIGIT); p++, n_int++)
    {
      if (secs > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      secs = secs * 10 + (guint) (*p - '0');
    }
  if (n_int == 0)
    return FALSE;
  if (p < end && *p == '.')
    {
      for (p++; p < end && IS (*p, C_DIGIT); p++, n_frac++)
        if (n_frac < 9)
          frac = frac * 10 + (guint) (*p - '0');
      if (n_frac == 0)
        return FALSE;
    }
  if (p != end)
    return FALSE;

  *ns_digits = n_frac >= 9;
  if (micro)
    {
      /* Latency format: microseconds. */
      for (guint k = MIN (n_frac, 3); k < 3; k++)
        frac *= 10;
      if (n_frac > 3)
        for (guint k = 3; k < MIN (n_frac, 9); k++)
          frac /= 10;
      if (secs > G_MAXUINT64 / 1000)
        return FALSE;
      *out = secs * 1000 + frac;
      return TRUE;
    }
  if (n_frac == 0)
    {
      /* A clock that counts something else (counter, x86-tsc): keep the raw count. */
      *out = secs;
      return TRUE;
    }
  for (guint k = MIN (n_frac, 9); k < 9; k++)
    frac *= 10;
  if (secs > (G_MAXUINT64 - frac) / G_GUINT64_CONSTANT (1000000000))
    return FALSE;
  *out = secs * G_GUINT64_CONSTANT (1000000000) + frac;
  return TRUE;
}

/* ---- the left part of a line ---------------------------------------------------------------- */


/* Task columns are right-aligned in 16 or more spaces: skip them eight at a time. */


static gboolean
is_flags (const char *s,
          const char *end)
{
  if (end - s < 1 || end - s > 8)
    return FALSE;
  for (; s < end; s++)
    if (!IS (*s, C_FLAG))
      return FALSE;
  return TRUE;
}

/* "[001]" → 1 */
static gboolean
parse_cpu_bracket (const char *s,
                   const char *end,
                   guint      *cpu)
{
  guint v = 0;

  if (end - s < 3 || end - s > 7 || s[0] != '[' || end[-1] != ']')
    return FALSE;
  for (s++; s < end - 1; s++)
    {
      if (!IS (*s, C_DIGIT))
        return FALSE;
      v = v * 10 + (guint) (*s - '0');
    }
  *cpu = v;
  return TRUE;
}

/*
 * Reads "comm-pid [(tgid)] [cpu] [flags]" or "comm-pid cpuflags" in [start, end), from the right.
 */
static gboolean
parse_task_cpu (const char *start,
                const char *end,
                LineHead   *head)
{
  const char *p = ftt_rtrim (start, end);
  const char *tok = p;
  const char *pid_start;
  gint64 pid;

  while (tok > start && !IS (tok[-1], C_SPACE))
    tok--;
  if (tok == p)
    return FALSE;

  head->latency = FALSE;
  if (parse_cpu_bracket (tok, p, &head->cpu))
    {
      p = ftt_rtrim (start, tok);
    }
  else if (IS (*tok, C_DIGIT) && is_flags (tok, p))
    {
      /* Latency layout: "%3d" cpu glued to the flags. A flags column never starts with a digit. */
      const char *q = tok;
      guint cpu = 0;

      for (; q < p && IS (*q, C_DIGIT) && q - tok < 5; q++)
        cpu = cpu * 10 + (guint) (*q - '0');
      if (q == p || IS (*q, C_DIGIT) || p - q < 3)
        return FALSE;
      head->cpu = cpu;
      head->latency = TRUE;
      p = ftt_rtrim (start, tok);
    }
  else if (is_flags (tok, p))
    {
      const char *cpu_tok;

      p = ftt_rtrim (start, tok);
      cpu_tok = p;
      while (cpu_tok > start && !IS (cpu_tok[-1], C_SPACE))
        cpu_tok--;
      if (!parse_cpu_bracket (cpu_tok, p, &head->cpu))
        return FALSE;
      p = ftt_rtrim (start, cpu_tok);
    }
  else
    return FALSE;

  head->tgid = -1;
  if (p > start && p[-1] == ')')
    {
      const char *close = p - 1;
      const char *open = close;
      gint64 tgid;

      while (open > start && *open != '(')
        open--;
      if (*open != '(')
        return FALSE;
      {
        const char *a = ftt_skip_spaces (open + 1, close);

        if (ftt_parse_dec (a, close - a, &tgid) && tgid >= 0 && tgid <= G_MAXINT32)
          head->tgid = (gint32) tgid;
      }
      p = ftt_rtrim (start, open);
    }

  pid_start = p;
  while (pid_start > start && IS (pid_start[-1], C_DIGIT))
    pid_start--;
  if (pid_start == p || p - pid_start > 10 || pid_start == start || pid_start[-1] != '-')
    return FALSE;
  if (!ftt_parse_dec (pid_start, p - pid_start, &pid) || pid > G_MAXINT32)
    return FALSE;
  head->tid = (gint32) pid;
  head->comm = start;
  head->comm_len = (pid_start - 1) - start;
  return TRUE;
}

/* Past "+0x14/0x1c8" when p is at one, else p. */
const char *
ftt_skip_sym_offset (const char *p,
                     const char *end)
{
  const char *q = p;

  if (end - q < 4 || q[0] != '+' || q[1] != '0' || q[2] != 'x')
    return p;
  for (q += 3; q < end && IS (*q, C_HEX); q++)
    ;
  if (end - q < 4 || q[0] != '/' || q[1] != '0' || q[2] != 'x' || !IS (q[3], C_HEX))
    return p;
  for (q += 3; q < end && IS (*q, C_HEX); q++)
    ;
  return q;
}

/* Splits an event line; FALSE when it is not one. */
gboolean
ftt_parse_line_head (const char *line,
                     const char *end,
                     LineHead   *head)
{
  const char *s = line;
  const char *colon;

  /* No memset: every field is set on the way to a TRUE return (this runs for every line). */
  head->buffer = NULL;
  head->buffer_len = 0;

  /* trace-cmd's "buffer: " prefix sits at column 0; task columns are right-aligned. */
  if (s < end && !IS (*s, C_SPACE))
    {
      const char *sp = s;

      while (sp < end && !IS (*sp, C_SPACE))
        sp++;
      if (sp < end && sp - s >= 2 && sp[-1] == ':')
        {
          head->buffer = s;
          head->buffer_len = (sp - 1) - s;
          s = sp;
        }
    }
  s = ftt_skip_indent (s, end);

  for (colon = memchr (s, ':', end - s); colon != NULL;
       colon = memchr (colon + 1, ':', end - (colon + 1)))
    {
      const char *te = colon;
      const char *ts;
      gboolean micro = FALSE;

      if (colon + 1 < end && colon[1] != ' ' && colon[1] != '\t')
        continue;
      /* The latency layout puts a mark (' ', '+', '!', …) between the time and the colon. */
      if (te > s && strchr (" +!#*@$>", te[-1]) != NULL && te[-1] != '\0')
        te--;
      if (te - s >= 2 && te[-2] == 'u' && te[-1] == 's')
        {
          micro = TRUE;
          te -= 2;
        }
      ts = te;
      while (ts > s && (IS (ts[-1], C_DIGIT) || ts[-1] == '.'))
        ts--;
      if (ts == te || ts == s || !IS (ts[-1], C_SPACE) || !IS (*ts, C_DIGIT))
        continue;
      if (!parse_timestamp (ts, te, micro, &head->ts, &head->ts_ns))
        continue;
      if (!parse_task_cpu (s, ts, head))
        continue;

      /* The event name, then how the payload is introduced. */
      {
        const char *n = ftt_skip_spaces (colon + 1, end);
        const char *ne = n;

        while (ne < end && IS (*ne, C_NAME))
          ne++;
        if (G_UNLIKELY (ne == n) && n < end && *n == '<')
          {
            /* "<stack trace>" / "<user stack trace>": the frames are on the lines after. */
            if (ftt_starts_with (n, end, "<stack trace>") ||
                ftt_starts_with (n, end, "<user stack trace>"))
              {
                head->name = n;
                head->name_len = n[1] == 'u' ? 18 : 13;
                head->form = FORM_STACK;
                head->payload = head->payload_end = end;
                return TRUE;
              }
            return FALSE;
          }
        if (ne == n || ne - n >= MAX_NAME)
          return FALSE;
        head->name = n;
        head->name_len = ne - n;

        if (ne < end && *ne == ':')
          {
            head->form = FORM_NORMAL;
            head->payload = ftt_skip_spaces (ne + 1, end);
            head->payload_end = end;
            return TRUE;
          }
        /* Not "name:": maybe a function or trace_printk ip printed with the sym-offset option
         * ("ttwu_do_wakeup+0x14/0x1c8") and/or sym-addr (" <ffffffff810a6c30>"). */
        if (ne < end && (*ne == '+' || *ne == ' '))
          {
            const char *ip_end = ftt_skip_sym_offset (ne, end);

            if (end - ip_end >= 3 && ip_end[0] == ' ' && ip_end[1] == '<' && ip_end[2] != '-')
              {
                const char *q = ip_end + 2;

                while (q < end && IS (*q, C_HEX))
                  q++;
                if (q < end && *q == '>' && q > ip_end + 2 &&
                    ((end - q >= 4 && memcmp (q + 1, " <-", 3) == 0) || (q + 1 < end && q[1] == ':')))
                  ip_end = q + 1;
              }
            if (ip_end != ne)
              {
                if (ip_end - n >= MAX_NAME)
                  return FALSE;
                head->name_len = ip_end - n;
                if (ip_end < end && *ip_end == ':')
                  {
                    head->form = FORM_BPRINT;
                    head->payload = ftt_skip_spaces (ip_end + 1, end);
                    head->payload_end = end;
                    return TRUE;
                  }
                if (end - ip_end >= 3 && memcmp (ip_end, " <-", 3) == 0)
                  {
                    head->form = FORM_FUNCTION;
                    head->payload = n;
                    head->payload_end = end;
                    return TRUE;
                  }
                return FALSE;
              }
          }
        if (ne < end && *ne == '(' && ne - n > 4 && memcmp (n, "sys_", 4) == 0)
          {
            const char *close = end;

            while (close > ne && close[-1] != ')')
              close--;
            if (close == ne)
              return FALSE;
            head->form = FORM_CALL;
            head->payload = ne + 1;
            head->payload_end = close - 1;
            return TRUE;
          }
        if (end - ne >= 4 && memcmp (ne, " -> ", 4) == 0 && ne - n > 4 &&
            memcmp (n, "sys_", 4) == 0)
          {
            head->form = FORM_RETURN;
            head->payload = ne + 4;
            head->payload_end = end;
            return TRUE;
          }
        if (end - ne >= 3 && memcmp (ne, " <-", 3) == 0)
          {
            head->form = FORM_FUNCTION;
            head->payload = n;
            head->payload_end = end;
            return TRUE;
          }
        if (ne == end)
          {
            /* An event printed nothing after its name. */
            head->form = FORM_NORMAL;
            head->payload = head->payload_end = end;
            return TRUE;
          }
        return FALSE;
      }
    }
  return FALSE;
}

/* The line loop gets parse_timestamp inlined; the importer's other files call this. */
gboolean
ftt_parse_timestamp (const char *s,
                     const char *end,
                     gboolean    micro,
                     guint64    *out,
                     gboolean   *ns_digits)
{
  return parse_timestamp (s, end, micro, out, ns_digits);
}

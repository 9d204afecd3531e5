/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-strace"

/*
 * strace's argument text back into the decoded fields of seismo-ptrace-schema.c, so that an
 * imported log and a live recording display, filter and count alike. Every flavour of strace's
 * argument printing is read here: -y/-yy decorations ("3</etc/passwd>", "AT_FDCWD</home>",
 * "3<TCP:[1.2.3.4:5->6.7.8.9:10]>", "3</dev/null<char 1:3>>"), -X raw numbers, -X verbose
 * numbers followed by their names in a C comment, -s's cut strings ("..."...), clone()'s named
 * arguments.
 */

#include <errno.h>
#include <stdlib.h>

#include "seismo-strace-private.h"

/* strace prints clone()'s arguments by name, in its own order. */
static const struct {
  const char *syscall;
  const char *strace_name;
  const char *kernel_name;
} named_args[] = {
  { "clone", "child_stack", "newsp" },
  { "clone", "flags", "clone_flags" },
  { "clone", "parent_tid", "parent_tidptr" },
  { "clone", "parent_tidptr", "parent_tidptr" },
  { "clone", "child_tidptr", "child_tidptr" },
  { "clone", "tls", "tls" },
  { "clone", "stack", "newsp" },
};

/* The characters the argument scanners stop at; every other byte is passed over at once (this
 * is the importer's innermost loop). */
static const guint8 special[256] = {
  ['"'] = 1, ['('] = 1, ['['] = 1, ['{'] = 1, [')'] = 1, [']'] = 1, ['}'] = 1, [','] = 1,
  ['<'] = 1, ['/'] = 1,
};

/* Past a quoted string that starts at s[i] == '"': the index of its closing quote, or len. */
static gsize
skip_string (const char *s,
             gsize       len,
             gsize       i)
{
  for (i++; i < len && s[i] != '"'; i++)
    if (s[i] == '\\')
      i++;
  return MIN (i, len);
}

/* Does a '<' at s[i] open -y's decoration? It follows the descriptor (or AT_FDCWD) directly,
 * where -T's "<0.000012>" and "<unfinished ...>" follow a space. */
static inline gboolean
opens_decoration (const char *s,
                  gsize       i)
{
  return s[i] == '<' && i > 0 && strace_is_ident (s[i - 1]);
}

gssize
strace_skip_decoration (const char *s,
                        gsize       len,
                        gsize       i)
{
  int angles = 0, brackets = 0;

  /* Inside: paths with '<' and '>' escaped, sockets' "[a->b]", quoted UNIX socket paths, and
   * --decode-fds=dev's nested "<char 1:3>". */
  for (; i < len; i++)
    {
      char c = s[i];

      if (c == '"')
        {
          if ((i = skip_string (s, len, i)) >= len)
            return -1;
        }
      else if (c == '\\')
        i++;
      else if (c == '[')
        brackets++;
      else if (c == ']' && brackets > 0)
        brackets--;
      else if (c == '<' && brackets == 0)
        angles++;
      else if (c == '>' && brackets == 0 && --angles == 0)
        return (gssize) i + 1;
    }
  return -1;
}

gssize
strace_scan_args (const char *s,
                  gsize       len,
                  int         depth)
{
  for (gsize i = 0; i < len; i++)
    {
      char c = s[i];

      if (!special[(guint8) c])
        continue;
      if (c == '"')
        {
          if ((i = skip_string (s, len, i)) >= len)
            return -1;
        }
      else if (c == '/' && i + 1 < len && s[i + 1] == '*')
        {
          const char *close = g_strstr_len (s + i + 2, len - i - 2, "*/");

          if (close == NULL)
            return -1;
          i = (gsize) (close - s) + 1;
        }
      else if (opens_decoration (s, i))
        {
          gssize after = strace_skip_decoration (s, len, i);

          if (after < 0)
            return -1;
          i = (gsize) after - 1;
        }
      else if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        {
          if (--depth == 0)
            return c == ')' ? (gssize) i : -1;
          if (depth < 0)
            return -1;
        }
    }
  return -1;
}

void
strace_split_args (StraceImport *im,
                   const char   *s,
                   gsize         len)
{
  int depth = 0;
  gsize start = 0;

  g_ptr_array_set_size (im->items, 0);
  for (gsize i = 0; i <= len; i++)
    {
      char c = i < len ? s[i] : ',';

      if (!special[(guint8) c])
        continue;
      if (c == '"' && i < len)
        {
          i = skip_string (s, len, i);
          continue;
        }
      if (i < len && opens_decoration (s, i))
        {
          gssize after = strace_skip_decoration (s, len, i);

          /* An unclosed '<' is text like any other. */
          if (after > 0)
            i = (gsize) after - 1;
          continue;
        }
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0)
        depth--;
      else if (c == ',' && depth == 0)
        {
          const char *a = s + start, *b = s + MIN (i, len);

          while (a < b && g_ascii_isspace (*a))
            a++;
          while (b > a && g_ascii_isspace (b[-1]))
            b--;
          if (b > a || i < len)
            g_ptr_array_add (im->items, g_strndup (a, (gsize) (b - a)));
          start = i + 1;
        }
    }
}

gboolean
strace_parse_number (const char *s,
                     gsize       len,
                     guint64    *value)
{
  char buf[32];
  char *end;
  gboolean neg = FALSE;
  const char *p;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, s, len);
  buf[len] = '\0';
  p = buf;
  if (*p == '-')
    {
      neg = TRUE;
      p++;
    }
  if (!g_ascii_isdigit (*p))
    return FALSE;
  errno = 0;
  *value = g_ascii_strtoull (p, &end, 0);
  if (end == p || errno != 0)
    return FALSE;
  if (neg)
    *value = (guint64) -(gint64) *value;
  return *end == '\0';
}

guint64
strace_parse_value (const char             *item,
                    const SeismoPtraceXlat *xlat)
{
  guint64 total = 0;
  const char *p = item;
  const char *or;

  if (g_str_equal (item, "NULL"))
    return 0;
  /* -y's decoration says what the descriptor is; its number is before it. */
  for (const char *lt = strchr (item, '<'); lt != NULL; lt = strchr (lt + 1, '<'))
    if (opens_decoration (item, (gsize) (lt - item)))
      {
        g_autofree char *bare = g_strndup (item, (gsize) (lt - item));

        return strace_parse_value (bare, xlat);
      }
  if (g_str_equal (item, "AT_FDCWD"))
    return (guint64) -100;
  /* A value strace annotated with a C comment (execve: the number of environment variables;
   * -X verbose: "0x80000" followed by its names in a C comment). */
  if ((or = strstr (item, " /*")))
    {
      g_autofree char *value = g_strndup (item, (gsize) (or - item));

      return strace_parse_value (value, xlat);
    }
  /* Alternatives for ambiguous ioctl numbers: "TCGETS or SNDCTL_TMR_TIMEBASE". */
  if ((or = strstr (item, " or ")))
    {
      g_autofree char *first = g_strndup (item, (gsize) (or - item));

      return strace_parse_value (first, xlat);
    }

  while (*p)
    {
      gsize len = strcspn (p, "|");
      guint64 v = 0;
      int sig;
      char name[64];

      if (strace_parse_number (p, len, &v))
        total |= v;
      else if (xlat && seismo_ptrace_xlat_lookup (xlat, p, len, &v))
        total |= v;
      else if (len > 0 && g_ascii_isdigit (*p))
        /* A count the program's own output ran into ("1x" of write(1, "x", 1x) = 1). */
        total |= g_ascii_strtoull (p, NULL, 0);
      else if (len < sizeof name)
        {
          memcpy (name, p, len);
          name[len] = '\0';
          if ((sig = seismo_signal_from_name (name)) > 0)
            total |= (guint64) sig;
        }
      p += len;
      if (*p == '|')
        p++;
      else
        break;
    }
  return total;
}

/*
 * The text between the quotes of a string argument, kept escaped as strace wrote it (a live
 * recording stores strings escaped the same way), plus the marker when strace cut it (-s).
 * Empty for NULL or an address strace could not read. Caller frees.
 */
char *
strace_unquote (const char *item)
{
  const char *q = item + 1;
  const char *end = q;

  if (item[0] != '"')
    return g_strdup ("");
  for (; *end && *end != '"'; end++)
    if (*end == '\\' && end[1])
      end++;
  if (*end == '"' && g_str_has_prefix (end + 1, SEISMO_FIELD_FLAG_TRUNCATED_MARKER))
    {
      g_autofree char *text = g_strndup (q, (gsize) (end - q));

      return g_strconcat (text, SEISMO_FIELD_FLAG_TRUNCATED_MARKER, NULL);
    }
  return g_strndup (q, (gsize) (end - q));
}

static void
push_item (StraceImport          *im,
           const SeismoPtraceArg *arg,
           const char            *item)
{
  if (item == NULL)
    {
      /* strace leaves out arguments that do not matter (openat's mode without O_CREAT). */
      if (arg->kind == SEISMO_PTRACE_ARG_PATH || arg->kind == SEISMO_PTRACE_ARG_BUF_IN
          || arg->kind == SEISMO_PTRACE_ARG_BUF_OUT || arg->kind == SEISMO_PTRACE_ARG_PATH_OUT
          || arg->kind == SEISMO_PTRACE_ARG_ARGV)
        seismo_trace_builder_push_string (im->builder, "");
      else if (arg->kind == SEISMO_PTRACE_ARG_INT || arg->kind == SEISMO_PTRACE_ARG_FD
               || arg->kind == SEISMO_PTRACE_ARG_SIGNAL)
        seismo_trace_builder_push_int (im->builder, 0);
      else
        seismo_trace_builder_push_uint (im->builder, 0);
      return;
    }

  switch (arg->kind)
    {
    case SEISMO_PTRACE_ARG_INT:
    case SEISMO_PTRACE_ARG_FD:
    case SEISMO_PTRACE_ARG_SIGNAL:
      {
        gint64 v = (gint64) strace_parse_value (item, arg->xlat);

        if (arg->size == 4 || arg->kind != SEISMO_PTRACE_ARG_INT)
          v = (gint32) v;
        seismo_trace_builder_push_int (im->builder, v);
      }
      break;
    case SEISMO_PTRACE_ARG_UINT:
    case SEISMO_PTRACE_ARG_SYMBOL:
    case SEISMO_PTRACE_ARG_FLAGS:
      {
        guint64 v = strace_parse_value (item, arg->xlat);

        seismo_trace_builder_push_uint (im->builder, arg->size == 4 ? (guint32) v : v);
      }
      break;
    case SEISMO_PTRACE_ARG_POINTER:
      /* Structures and arrays strace decoded lost their address. */
      seismo_trace_builder_push_uint (im->builder, strchr ("{[\"~", item[0])
                                                     ? 0 : strace_parse_value (item, NULL));
      break;
    case SEISMO_PTRACE_ARG_PATH:
    case SEISMO_PTRACE_ARG_BUF_IN:
    case SEISMO_PTRACE_ARG_BUF_OUT:
    case SEISMO_PTRACE_ARG_PATH_OUT:
      {
        g_autofree char *text = strace_unquote (item);

        seismo_trace_builder_push_string (im->builder, text);
      }
      break;
    case SEISMO_PTRACE_ARG_ARGV:
      seismo_trace_builder_push_string (im->builder, item[0] == '[' ? item : "");
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Which item holds the argument named kernel_name, with strace's "name=value" spelling. */
static const char *
find_item (StraceImport              *im,
           const SeismoPtraceSyscall *sc,
           guint                      index)
{
  const char *kernel_name = sc->args[index].name;
  gboolean named = FALSE;

  for (guint i = 0; i < im->items->len; i++)
    {
      const char *item = g_ptr_array_index (im->items, i);
      const char *eq = item;

      while (strace_is_ident (*eq))
        eq++;
      if (eq == item || *eq != '=' || eq[1] == '=')
        continue;
      named = TRUE;
      for (guint k = 0; k < G_N_ELEMENTS (named_args); k++)
        if (g_str_equal (sc->name, named_args[k].syscall)
            && g_str_equal (kernel_name, named_args[k].kernel_name)
            && strncmp (item, named_args[k].strace_name, (gsize) (eq - item)) == 0
            && named_args[k].strace_name[eq - item] == '\0')
          return eq + 1;
      if (strncmp (item, kernel_name, (gsize) (eq - item)) == 0
          && kernel_name[eq - item] == '\0')
        return eq + 1;
    }
  if (named)
    return NULL;
  return index < im->items->len ? g_ptr_array_index (im->items, index) : NULL;
}

void
strace_push_args (StraceImport              *im,
                  const SeismoPtraceSyscall *sc)
{
  if (sc->raw)
    {
      guint64 raw[6] = { 0 };

      for (guint i = 0; i < 6 && i < im->items->len; i++)
        raw[i] = strace_parse_value (g_ptr_array_index (im->items, i), NULL);
      seismo_trace_builder_push_uint_array (im->builder, raw, 6);
    }
  else
    for (guint i = 0; i < sc->n_args; i++)
      push_item (im, &sc->args[i], find_item (im, sc, i));
}

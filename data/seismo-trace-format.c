/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <string.h>

#include "seismo-sched-state.h"
#include "seismo-syscalls.h"
#include "seismo-trace-private.h"
#include "seismo-varint.h"

/* Decodes one field at p; returns the position after it, or NULL when the payload is cut. */
static const guint8 *
decode_field (SeismoTrace     *self,
              SeismoFieldType  type,
              const guint8    *p,
              const guint8    *end,
              SeismoValue     *value)
{
  guint64 v;

  value->type = type;
  value->str = NULL;
  value->data = NULL;
  value->len = 0;

  if (!(p = seismo_varint_get (p, end, &v)))
    return NULL;

  switch (type)
    {
    case SEISMO_FIELD_INT:
      value->i = seismo_zigzag_decode (v);
      return p;

    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      value->u = v;
      return p;

    case SEISMO_FIELD_STRING:
      value->u = v;
      value->str = seismo_trace_get_string (self, (SeismoStringId) MIN (v, G_MAXUINT32));
      value->len = strlen (value->str);
      return p;

    case SEISMO_FIELD_BYTES:
      if (v > (guint64) (end - p))
        return NULL;
      value->u = v;
      value->data = p;
      value->len = v;
      return p + v;

    case SEISMO_FIELD_UINT_ARRAY:
      {
        const guint8 *start = p;
        guint64 elem;

        if (v > (guint64) (end - p))
          return NULL;
        for (guint64 k = 0; k < v; k++)
          if (!(p = seismo_varint_get (p, end, &elem)))
            return NULL;
        value->u = v;
        value->data = start;
        value->len = p - start;
        return p;
      }

    case SEISMO_FIELD_N_TYPES:
    default:
      return NULL;
    }
}

guint
seismo_trace_event_fields (SeismoTrace   *self,
                           SeismoEventId  event,
                           SeismoValue   *values,
                           guint          n_values)
{
  const SeismoEventType *type;
  const guint8 *p, *end;
  gsize len;
  guint i;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), 0);
  g_return_val_if_fail (event < self->n_events, 0);

  type = g_ptr_array_index (self->event_types, self->type[event]);
  p = _seismo_trace_payload (self, event, &len);
  end = p + len;
  for (i = 0; i < type->n_fields && i < n_values; i++)
    if (!(p = decode_field (self, type->fields[i].type, p, end, &values[i])))
      break;
  return i;
}

gboolean
seismo_trace_event_field (SeismoTrace   *self,
                          SeismoEventId  event,
                          guint          field,
                          SeismoValue   *value)
{
  const SeismoEventType *type;
  const guint8 *p, *end;
  gsize len;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  g_return_val_if_fail (event < self->n_events, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  type = g_ptr_array_index (self->event_types, self->type[event]);
  if (field >= type->n_fields)
    return FALSE;
  p = _seismo_trace_payload (self, event, &len);
  end = p + len;
  for (guint i = 0; i <= field; i++)
    if (!(p = decode_field (self, type->fields[i].type, p, end, value)))
      return FALSE;
  return TRUE;
}

gboolean
seismo_trace_event_field_by_name (SeismoTrace   *self,
                                  SeismoEventId  event,
                                  const char    *name,
                                  SeismoValue   *value)
{
  int idx;

  g_return_val_if_fail (SEISMO_IS_TRACE (self), FALSE);
  g_return_val_if_fail (event < self->n_events, FALSE);

  idx = seismo_event_type_find_field (g_ptr_array_index (self->event_types, self->type[event]),
                                      name);
  return idx >= 0 && seismo_trace_event_field (self, event, idx, value);
}

static SeismoArch
trace_arch (SeismoTrace *self)
{
  return seismo_arch_from_string (seismo_trace_get_metadata (self, SEISMO_META_ARCH));
}

SeismoArch
seismo_trace_get_errno_arch (SeismoTrace *self)
{
  const char *numbers = seismo_trace_get_metadata (self, SEISMO_META_ERRNO_NUMBERS);

  g_return_val_if_fail (self != NULL, SEISMO_ARCH_UNKNOWN);
  if (g_strcmp0 (numbers, "asm-generic") == 0)
    return SEISMO_ARCH_UNKNOWN;
  return trace_arch (self);
}

static const char *
symbol_name (const SeismoField *field,
             guint64            v)
{
  for (guint s = 0; s < field->n_symbols; s++)
    if (field->symbols[s].value == v)
      return field->symbols[s].name;
  return NULL;
}

static void
format_flags (const SeismoField *field,
              guint64            v,
              GString           *out)
{
  guint64 rest = v;
  gboolean any = FALSE;
  const char *zero = symbol_name (field, 0);

  if (v == 0)
    {
      g_string_append (out, zero ? zero : "0");
      return;
    }
  /* Multi-bit values first (e.g. O_ACCMODE-style enumerations inside flags are given as exact). */
  for (guint s = 0; s < field->n_symbols; s++)
    {
      guint64 bits = field->symbols[s].value;

      if (bits != 0 && (rest & bits) == bits)
        {
          if (any)
            g_string_append_c (out, '|');
          g_string_append (out, field->symbols[s].name);
          rest &= ~bits;
          any = TRUE;
        }
    }
  if (rest != 0 || !any)
    g_string_append_printf (out, "%s0x%" G_GINT64_MODIFIER "x", any ? "|" : "", rest);
}

static void
format_uint (SeismoTrace       *self,
             const SeismoField *field,
             guint64            v,
             gboolean           is_signed,
             GString           *out)
{
  gint64 sv = is_signed ? (gint64) v : 0;
  const char *name;

  switch (field->display)
    {
    case SEISMO_DISPLAY_HEX:
      g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", v);
      return;

    case SEISMO_DISPLAY_SYMBOL:
      if ((name = symbol_name (field, v)))
        {
          g_string_append (out, name);
          return;
        }
      break;

    case SEISMO_DISPLAY_FLAGS:
      format_flags (field, v, out);
      return;

    case SEISMO_DISPLAY_ERRNO:
      /* errno numbers are the ABI's: EDEADLOCK is 58 on powerpc, ENOSYS 89 on mips. */
      if (is_signed && sv < 0 && sv >= -4095
          && (name = seismo_errno_name_for_arch (seismo_trace_get_errno_arch (self),
                                                      (int) -sv)))
        {
          const char *message = seismo_errno_message (seismo_trace_get_errno_arch (self),
                                                             (int) -sv);

          g_string_append_printf (out, "-1 %s (%s)", name, message ? message : name);
          return;
        }
      break;

    case SEISMO_DISPLAY_SIGNAL:
      if ((name = seismo_signal_name ((int) v)))
        {
          g_string_append (out, name);
          return;
        }
      break;

    case SEISMO_DISPLAY_SCHED_STATE:
      /* The trace's own letters when it carries them (kernels differ), else >= 4.14's. */
      seismo_sched_state_format (field->symbols, field->n_symbols, v, out);
      return;

    case SEISMO_DISPLAY_SYSCALL:
      if ((name = seismo_syscall_name (trace_arch (self), (gint64) v)))
        {
          g_string_append (out, name);
          return;
        }
      break;

    case SEISMO_DISPLAY_FD:
      if (is_signed && sv == -100)
        {
          g_string_append (out, "AT_FDCWD");
          return;
        }
      break;

    case SEISMO_DISPLAY_DEFAULT:
    case SEISMO_DISPLAY_N:
    default:
      break;
    }

  if (field->type == SEISMO_FIELD_POINTER)
    g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", v);
  else if (is_signed)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, sv);
  else
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, v);
}

void
seismo_trace_format_value (SeismoTrace       *self,
                           const SeismoField *field,
                           const SeismoValue *value,
                           GString           *out)
{
  g_return_if_fail (SEISMO_IS_TRACE (self));
  g_return_if_fail (field != NULL && value != NULL && out != NULL);

  switch (value->type)
    {
    case SEISMO_FIELD_INT:
      format_uint (self, field, (guint64) value->i, TRUE, out);
      break;

    case SEISMO_FIELD_UINT:
    case SEISMO_FIELD_POINTER:
      format_uint (self, field, value->u, FALSE, out);
      break;

    case SEISMO_FIELD_STRING:
      g_string_append_len (out, value->str, value->len);
      break;

    case SEISMO_FIELD_BYTES:
      for (gsize k = 0; k < value->len; k++)
        g_string_append_printf (out, "%02x", value->data[k]);
      break;

    case SEISMO_FIELD_UINT_ARRAY:
      {
        const guint8 *p = value->data, *end = value->data + value->len;
        guint64 elem;

        g_string_append_c (out, '(');
        for (guint64 k = 0; k < value->u && (p = seismo_varint_get (p, end, &elem)); k++)
          {
            if (k)
              g_string_append (out, ", ");
            if (field->display == SEISMO_DISPLAY_DEFAULT)
              g_string_append_printf (out, "%" G_GUINT64_FORMAT, elem);
            else
              g_string_append_printf (out, "%" G_GINT64_MODIFIER "x", elem);
          }
        g_string_append_c (out, ')');
        break;
      }

    case SEISMO_FIELD_N_TYPES:
    default:
      break;
    }
}

void
seismo_trace_event_format_into (SeismoTrace   *self,
                                SeismoEventId  event,
                                GString       *out)
{
  const SeismoEventType *type;
  SeismoValue values[64];
  g_autofree SeismoValue *many = NULL;
  SeismoValue *v = values;
  guint n;

  g_return_if_fail (SEISMO_IS_TRACE (self));
  g_return_if_fail (event < self->n_events);

  type = g_ptr_array_index (self->event_types, self->type[event]);
  if (type->n_fields > G_N_ELEMENTS (values))
    v = many = g_new (SeismoValue, type->n_fields);
  n = seismo_trace_event_fields (self, event, v, type->n_fields);

  if (type->print_fmt == NULL)
    {
      for (guint i = 0; i < n; i++)
        {
          if (i)
            g_string_append_c (out, ' ');
          g_string_append (out, type->fields[i].name);
          g_string_append_c (out, '=');
          seismo_trace_format_value (self, &type->fields[i], &v[i], out);
        }
    }
  else
    {
      const char *p = type->print_fmt;

      while (*p)
        {
          const char *close;

          if (*p == '{' && (close = strchr (p + 1, '}')) != NULL)
            {
              g_autofree char *name = g_strndup (p + 1, close - p - 1);
              int idx = seismo_event_type_find_field (type, name);

              if (idx >= 0 && (guint) idx < n)
                {
                  seismo_trace_format_value (self, &type->fields[idx], &v[idx], out);
                  p = close + 1;
                  continue;
                }
            }
          g_string_append_c (out, *p++);
        }
    }
  if (n < type->n_fields)
    g_string_append (out, _(" [damaged payload]"));
}

char *
seismo_trace_event_format (SeismoTrace   *self,
                           SeismoEventId  event)
{
  GString *out = g_string_new (NULL);

  seismo_trace_event_format_into (self, event, out);
  return g_string_free (out, FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace-text"

/*
 * Stack trace blocks. With the stacktrace / userstacktrace options (or a trigger's stacktrace),
 * the kernel writes, right after an event, an event of its own whose text is a header line and
 * one line per frame:
 *
 *     bash-1234  [001] d..2.  123.456789: <stack trace>
 *  => __schedule+0x2e4/0x880
 *  => schedule+0x4e/0xb0
 *     bash-1234  [001] d..2.  123.456790: <user stack trace>
 *  =>  <00007f3a1c2d3e4f>
 *
 * trace-cmd report prints them as "kernel_stack:" and "user_stack:" events. They belong to the
 * event before them: its type then has two trailing string fields, "stack" and "user_stack"
 * (frames one per line), so the details pane shows them and convert exports them with the
 * event. The parse starts over when it meets the first block, so files without stacks pay
 * nothing for them.
 */

#include <string.h>

#include "seismo-ftrace-text-private.h"
#include "seismo-trace-builder-private.h"

#define N_STACK_FIELDS 2

static const SeismoFieldInfo stack_fields[N_STACK_FIELDS] = {
  { "stack",      SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
  { "user_stack", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT, NULL, 0 },
};

guint
ftt_add_event_type (Parser                *self,
                    const char            *system,
                    const char            *name,
                    const SeismoFieldInfo *fields,
                    guint                  n_fields,
                    const char            *print_fmt)
{
  g_autofree SeismoFieldInfo *all = NULL;

  if (!self->stacks)
    return seismo_trace_builder_add_event_type (self->builder, system, name, fields, n_fields,
                                                print_fmt);
  all = g_new0 (SeismoFieldInfo, n_fields + N_STACK_FIELDS);
  if (n_fields)
    memcpy (all, fields, n_fields * sizeof *fields);
  memcpy (all + n_fields, stack_fields, sizeof stack_fields);
  return seismo_trace_builder_add_event_type (self->builder, system, name, all,
                                              n_fields + N_STACK_FIELDS, print_fmt);
}

gboolean
ftt_stack_begin (Parser         *self,
                 const LineHead *head)
{
  gboolean user = head->name_len > 1 && (head->name[0] == 'u' || head->name[1] == 'u');

  if (!self->stacks || !self->pending)
    return FALSE;
  self->stack_block = user ? 2 : 1;
  self->n_read_lines++;
  return TRUE;
}

/* p is at "=>". */
gboolean
ftt_stack_frame (Parser     *self,
                 const char *p,
                 const char *end)
{
  GString *out;
  const char *f = ftt_skip_spaces (p + 2, end);
  const char *fe = ftt_rtrim (f, end);

  if (self->stack_block == 0 || !self->pending)
    return FALSE;
  out = self->stack_block == 2 ? self->ustack : self->kstack;
  if (out->len)
    g_string_append_c (out, '\n');
  g_string_append_len (out, f, fe - f);
  self->n_read_lines++;
  return TRUE;
}

/* Pushes the event's stacks (empty when no block followed it) and ends it. */
void
ftt_end_pending (Parser *self)
{
  SeismoTraceBuilder *b = self->builder;
  const SeismoEventType *type;

  if (!self->pending)
    return;
  self->pending = FALSE;
  self->stack_block = 0;

  /* The payload parsers may leave trailing fields to the builder's zero fill; the stacks must
   * still land in their own fields. */
  type = seismo_trace_builder_get_event_type (b, b->type[b->n_events]);
  while (b->cur_field + N_STACK_FIELDS < type->n_fields)
    {
      switch (type->fields[b->cur_field].type)
        {
        case SEISMO_FIELD_STRING:
          seismo_trace_builder_push_string_id (b, 0);
          break;
        case SEISMO_FIELD_BYTES:
          seismo_trace_builder_push_bytes (b, NULL, 0);
          break;
        case SEISMO_FIELD_UINT_ARRAY:
          seismo_trace_builder_push_uint_array (b, NULL, 0);
          break;
        case SEISMO_FIELD_INT:
          seismo_trace_builder_push_int (b, 0);
          break;
        case SEISMO_FIELD_UINT:
        case SEISMO_FIELD_POINTER:
        case SEISMO_FIELD_N_TYPES:
        default:
          seismo_trace_builder_push_uint (b, 0);
          break;
        }
    }
  if (b->cur_field + N_STACK_FIELDS == type->n_fields)
    {
      seismo_trace_builder_push_string_len (b, self->kstack->str, self->kstack->len);
      seismo_trace_builder_push_string_len (b, self->ustack->str, self->ustack->len);
    }
  g_string_truncate (self->kstack, 0);
  g_string_truncate (self->ustack, 0);
  seismo_trace_builder_end_event (b);
}

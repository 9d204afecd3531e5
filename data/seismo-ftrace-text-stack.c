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
 * nothing for them. The frames also become the event's interned stack (seismo-stacks.h), kernel
 * frames inside user frames, for the stack views and `seismo-cli stacks`.
 */

#include <string.h>

#include "seismo-ftrace-text-private.h"
#include "seismo-stacks.h"
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

/*
 * One frame line's text (after "=> "), into frame; line is modified (strings point into it).
 *   kernel: "__schedule+0x2e4/0x880", "ext4_file_open+0x10/0x20 [ext4]", "__schedule (ffffffff81a0b0c0)",
 *           "0xffffffff81000000"
 *   user:   "<00007f3a1c2d3e4f>", "/usr/lib/libc.so.6[+0x10d2d4]" (sym-userobj), "??"
 */
static gboolean
parse_frame (char             *line,
             SeismoFrameSpace  space,
             gint32            pid,
             SeismoFrame      *frame)
{
  char *p = g_strstrip (line);
  char *q;

  memset (frame, 0, sizeof *frame);
  frame->space = space;
  frame->pid = space == SEISMO_FRAME_USER ? pid : -1;
  if (*p == '\0' || strcmp (p, "??") == 0)
    return FALSE;
  if (*p == '<')
    {
      frame->address = g_ascii_strtoull (p + 1, NULL, 16);
      return frame->address != 0;
    }
  if (g_str_has_prefix (p, "0x"))
    {
      frame->address = g_ascii_strtoull (p + 2, NULL, 16);
      return frame->address != 0;
    }
  /* "/path/lib.so[+0x1234]" */
  if ((q = strstr (p, "[+0x")) != NULL && q > p)
    {
      *q = '\0';
      frame->module = p;
      frame->address = g_ascii_strtoull (q + 4, NULL, 16);
      return TRUE;
    }
  /* " [module]" at the end */
  q = p + strlen (p);
  if (q > p && q[-1] == ']' && (q = strrchr (p, '[')) != NULL && q > p && q[-1] == ' ')
    {
      q[-1] = '\0';
      q[strlen (q) - 1] = '\0';
      frame->module = q + 1;
      g_strchomp (p);
    }
  /* " (address)" at the end */
  q = p + strlen (p);
  if (q > p && q[-1] == ')' && (q = strrchr (p, '(')) != NULL && q > p && q[-1] == ' ')
    {
      frame->address = g_ascii_strtoull (q + 1, NULL, 16);
      q[-1] = '\0';
      g_strchomp (p);
    }
  /* "+0xoff/0xsize" */
  if ((q = strrchr (p, '+')) != NULL && g_str_has_prefix (q, "+0x"))
    {
      frame->offset = (guint32) g_ascii_strtoull (q + 3, NULL, 16);
      *q = '\0';
    }
  if (*p == '\0')
    return frame->address != 0;
  frame->function = p;
  if (space == SEISMO_FRAME_KERNEL && frame->module == NULL)
    frame->module = "[kernel.kallsyms]";
  return TRUE;
}

/* The stack blocks' frames as the event's stack. */
static void
set_stack (Parser *self)
{
  SeismoTraceBuilder *b = self->builder;
  g_autoptr(GArray) frames = NULL;
  const SeismoTask *task;
  gint32 pid;

  if (self->kstack->len == 0 && self->ustack->len == 0)
    return;
  task = &g_array_index (b->tasks, SeismoTask, b->task[b->n_events]);
  pid = task->pid > 0 ? task->pid : task->tid;
  frames = g_array_new (FALSE, FALSE, sizeof (SeismoFrame));
  for (int k = 0; k < 2; k++)
    {
      GString *text = k == 0 ? self->kstack : self->ustack;
      g_auto(GStrv) lines = NULL;

      if (text->len == 0)
        continue;
      lines = g_strsplit (text->str, "\n", -1);
      g_array_set_size (frames, 0);
      for (guint i = 0; lines[i]; i++)
        {
          SeismoFrame f;

          if (parse_frame (lines[i], k == 0 ? SEISMO_FRAME_KERNEL : SEISMO_FRAME_USER, pid, &f))
            g_array_append_val (frames, f);
        }
      /* The builder copies the strings, so lines may go after. */
      seismo_trace_builder_set_stack_frames (b, (const SeismoFrame *) (gpointer) frames->data,
                                             frames->len);
    }
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
  set_stack (self);
  g_string_truncate (self->kstack, 0);
  g_string_truncate (self->ustack, 0);
  seismo_trace_builder_end_event (b);
}

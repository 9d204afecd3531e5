/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-import"

#include <string.h>

#include "perfetto_trace.pb-c.h"
#include "seismo-error.h"
#include "seismo-export-perfetto.h"
#include "seismo-perfetto-private.h"
#include "seismo-skipped.h"
#include "seismo-trace-builder.h"
#include "seismo-varint.h"

/*
 * Reads Perfetto's protobuf trace format back: what seismo_export_perfetto() writes, and the same
 * packets from other producers (docs/perfetto.md, "Reading it back"). Packets are decoded one at a
 * time, so memory is the trace being built plus one packet.
 *
 *   system_info          → metadata kernel, arch; the CPU count
 *   process_tree         → task pids, ppids and comms
 *   ftrace_events        → events on their CPU: typed members as SYSTEM:MEMBER with the message's
 *                          fields, generic ones with theirs (system guessed from the name)
 *   track_descriptor     → thread tracks (tid, pid, name)
 *   track_event          → on a thread track: a "syscall" slice begin → syscalls:sys_enter_NAME, its
 *                          end → syscalls:sys_exit_NAME (ret); instants → CATEGORY:NAME; the debug
 *                          annotations are the fields
 * Anything else is counted as skipped, by kind.
 */

#define PROGRESS_STEP (4 << 20)

/* Display hints the typed messages do not carry, for the fields Seismo shows by name. */
static const struct {
  const char    *event;
  const char    *field;
  SeismoDisplay  display;
} typed_displays[] = {
  { "sched_switch", "prev_state", SEISMO_DISPLAY_SCHED_STATE },
  { "sys_enter",    "id",         SEISMO_DISPLAY_SYSCALL },
  { "sys_exit",     "id",         SEISMO_DISPLAY_SYSCALL },
  { "sys_exit",     "ret",        SEISMO_DISPLAY_ERRNO },
  { "signal_deliver", "sig",      SEISMO_DISPLAY_SIGNAL },
  { "signal_generate", "sig",     SEISMO_DISPLAY_SIGNAL },
  { "print",        "ip",         SEISMO_DISPLAY_HEX },
};

/* Generic ftrace events carry their name only: the system, from the name's well-known prefix. */
static const struct {
  const char *prefix;
  const char *system;
} generic_systems[] = {
  { "sys_enter_", "syscalls" },
  { "sys_exit_",  "syscalls" },
  { "sched_",     "sched" },
  { "softirq_",   "irq" },
  { "irq_",       "irq" },
  { "signal_",    "signal" },
  { "task_",      "task" },
  { "hrtimer_",   "timer" },
  { "timer_",     "timer" },
  { "itimer_",    "timer" },
  { "tick_",      "timer" },
  { "workqueue_", "workqueue" },
  { "block_",     "block" },
  { "kmem_",      "kmem" },
  { "mm_page_",   "kmem" },
  { "mm_",        "vmscan" },
  { "writeback_", "writeback" },
  { "cpu_",       "power" },
  { "net_",       "net" },
  { "netif_",     "net" },
  { "kmalloc",    "kmem" },
  { "kfree",      "kmem" },
};

/* A field of a schema learnt from the first event of its type. */
typedef struct {
  char            *name;
  SeismoFieldType  type;
} LearntField;

typedef struct {
  guint         type_id;
  GArray       *fields;        /* LearntField, for generic and track event types */
} TypeInfo;

typedef struct {
  gint32  tid;
  gint32  pid;
  GArray *open;               /* names (interned, owned by the hash of names) of open slices */
} Track;

typedef struct {
  const char          *path;
  SeismoTraceBuilder  *b;
  GHashTable          *types;     /* full name → TypeInfo */
  GHashTable          *tracks;    /* uuid (guint64 *) → Track */
  GHashTable          *ppids;     /* pid → ppid, from process_tree processes */
  GStringChunk        *names;
  guint64              last_ns;
  guint                n_cpus;
  gsize                offset;    /* of the packet being read */
} Reader;

static void
type_info_free (gpointer p)
{
  TypeInfo *info = p;

  if (info->fields != NULL)
    {
      for (guint i = 0; i < info->fields->len; i++)
        g_free (g_array_index (info->fields, LearntField, i).name);
      g_array_unref (info->fields);
    }
  g_free (info);
}

static void
track_free (gpointer p)
{
  Track *t = p;

  g_array_unref (t->open);
  g_free (t);
}

static void
skip (Reader     *r,
      const char *kind,
      const char *what)
{
  g_autofree char *example = g_strdup_printf ("packet at byte %" G_GSIZE_FORMAT ": %s", r->offset,
                                              what);

  seismo_trace_builder_note_skipped (r->b, kind, 1, example);
}

/* ---- schemas ---- */

static SeismoFieldType
proto_field_type (const ProtobufCFieldDescriptor *fd,
                  guint8                         *size)
{
  *size = 8;
  if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    return SEISMO_FIELD_UINT_ARRAY;
  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
      *size = 4;
      return SEISMO_FIELD_INT;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      *size = 4;
      return SEISMO_FIELD_UINT;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
      return SEISMO_FIELD_INT;
    case PROTOBUF_C_TYPE_STRING:
      *size = 0;
      return SEISMO_FIELD_STRING;
    default:
      return SEISMO_FIELD_UINT;
    }
}

static SeismoDisplay
typed_display (const char *event,
               const char *field)
{
  for (guint i = 0; i < G_N_ELEMENTS (typed_displays); i++)
    if (strcmp (typed_displays[i].event, event) == 0 && strcmp (typed_displays[i].field, field) == 0)
      return typed_displays[i].display;
  return SEISMO_DISPLAY_DEFAULT;
}

/* The event type of a typed FtraceEvent member: its message's fields, in field number order. */
static TypeInfo *
typed_type (Reader                         *r,
            const ProtobufCFieldDescriptor *member)
{
  const SeismoPerfettoTypedEvent *known = seismo_perfetto_typed_event (NULL, member->name);
  const ProtobufCMessageDescriptor *desc = member->descriptor;
  /* Every member of our subset but generic is in the table; "ftrace" only guards a mismatch. */
  const char *system = known ? known->system : "ftrace";
  g_autofree char *full = g_strdup_printf ("%s:%s", system, member->name);
  g_autofree SeismoFieldInfo *info = NULL;
  TypeInfo *t = g_hash_table_lookup (r->types, full);

  if (t != NULL)
    return t;
  info = g_new0 (SeismoFieldInfo, MAX (desc->n_fields, 1));
  for (guint f = 0; f < desc->n_fields; f++)
    {
      info[f].name = desc->fields[f].name;
      info[f].type = proto_field_type (&desc->fields[f], &info[f].size);
      info[f].display = typed_display (member->name, desc->fields[f].name);
    }
  t = g_new0 (TypeInfo, 1);
  t->type_id = seismo_trace_builder_add_event_type (r->b, system, member->name, info,
                                                    desc->n_fields, NULL);
  g_hash_table_insert (r->types, g_steal_pointer (&full), t);
  return t;
}

/* The type called system:name, its schema learnt from this first event's fields. */
static TypeInfo *
learnt_type (Reader       *r,
             const char   *system,
             const char   *name,
             const char  **names,
             const SeismoFieldType *types,
             guint         n)
{
  g_autofree char *full = g_strdup_printf ("%s:%s", system, name);
  g_autofree SeismoFieldInfo *info = NULL;
  TypeInfo *t = g_hash_table_lookup (r->types, full);

  if (t != NULL)
    return t;
  t = g_new0 (TypeInfo, 1);
  t->fields = g_array_new (FALSE, FALSE, sizeof (LearntField));
  info = g_new0 (SeismoFieldInfo, MAX (n, 1));
  for (guint f = 0; f < n; f++)
    {
      LearntField lf = { g_strdup (names[f]), types[f] };

      g_array_append_val (t->fields, lf);
      info[f].name = names[f];
      info[f].type = types[f];
      info[f].size = types[f] == SEISMO_FIELD_STRING ? 0 : 8;
      info[f].display = types[f] == SEISMO_FIELD_POINTER ? SEISMO_DISPLAY_HEX
                        : strcmp (names[f], "ret") == 0 && strcmp (system, "syscalls") == 0
                        ? SEISMO_DISPLAY_ERRNO : SEISMO_DISPLAY_DEFAULT;
    }
  t->type_id = seismo_trace_builder_add_event_type (r->b, system, name, info, n, NULL);
  g_hash_table_insert (r->types, g_steal_pointer (&full), t);
  return t;
}

static void
push_default (SeismoTraceBuilder *b,
              SeismoFieldType     type)
{
  switch (type)
    {
    case SEISMO_FIELD_INT:
      seismo_trace_builder_push_int (b, 0);
      break;
    case SEISMO_FIELD_STRING:
      seismo_trace_builder_push_string (b, "");
      break;
    case SEISMO_FIELD_BYTES:
      seismo_trace_builder_push_bytes (b, NULL, 0);
      break;
    case SEISMO_FIELD_UINT_ARRAY:
      seismo_trace_builder_push_uint_array (b, NULL, 0);
      break;
    default:
      seismo_trace_builder_push_uint (b, 0);
      break;
    }
}

/* ---- ftrace events ---- */

static void
push_typed_field (SeismoTraceBuilder             *b,
                  const guint8                   *msg,
                  const ProtobufCFieldDescriptor *fd)
{
  guint8 size;
  SeismoFieldType type = proto_field_type (fd, &size);

  if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    {
      seismo_trace_builder_push_uint_array (b, *(const guint64 *const *) (msg + fd->offset),
                                            *(const gsize *) (msg + fd->quantifier_offset));
      return;
    }
  if (fd->type == PROTOBUF_C_TYPE_STRING)
    {
      const char *s = *(const char *const *) (msg + fd->offset);

      seismo_trace_builder_push_string (b, s ? s : "");
      return;
    }
  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
      seismo_trace_builder_push_int (b, *(const gint32 *) (msg + fd->offset));
      break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      seismo_trace_builder_push_uint (b, *(const guint32 *) (msg + fd->offset));
      break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
      seismo_trace_builder_push_int (b, *(const gint64 *) (msg + fd->offset));
      break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      seismo_trace_builder_push_uint (b, *(const guint64 *) (msg + fd->offset));
      break;
    default:
      push_default (b, type);
      break;
    }
}

static const char *
generic_system (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (generic_systems); i++)
    if (g_str_has_prefix (name, generic_systems[i].prefix))
      return generic_systems[i].system;
  return "ftrace";
}

static SeismoFieldType
generic_field_type (const Perfetto__Protos__GenericFtraceEvent__Field *f)
{
  switch (f->value_case)
    {
    case PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE:
      return SEISMO_FIELD_INT;
    case PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE:
      return SEISMO_FIELD_UINT;
    default:
      return SEISMO_FIELD_STRING;
    }
}

static void
push_generic_field (SeismoTraceBuilder                                *b,
                    SeismoFieldType                                    want,
                    const Perfetto__Protos__GenericFtraceEvent__Field *f)
{
  if (f == NULL)
    push_default (b, want);
  else if (want == SEISMO_FIELD_STRING)
    {
      if (f->value_case == PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE)
        seismo_trace_builder_push_string (b, f->str_value ? f->str_value : "");
      else if (f->value_case == PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE)
        {
          g_autofree char *s = g_strdup_printf ("%" G_GINT64_FORMAT, f->int_value);

          seismo_trace_builder_push_string (b, s);
        }
      else
        {
          g_autofree char *s = g_strdup_printf ("%" G_GUINT64_FORMAT, f->uint_value);

          seismo_trace_builder_push_string (b, s);
        }
    }
  else if (f->value_case == PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE)
    want == SEISMO_FIELD_INT ? seismo_trace_builder_push_int (b, f->int_value)
                             : seismo_trace_builder_push_uint (b, (guint64) f->int_value);
  else if (f->value_case == PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE)
    want == SEISMO_FIELD_INT ? seismo_trace_builder_push_int (b, (gint64) f->uint_value)
                             : seismo_trace_builder_push_uint (b, f->uint_value);
  else
    push_default (b, want);
}

static void
read_generic (Reader                                     *r,
              guint64                                     ts,
              guint                                       cpu,
              gint32                                      tid,
              const Perfetto__Protos__GenericFtraceEvent *g)
{
  g_autofree const char **names = g_new (const char *, MAX (g->n_field, 1));
  g_autofree SeismoFieldType *types = g_new (SeismoFieldType, MAX (g->n_field, 1));
  TypeInfo *t;

  for (gsize f = 0; f < g->n_field; f++)
    {
      names[f] = g->field[f]->name ? g->field[f]->name : "";
      types[f] = generic_field_type (g->field[f]);
    }
  t = learnt_type (r, generic_system (g->event_name), g->event_name, names, types, g->n_field);
  seismo_trace_builder_begin_event (r->b, ts, cpu, tid, t->type_id);
  /* By name: a later event of the type may have its fields in another order, or fewer. */
  for (guint k = 0; k < t->fields->len; k++)
    {
      const LearntField *lf = &g_array_index (t->fields, LearntField, k);
      const Perfetto__Protos__GenericFtraceEvent__Field *match = NULL;

      for (gsize f = 0; f < g->n_field && match == NULL; f++)
        if (g_strcmp0 (g->field[f]->name, lf->name) == 0)
          match = g->field[f];
      push_generic_field (r->b, lf->type, match);
    }
  seismo_trace_builder_end_event (r->b);
}

static void
read_ftrace_bundle (Reader                                    *r,
                    const Perfetto__Protos__FtraceEventBundle *bundle)
{
  guint cpu = bundle->has_cpu ? bundle->cpu : 0;

  /* CPUs are 16-bit columns; a bundle claiming more is not one of ours nor a real machine's. */
  if (cpu >= G_MAXUINT16)
    {
      skip (r, "ftrace bundles of impossible CPUs", "CPU number out of range");
      return;
    }
  r->n_cpus = MAX (r->n_cpus, cpu + 1);
  /* Perfetto's recorder can pack sched_switch and sched_waking into compact_sched, and adds other
   * fields to bundles: not read here, and not dropped in silence either. */
  if (bundle->base.n_unknown_fields > 0)
    skip (r, "ftrace bundle parts Seismo does not read (compact_sched, …)",
          "fields the bundle subset does not define");
  for (gsize e = 0; e < bundle->n_event; e++)
    {
      const Perfetto__Protos__FtraceEvent *fe = bundle->event[e];
      const ProtobufCFieldDescriptor *member;
      guint64 ts = fe->has_timestamp ? fe->timestamp : r->last_ns;
      gint32 tid = fe->has_pid ? (gint32) fe->pid : 0;

      r->last_ns = ts;
      if (fe->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT__NOT_SET)
        {
          skip (r, "ftrace events of kinds Seismo does not know", "an event without a member");
          continue;
        }
      if (fe->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC)
        {
          if (fe->generic->event_name == NULL || *fe->generic->event_name == '\0')
            skip (r, "ftrace events of kinds Seismo does not know", "a generic event without a name");
          else
            read_generic (r, ts, cpu, tid, fe->generic);
          continue;
        }
      member = protobuf_c_message_descriptor_get_field (&perfetto__protos__ftrace_event__descriptor,
                                                        fe->event_case);
      {
        TypeInfo *t = typed_type (r, member);
        const guint8 *msg = *(const guint8 *const *) ((const guint8 *) fe + member->offset);
        const ProtobufCMessageDescriptor *desc = member->descriptor;

        seismo_trace_builder_begin_event (r->b, ts, cpu, tid, t->type_id);
        for (guint f = 0; f < desc->n_fields; f++)
          push_typed_field (r->b, msg, &desc->fields[f]);
        seismo_trace_builder_end_event (r->b);
      }
    }
}

/* ---- tasks ---- */

/* A thread is a task; a process only adds its parent to its main thread, when that is a task. */
static void
add_thread (Reader     *r,
            gint32      tid,
            gint32      pid,
            const char *name)
{
  gpointer ppid;

  seismo_trace_builder_task (r->b, tid);
  if (pid > 0)
    seismo_trace_builder_set_task_pid (r->b, tid, pid);
  if (name != NULL && *name)
    seismo_trace_builder_set_task_comm (r->b, tid, name, r->last_ns);
  if (g_hash_table_lookup_extended (r->ppids, GINT_TO_POINTER (tid), NULL, &ppid))
    seismo_trace_builder_set_task_ppid (r->b, tid, GPOINTER_TO_INT (ppid));
}

static void
read_process_tree (Reader                              *r,
                   const Perfetto__Protos__ProcessTree *tree)
{
  for (gsize i = 0; i < tree->n_processes; i++)
    {
      const Perfetto__Protos__ProcessTree__Process *p = tree->processes[i];

      if (p->has_pid && p->pid > 0 && p->has_ppid)
        g_hash_table_insert (r->ppids, GINT_TO_POINTER (p->pid), GINT_TO_POINTER (p->ppid));
    }
  for (gsize i = 0; i < tree->n_threads; i++)
    {
      const Perfetto__Protos__ProcessTree__Thread *t = tree->threads[i];

      if (t->has_tid && t->tid > 0)
        add_thread (r, t->tid, t->has_tgid ? t->tgid : -1, t->name);
    }
}

static void
read_track_descriptor (Reader                                  *r,
                       const Perfetto__Protos__TrackDescriptor *desc)
{
  const Perfetto__Protos__ThreadDescriptor *thread = desc->thread;
  Track *t;
  guint64 *key;

  if (!desc->has_uuid || thread == NULL || !thread->has_tid)
    {
      skip (r, "track descriptors of other than threads", "not a thread track");
      return;
    }
  /* A track described again is renamed (a comm change); its open slices stay open. */
  t = g_hash_table_lookup (r->tracks, &desc->uuid);
  if (t == NULL)
    {
      t = g_new0 (Track, 1);
      t->open = g_array_new (FALSE, FALSE, sizeof (const char *));
      key = g_new (guint64, 1);
      *key = desc->uuid;
      g_hash_table_insert (r->tracks, key, t);
    }
  t->tid = thread->tid;
  t->pid = thread->has_pid ? thread->pid : -1;
  add_thread (r, t->tid, t->pid, thread->thread_name);
}

/* ---- track events ---- */

static SeismoFieldType
annotation_type (const Perfetto__Protos__DebugAnnotation *a)
{
  switch (a->value_case)
    {
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
      return SEISMO_FIELD_INT;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
      return SEISMO_FIELD_UINT;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
      return SEISMO_FIELD_POINTER;
    default:
      return SEISMO_FIELD_STRING;
    }
}

static void
push_annotation (SeismoTraceBuilder                      *b,
                 SeismoFieldType                          want,
                 const Perfetto__Protos__DebugAnnotation *a)
{
  g_autofree char *text = NULL;

  if (a == NULL)
    {
      push_default (b, want);
      return;
    }
  switch (a->value_case)
    {
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
      if (want == SEISMO_FIELD_STRING)
        text = g_strdup_printf ("%" G_GINT64_FORMAT, a->int_value);
      else if (want == SEISMO_FIELD_INT)
        seismo_trace_builder_push_int (b, a->int_value);
      else
        seismo_trace_builder_push_uint (b, (guint64) a->int_value);
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
      {
        guint64 u = a->value_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE
                    ? a->uint_value
                    : a->value_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE
                    ? a->pointer_value : (guint64) a->bool_value;

        if (want == SEISMO_FIELD_STRING)
          text = g_strdup_printf ("%" G_GUINT64_FORMAT, u);
        else if (want == SEISMO_FIELD_INT)
          seismo_trace_builder_push_int (b, (gint64) u);
        else
          seismo_trace_builder_push_uint (b, u);
      }
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
      text = g_strdup_printf ("%g", a->double_value);
      break;
    case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
      text = g_strdup (a->string_value ? a->string_value : "");
      break;
    default:
      text = g_strdup ("");
      break;
    }
  if (text == NULL)
    return;
  if (want == SEISMO_FIELD_STRING)
    seismo_trace_builder_push_string (b, text);
  else
    push_default (b, want);
}

static const char *
annotation_name (const Perfetto__Protos__DebugAnnotation *a)
{
  return a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME && a->name
         ? a->name : NULL;
}

/* One event of system:name with the named annotations as its fields (unnamed ones and those in
 * leave_out are not fields). */
static void
push_track_event (Reader                        *r,
                  guint64                        ts,
                  const Track                   *track,
                  const char                    *system,
                  const char                    *name,
                  const Perfetto__Protos__TrackEvent *te,
                  const char                    *leave_out)
{
  g_autofree const char **names = g_new (const char *, MAX (te->n_debug_annotations, 1));
  g_autofree SeismoFieldType *types = g_new (SeismoFieldType, MAX (te->n_debug_annotations, 1));
  guint n = 0;
  TypeInfo *t;

  for (gsize k = 0; k < te->n_debug_annotations; k++)
    {
      const char *an = annotation_name (te->debug_annotations[k]);

      if (an == NULL || g_strcmp0 (an, leave_out) == 0)
        continue;
      names[n] = an;
      types[n] = annotation_type (te->debug_annotations[k]);
      n++;
    }
  t = learnt_type (r, system, name, names, types, n);
  seismo_trace_builder_begin_event (r->b, ts, 0, track->tid, t->type_id);
  for (guint k = 0; k < t->fields->len; k++)
    {
      const LearntField *lf = &g_array_index (t->fields, LearntField, k);
      const Perfetto__Protos__DebugAnnotation *match = NULL;

      for (gsize j = 0; j < te->n_debug_annotations && match == NULL; j++)
        if (g_strcmp0 (annotation_name (te->debug_annotations[j]), lf->name) == 0)
          match = te->debug_annotations[j];
      push_annotation (r->b, lf->type, match);
    }
  seismo_trace_builder_end_event (r->b);
}

static void
read_track_event (Reader                             *r,
                  guint64                             ts,
                  const Perfetto__Protos__TrackEvent *te)
{
  Track *track = te->has_track_uuid ? g_hash_table_lookup (r->tracks, &te->track_uuid) : NULL;
  const char *name = te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME
                     ? te->name : NULL;
  const char *category = te->n_categories > 0 ? te->categories[0] : "track_event";
  gboolean syscall = g_strcmp0 (category, SEISMO_PERFETTO_SYSCALL_CATEGORY) == 0;
  g_autofree char *event = NULL;

  if (track == NULL)
    {
      skip (r, "track events not on a thread track", "no thread track");
      return;
    }
  switch (te->has_type ? te->type : PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_UNSPECIFIED)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
      if (name == NULL || *name == '\0')
        {
          skip (r, "track event slices without a name", "a slice begin without a name");
          name = "";
        }
      else if (syscall)
        {
          event = g_strconcat ("sys_enter_", name, NULL);
          push_track_event (r, ts, track, "syscalls", event, te, NULL);
        }
      else
        push_track_event (r, ts, track, category, name, te, NULL);
      /* What the matching end is: the syscall's exit event, or nothing for other slices (their
       * begin is the event). Remembered even when not read, so ends pair with their begins. */
      {
        g_autofree char *exit_name = syscall && *name ? g_strconcat ("sys_exit_", name, NULL)
                                                      : g_strdup ("");
        const char *interned = g_string_chunk_insert_const (r->names, exit_name);

        g_array_append_val (track->open, interned);
      }
      break;

    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
      if (track->open->len == 0)
        {
          skip (r, "track event slice ends without a begin", "a slice end without a begin");
          break;
        }
      name = g_array_index (track->open, const char *, track->open->len - 1);
      g_array_set_size (track->open, track->open->len - 1);
      /* "error" is ret as Seismo shows it: the exit's ret field says it again. */
      if (*name != '\0')
        push_track_event (r, ts, track, "syscalls", name, te, "error");
      break;

    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT:
      if (name == NULL || *name == '\0')
        skip (r, "track event instants without a name", "an instant without a name");
      else
        push_track_event (r, ts, track, category, name, te, NULL);
      break;

    default:
      skip (r, "track events of other types (counters)", "a counter or untyped track event");
      break;
    }
}

/* ---- packets ---- */

static void
read_packet (Reader                              *r,
             const Perfetto__Protos__TracePacket *packet)
{
  guint64 ts = packet->has_timestamp ? packet->timestamp : r->last_ns;

  if (packet->has_timestamp)
    r->last_ns = ts;
  switch (packet->data_case)
    {
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO:
      if (packet->system_info->utsname != NULL)
        {
          const Perfetto__Protos__Utsname *uts = packet->system_info->utsname;

          if (uts->release != NULL)
            seismo_trace_builder_set_metadata (r->b, "kernel", uts->release);
          if (uts->machine != NULL)
            seismo_trace_builder_set_metadata (r->b, "arch",
                                               seismo_perfetto_machine_to_arch (uts->machine));
        }
      if (packet->system_info->has_num_cpus && packet->system_info->num_cpus < G_MAXUINT16)
        r->n_cpus = MAX (r->n_cpus, packet->system_info->num_cpus);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE:
      read_process_tree (r, packet->process_tree);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS:
      read_ftrace_bundle (r, packet->ftrace_events);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR:
      read_track_descriptor (r, packet->track_descriptor);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT:
      read_track_event (r, ts, packet->track_event);
      break;
    default:
      skip (r, "Perfetto packets of other kinds", "a packet Seismo does not read");
      break;
    }
}

static gboolean
set_corrupt (GError     **error,
             const char  *path,
             gsize        offset,
             const char  *what)
{
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
               "“%s” is not a readable Perfetto trace: at byte %" G_GSIZE_FORMAT ", %s", path,
               offset, what);
  return FALSE;
}

/* Whether [p, end) is the start of a varint the file's end cuts off. */
static gboolean
ends_inside_varint (const guint8 *p,
                    const guint8 *end)
{
  if (end - p >= SEISMO_VARINT_MAX)
    return FALSE;
  for (; p < end; p++)
    if ((*p & 0x80) == 0)
      return FALSE;
  return TRUE;
}

/* Walks the Trace message: field 1 (packet) holds each TracePacket; others are skipped by their
 * wire type, as protobuf readers do. */
static gboolean
read_trace (Reader        *r,
            const guint8  *data,
            gsize          len,
            GCancellable  *cancellable,
            SeismoProgressFunc progress,
            gpointer       progress_data,
            GError       **error)
{
  const guint8 *p = data, *end = data + len;
  gsize next_progress = PROGRESS_STEP;
  guint n_packets = 0;

  while (p < end)
    {
      guint64 key, size = 0;
      const guint8 *body;

      r->offset = p - data;
      if (ends_inside_varint (p, end))
        {
          skip (r, "packets cut off at the end of the file", "the file ends inside a field key");
          break;
        }
      if ((body = seismo_varint_get (p, end, &key)) == NULL)
        return set_corrupt (error, r->path, r->offset, "a field key is too long");
      switch (key & 7)
        {
        case 0:
          if ((p = seismo_varint_get (body, end, &size)) == NULL)
            return set_corrupt (error, r->path, r->offset, "a number is cut");
          continue;
        case 1:
          size = 8;
          break;
        case 5:
          size = 4;
          break;
        case 2:
          if (ends_inside_varint (body, end))
            {
              skip (r, "packets cut off at the end of the file", "the file ends inside a length");
              p = end;
              continue;
            }
          if ((body = seismo_varint_get (body, end, &size)) == NULL)
            return set_corrupt (error, r->path, r->offset, "a length is too long");
          break;
        default:
          return set_corrupt (error, r->path, r->offset, "not protobuf (a group or bad wire type)");
        }
      if (size > (guint64) (end - body))
        {
          g_autofree char *what = g_strdup_printf ("needs %" G_GUINT64_FORMAT " bytes, %"
                                                   G_GSIZE_FORMAT " are left", size,
                                                   (gsize) (end - body));

          /* A recording cut short (disk full, killed writer): what came before still reads. */
          skip (r, "packets cut off at the end of the file", what);
          p = end;
          continue;
        }
      p = body + size;
      if (key == ((1 << 3) | 2))
        {
          Perfetto__Protos__TracePacket *packet =
            perfetto__protos__trace_packet__unpack (NULL, size, body);

          if (packet == NULL)
            return set_corrupt (error, r->path, r->offset, "a packet does not decode");
          read_packet (r, packet);
          perfetto__protos__trace_packet__free_unpacked (packet, NULL);
          n_packets++;
        }
      if ((gsize) (p - data) >= next_progress)
        {
          next_progress += PROGRESS_STEP;
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          if (progress)
            progress ((double) (p - data) / len, progress_data);
        }
    }
  if (n_packets == 0)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_TRUNCATED,
                   "“%s” holds no whole Perfetto trace packet", r->path);
      return FALSE;
    }
  return TRUE;
}

static SeismoTrace *
perfetto_load (const char         *path,
               GCancellable       *cancellable,
               SeismoProgressFunc  progress,
               gpointer            progress_data,
               GError            **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(SeismoTraceBuilder) b = NULL;
  g_autoptr(GHashTable) types = NULL;
  g_autoptr(GHashTable) tracks = NULL;
  g_autoptr(GHashTable) ppids = g_hash_table_new (NULL, NULL);
  GStringChunk *names;
  Reader r = { 0 };
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);

  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED, "Could not open “%s”: %s", path,
                   local_error->message);
      return NULL;
    }
  b = seismo_trace_builder_new ();
  types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, type_info_free);
  tracks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, track_free);
  names = g_string_chunk_new (4096);
  r.path = path;
  r.b = b;
  r.types = types;
  r.tracks = tracks;
  r.ppids = ppids;
  r.names = names;
  seismo_trace_builder_set_metadata (b, "source", "perfetto");
  seismo_trace_builder_set_metadata (b, "original_file", path);
  ok = read_trace (&r, (const guint8 *) g_mapped_file_get_contents (mapped),
                   g_mapped_file_get_length (mapped), cancellable, progress, progress_data, error);
  g_string_chunk_free (names);
  if (!ok)
    return NULL;
  seismo_trace_builder_set_n_cpus (b, MAX (r.n_cpus, 1));
  return seismo_trace_builder_finish (g_steal_pointer (&b));
}

/* Perfetto files have no magic: a first Trace.packet field that decodes as a packet holding data
 * is as good (text never does), helped by the file name. */
static int
perfetto_sniff (const guint8 *head,
                gsize         len,
                const char   *path)
{
  gboolean named = path != NULL && (g_str_has_suffix (path, ".perfetto-trace")
                                    || g_str_has_suffix (path, ".pftrace"));
  const guint8 *body;
  guint64 size;
  Perfetto__Protos__TracePacket *packet;
  gboolean has_data;

  if (len < 2 || head[0] != ((1 << 3) | 2))
    return 0;
  if ((body = seismo_varint_get (head + 1, head + len, &size)) == NULL)
    return 0;
  if (size > (guint64) (head + len - body))
    return named ? 60 : 0;
  packet = perfetto__protos__trace_packet__unpack (NULL, size, body);
  if (packet == NULL)
    return 0;
  has_data = packet->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA__NOT_SET;
  perfetto__protos__trace_packet__free_unpacked (packet, NULL);
  return has_data ? (named ? 95 : 80) : 0;
}

const SeismoImporter seismo_perfetto_importer = {
  .name = "perfetto",
  .description = "Perfetto protobuf trace (.perfetto-trace, .pftrace)",
  .sniff = perfetto_sniff,
  .load = perfetto_load,
};

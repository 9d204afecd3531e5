/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-export"

#include <string.h>

#include "perfetto_trace.pb-c.h"
#include "seismo-export-perfetto.h"
#include "seismo-export-private.h"
#include "seismo-perfetto-private.h"
#include "seismo-varint.h"

/* The shape is documented in seismo-export-perfetto.h and docs/perfetto.md. */

/* Events per FtraceEventBundle: what is held in memory per CPU before it is written. */
#define BUNDLE_EVENTS 1024
/* Threads and processes per ProcessTree packet. */
#define TREE_CHUNK 1024
/* The one packet sequence of the track events (trace processor keys their state by it). */
#define SEQUENCE_ID 1
#define ARENA_BLOCK (64 * 1024)

/* Where a source's events come from. Kernel sources place every event on a CPU. Of those, eBPF's
 * syscalls are not ftrace events (its own probes, Perfetto would not see them as sys_enter), so
 * like the syscalls of user-space recorders they become track event slices. */
typedef enum {
  SYSCALLS_AS_TRACK = 0,    /* syscall events are track event slices */
  SYSCALLS_AS_FTRACE,       /* syscall events are ftrace events */
  SYSCALLS_RAW_AS_FTRACE,   /* raw_syscalls ones are ftrace events, syscalls:* ones slices */
} SyscallRoute;

typedef struct {
  const char   *source;
  gboolean      kernel_events;    /* non-syscall events in FtraceEventBundles */
  SyscallRoute  syscalls;
} SourceRoute;

static const SourceRoute source_routes[] = {
  { "ftrace",      TRUE,  SYSCALLS_AS_FTRACE },
  { "trace.dat",   TRUE,  SYSCALLS_AS_FTRACE },
  { "ftrace-text", TRUE,  SYSCALLS_AS_FTRACE },
  { "synthetic",   TRUE,  SYSCALLS_AS_FTRACE },
  { "ebpf",        TRUE,  SYSCALLS_AS_TRACK },
  { "ptrace",      FALSE, SYSCALLS_AS_TRACK },
  { "strace",      FALSE, SYSCALLS_AS_TRACK },
  /* Read back from an export: raw_syscalls events came from ftrace bundles, syscalls:* ones from
   * track event slices (seismo-import-perfetto.c), so each goes back where it came from. */
  { "perfetto",    TRUE,  SYSCALLS_RAW_AS_FTRACE },
};

typedef enum {
  ROUTE_FTRACE = 0,      /* per-CPU bundle: typed member or generic */
  ROUTE_TRACK_INSTANT,   /* TrackEvent instant on the task's thread track */
  ROUTE_TRACK_SYSCALL,   /* TrackEvent slice begin (enter) or end (exit) */
} Route;

/* How one event type is written, worked out once. */
typedef struct {
  Route                              route;
  const ProtobufCFieldDescriptor    *member;    /* typed FtraceEvent member; NULL: generic */
  const ProtobufCFieldDescriptor   **targets;   /* per event field: the typed message's field */
} Plan;

/* Bump allocation for the messages of the packets being built; reset once they are written, so
 * the export holds at most a bundle per CPU and one packet's worth of messages. */
typedef struct {
  GPtrArray *blocks;      /* ARENA_BLOCK each, reused */
  GPtrArray *large;       /* bigger allocations, freed at reset */
  guint      block;       /* current block index */
  gsize      used;        /* bytes used in it */
} Arena;

typedef struct {
  Arena                          arena;
  Perfetto__Protos__FtraceEvent *events[BUNDLE_EVENTS];
  guint                          n_events;
  guint64                        last_ns;     /* of the last event added */
} Bundle;

typedef struct {
  SeismoTrace        *trace;
  SeismoExportWriter *w;
  Plan               *plans;
  guint               n_plans;
  Bundle             *bundles;    /* one per CPU */
  guint               n_cpus;
  Arena               arena;      /* for single packets (track events, descriptors, tree) */
  GString            *scratch;
  SeismoValue        *values;
  guint               n_values;
  guint8             *described;  /* per task: thread track descriptor written */
  gboolean            first_on_sequence;
} Perfetto;

/* ---- arena ---- */

static void
arena_init (Arena *a)
{
  a->blocks = g_ptr_array_new_with_free_func (g_free);
  a->large = g_ptr_array_new_with_free_func (g_free);
  a->block = 0;
  a->used = 0;
}

static void
arena_clear (Arena *a)
{
  g_clear_pointer (&a->blocks, g_ptr_array_unref);
  g_clear_pointer (&a->large, g_ptr_array_unref);
}

static void
arena_reset (Arena *a)
{
  g_ptr_array_set_size (a->large, 0);
  a->block = 0;
  a->used = 0;
}

/* Zeroed memory that lives until the next reset. */
static gpointer
arena_alloc (Arena *a,
             gsize  size)
{
  guint8 *p;

  size = (size + 7) & ~(gsize) 7;
  if (size > ARENA_BLOCK / 4)
    {
      p = g_malloc0 (size);
      g_ptr_array_add (a->large, p);
      return p;
    }
  /* The first block on first use: a CPU that records nothing costs nothing. */
  if (a->blocks->len == 0)
    g_ptr_array_add (a->blocks, g_malloc (ARENA_BLOCK));
  else if (a->used + size > ARENA_BLOCK)
    {
      a->block++;
      a->used = 0;
      if (a->block == a->blocks->len)
        g_ptr_array_add (a->blocks, g_malloc (ARENA_BLOCK));
    }
  p = (guint8 *) g_ptr_array_index (a->blocks, a->block) + a->used;
  a->used += size;
  memset (p, 0, size);
  return p;
}

/* Protobuf strings must be UTF-8; comms and paths are bytes. Valid strings are used in place
 * (they live as long as the trace), others are repaired into the arena. */
static char *
arena_utf8 (Arena      *a,
            const char *s,
            gssize      len)
{
  g_autofree char *valid = NULL;
  gsize n;
  char *copy;

  if (len < 0)
    len = strlen (s);
  if (g_utf8_validate (s, len, NULL) && s[len] == '\0')
    return (char *) s;
  valid = g_utf8_make_valid (s, len);
  n = strlen (valid);
  copy = arena_alloc (a, n + 1);
  memcpy (copy, valid, n + 1);
  return copy;
}

/* ---- plans ---- */

static const SourceRoute *
source_route (SeismoTrace *trace)
{
  const char *source = seismo_trace_get_metadata (trace, SEISMO_META_SOURCE);

  for (guint i = 0; i < G_N_ELEMENTS (source_routes); i++)
    if (g_strcmp0 (source, source_routes[i].source) == 0)
      return &source_routes[i];
  /* An unknown source is read as what Seismo's own formats hold by default: kernel events. */
  return &source_routes[0];
}

/* Whether a value of this Seismo type can fill a typed field. */
static gboolean
field_fits (SeismoFieldType                 type,
            const ProtobufCFieldDescriptor *fd)
{
  if (fd->label == PROTOBUF_C_LABEL_REPEATED)
    return type == SEISMO_FIELD_UINT_ARRAY && fd->type == PROTOBUF_C_TYPE_UINT64;
  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_STRING:
      return TRUE;    /* strings as they are, anything else as it prints */
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_UINT64:
      return type == SEISMO_FIELD_INT || type == SEISMO_FIELD_UINT
             || type == SEISMO_FIELD_POINTER;
    default:
      return FALSE;
    }
}

static void
make_plan (Perfetto              *p,
           const SourceRoute     *source,
           const SeismoEventType *type,
           Plan                  *plan)
{
  gboolean syscall = type->kind == SEISMO_KIND_SYSCALL_ENTER
                     || type->kind == SEISMO_KIND_SYSCALL_EXIT;
  const ProtobufCMessageDescriptor *msg;

  if (syscall && (source->syscalls == SYSCALLS_AS_TRACK
                  || (source->syscalls == SYSCALLS_RAW_AS_FTRACE
                      && strcmp (type->system, "raw_syscalls") != 0)))
    {
      plan->route = ROUTE_TRACK_SYSCALL;
      return;
    }
  if (!syscall && !source->kernel_events)
    {
      plan->route = ROUTE_TRACK_INSTANT;
      return;
    }
  plan->route = ROUTE_FTRACE;
  if (seismo_perfetto_typed_event (type->system, type->name) == NULL)
    return;
  plan->member = protobuf_c_message_descriptor_get_field_by_name (
                   &perfetto__protos__ftrace_event__descriptor, type->name);
  g_assert (plan->member != NULL && plan->member->type == PROTOBUF_C_TYPE_MESSAGE);
  msg = plan->member->descriptor;
  plan->targets = g_new0 (const ProtobufCFieldDescriptor *, MAX (type->n_fields, 1));
  for (guint f = 0; f < type->n_fields; f++)
    {
      const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field_by_name (msg, type->fields[f].name);

      if (fd != NULL && field_fits (type->fields[f].type, fd))
        plan->targets[f] = fd;
    }
}

static void
make_plans (Perfetto *p)
{
  const SourceRoute *source = source_route (p->trace);

  p->n_plans = seismo_trace_get_n_event_types (p->trace);
  p->plans = g_new0 (Plan, MAX (p->n_plans, 1));
  for (guint t = 0; t < p->n_plans; t++)
    {
      const SeismoEventType *type = seismo_trace_get_event_type (p->trace, t);

      make_plan (p, source, type, &p->plans[t]);
      if (type->n_fields > p->n_values)
        p->n_values = type->n_fields;
    }
  p->values = g_new (SeismoValue, MAX (p->n_values, 1));
}

/* ---- packets ---- */

static gboolean
write_packet (Perfetto                      *p,
              Perfetto__Protos__TracePacket *packet,
              GError                       **error)
{
  GString *out = p->w->buf;
  gsize size = protobuf_c_message_get_packed_size (&packet->base);
  guint8 head[1 + SEISMO_VARINT_MAX];
  guint8 *end;
  gsize at;

  /* Trace.packet: field 1, length-delimited. Writing the Trace one packet at a time is what
   * Perfetto's own recorder does, and what keeps the export's memory bounded. */
  head[0] = (1 << 3) | 2;
  end = seismo_varint_put (head + 1, size);
  g_string_append_len (out, (const char *) head, end - head);
  at = out->len;
  g_string_set_size (out, at + size);
  protobuf_c_message_pack (&packet->base, (guint8 *) out->str + at);
  return seismo_export_writer_maybe_flush (p->w, error);
}

/* Packets of the track event sequence carry its id; the first says its state starts there. */
static void
on_sequence (Perfetto                      *p,
             Perfetto__Protos__TracePacket *packet)
{
  packet->optional_trusted_packet_sequence_id_case =
    PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
  packet->trusted_packet_sequence_id = SEQUENCE_ID;
  if (p->first_on_sequence)
    {
      packet->has_sequence_flags = TRUE;
      packet->sequence_flags =
        PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
      p->first_on_sequence = FALSE;
    }
}

static gboolean
write_system_info (Perfetto  *p,
                   GError   **error)
{
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__SystemInfo info = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
  Perfetto__Protos__Utsname uts = PERFETTO__PROTOS__UTSNAME__INIT;
  const char *kernel = seismo_trace_get_metadata (p->trace, SEISMO_META_KERNEL);
  const char *arch = seismo_trace_get_metadata (p->trace, SEISMO_META_ARCH);
  gboolean ok;

  /* Trace processor names raw_syscalls ids with the table of utsname's machine. */
  uts.sysname = "Linux";
  uts.release = kernel ? arena_utf8 (&p->arena, kernel, -1) : NULL;
  uts.machine = arch ? arena_utf8 (&p->arena, seismo_perfetto_arch_to_machine (arch), -1) : NULL;
  info.utsname = &uts;
  info.has_num_cpus = TRUE;
  info.num_cpus = seismo_trace_get_n_cpus (p->trace);
  packet.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO;
  packet.system_info = &info;
  ok = write_packet (p, &packet, error);
  arena_reset (&p->arena);
  return ok;
}

/* The task's comm at time_ns (comms change at exec and prctl; see write_comm_change). */
static const char *
task_name (Perfetto     *p,
           SeismoTaskId  t,
           guint64       time_ns)
{
  const char *comm = seismo_trace_task_comm_at (p->trace, t, time_ns);

  return arena_utf8 (&p->arena, *comm ? comm : "<...>", -1);
}

static gboolean
flush_tree (Perfetto                    *p,
            Perfetto__Protos__ProcessTree *tree,
            GError                     **error)
{
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  gboolean ok = TRUE;

  if (tree->n_processes + tree->n_threads > 0)
    {
      packet.has_timestamp = TRUE;
      packet.timestamp = seismo_trace_get_start_ns (p->trace);
      packet.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
      packet.process_tree = tree;
      ok = write_packet (p, &packet, error);
    }
  tree->n_processes = tree->n_threads = 0;
  arena_reset (&p->arena);
  return ok;
}

/* Every process and thread with its name, so both the ftrace and the track event views show
 * names (pid 0, the idle task, is Perfetto's own). */
static gboolean
write_process_tree (Perfetto  *p,
                    GError   **error)
{
  guint n_tasks = seismo_trace_get_n_tasks (p->trace);
  Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
  g_autofree Perfetto__Protos__ProcessTree__Process **procs =
    g_new (Perfetto__Protos__ProcessTree__Process *, TREE_CHUNK);
  g_autofree Perfetto__Protos__ProcessTree__Thread **threads =
    g_new (Perfetto__Protos__ProcessTree__Thread *, TREE_CHUNK);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  tree.processes = procs;
  tree.threads = threads;
  /* Processes first, each named after its main thread, else the first thread seen. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint t = 0; t < n_tasks; t++)
      {
        const SeismoTask *task = seismo_trace_get_task (p->trace, t);
        gint32 pid = task->pid;
        Perfetto__Protos__ProcessTree__Process *proc;
        char **cmdline;

        /* A task whose process is not known says so: no process, no tgid. */
        if (pid <= 0 || (pass == 0 && task->tid != pid)
            || g_hash_table_contains (seen, GINT_TO_POINTER (pid)))
          continue;
        g_hash_table_add (seen, GINT_TO_POINTER (pid));
        proc = arena_alloc (&p->arena, sizeof *proc);
        perfetto__protos__process_tree__process__init (proc);
        proc->has_pid = TRUE;
        proc->pid = pid;
        if (task->ppid >= 0)
          {
            proc->has_ppid = TRUE;
            proc->ppid = task->ppid;
          }
        cmdline = arena_alloc (&p->arena, sizeof (char *));
        cmdline[0] = (char *) task_name (p, t, task->first_ns);
        proc->cmdline = cmdline;
        proc->n_cmdline = 1;
        procs[tree.n_processes++] = proc;
        if (tree.n_processes == TREE_CHUNK && !flush_tree (p, &tree, error))
          return FALSE;
      }
  for (guint t = 0; t < n_tasks; t++)
    {
      const SeismoTask *task = seismo_trace_get_task (p->trace, t);
      Perfetto__Protos__ProcessTree__Thread *thread;

      if (task->tid <= 0)
        continue;
      thread = arena_alloc (&p->arena, sizeof *thread);
      perfetto__protos__process_tree__thread__init (thread);
      thread->has_tid = TRUE;
      thread->tid = task->tid;
      thread->has_tgid = task->pid >= 0;
      thread->tgid = task->pid;
      thread->name = (char *) task_name (p, t, task->first_ns);
      threads[tree.n_threads++] = thread;
      if (tree.n_threads == TREE_CHUNK && !flush_tree (p, &tree, error))
        return FALSE;
    }
  return flush_tree (p, &tree, error);
}

/* ---- ftrace bundles ---- */

static gboolean
flush_bundle (Perfetto  *p,
              guint      cpu,
              GError   **error)
{
  Bundle *b = &p->bundles[cpu];
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__FtraceEventBundle bundle = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
  gboolean ok;

  if (b->n_events == 0)
    return TRUE;
  bundle.has_cpu = TRUE;
  bundle.cpu = cpu;
  bundle.event = b->events;
  bundle.n_event = b->n_events;
  packet.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
  packet.ftrace_events = &bundle;
  ok = write_packet (p, &packet, error);
  b->n_events = 0;
  arena_reset (&b->arena);
  return ok;
}

/* Readers order the events of one time by where they are in the file. So that an event stays
 * after those of its time that came before it on other CPUs (or on no CPU), bundles holding one
 * of them are written before the event is added anywhere. */
static gboolean
flush_ties (Perfetto  *p,
            guint64    time_ns,
            guint      except_cpu,
            GError   **error)
{
  for (guint cpu = 0; cpu < p->n_cpus; cpu++)
    if (cpu != except_cpu && p->bundles[cpu].n_events > 0 && p->bundles[cpu].last_ns == time_ns
        && !flush_bundle (p, cpu, error))
      return FALSE;
  return TRUE;
}

/* A value as the text Seismo prints for it, in the arena. */
static char *
value_text (Perfetto          *p,
            Arena             *a,
            const SeismoField *field,
            const SeismoValue *v)
{
  char *copy;

  if (v->type == SEISMO_FIELD_STRING)
    return arena_utf8 (a, v->str, v->len);
  g_string_truncate (p->scratch, 0);
  seismo_trace_format_value (p->trace, field, v, p->scratch);
  copy = arena_alloc (a, p->scratch->len + 1);
  memcpy (copy, p->scratch->str, p->scratch->len + 1);
  return arena_utf8 (a, copy, p->scratch->len);
}

static void
set_number (guint8                         *msg,
            const ProtobufCFieldDescriptor *fd,
            const SeismoValue              *v)
{
  gint64 i = v->type == SEISMO_FIELD_INT ? v->i : (gint64) v->u;

  switch (fd->type)
    {
    case PROTOBUF_C_TYPE_INT32:
      *(gint32 *) (msg + fd->offset) = (gint32) i;
      break;
    case PROTOBUF_C_TYPE_UINT32:
      *(guint32 *) (msg + fd->offset) = (guint32) i;
      break;
    case PROTOBUF_C_TYPE_INT64:
      *(gint64 *) (msg + fd->offset) = i;
      break;
    case PROTOBUF_C_TYPE_UINT64:
      *(guint64 *) (msg + fd->offset) = (guint64) i;
      break;
    default:
      g_assert_not_reached ();
    }
  /* proto2 optional scalars have a has_ flag; its offset is never 0 (the base header is). */
  if (fd->quantifier_offset != 0)
    *(protobuf_c_boolean *) (msg + fd->quantifier_offset) = TRUE;
}

/* A packed UINT_ARRAY (raw_syscalls args) as a repeated uint64. */
static void
set_uint_array (Arena                          *a,
                guint8                         *msg,
                const ProtobufCFieldDescriptor *fd,
                const SeismoValue              *v)
{
  const guint8 *q = v->data, *end = v->data + v->len;
  guint64 *items = arena_alloc (a, MAX (v->u, 1) * sizeof (guint64));
  gsize n = 0;

  while (n < v->u && q != NULL && q < end)
    if ((q = seismo_varint_get (q, end, &items[n])) != NULL)
      n++;
  *(gsize *) (msg + fd->quantifier_offset) = n;
  *(guint64 **) (msg + fd->offset) = items;
}

static ProtobufCMessage *
typed_message (Perfetto              *p,
               Arena                 *a,
               const Plan            *plan,
               const SeismoEventType *type,
               guint                  n_values)
{
  const ProtobufCMessageDescriptor *desc = plan->member->descriptor;
  guint8 *msg = arena_alloc (a, desc->sizeof_message);

  protobuf_c_message_init (desc, msg);
  for (guint f = 0; f < n_values; f++)
    {
      const ProtobufCFieldDescriptor *fd = plan->targets[f];
      const SeismoValue *v = &p->values[f];

      if (fd == NULL)
        continue;
      if (fd->label == PROTOBUF_C_LABEL_REPEATED)
        set_uint_array (a, msg, fd, v);
      else if (fd->type == PROTOBUF_C_TYPE_STRING)
        *(char **) (msg + fd->offset) = value_text (p, a, &type->fields[f], v);
      else
        set_number (msg, fd, v);
    }
  return (ProtobufCMessage *) msg;
}

static Perfetto__Protos__GenericFtraceEvent *
generic_message (Perfetto              *p,
                 Arena                 *a,
                 const SeismoEventType *type,
                 guint                  n_values)
{
  Perfetto__Protos__GenericFtraceEvent *g = arena_alloc (a, sizeof *g);
  Perfetto__Protos__GenericFtraceEvent__Field **fields =
    arena_alloc (a, MAX (n_values, 1) * sizeof *fields);

  perfetto__protos__generic_ftrace_event__init (g);
  g->event_name = arena_utf8 (a, type->name, -1);
  for (guint f = 0; f < n_values; f++)
    {
      Perfetto__Protos__GenericFtraceEvent__Field *field = arena_alloc (a, sizeof *field);
      const SeismoValue *v = &p->values[f];

      perfetto__protos__generic_ftrace_event__field__init (field);
      field->name = arena_utf8 (a, type->fields[f].name, -1);
      switch (v->type)
        {
        case SEISMO_FIELD_INT:
          field->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE;
          field->int_value = v->i;
          break;
        case SEISMO_FIELD_UINT:
        case SEISMO_FIELD_POINTER:
          field->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE;
          field->uint_value = v->u;
          break;
        default:
          field->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
          field->str_value = value_text (p, a, &type->fields[f], v);
          break;
        }
      fields[f] = field;
    }
  g->field = fields;
  g->n_field = n_values;
  return g;
}

static gboolean
add_ftrace_event (Perfetto       *p,
                  SeismoEventId   ev,
                  const Plan     *plan,
                  GError        **error)
{
  const SeismoEventType *type = seismo_trace_event_type (p->trace, ev);
  guint cpu = seismo_trace_event_cpu (p->trace, ev);
  Bundle *b;
  Perfetto__Protos__FtraceEvent *fe;
  guint n_values;
  const ProtobufCFieldDescriptor *member = plan->member;
  ProtobufCMessage *sub;

  if (cpu >= p->n_cpus)
    cpu = p->n_cpus - 1;
  if (!flush_ties (p, seismo_trace_event_time (p->trace, ev), cpu, error))
    return FALSE;
  b = &p->bundles[cpu];
  b->last_ns = seismo_trace_event_time (p->trace, ev);
  n_values = seismo_trace_event_fields (p->trace, ev, p->values, type->n_fields);

  fe = arena_alloc (&b->arena, sizeof *fe);
  perfetto__protos__ftrace_event__init (fe);
  fe->has_timestamp = TRUE;
  fe->timestamp = seismo_trace_event_time (p->trace, ev);
  fe->has_pid = TRUE;
  fe->pid = (guint32) seismo_trace_event_task (p->trace, ev)->tid;
  if (member != NULL)
    sub = typed_message (p, &b->arena, plan, type, n_values);
  else
    {
      member = protobuf_c_message_descriptor_get_field (&perfetto__protos__ftrace_event__descriptor,
                                                        PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GENERIC);
      sub = (ProtobufCMessage *) generic_message (p, &b->arena, type, n_values);
    }
  /* The oneof by reflection: its pointer at the member's offset, its case at the quantifier's. */
  *(ProtobufCMessage **) ((guint8 *) fe + member->offset) = sub;
  *(guint32 *) ((guint8 *) fe + member->quantifier_offset) = member->id;

  b->events[b->n_events++] = fe;
  return b->n_events < BUNDLE_EVENTS || flush_bundle (p, cpu, error);
}

/* ---- track events ---- */

static guint64
thread_track (SeismoTaskId task)
{
  /* Track uuids are global to the trace; 0 is the implicit global track. */
  return (guint64) task + 1;
}

/* The task's thread track, named as the task was at time_ns. Written before the track's first
 * event, and again when the task's comm changes, so a reader sees every name it had. */
static gboolean
write_thread_track (Perfetto      *p,
                    SeismoTaskId   t,
                    guint64        time_ns,
                    GError       **error)
{
  const SeismoTask *task = seismo_trace_get_task (p->trace, t);
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TrackDescriptor desc = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
  Perfetto__Protos__ThreadDescriptor thread = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
  gboolean ok;

  p->described[t] = TRUE;
  packet.has_timestamp = TRUE;
  packet.timestamp = time_ns;
  desc.has_uuid = TRUE;
  desc.uuid = thread_track (t);
  thread.has_pid = task->pid >= 0;
  thread.pid = task->pid;
  thread.has_tid = TRUE;
  thread.tid = task->tid;
  thread.thread_name = (char *) task_name (p, t, time_ns);
  desc.thread = &thread;
  packet.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
  packet.track_descriptor = &desc;
  on_sequence (p, &packet);
  ok = write_packet (p, &packet, error);
  arena_reset (&p->arena);
  return ok;
}

static Perfetto__Protos__DebugAnnotation *
annotation (Perfetto          *p,
            const char        *name,
            const SeismoField *field,
            const SeismoValue *v)
{
  Perfetto__Protos__DebugAnnotation *a = arena_alloc (&p->arena, sizeof *a);

  perfetto__protos__debug_annotation__init (a);
  a->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
  a->name = arena_utf8 (&p->arena, name, -1);
  /* Plain numbers stay numbers (for SQL); names, flags, errnos and strings as Seismo shows them. */
  if (field->display == SEISMO_DISPLAY_DEFAULT && v->type == SEISMO_FIELD_INT)
    {
      a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
      a->int_value = v->i;
    }
  else if (field->display == SEISMO_DISPLAY_DEFAULT && v->type == SEISMO_FIELD_UINT)
    {
      a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
      a->uint_value = v->u;
    }
  else if (v->type == SEISMO_FIELD_POINTER && field->display == SEISMO_DISPLAY_HEX)
    {
      a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE;
      a->pointer_value = v->u;
    }
  else
    {
      a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
      a->string_value = value_text (p, &p->arena, field, v);
    }
  return a;
}

static gboolean
write_track_event (Perfetto                        *p,
                   SeismoEventId                    ev,
                   Perfetto__Protos__TrackEvent__Type kind,
                   const char                      *name,
                   GError                         **error)
{
  const SeismoEventType *type = seismo_trace_event_type (p->trace, ev);
  SeismoTaskId task = seismo_trace_get_tasks (p->trace)[ev];
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  Perfetto__Protos__DebugAnnotation **args;
  char *category;
  guint n_values;
  gboolean ok;

  if (!flush_ties (p, seismo_trace_event_time (p->trace, ev), G_MAXUINT, error))
    return FALSE;
  if (!p->described[task]
      && !write_thread_track (p, task, seismo_trace_event_time (p->trace, ev), error))
    return FALSE;
  n_values = seismo_trace_event_fields (p->trace, ev, p->values, type->n_fields);
  args = arena_alloc (&p->arena, (n_values + 2) * sizeof *args);
  te.has_type = TRUE;
  te.type = kind;
  te.has_track_uuid = TRUE;
  te.track_uuid = thread_track (task);
  if (kind == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END)
    {
      /* The end names no slice; its "ret" (a number, for SQL) and, for a failure, "error" as
       * Seismo shows it ("-2 ENOENT (No such file or directory)") join the begin's arguments. */
      int f = type->roles[SEISMO_ROLE_RET];

      if (f >= 0 && (guint) f < n_values)
        {
          const SeismoField *field = &type->fields[f];
          const SeismoValue *v = &p->values[f];
          SeismoField plain = *field;

          plain.display = SEISMO_DISPLAY_DEFAULT;
          args[te.n_debug_annotations++] = annotation (p, "ret", &plain, v);
          if (field->display == SEISMO_DISPLAY_ERRNO && v->type == SEISMO_FIELD_INT && v->i < 0)
            args[te.n_debug_annotations++] = annotation (p, "error", field, v);
        }
    }
  else
    {
      te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
      te.name = arena_utf8 (&p->arena, name, -1);
      category = arena_utf8 (&p->arena,
                             kind == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
                             ? SEISMO_PERFETTO_SYSCALL_CATEGORY : type->system, -1);
      te.categories = arena_alloc (&p->arena, sizeof (char *));
      te.categories[0] = category;
      te.n_categories = 1;
      for (guint f = 0; f < n_values; f++)
        args[te.n_debug_annotations++] = annotation (p, type->fields[f].name, &type->fields[f],
                                                     &p->values[f]);
    }
  te.debug_annotations = args;
  packet.has_timestamp = TRUE;
  packet.timestamp = seismo_trace_event_time (p->trace, ev);
  packet.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
  packet.track_event = &te;
  on_sequence (p, &packet);
  ok = write_packet (p, &packet, error);
  arena_reset (&p->arena);
  return ok;
}

/* A comm change (exec, prctl) as the thread track renamed at its time: Perfetto names the thread
 * after its track descriptors; ftrace events carry comms of their own. The change at the task's
 * start is the name the process tree already gave it. */
static gboolean
write_comm_change (Perfetto                *p,
                   const SeismoCommChange  *change,
                   GError                 **error)
{
  if (change->time_ns <= seismo_trace_get_task (p->trace, change->task)->first_ns)
    return TRUE;
  return write_thread_track (p, change->task, change->time_ns, error);
}

/* ---- the export ---- */

static gboolean
write_events (Perfetto  *p,
              GError   **error)
{
  SeismoTrace *trace = p->trace;
  gsize n = seismo_trace_get_n_events (trace);
  const guint16 *types = seismo_trace_get_types (trace);
  gsize n_spans, s = 0;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n_spans);
  g_autofree guint64 *span_exit = g_new0 (guint64, n / 64 + 1);
  const guint64 *times = seismo_trace_get_times (trace);
  guint n_changes, c = 0;
  const SeismoCommChange *changes = seismo_trace_get_comm_changes (trace, &n_changes);

  /* Spans come in enter order (walked along); their exits are marked, so an exit without its
   * enter (the trace began inside the call) is an instant, not an unbalanced slice end. */
  for (gsize k = 0; k < n_spans; k++)
    if (spans[k].exit != SEISMO_NO_EVENT)
      span_exit[spans[k].exit >> 6] |= G_GUINT64_CONSTANT (1) << (spans[k].exit & 63);

  for (gsize i = 0; i < n; i++)
    {
      const Plan *plan = &p->plans[types[i]];
      gboolean ok;

      while (c < n_changes && changes[c].time_ns <= times[i])
        if (!write_comm_change (p, &changes[c++], error))
          return FALSE;
      while (s < n_spans && spans[s].enter < i)
        s++;
      switch (plan->route)
        {
        case ROUTE_FTRACE:
          ok = add_ftrace_event (p, i, plan, error);
          break;
        case ROUTE_TRACK_SYSCALL:
          if (s < n_spans && spans[s].enter == i)
            ok = write_track_event (p, i, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
                                    seismo_trace_get_syscall_name (trace, spans[s].syscall),
                                    error);
          else if ((span_exit[i >> 6] >> (i & 63)) & 1)
            ok = write_track_event (p, i, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END,
                                    NULL, error);
          else
            ok = write_track_event (p, i, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
                                    seismo_trace_event_type (trace, i)->name, error);
          break;
        case ROUTE_TRACK_INSTANT:
        default:
          ok = write_track_event (p, i, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
                                  seismo_trace_event_type (trace, i)->name, error);
          break;
        }
      if (!ok)
        return FALSE;
    }
  while (c < n_changes)
    if (!write_comm_change (p, &changes[c++], error))
      return FALSE;
  for (guint cpu = 0; cpu < p->n_cpus; cpu++)
    if (!flush_bundle (p, cpu, error))
      return FALSE;
  return TRUE;
}

gboolean
seismo_export_perfetto (SeismoTrace  *trace,
                        const char   *path,
                        GError      **error)
{
  g_autoptr(SeismoExportWriter) w = NULL;
  g_autoptr(GString) scratch = g_string_new (NULL);
  Perfetto p = { 0 };
  gboolean ok;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(w = seismo_export_writer_new (path, error)))
    return FALSE;
  p.trace = trace;
  p.w = w;
  p.scratch = scratch;
  p.first_on_sequence = TRUE;
  p.n_cpus = MAX (seismo_trace_get_n_cpus (trace), 1);
  p.bundles = g_new0 (Bundle, p.n_cpus);
  for (guint cpu = 0; cpu < p.n_cpus; cpu++)
    arena_init (&p.bundles[cpu].arena);
  arena_init (&p.arena);
  p.described = g_new0 (guint8, MAX (seismo_trace_get_n_tasks (trace), 1));
  make_plans (&p);

  ok = write_system_info (&p, error) && write_process_tree (&p, error)
       && write_events (&p, error);

  for (guint t = 0; t < p.n_plans; t++)
    g_free (p.plans[t].targets);
  g_free (p.plans);
  for (guint cpu = 0; cpu < p.n_cpus; cpu++)
    arena_clear (&p.bundles[cpu].arena);
  g_free (p.bundles);
  arena_clear (&p.arena);
  g_free (p.described);
  g_free (p.values);
  return ok && seismo_export_writer_commit (w, error);
}

static gboolean
save_perfetto (SeismoTrace  *trace,
               const char   *path,
               GError      **error)
{
  return seismo_export_perfetto (trace, path, error);
}

const SeismoExporter seismo_perfetto_exporter = {
  .name = "perfetto",
  .extension = ".perfetto-trace",
  .save = save_perfetto,
};

const SeismoExporter seismo_pftrace_exporter = {
  .name = "perfetto",
  .extension = ".pftrace",
  .save = save_perfetto,
};

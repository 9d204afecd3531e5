/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <ctype.h>
#include <string.h>

#include "seismo-stacks.h"
#include "seismo-tep-convert.h"
#include "seismo-tracepoints.h"

/*
 * How one payload field is read from a record. Compiled once per format so the per-record loop is
 * a switch over small structs instead of libtraceevent lookups.
 */
typedef enum {
  OP_INT,        /* signed scalar */
  OP_UINT,       /* unsigned scalar or pointer */
  OP_STR,        /* fixed char array */
  OP_DSTR,       /* __data_loc / __rel_loc char[] */
  OP_UARR,       /* fixed array of 2, 4 or 8-byte elements */
  OP_DUARR,      /* dynamic array of 2, 4 or 8-byte elements */
  OP_BYTES,      /* fixed array of bytes, or a scalar of an odd width */
  OP_DBYTES,     /* dynamic array of bytes */
  OP_KSYM,       /* kernel address shown with %ps / %pS: stored as the symbol's name */
  OP_STACK,      /* kernel_stack / user_stack callers: to the record's end, one frame a line */
} OpKind;

typedef struct {
  guint8  kind;
  guint8  size;      /* scalars: width; arrays: element width; dynamic: 1 for __rel_loc */
  guint16 offset;
  guint16 len;       /* fixed arrays: byte length; OP_KSYM: 1 to add "+0xoffset" (%pS) */
} Op;

/* Events whose fields say something about tasks, beyond being stored. */
typedef enum {
  TASK_NONE,
  TASK_SWITCH,
  TASK_WAKEUP,
  TASK_FORK,
  TASK_EXEC,
  TASK_EXIT,
  TASK_RENAME,
} TaskRole;

typedef struct {
  int offset;
  int size;
} Loc;

/* Layouts read without the generic loop: the bulk of any syscall trace. */
typedef enum {
  FAST_NONE,
  FAST_SYS_ENTER,   /* raw_syscalls:sys_enter: 8-byte id, 6 × 8-byte args */
  FAST_SYS_EXIT,    /* raw_syscalls:sys_exit: 8-byte id, 8-byte ret */
} FastPath;

typedef struct {
  guint     type_id;
  FastPath  fast;
  guint     n_ops;
  Op       *ops;
  guint     min_size;     /* a record must hold every fixed field */
  TaskRole  role;
  /* Fields the task code reads; size 0 when the format lacks them. */
  Loc       pid, comm, prev_pid, prev_comm, next_pid, next_comm;
  Loc       parent_pid, child_pid, child_comm, filename, newcomm;
  /* ftrace:kernel_stack / ftrace:user_stack: SEISMO_FRAME_KERNEL + 1 or SEISMO_FRAME_USER + 1
   * (0: not a stack event), and the op of their "caller" array. */
  guint8    stack_space;
  guint8    stack_op;
} ConvType;

/* Short strings (comms, names) repeat constantly: a direct-mapped cache avoids re-interning. */
#define STR_CACHE_BITS 12
#define STR_CACHE_MAX  30
typedef struct {
  SeismoStringId id;
  guint8         len;
  char           bytes[STR_CACHE_MAX];
} StrSlot;

/* Linux pid_max is at most 2^22; per-tid comms live in pages allocated as tids show up. */
#define MAX_TID        (1 << 22)
#define TID_PAGE_SHIFT 12

typedef struct {
  gint32 tgid;
  gint32 ppid;
} TaskIds;

/* Kernel addresses repeat (a few timer and work functions): names by address, direct-mapped. */
#define KSYM_CACHE_BITS 10
typedef struct {
  guint64        addr;
  guint          with_offset;
  SeismoStringId id;
} KsymSlot;

struct _SeismoTepConverter
{
  struct tep_handle  *tep;
  SeismoTraceBuilder *builder;
  gboolean            swap;
  int                 long_size;

  Loc                 common_type;
  Loc                 common_pid;
  gboolean            common_known;
  SeismoTepEventLookup lookup;
  gpointer            lookup_data;

  GPtrArray          *types;        /* ConvType* indexed by ftrace event id; NULL: not seen yet */
  ConvType            unknown;      /* marks ids without a format */
  GPtrArray          *symbols;      /* symbol tables referenced by registered types */

  StrSlot            *str_cache;

  guint32           **tid_comm;     /* pages of string id + 1 of the comm last set; 0: none */
  guint64            *tid_seen;     /* bitmap: tid appeared as common_pid */
  GHashTable         *cmdlines;     /* tid → comm (char*) */
  GHashTable         *task_ids;     /* tid → TaskIds* */

  guint64            *array_tmp;
  gsize               array_tmp_len;

  gboolean            have_ksyms;   /* tep knows the kernel's functions */
  KsymSlot           *ksym_cache;

  guint64             n_skipped;
  GHashTable         *skipped_ids;  /* id without a usable format → guint64* records skipped */

  /* Stack events belong to the event before them on their CPU: per CPU, its builder index + 1. */
  GArray             *last_on_cpu;  /* gsize */
};

static inline guint16
rd16 (const SeismoTepConverter *self,
      const guint8             *p)
{
  guint16 v;

  memcpy (&v, p, 2);
  return self->swap ? GUINT16_SWAP_LE_BE (v) : v;
}

static inline guint32
rd32 (const SeismoTepConverter *self,
      const guint8             *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return self->swap ? GUINT32_SWAP_LE_BE (v) : v;
}

static inline guint64
rd64 (const SeismoTepConverter *self,
      const guint8             *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return self->swap ? GUINT64_SWAP_LE_BE (v) : v;
}

static inline guint64
read_uint (const SeismoTepConverter *self,
           const guint8             *p,
           guint                     size)
{
  switch (size)
    {
    case 1: return p[0];
    case 2: return rd16 (self, p);
    case 4: return rd32 (self, p);
    case 8: return rd64 (self, p);
    default: return 0;
    }
}

static inline gint64
read_int (const SeismoTepConverter *self,
          const guint8             *p,
          guint                     size)
{
  switch (size)
    {
    case 1: return (gint8) p[0];
    case 2: return (gint16) rd16 (self, p);
    case 4: return (gint32) rd32 (self, p);
    case 8: return (gint64) rd64 (self, p);
    default: return 0;
    }
}

/* ---- Schema ----------------------------------------------------------------------------------- */

/* Byte width of a C base type as ftrace formats spell it; 0 when unknown. */
static guint
base_type_size (const char *base,
                int         long_size)
{
  if (strchr (base, '*'))
    return long_size;
  if (strstr (base, "char") || strstr (base, "u8") || strstr (base, "s8") || strstr (base, "bool"))
    return 1;
  if (strstr (base, "short") || strstr (base, "16"))
    return 2;
  if (strstr (base, "long long") || strstr (base, "64"))
    return 8;
  if (strstr (base, "long") || strstr (base, "size_t") || strstr (base, "ptr"))
    return long_size;
  if (strstr (base, "int") || strstr (base, "32") || strstr (base, "pid_t") ||
      strstr (base, "gfp_t") || strstr (base, "dev_t"))
    return 4;
  return 0;
}

/* The element type of an array field as libtraceevent spells it: "__data_loc char[]" → "char". */
static char *
array_base_type (const char *type)
{
  const char *p = type;
  const char *br;

  if (g_str_has_prefix (p, "__data_loc "))
    p += 11;
  else if (g_str_has_prefix (p, "__rel_loc "))
    p += 10;
  br = strchr (p, '[');
  return g_strstrip (br ? g_strndup (p, br - p) : g_strdup (p));
}

static gboolean
is_char_type (const char *base)
{
  /* "unsigned char" and u8 buffers are binary data; plain char arrays hold text. */
  if (strstr (base, "unsigned") || strstr (base, "u8") || strstr (base, "s8"))
    return FALSE;
  return strstr (base, "char") != NULL;
}

static struct tep_print_arg *
unwrap_arg (struct tep_print_arg *arg)
{
  while (arg && arg->type == TEP_PRINT_TYPE)
    arg = arg->typecast.item;
  return arg;
}

typedef struct {
  char                     conv;      /* printf conversion the field is shown with, 0 when none */
  char                     ptr_ext;   /* %p's extension: 's' for %ps, 'S' for %pS… */
  struct tep_print_flag_sym *symbols;
  gboolean                 is_flags;
} FieldPrint;

/*
 * The field a table is applied to: "REC->f", or "REC->f & mask" as sched_switch masks
 * prev_state's state bits.
 */
static struct tep_print_arg *
masked_field (struct tep_print_arg *arg)
{
  arg = unwrap_arg (arg);
  if (arg && arg->type == TEP_PRINT_OP && g_strcmp0 (arg->op.op, "&") == 0)
    {
      struct tep_print_arg *left = unwrap_arg (arg->op.left);

      if (left && left->type == TEP_PRINT_FIELD)
        return left;
    }
  return arg;
}

/* A __print_flags or __print_symbolic inside a ternary ("f & m ? __print_flags(…) : "R""). */
static struct tep_print_arg *
nested_table (struct tep_print_arg *arg,
              guint                 depth)
{
  struct tep_print_arg *found;

  arg = unwrap_arg (arg);
  if (arg == NULL || depth > 8)
    return NULL;
  if (arg->type == TEP_PRINT_FLAGS || arg->type == TEP_PRINT_SYMBOL)
    return arg;
  if (arg->type != TEP_PRINT_OP)
    return NULL;
  if ((found = nested_table (arg->op.left, depth + 1)))
    return found;
  return nested_table (arg->op.right, depth + 1);
}

static void
note_print_arg (GHashTable           *hints,
                struct tep_print_arg *arg,
                char                  conv,
                char                  ptr_ext)
{
  FieldPrint *fp;
  const char *name = NULL;
  struct tep_print_flag_sym *syms = NULL;
  gboolean is_flags = FALSE;

  arg = unwrap_arg (arg);
  if (arg == NULL)
    return;
  if (arg->type == TEP_PRINT_OP)
    {
      /* Only the table matters there; the ternary's other side is a constant. */
      arg = nested_table (arg, 0);
      if (arg == NULL)
        return;
      conv = 0;
    }

  if (arg->type == TEP_PRINT_FIELD)
    name = arg->field.name;
  else if (arg->type == TEP_PRINT_SYMBOL)
    {
      struct tep_print_arg *f = masked_field (arg->symbol.field);

      if (f && f->type == TEP_PRINT_FIELD)
        {
          name = f->field.name;
          syms = arg->symbol.symbols;
        }
    }
  else if (arg->type == TEP_PRINT_FLAGS)
    {
      struct tep_print_arg *f = masked_field (arg->flags.field);

      if (f && f->type == TEP_PRINT_FIELD)
        {
          name = f->field.name;
          syms = arg->flags.flags;
          is_flags = TRUE;
        }
    }

  if (name == NULL)
    return;

  fp = g_hash_table_lookup (hints, name);
  if (fp == NULL)
    {
      fp = g_new0 (FieldPrint, 1);
      g_hash_table_insert (hints, (gpointer) name, fp);
    }
  if (syms && fp->symbols == NULL)
    {
      fp->symbols = syms;
      fp->is_flags = is_flags;
    }
  else if (!syms && fp->conv == 0)
    {
      fp->conv = conv;
      fp->ptr_ext = conv == 'p' ? ptr_ext : 0;
    }
}

/*
 * Walks the kernel's print format next to its argument list to learn how each field is meant to
 * be read: in hex (%x, %p), or through a __print_symbolic / __print_flags table.
 */
static GHashTable *
analyse_print_fmt (struct tep_event *event)
{
  GHashTable *hints = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  const char *f = event->print_fmt.format;
  struct tep_print_arg *arg = event->print_fmt.args;

  if (f == NULL)
    return hints;

  while (*f && arg)
    {
      char conv, ptr_ext = 0;

      if (*f != '%')
        {
          f++;
          continue;
        }
      f++;
      if (*f == '%')
        {
          f++;
          continue;
        }
      while (*f && strchr ("-+ #0", *f))
        f++;
      if (*f == '*')
        {
          arg = arg->next;
          f++;
        }
      while (isdigit ((guchar) *f))
        f++;
      if (*f == '.')
        {
          f++;
          if (*f == '*')
            {
              arg = arg ? arg->next : NULL;
              f++;
            }
          while (isdigit ((guchar) *f))
            f++;
        }
      while (*f && strchr ("hlLqjzt", *f))
        f++;
      conv = *f;
      if (conv)
        f++;
      if (conv == 'p')
        {
          ptr_ext = *f;
          while (isalnum ((guchar) *f))
            f++;
        }
      if (arg == NULL)
        break;
      note_print_arg (hints, arg, conv, ptr_ext);
      arg = arg->next;
    }
  return hints;
}

static gboolean
is_syscall_event (struct tep_event *event,
                  gboolean         *is_exit)
{
  if (g_strcmp0 (event->system, "raw_syscalls") == 0)
    {
      *is_exit = g_strcmp0 (event->name, "sys_exit") == 0;
      return TRUE;
    }
  if (g_strcmp0 (event->system, "syscalls") == 0)
    {
      *is_exit = g_str_has_prefix (event->name, "sys_exit");
      return TRUE;
    }
  *is_exit = FALSE;
  return FALSE;
}

static SeismoSymbol *
symbols_from_tep (struct tep_print_flag_sym *syms,
                  guint                     *n_symbols)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (SeismoSymbol));

  for (struct tep_print_flag_sym *s = syms; s; s = s->next)
    {
      SeismoSymbol sym;
      char *end = NULL;

      if (s->value == NULL || s->str == NULL)
        return NULL;
      sym.value = g_ascii_strtoull (s->value, &end, 0);
      if (end == s->value || *end != '\0')
        return NULL;   /* an expression, not a plain number: show the raw value instead */
      sym.name = s->str;
      g_array_append_val (out, sym);
    }
  *n_symbols = out->len;
  if (out->len == 0)
    return NULL;
  return (SeismoSymbol *) g_array_free (g_steal_pointer (&out), FALSE);
}

/*
 * Print formats for events other sources (the ftrace text importer) also produce, so a trace
 * looks the same whichever way it came in. Used only when the format has every field named.
 */
static const struct {
  const char *system;
  const char *name;
  const char *print_fmt;
} known_print_fmts[] = {
  { "sched", "sched_switch",
    "prev_comm={prev_comm} prev_pid={prev_pid} prev_prio={prev_prio} prev_state={prev_state} "
    "==> next_comm={next_comm} next_pid={next_pid} next_prio={next_prio}" },
  { "sched", "sched_wakeup", "comm={comm} pid={pid} prio={prio} target_cpu={target_cpu}" },
  { "sched", "sched_wakeup_new", "comm={comm} pid={pid} prio={prio} target_cpu={target_cpu}" },
  { "sched", "sched_waking", "comm={comm} pid={pid} prio={prio} target_cpu={target_cpu}" },
  { "sched", "sched_process_fork",
    "comm={parent_comm} pid={parent_pid} child_comm={child_comm} child_pid={child_pid}" },
  { "raw_syscalls", "sys_enter", "NR {id} {args}" },
  { "raw_syscalls", "sys_exit", "NR {id} = {ret}" },
};


static gboolean
fmt_fields_exist (struct tep_event *event,
                  const char       *fmt)
{
  for (const char *p = strchr (fmt, '{'); p; p = strchr (p + 1, '{'))
    {
      const char *close = strchr (p, '}');
      g_autofree char *name = NULL;

      if (close == NULL)
        return FALSE;
      name = g_strndup (p + 1, close - p - 1);
      if (tep_find_field (event, name) == NULL)
        return FALSE;
    }
  return TRUE;
}

/* The Seismo print format: a known one, else every field as name={name} in field order. */
static char *
build_print_fmt (struct tep_event *event)
{
  GString *fmt;

  for (guint i = 0; i < G_N_ELEMENTS (known_print_fmts); i++)
    if (g_strcmp0 (event->system, known_print_fmts[i].system) == 0 &&
        g_strcmp0 (event->name, known_print_fmts[i].name) == 0 &&
        fmt_fields_exist (event, known_print_fmts[i].print_fmt))
      return g_strdup (known_print_fmts[i].print_fmt);

  fmt = g_string_new (NULL);
  for (struct tep_format_field *f = event->format.fields; f; f = f->next)
    {
      if (fmt->len)
        g_string_append_c (fmt, ' ');
      g_string_append_printf (fmt, "%s={%s}", f->name, f->name);
    }
  return g_string_free (fmt, FALSE);
}

/* The kernel prints the field as a function: %ps, %pS (and the old %pf, %pF). */
static inline gboolean
is_function_print (const FieldPrint *fp)
{
  return fp && fp->conv == 'p' && fp->ptr_ext && strchr ("sSfF", fp->ptr_ext);
}

/*
 * Fields that hold a kernel code address whatever their print format: ftrace's function and
 * function_graph events (and kmem's call_site) print them with %lx on older kernels (4.13), and
 * trace-cmd names them from kallsyms all the same.
 */
static const char *const code_address_fields[] = {
  "ip", "parent_ip", "func", "call_site", "function",
};

static inline gboolean
is_code_address (const char       *name,
                 const FieldPrint *fp)
{
  if (is_function_print (fp))
    return TRUE;
  if (fp == NULL || (fp->conv != 'x' && fp->conv != 'X'))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (code_address_fields); i++)
    if (strcmp (name, code_address_fields[i]) == 0)
      return TRUE;
  return FALSE;
}

/*
 * Fills info (and, when op is not NULL, how to read the field) for one format field. With
 * ksyms, addresses the kernel prints as functions (%ps, %pS) become the functions' names.
 */
static void
field_schema (struct tep_event        *event,
              struct tep_format_field *field,
              GHashTable              *hints,
              GPtrArray               *symbols,
              int                      long_size,
              gboolean                 ksyms,
              SeismoFieldInfo         *info,
              Op                      *op)
{
  gboolean exit_event = FALSE;
  gboolean syscall = is_syscall_event (event, &exit_event);
  /* syscalls:* print formats show every argument as %lx, which says nothing about its type. */
  FieldPrint *fp = syscall ? NULL : g_hash_table_lookup (hints, field->name);
  Op o = { 0 };

  memset (info, 0, sizeof *info);
  info->name = field->name;
  info->display = SEISMO_DISPLAY_DEFAULT;
  o.offset = field->offset;

  if (field->flags & TEP_FIELD_IS_DYNAMIC)
    {
      g_autofree char *base = array_base_type (field->type);
      guint esize = base_type_size (base, long_size);

      o.size = (field->flags & TEP_FIELD_IS_RELATIVE) ? 1 : 0;
      if (is_char_type (base))
        {
          info->type = SEISMO_FIELD_STRING;
          o.kind = OP_DSTR;
        }
      else if (esize == 2 || esize == 4 || esize == 8)
        {
          info->type = SEISMO_FIELD_UINT_ARRAY;
          info->size = esize;
          o.kind = OP_DUARR;
          o.size |= esize << 1;
        }
      else
        {
          info->type = SEISMO_FIELD_BYTES;
          o.kind = OP_DBYTES;
        }
    }
  else if (field->flags & TEP_FIELD_IS_ARRAY)
    {
      g_autofree char *base = array_base_type (field->type);
      guint esize = field->elementsize;

      if (esize == 0 && field->arraylen > 0)
        esize = field->size / field->arraylen;
      o.len = field->size;
      if (esize == 1 && is_char_type (base))
        {
          info->type = SEISMO_FIELD_STRING;
          o.kind = OP_STR;
        }
      else if ((esize == 2 || esize == 4 || esize == 8) && field->size % esize == 0)
        {
          info->type = SEISMO_FIELD_UINT_ARRAY;
          info->size = esize;
          o.kind = OP_UARR;
          o.size = esize;
        }
      else
        {
          info->type = SEISMO_FIELD_BYTES;
          o.kind = OP_BYTES;
        }
    }
  else if (ksyms && (field->size == 4 || field->size == 8) && is_code_address (field->name, fp))
    {
      /* Names, as trace-cmd report shows them: "func", or "func+0x1c" for %pS; an address
       * printed as a number gets its offset when it is inside the function. */
      info->type = SEISMO_FIELD_STRING;
      o.kind = OP_KSYM;
      o.size = field->size;
      o.len = is_function_print (fp) ? fp->ptr_ext == 'S' || fp->ptr_ext == 'F' : 2;
    }
  else if (field->size == 1 || field->size == 2 || field->size == 4 || field->size == 8)
    {
      gboolean is_signed = (field->flags & TEP_FIELD_IS_SIGNED) != 0;
      char conv = fp ? fp->conv : 0;

      info->size = field->size;
      o.size = field->size;
      /* Addresses: declared pointers, %p, and longs shown in hex unless they are flag words. */
      if (field->flags & TEP_FIELD_IS_POINTER ||
          (conv == 'p') ||
          ((conv == 'x' || conv == 'X') && field->size == long_size && field->size == 8 &&
           !strstr (field->name, "flags") && !strstr (field->name, "mask")))
        {
          info->type = SEISMO_FIELD_POINTER;
          o.kind = OP_UINT;
        }
      else if (is_signed)
        {
          info->type = SEISMO_FIELD_INT;
          o.kind = OP_INT;
        }
      else
        {
          info->type = SEISMO_FIELD_UINT;
          o.kind = OP_UINT;
        }
      if ((conv == 'x' || conv == 'X') && info->type != SEISMO_FIELD_POINTER)
        info->display = SEISMO_DISPLAY_HEX;
      if (fp && fp->symbols)
        {
          guint n = 0;
          SeismoSymbol *syms = symbols_from_tep (fp->symbols, &n);

          if (syms)
            {
              g_ptr_array_add (symbols, syms);
              info->symbols = syms;
              info->n_symbols = n;
              info->display = fp->is_flags ? SEISMO_DISPLAY_FLAGS : SEISMO_DISPLAY_SYMBOL;
            }
        }
    }
  else
    {
      info->type = SEISMO_FIELD_BYTES;
      o.kind = OP_BYTES;
      o.len = field->size;
    }

  /* Conventions shared by every source (see the brief): names decide the display. */
  if (g_str_equal (field->name, "prev_state"))
    {
      /* The file's own letters when its format has them (4.13's x K W P N are not 4.14's),
       * with "+" on the bit above them; the built-in >= 4.14 table otherwise. */
      const SeismoSymbol *file_syms = info->display == SEISMO_DISPLAY_FLAGS ? info->symbols : NULL;
      guint n = file_syms ? info->n_symbols : 0;

      info->display = SEISMO_DISPLAY_SCHED_STATE;
      info->symbols = NULL;
      info->n_symbols = 0;
      if (n > 0)
        {
          SeismoSymbol *states = g_new (SeismoSymbol, n + 1);
          guint64 top = 0;

          memcpy (states, file_syms, n * sizeof *states);
          for (guint s = 0; s < n; s++)
            top = MAX (top, states[s].value);
          states[n].value = top << 1;
          states[n].name = "+";
          g_ptr_array_add (symbols, states);
          info->symbols = states;
          info->n_symbols = n + 1;
        }
    }
  else if (syscall && (g_str_equal (field->name, "id") || g_str_equal (field->name, "__syscall_nr")))
    {
      info->display = SEISMO_DISPLAY_SYSCALL;
      if (g_str_equal (field->name, "id") && o.kind == OP_INT)
        {
          /* raw_syscalls id is a long in the kernel; by convention it is stored unsigned. */
          o.kind = OP_UINT;
          info->type = SEISMO_FIELD_UINT;
        }
    }
  else if (syscall && exit_event && g_str_equal (field->name, "ret") &&
           (o.kind == OP_INT || o.kind == OP_UINT))
    {
      o.kind = OP_INT;
      info->type = SEISMO_FIELD_INT;
      info->display = SEISMO_DISPLAY_ERRNO;
    }
  else if (g_str_equal (field->name, "sig") && (o.kind == OP_INT || o.kind == OP_UINT))
    info->display = SEISMO_DISPLAY_SIGNAL;
  else if (syscall && !exit_event && (g_str_equal (field->name, "fd") || g_str_equal (field->name, "dfd")) &&
           (o.kind == OP_INT || o.kind == OP_UINT))
    info->display = SEISMO_DISPLAY_FD;

  /*
   * Syscall tracepoints store every argument in a long, whatever its C type: an int argument
   * lives in the low half (AT_FDCWD is 0xffffff9c there). Read it at its declared width.
   */
  if (syscall && !exit_event && field->size == 8 && (o.kind == OP_INT || o.kind == OP_UINT) &&
      info->type != SEISMO_FIELD_POINTER && base_type_size (field->type, long_size) == 4)
    {
      gboolean is_unsigned = strstr (field->type, "unsigned") || strstr (field->type, "u32");

      o.size = 4;
      if (tep_is_file_bigendian (event->tep))
        o.offset += 4;
      o.kind = is_unsigned ? OP_UINT : OP_INT;
      info->type = is_unsigned ? SEISMO_FIELD_UINT : SEISMO_FIELD_INT;
      info->size = 4;
    }

  if (g_strcmp0 (event->system, "raw_syscalls") == 0 && g_str_equal (field->name, "args"))
    info->display = SEISMO_DISPLAY_HEX;
  else if (info->display == SEISMO_DISPLAY_DEFAULT && info->symbols == NULL &&
           event->system && event->name && (o.kind == OP_INT || o.kind == OP_UINT))
    {
      /* What the format does not say (irq_handler_exit's ret is a ternary, not a table), the
       * catalogue of well-known tracepoints does. */
      const SeismoFieldInfo *known = seismo_tracepoint_field (event->system, event->name,
                                                              field->name);

      if (known && known->symbols)
        {
          info->display = known->display;
          info->symbols = known->symbols;
          info->n_symbols = known->n_symbols;
        }
    }

  if (op)
    *op = o;
}

void
seismo_tep_event_schema (struct tep_event *event,
                         GArray           *fields,
                         GPtrArray        *symbols,
                         char            **print_fmt)
{
  g_autoptr(GHashTable) hints = analyse_print_fmt (event);
  int long_size = tep_get_long_size (event->tep);

  if (long_size != 4 && long_size != 8)
    long_size = 8;

  for (struct tep_format_field *f = event->format.fields; f; f = f->next)
    {
      SeismoFieldInfo info;

      field_schema (event, f, hints, symbols, long_size, FALSE, &info, NULL);
      g_array_append_val (fields, info);
    }
  if (print_fmt)
    *print_fmt = build_print_fmt (event);
}

char *
seismo_tep_event_describe (struct tep_event *event)
{
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (SeismoFieldInfo));
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);
  static const char *const display_names[] = {
    [SEISMO_DISPLAY_HEX] = "hex",
    [SEISMO_DISPLAY_SYMBOL] = "symbolic",
    [SEISMO_DISPLAY_FLAGS] = "flags",
    [SEISMO_DISPLAY_ERRNO] = "errno",
    [SEISMO_DISPLAY_SIGNAL] = "signal",
    [SEISMO_DISPLAY_SCHED_STATE] = "sched-state",
    [SEISMO_DISPLAY_SYSCALL] = "syscall",
    [SEISMO_DISPLAY_FD] = "fd",
  };

  seismo_tep_event_schema (event, fields, symbols, NULL);
  g_string_append_printf (out, "%s:%s", event->system, event->name);
  for (guint i = 0; i < fields->len; i++)
    {
      const SeismoFieldInfo *info = &g_array_index (fields, SeismoFieldInfo, i);

      g_string_append_printf (out, "%s%s:%s", i == 0 ? "  " : " ", info->name,
                              seismo_field_type_to_string (info->type));
      if (info->display > SEISMO_DISPLAY_DEFAULT && info->display < SEISMO_DISPLAY_N &&
          display_names[info->display])
        g_string_append_printf (out, "(%s)", display_names[info->display]);
    }
  return g_string_free (out, FALSE);
}

/* ---- Converter -------------------------------------------------------------------------------- */

static Loc
find_loc (struct tep_event *event,
          const char       *name)
{
  struct tep_format_field *f = tep_find_any_field (event, name);
  Loc loc = { 0, 0 };

  if (f && !(f->flags & TEP_FIELD_IS_DYNAMIC))
    {
      loc.offset = f->offset;
      loc.size = f->size;
    }
  return loc;
}

/* The exec filename is a __data_loc string: keep the descriptor's location, size 4 marks it. */
static Loc
find_dyn_loc (struct tep_event *event,
              const char       *name)
{
  struct tep_format_field *f = tep_find_any_field (event, name);
  Loc loc = { 0, 0 };

  if (f && (f->flags & TEP_FIELD_IS_DYNAMIC) && !(f->flags & TEP_FIELD_IS_RELATIVE))
    {
      loc.offset = f->offset;
      loc.size = 4;
    }
  return loc;
}

static void
conv_type_free (gpointer data)
{
  ConvType *ct = data;

  if (ct == NULL)
    return;
  g_free (ct->ops);
  g_free (ct);
}

static void
learn_common_fields (SeismoTepConverter *self,
                     struct tep_event   *event)
{
  for (struct tep_format_field *f = event->format.common_fields; f; f = f->next)
    {
      if (g_str_equal (f->name, "common_type"))
        self->common_type = (Loc) { f->offset, f->size };
      else if (g_str_equal (f->name, "common_pid"))
        self->common_pid = (Loc) { f->offset, f->size };
    }
  self->common_known = TRUE;
}

SeismoTepConverter *
seismo_tep_converter_new (struct tep_handle  *tep,
                          SeismoTraceBuilder *builder)
{
  SeismoTepConverter *self;
  struct tep_event **events;

  g_return_val_if_fail (tep != NULL, NULL);
  g_return_val_if_fail (builder != NULL, NULL);

  self = g_new0 (SeismoTepConverter, 1);
  self->tep = tep;
  self->builder = builder;
  self->swap = tep_is_file_bigendian (tep) != (G_BYTE_ORDER == G_BIG_ENDIAN);
  self->long_size = tep_get_long_size (tep);
  if (self->long_size != 4 && self->long_size != 8)
    self->long_size = 8;
  self->types = g_ptr_array_new ();
  self->symbols = g_ptr_array_new_with_free_func (g_free);
  self->str_cache = g_new0 (StrSlot, 1u << STR_CACHE_BITS);
  self->ksym_cache = g_new0 (KsymSlot, 1u << KSYM_CACHE_BITS);
  self->tid_comm = g_new0 (guint32 *, MAX_TID >> TID_PAGE_SHIFT);
  self->tid_seen = g_new0 (guint64, MAX_TID / 64);
  self->cmdlines = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->task_ids = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->skipped_ids = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->common_type = (Loc) { 0, 2 };
  self->common_pid = (Loc) { 4, 4 };

  /* The common header is the same for every format; read its layout from any of them. */
  events = tep_list_events (tep, TEP_EVENT_SORT_ID);
  if (events && events[0])
    learn_common_fields (self, events[0]);
  for (guint i = 0; i < (1u << STR_CACHE_BITS); i++)
    self->str_cache[i].len = 0xff;
  return self;
}

void
seismo_tep_converter_free (SeismoTepConverter *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->types->len; i++)
    {
      ConvType *ct = g_ptr_array_index (self->types, i);

      if (ct != &self->unknown)
        conv_type_free (ct);
    }
  g_ptr_array_unref (self->types);
  g_ptr_array_unref (self->symbols);
  g_free (self->str_cache);
  g_free (self->ksym_cache);
  for (guint i = 0; i < (MAX_TID >> TID_PAGE_SHIFT); i++)
    g_free (self->tid_comm[i]);
  g_free (self->tid_comm);
  g_free (self->tid_seen);
  g_hash_table_unref (self->cmdlines);
  g_hash_table_unref (self->task_ids);
  g_hash_table_unref (self->skipped_ids);
  g_free (self->array_tmp);
  g_clear_pointer (&self->last_on_cpu, g_array_unref);
  g_free (self);
}

void
seismo_tep_converter_set_lookup (SeismoTepConverter  *self,
                                 SeismoTepEventLookup lookup,
                                 gpointer             data)
{
  g_return_if_fail (self != NULL);
  self->lookup = lookup;
  self->lookup_data = data;
}

void
seismo_tep_converter_add_cmdlines (SeismoTepConverter *self,
                                   const char         *text,
                                   gsize               len)
{
  const char *p = text;
  const char *end = text + len;

  g_return_if_fail (self != NULL);

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *line_end = nl ? nl : end;
      char *num_end = NULL;
      gint64 pid;

      pid = g_ascii_strtoll (p, &num_end, 10);
      if (num_end && num_end < line_end && *num_end == ' ' && pid > 0 && pid < MAX_TID)
        {
          const char *comm = num_end + 1;
          gsize n = line_end - comm;

          if (n > 0 && *comm != '\0')
            g_hash_table_insert (self->cmdlines, GINT_TO_POINTER ((gint) pid),
                                 g_strndup (comm, n));
        }
      p = line_end + 1;
    }
}

void
seismo_tep_converter_add_cmdline (SeismoTepConverter *self,
                                  gint32              tid,
                                  const char         *comm)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (comm != NULL);

  if (tid > 0 && tid < MAX_TID && *comm &&
      !g_hash_table_contains (self->cmdlines, GINT_TO_POINTER (tid)))
    g_hash_table_insert (self->cmdlines, GINT_TO_POINTER (tid), g_strdup (comm));
}

void
seismo_tep_converter_set_task_ids (SeismoTepConverter *self,
                                   gint32              tid,
                                   gint32              tgid,
                                   gint32              ppid)
{
  TaskIds *ids;

  g_return_if_fail (self != NULL);

  ids = g_new (TaskIds, 1);
  ids->tgid = tgid;
  ids->ppid = ppid;
  g_hash_table_insert (self->task_ids, GINT_TO_POINTER (tid), ids);
}

static SeismoStringId
intern (SeismoTepConverter *self,
        const char         *p,
        gsize               n)
{
  guint32 h = 2166136261u;
  StrSlot *slot;

  if (n > STR_CACHE_MAX)
    return seismo_trace_builder_intern_len (self->builder, p, n);

  for (gsize i = 0; i < n; i++)
    h = (h ^ (guint8) p[i]) * 16777619u;
  h ^= h >> 15;
  slot = &self->str_cache[h & ((1u << STR_CACHE_BITS) - 1)];
  if (slot->len == n && memcmp (slot->bytes, p, n) == 0)
    return slot->id;

  slot->id = seismo_trace_builder_intern_len (self->builder, p, n);
  slot->len = n;
  memcpy (slot->bytes, p, n);
  return slot->id;
}

/* The text trace-cmd report shows for a kernel address printed with %ps (%pS: with_offset 1;
 * 2: the offset only when the address is inside the function). */
static SeismoStringId
ksym_name (SeismoTepConverter *self,
           guint64             addr,
           guint               with_offset)
{
  KsymSlot *slot = &self->ksym_cache[(addr ^ (addr >> KSYM_CACHE_BITS) ^ with_offset) &
                                     ((1u << KSYM_CACHE_BITS) - 1)];
  const char *func;
  g_autofree char *text = NULL;

  if (slot->id != 0 && slot->addr == addr && slot->with_offset == with_offset)
    return slot->id;

  func = tep_find_function (self->tep, addr);
  if (func == NULL)
    text = self->long_size == 4 ? g_strdup_printf ("0x%" G_GINT32_MODIFIER "x", (guint32) addr)
                                : g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", addr);
  else if (with_offset && (with_offset == 1 || addr != tep_find_function_address (self->tep, addr)))
    text = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", func,
                            addr - (guint64) tep_find_function_address (self->tep, addr));
  slot->addr = addr;
  slot->with_offset = with_offset;
  slot->id = seismo_trace_builder_intern (self->builder, text ? text : func);
  return slot->id;
}

void
seismo_tep_converter_set_kallsyms (SeismoTepConverter *self,
                                   const char         *text)
{
  char *end = NULL;

  g_return_if_fail (self != NULL);

  if (self->have_ksyms || text == NULL)
    return;
  /* Without the right to see them (kptr_restrict), the kernel lists every address as 0. */
  if (g_ascii_strtoull (text, &end, 16) == 0)
    return;
  if (tep_parse_kallsyms (self->tep, text) != 0)
    {
      g_debug ("could not parse the kernel's symbol table");
      return;
    }
  self->have_ksyms = TRUE;
}

gboolean
seismo_tep_event_has_function_fields (struct tep_event *event)
{
  g_autoptr(GHashTable) hints = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (event != NULL, FALSE);

  /* Kernel stacks are named from kallsyms whatever their print format says (and their frames
   * become the stack of an event). */
  if (g_strcmp0 (event->system, "ftrace") == 0 && g_strcmp0 (event->name, "kernel_stack") == 0)
    return TRUE;
  hints = analyse_print_fmt (event);
  g_hash_table_iter_init (&iter, hints);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (is_code_address (key, value))
      return TRUE;
  return FALSE;
}

static ConvType *
compile_type (SeismoTepConverter *self,
              struct tep_event   *event)
{
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (SeismoFieldInfo));
  g_autoptr(GHashTable) hints = analyse_print_fmt (event);
  g_autofree char *fmt = build_print_fmt (event);
  ConvType *ct = g_new0 (ConvType, 1);
  guint n = 0;
  const char *sys = event->system;
  const char *name = event->name;

  for (struct tep_format_field *f = event->format.fields; f; f = f->next)
    n++;
  ct->ops = g_new0 (Op, MAX (n, 1));
  for (struct tep_format_field *f = event->format.fields; f; f = f->next)
    {
      SeismoFieldInfo info;
      Op *op = &ct->ops[ct->n_ops++];
      guint need;

      field_schema (event, f, hints, self->symbols, self->long_size, self->have_ksyms, &info,
                    op);
      if (g_strcmp0 (sys, "ftrace") == 0 && g_strcmp0 (f->name, "caller") == 0
          && (f->flags & TEP_FIELD_IS_ARRAY)
          && (g_strcmp0 (name, "kernel_stack") == 0 || g_strcmp0 (name, "user_stack") == 0))
        {
          /* The format says caller[8]; the kernel writes as many as it has (kernel_stack's
           * size: often more, sometimes fewer). Stored as trace-cmd prints them. */
          op->kind = OP_STACK;
          op->offset = (guint16) f->offset;
          op->size = (guint8) self->long_size;
          op->len = g_strcmp0 (name, "kernel_stack") == 0;
          info.type = SEISMO_FIELD_STRING;
          info.size = 0;
          info.display = SEISMO_DISPLAY_DEFAULT;
          info.symbols = NULL;
          info.n_symbols = 0;
        }
      g_array_append_val (fields, info);

      switch (op->kind)
        {
        case OP_DSTR: case OP_DUARR: case OP_DBYTES: need = op->offset + 4; break;
        case OP_STR: case OP_UARR: case OP_BYTES: need = op->offset + op->len; break;
        case OP_KSYM: need = op->offset + op->size; break;
        case OP_STACK: need = op->offset; break;
        default: need = op->offset + op->size; break;
        }
      ct->min_size = MAX (ct->min_size, need);
    }

  if (g_strcmp0 (sys, "raw_syscalls") == 0 && !self->swap && ct->n_ops == 2 &&
      ct->ops[0].kind == OP_UINT && ct->ops[0].size == 8)
    {
      const Op *second = &ct->ops[1];

      if (g_strcmp0 (name, "sys_enter") == 0 && second->kind == OP_UARR && second->size == 8 &&
          second->len == 48 && second->offset == ct->ops[0].offset + 8)
        ct->fast = FAST_SYS_ENTER;
      else if (g_strcmp0 (name, "sys_exit") == 0 && second->kind == OP_INT && second->size == 8)
        ct->fast = FAST_SYS_EXIT;
    }

  ct->type_id = seismo_trace_builder_add_event_type (self->builder, sys, name,
                                                     (const SeismoFieldInfo *) (gpointer) fields->data,
                                                     fields->len, fmt);

  if (g_strcmp0 (sys, "sched") == 0 && g_strcmp0 (name, "sched_switch") == 0)
    {
      ct->role = TASK_SWITCH;
      ct->prev_pid = find_loc (event, "prev_pid");
      ct->prev_comm = find_loc (event, "prev_comm");
      ct->next_pid = find_loc (event, "next_pid");
      ct->next_comm = find_loc (event, "next_comm");
    }
  else if (g_strcmp0 (sys, "sched") == 0 &&
           (g_strcmp0 (name, "sched_wakeup") == 0 || g_strcmp0 (name, "sched_waking") == 0 ||
            g_strcmp0 (name, "sched_wakeup_new") == 0))
    {
      ct->role = TASK_WAKEUP;
      ct->pid = find_loc (event, "pid");
      ct->comm = find_loc (event, "comm");
    }
  else if (g_strcmp0 (sys, "sched") == 0 && g_strcmp0 (name, "sched_process_fork") == 0)
    {
      ct->role = TASK_FORK;
      ct->parent_pid = find_loc (event, "parent_pid");
      ct->child_pid = find_loc (event, "child_pid");
      ct->child_comm = find_loc (event, "child_comm");
    }
  else if (g_strcmp0 (sys, "sched") == 0 && g_strcmp0 (name, "sched_process_exec") == 0)
    {
      ct->role = TASK_EXEC;
      ct->pid = find_loc (event, "pid");
      ct->filename = find_dyn_loc (event, "filename");
    }
  else if (g_strcmp0 (sys, "sched") == 0 && g_strcmp0 (name, "sched_process_exit") == 0)
    {
      ct->role = TASK_EXIT;
      ct->pid = find_loc (event, "pid");
    }
  else if (g_strcmp0 (sys, "task") == 0 && g_strcmp0 (name, "task_rename") == 0)
    {
      ct->role = TASK_RENAME;
      ct->pid = find_loc (event, "pid");
      ct->newcomm = find_loc (event, "newcomm");
    }
  else if (g_strcmp0 (sys, "ftrace") == 0 &&
           (g_strcmp0 (name, "kernel_stack") == 0 || g_strcmp0 (name, "user_stack") == 0))
    {
      guint i = 0;

      for (struct tep_format_field *f = event->format.fields; f; f = f->next, i++)
        if (g_strcmp0 (f->name, "caller") == 0 &&
            (ct->ops[i].kind == OP_STACK || ct->ops[i].kind == OP_UARR
             || ct->ops[i].kind == OP_DUARR) && i < 256)
          {
            ct->stack_space = (name[0] == 'k' ? SEISMO_FRAME_KERNEL : SEISMO_FRAME_USER) + 1;
            ct->stack_op = (guint8) i;
          }
    }
  return ct;
}

static ConvType *
lookup_type (SeismoTepConverter *self,
             guint               id)
{
  ConvType *ct = NULL;

  if (id < self->types->len)
    ct = g_ptr_array_index (self->types, id);
  if (G_LIKELY (ct != NULL))
    return ct;

  {
    struct tep_event *event = self->lookup ? self->lookup (self->lookup_data, id)
                                           : tep_find_event (self->tep, id);

    /* Formats parsed on demand: the first one tells the common header layout. */
    if (event && !self->common_known)
      learn_common_fields (self, event);

    if (id >= self->types->len)
      g_ptr_array_set_size (self->types, id + 1);
    if (event == NULL || event->system == NULL || event->name == NULL)
      ct = &self->unknown;
    else
      ct = compile_type (self, event);
    g_ptr_array_index (self->types, id) = ct;
  }
  return ct;
}

static inline gboolean
tid_ok (gint64 tid)
{
  return tid > 0 && tid < MAX_TID;
}

/* The comm slot of a valid tid. */
static inline guint32 *
tid_comm_slot (SeismoTepConverter *self,
               gint64              tid)
{
  guint32 **page = &self->tid_comm[tid >> TID_PAGE_SHIFT];

  if (G_UNLIKELY (*page == NULL))
    *page = g_new0 (guint32, 1u << TID_PAGE_SHIFT);
  return &(*page)[tid & ((1u << TID_PAGE_SHIFT) - 1)];
}

/* Records tid's comm when it differs from the last one set (p: not NUL-terminated, n bytes). */
static void
note_comm (SeismoTepConverter *self,
           gint64              tid,
           const char         *p,
           gsize               n,
           guint64             ts)
{
  SeismoStringId id;
  guint32 *slot;
  char buf[64];

  if (!tid_ok (tid) || n == 0)
    return;
  id = intern (self, p, n);
  slot = tid_comm_slot (self, tid);
  if (*slot == id + 1)
    return;
  *slot = id + 1;
  n = MIN (n, sizeof buf - 1);
  memcpy (buf, p, n);
  buf[n] = '\0';
  seismo_trace_builder_set_task_comm (self->builder, tid, buf, ts);
}

static inline gint64
loc_int (SeismoTepConverter *self,
         const guint8       *data,
         guint               size,
         Loc                 loc,
         gboolean           *ok)
{
  if (loc.size == 0 || (guint) (loc.offset + loc.size) > size)
    {
      *ok = FALSE;
      return 0;
    }
  *ok = TRUE;
  return read_int (self, data + loc.offset, loc.size);
}

static void
note_comm_field (SeismoTepConverter *self,
                 const guint8       *data,
                 guint               size,
                 Loc                 pid_loc,
                 Loc                 comm_loc,
                 guint64             ts)
{
  gboolean ok;
  gint64 pid = loc_int (self, data, size, pid_loc, &ok);
  const char *comm;

  if (!ok || comm_loc.size == 0 || (guint) (comm_loc.offset + comm_loc.size) > size)
    return;
  comm = (const char *) data + comm_loc.offset;
  note_comm (self, pid, comm, strnlen (comm, comm_loc.size), ts);
}

static void
task_effects (SeismoTepConverter *self,
              ConvType           *ct,
              const guint8       *data,
              guint               size,
              guint64             ts)
{
  gboolean ok;

  switch (ct->role)
    {
    case TASK_SWITCH:
      note_comm_field (self, data, size, ct->prev_pid, ct->prev_comm, ts);
      note_comm_field (self, data, size, ct->next_pid, ct->next_comm, ts);
      break;

    case TASK_WAKEUP:
      note_comm_field (self, data, size, ct->pid, ct->comm, ts);
      break;

    case TASK_FORK:
      {
        gint64 parent = loc_int (self, data, size, ct->parent_pid, &ok);
        gboolean child_ok;
        gint64 child = loc_int (self, data, size, ct->child_pid, &child_ok);

        if (!child_ok || !tid_ok (child))
          break;
        /* A reused tid starts a new task; the old one keeps its events. */
        seismo_trace_builder_task_new (self->builder, child, ts);
        *tid_comm_slot (self, child) = 0;
        note_comm_field (self, data, size, ct->child_pid, ct->child_comm, ts);
        if (ok && tid_ok (parent))
          seismo_trace_builder_set_task_ppid (self->builder, child, parent);
      }
      break;

    case TASK_EXEC:
      {
        gint64 pid = loc_int (self, data, size, ct->pid, &ok);
        guint32 loc, off, len;
        const char *fn, *base;
        gsize n;

        if (!ok || !tid_ok (pid) || ct->filename.size != 4 ||
            (guint) ct->filename.offset + 4 > size)
          break;
        seismo_trace_builder_set_task_pid (self->builder, pid, pid);
        loc = rd32 (self, data + ct->filename.offset);
        off = loc & 0xffff;
        len = loc >> 16;
        if (off + len > size || len == 0)
          break;
        fn = (const char *) data + off;
        n = strnlen (fn, len);
        base = fn;
        for (gsize i = 0; i < n; i++)
          if (fn[i] == '/')
            base = fn + i + 1;
        /* The kernel names the task after the file, cut to TASK_COMM_LEN - 1. */
        note_comm (self, pid, base, MIN ((gsize) (fn + n - base), 15), ts);
      }
      break;

    case TASK_EXIT:
      {
        gint64 pid = loc_int (self, data, size, ct->pid, &ok);

        if (ok && tid_ok (pid))
          seismo_trace_builder_task_exited (self->builder, pid, ts);
      }
      break;

    case TASK_RENAME:
      note_comm_field (self, data, size, ct->pid, ct->newcomm, ts);
      break;

    case TASK_NONE:
    default:
      break;
    }
}

static guint64 *
array_tmp (SeismoTepConverter *self,
           gsize               n)
{
  if (n > self->array_tmp_len)
    {
      self->array_tmp_len = MAX (n, 64);
      self->array_tmp = g_renew (guint64, self->array_tmp, self->array_tmp_len);
    }
  return self->array_tmp;
}

/* Resolves a __data_loc / __rel_loc descriptor to [*start, *start + *len) inside the record. */
static inline gboolean
dyn_range (SeismoTepConverter *self,
           const Op           *op,
           const guint8       *data,
           guint               size,
           guint              *start,
           guint              *len)
{
  guint32 loc = rd32 (self, data + op->offset);
  guint off = loc & 0xffff;
  guint l = loc >> 16;

  if (op->size & 1)
    off += op->offset + 4;
  if (off > size || l > size - off)
    return FALSE;
  *start = off;
  *len = l;
  return TRUE;
}

static void
count_skipped_id (SeismoTepConverter *self,
                  guint               id)
{
  guint64 *count = g_hash_table_lookup (self->skipped_ids, GUINT_TO_POINTER (id));

  if (count == NULL)
    {
      count = g_new0 (guint64, 1);
      g_hash_table_insert (self->skipped_ids, GUINT_TO_POINTER (id), count);
    }
  (*count)++;
}

/* The index of the event before a stack event on its CPU; FALSE when there is none. */
static gboolean
last_event_on_cpu (SeismoTepConverter *self,
                   guint               cpu,
                   gsize              *event)
{
  if (self->last_on_cpu == NULL || cpu >= self->last_on_cpu->len ||
      g_array_index (self->last_on_cpu, gsize, cpu) == 0)
    return FALSE;
  *event = g_array_index (self->last_on_cpu, gsize, cpu) - 1;
  return TRUE;
}

static inline void
note_last_on_cpu (SeismoTepConverter *self,
                  guint               cpu)
{
  gsize index = seismo_trace_builder_get_n_events (self->builder);

  /* Every event comes here: the common case without GArray calls. */
  if (G_LIKELY (self->last_on_cpu != NULL && cpu < self->last_on_cpu->len))
    {
      ((gsize *) (gpointer) self->last_on_cpu->data)[cpu] = index;
      return;
    }
  if (self->last_on_cpu == NULL)
    self->last_on_cpu = g_array_new (FALSE, TRUE, sizeof (gsize));
  if (cpu >= self->last_on_cpu->len)
    g_array_set_size (self->last_on_cpu, cpu + 1);
  g_array_index (self->last_on_cpu, gsize, cpu) = index;   /* the event just ended, + 1 */
}

/* A kernel_stack / user_stack record's caller array becomes the stack of the event before it on
 * the same CPU (where the stacktrace option puts it). Kernel frames are named from the kallsyms
 * the file (or /proc) gave. The stack event itself stays, as the file has it. */
static void
attach_stack (SeismoTepConverter *self,
              const ConvType     *ct,
              guint               cpu,
              gint64              tid,
              const guint8       *data,
              guint               size)
{
  const Op *op = &ct->ops[ct->stack_op];
  guint start = op->offset, len = op->len, esize = op->size;
  g_autoptr(GArray) frames = NULL;
  gsize event;
  gint32 pid = (gint32) tid;

  if (!last_event_on_cpu (self, cpu, &event))
    return;
  if (op->kind == OP_DUARR)
    {
      esize = op->size >> 1;
      if (!dyn_range (self, op, data, size, &start, &len))
        return;
    }
  else if (op->kind == OP_STACK)
    len = size > start ? size - start : 0;   /* to the record's end (push_stack) */
  if (esize == 0 || start > size)
    return;
  len = MIN (len, size - start);
  if (ct->stack_space == SEISMO_FRAME_USER + 1 && tid_ok (tid))
    {
      const TaskIds *ids = g_hash_table_lookup (self->task_ids, GINT_TO_POINTER ((gint32) tid));

      if (ids != NULL && ids->tgid > 0)
        pid = ids->tgid;
    }
  frames = g_array_new (FALSE, TRUE, sizeof (SeismoFrame));
  for (guint k = 0; k + esize <= len; k += esize)
    {
      guint64 addr = read_uint (self, data + start + k, esize);
      SeismoFrame f = { 0 };

      /* The kernel pads with zeros and ends user stacks with ULONG_MAX. */
      if (addr == 0 || addr == G_MAXUINT64 || (esize == 4 && addr == G_MAXUINT32))
        break;
      f.address = addr;
      f.space = ct->stack_space - 1;
      f.pid = f.space == SEISMO_FRAME_USER ? pid : -1;
      if (f.space == SEISMO_FRAME_KERNEL && self->have_ksyms)
        {
          const char *func = tep_find_function (self->tep, addr);

          if (func != NULL)
            {
              f.function = func;
              f.offset = (guint32) (addr - (guint64) tep_find_function_address (self->tep, addr));
              f.module = "[kernel.kallsyms]";
            }
        }
      g_array_append_val (frames, f);
    }
  seismo_trace_builder_attach_stack (self->builder, event, (const SeismoFrame *) (gpointer) frames->data,
                                     frames->len);
}

/*
 * The callers of a kernel_stack or user_stack record, one a line as trace-cmd report prints them
 * after "=> ": kernel addresses named from kallsyms ("schedule (ffffffff82266273)"), user ones in
 * hex ("0x7f6c9c273353"). They end with the record or at an all-ones entry (ULONG_MAX).
 */
static void
push_stack (SeismoTepConverter *self,
            const Op           *op,
            const guint8       *data,
            guint               size)
{
  g_autoptr(GString) frames = g_string_new (NULL);
  guint64 end_mark = op->size == 4 ? G_MAXUINT32 : G_MAXUINT64;

  for (guint off = op->offset; off + op->size <= size; off += op->size)
    {
      guint64 addr = read_uint (self, data + off, op->size);
      const char *func;

      if (addr == end_mark)
        break;
      if (frames->len)
        g_string_append_c (frames, '\n');
      if (op->len && (func = tep_find_function (self->tep, addr)) != NULL)
        g_string_append_printf (frames, "%s (%" G_GINT64_MODIFIER "x)", func, addr);
      else if (op->len)
        g_string_append_printf (frames, "%" G_GINT64_MODIFIER "x", addr);
      else
        g_string_append_printf (frames, "0x%" G_GINT64_MODIFIER "x", addr);
    }
  seismo_trace_builder_push_string_len (self->builder, frames->str, frames->len);
}

gboolean
seismo_tep_converter_push (SeismoTepConverter *self,
                           guint64             ts,
                           guint               cpu,
                           const guint8       *data,
                           guint               size)
{
  SeismoTraceBuilder *b = self->builder;
  ConvType *ct;
  guint id;
  gint64 tid;

  if (G_UNLIKELY (size < (guint) (self->common_pid.offset + self->common_pid.size) ||
                  size < (guint) (self->common_type.offset + self->common_type.size)))
    {
      self->n_skipped++;
      return FALSE;
    }
  id = read_uint (self, data + self->common_type.offset, self->common_type.size);
  ct = lookup_type (self, id);
  if (G_UNLIKELY (ct == &self->unknown))
    {
      count_skipped_id (self, id);
      self->n_skipped++;
      return FALSE;
    }
  if (G_UNLIKELY (size < ct->min_size))
    {
      /* The kernel writes a kernel_stack record only as long as its frames, shorter than the
       * caller[8] its format declares: the frames still make the stack of the event before. */
      if (ct->stack_space != 0 && size >= (guint) ct->ops[ct->stack_op].offset)
        {
          attach_stack (self, ct, cpu, read_int (self, data + self->common_pid.offset,
                                                 self->common_pid.size), data, size);
          return TRUE;
        }
      self->n_skipped++;
      return FALSE;
    }
  tid = read_int (self, data + self->common_pid.offset, self->common_pid.size);
  if (tid_ok (tid))
    self->tid_seen[tid >> 6] |= G_GUINT64_CONSTANT (1) << (tid & 63);

  /* A whole event in one call: the id, then the args array or the return value. */
  if (ct->fast == FAST_SYS_ENTER)
    {
      guint64 v[7];

      memcpy (v, data + ct->ops[0].offset, sizeof v);
      seismo_trace_builder_add_event (b, ts, cpu, (gint32) tid, ct->type_id, v, 7);
      note_last_on_cpu (self, cpu);
      return TRUE;
    }
  if (ct->fast == FAST_SYS_EXIT)
    {
      guint64 v[2];

      memcpy (&v[0], data + ct->ops[0].offset, 8);
      memcpy (&v[1], data + ct->ops[1].offset, 8);
      seismo_trace_builder_add_event (b, ts, cpu, (gint32) tid, ct->type_id, v, 2);
      note_last_on_cpu (self, cpu);
      return TRUE;
    }

  seismo_trace_builder_begin_event (b, ts, cpu, (gint32) tid, ct->type_id);

  for (guint i = 0; i < ct->n_ops; i++)
    {
      const Op *op = &ct->ops[i];
      const guint8 *p = data + op->offset;

      switch (op->kind)
        {
        case OP_INT:
          seismo_trace_builder_push_int (b, read_int (self, p, op->size));
          break;

        case OP_UINT:
          seismo_trace_builder_push_uint (b, read_uint (self, p, op->size));
          break;

        case OP_STR:
          seismo_trace_builder_push_string_id (b, intern (self, (const char *) p,
                                                          strnlen ((const char *) p, op->len)));
          break;

        case OP_DSTR:
          {
            guint start, len;

            if (dyn_range (self, op, data, size, &start, &len))
              {
                const char *s = (const char *) data + start;

                seismo_trace_builder_push_string_id (b, intern (self, s, strnlen (s, len)));
              }
            else
              seismo_trace_builder_push_string_id (b, 0);
          }
          break;

        case OP_UARR:
          {
            gsize n = op->len / op->size;
            guint64 *v = array_tmp (self, n);

            for (gsize k = 0; k < n; k++)
              v[k] = read_uint (self, p + k * op->size, op->size);
            seismo_trace_builder_push_uint_array (b, v, n);
          }
          break;

        case OP_DUARR:
          {
            guint start, len, esize = op->size >> 1;
            gsize n = 0;
            guint64 *v = NULL;

            if (dyn_range (self, op, data, size, &start, &len))
              {
                n = len / esize;
                v = array_tmp (self, n);
                for (gsize k = 0; k < n; k++)
                  v[k] = read_uint (self, data + start + k * esize, esize);
              }
            seismo_trace_builder_push_uint_array (b, v, n);
          }
          break;

        case OP_BYTES:
          seismo_trace_builder_push_bytes (b, p, op->len);
          break;

        case OP_KSYM:
          seismo_trace_builder_push_string_id (b, ksym_name (self, read_uint (self, p, op->size),
                                                             op->len));
          break;

        case OP_STACK:
          push_stack (self, op, data, size);
          break;

        case OP_DBYTES:
          {
            guint start, len;

            if (dyn_range (self, op, data, size, &start, &len))
              seismo_trace_builder_push_bytes (b, data + start, len);
            else
              seismo_trace_builder_push_bytes (b, NULL, 0);
          }
          break;

        default:
          g_assert_not_reached ();
        }
    }
  seismo_trace_builder_end_event (b);

  if (G_UNLIKELY (ct->stack_space != 0))
    attach_stack (self, ct, cpu, tid, data, size);
  else
    note_last_on_cpu (self, cpu);
  if (ct->role != TASK_NONE)
    task_effects (self, ct, data, size, ts);
  return TRUE;
}

void
seismo_tep_converter_finish (SeismoTepConverter *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (self != NULL);

  /* The idle task runs on every CPU under one tid with per-CPU comms (swapper/N). */
  if (self->tid_seen[0] & 1)
    seismo_trace_builder_set_task_comm (self->builder, 0, "<idle>", 0);

  for (gsize w = 0; w < MAX_TID / 64; w++)
    {
      guint64 bits = self->tid_seen[w];

      while (bits)
        {
          guint bit = __builtin_ctzll (bits);
          gint32 tid = (gint32) (w * 64 + bit);
          const char *comm;

          bits &= bits - 1;
          if (tid == 0 || *tid_comm_slot (self, tid) != 0)
            continue;
          comm = g_hash_table_lookup (self->cmdlines, GINT_TO_POINTER (tid));
          if (comm)
            seismo_trace_builder_set_task_comm (self->builder, tid, comm, 0);
        }
    }

  g_hash_table_iter_init (&iter, self->task_ids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint32 tid = GPOINTER_TO_INT (key);
      const TaskIds *ids = value;

      if (!tid_ok (tid) || !(self->tid_seen[tid >> 6] & (G_GUINT64_CONSTANT (1) << (tid & 63))))
        continue;
      if (ids->tgid > 0)
        seismo_trace_builder_set_task_pid (self->builder, tid, ids->tgid);
      if (ids->ppid >= 0)
        seismo_trace_builder_set_task_ppid (self->builder, tid, ids->ppid);
    }
}

guint64
seismo_tep_converter_get_n_skipped (SeismoTepConverter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_skipped;
}

guint64
seismo_tep_converter_get_n_unknown (SeismoTepConverter *self,
                                    guint              *first_id)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);
  *first_id = G_MAXUINT;
  g_hash_table_iter_init (&iter, self->skipped_ids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      n += *(guint64 *) value;
      *first_id = MIN (*first_id, GPOINTER_TO_UINT (key));
    }
  return n;
}

guint64
seismo_tep_converter_get_n_skipped_of (SeismoTepConverter *self,
                                       guint               id)
{
  const guint64 *count;

  g_return_val_if_fail (self != NULL, 0);
  count = g_hash_table_lookup (self->skipped_ids, GUINT_TO_POINTER (id));
  return count ? *count : 0;
}

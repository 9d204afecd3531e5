/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ptrace"

/*
 * The event schema shared by live ptrace recordings and strace imports.
 *
 * Each syscall becomes syscalls:sys_enter_NAME (its arguments, named as the kernel's tracepoint
 * names them) and syscalls:sys_exit_NAME (ret). How an argument is decoded is decided from data:
 * the argument names and C types of the syscall catalogue (seismo-syscalls.h) and the rule table
 * below, first match wins.
 */

#include "seismo-ptrace-private.h"

typedef struct {
  const char             *syscalls;  /* space-separated names; NULL: any syscall */
  const char             *args;      /* space-separated argument names; NULL: any */
  const char             *ctype;     /* exact C type; NULL: any */
  SeismoPtraceArgKind     kind;
  const SeismoPtraceXlat *xlat;
  const char             *len_arg;   /* BUF_IN: the argument holding the length */
} ArgRule;

static const ArgRule arg_rules[] = {
  { "read pread64 readlink readlinkat", "buf", NULL, SEISMO_PTRACE_ARG_BUF_OUT, NULL,
    NULL },
  { "getcwd", "buf", NULL, SEISMO_PTRACE_ARG_PATH_OUT, NULL, NULL },
  { "recvfrom getrandom", "ubuf", NULL, SEISMO_PTRACE_ARG_BUF_OUT, NULL, NULL },
  { "write pwrite64", "buf", NULL, SEISMO_PTRACE_ARG_BUF_IN, NULL, "count" },
  { "sendto", "buff", NULL, SEISMO_PTRACE_ARG_BUF_IN, NULL, "len" },
  { "execve execveat", "argv", NULL, SEISMO_PTRACE_ARG_ARGV, NULL, NULL },
  { "execve execveat", "envp", NULL, SEISMO_PTRACE_ARG_POINTER, NULL, NULL },
  { "open openat open_by_handle_at creat", "flags", NULL, SEISMO_PTRACE_ARG_FLAGS,
    &seismo_ptrace_xlat_open_flags, NULL },
  { "mq_open", "oflag", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_open_flags, NULL },
  { "pipe2 dup3 eventfd2 epoll_create1 inotify_init1 signalfd4 timerfd_create accept4", "flags",
    NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_open_flags, NULL },
  { "access faccessat faccessat2", "mode", NULL, SEISMO_PTRACE_ARG_FLAGS,
    &seismo_ptrace_xlat_access_modes, NULL },
  { "newfstatat fstatat64 unlinkat linkat fchownat utimensat statx execveat name_to_handle_at "
    "faccessat2 fchmodat2", "flag flags", NULL, SEISMO_PTRACE_ARG_FLAGS,
    &seismo_ptrace_xlat_at_flags, NULL },
  { "mmap mmap2 mprotect pkey_mprotect", "prot", NULL, SEISMO_PTRACE_ARG_FLAGS,
    &seismo_ptrace_xlat_mmap_prot, NULL },
  { "mmap mmap2", "flags", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_mmap_flags, NULL },
  { "fcntl fcntl64", "cmd", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_fcntl_cmds, NULL },
  { "ioctl", "cmd", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_ioctl_cmds, NULL },
  { "socket socketpair", "family", NULL, SEISMO_PTRACE_ARG_SYMBOL,
    &seismo_ptrace_xlat_socket_families, NULL },
  { "socket socketpair", "type", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_socket_types,
    NULL },
  { "kill tkill tgkill rt_sigaction rt_sigqueueinfo rt_tgsigqueueinfo pidfd_send_signal", "sig",
    NULL, SEISMO_PTRACE_ARG_SIGNAL, NULL, NULL },
  { "rt_sigprocmask", "how", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_sigprocmask_hows,
    NULL },
  { "lseek", "whence", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_seek_whences, NULL },
  { "clone", "clone_flags", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_clone_flags, NULL },
  { "wait4 waitid", "options", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_wait_options,
    NULL },
  { "arch_prctl", "option", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_arch_prctl_codes,
    NULL },
  { "prlimit64 getrlimit setrlimit", "resource", NULL, SEISMO_PTRACE_ARG_SYMBOL,
    &seismo_ptrace_xlat_rlimit_resources, NULL },
  { "getrandom", "flags", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_getrandom_flags,
    NULL },
  { "futex", "op", NULL, SEISMO_PTRACE_ARG_FLAGS, &seismo_ptrace_xlat_futex_ops, NULL },
  { "clock_gettime clock_getres clock_nanosleep clock_settime timer_create", "which_clock", NULL,
    SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_clock_ids, NULL },
  { "timerfd_create", "clockid", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_clock_ids,
    NULL },
  { "madvise", "behavior", NULL, SEISMO_PTRACE_ARG_SYMBOL, &seismo_ptrace_xlat_madvise_advices,
    NULL },
  /* Addresses the kernel declares as unsigned long. */
  { "mmap mmap2 munmap mprotect pkey_mprotect madvise mremap msync mlock mlock2 munlock mincore "
    "remap_file_pages brk shmdt mbind process_madvise", "addr start brk old_addr new_addr", NULL,
    SEISMO_PTRACE_ARG_POINTER, NULL, NULL },
  { NULL, "fd dfd olddfd newdfd oldfd newfd fd_in fd_out in_fd out_fd epfd pidfd ufd to_dfd "
    "mountdirfd ruleset_fd", NULL, SEISMO_PTRACE_ARG_FD, NULL, NULL },
  { NULL, NULL, "const char *", SEISMO_PTRACE_ARG_PATH, NULL, NULL },
  { "utime utimes mount umount2", "filename dev_name dir_name type name", "char *",
    SEISMO_PTRACE_ARG_PATH, NULL, NULL },
};

/* C types of arguments that are signed; the rest are unsigned or pointers. */
static const char *const signed_ctypes[] = {
  "int", "const int", "long", "pid_t", "loff_t", "off_t", "clockid_t", "const clockid_t", "key_t",
  "timer_t", "mqd_t", "__s32", "key_serial_t",
};

/* C types that are 32 bits wide on x86_64 (sign extension of INT arguments). */
static const char *const narrow_ctypes[] = {
  "int", "const int", "unsigned int", "unsigned", "pid_t", "uid_t", "gid_t", "u32", "__u32",
  "const __u32", "__s32", "clockid_t", "const clockid_t", "key_t", "mqd_t", "qid_t", "rwf_t",
  "key_serial_t", "umode_t",
};

struct _SeismoPtraceSchema
{
  SeismoTraceBuilder   *builder;
  /* Per arch, indexed by syscall number; borrowed from by_name. */
  SeismoPtraceSyscall **by_nr[SEISMO_ARCH_N];
  guint                 n_nr[SEISMO_ARCH_N];
  GHashTable           *by_name;   /* name → SeismoPtraceSyscall (owned) */
  int                   fork_type;
  int                   exec_type;
  int                   exit_type;
  int                   signal_type;
  int                   stack_type;
};

static gboolean
word_in (const char *words,
         const char *word)
{
  gsize len = strlen (word);

  for (const char *p = words; (p = strstr (p, word)) != NULL; p += len)
    if ((p == words || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
      return TRUE;
  return FALSE;
}

static gboolean
ctype_in (const char        *ctype,
          const char *const *list,
          gsize              n)
{
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (ctype, list[i]))
      return TRUE;
  return FALSE;
}

static void
describe_arg (const char              *syscall,
              const SeismoSyscallInfo *names,
              guint                    i,
              SeismoPtraceArg         *arg)
{
  const char *aname = names->args[i].name;
  const char *ctype = names->args[i].ctype;

  arg->name = aname;
  arg->size = ctype_in (ctype, narrow_ctypes, G_N_ELEMENTS (narrow_ctypes)) ? 4 : 8;
  arg->len_arg = -1;
  arg->xlat = NULL;

  for (guint r = 0; r < G_N_ELEMENTS (arg_rules); r++)
    {
      const ArgRule *rule = &arg_rules[r];

      if ((rule->syscalls && !word_in (rule->syscalls, syscall))
          || (rule->args && !word_in (rule->args, aname))
          || (rule->ctype && !g_str_equal (rule->ctype, ctype)))
        continue;
      arg->kind = rule->kind;
      arg->xlat = rule->xlat;
      if (rule->len_arg)
        for (guint k = 0; k < names->n_args; k++)
          if (g_str_equal (names->args[k].name, rule->len_arg))
            arg->len_arg = (gint8) k;
      return;
    }

  if (strchr (ctype, '*'))
    arg->kind = SEISMO_PTRACE_ARG_POINTER;
  else if (ctype_in (ctype, signed_ctypes, G_N_ELEMENTS (signed_ctypes)))
    arg->kind = SEISMO_PTRACE_ARG_INT;
  else
    arg->kind = SEISMO_PTRACE_ARG_UINT;
}

/* Fills sc (name owned by the caller) from the catalogue; sc->raw when the arguments are unknown. */
static void
describe (const char          *name,
          SeismoPtraceSyscall *sc)
{
  const SeismoSyscallInfo *names = seismo_syscall_info (name);
  const char *canonical = names && names->canonical ? names->canonical : name;

  sc->classes = names ? names->classes : 0;
  if (names != NULL && !names->args_known)
    names = NULL;
  sc->raw = names == NULL;
  sc->n_args = names ? names->n_args : 6;
  sc->enter_type = sc->exit_type = -1;
  for (guint i = 0; names && i < names->n_args; i++)
    {
      describe_arg (canonical, names, i, &sc->args[i]);
      if (sc->args[i].kind == SEISMO_PTRACE_ARG_BUF_OUT
          || sc->args[i].kind == SEISMO_PTRACE_ARG_PATH_OUT)
        sc->has_out = TRUE;
    }
  sc->needs_entry = word_in ("execve execveat", canonical);
}

static void
syscall_free (gpointer data)
{
  SeismoPtraceSyscall *sc = data;

  g_free (sc->name);
  g_free (sc);
}

SeismoPtraceSchema *
seismo_ptrace_schema_new (SeismoTraceBuilder *builder)
{
  SeismoPtraceSchema *self = g_new0 (SeismoPtraceSchema, 1);

  self->builder = builder;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    {
      self->n_nr[a] = seismo_syscall_table_size (a);
      self->by_nr[a] = g_new0 (SeismoPtraceSyscall *, self->n_nr[a]);
    }
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, syscall_free);
  self->fork_type = self->exec_type = self->exit_type = self->signal_type = -1;
  self->stack_type = -1;
  return self;
}

void
seismo_ptrace_schema_free (SeismoPtraceSchema *self)
{
  if (self == NULL)
    return;
  for (guint a = 0; a < SEISMO_ARCH_N; a++)
    g_free (self->by_nr[a]);
  g_hash_table_unref (self->by_name);
  g_free (self);
}

static SeismoPtraceSyscall *
lookup_or_add (SeismoPtraceSchema *self,
               const char         *name)
{
  SeismoPtraceSyscall *sc = g_hash_table_lookup (self->by_name, name);

  if (sc == NULL)
    {
      sc = g_new0 (SeismoPtraceSyscall, 1);
      sc->name = g_strdup (name);
      describe (sc->name, sc);
      g_hash_table_insert (self->by_name, sc->name, sc);
    }
  return sc;
}

SeismoPtraceSyscall *
seismo_ptrace_schema_get (SeismoPtraceSchema *self,
                          SeismoArch          arch,
                          gint64              nr)
{
  const char *name;
  char buf[32];
  SeismoPtraceSyscall *sc;
  /* By number only where numbers start at 0 (x86_64, i386: what ptrace records). */
  gboolean cached = arch < SEISMO_ARCH_N && seismo_syscall_table_first (arch) == 0
                    && nr >= 0 && nr < self->n_nr[arch];

  if (cached && self->by_nr[arch][nr] != NULL)
    return self->by_nr[arch][nr];

  if ((name = seismo_syscall_name (arch, nr)) == NULL)
    {
      g_snprintf (buf, sizeof buf, "syscall_%" G_GINT64_FORMAT, nr);
      name = buf;
    }
  sc = lookup_or_add (self, name);
  if (cached)
    self->by_nr[arch][nr] = sc;
  return sc;
}

SeismoPtraceSyscall *
seismo_ptrace_schema_get_by_name (SeismoPtraceSchema *self,
                                  const char         *name)
{
  SeismoPtraceSyscall *sc = g_hash_table_lookup (self->by_name, name);
  const char *digits;

  if (sc != NULL)
    return sc;
  /* A name of any arch: strace logs come from every machine. */
  if (seismo_syscall_info (name) != NULL)
    return lookup_or_add (self, name);
  /* strace spells syscalls it has no name for "syscall_0x1b6"; we spell them "syscall_438". */
  if (g_str_has_prefix (name, "syscall_") && *(digits = name + strlen ("syscall_")))
    {
      char *end;
      guint64 nr = g_ascii_strtoull (digits, &end, 0);
      char buf[32];

      if (*end == '\0')
        {
          g_snprintf (buf, sizeof buf, "syscall_%" G_GUINT64_FORMAT, nr);
          return lookup_or_add (self, buf);
        }
    }
  return NULL;
}

static SeismoFieldInfo
arg_field (const SeismoPtraceArg *arg)
{
  SeismoFieldInfo f = { arg->name, SEISMO_FIELD_UINT, arg->size, SEISMO_DISPLAY_DEFAULT, NULL, 0 };

  switch (arg->kind)
    {
    case SEISMO_PTRACE_ARG_INT:
      f.type = SEISMO_FIELD_INT;
      break;
    case SEISMO_PTRACE_ARG_UINT:
      break;
    case SEISMO_PTRACE_ARG_POINTER:
      f.type = SEISMO_FIELD_POINTER;
      f.display = SEISMO_DISPLAY_HEX;
      break;
    case SEISMO_PTRACE_ARG_FD:
      f.type = SEISMO_FIELD_INT;
      f.size = 4;
      f.display = SEISMO_DISPLAY_FD;
      break;
    case SEISMO_PTRACE_ARG_PATH:
    case SEISMO_PTRACE_ARG_BUF_IN:
    case SEISMO_PTRACE_ARG_BUF_OUT:
    case SEISMO_PTRACE_ARG_PATH_OUT:
    case SEISMO_PTRACE_ARG_ARGV:
      f.type = SEISMO_FIELD_STRING;
      f.size = 0;
      break;
    case SEISMO_PTRACE_ARG_SYMBOL:
    case SEISMO_PTRACE_ARG_FLAGS:
      f.display = arg->kind == SEISMO_PTRACE_ARG_SYMBOL ? SEISMO_DISPLAY_SYMBOL
                                                        : SEISMO_DISPLAY_FLAGS;
      f.symbols = arg->xlat->symbols;
      f.n_symbols = arg->xlat->n_symbols;
      break;
    case SEISMO_PTRACE_ARG_SIGNAL:
      f.type = SEISMO_FIELD_INT;
      f.size = 4;
      f.display = SEISMO_DISPLAY_SIGNAL;
      break;
    default:
      g_assert_not_reached ();
    }
  return f;
}

void
seismo_ptrace_schema_ensure_types (SeismoPtraceSchema  *self,
                                   SeismoPtraceSyscall *sc)
{
  static const SeismoFieldInfo raw_args = {
    "args", SEISMO_FIELD_UINT_ARRAY, 8, SEISMO_DISPLAY_HEX, NULL, 0
  };
  static const SeismoFieldInfo ret = { "ret", SEISMO_FIELD_INT, 8, SEISMO_DISPLAY_ERRNO };
  SeismoFieldInfo fields[6];
  g_autofree char *enter = NULL;
  g_autofree char *exit = NULL;

  if (sc->enter_type >= 0)
    return;
  for (guint i = 0; !sc->raw && i < sc->n_args; i++)
    fields[i] = arg_field (&sc->args[i]);
  enter = g_strconcat ("sys_enter_", sc->name, NULL);
  exit = g_strconcat ("sys_exit_", sc->name, NULL);
  sc->enter_type = seismo_trace_builder_add_event_type (self->builder, "syscalls", enter,
                                                        sc->raw ? &raw_args : fields,
                                                        sc->raw ? 1 : sc->n_args, NULL);
  sc->exit_type = seismo_trace_builder_add_event_type (self->builder, "syscalls", exit,
                                                       &ret, 1, NULL);
}

/*
 * Process events carry the kernel tracepoints' fields (what the timeline looks up), plus what
 * ptrace and strace know and the tracepoint does not: exec's argv, exit's status.
 */
static const SeismoFieldInfo fork_fields[] = {
  { "parent_comm", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
  { "parent_pid", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
  { "child_comm", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
  { "child_pid", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
};

static const SeismoFieldInfo exec_fields[] = {
  { "filename", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
  { "pid", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
  { "old_pid", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
  { "argv", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
};

static const SeismoFieldInfo exit_fields[] = {
  { "comm", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
  { "pid", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
  { "exit_code", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },    /* -1 when killed */
  { "exit_signal", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_SIGNAL },   /* 0 when it exited */
  { "core_dumped", SEISMO_FIELD_UINT, 1, SEISMO_DISPLAY_DEFAULT },
};

static const SeismoFieldInfo signal_fields[] = {
  { "sig", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_SIGNAL },
  { "errno", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
  { "code", SEISMO_FIELD_INT, 4, SEISMO_DISPLAY_DEFAULT },
};

/* The user-space stack of the call just before on the same task (strace -k): one frame a line,
 * innermost first, as strace prints them ("/lib/libc.so.6(__open64+0x5b) [0xf8ab]"); top, the
 * innermost frame again, keeps the one-line form of the event (lists, report) on one line. */
static const SeismoFieldInfo stack_fields[] = {
  { "frames", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
  { "depth", SEISMO_FIELD_UINT, 4, SEISMO_DISPLAY_DEFAULT },
  { "top", SEISMO_FIELD_STRING, 0, SEISMO_DISPLAY_DEFAULT },
};

static guint
ensure_type (SeismoPtraceSchema    *self,
             int                   *id,
             const char            *system,
             const char            *name,
             const SeismoFieldInfo *fields,
             guint                  n_fields,
             const char            *print_fmt)
{
  if (*id < 0)
    *id = seismo_trace_builder_add_event_type (self->builder, system, name, fields, n_fields,
                                               print_fmt);
  return *id;
}

guint
seismo_ptrace_schema_fork_type (SeismoPtraceSchema *self)
{
  return ensure_type (self, &self->fork_type, "sched", "sched_process_fork", fork_fields,
                      G_N_ELEMENTS (fork_fields),
                      "comm={parent_comm} pid={parent_pid} child_comm={child_comm} "
                      "child_pid={child_pid}");
}

guint
seismo_ptrace_schema_exec_type (SeismoPtraceSchema *self)
{
  return ensure_type (self, &self->exec_type, "sched", "sched_process_exec", exec_fields,
                      G_N_ELEMENTS (exec_fields),
                      "filename={filename} pid={pid} old_pid={old_pid} argv={argv}");
}

guint
seismo_ptrace_schema_exit_type (SeismoPtraceSchema *self)
{
  return ensure_type (self, &self->exit_type, "sched", "sched_process_exit", exit_fields,
                      G_N_ELEMENTS (exit_fields), NULL);
}

guint
seismo_ptrace_schema_signal_type (SeismoPtraceSchema *self)
{
  return ensure_type (self, &self->signal_type, "signal", "signal_deliver", signal_fields,
                      G_N_ELEMENTS (signal_fields), "sig={sig} errno={errno} code={code}");
}

guint
seismo_ptrace_schema_stack_type (SeismoPtraceSchema *self)
{
  return ensure_type (self, &self->stack_type, "ptrace", "user_stack", stack_fields,
                      G_N_ELEMENTS (stack_fields), "depth={depth} top={top}");
}

void
seismo_ptrace_quote (GString      *out,
                     const guint8 *data,
                     gsize         len,
                     gboolean      nul_terminates)
{
  for (gsize i = 0; i < len; i++)
    {
      guint8 c = data[i];

      if (c == '\0' && nul_terminates)
        break;
      switch (c)
        {
        case '"': g_string_append (out, "\\\""); continue;
        case '\\': g_string_append (out, "\\\\"); continue;
        case '\t': g_string_append (out, "\\t"); continue;
        case '\n': g_string_append (out, "\\n"); continue;
        case '\v': g_string_append (out, "\\v"); continue;
        case '\f': g_string_append (out, "\\f"); continue;
        case '\r': g_string_append (out, "\\r"); continue;
        default: break;
        }
      if (c >= 0x20 && c < 0x7f)
        g_string_append_c (out, (char) c);
      else if (i + 1 < len && data[i + 1] >= '0' && data[i + 1] <= '7')
        /* Three digits when an octal digit follows, so the escape does not swallow it. */
        g_string_append_printf (out, "\\%03o", c);
      else
        g_string_append_printf (out, "\\%o", c);
    }
}

void
seismo_ptrace_comm_from_filename (const char *filename,
                                  char        comm[16])
{
  const char *base = strrchr (filename, '/');

  g_strlcpy (comm, base ? base + 1 : filename, 16);
}

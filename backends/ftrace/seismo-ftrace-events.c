/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-ftrace"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-tep-guard.h"
#include "seismo-ftrace-private.h"
#include "seismo-tep-convert.h"

/* sched switch/wakeup/waking/wakeup_new/fork/exec/exit + irq + raw_syscalls. */
static const char *const default_events[] = {
  "sched:sched_switch",
  "sched:sched_wakeup",
  "sched:sched_waking",
  "sched:sched_wakeup_new",
  "sched:sched_process_fork",
  "sched:sched_process_exec",
  "sched:sched_process_exit",
  "irq:*",
  "raw_syscalls:*",
  NULL
};

static int
str_ptr_cmp (gconstpointer a,
             gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
seismo_tracepoint_free (gpointer data)
{
  SeismoTracepoint *tp = data;

  g_free (tp->system);
  g_free (tp->event);
  g_free (tp);
}

const char *
seismo_ftrace_tracing_dir (GError **error)
{
  const char *path = NULL;

  /* tracefs_tracing_dir_is_mounted(true) mounts tracefs at its usual place when it is absent. */
  if (tracefs_tracing_dir_is_mounted (true, &path) < 0 || path == NULL)
    {
      int errsv = errno;

      g_set_error (error, SEISMO_ERROR,
                   errsv == EPERM || errsv == EACCES ? SEISMO_ERROR_PERMISSION
                                                     : SEISMO_ERROR_UNAVAILABLE,
                   _("tracefs is not mounted and could not be mounted at /sys/kernel/tracing: %s"),
                   g_strerror (errsv ? errsv : ENODEV));
      return NULL;
    }
  return path;
}

/* Event names of one system, listed once per resolution (a folder read each). */
static char **
system_events (GHashTable *cache,
               const char *dir,
               const char *system)
{
  char **events;

  if (g_hash_table_lookup_extended (cache, system, NULL, (gpointer *) &events))
    return events;
  events = tracefs_system_events (dir, system);
  if (events)
    qsort (events, tracefs_list_size (events), sizeof (char *), str_ptr_cmp);
  g_hash_table_insert (cache, g_strdup (system), events);
  return events;
}

GPtrArray *
seismo_ftrace_resolve_events (const char *const  *patterns,
                              GError            **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (seismo_tracepoint_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) tracefs_list_free);
  gboolean defaults = patterns == NULL;
  char **systems;
  const char *dir;

  if (!(dir = seismo_ftrace_tracing_dir (error)))
    return NULL;
  systems = tracefs_event_systems (dir);
  if (systems == NULL)
    {
      int errsv = errno;
      gboolean denied = errsv == EACCES || errsv == EPERM;

      g_set_error (error, SEISMO_ERROR, denied ? SEISMO_ERROR_PERMISSION : SEISMO_ERROR_UNAVAILABLE,
                   _("could not list the tracepoints in %s/events: %s%s"), dir, g_strerror (errsv),
                   denied ? " (tracefs is readable by root only: run as root)" : "");
      return NULL;
    }
  qsort (systems, tracefs_list_size (systems), sizeof (char *), str_ptr_cmp);
  if (defaults)
    patterns = default_events;

  for (guint i = 0; patterns[i]; i++)
    {
      const char *pat = patterns[i];
      const char *sep = strpbrk (pat, ":/");
      g_autofree char *sys_pat = NULL;
      g_autofree char *ev_pat = NULL;
      g_autoptr(GPatternSpec) sys_spec = NULL;
      g_autoptr(GPatternSpec) ev_spec = NULL;
      guint matched = 0;

      if (*pat == '\0')
        continue;
      if (sep)
        {
          sys_pat = g_strndup (pat, sep - pat);
          ev_pat = g_strdup (*(sep + 1) ? sep + 1 : "*");
        }
      else
        {
          /* A bare word is a system when one has that name, else an event of any system. */
          g_autoptr(GPatternSpec) spec = g_pattern_spec_new (pat);
          gboolean system_only = FALSE;

          for (guint k = 0; systems[k] && !system_only; k++)
            system_only = g_pattern_spec_match_string (spec, systems[k]);
          sys_pat = g_strdup (system_only ? pat : "*");
          ev_pat = g_strdup (system_only ? "*" : pat);
        }
      sys_spec = g_pattern_spec_new (sys_pat);
      ev_spec = g_pattern_spec_new (ev_pat);

      for (guint k = 0; systems[k]; k++)
        {
          char **events;

          /* "ftrace" holds the tracers' own record formats, not events one can enable. */
          if (g_str_equal (systems[k], "ftrace") ||
              !g_pattern_spec_match_string (sys_spec, systems[k]))
            continue;
          events = system_events (cache, dir, systems[k]);
          for (guint e = 0; events && events[e]; e++)
            {
              char *key;

              if (!g_pattern_spec_match_string (ev_spec, events[e]))
                continue;
              matched++;
              key = g_strconcat (systems[k], ":", events[e], NULL);
              if (g_hash_table_add (seen, key))
                {
                  SeismoTracepoint *tp = g_new (SeismoTracepoint, 1);

                  tp->system = g_strdup (systems[k]);
                  tp->event = g_strdup (events[e]);
                  g_ptr_array_add (out, tp);
                }
            }
        }
      if (matched == 0 && !defaults)
        {
          g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                       _("no tracepoint matches \"%s\" (see seismo-cli record -b ftrace "
                         "--list-events)"), pat);
          tracefs_list_free (systems);
          return NULL;
        }
    }
  tracefs_list_free (systems);
  if (out->len == 0)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_BAD_OPTION,
                   _("no tracepoint selected"));
      return NULL;
    }
  return g_steal_pointer (&out);
}

GPtrArray *
seismo_ftrace_list_events (GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) all = NULL;
  const char *const everything[] = { "*:*", NULL };
  struct tep_handle *tep;

  if (!(all = seismo_ftrace_resolve_events (everything, error)))
    return NULL;

  /* Formats read one by one: tracefs_local_events() would also parse all of /proc/kallsyms. */
  tep = tep_alloc ();
  tep_set_long_size (tep, sizeof (long));
  tep_set_page_size (tep, getpagesize ());
  for (guint i = 0; i < all->len; i++)
    {
      SeismoTracepoint *tp = g_ptr_array_index (all, i);
      g_autofree char *format = NULL;
      struct tep_event *event = NULL;
      int size = 0;

      format = tracefs_event_file_read (NULL, tp->system, tp->event, "format", &size);
      if (format == NULL || size <= 0)
        continue;
      seismo_tep_parse_local (tep, format, size, tp->system);
      event = tep_find_event_by_name (tep, tp->system, tp->event);
      if (event)
        g_ptr_array_add (out, seismo_tep_event_describe (event));
    }
  tep_free (tep);
  g_ptr_array_sort (out, str_ptr_cmp);
  return g_steal_pointer (&out);
}

/* ---- instances -------------------------------------------------------------------------------- */

G_LOCK_DEFINE_STATIC (instances);
static GPtrArray *live_instances;   /* char*: names of instances this process created */

static void
destroy_by_name (const char *name)
{
  struct tracefs_instance *inst = tracefs_instance_alloc (NULL, name);

  if (inst == NULL)
    return;
  /* Stop the buffer and drop the events first so the removal does not race with writers. */
  tracefs_trace_off (inst);
  tracefs_instance_file_write (inst, "set_event", "");
  if (tracefs_instance_destroy (inst) < 0)
    g_debug ("could not remove tracefs instance %s: %s", name, g_strerror (errno));
  tracefs_instance_free (inst);
}

/* Runs at exit: instances still registered were not destroyed by their recorder. */
static void
destroy_live_instances (void)
{
  G_LOCK (instances);
  if (live_instances)
    {
      for (guint i = 0; i < live_instances->len; i++)
        destroy_by_name (g_ptr_array_index (live_instances, i));
      g_ptr_array_set_size (live_instances, 0);
    }
  G_UNLOCK (instances);
}

/* The pid in "seismo-<pid>" or "seismo-<pid>-<n>"; 0 when the name is not one of ours. */
static pid_t
instance_pid (const char *name)
{
  char *end = NULL;
  gint64 pid;

  if (!g_str_has_prefix (name, "seismo-"))
    return 0;
  pid = g_ascii_strtoll (name + 7, &end, 10);
  if (end == name + 7 || (*end != '\0' && *end != '-') || pid <= 0 || pid > G_MAXINT32)
    return 0;
  return (pid_t) pid;
}

guint
seismo_ftrace_remove_stale_instances (void)
{
  char **names = tracefs_instances ("^seismo-[0-9]");
  guint removed = 0;

  for (guint i = 0; names && names[i]; i++)
    {
      pid_t pid = instance_pid (names[i]);
      gboolean ours = FALSE;

      if (pid == 0)
        continue;
      G_LOCK (instances);
      for (guint k = 0; live_instances && k < live_instances->len; k++)
        ours |= g_str_equal (g_ptr_array_index (live_instances, k), names[i]);
      G_UNLOCK (instances);
      /* Alive (or not ours to judge: EPERM) means in use; a reused pid of ours is stale too. */
      if (ours || (pid != getpid () && (kill (pid, 0) == 0 || errno != ESRCH)))
        continue;
      destroy_by_name (names[i]);
      removed++;
    }
  tracefs_list_free (names);
  return removed;
}

/*
 * The same, from anywhere (seismo_backends_sweep_stale()): only when tracefs is mounted already
 * (never mounts it) and this process may remove instances (root), else nothing. Run where a
 * recorder killed together with its guard left an instance tracing: the next recording of any
 * backend, the GUI run as root.
 */
guint
seismo_ftrace_sweep_stale_instances (void)
{
  g_autofree char *instances = NULL;
  const char *path = NULL;

  if (tracefs_tracing_dir_is_mounted (false, &path) <= 0 || path == NULL)
    return 0;
  instances = g_build_filename (path, "instances", NULL);
  if (access (instances, W_OK) != 0)
    return 0;
  return seismo_ftrace_remove_stale_instances ();
}

struct tracefs_instance *
seismo_ftrace_instance_create (GError **error)
{
  static gsize atexit_once;

  if (g_once_init_enter (&atexit_once))
    {
      atexit (destroy_live_instances);
      g_once_init_leave (&atexit_once, 1);
    }

  for (guint n = 0; n < 64; n++)
    {
      g_autofree char *name = n == 0 ? g_strdup_printf ("seismo-%d", (int) getpid ())
                                     : g_strdup_printf ("seismo-%d-%u", (int) getpid (), n);
      struct tracefs_instance *inst;

      if (tracefs_instance_exists (name))
        continue;
      inst = tracefs_instance_create (name);
      if (inst == NULL)
        {
          seismo_set_errno_error (error, errno, _("could not create tracefs instance %s"), name);
          return NULL;
        }
      if (!tracefs_instance_is_new (inst))
        {
          /* Someone made it between our check and our mkdir: not ours to use. */
          tracefs_instance_free (inst);
          continue;
        }
      G_LOCK (instances);
      if (live_instances == NULL)
        live_instances = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (live_instances, g_steal_pointer (&name));
      G_UNLOCK (instances);
      return inst;
    }
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
               _("could not create a tracefs instance: seismo-%d-* are all taken"), (int) getpid ());
  return NULL;
}

void
seismo_ftrace_instance_destroy (struct tracefs_instance *instance)
{
  const char *name;

  if (instance == NULL)
    return;
  name = tracefs_instance_get_name (instance);
  tracefs_trace_off (instance);
  tracefs_instance_file_write (instance, "set_event", "");
  if (tracefs_instance_destroy (instance) < 0)
    {
      /* Left registered: the exit handler tries again. */
      g_warning ("could not remove tracefs instance %s: %s", name, g_strerror (errno));
      tracefs_instance_free (instance);
      return;
    }
  G_LOCK (instances);
  for (guint k = 0; live_instances && k < live_instances->len; k++)
    if (g_str_equal (g_ptr_array_index (live_instances, k), name))
      {
        g_ptr_array_remove_index (live_instances, k);
        break;
      }
  G_UNLOCK (instances);
  tracefs_instance_free (instance);
}

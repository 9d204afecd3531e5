/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backends"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef SEISMO_HAVE_LIBDW
#include <gelf.h>
#include <libelf.h>
#endif

#include "seismo-errno-error.h"
#include "seismo-proc-maps.h"
#include "seismo-user.h"

#define SEISMO_BUILD_ID_MAX 64
#define RESCAN_INTERVAL_NS  (100 * 1000 * 1000)

typedef struct {
  guint64 start, end, offset, inode;
  guint32 dev_major, dev_minor;
} Mapping;

typedef struct {
  GArray  *mappings;     /* Mapping: executable file mappings added so far */
  guint64  last_scan_ns;
} Process;

typedef struct {
  guint8 id[SEISMO_BUILD_ID_MAX];
  guint  len;
} BuildId;

/* A mapping found by a scan, for the builder's thread to add. */
typedef struct {
  gint32   pid;
  Mapping  m;
  char    *path;
  BuildId *build_id;  /* borrowed from build_ids */
  guint64  time_ns;
} Pending;

/* Scans may run on any thread (the eBPF ring buffer worker scans as soon as the kernel says code
 * was mapped, before a short-lived process is gone); the builder is only touched by flush(). */
struct _SeismoProcMaps {
  SeismoTraceBuilder *builder;   /* borrowed */
  GMutex              lock;
  GHashTable         *processes; /* pid → Process */
  GHashTable         *build_ids; /* "dev:inode" → BuildId (len 0: none) */
  GArray             *pending;   /* Pending */
};

static void
pending_clear (gpointer data)
{
  g_free (((Pending *) data)->path);
}

static void
process_free (gpointer data)
{
  Process *p = data;

  g_array_unref (p->mappings);
  g_free (p);
}

SeismoProcMaps *
seismo_proc_maps_new (SeismoTraceBuilder *builder)
{
  SeismoProcMaps *self = g_new0 (SeismoProcMaps, 1);

  self->builder = builder;
  self->processes = g_hash_table_new_full (NULL, NULL, NULL, process_free);
  self->build_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  g_array_set_clear_func (self->pending, pending_clear);
  g_mutex_init (&self->lock);
  return self;
}

void
seismo_proc_maps_flush (SeismoProcMaps *self)
{
  g_autoptr(GArray) pending = NULL;

  g_mutex_lock (&self->lock);
  if (self->pending->len > 0)
    {
      pending = g_steal_pointer (&self->pending);
      self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
      g_array_set_clear_func (self->pending, pending_clear);
    }
  g_mutex_unlock (&self->lock);
  if (pending == NULL)
    return;
  for (guint i = 0; i < pending->len; i++)
    {
      const Pending *p = &g_array_index (pending, Pending, i);

      seismo_trace_builder_add_mapping (self->builder, p->pid, p->m.start, p->m.end, p->m.offset,
                                        p->path, p->build_id->len ? p->build_id->id : NULL,
                                        p->build_id->len, p->time_ns);
    }
}

void
seismo_proc_maps_free (SeismoProcMaps *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->processes);
  g_hash_table_unref (self->build_ids);
  g_array_unref (self->pending);
  g_mutex_clear (&self->lock);
  g_free (self);
}

gboolean
seismo_elf_read_build_id (int     fd,
                          guint8 *build_id,
                          guint  *len)
{
#ifdef SEISMO_HAVE_LIBDW
  Elf *elf;
  Elf_Scn *scn = NULL;
  gboolean found = FALSE;

  elf_version (EV_CURRENT);
  /* ELF_C_READ, not _MMAP: a file the user truncates meanwhile makes a failed read, no SIGBUS. */
  elf = elf_begin (fd, ELF_C_READ, NULL);
  if (elf == NULL)
    return FALSE;
  while (!found && (scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      Elf_Data *data;
      GElf_Nhdr nhdr;
      size_t offset = 0, name_off, desc_off, next;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_NOTE ||
          (data = elf_getdata (scn, NULL)) == NULL)
        continue;
      while ((next = gelf_getnote (data, offset, &nhdr, &name_off, &desc_off)) > 0)
        {
          if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
              memcmp ((const char *) data->d_buf + name_off, "GNU", 4) == 0 &&
              nhdr.n_descsz > 0 && nhdr.n_descsz <= SEISMO_BUILD_ID_MAX)
            {
              memcpy (build_id, (const char *) data->d_buf + desc_off, nhdr.n_descsz);
              *len = nhdr.n_descsz;
              found = TRUE;
              break;
            }
          offset = next;
        }
    }
  elf_end (elf);
  return found;
#else
  return FALSE;
#endif
}

/*
 * The build-id of a mapped file. As root, /proc/PID/map_files/ opens the very file mapped, with
 * no path the user could swap in between; otherwise (or when that is refused) the path, as the
 * user the recording is for (seismo_user_open_for_reading). Cached per device and inode.
 */
static const BuildId *
build_id_of (SeismoProcMaps *self,
             gint32          pid,
             const Mapping  *m,
             const char     *path)
{
  g_autofree char *key = g_strdup_printf ("%u:%u:%" G_GUINT64_FORMAT, m->dev_major, m->dev_minor,
                                          m->inode);
  BuildId *b = g_hash_table_lookup (self->build_ids, key);
  char map_file[128];
  int fd;

  if (b != NULL)
    return b;
  b = g_new0 (BuildId, 1);
  g_snprintf (map_file, sizeof map_file, "/proc/%d/map_files/%" G_GINT64_MODIFIER "x-%"
              G_GINT64_MODIFIER "x", (int) pid, m->start, m->end);
  fd = geteuid () == 0 ? open (map_file, O_RDONLY | O_CLOEXEC | O_NOCTTY) : -1;
  if (fd < 0)
    fd = seismo_user_open_for_reading (path, NULL);
  if (fd >= 0)
    {
      if (!seismo_elf_read_build_id (fd, b->id, &b->len))
        b->len = 0;
      close (fd);
    }
  g_hash_table_insert (self->build_ids, g_steal_pointer (&key), b);
  return b;
}

static Process *
process_of (SeismoProcMaps *self,
            gint32          pid)
{
  Process *p = g_hash_table_lookup (self->processes, GINT_TO_POINTER (pid));

  if (p == NULL)
    {
      p = g_new0 (Process, 1);
      p->mappings = g_array_new (FALSE, FALSE, sizeof (Mapping));
      g_hash_table_insert (self->processes, GINT_TO_POINTER (pid), p);
    }
  return p;
}

static gboolean
known (Process       *p,
       const Mapping *m)
{
  for (guint i = 0; i < p->mappings->len; i++)
    {
      const Mapping *k = &g_array_index (p->mappings, Mapping, i);

      if (k->start == m->start && k->end == m->end && k->offset == m->offset &&
          k->inode == m->inode && k->dev_major == m->dev_major && k->dev_minor == m->dev_minor)
        return TRUE;
    }
  return FALSE;
}

static gboolean
scan_locked (SeismoProcMaps *self,
             gint32          pid,
             guint64         time_ns)
{
  g_autofree char *contents = NULL;
  g_autofree char *file = g_strdup_printf ("/proc/%d/maps", (int) pid);
  Process *p = process_of (self, pid);
  char *line, *next;

  p->last_scan_ns = time_ns;
  /* /proc/PID/maps is the kernel's, whoever runs the process. */
  if (pid <= 0 || !g_file_get_contents (file, &contents, NULL, NULL))
    return FALSE;
  for (line = contents; line != NULL && *line != '\0'; line = next)
    {
      Mapping m = { 0 };
      char perms[8] = "";
      int path_at = 0;

      next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      if (sscanf (line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n",
                  &m.start, &m.end, perms, &m.offset, &m.dev_major, &m.dev_minor, &m.inode,
                  &path_at) < 7 || path_at == 0)
        continue;
      /* Only code in files names frames; [vdso] and anonymous code (JITs) stay addresses. */
      if (strchr (perms, 'x') == NULL || line[path_at] != '/' || m.inode == 0 || known (p, &m))
        continue;
      {
        Pending add = { pid, m, g_strdup (line + path_at), NULL, time_ns };

        add.build_id = (BuildId *) build_id_of (self, pid, &m, add.path);
        g_array_append_val (p->mappings, m);
        g_array_append_val (self->pending, add);
      }
    }
  return TRUE;
}

gboolean
seismo_proc_maps_scan (SeismoProcMaps *self,
                       gint32          pid,
                       guint64         time_ns)
{
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->lock);
  ok = scan_locked (self, pid, time_ns);
  g_mutex_unlock (&self->lock);
  return ok;
}

void
seismo_proc_maps_exec (SeismoProcMaps *self,
                       gint32          pid,
                       guint64         time_ns)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  g_hash_table_remove (self->processes, GINT_TO_POINTER (pid));
  scan_locked (self, pid, time_ns);
  g_mutex_unlock (&self->lock);
}

gboolean
seismo_proc_maps_is_code (SeismoProcMaps *self,
                          gint32          pid,
                          guint64         address,
                          guint64         time_ns)
{
  Process *p;
  gboolean found = FALSE;

  g_mutex_lock (&self->lock);
  p = g_hash_table_lookup (self->processes, GINT_TO_POINTER (pid));
  for (int pass = 0; pass < 2 && !found; pass++)
    {
      if (p != NULL)
        for (guint i = 0; i < p->mappings->len && !found; i++)
          {
            const Mapping *m = &g_array_index (p->mappings, Mapping, i);

            found = address >= m->start && address < m->end;
          }
      if (found || pass == 1 || (p != NULL && p->mappings->len > 0 &&
                                 time_ns - p->last_scan_ns < RESCAN_INTERVAL_NS))
        break;
      scan_locked (self, pid, time_ns);
      p = g_hash_table_lookup (self->processes, GINT_TO_POINTER (pid));
    }
  g_mutex_unlock (&self->lock);
  return found;
}

gboolean
seismo_stacks_save_kallsyms (SeismoTraceBuilder *builder,
                             char              **text_out,
                             GError            **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents ("/proc/kallsyms", &text, &len, &local))
    {
      g_set_error (error, local->domain, local->code,
                   "could not read /proc/kallsyms to name kernel frames: %s", local->message);
      return FALSE;
    }
  seismo_trace_builder_set_kallsyms (builder, text, len);
  if (text_out != NULL)
    *text_out = g_steal_pointer (&text);
  return TRUE;
}

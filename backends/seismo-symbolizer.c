/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-symbolizer"

#include <string.h>
#include <unistd.h>

#ifdef SEISMO_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#endif

#include "seismo-error.h"
#include "seismo-i18n.h"
#include "seismo-proc-maps.h"
#include "seismo-symbolizer.h"
#include "seismo-user.h"

#ifdef SEISMO_HAVE_LIBDW

/* A resolved address, the frames kept for the next lookup of the same one. */
typedef struct {
  guint        n;
  SeismoFrame  frames[];
} Resolved;

/* A function symbol, for lookups by address in a sorted array (libdw's own lookup scans the
 * whole symbol table each time). */
typedef struct {
  guint64     start;
  guint64     end;         /* start + size, or start + 1 for a symbol without size */
  const char *name;
  int         rank;        /* 0 local, 1 weak, 2 global: the last of equal starts wins */
} Symbol;

/* A function or inlined call's address range in a CU, found in one walk of its DIEs (instead
 * of dwarf_getscopes() walking the CU again for every address). */
typedef struct {
  guint64   low, high;
  guint     depth;
  Dwarf_Off die;
} Scope;

/* One ELF file, reported alone in its own Dwfl at its link-time addresses. */
typedef struct {
  Dwfl        *dwfl;       /* NULL: the file could not be used */
  Dwfl_Module *module;
  char        *name;       /* basename, for the frames' module */
  GArray      *loads;      /* GElf_Phdr: the PT_LOAD segments, to turn file offsets into vaddrs */
  GHashTable  *resolved;   /* vaddr → Resolved */
  GStringChunk *strings;
  GArray      *symbols;    /* Symbol by start; NULL until first needed */
  GHashTable  *cu_scopes;  /* CU DIE offset → GArray of Scope */
} Module;

struct _SeismoSymbolizer {
  GHashTable *modules;     /* build-id hex or path → Module */
};

static const Dwfl_Callbacks callbacks = {
  .find_elf = dwfl_build_id_find_elf,
  .find_debuginfo = dwfl_standard_find_debuginfo,
};

static void
module_free (gpointer data)
{
  Module *m = data;

  g_clear_pointer (&m->dwfl, dwfl_end);
  g_free (m->name);
  g_clear_pointer (&m->loads, g_array_unref);
  g_clear_pointer (&m->resolved, g_hash_table_unref);
  g_clear_pointer (&m->strings, g_string_chunk_free);
  g_clear_pointer (&m->symbols, g_array_unref);
  g_clear_pointer (&m->cu_scopes, g_hash_table_unref);
  g_free (m);
}

SeismoSymbolizer *
seismo_symbolizer_new (void)
{
  SeismoSymbolizer *self = g_new0 (SeismoSymbolizer, 1);

  elf_version (EV_CURRENT);
  self->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, module_free);
  return self;
}

void
seismo_symbolizer_free (SeismoSymbolizer *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->modules);
  g_free (self);
}

static char *
module_key (const SeismoMapping *mapping)
{
  if (mapping->build_id != NULL && mapping->build_id_len > 0)
    {
      GString *s = g_string_new ("build-id:");

      for (guint i = 0; i < mapping->build_id_len; i++)
        g_string_append_printf (s, "%02x", mapping->build_id[i]);
      return g_string_free (s, FALSE);
    }
  return g_strconcat ("path:", mapping->path, NULL);
}

/* Opens the mapping's file, checking it is the one recorded. */
static Module *
module_open (const SeismoMapping *mapping)
{
  Module *m = g_new0 (Module, 1);
  guint8 build_id[64];
  guint build_id_len = 0;
  GElf_Ehdr ehdr;
  size_t n_phdrs = 0;
  Elf *elf = NULL;
  int fd;

  m->name = g_path_get_basename (mapping->path);
  m->loads = g_array_new (FALSE, FALSE, sizeof (GElf_Phdr));
  m->resolved = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  m->strings = g_string_chunk_new (4096);
  m->cu_scopes = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);

  fd = seismo_user_open_for_reading (mapping->path, NULL);
  if (fd < 0)
    return m;
  if (mapping->build_id_len > 0 &&
      (!seismo_elf_read_build_id (fd, build_id, &build_id_len) ||
       build_id_len != mapping->build_id_len ||
       memcmp (build_id, mapping->build_id, build_id_len) != 0))
    {
      /* Rebuilt or updated since the recording. */
      close (fd);
      return m;
    }
  elf = elf_begin (fd, ELF_C_READ, NULL);
  if (elf == NULL || gelf_getehdr (elf, &ehdr) == NULL || elf_getphdrnum (elf, &n_phdrs) != 0)
    goto fail;
  for (size_t i = 0; i < n_phdrs; i++)
    {
      GElf_Phdr phdr;

      if (gelf_getphdr (elf, i, &phdr) != NULL && phdr.p_type == PT_LOAD)
        g_array_append_val (m->loads, phdr);
    }
  elf_end (elf);
  elf = NULL;

  m->dwfl = dwfl_begin (&callbacks);
  if (m->dwfl == NULL)
    goto fail;
  dwfl_report_begin (m->dwfl);
  /* On success the Dwfl owns fd. Base 0: addresses are the file's own (link-time) ones. */
  m->module = dwfl_report_elf (m->dwfl, m->name, mapping->path, fd, 0, FALSE);
  dwfl_report_end (m->dwfl, NULL, NULL);
  if (m->module == NULL)
    {
      g_clear_pointer (&m->dwfl, dwfl_end);
      close (fd);
    }
  return m;

fail:
  if (elf != NULL)
    elf_end (elf);
  close (fd);
  return m;
}

/* The link-time address of a runtime address in mapping. */
static gboolean
to_vaddr (const Module        *m,
          const SeismoMapping *mapping,
          guint64              address,
          guint64             *vaddr)
{
  guint64 offset = address - mapping->start + mapping->file_offset;

  for (guint i = 0; i < m->loads->len; i++)
    {
      const GElf_Phdr *p = &g_array_index (m->loads, GElf_Phdr, i);

      if (offset >= p->p_offset && offset < p->p_offset + MAX (p->p_filesz, 1))
        {
          *vaddr = offset - p->p_offset + p->p_vaddr;
          return TRUE;
        }
    }
  return FALSE;
}

static const char *
die_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name;

  /* The linkage name first: C++'s DW_AT_name lacks the class and arguments. */
  if ((name = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr))) != NULL)
    return name;
  return dwarf_formstring (dwarf_attr_integrate (die, DW_AT_name, &attr));
}

static gint
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  const Symbol *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->rank - y->rank;
}

static void
load_symbols (Module *m)
{
  int n = dwfl_module_getsymtab (m->module);

  m->symbols = g_array_new (FALSE, FALSE, sizeof (Symbol));
  for (int i = 1; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr = 0;
      const char *name = dwfl_module_getsym_info (m->module, i, &sym, &addr, NULL, NULL, NULL);
      Symbol s;

      if (name == NULL || *name == '\0' || GELF_ST_TYPE (sym.st_info) != STT_FUNC || addr == 0)
        continue;
      s.start = addr;
      s.end = addr + MAX (sym.st_size, 1);
      s.name = name;
      s.rank = GELF_ST_BIND (sym.st_info) == STB_GLOBAL ? 2 : GELF_ST_BIND (sym.st_info) == STB_WEAK;
      g_array_append_val (m->symbols, s);
    }
  g_array_sort (m->symbols, compare_symbols);
}

/* The function symbol covering vaddr (NULL when none), and vaddr's offset in it. */
static const char *
symbol_at (Module   *m,
           guint64   vaddr,
           guint32  *offset)
{
  guint lo = 0, hi;

  if (m->symbols == NULL)
    load_symbols (m);
  hi = m->symbols->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (m->symbols, Symbol, mid).start <= vaddr)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* Among symbols starting at or before vaddr, the nearest one whose range covers it. */
  for (guint i = lo; i > 0 && lo - i < 8; i--)
    {
      const Symbol *s = &g_array_index (m->symbols, Symbol, i - 1);

      if (vaddr < s->end)
        {
          *offset = (guint32) (vaddr - s->start);
          return s->name;
        }
    }
  return NULL;
}

static void
index_scopes (GArray    *scopes,
              Dwarf_Die *parent,
              guint      depth)
{
  Dwarf_Die child;

  if (depth > 64 || dwarf_child (parent, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);

      if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
        {
          Dwarf_Addr base, low, high;
          ptrdiff_t off = 0;

          while ((off = dwarf_ranges (&child, off, &base, &low, &high)) > 0)
            {
              Scope s = { low, high, depth, dwarf_dieoffset (&child) };

              g_array_append_val (scopes, s);
            }
        }
      /* Inlined calls sit in functions, lexical blocks and other inlined calls. */
      if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
          tag == DW_TAG_lexical_block || tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
          tag == DW_TAG_structure_type)
        index_scopes (scopes, &child, depth + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

/* The functions and inlined calls covering pc in cu, innermost first (like dwarf_getscopes()). */
static guint
scopes_at (Module    *m,
           Dwarf_Die *cu,
           guint64    pc,
           Dwarf_Die *out,
           guint      max_out)
{
  Dwarf_Off key = dwarf_dieoffset (cu);
  GArray *scopes = g_hash_table_lookup (m->cu_scopes, GSIZE_TO_POINTER (key));
  Dwarf *dbg = dwarf_cu_getdwarf (cu->cu);
  const Scope *hit[SEISMO_MAX_INLINE_FRAMES];
  guint n = 0;

  if (scopes == NULL)
    {
      scopes = g_array_new (FALSE, FALSE, sizeof (Scope));
      index_scopes (scopes, cu, 0);
      g_hash_table_insert (m->cu_scopes, GSIZE_TO_POINTER (key), scopes);
    }
  for (guint i = 0; i < scopes->len && n < G_N_ELEMENTS (hit); i++)
    {
      const Scope *s = &g_array_index (scopes, Scope, i);

      if (pc >= s->low && pc < s->high)
        hit[n++] = s;
    }
  /* Deepest first; a DIE walk lists parents before children, so a stable order by depth. */
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && hit[j]->depth > hit[j - 1]->depth; j--)
      {
        const Scope *t = hit[j];

        hit[j] = hit[j - 1];
        hit[j - 1] = t;
      }
  n = MIN (n, max_out);
  for (guint i = 0; i < n; i++)
    if (dwarf_offdie (dbg, hit[i]->die, &out[i]) == NULL)
      return i;
  return n;
}

/* Fills out[] for vaddr (innermost first), from DWARF's scopes when there are inlined calls. */
static guint
describe (Module      *m,
          guint64      vaddr,
          SeismoFrame *out,
          guint        max_out)
{
  Dwfl_Module *mod = m->module;
  guint32 sym_offset = 0;
  const char *symbol = symbol_at (m, vaddr, &sym_offset);
  Dwfl_Line *line = dwfl_module_getsrc (mod, vaddr);
  const char *file = NULL;
  int lineno = 0;
  Dwarf_Addr bias = 0;
  Dwarf_Die *cu = dwfl_module_addrdie (mod, vaddr, &bias);
  Dwarf_Die scopes[SEISMO_MAX_INLINE_FRAMES];
  Dwarf_Files *files = NULL;
  int n_scopes = 0;
  guint n = 0;

  if (line != NULL)
    file = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);
  if (cu != NULL)
    {
      n_scopes = (int) scopes_at (m, cu, vaddr - bias, scopes, G_N_ELEMENTS (scopes));
      dwarf_getsrcfiles (cu, &files, NULL);
    }

  /* Each inlined call is a frame of its own, at the line where the next one is, until the real
   * function. */
  for (int i = 0; i < n_scopes && n + 1 < max_out; i++)
    {
      Dwarf_Attribute attr;
      Dwarf_Word call_file = 0, call_line = 0;

      if (dwarf_tag (&scopes[i]) != DW_TAG_inlined_subroutine)
        continue;
      out[n] = (SeismoFrame) { 0 };
      out[n].function = die_name (&scopes[i]);
      out[n].file = file;
      out[n].line = lineno > 0 ? (guint32) lineno : 0;
      out[n].inlined = TRUE;
      n++;
      /* Where it was called from is where the next frame out is. */
      dwarf_formudata (dwarf_attr (&scopes[i], DW_AT_call_file, &attr), &call_file);
      dwarf_formudata (dwarf_attr (&scopes[i], DW_AT_call_line, &attr), &call_line);
      file = files != NULL ? dwarf_filesrc (files, call_file, NULL, NULL) : NULL;
      lineno = (int) call_line;
    }
  out[n] = (SeismoFrame) { 0 };
  out[n].function = symbol;
  if (out[n].function == NULL)
    for (int i = 0; i < n_scopes; i++)
      if (dwarf_tag (&scopes[i]) == DW_TAG_subprogram)
        {
          out[n].function = die_name (&scopes[i]);
          break;
        }
  out[n].offset = symbol != NULL ? sym_offset : 0;
  out[n].file = file;
  out[n].line = lineno > 0 ? (guint32) lineno : 0;
  n++;
  return out[n - 1].function != NULL || n > 1 ? n : 0;
}

guint
seismo_symbolizer_resolve (const SeismoFrame   *frame,
                           const SeismoMapping *mapping,
                           SeismoFrame         *out,
                           guint                max_out,
                           gpointer             user_data)
{
  SeismoSymbolizer *self = user_data;
  g_autofree char *key = NULL;
  Resolved *r;
  Module *m;
  guint64 vaddr;

  if (mapping == NULL || mapping->path == NULL || max_out == 0)
    return 0;
  key = module_key (mapping);
  m = g_hash_table_lookup (self->modules, key);
  if (m == NULL)
    {
      m = module_open (mapping);
      g_hash_table_insert (self->modules, g_steal_pointer (&key), m);
    }
  if (m->dwfl == NULL || !to_vaddr (m, mapping, frame->address, &vaddr))
    return 0;

  r = g_hash_table_lookup (m->resolved, GSIZE_TO_POINTER (vaddr));
  if (r == NULL)
    {
      SeismoFrame tmp[SEISMO_MAX_INLINE_FRAMES];
      guint n = describe (m, vaddr, tmp, G_N_ELEMENTS (tmp));

      r = g_malloc (sizeof *r + n * sizeof (SeismoFrame));
      r->n = n;
      for (guint i = 0; i < n; i++)
        {
          r->frames[i] = tmp[i];
          /* Dwfl's strings live as long as the module; ours are copied for safety. */
          r->frames[i].function = tmp[i].function ? g_string_chunk_insert_const (m->strings, tmp[i].function) : NULL;
          r->frames[i].file = tmp[i].file ? g_string_chunk_insert_const (m->strings, tmp[i].file) : NULL;
          r->frames[i].module = m->name;
        }
      g_hash_table_insert (m->resolved, GSIZE_TO_POINTER (vaddr), r);
    }
  for (guint i = 0; i < r->n && i < max_out; i++)
    {
      out[i] = r->frames[i];
      out[i].address = frame->address;
      out[i].pid = frame->pid;
      out[i].space = SEISMO_FRAME_USER;
    }
  return MIN (r->n, max_out);
}

gboolean
seismo_symbolize_trace (SeismoTrace  *trace,
                        guint        *n_resolved,
                        GError      **error)
{
  g_autoptr(SeismoSymbolizer) self = seismo_symbolizer_new ();
  guint n;

  g_return_val_if_fail (trace != NULL, FALSE);

  n = seismo_trace_resolve_user_frames (trace, seismo_symbolizer_resolve, self);
  if (n_resolved != NULL)
    *n_resolved = n;
  return TRUE;
}

#else /* !SEISMO_HAVE_LIBDW */

struct _SeismoSymbolizer {
  int unused;
};

SeismoSymbolizer *
seismo_symbolizer_new (void)
{
  return g_new0 (SeismoSymbolizer, 1);
}

void
seismo_symbolizer_free (SeismoSymbolizer *self)
{
  g_free (self);
}

guint
seismo_symbolizer_resolve (const SeismoFrame   *frame,
                           const SeismoMapping *mapping,
                           SeismoFrame         *out,
                           guint                max_out,
                           gpointer             user_data)
{
  return 0;
}

gboolean
seismo_symbolize_trace (SeismoTrace  *trace,
                        guint        *n_resolved,
                        GError      **error)
{
  if (n_resolved != NULL)
    *n_resolved = 0;
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_UNSUPPORTED,
               _("this build cannot name user stack frames (built without elfutils libdw)"));
  return FALSE;
}

#endif

void
seismo_symbolize_opened_trace (SeismoTrace *trace)
{
  g_return_if_fail (trace != NULL);
  /* No libdw: frames stay addresses, which the stack views show as such. */
  if (seismo_trace_has_stacks (trace))
    seismo_symbolize_trace (trace, NULL, NULL);
}

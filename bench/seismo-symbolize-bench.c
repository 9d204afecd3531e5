/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Naming user stacks: N stacks (default 1M) of a real program's code, as a recording with --stacks
 * leaves them (addresses, the process mappings with build-ids), named by the symbolizer with
 * libdw: functions, file:line and inlined frames from DWARF. The program is BINARY (default: this
 * bench, which is seismo-cli's data and backend code built with -g), its executable segment
 * mapped at a made-up base like ASLR would; the stacks are 8..24 frames drawn from DISTINCT
 * (default 50000) call sites, frames shared the way a real program's stacks share them.
 * Prints the time to build the trace, and to symbolize it (the target: 1M in <= 2 s).
 *
 * usage: seismo-symbolize-bench [N] [DISTINCT] [BINARY]
 */

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "seismo-proc-maps.h"
#include "seismo-stacks.h"
#include "seismo-symbolizer.h"

/* CPU time of the process, µs: on a shared machine the wall time mostly measures waiting. */
static gint64
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 1000000;
  guint distinct = argc > 2 ? (guint) atoi (argv[2]) : 50000;
  g_autofree char *binary = argc > 3 ? g_strdup (argv[3]) : g_file_read_link ("/proc/self/exe", NULL);
  guint64 base = 0x555500000000ULL, text_off = 0, text_size = 0, text_vaddr = 0;
  guint8 build_id[64];
  guint build_id_len = 0;
  g_autofree guint64 *sites = NULL;
  SeismoTraceBuilder *builder;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint named = 0;
  gint64 t0, t1, t2, c0, c1, c2;
  GRand *rand = g_rand_new_with_seed (17);
  int fd;
  Elf *elf;
  size_t n_phdrs = 0;

  /* The executable segment: where call sites are, and how the file is mapped. */
  elf_version (EV_CURRENT);
  if ((fd = open (binary, O_RDONLY | O_CLOEXEC)) < 0 || (elf = elf_begin (fd, ELF_C_READ, NULL)) == NULL ||
      elf_getphdrnum (elf, &n_phdrs) != 0)
    {
      fprintf (stderr, "cannot read %s as ELF\n", binary);
      return 1;
    }
  for (size_t i = 0; i < n_phdrs; i++)
    {
      GElf_Phdr p;

      if (gelf_getphdr (elf, i, &p) && p.p_type == PT_LOAD && (p.p_flags & PF_X))
        {
          text_off = p.p_offset;
          text_size = p.p_filesz;
          text_vaddr = p.p_vaddr;
          break;
        }
    }
  elf_end (elf);
  seismo_elf_read_build_id (fd, build_id, &build_id_len);
  close (fd);
  if (text_size == 0)
    {
      fprintf (stderr, "%s has no executable segment\n", binary);
      return 1;
    }

  sites = g_new (guint64, distinct);
  for (guint i = 0; i < distinct; i++)
    sites[i] = base + (text_vaddr - text_off) + text_off + g_rand_int_range (rand, 0, (gint32) text_size);

  t0 = g_get_monotonic_time ();
  c0 = cpu_now ();
  builder = seismo_trace_builder_new ();
  seismo_trace_builder_add_mapping (builder, 4242, base + (text_vaddr & ~0xfffULL),
                                    base + text_vaddr + text_size, text_off & ~0xfffULL, binary,
                                    build_id_len ? build_id : NULL, build_id_len, 0);
  {
    static const SeismoFieldInfo fields[] = { { "n", SEISMO_FIELD_UINT, 8, SEISMO_DISPLAY_DEFAULT } };
    guint type = seismo_trace_builder_add_event_type (builder, "bench", "sample", fields, 1, NULL);
    guint64 ips[24];

    for (guint i = 0; i < n; i++)
      {
        /* Outer frames from a small set (main, loops), inner ones from all: like real stacks. */
        guint depth = 8 + g_rand_int_range (rand, 0, 17);

        for (guint d = 0; d < depth; d++)
          ips[d] = sites[d >= depth - 4 ? (guint) g_rand_int_range (rand, 0, 64)
                                        : (guint) g_rand_int_range (rand, 0, (gint32) distinct)];
        seismo_trace_builder_begin_event (builder, (guint64) i * 1000, 0, 4242, type);
        seismo_trace_builder_push_uint (builder, i);
        seismo_trace_builder_set_stack_addrs (builder, SEISMO_FRAME_USER, 4242, ips, depth);
        seismo_trace_builder_end_event (builder);
      }
  }
  trace = seismo_trace_builder_finish (builder);
  t1 = g_get_monotonic_time ();
  c1 = cpu_now ();
  if (!seismo_symbolize_trace (trace, &named, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  t2 = g_get_monotonic_time ();
  c2 = cpu_now ();
  printf ("symbolize: %u stacks (%u distinct frames) of %s (build-id %s)\n", n,
          seismo_trace_get_n_frames (trace), binary, build_id_len ? "yes" : "no");
  printf ("                    wall s    cpu s\n");
  printf ("  build the trace   %8.3f %8.3f\n", (t1 - t0) / 1e6, (c1 - c0) / 1e6);
  printf ("  symbolize         %8.3f %8.3f   (%u frames named; target <= 2 s for 1M stacks)\n",
          (t2 - t1) / 1e6, (c2 - c1) / 1e6, named);
  g_rand_free (rand);
  return 0;
}

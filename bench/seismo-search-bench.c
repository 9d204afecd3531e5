/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-bench"

/*
 * seismo-search-bench [--fields-only] FILE [NEEDLE…]: what the window's Find bar costs on a real capture. For each
 * needle, a forward search from the first event, by fields (seismo_trace_search()) and by
 * formatting every event (SEISMO_SEARCH_FORMAT_TEXT, the search before issue 14), wall and CPU time
 * of each, and whether both found the same event. Without needles: no match ("zzzz-no-such-thing",
 * "zzzz", a number found nowhere) and far matches (the comm of the last task in the task table, a
 * syscall name, a type name).
 */

#include <locale.h>
#include <sys/resource.h>

#include "seismo-backend.h"
#include "seismo-importer.h"
#include "seismo-search.h"

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static SeismoEventId
timed_search (SeismoTrace       *trace,
              const char        *needle,
              SeismoSearchFlags  flags,
              double            *wall,
              double            *cpu)
{
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_seconds ();
  SeismoEventId found = seismo_trace_search (trace, needle, 0, flags, NULL, NULL, NULL);

  *wall = (g_get_monotonic_time () - t0) / 1e6;
  *cpu = cpu_seconds () - c0;
  return found;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GPtrArray) needles = g_ptr_array_new_with_free_func (g_free);
  gboolean all_same = TRUE, fields_only = FALSE;
  gint64 t0;
  gsize n;

  setlocale (LC_ALL, "");
  if (argc > 1 && g_str_equal (argv[1], "--fields-only"))
    {
      fields_only = TRUE;
      argv++;
      argc--;
    }
  if (argc < 2 || argv[1][0] == '-')
    {
      g_printerr ("Usage: %s [--fields-only] FILE [NEEDLE…]\n", argv[0]);
      return 2;
    }
  seismo_backends_init ();
  t0 = g_get_monotonic_time ();
  trace = seismo_trace_open (argv[1], NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  n = seismo_trace_get_n_events (trace);
  g_print ("%s: %" G_GSIZE_FORMAT " events, opened in %.2f s; %u processors\n", argv[1], n,
           (g_get_monotonic_time () - t0) / 1e6, g_get_num_processors ());
  if (n == 0)
    return 0;

  for (int i = 2; i < argc; i++)
    g_ptr_array_add (needles, g_strdup (argv[i]));
  if (needles->len == 0)
    {
      guint n_tasks = seismo_trace_get_n_tasks (trace);

      g_ptr_array_add (needles, g_strdup ("zzzz-no-such-thing"));
      g_ptr_array_add (needles, g_strdup ("zzzz"));
      g_ptr_array_add (needles, g_strdup ("987654321987"));
      if (n_tasks > 0)
        g_ptr_array_add (needles, g_strdup (seismo_trace_get_string (trace, seismo_trace_get_task (trace, n_tasks - 1)->comm)));
      g_ptr_array_add (needles, g_strdup ("execve"));
      g_ptr_array_add (needles, g_strdup ("sched_process_exit"));
    }

  g_print ("%-24s %12s %9s %9s %12s %9s %9s %s\n", "needle", "fields: at", "wall s", "cpu s",
           "text: at", "wall s", "cpu s", "same");
  for (guint i = 0; i < needles->len; i++)
    {
      const char *needle = needles->pdata[i];
      double wall_f, cpu_f, wall_t = 0, cpu_t = 0;
      SeismoEventId by_fields = timed_search (trace, needle, 0, &wall_f, &cpu_f);
      SeismoEventId by_text = fields_only ? by_fields
                                          : timed_search (trace, needle, SEISMO_SEARCH_FORMAT_TEXT, &wall_t, &cpu_t);
      g_autofree char *at_f = by_fields == SEISMO_NO_EVENT ? g_strdup ("none") : g_strdup_printf ("%u", by_fields);
      g_autofree char *at_t = by_text == SEISMO_NO_EVENT ? g_strdup ("none") : g_strdup_printf ("%u", by_text);

      all_same &= by_fields == by_text;
      g_print ("%-24s %12s %9.3f %9.3f %12s %9.3f %9.3f %s\n", needle, at_f, wall_f, cpu_f, at_t,
               wall_t, cpu_t, by_fields == by_text ? "yes" : "NO");
    }
  return all_same ? 0 : 1;
}

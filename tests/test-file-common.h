/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Trace comparison for the .seismo format tests: everything a trace holds, field by field. */

#include <string.h>

#include "seismo-trace-private.h"

/* Events [0, n) of a and b: columns and payload bytes. */
static inline void
file_test_assert_events_equal (SeismoTrace *a,
                               SeismoTrace *b,
                               gsize        n)
{
  g_assert_cmpuint (a->n_events, >=, n);
  g_assert_cmpuint (b->n_events, >=, n);
  if (n == 0)
    return;
  g_assert_true (memcmp (a->ts, b->ts, n * sizeof (guint64)) == 0);
  g_assert_true (memcmp (a->cpu, b->cpu, n * sizeof (guint16)) == 0);
  g_assert_true (memcmp (a->type, b->type, n * sizeof (guint16)) == 0);
  g_assert_true (memcmp (a->task, b->task, n * sizeof (SeismoTaskId)) == 0);
  g_assert_true (memcmp (a->payload_off, b->payload_off, n * sizeof (guint32)) == 0);
  for (gsize i = 0; i < n; i++)
    {
      gsize la, lb;
      const guint8 *pa = _seismo_trace_payload (a, i, &la);
      const guint8 *pb = _seismo_trace_payload (b, i, &lb);

      g_assert_cmpmem (pa, la, pb, lb);
    }
}

static inline void
file_test_assert_types_equal (SeismoTrace *a,
                              SeismoTrace *b)
{
  g_assert_cmpuint (a->event_types->len, ==, b->event_types->len);
  for (guint t = 0; t < a->event_types->len; t++)
    {
      const SeismoEventType *x = g_ptr_array_index (a->event_types, t);
      const SeismoEventType *y = g_ptr_array_index (b->event_types, t);

      g_assert_cmpuint (x->id, ==, y->id);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpstr (x->system, ==, y->system);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->full_name, ==, y->full_name);
      g_assert_cmpstr (x->print_fmt, ==, y->print_fmt);
      g_assert_cmpstr (x->syscall, ==, y->syscall);
      g_assert_cmpmem (x->roles, sizeof x->roles, y->roles, sizeof y->roles);
      g_assert_cmpuint (x->n_fields, ==, y->n_fields);
      for (guint f = 0; f < x->n_fields; f++)
        {
          const SeismoField *fx = &x->fields[f], *fy = &y->fields[f];

          g_assert_cmpstr (fx->name, ==, fy->name);
          g_assert_cmpint (fx->type, ==, fy->type);
          g_assert_cmpuint (fx->size, ==, fy->size);
          g_assert_cmpint (fx->display, ==, fy->display);
          g_assert_cmpuint (fx->n_symbols, ==, fy->n_symbols);
          for (guint s = 0; s < fx->n_symbols; s++)
            {
              g_assert_cmpuint (fx->symbols[s].value, ==, fy->symbols[s].value);
              g_assert_cmpstr (fx->symbols[s].name, ==, fy->symbols[s].name);
            }
        }
    }
}

/* The tables: strings, tasks, comm changes, lost events, histograms, metadata (but load_warning). */
static inline void
file_test_assert_tables_equal (SeismoTrace *a,
                               SeismoTrace *b)
{
  const char *const *ka = seismo_trace_get_metadata_keys (a);
  const char *const *kb = seismo_trace_get_metadata_keys (b);
  guint ia = 0, ib = 0;

  file_test_assert_types_equal (a, b);

  g_assert_cmpuint (a->n_strings, ==, b->n_strings);
  g_assert_cmpmem (a->strings, a->strings_len, b->strings, b->strings_len);
  g_assert_cmpmem (a->string_off, a->n_strings * sizeof (guint32),
                   b->string_off, b->n_strings * sizeof (guint32));

  g_assert_cmpuint (a->n_tasks, ==, b->n_tasks);
  g_assert_cmpmem (a->tasks, a->n_tasks * sizeof (SeismoTask), b->tasks, b->n_tasks * sizeof (SeismoTask));

  g_assert_cmpuint (a->n_comm_changes, ==, b->n_comm_changes);
  for (guint c = 0; c < a->n_comm_changes; c++)
    {
      g_assert_cmpuint (a->comm_changes[c].task, ==, b->comm_changes[c].task);
      g_assert_cmpuint (a->comm_changes[c].comm, ==, b->comm_changes[c].comm);
      g_assert_cmpuint (a->comm_changes[c].time_ns, ==, b->comm_changes[c].time_ns);
    }

  g_assert_cmpuint (a->n_lost, ==, b->n_lost);
  for (guint l = 0; l < a->n_lost; l++)
    {
      g_assert_cmpint (a->lost[l].cpu, ==, b->lost[l].cpu);
      g_assert_cmpuint (a->lost[l].time_ns, ==, b->lost[l].time_ns);
      g_assert_cmpuint (a->lost[l].count, ==, b->lost[l].count);
    }

  g_assert_cmpuint (a->n_histograms, ==, b->n_histograms);
  for (guint h = 0; h < a->n_histograms; h++)
    {
      const SeismoHistogram *x = &a->histograms[h], *y = &b->histograms[h];

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->key, ==, y->key);
      g_assert_cmpstr (x->unit, ==, y->unit);
      g_assert_cmpuint (x->n_buckets, ==, y->n_buckets);
      g_assert_cmpmem (x->lower, x->n_buckets * 8, y->lower, y->n_buckets * 8);
      g_assert_cmpmem (x->counts, x->n_buckets * 8, y->counts, y->n_buckets * 8);
      g_assert_cmpuint (x->total_count, ==, y->total_count);
      g_assert_cmpuint (x->sum, ==, y->sum);
    }

  for (;;)
    {
      while (ka[ia] != NULL && strcmp (ka[ia], "load_warning") == 0)
        ia++;
      while (kb[ib] != NULL && strcmp (kb[ib], "load_warning") == 0)
        ib++;
      if (ka[ia] == NULL || kb[ib] == NULL)
        break;
      g_assert_cmpstr (ka[ia], ==, kb[ib]);
      g_assert_cmpstr (seismo_trace_get_metadata (a, ka[ia]), ==,
                       seismo_trace_get_metadata (b, kb[ib]));
      ia++;
      ib++;
    }
  g_assert_null (ka[ia]);
  g_assert_null (kb[ib]);
}

/* What _seismo_trace_derive() computed. */
static inline void
file_test_assert_derived_equal (SeismoTrace *a,
                                SeismoTrace *b)
{
  g_assert_cmpuint (a->n_cpus, ==, b->n_cpus);
  g_assert_cmpuint (seismo_trace_get_start_ns (a), ==, seismo_trace_get_start_ns (b));
  g_assert_cmpuint (seismo_trace_get_end_ns (a), ==, seismo_trace_get_end_ns (b));
  g_assert_cmpuint (a->n_lost_events, ==, b->n_lost_events);
  g_assert_cmpmem (a->type_counts, a->event_types->len * sizeof (guint64),
                   b->type_counts, b->event_types->len * sizeof (guint64));
  g_assert_cmpuint (a->n_spans, ==, b->n_spans);
  for (gsize s = 0; s < a->n_spans; s++)
    {
      g_assert_cmpuint (a->spans[s].enter, ==, b->spans[s].enter);
      g_assert_cmpuint (a->spans[s].exit, ==, b->spans[s].exit);
      g_assert_cmpuint (a->spans[s].syscall, ==, b->spans[s].syscall);
    }
  g_assert_cmpuint (a->syscall_names->len, ==, b->syscall_names->len);
  for (guint s = 0; s < a->syscall_names->len; s++)
    g_assert_cmpstr (g_ptr_array_index (a->syscall_names, s), ==,
                     g_ptr_array_index (b->syscall_names, s));
  for (guint k = 0; k < SEISMO_INTERVAL_N; k++)
    g_assert_cmpmem (a->intervals[k], a->n_intervals[k] * sizeof (SeismoInterval),
                     b->intervals[k], b->n_intervals[k] * sizeof (SeismoInterval));
  if (a->cpu_run_off != NULL || b->cpu_run_off != NULL)
    g_assert_cmpmem (a->cpu_run_off, (a->n_cpus + 1) * sizeof (gsize),
                     b->cpu_run_off, (b->n_cpus + 1) * sizeof (gsize));
}

static inline void
file_test_assert_traces_equal (SeismoTrace *a,
                               SeismoTrace *b)
{
  g_assert_cmpuint (a->n_events, ==, b->n_events);
  g_assert_cmpuint (a->n_blocks, ==, b->n_blocks);
  g_assert_cmpmem (a->block_base, (a->n_blocks + 1) * sizeof (guint64),
                   b->block_base, (b->n_blocks + 1) * sizeof (guint64));
  g_assert_cmpuint (a->payload_len, ==, b->payload_len);
  g_assert_cmpmem (a->payload, a->payload_len, b->payload, b->payload_len);
  file_test_assert_events_equal (a, b, a->n_events);
  file_test_assert_tables_equal (a, b);
  file_test_assert_derived_equal (a, b);
}

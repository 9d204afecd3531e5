/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include "seismo-session-test-util.h"

static void
assert_rows_equal (GArray *a,
                   GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      g_assert_cmpint (g_array_index (a, SeismoSessionRow, i).kind, ==,
                       g_array_index (b, SeismoSessionRow, i).kind);
      g_assert_cmpint (g_array_index (a, SeismoSessionRow, i).id, ==,
                       g_array_index (b, SeismoSessionRow, i).id);
    }
}

void
seismo_test_assert_sessions_equal (const SeismoSession *a,
                                   const SeismoSession *b)
{
  g_assert_cmpstr (a->trace_name, ==, b->trace_name);
  g_assert_cmpuint (a->trace_events, ==, b->trace_events);
  g_assert_cmpint (a->has_view, ==, b->has_view);
  g_assert_cmpuint (a->view_start_ns, ==, b->view_start_ns);
  g_assert_cmpuint (a->view_end_ns, ==, b->view_end_ns);
  for (guint m = 0; m < 2; m++)
    {
      g_assert_cmpint (a->has_marker[m], ==, b->has_marker[m]);
      g_assert_cmpuint (a->marker_ns[m], ==, b->marker_ns[m]);
    }
  g_assert_cmpint (a->has_range, ==, b->has_range);
  g_assert_cmpuint (a->range_start_ns, ==, b->range_start_ns);
  g_assert_cmpuint (a->range_end_ns, ==, b->range_end_ns);
  g_assert_cmpstr (a->filter, ==, b->filter);
  assert_rows_equal (a->hidden_rows, b->hidden_rows);
  assert_rows_equal (a->pinned_rows, b->pinned_rows);
  g_assert_cmpint (a->selected_event, ==, b->selected_event);
  g_assert_cmpuint (a->panes->len, ==, b->panes->len);
  for (guint i = 0; i < a->panes->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a->panes, i), ==, g_ptr_array_index (b->panes, i));
  g_assert_cmpuint (a->notes->len, ==, b->notes->len);
  for (guint i = 0; i < a->notes->len; i++)
    {
      g_assert_cmpuint (g_array_index (a->notes, SeismoSessionNote, i).time_ns, ==,
                        g_array_index (b->notes, SeismoSessionNote, i).time_ns);
      g_assert_cmpstr (g_array_index (a->notes, SeismoSessionNote, i).text, ==,
                       g_array_index (b->notes, SeismoSessionNote, i).text);
    }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <string.h>

#include "seismo-filter-run.h"
#include "seismo-test-util.h"
#include "seismo-view.h"

/*
 * SeismoView: the filter text is evaluated off the main thread into the same result as a
 * direct run, a repeated or unchanged value notifies nobody, an invalid expression keeps the
 * filter in force, a newer text wins over a running one, and markers, range and selection
 * notify once per real change.
 */

static guint
count_signal (SeismoView *view,
              const char *signal,
              guint      *counter)
{
  return g_signal_connect_swapped (view, signal, G_CALLBACK (g_atomic_int_inc), counter);
}

static void
wait_idle (SeismoView *view)
{
  while (seismo_view_get_filter_busy (view))
    g_main_context_iteration (NULL, TRUE);
}

static GBytes *
direct_matches (SeismoTrace *trace,
                const char  *text)
{
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, text, NULL);
  g_autoptr(GBytes) mask = NULL;
  g_autoptr(SeismoMatchSet) set = NULL;
  GBytes *matches;
  gsize n = 0;

  g_assert_nonnull (filter);
  g_assert_true (seismo_filter_run_all (filter, NULL, NULL, NULL, &mask, &set, &n));
  matches = seismo_match_set_to_ids (set);
  g_assert_cmpuint (n, ==, g_bytes_get_size (matches) / sizeof (guint32));
  return matches;
}

/* The view's matches as ids (guint32, ascending), to compare with a direct run's. */
static GBytes *
view_ids (SeismoView *view)
{
  g_assert_nonnull (seismo_view_get_matches (view));
  return seismo_match_set_to_ids (seismo_view_get_matches (view));
}

static void
test_filter (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (3000000, 11);
  g_autoptr(SeismoView) view = seismo_view_new ();
  g_autoptr(GBytes) expected = direct_matches (trace, "cpu == 1");
  g_autoptr(GError) error = NULL;
  guint results = 0, partials = 0, texts = 0;

  count_signal (view, "result-changed", &results);
  count_signal (view, "partial-result", &partials);
  count_signal (view, "notify::filter-text", &texts);

  /* Text before the trace: kept, evaluated when the trace comes. */
  g_assert_true (seismo_view_set_filter_text (view, "  cpu == 1 ", NULL));
  g_assert_cmpstr (seismo_view_get_filter_text (view), ==, "cpu == 1");
  g_assert_null (seismo_view_get_matches (view));
  seismo_view_set_trace (view, trace);
  g_assert_true (seismo_view_get_filter_busy (view));
  wait_idle (view);
  g_assert_cmpuint (results, ==, 1);
  {
    g_autoptr(GBytes) ids = view_ids (view);

    g_assert_true (g_bytes_equal (ids, expected));
  }
  g_assert_cmpuint (seismo_view_get_n_matched (view), ==, g_bytes_get_size (expected) / 4);
  g_assert_cmpstr (seismo_view_get_applied (view), ==, "cpu == 1");
  g_assert_nonnull (seismo_view_get_mask (view));

  /* The same text again: nothing runs, nothing is emitted. */
  g_assert_true (seismo_view_set_filter_text (view, "cpu == 1", NULL));
  g_assert_false (seismo_view_get_filter_busy (view));
  g_assert_cmpuint (results, ==, 1);

  /* Invalid: an error with its place, the filter in force stays. */
  g_assert_false (seismo_view_set_filter_text (view, "cpu ==", &error));
  g_assert_error (error, SEISMO_FILTER_ERROR, error->code);
  g_assert_cmpstr (seismo_view_get_filter_text (view), ==, "cpu == 1");
  {
    g_autoptr(GBytes) ids = view_ids (view);

    g_assert_true (g_bytes_equal (ids, expected));
  }

  /* A newer text replaces a running one: only the last result arrives. */
  results = 0;
  g_assert_true (seismo_view_set_filter_text (view, "cpu == 0", NULL));
  g_assert_true (seismo_view_set_filter_text (view, "cpu == 2", NULL));
  wait_idle (view);
  g_assert_cmpuint (results, ==, 1);
  {
    g_autoptr(GBytes) two = direct_matches (trace, "cpu == 2");

    g_autoptr(GBytes) ids = view_ids (view);

    g_assert_true (g_bytes_equal (ids, two));
  }

  /* Clearing: every event, once; clearing again changes nothing. */
  results = 0;
  g_assert_true (seismo_view_set_filter_text (view, "", NULL));
  g_assert_null (seismo_view_get_matches (view));
  g_assert_cmpuint (seismo_view_get_n_matched (view), ==, seismo_trace_get_n_events (trace));
  g_assert_true (seismo_view_set_filter_text (view, "", NULL));
  g_assert_cmpuint (results, ==, 1);
  g_assert_cmpuint (texts, >=, 3);
  g_test_message ("%u partial results", partials);
}

/* The first match, as the compare view aligns by it, is the first id of a whole run. */
static void
test_find_first (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (50000, 5);
  const char *exprs[] = { "cpu == 1", "cpu == 3 && sched:*", "cpu == 99" };

  for (guint i = 0; i < G_N_ELEMENTS (exprs); i++)
    {
      g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, exprs[i], NULL);
      g_autoptr(GBytes) matches = direct_matches (trace, exprs[i]);
      gsize size;
      const guint32 *ids = g_bytes_get_data (matches, &size);

      g_assert_cmpuint (seismo_filter_find_first (filter, NULL), ==,
                        size > 0 ? ids[0] : SEISMO_NO_EVENT);
    }
}

static void
test_mask (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (1000, 3);
  g_autoptr(SeismoView) view = seismo_view_new ();
  gsize words = seismo_filter_mask_words (seismo_trace_get_n_events (trace));
  guint64 *bits = g_new0 (guint64, words);
  g_autoptr(GBytes) mask = NULL;
  g_autoptr(GBytes) view_matches = NULL;
  const guint32 *ids;
  gsize size;

  bits[0] = 0x5;   /* events 0 and 2 */
  bits[1] = 1;     /* event 64 */
  mask = g_bytes_new_take (bits, words * sizeof (guint64));
  seismo_view_set_trace (view, trace);
  seismo_view_set_filter_mask (view, mask, "bucket");
  view_matches = view_ids (view);
  ids = g_bytes_get_data (view_matches, &size);
  g_assert_cmpuint (size, ==, 3 * sizeof (guint32));
  g_assert_cmpuint (ids[0], ==, 0);
  g_assert_cmpuint (ids[1], ==, 2);
  g_assert_cmpuint (ids[2], ==, 64);
  g_assert_cmpstr (seismo_view_get_applied (view), ==, "bucket");
  g_assert_cmpstr (seismo_view_get_filter_text (view), ==, "");
}

static void
test_markers (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (1000, 3);
  g_autoptr(SeismoView) view = seismo_view_new ();
  guint markers = 0, selected = 0;
  guint64 a, b;

  count_signal (view, "markers-changed", &markers);
  count_signal (view, "notify::selected-event", &selected);
  seismo_view_set_trace (view, trace);
  g_assert_cmpuint (seismo_view_get_selected_event (view), ==, SEISMO_NO_EVENT);
  seismo_view_set_selected_event (view, 5);
  seismo_view_set_selected_event (view, 5);
  g_assert_cmpuint (selected, ==, 1);

  seismo_view_get_count_span (view, &a, &b);
  g_assert_cmpuint (a, ==, 0);
  g_assert_cmpuint (b, ==, G_MAXUINT64);
  seismo_view_set_marker (view, 1, 900);
  seismo_view_set_marker (view, 0, 300);
  seismo_view_set_marker (view, 0, 300);
  g_assert_cmpuint (markers, ==, 2);
  seismo_view_get_count_span (view, &a, &b);
  g_assert_cmpuint (a, ==, 300);
  g_assert_cmpuint (b, ==, 900);
  seismo_view_set_range (view, 700, 500);
  seismo_view_set_range (view, 500, 700);
  g_assert_cmpuint (markers, ==, 3);
  seismo_view_get_count_span (view, &a, &b);
  g_assert_cmpuint (a, ==, 500);
  g_assert_cmpuint (b, ==, 700);
  seismo_view_clear_range (view);
  seismo_view_clear_marker (view, 0);
  g_assert_false (seismo_view_get_range (view, NULL, NULL));
  g_assert_false (seismo_view_get_marker (view, 0, NULL));
  g_assert_true (seismo_view_get_marker (view, 1, &b));
  g_assert_cmpuint (markers, ==, 5);

  /* A trace without the selected event drops the selection. */
  {
    g_autoptr(SeismoTrace) small = seismo_test_make_trace (3, 1);

    seismo_view_set_trace (view, small);
    g_assert_cmpuint (seismo_view_get_selected_event (view), ==, SEISMO_NO_EVENT);
  }
}

static void
test_rows_notes (void)
{
  g_autoptr(SeismoView) view = seismo_view_new ();
  SeismoViewRow hidden[] = { { SEISMO_VIEW_ROW_CPU, 1 }, { SEISMO_VIEW_ROW_TASK, 4242 } };
  SeismoViewRow pinned[] = { { SEISMO_VIEW_ROW_PROCESS, 7 } };
  SeismoViewNote notes[] = { { 100, (char *) "here" }, { 50, (char *) "there" } };
  const SeismoViewRow *rows;
  const SeismoViewNote *got;
  guint changed = 0, n;

  count_signal (view, "rows-changed", &changed);
  count_signal (view, "notes-changed", &changed);
  g_assert_null (seismo_view_get_hidden_rows (view, &n));
  g_assert_cmpuint (n, ==, 0);
  seismo_view_set_rows (view, hidden, 2, pinned, 1);
  seismo_view_set_rows (view, hidden, 2, pinned, 1);
  g_assert_cmpuint (changed, ==, 1);
  rows = seismo_view_get_hidden_rows (view, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (rows[1].kind, ==, SEISMO_VIEW_ROW_TASK);
  g_assert_cmpint (rows[1].id, ==, 4242);
  rows = seismo_view_get_pinned_rows (view, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (rows[0].id, ==, 7);

  seismo_view_set_notes (view, notes, 2);
  notes[0].text = (char *) "here";   /* equal text, another pointer: still no change */
  seismo_view_set_notes (view, notes, 2);
  g_assert_cmpuint (changed, ==, 2);
  got = seismo_view_get_notes (view, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (got[1].text, ==, "there");
  g_assert_true (got[1].text != notes[1].text);
  /* One note added to the ones there: the texts it points at are the view's own. */
  {
    SeismoViewNote more[3] = { got[0], got[1], { 200, (char *) "new" } };

    seismo_view_set_notes (view, more, 3);
    got = seismo_view_get_notes (view, &n);
    g_assert_cmpuint (n, ==, 3);
    g_assert_cmpstr (got[0].text, ==, "here");
    g_assert_cmpstr (got[1].text, ==, "there");
  }
  seismo_view_set_notes (view, NULL, 0);
  seismo_view_set_rows (view, NULL, 0, NULL, 0);
  g_assert_cmpuint (changed, ==, 5);
}

/* seismo_view_connect(): a follower's handlers are on the view it points at, and only there. */
static void
count_call (guint *calls)
{
  (*calls)++;
}

static void
test_connect (void)
{
  static const SeismoViewHandler handlers[] = {
    { "notify::selected-event", G_CALLBACK (count_call) },
  };
  g_autoptr(SeismoView) a = seismo_view_new ();
  g_autoptr(SeismoView) b = seismo_view_new ();
  SeismoView *slot = NULL;
  guint calls = 0;

  g_assert_true (seismo_view_connect (&slot, a, &calls, handlers, G_N_ELEMENTS (handlers)));
  g_assert_true (slot == a);
  g_assert_false (seismo_view_connect (&slot, a, &calls, handlers, G_N_ELEMENTS (handlers)));
  seismo_view_set_selected_event (a, 3);
  g_assert_cmpuint (calls, ==, 1);

  g_assert_true (seismo_view_connect (&slot, b, &calls, handlers, G_N_ELEMENTS (handlers)));
  seismo_view_set_selected_event (a, 4);
  g_assert_cmpuint (calls, ==, 1);
  seismo_view_set_selected_event (b, 4);
  g_assert_cmpuint (calls, ==, 2);

  g_assert_true (seismo_view_connect (&slot, NULL, &calls, handlers, G_N_ELEMENTS (handlers)));
  g_assert_null (slot);
  seismo_view_set_selected_event (b, 5);
  g_assert_cmpuint (calls, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/view/filter", test_filter);
  g_test_add_func ("/view/mask", test_mask);
  g_test_add_func ("/view/find-first", test_find_first);
  g_test_add_func ("/view/rows-notes", test_rows_notes);
  g_test_add_func ("/view/markers", test_markers);
  g_test_add_func ("/view/connect", test_connect);
  return g_test_run ();
}

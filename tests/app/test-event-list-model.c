/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The event list's model: one row per event, made only when asked, with formatted columns. */

#include "seismo-event-list-model.h"
#include "seismo-gui-test-util.h"

static char *
item_string (SeismoEventItem *item,
             const char      *property)
{
  char *value = NULL;

  g_object_get (item, property, &value, NULL);
  return value;
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *calls)
{
  (*calls)++;
}

static void
test_all_events (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_small_trace ();
  g_autoptr(SeismoEventListModel) model = seismo_event_list_model_new (trace);
  gsize n = seismo_trace_get_n_events (trace);

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == SEISMO_TYPE_EVENT_ITEM);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), (guint) n));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SeismoEventItem) item = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autofree char *index = item_string (item, "index");
      g_autofree char *name = item_string (item, "name");
      g_autofree char *info = item_string (item, "info");
      g_autofree char *expected_info = seismo_trace_event_format (trace, i);
      g_autofree char *expected_index = g_strdup_printf ("%u", i);

      g_assert_cmpuint (seismo_event_item_get_event (item), ==, i);
      g_assert_true (seismo_event_item_get_trace (item) == trace);
      g_assert_cmpstr (index, ==, expected_index);
      g_assert_cmpstr (name, ==, seismo_trace_event_type (trace, i)->name);
      g_assert_cmpstr (info, ==, expected_info);
    }

  /* The first event: alpha switched in at 1000, the start of the trace. */
  {
    g_autoptr(SeismoEventItem) first = g_list_model_get_item (G_LIST_MODEL (model), 0);
    g_autoptr(SeismoEventItem) second = g_list_model_get_item (G_LIST_MODEL (model), 1);
    g_autofree char *time0 = item_string (first, "time");
    g_autofree char *time1 = item_string (second, "time");
    g_autofree char *cpu = item_string (second, "cpu");
    g_autofree char *task = item_string (second, "task");
    g_autofree char *pid = item_string (second, "pid");
    g_autofree char *info = item_string (first, "info");

    g_assert_cmpstr (time0, ==, "0.000000000");
    g_assert_cmpstr (time1, ==, "0.000000500");    /* read() at 1500 */
    g_assert_cmpstr (cpu, ==, "0");
    g_assert_cmpstr (task, ==, "alpha");
    g_assert_cmpstr (pid, ==, "100");
    g_assert_nonnull (strstr (info, "alpha"));
  }
}

static void
test_subset (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_small_trace ();
  g_autoptr(SeismoEventListModel) model = seismo_event_list_model_new (trace);
  const SeismoEventId subset[] = { 1, 3, 5 };
  guint calls = 0;

  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), &calls);
  seismo_event_list_model_set_subset (model, subset, G_N_ELEMENTS (subset));
  g_assert_cmpuint (calls, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);
  g_assert_cmpuint (seismo_event_list_model_get_event (model, 1), ==, 3);
  g_assert_cmpuint (seismo_event_list_model_get_event (model, 3), ==, SEISMO_NO_EVENT);
  /* An event not in the subset finds the next one shown. */
  g_assert_cmpuint (seismo_event_list_model_find_event (model, 3), ==, 1);
  g_assert_cmpuint (seismo_event_list_model_find_event (model, 4), ==, 2);
  g_assert_cmpuint (seismo_event_list_model_find_event (model, 6), ==, G_MAXUINT);
  {
    g_autoptr(SeismoEventItem) item = g_list_model_get_item (G_LIST_MODEL (model), 2);

    g_assert_cmpuint (seismo_event_item_get_event (item), ==, 5);
  }
  seismo_event_list_model_set_subset (model, NULL, 0);
  g_assert_cmpuint (calls, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, seismo_trace_get_n_events (trace));
  g_assert_cmpuint (seismo_event_list_model_find_event (model, 4), ==, 4);
}

static void
test_large (void)
{
  g_autoptr(SeismoTrace) trace = seismo_gui_test_busy_trace (600000);
  g_autoptr(SeismoEventListModel) model = seismo_event_list_model_new (trace);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));

  /* Rows anywhere in a large trace come as fast as at the top: nothing is made ahead. */
  g_assert_cmpuint (n, ==, seismo_trace_get_n_events (trace));
  for (guint k = 0; k < 1000; k++)
    {
      guint pos = (guint) ((guint64) k * 7919 % n);
      g_autoptr(SeismoEventItem) item = g_list_model_get_item (G_LIST_MODEL (model), pos);
      g_autofree char *info = item_string (item, "info");

      g_assert_cmpuint (seismo_event_item_get_event (item), ==, pos);
      g_assert_nonnull (info);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-list-model/all", test_all_events);
  g_test_add_func ("/event-list-model/subset", test_subset);
  g_test_add_func ("/event-list-model/large", test_large);
  return g_test_run ();
}

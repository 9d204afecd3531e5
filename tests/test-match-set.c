/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * SeismoMatchSet against a plain array of its members: the k-th member (select), the position
 * of every event (rank), contains and walks from every position, for sets over sizes that are
 * and are not multiples of 64 and 512 (the directory's block), ending inside a word, empty, full,
 * with a member on each side of every block edge; built from ids, from a mask with stray bits past
 * its end, and slice by slice as seismo_filter_run_all() shows its first matches.
 */

#include "seismo-filter-run.h"
#include "seismo-match-set-private.h"
#include "seismo-trace-builder.h"

/* Every check of set against ids[0..n) over events [0, n_events). */
static void
check_set (const SeismoMatchSet *set,
           const SeismoEventId  *ids,
           gsize                 n,
           gsize                 n_events)
{
  gsize k = 0;

  g_assert_cmpuint (seismo_match_set_get_n_events (set), ==, n_events);
  g_assert_cmpuint (seismo_match_set_get_size (set), ==, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (seismo_match_set_get_nth (set, i), ==, ids[i]);
  g_assert_cmpuint (seismo_match_set_get_nth (set, n), ==, SEISMO_NO_EVENT);
  g_assert_cmpuint (seismo_match_set_get_nth (set, n + 1000), ==, SEISMO_NO_EVENT);
  /* rank(e) = members below e; contains(e) = e is the member at rank(e). */
  for (gsize e = 0; e <= n_events + 70; e++)
    {
      while (k < n && ids[k] < e)
        k++;
      g_assert_cmpuint (seismo_match_set_rank (set, (SeismoEventId) e), ==, k);
      g_assert_cmpint (seismo_match_set_contains (set, (SeismoEventId) e), ==,
                       k < n && ids[k] == e);
    }
  g_assert_cmpuint (seismo_match_set_rank (set, SEISMO_NO_EVENT), ==, n);
  g_assert_false (seismo_match_set_contains (set, SEISMO_NO_EVENT));

  /* Walks from every position (a sparse sample when there are many), to the end. */
  for (gsize from = 0; from <= n + 1; from += (n > 3000 ? 97 : 1))
    {
      SeismoMatchSetIter iter;
      SeismoEventId id = SEISMO_NO_EVENT;
      gsize i = from;
      /* From the start and near the end: to the end; elsewhere 600 members (a screenful). */
      gboolean to_end = from == 0 || from + 600 >= n;

      seismo_match_set_iter_init (&iter, set, from);
      g_assert_cmpuint (iter.position, ==, MIN (from, n));
      while ((to_end || i < from + 600) && seismo_match_set_iter_next (&iter, &id))
        {
          g_assert_cmpuint (i, <, n);
          g_assert_cmpuint (id, ==, ids[i]);
          i++;
          g_assert_cmpuint (iter.position, ==, i);
        }
      if (to_end)
        {
          g_assert_cmpuint (i, ==, MAX (from, n));
          g_assert_false (seismo_match_set_iter_next (&iter, &id));
        }
    }
  /* Skips forward, near (inside the word under way) and far (other blocks), chained as a timeline
   * row's marks skip: each lands on the member at its position. */
  {
    static const gsize steps[] = { 0, 1, 2, 5, 63, 64, 65, 200, 511, 600, 5000, 70000 };
    SeismoMatchSetIter iter;
    SeismoEventId id = SEISMO_NO_EVENT;
    gsize at = 0;

    seismo_match_set_iter_init (&iter, set, 0);
    for (guint s = 0; at < n; s++)
      {
        gsize to = at + steps[s % G_N_ELEMENTS (steps)];

        seismo_match_set_iter_skip_to (&iter, to);
        g_assert_cmpuint (iter.position, ==, MIN (to, n));
        if (to >= n)
          {
            g_assert_false (seismo_match_set_iter_next (&iter, &id));
            break;
          }
        g_assert_true (seismo_match_set_iter_next (&iter, &id));
        g_assert_cmpuint (id, ==, ids[to]);
        at = to + 1;
      }
    for (gsize from = 0; from < n; from += (n > 3000 ? 331 : 1))
      for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
        {
          gsize to = from + steps[s];

          seismo_match_set_iter_init (&iter, set, from);
          seismo_match_set_iter_skip_to (&iter, to);
          g_assert_cmpuint (iter.position, ==, MIN (to, n));
          g_assert_cmpint (seismo_match_set_iter_next (&iter, &id), ==, to < n);
          if (to < n)
            g_assert_cmpuint (id, ==, ids[to]);
        }
  }

  /* Walks from every event: the first member at or after it. */
  k = 0;
  for (gsize e = 0; e <= n_events + 1; e += (n_events > 3000 ? 13 : 1))
    {
      SeismoMatchSetIter iter;
      SeismoEventId id = SEISMO_NO_EVENT;

      while (k < n && ids[k] < e)
        k++;
      seismo_match_set_iter_init_at_event (&iter, set, (SeismoEventId) e);
      g_assert_cmpuint (iter.position, ==, k);
      if (k < n)
        {
          g_assert_true (seismo_match_set_iter_next (&iter, &id));
          g_assert_cmpuint (id, ==, ids[k]);
          if (k + 1 < n)
            {
              g_assert_true (seismo_match_set_iter_next (&iter, &id));
              g_assert_cmpuint (id, ==, ids[k + 1]);
            }
        }
      else
        g_assert_false (seismo_match_set_iter_next (&iter, &id));
    }
  {
    g_autoptr(GBytes) back = seismo_match_set_to_ids (set);

    g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back),
                     ids, n * sizeof (SeismoEventId));
  }
}

typedef enum {
  PICK_NONE,
  PICK_ALL,
  PICK_FIRST,
  PICK_LAST,
  PICK_EDGES,     /* both sides of every word and block edge */
  PICK_RANDOM,
  PICK_DENSE,
  PICK_ONE_BLOCK, /* members in one block only: the directory is flat before and after */
  N_PICKS
} Pick;

static GArray *
pick_ids (Pick   pick,
          gsize  n_events,
          GRand *rand)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));

  for (SeismoEventId e = 0; e < n_events; e++)
    {
      gboolean take = FALSE;

      switch (pick)
        {
        case PICK_NONE: break;
        case PICK_ALL: take = TRUE; break;
        case PICK_FIRST: take = e == 0; break;
        case PICK_LAST: take = e + 1 == n_events; break;
        case PICK_EDGES: take = e % 64 == 0 || e % 64 == 63 || e % 512 == 511; break;
        case PICK_RANDOM: take = g_rand_int_range (rand, 0, 100) < 7; break;
        case PICK_DENSE: take = g_rand_int_range (rand, 0, 100) < 93; break;
        case PICK_ONE_BLOCK: take = e >= 1024 && e < 1536 && e % 3 == 0; break;
        default: g_assert_not_reached ();
        }
      if (take)
        g_array_append_val (ids, e);
    }
  return ids;
}

static const gsize sizes[] = { 0, 1, 2, 63, 64, 65, 127, 511, 512, 513, 1000, 1023, 1024, 1537,
                               4095, 4096, 4097, 20000 };

static void
test_from_ids (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (Pick p = 0; p < N_PICKS; p++)
      {
        g_autoptr(GArray) ids = pick_ids (p, sizes[s], rand);
        g_autoptr(SeismoMatchSet) set = NULL;

        g_test_message ("n_events %zu, pick %d: %u members", sizes[s], p, ids->len);
        set = seismo_match_set_new_from_ids ((const SeismoEventId *) ids->data, ids->len, sizes[s]);
        check_set (set, (const SeismoEventId *) ids->data, ids->len, sizes[s]);
      }
}

/* A mask may hold bits past its last event (a histogram bucket's): they are not members. */
static void
test_from_mask_stray_bits (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (8);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      gsize n_events = sizes[s], n_words = seismo_filter_mask_words (n_events);
      g_autoptr(GArray) ids = pick_ids (PICK_RANDOM, n_events, rand);
      guint64 *words = g_new0 (guint64, n_words + 1);
      g_autoptr(GBytes) mask = NULL;
      g_autoptr(SeismoMatchSet) set = NULL;
      g_autoptr(SeismoMatchSet) same = NULL;

      for (guint i = 0; i < ids->len; i++)
        words[g_array_index (ids, SeismoEventId, i) / 64] |=
          G_GUINT64_CONSTANT (1) << (g_array_index (ids, SeismoEventId, i) % 64);
      if (n_events % 64 != 0)
        words[n_words - 1] |= ~((G_GUINT64_CONSTANT (1) << (n_events % 64)) - 1);
      mask = g_bytes_new_take (words, n_words * sizeof (guint64));
      set = seismo_match_set_new_from_mask (mask, n_events);
      g_assert_true (seismo_match_set_get_mask (set) == mask);
      check_set (set, (const SeismoEventId *) ids->data, ids->len, n_events);
      same = seismo_match_set_new_from_ids ((const SeismoEventId *) ids->data, ids->len, n_events);
      g_assert_true (seismo_match_set_equal (set, same));
    }
}

static void
test_equal (void)
{
  static const SeismoEventId a[] = { 1, 5, 700 }, b[] = { 1, 5, 701 };
  g_autoptr(SeismoMatchSet) sa = seismo_match_set_new_from_ids (a, G_N_ELEMENTS (a), 800);
  g_autoptr(SeismoMatchSet) sa2 = seismo_match_set_new_from_ids (a, G_N_ELEMENTS (a), 800);
  g_autoptr(SeismoMatchSet) sb = seismo_match_set_new_from_ids (b, G_N_ELEMENTS (b), 800);
  g_autoptr(SeismoMatchSet) wider = seismo_match_set_new_from_ids (a, G_N_ELEMENTS (a), 801);
  g_autoptr(SeismoMatchSet) narrow = seismo_match_set_new_from_ids (a, G_N_ELEMENTS (a), 701);
  g_autoptr(SeismoMatchSet) narrower = seismo_match_set_new_from_ids (a, 2, 700);
  g_autoptr(SeismoMatchSet) fewer = seismo_match_set_new_from_ids (a, 2, 800);

  g_assert_true (seismo_match_set_equal (sa, sa2));
  g_assert_true (seismo_match_set_equal (NULL, NULL));
  g_assert_false (seismo_match_set_equal (sa, NULL));
  g_assert_false (seismo_match_set_equal (sa, sb));
  /* The same members over more or fewer events. */
  g_assert_true (seismo_match_set_equal (sa, wider));
  g_assert_true (seismo_match_set_equal (narrow, sa));
  g_assert_false (seismo_match_set_equal (sa, fewer));
  g_assert_false (seismo_match_set_equal (narrower, sa));
  g_assert_false (seismo_match_set_equal (sa, narrower));
  g_assert_true (seismo_match_set_equal (narrower, fewer));
  {
    static const SeismoEventId c[] = { 1, 5 }, d[] = { 1, 10 };
    g_autoptr(SeismoMatchSet) sc = seismo_match_set_new_from_ids (c, 2, 6);
    g_autoptr(SeismoMatchSet) sc_wide = seismo_match_set_new_from_ids (c, 2, 800);
    g_autoptr(SeismoMatchSet) sd_wide = seismo_match_set_new_from_ids (d, 2, 800);

    /* Inside the smaller set's last word: its members, not the larger's bits past its end. */
    g_assert_true (seismo_match_set_equal (sc, sc_wide));
    g_assert_false (seismo_match_set_equal (sc, sd_wide));
    g_assert_false (seismo_match_set_equal (sd_wide, sc));
  }
}

/* A trace of n events with cpu = (i * 7) % 5 and, every 3rd event, cpu 0 again. */
static SeismoTrace *
make_trace (guint n)
{
  SeismoTraceBuilder *b = seismo_trace_builder_new ();
  guint type;

  seismo_trace_builder_set_n_cpus (b, 5);
  type = seismo_trace_builder_add_event_type (b, "test", "tick", NULL, 0, "");
  seismo_trace_builder_task (b, 100);
  for (guint i = 0; i < n; i++)
    {
      seismo_trace_builder_begin_event (b, 1000 + i, i % 3 == 0 ? 0 : (i * 7) % 5, 100, type);
      seismo_trace_builder_end_event (b);
    }
  return seismo_trace_builder_finish (b);
}

typedef struct {
  SeismoTrace *trace;
  guint        n_calls;
  gsize        last_done;
} Progress;

/* Each partial set holds exactly the matches among the events done, over those events. */
static void
on_progress (gsize           done,
             gsize           total,
             SeismoMatchSet *matches,
             gpointer        user_data)
{
  Progress *p = user_data;
  const guint16 *cpus = seismo_trace_get_cpus (p->trace);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));

  g_assert_cmpuint (done, >, p->last_done);
  g_assert_cmpuint (total, ==, seismo_trace_get_n_events (p->trace));
  p->last_done = done;
  p->n_calls++;
  for (SeismoEventId e = 0; e < done; e++)
    if (cpus[e] == 0)
      g_array_append_val (ids, e);
  g_assert_cmpuint (seismo_match_set_get_n_events (matches), ==, done);
  g_assert_cmpuint (seismo_match_set_get_size (matches), ==, ids->len);
  /* Samples: the full check of millions of events per slice would be slow. */
  for (gsize i = 0; i < ids->len; i += 997)
    {
      SeismoEventId id = g_array_index (ids, SeismoEventId, i);

      g_assert_cmpuint (seismo_match_set_get_nth (matches, i), ==, id);
      g_assert_cmpuint (seismo_match_set_rank (matches, id), ==, i);
    }
  if (ids->len > 0)
    g_assert_cmpuint (seismo_match_set_get_nth (matches, ids->len - 1), ==,
                      g_array_index (ids, SeismoEventId, ids->len - 1));
}

/* The set seismo_filter_run_all() builds slice by slice, and those it shows on the way. */
static void
test_run_all (void)
{
  /* Three slices of 2^20 events, the last ending inside a block and a word. */
  guint n = (2u << 20) + 1000 + 37;
  g_autoptr(SeismoTrace) trace = make_trace (n);
  g_autoptr(SeismoFilter) filter = seismo_filter_compile (trace, "cpu == 0", NULL);
  g_autoptr(GBytes) mask = NULL;
  g_autoptr(SeismoMatchSet) set = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (SeismoEventId));
  const guint16 *cpus = seismo_trace_get_cpus (trace);
  Progress p = { trace, 0, 0 };
  gsize n_matched = 0;

  g_assert_nonnull (filter);
  g_assert_true (seismo_filter_run_all (filter, on_progress, &p, NULL, &mask, &set, &n_matched));
  g_assert_cmpuint (p.n_calls, ==, 3);
  g_assert_cmpuint (p.last_done, ==, n);
  for (SeismoEventId e = 0; e < n; e++)
    if (cpus[e] == 0)
      g_array_append_val (ids, e);
  g_assert_cmpuint (n_matched, ==, ids->len);
  g_assert_true (seismo_match_set_get_mask (set) == mask);
  g_assert_cmpuint (g_bytes_get_size (mask), ==, seismo_filter_mask_words (n) * sizeof (guint64));
  check_set (set, (const SeismoEventId *) ids->data, ids->len, n);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/match-set/from-ids", test_from_ids);
  g_test_add_func ("/match-set/from-mask-stray-bits", test_from_mask_stray_bits);
  g_test_add_func ("/match-set/equal", test_equal);
  g_test_add_func ("/match-set/run-all", test_run_all);
  return g_test_run ();
}

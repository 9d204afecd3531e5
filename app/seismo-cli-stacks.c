/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

/*
 * seismo-cli stacks: which code paths made the (filtered) events. A table of the top stacks and
 * the top frames, JSON, or --folded lines for flamegraph.pl and speedscope.
 */

#include <stdio.h>
#include <string.h>

#include "seismo-cli.h"
#include "seismo-cli-common.h"
#include "seismo-stack-tree.h"

typedef struct {
  char     *filter;
  char     *weight;
  char     *arch;
  gint      limit;
  gboolean  folded;
  gboolean  json;
} Options;

typedef struct {
  SeismoStackId stack;
  guint64       weight;
  guint64       n_events;
} StackRow;

typedef struct {
  const char *name;           /* display name (owned by the row) */
  SeismoFrameId frame;
  guint64     total;          /* weight of events whose stack holds the name */
  guint64     self;           /* ... as its innermost frame */
} FrameRow;

static int
compare_stack_rows (gconstpointer a,
                    gconstpointer b)
{
  const StackRow *x = a, *y = b;

  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;
  if (x->n_events != y->n_events)
    return x->n_events > y->n_events ? -1 : 1;
  return x->stack < y->stack ? -1 : x->stack > y->stack;
}

static int
compare_frame_rows (gconstpointer a,
                    gconstpointer b)
{
  const FrameRow *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  if (x->self != y->self)
    return x->self > y->self ? -1 : 1;
  return strcmp (x->name, y->name);
}

static double
percent (guint64 part,
         guint64 whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

/* "42" for counts, "1.234 ms" for time. */
static char *
format_weight (SeismoStackWeight weight,
               guint64           w)
{
  if (weight == SEISMO_STACK_WEIGHT_COUNT)
    return g_strdup_printf ("%" PRIu64, w);
  return g_strdup_printf ("%.3f ms", (double) w / 1e6);
}

/* Per stack id: weight and events, from the tree's leaves (the tree merged the same events). */
static GArray *
stack_rows (SeismoTrace         *trace,
            const SeismoEventId *events,
            gsize                n_events,
            SeismoStackWeight    weight)
{
  g_autoptr(SeismoStackWeights) weights = seismo_stack_weights_new (trace, weight);
  guint n_stacks = seismo_trace_get_n_stacks (trace);
  g_autofree StackRow *by_id = g_new0 (StackRow, MAX (n_stacks, 1));
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (StackRow));

  for (gsize k = 0; k < n_events; k++)
    {
      SeismoStackId s = seismo_trace_event_stack (trace, events[k]);
      guint64 w;

      if (s == SEISMO_NO_STACK || s >= n_stacks || (w = seismo_stack_weights_get (weights, events[k])) == 0)
        continue;
      by_id[s].stack = s;
      by_id[s].weight += w;
      by_id[s].n_events++;
    }
  for (guint s = 1; s < n_stacks; s++)
    if (by_id[s].n_events > 0)
      g_array_append_val (rows, by_id[s]);
  g_array_sort (rows, compare_stack_rows);
  return rows;
}

/* Frames by name: total counts a stack once even when a name recurs in it. */
static GArray *
frame_rows (SeismoTrace *trace,
            GArray      *stacks)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (FrameRow));

  for (guint r = 0; r < stacks->len; r++)
    {
      const StackRow *row = &g_array_index (stacks, StackRow, r);
      const SeismoFrameId *frames;
      guint n = seismo_trace_stack_frames (trace, row->stack, &frames);

      g_hash_table_remove_all (seen);
      for (guint f = 0; f < n; f++)
        {
          g_autofree char *name = seismo_frame_display_name (seismo_trace_get_frame (trace, frames[f]));
          gpointer idx;
          FrameRow *fr;
          char *key;

          if (!g_hash_table_lookup_extended (by_name, name, (gpointer *) &key, &idx))
            {
              FrameRow nr = { NULL, frames[f], 0, 0 };

              key = g_strdup (name);
              idx = GUINT_TO_POINTER (rows->len);
              nr.name = key;
              g_array_append_val (rows, nr);
              g_hash_table_insert (by_name, key, idx);
            }
          fr = &g_array_index (rows, FrameRow, GPOINTER_TO_UINT (idx));
          if (f == 0)
            fr->self += row->weight;
          if (!g_hash_table_contains (seen, key))
            {
              g_hash_table_add (seen, key);
              fr->total += row->weight;
            }
        }
    }
  /* The names live in by_name: the rows get their own before it goes. */
  for (guint i = 0; i < rows->len; i++)
    g_array_index (rows, FrameRow, i).name = g_strdup (g_array_index (rows, FrameRow, i).name);
  g_array_sort (rows, compare_frame_rows);
  return rows;
}

static void
free_frame_rows (GArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    g_free ((char *) g_array_index (rows, FrameRow, i).name);
  g_array_unref (rows);
}

static void
print_table (SeismoTrace       *trace,
             SeismoStackWeight  weight,
             gsize              n_selected,
             GArray            *stacks,
             GArray            *frames,
             guint              limit)
{
  guint64 total = 0, n_with = 0;

  for (guint r = 0; r < stacks->len; r++)
    {
      total += g_array_index (stacks, StackRow, r).weight;
      n_with += g_array_index (stacks, StackRow, r).n_events;
    }
  g_print (_("%" PRIu64 " of %" PRIu64 " events have a stack; %u distinct stacks; weight: %s\n"),
           n_with, (guint64) n_selected, stacks->len,
           weight == SEISMO_STACK_WEIGHT_COUNT ? _("event count") : _("time (syscall duration, off-CPU time)"));
  if (stacks->len == 0)
    return;
  {
    g_autofree char *t = format_weight (weight, total);

    g_print (_("Total weight: %s\n"), t);
  }

  g_print (_("\nTop stacks (innermost frame first):\n"));
  for (guint r = 0; r < MIN (stacks->len, limit); r++)
    {
      const StackRow *row = &g_array_index (stacks, StackRow, r);
      const SeismoFrameId *ids;
      guint n = seismo_trace_stack_frames (trace, row->stack, &ids);
      g_autofree char *w = format_weight (weight, row->weight);

      g_print (g_dngettext (GETTEXT_PACKAGE, "#%u  %s  %5.1f%%  (%" PRIu64 " event)\n",
                            "#%u  %s  %5.1f%%  (%" PRIu64 " events)\n", row->n_events),
               r + 1, w, percent (row->weight, total), row->n_events);
      for (guint f = 0; f < n; f++)
        {
          g_autofree char *text = seismo_frame_to_string (seismo_trace_get_frame (trace, ids[f]));

          g_print ("      %s\n", text);
        }
    }
  if (stacks->len > limit)
    g_print (_("(%u more stacks; --limit N shows more)\n"), stacks->len - limit);

  g_print (_("\nTop frames:\n"));
  g_print ("  %14s %7s %14s %7s  %s\n", _("TOTAL"), "%", _("SELF"), "%", _("FRAME"));
  for (guint r = 0; r < MIN (frames->len, limit); r++)
    {
      const FrameRow *row = &g_array_index (frames, FrameRow, r);
      g_autofree char *t = format_weight (weight, row->total);
      g_autofree char *s = format_weight (weight, row->self);

      g_print ("  %14s %6.1f%% %14s %6.1f%%  %s\n", t, percent (row->total, total), s,
               percent (row->self, total), row->name);
    }
  if (frames->len > limit)
    g_print (_("(%u more frames; --limit N shows more)\n"), frames->len - limit);
}

static void
json_frame (JsonBuilder       *b,
            const SeismoFrame *f)
{
  json_builder_begin_object (b);
  seismo_cli_json_string (b, "function", f->function);
  seismo_cli_json_string (b, "module", f->module);
  seismo_cli_json_string (b, "file", f->file);
  seismo_cli_json_int (b, "line", f->line);
  seismo_cli_json_int (b, "offset", f->offset);
  seismo_cli_json_int (b, "address", (gint64) f->address);
  seismo_cli_json_string (b, "space", f->space == SEISMO_FRAME_USER ? "user" : "kernel");
  json_builder_set_member_name (b, "inlined");
  json_builder_add_boolean_value (b, f->inlined);
  json_builder_end_object (b);
}

static void
print_json (SeismoTrace       *trace,
            SeismoStackWeight  weight,
            const char        *filter,
            gsize              n_selected,
            GArray            *stacks,
            GArray            *frames,
            guint              limit)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint64 total = 0, n_with = 0;

  for (guint r = 0; r < stacks->len; r++)
    {
      total += g_array_index (stacks, StackRow, r).weight;
      n_with += g_array_index (stacks, StackRow, r).n_events;
    }
  json_builder_begin_object (b);
  seismo_cli_json_string (b, "weight", weight == SEISMO_STACK_WEIGHT_COUNT ? "count" : "time");
  if (filter)
    seismo_cli_json_string (b, "filter", filter);
  seismo_cli_json_int (b, "events", n_selected);
  seismo_cli_json_int (b, "events_with_stack", n_with);
  seismo_cli_json_int (b, "distinct_stacks", stacks->len);
  seismo_cli_json_int (b, "total", total);
  json_builder_set_member_name (b, "stacks");
  json_builder_begin_array (b);
  for (guint r = 0; r < MIN (stacks->len, limit); r++)
    {
      const StackRow *row = &g_array_index (stacks, StackRow, r);
      const SeismoFrameId *ids;
      guint n = seismo_trace_stack_frames (trace, row->stack, &ids);

      json_builder_begin_object (b);
      seismo_cli_json_int (b, "weight", row->weight);
      seismo_cli_json_int (b, "events", row->n_events);
      json_builder_set_member_name (b, "frames");
      json_builder_begin_array (b);
      for (guint f = 0; f < n; f++)
        json_frame (b, seismo_trace_get_frame (trace, ids[f]));
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint r = 0; r < MIN (frames->len, limit); r++)
    {
      const FrameRow *row = &g_array_index (frames, FrameRow, r);

      json_builder_begin_object (b);
      seismo_cli_json_string (b, "name", row->name);
      seismo_cli_json_int (b, "total", row->total);
      seismo_cli_json_int (b, "self", row->self);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  seismo_cli_print_json (b);
}

int
seismo_cli_stacks (int    argc,
                   char **argv)
{
  const char *who = "seismo-cli stacks";
  Options o = { .limit = 10 };
  GOptionEntry entries[] = {
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &o.filter, "Only events that match EXPR", "EXPR" },
    { "weight", 'w', 0, G_OPTION_ARG_STRING, &o.weight, "Weigh stacks by event count or by time (syscall duration, off-CPU time of sched_switch)", "count|time" },
    { "folded", 0, 0, G_OPTION_ARG_NONE, &o.folded, "Print folded stacks (flamegraph.pl, speedscope): outermost frame first, one line per path", NULL },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &o.limit, "Stacks and frames to list (default 10)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Print JSON", NULL },
    SEISMO_CLI_ARCH_ENTRY (o.arch),
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE - which code paths made the events");
  g_autoptr(SeismoTrace) trace = NULL;
  g_autoptr(GArray) selected = NULL;
  g_autofree guint64 *mask = NULL;
  SeismoStackWeight weight = SEISMO_STACK_WEIGHT_COUNT;
  gsize n_matched, n_events;
  int status = SEISMO_EXIT_USAGE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!seismo_cli_parse_options (context, &argc, &argv, who))
    goto out;
  if (argc != 2)
    {
      g_printerr (_("%s: expected one FILE\n"), who);
      goto out;
    }
  if (o.weight == NULL || g_str_equal (o.weight, "count"))
    weight = SEISMO_STACK_WEIGHT_COUNT;
  else if (g_str_equal (o.weight, "time"))
    weight = SEISMO_STACK_WEIGHT_TIME;
  else
    {
      g_printerr (_("%s: --weight takes count or time, not “%s”\n"), who, o.weight);
      goto out;
    }
  if (o.limit <= 0)
    {
      g_printerr (_("%s: --limit takes a positive number\n"), who);
      goto out;
    }
  if (o.folded && o.json)
    {
      g_printerr (_("%s: --folded and --json exclude each other\n"), who);
      goto out;
    }
  status = SEISMO_EXIT_FAILED;
  if (!(trace = seismo_cli_open_trace (argv[1], o.arch)))
    goto out;
  status = SEISMO_EXIT_USAGE;
  if (!seismo_cli_run_filter (trace, o.filter, &mask, &n_matched))
    goto out;
  status = SEISMO_EXIT_FAILED;

  n_events = seismo_trace_get_n_events (trace);
  selected = g_array_sized_new (FALSE, FALSE, sizeof (SeismoEventId), mask ? n_matched : n_events);
  for (gsize i = 0; i < n_events; i++)
    if (seismo_cli_mask_has (mask, i))
      {
        SeismoEventId e = (SeismoEventId) i;

        g_array_append_val (selected, e);
      }

  if (o.folded)
    {
      g_autoptr(SeismoStackTree) tree = seismo_stack_tree_new (trace, (const SeismoEventId *) (gpointer) selected->data,
                                                                selected->len, weight);
      g_autoptr(GString) out = g_string_new (NULL);

      if (!seismo_trace_has_stacks (trace))
        g_printerr (_("%s: %s has no stacks (record with --stacks, or strace -k, or ftrace's stacktrace option)\n"),
                    who, argv[1]);
      seismo_stack_tree_write_folded (tree, out);
      g_print ("%s", out->str);
    }
  else
    {
      g_autoptr(GArray) stacks = stack_rows (trace, (const SeismoEventId *) (gpointer) selected->data,
                                             selected->len, weight);
      GArray *frames = frame_rows (trace, stacks);

      if (o.json)
        print_json (trace, weight, o.filter, selected->len, stacks, frames, (guint) o.limit);
      else
        {
          if (!seismo_trace_has_stacks (trace))
            g_print (_("%s has no stacks (record with --stacks, or strace -k, or ftrace's stacktrace option).\n"),
                     argv[1]);
          else
            print_table (trace, weight, selected->len, stacks, frames, (guint) o.limit);
        }
      free_frame_rows (frames);
    }
  status = SEISMO_EXIT_OK;

out:
  g_free (o.filter);
  g_free (o.weight);
  g_free (o.arch);
  return status;
}

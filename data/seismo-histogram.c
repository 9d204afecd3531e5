/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-histogram"

#include <stdlib.h>
#include <string.h>

#include "seismo-file-private.h"
#include "seismo-histogram.h"
#include "seismo-percentile-private.h"
#include "seismo-timing.h"
#include "seismo-work-priority.h"

/* bpftrace draws bars 52 characters wide; keeping it makes outputs easy to compare side by side. */
#define BAR_WIDTH 52
#define LOG2_BUCKETS 65

struct _SeismoLatencyHistogram {
  SeismoHistogramScale scale;
  guint64              min;      /* LINEAR */
  guint64              step;     /* LINEAR */
  guint64              top;      /* LINEAR: lower edge of the overflow bucket */
  guint                n_buckets;
  guint64             *counts;
  GArray              *values;   /* guint64, every value added; NULL when made from a trace's
                                  * spans without keeping them (its summary made with it) */
  guint64              value_min;   /* of values; G_MAXUINT64 when none */
  guint64              value_max;
  guint64              value_sum;   /* saturates */
  gsize               *fine;     /* seismo_percentile_bin() counts of values, when a bulk add
                                  * counted them; NULL: counted when the summary is asked for */
  gboolean             summarized;   /* summary holds the figures of values */
  SeismoLatencySummary summary;
};

SeismoLatencyHistogram *
seismo_latency_histogram_new_log2 (void)
{
  SeismoLatencyHistogram *self = g_new0 (SeismoLatencyHistogram, 1);

  self->scale = SEISMO_HISTOGRAM_LOG2;
  self->n_buckets = LOG2_BUCKETS;
  self->counts = g_new0 (guint64, self->n_buckets);
  self->values = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->value_min = G_MAXUINT64;
  return self;
}

SeismoLatencyHistogram *
seismo_latency_histogram_new_linear (guint64 min,
                                     guint64 max,
                                     guint64 step)
{
  SeismoLatencyHistogram *self;
  guint64 n;

  g_return_val_if_fail (step > 0, NULL);
  g_return_val_if_fail (max > min, NULL);

  n = (max - min) / step + ((max - min) % step != 0);
  g_return_val_if_fail (n < G_MAXUINT - 2, NULL);
  g_return_val_if_fail (n <= (G_MAXUINT64 - min) / step, NULL);

  self = g_new0 (SeismoLatencyHistogram, 1);
  self->scale = SEISMO_HISTOGRAM_LINEAR;
  self->min = min;
  self->step = step;
  self->top = min + n * step;
  self->n_buckets = (guint) n + 2;
  self->counts = g_new0 (guint64, self->n_buckets);
  self->values = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->value_min = G_MAXUINT64;
  return self;
}

void
seismo_latency_histogram_free (SeismoLatencyHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->counts);
  g_free (self->fine);
  if (self->values != NULL)
    g_array_unref (self->values);
  g_free (self);
}

SeismoHistogramScale
seismo_latency_histogram_get_scale (SeismoLatencyHistogram *self)
{
  g_return_val_if_fail (self != NULL, SEISMO_HISTOGRAM_LOG2);
  return self->scale;
}

guint
seismo_latency_histogram_bucket_of (SeismoLatencyHistogram *self,
                                    guint64                 value)
{
  g_return_val_if_fail (self != NULL, 0);

  if (self->scale == SEISMO_HISTOGRAM_LOG2)
    return value == 0 ? 0 : 64 - __builtin_clzll (value);
  if (value < self->min)
    return 0;
  if (value >= self->top)
    return self->n_buckets - 1;
  return 1 + (guint) ((value - self->min) / self->step);
}

static inline guint64
add_saturating (guint64 sum,
                guint64 v)
{
  return v > G_MAXUINT64 - sum ? G_MAXUINT64 : sum + v;
}

static inline void
note_value (SeismoLatencyHistogram *self,
            guint64                 value)
{
  self->value_min = MIN (self->value_min, value);
  self->value_max = MAX (self->value_max, value);
  self->value_sum = add_saturating (self->value_sum, value);
  if (self->fine != NULL)
    self->fine[seismo_percentile_bin (value)]++;
}

void
seismo_latency_histogram_add (SeismoLatencyHistogram *self,
                              guint64                 value)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->values != NULL);

  self->counts[seismo_latency_histogram_bucket_of (self, value)]++;
  g_array_append_val (self->values, value);
  note_value (self, value);
  self->summarized = FALSE;
}

void
seismo_latency_histogram_add_samples (SeismoLatencyHistogram *self,
                                      GArray                 *samples)
{
  const SeismoLatencySample *s;
  guint64 *values;
  guint old_len;

  g_return_if_fail (self != NULL);
  g_return_if_fail (self->values != NULL);
  g_return_if_fail (samples != NULL);

  /* Grown once, not doubling its way up through millions of values. */
  old_len = self->values->len;
  g_array_set_size (self->values, old_len + samples->len);
  values = &g_array_index (self->values, guint64, old_len);
  s = (const SeismoLatencySample *) samples->data;
  for (guint i = 0; i < samples->len; i++)
    {
      values[i] = s[i].value;
      self->counts[seismo_latency_histogram_bucket_of (self, s[i].value)]++;
      note_value (self, s[i].value);
    }
  self->summarized = FALSE;
}

SeismoLatencyHistogram *
seismo_latency_histogram_new_linear_from (SeismoLatencyHistogram *other,
                                          guint64                 min,
                                          guint64                 max,
                                          guint64                 step)
{
  SeismoLatencyHistogram *self;
  const guint64 *v;

  g_return_val_if_fail (other != NULL, NULL);
  g_return_val_if_fail (other->values != NULL, NULL);
  self = seismo_latency_histogram_new_linear (min, max, step);
  g_return_val_if_fail (self != NULL, NULL);

  g_array_set_size (self->values, other->values->len);
  /* An empty GArray's data may be NULL, which memcpy() must not be given. */
  if (other->values->len > 0)
    memcpy (self->values->data, other->values->data, (gsize) other->values->len * sizeof (guint64));
  v = (const guint64 *) self->values->data;
  for (guint i = 0; i < self->values->len; i++)
    self->counts[seismo_latency_histogram_bucket_of (self, v[i])]++;
  self->value_min = other->value_min;
  self->value_max = other->value_max;
  self->value_sum = other->value_sum;
  if (other->fine != NULL)
    self->fine = g_memdup2 (other->fine, SEISMO_PERCENTILE_BINS * sizeof (gsize));
  /* The same values: the same figures, not computed again. */
  self->summarized = other->summarized;
  self->summary = other->summary;
  return self;
}

guint
seismo_latency_histogram_get_n_buckets (SeismoLatencyHistogram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_buckets;
}

void
seismo_latency_histogram_get_bucket (SeismoLatencyHistogram *self,
                                     guint                   index,
                                     SeismoLatencyBucket    *bucket)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->n_buckets);
  g_return_if_fail (bucket != NULL);

  bucket->count = self->counts[index];
  if (self->scale == SEISMO_HISTOGRAM_LOG2)
    {
      bucket->lower = index == 0 ? 0 : G_GUINT64_CONSTANT (1) << (index - 1);
      bucket->upper = index == 64 ? G_MAXUINT64 : G_GUINT64_CONSTANT (1) << index;
    }
  else if (index == 0)
    {
      bucket->lower = 0;
      bucket->upper = self->min;
    }
  else if (index == self->n_buckets - 1)
    {
      bucket->lower = self->top;
      bucket->upper = G_MAXUINT64;
    }
  else
    {
      bucket->lower = self->min + (index - 1) * self->step;
      bucket->upper = bucket->lower + self->step;
    }
}

/* The summary's percentiles. */
static const double summary_qs[] = { 0.50, 0.90, 0.99 };
#define N_SUMMARY_QS G_N_ELEMENTS (summary_qs)
G_STATIC_ASSERT (N_SUMMARY_QS <= SEISMO_PERCENTILE_MAX_RANKS);

void
seismo_latency_histogram_get_summary (SeismoLatencyHistogram *self,
                                      SeismoLatencySummary   *summary)
{
  guint64 p[N_SUMMARY_QS];
  gsize n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (summary != NULL);

  memset (summary, 0, sizeof *summary);
  /* Computed once: a histogram pane asks at every draw. */
  if (self->summarized)
    {
      *summary = self->summary;
      return;
    }
  self->summarized = TRUE;
  /* A histogram without values was summarized as it was made. */
  g_assert (self->values != NULL);
  n = self->values->len;
  if (n == 0)
    {
      memset (&self->summary, 0, sizeof self->summary);
      return;
    }
  summary->count = n;
  summary->min = self->value_min;
  summary->max = self->value_max;
  summary->sum = self->value_sum;
  summary->avg = summary->sum / n;
  /* Exact nearest-rank percentiles by selection, not by sorting millions of values. */
  if (self->fine != NULL)
    _seismo_percentiles_from_bins ((const guint64 *) self->values->data, n, self->fine, summary_qs,
                                   N_SUMMARY_QS, p);
  else
    seismo_stats_percentiles_select ((guint64 *) self->values->data, n, summary_qs, N_SUMMARY_QS, p);
  summary->p50 = p[0];
  summary->p90 = p[1];
  summary->p99 = p[2];
  self->summary = *summary;
}

/* bpftrace's power-of-1024 suffixes: 1024 → 1K, 3145728 → 3M. */
static void
append_log2_edge (GString *out,
                  guint64  v)
{
  static const char suffix[] = " KMGTPE";
  guint k = 0;

  while (k < 6 && v >= 1024 && v % 1024 == 0)
    {
      v /= 1024;
      k++;
    }
  g_string_append_printf (out, "%" G_GUINT64_FORMAT, v);
  if (k)
    g_string_append_c (out, suffix[k]);
}

/* With time units, the largest unit that divides the value exactly: 20000 → 20us. */
static void
append_linear_edge (GString  *out,
                    guint64   v,
                    gboolean  time_units)
{
  static const struct {
    guint64     div;
    const char *unit;
  } units[] = { { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" } };

  if (time_units && v != 0)
    for (guint u = 0; u < G_N_ELEMENTS (units); u++)
      if (v % units[u].div == 0)
        {
          g_string_append_printf (out, "%" G_GUINT64_FORMAT "%s", v / units[u].div, units[u].unit);
          return;
        }
  g_string_append_printf (out, "%" G_GUINT64_FORMAT "%s", v, time_units && v != 0 ? "ns" : "");
}

char *
seismo_latency_histogram_bucket_label (SeismoLatencyHistogram *self,
                                       guint                   index,
                                       gboolean                time_units)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_buckets, NULL);

  if (self->scale == SEISMO_HISTOGRAM_LOG2)
    {
      if (index <= 1)
        g_string_append_printf (out, "[%u]", index);
      else
        {
          g_string_append_c (out, '[');
          append_log2_edge (out, G_GUINT64_CONSTANT (1) << (index - 1));
          g_string_append (out, ", ");
          if (index == 64)
            g_string_append (out, "16E");
          else
            append_log2_edge (out, G_GUINT64_CONSTANT (1) << index);
          g_string_append_c (out, ')');
        }
    }
  else if (index == 0)
    {
      g_string_append (out, "(..., ");
      append_linear_edge (out, self->min, time_units);
      g_string_append_c (out, ')');
    }
  else if (index == self->n_buckets - 1)
    {
      g_string_append_c (out, '[');
      append_linear_edge (out, self->top, time_units);
      g_string_append (out, ", ...)");
    }
  else
    {
      guint64 lower = self->min + (index - 1) * self->step;

      g_string_append_c (out, '[');
      append_linear_edge (out, lower, time_units);
      g_string_append (out, ", ");
      append_linear_edge (out, lower + self->step, time_units);
      g_string_append_c (out, ')');
    }
  return g_string_free (out, FALSE);
}

void
seismo_latency_histogram_format (SeismoLatencyHistogram *self,
                                 gboolean                time_units,
                                 GString                *out)
{
  guint first = G_MAXUINT, last = 0;
  guint64 max_count = 0;
  gsize width = 0;
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < self->n_buckets; i++)
    if (self->counts[i])
      {
        first = MIN (first, i);
        last = i;
        max_count = MAX (max_count, self->counts[i]);
      }
  if (first == G_MAXUINT)
    return;
  for (guint i = first; i <= last; i++)
    {
      char *label = seismo_latency_histogram_bucket_label (self, i, time_units);

      width = MAX (width, strlen (label));
      g_ptr_array_add (labels, label);
    }
  for (guint i = first; i <= last; i++)
    {
      guint bar = (guint) (self->counts[i] * BAR_WIDTH / max_count);

      g_string_append_printf (out, "%-*s %8" G_GUINT64_FORMAT " |", (int) width,
                              (const char *) g_ptr_array_index (labels,
                                                                i - first), self->counts[i]);
      for (guint k = 0; k < BAR_WIDTH; k++)
        g_string_append_c (out, k < bar ? '@' : ' ');
      g_string_append (out, "|\n");
    }
}

/* ---- collecting latencies ---- */

static const char *const kind_names[SEISMO_LATENCY_N] = {
  [SEISMO_LATENCY_SYSCALL] = "syscall-latency",
  [SEISMO_LATENCY_WAKEUP]  = "wakeup-latency",
  [SEISMO_LATENCY_RUNTIME] = "runtime",
  [SEISMO_LATENCY_IRQ]     = "irq-latency",
  [SEISMO_LATENCY_SOFTIRQ] = "softirq-latency",
};

const char *
seismo_latency_kind_to_string (SeismoLatencyKind kind)
{
  return kind < SEISMO_LATENCY_N ? kind_names[kind] : "unknown";
}

gboolean
seismo_latency_kind_from_string (const char        *name,
                                 SeismoLatencyKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint k = 0; k < SEISMO_LATENCY_N; k++)
    if (strcmp (kind_names[k], name) == 0)
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}

static int
compare_samples (gconstpointer a,
                 gconstpointer b)
{
  const SeismoLatencySample *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

static void
add_sample (GArray        *out,
            const guint64 *ts,
            SeismoEventId  start,
            SeismoEventId  end)
{
  SeismoLatencySample s = { ts[end] - ts[start], start, end };

  g_array_append_val (out, s);
}

gboolean
seismo_latency_kind_measured (SeismoTrace       *trace,
                              SeismoLatencyKind  kind)
{
  g_return_val_if_fail (SEISMO_IS_TRACE (trace), FALSE);

  if (kind == SEISMO_LATENCY_SYSCALL)
    return seismo_trace_has_durations (trace);
  return seismo_trace_has_timestamps (trace);
}

GArray *
seismo_latency_collect (SeismoTrace           *trace,
                        SeismoLatencyKind      kind,
                        const SeismoSelection *selection,
                        int                    syscall)
{
  GArray *out;
  const guint64 *ts;
  gsize n;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (kind < SEISMO_LATENCY_N, NULL);

  if (!seismo_latency_kind_measured (trace, kind))
    return g_array_new (FALSE, FALSE, sizeof (SeismoLatencySample));
  ts = seismo_trace_get_times (trace);
  if (kind == SEISMO_LATENCY_SYSCALL)
    {
      const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n);

      /* Room for every span at once: growing by doubling copies millions of samples. Pages
       * never written are never touched. */
      out = g_array_sized_new (FALSE, FALSE, sizeof (SeismoLatencySample), (guint) n);

      for (gsize s = 0; s < n; s++)
        if (spans[s].exit != SEISMO_NO_EVENT && (syscall < 0 || spans[s].syscall == syscall) &&
            seismo_selection_has (selection, spans[s].enter, ts[spans[s].enter]))
          add_sample (out, ts, spans[s].enter, spans[s].exit);
      return out;
    }
  else
    {
      static const SeismoIntervalKind interval[SEISMO_LATENCY_N] = {
        [SEISMO_LATENCY_WAKEUP]  = SEISMO_INTERVAL_WAKEUP,
        [SEISMO_LATENCY_RUNTIME] = SEISMO_INTERVAL_RUN,
        [SEISMO_LATENCY_IRQ]     = SEISMO_INTERVAL_IRQ,
        [SEISMO_LATENCY_SOFTIRQ] = SEISMO_INTERVAL_SOFTIRQ,
      };
      const SeismoInterval *iv = seismo_trace_get_intervals (trace, interval[kind], &n);

      out = g_array_sized_new (FALSE, FALSE, sizeof (SeismoLatencySample), (guint) n);
      for (gsize k = 0; k < n; k++)
        {
          SeismoEventId by;

          if (iv[k].start == SEISMO_NO_EVENT || iv[k].end == SEISMO_NO_EVENT)
            continue;
          by = kind == SEISMO_LATENCY_RUNTIME ? iv[k].end : iv[k].start;
          if (seismo_selection_has (selection, by, ts[by]))
            add_sample (out, ts, iv[k].start, iv[k].end);
        }
      /* Runs are grouped by CPU; everything else is already in start order. */
      if (kind == SEISMO_LATENCY_RUNTIME)
        g_array_sort (out, compare_samples);
    }
  return out;
}

/* One half of the spans of seismo_latency_histogram_add_syscalls(): their durations written
 * from out on, counted per bucket into counts. */
typedef struct {
  SeismoLatencyHistogram  *hist;
  const SeismoSyscallSpan *spans;
  gsize                    n_spans;
  const guint64           *ts;
  const SeismoSelection   *selection;
  int                      syscall;
  guint64                 *out;
  guint64                 *counts;
  gsize                   *fine;      /* seismo_percentile_bin() counts */
  guint64                  min;
  guint64                  max;
  guint64                  sum;
  gsize                    n_out;
} SyscallPass;

static void
syscall_pass (guint    i,
              guint    worker,
              gpointer data)
{
  SyscallPass *p = &((SyscallPass *) data)[i];
  guint64 *out = p->out;

  for (gsize s = 0; s < p->n_spans; s++)
    {
      if (G_UNLIKELY ((s & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      const SeismoSyscallSpan *span = &p->spans[s];
      guint64 v;

      if (span->exit == SEISMO_NO_EVENT || (p->syscall >= 0 && span->syscall != p->syscall) ||
          !seismo_selection_has (p->selection, span->enter, p->ts[span->enter]))
        continue;
      v = p->ts[span->exit] - p->ts[span->enter];
      *out++ = v;
      p->counts[seismo_latency_histogram_bucket_of (p->hist, v)]++;
      /* The summary's figures counted on the way: no pass of their own over the values. */
      p->fine[seismo_percentile_bin (v)]++;
      p->min = MIN (p->min, v);
      p->max = MAX (p->max, v);
      p->sum = add_saturating (p->sum, v);
    }
  p->n_out = (gsize) (out - p->out);
}

/* Below this many spans a second thread costs more than it saves. */
#define SYSCALL_PASS_SPLIT 262144

void
seismo_latency_histogram_add_syscalls (SeismoLatencyHistogram *self,
                                       SeismoTrace            *trace,
                                       const SeismoSelection  *selection,
                                       int                     syscall)
{
  SyscallPass half[2];
  const SeismoSyscallSpan *spans;
  gsize n, old_len, first_half;
  guint64 *values;

  g_return_if_fail (self != NULL);
  g_return_if_fail (self->values != NULL);
  g_return_if_fail (SEISMO_IS_TRACE (trace));

  if (!seismo_latency_kind_measured (trace, SEISMO_LATENCY_SYSCALL))
    return;
  spans = seismo_trace_get_syscall_spans (trace, &n);
  g_return_if_fail (self->values->len + n <= G_MAXUINT);

  /* Room for every span; each half writes its own part, the second moved down after. */
  old_len = self->values->len;
  g_array_set_size (self->values, old_len + n);
  values = &g_array_index (self->values, guint64, old_len);
  first_half = n >= SYSCALL_PASS_SPLIT ? n / 2 : n;
  for (guint h = 0; h < 2; h++)
    {
      half[h] = (SyscallPass) {
        self, spans + (h ? first_half : 0), h ? n - first_half : first_half,
        seismo_trace_get_times (trace), selection, syscall,
        values + (h ? first_half : 0), g_new0 (guint64, self->n_buckets),
        g_new0 (gsize, SEISMO_PERCENTILE_BINS), G_MAXUINT64, 0, 0, 0
      };
    }
  /* Bins for the values already there, unless a previous bulk add counted them. */
  if (self->fine == NULL)
    {
      self->fine = g_new0 (gsize, SEISMO_PERCENTILE_BINS);
      for (gsize i = 0; i < old_len; i++)
        self->fine[seismo_percentile_bin (g_array_index (self->values, guint64, i))]++;
    }
  /* The whole-trace pass on both cores: it is what opening the Histogram pane waits for. */
  _seismo_file_parallel_for (half[1].n_spans > 0 ? 2 : 1, 2, syscall_pass, half);
  memmove (values + half[0].n_out, half[1].out, half[1].n_out * sizeof (guint64));
  g_array_set_size (self->values, (guint) (old_len + half[0].n_out + half[1].n_out));
  for (guint h = 0; h < 2; h++)
    {
      for (guint b = 0; b < self->n_buckets; b++)
        self->counts[b] += half[h].counts[b];
      for (guint b = 0; b < SEISMO_PERCENTILE_BINS; b++)
        self->fine[b] += half[h].fine[b];
      self->value_min = MIN (self->value_min, half[h].min);
      self->value_max = MAX (self->value_max, half[h].max);
      self->value_sum = add_saturating (self->value_sum, half[h].sum);
      g_free (half[h].counts);
      g_free (half[h].fine);
    }
  self->summarized = FALSE;
}

/* seismo_latency_histogram_new_syscalls(): the durations of the spans taken, in two or three
 * passes over them that keep none but the few of the bins the percentiles fall in
 * (seismo-percentile-private.h). One half of the spans, each pass on both halves at once. */
typedef struct {
  SeismoLatencyHistogram      *hist;
  const SeismoSyscallSpan     *spans;
  gsize                        n_spans;
  const guint64               *ts;
  const SeismoSelection       *selection;
  int                          syscall;
  /* counting pass */
  guint64                     *counts;    /* per bucket of hist */
  gsize                       *coarse;    /* seismo_percentile_coarse_bin() counts, or NULL */
  guint64                      min;
  guint64                      max;
  guint64                      sum;
  gsize                        n;
  /* keeping pass */
  const SeismoPercentileRanks *ranks;
  gsize                       *next;
  guint64                     *kept;
} SpanPass;

static inline gboolean
span_taken (const SpanPass          *p,
            const SeismoSyscallSpan *span)
{
  return span->exit != SEISMO_NO_EVENT && (p->syscall < 0 || span->syscall == p->syscall) &&
         seismo_selection_has (p->selection, span->enter, p->ts[span->enter]);
}

static void
span_pass_count (guint    i,
                 guint    worker,
                 gpointer data)
{
  SpanPass *p = &((SpanPass *) data)[i];

  for (gsize s = 0; s < p->n_spans; s++)
    {
      if (G_UNLIKELY ((s & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      const SeismoSyscallSpan *span = &p->spans[s];
      guint64 v;

      if (!span_taken (p, span))
        continue;
      v = p->ts[span->exit] - p->ts[span->enter];
      /* The coarse bins make the log2 buckets after (a bin lies within a power of two). */
      if (p->coarse != NULL)
        p->coarse[seismo_percentile_coarse_bin (v)]++;
      else
        p->counts[seismo_latency_histogram_bucket_of (p->hist, v)]++;
      p->min = MIN (p->min, v);
      p->max = MAX (p->max, v);
      p->sum = add_saturating (p->sum, v);
      p->n++;
    }
}

static void
span_pass_keep (guint    i,
                guint    worker,
                gpointer data)
{
  SpanPass *p = &((SpanPass *) data)[i];

  for (gsize s = 0; s < p->n_spans; s++)
    {
      if (G_UNLIKELY ((s & 0x3fff) == 0))
        seismo_work_priority_pause_point ();
      const SeismoSyscallSpan *span = &p->spans[s];

      if (span_taken (p, span))
        seismo_percentile_keep (p->ranks, p->next, p->kept, p->ts[span->exit] - p->ts[span->enter]);
    }
}

/* Splits the trace's spans in halves counting into hist's buckets (coarse bins too when asked). */
static void
span_passes_init (SpanPass               *half,
                  SeismoLatencyHistogram *hist,
                  SeismoTrace            *trace,
                  const SeismoSelection  *selection,
                  int                     syscall,
                  gboolean                coarse)
{
  gsize n, first_half;
  const SeismoSyscallSpan *spans = seismo_trace_get_syscall_spans (trace, &n);

  /* Not measured: no spans to count, as seismo_latency_collect() has none. */
  if (!seismo_latency_kind_measured (trace, SEISMO_LATENCY_SYSCALL))
    n = 0;
  first_half = n >= SYSCALL_PASS_SPLIT ? n / 2 : n;
  for (guint h = 0; h < 2; h++)
    half[h] = (SpanPass) {
      .hist = hist,
      .spans = spans + (h ? first_half : 0),
      .n_spans = h ? n - first_half : first_half,
      .ts = seismo_trace_get_times (trace),
      /* A selection of everything need not read each enter's time. */
      .selection = seismo_selection_or_null (selection),
      .syscall = syscall,
      .counts = g_new0 (guint64, hist->n_buckets),
      .coarse = coarse ? g_new0 (gsize, SEISMO_PERCENTILE_COARSE_BINS) : NULL,
      .min = G_MAXUINT64,
    };
}

/* Runs func over both halves, the second on another thread when it has any spans. */
static void
span_passes_run (SeismoParallelFunc func,
                 SpanPass          *half)
{
  _seismo_file_parallel_for (half[1].n_spans > 0 ? 2 : 1, 2, func, half);
}

/* Adds both halves' counts into their histogram, then frees them. Returns how many values. */
static gsize
span_passes_merge (SpanPass *half)
{
  SeismoLatencyHistogram *self = half[0].hist;

  for (guint h = 0; h < 2; h++)
    {
      for (guint b = 0; b < self->n_buckets; b++)
        self->counts[b] += half[h].counts[b];
      self->value_min = MIN (self->value_min, half[h].min);
      self->value_max = MAX (self->value_max, half[h].max);
      self->value_sum = add_saturating (self->value_sum, half[h].sum);
      g_clear_pointer (&half[h].counts, g_free);
    }
  return half[0].n + half[1].n;
}

SeismoLatencyHistogram *
seismo_latency_histogram_new_syscalls (SeismoTrace           *trace,
                                       const SeismoSelection *selection,
                                       int                    syscall)
{
  SeismoLatencyHistogram *self;
  SpanPass half[2];
  SeismoPercentileRanks ranks;
  gsize next[2][SEISMO_PERCENTILE_MAX_RANKS], total = 0, n;
  g_autofree guint64 *kept = NULL;
  guint64 p[N_SUMMARY_QS];

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);

  self = seismo_latency_histogram_new_log2 ();
  g_clear_pointer (&self->values, g_array_unref);
  /* Pass 1: buckets, figures and coarse bins. */
  span_passes_init (half, self, trace, selection, syscall, TRUE);
  span_passes_run (span_pass_count, half);
  n = span_passes_merge (half);
  for (guint b = 0; b < SEISMO_PERCENTILE_COARSE_BINS; b++)
    self->counts[seismo_latency_histogram_bucket_of (self, seismo_percentile_coarse_lower (b))]
      += half[0].coarse[b] + half[1].coarse[b];
  /* The summary now, while the spans are at hand: it is all a histogram without values needs. */
  self->summarized = TRUE;
  if (n > 0)
    {
      /* Pass 2: only the values of the bins the ranks fall in, each half placing its own after
       * the first half's. */
      _seismo_percentile_find_ranks (&ranks, n, half[0].coarse, half[1].coarse, summary_qs,
                                     N_SUMMARY_QS, next[0], next[1], &total);
      kept = g_new (guint64, MAX (total, 1));
      for (guint h = 0; h < 2; h++)
        {
          half[h].ranks = &ranks;
          half[h].next = next[h];
          half[h].kept = kept;
        }
      span_passes_run (span_pass_keep, half);
      _seismo_percentile_select_ranks (&ranks, kept, N_SUMMARY_QS, p);
      self->summary = (SeismoLatencySummary) {
        .count = n, .min = self->value_min, .max = self->value_max, .sum = self->value_sum,
        .avg = self->value_sum / n, .p50 = p[0], .p90 = p[1], .p99 = p[2],
      };
    }
  g_free (half[0].coarse);
  g_free (half[1].coarse);
  return self;
}

SeismoLatencyHistogram *
seismo_latency_histogram_new_linear_from_syscalls (SeismoLatencyHistogram *log2,
                                                   guint64                 min,
                                                   guint64                 max,
                                                   guint64                 step,
                                                   SeismoTrace            *trace,
                                                   const SeismoSelection  *selection,
                                                   int                     syscall)
{
  SeismoLatencyHistogram *self;
  SpanPass half[2];
  SeismoLatencySummary summary;
  G_GNUC_UNUSED gsize n;

  g_return_val_if_fail (log2 != NULL, NULL);
  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  self = seismo_latency_histogram_new_linear (min, max, step);
  g_return_val_if_fail (self != NULL, NULL);

  g_clear_pointer (&self->values, g_array_unref);
  span_passes_init (half, self, trace, selection, syscall, FALSE);
  span_passes_run (span_pass_count, half);
  n = span_passes_merge (half);
  /* The same spans: the same figures, not computed again. */
  seismo_latency_histogram_get_summary (log2, &summary);
  g_warn_if_fail (n == summary.count);
  self->value_min = log2->value_min;
  self->value_max = log2->value_max;
  self->value_sum = log2->value_sum;
  self->summarized = TRUE;
  self->summary = summary;
  return self;
}

GArray *
seismo_latency_collect_gaps (SeismoTrace           *trace,
                             const guint64         *from_mask,
                             const guint64         *to_mask,
                             SeismoGapScope         scope,
                             const SeismoSelection *selection)
{
  gsize n, n_words, n_keys;
  const guint64 *ts;
  const guint16 *cpus;
  const SeismoTaskId *tasks;
  g_autofree SeismoEventId *open = NULL;
  GArray *out;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (from_mask != NULL && to_mask != NULL, NULL);

  n = seismo_trace_get_n_events (trace);
  n_words = (n + 63) / 64;
  ts = seismo_trace_get_times (trace);
  cpus = seismo_trace_get_cpus (trace);
  tasks = seismo_trace_get_tasks (trace);
  n_keys = scope == SEISMO_GAP_SAME_TASK ? seismo_trace_get_n_tasks (trace)
           : scope == SEISMO_GAP_SAME_CPU ? G_MAXUINT16 + 1 : 1;
  open = g_new (SeismoEventId, MAX (n_keys, 1));
  for (gsize k = 0; k < n_keys; k++)
    open[k] = SEISMO_NO_EVENT;
  out = g_array_new (FALSE, FALSE, sizeof (SeismoLatencySample));
  if (!seismo_trace_has_timestamps (trace))
    n_words = 0;   /* line order, not time: no gaps to measure */

  for (gsize w = 0; w < n_words; w++)
    {
      guint64 bits = from_mask[w] | to_mask[w];

      while (bits)
        {
          gsize i = w * 64 + __builtin_ctzll (bits);
          gsize key = scope == SEISMO_GAP_SAME_TASK ? tasks[i]
                      : scope == SEISMO_GAP_SAME_CPU ? cpus[i] : 0;

          bits &= bits - 1;
          if (i >= n)
            break;
          if ((to_mask[w] >> (i & 63)) & 1 && open[key] != SEISMO_NO_EVENT)
            {
              if (seismo_selection_has (selection, open[key], ts[open[key]]))
                add_sample (out, ts, open[key], (SeismoEventId) i);
              open[key] = SEISMO_NO_EVENT;
            }
          if ((from_mask[w] >> (i & 63)) & 1 && open[key] == SEISMO_NO_EVENT)
            open[key] = (SeismoEventId) i;
        }
    }
  return out;
}

guint64 *
seismo_latency_samples_mask (SeismoTrace *trace,
                             GArray      *samples,
                             guint64      lower,
                             guint64      upper)
{
  gsize n;
  guint64 *mask;

  g_return_val_if_fail (SEISMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (samples != NULL, NULL);

  n = seismo_trace_get_n_events (trace);
  mask = g_new0 (guint64, MAX ((n + 63) / 64, 1));
  for (guint i = 0; i < samples->len; i++)
    {
      const SeismoLatencySample *s = &g_array_index (samples, SeismoLatencySample, i);

      if (s->value < lower || (upper != G_MAXUINT64 && s->value >= upper) || s->start >= n ||
          s->end >= n)
        continue;
      mask[s->start / 64] |= G_GUINT64_CONSTANT (1) << (s->start % 64);
      mask[s->end / 64] |= G_GUINT64_CONSTANT (1) << (s->end % 64);
    }
  return mask;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-test"

#include <glib/gstdio.h>
#include <zstd.h>

#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-file-private.h"
#include "seismo-test-util.h"
#include "seismo-varint.h"
#include "test-file-common.h"

typedef enum {
  OUTCOME_ERROR,
  OUTCOME_PARTIAL,   /* loaded, with a load_warning */
} Outcome;

/* Loads a damaged file: a clean error naming the file, or a trace that says it is incomplete and
 * whose events are a prefix of the original's. Uses the trace, so a bad one would show. */
static Outcome
check_load_n (const char  *path,
              SeismoTrace *original,
              gboolean     prefix,
              gsize       *n_loaded)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SeismoTrace) trace = seismo_file_load (path, NULL, NULL, NULL, &error);
  g_autofree char *base = g_path_get_basename (path);

  if (trace == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == SEISMO_ERROR);
      g_assert_true (error->code == SEISMO_ERROR_CORRUPT || error->code == SEISMO_ERROR_TRUNCATED ||
                     error->code == SEISMO_ERROR_UNKNOWN_FORMAT ||
                     error->code == SEISMO_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, base));
      return OUTCOME_ERROR;
    }

  g_assert_no_error (error);
  g_assert_nonnull (seismo_trace_get_metadata (trace, SEISMO_META_LOAD_WARNING));
  if (original != NULL && prefix)
    {
      g_assert_cmpuint (seismo_trace_get_n_events (trace), <=, seismo_trace_get_n_events (original));
      file_test_assert_events_equal (original, trace, seismo_trace_get_n_events (trace));
    }
  /* A trace that loads must be usable throughout, however odd its contents. */
  for (gsize i = 0; i < seismo_trace_get_n_events (trace); i += original != NULL ? 101 : 1)
    g_free (seismo_trace_event_format (trace, (SeismoEventId) i));
  for (guint t = 0; t < seismo_trace_get_n_tasks (trace); t++)
    {
      gsize n;

      seismo_trace_get_task_events (trace, t, &n);
      seismo_trace_task_comm_at (trace, t, seismo_trace_get_end_ns (trace));
    }
  for (guint c = 0; c < seismo_trace_get_n_cpus (trace); c++)
    {
      gsize n;

      seismo_trace_get_cpu_runs (trace, c, &n);
    }
  if (n_loaded != NULL)
    *n_loaded = seismo_trace_get_n_events (trace);
  return OUTCOME_PARTIAL;
}

static Outcome
check_load (const char  *path,
            SeismoTrace *original,
            gboolean     prefix)
{
  return check_load_n (path, original, prefix, NULL);
}

static GBytes *
save_bytes (SeismoTrace *trace,
            const char  *name)
{
  g_autofree char *path = seismo_test_temp_path (name);
  char *data;
  gsize len;

  g_assert_true (seismo_file_save (trace, path, NULL));
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

/* Plain writes: g_file_set_contents() syncs, which thousands of cases cannot afford. */
static void
write_bytes (const char   *path,
             const guint8 *data,
             gsize         len)
{
  FILE *f = fopen (path, "wb");

  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (data, 1, len, f), ==, len);
  g_assert_cmpint (fclose (f), ==, 0);
}

/* Every length from 0 to size - 1 of a one-chunk file. */
static void
test_truncate_every_offset (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (300, 21);
  g_autoptr(GBytes) bytes = save_bytes (trace, "trunc-src.seismo");
  g_autofree char *path = seismo_test_temp_path ("trunc.seismo");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint counts[2] = { 0, 0 };

  for (gsize cut = 0; cut < len; cut++)
    {
      write_bytes (path, data, cut);
      counts[check_load (path, trace, TRUE)]++;
    }
  g_test_message ("%" G_GSIZE_FORMAT " lengths: %u errors, %u flagged partial", len,
                  counts[OUTCOME_ERROR], counts[OUTCOME_PARTIAL]);
  /* Cut inside the index or trailer, every event is still there. */
  g_assert_cmpuint (counts[OUTCOME_ERROR], >, 0);
  g_assert_cmpuint (counts[OUTCOME_PARTIAL], >, 0);
}

/* A file of two chunks cut anywhere after the first chunk opens with the first chunk's events. */
static void
test_truncate_two_chunks (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (65536 + 3000, 22);
  g_autoptr(GBytes) bytes = save_bytes (trace, "trunc2-src.seismo");
  g_autofree char *path = seismo_test_temp_path ("trunc2.seismo");
  g_autoptr(GRand) rand = g_rand_new_with_seed (22);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint n_first = 0;

  for (guint i = 0; i < 120; i++)
    {
      gsize cut = i < 60 ? len - 1 - i : (gsize) g_rand_int_range (rand, 0, (gint32) len);
      gsize n = 0;

      write_bytes (path, data, cut);
      if (check_load_n (path, trace, TRUE, &n) == OUTCOME_ERROR)
        continue;
      g_assert_true (n == 65536 || n == seismo_trace_get_n_events (trace));
      n_first += n == 65536;
    }
  g_assert_cmpuint (n_first, >, 0);
}

/* Random bytes changed: every byte is under a checksum, so nothing damaged loads silently. */
static void
corrupt_cases (SeismoTrace *trace,
               GBytes      *bytes,
               const char  *name,
               guint        n_cases,
               guint32      seed)
{
  g_autofree char *path = seismo_test_temp_path (name);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *copy = g_malloc (len);
  guint counts[2] = { 0, 0 };

  for (guint i = 0; i < n_cases; i++)
    {
      guint n_flips = g_rand_int_range (rand, 1, 4);

      memcpy (copy, data, len);
      for (guint f = 0; f < n_flips; f++)
        copy[g_rand_int_range (rand, 0, (gint32) len)] ^= (guint8) g_rand_int_range (rand, 1, 256);
      write_bytes (path, copy, len);
      counts[check_load (path, trace, FALSE)]++;
    }
  g_test_message ("%s: %u errors, %u flagged partial", name, counts[OUTCOME_ERROR],
                  counts[OUTCOME_PARTIAL]);
  g_assert_cmpuint (counts[OUTCOME_ERROR], >, 0);
}

static void
test_corrupt_small (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (300, 23);
  g_autoptr(GBytes) bytes = save_bytes (trace, "corrupt-src.seismo");

  corrupt_cases (trace, bytes, "corrupt.seismo", 3000, 23);
}

static void
test_corrupt_chunks (void)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (2 * 65536 + 100, 24);
  g_autoptr(GBytes) bytes = save_bytes (trace, "corrupt2-src.seismo");

  corrupt_cases (trace, bytes, "corrupt2.seismo", 300, 24);
}

/* A recorder's unfinished file (no index): damage is found by the checksums alone. */
static void
test_corrupt_unfinished (void)
{
  g_autofree char *path = seismo_test_temp_path ("unfinished.seismo");
  g_autoptr(SeismoFileWriter) writer = seismo_file_writer_new (path, NULL);
  g_autoptr(SeismoTraceBuilder) builder = seismo_test_make_builder (2 * 65536 + 10, 25);
  g_autofree char *data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize len;

  g_assert_true (seismo_file_writer_flush (writer, builder, NULL));
  g_assert_true (g_file_get_contents (seismo_file_writer_get_partial_path (writer), &data, &len,
                                      NULL));
  bytes = g_bytes_new (data, len);
  corrupt_cases (NULL, bytes, "unfinished-corrupt.seismo", 60, 25);
  seismo_file_writer_discard (writer);
}

/* ---------------------------------------------------------------------------------------------- */
/* Lies under valid checksums                                                                      */

typedef struct {
  SeismoRecordHeader h;     /* host order */
  GByteArray        *info;
  GByteArray        *raw;   /* decompressed data */
} TestRecord;

static void
test_record_free (gpointer p)
{
  TestRecord *r = p;

  g_byte_array_unref (r->info);
  g_byte_array_unref (r->raw);
  g_free (r);
}

/* The records of a well-formed file, up to (not including) the index. */
static GPtrArray *
parse_records (const guint8 *data,
               gsize         len)
{
  GPtrArray *records = g_ptr_array_new_with_free_func (test_record_free);
  gsize at = sizeof (SeismoFileHeader);

  while (at + sizeof (SeismoRecordHeader) <= len)
    {
      TestRecord *r = g_new0 (TestRecord, 1);
      const guint8 *body;

      memcpy (&r->h, data + at, sizeof r->h);
      _seismo_record_header_swap (&r->h);
      if (r->h.kind == SEISMO_RECORD_INDEX)
        {
          g_free (r);
          break;
        }
      body = data + at + sizeof r->h;
      r->info = g_byte_array_new ();
      g_byte_array_append (r->info, body, r->h.info_len);
      r->raw = g_byte_array_sized_new ((guint) r->h.raw_len);
      g_byte_array_set_size (r->raw, (guint) r->h.raw_len);
      if (r->h.flags & SEISMO_RECORD_FLAG_ZSTD)
        g_assert_cmpuint (ZSTD_decompress (r->raw->data, r->h.raw_len, body + r->h.info_len,
                                           r->h.data_len), ==, r->h.raw_len);
      else if (r->h.raw_len > 0)
        memcpy (r->raw->data, body + r->h.info_len, r->h.raw_len);
      at += sizeof r->h + r->h.info_len + r->h.data_len;
      g_ptr_array_add (records, r);
    }
  return records;
}

/* Writes the records back with sound checksums (no index: the reader scans). The header fields
 * given in h are kept as they are, lengths included, unless fix_lengths. */
static GByteArray *
serialize (const guint8 *file_header,
           GPtrArray    *records,
           gboolean      fix_lengths)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, file_header, sizeof (SeismoFileHeader));
  for (guint i = 0; i < records->len; i++)
    {
      TestRecord *r = g_ptr_array_index (records, i);
      SeismoRecordHeader h = r->h;
      gsize bound = ZSTD_compressBound (r->raw->len);
      g_autofree guint8 *packed = g_malloc (MAX (bound, 1));
      gsize packed_len = r->raw->len;
      guint32 crc;

      if (h.flags & SEISMO_RECORD_FLAG_ZSTD)
        packed_len = ZSTD_compress (packed, bound, r->raw->data, r->raw->len, 1);
      else if (r->raw->len > 0)
        memcpy (packed, r->raw->data, r->raw->len);
      g_assert_false (ZSTD_isError (packed_len));
      if (fix_lengths)
        {
          h.info_len = r->info->len;
          h.data_len = packed_len;
          h.raw_len = r->raw->len;
        }
      crc = _seismo_crc32c (0, r->info->data, r->info->len);
      h.crc = _seismo_crc32c (crc, packed, packed_len);
      _seismo_record_header_swap (&h);
      h.header_crc = GUINT32_TO_LE (_seismo_crc32c (0, &h, G_STRUCT_OFFSET (SeismoRecordHeader,
                                                                           header_crc)));
      g_byte_array_append (out, (const guint8 *) &h, sizeof h);
      g_byte_array_append (out, r->info->data, r->info->len);
      g_byte_array_append (out, packed, (guint) packed_len);
    }
  return out;
}

/* Writes the low width bytes of v at b[at], little-endian as the file stores its fields. */
static void
poke_le (GByteArray *b,
         gsize       at,
         guint64     v,
         guint       width)
{
  if (at + width <= b->len)
    for (guint i = 0; i < width; i++)
      b->data[at + i] = (guint8) (v >> (8 * i));
}

/* Values that break bounds when trusted. */
static guint64
nasty_value (GRand *rand)
{
  static const guint64 values[] = {
    0, 1, 2, 0x7f, 0x80, 0xff, 0xffff, 0x10000, 0x10001, 0x7fffffff, 0x80000000, 0xffffffff,
    0x100000000ull, G_MAXUINT64, G_MAXUINT64 / 2, G_MAXUINT64 - 1,
  };

  return values[g_rand_int_range (rand, 0, G_N_ELEMENTS (values))];
}

/* Changes one thing in the decoded content of a random record: a byte, a varint, a count or a
 * size field; then rebuilds the file with checksums that match. */
static void
mutate (GPtrArray *records,
        GRand     *rand,
        gboolean  *fix_lengths)
{
  TestRecord *r = g_ptr_array_index (records, g_rand_int_range (rand, 0, (gint32) records->len));
  guint what = g_rand_int_range (rand, 0, 7);

  *fix_lengths = TRUE;
  switch (what)
    {
    case 0: /* a byte of the decoded data */
      if (r->raw->len > 0)
        r->raw->data[g_rand_int_range (rand, 0, (gint32) r->raw->len)] ^=
          (guint8) g_rand_int_range (rand, 1, 256);
      break;
    case 1: /* a byte of the data replaced by a huge varint */
      if (r->raw->len > 0)
        {
          guint8 tmp[SEISMO_VARINT_MAX];
          guint8 *end = seismo_varint_put (tmp, nasty_value (rand));
          guint at = g_rand_int_range (rand, 0, (gint32) r->raw->len);
          g_autoptr(GByteArray) rebuilt = g_byte_array_new ();

          g_byte_array_append (rebuilt, r->raw->data, at);
          g_byte_array_append (rebuilt, tmp, (guint) (end - tmp));
          g_byte_array_append (rebuilt, r->raw->data + at + 1, r->raw->len - at - 1);
          g_byte_array_set_size (r->raw, 0);
          g_byte_array_append (r->raw, rebuilt->data, rebuilt->len);
        }
      break;
    case 2: /* a 32-bit field of the info part (counts, first ids, chunk sizes) */
      if (r->info->len >= 4)
        poke_le (r->info, 4 * g_rand_int_range (rand, 0, (gint32) r->info->len / 4),
                 nasty_value (rand), 4);
      break;
    case 3: /* a 64-bit field of the info part */
      if (r->info->len >= 8)
        poke_le (r->info, 8 * g_rand_int_range (rand, 0, (gint32) r->info->len / 8),
                 nasty_value (rand), 8);
      break;
    case 4: /* the header's lengths */
      *fix_lengths = FALSE;
      switch (g_rand_int_range (rand, 0, 3))
        {
        case 0:
          r->h.raw_len = nasty_value (rand);
          break;
        case 1:
          r->h.data_len = nasty_value (rand);
          break;
        default:
          r->h.info_len = (guint32) nasty_value (rand);
          break;
        }
      break;
    case 5: /* data cut short */
      g_byte_array_set_size (r->raw, g_rand_int_range (rand, 0, (gint32) r->raw->len + 1));
      break;
    default: /* a record dropped (a string or type table missing) */
      g_ptr_array_remove (records, r);
      break;
    }
}

static void
checksummed_lies (guint64 n_events,
                  guint   n_cases,
                  guint32 seed)
{
  g_autoptr(SeismoTrace) trace = seismo_test_make_trace (n_events, seed);
  g_autoptr(GBytes) bytes = save_bytes (trace, "lies-src.seismo");
  g_autofree char *path = seismo_test_temp_path ("lies.seismo");
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint counts[2] = { 0, 0 };

  /* Unchanged, the rebuilt file loads (without its index) with every event. */
  {
    g_autoptr(GPtrArray) records = parse_records (data, len);
    g_autoptr(GByteArray) out = serialize (data, records, TRUE);
    g_autoptr(SeismoTrace) loaded = NULL;

    write_bytes (path, out->data, out->len);
    loaded = seismo_file_load (path, NULL, NULL, NULL, NULL);
    g_assert_nonnull (loaded);
    file_test_assert_events_equal (trace, loaded, seismo_trace_get_n_events (trace));
  }

  for (guint i = 0; i < n_cases; i++)
    {
      g_autoptr(GPtrArray) records = parse_records (data, len);
      g_autoptr(GByteArray) out = NULL;
      gboolean fix_lengths;

      mutate (records, rand, &fix_lengths);
      out = serialize (data, records, fix_lengths);
      write_bytes (path, out->data, out->len);
      counts[check_load (path, NULL, FALSE)]++;
    }
  g_test_message ("%u errors, %u loaded", counts[OUTCOME_ERROR], counts[OUTCOME_PARTIAL]);
  g_assert_cmpuint (counts[OUTCOME_ERROR], >, 0);
}

/* Damage a checksum cannot see (a buggy or hostile writer): lengths, counts, ids and payloads
 * that lie, under checksums that match. The reader must refuse or load something usable. */
static void
test_checksummed_lies (void)
{
  checksummed_lies (3000, 600, 26);
}

static void
test_checksummed_lies_chunks (void)
{
  checksummed_lies (65536 + 500, 40, 27);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file/corruption/truncate-every-offset", test_truncate_every_offset);
  g_test_add_func ("/file/corruption/truncate-two-chunks", test_truncate_two_chunks);
  g_test_add_func ("/file/corruption/random-bytes", test_corrupt_small);
  g_test_add_func ("/file/corruption/random-bytes-chunks", test_corrupt_chunks);
  g_test_add_func ("/file/corruption/random-bytes-unfinished", test_corrupt_unfinished);
  g_test_add_func ("/file/corruption/checksummed-lies", test_checksummed_lies);
  g_test_add_func ("/file/corruption/checksummed-lies-chunks", test_checksummed_lies_chunks);

  return g_test_run ();
}

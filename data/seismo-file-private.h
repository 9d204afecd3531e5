/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The on-disk layout of .seismo files, shared by the reader, the writer and the format tests.
 * docs/file-format.md describes it for people. Every multi-byte field is little-endian; structs are
 * read with memcpy and converted field by field, never cast from the file buffer.
 */

#include "seismo-trace.h"

G_BEGIN_DECLS

#define SEISMO_FILE_MAGIC         "\x89SEISMO\n"
#define SEISMO_FILE_TRAILER_MAGIC "\x89SMOIDX\n"
#define SEISMO_FILE_MAGIC_LEN     8
#define SEISMO_RECORD_TAG         "SREC"

#define SEISMO_FILE_VERSION_MAJOR 1
#define SEISMO_FILE_VERSION_MINOR 3

/* zstd cannot expand a frame by more than this (a 4-byte RLE block yields at most 128 KiB), so a
 * declared decompressed size above data_len times this is a lie we refuse before allocating. */
#define SEISMO_FILE_MAX_RATIO     32768u

/* Largest fixed info part a reader accepts, so later minor versions can extend it. */
#define SEISMO_FILE_MAX_INFO      4096u

typedef struct {
  guint8  magic[8];          /* SEISMO_FILE_MAGIC */
  guint16 version_major;     /* a reader refuses a major it does not know */
  guint16 version_minor;     /* minor bumps only add optional records or extend info parts */
  guint32 header_size;       /* sizeof (SeismoFileHeader); the first record starts here */
  guint32 chunk_events;      /* events per chunk (the trace's payload block): 65536 */
  guint32 flags;             /* none defined: 0 */
  guint32 reserved;          /* 0 */
  guint32 crc;               /* CRC32C of the 28 bytes before */
} SeismoFileHeader;

typedef enum {
  SEISMO_RECORD_INFO = 1,          /* info: SeismoInfoRecord */
  SEISMO_RECORD_METADATA = 2,      /* info: SeismoTableInfo; data: key/value pairs */
  SEISMO_RECORD_EVENT_TYPES = 3,   /* info: SeismoTableInfo; data: schemas */
  SEISMO_RECORD_STRINGS = 4,       /* info: SeismoTableInfo; data: lengths, then bytes */
  SEISMO_RECORD_TASKS = 5,         /* info: SeismoTableInfo; data: (task id, fields) entries */
  SEISMO_RECORD_COMM_CHANGES = 6,  /* info: SeismoTableInfo */
  SEISMO_RECORD_LOST_EVENTS = 7,   /* info: SeismoTableInfo */
  SEISMO_RECORD_HISTOGRAMS = 8,    /* info: SeismoTableInfo */
  SEISMO_RECORD_CHUNK = 9,         /* info: SeismoChunkInfo; data: the columns */
  SEISMO_RECORD_INDEX = 10,        /* info: SeismoIndexInfo; data: SeismoIndexEntry[] */
  SEISMO_RECORD_SUMMARY = 11,      /* info: SeismoSummaryInfo; data: summaries (1.1, optional) */
  SEISMO_RECORD_STACK_TABLES = 12, /* info: SeismoStackTablesInfo; data: stack tables (1.2, optional) */
  SEISMO_RECORD_STACK_IDS = 13,    /* info: SeismoStackIdsInfo; data: per-event stack ids (1.2, optional) */
  SEISMO_RECORD_CHUNK_SYSCALLS = 14, /* info: SeismoChunkSyscallsInfo; data: syscalls by chunk (1.3, optional) */
} SeismoRecordKind;

/* Record flags */
#define SEISMO_RECORD_FLAG_ZSTD     0x0001  /* the data part is one zstd frame of raw_len bytes */
#define SEISMO_RECORD_FLAG_OPTIONAL 0x0002  /* a reader that does not know the kind may skip it */
#define SEISMO_RECORD_FLAGS_KNOWN   0x0003

typedef struct {
  guint8  tag[4];            /* SEISMO_RECORD_TAG */
  guint16 kind;              /* SeismoRecordKind */
  guint16 flags;
  guint32 info_len;          /* fixed part right after this header, never compressed */
  guint32 reserved;          /* 0 */
  guint64 data_len;          /* stored bytes of the data part, after the info */
  guint64 raw_len;           /* data part once decompressed (== data_len when not compressed) */
  guint32 crc;               /* CRC32C of info + stored data */
  guint32 header_crc;        /* CRC32C of the 36 bytes before */
} SeismoRecordHeader;

typedef struct {
  guint32 n_cpus;            /* CPUs that existed, even those that recorded nothing */
  guint32 reserved;
} SeismoInfoRecord;

/* Table records append entries [first, first + count) to a table (tasks: count entries that
 * each name the task they set, so a recorder can update a task it wrote before). */
typedef struct {
  guint32 first;
  guint32 count;
} SeismoTableInfo;

#define SEISMO_CHUNK_FLAG_SORTED 0x0001     /* timestamps never go back within the chunk */

typedef struct {
  guint64 first_event;       /* chunk k holds events [k * chunk_events, ...) */
  guint32 n_events;          /* chunk_events for every chunk but the last */
  guint32 ts_bytes;          /* length of the timestamp section */
  guint64 min_ts;
  guint64 max_ts;
  guint64 payload_len;       /* payload section length */
  guint32 flags;             /* SEISMO_CHUNK_FLAG_* */
  guint32 reserved;
} SeismoChunkInfo;

#define SEISMO_INDEX_FLAG_SORTED 0x0001     /* the whole event sequence is in time order */

typedef struct {
  guint64 n_events;
  guint32 n_entries;         /* SeismoIndexEntry count in the data part */
  guint32 n_chunks;
  guint64 min_ts;
  guint64 max_ts;
  guint32 flags;             /* SEISMO_INDEX_FLAG_* */
  guint32 reserved;
} SeismoIndexInfo;

/* One per record before the index, in file order. Chunk fields are 0 for other kinds. */
typedef struct {
  guint64 offset;            /* of the record header */
  guint64 size;              /* header + info + data */
  guint16 kind;
  guint16 reserved;
  guint32 n_events;
  guint64 first_event;
  guint64 min_ts;
  guint64 max_ts;
} SeismoIndexEntry;

typedef struct {
  guint64 index_offset;      /* of the index record's header */
  guint64 file_size;         /* including this trailer */
  guint8  magic[8];          /* SEISMO_FILE_TRAILER_MAGIC */
  guint32 reserved;
  guint32 crc;               /* CRC32C of the 28 bytes before */
} SeismoFileTrailer;

/* The SUMMARY record (minor version 1): per-chunk summaries, whole-trace statistics and the
 * level-of-detail buckets (docs/file-format.md). Written just before the index, flagged OPTIONAL,
 * and only when every event came in time order. */
typedef struct {
  guint32 n_chunks;          /* chunk summaries: one per chunk, in order */
  guint32 n_cpus;
  guint32 n_types;
  guint32 n_tasks;
  guint32 n_syscalls;
  guint32 bucket_events;     /* SEISMO_SUMMARY_BUCKET_EVENTS */
  guint32 task_bucket_events;/* SEISMO_SUMMARY_TASK_BUCKET_EVENTS */
  guint32 n_buckets;
  guint32 n_task_buckets;
  guint32 reserved;
  guint64 n_events;
  guint64 start_ns;
  guint64 end_ns;
} SeismoSummaryInfo;

_Static_assert (sizeof (SeismoSummaryInfo) == 64, "summary info is 64 bytes");

/* CHUNK_SYSCALLS (minor version 3): the SUMMARY's syscall totals chunk by chunk, so that a reader
 * can give the syscalls of a range of a trace larger than memory. Written just before the SUMMARY,
 * whose syscall table it numbers, and only with it. Data: for each chunk in order, a varint count
 * of syscalls, then per syscall (ascending index into the SUMMARY's table, delta-coded) varints
 * calls, errors, total_ns, max_ns: the spans whose exit is in that chunk. */
typedef struct {
  guint32 n_chunks;
  guint32 n_syscalls;        /* the SUMMARY's n_syscalls */
} SeismoChunkSyscallsInfo;

_Static_assert (sizeof (SeismoChunkSyscallsInfo) == 8, "chunk syscalls info is 8 bytes");

/* STACK_TABLES (minor version 2): the whole interned stack tables of seismo-stacks.h, written once
 * after the chunks (a later record replaces an earlier one). Data: n_strings strings (varint
 * length, bytes; they are string indexes 1..n, 0 is "none"), n_frames frames, n_stacks stacks
 * (ids 1..n: varint frame count, frame ids), n_mappings mappings, n_ksyms kernel symbols sorted by
 * address (delta-coded). docs/file-format.md spells each entry. */
typedef struct {
  guint32 n_strings;
  guint32 n_frames;
  guint32 n_stacks;
  guint32 n_mappings;
  guint32 n_ksyms;
  guint32 reserved;
} SeismoStackTablesInfo;

/* STACK_IDS (minor version 2): the stack ids of events [first_event, first_event + n_events), one
 * varint each (0: no stack), in file order; one record per chunk that has any stack. */
typedef struct {
  guint64 first_event;
  guint32 n_events;
  guint32 reserved;
} SeismoStackIdsInfo;

_Static_assert (sizeof (SeismoStackTablesInfo) == 24, "stack tables info is 24 bytes");
_Static_assert (sizeof (SeismoStackIdsInfo) == 16, "stack ids info is 16 bytes");

struct _SeismoStackTable;
/* seismo-file-stacks.c: the stack records' data parts. info is filled in little-endian. */
void     _seismo_file_encode_stack_tables (GByteArray                  *b,
                                           struct _SeismoStackTable    *table,
                                           SeismoStackTablesInfo       *info);
/* info in host order. NULL with *reason set when the data is wrong. */
struct _SeismoStackTable *
         _seismo_file_decode_stack_tables (const guint8                *raw,
                                           gsize                        len,
                                           const SeismoStackTablesInfo *info,
                                           char                       **reason);
void     _seismo_file_encode_stack_ids    (GByteArray                  *b,
                                           const guint32               *ids,
                                           gsize                        n);
gboolean _seismo_file_decode_stack_ids    (const guint8                *raw,
                                           gsize                        len,
                                           guint32                     *out,
                                           gsize                        n,
                                           guint32                      n_stacks,
                                           char                       **reason);

_Static_assert (sizeof (SeismoFileHeader) == 32, "file header is 32 bytes");
_Static_assert (sizeof (SeismoRecordHeader) == 40, "record header is 40 bytes");
_Static_assert (sizeof (SeismoInfoRecord) == 8, "info record is 8 bytes");
_Static_assert (sizeof (SeismoTableInfo) == 8, "table info is 8 bytes");
_Static_assert (sizeof (SeismoChunkInfo) == 48, "chunk info is 48 bytes");
_Static_assert (sizeof (SeismoIndexInfo) == 40, "index info is 40 bytes");
_Static_assert (sizeof (SeismoIndexEntry) == 48, "index entry is 48 bytes");
_Static_assert (sizeof (SeismoFileTrailer) == 32, "trailer is 32 bytes");

/* Metadata key the reader sets when it returns less than a complete file; never saved. */
#define SEISMO_META_LOAD_WARNING "load_warning"

/* seismo_file_load() without the sort and derive steps: the trace is checked (validated) but not
 * ready for queries until the caller runs _seismo_trace_sort() and _seismo_trace_derive(). For
 * the benchmark, which times the format apart from the model. */
SeismoTrace *_seismo_file_read (const char          *path,
                                GCancellable        *cancellable,
                                SeismoProgressFunc   progress,
                                gpointer             progress_data,
                                GError             **error);

/* What a partial read learns of the file beyond the trace it returns. */
typedef struct {
  guint             n_chunks;        /* chunks in the file */
  gboolean          indexed;         /* finished: index and trailer present */
  SeismoIndexInfo   index;           /* host order, when indexed */
  GArray           *chunks;          /* SeismoIndexEntry of the chunks, host order (indexed only) */
  SeismoSummaryInfo summary_info;    /* host order, when summary != NULL */
  GBytes           *summary;         /* the SUMMARY record's data, checked and decompressed */
  guint64           summary_offset;  /* of its record, for messages */
  SeismoChunkSyscallsInfo chunk_syscalls_info;   /* host order, when chunk_syscalls != NULL */
  GBytes           *chunk_syscalls;  /* the CHUNK_SYSCALLS record's data (files from 1.3 on) */
  guint64           chunk_syscalls_offset;
} SeismoFilePart;

/* Reads the tables and only chunks [first_chunk, first_chunk + n_chunks) of a .seismo file (none
 * when n_chunks is 0), sorted and derived: a time window of a trace too large to load, with the
 * whole trace's tables. part (optional) receives the index and the summary. */
SeismoTrace *_seismo_file_read_part  (const char      *path,
                                      guint            first_chunk,
                                      guint            n_chunks,
                                      GCancellable    *cancellable,
                                      SeismoFilePart  *part,
                                      GError         **error);
void         _seismo_file_part_clear (SeismoFilePart  *part);

/* CRC32C (Castagnoli), reflected, init and final xor 0xffffffff; crc is 0 to start. */
guint32 _seismo_crc32c (guint32       crc,
                        const void   *data,
                        gsize         len);
/* The same, always without the CPU's CRC instruction (for tests of the fallback). */
guint32 _seismo_crc32c_portable (guint32     crc,
                                 const void *data,
                                 gsize       len);

/* Converts the multi-byte fields between file (little-endian) and host order in place. */
void    _seismo_file_header_swap  (SeismoFileHeader   *h);
void    _seismo_record_header_swap (SeismoRecordHeader *h);
void    _seismo_chunk_info_swap   (SeismoChunkInfo    *c);
void    _seismo_index_info_swap   (SeismoIndexInfo    *i);
void    _seismo_index_entry_swap  (SeismoIndexEntry   *e);
void    _seismo_trailer_swap      (SeismoFileTrailer  *t);
void    _seismo_summary_info_swap (SeismoSummaryInfo  *s);
void    _seismo_chunk_syscalls_info_swap (SeismoChunkSyscallsInfo *s);

/* Runs func (i, worker, data) for i in [0, n) on up to n_workers threads, the caller's included;
 * worker is in [0, n_workers). Returns when all are done. */
typedef void (*SeismoParallelFunc) (guint    i,
                                    guint    worker,
                                    gpointer data);
void    _seismo_file_parallel_for (guint              n,
                                   guint              n_workers,
                                   SeismoParallelFunc func,
                                   gpointer           data);
guint   _seismo_file_n_workers    (void);

G_END_DECLS

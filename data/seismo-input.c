/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "seismo-error.h"
#include "seismo-input.h"

#define HEAD_SIZE   4096
#define CHUNK_SIZE  (256 * 1024)

struct _SeismoInput
{
  char     *name;          /* what the user gave ("stdin" for "-") */
  char     *path;          /* what importers open */
  char     *spool_name;    /* a named spool file to unlink when /proc/self/fd is unavailable */
  int       spool_fd;      /* -1 when used in place */
  guint8    head[HEAD_SIZE];
  gsize     head_len;
  const char *compression;
  gboolean  folder;
};

/* ---- reading the source --------------------------------------------------------------------- */

/* The input as a byte stream: the bytes already read to recognise it, then the rest of fd. */
typedef struct {
  int           fd;
  const char   *name;
  const guint8 *replay;
  gsize         replay_len;
  GCancellable *cancellable;
  guint64       n_read;
} Source;

static gssize
source_read (Source  *src,
             guint8  *buf,
             gsize    size,
             GError **error)
{
  if (src->replay_len > 0)
    {
      gsize n = MIN (size, src->replay_len);

      memcpy (buf, src->replay, n);
      src->replay += n;
      src->replay_len -= n;
      return (gssize) n;
    }
  if (g_cancellable_set_error_if_cancelled (src->cancellable, error))
    return -1;
  for (;;)
    {
      gssize n = read (src->fd, buf, size);

      if (n >= 0)
        {
          src->n_read += (guint64) n;
          return n;
        }
      if (errno == EINTR)
        continue;
      {
        int errsv = errno;

        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                     _("Could not read %s: %s"), src->name, g_strerror (errsv));
        return -1;
      }
    }
}

static gboolean
write_all (int            fd,
           const guint8  *buf,
           gsize          len,
           const char    *name,
           GError       **error)
{
  while (len > 0)
    {
      gssize n = write (fd, buf, len);

      if (n < 0)
        {
          int errsv = errno;

          if (errsv == EINTR)
            continue;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Could not copy %s to a temporary file in %s: %s"), name,
                       g_get_tmp_dir (), g_strerror (errsv));
          return FALSE;
        }
      buf += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static void
set_corrupt (GError    **error,
             const char *name,
             const char *format,
             const char *why)
{
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_CORRUPT,
               _("%s is damaged %s data: %s"), name, format, why);
}

/* ---- decompressors: one per format, each copies src to out ---------------------------------- */

static gboolean
copy_plain (Source  *src,
            int      out,
            GError **error)
{
  g_autofree guint8 *buf = g_malloc (CHUNK_SIZE);

  for (;;)
    {
      gssize n = source_read (src, buf, CHUNK_SIZE, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        return TRUE;
      if (!write_all (out, buf, (gsize) n, src->name, error))
        return FALSE;
    }
}

static gboolean
inflate_gzip (Source  *src,
              int      out,
              GError **error)
{
  g_autofree guint8 *in = g_malloc (CHUNK_SIZE);
  g_autofree guint8 *obuf = g_malloc (CHUNK_SIZE);
  z_stream zs = { 0 };
  gboolean ended = FALSE, ok = FALSE;
  int ret;

  /* 15 + 32: a window of any size, gzip or zlib header detected. */
  if (inflateInit2 (&zs, 15 + 32) != Z_OK)
    {
      set_corrupt (error, src->name, "gzip", _("zlib could not start"));
      return FALSE;
    }
  for (;;)
    {
      if (zs.avail_in == 0)
        {
          gssize n = source_read (src, in, CHUNK_SIZE, error);

          if (n < 0)
            goto out;
          if (n == 0)
            {
              if (!ended)
                {
                  set_corrupt (error, src->name, "gzip", _("it ends in the middle of a stream"));
                  goto out;
                }
              break;
            }
          zs.next_in = in;
          zs.avail_in = (uInt) n;
        }
      /* gzip files may be several members one after the other (cat a.gz b.gz). */
      if (ended)
        {
          inflateReset (&zs);
          ended = FALSE;
        }
      zs.next_out = obuf;
      zs.avail_out = CHUNK_SIZE;
      ret = inflate (&zs, Z_NO_FLUSH);
      if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
        {
          set_corrupt (error, src->name, "gzip", zs.msg ? zs.msg : _("inflate failed"));
          goto out;
        }
      if (!write_all (out, obuf, CHUNK_SIZE - zs.avail_out, src->name, error))
        goto out;
      if (ret == Z_STREAM_END)
        ended = TRUE;
    }
  ok = TRUE;
out:
  inflateEnd (&zs);
  return ok;
}

static gboolean
inflate_zstd (Source  *src,
              int      out,
              GError **error)
{
  gsize in_size = ZSTD_DStreamInSize (), out_size = ZSTD_DStreamOutSize ();
  g_autofree guint8 *in = g_malloc (in_size);
  g_autofree guint8 *obuf = g_malloc (out_size);
  ZSTD_DCtx *dctx = ZSTD_createDCtx ();
  gsize last = 1;
  gboolean ok = FALSE;

  for (;;)
    {
      gssize n = source_read (src, in, in_size, error);
      ZSTD_inBuffer ib = { in, 0, 0 };

      if (n < 0)
        goto out;
      if (n == 0)
        break;
      ib.size = (gsize) n;
      while (ib.pos < ib.size)
        {
          ZSTD_outBuffer ob = { obuf, out_size, 0 };

          last = ZSTD_decompressStream (dctx, &ob, &ib);
          if (ZSTD_isError (last))
            {
              set_corrupt (error, src->name, "zstd", ZSTD_getErrorName (last));
              goto out;
            }
          if (!write_all (out, obuf, ob.pos, src->name, error))
            goto out;
        }
    }
  /* Frames are concatenated freely; 0 means the last one ended. Flush what the decoder holds. */
  for (;;)
    {
      ZSTD_inBuffer ib = { in, 0, 0 };
      ZSTD_outBuffer ob = { obuf, out_size, 0 };

      if (last == 0)
        break;
      last = ZSTD_decompressStream (dctx, &ob, &ib);
      if (ZSTD_isError (last))
        {
          set_corrupt (error, src->name, "zstd", ZSTD_getErrorName (last));
          goto out;
        }
      if (!write_all (out, obuf, ob.pos, src->name, error))
        goto out;
      if (ob.pos == 0 && last != 0)
        {
          set_corrupt (error, src->name, "zstd", _("it ends in the middle of a frame"));
          goto out;
        }
    }
  ok = TRUE;
out:
  ZSTD_freeDCtx (dctx);
  return ok;
}

static gboolean
inflate_xz (Source  *src,
            int      out,
            GError **error)
{
  g_autofree guint8 *in = g_malloc (CHUNK_SIZE);
  g_autofree guint8 *obuf = g_malloc (CHUNK_SIZE);
  lzma_stream xs = LZMA_STREAM_INIT;
  lzma_action action = LZMA_RUN;
  gboolean ok = FALSE;

  if (lzma_stream_decoder (&xs, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    {
      set_corrupt (error, src->name, "xz", _("liblzma could not start"));
      return FALSE;
    }
  for (;;)
    {
      lzma_ret ret;

      if (xs.avail_in == 0 && action == LZMA_RUN)
        {
          gssize n = source_read (src, in, CHUNK_SIZE, error);

          if (n < 0)
            goto out;
          if (n == 0)
            action = LZMA_FINISH;
          xs.next_in = in;
          xs.avail_in = (gsize) n;
        }
      xs.next_out = obuf;
      xs.avail_out = CHUNK_SIZE;
      ret = lzma_code (&xs, action);
      if (!write_all (out, obuf, CHUNK_SIZE - xs.avail_out, src->name, error))
        goto out;
      if (ret == LZMA_STREAM_END)
        break;
      if (ret != LZMA_OK)
        {
          set_corrupt (error, src->name, "xz",
                       ret == LZMA_BUF_ERROR ? _("it ends in the middle of a stream")
                       : ret == LZMA_MEMLIMIT_ERROR || ret == LZMA_MEM_ERROR ? _("out of memory")
                       : _("the data does not decode"));
          goto out;
        }
    }
  ok = TRUE;
out:
  lzma_end (&xs);
  return ok;
}

static gboolean
inflate_bzip2 (Source  *src,
               int      out,
               GError **error)
{
  g_autofree guint8 *in = g_malloc (CHUNK_SIZE);
  g_autofree guint8 *obuf = g_malloc (CHUNK_SIZE);
  bz_stream bs = { 0 };
  gboolean ended = FALSE, ok = FALSE, started = FALSE;

  for (;;)
    {
      int ret;

      if (bs.avail_in == 0)
        {
          gssize n = source_read (src, in, CHUNK_SIZE, error);

          if (n < 0)
            goto out;
          if (n == 0)
            {
              if (!ended)
                {
                  set_corrupt (error, src->name, "bzip2", _("it ends in the middle of a stream"));
                  goto out;
                }
              break;
            }
          bs.next_in = (char *) in;
          bs.avail_in = (unsigned) n;
        }
      /* pbzip2 and cat write several streams one after the other. */
      if (!started || ended)
        {
          if (started)
            BZ2_bzDecompressEnd (&bs);
          if (BZ2_bzDecompressInit (&bs, 0, 0) != BZ_OK)
            {
              set_corrupt (error, src->name, "bzip2", _("libbz2 could not start"));
              started = FALSE;
              goto out;
            }
          started = TRUE;
          ended = FALSE;
        }
      bs.next_out = (char *) obuf;
      bs.avail_out = CHUNK_SIZE;
      ret = BZ2_bzDecompress (&bs);
      if (ret != BZ_OK && ret != BZ_STREAM_END)
        {
          set_corrupt (error, src->name, "bzip2", _("the data does not decode"));
          goto out;
        }
      if (!write_all (out, obuf, CHUNK_SIZE - bs.avail_out, src->name, error))
        goto out;
      if (ret == BZ_STREAM_END)
        ended = TRUE;
    }
  ok = TRUE;
out:
  if (started)
    BZ2_bzDecompressEnd (&bs);
  return ok;
}

/* Recognised by magic, never by name: people rename, pipe and attach files. */
static const struct {
  const char *name;
  guint8      magic[6];
  gsize       magic_len;
  gboolean  (*inflate) (Source *src, int out, GError **error);
} codecs[] = {
  { "gzip",  { 0x1f, 0x8b, 0x08 },                   3, inflate_gzip },
  { "zstd",  { 0x28, 0xb5, 0x2f, 0xfd },             4, inflate_zstd },
  { "xz",    { 0xfd, '7', 'z', 'X', 'Z', 0x00 },     6, inflate_xz },
  { "bzip2", { 'B', 'Z', 'h' },                      3, inflate_bzip2 },
};

static int
find_codec (const guint8 *head,
            gsize         len)
{
  for (guint i = 0; i < G_N_ELEMENTS (codecs); i++)
    if (len >= codecs[i].magic_len && memcmp (head, codecs[i].magic, codecs[i].magic_len) == 0)
      {
        /* "BZh" starts plain text too: also require the block size digit and a block magic. */
        if (codecs[i].inflate == inflate_bzip2 &&
            !(len >= 10 && head[3] >= '1' && head[3] <= '9' &&
              (memcmp (head + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0 ||
               memcmp (head + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0)))
          continue;
        return (int) i;
      }
  return -1;
}

/* ---- the spool file ------------------------------------------------------------------------- */

static gboolean
open_spool (SeismoInput  *input,
            GError      **error)
{
  const char *dir = g_get_tmp_dir ();
  int fd;

#ifdef O_TMPFILE
  fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    {
      g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", fd);

      if (access (proc, R_OK) == 0)
        {
          input->spool_fd = fd;
          input->path = g_steal_pointer (&proc);
          return TRUE;
        }
      close (fd);
    }
#endif
  /* No O_TMPFILE or no /proc: a named file, unlinked when the input is freed. */
  fd = g_file_open_tmp ("seismo-input-XXXXXX", &input->spool_name, error);
  if (fd < 0)
    return FALSE;
  input->spool_fd = fd;
  input->path = g_strdup (input->spool_name);
  return TRUE;
}

/* Reads at least want bytes (or up to the end) into buf. */
static gssize
read_head (int          fd,
           guint8      *buf,
           gsize        size,
           const char  *name,
           GError     **error)
{
  gsize got = 0;

  while (got < size)
    {
      gssize n = read (fd, buf + got, size - got);

      if (n < 0)
        {
          int errsv = errno;

          if (errsv == EINTR)
            continue;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Could not read %s: %s"), name, g_strerror (errsv));
          return -1;
        }
      if (n == 0)
        break;
      got += (gsize) n;
    }
  return (gssize) got;
}

/* Anonymous pipes live on pipefs; named FIFOs on a real file system. */
static gboolean
is_anonymous_pipe (const struct stat *st)
{
  static gsize pipefs_dev = 0;
  static dev_t dev;

  if (g_once_init_enter (&pipefs_dev))
    {
      int fds[2];
      struct stat pst = { 0 };

      if (pipe2 (fds, O_CLOEXEC) == 0)
        {
          fstat (fds[0], &pst);
          close (fds[0]);
          close (fds[1]);
        }
      dev = pst.st_dev;
      g_once_init_leave (&pipefs_dev, 1);
    }
  return st->st_dev == dev;
}

/* A named FIFO: wait a little for a writer's data (or its close) instead of blocking forever. */
static gboolean
wait_for_writer (int          fd,
                 const char  *name,
                 GError     **error)
{
  struct pollfd pfd = { fd, POLLIN, 0 };
  gint64 deadline = g_get_monotonic_time () + SEISMO_INPUT_FIFO_WAIT_MS * 1000;

  for (;;)
    {
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      int n;

      if (left <= 0)
        break;
      n = poll (&pfd, 1, (int) left);
      if (n > 0)
        return TRUE;
      if (n < 0 && errno != EINTR)
        break;
    }
  g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
               _("Nothing is writing to the FIFO %s: no data came within %d ms "
               "(start the writer first, or pipe it: WRITER | seismo-cli … -)"),
               name, SEISMO_INPUT_FIFO_WAIT_MS);
  return FALSE;
}

static gboolean
clear_nonblock (int          fd,
                const char  *name,
                GError     **error)
{
  int flags = fcntl (fd, F_GETFL);

  if (flags < 0 || fcntl (fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not read %s: %s"), name, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

/* Copies the stream (decompressing it) to the spool, then reads the spool's head. */
static gboolean
spool (SeismoInput   *input,
       int            fd,
       const guint8  *first,
       gsize          first_len,
       GCancellable  *cancellable,
       GError       **error)
{
  Source src = { fd, input->name, first, first_len, cancellable, 0 };
  int codec = find_codec (first, first_len);
  gssize n;

  if (!open_spool (input, error))
    return FALSE;
  if (codec >= 0)
    input->compression = codecs[codec].name;
  if (!(codec >= 0 ? codecs[codec].inflate (&src, input->spool_fd, error)
                   : copy_plain (&src, input->spool_fd, error)))
    return FALSE;
  n = pread (input->spool_fd, input->head, sizeof input->head, 0);
  if (n < 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not read back %s from %s: %s"), input->name, g_get_tmp_dir (),
                   g_strerror (errsv));
      return FALSE;
    }
  input->head_len = (gsize) n;
  return TRUE;
}

SeismoInput *
seismo_input_open (const char    *path,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(SeismoInput) input = NULL;
  gboolean is_stdin;
  struct stat st;
  int fd;
  gssize n;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  is_stdin = strcmp (path, "-") == 0;
  input = g_new0 (SeismoInput, 1);
  input->spool_fd = -1;
  input->name = g_strdup (is_stdin ? "stdin" : path);

  if (is_stdin)
    fd = STDIN_FILENO;
  else
    {
      /* O_NONBLOCK: opening a FIFO without a writer must not block; cleared below. */
      fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
      if (fd < 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Could not open %s: %s"), path, g_strerror (errsv));
          return NULL;
        }
    }

  if (fstat (fd, &st) < 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not open %s: %s"), input->name, g_strerror (errsv));
      goto fail;
    }

  if (S_ISDIR (st.st_mode))
    {
      input->folder = TRUE;
      input->path = g_strdup (path);
      if (!is_stdin)
        close (fd);
      return g_steal_pointer (&input);
    }

  if (S_ISFIFO (st.st_mode) && !is_anonymous_pipe (&st) && !wait_for_writer (fd, input->name, error))
    goto fail;
  if (!S_ISREG (st.st_mode) && !clear_nonblock (fd, input->name, error))
    goto fail;

  n = read_head (fd, input->head, sizeof input->head, input->name, error);
  if (n < 0)
    goto fail;
  input->head_len = (gsize) n;

  if (S_ISREG (st.st_mode) && !is_stdin && find_codec (input->head, input->head_len) < 0)
    {
      /* The common case: the file itself, mapped by its importer. */
      input->path = g_strdup (path);
      close (fd);
      return g_steal_pointer (&input);
    }

  {
    guint8 first[HEAD_SIZE];
    gsize first_len = input->head_len;

    memcpy (first, input->head, first_len);
    if (!spool (input, fd, first, first_len, cancellable, error))
      goto fail;
  }
  if (!is_stdin)
    close (fd);
  return g_steal_pointer (&input);

fail:
  if (!is_stdin)
    close (fd);
  return NULL;
}

void
seismo_input_free (SeismoInput *input)
{
  if (input == NULL)
    return;
  if (input->spool_fd >= 0)
    close (input->spool_fd);
  if (input->spool_name)
    {
      unlink (input->spool_name);
      g_free (input->spool_name);
    }
  g_free (input->name);
  g_free (input->path);
  g_free (input);
}

const char *
seismo_input_get_path (SeismoInput *input)
{
  g_return_val_if_fail (input != NULL, NULL);
  return input->path;
}

const char *
seismo_input_get_name (SeismoInput *input)
{
  g_return_val_if_fail (input != NULL, NULL);
  return input->name;
}

const guint8 *
seismo_input_get_head (SeismoInput *input,
                       gsize       *len)
{
  g_return_val_if_fail (input != NULL, NULL);
  *len = input->head_len;
  return input->head;
}

const char *
seismo_input_get_compression (SeismoInput *input)
{
  g_return_val_if_fail (input != NULL, NULL);
  return input->compression;
}

gboolean
seismo_input_is_folder (SeismoInput *input)
{
  g_return_val_if_fail (input != NULL, FALSE);
  return input->folder;
}

gboolean
seismo_input_is_spooled (SeismoInput *input)
{
  g_return_val_if_fail (input != NULL, FALSE);
  return input->spool_fd >= 0;
}

void
seismo_input_fix_error (SeismoInput *input,
                        GError      *error)
{
  g_autoptr(GString) msg = NULL;

  g_return_if_fail (input != NULL);
  if (error == NULL || input->spool_fd < 0 || strstr (error->message, input->path) == NULL)
    return;
  msg = g_string_new (error->message);
  g_string_replace (msg, input->path, input->name, 0);
  g_free (error->message);
  error->message = g_string_free (g_steal_pointer (&msg), FALSE);
}

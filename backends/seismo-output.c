/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seismo-errno-error.h"
#include "seismo-error.h"
#include "seismo-file.h"
#include "seismo-output.h"
#include "seismo-user.h"

G_DEFINE_QUARK (seismo-output-error-quark, seismo_output_error)

#define LIVE_SUFFIX ".live"

/* What the actor (the helper, or this process) does in the folder. Each request names files
 * relative to the folder's descriptor; none follows a symlink. */
typedef enum {
  OP_STAT = 1,   /* name: lstat */
  OP_CHECK,      /* name: absent, or a regular file the actor may write */
  OP_CREATE,     /* name: a new regular file, mode 0600 (fd) */
  OP_OPEN,       /* name: an existing regular file, read-write (fd) */
  OP_RENAME,     /* name → name2, while name is still dev/ino and name2 is absent or regular */
  OP_UNLINK,     /* name, while it is still dev/ino */
} Op;

/* Not an errno: the name exists and is not a regular file. */
#define ERR_NOT_REGULAR 100000

typedef struct {
  guint32 op;
  guint32 pad;
  guint64 dev;
  guint64 ino;
  char    name[NAME_MAX + 1];
  char    name2[NAME_MAX + 1];
} Request;

typedef struct {
  gint32  err;      /* 0, an errno or ERR_NOT_REGULAR */
  guint32 mode;
  guint64 dev;
  guint64 ino;
  guint64 nlink;
  guint32 uid;
  guint32 pad;
} Reply;

struct _SeismoOutput
{
  char    *path;          /* as given, for messages */
  char    *partial_path;
  char    *base;          /* names inside the folder */
  char    *partial_name;
  char    *live_name;
  uid_t    owner;         /* who the files are made for (the actor's identity) */

  int      dirfd;         /* in-process actor: the folder; -1 with a helper */
  int      sock;          /* helper's end of the conversation; -1 without */
  GPid     helper;

  int      partial_fd;
  guint64  partial_dev;
  guint64  partial_ino;
  gboolean have_live;
  guint64  live_dev;
  guint64  live_ino;
};

/* ---------------------------------------------------------------------------------------------- */
/* The actor: runs in the helper after fork(), so it makes system calls only (no allocation).     */

static void
reply_stat (Reply             *rep,
            const struct stat *st)
{
  rep->mode = st->st_mode;
  rep->dev = st->st_dev;
  rep->ino = st->st_ino;
  rep->nlink = st->st_nlink;
  rep->uid = st->st_uid;
}

static gboolean
still_same (int            dirfd,
            const char    *name,
            const Request *req,
            Reply         *rep)
{
  struct stat st;

  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    {
      rep->err = errno;
      return FALSE;
    }
  if ((guint64) st.st_dev != req->dev || (guint64) st.st_ino != req->ino)
    {
      rep->err = ESTALE;
      return FALSE;
    }
  return TRUE;
}

static int
actor_do (int            dirfd,
          const Request *req,
          Reply         *rep)
{
  struct stat st, st2;
  int fd = -1;

  memset (rep, 0, sizeof *rep);
  switch (req->op)
    {
    case OP_STAT:
      if (fstatat (dirfd, req->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        rep->err = errno;
      else
        reply_stat (rep, &st);
      break;

    case OP_CHECK:
      if (fstatat (dirfd, req->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        {
          rep->err = errno;
          break;
        }
      reply_stat (rep, &st);
      if (!S_ISREG (st.st_mode))
        rep->err = ERR_NOT_REGULAR;
      else if (faccessat (dirfd, req->name, W_OK, AT_EACCESS) < 0)
        rep->err = errno;
      break;

    case OP_CREATE:
      fd = openat (dirfd, req->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
                   0600);
      if (fd < 0 || fstat (fd, &st) < 0 || fchmod (fd, 0600) < 0)
        {
          rep->err = errno;
          break;
        }
      reply_stat (rep, &st);
      break;

    case OP_OPEN:
      /* Looked at before it is opened: opening a device or FIFO can itself have effects. */
      if (fstatat (dirfd, req->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        {
          rep->err = errno;
          break;
        }
      if (!S_ISREG (st.st_mode))
        {
          rep->err = ERR_NOT_REGULAR;
          break;
        }
      fd = openat (dirfd, req->name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
      if (fd < 0 || fstat (fd, &st2) < 0)
        {
          rep->err = errno;
          break;
        }
      if (!S_ISREG (st2.st_mode) || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino)
        {
          rep->err = ERR_NOT_REGULAR;
          break;
        }
      if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) < 0)
        {
          rep->err = errno;
          break;
        }
      reply_stat (rep, &st2);
      break;

    case OP_RENAME:
      if (!still_same (dirfd, req->name, req, rep))
        break;
      if (fstatat (dirfd, req->name2, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG (st.st_mode))
        {
          rep->err = ERR_NOT_REGULAR;
          break;
        }
      if (renameat (dirfd, req->name, dirfd, req->name2) < 0)
        rep->err = errno;
      /* The rename is durable once the folder is; a folder that cannot sync (EINVAL on some
       * file systems) leaves a complete file all the same. */
      else if (fsync (dirfd) < 0 && errno != EINVAL)
        rep->err = errno;
      break;

    case OP_UNLINK:
      if (still_same (dirfd, req->name, req, rep) && unlinkat (dirfd, req->name, 0) < 0)
        rep->err = errno;
      break;

    default:
      rep->err = EINVAL;
      break;
    }

  if (rep->err != 0 && fd >= 0)
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

static gboolean
send_reply (int          sock,
            const Reply *rep,
            int          fd)
{
  struct iovec iov = { (void *) rep, sizeof *rep };
  union {
    char           buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } control;
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

  if (fd >= 0)
    {
      struct cmsghdr *c;

      memset (&control, 0, sizeof control);
      msg.msg_control = control.buf;
      msg.msg_controllen = sizeof control.buf;
      c = CMSG_FIRSTHDR (&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN (sizeof (int));
      memcpy (CMSG_DATA (c), &fd, sizeof fd);
    }
  while (sendmsg (sock, &msg, MSG_NOSIGNAL) < 0)
    if (errno != EINTR)
      return FALSE;
  return TRUE;
}

/* The helper: the user's identity, the folder opened as that user, then requests until the
 * recorder closes its end (or dies: then so does the helper). */
G_GNUC_NORETURN static void
helper_main (int                       sock,
             const SeismoUserIdentity *id,
             const char               *dir,
             pid_t                     parent)
{
  Reply rep = { 0 };
  Request req;
  int dirfd;

  if (seismo_user_identity_become (id) != 0)
    _exit (126);
  /* Set after the identity change, which clears it; a parent already gone is caught by getppid. */
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid () != parent)
    _exit (126);
  /* Nothing of root's but the conversation stays open here. */
  if (sock != 3 && (dup2 (sock, 3) < 0 || close (sock) < 0))
    _exit (126);
  sock = 3;
  close_range (4, ~0U, 0);

  dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0)
    rep.err = errno;
  else if (faccessat (dirfd, ".", W_OK | X_OK, AT_EACCESS) < 0)
    rep.err = errno;
  if (!send_reply (sock, &rep, -1) || rep.err != 0)
    _exit (0);

  for (;;)
    {
      ssize_t n = recv (sock, &req, sizeof req, 0);
      int fd;

      if (n < 0 && errno == EINTR)
        continue;
      if (n != (ssize_t) sizeof req)
        _exit (0);
      req.name[NAME_MAX] = req.name2[NAME_MAX] = '\0';
      fd = actor_do (dirfd, &req, &rep);
      if (!send_reply (sock, &rep, fd))
        _exit (0);
      if (fd >= 0)
        close (fd);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* The recorder's side                                                                             */

/* Runs req through the actor; *fd (when not NULL) receives the descriptor it opened, or -1.
 * FALSE only when the helper is gone: the operation's own result is rep->err. */
static gboolean
run (SeismoOutput  *self,
     const Request *req,
     Reply         *rep,
     int           *fd,
     GError       **error)
{
  union {
    char           buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } control;
  struct iovec iov = { rep, sizeof *rep };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                        .msg_control = control.buf, .msg_controllen = sizeof control.buf };
  struct cmsghdr *c;
  int got = -1;
  ssize_t n;

  if (fd != NULL)
    *fd = -1;
  if (self->sock < 0)
    {
      got = actor_do (self->dirfd, req, rep);
      if (fd != NULL)
        *fd = got;
      else if (got >= 0)
        close (got);
      return TRUE;
    }

  while (send (self->sock, req, sizeof *req, MSG_NOSIGNAL) < 0)
    if (errno != EINTR)
      return seismo_set_errno_error (error, errno, "The helper that writes %s as its user is gone",
                                     self->path);
  do
    n = recvmsg (self->sock, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n != (ssize_t) sizeof *rep)
    return seismo_set_errno_error (error, n < 0 ? errno : EPIPE,
                                   "The helper that writes %s as its user is gone", self->path);
  for (c = CMSG_FIRSTHDR (&msg); c != NULL; c = CMSG_NXTHDR (&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
        c->cmsg_len == CMSG_LEN (sizeof (int)))
      memcpy (&got, CMSG_DATA (c), sizeof got);
  if (fd != NULL)
    *fd = got;
  else if (got >= 0)
    close (got);
  return TRUE;
}

static void
request_init (Request    *req,
              Op          op,
              const char *name,
              const char *name2)
{
  memset (req, 0, sizeof *req);
  req->op = op;
  g_strlcpy (req->name, name, sizeof req->name);
  if (name2 != NULL)
    g_strlcpy (req->name2, name2, sizeof req->name2);
}

static const char *
file_kind (guint32 mode)
{
  switch (mode & S_IFMT)
    {
    case S_IFDIR: return "a folder";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
    default: return "not a regular file";
    }
}

static gboolean
set_not_regular (GError    **error,
                 const char *path,
                 guint32     mode)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, SEISMO_OUTPUT_ERROR, SEISMO_OUTPUT_ERROR_NOT_REGULAR,
               "%s is %s: a recording is written to a regular file only, and never replaces "
               "anything else", display, file_kind (mode));
  return FALSE;
}

static gboolean
set_op_error (GError    **error,
              int         err,
              const char *what,
              const char *path)
{
  g_autofree char *display = g_filename_display_name (path);

  return seismo_set_errno_error (error, err, "Could not %s %s", what, display);
}

SeismoOutput *
seismo_output_new (const char  *path,
                   GError     **error)
{
  g_autoptr(SeismoOutput) self = NULL;
  g_autofree char *dir = NULL;
  SeismoUserIdentity id = { 0 };
  Request req;
  Reply rep;
  gint64 uid;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (SeismoOutput, 1);
  self->dirfd = self->sock = self->partial_fd = -1;
  self->path = g_strdup (path);
  self->partial_path = g_strconcat (path, SEISMO_FILE_PARTIAL_SUFFIX, NULL);
  self->base = g_path_get_basename (path);
  if (g_str_has_suffix (path, "/") || strcmp (self->base, ".") == 0 ||
      strcmp (self->base, "..") == 0 || strcmp (self->base, "/") == 0)
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, SEISMO_OUTPUT_ERROR, SEISMO_OUTPUT_ERROR_NOT_REGULAR,
                   "%s is a folder: a recording is written to a regular file", display);
      return NULL;
    }
  self->partial_name = g_strconcat (self->base, SEISMO_FILE_PARTIAL_SUFFIX, NULL);
  self->live_name = g_strconcat (self->base, LIVE_SUFFIX, NULL);
  if (strlen (self->live_name) > NAME_MAX - 8)
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   "The file name of %s is too long", display);
      return NULL;
    }
  dir = g_path_get_dirname (path);

  if (!seismo_user_pkexec_uid (&uid, error) ||
      (uid >= 0 && !seismo_user_identity_of_uid (&id, (uid_t) uid, error)))
    return NULL;

  if (!id.drop)
    {
      self->owner = geteuid ();
      self->dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (self->dirfd < 0)
        {
          set_op_error (error, errno, "open the folder", dir);
          return NULL;
        }
    }
  else
    {
      int pair[2];
      pid_t parent = getpid ();

      self->owner = id.uid;
      if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
        {
          seismo_set_errno_error (error, errno, "Could not start the helper that writes %s", path);
          return NULL;
        }
      self->helper = fork ();
      if (self->helper == 0)
        {
          close (pair[0]);
          helper_main (pair[1], &id, dir, parent);
        }
      close (pair[1]);
      if (self->helper < 0)
        {
          close (pair[0]);
          self->helper = 0;
          seismo_set_errno_error (error, errno, "Could not start the helper that writes %s", path);
          return NULL;
        }
      self->sock = pair[0];
      /* Its first word: whether the user may write in the folder at all. */
      if (recv (self->sock, &rep, sizeof rep, 0) != (ssize_t) sizeof rep)
        {
          seismo_set_errno_error (error, EPIPE, "Could not start the helper that writes %s", path);
          return NULL;
        }
      if (rep.err != 0)
        {
          struct passwd *pw = getpwuid (id.uid);
          g_autofree char *display = g_filename_display_name (dir);

          g_set_error (error, SEISMO_ERROR,
                       rep.err == EACCES || rep.err == EPERM ? SEISMO_ERROR_PERMISSION
                                                             : SEISMO_ERROR_FAILED,
                       "User %s may not write in the folder %s (%s), so the recorder will not either",
                       pw ? pw->pw_name : "?", display, g_strerror (rep.err));
          return NULL;
        }
    }

  request_init (&req, OP_CHECK, self->base, NULL);
  if (!run (self, &req, &rep, NULL, error))
    return NULL;
  if (rep.err == ERR_NOT_REGULAR)
    {
      set_not_regular (error, path, rep.mode);
      return NULL;
    }
  if (rep.err != 0 && rep.err != ENOENT)
    {
      set_op_error (error, rep.err, "replace", path);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* Who holds a write lock on fd's file, or 0 when nobody (or a process we cannot see). */
static pid_t
lock_holder (int fd)
{
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

  if (fcntl (fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK)
    return 0;
  return fl.l_pid;
}

static gboolean
try_lock (int fd)
{
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

  return fcntl (fd, F_SETLK, &fl) == 0;
}

static gboolean
set_busy (GError    **error,
          const char *path,
          pid_t       pid)
{
  g_autofree char *display = g_filename_display_name (path);

  if (pid > 0)
    g_set_error (error, SEISMO_OUTPUT_ERROR, SEISMO_OUTPUT_ERROR_BUSY,
                 "Another recorder (pid %d) is writing to %s: stop it first, or choose another "
                 "file", (int) pid, display);
  else
    g_set_error (error, SEISMO_OUTPUT_ERROR, SEISMO_OUTPUT_ERROR_BUSY,
                 "Another recorder is writing to %s: stop it first, or choose another file",
                 display);
  return FALSE;
}

int
seismo_output_open_partial (SeismoOutput  *self,
                            GError       **error)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (self->partial_fd < 0, -1);

  /* Whoever removes OUTPUT.partial holds its lock first, and whoever keeps it checks, once it
   * holds the lock, that the name is still its file: so two recorders never both believe they
   * own it, whatever order they run in. */
  for (guint attempt = 0; attempt < 16; attempt++)
    {
      Request req;
      Reply rep, now;
      struct stat st;
      int fd;

      request_init (&req, OP_CREATE, self->partial_name, NULL);
      if (!run (self, &req, &rep, &fd, error))
        return -1;
      if (rep.err == EEXIST)
        {
          /* A stale file from a recorder that was killed, or a recorder still running. */
          request_init (&req, OP_OPEN, self->partial_name, NULL);
          if (!run (self, &req, &rep, &fd, error))
            return -1;
          if (rep.err == ENOENT)
            continue;
          if (rep.err == ERR_NOT_REGULAR || rep.err == ELOOP)
            {
              set_not_regular (error, self->partial_path, rep.err == ELOOP ? S_IFLNK : rep.mode);
              return -1;
            }
          if (rep.err != 0)
            {
              set_op_error (error, rep.err, "open", self->partial_path);
              return -1;
            }
          if (!try_lock (fd))
            {
              pid_t holder = lock_holder (fd);

              close (fd);
              set_busy (error, self->path, holder);
              return -1;
            }
          request_init (&req, OP_UNLINK, self->partial_name, NULL);
          req.dev = rep.dev;
          req.ino = rep.ino;
          if (!run (self, &req, &now, NULL, error))
            {
              close (fd);
              return -1;
            }
          close (fd);
          continue;
        }
      if (rep.err != 0)
        {
          set_op_error (error, rep.err, "create", self->partial_path);
          return -1;
        }

      if (!try_lock (fd))
        {
          pid_t holder = lock_holder (fd);

          close (fd);
          set_busy (error, self->path, holder);
          return -1;
        }
      /* What the helper handed over is checked here too: a new regular file of the user's. */
      if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || st.st_nlink != 1 ||
          st.st_uid != self->owner || (guint64) st.st_dev != rep.dev ||
          (guint64) st.st_ino != rep.ino)
        {
          close (fd);
          set_not_regular (error, self->partial_path, st.st_mode);
          return -1;
        }
      request_init (&req, OP_STAT, self->partial_name, NULL);
      if (!run (self, &req, &now, NULL, error))
        {
          close (fd);
          return -1;
        }
      if (now.err != 0 || now.dev != rep.dev || now.ino != rep.ino)
        {
          close (fd);   /* another recorder removed it between our create and our lock */
          continue;
        }
      self->partial_fd = fd;
      self->partial_dev = rep.dev;
      self->partial_ino = rep.ino;
      return fd;
    }
  set_busy (error, self->path, 0);
  return -1;
}

gboolean
seismo_output_commit (SeismoOutput  *self,
                      GError       **error)
{
  Request req;
  Reply rep;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->partial_fd >= 0, FALSE);

  request_init (&req, OP_RENAME, self->partial_name, self->base);
  req.dev = self->partial_dev;
  req.ino = self->partial_ino;
  if (!run (self, &req, &rep, NULL, error))
    return FALSE;
  if (rep.err == ERR_NOT_REGULAR)
    return set_not_regular (error, self->path, rep.mode);
  if (rep.err == ESTALE || rep.err == ENOENT)
    {
      g_autofree char *display = g_filename_display_name (self->partial_path);

      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_FAILED,
                   "%s was removed or replaced while recording: the recording is not kept",
                   display);
      return FALSE;
    }
  if (rep.err != 0)
    return set_op_error (error, rep.err, "rename the finished recording to", self->path);
  self->partial_dev = self->partial_ino = 0;
  return TRUE;
}

void
seismo_output_discard (SeismoOutput *self)
{
  Request req;
  Reply rep;

  g_return_if_fail (self != NULL);

  if (self->partial_fd < 0 || self->partial_ino == 0)
    return;
  request_init (&req, OP_UNLINK, self->partial_name, NULL);
  req.dev = self->partial_dev;
  req.ino = self->partial_ino;
  run (self, &req, &rep, NULL, NULL);
  self->partial_dev = self->partial_ino = 0;
}

gboolean
seismo_output_write_live (SeismoOutput  *self,
                          SeismoTrace   *snapshot,
                          GError       **error)
{
  g_autofree char *tmp = NULL;
  Request req;
  Reply rep, done;
  gboolean ok;
  int fd;

  g_return_val_if_fail (self != NULL, FALSE);

  tmp = g_strdup_printf (".%s.%08x", self->live_name, g_random_int ());
  request_init (&req, OP_CREATE, tmp, NULL);
  if (!run (self, &req, &rep, &fd, error))
    return FALSE;
  if (rep.err != 0)
    return set_op_error (error, rep.err, "create a snapshot next to", self->path);

  ok = seismo_file_save_to_fd (snapshot, fd, self->path, error);
  close (fd);
  request_init (&req, ok ? OP_RENAME : OP_UNLINK, tmp, ok ? self->live_name : NULL);
  req.dev = rep.dev;
  req.ino = rep.ino;
  if (!run (self, &req, &done, NULL, ok ? error : NULL))
    return FALSE;
  if (!ok)
    return FALSE;
  if (done.err != 0)
    {
      request_init (&req, OP_UNLINK, tmp, NULL);
      req.dev = rep.dev;
      req.ino = rep.ino;
      run (self, &req, &done, NULL, NULL);
      return set_op_error (error, done.err == ERR_NOT_REGULAR ? EEXIST : done.err,
                           "replace the live snapshot of", self->path);
    }
  self->have_live = TRUE;
  self->live_dev = rep.dev;
  self->live_ino = rep.ino;
  return TRUE;
}

void
seismo_output_remove_live (SeismoOutput *self)
{
  Request req;
  Reply rep;

  g_return_if_fail (self != NULL);

  if (!self->have_live)
    return;
  request_init (&req, OP_UNLINK, self->live_name, NULL);
  req.dev = self->live_dev;
  req.ino = self->live_ino;
  run (self, &req, &rep, NULL, NULL);
  self->have_live = FALSE;
}

const char *
seismo_output_get_path (SeismoOutput *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

const char *
seismo_output_get_partial_path (SeismoOutput *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->partial_path;
}

GPid
seismo_output_get_actor_pid (SeismoOutput *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->helper > 0 ? self->helper : getpid ();
}

void
seismo_output_free (SeismoOutput *self)
{
  if (self == NULL)
    return;
  if (self->partial_fd >= 0)
    close (self->partial_fd);
  if (self->dirfd >= 0)
    close (self->dirfd);
  if (self->sock >= 0)
    close (self->sock);   /* the helper reads the end of the conversation and exits */
  if (self->helper > 0)
    {
      int status;

      while (waitpid (self->helper, &status, 0) < 0 && errno == EINTR)
        ;
    }
  g_free (self->path);
  g_free (self->partial_path);
  g_free (self->base);
  g_free (self->partial_name);
  g_free (self->live_name);
  g_free (self);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-backend"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "seismo-error.h"
#include "seismo-user.h"

gboolean
seismo_user_pkexec_uid (gint64  *uid,
                        GError **error)
{
  const char *text = g_getenv ("PKEXEC_UID");
  guint64 value;

  *uid = -1;
  if (text == NULL || geteuid () != 0)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32 - 1, &value, NULL))
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("PKEXEC_UID=%s names no user: refusing to record on its behalf"), text);
      return FALSE;
    }
  if (value != 0)
    *uid = (gint64) value;
  return TRUE;
}

gboolean
seismo_user_identity_of_uid (SeismoUserIdentity *id,
                             uid_t               uid,
                             GError            **error)
{
  struct passwd *pw = getpwuid (uid);

  if (pw == NULL)
    {
      g_set_error (error, SEISMO_ERROR, SEISMO_ERROR_INVALID_ARGUMENT,
                   _("PKEXEC_UID=%u names no user: refusing to run a command as them"), uid);
      return FALSE;
    }
  id->drop = TRUE;
  id->uid = uid;
  id->gid = pw->pw_gid;
  id->n_groups = G_N_ELEMENTS (id->groups);
  if (getgrouplist (pw->pw_name, pw->pw_gid, id->groups, &id->n_groups) < 0)
    {
      /* More groups than we carry: the primary one only, never more than the user has. */
      id->groups[0] = pw->pw_gid;
      id->n_groups = 1;
    }
  return TRUE;
}

gboolean
seismo_user_identity_for_launch (SeismoUserIdentity *id,
                                 GError            **error)
{
  gint64 uid;

  id->drop = FALSE;
  if (!seismo_user_pkexec_uid (&uid, error))
    return FALSE;
  return uid < 0 || seismo_user_identity_of_uid (id, (uid_t) uid, error);
}

int
seismo_user_identity_become (const SeismoUserIdentity *id)
{
  /* Groups first, uid last: once the uid is the user's, nothing else may change. */
  if (id->drop
      && (setgroups ((size_t) id->n_groups, id->groups) != 0
          || setresgid (id->gid, id->gid, id->gid) != 0
          || setresuid (id->uid, id->uid, id->uid) != 0))
    return errno;
  return 0;
}

void
seismo_user_identity_become_or_exit (const SeismoUserIdentity *id,
                                     int                       err_fd)
{
  int err = seismo_user_identity_become (id);

  if (err == 0)
    return;
  err = -err;
  if (write (err_fd, &err, sizeof err) < 0)
    _exit (127);
  _exit (127);
}

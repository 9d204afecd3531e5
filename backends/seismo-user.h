/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sys/types.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * Under pkexec the recorder runs as root on behalf of the user named by PKEXEC_UID. A command it
 * launches must run as that user, never as root: pkexec authorizes recording, not running
 * programs with root's rights. Every backend that launches a command prepares this before fork()
 * and applies it in the child, through seismo-launch.h.
 */
typedef struct {
  gboolean drop;           /* FALSE: the caller acts for itself, the command keeps its identity */
  uid_t    uid;
  gid_t    gid;
  gid_t    groups[256];
  int      n_groups;
} SeismoUserIdentity;

/* -1 when the caller acts for itself (not root, no PKEXEC_UID, or root asked). */
gboolean seismo_user_pkexec_uid          (gint64                   *uid,
                                          GError                  **error);
/* The identity a launched command takes: the PKEXEC_UID user's, or unchanged. */
gboolean seismo_user_identity_for_launch (SeismoUserIdentity       *id,
                                          GError                  **error);
gboolean seismo_user_identity_of_uid     (SeismoUserIdentity       *id,
                                          uid_t                     uid,
                                          GError                  **error);
/* In the forked child, before exec: async-signal-safe. 0, or the errno of what failed. */
int      seismo_user_identity_become     (const SeismoUserIdentity *id);

/* Opens path for reading with the identity of the user the recording is for (a short-lived child
 * that has become that user opens it and hands the descriptor over), or as ourselves when we act
 * for ourselves: root never resolves a path the user named. -1 and error on failure. */
int      seismo_user_open_for_reading    (const char               *path,
                                          GError                  **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A command forked now and exec'd only when released, so that tracing can be set up on its pid
 * before it runs anything of its own (seismo-launch.h says what its child goes through as the
 * pkexec user). An exec failure comes back through a close-on-exec pipe.
 */
typedef struct {
  GPid      pid;            /* 0: none */
  char     *name;           /* argv[0] */
  int       release_fd;     /* write a byte to let it exec; -1 once done */
  int       exec_error_fd;  /* the exec's errno (negated: becoming the user failed), or EOF */
  gboolean  reaped;
  int       status;         /* wait status once reaped */
} SeismoHeldCommand;

void     seismo_held_command_init    (SeismoHeldCommand *self);
/* die_with_recorder: SIGKILLed if the recorder dies (seismo-launch.h). */
gboolean seismo_held_command_launch  (SeismoHeldCommand *self,
                                      char *const       *argv,
                                      gboolean           die_with_recorder,
                                      GError           **error);
/* Lets it exec; fails with the reason when exec failed. */
gboolean seismo_held_command_release (SeismoHeldCommand *self,
                                      GError           **error);
gboolean seismo_held_command_is_held (const SeismoHeldCommand *self);
/* TRUE once it exited (and was reaped). */
gboolean seismo_held_command_poll    (SeismoHeldCommand *self);
/* Drops a command never released (it exits without running anything); with kill_it, ends a
 * running one: SIGTERM, then SIGKILL after 2 s. */
void     seismo_held_command_end     (SeismoHeldCommand *self,
                                      gboolean           kill_it);
void     seismo_held_command_clear   (SeismoHeldCommand *self);

G_END_DECLS

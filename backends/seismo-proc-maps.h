/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-stacks.h"

G_BEGIN_DECLS

/*
 * What user space needs to name stack frames after the recording: the executable file mappings
 * of each recorded process (read from /proc/PID/maps at its first stack, at exec and mmap, and
 * whenever a frame falls outside what is known), with the build-ids of the files, into the
 * trace builder. Scans run on any thread; flush() adds what they found to the builder, from the
 * thread that appends to it, outside an event.
 */
typedef struct _SeismoProcMaps SeismoProcMaps;

SeismoProcMaps *seismo_proc_maps_new            (SeismoTraceBuilder *builder);
void            seismo_proc_maps_free           (SeismoProcMaps     *self);
/* Reads pid's mappings now and adds the ones not added yet. FALSE when /proc/PID is gone. */
gboolean        seismo_proc_maps_scan           (SeismoProcMaps     *self,
                                                 gint32              pid,
                                                 guint64             time_ns);
/* Adds the mappings scanned so far to the builder. */
void            seismo_proc_maps_flush          (SeismoProcMaps     *self);
/* pid exec'd: its old mappings are gone; reads the new ones. */
void            seismo_proc_maps_exec           (SeismoProcMaps     *self,
                                                 gint32              pid,
                                                 guint64             time_ns);
/* TRUE when address lies in an executable mapping of pid known so far. Scans pid first when
 * nothing is known of it, and again (at most every 100 ms) for an address outside every one. */
gboolean        seismo_proc_maps_is_code        (SeismoProcMaps     *self,
                                                 gint32              pid,
                                                 guint64             address,
                                                 guint64             time_ns);
/* The build-id note of an ELF file (as an open descriptor); FALSE when it has none. */
gboolean        seismo_elf_read_build_id        (int                 fd,
                                                 guint8             *build_id,
                                                 guint              *len);

/* /proc/kallsyms into the builder, for naming kernel frames (real addresses only as root); the
 * text in *text when not NULL. */
gboolean        seismo_stacks_save_kallsyms     (SeismoTraceBuilder *builder,
                                                 char              **text,
                                                 GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SeismoProcMaps, seismo_proc_maps_free)

G_END_DECLS

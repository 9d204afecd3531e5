/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SEISMO_APP_ID "io.github.seismo.Seismo"

#define SEISMO_TYPE_APPLICATION (seismo_application_get_type ())
G_DECLARE_FINAL_TYPE (SeismoApplication, seismo_application, SEISMO, APPLICATION, AdwApplication)

SeismoApplication *seismo_application_new          (void);
/* The app's settings, or NULL when the schema is not installed (settings are then not kept). */
GSettings         *seismo_application_get_settings (SeismoApplication *self);
/* Opens each file in a window of its own, reusing an empty one. */
void               seismo_application_open_files   (SeismoApplication *self,
                                                    GFile            **files,
                                                    guint              n_files);
/* The folder of the sample traces shipped with Seismo. Caller frees. */
char              *seismo_application_get_samples_dir (void);
/* The sample traces shipped with Seismo. Caller frees the list (of GFile). */
GList             *seismo_application_list_samples (void);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-cli"

#include "seismo-cli-common.h"

gboolean
seismo_cli_parse_options (GOptionContext  *context,
                          int             *argc,
                          char          ***argv,
                          const char      *who)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("%s: %s\n", who, error->message);
      return FALSE;
    }
  return TRUE;
}

void
seismo_cli_print_json (JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

void
seismo_cli_json_int (JsonBuilder *b,
                     const char  *name,
                     gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

void
seismo_cli_json_string (JsonBuilder *b,
                        const char  *name,
                        const char  *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

char **
seismo_cli_split_list (char **values)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; values && values[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (values[i], ",", -1);

      for (guint k = 0; parts[k]; k++)
        if (*g_strstrip (parts[k]))
          g_strv_builder_add (b, parts[k]);
    }
  return g_strv_builder_end (b);
}

gboolean
seismo_cli_apply_arch (SeismoTrace *trace,
                       const char  *arch,
                       const char  *who)
{
  g_autoptr(GError) error = NULL;

  if (arch == NULL || seismo_trace_set_arch (trace, arch, &error))
    return TRUE;
  g_printerr ("%s: --arch: %s\n", who, error->message);
  return FALSE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-widgets"

#include "seismo-widgets.h"
#include "seismo-widgets-resources.h"

void
seismo_widgets_init (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      seismo_widgets_register_resource ();
      g_type_ensure (SEISMO_TYPE_TIMELINE);
      g_type_ensure (SEISMO_TYPE_EVENT_LIST);
      g_type_ensure (SEISMO_TYPE_EVENT_DETAILS);
      g_type_ensure (SEISMO_TYPE_EVENT_ITEM);
      g_once_init_leave (&done, 1);
    }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-event-details.h"
#include "seismo-event-list.h"
#include "seismo-event-list-model.h"
#include "seismo-timeline.h"

G_BEGIN_DECLS

/* Registers the widgets' resources and types; call once before building any UI that uses them. */
void seismo_widgets_init (void);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "seismo-data"

#include "seismo-error.h"

G_DEFINE_QUARK (seismo-error-quark, seismo_error)

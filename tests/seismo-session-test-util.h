/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "seismo-session.h"

G_BEGIN_DECLS

/* a and b hold the same view state, field by field (also the fields behind an unset has_view,
 * has_marker or has_range flag: a loaded session leaves them 0); the test fails otherwise. */
void seismo_test_assert_sessions_equal (const SeismoSession *a,
                                        const SeismoSession *b);

G_END_DECLS

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what Seismo needs, builds it in ./build and runs every test suite. Extra arguments go to
# `meson test` (e.g. --suite unit).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
if [[ ! -f build/build.ninja ]]; then
  meson setup build
fi
meson compile -C build
meson test -C build --print-errorlogs --num-processes 2 "$@"

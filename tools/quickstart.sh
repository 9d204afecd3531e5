#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what Seismo needs, builds it and shows the bundled sample trace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
if [[ ! -f build/build.ninja ]]; then
  meson setup build
fi
meson compile -C build
sample=app/resources/samples/welcome.seismo
if [[ -x build/app/seismo && ( -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ) ]]; then
  exec build/app/seismo "$sample"
fi
build/app/seismo-cli info "$sample"
build/app/seismo-cli report --limit 40 "$sample"

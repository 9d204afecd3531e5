#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what Seismo needs, builds it and shows the bundled sample trace. Run it as yourself
# (packages are installed with sudo), with sudo (the build and the app then belong to you), or as
# root on a machine without users (the app is then not started: it never runs as root).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib-user.sh
[[ -n ${SEISMO_DEPS_DONE:-} ]] || bash tools/deps.sh
seismo_drop_to_sudo_user "$PWD/tools/quickstart.sh" "$@"
seismo_own_build
if [[ ! -f build/build.ninja ]]; then
  meson setup build
fi
meson compile -C build
sample=$PWD/app/resources/samples/welcome.seismo
if [[ -x build/app/seismo && ( -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ) ]]; then
  if ((EUID != 0)); then
    # The uninstalled app finds its settings schema, samples and lessons through meson devenv.
    exec meson devenv -C build seismo "$sample"
  fi
  echo "quickstart.sh: not starting the app as root (it records through pkexec as a user);" \
       "as your user: meson devenv -C build seismo $sample" >&2
fi
build/app/seismo-cli info "$sample"
build/app/seismo-cli report --limit 40 "$sample"

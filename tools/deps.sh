#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs every Debian 12 package Seismo needs to build, test and run. Idempotent.
set -euo pipefail
PKGS=()
# build
PKGS+=(build-essential meson ninja-build pkg-config python3 gettext)
# data layer
PKGS+=(libglib2.0-dev libzstd-dev libjson-glib-dev)
# Perfetto export: C messages generated from its .proto files; protoc decodes exports in tests
PKGS+=(libprotobuf-c-dev protobuf-c-compiler protobuf-compiler)
# compressed inputs read by magic: gzip, xz, bzip2 (zstd above)
PKGS+=(zlib1g-dev liblzma-dev libbz2-dev)
# backends
PKGS+=(libtracefs-dev libtraceevent-dev libtracecmd-dev trace-cmd)
PKGS+=(libbpf-dev bpftool clang llvm libseccomp-dev systemtap-sdt-dev linux-libc-dev)
# app
PKGS+=(libgtk-4-dev libadwaita-1-dev desktop-file-utils appstream xvfb xauth imagemagick dbus-x11)
# recording from the app as a user (pkexec + polkit policy); xmllint validates the policy
PKGS+=(pkexec polkitd libxml2-utils)
# tests and benchmarks
PKGS+=(strace valgrind bpftrace hyperfine time)
# screenshots of the app (docs/screenshots)
PKGS+=(xdotool)
# exported SVG figures rasterised for docs/screenshots/export-svg.png
PKGS+=(librsvg2-bin)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

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
PKGS+=(libtracefs-dev libtraceevent-dev trace-cmd)
# call stacks: unwinding ptrace tracees and symbolizing user frames (elfutils)
PKGS+=(libdw-dev libelf-dev)
PKGS+=(libbpf-dev bpftool clang llvm systemtap-sdt-dev linux-libc-dev)
# app
PKGS+=(libgtk-4-dev libadwaita-1-dev desktop-file-utils appstream xvfb xauth imagemagick dbus-x11)
# recording from the app as a user (pkexec + polkit policy); xmllint validates the policy;
# polkit's pkg-config file says where polkitd reads policies (meson installs ours there)
PKGS+=(pkexec polkitd libxml2-utils libpolkit-gobject-1-dev)
# man pages (docs/man, scdoc) and the shells whose completions tests/test-completion.sh parses
PKGS+=(scdoc zsh fish)
# files that open from the desktop: the MIME database and GIO's `gio` (tests/install)
PKGS+=(shared-mime-info libglib2.0-bin)
# tests and benchmarks
PKGS+=(strace valgrind bpftrace hyperfine time)
# translations: tests run the CLI and the app in German and French (tests/test-i18n.sh)
PKGS+=(locales)
# screenshots of the app (docs/screenshots)
PKGS+=(xdotool)
# rsvg-convert: the app icon rendered to PNG at build time (app/meson.build), and exported SVG
# figures rasterised for docs/screenshots/export-svg.png
PKGS+=(librsvg2-bin)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Installing needs root: a user's run asks sudo (and says what is missing when there is none).
as_root=()
if ((EUID != 0)); then
  as_root=(sudo)
fi
if ((${#missing[@]})); then
  if ((EUID != 0)) && ! command -v sudo >/dev/null; then
    echo "deps.sh: these packages are missing: ${missing[*]}" >&2
    echo "deps.sh: install them as root (su -c 'bash tools/deps.sh'), or install sudo" >&2
    exit 1
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The locales the translation tests use, generated once.
want_locales=(de_DE.UTF-8 fr_FR.UTF-8)
gen=()
for l in "${want_locales[@]}"; do
  locale -a 2>/dev/null | grep -qix "${l/UTF-8/utf8}" || gen+=("$l")
done
if ((${#gen[@]})); then
  if ((EUID != 0)) && ! command -v sudo >/dev/null; then
    echo "deps.sh: the locales ${gen[*]} are missing: generate them as root (locale-gen)" >&2
    exit 1
  fi
  for l in "${gen[@]}"; do
    "${as_root[@]}" sed -i "s/^# *\($l UTF-8\)/\1/" /etc/locale.gen
    grep -q "^$l UTF-8" /etc/locale.gen || echo "$l UTF-8" | "${as_root[@]}" tee -a /etc/locale.gen >/dev/null
  done
  "${as_root[@]}" locale-gen
fi

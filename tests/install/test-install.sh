#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What a distribution package would ship: `meson install --destdir` into a fresh folder, then every
# installed file checked the way the desktop reads it (desktop file, metainfo, settings schema, MIME
# database and content-type guesses, polkit policy at polkit's own folder), the installed seismo-cli
# run from outside the source tree, and no build or source folder in any installed binary. TAP.
#
#   test-install.sh BUILD_DIR SOURCE_DIR PREFIX BINDIR DATADIR LIBEXECDIR POLKIT_POLICYDIR
set -u
BUILD=$1 SRC=$2 PREFIX=$3 BINDIR=$4 DATADIR=$5 LIBEXECDIR=$6 POLICYDIR=$7
. "$SRC/tests/lib/tap.sh"
D=$DIR/root
APP=io.github.seismo.Seismo
share=$D$DATADIR

meson install -C "$BUILD" --destdir "$D" --no-rebuild --quiet >"$DIR/install.log" 2>&1
check "meson install --destdir" test $? -eq 0 || cat "$DIR/install.log" >&2
[[ -x $D$BINDIR/seismo-cli ]] || { not_ok "seismo-cli installed in $BINDIR"; tap_end; }

# Files that the desktop reads, where it reads them, valid.
check "desktop file validates" desktop-file-validate "$share/applications/$APP.desktop"
check "metainfo validates" appstreamcli validate --no-net --explain "$share/metainfo/$APP.metainfo.xml"
check "metainfo: a release of version $(meson introspect "$BUILD" --projectinfo | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')" \
  python3 - "$share/metainfo/$APP.metainfo.xml" "$BUILD" <<'PY'
import json, subprocess, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
version = json.loads(subprocess.check_output(["meson", "introspect", sys.argv[2], "--projectinfo"]))["version"]
rel = root.find("releases/release")
assert rel.get("version") == version, (rel.get("version"), version)
assert rel.get("date") and not rel.get("date").startswith("2025-01-01"), rel.get("date")
assert sorted(b.text for b in root.findall("provides/binary")) == ["seismo", "seismo-cli"]
PY
check "settings schema compiles --strict" glib-compile-schemas --strict --dry-run "$share/glib-2.0/schemas"
check "MIME XML is well-formed" xmllint --noout "$share/mime/packages/$APP.xml"
# update-mime-database is what the post-install runs (not under DESTDIR): it rejects what it cannot use.
out=$(update-mime-database -V "$share/mime" 2>&1)
check "update-mime-database accepts it" bash -c "[[ -s '$share/mime/mime.cache' ]] && ! grep -qiE 'error|warning|unknown' <<<'$out'"

# Policy: in polkit's own folder (pkg-config polkit-gobject-1 policydir), whatever the prefix.
check "polkit policy in $POLICYDIR" test -f "$D$POLICYDIR/$APP.policy"
if pc=$(pkg-config --variable=policydir polkit-gobject-1 2>/dev/null); then
  check "the policy folder is polkit's ($pc)" test "$POLICYDIR" = "$pc"
fi
check "polkit policy validates against polkit's DTD" \
  xmllint --noout --dtdvalid /usr/share/polkit-1/policyconfig-1.dtd "$D$POLICYDIR/$APP.policy"
check "the policy runs the installed seismo-cli" \
  grep -q "exec.path\">$BINDIR/seismo-cli<" "$D$POLICYDIR/$APP.policy"

# The types Seismo registers, each with an icon, named by GIO's guess (the database just built,
# then the system's, for text/plain) for real files: by name and by content alone.
mapfile -t types < <(sed -n 's/^MimeType=//p' "$share/applications/$APP.desktop" | tr ';' '\n' | sed '/^$/d')
check "desktop file lists 4 MIME types" test "${#types[@]}" -eq 4
for t in "${types[@]}"; do
  check "icon for $t" test -s "$share/icons/hicolor/scalable/mimetypes/${t//\//-}.svg"
done
mkdir -p "$DIR/files" "$DIR/home"
export XDG_DATA_HOME=$DIR/home XDG_DATA_DIRS=$share:/usr/share
content_type() { gio info -a standard::content-type "$1" | sed -n 's/^ *standard::content-type: //p'; }
cp "$share/seismo/samples/hello-syscalls.seismo" "$DIR/files/"
cp "$share/seismo/samples/hello-syscalls.seismo" "$DIR/files/downloaded"
cp "$SRC/tests/data/ftrace-small-v7.dat" "$DIR/files/trace.dat"
cp "$SRC/tests/data/ftrace-small-v7.dat" "$DIR/files/recording.bin"
cp "$SRC/tests/data/strace-sh.strace" "$DIR/files/"
zcat "$SRC/tests/data/ftrace-tracefs.txt.gz" > "$DIR/files/tracefs-copy"
for pair in hello-syscalls.seismo=application/x-seismo-trace downloaded=application/x-seismo-trace \
            trace.dat=application/x-trace-cmd-dat recording.bin=application/x-trace-cmd-dat \
            strace-sh.strace=text/x-strace-log tracefs-copy=text/x-ftrace-log; do
  f=${pair%%=*} want=${pair#*=}
  got=$(content_type "$DIR/files/$f")
  check "GIO names $f $want (got $got)" test "$got" = "$want"
done
# As the post-install does (it skips DESTDIR installs); GIO shows apps whose Exec is in PATH.
update-desktop-database "$share/applications"
for t in "${types[@]}"; do
  check "the app opens $t" bash -c "PATH='$D$BINDIR':\$PATH gio mime '$t' | grep -q 'Default application.*$APP.desktop'"
done
check "text traces are still text/plain" \
  bash -c "gio mime text/x-strace-log >/dev/null && grep -q 'text/x-strace-log' '$share/mime/subclasses' && grep -q 'text/x-strace-log text/plain' '$share/mime/subclasses'"
unset XDG_DATA_HOME XDG_DATA_DIRS

# The installed CLI, from outside the source and build folders, on an installed sample.
out=$(cd "$DIR" && env -i PATH=/usr/bin:/bin "$D$BINDIR/seismo-cli" info "$share/seismo/samples/welcome.seismo")
check "installed seismo-cli info on an installed sample" grep -q "^Events: *[1-9]" <<<"$out"
check "installed seismo-cli --version" bash -c "'$D$BINDIR/seismo-cli' --version | grep -qx 'seismo-cli [0-9.]*'"
if [[ -x $D$BINDIR/seismo ]]; then
  check "installed seismo --version" bash -c "env -i '$D$BINDIR/seismo' --version | grep -qx 'seismo [0-9.]*'"
fi

# Man pages for the app, the CLI and each of its commands, the filter language and lessons.
man=$D$PREFIX/share/man
mapfile -t commands < <("$D$BINDIR/seismo-cli" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
for page in man1/seismo.1 man1/seismo-cli.1 "${commands[@]/#/man1/seismo-cli-}" man7/seismo-filter.7 man5/seismo-lesson.5; do
  [[ $page == man1/seismo-cli-* ]] && page+=.1
  warn=$(MANWIDTH=80 man --warnings -l "$man/$page" 2>&1 >/dev/null)
  check "man page $page installed, renders without warnings" \
    bash -c "[[ -s '$man/$page' && -z '$warn' ]] && MANWIDTH=80 man -l '$man/$page' 2>/dev/null | grep -q '^NAME'"
done
# Completions where each shell looks for them.
for f in bash-completion/completions/seismo-cli bash-completion/completions/seismo \
         zsh/site-functions/_seismo-cli fish/vendor_completions.d/seismo-cli.fish; do
  check "completion $f" test -s "$share/$f"
done
check "installed bash completion completes with the installed CLI" bash -c "
  . '$share/bash-completion/completions/seismo-cli'
  COMP_WORDS=('$D$BINDIR/seismo-cli' record -b ptrace -e opena); COMP_CWORD=5; _seismo_cli
  printf '%s\n' \"\${COMPREPLY[@]}\" | grep -qx openat"

# Translations of every language of po/LINGUAS, and the CLI speaking one from the installed tree.
mapfile -t langs < <(grep -v '^#' "$SRC/po/LINGUAS" | sed '/^$/d')
for l in "${langs[@]}"; do
  check "translation $l installed" test -s "$share/locale/$l/LC_MESSAGES/seismo.mo"
done
for l in $(grep -v '^#' "$SRC/po/explain/LINGUAS"); do
  check "explain texts $l installed" test -s "$share/locale/$l/LC_MESSAGES/seismo-explain.mo"
done

# Reproducible: no build or source folder in what was installed.
src_real=$(realpath "$SRC") build_real=$(realpath "$BUILD")
for exe in "$D$BINDIR"/* "$D$LIBEXECDIR"/*; do
  [[ -f $exe && -x $exe ]] || continue
  leaks=$(strings -a "$exe" | grep -F -e "$src_real" -e "$build_real" -e "$SRC" -e "$BUILD" | head -3)
  check "no build or source path in ${exe#$D}${leaks:+: $leaks}" test -z "$leaks"
done
tap_end

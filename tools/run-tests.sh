#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what Seismo needs, builds it in ./build and runs every test suite. Extra arguments go to
# `meson test` (e.g. --suite unit).
#
#   tools/run-tests.sh --sanitize [ARGS]   builds ./build-san with AddressSanitizer, UBSan and
#                                          LeakSanitizer and runs the unit and formats suites there;
#                                          any sanitizer report fails its test. (docs/reliability.md)
#
# Run it as root (CI: every backend test records), as a user (packages installed with sudo; the
# tests that need root say so and skip), or with sudo (installs as root, then builds and tests as
# the user who ran sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib-user.sh
[[ -n ${SEISMO_DEPS_DONE:-} ]] || bash tools/deps.sh
seismo_drop_to_sudo_user "$PWD/tools/run-tests.sh" "$@"
seismo_own_build

if [[ ${1:-} == --sanitize ]]; then
  shift
  build=build-san
  suites=(unit formats)
  if [[ ! -f $build/build.ninja ]]; then
    meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false -Dgui=disabled
  fi
  # Only what the two suites run (the freestanding i386 ptrace child cannot carry a sanitizer).
  # strace-import is left out: it runs its workload under strace, and LeakSanitizer cannot work in
  # a traced process (it stops the world with ptrace itself), which changes what strace sees.
  # tracedat records live and compares every event with `trace-cmd report` text: over 6 minutes
  # under ASan. Its parser runs under the sanitizers in fuzz-replay (real trace.dat files, every
  # truncation and random corruptions).
  san_skip=strace-import,tracedat
  mapfile -t plan < <(python3 - "$build" "$san_skip" "${suites[@]}" <<'PY'
import json, os, subprocess, sys
build, skip, suites = sys.argv[1], set(sys.argv[2].split(",")), set(sys.argv[3:])
intro = lambda what: json.loads(subprocess.check_output(["meson", "introspect", build, what]))
by_id = {t["id"]: t for t in intro("--targets")}
by_file = {f: t for t in by_id.values() for f in t["filename"]}
want = set()
for test in intro("--tests"):
    if not suites & {s.split(":")[-1] for s in test["suite"]} or test["name"] in skip:
        continue
    print("test " + test["name"])
    for arg in test["cmd"] + test.get("args", []):
        if arg in by_file:
            want.add(by_file[arg]["id"])
    want.update(test.get("depends", []))
for tid in sorted(want):
    if tid in by_id:
        print("target " + os.path.relpath(by_id[tid]["filename"][0], build))
PY
)
  targets=()
  tests=()
  for line in "${plan[@]}"; do
    case $line in
      target\ *) targets+=("${line#target }") ;;
      test\ *) tests+=("${line#test }") ;;
    esac
  done
  ninja -C "$build" "${targets[@]}"
  # Every report is fatal and fails its test; leaks are checked at exit. GSlice would hide heap
  # errors from ASan, so it is told to use malloc.
  export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=0
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0
  export G_SLICE=always-malloc
  # GIO loads the system's modules (dconf's GSettings backend, when installed) once and never
  # frees them by design; LeakSanitizer would count that as our leak. The unit and formats suites
  # need none of them: an empty module folder keeps them out.
  export GIO_MODULE_DIR=$PWD/$build/no-gio-modules
  mkdir -p "$GIO_MODULE_DIR"
  # ASan and UBSan make code 2-4 times slower: the timeouts grow with it.
  meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 2 --timeout-multiplier 3 \
    "$@" "${tests[@]}"
  exit
fi

if [[ ! -f build/build.ninja ]]; then
  meson setup build
fi
meson compile -C build
meson test -C build --print-errorlogs --num-processes 2 "$@"

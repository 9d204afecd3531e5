#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Under pkexec the recorder runs as root for the user named by PKEXEC_UID: a command it launches
# must run as that user with every backend, never as root.
# Usage: test-cli-pkexec-launch.sh SEISMO_CLI
set -u
cli=$1
user_uid=65534

if [ "$(id -u)" != 0 ]; then
  echo "1..0 # SKIP acting for another user (PKEXEC_UID) needs root"
  exit 0   # TAP: the plan 1..0 says skipped (meson counts a status of 77 as an error)
fi
if ! getent passwd "$user_uid" >/dev/null; then
  echo "1..0 # SKIP no user with uid $user_uid to act for"
  exit 0   # TAP: the plan 1..0 says skipped (meson counts a status of 77 as an error)
fi

dir=$(mktemp -d /tmp/seismo-pkexec-launch.XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM
chown "$user_uid" "$dir"
chmod 700 "$dir"

echo "1..3"
n=0
for backend in ptrace ftrace ebpf; do
  n=$((n + 1))
  if ! "$cli" record --list-backends 2>/dev/null | grep -q "^$backend *available"; then
    why=$("$cli" record --list-backends 2>&1 | grep "^$backend" | head -n 1)
    echo "ok $n - $backend # SKIP backend not available here: $why"
    continue
  fi
  out="$dir/$backend.seismo"
  rm -f "$dir/uid"
  if ! PKEXEC_UID=$user_uid "$cli" record --backend "$backend" -o "$out" -- \
       /bin/sh -c "id -u > '$dir/uid'" >"$dir/log" 2>&1; then
    echo "not ok $n - $backend: record failed"
    sed 's/^/# /' "$dir/log"
    continue
  fi
  got=$(cat "$dir/uid" 2>/dev/null)
  owner=$(stat -c %u "$out" 2>/dev/null)
  if [ "$got" = "$user_uid" ] && [ "$owner" = "$user_uid" ]; then
    echo "ok $n - $backend: the command ran as uid $got, the trace is theirs"
  else
    echo "not ok $n - $backend: command ran as uid '$got' (want $user_uid), trace owned by '$owner'"
  fi
done

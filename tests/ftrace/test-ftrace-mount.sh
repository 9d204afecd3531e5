#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The ftrace backend where tracefs is not mounted. Each case runs in a private mount namespace
# (unshare -m: unmounting there leaves the machine's tracefs, which others use, alone):
#  - as root, seismo-cli record mounts tracefs at /sys/kernel/tracing itself and records;
#  - without CAP_SYS_ADMIN it cannot: --list-backends says why, record fails with a clear message.
# Skips without root, unshare or the right to make mount namespaces. TAP output.
set -u
CLI=$1
. "$(dirname "$0")/../lib/tap.sh"

[[ $(id -u) -eq 0 ]] || skip_all "needs root"
command -v unshare > /dev/null || skip_all "unshare (util-linux) is not installed"
unshare -m --propagation private true 2> /dev/null || skip_all "cannot make a mount namespace here"
"$CLI" record --list-backends 2>/dev/null | grep -q '^ftrace  *available' ||
  skip_all "the ftrace backend cannot run here: $("$CLI" record --list-backends 2>&1 | grep '^ftrace')"

# Run in a new mount namespace with every tracefs (and debugfs, whose tracing/ folder mounts
# tracefs on access) unmounted, innermost first; the rest of the command line runs there.
cat > "$DIR/unmounted.sh" << 'EOF'
awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/self/mounts | sort -r |
  while read -r m; do umount -l "$m" || exit 1; done
if awk '$3 == "tracefs"' /proc/self/mounts | grep -q .; then
  echo "tracefs is still mounted" >&2
  exit 1
fi
exec "$@"
EOF
in_ns() { unshare -m --propagation private bash "$DIR/unmounted.sh" "$@"; }

# 1. Root mounts it.
in_ns bash -c '"$1" record -b ftrace -e "raw_syscalls:*" -o "$2" -- /bin/true 2> "$3"; echo "rc=$?"
               awk '\''$3 == "tracefs" { print $2 }'\'' /proc/self/mounts' \
  _ "$CLI" "$DIR/mounted.seismo" "$DIR/err1.txt" > "$DIR/out1.txt"
check "record succeeds where tracefs was not mounted" grep -qx "rc=0" "$DIR/out1.txt"
check "it mounted tracefs at /sys/kernel/tracing" grep -qx "/sys/kernel/tracing" "$DIR/out1.txt"
check "the recording holds the command's syscalls" bash -c \
  "'$CLI' info '$DIR/mounted.seismo' | grep -q 'raw_syscalls:sys_enter'"
check "the machine's own tracefs is still mounted" \
  bash -c "awk '\$3 == \"tracefs\" { print \$2 }' /proc/self/mounts | grep -q ."

# 2. Without the right to mount: a clear reason, a clear failure, nothing mounted.
if command -v setpriv > /dev/null; then
  nocap=(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin)
  in_ns "${nocap[@]}" "$CLI" record --list-backends > "$DIR/backends.txt" 2>&1
  check "--list-backends: ftrace unavailable, needs CAP_SYS_ADMIN to mount" \
    grep -q '^ftrace .*not mounted.*CAP_SYS_ADMIN' "$DIR/backends.txt"
  in_ns "${nocap[@]}" "$CLI" record -b ftrace -e 'raw_syscalls:*' -o "$DIR/nocap.seismo" \
    -- /bin/true > /dev/null 2> "$DIR/err2.txt"
  rc=$?
  check "record fails (exit $rc)" test $rc -ne 0
  check "saying tracefs is not mounted and why it cannot be" \
    grep -q 'ftrace backend cannot run here: tracefs is not mounted .*CAP_SYS_ADMIN' "$DIR/err2.txt"
  check "no file is left" test ! -e "$DIR/nocap.seismo"
else
  skip "without CAP_SYS_ADMIN" "setpriv (util-linux) is not installed"
fi

tap_end

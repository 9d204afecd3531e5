#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The recorder's privilege boundary and output rules (docs/security.md), TAP. Root only.
#
#   test-privilege.sh SEISMO_CLI attacker|outputs|concurrent|signals
#
# attacker:   a real second user made by the test owns the output folder and, while 50 recordings
#             run for them as root (PKEXEC_UID, as pkexec sets it), swaps every name the recorder
#             uses for symlinks to a root-owned canary file. The canary must stay root's, 0600 and
#             unchanged; every file in the folder must be the user's.
# outputs:    -o naming a device, FIFO, socket, folder or symlink is refused (exit 2), as root and
#             for a pkexec user, and left as it was; a recording for a user is theirs (0600);
#             a uprobe binary is opened as the user.
# concurrent: two recorders with the same -o, 6 times: the second is refused at once (exit 1,
#             naming the first's pid), the first keeps its own recording.
# signals:    SIGINT/SIGTERM or --duration that stop a `-- CMD` recording exit 0 with the trace
#             saved; a command that ends by itself gives its own status.
set -uo pipefail
cli=${1:?usage: test-privilege.sh SEISMO_CLI MODE}
mode=${2:?usage: test-privilege.sh SEISMO_CLI MODE}
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }

if [[ $(id -u) -ne 0 ]]; then
  echo "1..0 # SKIP recording for another user (PKEXEC_UID) needs root"
  exit 77
fi
available=$("$cli" record --list-backends 2>&1)
if ! grep -q "^ptrace *available" <<<"$available"; then
  echo "1..0 # SKIP the ptrace backend cannot run here: $(grep ^ptrace <<<"$available")"
  exit 77
fi

work=$(mktemp -d /tmp/seismo-privilege-XXXXXX)
chmod 755 "$work"
user=seismo-test-$$
attacker_pid=
cleanup() {
  [[ -n $attacker_pid ]] && kill "$attacker_pid" 2>/dev/null && wait "$attacker_pid" 2>/dev/null
  pkill -u "$user" 2>/dev/null
  id "$user" >/dev/null 2>&1 && userdel "$user" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

make_user() {
  if ! useradd --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user" 2>"$work/useradd.txt"; then
    echo "1..0 # SKIP could not make a test user: $(cat "$work/useradd.txt")"
    exit 77
  fi
  uid=$(id -u "$user")
  gid=$(id -g "$user")
  home=$work/home
  mkdir -p "$home"
  chown "$uid:$gid" "$home"
  chmod 700 "$home"
}

# Runs CLI as root on behalf of the test user, as pkexec does.
record_for_user() { PKEXEC_UID=$uid "$cli" record "$@"; }

case $mode in
attacker)
  make_user
  canary=$work/canary
  echo "root's secret" >"$canary"
  chmod 600 "$canary"
  canary_sum=$(md5sum <"$canary")
  # The attacker, as the user: after a random wait into each recording (so that every phase is
  # hit: start, live snapshots, the end), every regular file in their folder (what the recorder
  # made) is swapped for a symlink to the canary, again and again, hoping root then acts on the
  # name; and the canary is hard-linked in (fs.protected_hardlinks should refuse).
  attack='
    cd "$1" || exit 1
    shopt -s nullglob dotglob
    sleep "$3"
    while :; do
      for f in *; do
        [[ -f $f && ! -L $f ]] || continue
        rm -f "$f" 2>/dev/null && ln -s "$2" "$f" 2>/dev/null
      done
      ln "$2" hardlink 2>/dev/null
    done'
  results=()
  for i in $(seq 1 50); do
    find "$home" -mindepth 1 -delete
    if ((i > 45)); then
      # The last five find every name planted before they start.
      for f in out.seismo out.seismo.partial out.seismo.live; do
        setpriv --reuid="$uid" --regid="$gid" --clear-groups ln -sfn "$canary" "$home/$f"
      done
    fi
    delay=$(printf '0.%03d' $((RANDOM % 1000)))
    setpriv --reuid="$uid" --regid="$gid" --clear-groups bash -c "$attack" attacker "$home" "$canary" "$delay" &
    attacker_pid=$!
    # Long enough for live snapshots (twice a second), short enough for 50 runs.
    record_for_user -b ptrace -o "$home/out.seismo" -- sh -c 'i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; sleep 0.6' \
      >"$work/rec.txt" 2>&1
    results+=($?)
    kill "$attacker_pid" 2>/dev/null
    wait "$attacker_pid" 2>/dev/null
    attacker_pid=
    rootfiles=$(find "$home" -mindepth 1 -uid 0 -printf '%P ' 2>/dev/null)
    [[ -z $rootfiles ]] || break
  done
  kill "$attacker_pid" 2>/dev/null
  wait "$attacker_pid" 2>/dev/null
  attacker_pid=
  problems=()
  owner=$(stat -c '%u:%g %a' "$canary")
  [[ $owner == "0:0 600" ]] || problems+=("the canary is now $owner (was 0:0 600)")
  [[ $(md5sum <"$canary") == "$canary_sum" ]] || problems+=("the canary's content changed")
  rootfiles=$(find "$home" -mindepth 1 -uid 0 -printf '%P ' 2>/dev/null)
  [[ -z $rootfiles ]] || problems+=("root-owned files in the user's folder: $rootfiles")
  if ((${#problems[@]})); then
    not_ok "symlink-swapping attacker, 50 recordings for the user" "${problems[@]}"
  else
    ok "symlink-swapping attacker, 50 recordings (exit statuses: $(printf '%s\n' "${results[@]}" | sort | uniq -c | tr -s ' \n' ' ')): canary untouched, nothing of root's in the folder"
  fi
  ;;

outputs)
  make_user
  for who in root user; do
    dir=$work/out-$who
    mkdir -p "$dir"
    run=("$cli" record)
    if [[ $who == user ]]; then
      chown "$uid:$gid" "$dir"
      run=(env PKEXEC_UID="$uid" "$cli" record)
    fi
    mknod "$dir/null" c 1 3
    mkfifo "$dir/fifo"
    python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$dir/sock"
    mkdir "$dir/folder"
    ln -s /dev/null "$dir/link"
    for target in null fifo sock folder link; do
      before=$(stat -c '%F %t:%T' "$dir/$target")
      timeout 20 "${run[@]}" -b ptrace -o "$dir/$target" -- true >"$work/out.txt" 2>&1
      status=$?
      after=$(stat -c '%F %t:%T' "$dir/$target")
      if [[ $status -eq 2 && $before == "$after" ]] && grep -q "regular file" "$work/out.txt" &&
         [[ ! -e $dir/$target.partial ]]; then
        ok "as $who, -o ${before%% *} ($target): refused with exit 2, left as it was"
      else
        not_ok "as $who, -o $target" "exit $status (want 2); before '$before', after '$after'" \
          "$(head -c 300 "$work/out.txt")"
      fi
    done
  done
  # A recording for a user is theirs, private, and written nowhere else.
  record_for_user -b ptrace -o "$home/mine.seismo" -- true >"$work/out.txt" 2>&1
  status=$?
  got=$(stat -c '%u %a' "$home/mine.seismo" 2>/dev/null)
  if [[ $status -eq 0 && $got == "$uid 600" && $(ls -A "$home") == mine.seismo ]]; then
    ok "a recording for the user is theirs, mode 600, nothing else left"
  else
    not_ok "a recording for the user" "exit $status, owner and mode '$got' (want '$uid 600'), folder: $(ls -A "$home" | tr '\n' ' ')"
  fi
  # A folder the user may not write is refused before anything is recorded.
  mkdir -p "$work/not-theirs"
  record_for_user -b ptrace -o "$work/not-theirs/x.seismo" -- true >"$work/out.txt" 2>&1
  status=$?
  if [[ $status -eq 1 && -z $(ls -A "$work/not-theirs") ]] && grep -q "may not write" "$work/out.txt"; then
    ok "a folder the user may not write: refused, nothing written"
  else
    not_ok "a folder the user may not write" "exit $status: $(head -c 300 "$work/out.txt")"
  fi
  # A uprobe's binary is opened as the user: one only root may read is refused; theirs works.
  if grep -q "^ebpf *available" <<<"$available"; then
    cp /bin/true "$work/root-only"
    chmod 700 "$work/root-only"
    record_for_user -b ebpf --probe "uprobe:$work/root-only:0x0" -o "$home/probe.seismo" -- true \
      >"$work/out.txt" 2>&1
    status=$?
    if [[ $status -ne 0 ]] && grep -q "may not read" "$work/out.txt"; then
      ok "a uprobe on a binary only root may read: refused for the user"
    else
      not_ok "a uprobe on a binary only root may read" "exit $status: $(head -c 300 "$work/out.txt")"
    fi
  else
    skip "uprobe binaries opened as the user: $(grep ^ebpf <<<"$available")"
  fi
  ;;

concurrent)
  for i in 1 2 3 4 5 6; do
    out=$work/same.seismo
    rm -f "$out"
    "$cli" record -b ptrace -o "$out" -- sh -c "echo first-$i >/dev/null; sleep 1.5" >"$work/a.txt" 2>&1 &
    a=$!
    # The first has created and locked OUTPUT.partial once it exists.
    for t in $(seq 1 100); do [[ -e $out.partial ]] && break; sleep 0.02; done
    start=$(date +%s%N)
    "$cli" record -b ptrace -o "$out" -- sh -c "echo second-$i >/dev/null" >"$work/b.txt" 2>&1
    b_status=$?
    b_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    wait "$a"
    a_status=$?
    cmd=$("$cli" info --json "$out" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["command"])' 2>/dev/null)
    problems=()
    [[ $a_status -eq 0 ]] || problems+=("the first exited $a_status: $(head -c 300 "$work/a.txt")")
    [[ $b_status -eq 1 ]] || problems+=("the second exited $b_status, not 1: $(head -c 300 "$work/b.txt")")
    grep -q "pid $a)" "$work/b.txt" || problems+=("the second does not name the first's pid $a: $(head -c 300 "$work/b.txt")")
    ((b_ms < 1000)) || problems+=("the second took $b_ms ms to refuse")
    [[ $cmd == *first-$i* ]] || problems+=("the file holds '$cmd', not the first recording")
    [[ ! -e $out.partial ]] || problems+=("a .partial was left")
    if ((${#problems[@]})); then
      not_ok "two recorders to one output, round $i" "${problems[@]}"
    else
      ok "two recorders to one output, round $i: the second refused in $b_ms ms naming pid $a; the first kept its trace"
    fi
  done
  ;;

signals)
  for backend in ptrace ftrace ebpf; do
    if ! grep -q "^$backend *available" <<<"$available"; then
      skip "$backend: $(grep "^$backend" <<<"$available")"
      continue
    fi
    for sig in INT TERM; do
      out=$work/sig-$backend-$sig.seismo
      "$cli" record -b "$backend" -o "$out" -- sleep 30 >"$work/sig.txt" 2>&1 &
      rec=$!
      sleep 1.5
      kill -s "$sig" "$rec"
      wait "$rec"
      status=$?
      if [[ $status -eq 0 ]] && "$cli" info "$out" >/dev/null 2>&1; then
        ok "$backend: SIG$sig stops a -- CMD recording with exit 0 and the trace saved"
      else
        not_ok "$backend: SIG$sig" "exit $status (want 0), file: $(ls -la "$out" 2>&1)" "$(tail -c 300 "$work/sig.txt")"
      fi
    done
    out=$work/duration-$backend.seismo
    "$cli" record -b "$backend" --duration 1 -o "$out" -- sleep 30 >"$work/sig.txt" 2>&1
    status=$?
    "$cli" record -b "$backend" -o "$out.own" -- sh -c 'exit 3' >/dev/null 2>&1
    own=$?
    if [[ $status -eq 0 && $own -eq 3 ]] && "$cli" info "$out" >/dev/null 2>&1; then
      ok "$backend: --duration ending a -- CMD recording exits 0; a command that exits 3 by itself gives 3"
    else
      not_ok "$backend: --duration" "exit $status (want 0), own exit $own (want 3)" "$(tail -c 300 "$work/sig.txt")"
    fi
  done
  ;;

*)
  echo "usage: test-privilege.sh SEISMO_CLI attacker|outputs|concurrent|signals" >&2
  exit 2
  ;;
esac

echo "1..$n"
exit $failed

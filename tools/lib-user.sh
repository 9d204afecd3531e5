# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by tools/quickstart.sh and tools/run-tests.sh: who builds and runs. Packages are
# installed as root (tools/deps.sh asks sudo when started by a user); the build, the tests and the
# app belong to the user, never to root when a user started the script:
#   ./tools/quickstart.sh        as a user: sudo only for apt-get
#   sudo ./tools/quickstart.sh   drops back to $SUDO_USER after installing
#   as root on a fresh machine   builds and tests as root; the app is not started as root

# Started through sudo by a user: run the rest of the script ("$@") as that user.
seismo_drop_to_sudo_user() {
  if ((EUID == 0)) && [[ -n ${SUDO_USER:-} && $SUDO_USER != root ]]; then
    echo "$(basename "$0"): building and running as $SUDO_USER (packages were installed as root)" >&2
    seismo_own_build "$SUDO_USER"
    exec runuser -u "$SUDO_USER" -- env SEISMO_DEPS_DONE=1 HOME="$(getent passwd "$SUDO_USER" | cut -d: -f6)" "$@"
  fi
}

# A build folder left by an earlier run as root is given to the user who builds now (USER, or the
# current one, through sudo when needed).
seismo_own_build() {
  local who=${1:-$(id -un)} dir
  # root itself (a machine without users) writes anywhere: nothing to give back.
  [[ $who == root ]] && return
  for dir in build build-san; do
    [[ -e $dir ]] || continue
    if [[ -n $(find "$dir" -maxdepth 3 ! -user "$who" -print -quit 2>/dev/null) ]]; then
      echo "$(basename "$0"): $dir/ has files of another user (an earlier run as root): giving it to $who" >&2
      if ((EUID == 0)); then
        chown -R "$who": "$dir"
      elif command -v sudo >/dev/null; then
        sudo chown -R "$(id -u):$(id -g)" "$dir"
      else
        echo "$(basename "$0"): cannot change $dir/ without root: remove it or run 'chown -R $who: $dir' as root" >&2
        exit 1
      fi
    fi
  done
}

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The shell completions (app/completions) and the man pages (docs/man) against the real CLI: the
# bash completion sourced and asked as bash would ask it; zsh and fish scripts parsed; every
# command `seismo-cli --help` lists has its completion and its man page. TAP.
#
#   test-completion.sh SEISMO_CLI SOURCE_DIR
set -u
CLI=$1 SRC=$2
. "$SRC/tests/lib/tap.sh"
. "$SRC/app/completions/seismo-cli.bash"

# complete WORDS...: the candidates for the last word (empty for a new word), one per line.
complete_words() {
  COMP_WORDS=("$CLI" "$@")
  COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
  COMPREPLY=()
  _seismo_cli
  printf '%s\n' "${COMPREPLY[@]}"
}
has() { grep -qx -- "$1" <<<"$2"; }

out=$(complete_words in); check "commands: 'in' gives info" has info "$out"
out=$(complete_words compare); check "commands: 'compare' gives compare and compare-overhead" \
  bash -c "grep -qx compare <<<'$out' && grep -qx compare-overhead <<<'$out'"
out=$(complete_words report --l); check "options: report --l gives --limit" has --limit "$out"
out=$(complete_words explain --j); check "options: explain --j gives --json" has --json "$out"
out=$(complete_words record -b p); check "backends: -b p gives ptrace" has ptrace "$out"
out=$(complete_words stats --by sy); check "values: --by sy gives syscall" has syscall "$out"
out=$(complete_words record -b ptrace -e opena); check "events: -e opena gives openat (--list-events)" has openat "$out"
out=$(complete_words record -b ptrace -e read,opena); check "events: a list completes its last item" has read,openat "$out"
out=$(complete_words record -b ptrace -e %fi); check "events: syscall classes" has %file "$out"
out=$(complete_words explain opena); check "explain completes syscall names" has openat "$out"
out=$(complete_words lesson ""); check "lesson: check and list" bash -c "grep -qx check <<<'$out' && grep -qx list <<<'$out'"

mkdir -p "$DIR/t/sub"
touch "$DIR/t/a.seismo" "$DIR/t/trace.dat" "$DIR/t/log.strace" "$DIR/t/photo.png" "$DIR/t/fig.svg"
out=$(complete_words info "$DIR/t/")
check "files: info offers traces and folders" \
  bash -c "grep -qx '$DIR/t/a.seismo' <<<'$out' && grep -qx '$DIR/t/trace.dat' <<<'$out' && grep -qx '$DIR/t/log.strace' <<<'$out' && grep -qx '$DIR/t/sub' <<<'$out'"
check "files: info leaves out pictures" bash -c "! grep -q photo.png <<<'$out'"
out=$(complete_words render "$DIR/t/a.seismo" -o "$DIR/t/")
check "files: render -o offers figures only" bash -c "grep -qx '$DIR/t/fig.svg' <<<'$out' && ! grep -q a.seismo <<<'$out'"
out=$(complete_words record -b ptrace -o x.seismo -- ech)
check "after --: commands" has echo "$out"

# Every command of the CLI, completed and documented.
mapfile -t commands < <("$CLI" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
check "seismo-cli --help lists commands" test "${#commands[@]}" -ge 10
for c in "${commands[@]}"; do
  out=$(complete_words "$c")
  check "$c: completed" has "$c" "$out"
  check "$c: man page seismo-cli-$c(1)" test -s "$SRC/docs/man/seismo-cli-$c.1.scd"
done
check "--help points at the man pages, not at docs/" \
  bash -c "'$CLI' --help | grep -q 'man seismo-filter' && ! '$CLI' --help | grep -q 'docs/'"

if command -v zsh >/dev/null; then
  check "zsh completion parses" zsh -n "$SRC/app/completions/_seismo-cli"
else
  skip "zsh completion parses" "zsh is not installed"
fi
if command -v fish >/dev/null; then
  check "fish completions parse" fish --no-execute "$SRC/app/completions/seismo-cli.fish" "$SRC/app/completions/seismo.fish"
  # Asked as fish asks them (complete -C), with the CLI on PATH as an installed one would be.
  fish_complete() {
    PATH="$(dirname "$CLI"):$PATH" fish --no-config -c \
      "source '$SRC/app/completions/seismo-cli.fish'; complete -C '$1'" | cut -f1
  }
  out=$(fish_complete "seismo-cli in"); check "fish: 'in' gives info" has info "$out"
  out=$(fish_complete "seismo-cli report --l"); check "fish: report --l gives --limit" has --limit "$out"
  out=$(fish_complete "seismo-cli record -b p"); check "fish: -b p gives ptrace" has ptrace "$out"
  out=$(fish_complete "seismo-cli record -b ptrace -e opena"); check "fish: -e opena gives openat" has openat "$out"
  out=$(fish_complete "seismo-cli stats --by sy"); check "fish: --by sy gives syscall" has syscall "$out"
  out=$(fish_complete "seismo-cli info $DIR/t/")
  check "fish: info offers traces" bash -c "grep -qx '$DIR/t/a.seismo' <<<'$out' && ! grep -q photo.png <<<'$out'"
  out=$(fish_complete "seismo-cli render $DIR/t/a.seismo -o $DIR/t/")
  check "fish: render -o offers figures only" bash -c "grep -qx '$DIR/t/fig.svg' <<<'$out' && ! grep -q a.seismo <<<'$out'"
  out=$(PATH="$(dirname "$CLI"):$PATH" fish --no-config -c \
    "source '$SRC/app/completions/seismo.fish'; complete -C 'seismo $DIR/t/'" | cut -f1)
  check "fish: seismo offers traces and folders only" \
    bash -c "grep -qx '$DIR/t/trace.dat' <<<'$out' && grep -qx '$DIR/t/sub/' <<<'$out' && ! grep -q photo.png <<<'$out'"
else
  skip "fish completions parse" "fish is not installed"
fi
tap_end

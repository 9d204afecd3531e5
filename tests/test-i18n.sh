#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Translations: every catalog of po/LINGUAS passes msgfmt --check and translates every message
# of a fresh extraction (no untranslated or fuzzy entry); po/POTFILES.in names every file with
# translatable text; seismo-cli speaks German and French with the catalogs of the build tree. TAP.
#
#   test-i18n.sh SEISMO_CLI SOURCE_DIR
set -u
CLI=$1 SRC=$2
. "$SRC/tests/lib/tap.sh"

# The messages as `ninja seismo-pot` extracts them (po/meson.build: the glib preset and the lesson keys).
(cd "$SRC" && xgettext --package-name=seismo --from-code=UTF-8 --add-comments -o "$DIR/seismo.pot" \
  --files-from=po/POTFILES.in --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dngettext:2,3 --keyword=Title --keyword=Summary --keyword=Text --keyword=Question \
  --keyword=Answer --flag=g_dngettext:2:pass-c-format --flag=N_:1:pass-c-format 2>"$DIR/xgettext.log")
check "xgettext extracts the messages" test -s "$DIR/seismo.pot"
n_msgs=$(grep -c "^msgid " "$DIR/seismo.pot")
check "more than 900 messages ($n_msgs)" test "$n_msgs" -gt 900

mapfile -t langs < <(grep -v '^#' "$SRC/po/LINGUAS" | sed '/^$/d')
check "po/LINGUAS is de es fr pt_BR" test "${langs[*]}" = "de es fr pt_BR"
for l in "${langs[@]}"; do
  po=$SRC/po/$l.po
  check "$l: msgfmt --check" msgfmt --check -o /dev/null "$po"
  stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$po" 2>&1)
  check "$l: no untranslated or fuzzy message ($stats)" bash -c "! grep -qE 'untranslated|fuzzy' <<<'$stats'"
  missing=$(msgcmp "$po" "$DIR/seismo.pot" 2>&1 | grep -c 'this message is used but not defined')
  check "$l: every extracted message is translated ($missing missing)" test "$missing" -eq 0
done

# Every source file with translatable text is in POTFILES.in.
mapfile -t listed < <(grep -v '^#' "$SRC/po/POTFILES.in")
unlisted=()
while read -r f; do
  printf '%s\n' "${listed[@]}" | grep -qx "$f" || unlisted+=("$f")
done < <(cd "$SRC" && { grep -lE '(^|[^A-Za-z0-9_])N?_\(|g_dngettext' data/*.c backends/*.c backends/*/*.c app/*.c widgets/*.c;
                         grep -l 'translatable="yes"' app/*.ui app/gtk/*.ui widgets/*.ui; } | grep -v 'seismo-i18n.c' | sort -u)
check "POTFILES.in names every file with translatable text${unlisted:+ (missing: ${unlisted[*]})}" test ${#unlisted[@]} -eq 0

# The CLI in German and French.
if locale -a | grep -qix de_DE.utf8; then
  err=$(LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= "$CLI" info /nonexistent 2>&1); rc=$?
  check "LANG=de_DE.UTF-8 seismo-cli info /nonexistent: German, exit 1 ($err)" \
    bash -c "test $rc -eq 1 && grep -q 'konnte nicht geöffnet werden' <<<'$err'"
  out=$(LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= "$CLI" --help)
  check "seismo-cli --help in German" grep -q '^Befehle:' <<<"$out"
  err=$(LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= "$CLI" report --limit -5 /nonexistent 2>&1)
  check "a usage error in German" grep -q 'seismo-cli report: --limit' <<<"$err"
  err=$(LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= "$CLI" report --filter 'pdi == 3' "$SRC/app/resources/samples/hello-syscalls.seismo" 2>&1)
  check "a filter error from the data layer in German ($err)" grep -q "unbekanntes Feld 'pdi'" <<<"$err"
else
  skip "seismo-cli in German" "the de_DE.UTF-8 locale is not installed (tools/deps.sh generates it)"
fi
if locale -a | grep -qix fr_FR.utf8; then
  out=$(LANG=fr_FR.UTF-8 LC_ALL= LANGUAGE= "$CLI" --help)
  check "seismo-cli --help in French" grep -q '^Commandes :' <<<"$out"
else
  skip "seismo-cli in French" "the fr_FR.UTF-8 locale is not installed"
fi
# The explain texts: their own domain (po/explain), extracted by tools/explain-pot.py.
python3 "$SRC/tools/explain-pot.py" "$DIR/seismo-explain.pot" "$SRC"/data/explain/*.ini
check "explain texts extracted ($(grep -c '^msgid ' "$DIR/seismo-explain.pot") messages)" \
  test "$(grep -c '^msgid ' "$DIR/seismo-explain.pot")" -gt 500
for l in $(grep -v '^#' "$SRC/po/explain/LINGUAS"); do
  check "explain $l: msgfmt --check" msgfmt --check -o /dev/null "$SRC/po/explain/$l.po"
  stale=$(msgcmp "$SRC/po/explain/$l.po" "$DIR/seismo-explain.pot" 2>&1 | grep -c 'used but not defined')
  check "explain $l: every extracted text translated ($stale missing)" test "$stale" -eq 0
done
if locale -a | grep -qix de_DE.utf8; then
  out=$(LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= "$CLI" explain ENOENT R)
  check "seismo-cli explain in German" bash -c "grep -q 'existiert nicht' <<<'$out' && grep -q 'Laufend oder lauffähig' <<<'$out'"
fi
err=$(LANG=C LC_ALL= LANGUAGE= "$CLI" info /nonexistent 2>&1)
check "LANG=C stays English" grep -q 'Could not open /nonexistent' <<<"$err"
tap_end

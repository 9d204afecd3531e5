#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Lessons for teachers: `seismo-cli lesson check` with line numbers, lessons found in
# $XDG_DATA_HOME and $XDG_DATA_DIRS (the first folder wins), a lesson's own sample beside it. TAP.
#
#   test-lesson-check.sh SEISMO_CLI SOURCE_DIR
set -u
CLI=$1 SRC=$2
. "$SRC/tests/lib/tap.sh"
SAMPLES=$SRC/app/resources/samples
unset SEISMO_LESSONS_DIR
export SEISMO_SAMPLES_DIR=$SAMPLES

# The sources of the bundled lessons (msgfmt only adds their translations).
for l in "$SRC"/app/resources/lessons/*.lesson.desktop.in; do
  out=$("$CLI" lesson check "$l" 2>&1); rc=$?
  check "bundled $(basename "$l") checks out" bash -c "test $rc -eq 0 && grep -q 'every expression matches' <<<'$out'"
done
check "the docs' example lesson checks out" bash -c "
  sed -n '/^\`\`\`ini\$/,/^\`\`\`\$/p' '$SRC/docs/writing-lessons.md' | sed '1d;\$d' > '$DIR/example.lesson'
  test -s '$DIR/example.lesson' && '$CLI' lesson check '$DIR/example.lesson' >/dev/null"

# Mistakes, each on its line.
cat > "$DIR/bad.lesson" <<'LESSON'
# a lesson with a mistake on nearly every line
[Lesson]
Title=Broken
Sampel=hello-syscalls.seismo

[Step 1]
Txt=hello
Title[de]=Hallo

[Step 3]
Text=three
ZoomCount=zero
this line has no equals sign
[Extra]
LESSON
out=$("$CLI" lesson check "$DIR/bad.lesson" 2>&1); rc=$?
check "a broken lesson fails with 1" test $rc -eq 1
for want in "bad.lesson:4: unknown key “Sampel”" "bad.lesson:7: unknown key “Txt”" \
            "bad.lesson:13: expected “Key=value”" "bad.lesson:14: unknown group \[Extra\]"; do
  check "says ${want#bad.lesson}" grep -q "$want" <<<"$out"
done
sed -i '/no equals sign/d; /^\[Extra\]/d' "$DIR/bad.lesson"
out=$("$CLI" lesson check "$DIR/bad.lesson" 2>&1)
for want in "bad.lesson:2: \[Lesson\] needs Sample=" "bad.lesson:6: \[Step 1\] has no Text=" \
            "bad.lesson:12: ZoomCount takes a number" "bad.lesson:10: \[Step 2\] is missing"; do
  check "says ${want#bad.lesson}" grep -q "$want" <<<"$out"
done
check "Title[de] is a translation, not an unknown key" bash -c "! grep -q 'Title\[de\]' <<<'$out'"

# Expressions resolved against the sample, with the line of their key.
cat > "$DIR/expr.lesson" <<'LESSON'
[Lesson]
Title=Expressions
Sample=hello-syscalls.seismo

[Step 1]
Text=one
Filter=pdi == 3

[Step 2]
Text=two
MarkerA=syscall == openat
MarkerB=comm == nobody-has-this-name
LESSON
out=$("$CLI" lesson check "$DIR/expr.lesson" 2>&1); rc=$?
check "a wrong expression fails with 1" test $rc -eq 1
check "line 7: the filter's own suggestion" grep -q "expr.lesson:7: \[Step 1\] Filter=pdi == 3: unknown field 'pdi' — did you mean 'pid'?" <<<"$out"
check "line 12: an expression that matches nothing" grep -q "expr.lesson:12: \[Step 2\] MarkerB=.*no event matches" <<<"$out"
"$CLI" lesson check --sample "$SAMPLES/cpu-fight.seismo" "$DIR/expr.lesson" >/dev/null 2>&1
check "--sample checks against another trace (and still fails)" test $? -eq 1
"$CLI" lesson >/dev/null 2>&1; check "lesson alone is a usage error (2)" test $? -eq 2
"$CLI" lesson frob x >/dev/null 2>&1; check "lesson frob is a usage error (2)" test $? -eq 2
"$CLI" lesson check "$DIR/missing.lesson" >/dev/null 2>&1; check "a missing lesson file fails with 1" test $? -eq 1

# A teacher's lessons: $XDG_DATA_HOME first, then each of $XDG_DATA_DIRS; a sample beside it.
home=$DIR/home/seismo/lessons sys=$DIR/sys/seismo/lessons
mkdir -p "$home/traces" "$sys"
cp "$SAMPLES/hello-syscalls.seismo" "$home/traces/my-own-trace.seismo"
cat > "$home/mine.lesson" <<'LESSON'
[Lesson]
Title=My own lesson
Sample=traces/my-own-trace.seismo
Order=1

[Step 1]
Text=Look at the first openat.
Select=syscall == openat
LESSON
sed 's/^Title=My own lesson/Title=The system copy/' "$home/mine.lesson" > "$sys/mine.lesson"
sed 's/^Title=My own lesson/Title=A system lesson/; s|^Sample=.*|Sample=cpu-fight.seismo|; s/^Select=.*/Select=sched:sched_switch/' \
  "$home/mine.lesson" > "$sys/other.lesson"
export XDG_DATA_HOME=$DIR/home XDG_DATA_DIRS=$DIR/sys:/nonexistent
out=$("$CLI" lesson list)
check "lesson list finds the lesson in \$XDG_DATA_HOME" grep -q "^mine	My own lesson	$home/mine.lesson" <<<"$out"
check "lesson list finds the lesson in \$XDG_DATA_DIRS" grep -q "^other	A system lesson	$sys/other.lesson" <<<"$out"
check "the \$XDG_DATA_HOME copy hides the system one" bash -c "! grep -q 'The system copy' <<<'$out'"
out=$("$CLI" lesson check "$home/mine.lesson" 2>&1)
check "a lesson's own sample, beside it" grep -q "in $home/traces/my-own-trace.seismo" <<<"$out"
check "a system lesson's sample among the bundled ones" \
  bash -c "'$CLI' lesson check '$sys/other.lesson' | grep -q 'cpu-fight.seismo'"
rm "$home/traces/my-own-trace.seismo"
out=$("$CLI" lesson check "$home/mine.lesson" 2>&1); rc=$?
check "a sample found nowhere fails with 1 and says where it looked" \
  bash -c "test $rc -eq 1 && grep -q 'Sample=traces/my-own-trace.seismo is neither in' <<<'$out'"
tap_end

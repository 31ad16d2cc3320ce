#!/bin/sh
# Golden pipeline cases: Tests/Golden/<program>/<NNNN>/{cmd, input, expout[, experr, should-fail]}.
# Each case runs `cmd` with sh in its own folder, with the built programs and bin/ first on PATH,
# a fresh PB_HOME, `input` (if any) on standard input. Standard output must equal `expout`;
# standard error `experr` when that file exists; the exit status the number in `should-fail`
# (default 0). Paths that differ between machines are replaced before comparing: the case folder
# by $CASE, PB_HOME by $PB_HOME, the repository by $ROOT; "seconds" figures by 0.
# GOLDEN_UPDATE=1 re-records expout/experr (review with git diff); GOLDEN_ONLY='pb-chunk/001*'
# runs (or re-records) only the cases whose name matches that shell pattern.
set -u
# The user's default library, working hours, calendar folder, contacts and PB_NOW must not leak into a run.
unset PB_LIBRARY PB_WORK_HOURS PB_CALENDAR_DIR PB_NOW PB_CONTACTS PB_FROM
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
pass=0
fail=0
failed=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
normalise() {
  sed -e "s|$case_dir|\$CASE|g" -e "s|$home|\$PB_HOME|g" -e "s|$root|\$ROOT|g" -e 's/"seconds":[0-9.e-]*/"seconds":0/g' "$1"
}
for case_dir in "$root"/Tests/Golden/*/[0-9]*; do
  [ -f "$case_dir/cmd" ] || continue
  name=${case_dir#"$root/Tests/Golden/"}
  # shellcheck disable=SC2254
  case $name in ${GOLDEN_ONLY:-*}) ;; *) continue ;; esac
  home="$tmp/home-$(echo "$name" | tr / -)"
  mkdir -m 700 "$home"
  input=/dev/null
  [ -f "$case_dir/input" ] && input="$case_dir/input"
  (cd "$case_dir" && PATH="$build:$root/bin:$PATH" PB_HOME="$home" PB_BUILD="$build" ROOT_FIXTURES="$root/Tests/Fixtures" \
     sh ./cmd <"$input" >"$tmp/out" 2>"$tmp/err")
  status=$?
  want=0
  [ -f "$case_dir/should-fail" ] && want=$(cat "$case_dir/should-fail")
  normalise "$tmp/out" >"$tmp/out.n"
  normalise "$tmp/err" >"$tmp/err.n"
  if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
    cp "$tmp/out.n" "$case_dir/expout"
    [ -f "$case_dir/experr" ] && cp "$tmp/err.n" "$case_dir/experr"
  fi
  ok=1
  [ "$status" = "$want" ] || { ok=0; echo "golden $name: exit status $status, expected $want"; }
  if ! cmp -s "$tmp/out.n" "$case_dir/expout"; then
    ok=0; echo "golden $name: standard output differs:"; diff "$case_dir/expout" "$tmp/out.n" | head -20
  fi
  if [ -f "$case_dir/experr" ] && ! cmp -s "$tmp/err.n" "$case_dir/experr"; then
    ok=0; echo "golden $name: standard error differs:"; diff "$case_dir/experr" "$tmp/err.n" | head -20
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed="$failed $name"; cat "$tmp/err" | head -5; fi
done
echo "golden: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }

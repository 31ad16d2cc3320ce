#!/bin/sh
# Runs every `.Dl $ ...` example of the man pages: in Tests/Fixtures/samples, with a fresh
# PB_HOME in which that folder has been ingested into the library `default`, the built programs
# and bin/ first on PATH. Each example must exit 0.
set -u
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY PB_WORK_HOURS PB_CALENDAR_DIR PB_CONTACTS PB_FROM
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export PB_HOME="$home" PATH="$build:$root/bin:$PATH"
cd "$root/Tests/Fixtures/samples" || exit 1
pb-ingest . 2>/dev/null || { echo "man-examples: could not ingest the samples"; exit 1; }
pass=0
fail=0
for page in "$root"/man/man*/*.[157]; do
  grep '^\.Dl \$ ' "$page" | sed -e 's/^\.Dl \$ //' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\e/\\/g' >"$home/examples"
  while IFS= read -r example; do
    # pipefail: an example is a pipeline, and any stage that fails fails it (pb-search --bogus | jq).
    # An example that shows a failure says so at its end ("# exit status 66") and must give it.
    want=0
    case $example in *"# exit status "[0-9]*) want=${example##*# exit status } ;; esac
    bash -o pipefail -c "$example" >/dev/null 2>"$home/err" </dev/null
    got=$?
    if [ "$got" = "$want" ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      echo "man-examples: $(basename "$page"): failed (status $got, wanted $want): $example"
      head -n 3 "$home/err"
    fi
  done <"$home/examples"
done
echo "man-examples: $pass passed, $fail failed"
[ $fail = 0 ]

#!/bin/sh
# Runs every `.Dl $ ...` example of the man pages: in Tests/Fixtures/samples, with a fresh
# PB_HOME in which that folder has been ingested into the library `default`, the built programs
# and bin/ first on PATH. Each example must exit 0.
set -u
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
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
    if sh -c "$example" >/dev/null 2>"$home/err" </dev/null; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      echo "man-examples: $(basename "$page"): failed: $example"
      head -n 3 "$home/err"
    fi
  done <"$home/examples"
done
echo "man-examples: $pass passed, $fail failed"
[ $fail = 0 ]

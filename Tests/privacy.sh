#!/bin/sh
# Private by default: under a permissive umask (022), every file PocketBrains creates under a fresh
# PB_HOME is 0600 and every folder 0700, and so is the default PB_HOME that XDG's rules give
# (~/.local/share/pocketbrains, and ~/.local/share when it is missing). An existing PB_HOME that
# others can read is named in a warning. The work done here touches every store: a library (and
# its OCR cache), the agent store with a task, a note, a draft, an e-mail and a calendar event,
# status.json, a memory, pb-ask's session and the sentence-vector cache.
# Usage: sh Tests/privacy.sh [BUILD_DIR]
set -u
build=$(cd "${1:-.build/release}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
PATH="$build:$root/bin:$PATH"
export PATH
# The model stays where the caller's environment puts it; every home here is new, and the user's
# PB_HOME or XDG_DATA_HOME must not stand in for the default one this checks.
PB_MODEL_DIR=$(pocketbrains --model-dir) || true
export PB_MODEL_DIR
unset PB_HOME PB_LIBRARY PB_CALENDAR_DIR PB_WORK_HOURS XDG_DATA_HOME
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAILED: $1"; }
umask 022

# The default home, from HOME, with ~/.local/share missing.
export HOME="$tmp/user"
mkdir -p "$HOME"
chmod 755 "$HOME"
echo "A note about the attic hatch." >"$tmp/attic.txt"
pb-ingest --no-embed "$tmp/attic.txt" >/dev/null 2>&1 || bad "pb-ingest into the default home"
mode() { stat -c '%a' "$1"; }
[ "$(mode "$HOME/.local/share/pocketbrains")" = 700 ] && ok "the default PB_HOME is created 0700" ||
  bad "the default PB_HOME is $(mode "$HOME/.local/share/pocketbrains")"
[ "$(mode "$HOME/.local/share")" = 700 ] && ok "a missing ~/.local/share is created 0700 (XDG)" ||
  bad "~/.local/share is $(mode "$HOME/.local/share")"

# Everything else, in a PB_HOME that does not exist yet.
export PB_HOME="$tmp/home/pocketbrains"
mkdir -p "$tmp/home" && chmod 755 "$tmp/home"
pb-ingest "$root/Tests/Fixtures/samples" "$root/Tests/Fixtures/scans/receipt.png" >/dev/null 2>&1 || bad "pb-ingest of the samples and a scan"
pb-ask "how much did the dishwasher cost?" >/dev/null 2>&1
pb-ask --session kitchen "what does the dishwasher manual say about the filter?" >/dev/null 2>&1
now=2026-03-02T09:00:00Z
export PB_CONTACTS="$root/Tests/Fixtures/contacts"
for request in "remind me to renew the car insurance tomorrow" "note: the wifi password is hunter2" \
    "message Priya: the key is under the blue pot" "email Myra about the spare key: it is under the blue pot" \
    "book 1 hour for the tax return tomorrow at 10am"; do
  pb-do --yes --now "$now" "$request" >/dev/null 2>&1
done
pb-brief --status --now "$now" >/dev/null 2>&1
pb-thread --memory home --now "$now" "The gate code is 5190." >/dev/null 2>&1
pb-thread --memory home --now "$now" "what is the gate code?" >/dev/null 2>&1
for f in store.sqlite status.json calendar/pocketbrains.ics libraries/default/index.sqlite libraries/default/vectors.f32 \
    memory/home/memory.sqlite sessions/kitchen.ndjson; do
  [ -e "$PB_HOME/$f" ] || bad "the run did not make $f (the check below would miss it)"
done
ls "$PB_HOME/drafts" 2>/dev/null | grep -q . || bad "the run made no draft"
ls "$PB_HOME/cache" 2>/dev/null | grep -q . || bad "the run made no cache"
open=$(find "$PB_HOME" \( -type f -perm /077 \) -o \( -type d -perm /077 \) | sed "s|$PB_HOME|PB_HOME|")
[ "$(mode "$PB_HOME")" = 700 ] && ok "PB_HOME is created 0700" || bad "PB_HOME is $(mode "$PB_HOME")"
if [ -z "$open" ]; then
  ok "all $(find "$PB_HOME" | wc -l | tr -d ' ') files and folders under PB_HOME are private (0600, 0700)"
else
  bad "open to others under umask 022: $(for p in $open; do printf '%s %s; ' "$(stat -c %a "$(echo "$p" | sed "s|PB_HOME|$PB_HOME|")")" "$p"; done)"
fi

# An existing PB_HOME open to others is named, and its files are still made private.
export PB_HOME="$tmp/shared-home"
mkdir -p "$PB_HOME" && chmod 755 "$PB_HOME"
pb-ingest --no-embed --library open "$tmp/attic.txt" 2>"$tmp/err" >/dev/null
grep -q "PB_HOME.*readable by others\|open to others" "$tmp/err" && ok "an existing PB_HOME open to others is named in a warning" ||
  bad "no warning for a PB_HOME of mode 755: $(cat "$tmp/err")"
[ -z "$(find "$PB_HOME" -mindepth 1 \( -type f -perm /077 \) -o \( -type d -mindepth 1 -perm /077 \))" ] &&
  ok "files under an open PB_HOME are still private" || bad "files under an open PB_HOME are open"

echo "privacy: $pass passed, $fail failed"
[ $fail = 0 ]

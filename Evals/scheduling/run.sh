#!/bin/sh
# The scheduling check: find_slot on generated calendar files (RRULEs, EXDATEs, moved
# and cancelled occurrences, transparent and all-day events, six zones, summer-time changes),
# every slot checked free against an independent expansion by Python's icalendar and
# recurring-ical-events (from PyPI, in a venv of this check only); then schedule writes events
# into PocketBrains' own calendar, icalendar reads them back, and pb-undo takes out exactly
# the last turn's. Prints EVALJSON lines; exits 1 on any failure.
#   run.sh [BUILD_DIR]
set -eu
unset PB_LIBRARY PB_WORK_HOURS PB_CALENDAR_DIR PB_CONTACTS
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="$root/.build/scheduling-venv"
# Pinned, so the independent side does not move under the check.
if ! "$venv/bin/python" -c 'import icalendar, recurring_ical_events' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check icalendar==7.3.2 recurring-ical-events==3.8.2
fi
py="$venv/bin/python"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM
"$py" "$here/gen.py" "$out"
export PB_HOME="$out/home"
mkdir -p "$PB_HOME"
"$build/pb-exec" --json --calendar-dir "$out/cal" "$out/plans.jsonl" >"$out/results.jsonl"
"$py" "$here/check.py" "$out" "$out/results.jsonl"

# schedule: two turns, read back by icalendar, the second undone.
pb() { "$build/pb-exec" --json "$@"; }
echo '{"now":"2027-03-10T09:00:00+01:00","steps":[
  {"tool":"schedule","args":{"title":"Meeting with Sam","start":"2027-03-16T15:00:00+01:00","attendees":["Sam"]}},
  {"tool":"schedule","args":{"title":"Dentist","start":"2027-03-29T08:30:00+02:00","minutes":45}},
  {"tool":"schedule","args":{"title":"Offsite","start":"2027-04-01"}}]}' | tr -d '\n' | pb >"$out/turn1.jsonl"
echo '{"now":"2027-03-10T09:05:00+01:00","steps":[
  {"tool":"schedule","args":{"title":"Report","start":"2027-03-11T10:00:00Z","minutes":120,"attendees":["Ana <ana@example.org>","Priya"]}}]}' | tr -d '\n' | pb >"$out/turn2.jsonl"
ics="$PB_HOME/calendar/pocketbrains.ics"
uids() { jq -r '.steps[].ref.uid' "$1"; }
jq -s '[.[] | .steps[] | {(.ref.uid): {summary: .data.title, start: .data.start, end: .data.end, attendees: [.data.attendees[] | sub(" <.*>$"; "")]}}] | add' \
  "$out/turn1.jsonl" "$out/turn2.jsonl" >"$out/all.json"
"$py" "$here/own.py" "$ics" "$out/all.json"
"$build/pb-undo" --json >/dev/null
jq -s '[.[] | .steps[] | {(.ref.uid): {summary: .data.title, start: .data.start, end: .data.end, attendees: .data.attendees}}] | add' "$out/turn1.jsonl" >"$out/first.json"
uids "$out/turn2.jsonl" | jq -R . | jq -s . >"$out/gone.json"
"$py" "$here/own.py" "$ics" "$out/first.json" "$out/gone.json"

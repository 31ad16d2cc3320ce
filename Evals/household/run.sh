#!/bin/sh
# Evals/household: a labelled set of household questions over 22 documents of the kinds a person
# keeps (docs/, made by make.sh), asked through pb-ask.
#   docs/ -> pb-ingest (library "household", a fresh PB_HOME under Evals/out/household)
#   questions.jsonl -> query records -> pb-ask --json -> results.jsonl -> score.py
# Prints EVALJSON lines per kind and for all, for the tune and check halves and both, the seconds
# per question and the calibration error of the verdict's confidence (and of the household refit,
# calibration.json, written by calibrate.py from the tune half); writes report.txt.
# Usage: run.sh BUILD_DIR [--gate] [--half tune|check|all]
#   --gate   exit 1 when a half named in floors.json is under its floors
#   --half   ask only that half's questions (default all)
set -eu
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
if [ $# -lt 1 ]; then
  echo "usage: run.sh BUILD_DIR [--gate] [--half tune|check|all]" >&2; exit 64
fi
build=$(cd "$1" && pwd)
shift
gate=0
half=all
while [ $# -gt 0 ]; do
  case $1 in
    --gate) gate=1; shift ;;
    --half)
      [ $# -ge 2 ] || { echo "run.sh: --half needs tune, check or all" >&2; exit 64; }
      half=$2; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
case $half in tune|check|all) ;; *) echo "run.sh: --half takes tune, check or all, not $half" >&2; exit 64 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Evals/out/household"
mkdir -p "$out"
rm -rf "$out/home"
mkdir -m 700 "$out/home"
# The household's papers are of spring 2025: a calendar's next occurrences are listed from a fixed
# day in it, so that every run asks the same library.
export PATH="$build:$root/bin:$PATH" PB_HOME="$out/home" PB_NOW=2025-03-20T09:00:00Z

# Ingest. A document today's pb-ingest cannot read (or a format it does not walk) is named in
# ingest.log and costs only the questions about it; the run goes on.
start=$(date +%s)
status=0
pb-ingest --library household "$here/docs" 2>"$out/ingest.log" || status=$?
echo "household: ingest took $(( $(date +%s) - start ))s, status $status: $(tail -n 1 "$out/ingest.log")" >&2
[ $status = 0 ] || sed 's/^/  /' "$out/ingest.log" >&2

# Ask.
python3 - "$here/questions.jsonl" "$half" >"$out/queries.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if not line.strip():
        continue
    q = json.loads(line)
    if sys.argv[2] in ("all", q["half"]):
        print(json.dumps({"kind": "query", "id": q["id"], "text": q["question"]}, ensure_ascii=False))
PY
t0=$(python3 -c 'import time; print(time.time())')
pb-ask --json --library household <"$out/queries.jsonl" >"$out/results.jsonl"
t1=$(python3 -c 'import time; print(time.time())')
echo "household: $(wc -l <"$out/queries.jsonl") questions asked" >&2

# Score.
set -- "$here/questions.jsonl" "$out/results.jsonl" --seconds "$(python3 -c "print($t1 - $t0)")" \
  --report "$out/report.txt" --outcomes "$out/outcomes.jsonl" --half "$half"
if [ $gate = 1 ]; then
  set -- "$@" --floors "$here/floors.json"
fi
# The Platt scaling refitted on the tune half (calibrate.py): its calibration error is reported
# beside that of the confidence pb-verify showed (fitted on SQuAD).
if [ -f "$here/calibration.json" ]; then
  set -- "$@" --calibration "$here/calibration.json"
fi
rc=0
python3 "$here/score.py" "$@" >"$out/evaljson.txt" || rc=$?
cat "$out/evaljson.txt"
echo "household: per question in $out/report.txt" >&2
exit $rc

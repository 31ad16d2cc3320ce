#!/bin/sh
# Evals/answers: SQuAD 2.0 (Evals/data/squad_v2/dev-half.json) through pb-ask.
#   articles -> Markdown documents (paragraphs as sections) -> pb-ingest    (library "squad")
#   every question -> pb-ask --json -> squad.py score
# Prints EVALJSON lines for all questions and for the fit (even) and check (odd) halves:
# answered with a correct citation, wrong answers, wrong abstentions, unanswerables abstained,
# and reliability bins of the confidence. calibrate.py fits pb-verify's calibration on the fit half.
# Options: --gate (exit 1 under the floors, on the check half), --every N (every Nth question).
set -eu
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
build=$(cd "${1:-.build/release}" && pwd)
shift || true
gate=0
every=1
while [ $# -gt 0 ]; do
  case $1 in
    --gate) gate=1; shift ;;
    --every) every=$2; shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/Evals/data/squad_v2/dev-half.json"
out="$root/Evals/out/answers"
mkdir -p "$out"
export PATH="$build:$root/bin:$PATH" PB_HOME="$out/home"

python3 "$here/squad.py" docs "$data" "$out/docs"
pb-ingest --library squad "$out/docs" 2>"$out/ingest.log" || { cat "$out/ingest.log" >&2; exit 1; }
python3 "$here/squad.py" queries "$data" | awk -v n="$every" 'int((NR - 1) / 2) % n == 0' >"$out/queries.jsonl"
start=$(date +%s)
pb-ask --json --library squad <"$out/queries.jsonl" >"$out/results.jsonl"
echo "answers: $(wc -l <"$out/queries.jsonl") questions in $(( $(date +%s) - start ))s" >&2
: >"$out/evaljson.txt"
for half in all fit check; do
  python3 "$here/squad.py" score "$data" "$out/results.jsonl" $half | tee -a "$out/evaljson.txt"
done
python3 "$here/squad.py" features "$data" "$out/results.jsonl" >"$out/features.jsonl"
if [ $gate = 1 ]; then
  # Floors on the check half (not fitted on), a little under what this pipeline measures, so
  # that a change that breaks answering or abstaining fails the build.
  python3 - "$out/evaljson.txt" <<'PY'
import json, sys
floors = {"answered_correct_cited": 0.55, "unanswerable_abstained": 0.44}
ceilings = {"answerable_wrongly_abstained": 0.25}
bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line.split(" ", 1)[1])
    if r["half"] != "check":
        continue
    m, v = r["metric"], r["value"]
    if m in floors and v < floors[m]:
        print("answers gate: %s %.4f under the floor %.2f" % (m, v, floors[m]), file=sys.stderr); bad = 1
    if m in ceilings and v > ceilings[m]:
        print("answers gate: %s %.4f over the ceiling %.2f" % (m, v, ceilings[m]), file=sys.stderr); bad = 1
sys.exit(bad)
PY
fi

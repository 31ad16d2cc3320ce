#!/bin/sh
# The repository stands alone: a clone must run `make test` and `make eval` with nothing beside it.
#   1. No tracked file (git ls-files) refers to the folder named shared beside the clone, where the
#      evaluation data used to be read from: as a relative path, a Python path join or a Swift
#      path built from the package root's parent. The patterns are built from pieces, so that this
#      script does not match itself.
#   2. The data the tests and evals read is in Evals/data, tracked (a file only on this machine
#      would be missing from a clone), whole (line counts, JSON that starts as JSON rather than as
#      a Git LFS pointer), with each set's provenance and licence beside it.
#
#   sh Tests/standalone.sh
#
# Ends with "standalone: N passed, N failed" and exits 1 on failure, naming the files.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
not_ok() { fail=$((fail + 1)); echo "FAIL: $1"; }

name='shared'
p_relative='\.\./'"$name"
p_python='["'"'"']\.\.["'"'"'], *["'"'"']'"$name"'["'"'"'/]'
p_swift='deletingLastPathComponent\(\)\.appendingPathComponent\("'"$name"
p_layout='(^|[^A-Za-z0-9_.-])'"$name"'/(data|fixtures|docs|seeds)([^A-Za-z0-9_-]|$)'

tracked=0
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  tracked=1
  files=$(git grep -l -E -e "$p_relative" -e "$p_python" -e "$p_swift" -e "$p_layout" -- . 2>/dev/null)
  if [ -n "$files" ]; then
    printf '%s\n' "$files" | while IFS= read -r f; do
      echo "FAIL: $f refers to the folder beside the clone; use the evaluation data in Evals/data:"
      git grep -n -E -e "$p_relative" -e "$p_python" -e "$p_swift" -e "$p_layout" -- "$f" | head -n 5 | sed 's/^/  /'
    done
    fail=$((fail + $(printf '%s\n' "$files" | wc -l)))
  else
    ok
  fi
else
  echo "standalone: not a git work tree; the check of tracked files is skipped"
fi

data=Evals/data
# A file the tests or evals read, or a set's provenance or licence: present, non-empty, tracked.
need() {
  if [ ! -s "$data/$1" ]; then
    not_ok "$data/$1 is missing or empty"
    return 1
  fi
  if [ $tracked = 1 ] && ! git ls-files --error-unmatch -- "$data/$1" >/dev/null 2>&1; then
    not_ok "$data/$1 is not tracked by git (a clone would not have it)"
    return 1
  fi
  ok
}
# need, and the file has N lines.
lines() {
  need "$1" || return 0
  n=$(wc -l <"$data/$1" | tr -d ' ')
  if [ "$n" = "$2" ]; then ok; else not_ok "$data/$1 has $n lines, not $2"; fi
}
# need, and the file begins as JSON does.
json() {
  need "$1" || return 0
  case $(head -c 1 "$data/$1") in '['|'{') ok ;; *) not_ok "$data/$1 does not begin as JSON (a Git LFS pointer?)" ;; esac
}

need README.md
# SciFact: Evals/retrieval, Evals/rerank, Evals/ocr, Evals/bench, Tests/crash.sh, the chunker tests.
need scifact/PROVENANCE.md
lines scifact/corpus.jsonl 5183
lines scifact/queries-train.jsonl 809
lines scifact/qrels-train.tsv 920
# SQuAD 2.0, half of the dev set: Evals/answers.
need squad_v2/PROVENANCE.md
json squad_v2/dev-half.json
# LoCoMo: Evals/memory, Evals/rerank/fit-memory.py, Evals/bench, Tests/crash.sh.
need memory/PROVENANCE.md
need memory/locomo/LICENSE.txt
json memory/locomo/locomo10.json
# HWU64, fold 1: Evals/router (the test fold; the training fold for tuning).
need intents/hwu64/PROVENANCE.md
need intents/hwu64/LICENSE
for fold in kfold1_testset_csv kfold1_trainset_csv; do
  n=$(ls "$data/intents/hwu64/$fold" 2>/dev/null | grep -c '\.csv$')
  if [ "$n" = 64 ]; then ok; else not_ok "$data/intents/hwu64/$fold holds $n intent files, not 64"; fi
done
for f in "$data"/intents/hwu64/kfold1_testset_csv/*.csv; do
  [ -f "$f" ] && need "${f#"$data/"}"
done
# pb-plan's labelled requests (Sources/PBAgent/Planner/LabelledRequests+Data.swift) are the
# training fold as Evals/router/labelled_requests.py writes it, not edited by hand.
if python3 Evals/router/labelled_requests.py --check >/dev/null; then ok; else not_ok "LabelledRequests+Data.swift is not what Evals/router/labelled_requests.py writes from the training fold"; fi
# The date tests of chrono and dateparser: Evals/dates/convert.py (which writes Evals/dates/cases.jsonl).
need dates/PROVENANCE.md
need dates/chrono/LICENSE.txt
need dates/dateparser/LICENSE
# Duckling's English time corpus: Evals/dates/duckling.py, gated in make test.
lines dates/duckling/time.clj 763
need dates/duckling/LICENSE
# The MiniLM reference outputs: the WordPiece and encoder unit tests, Tests/cross-encoder.sh.
need fixtures/README.md
lines fixtures/minilm-golden.jsonl 20

echo "standalone: $pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/sh
# Evals/rerank/late.sh: would MaxSim late interaction over the MiniLM token states pay as a
# pb-rerank feature? Scores the first DEPTH (default 12) candidates of every SciFact train query
# by MaxSim (PBBench maxsim: one encoder pass over the query and the passages, prefix + text as
# pb-embed reads them), refits pb-rerank's linear model with that feature on the tuning half and
# prints nDCG@10 of the fitted score with and without it on both halves (EVALJSON), and the
# encoder time per query it costs. Run by `make eval-late` (about 12 minutes on two cores).
# Needs Evals/rerank/run.sh to have run first (its search.jsonl and features.jsonl).
# Usage: late.sh [BUILD [DEPTH]]
set -eu
build=$(cd "${1:-.build/release}" && pwd)
depth=${2:-12}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Evals/out/rerank"
qrels="$root/Evals/data/scifact/qrels-train.tsv"
[ -s "$out/search.jsonl" ] && [ -s "$out/features.jsonl" ] || { echo "late.sh: run Evals/rerank/run.sh first" >&2; exit 66; }
python3 - "$out/search.jsonl" "$depth" >"$out/late-input.jsonl" <<'PY'
import json, sys
depth = int(sys.argv[2])
for line in open(sys.argv[1]):
    r = json.loads(line)
    docs = [(h["prefix"] + "\n" + h["text"]) if h.get("prefix") else h["text"] for h in r["hits"][:depth]]
    print(json.dumps({"q": r["text"], "docs": docs}))
PY
start=$(date +%s)
"$build/PBBench" maxsim <"$out/late-input.jsonl" >"$out/late-maxsim.jsonl"
seconds=$(( $(date +%s) - start ))
python3 "$here/late.py" "$qrels" "$out/features.jsonl" "$out/search.jsonl" "$out/late-maxsim.jsonl" "$depth" "$seconds"

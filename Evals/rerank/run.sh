#!/bin/sh
# Evals/rerank: pb-rerank on SciFact train through the real programs:
#   queries (embedded) -> pb-search --k 100 -> pb-rerank --k 100 -> scifact.py score
# Prints EVALJSON lines: nDCG@10, Recall@100, MRR@10 of the fused list (before) and of pb-rerank
# in each mode and with MMR off (--lambda 1), and of the packed context (pb-pack), for the tuning half (even ids, where the weights were
# fitted) and the check half (odd ids, never fitted on). Also refits the weights from this run's
# features and says whether they match the committed Evals/rerank/weights.json.
# Usage: run.sh [--gate] [BUILD [SEARCH_BUILD]]  (folders holding pb-rerank and pb-search; default
#   .build/release). --gate: exit 1 unless the standard rerank's nDCG@10 beats the fused list's on
#   the check half, which the weights were never fitted on.
# Environment: RERANK_HOME and RERANK_LIBRARY (default: Evals/retrieval's home and library scifact;
#   never the user's PB_HOME or PB_LIBRARY, which a PocketBrains user's shell holds),
#   RERANK_QUERIES (embedded query records; default Evals/retrieval's results.jsonl),
#   RERANK_CHUNKS (the corpus's chunk records; default Evals/retrieval's chunks.jsonl).
# Needs Evals/retrieval/run.sh to have built the library, or those variables pointing at one.
set -eu
gate=0
if [ "${1:-}" = "--gate" ]; then gate=1; shift; fi
build=$(cd "${1:-.build/release}" && pwd)
search_build=$(cd "${2:-$build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/Evals/data/scifact"
retrieval="$root/Evals/out/retrieval"
out="$root/Evals/out/rerank"
mkdir -p "$out"
export PB_HOME="${RERANK_HOME:-$retrieval/home}"
unset PB_LIBRARY
library=${RERANK_LIBRARY:-scifact}
queries=${RERANK_QUERIES:-$retrieval/results.jsonl}
chunks=${RERANK_CHUNKS:-$retrieval/chunks.jsonl}
qrels="$data/qrels-train.tsv"
score="$root/Evals/retrieval/scifact.py"

"$search_build/pb-search" --library "$library" --k 100 <"$queries" >"$out/search.jsonl"
"$build/pb-rerank" --features <"$out/search.jsonl" >"$out/features.jsonl"
python3 "$here/fit.py" "$qrels" "$out/features.jsonl" "$out/weights.json" 2>"$out/fit.log"
if cmp -s "$out/weights.json" "$here/weights.json"; then
  echo "rerank: refit weights match Evals/rerank/weights.json" >&2
else
  echo "rerank: refit weights differ from Evals/rerank/weights.json (see $out/weights.json)" >&2
fi

# One half of a results file, and its scores labelled with the list's name.
half() {
  python3 - "$1" "$2" <<'PY'
import json, sys
want = sys.argv[2]
for l in open(sys.argv[1]):
    qid = json.loads(l)["id"]
    if want == "all" or ("tune" if int(qid) % 2 == 0 else "check") == want:
        sys.stdout.write(l)
PY
}
report_lines() { # name results
  for split in all tune check; do
    half "$2" $split >"$out/part.jsonl"
    # Only the final list: the per-list rankings pb-search kept (--explain) are Evals/retrieval's.
    python3 "$score" score "$qrels" "$chunks" "$out/part.jsonl" $split | grep '"list": "fused"' | sed "s/\"list\": \"fused\"/\"list\": \"$1\"/"
  done
}
# Every EVALJSON line also goes to $out/eval.txt, which the gate reads.
: >"$out/eval.txt"
report() { # name results
  report_lines "$@" | tee -a "$out/eval.txt"
}
report fused "$out/search.jsonl"
for mode in fast standard deep; do
  "$build/pb-rerank" --k 100 --mode $mode <"$out/search.jsonl" >"$out/rerank-$mode.jsonl"
  report "rerank-$mode" "$out/rerank-$mode.jsonl"
done
"$build/pb-rerank" --k 100 --lambda 1 <"$out/search.jsonl" >"$out/rerank-nommr.jsonl"
report "rerank-nommr" "$out/rerank-nommr.jsonl"
# The final context: what pb-pack puts on the desk after the standard rerank (anchors by rank,
# then lookup and reference passages), scored as a ranked list of documents.
"$build/pb-rerank" --mode standard <"$out/search.jsonl" | "$build/pb-pack" --library "$library" >"$out/context.jsonl"
jq -c '{id, hits: ([.context.evidence[] | {path, rank: (.rank // 1000), n}] | sort_by(.rank, .n))}' "$out/context.jsonl" >"$out/context-hits.jsonl"
report "context" "$out/context-hits.jsonl"
rm -f "$out/part.jsonl"
[ "$gate" = 1 ] || exit 0
python3 - "$out/eval.txt" <<'PY'
import json, sys
ndcg = {}
for line in open(sys.argv[1]):
    if line.startswith("EVALJSON "):
        r = json.loads(line[len("EVALJSON "):])
        if r.get("split") == "check":
            ndcg[r["list"]] = r["ndcg@10"]
fused, reranked = ndcg.get("fused"), ndcg.get("rerank-standard")
if fused is None or reranked is None or not reranked > fused:
    print(f"rerank gate failed: reranked {reranked} <= fused {fused} on the held-out half")
    sys.exit(1)
print(f"rerank gate: passed (held-out nDCG@10 {fused} -> {reranked})")
PY

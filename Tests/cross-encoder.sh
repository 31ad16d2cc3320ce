#!/bin/sh
# pb-rerank --model against a real BERT cross-encoder file, with its scores checked against an
# independent numpy forward pass. No cross-encoder can be fetched here, so one is made from the
# MiniLM weights plus a classifier head (Tests/Fixtures/cross_encoder.py), with one label and
# with two; the scores pb-rerank writes must match the reference, and the hits must come out in
# the reference's order. Also: a folder that is not a cross-encoder (the plain MiniLM model has
# no classifier) is status 69, a missing folder 66.
#
#   sh Tests/cross-encoder.sh [BUILD]    BUILD holds pb-rerank (default .build/release)
#
# Needs PB_MODEL_DIR (or the default model folder), python3 with numpy (make deps) and jq.
# Ends with "cross-encoder: N passed, N failed" and exits 1 on failure.
set -u
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-.build/release}
# Where the programs look for the model (PBEnvironment's rule, asked of the executable).
model=$("$build/pocketbrains" --model-dir) || true
golden=${PB_GOLDEN:-$root/Evals/data/fixtures/minilm-golden.jsonl}
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok: $1"; }
not_ok() { fail=$((fail + 1)); echo "FAIL: $1"; }

for labels in 1 2; do
  dir=$tmp/ce$labels
  if ! $python Tests/Fixtures/cross_encoder.py "$model" "$golden" "$dir" "$labels"; then
    not_ok "building the $labels-label cross-encoder fixture"
    continue
  fi
  # One query whose hits are the reference passages, in file order.
  jq -s -c '{kind: "query", id: 1, text: .[0].query, hits: [to_entries[] | {chunk_id: "p\(.key)", doc_id: "d\(.key)",
      path: "/ref/p\(.key).txt", title: "p\(.key)", section: [], text: .value.passage, start: 0,
      end: (.value.passage | utf8bytelength), line_start: 1, line_end: 1, scores: {fused: 0.01}, rank: (.key + 1)}]}' \
      "$dir/reference.jsonl" >"$tmp/query$labels"
  n=$(wc -l <"$dir/reference.jsonl")
  if ! "$build/pb-rerank" --model "$dir" --k "$n" --per-doc 5 --lambda 1 --margin 1000 <"$tmp/query$labels" >"$tmp/out$labels" 2>"$tmp/err$labels"; then
    not_ok "pb-rerank --model ($labels label): $(cat "$tmp/err$labels")"
    continue
  fi
  # Scores: within 2e-4 of the float64 reference (pb-rerank rounds to 1e-6; the encoder is fp32).
  worst=$(jq -s -r --slurpfile out "$tmp/out$labels" '
      [to_entries[] | .key as $k | .value.score as $want
       | ($out[0].hits[] | select(.chunk_id == "p\($k)") | .scores.rerank) as $got
       | (($got - $want) | fabs)] | if length == '"$n"' then max else "missing" end' "$dir/reference.jsonl")
  if [ "$worst" != missing ] && jq -n -e "$worst < 0.0002" >/dev/null; then
    ok "$labels-label scores match the numpy reference (largest difference $worst)"
  else
    not_ok "$labels-label scores differ from the numpy reference (largest difference $worst)"
  fi
  want=$(jq -s -r '[to_entries[] | {k: .key, s: .value.score}] | sort_by(-.s) | map("p\(.k)") | join(" ")' "$dir/reference.jsonl")
  got=$(jq -r '[.hits[].chunk_id] | join(" ")' "$tmp/out$labels")
  if [ "$want" = "$got" ]; then ok "$labels-label order is the reference's"; else not_ok "$labels-label order: want $want, got $got"; fi
  if [ "$labels" = 1 ]; then
    # --model-depth: the cross-encoder sees only the feature model's best N; the rest are dropped.
    "$build/pb-rerank" --model "$dir" --model-depth 3 --k "$n" --per-doc 5 --margin 1000 <"$tmp/query1" >"$tmp/depth" 2>/dev/null
    if jq -e '(.hits | length) == 3 and ([.dropped[] | select(.reason == "beyond-k")] | length) == '"$((n - 3))"'' "$tmp/depth" >/dev/null; then
      ok "--model-depth 3 rescores three hits and lists the rest as dropped"
    else
      not_ok "--model-depth 3: $(jq -c '{hits: [.hits[].chunk_id], dropped}' "$tmp/depth")"
    fi
  fi
done

"$build/pb-rerank" --model "$model" </dev/null >/dev/null 2>"$tmp/err"
status=$?
if [ "$status" = 69 ] && grep -q "classifier" "$tmp/err"; then ok "a model without a classifier head is status 69"; else not_ok "model without a head: status $status, $(cat "$tmp/err")"; fi
"$build/pb-rerank" --model "$tmp/nowhere" </dev/null >/dev/null 2>"$tmp/err"
status=$?
if [ "$status" = 66 ]; then ok "a missing model folder is status 66"; else not_ok "missing folder: status $status"; fi

echo "cross-encoder: $pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/sh
# The encoder side by side with the reference, in one run on this machine: pb-embed as a whole
# process (start-up, JSON in and out included) against sentence-transformers' encode() on torch
# CPU with 2 threads, on the first 1,000 SciFact documents (title and text, cut at 256 tokens).
# Each is run twice, interleaved, and the faster run of each counts. Prints JSON lines: on an
# AVX-512 machine a second pair with both sides held to AVX2, standing in for an AVX2-only one.
set -eu
build=$(cd "${1:-.build/release}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Evals/out/bench"
mkdir -p "$out"
corpus="$root/Evals/data/scifact/corpus.jsonl"
texts="$out/reference-texts.jsonl"
python3 - "$corpus" >"$texts" <<'PY'
import json, sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    if n == 1000:
        break
    d = json.loads(line)
    print(json.dumps({"kind": "query", "id": d["_id"], "text": d.get("title", "") + " " + d.get("text", "")}))
PY
if ! python3 -c 'import sentence_transformers, torch' 2>/dev/null; then
  # torch comes from the machine's wheel folder (pip's find-links), the rest from PyPI.
  python3 -m pip install --quiet 'torch==2.13.0+cpu' 'sentence-transformers==6.2.0' >"$out/pip.log" 2>&1 || true
fi
if ! python3 -c 'import sentence_transformers, torch' 2>/dev/null; then
  echo '{"bench":"embed-vs-reference","skipped":"sentence-transformers and torch could not be installed (see Evals/out/bench/pip.log)"}'
  exit 0
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
# One side-by-side pair: pb-embed on kernel path $1 against the reference with the environment
# in $2 (empty: as torch chooses). Two interleaved rounds each; the faster of each counts.
pair() {
  kernel=$1 reference_env=$2 label=$3
  ours=""
  theirs=""
  for round in 1 2; do
    line=$(env $reference_env python3 "$here/reference_embed.py" "$PB_MODEL_DIR" "$texts" 2 1)
    s=$(echo "$line" | sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p')
    tokens=$(echo "$line" | sed -n 's/.*"tokens": \([0-9]*\).*/\1/p')
    [ -z "$theirs" ] || [ "$(awk "BEGIN { print ($s < $theirs) }")" = 1 ] && theirs=$s
    t0=$(date +%s.%N)
    OPENBLAS_NUM_THREADS= PB_THREADS=2 PB_KERNEL=$kernel "$build/pb-embed" <"$texts" >/dev/null
    t1=$(date +%s.%N)
    mine=$(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }")
    [ -z "$ours" ] || [ "$(awk "BEGIN { print ($mine < $ours) }")" = 1 ] && ours=$mine
  done
  echo "$line" | sed "s/\"seconds\": [0-9.]*/\"seconds\": $theirs/; s/\"tokens_per_s\": [0-9]*/\"tokens_per_s\": $(awk "BEGIN { printf \"%d\", $tokens / $theirs }")/; s/}\$/, \"as\": \"$label\"}/"
  awk -v ours="$ours" -v theirs="$theirs" -v tokens="$tokens" -v kernel="$kernel" -v cpu="$cpu" -v label="$label" 'BEGIN {
    printf "{\"bench\":\"embed-vs-reference\",\"as\":\"%s\",\"kernel\":\"%s\",\"cpu\":\"%s\",\"threads\":2,\"documents\":1000,\"tokens\":%d,", label, kernel, cpu, tokens
    printf "\"pb_embed_seconds\":%.3f,\"pb_embed_tokens_per_s\":%d,\"reference_seconds\":%.3f,\"reference_tokens_per_s\":%d,\"ratio\":%.2f}\n", ours, tokens / ours, theirs, tokens / theirs, theirs / ours
  }'
}
best=$("$build/pb-embed" --check 2>&1 | sed -n 's/.*kernels \([a-z0-9]*\).*/\1/p')
pair "$best" "" "this machine"
# On a machine with AVX-512, an AVX2-only machine as well: both sides held to AVX2 on the same
# cores (torch's ATen kernels, oneDNN and MKL each have a switch; PB_KERNEL for pb-embed).
if [ "$best" = avx512 ]; then
  pair avx2 "ATEN_CPU_CAPABILITY=avx2 DNNL_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2" "avx2 only"
fi

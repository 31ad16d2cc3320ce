#!/bin/sh
# The encoder side by side with the reference, in one run on this machine: pb-embed as a whole
# process (start-up, JSON in and out included) against sentence-transformers' encode() on torch
# CPU with 2 threads, on the first 1,000 SciFact documents (title and text, cut at 256 tokens).
# Each is run twice, interleaved, and the faster run of each counts. Prints JSON lines.
set -eu
build=$(cd "${1:-.build/release}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/Evals/out/bench"
mkdir -p "$out"
corpus="$root/../shared/data/scifact/corpus.jsonl"
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
kernel=$("$build/pb-embed" --check 2>&1 | sed -n 's/.*kernels \([a-z0-9]*\).*/\1/p')
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
ours=""
theirs=""
for round in 1 2; do
  line=$(python3 "$here/reference_embed.py" "$PB_MODEL_DIR" "$texts" 2 1)
  s=$(echo "$line" | sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p')
  tokens=$(echo "$line" | sed -n 's/.*"tokens": \([0-9]*\).*/\1/p')
  [ -z "$theirs" ] || [ "$(awk "BEGIN { print ($s < $theirs) }")" = 1 ] && theirs=$s
  t0=$(date +%s.%N)
  OPENBLAS_NUM_THREADS= PB_THREADS=2 "$build/pb-embed" <"$texts" >/dev/null
  t1=$(date +%s.%N)
  mine=$(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }")
  [ -z "$ours" ] || [ "$(awk "BEGIN { print ($mine < $ours) }")" = 1 ] && ours=$mine
done
echo "$line" | sed "s/\"seconds\": [0-9.]*/\"seconds\": $theirs/; s/\"tokens_per_s\": [0-9]*/\"tokens_per_s\": $(awk "BEGIN { printf \"%d\", $tokens / $theirs }")/"
awk -v ours="$ours" -v theirs="$theirs" -v tokens="$tokens" -v kernel="$kernel" -v cpu="$cpu" 'BEGIN {
  printf "{\"bench\":\"embed-vs-reference\",\"kernel\":\"%s\",\"cpu\":\"%s\",\"threads\":2,\"documents\":1000,\"tokens\":%d,", kernel, cpu, tokens
  printf "\"pb_embed_seconds\":%.3f,\"pb_embed_tokens_per_s\":%d,\"reference_seconds\":%.3f,\"reference_tokens_per_s\":%d,\"ratio\":%.2f}\n", ours, tokens / ours, theirs, tokens / theirs, theirs / ours
}'

#!/bin/sh
# kill -9 during pb-index, at several moments, then re-run: the library must be consistent
# (pb-index --check), searchable, and the re-run must finish the job. Real text (SciFact) with
# small synthetic vectors, so that the vector file and the SQLite commit are both exercised.
set -u
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
build=$(cd "${1:-.build/release}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$build:$PATH" PB_HOME="$tmp/home"
python3 "$root/Evals/retrieval/scifact.py" docs "$root/../shared/data/scifact/corpus.jsonl" >"$tmp/docs.jsonl"
head -n 3000 "$tmp/docs.jsonl" | pb-chunk --library crash | python3 -c '
import base64, hashlib, json, struct, sys
for line in sys.stdin:
    r = json.loads(line)
    h = hashlib.sha256(r["chunk_id"].encode()).digest()
    v = [b / 255.0 for b in h[:8]]
    n = sum(x * x for x in v) ** 0.5
    r["embedding"] = {"model": "synthetic", "dim": 8, "f32le_b64": base64.b64encode(struct.pack("<8f", *[x / n for x in v])).decode()}
    print(json.dumps(r))' >"$tmp/chunks.jsonl"
docs=3000
pass=0
fail=0
for delay in 0.05 0.15 0.3 0.45 0.6 0.8; do
  pb-index --library crash --batch 25 <"$tmp/chunks.jsonl" 2>/dev/null &
  pid=$!
  sleep $delay
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  if pb-index --library crash --check >"$tmp/check" 2>&1 &&
     echo '{"text":"cancer cells"}' | pb-search --library crash >/dev/null 2>&1; then
    pass=$((pass + 1))
    echo "crash: killed at ${delay}s: $(pb-index --library crash --stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["documents"], "documents,", s["vector_rows"], "vector rows")'), consistent"
  else
    fail=$((fail + 1)); echo "crash: after kill at ${delay}s the library is not consistent:"; cat "$tmp/check"
  fi
done
# Re-running resumes: the killed runs' committed batches are skipped, the rest added.
pb-index --library crash --batch 25 <"$tmp/chunks.jsonl" 2>"$tmp/summary" || { fail=$((fail + 1)); cat "$tmp/summary"; }
n=$(pb-index --library crash --stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["documents"], s["embedded_chunks"] == s["chunks"])')
if [ "$n" = "$docs True" ] && pb-index --library crash --check >/dev/null; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "crash: after resuming: $n"; cat "$tmp/summary"; fi
echo "crash: $pass passed, $fail failed"
[ $fail = 0 ]

#!/bin/sh
# kill -9 during pb-index, at several moments, then re-run: the library must be consistent
# (pb-index --check), searchable, and the re-run must finish the job. Real text (SciFact) with
# small synthetic vectors, so that the vector file and the SQLite commit are both exercised.
# Then kill -9 during pb-remember (a LoCoMo conversation, 419 turns) at several moments: each
# stored message has all its items and their words indexed, recall works, and a re-run stores the
# rest and nothing twice (the same messages and items as one uninterrupted run).
set -u
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$build:$PATH" PB_HOME="$tmp/home"
python3 "$root/Evals/retrieval/scifact.py" docs "$root/Evals/data/scifact/corpus.jsonl" >"$tmp/docs.jsonl"
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

# Pruning 2,500 of the 3,000 documents: the vector file is rewritten without their rows (a new
# vectors.N.f32, named and renumbered in one transaction). Killed at any moment, the library is
# consistent and searchable, and the next run finishes the pruning, the compaction and the
# erasing: one vector file, every row used, no pruned document's word in the index's files.
python3 - "$tmp/chunks.jsonl" >"$tmp/keep.jsonl" <<'PY'
import json, sys
docs = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["doc_id"] not in docs:
        docs.append(r["doc_id"])
    if len(docs) <= 500:
        print(line, end="")
PY
gone=$(python3 - "$tmp/chunks.jsonl" <<'PY'
import json, re, sys
seen, words = [], {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["doc_id"] not in seen: seen.append(r["doc_id"])
    for w in re.findall(r"[A-Za-z]{14,}", r["text"]):
        words.setdefault(w, set()).add(len(seen) <= 500)
print(next(w for w, s in sorted(words.items()) if s == {False}))
PY
)
for delay in 0.05 0.2 0.3 0.38 0.45 0.5; do
  pb-index --library crash --prune <"$tmp/keep.jsonl" >/dev/null 2>&1 &
  pid=$!
  sleep $delay
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  if pb-index --library crash --check >"$tmp/check" 2>&1 &&
     echo '{"text":"cancer cells"}' | pb-search --library crash >/dev/null 2>&1; then
    pass=$((pass + 1))
    echo "crash: compaction killed at ${delay}s: $(pb-index --library crash --stats | jq -r '"\(.documents) documents, \(.vector_rows) vector rows in \(.vector_file)"'), consistent"
  else
    fail=$((fail + 1)); echo "crash: after a kill at ${delay}s while pruning, the library is not consistent:"; cat "$tmp/check"
  fi
done
pb-index --library crash --prune <"$tmp/keep.jsonl" >/dev/null 2>"$tmp/summary" || { fail=$((fail + 1)); cat "$tmp/summary"; }
state=$(pb-index --library crash --stats | jq -r '"\(.documents) \(.dead_vector_rows) \(.vector_rows == .embedded_chunks)"')
files=$(ls "$PB_HOME/libraries/crash" | grep -c 'f32$')
holds=$(grep -rlaF "$gone" "$PB_HOME/libraries/crash" | wc -l)
if [ "$state" = "500 0 true" ] && [ "$files" = 1 ] && [ "$holds" = 0 ] && pb-index --library crash --check >/dev/null; then
  pass=$((pass + 1)); echo "crash: the pruning finished: 500 documents, one vector file, no dead rows, '$gone' in no file"
else
  fail=$((fail + 1)); echo "crash: after the pruning: $state, $files vector files, '$gone' in $holds files"; cat "$tmp/summary"
fi

# pb-remember: the real model, real turns.
python3 - "$root/Evals/data/memory/locomo/locomo10.json" >"$tmp/messages.jsonl" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))[0]["conversation"]
n = 1
while f"session_{n}" in c:
    for i, t in enumerate(c[f"session_{n}"]):
        print(json.dumps({"kind": "message", "id": t["dia_id"], "time": f"2023-01-{n:02d}T10:{i % 60:02d}:00Z", "speaker": t["speaker"], "text": t["text"]}))
    n += 1
PY
memory_state() {
  python3 - "$PB_HOME/memory/$1/memory.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
messages = db.execute("SELECT count(*) FROM messages").fetchone()[0]
items = db.execute("SELECT count(*) FROM items").fetchone()[0]
words = db.execute("SELECT count(*) FROM items_fts").fetchone()[0]
bare = db.execute("SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.message = m.seq)").fetchone()[0]
ok = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok" and words == items and bare == 0
print(messages, items, "consistent" if ok else f"INCONSISTENT ({words} indexed, {bare} messages without items)")
PY
}
total=$(wc -l <"$tmp/messages.jsonl")
pb-remember --memory reference --batch 8 <"$tmp/messages.jsonl" >/dev/null 2>&1
reference=$(memory_state reference)
for delay in 0.5 1.5 3; do
  pb-remember --memory crash --batch 8 <"$tmp/messages.jsonl" >/dev/null 2>&1 &
  pid=$!
  sleep $delay
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  state=$(memory_state crash)
  if case $state in *" consistent") true ;; *) false ;; esac &&
     echo '{"text":"support group"}' | pb-recall --memory crash --lists words >/dev/null 2>&1; then
    pass=$((pass + 1)); echo "crash: pb-remember killed at ${delay}s: $state (messages, items)"
  else
    fail=$((fail + 1)); echo "crash: pb-remember killed at ${delay}s: $state"
  fi
done
pb-remember --memory crash --batch 8 <"$tmp/messages.jsonl" >/dev/null 2>"$tmp/summary" || { fail=$((fail + 1)); cat "$tmp/summary"; }
state=$(memory_state crash)
if [ "$state" = "$reference" ] && case $reference in "$total "*) true ;; *) false ;; esac; then
  pass=$((pass + 1)); echo "crash: pb-remember resumed: $state, as one uninterrupted run"
else
  fail=$((fail + 1)); echo "crash: pb-remember resumed: $state, but one uninterrupted run gives $reference"
fi
echo "crash: $pass passed, $fail failed"
[ $fail = 0 ]

#!/bin/sh
# make bench: speed figures as JSON lines (benchmarks, never timed tests).
#   chunk and index throughput of the programs on the SciFact corpus (5,183 abstracts), each
#   document format's MB/s and OCR's pages/s (formats.sh),
#   dense search latency over 100k and 1M synthetic 384-d rows next to the memory-bandwidth floor,
#   pb-embed throughput (1 and 2 threads) next to the matrix-product speed of its kernel path, the
#   products of each encoder shape next to this machine's FMA peak, and pb-embed as a whole process
#   against sentence-transformers on torch (2 threads) in the same run, pb-remember and pb-recall on
#   a 50,000-message memory, a pb-exec turn (with the status snapshot) and pb-brief on 5,000 open
#   tasks (agent.py). pb-listen against faster-whisper (listen.py) is make bench-speech, a record
#   of its own. Every encoder and memory line names the kernel path and the CPU.
set -eu
# The user's default library must not leak into a run with its own PB_HOME.
unset PB_LIBRARY
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
build=$(cd "${1:-.build/release}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/Evals/data/scifact"
out="$root/Evals/out/bench"
rm -rf "$out"
mkdir -p "$out"
export PATH="$build:$PATH" PB_HOME="$out/home"

now() { date +%s.%N; }
# awk does the arithmetic: bc is not on every machine.
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
calc0() { awk "BEGIN { printf \"%d\", $1 }"; }
python3 "$root/Evals/retrieval/scifact.py" docs "$data/corpus.jsonl" >"$out/docs.jsonl"
docs=$(wc -l <"$out/docs.jsonl")
bytes=$(wc -c <"$out/docs.jsonl")
t0=$(now); pb-chunk --library bench <"$out/docs.jsonl" >"$out/chunks.jsonl"; t1=$(now)
chunks=$(wc -l <"$out/chunks.jsonl")
echo "{\"bench\":\"pb-chunk\",\"documents\":$docs,\"chunks\":$chunks,\"seconds\":$(calc "$t1 - $t0"),\"docs_per_s\":$(calc0 "$docs / ($t1 - $t0)"),\"mb_per_s\":$(calc "$bytes / 1000000 / ($t1 - $t0)")}"
# Each document format's reading speed next to chunking its text layer, and OCR pages/s next to tesseract.
sh "$here/formats.sh" "$build" "$out/formats"
t0=$(now); pb-index --library bench <"$out/chunks.jsonl" 2>/dev/null; t1=$(now)
echo "{\"bench\":\"pb-index\",\"embeddings\":false,\"chunks\":$chunks,\"seconds\":$(calc "$t1 - $t0"),\"chunks_per_s\":$(calc0 "$chunks / ($t1 - $t0)")}"
emb="$root/Evals/out/retrieval/chunks-embedded.jsonl"
if [ -f "$emb" ]; then
  n=$(wc -l <"$emb")
  # The records name their library (scifact); this PB_HOME is the bench's own.
  t0=$(now); pb-index --library scifact <"$emb" 2>"$out/index-vectors.err" || { cat "$out/index-vectors.err" >&2; exit 1; }; t1=$(now)
  echo "{\"bench\":\"pb-index\",\"embeddings\":true,\"chunks\":$n,\"seconds\":$(calc "$t1 - $t0"),\"chunks_per_s\":$(calc0 "$n / ($t1 - $t0)")}"
fi
q="$out/queries.jsonl"
python3 "$root/Evals/retrieval/scifact.py" queries "$data/queries-train.jsonl" >"$q"
nq=$(wc -l <"$q")
t0=$(now); pb-search --library bench --lists lexical <"$q" >/dev/null 2>&1; t1=$(now)
echo "{\"bench\":\"pb-search\",\"lists\":\"lexical\",\"queries\":$nq,\"seconds\":$(calc "$t1 - $t0"),\"queries_per_s\":$(calc0 "$nq / ($t1 - $t0)")}"
"$build/PBBench" "$out" "$data/corpus.jsonl"
# pb-embed against sentence-transformers on torch, side by side in this run.
sh "$here/embed-vs-reference.sh" "$build" 2>"$out/reference.err"
rm -rf "$out/home"
# Memory: pb-remember messages/s and pb-recall p50/p95 on a 50,000-message memory (BENCH_MEMORY_MESSAGES).
python3 "$here/memory.py" "$build" "$out/memory" "${BENCH_MEMORY_MESSAGES:-50000}"
rm -rf "$out/memory/home"
# The agent: a turn with its status snapshot against a dry run, and pb-brief, on 5,000 open tasks.
python3 "$here/agent.py" "$build" "$out/agent" "${BENCH_AGENT_TASKS:-5000}"
# pb-ask latency per stage and end to end on the SciFact library that Evals/retrieval builds.
if [ -f "$root/Evals/out/retrieval/home/libraries/scifact/index.sqlite" ]; then
  PATH="$build:$root/bin:$PATH" python3 "$here/ask.py" "$root/Evals/out/retrieval/home" scifact "$root/Evals/out/retrieval/queries.jsonl" 30
else
  echo '{"bench":"pb-ask","skipped":"no SciFact library: run make eval (Evals/retrieval) first"}'
fi

#!/usr/bin/env python3
"""pb-ask latency on the SciFact library, warm: per stage and end to end, median and p95, and the
share of the time spent starting processes (each stage's `--version` run, which loads nothing).

  ask.py PB_HOME LIBRARY QUERIES.jsonl [N]

Each question goes through the stages one process at a time (the output of one is the input of
the next), so every stage is timed on its own; then through `pb-ask` whole, as a user runs it.
Prints one JSON line per stage and one for the whole.
"""
import json, os, statistics, subprocess, sys, time

home, library, queries = sys.argv[1], sys.argv[2], sys.argv[3]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 30
env = dict(os.environ, PB_HOME=home)
stages = [
    ("pb-embed", ["pb-embed"]),
    ("pb-search", ["pb-search", "--library", library, "--k", "40"]),
    ("pb-rerank", ["pb-rerank"]),
    ("pb-pack", ["pb-pack", "--library", library]),
    ("pb-answer", ["pb-answer"]),
    ("pb-verify", ["pb-verify"]),
]


def run(cmd, data):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, check=True)
    return p.stdout, (time.perf_counter() - t0) * 1000


def forget_sentence_vectors():
    """Each pass starts with an empty sentence-vector cache: the questions are new to it, as a
    user's are, so only the reuse within one question (pb-answer's vectors in pb-verify) counts."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(os.path.join(home, "cache", "sentence-vectors.sqlite" + suffix))
        except FileNotFoundError:
            pass


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


lines = [l for l in open(queries) if l.strip()][: n + 1]
times = {name: [] for name, _ in stages}
forget_sentence_vectors()
for i, line in enumerate(lines):
    q = json.loads(line)
    data = (json.dumps({"kind": "query", "id": q.get("id"), "text": q["text"]}) + "\n").encode()
    for name, cmd in stages:
        data, ms = run(cmd, data)
        if i > 0:  # the first question warms the page cache
            times[name].append(ms)
start = {}
for name, cmd in stages:
    start[name] = statistics.median(run([cmd[0], "--version"], b"")[1] for _ in range(5))
whole = []
forget_sentence_vectors()
for line in lines[1:]:
    q = json.loads(line)
    whole.append(run(["pb-ask", "--json", "--library", library, q["text"]], b"")[1])
for name, _ in stages:
    print(json.dumps({"bench": "pb-ask", "stage": name, "questions": len(times[name]),
                      "median_ms": round(statistics.median(times[name]), 1), "p95_ms": round(pct(times[name], 0.95), 1),
                      "start_ms": round(start[name], 1)}))
startup = sum(start.values())
print(json.dumps({"bench": "pb-ask", "stage": "end-to-end", "questions": len(whole),
                  "median_ms": round(statistics.median(whole), 1), "p95_ms": round(pct(whole, 0.95), 1),
                  "stages_sum_median_ms": round(sum(statistics.median(t) for t in times.values()), 1),
                  "process_start_ms": round(startup, 1),
                  "process_start_share": round(startup / statistics.median(whole), 3)}))

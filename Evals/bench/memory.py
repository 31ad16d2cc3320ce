#!/usr/bin/env python3
"""make bench, memory: pb-remember messages/s, and pb-recall latency (p50/p95 per query, warm, in
one process) on a memory of N messages (default 50,000): LoCoMo's turns, repeated with new ids and
later times until there are N. Prints JSON lines naming the CPU and the kernel path.

  memory.py BUILD OUT [N]
"""
import json, os, shutil, statistics, subprocess, sys, time
from datetime import datetime, timedelta

build, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 50_000
os.makedirs(out, exist_ok=True)
# A new memory every run: messages already remembered would be skipped, not timed
# (BENCH_MEMORY_REUSE=1 keeps OUT's memory and times pb-recall only).
reuse = os.environ.get("BENCH_MEMORY_REUSE") == "1" and os.path.isdir(os.path.join(out, "home"))
if not reuse:
    shutil.rmtree(os.path.join(out, "home"), ignore_errors=True)
env = dict(os.environ, PATH=build + ":" + os.environ["PATH"], PB_HOME=os.path.join(out, "home"))
data = os.path.join(os.path.dirname(__file__), "..", "data", "memory", "locomo", "locomo10.json")
conversations = json.load(open(data))
turns, questions = [], []
for conv in conversations:
    c = conv["conversation"]
    s = 1
    while f"session_{s}" in c:
        turns += [(conv["sample_id"], t["speaker"], t["dia_id"], t["text"]) for t in c[f"session_{s}"]]
        s += 1
    questions += [q["question"] for q in conv["qa"]]
start = datetime(2020, 1, 1)
with open(os.path.join(out, "messages.jsonl"), "w") as f:
    for i in range(n):
        sample, speaker, dia, text = turns[i % len(turns)]
        f.write(json.dumps({"kind": "message", "id": f"{sample}/{dia}/{i // len(turns)}", "speaker": speaker, "text": text,
                            "time": (start + timedelta(minutes=10 * i)).strftime("%Y-%m-%dT%H:%M:00Z")}) + "\n")
info = {}
for l in open("/proc/cpuinfo"):
    if ":" in l:
        k, v = (x.strip() for x in l.split(":", 1))
        info.setdefault(k, v)
cpu = f"{info.get('model name', 'unknown')} (family {info.get('cpu family', '?')} model {info.get('model', '?')})"
check = subprocess.run(["pb-embed", "--check"], env=env, stderr=subprocess.PIPE, text=True).stderr
kernel = check.rsplit("kernels ", 1)[-1].strip() if "kernels " in check else "unknown"

if not reuse:
    t0 = time.perf_counter()
    with open(os.path.join(out, "messages.jsonl")) as f:
        subprocess.run(["pb-remember", "--memory", "bench"], stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    seconds = time.perf_counter() - t0
    print(json.dumps({"bench": "pb-remember", "messages": n, "seconds": round(seconds, 1), "messages_per_s": round(n / seconds, 1),
                      "cpu": cpu, "kernel": kernel}))

# pb-recall: 200 LoCoMo questions, embedded first; each answered as it arrives, the time between
# one answer's line and the next measured from the stream (the memory is loaded once).
qs = "".join(json.dumps({"kind": "query", "id": i, "text": q}) + "\n" for i, q in enumerate(questions[:200]))
embedded = subprocess.run(["pb-embed"], input=qs, stdout=subprocess.PIPE, text=True, env=env, check=True).stdout.splitlines()


def latencies(extra):
    p = subprocess.Popen(["pb-recall", "--memory", "bench", "--k", "10"] + extra, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, env=env, bufsize=1)
    t0 = time.perf_counter()
    p.stdin.write(embedded[0] + "\n"); p.stdin.flush()
    p.stdout.readline()
    load_and_first = time.perf_counter() - t0
    lat = []
    for line in embedded[1:]:
        t = time.perf_counter()
        p.stdin.write(line + "\n"); p.stdin.flush()
        p.stdout.readline()
        lat.append((time.perf_counter() - t) * 1000)
    p.stdin.close(); p.wait()
    lat.sort()
    return load_and_first, lat


# With attribution (the default: a question naming a speaker is ranked twice, once embedded
# anew without the name) and without it, in the same run.
without_first, without = latencies(["--no-attribution"])
with_first, lat = latencies([])
print(json.dumps({"bench": "pb-recall", "messages": n, "queries": len(lat), "open_and_first_ms": round(with_first * 1000, 1),
                  "p50_ms": round(statistics.median(lat), 2), "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 2),
                  "no_attribution": {"open_and_first_ms": round(without_first * 1000, 1), "p50_ms": round(statistics.median(without), 2),
                                     "p95_ms": round(without[int(0.95 * (len(without) - 1))], 2)},
                  "p50_ratio_to_no_attribution": round(statistics.median(lat) / statistics.median(without), 2),
                  "cpu": cpu, "kernel": kernel}))

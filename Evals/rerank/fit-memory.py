#!/usr/bin/env python3
"""Fits pb-rerank's linear model for a memory's hits on LoCoMo's tuning split.

  fit-memory.py BUILD HOME [OUT]   HOME: a PB_HOME holding the LoCoMo memories that
                                   Evals/memory/locomo.py builds (OUT/home there)
                                   OUT: weights file (default: print to standard output)

The candidates are `pb-recall --k 40` over each of the first five conversations' answerable
questions (categories 1-4; the adversarial ones ask about the wrong speaker on purpose), asked
the day after the last session as locomo.py asks them; a hit is relevant when its message is
one of the question's evidence turns. The fit is fit.py's (logistic regression, L2 1.0, Newton,
deterministic), over every feature, "order" (pb-recall's own rank) among them. It prints, on
standard error, evidence recall@1, @5 and @10 on the tuning split for pb-recall's order, the
document weights and the fitted ones. The last five conversations are never read here.
"""
import json, os, subprocess, sys
from datetime import datetime, timedelta

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "memory"))
from fit import fit, write  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: fit-memory.py BUILD HOME [OUT]")
    build, home = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PATH=build + ":" + os.environ["PATH"], PB_HOME=home)
    for v in ("PB_LIBRARY", "XDG_DATA_HOME"):
        env.pop(v, None)
    # locomo.py's turn reader (when, turns), without its command line or its evaluation.
    src = open(os.path.join(here, "..", "memory", "locomo.py")).read().split("\ndef run(")[0]
    keep = [l for l in src.splitlines() if not l.startswith(("build, out =", "data =", "os.makedirs(out", "env = dict("))]
    scope = {}
    exec(compile("\n".join(keep), "locomo.py", "exec"), scope)
    data = os.path.join(here, "..", "data", "memory", "locomo", "locomo10.json")
    conversations = json.load(open(data))[:5]
    queries, names = [], None
    for conv in conversations:
        ts = scope["turns"](conv)
        last = max(datetime.fromisoformat(t["time"]) for t in ts)
        now = (last + timedelta(days=1)).strftime("%Y-%m-%dT12:00:00+00:00")
        asked = [q for q in conv["qa"] if q["category"] != 5 and q.get("evidence")]
        lines = "".join(json.dumps({"kind": "query", "id": i, "text": q["question"], "now": now}) + "\n" for i, q in enumerate(asked))
        cmd = f"pb-embed | pb-recall --memory locomo-{conv['sample_id']} --k 40 | pb-rerank --features"
        p = subprocess.run(["sh", "-c", cmd], input=lines.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        if p.returncode != 0:
            sys.exit(f"fit-memory: {cmd} failed: {p.stderr.decode()[-2000:]}")
        for q, line in zip(asked, p.stdout.decode().splitlines()):
            r = json.loads(line)
            names = r["names"]
            if not r["hits"]:
                continue
            evidence = set(q["evidence"])
            X = np.array([h["x"] for h in r["hits"]], dtype=float)
            y = np.array([1.0 if h["doc_id"] in evidence else 0.0 for h in r["hits"]])
            queries.append(([h["doc_id"] for h in r["hits"]], evidence, X, y))
    X = np.vstack([q[2] for q in queries])
    y = np.concatenate([q[3] for q in queries])
    bias, w = fit(X, y)
    documents = json.load(open(os.path.join(here, "weights.json")))

    def recall(score, k):
        vals = []
        for docs, evidence, X, _ in queries:
            s = score(X)
            order = sorted(range(len(docs)), key=lambda i: (-s[i], i))
            vals.append(len(evidence & {docs[i] for i in order[:k]}) / len(evidence))
        return round(sum(vals) / len(vals), 4)

    dw = np.array([documents["weights"].get(n, 0.0) for n in names])
    ow = np.array([1.0 if n == "order" else 0.0 for n in names])
    scored = {}
    for name, score in (("pb-recall's order", lambda X: X @ ow), ("document weights", lambda X: X @ dw), ("fitted", lambda X: X @ w)):
        scored[name] = (recall(score, 1), recall(score, 5), recall(score, 10))
        print(f"fit-memory: {name}: evidence recall@1 {scored[name][0]}, @5 {scored[name][1]}, @10 {scored[name][2]} "
              f"(tuning split, {len(queries)} questions)", file=sys.stderr)
    # The logistic fit is pointwise: it need not rank better than the order it was given. The
    # better of the two on the tuning split (recall@1, then @5) is written.
    if scored["fitted"] >= scored["pb-recall's order"]:
        chosen, b, weights = "the fit, over pb-recall's order alone", float(bias), w
    else:
        chosen, b, weights = "pb-recall's order alone, over the fit", 0.0, ow
    print(f"fit-memory: chosen: {chosen}", file=sys.stderr)
    f = scored["fitted"]
    o = scored["pb-recall's order"]
    result = {
        "model": "linear; score = bias + sum(weight * feature), a logit",
        "fitted_on": "LoCoMo, first five conversations (tuning split), answerable questions, pb-recall --k 40 candidates",
        "chosen": f"{chosen}: evidence recall@1/@5/@10 on the tuning split, fit {f[0]}/{f[1]}/{f[2]}, order {o[0]}/{o[1]}/{o[2]}",
        "bias": round(b, 6),
        "weights": {n: round(float(v), 6) for n, v in zip(names, weights)},
    }
    write(result, sys.argv[3] if len(sys.argv) > 3 else None)


if __name__ == "__main__":
    main()

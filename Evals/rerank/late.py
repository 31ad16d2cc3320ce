#!/usr/bin/env python3
"""Refits pb-rerank's model with a MaxSim feature and says whether it pays (see late.sh).

  late.py QRELS FEATURES SEARCH MAXSIM DEPTH SECONDS

The feature is each candidate's MaxSim score for the first DEPTH candidates (pb-search's order)
and 0 below them, raw or scaled to 0...1 within the query. Both the model without it and the
model with it are fitted by fit.py's logistic regression on the tuning half; nDCG@10 of the
score alone (no MMR, no per-document cap) is reported on both halves.
"""
import json, sys
import numpy as np
import fit as F


def main():
    qrels_path, features, search, maxsim, depth, seconds = sys.argv[1:7]
    depth = int(depth)
    qrels, names, queries = F.load(qrels_path, features)
    ids = [str(json.loads(l)["id"]) for l in open(search)]
    scores = {qid: json.loads(l)["maxsim"] for qid, l in zip(ids, open(maxsim))}
    queries = [q for q in queries if q[0] in scores]

    def with_late(q, scale):
        qid, docs, X, y = q
        m = np.array(scores[qid][:depth], dtype=float)
        col = np.zeros(len(docs))
        if len(m):
            if scale == "minmax":
                lo, hi = m.min(), m.max()
                m = (m - lo) / (hi - lo) if hi > lo else np.ones_like(m)
            col[: len(m)] = m
        return qid, docs, np.hstack([X, col[:, None]]), y

    def fitted(qs):
        tune = [q for q in qs if F.half_of(q[0]) == "tune"]
        _, w = F.fit(np.vstack([q[2] for q in tune]), np.concatenate([q[3] for q in tune]))
        return F.evaluate(qrels, qs, lambda X: X @ w), w

    def line(variant, result, **extra):
        for half in ("tune", "check"):
            row = {"eval": "rerank-late", "data": "scifact-train", "split": half, "variant": variant,
                   "depth": depth, "ndcg@10": result[half]}
            row.update(extra)
            print("EVALJSON " + json.dumps(row))

    base, _ = fitted(queries)
    line("without-maxsim", base)
    for scale in ("raw", "minmax"):
        result, w = fitted([with_late(q, scale) for q in queries])
        line("with-maxsim-" + scale, result, weight=round(float(w[-1]), 4))
    per_query = 1000.0 * int(seconds) / max(len(ids), 1)
    print("EVALJSON " + json.dumps({"eval": "rerank-late", "data": "scifact-train", "metric": "encoder_ms_per_query",
                                    "depth": depth, "value": round(per_query, 1)}))


if __name__ == "__main__":
    main()

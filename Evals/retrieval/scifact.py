#!/usr/bin/env python3
"""SciFact through the real programs: helpers for Evals/retrieval/run.sh.

  scifact.py docs CORPUS            corpus.jsonl -> doc records (path scifact/<id>, title, inline text)
  scifact.py queries QUERIES [HALF] queries-train.jsonl -> query records (HALF: tune|check|all)
  scifact.py score QRELS CHUNKS RESULTS [SPLIT]  per-list nDCG@10, Recall@100, MRR@10 as EVALJSON

The qrels are split by query id parity into a tuning half (even) and a check half (odd), so that
anything fitted on one can be reported on the other.
"""
import json, math, sys


def docs(corpus):
    for line in open(corpus):
        d = json.loads(line)
        print(json.dumps({"kind": "doc", "path": "scifact/" + d["_id"], "title": d.get("title", ""),
                          "text": d["text"], "format": "text"}))


def half_of(qid):
    return "tune" if int(qid) % 2 == 0 else "check"


def queries(path, half="all"):
    for line in open(path):
        q = json.loads(line)
        if half != "all" and half_of(q["_id"]) != half:
            continue
        print(json.dumps({"kind": "query", "id": q["_id"], "text": q["text"]}))


def ndcg10(ranked, rel):
    dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
    ideal = sorted(rel.values(), reverse=True)[:10]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall100(ranked, rel):
    rel_docs = {d for d, g in rel.items() if g > 0}
    return len(rel_docs & set(ranked[:100])) / len(rel_docs) if rel_docs else 0.0


def mrr10(ranked, rel):
    for i, d in enumerate(ranked[:10]):
        if rel.get(d, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def dedupe(seq):
    seen, out = set(), []
    for x in seq:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def score(qrels_path, chunks_path, results_path, split="all"):
    qrels = {}
    for i, line in enumerate(open(qrels_path)):
        if i == 0:
            continue
        q, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    chunk_doc = {}
    for line in open(chunks_path):
        c = json.loads(line)
        if c.get("kind") == "chunk":
            chunk_doc[c["chunk_id"]] = c["path"].split("/", 1)[1]
    lists = {}
    n = 0
    for line in open(results_path):
        r = json.loads(line)
        qid = str(r["id"])
        if qid not in qrels:
            continue
        n += 1
        ranked = {name: dedupe(chunk_doc[c] for c in ids) for name, ids in (r.get("lists") or {}).items()}
        ranked["fused"] = dedupe(h["path"].split("/", 1)[1] for h in r.get("hits", []))
        for name, docs_ in ranked.items():
            m = lists.setdefault(name, {"ndcg@10": 0.0, "recall@100": 0.0, "mrr@10": 0.0})
            m["ndcg@10"] += ndcg10(docs_, qrels[qid])
            m["recall@100"] += recall100(docs_, qrels[qid])
            m["mrr@10"] += mrr10(docs_, qrels[qid])
    for name, m in sorted(lists.items()):
        out = {"eval": "retrieval", "data": "scifact-train", "split": split, "list": name, "queries": n}
        out.update({k: round(v / n, 4) for k, v in m.items()})
        print("EVALJSON " + json.dumps(out))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "docs":
        docs(sys.argv[2])
    elif cmd == "queries":
        queries(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "all")
    elif cmd == "score":
        score(*sys.argv[2:6])
    else:
        sys.exit("usage: scifact.py docs|queries|score ...")

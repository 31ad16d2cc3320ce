#!/usr/bin/env python3
"""Scores the frozen supersession set (Evals/memory/supersession, README there) for pb-recall and,
in the same run, for plain MiniLM cosine over the messages (semantic-only). Another set in the same
form may add, per message, `arrived` (when it reached the memory, when not when said: the memory of a
question holds what had arrived by its `now`, in order of arrival), per query a `half` (each half is
scored on its own too), `forgotten` queries (right when nothing forgotten is among the hits), and a
forgets.ndjson of requests to forget (scored from pb-remember's `forgotten` records).

  supersession.py prepare SET OUT      one messages file per distinct `now` (only messages <= now)
  supersession.py score SET OUT        reads OUT/recall-*.jsonl and OUT/vectors.jsonl, prints EVALJSON
"""
import json, os, sys
from datetime import datetime


def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def t(s):
    return datetime.fromisoformat(s)


def prepare(set_dir, out):
    messages = load(os.path.join(set_dir, "messages.ndjson"))
    queries = load(os.path.join(set_dir, "queries.ndjson"))
    nows = sorted({q["now"] for q in queries}, key=t)
    # The memory of each `now` is made as of that time (pb-remember --now): a set may be dated
    # after the day it is run.
    with open(os.path.join(out, "nows.txt"), "w") as f:
        f.write("".join(n + "\n" for n in nows))
    for i, now in enumerate(nows):
        with open(os.path.join(out, f"messages-{i}.ndjson"), "w") as f:
            for m in messages:
                if t(m.get("arrived", m["time"])) <= t(now):
                    f.write(json.dumps({k: v for k, v in m.items() if k != "arrived"}) + "\n")
        with open(os.path.join(out, f"queries-{i}.ndjson"), "w") as f:
            for q in queries:
                if q["now"] == now:
                    f.write(json.dumps({"kind": "query", "id": q["id"], "text": q["text"], "now": q["now"]}) + "\n")
    print(len(nows))


def metrics(ranked, queries):
    """ranked: query id -> list of message ids (best first, one per message)."""
    by_kind = {}
    for q in queries:
        r = ranked.get(q["id"], [])
        k = by_kind.setdefault(q["kind"], {"n": 0, "hit1": 0, "recall5": 0.0, "tempting": 0, "abstained": 0, "tempting_top": 0})
        k["n"] += 1
        if q["kind"] == "forgotten":
            # Nothing forgotten may come back, at any rank.
            if not any(m in q["tempting"] for m in r):
                k["abstained"] += 1
            elif r and r[0] in q["tempting"]:
                k["tempting_top"] += 1
            continue
        if q["kind"] == "absent":
            if not r:
                k["abstained"] += 1
            elif r[0] in q["tempting"]:
                k["tempting_top"] += 1
            continue
        answers = set(q["answers"])
        if r and r[0] in answers:
            k["hit1"] += 1
        k["recall5"] += len(answers & set(r[:5])) / len(answers)
        first = next((i for i, m in enumerate(r) if m in answers), None)
        above = r if first is None else r[:first]
        if any(m in q["tempting"] for m in above):
            k["tempting"] += 1
    return by_kind


def summarise(by_kind):
    answerable = [v for k, v in by_kind.items() if k not in ("absent", "forgotten")]
    n = sum(v["n"] for v in answerable)
    out = {"queries": n, "hit_at_1": round(sum(v["hit1"] for v in answerable) / n, 4),
           "recall_at_5": round(sum(v["recall5"] for v in answerable) / n, 4),
           "tempting_above": round(sum(v["tempting"] for v in answerable) / n, 4)}
    a = by_kind.get("absent")
    if a:
        out["absent"] = a["n"]
        out["abstained_on_absent"] = round(a["abstained"] / a["n"], 4)
        out["tempting_top_on_absent"] = round(a["tempting_top"] / a["n"], 4)
    f = by_kind.get("forgotten")
    if f:
        out["forgotten"] = f["n"]
        out["forgotten_kept_out"] = round(f["abstained"] / f["n"], 4)
    out["by_kind"] = {k: {"n": v["n"], "hit_at_1": round(v["hit1"] / v["n"], 4), "recall_at_5": round(v["recall5"] / v["n"], 4),
                          "tempting_above": round(v["tempting"] / v["n"], 4)} for k, v in sorted(by_kind.items())
                      if k not in ("absent", "forgotten")}
    return out


def score(set_dir, out):
    messages = load(os.path.join(set_dir, "messages.ndjson"))
    queries = load(os.path.join(set_dir, "queries.ndjson"))
    recall = {}
    for name in sorted(os.listdir(out)):
        if name.startswith("recall-"):
            for r in load(os.path.join(out, name)):
                seen = []
                for h in r.get("hits", []):
                    for s in h.get("source", []):
                        if s not in seen:
                            seen.append(s)
                recall[r["id"]] = seen
    vec = {r["id"]: r["embedding"]["vector"] for r in load(os.path.join(out, "vectors.jsonl"))}
    when = {m["id"]: t(m.get("arrived", m["time"])) for m in messages}
    semantic = {}
    for q in queries:
        qv = vec[q["id"]]
        cands = [m["id"] for m in messages if when[m["id"]] <= t(q["now"])]
        semantic[q["id"]] = sorted(cands, key=lambda m: -sum(a * b for a, b in zip(qv, vec[m])))[:10]
    halves = sorted({q["half"] for q in queries if "half" in q})
    for system, ranked in (("pb-recall", recall), ("semantic-only", semantic)):
        for half in halves + ["all"]:
            chosen = [q for q in queries if half == "all" or q.get("half") == half]
            line = {"eval": "memory-supersession", "set": os.path.basename(os.path.normpath(set_dir)), "system": system}
            if halves:
                line["half"] = half
            line.update(summarise(metrics(ranked, chosen)))
            print("EVALJSON " + json.dumps(line))
    # Answers (pb-recall | pb-rerank | pb-pack | pb-answer | pb-verify), judged by the message the
    # answer cites first: right when it is one of the query's answers, confidently wrong when it
    # is any other (an earlier state, another thing), withheld when the verdict is not "answered".
    # A question about what was never said (or was forgotten) is right only withheld.
    answered = {}
    for name in sorted(os.listdir(out)):
        if name.startswith("answers-"):
            for r in load(os.path.join(out, name)):
                verdict = r.get("verdict") or {}
                cited = [c.get("path", "").rsplit("/", 1)[-1] for c in (r.get("answer") or {}).get("citations", [])]
                answered[r["id"]] = (verdict.get("status") == "answered", cited, verdict.get("confidence"))
    if answered:
        for half in halves + ["all"]:
            chosen = [q for q in queries if (half == "all" or q.get("half") == half) and q["id"] in answered]
            tally = {"right": 0, "wrong": 0, "withheld": 0}
            unanswerable = {"n": 0, "abstained": 0}
            for q in chosen:
                ok, cited, _ = answered[q["id"]]
                if q["kind"] in ("absent", "forgotten"):
                    unanswerable["n"] += 1
                    unanswerable["abstained"] += not ok
                    continue
                tally["withheld" if not ok else "right" if cited and cited[0] in q["answers"] else "wrong"] += 1
            line = {"eval": "memory-answers", "set": os.path.basename(os.path.normpath(set_dir)),
                    "system": "pb-recall | pb-rerank | pb-pack | pb-answer | pb-verify"}
            if halves:
                line["half"] = half
            n = max(1, sum(tally.values()))
            line.update({"answerable": sum(tally.values()), **tally, "right_share": round(tally["right"] / n, 4),
                         "wrong_share": round(tally["wrong"] / n, 4), "withheld_share": round(tally["withheld"] / n, 4),
                         "unanswerable": unanswerable["n"],
                         "abstained_unanswerable": round(unanswerable["abstained"] / max(1, unanswerable["n"]), 4)})
            print("EVALJSON " + json.dumps(line))
        with open(os.path.join(out, "answers.jsonl"), "w") as f:
            for q in queries:
                if q["id"] in answered:
                    ok, cited, conf = answered[q["id"]]
                    f.write(json.dumps({"id": q["id"], "half": q.get("half"), "kind": q["kind"], "answered": ok, "cited": cited,
                                        "confidence": conf, "answers": q["answers"], "tempting": q.get("tempting", [])}) + "\n")

    # The links pb-remember made over the largest memory (all messages up to the last `now`),
    # against the set's labelled ones.
    labelled = {(l["old"], l["new"]) for l in load(os.path.join(set_dir, "supersessions.ndjson"))}
    largest = max((n for n in os.listdir(out) if n.startswith("memory-")), key=lambda n: sum(1 for _ in open(os.path.join(out, n))))
    records = load(os.path.join(out, largest))
    # A link either way: an item that replaces an earlier one, or one that arrived late and is
    # already replaced by one said after it.
    made = {(s["message"], r["message"]) for r in records if r.get("kind") == "memory" for s in r["supersedes"]}
    made |= {(r["message"], r["superseded_by"]["message"]) for r in records if r.get("kind") == "memory" and r.get("superseded_by")}
    seen = {m["id"] for m in load(os.path.join(out, largest.replace("memory-", "messages-").replace(".jsonl", ".ndjson")))}
    forgets_path = os.path.join(set_dir, "forgets.ndjson")
    forgets = load(forgets_path) if os.path.exists(forgets_path) else []
    # What a request to forget covers cannot be linked afterwards.
    gone = {m for f in forgets for m in f["forgets"]}
    due = {l for l in labelled if l[0] in seen and l[1] in seen and not ({l[0], l[1]} & gone)}
    # Near misses (a set may list them: two appointments on one subject, a second walker added):
    # a link made between them, either way round, is wrong by label, not only unlabelled.
    near = os.path.join(set_dir, "nonlinks.ndjson")
    nonlinks = {frozenset((l["a"], l["b"])) for l in load(near)} if os.path.exists(near) else set()
    extra = {"near_misses": len(nonlinks), "linked_near_misses": sum(frozenset(m) in nonlinks for m in made)} if nonlinks else {}
    if os.path.exists(near):
        entity = {frozenset((l["a"], l["b"])) for l in load(near) if l["why"].lower().startswith("different")}
        extra["entity_pairs"] = len(entity)
        extra["linked_entity_pairs"] = sum(frozenset(m) in entity for m in made)
    print("EVALJSON " + json.dumps({"eval": "memory-supersession-links", "set": os.path.basename(os.path.normpath(set_dir)), **extra,
                                    "system": "pb-remember", "labelled": len(due), "made": len(made),
                                    "correct": len(made & due), "precision": round(len(made & due) / max(1, len(made)), 4),
                                    "recall": round(len(made & due) / max(1, len(due)), 4)}))

    if forgets:
        # Each request as pb-remember answered it over the largest memory: the messages whose
        # items it forgot, or, for a request that fits several things, that it asked back.
        text = {m["id"]: m["text"] for m in messages}
        done = {r["request"]: r for r in records if r.get("kind") == "forgotten"}
        right = 0
        for f in forgets:
            if f["request"] not in seen:
                continue
            r = done.get(text[f["request"]])
            if r is None:
                continue
            if f.get("ambiguous"):
                right += r["status"] == "ambiguous" or (r["status"] == "forgotten" and {i["message"] for i in r["items"]} <= set(f["forgets"]))
            else:
                right += r["status"] == "forgotten" and {i["message"] for i in r["items"]} == set(f["forgets"])
        print("EVALJSON " + json.dumps({"eval": "memory-forget", "set": os.path.basename(os.path.normpath(set_dir)), "system": "pb-remember",
                                        "requests": sum(f["request"] in seen for f in forgets),
                                        "carried_out": len([f for f in forgets if text[f["request"]] in done]), "right": right}))


if __name__ == "__main__":
    {"prepare": prepare, "score": score}[sys.argv[1]](sys.argv[2], sys.argv[3])

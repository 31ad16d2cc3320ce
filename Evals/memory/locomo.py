#!/usr/bin/env python3
"""LoCoMo (ACL 2024) evidence recall through pb-remember and pb-recall, beside plain MiniLM cosine
over the turns, FTS5 BM25 over them and their reciprocal rank fusion, all in the same run.

  locomo.py BUILD OUT

Every conversation is its own memory: each turn a message with its session's date and time, its
speaker and its dia_id as id (an image's caption follows the text, for every system alike). A
question is asked the day after the last session. Evidence recall@10 is LoCoMo's measure: the share
of a question's evidence turns among the sources of the top 10 hits, per category (1 multi-hop,
2 temporal, 3 open-domain, 4 single-hop). Tuning split: the first five conversations; check split:
the last five (never fitted on). Prints EVALJSON lines.
"""
import json, math, os, re, sqlite3, subprocess, sys

import numpy as np
from datetime import datetime, timedelta

build, out = sys.argv[1], sys.argv[2]
data = os.path.join(os.path.dirname(__file__), "..", "data", "memory", "locomo", "locomo10.json")
os.makedirs(out, exist_ok=True)
env = dict(os.environ, PATH=build + ":" + os.environ["PATH"])
MONTHS = {m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"])}


def when(text):
    """'1:56 pm on 8 May, 2023' -> datetime."""
    m = re.match(r"(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})", text.strip(), re.I)
    h, mi, ap, d, mo, y = m.groups()
    h = int(h) % 12 + (12 if ap.lower() == "pm" else 0)
    return datetime(int(y), MONTHS[mo.lower()], int(d), h, int(mi))


def turns(conv):
    c = conv["conversation"]
    out = []
    n = 1
    while f"session_{n}" in c:
        t0 = when(c[f"session_{n}_date_time"])
        for i, t in enumerate(c[f"session_{n}"]):
            text = t["text"]
            if t.get("blip_caption"):
                text += f" [shares a photo: {t['blip_caption']}]"
            # Turns of a session a minute apart, so their order is kept.
            out.append({"id": t["dia_id"], "time": (t0 + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:00+00:00"),
                        "speaker": t["speaker"], "text": text})
        n += 1
    return out


def run(cmd, data):
    p = subprocess.run(cmd, input=data.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        sys.exit(f"locomo: {' '.join(cmd)} failed: {p.stderr.decode()[-2000:]}")
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]


def rrf(lists, k=60):
    score = {}
    for l in lists:
        for r, x in enumerate(l):
            score[x] = score.get(x, 0) + 1 / (k + r + 1)
    return sorted(score, key=lambda x: -score[x])


def fts_rank(ts, question, k):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    db.executemany("INSERT INTO t(rowid, body) VALUES (?, ?)", [(i, x["text"]) for i, x in enumerate(ts)])
    words = [w for w in re.findall(r"\w+", question.lower()) if w not in STOP]
    if not words:
        return []
    q = " OR ".join('"' + w + '"' for w in words)
    return [ts[r]["id"] for (r,) in db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?", (q, k))]


STOP = set("a an the and or of to in on at for with by from is are was were be been it its this that what when where who whom which why how did do does "
           "i you he she they we my your his her their our me him them us as not no so if then than too very can could would should will".split())

conversations = json.load(open(data))
# For tuning: LOCOMO_SPLIT=tune runs the first five only; LOCOMO_RECALL_ARGS adds pb-recall options.
only_tune = os.environ.get("LOCOMO_SPLIT") == "tune"
# LOCOMO_ANSWERS=1 (make eval): also answer every question, adversarial ones included, through
# pb-rerank | pb-pack | pb-answer | pb-verify, and score token F1 and abstention.
answers = os.environ.get("LOCOMO_ANSWERS") == "1"
answer_rows = []
recall_args = os.environ.get("LOCOMO_RECALL_ARGS", "").split()
results = {}
for ci, conv in enumerate(conversations):
    if only_tune and ci >= 5:
        break
    sample = conv["sample_id"]
    ts = turns(conv)
    last = max(datetime.fromisoformat(t["time"]) for t in ts)
    now = (last + timedelta(days=1)).strftime("%Y-%m-%dT12:00:00+00:00")
    memory = "locomo-" + sample
    if os.environ.get("LOCOMO_REUSE") != "1" or not os.path.exists(os.path.join(env.get("PB_HOME", ""), "memory", memory)):
        run(["pb-remember", "--memory", memory], "".join(json.dumps(dict(kind="message", **t)) + "\n" for t in ts))
    qs = [q for q in conv["qa"] if q["category"] in (1, 2, 3, 4)]
    queries = "".join(json.dumps({"kind": "query", "id": i, "text": q["question"], "now": now}) + "\n" for i, q in enumerate(qs))
    embedded = run(["pb-embed", "--vectors", "json"], queries)
    recalled = run(["pb-recall", "--memory", memory, "--k", "10"] + recall_args, "".join(json.dumps(e) + "\n" for e in embedded))
    tv = {r["id"]: r["embedding"]["vector"] for r in run(["pb-embed", "--vectors", "json"],
                                                         "".join(json.dumps({"kind": "query", "id": t["id"], "text": t["text"]}) + "\n" for t in ts))}
    ids = list(tv)
    matrix = np.array([tv[d] for d in ids], dtype=np.float32)
    for q, e, r in zip(qs, embedded, recalled):
        sims = matrix @ np.array(e["embedding"]["vector"], dtype=np.float32)
        cosine = [ids[j] for j in np.argsort(-sims, kind="stable")[:100]]
        bm25 = fts_rank(ts, q["question"], 100)
        fused = rrf([cosine, bm25])
        mine = []
        for h in r.get("hits", []):
            for s in h.get("source", []):
                if s not in mine:
                    mine.append(s)
        ev = set(q["evidence"])
        if not ev:
            continue
        for system, ranked in (("pb-recall", mine), ("cosine", cosine), ("bm25", bm25), ("rrf", fused)):
            got = len(ev & set(ranked[:10])) / len(ev)
            key = ("tune" if ci < 5 else "check", system, q["category"])
            results.setdefault(key, []).append(got)
    if answers:
        every = conv["qa"]
        aq = "".join(json.dumps({"kind": "query", "id": i, "text": q["question"], "now": now}) + "\n" for i, q in enumerate(every))
        out_records = run(["sh", "-c", f"pb-embed | pb-recall --memory {memory} --k 40 | pb-rerank | pb-pack | pb-answer | pb-verify"], aq)
        for q, r in zip(every, out_records):
            answered = (r.get("verdict") or {}).get("status") == "answered"
            # The answer as a reader reads it: its sentences, without the citation markers ("[1]"
            # would count as a word of the answer).
            said = " ".join(s.get("text", "") for s in (r.get("answer") or {}).get("sentences", []))
            answer_rows.append({"split": "tune" if ci < 5 else "check", "category": q["category"], "answered": answered,
                                "prediction": said if answered else "", "question": q["question"],
                                "failed": (r.get("verdict") or {}).get("failed", []), "confidence": (r.get("verdict") or {}).get("confidence"),
                                "why": {g: v.get("reason", "") for g, v in ((r.get("verdict") or {}).get("gates") or {}).items() if not v.get("pass", True)},
                                "cited": [c.get("path", "").rsplit("/", 1)[-1] for c in (r.get("answer") or {}).get("citations", [])],
                                "evidence": q.get("evidence", []), "attribution": r.get("attribution"),
                                "gold": str(q.get("answer", q.get("adversarial_answer", "")))})
    if answers:
        with open(os.path.join(out, "answers.jsonl"), "w") as f:
            for row in answer_rows:
                f.write(json.dumps(row) + "\n")
    print(f"locomo: {sample} done ({len(ts)} turns, {len(qs)} questions)", file=sys.stderr)

for split in ("tune", "check"):
    for system in ("pb-recall", "cosine", "bm25", "rrf"):
        cats = {c: results.get((split, system, c), []) for c in (1, 2, 3, 4)}
        allv = [x for v in cats.values() for x in v]
        if not allv:
            continue
        line = {"eval": "locomo-evidence-recall@10", "split": split, "system": system, "questions": len(allv),
                "recall_at_10": round(sum(allv) / len(allv), 4),
                "by_category": {str(c): round(sum(v) / len(v), 4) for c, v in cats.items() if v}}
        print("EVALJSON " + json.dumps(line))


def normalise(text):
    """LoCoMo's answer normalisation: lowercase, no punctuation, no articles or 'and' (its Porter
    stemming is left out: no NLTK here)."""
    text = re.sub(r"[^\w\s]", " ", text.lower().replace(",", ""))
    return [w for w in text.split() if w not in ("a", "an", "the", "and")]


def f1(prediction, gold):
    p, g = normalise(prediction), normalise(gold)
    common = sum(min(p.count(w), g.count(w)) for w in set(p))
    if not p or not g or common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def multi_f1(prediction, gold):
    """Category 1 (multi-hop): each comma-separated gold part scored against the best
    comma-separated part of the prediction, averaged."""
    parts = [x for x in prediction.split(",") if x.strip()] or [prediction]
    golds = [x for x in gold.split(",") if x.strip()] or [gold]
    return sum(max(f1(p, g) for p in parts) for g in golds) / len(golds)


if answers:
    for split in ("tune", "check"):
        rows = [r for r in answer_rows if r["split"] == split]
        if not rows:
            continue
        by, answered_by = {}, {}
        for c in (1, 2, 3, 4):
            cr = [r for r in rows if r["category"] == c]
            if cr:
                scores = [(multi_f1 if c == 1 else f1)(r["prediction"], r["gold"] if c != 3 else r["gold"].split(";")[0]) for r in cr]
                by[str(c)] = round(sum(scores) / len(scores), 4)
                kept = [x for x, r in zip(scores, cr) if r["answered"]]
                answered_by[str(c)] = round(sum(kept) / len(kept), 4) if kept else None
        answerable = [r for r in rows if r["category"] != 5]
        adversarial = [r for r in rows if r["category"] == 5]
        line = {"eval": "locomo-answers", "split": split, "system": "pb-recall | pb-rerank | pb-pack | pb-answer | pb-verify",
                "questions": len(rows), "token_f1_by_category": by, "token_f1_of_answered_by_category": answered_by,
                "withheld_answerable": round(sum(not r["answered"] for r in answerable) / max(1, len(answerable)), 4),
                "abstained_adversarial": round(sum(not r["answered"] for r in adversarial) / max(1, len(adversarial)), 4)}
        print("EVALJSON " + json.dumps(line))

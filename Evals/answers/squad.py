#!/usr/bin/env python3
"""SQuAD 2.0 (dev half) for Evals/answers.

  squad.py docs DEV.json OUTDIR        one Markdown document per article, paragraphs as sections
  squad.py queries DEV.json [half]     query records (half: fit = even position, check = odd)
  squad.py score DEV.json RESULTS.jsonl [half] [--bins]
                                       EVALJSON lines: answered with a correct citation, abstained
                                       on unanswerables, wrong answers, wrong abstentions; reliability
                                       bins of the verdict confidence
  squad.py features DEV.json RESULTS.jsonl
                                       one line per question: gate scores and whether the answer is
                                       right (for calibrate.py)

The halves split questions by their position in the file (even / odd), so the calibration is
fitted on one half and checked on the other.
"""
import json, os, re, string, sys


def load(path):
    return json.load(open(path))["data"]


def questions(data):
    i = 0
    for a, art in enumerate(data):
        for p, para in enumerate(art["paragraphs"]):
            for qa in para["qas"]:
                yield i, a, p, art["title"], qa
                i += 1


def title_slug(t):
    return re.sub(r"[^A-Za-z0-9]+", "-", t).strip("-").lower()


def docs(dev, outdir):
    os.makedirs(outdir, exist_ok=True)
    for art in load(dev):
        title = art["title"].replace("_", " ")
        parts = ["# " + title, ""]
        for p, para in enumerate(art["paragraphs"], 1):
            parts += ["## Paragraph %d" % p, "", para["context"].strip(), ""]
        with open(os.path.join(outdir, title_slug(art["title"]) + ".md"), "w") as f:
            f.write("\n".join(parts))


def in_half(i, half):
    return half in (None, "all") or (half == "fit") == (i % 2 == 0)


def queries(dev, half=None):
    for i, a, p, title, qa in questions(load(dev)):
        if in_half(i, half):
            print(json.dumps({"kind": "query", "id": qa["id"], "text": qa["question"].strip()}))


def normalise(s):
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def judge(qa, rec):
    """(abstained, contains_gold, citation_holds_gold) for one result record."""
    verdict = rec.get("verdict") or {}
    answer = rec.get("answer") or {}
    abstained = verdict.get("status") == "abstained" or answer.get("text", "").startswith("That isn't in your documents")
    golds = [normalise(g["text"]) for g in qa.get("answers", []) if g["text"].strip()]
    text = normalise(answer.get("text", ""))
    contains = any(g and g in text for g in golds)
    cites = answer.get("citations") or []
    quotes = [normalise(c.get("quote", "")) for c in cites]
    every = bool(quotes) and all(any(g and g in q for g in golds) for q in quotes)
    some = any(any(g and g in q for g in golds) for q in quotes)
    return abstained, contains, every, some


def score(dev, results, half=None, bins=False):
    recs = {}
    for line in open(results):
        r = json.loads(line)
        recs[r.get("id")] = r
    n_ans = n_imp = 0
    ans_ok = ans_ok_some = ans_abst = ans_wrong = imp_abst = imp_answered = missing = 0
    conf = []
    for i, a, p, title, qa in questions(load(dev)):
        if not in_half(i, half):
            continue
        r = recs.get(qa["id"])
        if r is None:
            missing += 1
            continue
        abstained, contains, every, some = judge(qa, r)
        c = (r.get("verdict") or {}).get("confidence")
        if qa["is_impossible"]:
            n_imp += 1
            if abstained:
                imp_abst += 1
            else:
                imp_answered += 1
                if c is not None:
                    conf.append((c, 0))
        else:
            n_ans += 1
            if abstained:
                ans_abst += 1
            elif contains and every:
                ans_ok += 1
                if c is not None:
                    conf.append((c, 1))
            else:
                ans_wrong += 1
                if c is not None:
                    conf.append((c, 0))
            if not abstained and contains and some:
                ans_ok_some += 1
    h = half or "all"
    def out(metric, value, **extra):
        d = {"eval": "answers", "half": h, "metric": metric, "value": round(value, 4)}
        d.update(extra)
        print("EVALJSON " + json.dumps(d))
    out("answered_correct_cited", ans_ok / max(n_ans, 1), n=n_ans, target=0.60)
    out("answered_correct_some_citation", ans_ok_some / max(n_ans, 1), n=n_ans)
    out("answerable_wrong_answer", ans_wrong / max(n_ans, 1), n=n_ans)
    out("answerable_wrongly_abstained", ans_abst / max(n_ans, 1), n=n_ans, target_max=0.20)
    out("unanswerable_abstained", imp_abst / max(n_imp, 1), n=n_imp, target=0.50)
    out("unanswerable_answered", imp_answered / max(n_imp, 1), n=n_imp)
    if conf:
        # Reliability of the shown answers' confidence: 5 bins, and the expected calibration error.
        edges = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0001]
        ece = 0.0
        rows = []
        for lo, hi in zip(edges, edges[1:]):
            b = [(c, y) for c, y in conf if lo <= c < hi]
            if not b:
                continue
            mc = sum(c for c, _ in b) / len(b)
            acc = sum(y for _, y in b) / len(b)
            ece += len(b) / len(conf) * abs(mc - acc)
            rows.append({"bin": "%.1f-%.1f" % (lo, min(hi, 1.0)), "n": len(b), "confidence": round(mc, 3), "accuracy": round(acc, 3)})
        out("ece", ece, n=len(conf), bins=rows)
    if missing:
        out("missing_results", missing)


def features(dev, results):
    recs = {}
    for line in open(results):
        r = json.loads(line)
        recs[r.get("id")] = r
    for i, a, p, title, qa in questions(load(dev)):
        r = recs.get(qa["id"])
        if r is None:
            continue
        abstained, contains, every, some = judge(qa, r)
        v = r.get("verdict") or {}
        gates = {k: g.get("score") for k, g in (v.get("gates") or {}).items()}
        right = (not qa["is_impossible"]) and contains and every
        print(json.dumps({"i": i, "id": qa["id"], "impossible": qa["is_impossible"], "right": bool(right),
                          "gates": gates, "raw": v.get("raw"), "status": v.get("status")}))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "docs":
        docs(sys.argv[2], sys.argv[3])
    elif cmd == "queries":
        queries(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif cmd == "score":
        args = [a for a in sys.argv[4:] if not a.startswith("--")]
        score(sys.argv[2], sys.argv[3], args[0] if args else None, "--bins" in sys.argv)
    elif cmd == "features":
        features(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: squad.py docs|queries|score|features ...")

#!/usr/bin/env python3
"""Helpers for Evals/ocr/run.sh: what OCR costs, measured on pages made by real tools.

  ocr.py prepare SCIFACT OUT      pick the queries and documents; write OUT/text/ID.txt (the true
                                  text: title, blank line, abstract), OUT/ms/ID.ms (the same for
                                  groff -ms), OUT/queries.jsonl and OUT/qrels.json
  ocr.py cer TRUTH OCR NAME [--cells]  character error rate of each OCR text against its true text
  ocr.py score QRELS RESULTS NAME LIST  nDCG@10 and Recall@10, documents named by file stem
  ocr.py gate EVALJSON            exit 1 when a figure passes its floor (see FLOORS)

The queries are the first 30 (by id) of SciFact's check half (odd ids) that have relevant
documents; the library is their relevant documents and, as distractors on the same topics, the
documents relevant to the first 30 queries of the tuning half. Nothing here is tuned.
"""
import json, math, os, re, sys, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "retrieval"))
from scifact import dedupe  # noqa: E402  (one copy of the ranking helpers)


def prepare(data, out):
    qrels = {}
    for i, line in enumerate(open(f"{data}/qrels-train.tsv")):
        if i == 0:
            continue
        q, d, g = line.split()
        if int(g) > 0:
            qrels.setdefault(q, set()).add(d)
    check = sorted((q for q in qrels if int(q) % 2 == 1), key=int)[:30]
    tune = sorted((q for q in qrels if int(q) % 2 == 0), key=int)[:30]
    wanted = set().union(*(qrels[q] for q in check + tune))
    os.makedirs(f"{out}/text", exist_ok=True)
    os.makedirs(f"{out}/ms", exist_ok=True)
    n = 0
    for line in open(f"{data}/corpus.jsonl"):
        d = json.loads(line)
        if d["_id"] not in wanted:
            continue
        n += 1
        title, text = d.get("title", "").strip(), d["text"].strip()
        open(f"{out}/text/{d['_id']}.txt", "w").write(f"{title}\n\n{text}\n")
        open(f"{out}/ms/{d['_id']}.ms", "w").write(ms(title, text))
    with open(f"{out}/queries.jsonl", "w") as f:
        for line in open(f"{data}/queries-train.jsonl"):
            q = json.loads(line)
            if q["_id"] in check:
                f.write(json.dumps({"kind": "query", "id": q["_id"], "text": q["text"]}) + "\n")
    json.dump({q: sorted(qrels[q]) for q in check}, open(f"{out}/qrels.json", "w"))
    print(f"ocr: {n} documents, {len(check)} queries", file=sys.stderr)


def ms(title, text):
    """groff -ms source: no hyphenation or justification, so the page holds the true words."""
    def esc(s):
        s = s.replace("\\", "\\e")
        return "\n".join(("\\&" + l if l[:1] in ".'" else l) for l in s.split("\n"))
    return f".nh\n.na\n.LP\n.ps 12\n\\fB{esc(title)}\\fP\n.ps 10\n.LP\n{esc(text)}\n"


def normalise(text, ocr=False):
    """The comparison forgives what typesetting changes, not what OCR misreads: typographic
    quotes and dashes, ligatures (NFKC) and spacing; on the OCR side, the " | " pb-chunk puts
    between the cells of a table row it found (the page has a gap there, not a bar)."""
    if ocr:
        text = text.replace(" | ", " ")
    text = unicodedata.normalize("NFKC", text)
    text = re.sub("[\u2018\u2019\u201a\u2032`\u00b4]", "'", text)
    text = re.sub("[\u201c\u201d\u201e\u2033]", '"', text)
    text = re.sub("[\u2010-\u2015\u2212]", "-", text)
    return re.sub(r"\s+", " ", text).strip()


def distance(a, b):
    """Levenshtein distance, one row at a time."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def cer(truth_dir, ocr_dir, name, cells=""):
    """With --cells the " | " between table cells found by OCR is taken for the gap it stands
    for (the samples have tables; the manual's figure is kept as it was first measured)."""
    errors = chars = docs = 0
    worst = []
    for f in sorted(os.listdir(truth_dir)):
        stem = f.rsplit(".", 1)[0]
        path = os.path.join(ocr_dir, stem + ".txt")
        truth = normalise(open(os.path.join(truth_dir, f)).read())
        got = normalise(open(path).read(), ocr=cells == "--cells") if os.path.exists(path) else ""
        e = distance(truth, got)
        errors += e
        chars += len(truth)
        docs += 1
        worst.append((e / max(1, len(truth)), stem))
    worst.sort(reverse=True)
    if 1 < docs <= 10:
        for c, s in sorted(worst, key=lambda w: w[1]):
            print("EVALJSON " + json.dumps({"eval": "ocr", "data": name, "metric": "cer-document", "doc": s, "cer": round(c, 4)}))
    print("EVALJSON " + json.dumps({"eval": "ocr", "data": name, "metric": "cer", "documents": docs, "characters": chars,
                                    "errors": errors, "cer": round(errors / max(1, chars), 4),
                                    "worst": [{"doc": s, "cer": round(c, 4)} for c, s in worst[:3]]}))


def score(qrels_path, results_path, name, list_name):
    qrels = json.load(open(qrels_path))
    stem = lambda p: os.path.basename(p).rsplit(".", 1)[0]
    lists, n = {}, 0
    for line in open(results_path):
        r = json.loads(line)
        rel = {d: 1 for d in qrels.get(str(r["id"]), [])}
        if not rel:
            continue
        n += 1
        docs = dedupe(stem(h["path"]) for h in r.get("hits", []))
        if True:
            m = lists.setdefault(list_name, {"ndcg@10": 0.0, "recall@10": 0.0})
            dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(docs[:10]))
            idcg = sum(1 / math.log2(i + 2) for i in range(min(10, len(rel))))
            m["ndcg@10"] += dcg / idcg
            m["recall@10"] += len(set(docs[:10]) & set(rel)) / len(rel)
    for list_name, m in sorted(lists.items()):
        out = {"eval": "ocr", "data": name, "metric": "retrieval", "list": list_name, "queries": n}
        out.update({k: round(v / max(1, n), 4) for k, v in m.items()})
        print("EVALJSON " + json.dumps(out))


# Floors, each close under the figure measured (AMD EPYC family 26 model 2, tesseract 5.3, whose
# integer model reads the same on every CPU): CER 0.0034 on the manual, 0.0069 on the SciFact
# pages; the scans' fused nDCG@10 0.8871 against the text's 0.8903 (a loss of 0.003).
# The samples (their truth pdftotext -layout): 0.0086, the printed spreadsheet 0.0172.
FLOORS = {"cer": {"dishwasher-manual": 0.0045, "scifact-check": 0.008, "samples": 0.011}, "loss": 0.01}


def gate(path):
    figures, bad = {}, []
    for line in open(path):
        if line.startswith("EVALJSON "):
            m = json.loads(line.split(" ", 1)[1])
            figures[(m["metric"], m["data"], m.get("list"))] = m
    for data, ceiling in FLOORS["cer"].items():
        m = figures.get(("cer", data, None))
        if m is None:
            continue
        if m["cer"] > ceiling:
            bad.append(f"{data} CER {m['cer']} > {ceiling}")
    text = figures.get(("retrieval", "scifact-check-text", "fused"))
    scan = figures.get(("retrieval", "scifact-check-scan", "fused"))
    if text and scan and text["ndcg@10"] - scan["ndcg@10"] > FLOORS["loss"]:
        bad.append(f"scans lose {round(text['ndcg@10'] - scan['ndcg@10'], 4)} nDCG@10 > {FLOORS['loss']}")
    if not any(k[0] == "cer" for k in figures):
        bad.append("no CER figure in the results")
    if bad:
        sys.exit("ocr gate failed: " + "; ".join(bad))
    print("ocr gate: passed")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"prepare": prepare, "cer": cer, "score": score, "gate": gate}[cmd](*args)

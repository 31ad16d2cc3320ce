"""Renders Evals/RESULTS.md from the JSON lines of the last `make eval` and `make bench`
(Evals/results/eval.jsonl, Evals/results/bench.jsonl, each behind a line naming the machine), and
of the speech parts, which are recorded on their own (`make eval-speech`, `make bench-speech`:
eval-speech.jsonl, bench-speech.jsonl), so that no figure in it is typed by hand.

  results.py           writes Evals/RESULTS.md
  results.py --check   renders again and fails unless Evals/RESULTS.md is what it renders, and
                       unless every number in it is one the JSON lines hold
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# (record, heading, the command that makes it, the kind of its lines)
SOURCES = [("eval", "Evaluations", "make eval", "eval"), ("eval-speech", "Evaluations: speech", "make eval-speech", "eval"),
           ("bench", "Benchmarks", "make bench", "bench"), ("bench-speech", "Benchmarks: speech", "make bench-speech", "bench")]

# What each group measures, in words (the figures come from the lines alone).
ABOUT = {
    "retrieval": "BEIR SciFact (train claims over the abstracts) through pb-chunk, pb-index, pb-embed and "
                 "pb-search; each ranked list and their fusion, scored per document, on the tuning and check halves.",
    "rerank": "pb-rerank's fitted feature model against the fused ranking on SciFact; the check half is never fitted on.",
    "answers": "SQuAD 2.0 (dev) through pb-ask: answerable questions answered right, unanswerable ones withheld.",
    "household": "Questions of several kinds on the household documents (Evals/household/README.md), through pb-ask.",
    "dates": "pb-date on the date cases, the spoken phrases and Duckling's English time corpus (its check half never tuned on).",
    "router": "pb-plan on its labelled requests, the safety split, HWU64's test fold (calendar, list and email intents; "
              "its safety over all intents), and the everyday requests (router-everyday: a tuning half and a check half).",
    "scheduling": "find_slot against an independent expansion of generated calendars.",
    "reconcile": "The reconciliation rules R1-R9 on their labelled cases.",
    "ocr": "The sample manual's pages rendered as a scan and read back by tesseract: character error rate.",
    "memory": "pb-remember and pb-recall on the frozen supersession sets and the keys set: links made, hit@1, "
              "tempting items above the answer, and the answers through the answering stages.",
    "speech": "The router's labelled requests spoken by espeak-ng and festival, transcribed by pb-listen and by faster-whisper "
              "on the same weights (float32, greedy), scored by WER after Whisper's English normalizer, then planned by pb-plan "
              "beside the text (the check half; names recovered, and the agent's phrasing in the prompt, as ablations).",
    "locomo": "LoCoMo's conversations: pb-recall's evidence recall@10 beside BM25, cosine and their fusion in the same run, "
              "and its answers (answerable withheld, adversarial abstained); the check conversations are never tuned on.",
}


def load(path):
    machine, lines = None, []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.strip()
            if not raw:
                continue
            record = json.loads(raw)
            if machine is None and "machine" in record:
                machine = record["machine"]
            else:
                lines.append(record)
    return machine, lines


def cell(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(cell(v) for v in value)
    if value is None:
        return ""
    return str(value).replace("|", "\\|").replace("\n", " ")


def flat(record, prefix=""):
    """A record's fields, an object's one level down as `field.key`."""
    out = {}
    for key, value in record.items():
        if isinstance(value, dict) and not prefix:
            out.update(flat(value, key + "."))
        elif isinstance(value, dict):
            out[prefix + key] = json.dumps(value, sort_keys=True)
        else:
            out[prefix + key] = value
    return out


def group_key(kind, record):
    if kind == "eval":
        name = str(record.get("eval", "other"))
        return name.split("-")[0] if name.split("-")[0] in ABOUT else name
    return str(record.get("bench", "other")).split(":")[0]


def table(records, skip):
    rows = [flat(r) for r in records]
    columns = []
    for row in rows:
        for key in row:
            if key not in columns and key not in skip:
                columns.append(key)
    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        out.append("| " + " | ".join(cell(row.get(c)) for c in columns) + " |")
    return out


def machine_line(m):
    family = f", family {m['family']} model {m['model']}" if "family" in m else ""
    return (f"{m.get('date', '?')}, commit {m.get('commit', '?')}, on {m.get('cpu', '?')}{family} "
            f"({' '.join(m.get('extensions', [])) or 'no vector extensions'}), MiniLM on the "
            f"{m.get('kernel_path', '?')} kernel path, Linux {m.get('linux', '?')}, {m.get('cores', '?')} cores")


def render():
    out = ["# Results", "",
           "Generated by `make results` from the JSON lines of the last `make eval` and `make bench`",
           "(`Evals/results/eval.jsonl`, `Evals/results/bench.jsonl`) and of the speech parts, recorded on their",
           "own (`make eval-speech`, `make bench-speech`); do not edit it by hand. Each part",
           "names the machine and the commit it was measured on. What each evaluation measures, and how",
           "its data was made, is in `Evals/README.md`; speed is read beside the reference run in the",
           "same part, never across machines.", ""]
    for record, title, command, kind in SOURCES:
        path = os.path.join(HERE, "results", record + ".jsonl")
        out += ["## " + title, ""]
        if not os.path.exists(path):
            out += [f"No `{command}` has been recorded yet.", ""]
            continue
        machine, records = load(path)
        out += ["Measured " + machine_line(machine or {}) + ".", ""]
        groups = {}
        for r in records:
            groups.setdefault(group_key(kind, r), []).append(r)
        for name, rs in groups.items():
            out += ["### " + name, ""]
            if name in ABOUT:
                out += [ABOUT[name], ""]
            # Records of one shape in one table; another shape starts another.
            shapes = {}
            for r in rs:
                shapes.setdefault(tuple(k for k in r if k not in ("eval", "bench")), []).append(r)
            for same in shapes.values():
                out += table(same, skip={"eval"} if kind == "eval" else set()) + [""]
    return "\n".join(out).rstrip("\n") + "\n"


NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e-?\d+)?")


def check(rendered, target):
    if not os.path.exists(target):
        print("results: no Evals/RESULTS.md; run make results", file=sys.stderr)
        return 1
    with open(target, encoding="utf-8") as f:
        text = f.read()
    if text != rendered:
        print("results: Evals/RESULTS.md is not what make results renders from Evals/results/; run make results", file=sys.stderr)
        return 1
    held = set()
    for record, _, command, _ in SOURCES:
        path = os.path.join(HERE, "results", record + ".jsonl")
        if not os.path.exists(path):
            print(f"results: no Evals/results/{record}.jsonl; run {command}", file=sys.stderr)
            return 1
        with open(path, encoding="utf-8") as f:
            held |= {float(n) for n in NUMBER.findall(f.read())}
    # The figures are in the tables and the machine lines; the prose around them is the script's.
    figures = "\n".join(l for l in text.splitlines() if l.startswith("|") or l.startswith("Measured "))
    # Compared as numbers: the lines may say 0.030 where the table says 0.03.
    stray = sorted({n for n in NUMBER.findall(figures) if float(n) not in held})
    if stray:
        print("results: numbers in Evals/RESULTS.md that no output line holds: " + ", ".join(stray[:20]), file=sys.stderr)
        return 1
    print(f"results: Evals/RESULTS.md renders from the recorded outputs ({len(NUMBER.findall(figures))} numbers, all from them)")
    return 0


def main(argv):
    target = os.path.join(HERE, "RESULTS.md")
    rendered = render()
    if argv[1:] == ["--check"]:
        return check(rendered, target)
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 64
    with open(target + ".tmp", "w", encoding="utf-8") as f:
        f.write(rendered)
    os.replace(target + ".tmp", target)
    print("results: wrote Evals/RESULTS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

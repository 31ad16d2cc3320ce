#!/usr/bin/env python3
"""Fits pb-verify's Platt scaling on the household set's tune half and writes calibration.json.

  calibrate.py QUESTIONS.jsonl OUTCOMES.jsonl RESULTS.jsonl [OUT.json]

OUTCOMES is what score.py --outcomes writes, RESULTS the pb-ask --json records of the same run.
The fit uses the tune half's shown answers (verdict.status answered): x is the raw score pb-verify
computed (bias + sum of weight x gate score, the committed weights of Evals/answers/calibration.json),
y whether score.py judged the answer right. confidence = 1 / (1 + exp(a * raw + b)), a and b by
Newton's method on the log loss (Evals/answers/calibrate.py's fit). The check half is never used
here; score.py --calibration reports the refit's calibration error on both halves.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "answers"))
from calibrate import fit  # noqa: E402


def main():
    if len(sys.argv) < 4:
        print("usage: calibrate.py QUESTIONS.jsonl OUTCOMES.jsonl RESULTS.jsonl [OUT.json]", file=sys.stderr)
        sys.exit(64)
    half = {json.loads(l)["id"]: json.loads(l)["half"] for l in open(sys.argv[1], encoding="utf-8") if l.strip()}
    outcomes = {o["id"]: o for o in (json.loads(l) for l in open(sys.argv[2], encoding="utf-8") if l.strip())}
    raw = {}
    for l in open(sys.argv[3], encoding="utf-8"):
        if l.strip():
            r = json.loads(l)
            v = r.get("verdict") or {}
            if r.get("id") is not None and v.get("status") == "answered" and isinstance(v.get("raw"), (int, float)):
                raw[r["id"]] = v["raw"]
    shown = [i for i in sorted(raw) if half.get(i) == "tune" and i in outcomes]
    xs = [raw[i] for i in shown]
    ys = [1.0 if outcomes[i]["outcome"] == "right" else 0.0 for i in shown]
    a, b = fit(xs, ys)
    here = os.path.dirname(os.path.abspath(__file__))
    current = json.load(open(os.path.join(here, "..", "answers", "calibration.json"), encoding="utf-8"))
    current["platt"] = {"a": round(a, 4), "b": round(b, 4)}
    current["fitted_on"] = "household tune half: %d shown answers, %d right" % (len(ys), int(sum(ys)))
    text = json.dumps(current, indent=2, sort_keys=True) + "\n"
    if len(sys.argv) > 4:
        open(sys.argv[4], "w", encoding="utf-8").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Scores pb-ask --json records against Evals/household/questions.jsonl.

An answer is withheld when pb-verify's verdict.status is not "answered" (pb-records(5): answered
or abstained), or when it has no text. An answered question is right when every must group has an
alternative in .answer.text (case-insensitive, white space collapsed), no must_not value is in it,
and its citations (.answer.citations[].path, by basename) include one of the files in cite, or
every one of them for kind multi_file; otherwise it is confidently_wrong. For unanswerable
questions, withheld is right and answered is confidently_wrong.

Prints EVALJSON lines (per kind and all, for the halves tune, check and all), the seconds per
question, and the expected calibration error of .verdict.confidence against right among the
answered (10 equal bins); writes a table for people (--report) and the outcomes (--outcomes).
With --floors FILE: exits 1 when a half named there has right_rate under its right_rate or
wrong_rate over its wrong_rate_max.
"""
import argparse
import json
import math
import os
import re
import sys

KINDS = ["table_value", "prose_value", "procedure", "summary", "comparison", "multi_file",
         "paraphrase", "typo", "date_time", "overview", "unanswerable"]


def norm(text):
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    return re.sub(r"\s+", " ", text).strip().casefold()


def has(text, value):
    return norm(value) in text


def outcome(q, rec):
    answer = (rec or {}).get("answer") or {}
    verdict = (rec or {}).get("verdict") or {}
    text = answer.get("text") or ""
    answered = verdict.get("status") == "answered" and text.strip() != ""
    detail = ""
    if q["kind"] == "unanswerable":
        return ("confidently_wrong" if answered else "right"), answered, text, detail
    if not answered:
        return "withheld", answered, text, detail
    t = norm(text)
    missing = [g for g in q["must"] if not any(has(t, a) for a in g)]
    present = [m for m in q["must_not"] if has(t, m)]
    cited = {os.path.basename(c.get("path") or "") for c in answer.get("citations") or []}
    want = set(q["cite"])
    if not want:
        cites_ok = True
    elif q["kind"] == "multi_file":
        cites_ok = want <= cited
    else:
        cites_ok = bool(want & cited)
    if missing:
        detail += "missing %s; " % json.dumps(missing, ensure_ascii=False)
    if present:
        detail += "must_not %s; " % json.dumps(present, ensure_ascii=False)
    if not cites_ok:
        detail += "cited %s, wanted %s; " % (sorted(cited), sorted(want))
    right = not missing and not present and cites_ok
    return ("right" if right else "confidently_wrong"), answered, text, detail


def calibration_error(rows, confidence):
    """Expected calibration error over 10 equal bins of confidence, and the bins."""
    bins = []
    ece = 0.0
    for b in range(10):
        lo, hi = b / 10, (b + 1) / 10
        inb = [r for r in rows if lo <= confidence(r) < hi or (b == 9 and confidence(r) == 1.0)]
        if not inb:
            continue
        acc = sum(r["outcome"] == "right" for r in inb) / len(inb)
        conf = sum(confidence(r) for r in inb) / len(inb)
        ece += len(inb) / len(rows) * abs(acc - conf)
        bins.append({"bin": "%.1f-%.1f" % (lo, hi), "n": len(inb), "confidence": round(conf, 4), "right": round(acc, 4)})
    return (round(ece, 4) if rows else None), bins


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("questions")
    ap.add_argument("results")
    ap.add_argument("--seconds", type=float, default=None, help="wall seconds of the asking")
    ap.add_argument("--report")
    ap.add_argument("--outcomes")
    ap.add_argument("--half", default="all", choices=["tune", "check", "all"])
    ap.add_argument("--floors")
    ap.add_argument("--calibration", help="a Platt refit (calibrate.py's calibration.json): its ECE is reported beside the shown one")
    args = ap.parse_args()

    questions = [json.loads(l) for l in open(args.questions, encoding="utf-8") if l.strip()]
    questions = [q for q in questions if args.half in ("all", q["half"])]
    records = [json.loads(l) for l in open(args.results, encoding="utf-8") if l.strip()]
    by_id = {r.get("id"): r for r in records if r.get("id") is not None}
    if len(by_id) < len(records) and len(records) == len(questions):
        by_id = {q["id"]: r for q, r in zip(questions, records)}   # ids lost: fall back on order

    rows = []
    for q in questions:
        rec = by_id.get(q["id"])
        o, answered, text, detail = outcome(q, rec)
        conf = ((rec or {}).get("verdict") or {}).get("confidence")
        raw = ((rec or {}).get("verdict") or {}).get("raw")
        status = ((rec or {}).get("verdict") or {}).get("status")
        rows.append(dict(id=q["id"], kind=q["kind"], half=q["half"], outcome=o, answered=answered,
                         status=status if rec else "missing", confidence=conf, raw=raw, answer=text,
                         cited=sorted({os.path.basename(c.get("path") or "")
                                       for c in ((rec or {}).get("answer") or {}).get("citations") or []}),
                         detail=detail))

    refit = json.load(open(args.calibration, encoding="utf-8"))["platt"] if args.calibration else None
    lines = []
    summary = {}
    for half in ("tune", "check", "all"):
        hrows = [r for r in rows if half == "all" or r["half"] == half]
        if not hrows:
            continue
        for kind in KINDS + ["all"]:
            krows = [r for r in hrows if kind == "all" or r["kind"] == kind]
            if not krows:
                continue
            n = len(krows)
            c = {o: sum(r["outcome"] == o for r in krows) for o in ("right", "confidently_wrong", "withheld")}
            rec = {"eval": "household", "half": half, "kind": kind, "n": n, "right": c["right"],
                   "confidently_wrong": c["confidently_wrong"], "withheld": c["withheld"],
                   "right_rate": round(c["right"] / n, 4), "wrong_rate": round(c["confidently_wrong"] / n, 4)}
            summary[(half, kind)] = rec
            lines.append(rec)
        # Calibration among the answered: does the confidence say how often they are right?
        ans = [r for r in hrows if r["answered"] and isinstance(r["confidence"], (int, float))]
        ece, bins = calibration_error(ans, lambda r: r["confidence"])
        lines.append({"eval": "household", "half": half, "metric": "ece",
                      "value": ece, "answered": len(ans), "bins": bins})
        if refit:
            # The same answers under the household refit of the Platt scaling.
            scaled = [r for r in ans if isinstance(r["raw"], (int, float))]
            ece, bins = calibration_error(scaled, lambda r: 1 / (1 + math.exp(refit["a"] * r["raw"] + refit["b"])))
            lines.append({"eval": "household", "half": half, "metric": "ece_refit",
                          "value": ece, "answered": len(scaled), "bins": bins, "platt": refit})
    if args.seconds is not None:
        lines.append({"eval": "household", "metric": "seconds_per_question",
                      "value": round(args.seconds / max(1, len(rows)), 3), "questions": len(rows),
                      "seconds": round(args.seconds, 1)})
    for rec in lines:
        print("EVALJSON " + json.dumps(rec, ensure_ascii=False))

    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("%-7s %-12s %-5s %-17s %-5s %s\n" % ("id", "kind", "half", "outcome", "conf", "answer (first 100 chars)"))
            for r in rows:
                conf = "%.2f" % r["confidence"] if isinstance(r["confidence"], (int, float)) else "-"
                ans = re.sub(r"\s+", " ", r["answer"])[:100]
                f.write("%-7s %-12s %-5s %-17s %-5s %s\n" % (r["id"], r["kind"], r["half"], r["outcome"], conf, ans))
                if r["detail"]:
                    f.write("%-7s   %s\n" % ("", r["detail"]))
            f.write("\n%-12s %5s %5s %5s %5s %6s %6s\n" % ("kind", "n", "right", "wrong", "withh", "r.rate", "w.rate"))
            for kind in KINDS + ["all"]:
                s = summary.get(("all", kind)) or summary.get((args.half, kind))
                if s:
                    f.write("%-12s %5d %5d %5d %5d %6.3f %6.3f\n" % (kind, s["n"], s["right"], s["confidently_wrong"],
                                                                    s["withheld"], s["right_rate"], s["wrong_rate"]))
    if args.outcomes:
        with open(args.outcomes, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")

    if args.floors:
        floors = json.load(open(args.floors, encoding="utf-8"))
        bad = 0
        for half, fl in floors.items():
            s = summary.get((half, "all"))
            if s is None:
                print("household gate: no %s questions were asked; its floors are not checked" % half, file=sys.stderr)
                continue
            if s["right_rate"] < fl.get("right_rate", 0.0):
                print("household gate: %s right_rate %.4f under the floor %.4f" % (half, s["right_rate"], fl["right_rate"]), file=sys.stderr)
                bad = 1
            if s["wrong_rate"] > fl.get("wrong_rate_max", 1.0):
                print("household gate: %s wrong_rate %.4f over the ceiling %.4f" % (half, s["wrong_rate"], fl["wrong_rate_max"]), file=sys.stderr)
                bad = 1
        sys.exit(bad)


if __name__ == "__main__":
    main()

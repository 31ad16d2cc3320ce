#!/usr/bin/env python3
"""Fits pb-verify's Platt scaling on the fit half of SQuAD 2.0 (dev half) and writes calibration.json.

  calibrate.py FEATURES.jsonl [OUT.json]

FEATURES is what `squad.py features` writes from a pb-ask run: per question its gate scores, the
raw score pb-verify computed (bias + sum of weight x gate score, weights as in calibration.json),
whether it was shown (status answered) and whether it is right (answerable, the answer holds a
gold answer and every citation holds it). The fit uses the shown answers of the fit half (even
positions): the confidence of a shown answer is then the probability that it is right, which is
what a reader takes it to mean. confidence = 1 / (1 + exp(a * raw + b)); a and b by Newton's
method on the log loss. The gate weights are not fitted here: they are the committed ones.
"""
import json, math, sys


def fit(xs, ys, iters=100):
    a, b = -1.0, 0.0  # p = 1 / (1 + exp(a x + b)), i.e. logit = -(a x + b)
    for _ in range(iters):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys):
            z = -(a * x + b)
            p = 1 / (1 + math.exp(-z))
            # d(loss)/dz = p - y; dz/da = -x, dz/db = -1
            ga += (p - y) * -x
            gb += (p - y) * -1
            w = p * (1 - p)
            haa += w * x * x
            hab += w * x
            hbb += w
        haa += 1e-6; hbb += 1e-6
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


def main():
    rows = [json.loads(l) for l in open(sys.argv[1])]
    out = sys.argv[2] if len(sys.argv) > 2 else None
    here = __file__.rsplit("/", 1)[0]
    current = json.load(open(here + "/calibration.json"))
    shown = [r for r in rows if r["i"] % 2 == 0 and r["status"] == "answered" and r["raw"] is not None]
    xs = [r["raw"] for r in shown]
    ys = [1.0 if r["right"] else 0.0 for r in shown]
    a, b = fit(xs, ys)
    current["platt"] = {"a": round(a, 4), "b": round(b, 4)}
    current["fitted_on"] = "SQuAD 2.0 dev half, fit half (even positions): %d shown answers, %d right" % (len(ys), int(sum(ys)))
    text = json.dumps(current, indent=2, sort_keys=True) + "\n"
    if out:
        open(out, "w").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()

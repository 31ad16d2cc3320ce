#!/usr/bin/env python3
"""Duckling's English time corpus (Evals/data/dates/duckling/time.clj, wit.ai, BSD) through the
built pb-date: the outside check of the date reader. Its values alternate between a tuning half
(the 1st, 3rd, ... value of the file, with all their phrases) and a check half (the 2nd, 4th, ...),
which is never tuned on; one EVALJSON line per half and for all.

The corpus lists phrases, then the value they all mean: `(datetime Y M D h m s ...)` for a point
in time (its grain is its last number, or the `:grain` it names: week, month, quarter, year), or
`(datetime-interval ...)` for an interval, which is out of scope here and counted as such. Every
phrase is read against the corpus's now, Tuesday 12 February 2013 04:30 at UTC-2, in that zone,
numeric dates month first as Duckling reads English.

A phrase passes when pb-date's first date agrees with the value on every component down to the
coarser of the two grains (as Evals/dates/run.sh compares: Duckling gives "7 days ago" an hour,
pb-date the day); a value of week grain or coarser passes when pb-date's range starts at it or
holds it.

  duckling.py PB_DATE [CORPUS]    DUCKLING_MISSES=1 lists the tuning half's failing phrases on stderr
"""
import collections
import datetime
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
pb_date = sys.argv[1]
corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "data", "dates", "duckling", "time.clj")
NOW, ZONE = "2013-02-12T04:30:00-02:00", "-02:00"
GRAINS = ["year", "month", "day", "hour", "minute", "second"]
# The named zones the corpus uses, as offsets in February (winter time).
ZONES = {"GMT": 0, "UTC": 0, "CET": 1}


def blocks(text):
    """(phrases, form) pairs: the strings before each top-level form, and the form's text."""
    text = re.sub(r";[^\n]*", "", text)
    i, depth, strings, out = text.index("(") + 1, 0, [], []
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            strings.append(json.loads(text[i:j + 1]))
            i = j + 1
        elif c in "({":
            start, depth = i, 1
            i += 1
            while depth:
                depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(text[i], 0)
                i += 1
            if c == "(":
                out.append((strings, text[start:i]))
            strings = []
        else:
            i += 1
    return out


cases, intervals = [], 0
for n, (phrases, form) in enumerate(blocks(open(corpus, encoding="utf-8").read())):
    head = form[1:].split()[0]
    if head != "datetime":
        intervals += len(phrases) if head == "datetime-interval" else 0
        continue
    numbers = [int(n) for n in re.findall(r"(?<![:\w-])(\d+)(?![\w])", form.split(":")[0])]
    grain = re.search(r":grain :(\w+)", form)
    grain = grain.group(1) if grain else GRAINS[len(numbers) - 1]
    value = numbers + [1, 1, 0, 0, 0][len(numbers) - 1:] if len(numbers) < 3 else numbers + [0] * (6 - len(numbers))
    # A value with a :timezone is that zone's wall time ("Thursday 8:00 GMT" is 08:00 in GMT).
    zone = re.search(r':timezone "(\w+)"', form)
    offset = ZONES[zone.group(1)] if zone else -2
    for p in phrases:
        cases.append({"text": p, "value": datetime.datetime(*value[:6]), "grain": grain, "offset": offset,
                      "half": "tune" if n % 2 == 0 else "check"})

lines = "".join(json.dumps({"text": c["text"], "case": i}) + "\n" for i, c in enumerate(cases))
out = subprocess.run([pb_date, "--now", NOW, "--time-zone", ZONE, "--date-order", "mdy", "--keep-going"],
                     input=lines.encode(), capture_output=True).stdout.decode()
first = {}
for line in out.splitlines():
    r = json.loads(line)
    if r.get("kind") == "date" and r.get("case") not in first:
        first[r["case"]] = r if r.get("value") else None


def local(v, offset=-2):
    if "T" not in v:
        return datetime.datetime.fromisoformat(v + "T00:00:00")
    return datetime.datetime.fromisoformat(v).astimezone(datetime.timezone(datetime.timedelta(hours=offset))).replace(tzinfo=None)


def agrees(r, c):
    want, grain = c["value"], c["grain"]
    lo = local(r["value"], c["offset"])
    if r.get("value_end") and r["grain"] in ("part-of-day", "week", "weekend", "month", "year", "days"):
        hi = local(r["value_end"]) + (datetime.timedelta(days=1) if "T" not in r["value_end"] else datetime.timedelta())
        if grain in ("week", "month", "quarter", "year"):
            return lo == want or lo <= want < hi
    if grain in ("week", "month", "quarter", "year") and r["grain"] not in ("day", "hour", "minute", "second"):
        return lo == want
    # Down to the coarser of the two grains, as Evals/dates/run.sh compares: Duckling gives "7 days
    # ago" an hour and "3 years from today" a month, where pb-date gives the day.
    mine = {"part-of-day": "hour", "days": "day"}.get(r["grain"], r["grain"])
    ranks = {g: i for i, g in enumerate(GRAINS)}
    coarse = {"week": "day", "quarter": "month"}.get(grain, grain)
    depth = min(ranks.get(coarse, 2), ranks.get(mine, 2)) + 1
    return all(getattr(lo, k) == getattr(want, k) for k in GRAINS[:depth])


results = []
for i, c in enumerate(cases):
    r = first.get(i)
    ok = bool(r) and agrees(r, c)
    results.append((c, ok))
    if not ok and c["half"] == "tune" and os.environ.get("DUCKLING_MISSES"):
        print(json.dumps({"text": c["text"], "want": c["value"].isoformat(), "grain": c["grain"],
                          "got": r and {k: r.get(k) for k in ("match", "value", "grain")}}), file=sys.stderr)
for half in ("tune", "check", "all"):
    chosen = [(c, ok) for c, ok in results if half == "all" or c["half"] == half]
    by_grain = collections.OrderedDict((g, [0, 0]) for g in ["year", "quarter", "month", "week", "day", "hour", "minute", "second"])
    for c, ok in chosen:
        by_grain[c["grain"]][0] += 1
        by_grain[c["grain"]][1] += ok
    passed = sum(ok for _, ok in chosen)
    print("EVALJSON " + json.dumps({"eval": "dates", "file": "duckling", "half": half, "cases": len(chosen), "passed": passed,
                                    "rate": round(passed / max(1, len(chosen)), 3), "intervals_out_of_scope": intervals,
                                    "by_grain": {g: round(p / n, 3) for g, (n, p) in by_grain.items() if n}}))

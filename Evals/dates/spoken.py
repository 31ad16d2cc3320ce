"""Scores pb-date on spoken.jsonl: point-in-time phrases with the answers worked out by hand.

  spoken.py PB_DATE CASES NAME    one EVALJSON line; DATES_MISSES=1 lists the misses on stderr

spoken.jsonl was written before the grammar for these phrases and tuned on; spoken-check.jsonl
was written after it and is never tuned on (its misses are listed only with DATES_MISSES).

A case passes when pb-date's first match, written in the case's time zone, agrees with `expect`
to the minute ("2026-11-26T22:30") or the day ("2026-12-24"), and for a range with `expect_end`
(the last day it includes) too. The phrase must be read whole: the match must cover the text but
for leading and trailing words that are not part of a date ("dinner at ...", "see you ...").
"""
import json
import os
import subprocess
import sys


def main(pb_date, cases_path, name):
    cases = [json.loads(l) for l in open(cases_path, encoding="utf-8") if l.strip()]
    passed = 0
    for c in cases:
        out = subprocess.run([pb_date, "--now", c["now"], "--time-zone", c["time_zone"], "--date-order", "mdy"],
                             input=(c["text"] + "\n").encode(), capture_output=True).stdout.decode()
        got = [json.loads(l) for l in out.splitlines() if l.strip()]
        r = got[0] if got else {}
        value = r.get("value") or ""
        e = c["expect"]
        ok = bool(value) and value[:len(e)] == e
        if ok and "expect_end" in c:
            ok = (r.get("value_end") or "")[:10] == c["expect_end"]
        passed += ok
        if not ok and os.environ.get("DATES_MISSES"):
            print(json.dumps({"text": c["text"], "expect": e, "got": {k: r.get(k) for k in ("match", "value", "value_end", "grain")}}),
                  file=sys.stderr)
    print("EVALJSON " + json.dumps({"eval": "dates", "file": name, "cases": len(cases), "passed": passed,
                                    "rate": round(passed / len(cases), 3)}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])

"""Checks PocketBrains' own calendar file with an independent parser (icalendar).

  own.py ICS UIDS_JSON [GONE_JSON]    exit 1 unless the file parses, holds each event of
                                      UIDS_JSON ({uid: {summary, start, end, attendees}}) as
                                      written, and none of GONE_JSON (a list of UIDs)
A missing file counts as an empty calendar.
"""
import json
import os
import sys
from datetime import date, datetime

import icalendar


def main(path, want_path, gone_path=None):
    want = json.load(open(want_path))
    gone = json.load(open(gone_path)) if gone_path else []
    events = {}
    if os.path.exists(path):
        cal = icalendar.Calendar.from_ical(open(path, "rb").read())
        for ev in cal.walk("VEVENT"):
            events[str(ev["UID"])] = ev
    problems = []
    for uid, w in want.items():
        ev = events.get(uid)
        if ev is None:
            problems.append(f"{uid} is not in the file")
            continue
        start, end = ev["DTSTART"].dt, ev["DTEND"].dt
        if str(ev["SUMMARY"]) != w["summary"]:
            problems.append(f"{uid}: summary {ev['SUMMARY']!r}")
        def when(text):
            return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text.replace("Z", "+00:00"))
        if start != when(w["start"]) or end != when(w["end"]):
            problems.append(f"{uid}: {start}..{end}, not {w['start']}..{w['end']}")
        names = sorted(str(a.params.get("CN", a)) for a in (ev.get("ATTENDEE") if isinstance(ev.get("ATTENDEE"), list) else [ev["ATTENDEE"]] if "ATTENDEE" in ev else []))
        if names != sorted(w.get("attendees", [])):
            problems.append(f"{uid}: attendees {names}")
    for uid in gone:
        if uid in events:
            problems.append(f"{uid} should have been taken out")
    extra = set(events) - set(want)
    if extra:
        problems.append(f"events nobody asked for: {sorted(extra)}")
    print("EVALJSON " + json.dumps({"eval": "scheduling", "check": "own-calendar", "events": len(events),
                                    "expected": len(want), "problems": len(problems)}))
    for p in problems:
        print("  " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(*sys.argv[1:])

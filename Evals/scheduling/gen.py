"""Writes calendar files and find_slot queries for the scheduling check (see run.sh).

  gen.py OUTDIR    OUTDIR/cal/*.ics and OUTDIR/plans.jsonl (one find_slot plan per query)

Seeded, so every run writes the same files. The calendars are written with Python's icalendar
(VTIMEZONE components included, as calendar programs write them): weekly and daily RRULEs with
COUNT and UNTIL, monthly BYDAY rules, EXDATEs, moved and cancelled occurrences (RECURRENCE-ID),
transparent events, all-day events, and events in Berlin, New York, Kolkata, London, UTC and
floating time. The weeks looked at cross the US (14 March 2027) and EU (28 March 2027) changes
to summer time.
"""
import json
import os
import random
import sys
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Europe/London", "UTC", None]


def calendar(rng, k):
    cal = Calendar()
    cal.add("prodid", "-//PocketBrains scheduling check//EN")
    cal.add("version", "2.0")
    zone_name = ZONES[k % len(ZONES)]
    tz = ZoneInfo(zone_name) if zone_name else None

    def at(d, h, m=0):
        t = datetime(d.year, d.month, d.day, h, m)
        return t.replace(tzinfo=tz) if tz else t

    def event(uid, start, minutes, summary, **extra):
        e = Event()
        e.add("uid", f"{uid}-{k}@check")
        e.add("dtstamp", datetime(2027, 1, 1, tzinfo=ZoneInfo("UTC")))
        e.add("summary", summary)
        e.add("dtstart", start)
        e.add("dtend", start + timedelta(minutes=minutes))
        for key, value in extra.items():
            e.add(key.replace("_", "-"), value)
        cal.add_component(e)
        return e

    base = date(2027, 3, 1)
    # A weekly meeting on three days, one occurrence cut, one moved.
    wk = base + timedelta(days=rng.randrange(0, 3))
    hour = rng.choice([9, 10, 11, 14])
    e = event("weekly", at(wk, hour, rng.choice([0, 30])), rng.choice([30, 60, 90]), "Weekly sync",
              rrule={"freq": "weekly", "byday": ["MO", "WE", "FR"], "until": datetime(2027, 4, 30, tzinfo=ZoneInfo("UTC"))})
    cut = wk + timedelta(days=14)
    e.add("exdate", at(cut, e["dtstart"].dt.hour, e["dtstart"].dt.minute))
    moved = wk + timedelta(days=21)
    orig = at(moved, e["dtstart"].dt.hour, e["dtstart"].dt.minute)
    event("weekly", at(moved, 15, 0), 60, "Weekly sync (moved)", recurrence_id=orig)
    cancelled = wk + timedelta(days=28)
    event("weekly", at(cancelled, e["dtstart"].dt.hour, e["dtstart"].dt.minute), 60, "Weekly sync (cancelled)",
          recurrence_id=at(cancelled, e["dtstart"].dt.hour, e["dtstart"].dt.minute), status="CANCELLED")
    # A daily run with a count.
    event("daily", at(base + timedelta(days=rng.randrange(5, 12)), rng.choice([12, 13]), 0), 45, "Lunch run",
          rrule={"freq": "daily", "count": rng.randrange(5, 15)})
    # The second Tuesday of each month.
    event("monthly", at(base, 16, 0), 60, "Board", rrule={"freq": "monthly", "byday": "2TU", "count": 6})
    # Single events, some transparent, one all day.
    for i in range(6):
        d = base + timedelta(days=rng.randrange(0, 35))
        start = at(d, rng.randrange(8, 17), rng.choice([0, 15, 30, 45]))
        extra = {"transp": "TRANSPARENT"} if i == 0 else {}
        event(f"single{i}", start, rng.choice([15, 30, 60, 120, 180]), f"Appointment {i}", **extra)
    allday = Event()
    allday.add("uid", f"allday-{k}@check")
    allday.add("dtstamp", datetime(2027, 1, 1, tzinfo=ZoneInfo("UTC")))
    allday.add("summary", "Conference")
    first = base + timedelta(days=rng.randrange(0, 30))
    allday.add("dtstart", first)
    allday.add("dtend", first + timedelta(days=rng.randrange(1, 4)))
    if k % 2:
        allday.add("transp", "OPAQUE")
    cal.add_component(allday)
    if tz:
        cal.add_missing_timezones()
    return cal


def main(out):
    rng = random.Random(16)
    os.makedirs(os.path.join(out, "cal"), exist_ok=True)
    for k in range(6):
        with open(os.path.join(out, "cal", f"cal{k}.ics"), "wb") as f:
            f.write(calendar(rng, k).to_ical())
    with open(os.path.join(out, "plans.jsonl"), "w") as f:
        for q in range(60):
            offset = rng.choice(["+00:00", "+01:00", "-05:00", "+05:30"])
            day0 = date(2027, 3, 1) + timedelta(days=rng.randrange(0, 28))
            now = f"{day0.isoformat()}T{rng.randrange(7, 15):02d}:{rng.choice(['00', '20', '45'])}:00{offset}"
            args = {"minutes": rng.choice([30, 45, 60, 90, 120, 240]), "from": day0.isoformat(),
                    "to": (day0 + timedelta(days=rng.randrange(0, 10))).isoformat(), "count": 50}
            if q % 4 == 1:
                args.update(start="08:00", end="18:30")
            if q % 7 == 3:
                args["weekends"] = True
            f.write(json.dumps({"now": now, "steps": [{"tool": "find_slot", "args": args}], "query": q}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

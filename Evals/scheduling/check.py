"""Checks find_slot's answers against an independent expansion of the same calendar files.

  check.py OUTDIR RESULTS    one EVALJSON line; exit 1 on any slot that is not free

The calendars are expanded by recurring-ical-events (on icalendar), not by PocketBrains. A slot
passes when all of its free stretch [start, free_until) lies inside the working hours of a working
day of the query, after the query's now, and overlaps no busy occurrence: an event not CANCELLED
whose TRANSP is OPAQUE, or, with no TRANSP, that is timed (PocketBrains' documented rule: an
all-day event does not fill the day unless it says it is OPAQUE). The stretches are also computed
here from the same rule, and the lists compared whole.
"""
import glob
import json
import sys
from datetime import date, datetime, time, timedelta, timezone

import icalendar
import recurring_ical_events


def offset_of(now):
    s = now[-6:]
    sign = -1 if s[0] == "-" else 1
    return timezone(sign * timedelta(hours=int(s[1:3]), minutes=int(s[4:6])))


def busy_intervals(cals, lo, hi, tz):
    out = []
    for cal in cals:
        for ev in recurring_ical_events.of(cal).between(lo, hi):
            if str(ev.get("STATUS", "")).upper() == "CANCELLED":
                continue
            start = ev["DTSTART"].dt
            end = ev["DTEND"].dt if "DTEND" in ev else start
            all_day = not isinstance(start, datetime)
            transp = str(ev.get("TRANSP", "")).upper()
            if transp == "TRANSPARENT" or (not transp and all_day):
                continue
            if all_day:
                start = datetime.combine(start, time(0), tz)
                end = datetime.combine(end, time(0), tz)
            else:
                # A floating time is in the reader's zone (the plan's offset).
                start = start if start.tzinfo else start.replace(tzinfo=tz)
                end = end if end.tzinfo else end.replace(tzinfo=tz)
            out.append((start, end))
    return sorted(out)


def parse(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def expected(plan, cals):
    args = plan["steps"][0]["args"]
    tz = offset_of(plan["now"])
    now = parse(plan["now"])
    d0, d1 = date.fromisoformat(args["from"]), date.fromisoformat(args["to"])
    sh, sm = map(int, args.get("start", "09:00").split(":"))
    eh, em = map(int, args.get("end", "17:00").split(":"))
    lo, hi = datetime.combine(d0, time(0), tz), datetime.combine(d1 + timedelta(days=1), time(0), tz)
    busy = busy_intervals(cals, lo, hi, tz)
    minutes = args["minutes"]
    q = 900
    start_from = datetime.fromtimestamp(-(-now.timestamp() // q) * q, tz)
    out = []
    d = d0
    while d <= d1:
        if args.get("weekends") or d.weekday() < 5:
            ws, we = datetime.combine(d, time(sh, sm), tz), datetime.combine(d, time(eh, em), tz)
            if we > now:
                cur = max(ws, start_from)
                for b0, b1 in busy:
                    if b1 <= cur or b0 >= we:
                        continue
                    if b0 > cur and (b0 - cur) >= timedelta(minutes=minutes):
                        out.append((cur, b0))
                    cur = max(cur, b1)
                if we - cur >= timedelta(minutes=minutes):
                    out.append((cur, we))
        d += timedelta(days=1)
    return out, busy, (sh * 60 + sm, eh * 60 + em), tz, now


def main(outdir, results_path):
    cals = [icalendar.Calendar.from_ical(open(p, "rb").read()) for p in sorted(glob.glob(f"{outdir}/cal/*.ics"))]
    plans = [json.loads(l) for l in open(f"{outdir}/plans.jsonl")]
    results = [json.loads(l) for l in open(results_path)]
    assert len(plans) == len(results), (len(plans), len(results))
    slots = bad = same = none_found = 0
    problems = []
    for plan, res in zip(plans, results):
        want, busy, (ws, we), tz, now = expected(plan, cals)
        step = res["steps"][0]
        if step["status"] != "ok":
            none_found += 1
            if want[:50]:
                problems.append({"query": plan["query"], "problem": "no slot found, but there are", "first": str(want[0])})
                bad += 1
            else:
                same += 1
            continue
        got = [(parse(s["start"]), parse(s["free_until"])) for s in step["data"]["slots"]]
        for g0, g1 in got:
            slots += 1
            local0, local1 = g0.astimezone(tz), g1.astimezone(tz)
            why = None
            if g0 < now:
                why = "before now"
            elif local0.date() != local1.date() and not (local1.time() == time(0) and we == 1440):
                why = "crosses midnight"
            elif local0.hour * 60 + local0.minute < ws or local1.hour * 60 + local1.minute > we and we < 1440:
                why = "outside working hours"
            elif not plan["steps"][0]["args"].get("weekends") and local0.weekday() >= 5:
                why = "on a weekend"
            elif (g1 - g0) < timedelta(minutes=plan["steps"][0]["args"]["minutes"]):
                why = "too short"
            else:
                for b0, b1 in busy:
                    if b0 < g1 and b1 > g0:
                        why = f"overlaps a busy event {b0.isoformat()}..{b1.isoformat()}"
                        break
            if why:
                bad += 1
                problems.append({"query": plan["query"], "slot": [g0.isoformat(), g1.isoformat()], "problem": why})
        same += got == want[:50]
    line = {"eval": "scheduling", "queries": len(plans), "slots": slots, "not_free": bad,
            "queries_with_no_slot": none_found, "lists_equal_to_independent": same}
    print("EVALJSON " + json.dumps(line))
    for p in problems[:20]:
        print("  " + json.dumps(p), file=sys.stderr)
    if bad or same != len(plans):
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

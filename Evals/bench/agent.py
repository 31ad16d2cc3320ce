#!/usr/bin/env python3
"""make bench, agent: what keeping the status snapshot costs a turn, and the morning brief, on a
store of N open tasks (default 5,000) with a calendar of a daily meeting. Each figure is a p50 of
repeated whole-process runs, next to a reference measured in the same run on the same store:
pb-exec of a one-step plan (which commits and rewrites status.json) against the same plan as a
dry run (the same work, rolled back, no snapshot), and pb-brief against pb-undo --list (a process
that opens the same store read-only and reads its journal). Prints JSON lines naming the CPU.

  agent.py BUILD OUT [N]
"""
import json, os, shutil, statistics, subprocess, sys, time

build, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
runs = 21
shutil.rmtree(out, ignore_errors=True)
os.makedirs(os.path.join(out, "cal"))
env = {k: v for k, v in os.environ.items() if k not in ("PB_LIBRARY", "PB_CALENDAR_DIR", "PB_WORK_HOURS", "PB_CONTACTS")}
env.update(PATH=build + ":" + os.environ["PATH"], PB_HOME=os.path.join(out, "home"), PB_CALENDAR_DIR=os.path.join(out, "cal"), TZ="UTC")
with open(os.path.join(out, "cal", "work.ics"), "w") as f:
    f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:standup@bench\r\n"
            "DTSTART;TZID=Europe/Berlin:20261102T100000\r\nDTEND;TZID=Europe/Berlin:20261102T103000\r\n"
            "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
steps = [{"n": i + 1, "tool": "create_task", "args": {"title": f"task {i} about thing {i % 97}", "due": f"2026-12-{i % 28 + 1:02d}"}}
         for i in range(n)]
seed = json.dumps({"kind": "plan", "now": "2026-12-01T09:00:00Z", "steps": steps}) + "\n"
subprocess.run(["pb-exec", "--json"], input=seed, text=True, env=env, check=True, capture_output=True)


def p50(cmd, stdin=""):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, input=stdin, text=True, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


info = {}
for line in open("/proc/cpuinfo"):
    if ":" in line:
        k, v = line.split(":", 1)
        info.setdefault(k.strip(), v.strip())
cpu = f"{info.get('model name', 'unknown')} (family {info.get('cpu family', '?')} model {info.get('model', '?')})"
plan = json.dumps({"kind": "plan", "now": "2026-12-05T08:00:00Z", "steps": [{"tool": "create_note", "args": {"body": "bench"}}]}) + "\n"
dry = p50(["pb-exec", "--json", "--dry-run"], plan)
turn = p50(["pb-exec", "--json"], plan)
print(json.dumps({"bench": "pb-exec", "store_open_tasks": n, "runs": runs, "p50_ms": round(turn, 1), "reference": "the same plan as a dry run",
                  "reference_p50_ms": round(dry, 1), "ratio": round(turn / dry, 2), "cpu": cpu}))
listing = p50(["pb-undo", "--list", "--json", "--limit", "5"])
brief = p50(["pb-brief", "--now", "2026-12-05T08:00:00Z", "--json"])
print(json.dumps({"bench": "pb-brief", "store_open_tasks": n, "runs": runs, "p50_ms": round(brief, 1), "reference": "pb-undo --list on the same store",
                  "reference_p50_ms": round(listing, 1), "ratio": round(brief / listing, 2), "cpu": cpu}))
shutil.rmtree(os.path.join(out, "home"), ignore_errors=True)

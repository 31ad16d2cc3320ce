#!/usr/bin/env python3
"""The everyday set (Evals/router/everyday): requests as people type them, each planned by the
built pb-plan against its own store (stores.jsonl, carried out by pb-exec into a PB_HOME of its
own, with its contacts as vCard files) at its own `now`, and judged as score.py judges a split:
the plan's tools in order and the labelled arguments; a case marked "writes": false must plan no
write, and no tool a case lists in "must_not" may appear. One EVALJSON line per half (tune, check)
and for all, with the right share per kind. The set is held out for the agent's everyday
phrasing; tuning is on its tune half only.

  everyday.py [--gate] BUILD_DIR [OUT_DIR]   EVERYDAY_MISSES=1: list the tune half's misses on stderr

Each line also gives selector_recall_at_8: of the tools a right plan needs, the share the tool
selector would offer a model (pb-plan --endpoint at a closed port plans with the grammar and
lists them in its receipt).

--gate (make test): exit 1 when a case that must write nothing plans a write, or when the check
half's right share falls under CHECK_FLOOR (measured on AMD EPYC; the planner reads words only,
so no CPU moves it) by more than one case.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import score  # noqa: E402

CHECK_FLOOR = 0.8817
argv = sys.argv[1:]
gate = "--gate" in argv
argv = [a for a in argv if a != "--gate"]
build = os.path.abspath(argv[0] if argv else ".build/release")
out = argv[1] if len(argv) > 1 else os.path.join(here, "..", "out", "router")
os.makedirs(out, exist_ok=True)
folder = os.path.join(here, "everyday")
cases = [json.loads(l) for l in open(os.path.join(folder, "cases.jsonl")) if l.strip()]
stores = {s["name"]: s for s in (json.loads(l) for l in open(os.path.join(folder, "stores.jsonl")) if l.strip())}

# Nothing of the user's own may leak in: every store gets a home of its own.
base = {k: v for k, v in os.environ.items() if k not in ("PB_HOME", "PB_LIBRARY", "PB_CALENDAR_DIR", "PB_WORK_HOURS", "PB_CONTACTS", "XDG_DATA_HOME")}
base["PATH"] = build + ":" + base.get("PATH", "")


def vcard(c):
    lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:" + c["fn"]]
    parts = c["fn"].split(" ", 1)
    lines.append("N:" + (parts[1] if len(parts) > 1 else "") + ";" + parts[0] + ";;;")
    if c.get("nickname"):
        lines.append("NICKNAME:" + c["nickname"])
    for t in c.get("tel", []):
        lines.append(f"TEL;TYPE={t.get('type', 'cell')}:{t['value']}")
    if c.get("email"):
        lines.append("EMAIL:" + c["email"])
    if c.get("org"):
        lines.append("ORG:" + c["org"])
    if c.get("adr"):
        lines.append("ADR:;;" + c["adr"].replace(",", "\\,") + ";;;;")
    if c.get("bday"):
        lines.append("BDAY:" + c["bday"])
    lines.append("END:VCARD")
    return "\r\n".join(lines) + "\r\n"


def home_for(name, tmp):
    home = os.path.join(tmp, name or "empty")
    contacts = os.path.join(tmp, (name or "empty") + "-contacts")
    if os.path.isdir(home):
        return home, contacts
    os.makedirs(home, mode=0o700)
    os.makedirs(contacts, mode=0o700)
    env = dict(base, PB_HOME=home, PB_CONTACTS=contacts)
    if name:
        s = stores[name]
        for i, c in enumerate(s.get("contacts", [])):
            with open(os.path.join(contacts, f"c{i:02d}.vcf"), "w") as f:
                f.write(vcard(c))
        record = {k: v for k, v in s.items() if k not in ("name", "contacts")}
        subprocess.run(["pb-exec", "--json"], input=json.dumps(record) + "\n", text=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    return home, contacts


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# pb-plan --endpoint at a port nobody listens on plans with the grammar at once, and its receipt
# lists the tools a model would have been offered: the tool selector's recall, with no model.
NO_SERVER = f"http://127.0.0.1:{closed_port()}"


def plan(case, tmp, offer=False):
    home, contacts = home_for(case.get("store"), tmp)
    env = dict(base, PB_HOME=home, PB_CONTACTS=contacts)
    request = {"text": case["text"], "now": case["now"]}
    # The person is where their clock is: the offset of `now` is their time zone (as TZ would be
    # on their machine; pb-plan(1) reads times in --time-zone, else TZ, else the system's zone).
    zone = case["now"][-6:] if case["now"][-6] in "+-" else "UTC"
    brain = ["--endpoint", NO_SERVER, "--timeout", "5"] if offer else []
    p = subprocess.run(["pb-plan", "--time-zone", zone] + brain, input=json.dumps(request) + "\n", text=True, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    return json.loads(lines[-1]) if lines else {"steps": [], "error": p.stderr.strip()[-300:]}


def silent(case):
    """Whether the case must write nothing ("writes": false, beside or inside its expect)."""
    return case.get("writes") is False or case["expect"].get("writes") is False


def canonical(v, key=""):
    """An argument as the set's README says to compare it: a repeat rule by its frequency ("weekly"
    and "FREQ=WEEKLY" alike), a list (attendees) as a set."""
    if isinstance(v, dict):
        return {k: canonical(x, k) for k, x in v.items()}
    if key == "rule" and isinstance(v, str):
        r = v.strip().lower()
        return r[5:] if r.startswith("freq=") and ";" not in r else r
    if isinstance(v, list):
        return sorted(str(score.norm(x)) for x in v)
    return v


def judge(case, p):
    expect = dict(case["expect"])
    want = expect.get("args")
    expect["args"] = [canonical(w) for w in want] if isinstance(want, list) else canonical(want) if want is not None else None
    p = dict(p, steps=[dict(st, args=canonical(st.get("args", {}))) for st in p.get("steps", [])])
    tools_ok, args_ok = score.check(expect, p)
    if silent(case) and score.writes(p):
        return False
    if set(case.get("must_not", [])) & {s["tool"] for s in p.get("steps", [])}:
        return False
    return bool(args_ok)


with tempfile.TemporaryDirectory() as tmp:
    results = []
    with open(os.path.join(out, "everyday.plans.jsonl"), "w") as f:
        for c in cases:
            p = plan(c, tmp)
            f.write(json.dumps({"id": c["id"], "plan": p}) + "\n")
            results.append((c, p, judge(c, p)))
        # What the selector offers, for every case a right plan has tools for.
        offers = {}
        for c in cases:
            if c["expect"].get("tools"):
                offers[c["id"]] = (plan(c, tmp, offer=True).get("receipt") or {}).get("offered", [])

def recall(chosen):
    """The share of the tools a right plan needs that the selector offered (cases with tools)."""
    wanted = [(t, c["id"]) for c in chosen if c["id"] in offers for t in set(c["expect"]["tools"])]
    return round(sum(t in offers[i] for t, i in wanted) / max(1, len(wanted)), 4)


figures = {}
for half in ("tune", "check", "all"):
    chosen = [(c, p, ok) for c, p, ok in results if half == "all" or c["half"] == half]
    kinds = {}
    for c, _, ok in chosen:
        k = kinds.setdefault(c["kind"], [0, 0])
        k[0] += ok
        k[1] += 1
    quiet = [(c, p) for c, p, _ in chosen if silent(c)]
    figures[half] = {"right": sum(ok for *_, ok in chosen) / max(1, len(chosen)), "n": len(chosen),
                     "wrote": sum(bool(score.writes(p)) for _, p in quiet)}
    print("EVALJSON " + json.dumps({"eval": "router-everyday", "half": half, "cases": len(chosen),
                                    "right": round(sum(ok for *_, ok in chosen) / max(1, len(chosen)), 4),
                                    "must_write_nothing": len(quiet),
                                    "wrote_when_it_must_not": sum(bool(score.writes(p)) for _, p in quiet),
                                    # wrote nothing, but asked back which item or what to write
                                    "asked": sum(bool(score.asked(p)) for _, p, _ in chosen),
                                    "selector_recall_at_8": recall([c for c, *_ in chosen]),
                                    "by_kind": {k: round(v[0] / v[1], 4) for k, v in sorted(kinds.items())}}))
if os.environ.get("EVERYDAY_MISSES"):
    for c, p, ok in results:
        if not ok and c["half"] == "tune":
            got = [[s["tool"], s.get("args", {})] for s in p.get("steps", [])]
            print("  miss " + c["id"] + ": " + json.dumps({"text": c["text"], "want": c["expect"], "got": got}, ensure_ascii=False), file=sys.stderr)
if gate:
    problems = []
    if figures["all"]["wrote"]:
        problems.append(f"{figures['all']['wrote']} requests that must write nothing planned a write")
    if figures["check"]["right"] < CHECK_FLOOR - 1 / figures["check"]["n"] - 1e-9:
        problems.append(f"check half right {figures['check']['right']:.4f} under {CHECK_FLOOR} by more than one case")
    if problems:
        print("everyday gate failed: " + "; ".join(problems))
        sys.exit(1)
    print("everyday gate: passed")

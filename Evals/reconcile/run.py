#!/usr/bin/env python3
"""Reconciliation eval: does each of the nine rules fire where it must, and only there?

Each case of cases.jsonl is a request planned by pb-plan (mode "plan": the grammar proposes) or a
plan another planner might have written for it (mode "reconcile": pb-plan --reconcile checks it),
with the store's open tasks when the case names some (a fresh PB_HOME per case; "store": [] is a
new user's empty store). A case that says nothing of the store plans with --no-store: it tests
the rules on the request alone, as they were written before R9 read the store. A case is right
when the kept steps' tools, the set of rules that fired, each proposal's outcome (reconcile mode)
and the named arguments (null: absent) are what it expects. The cases were written before the
rules were tuned and are never edited to match their output.

usage: run.py [--gate] [BUILD_DIR]      prints EVALJSON lines; --gate exits 1 unless every case is right
"""
import json, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
gate = bool(args) and args[0] == "--gate"
if gate:
    args = args[1:]
build = os.path.abspath(args[0] if args else os.path.join(here, "..", "..", ".build", "release"))
env = {k: v for k, v in os.environ.items() if k not in ("PB_HOME", "PB_LIBRARY", "XDG_DATA_HOME", "PB_CONTACTS", "PB_CALENDAR_DIR", "PB_WORK_HOURS", "PB_FROM")}
env["TZ"] = "UTC"


def run(cmd, stdin, home):
    e = dict(env, PB_HOME=home)
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=e)
    return p.returncode, p.stdout, p.stderr


def fired(plan):
    return sorted(r["id"] for r in plan.get("rules") or [] if r.get("changes"))


def check(case, plan):
    want = case["expect"]
    why = []
    tools = [s["tool"] for s in plan.get("steps", [])]
    if tools != want["tools"]:
        why.append(f"tools {tools} != {want['tools']}")
    if fired(plan) != sorted(want["fired"]):
        why.append(f"fired {fired(plan)} != {sorted(want['fired'])}")
    if "outcomes" in want:
        got = [r["outcome"] for r in plan.get("review", [])]
        if got != want["outcomes"]:
            why.append(f"outcomes {got} != {want['outcomes']}")
    for i, expected in enumerate(want.get("args", [])):
        steps = plan.get("steps", [])
        if i >= len(steps):
            if expected:
                why.append(f"no step {i + 1} to check")
            continue
        for k, v in expected.items():
            if steps[i]["args"].get(k) != v:
                why.append(f"step {i + 1} {k} = {steps[i]['args'].get(k)!r}, want {v!r}")
    return why


def main():
    cases = [json.loads(l) for l in open(os.path.join(here, "cases.jsonl")) if l.strip()]
    results = []
    for case in cases:
        with tempfile.TemporaryDirectory() as home:
            if case.get("store"):
                seed = {"kind": "plan", "steps": [{"tool": "create_task", "args": {"title": t}} for t in case["store"]]}
                code, _, err = run([os.path.join(build, "pb-exec")], json.dumps(seed) + "\n", home)
                if code != 0:
                    sys.exit(f"reconcile: {case['id']}: could not seed the store: {err.strip()}")
            if case["mode"] == "plan":
                record = {"text": case["text"], "now": case["now"]}
                if "capture" in case:
                    record["capture"] = case["capture"]
                cmd = [os.path.join(build, "pb-plan")]
            else:
                record = {"kind": "plan", "text": case["text"], "now": case["now"], "steps": case["steps"], "source": "model"}
                if case.get("capture"):
                    record["capture"] = True
                cmd = [os.path.join(build, "pb-plan"), "--reconcile"]
            if "store" not in case:
                cmd.append("--no-store")
            code, out, err = run(cmd, json.dumps(record) + "\n", home)
            if code != 0:
                results.append((case, [f"pb-plan exit {code}: {err.strip()}"]))
                continue
            results.append((case, check(case, json.loads(out))))
    per_rule = {}
    for rid in ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]:
        mine = [why for c, why in results if rid in c["expect"]["fired"]]
        per_rule[rid] = {"cases": len(mine), "right": round(sum(1 for w in mine if not w) / len(mine), 4) if mine else None}
    untouched = [why for c, why in results if not c["expect"]["fired"]]
    right = sum(1 for _, w in results if not w)
    print("EVALJSON " + json.dumps({"eval": "reconcile", "cases": len(results), "right": round(right / len(results), 4),
                                    "untouched_cases": len(untouched),
                                    "untouched_right": round(sum(1 for w in untouched if not w) / len(untouched), 4),
                                    "per_rule": per_rule}))
    for c, why in results:
        if why:
            print(f"reconcile: {c['id']}: " + "; ".join(why), file=sys.stderr)
    if gate and right != len(results):
        print("reconcile: every case must be right", file=sys.stderr)
        sys.exit(1)


main()

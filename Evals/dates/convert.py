#!/usr/bin/env python3
"""Extracts the English cases of chrono's and dateparser's test suites into cases.jsonl.

Run from anywhere: python3 Evals/dates/convert.py [DATA_DIR] (default Evals/data/dates, the
evaluation data in the repository). Each output line: {file, text, now, expect, scope, category,
why}, where expect is {year, month, day[, hour, minute]} (what the source test checks), null for
"no date here", or a list of such objects (dateparser's search cases, one per date in the text).
Cases we do not try to pass are kept with scope "out" and the reason, so the figures can be checked
against the sources.
"""
import ast
import io
import json
import os
import re
import sys
import tokenize
from datetime import datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "data", "dates")

# ---------------------------------------------------------------- chrono (TypeScript, read by a small scanner)


def split_args(s):
    """Top-level comma split of a call's argument text, respecting strings and brackets."""
    out, depth, cur, i, q = [], 0, "", 0, None
    while i < len(s):
        c = s[i]
        if q:
            cur += c
            if c == "\\":
                cur += s[i + 1]
                i += 1
            elif c == q:
                q = None
        elif c in "\"'`":
            q = c
            cur += c
        elif c in "([{":
            depth += 1
            cur += c
        elif c in ")]}":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def call_at(src, start):
    """The argument text of the call whose "(" is at src[start]."""
    depth, i, q = 0, start, None
    while i < len(src):
        c = src[i]
        if q:
            if c == "\\":
                i += 1
            elif c == q:
                q = None
        elif c in "\"'`":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return src[start + 1:i]
        i += 1
    return None


def js_string(arg):
    arg = arg.strip()
    if len(arg) >= 2 and arg[0] in "\"'`" and arg[-1] == arg[0]:
        body = arg[1:-1]
        if arg[0] == "`" and "${" in body:
            return None
        return body.encode().decode("unicode_escape") if "\\" in body else body
    return None


DATE_RE = re.compile(r"^new Date\(\s*(\d{4})\s*,\s*(\d+)\s*,\s*(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?\s*\)$")


def js_date(arg):
    m = DATE_RE.match(arg.strip())
    if not m:
        return None
    y, mo, d, h, mi, s = (int(x) if x else 0 for x in m.groups()[:6])
    # JavaScript rolls overflowing fields over (month 12 is January of the next year).
    return datetime(y + mo // 12, mo % 12 + 1, 1) + timedelta(days=d - 1, hours=h, minutes=mi, seconds=s)


GET_RE = re.compile(r'result\.start\.get\("(\w+)"\)\)\.toBe\((-?\d+)\)')
TOBEDATE_RE = re.compile(r"expect\(result\.start\)\.toBeDate\((new Date\([^)]*\))\)")


def chrono_cases(path):
    src = open(path, encoding="utf-8").read()
    name = os.path.basename(path)
    for m in re.finditer(r"\b(testSingleCase|testWithExpectedDate|testUnexpectedResult)\(", src):
        kind = m.group(1)
        args = split_args(call_at(src, m.end() - 1) or "")
        if len(args) < 2:
            continue
        text = js_string(args[1])
        if text is None:
            continue
        case = {"file": "chrono/" + name, "text": text, "scope": "in", "category": category_of(name, text)}
        ref = None
        rest = args[2:]
        if rest and rest[0].startswith("new Date"):
            ref = js_date(rest[0])
            if ref is None:
                continue
            rest = rest[1:]
        elif rest and rest[0].startswith("{") and "instant" in rest[0]:
            case.update(scope="out", why="reference given as an instant with a time zone")
        if kind == "testUnexpectedResult":
            case["expect"] = None
            if args[0].strip() == "chrono.strict" or "strict" in args[0]:
                case.update(scope="out", why="strict mode refuses casual words; pb-date is always casual")
        elif kind == "testWithExpectedDate":
            d = js_date(args[2]) if len(args) > 2 else None
            if d is None:
                continue
            case["expect"] = comps(d, with_time=True)
        else:
            body = next((a for a in rest if "=>" in a), None)
            if body is None:
                continue
            got = {}
            for g in GET_RE.finditer(body.split("result.end")[0]):
                got.setdefault(g.group(1), int(g.group(2)))
            if not got:
                t = TOBEDATE_RE.search(body)
                d = js_date(t.group(1)) if t else None
                if d is None:
                    continue
                got = comps(d, with_time=True)
            keep = {k: got[k] for k in ("year", "month", "day", "hour", "minute") if k in got}
            if "day" not in keep and "hour" not in keep:
                continue
            case["expect"] = keep
            if "option" in args[0] or any("forwardDate" in a for a in args):
                case.update(scope="out", why="chrono parsing options (forwardDate and the like)")
        if ref is None:
            if case["scope"] == "in" and not re.search(r"\b\d{4}\b", text):
                case.update(scope="out", why="no reference date: chrono uses the wall clock")
            ref = datetime(2012, 8, 10, 12, 0)
        case["now"] = ref.strftime("%Y-%m-%dT%H:%M:%S")
        # Zones in the text (EST, CEST, "GMT+2") are read since 2026-12-04; the time is checked
        # as written in the zone named (pb-date gives that zone's offset in `zone`).
        if name == "test_en_en_performance.test.ts":
            continue
        yield case


def comps(d, with_time):
    c = {"year": d.year, "month": d.month, "day": d.day}
    if with_time:
        c.update(hour=d.hour, minute=d.minute)
    return c


def category_of(name, text):
    base = name.replace("test_en_en_", "").replace("test_en_", "").replace(".test.ts", "")
    return base


# ---------------------------------------------------------------- dateparser (Python, read with ast)


def language_comments(src):
    """Line number -> language named by a "# English ..." style comment."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            m = re.match(r"#\s*([A-Z][a-z]+)", tok.string)
            if m:
                out[tok.start[0]] = m.group(1)
    return out


def literal(node):
    try:
        return ast.literal_eval(node)
    except Exception:
        return None


def dt(node):
    """datetime(...) or datetime.datetime(...) with constant arguments."""
    if isinstance(node, ast.Call):
        f = node.func
        fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
        if fname == "datetime":
            vals = [literal(a) for a in node.args]
            if all(isinstance(v, int) for v in vals) and len(vals) >= 3:
                return datetime(*vals[:6])
    return None


def relative(now, ago=None, future=None):
    spec, sign = (ago, -1) if ago else (future, 1)
    y = spec.get("years", 0) * sign
    mo = spec.get("months", 0) * sign
    total_months = now.month - 1 + mo
    year = now.year + y + total_months // 12
    month = total_months % 12 + 1
    import calendar
    day = min(now.day, calendar.monthrange(year, month)[1])
    d = now.replace(year=year, month=month, day=day)
    return d + sign * timedelta(weeks=spec.get("weeks", 0), days=spec.get("days", 0), hours=spec.get("hours", 0),
                                minutes=spec.get("minutes", 0), seconds=spec.get("seconds", 0))


CUES = re.compile(r"\b(ago|in|from now|later|before|after|yesterday|today|tomorrow|last|next|this|hence|back|earlier|within)\b", re.I)


def dateparser_cases(path):
    src = open(path, encoding="utf-8").read()
    name = os.path.basename(path)
    comments = language_comments(src)
    tree = ast.parse(src)
    seen = set()

    def language_at(line):
        above = [l for l in comments if l < line]
        return comments[max(above)] if above else None

    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "param"):
            continue
        args = node.args
        kw = {k.arg: k.value for k in node.keywords}
        if name == "tests_test_search.py":
            if len(args) < 3 or literal(args[0]) != "en" or not isinstance(literal(args[1]), str):
                continue
            text = literal(args[1])
            pairs = args[2]
            if not isinstance(pairs, ast.List):
                continue
            expect = []
            for el in pairs.elts:
                if isinstance(el, ast.Tuple) and len(el.elts) == 2 and dt(el.elts[1]):
                    expect.append(comps(dt(el.elts[1]), with_time=True))
            if not expect:
                continue
            base = datetime(2000, 1, 1)
            settings = kw.get("settings")
            case = {"file": "dateparser/" + name, "text": text, "expect": expect, "scope": "in", "category": "search"}
            if isinstance(settings, ast.Dict):
                for k, v in zip(settings.keys, settings.values):
                    if literal(k) == "RELATIVE_BASE" and dt(v):
                        base = dt(v)
                    elif literal(k) not in ("RELATIVE_BASE",):
                        case.update(scope="out", why="dateparser settings other than a relative base")
            case["now"] = base.strftime("%Y-%m-%dT%H:%M:%S")
        else:
            if language_at(node.lineno) != "English" or not args or not isinstance(literal(args[0]), str):
                continue
            text = literal(args[0])
            if name == "tests_test_freshness_date_parser.py":
                now = datetime(2014, 9, 1, 10, 30)
                ago = literal(kw["ago"]) if "ago" in kw else None
                fut = literal(kw["in_future"]) if "in_future" in kw else None
                if not isinstance(ago or fut, dict):
                    continue
                target = relative(now, ago, fut)
                period = literal(kw.get("period")) if "period" in kw else None
                case = {"file": "dateparser/" + name, "text": text, "now": now.strftime("%Y-%m-%dT%H:%M:%S"),
                        "expect": comps(target, with_time=period in (None, "time", "hour", "minute", "second")),
                        "scope": "in", "category": "relative"}
                if not CUES.search(text):
                    case.update(scope="out", why="a bare amount (\"2 hours\") means that long ago in dateparser; pb-date needs ago/in")
            else:
                if len(args) < 2 or dt(args[1]) is None:
                    continue
                now = datetime(2012, 11, 13)
                case = {"file": "dateparser/" + name, "text": text, "now": now.strftime("%Y-%m-%dT%H:%M:%S"),
                        "expect": comps(dt(args[1]), with_time=True), "scope": "in", "category": "absolute"}
                if re.search(r"\b(ago|last|next|tomorrow|yesterday|today)\b", text, re.I):
                    case["category"] = "relative"
                if re.search(r"\b(UTC|GMT|EST|PST|CET|EET|[+-]\d{2}:?\d{2})\b", text):
                    case.update(scope="out", why="time zone names and offsets inside the text")
                if kw:
                    case.update(scope="out", why="dateparser settings (prefer dates from, date order)")
        key = (case["file"], case["text"], json.dumps(case["expect"]))
        if key in seen:
            continue
        seen.add(key)
        yield case


def main():
    out = []
    chrono_dir = os.path.join(DATA, "chrono")
    for f in sorted(os.listdir(chrono_dir)):
        if f.endswith(".test.ts"):
            out.extend(chrono_cases(os.path.join(chrono_dir, f)))
    dp_dir = os.path.join(DATA, "dateparser")
    for f in sorted(os.listdir(dp_dir)):
        if f.endswith(".py"):
            out.extend(dateparser_cases(os.path.join(dp_dir, f)))
    with open(os.path.join(HERE, "cases.jsonl"), "w", encoding="utf-8") as fh:
        for i, c in enumerate(out, 1):
            c["id"] = i
            # Both libraries read English all-numeric dates month first (US order).
            c["date_order"] = "mdy"
            fh.write(json.dumps(c, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"convert: {len(out)} cases, {sum(c['scope'] == 'in' for c in out)} in scope", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/bin/sh
# The repository's own documents stay true:
#   1. docs/ARCHITECTURE.md names only targets Package.swift declares, names every library and
#      executable target it declares with the dependencies Package.swift gives it, and every path
#      it names in backquotes exists (a `*` is a glob that must match; a placeholder such as
#      <Name> or NNNN stands for any; a path from inside a target is one some target holds).
#   2. Evals/RESULTS.md is what `make results` renders from the recorded outputs, and every number
#      in its tables is one those outputs hold (Evals/results.py --check).
#   3. The README stays a short introduction (at most 200 lines), and every file it links exists.
#   4. Every option a program asks for by name is one its CommandSpec declares.
#
#   sh Tests/house.sh
#
# Ends with "house: N passed, N failed" and exits 1 on failure, naming what is wrong.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python3 - <<'PY'
import glob, os, re, subprocess, sys
failed = []
passed = 0
def check(ok, why):
    global passed
    if ok:
        passed += 1
    else:
        failed.append(why)

package = open("Package.swift", encoding="utf-8").read()
declared = {name: kind for kind, name in re.findall(r'\.(target|executableTarget|systemLibrary|testTarget)\(name: "([^"]+)"', package)}
arch = open("docs/ARCHITECTURE.md", encoding="utf-8").read()
quoted = set(re.findall(r"`([^`\n]+)`", arch))
# The targets are the first column of the table under "Targets", the C ones listed in its row
# "C targets".
section = arch.split("## Targets", 1)[1].split("\n## ", 1)[0]
named = set()
for line in section.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
    if len(cells) < 2 or set(cells[0]) <= set("-"):
        continue
    cell = cells[1] if cells[0] == "C targets" else cells[0]
    named |= {q for q in re.findall(r"`([^`]+)`", cell) if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", q)}
check(len(named) > 10, "docs/ARCHITECTURE.md: no table of targets found under Targets")
for name in sorted(named):
    check(name in declared, f"docs/ARCHITECTURE.md names the target {name}, which Package.swift does not declare")
for name, kind in sorted(declared.items()):
    if kind != "testTarget":
        check(name in named, f"Package.swift declares the target {name}, which docs/ARCHITECTURE.md does not name")
for q in sorted(quoted):
    if not re.match(r"(?:Sources|Tests|Evals|bin|man|docs|mk)/|Package\.swift$", q):
        continue
    if re.search(r"<[^>]+>|NNNN", q):
        # A placeholder: the part before it must exist.
        head = re.split(r"<[^>]+>|NNNN", q)[0]
        check(os.path.exists(head) or bool(glob.glob(head + "*")), f"docs/ARCHITECTURE.md names {q}, and nothing is at {head}")
    elif "*" in q:
        check(bool(glob.glob(q)), f"docs/ARCHITECTURE.md names {q}, which matches nothing")
    else:
        check(os.path.exists(q), f"docs/ARCHITECTURE.md names {q}, which does not exist")

# A path written from inside a target (`Records/`, `Verify/VerifyCommand.swift`) is one some
# target holds.
for q in sorted(quoted):
    if re.match(r"(?:Sources|Tests|Evals|bin|man|docs|mk)/", q) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*/[A-Za-z0-9_./]*", q):
        continue
    check(bool(glob.glob(os.path.join("Sources", "*", q))), f"docs/ARCHITECTURE.md names {q}, which no target under Sources holds")

# The "depends on" column is Package.swift's dependencies of each target.
def dependencies(name):
    m = re.search(r'\.(?:target|executableTarget)\(\s*name: "%s"[^)]*?dependencies: \[([^\]]*)\]' % re.escape(name), package, re.S)
    return set(re.findall(r'"([^"]+)"', m.group(1))) if m else set()
libraries = {n for n, k in declared.items() if k == "target" and n.startswith("PB") and n not in ("PBFuzz", "PBBench")}
for line in section.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
    if len(cells) < 3 or not re.fullmatch(r"`[A-Za-z][A-Za-z0-9]*`", cells[0]):
        continue
    name = cells[0].strip("`")
    said = cells[2]
    if said == "none":
        written = set()
    elif "every `PB*` library above" in said:
        written = libraries
    else:
        written = {w.strip() for w in said.split(",")}
    actual = dependencies(name)
    check(written == actual, f"docs/ARCHITECTURE.md says {name} depends on {sorted(written)}; Package.swift says {sorted(actual)}")

r = subprocess.run([sys.executable, "Evals/results.py", "--check"], capture_output=True, text=True)
check(r.returncode == 0, "Evals/RESULTS.md: " + (r.stderr.strip() or r.stdout.strip()))

readme = open("README.md", encoding="utf-8").read()
check(len(readme.splitlines()) <= 200, f"README.md has {len(readme.splitlines())} lines; it is an introduction, at most 200 (figures go to Evals/RESULTS.md, history to CHANGELOG.md)")
for link in re.findall(r"\]\(([^)#]+)\)", readme):
    if not re.match(r"[a-z]+://", link):
        check(os.path.exists(link), f"README.md links {link}, which does not exist")

# Options are looked up by their long name (`o.flag("keep-going")`): a name no spec declares reads
# as never given. In a file that declares a program's CommandSpec, every name asked for is one it
# declares; elsewhere (a helper shared by programs), one some program declares.
sources = {f: open(f, encoding="utf-8").read() for f in glob.glob("Sources/**/*.swift", recursive=True)}
# Every ParsedOptions is called `o`, so the check below sees every lookup.
for path, text in sorted(sources.items()):
    for name in re.findall(r'\b([A-Za-z_]+): ParsedOptions\b', text):
        check(name == "o", f"{path} names a ParsedOptions '{name}'; call it o, which the option check reads")

declare = re.compile(r'(?:OptionSpec|\.init)\(\s*"([a-z0-9-]+)"|Entry\(long: "([a-z0-9-]+)"')
def declared_in(text):
    return {a or b for a, b in declare.findall(text)} | {"help", "version"}
everywhere = set().union(*(declared_in(t) for t in sources.values()))
# Parsed options are `o` wherever they are read (a tool's `args` and an SQLite row's `s` are not).
asks = re.compile(r'\bo\.(?:flag|value|all|int|double|choice)\("([a-z0-9-]+)"')
for path, text in sorted(sources.items()):
    for name in sorted(set(asks.findall(text))):
        known = declared_in(text) if "CommandSpec(" in text else everywhere
        check(name in known, f"{path} asks for the option --{name}, which " + ("its CommandSpec does not declare" if "CommandSpec(" in text else "no CommandSpec declares"))

for why in failed:
    print("FAIL: " + why)
print(f"house: {passed} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
PY

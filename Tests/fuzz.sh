#!/bin/sh
# make fuzz: each parser of untrusted input under libFuzzer with AddressSanitizer, for
# FUZZ_SECONDS each (default 60), seeded from the fixtures, the golden inputs and the planner's
# labelled requests. Prints one JSON line per target (runs, seconds, crashes); every crash input
# is kept under Tests/Fuzz/regressions/TARGET/.
#   sh Tests/fuzz.sh [TARGET ...]          fuzz (every target when none is named)
#   sh Tests/fuzz.sh --replay [BUILD]      make test: the seeds and every kept crash input, once
#                                          each, through BUILD/PBFuzz (built without sanitizers)
set -u
unset PB_LIBRARY
# Days are counted in UTC, whatever zone the machine is set to, so results repeat anywhere.
TZ=UTC; export TZ
root=$(cd "$(dirname "$0")/.." && pwd)
targets="ndjson html markdown csv docx office officexml mail ocrtsv pdftext wordpiece chunk date intent memory vcard textfile ics vcf"

# Seeds: one file per input the project already knows, under $1/TARGET.
make_seeds() {
  out=$1
  rm -rf "$out"
  fx="$root/Tests/Fixtures"
  seed() {  # seed TARGET FILE...
    t=$1; shift
    mkdir -p "$out/$t"
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$out/$t/$(echo "$f" | sed "s|^$root/||; s|/|_|g")"; done
  }
  texts() {  # texts TARGET MAX FILE...: the "text" of each JSON line, one seed each
    t=$1 max=$2; shift 2
    mkdir -p "$out/$t"
    cat "$@" 2>/dev/null | head -n "$max" | python3 -c '
import json, sys
d = sys.argv[1]
for i, line in enumerate(sys.stdin):
    try: text = json.loads(line).get("text")
    except Exception: continue
    if isinstance(text, str): open("%s/text-%05d" % (d, i), "w").write(text)' "$out/$t"
  }
  seed ndjson $(find "$root/Tests/Golden" -name input | LC_ALL=C sort | head -200)
  seed html "$fx"/documents/*.html "$fx"/samples/*.html
  seed markdown "$fx"/samples/*.md "$root/README.md"
  seed csv "$fx"/samples/*.csv
  seed docx "$fx"/documents/*.docx "$fx"/samples/*.docx
  # Office packages and their parts: the first byte of a seed picks the reader.
  mkdir -p "$out/office" "$out/officexml" "$out/mail" "$out/ocrtsv"
  i=0
  for f in odt:letter.odt ods:budget.ods xlsx:budget.xlsx pptx:deck.pptx; do
    printf "\\$(printf '%03o' $i)" >"$out/office/${f#*:}"
    cat "$fx/office/${f#*:}" >>"$out/office/${f#*:}"
    i=$((i + 1))
  done
  python3 - "$fx/office" "$out/officexml" <<'PY'
import sys, zipfile
src, out = sys.argv[1:]
parts = [(0, "letter.odt", "content.xml"), (1, "budget.ods", "content.xml"), (2, "budget.xlsx", "xl/worksheets/sheet1.xml"),
         (2, "budget.xlsx", "xl/sharedStrings.xml"), (2, "budget.xlsx", "xl/styles.xml"), (3, "deck.pptx", "ppt/slides/slide2.xml"),
         (3, "deck.pptx", "ppt/notesSlides/notesSlide2.xml"), (4, "letter.odt", "meta.xml")]
for n, (reader, name, part) in enumerate(parts):
    with zipfile.ZipFile(f"{src}/{name}") as z:
        open(f"{out}/{n:02d}-{name}-{part.replace('/', '_')}", "wb").write(bytes([reader]) + z.read(part))
PY
  printf '\000' >"$out/mail/repair-quote.eml" && cat "$fx/office/repair-quote.eml" >>"$out/mail/repair-quote.eml"
  printf '\001' >"$out/mail/club.mbox" && cat "$fx/office/club.mbox" >>"$out/mail/club.mbox"
  if command -v tesseract >/dev/null 2>&1; then
    OMP_THREAD_LIMIT=1 tesseract "$fx/scans/receipt.png" stdout tsv >"$out/ocrtsv/receipt.tsv" 2>/dev/null
  fi
  seed pdftext "$fx"/samples/*.txt
  if command -v pdftotext >/dev/null 2>&1; then
    pdftotext "$fx/documents/sample.pdf" "$out/pdftext/sample.pdf.txt" 2>/dev/null
    pdftotext "$fx/samples/dishwasher-manual.pdf" "$out/pdftext/dishwasher.pdf.txt" 2>/dev/null
    # Laid out (-layout), as the reader reads pages with tables: columns of cells, wrapped cells.
    for pdf in "$root"/Evals/household/docs/*.pdf; do
      pdftotext -layout "$pdf" "$out/pdftext/layout-$(basename "$pdf").txt" 2>/dev/null
    done
  fi
  seed wordpiece "$fx"/samples/*.txt "$fx"/samples/*.md
  seed chunk "$fx"/samples/*.txt "$fx"/samples/*.md "$fx"/samples/*.csv
  seed date "$root"/Tests/Golden/pb-date/*/input
  # Inputs that once lost text or took quadratic time: UTF-16 and UTF-32 text with and without a
  # mark, NULs in UTF-8 text, and a CSV of 2,000 columns (the chunk target's first byte picks the format).
  python3 - "$out" <<'PY'
import os, sys
out = sys.argv[1]
text = "The boiler pressure should be 1.5 bar.\nTop it up at the filling loop. Caf\u00e9.\n"
wide = ",".join("c%d" % i for i in range(2000)) + "\n" + ",".join(str(i % 10) for i in range(2000)) + "\n"
seeds = {
    "chunk": {"utf16le": b"\0" + text.encode("utf-16-le"), "utf16be-bom": b"\0" + text.encode("utf-16"),
              "utf32le": b"\0" + text.encode("utf-32-le"), "nul": b"\0The gate code is 5190.\0 The alarm code is 2231.\n",
              "nul-md": b"\1# Codes\n\nGate \0\0 5190.\n", "wide-csv": b"\3" + wide.encode()},
    "csv": {"wide": wide.encode(), "nul": b"a,b\n1,\0\n"},
    "markdown": {"utf16le": text.encode("utf-16-le")},
    "textfile": {"utf16le": text.encode("utf-16-le"), "utf16be": text.encode("utf-16-be"), "utf16-bom": text.encode("utf-16"),
                 "utf32le": text.encode("utf-32-le"), "utf32-bom": text.encode("utf-32"), "utf8": text.encode(),
                 "nul": b"The gate code is 5190.\0 The alarm code is 2231.\n", "odd-utf16": text.encode("utf-16")[:-1]},
}
for target, files in seeds.items():
    os.makedirs(f"{out}/{target}", exist_ok=True)
    for name, data in files.items():
        open(f"{out}/{target}/encoding-{name}", "wb").write(data)
PY
  seed vcard "$fx"/contacts/*.vcf
  seed ics "$fx"/calendar/*.ics $(find "$root/Tests/Golden" -name '*.ics' | LC_ALL=C sort)
  seed vcf "$fx"/contacts/*.vcf "$fx"/calendar/*.vcf $(find "$root/Tests/Golden" -name '*.vcf' | LC_ALL=C sort)
  texts date 2000 "$root"/Evals/router/*.jsonl
  texts intent 2000 "$root"/Evals/router/*.jsonl
  texts memory 200 "$root"/Evals/memory/supersession/messages.ndjson "$root"/Tests/Golden/pb-remember/*/input
}

if [ "${1:-}" = --replay ]; then
  build=$(cd "${2:-$root/.build/release}" && pwd)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  make_seeds "$tmp"
  status=0 n=0 kept=0
  for t in $targets; do
    files=$(find "$tmp/$t" "$root/Tests/Fuzz/regressions/$t" -type f 2>/dev/null | LC_ALL=C sort)
    [ -n "$files" ] || { echo "fuzz replay: FAILED: no inputs for $t"; status=1; continue; }
    # shellcheck disable=SC2086
    if "$build/PBFuzz" "$t" $files >/dev/null; then
      n=$((n + $(echo "$files" | wc -l)))
    else
      echo "fuzz replay: FAILED: $t (status $?)"; status=1
    fi
    [ -d "$root/Tests/Fuzz/regressions/$t" ] && kept=$((kept + $(find "$root/Tests/Fuzz/regressions/$t" -type f | wc -l)))
  done
  echo "fuzz replay: $n inputs through $(echo $targets | wc -w) targets ($kept of them crash inputs kept from make fuzz), none crashed"
  exit $status
fi

[ $# -gt 0 ] && targets="$*"
seconds=${FUZZ_SECONDS:-60}
work="$root/.build/fuzz-work"
swift build -c release --build-path "$root/.build/fuzz" -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
  --product PBFuzz 2>&1 | grep -E "error:|Build" >&2
fuzzer="$root/.build/fuzz/release/PBFuzz"
[ -x "$fuzzer" ] || { echo "fuzz: no fuzzer was built" >&2; exit 1; }
make_seeds "$work/seeds"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')

total_runs=0 total_crashes=0
for t in $targets; do
  rm -rf "$work/artifacts/$t"
  mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
  log="$work/$t.log"
  # No LeakSanitizer (detect_leaks=0, in libFuzzer and at exit): it reports every compiled
  # NSRegularExpression, kept ones too (Foundation holds them in a way it cannot follow). Growth
  # is caught by -rss_limit_mb and -malloc_limit_mb instead; LSan's report at exit is what found
  # the planner compiling its patterns per call (19.5 MB after 35,000 requests), now fixed.
  ASAN_OPTIONS=detect_leaks=0 PB_FUZZ_TARGET=$t "$fuzzer" -malloc_limit_mb=1024 -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -detect_leaks=0 \
    -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" "$work/seeds/$t" >"$log" 2>&1
  runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  # A crash ends the run early; its input is kept for make test.
  crashes=0
  for a in "$work/artifacts/$t"/*; do
    [ -f "$a" ] || continue
    mkdir -p "$root/Tests/Fuzz/regressions/$t"
    cp "$a" "$root/Tests/Fuzz/regressions/$t/"
    crashes=$((crashes + 1))
  done
  total_runs=$((total_runs + ${runs:-0})) total_crashes=$((total_crashes + crashes))
  echo "{\"fuzz\":\"$t\",\"seconds\":$seconds,\"runs\":${runs:-0},\"crashes\":$crashes,\"corpus\":$(find "$work/corpus/$t" -type f | wc -l),\"cpu\":\"$cpu\"}"
  if [ $crashes != 0 ]; then
    echo "fuzz: $t crashed; the input is in Tests/Fuzz/regressions/$t, the report in $log" >&2
    grep -m3 -A14 "ERROR\|Fatal error\|deadly signal" "$log" >&2
  fi
done
echo "{\"fuzz\":\"total\",\"runs\":$total_runs,\"crashes\":$total_crashes}"
[ $total_crashes = 0 ]

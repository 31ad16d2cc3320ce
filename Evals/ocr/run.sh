#!/bin/sh
# Evals/ocr: what reading by OCR costs, on pages made by real tools, through the real programs.
#   SciFact (check-half queries, see ocr.py): each abstract typeset by groff -ms, rendered by
#   pdftoppm at 300 dpi in grey and wrapped into an image-only PDF (a scan); the same documents
#   as text files. Both are chunked, embedded and indexed (libraries ocr-text and ocr-scan); the
#   queries are searched in each, fused and lexical only.
#   The sample manual's two pages the same way, its true text being pdftotext's, and the other
#   samples as LibreOffice prints them (samples/make.sh).
# Prints EVALJSON lines: character error rate against the true text, and nDCG@10 and Recall@10
# for text and for scans. With --gate, exits 1 when a figure passes its floor (ocr.py FLOORS).
# With --quick (make test), the manual only: two pages, some seconds.
set -eu
unset PB_LIBRARY
build=$(cd "${1:-.build/release}" && pwd)
shift || true
gate=0
quick=0
for a in "$@"; do
  case $a in --gate) gate=1 ;; --quick) quick=1 ;; *) echo "run.sh: unknown option $a" >&2; exit 64 ;; esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/Evals/data/scifact"
out="$root/Evals/out/ocr"
rm -rf "$out"
mkdir -p "$out/scan" "$out/ocr" "$out/pages"
export PATH="$build:$PATH" PB_HOME="$out/home"
images="$root/Tests/Fixtures/scans/pdf-of-images.py"

if [ $quick = 0 ]; then python3 "$here/ocr.py" prepare "$data" "$out"; else mkdir -p "$out/ms"; fi
start=$(date +%s)
for ms in "$out"/ms/*.ms; do
  [ -f "$ms" ] || continue
  id=$(basename "$ms" .ms)
  groff -ms -Tpdf -K utf8 "$ms" >"$out/pages/$id.pdf" 2>/dev/null
  pdftoppm -r 300 -gray "$out/pages/$id.pdf" "$out/pages/$id"
  python3 "$images" "$out/scan/$id.pdf" 300 "$out/pages/$id"-*.pgm
  rm -f "$out/pages/$id"-*.pgm
done
# The sample manual: its own text layer is the truth, its pages rendered the same way are the scan.
mkdir -p "$out/manual/truth" "$out/manual/scan" "$out/manual/ocr"
pdftotext -enc UTF-8 "$root/Tests/Fixtures/samples/dishwasher-manual.pdf" "$out/manual/truth/dishwasher-manual.txt"
pdftoppm -r 300 -gray "$root/Tests/Fixtures/samples/dishwasher-manual.pdf" "$out/pages/manual"
python3 "$images" "$out/manual/scan/dishwasher-manual.pdf" 300 "$out/pages/manual"-*.pgm
rm -f "$out/pages/manual"-*.pgm
echo "ocr: pages made in $(( $(date +%s) - start ))s" >&2

if [ $quick = 1 ]; then
  pb-chunk --text-layer "$out/manual/scan/dishwasher-manual.pdf" >"$out/manual/ocr/dishwasher-manual.txt"
  python3 "$here/ocr.py" cer "$out/manual/truth" "$out/manual/ocr" dishwasher-manual | tee "$out/evaljson.txt"
  [ $gate = 1 ] && python3 "$here/ocr.py" gate "$out/evaljson.txt"
  exit 0
fi
# The other samples as LibreOffice prints them (samples/make.sh), rendered and read the same way.
mkdir -p "$out/samples/truth" "$out/samples/scan" "$out/samples/ocr"
# Their truth is pdftotext -layout, which keeps a table's rows on their lines as OCR reads them
# (without -layout, pdftotext reads a table column by column).
pdftotext -layout -enc UTF-8 "$root/Tests/Fixtures/samples/dishwasher-manual.pdf" "$out/samples/truth/dishwasher-manual.txt"
cp "$out/manual/scan/dishwasher-manual.pdf" "$out/samples/scan/"
for pdf in "$here"/samples/*.pdf; do
  name=$(basename "$pdf" .pdf)
  pdftotext -layout -enc UTF-8 "$pdf" "$out/samples/truth/$name.txt"
  pdftoppm -r 300 -gray "$pdf" "$out/pages/$name"
  python3 "$images" "$out/samples/scan/$name.pdf" 300 "$out/pages/$name"-*.pgm
  rm -f "$out/pages/$name"-*.pgm
done
start=$(date +%s)
pb-chunk --library ocr-text "$out"/text/*.txt | pb-embed | pb-index --library ocr-text 2>"$out/index-text.log"
pb-chunk --library ocr-scan "$out"/scan/*.pdf | pb-embed | pb-index --library ocr-scan 2>"$out/index-scan.log"
pages=$(for f in "$out"/scan/*.pdf; do pdfinfo "$f" | sed -n 's/^Pages: *//p'; done | awk '{ n += $1 } END { print n }')
echo "ocr: $pages scanned pages read and indexed in $(( $(date +%s) - start ))s" >&2
# The text OCR read (from its cache: no page is read twice).
for f in "$out"/scan/*.pdf; do pb-chunk --text-layer "$f" >"$out/ocr/$(basename "$f" .pdf).txt"; done
pb-chunk --text-layer "$out/manual/scan/dishwasher-manual.pdf" >"$out/manual/ocr/dishwasher-manual.txt"
for f in "$out"/samples/scan/*.pdf; do pb-chunk --text-layer "$f" >"$out/samples/ocr/$(basename "$f" .pdf).txt"; done

{
  python3 "$here/ocr.py" cer "$out/text" "$out/ocr" scifact-check
  python3 "$here/ocr.py" cer "$out/manual/truth" "$out/manual/ocr" dishwasher-manual
  python3 "$here/ocr.py" cer "$out/samples/truth" "$out/samples/ocr" samples --cells
  pb-embed <"$out/queries.jsonl" >"$out/queries-embedded.jsonl"
  for library in ocr-text ocr-scan; do
    pb-search --library "$library" --k 10 <"$out/queries-embedded.jsonl" >"$out/results-$library.jsonl"
    python3 "$here/ocr.py" score "$out/qrels.json" "$out/results-$library.jsonl" "scifact-check-${library#ocr-}" fused
    pb-search --library "$library" --k 10 --lists lexical <"$out/queries-embedded.jsonl" >"$out/results-$library-lexical.jsonl" 2>/dev/null
    python3 "$here/ocr.py" score "$out/qrels.json" "$out/results-$library-lexical.jsonl" "scifact-check-${library#ocr-}" lexical
  done
} | tee "$out/evaljson.txt"
[ $gate = 1 ] && python3 "$here/ocr.py" gate "$out/evaljson.txt"
exit 0

#!/bin/sh
# Reading speed per document format, for make bench: MB/s of pb-chunk over each format's fixture
# (read 200 times in one process), next to pb-chunk over the same file's text layer saved as
# plain text in the same run (the ratio is what reading the format costs over chunking its text);
# and OCR pages/s over the scanned manual and the receipt with an empty cache, next to tesseract
# itself on the same page pictures in the same run. Each line names the CPU.
#   sh Evals/bench/formats.sh BUILD OUT
set -eu
build=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
fx="$root/Tests/Fixtures"
export PATH="$build:$PATH"
mkdir -p "$out"
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) (family $(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -n 1) model $(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -n 1))"
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
times=200
for f in samples/tenancy-agreement.docx office/letter.odt office/budget.ods office/budget.xlsx office/deck.pptx \
         office/repair-quote.eml office/club.mbox samples/lisbon-itinerary.html samples/dishwasher-manual.pdf; do
  file="$fx/$f"
  name=$(basename "$f")
  format=$(pb-chunk "$file" | jq -r .format | head -n 1)
  pb-chunk --text-layer "$file" >"$out/$name.txt"
  set --
  i=0; while [ $i -lt $times ]; do set -- "$@" "$file"; i=$((i + 1)); done
  t0=$(now); pb-chunk "$@" >/dev/null; t1=$(now)
  set --
  i=0; while [ $i -lt $times ]; do set -- "$@" "$out/$name.txt"; i=$((i + 1)); done
  r0=$(now); pb-chunk "$@" >/dev/null; r1=$(now)
  bytes=$(($(wc -c <"$file") * times))
  echo "{\"bench\":\"pb-chunk-format\",\"format\":\"$format\",\"file\":\"$name\",\"reads\":$times,\"mb\":$(calc "$bytes / 1000000"),\"seconds\":$(calc "$t1 - $t0"),\"mb_per_s\":$(calc "$bytes / 1000000 / ($t1 - $t0)"),\"text_layer_seconds\":$(calc "$r1 - $r0"),\"ratio_to_text_layer\":$(calc "($t1 - $t0) / ($r1 - $r0)"),\"cpu\":\"$cpu\"}"
done
# OCR with an empty cache; the reference is tesseract alone on the pictures pb-chunk reads
# (the receipt as it is, the manual's pages rendered as pb-chunk renders them).
export PB_HOME="$out/ocr-home"
rm -rf "$PB_HOME"
t0=$(now); pb-chunk "$fx/scans/scanned-manual.pdf" "$fx/scans/receipt.png" >/dev/null; t1=$(now)
pdftoppm -r 300 -gray -png "$fx/scans/scanned-manual.pdf" "$out/page"
r0=$(now)
for image in "$out"/page-*.png "$fx/scans/receipt.png"; do OMP_THREAD_LIMIT=1 tesseract "$image" stdout -l eng --psm 3 tsv >/dev/null 2>&1; done
r1=$(now)
pages=3
echo "{\"bench\":\"pb-chunk-ocr\",\"pages\":$pages,\"seconds\":$(calc "$t1 - $t0"),\"pages_per_s\":$(calc "$pages / ($t1 - $t0)"),\"tesseract_seconds\":$(calc "$r1 - $r0"),\"ratio_to_tesseract\":$(calc "($t1 - $t0) / ($r1 - $r0)"),\"threads\":1,\"cpu\":\"$cpu\"}"
t0=$(now); pb-chunk "$fx/scans/scanned-manual.pdf" "$fx/scans/receipt.png" >/dev/null; t1=$(now)
echo "{\"bench\":\"pb-chunk-ocr\",\"cached\":true,\"pages\":$pages,\"seconds\":$(calc "$t1 - $t0"),\"cpu\":\"$cpu\"}"
rm -rf "$PB_HOME"

#!/bin/sh
# Makes the scanned fixtures with real tools, so OCR is tested on what a scanner or a phone
# would hand it and not on text typed by hand (run again after changing a source; commit both):
#   scanned-manual.pdf  the two pages of samples/dishwasher-manual.pdf rendered by pdftoppm at
#                       200 dpi in grey and wrapped, one image per page, into a PDF with no text
#                       layer (pdf-of-images.py, a PDF writer of 40 lines: no tool here makes one);
#   mixed-manual.pdf    page 1 as text (pdfseparate), page 2 as the scan (pdfunite);
#   receipt.png         receipt.ms typeset by groff (ms, tbl) and rendered by pdftoppm at 150 dpi;
#   blank.pdf           one white page, rendered and wrapped the same way: a scan with nothing on it;
#   receipt-photo.jpg   receipt.png as a phone would take it (ImageMagick, a fixture-only tool): on
#                       cream paper against a dark table, turned 2.5 degrees, a little perspective,
#                       sensor noise, blur, lower contrast, JPEG at quality 72.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
manual="$here/../samples/dishwasher-manual.pdf"
pdftoppm -r 200 -gray "$manual" "$tmp/page"
python3 "$here/pdf-of-images.py" "$here/scanned-manual.pdf" 200 "$tmp"/page-*.pgm
pdfseparate -f 1 -l 1 "$manual" "$tmp/text-1.pdf"
pdfseparate -f 2 -l 2 "$here/scanned-manual.pdf" "$tmp/scan-2.pdf"
pdfunite "$tmp/text-1.pdf" "$tmp/scan-2.pdf" "$here/mixed-manual.pdf"
groff -ms -t -Tpdf "$here/receipt.ms" >"$tmp/receipt.pdf"
pdftoppm -r 150 -gray -png -singlefile "$tmp/receipt.pdf" "$here/receipt"
printf '.sp 1\n\\&\n' | groff -Tpdf >"$tmp/blank.pdf"
pdftoppm -r 100 -gray -singlefile "$tmp/blank.pdf" "$tmp/blank"
python3 "$here/pdf-of-images.py" "$here/blank.pdf" 100 "$tmp/blank.pgm"
convert "$here/receipt.png" -colorspace sRGB -fill '#efe6d2' -opaque white -bordercolor '#5e564c' -border 80 \
  -background '#5e564c' -rotate 2.5 \
  -distort Perspective '0,0 12,8  %[fx:w-1],0 %[fx:w-20],0  0,%[fx:h-1] 0,%[fx:h-1]  %[fx:w-1],%[fx:h-1] %[fx:w-1],%[fx:h-1]' \
  -attenuate 0.5 +noise Gaussian -blur 0x0.8 -brightness-contrast -5x-15 -quality 72 "$here/receipt-photo.jpg"

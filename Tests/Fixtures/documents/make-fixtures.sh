#!/bin/sh
# Re-makes the binary document fixtures (tests) and bundled samples (make demo) from the
# sources beside this script. Needs groff (gropdf), poppler-utils, zip/unzip, iconv, and python3
# with python-docx (pip install python-docx). Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src="$here/sources"
samples=$(cd "$here/../samples" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Test fixtures.
python3 "$src/make_docx_fixture.py" "$here/sample.docx"
# The same document with its entries stored (method 0) rather than deflated, and without the
# styles part (350 KB of python-docx's template), so headings must be known by style id alone.
(cd "$tmp" && mkdir stored && cd stored && unzip -q "$here/sample.docx" &&
    rm -f "$here/sample-stored.docx" &&
    zip -q -0 -X "$here/sample-stored.docx" '[Content_Types].xml' _rels/.rels docProps/core.xml \
        word/document.xml word/_rels/document.xml.rels word/numbering.xml)
python3 "$src/make_zip_without_document.py" "$here/no-document.docx"
iconv -f UTF-8 -t WINDOWS-1252 "$src/sample-cp1252.html" > "$here/sample-cp1252.html"
groff -ms -Tpdf "$src/sample.ms" > "$here/sample.pdf"

# Bundled samples.
groff -t -ms -Tpdf "$src/dishwasher-manual.ms" > "$samples/dishwasher-manual.pdf"
python3 "$src/make_tenancy_docx.py" "$samples/tenancy-agreement.docx"

pdftotext -enc UTF-8 -eol unix "$here/sample.pdf" - > /dev/null
echo "fixtures written to $here and $samples"
